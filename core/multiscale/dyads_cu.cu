// The GPU's dyad stage (core/multiscale/dyads_cu.h). Compiled without -use_fast_math
// and with -fmad=false (cuda/CMakeLists.txt): every operation of a dyad's
// step then rounds as gcc's does on the CPU, so that from the same cell
// coefficients both backends compute the same channel probabilities, bit for
// bit, and the binomial sampler (core/multiscale/binomial.h) turns the same random word
// into the same count.
//
// Work per step (thread d of block b of cell k handles dyad b * threads + d):
//   dyad_setup   one thread per cell: the coefficients its dyads share;
//   dyad_react   one thread per dyad: gating, release, concentrations; the
//                block's sums of what the cell level needs;
//   dyad_diffuse one thread per dyad: cass, cacyt, cansr from the reacted
//                values of its neighbours; the block's sums;
//   dyad_finish  one warp per cell: the blocks' sums, in block order, into
//                the cell's means.
// In fp32, where a cell's diffused fields fit in shared memory, one block per
// cell does the last three (dyad_cell_step). Fixed-order sums, no atomics: a
// run is reproducible bit for bit.
#include <algorithm>
#include <cstdio>
#include <vector>
#include "cuda_check.h"
#include "dyads_cu.h"
#include "state_view.h"
#include "launch.h"
#include "sim.h"
#include "multiscale.h"
#include "dyad_rng.h"
#include "instances.h"
#define CARDIAC_TEMPLATE "dyad_storage.h"
#include "instantiate.h"

