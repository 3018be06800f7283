-- Parameter sweeps (loaded with require "sweep"): one experiment per value,
-- one table. Each experiment starts from the same state: a fresh simulation,
-- or the checkpoint of a shared preparation (pacing to steady state, say)
-- restored for every value.
local S = {}

--- rows = sweep.run{name =, values =, make =, experiment =, prepare =, checkpoint =}
---   name: the column of the swept value (e.g. "D"); values: the list;
---   make(): a fresh simulation; experiment(sim, value) -> a row (table) of results;
---   prepare(sim) (optional): run once on make()'s simulation, whose state is then
---   saved to `checkpoint` (default results/sweep_<time>.h5, removed afterwards)
---   and restored before every experiment.
--- Each row gets name = value. Progress goes to stderr.
function S.run(o)
  for _, k in ipairs{"name", "values", "make", "experiment"} do
    if o[k] == nil then error(("sweep.run: missing '%s'"):format(k), 2) end
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
