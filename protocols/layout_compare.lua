-- The step kernels of every GPU layout, timed on the cases that choose them,
-- to compare two builds of cardiac (e.g. before and after a change to how the
-- kernels are compiled) on the same GPU:
--   cardiac protocols/layout_compare.lua [csv]
-- Each case: sim:benchmark (median of 5 repetitions of `steps` after a warm-up,
-- CUDA events). Karma 256^3 (thesis eqs. 5.4-5.5 set-up) on every volume
-- layout in fp32, tplane in fp64, the general kernel (parameters off the
-- defaults, not folded); Aliev-Panfilov 4096^2 (Unat et al.'s sheet) on naive
-- and tblock; ORd on the synthetic heart at a third of the thesis' size in
-- blockDS blocks of 2 (layout block) and whole (naive, masked), fp32 and fp64.
local csv = arg and arg[1]
local gpu = assert(cardiac.gpu(), "layout_compare.lua needs a GPU")
cardiac.quiet = true
print(("%s; %s"):format(gpu.name, os.date("!%Y-%m-%d")))

local function karma(n, precision, params)
  return function(layout, tsteps)
    local m = cardiac.mesh{n = {n, n, n}, dx = 0.5}
    local s = cardiac.simulation{mesh = m, model = cardiac.model("karma", params), dt = 0.05, D = 0.1,
                                 backend = "cuda", skip_rest = false, precision = precision, layout = layout,
                                 tsteps = tsteps}
    s:set("v", 0.5)
    s:set("U", 3.0, cardiac.slab{axis = "z", from = 0, to = 0.05 * n * 0.5})
    return s
  end
end
local function aliev(n)
  return function(layout, tsteps)
    local m = cardiac.mesh{n = {n, n}, dx = 0.25}
    local s = cardiac.simulation{mesh = m, model = "aliev_panfilov", dt = 0.02, D = 0.05, backend = "cuda",
                                 skip_rest = false, layout = layout, tsteps = tsteps}
    s:set("V", 20, cardiac.slab{axis = "x", from = 0, to = 0.05 * n * 0.25})
    return s
  end
end
local heart_mesh
local function heart(precision, blocks)
  return function()
    heart_mesh = heart_mesh or cardiac.mesh{n = {84, 109, 100}, dx = 0.5, tissue = cardiac.biventricle()}
    local s = cardiac.simulation{mesh = heart_mesh, model = cardiac.model("ohara_rudy", {cell = "endo"}),
                                 dt = 0.05, D = 0.3, backend = "cuda", skip_rest = false, precision = precision,
                                 blocks = blocks}
    -- (the layout follows from blocks: "block" with them, "naive" without)
    s:set("V", 0, cardiac.slab{axis = "z", from = 0, to = 0.05 * 100 * 0.5})
    return s
  end
end

-- name, make, layout, tsteps, steps per repetition
local cases = {
  {"karma 256^3 fp32", karma(256, "fp32"), "naive", nil, 500},
  {"karma 256^3 fp32", karma(256, "fp32"), "window", nil, 500},
  {"karma 256^3 fp32", karma(256, "fp32"), "tower", nil, 500},
  {"karma 256^3 fp32", karma(256, "fp32"), "tblock", 3, 500},
  {"karma 256^3 fp32", karma(256, "fp32"), "tplane", 3, 500},
  {"karma 256^3 fp64", karma(256, "fp64"), "tplane", 2, 500},
  {"karma* 256^3 fp32 (general)", karma(256, "fp32", {xm = 9.5}), "tplane", 3, 500},
  {"karma* 256^3 fp32 (general)", karma(256, "fp32", {xm = 9.5}), "naive", nil, 500},
  {"aliev_panfilov 4096^2 fp32", aliev(4096), "naive", nil, 500},
  {"aliev_panfilov 4096^2 fp32", aliev(4096), "tblock", 3, 500},
  {"ohara_rudy heart/3 fp32 blocks 2", heart("fp32", 2), "block", nil, 100},
  {"ohara_rudy heart/3 fp64 blocks 2", heart("fp64", 2), "block", nil, 100},
  {"ohara_rudy heart/3 mixed whole", heart("mixed", nil), "naive", nil, 100},
}
-- the thesis' window and tower layouts are in CARDIAC_THESIS_LAYOUTS=ON builds only
local built = {}
for _, l in ipairs(cardiac.layouts()) do built[l.name] = l.built end
local rows = {}
print(("%-34s %-8s %7s %10s"):format("case", "layout", "tsteps", "ms/step"))
for _, c in ipairs(cases) do
  local name, make, layout, tsteps, steps = table.unpack(c)
  if not built[layout] then
    print(("%-34s %-8s %7s %10s"):format(name, layout, "-", "not built"))
    goto next
  end
  local s = make(layout, tsteps)
  local b = s:benchmark{steps = steps, ["repeat"] = 5, warmup = steps // 5}
  s:close()
  rows[#rows + 1] = {case = name, layout = layout, tsteps = tsteps or "", ms_per_step = b.per_step}
  print(("%-34s %-8s %7s %10.4f"):format(name, layout, tostring(tsteps or "-"), b.per_step))
  ::next::
end
if csv then
  require("tables").csv(csv, rows, {"case", "layout", "tsteps", "ms_per_step"}, {overwrite = true})
end
