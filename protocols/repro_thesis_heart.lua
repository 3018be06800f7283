-- Reproduction: the O'Hara-Rudy heart with blockDS (Vasconcellos 2019,
-- section 5.4; fig. 5.12 and tables 5.7-5.8). Our heart is the synthetic
-- cardiac.biventricle() in the thesis' 250 x 326 x 298 box (the thesis uses a
-- pig heart's phase field of about 27% tissue; ours has 26.9%), set up as in
-- protocols/ord_heart.lua (eq. 5.8, D = 0.3 mm^2/ms, dt = 0.05 ms).
--   cardiac protocols/repro_thesis_heart.lua [csv] fraction   (CPU: fig. 5.12)
--   cardiac protocols/repro_thesis_heart.lua [csv] timing     (GPU: tables 5.7-5.8)
local R = require "reproduction"
local part = arg and arg[2] or "fraction"
cardiac.quiet = true
local out = R.new(arg and arg[1], part == "fraction")
local n = {250, 326, 298}
local mesh = cardiac.mesh{n = n, dx = 0.5, tissue = cardiac.biventricle()}

if part == "fraction" then
  out:row{quantity = "tissue / box", paper = 0.27, ours = mesh.tissue / mesh.ncells, units = "",
          note = "paper: pig heart phase field; ours: synthetic bi-ventricle"}
  for _, b in ipairs{2, 4, 8, 16, 32} do
    out:row{quantity = ("blocks of %d^3: cells stored / box"):format(b), paper = "fig. 5.12 (plot)",
            ours = mesh:blocks(b).fraction, units = "", note = "mesh:blocks(b).fraction"}
  end
else
  assert(cardiac.gpu(), "the timing part needs a GPU")
  for _, c in ipairs{{"fp64", 2}, {"fp32", 2}, {"fp64", nil}} do
    local sim = cardiac.simulation{mesh = mesh, model = "ohara_rudy", dt = 0.05, D = 0.3, precision = c[1],
                                   backend = "cuda", blocks = c[2]}
    sim:set("V", 0.0, cardiac.slab{axis = "z", from = 0, to = 0.05 * n[3] * 0.5})
    local per_step = sim:benchmark{steps = 200, ["repeat"] = 3, warmup = 50}.per_step
    local what = c[2] and "blockDS 2^3" or "whole box"
    out:row{quantity = ("ORd %s, %s: 20,000 steps"):format(c[1], what), paper = c[2] and 264.8 or 2681.4,
            ours = per_step * 20, units = "s",
            note = ("paper: P100, %s; ours: %.3f ms/step x 20,000 (median of 3 x 200)")
              :format(c[2] and "blockDS" or "JDC (whole box)", per_step)}
    if c[2] then
      out:row{quantity = ("ORd %s, %s: steps per second"):format(c[1], what), paper = 75, ours = 1000 / per_step,
              units = "1/s", note = "table 5.8 (P100, blockDS)"}
    end
    sim:close()
  end
end
out:write()
