-- Why ORd's wave fails or slows at the theses' dx = 0.5 mm, by experiment:
-- each table changes one setting of the calcium thesis' tissue (Altanaite
-- 2017, section 7.1: D = 0.2 mm^2/ms, dt = 0.05 ms, a plane stimulus,
-- activation at V > -70 mV) and measures the conduction velocity (CV, mm/ms
-- = m/s) at several grid spacings against the converged value (dx = 0.05 mm).
-- docs/models.md ("Conduction velocity at coarse grids") reads the tables.
--   cardiac protocols/ord_conduction.lua [table ...] [out=DIR]
-- tables (default: all):
--   ina       INa formulations: ORd 2011, the parts of the Gaur-Rudy encoding's
--             INa (the theses' code), ToR-ORd's INa; TP06 for comparison
--   d         the diffusion coefficient D
--   rule      the CV at the spacing above which cardiac warns (sim.dx_resolved)
--   stimulus  plane current (the encoding's, cv_resolution's) or V set to 0 mV
--             on the first 5% or 20% of the cable (PhD thesis, eq. 5.8)
--   threshold activation at -70 mV (the thesis) or -40 mV
--   dt        the time step at dx = 0.5 mm
--   decay     V's peak and activation time along the cable at dx = 0.5 mm:
--             a dying wave, and what a CV between two points then measures
--   dz        the calcium thesis' fig. 7.2: CV against D with its stimulus
--   stencil   second- and fourth-order stencil
--   slab      the calcium thesis' geometry (x-y plane stimulated, cells at
--             Nz/4 and 3Nz/4), ORd and the multiscale gaur_rudy (10 dyads)
-- Every run: fp64, a 20 mm cable (or slab), the cell's state 1 s after 20
-- beats at 1 Hz (scripts/ordcv.lua), dt = 0.05 ms for dx >= 0.25 mm, 0.01
-- at 0.2 and 0.1, 0.004 at 0.05 (smaller where the stability limit asks).
package.path = (arg[0]:match("(.*/)") or "./") .. "../scripts/?.lua;" .. package.path
local ordcv, tables, measure = require "ordcv", require "tables", require "measure"
cardiac.quiet = true

local wanted, out = {}, nil
for q = 1, #arg do
  local k, v = arg[q]:match("^(%w+)=(.*)$")
  if k == "out" then out = v elseif k then error("ord_conduction.lua: unknown option " .. arg[q])
  else wanted[arg[q]] = true end
end
local function want(name) return next(wanted) == nil or wanted[name] end

-- The theses' code (a public C++ encoding of ORd with Gaur-Rudy dyads; see
-- docs/models.md) changes INa: m_inf 10 mV lower always, and with its
-- isoproterenol switch on g_na x 2.7 and h_inf, j_inf 5 mV lower.
local ENC = {ina_m_shift = 10, ina_h_shift = 5, g_na = 202.5}
local function with(a, b)
  local r = {}
  for k, v in pairs(a or {}) do r[k] = v end
  for k, v in pairs(b or {}) do r[k] = v end
  return r
end
local VARIANTS = {
  {name = "ORd 2011 (the paper)", params = {}},
  {name = "g_na x 2.7", params = {g_na = 202.5}},
  {name = "h_inf, j_inf -5 mV", params = {ina_h_shift = 5}},
  {name = "g_na x 2.7, h_inf -5 mV", params = {g_na = 202.5, ina_h_shift = 5}},
  {name = "m_inf -10 mV", params = {ina_m_shift = 10}},
  {name = "the encoding's INa (all three)", params = ENC},
  {name = "the encoding's INa, g_k1 x 0.4", params = with(ENC, {g_k1 = 0.07632})},
  {name = "ToR-ORd's INa (Tomek 2019)", params = {ina_form = 1, g_na = 11.7802}},
  {name = "TP06 (whole model, epi)", model = "tentusscher_2006", params = {}},
}

-- dt for a grid spacing: the thesis' 0.05 ms where it resolves the upstroke,
-- smaller on fine grids, and below 0.4 dx^2 / (dim D) (the explicit limit is
-- about 0.5 dx^2 / (dim D)).
local function dt_for(dx, D, dim)
  local dt = dx >= 0.25 and 0.05 or (dx >= 0.1 and 0.01 or 0.004)
  local lim = 0.4 * dx * dx / ((dim or 1) * D)
  while dt > lim do dt = dt / 2 end
  return dt
