-- Resting tissue skipped by tplane's launches (cuda/rest_region.cu; docs/gpu.md,
-- "Resting tissue") against the same runs with every cell stepped
-- (skip_rest = false): every state equal over the whole grid (max |difference|
-- 0) at every comparison, in fp32 with the models whose quiet V steps by
-- itself (Karma, Mitchell-Schaeffer), with settles every 64 launches and
-- before launches with a stimulus on:
--   * the thesis' plane wave into tissue where U is +0 and v decays (skipped
--     planes brought forward when the wave nears them), compared after runs
--     of 1, 7 and 300 steps and of 1,200 (each call to step ends with every
--     plane brought up to date);
--   * the same wave until the tissue behind it has settled (U unchanged at
--     tiny values, not +0), which the launches then skip too (sim.stepped_share
--     shows it), with Karma and Mitchell-Schaeffer; D changed between calls;
--   * tissue where nothing is quiet for 190 ms: tracking pauses and resumes;
--   * a point stimulus in tissue at rest (the launches with the stimulus on
--     step every plane; the box then grows both ways);
--   * U set far ahead of the wave between two calls, a checkpoint restored
--     into a third simulation, a probe read every step;
--   * tiles with x and y halos, K = 1, 2 and 3, parameters off their defaults
--     (the general kernels), and an ensemble of members with their own D.
-- The skipped run must also be faster where most of the box rests: the
-- thesis' case at 256^3 is timed by protocols/rest_skip.lua. Skipped (exit
-- code 77) where no GPU is usable.
local t = require "checks"
local check, worst = t.check, t.worst_diff
local gpu = t.require_gpu()
cardiac.quiet = true
print(("GPU: %s, compute capability %s"):format(gpu.name, gpu.compute_capability))

-- a pair of simulations alike but for skip_rest; spec: n, model, D, dt,
-- tsteps, block, params, init(sim), members
local function pair(spec)
  local mesh = cardiac.mesh{n = spec.n, dx = 0.5}
  local function make(skip)
    local sim = cardiac.simulation{mesh = mesh, model = spec.model, dt = spec.dt or 0.05, D = spec.D or 0.1,
                                   backend = "cuda", layout = "tplane", tsteps = spec.tsteps, block = spec.block,
                                   members = spec.members, skip_rest = skip}
    if spec.params then sim:set_param(spec.params) end
    if spec.init then spec.init(sim) end
    return sim
  end
  return make(true), make(false)
end

local function thesis(sim)
  sim:set("v", 0.5)
  sim:set("U", 3.0, cardiac.slab{axis = "z", from = 0, to = 3})
end

-- 1. the thesis' case on a small box, in calls of several lengths
for _, K in ipairs{3, 2, 1} do
  local a, b = pair{n = {40, 24, 96}, model = "karma", D = 0.04, tsteps = K, init = thesis}
  check(a.skip_rest == true and b.skip_rest == false, "skip_rest reads back")
  if K == 3 then
    a:step(300); b:step(300)
    check(a.stepped_share < 0.9 and b.stepped_share == 1,
          ("stepped_share: %.3f skipped (some of the box rests), %g every cell"):format(a.stepped_share, b.stepped_share))
  end
  local w = 0
  for _, n in ipairs{1, 7, 300, 1200} do
    a:step(n)
    b:step(n)
    w = math.max(w, worst(a, b))
  end
  local _, top = a:stats("U")
  check(w == 0, ("thesis' plane wave, tsteps %d, calls of 1, 7, 300, 1200 steps: max |difference| %g (U up to %.2f)")
    :format(K, w, top))
  a:close(); b:close()
end

