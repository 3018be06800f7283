// The CUDA backend: the state lives on the GPU for the whole run; stepping,
// stimuli, probes and output staging are queued on one compute stream, and
// output frames go to the host through pinned buffers on a second stream, so
// writing a frame overlaps the next steps. Every CUDA call is checked; a
// failure is recorded with sim_fail and raised by the shell as a Lua error.
#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <vector>
#include "dyad_stage.h"
#include "exchange.h"
#include "halo.h"
#include "launch.h"
#include "par.h"
#include "sim.h"
#include "singularity_kernels.h"

namespace {

struct probe_dev {
    const probe *p;
    size_t *cells;          // device copy of the probe's cells
    float *rows;            // device buffer of samples not yet copied to the host
    size_t cap, pending;
};

struct cuda_data {
    int layout;
    size_t esize, nstore;                 // bytes per value (mixed: of the double states), values per state array
    store_map map;
    launch_ctx base;                      // the fields that do not change between launches
    void *state[MODEL_MAX_STATE], *next[MODEL_MAX_STATE];
    void *istim;
    int stim_any;
    std::vector<size_t *> stim_cells;     // device copies of each stimulus's cells
    std::vector<size_t *> clamp_cells;    // and of each clamp's (core/interventions/clamp.h)
    uint8_t *plabel;                      // parameter set per stored cell, made on first use (core/interventions/param_sets.h)
    void *ptable;                         // the sets in the state's precision, MODEL_MAX_PARAM apart
    uint16_t *flags;
    float *phi;                           // phase field in storage order, or null
    uint8_t *mask8;                       // the row-major tissue mask (pseudo-ECG), made on first use
    double *ecg_acc;                      // its ECG_MAX_ELECTRODES sums
    block_map hblocks;                    // blockDS map with host tables (LAYOUT_BLOCK)
    uint32_t *dslot, *dorigin;            // its tables on the device
    int32_t *dnbr;
    unsigned long long *bad;
    cudaStream_t compute, copy;
    cudaEvent_t ev_snap, ev_copy, t0, t1;
    float *scratch;                       // one float field, for get/set
    float *dstage[MODEL_MAX_STATE], *hstage[MODEL_MAX_STATE];
    int nstage;
    std::vector<probe_dev> probes;
    size_t *sample_cells;
    float *sample_out;
    size_t sample_cap;
    // Split over ranks: the exchange, a second stream on which the interior
    // computes while the boundary layers' exchange runs on `compute`, and the
    // owned cells as view boxes {lo0, lo1, lo2, hi0, hi1, hi2}.
    gpu_exchange *xchg;
    cudaStream_t interior;
    cudaEvent_t ev_step, ev_inner;
    std::vector<std::array<int, 6>> edges;  // the layers next to shared faces
    std::array<int, 6> inner;               // the rest, which needs no ghost
    std::array<int, 6> own;                 // all owned cells (view axes)
    // blockDS: the same as ranges of storage indices [lo, hi): the stored
    // blocks that reach into the edge layers or ghost layers (first), and
    // the rest (block rows along z are contiguous in storage)
    std::vector<std::array<size_t, 2>> qedges;
    std::array<size_t, 2> qinner;
    void *facebuf;                          // blockDS, host-staged exchange: one face, packed
    size_t facecap;
    bool xy_split;                          // split along x or y (tplane: no overlap)
    gpu_dyads *dyads;                       // multiscale models: the calcium release units (cuda/dyad_stage.h)
    // phase singularities (core/measure/tips.h), made on first use: the tissue sums'
    // partials, the singular plaquettes found and their count
    double *phase_part2;
    sing_face *faces;
    size_t faces_cap;
    unsigned long long *faces_count;
};


const char *const layout_names[LAYOUT_COUNT] = {"naive", "window", "tower", "tblock", "block", "tplane"};

bool check(sim *s, cudaError_t e, const char *what)
{
    if (e == cudaSuccess) return true;
    sim_fail(s, "CUDA error in %s: %s", what, cudaGetErrorString(e));
    return false;
}
#define CU(s, call) check((s), (call), #call)

cuda_data *data(sim *s) { return (cuda_data *)s->bd; }

// Bytes of a stored value of state v: 4 for the float-valued gates of
// precision "mixed" (sim_var_fp64), else the precision's.
static size_t var_esize(const sim *s, int v) { return sim_var_fp64(s, v) ? sizeof(double) : sizeof(float); }

// Operations on two states at once, or on a pinned buffer sized for the
// simulation's precision, take one precision: a mixed simulation's gate
// (stored in float) cannot join them. Records the failure.
static bool same_precision(sim *s, int a, int b, const char *what)
{
    if (sim_var_fp64(s, a) == sim_var_fp64(s, b)) return true;
    const int g = sim_var_fp64(s, a) ? b : a;
    sim_fail(s, "%s: state '%s' is stored in float on the GPU in precision 'mixed' and cannot be combined with "
             "double states there; use two non-gate states, precision 'fp64', or the cpu backend",
             what, s->m.def->states[g].name);
    return false;
}

// Host-to-device copy queued on the compute stream, so that the kernels queued
// after it see the data. A plain cudaMemcpy from pageable memory may return
// before its DMA has finished, and the legacy stream it runs on does not order
// the backend's non-blocking streams: a kernel could read the buffer first.
// (Pageable sources are staged before cudaMemcpyAsync returns, so the caller
// may free them at once.)
static bool upload(sim *s, void *dst, const void *src, size_t bytes)
{
    return CU(s, cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, data(s)->compute));
}

// Grid to kernel view: 2D grids run as nx x 1 x ny so that the kernels that
// march along z march along y (the view's linear index equals the grid's).
void make_view(const grid *g, int n[3], int axis_of[3])
{
    if (g->dim == 3) { for (int a = 0; a < 3; a++) { n[a] = g->n[a]; axis_of[a] = a; } return; }
    n[0] = g->n[0]; axis_of[0] = 0;
    n[1] = 1; axis_of[1] = -1;
    n[2] = g->dim == 2 ? g->n[1] : 1; axis_of[2] = g->dim == 2 ? 1 : -1;
}

// Neighbour flags of every cell (cuda/device_common.cuh) for a masked grid.
std::vector<uint16_t> neighbour_flags(const grid *g, const int n[3])
{
    std::vector<uint16_t> f(g->ncells);
    const long stride[3] = {1, n[0], (long)n[0] * n[1]};
    for (size_t c = 0; c < g->ncells; c++) {
        long pos[3] = {(long)(c % n[0]), (long)(c / n[0] % n[1]), (long)(c / stride[2])};
        unsigned w = g->mask[c] ? FLAG_SELF : 0;
        for (int a = 0; a < 3; a++) {
            const int off[4] = {-1, 1, -2, 2};
            for (int b = 0; b < 4; b++) {
                long q = pos[a] + off[b];
                if (q >= 0 && q < n[a] && g->mask[c + off[b] * stride[a]]) w |= 1u << (4 * a + b);
            }
        }
        f[c] = (uint16_t)w;
    }
    return f;
}

// One GPU per rank: the rank's place among the ranks of its node picks it.
static int rank_device()
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n < 1) return 0;
    return par_local_rank() % n;
}

static int default_layout(const sim *s, const grid *g)
{
    // Default: the fastest layout measured on the H100 (docs/performance.md).
    // fp32 sheets (2D grids, view y = 1): temporal blocking, which moves a
    // third of the bytes per step and whose tiles are long rows with little
    // halo. Volumes of the two-state models without a mask: temporal
    // blocking over wide tiles (tplane; Karma 256^3 1.55x and 512^3 1.26x
    // faster than naive on the H100 in fp32; in fp64, tiles up to 256 cells
    // wide, 256^3 1.26x). Masked volumes (hearts: naive skips the warps
    // without tissue; blockDS), fp64 sheets and wider fp64 volumes (not
    // measured faster): one thread per cell (docs/gpu.md).
    int n[3], axis_of[3];
    make_view(g, n, axis_of);
    const bool small = s->m.def->nstate <= MARCHING_MAX_STATES;
    if (!small || g->phi || n[2] == 1) return LAYOUT_NAIVE;
    if (n[1] == 1) return s->fp64 ? LAYOUT_NAIVE : LAYOUT_TBLOCK;
    if (s->fp64 && n[0] > 256) return LAYOUT_NAIVE;
    return s->order == 2 && g->ntissue == g->ncells && s->m.def->nstate == 2 ? LAYOUT_TPLANE : LAYOUT_NAIVE;
}

