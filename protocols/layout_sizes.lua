-- Naive against the temporal-blocking layouts by grid size, the measurements
-- behind the default layout's size rules (cuda/layout_policy.cu;
-- docs/gpu-notebook.md, item 65). Karma and Aliev-Panfilov, each with its
-- default parameters (the kernels with them folded in) and with one parameter
-- changed (the general kernels: Karma xm = 9.5, Aliev-Panfilov k = 8.5).
--  sheets: fp32 sheets from 512^2 to 8192^2, square and oblong; naive,
--          tblock with 2 and with 3 steps a kernel, and the default's choice.
--  volumes: cubes from 64^3 to 256^3 in fp32 and fp64; naive and tplane
--          (its default steps a kernel).
-- ms a step: median of 5 x 2000 steps after 200 of warm-up (sheets of 32 M
-- cells or more: 5 x 600 after 60; volumes 5 x 1200 after 120), CUDA events.
--   cardiac protocols/layout_sizes.lua [sheets|volumes]
local which = arg and arg[1] or "sheets"
assert(which == "sheets" or which == "volumes", "usage: cardiac protocols/layout_sizes.lua [sheets|volumes]")
assert(cardiac.gpu(), "layout_sizes.lua needs a GPU")
cardiac.quiet = true

-- {name, model, dx (mm), dt (ms), D of sheets, D of cubes (mm^2/ms), variable
-- and value that start a plane wave, parameters of the general kernels}
local models = {
  {"AP", "aliev_panfilov", 0.25, 0.02, 0.05, 0.05, "V", 20, {k = 8.5}},
  {"Karma", "karma", 0.5, 0.05, 0.04, 0.1, "U", 3, {xm = 9.5}},
}

local function make(m, n, general, precision, layout, tsteps)
  return cardiac.simulation{mesh = cardiac.mesh{n = n, dx = m[3]}, model = cardiac.model(m[2], general and m[9] or nil),
                            dt = m[4], D = #n == 2 and m[5] or m[6], backend = "cuda", skip_rest = false,
                            precision = precision, layout = layout, tsteps = tsteps}
end

-- the layout and steps a kernel a simulation runs: "naive", "tblock/3", ...
local function chosen_of(sim) return sim.layout .. (sim.tsteps and ("/" .. sim.tsteps) or "") end

-- the default's choice (made, not stepped)
local function default_of(m, n, general, precision)
  local sim = make(m, n, general, precision)
  local chosen = chosen_of(sim)
  sim:close()
  return chosen
end

local function time(m, n, general, precision, layout, tsteps)
  local sim = make(m, n, general, precision, layout, tsteps)
  sim:set(m[7], m[8], cardiac.slab{axis = "x", from = 0, to = 0.05 * n[1] * m[3]})
  sim:step(60)
  local cells = 1
  for _, k in ipairs(n) do cells = cells * k end
  local steps = #n == 3 and 1200 or (cells >= 2 ^ 25 and 600 or 2000)
  local b = sim:benchmark{steps = steps, ["repeat"] = 5, warmup = steps // 10}
  local chosen = chosen_of(sim)
  sim:close()
  return b.per_step, chosen
end

if which == "sheets" then
  local sizes = {{512, 512}, {1024, 1024}, {1448, 1448}, {1782, 1782}, {2048, 2048}, {2304, 2304}, {2508, 2508},
                 {2896, 2896}, {4096, 4096}, {8192, 8192}, {4096, 1024}, {1024, 4096}, {8192, 512}, {512, 8192},
                 {6144, 1024}, {1024, 6144}}
  print(("%-6s %-8s %-12s %9s %9s %9s  %s"):format("model", "kernels", "sheet", "naive", "tblock/2", "tblock/3",
                                                    "default"))
  for _, m in ipairs(models) do
    for _, general in ipairs{false, true} do
      for _, n in ipairs(sizes) do
        local a = time(m, n, general, "fp32", "naive")
        local b = time(m, n, general, "fp32", "tblock", 2)
        local c = time(m, n, general, "fp32", "tblock", 3)
        local chosen = default_of(m, n, general, "fp32")
        print(("%-6s %-8s %5d x %-5d %9.5f %9.5f %9.5f  %s"):format(m[1], general and "general" or "folded", n[1], n[2],
                                                                   a, b, c, chosen))
      end
    end
  end
else
  print(("%-6s %-5s %-8s %6s %9s %9s  %s"):format("model", "prec", "kernels", "cube", "naive", "tplane", "(K)"))
  for _, m in ipairs(models) do
    for _, precision in ipairs{"fp32", "fp64"} do
      for _, general in ipairs(precision == "fp32" and {false, true} or {false}) do
        for _, k in ipairs{64, 96, 112, 128, 144, 160, 192, 256} do
          local n = {k, k, k}
          local a = time(m, n, general, precision, "naive")
          local b, chosen = time(m, n, general, precision, "tplane")
          print(("%-6s %-5s %-8s %4d^3 %9.5f %9.5f  %s"):format(m[1], precision, general and "general" or "folded", k,
                                                               a, b, chosen))
        end
      end
    end
  end
end
