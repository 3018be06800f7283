-- Every kind of bad input is a Lua error that names the offending argument,
-- raised before any work starts and without touching existing files.
local pass, fail = 0, 0
local function expect_error(what, f, ...)
  local ok, msg = pcall(f)
  local good = not ok
  for _, needle in ipairs({...}) do
    good = good and tostring(msg):find(needle, 1, true) ~= nil
  end
  if good then pass = pass + 1 else fail = fail + 1 end
  print(string.format("%s %-40s %s", good and "ok  " or "FAIL", what, tostring(msg)))
end

local tmp = os.getenv("TMPDIR") or "/tmp"
local dir = tmp .. "/cardiac_bad_input_" .. tostring(os.time()) .. tostring(math.random(1e6))
local mesh = cardiac.mesh{n = {20, 10}, dx = 0.25}

-- meshes
expect_error("mesh: not a table", function() cardiac.mesh(5) end, "cardiac.mesh", "table")
expect_error("mesh: missing n", function() cardiac.mesh{dx = 0.1} end, "'n'")
expect_error("mesh: missing dx", function() cardiac.mesh{n = {10}} end, "'dx'")
expect_error("mesh: unknown key", function() cardiac.mesh{n = {10}, dx = 0.1, nx = 3} end, "'nx'")
expect_error("mesh: wrong type", function() cardiac.mesh{n = "ten", dx = 0.1} end, "'n'", "string")
expect_error("mesh: negative size", function() cardiac.mesh{n = {-4, 5}, dx = 0.1} end, "'n'[1]", "-4")
expect_error("mesh: fractional size", function() cardiac.mesh{n = {4.5}, dx = 0.1} end, "'n'[1]")
expect_error("mesh: negative spacing", function() cardiac.mesh{n = {4}, dx = -0.1} end, "'dx'", "positive")
expect_error("mesh: too large for memory", function() cardiac.mesh{n = {100000, 100000, 100000}, dx = 0.1} end,
             "needs", "available")
expect_error("mesh: file missing", function() cardiac.mesh{file = "/nonexistent/heart.h5", dx = 0.5} end,
             "cardiac.mesh", "/nonexistent/heart.h5")
expect_error("mesh: file and n", function() cardiac.mesh{file = "x.h5", n = {4}, dx = 0.5} end, "'file'", "'n'")
expect_error("mesh: file without dx", function() cardiac.mesh{file = "x.h5"} end, "'dx'")
expect_error("mesh: dataset without file", function() cardiac.mesh{n = {4}, dx = 0.1, dataset = "/m"} end, "'dataset'")
expect_error("mesh: threshold without file or phase", function() cardiac.mesh{n = {4}, dx = 0.1, threshold = 0.2} end,
             "'threshold'")
expect_error("mesh: phase not a function", function() cardiac.mesh{n = {4}, dx = 0.1, phase = 1} end, "'phase'",
             "function")
expect_error("mesh: phase and tissue", function()
  cardiac.mesh{n = {4}, dx = 0.1, phase = function() return 1 end, tissue = cardiac.slab{axis = "x", from = 0, to = 1}}
end, "'tissue' or 'phase'")
expect_error("mesh: phase returns a string", function() cardiac.mesh{n = {4}, dx = 0.1, phase = function() return "a" end} end,
             "'phase'", "(1, 1, 1)")
expect_error("mesh: phase nowhere above threshold", function() cardiac.mesh{n = {4}, dx = 0.1, phase = function() return 0 end} end,
             "threshold")
expect_error("simulation: phase field with stencil 4", function()
  cardiac.simulation{mesh = cardiac.mesh{n = {8}, dx = 0.1, phase = function() return 1 end}, model = "karma", stencil = 4}
end, "stencil = 4", "phase-field")
expect_error("mesh: tissue not a region", function() cardiac.mesh{n = {4}, dx = 0.1, tissue = 3} end, "region")
expect_error("cylinder: inner above radius", function() cardiac.cylinder{center = {0, 0}, radius = 1, inner = 2} end,
             "'inner'")
expect_error("biventricle: arguments", function() cardiac.biventricle{size = 3} end, "no arguments")
expect_error("mesh: size and n", function() cardiac.mesh{n = {4}, size = {1}, dx = 0.1} end, "'size'")

-- models
expect_error("model: unknown model", function() cardiac.model("hodgkin") end, "'hodgkin'", "karma")
expect_error("model: unknown parameter", function() cardiac.model("karma", {bogus = 1}) end, "'bogus'", "eps")
expect_error("model: parameter type", function() cardiac.model("karma", {eps = "fast"}) end, "'eps'", "number")
expect_error("model: parameter range", function() cardiac.model("karma", {eps = -1}) end, "'eps'", "range")
expect_error("model: parameter above maximum", function() cardiac.model("ohara_rudy", {celltype = 3}) end,
             "'celltype'", "[0, 2]")
