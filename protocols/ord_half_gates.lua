-- What storing ORd's gates in 16 bits would do, measured before building it
-- (issue 34, goal 1: "storing gates in 16 bits (they live in [0, 1])"): a
-- cable in fp32 whose gates are rounded to IEEE half precision (11
-- significant bits) after every step, as a kernel storing them in half would
-- leave them, against the same cable without rounding. Activation time
-- (-40 mV) and APD90 per cell, the largest difference over the cable.
--   cardiac protocols/ord_half_gates.lua [cells = 80] [t_ms = 450] [each | all | fast | gate,gate,...]
--                                        [cell = endo] [bcl_ms] [nearest | complement]
-- each: one gate at a time (which gates can be stored in half); all: the 28
-- gates together; fast: the 20 that stay within 0.1 ms alone (all but the
-- eight slow gates, docs/gpu-notebook.md item 23); a list: those gates
-- together. cell: ORd's cell type (endo, epi, M). bcl_ms: paced every bcl_ms
-- over t_ms instead of once; the maps' latest beat is compared as well.
-- complement: a gate that starts above 0.5 (an inactivation gate at rest) is
-- stored as 1 - x, so that half's resolution is relative to its distance
-- from 1 (near 1, half's step is 2^-11 of 1: a gate relaxing towards 1 with
-- time constant tau stops where its step dt/tau (1 - x) falls below half a
-- step, 2^-12 tau/dt from its target: 0.14 for tau = 29 ms at dt = 0.05 ms).
cardiac.quiet = true
local N = tonumber(arg and arg[1]) or 80
local T = tonumber(arg and arg[2]) or 450
local which = arg and arg[3] or "each"
local cell = arg and arg[4] or "endo"
local bcl = arg and arg[5] and tonumber(arg[5])
if arg and arg[5] and not (bcl and bcl > 1) then
  error(("ord_half_gates.lua: bcl_ms must be a number of ms above 1, not '%s'"):format(arg[5]), 0)
end
local dx, dt = 0.25, 0.05
local mode = arg and arg[6] or "nearest"
if mode ~= "nearest" and mode ~= "complement" then
  error(("ord_half_gates.lua: the rounding is 'nearest' or 'complement', not '%s'"):format(mode), 0)
end
local slow = {hL = true, fcas = true, xrs = true, xs1 = true, fs = true, xs2 = true, hLp = true, xrf = true}

-- x rounded to the nearest half-precision value (ties away from zero, a
-- fraction of an ulp from IEEE's ties to even; the gates never reach
-- half's overflow)
local function half(x)
  if x == 0 or x ~= x then return x end
  local a = math.abs(x)
  local e = math.floor(math.log(a, 2))
  if e < -14 then e = -14 end   -- subnormals: steps of 2^-24
  local q = 2.0 ^ (e - 10)
  local r = math.floor(a / q + 0.5) * q
  return x < 0 and -r or r
end

local gates = {}
for _, st in ipairs(cardiac.model("ohara_rudy"):states()) do
  if st.mixed_float then gates[#gates + 1] = st.name end   -- the 28 gates (docs/models.md)
end

-- a cable paced once from its left end; returns its activation and APD90 maps
local model = cardiac.model("ohara_rudy", {cell = cell})
local function run(rounded)
  local sim = cardiac.simulation{mesh = cardiac.mesh{n = {N}, dx = dx}, model = model, dt = dt, D = 0.2,
    precision = "fp32", stimuli = {cardiac.stimulus{region = cardiac.slab{axis = "x", from = 0, to = 0.5},
                                                    amplitude = 80, duration = 1, start = 1, period = bcl,
                                                    count = bcl and math.ceil(T / bcl) or nil}}}
  local maps = sim:activation{threshold = -40}
  local flip = {}   -- complement: the gates stored as 1 - x (those above 0.5 at the start)
  for _, g in ipairs(rounded) do flip[g] = mode == "complement" and sim:field(g)[1] > 0.5 end
  for _ = 1, math.floor(T / dt + 0.5) do
    sim:step(1)
    for _, g in ipairs(rounded) do
      local f = sim:field(g)
      if flip[g] then for i = 1, #f do f[i] = 1 - half(1 - f[i]) end
      else for i = 1, #f do f[i] = half(f[i]) end end
      sim:set(g, function(x) return f[math.floor(x / dx) + 1] end)
    end
  end
  local t, last, apd, count = maps:field("first"), maps:field("last"), maps:field("apd"), maps:field("count")
  sim:close()
  return t, last, apd, count
end

local t0, l0, a0, c0 = run({})
local function compare(label, rounded)
  local t, l, a, c = run(rounded)
  local dT, dL, dA, both = 0, 0, 0, 0
  for i = 1, N do
    if t[i] == t[i] and t0[i] == t0[i] then both = both + 1 dT = math.max(dT, math.abs(t[i] - t0[i])) end
    if l[i] == l[i] and l0[i] == l0[i] then dL = math.max(dL, math.abs(l[i] - l0[i])) end
    if a[i] == a[i] and a0[i] == a0[i] then dA = math.max(dA, math.abs(a[i] - a0[i])) end
  end
  print(("%-28s %3d cells  max |dT| %8.4f ms  latest beat: max |dT| %8.4f ms, max |dAPD90| %8.4f ms; beats at cell %d: %d (%d unrounded)"):format(
    label, both, dT, dL, dA, N // 2, c[N // 2], c0[N // 2]))
end
print(("ORd %s cable, %d x %.2f mm, D 0.2 mm^2/ms, dt %.2f ms, %g ms%s, fp32, half by %s; latest APD90 of cell %d: %.2f ms"):format(
  cell, N, dx, dt, T, bcl and (", paced every %g ms"):format(bcl) or "", mode, N // 2, a0[N // 2]))
if which == "each" then
  for _, g in ipairs(gates) do compare(g .. " in half", {g}) end
elseif which == "all" then
  compare("all 28 gates in half", gates)
elseif which == "fast" then
  local fast = {}
  for _, g in ipairs(gates) do if not slow[g] then fast[#fast + 1] = g end end
  compare(#fast .. " fast gates in half", fast)
else
  local list = {}
  for g in which:gmatch("[^,]+") do list[#list + 1] = g end
  compare(#list .. " gates in half", list)
end
