-- What ORd's rate tables (cardiac.simulation{tables = true}, fp64;
-- core/engine/rate_tables.h) change on a paced cable: the same cable in fp64
-- with and without them, each cell's first activation (-40 mV), latest
-- activation and latest APD90, the largest difference over the cable, and
-- the wall time of each run (docs/numerics.md, "Rate tables").
--   cardiac protocols/ord_tables_cable.lua [cells = 80] [t_ms = 2000] [bcl_ms = 1000] [cell = endo] [name=value ...]
-- 80 cells of 0.25 mm, D 0.2 mm^2/ms, dt 0.05 ms, stimulated at the left
-- end every bcl_ms; name=value: model parameters (e.g. ina_m_shift=10).
cardiac.quiet = true
local N = math.tointeger(tonumber(arg and arg[1] or 80))
local T = tonumber(arg and arg[2] or 2000)
local bcl = tonumber(arg and arg[3] or 1000)
local cell = arg and arg[4] or "endo"
if not N or N < 8 then error(("ord_tables_cable.lua: cells must be a whole number from 8, not '%s'"):format(arg[1]), 0) end
if not (T and T > 0 and bcl and bcl > 1) then
  error("ord_tables_cable.lua: t_ms and bcl_ms must be numbers of ms (bcl above 1)", 0)
end
local params = {cell = cell}
for i = 5, arg and #arg or 0 do
  local k, v = arg[i]:match("^([%w_]+)=(.+)$")
  if not (k and tonumber(v)) then error("ord_tables_cable.lua: model parameters are name=value, got " .. arg[i], 0) end
  params[k] = tonumber(v)
end
local model = cardiac.model("ohara_rudy", params)

local function run(tables)
  local sim = cardiac.simulation{mesh = cardiac.mesh{n = {N}, dx = 0.25}, model = model, dt = 0.05, D = 0.2,
    precision = "fp64", tables = tables, stimuli = {cardiac.stimulus{region = cardiac.slab{axis = "x", from = 0,
      to = 0.5}, amplitude = 80, duration = 1, start = 1, period = bcl, count = math.ceil(T / bcl)}}}
  local maps = sim:activation{threshold = -40}
  local t0 = cardiac.clock()
  sim:run(T)
  local wall = cardiac.clock() - t0
  local r = {first = maps:field("first"), last = maps:field("last"), apd = maps:field("apd"),
             count = maps:field("count"), wall = wall}
  sim:close()
  return r
end

local ref, tab = run(false), run(true)
local d = {first = 0, last = 0, apd = 0}
for k in pairs(d) do
  for i = 1, N do
    local a, b = ref[k][i], tab[k][i]
    if a == a and b == b then d[k] = math.max(d[k], math.abs(a - b)) end
  end
end
print(("ORd %s cable, %d x 0.25 mm, D 0.2 mm^2/ms, dt 0.05 ms, %g ms paced every %g ms, fp64: with tables against "
  .. "without, max |d first activation| %.5f ms, |d latest activation| %.5f ms, |d latest APD90| %.5f ms; beats at "
  .. "the last cell %d and %d; %.2f s and %.2f s wall (without, with)"):format(cell, N, T, bcl, d.first, d.last, d.apd,
  ref.count[N], tab.count[N], ref.wall, tab.wall))
