-- What storing ORd's gates in 16 bits would do, measured before building it
-- (issue 34, goal 1: "storing gates in 16 bits (they live in [0, 1])"): a
-- cable in fp32 whose gates are rounded to IEEE half precision (11
-- significant bits) after every step, as a kernel storing them in half would
-- leave them, against the same cable without rounding. Activation time
-- (-40 mV) and APD90 per cell, the largest difference over the cable.
--   cardiac protocols/ord_half_gates.lua [cells = 80] [t_ms = 450] [each | all | gate,gate,...]
-- each: one gate at a time (which gates can be stored in half); all: the 28
-- gates together; a list: those gates together.
cardiac.quiet = true
local N = tonumber(arg and arg[1]) or 80
local T = tonumber(arg and arg[2]) or 450
local which = arg and arg[3] or "each"
local dx, dt = 0.25, 0.05

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
local function run(rounded)
  local sim = cardiac.simulation{mesh = cardiac.mesh{n = {N}, dx = dx}, model = "ohara_rudy", dt = dt, D = 0.2,
    precision = "fp32", stimuli = {cardiac.stimulus{region = cardiac.slab{axis = "x", from = 0, to = 0.5},
                                                    amplitude = 80, duration = 1, start = 1}}}
  local maps = sim:activation{threshold = -40}
  for _ = 1, math.floor(T / dt + 0.5) do
    sim:step(1)
    for _, g in ipairs(rounded) do
      local f = sim:field(g)
      for i = 1, #f do f[i] = half(f[i]) end
      sim:set(g, function(x) return f[math.floor(x / dx) + 1] end)
    end
  end
  local t, apd = maps:field("first"), maps:field("apd")
  sim:close()
  return t, apd
end

local t0, a0 = run({})
local function compare(label, rounded)
  local t, a = run(rounded)
  local dT, dA, both = 0, 0, 0
  for i = 1, N do
    if t[i] == t[i] and t0[i] == t0[i] then both = both + 1 dT = math.max(dT, math.abs(t[i] - t0[i])) end
    if a[i] == a[i] and a0[i] == a0[i] then dA = math.max(dA, math.abs(a[i] - a0[i])) end
  end
  print(("%-28s %3d cells  max |dT| %8.4f ms  max |dAPD90| %8.4f ms"):format(label, both, dT, dA))
end
print(("ORd endo cable, %d x %.2f mm, D 0.2 mm^2/ms, dt %.2f ms, %g ms, fp32; APD90 of cell %d: %.2f ms"):format(
  N, dx, dt, T, N // 2, a0[N // 2]))
if which == "each" then
  for _, g in ipairs(gates) do compare(g .. " in half", {g}) end
elseif which == "all" then
  compare("all 28 gates in half", gates)
else
  local list = {}
  for g in which:gmatch("[^,]+") do list[#list + 1] = g end
  compare(#list .. " gates in half", list)
end
