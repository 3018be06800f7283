-- Ensembles (scripts/ensemble.lua, core/engine/members.h): members stacked
-- as the layers of one simulation step together, and each member's state,
-- activation maps, conduction velocity, probe samples and spiral tips equal,
-- bit for bit, the same simulation run alone on the same backend: members
-- with their own D, parameters, stimuli, clamps and initial states; members
-- that share D (one set of coefficients) or not (coefficients per layer);
-- 2D members (a 3D stack) and 1D members (a 2D stack, through a sweep); a
-- mesh with a hole. Output has the member axis, and bad input is refused
-- before any work, naming the member. With argument "cuda" (ctest's
-- gpu_ensemble) everything runs on the GPU, where the stack of sheets runs
-- the tplane layout and a sheet alone naive (tblock only from 3 M cells).
-- Passes under mpirun -np 2.
local backend = arg and arg[1] or "cpu"
if backend == "cuda" and not cardiac.gpu() then print("SKIPPED: no GPU") os.exit(77) end
local checks = require "checks"
local ensemble, sweep, phase = require "ensemble", require "sweep", require "phase"
cardiac.quiet = true
local check = checks.check
local function err(f, pattern, what)
  local ok, msg = pcall(f)
  check(not ok and tostring(msg):find(pattern) ~= nil, "%s%s", what,
        ok and " (no error)" or (tostring(msg):find(pattern) and "" or ": " .. tostring(msg)))
end

-- number of entries where two lists differ (NaN equals NaN: no value)
local function differ(x, y)
  if #x ~= #y then return math.huge end
  local n = 0
  for i = 1, #x do
    if x[i] ~= y[i] and not (x[i] ~= x[i] and y[i] ~= y[i]) then n = n + 1 end
  end
  return n
end

local function same_tips(a, b)
  if #a ~= #b then return false end
  for q = 1, #a do
    if a[q].x ~= b[q].x or a[q].y ~= b[q].y or a[q].charge ~= b[q].charge then return false end
  end
  return true
end

local sheet = cardiac.mesh{n = {64, 48}, dx = 0.25}
local band = cardiac.slab{axis = "y", from = 5, to = 6}
local s1 = cardiac.stimulus{region = cardiac.slab{axis = "x", from = 0, to = 1}, amplitude = 5, duration = 1, start = 1}
local s2 = cardiac.stimulus{region = cardiac.box{min = {0, 0}, max = {4, 4}}, amplitude = 5, duration = 1, start = 40}
local spot = cardiac.sphere{center = {8, 6}, radius = 1}
local cvband = cardiac.slab{axis = "x", from = 4, to = 12}

-- What each member is: its own options, and what it does to a simulation
-- (alone) or to its member (in the ensemble) before the run.
local cases = {
  {what = "the shared problem"},
  {what = "its own D", D = 0.05},
  {what = "its own parameter", params = {eps = 0.02}},
  {what = "its own stimulus and initial state", stimuli = {s2},
   init = function(s) s:set("U", function(x, y) return x + y < 4 and 3.5 or 0 end) end},
  {what = "a clamp and its own D", D = {0.2, 0.1},
   init = function(s) s:clamp{region = band, value = 0, start = 30} end},
}

local function alone(c, mesh, D)
  local model = cardiac.model("karma", c.params or {})
  local s = cardiac.simulation{mesh = mesh, model = model, dt = 0.05, D = c.D or D, backend = backend,
                               stimuli = {s1, table.unpack(c.stimuli or {})}}
  if c.init then c.init(s) end
  return s
end

local function observe(s)
  local o = {lat = s:activation{}, p = s:probe{name = "p", cells = {{10, 10}, {40, 30}}, vars = {"U", "v"}}}
  s:set("v", 0.1, spot)   -- a change made through the member's own region
  return o
end

