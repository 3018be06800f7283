-- Exploration for docs/reproductions.md (thesis_spiral): the thesis' planar
-- wave (eqs. 5.4-5.5) and S2 (eq. 5.7) with one thing changed at a time, on
-- an N x NY x N box of 0.5 mm cells (NY = 1: the cube's x-z plane, whose
-- solution is the cube's at every y), dt = 0.05 ms. Settings from the
-- environment: N (48), NY (N), S2 (step of the S2, 8500), STEPS (20000), D
-- (mm^2/ms, 0.1) and Karma parameters TAU_E, XM, VSTAR, EPS, GAMMA (the
-- defaults otherwise). Prints the step at which the planar wave's back passes
-- the probe (the middle of the S2 region), the share of cells activated 3 or
-- more times, the probe's activation times and the largest U every 500 steps.
--   N=256 NY=1 D=0.04 XM=30 cardiac protocols/thesis_s2_explore.lua
local measure = require "measure"
local n = tonumber(os.getenv("N") or 48)
local ny = tonumber(os.getenv("NY") or n)
local s2 = tonumber(os.getenv("S2") or 8500)
local steps = tonumber(os.getenv("STEPS") or 20000)
local D = tonumber(os.getenv("D") or 0.1)
local par = {}
for _, k in ipairs{"tau_e", "xm", "vstar", "eps", "gamma"} do
  local v = os.getenv(k:upper()); if v then par[k] = tonumber(v) end
end
cardiac.quiet = true
local f = n / 256
local mid = {math.floor(127 * f) + 1, math.max(1, ny // 2), math.floor(80 * f) + 1}
local sim = cardiac.simulation{mesh = cardiac.mesh{n = {n, ny, n}, dx = 0.5}, model = cardiac.model("karma", par),
                               dt = 0.05, D = D, backend = "auto"}
sim:set("v", 0.5)
sim:set("U", 3.0, cardiac.slab{axis = "z", from = 0, to = 0.05 * n * 0.5})
local maps = sim:activation{interval = 0.5}
local probe = sim:probe{cells = {mid}, vars = {"U"}, interval = 0.5}
local back
while sim.steps < s2 do
  sim:step(100)
  if not back then
    local first = maps:get("first", table.unpack(mid))
    if first == first and sim:get("U", table.unpack(mid)) < 1.0 then back = sim.steps end
  end
end
sim:set("U", 3.0, cardiac.where(function(x, y, z)
  local i, k = x / 0.5 - 0.5, z / 0.5 - 0.5
  return k > 60 * f and k < 100 * f and i >= 117 * f and i <= 137 * f
end))
local active = {}
while sim.steps < steps do
  sim:step(500)
  local _, umax = sim:stats("U")
  active[#active + 1] = ("%d:%.1f"):format(sim.steps, umax)
  if not back then
    local first = maps:get("first", table.unpack(mid))
    if first == first and sim:get("U", table.unpack(mid)) < 1.0 then back = sim.steps end
  end
end
local d = probe:data()
local ups, again = measure.crossings(d.t, d.U[1], 1), measure.fraction_at_least(maps:field("count"), 3)
local _, umax = sim:stats("U")
print(("n=%d S2=%d params=%s back_at_probe=%s | 3+ act %.1f%% | probe ups %d at %s | maxU(end) %.2f")
  :format(n, s2, (function() local t = {} for k, v in pairs(par) do t[#t+1] = k .. "=" .. v end return table.concat(t, ",") end)(),
    tostring(back), 100 * again, #ups, table.concat(ups, " "), umax))
print("  maxU per 500 steps: " .. table.concat(active, " "))
