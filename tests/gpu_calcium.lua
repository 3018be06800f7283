-- The GPU's dyad stage (core/multiscale/dyads_cu.cu) against the CPU's
-- (core/multiscale/multiscale_stage.h) for the multiscale model gaur_rudy. Both call the
-- same functions of core/multiscale/dyads.h with the same random words (core/multiscale/dyad_rng.h);
-- the GPU's dyad file is compiled without fast math and without fused
-- multiply-adds, so from the same cell state both compute the same channel
-- probabilities and draw the same counts.
-- 1. fp64, a cable of 6 cells with 1,000 dyads each (100 x 10 grid, 4 thread
--    blocks per cell), paced from one end, a RyR clamp on the far cell and
--    regional parameters on two cells (the parameter-table path), probed
--    every step for 60 ms: the open RyRs and L-type channels of every cell
--    equal at every step; V within 1e-6 mV. What can still differ is the
--    cell level's exp (CUDA's against glibc's, 1 ulp), which reaches the
--    channel probabilities at 1e-16: a count differs only if a random word
--    falls within that distance of a threshold.
-- 2. fp64, a 2 x 2 x 2 block (dx = 0.5 mm) with 10,000 dyads per cell (the 100 x 10 x 10
--    grid: diffusion along all three axes, 40 blocks per cell): the same.
--    The same cable with the dyads read as the cell's units (reading
--    "units": the cell's currents are sums over 10,000, core/multiscale/dyads.h) and its
--    SR loaded by sim:set, which reaches every dyad: the same.
-- 3. fp32 (the cell level runs with fast math there, so counts part after a
--    while): the same beat: activation times within dt, peak Cai within 2%,
--    and the mean open RyRs over the run within 2%.
-- 4. A GPU run repeated gives the same probes bit for bit (sums in a fixed
--    order, no atomics).
-- 5. A layout that cannot carry dyads is refused with an error naming it.
-- 6. Checkpoints with dyads continue bit for bit on the GPU, also from the CPU's.
-- Skipped (exit 77) where no GPU is usable. CARDIAC_GPU_TEST_ON_CPU=1 runs the
-- "GPU" side on the CPU backend (a check of this script on machines without
-- a GPU; every comparison is then exact, and check 5 fails).
local self_check = os.getenv("CARDIAC_GPU_TEST_ON_CPU") == "1"
local gpu, why = cardiac.gpu()
if self_check then gpu = {name = "none (CPU self-check)", compute_capability = "-"} end
if not gpu then
  print("SKIPPED: no GPU: " .. why)
  os.exit(77)
end
cardiac.quiet = true
print(("GPU: %s, compute capability %s"):format(gpu.name, gpu.compute_capability))

local checks = require "checks"   -- check(ok, fmt, ...), finish()
local check = checks.check

local VARS = {"V", "ryr_open", "lcc_open", "cai"}

-- runs one case on a backend; the probe's data
local function run(backend, c)
  local model = cardiac.model("gaur_rudy", {dyads = c.dyads, reading = c.reading})
  local st = cardiac.stimulus{region = c.paced, amplitude = 80, duration = 1, start = 1}
  if self_check then backend = "cpu" end
  local sim = cardiac.simulation{mesh = c.mesh, model = model, dt = 0.05, D = 0.2, stimuli = {st},
                                 precision = c.precision, backend = backend}
  if c.setup then c.setup(sim) end
  local p = sim:probe{name = "all", points = c.points, vars = VARS, interval = 0.05}
  sim:run(c.ms)
  return p:data()
end

-- per variable: max |a - b| and the number of samples that differ
local function compare(a, b, var)
  local worst, differ, total = 0, 0, 0
  for cell = 1, #a[var] do
    for i = 1, #a[var][cell] do
      local d = math.abs(a[var][cell][i] - b[var][cell][i])
      worst = math.max(worst, d)
      if d ~= 0 then differ = differ + 1 end
      total = total + 1
    end
  end
  return worst, differ, total
end

local cable = {
  name = "cable 6 cells x 1000 dyads", dyads = 1000, precision = "fp64", ms = 60,
  mesh = cardiac.mesh{size = {1.5}, dx = 0.25}, paced = cardiac.box{min = {0}, max = {0.6}},
  points = {{0.125}, {0.375}, {0.625}, {0.875}, {1.125}, {1.375}},
  setup = function(sim)
    sim:clamp_ryr{region = cardiac.box{min = {1.25}, max = {1.5}}, start = 30, duration = 10}
    sim:set_param({km_ryr = 4, tau_refill = 80}, cardiac.box{min = {0.5}, max = {1.0}})
  end,
}
local block = {
  name = "2x2x2 cells x 10000 dyads", dyads = 10000, precision = "fp64", ms = 10,
  mesh = cardiac.mesh{size = {1, 1, 1}, dx = 0.5}, paced = cardiac.box{min = {0, 0, 0}, max = {0.5, 1, 1}},
  points = {{0.25, 0.25, 0.25}, {0.75, 0.25, 0.25}, {0.25, 0.75, 0.75}, {0.75, 0.75, 0.75}},
}
local units = {
  name = "cable 6 cells x 1000 dyads, reading units, SR set to 3 mM", dyads = 1000, reading = "units",
  precision = "fp64", ms = 30, mesh = cable.mesh, paced = cable.paced, points = cable.points,
  setup = function(sim) sim:set("cajsr", 3.0); sim:set("cansr", 3.0) end,
}
for _, c in ipairs{cable, block, units} do
  local cpu, gpu_d = run("cpu", c), run("cuda", c)
  local ryr, ryr_n, n = compare(cpu, gpu_d, "ryr_open")
  local lcc, lcc_n = compare(cpu, gpu_d, "lcc_open")
  local dv = compare(cpu, gpu_d, "V")
  local peak = 0   -- in the first cell, paced, never clamped
  for _, x in ipairs(cpu.ryr_open[1]) do peak = math.max(peak, x) end
  check(ryr_n == 0 and lcc_n == 0 and peak > 1,
        "%s, fp64: open RyRs and L-type channels equal at %d of %d samples (max |diff| %.3g, %.3g; the first cell's "
        .. "RyRs up to %.1f open per dyad)", c.name, n - math.max(ryr_n, lcc_n), n, ryr, lcc, peak)
  check(dv < 1e-6, "%s, fp64: max |V_gpu - V_cpu| = %.3g mV (tolerance 1e-6)", c.name, dv)
