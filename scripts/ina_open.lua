-- The largest open fraction of ORd's INa, m^3 ((1 - fp) h j + fp hp jp), along
-- a beat of each cell type at the paper's stimulus (80 uA/uF for 0.5 ms) and
-- 200 uA/uF, for the INa variants (docs/models.md): INa's share of the dt
-- limit's reaction bound is g_na times it (core/models/ohara_rudy.c).
--   cardiac scripts/ina_open.lua
local function open_max(params, amp)
  local m = cardiac.model("ohara_rudy", params)
  local tr = m:trace{t = 30, dt = 0.01, stimulus = {amplitude = amp, duration = 0.5}, precision = "fp64"}
  local best, tomek = 0, (params.ina_form or 0) == 1
  for i = 1, #tr.t do
    local cass, ct = tr.cass[i], tr.CaMKt[i]      -- CaMKII's active fraction, as the model computes it
    local ca = 0.05 * (1 - ct) * cass / (cass + 0.0015) + ct
    local fp = ca / (ca + 0.15)
    local h, hp = tr.hf[i], tr.hsp[i]
    if not tomek then h, hp = 0.99 * tr.hf[i] + 0.01 * tr.hs[i], 0.99 * tr.hf[i] + 0.01 * tr.hsp[i] end
    best = math.max(best, tr.m[i] ^ 3 * ((1 - fp) * h * tr.j[i] + fp * hp * tr.jp[i]))
  end
  return best
end
local cases = {
  {"the paper's INa", {}}, {"ina_m_shift 10", {ina_m_shift = 10}},
  {"the encoding's INa (10, 5, g_na 202.5)", {ina_m_shift = 10, ina_h_shift = 5, g_na = 202.5}},
  {"ina_m_shift 15", {ina_m_shift = 15}}, {"ina_m_shift 20", {ina_m_shift = 20}},
  {"ina_m_shift 20, g_na 20", {ina_m_shift = 20, g_na = 20}}, {"ina_m_shift -15", {ina_m_shift = -15}},
  {"ina_h_shift -15", {ina_h_shift = -15}}, {"ina_m_shift 15, ina_h_shift -15", {ina_m_shift = 15, ina_h_shift = -15}},
  {"ina_m_shift 20, ina_h_shift -20", {ina_m_shift = 20, ina_h_shift = -20}},
  {"ToR-ORd's INa (ina_form 1, g_na 11.7802)", {ina_form = 1, g_na = 11.7802}},
}
print("largest open fraction of INa along beats (endo, epi, M; stimulus 80 and 200 uA/uF)")
for _, c in ipairs(cases) do
  local w = 0
  for _, cell in ipairs{"endo", "epi", "M"} do
    for _, amp in ipairs{80, 200} do
      local p = {cell = cell}
      for k, v in pairs(c[2]) do p[k] = v end
      w = math.max(w, open_max(p, amp))
    end
  end
  print(("  %-44s %.4f"):format(c[1], w))
end
