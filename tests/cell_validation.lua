-- Shared steps of the single-cell validation tests of the detailed models
-- (tests/ord_validation.lua, tests/tp06_validation.lua): pacing a cell with
-- its paper's stimulus (scripts/paced_models.lua), comparing beats with the
-- Myokit references in tests/data (made by tests/data/make_reference.py),
-- and counting checks. Loaded with require "cell_validation" after the test
-- has put tests/ and scripts/ on package.path.
local measure = require "measure"
local models = require "paced_models"
local M = {}
M.__index = M

--- A validation of model `name`; `data` is the directory of tests/data.
function M.new(name, data)
  local spec = assert(models[name], name)
  return setmetatable({name = name, spec = spec, dt = spec.dt, data = data, passed = 0, failed = 0,
                       results = {}}, M)
end

function M:check(ok, fmt, ...)
  local msg = string.format(fmt, ...)
  if ok then self.passed = self.passed + 1 else self.failed = self.failed + 1 end
  print((ok and "ok    " or "FAIL  ") .. msg)
end

function M:read_csv(file)
  local f = assert(io.open(self.data .. file))
  local head = {}
  for h in f:read("l"):gmatch("[^,]+") do head[#head + 1] = h end
  local rows = {}
  for line in f:lines() do
    local r, i = {}, 0
    for x in line:gmatch("[^,]+") do i = i + 1; r[head[i]] = tonumber(x) or x end
    rows[#rows + 1] = r
  end
  f:close()
  return rows
end

local function rel(a, b) return math.abs(a - b) / math.abs(b) end

function M:stimulus(cl, count)
  local s = self.spec.stimulus
  return {amplitude = s.amplitude, start = 0, duration = s.duration, period = cl, count = count}
end

--- The last of `beats` beats at cycle length cl from state y0 (dt: the
--- model's unless given): measure.action_potential of it (Cai in uM), with
--- the APD90 of the beat before (apd_prev) and the samples (t, v).
function M:pace(cell, cl, y0, beats, precision, dt)
  dt = dt or self.dt
  local m = cardiac.model(self.name, {cell = cell})
  local apd_prev
  local y = y0
  if beats > 1 then
    local pre = m:trace{t = (beats - 1) * cl, dt = dt, state = y0, precision = precision, every = 1,
                        stimulus = self:stimulus(cl, beats - 1)}
    local n = #pre.t
    local k0 = n - math.floor(cl / dt + 0.5)
    local t, v = {}, {}
    for i = k0, n do t[#t + 1], v[#v + 1] = pre.t[i], pre.V[i] end
    apd_prev = measure.action_potential(t, v).apd90
    y = {}
    for _, st in ipairs(m:states()) do y[st.name] = pre[st.name][n] end
  end
  local tr = m:trace{t = cl, dt = dt, state = y, precision = precision, stimulus = self:stimulus(cl, 1)}
  local ca = {}
  for i = 1, #tr.cai do ca[i] = tr.cai[i] * 1e3 end
  local r = measure.action_potential(tr.t, tr.V, ca)
  r.apd_prev, r.t, r.v = apd_prev, tr.t, tr.V
  return r
end

-- RMS of V(t) of our beat against a reference trace (sampled every 0.5 ms).
function M:rms_diff(r, trace)
  local s, n = 0, 0
  for _, row in ipairs(trace) do
    local i = math.floor(row.t_ms / self.dt + 0.5) + 1
    if r.v[i] then s, n = s + (r.v[i] - row.V_mV) ^ 2, n + 1 end
  end
  return math.sqrt(s / n)
end

--- The first beat from the authors' initial values against the reference's
--- (<tag>_reference_first.csv): at dt = 0.005 ms within tol (apd ms, peak mV,
--- ca relative), and `converge` times closer than at the model's dt (the
--- scheme is consistent with the equations; a wrong constant leaves an offset).
function M:first_beats(tol)
  for _, ref in ipairs(self:read_csv(self.spec.tag .. "_reference_first.csv")) do
    local err = {}
    for _, h in ipairs{self.dt, 0.005} do
      local r = self:pace(ref.cell, 1000, self.spec.initial, 1, "fp64", h)
      err[h] = {apd = math.abs(r.apd90 - ref.apd90_ms), peak = math.abs(r.peak - ref.peak_mV),
                ca = rel(r.ca_max, ref.cai_peak_uM)}
    end
    local e, c = err[0.005], err[self.dt]
    self:check(e.apd < tol.apd and e.peak < tol.peak and e.ca < tol.ca,
               "%-4s first beat, dt 0.005: |dAPD90| %.3f ms, |dpeak| %.3f mV, peak Cai %.3f%% off", ref.cell,
               e.apd, e.peak, 100 * e.ca)
    self:check(c.peak > tol.converge * e.peak, "%-4s first beat converges: peak error %.3f mV at dt %g, %.3f at 0.005",
               ref.cell, c.peak, self.dt, e.peak)
  end
end

--- Paced steady states at 1 Hz (the model's resting state) and 0.5 Hz
--- (steady_2000[cell]) against <tag>_reference.csv and its traces, within
--- tol: steady (APD90 change over the last beat, ms), rest and peak (mV),
--- dvdt, apd, ca_diast and ca_peak (relative), rms (mV). Results are kept in
--- self.results[cell .. cl].
function M:steady_states(steady_2000, tol)
  for _, ref in ipairs(self:read_csv(self.spec.tag .. "_reference.csv")) do
    local cell, cl = ref.cell, ref.cl_ms
    local y0 = cl == 1000 and cardiac.model(self.name, {cell = cell}):rest() or steady_2000[cell]
    local r = self:pace(cell, cl, y0, 3, "fp64")
    self.results[cell .. cl] = r
    local tag = string.format("%-4s CL %4d:", cell, cl)
    self:check(math.abs(r.apd90 - r.apd_prev) < tol.steady, "%s steady: APD90 %.2f after %.2f ms", tag, r.apd90,
               r.apd_prev)
    self:check(math.abs(r.rest - ref.rest_mV) < tol.rest, "%s rest %.2f mV (reference %.2f)", tag, r.rest, ref.rest_mV)
    self:check(math.abs(r.peak - ref.peak_mV) < tol.peak, "%s peak %.2f mV (reference %.2f)", tag, r.peak, ref.peak_mV)
    self:check(rel(r.dvdt_max, ref.dvdt_max_mV_per_ms) < tol.dvdt, "%s max dV/dt %.1f mV/ms (reference %.1f)", tag,
               r.dvdt_max, ref.dvdt_max_mV_per_ms)
    self:check(rel(r.apd90, ref.apd90_ms) < tol.apd, "%s APD90 %.2f ms (reference %.2f)", tag, r.apd90, ref.apd90_ms)
    self:check(rel(r.ca_min, ref.cai_diast_uM) < tol.ca_diast, "%s diastolic Cai %.4f uM (reference %.4f)", tag,
               r.ca_min, ref.cai_diast_uM)
    self:check(rel(r.ca_max, ref.cai_peak_uM) < tol.ca_peak, "%s peak Cai %.4f uM (reference %.4f)", tag, r.ca_max,
               ref.cai_peak_uM)
    local d = self:rms_diff(r, self:read_csv(string.format("%s_trace_%s_%d.csv", self.spec.tag, cell, cl)))
    self:check(d < tol.rms, "%s RMS |V - V_ref| over the beat %.3f mV", tag, d)
  end
end

--- Rate dependence (APD90 longer at 0.5 Hz for every type) and the
--- transmural order of APD90 at 1 Hz, M > endo > epi.
function M:rate_and_order()
  local res = self.results
  for _, c in ipairs{"endo", "epi", "M"} do
    self:check(res[c .. 2000].apd90 > res[c .. 1000].apd90, "%s APD90 at 0.5 Hz %.1f > at 1 Hz %.1f ms", c,
               res[c .. 2000].apd90, res[c .. 1000].apd90)
  end
  self:check(res.M1000.apd90 > res.endo1000.apd90 and res.endo1000.apd90 > res.epi1000.apd90,
             "transmural order at 1 Hz: M %.1f > endo %.1f > epi %.1f ms", res.M1000.apd90, res.endo1000.apd90,
             res.epi1000.apd90)
end

--- One beat at 1 Hz in `precision` ("fp32" or "mixed") from the resting
--- state against the fp64 beat: reported, and APD90 within max_apd ms.
function M:precision(precision, max_apd)
  for _, cell in ipairs{"endo", "epi", "M"} do
    local r = self:pace(cell, 1000, cardiac.model(self.name, {cell = cell}):rest(), 1, precision)
    local r64 = self.results[cell .. 1000]
    print(string.format("%s - fp64, %-4s 1 Hz, one beat: APD90 %+.4f ms, peak %+.4f mV, rest %+.5f mV, " ..
          "peak Cai %+.2e uM", precision, cell, r.apd90 - r64.apd90, r.peak - r64.peak, r.rest - r64.rest,
          r.ca_max - r64.ca_max))
    self:check(math.abs(r.apd90 - r64.apd90) < max_apd, "%s %s APD90 within %g ms of fp64", cell, precision,
               max_apd)
  end
end

function M:finish()
  print(string.format("%d passed, %d failed", self.passed, self.failed))
  if self.failed > 0 then os.exit(1) end
end

return M
