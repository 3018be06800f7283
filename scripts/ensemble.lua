-- Ensembles (loaded with require "ensemble"): many small simulations stepped
-- as one. Members share a mesh (1D or 2D), a model, dt, the stencil and the
-- precision; each has its own D, model parameters, stimuli and initial state.
-- They are the layers of one simulation on mesh:stack(n), with no diffusion
-- between layers (core/engine/members.h), so they step together in the same
-- kernels and each member's result equals, bit for bit, the same simulation
-- run alone (tests/ensemble.lua). ens:member(k) is a member's view: the
-- methods of a simulation, in the member's own coordinates.
local E = {}

local Ensemble, Member, Maps, MemberMaps = {}, {}, {}, {}

local SHARED = {mesh = 1, model = 1, dt = 1, D = 1, stencil = 1, backend = 1, precision = 1, layout = 1, tsteps = 1,
                block = 1, decomp = 1, balance = 1, stimuli = 1, members = 1}
local OWN = {mesh = 1, model = 1, dt = 1, D = 1, stencil = 1, precision = 1, params = 1, stimuli = 1, init = 1}

local function fail(level, fmt, ...) error(("ensemble.new: " .. fmt):format(...), level + 2) end

local function model_name(m) return type(m) == "string" and m or m.name end

local function same_D(a, b)
  if type(a) ~= type(b) then return false end
  if type(a) == "number" then return a == b end
  if #a ~= #b then return false end
  for q = 1, #a do if a[q] ~= b[q] then return false end end
  return true
end

-- The parameters in which model object m differs from the shared model.
local function params_of(m, shared)
  if type(m) == "string" then return nil end
  local base = {}
  if type(shared) ~= "string" then
    for _, p in ipairs(shared:params()) do base[p.name] = p.value end
  else
    for _, p in ipairs(cardiac.model(shared):params()) do base[p.name] = p.value end
  end
  local diff, any = {}, false
  for _, p in ipairs(m:params()) do
    if base[p.name] ~= p.value then diff[p.name], any = p.value, true end
  end
  return any and diff or nil
end

