// Resting tissue in tplane's launches, device side (the host side, which
// decides when a launch may skip it and brings skipped planes up to date:
// cuda/rest_region.cu; the scheme: docs/gpu.md, "Resting tissue").
//
// For a model of CARDIAC_QUIET_V_MODELS (cuda/launch.h), a quiet cell, one
// whose V and whose neighbours' V are at most REST_QUIET_V in magnitude,
// takes its new V from V and its neighbours' alone, and its other states
// step as a single cell's with V = +0. So where V did not change in a
// step, in a cell and its neighbours, and is that small, it does not change
// in the next either, and a launch of K steps changes V nowhere farther
// than K planes from a plane where it changed in the launch before's last
// step or is larger: tissue at rest (V = +0) ahead of a wave, and tissue
// behind it where V has settled on a tiny value it keeps (in fp32, the
// decay of V's last step there rounds away). Each launch records, in a
// ring of four boxes on the device, the planes along z where a cell it
// wrote has V changed in its last step or above REST_QUIET_V (active
// planes); the launches after it step only the planes within K of their
// input's box (the launch before's) and of their output buffer's (the
// launch before that's: V there may be stale where it changed during the
// launch before). The planes left out keep V, which the output buffer holds
// as the input does, and an earlier step's other states, whose step each
// buffer records per plane (its stamps). A skipping launch brings the K
// planes next to the stepped ones into its output at its end (rest_margin),
// since the next launch may step them, and the host has all skipped planes
// brought forward now and then (k_rest_settle): by stepping their other
// states alone, the same operations in the same order as the full step's,
// so the results equal the unskipped run's to the bit. Their V needs
// nothing: it is the same at every step in between.
//
// A box is two maxima, so that zeros are an empty box: of FAR - z over the
// active planes (their first) and of z + 1 (past their last).
#ifndef CARDIAC_CUDA_REST_REGION_CUH
#define CARDIAC_CUDA_REST_REGION_CUH

constexpr int REST_FAR = 1 << 30;

// Nonzero where a cell the last level wrote keeps its plane active: V
// changed in the launch's last step (bits), or exceeds REST_QUIET_V in
// magnitude, or is NaN.
__device__ __forceinline__ unsigned rest_active_bits(float v, float before)
{
    return (__float_as_uint(v) ^ __float_as_uint(before)) | (unsigned)!(fabsf(v) <= REST_QUIET_V);
}

// The planes [x, y) of [zb, ze) that launch `seq` must step, K steps a
// launch: those within K planes of launch seq - 1's box (its input) and of
// launch seq - 2's (its output buffer, whose V may be stale where launch
// seq - 1 changed it: within K planes of that box). Read after the previous
// launch has finished (follow_previous_launch), around L1.
__device__ __forceinline__ int2 rest_active_planes(const int *box, unsigned seq, int K, int zb, int ze)
{
    const int *in = box + 2 * ((seq - 1u) & 3u), *out = box + 2 * ((seq - 2u) & 3u);
    const int in0 = __ldcg(in), in1 = __ldcg(in + 1), out0 = __ldcg(out), out1 = __ldcg(out + 1);
    int lo = ze, hi = zb;
    if (in1) { lo = min(lo, REST_FAR - in0 - K); hi = max(hi, in1 + K); }
    if (out1) { lo = min(lo, REST_FAR - out0 - K); hi = max(hi, out1 + K); }
    return make_int2(max(lo, zb), min(hi, ze));
}

// The block's shared memory for resting tissue (after its mbarrier): the
// launch's stepped planes [lo, hi), the block's chunk [z0, z1), then a byte
// a plane of the chunk, set where a cell the block wrote keeps it active
// (planes past the 256th of a chunk share the last byte, which makes the
// box only larger).
constexpr int REST_PLANES = 256, REST_SM_BYTES = 16 + REST_PLANES;

// After plane z (the chunk's i-th) that the last level wrote, `bits`: the
// thread's rest_active_bits or-ed. One predicated store, the same byte by every
// thread that has one: a vote of the warp there instead cost 5% of a 256^3
// step, and a register a thread for the planes made the kernel spill
// (docs/gpu-notebook.md, item 68).
__device__ __forceinline__ void rest_note_plane(unsigned bits, int i, unsigned char *flags)
{
    if (bits) flags[min(i, REST_PLANES - 1)] = 1;
}

