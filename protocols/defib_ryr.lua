-- RyR-opening termination against the opened fraction of tissue and the
-- number of release units (require "defib"; docs/defibrillation.md): the
-- strategy of Altanaite 2017, section 7.2 (every RyR of the tissue opened for
-- 100 ms fires it at once, as a shock would, but only with 10,000 dyads per
-- cell), tried on a wave in flight.
--
-- A gaur_rudy re-entry does not fit anywhere at 10,000 dyads (its sheet of
-- about 100 mm at a resolved dx would hold about 10^5 cells, 10^9 dyads), so
-- the circuit is unrolled: a wave runs along a bar (a cable when width = 0)
-- from x = 0, started at `stim` ms, and RyRs are held open from `open` ms for
-- `hold` ms in patches of `patch` mm, each opened with probability `fraction`
-- (defib.ryr, drawn from `seed`). A shock or an opening ends a re-entry by
-- exciting the tissue ahead of its front (the excitable gap): the front then
-- meets refractory tissue and dies. Per trial:
--   captured     the fraction of the tissue cells first activated more than
--                `margin` ms before the wave reached them in the control run
--                (the same bar, no opening): fired by the opening;
--   outcome      terminated: the far end (the cell at x = length - dx/2, bar
--                centre) was captured and activated only once by `tmax` (the
--                front never arrived); delayed: the far end first activated
--                more than `margin` ms after the control's (the front slowed,
--                or something later fired it); not_terminated otherwise.
-- For each dyad count (one model each), one control run and `seeds` trials
-- per fraction: the terminated fraction with its 95% Wilson interval and
-- the mean captured fraction. The tissue starts from the Ca2+ load of the
-- thesis' code (scripts/calcium_states.lua, "encoding"; the opening fires a
-- cell from ORd's resting load with no count, docs/models.md).
-- Writes results/defib_ryr.{csv,png} (one row per dyads and fraction) and
-- results/defib_ryr_trials.csv (every trial); prints them and, last, trials
-- per minute.
--   cardiac protocols/defib_ryr.lua [key=value ...]
-- CPU, seconds: the defaults (a 24 mm cable of 0.5 mm cells, 10 and 100 dyads).
-- GPU, the thesis' cross-section and counts (docs/defibrillation.md):
--   cardiac protocols/defib_ryr.lua width=6 dyads=10,100,1000,10000 fractions=0.25,0.5,0.75,1 seeds=2 backend=cuda
package.path = (arg[0]:match("(.*/)") or "./") .. "../scripts/?.lua;" .. package.path
local defib, tables, states = require "defib", require "tables", require "calcium_states"
local o = defib.arguments(arg, {
  dyads = {10, 100}, fractions = {0.5, 1}, seeds = 1, seed = 1, patch = 1,
  length = 24, width = 0, dx = 0.5, D = 0.3555, dt = 0.05,   -- mm, mm, mm, mm^2/ms, ms
  open = 50, hold = 100, stim = 90, tmax = 300, margin = 5,  -- ms
  reading = "units", initial = "encoding", backend = "auto", precision = "fp32",
  out = "results/defib_ryr"}, "defib_ryr.lua")
local function bad(fmt, ...) error(("defib_ryr.lua: " .. fmt):format(...), 0) end
-- every argument checked before the first run
for q, n in ipairs(o.dyads) do
  if n ~= math.floor(n) or n < 1 or n > 10000 then bad("'dyads'[%d] = %g must be a whole number in [1, 10000]", q, n) end
end
for q, f in ipairs(o.fractions) do
  if not (f > 0 and f <= 1) then bad("'fractions'[%d] = %g must lie in (0, 1]", q, f) end
end
for _, k in ipairs{"length", "dx", "D", "dt", "hold", "tmax", "patch"} do
  if not (o[k] > 0) then bad("'%s' = %g must be > 0", k, o[k]) end
end
for _, k in ipairs{"width", "open", "stim", "margin", "seed"} do
  if not (o[k] >= 0) then bad("'%s' = %g must be >= 0", k, o[k]) end
end
if o.seeds < 1 or o.seeds ~= math.floor(o.seeds) then bad("'seeds' = %g must be a whole number >= 1", o.seeds) end
if o.width > 0 and o.width < o.dx then bad("'width' = %g mm is less than one cell (dx = %g mm)", o.width, o.dx) end
if o.length < 4 * o.dx then bad("'length' = %g mm must hold at least 4 cells of %g mm", o.length, o.dx) end
if o.stim >= o.tmax or o.open >= o.tmax then bad("'stim' and 'open' must come before 'tmax' = %g ms", o.tmax) end
if o.reading ~= "units" and o.reading ~= "sample" then bad("'reading' = %s must be units or sample", o.reading) end
if not states[o.initial] then bad("'initial' = %s must be encoding or rest", o.initial) end
for q, n in ipairs(o.dyads) do o.dyads[q] = math.tointeger(n) end
local ivs = {}
for q, f in ipairs(o.fractions) do
  ivs[q] = {}
  for s = 1, o.seeds do
    ivs[q][s] = defib.ryr{fraction = f, patch = o.patch, seed = math.tointeger(o.seed + s - 1), at = o.open,
                          duration = o.hold}
  end
