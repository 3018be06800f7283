-- Shock success against strength and against timing (require "defib";
-- docs/defibrillation.md). A re-entry (a Karma S1-S2 spiral by default) is
-- made once and kept in memory; every trial restores it into a fresh
-- simulation, applies one shock over the whole tissue and runs until its
-- outcome is known (terminated, not terminated, re-induced).
--  * Strength: for each strength, `timings` shocks at coupling intervals
--    spread over the re-entry's cycle (drawn from `seed`): the success
--    probability with its 95% Wilson interval.
--  * Timing: at strength `at_strength`, one shock per phase of the cycle
--    (`phases` evenly spread): success against the coupling interval.
-- Writes results/defib_shock_strength.{csv,png}, results/defib_shock_trials.csv
-- (every trial), results/defib_shock_timing.{csv,png}; prints the tables and,
-- last, trials per minute.
--   cardiac protocols/defib_shock.lua [key=value ...]
-- e.g. on a GPU, a 512^2 sheet and a 128^3 block (docs/defibrillation.md):
--   cardiac protocols/defib_shock.lua n=512 backend=cuda
--   cardiac protocols/defib_shock.lua kind=scroll n=128 backend=cuda
package.path = (arg[0]:match("(.*/)") or "./") .. "../scripts/?.lua;" .. package.path
local defib, tables = require "defib", require "tables"
local o = defib.arguments(arg, {
  kind = "spiral",        -- spiral (2D), scroll (3D) or breakup (2D multiple wavelets: n=250 dx=0.5)
  n = 90,                 -- cells per side (L = n dx); the depth of a scroll wave is n/4 cells
  dx = 0.8, dt = 0, D = 0, depth = 0, settle = 0, backend = "auto", precision = "fp32", model = "", file = "",
  strengths = {0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.6, 1},   -- V units per ms (Karma: U per ms)
  duration = 5, shape = "monophasic", timings = 8, seed = 1,
  at_strength = 0.25, phases = 12,
  quiet = 0, sustain = 0,  -- 0: one and two cycles of the re-entry
  out = "results/defib_shock"}, "defib_shock.lua")
cardiac.quiet = true
local t_start = cardiac.clock()
local re = defib.reentry{kind = o.kind, L = o.n * o.dx, dx = o.dx, depth = (o.depth > 0 and o.depth or o.n // 4) * o.dx, dt = o.dt, D = o.D,
                         settle = o.settle, backend = o.backend, precision = o.precision, model = o.model,
                         file = o.file}
local t_reentry = cardiac.clock() - t_start
local trial = {quiet = o.quiet > 0 and o.quiet or nil, sustain = o.sustain > 0 and o.sustain or nil}
local function shock(s, at) return defib.shock{strength = s, duration = o.duration, shape = o.shape, at = at} end

local rows = defib.success{reentry = re, name = "strength", values = o.strengths, timings = o.timings, seed = o.seed,
                           trial = trial, intervention = shock}
defib.write(o.out .. "_strength", rows, {"strength", "trials", "terminated", "not_terminated", "reinduced", "p", "p_lo",
            "p_hi"}, {x = "strength", y = {"p", "p_lo", "p_hi"}, xlabel = "shock strength (V units / ms)",
            ylabel = "probability of termination", title = ("%s, %s %g ms shocks, %d timings each"):format(o.kind,
            o.shape, o.duration, o.timings)})
tables.csv(o.out .. "_trials.csv", rows.each, {"strength", "phase", "coupling", "outcome", "decided", "vsum"},
           {overwrite = true})
local tim = defib.timing{reentry = re, n = o.phases, trial = trial,
                         intervention = function(at) return shock(o.at_strength, at) end}
defib.write(o.out .. "_timing", tim, {"phase", "coupling", "outcome", "success", "decided"},
            {x = "coupling", y = "success", xlabel = ("coupling interval (ms of a %.1f ms cycle)"):format(re.cycle),
             ylabel = "terminated (1) or not (0)", title = ("%s, %g V/ms %s shocks"):format(o.kind, o.at_strength,
             o.shape), style = "points"})
if cardiac.rank == 0 then
  print(("%s of %d cells (%s), cycle %.1f ms, made in %.1f s"):format(o.kind, re.mesh.ncells, re.model, re.cycle,
        t_reentry))
  print(tables.format(rows, {"strength", "trials", "terminated", "not_terminated", "reinduced", "p", "p_lo", "p_hi"}))
  print(tables.format(tim, {"phase", "coupling", "outcome", "decided"}))
  print(("wrote %s_strength.csv/.png, %s_trials.csv, %s_timing.csv/.png"):format(o.out, o.out, o.out))
end
defib.report(("%s n=%d %s"):format(o.kind, o.n, re.backend), rows.trials + tim.trials, rows.seconds + tim.seconds)
