-- The diffusion coefficient that gives a coarse grid the conduction velocity
-- of the resolved tissue (loaded with require "tune_cv"). On a grid too
-- coarse for a model's upstroke (docs/models.md, "Conduction velocity at
-- coarse grids") a plane wave runs slow or dies; raising D makes the front
-- longer than the grid spacing and the wave faster. The conductivity that
-- gives a prescribed velocity on a given grid is found by the iteration of
-- Costa, Hoetzl, Rocha, Prassl and Plank, Automatic parameterization strategy
-- for cardiac electrophysiology simulations, Computing in Cardiology
-- 40:373-376 (2013): CV grows as sqrt(D), so D <- D (target / CV)^2 until the
-- cable's CV is within the tolerance. What this matches is the plane wave's
-- speed only: the front is still under-resolved, so its response to
-- curvature, to obstacles and to the loading of a thin stimulated layer (the
-- calcium thesis' Dz sweeps, figs. 7.1-7.2) is not the resolved tissue's.
--   local tune = require "tune_cv"
--   local r = tune.D{dx = 0.5, D_ref = 0.2}          -- ORd: r.D, r.cv, r.target
--   local r = tune.D{model = "gaur_rudy", params = {dyads = 10}, dx = 0.5, target = 0.523}
-- Options: model ("ohara_rudy"), params (model parameters), dx (mm), target
-- (mm/ms) or D_ref (mm^2/ms: the target is then the CV at D_ref on a grid of
-- dx_ref, 0.05 mm), tol (0.01, relative), and any setting of scripts/ordcv.lua
-- (dt, len, stencil, ...). Returns {D, cv, target, iterations, history =
-- {{D, cv or status}, ...}}; an error when no D up to 100 times the first
-- conducts, or the iteration does not settle in 20 steps.
local ordcv = require "ordcv"
local M = {}

local function cv_at(o, D)
  local run = {}
  for k, v in pairs(o) do run[k] = v end
  run.D = D
  local cv, _, _, _, _, status = ordcv.run(run)
  return cv, status
end

function M.D(o)
  assert(type(o) == "table" and o.dx, "tune_cv.D: give {dx = mm, target = mm/ms | D_ref = mm^2/ms}")
  local base = {}
  for k, v in pairs(o) do
    if k ~= "target" and k ~= "D_ref" and k ~= "dx_ref" and k ~= "tol" then base[k] = v end
  end
  local target = o.target
  if not target then
    assert(o.D_ref, "tune_cv.D: give target (mm/ms) or D_ref (mm^2/ms)")
    local ref = {}
    for k, v in pairs(base) do ref[k] = v end
    ref.dx, ref.dt = o.dx_ref or 0.05, nil
    target = assert(cv_at(ref, o.D_ref), "tune_cv.D: no conduction at D_ref on the reference grid")
  end
  local tol, D, history = o.tol or 0.01, o.D_ref or 0.2, {}
  -- first a D at which the coarse grid conducts at all
  local first, cv, status = D, nil, nil
  while true do
    cv, status = cv_at(base, D)
    history[#history + 1] = {D = D, cv = cv or status}
    if cv then break end
    D = D * 1.5
    if D > 100 * first then error(("tune_cv.D: no D up to %g mm^2/ms conducts at dx = %g mm"):format(D, o.dx), 2) end
  end
  -- then Costa et al.'s step D <- D (target / cv)^2 while one speed is
  -- known; after that cv ~ D^p with p from the last two conducting runs (on a
  -- coarse grid CV grows faster than sqrt(D)); every step kept inside the
  -- bracket of a failing or slow D and a fast one
  local lo, hi = (#history > 1) and history[#history - 1].D or 0, math.huge
  local prevD, prevcv
  for it = 1, 20 do
    if math.abs(cv / target - 1) <= tol then
      return {D = D, cv = cv, target = target, iterations = it, history = history}
    end
    if cv < target then lo = D else hi = D end
    local p = prevD and math.log(cv / prevcv) / math.log(D / prevD) or 0.5
    if not (p > 0.1 and p < 10) then p = 0.5 end
    prevD, prevcv = D, cv
    local nextD = D * (target / cv) ^ (1 / p)
    if nextD <= lo or nextD >= hi then nextD = hi < math.huge and (lo + hi) / 2 or 2 * D end
    D = nextD
    cv, status = cv_at(base, D)
    history[#history + 1] = {D = D, cv = cv or status}
    while not cv do           -- fell below the conducting range: back towards the fast side
      lo = D
      D = hi < math.huge and (lo + hi) / 2 or 1.5 * D
      cv, status = cv_at(base, D)
      history[#history + 1] = {D = D, cv = cv or status}
    end
  end
  error(("tune_cv.D: no D within %g%% of %.4f mm/ms in 20 steps at dx = %g mm"):format(100 * tol, target, o.dx), 2)
end

return M
