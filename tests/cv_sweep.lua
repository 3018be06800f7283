-- A conduction-velocity sweep over D (scripts/sweep.lua with activation maps):
-- for a planar wave of a reaction-diffusion equation CV scales as sqrt(D)
-- (rescaling x by sqrt(D) removes D), so doubling D multiplies CV by sqrt(2).
-- Karma cable, dx = 0.1 mm: each ratio within 1.5% of sqrt(2), and closer as D
-- grows (the front widens as sqrt(D), so the grid resolves it better: on the
-- CPU, 2026-11-22, 1.0%, 0.47%, 0.23% above sqrt(2)). The sweep
-- prepares one state (the cable at rest after 1 ms) and restores it for each
-- value; the table is written as CSV.
local sweep, tables = require "sweep", require "tables"
cardiac.quiet = true
local checks = require "checks"   -- check(ok, fmt, ...), finish()
local check = checks.check

local function make()
  local s1 = cardiac.stimulus{region = cardiac.slab{axis = "x", from = 0, to = 0.5}, amplitude = 5, duration = 1,
                              start = 1}
  return cardiac.simulation{mesh = cardiac.mesh{size = {20}, dx = 0.1}, model = "karma", dt = 0.005, D = 0.1,
                            stimuli = {s1}}
end
local rows = sweep.run{name = "D", values = {0.05, 0.1, 0.2, 0.4}, make = make,
  prepare = function(sim) sim:run(1) end,
  experiment = function(sim, D)
    sim:set_D(D)
    local lat = sim:activation{}
    sim:run(45)
    local fit = lat:cv{region = cardiac.slab{axis = "x", from = 6, to = 14}}
    return {cv = fit.speed, rms = fit.rms, cells = fit.cells}
  end}
print(tables.format(rows, {"D", "cv", "rms", "cells"}))
tables.csv("results/test_cv_sweep.csv", rows, {"D", "cv", "rms", "cells"}, {overwrite = true})
check(#rows == 4, "one row per value")
local dev = {}
for q = 2, #rows do
  local ratio = rows[q].cv / rows[q - 1].cv
  dev[q] = math.abs(ratio / math.sqrt(2) - 1)
  check(dev[q] < 0.015, "CV(D = %g) / CV(D = %g) = %.4f (sqrt(2) = 1.4142)", rows[q].D, rows[q - 1].D, ratio)
end
check(dev[3] < dev[2] and dev[4] < dev[3], "the grid error shrinks as D grows: %.2f%%, %.2f%%, %.2f%%",
      100 * dev[2], 100 * dev[3], 100 * dev[4])
local ok, e = pcall(sweep.run, {name = "D", values = {1}, make = make})
check(not ok and tostring(e):find("missing 'experiment'", 1, true), "missing experiment -> %s", tostring(e))
checks.finish()
