-- Quiescent cells (cardiac.simulation{multirate = m, quiescent_below = v},
-- core/engine/quiescence.h) on the CPU backend, with ORd:
--  * resting tissue, every cell below the bound: each m-th step advances it
--    as one step of m dt does (a simulation with dt = m dt), in fp64 to
--    rounding;
--  * a stimulus wakes the cells it drives: a stimulated cable activates at
--    the stimulated end as without quiescence;
--  * over a beat of the heart's cable (dx 0.5 mm, D 0.3 mm^2/ms), activation
--    and APD90 stay close to the run without quiescent cells; with the bound
--    on the diffusion current lifted (quiescent_diffusion = 1e9), the bound
--    on V alone lets the foot of the upstroke pass unstepped, and at -80 mV
--    the wave arrives measurably late: the current is what keeps it on time;
--  * the schedule follows the simulation's step count: a run cut into calls,
--    and one continued from a checkpoint or a snapshot taken between two
--    updates, give the same state as one call;
--  * the lags are state: a checkpoint without them (written by a simulation
--    without quiescent cells) continues differently;
--  * bad options are refused, naming them.
local checks = require "checks"
local check = checks.check

local ord = cardiac.model("ohara_rudy", {ina_m_shift = 10})

local largest_difference = checks.worst_relative

