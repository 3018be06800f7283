// Temporal blocking over wide tiles held whole in shared memory ("tplane"):
// one kernel advances K time steps of a full or masked volume, second-order
// stencil. A block of threads owns a tile of W x TY cells (x fastest; W = the
// grid's width where it fits, so that most tiles need no x halo) and marches
// it along a chunk of z. Each level l = 1..K of the pipeline computes one
// plane per iteration from level l-1's planes, which sit in a ring of 3
// planes in shared memory; the last level writes its plane to global memory.
// State is read once and written once per K steps.
//
// What differs from tblock (kernels_tblock.cuh), where 3D tiles of 32 x 32
// cells keep each cell's column in a register queue: there, every level of
// every tile spends its issue slots on the whole tile although its valid part
// shrinks by one cell per side and level (a third of the tile at K = 3), and
// the per-level bookkeeping ran to about 170 instructions per useful
// cell-step (docs/gpu-notebook.md, item 5). Here a warp is 32 cells of one row, so the
// rows a level no longer needs are skipped by whole warps, a tile as wide as
// the grid has no x halo at all, and the thread-to-cell map is fixed (thread
// t holds column t % W of rows t / W + k * RP, k < CPT), so every shared
// address is the thread's own plus a constant, and a cell's other states
// stay in the thread's registers from level to level.
//
// Skew 1: at the iteration that stores input plane z, level l computes plane
// z - l, and the levels run bottom up within the iteration. Level l reads
// level l-1's plane z - l + 1 from the register the same thread just
// computed it in, plane z - l (its centre, and the x and y neighbours that
// other threads wrote an iteration ago) and plane z - l - 1 from shared
// memory. So one barrier per iteration suffices, a level's ring needs only
// the slots of planes z, z - 1 and z - 2 (plane p in slot p mod 3), and a
// cell's other states wait one iteration per level. The input plane stored
// at an iteration was loaded into registers during the previous one, behind
// its arithmetic (docs/gpu-notebook.md, item 15: the skew of 2 this replaced needed 4
// planes per level and twice the registers for the other states). In fp32
// with K >= 2 (tplane_async) V's input planes are instead copied into level
// 0's ring by cp.async, two planes ahead, into a fourth slot: the registers
// that held the next plane are free, which took the spills out of the
// 64-register kernels (item 56).
//
// The barrier is split (an mbarrier): a thread arrives when it has written
// its planes of levels 0..K-1 and waits at the start of the next iteration,
// so that it computes the last level while slower threads finish the lower
// ones. The last level reads level K-1's planes z - K and z - K - 1 after
// its thread's arrival; so that a thread already in the next iteration does
// not overwrite them, level K-1's ring has a fourth slot (docs/gpu-notebook.md, item
// 16: 6.6% at 512^3 fp32).
//
// Under mpirun (split_tplane_step, cuda/split_step.cu) a rank stores its
// owned cells with K ghost layers of every state on each face it shares: a
// launch writes only the box it is given (the owned planes [zb, ze), and
// columns and rows under a split along x or y) and reads the K planes beyond
// it, which are then the ghost planes, as the halo planes of a z chunk are.
// A ghost column or row that the kernel treats as the box's face computes
// wrong values at the levels below K, but no owned cell's K-step value
// depends on them (level l's values are right from l cells inside the
// stored box on), and they are not written.
//
// Boundaries: no flux, by the rule of core/engine/stencil_rule.h (a missing
// neighbour reads as the cell itself), applied by selects on the neighbour's
// value (in fp32, only by the warps whose cells touch an x or y face and on
// the z faces' planes), so that every cell computes the naive kernel's expression: the
// results are bitwise equal to naive's in fp64 and, in fp32, on full boxes of
// the two-state models; elsewhere in fp32 they can differ in the last bit,
// where nvcc fuses the other product of the diffusion sum into the FMA
// (docs/gpu.md, "Agreement"; tests/gpu_agreement.lua checks all against the CPU).
#ifndef CARDIAC_CUDA_KERNELS_TPLANE_CUH
#define CARDIAC_CUDA_KERNELS_TPLANE_CUH
#include <type_traits>
#include "dispatch.cuh"
#include "marching.cuh"
#include "rest_region.cuh"
#include "tplane_plan.h"