end

-- a CV, or why there is none: "fails" (a point never fired) or "decays" (the
-- wave crossed the second point dying, ordcv.run)
local function fmt(cv, status) return cv and ("%.4f"):format(cv) or (status or "fails") end
local function err(cv, ref) return cv and ref and ("%+.1f%%"):format(100 * (cv - ref) / ref) or "-" end

-- a markdown table (and its CSV when out is given)
local function emit(name, title, header, rows, csvrows, csvcols)
  print(("\n### %s\n"):format(title))
  print("| " .. table.concat(header, " | ") .. " |")
  print("|" .. ("---|"):rep(#header))
  for _, r in ipairs(rows) do print("| " .. table.concat(r, " | ") .. " |") end
  if out and csvrows then tables.csv(("%s/%s.csv"):format(out, name), csvrows, csvcols, {overwrite = true}) end
end

local function run(o)
  o.dt = o.dt or dt_for(o.dx, o.D or ordcv.defaults.D, o.xy and 3 or 1)
  return ordcv.run(o)
end

-- CV at each dx and at the reference dx = 0.05 mm, and the runs' statuses
local function sweep(base, dxs)
  local cvs, st = {}, {}
  for q, dx in ipairs(dxs) do
    local r = {run(with(base, {dx = dx}))}
    cvs[q], st[q] = r[1], r[6]
  end
  local ref = run(with(base, {dx = 0.05}))
  return cvs, ref, st
end

if want("ina") then
  local dxs = {0.5, 0.4, 0.3, 0.25, 0.2, 0.1}
  local header = {"INa (D = 0.2)", "0.5 (dt 0.05)", "0.5 (dt 0.01)", "0.4", "0.3", "0.25", "0.2", "0.1",
                  "0.05 (reference)", "error at 0.5", "error at 0.25", "Pe at 0.5"}
  local rows, csv = {}, {}
  for _, v in ipairs(VARIANTS) do
    local base = {model = v.model, params = v.params, prepace = v.model and 0 or nil}
    local cvs, ref, st = sweep(base, dxs)
    local fine = {run(with(base, {dx = 0.5, dt = 0.01}))}
    local r = {v.name, fmt(cvs[1], st[1]), fmt(fine[1], fine[6])}
    for q = 2, #dxs do r[#r + 1] = fmt(cvs[q], st[q]) end
    r[#r + 1] = fmt(ref)
    r[#r + 1] = err(cvs[1], ref)
    r[#r + 1] = err(cvs[4], ref)
    r[#r + 1] = ref and ("%.2f"):format(ref * 0.5 / 0.2) or "-"
    rows[#rows + 1] = r
    csv[#csv + 1] = {variant = v.name, cv_05 = cvs[1], cv_05_dt001 = fine[1], cv_04 = cvs[2], cv_03 = cvs[3],
                     cv_025 = cvs[4], cv_02 = cvs[5], cv_01 = cvs[6], cv_ref = ref}
  end
  emit("ina", "CV (mm/ms) against dx (mm) for INa formulations: 20 mm cable, D = 0.2 mm^2/ms, 80 uA/uF for 1 ms "
       .. "on the first mm, CV between 5 and 15 mm at -70 mV", header, rows, csv,
       {"variant", "cv_05", "cv_05_dt001", "cv_04", "cv_03", "cv_025", "cv_02", "cv_01", "cv_ref"})
end

if want("d") then
  local header = {"model", "D (mm^2/ms)", "0.5", "0.25", "0.1", "0.05 (reference)", "error at 0.5", "error at 0.25",
                  "Pe at 0.5"}
  local rows = {}
  for _, v in ipairs{VARIANTS[1], VARIANTS[6]} do
    for _, D in ipairs{0.1, 0.2, 0.3, 0.4, 0.6} do
      local cvs, ref, st = sweep({params = v.params, D = D}, {0.5, 0.25, 0.1})
      rows[#rows + 1] = {v.name, D, fmt(cvs[1], st[1]), fmt(cvs[2], st[2]), fmt(cvs[3], st[3]), fmt(ref), err(cvs[1], ref),
                         err(cvs[2], ref), ref and ("%.2f"):format(ref * 0.5 / D) or "-"}
    end
  end
  emit("d", "CV against D (the thesis' 0.2; cardiac's heart case 0.3)", header, rows)
end

if want("rule") then
  -- the spacing cardiac warns above (model_resolved_dx: 0.25 mm at D = 0.2,
  -- 0.3 with stencil 4, scaled by sqrt(D / 0.2)) and the error there
  local header = {"model", "stencil", "D (mm^2/ms)", "dx at the limit", "CV there", "0.05 (reference)", "error"}
  local rows = {}
  for _, c in ipairs{{2, 0.1}, {2, 0.2}, {2, 0.3}, {2, 0.4}, {2, 0.6}, {4, 0.2}} do
    local order, D = c[1], c[2]
    local dx = (order == 2 and 0.25 or 0.3) * math.sqrt(D / 0.2)
    local cv, _, _, _, _, status = run({D = D, dx = dx, stencil = order})
    local ref = run({D = D, dx = 0.05, stencil = order})
    rows[#rows + 1] = {VARIANTS[1].name, order, D, ("%.3f"):format(dx), fmt(cv, status), fmt(ref), err(cv, ref)}
  end
  emit("rule", "At the spacing above which cardiac warns", header, rows)
end

if want("stimulus") then
  local stims = {
    {name = "80 uA/uF, 1 ms, first 1 mm", o = {}},
    {name = "80 uA/uF, 0.5 ms, first 0.5 mm", o = {dur = 0.5, depth = 0.5}},
    {name = "V = 0 mV on the first 5% (1 mm)", o = {stim = "set", depth = 1}},
    {name = "V = 0 mV on the first 20% (4 mm)", o = {stim = "set", depth = 4}},
  }
  local header = {"model", "stimulus", "0.5", "0.25", "0.05 (reference)", "error at 0.5"}
  local rows = {}
  for _, v in ipairs{VARIANTS[1], VARIANTS[6]} do
    for _, s in ipairs(stims) do
      local cvs, ref, st = sweep(with({params = v.params}, s.o), {0.5, 0.25})
      rows[#rows + 1] = {v.name, s.name, fmt(cvs[1], st[1]), fmt(cvs[2], st[2]), fmt(ref), err(cvs[1], ref)}
    end
  end
  emit("stimulus", "CV against the stimulus (D = 0.2)", header, rows)
end

if want("threshold") then
  local header = {"model", "activation at", "0.5", "0.25", "0.05 (reference)", "error at 0.5", "error at 0.25"}
  local rows = {}
  for _, v in ipairs{VARIANTS[1], VARIANTS[5], VARIANTS[6]} do
    for _, thr in ipairs{-70, -40} do
      local cvs, ref, st = sweep({params = v.params, thr = thr}, {0.5, 0.25})
      rows[#rows + 1] = {v.name, thr .. " mV", fmt(cvs[1], st[1]), fmt(cvs[2], st[2]), fmt(ref), err(cvs[1], ref),
                         err(cvs[2], ref)}
    end
  end
  emit("threshold", "CV against the activation criterion (D = 0.2)", header, rows)
end

if want("dt") then
  local header = {"model", "dt (ms)", "CV at dx 0.5", "t1 at 5 mm", "t2 at 15 mm"}
  local rows = {}
  for _, v in ipairs{VARIANTS[1], VARIANTS[6]} do
    for _, dt in ipairs{0.05, 0.025, 0.01, 0.005} do
      local cv, t1, t2, _, _, status = run({params = v.params, dx = 0.5, dt = dt})
      rows[#rows + 1] = {v.name, dt, fmt(cv, status), t1 and ("%.2f"):format(t1) or "-", t2 and ("%.2f"):format(t2) or "-"}
    end
  end
  emit("dt", "The time step at dx = 0.5 mm (D = 0.2)", header, rows)
end

if want("decay") then
  -- V's peak and the -70 mV crossing at every 2.5 mm of a 40 mm cable
  local header = {"model", "dx", "x (mm): t at -70 mV (ms) / peak V (mV)"}
  local rows = {}
  for _, v in ipairs{VARIANTS[1], VARIANTS[6]} do
    for _, dx in ipairs{0.5, 0.25} do
      local mesh = cardiac.mesh{size = {40}, dx = dx}
      local sim = cardiac.simulation{mesh = mesh, model = cardiac.model("ohara_rudy", v.params), dt = dx * 0.1, D = 0.2,
        precision = "fp64", stimuli = {cardiac.stimulus{region = cardiac.slab{axis = "x", from = 0, to = 1},
        amplitude = 80, duration = 1}}}
      for name, y in pairs(ordcv.start_state("ohara_rudy", v.params, 20)) do sim:set(name, y) end
      local xs, cells = {}, {}
      for x = 2.5, 37.5, 2.5 do xs[#xs + 1] = x; cells[#cells + 1] = {mesh:locate(x)} end
      local p = sim:probe{cells = cells, vars = {"V"}, every = 1}
      sim:run(150)
      local d, parts = p:data(), {}
      for q, x in ipairs(xs) do
        local t = measure.activation_time(d.t, d.V[q], -70)
        local peak = -math.huge
        for _, y in ipairs(d.V[q]) do peak = math.max(peak, y) end
        parts[#parts + 1] = ("%g: %s/%.0f"):format(x, t and ("%.1f"):format(t) or "-", peak)
      end
      rows[#rows + 1] = {v.name, dx, table.concat(parts, ", ")}
    end
  end
  emit("decay", "Along a 40 mm cable (D = 0.2, dt = dx / 10 ms, stimulus on the first mm)", header, rows)
  -- what a CV between two points measures on the dying wave
  local header2 = {"model", "points (mm)", "cable (mm)", "CV at dx 0.5", "distance / (t2 - t1)", "peaks (mV)"}
  local rows2 = {}
  for _, v in ipairs{VARIANTS[1], VARIANTS[6]} do
    for _, pts in ipairs{{4.75, 14.75, 20}, {5, 15, 20}, {10, 30, 40}} do
      local cv, t1, t2, dist, _, status, peak = run({params = v.params, dx = 0.5, a = pts[1], b = pts[2], len = pts[3]})
      local naive = t1 and t2 and dist / (t2 - t1)
      rows2[#rows2 + 1] = {v.name, pts[1] .. " - " .. pts[2], pts[3], fmt(cv, status),
                           naive and ("%.4f"):format(naive) or "-", ("%.0f / %.0f"):format(peak[1], peak[2])}
    end
  end
  emit("decay_points", "CV between two points at dx = 0.5 mm (4.75 and 14.75 mm: the cells cv_resolution.lua "
       .. "measured until 2026-11-25)", header2, rows2)
end

if want("dz") then
  -- the calcium thesis' fig. 7.2: CV against D (Dz; a planar wave along z
  -- does not feel Dx, Dy) with its stimulus, one 0.5 mm layer at 80 uA/uF for
  -- 0.5 ms (the encoding's), on the 24 mm cable with the quarter cells; the
  -- thesis: conduction fails at 0.00625 and at 0.4
  local Ds = {0.00625, 0.0125, 0.025, 0.05, 0.1, 0.2, 0.3, 0.4}
  local header = {"model", "dx"}
  for _, D in ipairs(Ds) do header[#header + 1] = "D " .. D end
  local rows = {}
  for _, c in ipairs{{VARIANTS[1], 0.5}, {VARIANTS[5], 0.5}, {VARIANTS[6], 0.5}, {VARIANTS[1], 0.25},
                     {VARIANTS[5], 0.25}} do
    local r = {c[1].name, c[2]}
    for _, D in ipairs(Ds) do
      local res = {run({params = c[1].params, dx = c[2], D = D, len = 24, cells = "quarters", depth = 0.5, dur = 0.5,
                        tmax = 400})}
      r[#r + 1] = fmt(res[1], res[6])
    end
    rows[#rows + 1] = r
  end
  emit("dz", "CV against D with the calcium thesis' stimulus (fig. 7.2: fails at 0.00625 and 0.4)", header, rows)
  -- fig. 7.1: the 100 mm long tissue (cells at 25 and 75 mm) over the
  -- thesis' one beat of 500 ms; the thesis: fails at 0.025 (only the first
  -- cell fired) and at 0.4
  local Ds1 = {0.0125, 0.025, 0.05, 0.1, 0.2, 0.3, 0.4}   -- fig. 7.1's text names 0.025 as its low failure
  local header1 = {"model", "dx"}
  for _, D in ipairs(Ds1) do header1[#header1 + 1] = "D " .. D end
  local rows1 = {}
  for _, c in ipairs{{VARIANTS[5], 0.5}, {VARIANTS[6], 0.5}} do
    local r = {c[1].name, c[2]}
    for _, D in ipairs(Ds1) do
      local cv, t1, _, _, _, status = run({params = c[1].params, dx = c[2], D = D, len = 100, cells = "quarters",
                                           depth = 0.5, dur = 0.5, tmax = 500})
      r[#r + 1] = cv and fmt(cv) or (t1 and ("%s (t1 %.0f ms)"):format(status, t1) or status)
    end
    rows1[#rows1 + 1] = r
  end
  emit("dz100", "The same on 100 mm over 500 ms (fig. 7.1: fails at 0.025 and 0.4)", header1, rows1)
end

if want("stencil") then
  local header = {"model", "stencil", "0.5", "0.25", "0.1", "0.05 (reference)", "error at 0.5", "error at 0.25"}
  local rows = {}
  for _, v in ipairs{VARIANTS[1], VARIANTS[6], VARIANTS[8]} do
    for _, order in ipairs{2, 4} do
      local cvs, ref, st = sweep({params = v.params, stencil = order}, {0.5, 0.25, 0.1})
      rows[#rows + 1] = {v.name, order, fmt(cvs[1], st[1]), fmt(cvs[2], st[2]), fmt(cvs[3], st[3]), fmt(ref),
                         err(cvs[1], ref),
                         err(cvs[2], ref)}
    end
  end
  emit("stencil", "Second- and fourth-order stencil (D = 0.2)", header, rows)
end

if want("slab") then
  -- the calcium thesis' 7.1.1: a 6 x 6 x 24 mm slab (here also 1 x 1 mm: the
  -- wave is planar), the x-y plane stimulated (first 0.5 mm, 80 uA/uF for
  -- 1 ms: the encoding's 0.5 ms does not excite the paper's ORd, table
  -- stimulus), cells at (Nx/2, Ny/2, Nz/4) and 3Nz/4
  local header = {"model", "slab (mm)", "dx", "t1 (ms)", "t2 (ms)", "CV (m/s)", "paper"}
  local rows = {}
  local cases = {
    {VARIANTS[1], 6, 0.5}, {VARIANTS[1], 1, 0.5}, {VARIANTS[1], 1, 0.25},
    {VARIANTS[5], 6, 0.5}, {VARIANTS[5], 1, 0.5}, {VARIANTS[5], 1, 0.25},
    {VARIANTS[6], 6, 0.5}, {VARIANTS[6], 1, 0.5}, {VARIANTS[6], 1, 0.25},
    {VARIANTS[8], 1, 0.5}, {VARIANTS[8], 1, 0.25},
  }
  for _, c in ipairs(cases) do
    local v, xy, dx = c[1], c[2], c[3]
    local cv, t1, t2, _, _, status = run({params = v.params, xy = xy, len = 24, cells = "quarters", depth = 0.5,
                                          dur = 1, dx = dx})
    rows[#rows + 1] = {v.name, ("%g x %g x 24"):format(xy, xy), dx, t1 and ("%.2f"):format(t1) or "-",
                       t2 and ("%.2f"):format(t2) or "-", fmt(cv, status), "0.523 (t1 10.65, t2 33.6)"}
  end
  -- the thesis' own model: ORd with stochastic calcium release units (10
  -- dyads per cell: the thesis found the CV independent of the count)
  for _, v in ipairs{VARIANTS[1], VARIANTS[5], VARIANTS[6]} do
    local params = with(v.params, {dyads = 10})
    local cv, t1, t2, _, _, status = run({model = "gaur_rudy", params = params, prepace = 0, xy = 0.5, len = 24,
                                          cells = "quarters", depth = 0.5, dur = 1, dx = 0.5})
    rows[#rows + 1] = {"gaur_rudy, 10 dyads: " .. v.name, "0.5 x 0.5 x 24", 0.5, t1 and ("%.2f"):format(t1) or "-",
                       t2 and ("%.2f"):format(t2) or "-", fmt(cv, status), "0.523 (t1 10.65, t2 33.6)"}
  end
  emit("slab", "The calcium thesis' geometry (section 7.1.1; D = 0.2, dt as above, -70 mV)", header, rows)
end
