-- The multiscale calcium model split over ranks, for tests/mpi_decomp.sh:
-- the channels' random numbers are keyed by global cell, dyad and step, not
-- by rank, so every split must write the same file as one process, bit for
-- bit: voltage, mean calcium, open channel counts, and a RyR clamp and a
-- stimulus that cross the rank borders.
--   cardiac tests/mpi_calcium.lua OUT.h5 DECOMP [BACKEND]   (DECOMP: "auto" or "2,1")
-- With BACKEND = "cuda" (one GPU per rank) the same comparison holds between
-- GPU runs (the GPU's cell level rounds differently from the CPU's in fp32).
local out, split, backend = arg[1], arg[2], arg[3] or "cpu"
cardiac.quiet = true
local decomp
if split ~= "auto" then
  decomp = {}
  for p in split:gmatch("%d+") do decomp[#decomp + 1] = tonumber(p) end
end
local mesh = cardiac.mesh{n = {9, 7}, dx = 0.25}
local model = cardiac.model("gaur_rudy", {dyads = 10, seed = 7})
local st = cardiac.stimulus{region = cardiac.box{min = {0, 0}, max = {0.6, 1.0}}, amplitude = 80, duration = 1}
local sim = cardiac.simulation{mesh = mesh, model = model, dt = 0.05, D = 0.1, stimuli = {st}, decomp = decomp,
                               backend = backend}
sim:clamp_ryr{region = cardiac.box{min = {1.0, 0.5}, max = {2.2, 1.3}}, start = 2, duration = 5}
sim:probe{name = "line", points = {{0.1, 0.9}, {1.1, 0.9}, {2.1, 0.9}}, vars = {"V", "ryr_open", "lcc_open"},
          interval = 0.5}
sim:output{file = out, interval = 5, vars = {"V", "cai", "ryr_open", "lcc_open"}, overwrite = true}
sim:run(20)
sim:close()
