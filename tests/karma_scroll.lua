-- The thesis' scroll wave (Vasconcellos 2019, eq. 5.7, fig. 5.11;
-- protocols/repro_thesis_spiral.lua) guarded at small size on the CPU: the
-- planar wave of eqs. 5.4-5.5 (v = 0.5, U = 3 on the first 5% of the height)
-- and at step 8,500 the S2 (U = 3 where 60 < z < 100, 117 <= x <= 137, the
-- thesis' cell indices), on the x-z plane of the thesis' cube (the solution
-- does not depend on y) cut to x in [X0, X0 + NX) and z below NZ cells, dx =
-- 0.5 mm, dt = 0.05 ms, D = 0.4 h^2 / tau_E (the thesis' ratio of diffusion
-- to reaction).
--  * The default set (tau_E = 2.5 ms): the planar wave's back is still at the
--    S2 region near step 8,000, so the S2 wave returns: the probe in the
--    middle of the S2 region activates a third time before step 11,000 (at
--    516 ms, as on the whole 256 x 256 plane), and the returning wave has
--    already re-excited part of the sheet (1% or more of the cells have 3
--    activations; 6.6% on 2026-11-25; the whole plane reaches 62% by 1 s).
--  * The former reading (set "unit_time", tau_E = 1 ms): the back passed at
--    step 3,200 and the S2 wave does not return.
-- Step counts for the full plane (256 x 256): protocols/repro_thesis_spiral.lua
-- with shape "sheet" (docs/reproductions.md).
local checks, measure = require "checks", require "measure"
local check = checks.check
cardiac.quiet = true
local X0, NX, NZ, h = 88, 80, 128, 0.5
local probe_cell = {127 - X0 + 1, 80 + 1}        -- thesis (x, z) = (127, 80), 1-based in the cut

local function run(m)
  local D = 0.4 * h ^ 2 / m:get("tau_e")
  local sim = cardiac.simulation{mesh = cardiac.mesh{n = {NX, NZ}, dx = h}, model = m, dt = 0.05, D = D,
                                 backend = "cpu"}
  sim:set("v", 0.5)
  sim:set("U", 3.0, cardiac.slab{axis = "y", from = 0, to = 0.05 * 256 * h})
  local maps = sim:activation{interval = 0.5}
  local probe = sim:probe{cells = {probe_cell}, vars = {"U"}, interval = 0.5}
  sim:step(8500)
  sim:set("U", 3.0, cardiac.where(function(x, y)
    local i, k = x / h - 0.5 + X0, y / h - 0.5
    return k > 60 and k < 100 and i >= 117 and i <= 137
  end))
  sim:step(2500)
  local d = probe:data()
  local ups, again = measure.crossings(d.t, d.U[1], 1), measure.fraction_at_least(maps:field("count"), 3)
  sim:close()
  return ups, again, D
end

local ups, again, D = run(cardiac.model("karma"))
check(#ups >= 3 and again >= 0.01,
      "default set (tau_E = 2.5 ms, D = %.3g mm^2/ms): the S2 wave returns: %d activations at the probe (at %s ms), "
      .. "%.1f%% of the cells 3 or more times (want >= 3 and >= 1%%)", D, #ups, table.concat(ups, ", "), 100 * again)
ups, again, D = run(cardiac.model("karma", {cell = "unit_time"}))
check(#ups == 2 and again == 0,
      "set unit_time (tau_E = 1 ms, D = %.3g mm^2/ms): no return: %d activations at the probe (at %s ms), "
      .. "%.1f%% of the cells 3 or more times (want 2 and 0%%)", D, #ups, table.concat(ups, ", "), 100 * again)
checks.finish()