// At the block's end, every thread of it here: the planes whose byte is set
// into launch seq's box, by the block's first warp (a ballot over the bytes'
// words), and the stamps of the chunk's planes, which the block wrote (its
// tile's cells of them), set to `to`.
__device__ __forceinline__ void rest_record(int *box, unsigned seq, const int *sm, long long *stamp, long long to)
{
    const int z0 = sm[2], z1 = sm[3];
    for (int z = z0 + (int)threadIdx.x; z < z1; z += (int)blockDim.x) stamp[z] = to;
    __syncthreads();
    if (threadIdx.x < 32) {
        static_assert(REST_PLANES == 256, "rest_record: 64 words of bytes, 2 a lane");
        const unsigned *words = (const unsigned *)(sm + 4);
        const unsigned a = __ballot_sync(~0u, words[threadIdx.x] != 0u);
        const unsigned b = __ballot_sync(~0u, words[32 + threadIdx.x] != 0u);
        if (threadIdx.x == 0 && (a | b)) {
            const unsigned char *flags = (const unsigned char *)words;
            const int wf = a ? __ffs(a) - 1 : 32 + __ffs(b) - 1, wl = b ? 63 - __clz(b) : 31 - __clz(a);
            int first = 4 * wf, last = 4 * wl + 3;
            while (!flags[first]) first++;
            while (!flags[last]) last--;
            int *bx = box + 2 * (seq & 3u);
            atomicMax(bx, REST_FAR - (z0 + first));
            atomicMax(bx + 1, last == REST_PLANES - 1 ? z1 : z0 + last + 1);
        }
    }
}

// Launch seq clears the box of launch seq + 1, which held launch seq - 3's
// and is read by no launch after seq - 1, and counts the plane-steps it
// steps (sim.stepped_share; one thread of the launch, after the launch
// before it has finished). The count follows the ring's 8 ints.
__device__ __forceinline__ void rest_clear_next(int *box, unsigned seq, int plane_steps)
{
    int *b = box + 2 * ((seq + 1u) & 3u);
    b[0] = 0;
    b[1] = 0;
    *(unsigned long long *)(box + 8) += (unsigned long long)plane_steps;
}

// Cell i of a skipped plane brought forward n steps, from the arrays
// `from` to `to` (the same for a settle): V is quiet and the same
// throughout, the other states step as the launches' cells do, which is as
// with V = +0 (CARDIAC_QUIET_V_MODELS), with no diffusion and no stimulus.
// V is set to +0 before each step and its new value is not used, so the
// compiler drops V's update and what only it reads (Karma: 3 operations a
// step); V itself is neither read nor written.
template <class M, class T>
__device__ __forceinline__ void rest_catch_up(T *const *from, T *const *to, size_t i, long long n, T dt, const T *p)
{
    constexpr int NS = M::nstate, VI = M::vindex;
    T y[NS];
#pragma unroll
    for (int v = 0; v < NS; v++)
        if (v != VI) y[v] = from[v][i];
    for (long long k = 0; k < n; k++) {
        y[VI] = (T)0;
        M::step(y, (T)0, (T)-0.0, dt, p);
    }
#pragma unroll
    for (int v = 0; v < NS; v++)
        if (v != VI) to[v][i] = y[v];
}

// The launch's margins (a launch that skips planes, at its end): the planes
// [zlo, zhi) next to the stepped ones, which the next launch may step, taken
// from the input (at their stamps) to the output at step `to`, cell by cell
// of the block's written cells (rows [r0, r1) and columns [c0, c1) of the
// plane, sz cells apart plane to plane, nx row to row); V stays as it is
// there and is not written (the output holds it already: the launch skipped
// these planes).
template <class M, class T, bool FOLD>
__device__ __forceinline__ void rest_margin(const step_args<M, T> &a, const long long *stamp_in, long long *stamp_out,
                                            int zlo, int zhi, long long to, int c0, int c1, int r0, int r1)
{
    T p[M::nparam];
    model_params<M, T, FOLD>(a, p);
    const int nx = a.n[0], w = c1 - c0, cells = w * (r1 - r0);
    for (int z = zlo; z < zhi; z++) {
        const long long n = to - __ldcg(stamp_in + z);
        for (int t = (int)threadIdx.x; t < cells; t += (int)blockDim.x)
            rest_catch_up<M, T>(a.in, a.out, (size_t)z * nx * a.n[1] + (size_t)(r0 + t / w) * nx + (c0 + t % w), n,
                                a.dt, p);
        if (threadIdx.x == 0) stamp_out[z] = to;
    }
}

#endif
