// Phase singularities on the GPU (cuda/singularity_kernels.h): one thread per
// cell of a rank's stored part. The phase and winding number are the CPU's
// functions (core/phase_winding.h), in double precision, which the fast-math
// flags of this library leave alone.
#include "phase_winding.h"
#include "singularity_kernels.h"
#include "store_index.cuh"

namespace {

constexpr int THREADS = 256;

__device__ bool owned(const phase_part &p, size_t c, int q[3])
{
    q[0] = (int)(c % p.n[0]);
    q[1] = (int)(c / p.n[0] % p.n[1]);
    q[2] = (int)(c / ((size_t)p.n[0] * p.n[1]));
    for (int d = 0; d < 3; d++)
        if (q[d] < p.own_lo[d] || q[d] >= p.own_hi[d]) return false;
    return true;
}

template <class T>
__global__ void k_sums(store_map m, const T *a, const T *b, const uint8_t *mask, phase_part p, double *part2)
{
    __shared__ double sa[THREADS / 32], sb[THREADS / 32];
    const size_t c = blockIdx.x * (size_t)THREADS + threadIdx.x;
    const size_t n = (size_t)p.n[0] * p.n[1] * p.n[2];
    double x = 0, y = 0;
    int q[3];
    if (c < n && mask[c] && owned(p, c, q)) {
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
        part2[2 * blockIdx.x] = u;
        part2[2 * blockIdx.x + 1] = v;
    }
}

template <class T>
__global__ void k_phase(store_map m, const T *a, const T *b, const uint8_t *mask, size_t n, double a0, double b0,
                        float *th)
{
    const size_t c = blockIdx.x * (size_t)THREADS + threadIdx.x;
    if (c >= n) return;
    if (!mask[c]) { th[c] = __int_as_float(0x7fc00000); return; }   // NaN
    const size_t i = stored_index(m, c);
    th[c] = cell_phase((float)a[i], (float)b[i], a0, b0);
}

// The plaquettes of normal o with lower corner at the thread's owned cell,
// corners counter-clockwise as in core/singularity.c.
__global__ void k_plaquettes(phase_part p, const float *th, sing_face *out, size_t cap, unsigned long long *count)
{
    const size_t c = blockIdx.x * (size_t)THREADS + threadIdx.x;
    const size_t n = (size_t)p.n[0] * p.n[1] * p.n[2];
    int q[3];
    if (c >= n || !owned(p, c, q)) return;
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

unsigned blocks_for(size_t n) { return (unsigned)((n + THREADS - 1) / THREADS); }
size_t cells(const phase_part &p) { return (size_t)p.n[0] * p.n[1] * p.n[2]; }

}  // namespace

unsigned phase_sum_blocks(size_t ncells) { return blocks_for(ncells); }

void phase_sums(const store_map &m, int fp64, const void *a, const void *b, const uint8_t *mask, const phase_part &p,
                double *part2, cudaStream_t st)
{
    const unsigned nb = blocks_for(cells(p));
    if (fp64) k_sums<<<nb, THREADS, 0, st>>>(m, (const double *)a, (const double *)b, mask, p, part2);
    else k_sums<<<nb, THREADS, 0, st>>>(m, (const float *)a, (const float *)b, mask, p, part2);
}

void phase_field(const store_map &m, int fp64, const void *a, const void *b, const uint8_t *mask, const phase_part &p,
                 double a0, double b0, float *th, cudaStream_t st)
{
    const size_t n = cells(p);
    if (fp64) k_phase<<<blocks_for(n), THREADS, 0, st>>>(m, (const double *)a, (const double *)b, mask, n, a0, b0, th);
    else k_phase<<<blocks_for(n), THREADS, 0, st>>>(m, (const float *)a, (const float *)b, mask, n, a0, b0, th);
}

void singular_plaquettes(const phase_part &p, const float *th, sing_face *out, size_t cap,
                         unsigned long long *count, cudaStream_t st)
{
    cudaMemsetAsync(count, 0, sizeof *count, st);
    k_plaquettes<<<blocks_for(cells(p)), THREADS, 0, st>>>(p, th, out, cap, count);
}
