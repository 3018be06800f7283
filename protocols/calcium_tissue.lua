-- The tissue experiments of the calcium thesis (Altanaite 2017, chapter 7)
-- with the multiscale model gaur_rudy (every cell ORd with stochastic
-- calcium release units), dx = dy = dz = 0.5 mm and dt = 0.05 ms as there:
--   cv   6 x 6 x 24 mm, the x-y plane stimulated at t = 0; conduction
--        velocity between the cells at (Nx/2, Ny/2, Nz/4) and (.., 3 Nz/4),
--        activation at -70 mV (thesis eq. 7.1), for each dyad count
--        (section 7.1.1: 0.523 m/s for 10 to 10,000 dyads);
--   dz   the same tissue and measure as a function of Dz with Dx = Dy = 0.2
--        (fig. 7.2: conduction fails at Dz = 0.00625 and at 0.4);
--   ryr  12 x 12 x 12 mm, every RyR held open from 50 to 150 ms, no
--        stimulus (fig. 7.6: the whole tissue fires at once, about 120 ms),
--        and the paced beat (the y-z plane stimulated at 50 ms) for
--        comparison (figs. 7.7, 7.8), for each dyad count.
--   Every experiment takes reading=sample|units (the model's `reading`: the
--   simulated dyads as a sample of the cell's 10,000, or each one of its
--   10,000 units with its share, as the thesis reads them; docs/models.md)
--   and initial=rest|encoding (the model's resting state, or the initial
--   state of the C++ encoding the thesis' code descends from, whose SR is
--   loaded to 4.3 / 3.8 mM; scripts/calcium_states.lua).
--   plot the figures again from the CSV files of earlier runs in <out> (the
--        GPU machine has no gnuplot): cv.png, dz.png, ryr_V.png, ryr_cai.png
--        (give the runs' reading, initial and g_k1 for the titles).
-- Usage: cardiac protocols/calcium_tissue.lua cv|dz|ryr|plot [key=value ...]
--   dyads=10,100,1000,10000   dz=0.00625,0.0125,0.025,0.05,0.1,0.2,0.3,0.4
--   dx=0.5  D=0.2 (cv; mm^2/ms, e.g. a D tuned to the grid by scripts/tune_cv.lua)
--   g_k1=<mS/uF> (ryr; default ORd's 0.1908, the encoding's is 0.0763)
--   ina_m_shift= ina_h_shift= ina_form= g_na= (ORd's INa variants, docs/models.md;
--   the theses' code: ina_m_shift=10, with its isoproterenol switch also
--   ina_h_shift=5 g_na=202.5)
--   precision=fp32  out=results/calcium  tmax=<ms> (cv, dz: 200, stopping once both
--   cells fired; ryr: 500)  dt=<ms> (0.05; 0.025 below dx = 0.5, the 3D
--   stability limit)  xy=6 (cv, dz: the slab's width in x and y, mm; the wave
--   is planar, so a narrower slab gives the same activation times at less
--   cost)  modes=ryr,paced (ryr)  stim=80,1,0.5 (cv, dz: the plane stimulus'
--   amplitude in uA/uF, duration in ms and depth in mm)
-- Writes <out>/<experiment>.csv (and, for ryr, the traces of the centre cell
-- as <out>/ryr_<mode>_<dyads>.csv) and PNG figures where gnuplot is installed.
package.path = (arg[0]:match("(.*/)") or "./") .. "../scripts/?.lua;" .. package.path
local measure, tables, states = require "measure", require "tables", require "calcium_states"
local what = arg[1]
assert(what == "cv" or what == "dz" or what == "ryr" or what == "plot",
       "usage: calcium_tissue.lua cv|dz|ryr|plot [key=value ...]")
local o = {dyads = "10,100,1000,10000", dz = "0.00625,0.0125,0.025,0.05,0.1,0.2,0.3,0.4", dx = "0.5",
           precision = "fp32", out = "results/calcium", g_k1 = "0.1908", xy = "6", modes = "ryr,paced",
           stim = "80,1,0.5", reading = "sample", initial = "rest", D = "0.2"}
-- ORd's INa variants for the membrane (docs/models.md): the theses' code's INa
-- is ina_m_shift=10 (and, with its isoproterenol switch, ina_h_shift=5 g_na=202.5)
local INA = {ina_m_shift = true, ina_h_shift = true, ina_form = true, g_na = true}
local ina = {}
for q = 2, #arg do
  local k, v = arg[q]:match("^([%w_]+)=(.*)$")
  assert(k and (o[k] or INA[k] or k == "tmax" or k == "dt"), "calcium_tissue.lua: unknown option " .. arg[q])
  if INA[k] then ina[k] = assert(tonumber(v), "calcium_tissue.lua: " .. k .. " takes a number") else o[k] = v end
end
-- the model's parameters: these, the INa options, and the dyad count
local function gr_params(extra) return tables.merged(ina, extra) end
local function ms(x) return x and ("%.2f"):format(x) or "-" end
local function list(s) local t = {} for x in s:gmatch("[^,]+") do t[#t + 1] = tonumber(x) end return t end
-- the model of every run: dyad count, the reading and g_k1 of the options
local function model(dyads)
  return cardiac.model("gaur_rudy", gr_params{dyads = dyads, reading = o.reading, g_k1 = tonumber(o.g_k1)})
end
local dx = tonumber(o.dx)
local dt = tonumber(o.dt) or (dx < 0.5 and 0.025 or 0.05)
local xy = tonumber(o.xy)
cardiac.quiet = true
local function plot(path, rows, opts)
  opts.overwrite = true
  if not tables.can_plot() then print("no figure " .. path .. ": gnuplot is not installed") return end
  tables.plot(path, rows, opts)
  print("wrote " .. path)
end

local function cv_figure(rows)
  plot(o.out .. "/cv.png", rows, {x = "dyads", y = "cv", xlabel = "dyads per cell", ylabel = "CV (m/s)",
       title = ("CV against dyads per cell, 6 x 6 x 24 mm, dx = %g mm"):format(rows[1].dx or dx)})
end
local function dz_figure(rows)
  plot(o.out .. "/dz.png", rows, {x = "dz", y = "cv", xlabel = "Dz (mm^2/ms)", ylabel = "CV (m/s), gaps: conduction fails",
       title = ("CV against Dz (Dx = Dy = 0.2), %s dyads per cell, dx = %g mm"):format(rows[1].dyads, rows[1].dx or dx)})
end
-- the model's settings, for the figures' titles
local function setting()
  return ("reading %s, initial %s, g_k1 %s"):format(o.reading, o.initial, o.g_k1)
end
-- the centre cell's V and Cai of every ryr_<mode>_<dyads>.csv in out, one curve each
local function ryr_figures(traces)
  local cols, rows = {}, {}
  for _, tr in ipairs(traces) do
    cols[#cols + 1] = tr.label
    for i, r in ipairs(tr.rows) do
      rows[i] = rows[i] or {t = r.t}
      rows[i][tr.label .. " V"], rows[i][tr.label .. " Cai"] = r.V, r.cai
    end
  end
  local v, c = {}, {}
  for q, l in ipairs(cols) do v[q], c[q] = l .. " V", l .. " Cai" end
  plot(o.out .. "/ryr_V.png", rows, {x = "t", y = v, style = "lines", xlabel = "t (ms)", ylabel = "V (mV)",
       key = "top right", title = ("12 mm cube, centre cell, V; %s"):format(setting())})
  plot(o.out .. "/ryr_cai.png", rows, {x = "t", y = c, style = "lines", xlabel = "t (ms)", ylabel = "Cai (uM)",
       key = "top right", title = ("12 mm cube, centre cell, Cai; %s"):format(setting())})
end

-- One planar wave along z in the 6 x 6 x 24 mm slab: activation times of the
-- two cells (nil: never fired within tmax) and the CV between them.
local function planar(dyads, D)
  local mesh = cardiac.mesh{size = {xy, xy, 24}, dx = dx}
  local n = mesh.n
  local cells = {{n[1] // 2, n[2] // 2, n[3] // 4}, {n[1] // 2, n[2] // 2, 3 * n[3] // 4}}
  local amp, dur, depth = table.unpack(list(o.stim))
  local st = cardiac.stimulus{region = cardiac.slab{axis = "z", from = 0, to = depth}, amplitude = amp,
                              duration = dur, start = 0}
  local sim = cardiac.simulation{mesh = mesh, model = model(dyads), dt = dt, D = D,
                                 stimuli = {st}, precision = o.precision, backend = "auto"}
  states.apply(sim, o.initial)
  local p = sim:probe{name = "cv", cells = cells, vars = {"V"}, interval = 0.05}
  local t0 = cardiac.clock()
  local t1, t2
  for _ = 1, math.ceil((tonumber(o.tmax) or 200) / 10) do   -- stopping once both fired
    sim:run(10)
    local d = p:data()
    t1 = measure.activation_time(d.t, d.V[1], -70)
    t2 = measure.activation_time(d.t, d.V[2], -70)
    if t2 then break end
  end
  local p1, p2 = {mesh:coord(table.unpack(cells[1]))}, {mesh:coord(table.unpack(cells[2]))}
  local dist = math.abs(p2[3] - p1[3])
  return {t1 = t1, t2 = t2, cv = t1 and t2 and dist / (t2 - t1) or nil, cells = mesh.tissue,
          seconds = cardiac.clock() - t0, backend = sim.backend}
end

if what == "cv" then
  local rows = {}
  for _, n in ipairs(list(o.dyads)) do
    local r = planar(n, tonumber(o.D))
    r.dyads = n
    rows[#rows + 1] = r
    print(("dyads %5d: t1 %s ms, t2 %s ms, CV %s m/s (%d cells, %.0f s on %s)"):format(n, ms(r.t1), ms(r.t2),
          r.cv and ("%.4f"):format(r.cv) or "-", r.cells, r.seconds, r.backend))
  end
  for _, r in ipairs(rows) do r.dx, r.dt, r.D, r.reading, r.initial = dx, dt, tonumber(o.D), o.reading, o.initial end
  tables.csv(o.out .. "/cv.csv", rows, {"dyads", "dx", "dt", "D", "reading", "initial", "t1", "t2", "cv", "cells",
                                        "seconds", "backend"}, {overwrite = true})
  cv_figure(rows)
elseif what == "dz" then
  local rows = {}
  local dyads = list(o.dyads)[1]
  for _, dz in ipairs(list(o.dz)) do
    local r = planar(dyads, {0.2, 0.2, dz})
    r.dz, r.dyads, r.dx, r.dt = dz, dyads, dx, dt
    r.fired = (r.t1 and 1 or 0) + (r.t2 and 1 or 0)
    rows[#rows + 1] = r
    print(("Dz %-8g: t1 %s ms, t2 %s ms, CV %s m/s (%s; %.0f s on %s)"):format(dz, ms(r.t1), ms(r.t2),
          r.cv and ("%.4f"):format(r.cv) or "-", r.cv and "conducts" or "conduction fails", r.seconds, r.backend))
  end
  tables.csv(o.out .. "/dz.csv", rows, {"dz", "dyads", "dx", "dt", "t1", "t2", "cv", "fired", "cells", "seconds",
                                        "backend"})
  dz_figure(rows)
elseif what == "ryr" then
  local rows, traces = {}, {}
  for mode in o.modes:gmatch("[^,]+") do
    for _, n in ipairs(list(o.dyads)) do
      local mesh = cardiac.mesh{size = {12, 12, 12}, dx = dx}
      local stims = {}
      if mode == "paced" then
        stims[1] = cardiac.stimulus{region = cardiac.slab{axis = "x", from = 0, to = dx}, amplitude = 80,
                                    duration = 1, start = 50}
      end
      local sim = cardiac.simulation{mesh = mesh, model = model(n), dt = dt, D = 0.2, stimuli = stims,
                                     precision = o.precision, backend = "auto"}
      states.apply(sim, o.initial)
      if mode == "ryr" then sim:clamp_ryr{region = cardiac.box{min = {0, 0, 0}, max = {12, 12, 12}}, start = 50,
                                          duration = 100} end
      local nn = mesh.n
      local cells = {{nn[1] // 2, nn[2] // 2, nn[3] // 2}, {1, 1, 1}, {nn[1], nn[2], nn[3]}}
      local p = sim:probe{name = "cells", cells = cells, vars = {"V", "cai", "cajsr", "ryr_open"}, interval = 0.5}
      local t0 = cardiac.clock()
      sim:run(tonumber(o.tmax) or 500)
      local d = p:data()
      local r = {mode = mode, dyads = n, g_k1 = tonumber(o.g_k1), reading = o.reading, initial = o.initial,
                 cells = mesh.tissue, seconds = cardiac.clock() - t0, backend = sim.backend}
      local up = {}
      for q = 1, #cells do up[q] = measure.activation_time(d.t, d.V[q], -40) end
      r.centre_up, r.corner_up, r.far_up = up[1], up[2], up[3]
      local ap = measure.action_potential(d.t, d.V[1], d.cai[1])
      r.vmax, r.ca_max, r.ca_min = ap.peak, ap.ca_max * 1e3, ap.ca_min * 1e3
      r.jsr_min = math.huge
      for i = 1, #d.t do r.jsr_min = math.min(r.jsr_min, d.cajsr[1][i]) end
      rows[#rows + 1] = r
      print(("%-5s dyads %5d: V > -40 mV at %s (centre), %s, %s ms (corners); max V %.1f mV; Cai %.3f -> %.3f uM; "
             .. "JSR min %.3f mM (%d cells, %.0f s on %s)"):format(mode, n, up[1] and ("%.1f"):format(up[1]) or "never",
             up[2] and ("%.1f"):format(up[2]) or "never", up[3] and ("%.1f"):format(up[3]) or "never", r.vmax,
             r.ca_min, r.ca_max, r.jsr_min, r.cells, r.seconds, r.backend))
      local trace = {}
      for i = 1, #d.t do trace[i] = {t = d.t[i], V = d.V[1][i], cai = d.cai[1][i] * 1e3, cajsr = d.cajsr[1][i],
                                    ryr_open = d.ryr_open[1][i]} end
      local base = ("%s/ryr_%s_%d"):format(o.out, mode, n)
      tables.csv(base .. ".csv", trace, {"t", "V", "cai", "cajsr", "ryr_open"}, {overwrite = true})
      traces[#traces + 1] = {label = ("%s %d"):format(mode, n), rows = trace}
    end
  end
  ryr_figures(traces)
  tables.csv(o.out .. "/ryr.csv", rows, {"mode", "dyads", "g_k1", "reading", "initial", "centre_up", "corner_up", "far_up", "vmax", "ca_min",
             "ca_max", "jsr_min", "cells", "seconds", "backend"}, {overwrite = true})
elseif what == "plot" then
  local function read(name)
    local rows = tables.read_csv(o.out .. "/" .. name)
    for _, r in ipairs(rows or {}) do for k, v in pairs(r) do if v == "" then r[k] = nil end end end
    return rows
  end
  local cv, dz = read("cv.csv"), read("dz.csv")
  if cv then cv_figure(cv) end
  if dz then dz_figure(dz) end
  local traces = {}
  for _, mode in ipairs{"ryr", "paced"} do
    for _, n in ipairs(list(o.dyads)) do
      local rows = read(("ryr_%s_%d.csv"):format(mode, n))
      if rows then traces[#traces + 1] = {label = ("%s %d"):format(mode, n), rows = rows} end
    end
  end
  if #traces > 0 then ryr_figures(traces) end
end
