-- The multiscale model with stochastic calcium release units (gaur_rudy) on
-- the CPU backend, against what it must reproduce:
-- 1. One cell paced at 1 Hz (third beat from ORd's endocardial steady state,
--    100 dyads): its action potential against deterministic ORd's (the same
--    membrane; APD90 within 10%), a calcium transient triggered by the L-type
--    channels (release, JSR depletion, Cai within the physiological range).
--    The Gaur-Rudy paper's figures are not available to us; docs/models.md
--    says what this check stands for.
-- 2. The dyad count: 10 and 100 dyads per cell give the same beat (the
--    simulated dyads are a sample of the cell's 10,000: their volumes and the
--    whole-cell currents do not depend on how many are simulated).
-- 3. Reproducibility: the same seed gives the same run bit for bit; another
--    seed other channel counts and the same beat.
-- 4. Conduction: a cable with D = 0.2 mm^2/ms conducts at about 0.5 mm/ms
--    (thesis section 7.1: 0.523 m/s), whatever the dyad count. At the
--    thesis' dx = 0.5 mm our explicit scheme under-resolves the upstroke
--    (ORd: 0.11 mm/ms; 0.49 at dx = 0.25, 0.54 at 0.1), so the cable uses
--    dx = 0.25 mm (docs/models.md).
-- 5. RyR clamps: all RyRs held open release the SR (JSR depleted, Cai up,
--    the exchanger depolarises the cell); held closed during a paced beat,
--    nothing is released.
-- 6. Bad input raises an error naming the problem.
local here = arg[0]:match("(.*/)") or "./"
package.path = here .. "../scripts/?.lua;" .. package.path
local measure = require "measure"

local checks = require "checks"   -- check(ok, fmt, ...), finish()
local check = checks.check

local one = cardiac.mesh{size = {0.5}, dx = 0.5}
local everywhere = cardiac.box{min = {0}, max = {0.5}}

-- a single cell paced at 1 Hz for `beats` beats; the last beat's probe series
local function paced(model, o, beats)
  local st = cardiac.stimulus{region = everywhere, amplitude = 80, duration = 0.5, start = 0, period = 1000,
                              count = beats}
  local sim = cardiac.simulation{mesh = one, model = model, dt = 0.05, D = 0.1, stimuli = {st}, precision = "fp64"}
  if o and o.ryr then sim:clamp_ryr(o.ryr) end
  local vars = model == "ohara_rudy" and {"V", "cai", "cajsr"} or {"V", "cai", "cajsr", "ryr_open", "lcc_open", "jrel"}
  sim:run((beats - 1) * 1000)
  local p = sim:probe{name = "cell", points = {{0.25}}, vars = vars, interval = 0.1}
  sim:run(1000)
  local d = p:data()
  local s = {t = d.t}
  for _, v in ipairs(vars) do s[v] = d[v][1] end
  local ap = measure.action_potential(d.t, s.V, s.cai)
  return ap, s
end

local function max_of(x) local m = -math.huge for _, v in ipairs(x) do m = math.max(m, v) end return m end
local function min_of(x) local m = math.huge for _, v in ipairs(x) do m = math.min(m, v) end return m end

-- 1. one cell at 1 Hz against ORd
local ord = paced("ohara_rudy", nil, 3)
local gr100, s100 = paced(cardiac.model("gaur_rudy", {dyads = 100}), nil, 3)
print(string.format("       ORd: APD90 %.1f ms, peak %.1f mV, Cai %.3f -> %.3f uM", ord.apd90, ord.peak,
                    ord.ca_min * 1e3, ord.ca_max * 1e3))
print(string.format("  100 dyads: APD90 %.1f ms, peak %.1f mV, Cai %.3f -> %.3f uM, JSR %.2f -> %.2f mM, "
                    .. "at most %.1f of 100 RyRs and %.1f of 15 L-type channels open per dyad",
                    gr100.apd90, gr100.peak, gr100.ca_min * 1e3, gr100.ca_max * 1e3, s100.cajsr[1],
                    min_of(s100.cajsr), max_of(s100.ryr_open), max_of(s100.lcc_open)))
check(math.abs(gr100.apd90 / ord.apd90 - 1) < 0.10, "APD90 %.1f ms within 10%% of ORd's %.1f ms", gr100.apd90,
      ord.apd90)
check(math.abs(gr100.peak - ord.peak) < 5, "peak %.1f mV within 5 mV of ORd's %.1f", gr100.peak, ord.peak)
check(gr100.ca_min > 0.05e-3 and gr100.ca_min < 0.15e-3, "diastolic Cai %.3f uM in 0.05-0.15 uM",
      gr100.ca_min * 1e3)
