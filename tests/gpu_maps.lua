-- Activation maps and checkpoints on the GPU, every layout, fp32 and fp64,
-- against the CPU backend:
--   * maps (sim:activation): the GPU tracks the same rule on its own state.
--     fp64: the states are bitwise the CPU's, so the maps differ only by the
--     rounding of the interpolation (fast-math division on the GPU): within
--     1e-3 ms, upstroke counts equal. fp32: activation times within dt (as
--     tests/gpu_agreement.lua), APD within 0.5%, counts equal in at least
--     99.9% of the cells (a cell at threshold may tip either way).
--   * pseudo-ECG (sim:ecg) at three electrodes sampled every 5 ms: relative
--     difference from the CPU's within 1e-9 (fp64) and 2e-3 (fp32) of the
--     largest |value| of the electrode's trace.
--   * phase singularities (sim:tips) of spirals set into the state: equal to
--     the CPU's (details below).
--   * checkpoints: a GPU run saved half way and continued in a new GPU
--     simulation ends bit for bit where the uninterrupted one ends (every
--     state variable); a checkpoint the CPU wrote continues on the GPU (fp64)
--     to the CPU's own continuation within 1e-9 of the V range; regional
--     parameters restored with params = true continue bit for bit.
-- Skipped (exit 77) without a GPU; CARDIAC_GPU_TEST_ON_CPU=1 runs the "GPU"
-- side on the CPU (a self-check of this script: every comparison exact).
package.path = (arg[0]:match("(.*/)") or "./") .. "../scripts/?.lua;" .. package.path   -- require "phase"
local self_check = os.getenv("CARDIAC_GPU_TEST_ON_CPU") == "1"
local gpu, why = cardiac.gpu()
if self_check then gpu = {name = "none (CPU self-check)"} end
if not gpu then
  print("SKIPPED: no GPU: " .. why)
  os.exit(77)
end
cardiac.quiet = true
print("GPU: " .. gpu.name)
local gpu_backend = self_check and "cpu" or "cuda"

local pass, fail = 0, 0
local function check(cond, fmt, ...)
  if cond then pass = pass + 1 else fail = fail + 1 end
  print((cond and "ok   " or "FAIL ") .. fmt:format(...))
end

-- a masked sheet or box; two stimuli so that cells see two upstrokes
local function make(o)
  local n = o.dim == 3 and {37, 29, 23} or {75, 61}
  local m = cardiac.mesh{n = n, dx = 0.25}
  local c = {}
  for a = 1, #n do c[a] = n[a] * 0.25 / 2 end
  m:set_tissue(cardiac.sphere{center = c, radius = n[1] * 0.25 / 6}, false)
  local sim = cardiac.simulation{mesh = m, model = "karma", dt = 0.05, D = 0.1, backend = o.backend,
                                 precision = o.precision, layout = o.layout, tsteps = o.tsteps, blocks = o.blocks}
  sim:add_stimulus(cardiac.stimulus{region = cardiac.slab{axis = "x", from = 0, to = 1}, amplitude = 3,
                                    duration = 1, start = 0, period = 400, count = 2})
  return sim, m
end

