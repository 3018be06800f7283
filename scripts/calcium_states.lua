-- Published initial states for the multiscale calcium model (gaur_rudy),
-- and how to start a simulation from one.
--   local states = require "calcium_states"
--   states.apply(sim, "encoding" [, region])    -- every cell (or the region's)
--   states.apply(sim, "encoding", nil, {cansr = 3, cajsr = 3})   -- with changes
-- sim:set on gaur_rudy's calcium concentrations sets every dyad of the cell,
-- so the dyads start from the state too.
local M = {}

-- The Ca2+ load of the public C++ encoding of ORd with Gaur-Rudy dyads that
-- the calcium thesis' code descends from (Altanaite 2017, section 2.1: the
-- model of Lan et al. 2015 and Langguth et al. 2016): the Ca2+
-- concentrations its main() starts from, on ORd's own 1 Hz resting state.
-- The values are in the format the encoding's run prints at its end (107
-- beats at a cycle length of 500 ms), so they are most likely the state such
-- a run ends in. Its SR holds 4.27 (NSR) and 3.82 mM (JSR) of Ca2+, against
-- 1.6 and 1.5 mM in ORd's resting state, and that load decides whether
-- opening the RyRs fires an action potential (protocols/ryr_opening.lua,
-- docs/models.md). The rest of the encoding's state (Na+, K+, the gates)
-- belongs to its isoproterenol variant (INa x 2.7 with its inactivation
-- shifted by -5 mV, and more), which cardiac does not run: with those gates
-- ORd's own INa is less available and a cable at D = 0.2 mm^2/ms stops
-- conducting, so they are not taken. The dyadic space starts at 1000 cass (uM).
M.encoding = {
  cai = 9.35235e-05, cass = 9.42268e-05, cads = 0.0942268, cansr = 4.27252, cajsr = 3.81969,
}

-- The model's own resting state (ORd's endocardial 1 Hz steady state).
M.rest = {}

-- Sets the named state (and the changes in `with`) on sim's cells, or on
-- those of region. Returns the state's table as applied.
function M.apply(sim, name, region, with)
  local st = M[name]
  if type(st) ~= "table" then
    error(("calcium_states: unknown state '%s' (known: encoding, rest)"):format(tostring(name)), 2)
  end
  local all = {}
  for k, v in pairs(st) do all[k] = v end
  for k, v in pairs(with or {}) do all[k] = v end
  local names = {}
  for k in pairs(all) do names[#names + 1] = k end
  table.sort(names)
  for _, k in ipairs(names) do sim:set(k, all[k], region) end
  return all
end

return M
