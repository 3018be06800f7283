-- Ensembles against one simulation after another (issue: many small
-- simulations in one GPU launch). Each member is a Karma sheet of n x n cells
-- (dx 0.25 mm, dt 0.05 ms) with its own D (from 0.05 to 0.2 mm^2/ms) excited
-- by a plane wave from its left edge, run for `ms` of activity. The members
-- run one after another (each its own simulation; the sum of their wall
-- times) and together as one ensemble (median wall time of `repeat` runs,
-- after a warm-up of both), and two members are compared with their
-- simulations alone bit for bit. The floor: Karma's two fp32 states read and
-- written once per kernel, 16 bytes a cell per kernel of K steps (16 / K a
-- cell-step; the stack's tplane takes K = 3), against the GPU's measured copy
-- bandwidth.
-- With alone=no only the ensemble runs: under mpirun its members are spread
-- over the ranks (mpirun -np 2 ... members=128 alone=no: 64 a GPU).
--   cardiac protocols/ensemble_speed.lua [members=64] [n=256] [ms=1000] [repeat=3] [backend=auto] [alone=yes]
--                                        [csv=FILE]
local o = {members = 64, n = 256, ms = 1000, ["repeat"] = 3, backend = "auto", alone = "yes"}
for _, a in ipairs(arg or {}) do
  local k, v = a:match("^([%w_]+)=(.*)$")
  if not k or o[k] == nil and k ~= "csv" then error(("ensemble_speed: expected key=value (%s), got '%s'"):format(
    "members, n, ms, repeat, backend, alone, csv", a), 0) end
  o[k] = tonumber(v) or v
end
cardiac.quiet = true
local ensemble = require "ensemble"
local gpu = cardiac.gpu()
local mesh = cardiac.mesh{n = {o.n, o.n}, dx = 0.25}
local wave = cardiac.stimulus{region = cardiac.slab{axis = "x", from = 0, to = 0.5}, amplitude = 5, duration = 1,
                              start = 1}
local function D(k) return o.members > 1 and 0.05 + 0.15 * (k - 1) / (o.members - 1) or 0.1 end

local function alone(k)
  return cardiac.simulation{mesh = mesh, model = "karma", dt = 0.05, D = D(k), backend = o.backend, stimuli = {wave}}
end
local function together()
  local specs = {}
  for k = 1, o.members do specs[k] = {D = D(k)} end
  return ensemble.new{mesh = mesh, model = "karma", dt = 0.05, D = 0.1, backend = o.backend, stimuli = {wave},
                      members = specs}
end
local median = require("measure").median
local function timed(f)
  local t0 = cardiac.clock()
  f()
  return cardiac.clock() - t0
end

-- warm-up: the kernels of both loaded
local w = alone(1) w:run(20) w:close()
w = together() w:run(20) w:close()

-- one after another: every member's own run
local seq, layout_alone = 0, nil
local kept = {}
for k = 1, o.alone == "no" and 0 or o.members do
  local s = alone(k)
  seq = seq + timed(function() s:run(o.ms) end)
  layout_alone = s.layout
  if k == 1 or k == o.members then kept[k] = s:field("U") end
  s:close()
end

-- together
local times, ens = {}, nil
for r = 1, o["repeat"] do
  if ens then ens:close() end
  ens = together()
  times[r] = timed(function() ens:run(o.ms) end)
end
local par = median(times)
local equal = o.alone ~= "no"
for k, f in pairs(kept) do
  local g = ens:member(k):field("U")
  for c = 1, #f do if f[c] ~= g[c] then equal = false break end end
end
local layout, K = ens.sim.layout, ens.sim.tsteps or 1
ens:close()
local copy = gpu and o.backend ~= "cpu" and cardiac.copy_bandwidth() or nil

local steps = math.floor(o.ms / 0.05 + 0.5)
local cells = o.members * o.n * o.n
local row = {members = o.members, n = o.n, ms = o.ms, steps = steps, backend = o.backend, layout = layout or "-",
             layout_alone = layout_alone or "-", sequential_s = o.alone == "no" and 0 or seq, ensemble_s = par,
             speedup = o.alone == "no" and 0 or seq / par,
             ranks = cardiac.ranks,
             member_ms_per_step = 1000 * seq / o.members / steps, ensemble_ms_per_step = 1000 * par / steps,
             gcell_steps_per_s = cells * steps / par / 1e9,
             equal = o.alone == "no" and "-" or equal and "yes" or "no", tsteps = K,
             bytes_per_cell_step = 16 / K, GB_per_s = cells * steps * 16 / K / par / 1e9,
             copy_GB_per_s = copy or 0,
             copy_fraction = copy and cells * steps * 16 / K / par / 1e9 / (copy * cardiac.ranks) or 0,   -- a GPU a rank
             gpu = gpu and gpu.name or "cpu", date = os.date("!%Y-%m-%d")}
if cardiac.rank ~= 0 then return end
local alone_part = o.alone == "no" and "" or ("one after another %.3f s (%s), "):format(seq, row.layout_alone)
local ratio = o.alone == "no" and "" or ("%.1fx the throughput; "):format(row.speedup)
print(("%d members of %d^2, %g ms each on %d rank(s): %stogether %.3f s (%s, median of %d): %s%.2f G cell-steps/s, "
       .. "%.0f GB/s at %.2f B a cell-step (%.0f%% of copy)%s"):format(o.members, o.n, o.ms, cardiac.ranks, alone_part,
  par, row.layout, o["repeat"], ratio, row.gcell_steps_per_s, row.GB_per_s, row.bytes_per_cell_step,
  100 * row.copy_fraction, o.alone == "no" and "" or ("; members 1 and %d equal alone bit for bit: %s"):format(
    o.members, row.equal)))
if o.csv then
  local cols = {"members", "ranks", "n", "ms", "steps", "backend", "layout", "layout_alone", "sequential_s", "ensemble_s",
                "speedup", "member_ms_per_step", "ensemble_ms_per_step", "gcell_steps_per_s", "tsteps",
                "bytes_per_cell_step", "GB_per_s", "copy_GB_per_s", "copy_fraction", "equal", "gpu", "date"}
  local f = assert(io.open(o.csv, "w"))
  f:write(table.concat(cols, ","), "\n")
  local vals = {}
  for q, c in ipairs(cols) do
    local v = row[c]
    vals[q] = math.type(v) == "float" and ("%.5g"):format(v) or tostring(v)
  end
  f:write(table.concat(vals, ","), "\n")
  f:close()
  print("wrote " .. o.csv)
end