local function compare(mesh, D, label, layout)
  local specs = {}
  for k, c in ipairs(cases) do specs[k] = {D = c.D, params = c.params, stimuli = c.stimuli} end
  local ens = ensemble.new{mesh = mesh, model = "karma", dt = 0.05, D = D, backend = backend, layout = layout,
                           stimuli = {s1}, members = specs}
  local obs = {}
  for k, c in ipairs(cases) do
    local m = ens:member(k)
    if c.init then c.init(m) end
    obs[k] = observe(m)
  end
  ens:run(90)
  for k, c in ipairs(cases) do
    local a = alone(c, mesh, D)
    local oa = observe(a)
    a:run(90)
    local m = ens:member(k)
    local bad = differ(a:field("U"), m:field("U")) + differ(a:field("v"), m:field("v"))
    check(bad == 0, "%s, member %d (%s): U and v equal the simulation alone bit for bit (%d differ)", label, k,
          c.what, bad)
    local ml = obs[k].lat
    local mbad = differ(oa.lat:field("first"), ml:field("first")) + differ(oa.lat:field("apd"), ml:field("apd"))
    check(mbad == 0, "%s, member %d: activation and APD maps equal (%d differ)", label, k, mbad)
    local da, dm = oa.p:data(), obs[k].p:data()
    check(differ(da.U[2], dm.U[2]) == 0 and differ(da.v[1], dm.v[1]) == 0 and #da.t == #dm.t,
          "%s, member %d: probe samples equal", label, k)
    if k <= 3 then
      local ca, cm = oa.lat:cv{region = cvband}, ml:cv{region = cvband}
      check(ca.speed == cm.speed and ca.rms == cm.rms, "%s, member %d: conduction velocity equal (%.6g, %.6g mm/ms)",
            label, k, ca.speed, cm.speed)
    end
    a:close()
  end
  return ens
end

