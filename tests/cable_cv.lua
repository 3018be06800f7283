-- 1D cable: conduction velocity of the Karma model converges as dx shrinks
-- (second-order stencil: successive differences shrink about 4x per halving).
local measure = require "measure"
local function cv(dx)
  local mesh = cardiac.mesh{size = {40}, dx = dx}
  local sim = cardiac.simulation{mesh = mesh, model = "karma", dt = 0.005, D = 0.2,
    stimuli = {cardiac.stimulus{region = cardiac.slab{axis = "x", from = 0, to = 2}, amplitude = 5, duration = 1}}}
  local cells = {{mesh:locate(10)}, {mesh:locate(30)}}
  local p = sim:probe{cells = cells, every = 1}
  sim:run(60)
  return measure.conduction_velocity(p, mesh, cells, "U", 1.0)
end

local dxs, cvs = {0.4, 0.2, 0.1, 0.05}, {}
for i, dx in ipairs(dxs) do
  cvs[i] = cv(dx)
  print(string.format("dx = %.3f mm  CV = %.5f mm/ms", dx, cvs[i]))
end
local ok = true
for i = 3, #cvs do
  local ratio = math.abs(cvs[i - 1] - cvs[i - 2]) / math.abs(cvs[i] - cvs[i - 1])
  print(string.format("difference ratio %.3f -> %.3f: %.2f (second order: 4)", dxs[i - 1], dxs[i], ratio))
  if ratio < 2.5 or ratio > 6 then ok = false end
end
local rel = math.abs(cvs[#cvs] - cvs[#cvs - 1]) / cvs[#cvs]
print(string.format("relative change at the finest step: %.2e", rel))
if rel > 0.01 then ok = false end
print(ok and "1 passed, 0 failed" or "0 passed, 1 failed")
if not ok then os.exit(1) end
