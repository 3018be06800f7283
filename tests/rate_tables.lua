-- Rate tables (cardiac.simulation{tables = true}, core/engine/rate_tables.h)
-- on the CPU backend, with ORd cables in fp64:
--  * the tables are read: a paced cable's state differs from the one without
--    them, and over a beat activation and APD90 stay within 0.005 ms and
--    0.01 ms (0.05 mV rows moved them by at most 0.0003 ms over two beats,
--    docs/numerics.md, "Rate tables");
--  * beyond the tables' rows (-200 to +200 mV) a gate steps with the end
--    row's coefficients: at 250 mV as at 200 mV, to the bit;
--  * the tables follow the parameters their gates read: after sim:set_param
--    of ko (IK1's steady state) everywhere the cable equals, to the bit, one
--    built with it; epi cells in a region step with the epi table, as in a
--    cable epi everywhere, to the bit;
--  * a checkpoint's parameter sets, restored (params = true), bring their tables back;
--  * tables are refused in the float precisions and for models without them.
local checks = require "checks"
local check = checks.check

local function cable(opts)
  return cardiac.simulation{mesh = cardiac.mesh{n = {opts.n or 40}, dx = 0.25},
    model = cardiac.model("ohara_rudy", opts.params or {}), dt = 0.05, D = 0.2, precision = opts.precision or "fp64",
    tables = opts.tables, stimuli = {cardiac.stimulus{region = cardiac.slab{axis = "x", from = 0, to = 0.5},
      amplitude = 80, duration = 1, start = 1}}}
end

-- read, and close over a beat
local plain, tab = cable{}, cable{tables = true}
check(tab.tables == true and plain.tables == false, "sim.tables reports the option (%s, %s)", tostring(tab.tables),
      tostring(plain.tables))
local m1, m2 = plain:activation{threshold = -40}, tab:activation{threshold = -40}
plain:run(20)
tab:run(20)
local d20 = checks.worst_diff(plain, tab)
check(d20 > 0 and d20 < 0.05, "the tables are read: after 20 ms (the upstroke) the states differ by %.3g (0 < d < 0.05)", d20)
plain:run(430)
tab:run(430)
local dT, dA = 0, 0
local t1, t2, a1, a2 = m1:field("first"), m2:field("first"), m1:field("apd"), m2:field("apd")
for i = 1, #t1 do
  dT = math.max(dT, math.abs(t1[i] - t2[i]))
  dA = math.max(dA, math.abs(a1[i] - a2[i]))
end
check(t1[40] > 10 and a1[40] > 200 and dT < 0.005 and dA < 0.01,
      "a beat (40 cells, last activated at %.1f ms, APD90 %.0f ms): activation within %.5f ms, APD90 within %.5f ms",
      t1[40], a1[40], dT, dA)

-- beyond the rows (-200 to +200 mV) a gate takes the end row's coefficients:
-- at 250 mV its step equals, to the bit, its step at 200 mV, which the
-- kinetics as written do not
local function gates_after(v, tables)
  local s = cable{n = 4, tables = tables}
  s:set("V", v)
  s:step(1)
  local g = {}
  for _, name in ipairs{"m", "hf", "j", "a", "d", "ff", "xrf", "xs1", "xk1"} do g[name] = s:field(name)[2] end
  return g
end
local t250, t200, p250, p200 = gates_after(250.0, true), gates_after(200.0, true), gates_after(250.0, false),
                               gates_after(200.0, false)
local same, moved = true, false
for name, x in pairs(t250) do
  same = same and x == t200[name]
  moved = moved or p250[name] ~= p200[name]
end
check(same and moved, "V at 250 mV (beyond the rows) steps the gates as at 200 mV with tables (%s), not without (%s)",
      tostring(same), tostring(not moved))

-- the tables follow the parameters
local changed, built = cable{tables = true}, cable{tables = true, params = {ko = 7}}
changed:set_param("ko", 7)
changed:run(30)
built:run(30)
check(checks.worst_diff(changed, built) == 0, "set_param ko = 7 everywhere equals a cable built with it: %g",
      checks.worst_diff(changed, built))
local stale = cable{tables = true}
stale:run(30)
check(checks.worst_diff(changed, stale) > 0, "and differs from the cable with ko = 5.4 (%g)",
      checks.worst_diff(changed, stale))
local region = cardiac.slab{axis = "x", from = 5, to = 10}
-- each set steps with its own table: after one step from rest, the region's
-- epi cells equal those of a cable that is epi everywhere, to the bit, and
-- differ from an endo cable's (the epi table differs in Ito's inactivation)
local function region_states(sim)
  local out = {}
  for _, st in ipairs(cardiac.model("ohara_rudy"):states()) do
    local f = sim:field(st.name)
    for i = 22, 39 do out[#out + 1] = f[i] end
  end
  return out
end
local part, all_epi, endo = cable{tables = true}, cable{tables = true}, cable{tables = true}
part:set_param({cell = "epi"}, region)
all_epi:set_param({cell = "epi"})
for _, s in ipairs{part, all_epi, endo} do s:step(1) end
local sp, se, sn = region_states(part), region_states(all_epi), region_states(endo)
local same, differs = true, false
for i = 1, #sp do
  same = same and sp[i] == se[i]
  differs = differs or sp[i] ~= sn[i]
end
check(part:param_sets() == 2 and same and differs, "epi cells in a region (%d sets) step with the epi table: as in an "
      .. "all-epi cable (%s), not as in an endo one (%s)", part:param_sets(), tostring(same), tostring(not differs))
local r1 = cable{tables = true}
r1:set_param({cell = "epi"}, region)
r1:run(25)
local r3 = cable{tables = false}
r3:set_param({cell = "epi"}, region)
r3:run(25)
local dr = checks.worst_diff(r1, r3)
check(dr > 0 and dr < 1e-3, "and it stays within %.3g of the run without tables (0 < d < 1e-3)", dr)

-- a checkpoint restores the parameter sets (params = true), and the tables follow them
local file = os.tmpname()
r1:checkpoint(file, {overwrite = true})
local back = cable{tables = true}
back:restore(file, {params = true})
r1:run(5)
back:run(5)
check(back:param_sets() == 2 and checks.worst_diff(r1, back) == 0, "restored from a checkpoint (%d sets), a run "
      .. "continues bit for bit: %g", back:param_sets(), checks.worst_diff(r1, back))
os.remove(file)

-- refusals
local function refused(opts, want)
  local ok, err = pcall(cable, opts)
  check(not ok and tostring(err):find(want, 1, true) ~= nil, "refused: %s", tostring(err))
end
refused({tables = true, precision = "fp32"}, "for precision 'fp64' (got 'fp32')")
refused({tables = true, precision = "mixed"}, "(got 'mixed')")
local ok, err = pcall(cardiac.simulation, {mesh = cardiac.mesh{n = {8}, dx = 0.25}, model = "karma", precision = "fp64",
                                          tables = true})
check(not ok and tostring(err):find("model 'karma' has no rate tables", 1, true) ~= nil, "refused: %s", tostring(err))
checks.finish()
