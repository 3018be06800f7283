-- Resting tissue skipped by tplane's launches (docs/gpu.md, "Resting tissue"):
-- the thesis' Karma cube (protocols/repro_thesis_karma.lua's case: v = 0.5,
-- U = 3 in the first 5% of z, D = 0.04 mm^2/ms, dt = 0.05 ms, fp32, the
-- default layout) for 1 s of activity, `sim:run(1000)`, with skip_rest on
-- (the default) and off, and the same cube with U = 1e-3 everywhere else, where
-- no plane is quiet until U has decayed to about 1e-38 there, after some 190
-- ms: timed over its first 150 ms, `sim:run(150)`, given per 20,000 steps,
-- it shows what tracking costs where it skips nothing. Wall clock of
-- sim:run after 100 warm-up steps, the cases alternately, `repeats` times;
-- then the skipped and the unskipped run's states compared (max |difference|
-- over U and v, which must be 0). Also: the share of the plane-steps the
-- skipped run stepped over that second (sim.stepped_share). Needs a GPU.
--   cardiac protocols/rest_skip.lua [sizes = 256,512] [repeats = 1] [csv]
assert(cardiac.gpu(), "rest_skip.lua needs a GPU")
cardiac.quiet = true
local sizes = {}
for n in (arg[1] or "256,512"):gmatch("%d+") do sizes[#sizes + 1] = tonumber(n) end
local repeats = tonumber(arg[2] or 1)
local csv = arg[3]

local karma = cardiac.model("karma")
local D = 0.4 * 0.5 ^ 2 / karma:get("tau_e")
local function cube(n, skip, busy)
  local sim = cardiac.simulation{mesh = cardiac.mesh{n = {n, n, n}, dx = 0.5}, model = karma, dt = 0.05, D = D,
                                 backend = "cuda", skip_rest = skip}
  sim:set("v", 0.5)
  if busy then sim:set("U", 1e-3) end
  sim:set("U", 3.0, cardiac.slab{axis = "z", from = 0, to = 0.05 * n * 0.5})
  return sim
end

local rows = {}
print(("GPU: %s"):format(cardiac.gpu().name))
print("n     case                        1 s (20,000 steps)")
for _, n in ipairs(sizes) do
  local keep, first = {}, #rows + 1
  for r = 1, repeats do
    for _, c in ipairs{{"thesis", true, false}, {"thesis", false, false}, {"no rest", true, true},
                       {"no rest", false, true}} do
      local sim = cube(n, c[2], c[3])
      sim:step(100)
      local before, steps0 = sim.stepped_share, sim.steps
      local ms = c[3] and 150 or 1000
      local t0 = cardiac.clock()
      sim:run(ms)
      local s = (cardiac.clock() - t0) * 1000 / ms
      local share = (sim.stepped_share * sim.steps - before * steps0) / (sim.steps - steps0)
      rows[#rows + 1] = {n = n, state = c[1], skip_rest = tostring(c[2]), s_per_20000 = s, ms_per_step = s / 20,
                         planes_stepped = share}
      print(("%-5d %-8s skip_rest = %-5s %8.3f s  %8.5f ms/step  planes stepped: %.1f%%"):format(n, c[1],
        tostring(c[2]), s, s / 20, 100 * share))
      if r == repeats and not c[3] then keep[#keep + 1] = sim else sim:close() end
    end
  end
  local d = math.max((keep[1]:diff(keep[2], "U")), (keep[1]:diff(keep[2], "v")))
  local lo, hi = keep[1]:stats("U")
  print(("%-5d skipped against every cell: max |difference| %g (U in [%.2f, %.2f] at 1 s)"):format(n, d, lo, hi))
  for i = first, #rows do rows[i].max_diff = rows[i].state == "thesis" and d or nil end
  for _, s in ipairs(keep) do s:close() end
end
if csv then
  require("tables").csv(csv, rows, {"n", "state", "skip_rest", "s_per_20000", "ms_per_step", "planes_stepped",
                                    "max_diff"}, {overwrite = true})
end
