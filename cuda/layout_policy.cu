// Which layout a simulation runs on the GPU, with how many steps per kernel
// and which thread block, and the refusals of what a layout cannot run, all
// read from the one table of layouts (core/engine/layouts.h); and the table
// of their launchers.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include "backend_cuda_priv.h"

// The layouts' launchers, indexed as layout_table. The thesis' layouts are
// in the build with CARDIAC_THESIS_LAYOUTS=ON only.
#ifdef CARDIAC_THESIS_LAYOUTS
#define THESIS_LAUNCHER(f) f
#else
#define THESIS_LAUNCHER(f) nullptr
#endif
static void (*const launchers[LAYOUT_COUNT])(const launch_ctx &) = {
    launch_naive, THESIS_LAUNCHER(launch_window), THESIS_LAUNCHER(launch_tower), launch_tblock, launch_block,
    launch_tplane};

void launch_layout(int layout, const launch_ctx &c) { launchers[layout](c); }

// The layouts that run what `can` says, as "a" or "b" (blockDS, chosen by
// 'blocks', is named apart).
template <class F>
static const char *alternatives(char *buf, size_t len, F can)
{
    int names[LAYOUT_COUNT], n = 0;
    for (int l = 0; l < LAYOUT_COUNT; l++)
        if (layout_built(l) && !layout_table[l].blocks && can(layout_table[l])) names[n++] = l;
    size_t at = 0;
    buf[0] = 0;
    for (int q = 0; q < n && at < len; q++)
        at += (size_t)snprintf(buf + at, len - at, "%s\"%s\"", q == 0 ? "" : " or ", layout_table[names[q]].name);
    return buf;
}

int layout_refusal(const sim *s, char *err, size_t errlen)
{
    if (!s->layout[0]) return 0;
    const int id = layout_find(s->layout);
    if (id < 0) { snprintf(err, errlen, "unknown layout '%s'", s->layout); return -1; }
    const layout_def &L = layout_table[id];
    const model_def *md = s->m.def;
    char alt[128];
    if (!layout_built(id))
        snprintf(err, errlen, "layout '%s' is one of the thesis' baselines, which this build leaves out; configure "
                 "with -DCARDIAC_THESIS_LAYOUTS=ON for it", s->layout);
    else if (s->dc.nranks > 1 && !L.split)
        snprintf(err, errlen, "layout '%s' does not run split over several ranks yet; use layout = %s, or blocks",
                 s->layout, alternatives(alt, sizeof alt, [](const layout_def &d) { return d.split; }));
    else if (s->lg.phi && !L.phase_field)
        snprintf(err, errlen, "layout '%s' does not run phase-field meshes; use layout = %s or blocks", s->layout,
                 alternatives(alt, sizeof alt, [](const layout_def &d) { return d.phase_field; }));
    else if (s->members && !L.members)
        snprintf(err, errlen, "layout '%s' does not step ensembles, whose members may each have their own D; use "
                 "layout = %s", s->layout, alternatives(alt, sizeof alt, [](const layout_def &d) { return d.members; }));
    else if (L.max_states && md->nstate > L.max_states)
        snprintf(err, errlen, "layout '%s' is built for models with at most %d states; '%s' has %d: use "
                 "layout = \"naive\" (its default)", s->layout, L.max_states, md->name, md->nstate);
    else
        return 0;
    return -1;
}

// fp32 sheets on which tblock beats naive (H100, Karma and Aliev-Panfilov,
// square and oblong sheets; docs/gpu-notebook.md, item 65): from about 3 M
// cells with the parameters folded in (1448^2: tblock 25% slower; 1782^2, K =
// 3: 1-6% faster), from about 5 M with the general kernels (2048^2, K = 2:
// 3-9% slower; 2304^2: even to 4% faster; 2508^2: 17-21% faster). Below,
// naive's two copies of the state fit the 50 MB L2, and tblock's tiles (250
// cells wide at K = 3, chunks of at least 8K rows) fill too few SMs
// (Aliev-Panfilov 1024^2: naive 0.0069 ms a step, tblock 0.0123).
static bool sheet_tblock(const sim *s, const int n[3])
{
    const double cells = (double)n[0] * n[1] * n[2];
    return cells >= (params_folded(s) ? 3e6 : 5e6);
}

// tplane on grids wider than 256 cells: tiles 64 cells wide with an x halo
// (tplane_shape), where the grid has the 64 rows such a tile holds; in fp64
// too since item 67 (K = 2: Karma 512^3 1.003 ms a step against naive's
// 1.446, Aliev-Panfilov 1.391 against 1.573; docs/gpu-notebook.md).
static bool tplane_narrow_tiles(const int n[3]) { return n[0] > 256 && n[1] >= 64; }

