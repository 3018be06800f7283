-- Phase-field diffusion (thesis eq. 4.1; Fenton, Cherry, Karma & Rappel,
-- Chaos 15:013502, 2005): a disc of tissue whose border is a tanh interface
-- of width w. As w shrinks, the phase-field solution approaches the sharp
-- no-flux one: a wave started at the disc's left edge reaches the right edge
-- at the time it does on the plain mask of the disc. Checked: the difference
-- of that activation time shrinks with w (at least 1.5x per halving) and is
-- under 2% of the crossing time at the smallest w; a mesh built from a phase
-- field reports it, and its simulations run on the CPU.
local measure = require "measure"
cardiac.quiet = true
local checks = require "checks"   -- check(ok, fmt, ...), finish()
local check = checks.check

local R, cx, cy, dx = 4.0, 5.0, 5.0, 0.1
local n = math.floor(2 * cx / dx + 0.5)
local function radius(x, y) return math.sqrt((x - cx) ^ 2 + (y - cy) ^ 2) end

-- Activation time at the disc's right edge for a mesh (phase field or mask).
local function crossing(mesh)
  local sim = cardiac.simulation{mesh = mesh, model = "karma", dt = 0.01, D = 0.1, backend = "cpu",
    stimuli = {cardiac.stimulus{region = cardiac.slab{axis = "x", from = cx - R, to = cx - R + 0.5},
                                amplitude = 5, duration = 1}}}
  local cell = {mesh:locate(cx + R - 0.3, cy)}
  local p = sim:probe{cells = {cell}, every = 1}
  sim:run(60)
  local d = p:data()
  return assert(measure.activation_time(d.t, d.U[1], 1.0), "the wave did not cross the disc")
end

local sharp = crossing(cardiac.mesh{n = {n, n}, dx = dx,
  tissue = cardiac.sphere{center = {cx, cy}, radius = R}})
print(string.format("sharp mask: activation at the right edge %.3f ms", sharp))
local diffs, widths = {}, {0.4, 0.2, 0.1}
for q, w in ipairs(widths) do
  local mesh = cardiac.mesh{n = {n, n}, dx = dx,
    phase = function(x, y) return 0.5 * (1 - math.tanh((radius(x, y) - R) / w)) end}
  if q == 1 then check(mesh.phase and mesh.tissue > 0, "the mesh holds a phase field (%d tissue cells)", mesh.tissue) end
  local t = crossing(mesh)
  diffs[q] = math.abs(t - sharp)
  print(string.format("interface width %.2f mm: activation %.3f ms (|difference| %.3f ms)", w, t, diffs[q]))
end
for q = 2, #diffs do
  check(diffs[q] * 1.5 < diffs[q - 1], "difference shrinks: w %.2f -> %.2f mm, %.3f -> %.3f ms", widths[q - 1],
        widths[q], diffs[q - 1], diffs[q])
end
check(diffs[#diffs] < 0.02 * sharp, "at w = %.2f mm within 2%% of the sharp crossing time", widths[#widths])
checks.finish()
