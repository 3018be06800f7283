-- Interventions (sim:set_param with a region, sim:clamp) on cases with a
-- known answer:
-- 1. Uncoupled cells (D = 0): every cell of a changed region steps bit for bit
--    as a cell of a simulation with those parameters everywhere, for two
--    overlapping regions, in fp32 and fp64, row-major and in blockDS blocks.
-- 2. Bookkeeping: overlapping changes compose; sets merge and disappear when
--    the parameters return; a region covering the tissue changes the
--    simulation's own parameters.
-- 3. Coupled tissue: a Mitchell-Schaeffer cable with tau_close = 100 ms on
--    one half and 150 ms on the other has, away from the border, the APD of
--    an uncoupled cell of its half.
-- 4. Clamps: the clamped variable reads its value at every step boundary of
--    the pulse; a segment with v clamped at rest blocks conduction, however
--    thin; with the gate h clamped shut (passive cells) the wave jumps 1 mm
--    (about one space constant, sqrt(D tau_out) = 0.77 mm) and stops at
--    4 mm; a region clamped above threshold starts a wave with the cable's
--    conduction velocity.
-- 5. Bad input raises an error naming the problem and changes nothing.
local checks = require "checks"   -- check(ok, fmt, ...), finish()
local check = checks.check

local MS = "mitchell_schaeffer"
local dx = 0.25

-- 1. uncoupled cells: a 2D sheet, regions along x, all cells stimulated
local function uncoupled(o, change)
  local sim = cardiac.simulation{mesh = cardiac.mesh{n = {24, 8}, dx = dx}, model = MS, D = 0, dt = 0.05,
                                 precision = o.precision, blocks = o.blocks,
                                 stimuli = {cardiac.stimulus{region = cardiac.everywhere(), amplitude = 0.3,
                                                             duration = 1, start = 1}}}
  change(sim)
  sim:run(120)
  return sim
end
local A = cardiac.slab{axis = "x", from = 0, to = 3.5}     -- x < 3.5 mm: tau_close = 100
local B = cardiac.slab{axis = "x", from = 2, to = 5}       -- 2 < x < 5: tau_in = 0.25, v_gate = 0.1
local function zone(x)
  local a, b = x < 3.5, x > 2 and x < 5
  return (a and "A" or "") .. (b and "B" or "")
end
for _, o in ipairs{{name = "fp32"}, {name = "fp64", precision = "fp64"}, {name = "fp32 blocks of 4", blocks = 4}} do
  local het = uncoupled(o, function(s)
    s:set_param("tau_close", 100, A)
    s:set_param({tau_in = 0.25, v_gate = 0.1}, B)
  end)
  local ref = {
    [""] = uncoupled(o, function() end),
    A = uncoupled(o, function(s) s:set_param("tau_close", 100) end),
    B = uncoupled(o, function(s) s:set_param{tau_in = 0.25, v_gate = 0.1} end),
    AB = uncoupled(o, function(s) s:set_param{tau_close = 100, tau_in = 0.25, v_gate = 0.1} end),
  }
  check(het:param_sets() == 4, "%s: two overlapping regions make 4 parameter sets (got %d)", o.name,
        het:param_sets())
  local bad, zones = 0, {}
  for _, var in ipairs{"v", "h"} do
    local f = het:field(var)
    local rf = {}
    for z, s in pairs(ref) do rf[z] = s:field(var) end
    for j = 1, 8 do
      for i = 1, 24 do
        local c, z = (j - 1) * 24 + i, zone((i - 0.5) * dx)
        zones[z] = true
        if f[c] ~= rf[z][c] then bad = bad + 1 end
      end
    end
  end
  check(bad == 0 and zones[""] and zones.A and zones.B and zones.AB,
        "%s: each cell equals the cell of a simulation with its zone's parameters everywhere, bit for bit "
        .. "(%d values differ)", o.name, bad)
  local _, vmax = ref[""]:stats("v")
  check(ref.A:diff(ref[""], "v") > 0.01 * vmax and ref.B:diff(ref[""], "v") > 0.01 * vmax,
        "%s: the changes matter (max |dV| A %.3g, B %.3g)", o.name, ref.A:diff(ref[""], "v"),
        ref.B:diff(ref[""], "v"))
