-- What the state's precision does to the ORd heart (protocols/ord_heart.lua's
-- case), and what each precision costs: the same heart, excitation and steps
-- in fp64 (the reference), "mixed" (fp64 with the gate kinetics in fp32,
-- core/engine/instances.h), fp32 and "fp32h" (fp32 with 15 gates stored in
-- IEEE half, core/engine/half_round.h), fp32 and fp32h with multirate = 10
-- (ORd's 14 slow states stepped every 10th step, core/engine/multirate.h),
-- and "fp32g" with multirate = 10 (every gate in 16 bits, the 13 not in half
-- as fractions of [0, 1], core/engine/fraction16.h; it needs the multirate),
-- and fp64 with the gates' steps from rate tables over V
-- (core/engine/rate_tables.h), alone and with multirate = 10, and last fp64
-- with g_na changed by a relative 1e-6 (the comparison's sensitivity; the
-- size is perturb=).
-- For each, beside the wall time
-- of its run (ms per step), against fp64:
--  * V at the end: the largest and RMS difference over the tissue;
--  * activation times (first upstroke through -40 mV): the largest difference
--    over the cells both activate, how many cells differ by more than 1 ms
--    (issue 34's bound), and how many activate in one run only;
--  * APD90: the same over the cells that repolarised in both, with the 2 ms
--    bound.
-- Over one whole beat (t_ms = 700), every cell's activation and APD are
-- compared; the report says how many tissue cells activated, when the last
-- did, and how many activated cells had not repolarised at the end.
-- With quiescent=v (mV), three rows more: fp32g, fp32h and fp64 with
-- multirate = 10 and quiescent cells below v (core/engine/quiescence.h);
-- rows=quiescent runs those alone beside the reference.
--   cardiac protocols/ord_precision.lua [scale] [t_ms] [csv] [name=value ...] [perturb=1e-6] [quiescent=v]
--                                       [rows=all|quiescent]
-- scale 1 is the full heart (GPU); 0.2 the small one the CPU runs in seconds.
-- name=value: model parameters (e.g. ina_m_shift=10, the theses' INa
-- activation, with which the wave crosses the heart at dx = 0.5 mm;
-- docs/models.md, "Conduction velocity at coarse grids"). perturb: the last
-- row's relative change of g_na (default 1e-6).
local scale = tonumber(arg and arg[1]) or 1
local T = tonumber(arg and arg[2]) or 700
local csv = arg and arg[3]
if csv == "-" then csv = nil end
local params, perturb, quiescent, rowset = {}, 1e-6, nil, "all"
for i = 4, arg and #arg or 0 do
  local k, v = arg[i]:match("^([%w_]+)=(.+)$")
  if k == "rows" then
    assert(v == "all" or v == "quiescent", "ord_precision: rows must be all or quiescent, got " .. v)
    rowset = v
  else
    assert(k and tonumber(v), "ord_precision: model parameters are name=value, got " .. arg[i])
    if k == "perturb" then perturb = tonumber(v)
    elseif k == "quiescent" then quiescent = tonumber(v)
    else params[k] = tonumber(v) end
  end
end
assert(rowset == "all" or quiescent, "ord_precision: rows=quiescent needs quiescent=v")
assert(perturb > 0 and perturb < 1, "ord_precision: perturb must lie in (0, 1)")
local model = cardiac.model("ohara_rudy", params)
local n = {math.floor(250 * scale + 0.5), math.floor(326 * scale + 0.5), math.floor(298 * scale + 0.5)}
local dx = 0.5 / scale
cardiac.quiet = true
local mesh = cardiac.mesh{n = n, dx = dx, tissue = cardiac.biventricle()}
local backend = cardiac.gpu() and "cuda" or "cpu"
local ACT_BOUND, APD_BOUND = 1.0, 2.0   -- ms (issue 34, goal 1)

local function run(precision, multirate, tables, m, below)
  local sim = cardiac.simulation{mesh = mesh, model = m or model, dt = 0.05, D = 0.3, precision = precision,
                                 backend = backend, blocks = 2, multirate = multirate, tables = tables,
                                 quiescent_below = below}
  sim:set("V", 0.0, cardiac.slab{axis = "z", from = 0, to = 0.05 * n[3] * dx})
  local maps = sim:activation{threshold = -40}
  sim:step(1)   -- the kernels loaded before the clock starts
  local t0 = cardiac.clock()
  sim:run(T)
  local wall = cardiac.clock() - t0
  return sim, maps:field("first"), maps:field("apd"), wall
end

-- Compares two maps over the cells with a value in both (NaN: none).
local function compare(a, b, bound)
  local worst, both, over, only = 0, 0, 0, 0
  for c = 1, #a do
    local x, y = a[c], b[c]
    local hx, hy = x == x, y == y
    if hx and hy then
      both = both + 1
      local d = math.abs(x - y)
      if d > worst then worst = d end
      if d > bound then over = over + 1 end
    elseif hx ~= hy then
      only = only + 1
    end
  end
  return {max = worst, both = both, over = over, only = only}
end

local ref, tref, aref, wref = run("fp64")
local last, unrep = 0, 0
for c = 1, #tref do
  if tref[c] == tref[c] then
    if tref[c] > last then last = tref[c] end
    if aref[c] ~= aref[c] then unrep = unrep + 1 end
  end
end
local pnames = {}
for k, v in pairs(params) do pnames[#pnames + 1] = k .. "=" .. v end
table.sort(pnames)
print(("ORd heart %dx%dx%d (dx %.2f mm), %d tissue cells, %s, %g ms (%d steps)%s; fp64: %d cells activated, the last "
  .. "at %.1f ms, %d of them not repolarised at the end"):format(n[1], n[2], n[3], dx, mesh.tissue, backend, T,
  ref.steps - 1, #pnames > 0 and ", " .. table.concat(pnames, " ") or "", compare(tref, tref, 0).both, last, unrep))
local rows = {}
local function row(precision, wall, vmax, vrms, act, apd)
  local steps = ref.steps - 1
  print(("  %-18s %7.2f s (%.4f ms/step)  max |dV| %.3e mV, RMS %.3e  activation: %d cells, max |dT| %.3f ms, "
    .. "%d over %g ms, %d in one only  APD90: %d cells, max |dAPD| %.3f ms, %d over %g ms, %d in one only"):format(
    precision, wall, 1000 * wall / steps, vmax, vrms, act.both, act.max, act.over, ACT_BOUND, act.only, apd.both,
    apd.max, apd.over, APD_BOUND, apd.only))
  rows[#rows + 1] = ("%s,%s,%d,%d,%d,%d,%g,%d,%.3f,%.5f,%.6e,%.6e,%d,%.6e,%d,%d,%d,%.6e,%d,%d,%d,%s"):format(precision,
    #pnames > 0 and table.concat(pnames, " ") or "paper", n[1], n[2], n[3], mesh.tissue, T, steps, wall, 1000 * wall / steps, vmax, vrms, act.both, act.max, act.over, act.only,
    apd.both, apd.max, apd.over, apd.only, unrep, backend == "cuda" and cardiac.gpu().name or "cpu")
end
row("fp64", wref, 0, 0, compare(tref, tref, ACT_BOUND), compare(aref, aref, APD_BOUND))
-- The last row is fp64 again with INa's conductance g_na larger by a
-- relative 1e-6 (perturb=), about the rate tables' interpolation error
-- (docs/numerics.md): what a perturbation of that size moves by itself, the
-- floor against which the other rows' differences are read (its kernel runs
-- the parameters unfolded, so its time is not fp64's).
local pert = {}
for k, v in pairs(params) do pert[k] = v end
pert.g_na = (params.g_na or model:get("g_na")) * (1 + perturb)
local psize = ("%g"):format(perturb):gsub("e%-0", "e-")   -- 1e-6, not 1e-06
local hows = {}
if rowset == "all" then
  hows = {{"mixed"}, {"fp32"}, {"fp32h"}, {"fp32", 10}, {"fp32h", 10}, {"fp32g", 10}, {"fp64", nil, true},
          {"fp64", 10, true},
          {"fp64", name = "fp64 g_na x (1+" .. psize .. ")", model = cardiac.model("ohara_rudy", pert)}}
end
if quiescent then
  for _, p in ipairs{"fp32g", "fp32h", "fp64"} do
    hows[#hows + 1] = {p, 10, below = quiescent, name = ("%s multirate 10 quiescent %g"):format(p, quiescent)}
  end
end
for _, how in ipairs(hows) do
  local sim, t, apd, wall = run(how[1], how[2], how[3], how.model, how.below)
  local vmax, vrms = sim:diff(ref)
  row(how.name or how[1] .. (how[2] and (" multirate " .. how[2]) or "") .. (how[3] and " tables" or ""), wall, vmax,
      vrms, compare(t, tref, ACT_BOUND), compare(apd, aref, APD_BOUND))
  sim:close()
end
ref:close()
if csv then
  local f = assert(io.open(csv, "w"))
  f:write("precision,params,nx,ny,nz,tissue,t_ms,steps,run_s,ms_per_step,max_dV_mV,rms_dV_mV,activated,max_dT_ms,dT_over_1ms,"
    .. "activated_in_one_only,with_apd,max_dAPD_ms,dAPD_over_2ms,apd_in_one_only,unrepolarised_fp64,gpu\n")
  for _, r in ipairs(rows) do f:write(r, "\n") end
  f:close()
end
