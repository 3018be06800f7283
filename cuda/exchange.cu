// Halo exchange between GPUs (cuda/exchange.h).
#include <dlfcn.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include "exchange.h"
#include "exchange_peer.h"
#include "halo.h"
#include "par.h"

// The part of NCCL's C API used here, declared as in nccl.h (stable across
// NCCL 2.x), so that building needs no NCCL headers.
typedef struct ncclComm *ncclComm_t;
typedef struct { char internal[128]; } ncclUniqueId;
typedef int ncclResult_t;                     // 0 = ncclSuccess
enum { NCCL_FLOAT32 = 7, NCCL_FLOAT64 = 8 };  // ncclDataType_t

struct nccl_api {
    ncclResult_t (*get_unique_id)(ncclUniqueId *);
    ncclResult_t (*comm_init_rank)(ncclComm_t *, int, ncclUniqueId, int);
    ncclResult_t (*comm_destroy)(ncclComm_t);
    ncclResult_t (*send)(const void *, size_t, int, int, ncclComm_t, cudaStream_t);
    ncclResult_t (*recv)(void *, size_t, int, int, ncclComm_t, cudaStream_t);
    ncclResult_t (*group_start)();
    ncclResult_t (*group_end)();
    ncclResult_t (*get_version)(int *);
    const char *(*error_string)(ncclResult_t);
};

struct gpu_exchange {
    peer_exchange *peer;     // the copy-engine way (cuda/exchange_peer.h), or null
    bool nccl;
    nccl_api api;
    ncclComm_t comm;
    void *buf[2];            // device send and receive buffers of packed faces (NCCL way)
    size_t slot;             // values per field and direction in them
    char name[96];
};

