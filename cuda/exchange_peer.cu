// The copy-engine way of the halo exchange (cuda/exchange_peer.h).
#include <cuda.h>
#include <unistd.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include "exchange_peer.h"
#include "halo.h"
#include "par.h"

namespace {

// The two stream memory operations, taken from the driver at run time so
// that the program links no driver library (it starts without a GPU). The
// counters are 32-bit: the driver's "greater or equal" compares the
// difference as signed, so they may wrap.
typedef CUresult (*mem_op_fn)(CUstream, CUdeviceptr, cuuint32_t, unsigned);

// What a rank tells every other (par_allgather): where it runs, the IPC
// handles of both arrays of every exchanged field and of its counters, and
// where its receiving faces lie and how long they are.
struct peer_record {
    char host[64];
    int fail;                                       // 1: this rank cannot take the peer way (why: its own message)
    cudaIpcMemHandle_t field[2][MODEL_MAX_STATE];
    cudaIpcMemHandle_t counters;
    size_t recv_offset[2], recv_count[2];           // values, recv[d] along the split axis
};

// The split axis: the one axis with more than one rank, or -1 where there
// is none or more than one.
int split_axis(const decomp *dc)
{
    int axis = -1;
    for (int a = 0; a < 3; a++)
        if (dc->dims[a] > 1) {
            if (axis >= 0) return -1;
            axis = a;
        }
    return axis;
}

} // namespace

struct peer_exchange {
    int axis = -1, nfields = 0;
    size_t esize = 4;
    void *mine[2][MODEL_MAX_STATE] = {};            // this rank's arrays a and b of every field
    halo_face send[2];                              // this rank's sending faces, per direction d
    struct neighbour {                              // the rank nbr[axis][d], which receives into its recv[d]
        int rank = -1;
        void *field[2][MODEL_MAX_STATE] = {};       // its arrays, mapped here
        unsigned *counters = nullptr;               // its counters, mapped here
        size_t recv_offset = 0;
    } to[2];
    bool from[2] = {};                              // a rank sends into this rank's recv[d]
    unsigned *counters = nullptr;                   // device: [d] = arrivals into recv[d] (from nbr[axis][1 - d]),
                                                    //   [2] a word to try the memory operations on
    unsigned seq = 0;                               // exchanges so far (the same on every rank)
    mem_op_fn wait = nullptr, write = nullptr;
};

static bool entry_point(const char *name, void **fn)
{
    cudaDriverEntryPointQueryResult q;
#if CUDART_VERSION >= 12050
    const cudaError_t e = cudaGetDriverEntryPointByVersion(name, fn, 12000, cudaEnableDefault, &q);
#else
    const cudaError_t e = cudaGetDriverEntryPoint(name, fn, cudaEnableDefault, &q);
#endif
    return e == cudaSuccess && q == cudaDriverEntryPointSuccess && *fn;
}

// The driver's stream memory operations, tried once on a stream of their
// own: a write and a wait on a device word.
static bool driver_ops(peer_exchange *x, unsigned *word)
{
    void *w = nullptr, *r = nullptr;
    if (!entry_point("cuStreamWaitValue32", &w) || !entry_point("cuStreamWriteValue32", &r)) return false;
    x->wait = (mem_op_fn)w;
    x->write = (mem_op_fn)r;
    cudaStream_t st;
    if (cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking) != cudaSuccess) return false;
    const bool ok = x->write((CUstream)st, (CUdeviceptr)word, 7, CU_STREAM_WRITE_VALUE_DEFAULT) == CUDA_SUCCESS &&
                    x->wait((CUstream)st, (CUdeviceptr)word, 7, CU_STREAM_WAIT_VALUE_GEQ) == CUDA_SUCCESS &&
                    x->write((CUstream)st, (CUdeviceptr)word, 0, CU_STREAM_WRITE_VALUE_DEFAULT) == CUDA_SUCCESS &&
                    cudaStreamSynchronize(st) == cudaSuccess;
    cudaStreamDestroy(st);
    return ok;
}

