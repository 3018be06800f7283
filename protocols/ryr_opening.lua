-- One gaur_rudy cell, unstimulated, with every RyR held open from 50 to 150
-- ms (thesis section 7.2): the release, the exchanger's depolarisation and,
-- where IK1 lets it, a spontaneous action potential (docs/models.md).
--   cardiac protocols/ryr_opening.lua [dyads list] [g_k1]
--   e.g. cardiac protocols/ryr_opening.lua 10,100,1000 0.0763   (the encoding's IK1)
package.path = (arg[0]:match("(.*/)") or "./") .. "../scripts/?.lua;" .. package.path
local measure = require "measure"
local gk1 = tonumber(arg[2] or "0.1908")
print(string.format("RyRs open 50-150 ms, g_k1 = %g mS/uF", gk1))
print("dyads  peak Cai (uM)  min JSR (mM)  max V (mV)  V > -40 mV at (ms)  upstroke: max dV/dt at (ms)")
for n in (arg[1] or "10,100"):gmatch("[^,]+") do
  local one = cardiac.mesh{size = {0.5}, dx = 0.5}
  local sim = cardiac.simulation{mesh = one, model = cardiac.model("gaur_rudy", {dyads = tonumber(n), g_k1 = gk1}),
                                 dt = 0.05, D = 0.1, precision = "fp64"}
  sim:clamp_ryr{region = cardiac.box{min = {0}, max = {0.5}}, start = 50, duration = 100}
  local p = sim:probe{name = "cell", points = {{0.25}}, vars = {"V", "cai", "cajsr"}, interval = 0.5}
  sim:run(500)
  local d = p:data()
  local V, ca, jsr = d.V[1], d.cai[1], d.cajsr[1]
  local vmax, camax, jmin = -math.huge, 0, math.huge
  for i = 1, #V do vmax, camax, jmin = math.max(vmax, V[i]), math.max(camax, ca[i]), math.min(jmin, jsr[i]) end
  local up = measure.activation_time(d.t, V, -40)
  local ap = measure.action_potential(d.t, V)
  local tmax
  for i = 1, #V - 1 do if (V[i + 1] - V[i]) / (d.t[i + 1] - d.t[i]) == ap.dvdt_max then tmax = d.t[i] break end end
  print(string.format("%-6s %-14.3f %-13.3f %-11.1f %-19s %s", n, camax * 1e3, jmin, vmax,
                      up and string.format("%.1f", up) or "never", up and string.format("%.1f", tmax) or "-"))
end
