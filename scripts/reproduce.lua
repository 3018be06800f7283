-- `make reproduce`: runs the reproductions of the papers' tables and figures
-- that this machine can run, keeps each one's table in
-- docs/data/reproductions/<name>.csv (paper and ours side by side, with the
-- machine and date), and regenerates docs/reproductions.md from all of them.
-- Parts that need a GPU are skipped without one and keep their last
-- measurement, which the document shows with its machine and date.
--   cardiac scripts/reproduce.lua [name ...]     (default: every item)
local tables = require "tables"
cardiac.quiet = true

local items = {
  {name = "thesis_karma", title = "Karma on a cube: stencil order and 1 s of activity at 256^3 and 512^3",
   source = "Vasconcellos 2019 (PhD thesis), tables 5.2, 5.4, 5.6", needs = "gpu",
   script = "protocols/repro_thesis_karma.lua", args = {},
   remark = "Table 5.2 times the thesis' stencil kernel alone (eqs. 5.1-5.2); our step includes the Karma model. "
            .. "The 20,000-step times are the wall clock of `sim:step(20000)` after 100 warm-up steps. The "
            .. "planar wave has left the cube by the end of the second (U = 0 everywhere), as it should."},
  {name = "thesis_spiral", title = "Scroll wave from an S2 at step 8,500",
   source = "Vasconcellos 2019, eq. 5.7 and fig. 5.11", needs = "gpu",
   script = "protocols/repro_thesis_spiral.lua", args = {},
   remark = "With the S2 at the thesis' step 8,500 (425 ms) nothing re-enters here: the S2 region has "
            .. "recovered from the planar wave, the S2 wave runs once through the cube (two activations at the "
            .. "probe) and the cube is at rest at 1 s. The thesis' figure shows a scroll wave, so its planar "
            .. "wave's back must still have been at the S2 region at step 8,500; ours passes it at step 3,200 "
            .. "(160 ms). Applied then, the same S2 starts a scroll wave that re-excites every cell until the "
            .. "end (period about 30 ms at the probe). The difference in timing is not explained: the thesis "
            .. "gives the Karma equations (2.11-2.12, with an excitation term that differs from Karma's paper, "
            .. "docs/models.md), dt and D dt / h^2 = 0.02, but not the values of gamma, v*, M and epsilon it "
            .. "used; ours are Karma's (docs/models.md), with its time unit taken as 1 ms."},
  {name = "thesis_heart_fraction", title = "blockDS: the fraction of the heart's box stored, per block size",
   source = "Vasconcellos 2019, section 5.4.2 and fig. 5.12", needs = "cpu",
   script = "protocols/repro_thesis_heart.lua", args = {"fraction"}},
  {name = "thesis_heart_timing", title = "O'Hara-Rudy on the heart: 20,000 steps with and without blockDS",
   source = "Vasconcellos 2019, tables 5.7-5.8", needs = "gpu",
   script = "protocols/repro_thesis_heart.lua", args = {"timing"},
   remark = "Blocks of 2^3 are the fastest on the H100 (docs/performance.md, protocols/block_size.lua); the "
            .. "thesis' best blockDS block size on the P100 is in its fig. 5.14. The issue's goal for ORd fp64, "
            .. "under 30 s, is not reached."},
  {name = "unat_aliev_panfilov", title = "Aliev-Panfilov on one GPU: running times and GFlop/s",
   source = "Unat, Cai and Baden (Aliev-Panfilov on GPUs), tables 1-2, one-GPU rows", needs = "gpu",
   script = "protocols/repro_unat_aliev_panfilov.lua", args = {},
   remark = "The paper ran T = 1000 model time units in the iteration counts of its table 1; ours are the "
            .. "per-step time times those counts (the step's cost does not depend on dt). Its multi-GPU rows "
            .. "(2 and 4 C1060s, 16K^2 on 4) are not reproduced here."},
  {name = "multigpu_scaling", title = "Karma on several GPUs (strong scaling)",
   source = "Vasconcellos et al. 2020 (towerDS multi-GPU paper), scaling figure", needs = "several GPUs",
   text = "Run with `scripts/scaling.sh` on a machine with 2-4 GPUs; the last measurement (4 H200s) is in "
          .. "docs/mpi.md and docs/data/scaling-h200x4.csv. Not rerun by `make reproduce`."},
  {name = "calcium_cv", title = "Calcium model: CV against dyads and against Dz; RyR opening",
   source = "Altanaite 2017 (MSc thesis), sections 7.1-7.2", needs = "the calcium model",
   text = "Needs the stochastic calcium-release model (issue 6), which is not built yet."},
}

