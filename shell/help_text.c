/* The text behind help(): one entry per API object, function and method.
 * docs/user-guide.md expands on the same API with longer examples. */
#include <stddef.h>
#include "help_text.h"

const help_entry help_entries[] = {
{"cardiac",
"cardiac: scriptable cardiac electrophysiology (monodomain reaction-diffusion).\n"
"Objects:   cardiac.mesh  cardiac.model  cardiac.stimulus  cardiac.simulation\n"
"Regions:   cardiac.slab  cardiac.box  cardiac.sphere  cardiac.cylinder  cardiac.biventricle\n"
"           cardiac.cells  cardiac.points  cardiac.where  cardiac.everywhere  cardiac.layer\n"
"Functions: cardiac.models  cardiac.h5read  cardiac.clock  cardiac.version  cardiac.quiet  cardiac.rank\n"
"Libraries: require \"pacing\" (trains, S1-S2, restitution), \"sweep\", \"ensemble\", \"measure\", \"tables\"\n"
"Use help(\"cardiac.mesh\"), help(obj) or help(obj.method) for details.\n"
"Units: mm, ms, D in mm^2/ms; stimulus amplitudes in the model's V units per ms."},
{"cardiac.version", "cardiac.version: version string of this program."},
{"cardiac.clock", "cardiac.clock() -> seconds of a monotonic wall clock (for timing runs; os.clock is CPU time)."},
{"cardiac.quiet", "cardiac.quiet = true: no progress line during runs (default: shown on a terminal)."},
{"cardiac.models", "cardiac.models() -> list of model names: @models@."},
{"cardiac.h5read",
"cardiac.h5read(file, dataset) -> values, dims\n"
"  Reads a whole HDF5 dataset as a flat list (last index fastest) and its dimensions.\n"
"  e.g. local v, d = cardiac.h5read(\"results/run.h5\", \"/fields/U\")"},
{"cardiac.mesh",
"cardiac.mesh{n = {nx [, ny [, nz]]}, dx = h | {hx, hy, hz} [, tissue = region]}\n"
"  or  cardiac.mesh{size = {Lx, ...}, dx = h}\n"
"  or  cardiac.mesh{file = \"heart.h5\", dataset = \"/mesh/mask\", threshold = 0.5, dx = h [, phase = true]}\n"
"  or  cardiac.mesh{n = {...}, dx = h, phase = function(x, y, z) -> phi [, threshold = 0.0005]}\n"
"  A structured 1D/2D/3D grid of cells; spacing in mm. Cell (i, j, k) is 1-based and its\n"
"  centre lies at ((i - 1/2) dx, (j - 1/2) dy, (k - 1/2) dz). All cells start as tissue, or\n"
"  only the cells of `tissue`; from a file, the cells whose value (a 0/1 mask or a phase field,\n"
"  [z][y][x] with x fastest, as cardiac writes /mesh/mask) exceeds the threshold.\n"
"  With a phase field (phase = true with a file, or a function of the cell centre), phi also\n"
"  weights the diffusion (thesis eq. 4.1; CPU backend, stencil 2); tissue where phi > threshold.\n"
"  Fields: dim, n, dx, size (mm), ncells, tissue (number of tissue cells), phase (has one).\n"
"  Methods: locate, coord, set_tissue, is_tissue, count, blocks, decompose, stack.\n"
"  e.g. m = cardiac.mesh{n = {200, 200}, dx = 0.25}"},
{"mesh:locate", "mesh:locate(x [, y [, z]]) -> i [, j [, k]]: the cell containing a point (mm), nil if outside."},
{"mesh:coord", "mesh:coord(i [, j [, k]]) -> x [, y [, z]]: centre of a cell (mm)."},
{"mesh:set_tissue",
"mesh:set_tissue(region | function(x, y, z) -> bool [, value = true]) -> count\n"
"  Marks the cells of a region as tissue (true) or not (false). Diffusion has no flux\n"
"  across the border of the tissue. e.g. m:set_tissue(cardiac.sphere{center = {5, 5}, radius = 2}, false)"},
{"mesh:is_tissue", "mesh:is_tissue(i [, j [, k]]) -> bool"},
{"mesh:count", "mesh:count(region) -> number of tissue cells in the region."},
{"mesh:blocks", "mesh:blocks(b | {bx, by, bz}) -> {size, blocks, stored, cells, fraction, fill, computed}:\n"
"  what blockDS storage with blocks of that size would hold (thesis fig. 5.12): blocks in the box,\n"
"  blocks stored (those with tissue), cells stored, their fraction of the box, tissue / stored,\n"
"  and the fraction of the box in GPU warps (32 stored cells) that hold tissue."},
{"mesh:decompose", "mesh:decompose(ranks [, {decomp = {px, py, pz}, balance = \"tissue\" | \"cells\", ghost = 1}])\n"
"  -> {dims, cuts, balance, tissue}: how a simulation on this mesh would be split over that\n"
"  many MPI ranks (sim.decomp in such a job), planned here without MPI: ranks per axis, each\n"
"  axis' cuts (0-based cells), and the tissue cells of each rank's part in rank order. ghost:\n"
"  the least thickness of a part (1; 2 for stencil = 4; K for layout \"tplane\")."},
{"mesh:stack", "mesh:stack(m) -> a mesh of one dimension more whose m layers along its new last axis are\n"
"  copies of this 1D or 2D mesh (mask and phase field): the grid of an ensemble of m members\n"
"  (require \"ensemble\"; cardiac.simulation{..., members = m})."},
{"cardiac.model",
"cardiac.model(name [, {param = value, ...}])\n"
"  A cell model with parameter values. Models: see cardiac.models().\n"
"  Fields: name, title, citation, nstate, cell, cells, vmin and vmax (typical range of\n"
"  the potential), activation (its upstroke threshold), potential (the name of its V state).\n"
"  Methods: states, params, rest, get, set, trace.\n"
"  e.g. k = cardiac.model(\"karma\", {eps = 0.01})"},
{"model:states", "model:states() -> list of {name, units, description, rest, mixed_float, half, fraction, slow} of the\n"
 "  state variables (mixed_float: the state's values are floats in precision \"mixed\", and the GPU stores it in float;\n"
 "  half: the state is held in IEEE half in precisions \"fp32h\" and \"fp32g\";\n"
 "  fraction: the state is held as a 16-bit fraction of [0, 1] in precision \"fp32g\";\n"
 "  slow: the state changes every m-th step only in a simulation with multirate = m)."},
{"model:params", "model:params() -> list of {name, value, default, units, description}."},
{"model:rest", "model:rest() -> {state = resting value, ...}"},
{"model:get", "model:get(name) -> value of a parameter."},
{"model:set", "model:set(name, value) or model:set{name = value, ...}: changes parameters; returns the model."},
{"model:trace",
"model:trace{t = ms, dt = 0.01, stimulus = {amplitude, duration, start = 0, period, count = 1},\n"
"            every = 1, state = {var = value}} -> {t = {...}, <state> = {...}}\n"
"  Runs a single cell (no diffusion) and returns its time series: an action potential trace.\n"
"  e.g. tr = cardiac.model(\"aliev_panfilov\"):trace{t = 500, stimulus = {amplitude = 50, duration = 1}}"},
{"cardiac.slab", "cardiac.slab{axis = \"x\" | \"y\" | \"z\", from = mm, to = mm}: cells whose centre lies between two planes."},
{"cardiac.box", "cardiac.box{min = {x0, y0 [, z0]}, max = {x1, y1 [, z1]}}: cells whose centre lies in the box (mm)."},
{"cardiac.sphere", "cardiac.sphere{center = {x, y [, z]}, radius = mm}: a disc in 2D, a sphere in 3D."},
{"cardiac.cylinder", "cardiac.cylinder{center = {x, y [, z]}, axis = \"z\", radius = mm, inner = mm}: the cells at\n"
"  distance inner..radius from the axis through center; a shell when inner > 0 (default 0)."},
{"cardiac.biventricle", "cardiac.biventricle(): a synthetic two-ventricle heart fitted to the mesh's box (base at the\n"
"  top of z); about 27% of a 250 x 326 x 298 box, like the thesis' heart.\n"
"  e.g. heart = cardiac.mesh{n = {250, 326, 298}, dx = 0.5, tissue = cardiac.biventricle()}"},
{"cardiac.cells", "cardiac.cells{{i, j, k}, ...}: explicit cells (1-based indices)."},
{"cardiac.points", "cardiac.points{{x, y, z}, ...}: the cells containing the given points (mm)."},
{"cardiac.where", "cardiac.where(function(x, y, z) return bool end): the cells whose centre satisfies a predicate."},
{"cardiac.everywhere", "cardiac.everywhere(): every tissue cell."},
{"cardiac.layer", "cardiac.layer(k, region | function) -> the region, given on one layer's mesh (an ensemble\n"
"  member's), in layer k of a mesh stacked along its last axis (mesh:stack)."},
{"region:count", "region:count(mesh) -> number of tissue cells of the mesh in the region."},
{"cardiac.stimulus",
"cardiac.stimulus{region = r, amplitude = a, duration = ms, start = 0, period = ms, count = 1}\n"
"cardiac.stimulus{region = r, amplitude = a, duration = ms, times = {t1, t2, ...}}\n"
"  A current added to dV/dt (model V units per ms) in the region during each pulse: a train\n"
"  of count pulses every period ms from start, or pulses at explicit times (S1-S2 protocols).\n"
"  A pulse covering [t, t + duration) acts on the steps that start inside it.\n"
"  Methods: pulses (list of start times), active(t [, dt])."},
{"stimulus:pulses", "stimulus:pulses() -> list of pulse start times (ms)."},
{"stimulus:active", "stimulus:active(t [, dt]) -> whether a pulse is on at time t."},
{"stimulus:layer", "stimulus:layer(k) -> the same stimulus on layer k of a stacked mesh (an ensemble's member k)."},
{"cardiac.simulation",
"cardiac.simulation{mesh = m, model = k | \"name\", dt = 0.05, D = 0.1 | {Dx, Dy, Dz},\n"
"                   stencil = 2 | 4, backend = \"cpu\" | \"cuda\" | \"auto\",\n"
"                   precision = \"fp32\" | \"fp64\" | \"mixed\" | \"fp32h\" | \"fp32g\", layout =,\n"
"                   tsteps =,\n"
"                   decomp = {px, py, pz},\n"
"                   balance = \"tissue\" | \"cells\", blocks = b | {bx, by, bz}, stimuli = {s1, ...},\n"
"                   members = m, multirate = 1, tables = false, quiescent_below = v,\n"
"                   quiescent_diffusion = 0.1, skip_rest = true}\n"
"  The monodomain equation dV/dt = div(D grad V) - Iion + Istim, explicit in time, with\n"
"  no-flux borders. dt in ms, D in mm^2/ms per axis. A dt above the stability limit is refused.\n"
"  A grid too coarse for the model's upstroke (ohara_rudy, gaur_rudy: above 0.25 mm at D = 0.2,\n"
"  scaled by sqrt(D / 0.2); 0.3 mm with stencil = 4) is warned about on stderr: the wave fails\n"
"  or runs more than about 10% slow there (sim.dx_resolved, sim.resolved; docs/models.md).\n"
"  precision \"mixed\" (ohara_rudy): fp64 state and currents, gate kinetics in fp32, gates\n"
"  stored in fp32 on the GPU; 2x faster than fp64 on the GPU heart (docs/models.md).\n"
"  precision \"fp32h\" (ohara_rudy): fp32 with 15 fast gates held in IEEE half (rounded after\n"
"  every step on the CPU, stored so on the GPU); 13% faster than fp32 on the GPU heart, close\n"
"  to it where the wave propagates well, far off at the edge of a dying wave (docs/models.md).\n"
"  precision \"fp32g\" (ohara_rudy): fp32h with its 13 other gates held as 16-bit fractions of\n"
"  [0, 1] too, every gate in 16 bits; needs multirate = 10 or more, which its slow gates need to\n"
"  hold in 16 bits; 10% faster than fp32h with the same multirate on the GPU heart, activation\n"
"  within 0.3 ms of fp64 where the wave propagates well, the furthest off at the edge of a dying\n"
"  wave (docs/models.md, docs/performance.md).\n"
"  multirate = m (ohara_rudy): the model's slow states (model:states(), slow = true: 8 slow\n"
"  gates, 5 concentrations, CaMKt) change only every m-th step, by m times that step's change;\n"
"  the GPU writes them every m-th step only, fewer bytes a step (docs/performance.md); the\n"
"  effect on activation and APD90: docs/models.md, \"Multirate\". 1 (the default): off.\n"
"  tables = true (ohara_rudy, precision \"fp64\"): each gate's Rush-Larsen step from a table\n"
"  over V (rows every 0.05 mV from -200 to +200 mV, interpolated linearly; built from the\n"
"  model's own kinetics for each parameter set and rebuilt when set_param changes them; V\n"
"  beyond the rows takes the end rows'). Faster in fp64 (docs/performance.md); where the wave\n"
"  propagates, activation and APD90 within 0.001 ms of fp64 without tables; at the edge of a\n"
"  failing wave they move cells as much as a 1e-6 to 1e-5 change of g_na does\n"
"  (docs/numerics.md, \"Rate tables\").\n"
"  quiescent_below = v (mV; with multirate = m, not with tables): a cell below v that no\n"
"  stimulus drives and whose diffusion current is under quiescent_diffusion (mV/ms) sits out\n"
"  multirate's holding steps (its V takes the diffusion alone) and advances its ionic state by\n"
"  one step of the elapsed time at the next updating step, or at once when it wakes; on the GPU\n"
"  with blocks (blockDS). Resting tissue moves a fraction of the bytes: a second of the GPU\n"
"  heart in fp32g 7.3 s instead of 12.4 s, activation within 0.03 ms of fp64 (docs/models.md,\n"
"  \"Quiescent cells\"; without the current's bound the wave's foot goes unstepped and arrives\n"
"  late).\n"
"  skip_rest = true (the default; cuda, layout tplane, fp32, karma and mitchell_schaeffer, no\n"
"  mask or regional parameters): planes along z where V is quiet (unchanged in the last step and\n"
"  at most 1e-30: at rest ahead of a wave, settled behind it) and more than tsteps planes from any\n"
"  where it is not are skipped, their other states brought up to date when the wave nears them\n"
"  and at the end of each run or step call; results equal every cell stepped, to the bit. Faster\n"
"  around a wave (docs/gpu.md, \"Resting tissue\"); false: every cell steps, as for timing the\n"
"  step itself. sim.stepped_share: the share of the cell-steps so far that were computed.\n"
"  backend \"auto\" takes the GPU when there is one. layout (cuda only; cardiac.layouts()):@layouts@\n"
"  The default is the fastest measured: tblock with tsteps = 3 on fp32 2D sheets of 3 M cells\n"
"  or more (parameters off their defaults: 5 M, tsteps = 2), tplane on volumes of two-state\n"
"  models without a mask (fp64: tsteps = 2; wider than 256 cells only with 64 rows or more),\n"
"  naive otherwise (docs/gpu.md).\n"
"  blocks (cpu and cuda): blockDS storage, only the blocks of b cells per axis that hold\n"
"  tissue (thesis 4.4; mesh:blocks tells what they store); results equal the whole box's.\n"
"  Under mpirun each rank owns a part of the grid: slabs along the last axis by default,\n"
"  decomp = ranks per axis otherwise (docs/mpi.md); each axis is cut where the parts hold\n"
"  equal tissue (balance = \"tissue\", the default) or into equal sizes (\"cells\"). On the GPU\n"
"  the layout is then naive, tplane or, with blocks, blockDS; with blocks each rank stores the\n"
"  blocks of its part. sim.decomp = {dims, cuts (per axis, 0-based cells), balance, tissue\n"
"  (per rank), whole_on_rank0 (a grid too thin to split: rank 0 computes it)}.\n"
"  members = m: an ensemble (require \"ensemble\" builds one): the mesh's last axis counts m\n"
"  uncoupled members (mesh:stack), D lists a member's axes, and sim:set_D(D, k) gives member k its own.\n"
"  Fields: t, steps, dt, dt_max, D, model, backend, precision, layout, tsteps, blocks, stencil,\n"
"          decomp, output_file, dx_resolved, resolved, running, members, multirate, tables,\n"
"          quiescent_below, quiescent_diffusion, skip_rest, stepped_share.\n"
"  Methods: run, step, get, at, cell, field, stats, diff, set, set_D, member_D, set_param, param,\n"
"           param_sets, clamp, clamp_ryr, add_stimulus, probe, activation, tips, ecg, output, close_output, png, checkpoint,\n"
"           save, restore, benchmark, close; in the background: start, pause, wait, watch."},
{"simulation:run", "sim:run(ms) -> t: advances by ms: the nearest whole number of steps, the remainder carried to the next\n"
"  run, so that short runs add up. Ctrl-C stops at the next step; run again to continue."},
{"simulation:step", "sim:step([n = 1]) -> t: advances n time steps."},
{"simulation:start",
"sim:start(ms): runs ms more in the background and returns at once; sim:start() resumes a paused run.\n"
"  The run steps while the prompt waits for keys (in slices of about 25 ms), so the session stays\n"
"  live: a line typed meanwhile (sim.t, sim:stats, sim:png, sim:set_D, sim:set_param,\n"
"  sim:add_stimulus, sim:clamp, ...) is evaluated whole at the next step boundary, in the order\n"
"  typed, and under mpirun at the same step on every rank. The values equal sim:run's bit for bit.\n"
"  Ctrl-C at the prompt pauses every started run. A script's started runs step in sim:wait() and\n"
"  end before the shell exits. sim:run and sim:step are refused while it runs.\n"
"  e.g. sim:start(1000)  ...  sim:set_D(0.05)  ...  sim:pause()"},
{"simulation:pause", "sim:pause() -> t: stops a started run at the current step boundary; sim:start() resumes it."},
{"simulation:wait", "sim:wait() -> t: steps the started runs (all of them) until this one ends; Ctrl-C pauses them\n"
"  and raises \"interrupted\"."},
{"simulation:watch",
"sim:watch{file = \"wave.png\", every = ms, var = V, z = slice, min =, max =, scale =, overwrite = false}\n"
"  Writes a picture of var now and again every `every` ms of simulated time (sim:run or sim:start),\n"
"  replacing the file each time (a new file, then a rename), so an image viewer open on it shows\n"
"  the wave moving; a z slice in 3D. The same file again changes that watch; sim:watch(false)\n"
"  stops every watch (the file keeps the last picture)."},
{"simulation:get", "sim:get(var, i [, j [, k]]) -> value of a state variable at a cell."},
{"simulation:at", "sim:at(var, x [, y [, z]]) -> value at the cell containing a point (mm)."},
{"simulation:cell", "sim:cell(i [, j [, k]]) -> {state = value, ...}: the whole state of a cell."},
{"simulation:field", "sim:field(var [, region]) -> flat list of a state variable over all cells (x fastest), or over\n"
"  the region's cells (tissue or not) in that order."},
{"simulation:stats", "sim:stats(var [, region]) -> min, max, mean, sum over the tissue (of the region)."},
{"simulation:set",
"sim:set(var, value | function(x, y, z) -> value [, region]) -> count\n"
"  Sets a state variable in a region (default: all tissue); initial conditions.\n"
"  e.g. sim:set(\"U\", 3.0, cardiac.slab{axis = \"x\", from = 0, to = 1})"},
{"simulation:set_D", "sim:set_D(D | {Dx, Dy, Dz} [, member]): changes the diffusion coefficients (mm^2/ms); checked\n"
"  against dt. An ensemble (members = m): D lists a member's axes; with member = k, that member's only."},
{"simulation:member_D", "sim:member_D(k) -> {Dx [, Dy]}: the D of an ensemble's member k (mm^2/ms)."},
{"simulation:set_param",
"sim:set_param(name, value [, region]) or sim:set_param({name = value, cell = preset} [, region])\n"
"  Changes model parameters everywhere, or only in a region's tissue (ischaemic zones,\n"
"  transmural cell types: cell = \"endo\"). Changes compose: a cell in two changed regions has\n"
"  both. Values that would make dt unstable are refused. At most 255 distinct sets.\n"
"  e.g. sim:set_param({ko = 8, g_na = 0.75 * 14.838}, cardiac.sphere{center = {25, 25}, radius = 5})"},
{"simulation:param", "sim:param(name [, x, y, z]) -> a model parameter's value: the simulation's own, or at the\n"
"  cell containing the point (mm)."},
{"simulation:param_sets", "sim:param_sets() -> number of distinct parameter sets in the tissue (1: homogeneous)."},
{"simulation:clamp",
"sim:clamp{region = r, var = \"V\", value = x, start = ms, duration = ms, period =, count = | times = {...}}\n"
"  -> count. Holds a state variable of the region's tissue at value during each pulse (timing as\n"
"  cardiac.stimulus; without duration: from start on, for good). The value is set at every step\n"
"  boundary in the pulse: clamped at rest the region blocks conduction, above threshold it excites."},
{"simulation:clamp_ryr",
"sim:clamp_ryr{region = r, state = \"open\" | \"closed\", start = ms, duration = ms, period =, count = |\n"
"  times = {...}} -> count. Models with calcium release units (gaur_rudy): holds every RyR of the\n"
"  region's cells open (O1) or closed (C1) during each pulse (without duration: from start on)."},
{"simulation:add_stimulus", "sim:add_stimulus(stimulus): adds a stimulus (times are absolute simulation times)."},
{"simulation:probe",
"sim:probe{name =, cells = {{i, j, k}, ...} | points = {{x, y, z}, ...} | region = r,\n"
"          vars = {\"V\", ...}, every = 1 | interval = ms} -> probe\n"
"  Records time series at chosen cells; written to the open output file too, after which\n"
"  they leave memory until it closes (probe:data and probe:csv read them back from it).\n"
"  Fields: name, ncells, nsamples, held (samples in memory).\n"
"  probe:data() -> {t = {...}, <var> = {{series of cell 1}, ...}}; probe:csv(file)."},
{"probe:data", "probe:data() -> {t = {...}, <var> = {{series of cell 1}, {series of cell 2}, ...}}"},
{"probe:csv", "probe:csv(file): writes the time series as CSV (column t_ms, then var_i_j_k)."},
{"simulation:activation",
"sim:activation{threshold = model's, fraction = 0.9, var = V, every = 1 | interval = ms} -> maps\n"
"  Tracks, on the backend while the simulation runs, per cell: the activation time (first\n"
"  upward crossing of threshold, interpolated between samples), the latest activation and\n"
"  repolarisation (V falling through peak - fraction (peak - rest)), the APD and the\n"
"  diastolic interval before the latest activation, and the number of upstrokes. Times are\n"
"  absolute (ms); NaN where not seen. Methods: field, get, stats, cv, write, png, restart.\n"
"  e.g. local lat = sim:activation{}  sim:run(200)  print(lat:cv{}.speed)"},
{"cardiac.activation", "activation maps of a simulation (sim:activation). Fields: threshold, fraction, every, var,\n"
"  origin (time tracking began), maps (names: first, last, repol, apd, di, count).\n"
"  Methods: field, get, stats, cv, write, png, restart."},
{"activation:field", "maps:field([map = \"first\" [, layer]]) -> flat list of a map over all cells (x fastest), NaN where\n"
"  none; with a layer, over that layer of a stacked mesh (an ensemble's member)."},
{"activation:get", "maps:get(map, i [, j [, k]]) -> the map's value at a cell (1-based)."},
{"activation:stats", "maps:stats([map [, layer]]) -> min, max, mean, number of tissue cells that have a value (in the layer)."},
{"activation:cv", "maps:cv{map = \"first\", region =, layer =} -> {speed (mm/ms), direction, rms (ms), cells}: the planar\n"
"  wave t = t0 + s.x fitted by least squares to the times of the region's activated cells;\n"
"  speed = 1/|s|. A large rms says the wave is not planar there. layer = k: on layer k of a\n"
"  stacked mesh (an ensemble's member), the region in the layer's own coordinates."},
{"activation:write", "maps:write(file, {overwrite = false}): every map in HDF5 (/maps/<name>, /mesh/mask) with XDMF."},
{"activation:png", "maps:png(file, {map = \"first\", min =, max =, z =, scale =, overwrite =}): a slice with a colour\n"
"  bar scale; cells without a value are grey."},
{"activation:restart", "maps:restart([layer]): forgets what was seen and tracks again from now; with a layer (an\n"
"  ensemble's member), starts that layer again from its state, before the maps' first sample."},
{"simulation:tips", "sim:tips{vars = {V, 2nd state}, centre = {a0, b0}} -> list of spiral tips {x, y, charge} (2D)\n"
"  or scroll-wave filaments {x, y, z, faces} (3D, centre of each filament): the phase singularities\n"
"  of theta = atan2(b - b0, a - a0) (plaquettes around which theta winds once). centre defaults\n"
"  to the tissue means of the two variables; give it for a reliable phase (e.g. Karma {1, 0.5}).\n"
"  Found on the backend (on the GPU only the singular plaquettes come to the host).\n"
"  layers = true (3D, with centre): the tips of each z layer as a sheet of its own (an ensemble's\n"
"  members), each {x, y, charge, layer}."},
{"simulation:ecg", "sim:ecg{electrodes = {{x, y, z}, ...}, interval = ms | every = steps, name =} -> ecg\n"
"  Samples a pseudo-ECG while the simulation runs: at each electrode (mm; up to 16) the sum over\n"
"  tissue cells of (D grad V) . (x - x_e) / |x - x_e|^3 dV (Gima and Rudy 2002, constant factor\n"
"  left out): positive where a wave travels towards the electrode. Computed on the backend.\n"
"  Methods: data() -> {t = {...}, {electrode 1}, ...}, csv(file). Fields: name, electrodes, samples."},
{"cardiac.ecg", "a pseudo-ECG of a simulation (sim:ecg). Methods: data, csv. Fields: name, electrodes, every, samples."},
{"ecg:data", "ecg:data() -> {t = {...}, {series of electrode 1}, {series of electrode 2}, ...}"},
{"ecg:csv", "ecg:csv(file): writes columns t_ms, e1, e2, ..."},
{"simulation:checkpoint", "sim:checkpoint(file, {overwrite = false}) -> file: saves the whole state (each variable in its\n"
"  own precision), time and step count in HDF5. A simulation made by the same script continues\n"
"  from it bit for bit (sim:restore). Written under a temporary name, then renamed."},
{"simulation:restore", "sim:restore(file [, {params = false, convert_dt = false}]) -> t: replaces the state, time\n"
"  and step count by a checkpoint's, after checking model, mesh (cells and spacing) and tissue.\n"
"  A checkpoint of another dt is refused; with convert_dt = true its time continues with this\n"
"  simulation's dt from step 0. Stimuli, D and parameters are the\n"
"  script's; with params = true the parameters, regional ones included, become the checkpoint's\n"
"  (to resume a run whose script changed them along the way). Activation maps restart; probes\n"
"  sample again from the restored time. sim:restore(snapshot) restores a sim:save() from memory\n"
"  (params as above; convert_dt is for files only)."},
{"simulation:save", "sim:save() -> snapshot: the checkpoint's contents (state, time and step count, parameter sets,\n"
"  release units) in memory, for studies that restore one state for every trial without the disk.\n"
"  sim:restore(snapshot) restores it into this or any simulation of the same problem (model, mesh,\n"
"  tissue, dt, precision, ranks); bit for bit what a checkpoint file gives. snap.t: its time (ms),\n"
"  snap.bytes: host memory it holds on this rank; snap:free() (or <close>) releases it at once."},
{"simulation:output",
"sim:output{file = \"results/run.h5\", every = steps | interval = ms, vars = {...}, overwrite = false}\n"
"  Writes frames of the chosen state variables to HDF5 with an XDMF sidecar (file.xmf; it lists the\n"
"  frames written so far, current when the output closes, a run stops, and every second during a run)\n"
"  that ParaView opens. An existing file is an error unless overwrite = true."},
{"simulation:close_output", "sim:close_output(): finishes the output file."},
{"simulation:png", "sim:png(file, {var =, min =, max =, z = slice, scale = pixels per cell, overwrite = false})\n"
"  Writes a PNG picture of a 2D field (or one z-slice) with a colour bar (max at the top)."},
{"simulation:benchmark", "sim:benchmark{steps = 1000, repeat = 5, warmup = 200} -> {times, median, per_step, steps,\n"
"  ranks, exchange_per_step}\n"
"  Times the stepping alone (CUDA events on the GPU), ms; the simulation advances by those steps.\n"
"  Under MPI the times are the slowest rank's, and the steps are timed again without the halo\n"
"  exchange: exchange_per_step is the ms per step of communication that compute did not hide\n"
"  (those steps leave the state unfit to go on with: benchmark a simulation made for it)."},
{"simulation:diff", "sim:diff(other [, var]) -> max |difference|, RMS difference, cell of the maximum (1-based),\n"
"  over the tissue, between two simulations of the same mesh and model."},
{"cardiac.rank", "cardiac.rank, cardiac.ranks: this process's rank (0-based) and the number of ranks of the\n"
"  MPI job (0 and 1 without mpirun). Every rank runs the same script (docs/mpi.md)."},
{"cardiac.gpu", "cardiac.gpu() -> {name, memory, free, l2, sms, compute_capability, driver, runtime}, or nil and the reason."},
{"cardiac.layouts", "cardiac.layouts() -> the GPU layouts, each {name, summary, tsteps (most steps per kernel),\n"
"  max_states (nil: any), volumes_only, split (runs under mpirun), phase_field, blocks (blockDS),\n"
"  thesis (a thesis baseline), built (in this build)}:@layouts@"},
{"cardiac.copy_bandwidth", "cardiac.copy_bandwidth([bytes = 2^30 [, repeat = 20]]) -> GB/s of a device-to-device copy\n"
"  (bytes read + written, median): the memory ceiling benchmarks compare against."},
{"simulation:close", "sim:close(): frees the state and closes the output file (also done at exit)."},
{"help", "help([obj | \"name\"]): prints the documentation of an object, function or name."},
{NULL, NULL}
};