// The layout for grid g: the rank's stored cells in one process; under
// mpirun the whole grid, so that every rank chooses alike, and before the
// decomposition, whose ghost layers depend on the choice (cuda_ghost_layers).
static int choose_layout(const sim *s, const grid *g, int nranks)
{
    if (s->blocks[0]) return LAYOUT_BLOCK;
    for (int l = 0; l < LAYOUT_COUNT; l++)
        if (!strcmp(s->layout, layout_names[l])) return l;
    // Split over ranks: one step per kernel (naive and blockDS, ghost layers
    // of V refreshed after every step) or tplane (K steps per kernel, K ghost
    // layers of every state refreshed after each kernel); the other layouts
    // do not run decomposed.
    const int l = default_layout(s, g);
    return nranks > 1 && l != LAYOUT_TPLANE ? LAYOUT_NAIVE : l;
}

static int pick_layout(const sim *s) { return choose_layout(s, s->dc.nranks > 1 ? &s->g : &s->lg, s->dc.nranks); }

// tplane in fp32 on grids wider than 256 cells: tiles 64 cells wide with an
// x halo (tplane_shape), where the grid has the 64 rows such a tile holds.
static bool tplane_narrow_tiles(const sim *s, const int n[3])
{
    return !s->fp64 && n[0] > 256 && n[1] >= 64;
}

// Steps per kernel by default: 3; tplane tiles spanning more than 256 cells
// hold too few rows for 3 levels in shared memory (Karma 512^3 on the H100:
// K = 2 0.568 ms a step, K = 3 0.706 ms on tiles of 288 cells;
// docs/performance.md), and so do fp64 tiles (256^3: K = 2 0.130 ms, K = 3
// 0.173 ms; docs/gpu-notebook.md, item 16). Tiles 64 wide hold 64 rows at K = 3.
static int default_tsteps(const sim *s, const grid *g, int layout)
{
    int n[3], axis_of[3];
    make_view(g, n, axis_of);
    if (layout != LAYOUT_TPLANE || tplane_narrow_tiles(s, n)) return 3;
    return n[0] > 256 || s->fp64 ? 2 : 3;
}

// Under mpirun, tplane's ranks hold K ghost layers of every state: a rank's
// part with them is a z chunk of the one-GPU kernel with its halo planes
// (cuda/kernels_tplane.cuh), advanced K steps between two exchanges.
static int cuda_ghost_layers(const sim *s, const grid *g, int nranks)
{
    const int reach = s->order / 2;
    if (nranks < 2 || choose_layout(s, g, nranks) != LAYOUT_TPLANE) return reach;
    return reach * (s->tsteps ? s->tsteps : default_tsteps(s, g, LAYOUT_TPLANE));
}

// tplane: fp32 grids wider than 256 cells (tplane_narrow_tiles): tiles 64
// cells wide with their x halo; 16 rows of threads make tiles of 64 x 64
// cells at K = 3, whose halo of 3 cells a side costs less than the y halo of
// a tile spanning 512 cells or more, which holds 10 rows at K = 2 and writes
// 6 (Karma on an H200: 512^3 0.439 ms a step against 0.552 on 512 x 10
// tiles, 1024^3 3.43 against 5.94 on 352 x 10; 256^3 keeps 256 x 16 tiles,
// 0.061 against 0.073 on 64 x 64; docs/gpu-notebook.md, item 20). Else tiles as wide
// as the grid up to 512 cells (no x halo), or the fewest tiles of at most 512
// with their halo; as many rows of threads as make 512 threads in fp64 where
// the width divides 512 (the compiled variant with 128 registers a thread and
// more rows; on the H100, Karma 256^3 fp64 K = 2 0.130 ms a step against
// 0.146 with 1024 threads), else 1024 (fp32 256^3 K = 3: 0.060 against 0.090
// with 512; docs/gpu-notebook.md, item 16); and fit the block's shared memory.
static void tplane_shape(const sim *s, const int n[3], int *bx, int *by)
{
    const int K = s->tsteps, r32 = (n[0] + 31) / 32 * 32;
    int w = r32;
    if (tplane_narrow_tiles(s, n)) {
        w = 64;
    } else if (r32 > 512) {
        const int tiles = (n[0] + 511 - 2 * K) / (512 - 2 * K);
        w = ((n[0] + tiles - 1) / tiles + 2 * K + 31) / 32 * 32;
    }
    const int esize = s->fp64 ? 8 : 4, ns = s->m.def->nstate;
    int rp = 1, cpt = 1;
    auto fit = [&] {
        rp = s->fp64 && 512 % w == 0 ? 512 / w : std::max(1, 1024 / w);
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

int fail_init(char *err, size_t errlen, const char *what, cudaError_t e)
{
    snprintf(err, errlen, "CUDA error in %s: %s", what, cudaGetErrorString(e));
    return -1;
}

// cudaMemset runs on the legacy stream, which does not order the backend's
// non-blocking streams: it is waited for here, before anything else can
// write the new buffer.
bool dev_alloc(void **p, size_t bytes, char *err, size_t errlen)
{
    cudaError_t e = cudaMalloc(p, bytes ? bytes : 1);
    if (e == cudaSuccess) { cudaMemset(*p, 0, bytes ? bytes : 1); cudaStreamSynchronize(0); return true; }
    size_t fr = 0, tot = 0;
    cudaGetLastError();
    cudaMemGetInfo(&fr, &tot);
    char a[32], b[32], c[32];
    format_bytes((double)bytes, a, sizeof a); format_bytes((double)fr, b, sizeof b); format_bytes((double)tot, c, sizeof c);
    snprintf(err, errlen, "out of GPU memory: asked for %s, %s free of %s (%s)", a, b, c, cudaGetErrorString(e));
    *p = nullptr;
    return false;
}

}  // namespace

long blocks_wanted(int threads_per_block)
{
    static int sms = 0;
    if (!sms) {
        int dev = 0;
        cudaGetDevice(&dev);
        if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess || sms < 1) sms = 100;
    }
    long per_sm = std::max(1, 2048 / std::max(1, threads_per_block));
    return 2L * sms * per_sm;
}

// The owned cells of a decomposed grid as view boxes: the interior (owned,
// shrunk by the ghost width at every face shared with a rank) and the
// boundary slabs around it (thesis 4.5: computed first, so that their
// exchange overlaps the interior's computation).
static void split_boxes(const sim *s, cuda_data *cd)
{
    int n[3], axis_of[3], lo[3], hi[3], ilo[3], ihi[3];
    make_view(&s->lg, n, axis_of);
    for (int v = 0; v < 3; v++) {
        const int a = axis_of[v];
        lo[v] = a >= 0 ? s->own_lo[a] : 0;
        hi[v] = a >= 0 ? s->own_hi[a] : 1;
        ilo[v] = lo[v] + (a >= 0 && s->dc.nbr[a][0] >= 0 ? s->dc.ghost : 0);
        ihi[v] = hi[v] - (a >= 0 && s->dc.nbr[a][1] >= 0 ? s->dc.ghost : 0);
        cd->own[v] = lo[v];
        cd->own[3 + v] = hi[v];
    }
    cd->xy_split = false;
    for (int v = 0; v < 2; v++) cd->xy_split |= axis_of[v] >= 0 && s->dc.dims[axis_of[v]] > 1;
    cd->edges.clear();
    // peel slabs off the remaining box, z first; a part thinner than two
    // ghost widths is all edge (the exchange reads its cells), no interior
    for (int v = 2; v >= 0; v--) {
        std::array<int, 6> b = {lo[0], lo[1], lo[2], hi[0], hi[1], hi[2]};
        if (ilo[v] > lo[v]) { b[3 + v] = std::min(ilo[v], hi[v]); cd->edges.push_back(b); lo[v] = b[3 + v]; }
        b = {lo[0], lo[1], lo[2], hi[0], hi[1], hi[2]};
        if (ihi[v] < hi[v]) {
            b[v] = std::max(ihi[v], lo[v]);
            if (b[v] < hi[v]) cd->edges.push_back(b);
            hi[v] = b[v];
        }
    }
    cd->inner = {lo[0], lo[1], lo[2], hi[0], hi[1], hi[2]};
}

// Stream priorities: `compute` (the boundary layers, the halo exchange and
// its NCCL kernels) the highest, `interior` the lowest, so that the block
// scheduler gives freed SMs to the exchange before the interior's waiting
// blocks; at equal priority the exchange's kernels queue behind the whole
// interior grid and its latency shows after it (docs/mpi.md).
static int stream_priority(bool high)
{
    int least = 0, greatest = 0;
    cudaDeviceGetStreamPriorityRange(&least, &greatest);
    return high ? greatest : least;
}

// Storage index of the first stored block at block row bz (z) or after it.
static size_t first_index_at_row(const block_map &h, int bz)
{
    const size_t row = (size_t)h.nb[0] * h.nb[1];
    for (size_t box = (size_t)bz * row; box < h.nboxblocks; box++)
        if (h.slot[box] != BLOCK_NONE) return h.slot[box] * h.bvol;
    return block_map_cells(&h);
}

