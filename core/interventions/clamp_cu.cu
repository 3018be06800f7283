// Clamps on the GPU (the GPU half of core/interventions/clamp.c): the clamp's
// cells copied to the device once, and the value set there by one kernel
// queued on the compute stream between steps.
#include <algorithm>
#include "cuda_check.h"
#include "launch.h"
#include "sim.h"
#include "state_view.h"

extern "C" void clamp_apply_cu(sim *s, const state_view *v, clamp *c)
{
    cudaStream_t st = (cudaStream_t)v->stream;
    const size_t n = c->when.ncells;
    if (!c->dev_cells) {
        if (!CU(s, cudaMalloc(&c->dev_cells, std::max<size_t>(1, n) * sizeof(size_t)))) { c->dev_cells = nullptr; return; }
        // on the compute stream, so the kernel below sees the cells
        if (!CU(s, cudaMemcpyAsync(c->dev_cells, c->when.cells, n * sizeof(size_t), cudaMemcpyHostToDevice, st))) return;
    }
    set_cells(*(const store_map *)v->store, v->fp64[c->var], v->var[c->var], c->dev_cells, n, c->value, st);
    CU(s, cudaGetLastError());
}

extern "C" void clamp_free_cu(clamp *c)
{
    cudaFree(c->dev_cells);
    c->dev_cells = nullptr;
}
