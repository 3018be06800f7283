-- The ORd heart of protocols/ord_heart.lua with three parameter sets by
-- region, as a heterogeneous (transmural-like) heart has: the theses' INa
-- activation (ina_m_shift = 10) everywhere, cell = "endo" on x < 40 mm,
-- "M" on 40 <= x < 80 mm, epicardial cells beyond. Cells with sets of their
-- own run the GPU's kernels with parameter sets (docs/gpu.md, "Model
-- parameters folded into the kernels"; docs/gpu-notebook.md item 44). Times
-- the stepping: median of 3 x 200 steps after 20 (CUDA events on a GPU).
--   cardiac protocols/ord_heart_sets.lua [precision = fp64] [multirate = 1] [tables] [scale = 1]
-- tables: "tables" for the gates' rate tables (fp64). scale 1 is the full
-- heart (GPU); 0.2 a 50 x 65 x 60 heart of the same physical size that the
-- CPU runs in seconds.
local precision = arg and arg[1] or "fp64"
local multirate = math.tointeger(tonumber(arg and arg[2] or 1))
local tables = arg and arg[3] == "tables"
local scale = tonumber(arg and arg[4]) or 1
if not multirate or multirate < 1 then
  error(("ord_heart_sets.lua: multirate must be a whole number of steps from 1, not '%s'"):format(arg[2]), 0)
end
if arg and arg[3] and arg[3] ~= "tables" and arg[3] ~= "-" then
  error(("ord_heart_sets.lua: the third argument is 'tables' or '-', not '%s'"):format(arg[3]), 0)
end
cardiac.quiet = true
local n = {math.floor(250 * scale + 0.5), math.floor(326 * scale + 0.5), math.floor(298 * scale + 0.5)}
local dx = 0.5 / scale
local mesh = cardiac.mesh{n = n, dx = dx, tissue = cardiac.biventricle()}
local backend = cardiac.gpu() and "cuda" or "cpu"
local sim = cardiac.simulation{mesh = mesh, model = cardiac.model("ohara_rudy", {ina_m_shift = 10}), dt = 0.05,
                               D = 0.3, precision = precision, backend = backend, blocks = 2,
                               multirate = multirate > 1 and multirate or nil, tables = tables}
sim:set_param({cell = "endo"}, cardiac.slab{axis = "x", from = 0, to = 40})
sim:set_param({cell = "M"}, cardiac.slab{axis = "x", from = 40, to = 80})
sim:set("V", 0.0, cardiac.slab{axis = "z", from = 0, to = 0.05 * n[3] * dx})
sim:step(20)
local b = sim:benchmark{steps = 200, ["repeat"] = 3, warmup = 20}
print(("ORd heart %dx%dx%d with 3 parameter sets, %s, %s%s%s: %.4f ms/step, 20,000 steps in %.1f s"):format(
  n[1], n[2], n[3], backend, precision, multirate > 1 and (", multirate " .. multirate) or "",
  tables and ", tables" or "", b.per_step, b.per_step * 20))
