-- Spiral-tip and filament trajectories (loaded with require "tracking"):
-- sim:tips sampled as a simulation runs, each tip linked to the nearest tip
-- of the previous sample, so that a rotor's path (its meander) and its
-- lifetime can be read off.
local T = {}

local function distance(a, b)
  return math.sqrt((a.x - b.x) ^ 2 + (a.y - b.y) ^ 2 + ((a.z or 0) - (b.z or 0)) ^ 2)
end

--- trajectories = tracking.tips(sim, o): runs sim for o.duration ms, finding
--- its tips (2D) or filaments (3D) every o.every ms (default 1), with
--- o.vars and o.centre passed to sim:tips. A tip joins the trajectory of
--- the nearest tip of the previous sample within o.link mm (default 1) and
--- of the same charge; a tip with none starts a trajectory, and a trajectory
--- without a tip in a sample ends. Returns the trajectories in order of
--- birth: {id, charge (2D) or faces (3D, at birth), t = {ms...}, x = {...},
--- y = {...}, z = {...} (3D)}.
function T.tips(sim, o)
  assert(type(o) == "table" and type(o.duration) == "number" and o.duration > 0,
         "tracking.tips: give {duration = ms} (and optionally every, link, vars, centre)")
  local every, link = o.every or 1, o.link or 1
  assert(every > 0 and link > 0, "tracking.tips: 'every' and 'link' must be positive")
  local args = {vars = o.vars, centre = o.centre}
  local all, open = {}, {}                       -- open: trajectories that had a tip in the last sample
  local t_end = sim.t + o.duration
  while true do
    local found, next_open, taken = sim:tips(args), {}, {}
    for _, p in ipairs(found) do
      local best, dbest
      for q, tr in ipairs(open) do
        local last = {x = tr.x[#tr.x], y = tr.y[#tr.y], z = tr.z and tr.z[#tr.z]}
        local d = distance(p, last)
        if not taken[q] and d <= link and tr.charge == p.charge and (not dbest or d < dbest) then best, dbest = q, d end
      end
      local tr
      if best then
        tr, taken[best] = open[best], true
      else
        tr = {id = #all + 1, charge = p.charge, faces = p.faces, t = {}, x = {}, y = {}, z = p.z and {} or nil}
        all[#all + 1] = tr
      end
      tr.t[#tr.t + 1], tr.x[#tr.x + 1], tr.y[#tr.y + 1] = sim.t, p.x, p.y
      if tr.z then tr.z[#tr.z + 1] = p.z end
      next_open[#next_open + 1] = tr
    end
    open = next_open
    if sim.t >= t_end - 1e-9 then break end
    sim:run(math.min(every, t_end - sim.t))
  end
  return all
end

--- tracking.csv(path, trajectories): one row per sample: id, t_ms, x, y[, z], charge.
function T.csv(path, trajectories, opts)
  local rows = {}
  for _, tr in ipairs(trajectories) do
    for q = 1, #tr.t do
      rows[#rows + 1] = {id = tr.id, t_ms = tr.t[q], x = tr.x[q], y = tr.y[q], z = tr.z and tr.z[q], charge = tr.charge}
    end
  end
  local cols = {"id", "t_ms", "x", "y"}
  if trajectories[1] and trajectories[1].z then cols[#cols + 1] = "z" end
  cols[#cols + 1] = "charge"
  return require("tables").csv(path, rows, cols, opts)
end

return T
