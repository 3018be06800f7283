-- Splitting a grid over MPI ranks (core/parallel/decomp.c), planned with
-- mesh:decompose on geometries whose answer is known by hand: equal sizes
-- (balance = "cells": part c owns [c n / P, (c + 1) n / P)), equal tissue
-- (the default), the least thickness of a part (ghost), 3D splits, grids too
-- thin for the default slabs, and bad
-- input. tests/mpi_decomp.sh checks that a job's sim.decomp is this plan and
-- that every split computes the one-process values bit for bit.
cardiac.quiet = true
local checks = require "checks"   -- check(ok, fmt, ...), finish()
local check = checks.check
local function list(t) return table.concat(t, " ") end

-- 20 x 10 x 30 cells, tissue in the first 8 z planes (200 cells each)
local low = cardiac.mesh{n = {20, 10, 30}, dx = 0.25, tissue = cardiac.slab{axis = "z", from = 0, to = 2}}
local d = low:decompose(4, {balance = "cells"})
check(list(d.dims) == "1 1 4" and list(d.cuts[3]) == "0 7 15 22 30" and list(d.tissue) == "1400 200 0 0",
      "cells: z cuts %s (c n / P), tissue %s", list(d.cuts[3]), list(d.tissue))
d = low:decompose(4)
check(d.balance == "tissue" and list(d.cuts[3]) == "0 2 4 6 30" and list(d.tissue) == "400 400 400 400",
      "tissue: z cuts %s, tissue %s (2 planes of 200 each)", list(d.cuts[3]), list(d.tissue))
-- parts at least 3 planes thick: the tissue cannot be shared evenly
d = low:decompose(4, {ghost = 3})
check(list(d.cuts[3]) == "0 3 6 9 30" and list(d.tissue) == "600 600 400 0",
      "tissue, parts of at least 3 planes: z cuts %s, tissue %s", list(d.cuts[3]), list(d.tissue))
-- a full box: equal tissue is equal size, the same cuts as balance = "cells"
local box = cardiac.mesh{n = {8, 6, 10}, dx = 0.25}
d = box:decompose(4)
check(list(d.cuts[3]) == "0 2 5 7 10", "full box, 10 planes over 4: z cuts %s", list(d.cuts[3]))
d = box:decompose(3)
check(list(d.cuts[3]) == list(box:decompose(3, {balance = "cells"}).cuts[3]),
      "full box, 10 planes over 3: tissue and cells cut alike (%s)", list(d.cuts[3]))
-- 3D split: each axis balanced on its own; tissue in the x < 5 half of 20
-- and the y < 2 fifth of 10 cells
local corner = cardiac.mesh{n = {20, 10, 4}, dx = 1, tissue = cardiac.box{min = {0, 0, 0}, max = {5, 2, 4}}}
d = corner:decompose(8, {decomp = {2, 2, 2}})
check(list(d.dims) == "2 2 2" and list(d.cuts[1]) == "0 2 20" and list(d.cuts[2]) == "0 1 10" and
      list(d.cuts[3]) == "0 2 4",
      "2 x 2 x 2 of a corner: cuts x %s, y %s, z %s", list(d.cuts[1]), list(d.cuts[2]), list(d.cuts[3]))
-- rank order: x fastest (MPI_Cart_create over z, y, x)
check(list(d.tissue) == "4 6 4 6 4 6 4 6", "2 x 2 x 2: tissue per rank %s", list(d.tissue))
local sum = 0
for _, t in ipairs(d.tissue) do sum = sum + t end
check(sum == corner.tissue, "the parts hold all %d tissue cells (%d)", corner.tissue, sum)
-- 2D: slabs along y
local sheet = cardiac.mesh{n = {12, 9}, dx = 1, tissue = cardiac.box{min = {0, 6}, max = {12, 9}}}
d = sheet:decompose(3)
check(list(d.dims) == "1 3" and list(d.cuts[2]) == "0 7 8 9", "2D, tissue in the last 3 of 9 rows: y cuts %s",
      list(d.cuts[2]))

-- no decomp given: the slabs go along the last axis thick enough for the
-- ranks; with none, rank 0 takes the whole grid and the others nothing
local thin = cardiac.mesh{n = {512, 2}, dx = 1}
d = thin:decompose(4)
check(list(d.dims) == "4 1" and list(d.cuts[1]) == "0 128 256 384 512" and not d.whole_on_rank0,
      "512 x 2 over 4 ranks: along x (dims %s, cuts %s)", list(d.dims), list(d.cuts[1]))
d = low:decompose(4, {ghost = 8})
check(list(d.dims) == "1 1 1" and d.whole_on_rank0 and list(d.tissue) == "1600 0 0 0",
      "20 x 10 x 30 over 4 ranks, parts of at least 8 cells: whole on rank 0 (tissue %s)", list(d.tissue))
d = cardiac.mesh{n = {1}, dx = 1}:decompose(3)
check(d.whole_on_rank0 and list(d.tissue) == "1 0 0", "one cell over 3 ranks: whole on rank 0 (tissue %s)",
      list(d.tissue))

-- bad input: named, before any work
local function refused(f, pattern, what)
  local ok, err = pcall(f)
  check(not ok and tostring(err):find(pattern, 1, true) ~= nil, "%s refused: %s", what, tostring(err))
end
refused(function() low:decompose(0) end, "'ranks' must be 1 to 2^20", "0 ranks")
refused(function() low:decompose(4, {balance = "volume"}) end, "'balance' must be one of tissue, cells", "balance 'volume'")
refused(function() low:decompose(4, {decomp = {2, 1, 1}}) end, "splits the grid into 2 parts, but the job has 4",
        "a decomp that does not multiply to the ranks")
refused(function() low:decompose(40, {decomp = {1, 1, 40}}) end, "cannot be split over 40 ranks",
        "a decomp with more ranks than planes")
refused(function() low:decompose(4, {decomp = {1, 1, 4}, ghost = 8}) end, "needs at least 8 cells",
        "a decomp with parts thinner than the ghost layers")
refused(function() low:decompose(2, {tissue = 1}) end, "unknown option", "an unknown option")
refused(function() cardiac.simulation{mesh = low, model = "karma", balance = "even"} end,
        "'balance' must be one of tissue, cells", "cardiac.simulation with balance 'even'")

checks.finish()
