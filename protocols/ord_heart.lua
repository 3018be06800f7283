-- The thesis' O'Hara-Rudy heart case (Vasconcellos 2019, section 5.4): the
-- 41-variable ORd model on a bi-ventricular heart in a 250 x 326 x 298 box
-- (the size and tissue fill of the thesis' pig heart; our synthetic
-- cardiac.biventricle(), 26.9% tissue), dt = 0.05 ms, the excitation started
-- as in thesis eq. 5.8 (V = 0 mV in the tissue of the first 5% of z, every
-- other state at the endocardial resting state), no-flux borders,
-- D = 0.3 mm^2/ms: at this coarse dx = 0.5 mm a wave with D = 0.1 stalls
-- (a 20 mm ORd cable is not yet depolarised after 60 ms), with 0.3 it crosses
-- it in under 60 ms. In the heart that wave still dies after 6% of the tissue
-- (docs/performance.md, the whole beat of protocols/ord_precision.lua); with
-- the theses' INa activation (ina_m_shift=10 below) it crosses the heart, and
-- over that whole beat a step costs 7 to 12% more than over the published
-- ORd's (both measured with an activation map).
--   cardiac protocols/ord_heart.lua [scale] [precision] [steps] [csv] [blocks] [name=value ...]
-- name=value: model parameters, and multirate=m: ORd's 14 slow states stepped
-- every m-th step only (core/engine/multirate.h; written every m-th step),
-- and tables=1: the gates' Rush-Larsen steps from rate tables over V (fp64;
-- core/engine/rate_tables.h).
-- scale 1 is the full heart (GPU); 0.2 gives a 50 x 65 x 60 heart of the
-- same physical size (dx = 2.5 mm) that the CPU runs in seconds.
-- On a GPU it times the stepping (median of 3 x `steps` after a warm-up, CUDA
-- events) and prints the time for 20,000 steps, the thesis' figure; with
-- steps = 20000 it also runs that many steps in one go and reports their wall
-- time. Prints the range and tissue mean of V at the end, which shows
-- whether the wave ran. blocks (default 2, the fastest on the H100:
-- protocols/block_size.lua; or e.g. 8, or 16x8x4) stores the state in blockDS
-- blocks of that size (thesis 4.4); "whole" stores the whole box, whose
-- kernel skips the warps without tissue.
local scale = tonumber(arg and arg[1]) or 1
local precision = arg and arg[2] or "fp64"
local steps = tonumber(arg and arg[3]) or 1000
local csv = arg and arg[4]
if csv == "" or csv == "-" then csv = nil end
local blocks = arg and arg[5] or "2"
if blocks == "whole" then
  blocks = nil
