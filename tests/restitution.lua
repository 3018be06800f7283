-- Restitution of one Mitchell-Schaeffer cell with the pacing library
-- (scripts/pacing.lua): S1-S2 and dynamic protocols.
-- The model's only memory is its gate h, which every action potential ends
-- at the same level (h_min = 4 tau_in / tau_out, Mitchell and Schaeffer
-- 2003), so the next APD depends on the diastolic interval alone: the two
-- protocols must trace one curve APD(DI). Checked:
--  * the S1-S2 curve rises with DI and flattens (APD_max - APD at the
--    largest DI under 2% of APD_max, the gate recovering as exp(-DI/tau_open));
--  * every dynamic point lies on the S1-S2 curve within 1.5 ms where DI >= 40
--    ms, and within 4% on the steep part below (h ends each action potential
--    near h_min, not exactly at it: a little memory, measured 1.0 ms at DI 51
--    ms, 2.3 ms = 3.6% at DI 9 ms);
--  * an S2 inside the refractory period does not capture, and all captured
--    intervals are longer than all blocked ones;
--  * the dynamic protocol stops at 2:1 block.
local pacing = require "pacing"
local tables = require "tables"
local checks = require "checks"   -- check(ok, fmt, ...), finish()
local check = checks.check

local function cell()
  return cardiac.simulation{mesh = cardiac.mesh{n = {1}, dx = 0.1}, model = "mitchell_schaeffer", dt = 0.02, D = 0}
end

local s2 = {}
for interval = 700, 300, -25 do s2[#s2 + 1] = interval end
for interval = 290, 240, -10 do s2[#s2 + 1] = interval end
local s1s2 = pacing.s1s2{sim = cell, amplitude = 0.5, duration = 1, s1 = 700, n = 4, s2 = s2,
                         checkpoint = "results/test_restitution.h5"}
-- for reference only (docs/numerics.md): the paper's leading-order curve, which
-- ends the action potential when h reaches h_min, before v falls to the 90% level
local h_min = 4 * 0.3 / 6
for _, r in ipairs(s1s2) do
  if r.di then r.ms2003 = 150 * math.log((1 - (1 - h_min) * math.exp(-r.di / 120)) / h_min) end
end
print(tables.format(s1s2, {"s2", "di", "apd", "ms2003", "apd_s1", "captured"}))
tables.csv("results/test_restitution_s1s2.csv", s1s2, {"s2", "di", "apd", "apd_s1", "captured"}, {overwrite = true})

-- the captured points, by increasing DI
local curve, blocked_max, captured_min = {}, -math.huge, math.huge
for _, r in ipairs(s1s2) do
  if r.captured then curve[#curve + 1] = r; captured_min = math.min(captured_min, r.s2)
  else blocked_max = math.max(blocked_max, r.s2) end
end
table.sort(curve, function(a, b) return a.di < b.di end)
local rising = #curve >= 10
for q = 2, #curve do rising = rising and curve[q].apd > curve[q - 1].apd end
check(rising, "S1-S2: APD rises with DI over %d captured S2 (DI %.1f .. %.1f ms, APD %.1f .. %.1f ms)", #curve,
      curve[1].di, curve[#curve].di, curve[1].apd, curve[#curve].apd)
check(blocked_max > 0 and blocked_max < captured_min,
      "S1-S2: S2 at %g ms and shorter blocked, at %g ms and longer captured", blocked_max, captured_min)
local top = curve[#curve]
check((top.apd_s1 - top.apd) / top.apd_s1 < 0.02, "S1-S2: flat at long DI: APD %.1f ms at DI %.0f, S1 beat %.1f ms",
      top.apd, top.di, top.apd_s1)

-- APD on the S1-S2 curve at di: the parabola through the three nearest
-- points (the curve bends too much at short DI for straight lines); nil
-- outside the curve
local function on_curve(di)
  if di < curve[1].di or di > curve[#curve].di then return nil end
  local q = 2
  while q < #curve - 1 and curve[q].di < di do q = q + 1 end
  local p = {curve[q - 1], curve[q], curve[q + 1]}
  local y = 0
  for i = 1, 3 do
    local w = p[i].apd
    for j = 1, 3 do if j ~= i then w = w * (di - p[j].di) / (p[i].di - p[j].di) end end
    y = y + w
  end
  return y
end

local dyn = pacing.dynamic{sim = cell, amplitude = 0.5, bcl = {700, 550, 450, 400, 360, 330, 310, 295, 285, 275,
  265, 255, 245, 235, 225, 215, 205, 195},
                           n = 8}
for _, r in ipairs(dyn) do r.s1s2_apd = r.di and on_curve(r.di) end
print(tables.format(dyn, {"bcl", "di", "apd", "s1s2_apd", "beats"}))
tables.csv("results/test_restitution_dynamic.csv", dyn, {"bcl", "di", "apd", "s1s2_apd", "beats"}, {overwrite = true})
local worst, worst_short, compared = 0, 0, 0
for _, r in ipairs(dyn) do
  if r.beats == 8 and r.s1s2_apd then
    local d = math.abs(r.apd - r.s1s2_apd)
    if r.di >= 40 then worst = math.max(worst, d) else worst_short = math.max(worst_short, d / r.apd) end
    compared = compared + 1
  end
end
check(compared >= 10 and worst < 1.5, "dynamic points on the S1-S2 curve: %d compared, at DI >= 40 ms within %.3f ms",
      compared, worst)
check(worst_short < 0.04, "dynamic points on the S1-S2 curve at DI < 40 ms (APD slope > 2): within %.1f%%",
      100 * worst_short)
local last = dyn[#dyn]
check(last.beats < 8 and last.bcl > 240, "dynamic: 2:1 block at BCL %g ms (%d beats of 8), protocol stopped", last.bcl,
      last.beats)

-- the restitution curve as a picture (tables.plot, gnuplot): both protocols on one plot
local both = {}
for _, r in ipairs(curve) do both[#both + 1] = {di = r.di, s1s2 = r.apd} end
for _, r in ipairs(dyn) do if r.beats == 8 then both[#both + 1] = {di = r.di, dynamic = r.apd} end end
table.sort(both, function(a, b) return a.di < b.di end)
local png = tables.plot("results/test_restitution.png", both, {x = "di", y = {"s1s2", "dynamic"}, style = "points", overwrite = true,
  title = "Mitchell-Schaeffer cell: APD90 restitution", xlabel = "DI (ms)", ylabel = "APD90 (ms)"})
local f = io.open(png, "rb")
local magic = f and f:read(8)
if f then f:close() end
check(magic == "\137PNG\r\n\26\n", "restitution curve drawn: %s", png)

-- errors name the option
local ok, e = pcall(pacing.s1s2, {sim = cell, amplitude = 0.5, s1 = 500, s2 = {300}, bcl = 3})
check(not ok and tostring(e):find("unknown option 'bcl'", 1, true), "unknown option -> %s", tostring(e))
ok, e = pcall(pacing.dynamic, {sim = cell, bcl = {500}})
check(not ok and tostring(e):find("missing 'amplitude'", 1, true), "missing amplitude -> %s", tostring(e))

checks.finish()
