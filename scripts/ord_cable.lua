-- A paced O'Hara-Rudy cable for measuring what a storage or update scheme
-- would do before building it in a kernel (protocols/ord_half_gates.lua,
-- protocols/ord_multirate.lua): the scheme is a hook that alters the state
-- after every step, and the result is compared, cell by cell, with the same
-- cable without it.
--   local cable = require "ord_cable"
--   local c = cable.new{cells = 80, t = 450, cell = "endo", bcl = nil}
--   local ref = c:run()                     -- the maps: first, last, apd, count
--   local got = c:run(function(sim, k) ... end)
--   c:report(label, ref, got)
local M = {}
M.__index = M

-- opts: cells (80), t (ms, 450), cell ("endo"), bcl (ms; paced once if nil),
-- multirate (the simulation's, 1); dx 0.25 mm, dt 0.05 ms, D 0.2 mm^2/ms,
-- fp32, stimulus at the left end
function M.new(opts)
  local c = setmetatable({N = opts.cells or 80, T = opts.t or 450, cell = opts.cell or "endo", bcl = opts.bcl,
                          multirate = opts.multirate or 1, dx = 0.25, dt = 0.05}, M)
  c.model = cardiac.model("ohara_rudy", {cell = c.cell})
  return c
end

-- The cable's activation maps (threshold -40 mV, APD90) with hook(sim, k)
-- called after step k (1, 2, ...).
function M:run(hook)
  local sim = cardiac.simulation{mesh = cardiac.mesh{n = {self.N}, dx = self.dx}, model = self.model, dt = self.dt,
    D = 0.2, precision = "fp32", multirate = self.multirate, stimuli = {cardiac.stimulus{region = cardiac.slab{axis = "x", from = 0, to = 0.5},
      amplitude = 80, duration = 1, start = 1, period = self.bcl, count = self.bcl and math.ceil(self.T / self.bcl) or nil}}}
  local maps = sim:activation{threshold = -40}
  if hook then hook(sim, 0) end
  for k = 1, math.floor(self.T / self.dt + 0.5) do
    sim:step(1)
    if hook then hook(sim, k) end
  end
  local r = {first = maps:field("first"), last = maps:field("last"), apd = maps:field("apd"),
             count = maps:field("count")}
  sim:close()
  return r
end

-- A state's values along the cable (f, as sim:field gives them) set back.
function M:set(sim, name, f)
  local dx = self.dx
  sim:set(name, function(x) return f[math.floor(x / dx) + 1] end)
end

-- The line that names the cable, with what is compared.
function M:header(what)
  return ("ORd %s cable, %d x %.2f mm, D 0.2 mm^2/ms, dt %.2f ms, %g ms%s, fp32, %s"):format(self.cell, self.N,
    self.dx, self.dt, self.T, self.bcl and (", paced every %g ms"):format(self.bcl) or "", what)
end

-- The largest differences over the cable: the first activation, the latest
-- and its APD90; and the beats the middle cell took in each run.
function M:report(label, ref, got)
  local dT, dL, dA, both = 0, 0, 0, 0
  local function nan(x) return x ~= x end
  for i = 1, self.N do
    if not nan(got.first[i]) and not nan(ref.first[i]) then
      both = both + 1
      dT = math.max(dT, math.abs(got.first[i] - ref.first[i]))
    end
    if not nan(got.last[i]) and not nan(ref.last[i]) then dL = math.max(dL, math.abs(got.last[i] - ref.last[i])) end
    if not nan(got.apd[i]) and not nan(ref.apd[i]) then dA = math.max(dA, math.abs(got.apd[i] - ref.apd[i])) end
  end
  local mid = self.N // 2
  print(("%-28s %3d cells  max |dT| %8.4f ms  latest beat: max |dT| %8.4f ms, max |dAPD90| %8.4f ms; "
         .. "beats at cell %d: %d (%d without)"):format(label, both, dT, dL, dA, mid, got.count[mid], ref.count[mid]))
  return dT, dL, dA
end

return M