expect_error("model: unknown cell type", function() cardiac.model("ohara_rudy", {cell = "purkinje"}) end,
             "'purkinje'", "endo, epi, M")
expect_error("model: cell type not a string", function() cardiac.model("bueno_orovio", {cell = 1}) end, "'cell'")
expect_error("model: no cell types", function() cardiac.model("aliev_panfilov", {cell = "epi"}) end, "'aliev_panfilov'",
             "no cell types")
expect_error("model: unknown parameter set", function() cardiac.model("karma", {cell = "epi"}) end, "'karma'",
             "no cell type 'epi'", "karma1994, unit_time")
expect_error("model: trace missing t", function() cardiac.model("karma"):trace{dt = 0.1} end, "'t'")

-- regions and stimuli
expect_error("slab: bad axis", function() cardiac.slab{axis = "w", from = 0, to = 1} end, "'axis'")
expect_error("box: inverted", function() cardiac.box{min = {1, 1}, max = {0, 2}} end, "max[1]")
expect_error("stimulus: missing region", function() cardiac.stimulus{amplitude = 1, duration = 1} end, "'region'")
expect_error("stimulus: missing amplitude", function()
  cardiac.stimulus{region = cardiac.everywhere(), duration = 1} end, "'amplitude'")
expect_error("stimulus: period < duration", function()
  cardiac.stimulus{region = cardiac.everywhere(), amplitude = 1, duration = 5, period = 2, count = 3} end, "'period'")
expect_error("stimulus: times and period", function()
  cardiac.stimulus{region = cardiac.everywhere(), amplitude = 1, duration = 1, times = {0}, period = 5} end, "'times'")
local outside = cardiac.stimulus{region = cardiac.box{min = {100, 100}, max = {101, 101}}, amplitude = 1, duration = 1}
expect_error("stimulus: region without tissue", function()
  cardiac.simulation{mesh = mesh, model = "karma", stimuli = {outside}} end, "no tissue")
expect_error("cells outside the mesh", function()
  cardiac.simulation{mesh = mesh, model = "karma",
    stimuli = {cardiac.stimulus{region = cardiac.cells{{30, 1}}, amplitude = 1, duration = 1}}} end, "outside the mesh")

-- simulations
expect_error("simulation: missing mesh", function() cardiac.simulation{model = "karma"} end, "'mesh'")
expect_error("simulation: mesh of wrong type", function() cardiac.simulation{mesh = {}, model = "karma"} end, "'mesh'", "table")
expect_error("simulation: unknown model name", function() cardiac.simulation{mesh = mesh, model = "x"} end, "'x'")
expect_error("simulation: skip_rest not a boolean", function()
  cardiac.simulation{mesh = mesh, model = "karma", skip_rest = "no"} end, "'skip_rest'", "true or false", "string")
expect_error("simulation: unstable dt", function()
  cardiac.simulation{mesh = mesh, model = "karma", dt = 1.0, D = 0.1} end, "largest stable dt")
expect_error("simulation: negative D", function() cardiac.simulation{mesh = mesh, model = "karma", D = -1} end, "'D'")
expect_error("simulation: D per axis count", function()
  cardiac.simulation{mesh = mesh, model = "karma", D = {0.1, 0.1, 0.1}} end, "'D'")
expect_error("simulation: stencil order", function() cardiac.simulation{mesh = mesh, model = "karma", stencil = 3} end, "'stencil'")
expect_error("simulation: unknown backend", function()
  cardiac.simulation{mesh = mesh, model = "karma", backend = "opencl"} end, "opencl")
expect_error("simulation: unknown precision", function()
  cardiac.simulation{mesh = mesh, model = "karma", precision = "fp16"} end, "fp16")
expect_error("simulation: precision mixed for a model without a mixed step", function()
  cardiac.simulation{mesh = mesh, model = "karma", precision = "mixed"} end, "not available for model 'karma'")
expect_error("model:trace: precision mixed for a model without a mixed step", function()
  cardiac.model("tentusscher_2006"):trace{t = 1, precision = "mixed"} end, "not available for model 'tentusscher_2006'")
expect_error("simulation: blocks of zero cells", function()
  cardiac.simulation{mesh = mesh, model = "karma", blocks = 0} end, "'blocks'[1]", "1 to 1024")
expect_error("simulation: blocks for the wrong dimension", function()
  cardiac.simulation{mesh = mesh, model = "karma", blocks = {4, 4, 4}} end, "'blocks'", "2 block sizes")
expect_error("simulation: blocks not a number", function()
  cardiac.simulation{mesh = mesh, model = "karma", blocks = "big"} end, "'blocks'", "string")
