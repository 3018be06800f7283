-- No writer replaces an output file that a live simulation is still writing
-- (core/open_outputs.h). A checkpoint written with overwrite = true onto the
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
checks.finish()
