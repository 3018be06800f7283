-- What updating ORd's slow states less often would do, measured before
-- building it (issue 34, goal 1: "updating slow states less often than fast
-- ones (multirate, with its error measured)"): a cable in fp32 whose slow
-- states change only every m-th step, then by m times the step's own change
-- (their derivative, or their Rush-Larsen step, taken at that step's fast
-- states: a forward-Euler step of m dt), and are held between; against the same
-- cable updating every state every step (scripts/ord_cable.lua). A kernel
-- doing so would write those states every m-th step only and skip their
-- rates between. For a gate, m times one Rush-Larsen step differs from one
-- step of m dt by about (m dt / tau)^2 / 2 of its change: under 1e-5 for the
-- slow gates (tau >= 100 ms) at m dt <= 0.4 ms.
--   cardiac protocols/ord_multirate.lua [cells = 80] [t_ms = 3000] [m = 4] [set = slow]
--                                       [cell = endo] [bcl_ms = 1000]
-- set: "gates" (the eight slow gates of docs/gpu-notebook.md item 23), "ions"
-- (nai, nass, ki, kss, cansr, CaMKt), "slow" (both) or a list of states.
package.path = (arg[0]:match("(.*/)") or "./") .. "../scripts/?.lua;" .. package.path
cardiac.quiet = true
local N = tonumber(arg and arg[1]) or 80
local T = tonumber(arg and arg[2]) or 3000
local m = math.tointeger(tonumber(arg and arg[3] or 4))
if not (m and m >= 1) then
  error(("ord_multirate.lua: m must be a whole number of steps >= 1, not '%s'"):format(arg[3]), 0)
end
local which = arg and arg[4] or "slow"
local cell = arg and arg[5] or "endo"
local bcl = tonumber(arg and arg[6] or 1000)
if not (bcl and bcl > 1) then error(("ord_multirate.lua: bcl_ms must be above 1, not '%s'"):format(arg[6]), 0) end

local sets = {gates = {"hL", "hLp", "fs", "fcas", "xrf", "xrs", "xs1", "xs2"},
              ions = {"nai", "nass", "ki", "kss", "cansr", "CaMKt"}}
sets.slow = {table.unpack(sets.gates)}
for _, s in ipairs(sets.ions) do sets.slow[#sets.slow + 1] = s end
local states = sets[which]
if not states then
  states = {}
  for s in which:gmatch("[^,]+") do states[#states + 1] = s end
end

local known = {}
for _, st in ipairs(cardiac.model("ohara_rudy"):states()) do known[st.name] = true end
for _, s in ipairs(states) do
  if not known[s] then error(("ord_multirate.lua: ORd has no state '%s' (set: gates, ions, slow or a list)"):format(s), 0) end
end

local cable = require("ord_cable").new{cells = N, t = T, cell = cell, bcl = bcl}
-- the hook: before each step the slow states' values are kept; after it they
-- are put back, except every m-th step, when they take m times the change
local function multirate()
  local held = {}
  return function(sim, k)
    for _, s in ipairs(states) do
      local f = sim:field(s)
      if k > 0 then
        local h = held[s]
        if k % m == 0 then for i = 1, #f do h[i] = h[i] + m * (f[i] - h[i]) end end
        cable:set(sim, s, h)
      else
        held[s] = f
      end
    end
  end
end

local ref = cable:run()
print(cable:header(("%d states every %d steps; latest APD90 of cell %d: %.2f ms"):format(#states, m, N // 2,
                                                                                      ref.apd[N // 2])))
cable:report(("%s every %d steps"):format(which, m), ref, cable:run(multirate()))
