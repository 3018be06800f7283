-- Activation maps tracked while a simulation runs (sim:activation), against
-- an independent computation on probe series of the same samples, and the
-- conduction velocity fitted to them against the one between two probes.
--  * 2D Aliev-Panfilov sheet paced twice from its left edge: at probed cells
--    the tracker's first and last activation, repolarisation, APD90 and DI
--    equal those computed in Lua from the probe's series (same samples, same
--    rule) to float rounding; its count is 2.
--  * The plane fit of the activation map over the middle of the sheet gives
--    the CV between two probes within 0.5%, pointing along +x, with a small
--    residual; a wave from a corner gives a large residual.
--  * Sampling every 4 steps moves activation times by less than one sample
--    interval. Blocks (blockDS) give the same maps bit for bit.
local checks = require "checks"   -- check(ok, fmt, ...), finish()
local check = checks.check

local L, W, dx = 30, 6, 0.2
local function sheet(o)
  local mesh = cardiac.mesh{size = {L, W}, dx = dx}
  local s1 = cardiac.stimulus{region = o.region or cardiac.slab{axis = "x", from = 0, to = 0.6},
                              amplitude = 50, duration = 1, start = 1, period = 250, count = 2}
  local sim = cardiac.simulation{mesh = mesh, model = "aliev_panfilov", dt = 0.02, D = 0.1, stimuli = {s1},
                                 blocks = o.blocks}
  return mesh, sim
end

-- Lua version of the tracker's rule (core/measure/activation.h) on one cell's series.
local function track_series(t, v, thr, frac)
  local r = {count = 0}
  local vmin, peak, in_ap = v[1], v[1], false
  for i = 2, #v do
    local p, x, tp, tn = v[i - 1], v[i], t[i - 1], t[i]
    if not in_ap then
      if p < thr and x >= thr then
        local ta = tp + (thr - p) / (x - p) * (tn - tp)
        r.first = r.first or ta
        r.di = r.repol and ta - r.repol
        r.last, r.count, peak, in_ap = ta, r.count + 1, x, true
      elseif x < vmin then vmin = x end
    else
      peak = math.max(peak, x)
      local level = peak - frac * (peak - vmin)
      if p > level and x <= level then
        r.repol = tp + (p - level) / (p - x) * (tn - tp)
        r.apd, vmin, in_ap = r.repol - r.last, x, false
      end
    end
  end
  return r
end

local mesh, sim = sheet{}
local cells = {{10, 15}, {75, 15}, {140, 20}}
local probe = sim:probe{cells = cells, every = 1}
local act = sim:activation{}
sim:run(520)
local d = probe:data()
for q, c in ipairs(cells) do
  local r = track_series(d.t, d.V[q], act.threshold, act.fraction)
  for _, name in ipairs{"first", "last", "repol", "apd", "di"} do
    local got = act:get(name, c[1], c[2])
    check(r[name] and math.abs(got - r[name]) < 2e-3, "cell (%d,%d) %-5s tracker %.4f ms, from the probe %.4f ms",
          c[1], c[2], name, got, r[name] or 0 / 0)
  end
  check(act:get("count", c[1], c[2]) == 2, "cell (%d,%d) counted %d upstrokes (2 stimuli)", c[1], c[2],
        act:get("count", c[1], c[2]))
end
local lo, hi, mean, n = act:stats("apd")
check(n == mesh.tissue and lo > 0 and hi < 400, "APD90 map: every cell (%d of %d), %.1f..%.1f ms", n, mesh.tissue, lo, hi)

-- CV: plane fit over 8 < x < 22 mm against two probes at x = 8 and 22 mm
local fit = act:cv{region = cardiac.box{min = {8, 0}, max = {22, W}}, map = "first"}
local t1, t2 = act:get("first", 41, 15), act:get("first", 110, 15)
local cv_probe = (110 - 41) * dx / (t2 - t1)
check(math.abs(fit.speed / cv_probe - 1) < 0.005, "CV fit %.4f mm/ms, between cells %.4f mm/ms (%d cells, rms %.2g ms)",
      fit.speed, cv_probe, fit.cells, fit.rms)
check(fit.direction[1] > 0.999, "wave direction (%.4f, %.4f): along +x", fit.direction[1], fit.direction[2])
check(fit.rms < 0.05, "planar wave: fit residual %.3g ms", fit.rms)

-- a wave from a corner is not planar
local _, simc = sheet{region = cardiac.box{min = {0, 0}, max = {1.2, 1.2}}}
local actc = simc:activation{}
simc:run(80)
local fc = actc:cv{}
check(fc.rms > 10 * fit.rms, "wave from a corner: residual %.3g ms (planar: %.2g)", fc.rms, fit.rms)

-- coarser sampling: within one sample interval
local _, sim4 = sheet{}
local act4 = sim4:activation{every = 4}
sim4:run(520)
local worst = 0
for _, c in ipairs(cells) do
  worst = math.max(worst, math.abs(act4:get("first", c[1], c[2]) - act:get("first", c[1], c[2])))
end
check(worst < 4 * 0.02, "sampling every 4 steps moves activation by at most %.4f ms (< %.2f)", worst, 4 * 0.02)

-- blockDS: the same maps bit for bit
local _, simb = sheet{blocks = 4}
local actb = simb:activation{}
simb:run(520)
for _, name in ipairs{"first", "apd", "di", "count"} do
  local a, b = act:field(name), actb:field(name)
  local same = #a == #b
  for i = 1, #a do if not (a[i] == b[i] or (a[i] ~= a[i] and b[i] ~= b[i])) then same = false end end
  check(same, "blocks = 4: map '%s' equal bit for bit", name)
end

-- outputs
os.remove("results/test_activation.h5")
os.remove("results/test_activation.xmf")
act:write("results/test_activation.h5")
local first = cardiac.h5read("results/test_activation.h5", "/maps/first")
check(math.abs(first[75 + 15 * 150 - 150] - act:get("first", 75, 15)) < 1e-6, "HDF5 map /maps/first holds the map")
act:png("results/test_activation.png", {map = "apd", overwrite = true})
check(io.open("results/test_activation.png") ~= nil, "PNG of the APD map written")

-- restart: forgets, counts again
act:restart()
sim:run(10)
check(select(4, act:stats("first")) == 0 and act.origin == sim.t - 10, "restart: nothing seen since t = %.1f ms", act.origin)

-- errors name the problem
local function fails(f, pattern, what)
  local ok, e = pcall(f)
  check(not ok and tostring(e):find(pattern, 1, true) ~= nil, "%s -> %s", what, tostring(e))
end
fails(function() sim:activation{fraction = 1.2} end, "'fraction'", "fraction outside (0, 1)")
fails(function() sim:activation{var = "v"} end, "'threshold'", "other variable without a threshold")
fails(function() sim:activation{var = "w"} end, "no state variable 'w'", "unknown variable")
fails(function() act:field("apd95") end, "no map 'apd95'", "unknown map")
fails(function() act:cv{map = "apd"} end, "must be a map of times", "cv of durations")
fails(function() act:cv{} end, "too few activated cells", "cv before any activation")

checks.finish()