// blockDS split over ranks: split_boxes' edges and interior as ranges of
// storage. Along z, the block rows that reach below the interior's first
// plane or past its last (the edge layers, and the ghost layers, whose cells
// the kernel only copies) come first; the rows between them are the interior.
// Split along x or y, or where the two edge ranges meet, all is edge.
static void split_block_ranges(cuda_data *cd)
{
    const block_map &h = cd->hblocks;
    const size_t all = block_map_cells(&h);
    const int bz = h.b[2];
    const int first = (cd->inner[2] + bz - 1) / bz, last = cd->inner[5] / bz;   // interior rows [first, last)
    cd->qedges.clear();
    if (cd->xy_split || first >= last) {   // (an empty interior, inner[2] >= inner[5], gives first >= last)
        cd->qedges.push_back({0, all});
        cd->qinner = {0, 0};
        return;
    }
    const size_t a = first_index_at_row(h, first), b = first_index_at_row(h, last);
    if (a > 0) cd->qedges.push_back({0, a});
    if (b < all) cd->qedges.push_back({b, all});
    cd->qinner = {a, b};
}

static int init_split(sim *s, cuda_data *cd, char *err, size_t errlen)
{
    cudaError_t e;
    if ((e = cudaStreamCreateWithPriority(&cd->interior, cudaStreamNonBlocking, stream_priority(false))) !=
            cudaSuccess ||
        (e = cudaEventCreateWithFlags(&cd->ev_step, cudaEventDisableTiming)) != cudaSuccess ||
        (e = cudaEventCreateWithFlags(&cd->ev_inner, cudaEventDisableTiming)) != cudaSuccess)
        return fail_init(err, errlen, "creating the interior stream", e);
    split_boxes(s, cd);
    if (cd->layout == LAYOUT_BLOCK) split_block_ranges(cd);
    // tplane exchanges every state, the other layouts V alone
    cd->xchg = gpu_exchange_create(s, cd->map, cd->layout == LAYOUT_TPLANE ? s->m.def->nstate : 1, err, errlen);
    return cd->xchg ? 0 : -1;
}

// blockDS: the map is built in view axes (2D grids: blocks of bx x 1 x by
// cells), where the flags and the kernels' coefficients live, and its tables
// are copied to the device.
static int init_blocks(sim *s, cuda_data *cd, const int n[3], const int axis_of[3], char *err, size_t errlen)
{
    grid view = s->lg;   // shares the mask; only sizes change
    view.dim = 3;
    int b[3];
    for (int a = 0; a < 3; a++) {
        view.n[a] = n[a];
        b[a] = axis_of[a] >= 0 ? s->blocks[axis_of[a]] : 1;
    }
    block_map &h = cd->hblocks;
    if (block_map_build(&h, &view, b, err, errlen) != 0) return -1;
    if (!dev_alloc((void **)&cd->dslot, h.nboxblocks * sizeof *h.slot, err, errlen) ||
        !dev_alloc((void **)&cd->dorigin, std::max<size_t>(h.nactive, 1) * sizeof *h.origin, err, errlen) ||
        !dev_alloc((void **)&cd->dnbr, std::max<size_t>(h.nactive, 1) * 6 * sizeof *h.nbr, err, errlen))
        return -1;
    // before the streams exist: cuda_init's cudaDeviceSynchronize waits for these copies
    cudaMemcpy(cd->dslot, h.slot, h.nboxblocks * sizeof *h.slot, cudaMemcpyHostToDevice);
    cudaMemcpy(cd->dorigin, h.origin, h.nactive * sizeof *h.origin, cudaMemcpyHostToDevice);
    cudaMemcpy(cd->dnbr, h.nbr, h.nactive * 6 * sizeof *h.nbr, cudaMemcpyHostToDevice);
    block_map d = h;
    d.slot = cd->dslot;
    d.origin = cd->dorigin;
    d.nbr = cd->dnbr;
    cd->base.blocks = d;
    cd->map.blocks = d;
    cd->nstore = block_map_cells(&h);
    cd->base.qlo = 0;
    cd->base.qhi = cd->nstore;
    return 0;
}

// Per-cell data in the layout's order: row-major, or blockDS storage order
// (cells past the box's end get `pad`).
template <class V>
std::vector<V> in_store_order(const cuda_data *cd, const std::vector<V> &rowmajor, V pad)
{
    if (cd->layout != LAYOUT_BLOCK) return rowmajor;
    const block_map &h = cd->hblocks;
    std::vector<V> out(cd->nstore, pad);
    for (size_t q = 0; q < cd->nstore; q++) {
        int l[3], p[3];
        if (block_position(&h, q, l, p)) out[q] = rowmajor[((size_t)p[2] * h.n[1] + p[1]) * h.n[0] + p[0]];
    }
    return out;
}

// blockDS under mpirun: the kernel steps every stored cell whose flags say
// it is tissue, so the ghost cells (a neighbour's, read by the stencil, their
// V refreshed by the exchange after every step) lose that bit and are only
// read: the owned cells are the ones stepped.
static void step_owned_only(const sim *s, std::vector<uint16_t> &f)
{
    const grid *g = &s->lg;
    for (size_t c = 0; c < g->ncells; c++) {
        size_t rest = c;
        for (int a = 0; a < g->dim; a++) {
            const int p = (int)(rest % g->n[a]);
            rest /= g->n[a];
            if (p < s->own_lo[a] || p >= s->own_hi[a]) f[c] &= (uint16_t)~FLAG_SELF;
        }
    }
}

// Neighbour flags and the phase field on the device, in storage order (copied
// before the first kernel: cuda_init ends with cudaDeviceSynchronize).
static int upload_cell_data(sim *s, cuda_data *cd, const int n[3], char *err, size_t errlen)
{
    const grid *g = &s->lg;
    launch_ctx &b = cd->base;
    if (b.masked) {
        std::vector<uint16_t> rowmajor = neighbour_flags(g, n);
        if (cd->layout == LAYOUT_BLOCK && s->dc.nranks > 1) step_owned_only(s, rowmajor);
        std::vector<uint16_t> f = in_store_order<uint16_t>(cd, rowmajor, 0);
        if (!dev_alloc((void **)&cd->flags, 2 * f.size(), err, errlen)) return -1;
        cudaMemcpy(cd->flags, f.data(), 2 * f.size(), cudaMemcpyHostToDevice);
        b.flags = cd->flags;
    }
    if (g->phi) {
        std::vector<float> p = in_store_order<float>(cd, std::vector<float>(g->phi, g->phi + g->ncells), 1.0f);
        if (!dev_alloc((void **)&cd->phi, sizeof(float) * p.size(), err, errlen)) return -1;
        cudaMemcpy(cd->phi, p.data(), sizeof(float) * p.size(), cudaMemcpyHostToDevice);
        b.phi = cd->phi;
    }
    return 0;
}

// tplane's thread block {bx, by}: tiles bx cells wide (a multiple of 32:
// a warp is part of one row) and by rows of threads, whose shared memory
// fits the device.
static int check_tplane_block(const sim *s, const int n[3], int bx, int by, char *err, size_t errlen)
{
    const int K = s->tsteps, esize = s->fp64 ? 8 : 4;
    const int rows = tplane_cells_per_thread(s->m.def->nstate, esize, K, bx * by) * by;
    const size_t smem = tplane_smem(bx, by, s->m.def->nstate, esize, K);
    if (bx % 32)
        snprintf(err, errlen, "layout 'tplane' needs block = {bx, by} with bx a multiple of 32 (a tile's width in "
                 "cells), got bx = %d", bx);
    else if (smem > smem_limit())
        snprintf(err, errlen, "layout 'tplane': block = {%d, %d} makes tiles of %d x %d cells, whose %d planes need "
                 "%zu bytes of shared memory; the GPU has %zu per block", bx, by, bx, rows, 3 * K + 1, smem, smem_limit());
    else if ((n[0] > bx && bx <= 2 * K) || (n[1] > rows && rows <= 2 * K))
        snprintf(err, errlen, "layout 'tplane' with tsteps = %d needs tiles of more than %d cells each way "
                 "(block = {%d, %d} makes %d x %d)", K, 2 * K, bx, by, bx, rows);
    else
        return 0;
    return -1;
}

