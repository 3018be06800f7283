-- Precision "fp32h" (fp32 with ORd's 15 fast gates stored in IEEE half,
-- core/engine/half_round.h; docs/models.md, "Precisions"), on the CPU backend,
-- which rounds those gates as the GPU stores them:
--  * the 15 gates hold half values in every cell after a beat, and a gate
--    outside the set (j) does not;
--  * an ORd cable's activation and APD90 stay within 0.01 ms and 0.3 ms of
--    fp32's (docs/gpu-notebook.md item 27 measured 0.003 and 0.28 ms over ten
--    beats with the same gates rounded by a script);
--  * a model without the set refuses the precision, naming it.
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

local function cable(precision)
  local sim = cardiac.simulation{mesh = cardiac.mesh{n = {20}, dx = 0.25}, model = cardiac.model("ohara_rudy"),
    dt = 0.05, D = 0.2, precision = precision, stimuli = {cardiac.stimulus{
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
checks.finish()
