-- Pseudo-ECG (sim:ecg, core/measure/ecg.h).
--  * A prescribed linear V = a x on a cable, electrode on its axis beyond the
--    end at x_e: phi = -D a (1/(x_e - L) - 1/x_e) exactly for the integral;
--    the cell sum (midpoint rule, exact one-sided gradient at the ends) within
--    0.1%. A uniform V gives 0 in 2D and 3D.
--  * A wave along a cable: positive at an electrode it travels towards,
--    negative at one it leaves, while the front is in the cable.
--  * blocks (blockDS) give the same samples bit for bit.
local checks = require "checks"   -- check(ok, fmt, ...), finish()
local check = checks.check
cardiac.quiet = true

-- prescribed field
local Lc, h, D, a, xe = 10, 0.05, 0.1, 2.0, 14
local cable = cardiac.simulation{mesh = cardiac.mesh{size = {Lc}, dx = h}, model = "aliev_panfilov", dt = 0.01, D = D}
cable:set("V", function(x) return -80 + a * x end)
local e = cable:ecg{electrodes = {{xe}, {-4}}}
local exact = -D * a * (1 / (xe - Lc) - 1 / xe)
local exact_behind = D * a * (1 / 4 - 1 / (Lc + 4))    -- x - x_e > 0 for every cell
local got = e:data()
check(math.abs(got[1][1] / exact - 1) < 1e-3, "linear V, electrode ahead: %.6f (exact %.6f)", got[1][1], exact)
check(math.abs(got[2][1] / exact_behind - 1) < 1e-3, "linear V, electrode behind: %.6f (exact %.6f)", got[2][1],
      exact_behind)
for _, n in ipairs{{40, 30}, {20, 16, 12}} do
  local s = cardiac.simulation{mesh = cardiac.mesh{n = n, dx = 0.25}, model = "karma", dt = 0.05, D = 0.1}
  s:set("U", 2.5)
  local u = s:ecg{electrodes = {{-3, 2, 1}, {5, 5, 8}}}:data()
  check(u[1][1] == 0 and u[2][1] == 0, "%dD uniform V: %g, %g", #n, u[1][1], u[2][1])
end

-- a travelling wave
local function wave(blocks)
  local s = cardiac.simulation{mesh = cardiac.mesh{size = {20, 2}, dx = 0.2}, model = "aliev_panfilov", dt = 0.02,
    D = 0.1, blocks = blocks, stimuli = {cardiac.stimulus{region = cardiac.slab{axis = "x", from = 0, to = 1},
                                                          amplitude = 50, duration = 1}}}
  local l = s:ecg{electrodes = {{30, 1, 0}, {-10, 1, 0}}, interval = 0.5}
  s:run(40)
  return l:data()
end
local w = wave()
local ahead, behind = true, true
for q, t in ipairs(w.t) do
  if t >= 8 and t <= 30 then ahead = ahead and w[1][q] > 0; behind = behind and w[2][q] < 0 end
end
check(ahead and behind, "wave front in the cable (8-30 ms): positive ahead, negative behind")
local wb = wave(2)
local same = #wb.t == #w.t
for q = 1, #w.t do same = same and w[1][q] == wb[1][q] and w[2][q] == wb[2][q] end
check(same, "blocks = 2: %d samples equal bit for bit", #w.t)
local p = cable:ecg{electrodes = {{1}}, name = "one"}
check(p.name == "one" and p.samples == 1 and #p.electrodes == 1, "fields: name, samples, electrodes")

local function fails(f, pattern, what)
  local ok, err = pcall(f)
  check(not ok and tostring(err):find(pattern, 1, true) ~= nil, "%s -> %s", what, tostring(err))
end
fails(function() cable:ecg{} end, "'electrodes' must be a list", "no electrodes")
fails(function() cable:ecg{electrodes = {{1}, "x"}} end, "electrode 2 must be a point", "bad electrode")
local sheet = cardiac.simulation{mesh = cardiac.mesh{n = {10, 10}, dx = 0.25}, model = "karma", dt = 0.05, D = 0.1}
fails(function() sheet:ecg{electrodes = {{1}}} end, "needs 2 coordinates", "too few coordinates")

checks.finish()
