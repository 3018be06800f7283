-- blockDS storage (thesis 4.4, core/mesh/blocks.h) on the CPU backend: what
-- mesh:blocks reports on a geometry whose answer is known by hand, and
-- simulations stored in blocks equal to the whole-box ones bit for bit
-- (state, probes, output fields), for block sizes that do and do not divide
-- the grid, in 1D, 2D and 3D, stencils 2 and 4, a phase-field mesh, and a
-- small ORd heart. (The GPU's blockDS kernel is checked against the CPU in
-- tests/gpu_agreement.lua.)
cardiac.quiet = true
local checks = require "checks"   -- check(ok, fmt, ...), finish()
local check = checks.check

-- 40 x 30 cells, tissue in the 10 x 10 corner: with 8 x 8 blocks the box has
-- 5 x 4 blocks, the tissue touches 2 x 2 of them (256 cells)
local corner = cardiac.mesh{n = {40, 30}, dx = 1, tissue = cardiac.box{min = {0, 0}, max = {10, 10}}}
local r = corner:blocks(8)
check(r.blocks == 20 and r.stored == 4 and r.cells == 256, "corner, blocks 8x8: %d of %d blocks, %d cells stored",
      r.stored, r.blocks, r.cells)
check(math.abs(r.fraction - 256 / 1200) < 1e-12 and math.abs(r.fill - 100 / 256) < 1e-12,
      "corner: fraction %.4f (256/1200), fill %.4f (100/256)", r.fraction, r.fill)
-- warps of 32 stored cells are the blocks' 8 x 4 halves: both halves of the
-- blocks at y < 8 hold tissue, only the lower half (y = 8, 9) of the others
check(math.abs(r.computed - 6 * 32 / 1200) < 1e-12, "corner: computed %.4f (6 warps of 32 cells / 1200)", r.computed)
r = corner:blocks{7, 30}
check(r.stored == 2 and r.size[1] == 7 and r.size[2] == 30, "corner, blocks 7x30: %d stored", r.stored)

local function same(a, b, var, label)
  local mx = a:diff(b, var)
  check(mx == 0, "%s: max |whole box - blocks| of %s = %g", label, var, mx)
end

-- one simulation per storage, with a stimulus and a probe; returns sim, probe data
local function run(spec, blocks)
  local sim = cardiac.simulation{mesh = spec.mesh, model = spec.model, dt = spec.dt, D = spec.D,
                                 stencil = spec.stencil, precision = spec.precision, blocks = blocks}
  sim:add_stimulus(cardiac.stimulus{region = spec.region, amplitude = spec.amp, duration = 1})
  local p = sim:probe{cells = spec.probes, vars = {spec.var}, every = 5}
  sim:step(spec.steps)
  return sim, p:data()
end

local function compare(spec, block_sizes)
  local whole, pw = run(spec, nil)
  local lo, hi = whole:stats(spec.var)
  check(hi - lo > spec.spread, "%s: the wave runs (%s in [%.3g, %.3g])", spec.name, spec.var, lo, hi)
  for _, b in ipairs(block_sizes) do
    local bs, pb = run(spec, b)
    local label = ("%s, blocks %s"):format(spec.name, bs.blocks)
    same(whole, bs, spec.var, label)
    local pdiff = 0
    for c = 1, #pw[spec.var] do
      for q = 1, #pw.t do pdiff = math.max(pdiff, math.abs(pw[spec.var][c][q] - pb[spec.var][c][q])) end
    end
    check(pdiff == 0, "%s: probe samples equal (max diff %g)", label, pdiff)
    bs:close()
  end
  whole:close()
end

local box3 = cardiac.mesh{n = {21, 18, 13}, dx = 0.2}
box3:set_tissue(cardiac.sphere{center = {2.1, 1.8, 1.3}, radius = 0.9}, false)
compare({name = "karma 3D, hole, stencil 2", mesh = box3, model = "karma", dt = 0.02, D = 0.05, stencil = 2,
         var = "U", amp = 3, region = cardiac.slab{axis = "x", from = 0, to = 0.6}, steps = 300, spread = 1,
         probes = {{1, 1, 1}, {10, 9, 7}, {21, 18, 13}, {15, 3, 11}}}, {8, {5, 4, 3}, {2, 2, 2}})