--- ens = ensemble.new{mesh =, model =, members = n | {spec, ...}, dt =, D =, stencil =, backend =, precision =,
---                    layout =, tsteps =, block =, decomp =, balance =, stimuli =}
---   members: a count of identical members, or one table per member with its own D, params (name = value),
---   model (the same model with other parameters), stimuli (added to the shared ones), init = function(member)
---   (its initial state), and mesh, dt, stencil, precision, which must equal the ensemble's.
function E.new(o)
  if type(o) ~= "table" then fail(1, "expected a table of options, got %s", type(o)) end
  for k in pairs(o) do
    if not SHARED[k] then fail(1, "unknown option '%s'", tostring(k)) end
  end
  if o.mesh == nil then fail(1, "missing required option 'mesh'") end
  if o.model == nil then fail(1, "missing required option 'model'") end
  local mesh = o.mesh
  if mesh.dim == 3 then
    fail(1, "members are 1D or 2D meshes (a 3D mesh has no axis left to stack them along, and one already fills a "
         .. "GPU: run its variants one after another)")
  end
  local specs = {}
  if math.type(o.members) == "integer" then
    if o.members < 1 then fail(1, "'members' must be at least 1, got %d", o.members) end
    for k = 1, o.members do specs[k] = {} end
  elseif type(o.members) == "table" and #o.members > 0 then
    specs = o.members
  else
    fail(1, "'members' must be a count or a non-empty list of member tables, got %s", tostring(o.members))
  end
  local name = model_name(o.model)
  for k, s in ipairs(specs) do
    if type(s) ~= "table" then fail(1, "member %d must be a table, got %s", k, type(s)) end
    for key in pairs(s) do
      if not OWN[key] then fail(1, "member %d: unknown option '%s'", k, tostring(key)) end
    end
    if s.mesh ~= nil and not (s.mesh == mesh) then
      fail(1, "member %d's mesh (%s, %d tissue cells) differs from the ensemble's (%s, %d): members share one mesh",
           k, tostring(s.mesh), s.mesh.tissue, tostring(mesh), mesh.tissue)
    end
    if s.model ~= nil and model_name(s.model) ~= name then
      fail(1, "member %d's model '%s' differs from the ensemble's '%s': members share one model (their parameters "
           .. "may differ)", k, model_name(s.model), name)
    end
    for _, key in ipairs{"dt", "stencil", "precision"} do
      if s[key] ~= nil and s[key] ~= o[key] then
        fail(1, "member %d's %s (%s) differs from the ensemble's (%s): members share it", k, key, tostring(s[key]),
             tostring(o[key]))
      end
    end
  end
  local n = #specs
  local stack = mesh:stack(n)
  local made, sim = pcall(cardiac.simulation, {mesh = stack, model = o.model, dt = o.dt, D = o.D,
    stencil = o.stencil, backend = o.backend, precision = o.precision, layout = o.layout, tsteps = o.tsteps,
    block = o.block, decomp = o.decomp, balance = o.balance, members = n})
  if not made then fail(1, "%s", (tostring(sim):gsub("^[^:\n]+:%d+: ", ""))) end
  local ens = setmetatable({sim = sim, mesh = mesh, members = n, dim = mesh.dim, dz = stack.dx[mesh.dim + 1],
                            views = {}, maps = {}, sim_probes = {}}, Ensemble)
  -- the same order of stimuli on each member's cells as alone: the shared ones, then its own
  for _, st in ipairs(o.stimuli or {}) do
    for k = 1, n do sim:add_stimulus(st:layer(k)) end
  end
  for k, s in ipairs(specs) do
    local m = ens:member(k)
    local ok, msg = pcall(function()
      if s.D ~= nil and not same_D(s.D, o.D or 0.1) then m:set_D(s.D) end
      local p = s.model and params_of(s.model, o.model)
      if p then m:set_param(p) end
      if s.params then m:set_param(s.params) end
      for _, st in ipairs(s.stimuli or {}) do m:add_stimulus(st) end
      if s.init then s.init(m) end
    end)
    if not ok then
      sim:close()
      msg = tostring(msg):gsub("^[^:\n]+:%d+: ", "")
      if msg:find("distinct parameter sets") then
        msg = msg .. " (an ensemble's members hold at most 255 parameter sets: run the others in another ensemble)"
      end
      fail(1, "member %d: %s", k, msg)
    end
  end
  return ens
end

-- ---- the ensemble: the stacked simulation's methods, and members ----------

function Ensemble:member(k)
  if math.type(k) ~= "integer" or k < 1 or k > self.members then
    error(("ensemble:member: k must be 1 to %d, got %s"):format(self.members, tostring(k)), 2)
  end
  local v = self.views[k]
  if not v then
    v = setmetatable({ens = self, sim = self.sim, k = k, rest = 0}, Member)
    self.views[k] = v
  end
  return v
end

--- ens:activation{...} -> maps of every member; maps:member(k) is one member's
function Ensemble:activation(o)
  return setmetatable({ens = self, tr = self.sim:activation(o)}, Maps)
end

