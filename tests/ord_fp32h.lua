-- Precision "fp32h" (fp32 with ORd's 15 fast gates stored in IEEE half,
-- core/engine/half_round.h; docs/models.md, "Precisions"), on the CPU backend,
-- which rounds those gates as the GPU stores them:
--  * the 15 gates hold half values in every cell after a beat, and a gate
--    outside the set (j) does not;
--  * an ORd cable's activation and APD90 stay within 0.01 ms and 0.3 ms of
--    fp32's (docs/gpu-notebook.md item 27 measured 0.003 and 0.28 ms over ten
--    beats with the same gates rounded by a script);
--  * a model without the set refuses the precision, naming it.
-- Precision "fp32g" (the other 13 gates as 16-bit fractions too,
-- core/engine/fraction16.h), which needs multirate = 10 or more:
--  * the 13 gates hold values k / 65535 in every cell after a beat, the 15
--    half values, and the concentrations are not rounded;
--  * its cable's first activation and APD90 stay within 0.05 ms and 0.5 ms
--    of fp32 with the same multirate (docs/gpu-notebook.md item 38 measured,
--    on an 80-cell cable, the first beat's activation within 0.0083 ms and
--    the tenth beat's APD90 within 0.64 ms in M cells; in endo over two
--    beats 0.0033 ms and 0.29 ms);
--  * without multirate, or with less than 10, it is refused, naming the slow
--    gates; model:trace refuses it; Karma refuses it.
local checks = require "checks"
local check = checks.check

-- x is a half-precision value (11 significant bits, subnormal steps of 2^-24)
local function is_half(x)
  if x == 0 then return true end
  local a = math.abs(x)
  if a < 2^-14 then return (a / 2^-24) % 1 == 0 end
  local e = math.floor(math.log(a, 2))
  if 2^e > a then e = e - 1 elseif 2^(e + 1) <= a then e = e + 1 end
  return (a / 2^(e - 10)) % 1 == 0
end

local function cable(precision, multirate)
  local sim = cardiac.simulation{mesh = cardiac.mesh{n = {20}, dx = 0.25}, model = cardiac.model("ohara_rudy"),
    dt = 0.05, D = 0.2, precision = precision, multirate = multirate, stimuli = {cardiac.stimulus{
      region = cardiac.slab{axis = "x", from = 0, to = 0.5}, amplitude = 80, duration = 1, start = 1}}}
  local maps = sim:activation{threshold = -40}
  sim:run(400)
  return sim, maps:field("first"), maps:field("apd")
end

local h, th, ah = cable("fp32h")
local f, tf, af = cable("fp32")
check(h.precision == "fp32h" and f.precision == "fp32", "precision reads back as %s", h.precision)
local nhalf, bad = 0, {}
for _, st in ipairs(cardiac.model("ohara_rudy"):states()) do
  if st.half then
    nhalf = nhalf + 1
    for _, x in ipairs(h:field(st.name)) do
      if not is_half(x) then bad[#bad + 1] = st.name .. "=" .. x break end
    end
  end
end
check(nhalf == 15 and #bad == 0, "%d gates flagged half, all holding half values after a beat%s", nhalf,
      #bad > 0 and (" but " .. table.concat(bad, ", ")) or "")
local jh = 0
for _, x in ipairs(h:field("j")) do if not is_half(x) then jh = jh + 1 end end
check(jh > 0, "j (not in the set) holds values half cannot (%d of 20 cells)", jh)
local dT, dA = 0, 0
for c = 1, #tf do
  dT = math.max(dT, math.abs(th[c] - tf[c]))
  dA = math.max(dA, math.abs(ah[c] - af[c]))
end
check(dT < 0.01 and dA < 0.3, "against fp32: activation within %.4f ms, APD90 within %.3f ms", dT, dA)

local ok, err = pcall(cardiac.simulation, {mesh = cardiac.mesh{n = {4}, dx = 0.1}, model = cardiac.model("karma"),
  precision = "fp32h"})
check(not ok and err:find("fp32h") and err:find("karma"), "Karma refuses fp32h: %s", tostring(err))

-- fp32g
-- x is a fraction's value: code k times the float nearest 1 / 65535, rounded
-- to float (fraction16_value; the double product of the two is exact)
local function fl(x) return (string.unpack("f", string.pack("f", x))) end
local step16 = fl(1 / 65535)
local function is_fraction(x) return x >= 0 and x <= 1 and x == fl(math.floor(x * 65535 + 0.5) * step16) end
local g, tg, ag = cable("fp32g", 10)
local f10, tf10, af10 = cable("fp32", 10)
check(g.precision == "fp32g" and g.multirate == 10, "precision reads back as %s, multirate %s", g.precision, g.multirate)
local nfrac, nh, badg = 0, 0, {}
for _, st in ipairs(cardiac.model("ohara_rudy"):states()) do
  local test = st.fraction and is_fraction or st.half and is_half
  if st.fraction then nfrac = nfrac + 1 end
  if st.half then nh = nh + 1 end
  if test then
    for _, x in ipairs(g:field(st.name)) do
      if not test(x) then badg[#badg + 1] = st.name .. "=" .. x break end
    end
  end
end
check(nfrac == 13 and nh == 15 and #badg == 0, "%d gates flagged fraction and %d half, all holding such values after a beat%s",
      nfrac, nh, #badg > 0 and (" but " .. table.concat(badg, ", ")) or "")
local nr = 0
for _, x in ipairs(g:field("cai")) do if is_fraction(x) or is_half(x) then nr = nr + 1 end end
check(nr == 0, "cai (a concentration) is not rounded (%d of 20 cells on a 16-bit value)", nr)
dT, dA = 0, 0
for c = 1, #tf10 do
  dT = math.max(dT, math.abs(tg[c] - tf10[c]))
  dA = math.max(dA, math.abs(ag[c] - af10[c]))
end
check(dT < 0.05 and dA < 0.5, "fp32g against fp32, both with multirate = 10: activation within %.4f ms, APD90 within %.3f ms",
      dT, dA)
for _, m in ipairs{false, 5} do
  ok, err = pcall(cable, "fp32g", m or nil)
  check(not ok and err:find("fp32g") and err:find("multirate = 10") and err:find("xs1"),
        "fp32g with multirate %s is refused, naming the slow gates: %s", tostring(m or 1), tostring(err))
end
ok, err = pcall(cardiac.model("ohara_rudy").trace, cardiac.model("ohara_rudy"), {precision = "fp32g", t = 5})
check(not ok and err:find("fp32g") and err:find("multirate"), "model:trace refuses fp32g: %s", tostring(err))
ok, err = pcall(cardiac.simulation, {mesh = cardiac.mesh{n = {4}, dx = 0.1}, model = cardiac.model("karma"),
  precision = "fp32g", multirate = 10})
check(not ok and err:find("fp32g") and err:find("karma"), "Karma refuses fp32g: %s", tostring(err))
checks.finish()
