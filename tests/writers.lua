-- No writer replaces an output file that a live simulation is still writing
-- (core/io/output_paths.h). A checkpoint written with overwrite = true onto the
-- simulation's own open output used to replace it through its temporary file
-- and rename: every frame was gone, the .xmf listed frames that no longer
-- existed, and it reported success. Every writer is checked: checkpoints,
-- pictures, maps files, probe and ECG CSVs, the Lua tables, another output;
-- on the HDF5 file and on its XDMF sidecar, under any spelling of the path.
local checks = require "checks"
local check = checks.check

os.execute("mkdir -p results")
local file, xmf = "results/writers_run.h5", "results/writers_run.xmf"
local mesh = cardiac.mesh{n = {20, 20}, dx = 0.5}
local sim = cardiac.simulation{mesh = mesh, model = "aliev_panfilov", dt = 0.05, D = 0.1}
sim:output{file = file, interval = 1, overwrite = true}
local probe = sim:probe{name = "p", cells = {{2, 2}}, vars = {"V"}}
local lat = sim:activation{}
local ecg = sim:ecg{electrodes = {{5, 5, 5}}}
sim:run(5)
local t = cardiac.h5read(file, "time")
local frames = #t

local function refused(what, f, ...)
  local ok, err = pcall(f, ...)
  check(not ok and tostring(err):find("still writing", 1, true),
        "%s onto the open output is refused: %s", what, tostring(err))
end
refused("sim:checkpoint with overwrite = true", sim.checkpoint, sim, file, {overwrite = true})
refused("sim:checkpoint onto the XDMF sidecar", sim.checkpoint, sim, xmf, {overwrite = true})
refused("sim:checkpoint under another spelling", sim.checkpoint, sim, "./results/../results/writers_run.h5",
        {overwrite = true})
refused("sim:png", sim.png, sim, file, {overwrite = true})
refused("maps:write", lat.write, lat, file, {overwrite = true})
refused("maps:write whose sidecar is the output's", lat.write, lat, "results/writers_run.maps", {overwrite = true})
refused("probe:csv", probe.csv, probe, xmf)
refused("ecg:csv", ecg.csv, ecg, file)
refused("tables.csv", (require "tables").csv, file, {{a = 1}}, {"a"})
local other = cardiac.simulation{mesh = mesh, model = "aliev_panfilov", dt = 0.05, D = 0.1}
refused("another simulation's output", other.output, other, {file = file, interval = 1, overwrite = true})

sim:run(2)
t = cardiac.h5read(file, "time")
check(#t == frames + 2, "the output kept its %d frames and went on (%d frames after 2 ms more)", frames, #t)
sim:close_output()
local x = assert(io.open(xmf)):read("a")
local listed = select(2, x:gsub("<Time Value", ""))
check(listed == #t, "closed, its XDMF sidecar lists the %d frames the file holds (%d)", #t, listed)

local ok, err = pcall(sim.checkpoint, sim, file, {overwrite = true})
check(ok, "after sim:close_output() the path may be overwritten (%s)", tostring(err))

-- one rule for every writer: the folder is created, an existing file (or the
-- sidecar a file brings) is refused unless overwrite = true (CSV writers,
-- plots and sidecars used to overwrite silently)
local tables = require "tables"
local dir = "results/writers_rule_" .. os.time()
local writers = {
  {"probe:csv", function(p, o) return probe:csv(p, o) end, "csv"},
  {"ecg:csv", function(p, o) return ecg:csv(p, o) end, "csv"},
  {"tables.csv", function(p, o) return tables.csv(p, {{a = 1}}, {"a"}, o) end, "csv"},
  {"sim:png", function(p, o) return sim:png(p, o) end, "png"},
  {"maps:write", function(p, o) return lat:write(p, o) end, "h5"},
  {"sim:checkpoint", function(p, o) return sim:checkpoint(p, o) end, "h5"},
}
for q, w in ipairs(writers) do
  local path = ("%s/sub%d/out.%s"):format(dir, q, w[3])
  local first = pcall(w[2], path, nil)
  check(first and io.open(path) ~= nil, "%s creates the missing folder of %s", w[1], path)
  local again, e = pcall(w[2], path, nil)
  check(not again and tostring(e):find("exists; pass overwrite = true", 1, true),
        "%s refuses the existing file without overwrite: %s", w[1], tostring(e))
  local over = pcall(w[2], path, {overwrite = true})
  check(over, "%s replaces it with overwrite = true", w[1])
end
local stray = dir .. "/stray.xmf"
assert(io.open(stray, "w")):close()
local bring, e = pcall(lat.write, lat, dir .. "/stray.h5")
check(not bring and tostring(e):find("would replace the existing", 1, true),
      "a file whose sidecar (.xmf) exists is refused without overwrite: %s", tostring(e))
os.execute("rm -rf " .. dir)
checks.finish()