local function copy(from, to)
  local a = assert(io.open(from, "rb"))
  local data = a:read("a")
  a:close()
  local b = assert(io.open(to, "wb"))
  b:write(data)
  b:close()
end

local function command(it)
  local c = ("build/cardiac %s results/reproduce/%s.csv %s"):format(it.script, it.name, table.concat(it.args, " "))
  return (c:gsub("%s+$", ""))
end

-- which items to run
local wanted = {}
for _, a in ipairs(arg or {}) do wanted[a] = true end
local has_gpu = cardiac.gpu() ~= nil
os.execute("mkdir -p results/reproduce docs/data/reproductions")
for _, it in ipairs(items) do
  if it.script and (next(wanted) == nil or wanted[it.name]) then
    if it.needs == "gpu" and not has_gpu then
      print(("skip %-22s needs a GPU (keeping docs/data/reproductions/%s.csv)"):format(it.name, it.name))
    else
      print(("run  %-22s %s"):format(it.name, command(it)))
      local out = ("results/reproduce/%s.csv"):format(it.name)
      arg = {out, table.unpack(it.args)}
      local ok, err = pcall(dofile, it.script)
      if ok then copy(out, ("docs/data/reproductions/%s.csv"):format(it.name))
      else print(("FAIL %s: %s"):format(it.name, tostring(err))) end
    end
  end
end

-- the document
local doc = {[[
# Reproductions

The papers' tables and figures that `cardiac` reproduces, each with the command that makes it,
the published number and ours side by side. Generated by `make reproduce`
(`build/cardiac scripts/reproduce.lua`), which reruns what the machine can run and keeps the
last measurement of the rest (each table names its machine and date). Sources:
`../shared/papers/` (the PhD thesis is in Portuguese; table and figure numbers are the thesis').
Our GPU is an NVIDIA H100 (the thesis used a Tesla P100, 2016, whose memory bandwidth is 732 GB/s by its
specification, about a quarter of the H100's), so timings are compared as figures of the tool, not of the hardware.
]]}
for _, it in ipairs(items) do
  doc[#doc + 1] = ("## %s\n\nSource: %s. Needs: %s.\n"):format(it.title, it.source, it.needs)
  if it.text then
    doc[#doc + 1] = it.text .. "\n"
  else
    doc[#doc + 1] = ("Command: `%s`\n"):format(command(it))
    local rows = tables.read_csv(("docs/data/reproductions/%s.csv"):format(it.name))
    if not rows or #rows == 0 then
      doc[#doc + 1] = "Not measured yet (run `make reproduce` on a machine with what it needs).\n"
    else
      doc[#doc + 1] = ("Measured on %s, %s.\n"):format(rows[1].machine or "?", rows[1].date or "?")
      doc[#doc + 1] = "| quantity | paper | ours | units | note |\n|---|---|---|---|---|"
      for _, r in ipairs(rows) do
        local ours = type(r.ours) == "number" and ("%.4g"):format(r.ours) or (r.ours or "")
        doc[#doc + 1] = ("| %s | %s | %s | %s | %s |"):format(r.quantity or "", r.paper or "", ours, r.units or "",
                                                               r.note or "")
      end
      doc[#doc + 1] = ""
    end
    if it.remark then doc[#doc + 1] = it.remark .. "\n" end
  end
end
local f = assert(io.open("docs/reproductions.md", "w"))
f:write(table.concat(doc, "\n"), "\n")
f:close()
print("wrote docs/reproductions.md")
