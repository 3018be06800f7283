-- The two storage and update schemes measured for ORd before any kernel has
-- them (protocols/ord_half_gates.lua, protocols/ord_multirate.lua;
-- docs/gpu-notebook.md items 27 and 28), on short cables:
--  * slow states updated every step through the multirate hook are the
--    unaltered cable (differences print as 0.0000 ms: the hook's arithmetic
--    is exact);
--  * the 14 slow states every 10 steps and the 15 fast gates in half stay
--    within 0.01 ms of activation and 0.3 ms of APD90 over a beat;
--  * j in half delays the second beat by more than issue 34's 1 ms bound
--    (it stops short of its recovery), as a 16-bit fraction it does not;
--  * every gate in 16 bits (precision fp32g's storage) holds the second
--    beat within the bounds under multirate = 10 and not without it;
--  * diffusion every 2nd step with twice D speeds the wave by more than 5%.
local checks = require "checks"
local check = checks.check
local root = (arg[0]:match("(.*/)") or "./") .. "../"

-- the protocol's line for what it compares: max |dT| of the first beat, of the
-- latest, and the latest APD90's
local function run(script, args)
  local p = assert(io.popen(('"%s" "%s" %s 2>&1'):format(arg[-1], root .. "protocols/" .. script, args)))
  local out = p:read("a")
  p:close()
  local dT, dL, dA = out:match("max |dT| +([%d.]+) ms +latest beat: max |dT| +([%d.]+) ms, max |dAPD90| +([%d.]+) ms")
  return tonumber(dT), tonumber(dL), tonumber(dA), out
end

local dT, dL, dA, out = run("ord_multirate.lua", "20 300 1 slow")
check(dT == 0 and dL == 0 and dA == 0, "every step through the multirate hook: dT %s, %s, dAPD90 %s ms%s",
      tostring(dT), tostring(dL), tostring(dA), dT and "" or (" (" .. out:gsub("\n", " | ") .. ")"))
dT, dL, dA, out = run("ord_multirate.lua", "20 300 10 slow")
check(dT and dT < 0.01 and dA < 0.3, "14 slow states every 10 steps: dT %s, dAPD90 %s ms", tostring(dT), tostring(dA))
dT, dL, dA, out = run("ord_half_gates.lua", "20 300 m,hf,hs,hsp,mL,a,iF,ap,iFp,d,ff,fcaf,ffp,fcafp,xk1")
check(dT and dT < 0.01 and dA < 0.3, "15 gates in half: dT %s, dAPD90 %s ms", tostring(dT), tostring(dA))
dT, dL, dA, out = run("ord_half_gates.lua", "40 1300 j endo 1000")
check(dT and dT < 0.1 and dL > 1, "j in half: the first beat within 0.1 ms (%s), the second more than 1 ms late (%s)",
      tostring(dT), tostring(dL))
-- as a 16-bit fraction (precision fp32g's storage) j holds: the second beat on time
dT, dL, dA, out = run("ord_half_gates.lua", "40 1300 j endo 1000 fraction")
check(dT and dT < 0.1 and dL < 0.5, "j as a 16-bit fraction: the first beat within 0.1 ms (%s), the second within 0.5 ms (%s)",
      tostring(dT), tostring(dL))
-- every gate in 16 bits (fp32h's 15 in half, the other 13 as fractions) holds
-- under multirate = 10, not without it (the slow gates stop short)
dT, dL, dA, out = run("ord_half_gates.lua", "20 1300 all endo 1000 split 10")
check(dT and dL < 1 and dA < 2, "every gate in 16 bits with multirate = 10: second beat dT %s, dAPD90 %s ms",
      tostring(dL), tostring(dA))
dT, dL, dA, out = run("ord_half_gates.lua", "20 1300 all endo 1000 split")
check(dT and dA > 2, "every gate in 16 bits without multirate: second beat's APD90 %s ms off (over 2)", tostring(dA))
-- diffusion every 2nd step with 2 D (two ionic steps per diffusion step, what
-- a kernel keeping the state on chip for two steps without the neighbours'
-- V between them would do): the wave runs about 8% fast at the heart's dx
local p = assert(io.popen(('"%s" "%s" 40 0.5 0.3 2 2>&1'):format(arg[-1], root .. "protocols/ord_split_diffusion.lua")))
out = p:read("a")
p:close()
local dTs, cvk, cv1 = out:match("max |dT| ([%d.]+) ms.-CV ([%d.]+) against ([%d.]+) m/s")
check(dTs and tonumber(cvk) > 1.05 * tonumber(cv1) and tonumber(dTs) > 1,
      "diffusion every 2nd step: CV %s against %s m/s, activation %s ms off (more than 5%% and 1 ms)", tostring(cvk),
      tostring(cv1), tostring(dTs))
checks.finish()
