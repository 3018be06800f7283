-- The step cost of three reference cases, for comparing two builds of
-- cardiac on one GPU (run each build's binary on this script, alternately):
-- Karma on a 256^3 cube (layout tplane, its default), the O'Hara-Rudy
-- biventricular heart in blockDS blocks of 2 (precision mixed), and the
-- calcium model's 12 mm cube (gaur_rudy, 10,000 dyads per cell, fp32).
-- Each is sim:benchmark: CUDA events, the median of 5 repetitions after a
-- warm-up. Uses only what every build since issue 30 has, so older
-- binaries run it too.
--   cardiac protocols/build_compare.lua [label] [csv]
local label = arg and arg[1] or "build"
local csv = arg and arg[2]
assert(cardiac.gpu(), "build_compare needs a GPU")
cardiac.quiet = true

local function karma()
  local mesh = cardiac.mesh{n = {256, 256, 256}, dx = 0.5}
  local sim = cardiac.simulation{mesh = mesh, model = "karma", dt = 0.05, D = 0.1, backend = "cuda", skip_rest = false}
  sim:set("U", 3, cardiac.slab{axis = "z", from = 0, to = 5})
  return sim, 500
end

local function heart()
  local mesh = cardiac.mesh{n = {250, 326, 298}, dx = 0.5, tissue = cardiac.biventricle()}
  local sim = cardiac.simulation{mesh = mesh, model = "ohara_rudy", dt = 0.05, D = 0.3, precision = "mixed",
                                 backend = "cuda", skip_rest = false, blocks = 2}
  sim:set("V", 0.0, cardiac.slab{axis = "z", from = 0, to = 0.05 * 298 * 0.5})
  return sim, 100
end

local function calcium()
  local mesh = cardiac.mesh{size = {12, 12, 12}, dx = 0.5}
  local st = cardiac.stimulus{region = cardiac.slab{axis = "z", from = 0, to = 0.5}, amplitude = 80, duration = 1,
                              start = 0}
  local sim = cardiac.simulation{mesh = mesh, model = cardiac.model("gaur_rudy", {dyads = 10000}), dt = 0.05,
                                 D = 0.2, stimuli = {st}, backend = "cuda", skip_rest = false}
  sim:run(2)   -- a beat has started: channels open in part of the tissue
  return sim, 20
end

local rows = {}
for _, c in ipairs{{"karma 256^3 tplane fp32", karma}, {"ord heart blocks 2 mixed", heart},
                   {"gaur_rudy 12 mm 10000 dyads fp32", calcium}} do
  local sim, steps = c[2]()
  local b = sim:benchmark{steps = steps, ["repeat"] = 5, warmup = steps // 5}
  rows[#rows + 1] = {label = label, case = c[1], layout = sim.layout or "", ms_per_step = b.per_step}
  print(("%-10s %-34s %-7s %9.4f ms/step"):format(label, c[1], sim.layout or "", b.per_step))
  sim:close()
end
if csv then
  local f = assert(io.open(csv, "a"))
  if f:seek("end") == 0 then f:write("label,case,layout,ms_per_step\n") end
  for _, r in ipairs(rows) do f:write(("%s,%s,%s,%.5f\n"):format(r.label, r.case, r.layout, r.ms_per_step)) end
  f:close()
end
