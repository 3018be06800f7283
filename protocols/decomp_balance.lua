-- How evenly P ranks share the heart (docs/mpi.md): the heart of
-- protocols/ord_heart.lua (250 x 326 x 298, 26.9% tissue) cut into z slabs
-- of equal size (balance = "cells", the thesis' slabs) and of equal tissue
-- (balance = "tissue", the default), planned with mesh:decompose for P = 2,
-- 4 and 8. A rank's step costs about its tissue (blockDS stores the blocks
-- that hold tissue; the naive kernel skips warps without it), so the largest
-- part over the mean bounds the parallel efficiency at mean / max.
-- On a GPU it also times each part alone (O'Hara-Rudy, blocks of 2: the heart
-- with the tissue outside the part's planes removed; median of 3 x `steps`
-- after a warm-up, CUDA events), the work one GPU of a P-GPU job does per
-- step, and the whole heart: P x the slowest part against the whole is the
-- efficiency that P GPUs reach at most (the exchange, overlapped, comes on top).
--   cardiac protocols/decomp_balance.lua [scale] [csv] [precision] [steps]
local scale = tonumber(arg and arg[1]) or 1
local csv = arg and arg[2]
if csv == "" or csv == "-" then csv = nil end
local precision = arg and arg[3] or "mixed"
local steps = tonumber(arg and arg[4]) or 200
cardiac.quiet = true
local n = {math.floor(250 * scale + 0.5), math.floor(326 * scale + 0.5), math.floor(298 * scale + 0.5)}
local dx = 0.5 / scale
local function heart() return cardiac.mesh{n = n, dx = dx, tissue = cardiac.biventricle()} end
local mesh = heart()
local gpu = cardiac.gpu() ~= nil

-- ms per step of the heart with tissue only in z planes [lo, hi) (the whole: 0, n[3])
local function time_part(lo, hi)
  local m = heart()
  if lo > 0 then m:set_tissue(cardiac.slab{axis = "z", from = 0, to = lo * dx}, false) end
  if hi < n[3] then m:set_tissue(cardiac.slab{axis = "z", from = hi * dx, to = n[3] * dx}, false) end
  local sim = cardiac.simulation{mesh = m, model = "ohara_rudy", dt = 0.05, D = 0.3, precision = precision,
                                 backend = "cuda", blocks = 2}
  sim:set("V", 0.0, cardiac.slab{axis = "z", from = 0, to = 0.05 * n[3] * dx})
  local t = sim:benchmark{steps = steps, ["repeat"] = 3, warmup = math.min(100, steps)}.per_step
  sim:close()
  return t
end

local whole = gpu and time_part(0, n[3])
if whole then
  print(("heart %dx%dx%d, ORd %s, blocks 2, one GPU: %.4f ms/step"):format(n[1], n[2], n[3], precision, whole))
end
local rows = {}
for _, P in ipairs{2, 4, 8} do
  for _, balance in ipairs{"cells", "tissue"} do
    local d = mesh:decompose(P, {balance = balance})
    local most, sum = 0, 0
    for _, t in ipairs(d.tissue) do most = math.max(most, t); sum = sum + t end
    local cuts = d.cuts[3]
    local slowest, times = 0, {}
    if gpu then
      for c = 1, P do
        times[c] = time_part(cuts[c], cuts[c + 1])
        slowest = math.max(slowest, times[c])
      end
    end
    local shown = {}
    for c, t in ipairs(times) do shown[c] = ("%.4f"):format(t) end
    local r = {P = P, balance = balance, cuts = table.concat(cuts, " "), tissue = table.concat(d.tissue, " "),
               ratio = most / (sum / P), slowest = slowest, times = table.concat(shown, " "),
               eff = whole and whole / (P * slowest) or 0}
    rows[#rows + 1] = r
    print(("%d ranks, balance %-6s z cuts %s  tissue per rank %s  max/mean %.3f (efficiency at most %.0f%%)")
      :format(P, balance, r.cuts, r.tissue, r.ratio, 100 / r.ratio))
    if gpu then
      print(("    each part alone (ms/step): %s; slowest %.4f; the whole is %.0f%% of %d x the slowest part")
        :format(r.times, slowest, 100 * r.eff, P))
    end
  end
end
if csv and cardiac.rank == 0 then
  local f = assert(io.open(csv, "w"))
  f:write("ranks,balance,z_cuts,tissue_per_rank,max_over_mean,part_ms,slowest_ms,whole_ms,efficiency_bound\n")
  for _, r in ipairs(rows) do
    -- the GPU's columns stay empty without a GPU
    local g = function(v) return gpu and ("%.4f"):format(v) or "" end
    f:write(("%d,%s,%s,%s,%.4f,%s,%s,%s,%s\n"):format(r.P, r.balance, r.cuts, r.tissue, r.ratio, r.times,
                                                    g(r.slowest), g(whole or 0), g(r.eff)))
  end
  f:close()
end
