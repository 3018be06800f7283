-- Result tables (loaded with require "tables"): a table is a list of rows,
-- each row a Lua table keyed by column name; missing values print as empty
-- CSV fields and as "-" on the terminal.
local T = {}

-- The rule of every writer (cardiac.writable), its error named for the
-- caller's call (level 3: the caller of T.csv or T.plot).
local function writable(path, overwrite, what, fn)
  local ok, err = pcall(cardiac.writable, path, {overwrite = overwrite or false, what = what})
  if not ok then error(fn .. ": " .. tostring(err):gsub("^.-cardiac%.writable: ", ""), 3) end
end

local function cell(v, fmt)
  if v == nil or v ~= v then return nil end
  if type(v) == "number" and math.type(v) == "float" then return (fmt or "%.6g"):format(v) end
  return tostring(v)
end

--- Writes rows to a CSV file with a header of the given columns (rank 0 only
--- under MPI), by the rule of every writer: the folder is created, an
--- existing file is an error unless opts.overwrite. Returns the path.
function T.csv(path, rows, columns, opts)
  writable(path, opts and opts.overwrite, "CSV file", "tables.csv")
  if cardiac.rank ~= 0 then return path end
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

-- One CSV line: quoted fields kept as strings, others as numbers where they are.
local function csv_fields(line)
  local out, pos = {}, 1
  while pos <= #line + 1 do
    if line:sub(pos, pos) == '"' then
      local close = line:find('"', pos + 1, true)
      out[#out + 1] = line:sub(pos + 1, close - 1)
      pos = close + 2
    else
      local comma = line:find(",", pos, true) or (#line + 1)
      local v = line:sub(pos, comma - 1)
      out[#out + 1] = tonumber(v) or v
      pos = comma + 1
    end
  end
  return out
end

--- Reads a CSV file with a header line (as T.csv writes): rows keyed by
--- column name, numbers as numbers, empty fields as "". nil and a message
--- when the file cannot be opened.
function T.read_csv(path)
  local f = io.open(path)
  if not f then return nil, "cannot open " .. path end
  local header = csv_fields(f:read("l") or "")
  local rows = {}
  for line in f:lines() do
    local vals, row = csv_fields(line), {}
    for q, name in ipairs(header) do row[name] = vals[q] end
    rows[#rows + 1] = row
  end
  f:close()
  return rows
end

-- A new table holding the fields of each argument in turn (a later one's
-- field replaces an earlier one's): options over defaults.
function T.merged(...)
  local r = {}
  for q = 1, select("#", ...) do
    for k, v in pairs(select(q, ...) or {}) do r[k] = v end
  end
  return r
end

--- Rows from parallel columns: tables.rows{t = d.t, V = d.V[1]} -> {{t =, V =}, ...},
--- as many rows as the longest column (shorter ones leave gaps).
function T.rows(columns)
  local n
  for _, v in pairs(columns) do n = math.max(n or 0, #v) end
  local rows = {}
  for q = 1, n or 0 do
    rows[q] = {}
    for k, v in pairs(columns) do rows[q][k] = v[q] end
  end
  return rows
end

local function shell_quote(s) return "'" .. tostring(s):gsub("'", "'\\''") .. "'" end

--- Whether gnuplot is on the PATH (tables.plot needs it; a GPU machine may
--- lack it): studies leave their figures out with a note where it is not,
--- and let every other error of tables.plot stop them.
function T.can_plot()
  return os.execute("command -v gnuplot >/dev/null 2>&1") == true
end

--- A PNG line plot of rows with gnuplot (Debian package gnuplot-nox, which
--- `make run` and `make test` install): o.x = column, o.y = column or list of
--- columns, o.title, o.xlabel, o.ylabel, o.style ("linespoints" | "lines" |
--- "points"), o.key (legend place, default "bottom right"), o.size = {width,
--- height} pixels, o.overwrite (an existing file is an error without it, as
--- for every writer). Rows missing a value leave a gap. Rank 0 draws under
--- MPI. Returns path.
function T.plot(path, rows, o)
  assert(type(o) == "table" and o.x and o.y, "tables.plot: give {x = column, y = column(s)}")
  writable(path, o.overwrite, "plot", "tables.plot")
  if cardiac.rank ~= 0 then return path end
  local ys = type(o.y) == "table" and o.y or {o.y}
  local data, script = os.tmpname(), os.tmpname()
  local f = assert(io.open(data, "w"))
  for _, r in ipairs(rows) do
    local vals = {cell(r[o.x]) or "NaN"}
    for q, y in ipairs(ys) do vals[q + 1] = cell(r[y]) or "NaN" end
    f:write(table.concat(vals, " "), "\n")
  end
  f:close()
  local size = o.size or {800, 500}
  local g = assert(io.open(script, "w"))
  g:write(("set terminal pngcairo size %d,%d noenhanced\nset output %q\n"):format(size[1], size[2], path))
  g:write(("set title %q\nset xlabel %q\nset ylabel %q\nset grid\nset key %s\nset datafile missing 'NaN'\n")
    :format(o.title or "", o.xlabel or o.x, o.ylabel or (#ys == 1 and ys[1] or ""), o.key or "bottom right"))
  local parts = {}
  for q, y in ipairs(ys) do
    parts[q] = ("%q using 1:%d with %s title %q"):format(data, q + 1, o.style or "linespoints", y)
  end
  g:write("plot ", table.concat(parts, ", "), "\n")
  g:close()
  local ok = os.execute(("gnuplot %s 2>/dev/null"):format(shell_quote(script)))
  os.remove(data)
  os.remove(script)
  if not ok then
    error(("tables.plot: gnuplot could not draw %s (is it installed? `make run` installs the Debian package "
           .. "gnuplot-nox)"):format(path), 2)
  end
  return path
end

return T