// The layout the script did not choose: the fastest measured for the grid.
static int default_layout(const sim *s, const grid *g)
{
    // Default: the fastest layout measured on the H100 (docs/performance.md).
    // Large fp32 sheets (2D grids, view y = 1; sheet_tblock): temporal
    // blocking, which moves a third of the bytes per step and whose tiles are
    // long rows with little halo. Volumes of the two-state models without a
    // mask: temporal blocking over wide tiles (tplane; Karma 256^3 2.1x and
    // 512^3 2.3x faster than naive on the H100 in fp32; in fp64 256^3 1.3x,
    // 512^3 1.4x). Masked volumes (hearts: naive skips the warps without
    // tissue; blockDS), fp64 sheets and fp64 volumes wider than 256 cells with
    // fewer than 64 rows (not measured faster): one thread per cell
    // (docs/gpu.md).
    int n[3], axis_of[3];
    make_view(g, n, axis_of);
    const bool small = s->m.def->nstate <= MARCHING_MAX_STATES;
    if (!small || g->phi || n[2] == 1) return LAYOUT_NAIVE;
    if (n[1] == 1) return !s->fp64 && sheet_tblock(s, n) ? LAYOUT_TBLOCK : LAYOUT_NAIVE;
    if (s->fp64 && n[0] > 256 && !tplane_narrow_tiles(n)) return LAYOUT_NAIVE;
    return s->order == 2 && g->ntissue == g->ncells && s->m.def->nstate == 2 ? LAYOUT_TPLANE : LAYOUT_NAIVE;
}

// The layout for grid g: the rank's stored cells in one process; under
// mpirun the whole grid, so that every rank chooses alike, and before the
// decomposition, whose ghost layers depend on the choice (cuda_ghost_layers).
static int choose_layout(const sim *s, const grid *g, int nranks)
{
    if (s->blocks[0]) return LAYOUT_BLOCK;
    const int asked = s->layout[0] ? layout_find(s->layout) : -1;
    if (asked >= 0) return asked;
    // Split over ranks: one step per kernel (naive and blockDS, ghost layers
    // of V refreshed after every step) or tplane (K steps per kernel, K ghost
    // layers of every state refreshed after each kernel); the other layouts
    // do not run decomposed.
    int l = default_layout(s, g);
    if (s->members && !layout_table[l].members) l = LAYOUT_NAIVE;   // an ensemble's sheets of rows: per-member D
    return nranks > 1 && l != LAYOUT_TPLANE ? LAYOUT_NAIVE : l;
}

int pick_layout(const sim *s) { return choose_layout(s, s->dc.nranks > 1 ? &s->g : &s->lg, s->dc.nranks); }

// Steps per kernel by default: 3, but 2 for tblock's general kernels (the
// parameters off their defaults at the start), whose K = 3 variants spill
// (ptxas: 48 bytes a thread for Aliev-Panfilov, 28 for Karma) and ran slower
// than K = 2 wherever tblock is the default (Aliev-Panfilov 4096^2: 0.0927
// against 0.0824 ms a step) and on Karma 256^3 (0.1444 against 0.1389;
// docs/gpu-notebook.md, item 65). tplane tiles spanning more than 256 cells
// hold too few rows for 3 levels in shared memory (Karma 512^3 on the H100:
// K = 2 0.568 ms a step, K = 3 0.706 ms on tiles of 288 cells;
// docs/performance.md), and so do fp64 tiles (256^3: K = 2 0.130 ms, K = 3
// 0.173 ms; docs/gpu-notebook.md, item 16; with 1024 threads, item 66: 0.140
// against 0.272). fp32 tiles 64 wide hold 64 rows at K = 3; fp64 takes K = 2
// on every tile.
int default_tsteps(const sim *s, const grid *g, int layout)
{
    int n[3], axis_of[3];
    make_view(g, n, axis_of);
    if (layout == LAYOUT_TBLOCK) return params_folded(s) ? 3 : 2;
    if (layout != LAYOUT_TPLANE) return 3;
    if (s->fp64) return 2;
    return n[0] > 256 && !tplane_narrow_tiles(n) ? 2 : 3;
}

// Under mpirun, tplane's ranks hold K ghost layers of every state: a rank's
// part with them is a z chunk of the one-GPU kernel with its halo planes
// (cuda/kernels_tplane.cuh), advanced K steps between two exchanges.
int cuda_ghost_layers(const sim *s, const grid *g, int nranks)
{
    const int reach = s->order / 2;
    if (nranks < 2 || choose_layout(s, g, nranks) != LAYOUT_TPLANE) return reach;
    return reach * (s->tsteps ? s->tsteps : default_tsteps(s, g, LAYOUT_TPLANE));
}