static int cuda_init(sim *s, char *err, size_t errlen)
{
    if (s->dc.nranks > 1 && s->layout[0] && strcmp(s->layout, "naive") && strcmp(s->layout, "tplane") &&
        strcmp(s->layout, "block")) {
        snprintf(err, errlen, "layout '%s' does not run split over several ranks yet; use layout = \"naive\" or "
                 "\"tplane\", or blocks", s->layout);
        return -1;
    }
    const model_def *md = s->m.def;
    if (s->lg.phi && s->layout[0] && strcmp(s->layout, "naive") && strcmp(s->layout, "block")) {
        snprintf(err, errlen, "layout '%s' does not run phase-field meshes; use layout = \"naive\" or blocks",
                 s->layout);
        return -1;
    }
    if (md->nstate > MARCHING_MAX_STATES && s->layout[0] && strcmp(s->layout, "naive") && strcmp(s->layout, "block")) {
        snprintf(err, errlen, "layout '%s' is built for models with at most %d states; '%s' has %d: use "
                 "layout = \"naive\" (its default)", s->layout, MARCHING_MAX_STATES, md->name, md->nstate);
        return -1;
    }
    cudaError_t dev = cudaSetDevice(rank_device());
    if (dev != cudaSuccess) return fail_init(err, errlen, "cudaSetDevice", dev);
    cuda_data *cd = new cuda_data();
    s->bd = cd;
    const model_def *d = s->m.def;
    const grid *g = &s->lg;
    int n[3], axis_of[3];
    make_view(g, n, axis_of);
    cd->layout = pick_layout(s);
    cd->esize = s->fp64 ? sizeof(double) : sizeof(float);
    if (layout_temporal(cd->layout) && !s->tsteps)
        s->tsteps = default_tsteps(s, s->dc.nranks > 1 ? &s->g : &s->lg, cd->layout);
    if (!layout_temporal(cd->layout)) s->tsteps = 0;
    snprintf(s->layout, sizeof s->layout, "%s", layout_names[cd->layout]);

    launch_ctx &b = cd->base;
    memset(&b, 0, sizeof b);
    b.model = d->id;
    b.fp64 = s->fp64;
    b.mixed = s->mixed;
    if (s->mixed && !model_has_mixed_kernels(d->id)) {
        snprintf(err, errlen, "precision 'mixed' for model %s: its kernels are not built (CARDIAC_MIXED_MODELS, "
                 "cuda/launch.h)", d->name);
        return -1;
    }
    b.order = s->order;
    // blockDS always keeps flags, and so does a phase field: the kernels take
    // its diffusion on their masked path, also where it leaves no cell out
    // (a phase field positive everywhere ran the plain stencil until 2026-11-24)
    b.masked = g->ntissue != g->ncells || cd->layout == LAYOUT_BLOCK || g->phi;
    for (int a = 0; a < 3; a++) { b.n[a] = n[a]; b.lo[a] = 0; b.hi[a] = n[a]; }
    if ((long long)n[0] * n[1] >= 1LL << 30) {   // the kernels index within a plane with 32 bits
        snprintf(err, errlen, "grid planes of %d x %d cells are too large for the cuda backend (at most 2^30 cells)",
                 n[0], n[1]);
        return -1;
    }
    block_shape(s, cd->layout, n, &b.bx, &b.by);
    s->block[0] = b.bx;
    s->block[1] = b.by;
    const int r = s->order / 2;
    if (b.bx * b.by > 1024 || (b.bx < 2 * r + 1 && !(cd->layout == LAYOUT_BLOCK && b.bx == 0))) {
        snprintf(err, errlen, "thread block %d x %d is not usable: at most 1024 threads, at least %d along x",
                 b.bx, b.by, 2 * r + 1);
        return -1;
    }
    if ((cd->layout == LAYOUT_BLOCK || cd->layout == LAYOUT_NAIVE) &&
        b.bx * b.by > block_kernel_max_threads(s->m.def->nstate, s->fp64 ? 8 : 4)) {
        snprintf(err, errlen, "thread block %d x %d is not usable with layout '%s' and model '%s' in %s: its step "
                 "kernel takes at most %d threads", b.bx, b.by, layout_names[cd->layout], s->m.def->name,
                 model_precision_name(sim_precision(s)), block_kernel_max_threads(s->m.def->nstate, s->fp64 ? 8 : 4));
        return -1;
    }
    if (cd->layout == LAYOUT_TPLANE && check_tplane_block(s, n, b.bx, b.by, err, errlen) != 0) return -1;
    if (cd->layout == LAYOUT_TBLOCK) {
        const int K = s->tsteps;
        const int cells_x = b.bx * tblock_cells_per_thread();
        if (cells_x <= 2 * K * r || (n[1] > 1 && b.by <= 2 * K * r)) {
            snprintf(err, errlen,
                     "layout 'tblock' with tsteps = %d needs tiles of more than %d cells each way (block = {%d, %d} "
                     "threads make %d x %d cells)", K, 2 * K * r, b.bx, b.by, cells_x, b.by);
            return -1;
        }
    }
    cd->nstore = g->ncells;
    if (cd->layout == LAYOUT_TOWER) {
        tower_geom &t = b.tower;
        t.tx = b.bx; t.ty = b.by; t.r = r;
        t.ntx = (n[0] + t.tx - 1) / t.tx;
        t.nty = (n[1] + t.ty - 1) / t.ty;
        t.layer_size = (size_t)t.tx * t.ty + 2 * (size_t)r * t.ty;
        t.total = (size_t)t.ntx * t.nty * n[2] * t.layer_size;
        cd->nstore = t.total;
    }
    cd->map.layout = cd->layout;
    for (int a = 0; a < 3; a++) cd->map.n[a] = n[a];
    cd->map.tower = b.tower;
    if (cd->layout == LAYOUT_BLOCK && init_blocks(s, cd, n, axis_of, err, errlen) != 0) return -1;
    const size_t nstim = cd->layout == LAYOUT_BLOCK ? cd->nstore : g->ncells;

    // Check the whole allocation against free device memory before starting.
    const int nnext = layout_temporal(cd->layout) ? d->nstate : 1;
    double state_bytes = 0;
    for (int v = 0; v < d->nstate; v++) state_bytes += var_esize(s, v);
    double need = (state_bytes + (double)cd->esize * nnext) * cd->nstore + (double)cd->esize * nstim +
                  (b.masked ? 2.0 * nstim : 0) + (g->phi ? 4.0 * nstim : 0) + 4.0 * g->ncells +
                  gpu_dyads_bytes(s, g->ntissue);
    size_t fr = 0, tot = 0;
    cudaError_t e = cudaSetDevice(rank_device());
    if (e == cudaSuccess) e = cudaMemGetInfo(&fr, &tot);
    if (e != cudaSuccess) return fail_init(err, errlen, "cudaMemGetInfo", e);
    if (need > (double)fr) {
        char a1[32], a2[32], a3[32];
        format_bytes(need, a1, sizeof a1); format_bytes((double)fr, a2, sizeof a2); format_bytes((double)tot, a3, sizeof a3);
        char dy[64] = "";
        if (d->multiscale) snprintf(dy, sizeof dy, ", %g dyads per cell", s->m.p[GR_DYADS]);
        snprintf(err, errlen, "out of GPU memory: the simulation needs %s on the GPU (%zu cells x %d states%s, %s, "
                 "layout '%s'); %s is free of %s", a1, g->ncells, d->nstate, dy, model_precision_name(sim_precision(s)),
                 layout_names[cd->layout], a2, a3);
        return -1;
    }
    if ((e = cudaStreamCreateWithPriority(&cd->compute, cudaStreamNonBlocking, stream_priority(true))) != cudaSuccess ||
        (e = cudaStreamCreateWithFlags(&cd->copy, cudaStreamNonBlocking)) != cudaSuccess ||
        (e = cudaEventCreateWithFlags(&cd->ev_snap, cudaEventDisableTiming)) != cudaSuccess ||
        (e = cudaEventCreateWithFlags(&cd->ev_copy, cudaEventDisableTiming)) != cudaSuccess ||
        (e = cudaEventCreate(&cd->t0)) != cudaSuccess || (e = cudaEventCreate(&cd->t1)) != cudaSuccess)
        return fail_init(err, errlen, "creating streams and events", e);
    b.stream = cd->compute;
    for (int v = 0; v < d->nstate; v++)
        if (!dev_alloc(&cd->state[v], var_esize(s, v) * cd->nstore, err, errlen)) return -1;
    for (int v = 0; v < d->nstate; v++) {
        if (!layout_temporal(cd->layout) && v != d->vindex) { cd->next[v] = cd->state[v]; continue; }
        if (!dev_alloc(&cd->next[v], var_esize(s, v) * cd->nstore, err, errlen)) return -1;
    }
    if (!dev_alloc(&cd->istim, cd->esize * nstim, err, errlen) ||
        !dev_alloc((void **)&cd->scratch, sizeof(float) * g->ncells, err, errlen) ||
        !dev_alloc((void **)&cd->bad, sizeof(unsigned long long), err, errlen))
        return -1;
    cudaMemset(cd->bad, 0xff, sizeof(unsigned long long));
    if (upload_cell_data(s, cd, n, err, errlen) != 0) return -1;
    b.bad = cd->bad;
    // resting state: every stored value, halo copies included, is the rest value
    for (int v = 0; v < d->nstate; v++)   // a float state gets its rest value rounded, as the model's step would
        fill_field(sim_var_fp64(s, v), cd->state[v], cd->nstore, s->m.rest[v], cd->compute);
    e = cudaDeviceSynchronize();
    if (e != cudaSuccess) return fail_init(err, errlen, "initialising the state", e);
    if (s->failed) { snprintf(err, errlen, "%s", s->error); return -1; }
    return s->dc.nranks > 1 ? init_split(s, cd, err, errlen) : 0;
}

