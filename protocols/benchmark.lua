-- GPU benchmark of the monodomain step (issue: CUDA backend on one GPU).
--   cardiac protocols/benchmark.lua [quick|full|tune] [results.csv]
-- For each case and layout: set the paper's initial condition, run 2,000
-- steps with probes to check accuracy against the one-step-per-kernel
-- ("naive") fp32 result (final V and activation times), then time the
-- stepping alone: median of 5 repetitions of 2,000 steps after a warm-up,
-- CUDA events. Reported per case: ms/step, cells/s, effective GB/s at the
-- bytes a step must move (every state read and written once), the ratio to the
-- GPU's measured copy bandwidth, and the time for 1 s of activity (20,000
-- steps at dt = 0.05 ms) against real time. "full" also times whole
-- 20,000-step runs (3 repetitions) for the headline cases; "tune" sweeps the
-- temporal-blocking depth and thread-block shape on the Karma 256^3 case
-- (how the defaults of cuda/backend_cuda.cu were chosen); "tplane" times the
-- wide-tile temporal blocking (layout tplane) on the Karma volumes beside
-- naive and tblock (docs/data/benchmark-h100-tplane.csv).
-- Writes a CSV (default results/benchmark.csv) that scripts/performance_doc.lua
-- turns into docs/performance.md.
local measure = require("measure")
local mode = arg and arg[1] or "full"
local csv_path = arg and arg[2] or "results/benchmark.csv"
assert(mode == "quick" or mode == "full" or mode == "tune" or mode == "tplane",
       "usage: cardiac protocols/benchmark.lua [quick|full|tune|tplane] [results.csv]")
local gpu = assert(cardiac.gpu())
cardiac.quiet = true
local copy_bw = cardiac.copy_bandwidth(2 ^ 30, 20)
local date = os.date("!%Y-%m-%d")
print(("%s, %d SMs, %.1f GB memory, driver %s, runtime %s; copy bandwidth %.0f GB/s; %s"):format(
  gpu.name, gpu.sms, gpu.memory / 1e9, gpu.driver, gpu.runtime, copy_bw, date))

