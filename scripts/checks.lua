-- The bookkeeping of the Lua tests (tests/*.lua): check(ok, fmt, ...) prints
-- "ok" or "FAIL" with the formatted message and counts it; finish() prints
-- the counts and ends the script, with exit status 1 when a check failed
-- (ctest reads the status).
--   local t = require "checks"
--   local check = t.check
--   check(x == 1, "x is %d", x)
--   t.finish()
local M = {passed = 0, failed = 0}

function M.check(ok, fmt, ...)
  if ok then M.passed = M.passed + 1 else M.failed = M.failed + 1 end
  print((ok and "ok    " or "FAIL  ") .. string.format(fmt, ...))
  return ok
end

function M.finish()
  print(string.format("%d passed, %d failed", M.passed, M.failed))
  os.exit(M.failed == 0 and 0 or 1)
end

return M
