-- The Lua API end to end: meshes and coordinates, regions, models, stimuli,
-- simulations (state access, continuation, parameter and D changes, masks),
-- probes, output files read back, pictures and help.
local pass, fail = 0, 0
local function check(cond, what)
  if cond then pass = pass + 1 else fail = fail + 1 end
  print((cond and "ok   " or "FAIL ") .. what)
end
local tmp = (os.getenv("TMPDIR") or "/tmp") .. "/cardiac_api_" .. os.time() .. math.random(1e6)
cardiac.quiet = true

-- meshes: 1-based cells, centres at (i - 1/2) dx
local m = cardiac.mesh{n = {40, 20}, dx = {0.5, 0.25}}
check(m.dim == 2 and m.ncells == 800 and m.tissue == 800, "mesh size and tissue count")
local x, y = m:coord(3, 4)
check(math.abs(x - 1.25) < 1e-12 and math.abs(y - 0.875) < 1e-12, "cell centre coordinates")
local i, j = m:locate(x, y)
check(i == 3 and j == 4, "locate inverts coord")
check(m:locate(100, 1) == nil, "locate outside gives nil")
check(m:count(cardiac.slab{axis = "x", from = 0, to = 2}) == 4 * 20, "slab covers 4 columns")
check(m:count(cardiac.sphere{center = {10, 2.5}, radius = 1}) > 0, "sphere covers cells")

