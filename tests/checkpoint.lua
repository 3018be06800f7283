-- Checkpoints (sim:checkpoint, sim:restore): a run saved half way and
-- continued in a new simulation ends bit for bit where the uninterrupted run
-- ends, for every state variable, with a stimulus train that switches on and
-- off after the checkpoint, in fp32 and fp64, row-major and in blocks, and
-- for a 41-state model, and with regional parameters restored from the file;
-- one checkpoint branches several runs; a restored
-- simulation's probes and activation maps start from the restored time. Bad
-- checkpoints are refused with the reason, and a refused restore leaves the
-- simulation as it was.
local checks = require "checks"   -- check(ok, fmt, ...), worst_diff(a, b), finish()
local check = checks.check

local function make(o)
  local mesh = o.mesh or cardiac.mesh{size = {12, 8}, dx = 0.2}
  local s1 = cardiac.stimulus{region = cardiac.slab{axis = "x", from = 0, to = 0.6}, amplitude = o.amp or 50,
                              duration = 1, start = 1, period = o.period or 30, count = 4}
  return cardiac.simulation{mesh = mesh, model = o.model or "aliev_panfilov", dt = o.dt or 0.02, D = 0.1,
                            stimuli = {s1}, precision = o.precision, blocks = o.blocks}
end

local same_state = checks.worst_diff

local file = "results/test_checkpoint.h5"
local cases = {
  {name = "Aliev-Panfilov fp32", o = {}, half = 1500},
  {name = "Aliev-Panfilov fp64", o = {precision = "fp64"}, half = 1500},
  {name = "Aliev-Panfilov fp32 in blocks of 4", o = {blocks = 4}, half = 1500},
  {name = "O'Hara-Rudy fp64 (41 states)", o = {model = "ohara_rudy", precision = "fp64", dt = 0.01, amp = 80,
    period = 5, mesh = cardiac.mesh{size = {1.2, 0.8}, dx = 0.1}}, half = 600},
  {name = "O'Hara-Rudy fp32h (15 gates in half) in blocks of 2", o = {model = "ohara_rudy", precision = "fp32h",
    dt = 0.01, amp = 80, period = 5, blocks = 2, mesh = cardiac.mesh{size = {1.2, 0.8}, dx = 0.1}}, half = 600},
}
for _, c in ipairs(cases) do
  local ref = make(c.o)
  ref:step(c.half)
  ref:checkpoint(file, {overwrite = true})
  ref:step(c.half)
  local cont = make(c.o)
  local t = cont:restore(file)
  check(t == c.half * cont.dt and cont.steps == c.half, "%s: restored t = %g ms, step %d", c.name, t, cont.steps)
  cont:step(c.half)
  local d = same_state(ref, cont)
  check(d == 0 and cont.t == ref.t, "%s: continued run ends equal to the uninterrupted one (max |diff| %g)", c.name, d)
end

-- one checkpoint, two branches: a parameter sweep from a shared state
local base = make{}
base:step(1000)
base:checkpoint(file, {overwrite = true})
local branch = {}
for i, D in ipairs{0.05, 0.2} do
  branch[i] = make{}
  branch[i]:restore(file)
  branch[i]:set_D(D)
  branch[i]:step(500)
end
check(branch[1]:diff(branch[2]) > 0, "two branches with different D from one checkpoint differ (%.3g)", branch[1]:diff(branch[2]))

-- parameters changed in a region along the way: a restore with params = true
-- adopts the checkpoint's sets and cells and continues bit for bit; without
-- it the script's (homogeneous) parameters stay, and the runs part
local reg = make{}
reg:step(500)
reg:set_param("k", 6.0, cardiac.slab{axis = "x", from = 4, to = 8})
reg:set_param({a = 0.12, k = 7.5}, cardiac.sphere{center = {9, 4}, radius = 2})
reg:step(500)
reg:checkpoint(file, {overwrite = true})
reg:step(1000)
local resumed, plain = make{}, make{}
resumed:restore(file, {params = true})
plain:restore(file)
check(resumed:param_sets() == reg:param_sets() and resumed:param("k", 5, 4) == 6.0 and resumed:param("a", 9, 4) == 0.12
      and plain:param_sets() == 1, "restore{params = true}: %d parameter sets as saved (k = %g at x = 5 mm, a = %g at "
      .. "the sphere); without it %d", resumed:param_sets(), resumed:param("k", 5, 4), resumed:param("a", 9, 4),
      plain:param_sets())
resumed:step(1000)
plain:step(1000)
local dr, dp = same_state(reg, resumed), same_state(reg, plain)
check(dr == 0 and dp > 0, "regional parameters: resumed run equal to the uninterrupted one (max |diff| %g); with the "
      .. "script's parameters it differs by %.3g", dr, dp)
