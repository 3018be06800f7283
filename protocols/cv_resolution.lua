-- Conduction velocity of a cable against the grid spacing: how far the
-- thesis' dx = 0.5 mm is from the resolved value (docs/models.md, gaur_rudy).
--   cardiac protocols/cv_resolution.lua [model] [D] [dx list]
--   e.g. cardiac protocols/cv_resolution.lua ohara_rudy 0.2 0.5,0.25,0.1
-- A 20 mm cable excited at one end; CV between 5 and 15 mm; dt 0.05 ms,
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
for _, dx in ipairs(dxs) do
  local mesh = cardiac.mesh{size = {20}, dx = dx}
  local stimuli = in_mv and {cardiac.stimulus{region = first_mm, amplitude = 80, duration = 1}} or nil
  local sim = cardiac.simulation{mesh = mesh, model = model, dt = dx < 0.2 and 0.01 or 0.05, D = D, stimuli = stimuli}
  if not in_mv then sim:set(vname, model.vmax, first_mm) end
  local cells = {{math.floor(5 / dx)}, {math.floor(15 / dx)}}
  local p = sim:probe{name = "cv", cells = cells, vars = {vname}, interval = 0.05}
  sim:run(200)
  print(string.format("%-8g %.4f", dx, measure.conduction_velocity(p, mesh, cells, vname, threshold)))
end
