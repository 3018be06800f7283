-- What tracking activation maps costs on the GPU (sim:activation): Karma on
-- a 256^3 box (fp32, the default layout), ms per step without maps and with
-- maps sampled every 1 and every 10 steps; wall-clock time of sim:step over
-- 2,000 steps after a warm-up, median of 3.
--   cardiac protocols/activation_cost.lua [n = 256] [steps = 2000]
local measure = require "measure"
local n, steps = tonumber(arg[1] or 256), tonumber(arg[2] or 2000)
cardiac.quiet = true
local function ms_per_step(every)
  local sim = cardiac.simulation{mesh = cardiac.mesh{n = {n, n, n}, dx = 0.25}, model = "karma", dt = 0.05, D = 0.1,
                                 backend = "auto", skip_rest = false}
  sim:set("U", 3.0, cardiac.slab{axis = "x", from = 0, to = 2})
  if every then sim:activation{every = every} end
  local t = measure.ms_per_step(sim, steps)
  sim:close()
  return t
end
local base = ms_per_step(nil)
print(("%d^3 cells, %s"):format(n, (cardiac.gpu() or {name = "CPU"}).name))
print(("%-22s %10s %10s"):format("maps", "ms/step", "extra"))
print(("%-22s %10.4f %10s"):format("none", base, "-"))
for _, every in ipairs{1, 10} do
  local t = ms_per_step(every)
  print(("%-22s %10.4f %10.4f"):format("every " .. every .. " step(s)", t, t - base))
end
