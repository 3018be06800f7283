-- Snapshots (sim:save, sim:restore(snapshot)): a checkpoint held in memory.
--  * A trial from a snapshot equals, bit for bit in every state variable, the
--    same trial from a checkpoint file and the uninterrupted run: Karma fp32
--    and fp64 with a shock added after the restore, and gaur_rudy with its
--    release units (the dyads' random numbers continue from the restored step)
--    and a RyR clamp added after the restore.
--  * One snapshot restores many times, into the simulation that took it or a
--    fresh one; the parameter sets come back with params = true and only then.
--  * Another mesh, tissue, dt, precision or model is refused naming the
--    difference, and the refused simulation is left as it was; a freed
--    snapshot and convert_dt are refused.
local checks = require "checks"   -- check(ok, fmt, ...), worst_diff(a, b), finish()
local check = checks.check
cardiac.quiet = true

local worst_diff = checks.worst_diff
local file = "results/test_snapshot.h5"

-- Karma: a wave from the left edge, saved at 30 ms; a trial adds a shock over
-- the right half at 35 ms and runs to 80 ms
local mesh = cardiac.mesh{n = {48, 32}, dx = 0.5}
local function karma(precision)
  local s = cardiac.simulation{mesh = mesh, model = "karma", dt = 0.05, D = 0.1, precision = precision}
  s:set("U", 3, cardiac.slab{axis = "x", from = 0, to = 2})
  return s
end
local function trial(s)
  s:add_stimulus(cardiac.stimulus{region = cardiac.box{min = {12, 0}, max = {24, 16}}, amplitude = 2, duration = 3,
                                  start = 35})
  s:run(80 - s.t)
  return s
end
for _, precision in ipairs{"fp32", "fp64"} do
  local ref = karma(precision)
  ref:run(30)
  local snap = ref:save()
  ref:checkpoint(file, {overwrite = true})
  trial(ref)
  local from_file = karma(precision)
  from_file:restore(file)
  trial(from_file)
  local again = karma(precision)
  again:run(5)                                  -- another history: the restore must replace all of it
  check(again:restore(snap) == 30 and again.steps == 600, "Karma %s: restored to t = %g ms, step %d", precision,
        again.t, again.steps)
  trial(again)
  check(worst_diff(again, ref) == 0 and worst_diff(again, from_file) == 0,
        "Karma %s: a trial from the snapshot equals the uninterrupted run and the one from the file bit for bit " ..
        "(largest differences %g, %g)", precision, worst_diff(again, ref), worst_diff(again, from_file))
  -- the same snapshot again, into the simulation that ran the first trial
  again:restore(snap)
  again:run(80 - again.t)                       -- its shock at 35 ms is still there: the same trial
  check(worst_diff(again, ref) == 0, "Karma %s: restored twice, the same trial again bit for bit", precision)
  check(snap.bytes >= 2 * mesh.ncells * (precision == "fp64" and 8 or 4),
        "Karma %s: the snapshot holds %d bytes for 2 x %d cells", precision, snap.bytes, mesh.ncells)
  snap:free()
end

-- gaur_rudy: release units whose draws depend on the step; a RyR clamp after the restore
local function gaur()
  return cardiac.simulation{mesh = cardiac.mesh{n = {3, 2}, dx = 0.1}, model = cardiac.model("gaur_rudy",
    {dyads = 10, seed = 7}), dt = 0.02, D = 0.1, precision = "fp64"}
end
local function ryr_trial(s)
  s:clamp_ryr{region = cardiac.cells{{1, 1}}, start = 12, duration = 5}
  s:run(30 - s.t)
end
local g = gaur()
g:run(10)
local gsnap = g:save()
g:checkpoint(file, {overwrite = true})
ryr_trial(g)
local gf = gaur()
gf:restore(file)
ryr_trial(gf)
local gm = gaur()
gm:restore(gsnap)
ryr_trial(gm)
check(worst_diff(gm, g) == 0 and worst_diff(gm, gf) == 0 and g:get("cajsr", 1, 1) ~= g:get("cajsr", 3, 2),
      "gaur_rudy: a RyR-clamp trial from the snapshot equals the uninterrupted run and the file's bit for bit " ..
      "(largest differences %g, %g; cajsr of the clamped cell %.4g, of the far one %.4g)", worst_diff(gm, g),
      worst_diff(gm, gf), g:get("cajsr", 1, 1), g:get("cajsr", 3, 2))
local other_seed = cardiac.simulation{mesh = cardiac.mesh{n = {3, 2}, dx = 0.1}, model = cardiac.model("gaur_rudy",
  {dyads = 10, seed = 8}), dt = 0.02, D = 0.1, precision = "fp64"}
local ok, e = pcall(other_seed.restore, other_seed, gsnap)
check(not ok and tostring(e):find("seed 7", 1, true), "gaur_rudy: another seed refused: %s", tostring(e))

-- parameters: adopted with params = true only
local p = cardiac.simulation{mesh = mesh, model = "karma", dt = 0.05, D = 0.1}
p:set_param({eps = 0.02}, cardiac.box{min = {0, 0}, max = {5, 5}})
local psnap = p:save()
local q = cardiac.simulation{mesh = mesh, model = "karma", dt = 0.05, D = 0.1}
q:restore(psnap)
local kept = q:param_sets()
q:restore(psnap, {params = true})
check(kept == 1 and q:param_sets() == 2 and q:param("eps", 1, 1) == p:param("eps", 1, 1) and q:param("eps", 20, 14) == 0.01,
      "parameters: %d set(s) without params, %d with params = true (eps %g in the zone, %g outside)", kept,
      q:param_sets(), q:param("eps", 1, 1), q:param("eps", 20, 14))

-- refusals, each naming the difference; the refused simulation keeps its state and time
local snap = karma("fp32"):save()
local function refused(s, pattern, what, opts)
  local t, u = s.t, s:get(s.model == "karma" and "U" or "u", 1, 1)
  local ok2, e2 = pcall(s.restore, s, snap, opts)
  check(not ok2 and tostring(e2):find(pattern, 1, true) ~= nil and s.t == t and
        s:get(s.model == "karma" and "U" or "u", 1, 1) == u, "%s -> %s", what, tostring(e2))
end
refused(cardiac.simulation{mesh = cardiac.mesh{n = {32, 48}, dx = 0.5}, model = "karma", dt = 0.05, D = 0.1},
        "snapshot is of a 48x32x1 mesh; this simulation's is 32x48x1", "another mesh")
refused(cardiac.simulation{mesh = cardiac.mesh{n = {48, 32}, dx = 0.25}, model = "karma", dt = 0.05, D = 0.1},
        "snapshot is of a mesh of 0.5 x 0.5 mm cells", "another spacing")
local holed = cardiac.mesh{n = {48, 32}, dx = 0.5}
holed:set_tissue(cardiac.sphere{center = {12, 8}, radius = 2}, false)
refused(cardiac.simulation{mesh = holed, model = "karma", dt = 0.05, D = 0.1}, "other tissue cells", "other tissue")
refused(cardiac.simulation{mesh = mesh, model = "karma", dt = 0.04, D = 0.1}, "taken at dt = 0.05 ms", "another dt")
refused(cardiac.simulation{mesh = mesh, model = "karma", dt = 0.05, D = 0.1, precision = "fp64"},
        "snapshot holds a fp32 state; this simulation's is fp64", "another precision")
refused(cardiac.simulation{mesh = mesh, model = "fenton_karma", dt = 0.05, D = 0.1}, "holds model 'karma'",
        "another model")
refused(karma("fp32"), "'convert_dt' is for checkpoint files", "convert_dt", {convert_dt = true})
snap:free()
refused(karma("fp32"), "this snapshot was freed", "a freed snapshot")
os.remove(file)
checks.finish()