end

-- 3. fp32: the same beat
local function summary(d)
  local s = {act = {}, peak_ca = 0, ryr = 0, n = 0}
  for cell = 1, #d.V do
    for i = 2, #d.V[cell] do
      if not s.act[cell] and d.V[cell][i] >= -40 and d.V[cell][i - 1] < -40 then
        s.act[cell] = d.t[i - 1] + (d.t[i] - d.t[i - 1]) * (-40 - d.V[cell][i - 1]) / (d.V[cell][i] - d.V[cell][i - 1])
      end
      s.peak_ca = math.max(s.peak_ca, d.cai[cell][i])
      s.ryr, s.n = s.ryr + d.ryr_open[cell][i], s.n + 1
    end
  end
  s.ryr = s.ryr / s.n
  return s
end
local c32 = {name = "cable fp32", dyads = 1000, precision = "fp32", ms = 60, mesh = cable.mesh, paced = cable.paced,
             points = cable.points}
local a, b = summary(run("cpu", c32)), summary(run("cuda", c32))
local worst = 0
for cell = 1, #c32.points do
  worst = math.max(worst, math.abs((a.act[cell] or math.huge) - (b.act[cell] or -math.huge)))
end
check(worst <= 0.05, "fp32: activation times within dt (max |diff| %.4f ms over %d cells)", worst, #c32.points)
check(math.abs(b.peak_ca / a.peak_ca - 1) < 0.02, "fp32: peak Cai %.4f uM (GPU) against %.4f (CPU)",
      b.peak_ca * 1e3, a.peak_ca * 1e3)
check(math.abs(b.ryr / a.ryr - 1) < 0.02, "fp32: mean open RyRs per dyad %.3f (GPU) against %.3f (CPU)", b.ryr, a.ryr)

-- 4. reproducible on the GPU
local r1, r2 = run("cuda", c32), run("cuda", c32)
local dv, nv = compare(r1, r2, "V")
local dr, nr = compare(r1, r2, "ryr_open")
check(nv == 0 and nr == 0, "fp32 GPU run repeated: V and open RyRs equal at every sample (max |diff| %g, %g)", dv, dr)

-- 5. bad input
local ok, err = pcall(cardiac.simulation, {mesh = cable.mesh, model = cardiac.model("gaur_rudy", {dyads = 10}),
                                           dt = 0.05, D = 0.2, backend = "cuda", layout = "tblock"})
check(not ok and tostring(err):find("layout 'tblock'"), "error: %s", tostring(err))

-- 6. checkpoints with dyads (fp64, 6 cells x 1,000 dyads, a RyR clamp across
-- the save): a GPU run saved at 20 ms and continued in a new GPU simulation
-- ends bit for bit where the uninterrupted one does; a checkpoint the CPU
-- wrote continues on the GPU to the CPU's own continuation (the same counts)
do
  local function make(backend)
    if self_check then backend = "cpu" end
    local st = cardiac.stimulus{region = cardiac.slab{axis = "x", from = 0, to = 0.5}, amplitude = 80, duration = 1}
    local sim = cardiac.simulation{mesh = cardiac.mesh{size = {3}, dx = 0.5}, dt = 0.05, D = 0.2,
                                   model = cardiac.model("gaur_rudy", {dyads = 1000}), precision = "fp64",
                                   backend = backend, stimuli = {st}}
    sim:clamp_ryr{region = cardiac.slab{axis = "x", from = 2, to = 3}, start = 15, duration = 15}
    return sim
  end
  local function worst(a, b)
    local w = 0
    for _, v in ipairs(cardiac.model("gaur_rudy"):states()) do w = math.max(w, (a:diff(b, v.name))) end
    return w
  end
  -- the uninterrupted run on one backend and its checkpoint continued on another
  local function continued(save_on, go_on)
    local file = "results/gpu_calcium_checkpoint.h5"
    local a = make(save_on)
    a:run(20)
    a:checkpoint(file, {overwrite = true})
    a:run(20)
    local b = make(go_on)
    b:restore(file)
    b:run(20)
    return a, b
  end
  local g1, g2 = continued("cuda", "cuda")
  local d = worst(g1, g2)
  check(d == 0 and g1.t == g2.t, "GPU checkpoint with dyads continued on the GPU: equal bit for bit (max |diff| %g)", d)
  local c1, g3 = continued("cpu", "cuda")
  local dc = c1:diff(g3, "ryr_open")
  local dv = c1:diff(g3, "V")
  check(dc == 0 and dv < 1e-6, "CPU checkpoint with dyads continued on the GPU: open RyRs equal (max |diff| %g), "
        .. "V within %.2g mV", dc, dv)
end

checks.finish()
