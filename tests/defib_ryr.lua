-- RyR opening (defib.ryr; Altanaite 2017, section 7.2) opens RyRs, in one
-- gaur_rudy cell (reading "units", the Ca2+ load of the thesis' code), CPU:
--  * 10 dyads, every RyR held open 50-150 ms: the release raises Cai above
--    1 uM (ten times the resting level) but fires no action potential;
--  * 10 dyads, no opening: Cai stays at rest;
--  * 10,000 dyads, the same opening: an action potential (V > -40 mV) about
--    61 ms after the opening (the thesis: only with 10,000 units).
-- And the cells it opens: patches of `patch` mm drawn from `seed` (the same
-- seed, the same cells; fraction 1, every cell), in 1D, 2D and 3D; bad
-- fractions refused naming them. About 5 s on one core.
package.path = (arg[0]:match("(.*/)") or "./") .. "../scripts/?.lua;" .. package.path
local checks = require "checks"
local check = checks.check
local defib, states = require "defib", require "calcium_states"
cardiac.quiet = true

local function cell(dyads, open, tmax)
  local mesh = cardiac.mesh{n = {1}, dx = 0.5}
  local sim = cardiac.simulation{mesh = mesh, model = cardiac.model("gaur_rudy", {dyads = dyads, reading = "units"}),
                                 dt = 0.05, D = 0.1, backend = "cpu"}
  states.apply(sim, "encoding")
  if open then
    local iv = defib.ryr{fraction = 1, at = 50, duration = 100}
    iv.check{model = "gaur_rudy"}
    iv.apply(sim, 0, {mesh = mesh, model = "gaur_rudy"})
  end
  local r = {vmax = -math.huge, camax = 0}
  while sim.t < tmax - 1e-9 do
    sim:run(0.5)
    local v, ca = sim:get("V", 1), sim:get("cai", 1) * 1e3
    r.vmax, r.camax = math.max(r.vmax, v), math.max(r.camax, ca)
    if not r.up and v > -40 then r.up = sim.t end
  end
  sim:close()
  return r
end

local few, shut = cell(10, true, 160), cell(10, false, 160)
check(few.camax > 1 and not few.up and few.vmax < -80,
      "10 dyads, RyRs open 50-150 ms: Cai up to %.2f uM, no action potential (V at most %.1f mV)", few.camax, few.vmax)
check(shut.camax < 0.2 and shut.vmax < -80, "10 dyads, no opening: Cai at most %.3f uM, V at most %.1f mV", shut.camax,
      shut.vmax)
local many = cell(10000, true, 125)
check(many.up and many.up > 100 and many.up < 122, "10,000 dyads, RyRs open 50-150 ms: V > -40 mV at %s ms",
      tostring(many.up))

-- the opened cells
local line = cardiac.mesh{n = {48}, dx = 0.5}
local a = defib.ryr{fraction = 0.5, patch = 1, seed = 3}.cells(line)
local b = defib.ryr{fraction = 0.5, patch = 1, seed = 3}.cells(line)
local c = defib.ryr{fraction = 0.5, patch = 1, seed = 4}.cells(line)
local paired, same, differ = #a % 2 == 0, #a == #b, #a ~= #c
for q = 1, #a do
  same = same and a[q][1] == b[q][1]
  if q % 2 == 0 then paired = paired and a[q][1] == a[q - 1][1] + 1 and a[q][1] % 2 == 0 end
  differ = differ or not c[q] or a[q][1] ~= c[q][1]
end
check(#a > 0 and #a < 48 and paired and same and differ,
      "cable of 48 cells, half of the 1 mm patches: %d cells in whole patches of 2; seed 3 again the same, seed 4 others", #a)
local sheet, block = cardiac.mesh{n = {8, 8}, dx = 0.5}, cardiac.mesh{n = {4, 4, 4}, dx = 0.5}
check(#defib.ryr{fraction = 1}.cells(line) == 48 and #defib.ryr{fraction = 1}.cells(sheet) == 64 and
      #defib.ryr{fraction = 1, patch = 2}.cells(block) == 64, "fraction 1: every cell of a cable, a sheet and a block")
local function refused(o, pattern)
  local ok, e = pcall(defib.ryr, o)
  check(not ok and tostring(e):find(pattern, 1, true) ~= nil, "defib.ryr refuses: %s", tostring(e))
end
refused({fraction = 0}, "defib.ryr: 'fraction' = 0 must be > 0")
refused({fraction = 1.5}, "defib.ryr: 'fraction' = 1.5 must be <= 1")
refused({fraction = 1, duration = -1}, "'duration' = -1 must be > 0")
checks.finish()