// tplane: grids wider than 256 cells (tplane_narrow_tiles): tiles 64
// cells wide with their x halo; 16 rows of threads make tiles of 64 x 64
// cells at K = 3, whose halo of 3 cells a side costs less than the y halo of
// a tile spanning 512 cells or more, which holds 10 rows at K = 2 and writes
// 6 (Karma on an H200: 512^3 0.439 ms a step against 0.552 on 512 x 10
// tiles, 1024^3 3.43 against 5.94 on 352 x 10; 256^3 keeps 256 x 16 tiles,
// 0.061 against 0.073 on 64 x 64; docs/gpu-notebook.md, item 20). Else tiles as wide
// as the grid up to 512 cells (no x halo), or the fewest tiles of at most 512
// with their halo; as many rows of threads as make 1024 threads (fp32 256^3
// K = 3: 0.060 against 0.090 with 512; docs/gpu-notebook.md, item 16), but
// 512 in fp64 for tiles of 512 cells (the compiled variant with 128 registers
// a thread and more rows, where 1024 threads would hold too few rows). fp64
// tiles of 128 and 256 cells took 512 threads too until item 66 measured
// 1024 faster or as fast (H100, K = 2: Karma 128^3 0.0180 against 0.0262 ms
// a step, Aliev-Panfilov 0.0245 against 0.0343; 256^3 0.1397 against 0.1400,
// and 0.1970 against 0.2084); and fit the block's shared memory.
static void tplane_shape(const sim *s, const int n[3], int *bx, int *by)
{
    const int K = s->tsteps, r32 = (n[0] + 31) / 32 * 32;
    int w = r32;
    if (tplane_narrow_tiles(n)) {
        w = 64;
    } else if (r32 > 512) {
        const int tiles = (n[0] + 511 - 2 * K) / (512 - 2 * K);
        w = ((n[0] + tiles - 1) / tiles + 2 * K + 31) / 32 * 32;
    }
    const int esize = s->fp64 ? 8 : 4, ns = s->m.def->nstate;
    int rp = 1, cpt = 1;
    auto fit = [&] {
        rp = s->fp64 && w > 256 && 512 % w == 0 ? 512 / w : std::max(1, 1024 / w);
        while (rp > 1 && tplane_smem(w, rp, ns, esize, K) > smem_limit()) rp--;
        cpt = tplane_cells_per_thread(ns, esize, K, w * rp);
    };
    fit();
    // models with many states hold few rows per thread: narrower tiles (with
    // an x halo) until the tile has rows left after its y halo
    while (w > 32 && n[1] > cpt * rp && cpt * rp <= 2 * K) {
        w = std::max(32, (w / 2 + 31) / 32 * 32);
        fit();
    }
    *bx = w;
    *by = rp;
}

// Thread-block shape per layout, in threads (a tblock thread holds 2 cells
// along x); 2D and 1D grids (view y = 1) use rows. The tblock shapes are the
// fastest of `cardiac protocols/benchmark.lua tune` on the H100.
void block_shape(const sim *s, int layout, const int n[3], int *bx, int *by)
{
    // blockDS: threads over the linear storage, as many as fit best (cuda/kernels_block.cuh)
    if (layout == LAYOUT_BLOCK) { *bx = 0; *by = 1; }
    else if (n[1] == 1) { *bx = layout == LAYOUT_TBLOCK ? 128 : 256; *by = 1; }
    else switch (layout) {
    case LAYOUT_TBLOCK: *bx = 16; *by = 32; break;   // tiles of 32 x 32 cells
    case LAYOUT_TPLANE: tplane_shape(s, n, bx, by); break;
    case LAYOUT_NAIVE: *bx = 32; *by = 8; break;
    default: *bx = 32; *by = 8; break;      // thesis: best towerDS block on the P100
    }
    // naive with the state in shared memory (ORd in fp64, mixed): 128 threads
    const int most = block_kernel_max_threads(s->m.def->nstate, s->fp64 ? 8 : 4);
    while (layout == LAYOUT_NAIVE && *bx * *by > most) {
        if (*by > 1) *by /= 2;
        else *bx /= 2;
    }
    if (s->block[0] > 0) { *bx = s->block[0]; *by = n[1] == 1 ? 1 : s->block[1]; }
}

// tplane's thread block {bx, by}: tiles bx cells wide (a multiple of 32:
// a warp is part of one row) and by rows of threads, whose shared memory
// fits the device.
int check_tplane_block(const sim *s, const int n[3], int bx, int by, char *err, size_t errlen)
{
    const int K = s->tsteps, esize = s->fp64 ? 8 : 4;
    const int rows = tplane_cells_per_thread(s->m.def->nstate, esize, K, bx * by) * by;
    const size_t smem = tplane_smem(bx, by, s->m.def->nstate, esize, K);
    if (bx % 32)
        snprintf(err, errlen, "layout 'tplane' needs block = {bx, by} with bx a multiple of 32 (a tile's width in "
                 "cells), got bx = %d", bx);
    else if (smem > smem_limit())
        snprintf(err, errlen, "layout 'tplane': block = {%d, %d} makes tiles of %d x %d cells, whose %d planes need "
                 "%zu bytes of shared memory; the GPU has %zu per block", bx, by, bx, rows,
                 tplane_planes(K, esize), smem, smem_limit());
    else if ((n[0] > bx && bx <= 2 * K) || (n[1] > rows && rows <= 2 * K))
        snprintf(err, errlen, "layout 'tplane' with tsteps = %d needs tiles of more than %d cells each way "
                 "(block = {%d, %d} makes %d x %d)", K, 2 * K, bx, by, bx, rows);
    else
        return 0;
    return -1;
}