namespace {

// Whether tplane's kernels of this model, precision, mask and parameter sets
// come in a second copy that tracks resting tissue (cuda/rest_region.cu).
template <class M, class T, bool MASKED, bool LABELS>
__host__ __device__ constexpr bool tplane_tracks() { return quiet_v<M>::value && sizeof(T) == 4 && !MASKED && !LABELS; }

constexpr int RING = 3;   // planes per level in shared memory (level K-1: RING + 1)
// the block's mbarrier (16 bytes) and resting tissue's ints, ahead of the rings
constexpr int BAR_BYTES = 16 + (REST_SM_BYTES + 15) / 16 * 16;

// The iteration's barrier, split: a thread arrives once its writes to the
// rings are done and waits, at the start of the next iteration, for the
// others to have arrived. Between the two it computes the last level, whose
// reads need only the planes of earlier iterations (docs/gpu-notebook.md, item 16).
__device__ __forceinline__ unsigned smem_addr(const void *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}
__device__ __forceinline__ void bar_init(unsigned long long *b, unsigned count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(b)), "r"(count) : "memory");
}
__device__ __forceinline__ void bar_arrive(unsigned long long *b)
{
    asm volatile("mbarrier.arrive.release.cta.shared::cta.b64 _, [%0];" ::"r"(smem_addr(b)) : "memory");
}
// Waits until the phase of the given parity (0 for the first arrival of
// every thread, 1 for the second, ...) has completed.
__device__ __forceinline__ void bar_wait(unsigned long long *b, unsigned parity)
{
    unsigned done = 0;
    while (!done)
        asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 p, [%1], %2; "
                     "selp.u32 %0, 1, 0, p; }"
                     : "=r"(done)
                     : "r"(smem_addr(b)), "r"(parity)
                     : "memory");
}

// The input plane's V copied straight into level 0's ring (cp.async: no
// register holds it on the way). A thread commits one group of copies a
// plane and waits for its own groups; its arrival at the barrier then
// publishes the plane to the block.
template <class T>
__device__ __forceinline__ void copy_async(unsigned dst, const T *src)
{
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2;" ::"r"(dst), "l"(src), "n"(sizeof(T)) : "memory");
}
__device__ __forceinline__ void copy_commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }
// Waits until at most N of the thread's groups are still in flight.
template <int N>
__device__ __forceinline__ void copy_wait() { asm volatile("cp.async.wait_group %0;" ::"n"(N) : "memory"); }

// The planes [x, y) of the chunk of the blocks of row i along z.
__device__ __forceinline__ int2 tplane_chunk(const tplane_geom &g, int i)
{
    int lo, hi;
    tplane_chunk_bounds(g, i, &lo, &hi);
    return make_int2(lo, hi);
}

// At the end of a face chunk's block: once every tile's block has written
// its face planes, the last of them counts the launch in sig[f], which the
// copy engines' stream waits for. Every thread's writes are made visible to
// the system (the copy engines) first.
__device__ __forceinline__ void tplane_signal_face(unsigned *sig, int f)
{
    __threadfence_system();
    __syncthreads();
    if (threadIdx.x == 0) {
        const unsigned tiles = gridDim.x * gridDim.y;
        if (atomicInc(sig + 2 + f, tiles - 1) == tiles - 1) {   // wraps to 0, ready for the next launch
            __threadfence_system();
            atomicAdd(sig + f, 1u);
        }
    }
}

// Levels a cell at tile position t (of w, first global index g - t) can
// compute along one axis: as many as it is cells from the tile's edge,
// except towards an edge that is the box's own face (no halo needed there).
template <int K>
__device__ __forceinline__ int edge_depth(int t, int w, int g, int n)
{
    if (g < 0 || g >= n) return 0;
    const int lo = g - t <= 0 ? K : t, hi = g + (w - 1 - t) >= n - 1 ? K : w - 1 - t;
    return min(K, min(lo, hi));
}

