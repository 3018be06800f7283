-- Measurements on probe time series, and the wall-clock cost of a
-- simulation's steps (loaded with require "measure").
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

--- Every upward crossing of `threshold` in a series: the times of the first
--- samples at or above it (a probe's activations, sampled).
function M.crossings(t, series, threshold)
  local ups = {}
  for i = 2, #series do
    if series[i - 1] < threshold and series[i] >= threshold then ups[#ups + 1] = t[i] end
  end
  return ups
end

--- The fraction of the tissue cells whose value in a map field (NaN outside
--- the tissue, e.g. maps:field("count")) is at least k.
function M.fraction_at_least(field, k)
  local hit, tissue = 0, 0
  for _, c in ipairs(field) do
    if c == c then tissue = tissue + 1; if c >= k then hit = hit + 1 end end
  end
  return tissue > 0 and hit / tissue or 0
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

--- One action potential in a sampled beat that starts at its stimulus:
--- rest = the first sample; peak; dvdt_max = the largest forward difference;
--- apd90 = from the time of dvdt_max to the repolarisation crossing of
--- peak - 0.9 (peak - rest), linearly interpolated (nil if it never
--- repolarises); and, given a calcium series, its minimum and maximum.
function M.action_potential(t, v, ca)
  local r = {rest = v[1], peak = -math.huge, dvdt_max = -math.huge}
  local iup, ipk = 1, 1
  for i = 1, #v - 1 do
    local d = (v[i + 1] - v[i]) / (t[i + 1] - t[i])
    if d > r.dvdt_max then r.dvdt_max, iup = d, i end
  end
  for i = 1, #v do if v[i] > r.peak then r.peak, ipk = v[i], i end end
  local thr = r.peak - 0.9 * (r.peak - r.rest)
  for i = ipk + 1, #v do
    if v[i] <= thr then
      r.apd90 = t[i - 1] + (thr - v[i - 1]) * (t[i] - t[i - 1]) / (v[i] - v[i - 1]) - t[iup]
      break
    end
  end
  if ca then
    r.ca_min, r.ca_max = math.huge, -math.huge
    for i = 1, #ca do r.ca_min, r.ca_max = math.min(r.ca_min, ca[i]), math.max(r.ca_max, ca[i]) end
  end
  return r
end

--- The median of a list of numbers (sorted in place): the middle one, or
--- the mean of the middle two.
function M.median(t)
  table.sort(t)
  local n = #t
  return n % 2 == 1 and t[(n + 1) / 2] or 0.5 * (t[n / 2] + t[n / 2 + 1])
end

--- Wall-clock milliseconds per step of sim:step (everything a step does:
--- kernels, clamps, maps, probes): `warmup` steps, then the median of
--- `repeats` runs of `steps` steps.
function M.ms_per_step(sim, steps, repeats, warmup)
  sim:step(warmup or 200)
  local t = {}
  for r = 1, repeats or 3 do
    local t0 = cardiac.clock()
    sim:step(steps)
    t[r] = (cardiac.clock() - t0) * 1e3 / steps
  end
  table.sort(t)
  return t[(#t + 1) // 2]
end

return M
