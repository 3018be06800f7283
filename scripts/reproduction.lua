-- One reproduction's table (loaded with require "reproduction"): rows of a
-- published number next to ours, written as CSV with the machine and date,
-- for scripts/reproduce.lua to gather into docs/reproductions.md.
local R = {}

--- The machine a figure comes from: the GPU's name (unless cpu_only), or the CPU's.
function R.machine(cpu_only)
  local g = not cpu_only and cardiac.gpu()
  if g then return g.name end
  local f = io.open("/proc/cpuinfo")
  local cpu = f and f:read("a"):match("model name%s*:%s*([^\n]+)")
  if f then f:close() end
  return "CPU: " .. (cpu or "unknown")
end

--- A table writing to path (nil: print only). t:row{quantity =, paper =,
--- ours =, units =, note =}; t:write() writes the CSV and prints the table;
--- t:write(machine, date) names the machine and date of figures read from an
--- earlier run's files instead of this one's. cpu_only: the figures do not
--- involve the GPU (name the CPU).
function R.new(path, cpu_only)
  local t = {rows = {}, path = path, cpu_only = cpu_only}
  function t:row(r) self.rows[#self.rows + 1] = r end
  function t:write(machine, date)
    local tables = require "tables"
    machine, date = machine or R.machine(self.cpu_only), date or os.date("!%Y-%m-%d")
    for _, r in ipairs(self.rows) do r.machine, r.date = machine, date end
    local cols = {"quantity", "paper", "ours", "units", "note"}
    print(tables.format(self.rows, cols))
    if self.path and (cardiac.rank or 0) == 0 then      -- under mpirun, one file from rank 0
      local quoted = {}
      for q, r in ipairs(self.rows) do
        quoted[q] = {}
        for k, v in pairs(r) do quoted[q][k] = type(v) == "string" and ('"' .. v:gsub('"', "'") .. '"') or v end
      end
      local cols, seen, extra = {"quantity", "paper", "ours", "units", "note", "machine", "date"}, {}, {}
      for _, c in ipairs(cols) do seen[c] = true end
      for _, r in ipairs(self.rows) do                 -- a script's own columns, after these
        for k in pairs(r) do if not seen[k] then seen[k] = true; extra[#extra + 1] = k end end
      end
      table.sort(extra)
      table.move(extra, 1, #extra, #cols + 1, cols)
      tables.csv(self.path, quoted, cols, {overwrite = true})
    end
  end
  return t
end

--- The key=value arguments arg[first..] of a script as a table; a key not in
--- `known` is an error that names the script and the argument.
function R.options(args, first, known, script)
  local o, ok = {}, {}
  for _, k in ipairs(known) do ok[k] = true end
  for q = first, #args do
    local k, v = args[q]:match("^([%w_]+)=(.*)$")
    assert(k and ok[k], ("%s: unknown option %s (known: %s)"):format(script, args[q], table.concat(known, ", ")))
    o[k] = v
  end
  return o
end

return R
