// Halo exchange between the GPUs of a run split over MPI ranks (the plan of
// faces: core/parallel/halo.h). Three ways, chosen at run time and named in
// the run log by rank 0: where the neighbours share a node and the faces are
// runs of values (z slabs), the copy engines write them into the neighbours'
// memory (cuda/exchange_peer.h); else NCCL point-to-point sends between the
// GPUs' memories (NVLink or the network; libnccl.so.2 loaded with dlopen, so
// the program runs without it); else host-staged copies through pinned
// buffers and MPI (core/parallel/halo.c). CARDIAC_EXCHANGE=peer, nccl or
// host asks for one; any other value is an error at the simulation's creation.
#ifndef CARDIAC_CUDA_EXCHANGE_H
#define CARDIAC_CUDA_EXCHANGE_H
#include <cuda_runtime.h>
#include "launch.h"
#include "sim.h"

struct gpu_exchange;

// Sets up the exchange of a decomposed simulation whose state is stored in
// layout m, for up to nfields fields at once, field q held in the device
// arrays a[q] and b[q] (the state and its second buffer; the same array
// twice where it has one) (collective: every rank calls it). NULL with a
// message in err on failure.
gpu_exchange *gpu_exchange_create(sim *s, const store_map &m, int nfields, void *const *a, void *const *b, char *err,
                                  size_t errlen);
// Queues on stream st the exchange of the ghost layers of n fields (state
// variables vars[q], device arrays fields[q] of the stored cells in layout m:
// row-major, or blockDS blocks). The host-staged way returns after the
// copies; the NCCL way returns at once.
void gpu_exchange_run(gpu_exchange *x, sim *s, const int *vars, void *const *fields, int n, const store_map &m,
                      cudaStream_t st);
const char *gpu_exchange_name(const gpu_exchange *x);
// The copy-engine way (cuda/exchange_peer.h) where x takes it, else null.
struct peer_exchange *gpu_exchange_peer(gpu_exchange *x);
void gpu_exchange_free(gpu_exchange *x);

#endif
