// Host-side description of one kernel launch, shared by the CUDA backend
// (cuda/backend_cuda.cu) and the kernel files, which turn it into typed
// template arguments (cuda/dispatch.cuh).
#ifndef CARDIAC_CUDA_LAUNCH_H
#define CARDIAC_CUDA_LAUNCH_H
#include <cstddef>
#include <cstdint>
#include <cuda_runtime.h>
#include "blocks.h"
#include "fraction16.h"
#include "halo.h"
#include "layouts.h"
#include "model.h"

// The models whose kernels are also built with their mixed step (precision
// "mixed", model_def.step_mix, core/engine/instances.h), each with the states it
// stores in float then (bit v: state v; model_def.mixed_float); the backend
// refuses "mixed" for any other model.
#define CARDIAC_MIXED_MODELS(X) X(ohara_rudy, ORD_MIXED_FLOAT_STATES)
inline bool model_has_mixed_kernels(model_id m)
{
#define CARDIAC_MIXED_CASE(name, narrow) if (m == MODEL_ID_##name) return true;
    CARDIAC_MIXED_MODELS(CARDIAC_MIXED_CASE)
#undef CARDIAC_MIXED_CASE
    return false;
}
// The models whose float kernels are also built with some states stored in
// IEEE half (precision "fp32h", model_def.half_gates), with those states; the
// backend refuses "fp32h" for any other model.
#define CARDIAC_HALF_MODELS(X) X(ohara_rudy, ORD_HALF_GATES)
inline bool model_has_half_kernels(model_id m)
{
#define CARDIAC_HALF_CASE(name, gates) if (m == MODEL_ID_##name) return true;
    CARDIAC_HALF_MODELS(CARDIAC_HALF_CASE)
#undef CARDIAC_HALF_CASE
    return false;
}
// The models whose float kernels are also built with every gate in 16 bits
// (precision "fp32g"): their half gates in half and these as 16-bit
// fractions (model_def.frac_gates, core/engine/fraction16.h); the backend
// refuses "fp32g" for any other model.
#define CARDIAC_FRAC_MODELS(X) X(ohara_rudy, ORD_HALF_GATES, ORD_FRAC_GATES, ORD_SLOW_STATES)
inline bool model_has_frac_kernels(model_id m)
{
#define CARDIAC_FRAC_CASE(name, half, frac, slow) if (m == MODEL_ID_##name) return true;
    CARDIAC_FRAC_MODELS(CARDIAC_FRAC_CASE)
#undef CARDIAC_FRAC_CASE
    return false;
}

// The models whose kernels are built with multirate stepping (precision
// any; core/engine/multirate.h), each with its slow states (bit v: state v;
// model_def.slow_states); the backend refuses multirate for any other model.
#define CARDIAC_SLOW_MODELS(X) X(ohara_rudy, ORD_SLOW_STATES)
inline bool model_has_slow_kernels(model_id m)
{
#define CARDIAC_SLOW_CASE(name, states) if (m == MODEL_ID_##name) return true;
    CARDIAC_SLOW_MODELS(CARDIAC_SLOW_CASE)
#undef CARDIAC_SLOW_CASE
    return false;
}

// The models whose fp64 kernels are also built with their rate tables
// (cardiac.simulation{tables = true}; model_def.table,
// core/engine/rate_tables.h), on the naive and blockDS layouts; the backend
// refuses tables for any other model or layout.
#define CARDIAC_TABLE_MODELS(X) X(ohara_rudy)
inline bool model_has_table_kernels(model_id m)
{
#define CARDIAC_TABLE_CASE(name) if (m == MODEL_ID_##name) return true;
    CARDIAC_TABLE_MODELS(CARDIAC_TABLE_CASE)
#undef CARDIAC_TABLE_CASE
    return false;
}

