-- The fraction of the heart's box that blockDS stores and computes, per
-- block size (thesis fig. 5.12; Vasconcellos 2019, section 5.4.2), on the
-- synthetic bi-ventricular heart of protocols/ord_heart.lua (250 x 326 x 298
-- cells, 26.9% tissue). Columns:
--   stored   blocks with tissue, of the blocks in the box
--   fraction cells stored (and stepped) / cells in the box: fig. 5.12
--   fill     tissue cells / cells stored
--   computed cells in warps that hold tissue / cells in the box: the lanes a
--            one-thread-per-cell GPU kernel keeps busy (a warp without
--            tissue exits at once; one with some tissue costs all 32 lanes)
-- The last row is the whole box in row-major order with the naive kernel's
-- warps (32 cells along x), for comparison.
--   cardiac protocols/blockds_fraction.lua [scale] [csv]
local scale = tonumber(arg and arg[1]) or 1
local csv = arg and arg[2]
local n = {math.floor(250 * scale + 0.5), math.floor(326 * scale + 0.5), math.floor(298 * scale + 0.5)}
cardiac.quiet = true
local mesh = cardiac.mesh{n = n, dx = 0.5 / scale, tissue = cardiac.biventricle()}
print(("heart %dx%dx%d: %d of %d cells are tissue (%.1f%%)"):format(n[1], n[2], n[3], mesh.tissue, mesh.ncells,
  100 * mesh.tissue / mesh.ncells))
local sizes = {{2, 2, 2}, {4, 4, 4}, {8, 8, 8}, {16, 16, 16}, {32, 32, 32}, {8, 4, 4}, {16, 4, 4}, {32, 4, 2},
               {32, 8, 8}}
local rows = {}
print(("%-10s %15s %9s %6s %9s"):format("block", "stored", "fraction", "fill", "computed"))
local function row(label, r)
  print(("%-10s %7d/%-7d %9.3f %6.3f %9.3f"):format(label, r.stored, r.blocks, r.fraction, r.fill, r.computed))
  rows[#rows + 1] = ("%s,%d,%d,%.4f,%.4f,%.4f"):format(label, r.blocks, r.stored, r.fraction, r.fill, r.computed)
end
for _, b in ipairs(sizes) do row(table.concat(b, "x"), mesh:blocks(b)) end
local whole = mesh:blocks(n)      -- one block: the whole box
whole.computed = mesh:blocks{32, 1, 1}.computed
row("whole box", whole)
if csv then
  local f = assert(io.open(csv, "w"))
  f:write("block,blocks,stored,fraction,fill,computed\n", table.concat(rows, "\n"), "\n")
  f:close()
end