else
  local b = {}
  for v in blocks:gmatch("%d+") do b[#b + 1] = tonumber(v) end
  blocks = #b == 1 and b[1] or b
end
local params = {}   -- model parameters, e.g. ina_m_shift=10
local multirate = 1
local tables = false
for i = 6, arg and #arg or 0 do
  local k, v = arg[i]:match("^([%w_]+)=(.+)$")
  assert(k and tonumber(v), "ord_heart: model parameters are name=value, got " .. arg[i])
  if k == "multirate" then multirate = tonumber(v)
  elseif k == "tables" then tables = tonumber(v) ~= 0
  else params[k] = tonumber(v) end
end
local n = {math.floor(250 * scale + 0.5), math.floor(326 * scale + 0.5), math.floor(298 * scale + 0.5)}
local dx = 0.5 / scale
cardiac.quiet = true
local t0 = os.clock()
local mesh = cardiac.mesh{n = n, dx = dx, tissue = cardiac.biventricle()}
local backend = cardiac.gpu() and "cuda" or "cpu"
local sim = cardiac.simulation{mesh = mesh, model = cardiac.model("ohara_rudy", params), dt = 0.05, D = 0.3,
                               precision = precision, backend = backend, blocks = blocks,
                               multirate = multirate > 1 and multirate or nil, tables = tables}
sim:set("V", 0.0, cardiac.slab{axis = "z", from = 0, to = 0.05 * n[3] * dx})
local pnames = {}
for k, v in pairs(params) do pnames[#pnames + 1] = k .. "=" .. v end
table.sort(pnames)
local ranks = cardiac.ranks or 1
print(("ORd heart %dx%dx%d (dx %.2f mm), %d tissue cells (%.1f%%), %s%s, %s%s, %s%s, set up in %.1f s"):format(
  n[1], n[2], n[3], dx, mesh.tissue, 100 * mesh.tissue / mesh.ncells, backend,
  ranks > 1 and (" x %d ranks"):format(ranks) or "", precision,
  (multirate > 1 and (", multirate %d"):format(multirate) or "") .. (tables and ", tables" or ""),
  sim.blocks and ("blocks " .. sim.blocks) or "whole box", #pnames > 0 and ", " .. table.concat(pnames, " ") or "",
  os.clock() - t0))

-- bytes a tissue cell-step must move: every state read and written once;
-- "mixed" stores the gates (mixed_float) in float on the GPU, the other states
-- in double; "fp32h" 15 gates (half) in 16 bits, the others in float;
-- "fp32g" those and 13 more (fraction) in 16 bits; with multirate = m the
-- GPU writes the slow states every m-th step only
local gpu = backend == "cuda"
local function stored_bytes(st)
  if gpu and (precision == "fp32h" or precision == "fp32g") and st.half then return 2 end
  if gpu and precision == "fp32g" and st.fraction then return 2 end
  if precision == "fp32" or precision == "fp32h" or precision == "fp32g" then return 4 end
  return precision == "mixed" and gpu and st.mixed_float and 4 or 8
end
local bytes = 0
for _, st in ipairs(cardiac.model("ohara_rudy"):states()) do
  bytes = bytes + stored_bytes(st) * (1 + ((gpu and st.slow and multirate > 1) and 1 / multirate or 1))
end
local per_step = sim:benchmark{steps = steps, ["repeat"] = 3, warmup = math.min(100, steps)}.per_step
local case = ("ord_heart %dx%dx%d %s%s%s%s"):format(n[1], n[2], n[3], precision,
                                                  (multirate > 1 and (" multirate %d"):format(multirate) or "")
                                                    .. (tables and " tables" or ""),
                                                  sim.blocks and (" blocks " .. sim.blocks) or "",
                                                  ranks > 1 and (" %d ranks"):format(ranks) or "")
local s20000 = per_step * 20
local cell_steps = mesh.tissue / (per_step * 1e-3)
local gbs = cell_steps * bytes / 1e9
print(("  %.4f ms/step, 20,000 steps in %.1f s (thesis P100, blockDS: 264.8 s), %.3g tissue cell-steps/s, "
       .. "%.0f GB/s at %.1f B per tissue cell-step"):format(per_step, s20000, cell_steps, gbs, bytes))
if steps == 20000 then
  local w = os.time()
  sim:step(20000)
  print(("  one run of 20,000 steps: %.0f s wall"):format(os.difftime(os.time(), w)))
end
local lo, hi, mean = sim:stats("V")
print(("  after %.0f ms: V in [%.1f, %.1f] mV, mean %.1f mV"):format(sim.t, lo, hi, mean))
if csv and (cardiac.rank or 0) == 0 then   -- one row per run, also under mpirun
  local f = assert(io.open(csv, "a"))
  if f:seek("end") == 0 then f:write("case,backend,ms_per_step,s_per_20000,tissue_cells,cell_steps_per_s,GBs\n") end
  f:write(("%s,%s,%.5f,%.2f,%d,%.4g,%.1f\n"):format(case, backend, per_step, s20000, mesh.tissue, cell_steps, gbs))
  f:close()
end