// This rank's record and the state of x that needs no other rank: the
// faces, the counters, the handles. On failure, the reason in why.
static bool prepare(peer_exchange *x, sim *s, const store_map &m, int nfields, void *const *a, void *const *b,
                    bool force, peer_record *me, char *why, size_t whylen)
{
    const decomp *dc = &s->dc;
    gethostname(me->host, sizeof me->host - 1);
    x->axis = split_axis(dc);
    x->nfields = nfields;
    x->esize = s->fp64 ? 8 : 4;
    if (x->axis < 0) { snprintf(why, whylen, "not split along exactly one axis"); return false; }
    if (s->mixed && nfields > 1) { snprintf(why, whylen, "fields of two precisions"); return false; }
    if (m.layout == LAYOUT_BLOCK) { snprintf(why, whylen, "blockDS faces are gathered, not one run of values"); return false; }
    halo_face recv[2];
    for (int d = 0; d < 2; d++) {
        halo_faces(s, x->axis, d, &x->send[d], &recv[d]);
        if (x->send[d].nblocks != 1 || recv[d].nblocks != 1) {
            snprintf(why, whylen, "the faces along the split axis are not one run of values");
            return false;
        }
        me->recv_offset[d] = recv[d].offset;
        me->recv_count[d] = recv[d].blocklen;
        x->to[d].rank = dc->nbr[x->axis][d];
        x->from[d] = dc->nbr[x->axis][1 - d] >= 0;
    }
    int ngpu = 0;
    if (cudaGetDeviceCount(&ngpu) != cudaSuccess) ngpu = 0;
    if (!force && par_local_rank() >= ngpu) { snprintf(why, whylen, "ranks share a GPU"); return false; }
    // zeroed before any neighbour can write them (the setup ends collectively)
    if (cudaMalloc(&x->counters, 4 * sizeof(unsigned)) != cudaSuccess ||
        cudaMemset(x->counters, 0, 4 * sizeof(unsigned)) != cudaSuccess || cudaDeviceSynchronize() != cudaSuccess) {
        snprintf(why, whylen, "no device memory for the counters");
        return false;
    }
    if (!driver_ops(x, x->counters + 2)) { snprintf(why, whylen, "no stream memory operations"); return false; }
    for (int q = 0; q < nfields; q++) {
        x->mine[0][q] = a[q];
        x->mine[1][q] = b[q];
        for (int k = 0; k < 2; k++)
            if (cudaIpcGetMemHandle(&me->field[k][q], x->mine[k][q]) != cudaSuccess) {
                snprintf(why, whylen, "no IPC handle for a state array");
                return false;
            }
    }
    if (cudaIpcGetMemHandle(&me->counters, x->counters) != cudaSuccess) {
        snprintf(why, whylen, "no IPC handle for the counters");
        return false;
    }
    return true;
}

// Maps the neighbours' arrays (their records in all, rank after rank).
static bool map_neighbours(peer_exchange *x, const peer_record *all, const peer_record *me, char *why, size_t whylen)
{
    for (int d = 0; d < 2; d++) {
        peer_exchange::neighbour &nb = x->to[d];
        if (nb.rank < 0) continue;
        const peer_record &r = all[nb.rank];
        if (strcmp(r.host, me->host)) { snprintf(why, whylen, "a neighbour runs on another node"); return false; }
        if (r.recv_count[d] != x->send[d].blocklen) {
            snprintf(why, whylen, "a neighbour's face differs in size");
            return false;
        }
        nb.recv_offset = r.recv_offset[d];
        const unsigned flags = cudaIpcMemLazyEnablePeerAccess;
        void *c = nullptr;
        if (cudaIpcOpenMemHandle(&c, r.counters, flags) != cudaSuccess) {
            snprintf(why, whylen, "cannot map a neighbour's memory (no peer access)");
            return false;
        }
        nb.counters = (unsigned *)c;
        for (int q = 0; q < x->nfields; q++)
            for (int k = 0; k < 2; k++) {
                // a field with one array has the same handle twice: map it once
                if (k == 1 && !memcmp(&r.field[1][q], &r.field[0][q], sizeof r.field[0][q])) {
                    nb.field[1][q] = nb.field[0][q];
                    continue;
                }
                if (cudaIpcOpenMemHandle(&nb.field[k][q], r.field[k][q], flags) != cudaSuccess) {
                    snprintf(why, whylen, "cannot map a neighbour's state array");
                    return false;
                }
            }
    }
    return true;
}

