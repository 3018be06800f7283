-- Quick start: a spiral wave in a 2D sheet of Karma tissue.
-- Cross-field (S1-S2) initiation: S1 starts a planar wave at the left edge;
-- when its refractory tail has reached the middle, S2 excites the recovered
-- lower-left quadrant. That wave cannot enter the refractory tissue on its
-- right, so its end curls around into a rotating spiral.
-- Karma's default time constant tau_E = 2.5 ms gives action potentials of
-- about 190 ms and, at D = 0.1 mm^2/ms, waves about 0.3 mm/ms fast: the sheet
-- is 72 mm wide (120 cells of 0.6 mm), the S2 comes at 325 ms, dt = 0.1 ms
-- (0.04 of tau_E).
-- Writes results/quickstart.h5 (+ .xmf for ParaView) and results/quickstart.png.
local L, dx = 72, 0.6                        -- sheet size and spacing, mm
local mesh = cardiac.mesh{size = {L, L}, dx = dx}
local model = cardiac.model("karma")
local s1 = cardiac.stimulus{region = cardiac.slab{axis = "x", from = 0, to = 1.5}, amplitude = 5, duration = 2}
local s2 = cardiac.stimulus{region = cardiac.box{min = {0, 0}, max = {L / 2, L / 2}},
                            amplitude = 5, duration = 2, start = 325}
local sim = cardiac.simulation{mesh = mesh, model = model, dt = 0.1, D = 0.1, stimuli = {s1, s2}}

local center = sim:probe{name = "center", points = {{L / 2, L / 2}}, vars = {"U", "v"}, interval = 1}
sim:output{file = "results/quickstart.h5", interval = 20, vars = {"U", "v"}, overwrite = true}

print(string.format("Karma spiral on %d x %d cells (dx = %.2f mm), dt = %.2f ms", mesh.n[1], mesh.n[2], dx, sim.dt))
sim:run(T or 1000)
local lo, hi = sim:stats("U")
print(string.format("t = %.0f ms: U in [%.2f, %.2f]", sim.t, lo, hi))
sim:png("results/quickstart.png", {var = "U", overwrite = true})
sim:close()

print([[
wrote results/quickstart.h5    fields U, v every 20 ms, probe 'center', run attributes
      results/quickstart.xmf   open this one in ParaView (File > Open, then Apply)
      results/quickstart.png   the membrane potential U at the end
inspect: h5dump -H results/quickstart.h5 ; or in cardiac: cardiac.h5read("results/quickstart.h5", "/time")]])
