-- Time per step against blockDS block size on the heart (thesis figs.
-- 5.13-5.14; Vasconcellos 2019, section 5.4.3): the synthetic biventricular
-- heart of protocols/ord_heart.lua (250 x 326 x 298 cells, 26.9% tissue,
-- dx 0.5 mm), each model stored as the whole box (the naive kernel, which
-- skips warps without tissue) and in cubic blocks of 2 to 16 cells.
-- Median of 5 x `steps` steps after a warm-up, CUDA events; the initial
-- state is the model's rest with the first 5% of z excited. Needs a GPU.
--   cardiac protocols/block_size.lua [steps] [csv] [scale]
local steps = tonumber(arg and arg[1]) or 200
local csv = arg and arg[2]
local scale = tonumber(arg and arg[3]) or 1
if not cardiac.gpu() then print("block_size.lua needs a GPU (cardiac.gpu() found none)") return end
cardiac.quiet = true
local n = {math.floor(250 * scale + 0.5), math.floor(326 * scale + 0.5), math.floor(298 * scale + 0.5)}
local mesh = cardiac.mesh{n = n, dx = 0.5 / scale, tissue = cardiac.biventricle()}
local cases = {
  {model = "ohara_rudy", precision = "fp64", dt = 0.05},
  {model = "ohara_rudy", precision = "fp32", dt = 0.05},
  {model = "tentusscher_2006", precision = "fp64", dt = 0.02},
  {model = "tentusscher_2006", precision = "fp32", dt = 0.02},
  {model = "karma", precision = "fp32", dt = 0.05},
}
local rows = {"model,precision,blocks,ms_per_step,s_per_20000,tissue_cell_steps_per_s,fraction_stored"}
print(("heart %dx%dx%d, %d tissue cells; %d steps x 5 after a warm-up"):format(n[1], n[2], n[3], mesh.tissue, steps))
print(("%-17s %-5s %-9s %9s %13s %9s"):format("model", "prec", "blocks", "ms/step", "20,000 steps", "stored"))
for _, c in ipairs(cases) do
  local m = cardiac.model(c.model)
  local var = m:states()[1].name   -- the membrane potential comes first in every model
  for _, b in ipairs{false, 2, 4, 8, 16} do
    local sim = cardiac.simulation{mesh = mesh, model = m, dt = c.dt, D = 0.3, precision = c.precision,
                                   backend = "cuda", blocks = b or nil}
    -- excited: V halfway between the activation threshold and the top of the range
    sim:set(var, (m.activation + m.vmax) / 2, cardiac.slab{axis = "z", from = 0, to = 0.05 * n[3] * 0.5 / scale})
    local ms = sim:benchmark{steps = steps, ["repeat"] = 5, warmup = math.min(100, steps)}.per_step
    local stored = b and mesh:blocks(b).fraction or 1
    local label = b and ("%dx%dx%d"):format(b, b, b) or "whole box"
    print(("%-17s %-5s %-9s %9.4f %11.1f s %9.3f"):format(c.model, c.precision, label, ms, ms * 20, stored))
    rows[#rows + 1] = ("%s,%s,%s,%.5f,%.2f,%.4g,%.4f"):format(c.model, c.precision, label, ms, ms * 20,
                                                             mesh.tissue / (ms * 1e-3), stored)
    sim:close()
  end
end
if csv then
  local f = assert(io.open(csv, "w"))
  f:write(table.concat(rows, "\n"), "\n")
  f:close()
end