local layouts = {
  {layout = "naive"}, {layout = "window"}, {layout = "tower"}, {layout = "tblock", tsteps = 3},
  {blocks = 8}, {blocks = 3},
  {layout = "tplane", tsteps = 2, only3d = true},   -- tplane runs volumes only
}
-- the thesis' window and tower layouts are in CARDIAC_THESIS_LAYOUTS=ON builds only
do
  local built, kept = {}, {}
  for _, l in ipairs(cardiac.layouts()) do built[l.name] = l.built end
  for _, l in ipairs(layouts) do if not l.layout or built[l.layout] then kept[#kept + 1] = l end end
  layouts = kept
end
if self_check then layouts = {{}, {blocks = 3}} end
local function label(l)
  return l.blocks and ("blocks " .. l.blocks) or (l.layout or "default") .. (l.tsteps and (" " .. l.tsteps) or "")
end

-- three electrodes around the tissue: ahead of the wave, beside it, above it
local function electrodes(dim)
  return dim == 3 and {{12, 3.6, 2.9}, {-3, 3.6, 2.9}, {4.6, 3.6, 9}} or {{22, 7.6, 0}, {-3, 7.6, 0}, {9.4, 7.6, 5}}
end

-- 625 ms: two beats 400 ms apart and their repolarisation (Karma's tau_E = 2.5 ms; with
-- tau_E = 1 ms the test ran 250 ms of beats 160 ms apart). On the CPU (2026-11-25) every
-- tissue cell of both meshes then has 2 upstrokes and an APD (127-131 ms).
local NSTEPS = 12500
for _, precision in ipairs{"fp32", "fp64"} do
  for _, dim in ipairs{2, 3} do
    local cpu, mesh = make{dim = dim, backend = "cpu", precision = precision}
    local cmaps = cpu:activation{}
    local cecg = cpu:ecg{electrodes = electrodes(dim), interval = 5}
    cpu:step(NSTEPS)
    local ce = cecg:data()
    local cf, capd, ccount = cmaps:field("first"), cmaps:field("apd"), cmaps:field("count")
    for _, l in ipairs(layouts) do
      if not (l.only3d and dim ~= 3) then
        local o = {dim = dim, backend = gpu_backend, precision = precision}
        for k, v in pairs(l) do o[k] = v end
        local g = make(o)
        local gmaps = g:activation{}
        local gecg = g:ecg{electrodes = electrodes(dim), interval = 5}
        g:step(NSTEPS)
        local ge = gecg:data()
        local de = 0
        for q = 1, 3 do
          local big = 0
          for r = 1, #ce[q] do big = math.max(big, math.abs(ce[q][r])) end
          for r = 1, #ce[q] do de = math.max(de, math.abs(ce[q][r] - ge[q][r]) / big) end
        end
        local gf, gapd, gcount = gmaps:field("first"), gmaps:field("apd"), gmaps:field("count")
        local dfirst, dapd, napd, miss, cells = 0, 0, 0, 0, 0
        for q = 1, #cf do
          if cf[q] == cf[q] or gf[q] == gf[q] then
            cells = cells + 1
            dfirst = math.max(dfirst, math.abs(cf[q] - gf[q]))
            if capd[q] == capd[q] then dapd, napd = math.max(dapd, math.abs(capd[q] - gapd[q]) / capd[q]), napd + 1 end
            if ccount[q] ~= gcount[q] then miss = miss + 1 end
          end
        end
        local name = ("%s %dD %s"):format(precision, dim, label(l))
        local tol = precision == "fp64" and 1e-3 or 0.05
        check(cells > 0.9 * mesh.tissue and dfirst <= tol,
              "%s maps: %d activated cells, activation times within %.2g ms (tolerance %g)", name, cells, dfirst, tol)
        check(napd > cells // 2 and dapd <= (precision == "fp64" and 1e-5 or 5e-3) and miss <= cells // 1000,
              "%s maps: APD within %.2g (relative, %d cells with an APD), counts differ in %d cells", name, dapd, napd, miss)
        check(de <= (precision == "fp64" and 1e-9 or 2e-3), "%s pseudo-ECG: %d samples x 3 electrodes within %.2g",
              name, #ge.t, de)
        -- checkpoint half way, continue in a new simulation
        local a = make(o)
        a:step(NSTEPS // 2)
        a:checkpoint("results/gpu_maps_checkpoint.h5", {overwrite = true})
        a:step(NSTEPS // 2)
        local b = make(o)
        b:restore("results/gpu_maps_checkpoint.h5")
        b:step(NSTEPS // 2)
        local d = math.max((a:diff(b, "U")), (a:diff(b, "v")))
        check(d == 0 and a.t == b.t, "%s checkpoint: continued run equal bit for bit (max |diff| %g)", name, d)
        a:close(); b:close(); g:close()
      end
    end
    cpu:close()
  end
end

-- phase singularities (sim:tips) found on the GPU: spirals set into the
-- state of every layout, two precisions, 2D and 3D (filaments tilted across
-- x and z); the tips and filaments equal the CPU's with a given centre of the
-- phase, and with the tissue means as centre (which the GPU sums in another
-- order) the same in number and within one cell
local phase = require "phase"
local function set_spirals(sim, dim)
  phase.spirals(sim, dim == 3 and {{2.3, 2.0, 1}, {7.0, 5.2, -1}} or {{4.1, 3.3, 1}, {14.6, 11.2, -1}, {4.4, 12.0, 1}},
                {tilt = 0.3})
end
local function tip_gap(a, b)          -- the largest distance between matched tips (math.huge: counts differ)
  if #a ~= #b then return math.huge end
  local gap = 0
  for q = 1, #a do
    local d = 0
    for _, k in ipairs{"x", "y", "z"} do d = d + ((a[q][k] or 0) - (b[q][k] or 0)) ^ 2 end
    if a[q].charge ~= b[q].charge or a[q].faces ~= b[q].faces then return math.huge end
    gap = math.max(gap, math.sqrt(d))
  end
  return gap
end
for _, precision in ipairs{"fp32", "fp64"} do
  for _, dim in ipairs{2, 3} do
    local cpu = make{dim = dim, backend = "cpu", precision = precision}
    set_spirals(cpu, dim)
    local ct, cm = cpu:tips{centre = {1, 0.5}}, cpu:tips{}
    for _, l in ipairs(layouts) do
      local o = {dim = dim, backend = gpu_backend, precision = precision}
      for k, v in pairs(l) do o[k] = v end
      if l.only3d and dim ~= 3 then goto next_layout end
      local g = make(o)
      set_spirals(g, dim)
      local gt, gm = g:tips{centre = {1, 0.5}}, g:tips{}
      check(#ct > 0 and tip_gap(ct, gt) == 0 and tip_gap(cm, gm) <= 0.25 * math.sqrt(3),
            "%s %dD %s tips: %d %s equal to the CPU's; with the means as centre %d, within %.3g mm",
            precision, dim, label(l), #gt, dim == 3 and "filaments" or "tips", #gm, tip_gap(cm, gm))
      g:close()
      ::next_layout::
    end
    cpu:close()
  end
end

-- the GPU reads the two phase variables as one type: with ORd, a gate
-- stored in float ("mixed"), in half ("fp32h", "fp32g") or as a 16-bit
-- fraction ("fp32g") beside V is refused, naming the gate; two double states
-- (mixed) or two float ones (fp32h, fp32g) are found
if not self_check then
  for _, c in ipairs{{"mixed", "m", "in float"}, {"fp32h", "m", "in half"}, {"mixed", "cai"}, {"fp32h", "cai"},
                     {"fp32g", "j", "as a 16-bit fraction"}, {"fp32g", "m", "in half"}, {"fp32g", "cai"}} do
    local sim = cardiac.simulation{mesh = cardiac.mesh{n = {12, 10}, dx = 0.25}, model = "ohara_rudy", D = 0.1,
                                   precision = c[1], backend = "cuda", multirate = c[1] == "fp32g" and 10 or nil}
    local ok, err = pcall(sim.tips, sim, {vars = {"V", c[2]}, centre = {-80, 1e-4}})
    if c[3] then
      check(not ok and tostring(err):find("phase singularities: state '" .. c[2] .. "' is stored " .. c[3], 1, true),
            "ORd %s tips of V and %s: refused, naming the gate (%s)", c[1], c[2], tostring(err))
    else
      check(ok, "ORd %s tips of V and %s: found (%d at rest)", c[1], c[2], ok and #err or -1)
    end
    sim:close()
  end
end

-- a CPU checkpoint continued on the GPU (fp64)
local c1 = make{dim = 3, backend = "cpu", precision = "fp64"}
c1:step(2500)
c1:checkpoint("results/gpu_maps_checkpoint.h5", {overwrite = true})
c1:step(2500)
local g1 = make{dim = 3, backend = gpu_backend, precision = "fp64"}
g1:restore("results/gpu_maps_checkpoint.h5")
g1:step(2500)
local d = c1:diff(g1, "U")
check(d <= 4e-9, "fp64 checkpoint from the CPU continued on the GPU: max |diff| %g (V range 4)", d)

-- regional parameters restored from a checkpoint on the GPU (params = true):
-- the continued run equals the uninterrupted one bit for bit
for _, l in ipairs(layouts) do
  local o = {dim = 3, backend = gpu_backend, precision = "fp32"}
  for k, v in pairs(l) do o[k] = v end
  local a = make(o)
  a:step(1000)
  a:set_param("eps", 0.02, cardiac.slab{axis = "x", from = 0, to = 4})
  a:set_param({gamma = 1.6, xm = 8}, cardiac.slab{axis = "y", from = 3, to = 6})
  a:step(1000)
  a:checkpoint("results/gpu_maps_checkpoint.h5", {overwrite = true})
  a:step(1500)
  local b = make(o)
  b:restore("results/gpu_maps_checkpoint.h5", {params = true})
  b:step(1500)
  local d = math.max((a:diff(b, "U")), (a:diff(b, "v")))
  check(d == 0 and b:param_sets() == a:param_sets(), "fp32 3D %s: regional parameters (%d sets) restored with "
        .. "params = true, continued run equal bit for bit (max |diff| %g)", label(l), b:param_sets(), d)
  a:close(); b:close()
end

print(("%d passed, %d failed"):format(pass, fail))
os.exit(fail == 0 and 0 or 1)
