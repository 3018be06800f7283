-- One cell of the multiscale calcium model (gaur_rudy) in the calcium
-- thesis' single-cell experiments (Altanaite 2017, section 7.2, figs.
-- 7.7-7.8): every RyR held open from `open` for `hold` ms with no stimulus,
-- or a stimulus at `paced` ms; fp64 on the CPU backend (one cell).
--   local cell = require "calcium_cell"
--   local r = cell.run{dyads = 10000, reading = "units", initial = "encoding",
--                      open = 50, hold = 100, tmax = 400}
-- Options: dyads (10,000), reading ("sample"), initial (a state of
-- scripts/calcium_states.lua: "rest", the model's, or "encoding"), with (a
-- table of states set on top of it, e.g. {cansr = 3, cajsr = 3}), g_k1
-- (mS/uF, ORd's 0.1908), open and hold (ms) or paced (ms), tmax (ms),
-- every (sampling, 0.5 ms), seed.
-- Returns up (the first time V > -40 mV, nil if never), vmax, peak Cai
-- (ca_max, uM), the largest whole-cell release (jrel_max, mM/ms), APD90
-- (apd90, ms, for paced runs), JSR's minimum (jsr_min, mM), and the series
-- (t, V, cai in uM, jrel).
local measure, states = require "measure", require "calcium_states"
local M = {}

function M.run(o)
  local one = cardiac.mesh{size = {0.5}, dx = 0.5}
  local everywhere = cardiac.box{min = {0}, max = {0.5}}
  local model = cardiac.model("gaur_rudy", {dyads = o.dyads or 10000, reading = o.reading or "sample",
                                            g_k1 = o.g_k1 or 0.1908, seed = o.seed or 1})
  local stims = {}
  if o.paced then
    stims[1] = cardiac.stimulus{region = everywhere, amplitude = 80, duration = 0.5, start = o.paced}
  end
  local sim = cardiac.simulation{mesh = one, model = model, dt = 0.05, D = 0.1, precision = "fp64",
                                 backend = "cpu", stimuli = stims}
  states.apply(sim, o.initial or "rest", nil, o.with)
  if o.open then sim:clamp_ryr{region = everywhere, start = o.open, duration = o.hold or 100} end
  local p = sim:probe{name = "cell", points = {{0.25}}, vars = {"V", "cai", "cajsr", "jrel"},
                      interval = o.every or 0.5}
  sim:run(o.tmax or 400)
  local d = p:data()
  local r = {t = d.t, V = d.V[1], cai = {}, jrel = d.jrel[1]}
  r.vmax, r.ca_max, r.jrel_max, r.jsr_min = -math.huge, 0, 0, math.huge
  for i = 1, #d.t do
    r.cai[i] = d.cai[1][i] * 1e3
    r.vmax, r.ca_max = math.max(r.vmax, r.V[i]), math.max(r.ca_max, r.cai[i])
    r.jrel_max, r.jsr_min = math.max(r.jrel_max, r.jrel[i]), math.min(r.jsr_min, d.cajsr[1][i])
  end
  r.up = measure.activation_time(d.t, r.V, -40)
  if o.paced then
    local from = math.floor(o.paced / (o.every or 0.5)) + 1     -- the beat from its stimulus on
    local t, v = table.move(d.t, from, #d.t, 1, {}), table.move(r.V, from, #r.V, 1, {})
    r.apd90 = measure.action_potential(t, v).apd90
  end
  sim:close()
  return r
end

return M
