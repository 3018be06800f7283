-- Benchmark of the multiscale calcium model (gaur_rudy, 10,000 dyads per
-- cell) on the GPU: issue 6's measure, cell computations per second (cells x
-- steps / s; the thesis reached 20,623 on one K20X with 1,416 cells, Altanaite
-- 2017, fig. 6.4).
--   cardiac protocols/calcium_benchmark.lua [steps] [results.csv]
-- Cases: the thesis' tissues at dx = 0.5 mm (12 x 12 x 12 mm, the RyR-opening
-- experiment: 13,824 cells; 6 x 6 x 24 mm, the CV experiment: 6,912 cells)
-- and a 1,440-cell block (6 x 6 x 5 mm) near the thesis' 1,416, in fp32 and fp64, at rest
-- after a beat has started (the stimulus plane at z = 0 fires at t = 0, so
-- channels open and the binomial draws take their longer paths in part of
-- the tissue). Timing: sim:benchmark, CUDA events, median of 5 repetitions
-- after a warm-up. Also one CPU case (every core of this machine) for scale.
-- Per dyad and step the stage must move (core/multiscale/dyads_cu.cu): in fp32,
-- where one block per cell keeps the diffused fields in shared memory, 7 reals
-- and the packed RyR counts read and written once: 64 bytes; in fp64 the
-- reaction reads and writes those and diffusion reads and writes 3 reals
-- again: 168 bytes. It draws up to 12 random words (three Philox4x32-10
-- blocks: the first always, the second where O1 or C2 hold RyRs, the third
-- where C3 does; 10 used by 10 binomial draws), counted as 12 below (a resting
-- dyad draws 4).
package.path = (arg[0]:match("(.*/)") or "./") .. "../scripts/?.lua;" .. package.path
local steps = tonumber(arg and arg[1]) or 20
local csv_path = arg and arg[2] or "results/calcium_benchmark.csv"
local gpu = assert(cardiac.gpu())
cardiac.quiet = true
local copy_bw = cardiac.copy_bandwidth(2 ^ 30, 20)
local date = os.date("!%Y-%m-%d")
print(("%s, %d SMs, %.1f GB; copy bandwidth %.0f GB/s; %s"):format(gpu.name, gpu.sms, gpu.memory / 1e9, copy_bw,
                                                                   date))

local DYADS = 10000
local cases = {
  {name = "12x12x12 mm", size = {12, 12, 12}},
  {name = "6x6x24 mm", size = {6, 6, 24}},
  {name = "6x6x5 mm (1440 cells)", size = {6, 6, 5}},
}
local rows = {}
local function bench(c, precision, backend, nsteps)
  local mesh = cardiac.mesh{size = c.size, dx = 0.5}
  local st = cardiac.stimulus{region = cardiac.slab{axis = "z", from = 0, to = 0.5}, amplitude = 80, duration = 1,
                              start = 0}
  local sim = cardiac.simulation{mesh = mesh, model = cardiac.model("gaur_rudy", {dyads = DYADS}), dt = 0.05,
                                 D = 0.2, stimuli = {st}, precision = precision, backend = backend}
  sim:run(2)   -- the stimulus on and off: a beat has started
  local b = sim:benchmark{steps = nsteps, ["repeat"] = 5, warmup = 2}
  local ncells = mesh.tissue
  local per_step = b.per_step * 1e-3   -- s
  local bytes = (precision == "fp64" and 168 or 64) * DYADS * ncells
  local r = {case = c.name, backend = backend, precision = precision, cells = ncells, ms = b.per_step,
             cell_steps = ncells / per_step, dyad_steps = ncells * DYADS / per_step, gbs = bytes / per_step / 1e9,
             words = 12 * ncells * DYADS / per_step}
  -- the CSV's column names (docs/data/calcium/benchmark-h100.csv, scripts/performance_doc.lua)
  r.ms_per_step, r.cell_steps_per_s, r.dyad_steps_per_s = r.ms, r.cell_steps, r.dyad_steps
  r.GB_per_s, r.rng_words_per_s = r.gbs, r.words
  rows[#rows + 1] = r
  return r
end

for _, c in ipairs(cases) do
  for _, prec in ipairs{"fp32", "fp64"} do bench(c, prec, "cuda", steps) end
end
local cpu_case = {name = "2x2x2 mm (CPU all cores)", size = {2, 2, 2}}
for _, prec in ipairs{"fp32", "fp64"} do bench(cpu_case, prec, "cpu", 2) end

print(("\n%-28s %-4s %-4s %6s %9s %12s %10s %8s %6s %10s"):format("case", "be", "prec", "cells", "ms/step",
      "cell-steps/s", "Gdyad/s", "GB/s", "%copy", "Gwords/s"))
for _, r in ipairs(rows) do
  r.copy_fraction = r.backend == "cuda" and r.gbs / copy_bw or 0
  r.gpu, r.date = gpu.name, date
  print(("%-28s %-4s %-4s %6d %9.2f %12.0f %10.2f %8.0f %6.1f %10.1f"):format(r.case, r.backend, r.precision,
        r.cells, r.ms, r.cell_steps, r.dyad_steps / 1e9, r.gbs, 100 * r.copy_fraction, r.words / 1e9))
end
require("tables").csv(csv_path, rows, {"case", "backend", "precision", "cells", "ms_per_step", "cell_steps_per_s",
                      "dyad_steps_per_s", "GB_per_s", "copy_fraction", "rng_words_per_s", "gpu", "date"}, {overwrite = true})
print("wrote " .. csv_path)
