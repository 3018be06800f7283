// The copy-engine way of the halo exchange between GPUs of one node
// (cuda/exchange.h chooses it first): each rank maps its neighbours' state
// arrays into its own address space (CUDA IPC) and its copy engines write
// every face straight into the neighbour's ghost layers, then a counter of
// arrivals in the neighbour's memory; the neighbour's stream waits until the
// counter reaches the exchange's number (a stream memory operation). No
// kernel runs for the exchange, so it needs no SM: NCCL's send and receive
// kernels wait for SMs that the interior's blocks hold, and on small grids
// that put the exchange after the interior (docs/mpi.md).
//
// Why the ghost layers can be written in place without a second buffer: a
// rank writes the neighbour's current state array at exchange n after its
// own boundary kernels of step n, which ran after its wait for the
// neighbour's exchange n - 1, which the neighbour queued after its boundary
// kernels of step n - 1, the last reads of that array's ghost layers (the
// interior kernels read no ghost layer: they stay a ghost width inside the
// owned cells).
#ifndef CARDIAC_CUDA_EXCHANGE_PEER_H
#define CARDIAC_CUDA_EXCHANGE_PEER_H
#include <cuda_runtime.h>
#include "launch.h"
#include "sim.h"

struct peer_exchange;

// Collective. Sets up the peer way for nfields fields whose two device
// arrays are a[q] and b[q] (the state and its second buffer, swapped by the
// stepping; equal where a field is not double-buffered), or returns NULL on
// every rank where some rank cannot take it: a neighbour on another node, a
// split along more than one axis or along an axis whose faces are not one
// run of values (x or y slabs, blockDS), ranks sharing a GPU unless force
// is set, or no IPC or stream memory operations. why gets the first reason
// on this rank (empty when it could).
peer_exchange *peer_exchange_create(sim *s, const store_map &m, int nfields, void *const *a, void *const *b,
                                    bool force, char *why, size_t whylen);
// Queues on st the sends of an exchange of fields[q] (each one of a[q], b[q]
// given at creation): the faces to the neighbours, then their counters. With
// ready, the face sent in direction d (d = 0: the owned planes at the low
// face) first waits until ready[d] reaches target (a kernel counts it there).
void peer_exchange_send(peer_exchange *x, sim *s, void *const *fields, int n, cudaStream_t st,
                        const unsigned *ready = nullptr, unsigned target = 0);
// Queues on st the wait for this rank's arrivals of the exchange last sent.
void peer_exchange_wait(peer_exchange *x, sim *s, cudaStream_t st);
// Both on one stream.
void peer_exchange_run(peer_exchange *x, sim *s, void *const *fields, int n, cudaStream_t st);
// Collective: unmaps the neighbours' arrays once every rank's copies are done.
void peer_exchange_free(peer_exchange *x);

#endif
