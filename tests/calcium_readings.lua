-- The two readings of gaur_rudy's simulated dyads (docs/models.md) and what
-- the calcium thesis' experiments need of them (Altanaite 2017, section
-- 7.2, figs. 7.7-7.8), on one cell on the CPU:
-- 1. reading "units" (each dyad one of the cell's 10,000 with its share):
--    with the SR loaded as in the encoding the thesis' code descends from,
--    opening every RyR fires a spontaneous action potential with 10,000
--    dyads and none with 100; reading "sample" fires with 100 at the same
--    time as 10,000 units (a sample of the whole cell);
-- 2. paced, the units reading's release and L-type current grow with the
--    count, and its APD is shorter with fewer units, while the sample
--    reading's is the same for any count;
-- 3. sim:set on the calcium concentrations sets every dyad of the cell (the
--    dyads' next means keep the value), and refuses what the dyads compute;
-- 4. bad values of `reading` are refused with the parameter named.
local here = arg[0]:match("(.*/)") or "./"
package.path = here .. "../scripts/?.lua;" .. package.path
local cell = require "calcium_cell"
local checks = require "checks"
local check = checks.check

-- 1. RyRs open 50-150 ms (the beat comes before 250 ms)
local open = {open = 50, hold = 100, tmax = 250, initial = "encoding"}
local function opened(n, reading)
  local o = {dyads = n, reading = reading}
  for k, v in pairs(open) do o[k] = v end
  return cell.run(o)
end
local u10k, u100, s100 = opened(10000, "units"), opened(100, "units"), opened(100, "sample")
print(("RyRs open: units 10,000 beat %s ms (max V %.1f); units 100 max V %.1f; sample 100 beat %s ms"):format(
  tostring(u10k.up), u10k.vmax, u100.vmax, tostring(s100.up)))
check(u10k.up and u10k.up > 90 and u10k.up < 140,
      "units, 10,000 dyads: spontaneous beat at %s ms (thesis: about 120)", tostring(u10k.up))
check(not u100.up and u100.vmax < -80, "units, 100 dyads: no beat (max V %.1f mV)", u100.vmax)
check(s100.up and math.abs(s100.up - u10k.up) < 2,
      "sample, 100 dyads: the beat of 10,000 units (%s against %s ms)", tostring(s100.up), tostring(u10k.up))
check(math.abs(u100.jrel_max / u10k.jrel_max - 0.01) < 0.001,
      "units: the whole-cell release of 100 dyads is 1%% of 10,000's (%.3g against %.3g mM/ms)", u100.jrel_max,
      u10k.jrel_max)

-- 2. a paced beat from the model's resting state
local function paced(n, reading) return cell.run{dyads = n, reading = reading, paced = 20, tmax = 420} end
local u10, u100p, s10, s100p = paced(10, "units"), paced(100, "units"), paced(10, "sample"), paced(100, "sample")
print(("paced APD90: units 10 %.1f, 100 %.1f; sample 10 %.1f, 100 %.1f ms"):format(u10.apd90, u100p.apd90, s10.apd90,
  s100p.apd90))
check(math.abs(s10.apd90 / s100p.apd90 - 1) < 0.03, "sample: APD90 %.1f (10 dyads) within 3%% of %.1f ms (100)",
      s10.apd90, s100p.apd90)
check(u10.apd90 < 0.8 * s10.apd90 and u100p.apd90 < 0.8 * s100p.apd90,
      "units: APD90 shorter than the whole cell's (%.1f and %.1f against %.1f ms)", u10.apd90, u100p.apd90, s100p.apd90)
check(u100p.jrel_max > 5 * u10.jrel_max, "units: 100 dyads release more than 10 (%.3g against %.3g mM/ms)",
      u100p.jrel_max, u10.jrel_max)

-- 3. sim:set reaches the dyads
do
  local one = cardiac.mesh{size = {0.5}, dx = 0.5}
  local sim = cardiac.simulation{mesh = one, model = cardiac.model("gaur_rudy", {dyads = 10}), dt = 0.05, D = 0.1,
                                 precision = "fp64"}
  sim:set("cajsr", 3.5)
  sim:set("cansr", 3.5)
  sim:step(2)
  local jsr, nsr = sim:get("cajsr", 1), sim:get("cansr", 1)
  check(math.abs(jsr / 3.5 - 1) < 0.01 and math.abs(nsr / 3.5 - 1) < 0.01,
        "sim:set cajsr, cansr = 3.5 mM: the dyads keep it (%.4f, %.4f mM two steps later)", jsr, nsr)
  local ok, err = pcall(sim.set, sim, "ical", 1)
  check(not ok and tostring(err):find("ical") and tostring(err):find("computed"),
        "sim:set('ical') is refused: %s", tostring(err))
  sim:close()
end

-- 4. bad input
local ok, err = pcall(cardiac.model, "gaur_rudy", {reading = "whole"})
check(not ok and tostring(err):find("reading") and tostring(err):find("units"),
      "reading = 'whole' is refused naming the choices: %s", tostring(err))
ok, err = pcall(cardiac.model, "gaur_rudy", {reading = 0.5})
check(not ok and tostring(err):find("reading"), "reading = 0.5 is refused: %s", tostring(err))
local m = cardiac.model("gaur_rudy", {reading = "units"})
check(m:get("reading") == 1, "reading = 'units' sets the value 1 (%g)", m:get("reading"))
for _, p in ipairs(m:params()) do
  if p.name == "reading" then check(p.choice == "units", "model:params() names the choice (%s)", tostring(p.choice)) end
end
checks.finish()
