-- What finding phase singularities costs (sim:tips, core/measure/tips.h): Karma on
-- an n^3 box (dx = 0.5 mm, fp32) with the thesis' scroll wave (the planar
-- wave of eqs. 5.4-5.5, then the S2 of eq. 5.7 as the wave's back passes,
-- protocols/repro_thesis_spiral.lua), run to t ms; then the wall-clock time
-- of sim:tips{} (median of 5 after one warm-up call; also with a given centre,
-- which skips the tissue sums) against the time of one
-- step. With a GPU the tips are found on it; the same state is then restored
-- from a checkpoint into a CPU simulation to time the host's way of finding
-- them (the way the GPU backend used to take, after copying both fields to
-- the host) and to check that both find the same filaments.
-- Then the filaments are followed for 100 ms (tracking.tips, every 2 ms).
-- With Karma's default tau_E = 2.5 ms the back passes at about 255 ms at n =
-- 256 (90 ms at n = 48); a t before the S2 takes the state at the S2.
--   cardiac protocols/tips_cost.lua [n = 256] [t = 400]
local n, tmax = tonumber(arg[1] or 256), tonumber(arg[2] or 400)
cardiac.quiet = true
local function median(x) table.sort(x) return x[(#x + 1) // 2] end
local function timed(fn, reps)
  fn()
  local t = {}
  for q = 1, reps do
    local t0 = cardiac.clock()
    fn()
    t[q] = (cardiac.clock() - t0) * 1000
  end
  return median(t)
end
local mesh = cardiac.mesh{n = {n, n, n}, dx = 0.5}
local sim = cardiac.simulation{mesh = mesh, model = "karma", dt = 0.05, D = 0.1, backend = "auto", skip_rest = false}
sim:set("v", 0.5)
sim:set("U", 3.0, cardiac.slab{axis = "z", from = 0, to = 0.05 * n * 0.5})
local f, mid = n / 256, {n // 2, n // 2, math.floor(80 * n / 256) + 1}
local rose = false
while true do                                      -- until the wave's back passes the S2 region's middle
  sim:step(100)
  local u = sim:get("U", table.unpack(mid))
  if u >= 1 then rose = true elseif rose then break end
end
sim:set("U", 3.0, cardiac.where(function(x, y, z)
  local i, k = x / 0.5 - 0.5, z / 0.5 - 0.5
  return k > 60 * f and k < 100 * f and i >= 117 * f and i <= 137 * f
end))
sim:run(math.max(0, tmax - sim.t))
local found
local t_tips = timed(function() found = sim:tips{} end, 5)
local t_given = timed(function() sim:tips{centre = {1, 0.5}} end, 5)   -- without the tissue sums
local t_step = timed(function() sim:step(20) end, 5) / 20
local faces = 0
for _, p in ipairs(found) do faces = faces + p.faces end
local dev = cardiac.gpu() and sim.backend == "cuda" and cardiac.gpu().name or "CPU"
print(("Karma %d^3 fp32 at t = %.0f ms, backend %s (%s)"):format(n, sim.t, sim.backend, dev))
print(("%-34s %10s %10s %8s"):format("", "ms", "steps", "found"))
print(("%-34s %10.3f %10s %8s"):format("one step", t_step, "1", "-"))
print(("%-34s %10.3f %10.1f %8s"):format("sim:tips{} on the " .. sim.backend, t_tips, t_tips / t_step,
                                          ("%d (%d faces)"):format(#found, faces)))
print(("%-34s %10.3f %10.1f %8s"):format("  the same with centre = {1, 0.5}", t_given, t_given / t_step, "-"))
if sim.backend == "cuda" then
  -- the same file name on every rank under mpirun (os.tmpname differs between them)
  local ck = ("tips_cost_%d_checkpoint.h5"):format(n)
  sim:checkpoint(ck, {overwrite = true})
  local cpu = cardiac.simulation{mesh = mesh, model = "karma", dt = 0.05, D = 0.1, backend = "cpu"}
  cpu:restore(ck)
  local host
  local t0 = cardiac.clock()
  host = cpu:tips{}
  local t_host = (cardiac.clock() - t0) * 1000
  if cardiac.rank == 0 then os.remove(ck) end   -- every rank has read it: cpu:tips is collective
  -- the GPU's filaments at the checkpoint's time (the step timing above moved on from `found`)
  local now, nfaces = sim:tips{}, 0
  for _, p in ipairs(now) do nfaces = nfaces + p.faces end
  local hfaces = 0
  for _, p in ipairs(host) do hfaces = hfaces + p.faces end
  print(("%-34s %10.3f %10.1f %8s"):format("sim:tips{} on the host (CPU sim)", t_host, t_host / t_step,
                                            ("%d (%d faces)"):format(#host, hfaces)))
  print(("same filaments on both at t = %.0f ms: %s"):format(sim.t, tostring(#host == #now and hfaces == nfaces)))
end

-- the filaments followed for 100 ms, a sample every 2 ms (scripts/tracking.lua):
-- the wall-clock time against the same 100 ms without sampling
package.path = (arg[0] and arg[0]:match("(.*/)") or "protocols/") .. "../scripts/?.lua;" .. package.path
local tracking = require "tracking"
local t0 = cardiac.clock()
local paths = tracking.tips(sim, {duration = 100, every = 2})
local t_track = cardiac.clock() - t0
t0 = cardiac.clock()
sim:run(100)
local t_plain = cardiac.clock() - t0
local longest = 0
for _, p in ipairs(paths) do longest = math.max(longest, #p.t) end
print(("tracking.tips, 100 ms every 2 ms: %.3f s (without sampling %.3f s); %d trajectories, the longest through "
       .. "%d of 51 samples"):format(t_track, t_plain, #paths, longest))
