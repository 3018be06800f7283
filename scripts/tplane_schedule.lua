-- The predictions of docs/gpu-notebook.md item 25 for tplane under mpirun:
-- a launch's rows of blocks as the GPU's block scheduler takes them (a list
-- schedule: `slots` blocks at once, each row of `tiles` blocks takes the
-- slots that free first, a block's time its iterations), for the plans the
-- item compares on a rank of P along z: no faces (the exchange off), the
-- edges first (launches of their own before the inner planes), faces first
-- as built before commit 46febf0 and faces first with the width planned by
-- the search of cuda/tplane_plan.h, plan_wide_faces. Iterations
-- become ms a step through the one-GPU step of a scaling CSV (its plan's
-- iterations over its time).
--   cardiac scripts/tplane_schedule.lua [CSV [MARGIN]]   (CSV: default
--   docs/data/scaling-h200x4-5d9ef58.csv, the one-GPU steps the item's
--   predictions used; MARGIN: the iterations by which the planned faces must
--   be done before the launch's end, instead of a sixth of the launch)
-- Tiles of 64 x 64 cells (58 x 58 computed with the halo) at 512^3 and
-- 1024^3, 256 x 16 at 256^3; one block an SM, 132 SMs, K = 3: the H200's and
-- H100's tplane launch. "as built" is the wave count of c1ffa7d at 512^3 and
-- 1024^3 and the one-wave plan at 256^3 (plan_chunks), which 46febf0 keeps;
-- "planned" is the search of plan_wide_faces (at 256^3 built, and measured
-- slower than the one-wave plan: the faces' copies need about 45 us, item 25).
local csv = arg and arg[1] or "docs/data/scaling-h200x4-5d9ef58.csv"
local margin = arg and arg[2] and math.tointeger(tonumber(arg[2]))
if arg and arg[2] and not (margin and margin >= 0) then
  error(("tplane_schedule.lua: MARGIN must be a whole number of iterations, not '%s'"):format(arg[2]), 0)
end
-- whether faces done at f are in time in a launch ending at e
local function in_time(f, e) return f <= e - (margin or e // 6) end
local K, slots = 3, 132
local function ceil(a, b) return (a + b - 1) // b end

-- rows: {iterations, face} in block order; returns the end and the faces' end
local function schedule(rows, tiles)
  local free = {{0, slots}}            -- {time, slots free from then}, sorted by time
  local finish, faces = 0, 0
  for _, r in ipairs(rows) do
    local need = tiles
    while need > 0 do
      local g = free[1]
      local k, t = math.min(need, g[2]), g[1] + r[1]
      finish = math.max(finish, t)
      if r[2] then faces = math.max(faces, t) end
      need = need - k
      g[2] = g[2] - k
      if g[2] == 0 then table.remove(free, 1) end
      local q = #free + 1
      for i, h in ipairs(free) do
        if h[1] == t then h[2] = h[2] + k; q = nil; break end
        if h[1] > t then q = i; break end
      end
      if q then table.insert(free, q, {t, k}) end
    end
  end
  return finish, faces
end

local function chunk_rows(rows, nz, zc)
  for j = 0, ceil(nz, zc) - 1 do rows[#rows + 1] = {math.min(zc, nz - j * zc) + 2 * K, false} end
  return rows
end
-- the count of chunks that minimises waves x iterations (extra: the face
-- blocks' iterations before them, counted into the waves as c1ffa7d did)
local function waves_zc(nz, tiles, extra)
  local best, bz
  for ch = 1, math.min(nz, 256) do
    local zc = ceil(nz, ch)
    local it = zc + 2 * K
    local cost = ceil(extra + tiles * ch * it, slots * it) * it
    if not best or cost < best then best, bz = cost, zc end
  end
  return bz
end
local function no_faces(nz, tiles) return (schedule(chunk_rows({}, nz, waves_zc(nz, tiles, 0)), tiles)) end
local function faces_rows(nf, fw, nz, zc)
  local rows = {}
  for _ = 1, nf do rows[#rows + 1] = {fw + 2 * K, true} end
  return chunk_rows(rows, nz - nf * fw, zc)
end
local function faces_waves(nz, tiles, nf)
  local L = nz - nf * K
  return (schedule(faces_rows(nf, K, nz, waves_zc(L, tiles, nf * tiles * (2 * K + K))), tiles))
end
local function faces_planned(nz, tiles, nf)
  local best, bface, plan
  for fw = K, math.min(96, nz // nf) do
    local L = nz - nf * fw
    for ch = 1, math.min(32, math.max(L, 1)) do
      local zc = L > 0 and ceil(L, ch) or 1
      if L > 0 and ceil(L, zc) == ch then
        local e, f = schedule(faces_rows(nf, fw, nz, zc), tiles)
        local ok, bok = in_time(f, e), best and in_time(bface, best)
        if not best or (ok and not bok) or (ok == bok and (e < best or (e == best and f < bface))) then
          best, bface, plan = e, f, ("faces %d planes, chunks of %d: %d iterations, faces at %d"):format(fw, zc, e, f)
        end
      end
    end
  end
  return best, plan
end

-- Where the face rows leave room in the first wave (tiles as wide as the
-- grid): the plan as built (plan_chunks: main rows beside the face rows, at
-- most nf later rows shorter by a face chunk's iterations)
local function faces_one_wave(nz, tiles, nf)
  local first, fcost, L = math.max(1, slots // tiles), 3 * K, nz - nf * K
  local best, plan
  for ch = 1, math.max(1, math.min(L, first)) do
    local early = math.max(0, math.min(ch, first - nf))
    local late = ch - early
    if late <= nf then
      local zc = ceil(L + late * fcost, ch)
      if not best or zc + 2 * K < best then best, plan = zc + 2 * K, {zc, math.max(1, zc - fcost), early, ch} end
    end
  end
  local rows, z = {}, 0
  for _ = 1, nf do rows[#rows + 1] = {K + 2 * K, true} end
  for j = 0, plan[4] - 1 do
    local w = math.min(L - z, j < plan[3] and plan[1] or plan[2])
    if w > 0 then rows[#rows + 1] = {w + 2 * K, false} end
    z = z + w
  end
  return (schedule(rows, tiles))
end

local one = {}
local f = io.open(csv)
if not f then error(("tplane_schedule.lua: cannot read %s (run it from the repository's root, or give a scaling CSV)"):format(csv), 0) end
f:close()
for line in io.lines(csv) do
  local case, ranks, ms = line:match('^"(strong%d+)",(%d+),[^,]*,%d+,%d+,%d+,([%d.]+)')
  if case and tonumber(ranks) == 1 then one[case] = tonumber(ms) end
end
print(("one-GPU steps from %s; ms a step predicted for the rank that ends last:"):format(csv))
print("| grid | ranks | no faces | edges first | faces first, as built for it before 46febf0 | faces first, planned | plan |")
print("|---|---|---|---|---|---|---|")
-- 256^3: tiles of 256 x 16 cells (10 rows computed), 26 of them
for _, c in ipairs{{256, 26}, {512, 81}, {1024, 324}} do
  local n, tiles = c[1], c[2]
  local step = one["strong" .. n]
  if step then
    local us = step * K / no_faces(n, tiles)            -- ms an iteration
    local function ms(it) return ("%.4f"):format(it * us / K) end
    local edge = no_faces(K, tiles)
    for _, p in ipairs{2, 4} do
      local nz, nf = n // p, p > 2 and 2 or 1            -- a middle rank of 4 shares two faces
      local planned, plan = faces_planned(nz, tiles, nf)
      print(("| %d^3 | %d | %s | %s | %s | %s | %s |"):format(n, p, ms(no_faces(nz, tiles)),
        ms(no_faces(nz - nf * K, tiles) + nf * edge),
        ms(slots // tiles > nf and faces_one_wave(nz, tiles, nf) or faces_waves(nz, tiles, nf)), ms(planned), plan))
    end
  end
end