-- The GPU layouts round alike (the basis of a member equal to its simulation
-- alone, which runs another layout): fields that vary along every axis (a
-- spiral, a clamped band), the 2D layouts and the 3D ones, both precisions
-- (in one process: tblock does not run split over ranks).
if backend == "cuda" and cardiac.ranks == 1 then
  local function run(n, layout, precision)
    local s = cardiac.simulation{mesh = cardiac.mesh{n = n, dx = 0.25}, model = "karma", dt = 0.05, D = #n == 2 and {0.1, 0.07} or {0.1, 0.07, 0.05},
                                 backend = "cuda", layout = layout, precision = precision}
    phase.spirals(s, {{6, 5, 1}})
    s:clamp{region = band, value = 0.5, start = 5, duration = 5}
    s:run(30)
    return s
  end
  for _, prec in ipairs{"fp32", "fp64"} do
    for _, c in ipairs{{{64, 48}, "tblock"}, {{64, 48, 8}, "tplane"}} do
      local a, b = run(c[1], "naive", prec), run(c[1], c[2], prec)
      local d = differ(a:field("U"), b:field("U")) + differ(a:field("v"), b:field("v"))
      check(d == 0, "%s, %dD: layouts naive and %s agree bit for bit on a spiral with a clamp (%d differ)", prec,
            #c[1], c[2], d)
      a:close() b:close()
    end
  end
end

local ens = compare(sheet, 0.1, "sheet")
check(ens.sim.layout == (backend == "cuda" and "tplane" or nil),
      "the stack of sheets runs layout %s on %s", tostring(ens.sim.layout), backend)
ens:close()
if backend == "cuda" then compare(sheet, 0.1, "sheet, naive layout", "naive"):close() end

-- spiral tips: each member's, about a given centre and about its own means
do
  local at = {{6, 6, 1}, {10, 5, -1}, {8, 7, 1}}
  local e = ensemble.new{mesh = sheet, model = "karma", dt = 0.05, D = 0.1, backend = backend, stimuli = {s1},
                         members = {{}, {D = 0.05}, {}}}
  local solo = {}
  for k = 1, 3 do
    phase.spirals(e:member(k), {at[k]})
    solo[k] = alone({D = k == 2 and 0.05 or nil}, sheet, 0.1)
    phase.spirals(solo[k], {at[k]})
  end
  for _, ms in ipairs{0, 20} do
    if ms > 0 then
      e:run(ms)
      for k = 1, 3 do solo[k]:run(ms) end
    end
    local all, found = e:tips{centre = {1, 0.5}}, 0
    for k = 1, 3 do
      local ta, tm = solo[k]:tips{centre = {1, 0.5}}, e:member(k):tips{centre = {1, 0.5}}
      found = found + #ta
      check(same_tips(ta, tm) and same_tips(ta, all[k]),
            "tips at %g ms, member %d: equal alone and in the ensemble (%d; first at %.3f, %.3f mm)", ms, k, #ta,
            ta[1] and ta[1].x or 0, ta[1] and ta[1].y or 0)
      local ua, um = solo[k]:tips{}, e:member(k):tips{}
      check(same_tips(ua, um), "tips at %g ms, member %d: about its own means too (%d)", ms, k, #ua)
    end
    check(found >= 2, "tips at %g ms: %d in all (the test sees tips)", ms, found)
  end
  for k = 1, 3 do solo[k]:close() end
  e:close()
end

-- members that all share D: one set of coefficients, no per-layer table
do
  local holed = cardiac.mesh{n = {64, 48}, dx = 0.25}
  holed:set_tissue(cardiac.sphere{center = {10, 6}, radius = 2}, false)
  local e = ensemble.new{mesh = holed, model = "karma", dt = 0.05, D = 0.1, backend = backend, stimuli = {s1},
                         members = 3}
  e:member(2):set("U", 3.0, spot)
  e:member(3):set_param("eps", 0.02)
  e:run(60)
  for k = 1, 3 do
    local a = alone({params = k == 3 and {eps = 0.02} or nil}, holed, 0.1)
    if k == 2 then a:set("U", 3.0, spot) end
    a:run(60)
    check(differ(a:field("U"), e:member(k):field("U")) == 0,
          "a mesh with a hole, shared D: member %d equals its simulation alone", k)
    a:close()
  end
  e:close()
end

-- other numerics: the fourth-order stencil (2D members and 1D ones), fp64, a
-- phase-field mesh; members with their own D and spirals of their own
do
  local disc = cardiac.mesh{n = {40, 32}, dx = 0.25, phase = function(x, y)
    return 0.5 * (1 - math.tanh((math.sqrt((x - 5) ^ 2 + (y - 4) ^ 2) - 3.5) / 0.3)) end}
  local small = cardiac.mesh{n = {40, 32}, dx = 0.25}
  for _, c in ipairs{{"stencil = 4", small, {stencil = 4}}, {"fp64", small, {precision = "fp64"}},
                     {"a phase-field mesh", disc, {dt = 0.01}}} do
    local o = c[3]
    local function opts(D)
      return {mesh = c[2], model = "karma", dt = o.dt or 0.02, D = D, stencil = o.stencil, precision = o.precision,
              backend = backend}
    end
    local eo = opts(0.1)
    eo.members = {{}, {D = 0.05}, {}}
    local e = ensemble.new(eo)
    for k = 1, 3 do phase.spirals(e:member(k), {{3 + k, 4, 1}}) end
    e:run(20)
    local bad = 0
    for k = 1, 3 do
      local a = cardiac.simulation(opts(k == 2 and 0.05 or 0.1))
      phase.spirals(a, {{3 + k, 4, 1}})
      a:run(20)
      bad = bad + differ(a:field("U"), e:member(k):field("U")) + differ(a:field("v"), e:member(k):field("v"))
      a:close()
    end
    check(bad == 0, "%s: three members (one with its own D) equal their runs alone bit for bit (%s; %d differ)", c[1],
          tostring(e.sim.layout or backend), bad)
    e:close()
  end
  local cable = cardiac.mesh{n = {80}, dx = 0.1}
  local start = cardiac.slab{axis = "x", from = 0, to = 0.5}
  local e = ensemble.new{mesh = cable, model = "karma", dt = 0.005, D = 0.1, stencil = 4, backend = backend,
                         members = {{}, {D = 0.2}}}
  for k = 1, 2 do e:member(k):set("U", 3, start) end
  e:run(5)
  local bad = 0
  for k = 1, 2 do
    local a = cardiac.simulation{mesh = cable, model = "karma", dt = 0.005, D = k == 1 and 0.1 or 0.2, stencil = 4,
                                 backend = backend}
    a:set("U", 3, start)
    a:run(5)
    bad = bad + differ(a:field("U"), e:member(k):field("U"))
    a:close()
  end
  check(bad == 0, "1D members, stencil = 4: equal their runs alone bit for bit (%d differ)", bad)
  e:close()
end

-- stochastic calcium: a member draws the random numbers it draws alone (keyed
-- by its cell in its own layer), and its seed is the ensemble's
do
  local gr = cardiac.model("gaur_rudy", {dyads = 8, seed = 3})
  local m = cardiac.mesh{n = {6, 5}, dx = 0.1}
  local st = cardiac.stimulus{region = cardiac.slab{axis = "x", from = 0, to = 0.2}, amplitude = 80, duration = 1,
                              start = 1}
  local e = ensemble.new{mesh = m, model = gr, dt = 0.02, D = 0.1, backend = backend, stimuli = {st},
                         members = {{}, {D = 0.05}}}
  e:run(20)
  for k = 1, 2 do
    local a = cardiac.simulation{mesh = m, model = gr, dt = 0.02, D = k == 1 and 0.1 or 0.05, backend = backend,
                                 stimuli = {st}}
    a:run(20)
    local d = differ(a:field("V"), e:member(k):field("V")) + differ(a:field("cajsr"), e:member(k):field("cajsr"))
      + differ(a:field("ryr_open"), e:member(k):field("ryr_open"))
    local _, opened = a:stats("lcc_open")
    check(d == 0 and opened > 0, "gaur_rudy, member %d: V, cajsr and open RyRs equal its run alone bit for bit (%d "
          .. "differ; L-type channels open: up to %.2f a dyad)", k, d, opened)
    a:close()
  end
  e:close()
  err(function() ensemble.new{mesh = m, model = gr, dt = 0.02, backend = backend, members = {{}, {params = {seed = 4}}}} end,
      "member 2: .*seed is fixed", "a member's own seed is refused, named")
end

-- 1D members through a sweep: an ensemble, and one simulation per value
do
  local desc = {mesh = cardiac.mesh{size = {20}, dx = 0.1}, model = "karma", dt = 0.005, D = 0.1, backend = backend,
                stimuli = {cardiac.stimulus{region = cardiac.slab{axis = "x", from = 0, to = 0.5}, amplitude = 5,
                                            duration = 1, start = 1}}}
  local function experiment(sim, D)
    sim:set_D(D)
    local lat = sim:activation{}
    sim:run(30)
    local first = sim:activation{}   -- the same options: the same maps
    sim:run(15)
    return {cv = lat:cv{region = cardiac.slab{axis = "x", from = 6, to = 14}}.speed, t = sim.t,
            same = rawequal(first.tr, lat.tr) or nil, U = sim:get("U", 150)}
  end
  local values = {0.05, 0.1, 0.2, 0.4}
  local a = sweep.run{name = "D", values = values, make = desc, experiment = experiment,
                      prepare = function(sim) sim:run(1) end}
  local b = sweep.run{name = "D", values = values, make = desc, experiment = experiment, ensemble = false,
                      prepare = function(sim) sim:run(1) end}
  local same = true
  for q = 1, #values do same = same and a[q].cv == b[q].cv and a[q].U == b[q].U and a[q].t == b[q].t end
  check(same, "a sweep of 1D cables: the ensemble's rows equal one simulation per value (cv %.4f .. %.4f mm/ms)",
        a[1].cv, a[#a].cv)
  check(a[1].cv < a[2].cv and a[2].cv < a[3].cv and a[3].cv < a[4].cv, "and CV grows with D")
end

-- output: one file, the member axis before y and x
do
  local dir = (os.getenv("TMPDIR") or "/tmp") .. "/cardiac_ensemble_" .. backend
  local e = ensemble.new{mesh = sheet, model = "karma", backend = backend, stimuli = {s1},
                         members = {{}, {D = 0.05}, {}, {}}}
  e:output{file = dir .. "/ens.h5", interval = 10, vars = {"U"}, overwrite = true}
  e:run(20)
  e:close_output()
  local _, dims = cardiac.h5read(dir .. "/ens.h5", "/fields/U")
  check(dims and dims[2] == 4 and dims[3] == 48 and dims[4] == 64,
        "output: /fields/U is [frame][member][y][x] (%s)", dims and table.concat(dims, " x ") or "none")
  local f = io.popen("h5dump -a /member_D_mm2_per_ms " .. dir .. "/ens.h5 2>/dev/null")
  local text = f and f:read("a") or ""
  if f then f:close() end
  check(text == "" or text:find("0.05"), "output: the members' D are an attribute (h5dump %s)",
        text == "" and "not installed" or "shows them")
  local x = io.open(dir .. "/ens.xmf")
  local xmf = x and x:read("a") or ""
  if x then x:close() end
  check(xmf:find('Dimensions="4 48 64"', 1, true) ~= nil, "output: the XDMF file describes the members as a stack")
  -- a checkpoint of the ensemble continues bit for bit, and a started run equals a blocking one
  e:checkpoint(dir .. "/ens_ck.h5", {overwrite = true})
  e:run(15)
  local f = ensemble.new{mesh = sheet, model = "karma", backend = backend, stimuli = {s1},
                         members = {{}, {D = 0.05}, {}, {}}}
  f:restore(dir .. "/ens_ck.h5")
  f:start(15)
  f:wait()
  check(differ(e:member(2):field("U"), f:member(2):field("U")) == 0 and f.t == e.t,
        "an ensemble restored from its checkpoint and started continues bit for bit (t = %g ms)", f.t)
  f:close()
  e:close()
end

-- bad input, refused before any work
local other = cardiac.mesh{n = {64, 40}, dx = 0.25}
err(function() ensemble.new{mesh = sheet, model = "karma", members = {{}, {mesh = other}}} end,
    "member 2's mesh .* differs", "a member whose mesh differs is refused, named")
err(function() ensemble.new{mesh = sheet, model = "karma", members = {{}, {}, {model = "aliev_panfilov"}}} end,
    "member 3's model 'aliev_panfilov' differs", "a member whose model differs is refused, named")
err(function() ensemble.new{mesh = sheet, model = "karma", dt = 0.05, members = {{dt = 0.01}}} end,
    "member 1's dt", "a member whose dt differs is refused")
err(function() ensemble.new{mesh = sheet, model = "karma", dt = 0.05, members = {{}, {D = 5}}} end,
    "member 2: dt = 0.05 ms is above", "a member whose D makes dt unstable is refused, named")
err(function() ensemble.new{mesh = cardiac.mesh{n = {8, 8, 8}, dx = 0.25}, model = "karma", members = 2} end,
    "1D or 2D", "3D members are refused")
err(function() ensemble.new{mesh = sheet, model = "karma", members = 0} end, "at least 1", "no members")
err(function() ensemble.new{mesh = sheet, model = "karma", members = 2, blocks = 2} end, "unknown option 'blocks'",
    "blocks are refused")
err(function() ensemble.new{mesh = sheet, model = "karma", members = {{Dx = 1}}} end, "member 1: unknown option 'Dx'",
    "a member's unknown option is refused")
err(function() ensemble.new{mesh = cardiac.mesh{n = {1000, 1000}, dx = 0.1}, model = "karma", members = 1000000} end, "memory",
    "an ensemble larger than the memory is refused before allocation")
local e = ensemble.new{mesh = sheet, model = "karma", backend = backend, members = 2}
err(function() e.sim:set_D({0.1, 0.1, 0.1}) end, "lists 3 values for an ensemble's members' 2D mesh",
    "D across members is refused")
err(function() e.sim:set_D(0.1, 3) end, "'member' must be 1 to 2", "set_D of a member that does not exist")
err(function() e:member(1):run(5) end, "members step together", "a member alone does not run")
err(function() e:member(3) end, "k must be 1 to 2", "member 3 of 2 does not exist")
if backend == "cuda" then
  err(function() ensemble.new{mesh = sheet, model = "karma", backend = "cuda", layout = "tblock", members = 2} end,
      cardiac.ranks == 1 and "does not step ensembles" or "does not run split", "layout tblock is refused for an ensemble")
end
check(e.t == 0 and e:member(1).t == 0, "nothing ran")
e:close()

checks.finish()