end

-- 2. bookkeeping
do
  local sim = cardiac.simulation{mesh = cardiac.mesh{n = {24, 8}, dx = dx}, model = MS, D = 0.1, dt = 0.05}
  sim:set_param("tau_close", 100, A)
  sim:set_param({tau_in = 0.25}, B)
  check(sim:param("tau_close", 1, 1) == 100 and sim:param("tau_in", 1, 1) == 0.3
        and sim:param("tau_close", 3, 1) == 100 and sim:param("tau_in", 3, 1) == 0.25
        and sim:param("tau_close", 4, 1) == 150 and sim:param("tau_in", 4, 1) == 0.25
        and sim:param("tau_close", 5.5, 1) == 150 and sim:param("tau_in", 5.5, 1) == 0.3,
        "sim:param at points of the four zones gives each zone's values")
  sim:set_param("tau_close", 120)
  check(sim:param("tau_close", 1, 1) == 120 and sim:param("tau_close", 5.5, 1) == 120
        and sim:param("tau_in", 3, 1) == 0.25 and sim:param_sets() == 2,
        "a change without a region reaches every set, keeps the others' differences (%d sets)", sim:param_sets())
  sim:set_param("tau_in", 0.3, B)
  check(sim:param_sets() == 1, "parameters set back merge the sets: one set left (%d)", sim:param_sets())
  sim:set_param("v_gate", 0.12, cardiac.everywhere())
  check(sim:param_sets() == 1 and sim:param("v_gate") == 0.12,
        "a region covering all the tissue changes the simulation's own parameters (%d set, v_gate %g)",
        sim:param_sets(), sim:param("v_gate"))
end

-- 3. coupled tissue: APD on each half of a cable against the uncoupled cell's
local function cable(o)
  local sim = cardiac.simulation{mesh = cardiac.mesh{n = {o.n or 160}, dx = dx}, model = MS, D = o.D or 0.1,
                                 dt = 0.02, stimuli = {o.stim ~= false and cardiac.stimulus{
                                   region = cardiac.slab{axis = "x", from = 0, to = 1}, amplitude = 0.5,
                                   duration = 1, start = 1} or nil}}
  if o.setup then o.setup(sim) end
  local act = sim:activation{}
  sim:run(o.t or 400)
  return sim, act
end
do
  local apd = {}
  for _, tc in ipairs{100, 150} do
    local _, a = cable{n = 4, D = 0, setup = function(s)
      s:set_param("tau_close", tc)
      s:add_stimulus(cardiac.stimulus{region = cardiac.everywhere(), amplitude = 0.5, duration = 1, start = 1})
    end}
    apd[tc] = a:get("apd", 2)
  end
  local _, act = cable{setup = function(s) s:set_param("tau_close", 100, cardiac.slab{axis = "x", from = 0, to = 20}) end}
  local left, right = act:get("apd", 40), act:get("apd", 120)   -- 10 mm and 30 mm, 10 mm from the border
  check(math.abs(left / apd[100] - 1) < 0.02 and math.abs(right / apd[150] - 1) < 0.02,
        "cable APD: %.1f ms where tau_close = 100 (uncoupled cell %.1f), %.1f ms where 150 (%.1f)", left, apd[100],
        right, apd[150])
end

-- 4. clamps
do
  local sim = cardiac.simulation{mesh = cardiac.mesh{n = {40}, dx = dx}, model = MS, D = 0.1, dt = 0.05}
  local n = sim:clamp{region = cardiac.slab{axis = "x", from = 4, to = 6}, value = 0.7, start = 2, duration = 3}
  local p = sim:probe{cells = {{20}}, every = 1}
  sim:run(8)
  local d = p:data()
  local held, after = 0, nil
  for q, t in ipairs(d.t) do
    if t >= 2 - 1e-9 and t < 5 - 1e-9 then
      if d.v[1][q] == d.v[1][q] and math.abs(d.v[1][q] - 0.7) < 1e-7 then held = held + 1 end
    elseif t > 5 and not after then after = d.v[1][q] end
  end
  check(n == 8 and held == 60 and after ~= nil and math.abs(after - 0.7) > 1e-4,
        "a clamp of 8 cells holds v = 0.7 at each of the 60 step boundaries in [2, 5) ms (%d), then v moves",
        held)
