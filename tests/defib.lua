-- Defibrillation library (scripts/defib.lua) on the CPU at small size: a
-- Karma spiral (S1-S2, a 40 mm sheet of 0.8 mm cells) saved once in memory.
--  * A strong whole-tissue shock terminates it, a weak one does not; a strong
--    biphasic shock over two regions terminates it too, a weak pacing train
--    does not.
--  * The trial stops as soon as the outcome is known (well before `max`).
--  * A success curve rerun with the same seed gives the same timings,
--    outcomes and final states bit for bit; another seed other timings.
--  * The bisection's bracket contains the threshold it reports, and trials
--    run again at its ends fail (lo) and terminate (hi).
--  * A trial from a re-entry restored from its checkpoint file equals the one
--    from the memory snapshot bit for bit.
--  * Bad arguments are refused, naming them, before any simulation of a
--    trial is made.
--  * defib.rotors counts a lone phase singularity as a rotor and a pair of
--    opposite charges in one spot as none (phase.spirals' known state);
--    defib.breakup refuses a re-entry of one rotor.
package.path = (arg[0]:match("(.*/)") or "./") .. "../scripts/?.lua;" .. package.path
local checks = require "checks"   -- check(ok, fmt, ...), finish()
local check = checks.check
local defib = require "defib"
cardiac.quiet = true

local file = "results/test_defib_spiral.h5"
os.remove(file)
local opts = {L = 40, dx = 0.8, settle = 600, backend = "cpu", file = file}
local re = defib.spiral(opts)
check(re.ntips >= 1 and re.cycle > 50 and re.cycle < 150 and re.t == re.s2 + 600,
      "Karma spiral: %d phase singularity(ies) at t = %g ms, cycle %.1f ms", re.ntips, re.t, re.cycle)
-- count the simulations the trials make: bad input must be refused before any
local made, make = 0, re.make
re.make = function() made = made + 1 return make() end

local trial = {quiet = 80, sustain = 160, max = 1000}   -- fixed, not from the measured cycle
local strong = defib.trial(re, defib.shock{strength = 2, duration = 5}, trial)
local weak = defib.trial(re, defib.shock{strength = 0.05, duration = 5}, trial)
check(strong.outcome == "terminated" and strong.tips == 0 and strong.decided < 1000,
      "strong shock (2 /ms, 5 ms): %s, decided %g ms after the restore", strong.outcome, strong.decided)
check(weak.outcome == "not_terminated" and weak.tips >= 1 and weak.decided < 1000,
      "weak shock (0.05 /ms, 5 ms): %s with %d tip(s), decided at %g ms", weak.outcome, weak.tips, weak.decided)
local bi = defib.trial(re, defib.shock{strength = 2, duration = 6, shape = "biphasic",
  regions = {cardiac.box{min = {0, 0}, max = {40, 20}}, cardiac.box{min = {0, 20}, max = {40, 40}}}}, trial)
check(bi.outcome == "terminated", "strong biphasic shock over two halves: %s", bi.outcome)
local half = defib.trial(re, defib.shock{strength = 2, duration = 5, region = cardiac.box{min = {0, 0}, max = {8, 8}}},
                         trial)
check(half.outcome ~= "terminated", "strong shock on a 8 mm corner only: %s", half.outcome)
local atp = defib.trial(re, defib.atp{site = cardiac.sphere{center = {2, 2}, radius = 1.6}, cycle = 200, pulses = 2,
                                      strength = 0.05}, trial)
check(atp.outcome == "not_terminated", "ATP too weak to capture (0.05 /ms): %s", atp.outcome)

-- success against strength, twice with one seed and once with another
local function curve(seed)
  return defib.success{reentry = re, name = "strength", values = {0.05, 2}, timings = 3, seed = seed, trial = trial,
    progress = false, intervention = function(s, at) return defib.shock{strength = s, duration = 5, at = at} end}
end
local a, b, c = curve(11), curve(11), curve(12)
local same, other = #a.each == 6, false
for q, r in ipairs(a.each) do
  same = same and r.phase == b.each[q].phase and r.outcome == b.each[q].outcome and r.vsum == b.each[q].vsum and
         r.decided == b.each[q].decided
  other = other or r.phase ~= c.each[q].phase
end
check(same and other, "success curve: the same seed gives the same timings, outcomes and final states bit for bit " ..
      "(%d trials); another seed other timings", #a.each)
check(a[1].p == 0 and a[2].p == 1 and a[1].p_hi < 1 and a[2].p_lo > 0,
      "success: p = %g at 0.05 /ms (95%% up to %.2f), %g at 2 /ms (from %.2f)", a[1].p, a[1].p_hi, a[2].p, a[2].p_lo)

-- the threshold by bisection
local th = defib.threshold{reentry = re, lo = 0.05, hi = 2, tol = 0.05, trial = trial, progress = false,
  intervention = function(s) return defib.shock{strength = s, duration = 5} end}
local at_lo = defib.trial(re, defib.shock{strength = th.lo, duration = 5}, trial)
local at_hi = defib.trial(re, defib.shock{strength = th.hi, duration = 5}, trial)
check(th.converged and th.lo <= th.value and th.value <= th.hi and th.hi - th.lo <= 0.05 and
      th.uncertainty == (th.hi - th.lo) / 2 and at_lo.outcome ~= "terminated" and at_hi.outcome == "terminated",
      "threshold %.4f +- %.4f /ms in [%.4f, %.4f] after %d trials; again: %s at lo, %s at hi", th.value,
      th.uncertainty, th.lo, th.hi, th.trials, at_lo.outcome, at_hi.outcome)

-- the re-entry again, now from its checkpoint file: the same trial bit for bit
local re2 = defib.spiral(opts)
local again = defib.trial(re2, defib.shock{strength = th.hi, duration = 5}, trial)
local again_w = defib.trial(re2, defib.shock{strength = 0.05, duration = 5}, trial)
check(re2.t == re.t and math.abs(re2.cycle - re.cycle) < 0.5 * re.cycle and again.vsum == at_hi.vsum and
      again.decided == at_hi.decided and again_w.vsum == weak.vsum,
      "from the checkpoint file: the same trials bit for bit (V sums %.9g and %.9g, %.9g and %.9g)", again.vsum,
      at_hi.vsum, again_w.vsum, weak.vsum)

-- bad input, each refused naming the argument before any trial's simulation is made
local function refused(fn, pattern, what)
  local before = made
  local ok, e = pcall(fn)
  check(not ok and tostring(e):find(pattern, 1, true) ~= nil and made == before, "%s -> %s", what, tostring(e))
end
local shock = function(s, at) return defib.shock{strength = s, duration = 5, at = at} end
refused(function() defib.shock{strength = -1} end, "defib.shock: 'strength' = -1 must be >= 0", "negative strength")
refused(function() defib.trial(re, defib.shock{strength = 1, region = cardiac.box{min = {50, 50}, max = {60, 60}}}) end,
        "defib.shock: region 1 (cardiac.region (box)) holds no tissue cell", "a region outside the tissue")
refused(function() defib.success{reentry = re, values = {1, 2}, timings = 2, budget = 0, intervention = shock} end,
        "defib.success: 'budget' = 0 must be >= 1", "a trial budget of zero")
refused(function() defib.success{reentry = re, values = {1, 2}, timings = 2, budget = 3, intervention = shock} end,
        "'budget' = 3 trials is fewer than the 4 the study needs", "a budget too small")
refused(function() defib.success{reentry = re, values = {1, -2}, timings = 2, intervention = shock} end,
        "'strength' = -2 must be >= 0", "a negative strength among the values")
refused(function() defib.threshold{reentry = re, lo = 1, hi = 0.5, intervention = shock} end,
        "defib.threshold: 'hi' = 0.5 must exceed 'lo' = 1", "hi below lo")
refused(function() defib.threshold{reentry = re, lo = 0, hi = 1, budget = 0, intervention = shock} end,
        "'budget' = 0 must be >= 1", "a bisection budget of zero")
refused(function() defib.trial(re, defib.ryr{fraction = 0.5}) end, "RyR opening needs gaur_rudy tissue",
        "RyR opening on Karma")
refused(function() defib.trial(re, defib.shock{strength = 1}, {quiet = 0}) end, "'quiet' = 0 must be > 0",
        "a zero quiet time")
refused(function() defib.atp{site = cardiac.everywhere(), cycle = 1, width = 2} end,
        "'width' = 2 ms is longer than 'cycle' = 1 ms", "an ATP pulse longer than its cycle")
refused(function() defib.spiral{L = 32, dx = 0.8, file = file, backend = "cpu"} end,
        "defib.spiral: 'file' simulation:restore: checkpoint 'results/test_defib_spiral.h5' is of a 50x50x1 mesh",
        "a checkpoint of another mesh")
refused(function() defib.spiral{L = 40, dx = 0.8, settle = -5, backend = "cpu"} end, "'settle' = -5 must be > 0", "a negative settle")
os.remove(file)

-- rotors among the phase singularities: a pair of opposite charges 1.5 mm apart counts none
local phase = require "phase"
local fk = cardiac.simulation{mesh = cardiac.mesh{n = {80, 80}, dx = 0.5}, backend = "cpu",
                              model = cardiac.model("fenton_karma", {cell = "BR"}), dt = 0.1, D = 0.1}
phase.spirals(fk, {{10, 10, 1}, {30, 10, -1}, {20, 30, 1}, {21.5, 30, -1}},
              {vars = {"u", "v"}, centre = {0.5, 0.5}, radius = {0.4, 0.4}})
local tips = fk:tips{vars = {"u", "v"}, centre = {0.5, 0.5}}
fk:close()
check(#tips == 4 and defib.rotors(tips) == 2 and defib.rotors(tips, 0.5) == 4,
      "defib.rotors: %d phase singularities, %d rotors within 2 mm (a +- pair 1.5 mm apart counts none), %d within 0.5 mm",
      #tips, defib.rotors(tips), defib.rotors(tips, 0.5))
-- a breakup is refused when the re-entry holds one rotor: the Karma spiral of the sheet above
local ok, e = pcall(defib.breakup, {model = "karma", amplitude = 5, L = 40, dx = 0.8, settle = 600, backend = "cpu"})
check(not ok and tostring(e):find("defib.breakup: no breakup in the last 300 ms", 1, true) and
      tostring(e):find("(median 1, 'min_rotors' = 2", 1, true), "one Karma spiral is no breakup: %s", tostring(e))
refused(function() defib.breakup{min_rotors = 0} end, "defib.breakup: 'min_rotors' = 0 must be >= 1", "min_rotors of zero")
refused(function() defib.breakup{depth = 3} end, "defib.breakup: unknown option 'depth'", "a depth for a 2D breakup")
-- a study's table and figure: without gnuplot the figure alone is left out;
-- any other error of the figure (here options without y) stops the study
os.execute("mkdir -p results")
local rows = {{s = 1, p = 0.2}, {s = 2, p = 0.7}}
defib.write("results/test_defib_write", rows, {"s", "p"}, {x = "s", y = "p"})
local f = io.open("results/test_defib_write.csv")
local text = f and f:read("a") or ""
if f then f:close() end
local png = io.open("results/test_defib_write.png", "rb")
local magic = png and png:read(8)
if png then png:close() end
check(text:find("s,p", 1, true) and (magic == "\137PNG\r\n\26\n" or not require("tables").can_plot()),
      "defib.write: the CSV, and the figure where gnuplot is installed (%s)", tostring(require("tables").can_plot()))
refused(function() defib.write("results/test_defib_write", rows, {"s", "p"}, {x = "s"}) end,
        "tables.plot: give {x = column, y = column(s)}", "a figure's options without y")
checks.finish()
