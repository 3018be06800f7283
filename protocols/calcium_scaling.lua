-- Weak scaling of the multiscale calcium model (gaur_rudy, 10,000 dyads per
-- cell, fp32) over the ranks of an MPI job, one GPU per rank (issue 6): every
-- rank holds 24 x 24 x 24 cells (the 12 mm cube of the RyR experiment at
-- dx = 0.5 mm, 13,824 cells, 1.4e8 dyads); the grid grows along z.
--   mpirun -np N cardiac protocols/calcium_scaling.lua [CSV] [steps]
-- Prints and appends to CSV (default results/calcium_scaling.csv) one row:
-- ms per step (sim:benchmark: median of 5 repetitions after a warm-up, CUDA
-- events, on the slowest rank), cell-steps per second over all ranks, and
-- the part of a step spent in the halo exchange that compute did not hide.
-- A wave is started at z = 0 so that channels open somewhere in the tissue.
local csv = arg[1] or "results/calcium_scaling.csv"
local steps = tonumber(arg[2]) or 20
local P = cardiac.ranks
cardiac.quiet = true
local n = {24, 24, 24 * P}
local st = cardiac.stimulus{region = cardiac.slab{axis = "z", from = 0, to = 0.5}, amplitude = 80, duration = 1}
local sim = cardiac.simulation{mesh = cardiac.mesh{n = n, dx = 0.5}, model = cardiac.model("gaur_rudy", {dyads = 10000}),
                               dt = 0.05, D = 0.2, stimuli = {st}, backend = "cuda", precision = "fp32"}
sim:run(2)
local b = sim:benchmark{steps = steps, ["repeat"] = 5, warmup = 2}
local cells = n[1] * n[2] * n[3]
local row = ("%d,%dx%dx%d,%d,%.4f,%.0f,%.4f,%s,%s"):format(P, n[1], n[2], n[3], cells, b.per_step,
             cells / (b.per_step * 1e-3), b.exchange_per_step, cardiac.gpu().name, os.date("!%Y-%m-%d"))
if cardiac.rank == 0 then
  print(("ranks %d  %dx%dx%d cells  %.3f ms/step  %.0f cell-steps/s  exchange %.4f ms/step"):format(P, n[1], n[2],
        n[3], b.per_step, cells / (b.per_step * 1e-3), b.exchange_per_step))
  local dir = csv:match("^(.*)/[^/]*$")
  if dir then os.execute("mkdir -p '" .. dir .. "'") end
  local f = io.open(csv, "r")
  local fresh = not f
  if f then f:close() end
  f = assert(io.open(csv, "a"))
  if fresh then f:write("ranks,grid,cells,ms_per_step,cell_steps_per_s,exchange_ms_per_step,gpu,date\n") end
  f:write(row, "\n")
  f:close()
end
sim:close()
