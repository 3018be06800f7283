-- Measurements on probe time series (loaded with require "measure").
local M = {}

--- First upward crossing of `threshold` in a series, linearly interpolated
--- between samples; nil when the series never crosses it.
function M.activation_time(t, series, threshold)
  for i = 2, #series do
    local a, b = series[i - 1], series[i]
    if a < threshold and b >= threshold then
      return t[i - 1] + (threshold - a) / (b - a) * (t[i] - t[i - 1])
    end
  end
  return nil
end

--- Conduction velocity (mm/ms) between two probed cells of one probe:
--- distance between the cell centres over the difference of activation times.
--- probe: a cardiac.probe; mesh: its mesh; cells: {{i,j,k}, {i,j,k}} as probed;
--- var, threshold: the variable and level defining activation.
function M.conduction_velocity(probe, mesh, cells, var, threshold)
  local d = probe:data()
  local t1 = M.activation_time(d.t, d[var][1], threshold)
  local t2 = M.activation_time(d.t, d[var][2], threshold)
  assert(t1 and t2, "measure.conduction_velocity: a probe was not activated")
  local p1, p2 = {mesh:coord(table.unpack(cells[1]))}, {mesh:coord(table.unpack(cells[2]))}
  local dist = 0
  for a = 1, #p1 do dist = dist + (p2[a] - p1[a]) ^ 2 end
  return math.sqrt(dist) / (t2 - t1)
end

return M
