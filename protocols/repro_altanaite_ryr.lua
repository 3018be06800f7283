-- Reproduction: Altanaite 2017 (MSc thesis), section 7.2, figs. 7.7-7.8 and
-- the dyad count of section 7.1.1, on one cell and a cable (CPU, about a
-- minute): the thesis reads its simulated dyads as the cell's release units,
-- each with its 1/10,000 share (the model's reading = "units"), and starts
-- from the state of the C++ encoding its code descends from (SR loaded to
-- 4.27 / 3.82 mM; scripts/calcium_states.lua) for the RyR opening, and from
-- the model's resting state for the paced beat. Tolerances, stated before the
-- runs: the spontaneous beat with 10,000 dyads within 20 ms of the thesis'
-- 120 ms (the frame of fig. 7.6 in which the tissue is excited) and none
-- with 10, 100 or 1,000; the paced APD90 shorter with fewer dyads (fig. 7.7
-- shows it, with no numbers); CV within 1% for every dyad count (7.1.1:
-- 0.523 and 0.524 m/s).
--   cardiac protocols/repro_altanaite_ryr.lua [csv|-]
package.path = (arg[0] and arg[0]:match("(.*/)") or "protocols/") .. "../scripts/?.lua;" .. package.path
local R, cell, measure = require "reproduction", require "calcium_cell", require "measure"
local states = require "calcium_states"
local path = arg[1] ~= "-" and arg[1] or nil
local out = R.new(path, true)
local counts = {10000, 1000, 100, 10}

-- fig. 7.8: every RyR open from 50 to 150 ms, no stimulus
for _, n in ipairs(counts) do
  local r = cell.run{dyads = n, reading = "units", initial = "encoding", open = 50, hold = 100, tmax = 400}
  out:row{quantity = ("one cell, every RyR open 50-150 ms, %d dyads (units): spontaneous beat at"):format(n),
          paper = n == 10000 and 120 or "fails", ours = r.up and ("%.1f"):format(r.up) or "fails", units = "ms",
          note = ("V > -40 mV; max V %.1f mV, peak Cai %.2f uM, largest release %.3g mM/ms%s"):format(r.vmax,
            r.ca_max, r.jrel_max, n == 10000 and "; paper: the tissue's frame at 120 ms (fig. 7.6)" or "")}
end
local s = cell.run{dyads = 100, reading = "sample", initial = "encoding", open = 50, hold = 100, tmax = 400}
out:row{quantity = "the same, 100 dyads read as a sample of the cell: spontaneous beat at", paper = "-",
        ours = s.up and ("%.1f"):format(s.up) or "fails", units = "ms",
        note = "the default reading: the count changes only the noise, so every count fires alike"}

-- fig. 7.7: a beat paced at 50 ms "under healthy conditions", from the
-- model's resting state (with the encoding's Ca2+ load, which belongs to its
-- isoproterenol variant, ORd's beat lasts over half a second: last row)
for _, n in ipairs(counts) do
  local r = cell.run{dyads = n, reading = "units", initial = "rest", paced = 50, tmax = 500}
  out:row{quantity = ("one cell paced at 50 ms, %d dyads (units): APD90"):format(n),
          paper = n == 10000 and "fig. 7.7 (A)" or "shorter (fig. 7.7)", ours = r.apd90 or "none", units = "ms",
          note = ("from the resting state; peak Cai %.3f uM, largest release %.3g mM/ms"):format(r.ca_max, r.jrel_max)}
end
local loaded = cell.run{dyads = 100, reading = "sample", initial = "encoding", paced = 50, tmax = 800}
out:row{quantity = "the same with the encoding's Ca2+ load, the whole cell (100 dyads, sample): APD90", paper = "-",
        ours = loaded.apd90 or "none", units = "ms",
        note = ("peak Cai %.3f uM: the load of an isoproterenol variant on ORd's own currents"):format(loaded.ca_max)}

-- 7.1.1: CV against the dyad count, a cable at D = 0.2 mm^2/ms
local function cable_cv(n)
  local mesh = cardiac.mesh{size = {15}, dx = 0.25}
  local st = cardiac.stimulus{region = cardiac.box{min = {0}, max = {1}}, amplitude = 80, duration = 1}
  local sim = cardiac.simulation{mesh = mesh, model = cardiac.model("gaur_rudy", {dyads = n, reading = "units"}),
                                 dt = 0.05, D = 0.2, stimuli = {st}, backend = "cpu"}
  states.apply(sim, "encoding")
  local cells = {{16}, {48}}
  local p = sim:probe{name = "cv", cells = cells, vars = {"V"}, interval = 0.05}
  sim:run(50)
  local cv = measure.conduction_velocity(p, mesh, cells, "V", -70)
  sim:close()
  return cv
end
local ref
for _, n in ipairs{10, 100, 1000} do
  local cv = cable_cv(n)
  ref = ref or cv
  out:row{quantity = ("CV, cable, %d dyads (units)"):format(n), paper = n == 10 and 0.524 or 0.523, ours = cv,
          units = "m/s", note = ("dx 0.25 mm, activation at -70 mV between 4 and 12 mm; %+.2f%% from 10 dyads")
            :format(100 * (cv / ref - 1))}
end
out:write()
