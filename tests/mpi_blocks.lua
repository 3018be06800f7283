-- blockDS under mpirun (tests/mpi_decomp.sh): blocks are not split over
-- ranks yet, so each rank stores its part whole; a script that asks for
-- blocks must still run unchanged and give the one-process blockDS run's
-- values. Prints the whole-grid sums and a probe for the comparison.
--   cardiac tests/mpi_blocks.lua
cardiac.quiet = true
local mesh = cardiac.mesh{n = {22, 19, 17}, dx = 0.25,
                          tissue = cardiac.cylinder{center = {2.75, 2.4, 0}, axis = "z", radius = 2.6, inner = 1.2}}
local st = cardiac.stimulus{region = cardiac.slab{axis = "x", from = 0, to = 1.5}, amplitude = 8, duration = 1}
local sim = cardiac.simulation{mesh = mesh, model = "karma", dt = 0.02, D = 0.1, blocks = 3, stimuli = {st}}
local p = sim:probe{points = {{4.5, 2.4, 2.1}}, vars = {"U"}, interval = 0.5}
sim:run(8)
local f, sum = sim:field("U"), 0
for q = 1, #f do sum = sum + f[q] end
local d = p:data()
print(("blocks %s  sum U %.9g  probe %.9g %.9g"):format(tostring(sim.blocks), sum,
                                                       d.U[1][8], d.U[1][#d.t]))
