-- Diffusion every k-th step only, measured before any kernel does it (issue
-- 34, goal 1: "fusing several time steps per kernel with the ionic state kept
-- on chip"). A kernel that kept ORd's state on chip for k steps without the
-- neighbours' V of each step could apply the diffusion once, k dt D lap(V),
-- and then k ionic steps: the scheme here, emulated on an ORd cable by
-- setting D to k D for one step and to 0 for the k - 1 after it
-- (sim:set_D), against the same cable with diffusion every step (fp32, dt
-- 0.05 ms, stimulated at the left end, 400 ms). Prints the largest
-- difference of activation time and APD90 along the cable and the conduction
-- velocity over its middle half in both (docs/gpu-notebook.md item 40).
--   cardiac protocols/ord_split_diffusion.lua [cells = 80] [dx_mm = 0.25] [D = 0.2] [k = 2]
-- (k D must stay under the stability limit for dt = 0.05 ms, which the
-- simulation checks.)
local N = math.tointeger(tonumber(arg and arg[1] or 80))
local dx, D = tonumber(arg and arg[2] or 0.25), tonumber(arg and arg[3] or 0.2)
local K = math.tointeger(tonumber(arg and arg[4] or 2))
if not (N and N >= 8) then error("ord_split_diffusion.lua: cells must be a whole number from 8", 0) end
if not (dx and dx > 0 and D and D > 0) then error("ord_split_diffusion.lua: dx_mm and D must be positive numbers", 0) end
if not (K and K >= 1) then error("ord_split_diffusion.lua: k must be a whole number of steps from 1", 0) end
cardiac.quiet = true
local dt, T = 0.05, 400

local function run(k)
  local sim = cardiac.simulation{mesh = cardiac.mesh{n = {N}, dx = dx}, model = cardiac.model("ohara_rudy"), dt = dt,
    D = D, precision = "fp32", stimuli = {cardiac.stimulus{region = cardiac.slab{axis = "x", from = 0, to = 0.5},
      amplitude = 80, duration = 1, start = 1}}}
  local maps = sim:activation{threshold = -40}
  local steps = math.floor(T / dt + 0.5)
  if k == 1 then
    sim:step(steps)
  else
    for s = 0, steps - 1 do
      if s % k == 0 then sim:set_D(k * D) elseif s % k == 1 then sim:set_D(0) end
      sim:step(1)
    end
  end
  local t, a = maps:field("first"), maps:field("apd")
  sim:close()
  return t, a
end

local t1, a1 = run(1)
local tk, ak = run(K)
local dT, dA = 0, 0
for i = 1, N do
  dT = math.max(dT, math.abs(t1[i] - tk[i]))
  dA = math.max(dA, math.abs(a1[i] - ak[i]))
end
local i0, i1 = N // 4, 3 * N // 4
local cv1, cvk = (i1 - i0) * dx / (t1[i1] - t1[i0]), (i1 - i0) * dx / (tk[i1] - tk[i0])
print(("ORd cable %d x %.3f mm, D %g mm^2/ms, dt %g ms, fp32: diffusion every %d step(s) with %d D against every step"):format(
  N, dx, D, dt, K, K))
print(("  max |dT| %.3f ms (last cell %.2f against %.2f ms), max |dAPD90| %.3f ms, CV %.4f against %.4f m/s (%+.1f%%)"):format(
  dT, tk[N], t1[N], dA, cvk, cv1, 100 * (cvk / cv1 - 1)))
