-- Parameter sweeps (loaded with require "sweep"): one experiment per value,
-- one table. Each experiment starts from the same state: a fresh simulation,
-- or the checkpoint of a shared preparation (pacing to steady state, say)
-- restored for every value. When `make` describes the simulation (a table of
-- cardiac.simulation's options) rather than building it, the values run as
-- the members of one ensemble (scripts/ensemble.lua) where they fit: a 1D or
-- 2D mesh, in batches the memory holds. Each member's rows equal those of its
-- own simulation bit for bit.
local S = {}

local ensemble = require "ensemble"

-- An ensemble of the values' members, in as large a batch as fits (halved
-- while the memory, or the 255 parameter sets members may hold, refuse it).
local function make_ensemble(desc, n)
  while true do
    local o = {members = n}
    for k, v in pairs(desc) do o[k] = v end
    local ok, ens = pcall(ensemble.new, o)
    if ok then return ens, n end
    local msg = tostring(ens)
    if n == 1 or not (msg:find("memory") or msg:find("distinct parameter sets")) then error(ens, 0) end
    n = (n + 1) // 2
  end
end

-- The values in ensembles: prepare (then the experiment) runs in each member,
-- which gives the restored checkpoint's state bit for bit.
local function run_ensembles(o)
  local rows, q0, batch = {}, 0, #o.values
  local function each(m, value)
    if o.prepare then o.prepare(m) end
    return o.experiment(m, value)
  end
  while q0 < #o.values do
    local ens
    ens, batch = make_ensemble(o.make, math.min(batch, #o.values - q0))
    local part = table.move(o.values, q0 + 1, q0 + batch, 1, {})
    local got = ensemble.experiments(ens, part, each)
    ens:close()
    for q, row in ipairs(got) do
      row[o.name] = part[q]
      rows[q0 + q] = row
    end
    q0 = q0 + batch
    if cardiac.rank == 0 and not cardiac.quiet then
      io.stderr:write(("[sweep] %s: %d of %d done (an ensemble of %d)\n"):format(o.name, q0, #o.values, batch))
    end
  end
  return rows
end

--- rows = sweep.run{name =, values =, make =, experiment =, prepare =, checkpoint =, ensemble =}
---   name: the column of the swept value (e.g. "D"); values: the list;
---   make(): a fresh simulation, or make = {cardiac.simulation's options}: on a 1D or 2D mesh the values run
---   together as the members of an ensemble (ensemble = false: one after another), each experiment getting its
---   member, whose run and step wait for the others; experiment(sim, value) -> a row (table) of results;
---   prepare(sim) (optional): run once on make()'s simulation, whose state is then
---   saved to `checkpoint` (default results/sweep_<time>.h5, removed afterwards)
---   and restored before every experiment.
--- Each row gets name = value. Progress goes to stderr.
function S.run(o)
  for _, k in ipairs{"name", "values", "make", "experiment"} do
    if o[k] == nil then error(("sweep.run: missing '%s'"):format(k), 2) end
  end
  if type(o.make) == "table" then
    if o.ensemble ~= false and o.make.mesh and o.make.mesh.dim < 3 then return run_ensembles(o) end
    local desc = o.make
    o = setmetatable({make = function() return cardiac.simulation(desc) end}, {__index = o})
  end
  local file = o.checkpoint or ("results/sweep_%d.h5"):format(os.time())
  if o.prepare then
    local sim = o.make()
    o.prepare(sim)
    sim:checkpoint(file, {overwrite = true})
    sim:close()
  end
  local rows = {}
  for q, value in ipairs(o.values) do
    local sim = o.make()
    if o.prepare then sim:restore(file) end
    local row = o.experiment(sim, value) or {}
    row[o.name] = value
    rows[q] = row
    sim:close()
    if cardiac.rank == 0 and not cardiac.quiet then
      io.stderr:write(("[sweep] %s = %s done (%d of %d)\n"):format(o.name, tostring(value), q, #o.values))
    end
  end
  if o.prepare and not o.checkpoint then os.remove(file) end
  return rows
end

return S
