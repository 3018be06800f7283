-- Started runs in a script (sim:start, sim:wait, sim:pause, sim:watch):
-- stepping in the background's slices gives the blocking run's values bit
-- for bit, with every feature attached; bad calls are refused before any
-- work. The REPL's side (stepping while the prompt waits, a change of D at a
-- step boundary, Ctrl-C) is tests/steer.sh. It also passes under mpirun -np 2.
-- With argument "cuda" (ctest's gpu_steer) the simulations run on the GPU,
-- with a 3D case on the tplane layout (several steps per kernel).
local backend = arg and arg[1] or "cpu"
if backend == "cuda" and not cardiac.gpu() then print("SKIPPED: no GPU") os.exit(77) end
local checks = require "checks"
cardiac.quiet = true
local check = {
  ok = function(c, what) checks.check(c, "%s", what) end,
  eq = function(a, b, what) checks.check(a == b, "%s (%s; expected %s)", what, tostring(a), tostring(b)) end,
  err = function(f, pattern, what)
    local okf, msg = pcall(f)
    checks.check(not okf and tostring(msg):find(pattern) ~= nil, "%s%s", what,
                 okf and " (no error)" or (tostring(msg):find(pattern) and "" or ": " .. tostring(msg)))
  end,
}
local dir = os.getenv("TMPDIR") or "/tmp"
dir = dir .. "/cardiac_steer_" .. backend   -- the same on every rank under mpirun
os.execute("mkdir -p " .. dir)

local function mk(file, n)
  local s = cardiac.simulation{mesh = cardiac.mesh{n = n or {60, 50}, dx = 0.25}, model = "karma", D = 0.1,
                               backend = backend}
  s:set("U", 3.0, cardiac.slab{axis = "x", from = 0, to = 1})
  s:add_stimulus(cardiac.stimulus{region = cardiac.slab{axis = "y", from = 0, to = 1}, amplitude = 2,
                                  duration = 1, start = 7.3})
  s:output{file = dir .. "/" .. file, every = 7}
  local p = s:probe{cells = {{5, 5}, {30, 25}}, every = 3}
  local lat = s:activation{}
  return s, p, lat
end

local function same_lists(x, y)
  if #x ~= #y then return false end
  for i = 1, #x do
    if x[i] ~= y[i] and not (x[i] ~= x[i] and y[i] ~= y[i]) then return false end   -- NaN: no value
  end
  return true
end

-- 1. start + wait equals run, with output, probe, activation and a stimulus
local a, pa, la = mk("a.h5")
local b, pb, lb = mk("b.h5")
a:run(12.34)
b:start(12.34)
check.eq(b.running, true, "a started simulation is running")
local t = b:wait()
check.eq(b.running, false, "it is no longer running after wait")
check.eq(t, a.t, "wait returns the time the blocking run reached")
check.eq(b.steps, a.steps, "the same number of steps")
for _, v in ipairs{"U", "v"} do
  check.eq((a:diff(b, v)), 0, "state " .. v .. " equals the blocking run's bit for bit")
end
check.ok(same_lists(la:field(), lb:field()), "the same activation map")
local da, db = pa:data(), pb:data()
check.ok(#da.t > 0 and same_lists(da.t, db.t), "the probe sampled at the same times (" .. #da.t .. ")")
check.ok(same_lists(da.U[2], db.U[2]) and same_lists(da.U[1], db.U[1]), "the same probe values")
a:close_output() b:close_output()
local ta = cardiac.h5read(dir .. "/a.h5", "/time")
local tb = cardiac.h5read(dir .. "/b.h5", "/time")
check.eq(#tb, #ta, "the started run wrote as many frames (" .. #ta .. ")")
local fa = cardiac.h5read(dir .. "/a.h5", "/fields/U")
local fb = cardiac.h5read(dir .. "/b.h5", "/fields/U")
local same = #fa == #fb
for i = 1, #fa do if fa[i] ~= fb[i] then same = false break end end
check.ok(same, "and the same frames")

-- 1b. a volume (on the GPU: tplane, several steps per kernel)
local va, vb = mk("va.h5", {40, 36, 24}), mk("vb.h5", {40, 36, 24})
va:run(9.87)
vb:start(9.87) vb:wait()
check.eq((va:diff(vb, "U")), 0, "a volume's started run equals its blocking run (" .. (va.layout or backend) .. ")")
va:close() vb:close()

-- 2. a run paused and resumed equals one run; a new duration replaces what was left
local c = mk("c.h5")
c:start(12.34)
c:pause()
check.eq(c.running, false, "paused at once")
check.eq(c.steps, 0, "a pause before any idle time takes no step")
c:start()
c:wait()
check.eq((a:diff(c)), 0, "paused and resumed equals one run")
c:start(1)
check.err(function() c:start(2) end, "already running", "start on a running simulation is refused")
check.err(function() c:run(1) end, "running in the background", "run on a running simulation is refused")
check.err(function() c:step(1) end, "running in the background", "step on a running simulation is refused")
check.err(function() c:benchmark{} end, "running in the background", "benchmark on a running simulation is refused")
c:wait()
check.err(function() c:start() end, "nothing to resume", "start() with nothing paused is refused")
check.err(function() c:start(-1) end, "non%-negative", "a negative duration is refused")
check.err(function() c:start(0/0) end, "NaN", "a NaN duration is refused")

-- 3. several started runs advance together in wait
local d, e = mk("d.h5"), mk("e.h5")
d:start(6) e:start(12.34)
d:wait()
check.ok(e.steps > 0, "the other started run advanced while d was waited for (" .. e.steps .. " steps)")
e:wait()
check.eq((a:diff(e)), 0, "the other run equals the blocking run too")

-- 4. watch: a picture now and every `every` ms, replaced in place
local png = dir .. "/w.png"
local w = cardiac.simulation{mesh = cardiac.mesh{n = {60, 50}, dx = 0.25}, model = "karma", D = 0.1}
w:set("U", 3.0, cardiac.slab{axis = "x", from = 0, to = 1})
w:watch{file = png, every = 2}
local first = io.open(png, "rb"):read("a")
check.eq(first:sub(2, 4), "PNG", "watch writes a PNG at once")
w:start(10) w:wait()
local last = io.open(png, "rb"):read("a")
check.ok(last ~= first, "and rewrites it as the wave moves")
check.ok(io.open(png .. ".part") == nil, "no temporary file is left")
w:watch{file = png, every = 1, var = "v", min = 0, max = 2}   -- its own file: replaced, no overwrite needed
w:watch(false)
local stopped = io.open(png, "rb"):read("a")
w:run(5)
check.ok(io.open(png, "rb"):read("a") == stopped, "watch(false) stops rewriting")
check.err(function() w:watch{file = png, every = 1} end, "exists", "another watch over an existing file needs overwrite")
check.err(function() w:watch{file = dir .. "/x.png", every = 0} end, "'every' must be a positive", "every = 0 is refused")
check.err(function() w:watch{every = 1} end, "'file'", "a watch without a file is refused")
check.err(function() w:watch{file = dir .. "/x.png", every = 1, var = "nope"} end, "no state variable 'nope'",
          "an unknown variable is refused")
check.err(function() w:watch{file = dir .. "/x.png", every = 1, colour = 1} end, "colour", "an unknown option is refused")
check.err(function() w:watch{file = "/proc/x.png", every = 1} end, "x.png",
          "a file that cannot be written is refused")

-- 5. 3D: the watched picture is a z slice
local v = cardiac.simulation{mesh = cardiac.mesh{n = {20, 16, 12}, dx = 0.25}, model = "karma", D = 0.1}
v:watch{file = dir .. "/z.png", every = 1, z = 3}
check.eq(io.open(dir .. "/z.png", "rb"):read("a"):sub(2, 4), "PNG", "a 3D simulation's watch writes a slice")
check.err(function() v:watch{file = dir .. "/z2.png", every = 1, z = 13} end, "outside 1..12", "a z beyond the mesh is refused")

if cardiac.rank == 0 then os.execute("rm -rf " .. dir) end
checks.finish()
