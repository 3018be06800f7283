-- Probe samples leave memory once the open output file has them, and
-- probe:data / probe:csv read them back from it; closing the output brings
-- them back into memory (the closed file may then go). The series are those
-- of the same run without an output file, sample for sample, while the
-- output is open, after it closed, after the closed file was deleted, and
-- with a second output file (which holds the whole series); on every backend
-- this build has and this machine can run (the GPU fills its rows at each sync).
local checks = require "checks"
local check = checks.check
local dir = os.getenv("CARDIAC_TEST_TMP") or "/tmp"
-- one name on every rank (under mpirun the ranks write one file together)
local tag = dir .. "/probe_memory"

local backends = {"cpu"}
if cardiac.gpu() then backends[2] = "cuda" end
local backend

local function make()
  local m = cardiac.mesh{n = {40, 20}, dx = 0.25}
  local s = cardiac.simulation{mesh = m, model = cardiac.model("karma"), dt = 0.05, D = 0.1, backend = backend}
  s:set("U", 3.0, cardiac.slab{axis = "x", from = 0, to = 1})
  local p = s:probe{name = "line", cells = {{5, 5}, {20, 10}, {38, 18}}, vars = {"U", "v"}}
  return s, p
end

local function same(a, b)
  if #a.t ~= #b.t then return false, ("%d samples against %d"):format(#a.t, #b.t) end
  for q = 1, #a.t do
    if a.t[q] ~= b.t[q] then return false, ("time %d: %g against %g"):format(q, a.t[q], b.t[q]) end
    for _, v in ipairs{"U", "v"} do
      for c = 1, 3 do
        if a[v][c][q] ~= b[v][c][q] then
          return false, ("%s of cell %d at sample %d: %g against %g"):format(v, c, q, a[v][c][q], b[v][c][q])
        end
      end
    end
  end
  return true, ""
end

for _, name in ipairs(backends) do
  backend = name
  local tag = tag .. "_" .. name
  local ref_sim, ref = make()
  ref_sim:run(120)
  local want = ref:data()

  local s, p = make()
  s:output{file = tag .. "_a.h5", interval = 10, vars = {"U"}, overwrite = true}
  s:run(60)
  check(p.nsamples == 1201 and p.held < 100, "%s: 60 ms written every 10 ms: %d samples, %d in memory", name,
        p.nsamples, p.held)
  local half = p:data()
  check(#half.t == 1201 and half.U[2][1201] == want.U[2][1201] and half.t[1] == want.t[1],
        "%s: data() with the output open reads the written samples back (%d)", name, #half.t)
  s:close_output()
  check(p.held == 1201, "%s: after close_output the %d samples are in memory again (%d)", name, p.nsamples, p.held)
  if cardiac.rank == 0 then os.remove(tag .. "_a.h5") end
  s:output{file = tag .. "_b.h5", interval = 10, vars = {"U"}, overwrite = true}
  s:run(60)
  check(p.held < 100, "%s: with a second output file they leave memory again (%d held)", name, p.held)
  local ok, why = same(p:data(), want)
  check(ok, "%s: data() with the second file open equals the run without output %s", name, why)
  s:close_output()
  -- the files are rank 0's to read and delete (under mpirun the others go on)
  if cardiac.rank == 0 then
    local t = cardiac.h5read(tag .. "_b.h5", "/probes/line/time")
    check(#t == #want.t and t[1] == want.t[1], "%s: the second file holds the whole series (%d of %d samples)",
          name, #t, #want.t)
    os.remove(tag .. "_b.h5")
  end
  ok, why = same(p:data(), want)
  check(ok, "%s: data() after both files closed and deleted equals the run without output %s", name, why)
  p:csv(tag .. ".csv", {overwrite = true})
  if cardiac.rank == 0 then
    local rows = 0
    for _ in io.lines(tag .. ".csv") do rows = rows + 1 end
    check(rows == #want.t + 1, "%s: probe:csv writes every sample (%d rows + header, %d lines)", name, #want.t, rows)
    for _, f in ipairs{"_a.xmf", "_b.h5", "_b.xmf", ".csv"} do os.remove(tag .. f) end
  end
end
checks.finish()
