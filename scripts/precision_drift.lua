-- What a precision does to long pacing: a detailed model's cell types paced
-- 1000 beats at 1 Hz from the authors' initial values (as
-- scripts/rest_states.lua does in fp64 to make the resting states) in
-- another precision, against the fp64 result, which is the model's stored
-- resting state. Prints, per cell type, the difference of the resting
-- potential and the largest relative difference among the other states.
--   cardiac scripts/precision_drift.lua MODEL PRECISION     (fp32 or mixed; ORd ~25 s a cell type)
local here = arg[0]:match("(.*/)") or "./"
package.path = here .. "?.lua;" .. package.path
local name, precision = arg[1], arg[2] or "mixed"
local spec = assert((require "paced_models")[name or ""], "usage: precision_drift.lua MODEL fp32|mixed")
local beats, cl, dt = 1000, 1000, spec.dt

for _, cell in ipairs{"endo", "epi", "M"} do
  local m = cardiac.model(name, {cell = cell})
  local tr = m:trace{t = beats * cl, dt = dt, every = math.floor(cl / dt + 0.5), state = spec.initial,
    precision = precision, stimulus = {amplitude = spec.stimulus.amplitude, start = 0,
    duration = spec.stimulus.duration, period = cl, count = beats}}
  local rest, worst, at = m:rest(), 0, "-"
  for i, s in ipairs(m:states()) do
    local x = tr[s.name][#tr[s.name]]
    if i > 1 and rest[s.name] ~= 0 then
      local r = math.abs(x - rest[s.name]) / math.abs(rest[s.name])
      if r > worst then worst, at = r, s.name end
    end
  end
  print(("%s %s - fp64 after %d beats at 1 Hz, %-4s: rest %+.4f mV, largest relative state difference %.2e (%s)"):format(
    name, precision, beats, cell, tr.V[#tr.V] - rest.V, worst, at))
end