// NT: the block's threads (W x RP) when known at compile time (1024 or 512,
// the default shapes), else 0 (any shape up to 1024 threads). With NT, a
// thread's rows lie NT cells apart in every shared plane and the planes
// NT x CPT cells apart, so each of its cells' shared accesses is one of
// three base registers (the slots of planes z, z - 1 and z - 2) plus a
// constant. One block runs per SM: 1024 threads get 64 registers each, 512
// threads 128 and more rows per thread (tplane_cells_per_thread).
//
// LABELS (general kernels only): the cells' parameter sets, each cell's row
// read from the table. Without them the general kernel's cells take the
// launch's parameters straight from its arguments; with one kernel for both
// every variant held the parameters in registers and spilled (Karma fp64,
// K = 2, 512 threads: 136 bytes of spill stores against 56; fp32 K = 3: 84
// against 4; docs/gpu-notebook.md, item 44).
template <class M, class T, bool MASKED, bool FOLD, bool LABELS, int K, int CPT, int NT, bool MC, bool TRACK>
__global__ void __launch_bounds__(NT ? NT : 1024, 1) k_tplane(const step_args<M, T> a, const tplane_geom g)
{
    constexpr int NS = M::nstate, VI = M::vindex, NO = NS - 1, NOQ = NO > 0 ? NO : 1;
    constexpr bool AS = tplane_async(K, (int)sizeof(T));   // V's input planes by cp.async
    constexpr int A0 = AS ? 1 : 0;                         // level 0's fourth slot, ahead of the other rings
    // resting tissue's code only in the kernels of the launches that track
    // it (TRACK; cuda/rest_region.cu: the models of CARDIAC_QUIET_V_MODELS,
    // fp32, no mask, one parameter set); compiled in the others, it made the
    // fp64 kernel spill and run 4% slower, and the fp32 one 2.7% slower with
    // nothing tracked (items 68, 69)
    constexpr bool REST = TRACK && tplane_tracks<M, T, MASKED, LABELS>();
    extern __shared__ unsigned char smem_raw[];
    const int W = g.W, TY = g.TY;
    const int ps = NT ? NT * CPT : W * TY;                        // cells per shared plane
    unsigned long long *bar = (unsigned long long *)smem_raw;
    T *ring = (T *)(smem_raw + BAR_BYTES) + W + 1;                // guard: row -1 and cell -1 of plane 0
    const int nx = a.n[0], ny = a.n[1], nz = a.n[2], sz = nx * ny;
    const int tx = threadIdx.x % W, ty0 = threadIdx.x / W;
    const int gx = blockIdx.x * g.cx - g.hx + tx;
    const int gy0 = blockIdx.y * g.cy - g.hy + ty0;
    const int col0 = gy0 * nx + gx;                               // in-plane index of cell 0
    int z0, z1;                                                   // the chunk's planes
    {
        const int2 chunk = tplane_chunk(g, blockIdx.z);
        z0 = chunk.x;
        z1 = chunk.y;
    }

    // Per cell k: the levels it computes (bits 0-2), whether it is in the
    // box (bit 3) and whether the last level writes it (bit 4).
    static_assert(CPT <= 12, "tplane: 5 bits of info per row, y-face bits 16 apart");
    using info_t = std::conditional_t<(5 * CPT > 32), unsigned long long, unsigned>;
    info_t info = 0;
    const int dx = edge_depth<K>(tx, W, gx, nx);
    const bool xcore = tx >= g.hx && tx < W - g.hx;
#pragma unroll
    for (int k = 0; k < CPT; k++) {
        const int r = ty0 + k * g.RP, gy = gy0 + k * g.RP;
        const int d = min(dx, edge_depth<K>(r, TY, gy, ny));
        const bool inbox = gx >= 0 && gx < nx && gy >= 0 && gy < ny;
        const bool owned = gx >= g.ox0 && gx < g.ox1 && gy >= g.oy0 && gy < g.oy1;
        const bool core = inbox && owned && d == K && xcore && r >= g.hy && r < TY - g.hy;
        info |= (info_t)(d | inbox << 3 | core << 4) << (5 * k);
    }
    const bool xlo = gx == 0, xhi = gx == nx - 1;
    const int kstride = NT ? NT : g.RP * W, rstride = g.RP * nx;   // from a thread's row k to k + 1: shared, global
    unsigned yface = 0;                                   // bit k: row k at y = 0; bit 16 + k: at y = ny - 1
#pragma unroll
    for (int k = 0; k < CPT; k++) {
        const int gy = gy0 + k * g.RP;
        yface |= (unsigned)(gy == 0) << k | (unsigned)(gy == ny - 1) << (k + 16);
    }
    // which faces of the box the warp's cells lie on (bit 0: an x face, bit
    // 1: a y face): a warp computes its cells with the selects of those faces
    // only, and most warps with none. Taken per warp, so that a warp never
    // runs two paths; all of the block's threads are active here.
    unsigned warp_faces = 3u;
    if constexpr (sizeof(T) == 4 && !MASKED)
        warp_faces = (__any_sync(__activemask(), xlo || xhi) ? 1u : 0u)
                   | (__any_sync(__activemask(), yface != 0u) ? 2u : 0u);
    T p[M::nparam];
    model_params<M, T, FOLD>(a, p);

    T vst[AS ? 1 : CPT];        // V of the next input plane, loaded an iteration ahead (not AS)
    T oq[K][CPT][NOQ];          // level l's other states of the plane it computed an iteration ago
    // A programmatic dependent launch (cuda/follow_launch.cuh): the lines
    // above, the set-up, run while the launch before this one finishes
    // (docs/gpu-notebook.md, item 60: 2.7% of a 256^3 step)
    follow_previous_launch();
    // resting tissue (cuda/rest_region.cuh): where the launch may skip it,
    // the blocks share the planes that can change, which follow from the
    // launch before's box, and a block with none leaves at once. [rlo,
    // rhi): the planes the launch steps.
    int rlo = g.zb, rhi = g.ze;
    if constexpr (REST) {
        if (g.rest_use) {
            const int2 act = rest_active_planes(g.rest, g.rest_seq, K, g.zb, g.ze);
            const int rows = (int)gridDim.z, zc = (act.y - act.x + rows - 1) / rows;
            rlo = act.x;
            rhi = act.y;
            z0 = act.x + (int)blockIdx.z * zc;
            z1 = min(z0 + zc, act.y);
        }
        if (threadIdx.x == 0 && blockIdx.x == 0 && blockIdx.y == 0 && blockIdx.z == 0)
            rest_clear_next(g.rest, g.rest_seq, max(0, rhi - rlo) * K);
        if (g.rest_use && z0 >= z1) return;
    }
    const int zin0 = max(0, z0 - K), zin1 = min(nz, z1 + K);            // input planes
    const int zo0 = max(0, z0 - (K - 1)), zo1 = min(nz, z1 + K - 1);    // level 1's planes
    // AS: level 0's ring has 4 slots (plane p in slot p mod 4), filled two
    // planes ahead
    auto slot0 = [&](int pl) { return ((pl + 8) & 3) * ps + (int)threadIdx.x; };
    const unsigned ring_sa = smem_addr(ring);
    auto load_v = [&](int zv) {
        if (zv < zin0 || zv >= zin1) return;
        if constexpr (AS) {
            const unsigned d = ring_sa + (unsigned)slot0(zv) * (unsigned)sizeof(T);
#pragma unroll
            for (int k = 0; k < CPT; k++)
                if ((unsigned)(info >> (5 * k)) & 8)
                    copy_async(d + (unsigned)(k * kstride) * (unsigned)sizeof(T),
                               a.in[VI] + ((size_t)zv * sz + col0 + (size_t)k * rstride));
        } else {
#pragma unroll
            for (int k = 0; k < CPT; k++)
                if ((unsigned)(info >> (5 * k)) & 8) vst[k] = a.in[VI][(size_t)zv * sz + col0 + (size_t)k * rstride];
        }
    };
    load_v(z0 - K);
    if constexpr (AS) {   // a group per plane, so that a wait can leave the newest in flight
        copy_commit();
        load_v(z0 - K + 1);
        copy_commit();
    }
    // shared offsets (elements from ring, with the thread's own cell) of the
    // slots holding planes z, z - 1 and z - 2 of every level's ring, rotated
    // every iteration (plane z + 1 takes the slot of z - 2)
    static_assert(RING == 3, "tplane: a slot per plane z, z - 1, z - 2");
    int sl[RING];
    {
        const int z = z0 - K, m = ((z % RING) + RING) % RING;
#pragma unroll
        for (int j = 0; j < RING; j++) sl[j] = ((m - j + RING) % RING) * ps + (int)threadIdx.x;
    }
    // level K-1's ring (read by the last level after the thread's arrival)
    // has a fourth slot: plane p in slot p mod 4
    auto slot4 = [&](int pl) { return ((pl + 8) & 3) * ps + (int)threadIdx.x + ((K - 1) * RING + A0) * ps; };
    // resting tissue (cuda/rest_region.cuh): the planes the launch steps,
    // the block's chunk, its planes' bytes
    int *rest_sm = (int *)((unsigned char *)smem_raw + 16);
    unsigned char *rest_flags = (unsigned char *)(rest_sm + 4);
    if constexpr (REST)
        for (int i = (int)threadIdx.x; i < REST_SM_BYTES / 4; i += (int)blockDim.x)
            rest_sm[i] = i == 0 ? rlo : i == 1 ? rhi : i == 2 ? z0 : i == 3 ? z1 : 0;
    if (threadIdx.x == 0) bar_init(bar, blockDim.x);
    __syncthreads();
    const int zlast = z1 - 1 + K;
    for (int z = z0 - K; z <= zlast; z++) {
        // the planes of the previous iteration written, the slots it read free
        if (z > z0 - K) bar_wait(bar, (unsigned)(z - z0 + K - 1) & 1u);
        // level 0: the input plane z, loaded during the previous iteration
        // (AS: copied during the two before)
        T fresh[CPT];                 // level l-1's V of plane z - l + 1, computed this iteration
        T carry[CPT][NOQ];            // and its other states
        if constexpr (AS) {
            copy_wait<1>();           // this thread's copies of plane z; those of z + 1 may be in flight
            const int s0 = slot0(z);
#pragma unroll
            for (int k = 0; k < CPT; k++) fresh[k] = ring[s0 + k * kstride];
        } else {
            const int s0 = K == 1 ? slot4(z) : sl[0];
#pragma unroll
            for (int k = 0; k < CPT; k++) {
                fresh[k] = vst[k];
                ring[s0 + k * kstride] = vst[k];
            }
            if (z < zlast) load_v(z + 1);
        }
        // levels bottom up: level l computes plane z - l
#pragma unroll
        for (int l = 1; l <= K; l++) {
            const int pz = z - l;
            if (l == K) bar_arrive(bar);   // this thread's ring writes and reads of the iteration are done
            const bool act = pz >= max(0, z0 - (K - l)) && pz < min(nz, z1 + (K - l));
            T nfresh[CPT], ncarry[CPT][NOQ];
            if (act) {
                // shared offsets of the thread's first cell: level l-1's
                // planes pz (centre, x and y neighbours) and pz - 1, level
                // l's plane pz
                const int oc = l == K ? slot4(pz) : AS && l == 1 ? slot0(pz) : sl[l % RING] + ((l - 1) * RING + A0) * ps;
                const int om = l == K       ? slot4(pz - 1)
                               : AS && l == 1 ? slot0(pz - 1)
                                              : sl[(l + 1) % RING] + ((l - 1) * RING + A0) * ps;
                const int od = l == K - 1 ? slot4(pz) : sl[l % RING] + (l * RING + A0) * ps;
                const size_t zoff = (size_t)pz * sz + col0;
                const bool zlo = pz == 0, zhi = pz == nz - 1;
                // the plane's: an ensemble's member may have its own D (MC);
                // otherwise the launch's, as kernel parameters (item 24)
                const T *coef = a.coef;
                T mc[4];
                if constexpr (MC) {
                    layer_coef(a, pz, mc);
                    coef = mc;
                }
                // the stimulus is tested once per plane, not per cell: a
                // branch per cell would keep the cells' chains from
                // interleaving
                // (FACES: the no-flux faces whose selects the cells need, bit
                // 0 x, 1 y, 2 z; without bit 2 the plane is neither z face,
                // so nz >= 3)
                unsigned bits = 0;   // rest_active_bits of the cells the last level writes, or-ed (resting tissue)
                auto cells = [&](auto stim_on, auto faces_on) {
                    constexpr bool STIM = decltype(stim_on)::value;
                    constexpr int FACES = decltype(faces_on)::value;
#pragma unroll
                    for (int k = 0; k < CPT; k++) {
                        const unsigned f = (unsigned)(info >> (5 * k));
                        // only a thread's first and last rows skip, by whole
                        // warps, the levels they cannot compute. Its middle
                        // rows are valid at every level when RP >= K; with
                        // fewer rows of threads, a middle row computed beyond
                        // its depth is harmless (only rows as invalid read it).
                        if ((k == 0 || k == CPT - 1) && (int)(f & 7) < l) continue;
                        const bool inbox = f & 8;
                        const int o = k * kstride, c0 = oc + o;
                        const size_t c = zoff + (size_t)k * rstride;
                        T y[NS];
                        y[VI] = ring[c0];
#pragma unroll
                        for (int v = 0, q = 0; v < NS; v++)
                            if (v != VI) y[v] = oq[l - 1][k][q++];
                        const T v0 = y[VI];
                        T xm = ring[c0 - 1], xp = ring[c0 + 1], ym = ring[c0 - W], yp = ring[c0 + W];
                        T zm = ring[om + o], zp = fresh[k];
                        bool tissue = true;
                        if (MASKED) {
                            const unsigned fl = inbox ? a.flags[c] : 0u;
                            tissue = fl & FLAG_SELF;
                            if (!(fl & 1)) xm = v0;
                            if (!(fl & 2)) xp = v0;
                            if (!(fl & 0x10)) ym = v0;
                            if (!(fl & 0x20)) yp = v0;
                            if (!(fl & 0x100)) zm = v0;
                            if (!(fl & 0x200)) zp = v0;
                        } else {
                            if ((FACES & 1) && xlo) xm = v0;
                            if ((FACES & 1) && xhi) xp = v0;
                            if ((FACES & 2) && (yface >> k & 1)) ym = v0;
                            if ((FACES & 2) && (yface >> (k + 16) & 1)) yp = v0;
                            if ((FACES & 4) && zlo) zm = v0;
                            if ((FACES & 4) && zhi) zp = v0;
                        }
                        // the naive kernel's expression and order (interior_part,
                        // axis_part, centre_term; y's coefficient is 0 where ny = 1:
                        // kernel_coef)
                        T diff = first_term(coef[0], xm + xp);
                        diff = next_term(diff, coef[1], ym + yp);
                        if (!(FACES & 4) || nz > 1) diff = next_term(diff, coef[2], zm + zp);
                        diff = centre_term<T, 2>(diff, coef, v0);
                        if (!MASKED || tissue) {
                            if constexpr (LABELS) params_of_set(a, inbox ? a.plabel[c] : 0, p);
                            // no stimulus is -0, not 0: x + -0 is x for every x, so the
                            // compiler drops the model's addition of the current
                            M::step(y, diff, STIM && inbox ? a.istim[c] : (T)-0.0, a.dt, p);
                        }
                        if (l < K) {
                            ring[od + o] = y[VI];
                            nfresh[k] = y[VI];
#pragma unroll
                            for (int v = 0, q = 0; v < NS; v++)
                                if (v != VI) ncarry[k][q++] = y[v];
                        } else if (f & 16) {
                            check_finite<NS>(y, c, a.step0 + K, a.bad);
#pragma unroll
                            for (int v = 0; v < NS; v++) a.out[v][c] = y[v];
                            // V before the step read again from the ring (which still
                            // holds it): v0 kept live through the step made ptxas spill
                            // in the K = 2 kernel and the ensemble's (item 69)
                            if constexpr (REST) bits |= rest_active_bits(y[VI], *(volatile T *)&ring[c0]);
                        }
                    }
                };
                using yes = std::true_type;
                using no = std::false_type;
                using all_faces = std::integral_constant<int, 7>;
                if constexpr (LABELS) {
                    if (a.istim) cells(yes{}, all_faces{});
                    else cells(no{}, all_faces{});
                } else if (a.istim) cells(yes{}, all_faces{});
                else if constexpr (MASKED) cells(no{}, all_faces{});
                else if constexpr (sizeof(T) > 4) {
                    // fp64 (512 threads, 128 registers) keeps the x and z
                    // selects in every cell and takes no vote: with the votes
                    // and variants below ptxas spilled there, where it had
                    // not, and the step ran 50% slower (item 32)
                    if (yface) cells(no{}, all_faces{});
                    else cells(no{}, std::integral_constant<int, 5>{});
                } else if (zlo || zhi || warp_faces == 3u) cells(no{}, all_faces{});
                else if (warp_faces == 1u) cells(no{}, std::integral_constant<int, 1>{});
                else if (warp_faces == 2u) cells(no{}, std::integral_constant<int, 2>{});
                else cells(no{}, std::integral_constant<int, 0>{});   // the common case: no stimulus, no face
                if (REST && l == K) rest_note_plane(bits, pz - z0, rest_flags);
            }
            // level l has read level l-1's other states of plane pz: their
            // place takes plane pz + 1 (level 1: the input's, whose load the
            // levels above and the next iteration's start hide)
            if (l == 1) {
                // AS: plane z + 2 takes the slot of plane z - 2, whose last
                // reader was this thread's level 1 above (as its cells' z -
                // 1 neighbours; as a centre plane, the block's level 1 of the
                // previous iteration, before the barrier this thread passed)
                if constexpr (AS) {
                    if (z + 2 <= zlast) load_v(z + 2);
                    copy_commit();
                }
                if (z >= zo0 && z < zo1) {
#pragma unroll
                    for (int k = 0; k < CPT; k++) {
                        if (!((unsigned)(info >> (5 * k)) & 7)) continue;
                        const size_t co = (size_t)z * sz + col0 + (size_t)k * rstride;
#pragma unroll
                        for (int v = 0, q = 0; v < NS; v++)
                            if (v != VI) oq[0][k][q++] = a.in[v][co];
                    }
                }
            } else {
#pragma unroll
                for (int k = 0; k < CPT; k++)
#pragma unroll
                    for (int q = 0; q < NO; q++) oq[l - 1][k][q] = carry[k][q];
            }
            if (l < K) {
#pragma unroll
                for (int k = 0; k < CPT; k++) {
                    fresh[k] = nfresh[k];
#pragma unroll
                    for (int q = 0; q < NO; q++) carry[k][q] = ncarry[k][q];
                }
            }
        }
        // plane z + 1 takes the slot of plane z - 2
        const int s2 = sl[2];
        sl[2] = sl[1];
        sl[1] = sl[0];
        sl[0] = s2;
    }
    if constexpr (AS) copy_wait<0>();   // no copy may land after the block has left
    if (g.sig && (int)blockIdx.z < g.nf) tplane_signal_face(g.sig, g.flo && blockIdx.z == 0 ? 0 : 1);
    if constexpr (REST) {
        rest_record(g.rest, g.rest_seq, rest_sm, g.stamp_out, a.step0 + K);
        // a launch that skips planes brings the K planes on each side of
        // the stepped ones to its output's step, in the first row of blocks
        // and in the row of the last stepped plane: the next launch steps no
        // plane beyond them (cuda/rest_region.cuh)
        if (g.rest_use) {
            const int lo = rest_sm[0], hi = rest_sm[1];
            const int zc = (hi - lo + (int)gridDim.z - 1) / (int)gridDim.z, row = (int)blockIdx.z;
            const int x0 = (int)blockIdx.x * g.cx, y0 = (int)blockIdx.y * g.cy;   // the tile's written cells
            const int c0 = max(x0, max(0, g.ox0)), c1 = max(c0, min(x0 + g.cx, min(nx, g.ox1)));
            const int r0 = max(y0, max(0, g.oy0)), r1 = max(r0, min(y0 + g.cy, min(ny, g.oy1)));
            const long long to = a.step0 + K;
            if (row == 0)
                rest_margin<M, T, FOLD>(a, g.stamp_in, g.stamp_out, max(g.zb, lo - K), lo, to, c0, c1, r0, r1);
            if (row == (hi - 1 - lo) / zc)
                rest_margin<M, T, FOLD>(a, g.stamp_in, g.stamp_out, hi, min(g.ze, hi + K), to, c0, c1, r0, r1);
        }
    }
}

