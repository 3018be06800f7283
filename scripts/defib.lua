-- Defibrillation studies (loaded with require "defib"): a re-entry saved once
-- in memory, interventions applied to it (shocks, anti-tachycardia pacing,
-- RyR opening), and trials whose outcome is decided while they run, from the
-- phase singularities (sim:tips) and the activation maps (sim:activation),
-- both computed where the state lives. docs/defibrillation.md says what a
-- monodomain study of this kind can and cannot answer.
--
--   local defib = require "defib"
--   local re = defib.spiral{L = 72, dx = 0.6}                -- Karma S1-S2 spiral, saved in memory
--   local r = defib.trial(re, defib.shock{strength = 1, duration = 5, at = 10})
--   print(r.outcome, r.decided)                               -- "terminated", ms after the restore
--
-- Every argument is checked, and refused with an error naming it, before any
-- trial runs. Trials are deterministic: the same re-entry, intervention and
-- seed give the same outcome and state bit for bit.
local tables = require "tables"
local D = {}

---------------------------------------------------------------------------
-- argument checking: errors name the function and the option

local function fail(fn, fmt, ...) error(("defib.%s: " .. fmt):format(fn, ...), 0) end

local function check_keys(o, fn, keys)
  if type(o) ~= "table" then fail(fn, "give an options table") end
  local known = {}
  for _, k in ipairs(keys) do known[k] = true end
  for k in pairs(o) do
    if not known[k] then
      table.sort(keys)
      fail(fn, "unknown option '%s' (options: %s)", tostring(k), table.concat(keys, ", "))
    end
  end
end

-- a number in [lo, hi] (either bound may be nil); `open` makes lo exclusive
local function number(o, fn, key, default, lo, hi, open)
  local v = o[key]
  if v == nil then
    if default == nil then fail(fn, "missing '%s'", key) end
    return default
  end
  if type(v) ~= "number" or v ~= v then fail(fn, "'%s' must be a number, not %s", key, tostring(v)) end
  if lo and (v < lo or (open and v == lo)) then
    fail(fn, "'%s' = %s must be %s %s", key, tostring(v), open and ">" or ">=", tostring(lo))
  end
  if hi and v > hi then fail(fn, "'%s' = %s must be <= %s", key, tostring(v), tostring(hi)) end
  return v
end

local function integer(o, fn, key, default, lo)
  local v = number(o, fn, key, default, lo)
  if math.type(v) ~= "integer" and v ~= math.floor(v) then fail(fn, "'%s' = %s must be a whole number", key, v) end
  return math.tointeger(v)
end

-- a list of regions from o.region (one) or o.regions (a list); default everywhere
local function regions_of(o, fn)
  if o.region ~= nil and o.regions ~= nil then fail(fn, "give 'region' or 'regions', not both") end
  local list = o.regions or {o.region or cardiac.everywhere()}
  if type(list) ~= "table" or #list == 0 then fail(fn, "'regions' must be a non-empty list of regions") end
  return list
end

-- every region must hold tissue of the mesh: a region outside it would make a
-- trial that tests nothing
local function check_regions(list, mesh, fn)
  for q, r in ipairs(list) do
    local ok, n = pcall(mesh.count, mesh, r)
    if not ok then fail(fn, "region %d: %s", q, tostring(n)) end
    if n == 0 then fail(fn, "region %d (%s) holds no tissue cell of the %s mm mesh", q, tostring(r),
                        table.concat(mesh.size, " x ")) end
  end
end

local function say(fmt, ...)
  if cardiac.rank == 0 and not cardiac.quiet then io.stderr:write(("[defib] " .. fmt .. "\n"):format(...)) end
end

---------------------------------------------------------------------------
-- re-entry: a state with rotors, saved once in memory (and optionally in a
-- checkpoint file, which a later run restores instead of recomputing)

-- the phase variables of each model's tips (sim:tips): a pair of state
-- variables and the centre of their phase plane, inside the action
-- potential's loop
local PHASE = {
  karma = {vars = {"U", "v"}, centre = {1, 0.5}},
  fenton_karma = {vars = {"u", "v"}, centre = {0.5, 0.5}},
  aliev_panfilov = {vars = {"V", "w"}, centre = {-40, 0.5}},
}

local REENTRY_KEYS = {"model", "params", "L", "depth", "dx", "dt", "D", "backend", "precision", "layout", "settle",
                      "s2", "amplitude", "file", "overwrite", "window"}