--- ens:tips{vars =, centre =} -> one list of tips per member
function Ensemble:tips(o)
  o = o or {}
  local out = {}
  for k = 1, self.members do out[k] = {} end
  if self.dim == 1 then return out end   -- cables have no tips
  if o.centre then
    for _, t in ipairs(self.sim:tips{vars = o.vars, centre = o.centre, layers = true}) do
      local list = out[t.layer]
      t.layer = nil
      list[#list + 1] = t
    end
  else
    for k = 1, self.members do out[k] = self:member(k):tips{vars = o.vars} end
  end
  return out
end

Ensemble.__index = function(self, key)
  local m = Ensemble[key]
  if m then return m end
  local v = rawget(self, "sim")[key]
  if type(v) == "function" then
    return function(me, ...) return v(me == self and me.sim or me, ...) end
  end
  return v
end
Ensemble.__len = function(self) return self.members end
Ensemble.__tostring = function(self)
  return ("ensemble of %d members (%s)"):format(self.members, tostring(self.sim))
end

-- ---- a member: a simulation's methods on its layer ------------------------

local function layer(self, region) return cardiac.layer(self.k, region or cardiac.everywhere()) end

local function stacked_cell(self, i, j)
  if type(i) == "table" then i, j = i[1], i[2] end
  if self.ens.dim == 1 then return i, self.k end
  return i, j, self.k
end

local function stacked_point(self, x, y)
  if type(x) == "table" then x, y = x[1], x[2] end
  local z = (self.k - 0.5) * self.ens.dz
  if self.ens.dim == 1 then return x, z end
  return x, y, z
end

function Member:set(var, value, region)
  if type(value) == "function" then
    local f, one = value, self.ens.dim == 1
    value = function(x, y) return f(x, one and 0 or y, 0) end
  end
  return self.sim:set(var, value, layer(self, region))
end
function Member:get(var, i, j) return self.sim:get(var, stacked_cell(self, i, j)) end
function Member:at(var, x, y) return self.sim:at(var, stacked_point(self, x, y)) end
function Member:cell(i, j) return self.sim:cell(stacked_cell(self, i, j)) end
function Member:field(var) return self.sim:field(var, layer(self)) end
function Member:stats(var, region) return self.sim:stats(var, layer(self, region)) end
function Member:set_D(D) return self.sim:set_D(D, self.k) end
function Member:set_param(p, value, region)
  if type(p) == "table" then return self.sim:set_param(p, layer(self, value)) end
  return self.sim:set_param(p, value, layer(self, region))
end
function Member:param(name, x, y)
  if x == nil then x, y = self.ens.mesh.dx[1] / 2, (self.ens.mesh.dx[2] or 0) / 2 end
  return self.sim:param(name, stacked_point(self, x, y))
end
function Member:add_stimulus(st) return self.sim:add_stimulus(st:layer(self.k)) end
function Member:clamp(o)
  local c = {}
  for key, v in pairs(o) do c[key] = v end
  c.region = layer(self, o.region)
  return self.sim:clamp(c)
end
function Member:probe(o)
  local c = {}
  for key, v in pairs(o) do c[key] = v end
  c.name = ("m%d_%s"):format(self.k, o.name or ("probe%d"):format(#self.ens.sim_probes + 1))
  if o.cells then
    c.cells = {}
    for q, e in ipairs(o.cells) do c.cells[q] = {stacked_cell(self, e[1], e[2])} end
  end
  if o.points then
    c.points = {}
    for q, e in ipairs(o.points) do c.points[q] = {stacked_point(self, e[1], e[2])} end
  end
  if o.region then c.region = layer(self, o.region) end
  local p = self.sim:probe(c)
  self.ens.sim_probes[#self.ens.sim_probes + 1] = p
  return p
end
function Member:png(path, o)
  if self.ens.dim == 1 then error("member:png: a 1D member has no picture of its own; ens:png shows every member", 2) end
  local c = {}
  for key, v in pairs(o or {}) do c[key] = v end
  c.z = self.k
  return self.sim:png(path, c)
end
function Member:tips(o)
  o = o or {}
  if self.ens.dim == 1 then return {} end   -- a cable has no tips
  local centre = o.centre
  local vars = o.vars
  if not vars then   -- sim:tips's: V and the first other state
    local model = cardiac.model(self.sim.model)
    local V, other = model.potential, nil
    for _, s in ipairs(model:states()) do
      if s.name ~= V then other = s.name break end
    end
    vars = {V, other}
  end
  if not centre then   -- about the member's own means, as alone
    local _, _, a = self:stats(vars[1])
    local _, _, b = self:stats(vars[2])
    centre = {a, b}
  end
  local out = {}
  for _, t in ipairs(self.sim:tips{vars = vars, centre = centre, layers = true}) do
    if t.layer == self.k then
      t.layer = nil
      out[#out + 1] = t
    end
  end
  return out
end

--- member:activation{...}: the ensemble's maps with these options, made once
--- for the members that ask at one step boundary, seen from this member. A
--- member that asks after another restarts its own layer of them, so that
--- they start from its state as the member's own would.
function Member:activation(o)
  local key = {}
  for k2, v in pairs(o or {}) do key[#key + 1] = tostring(k2) .. "=" .. tostring(v) end
  table.sort(key)
  key = table.concat(key, ",") .. "@" .. self.sim.steps
  local maps = self.ens.maps[key]
  if not maps then
    maps = self.ens:activation(o)
    self.ens.maps[key] = maps
  else
    maps.tr:restart(self.k)
  end
  return maps:member(self.k)
end

-- A member steps with its ensemble: inside sweep's experiments (a coroutine
-- each) run and step wait for the others; elsewhere ens:run runs them all.
function Member:run(ms)
  if not self.scheduled then
    error("member:run: members step together; run the ensemble (ens:run(ms))", 2)
  end
  local want = ms + self.rest   -- as the core rounds a run to steps (sim_steps_for)
  local n = math.floor(want / self.sim.dt + 0.5)
  self.rest = want - n * self.sim.dt
  if n > 0 then coroutine.yield(n) end
end
function Member:step(n)
  if not self.scheduled then error("member:step: members step together; step the ensemble (ens:step(n))", 2) end
  if n > 0 then coroutine.yield(n) end
end

Member.__index = function(self, key)
  local m = Member[key]
  if m then return m end
  if key == "D" then return self.sim:member_D(self.k) end
  if key == "members" then return nil end
  local v = self.sim[key]
  if type(v) == "function" then
    return function() error(("member:%s: not available on an ensemble's member; use ens.sim:%s for every member")
                              :format(key, key), 2) end
  end
  return v
end
Member.__tostring = function(self) return ("member %d of an %s"):format(self.k, tostring(self.ens)) end

-- ---- activation maps ------------------------------------------------------

function Maps:member(k)
  return setmetatable({maps = self, tr = self.tr, k = k, ens = self.ens}, MemberMaps)
end
Maps.__index = function(self, key)
  local m = Maps[key]
  if m then return m end
  local v = self.tr[key]
  if type(v) == "function" then return function(me, ...) return v(me == self and self.tr or me, ...) end end
  return v
end

function MemberMaps:get(name, i, j) return self.tr:get(name, stacked_cell(self, i, j)) end
function MemberMaps:stats(name) return self.tr:stats(name or "first", self.k) end
function MemberMaps:field(name) return self.tr:field(name or "first", self.k) end
function MemberMaps:cv(o)
  local c = {}
  for key, v in pairs(o or {}) do c[key] = v end
  c.layer = self.k
  return self.tr:cv(c)
end
function MemberMaps:png(path, o)
  local c = {}
  for key, v in pairs(o or {}) do c[key] = v end
  c.z = self.k
  return self.tr:png(path, c)
end
MemberMaps.__index = function(self, key)
  local m = MemberMaps[key]
  if m then return m end
  if key == "write" or key == "restart" then
    return function() error(("activation:%s: the maps are the ensemble's; call it on ens:activation's maps")
                              :format(key), 2) end
  end
  return self.tr[key]
end

-- ---- running experiments on members (sweep) --------------------------------

--- rows = ensemble.experiments(ens, values, experiment): experiment(member, value) for every member at once,
--- each a coroutine whose member:run and member:step wait until the ensemble has stepped that far.
function E.experiments(ens, values, experiment)
  local co, target, rows, alive = {}, {}, {}, 0
  local function resume(q, ...)
    local ok, n = coroutine.resume(co[q], ...)
    if not ok then error(("member %d (value %s): %s"):format(q, tostring(values[q]), tostring(n)), 0) end
    if coroutine.status(co[q]) == "dead" then
      rows[q] = n or {}
      target[q] = nil
      alive = alive - 1
    else
      target[q] = ens.sim.steps + n
    end
  end
  for q = 1, #values do
    local m = ens:member(q)
    m.scheduled = true
    co[q] = coroutine.create(function(mm, v) return experiment(mm, v) end)
    alive = alive + 1
  end
  for q = 1, #values do resume(q, ens:member(q), values[q]) end
  while alive > 0 do
    local t
    for q = 1, #values do if target[q] and (not t or target[q] < t) then t = target[q] end end
    ens.sim:step(t - ens.sim.steps)
    for q = 1, #values do
      if target[q] == t then resume(q) end
    end
  end
  for q = 1, #values do ens:member(q).scheduled = nil end
  return rows
end

return E