// Resting tissue (cuda/rest_region.cuh): every plane z of the state `in`
// whose stamp is below step0 brought from step stamp[z] to step0 by stepping
// its cells' other states alone (V is quiet there and keeps its value); the caller then
// sets those stamps (rest_region.cu). The blocks take the planes' parts (of
// at most 8,192 cells, 32 a thread) in turn, and pass over the planes that
// are up to date at the cost of reading their stamp.
template <class M, class T, bool FOLD>
__global__ void __launch_bounds__(256) k_rest_settle(const step_args<M, T> a, const long long *stamp, int parts)
{
    T p[M::nparam];
    model_params<M, T, FOLD>(a, p);
    const int sz = a.n[0] * a.n[1], per = (sz + parts - 1) / parts;
    for (int w = blockIdx.x; w < a.n[2] * parts; w += gridDim.x) {
        const int z = w / parts, c0 = (w % parts) * per, c1 = min(sz, c0 + per);
        const long long owed = a.step0 - __ldcg(stamp + z);
        if (owed <= 0) continue;
        for (int c = c0 + (int)threadIdx.x; c < c1; c += blockDim.x)
            rest_catch_up<M, T>(a.in, a.in, (size_t)z * sz + c, owed, a.dt, p);
    }
}

template <class M, class T, bool FOLD>
void launch_rest_settle(const launch_ctx &c)
{
    const int sz = c.n[0] * c.n[1], parts = (sz + 8191) / 8192;
    const int grid = (int)std::min<long>((long)c.n[2] * parts, blocks_wanted(256));
    k_rest_settle<M, T, FOLD><<<grid, 256, 0, c.stream>>>(make_args<M, T>(c), c.rest_stamp_in, parts);
}

