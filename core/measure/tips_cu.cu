// Phase singularities on the GPU (the GPU half of core/measure/tips.c): the
// tissue sums that centre the phase, and the singular plaquettes of a rank's
// stored part, so that only their list crosses to the host. One thread per
// cell of the part, in rows along x. The phase and winding number are the
// CPU's functions (core/measure/phase_winding.h), in double precision, which
// the fast-math flags of this library leave alone.
#include <algorithm>
#include <cstdlib>
#include "cuda_check.h"
#include "launch.h"
#include "phase_winding.h"
#include "state_view.h"
#include "store_index.cuh"
#include "tips.h"

// What the GPU half keeps between calls (one per simulation, made on first
// use): the sums' partials, the phase field, the plaquettes found and their count.
struct tips_dev {
    double *part2;
    float *phase;
    sing_face *faces;
    size_t faces_cap;
    unsigned long long *count;
};

namespace {

// A rank's stored part: n cells per axis (row-major, x fastest; the grid's
// axes, not the kernel view's), the owned cells [own_lo, own_hi), its first
// cell's global index per axis (off), the whole grid's size (gn, gcells).
struct phase_part {
    int dim, n[3], own_lo[3], own_hi[3], off[3], gn[3];
    size_t gcells;
};

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

static size_t phase_sum_room(const phase_part &p)
{
    const size_t nb = phase_sum_blocks(p);
    return 2 * (nb + (nb + THREADS - 1) / THREADS);
}

static void phase_sums(const store_map &m, int fp64, const void *a, const void *b, const uint8_t *mask, const phase_part &p,
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

static void phase_field(const store_map &m, int fp64, const void *a, const void *b, const uint8_t *mask, const phase_part &p,
                 double a0, double b0, float *th, cudaStream_t st)
{
    if (fp64) k_phase<<<rows(p), THREADS, 0, st>>>(m, (const double *)a, (const double *)b, mask, p, a0, b0, th);
    else k_phase<<<rows(p), THREADS, 0, st>>>(m, (const float *)a, (const float *)b, mask, p, a0, b0, th);
}

static void singular_plaquettes(const phase_part &p, const float *th, sing_face *out, size_t cap,
                         unsigned long long *count, cudaStream_t st)
{
    cudaMemsetAsync(count, 0, sizeof *count, st);
    k_plaquettes<<<rows(p), THREADS, 0, st>>>(p, th, out, cap, count);
}

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

// The cache of s, made on first use; null after sim_fail.
static tips_dev *cache(sim *s, const state_view *v)
{
    if (s->tips_dev) return s->tips_dev;
    tips_dev *t = (tips_dev *)calloc(1, sizeof *t);
    if (!t) { sim_fail(s, "out of memory for the phase singularities"); return nullptr; }
    s->tips_dev = t;
    if (!CU(s, cudaMalloc(&t->part2, sizeof(double) * phase_sum_room(part_of(s)))) ||
        !CU(s, cudaMalloc(&t->phase, v->ncells * sizeof(float))) || !CU(s, cudaMalloc(&t->count, sizeof *t->count))) {
        tips_release_cu(s);
        return nullptr;
    }
    return t;
}

extern "C" void tips_sums_cu(sim *s, const state_view *v, int va, int vb, double sums[2])
{
    sums[0] = sums[1] = 0;
    tips_dev *t = cache(s, v);
    if (!t || !sim_states_alike(s, va, vb, 0, "phase singularities")) return;
    cudaStream_t st = (cudaStream_t)v->stream;
    phase_sums(*(const store_map *)v->store, v->fp64[va], v->var[va], v->var[vb], v->mask, part_of(s), t->part2, st);
    CU(s, cudaGetLastError());
    CU(s, cudaMemcpyAsync(sums, t->part2, 2 * sizeof(double), cudaMemcpyDeviceToHost, st));
    CU(s, cudaStreamSynchronize(st));
}

// The phase, then the plaquettes; a second pass when the first found more
// than the list had room for.
extern "C" long tips_faces_cu(sim *s, const state_view *v, int va, int vb, double a0, double b0, sing_face **out)
{
    *out = nullptr;
    tips_dev *t = cache(s, v);
    if (!t || !sim_states_alike(s, va, vb, 0, "phase singularities")) return -1;
    cudaStream_t st = (cudaStream_t)v->stream;
    const phase_part p = part_of(s);
    phase_field(*(const store_map *)v->store, v->fp64[va], v->var[va], v->var[vb], v->mask, p, a0, b0, t->phase, st);
    unsigned long long n = 0;
    for (int pass = 0; pass < 2; pass++) {
        if (n > t->faces_cap || !t->faces) {
            cudaFree(t->faces);
            t->faces_cap = std::max<size_t>(n, 65536);
            if (!CU(s, cudaMalloc(&t->faces, t->faces_cap * sizeof(sing_face)))) { t->faces = nullptr; t->faces_cap = 0; return -1; }
        }
        singular_plaquettes(p, t->phase, t->faces, t->faces_cap, t->count, st);
        CU(s, cudaGetLastError());
        CU(s, cudaMemcpyAsync(&n, t->count, sizeof n, cudaMemcpyDeviceToHost, st));
        if (!CU(s, cudaStreamSynchronize(st))) return -1;
        if (n <= t->faces_cap) break;
    }
    if (n == 0) return 0;
    *out = (sing_face *)malloc(n * sizeof(sing_face));
    if (!*out) { sim_fail(s, "out of memory for %llu phase singularities", n); return -1; }
    CU(s, cudaMemcpyAsync(*out, t->faces, n * sizeof(sing_face), cudaMemcpyDeviceToHost, st));
    if (!CU(s, cudaStreamSynchronize(st))) { free(*out); *out = nullptr; return -1; }
    return (long)n;
}

extern "C" void tips_release_cu(sim *s)
{
    tips_dev *t = s->tips_dev;
    if (!t) return;
    cudaFree(t->part2); cudaFree(t->phase); cudaFree(t->faces); cudaFree(t->count);
    free(t);
    s->tips_dev = nullptr;
}
