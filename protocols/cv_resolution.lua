-- Conduction velocity of a cable against the grid spacing: how far the
-- thesis' dx = 0.5 mm is from the resolved value (docs/models.md, gaur_rudy).
--   cardiac protocols/cv_resolution.lua [model] [D] [dx list]
--   e.g. cardiac protocols/cv_resolution.lua ohara_rudy 0.2 0.5,0.25,0.1
-- A 20 mm cable excited at one end; CV between the cells at 5 and 15 mm, or
-- "fails" where the wave decays on the way; dt 0.05 ms,
-- 0.01 ms below dx = 0.2 mm. Models in mV: a stimulus of 80 uA/uF for 1 ms
-- on the first mm and activation at -70 mV (the thesis' criterion); models
-- in their own units (karma, mitchell_schaeffer, ...): the first mm set to
-- the top of the voltage's range, activation at 15% of the range.
package.path = (arg[0]:match("(.*/)") or "./") .. "../scripts/?.lua;" .. package.path
local measure = require "measure"
local name, D = arg[1] or "ohara_rudy", tonumber(arg[2] or "0.2")
local dxs = {}
for x in (arg[3] or "0.5,0.25,0.1"):gmatch("[^,]+") do dxs[#dxs + 1] = tonumber(x) end
local model = cardiac.model(name)
local vname = model:states()[1].name
local in_mv = model.vmin < -50
local threshold = in_mv and -70 or model.vmin + 0.15 * (model.vmax - model.vmin)
print(string.format("%s, D = %g mm^2/ms, activation at %s = %g", name, D, vname, threshold))
print("dx (mm)  CV (mm/ms)")
local first_mm = cardiac.box{min = {0}, max = {1}}
-- a wave that dies on the way is not conduction: its crossings slow down as its
-- peak falls (ORd at dx = 0.5 mm: 0.109 mm/ms between 4.75 and 14.75 mm, where
-- it still crossed -70 mV; docs/models.md), so the peak at the far cell must
-- come within 10% of the range of the near cell's
for _, dx in ipairs(dxs) do
  local mesh = cardiac.mesh{size = {20}, dx = dx}
  local stimuli = in_mv and {cardiac.stimulus{region = first_mm, amplitude = 80, duration = 1}} or nil
  local sim = cardiac.simulation{mesh = mesh, model = model, dt = dx < 0.2 and 0.01 or 0.05, D = D, stimuli = stimuli}
  if not in_mv then sim:set(vname, model.vmax, first_mm) end
  local cells = {{mesh:locate(5)}, {mesh:locate(15)}}
  local p = sim:probe{name = "cv", cells = cells, vars = {vname}, interval = 0.05}
  sim:run(200)
  local d = p:data()
  local peak = {-math.huge, -math.huge}
  for q = 1, 2 do for _, v in ipairs(d[vname][q]) do peak[q] = math.max(peak[q], v) end end
  local t2 = measure.activation_time(d.t, d[vname][2], threshold)
  local note = sim.resolved == false and ("  (under-resolved: above dx = %.3g mm)"):format(sim.dx_resolved) or ""
  if not t2 or peak[2] < peak[1] - 0.1 * (model.vmax - model.vmin) then
    print(string.format("%-8g fails: the wave decays (peak %.1f at 5 mm, %.1f at 15 mm)%s", dx, peak[1], peak[2], note))
  else
    print(string.format("%-8g %.4f%s", dx, measure.conduction_velocity(p, mesh, cells, vname, threshold), note))
  end
end