namespace {

// The shared code's precision instances under one name per type.
template <class T> struct dyad_types;
#define CARDIAC_DYAD_TYPES(T, S)                                                                                  \
    template <> struct dyad_types<T> {                                                                          \
        typedef struct dyad_cell_##S cell;                                                                      \
        typedef struct dyad_##S state;                                                                          \
        typedef struct dyad_out_##S out;                                                                        \
        static __device__ void setup(cell *c, const T *y, const T *p, T dt) { dyad_cell_setup_##S(c, y, p, dt); } \
        static __device__ void step(state *x, const cell *c, const T *p, T dt, const uint32_t *w, int clamp,    \
                                    out *o) { dyad_step_##S(x, c, p, dt, w, clamp, o); }                          \
        static __device__ void load(state *x, T *const *v, const uint32_t *r, size_t q) { dyad_load_##S(x, v, r, q); } \
        static __device__ void store(const state *x, T *const *v, uint32_t *r, size_t q) { dyad_store_##S(x, v, r, q); } \
        static __device__ void store_split(const state *x, T *const *v, uint32_t *r, size_t q, T *const *f, size_t qf) \
        { dyad_store_split_##S(x, v, r, q, f, qf); }                                                            \
        static __device__ void accumulate(double *s, const state *x, const out *o) { dyad_accumulate_##S(s, x, o); } \
        static __device__ T mean(int m, double s, int n, int r) { return dyad_mean_##S(m, s, n, r); }       \
        static __device__ void coefs(const T *p, T *cyt, T *sr) { dyad_diffusion_coefs_##S(p, cyt, sr); }       \
        static __device__ T diffuse(const T *a, int q, const int *nb, const int *shape, const T *coef, T dt,    \
                                    int buffered, int type)                                                      \
        { return dyad_diffuse_at_##S(a, q, nb, shape, coef, dt, buffered, type); }                              \
    };
CARDIAC_DYAD_TYPES(float, f32)
CARDIAC_DYAD_TYPES(double, f64)
#undef CARDIAC_DYAD_TYPES

template <class T>
struct dyad_args {
    T *y[GR_NSTATE];                        // cell-state arrays
    const size_t *lcell;                    // the cells' local indices
    const uint64_t *gcell;                  // and global ones (the random numbers' key)
    uint64_t key_period;                    // multiscale.h: an ensemble's key is gcell mod this
    const uint8_t *plabel;
    const T *ptable, *p;
    const unsigned char *clamp;
    T *var[MS_NVAR], *next[MS_NVAR];
    uint32_t *ryr;                          // C1 | O1 << 8 | C2 << 16 | C3 << 24
    typename dyad_types<T>::cell *cellc;    // per cell
    T *dcoef;                               // per cell: the diffusion coefficients, cytosol x3 then SR x3
    double *part;                           // per block: DS_COUNT sums
    size_t ncells;
    int n, shape[3], bpc;
    uint32_t div_x, div_xy;                 // dyad_grid_div of shape[0] and of shape[0] shape[1]
    uint32_t seed;
    long long step;
    T dt;
};

// The dyad kernels' blocks: x the block within its cell, y and z the cell
// (y + z gridDim.y: gridDim.y is at most 65,535), so that consecutive blocks
// cover a cell's dyads in order, as a one-dimensional grid does, without its
// division by the blocks per cell. With the cell as x instead, the blocks
// running together were of a thousand cells, a dyad's z neighbours (1,000
// dyads on) were read by blocks far apart in time, and diffusion ran 8%
// slower (docs/gpu-notebook.md, item 33).
__device__ __forceinline__ unsigned block_cell() { return blockIdx.y + blockIdx.z * gridDim.y; }

template <class T>
__device__ __forceinline__ const T *cell_params(const dyad_args<T> &a, size_t c)
{
    return a.plabel ? a.ptable + (size_t)a.plabel[c] * MODEL_MAX_PARAM : a.p;
}

// out[v] = the sum of s[v] over the block's threads, v < NV, in a fixed order.
// Within a warp the values are summed by halving exchanges: with P = NV
// rounded up to a power of two, at each of the first log2 P levels a lane
// keeps half of its values and adds its partner's copy of them, so that after
// them lane l holds one value, j = l / (32 / P), summed over 2^levels lanes;
// the remaining levels add that one value. A warp exchanges P - 1 + 5 -
// log2 P doubles instead of 5 NV (NV = 16: 16 instead of 80: the shuffles
// were a tenth of the reaction kernel's instructions, docs/gpu-notebook.md,
// item 22). Then the warps' sums, in turn. blockDim.x is a multiple of 32.
// One halving level of block_sums: H values in v[0 .. 2H) pair up with the
// partner lane `off` apart; the lower half stays where `off`'s bit is 0.
template <int H>
__device__ __forceinline__ void halve(double *v, int lane, int off)
{
    if constexpr (H >= 1) {
        const bool up = lane & off;   // this lane keeps the upper half, its partner the lower
#pragma unroll
        for (int i = 0; i < H; i++) {
            const double keep = up ? v[i + H] : v[i], send = up ? v[i] : v[i + H];
            v[i] = keep + __shfl_xor_sync(0xffffffffu, send, off);
        }
        halve<H / 2>(v, lane, off / 2);
    }
}

// The warp's part: row[v] = the sum of s[v] over the warp's 32 lanes (all
// of them active), written (ACC: added) by the lane that holds it.
template <int NV, bool ACC = false>
__device__ __forceinline__ void warp_sums(const double *s, double *row)
{
    static_assert(NV >= 1 && NV <= 32, "block_sums: 1 to 32 values");
    constexpr int P = NV <= 1 ? 1 : NV <= 2 ? 2 : NV <= 4 ? 4 : NV <= 8 ? 8 : NV <= 16 ? 16 : 32;
    const int lane = threadIdx.x & 31;
    double v[P];
#pragma unroll
    for (int i = 0; i < P; i++) v[i] = i < NV ? s[i] : 0.0;
    halve<P / 2>(v, lane, 16);
#pragma unroll
    for (int off = 16 / P; off >= 1; off /= 2) v[0] += __shfl_xor_sync(0xffffffffu, v[0], off);
    const int span = 32 / P, j = lane / span;
    if (lane % span == 0 && j < NV) {
        if (ACC) row[j] += v[0];
        else row[j] = v[0];
    }
}

template <int NV>
__device__ __forceinline__ void block_sums(const double *s, double *out)
{
    __shared__ double warp_sum[32][NV];
    const int warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
    warp_sums<NV>(s, warp_sum[warp]);
    __syncthreads();
    if (threadIdx.x < NV) {
        double t = 0;
        for (int w = 0; w < nwarps; w++) t += warp_sum[w][threadIdx.x];
        out[threadIdx.x] = t;
    }
}

template <class T>
__global__ void dyad_setup(dyad_args<T> a)
{
    const size_t k = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (k >= a.ncells) return;
    const size_t c = a.lcell[k];
    T y[GR_NSTATE];
    for (int v = 0; v < GR_NSTATE; v++) y[v] = a.y[v][c];
    typename dyad_types<T>::cell cc;
    const T *p = cell_params(a, c);
    dyad_types<T>::setup(&cc, y, p, a.dt);
    a.cellc[k] = cc;
    dyad_types<T>::coefs(p, a.dcoef + 6 * k, a.dcoef + 6 * k + 3);
}

// Registers bound the reaction kernel's occupancy (it waits on the latency of
// dependent double operations in the binomial draws): unbounded, fp64 took
// 145 registers (one block of 256 per SM, 12.5% occupancy) and fp32 110
// (25%). With the cell's coefficients in shared memory (dyad_react) fp64
// needs 96 and fp32 80 without spilling; asking for 3 and 4 resident blocks
// caps them at 80 and 64, with 32 and 60 bytes of spills, and ran 15% and 6%
// faster than 2 and 3 blocks (4 blocks in fp64, 64 registers and 112 bytes
// of spills, ran 3% slower than 3: docs/gpu-notebook.md, item 33).
template <class T> constexpr int react_blocks_per_sm() { return sizeof(T) == 8 ? 3 : 4; }

// The cell's coefficients and parameters into the block's shared memory,
// the same for every thread of the block, read where the step uses them:
// copied into each thread's registers, the coefficients (36 words in fp32)
// were what spilled (about 100 bytes a thread; none with this at 80
// registers). Ends with the block's barrier.
template <class T>
__device__ __forceinline__ void cell_to_shared(const dyad_args<T> &a, unsigned k, typename dyad_types<T>::cell &cc,
                                               T *par)
{
    const T *p = cell_params(a, a.lcell[k]);
    for (int i = threadIdx.x; i < MODEL_MAX_PARAM; i += blockDim.x) par[i] = p[i];
    static_assert(sizeof(cc) % 4 == 0, "the cell's coefficients as words");
    const uint32_t *src = (const uint32_t *)(a.cellc + k);
    uint32_t *dst = (uint32_t *)&cc;
    for (int i = threadIdx.x; i < (int)(sizeof(cc) / 4); i += blockDim.x) dst[i] = src[i];
    __syncthreads();
}

// The reaction step of dyad d of cell k: its state read from a.var and
// a.ryr, the new one stored there but for the diffused fields (cass, cacyt,
// cansr), which go to diffused[0..2] at index qd; what the cell sums added
// to s.
template <class T>
__device__ __forceinline__ void react_dyad(const dyad_args<T> &a, unsigned k, int d,
                                           const typename dyad_types<T>::cell &cc, const T *par,
                                           T *const *diffused, size_t qd, double *s)
{
    typedef dyad_types<T> DT;
    typename DT::state x;
    const size_t q = (size_t)k * a.n + d;
    DT::load(&x, a.var, a.ryr, q);
    uint32_t w[10];
    dyad_words(a.seed, d, dyad_key(a.gcell[k], a.key_period), (uint64_t)a.step, x.ryr, w);
    typename DT::out o;
    DT::step(&x, &cc, par, a.dt, w, a.clamp[k], &o);
    DT::store_split(&x, a.var, a.ryr, q, diffused, qd);
    DT::accumulate(s, &x, &o);
}

template <class T>
__global__ void __launch_bounds__(256, react_blocks_per_sm<T>()) dyad_react(dyad_args<T> a)
{
    const unsigned k = block_cell();
    const int d = (int)blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= a.ncells) return;   // the whole block
    __shared__ typename dyad_types<T>::cell cc;
    __shared__ T par[MODEL_MAX_PARAM];
    cell_to_shared(a, k, cc, par);
    double s[DS_REACT];
#pragma unroll
    for (int m = 0; m < DS_REACT; m++) s[m] = 0;
    if (d < a.n) {
        const size_t q = (size_t)k * a.n + d;
        T *const diffused[3] = {a.var[MS_CASS], a.var[MS_CACYT], a.var[MS_CANSR]};
        react_dyad(a, k, d, cc, par, diffused, q, s);
    }
    block_sums<DS_REACT>(s, a.part + ((size_t)k * a.bpc + blockIdx.x) * DS_COUNT);
}

// floor(d / D) for d D < 2^32 from m = dyad_grid_div(D) (0 for D = 1): the
// high word of d m, with m = floor(2^32 / D) + 1 = 2^32 / D + e, 0 < e <= 1,
// is floor(d / D + d e / 2^32), and d e / 2^32 < 1 / D keeps it below the
// next integer. One multiplication where the division by a value known only
// at run time was some 15 instructions (the dyads' grid position, three a
// dyad).
uint32_t dyad_grid_div(uint32_t D) { return D == 1 ? 0 : (uint32_t)(((uint64_t)1 << 32) / D + 1); }
static_assert((uint64_t)GR_MAX_DYADS * GR_MAX_DYADS < ((uint64_t)1 << 32), "grid_quot: d D < 2^32");
__device__ __forceinline__ int grid_quot(int d, uint32_t m) { return m ? (int)__umulhi((uint32_t)d, m) : d; }

// p unchanged, but opaque to the compiler: a field's base pointer for the
// cell, which it would otherwise fold into each neighbour's 64-bit address
// (four instructions a load instead of one).
template <class T>
__device__ __forceinline__ const T *opaque(const T *p)
{
    asm("" : "+l"(p));
    return p;
}

// The three diffused fields of dyad d of cell k from the reacted ones at
// src (the cell's cass, cacyt, cansr), its neighbours found once for them
// (the same values, in the same order, as the CPU's dyad_diffuse_point),
// written to a.next and into s.
template <class T>
__device__ __forceinline__ void diffuse_dyad(const dyad_args<T> &a, unsigned k, int d, const T *const *src,
                                             double *s)
{
    typedef dyad_types<T> DT;
    const int nx = a.shape[0], ny = a.shape[1];
    const int qx = grid_quot(d, a.div_x), z = grid_quot(d, a.div_xy);
    const int pos[3] = {d - qx * nx, qx - z * ny, z}, shape[3] = {a.shape[0], a.shape[1], a.shape[2]};
    int nb[6];
    dyad_neighbours(d, pos, shape, nb);
    const size_t off = (size_t)k * a.n;
    const T cyt[3] = {a.dcoef[6 * k], a.dcoef[6 * k + 1], a.dcoef[6 * k + 2]};
    const T sr[3] = {a.dcoef[6 * k + 3], a.dcoef[6 * k + 4], a.dcoef[6 * k + 5]};
    const int type = a.cellc[k].type;
    const T cass = DT::diffuse(src[0], d, nb, shape, cyt, a.dt, 2, type);
    const T cacyt = DT::diffuse(src[1], d, nb, shape, cyt, a.dt, 1, type);
    const T cansr = DT::diffuse(src[2], d, nb, shape, sr, a.dt, 0, type);
    a.next[MS_CASS][off + d] = cass;
    a.next[MS_CACYT][off + d] = cacyt;
    a.next[MS_CANSR][off + d] = cansr;
    s[0] = cass; s[1] = cacyt; s[2] = cansr;
}

template <class T>
__global__ void __launch_bounds__(256) dyad_diffuse(dyad_args<T> a)
{
    const unsigned k = block_cell();
    const int d = (int)blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= a.ncells) return;   // the whole block
    double s[3] = {0, 0, 0};
    if (d < a.n) {
        const size_t off = (size_t)k * a.n;
        const T *const src[3] = {opaque(a.var[MS_CASS] + off), opaque(a.var[MS_CACYT] + off),
                                 opaque(a.var[MS_CANSR] + off)};
        diffuse_dyad(a, k, d, src, s);
    }
    block_sums<3>(s, a.part + ((size_t)k * a.bpc + blockIdx.x) * DS_COUNT + DS_CASS);
}

// The whole stage of one cell in one block, where the cell's three diffused
// fields fit in shared memory (fp32: 120 KB for 10,000 dyads): the reaction
// of every dyad, its cass, cacyt and cansr kept in shared memory, a barrier,
// diffusion from there, and the cell's means. A step then reads and writes
// those fields in global memory once instead of twice, diffusion reads its
// neighbours from shared memory instead of through L2, and two of the four
// launches are gone. Thread t handles dyads t, t + blockDim.x, ...; each warp
// adds its warp sums (warp_sums) over its dyads into a row of its own, and
// the means add the rows in warp order. Keeping every warp's sums instead, to
// add them in dyad_react's and dyad_diffuse's order, took 48 KB more: shared
// memory then left L1 too little room for the kernel's spills, and the step
// ran 8% slower (docs/gpu-notebook.md, item 35). In fp32 the sums' order
// reaches the cell state only through a double rounded to float. 1,024
// threads (64 registers, 76 bytes of spills) ran faster than 896 (72) and
// 768 (80, 36 bytes): 10.17 ms a step against 10.51 and 10.62 (item 35).
constexpr int CELL_THREADS = 1024;

template <class T>
__global__ void __launch_bounds__(CELL_THREADS, 1) dyad_cell_step(dyad_args<T> a)
{
    typedef dyad_types<T> DT;
    const unsigned k = blockIdx.x;
    extern __shared__ double cell_smem[];
    const int slots = (a.n + 31) & ~31, warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    double *wr = cell_smem, *wd = wr + 32 * DS_REACT;   // per warp: the reaction's sums, diffusion's
    T *const fld = (T *)(wd + 32 * 3);
    __shared__ typename DT::cell cc;
    __shared__ T par[MODEL_MAX_PARAM];
    if (lane < DS_REACT) wr[warp * DS_REACT + lane] = 0;
    if (lane < 3) wd[warp * 3 + lane] = 0;
    cell_to_shared(a, k, cc, par);
    // slots (the dyads rounded up to a warp) and blockDim.x are multiples of
    // 32: whole warps take part
    for (int d = threadIdx.x; d < slots; d += blockDim.x) {
        double s[DS_REACT];
#pragma unroll
        for (int m = 0; m < DS_REACT; m++) s[m] = 0;
        if (d < a.n) {
            T *const diffused[3] = {fld, fld + a.n, fld + 2 * a.n};
            react_dyad(a, k, d, cc, par, diffused, (size_t)d, s);
        }
        warp_sums<DS_REACT, true>(s, wr + warp * DS_REACT);
    }
    __syncthreads();
    const T *const src[3] = {fld, fld + a.n, fld + 2 * a.n};
    for (int d = threadIdx.x; d < slots; d += blockDim.x) {
        double s[3] = {0, 0, 0};
        if (d < a.n) diffuse_dyad(a, k, d, src, s);
        warp_sums<3, true>(s, wd + warp * 3);
    }
    __syncthreads();
    const int m = threadIdx.x, nw = blockDim.x >> 5;
    if (m < DS_COUNT) {
        double t = 0;
        for (int w = 0; w < nw; w++) t += m < DS_REACT ? wr[w * DS_REACT + m] : wd[w * 3 + m - DS_REACT];
        a.y[dyad_sum_state(m)][a.lcell[k]] = DT::mean(m, t, a.n, (int)par[GR_READING]);
    }
}

// Dynamic shared memory of dyad_cell_step: the warps' sums, then the fields.
size_t cell_step_smem(int n, size_t es) { return 32 * (DS_REACT + 3) * 8 + 3 * (size_t)n * es; }

// One warp per cell: lane m adds sum m over the cell's blocks, in block order.
template <class T>
__global__ void dyad_finish(dyad_args<T> a)
{
    const size_t k = (blockIdx.x * (size_t)blockDim.x + threadIdx.x) / 32;
    const int m = threadIdx.x & 31;
    if (k >= a.ncells || m >= DS_COUNT) return;
    const double *part = a.part + k * a.bpc * DS_COUNT;
    double t = 0;
    for (int b = 0; b < a.bpc; b++) t += part[(size_t)b * DS_COUNT + m];
    const int reading = (int)cell_params(a, a.lcell[k])[GR_READING];
    a.y[dyad_sum_state(m)][a.lcell[k]] = dyad_types<T>::mean(m, t, a.n, reading);
}

__global__ void fill_u32(uint32_t *p, size_t n, uint32_t v)
{
    const size_t q = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (q < n) p[q] = v;
}

unsigned blocks_of(size_t n, int threads) { return (unsigned)((n + threads - 1) / threads); }

// Threads per block: the dyads of a cell rounded up to a warp, at most 256.
int threads_for(int n) { return n <= 32 ? 32 : n <= 64 ? 64 : n <= 128 ? 128 : 256; }

}  // namespace

struct gpu_dyads {
    int fp64, n, shape[3], threads, bpc;
    size_t ncells;
    uint32_t seed;
    void *var[MS_NVAR], *next[MS_NVAR];
    uint32_t *ryr;
    size_t *lcell;
    uint64_t *gcell;
    uint64_t key_period;
    unsigned char *clamp;
    void *cellc, *p, *dcoef;
    double *part;                           // the separate kernels' per-block sums (part_bytes)
    size_t cell_smem;                       // dyad_cell_step's dynamic shared memory, 0: the separate kernels
    std::vector<double> p_host;             // the parameters last uploaded
    std::vector<unsigned char> p_bytes;     // in the state's precision
};

static size_t cell_coef_bytes(int fp64)
{
    return fp64 ? sizeof(dyad_types<double>::cell) : sizeof(dyad_types<float>::cell);
}

// Whether a cell's stage runs as one block (dyad_cell_step): in fp32, where
// its shared memory fits a block. fp64 keeps the separate kernels: its
// reaction needs 80 registers a thread without spilling much (item 33), and
// a block of 1,024 threads gets 64. The bytes of dynamic shared memory, or 0.
static size_t cell_step_bytes(int fp64, int n, size_t ncells)
{
    if (fp64 || ncells == 0 || ncells > 0x7fffffffu) return 0;
    const size_t bytes = cell_step_smem(n, sizeof(float));
    int dev = 0, optin = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev);
    cudaFuncAttributes fa;
    if (cudaFuncGetAttributes(&fa, dyad_cell_step<float>) != cudaSuccess) { cudaGetLastError(); return 0; }
    if (bytes + fa.sharedSizeBytes > (size_t)optin) return 0;
    if (cudaFuncSetAttribute(dyad_cell_step<float>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes) !=
        cudaSuccess) { cudaGetLastError(); return 0; }
    return bytes;
}

// The separate kernels' per-block sums (part): DS_COUNT doubles for each
// block of each cell; the one-block path sums in shared memory instead.
static size_t part_bytes(size_t cell_smem, int bpc, size_t ncells)
{
    return cell_smem ? 0 : std::max<size_t>(ncells, 1) * bpc * DS_COUNT * sizeof(double);
}

double gpu_dyads_bytes(const sim *s, size_t ncells)
{
    if (!s->m.def->multiscale) return 0;
    const int n = (int)s->m.p[GR_DYADS], bpc = (n + threads_for(n) - 1) / threads_for(n);
    const double per_cell = cell_coef_bytes(s->fp64) + 6.0 * (s->fp64 ? 8 : 4) + 8 + 8 + 1;
    const double part = (double)part_bytes(cell_step_bytes(s->fp64, n, ncells), bpc, ncells);
    return multiscale_need(s, ncells) + per_cell * ncells + part + 8.0 * MODEL_MAX_PARAM;
}

static bool alloc(void **p, size_t bytes, double total, char *err, size_t errlen)
{
    const cudaError_t e = cudaMalloc(p, bytes ? bytes : 1);
    if (e == cudaSuccess) return true;
    cudaGetLastError();
    *p = nullptr;
    size_t fr = 0, tot = 0;
    cudaMemGetInfo(&fr, &tot);
    snprintf(err, errlen, "out of GPU memory for the calcium release units: they need %.3g GB, %.3g GB is free of "
             "%.3g GB (%s)", total / 1e9, fr / 1e9, tot / 1e9, cudaGetErrorString(e));
    return false;
}

gpu_dyads *gpu_dyads_create(sim *s, cudaStream_t st, char *err, size_t errlen)
{
    const multiscale *ms = s->ms;
    gpu_dyads *g = new gpu_dyads();
    g->fp64 = s->fp64;
    g->n = ms->n;
    for (int a = 0; a < 3; a++) g->shape[a] = ms->shape[a];
    g->threads = threads_for(ms->n);
    g->bpc = (ms->n + g->threads - 1) / g->threads;
    g->ncells = ms->ncells;
    g->seed = ms->seed;
    const size_t es = s->fp64 ? 8 : 4, nd = g->ncells * (size_t)g->n, nc = std::max<size_t>(g->ncells, 1);
    g->cell_smem = cell_step_bytes(g->fp64, g->n, g->ncells);
    const double total = gpu_dyads_bytes(s, g->ncells);
    bool ok = true;
    for (int v = 0; v < MS_NVAR && ok; v++) ok = alloc(&g->var[v], nd * es, total, err, errlen);
    for (int v = MS_CASS; v <= MS_CANSR && ok; v++) ok = alloc(&g->next[v], nd * es, total, err, errlen);
    ok = ok && alloc((void **)&g->ryr, nd * 4, total, err, errlen) &&
         alloc((void **)&g->lcell, nc * sizeof(size_t), total, err, errlen) &&
         alloc((void **)&g->gcell, nc * sizeof(uint64_t), total, err, errlen) &&
         alloc((void **)&g->clamp, nc, total, err, errlen) &&
         alloc(&g->cellc, nc * cell_coef_bytes(s->fp64), total, err, errlen) &&
         alloc(&g->dcoef, nc * 6 * es, total, err, errlen) &&
         alloc((void **)&g->part, part_bytes(g->cell_smem, g->bpc, g->ncells), total, err, errlen) &&
         alloc(&g->p, MODEL_MAX_PARAM * es, total, err, errlen);
    if (!ok) { gpu_dyads_free(g); return nullptr; }
    double rest[MS_NVAR];
    uint32_t ryr;
    multiscale_rest_dyad(s, rest, &ryr);
    for (int v = 0; v < MS_NVAR; v++) fill_field(s->fp64, g->var[v], nd, rest[v], st);
    if (nd) fill_u32<<<blocks_of(nd, 256), 256, 0, st>>>(g->ryr, nd, ryr);
    cudaMemsetAsync(g->clamp, DYAD_RYR_FREE, nc, st);
    cudaMemcpyAsync(g->lcell, ms->lcell, g->ncells * sizeof(size_t), cudaMemcpyHostToDevice, st);
    cudaMemcpyAsync(g->gcell, ms->gcell, g->ncells * sizeof(uint64_t), cudaMemcpyHostToDevice, st);
    g->key_period = ms->key_period;
    gpu_dyads_params(g, s->m.p, s->m.def->nparam, st);
    const cudaError_t e = cudaStreamSynchronize(st);
    if (e != cudaSuccess) {
        snprintf(err, errlen, "CUDA error initialising the calcium release units: %s", cudaGetErrorString(e));
        gpu_dyads_free(g);
        return nullptr;
    }
    return g;
}

void gpu_dyads_copy(gpu_dyads *g, void *const *var, uint32_t *ryr, int to_host, cudaStream_t st)
{
    const size_t nd = g->ncells * (size_t)g->n, es = g->fp64 ? sizeof(double) : sizeof(float);
    const cudaMemcpyKind kind = to_host ? cudaMemcpyDeviceToHost : cudaMemcpyHostToDevice;
    for (int v = 0; v < MS_NVAR; v++)
        cudaMemcpyAsync(to_host ? var[v] : g->var[v], to_host ? g->var[v] : var[v], nd * es, kind, st);
    cudaMemcpyAsync(to_host ? (void *)ryr : (void *)g->ryr, to_host ? (const void *)g->ryr : (const void *)ryr,
                    nd * sizeof(uint32_t), kind, st);
    cudaStreamSynchronize(st);
}

void gpu_dyads_free(gpu_dyads *g)
{
    if (!g) return;
    for (int v = 0; v < MS_NVAR; v++) { cudaFree(g->var[v]); cudaFree(g->next[v]); }
    cudaFree(g->ryr); cudaFree(g->lcell); cudaFree(g->gcell); cudaFree(g->clamp);
    cudaFree(g->cellc); cudaFree(g->dcoef); cudaFree(g->part); cudaFree(g->p);
    delete g;
}

void gpu_dyads_params(gpu_dyads *g, const double *p, int np, cudaStream_t st)
{
    if (g->p_host.size() == (size_t)np && std::equal(p, p + np, g->p_host.begin())) return;
    g->p_host.assign(p, p + np);
    const size_t es = g->fp64 ? 8 : 4;
    g->p_bytes.assign(MODEL_MAX_PARAM * es, 0);
    for (int q = 0; q < np; q++) {
        if (g->fp64) ((double *)g->p_bytes.data())[q] = p[q];
        else ((float *)g->p_bytes.data())[q] = (float)p[q];
    }
    // queued on st: after the kernels that read the old values (a plain
    // cudaMemcpy may return before its DMA ends, unordered with st)
    cudaMemcpyAsync(g->p, g->p_bytes.data(), g->p_bytes.size(), cudaMemcpyHostToDevice, st);
}

void gpu_dyads_clamps(gpu_dyads *g, const unsigned char *clamp, cudaStream_t st)
{
    cudaMemcpyAsync(g->clamp, clamp, g->ncells, cudaMemcpyHostToDevice, st);
}

template <class T>
static void step_typed(gpu_dyads *g, const dyad_launch &l)
{
    dyad_args<T> a;
    for (int v = 0; v < GR_NSTATE; v++) a.y[v] = (T *)l.state[v];
    a.lcell = g->lcell;
    a.gcell = g->gcell;
    a.key_period = g->key_period;
    a.plabel = l.plabel;
    a.ptable = (const T *)l.ptable;
    a.p = (const T *)g->p;
    a.clamp = g->clamp;
    for (int v = 0; v < MS_NVAR; v++) { a.var[v] = (T *)g->var[v]; a.next[v] = (T *)g->next[v]; }
    a.ryr = g->ryr;
    a.cellc = (typename dyad_types<T>::cell *)g->cellc;
    a.dcoef = (T *)g->dcoef;
    a.part = g->part;
    a.ncells = g->ncells;
    a.n = g->n;
    for (int q = 0; q < 3; q++) a.shape[q] = g->shape[q];
    a.bpc = g->bpc;
    a.div_x = dyad_grid_div((uint32_t)g->shape[0]);
    a.div_xy = dyad_grid_div((uint32_t)(g->shape[0] * g->shape[1]));
    a.seed = g->seed;
    a.step = l.step;
    a.dt = (T)l.dt;
    if (!g->ncells) return;
    const unsigned cells = blocks_of(g->ncells, 128);
    const unsigned cy = (unsigned)std::min<size_t>(g->ncells, 65535);
    const dim3 dyads((unsigned)g->bpc, cy, (unsigned)((g->ncells + cy - 1) / cy));   // block_cell
    dyad_setup<T><<<cells, 128, 0, l.stream>>>(a);
    if constexpr (sizeof(T) == 4) {
        if (g->cell_smem) {
            const int slots = (g->n + 31) & ~31;
            dyad_cell_step<T><<<(unsigned)g->ncells, std::min(slots, CELL_THREADS), g->cell_smem, l.stream>>>(a);
            return;
        }
    }
    dyad_react<T><<<dyads, g->threads, 0, l.stream>>>(a);
    dyad_diffuse<T><<<dyads, g->threads, 0, l.stream>>>(a);
    dyad_finish<T><<<blocks_of(g->ncells * 32, 128), 128, 0, l.stream>>>(a);
}

void gpu_dyads_step(gpu_dyads *g, const dyad_launch &l)
{
    if (g->fp64) step_typed<double>(g, l);
    else step_typed<float>(g, l);
    for (int v = MS_CASS; v <= MS_CANSR; v++) std::swap(g->var[v], g->next[v]);
}

// ---- the entry points of core/multiscale/multiscale.c and the backend's step ----

extern "C" int multiscale_init_cu(sim *s, const state_view *v, char *err, size_t errlen)
{
    s->ms->dev = gpu_dyads_create(s, (cudaStream_t)v->stream, err, errlen);
    return s->ms->dev ? 0 : -1;
}

extern "C" void multiscale_copy_cu(sim *s, const state_view *v, void *const *var, uint32_t *ryr, int to_host)
{
    gpu_dyads_copy(s->ms->dev, var, ryr, to_host, (cudaStream_t)v->stream);
    CU(s, cudaGetLastError());
}

extern "C" void multiscale_free_cu(multiscale *ms)
{
    gpu_dyads_free(ms->dev);
    ms->dev = nullptr;
}

extern "C" void multiscale_params_cu(sim *s, const state_view *v)
{
    if (s->ms && s->ms->dev) gpu_dyads_params(s->ms->dev, s->m.p, s->m.def->nparam, (cudaStream_t)v->stream);
}

extern "C" void multiscale_stage_cu(sim *s, const state_view *v, const uint8_t *plabel, const void *ptable, long long step)
{
    if (!s->ms || !s->ms->dev) return;
    cudaStream_t st = (cudaStream_t)v->stream;
    const int changed = multiscale_clamps_at(s, (long)step);
    if (changed < 0) { sim_fail(s, "out of memory for the RyR clamps"); return; }
    if (changed) gpu_dyads_clamps(s->ms->dev, s->ms->clamp, st);
    dyad_launch a = {v->var, plabel, ptable, s->dt, step, st};
    gpu_dyads_step(s->ms->dev, a);
}
