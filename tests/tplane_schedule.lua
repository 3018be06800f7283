-- scripts/tplane_schedule.lua models the faces-first plans in Lua for the
-- notebook's predictions; cuda/tplane_plan.h plans them for the launches.
-- The two must choose the same plans: here the script's, for the shapes whose
-- plans tests/test_tplane_plan.cpp pins on the C++ side (512^3 and 1024^3 on 2
-- ranks and on a middle rank of 4; 256^3 launches the one-wave plan, which the
-- script's "planned" column does not model).
local checks = require "checks"
local check = checks.check
local root = (arg[0]:match("(.*/)") or "./") .. "../"
local p = assert(io.popen(('"%s" "%s" "%s" 2>&1'):format(arg[-1], root .. "scripts/tplane_schedule.lua",
                                                         root .. "docs/data/scaling-h200x4-5d9ef58.csv")))
local out = p:read("a")
p:close()
local plans = {}
for grid, ranks, plan in out:gmatch("| (%d+)%^3 | (%d) |[^\n]*| (faces [^|\n]-) |") do plans[grid .. "/" .. ranks] = plan end
local want = {
  ["512/2"] = "faces 85 planes, chunks of 86: 183 iterations, faces at 91",
  ["512/4"] = "faces 34 planes, chunks of 15: 103 iterations, faces at 80",
  ["1024/2"] = "faces 3 planes, chunks of 255: 1329 iterations, faces at 27",
  ["1024/4"] = "faces 3 planes, chunks of 125: 700 iterations, faces at 45",
}
for _, k in ipairs{"512/2", "512/4", "1024/2", "1024/4"} do
  check(plans[k] == want[k], "%s^3 on %s ranks: '%s'", k:match("^%d+"), k:match("%d+$"), tostring(plans[k]))
end
checks.finish()