expect_error("simulation: blocks too thin for stencil 4", function()
  cardiac.simulation{mesh = mesh, model = "karma", dt = 0.01, stencil = 4, blocks = {1, 4}} end, "blocks", "stencil = 4")
expect_error("simulation: blocks with another layout", function()
  cardiac.simulation{mesh = mesh, model = "karma", backend = "cuda", layout = "tblock", blocks = 4} end,
  "'blocks'", "\"tblock\"")
expect_error("simulation: layout block without blocks", function()
  cardiac.simulation{mesh = mesh, model = "karma", backend = "cuda", layout = "block"} end, "needs 'blocks'")
expect_error("mesh:blocks without a size", function() mesh:blocks() end, "'blocks'", "value expected")
expect_error("simulation: unknown layout", function()
  cardiac.simulation{mesh = mesh, model = "karma", backend = "cuda", layout = "hilbert"} end, "hilbert")
expect_error("simulation: layout on the CPU", function()
  cardiac.simulation{mesh = mesh, model = "karma", layout = "tower"} end, "'layout' applies to the cuda backend")
expect_error("simulation: tplane on a sheet", function()
  cardiac.simulation{mesh = mesh, model = "karma", backend = "cuda", layout = "tplane"} end, "\"tplane\" is for volumes")
local cube = cardiac.mesh{n = {8, 8, 8}, dx = 0.25}
expect_error("simulation: tplane with stencil 4", function()
  cardiac.simulation{mesh = cube, model = "karma", dt = 0.01, stencil = 4, backend = "cuda", layout = "tplane"} end,
  "second-order stencil only")
expect_error("simulation: tplane with tsteps 4", function()
  cardiac.simulation{mesh = cube, model = "karma", backend = "cuda", layout = "tplane", tsteps = 4} end,
  "'tsteps' must be 1 to 3")
for _, l in ipairs(cardiac.layouts()) do   -- the thesis' layouts where the build leaves them out
  if not l.built then
    expect_error("simulation: layout " .. l.name .. " not built", function()
      cardiac.simulation{mesh = cube, model = "karma", backend = "cuda", layout = l.name} end,
      "\"" .. l.name .. "\"", "CARDIAC_THESIS_LAYOUTS=ON")
  end
end
expect_error("simulation: tsteps without tblock", function()
  cardiac.simulation{mesh = mesh, model = "karma", backend = "cuda", layout = "naive", tsteps = 2} end, "'tsteps'")
if not cardiac.gpu() then
  expect_error("simulation: cuda without a GPU", function()
    cardiac.simulation{mesh = mesh, model = "karma", backend = "cuda"} end, "backend 'cuda'")
end
expect_error("benchmark: unknown option", function()
  cardiac.simulation{mesh = mesh, model = "karma"}:benchmark{step = 10} end, "'step'")

local sim = cardiac.simulation{mesh = mesh, model = "karma", dt = 0.05, D = 0.1}
expect_error("set_D: unstable", function() sim:set_D(10) end, "largest stable dt")
expect_error("set_param: unknown", function() sim:set_param("nope", 1) end, "'nope'")
-- decomposition requests that do not fit the job (one process here)
expect_error("simulation: decomp vs ranks", function()
  cardiac.simulation{mesh = mesh, model = "karma", decomp = {2, 1}} end, "'decomp' = {2, 1}", "2 parts", "1 rank ")
expect_error("simulation: decomp length", function()
  cardiac.simulation{mesh = mesh, model = "karma", decomp = {1, 1, 1}} end, "'decomp'", "2 numbers")
expect_error("simulation: decomp not whole", function()
  cardiac.simulation{mesh = mesh, model = "karma", decomp = {1.5, 1}} end, "'decomp'", "whole")
local ms = cardiac.simulation{mesh = mesh, model = "mitchell_schaeffer", dt = 0.05, D = 0.01}
expect_error("set_param: makes dt unstable", function() ms:set_param("tau_in", 0.01) end, "set_param", "dt = 0.05")
expect_error("set_param: refused value not kept", function() assert(ms:param("tau_in") == 0.01) end, "assertion")
expect_error("get: unknown variable", function() sim:get("Vm", 1, 1) end, "'Vm'", "U")
expect_error("get: cell outside", function() sim:get("U", 21, 1) end, "outside")
expect_error("run: negative duration", function() sim:run(-5) end, "duration")
expect_error("probe: unknown variable", function() sim:probe{cells = {{1, 1}}, vars = {"Ca"}} end, "'Ca'")
expect_error("probe: no selection", function() sim:probe{vars = {"U"}} end, "'cells'")
expect_error("output: missing every", function() sim:output{file = dir .. "/a.h5"} end, "'every'")
expect_error("output: unwritable path", function() sim:output{file = "/proc/cardiac/x.h5", every = 1} end, "/proc/cardiac/x.h5")