static void cuda_free(sim *s)
{
    cuda_data *cd = data(s);
    if (!cd) return;
    cudaDeviceSynchronize();
    gpu_dyads_free(cd->dyads);
    for (int v = 0; v < MODEL_MAX_STATE; v++) {
        if (cd->next[v] && cd->next[v] != cd->state[v]) cudaFree(cd->next[v]);
        cudaFree(cd->state[v]);
        cudaFree(cd->dstage[v]);
        if (cd->hstage[v]) cudaFreeHost(cd->hstage[v]);
    }
    for (size_t *p : cd->stim_cells) cudaFree(p);
    for (size_t *p : cd->clamp_cells) cudaFree(p);
    cudaFree(cd->plabel); cudaFree(cd->ptable);
    for (probe_dev &p : cd->probes) { cudaFree(p.cells); cudaFree(p.rows); }
    cudaFree(cd->istim); cudaFree(cd->scratch); cudaFree(cd->bad); cudaFree(cd->flags); cudaFree(cd->phi); cudaFree(cd->facebuf);
    cudaFree(cd->mask8); cudaFree(cd->ecg_acc);
    cudaFree(cd->phase_part2); cudaFree(cd->faces); cudaFree(cd->faces_count);
    cudaFree(cd->dslot); cudaFree(cd->dorigin); cudaFree(cd->dnbr);
    block_map_free(&cd->hblocks);
    cudaFree(cd->sample_cells); cudaFree(cd->sample_out);
    if (cd->compute) cudaStreamDestroy(cd->compute);
    if (cd->copy) cudaStreamDestroy(cd->copy);
    gpu_exchange_free(cd->xchg);
    if (cd->interior) cudaStreamDestroy(cd->interior);
    for (cudaEvent_t ev : {cd->ev_snap, cd->ev_copy, cd->t0, cd->t1, cd->ev_step, cd->ev_inner})
        if (ev) cudaEventDestroy(ev);
    delete cd;
    s->bd = nullptr;
}

// Launch fields that may change between calls: D, dt, parameters, stimulus.
static launch_ctx current_ctx(sim *s)
{
    cuda_data *cd = data(s);
    launch_ctx c = cd->base;
    int n[3], axis_of[3];
    make_view(&s->lg, n, axis_of);
    for (int a = 0; a < 3; a++) c.coef[a] = axis_of[a] >= 0 ? s->st.coef[axis_of[a]] : 0.0;
    c.dt = s->dt;
    c.fold = !c.plabel;   // cells with sets of their own need the general kernels
    for (int q = 0; q < s->m.def->nparam; q++) c.fold &= s->m.p[q] == s->m.def->params[q].value;
    model_step_params(s->m.def, s->m.p, c.p);   // and the slots derived from them
    c.istim = cd->stim_any ? cd->istim : nullptr;
    return c;
}

// One launch on stream st updating box b (view axes, lo then hi) of a
// decomposed run's owned cells; none where b is empty (a thin part's interior).
static void launch_box(launch_ctx &c, const std::array<int, 6> &b, cudaStream_t st, void (*launch)(const launch_ctx &))
{
    for (int a = 0; a < 3; a++) {
        c.lo[a] = b[a];
        c.hi[a] = b[3 + a];
        if (c.lo[a] >= c.hi[a]) return;
    }
    c.stream = st;
    launch(c);
}

// One launch of blockDS on stream st over storage indices r = [lo, hi).
static void launch_range(launch_ctx &c, const std::array<size_t, 2> &r, cudaStream_t st)
{
    c.qlo = r[0];
    c.qhi = r[1];
    c.stream = st;
    launch_block(c);
}

// One step of a decomposed run (naive or blockDS): the boundary layers on
// `compute`, the interior on `interior` meanwhile, then V's ghost layers
// exchanged on `compute` while the interior finishes; the next step waits
// for both.
static void split_step(sim *s, launch_ctx &c)
{
    cuda_data *cd = data(s);
    const int vi = s->m.def->vindex;
    CU(s, cudaEventRecord(cd->ev_step, cd->compute));
    CU(s, cudaStreamWaitEvent(cd->interior, cd->ev_step, 0));
    if (cd->layout == LAYOUT_BLOCK) {
        for (const auto &r : cd->qedges) launch_range(c, r, cd->compute);
        launch_range(c, cd->qinner, cd->interior);
    } else {
        for (const auto &b : cd->edges) launch_box(c, b, cd->compute, launch_naive);
        launch_box(c, cd->inner, cd->interior, launch_naive);
    }
    c.stream = cd->compute;
    CU(s, cudaEventRecord(cd->ev_inner, cd->interior));
    std::swap(cd->state[vi], cd->next[vi]);   // naive and blockDS: only V is double-buffered
    if (!s->halo_off) gpu_exchange_run(cd->xchg, s, &vi, &cd->state[vi], 1, cd->map, cd->compute);
    CU(s, cudaStreamWaitEvent(cd->compute, cd->ev_inner, 0));
}

// k steps (k <= K) of a decomposed run on layout tplane, whose ghost zones
// are K layers of every state: split along z only, the owned planes next to
// each shared face first (split_boxes: K planes deep), then the inner planes
// on `interior` while every state's ghost layers are exchanged on `compute`,
// once per launch instead of once per step; split along x or y, all owned
// cells in one launch, then the exchange. The kernel writes only the owned
// box it is given (c.lo, c.hi) and reads the K planes around it.
static void split_tplane_step(sim *s, launch_ctx &c)
{
    cuda_data *cd = data(s);
    const int ns = s->m.def->nstate;
    auto run = [&](const std::array<int, 6> &b, cudaStream_t st) { launch_box(c, b, st, launch_tplane); };
    if (cd->xy_split) {
        run(cd->own, cd->compute);
    } else {
        CU(s, cudaEventRecord(cd->ev_step, cd->compute));
        CU(s, cudaStreamWaitEvent(cd->interior, cd->ev_step, 0));
        for (const auto &b : cd->edges) run(b, cd->compute);
        run(cd->inner, cd->interior);
        CU(s, cudaEventRecord(cd->ev_inner, cd->interior));
    }
    c.stream = cd->compute;
    for (int v = 0; v < ns; v++) std::swap(cd->state[v], cd->next[v]);
    if (!s->halo_off) {
        int vars[MODEL_MAX_STATE];
        for (int v = 0; v < ns; v++) vars[v] = v;
        gpu_exchange_run(cd->xchg, s, vars, cd->state, ns, cd->map, cd->compute);
    }
    if (!cd->xy_split) CU(s, cudaStreamWaitEvent(cd->compute, cd->ev_inner, 0));
}

static int cuda_dyads_init(sim *s, char *err, size_t errlen)
{
    cuda_data *cd = data(s);
    cd->dyads = gpu_dyads_create(s, cd->compute, err, errlen);
    return cd->dyads ? 0 : -1;
}

static void cuda_dyads_copy(sim *s, void *const *var, uint32_t *ryr, int to_host)
{
    cuda_data *cd = data(s);
    gpu_dyads_copy(cd->dyads, var, ryr, to_host, cd->compute);
    CU(s, cudaGetLastError());
}

// The dyad stage of the step that starts at step count `step`, before the
// cell level reads its means (core/multiscale/multiscale.h).
static void dyad_stage(sim *s, cuda_data *cd, long long step)
{
    const int changed = multiscale_clamps_at(s, (long)step);
    if (changed < 0) { sim_fail(s, "out of memory for the RyR clamps"); return; }
    if (changed) gpu_dyads_clamps(cd->dyads, s->ms->clamp, cd->compute);
    dyad_launch a = {cd->state, cd->base.plabel, cd->base.ptable, s->dt, step, cd->compute};
    gpu_dyads_step(cd->dyads, a);
}

