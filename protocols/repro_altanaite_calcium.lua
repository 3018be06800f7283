-- Reproduction: Altanaite 2017 (MSc thesis), chapter 7 - the tissue
-- experiments with the stochastic calcium model at 10,000 dyads per cell:
-- CV against the dyad count (section 7.1.1), CV against Dz with conduction
-- failure at both ends (fig. 7.2) and all RyRs opened in a 12 mm cube
-- (section 7.2, fig. 7.6). The experiments are those of
-- protocols/calcium_tissue.lua with the settings below; this script runs them
-- (a few minutes on an H100) or, with from=DIR, reads the CSVs a run of them
-- left in DIR (give that run's machine and date, which those files lack).
--   cardiac protocols/repro_altanaite_calcium.lua [csv] [from=DIR machine=NAME date=YYYY-MM-DD]
package.path = (arg[0] and arg[0]:match("(.*/)") or "protocols/") .. "../scripts/?.lua;" .. package.path
-- a time to two decimals, or "none" where the wave never arrived
local function ms2(t) return t and ("%.2f"):format(t) or "none" end
local R, tables = require "reproduction", require "tables"
local path = arg[1] ~= "-" and arg[1] or nil
local o = R.options(arg, 2, {"from", "machine", "date"}, "repro_altanaite_calcium.lua")

-- The settings of our runs, each the thesis' grid (dx = 0.5 mm) with the
-- dyads read as the cell's release units (reading = "units", docs/models.md):
-- the CV against the dyad count with D tuned to the grid for ORd's resolved
-- plane wave (scripts/tune_cv.lua: 0.3555 mm^2/ms for 0.5507 mm/ms against
-- 0.5477 at D = 0.2 resolved); the Dz sweep with the thesis' INa (the
-- encoding's m_inf, ina_m_shift = 10, with which the cell-level runs of
-- altanaite_cv_resolution fail at the thesis' Dz) and stimulus (one 0.5 mm
-- layer, 80 uA/uF for 0.5 ms) in a 1 mm wide slab (the wave is planar); the
-- RyR study from the Ca2+ load of the encoding the thesis' code descends from
-- (scripts/calcium_states.lua) with ORd's own IK1.
local RUNS = {
  cv = {"cv", "dx=0.5", "D=0.3555", "reading=units", "tmax=60"},
  dz = {"dz", "dx=0.5", "xy=1", "dyads=10000", "reading=units", "ina_m_shift=10", "stim=80,0.5,0.5", "tmax=400"},
  ryr = {"ryr", "dyads=10,100,1000,10000", "reading=units", "initial=encoding", "modes=ryr", "tmax=300"},
}
local dir = o.from
if not dir then
  assert(cardiac.gpu(), "repro_altanaite_calcium needs a GPU (or from=DIR with the CSVs of an earlier run)")
  dir = "results/reproduce/calcium"
  local script = (arg[0] and arg[0]:match("(.*/)") or "protocols/") .. "calcium_tissue.lua"
  for _, name in ipairs{"cv", "dz", "ryr"} do
    local saved = arg
    arg = {[0] = script, table.unpack(RUNS[name])}
    arg[#arg + 1] = "out=" .. dir
    dofile(script)
    arg = saved
  end
end
local function read(name)
  local rows = tables.read_csv(dir .. "/" .. name)
  assert(rows and #rows > 0, ("repro_altanaite_calcium: no rows in %s/%s"):format(dir, name))
  return rows
end
local function num(x) return type(x) == "number" and x or nil end   -- empty CSV fields read as ""
local function command(name) return "calcium_tissue.lua " .. table.concat(RUNS[name], " ") end
local out = R.new(path)

-- 7.1.1: CV for each dyad count (eq. 7.1 between (Nx/2, Ny/2, Nz/4) and (.., 3Nz/4))
local paper_cv = {[10] = 0.524}
for _, r in ipairs(read("cv.csv")) do
  out:row{quantity = ("CV, 6 x 6 x 24 mm, %d dyads per cell"):format(r.dyads), paper = paper_cv[r.dyads] or 0.523,
          ours = num(r.cv) or "fails", units = "m/s",
          note = ("paper: t1 10.65, t2 33.6 ms at dx 0.5 mm; ours: t1 %s, t2 %s ms at dx %g mm, D %s (`%s`)")
            :format(ms2(num(r.t1)), ms2(num(r.t2)), r.dx, tostring(r.D or 0.2), command("cv"))}
end
-- fig. 7.2: CV against Dz (Dx = Dy = 0.2), 10,000 dyads
local fails, conducts = {}, {}
for _, r in ipairs(read("dz.csv")) do
  if num(r.cv) then conducts[#conducts + 1] = ("%g: %.3f"):format(r.dz, r.cv) else fails[#fails + 1] = ("%g"):format(r.dz) end
  if r.dz == 0.2 then
    out:row{quantity = "CV at Dz = 0.2 mm^2/ms, 10,000 dyads", paper = 0.53, ours = num(r.cv) or "fails", units = "m/s",
            note = ("paper: fig. 7.1 (50 x 50 x 100 mm, 10 dyads), fig. 7.2 alike; ours: `%s`"):format(command("dz"))}
  end
end
out:row{quantity = "Dz at which conduction fails", paper = "0.00625 and 0.4", ours = table.concat(fails, ", "),
        units = "mm^2/ms", note = "ours conducts at Dz (CV, m/s) " .. table.concat(conducts, "; ")}
-- 7.2: every RyR open from 50 to 150 ms, no stimulus
for _, r in ipairs(read("ryr.csv")) do
  if r.mode == "ryr" then
    local fired = num(r.centre_up) and num(r.far_up)
    out:row{quantity = ("all RyRs open 50-150 ms, 12 mm cube, %d dyads: spontaneous beat at"):format(r.dyads),
            paper = r.dyads == 10000 and 120 or "fails", ours = fired and ("%.1f"):format(r.centre_up) or "fails",
            units = "ms",
            note = fired and ("V > -40 mV at the centre %.1f, the far corner %.1f ms; Cai to %.3f uM (`%s`)")
              :format(r.centre_up, r.far_up, r.ca_max, command("ryr")) or command("ryr")}
  end
end
out:write(o.machine, o.date)
