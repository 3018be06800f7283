-- What two designs not built could gain at most on Karma 256^3 (fp32, tplane
-- K = 3, tiles of 256 x 16 cells), priced by proxies on today's kernel
-- (docs/gpu-notebook.md, item 63). Each proxy is the kernel itself on a box
-- whose tiles do the work the design would do; their results are not used.
--  - Split tiling along y: one launch of today's tiles (rows 1-14, 2-13, 3-12
--    computed at levels 1-3, each tile alone), a second of the tiles between
--    them (6, 8 and 10 rows), so that no row and level is computed twice.
--    Proxy of the first launch (B): 13 tiles, the box 130 rows deep. Of the
--    second (C): 13 tiles of 12 rows (blocks of 256 x 3 threads: 10, 8 and 6
--    rows computed, the same 24 row-levels), 78 rows deep. The edge rows the
--    two launches would pass through global memory are not in either.
--  - The z chunks' fill: 26 tiles x 5 chunks at nz = 128 ... 1024 planes, so
--    that a straight line through ms a step against nz separates the cost per
--    plane from the cost per launch (the chunks' fill and drain, the launch).
-- ms a step: median of 5 x 1200 steps after 120 of warm-up (CUDA events).
--   cardiac protocols/tplane_ceilings.lua
assert(cardiac.gpu(), "tplane_ceilings.lua needs a GPU")
cardiac.quiet = true

local function per_step(ny, nz, block)
  local sim = cardiac.simulation{mesh = cardiac.mesh{n = {256, ny, nz}, dx = 0.5}, model = cardiac.model("karma"),
                                 dt = 0.05, D = 0.1, stencil = 2, backend = "cuda", skip_rest = false,
                                 precision = "fp32", layout = "tplane", tsteps = 3, block = block}
  sim:set("v", 0.5)
  sim:set("U", 3.0, cardiac.slab{axis = "z", from = 0, to = 0.05 * 256 * 0.5})
  sim:step(60)
  local b = sim:benchmark{steps = 1200, ["repeat"] = 5, warmup = 120}
  sim:close()
  return b.per_step
end

print("split tiling along y (ms a step)")
local a = per_step(256, 256)
local b = per_step(130, 256)
local c = per_step(78, 256, {256, 3})
print(("  A  256^3, today's step              %.5f"):format(a))
print(("  B  first launch's proxy (130 rows)  %.5f"):format(b))
print(("  C  second launch's proxy (78 rows)  %.5f  (blocks of 768 threads: the generic kernel)"):format(c))
print(("  B + C                               %.5f  %5.1f%% of A"):format(b + c, 100 * (b + c) / a))
print(("  B x (1 + 24/36)                     %.5f  %5.1f%% of A  (C as fast per row-level as B)"):format(
  b * (1 + 24 / 36), 100 * b * (1 + 24 / 36) / a))

print("the z chunks' fill (256 x 256 x nz, 26 tiles x 5 chunks)")
local t = {}
for _, nz in ipairs{128, 256, 512, 1024} do
  t[nz] = per_step(256, nz)
  print(("  nz %4d  %.5f ms a step  %.5f per 256 planes"):format(nz, t[nz], t[nz] * 256 / nz))
end
local slope = (t[1024] - t[256]) / 3          -- per 256 planes
local fixed = t[256] - slope                   -- per step, whatever nz
print(("  per 256 planes %.5f ms, per step %.5f ms (%.1f%% of nz = 256); the line gives nz = 512 %.5f, 128 %.5f"):format(
  slope, fixed, 100 * fixed / t[256], 2 * slope + fixed, slope / 2 + fixed))
