-- The multiscale calcium model split over ranks, for tests/mpi_decomp.sh:
-- the channels' random numbers are keyed by global cell, dyad and step, not
-- by rank, so every split must write the same file as one process, bit for
-- bit: voltage, mean calcium, open channel counts, and a RyR clamp and a
-- stimulus that cross the rank borders.
-- Half way it saves a checkpoint (OUT.h5.ck.h5, dyads included: the same
-- file for every split), and a second simulation restores one (FROM, e.g.
-- the one-process run's, default its own) and must end equal to the first.
--   cardiac tests/mpi_calcium.lua OUT.h5 DECOMP [BACKEND [FROM]]   (DECOMP: "auto" or "2,1")
-- With BACKEND = "cuda" (one GPU per rank) the same comparison holds between
-- GPU runs (the GPU's cell level rounds differently from the CPU's in fp32).
local out, split, backend = arg[1], arg[2], arg[3] or "cpu"
local from = arg[4] or (out .. ".ck.h5")
cardiac.quiet = true
local decomp
if split ~= "auto" then
  decomp = {}
  for p in split:gmatch("%d+") do decomp[#decomp + 1] = tonumber(p) end
end
local mesh = cardiac.mesh{n = {9, 7}, dx = 0.25}
local model = cardiac.model("gaur_rudy", {dyads = 10, seed = 7})
local st = cardiac.stimulus{region = cardiac.box{min = {0, 0}, max = {0.6, 1.0}}, amplitude = 80, duration = 1}
local function make()
  local s = cardiac.simulation{mesh = mesh, model = model, dt = 0.05, D = 0.1, stimuli = {st}, decomp = decomp,
                               backend = backend}
  s:clamp_ryr{region = cardiac.box{min = {1.0, 0.5}, max = {2.2, 1.3}}, start = 2, duration = 12}
  return s
end
local sim = make()
sim:probe{name = "line", points = {{0.1, 0.9}, {1.1, 0.9}, {2.1, 0.9}}, vars = {"V", "ryr_open", "lcc_open"},
          interval = 0.5}
sim:output{file = out, interval = 5, vars = {"V", "cai", "ryr_open", "lcc_open"}, overwrite = true}
sim:run(10)
sim:checkpoint(out .. ".ck.h5", {overwrite = true})
sim:run(10)
local cont = make()
cont:restore(from)
cont:run(10)
local worst = 0
for _, v in ipairs(model:states()) do worst = math.max(worst, (cont:diff(sim, v.name))) end
print(("ranks %d  restored diff %g"):format(cardiac.ranks, worst))
sim:close()
