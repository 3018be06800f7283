-- Result tables (loaded with require "tables"): a table is a list of rows,
-- each row a Lua table keyed by column name; missing values print as empty
-- CSV fields and as "-" on the terminal.
local T = {}

local function cell(v, fmt)
  if v == nil or v ~= v then return nil end
  if type(v) == "number" and math.type(v) == "float" then return (fmt or "%.6g"):format(v) end
  return tostring(v)
end

--- Writes rows to a CSV file with a header of the given columns (rank 0 only
--- under MPI); creates the results folder when needed. Returns the path.
function T.csv(path, rows, columns)
  if cardiac.rank ~= 0 then return path end
  local dir = path:match("^(.*)/[^/]*$")
  if dir then os.execute(("mkdir -p '%s'"):format(dir)) end
  local f = assert(io.open(path, "w"))
  f:write(table.concat(columns, ","), "\n")
  for _, r in ipairs(rows) do
    local out = {}
    for q, c in ipairs(columns) do out[q] = cell(r[c]) or "" end
    f:write(table.concat(out, ","), "\n")
  end
  f:close()
  return path
end

--- The rows as aligned text with a header line; fmt formats numbers (default %.4g).
function T.format(rows, columns, fmt)
  local width, text = {}, {}
  for q, c in ipairs(columns) do width[q] = #c end
  for i, r in ipairs(rows) do
    text[i] = {}
    for q, c in ipairs(columns) do
      text[i][q] = cell(r[c], fmt or "%.4g") or "-"
      width[q] = math.max(width[q], #text[i][q])
    end
  end
  local lines = {}
  local function line(vals)
    local parts = {}
    for q, v in ipairs(vals) do parts[q] = (" "):rep(width[q] - #v) .. v end
    lines[#lines + 1] = table.concat(parts, "  ")
  end
  line(columns)
  for _, t in ipairs(text) do line(t) end
  return table.concat(lines, "\n")
end

return T
