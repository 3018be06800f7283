-- What interventions cost on the GPU: Karma on a 256^3 box (fp32, the
-- default layout), ms per step with the default parameters (folded into the
-- kernel), with xm changed everywhere (the kernel's general variant), with xm
-- changed in half of the box (two parameter sets: a label per cell), and with
-- a clamp of U in an (n/4)^3 box held at every step (one more small kernel per step, and
-- steps queued one at a time); wall-clock time of sim:step over `steps` steps
-- after a warm-up, median of 3.
--   cardiac protocols/interventions_cost.lua [n = 256] [steps = 2000]
local measure = require "measure"
local n, steps = tonumber(arg[1] or 256), tonumber(arg[2] or 2000)
cardiac.quiet = true
local L = n * 0.25
local function ms_per_step(setup)
  local sim = cardiac.simulation{mesh = cardiac.mesh{n = {n, n, n}, dx = 0.25}, model = "karma", dt = 0.05, D = 0.1,
                                 backend = "auto", skip_rest = false}
  sim:set("U", 3.0, cardiac.slab{axis = "x", from = 0, to = 2})
  setup(sim)
  local t, sets = measure.ms_per_step(sim, steps), sim:param_sets()
  sim:close()
  return t, sets
end
local half = cardiac.slab{axis = "x", from = 0, to = L / 2}
local block = cardiac.box{min = {L / 4, L / 4, L / 4}, max = {L / 2, L / 2, L / 2}}
local cases = {
  {"defaults", function() end},
  {"xm = 9.5 everywhere", function(s) s:set_param("xm", 9.5) end},
  {"xm = 9.5 in half", function(s) s:set_param("xm", 9.5, half) end},
  {("clamp %d^3 cells"):format(n // 4), function(s) s:clamp{region = block, var = "U", value = 0} end},
  {"half + clamp", function(s) s:set_param("xm", 9.5, half); s:clamp{region = block, var = "U", value = 0} end},
}
print(("%d^3 cells, %s"):format(n, (cardiac.gpu() or {name = "CPU"}).name))
print(("%-22s %5s %10s %10s"):format("case", "sets", "ms/step", "extra"))
local base
for _, c in ipairs(cases) do
  local t, sets = ms_per_step(c[2])
  base = base or t
  print(("%-22s %5d %10.4f %10.4f"):format(c[1], sets, t, t - base))
end
