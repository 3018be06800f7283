-- ten Tusscher-Panfilov 2006: single cells of each type paced at 1 Hz and
-- 0.5 Hz from their stored steady states (dt = 0.02 ms, the paper's), checked
-- (tests/cell_validation.lua) against
--  * the independent reference of tests/data/tp06_reference.csv (Myokit with
--    CVODE on the Myokit encoding of TP06 with the paper's R and F, 1000
--    beats; made by tests/data/make_reference.py): resting potential, peak,
--    max dV/dt, APD90 and the calcium transient, and the whole V(t) of the
--    beat; the first beat from the authors' initial values converging to the
--    reference's as dt shrinks;
--  * the paper's qualitative features: APD90 longer at 0.5 Hz; the M cell's
--    APD the longest (its reduced IKs); the spike-and-dome notch of the
--    epicardial and M cells and its absence in the endocardial one (Ito);
-- and reports the change fp32 makes to each metric. Tolerances: the offsets
-- measured when the test was written (docs/models.md) with a margin. At
-- dt = 0.02 ms the forward-Euler upstroke overshoots the reference's peak by
-- about 2 mV (first order: 0.5 mV at dt = 0.005, first-beat checks); every
-- other steady-state metric was within 1% (APD90 0.2%, 0.6 ms).
local here = arg[0]:match("(.*/)") or "./"
package.path = here .. "?.lua;" .. here .. "../scripts/?.lua;" .. package.path
local v = (require "cell_validation").new("tentusscher_2006", here .. "data/")

v:first_beats{apd = 0.1, peak = 0.6, ca = 0.002, converge = 3}
v:steady_states(dofile(here .. "data/tp06_steady_2000.lua"),
  {steady = 0.2, rest = 0.1, peak = 3.0, dvdt = 0.02, apd = 0.005, ca_diast = 0.01, ca_peak = 0.02, rms = 0.5})
v:rate_and_order()

-- The notch: V's minimum in the 30 ms after the peak, and how far V rises
-- again from it in the next 150 ms (the dome; mV).
local function dome(r)
  local ipk = 1
  for i = 1, #r.v do if r.v[i] > r.v[ipk] then ipk = i end end
  local imin = ipk
  for i = ipk, #r.v do
    if r.t[i] - r.t[ipk] > 30 then break end
    if r.v[i] < r.v[imin] then imin = i end
  end
  local top = r.v[imin]
  for i = imin, #r.v do
    if r.t[i] - r.t[imin] > 150 then break end
    top = math.max(top, r.v[i])
  end
  return top - r.v[imin], r.v[imin]
end
local rise = {}
for _, c in ipairs{"endo", "epi", "M"} do
  local low
  rise[c], low = dome(v.results[c .. 1000])
  print(string.format("%-4s 1 Hz: notch at %.1f mV, dome %.2f mV above it", c, low, rise[c]))
end
v:check(rise.epi > 5 and rise.M > 5 and rise.endo < 3,
        "spike and dome in epi (%.1f mV) and M (%.1f mV), not in endo (%.1f mV)", rise.epi, rise.M, rise.endo)

-- fp32: the same beats in single precision (reported; docs/models.md)
v:precision("fp32", 1)
v:finish()
