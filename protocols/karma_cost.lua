-- The cost of a Karma step on one GPU, for comparing two builds on the same
-- machine (a change to the model must not move it): a 256^3 cube with the
-- thesis' initial condition, every layout that runs Karma by default or as a
-- baseline, fp32 and fp64, with the default parameters (folded into the
-- kernel at compile time) and with one changed (the general kernel). Median
-- of 5 x 1,000 steps after 200 (sim:benchmark, CUDA events).
--   cardiac protocols/karma_cost.lua [n = 256] [csv]
local n = tonumber(arg and arg[1]) or 256
local csv = arg and arg[2]
local gpu = assert(cardiac.gpu(), "karma_cost.lua needs a GPU")
cardiac.quiet = true
print(("%s; %s; karma %d^3; %s"):format(gpu.name, os.date("!%Y-%m-%d"), n, cardiac.version))
local rows = {}
for _, precision in ipairs{"fp32", "fp64"} do
  for _, params in ipairs{false, {gamma = 1.5416}} do
    for _, layout in ipairs{"naive", "tblock", "tplane"} do
      local ok, sim = pcall(cardiac.simulation, {mesh = cardiac.mesh{n = {n, n, n}, dx = 0.5},
        model = cardiac.model("karma", params or nil), dt = 0.05, D = 0.04, precision = precision,
        backend = "cuda", skip_rest = false, layout = layout})
      if ok then
        sim:set("v", 0.5)
        sim:set("U", 3.0, cardiac.slab{axis = "z", from = 0, to = 0.05 * n * 0.5})
        local b = sim:benchmark{steps = 1000, ["repeat"] = 5, warmup = 200}
        rows[#rows + 1] = {precision = precision, params = params and "changed" or "defaults", layout = layout,
                           ms = b.per_step}
        print(("%-5s %-9s %-7s %.5f ms/step"):format(precision, rows[#rows].params, layout, b.per_step))
        sim:close()
      else
        print(("%-5s %-9s %-7s refused: %s"):format(precision, params and "changed" or "defaults", layout, sim))
      end
    end
  end
end
if csv then (require "tables").csv(csv, rows, {"precision", "params", "layout", "ms"}, {overwrite = true}) end
