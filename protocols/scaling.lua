-- Strong and weak scaling of the Karma step (fp32, thesis initial condition,
-- eq. 5.4/5.5) over the ranks of an MPI job, one GPU per rank (issue 4).
--   mpirun -np N cardiac protocols/scaling.lua [CSV] [BACKEND] [CASES] [LAYOUT]
-- CASES: comma-separated "strong256", "strong512", "strong1024", "weak512"
-- (default "strong256,strong512,weak512"); LAYOUT: a GPU layout ("naive" or
-- "tplane"), default the simulation's default. Each case prints and appends to CSV
-- (default results/scaling.csv) one row per run: ms per step (median of the
-- repetitions after a warm-up, on the slowest rank), the time of 20,000 steps,
-- and the ms per step spent in the halo exchange (not hidden by compute).
-- scripts/scaling.sh runs it for 1, 2, ... ranks; scripts/scaling_table.lua
-- turns the CSV into the table of docs/performance.md with efficiencies.
local csv = arg[1] or "results/scaling.csv"
local backend = arg[2] or "cuda"
local want = arg[3] or "strong256,strong512,weak512"
local layout = arg[4] ~= "" and arg[4] or nil
local P = cardiac.ranks
local cases = {}
for name in want:gmatch("[^,]+") do
  local kind, n = name:match("^(%a+)(%d+)$")
  n = tonumber(n)
  if kind == "strong" then cases[#cases + 1] = {name = name, n = {n, n, n}, per_rank = n ^ 3 / P}
  elseif kind == "weak" then cases[#cases + 1] = {name = name, n = {n, n, n * P}, per_rank = n ^ 3}
  else error("scaling.lua: unknown case '" .. name .. "' (strongN or weakN)") end
end
local gpu = backend == "cuda" and cardiac.gpu().name or backend
local date = os.date("!%Y-%m-%d")
local rows = {}
for _, c in ipairs(cases) do
  local n = c.n
  local sim = cardiac.simulation{mesh = cardiac.mesh{n = n, dx = 0.5}, model = "karma", dt = 0.05, D = 0.1,
                                 backend = backend, skip_rest = false, precision = "fp32", layout = layout}
  sim:set("v", 0.5)
  sim:set("U", 3.0, cardiac.slab{axis = "z", from = 0, to = 0.05 * n[3] * 0.5})
  local steps = n[1] >= 1024 and 500 or 2000
  local b = sim:benchmark{steps = steps, ["repeat"] = 5, warmup = 200}
  local lay = (sim.layout or backend) .. (sim.tsteps and (" K=" .. sim.tsteps) or "")
  local row = {case = c.name, ranks = P, layout = lay, nx = n[1], ny = n[2], nz = n[3], ms_per_step = b.per_step,
               s_20k = b.per_step * 20, exchange_ms = b.exchange_per_step, gpu = gpu, date = date,
               command = "mpirun -np " .. P .. " cardiac protocols/scaling.lua"}
  rows[#rows + 1] = row
  print(("%-11s ranks %d  %s  %dx%dx%d  %.4f ms/step  %.2f s per 20,000 steps  exchange %.4f ms/step"):format(
    c.name, P, lay, n[1], n[2], n[3], row.ms_per_step, row.s_20k, row.exchange_ms))
  sim:close()
end
if cardiac.rank == 0 then
  os.execute("mkdir -p \"$(dirname '" .. csv .. "')\"")
  local cols = {"case", "ranks", "layout", "nx", "ny", "nz", "ms_per_step", "s_20k", "exchange_ms", "gpu", "date", "command"}
  local exists = io.open(csv, "r")
  if exists then exists:close() end
  local f = assert(io.open(csv, "a"))
  if not exists then f:write(table.concat(cols, ","), "\n") end
  for _, r in ipairs(rows) do
    local v = {}
    for q, k in ipairs(cols) do v[q] = type(r[k]) == "number" and ("%.6g"):format(r[k]) or ('"' .. tostring(r[k]) .. '"') end
    f:write(table.concat(v, ","), "\n")
  end
  f:close()
end
