-- Do two GPU layouts round alike? Steps the same Karma problem on both one
-- step at a time and reports the first step and cell where they differ: a
-- grid of 16 x 48 x 2 cells (0.25 mm) with a wave started at its left edge and
-- U clamped to 0.5 in a band across y, so that cells see gradients along x
-- and y at once (docs/gpu-notebook.md, item 24).
--   cardiac protocols/layout_agreement.lua [layout = tplane] [reference = naive] [steps = 400] [precision = fp32]
local lay, ref = arg[1] or "tplane", arg[2] or "naive"
local steps, precision = tonumber(arg[3]) or 400, arg[4] or "fp32"
if not cardiac.gpu() then print("layout_agreement: no GPU") os.exit(77) end
cardiac.quiet = true
local n = {16, 48, 2}
local function make(layout)
  local s = cardiac.simulation{mesh = cardiac.mesh{n = n, dx = 0.25}, model = "karma", dt = 0.05, D = {0.1, 0.1, 0},
                               backend = "cuda", layout = layout, precision = precision}
  s:set("U", 3, cardiac.slab{axis = "x", from = 0, to = 1})
  s:clamp{region = cardiac.slab{axis = "y", from = 5, to = 6}, value = 0.5, start = 0}
  return s
end
local a, b = make(ref), make(lay)
for step = 1, steps do
  a:step(1)
  b:step(1)
  local ua, ub, va, vb = a:field("U"), b:field("U"), a:field("v"), b:field("v")
  local count, first = 0, nil
  for q = 1, #ua do
    if ua[q] ~= ub[q] or va[q] ~= vb[q] then count, first = count + 1, first or q end
  end
  if first then
    local c = first - 1
    print(("%s and %s (%s) differ after step %d in %d cells; the first, (%d, %d, %d): U %.9g and %.9g"):format(
      ref, lay, precision, step, count, c % n[1] + 1, c // n[1] % n[2] + 1, c // (n[1] * n[2]) + 1, ua[first],
      ub[first]))
    os.exit(1)
  end
end
print(("%s and %s (%s) agree bit for bit over %d steps"):format(ref, lay, precision, steps))
