-- One decomposed run for tests/mpi_decomp.sh: the same script under
-- `mpirun -np N` must write the same file as in one process (bitwise).
--   cardiac tests/mpi_case.lua OUT.h5 DIM DECOMP [BACKEND [STENCIL [LAYOUT [full]]]]
-- DIM: 2 or 3; DECOMP: "auto" or ranks per axis as "2,1,1"; STENCIL: 2 or 4
-- (4: two ghost layers per face), or "phase": second order on a phase field
-- whose hole has a tanh border; LAYOUT: a GPU layout, "auto" (the default)
-- or "blocks" (blockDS, on either backend); "full": no hole in the tissue (the
-- layouts' unmasked kernels); "wide": no hole, on a grid wider than 256 cells
-- (tplane's tiles 64 cells wide with an x halo, docs/gpu-notebook.md item 20);
-- "broad": no hole, 512 x 512 cells a plane (81 such tiles: under mpirun with
-- the copy engines the face chunks fill the GPU's first wave, whose plan
-- chooses their width, cuda/tplane_plan.h plan_wide_faces); "deep": no
-- hole, 30 planes, so that on 4 ranks of z slabs the middle ranks too are
-- thick enough (7 or 8 planes) to compute their two faces first in one wave
-- of blocks (cuda/tplane_plan.h plan_chunks).
package.path = (arg[0]:match("(.*/)") or "./") .. "../scripts/?.lua;" .. package.path   -- require "phase"
local out, dim, split, backend = arg[1], tonumber(arg[2]), arg[3], arg[4] or "cpu"
local phase = arg[5] == "phase"
local order = phase and 2 or tonumber(arg[5] or "2")
local layout = arg[6] ~= "auto" and arg[6] or nil
local blocks                     -- LAYOUT "blocks": blockDS, blocks of 3 cells per axis
if layout == "blocks" then blocks, layout = 3, nil end
local wide, broad, deep = arg[7] == "wide", arg[7] == "broad", arg[7] == "deep"
local full = arg[7] == "full" or wide or broad or deep
cardiac.quiet = true
local decomp
if split ~= "auto" then
  decomp = {}
  for p in split:gmatch("%d+") do decomp[#decomp + 1] = tonumber(p) end
end
-- sizes that no split divides evenly; a hole and a stimulus that cross the
-- rank borders; a probe line across all of them
local n = dim == 3 and (wide and {290, 66, 21} or broad and {512, 512, 24} or deep and {23, 18, 30} or {23, 18, 21})
          or {61, 47}
local centre = dim == 3 and {2.9, 2.2, 2.6} or {7.6, 5.9}
local mesh
if phase then
  mesh = cardiac.mesh{n = n, dx = 0.25, phase = function(x, y, z)
    local r = math.sqrt((x - centre[1]) ^ 2 + (y - centre[2]) ^ 2 + (dim == 3 and (z - centre[3]) ^ 2 or 0))
    return 0.5 * (1 + math.tanh((r - 1.1) / 0.3))
  end}
else
  mesh = cardiac.mesh{n = n, dx = 0.25}
  if not full then mesh:set_tissue(cardiac.sphere{center = centre, radius = 1.1}, false) end
end
local model = cardiac.model("karma")
local function make()
  local s = cardiac.simulation{mesh = mesh, model = model, dt = 0.02, D = 0.1, backend = backend, decomp = decomp,
    stencil = order, layout = layout, blocks = blocks,
    stimuli = {cardiac.stimulus{region = cardiac.slab{axis = dim == 3 and "z" or "y", from = 0, to = 1.5},
                                amplitude = 8, duration = 1, start = 0},
               cardiac.stimulus{region = cardiac.sphere{center = centre, radius = 2.0}, amplitude = 6, duration = 0.6,
                                start = 3}}}
  -- regional parameters and a clamp whose regions cross the rank borders
  s:set_param({eps = 0.02, xm = 8}, cardiac.slab{axis = "x", from = 1.5, to = 4})
  s:set_param("gamma", 1.6, cardiac.sphere{center = centre, radius = 1.8})
  s:clamp{region = cardiac.slab{axis = dim == 3 and "z" or "y", from = 2, to = 2.6}, var = "U", value = 0.1,
          start = 1, duration = 2}
  return s
end
local sim = make()
sim:set("v", 0.2, cardiac.slab{axis = "x", from = 0, to = 2})
local line = {}
for k = 1, n[#n] do
  line[#line + 1] = dim == 3 and {n[1] // 2, n[2] // 3, k} or {n[1] // 3, k}
end
sim:probe{name = "line", cells = line, vars = {"U", "v"}, interval = 0.2}
local ecg = sim:ecg{electrodes = dim == 3 and {{-2, 2, 2.5}, {3, 8, 9}} or {{-2, 6, 0}, {8, 14, 0}}, interval = 0.5}
sim:output{file = out, interval = 2, vars = {"U", "v"}, overwrite = true}
local act = sim:activation{}
sim:run(6)
-- a checkpoint half way (gathered from every rank), and activation maps
sim:checkpoint(out .. ".ck.h5", {overwrite = true})
sim:run(6)
act:write(out .. ".maps.h5", {overwrite = true})
local cont = make()
cont:restore(out .. ".ck.h5", {params = true})   -- the sets and labels as saved, gathered from every rank
cont:run(6)
local dmax = 0
for _, v in ipairs{"U", "v"} do dmax = math.max(dmax, (cont:diff(sim, v))) end
-- whole-grid views agree on every rank
local f = sim:field("U")
local sum = 0
for q = 1, #f do sum = sum + f[q] end
local probe = sim:get("U", table.unpack(line[#line // 2]))
local _, umax = sim:stats("U")
local a_lo, a_hi, a_mean, a_n = act:stats("first")
-- the pseudo-ECG: each rank's sum, added over ranks (in another order than
-- one process adds the cells, hence 7 digits)
local e = ecg:data()
local esum = 0
for q = 1, #e.t do esum = esum + e[1][q] - e[2][q] end
-- phase singularities of a state set to spirals whose tips (2D) and
-- filaments (3D, tilted so that they cross x as well as z) lie next to the
-- rank borders of every split used here
require("phase").spirals(sim, dim == 3 and {{4.6, 2.3, 1}, {1.0, 3.7, -1}} or {{3.1, 6.0, 1}, {11.0, 5.8, -1}, {7.7, 9.0, 1}},
                         {tilt = 0.3})
local tips = {}
for _, t in ipairs{sim:tips{centre = {1, 0.5}}, sim:tips{}} do
  local txt = {}
  for _, p in ipairs(t) do txt[#txt + 1] = ("(%.9g %.9g %.9g %s)"):format(p.x, p.y, p.z or 0, p.charge or p.faces) end
  tips[#tips + 1] = #t .. " " .. table.concat(txt, " ")
end
print(("ranks %d  decomp %s  layout %s %s  blocks %s  sets %d  sum U %.9g  max U %.9g  probe %.9g  activation %.9g %.9g %.9g %d  ecg %d %.7g  tips %s  means %s  restored diff %g")
  :format(cardiac.ranks, split, sim.layout or "-", sim.tsteps or "-", tostring(sim.blocks), sim:param_sets(), sum, umax, probe, a_lo, a_hi, a_mean, a_n, #e.t, esum, tips[1],
          tips[2], dmax))
sim:close()
