-- blockDS under mpirun (tests/mpi_decomp.sh): on the CPU each rank stores the
-- blocks of its part (ghost layers included) that hold tissue, and the halo
-- exchange reads and writes them through the block map; the results must be
-- the one-process blockDS run's, bit for bit. A cylinder shell along z, so
-- that the slabs cut tissue and empty blocks alike. Prints the block size in
-- use, the whole-grid sums of both states and a probe for the comparison.
--   cardiac tests/mpi_blocks.lua [decomp, e.g. 2,2,1]
cardiac.quiet = true
local mesh = cardiac.mesh{n = {22, 19, 17}, dx = 0.25,
                          tissue = cardiac.cylinder{center = {2.75, 2.4, 0}, axis = "z", radius = 2.6, inner = 1.2}}
-- a corner at low z: the wave crosses the slab borders along z
local st = cardiac.stimulus{region = cardiac.box{min = {0, 0, 0}, max = {1.5, 4.75, 1}}, amplitude = 8, duration = 1}
local decomp
if arg and arg[1] then
  decomp = {}
  for n in arg[1]:gmatch("%d+") do decomp[#decomp + 1] = tonumber(n) end
end
local sim = cardiac.simulation{mesh = mesh, model = "karma", dt = 0.02, D = 0.1, blocks = 3, stimuli = {st},
                               decomp = decomp}
local p = sim:probe{points = {{4.5, 2.4, 2.1}}, vars = {"U"}, interval = 0.5}
sim:run(8)
local function sum(var)
  local f, s = sim:field(var), 0
  for q = 1, #f do s = s + f[q] end
  return s
end
local d = p:data()
print(("blocks %s  sum U %.9g  sum v %.9g  probe %.9g %.9g"):format(tostring(sim.blocks), sum("U"), sum("v"),
                                                                   d.U[1][8], d.U[1][#d.t]))