-- an existing file is never silently overwritten, and the error comes before any work
os.execute("mkdir -p " .. dir)
local existing = dir .. "/existing.h5"
local f = assert(io.open(existing, "w")); f:write("precious"); f:close()
expect_error("output: existing file", function() sim:output{file = existing, every = 10} end, "exists", "overwrite")
f = assert(io.open(existing)); local content = f:read("a"); f:close()
if content == "precious" and sim.t == 0 then pass = pass + 1 else fail = fail + 1; print("FAIL existing file changed or time advanced") end
expect_error("png: existing file", function() sim:png(existing) end, "exists")
os.execute("rm -rf " .. dir)

-- NaN and infinity are refused where they are given, naming the argument (they
-- used to be taken, and the run then failed at its first step blaming dt)
local nan, inf = 0 / 0, math.huge
expect_error("D = NaN", function() cardiac.simulation{mesh = mesh, model = "karma", D = nan} end, "'D'", "NaN")
expect_error("set_D(NaN)", function() sim:set_D(nan) end, "set_D", "'D'", "NaN")
expect_error("set a state to NaN", function() sim:set("U", nan) end, "'U'", "finite", "NaN")
expect_error("set a state to infinity by function", function() sim:set("U", function() return inf end) end, "'U'",
             "infinity")
-- a finite value an fp32 state cannot hold would become infinity in it
expect_error("set an fp32 state beyond its range", function() sim:set("U", 1e200) end, "'U'", "fp32")
expect_error("set an fp32 state beyond its range by function", function() sim:set("U", function() return -1e40 end) end,
             "'U'", "fp32")
do   -- (an fp64 state holds it)
  local s64 = cardiac.simulation{mesh = mesh, model = "karma", precision = "fp64"}
  local ok, n = pcall(s64.set, s64, "U", 1e200, cardiac.box{min = {0, 0}, max = {0.3, 0.3}})
  local good = ok and n == 1
  if good then pass = pass + 1 else fail = fail + 1 end
  print(("%s %-40s %s"):format(good and "ok  " or "FAIL", "an fp64 state takes 1e200", tostring(n)))
  s64:close()
end
expect_error("stimulus times NaN", function()
  cardiac.stimulus{region = cardiac.everywhere(), amplitude = 1, duration = 1, times = {nan}} end, "'times'[1]", "finite")
expect_error("ECG electrode NaN", function() sim:ecg{electrodes = {{nan, 1}}} end, "electrode 1", "finite")
expect_error("mesh dx = infinity", function() cardiac.mesh{n = {10}, dx = inf} end, "'dx'", "infinity")
expect_error("parameter NaN", function() sim:set_param("gamma", nan) end, "'gamma'", "NaN")
expect_error("run(NaN)", function() sim:run(nan) end, "duration", "NaN")
if sim.t == 0 then pass = pass + 1 else fail = fail + 1; print("FAIL a refused NaN advanced the simulation") end

-- a picture too large to write in reasonable time is refused before anything is written
local png = dir .. "/huge.png"
expect_error("png: scale too large", function() sim:png(png, {scale = 5000}) end, "'scale' = 5000", "at most 8192")
local f = io.open(png)
if f then f:close(); fail = fail + 1; print("FAIL a refused picture left a file") else pass = pass + 1 end

-- a 2D sheet lies in the plane z = 0: a region's z counts (it was dropped)
local function expect(cond, what)
  if cond then pass = pass + 1 else fail = fail + 1 end
  print(string.format("%s %s", cond and "ok  " or "FAIL", what))
end
local sheet = cardiac.mesh{n = {40, 40}, dx = 0.25}
local disc = sheet:count(cardiac.sphere{center = {5, 5, 0}, radius = 2})
local cut = sheet:count(cardiac.sphere{center = {5, 5, 1.5}, radius = 2})
expect(disc > 180 and cut > 60 and cut < 0.5 * disc,
       ("2D: a sphere 1.5 mm off the sheet cuts a smaller disc (%d cells against %d)"):format(cut, disc))
expect(sheet:count(cardiac.box{min = {0, 0, 1}, max = {10, 10, 2}}) == 0, "2D: a box above the sheet selects no cell")
expect(sheet:count(cardiac.slab{axis = "z", from = -1, to = 1}) == 1600, "2D: a slab across z = 0 selects the sheet")
-- a size between two cell counts becomes the nearer one (with a warning), m.size says which
local odd = cardiac.mesh{size = {10.1, 5}, dx = 0.25}
expect(odd.n[1] == 40 and math.abs(odd.size[1] - 10) < 1e-12, ("size 10.1 at dx 0.25: %d cells, %g mm"):format(
  odd.n[1], odd.size[1]))

print(string.format("%d passed, %d failed", pass, fail))
if fail > 0 then os.exit(1) end