-- resting tissue: steps 10, 20, ... as steps of 0.5 ms (a single cell's
-- trace with dt = 0.5 ms), from V = -84 mV, where V and the gates move
-- enough in 20 ms that the steps' size shows
do
  local mesh = cardiac.mesh{n = {6}, dx = 1}
  local function uniform(quiet)
    local sim = cardiac.simulation{mesh = mesh, model = ord, dt = 0.05, D = 0.1, precision = "fp64",
                                   multirate = 10, quiescent_below = quiet and -80 or nil}
    sim:set("V", -84)
    return sim
  end
  local q, every = uniform(true), uniform(false)
  check(q.quiescent_below == -80 and q.quiescent_diffusion == 0.1 and every.quiescent_below == nil,
        "sim.quiescent_below and quiescent_diffusion read back %s and %s (without: %s)", tostring(q.quiescent_below),
        tostring(q.quiescent_diffusion), tostring(every.quiescent_below))
  q:step(9)
  check(q:field("V")[3] == -84 and q:field("m")[3] == ord:rest().m, "nine holding steps leave a quiescent "
        .. "cell's V and gates as they were (V %.6f mV)", q:field("V")[3])
  q:step(391)
  every:step(400)
  local tr = ord:trace{t = 20, dt = 0.5, precision = "fp64", state = {V = -84}}
  local function off(sim)
    local worst, name = 0, "-"
    for _, st in ipairs(ord:states()) do
      local want, got = tr[st.name][#tr[st.name]], sim:field(st.name)[3]
      local d = math.abs(got - want) / math.max(1e-300, math.abs(want))
      if d > worst then worst, name = d, st.name end
    end
    return worst, name
  end
  local d, name = off(q)
  local de = off(every)
  check(d < 1e-12 and de > 1e-6, "rest, fp64, from V = -84 mV: 400 steps of 0.05 ms with m = 10 equal 40 steps "
        .. "of 0.5 ms of a single cell (largest relative difference %.3g, in %s; every step stepped: %.3g)",
        d, name, de)
end

-- a cable paced at one end (first activation and APD90 maps, V at the end)
local function cable(precision, below, n, T, current)
  local sim = cardiac.simulation{mesh = cardiac.mesh{n = {n}, dx = 0.5}, model = ord, dt = 0.05, D = 0.3,
    precision = precision, multirate = 10, quiescent_below = below, quiescent_diffusion = current,
    stimuli = {cardiac.stimulus{region = cardiac.slab{axis = "x", from = 0, to = 1.0}, amplitude = 80,
                                duration = 1, start = 1}}}
  local maps = sim:activation{threshold = -40}
  sim:run(T)
  local r = {first = maps:field("first"), apd = maps:field("apd")}
  sim:close()
  return r
end
local function worst(a, b, key)
  local d = 0
  for i = 1, #a[key] do d = math.max(d, math.abs(a[key][i] - b[key][i])) end
  return d
end
local ref = cable("fp64", nil, 40, 450)
local q80 = cable("fp64", -80, 40, 450)
local v80 = cable("fp64", -80, 40, 450, 1e9)
check(math.abs(q80.first[1] - ref.first[1]) < 1e-3, "the stimulated cell activates as without quiescence "
      .. "(%.4f against %.4f ms)", q80.first[1], ref.first[1])
local dT80, dA80, dV80 = worst(q80, ref, "first"), worst(q80, ref, "apd"), worst(v80, ref, "first")
check(dT80 < 0.005 and dA80 < 0.3 and ref.apd[20] > 200, "a beat of 40 cells of 0.5 mm, fp64, m = 10, below "
      .. "-80 mV and 0.1 mV/ms: activation within %.4f ms, APD90 within %.3f ms of the run without (APD90 "
      .. "mid-cable %.1f ms)", dT80, dA80, ref.apd[20])
check(dV80 > 0.2 and v80.first[40] > ref.first[40], "below -80 mV with no bound on the current the wave arrives "
      .. "%.4f ms late at the far end (with 0.1 mV/ms: %.4f ms): the foot of the upstroke went unstepped",
      v80.first[40] - ref.first[40], q80.first[40] - ref.first[40])

-- the schedule: calls, a checkpoint and a snapshot between two updates
local function paced(precision)
  return cardiac.simulation{mesh = cardiac.mesh{n = {30}, dx = 0.5}, model = ord, dt = 0.05, D = 0.3,
    precision = precision, multirate = 10, quiescent_below = -86,
    stimuli = {cardiac.stimulus{region = cardiac.slab{axis = "x", from = 0, to = 1.0}, amplitude = 80,
                                duration = 1, start = 1}}}
end
local a = paced("fp32")
a:step(100)
local b = paced("fp32")
for _, n in ipairs{7, 3, 15, 70, 5} do b:step(n) end
local d, name = largest_difference(a, b)
check(d == 0, "fp32: 100 steps in one call or five (7, 3, 15, 70, 5) give the same state (largest relative "
      .. "difference %.3g, in %s)", d, name)
a:step(3)                        -- 103: the cells ahead of the wave have sat out three steps
local file = os.tmpname()
a:checkpoint(file, {overwrite = true})
local snap = a:save()
local back, mem = paced("fp32"), paced("fp32")
back:restore(file)
mem:restore(snap)
a:step(60)
back:step(60)
mem:step(60)
d, name = largest_difference(back, a)
local dm = largest_difference(mem, a)
check(d == 0 and dm == 0 and back.steps == a.steps, "a checkpoint and a snapshot at step 103, restored, continue "
      .. "equal to the run (largest relative differences %.3g in %s, %.3g)", d, name, dm)
-- without its lags the restored run differs: the lags are state
local plain = cardiac.simulation{mesh = cardiac.mesh{n = {30}, dx = 0.5}, model = ord, dt = 0.05, D = 0.3,
  precision = "fp32", multirate = 10}
plain:restore(file)
local lagless = paced("fp32")
local fresh = os.tmpname()
plain:checkpoint(fresh, {overwrite = true})
lagless:restore(fresh)
lagless:step(60)
d = largest_difference(lagless, a)
check(d > 0, "restored from a checkpoint without lags (written by a simulation without quiescent cells), the "
      .. "run differs from the one that kept them (largest relative difference %.3g)", d)
os.remove(file)
os.remove(fresh)

local function refused(opts, what, ...)
  opts.mesh = opts.mesh or cardiac.mesh{n = {4}, dx = 0.1}
  opts.model = opts.model or ord
  local ok, err = pcall(cardiac.simulation, opts)
  local found = not ok
  for _, word in ipairs{...} do found = found and err:find(word, 1, true) ~= nil end
  check(found, "%s is refused: %s", what, tostring(err))
end
refused({quiescent_below = -86}, "quiescent cells without multirate", "quiescent_below", "multirate")
refused({quiescent_below = -86, multirate = 300}, "multirate = 300 with quiescent cells", "quiescent_below", "300")
refused({quiescent_below = -86, multirate = 10, precision = "fp64", tables = true}, "quiescent cells with tables",
        "quiescent_below", "tables")
refused({quiescent_below = "low", multirate = 10}, "a quiescent bound that is not a number", "quiescent_below",
        "number")
refused({quiescent_below = 0 / 0, multirate = 10}, "a NaN quiescent bound", "quiescent_below", "NaN")
refused({quiescent_below = -86, quiescent_diffusion = 0, multirate = 10}, "a bound on the current of 0",
        "quiescent_diffusion", "positive")
refused({quiescent_diffusion = 0.1, multirate = 10}, "a bound on the current without quiescent_below",
        "quiescent_diffusion", "quiescent_below")

checks.finish()