check(gr100.ca_max > 0.25e-3 and gr100.ca_max < 1.5e-3, "peak Cai %.3f uM in 0.25-1.5 uM (ORd %.3f)",
      gr100.ca_max * 1e3, ord.ca_max * 1e3)
check(min_of(s100.cajsr) < 0.5 * s100.cajsr[1], "release depletes the JSR: %.2f -> %.2f mM", s100.cajsr[1],
      min_of(s100.cajsr))
check(max_of(s100.ryr_open) > 5 and max_of(s100.lcc_open) > 3, "channels open during the upstroke: %.1f RyRs, %.1f L-type",
      max_of(s100.ryr_open), max_of(s100.lcc_open))

-- 2. dyad count
local gr10 = paced(cardiac.model("gaur_rudy", {dyads = 10}), nil, 3)
check(math.abs(gr10.apd90 / gr100.apd90 - 1) < 0.03, "10 dyads: APD90 %.1f ms within 3%% of 100 dyads' %.1f",
      gr10.apd90, gr100.apd90)
check(math.abs(gr10.ca_max / gr100.ca_max - 1) < 0.15, "10 dyads: peak Cai %.3f uM within 15%% of %.3f",
      gr10.ca_max * 1e3, gr100.ca_max * 1e3)

-- 3. reproducibility
local again, sa = paced(cardiac.model("gaur_rudy", {dyads = 100}), nil, 3)
local same = #sa.V == #s100.V
for i = 1, #sa.V do same = same and sa.V[i] == s100.V[i] and sa.ryr_open[i] == s100.ryr_open[i] end
check(same, "the same seed gives the same run bit for bit (%d samples of V and open RyRs)", #sa.V)
local other, so = paced(cardiac.model("gaur_rudy", {dyads = 100, seed = 2}), nil, 3)
local differ = false
for i = 1, #so.ryr_open do differ = differ or so.ryr_open[i] ~= s100.ryr_open[i] end
check(differ and math.abs(other.apd90 / again.apd90 - 1) < 0.02,
      "seed 2: other channel counts, APD90 %.1f ms within 2%% of seed 1's %.1f", other.apd90, again.apd90)

-- 4. conduction along a cable (thesis 7.1: D = 0.2 mm^2/ms)
local function cable_cv(n)
  local mesh = cardiac.mesh{size = {15}, dx = 0.25}
  local st = cardiac.stimulus{region = cardiac.box{min = {0}, max = {1}}, amplitude = 80, duration = 1}
  local sim = cardiac.simulation{mesh = mesh, model = cardiac.model("gaur_rudy", {dyads = n}), dt = 0.05, D = 0.2,
                                 stimuli = {st}}
  local cells = {{16}, {48}}
  local p = sim:probe{name = "cv", cells = cells, vars = {"V"}, interval = 0.05}
  sim:run(50)
  return measure.conduction_velocity(p, mesh, cells, "V", -70)
end
local cv10, cv100 = cable_cv(10), cable_cv(100)
check(cv10 > 0.45 and cv10 < 0.60, "cable CV %.3f mm/ms with 10 dyads (thesis, 3D slab: 0.523)", cv10)
check(math.abs(cv100 / cv10 - 1) < 0.01, "CV with 100 dyads %.4f within 1%% of 10 dyads' %.4f", cv100, cv10)

-- 5. RyR clamps
do
  local sim = cardiac.simulation{mesh = one, model = cardiac.model("gaur_rudy", {dyads = 100}), dt = 0.05, D = 0.1,
                                 precision = "fp64"}
  local n = sim:clamp_ryr{region = everywhere, start = 50, duration = 100}
  local p = sim:probe{name = "c", points = {{0.25}}, vars = {"V", "cai", "cajsr", "ryr_open", "inaca_i"}, interval = 1}
  sim:run(300)
  local d = p:data()
  local s = {}
  for _, v in ipairs{"V", "cai", "cajsr", "ryr_open", "inaca_i"} do s[v] = d[v][1] end
  check(n == 1 and s.ryr_open[50] < 1 and s.ryr_open[100] == 100 and s.ryr_open[200] < 1,
        "clamp_ryr holds all 100 RyRs open from 50 to 150 ms only (%.2f, %.0f, %.2f)", s.ryr_open[50],
        s.ryr_open[100], s.ryr_open[200])
  check(min_of(s.cajsr) < 0.1 and max_of(s.cai) > 0.5e-3,
        "open RyRs empty the JSR (%.3f mM) and raise Cai to %.2f uM", min_of(s.cajsr), max_of(s.cai) * 1e3)
  check(min_of(s.inaca_i) < -0.2 and max_of(s.V) > s.V[1] + 5,
        "the exchanger (%.2f uA/uF) depolarises the cell by %.1f mV", min_of(s.inaca_i), max_of(s.V) - s.V[1])
end
local closed, sc = paced(cardiac.model("gaur_rudy", {dyads = 100}), {ryr = {region = everywhere, state = "closed",
                                                                            start = 1990, duration = 500}}, 3)
check(max_of(sc.jrel) == 0 and closed.ca_max < 0.5 * gr100.ca_max,
      "RyRs held closed: no release, peak Cai %.3f uM (released: %.3f)", closed.ca_max * 1e3, gr100.ca_max * 1e3)

-- 6. checkpoints: a cable saved 30 ms into a beat, with a RyR clamp that
-- starts after the save, continues bit for bit in a new simulation (every
-- cell-level state, the dyads' means among them, after 30 ms more: the dyads'
-- own state was restored exactly, or their draws would part)
do
  local function make(seed)
    local mesh = cardiac.mesh{size = {3}, dx = 0.5}
    local st = cardiac.stimulus{region = cardiac.slab{axis = "x", from = 0, to = 0.5}, amplitude = 80, duration = 0.5}
    local sim = cardiac.simulation{mesh = mesh, model = cardiac.model("gaur_rudy", {dyads = 100, seed = seed}),
                                   dt = 0.05, D = 0.1, precision = "fp64", stimuli = {st}}
    sim:clamp_ryr{region = cardiac.slab{axis = "x", from = 2, to = 3}, start = 40, duration = 10}
    return sim
  end
  local ref = make(1)
  ref:run(30)
  ref:checkpoint("results/calcium_checkpoint.h5", {overwrite = true})
  ref:run(30)
  local cont = make(1)
  cont:restore("results/calcium_checkpoint.h5")
  local p = cont:probe{cells = {{1}, {6}}, vars = {"ryr_open"}, interval = 0.5}
  cont:run(30)
  local worst = 0
  for _, st in ipairs(cardiac.model("gaur_rudy"):states()) do worst = math.max(worst, (ref:diff(cont, st.name))) end
  local ryr = math.max(max_of(p:data().ryr_open[1]), max_of(p:data().ryr_open[2]))
  check(worst == 0 and cont.t == ref.t and ryr > 0, "checkpoint with 6 x 100 dyads: continued run equal bit for bit "
        .. "(max |diff| %g over %d states; up to %.1f RyRs open per dyad)", worst,
        #cardiac.model("gaur_rudy"):states(), ryr)
  local other = make(2)
  local ok, msg = pcall(function() other:restore("results/calcium_checkpoint.h5") end)
  check(not ok and tostring(msg):find("with seed 1", 1, true) ~= nil and other.t == 0,
        "a checkpoint of another seed is refused, the simulation untouched: %s", tostring(msg))
end

-- 7. bad input
local function fails(pattern, f)
  local ok, msg = pcall(f)
  check(not ok and tostring(msg):find(pattern, 1, true) ~= nil, "error: %s", tostring(msg))
end
fails("dyads = 250", function()
  cardiac.simulation{mesh = one, model = cardiac.model("gaur_rudy", {dyads = 250}), dt = 0.05, D = 0.1}
end)
fails("blockDS", function()
  cardiac.simulation{mesh = cardiac.mesh{n = {8, 8}, dx = 0.5}, model = cardiac.model("gaur_rudy", {dyads = 1}),
                     dt = 0.05, D = 0.1, blocks = {4, 4}}
end)
local sim = cardiac.simulation{mesh = one, model = cardiac.model("gaur_rudy", {dyads = 10}), dt = 0.05, D = 0.1}
fails("dyads is fixed", function() sim:set_param("dyads", 100) end)
fails("seed is fixed", function() sim:set_param{seed = 3} end)
fails("'state' must be", function() sim:clamp_ryr{region = everywhere, state = "ajar", start = 0} end)
fails("steps its calcium release units", function() cardiac.model("gaur_rudy"):trace{t = 10} end)
local karma = cardiac.simulation{mesh = one, model = "karma", dt = 0.05, D = 0.1}
fails("no calcium release units", function() karma:clamp_ryr{region = everywhere, start = 0} end)

checks.finish()
