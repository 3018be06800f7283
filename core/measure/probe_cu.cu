// Probes on the GPU (the GPU half of core/measure/probe.c): a probe's cells
// and a buffer of samples not yet copied live in GPU memory; each sample is a
// gather queued on the compute stream in order with the steps, and the rows
// reach the probe's host memory at the next sync (probe_flush), or when the
// buffer is full. sample_cells_cu gathers one sample now.
#include <algorithm>
#include <vector>
#include "cuda_check.h"
#include "launch.h"
#include "sim.h"
#include "state_view.h"

namespace {
struct probe_dev {
    size_t *cells;          // the probe's local cell indices; (size_t)-1 marks cells other ranks own
    float *rows;            // samples not yet copied to the host
    size_t cap, pending;
};
}

static probe_dev *dev_of(sim *s, const state_view *v, probe *p)
{
    if (p->dev) return (probe_dev *)p->dev;
    probe_dev *pd = new probe_dev{nullptr, nullptr, 4096, 0};
    std::vector<size_t> cells(p->lcells, p->lcells + p->ncells);
    cudaStream_t st = (cudaStream_t)v->stream;
    if (!CU(s, cudaMalloc(&pd->cells, std::max<size_t>(1, p->ncells) * sizeof(size_t))) ||
        !CU(s, cudaMemcpyAsync(pd->cells, cells.data(), p->ncells * sizeof(size_t), cudaMemcpyHostToDevice, st)) ||
        !CU(s, cudaStreamSynchronize(st)) ||
        !CU(s, cudaMalloc(&pd->rows, pd->cap * p->nvars * std::max<size_t>(1, p->ncells) * sizeof(float)))) {
        cudaFree(pd->cells);
        delete pd;
        return nullptr;
    }
    p->dev = pd;
    return pd;
}

extern "C" void probe_flush_cu(sim *s, const state_view *v, probe *p)
{
    probe_dev *pd = (probe_dev *)p->dev;
    if (!pd || !pd->pending) return;
    const size_t row = (size_t)p->nvars * p->ncells;
    cudaStream_t st = (cudaStream_t)v->stream;
    CU(s, cudaMemcpyAsync(probe_row(p, p->nready), pd->rows, pd->pending * row * sizeof(float), cudaMemcpyDeviceToHost, st));
    CU(s, cudaStreamSynchronize(st));
    p->nready += pd->pending;
    pd->pending = 0;
}

// Queues the gather of one sample into the device buffer.
extern "C" void probe_record_cu(sim *s, const state_view *v, probe *p, size_t row)
{
    probe_dev *pd = dev_of(s, v, p);
    if (!pd) return;
    if (pd->pending == pd->cap) probe_flush_cu(s, v, p);
    if (row != p->nready + pd->pending) { sim_fail(s, "probe '%s': samples out of order", p->name); return; }
    const store_map &m = *(const store_map *)v->store;
    float *dst = pd->rows + pd->pending * p->nvars * p->ncells;
    for (int k = 0; k < p->nvars; k++) {
        const int var = p->vars[k];
        gather_cells(m, v->fp64[var], v->var[var], pd->cells, p->ncells, dst + k * p->ncells, (float)v->rest[var],
                     (cudaStream_t)v->stream);
    }
    pd->pending++;
    CU(s, cudaGetLastError());
}

extern "C" void probe_free_cu(probe *p)
{
    probe_dev *pd = (probe_dev *)p->dev;
    cudaFree(pd->cells);
    cudaFree(pd->rows);
    delete pd;
    p->dev = nullptr;
}

// Stream-ordered allocations: a sample is small, and the pool makes them cheap.
extern "C" void sample_cells_cu(sim *s, const state_view *v, int var, const size_t *cells, size_t n, float *dst)
{
    if (!n) return;
    cudaStream_t st = (cudaStream_t)v->stream;
    size_t *dcells = nullptr;
    float *dout = nullptr;
    if (!CU(s, cudaMallocAsync(&dcells, n * sizeof(size_t), st)) || !CU(s, cudaMallocAsync(&dout, n * sizeof(float), st))) {
        if (dcells) cudaFreeAsync(dcells, st);
        return;
    }
    CU(s, cudaMemcpyAsync(dcells, cells, n * sizeof(size_t), cudaMemcpyHostToDevice, st));
    gather_cells(*(const store_map *)v->store, v->fp64[var], v->var[var], dcells, n, dout, (float)v->rest[var], st);
    CU(s, cudaMemcpyAsync(dst, dout, n * sizeof(float), cudaMemcpyDeviceToHost, st));
    cudaFreeAsync(dcells, st);
    cudaFreeAsync(dout, st);
    CU(s, cudaStreamSynchronize(st));
}
