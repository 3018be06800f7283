-- Reproduction: the Karma cube of the thesis (Vasconcellos 2019, sections
-- 5.2-5.3): the stencil order (table 5.2, 512^3) and 20,000 steps at 256^3
-- and 512^3 (tables 5.4 and 5.6, Tesla P100 with towerDS, the thesis' best
-- single GPU). Initial condition eqs. 5.4-5.5 (v = 0.5, U = 3 in the first 5%
-- of z), Karma's default set (tau_E = 2.5 ms) with the thesis' ratio of
-- diffusion to reaction, D/h^2 = 0.4 / tau_E (eq. 2.19's coefficients 0.02 :
-- 0.05; D = 0.04 mm^2/ms at h = 0.5 mm, as protocols/repro_thesis_spiral.lua),
-- dt = 0.05 ms, fp32, our default layout. Table 5.2's step times step every
-- cell (skip_rest = false: the stencil's cost, whatever the state); the
-- 20,000 steps are timed as a user runs them, with resting tissue skipped
-- (the default; docs/gpu.md, "Resting tissue"), and with every cell stepped
-- for the note. Needs a GPU.
--   cardiac protocols/repro_thesis_karma.lua [csv]
local R = require "reproduction"
assert(cardiac.gpu(), "repro_thesis_karma needs a GPU")
cardiac.quiet = true
local out = R.new(arg and arg[1])

local karma = cardiac.model("karma")
local D = 0.4 * 0.5 ^ 2 / karma:get("tau_e")
local function cube(n, order, skip)
  local sim = cardiac.simulation{mesh = cardiac.mesh{n = {n, n, n}, dx = 0.5}, model = karma, dt = 0.05, D = D,
                                 stencil = order, backend = "cuda", skip_rest = skip}
  sim:set("v", 0.5)
  sim:set("U", 3.0, cardiac.slab{axis = "z", from = 0, to = 0.05 * n * 0.5})
  return sim
end

-- table 5.2: ms per step at 512^3 (the thesis times the stencil kernel alone)
for _, c in ipairs{{2, 3.474, 4.288}, {4, 3.394, 9.897}} do
  local sim = cube(512, c[1], false)
  local b = sim:benchmark{steps = 200, ["repeat"] = 5, warmup = 50}
  out:row{quantity = ("512^3, stencil order %d: ms per step"):format(c[1]), paper = c[2], ours = b.per_step,
          units = "ms", note = ("paper: stencil alone (eq. 5.%d), towerDS (JDC: %g ms); ours: stencil and Karma, layout %s")
            :format(c[1] == 2 and 1 or 2, c[3], sim.layout)}
  sim:close()
end

-- tables 5.4 and 5.6: 20,000 steps (1 s of activity), wall clock of sim:step
local function second(n, skip)
  local sim = cube(n, 2, skip)
  sim:step(100)
  local t0 = cardiac.clock()
  sim:step(20000)
  local s = cardiac.clock() - t0
  local lo, hi = sim:stats("U")
  sim:close()
  return s, lo, hi
end
for _, c in ipairs{{256, 14.0196, 23.6460, 4405}, {512, 112.2918, 136.3548, 866}} do
  local s, lo, hi = second(c[1], true)
  local every = second(c[1], false)
  out:row{quantity = ("%d^3: 20,000 steps"):format(c[1]), paper = c[2], ours = s, units = "s",
          note = ("paper: P100 towerDS (JDC %g s; 8 P100s %d steps/s); ours: resting tissue skipped, %.3f s "
                  .. "with every cell stepped; U in [%.2f, %.2f] at the end"):format(c[3], c[4], every, lo, hi)}
  out:row{quantity = ("%d^3: steps per second"):format(c[1]), paper = math.floor(20000 / c[2] + 0.5),
          ours = 20000 / s, units = "1/s", note = "table 5.6 (one P100)"}
end
out:write()
