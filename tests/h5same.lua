-- Compares datasets of two HDF5 files value by value (bitwise for float32
-- data, read as doubles) without the HDF5 tools, which GPU machines may lack.
--   cardiac tests/h5same.lua A.h5 B.h5 /dataset ...
-- Exits 1 naming the first dataset that differs in shape or values.
local a, b = arg[1], arg[2]
for q = 3, #arg do
  local name = arg[q]
  local da, sa = cardiac.h5read(a, name)
  local db, sb = cardiac.h5read(b, name)
  local same = #da == #db and #sa == #sb
  for r = 1, #sa do same = same and sa[r] == sb[r] end
  for c = 1, #da do
    if not same then break end
    same = da[c] == db[c] or (da[c] ~= da[c] and db[c] ~= db[c])
  end
  if not same then
    io.stderr:write(("%s differs between %s and %s\n"):format(name, a, b))
    os.exit(1)
  end
end
