-- Conduction velocity of a cable against the grid spacing: how far the
-- thesis' dx = 0.5 mm is from the resolved value (docs/models.md, gaur_rudy).
--   cardiac protocols/cv_resolution.lua [model] [D] [dx list]
--   e.g. cardiac protocols/cv_resolution.lua ohara_rudy 0.2 0.5,0.25,0.1
-- A 20 mm cable stimulated at one end; CV between 5 and 15 mm, activation
-- at -70 mV (the thesis' criterion); dt 0.05 ms, 0.01 ms below dx = 0.2 mm.
package.path = (arg[0]:match("(.*/)") or "./") .. "../scripts/?.lua;" .. package.path
local measure = require "measure"
local model, D = arg[1] or "ohara_rudy", tonumber(arg[2] or "0.2")
local dxs = {}
for x in (arg[3] or "0.5,0.25,0.1"):gmatch("[^,]+") do dxs[#dxs + 1] = tonumber(x) end
print(string.format("%s, D = %g mm^2/ms", model, D))
print("dx (mm)  CV (mm/ms)")
for _, dx in ipairs(dxs) do
  local mesh = cardiac.mesh{size = {20}, dx = dx}
  local st = cardiac.stimulus{region = cardiac.box{min = {0}, max = {1}}, amplitude = 80, duration = 1}
  local sim = cardiac.simulation{mesh = mesh, model = model, dt = dx < 0.2 and 0.01 or 0.05, D = D, stimuli = {st}}
  local cells = {{math.floor(5 / dx)}, {math.floor(15 / dx)}}
  local p = sim:probe{name = "cv", cells = cells, vars = {"V"}, interval = 0.05}
  sim:run(200)
  print(string.format("%-8g %.4f", dx, measure.conduction_velocity(p, mesh, cells, "V", -70)))
end