-- The cases. Karma: thesis eqs. 5.4-5.5 (v = 0.5 everywhere, U = 3 in the
-- first 5% of z), D dt / h^2 = 0.02 as in thesis eq. 5.1. Aliev-Panfilov:
-- Unat, Cai & Baden's 4096^2 mesh, a planar wave from the left edge.
-- params: parameters off the defaults (the GPU then runs the kernels' general
-- variant instead of the one with the default parameters folded in)
local function karma_case(n, order, precision, params)
  return {
    name = ("karma%s %d^3 %s order %d"):format(params and "*" or "", n, precision, order), model = "karma",
    params = params, n = {n, n, n}, dx = 0.5,
    D = 0.1, dt = 0.05, order = order, precision = precision, var = "U", thr = 1.0,
    init = function(sim)
      sim:set("v", 0.5)
      sim:set("U", 3.0, cardiac.slab{axis = "z", from = 0, to = 0.05 * n * 0.5})
    end,
    probe_line = function() local c = {} for k = 1, n do c[k] = {n // 2, n // 2, k} end return c end,
  }
end
local function ap_case(n, precision)
  return {
    name = ("aliev_panfilov %d^2 %s order 2"):format(n, precision), model = "aliev_panfilov", n = {n, n},
    dx = 0.25, D = 0.05, dt = 0.02, order = 2, precision = precision, var = "V", thr = -70,
    init = function(sim) sim:set("V", 20, cardiac.slab{axis = "x", from = 0, to = 0.05 * n * 0.25}) end,
    probe_line = function() local c = {} for i = 1, n, 8 do c[#c + 1] = {i, n // 2} end return c end,
  }
end

local all_layouts = {{"naive"}, {"window"}, {"tower"}, {"tblock", 1}, {"tblock", 2}, {"tblock", 3}, {"tblock", 4}}
-- the 2D cases: tplane runs volumes only
local sheet_layouts = {{"naive"}, {"window"}, {"tower"}, {"tblock", 1}, {"tblock", 2}, {"tblock", 3}, {"tblock", 4}}
all_layouts[#all_layouts + 1] = {"tplane", 1}
all_layouts[#all_layouts + 1] = {"tplane", 2}
all_layouts[#all_layouts + 1] = {"tplane", 3}
local plan
if mode == "quick" then
  plan = {
    {case = karma_case(256, 2, "fp32"), layouts = {{"naive"}, {"window"}, {"tower"}, {"tblock", 3}}},
    {case = ap_case(4096, "fp32"), layouts = {{"naive"}, {"tblock", 3}}},
  }
elseif mode == "tune" then
  local layouts = {{"naive"}}
  for K = 1, 4 do
    for _, b in ipairs{{16, 32}, {32, 8}, {32, 16}, {32, 32}, {64, 8}, {64, 16}} do
      -- block = threads; a tblock thread holds 2 cells along x
      if 2 * b[1] > 2 * K and b[2] > 2 * K then layouts[#layouts + 1] = {"tblock", K, block = b} end
    end
  end
  plan = {
    {case = karma_case(256, 2, "fp32"), layouts = layouts},
    {case = karma_case(256, 2, "fp32", {xm = 9.5}), layouts = {{"naive"}, {"tblock", 2}, {"tblock", 3}}},
  }
  local ap = {{"naive"}}
  for K = 1, 4 do
    for _, b in ipairs{{128, 1}, {256, 1}, {512, 1}} do ap[#ap + 1] = {"tblock", K, block = b} end
  end
  plan[#plan + 1] = {case = ap_case(4096, "fp32"), layouts = ap}
  -- tplane's tile shapes on the 512-wide cube: block = {tile width in cells
  -- (a multiple of 32), rows of threads}; a shape whose planes do not fit the
  -- block's shared memory is refused and skipped
  local big = {{"naive"}}
  for K = 2, 3 do
    -- 1024 threads (64 registers each), 512 threads (128), other counts
    for _, b in ipairs{{512, 2}, {256, 4}, {128, 8}, {64, 16}, {32, 32}, {512, 1}, {256, 2}, {288, 3}, {320, 3}} do
      big[#big + 1] = {"tplane", K, block = b}
    end
  end
  plan[#plan + 1] = {case = karma_case(512, 2, "fp32"), layouts = big}
elseif mode == "tplane" then
  -- the volumes with the wide-tile temporal blocking beside naive and tblock
  plan = {
    {case = karma_case(256, 2, "fp32"), layouts = {{"naive"}, {"tblock", 3}, {"tplane", 1}, {"tplane", 2},
     {"tplane", 3}}, full = {{"tplane", 3}}},
    {case = karma_case(256, 2, "fp32", {xm = 9.5}), layouts = {{"naive"}, {"tplane", 3}}},
    -- the default tiles of 64 x 64 cells (K = 3), and tiles spanning the grid (K = 2 and 3)
    {case = karma_case(512, 2, "fp32"), layouts = {{"naive"}, {"tblock", 3}, {"tplane", 3},
     {"tplane", 2, block = {512, 2}}, {"tplane", 3, block = {288, 3}}}, full = {{"tplane", 3}}},
    -- fp64: blocks of 1024 threads (the default since docs/gpu-notebook.md item 66) and of 512
    {case = karma_case(256, 2, "fp64"), layouts = {{"naive"}, {"tplane", 1}, {"tplane", 2},
     {"tplane", 2, block = {256, 2}}}},
  }
else
  plan = {
    {case = karma_case(256, 2, "fp32"), layouts = all_layouts, full = {{"naive"}, {"tblock", 3}, {"tplane", 3}}},
    {case = karma_case(256, 2, "fp32", {xm = 9.5}), layouts = {{"naive"}, {"tblock", 3}, {"tplane", 3}}},
    {case = karma_case(256, 4, "fp32"), layouts = {{"naive"}, {"window"}, {"tower"}, {"tblock", 1}, {"tblock", 2}}},
    {case = karma_case(512, 2, "fp32"), layouts = {{"naive"}, {"window"}, {"tower"}, {"tblock", 3}, {"tplane", 3},
     {"tplane", 2, block = {512, 2}}}, full = {{"naive"}, {"tplane", 3}}},
    {case = karma_case(256, 2, "fp64"), layouts = {{"naive"}, {"tblock", 2}, {"tplane", 2}}},
    {case = ap_case(4096, "fp32"), layouts = sheet_layouts, full = {{"tblock", 3}}},
    {case = ap_case(4096, "fp64"), layouts = sheet_layouts},
  }
end

local rows = {}
local function bytes_per_step(sim, case)
  local cells = 1
  for _, n in ipairs(case.n) do cells = cells * n end
  local states = #cardiac.model(case.model):states()
  return cells, cells * states * 2 * (case.precision == "fp64" and 8 or 4)
end

local function make(case, layout, tsteps, block)
  local mesh = cardiac.mesh{n = case.n, dx = case.dx}
  -- every cell stepped (skip_rest = false): the step's cost, whatever the
  -- state (resting tissue: docs/gpu.md)
  local sim = cardiac.simulation{mesh = mesh, model = cardiac.model(case.model, case.params), dt = case.dt,
                                 D = case.D, stencil = case.order, backend = "cuda", skip_rest = false,
                                 precision = case.precision, layout = layout, tsteps = tsteps, block = block}
  case.init(sim)
  return sim
end

-- 2,000 steps from the initial condition with a probe line; activation times.
local function accuracy_run(sim, case)
  local pr = sim:probe{cells = case.probe_line(), vars = {case.var}, every = 1}
  sim:step(2000)
  local d = pr:data()
  local times = {}
  for c, series in ipairs(d[case.var]) do times[c] = measure.activation_time(d.t, series, case.thr) or false end
  return times
end

local function compare_times(a, b)
  local worst, n = 0, 0
  for c = 1, #a do
    if (a[c] == false) ~= (b[c] == false) then return math.huge, n end
    if a[c] then worst = math.max(worst, math.abs(a[c] - b[c])); n = n + 1 end
  end
  return worst, n
end

local header = ("%-34s %-8s %2s %7s %9s %8s %8s %6s %9s %9s %9s"):format(
  "case", "layout", "K", "block", "ms/step", "Gcell/s", "GB/s", "%copy", "1 s act.", "max|dV|", "max|dT|")
print(header)
for _, item in ipairs(plan) do
  local case = item.case
  -- the accuracy reference: one step per kernel (naive), same precision; not timed
  local ref = make(case, "naive")
  local ref_times = accuracy_run(ref, case)
  for _, lay in ipairs(item.layouts) do
    local made, sim = pcall(make, case, lay[1], lay[2], lay.block)
    if not made then   -- a shape the layout refuses (tune mode)
      print(("%-34s %-8s %2s  skipped: %s"):format(case.name, lay[1], lay[2] or "", sim))
    else
      local times = accuracy_run(sim, case)
      local dv = sim:diff(ref)
      local dtmax, nact = compare_times(ref_times, times)
      local b = sim:benchmark{steps = 2000, ["repeat"] = 5, warmup = 200}
      local cells, bytes = bytes_per_step(sim, case)
      local row = {
        case = case.name, layout = lay[1], tsteps = lay[2] or "", block = sim.block, precision = case.precision, order = case.order,
        cells = cells, ms_per_step = b.per_step, cells_per_s = cells / (b.per_step * 1e-3),
        bytes_per_step = bytes, gbs = bytes / (b.per_step * 1e-3) / 1e9, copy_bw = copy_bw,
        act_1s = b.per_step * 20000 / 1e3, max_dv = dv, max_dt = dtmax, activated = nact,
        runs = "5 x 2000 steps", gpu = gpu.name, date = date,
        command = "cardiac protocols/benchmark.lua " .. mode,
      }
      row.pct_copy = 100 * row.gbs / copy_bw
      rows[#rows + 1] = row
      print(("%-34s %-8s %2s %7s %9.4f %8.2f %8.0f %5.0f%% %8.2fs %9.1e %9.1e"):format(
        row.case, row.layout, row.tsteps, row.block, row.ms_per_step, row.cells_per_s / 1e9, row.gbs, row.pct_copy,
        row.act_1s, row.max_dv, row.max_dt))
      for _, f in ipairs(item.full or {}) do
        if f[1] == lay[1] and f[2] == lay[2] then
          local w = sim:benchmark{steps = 20000, ["repeat"] = 3, warmup = 0}
          local full = {}
          for k, v in pairs(row) do full[k] = v end
          full.runs = "3 x 20000 steps"
          full.ms_per_step = w.per_step
          full.cells_per_s = cells / (w.per_step * 1e-3)
          full.gbs = bytes / (w.per_step * 1e-3) / 1e9
          full.pct_copy = 100 * full.gbs / copy_bw
          full.act_1s = w.median / 1e3
          rows[#rows + 1] = full
          print(("%-34s %-8s %2s %7s %9.4f %8.2f %8.0f %5.0f%% %8.2fs  (20,000 steps, median of 3)"):format(
            full.case, full.layout, full.tsteps, full.block, full.ms_per_step, full.cells_per_s / 1e9, full.gbs, full.pct_copy,
            full.act_1s))
        end
      end
      sim:close()
    end
  end
  ref:close()
end

local cols = {"case", "layout", "tsteps", "block", "precision", "order", "cells", "runs", "ms_per_step", "cells_per_s",
              "bytes_per_step", "gbs", "copy_bw", "pct_copy", "act_1s", "max_dv", "max_dt", "activated", "gpu",
              "date", "command"}
os.execute("mkdir -p \"$(dirname '" .. csv_path .. "')\"")
local f = assert(io.open(csv_path, "w"))
f:write(table.concat(cols, ","), "\n")
for _, r in ipairs(rows) do
  local vals = {}
  for q, c in ipairs(cols) do
    local v = r[c]
    vals[q] = type(v) == "number" and ("%.6g"):format(v) or ('"' .. tostring(v) .. '"')
  end
  f:write(table.concat(vals, ","), "\n")
end
f:close()
print("wrote " .. csv_path)
