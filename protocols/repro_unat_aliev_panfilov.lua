-- Reproduction: Unat, Cai and Baden, Aliev-Panfilov on GPUs, tables 1 and 2
-- (one GPU rows). The paper's times come from a Tesla C1060 (102 GB/s peak)
-- running T = 1000 (model time units) in its number of iterations; ours are
-- our step time (sim:benchmark, median of 5 x 500 steps after a warm-up) on
-- an N x N Aliev-Panfilov sheet, times the paper's iteration count. Table 2's
-- GFlop/s use the paper's own flop count per cell update, 28, which its
-- tables imply (25.69 GFlop/s at 647.65 s for 35,413 iterations of 4096^2).
-- Needs a GPU.
--   cardiac protocols/repro_unat_aliev_panfilov.lua [csv]
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
  return b.per_step, layout
end

-- table 1: one GPU, double precision
for _, c in ipairs{{1024, "1K", 1000, 231291, 276.12}, {2048, "2K", 1000, 893118, 4102.64},
                   {4096, "4K", 10, 35413, 647.65}} do
  local ms, layout = ms_per_step(c[1], "fp64")
  out:row{quantity = ("%s^2, T = %d (%d iterations), fp64: total time"):format(c[2], c[3], c[4]), paper = c[5],
          ours = ms * c[4] / 1000, units = "s",
          note = ("paper: 1 Tesla C1060; ours: %.4f ms/step x %d steps, layout %s"):format(ms, c[4], layout)}
end
-- table 2: 4096^2 on one GPU, GFlop/s at 28 flops per cell update
for _, c in ipairs{{"fp32", "single", 124.48}, {"fp64", "double", 25.69}} do
  local ms, layout = ms_per_step(4096, c[1])
  out:row{quantity = ("4K^2 %s: GFlop/s"):format(c[2]), paper = c[3], ours = FLOPS * 4096 * 4096 / (ms * 1e6),
          units = "GFlop/s", note = ("%d flops per cell update (the paper's count); %.4f ms/step, layout %s")
            :format(FLOPS, ms, layout)}
end
out:write()
