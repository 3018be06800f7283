-- What the bound of quiescent cells does (cardiac.simulation{multirate = m,
-- quiescent_below = v}, core/engine/quiescence.h): an ORd cable at the
-- heart's resolution (dx 0.5 mm, D 0.3 mm^2/ms, dt 0.05 ms, the theses' INa
-- activation ina_m_shift = 10, as protocols/ord_precision.lua's heart),
-- paced at its left end every bcl ms, in one precision with multirate = 10,
-- without quiescent cells and with each case given, v (quiescent_below, mV)
-- or v:e (and quiescent_diffusion = e, mV/ms; 1e9 leaves the bound on V
-- alone); against fp64 without
-- multirate or quiescent cells: the largest difference over the cable of the
-- first and the latest activation (threshold -40 mV) and of the latest
-- APD90, the conduction velocity over the middle half of the first beat, and
-- the wall time of the run on this machine.
--   cardiac protocols/ord_quiescent.lua [cells = 80] [t_ms = 2000] [precision = fp64] [bcl = 1000] [v[:e] ...]
-- cases default to -80:1e9 -84:1e9 -86:1e9 -87:1e9 (V alone) and -86:1 -86 -86:0.01 -80 -70 (the default e,
-- 0.1 mV/ms, where none is given).
local N = math.tointeger(tonumber(arg and arg[1] or 80))
local T = tonumber(arg and arg[2] or 2000)
local precision = arg and arg[3] or "fp64"
local bcl = tonumber(arg and arg[4] or 1000)
if not (N and N >= 8) then error("ord_quiescent.lua: cells must be a whole number from 8", 0) end
if not (T and T > 0 and bcl and bcl > 0) then error("ord_quiescent.lua: t_ms and bcl must be positive numbers", 0) end
local cases = {}
for i = 5, arg and #arg or 0 do cases[#cases + 1] = arg[i] end
if #cases == 0 then cases = {"-80:1e9", "-84:1e9", "-86:1e9", "-87:1e9", "-86:1", "-86", "-86:0.01", "-80", "-70"} end
for k, c in ipairs(cases) do
  local v, e = c:match("^([^:]+):?(.*)$")
  v, e = tonumber(v), e == "" and nil or tonumber(e)
  if not v or (e == nil and c:find(":")) then
    error(("ord_quiescent.lua: a case is v or v:e (mV, mV/ms), not '%s'"):format(c), 0)
  end
  cases[k] = {below = v, current = e}
end
cardiac.quiet = true
local model = cardiac.model("ohara_rudy", {ina_m_shift = 10})
local dx = 0.5

local function run(prec, multirate, case)
  local sim = cardiac.simulation{mesh = cardiac.mesh{n = {N}, dx = dx}, model = model, dt = 0.05, D = 0.3,
    precision = prec, multirate = multirate, quiescent_below = case and case.below,
    quiescent_diffusion = case and case.current,
    stimuli = {cardiac.stimulus{region = cardiac.slab{axis = "x", from = 0, to = 1.0}, amplitude = 80, duration = 1,
                                start = 1, period = bcl, count = math.ceil(T / bcl)}}}
  local maps = sim:activation{threshold = -40}
  local t0 = cardiac.clock()
  sim:run(T)
  local r = {wall = cardiac.clock() - t0, first = maps:field("first"), last = maps:field("last"),
             apd = maps:field("apd")}
  sim:close()
  local a, b = N // 4, 3 * N // 4
  r.cv = (b - a) * dx / (r.first[b + 1] - r.first[a + 1])   -- mm/ms = m/s
  return r
end

local ref = run("fp64")
local function worst(got, key)
  local d = 0
  for i = 1, N do d = math.max(d, math.abs(got[key][i] - ref[key][i])) end
  return d
end
print(("ORd cable %d x %g mm (ina_m_shift = 10), D 0.3, dt 0.05 ms, paced every %g ms for %g ms, against fp64 "
  .. "(CV %.4f m/s, %.2f s):"):format(N, dx, bcl, T, ref.cv, ref.wall))
print(("  %-40s %11s %11s %11s %9s %7s"):format("case", "first (ms)", "last (ms)", "APD90 (ms)", "CV (m/s)", "wall s"))
local function line(label, got)
  print(("  %-40s %11.4f %11.4f %11.4f %9.4f %7.2f"):format(label, worst(got, "first"), worst(got, "last"),
    worst(got, "apd"), got.cv, got.wall))
end
line(precision .. ", multirate 10", run(precision, 10))
for _, c in ipairs(cases) do
  line(("%s, quiescent below %g, |I_diff| < %g"):format(precision, c.below, c.current or 0.1), run(precision, 10, c))
end
