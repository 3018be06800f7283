-- Phase singularities (sim:tips): tips of spiral waves in 2D, filaments of
-- scroll waves in 3D.
--  * Synthetic spirals set directly into the state, phase
--    theta = atan2(y - y0, x - x0) - 2 pi r / lambda: one tip within one cell of
--    (x0, y0), charge +1; a counter-rotating pair: two tips, charges +1 and -1;
--    a tip moved around a circle is followed within one cell at every position.
--  * Extruded along z: one filament through the whole depth (one singular face
--    in each layer); tilted, still one; two spirals: two such filaments.
--  * A real Karma spiral (S1-S2 cross-field initiation, as protocols/quickstart.lua):
--    tips present after the S2 and inside the sheet, none before it; its
--    tip followed over 500 ms by tracking.tips (scripts/tracking.lua).
package.path = (arg[0]:match("(.*/)") or "./") .. "../scripts/?.lua;" .. package.path   -- require "tracking"
local checks = require "checks"   -- check(ok, fmt, ...), finish()
local check = checks.check
cardiac.quiet = true
local dx = 0.25

-- sets U = 1 + cos(theta), v = 0.5 + sin(theta)/4 for a phase function theta(x, y)
local function set_phase(sim, theta)
  sim:set("U", function(x, y) return 1 + math.cos(theta(x, y)) end)
  sim:set("v", function(x, y) return 0.5 + 0.25 * math.sin(theta(x, y)) end)
end
local function spiral(x0, y0, sign)
  return function(x, y)
    return (sign or 1) * math.atan(y - y0, x - x0) - 2 * math.pi * math.sqrt((x - x0) ^ 2 + (y - y0) ^ 2) / 6
  end
end
local centre = {centre = {1, 0.5}}

local sheet = cardiac.simulation{mesh = cardiac.mesh{n = {80, 80}, dx = dx}, model = "karma", dt = 0.05, D = 0.1}
set_phase(sheet, spiral(9.1, 11.3))
local t = sheet:tips(centre)
check(#t == 1 and t[1].charge == 1 and math.abs(t[1].x - 9.1) <= dx and math.abs(t[1].y - 11.3) <= dx,
      "one spiral: %d tip(s), at (%.3f, %.3f) mm (set at (9.1, 11.3)), charge %s", #t, t[1] and t[1].x or 0,
      t[1] and t[1].y or 0, t[1] and t[1].charge or "-")
