-- What a step of the ORd heart's whole beat costs, with and without the
-- activation map that protocols/ord_precision.lua keeps (issue 34, goal 1):
-- the heart, excitation and INa activation of that protocol's beat
-- (ina_m_shift = 10, whose wave crosses the heart; V set to 0 mV on the
-- base's 5%), run for t_ms in one precision, once without a map and once
-- with one sampled every step (threshold -40 mV), the wall time of `sim:run`
-- each, and the time per second of activity.
-- quiescent_below (mV; "-" none): cells below it sit out multirate's
-- holding steps (core/engine/quiescence.h); t_ms = 1000 is one second of a
-- heart paced at 1 Hz, whose cells rest most of it.
--   cardiac protocols/ord_beat_cost.lua [scale = 1] [precision = fp32g] [multirate = 10] [t_ms = 700]
--                                       [quiescent_below = -]
-- scale 1 is the full heart (GPU); 0.2 the small one the CPU runs in seconds.
local scale = tonumber(arg and arg[1]) or 1
local precision = arg and arg[2] or "fp32g"
local multirate = math.tointeger(tonumber(arg and arg[3] or 10))
local T = tonumber(arg and arg[4]) or 700
local below = arg and arg[5] and arg[5] ~= "-" and tonumber(arg[5]) or nil
if arg and arg[5] and arg[5] ~= "-" and not below then
  error(("ord_beat_cost.lua: quiescent_below must be a membrane potential in mV or '-', not '%s'"):format(arg[5]), 0)
end
if not multirate or multirate < 1 then
  error(("ord_beat_cost.lua: multirate must be a whole number of steps from 1, not '%s'"):format(arg[3]), 0)
end
cardiac.quiet = true
local model = cardiac.model("ohara_rudy", {ina_m_shift = 10})
local n = {math.floor(250 * scale + 0.5), math.floor(326 * scale + 0.5), math.floor(298 * scale + 0.5)}
local dx = 0.5 / scale
local mesh = cardiac.mesh{n = n, dx = dx, tissue = cardiac.biventricle()}
local backend = cardiac.gpu() and "cuda" or "cpu"

local function run(map)
  local sim = cardiac.simulation{mesh = mesh, model = model, dt = 0.05, D = 0.3, precision = precision,
                                 backend = backend, blocks = 2, multirate = multirate > 1 and multirate or nil,
                                 quiescent_below = below}
  sim:set("V", 0.0, cardiac.slab{axis = "z", from = 0, to = 0.05 * n[3] * dx})
  if map then sim:activation{threshold = -40} end
  sim:step(1)   -- the kernels loaded before the clock starts
  local t0 = cardiac.clock()
  sim:run(T)
  local wall = cardiac.clock() - t0
  local steps = math.floor(sim.t / sim.dt + 0.5) - 1
  sim:close()
  return wall, 1000 * wall / steps
end

print(("ORd heart %dx%dx%d (dx %.2f mm), %d tissue cells, %s, %s%s%s, %g ms, ina_m_shift = 10"):format(n[1], n[2],
  n[3], dx, mesh.tissue, backend == "cuda" and cardiac.gpu().name or "cpu", precision,
  multirate > 1 and (", multirate %d"):format(multirate) or "", below and (", quiescent below %g mV"):format(below) or "",
  T))
local w0, s0 = run(false)
local w1, s1 = run(true)
print(("  without a map: %7.3f s, %.4f ms/step, %.1f s per second of activity"):format(w0, s0, w0 * 1000 / T))
print(("  with a map:    %7.3f s, %.4f ms/step, %.1f s per second of activity (the map: %+.4f ms/step)"):format(
  w1, s1, w1 * 1000 / T, s1 - s0))