static void cuda_step(sim *s, long nsteps)
{
    cuda_data *cd = data(s);
    if (s->failed || nsteps <= 0) return;
    const int ns = s->m.def->nstate, vi = s->m.def->vindex;
    launch_ctx c = current_ctx(s);
    if (cd->dyads) gpu_dyads_params(cd->dyads, s->m.p, s->m.def->nparam, cd->compute);
    long done = 0;
    while (done < nsteps) {
        int k = 1;
        if (layout_temporal(cd->layout)) k = (int)std::min<long>(s->tsteps, nsteps - done);
        c.tsteps = k;
        c.step0 = s->nstep + done;
        if (cd->dyads) dyad_stage(s, cd, c.step0);
        for (int v = 0; v < ns; v++) { c.in[v] = cd->state[v]; c.out[v] = cd->next[v]; }
        if (cd->xchg) {            // split over ranks
            if (cd->layout == LAYOUT_TPLANE) split_tplane_step(s, c);
            else split_step(s, c);
            done += k;
            continue;
        }
        switch (cd->layout) {
        case LAYOUT_NAIVE: launch_naive(c); break;
        case LAYOUT_WINDOW: launch_window(c); break;
        case LAYOUT_TOWER: launch_tower(c); break;
        case LAYOUT_BLOCK: launch_block(c); break;
        case LAYOUT_TPLANE: launch_tplane(c); break;
        default: launch_tblock(c); break;
        }
        for (int v = 0; v < ns; v++)
            if (cd->next[v] != cd->state[v] || v == vi) std::swap(cd->state[v], cd->next[v]);
        done += k;
    }
    CU(s, cudaGetLastError());
}

static void flush_probes(sim *s)
{
    cuda_data *cd = data(s);
    for (probe_dev &pd : cd->probes) {
        if (!pd.pending) continue;
        probe *p = (probe *)pd.p;
        size_t row = p->nvars * p->ncells;
        CU(s, cudaMemcpy(probe_row(p, p->nready), pd.rows, pd.pending * row * sizeof(float),
                         cudaMemcpyDeviceToHost));
        p->nready += pd.pending;
        pd.pending = 0;
    }
}

static void cuda_sync(sim *s)
{
    cuda_data *cd = data(s);
    if (!CU(s, cudaStreamSynchronize(cd->compute))) return;
    unsigned long long key = ~0ull;
    if (!CU(s, cudaMemcpy(&key, cd->bad, sizeof key, cudaMemcpyDeviceToHost))) return;
    if (key != ~0ull && s->bad_cell < 0) {
        s->bad_cell = (long)(key & ((1ull << 36) - 1));
        s->bad_step = (long)(key >> 36);
        s->bad_var = 0;
        for (int v = 0; v < s->m.def->nstate; v++) {
            float x;
            size_t c = (size_t)s->bad_cell;
            s->be->sample(s, v, &c, 1, &x);
            if (!std::isfinite(x)) { s->bad_var = v; break; }
        }
    }
    flush_probes(s);
}

static void cuda_stim_changed(sim *s)
{
    cuda_data *cd = data(s);
    while (cd->stim_cells.size() < s->nstims) {
        const stimulus &st = s->stims[cd->stim_cells.size()];
        size_t *p = nullptr;
        if (!CU(s, cudaMalloc(&p, std::max<size_t>(1, st.ncells) * sizeof(size_t)))) return;
        upload(s, p, st.cells, st.ncells * sizeof(size_t));
        cd->stim_cells.push_back(p);
    }
    cd->stim_any = 0;
    for (size_t q = 0; q < s->nstims; q++)
        stimulus_scatter(cd->map, s->fp64, cd->istim, cd->stim_cells[q], s->stims[q].ncells, 0, 0, cd->compute);
    for (size_t q = 0; q < s->nstims; q++) {
        if (!s->stim_on[q]) continue;
        cd->stim_any = 1;
        stimulus_scatter(cd->map, s->fp64, cd->istim, cd->stim_cells[q], s->stims[q].ncells, s->stims[q].amplitude, 1,
                         cd->compute);
    }
    CU(s, cudaGetLastError());
}

// Regional parameters: the labels in storage order and the table of sets in
// the state's precision, both allocated on first use; no labels (the kernels'
// null test) when every cell uses the simulation's own parameters again.
static void cuda_params_changed(sim *s)
{
    cuda_data *cd = data(s);
    if (!s->plabel) {
        cd->base.plabel = nullptr;
        return;
    }
    char err[256];
    if ((!cd->plabel && !dev_alloc((void **)&cd->plabel, cd->nstore, err, sizeof err)) ||
        (!cd->ptable && !dev_alloc(&cd->ptable, (size_t)PARAM_SETS_MAX * MODEL_MAX_PARAM * cd->esize, err, sizeof err))) {
        sim_fail(s, "regional parameters: %s", err);
        return;
    }
    std::vector<uint8_t> lab = in_store_order<uint8_t>(cd, std::vector<uint8_t>(s->plabel, s->plabel + s->lg.ncells), 0);
    std::vector<unsigned char> tab((size_t)s->npsets * MODEL_MAX_PARAM * cd->esize, 0);
    double p[MODEL_MAX_PARAM];
    for (int L = 0; L < s->npsets; L++) {
        model_step_params(s->m.def, sim_param_set(s, L), p);
        for (int q = 0; q < model_slots(s->m.def); q++) {
            const size_t at = (size_t)L * MODEL_MAX_PARAM + q;
            if (s->fp64) ((double *)tab.data())[at] = p[q];
            else ((float *)tab.data())[at] = (float)p[q];
        }
    }
    // on the compute stream: after the kernels that read the old tables, before those that read the new
    upload(s, cd->plabel, lab.data(), lab.size());
    upload(s, cd->ptable, tab.data(), tab.size());
    cd->base.plabel = cd->plabel;
    cd->base.ptable = cd->ptable;
}

static void cuda_clamp(sim *s, size_t q)
{
    cuda_data *cd = data(s);
    while (cd->clamp_cells.size() < s->nclamps) {
        const stimulus &w = s->clamps[cd->clamp_cells.size()].when;
        size_t *p = nullptr;
        if (!CU(s, cudaMalloc(&p, std::max<size_t>(1, w.ncells) * sizeof(size_t)))) return;
        upload(s, p, w.cells, w.ncells * sizeof(size_t));
        cd->clamp_cells.push_back(p);
    }
    const clamp &c = s->clamps[q];
    set_cells(cd->map, sim_var_fp64(s, c.var), cd->state[c.var], cd->clamp_cells[q], c.when.ncells, c.value, cd->compute);
    CU(s, cudaGetLastError());
}

static void cuda_get_field(sim *s, int var, float *dst)
{
    cuda_data *cd = data(s);
    export_field(cd->map, sim_var_fp64(s, var), cd->state[var], cd->scratch, (float)s->m.rest[var], cd->compute);
    CU(s, cudaMemcpyAsync(dst, cd->scratch, s->lg.ncells * sizeof(float), cudaMemcpyDeviceToHost, cd->compute));
    CU(s, cudaStreamSynchronize(cd->compute));
}

static void cuda_set_field(sim *s, int var, const float *src)
{
    cuda_data *cd = data(s);
    CU(s, cudaMemcpyAsync(cd->scratch, src, s->lg.ncells * sizeof(float), cudaMemcpyHostToDevice, cd->compute));
    import_field(cd->map, sim_var_fp64(s, var), cd->scratch, cd->state[var], cd->compute);
    CU(s, cudaStreamSynchronize(cd->compute));
}

// Native-precision copies (checkpoints) through a temporary device buffer.
// The host side is in the simulation's precision (cd->esize); a state the
// GPU stores in float under "mixed" is widened on the way out (exactly) and
// rounded on the way in (a value the mixed step itself would produce stays).
static void cuda_get_state(sim *s, int var, void *dst)
{
    cuda_data *cd = data(s);
    const size_t n = s->lg.ncells, bytes = n * var_esize(s, var);
    void *tmp = nullptr;
    if (!CU(s, cudaMalloc(&tmp, bytes))) return;
    export_state(cd->map, sim_var_fp64(s, var), cd->state[var], tmp, s->m.rest[var], cd->compute);
    std::vector<float> narrow(var_esize(s, var) < cd->esize ? n : 0);
    CU(s, cudaMemcpyAsync(narrow.empty() ? dst : narrow.data(), tmp, bytes, cudaMemcpyDeviceToHost, cd->compute));
    CU(s, cudaStreamSynchronize(cd->compute));
    for (size_t c = 0; c < narrow.size(); c++) ((double *)dst)[c] = narrow[c];
    cudaFree(tmp);
}

static void cuda_set_state(sim *s, int var, const void *src)
{
    cuda_data *cd = data(s);
    const size_t n = s->lg.ncells, bytes = n * var_esize(s, var);
    void *tmp = nullptr;
    if (!CU(s, cudaMalloc(&tmp, bytes))) return;
    std::vector<float> narrow(var_esize(s, var) < cd->esize ? n : 0);
    for (size_t c = 0; c < narrow.size(); c++) narrow[c] = (float)((const double *)src)[c];
    CU(s, cudaMemcpyAsync(tmp, narrow.empty() ? src : narrow.data(), bytes, cudaMemcpyHostToDevice, cd->compute));
    import_state(cd->map, sim_var_fp64(s, var), tmp, cd->state[var], cd->compute);
    CU(s, cudaStreamSynchronize(cd->compute));
    cudaFree(tmp);
}