// The models whose fp32 step of a quiet cell, one whose V and whose
// neighbours' V are at most REST_QUIET_V (1e-30) in magnitude, with no
// stimulus, takes V's new value from V and the diffusion term alone, and
// steps the other states as it would with V = +0, whatever they are
// (finite). V's only term that reads another state is a product with V^2,
// taken V first, and V^2 <= 1e-60 flushes to zero in fp32; V enters the
// other states only by comparisons with thresholds far above 1e-30. Karma:
// ((1 / (1 + e)) U) U (gamma - (v/vstar)^xm) is +0 or -0, by the sign of
// its last factor; less U it is -U where U is not 0, and +0 where U is +0
// or -0 unless the factor made it -0 and U is +0: then dU is -0 or +0 by v,
// but where idiff is +0 the sum is +0 either way, and where it is -0 forward
// Euler from U = +0 gives +0 either way; v reads U only as U > uv.
// Mitchell-Schaeffer: J_in = ((h v) v)(1 - v)/tau_in is +0 for h >= 0, so
// J_in + J_out is J_out; h reads v only as v < v_gate. So where V has not
// changed in a step, in a cell and its neighbours, and is that small, it
// does not change in the next (cuda/rest_region.cuh): the GPU's tplane
// launches skip such tissue, at rest (V = +0) or where V has settled behind
// a wave (cuda/rest_region.cu, which checks the property on the host for
// the run's parameters), and their kernels hold its code only for these
// models.
#define REST_QUIET_V 1e-30f
#define CARDIAC_QUIET_V_MODELS(X) X(karma) X(mitchell_schaeffer)
inline bool model_quiet_v(model_id m)
{
#define CARDIAC_QUIET_V_CASE(name) if (m == MODEL_ID_##name) return true;
    CARDIAC_QUIET_V_MODELS(CARDIAC_QUIET_V_CASE)
#undef CARDIAC_QUIET_V_CASE
    return false;
}
// The one-step kernels of the naive and blockDS layouts: the most threads a
// block takes (their __launch_bounds__; cuda/kernels_naive.cuh,
// kernels_block.cuh). Models with many states in double keep a cell's state in
// shared memory during the step, in blocks of 128 threads.
__host__ __device__ constexpr int block_kernel_max_threads(int nstate, int esize) { return esize == 8 && nstate >= 32 ? 128 : 256; }
__host__ __device__ constexpr bool step_state_shared(int nstate, int esize) { return block_kernel_max_threads(nstate, esize) == 128; }

// Neighbour flags of a cell: per view axis a, 4 bits at 4a: neighbour -1,
// +1, -2, +2 is tissue inside the box. Bit 15: the cell itself is tissue and
// is stepped (blockDS under mpirun clears it on ghost cells).
enum { FLAG_SELF = 1u << 15 };

// Geometry of the towerDS layout (thesis 4.3): the x-y plane is cut into
// tx x ty tiles; each tile's column of cells along z is a tower, stored as z
// layers of layer_size values: tx*ty core cells, then r*ty copies of the
// cells left of the tile and r*ty right of it (the x halo), so that a block
// reads its x neighbours from consecutive addresses.
struct tower_geom {
    int tx, ty;          // tile (block) size
    int ntx, nty;        // towers along x and y
    int r;               // halo width (stencil order / 2)
    size_t layer_size;   // tx*ty + 2*r*ty
    size_t total;        // values per state array
};

struct launch_ctx {
    model_id model;
    int fp64, order, masked;
    int mixed;                        // fp64 with the model's mixed step (precision "mixed")
    int half;                         // fp32 with the model's half_gates stored in half (precision "fp32h")
    int frac;                         // and its frac_gates as 16-bit fractions (precision "fp32g", with half)
    int n[3];                         // view dimensions (x fastest; 2D grids run as nx x 1 x ny)
    void *in[MODEL_MAX_STATE];        // state at time n
    void *out[MODEL_MAX_STATE];       // where the state at n + steps goes (== in for in-place states)
    const void *istim;                // stimulus current per cell (row-major), or null when none is on
    const uint16_t *flags;            // neighbour flags per stored cell (masked grids, blockDS), else null
    const float *phi;                 // phase field per stored cell (naive, block), or null
    const uint8_t *plabel;            // parameter set per stored cell (core/interventions/param_sets.h), or null: p everywhere
    const void *ptable;               // the sets, MODEL_MAX_PARAM values apart, in the state's precision
    const double *table;              // the rate tables (core/engine/rate_tables.h), or null: none
    const uint8_t *tab_of_set;        // the table of each parameter set
    size_t tab_stride;                // doubles from one table to the next
    double coef[3];                   // D/h^2 per view axis, 1/ms
    const double *mcoef;              // an ensemble whose members' D differ: coef per view z layer (3 a layer), or null
    double dt;
    double p[MODEL_MAX_PARAM];
    int fold;                         // p holds the model's defaults (kernels may fold them)
    long long step0;                  // steps taken before this launch (for NaN reports)
    int every;                        // multirate: the slow states step every this many steps (naive, block); 0: every step
    uint8_t *stamp;                   // quiescent cells (core/engine/quiescence.h; block): each cell's due step mod 256, or null
    double quiet_below;               // and their bound on V, mV
    double quiet_diffusion;           // and on the diffusion current, mV/ms
    unsigned long long *bad;          // atomicMin of (step << 36 | cell) for non-finite states
    int lo[3], hi[3];                 // naive, tplane: the view's cells to update, [lo, hi) per axis
    int bx, by;                       // thread block shape
    int tsteps;                       // time steps in this launch (tblock)
    // tplane under mpirun with the copy engines' exchange (cuda/split_step.cu,
    // faces_first_step): the owned planes next to each shared z face (bit 0
    // of faces: the low one, bit 1: the high one), at least face_width deep
    // (plan_wide_faces may widen them), as chunks of their own first in the
    // launch's block order; face_signal[f] counts
    // the launches whose face f is written (face_signal[2 + f]: its blocks
    // done in this launch). Null: none.
    unsigned *face_signal;
    int faces, face_width;
    // The launch may start its blocks while the kernel before it in the
    // stream finishes (tplane, naive and block: a programmatic dependent
    // launch, cuda/follow_launch.cuh; its threads wait for that kernel before
    // they touch the state, and a kernel that does not let its dependents
    // start early is waited for whole). Set by the one-GPU step; 0 under
    // mpirun, where copies, other streams' events and the exchange's kernels
    // come between two launches.
    int follow;
    // Resting tissue (tplane; cuda/rest_region.cu): the device's ring of four
    // boxes of the active planes (cuda/rest_region.cuh), or null: every cell steps; the
    // launch's number among the tracked ones; whether it may skip the planes
    // that cannot change (else it steps all and records its box); the step
    // at which each plane of the input and of the output buffer holds its
    // state (the planes skipped hold an earlier one). rest_settle: the
    // launch brings every plane of `in` to step step0 instead of stepping.
    int *rest;
    unsigned rest_seq;
    int rest_use;
    long long *rest_stamp_in, *rest_stamp_out;
    int rest_settle;
    tower_geom tower;
    block_map blocks;                 // blockDS map in view axes, tables on the device (LAYOUT_BLOCK)
    size_t qlo, qhi;                  // blockDS: the storage indices to update, [qlo, qhi)
    cudaStream_t stream;
};

