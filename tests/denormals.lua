-- Flush-to-zero on every compute thread (core/engine/fpenv.h): a state decaying
-- towards zero in float never becomes subnormal, where every operation costs
-- about a hundred cycles (Karma's U and v after each beat: the README's
-- example ran twice as long). Karma's U at rest decays by a factor 0.98 a
-- step (dt 0.05 ms, tau_e 2.5 ms); from 1e-30, 1,000 steps would take it to
-- 1.7e-39, below the smallest normal float (1.18e-38): with flushing the
-- last decrements are zero and U stays normal. Run with two OpenMP threads
-- (tests/CMakeLists.txt), so that the cells of both are checked.
local checks = require "checks"
local check = checks.check
local smallest_normal = 2 ^ -126
local sim = cardiac.simulation{mesh = cardiac.mesh{n = {64, 64}, dx = 0.5}, model = "karma", dt = 0.05, D = 0.04}
sim:set("U", 1e-30)
sim:step(1000)
local subnormal = 0
for _, u in ipairs(sim:field("U")) do
  if u ~= 0 and math.abs(u) < smallest_normal then subnormal = subnormal + 1 end
end
local lo, hi = sim:stats("U")
check(subnormal == 0, "no cell's U is subnormal after 1,000 steps of decay (%d cells are; U in [%g, %g])", subnormal,
      lo, hi)
checks.finish()
