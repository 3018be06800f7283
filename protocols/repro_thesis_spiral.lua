-- Reproduction: the scroll wave of the thesis (Vasconcellos 2019, eq. 5.7
-- and fig. 5.11): Karma on 256^3 cells of 0.5 mm, dt = 0.05 ms, the planar
-- wave of eqs. 5.4-5.5 along z (v = 0.5 everywhere, U = 3 in the first 5% of
-- z), then at step 8,500 an S2: U = 3 where 60 < z < 100 and 117 <= x <= 137
-- (cell indices, 0-based as in the thesis; every y), run to step 20,000.
--
-- The model is cardiac's default Karma set, whose time constant tau_E =
-- 2.5 ms is Karma 1994's (docs/models.md). The thesis steps its eq. 2.11 with
-- one dt for the reaction and the diffusion (eq. 2.19), so the diffusion
-- keeps its ratio to the reaction, D/h^2 : 1/tau_E = 0.02 : 0.05 (eq. 5.1's
-- coefficient against dt): D = 0.4 h^2 / tau_E, 0.04 mm^2/ms at h = 0.5 mm.
-- Two controls, one change each: the former reading of the model time unit
-- as 1 ms (the "unit_time" set, D = 0.1 mm^2/ms, the same ratio), and tau_E =
-- 2.5 ms with D left at 0.1 mm^2/ms.
--
-- Re-entry is measured with activation maps (sampled every 0.5 ms) and a probe
-- at the middle of the S2 region: a third activation of a cell needs a wave
-- that came back. Criterion, fixed before the 256^3 run: a scroll wave is
-- present when at least 25% of the cells activate 3 or more times and the
-- probe 4 or more times (the planar wave, the S2 and two returns; U > 1 at
-- the end would not do: at D = 0.04 mm^2/ms the planar wave reaches the top
-- of the cube at 857 ms, on a 256-cell cable). The thesis gives no number to compare with, only
-- the frames of fig. 5.11 (every 25 ms); ours of the first run go to
-- <frames>/spiral_<step>.png every 500 steps after the S2 (slice z = 80 of
-- the cube; the sheet's whole x-z plane, z upwards; U from 0 to 4).
--
-- shape "cube" (default) needs a GPU at n = 256 (16.8 M cells, three runs of
-- 20,000 steps). shape "sheet" runs the x-z plane alone, n x n cells: the
-- initial condition and the S2 do not depend on y and the boundaries are
-- no-flux, so the cube's solution is the sheet's at every y; the CPU runs it
-- in about a minute per run at n = 256. At a smaller n the thesis' step
-- 8,500 loses its meaning (the planar wave's travel shrinks with n, the
-- action potential does not).
--   cardiac protocols/repro_thesis_spiral.lua [csv] [n = 256] [shape = cube | sheet] [frames = results/reproduce]
local R, measure = require "reproduction", require "measure"
local n = tonumber(arg and arg[2]) or 256
local shape = arg and arg[3] or "cube"
assert(shape == "cube" or shape == "sheet", "repro_thesis_spiral: shape is 'cube' or 'sheet'")
local sheet = shape == "sheet"
assert(cardiac.gpu() or sheet or n <= 64,
       "repro_thesis_spiral needs a GPU for the cube (or shape 'sheet', or a small n for a try on the CPU)")
cardiac.quiet = true
local out = R.new(arg and arg[1])
local f = n / 256                                  -- the thesis' cell indices scale with n
-- the probe: the middle of the S2 region (thesis x = 127, z = 80); in the sheet, z is the mesh's y
local mid = sheet and {math.floor(127 * f) + 1, math.floor(80 * f) + 1}
                  or {math.floor(127 * f) + 1, n // 2, math.floor(80 * f) + 1}
local frames_dir = arg and arg[4] or "results/reproduce"
os.execute("mkdir -p " .. frames_dir)

-- one run of model m with diffusion D; frames: write PNGs
local function run(label, m, D, frames, control)
  local mesh = sheet and cardiac.mesh{n = {n, n}, dx = 0.5} or cardiac.mesh{n = {n, n, n}, dx = 0.5}
  local sim = cardiac.simulation{mesh = mesh, model = m, dt = 0.05, D = D, backend = "auto"}
  sim:set("v", 0.5)
  sim:set("U", 3.0, cardiac.slab{axis = sheet and "y" or "z", from = 0, to = 0.05 * n * 0.5})
  local maps = sim:activation{interval = 0.5}
  local probe = sim:probe{cells = {mid}, vars = {"U"}, interval = 0.5}
  -- the planar wave's back at the probe: the first step (of 100) at which the probed cell has
  -- been activated and U is below 1 again
  local back
  local function watch()
    if back then return end
    local first = maps:get("first", table.unpack(mid))
    if first == first and sim:get("U", table.unpack(mid)) < 1.0 then back = sim.steps end
  end
  while sim.steps < 8500 do sim:step(100); watch() end
  -- eq. 5.7; cell (i, k) 1-based has its centre at ((i - 0.5) dx, ...) and 0-based index i - 1
  sim:set("U", 3.0, cardiac.where(function(x, y, z)
    local i, k = x / 0.5 - 0.5, (sheet and y or z) / 0.5 - 0.5
    return k > 60 * f and k < 100 * f and i >= 117 * f and i <= 137 * f
  end))
  while sim.steps < 20000 do
    sim:step(100); watch()
    if frames and sim.steps % 500 == 0 then
      sim:png(("%s/spiral_%05d.png"):format(frames_dir, sim.steps),
              {var = "U", min = 0, max = 4, z = not sheet and mid[3] or nil, overwrite = true})
    end
  end
  local d = probe:data()
  local ups, again = measure.crossings(d.t, d.U[1], 1), measure.fraction_at_least(maps:field("count"), 3)
  local period, np = 0, 0
  for q = 4, #ups do period, np = period + ups[q] - ups[q - 1], np + 1 end  -- after the S2 wave's own
  local _, umax = sim:stats("U")
  sim:close()
  local x = {again = again, ups = #ups, period = np > 0 and period / np or nil, umax = umax, back = back}
  local scroll = x.again >= 0.25 and x.ups >= 4
  out:row{quantity = ("%s%s: S2 at step 8,500"):format(control and "control, " or "", label),
          paper = control and "" or "scroll wave (fig. 5.11)",
          ours = ("%s: %.1f%% of cells activated 3+ times, max U at step 20,000 %.2f")
            :format(scroll and "scroll wave" or "none", 100 * x.again, x.umax), units = "",
          note = ("D = %g mm^2/ms; the planar wave's back passes the probe (%s) at step %s; %d activations there")
            :format(D, table.concat(mid, ", "), back or "-", x.ups)}
  out:row{quantity = ("%s%s: rotation period"):format(control and "control, " or "", label), paper = "",
          ours = x.period or "none",
          units = "ms", note = "mean interval between the probe's activations after the first re-entry"}
  return x
end

local karma = cardiac.model("karma")
local tau = karma:get("tau_e")
run(("default set (tau_E = %g ms)"):format(tau), karma, 0.4 * 0.5 ^ 2 / tau, true)
run("former reading, tau_E = 1 ms", cardiac.model("karma", {cell = "unit_time"}), 0.4 * 0.5 ^ 2 / 1, false, true)
run(("tau_E = %g ms, D not rescaled"):format(tau), karma, 0.1, false, true)
out:write()