// Shared memory of a block: the barrier, K rings of 3 planes of W x TY cells
// (the last of 4, and level 0's too with tplane_async), and a guard of a row
// and a cell at each end for the neighbour reads of edge cells (whose values
// those cells' selects discard).
size_t smem_bytes(int W, int TY, int K, size_t esize)
{
    static_assert(RING == 3, "tplane_planes counts rings of 3 planes");
    const size_t planes = tplane_planes(K, (int)esize);
    return BAR_BYTES + (planes * W * TY + 2 * (size_t)(W + 1)) * esize;
}

struct tplane_launch {
    static constexpr bool folds = true;
    static constexpr int max_states = MARCHING_MAX_STATES;
    static constexpr bool members = true;   // run_members: an ensemble whose members' D differ
    template <int K, class M, class T, bool MASKED, bool FOLD, bool LABELS, bool MC>
    static void go(const launch_ctx &c)
    {
        if (c.bx * c.by == 1024) go_nt<K, M, T, MASKED, FOLD, LABELS, 1024, MC>(c);
        else if (c.bx * c.by == 512) go_nt<K, M, T, MASKED, FOLD, LABELS, 512, MC>(c);
        else go_nt<K, M, T, MASKED, FOLD, LABELS, 0, MC>(c);
    }
    // the kernel that tracks resting tissue where the launch does
    template <int K, class M, class T, bool MASKED, bool FOLD, bool LABELS, int NT, bool MC>
    static void go_nt(const launch_ctx &c)
    {
        if constexpr (tplane_tracks<M, T, MASKED, LABELS>()) {
            if (c.rest) return go_track<K, M, T, MASKED, FOLD, LABELS, NT, MC, true>(c);
        }
        go_track<K, M, T, MASKED, FOLD, LABELS, NT, MC, false>(c);
    }
    template <int K, class M, class T, bool MASKED, bool FOLD, bool LABELS, int NT, bool MC, bool TRACK>
    static void go_track(const launch_ctx &c)
    {
        constexpr int CPT = tplane_cells_per_thread(M::nstate, (int)sizeof(T), K, NT ? NT : 1024);
        tplane_geom g;
        g.W = c.bx;
        g.RP = c.by;
        g.TY = CPT * g.RP;
        g.hx = c.n[0] <= g.W ? 0 : K;
        g.hy = c.n[1] <= g.TY ? 0 : K;
        g.cx = g.W - 2 * g.hx;
        g.cy = g.TY - 2 * g.hy;
        const long tiles_x = (c.n[0] + g.cx - 1) / g.cx, tiles_y = (c.n[1] + g.cy - 1) / g.cy;
        const size_t smem = smem_bytes(g.W, g.TY, K, sizeof(T));
        auto kernel = k_tplane<M, T, MASKED, FOLD, LABELS, K, CPT, NT, MC, TRACK>;
        // per kernel: the opt-in above 48 KB of shared memory, once; the
        // blocks that fit an SM, again when the block's shape changes
        static int per_sm = 0, sms = 0, shape_threads = 0;
        static size_t shape_smem = 0;
        if (!sms) {
            cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem_limit());
            int dev = 0;
            cudaGetDevice(&dev);
            cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
        }
        if (shape_threads != g.W * g.RP || shape_smem != smem) {
            cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, g.W * g.RP, smem);
            per_sm = std::max(per_sm, 1);
            shape_threads = g.W * g.RP;
            shape_smem = smem;
        }
        g.zb = c.lo[2];
        g.ze = c.hi[2];
        g.ox0 = c.lo[0];
        g.ox1 = c.hi[0];
        g.oy0 = c.lo[1];
        g.oy1 = c.hi[1];
        g.sig = c.face_signal;
        g.flo = g.sig && (c.faces & 1);
        g.nf = g.sig ? g.flo + ((c.faces & 2) ? 1 : 0) : 0;
        g.fw = c.face_width;
        g.rest = c.rest;
        g.rest_seq = c.rest_seq;
        g.rest_use = c.rest_use;
        g.stamp_in = c.rest_stamp_in;
        g.stamp_out = c.rest_stamp_out;
        dim3 grid(tiles_x, tiles_y, plan_chunks(g, tiles_x * tiles_y, (long)sms * per_sm, K));
        launch_following(kernel, grid, dim3(g.W * g.RP), smem, c.stream, c.follow && !g.sig, make_args<M, T>(c), g);
    }
    // the steps per kernel the launch asks for, with (MC) or without the
    // coefficients per layer of an ensemble
    template <class M, class T, int ORDER, bool MASKED, bool FOLD, bool LABELS, bool MC>
    static void by_steps(const launch_ctx &c)
    {
        if constexpr (ORDER == 2) {   // cardiac.simulation refuses fourth order for this layout
            switch (c.tsteps) {
            case 1: go<1, M, T, MASKED, FOLD, LABELS, MC>(c); break;
            case 2: go<2, M, T, MASKED, FOLD, LABELS, MC>(c); break;
            default: go<3, M, T, MASKED, FOLD, LABELS, MC>(c); break;
            }
        }
    }
    // parameter sets only in the general kernels (the backend folds none then)
    template <class M, class T, int ORDER, bool MASKED, bool FOLD, bool MC>
    static void by_labels(const launch_ctx &c)
    {
        if constexpr (!FOLD) {
            if (c.plabel) return by_steps<M, T, ORDER, MASKED, FOLD, true, MC>(c);
        }
        by_steps<M, T, ORDER, MASKED, FOLD, false, MC>(c);
    }
    // or, with rest_settle, resting tissue's skipped planes brought up to
    // date (the models and precision whose launches skip them:
    // cuda/rest_region.cu)
    template <class M, class T, int ORDER, bool MASKED, bool FOLD, bool MC>
    static void step_or_settle(const launch_ctx &c)
    {
        if (!c.rest_settle) return by_labels<M, T, ORDER, MASKED, FOLD, MC>(c);
        if constexpr (tplane_tracks<M, T, MASKED, false>() && ORDER == 2)
            launch_rest_settle<M, T, FOLD>(c);
    }
    template <class M, class T, int ORDER, bool MASKED, bool FOLD>
    static void run(const launch_ctx &c) { step_or_settle<M, T, ORDER, MASKED, FOLD, false>(c); }
    template <class M, class T, int ORDER, bool MASKED, bool FOLD>
    static void run_members(const launch_ctx &c) { step_or_settle<M, T, ORDER, MASKED, FOLD, true>(c); }
};

} // namespace

#endif