-- 1a. the wave through a short box (D = 0.1: it leaves the box within 200 ms)
-- until the tissue behind it has settled: V stays at tiny values there (in
-- fp32 the decay's last step rounds away), where it changes no more; the
-- launches skip it as they skip tissue at rest. Compared after each of four
-- calls; a CPU cable of each case has every plane settled by the third (Karma
-- by 400 ms, Mitchell-Schaeffer by 900 ms). Until then every plane is
-- active, so tracking pauses (below, 1c) and takes up to 576 launches to
-- resume once the tissue has settled; in the fourth call skipping only
-- tissue at rest (V = +0) would step every plane
for _, case in ipairs{{"karma", thesis, "U", 4000},
                      {"mitchell_schaeffer", function(sim) sim:set("v", 0.9, cardiac.slab{axis = "z", from = 0, to = 2}) end,
                       "v", 9000}} do
  local a, b = pair{n = {40, 24, 48}, model = case[1], D = 0.1, init = case[2]}
  local w, before, call = 0, nil, case[4]
  for i = 1, 4 do
    if i == 4 then before = a.stepped_share * a.steps end
    a:step(call); b:step(call)
    w = math.max(w, worst(a, b))
  end
  local window = (a.stepped_share * a.steps - before) / call
  local lo, hi = a:stats(case[3])
  check(w == 0, ("%s: the wave through the box and the tissue behind it settled, %d ms: max |difference| %g"
    .. " (%s in [%g, %g] at the end)"):format(case[1], 4 * call // 20, w, case[3], lo, hi))
  check(window < 0.5, ("%s: share of the plane-steps stepped in the fourth call %.3f (settled tissue skipped)")
    :format(case[1], window))
  -- D changed between calls: settled tissue need not stay settled under
  -- another step, so the launches learn anew where it is quiet
  a:set_D(0.4); b:set_D(0.4)
  a:step(2000); b:step(2000)
  check(worst(a, b) == 0, ("%s: D = 0.4 from then on, 2,000 steps: max |difference| %g"):format(case[1], worst(a, b)))
  a:close(); b:close()
end

-- 1c. U = 1e-3 everywhere ahead of the wave: no plane is quiet until U has
-- decayed to about 1e-38 (some 190 ms), so tracking pauses (the launches
-- between two of its probes stepped 97% or more) and starts anew 512
-- launches later, more than once; then it skips the settled planes ahead of
-- the wave (beyond plane 110 or so of 240 at 200 ms: the front near 60, U not
-- +0 some 40 planes ahead of it), which only a resumed tracking can
for _, K in ipairs{3, 2} do
  local a, b = pair{n = {40, 24, 240}, model = "karma", D = 0.04, tsteps = K, init = function(sim)
    sim:set("v", 0.5)
    sim:set("U", 1e-3)
    sim:set("U", 3.0, cardiac.slab{axis = "z", from = 0, to = 3})
  end}
  local w = 0
  for _ = 1, 3 do
    a:step(3000); b:step(3000)
    w = math.max(w, worst(a, b))
  end
  check(w == 0 and a.stepped_share < 1, ("no plane quiet for 190 ms, tsteps %d (tracking paused, then resumed), 450 ms:"
    .. " max |difference| %g, stepped share %.3f"):format(K, w, a.stepped_share))
  a:close(); b:close()
end

-- 1b. the same with a stimulus far ahead of the wave at 30 ms: the skipped
-- planes, whose v has decayed since, are brought up to date before the
-- launches with the stimulus on, which step every plane
do
  local function init(sim)
    thesis(sim)
    sim:add_stimulus(cardiac.stimulus{region = cardiac.slab{axis = "z", from = 40, to = 41}, amplitude = 3,
                                      start = 30, duration = 1})
  end
  local a, b = pair{n = {40, 24, 96}, model = "karma", D = 0.04, init = init}
  a:step(500); b:step(500)
  local w = worst(a, b)
  a:step(700); b:step(700)
  w = math.max(w, worst(a, b))
  local _, top = a:stats("U")
  check(w == 0, ("plane wave and a stimulus ahead of it at 30 ms: max |difference| %g (U up to %.2f)"):format(w, top))
  a:close(); b:close()
end

-- 2. a point stimulus in tissue at rest, on tiles with x and y halos
for _, block in ipairs{false, {32, 4}} do
  local function stim(sim)
    sim:add_stimulus(cardiac.stimulus{region = cardiac.sphere{center = {12, 10, 24}, radius = 1.5}, amplitude = 3,
                                      start = 2, duration = 2})
  end
  local a, b = pair{n = {48, 40, 100}, model = "karma", block = block or nil, init = stim}
  a:step(400); b:step(400)
  local w = worst(a, b)
  a:step(800); b:step(800)
  w = math.max(w, worst(a, b))
  check(w == 0, ("point stimulus at rest%s, 1,200 steps: max |difference| %g")
    :format(block and " on 32 x 4 thread tiles (x and y halos)" or "", w))
  a:close(); b:close()
end

-- 3. U set far ahead of the wave between calls, a checkpoint, a probe every step
do
  local a, b = pair{n = {40, 24, 120}, model = "karma", D = 0.04, init = thesis}
  a:step(300); b:step(300)
  for _, sim in ipairs{a, b} do sim:set("U", 2.5, cardiac.slab{axis = "z", from = 50, to = 52}) end
  a:step(300); b:step(300)
  check(worst(a, b) == 0, "U set ahead of the wave between two calls: equal 300 steps later")
  local file = os.tmpname() .. ".h5"
  a:checkpoint(file, {overwrite = true})
  local c = cardiac.simulation{mesh = cardiac.mesh{n = {40, 24, 120}, dx = 0.5}, model = "karma", dt = 0.05,
                               D = 0.04, backend = "cuda", layout = "tplane"}
  c:restore(file)
  os.remove(file)
  local pa = a:probe{cells = {{20, 12, 100}}, vars = {"U", "v"}}
  local pb = b:probe{cells = {{20, 12, 100}}, vars = {"U", "v"}}
  a:step(200); b:step(200); c:step(200)
  check(worst(a, b) == 0 and worst(a, c) == 0,
        "probe read every step, and a checkpoint restored: all three equal 200 steps later")
  local da, db = pa:data(), pb:data()
  local same = #da.t == #db.t and #da.t > 0
  for i = 1, #da.t do same = same and da.v[1][i] == db.v[1][i] and da.U[1][i] == db.U[1][i] end
  check(same, ("the probes' %d samples of U and v equal"):format(#da.t))
  a:close(); b:close(); c:close()
end

-- 4. parameters off their defaults (the general kernels) and Mitchell-Schaeffer
do
  local a, b = pair{n = {40, 24, 96}, model = "karma", D = 0.04, params = {xm = 9.5, eps = 0.012}, init = thesis}
  a:step(900); b:step(900)
  check(worst(a, b) == 0, ("Karma with xm = 9.5, eps = 0.012: max |difference| %g"):format(worst(a, b)))
  a:close(); b:close()
  local function ms(sim) sim:set("v", 0.9, cardiac.slab{axis = "z", from = 0, to = 2}) end
  a, b = pair{n = {40, 24, 96}, model = "mitchell_schaeffer", init = ms}
  a:step(900); b:step(900)
  local w = worst(a, b)
  local _, top = a:stats("v")
  check(w == 0, ("Mitchell-Schaeffer plane wave: max |difference| %g (V up to %.2f)"):format(w, top))
  a:close(); b:close()
end

-- 5. an ensemble of 12 sheets stacked along z, each with its own D, one
-- stimulated (the others rest: their planes are skipped)
do
  local a, b = pair{n = {64, 48, 12}, model = "karma", D = 0.04, members = 12, init = function(sim)
    for k = 1, 12 do sim:set_D(0.02 + 0.005 * k, k) end
    sim:set("U", 3.0, cardiac.box{min = {0, 0, 2.5}, max = {2, 24, 3}})
  end}
  a:step(600); b:step(600)
  check(worst(a, b) == 0, ("ensemble of 12 sheets with their own D, one excited: max |difference| %g")
    :format(worst(a, b)))
  a:close(); b:close()
end

t.finish()