-- models
local k = cardiac.model("karma", {eps = 0.02})
check(math.abs(k:get("eps") - 0.02) < 1e-7 and #k:states() == 2 and k:rest().U == 0, "model parameters, states, rest")
local names = {}
for _, p in ipairs(k:params()) do names[p.name] = p.units end
check(names.eps == "1" and names.tau_e == "ms" and names.gamma, "parameters carry units")
local tp = cardiac.model("tentusscher_2006", {cell = "M"})
check(tp.nstate == 19 and tp.cell == "M" and #tp.cells == 3 and tp.vmin < tp.activation and tp.activation < tp.vmax,
      "model fields: nstate, cell, cells, vmin < activation < vmax")
local tr = k:trace{t = 200, dt = 0.05, stimulus = {amplitude = 5, duration = 1}}
local peak = 0
for _, u in ipairs(tr.U) do peak = math.max(peak, u) end
check(#tr.t == 4001 and peak > 3, "single-cell trace fires")

-- cell types: a preset sets its parameters (and resting state), later keys override it
local bo = cardiac.model("bueno_orovio", {cell = "endo", tau_si = 3})
check(bo.cell == "endo" and bo:get("u_u") == 1.56 and bo:get("tau_si") == 3 and bo:get("tau_fi") == 0.1,
      "bueno_orovio endo preset, overridden parameter")
check(#bo.cells == 3 and cardiac.model("bueno_orovio").cell == nil, "cell types listed; none by default")
local epi, endo = cardiac.model("ohara_rudy", {cell = "epi"}), cardiac.model("ohara_rudy")
check(epi:get("celltype") == 1 and epi:rest().nai ~= endo:rest().nai, "ohara_rudy epi preset with its own rest state")

-- stimuli
local s = cardiac.stimulus{region = cardiac.slab{axis = "x", from = 0, to = 1}, amplitude = 5, duration = 1,
                           start = 5, period = 100, count = 3}
local p = s:pulses()
check(#p == 3 and p[3] == 205 and s:active(105.5) and not s:active(106), "stimulus train timing")

-- a planar wave on a strip; continuation is exact
local function strip(tissue_gap)
  local mesh = cardiac.mesh{n = {100, 4}, dx = 0.2}
  if tissue_gap then mesh:set_tissue(cardiac.slab{axis = "x", from = 9, to = 11}, false) end
  local sim = cardiac.simulation{mesh = mesh, model = k, dt = 0.05, D = 0.1,
    stimuli = {cardiac.stimulus{region = cardiac.slab{axis = "x", from = 0, to = 1}, amplitude = 5, duration = 1}}}
  return sim, mesh
end
local a = strip()
a:run(10); a:run(10)
local b = strip()
b:run(20)
local fa, fb, same = a:field("U"), b:field("U"), true
for q = 1, #fa do same = same and fa[q] == fb[q] end
check(same and a.t == 20 and a.steps == 400, "run(10) twice equals run(20), bitwise")
check(a:get("U", 8, 2) > 1, "the wave has reached x = 1.5 mm")
a:run(60)
check(a:get("U", 90, 2) > 1 or a:get("v", 90, 2) > 0.1, "the wave crosses the strip")
local gap = strip(true)
gap:run(80)
check(gap:get("U", 70, 2) < 0.1 and gap:get("v", 70, 2) < 0.01, "no conduction across a gap in the tissue mask")

-- state access and initial conditions
local c = cardiac.simulation{mesh = m, model = "karma"}
c:set("U", function(x, y) return x + y end)
check(math.abs(c:get("U", 3, 4) - (1.25 + 0.875)) < 1e-6, "set with a function of position")
check(math.abs(c:at("U", 1.3, 0.9) - c:get("U", 3, 4)) < 1e-12, "at() reads the cell containing a point")
check(c:set("v", 0.3, cardiac.box{min = {0, 0}, max = {1, 1}}) == 8, "set in a box returns the cell count")
check(math.abs(c:cell(1, 1).v - 0.3) < 1e-7 and c:cell(3, 4).v == 0, "cell() gives all states")
local lo, hi, mean = c:stats("v")
check(lo == 0 and math.abs(hi - 0.3) < 1e-7 and mean > 0, "stats")
c:set_D({0.05, 0.02})
check(c.D[1] == 0.05 and c.D[2] == 0.02, "set_D per axis")
c:set_param("eps", 0.03)
check(math.abs(c:param("eps") - 0.03) < 1e-7, "set_param")

-- fourth-order stencil and Aliev-Panfilov run
local ap = cardiac.simulation{mesh = cardiac.mesh{n = {50}, dx = 0.5}, model = "aliev_panfilov", dt = 0.02,
  D = 0.1, stencil = 4, stimuli = {cardiac.stimulus{region = cardiac.cells{{1}, {2}}, amplitude = 50, duration = 1}}}
ap:run(30)
check(ap:get("V", 10) > -70, "Aliev-Panfilov wave with the 13-point stencil")

-- probes and output read back
os.execute("mkdir -p " .. tmp)
local o = strip()
local pr = o:probe{name = "mid", cells = {{50, 2}}, vars = {"U", "v"}, interval = 0.5}
o:output{file = tmp .. "/strip.h5", interval = 5, vars = {"U"}}
o:run(50)
local d = pr:data()
check(#d.t == 101 and #d.U[1] == 101 and d.t[101] == 50, "probe samples every 0.5 ms")
pr:csv(tmp .. "/mid.csv")
local lines = 0
for _ in io.lines(tmp .. "/mid.csv") do lines = lines + 1 end
check(lines == 102, "probe CSV has a header and one row per sample")
local last = o:field("U")
o:close()
local vals, dims = cardiac.h5read(tmp .. "/strip.h5", "/fields/U")
check(#dims == 4 and dims[1] == 11 and dims[3] == 4 and dims[4] == 100, "output has 11 frames of 1 x 4 x 100")
local eq = true
for q = 1, 400 do eq = eq and math.abs(vals[10 * 400 + q] - last[q]) == 0 end
check(eq, "last frame equals the final field")
local pv = cardiac.h5read(tmp .. "/strip.h5", "/probes/mid/v")
check(#pv == 101, "probe data in the output file")
local xmf = assert(io.open(tmp .. "/strip.xmf")):read("a")
check(select(2, xmf:gsub("<Time Value", "")) == 11, "XDMF sidecar lists every frame")
local png = o and strip()
png:run(5)
png:png(tmp .. "/strip.png", {scale = 2})
local fh = assert(io.open(tmp .. "/strip.png", "rb"))
check(fh:read(8) == "\137PNG\r\n\26\n", "PNG written")
fh:close()
os.execute("rm -rf " .. tmp)

-- precision: the same planar wave in fp32 and fp64 (CPU); diff, benchmark and the new fields
do
  local mesh = cardiac.mesh{n = {60, 8}, dx = 0.25}
  local function wave(precision)
    local s = cardiac.simulation{mesh = mesh, model = "karma", D = 0.1, precision = precision}
    s:set("U", 3, cardiac.slab{axis = "x", from = 0, to = 1})
    s:run(40)
    return s
  end
  local s32, s64 = wave("fp32"), wave("fp64")
  local dmax, drms = s32:diff(s64)
  check(s32.precision == "fp32" and s64.precision == "fp64" and s64.layout == nil, "precision field")
  check(dmax > 0 and dmax < 1e-3 and drms < dmax, ("fp32 vs fp64 after 800 steps: max |dU| %.1e"):format(dmax))
  check(s32:diff(s32) == 0, "a simulation equals itself")
  local t0 = s32.steps
  local b = s32:benchmark{steps = 20, ["repeat"] = 3, warmup = 5}
  check(#b.times == 3 and b.median > 0 and b.per_step > 0 and s32.steps == t0 + 65, "benchmark times and advances")
end

-- geometry: synthetic shapes and meshes read from HDF5
do
  -- a cylinder shell: the cell count approaches pi (R^2 - r^2) L / h^3
  local h, R, r = 0.1, 2.0, 1.2
  local m = cardiac.mesh{n = {50, 50, 10}, dx = h, tissue = cardiac.cylinder{center = {2.5, 2.5, 0}, radius = R, inner = r}}
  local exact = math.pi * (R * R - r * r) * 1.0 / h ^ 3
  check(math.abs(m.tissue - exact) / exact < 0.02, ("cylinder shell: %d cells vs %.0f (2%%)"):format(m.tissue, exact))
  -- the synthetic heart fills about 27% of the thesis' 250 x 326 x 298 box
  local heart = cardiac.mesh{n = {250, 326, 298}, dx = 0.5, tissue = cardiac.biventricle()}
  local fill = heart.tissue / heart.ncells
  check(math.abs(fill - 0.27) < 0.01, ("biventricle fills %.3f of the box (thesis heart: about 0.27)"):format(fill))
  heart = nil
  collectgarbage()
  -- a mask written by a run and read back as a mesh: the same tissue, 2D stays 2D
  local dir = (os.getenv("TMPDIR") or "/tmp") .. "/cardiac_geom_" .. os.time() .. math.random(1e6)
  local g2 = cardiac.mesh{n = {30, 20}, dx = 0.25, tissue = cardiac.sphere{center = {3.75, 2.5}, radius = 2}}
  local s = cardiac.simulation{mesh = g2, model = "karma"}
  s:output{file = dir .. "/mask.h5", every = 10}
  s:step(1)
  s:close()
  local back = cardiac.mesh{file = dir .. "/mask.h5", dx = 0.25}
  local same = back.dim == 2 and back.n[1] == 30 and back.n[2] == 20 and back.tissue == g2.tissue
  for j = 1, 20 do for i = 1, 30 do same = same and back:is_tissue(i, j) == g2:is_tissue(i, j) end end
  check(same, ("mask read back from HDF5: 2D, 30 x 20, %d tissue cells"):format(back.tissue))
  -- a phase field (values between 0 and 1) cut at a threshold: the written U field
  s = cardiac.simulation{mesh = cardiac.mesh{n = {40, 10}, dx = 0.25}, model = "karma"}
  s:set("U", 0.8, cardiac.slab{axis = "x", from = 0, to = 2.5})
  s:output{file = dir .. "/field.h5", every = 10, vars = {"U"}}
  s:step(1)
  s:close()
  local pf = cardiac.mesh{file = dir .. "/field.h5", dataset = "/fields/U", threshold = 0.5, dx = 0.25}
  check(pf.dim == 2 and pf.tissue == 10 * 10, ("phase field cut at 0.5: %d tissue cells (100)"):format(pf.tissue))
  -- the 0/1 mask read as a phase field (phase = true): phi = 1 on the tissue, so
  -- the phase-field diffusion gives the mask's result
  local ph = cardiac.mesh{file = dir .. "/mask.h5", dx = 0.25, phase = true}
  local function run(m)
    local r = cardiac.simulation{mesh = m, model = "karma", dt = 0.02, D = 0.1}
    r:set("U", 3.0, cardiac.slab{axis = "x", from = 0, to = 3})
    r:step(300)
    return select(3, r:stats("U"))
  end
  local a, b = run(ph), run(g2)
  check(ph.phase and not g2.phase and ph.tissue == g2.tissue and math.abs(a - b) < 1e-5,
        ("phase = true on a 0/1 mask: the mask's run (mean U %.6f vs %.6f)"):format(a, b))
  os.execute("rm -rf " .. dir)
end

-- sim:set, sim:field and sim:diff in the state's own precision: an fp64
-- state keeps its digits where it is set and everywhere else (a float copy
-- of the field would round every cell)
do
  local mesh = cardiac.mesh{n = {6, 5}, dx = 0.25}
  local x = 0.1234567890123
  for _, precision in ipairs{"fp64", "fp32"} do
    local s = cardiac.simulation{mesh = mesh, model = "karma", precision = precision}
    s:set("U", x)
    s:set("U", 1 / 3, cardiac.slab{axis = "x", from = 0, to = 0.5})
    local f = s:field("U")
    local want = precision == "fp64" and x or string.unpack("f", string.pack("f", x))
    local third = precision == "fp64" and 1 / 3 or string.unpack("f", string.pack("f", 1 / 3))
    check(f[1] == third and f[3] == want and f[#f] == want,
          ("sim:set/field keep %s values: %.17g %.17g"):format(precision, f[1], f[3]))
    local t = cardiac.simulation{mesh = mesh, model = "karma", precision = precision}
    t:set("U", x)
    t:set("U", 1 / 3, cardiac.slab{axis = "x", from = 0, to = 0.5})
    t:set("U", x + 1e-12, cardiac.slab{axis = "x", from = 1.0, to = 1.25})
    local d = s:diff(t)
    check(precision == "fp64" and d > 5e-13 and d < 2e-12 or precision == "fp32" and d == 0,
          ("sim:diff sees an fp64 difference below a float's ulp (%s: %.3g)"):format(precision, d))
    s:close(); t:close()
  end
end

-- sim:run(ms) carries what a whole number of steps leaves over to the next
-- call: short runs add up to their sum, and a run shorter than half a step
-- does not stall a loop (each call used to round alone: dt 0.03 and 1000 x
-- run(0.1) reached 90 ms, dt 0.25 and run(0.1) never advanced)
do
  local s = cardiac.simulation{mesh = cardiac.mesh{n = {4}, dx = 0.5}, model = "karma", dt = 0.03, D = 0.1}
  for _ = 1, 1000 do s:run(0.1) end
  check(math.abs(s.t - 100) <= 0.015, string.format("1000 x run(0.1) at dt 0.03 reach t = %g ms (100 within dt/2)", s.t))
  local s2 = cardiac.simulation{mesh = cardiac.mesh{n = {4}, dx = 0.5}, model = "karma", dt = 0.25, D = 0.1}
  local calls = 0
  while s2.t < 5 and calls < 1000 do s2:run(0.1); calls = calls + 1 end
  check(s2.t >= 5 and calls <= 51, string.format("run(0.1) at dt 0.25 reaches 5 ms in %d calls", calls))
end

print(string.format("%d passed, %d failed", pass, fail))
if fail > 0 then os.exit(1) end