local bad_opt = make{}
local ok_opt, e_opt = pcall(function() bad_opt:restore(file, {parms = true}) end)
check(not ok_opt and tostring(e_opt):find("parms", 1, true) ~= nil, "a misspelt option is refused: %s", tostring(e_opt))

-- probes and activation maps restart at the restored time
local r = make{}
local p = r:probe{cells = {{30, 20}}, every = 100}
local act = r:activation{}
r:restore(file)
r:step(200)
local dat = p:data()
check(dat.t[#dat.t] == r.t and act.origin == 20, "after restore: probe sampled at %.1f ms, maps since %.1f ms",
      dat.t[#dat.t], act.origin)

-- bad checkpoints
local function fails(f, pattern, what)
  local ok, e = pcall(f)
  check(not ok and tostring(e):find(pattern, 1, true) ~= nil, "%s -> %s", what, tostring(e))
end
local before = make{}
before:step(100)
local t0 = before.t
fails(function() before:checkpoint(file) end, "exists; pass overwrite = true", "existing file")
fails(function() before:restore("results/no_such_checkpoint.h5") end, "cannot open checkpoint", "missing file")
os.remove("results/test_out.h5")
os.remove("results/test_out.xmf")
before:output{file = "results/test_out.h5", every = 50}
before:close_output()
fails(function() before:restore("results/test_out.h5") end, "is not a cardiac checkpoint", "an output file")
local k = cardiac.simulation{mesh = cardiac.mesh{size = {12, 8}, dx = 0.2}, model = "karma", dt = 0.02, D = 0.1}
k:checkpoint(file, {overwrite = true})
fails(function() before:restore(file) end, "holds model 'karma'", "another model")
local other = cardiac.simulation{mesh = cardiac.mesh{size = {10, 8}, dx = 0.2}, model = "aliev_panfilov", dt = 0.02, D = 0.1}
other:checkpoint(file, {overwrite = true})
fails(function() before:restore(file) end, "mesh", "another mesh")
local holed = cardiac.simulation{mesh = cardiac.mesh{size = {12, 8}, dx = 0.2,
  tissue = function(x, y) return x > 1 end}, model = "aliev_panfilov", dt = 0.02, D = 0.1}
holed:checkpoint(file, {overwrite = true})
fails(function() before:restore(file) end, "other tissue cells", "another tissue mask")
-- the same cells of another size (the file stores dx since 2026-11-25)
local coarse = make{mesh = cardiac.mesh{n = {60, 40}, dx = 0.25}}
coarse:checkpoint(file, {overwrite = true})
fails(function() before:restore(file) end, "mesh of 0.25 x 0.25 mm cells", "cells of another size")
-- another dt: refused, or converted when asked (the time goes on, the steps start again)
local fine = make{dt = 0.01}
fine:step(250)
fine:checkpoint(file, {overwrite = true})
fails(function() before:restore(file) end, "written at dt = 0.01 ms and this simulation steps dt = 0.02 ms",
      "another dt")
local conv = make{}
local tc = conv:restore(file, {convert_dt = true})
check(math.abs(tc - 2.5) < 1e-12 and conv.steps == 0 and math.abs(conv.t - 2.5) < 1e-12,
      "convert_dt = true: the checkpoint's t = 2.5 ms continues with dt 0.02 from step 0 (t %g, step %d)", conv.t,
      conv.steps)
-- damaged files: a changed byte fails the state's checksum, a truncated file
-- says so, and a state that is not finite (a run stopped by Inf, then saved)
-- is refused before anything changes
do
  local marked = make{}
  marked:set("V", 12.345)
  marked:checkpoint(file, {overwrite = true})
  local fh = assert(io.open(file, "rb")); local data = fh:read("a"); fh:close()
  local at = assert(data:find(string.pack("<f", 12.345), 1, true), "the state's bytes are in the file")
  local damaged = "results/test_checkpoint_damaged.h5"
  fh = assert(io.open(damaged, "wb")); fh:write(data:sub(1, at - 1), string.pack("<f", 12.346), data:sub(at + 4)); fh:close()
  fails(function() before:restore(damaged) end, "checksum", "one value changed in the file")
  fh = assert(io.open(damaged, "wb")); fh:write(data:sub(1, #data // 2)); fh:close()
  fails(function() before:restore(damaged) end, "truncated or damaged", "a truncated file")
  local boom = make{amp = 1e38}
  pcall(boom.run, boom, 5)
  boom:checkpoint(damaged, {overwrite = true})
  fails(function() before:restore(damaged) end, "holds infinity in state variable", "a state that is not finite")
  os.remove(damaged)
end
check(before.t == t0, "refused restores leave the simulation at t = %.2f ms", before.t)

checks.finish()
