-- The bookkeeping of the Lua tests (tests/*.lua): check(ok, fmt, ...) prints
-- "ok" or "FAIL" with the formatted message and counts it; finish() prints
-- the counts and ends the script, with exit status 1 when a check failed
-- (ctest reads the status).
--   local t = require "checks"
--   local check = t.check
--   check(x == 1, "x is %d", x)
--   t.worst_diff(sim_a, sim_b)   -- largest state difference of two simulations
--   t.worst_relative(sim_a, sim_b)   -- largest relative one, and the state's name
--   local gpu = t.require_gpu()   -- a GPU test: skipped (exit 77) without one
--   t.finish()
local M = {passed = 0, failed = 0}

function M.check(ok, fmt, ...)
  if ok then M.passed = M.passed + 1 else M.failed = M.failed + 1 end
  print((ok and "ok    " or "FAIL  ") .. string.format(fmt, ...))
  return ok
end

-- The largest difference, over every state variable, between two
-- simulations of one model and mesh (sim:diff, each variable in its precision).
function M.worst_diff(a, b)
  local worst = 0
  for _, st in ipairs(cardiac.model(a.model):states()) do worst = math.max(worst, (a:diff(b, st.name))) end
  return worst
end

-- The largest relative difference |a - b| / |b| over every state variable
-- and cell of two simulations of one model and mesh (fields as floats), and
-- the name of the state where it is ("-" when they are equal).
function M.worst_relative(a, b)
  local worst, name = 0, "-"
  for _, st in ipairs(cardiac.model(a.model):states()) do
    local fa, fb = a:field(st.name), b:field(st.name)
    for i = 1, #fa do
      local d = math.abs(fa[i] - fb[i]) / math.max(1e-300, math.abs(fb[i]))
      if d > worst then worst, name = d, st.name end
    end
  end
  return worst, name
end

-- A GPU test without a usable GPU: prints why and ends the script with exit
-- status 77, which ctest shows as skipped.
function M.require_gpu()
  local gpu, why = cardiac.gpu()
  if not gpu then
    print("SKIPPED: no GPU: " .. why)
    os.exit(77)
  end
  return gpu
end

function M.finish()
  print(string.format("%d passed, %d failed", M.passed, M.failed))
  os.exit(M.failed == 0 and 0 or 1)
end

return M