// ---- activation trackers: arrays in GPU memory, row-major over lg ----

static void cuda_track_free(sim *s, tracker *t)
{
    (void)s;
    track_arrays &a = t->a;
    cudaFree(a.prev); cudaFree(a.vmin); cudaFree(a.peak); cudaFree(a.count); cudaFree(a.in_ap);
    for (int f = 0; f < TRACK_COUNT; f++) cudaFree(a.time[f]);
    memset(&a, 0, sizeof a);
}

static int cuda_track_start(sim *s, tracker *t)
{
    cuda_data *cd = data(s);
    const size_t n = s->lg.ncells;
    track_arrays &a = t->a;
    if (!a.prev) {
        bool ok = cudaMalloc(&a.prev, n * sizeof(float)) == cudaSuccess &&
                  cudaMalloc(&a.vmin, n * sizeof(float)) == cudaSuccess &&
                  cudaMalloc(&a.peak, n * sizeof(float)) == cudaSuccess &&
                  cudaMalloc(&a.count, n * sizeof(int)) == cudaSuccess && cudaMalloc(&a.in_ap, n) == cudaSuccess;
        for (int f = 0; f < TRACK_COUNT && ok; f++) ok = cudaMalloc(&a.time[f], n * sizeof(float)) == cudaSuccess;
        if (!ok) {
            cudaGetLastError();
            cuda_track_free(s, t);
            char b[32];
            format_bytes(n * 38.0, b, sizeof b);
            sim_fail(s, "out of GPU memory for the activation maps (%s)", b);
            return -1;
        }
    }
    track_start_cells(cd->map, sim_var_fp64(s, t->var), cd->state[t->var], a, cd->compute);
    return CU(s, cudaGetLastError()) ? 0 : -1;
}

static void cuda_track(sim *s, tracker *t, float tp, float tnow)
{
    cuda_data *cd = data(s);
    track_cells(cd->map, sim_var_fp64(s, t->var), cd->state[t->var], t->a, tp, tnow, t->threshold, t->fraction, cd->compute);
    CU(s, cudaGetLastError());
}

static void cuda_track_get(sim *s, tracker *t, int field, float *dst)
{
    cuda_data *cd = data(s);
    const size_t n = s->lg.ncells;
    if (field != TRACK_COUNT) {
        CU(s, cudaMemcpyAsync(dst, t->a.time[field], n * sizeof(float), cudaMemcpyDeviceToHost, cd->compute));
        CU(s, cudaStreamSynchronize(cd->compute));
        return;
    }
    std::vector<int> count(n);
    CU(s, cudaMemcpyAsync(count.data(), t->a.count, n * sizeof(int), cudaMemcpyDeviceToHost, cd->compute));
    CU(s, cudaStreamSynchronize(cd->compute));
    for (size_t c = 0; c < n; c++) dst[c] = (float)count[c];
}

// The row-major tissue mask of the stored part on the device, made on first use.
static bool ensure_mask8(sim *s)
{
    cuda_data *cd = data(s);
    if (cd->mask8) return true;
    const grid *g = &s->lg;
    if (CU(s, cudaMalloc(&cd->mask8, g->ncells)) &&
        upload(s, cd->mask8, g->mask, g->ncells))
        return true;
    cudaFree(cd->mask8);
    cd->mask8 = nullptr;
    return false;
}

static void cuda_ecg(sim *s, const double *el, int ne, double *acc)
{
    cuda_data *cd = data(s);
    const grid *g = &s->lg;
    if (!ensure_mask8(s)) return;
    if (!cd->ecg_acc && !CU(s, cudaMalloc(&cd->ecg_acc, ECG_MAX_ELECTRODES * sizeof(double)))) return;
    ecg_args a = {};
    a.ne = ne;
    a.dim = g->dim;
    a.vol = g->h[0] * (g->dim > 1 ? g->h[1] : 1) * (g->dim > 2 ? g->h[2] : 1);
    for (int d = 0; d < 3; d++) {
        a.n[d] = g->n[d];
        a.own_lo[d] = s->own_lo[d];
        a.own_hi[d] = s->own_hi[d];
        a.offset[d] = s->dc.slo[d];
        a.h[d] = g->h[d];
        a.D[d] = s->D[d];
    }
    memcpy(a.el, el, 3 * ne * sizeof(double));
    ecg_cells(cd->map, s->fp64, cd->state[s->m.def->vindex], cd->mask8, a, cd->ecg_acc, cd->compute);
    CU(s, cudaGetLastError());
    CU(s, cudaMemcpyAsync(acc, cd->ecg_acc, ne * sizeof(double), cudaMemcpyDeviceToHost, cd->compute));
    CU(s, cudaStreamSynchronize(cd->compute));
}

// ---- phase singularities (core/measure/tips.h) ----

static phase_part part_of(const sim *s)
{
    phase_part p = {};
    p.dim = s->g.dim;
    p.gcells = s->g.ncells;
    for (int d = 0; d < 3; d++) {
        p.n[d] = s->lg.n[d];
        p.own_lo[d] = s->own_lo[d];
        p.own_hi[d] = s->own_hi[d];
        p.off[d] = s->dc.slo[d];
        p.gn[d] = s->g.n[d];
    }
    return p;
}

static void cuda_tissue_sums(sim *s, int va, int vb, double sums[2])
{
    cuda_data *cd = data(s);
    sums[0] = sums[1] = 0;
    if (!ensure_mask8(s) ||
        (!cd->phase_part2 && !CU(s, cudaMalloc(&cd->phase_part2, sizeof(double) * phase_sum_room(part_of(s))))))
        return;
    if (!same_precision(s, va, vb, "phase singularities")) return;
    phase_sums(cd->map, s->fp64, cd->state[va], cd->state[vb], cd->mask8, part_of(s), cd->phase_part2, cd->compute);
    CU(s, cudaGetLastError());
    CU(s, cudaMemcpyAsync(sums, cd->phase_part2, 2 * sizeof(double), cudaMemcpyDeviceToHost, cd->compute));
    CU(s, cudaStreamSynchronize(cd->compute));
}

// The phase in the float scratch field, then the plaquettes; a second pass
// when the first found more than the list had room for.
static long cuda_singular_faces(sim *s, int va, int vb, double a0, double b0, sing_face **out)
{
    cuda_data *cd = data(s);
    *out = nullptr;
    if (!ensure_mask8(s) || (!cd->faces_count && !CU(s, cudaMalloc(&cd->faces_count, sizeof *cd->faces_count))))
        return -1;
    const phase_part p = part_of(s);
    if (!same_precision(s, va, vb, "phase singularities")) return -1;
    phase_field(cd->map, s->fp64, cd->state[va], cd->state[vb], cd->mask8, p, a0, b0, cd->scratch, cd->compute);
    unsigned long long n = 0;
    for (int pass = 0; pass < 2; pass++) {
        if (n > cd->faces_cap || !cd->faces) {
            cudaFree(cd->faces);
            cd->faces_cap = std::max<size_t>(n, 65536);
            if (!CU(s, cudaMalloc(&cd->faces, cd->faces_cap * sizeof(sing_face)))) { cd->faces_cap = 0; return -1; }
        }
        singular_plaquettes(p, cd->scratch, cd->faces, cd->faces_cap, cd->faces_count, cd->compute);
        CU(s, cudaGetLastError());
        CU(s, cudaMemcpyAsync(&n, cd->faces_count, sizeof n, cudaMemcpyDeviceToHost, cd->compute));
        if (!CU(s, cudaStreamSynchronize(cd->compute))) return -1;
        if (n <= cd->faces_cap) break;
    }
    if (n == 0) return 0;
    *out = (sing_face *)malloc(n * sizeof(sing_face));
    if (!*out) { sim_fail(s, "out of memory for %llu phase singularities", n); return -1; }
    CU(s, cudaMemcpyAsync(*out, cd->faces, n * sizeof(sing_face), cudaMemcpyDeviceToHost, cd->compute));
    if (!CU(s, cudaStreamSynchronize(cd->compute))) { free(*out); *out = nullptr; return -1; }
    return (long)n;
}

static bool ensure_sample_space(sim *s, size_t n)
{
    cuda_data *cd = data(s);
    if (n <= cd->sample_cap) return true;
    cudaFree(cd->sample_cells); cudaFree(cd->sample_out);
    cd->sample_cap = std::max<size_t>(n, 1024);
    return CU(s, cudaMalloc(&cd->sample_cells, cd->sample_cap * sizeof(size_t))) &&
           CU(s, cudaMalloc(&cd->sample_out, cd->sample_cap * sizeof(float)));
}

