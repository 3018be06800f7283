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
local o = defib.study_arguments(arg, {   -- and the re-entry's (defib.REENTRY_ARGUMENTS)
  strengths = {0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.6, 1},   -- V units per ms (Karma: U per ms)
  duration = 5, shape = "monophasic", timings = 8, seed = 1,
  at_strength = 0.25, phases = 12,
  out = "results/defib_shock"}, "defib_shock.lua")
cardiac.quiet = true
local re, t_reentry, trial = defib.study_reentry(o)
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
  print(("wrote %s_strength.csv, %s_trials.csv, %s_timing.csv"):format(o.out, o.out, o.out))
end
defib.report(("%s n=%d %s"):format(o.kind, o.n, re.backend), rows.trials + tim.trials, rows.seconds + tim.seconds)