// Each launcher queues one kernel on ctx.stream.
void launch_naive(const launch_ctx &ctx);
void launch_window(const launch_ctx &ctx);
void launch_tower(const launch_ctx &ctx);
void launch_tblock(const launch_ctx &ctx);
void launch_block(const launch_ctx &ctx);
void launch_tplane(const launch_ctx &ctx);
// Cells each thread of the tblock layout holds along x (a tile is that many times blockDim.x wide).
int tblock_cells_per_thread();
// Whether tplane's input plane V goes straight into shared memory by
// cp.async (fp32, K >= 2): its level-0 ring then has a fourth slot, and the
// thread holds no registers for the next plane's V (docs/gpu-notebook.md,
// item 56). fp64 keeps the loads into registers: its 512-thread kernels did
// not spill, and the copies were not measured there.
__host__ __device__ constexpr bool tplane_async(int K, int esize) { return K >= 2 && esize == 4; }
// The planes of a tplane block's shared memory: K rings of 3, a fourth for
// level K-1's ring, and a fourth for level 0's with tplane_async.
constexpr int tplane_planes(int K, int esize) { return 3 * K + 1 + (tplane_async(K, esize) ? 1 : 0); }
// tplane (cuda/kernels_tplane.cuh): the rows of its tile each thread holds.
// A block of exactly 512 threads has 128 registers a thread (one block per
// SM), any other shape up to 1024 threads 64; the rows are limited by the
// shared memory of tplane_planes (K rings of 3 planes, the last of 4, and
// level 0's of 4 with tplane_async; about 200 KB for the block) and by the
// registers that carry a cell's states through the levels (V of the next
// input plane without tplane_async, one plane of other states
// per level, and the V and other states a level hands to the next within an
// iteration). The register budgets (bytes a thread may give its cells'
// states) are where ptxas spilled little in the measured cases: with
// 64-register threads one row more at K = 2 (Karma fp32: 6) made 2.7 times
// the stack and ran 1.13-1.28x slower (docs/gpu-notebook.md, item 15). by_smem counts
// 3K planes; tplane_smem gives the exact size, which the block's shape is
// fitted to (tplane_shape, cuda/layout_policy.cu).
constexpr int tplane_cells_per_thread(int nstate, int esize, int K, int threads)
{
    const int wide = threads == 512;
    const int by_smem = (wide ? 133 : 66) / (K * esize);
    const int by_regs = ((wide ? 240 : 100) / esize) / ((nstate - 1) * (K + 1) + 2);
    const int c = by_smem < by_regs ? by_smem : by_regs, cap = wide ? 12 : 6;
    return c < 1 ? 1 : c > cap ? cap : c;
}
// Shared memory of a tplane block of W x RP threads, and the device's limit per block.
size_t tplane_smem(int W, int RP, int nstate, int esize, int K);
size_t smem_limit();