end
do
  local thin, wide = cardiac.slab{axis = "x", from = 12, to = 13}, cardiac.slab{axis = "x", from = 12, to = 16}
  local _, free = cable{n = 120, t = 120}
  local _, rest = cable{n = 120, t = 120, setup = function(s) s:clamp{region = thin, value = 0} end}
  local _, gthin = cable{n = 120, t = 120, setup = function(s) s:clamp{region = thin, var = "h", value = 0} end}
  local _, gwide = cable{n = 120, t = 120, setup = function(s) s:clamp{region = wide, var = "h", value = 0} end}
  check(free:get("count", 100) == 1 and rest:get("count", 20) == 1 and rest:get("count", 100) == 0,
        "1 mm clamped at v = 0 blocks conduction: activations at 25 mm without the clamp %d, with it %d "
        .. "(at 5 mm: %d)", free:get("count", 100), rest:get("count", 100), rest:get("count", 20))
  check(gthin:get("count", 100) == 1 and gwide:get("count", 20) == 1 and gwide:get("count", 100) == 0,
        "h clamped at 0 (passive cells): the wave crosses 1 mm (%d activation at 25 mm) and stops at 4 mm (%d)",
        gthin:get("count", 100), gwide:get("count", 100))
  local region = cardiac.slab{axis = "x", from = 10, to = 30}
  local stim = free:cv{region = region}
  local _, clamped = cable{n = 120, t = 120, stim = false, setup = function(s)
    s:clamp{region = cardiac.slab{axis = "x", from = 0, to = 1}, value = 1, start = 5, duration = 2}
  end}
  local cl = clamped:cv{region = region}
  local t0 = clamped:get("first", 2)
  -- v jumps at the boundary t = 5: its threshold crossing lies in the step before
  check(math.abs(cl.speed / stim.speed - 1) < 0.01 and t0 > 4.95 and t0 <= 5,
        "a region clamped at v = 1 for 2 ms from t = 5 ms starts a wave at %.3f ms with CV %.4f mm/ms "
        .. "(stimulated: %.4f mm/ms)", t0, cl.speed, stim.speed)
end

-- 5. bad input: an error naming the problem, nothing changed
do
  local sim = cardiac.simulation{mesh = cardiac.mesh{n = {24, 8}, dx = dx}, model = MS, D = 0.1, dt = 0.05}
  sim:set_param("tau_close", 100, A)
  local cases = {
    {function() sim:set_param("tau_shut", 1, B) end, "no parameter 'tau_shut'"},
    {function() sim:set_param("tau_close", -5, B) end, "tau_close"},
    {function() sim:set_param("tau_in", 1e-5, B) end, "stability limit"},
    {function() sim:set_param("tau_close", 90, cardiac.slab{axis = "x", from = 50, to = 60}) end, "no tissue"},
    {function() sim:set_param("tau_close", 90, 3) end, "region"},
    {function() sim:clamp{region = B, var = "w", value = 1} end, "no state variable 'w'"},
    {function() sim:clamp{region = B} end, "missing required option 'value'"},
    {function() sim:clamp{region = B, value = 1, duration = -1} end, "'duration' must be positive"},
    {function() sim:clamp{region = B, value = 1, amplitude = 2} end, "unknown option 'amplitude'"},
    {function() sim:clamp{value = 1} end, "missing required option 'region'"},
    {function() sim:clamp{region = cardiac.slab{axis = "x", from = 50, to = 60}, value = 1} end, "no tissue"},
    {function() sim:param("tau_close", 100, 100) end, "outside the mesh"},
  }
  for _, c in ipairs(cases) do
    local ok, e = pcall(c[1])
    check(not ok and tostring(e):find(c[2], 1, true) ~= nil, "refused: %s", tostring(e))
  end
  check(sim:param_sets() == 2 and sim:param("tau_close", 1, 1) == 100 and sim:param("tau_in", 3, 1) == 0.3,
        "after the refusals the parameters are as before (%d sets)", sim:param_sets())
end

checks.finish()
