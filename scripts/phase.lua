-- Phase patterns for two-variable states (loaded with require "phase"):
-- phase singularities placed where you want them (tips in 2D, straight or
-- leaning filaments in 3D), a known answer for sim:tips.
local P = {}

--- phase.spirals(sim, tips, o): sets the state to the phase
---   theta(x, y, z) = sum over tips {x0, y0, sign} of sign * atan2(y - y0, x - x0 - tilt z)
--- as a = a0 + ra cos(theta), b = b0 + rb sin(theta) (defaults for Karma:
--- o.vars = {"U", "v"}, o.centre = {1, 0.5}, o.radius = {1, 0.25}); o.tilt
--- (default 0) leans 3D filaments along x by tilt mm per mm of z.
--- Each tip has charge sign (+1 counter-clockwise) about that centre.
function P.spirals(sim, tips, o)
  o = o or {}
  local vars, c, r, tilt = o.vars or {"U", "v"}, o.centre or {1, 0.5}, o.radius or {1, 0.25}, o.tilt or 0
  local function theta(x, y, z)
    local t = 0
    for _, p in ipairs(tips) do t = t + p[3] * math.atan(y - p[2], x - p[1] - tilt * (z or 0)) end
    return t
  end
  sim:set(vars[1], function(x, y, z) return c[1] + r[1] * math.cos(theta(x, y, z)) end)
  sim:set(vars[2], function(x, y, z) return c[2] + r[2] * math.sin(theta(x, y, z)) end)
end

return P
