-- Multirate stepping (cardiac.simulation{multirate = m}, core/engine/multirate.h)
-- on the CPU backend, with an ORd cable paced at one end:
--  * it equals the scheme applied from outside the steps (the slow states
--    put back after every step but each m-th, when they take m times the
--    step's change), state by state, to the bit in fp32 and within rounding
--    in fp64 (Lua's m (y - old) + old rounds twice, the core's fused
--    multiply-add once);
--  * the slow states change only at steps m, 2m, ... of the simulation's
--    count, so a run cut into calls anywhere, or continued from a
--    checkpoint, gives the same state (mixed, whose slow gates are rounded
--    to float as the GPU stores them);
--  * over a beat, activation and APD90 stay within 0.01 ms and 0.5 ms of
--    every-step stepping (docs/gpu-notebook.md item 28 measured 0.0011 and
--    0.12 ms over three beats at m = 10);
--  * bad values and a model without slow states are refused, naming them.
local checks = require "checks"
local check = checks.check

local ord = cardiac.model("ohara_rudy")
local slow = {}
for _, st in ipairs(ord:states()) do
  if st.slow then slow[#slow + 1] = st.name end
end
check(#slow == 14, "ORd marks 14 slow states: %s", table.concat(slow, " "))

local function cable(precision, multirate, n)
  return cardiac.simulation{mesh = cardiac.mesh{n = {n or 12}, dx = 0.25}, model = ord, dt = 0.05, D = 0.2,
    precision = precision, multirate = multirate, stimuli = {cardiac.stimulus{
      region = cardiac.slab{axis = "x", from = 0, to = 0.5}, amplitude = 80, duration = 1, start = 1}}}
end

-- the scheme from outside: after each step the slow states are put back, or
-- (steps m, 2m, ...) take m times the step's change
local function hooked(precision, m, steps)
  local sim = cable(precision, 1)
  local held = {}
  for _, s in ipairs(slow) do held[s] = sim:field(s) end
  for k = 1, steps do
    sim:step(1)
    for _, s in ipairs(slow) do
      local h = held[s]
      if k % m == 0 then
        local f = sim:field(s)
        for i = 1, #f do h[i] = h[i] + m * (f[i] - h[i]) end
      end
      local x = 0
      sim:set(s, function(px) x = x + 1 return h[x] end)
      held[s] = sim:field(s)   -- as the state holds it (rounded to its precision)
    end
  end
  return sim
end

local largest_difference = checks.worst_relative

-- 300 steps: the stimulus, the upstroke and the start of the plateau
for _, case in ipairs{{"fp32", 0}, {"fp64", 1e-13}} do
  local precision, tol = case[1], case[2]
  local got = cable(precision, 10)
  check(got.multirate == 10, "sim.multirate reads back %s", tostring(got.multirate))
  got:step(300)
  local want = hooked(precision, 10, 300)
  local d, name = largest_difference(got, want)
  check(d <= tol, "%s, m = 10, 300 steps: equals the scheme applied from outside (largest relative "
        .. "difference %.3g, in %s)", precision, d, name)
end

-- held between the updates, and the schedule follows the simulation's step count
local a = cable("mixed", 10)
a:step(300)
local b = cable("mixed", 10)
for _, n in ipairs{7, 3, 15, 170, 105} do b:step(n) end
local d, name = largest_difference(a, b)
check(d == 0, "mixed, m = 10: 300 steps in one call or five (7, 3, 15, 170, 105) give the same state "
      .. "(largest relative difference %.3g, in %s)", d, name)
local before = {}
for _, s in ipairs(slow) do before[s] = a:field(s) end
local fv = a:field("m")
a:step(9)
local moved, fast_moved = 0, 0
for _, s in ipairs(slow) do
  for i, x in ipairs(a:field(s)) do if x ~= before[s][i] then moved = moved + 1 end end
end
for i, x in ipairs(a:field("m")) do if x ~= fv[i] then fast_moved = fast_moved + 1 end end
check(moved == 0 and fast_moved > 0, "steps 301-309: no slow state moved (%d values did), m moved in %d of 12 cells",
      moved, fast_moved)
a:step(1)
for _, s in ipairs(slow) do
  for i, x in ipairs(a:field(s)) do if x ~= before[s][i] then moved = moved + 1 end end
end
check(moved > 0, "step 310: the slow states changed (%d values)", moved)

-- a checkpoint between two updates continues on the same schedule
local file = os.tmpname()
a:step(5)                                   -- 315: five steps after an update
a:checkpoint(file, {overwrite = true})
local back = cable("mixed", 10)
back:restore(file)
a:step(12)
back:step(12)
d, name = largest_difference(back, a)
check(d == 0 and back.steps == a.steps, "a checkpoint at step 315, restored, continues equal to the run "
      .. "(largest relative difference %.3g, in %s; steps %d and %d)", d, name, back.steps, a.steps)
os.remove(file)

-- over a beat: activation and APD90 against every-step stepping
local function beat(m)
  local sim = cable("fp32", m, 40)
  local maps = sim:activation{threshold = -40}
  sim:run(450)
  return maps:field("first"), maps:field("apd")
end
local t1, a1 = beat(1)
local t10, a10 = beat(10)
local dT, dA = 0, 0
for c = 1, #t1 do
  dT = math.max(dT, math.abs(t10[c] - t1[c]))
  dA = math.max(dA, math.abs(a10[c] - a1[c]))
end
check(dT < 0.01 and dA < 0.5 and a1[20] > 200, "a beat at m = 10 (40 cells): activation within %.4f ms, "
      .. "APD90 within %.3f ms of every-step stepping (APD90 mid-cable %.1f ms)", dT, dA, a1[20])

local function refused(opts, what, ...)
  opts.mesh = opts.mesh or cardiac.mesh{n = {4}, dx = 0.1}
  local ok, err = pcall(cardiac.simulation, opts)
  local found = not ok
  for _, word in ipairs{...} do found = found and err:find(word, 1, true) ~= nil end
  check(found, "%s is refused: %s", what, tostring(err))
end
refused({model = "karma", multirate = 10}, "a model without slow states", "multirate", "karma", "slow")
refused({model = ord, multirate = 0}, "multirate = 0", "multirate", "at least 1")
refused({model = ord, multirate = 2.5}, "multirate = 2.5", "multirate", "integer")
refused({model = ord, multirate = 5000}, "multirate = 5000", "multirate", "1000")
check(cable("fp32", 1).multirate == 1, "multirate = 1 is every-step stepping")
checks.finish()
