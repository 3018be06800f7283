-- Conduction velocity of one cable or thin slab (loaded with require "ordcv"):
-- the measurement that protocols/ord_conduction.lua repeats while it varies one
-- setting at a time.
local measure = require "measure"
local M = {}

--- The settings of one run, each with its default (the calcium thesis'
--- tissue, Altanaite 2017 section 7.1, on a 20 mm cable):
---   model "ohara_rudy", params {} (model parameters, e.g. g_na, ina_m_shift;
---   cell = "endo"), dx 0.5 mm, dt 0.05 ms, D 0.2 mm^2/ms, precision "fp64",
---   len 20 mm, a 5 and b 15 (mm, the two measuring points along the wave),
---   stim "current" (amp uA/uF for dur ms on the first depth mm) or "set" (V set
---   to vset mV on the first depth mm at t = 0, the PhD thesis' eq. 5.8),
---   amp 80, dur 1, depth 1, vset 0, thr -70 mV (activation: first upward
---   crossing), tmax 200 ms (stops once the second point fired),
---   prepace 20 (beats paced on one cell before, M.start_state; 0: the model's
---   stored resting state), stencil 2, xy nil (a cable; a number: a slab xy x xy
---   x len mm, the wave along z), cells nil (the points a and b) or "quarters"
---   (the cells at n/4 and 3n/4 along the wave's n cells: the calcium thesis'
---   eq. 7.1, 1-based as in calcium_tissue.lua).
M.defaults = {model = "ohara_rudy", prepace = 20, dx = 0.5, dt = 0.05, D = 0.2, precision = "fp64", len = 20,
              a = 5, b = 15, stim = "current", amp = 80, dur = 1, depth = 1, vset = 0, thr = -70, tmax = 200}

local function fill(o)
  local r = {}
  for k, v in pairs(M.defaults) do r[k] = v end
  for k, v in pairs(o or {}) do r[k] = v end
  r.params = r.params or {}
  return r
end

-- The state each run starts from: a single cell of the model, from its stored
-- resting state, paced `beats` times at 1 Hz (80 uA/uF for 0.5 ms, ORd's
-- stimulus), 1 s after the last stimulus; cached per model and parameters.
local starts = {}
function M.start_state(model, params, beats)
  local keys = {}
  for k, v in pairs(params) do keys[#keys + 1] = k .. "=" .. tostring(v) end
  table.sort(keys)
  local key = model .. ":" .. beats .. ":" .. table.concat(keys, ",")
  if not starts[key] then
    local m = cardiac.model(model, params)
    local steps = beats * 1000 / 0.05
    local tr = m:trace{t = beats * 1000, dt = 0.05, every = steps, precision = "fp64",
                       stimulus = {amplitude = 80, duration = 0.5, period = 1000, count = beats}}
    local y = {}
    for _, st in ipairs(m:states()) do y[st.name] = tr[st.name][#tr[st.name]] end
    starts[key] = y
  end
  return starts[key]
end

--- Runs one setting: returns CV (mm/ms; nil unless the wave conducts), the
--- activation times t1, t2 (ms) of the two points, their distance (mm), the
--- dt used (o.dt, or the largest of the usual steps below the stability
--- limit), the status ("conducts"; "decays": the second point crossed the
--- threshold but its peak stayed more than 10% of the model's V range below
--- the first's for 50 ms; "fails": a point never fired) and the two points'
--- peaks (while measured).
function M.run(o)
  o = fill(o)
  local axis = o.xy and 3 or 1
  local size = o.xy and {o.xy, o.xy, o.len} or {o.len}
  local mesh = cardiac.mesh{size = size, dx = o.dx}
  local region = cardiac.slab{axis = axis == 3 and "z" or "x", from = 0, to = o.depth}
  local stimuli = o.stim == "current" and {cardiac.stimulus{region = region, amplitude = o.amp, duration = o.dur}} or nil
  local model = cardiac.model(o.model, o.params)
  local function make(dt)
    return cardiac.simulation{mesh = mesh, model = model, dt = dt, D = o.D,
                              precision = o.precision, stimuli = stimuli, stencil = o.stencil}
  end
  -- above the explicit stability limit: the largest of the usual steps below it
  local ok, sim = pcall(make, o.dt)
  if not ok then
    local lim = tonumber(tostring(sim):match("largest stable dt is ([%d.e+-]+)"))
    if not lim then error(sim, 0) end
    for _, dt in ipairs{0.04, 0.025, 0.02, 0.01, 0.005, 0.004, 0.0025, 0.002, 0.001} do
      if dt < lim then o.dt = dt; break end
    end
    sim = make(o.dt)
  end
  if (o.prepace or 0) > 0 then
    for name, v in pairs(M.start_state(o.model, o.params, o.prepace)) do sim:set(name, v) end
  end
  if o.stim == "set" then sim:set("V", o.vset, region) end
  local cells
  if o.xy then
    local n = mesh.n
    local k1, k2 = o.cells == "quarters" and n[3] // 4 or select(3, mesh:locate(0, 0, o.a)),
                   o.cells == "quarters" and 3 * n[3] // 4 or select(3, mesh:locate(0, 0, o.b))
    cells = {{n[1] // 2 + (n[1] == 1 and 1 or 0), n[2] // 2 + (n[2] == 1 and 1 or 0), k1},
             {n[1] // 2 + (n[1] == 1 and 1 or 0), n[2] // 2 + (n[2] == 1 and 1 or 0), k2}}
  elseif o.cells == "quarters" then
    cells = {{mesh.n[1] // 4}, {3 * mesh.n[1] // 4}}
  else
    cells = {{mesh:locate(o.a)}, {mesh:locate(o.b)}}
  end
  local p = sim:probe{cells = cells, vars = {"V"}, every = 1}
  local t1, t2
  local chunk = 5
  for _ = 1, math.ceil(o.tmax / chunk) do
    sim:run(chunk)
    local d = p:data()
    t1 = measure.activation_time(d.t, d.V[1], o.thr)
    t2 = measure.activation_time(d.t, d.V[2], o.thr)
    if t2 then break end
  end
  -- a wave that dies on the way crosses the threshold later and later as its
  -- peak falls: no conduction where the far peak stays 10% of the range below
  -- the near one for 50 ms after the threshold crossing (a slow wave's foot can
  -- cross the threshold long before its upstroke)
  local range = model.vmax - model.vmin
  local d, peak
  for _ = 1, t2 and 11 or 1 do
    d, peak = p:data(), {-math.huge, -math.huge}
    for q = 1, 2 do for _, v in ipairs(d.V[q]) do peak[q] = math.max(peak[q], v) end end
    if not t2 or peak[2] >= peak[1] - 0.1 * range then break end
    sim:run(chunk)
  end
  local status = not (t1 and t2) and "fails" or (peak[2] < peak[1] - 0.1 * range and "decays" or "conducts")
  local p1, p2 = {mesh:coord(table.unpack(cells[1]))}, {mesh:coord(table.unpack(cells[2]))}
  local dist = math.abs(p2[axis] - p1[axis])
  return status == "conducts" and dist / (t2 - t1) or nil, t1, t2, dist, o.dt, status, peak
end

return M
