-- Reproduction: Vasconcellos et al. 2020 (the towerDS multi-GPU paper), the
-- multi-GPU results: fig. 18 (time against the number of GPUs for 256^3,
-- 512^3 and 1024^3, 20,000 Karma steps), table 4 (the times on the 8 P100s of
-- a DGX-1) and table 5 (steps per second). Ours come from the strong-scaling
-- runs of protocols/scaling.lua that `sh scripts/scaling.sh` makes on a machine
-- with several GPUs (one GPU per MPI rank); this script reads their CSV,
-- writes the table and draws our figure 18 (speed-up against GPUs).
--   cardiac protocols/repro_vasconcellos_multigpu.lua [csv] from=SCALING_CSV [png=PATH]
package.path = (arg[0] and arg[0]:match("(.*/)") or "protocols/") .. "../scripts/?.lua;" .. package.path
local R, tables = require "reproduction", require "tables"
local path = arg[1] ~= "-" and arg[1] or nil
local o = R.options(arg, 2, {"from", "png"}, "repro_vasconcellos_multigpu.lua")
assert(o.from, "repro_vasconcellos_multigpu.lua: give from=CSV, the output of scripts/scaling.sh")
local rows = assert(tables.read_csv(o.from))

-- the paper: table 4 (towerDS on 8 P100s, s for 20,000 steps) and table 5
-- (steps per second on one P100 and on 8)
local PAPER = {
  [256] = {s8 = 4.5418, steps1 = 1426, steps8 = 4405},
  [512] = {s8 = 23.0818, steps1 = 178, steps8 = 866},
  [1024] = {s8 = 147.9537, steps8 = 135},
}
-- ms per step of our strong-scaling runs, by size and number of GPUs
local ms, gpu, date, most, layout = {}, nil, nil, 0, nil
for _, r in ipairs(rows) do
  local n = tonumber(tostring(r.case):match("^strong(%d+)$"))
  if n then
    ms[n] = ms[n] or {}
    ms[n][r.ranks] = r.ms_per_step
    gpu, date, most = r.gpu, r.date, math.max(most, r.ranks)
    layout = tostring(r.layout or "naive")   -- rows before the layout column ran naive
  end
end
assert(most > 1, "repro_vasconcellos_multigpu: " .. o.from .. " has no strong-scaling run on several GPUs")

local out = R.new(path)
for _, n in ipairs{256, 512, 1024} do
  local m, p = ms[n], PAPER[n]
  if m and m[most] then
    out:row{quantity = ("%d^3: 20,000 steps on the most GPUs"):format(n), paper = p.s8, ours = m[most] * 20,
            units = "s", note = ("paper: 8 P100s (DGX-1), towerDS; ours: %d x %s, %s layout, z slabs"):format(most, gpu, layout)}
    out:row{quantity = ("%d^3: steps per second on the most GPUs"):format(n), paper = p.steps8,
            ours = 1000 / m[most], units = "1/s", note = ("paper: 8 P100s; ours: %d GPUs"):format(most)}
    if m[1] then
      out:row{quantity = ("%d^3: steps per second on one GPU"):format(n), paper = p.steps1 or "-", ours = 1000 / m[1],
              units = "1/s", note = "paper: one P100 (table 5)"}
      for P = 2, most do
        if m[P] then
          out:row{quantity = ("%d^3: speed-up on %d GPUs"):format(n, P), paper = P == 4 and "almost 4 (fig. 18)" or "fig. 18",
                  ours = m[1] / m[P], units = "", note = ("parallel efficiency %.0f%%"):format(100 * m[1] / m[P] / P)}
        end
      end
    end
  end
end
out:write(gpu .. (most > 1 and (" x %d"):format(most) or ""), date)

-- our figure 18: speed-up against GPUs, one curve per size, and the ideal line
if o.png then
  local fig = {}
  for P = 1, most do
    if ms[256] and ms[256][P] then
      local r = {gpus = P, ideal = P}
      for _, n in ipairs{256, 512, 1024} do
        if ms[n] and ms[n][1] and ms[n][P] then r[n .. "^3"] = ms[n][1] / ms[n][P] end
      end
      fig[#fig + 1] = r
    end
  end
  if not tables.can_plot() then print("no figure " .. o.png .. ": gnuplot is not installed") return end
  tables.plot(o.png, fig, {x = "gpus", y = {"256^3", "512^3", "1024^3", "ideal"},
                           xlabel = "GPUs", ylabel = "speed-up over one GPU", key = "top left",
                           title = ("Karma fp32, 20,000 steps, %s (paper fig. 18: 8 P100s)"):format(gpu)})
  print("wrote " .. o.png)
end
