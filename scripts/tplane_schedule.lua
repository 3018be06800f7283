-- The predictions of docs/gpu-notebook.md item 25 for tplane under mpirun:
-- a launch's rows of blocks as the GPU's block scheduler takes them (a list
-- schedule: `slots` blocks at once, each row of `tiles` blocks takes the
-- slots that free first, a block's time its iterations), for the plans the
-- item compares on a rank of P along z: no faces (the exchange off), the
-- edges first (launches of their own before the inner planes), faces first
-- counted in waves (commit c1ffa7d) and faces first with the width the
-- backend now plans (cuda/kernels_tplane.cuh, plan_wide_faces). Iterations
-- become ms a step through the one-GPU step of a scaling CSV (its plan's
-- iterations over its time).
--   cardiac scripts/tplane_schedule.lua [CSV]   (default docs/data/scaling-h200x4.csv)
-- Tiles of 64 x 64 cells (58 x 58 computed with the halo), one block an SM,
-- 132 SMs, K = 3: the H200's and H100's tplane launch at 512^3 and 1024^3.
local csv = arg and arg[1] or "docs/data/scaling-h200x4.csv"
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
        local ok, bok = f <= e - e // 8, best and bface <= best - best // 8
        if not best or (ok and not bok) or (ok == bok and (e < best or (e == best and f < bface))) then
          best, bface, plan = e, f, ("faces %d planes, chunks of %d"):format(fw, zc)
        end
      end
    end
  end
  return best, plan
end

local one = {}
for line in io.lines(csv) do
  local case, ranks, ms = line:match('^"(strong%d+)",(%d+),[^,]*,%d+,%d+,%d+,([%d.]+)')
  if case and tonumber(ranks) == 1 then one[case] = tonumber(ms) end
end
print(("one-GPU steps from %s; ms a step predicted for the rank that ends last:"):format(csv))
print("| grid | ranks | no faces | edges first | faces first, waves (c1ffa7d) | faces first, planned | plan |")
print("|---|---|---|---|---|---|---|")
for _, c in ipairs{{512, 81}, {1024, 324}} do
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
        ms(no_faces(nz - nf * K, tiles) + nf * edge), ms(faces_waves(nz, tiles, nf)), ms(planned), plan))
    end
  end
end
