-- Why one gaur_rudy cell fires, or not, when every RyR is held open from 50
-- to 150 ms without a stimulus (Altanaite 2017, section 7.2, figs. 7.6 and
-- 7.8: a spontaneous action potential only with 10,000 dyads, the tissue
-- excited at about 120 ms). Three parts, each varying one thing:
--   readings  the model's two readings of the simulated dyads, for each dyad
--             count, from ORd's resting state with the Ca2+ load of the C++
--             encoding the thesis' code descends from (scripts/calcium_states.lua,
--             "encoding"): "units" (each dyad one of the cell's 10,000,
--             with its share) fires only with all 10,000; "sample" (the
--             dyads a sample whose means make the cell) fires with any count;
--   load      the SR's Ca2+ load at the opening (NSR = JSR = the value; the
--             rest of the state as in readings), with 1,000 dyads read as a
--             sample, which stand for the whole cell as 10,000 units do: the
--             beat needs a load above a threshold, and comes earlier the more
--             the SR holds; ORd's resting and paced loads lie below it;
--   ik1       the former way to a beat from ORd's 1 Hz resting state: the
--             encoding's isoproterenol IK1 (g_k1 = 0.0763 mS/uF, 40% of ORd's).
-- The beat's time is the first crossing of -40 mV. About 40 s on one core.
--   cardiac protocols/ryr_opening.lua [csv|-] [parts=readings,load,ik1] [dyads=10,100,1000,10000]
package.path = (arg[0]:match("(.*/)") or "./") .. "../scripts/?.lua;" .. package.path
local R, tables, cell = require "reproduction", require "tables", require "calcium_cell"
local path = arg[1] ~= "-" and arg[1] or nil
local o = R.options(arg, 2, {"parts", "dyads"}, "ryr_opening.lua")
local parts = {}
for p in (o.parts or "readings,load,ik1"):gmatch("[^,]+") do parts[p] = true end
local counts = {}
for n in (o.dyads or "10,100,1000,10000"):gmatch("[^,]+") do counts[#counts + 1] = tonumber(n) end
local rows = {}
local function add(part, what, r, extra)
  rows[#rows + 1] = {part = part, what = what, beat = r.up and ("%.1f"):format(r.up) or "none",
                     vmax = ("%.1f"):format(r.vmax), ca_max = ("%.3f"):format(r.ca_max),
                     jrel_max = ("%.3g"):format(r.jrel_max), jsr_min = ("%.3f"):format(r.jsr_min),
                     note = extra or ""}
end
local base = {open = 50, hold = 100, tmax = 400}
local function with(t) local c = {} for k, v in pairs(base) do c[k] = v end for k, v in pairs(t) do c[k] = v end return c end

if parts.readings then
  for _, reading in ipairs{"units", "sample"} do
    for _, n in ipairs(counts) do
      add("readings", ("%s, %d dyads"):format(reading, n), cell.run(with{dyads = n, reading = reading, initial = "encoding"}))
    end
  end
end
if parts.load then
  local loads = {{1.54, "ORd's 1 Hz resting JSR"}, {1.71, "JSR of ORd paced at 500 ms, 400 beats"},
                 {2.0}, {2.5}, {2.75}, {3.0}, {3.5}, {3.82, "the encoding's JSR (NSR 4.27 mM)"}}
  for _, l in ipairs(loads) do
    local sr = l[1] == 3.82 and {} or {cansr = l[1], cajsr = l[1]}
    add("load", ("SR %.2f mM"):format(l[1]),
        cell.run(with{dyads = 1000, reading = "sample", initial = "encoding", with = sr}), l[2])
  end
  add("load", "ORd's 1 Hz resting state", cell.run(with{dyads = 1000, reading = "sample", initial = "rest"}),
      "no Ca2+ of the encoding's: NSR 1.58, JSR 1.54 mM")
end
if parts.ik1 then
  add("ik1", "ORd's 1 Hz resting state, g_k1 0.0763",
      cell.run(with{dyads = 1000, reading = "sample", initial = "rest", g_k1 = 0.0763}))
  add("ik1", "the encoding's state, g_k1 0.0763",
      cell.run(with{dyads = 1000, reading = "sample", initial = "encoding", g_k1 = 0.0763}))
end
local cols = {"part", "what", "beat", "vmax", "ca_max", "jrel_max", "jsr_min", "note"}
print("RyRs open 50-150 ms, one cell, fp64: beat = V > -40 mV (ms); vmax mV; ca_max uM; jrel_max mM/ms; jsr_min mM")
print(tables.format(rows, cols))
if path then tables.csv(path, rows, cols, {overwrite = true}) end