end
cardiac.quiet = true

local size = o.width > 0 and {o.length, o.width, o.width} or {o.length}
local mesh = cardiac.mesh{size = size, dx = o.dx}
local far = {mesh:locate(o.length - o.dx / 2, o.width > 0 and o.width / 2 or nil, o.width > 0 and o.width / 2 or nil)}
local function run(dyads, iv)
  local sim = cardiac.simulation{mesh = mesh, model = cardiac.model("gaur_rudy", {dyads = dyads, reading = o.reading}),
    dt = o.dt, D = o.D, backend = o.backend, precision = o.precision,
    stimuli = {cardiac.stimulus{region = cardiac.slab{axis = "x", from = 0, to = math.max(1, 2 * o.dx)}, amplitude = 80,
                                duration = 1, start = o.stim}}}
  states.apply(sim, o.initial)
  if iv then iv.apply(sim, 0, {mesh = mesh, model = "gaur_rudy"}) end
  local lat = sim:activation{interval = 0.5}
  sim:run(o.tmax)
  local r = {first = lat:field("first"), far_first = lat:get("first", table.unpack(far)),
             far_count = lat:get("count", table.unpack(far)), backend = sim.backend}
  sim:close()
  return r
end

local rows, each, trials, seconds = {}, {}, 0, 0
local backend
for _, n in ipairs(o.dyads) do
  local ctrl = run(n)
  backend = ctrl.backend
  if ctrl.far_first ~= ctrl.far_first then
    bad("the control wave (%d dyads) did not reach the far end by %g ms: a longer 'tmax', or a D that conducts", n, o.tmax)
  end
  for q, f in ipairs(o.fractions) do
    local row = {dyads = n, fraction = f, trials = o.seeds, terminated = 0, delayed = 0, captured = 0}
    for s = 1, o.seeds do
      local c = cardiac.clock()
      local r = run(n, ivs[q][s])
      seconds, trials = seconds + (cardiac.clock() - c), trials + 1
      local cap, cells = 0, 0
      for i = 1, #r.first do
        local a, b = r.first[i], ctrl.first[i]
        if b == b then
          cells = cells + 1
          if a == a and a < b - o.margin then cap = cap + 1 end
        end
      end
      local term = r.far_first < ctrl.far_first - o.margin and r.far_count == 1
      local late = r.far_first ~= r.far_first or r.far_first > ctrl.far_first + o.margin
      row.terminated = row.terminated + (term and 1 or 0)
      row.delayed = row.delayed + (late and 1 or 0)
      row.captured = row.captured + cap / cells / o.seeds
      each[#each + 1] = {dyads = n, fraction = f, seed = o.seed + s - 1, opened = #ivs[q][s].cells(mesh) / mesh.ncells,
                         captured = cap / cells, far_first = r.far_first, control_far = ctrl.far_first,
                         far_count = r.far_count, outcome = term and "terminated" or late and "delayed" or "not_terminated"}
    end
    row.p = row.terminated / row.trials
    row.p_lo, row.p_hi = defib.wilson(row.terminated, row.trials)
    rows[#rows + 1] = row
  end
end
local cols = {"dyads", "fraction", "trials", "terminated", "delayed", "p", "p_lo", "p_hi", "captured"}
local tcols = {"dyads", "fraction", "seed", "opened", "captured", "far_first", "control_far", "far_count", "outcome"}
defib.write(o.out, rows, cols, {x = "fraction", y = {"p", "captured"}, xlabel = "fraction of patches opened",
            ylabel = "terminated (p) / captured fraction", style = "points",
            title = ("RyRs open %g-%g ms, %s, %s reading"):format(o.open, o.open + o.hold,
            o.width > 0 and ("%g x %g x %g mm bar"):format(o.length, o.width, o.width) or ("%g mm cable"):format(o.length),
            o.reading)})
tables.csv(o.out .. "_trials.csv", each, tcols, {overwrite = true})
if cardiac.rank == 0 then
  print(("%s of %d cells (dx %g mm, D %g), wave from x = 0 at %g ms, RyRs open %g-%g ms in %g mm patches"):format(
        o.width > 0 and "bar" or "cable", mesh.ncells, o.dx, o.D, o.stim, o.open, o.open + o.hold, o.patch))
  print(tables.format(rows, cols))
  print(tables.format(each, tcols))
  print(("wrote %s.csv, %s_trials.csv"):format(o.out, o.out))
end
defib.report(("ryr %s %d cells %s"):format(o.width > 0 and "bar" or "cable", mesh.ncells, backend), trials, seconds)