static void cuda_sample(sim *s, int var, const size_t *cells, size_t n, float *dst)
{
    cuda_data *cd = data(s);
    if (!n || !ensure_sample_space(s, n)) return;
    CU(s, cudaMemcpyAsync(cd->sample_cells, cells, n * sizeof(size_t), cudaMemcpyHostToDevice, cd->compute));
    gather_cells(cd->map, sim_var_fp64(s, var), cd->state[var], cd->sample_cells, n, cd->sample_out, (float)s->m.rest[var],
                 cd->compute);
    CU(s, cudaMemcpyAsync(dst, cd->sample_out, n * sizeof(float), cudaMemcpyDeviceToHost, cd->compute));
    CU(s, cudaStreamSynchronize(cd->compute));
}

static probe_dev *probe_data(sim *s, const probe *p)
{
    cuda_data *cd = data(s);
    for (probe_dev &pd : cd->probes)
        if (pd.p == p) return &pd;
    probe_dev pd = {p, nullptr, nullptr, 4096, 0};
    // local indices; (size_t)-1 marks cells other ranks own
    std::vector<size_t> cells(p->lcells, p->lcells + p->ncells);
    if (!CU(s, cudaMalloc(&pd.cells, p->ncells * sizeof(size_t))) ||
        !upload(s, pd.cells, cells.data(), p->ncells * sizeof(size_t)) ||
        !CU(s, cudaMalloc(&pd.rows, pd.cap * p->nvars * p->ncells * sizeof(float))))
        return nullptr;
    cd->probes.push_back(pd);
    return &cd->probes.back();
}

// Queues the gather of one probe sample; samples reach p->data at the next sync.
static void cuda_probe_record(sim *s, probe *p, size_t row)
{
    cuda_data *cd = data(s);
    probe_dev *pd = probe_data(s, p);
    if (!pd) return;
    if (pd->pending == pd->cap) cuda_sync(s);
    if (row != p->nready + pd->pending) { sim_fail(s, "probe '%s': samples out of order", p->name); return; }
    float *dst = pd->rows + pd->pending * p->nvars * p->ncells;
    for (int v = 0; v < p->nvars; v++)
        gather_cells(cd->map, sim_var_fp64(s, p->vars[v]), cd->state[p->vars[v]], pd->cells, p->ncells, dst + v * p->ncells,
                     (float)s->m.rest[p->vars[v]], cd->compute);
    pd->pending++;
    CU(s, cudaGetLastError());
}

static void cuda_snapshot(sim *s, const int *vars, int nvars)
{
    cuda_data *cd = data(s);
    const size_t bytes = s->lg.ncells * sizeof(float);
    for (int q = cd->nstage; q < nvars; q++) {
        if (cudaMalloc(&cd->dstage[q], bytes) != cudaSuccess || cudaMallocHost(&cd->hstage[q], bytes) != cudaSuccess) {
            char b[32];
            format_bytes((double)bytes, b, sizeof b);
            cudaGetLastError();
            sim_fail(s, "out of memory for output staging buffers (%s per field, on the GPU and pinned on the host)", b);
            return;
        }
        cd->nstage = q + 1;
    }
    for (int q = 0; q < nvars; q++)
        export_field(cd->map, sim_var_fp64(s, vars[q]), cd->state[vars[q]], cd->dstage[q], (float)s->m.rest[vars[q]], cd->compute);
    CU(s, cudaEventRecord(cd->ev_snap, cd->compute));
    CU(s, cudaStreamWaitEvent(cd->copy, cd->ev_snap, 0));
    for (int q = 0; q < nvars; q++)
        CU(s, cudaMemcpyAsync(cd->hstage[q], cd->dstage[q], bytes, cudaMemcpyDeviceToHost, cd->copy));
    CU(s, cudaEventRecord(cd->ev_copy, cd->copy));
}

static const float *cuda_snapshot_field(sim *s, int q)
{
    cuda_data *cd = data(s);
    if (!CU(s, cudaEventSynchronize(cd->ev_copy))) return nullptr;
    return cd->hstage[q];
}

static double cuda_time_steps(sim *s, long nsteps)
{
    cuda_data *cd = data(s);
    float ms = -1;
    CU(s, cudaEventRecord(cd->t0, cd->compute));
    cuda_step(s, nsteps);
    CU(s, cudaEventRecord(cd->t1, cd->compute));
    if (CU(s, cudaEventSynchronize(cd->t1))) CU(s, cudaEventElapsedTime(&ms, cd->t0, cd->t1));
    return ms;
}

// blockDS's ghost layers through a packed device buffer (host-staged exchange).
static void face_copy_blocks(sim *s, int var, const halo_face *f, void *host, int to_host)
{
    cuda_data *cd = data(s);
    const size_t bytes = f->blocklen * f->nblocks * cd->esize;
    if (bytes > cd->facecap) {
        cudaFree(cd->facebuf);
        cd->facebuf = nullptr;
        cd->facecap = 0;
        if (!CU(s, cudaMalloc(&cd->facebuf, bytes))) return;
        cd->facecap = bytes;
    }
    if (to_host) {
        face_pack(cd->map, s->fp64, cd->state[var], *f, cd->facebuf, s->m.rest[var], cd->compute);
        CU(s, cudaMemcpyAsync(host, cd->facebuf, bytes, cudaMemcpyDeviceToHost, cd->compute));
    } else {
        CU(s, cudaMemcpyAsync(cd->facebuf, host, bytes, cudaMemcpyHostToDevice, cd->compute));
        face_unpack(cd->map, s->fp64, cd->facebuf, *f, cd->state[var], cd->compute);
    }
    CU(s, cudaStreamSynchronize(cd->compute));
}

// Ghost layers (core/parallel/halo.h): one strided copy between the row-major state
// and a pinned host buffer, synchronous (host-staged exchange).
static void cuda_face_copy(sim *s, int var, const halo_face *f, void *host, int to_host)
{
    cuda_data *cd = data(s);
    if (!same_precision(s, var, s->m.def->vindex, "the host-staged exchange of ghost layers")) return;
    if (cd->layout == LAYOUT_BLOCK) { face_copy_blocks(s, var, f, host, to_host); return; }
    char *dev = (char *)cd->state[var] + f->offset * cd->esize;
    const size_t w = f->blocklen * cd->esize, pitch = (f->nblocks > 1 ? f->pitch : f->blocklen) * cd->esize;
    if (to_host) CU(s, cudaMemcpy2DAsync(host, w, dev, pitch, w, f->nblocks, cudaMemcpyDeviceToHost, cd->compute));
    else CU(s, cudaMemcpy2DAsync(dev, pitch, host, w, w, f->nblocks, cudaMemcpyHostToDevice, cd->compute));
    CU(s, cudaStreamSynchronize(cd->compute));
}

static void *cuda_host_alloc(size_t bytes)
{
    void *p = nullptr;
    if (cudaMallocHost(&p, bytes) != cudaSuccess) { cudaGetLastError(); return nullptr; }
    return p;
}

static void cuda_host_free(void *p)
{
    if (p) cudaFreeHost(p);
}

extern "C" const backend_ops *backend_cuda_ops(void)
{
    static backend_ops ops;
    if (!ops.name) {
        ops.name = "cuda";
        ops.init = cuda_init;
        ops.step = cuda_step;
        ops.sync = cuda_sync;
        ops.stim_changed = cuda_stim_changed;
        ops.params_changed = cuda_params_changed;
        ops.clamp = cuda_clamp;
        ops.get_field = cuda_get_field;
        ops.set_field = cuda_set_field;
        ops.sample = cuda_sample;
        ops.probe_record = cuda_probe_record;
        ops.snapshot = cuda_snapshot;
        ops.snapshot_field = cuda_snapshot_field;
        ops.time_steps = cuda_time_steps;
        ops.face_copy = cuda_face_copy;
        ops.get_state = cuda_get_state;
        ops.set_state = cuda_set_state;
        ops.track_start = cuda_track_start;
        ops.track = cuda_track;
        ops.track_get = cuda_track_get;
        ops.track_free = cuda_track_free;
        ops.ecg = cuda_ecg;
        ops.tissue_sums = cuda_tissue_sums;
        ops.singular_faces = cuda_singular_faces;
        ops.dyads_init = cuda_dyads_init;
        ops.dyads_copy = cuda_dyads_copy;
        ops.host_alloc = cuda_host_alloc;
        ops.host_free = cuda_host_free;
        ops.free = cuda_free;
        ops.ghost_layers = cuda_ghost_layers;
    }
    return &ops;
}