static bool load_nccl(nccl_api *a)
{
    void *h = dlopen("libnccl.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!h) return false;
    const struct { void **fn; const char *sym; } syms[] = {
        {(void **)&a->get_unique_id, "ncclGetUniqueId"}, {(void **)&a->comm_init_rank, "ncclCommInitRank"},
        {(void **)&a->comm_destroy, "ncclCommDestroy"}, {(void **)&a->send, "ncclSend"},
        {(void **)&a->recv, "ncclRecv"}, {(void **)&a->group_start, "ncclGroupStart"},
        {(void **)&a->group_end, "ncclGroupEnd"}, {(void **)&a->get_version, "ncclGetVersion"},
        {(void **)&a->error_string, "ncclGetErrorString"}};
    for (const auto &s : syms)
        if (!(*s.fn = dlsym(h, s.sym))) return false;
    return true;
}

// NCCL sends and receives a face in place where the state stores it as one
// run of values (row-major faces normal to the slowest axis: z slabs, and y
// on 2D grids); other faces go through a packed buffer.
static bool face_in_place(const store_map &m, const halo_face &f)
{
    return m.layout != LAYOUT_BLOCK && f.nblocks == 1;
}

// Largest face of the plan that needs packing, in values (0: none does).
static size_t largest_packed_face(const sim *s, const store_map &m)
{
    size_t big = 0;
    for (int a = 0; a < 3; a++)
        for (int d = 0; d < 2; d++) {
            halo_face f, g;
            halo_faces(s, a, d, &f, &g);
            if (s->dc.dims[a] > 1 && !face_in_place(m, f)) big = std::max(big, f.blocklen * f.nblocks);
        }
    return big;
}

// NCCL on every rank or on none: the way is chosen together.
// CARDIAC_EXCHANGE=host forces the host-staged way; CARDIAC_EXCHANGE=nccl
// takes NCCL even where ranks share a GPU, which NCCL refuses unless each
// rank poses as a host of its own (NCCL_HOSTID; tests/mpi_decomp.sh does so
// to run the NCCL way on one GPU, through NCCL's socket transport).
static bool start_nccl(gpu_exchange *x, sim *s, const store_map &m, int nfields)
{
    const char *want = getenv("CARDIAC_EXCHANGE");
    const bool force = want && !strcmp(want, "nccl");
    // NCCL needs a GPU of its own per rank: with more ranks on a node than
    // GPUs (they share one, cuda/backend_cuda.cu) its setup hung on the H200s
    // (3 ranks on 2 GPUs, 2026-11-23), so such runs take the host-staged way.
    int ngpu = 0;
    if (cudaGetDeviceCount(&ngpu) != cudaSuccess) ngpu = 0;
    int fail = (want && !strcmp(want, "host")) || (!force && par_local_rank() >= ngpu) || !load_nccl(&x->api);
    par_max_ints(&fail, 1);
    if (fail) return false;
    setenv("NCCL_NVLS_ENABLE", "0", 0);                     // no NVLink multicast (shared machines)
    ncclUniqueId id;
    if (par_rank() == 0) x->api.get_unique_id(&id);
    par_bcast(&id, sizeof id);
    fail = x->api.comm_init_rank(&x->comm, par_size(), id, par_rank()) != 0;
    x->slot = largest_packed_face(s, m);
    const size_t bytes = 2 * nfields * x->slot * (s->fp64 ? 8 : 4);
    if (bytes) fail |= cudaMalloc(&x->buf[0], bytes) != cudaSuccess || cudaMalloc(&x->buf[1], bytes) != cudaSuccess;
    par_max_ints(&fail, 1);
    if (fail) {   // the host-staged way instead: nothing of this one kept
        cudaFree(x->buf[0]);
        cudaFree(x->buf[1]);
        x->buf[0] = x->buf[1] = nullptr;
        x->slot = 0;
        cudaGetLastError();
        return false;
    }
    int v = 0;
    x->api.get_version(&v);
    snprintf(x->name, sizeof x->name, "NCCL %d.%d.%d, device to device", v / 10000, v / 100 % 100, v % 100);
    return true;
}

gpu_exchange *gpu_exchange_create(sim *s, const store_map &m, int nfields, void *const *a, void *const *b, char *err,
                                  size_t errlen)
{
    // a misspelt way is an error, not the default taken in silence; every
    // rank decides together (the environment may differ between ranks)
    const char *want = getenv("CARDIAC_EXCHANGE");
    int bad = want && strcmp(want, "peer") && strcmp(want, "nccl") && strcmp(want, "host");
    par_max_ints(&bad, 1);
    if (bad) {
        if (want) snprintf(err, errlen, "CARDIAC_EXCHANGE=%s: unknown halo exchange (peer, nccl or host)", want);
        else snprintf(err, errlen, "CARDIAC_EXCHANGE: an unknown halo exchange on another rank (peer, nccl or host)");
        return nullptr;
    }
    gpu_exchange *x = new gpu_exchange();
    char why[96] = "";
    if (!want || !strcmp(want, "peer")) x->peer = peer_exchange_create(s, m, nfields, a, b, want != nullptr, why, sizeof why);
    if (x->peer) snprintf(x->name, sizeof x->name, "copy engines through CUDA IPC, device to device");
    else x->nccl = start_nccl(x, s, m, nfields);
    if (!x->peer && !x->nccl) snprintf(x->name, sizeof x->name, "host-staged (pinned buffers, MPI)");
    if (want && !strcmp(want, "peer") && !x->peer && par_rank() == 0)
        fprintf(stderr, "cardiac: CARDIAC_EXCHANGE=peer: not taken (%s)\n", why);
    int ngpu = 0;
    if (cudaGetDeviceCount(&ngpu) != cudaSuccess || ngpu < 1) ngpu = 1;
    int shared = par_local_rank() >= ngpu;                  // some node has more ranks than GPUs
    par_max_ints(&shared, 1);
    if (par_rank() == 0)
        fprintf(stderr, "cardiac: %d ranks, %s; halo exchange: %s\n", par_size(),
                shared ? "more ranks than GPUs on a node, so some ranks share a GPU" : "one GPU each", x->name);
    return x;
}

const char *gpu_exchange_name(const gpu_exchange *x) { return x->name; }

peer_exchange *gpu_exchange_peer(gpu_exchange *x) { return x ? x->peer : nullptr; }

// A face between the state and a contiguous device buffer: a strided 2D
// copy of row-major state, or the blockDS map's gather and scatter.
static void face_copy_device(void *field, const store_map &m, const sim *s, int var, const halo_face &f, void *buf,
                             bool to_buf, cudaStream_t st)
{
    const size_t esize = s->fp64 ? 8 : 4;
    if (m.layout == LAYOUT_BLOCK) {
        if (to_buf) face_pack(m, s->fp64, field, f, buf, s->m.rest[var], st);
        else face_unpack(m, s->fp64, buf, f, field, st);
        return;
    }
    char *dev = (char *)field + f.offset * esize;
    const size_t w = f.blocklen * esize, pitch = (f.nblocks > 1 ? f.pitch : f.blocklen) * esize;
    if (to_buf) cudaMemcpy2DAsync(buf, w, dev, pitch, w, f.nblocks, cudaMemcpyDeviceToDevice, st);
    else cudaMemcpy2DAsync(dev, pitch, buf, w, w, f.nblocks, cudaMemcpyDeviceToDevice, st);
}

// Axis by axis (the faces of later axes carry the earlier ones' ghosts);
// per axis one NCCL group for both directions and every field, so that their
// transfers overlap and the group's launch cost is paid once.
void gpu_exchange_run(gpu_exchange *x, sim *s, const int *vars, void *const *fields, int n, const store_map &m,
                      cudaStream_t st)
{
    if (x->peer) { peer_exchange_run(x->peer, s, fields, n, st); return; }
    if (!x->nccl) { halo_exchange(s, vars, n); return; }
    const decomp *dc = &s->dc;
    const size_t esize = s->fp64 ? 8 : 4;
    const int type = s->fp64 ? NCCL_FLOAT64 : NCCL_FLOAT32;
    for (int a = 0; a < 3; a++) {
        if (dc->dims[a] < 2) continue;
        halo_face send[2], recv[2];
        for (int d = 0; d < 2; d++) halo_faces(s, a, d, &send[d], &recv[d]);
        // where each field's face is sent from and received into
        auto at = [&](int q, int d, bool out) -> char * {
            const halo_face &f = out ? send[d] : recv[d];
            if (face_in_place(m, f)) return (char *)fields[q] + f.offset * esize;
            return (char *)x->buf[out ? 0 : 1] + (2 * q + d) * x->slot * esize;
        };
        for (int q = 0; q < n; q++)
            for (int d = 0; d < 2; d++)
                if (dc->nbr[a][d] >= 0 && !face_in_place(m, send[d]))
                    face_copy_device(fields[q], m, s, vars[q], send[d], at(q, d, true), true, st);
        x->api.group_start();
        for (int q = 0; q < n; q++)
            for (int d = 0; d < 2; d++) {
                const int to = dc->nbr[a][d], from = dc->nbr[a][1 - d];
                const size_t count = send[d].blocklen * send[d].nblocks;   // the neighbour's send[d] alike
                if (to >= 0) x->api.send(at(q, d, true), count, type, to, x->comm, st);
                if (from >= 0) x->api.recv(at(q, d, false), count, type, from, x->comm, st);
            }
        ncclResult_t r = x->api.group_end();
        if (r != 0) sim_fail(s, "NCCL halo exchange failed: %s", x->api.error_string(r));
        for (int q = 0; q < n; q++)
            for (int d = 0; d < 2; d++)
                if (dc->nbr[a][1 - d] >= 0 && !face_in_place(m, recv[d]))
                    face_copy_device(fields[q], m, s, vars[q], recv[d], at(q, d, false), false, st);
    }
}

void gpu_exchange_free(gpu_exchange *x)
{
    if (!x) return;
    peer_exchange_free(x->peer);
    if (x->nccl) {
        x->api.comm_destroy(x->comm);
        if (x->slot) {
            cudaFree(x->buf[0]);
            cudaFree(x->buf[1]);
        }
    }
    delete x;
}
