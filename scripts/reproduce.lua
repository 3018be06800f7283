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
            .. "model is the default Karma set (tau_E = 2.5 ms) with the thesis' D = 0.04 mm^2/ms (docs/models.md): "
            .. "the planar wave reaches the top of the 256^3 cube at 857 ms and is still in it at 1 s (U up to "
            .. "3.66), and in the 512^3 cube it has not reached the top. Before Karma had its time scale (tau_E = "
            .. "1 ms, D = 0.1) the wave had left the cube by 1 s. With every cell stepped the step's cost does not "
            .. "depend on the state (`build/cardiac protocols/karma_cost.lua`: the default set's kernels cost what they "
            .. "did, docs/models.md); "
            .. "the 1 s runs skip the quiet tissue, at rest ahead of the wave and settled behind it (exactly: "
            .. "docs/gpu.md, \"Resting tissue\"; 56% of the plane-steps stepped at 256^3, 32% at 512^3), so their "
            .. "time depends on the state: the note gives each with every cell stepped. Table 5.2's step times step "
            .. "every cell."},
  {name = "thesis_spiral", title = "Scroll wave from an S2 at step 8,500",
   source = "Vasconcellos 2019, eq. 5.7 and fig. 5.11", needs = "gpu",
   script = "protocols/repro_thesis_spiral.lua", args = {},
   remark = "The default Karma set (Karma 1994's tau_E = 2.5 ms) with the thesis' ratio of diffusion to reaction "
            .. "(D = 0.04 mm^2/ms) makes fig. 5.11's scroll wave from the thesis' S2 at step 8,500: the planar wave's "
            .. "back passes the middle of the S2 region at step 7,900, so the S2 finds recovered tissue below and "
            .. "refractory tissue above it, and the wave returns for the rest of the second (criterion, stated before "
            .. "this run: 25% of the cells activated 3 or more times and 4 or more activations at the probe). The "
            .. "two controls change one thing each and give no re-entry: the former reading of the model unit as "
            .. "1 ms puts the back at step 3,200, and tau_E = 2.5 ms with D left at 0.1 mm^2/ms at step 5,100. The "
            .. "cube gives the rows of its x-z plane run on the CPU (next item), as it must: its initial "
            .. "condition and S2 do not depend on y. That item has the frames."},
  {name = "thesis_spiral_sheet", title = "Scroll wave from an S2 at step 8,500: the cube's x-z plane on the CPU",
   source = "Vasconcellos 2019, eqs. 5.4-5.5, 5.7 and fig. 5.11", needs = "cpu",
   script = "protocols/repro_thesis_spiral.lua", args = {"256", "sheet", "docs/data/reproductions/thesis_spiral_sheet"},
   remark = "The cube's initial condition and S2 do not depend on y and its boundaries are no-flux, so its "
            .. "solution is this x-z plane's at every y: the sheet is the cube's run at 1/256 of the cost (its "
            .. "first control gives the H100 cube's figures in the item above: the back at step 3,200, "
            .. "2 activations at the probe; its default set, the cube's 61.7% and 9 activations). Criterion, fixed before the cube's run on the GPU (these sheet runs came "
            .. "first): a scroll wave when 25% or more of the cells activate 3 or more times and the probe 4 or more "
            .. "times. Default set: Karma 1994's tau_E = 2.5 ms (docs/models.md) with the thesis' ratio of diffusion "
            .. "to reaction, D = 0.4 h^2 / tau_E = 0.04 mm^2/ms (eq. 2.19 steps both with one dt; eq. 5.1's "
            .. "coefficient D dt / h^2 = 0.02 against dt = 0.05). The planar wave's back passes the middle of the "
            .. "S2 region at step 7,900 (the former 3,200 times 2.5 is 8,000; sampled every 100 steps), so the S2 "
            .. "at step 8,500 finds recovered tissue below and refractory tissue above it and its wave curls into "
            .. "a counter-rotating pair (the frames: U from 0 to 4, z upwards, every 25 ms as in fig. 5.11; the "
            .. "planar wave is still climbing, it reaches the top at 857 ms on a 256-cell cable). The former "
            .. "reading (tau_E = 1 ms) puts the back at step 3,200, and tau_E = 2.5 ms with D left at 0.1 "
            .. "mm^2/ms at step 5,100 (the front is slowed by sqrt(2.5) only): no return in either. One change at "
            .. "a time from the default set, S2 at step 8,500 (`N=256 NY=1 D=0.04 <NAME>=<value> build/cardiac "
            .. "protocols/thesis_s2_explore.lua`, this machine's CPU, 2026-11-25): eps = 0.009: back at step "
            .. "8,100, 57.8% of the cells 3+ times, 9 activations at the probe; vstar = 0.55: 8,000, 59.4%, 9; "
            .. "xm = 30: 7,500, 1.9%, 3 (one return, no lasting scroll); xm = 30 and eps = 0.009: 7,700, 1.6%, 3; "
            .. "tau_E = 1 ms with D = 0.04 mm^2/ms: the planar wave does not propagate (it dies at the start, "
            .. "v = 0.5 on 0.5 mm cells; 1 activation at the probe, the S2's). So the thesis' timing needs the time scale on the whole equation; xm = 30 loses the lasting "
            .. "scroll. The item took 4 min 51 s with 2 threads on this machine's 2 shared cores.\n\n"
            .. "| 450 ms | 500 ms | 550 ms | 600 ms |\n|---|---|---|---|\n| ![](data/reproductions/thesis_spiral_sheet/spiral_09000.png) | ![](data/reproductions/thesis_spiral_sheet/spiral_10000.png) | ![](data/reproductions/thesis_spiral_sheet/spiral_11000.png) | ![](data/reproductions/thesis_spiral_sheet/spiral_12000.png) |\n\n"
            .. "| 650 ms | 700 ms | 800 ms | 1000 ms |\n|---|---|---|---|\n| ![](data/reproductions/thesis_spiral_sheet/spiral_13000.png) | ![](data/reproductions/thesis_spiral_sheet/spiral_14000.png) | ![](data/reproductions/thesis_spiral_sheet/spiral_16000.png) | ![](data/reproductions/thesis_spiral_sheet/spiral_20000.png) |"},
  {name = "thesis_heart_fraction", title = "blockDS: the fraction of the heart's box stored, per block size",
   source = "Vasconcellos 2019, section 5.4.2 and fig. 5.12", needs = "cpu",
   script = "protocols/repro_thesis_heart.lua", args = {"fraction"}},
  {name = "thesis_heart_timing", title = "O'Hara-Rudy on the heart: 20,000 steps with and without blockDS",
   source = "Vasconcellos 2019, tables 5.7-5.8", needs = "gpu",
   script = "protocols/repro_thesis_heart.lua", args = {"timing"},
   remark = "Blocks of 2^3 are the fastest on the H100 (docs/performance.md, protocols/block_size.lua); the "
            .. "thesis' best blockDS block size on the P100 is in its fig. 5.14. The issue's goal for ORd fp64, "
            .. "under 30 s, is not reached."},
  {name = "thesis_heart_slice", title = "A pulse in one layer of the heart: blockDS against the whole box",
   source = "Vasconcellos 2019, section 5.4.3 and fig. 5.16", needs = "gpu",
   script = "protocols/repro_thesis_heart_slice.lua", args = {"docs/data/reproductions/heart_slice"},
   remark = "The frames (V from -90 to 40 mV; the difference on a +-1e-3 mV scale, grey where there is no "
            .. "tissue). Our layer is sampled at 0.25 mm. At the heart's own 0.5 mm "
            .. "(`build/cardiac protocols/repro_thesis_heart_slice.lua CSV - auto 0.5`, H100, 2026-11-23) the pulse "
            .. "dies: 1,676 of 29,620 cells activate, the last at 126 ms, on blockDS and the whole box alike "
            .. "(and on the CPU backend, which takes 8 minutes there): ORd's upstroke is under-resolved at 0.5 mm "
            .. "(docs/models.md). The CPU backend runs the 0.25 mm case in about 40 minutes.\n\n"
            .. "| t | blockDS | whole box | blockDS - whole box |\n|---|---|---|---|\n"
            .. "| 2 ms | ![](data/reproductions/heart_slice/slice_002ms_blocks.png) | ![](data/reproductions/heart_slice/slice_002ms_whole.png) | ![](data/reproductions/heart_slice/slice_002ms_diff.png) |\n| 10 ms | ![](data/reproductions/heart_slice/slice_010ms_blocks.png) | ![](data/reproductions/heart_slice/slice_010ms_whole.png) | ![](data/reproductions/heart_slice/slice_010ms_diff.png) |\n| 25 ms | ![](data/reproductions/heart_slice/slice_025ms_blocks.png) | ![](data/reproductions/heart_slice/slice_025ms_whole.png) | ![](data/reproductions/heart_slice/slice_025ms_diff.png) |\n| 50 ms | ![](data/reproductions/heart_slice/slice_050ms_blocks.png) | ![](data/reproductions/heart_slice/slice_050ms_whole.png) | ![](data/reproductions/heart_slice/slice_050ms_diff.png) |\n| 100 ms | ![](data/reproductions/heart_slice/slice_100ms_blocks.png) | ![](data/reproductions/heart_slice/slice_100ms_whole.png) | ![](data/reproductions/heart_slice/slice_100ms_diff.png) |\n| 200 ms | ![](data/reproductions/heart_slice/slice_200ms_blocks.png) | ![](data/reproductions/heart_slice/slice_200ms_whole.png) | ![](data/reproductions/heart_slice/slice_200ms_diff.png) |\n| 350 ms | ![](data/reproductions/heart_slice/slice_350ms_blocks.png) | ![](data/reproductions/heart_slice/slice_350ms_whole.png) | ![](data/reproductions/heart_slice/slice_350ms_diff.png) |\n| 600 ms | ![](data/reproductions/heart_slice/slice_600ms_blocks.png) | ![](data/reproductions/heart_slice/slice_600ms_whole.png) | ![](data/reproductions/heart_slice/slice_600ms_diff.png) |"},
  {name = "unat_aliev_panfilov", title = "Aliev-Panfilov on one GPU: running times and GFlop/s",
   source = "Unat, Cai and Baden (Aliev-Panfilov on GPUs), tables 1-2, one-GPU rows", needs = "gpu",
   script = "protocols/repro_unat_aliev_panfilov.lua", args = {},
   remark = "The paper ran T = 1000 model time units in the iteration counts of its table 1; ours are the "
            .. "per-step time times those counts (the step's cost does not depend on dt)."},
  {name = "unat_aliev_panfilov_2gpu", title = "Aliev-Panfilov on two GPUs",
   source = "Unat, Cai and Baden, table 1, two-GPU rows", needs = "2 GPUs", ranks = 2,
   script = "protocols/repro_unat_aliev_panfilov.lua", args = {"one=docs/data/reproductions/unat_aliev_panfilov.csv"},
   remark = "The sheet is cut into two slabs along y, one per GPU and MPI rank, as the paper cuts it. The "
            .. "speed-ups divide the step time of the one-GPU table of the same GPU model (the table above is "
            .. "the H100's; the H200's one-GPU run of the same script gave the divisors named in the notes). "
            .. "Our steps are short: a 2K^2 fp64 step takes 0.045 ms on one H200 (4.6 ms on the C1060), so "
            .. "what the exchange adds and the interior does not hide (sim:benchmark's exchange_per_step) "
            .. "weighs more: 0.002 ms per step since the exchange's stream has the highest priority, 0.013 ms "
            .. "before (speed-ups 1.15 and 1.65 then; docs/mpi.md)."},
  {name = "unat_aliev_panfilov_4gpu", title = "Aliev-Panfilov on four GPUs",
   source = "Unat, Cai and Baden, tables 1-2, four-GPU rows (4K^2 to T = 1000, 16K^2 GFlop/s)", needs = "4 GPUs",
   ranks = 4, script = "protocols/repro_unat_aliev_panfilov.lua",
   args = {"one=docs/data/reproductions/unat_aliev_panfilov_h200.csv"},
   remark = "The sheet is cut into four slabs along y, one per GPU and MPI rank, and the copy engines exchange "
            .. "their faces (docs/mpi.md). The speed-up divides the step of the one-GPU run of the same script on "
            .. "one of the same four H200s, minutes before (docs/data/reproductions/unat_aliev_panfilov_h200.csv; "
            .. "the one-GPU table above is the H100's). A 4K^2 fp64 step takes 0.166 ms on one H200 (about 18 ms "
            .. "on a C1060), so the exchange and the split weigh more than in the paper: 3.51 against its 3.77. "
            .. "The GFlop/s count the paper's 28 flops per cell update; they measure the memory bandwidth of our "
            .. "GPUs, not arithmetic."},
  {name = "multigpu_scaling", title = "Karma on several GPUs: the multi-GPU paper's fig. 18 and tables 4-5",
   source = "Vasconcellos et al. 2020 (towerDS multi-GPU paper), fig. 18, tables 4-5",
   needs = "several GPUs for the runs (`sh scripts/scaling.sh build/cardiac CSV "
           .. "strong256,strong512,strong1024,weak512`; docs/data/scaling-h200x4.csv gathers main's rows of three "
           .. "calls, docs/performance.md says which); the table is made from their CSV anywhere", anywhere = true,
   script = "protocols/repro_vasconcellos_multigpu.lua",
   args = {"from=docs/data/scaling-h200x4.csv", "png=docs/data/reproductions/multigpu_scaling.png"},
   remark = "Our speed-ups against GPUs: ![speed-up](data/reproductions/multigpu_scaling.png). The thesis' "
            .. "towerDS ran on P100s (732 GB/s each); ours is the default layout on H200s (tplane, 3 steps a kernel, "
            .. "with the copy engines' exchange and the faces first since 2026-11-26; docs/mpi.md). The paper's "
            .. "almost linear speed-up at 256^3 and our 2.51 on 4 GPUs differ by the length of a step: a P100 steps "
            .. "256^3 1,426 times a second, an H200 16,700 times, so what splitting a step costs whatever its size "
            .. "weighs about 12 times more in ours. That cost is now mostly the kernel's pipeline: a launch of 3 "
            .. "steps marches chunks of planes, one wave of blocks, each chunk with 6 halo planes that fill and "
            .. "drain it; a rank's 64 planes make chunks of 13 (19 iterations), one GPU's 256 planes chunks of 52 "
            .. "(58), 31% more per plane, which predicts 0.0196 ms a step on 4 GPUs with the exchange switched "
            .. "off (measured: 0.0188). The face chunks and the wait for the neighbours' faces add 0.0050 ms a step "
            .. "(docs/mpi.md, \"Measured on four H200s\"). 512^3 and 1024^3: the faces first planned by a model "
            .. "of the block scheduler (main at commit cd9d9d6), 88% and 94% on 4 GPUs."},
  {name = "altanaite_ryr_cell", title = "Calcium release units on one cell: the thesis' reading of the dyads",
   source = "Altanaite 2017 (MSc thesis), section 7.2 (figs. 7.7-7.8) and section 7.1.1", needs = "cpu",
   script = "protocols/repro_altanaite_ryr.lua", args = {},
   remark = "The thesis reads its simulated dyads as the cell's release units, each with its 1/10,000 share of the "
            .. "calcium handling, so that the cell releases more and carries more Ca2+ current the more it "
            .. "simulates (section 7.2: \"when we employ more dyads in a cell, more RyRs are open\"); gaur_rudy "
            .. "runs that reading with `reading = \"units\"` (docs/models.md). Its default, `\"sample\"`, reads "
            .. "them as a sample whose means are the cell, and then every count fires alike (row 5). The beat "
            .. "also needs the SR's Ca2+ load: from ORd's 1 Hz resting state (JSR 1.54 mM) no count fires, while "
            .. "the load of the C++ encoding the thesis' code descends from (JSR 3.82 mM; "
            .. "scripts/calcium_states.lua) fires the whole cell. `build/cardiac protocols/ryr_opening.lua` "
            .. "varies one thing at a time (this machine's CPU, 2026-11-25): the beat needs a JSR load above "
            .. "2.5-2.75 mM and comes earlier the more the SR holds (NSR = JSR = 2.75 mM: 193.4 ms; 3.0: 152.6; "
            .. "3.5: 125.5; the encoding's 4.27 / 3.82 mM: 110.8 ms), ORd paced at 500 ms for 400 beats holds "
            .. "only 1.71 mM, and the encoding's IK1 (40% of ORd's), which we used before, fires from the "
            .. "resting load but at 178.4 ms. The depolarisation is slow (largest dV/dt 4.8 mV/ms, at "
            .. "139.9 ms: the L-type current's upstroke, not INa's): V passes -40 mV at 110.8 ms and 0 mV at "
            .. "138.9 ms, and the thesis' 120 ms is the frame of fig. 7.6 in which the tissue is depolarised, "
            .. "which lies between. What this reading does not give: the thesis' Cai rising with the count "
            .. "(the cell's concentrations are the units' means, eqs. 2.11-2.15, so Cai is alike; the release "
            .. "`jrel` grows with the count). The paced beat runs from the resting state: on the encoding's "
            .. "load, which belongs to its isoproterenol variant, ORd's own beat lasts 574 ms (last APD row)."},
  {name = "altanaite_calcium", title = "Calcium model in tissue: CV against dyads and Dz; RyR opening",
   source = "Altanaite 2017 (MSc thesis), sections 7.1-7.2, figs. 7.1-7.2 and 7.6", anywhere = true,
   needs = "gpu for the runs (`build/cardiac protocols/repro_altanaite_calcium.lua CSV`, about 2 minutes on an "
           .. "H100); the table is made anywhere from the CSVs those runs leave (docs/data/calcium/)",
   script = "protocols/repro_altanaite_calcium.lua",
   args = {"from=docs/data/calcium", "machine='NVIDIA H100 80GB HBM3'", "date=2026-11-26"},
   remark = "Every run is on the thesis' grid (dx = 0.5 mm) with the dyads read as the cell's release units "
            .. "(`reading = \"units\"`, the thesis' reading; docs/models.md). The RyR opening reproduces fig. 7.6: "
            .. "with the Ca2+ load of the encoding the thesis' code descends from and ORd's own IK1, the 12 mm cube "
            .. "with 10,000 dyads per cell fires everywhere at once, 110.8 ms at the centre and the corners (V > "
            .. "-40 mV; the thesis' frame at 120 ms, tolerance 20 ms, stated in advance in "
            .. "protocols/repro_altanaite_ryr.lua), and with 1,000, 100 or 10 it does not, as in the thesis. The "
            .. "encoding's IK1 (40% of ORd's), which these rows used before, is no longer needed: the SR's load is "
            .. "what decides the beat (item altanaite_ryr_cell, `build/cardiac protocols/ryr_opening.lua`). The "
            .. "Dz sweep reproduces fig. 7.2's failures exactly (0.00625 and 0.4) with the thesis' INa and "
            .. "stimulus; its CV at Dz = 0.2 is that INa's at 0.5 mm, 0.600 m/s, 15% above the paper's (item "
            .. "altanaite_cv_resolution). The CV against the dyad count runs with D tuned to the grid "
            .. "(scripts/tune_cv.lua, 0.3555 mm^2/ms) and stays within 10% of the paper at every count, but it "
            .. "is not independent of the count as the thesis found (0.506 m/s with 10 dyads, 0.545 with "
            .. "10,000): in the units reading the L-type current, which helps the upstroke, grows with the count, "
            .. "and an under-resolved front feels it more. On a 15 mm cable from the same state (this machine's "
            .. "CPU, 2026-11-25; CV between 4 and 12 mm at -70 mV) the spread from 10 to 10,000 units is 5.4% at "
            .. "dx 0.5 mm with the tuned D (0.5335 to 0.5626 m/s, and 10 dyads read as a sample give 10,000 "
            .. "units' 0.5626), 1.9% resolved at dx 0.25 mm, D 0.2 (0.4866 to 0.4959), and 1.2% with the thesis' "
            .. "INa at its 0.5 mm (ina_m_shift = 10: 0.5943 to 0.6012), near the thesis' t2 of 33.6 against "
            .. "33.7 ms. Figures: docs/data/calcium/cv.png, dz.png, ryr_V.png, ryr_cai.png."},
  {name = "altanaite_cv_resolution", title = "The calcium thesis' CV at its dx = 0.5 mm: ORd resolved and not",
   source = "Altanaite 2017 (MSc thesis), section 7.1.1 (eq. 7.2) and figs. 7.1-7.2", needs = "cpu",
   script = "protocols/repro_altanaite_cv.lua", args = {},
   remark = "The cell-level ORd on 24 mm (and 100 mm) cables, which stand for the thesis' slabs stimulated on "
            .. "their x-y plane: the wave is planar (`cardiac protocols/ord_conduction.lua slab`: 6 x 6 and 1 x 1 mm "
            .. "slabs give the cable's times). The tolerance, fixed before measuring: a CV within 10% of the "
            .. "paper's, and the paper's failing Dz. The paper's ORd cannot run the thesis' experiment at its "
            .. "dx = 0.5 mm under our explicit scheme: at D = 0.2 its wave decays within 15 mm at every dt and "
            .. "with every stimulus tried (docs/models.md, \"Conduction velocity at coarse grids\"), and cardiac warns there. Resolved "
            .. "(dx <= 0.25 mm) it gives the paper's CV within 6%, and at 0.25 mm its first cell fires at 10.86 ms "
            .. "(the thesis: 10.65). The theses' code descends from a public C++ encoding of ORd with Gaur-Rudy dyads whose INa "
            .. "differs from the paper's (m_inf 10 mV lower): with that INa (`ina_m_shift = 10`) ORd conducts at "
            .. "0.5 mm, 14% faster than the paper's CV and 21% below its own converged CV (0.757), and it "
            .. "reproduces where figs. 7.1 and 7.2 fail: at high Dz the one-layer stimulus cannot excite, at low Dz "
            .. "the coarse grid blocks (at dx = 0.25 mm it conducts at 0.00625) or, on 100 mm, the wave is too slow "
            .. "to reach the second cell within the 500 ms beat. The thesis' own multiscale model (gaur_rudy, "
            .. "here with 10 dyads per cell, fig. 7.1's count, on a 0.5 x 0.5 mm column on the CPU) with that INa "
            .. "gives the same: 0.600 m/s and the same failing Dz. At 10,000 dyads (GPU): "
            .. "`build/cardiac protocols/calcium_tissue.lua cv dx=0.5 ina_m_shift=10 out=results/calcium_mshift` "
            .. "and `... dz dx=0.5 xy=1 dyads=10000 ina_m_shift=10 stim=80,0.5,0.5 out=results/calcium_mshift`."},
  {name = "defib_termination", title = "Defibrillation: a published monodomain termination result",
   source = "the works listed below", needs = "nothing to run",
   text = "Not reproduced: none of the works examined gives a monodomain shock threshold or success curve with "
          .. "the model, parameters, geometry and protocol needed to rerun it. Examined (2026-11-25, through public "
          .. "abstracts and excerpts, not the full texts): A. V. Holden, Defibrillation in models of cardiac muscle, "
          .. "J. Theor. Med. 2:91-102 (1997), and V. N. Biktashev, A. V. Holden, Reentrant waves and their elimination "
          .. "in a model of mammalian ventricular tissue, Chaos 8:48-56 (1998): single-pulse and resonant-drift "
          .. "elimination, no threshold with its full setting in the excerpts; B. J. Morgan et al., Low energy "
          .. "defibrillation in human cardiac tissue, Biophys. J. 96:1364-1373 (2009): bidomain, not comparable; "
          .. "D. Suth et al., Chaos control in cardiac dynamics: terminating chaotic states with local minima pacing, "
          .. "Front. Netw. Physiol. 4:1401661 (2024), T. Lilienkamp, U. Parlitz, Terminating transient chaos in "
          .. "spatially extended systems, Chaos 30:051108 (2020), and S. Sridhar, S. Sinha, Controlling spatiotemporal "
          .. "chaos in excitable media using an array of control points (arXiv 0711.1489): control of chaotic states "
          .. "by pacing, their protocols not read here. What cardiac measures instead (thresholds by bisection, "
          .. "success against strength and timing, ATP, RyR opening; trials per minute on an H100) is in "
          .. "docs/defibrillation.md with its commands."},
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
  if it.ranks then c = ("mpirun -np %d --bind-to none %s"):format(it.ranks, c) end
  return (c:gsub("%s+$", ""))
