-- What the state's precision does to the ORd heart (protocols/ord_heart.lua's
-- case): the same heart, excitation and steps in fp64 (the reference),
-- "mixed" (fp64 with the gate kinetics in fp32, core/engine/instances.h) and fp32.
-- For each precision against fp64: the largest and RMS difference of V over
-- the tissue at the end, the largest difference of the activation times
-- (first upstroke through -40 mV) over the cells both activate, and how many
-- cells activate in one and not the other.
--   cardiac protocols/ord_precision.lua [scale] [t_ms] [csv]
-- scale 1 is the full heart (GPU); 0.2 the small one the CPU runs in seconds.
local scale = tonumber(arg and arg[1]) or 1
local T = tonumber(arg and arg[2]) or 200
local csv = arg and arg[3]
local n = {math.floor(250 * scale + 0.5), math.floor(326 * scale + 0.5), math.floor(298 * scale + 0.5)}
local dx = 0.5 / scale
cardiac.quiet = true
local mesh = cardiac.mesh{n = n, dx = dx, tissue = cardiac.biventricle()}
local backend = cardiac.gpu() and "cuda" or "cpu"

local function run(precision)
  local sim = cardiac.simulation{mesh = mesh, model = "ohara_rudy", dt = 0.05, D = 0.3, precision = precision,
                                 backend = backend, blocks = 2}
  sim:set("V", 0.0, cardiac.slab{axis = "z", from = 0, to = 0.05 * n[3] * dx})
  local maps = sim:activation{threshold = -40}
  sim:run(T)
  return sim, maps:field("first")
end

local ref, tref = run("fp64")
print(("ORd heart %dx%dx%d (dx %.2f mm), %d tissue cells, %s, %g ms (%d steps), against fp64:"):format(
  n[1], n[2], n[3], dx, mesh.tissue, backend, T, ref.steps))
local rows = {}
for _, precision in ipairs{"mixed", "fp32"} do
  local sim, t = run(precision)
  local vmax, vrms = sim:diff(ref)
  local dmax, both, only = 0, 0, 0
  for c = 1, #t do
    local a, b = t[c] == t[c], tref[c] == tref[c]   -- NaN: not activated
    if a and b then
      both = both + 1
      dmax = math.max(dmax, math.abs(t[c] - tref[c]))
    elseif a ~= b then
      only = only + 1
    end
  end
  print(("  %-5s max |dV| %.3e mV, RMS %.3e mV; activation: %d cells in both, max |dT| %.3e ms, %d in one only"):format(
    precision, vmax, vrms, both, dmax, only))
  rows[#rows + 1] = ("%s,%d,%d,%d,%g,%.6e,%.6e,%d,%.6e,%d"):format(precision, n[1], n[2], n[3], T, vmax, vrms, both,
                                                                 dmax, only)
  sim:close()
end
ref:close()
if csv then
  local f = assert(io.open(csv, "w"))
  f:write("precision,nx,ny,nz,t_ms,max_dV_mV,rms_dV_mV,activated,max_dT_ms,activated_in_one_only\n")
  for _, r in ipairs(rows) do f:write(r, "\n") end
  f:close()
end
