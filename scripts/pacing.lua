-- Pacing protocols (loaded with require "pacing"): regular trains, S1-S2
-- restitution and dynamic restitution, on one cell or on tissue. The
-- stimulus region is an argument; APD and DI come from the activation maps
-- tracked on the backend (sim:activation), read at one cell.
local P = {}

local function need(o, key, fn)
  if o[key] == nil then error(("pacing.%s: missing '%s'"):format(fn, key), 3) end
  return o[key]
end

local function check_keys(o, fn, keys)
  local known = {}
  for _, k in ipairs(keys) do known[k] = true end
  for k in pairs(o) do
    if not known[k] then
      table.sort(keys)
      error(("pacing.%s: unknown option '%s' (options: %s)"):format(fn, tostring(k), table.concat(keys, ", ")), 3)
    end
  end
end

--- A regular train: count pulses every bcl ms from start (ms), each of
--- amplitude (units of V per ms) for duration ms, over region (default: the
--- whole tissue). Returns a cardiac.stimulus.
function P.train(o)
  check_keys(o, "train", {"region", "bcl", "count", "start", "amplitude", "duration"})
  return cardiac.stimulus{region = o.region or cardiac.everywhere(), amplitude = need(o, "amplitude", "train"),
                          duration = o.duration or 1, start = o.start or 0, period = need(o, "bcl", "train"),
                          count = need(o, "count", "train")}
end

-- Reads the latest complete beat at cell `at` of a tracker.
local function beat(act, at)
  return {apd = act:get("apd", table.unpack(at)), di = act:get("di", table.unpack(at)),
          count = act:get("count", table.unpack(at))}
end

local function nan_to_nil(x) if x == x then return x end end

--- S1-S2 restitution. o.sim() makes a fresh simulation (mesh, model, D, no
--- stimuli); it is paced n times at bcl (S1), saved in a checkpoint at the
--- last S1, and for each coupling interval in o.s2 restored and given one
--- extra stimulus (S2) that long after the last S1. Options: region,
--- amplitude, duration (ms, default 1), s1 = bcl (ms), n (S1 beats, default
--- 10), s2 = {intervals, ms}, at = {i, j, k} (the measured cell, default the
--- first cell), threshold, fraction (as in sim:activation), checkpoint (a
--- file name, default in results/). Returns rows {s2, di, apd, apd_s1,
--- captured} in the order of o.s2: di is the diastolic interval before the
--- S2 beat, apd its APD (nil when S2 did not capture), apd_s1 the last S1's.
function P.s1s2(o)
  check_keys(o, "s1s2", {"sim", "region", "amplitude", "duration", "s1", "n", "s2", "at", "threshold", "fraction",
                         "checkpoint"})
  local make, bcl, s2s = need(o, "sim", "s1s2"), need(o, "s1", "s1s2"), need(o, "s2", "s1s2")
  local n, at = o.n or 10, o.at or {1, 1, 1}
  local file = o.checkpoint or ("results/s1s2_checkpoint_%d.h5"):format(os.time())
  local function s1(sim)
    sim:add_stimulus(P.train{region = o.region, bcl = bcl, count = n, amplitude = need(o, "amplitude", "s1s2"),
                             duration = o.duration})
  end
  local t_last = (n - 1) * bcl
  local base = make()
  s1(base)
  base:run(t_last)
  base:checkpoint(file, {overwrite = true})
  base:close()
  local rows = {}
  for q, interval in ipairs(s2s) do
    local sim = make()
    s1(sim)
    sim:add_stimulus(cardiac.stimulus{region = o.region or cardiac.everywhere(), amplitude = o.amplitude,
                                      duration = o.duration or 1, times = {t_last + interval}})
    sim:restore(file)
    local act = sim:activation{threshold = o.threshold, fraction = o.fraction}
    sim:run(interval)
    local b1 = beat(act, at)                  -- the last S1 beat (complete when interval > its APD)
    sim:run(math.max(bcl, 2 * interval))
    local b2 = beat(act, at)
    local captured = b2.count == 2
    -- an S2 inside the S1 action potential leaves the S1 beat the latest complete one
    local apd_s1 = nan_to_nil(b1.apd) or (not captured and nan_to_nil(b2.apd)) or nil
    rows[q] = {s2 = interval, apd_s1 = apd_s1, captured = captured,
               di = captured and nan_to_nil(b2.di) or nil, apd = captured and nan_to_nil(b2.apd) or nil}
    sim:close()
  end
  if not o.checkpoint then os.remove(file) end
  return rows
end

--- Dynamic restitution: o.sim() is paced n beats (default 20) at each cycle
--- length of o.bcl in turn (ms, usually decreasing), continuously; after each
--- train the last beat's APD and the DI before it are read at cell `at`.
--- Options as for s1s2 (region, amplitude, duration, at, threshold,
--- fraction). Returns rows {bcl, di, apd, beats}, beats being the upstrokes
--- the train produced: fewer than n means conduction block (2:1) at that
--- cycle length, and the protocol stops there.
function P.dynamic(o)
  check_keys(o, "dynamic", {"sim", "region", "amplitude", "duration", "bcl", "n", "at", "threshold", "fraction"})
  local make, bcls = need(o, "sim", "dynamic"), need(o, "bcl", "dynamic")
  local n, at = o.n or 20, o.at or {1, 1, 1}
  local sim = make()
  local act = sim:activation{threshold = o.threshold, fraction = o.fraction}
  local rows = {}
  for _, bcl in ipairs(bcls) do
    local before = act:get("count", table.unpack(at))
    sim:add_stimulus(P.train{region = o.region, bcl = bcl, count = n, start = sim.t,
                             amplitude = need(o, "amplitude", "dynamic"), duration = o.duration})
    sim:run(n * bcl)
    local b = beat(act, at)
    rows[#rows + 1] = {bcl = bcl, di = nan_to_nil(b.di), apd = nan_to_nil(b.apd), beats = b.count - before}
    if b.count - before < n then break end
  end
  sim:close()
  return rows
end

return P
