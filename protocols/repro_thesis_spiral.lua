-- Reproduction: the scroll wave of the thesis (Vasconcellos 2019, eq. 5.7
-- and fig. 5.11): Karma on 256^3 cells (dx = 0.5 mm, D = 0.1 mm^2/ms, dt =
-- 0.05 ms) with the planar wave of eqs. 5.4-5.5 along z, then an S2: U = 3
-- where 60 < z < 100 and 117 <= x <= 137 (cell indices, 0-based as in the
-- thesis; every y), run to step 20,000 (1 s). The thesis shows pictures; here
-- re-entry is measured with activation maps (sampled every 0.5 ms) and a
-- probe at the middle of the S2 region: a third activation of a cell needs a
-- wave that came back.
-- Two timings of the S2: the thesis' step 8,500, and the moment the planar
-- wave's back (U below 1 again) passes the middle of the S2 region, so
-- that the S2 finds recovered tissue below and refractory tissue above it
-- (the classic vulnerable window). PNG slices (z = 80) every 25 ms after the
-- second S2 go to results/reproduce/spiral_*.png, as the figure's frames.
-- Needs a GPU (16.8 M cells, twice 20,000 steps).
--   cardiac protocols/repro_thesis_spiral.lua [csv] [n = 256]
local R = require "reproduction"
local n = tonumber(arg and arg[2]) or 256
assert(cardiac.gpu() or n <= 64, "repro_thesis_spiral needs a GPU (or a small n for a try on the CPU)")
cardiac.quiet = true
local out = R.new(arg and arg[1])
local f = n / 256                                  -- the thesis' cell indices scale with n
local mid = {math.floor(127 * f) + 1, n // 2, math.floor(80 * f) + 1}
os.execute("mkdir -p results/reproduce")

-- one run; s2_due(sim, maps) says when to apply the S2; frames: write PNGs
local function run(s2_due, frames)
  local sim = cardiac.simulation{mesh = cardiac.mesh{n = {n, n, n}, dx = 0.5}, model = "karma", dt = 0.05, D = 0.1,
                                 backend = "auto"}
  sim:set("v", 0.5)
  sim:set("U", 3.0, cardiac.slab{axis = "z", from = 0, to = 0.05 * n * 0.5})
  local maps = sim:activation{interval = 0.5}
  local probe = sim:probe{cells = {mid}, vars = {"U"}, interval = 0.5}
  while not s2_due(sim, maps) do sim:step(100) end
  local s2_step = sim.steps
  -- eq. 5.7; cell (i, j, k) 1-based has its centre at ((i - 0.5) dx, ...) and 0-based index i - 1
  sim:set("U", 3.0, cardiac.where(function(x, y, z)
    local i, k = x / 0.5 - 0.5, z / 0.5 - 0.5
    return k > 60 * f and k < 100 * f and i >= 117 * f and i <= 137 * f
  end))
  while sim.steps < 20000 do
    sim:step(math.min(500, 20000 - sim.steps))
    if frames then
      sim:png(("results/reproduce/spiral_%05d.png"):format(sim.steps), {var = "U", z = mid[3], overwrite = true})
    end
  end
  local d = probe:data()
  local ups = {}
  for q = 2, #d.t do
    if d.U[1][q - 1] < 1 and d.U[1][q] >= 1 then ups[#ups + 1] = d.t[q] end
  end
  local again, tissue = 0, 0
  for _, c in ipairs(maps:field("count")) do
    if c == c then tissue = tissue + 1; if c >= 3 then again = again + 1 end end
  end
  local period, np = 0, 0
  for q = 3, #ups do period, np = period + ups[q] - ups[q - 1], np + 1 end
  local _, umax = sim:stats("U")
  sim:close()
  return {s2_step = s2_step, again = again / tissue, ups = #ups, period = np > 0 and period / np or nil, umax = umax}
end

local thesis = run(function(sim) return sim.steps >= 8500 end, false)
-- the planar wave's back: the probed cell was activated and U has fallen below the threshold again
local back = run(function(sim, maps)
  local first = maps:get("first", table.unpack(mid))
  return first == first and sim:get("U", table.unpack(mid)) < 1.0
end, true)
for _, r in ipairs{{"step 8,500 (thesis)", thesis}, {"wave back at the S2 region", back}} do
  local label, x = r[1], r[2]
  out:row{quantity = ("S2 at %s: re-entry"):format(label), paper = "scroll wave (fig. 5.11)",
          ours = ("%.1f%% of cells activated 3+ times"):format(100 * x.again), units = "",
          note = ("S2 at step %d; %d activations at the probe (%d, %d, %d); max U at 1 s %.2f")
            :format(x.s2_step, x.ups, mid[1], mid[2], mid[3], x.umax)}
  out:row{quantity = ("S2 at %s: rotation period"):format(label), paper = "", ours = x.period or "none",
          units = "ms", note = "mean interval between the probe's activations after the S2 wave"}
end
out:write()
