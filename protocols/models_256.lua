-- Every cell model on a 256^3 box on one GPU (issue: detailed ionic models,
-- "TP06 and the minimal models on a 256^3 box, same table").
--   cardiac protocols/models_256.lua [n] [csv]
-- Each case: an n^3 box (default 256), dx = 0.25 mm, D = 0.1 mm^2/ms, the
-- model's resting state with a planar wave started at z = 0 (V set to the
-- top of the model's range in the first 5% of z), the default layout, no-flux
-- borders; ORd also in precision "mixed" (fp64 state, fp32 gate kinetics, the
-- gates stored as floats). Timing: sim:benchmark (median of 3 repetitions after a warm-up,
-- CUDA events). Reported: ms/step, time for 20,000 steps, cell-steps/s, the
-- bytes a cell-step must move (every state read and written once) and the
-- resulting GB/s against the measured copy bandwidth.
local n = tonumber(arg and arg[1]) or 256
local csv = arg and arg[2]
local gpu = assert(cardiac.gpu(), "models_256.lua needs a GPU")
cardiac.quiet = true
local copy_bw = cardiac.copy_bandwidth(2 ^ 30, 20)
print(("%s; copy bandwidth %.0f GB/s; %s; %d^3 box"):format(gpu.name, copy_bw, os.date("!%Y-%m-%d"), n))

-- model, cell type or parameter set, dt (ms), precision, steps timed per repetition
local cases = {
  {"karma", nil, 0.05, "fp32", 1000}, {"aliev_panfilov", nil, 0.02, "fp32", 1000},
  {"mitchell_schaeffer", nil, 0.05, "fp32", 1000}, {"fenton_karma", "MBR", 0.05, "fp32", 1000},
  {"bueno_orovio", "epi", 0.02, "fp32", 1000},
  {"tentusscher_2006", "epi", 0.02, "fp32", 200}, {"tentusscher_2006", "epi", 0.02, "fp64", 200},
  {"ohara_rudy", "endo", 0.05, "fp32", 100}, {"ohara_rudy", "endo", 0.05, "mixed", 100},
  {"ohara_rudy", "endo", 0.05, "fp64", 100},
}
local mesh = cardiac.mesh{n = {n, n, n}, dx = 0.25}
local cells = n * n * n
print(("%-28s %-5s %9s %10s %10s %6s %8s %6s"):format("model", "prec", "ms/step", "20k steps", "cell-st/s",
  "B/cell", "GB/s", "%copy"))
local rows = {}
for _, c in ipairs(cases) do
  local name, cell, dt, precision, steps = table.unpack(c)
  local model = cardiac.model(name, cell and {cell = cell} or nil)
  local sim = cardiac.simulation{mesh = mesh, model = model, dt = dt, D = 0.1, precision = precision,
                                 backend = "cuda", skip_rest = false}
  local vname = model:states()[1].name
  sim:set(vname, model.vmax, cardiac.slab{axis = "z", from = 0, to = 0.05 * n * 0.25})
  local per_step = sim:benchmark{steps = steps, ["repeat"] = 3, warmup = math.min(100, steps)}.per_step
  -- mixed: the states its step leaves as floats are stored as floats
  local bytes = 0
  for _, st in ipairs(model:states()) do
    bytes = bytes + 2 * ((precision == "fp64" or (precision == "mixed" and not st.mixed_float)) and 8 or 4)
  end
  local rate = cells / (per_step * 1e-3)
  local gbs = rate * bytes / 1e9
  local label = name .. (cell and (" " .. cell) or "")
  print(("%-28s %-5s %9.4f %9.1fs %10.3g %6d %8.0f %5.0f%%"):format(label, precision, per_step, per_step * 20,
    rate, bytes, gbs, 100 * gbs / copy_bw))
  rows[#rows + 1] = ("%s,%s,%d,%g,%.5f,%.2f,%.4g,%d,%.1f,%.1f"):format(label, precision, n, dt, per_step,
    per_step * 20, rate, bytes, gbs, 100 * gbs / copy_bw)
  sim = nil
  collectgarbage()
end
if csv then
  local f = assert(io.open(csv, "w"))
  f:write("model,precision,n,dt_ms,ms_per_step,s_per_20000,cell_steps_per_s,bytes_per_cell_step,GBs,pct_copy\n")
  f:write(table.concat(rows, "\n"), "\n")
  f:close()
end
