-- What storing ORd's gates in 16 bits would do, measured before building it
-- (issue 34, goal 1: "storing gates in 16 bits (they live in [0, 1])"): a
-- cable in fp32 whose gates are rounded to IEEE half precision (11
-- significant bits) after every step, as a kernel storing them in half would
-- leave them, against the same cable without rounding (scripts/ord_cable.lua).
-- Activation time (-40 mV) and APD90 per cell, the largest difference over
-- the cable (docs/gpu-notebook.md items 23 and 27).
--   cardiac protocols/ord_half_gates.lua [cells = 80] [t_ms = 450] [each | all | fast | gate,gate,...]
--                                        [cell = endo] [bcl_ms] [nearest | complement | fraction | split]
--                                        [multirate = 1]
-- each: one gate at a time (which gates can be stored in half); all: the 28
-- gates together; fast: the 20 that stay within 0.1 ms alone over one beat
-- (all but the eight slow gates, item 23); a list: those gates together.
-- cell: ORd's cell type (endo, epi, M). bcl_ms: paced every bcl_ms over t_ms
-- instead of once; the maps' latest beat is compared as well.
-- complement: a gate that starts above 0.5 (an inactivation gate at rest) is
-- stored as 1 - x, so that half's resolution is relative to its distance
-- from 1 (near 1, half's step is 2^-11 of 1: a gate relaxing towards 1 with
-- time constant tau stops where its step dt/tau (1 - x) falls below half a
-- step, 2^-12 tau/dt from its target: 0.14 for tau = 29 ms at dt = 0.05 ms).
-- fraction: the gate stored as a 16-bit fraction k / 65535 of [0, 1], whose
-- step is the same everywhere, 2^-16: a gate stops 2^-17 tau/dt from its
-- target at either end (0.0044 for tau = 29 ms), where half stops short near
-- 1 but resolves values near 0 finely. split: the 15 gates of precision
-- "fp32h" (model:states(), half = true) in half, the others as fractions.
-- multirate: both runs (the rounded one and its reference) step ORd's slow
-- states every m-th step (cardiac.simulation's multirate), so that the
-- rounding is measured alone; a slow gate then changes m times as much at
-- its update, which rounding loses m times less.
package.path = (arg[0]:match("(.*/)") or "./") .. "../scripts/?.lua;" .. package.path
cardiac.quiet = true
local N = tonumber(arg and arg[1]) or 80
local T = tonumber(arg and arg[2]) or 450
local which = arg and arg[3] or "each"
local cell = arg and arg[4] or "endo"
local bcl = arg and arg[5] and tonumber(arg[5])
if arg and arg[5] and not (bcl and bcl > 1) then
  error(("ord_half_gates.lua: bcl_ms must be a number of ms above 1, not '%s'"):format(arg[5]), 0)
end
local mode = arg and arg[6] or "nearest"
if mode ~= "nearest" and mode ~= "complement" and mode ~= "fraction" and mode ~= "split" then
  error(("ord_half_gates.lua: the rounding is 'nearest', 'complement', 'fraction' or 'split', not '%s'"):format(mode), 0)
end
local multirate = math.tointeger(tonumber(arg and arg[7] or 1))
if not multirate or multirate < 1 then
  error(("ord_half_gates.lua: multirate must be a whole number of steps from 1, not '%s'"):format(arg[7]), 0)
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

-- x as the nearest 16-bit fraction k / 65535 of [0, 1]
local function fraction(x)
  if x ~= x then return x end
  return math.floor(math.min(math.max(x, 0), 1) * 65535 + 0.5) / 65535
end

local gates, in_half = {}, {}
for _, st in ipairs(cardiac.model("ohara_rudy"):states()) do
  if st.mixed_float then gates[#gates + 1] = st.name end   -- the 28 gates (docs/models.md)
  in_half[st.name] = st.half
end

local list = {}   -- which = a list of gates: checked before any run
if which ~= "each" and which ~= "all" and which ~= "fast" then
  local is_gate = {}
  for _, g in ipairs(gates) do is_gate[g] = true end
  for g in which:gmatch("[^,]+") do
    if not is_gate[g] then
      error(("ord_half_gates.lua: '%s' is not one of ORd's 28 gates (each, all, fast or a list of gates)"):format(g), 0)
    end
    list[#list + 1] = g
  end
end

local cable = require("ord_cable").new{cells = N, t = T, cell = cell, bcl = bcl, multirate = multirate}
-- the hook: the gates rounded after every step (complement: those above 0.5
-- at the start stored as 1 - x)
local function rounding(rounded)
  local flip = {}
  return function(sim, k)
    for _, g in ipairs(rounded) do
      local f = sim:field(g)
      if k == 0 then flip[g] = mode == "complement" and f[1] > 0.5
      else
        if flip[g] then for i = 1, #f do f[i] = 1 - half(1 - f[i]) end
        elseif mode == "fraction" or (mode == "split" and not in_half[g]) then
          for i = 1, #f do f[i] = fraction(f[i]) end
        else for i = 1, #f do f[i] = half(f[i]) end end
        cable:set(sim, g, f)
      end
    end
  end
end

local ref = cable:run()
local function compare(label, rounded) cable:report(label, ref, cable:run(rounding(rounded))) end
print(cable:header(("16 bits by %s%s; latest APD90 of cell %d: %.2f ms"):format(mode, multirate > 1 and (", multirate %d in both"):format(multirate) or "", N // 2, ref.apd[N // 2])))
if which == "each" then
  for _, g in ipairs(gates) do compare(g .. " in 16 bits", {g}) end
elseif which == "all" then
  compare("all 28 gates in 16 bits", gates)
elseif which == "fast" then
  local fast = {}
  for _, g in ipairs(gates) do if not slow[g] then fast[#fast + 1] = g end end
  compare(#fast .. " fast gates in 16 bits", fast)
else
  compare(#list .. " gates in 16 bits", list)
end
