-- Layout tplane's depth and thread-block shapes side by side on the Karma
-- cubes (docs/gpu.md, items 13-14): for each case, the naive kernel, then each
-- shape; max |dV| against naive after 600 steps from the thesis' initial
-- condition, then ms per step (median of 5 x 1200 steps after 120 of warm-up,
-- CUDA events) and the time of 20,000 steps. Shapes a layout refuses are
-- printed as skipped. Needs a GPU.
--   cardiac protocols/tplane_shapes.lua [256|512|fp64|all]
local which = arg and arg[1] or "all"
assert(which == "all" or which == "256" or which == "512" or which == "fp64",
       "usage: cardiac protocols/tplane_shapes.lua [256|512|fp64|all]")
assert(cardiac.gpu(), "tplane_shapes.lua needs a GPU")
cardiac.quiet = true

local function karma(n, precision)
  return function(layout, K, block)
    local sim = cardiac.simulation{mesh = cardiac.mesh{n = {n, n, n}, dx = 0.5}, model = cardiac.model("karma"),
                                   dt = 0.05, D = 0.1, stencil = 2, backend = "cuda", precision = precision,
                                   layout = layout, tsteps = K, block = block}
    sim:set("v", 0.5)
    sim:set("U", 3.0, cardiac.slab{axis = "z", from = 0, to = 0.05 * n * 0.5})
    return sim
  end
end
-- {layout, tsteps, block}: no block = the default shape (cuda/backend_cuda.cu)
local cases = {
  {key = "256", name = "256^3 fp32", make = karma(256, "fp32"), shapes = {{"naive"}, {"tplane", 3},
   {"tplane", 3, {256, 2}}, {"tplane", 2}, {"tplane", 2, {256, 2}}}},
  {key = "512", name = "512^3 fp32", make = karma(512, "fp32"), shapes = {{"naive"}, {"tplane", 2},
   {"tplane", 2, {512, 1}}, {"tplane", 3, {288, 3}}, {"tplane", 3, {256, 4}}, {"tplane", 3, {256, 2}}}},
  {key = "fp64", name = "256^3 fp64", make = karma(256, "fp64"), shapes = {{"naive"}, {"tplane", 2},
   {"tplane", 2, {256, 4}}, {"tplane", 3}, {"tplane", 1}}},
}
print(("%-11s %-7s %2s %-8s %9s %10s %9s"):format("case", "layout", "K", "block", "ms/step", "20k steps", "max|dV|"))
for _, c in ipairs(cases) do
  if which == "all" or which == c.key then
    local ref = c.make("naive")
    ref:step(600)
    for _, sh in ipairs(c.shapes) do
      local made, sim = pcall(c.make, sh[1], sh[2], sh[3])
      if not made then
        print(("%-11s %-7s %2s %-8s skipped: %s"):format(c.name, sh[1], sh[2] or "", "", sim))
      else
        sim:step(600)
        local dv = sim:diff(ref)
        local b = sim:benchmark{steps = 1200, ["repeat"] = 5, warmup = 120}
        print(("%-11s %-7s %2s %-8s %9.4f %9.2fs %9.2g"):format(c.name, sh[1], sh[2] or "", sim.block, b.per_step,
                                                            b.per_step * 20, dv))
        sim:close()
      end
    end
    ref:close()
  end
end