compare({name = "aliev_panfilov 3D fp64, stencil 4", mesh = box3, model = "aliev_panfilov", dt = 0.01, D = 0.05,
         stencil = 4, precision = "fp64", var = "V", amp = 200, region = cardiac.slab{axis = "z", from = 0, to = 0.6},
         steps = 300, spread = 20, probes = {{3, 4, 5}, {20, 17, 12}}}, {{4, 3, 2}, 16})
local sheet = cardiac.mesh{n = {45, 31}, dx = 0.25, tissue = cardiac.sphere{center = {5.6, 3.9}, radius = 3.5}}
compare({name = "mitchell_schaeffer 2D disc", mesh = sheet, model = "mitchell_schaeffer", dt = 0.05, D = 0.1,
         var = "v", amp = 0.5, region = cardiac.slab{axis = "y", from = 0, to = 2}, steps = 100, spread = 0.3,
         probes = {{20, 15}, {40, 5}}}, {{8, 8}, {6, 1}, {45, 31}})
local cable = cardiac.mesh{n = {101}, dx = 0.1}
compare({name = "bueno_orovio 1D", mesh = cable, model = "bueno_orovio", dt = 0.02, D = 0.1, stencil = 4,
         var = "u", amp = 1, region = cardiac.slab{axis = "x", from = 0, to = 0.5}, steps = 500, spread = 0.5,
         probes = {{50}, {101}}}, {{7}, {32}})
local R = 2.0
local disc = cardiac.mesh{n = {50, 50}, dx = 0.1, phase = function(x, y)
  return 0.5 * (1 - math.tanh((math.sqrt((x - 2.5) ^ 2 + (y - 2.5) ^ 2) - R) / 0.2)) end}
compare({name = "karma 2D phase field", mesh = disc, model = "karma", dt = 0.01, D = 0.1, var = "U", amp = 5,
         region = cardiac.slab{axis = "x", from = 0, to = 1.2}, steps = 600, spread = 1,
         probes = {{25, 25}, {45, 25}}}, {{8, 8}, {3, 5}})
-- the small heart of protocols/ord_heart.lua, 41 states, fp64, a few steps
local heart = cardiac.mesh{n = {25, 33, 30}, dx = 5, tissue = cardiac.biventricle()}
compare({name = "ohara_rudy heart", mesh = heart, model = "ohara_rudy", dt = 0.05, D = 0.3, var = "V", amp = 80,
         region = cardiac.slab{axis = "z", from = 0, to = 15}, steps = 60, spread = 50, precision = "fp64",
         probes = {{12, 16, 2}, {5, 20, 10}}}, {{4, 4, 4}, {2, 2, 2}})

-- output files: the fields written from blocks equal the whole box's, cells
-- outside the stored blocks included (they hold the resting state)
local tmp = (os.getenv("TMPDIR") or "/tmp") .. "/cardiac_blocks_" .. tostring(os.time()) .. math.random(1e6)
local files = {}
for q, b in ipairs{false, {8, 8}} do
  local sim = cardiac.simulation{mesh = sheet, model = "mitchell_schaeffer", dt = 0.05, D = 0.1, blocks = b or nil}
  sim:add_stimulus(cardiac.stimulus{region = cardiac.slab{axis = "y", from = 0, to = 2}, amplitude = 0.5, duration = 1})
  files[q] = tmp .. q .. ".h5"
  sim:output{file = files[q], every = 5, vars = {"v", "h"}}
  sim:run(20)
  sim:close()
end
for _, name in ipairs{"/fields/v", "/fields/h"} do
  local a, b = cardiac.h5read(files[1], name), cardiac.h5read(files[2], name)
  local equal = #a == #b and #a > 0
  for c = 1, #a do equal = equal and a[c] == b[c] end
  check(equal, "output %s of whole box and blocks 8x8: %d values, equal", name, #a)
end
for _, f in ipairs(files) do os.remove(f); os.remove(f:gsub("%.h5$", ".xdmf")) end

checks.finish()
