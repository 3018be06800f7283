-- The step of Karma in its three main GPU layouts, for comparing two builds
-- on one GPU (run each build's binary on this script, alternately): a 256^3
-- cube with tplane (its default) and naive, and a 512^2 sheet with tblock
-- (its default); dx 0.5 mm, D 0.1 mm^2/ms, a wave started at x = 0. Each is
-- sim:benchmark (CUDA events, the median of 5 repetitions of 500 steps after
-- a warm-up). Uses only what builds since issue 30 have.
--   cardiac protocols/karma_steps.lua [label]
local label = arg and arg[1] or "build"
assert(cardiac.gpu(), "karma_steps needs a GPU")
cardiac.quiet = true
local function bench(tag, n, layout)
  local s = cardiac.simulation{mesh = cardiac.mesh{n = n, dx = 0.5}, model = "karma", dt = 0.05, D = 0.1,
                               backend = "cuda", skip_rest = false, layout = layout}
  s:set("U", 3, cardiac.slab{axis = "x", from = 0, to = 2})
  local b = s:benchmark{steps = 500, ["repeat"] = 5}
  print(("%-8s %-12s %-7s %.5f ms/step"):format(label, tag, s.layout, b.per_step))
  s:close()
end
bench("karma 256^3", {256, 256, 256})
bench("karma 256^3", {256, 256, 256}, "naive")
bench("karma 512^2", {512, 512})