static void unmap(peer_exchange *x)
{
    for (auto &nb : x->to) {
        for (int q = 0; q < x->nfields; q++) {
            if (nb.field[1][q] && nb.field[1][q] != nb.field[0][q]) cudaIpcCloseMemHandle(nb.field[1][q]);
            if (nb.field[0][q]) cudaIpcCloseMemHandle(nb.field[0][q]);
            nb.field[0][q] = nb.field[1][q] = nullptr;
        }
        if (nb.counters) cudaIpcCloseMemHandle(nb.counters);
        nb.counters = nullptr;
    }
    cudaGetLastError();
}

peer_exchange *peer_exchange_create(sim *s, const store_map &m, int nfields, void *const *a, void *const *b,
                                    bool force, char *why, size_t whylen)
{
    why[0] = 0;
    peer_exchange *x = new peer_exchange();
    peer_record me;
    memset(&me, 0, sizeof me);
    me.fail = !prepare(x, s, m, nfields, a, b, force, &me, why, whylen);
    size_t total = 0;
    peer_record *all = (peer_record *)par_allgather(&me, sizeof me, &total);
    int fail = !all;
    for (int r = 0; all && r < par_size(); r++) fail |= all[r].fail;
    if (!fail) fail = !map_neighbours(x, all, &me, why, whylen);
    free(all);
    par_max_ints(&fail, 1);   // every rank takes the peer way, or none
    if (fail) {
        if (!why[0]) snprintf(why, whylen, "another rank cannot");
        unmap(x);
        cudaFree(x->counters);
        delete x;
        cudaGetLastError();
        return nullptr;
    }
    return x;
}

// Which of the field's two arrays p is (the stepping swaps them in step on
// every rank, so the neighbour's current array has the same index).
static int array_index(const peer_exchange *x, int q, const void *p)
{
    return p == x->mine[0][q] ? 0 : 1;
}

void peer_exchange_send(peer_exchange *x, sim *s, void *const *fields, int n, cudaStream_t st, const unsigned *ready,
                        unsigned target)
{
    x->seq++;
    for (int d = 0; d < 2; d++) {
        const peer_exchange::neighbour &nb = x->to[d];
        if (nb.rank < 0) continue;
        if (ready && x->wait((CUstream)st, (CUdeviceptr)(ready + d), target, CU_STREAM_WAIT_VALUE_GEQ) != CUDA_SUCCESS)
            sim_fail(s, "halo exchange: waiting for the face to rank %d failed", nb.rank);
        const size_t bytes = x->send[d].blocklen * x->esize;
        for (int q = 0; q < n; q++) {
            const char *src = (const char *)fields[q] + x->send[d].offset * x->esize;
            char *dst = (char *)nb.field[array_index(x, q, fields[q])][q] + nb.recv_offset * x->esize;
            if (cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, st) != cudaSuccess)
                sim_fail(s, "halo exchange: copying a face to rank %d failed", nb.rank);
        }
        // the arrival, after the faces in stream order: the number written
        // into the neighbour's counter. Without the NO_MEMORY_BARRIER flag
        // the write is fenced: the faces' bytes are visible before it. (One
        // operation, where the count used to be written here and then copied
        // there, 4 bytes through the copy engine: about 2 us shorter a face,
        // docs/gpu-notebook.md item 25.)
        if (x->write((CUstream)st, (CUdeviceptr)(nb.counters + d), x->seq, CU_STREAM_WRITE_VALUE_DEFAULT) != CUDA_SUCCESS)
            sim_fail(s, "halo exchange: signalling rank %d failed", nb.rank);
    }
}

void peer_exchange_wait(peer_exchange *x, sim *s, cudaStream_t st)
{
    for (int d = 0; d < 2; d++)
        if (x->from[d] &&
            x->wait((CUstream)st, (CUdeviceptr)(x->counters + d), x->seq, CU_STREAM_WAIT_VALUE_GEQ) != CUDA_SUCCESS)
            sim_fail(s, "halo exchange: waiting for a neighbour's faces failed");
}

// every send is queued before any wait
void peer_exchange_run(peer_exchange *x, sim *s, void *const *fields, int n, cudaStream_t st)
{
    peer_exchange_send(x, s, fields, n, st);
    peer_exchange_wait(x, s, st);
}

void peer_exchange_free(peer_exchange *x)
{
    if (!x) return;
    cudaDeviceSynchronize();
    par_all_arrive(10.0);   // every rank's copies into the others are done before anyone unmaps or frees
    unmap(x);
    cudaFree(x->counters);
    delete x;
}
