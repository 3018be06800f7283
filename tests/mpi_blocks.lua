-- blockDS under mpirun (tests/mpi_decomp.sh): each rank stores the blocks
-- of its part (ghost layers included) that hold tissue, and the halo exchange
-- reads and writes them through the block map; the results must be the
-- one-process blockDS run's, bit for bit. A cylinder shell along z, so that
-- the slabs cut tissue and empty blocks alike. Prints the block size in use,
-- the whole-grid sums of two states and a probe for the comparison.
--   cardiac tests/mpi_blocks.lua [DECOMP (e.g. 2,2,1, or auto) [BACKEND [MODEL [PRECISION [MULTIRATE [tables|quiescent]]]]]]
-- MODEL: karma (the default) or ohara_rudy (41 states; on the GPU in fp64
-- and "mixed" its kernel keeps the state in shared memory). MULTIRATE: the
-- simulation's multirate (ORd's slow states every m-th step; the sums then
-- include nai, one of them). tables: ORd's gates from rate tables (fp64),
-- which every rank builds for itself. quiescent: ORd's cells below -86 mV
-- sit out multirate's holding steps (core/engine/quiescence.h), each rank's
-- on the same steps.
cardiac.quiet = true
local mesh = cardiac.mesh{n = {22, 19, 17}, dx = 0.25,
                          tissue = cardiac.cylinder{center = {2.75, 2.4, 0}, axis = "z", radius = 2.6, inner = 1.2}}
-- a corner at low z: the wave crosses the slab borders along z
local model = arg and arg[3] or "karma"
local ord = model == "ohara_rudy"
local st = cardiac.stimulus{region = cardiac.box{min = {0, 0, 0}, max = {1.5, 4.75, 1}}, amplitude = ord and 80 or 8,
                            duration = 1}
local decomp
if arg and arg[1] and arg[1] ~= "auto" then
  decomp = {}
  for n in arg[1]:gmatch("%d+") do decomp[#decomp + 1] = tonumber(n) end
end
local sim = cardiac.simulation{mesh = mesh, model = model, dt = ord and 0.05 or 0.02, D = 0.1, blocks = 3,
                               stimuli = {st}, decomp = decomp, backend = arg and arg[2] or "cpu",
                               precision = arg and arg[4], multirate = arg and tonumber(arg[5]),
                               tables = arg and arg[6] == "tables",
                               quiescent_below = arg and arg[6] == "quiescent" and -86 or nil}
local va, vb = ord and "V" or "U", ord and "cai" or "v"
local p = sim:probe{points = {{4.5, 2.4, 2.1}}, vars = {va}, interval = 0.5}
sim:run(ord and 16 or 8)   -- ORd: until the wave has crossed the probe and the slab borders
local function sum(var)
  local f, s = sim:field(var), 0
  for q = 1, #f do s = s + f[q] end
  return s
end
local d = p:data()
print(("blocks %s  sum %s %.9g  sum %s %.9g  probe %.9g %.9g%s"):format(tostring(sim.blocks), va, sum(va), vb, sum(vb),
  d[va][1][8], d[va][1][#d.t], sim.multirate > 1 and ("  multirate %d  sum nai %.9g"):format(sim.multirate, sum("nai")) or ""))
