-- 1D cables: conduction velocity (CV) against grid spacing and diffusion.
--  * Karma: CV converges as dx shrinks (second-order stencil: successive
--    differences shrink about 4x per halving), to within 1% at dx = 0.05 mm.
--  * ten Tusscher-Panfilov 2006 and O'Hara-Rudy 2011 (fp64, D = 0.154 mm^2/ms,
--    the TP06 paper's tissue value, dt = 0.005 ms): CV converges with dx
--    (differences shrink at least 2x per halving of dx = 0.2, 0.1, 0.05 mm),
--    and fp32 state and arithmetic change CV by less than 0.1%
--    (docs/models.md reports the figures). The cable is short (8 mm, CV
--    between 2 and 6 mm) to keep the test quick, so its CVs sit a little
--    above those of a long cable's steady wave.
local measure = require "measure"
local checks = require "checks"   -- check(ok, fmt, ...), finish()
local check = checks.check

-- CV between x = a and x = b of a cable of length len (mm) stimulated at x < 1 mm.
local function cv(o)
  local mesh = cardiac.mesh{size = {math.floor(o.len / o.dx + 0.5)}, dx = o.dx}
  local sim = cardiac.simulation{mesh = mesh, model = cardiac.model(o.model), dt = o.dt, D = o.D,
    precision = o.precision, stimuli = {cardiac.stimulus{region = cardiac.slab{axis = "x", from = 0, to = 1},
    amplitude = o.amplitude, duration = 1}}}
  local cells = {{mesh:locate(o.a)}, {mesh:locate(o.b)}}
  local p = sim:probe{cells = cells, every = 1}
  sim:run(o.t)
  return measure.conduction_velocity(p, mesh, cells, o.var, o.threshold)
end

-- Karma: four grids
local dxs, cvs = {0.4, 0.2, 0.1, 0.05}, {}
for i, dx in ipairs(dxs) do
  cvs[i] = cv{model = "karma", len = 40, dx = dx, dt = 0.005, D = 0.2, amplitude = 5, a = 10, b = 30, t = 150,
              var = "U", threshold = 1.0}
  print(string.format("karma dx = %.3f mm  CV = %.5f mm/ms", dx, cvs[i]))
end
for i = 3, #cvs do
  local ratio = math.abs(cvs[i - 1] - cvs[i - 2]) / math.abs(cvs[i] - cvs[i - 1])
  check(ratio > 2.5 and ratio < 6, "karma difference ratio %.3f -> %.3f: %.2f (second order: 4)", dxs[i - 1], dxs[i], ratio)
end
local rel = math.abs(cvs[#cvs] - cvs[#cvs - 1]) / cvs[#cvs]
check(rel < 0.01, "karma relative change at the finest step: %.2e", rel)

-- The detailed models: an 8 mm cable, CV between 2 and 6 mm
for _, mt in ipairs{{"tentusscher_2006", 12}, {"ohara_rudy", 16}} do
  local model, t = mt[1], mt[2]
  local function run(dx, D, precision)
    return cv{model = model, len = 8, dx = dx, dt = 0.005, D = D, precision = precision,
              amplitude = 200, a = 2, b = 6, t = t, var = "V", threshold = -40}
  end
  local c = {}
  for i, dx in ipairs{0.2, 0.1, 0.05} do
    c[i] = run(dx, 0.154, "fp64")
    print(string.format("%s dx = %.2f mm  CV = %.4f mm/ms", model, dx, c[i]))
  end
  local d1, d2 = c[2] - c[1], c[3] - c[2]
  check(d1 * d2 > 0 and math.abs(d1) > 2 * math.abs(d2), "%s CV converges: differences %.4f, %.4f mm/ms", model, d1, d2)
  local c32 = run(0.2, 0.154, "fp32")
  check(math.abs(c32 - c[1]) / c[1] < 1e-3, "%s dx 0.2: fp32 CV %.5f vs fp64 %.5f mm/ms (%.1e)", model, c32, c[1],
        (c32 - c[1]) / c[1])
end
checks.finish()
