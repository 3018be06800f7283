-- The scaling CSV of protocols/scaling.lua as a markdown table with parallel
-- efficiencies: strong scaling t1 / (P tP), weak scaling t1 / tP.
--   cardiac scripts/scaling_table.lua results/scaling.csv    prints it
--   require("scaling_table")(path) -> lines                  (scripts/performance_doc.lua)
local function table_lines(path)
local out = {}
local function print(s) out[#out + 1] = s end
local rows, cols = {}, nil
for line in io.lines(path) do
  local vals = {}
  for v in (line .. ","):gmatch('("?[^,]*"?),') do vals[#vals + 1] = v:gsub('^"(.*)"$', "%1") end
  if not cols then cols = vals
  else
    local r = {}
    for q, c in ipairs(cols) do r[c] = tonumber(vals[q]) or vals[q] end
    rows[#rows + 1] = r
  end
end
-- rows written before the layout column ran the only layout then decomposed
for _, r in ipairs(rows) do r.layout = r.layout or "naive" end
local one = {}
for _, r in ipairs(rows) do if r.ranks == 1 then one[r.case .. r.layout] = r.ms_per_step end end
print("| case | GPUs | layout | grid | ms/step | 20,000 steps | efficiency | exchange ms/step (share) |")
print("|---|---|---|---|---|---|---|---|")
for _, r in ipairs(rows) do
  local t1 = one[r.case .. r.layout]
  local eff = t1 and (r.case:match("^weak") and t1 / r.ms_per_step or t1 / (r.ranks * r.ms_per_step))
  print(("| %s | %d | %s | %dx%dx%d | %.4f | %.2f s | %s | %.4f (%.0f%%) |"):format(r.case, r.ranks, r.layout, r.nx, r.ny, r.nz,
    r.ms_per_step, r.s_20k, eff and ("%.0f%%"):format(100 * eff) or "-", r.exchange_ms,
    100 * r.exchange_ms / r.ms_per_step))
end
if rows[1] then
  print("")
  print(("%d x %s, %s. Command: `sh scripts/scaling.sh` (runs `mpirun -np P cardiac protocols/scaling.lua` for "
         .. "P = 1, 2, ...). Exchange: ms per step the halo exchange adds over the same steps without it (the "
         .. "communication compute did not hide)."):format(rows[#rows].ranks, rows[1].gpu, rows[1].date))
end
return out
end

if arg and arg[0] and arg[0]:match("scaling_table%.lua$") then
  for _, l in ipairs(table_lines(assert(arg[1], "usage: scaling_table.lua CSV"))) do io.write(l, "\n") end
else
  return table_lines
end