-- the pieces every kind of re-entry shares: the fresh-simulation factory and
-- the phase variables
local function base(o, fn, dims)
  local model = o.model or "karma"
  local ok, m = pcall(cardiac.model, model, o.params)
  if not ok then fail(fn, "'model': %s", tostring(m)) end
  local name = m.name or model
  local phase = PHASE[name]
  if not phase then
    local known = {}
    for k in pairs(PHASE) do known[#known + 1] = k end
    table.sort(known)
    fail(fn, "'model' = '%s' has no phase variables for its tips here (models: %s)", name, table.concat(known, ", "))
  end
  local L = number(o, fn, "L", 72, 0, nil, true)
  local dx = number(o, fn, "dx", 0.6, 0, nil, true)
  local depth = dims == 3 and number(o, fn, "depth", L / 4, 0, nil, true) or nil
  local n = {math.floor(L / dx + 0.5), math.floor(L / dx + 0.5), depth and math.max(2, math.floor(depth / dx + 0.5))}
  local mesh = cardiac.mesh{n = n, dx = dx}
  local cfg = {mesh = mesh, model = m, dt = number(o, fn, "dt", 0.1, 0, nil, true),
               D = number(o, fn, "D", 0.1, 0, nil, true), backend = o.backend or "auto", precision = o.precision,
               layout = o.layout}
  local function make() return cardiac.simulation(cfg) end
  -- the reference site of the coupling intervals (a sensing electrode)
  local ref = {mesh:locate(L / 4, 3 * L / 4, dims == 3 and depth / 2 or nil)}
  return {mesh = mesh, model = name, model_obj = m, make = make, tips = phase, L = L, dx = dx, dim = dims,
          config = cfg, ref = ref}
end

-- the median over the tissue of (last - first) / (count - 1): the cycle length
-- of the activity that the tracker saw
local function cycle_length(lat)
  local first, last, count = lat:field("first"), lat:field("last"), lat:field("count")
  local cl = {}
  for c = 1, #count do
    local k = count[c]
    if k == k and k >= 2 then cl[#cl + 1] = (last[c] - first[c]) / (k - 1) end
  end
  if #cl == 0 then return nil end
  table.sort(cl)
  return cl[(#cl + 1) // 2]
end

-- S1 from the x = 0 edge; S2 over the quadrant x < L/2, y < L/2 (all z in 3D)
-- once the S1's wave back has passed x = site L (the cell at (site L, site L)
-- repolarised; site = 1/2 for a spiral): the S2 wave meets refractory tissue
-- beyond it and curls about the quadrant's corner into a spiral (a scroll
-- wave with a straight filament in 3D).
local function s1s2(re, sim, o, fn, site, amp_default)
  local amp = number(o, fn, "amplitude", amp_default or 5, 0, nil, true)
  local L = re.L
  sim:add_stimulus(cardiac.stimulus{region = cardiac.slab{axis = "x", from = 0, to = math.max(1.5, 2 * re.dx)},
                                    amplitude = amp, duration = 2, start = 0})
  local lat = sim:activation{interval = 0.5}
  site = site or 0.5
  local mid = {re.mesh:locate(site * L, site * L, re.dim == 3 and 0 or nil)}
  local s2 = o.s2
  if s2 == nil then
    while sim.t < 5000 do
      sim:run(5)
      if lat:get("repol", table.unpack(mid)) == lat:get("repol", table.unpack(mid)) then break end
    end
    s2 = sim.t
  else
    s2 = number(o, fn, "s2", nil, 0, nil, true)
    sim:run(s2 - sim.t)
  end
  sim:add_stimulus(cardiac.stimulus{region = cardiac.box{min = {0, 0, -1e9}, max = {L / 2, L / 2, 1e9}}, amplitude = amp,
                                    duration = 2, start = sim.t})
  return s2
end

-- rotors of a breakup, counted every `every` ms while the simulation runs
-- `span` ms (the activation maps attached to it keep recording)
local function watch(re, sim, span)
  local counts, stop = {}, sim.t + span
  while sim.t < stop - 1e-9 do
    sim:run(math.min(re.every, stop - sim.t))
    counts[#counts + 1] = D.rotors(sim:tips(re.tips), re.radius)
  end
  return counts
end

-- a breakup holds several rotors: the median of the counts at least
-- min_rotors, and at least one rotor at the last count (the saved state)
local function check_breakup(re, fn, counts, where)
  local sorted = {}
  for q, c in ipairs(counts) do sorted[q] = c end
  table.sort(sorted)
  re.rotor_counts = counts
  re.rotors = counts[#counts]
  re.rotors_median = sorted[(#sorted + 1) // 2]
  re.rotors_min, re.rotors_max = sorted[1], sorted[#sorted]
  if re.rotors_median < re.min_rotors or re.rotors == 0 then
    fail(fn, "no breakup %s: rotors counted every %g ms: %s (median %d, 'min_rotors' = %d; the last must be > 0)", where,
         re.every, table.concat(counts, " "), re.rotors_median, re.min_rotors)
  end
end

-- runs to `settle` ms, measures the cycle over the last `window` ms, checks
-- that rotors are there (several, for a breakup) and keeps the state
local function finish(re, sim, o, fn, what)
  -- settle counts from the S2: the S1's travel, and so the S2's time, grows with the sheet
  local settle = number(o, fn, "settle", re.kind == "breakup" and 1500 or 700, 0, nil, true)
  local window = number(o, fn, "window", math.min(300, settle / 2), 0, nil, true)
  local stop = re.s2 + settle
  if sim.t < stop - window then sim:run(stop - window - sim.t) end
  local lat = sim:activation{interval = 0.5}
  local counts = re.kind == "breakup" and watch(re, sim, stop - sim.t)
  if not counts then sim:run(stop - sim.t) end
  re.cycle = cycle_length(lat)
  re.ref_time = lat:get("last", table.unpack(re.ref))
  re.ntips = #sim:tips(re.tips)
  if re.ntips == 0 then
    fail(fn, "no %s at t = %g ms: no phase singularity in the tissue (a larger L, another s2 or settle)", what, sim.t)
  end
  if not re.cycle or re.ref_time ~= re.ref_time then fail(fn, "no %s at t = %g ms: no cell activated twice in the last %g ms", what, sim.t, window) end
  if counts then check_breakup(re, fn, counts, ("in the last %g ms before t = %g ms"):format(window, sim.t)) end
  re.snapshot = sim:save()
  re.t, re.backend = sim.t, sim.backend
  if o.file then sim:checkpoint(o.file, {overwrite = o.overwrite}) end
  sim:close()
  say("%s at t = %g ms: %d phase singularit%s%s, cycle %.1f ms%s", what, re.t, re.ntips, re.ntips == 1 and "y" or "ies",
      counts and (", rotors " .. table.concat(counts, " ")) or "", re.cycle, o.file and (", saved in " .. o.file) or "")
  return re
end

-- o.file names a checkpoint: restored when it exists (after the usual checks:
-- a checkpoint of another mesh, model or dt is refused naming the difference),
-- written otherwise
local function from_file(re, o, fn, what)
  local f = o.file and io.open(o.file, "r")
  if not f then return nil end
  f:close()
  local sim = re.make()
  local ok, e = pcall(sim.restore, sim, o.file)
  if not ok then sim:close(); fail(fn, "'file' %s", tostring(e)) end
  local window = number(o, fn, "window", 300, 0, nil, true)
  local lat = sim:activation{interval = 0.5}
  local rotors = re.kind == "breakup" and D.rotors(sim:tips(re.tips), re.radius)
  -- measures the cycle (and a breakup's rotors), then restarts from the file's state
  local counts = re.kind == "breakup" and watch(re, sim, window)
  if not counts then sim:run(window) end
  re.cycle = cycle_length(lat)
  re.ref_time = lat:get("first", table.unpack(re.ref))
  sim:restore(o.file)
  re.ntips = #sim:tips(re.tips)
  if re.ntips == 0 or not re.cycle or re.ref_time ~= re.ref_time then
    fail(fn, "'file' %s holds no %s (no phase singularity, or no cell activated twice in %g ms)", o.file, what, window)
  end
  if counts then
    counts[#counts + 1] = rotors   -- the last count is the file's state
    check_breakup(re, fn, counts, ("in 'file' %s and the %g ms after it"):format(o.file, window))
  end
  re.snapshot = sim:save()
  re.t, re.backend = sim.t, sim.backend
  sim:close()
  say("%s restored from %s at t = %g ms: %d phase singularities, cycle %.1f ms", what, o.file, re.t, re.ntips, re.cycle)
  return re
end

-- defib.spiral and defib.scroll: the S1-S2 re-entry of kind in dim dimensions
-- (what: its name in messages), or the one o.file holds.
local function s1s2_reentry(o, kind, dim, what)
  o = o or {}
  check_keys(o, kind, REENTRY_KEYS)
  local re = base(o, kind, dim)
  re.kind = kind
  if from_file(re, o, kind, what) then return re end
  local sim = re.make()
  re.s2 = s1s2(re, sim, o, kind)
  return finish(re, sim, o, kind, what)
end

--- defib.spiral{model = "karma", L = 72, dx = 0.6, dt = 0.1, D = 0.1, settle = 700, s2 =, amplitude = 5,
---   backend = "auto", precision, layout, file, overwrite, window}: a spiral wave in a 2D sheet L mm wide
---   made by an S1-S2 cross-field protocol, run `settle` ms past the S2 and kept in memory. Returns the re-entry:
---   re.snapshot (sim:save), re.t, re.cycle (ms, the median activation cycle over the last `window` ms),
---   re.ntips, re.mesh, re.make() (a fresh simulation of the same problem, without stimuli), re.tips
---   (sim:tips options).
function D.spiral(o) return s1s2_reentry(o, "spiral", 2, "spiral") end

--- defib.scroll{..., depth = L/4}: the same S1-S2 in a 3D block L x L x depth mm: a scroll wave whose
---   filament runs through the depth.
function D.scroll(o) return s1s2_reentry(o, "scroll", 3, "scroll wave") end

--- n = defib.rotors(tips, radius = 2): the rotors among sim:tips' phase singularities. Tips closer than
---   `radius` mm (chained) form one group, which counts as many rotors as its charges sum to in absolute
---   value: a pair of opposite charges in one spot (the detector finds such pairs along a steep wave back
---   and at a wave break being born) counts none, a lone tip one.
function D.rotors(tips, radius)
  radius = radius or 2
  if type(tips) ~= "table" then error("defib.rotors: give the list of sim:tips", 0) end
  if type(radius) ~= "number" or not (radius >= 0) then
    error(("defib.rotors: 'radius' = %s must be a number >= 0"):format(tostring(radius)), 0)
  end
  local group, n = {}, #tips
  local function root(q) while group[q] ~= q do q = group[q] end return q end
  for q = 1, n do group[q] = q end
  for a = 1, n do
    for b = a + 1, n do
      local p, r = tips[a], tips[b]
      local d2 = (p.x - r.x) ^ 2 + (p.y - r.y) ^ 2 + ((p.z or 0) - (r.z or 0)) ^ 2
      if d2 <= radius * radius then group[root(a)] = root(b) end
    end
  end
  local charge = {}
  for q = 1, n do local g = root(q) charge[g] = (charge[g] or 0) + (tips[q].charge or 1) end
  local count = 0
  for _, c in pairs(charge) do count = count + math.abs(c) end
  return count
end

--- defib.breakup{model = "fenton_karma", params = {cell = "BR"}, L = 125, dx = 0.5, dt = 0.1, D = 0.1,
---   amplitude = 1, settle = 1500, window = 300, every = 20, radius = 2, min_rotors = 2, s2, backend,
---   precision, layout, file, overwrite}: multiple-wavelet re-entry (spiral breakup). The Fenton-Karma
---   BR set (Fenton & Karma 1998, table 1, their fit to the Beeler-Reuter model; parameter set 3 of
---   Fenton, Cherry, Hastings & Evans 2002, a breakup set; docs/defibrillation.md says what was checked)
---   in a 2D sheet: the S1 from the edge x = 0,
---   the S2 over the quadrant x, y < L/2 once the S1's back has passed x = L/4 (the cell at (L/4, L/4)
---   repolarised). It runs `settle` ms past the S2, counting rotors (defib.rotors) every `every` ms over
---   the last `window` ms, and is refused unless their median is at least `min_rotors` and the last count
---   (the saved state) is not zero. re.rotor_counts, re.rotors (the last count), re.rotors_median,
---   re.rotors_min, re.rotors_max besides what defib.spiral returns. docs/defibrillation.md gives what
---   this machine measured and the sizes.
local BREAKUP_KEYS = {"every", "radius", "min_rotors"}
function D.breakup(o)
  o = o or {}
  local keys = {}
  for _, k in ipairs(REENTRY_KEYS) do if k ~= "depth" then keys[#keys + 1] = k end end
  for _, k in ipairs(BREAKUP_KEYS) do keys[#keys + 1] = k end
  check_keys(o, "breakup", keys)
  local fn = "breakup"
  local c = {}
  for k, v in pairs(o) do c[k] = v end
  if c.model == nil then
    c.model = "fenton_karma"
    if c.params == nil then c.params = {cell = "BR"} end
  end
  c.L, c.dx = c.L or 125, c.dx or 0.5
  local re = base(c, fn, 2)
  re.kind = "breakup"
  re.every = number(o, fn, "every", 20, 0, nil, true)
  re.radius = number(o, fn, "radius", 2, 0)
  re.min_rotors = integer(o, fn, "min_rotors", 2, 1)
  number(o, fn, "settle", 1500, 0, nil, true)
  if from_file(re, c, fn, "breakup") then return re end
  local sim = re.make()
  re.s2 = s1s2(re, sim, c, fn, 0.25, 1)
  return finish(re, sim, c, fn, "breakup")
end

---------------------------------------------------------------------------
-- interventions: each has kind, at (ms after the restored time), ends (ms
-- after it: when the outcome starts to be judged), check(re) and apply(sim, t0)

--- defib.shock{strength, duration = 5, shape = "monophasic" | "biphasic", ratio = 1, split = 0.5,
---   region | regions, at = 0}: a stimulus current of `strength` (the model's V units per ms, as
---   cardiac.stimulus' amplitude) for `duration` ms over the regions (default: the whole tissue), `at` ms
---   after the restored state. Biphasic: +strength for split x duration, then -ratio x strength for the rest.
function D.shock(o)
  check_keys(o, "shock", {"strength", "duration", "shape", "ratio", "split", "region", "regions", "at"})
  local fn = "shock"
  local sh = {kind = "shock", strength = number(o, fn, "strength", nil, 0), duration = number(o, fn, "duration", 5, 0,
              nil, true), at = number(o, fn, "at", 0, 0), shape = o.shape or "monophasic",
              ratio = number(o, fn, "ratio", 1, 0), split = number(o, fn, "split", 0.5, 0, 1, true),
              regions = regions_of(o, fn)}
  if sh.shape ~= "monophasic" and sh.shape ~= "biphasic" then
    fail(fn, "'shape' = %s must be 'monophasic' or 'biphasic'", tostring(o.shape))
  end
  if sh.shape == "biphasic" and sh.split == 1 then fail(fn, "'split' = 1 leaves no second phase") end
  sh.ends = sh.at + sh.duration
  function sh.check(re) check_regions(sh.regions, re.mesh, fn) end
  function sh.apply(sim, t0)
    local d1 = sh.shape == "biphasic" and sh.split * sh.duration or sh.duration
    for _, r in ipairs(sh.regions) do
      sim:add_stimulus(cardiac.stimulus{region = r, amplitude = sh.strength, duration = d1, start = t0 + sh.at})
      if sh.shape == "biphasic" then
        sim:add_stimulus(cardiac.stimulus{region = r, amplitude = -sh.ratio * sh.strength,
                                          duration = sh.duration - d1, start = t0 + sh.at + d1})
      end
    end
  end
  return sh
end

--- defib.atp{site, cycle, pulses = 8, strength = 5, width = 2, at = 0}: anti-tachycardia pacing: `pulses`
---   stimuli of `strength` for `width` ms every `cycle` ms at the site (a region), from `at` ms on.
function D.atp(o)
  check_keys(o, "atp", {"site", "cycle", "pulses", "strength", "width", "at"})
  local fn = "atp"
  if o.site == nil then fail(fn, "missing 'site' (a region)") end
  local p = {kind = "atp", site = o.site, cycle = number(o, fn, "cycle", nil, 0, nil, true),
             pulses = integer(o, fn, "pulses", 8, 1), strength = number(o, fn, "strength", 5, 0, nil, true),
             width = number(o, fn, "width", 2, 0, nil, true), at = number(o, fn, "at", 0, 0)}
  if p.width > p.cycle then fail(fn, "'width' = %g ms is longer than 'cycle' = %g ms", p.width, p.cycle) end
  p.ends = p.at + (p.pulses - 1) * p.cycle + p.width
  function p.check(re) check_regions({p.site}, re.mesh, fn) end
  function p.apply(sim, t0)
    sim:add_stimulus(cardiac.stimulus{region = p.site, amplitude = p.strength, duration = p.width, start = t0 + p.at,
                                      period = p.cycle, count = p.pulses})
  end
  return p
end

--- defib.ryr{fraction = 1, duration = 100, at = 0, seed = 1, patch = 1}: RyR opening (Altanaite 2017,
---   section 7.2: every RyR of the tissue opened for 100 ms excites it at once, as a shock would): every
---   RyR of the chosen cells of a gaur_rudy tissue held open for `duration` ms from `at`. The cells:
---   square patches of `patch` x `patch` mm (cubes in 3D), each opened with probability `fraction`,
---   drawn with Lua's generator seeded with `seed` (the same seed, the same cells).
function D.ryr(o)
  check_keys(o, "ryr", {"fraction", "duration", "at", "seed", "patch"})
  local fn = "ryr"
  local r = {kind = "ryr", fraction = number(o, fn, "fraction", 1, 0, 1, true),
             duration = number(o, fn, "duration", 100, 0, nil, true), at = number(o, fn, "at", 0, 0),
             seed = integer(o, fn, "seed", 1, 0), patch = number(o, fn, "patch", 1, 0, nil, true)}
  r.ends = r.at + r.duration
  function r.check(re)
    if re.model ~= "gaur_rudy" then fail(fn, "RyR opening needs gaur_rudy tissue; the re-entry runs '%s'", tostring(re.model)) end
  end
  -- the opened tissue cells, {i, j[, k]} each
  function r.cells(mesh)
    local n, h, dim = mesh.n, mesh.dx, mesh.dim
    local per, np = {}, {}
    for a = 1, 3 do
      per[a] = a <= dim and math.max(1, math.floor(r.patch / h[a] + 0.5)) or 1
      np[a] = a <= dim and (n[a] + per[a] - 1) // per[a] or 1
    end
    math.randomseed(r.seed)
    local cells = {}
    for pk = 1, np[3] do for pj = 1, np[2] do for pi = 1, np[1] do
      if math.random() < r.fraction then
        for k = (pk - 1) * per[3] + 1, math.min(n[3] or 1, pk * per[3]) do
          for j = (pj - 1) * per[2] + 1, math.min(n[2] or 1, pj * per[2]) do
            for i = (pi - 1) * per[1] + 1, math.min(n[1], pi * per[1]) do
              local c = dim == 3 and {i, j, k} or dim == 2 and {i, j} or {i}
              if mesh:is_tissue(table.unpack(c)) then cells[#cells + 1] = c end
            end
          end
        end
      end
    end end end
    return cells
  end
  function r.apply(sim, t0, re)
    local cells = r.cells(re.mesh)
    if #cells > 0 then
      sim:clamp_ryr{region = cardiac.cells(cells), state = "open", start = t0 + r.at, duration = r.duration}
    end
  end
  return r
end

--- at = defib.at_coupling(re, c): the time after the re-entry's snapshot (ms) at which the reference
---   site (re.ref, the cell at (L/4, 3L/4)) was last activated c ms earlier, c in [0, re.cycle): the
---   coupling interval of an intervention timed from a sensed activation.
function D.at_coupling(re, c)
  local at = re.ref_time + c - re.t
  at = at - math.floor(at / re.cycle) * re.cycle     -- the first such time at or after the snapshot
  return at
end

---------------------------------------------------------------------------
-- trials

local TRIAL_KEYS = {"quiet", "sustain", "gap", "max", "every"}

local function trial_options(o, re, fn)
  o = o or {}
  check_keys(o, fn, TRIAL_KEYS)
  local cyc = re.cycle or 200
  local t = {quiet = number(o, fn, "quiet", math.ceil(cyc), 0, nil, true),
             sustain = number(o, fn, "sustain", math.ceil(2 * cyc), 0, nil, true),
             every = number(o, fn, "every", 5, 0, nil, true)}
  t.gap = number(o, fn, "gap", 2 * t.every, 0)
  t.max = number(o, fn, "max", 4 * t.sustain, 0, nil, true)
  return t
end

local function check_reentry(re, fn)
  if type(re) ~= "table" or not re.snapshot or not re.make then
    fail(fn, "the first argument must be a re-entry (defib.spiral or defib.scroll)")
  end
end

local function check_intervention(iv, re, fn)
  if type(iv) ~= "table" or type(iv.apply) ~= "function" then
    fail(fn, "give an intervention (defib.shock, defib.atp or defib.ryr)")
  end
  iv.check(re)
end

-- one trial, arguments checked: restores the re-entry into a fresh
-- simulation (the interventions of earlier trials are not in it), applies the
-- intervention and watches. From the intervention's end on, every `every` ms:
-- the phase singularities; while there are none, the latest activation over
-- the tissue (activation map "last"). Outcome:
--   terminated      no phase singularity and no activation for `quiet` ms;
--   not_terminated  phase singularities at every check for `sustain` ms
--                   (or still activity at `max` ms);
--   reinduced       as not_terminated, but after an interval of at least
--                   `gap` ms without phase singularity: the re-entry died and
--                   a new one formed.
local function run_trial(re, iv, t)
  local sim = re.make()
  sim:restore(re.snapshot)
  local t0 = sim.t
  iv.apply(sim, t0, re)
  local lat = sim:activation{interval = 0.5}
  local judge_from = t0 + iv.ends
  local run_since, gap_since, had_gap, outcome, ntips = nil, nil, false, nil, 0
  local checks = 0
  while true do
    local next_t = math.max(judge_from, sim.t + t.every)
    sim:run(next_t - sim.t)
    checks = checks + 1
    ntips = #sim:tips(re.tips)
    if ntips > 0 then
      run_since = run_since or sim.t
      if gap_since and sim.t - gap_since >= t.gap then had_gap = true end
      gap_since = nil
      if sim.t - run_since >= t.sustain then outcome = had_gap and "reinduced" or "not_terminated" break end
    else
      run_since = nil
      gap_since = gap_since or sim.t
      local _, last = lat:stats("last")
      if not last or last ~= last or last == -math.huge then last = t0 end
      if sim.t - math.max(last, judge_from) >= t.quiet then outcome = "terminated" break end
    end
    if sim.t - t0 >= t.max then
      outcome = (ntips > 0 and had_gap) and "reinduced" or "not_terminated"
      break
    end
  end
  local _, _, _, vsum = sim:stats()
  local r = {outcome = outcome, decided = sim.t - t0, tips = ntips, checks = checks, vsum = vsum,
             steps = sim.steps}
  sim:close()
  return r
end

--- r = defib.trial(re, intervention, {quiet = cycle, sustain = 2 cycle, gap = 2 every, max = 4 sustain,
---   every = 5}): one trial from the re-entry's snapshot. r.outcome ("terminated", "not_terminated" or
---   "reinduced"), r.decided (ms after the restore when it was known; the trial stops there), r.tips
---   (phase singularities then), r.checks, r.vsum (the sum of V over the tissue then: equal sums for
---   equal runs).
function D.trial(re, iv, o)
  check_reentry(re, "trial")
  local t = trial_options(o, re, "trial")
  check_intervention(iv, re, "trial")
  return run_trial(re, iv, t)
end

---------------------------------------------------------------------------
-- studies: many trials from one snapshot, one table; budgets and arguments
-- checked before the first trial

local function now() return cardiac.clock() end

-- a study's bookkeeping: trials run, their time, the budget
local function ledger(budget, fn)
  return {n = 0, seconds = 0, budget = budget, fn = fn}
end
local function counted(led, re, iv, t)
  if led.n >= led.budget then
    fail(led.fn, "the trial budget (%d) is spent", led.budget)
  end
  local c = now()
  local r = run_trial(re, iv, t)
  led.seconds = led.seconds + (now() - c)
  led.n = led.n + 1
  return r
end

local function budget_of(o, fn, need)
  local b = integer(o, fn, "budget", need, 1)
  if b < need then fail(fn, "'budget' = %d trials is fewer than the %d the study needs", b, need) end
  return b
end

local function values_of(o, fn, key)
  local v = o[key]
  if type(v) ~= "table" or #v == 0 then fail(fn, "'%s' must be a non-empty list of numbers", key) end
  for q, x in ipairs(v) do
    if type(x) ~= "number" or x ~= x then fail(fn, "'%s'[%d] = %s is not a number", key, q, tostring(x)) end
  end
  return v
end

-- the shock's timing: `phases` (fractions of the cycle) from `seed`'s random
-- numbers, or evenly spread in [0, 1) when seed is nil
local function phases_of(n, seed)
  local ph = {}
  if seed then
    math.randomseed(seed)
    for q = 1, n do ph[q] = math.random() end
  else
    for q = 1, n do ph[q] = (q - 1) / n end
  end
  return ph
end

--- rows = defib.success{reentry, intervention = function(value, at) -> intervention, values = {...},
---   name = "strength", timings = 8, seed, trial = {...}, budget, progress = true}: the probability of
---   success (terminated) against a value (a shock's strength, an ATP cycle length, ...): for each value,
---   `timings` trials with the intervention at phases of the re-entry's cycle (evenly spread, or drawn
---   from `seed`): coupling intervals phase x cycle after an activation of the reference site,
---   at = defib.at_coupling(re, phase x cycle) ms after the snapshot. Rows: value, trials, terminated,
---   not_terminated, reinduced, p (the terminated fraction), p_lo, p_hi (its 95% Wilson interval);
---   rows.each: every trial (value, phase, coupling, outcome, decided, vsum); rows.trials, rows.seconds.
function D.success(o)
  local fn = "success"
  check_keys(o, fn, {"reentry", "intervention", "values", "name", "timings", "seed", "trial", "budget", "progress"})
  local re = o.reentry
  check_reentry(re, fn)
  if type(o.intervention) ~= "function" then fail(fn, "'intervention' must be a function(value, at) -> intervention") end
  local values = values_of(o, fn, "values")
  local n = integer(o, fn, "timings", 8, 1)
  local seed = o.seed ~= nil and integer(o, fn, "seed", nil, 0) or nil
  local t = trial_options(o.trial, re, fn)
  local led = ledger(budget_of(o, fn, n * #values), fn)
  local ph = phases_of(n, seed)
  -- every intervention built and checked before the first trial
  local ivs = {}
  for q, v in ipairs(values) do
    ivs[q] = {}
    for p = 1, n do
      local iv = o.intervention(v, D.at_coupling(re, ph[p] * re.cycle))
      check_intervention(iv, re, fn)
      ivs[q][p] = iv
    end
  end
  local name = o.name or "value"
  local rows, each = {}, {}
  for q, v in ipairs(values) do
    local row = {[name] = v, trials = n, terminated = 0, not_terminated = 0, reinduced = 0}
    for p = 1, n do
      local r = counted(led, re, ivs[q][p], t)
      row[r.outcome] = row[r.outcome] + 1
      each[#each + 1] = {[name] = v, phase = ph[p], coupling = ph[p] * re.cycle, outcome = r.outcome,
                         decided = r.decided, vsum = r.vsum}
    end
    row.p = row.terminated / n
    row.p_lo, row.p_hi = D.wilson(row.terminated, n)
    rows[q] = row
    if o.progress ~= false then say("%s = %g: %d of %d terminated", name, v, row.terminated, n) end
  end
  rows.trials, rows.seconds, rows.each = led.n, led.seconds, each
  return rows
end

--- lo, hi = defib.wilson(k, n): the 95% Wilson score interval of a proportion k/n.
function D.wilson(k, n)
  local z = 1.959964
  local p = k / n
  local den = 1 + z * z / n
  local c = (p + z * z / (2 * n)) / den
  local h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
  return math.max(0, c - h), math.min(1, c + h)
end

--- rows = defib.timing{reentry, intervention = function(at) -> intervention, phases = {...} | n = 12,
---   trial, budget}: the outcome against the coupling interval: one trial per phase of the cycle
---   (fractions in [0, 1); default n evenly spread); rows: phase, coupling (ms after an activation of
---   the reference site; defib.at_coupling),
---   outcome, success (1 or 0), decided.
function D.timing(o)
  local fn = "timing"
  check_keys(o, fn, {"reentry", "intervention", "phases", "n", "trial", "budget", "progress"})
  local re = o.reentry
  check_reentry(re, fn)
  if type(o.intervention) ~= "function" then fail(fn, "'intervention' must be a function(at) -> intervention") end
  local phases = o.phases and values_of(o, fn, "phases") or phases_of(integer(o, fn, "n", 12, 1))
  for q, p in ipairs(phases) do
    if p < 0 or p >= 1 then fail(fn, "'phases'[%d] = %g must lie in [0, 1)", q, p) end
  end
  local t = trial_options(o.trial, re, fn)
  local led = ledger(budget_of(o, fn, #phases), fn)
  local ivs = {}
  for q, p in ipairs(phases) do
    ivs[q] = o.intervention(D.at_coupling(re, p * re.cycle))
    check_intervention(ivs[q], re, fn)
  end
  local rows = {}
  for q, p in ipairs(phases) do
    local r = counted(led, re, ivs[q], t)
    rows[q] = {phase = p, coupling = p * re.cycle, outcome = r.outcome, success = r.outcome == "terminated" and 1 or 0,
               decided = r.decided}
    if o.progress ~= false then say("phase %.3f (%.1f ms): %s", p, p * re.cycle, r.outcome) end
  end
  rows.trials, rows.seconds = led.n, led.seconds
  return rows
end

--- th = defib.threshold{reentry, intervention = function(strength) -> intervention, lo, hi, tol, trial,
---   budget}: the lowest strength that terminates, by bisection between lo (must fail) and hi (must
---   succeed), both tried first. It halves [lo, hi] until hi - lo <= tol or the budget is spent, always
---   keeping a failing lo and a terminating hi. th.lo, th.hi (the final bracket), th.value ((lo + hi)/2),
---   th.uncertainty ((hi - lo)/2), th.rows (every trial: strength, outcome), th.trials, th.seconds.
---   The outcome need not be monotonic in strength (docs/defibrillation.md): the bracket is one
---   transition from failure to success, not a proof that nothing above lo fails.
function D.threshold(o)
  local fn = "threshold"
  check_keys(o, fn, {"reentry", "intervention", "lo", "hi", "tol", "trial", "budget", "progress"})
  local re = o.reentry
  check_reentry(re, fn)
  if type(o.intervention) ~= "function" then fail(fn, "'intervention' must be a function(strength) -> intervention") end
  local lo, hi = number(o, fn, "lo", nil, 0), number(o, fn, "hi", nil, 0)
  if hi <= lo then fail(fn, "'hi' = %g must exceed 'lo' = %g", hi, lo) end
  local tol = number(o, fn, "tol", (hi - lo) / 16, 0, nil, true)
  local need = 2 + math.max(0, math.ceil(math.log((hi - lo) / tol, 2)))
  local budget = integer(o, fn, "budget", need, 1)
  if budget < 2 then fail(fn, "'budget' = %d: the bisection needs at least 2 trials (lo and hi)", budget) end
  local t = trial_options(o.trial, re, fn)
  check_intervention(o.intervention(lo), re, fn)
  check_intervention(o.intervention(hi), re, fn)
  local led = ledger(budget, fn)
  local rows = {}
  local function try(s)
    local iv = o.intervention(s)
    check_intervention(iv, re, fn)
    local r = counted(led, re, iv, t)
    rows[#rows + 1] = {strength = s, outcome = r.outcome, decided = r.decided}
    if o.progress ~= false then say("strength %g: %s", s, r.outcome) end
    return r.outcome == "terminated"
  end
  if try(lo) then fail(fn, "'lo' = %g already terminates: lower it", lo) end
  if not try(hi) then fail(fn, "'hi' = %g does not terminate: raise it", hi) end
  while hi - lo > tol and led.n < led.budget do
    local mid = (lo + hi) / 2
    if try(mid) then hi = mid else lo = mid end
  end
  return {lo = lo, hi = hi, value = (lo + hi) / 2, uncertainty = (hi - lo) / 2, rows = rows, trials = led.n,
          seconds = led.seconds, converged = hi - lo <= tol}
end

---------------------------------------------------------------------------
-- protocols: key=value arguments, the re-entry they ask for, the output

--- o = defib.arguments(arg, defaults, script): the script's key=value arguments over the defaults (a
---   table key -> default); a default that is a number makes the value a number, a table of numbers a
---   comma-separated list. An unknown key or a value that is not a number where one is needed is
---   refused naming it.
function D.arguments(args, defaults, script)
  local o = {}
  for k, v in pairs(defaults) do o[k] = v end
  for q = 1, #args do
    local k, v = args[q]:match("^([%w_]+)=(.*)$")
    if not k or defaults[k] == nil then
      local keys = {}
      for key in pairs(defaults) do keys[#keys + 1] = key end
      table.sort(keys)
      error(("%s: unknown argument '%s' (key=value, keys: %s)"):format(script, args[q], table.concat(keys, ", ")), 0)
    end
    local d = defaults[k]
    if type(d) == "number" then
      o[k] = tonumber(v)
      if not o[k] then error(("%s: '%s' = %s is not a number"):format(script, k, v), 0) end
    elseif type(d) == "table" then
      o[k] = {}
      for x in v:gmatch("[^,]+") do
        local n = tonumber(x)
        if not n then error(("%s: '%s' lists %s, not a number"):format(script, k, x), 0) end
        o[k][#o[k] + 1] = n
      end
    else
      o[k] = v
    end
  end
  return o
end

--- re = defib.reentry(o): defib.spiral, defib.scroll or defib.breakup as o.kind says, with o's L, dx,
---   dt, D, settle, backend, precision, model and file (the empty string: none; 0 for dt, D and settle:
---   the re-entry's default).
function D.reentry(o)
  local make = ({spiral = D.spiral, scroll = D.scroll, breakup = D.breakup})[o.kind]
  if not make then
    error(("defib.reentry: 'kind' = %s must be spiral, scroll or breakup"):format(tostring(o.kind)), 0)
  end
  local r = {L = o.L, dx = o.dx, backend = o.backend, precision = o.precision,
             file = (o.file or "") ~= "" and o.file or nil, overwrite = true, depth = o.kind == "scroll" and o.depth or nil}
  if o.settle and o.settle > 0 then r.settle = o.settle end
  if o.dt and o.dt > 0 then r.dt = o.dt end
  if o.D and o.D > 0 then r.D = o.D end
  if o.model and o.model ~= "" then r.model = o.model end
  return make(r)
end

--- The key=value arguments every study protocol takes for its re-entry (protocols/defib_*.lua): kind,
---   n (cells per side, L = n dx), dx, dt, D, depth (cells; 0: n/4), settle, backend, precision, model,
---   file; and the trials' quiet and sustain (0: the defaults).
D.REENTRY_ARGUMENTS = {
  kind = "spiral",   -- spiral (2D), scroll (3D) or breakup (2D multiple wavelets: n=250 dx=0.5)
  n = 90, dx = 0.8, dt = 0, D = 0, depth = 0, settle = 0, backend = "auto", precision = "fp32", model = "",
  file = "", quiet = 0, sustain = 0}

--- o = defib.study_arguments(args, defaults, script): defib.arguments over D.REENTRY_ARGUMENTS and the
---   study's own defaults (which may override them).
function D.study_arguments(args, defaults, script)
  local all = {}
  for k, v in pairs(D.REENTRY_ARGUMENTS) do all[k] = v end
  for k, v in pairs(defaults) do all[k] = v end
  return D.arguments(args, all, script)
end

--- re, seconds, trial = defib.study_reentry(o): the re-entry that study_arguments o describe, the seconds
---   it took to make, and the trial options (quiet, sustain) for defib.success and defib.threshold.
function D.study_reentry(o)
  local t0 = cardiac.clock()
  local re = D.reentry{kind = o.kind, L = o.n * o.dx, dx = o.dx, depth = (o.depth > 0 and o.depth or o.n // 4) * o.dx,
                       dt = o.dt, D = o.D, settle = o.settle, backend = o.backend, precision = o.precision,
                       model = o.model, file = o.file}
  return re, cardiac.clock() - t0, {quiet = o.quiet > 0 and o.quiet or nil, sustain = o.sustain > 0 and o.sustain or nil}
end

---------------------------------------------------------------------------
-- output

--- defib.report(title, trials, seconds): the study's last lines: trials, time and trials per minute (rank 0).
function D.report(title, trials, seconds)
  if cardiac.rank ~= 0 then return end
  print(("%-34s %8s %10s %14s"):format("study", "trials", "seconds", "trials/minute"))
  print(("%-34s %8d %10.2f %14.2f"):format(title, trials, seconds, seconds > 0 and 60 * trials / seconds or 0))
end

--- defib.write(base, rows, columns, plot): base.csv and, with plot = {x =, y =, ...} (tables.plot's
--- options), base.png; existing files are overwritten (a study's outputs are its own). Without
--- gnuplot (a GPU machine, say) the figure is left out with a note, and the study goes on to
--- its report: the CSV holds everything the figure shows.
function D.write(base, rows, columns, plot)
  tables.csv(base .. ".csv", rows, columns, {overwrite = true})
  if plot then
    plot.overwrite = true
    if not tables.can_plot() then
      if cardiac.rank == 0 then print("no figure: gnuplot is not installed (`make run` installs gnuplot-nox)") end
      return
    end
    tables.plot(base .. ".png", rows, plot)   -- any other error is the study's own: it stops it
    if cardiac.rank == 0 then print("wrote " .. base .. ".png") end
  end
end

return D