// Layout conversions and small kernels (cuda/layout_kernels.cu). Index maps
// take the row-major cell index c (the same in the grid and in the view).
struct store_map {
    int layout;
    int n[3];
    tower_geom tower;
    block_map blocks;    // LAYOUT_BLOCK: cells of blocks not stored have no value
};
// How a state array holds its values: float, double (the former fp64 flag, 0
// and 1), IEEE half (the gates of precision "fp32h", model_def.half_gates) or
// a 16-bit fraction of [0, 1] (the other gates of precision "fp32g",
// model_def.frac_gates; frac16 below), the last two every other half of 32-bit
// words (half_pair_first). The functions below that take a `kind` accept all four.
enum { STORE_F32 = 0, STORE_F64 = 1, STORE_F16 = 2, STORE_U16 = 3 };
// A stored 16-bit fraction (core/engine/fraction16.h) as an element type: it
// converts to and from float as the kernels store and load it, so that the
// layout conversions and the features' GPU halves read it as they read half.
struct frac16 {
    unsigned short k;
    frac16() = default;
    __host__ __device__ explicit frac16(float x) : k((unsigned short)fraction16_code(x)) {}
    __host__ __device__ operator float() const { return fraction16_value(k); }
};
// Precision "fp32h" stores its half states two to a 32-bit word: the states of
// `mask` in ascending order, the first with the second, the third with the
// fourth, ..., a last one alone in a word's low half. The first of a pair owns
// the words (4 bytes a cell); the second's array starts 2 bytes into them, so
// every half state is every other half from its own pointer. A kernel loads a
// pair's word once for both: the heart's kernel waits on its memory requests
// more than on their bytes, and 15 halves each loaded alone took longer than
// 15 floats (docs/gpu-notebook.md item 31). Returns the first state of v's pair.
// Written with bit counts, which the compiler folds where v is a constant (a
// loop here was left to run in the kernels, and indexed their arrays of state
// pointers at run time).
__host__ __device__ inline int half_pair_first(unsigned long long mask, int v)
{
    const unsigned long long below = mask & ((1ull << v) - 1);
#ifdef __CUDA_ARCH__
    const int k = __popcll(below), last = 63 - __clzll(below);
#else
    const int k = __builtin_popcountll(below), last = below ? 63 - __builtin_clzll(below) : v;
#endif
    return k % 2 == 0 ? v : last;
}
// Precision "fp32g" pairs its 16-bit states within four groups: half or
// fraction, slow (multirate) or not. So a pair has one codec, and a step
// that holds the slow states (multirate) writes whole pairs of the others.
// narrow: every 16-bit state; frac: the fractions; slow: the slow states
// (0 where none of the 16-bit states is slow: fp32h's pairs).
__host__ __device__ inline unsigned long long pair16_group(unsigned long long narrow, unsigned long long frac,
                                                          unsigned long long slow, int v)
{
    return narrow & (frac >> v & 1 ? frac : ~frac) & (slow >> v & 1 ? slow : ~slow);
}
__host__ __device__ inline int pair16_first(unsigned long long narrow, unsigned long long frac,
                                            unsigned long long slow, int v)
{
    return half_pair_first(pair16_group(narrow, frac, slow, v), v);
}
// dst[c] (float, row-major) = src at cell c, for all cells; `absent` for cells not stored.
void export_field(const store_map &m, int kind, const void *src, float *dst, float absent, cudaStream_t st);
// dst at cell c = src[c] (cells that are stored); for towers also fills the x-halo copies.
void import_field(const store_map &m, int kind, const float *src, void *dst, cudaStream_t st);
// The same in the simulation's precision (double for STORE_F64, else float),
// row-major, for checkpoints.
void export_state(const store_map &m, int kind, const void *src, void *dst, double absent, cudaStream_t st);
void import_state(const store_map &m, int kind, const void *src, void *dst, cudaStream_t st);
// Ghost layers (core/parallel/halo.h) between a state array of layout m and a
// contiguous device buffer, in the face's row-major order: for layouts that
// do not store the face as strided rows (blockDS under mpirun). Cells not
// stored are packed as `absent` and skip what they receive.
void face_pack(const store_map &m, int fp64, const void *src, const halo_face &f, void *buf, double absent,
               cudaStream_t st);
void face_unpack(const store_map &m, int fp64, const void *buf, const halo_face &f, void *dst, cudaStream_t st);
// dst[q] = src at cells[q] (float), `absent` for cells not stored.
void gather_cells(const store_map &m, int kind, const void *src, const size_t *cells, size_t n,
                  float *dst, float absent, cudaStream_t st);
// State array dst (layout m) at row-major cells[q] = value (clamps; cells are stored).
void set_cells(const store_map &m, int kind, void *dst, const size_t *cells, size_t n, double value, cudaStream_t st);
// dst[0 .. n) = value.
void fill_field(int kind, void *dst, size_t n, double value, cudaStream_t st);
// istim at cells[q] = 0, or += amp when add (istim is row-major, or blockDS-ordered for LAYOUT_BLOCK).
void stimulus_scatter(const store_map &m, int fp64, void *istim, const size_t *cells, size_t n, double amp, int add,
                      cudaStream_t st);

#endif