end

-- GPUs on this machine (nvidia-smi), for the items that need several
local function gpu_count()
  local p = io.popen("nvidia-smi -L 2>/dev/null")
  local n = 0
  for line in p:lines() do if line:match("^GPU %d") then n = n + 1 end end
  p:close()
  return n
end

-- which items to run
local wanted = {}
for _, a in ipairs(arg or {}) do wanted[a] = true end
local has_gpu = cardiac.gpu() ~= nil
os.execute("mkdir -p results/reproduce docs/data/reproductions")
for _, it in ipairs(items) do
  if it.script and (next(wanted) == nil or wanted[it.name]) then
    local out = ("results/reproduce/%s.csv"):format(it.name)
    local ok, err
    if it.ranks then
      if gpu_count() < it.ranks then
        print(("skip %-24s needs %d GPUs (keeping docs/data/reproductions/%s.csv)"):format(it.name, it.ranks, it.name))
      else
        print(("run  %-24s %s"):format(it.name, command(it)))
        os.remove(out)
        ok = os.execute("OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 " .. command(it))
        err = "mpirun failed"
      end
    elseif it.needs == "gpu" and not has_gpu and not it.anywhere then
      print(("skip %-24s needs a GPU (keeping docs/data/reproductions/%s.csv)"):format(it.name, it.name))
    else
      print(("run  %-24s %s"):format(it.name, command(it)))
      arg = {[0] = it.script, out}
      for _, a in ipairs(it.args) do arg[#arg + 1] = (a:gsub("'", "")) end
      ok, err = pcall(dofile, it.script)
    end
    if ok then copy(out, ("docs/data/reproductions/%s.csv"):format(it.name))
    elseif ok == false or err then print(("FAIL %s: %s"):format(it.name, tostring(err))) end
  end
end

-- the document
local doc = {[[
# Reproductions

The papers' tables and figures that `cardiac` reproduces, each with the command that makes it,
the published number and ours side by side. Generated by `make reproduce`
(`build/cardiac scripts/reproduce.lua`), which reruns what the machine can run and keeps the
last measurement of the rest (each table names its machine and date). Sources: each section
names its paper (the PhD thesis, Vasconcellos 2019, is in Portuguese; table and figure numbers
are the thesis').
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