set_phase(sheet, function(x, y) return math.atan(y - 10.1, x - 6.2) - math.atan(y - 10.1, x - 14.3) end)
t = sheet:tips(centre)
table.sort(t, function(a, b) return a.x < b.x end)
check(#t == 2 and t[1].charge == 1 and t[2].charge == -1 and math.abs(t[1].x - 6.2) <= dx and math.abs(t[2].x - 14.3) <= dx,
      "counter-rotating pair: %d tips, charges %s and %s", #t, t[1] and t[1].charge or "-", t[2] and t[2].charge or "-")
local worst = 0
for q = 0, 7 do
  local a = 2 * math.pi * q / 8
  local x0, y0 = 10 + 3 * math.cos(a), 10 + 3 * math.sin(a)
  set_phase(sheet, spiral(x0, y0))
  t = sheet:tips(centre)
  local d = #t == 1 and math.sqrt((t[1].x - x0) ^ 2 + (t[1].y - y0) ^ 2) or math.huge
  worst = math.max(worst, d)
end
check(worst <= dx * math.sqrt(2), "tip moved around a circle: found at every position within %.3f mm", worst)

-- 3D: spirals extruded along z
local box = cardiac.simulation{mesh = cardiac.mesh{n = {40, 40, 12}, dx = dx}, model = "karma", dt = 0.05, D = 0.1}
set_phase(box, spiral(5.1, 4.9))
local f = box:tips(centre)
check(#f == 1 and f[1].faces == 12 and math.abs(f[1].x - 5.1) <= dx and math.abs(f[1].z - 1.5) < 1e-9,
      "extruded spiral: %d filament(s), %d faces (one per layer of 12), centre (%.2f, %.2f, %.2f) mm", #f,
      f[1] and f[1].faces or 0, f[1] and f[1].x or 0, f[1] and f[1].y or 0, f[1] and f[1].z or 0)
-- a tilted filament crosses faces of every orientation, still one filament
box:set("U", function(x, y, z) return 1 + math.cos(math.atan(y - 5.1, x - 3 - 1.2 * z)) end)
box:set("v", function(x, y, z) return 0.5 + 0.25 * math.sin(math.atan(y - 5.1, x - 3 - 1.2 * z)) end)
f = box:tips(centre)
check(#f == 1 and f[1].faces > 12, "tilted filament: %d filament(s) of %d faces", #f, f[1] and f[1].faces or 0)
set_phase(box, function(x, y) return math.atan(y - 3.1, x - 2.9) + math.atan(y - 7.1, x - 6.9) end)
f = box:tips(centre)
check(#f == 2 and f[1].faces == 12 and f[2].faces == 12, "two extruded spirals: %d filaments of %d and %d faces", #f,
      f[1] and f[1].faces or 0, f[2] and f[2].faces or 0)

-- a real spiral: S1-S2 cross-field initiation in Karma, as protocols/quickstart.lua (Karma's
-- tau_E = 2.5 ms: a 72 mm sheet of 0.6 mm cells, the S2 at 325 ms, dt = 0.1 ms; the former
-- test at tau_E = 1 ms with lengths / sqrt(2.5) and times / 2.5)
local L = 72
local s1stim = cardiac.stimulus{region = cardiac.slab{axis = "x", from = 0, to = 1.5}, amplitude = 5, duration = 2}
local s2stim = cardiac.stimulus{region = cardiac.box{min = {0, 0}, max = {L / 2, L / 2}}, amplitude = 5, duration = 2,
                                start = 325}
local k = cardiac.simulation{mesh = cardiac.mesh{size = {L, L}, dx = 0.6}, model = "karma", dt = 0.1, D = 0.1,
                             stimuli = {s1stim, s2stim}}
k:run(300)
local before = #k:tips{centre = {1, 0.5}}
k:run(700)
local after = k:tips{centre = {1, 0.5}}
local inside = #after > 0
for _, p in ipairs(after) do inside = inside and p.x > 0 and p.x < L and p.y > 0 and p.y < L end
check(before == 0 and #after >= 1 and inside, "Karma S1-S2: %d tips before the S2, %d at t = 1000 ms, inside the sheet",
      before, #after)

-- its tip followed for 500 ms (tracking.tips, a sample every 5 ms): one
-- trajectory through every sample, the rotor's core within 3.2 mm (2 mm at
-- tau_E = 1 ms, times sqrt(2.5)), and the CSV with a row per sample
local tracking = require "tracking"
local tr = tracking.tips(k, {duration = 500, every = 5, centre = {1, 0.5}, link = 2.4})
local main, extent = tr[1], 0
if main then
  for q = 2, #main.t do
    for r = 1, q - 1 do extent = math.max(extent, math.sqrt((main.x[q] - main.x[r]) ^ 2 + (main.y[q] - main.y[r]) ^ 2)) end
  end
end
check(#tr == 1 and #main.t == 101 and main.t[101] - main.t[1] == 500 and extent < 3.2,
      "Karma spiral tracked 1000-1500 ms: %d trajectory(ies), %d samples, core within %.2f mm", #tr,
      main and #main.t or 0, extent)
tracking.csv("results/test_tip_track.csv", tr, {overwrite = true})
local rows = require("tables").read_csv("results/test_tip_track.csv")
check(rows and #rows == 101 and rows[1].id == 1 and rows[101].t_ms == 1500, "tracking.csv: %d rows",
      rows and #rows or 0)

local function fails(fn, pattern, what)
  local ok, e = pcall(fn)
  check(not ok and tostring(e):find(pattern, 1, true) ~= nil, "%s -> %s", what, tostring(e))
end
fails(function() sheet:tips{vars = {"U"}} end, "'vars' must be a list of two", "one variable")
fails(function() sheet:tips{vars = {"U", "w"}} end, "no state variable 'w'", "unknown variable")
fails(function() sheet:tips{centre = {1}} end, "'centre' must be {a0, b0}", "one centre value")
fails(function() tracking.tips(sheet, {every = 1}) end, "give {duration = ms}", "tracking without a duration")

checks.finish()
