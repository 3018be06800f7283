// Phase singularities on the GPU (cuda/singularity_kernels.h): one thread per
// cell of a rank's stored part, in rows along x. The phase and winding number are the CPU's
// functions (core/measure/phase_winding.h), in double precision, which the fast-math
// flags of this library leave alone.
#include "phase_winding.h"
#include "singularity_kernels.h"
#include "store_index.cuh"

namespace {

constexpr int THREADS = 256;

// Launches cover the part as rows of THREADS cells along x, one block row per
// (j, k): the thread's cell comes from the block and thread indices, with no
// divisions (64-bit ones cost the first version most of its time).
__device__ bool cell_of(const phase_part &p, int q[3], size_t *c)
{
    q[0] = blockIdx.x * THREADS + threadIdx.x;
    q[1] = blockIdx.y;
    q[2] = blockIdx.z;
    *c = ((size_t)q[2] * p.n[1] + q[1]) * p.n[0] + q[0];
    return q[0] < p.n[0];
}
__device__ bool owned(const phase_part &p, const int q[3])
{
    for (int d = 0; d < 3; d++)
        if (q[d] < p.own_lo[d] || q[d] >= p.own_hi[d]) return false;
    return true;
}

template <class T>
__global__ void k_sums(store_map m, const T *a, const T *b, const uint8_t *mask, phase_part p, double *part2)
{
    __shared__ double sa[THREADS / 32], sb[THREADS / 32];
    int q[3];
    size_t c;
    double x = 0, y = 0;
    if (cell_of(p, q, &c) && mask[c] && owned(p, q)) {
        const size_t i = stored_index(m, c);
        x = (float)a[i];
        y = (float)b[i];
    }
    for (int o = 16; o > 0; o /= 2) {
        x += __shfl_down_sync(0xffffffffu, x, o);
        y += __shfl_down_sync(0xffffffffu, y, o);
    }
    if (threadIdx.x % 32 == 0) { sa[threadIdx.x / 32] = x; sb[threadIdx.x / 32] = y; }
    __syncthreads();
    if (threadIdx.x == 0) {                       // a fixed order: the same sums every time
        double u = 0, v = 0;
        for (int w = 0; w < THREADS / 32; w++) { u += sa[w]; v += sb[w]; }
        const size_t b = ((size_t)blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
        part2[2 * b] = u;
        part2[2 * b + 1] = v;
    }
}

// One level of the partials' reduction: block b sums the pairs
// in[b THREADS .. (b + 1) THREADS) in a fixed order (a tree in shared memory)
// into out[b]; repeated until one pair is left.
__global__ void k_total(const double2 *in, unsigned n, double2 *out)
{
    __shared__ double sa[THREADS], sb[THREADS];
    const unsigned q = blockIdx.x * THREADS + threadIdx.x;
    const double2 v = q < n ? in[q] : double2{0, 0};
    sa[threadIdx.x] = v.x;
    sb[threadIdx.x] = v.y;
    __syncthreads();
    for (int h = THREADS / 2; h > 0; h /= 2) {
        if (threadIdx.x < h) { sa[threadIdx.x] += sa[threadIdx.x + h]; sb[threadIdx.x] += sb[threadIdx.x + h]; }
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = double2{sa[0], sb[0]};
}

template <class T>
__global__ void k_phase(store_map m, const T *a, const T *b, const uint8_t *mask, phase_part p, double a0, double b0,
                        float *th)
{
    int q[3];
    size_t c;
    if (!cell_of(p, q, &c)) return;
    if (!mask[c]) { th[c] = __int_as_float(0x7fc00000); return; }   // NaN
    const size_t i = stored_index(m, c);
    th[c] = cell_phase((float)a[i], (float)b[i], a0, b0);
}

// The plaquettes of normal o with lower corner at the thread's owned cell,
// corners counter-clockwise as in core/measure/singularity.c.
__global__ void k_plaquettes(phase_part p, const float *th, sing_face *out, size_t cap, unsigned long long *count)
{
    int q[3];
    size_t c;
    if (!cell_of(p, q, &c) || !owned(p, q)) return;
    const size_t stride[3] = {1, (size_t)p.n[0], (size_t)p.n[0] * p.n[1]};
    for (int o = p.dim == 3 ? 0 : 2; o < 3; o++) {
        const int u = (o + 1) % 3, v = (o + 2) % 3;
        if (q[u] + p.off[u] + 1 >= p.gn[u] || q[v] + p.off[v] + 1 >= p.gn[v] || q[u] + 1 >= p.n[u] ||
            q[v] + 1 >= p.n[v])
            continue;
        const float corner[4] = {th[c], th[c + stride[u]], th[c + stride[u] + stride[v]], th[c + stride[v]]};
        const int w = phase_winding(corner);
        if (!w) continue;
        const unsigned long long slot = atomicAdd(count, 1ull);
        if (slot >= cap) continue;
        const size_t g = ((size_t)(q[2] + p.off[2]) * p.gn[1] + (q[1] + p.off[1])) * p.gn[0] + (q[0] + p.off[0]);
        out[slot].id = (uint64_t)o * p.gcells + g;
        out[slot].charge = w;
    }
}

dim3 rows(const phase_part &p) { return dim3((p.n[0] + THREADS - 1) / THREADS, p.n[1], p.n[2]); }

}  // namespace

static unsigned phase_sum_blocks(const phase_part &p)
{
    const dim3 g = rows(p);
    return g.x * g.y * g.z;
}

size_t phase_sum_room(const phase_part &p)
{
    const size_t nb = phase_sum_blocks(p);
    return 2 * (nb + (nb + THREADS - 1) / THREADS);
}

void phase_sums(const store_map &m, int fp64, const void *a, const void *b, const uint8_t *mask, const phase_part &p,
                double *part2, cudaStream_t st)
{
    if (fp64) k_sums<<<rows(p), THREADS, 0, st>>>(m, (const double *)a, (const double *)b, mask, p, part2);
    else k_sums<<<rows(p), THREADS, 0, st>>>(m, (const float *)a, (const float *)b, mask, p, part2);
    // level by level between the partials (A) and the room after them (B);
    // the last level, one block, reads all before it writes the total to A[0]
    const unsigned nb = phase_sum_blocks(p);
    double2 *A = (double2 *)part2, *B = A + nb, *src = A;
    unsigned n = nb;
    while (n > THREADS) {
        const unsigned blocks = (n + THREADS - 1) / THREADS;
        double2 *dst = src == A ? B : A;
        k_total<<<blocks, THREADS, 0, st>>>(src, n, dst);
        src = dst;
        n = blocks;
    }
    k_total<<<1, THREADS, 0, st>>>(src, n, A);
}

void phase_field(const store_map &m, int fp64, const void *a, const void *b, const uint8_t *mask, const phase_part &p,
                 double a0, double b0, float *th, cudaStream_t st)
{
    if (fp64) k_phase<<<rows(p), THREADS, 0, st>>>(m, (const double *)a, (const double *)b, mask, p, a0, b0, th);
    else k_phase<<<rows(p), THREADS, 0, st>>>(m, (const float *)a, (const float *)b, mask, p, a0, b0, th);
}

void singular_plaquettes(const phase_part &p, const float *th, sing_face *out, size_t cap,
                         unsigned long long *count, cudaStream_t st)
{
    cudaMemsetAsync(count, 0, sizeof *count, st);
    k_plaquettes<<<rows(p), THREADS, 0, st>>>(p, th, out, cap, count);
}
