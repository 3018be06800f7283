-- Layout tplane's depth and thread-block shapes side by side on the Karma
-- cubes (docs/gpu-notebook.md, items 13-14): for each case, the naive kernel, then each
-- shape; max |dV| against naive after 600 steps from the thesis' initial
-- condition, then ms per step (median of 5 x 1200 steps after 120 of warm-up,
-- CUDA events; 1024^3: after 100 steps, 5 x 200 after 20) and the time of
-- 20,000 steps. Shapes a layout refuses are printed as skipped. Needs a GPU
-- (1024^3: 32 GB of it). "all" runs every case but 1024.
--   cardiac protocols/tplane_shapes.lua [256|512|1024|fp64|all] [blocks]
-- blocks: only the shapes with these blocks, e.g. default,64x16,32x32
-- ("default": tplane's default shape; naive, the reference, runs always).
local which = arg and arg[1] or "all"
local only
if arg and arg[2] then
  only = {}
  for b in arg[2]:gmatch("[^,]+") do only[b] = true end
end
assert(which == "all" or which == "256" or which == "512" or which == "1024" or which == "fp64",
       "usage: cardiac protocols/tplane_shapes.lua [256|512|1024|fp64|all]")
assert(cardiac.gpu(), "tplane_shapes.lua needs a GPU")
cardiac.quiet = true

local function karma(n, precision)
  return function(layout, K, block)
    local sim = cardiac.simulation{mesh = cardiac.mesh{n = {n, n, n}, dx = 0.5}, model = cardiac.model("karma"),
                                   dt = 0.05, D = 0.1, stencil = 2, backend = "cuda", skip_rest = false,
                                   precision = precision, layout = layout, tsteps = K, block = block}
    sim:set("v", 0.5)
    sim:set("U", 3.0, cardiac.slab{axis = "z", from = 0, to = 0.05 * n * 0.5})
    return sim
  end
end
-- {layout, tsteps, block}: no block = the default shape (cuda/backend_cuda.cu)
local cases = {
  {key = "256", name = "256^3 fp32", make = karma(256, "fp32"), shapes = {{"naive"}, {"tplane", 3},
   {"tplane", 3, {256, 2}}, {"tplane", 2}, {"tplane", 2, {256, 2}}, {"tplane", 3, {128, 8}}, {"tplane", 3, {64, 16}},
   {"tplane", 3, {32, 32}}}},
  -- the default: tiles of 64 x 64 cells (K = 3); before, tiles spanning the
  -- grid (512 x 2 threads, K = 2; 1024^3: 352 x 2, the fewest of at most 512)
  {key = "512", name = "512^3 fp32", make = karma(512, "fp32"), shapes = {{"naive"}, {"tplane", 3},
   {"tplane", 2, {512, 2}}, {"tplane", 2, {512, 1}}, {"tplane", 3, {288, 3}}, {"tplane", 3, {256, 4}},
   {"tplane", 3, {256, 2}}, {"tplane", 2, {128, 8}}, {"tplane", 3, {128, 8}}, {"tplane", 2, {64, 16}},
   {"tplane", 3, {32, 32}}}},
  {key = "1024", name = "1024^3 fp32", make = karma(1024, "fp32"), steps = 100, shapes = {{"naive"}, {"tplane", 3},
   {"tplane", 2, {352, 2}}, {"tplane", 2, {256, 4}}, {"tplane", 3, {256, 4}}, {"tplane", 2, {512, 2}},
   {"tplane", 2, {128, 8}}, {"tplane", 3, {128, 8}}, {"tplane", 2, {64, 16}}, {"tplane", 3, {32, 32}}}},
  -- fp64: the default blocks of 1024 threads (256 x 4; docs/gpu-notebook.md item 66), and of 512
  {key = "fp64", name = "256^3 fp64", make = karma(256, "fp64"), shapes = {{"naive"}, {"tplane", 2},
   {"tplane", 2, {256, 2}}, {"tplane", 3}, {"tplane", 1}}},
}
print(("%-11s %-7s %2s %-8s %9s %10s %9s"):format("case", "layout", "K", "block", "ms/step", "20k steps", "max|dV|"))
for _, c in ipairs(cases) do
  if (which == "all" and c.key ~= "1024") or which == c.key then
    local steps = c.steps or 600
    local ref = c.make("naive")
    ref:step(steps)
    for _, sh in ipairs(c.shapes) do
      local made, sim = false, "left out"
      local key = sh[3] and (sh[3][1] .. "x" .. sh[3][2]) or (sh[1] == "tplane" and "default")
      if not only or only[key] then made, sim = pcall(c.make, sh[1], sh[2], sh[3]) end
      if not made and sim ~= "left out" then
        print(("%-11s %-7s %2s %-8s skipped: %s"):format(c.name, sh[1], sh[2] or "", "", sim))
      elseif made then
        sim:step(steps)
        local dv = sim:diff(ref)
        local b = sim:benchmark{steps = 2 * steps, ["repeat"] = 5, warmup = steps // 5}
        print(("%-11s %-7s %2s %-8s %9.4f %9.2fs %9.2g"):format(c.name, sh[1], sh[2] or "", sim.block, b.per_step,
                                                            b.per_step * 20, dv))
        sim:close()
      end
    end
    ref:close()
  end
end
