-- Anti-tachycardia pacing (require "defib"; docs/defibrillation.md): success
-- against the pacing cycle length. A train of `pulses` stimuli at a site (a
-- disc of radius `radius` mm about (site_x, site_y) mm; a cylinder through the
-- depth of a scroll wave's block) paces the re-entry at cycle lengths given as
-- fractions of its own cycle; for each, `timings` trains start at coupling
-- intervals spread over the cycle (drawn from `seed`). Rows: the pacing cycle
-- length (ms and fraction), the outcomes and the success probability with its
-- 95% Wilson interval. Writes results/defib_atp.{csv,png} and
-- results/defib_atp_trials.csv; prints the table and, last, trials per minute.
--   cardiac protocols/defib_atp.lua [key=value ...]
--   cardiac protocols/defib_atp.lua n=512 backend=cuda
package.path = (arg[0]:match("(.*/)") or "./") .. "../scripts/?.lua;" .. package.path
local defib, tables = require "defib", require "tables"
local o = defib.study_arguments(arg, {   -- and the re-entry's (defib.REENTRY_ARGUMENTS)
  fractions = {0.6, 0.7, 0.8, 0.9, 1.0}, pulses = 8, strength = 5, width = 2, radius = 2,
  site_x = 0, site_y = 0, timings = 4, seed = 1, out = "results/defib_atp"}, "defib_atp.lua")
cardiac.quiet = true
local re, t_reentry, trial = defib.study_reentry(o)
-- the site: a disc (2D) or a cylinder along z (3D) about (site_x, site_y), default the corner cell's centre
local cx, cy = o.site_x > 0 and o.site_x or o.dx / 2, o.site_y > 0 and o.site_y or o.dx / 2
local site = re.dim == 3 and cardiac.cylinder{center = {cx, cy, 0}, axis = "z", radius = o.radius}
                         or cardiac.sphere{center = {cx, cy}, radius = o.radius}
local cycles = {}
for q, f in ipairs(o.fractions) do cycles[q] = f * re.cycle end
local rows = defib.success{reentry = re, name = "cycle", values = cycles, timings = o.timings, seed = o.seed,
  trial = trial, intervention = function(cl, at)
    return defib.atp{site = site, cycle = cl, pulses = o.pulses, strength = o.strength, width = o.width, at = at}
  end}
for q, r in ipairs(rows) do r.fraction = o.fractions[q] end
local cols = {"cycle", "fraction", "trials", "terminated", "not_terminated", "reinduced", "p", "p_lo", "p_hi"}
defib.write(o.out, rows, cols, {x = "cycle", y = {"p", "p_lo", "p_hi"}, xlabel =
            ("pacing cycle length (ms; the re-entry's: %.1f ms)"):format(re.cycle), ylabel = "probability of termination",
            title = ("ATP: %d pulses of %g for %g ms at (%g, %g) mm"):format(o.pulses, o.strength, o.width, cx, cy)})
tables.csv(o.out .. "_trials.csv", rows.each, {"cycle", "phase", "coupling", "outcome", "decided", "vsum"},
           {overwrite = true})
if cardiac.rank == 0 then
  print(("%s of %d cells (%s), cycle %.1f ms, made in %.1f s"):format(o.kind, re.mesh.ncells, re.model, re.cycle,
        t_reentry))
  print(tables.format(rows, cols))
  print(("wrote %s.csv, %s_trials.csv"):format(o.out, o.out))
end
defib.report(("atp %s n=%d %s"):format(o.kind, o.n, re.backend), rows.trials, rows.seconds)
