-- The CUDA backend against the CPU backend: every model, precision, stencil
-- order and GPU layout, on grids whose sizes are not multiples of any block
-- size, with and without a tissue mask, with stimuli that switch on and off
-- during the run and probes sampled every step, with default parameters and
-- with changed ones (karma*), and with interventions (+r: parameters changed
-- in overlapping regions, transmural cell types by region, clamps of V and of
-- a second state). Compared after 1,500 steps:
--   * activation times (first upward crossing of the model's activation
--     threshold, interpolated) at the probed cells: equal within dt;
--   * the final membrane potential over the whole tissue: max |GPU - CPU|
--     within a tolerance relative to the model's V range (fp32 and ORd's
--     mixed: 2e-3; fp64: 1e-9; justification in docs/gpu.md: both backends round
--     differently (FMA, libm vs CUDA exp), and near a wavefront the
--     difference is the front's slope times a shift far below dx; ORd's
--     fp32h: 4e-3, since a gate whose fp32 values on the two backends fall on
--     either side of a half-precision rounding boundary is stored a half ulp,
--     2^-11 of its value, apart: measured 0.38 mV, 2.9e-3 of the range, H100,
--     2026-11-26).
-- blockDS (layout "block") runs with blocks of 8 and of 3 cells (3 divides
-- no grid side, so blocks run past the box's end). tplane runs the volumes
-- with the second-order stencil, on tiles spanning the box and on small
-- tiles with x and y halos. Phase-field meshes (a
-- tanh border, second order) run the naive and block layouts.
-- Then a blow-up per layout and precision: the error must name the variable,
-- the step and the cell that the CPU names. And tplane against the naive
-- kernel bit for bit (Karma in fp32, tiles with and without x halos).
-- Skipped (exit code 77, shown by ctest as skipped) where no GPU is usable.
-- CARDIAC_GPU_TEST_ON_CPU=1 runs the "GPU" side on the CPU backend: a check of
-- this script itself on machines without a GPU (every comparison is then exact).
local self_check = os.getenv("CARDIAC_GPU_TEST_ON_CPU") == "1"
local gpu, why = cardiac.gpu()
if self_check then gpu = {name = "none (CPU self-check)", compute_capability = "-"} end
if not gpu then
  print("SKIPPED: no GPU: " .. why)
  os.exit(77)
end
cardiac.quiet = true
print(("GPU: %s, compute capability %s"):format(gpu.name, gpu.compute_capability))

local pass, fail = 0, 0
local function check(cond, what)
  if cond then pass = pass + 1 else fail = fail + 1 end
  print((cond and "ok   " or "FAIL ") .. what)
end

local NSTEPS = 1500
local cases = {
  -- thr: activation level; amp: stimulus (dV/dt) that excites within 1 ms
  {model = "karma", dt = 0.05, D = 0.1, vrange = 4, thr = 1.0, amp = 3},
  {model = "aliev_panfilov", dt = 0.02, D = 0.05, vrange = 100, thr = -70, amp = 200},
  {model = "mitchell_schaeffer", dt = 0.05, D = 0.1, vrange = 1, thr = 0.5, amp = 0.5},
  -- tol32: fp32 tolerance relative to vrange where the 2e-3 default is too
  -- tight: the BOCF upstroke runs at up to (u_u - theta_v)/tau_fi = 11/ms, so
  -- the 4e-3 ms front shift measured on the H100 (2026-11-22) is a |dV| of
  -- 6.7e-3 (4.2e-3 of the range) next to the front
  {model = "bueno_orovio", dt = 0.02, D = 0.1171, vrange = 1.6, thr = 0.5, amp = 1.0, tol32 = 5e-3},
  {model = "bueno_orovio", params = {cell = "M"}, dt = 0.02, D = 0.1171, vrange = 1.6, thr = 0.5, amp = 1.0},
  -- 41 states: the naive layout only (the others are for small models), and
  -- only on the 2D sheet, which keeps the CPU side of the test short; also
  -- in precision "mixed", whose fp32 gate kinetics get fp32's tolerance (the
  -- GPU's fast-math exp and division against the CPU's), and in "fp32h"
  {model = "ohara_rudy", params = {cell = "epi"}, dt = 0.05, D = 0.1, vrange = 130, thr = -40, amp = 80,
   layouts = {naive = true, block = true}, meshes = {["2D 75x61 masked"] = true}, mixed = true},
  {model = "fenton_karma", params = {cell = "BR"}, dt = 0.05, D = 0.1, vrange = 1, thr = 0.5, amp = 0.5},
  -- 19 states: as ORd
  {model = "tentusscher_2006", params = {cell = "M"}, dt = 0.02, D = 0.154, vrange = 130, thr = -40, amp = 80,
   layouts = {naive = true, block = true}, meshes = {["2D 75x61 masked"] = true}},
  -- parameters off their defaults: the kernels that fold the default
  -- parameters into their code (docs/gpu.md) run their general variant
  {model = "karma", params = {xm = 9.5, eps = 0.012}, dt = 0.05, D = 0.1, vrange = 4, thr = 1.0, amp = 3},
  -- interventions: per-cell parameter sets (every layout reads its labels)
  -- and clamps (towers also update their x-halo copies)
  {model = "karma", dt = 0.05, D = 0.1, vrange = 4, thr = 1.0, amp = 3, tag = "+r", regions = function(sim, spec, states)
    local mid = {spec.n[1] * spec.dx / 2, spec.n[2] * spec.dx / 2, spec.n[3] and spec.n[3] * spec.dx / 2}
    sim:set_param({eps = 0.012, xm = 9.5}, cardiac.slab{axis = "x", from = 3, to = 6})
    sim:set_param("gamma", 1.6, cardiac.sphere{center = mid, radius = 2.5})
    local side = {2, mid[2], mid[3]}   -- off the masked meshes' hole
    sim:clamp{region = cardiac.sphere{center = side, radius = 1}, var = states[1], value = 0, start = 20, duration = 15}
    sim:clamp{region = cardiac.slab{axis = "y", from = 0, to = 1}, var = states[2], value = 0.4, start = 2, duration = 6}
  end},
  {model = "tentusscher_2006", params = {cell = "M"}, dt = 0.02, D = 0.154, vrange = 130, thr = -40, amp = 80,
   layouts = {naive = true, block = true}, meshes = {["2D 75x61 masked"] = true}, tag = "+r",
   regions = function(sim, spec, states)
    sim:set_param({cell = "endo"}, cardiac.slab{axis = "x", from = 0, to = 6})
    sim:set_param({cell = "epi", g_na = 10}, cardiac.slab{axis = "x", from = 12, to = 19})
    sim:clamp{region = cardiac.sphere{center = {15, 3}, radius = 1}, var = states[1], value = -20, start = 20,
              duration = 3}
  end},
}
local layouts = {
  {layout = "naive"}, {layout = "window"}, {layout = "tower"},
  {layout = "tblock", tsteps = 1}, {layout = "tblock", tsteps = 2},
  {layout = "tblock", tsteps = 3}, {layout = "tblock", tsteps = 4},
  {layout = "block", blocks = 8}, {layout = "block", blocks = 3},
  -- tplane: tiles spanning the grid's x-y extent (its default here), and
  -- small ones (x and y halos, several tiles each way; 3 rows of threads:
  -- fp64 holds 2 rows per thread at K = 2, and tiles need more than 2K rows)
  {layout = "tplane", tsteps = 1}, {layout = "tplane", tsteps = 2}, {layout = "tplane", tsteps = 3},
  {layout = "tplane", tsteps = 2, block = {32, 3}}, {layout = "tplane", tsteps = 3, block = {32, 4}},
  -- one row of 512 threads (the compiled 512-thread variant with fewer rows
  -- of threads than levels: its middle rows compute beyond their depth)
  {layout = "tplane", tsteps = 2, block = {512, 1}},
}
-- the thesis' window and tower layouts are in CARDIAC_THESIS_LAYOUTS=ON builds only
local built = {}
for _, l in ipairs(cardiac.layouts()) do built[l.name] = l.built end
do
  local kept = {}
  for _, l in ipairs(layouts) do if not l.layout or built[l.layout] then kept[#kept + 1] = l end end
  layouts = kept
end
-- layouts that run phase-field meshes
local phase_layouts = {naive = true, block = true}
local meshes = {
  {name = "3D 37x29x23", n = {37, 29, 23}, dx = 0.25},
  {name = "3D 37x29x23 masked", n = {37, 29, 23}, dx = 0.25, masked = true},
  {name = "2D 75x61 masked", n = {75, 61}, dx = 0.25, masked = true},
  {name = "3D 37x29x23 phase", n = {37, 29, 23}, dx = 0.25, phase = true},
  -- a phase field that leaves no cell out (a dip to 0.12 about a centre): the
  -- GPU ran it as a full box without the phase field until 2026-11-24
  {name = "3D 37x29x23 phase everywhere", n = {37, 29, 23}, dx = 0.25, phase = "dip"},
}

local function make_mesh(spec)
  if spec.phase == "dip" then
    local c = {spec.n[1] * spec.dx * 0.6, spec.n[2] * spec.dx * 0.5, spec.n[3] * spec.dx * 0.4}
    return cardiac.mesh{n = spec.n, dx = spec.dx, phase = function(x, y, z)
      local r = math.sqrt((x - c[1]) ^ 2 + (y - c[2]) ^ 2 + (z - c[3]) ^ 2)
      return 0.56 + 0.44 * math.tanh((r - 1.5) / 0.5)
    end}
  end
  if spec.phase then
    -- a ball of tissue with a tanh border 0.5 mm wide, cut by a plane
    local c = {spec.n[1] * spec.dx / 2, spec.n[2] * spec.dx / 2, spec.n[3] * spec.dx / 2}
    local R = 0.45 * spec.n[1] * spec.dx
    return cardiac.mesh{n = spec.n, dx = spec.dx, phase = function(x, y, z)
      local r = math.sqrt((x - c[1]) ^ 2 + (y - c[2]) ^ 2 + (z - c[3]) ^ 2)
      return 0.5 * (1 - math.tanh((r - R) / 0.5)) * (z < 0.8 * spec.n[3] * spec.dx and 1 or 0)
    end}
  end
  local m = cardiac.mesh{n = spec.n, dx = spec.dx}
  if spec.masked then
    -- a spherical hole and a cut that the wave must go around
    local c = {}
    for a = 1, #spec.n do c[a] = spec.n[a] * spec.dx / 2 end
    m:set_tissue(cardiac.sphere{center = c, radius = spec.n[1] * spec.dx / 6}, false)
    local cut = {axis = "x", from = spec.n[1] * spec.dx * 0.7, to = spec.n[1] * spec.dx * 0.7 + 0.5}
    m:set_tissue(cardiac.slab(cut), false)
    local to = {spec.n[1] * spec.dx, spec.n[2] * spec.dx * 0.4, spec.n[3] and spec.n[3] * spec.dx}
    m:set_tissue(cardiac.box{min = {0, 0, spec.n[3] and 0}, max = to}, true)
  end
  return m
end

-- cells to probe: a scattered, deterministic set
local function probe_cells(spec)
  local cells = {}
  for q = 1, 60 do
    local cell = {}
    for a = 1, #spec.n do cell[a] = 1 + (q * (7 + 4 * a)) % spec.n[a] end
    cells[#cells + 1] = cell
  end
  return cells
end

local measure = require("measure")
local function activation_times(data, var, thr)
  local out = {}
  for c, series in ipairs(data[var]) do out[c] = measure.activation_time(data.t, series, thr) or false end
  return out
end

local function run(spec, mesh, case, opts)
  local model = cardiac.model(case.model, case.params)
  local vname = model:states()[1].name
  local thr = case.thr
  local sim = cardiac.simulation{mesh = mesh, model = model, dt = case.dt, D = case.D, stencil = opts.stencil,
                                 backend = opts.backend, precision = opts.precision, layout = opts.layout,
                                 tsteps = opts.tsteps, blocks = opts.blocks, block = opts.block}
  local amp = case.amp
  sim:add_stimulus(cardiac.stimulus{region = cardiac.slab{axis = "x", from = 0, to = 1}, amplitude = amp,
                                    duration = 1})
  local centre = {2, spec.n[2] * spec.dx - 2, spec.n[3] and 1}
  sim:add_stimulus(cardiac.stimulus{region = cardiac.sphere{center = centre, radius = 1.2},
                                    amplitude = amp, start = 11.3, duration = 0.7})
  if case.regions then
    local states = {}
    for q, s in ipairs(model:states()) do states[q] = s.name end
    case.regions(sim, spec, states)
  end
  local pr = sim:probe{cells = probe_cells(spec), vars = {vname}, every = 1}
  sim:step(NSTEPS)
  return sim, activation_times(pr:data(), vname, thr)
end

-- a layout entry as the check lines name it: layout, blocks, K, block shape
local function layout_label(lay)
  return ("%-8s K=%s%s"):format(lay.layout .. (lay.blocks or ""), lay.tsteps or "-",
                               lay.block and (" block " .. table.concat(lay.block, "x")) or "")
end

-- CARDIAC_GPU_SHARD=i/n runs the i-th of n shares of the mesh-and-case
-- comparisons (the blow-ups and the mixed-precision checks with the first),
-- so that n processes share a GPU machine's cores: together they check what
-- one run checks.
local shard, nshards = (os.getenv("CARDIAC_GPU_SHARD") or "1/1"):match("^(%d+)/(%d+)$")
shard, nshards = tonumber(shard), tonumber(nshards)
assert(shard and nshards and shard >= 1 and shard <= nshards, "CARDIAC_GPU_SHARD must be i/n with 1 <= i <= n")
local pair = 0
local worst = {}
if self_check then meshes = {meshes[2], meshes[3], meshes[4]}; layouts = {layouts[1], layouts[8], layouts[9]} end
for _, spec in ipairs(meshes) do
  local mesh = make_mesh(spec)
  for _, case in ipairs(cases) do
    if case.meshes and not case.meshes[spec.name] then goto next_case end
    pair = pair + 1
    if (pair - 1) % nshards ~= shard - 1 then goto next_case end
    for _, precision in ipairs(case.mixed and {"fp32", "fp64", "mixed", "fp32h"} or {"fp32", "fp64"}) do
      for _, stencil in ipairs(spec.phase and {2} or {2, 4}) do
        local cpu, tcpu = run(spec, mesh, case, {backend = "cpu", precision = precision, stencil = stencil})
        local nact = 0
        for _, t in ipairs(tcpu) do if t then nact = nact + 1 end end
        for _, lay in ipairs(layouts) do
          if case.layouts and not case.layouts[lay.layout] then goto next_layout end
          if spec.phase and not phase_layouts[lay.layout] then goto next_layout end
          -- tplane runs volumes with the second-order stencil; its small
          -- tiles are for the two-state models (models with more states hold
          -- fewer rows per thread, too few for a y halo in these blocks)
          if lay.layout == "tplane" and (#spec.n == 2 or stencil == 4) then goto next_layout end
          if lay.block and #cardiac.model(case.model):states() > 2 then goto next_layout end
          local gsim, tgpu = run(spec, mesh, case, {backend = self_check and "cpu" or "cuda", precision = precision,
                                                    stencil = stencil, layout = not self_check and lay.layout or nil,
                                                    tsteps = not self_check and lay.tsteps or nil,
                                                    blocks = lay.blocks, block = not self_check and lay.block or nil})
          local maxdiff = gsim:diff(cpu)
          local dtmax, same = 0, true
          for c = 1, #tcpu do
            if (tcpu[c] == false) ~= (tgpu[c] == false) then same = false
            elseif tcpu[c] then dtmax = math.max(dtmax, math.abs(tcpu[c] - tgpu[c])) end
          end
          local tol = (precision == "fp64" and 1e-9 or precision == "fp32h" and 4e-3 or (case.tol32 or 2e-3)) * case.vrange
          local name = case.model:sub(1, 7) .. (case.params and "*" or "") .. (case.tag or "")
          local label = ("%-8s %s %s order %d %s"):format(name, spec.name, precision, stencil, layout_label(lay))
          check(same and dtmax <= case.dt and maxdiff <= tol,
                ("%s: %d/%d cells activated, max |dT| = %.2e ms, max |dV| = %.2e (tol %.1e)"):format(
                  label, nact, #tcpu, dtmax, maxdiff, tol))
          if precision == "mixed" then
            -- the gates the GPU stores in float (xs1, slow; m, fast) and a
            -- double state (cai), read back through the host copies; gates
            -- span [0, 1], so they get V's fp32 tolerance of 2e-3 of the
            -- range (measured on the H100, 2026-11-24: up to 4.7e-4, at the
            -- front, where m moves fastest)
            local gates = math.max((gsim:diff(cpu, "xs1")), (gsim:diff(cpu, "m")))
            local cai = (gsim:diff(cpu, "cai"))
            check(gates <= 2e-3 and cai <= 1e-6, ("%s: max |d xs1|, |d m| = %.2e (tol 2e-3), max |d cai| = %.2e mM " ..
                                                 "(tol 1e-6)"):format(label, gates, cai))
          end
          local key = precision .. " " .. name
          worst[key] = math.max(worst[key] or 0, maxdiff / case.vrange)
          gsim:close()
          ::next_layout::
        end
        check(nact > 20, ("%s %s %s order %d: the wave reached %d of %d probed cells"):format(
          case.model, spec.name, precision, stencil, nact, #tcpu))
        cpu:close()
      end
    end
    ::next_case::
  end
end

-- Blow-up reports: one cell set to the largest finite value makes itself and
-- its neighbours non-finite in the first step; every layout must stop with the
-- error that names the variable, the step and the lowest such cell, (9, 7, 4)
-- below it in z, as the CPU does. Layouts that advance K steps per kernel see
-- the state at the kernel's end only: the step within K - 1 of the CPU's, the
-- cell within K - 1 cells (one cell a step being how far it spreads).
local function blowup(backend, precision, lay)
  local mesh = cardiac.mesh{n = {37, 29, 23}, dx = 0.25}
  local sim = cardiac.simulation{mesh = mesh, model = cardiac.model("karma"), dt = 0.05, D = 0.1, backend = backend,
                                 precision = precision, layout = lay.layout, tsteps = lay.tsteps, blocks = lay.blocks,
                                 block = lay.block}
  -- exactly one cell: centres at (i + 1/2) dx, cell (9, 7, 5) 1-based, set
  -- to the largest finite value of its precision (sim:set refuses infinity):
  -- the first step's diffusion overflows there and below it
  local huge = precision == "fp64" and 1.7e308 or 3.4e38
  sim:set("U", huge, cardiac.box{min = {2.05, 1.55, 1.05}, max = {2.2, 1.7, 1.2}})
  local ok, err = pcall(sim.step, sim, 20)
  sim:close()
  if ok then return nil end
  local var, step, i, j, k = tostring(err):match("variable '(%w+)' became NaN or Inf at step (%d+) .- in cell %((%d+), (%d+), (%d+)%)")
  return var and {var = var, step = tonumber(step), cell = {tonumber(i), tonumber(j), tonumber(k)}} or tostring(err)
end
for _, precision in ipairs(shard == 1 and {"fp32", "fp64"} or {}) do
  local ref = blowup("cpu", precision, {})
  check(type(ref) == "table" and ref.step == 1 and ref.cell[1] == 9 and ref.cell[2] == 7 and ref.cell[3] == 4,
        ("blow-up %s on the CPU: reported at step 1 in cell (9, 7, 4): %s"):format(precision,
          type(ref) == "table" and ("step %d cell (%d, %d, %d)"):format(ref.step, ref.cell[1], ref.cell[2], ref.cell[3])
          or tostring(ref)))
  for _, lay in ipairs(layouts) do
    local got = blowup(self_check and "cpu" or "cuda", precision, self_check and {blocks = lay.blocks} or lay)
    local K = lay.tsteps or 1
    local ok, what = false, tostring(got)
    if type(got) == "table" and type(ref) == "table" then
      local dist = 0
      for a = 1, 3 do dist = dist + math.abs(got.cell[a] - ref.cell[a]) end
      ok = got.var == ref.var and got.step >= ref.step and got.step <= ref.step + K - 1 and dist <= K - 1
      what = ("'%s' at step %d in cell (%d, %d, %d)"):format(got.var, got.step, got.cell[1], got.cell[2], got.cell[3])
    end
    check(ok, ("blow-up %s %s: %s"):format(precision, layout_label(lay), what))
  end
end

-- Precision "mixed" stores ORd's gates in float on the GPU, "fp32h" 15 of them
-- in half, "fp32g" those in half and the other 13 as 16-bit fractions
-- (rounded so on the CPU too): a value set into a gate reads back rounded
-- so, one set into a concentration exactly (fp32h, fp32g: rounded to float),
-- on every layout that runs ORd; a checkpoint of the state restores it bit
-- for bit into a new simulation.
local function as_float(x) return string.unpack("f", string.pack("f", x)) end
for _, precision in ipairs(shard == 1 and {"mixed", "fp32h", "fp32g"} or {}) do
  for _, blocks in ipairs{false, 3} do
    local function make()
      return cardiac.simulation{mesh = cardiac.mesh{n = {9, 7, 5}, dx = 0.25}, model = "ohara_rudy", dt = 0.05,
                                D = 0.1, precision = precision, backend = self_check and "cpu" or "cuda",
                                blocks = blocks or nil, multirate = precision == "fp32g" and 10 or nil}
    end
    local sim = make()
    local g, c = 0.1, 1.2345678901234e-4
    local box = cardiac.box{min = {0, 0, 0}, max = {0.25, 0.25, 0.25}}
    sim:set("m", g)
    sim:set("cai", c)
    sim:set("j", 0.25)
    sim:step(10)
    sim:set("m", g, box)
    sim:set("cai", c, box)
    sim:set("j", 0.25, box)
    local m1, c1, j1 = sim:field("m")[1], sim:field("cai")[1], sim:field("j")[1]
    -- 0.1 in half: 1638 x 2^-14; 0.25 as a fraction: 16384 (16383.75) x
    -- the float nearest 1 / 65535, rounded to float
    local sixteen = precision == "fp32h" or precision == "fp32g"
    local want = sixteen and 1638 / 2^14 or self_check and g or as_float(g)
    local wantc = sixteen and as_float(c) or c
    local wantj = precision == "fp32g" and as_float(16384 * as_float(1 / 65535)) or 0.25
    local label = precision .. " " .. (blocks and "blocks" or "naive")
    check(m1 == want and c1 == wantc and j1 == wantj,
          ("%s: gate m set to 0.1 reads %.17g (want %.17g), cai %.17g (want %.17g), j set to 0.25 %.17g (want %.17g)"):format(
      label, m1, want, c1, wantc, j1, wantj))
    local file = os.tmpname()
    sim:checkpoint(file, {overwrite = true})
    local back = make()
    back:restore(file)
    local dm, dc, dj = back:diff(sim, "m"), back:diff(sim, "cai"), back:diff(sim, "j")
    back:step(5)
    sim:step(5)
    check(dm == 0 and dc == 0 and dj == 0 and back:diff(sim) == 0,
          ("%s: checkpoint restored bit for bit (m %g, cai %g, j %g) and continues equal (V %g)"):format(
            label, dm, dc, dj, back:diff(sim)))
    os.remove(file)
    sim:close()
    back:close()
  end
end

-- Multirate stepping (multirate = 10: ORd's 14 slow states change at steps
-- 10, 20, ... only, core/engine/multirate.h) on the naive and blockDS
-- kernels against the CPU, in every precision: V after 400 steps (a wave
-- crossing the box) within the tolerance of the comparisons above, the slow
-- states xs1 and nai within 2e-3 and 1e-6 mM (xs1 is a float gate: V's fp32
-- tolerance of the range [0, 1]), and in fp32g j (a fast gate stored as a
-- fraction) within 2e-3 too; then 5 steps more leave every slow state where
-- it was on the GPU too.
for _, precision in ipairs(shard == nshards and {"fp32", "fp64", "mixed", "fp32h", "fp32g"} or {}) do
  for _, blocks in ipairs{false, 3} do
    local function make(backend)
      local sim = cardiac.simulation{mesh = cardiac.mesh{n = {13, 7, 5}, dx = 0.25}, model = "ohara_rudy", dt = 0.05,
                                     D = 0.1, precision = precision, backend = backend, blocks = blocks or nil,
                                     multirate = 10}
      sim:add_stimulus(cardiac.stimulus{region = cardiac.slab{axis = "x", from = 0, to = 0.5}, amplitude = 80,
                                        duration = 1, start = 0.5})
      sim:step(400)
      return sim
    end
    local cpu, gsim = make("cpu"), make(self_check and "cpu" or "cuda")
    local label = ("ORd multirate = 10, %s, %s"):format(precision, blocks and "blocks" or "naive")
    local tol = (precision == "fp64" and 1e-9 or (precision == "fp32h" or precision == "fp32g") and 4e-3 or 2e-3) * 130
    local dv, dx, dn = gsim:diff(cpu), gsim:diff(cpu, "xs1"), gsim:diff(cpu, "nai")
    local dj = gsim:diff(cpu, "j")
    local vmax = select(2, gsim:stats("V"))
    check(dv <= tol and dx <= 2e-3 and dn <= 1e-6 and dj <= 2e-3 and vmax > 0,
          ("%s: max |dV| = %.2e (tol %.1e), |d xs1| = %.2e, |d j| = %.2e, |d nai| = %.2e mM after 400 steps (max V %.1f mV)"):format(
            label, dv, tol, dx, dj, dn, vmax))
    local held = {}
    for _, st in ipairs(cardiac.model("ohara_rudy"):states()) do
      if st.slow then held[st.name] = gsim:field(st.name) end
    end
    gsim:step(5)
    local moved = 0
    for name, before in pairs(held) do
      for i, x in ipairs(gsim:field(name)) do if x ~= before[i] then moved = moved + 1 end end
    end
    check(moved == 0 and gsim.multirate == 10, ("%s: steps 401-405 moved no slow state (%d values moved)"):format(
      label, moved))
    cpu:close()
    gsim:close()
  end
end

-- Rate tables (tables = true, fp64; core/engine/rate_tables.h) on the naive
-- and blockDS kernels against the CPU's, with and without multirate, in a
-- cable whose left part is epi and whose right part has ko = 7 (three
-- parameter sets, three tables): V after 400 steps within fp64's tolerance
-- above, xs1 and xk1 (gates from the tables; xk1's steady state reads ko)
-- within 1e-12; and the GPU's state differs from its run without tables, so
-- the tables were read there.
for _, mr in ipairs(shard == 2 and {1, 10} or {}) do
  for _, blocks in ipairs{false, 3} do
    local function make(backend, tables)
      local sim = cardiac.simulation{mesh = cardiac.mesh{n = {13, 7, 5}, dx = 0.25}, model = "ohara_rudy", dt = 0.05,
                                     D = 0.1, precision = "fp64", backend = backend, blocks = blocks or nil,
                                     multirate = mr > 1 and mr or nil, tables = tables}
      sim:set_param({cell = "epi"}, cardiac.slab{axis = "x", from = 0, to = 1})
      sim:set_param("ko", 7, cardiac.slab{axis = "x", from = 2, to = 3.25})
      sim:add_stimulus(cardiac.stimulus{region = cardiac.slab{axis = "x", from = 0, to = 0.5}, amplitude = 80,
                                        duration = 1, start = 0.5})
      sim:step(400)
      return sim
    end
    local cpu, gsim = make("cpu", true), make(self_check and "cpu" or "cuda", true)
    local plain = make(self_check and "cpu" or "cuda", false)
    local label = ("ORd fp64 tables%s, %s"):format(mr > 1 and ", multirate = 10" or "", blocks and "blocks" or "naive")
    local tol = 1e-9 * 130
    local dv, dx, dk, dp = gsim:diff(cpu), gsim:diff(cpu, "xs1"), gsim:diff(cpu, "xk1"), gsim:diff(plain)
    local vmax = select(2, gsim:stats("V"))
    check(gsim.tables and gsim:param_sets() == 3 and dv <= tol and dx <= 1e-12 and dk <= 1e-12 and dp > 0 and vmax > 0,
          ("%s (%d sets): max |dV| = %.2e (tol %.1e), |d xs1| = %.2e, |d xk1| = %.2e after 400 steps; without "
           .. "tables |dV| = %.2e (> 0); max V %.1f mV"):format(label, gsim:param_sets(), dv, tol, dx, dk, dp, vmax))
    cpu:close()
    gsim:close()
    plain:close()
  end
end

-- Quiescent cells (multirate = 10, quiescent_below = -86 mV,
-- core/engine/quiescence.h) on the blockDS kernels against the CPU, in every
-- precision, with the default parameters (the folded kernels), with
-- ina_m_shift = 10 (the general ones) and with a region of epi cells (the
-- kernels with parameter sets): V after 400 steps (a wave crossing the box,
-- the cells ahead of it sitting out the holding steps) within the tolerances
-- of the multirate comparisons above, and the GPU's run differs from its run
-- without quiescent cells; a checkpoint at step 43 holds the GPU's lags: the
-- cells ahead of the wave have sat out steps 40-42 (lag 3), those the wave
-- has reached none (lag 0), as on the CPU; restored, the run continues bit
-- for bit. On the GPU
-- the other layouts refuse quiescent cells, naming the one that runs them.
for _, precision in ipairs(shard == math.min(3, nshards) and {"fp32", "fp64", "mixed", "fp32h", "fp32g"} or {}) do
  for _, kind in ipairs{"folded", "general", "sets"} do
    local function make(backend, below)
      local model = cardiac.model("ohara_rudy", kind == "general" and {ina_m_shift = 10} or nil)
      local sim = cardiac.simulation{mesh = cardiac.mesh{n = {13, 7, 5}, dx = 0.25}, model = model, dt = 0.05,
                                     D = 0.1, precision = precision, backend = backend, blocks = 3,
                                     multirate = 10, quiescent_below = below}
      if kind == "sets" then sim:set_param({cell = "epi"}, cardiac.slab{axis = "x", from = 1.5, to = 3.25}) end
      sim:add_stimulus(cardiac.stimulus{region = cardiac.slab{axis = "x", from = 0, to = 0.5}, amplitude = 80,
                                        duration = 1, start = 0.5})
      return sim
    end
    local gpu = self_check and "cpu" or "cuda"
    local cpu, gsim, plain = make("cpu", -86), make(gpu, -86), make(gpu, nil)
    cpu:step(43)
    gsim:step(43)
    local file, cfile = os.tmpname(), os.tmpname()
    gsim:checkpoint(file, {overwrite = true})
    cpu:checkpoint(cfile, {overwrite = true})
    local lags, clags = cardiac.h5read(file, "/quiescent_lag"), cardiac.h5read(cfile, "/quiescent_lag")
    local lo, hi, nsat, same = 3, 0, 0, true
    for c, x in ipairs(lags) do
      lo, hi = math.min(lo, x), math.max(hi, x)
      if x == 3 then nsat = nsat + 1 end
      same = same and x == clags[c]
    end
    os.remove(cfile)
    local back = make(gpu, -86)
    back:restore(file)
    back:step(60)
    gsim:step(357)
    cpu:step(357)
    plain:step(400)
    local label = ("ORd quiescent below -86 mV, multirate = 10, %s, %s, blocks"):format(precision, kind)
    local tol = (precision == "fp64" and 1e-9 or (precision == "fp32h" or precision == "fp32g") and 4e-3 or 2e-3) * 130
    -- nai, a slow state, takes 10 times its step's change: a last-bit
    -- difference of the step in float (4.8e-7 mM at 7 mM) becomes 10 of them
    local ntol = precision == "fp64" and 1e-12 or 1e-5
    local dv, dx, dn, dp = gsim:diff(cpu), gsim:diff(cpu, "xs1"), gsim:diff(cpu, "nai"), gsim:diff(plain)
    local vmax = select(2, gsim:stats("V"))
    check(dv <= tol and dx <= 2e-3 and dn <= ntol and dp > 0 and vmax > 0,
          ("%s: max |dV| = %.2e (tol %.1e), |d xs1| = %.2e, |d nai| = %.2e mM (tol %.0e) after 400 steps; without "
           .. "quiescent cells |dV| = %.2e (> 0); max V %.1f mV"):format(label, dv, tol, dx, dn, ntol, dp, vmax))
    local again = make(gpu, -86)
    again:step(103)
    check(lo == 0 and hi == 3 and nsat > 0 and same, ("%s: at step 43 the GPU's lags run 0 to 3 (%d to %d; %d of "
          .. "%d cells sat out 3 steps), equal to the CPU's: %s"):format(label, lo, hi, nsat, #lags, tostring(same)))
    check(back:diff(again) == 0 and back:diff(again, "nai") == 0 and back:diff(again, "m") == 0,
          ("%s: a checkpoint at step 43 restored continues bit for bit (V %g, nai %g, m %g)"):format(label,
            back:diff(again), back:diff(again, "nai"), back:diff(again, "m")))
    os.remove(file)
    for _, x in ipairs{cpu, gsim, plain, back, again} do x:close() end
  end
end
if shard == math.min(3, nshards) and not self_check then
  local ok, err = pcall(cardiac.simulation, {mesh = cardiac.mesh{n = {9, 7, 5}, dx = 0.25}, model = "ohara_rudy",
    dt = 0.05, D = 0.1, backend = "cuda", multirate = 10, quiescent_below = -86})
  check(not ok and err:find("quiescent_below", 1, true) and err:find("'block'", 1, true) ~= nil,
        ("quiescent cells on layout naive are refused, naming layout 'block': %s"):format(tostring(err)))
end

-- tplane against the naive kernel, bit for bit (the two-state models in
-- fp32 on full boxes round alike, docs/gpu.md), where the comparisons above
-- allow a tolerance: Karma with a stimulus that switches on and off, at the
-- default parameters and at changed ones (the folded and the general
-- kernels), K = 1 to 3, on tiles 64 cells wide with x halos (their first
-- columns at odd x, the last tile past the box's end, on an even and an odd
-- width), on tiles spanning the box, and in blocks of 256 threads (the kernel
-- compiled for any block shape). V and v after 301 steps (a multiple of
-- neither 2 nor 3, so that the last launch is a shorter one).
for _, nx in ipairs(shard == 2 and {150, 151} or {}) do
  local mesh = cardiac.mesh{n = {nx, 70, 12}, dx = 0.25}
  for _, params in ipairs{{}, {xm = 9.5, eps = 0.012}} do
    local function make(layout, K, block)
      local sim = cardiac.simulation{mesh = mesh, model = cardiac.model("karma", params), dt = 0.05, D = 0.1,
                                     backend = self_check and "cpu" or "cuda", precision = "fp32",
                                     layout = not self_check and layout or nil, tsteps = not self_check and K or nil,
                                     block = not self_check and block or nil}
      sim:add_stimulus(cardiac.stimulus{region = cardiac.slab{axis = "x", from = 0, to = 1}, amplitude = 3,
                                        duration = 1})
      sim:add_stimulus(cardiac.stimulus{region = cardiac.sphere{center = {nx * 0.25 - 1, 16, 2}, radius = 1.2},
                                        amplitude = 3, start = 4.3, duration = 0.7})
      sim:step(301)
      return sim
    end
    local ref = make("naive")
    for _, K in ipairs{1, 2, 3} do
      for _, block in ipairs{{64, 16}, {256, 4}, {64, 4}} do
        local sim = make("tplane", K, block)
        local dv, dw = sim:diff(ref), sim:diff(ref, "v")
        check(dv == 0 and dw == 0, ("tplane bit for bit: karma%s %dx70x12 fp32 K=%d block %dx%d against naive: "
              .. "max |dU| %g, max |dv| %g"):format(params.xm and " (xm, eps)" or "", nx, K, block[1], block[2], dv, dw))
        sim:close()
      end
    end
    ref:close()
  end
end

-- A volume one cell thick along y: tplane differences y in every cell (a
-- test there made ptxas spill), where naive skips an axis of one cell, and
-- the y coefficient the kernels take is 0 there (kernel_coef,
-- cuda/device_common.cuh), so the two agree bit for bit; both against the CPU.
if shard == math.min(2, nshards) and not self_check then
  local function make(backend, layout)
    local sim = cardiac.simulation{mesh = cardiac.mesh{n = {64, 1, 40}, dx = 0.25}, model = "karma", dt = 0.05,
                                   D = 0.1, backend = backend, precision = "fp32", layout = layout,
                                   tsteps = layout == "tplane" and 3 or nil}
    sim:add_stimulus(cardiac.stimulus{region = cardiac.slab{axis = "x", from = 0, to = 1}, amplitude = 3,
                                      duration = 1})
    sim:step(301)
    return sim
  end
  local cpu, naive, tplane = make("cpu"), make("cuda", "naive"), make("cuda", "tplane")
  local dv, dc = tplane:diff(naive), naive:diff(cpu)
  check(dv == 0 and tplane:diff(naive, "v") == 0 and dc <= 2e-3 * 3 and cpu:get("U", 10, 1, 20) > 0.5,
        ("tplane on a 64x1x40 box against naive: max |dU| %g (bit for bit); naive against the CPU %.2e (tol 6e-3); "
         .. "U behind the front %.3f"):format(dv, dc, cpu:get("U", 10, 1, 20)))
  for _, x in ipairs{cpu, naive, tplane} do x:close() end
end

-- blockDS and naive run ORd in fp64 and "mixed" in thread blocks of at most
-- 128 (its state in shared memory, cuda/kernels_block.cuh, kernels_naive.cuh):
-- a larger block = {...} is refused when the simulation is made, naming the
-- limit, not at launch.
if not self_check then
  for _, precision in ipairs{"fp64", "mixed"} do
    for _, how in ipairs{{blocks = 3, block = {256, 1}, name = "blocks"}, {block = {32, 8}, name = "naive"}} do
      local ok, err = pcall(cardiac.simulation, {mesh = cardiac.mesh{n = {9, 7, 5}, dx = 0.25}, model = "ohara_rudy",
                            dt = 0.05, D = 0.1, precision = precision, backend = "cuda", blocks = how.blocks,
                            block = how.block})
      check(not ok and tostring(err):find("at most 128 threads", 1, true) ~= nil,
            ("ORd %s, %s, block = {%d, %d}: refused before the run (%s)"):format(precision, how.name, how.block[1],
              how.block[2], tostring(err)))
    end
  end
end

-- The default layout of fp32 sheets (cuda/layout_policy.cu; docs/gpu-notebook.md,
-- item 65): naive below 3 M cells, tblock from there with 3 steps a kernel;
-- with parameters off their defaults, naive below 5 M cells and tblock with 2
-- (its K = 3 general kernels spill). Sheets in fp64 run naive; volumes of
-- two-state models tplane, in fp64 with 2 steps a kernel, and on grids wider
-- than 256 cells only with the 64 rows of its narrow tiles (items 66-67).
-- Made, not stepped.
if not self_check and shard == 1 then
  local function default_of(n, params, precision)
    local s = cardiac.simulation{mesh = cardiac.mesh{n = n, dx = 0.5}, model = cardiac.model("karma", params), dt = 0.05,
                                 D = 0.04, backend = "cuda", precision = precision}
    local layout, tsteps = s.layout, s.tsteps
    s:close()
    return layout, tsteps
  end
  for _, c in ipairs{
    {{1024, 1024}, nil, "fp32", "naive"}, {{1448, 1448}, nil, "fp32", "naive"},
    {{2048, 2048}, nil, "fp32", "tblock", 3}, {{8192, 512}, nil, "fp32", "tblock", 3},
    {{2048, 2048}, {xm = 9.5}, "fp32", "naive"}, {{2508, 2508}, {xm = 9.5}, "fp32", "tblock", 2},
    {{4096, 4096}, nil, "fp64", "naive"}, {{64, 64, 64}, nil, "fp32", "tplane", 3},
    {{128, 128, 16}, nil, "fp64", "tplane", 2}, {{512, 64, 8}, nil, "fp64", "tplane", 2},
    {{512, 48, 8}, nil, "fp64", "naive"}, {{512, 64, 8}, nil, "fp32", "tplane", 3},
  } do
    local layout, tsteps = default_of(c[1], c[2], c[3])
    check(layout == c[4] and tsteps == c[5], ("default layout of a %s Karma grid %s%s: %s K=%s (expected %s K=%s)")
          :format(c[3], table.concat(c[1], " x "), c[2] and " with xm = 9.5" or "", layout, tostring(tsteps), c[4],
                  tostring(c[5])))
  end
  -- tblock asked for without tsteps: 2 with the general kernels; tsteps asked for is kept
  local function tblock_steps(params, tsteps)
    local s = cardiac.simulation{mesh = cardiac.mesh{n = {200, 150}, dx = 0.5}, model = cardiac.model("karma", params),
                                 dt = 0.05, D = 0.04, backend = "cuda", layout = "tblock", tsteps = tsteps}
    local k = s.tsteps
    s:close()
    return k
  end
  local folded, general, asked = tblock_steps(nil), tblock_steps({xm = 9.5}), tblock_steps({xm = 9.5}, 3)
  check(folded == 3 and general == 2 and asked == 3, ("tblock's steps a kernel: folded %s, general %s, general "
        .. "asked 3: %s"):format(tostring(folded), tostring(general), tostring(asked)))
end

for k, v in pairs(worst) do print(("largest |dV| / V range, %s: %.2e"):format(k, v)) end
print(("%d passed, %d failed"):format(pass, fail))
os.exit(fail == 0 and 0 or 1)
