-- What a started run costs the stepping: the same simulation run blocking
-- (sim:run) and started (sim:start, then sim:wait, which steps it in the
-- REPL's slices of about 25 ms, each ending with a check of the state and a
-- look at the keyboard's input), alternately, median wall time of each over
-- the repetitions after a warm-up. The values are the same bit for bit
-- (tests/steer.lua); the difference is the slices' synchronisations.
--   cardiac protocols/steer_cost.lua [repeat = 5] [csv]
local reps = tonumber(arg and arg[1]) or 5
local csv = arg and arg[2]
cardiac.quiet = true
local gpu = cardiac.gpu()

local cases = {
  {name = "karma 256^2", backend = "cpu", ms = 20, mesh = {256, 256}},
}
if gpu then
  cases = {
    {name = "karma 512^2", backend = "cuda", ms = 500, mesh = {512, 512}},
    {name = "karma 256^3", backend = "cuda", ms = 200, mesh = {256, 256, 256}},
    {name = "karma 64^3", backend = "cuda", ms = 200, mesh = {64, 64, 64}},
  }
end

local median = require("measure").median

local rows = {}
for _, c in ipairs(cases) do
  local sim = cardiac.simulation{mesh = cardiac.mesh{n = c.mesh, dx = 0.5}, model = "karma", dt = 0.05, D = 0.1,
                                 backend = c.backend, skip_rest = false}
  sim:set("U", 3, cardiac.slab{axis = "x", from = 0, to = 2})
  sim:run(c.ms / 4)   -- warm-up: the kernels loaded, the chunk size settled
  local blocking, started = {}, {}
  for r = 1, reps do
    local t0 = cardiac.clock()
    sim:run(c.ms)
    blocking[r] = cardiac.clock() - t0
    t0 = cardiac.clock()
    sim:start(c.ms)
    sim:wait()
    started[r] = cardiac.clock() - t0
  end
  local b, s = median(blocking), median(started)
  local steps = math.floor(c.ms / 0.05 + 0.5)
  rows[#rows + 1] = {case = c.name, backend = c.backend, steps = steps, run_s = b, start_s = s,
                     cost_percent = 100 * (s - b) / b, ms_per_step = 1000 * b / steps,
                     gpu = gpu and gpu.name or "cpu"}
  local r = rows[#rows]
  print(("%-12s %-4s %6d steps  run %.4f s  start+wait %.4f s  cost %+.2f%%  (%.4f ms/step)"):format(
    r.case, r.backend, r.steps, r.run_s, r.start_s, r.cost_percent, r.ms_per_step))
  sim:close()
end
if csv then
  local f = assert(io.open(csv, "w"))
  f:write("case,backend,steps,run_s,start_s,cost_percent,ms_per_step,gpu\n")
  for _, r in ipairs(rows) do
    f:write(("%s,%s,%d,%.5f,%.5f,%.3f,%.5f,%s\n"):format(r.case, r.backend, r.steps, r.run_s, r.start_s,
      r.cost_percent, r.ms_per_step, r.gpu))
  end
  f:close()
end
