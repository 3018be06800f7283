-- The defibrillation threshold by bisection (require "defib";
-- docs/defibrillation.md): the lowest whole-tissue shock strength that
-- terminates the re-entry (a Karma S1-S2 spiral by default), bisected
-- between `lo` (must fail) and `hi` (must terminate) to `tol`, at each of
-- `timings` coupling intervals spread over the re-entry's cycle. Each timing
-- gives a bracket [lo, hi] (the threshold's uncertainty: half its width);
-- over the timings, the mean and standard deviation of the midpoints and the
-- strength that terminated at every timing tried (the largest hi).
-- Writes results/defib_threshold.csv (one row per timing),
-- results/defib_threshold_trials.csv (every trial) and
-- results/defib_threshold.png (the brackets against the coupling interval);
-- prints them and, last, trials per minute.
--   cardiac protocols/defib_threshold.lua [key=value ...]
--   cardiac protocols/defib_threshold.lua n=512 backend=cuda          (GPU, 512^2)
--   cardiac protocols/defib_threshold.lua kind=scroll n=128 backend=cuda
package.path = (arg[0]:match("(.*/)") or "./") .. "../scripts/?.lua;" .. package.path
local defib, tables = require "defib", require "tables"
local o = defib.study_arguments(arg, {   -- and the re-entry's (defib.REENTRY_ARGUMENTS)
  lo = 0.02, hi = 2, tol = 0.01, duration = 5, shape = "monophasic", timings = 4, budget = 0,
  out = "results/defib_threshold"}, "defib_threshold.lua")
cardiac.quiet = true
local re, t_reentry, trial = defib.study_reentry(o)
local rows, each, trials, seconds = {}, {}, 0, 0
for q = 1, o.timings do
  local phase = (q - 1) / o.timings
  local at = defib.at_coupling(re, phase * re.cycle)
  local th = defib.threshold{reentry = re, lo = o.lo, hi = o.hi, tol = o.tol, trial = trial,
    budget = o.budget > 0 and o.budget or nil,
    intervention = function(s) return defib.shock{strength = s, duration = o.duration, shape = o.shape, at = at} end}
  rows[q] = {phase = phase, coupling = phase * re.cycle, lo = th.lo, hi = th.hi, threshold = th.value,
             uncertainty = th.uncertainty, trials = th.trials, converged = th.converged and 1 or 0}
  for _, r in ipairs(th.rows) do
    each[#each + 1] = {phase = phase, strength = r.strength, outcome = r.outcome, decided = r.decided}
  end
  trials, seconds = trials + th.trials, seconds + th.seconds
end
local sum, sum2, worst = 0, 0, 0
for _, r in ipairs(rows) do sum, sum2, worst = sum + r.threshold, sum2 + r.threshold ^ 2, math.max(worst, r.hi) end
local mean = sum / #rows
local sd = #rows > 1 and math.sqrt(math.max(0, (sum2 - #rows * mean ^ 2) / (#rows - 1))) or 0
local cols = {"phase", "coupling", "lo", "hi", "threshold", "uncertainty", "trials", "converged"}
defib.write(o.out, rows, cols, {x = "coupling", y = {"lo", "threshold", "hi"}, xlabel =
            ("coupling interval (ms of a %.1f ms cycle)"):format(re.cycle), ylabel = "shock strength (V units / ms)",
            title = ("%s, %s %g ms shocks: threshold bracket"):format(o.kind, o.shape, o.duration)})
tables.csv(o.out .. "_trials.csv", each, {"phase", "strength", "outcome", "decided"}, {overwrite = true})
if cardiac.rank == 0 then
  print(("%s of %d cells (%s), cycle %.1f ms, made in %.1f s"):format(o.kind, re.mesh.ncells, re.model, re.cycle,
        t_reentry))
  print(tables.format(rows, cols))
  print(("threshold over %d timings: mean %.4g, sd %.3g; %.4g terminated at every timing (V units / ms)"):format(
        #rows, mean, sd, worst))
  print(("wrote %s.csv, %s_trials.csv"):format(o.out, o.out))
end
defib.report(("threshold %s n=%d %s"):format(o.kind, o.n, re.backend), trials, seconds)
