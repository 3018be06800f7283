-- Reproduction: Unat, Cai and Baden, Aliev-Panfilov on GPUs, tables 1 and 2.
-- The paper's times come from Tesla C1060s (102 GB/s peak) running T = 1000
-- (model time units) in its number of iterations; ours are our step time
-- (sim:benchmark, median of 5 x 500 steps after a warm-up) on an N x N
-- Aliev-Panfilov sheet, times the paper's iteration count. Table 2's GFlop/s
-- use the paper's own flop count per cell update, 28, which its tables imply
-- (25.69 GFlop/s at 647.65 s for 35,413 iterations of 4096^2).
-- One process: the one-GPU rows. Under mpirun -np 2 or 4 (one GPU per rank,
-- the sheet cut into slabs along y as the paper cuts it): that many GPUs'
-- rows; one=CSV (this script's one-GPU table from the same kind of machine)
-- adds the speedups over one GPU. Needs a GPU per rank.
--   cardiac protocols/repro_unat_aliev_panfilov.lua [csv]
--   mpirun -np 2 cardiac protocols/repro_unat_aliev_panfilov.lua [csv] [one=CSV]
local R = require "reproduction"
assert(cardiac.gpu(), "repro_unat_aliev_panfilov needs a GPU")
cardiac.quiet = true
local out = R.new(arg and arg[1])
local FLOPS = 28

local function ms_per_step(n, precision)
  local sim = cardiac.simulation{mesh = cardiac.mesh{n = {n, n}, dx = 0.25}, model = "aliev_panfilov", dt = 0.01,
                                 D = 0.1, precision = precision, backend = "cuda"}
  sim:set("V", 20.0, cardiac.slab{axis = "x", from = 0, to = 2})
  local b = sim:benchmark{steps = 500, ["repeat"] = 5, warmup = 100}
  local layout = sim.layout
  sim:close()
  return b.per_step, layout, b.exchange_per_step
end

local P = cardiac.ranks or 1
local one = {}                                   -- one-GPU ms per step by "N precision", from one=CSV
local file = R.options(arg, 2, {"one"}, "repro_unat_aliev_panfilov.lua").one
if file then
  local machine = R.machine()
  for _, r in ipairs(require("tables").read_csv(file) or {}) do
    if r.machine ~= machine then                 -- speed-ups only against the same GPU model
      print(("repro_unat_aliev_panfilov: %s was measured on %s, not %s: no speed-ups"):format(file, r.machine, machine))
      break
    end
    if type(r.ms_per_step) == "number" then one[r.key] = r.ms_per_step end
  end
end
local function row(r, key, ms)
  r.key, r.ms_per_step = key, ms
  out:row(r)
end

-- table 1: running times in double precision, {N, label, T, iterations, seconds, speedup over 1 GPU}
local table1 = {
  [1] = {{1024, "1K", 1000, 231291, 276.12}, {2048, "2K", 1000, 893118, 4102.64}, {4096, "4K", 10, 35413, 647.65}},
  [2] = {{2048, "2K", 1000, 893118, 2224.30, 1.84}, {4096, "4K", 10, 35413, 333.75, 1.94}},
  [4] = {{4096, "4K", 1000, 3541290, 17172.50, 3.77}},
}
-- table 2: GFlop/s, {N, label, precision, word, GFlop/s}
local table2 = {
  [1] = {{4096, "4K", "fp32", "single", 124.48}, {4096, "4K", "fp64", "double", 25.69}},
  [4] = {{16384, "16K", "fp32", "single", 454.47}, {16384, "16K", "fp64", "double", 102.48}},
}
assert(table1[P], ("repro_unat_aliev_panfilov: the paper has rows for 1, 2 and 4 GPUs, not %d"):format(P))
local gpus = P == 1 and "1 Tesla C1060" or ("%d Tesla C1060s"):format(P)
local on = P == 1 and "" or (", %d GPUs"):format(P)
for _, c in ipairs(table1[P]) do
  local ms, layout, xchg = ms_per_step(c[1], "fp64")
  local key = ("%d fp64"):format(c[1])
  local comm = P > 1 and (", %.4f ms/step of it exchange not hidden (%.0f%%)"):format(xchg, 100 * xchg / ms) or ""
  row({quantity = ("%s^2, T = %d (%d iterations), fp64%s: total time"):format(c[2], c[3], c[4], on), paper = c[5],
       ours = ms * c[4] / 1000, units = "s",
       note = ("paper: %s; ours: %.4f ms/step x %d steps, layout %s%s"):format(gpus, ms, c[4], layout, comm)}, key, ms)
  if c[6] and one[key] then
    row({quantity = ("%s^2 fp64 on %d GPUs: speedup over 1 GPU"):format(c[2], P), paper = c[6], ours = one[key] / ms,
         units = "", note = ("ours: %.4f ms/step on 1 GPU (one=), %.4f on %d"):format(one[key], ms, P)}, key .. " speedup", nil)
  end
end
for _, c in ipairs(table2[P] or {}) do
  local ms, layout = ms_per_step(c[1], c[3])
  row({quantity = ("%s^2 %s%s: GFlop/s"):format(c[2], c[4], on), paper = c[5], ours = FLOPS * c[1] * c[1] / (ms * 1e6),
       units = "GFlop/s", note = ("%d flops per cell update (the paper's count); %.4f ms/step, layout %s")
         :format(FLOPS, ms, layout)}, ("%d %s"):format(c[1], c[3]), ms)
end
out:write()
