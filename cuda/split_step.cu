// The overlapped stepping of a grid split over ranks (thesis 4.5): the
// layers next to the faces shared with other ranks are computed first on the
// `compute` stream, the interior on the `interior` stream meanwhile, and the
// ghost layers exchanged on `compute` while the interior finishes (docs/mpi.md).
#include <algorithm>
#include "backend_cuda_priv.h"
#include "exchange_peer.h"

// The owned cells of a decomposed grid as view boxes: the interior (owned,
// shrunk by the ghost width at every face shared with a rank) and the
// boundary slabs around it (thesis 4.5: computed first, so that their
// exchange overlaps the interior's computation).
static void split_boxes(const sim *s, cuda_data *cd)
{
    int n[3], axis_of[3], lo[3], hi[3], ilo[3], ihi[3];
    make_view(&s->lg, n, axis_of);
    for (int v = 0; v < 3; v++) {
        const int a = axis_of[v];
        lo[v] = a >= 0 ? s->own_lo[a] : 0;
        hi[v] = a >= 0 ? s->own_hi[a] : 1;
        ilo[v] = lo[v] + (a >= 0 && s->dc.nbr[a][0] >= 0 ? s->dc.ghost : 0);
        ihi[v] = hi[v] - (a >= 0 && s->dc.nbr[a][1] >= 0 ? s->dc.ghost : 0);
        cd->own[v] = lo[v];
        cd->own[3 + v] = hi[v];
    }
    cd->xy_split = false;
    for (int v = 0; v < 2; v++) cd->xy_split |= axis_of[v] >= 0 && s->dc.dims[axis_of[v]] > 1;
    cd->edges.clear();
    // peel slabs off the remaining box, z first; a part thinner than two
    // ghost widths is all edge (the exchange reads its cells), no interior
    for (int v = 2; v >= 0; v--) {
        std::array<int, 6> b = {lo[0], lo[1], lo[2], hi[0], hi[1], hi[2]};
        if (ilo[v] > lo[v]) { b[3 + v] = std::min(ilo[v], hi[v]); cd->edges.push_back(b); lo[v] = b[3 + v]; }
        b = {lo[0], lo[1], lo[2], hi[0], hi[1], hi[2]};
        if (ihi[v] < hi[v]) {
            b[v] = std::max(ihi[v], lo[v]);
            if (b[v] < hi[v]) cd->edges.push_back(b);
            hi[v] = b[v];
        }
    }
    cd->inner = {lo[0], lo[1], lo[2], hi[0], hi[1], hi[2]};
}

// Stream priorities: `compute` (the boundary layers, the halo exchange and
// its NCCL kernels) the highest, `interior` the lowest, so that the block
// scheduler gives freed SMs to the exchange before the interior's waiting
// blocks; at equal priority the exchange's kernels queue behind the whole
// interior grid and its latency shows after it (docs/mpi.md).
int stream_priority(bool high)
{
    int least = 0, greatest = 0;
    cudaDeviceGetStreamPriorityRange(&least, &greatest);
    return high ? greatest : least;
}

// Storage index of the first stored block at block row bz (z) or after it.
static size_t first_index_at_row(const block_map &h, int bz)
{
    const size_t row = (size_t)h.nb[0] * h.nb[1];
    for (size_t box = (size_t)bz * row; box < h.nboxblocks; box++)
        if (h.slot[box] != BLOCK_NONE) return h.slot[box] * h.bvol;
    return block_map_cells(&h);
}

// blockDS split over ranks: split_boxes' edges and interior as ranges of
// storage. Along z, the block rows that reach below the interior's first
// plane or past its last (the edge layers, and the ghost layers, whose cells
// the kernel only copies) come first; the rows between them are the interior.
// Split along x or y, or where the two edge ranges meet, all is edge.
static void split_block_ranges(cuda_data *cd)
{
    const block_map &h = cd->hblocks;
    const size_t all = block_map_cells(&h);
    const int bz = h.b[2];
    const int first = (cd->inner[2] + bz - 1) / bz, last = cd->inner[5] / bz;   // interior rows [first, last)
    cd->qedges.clear();
    if (cd->xy_split || first >= last) {   // (an empty interior, inner[2] >= inner[5], gives first >= last)
        cd->qedges.push_back({0, all});
        cd->qinner = {0, 0};
        return;
    }
    const size_t a = first_index_at_row(h, first), b = first_index_at_row(h, last);
    if (a > 0) cd->qedges.push_back({0, a});
    if (b < all) cd->qedges.push_back({b, all});
    cd->qinner = {a, b};
}

// tplane on z slabs whose faces the copy engines exchange, where every part
// is at least as thick as its faces' planes: faces_first_step.
static int init_faces_first(sim *s, cuda_data *cd, char *err, size_t errlen)
{
    int n[3], axis_of[3];
    make_view(&s->lg, n, axis_of);
    const int za = axis_of[2];
    int nf = 0;
    for (int d = 0; d < 2 && za >= 0; d++) nf += s->dc.nbr[za][d] >= 0;
    cd->faces_first = cd->layout == LAYOUT_TPLANE && !cd->xy_split && gpu_exchange_peer(cd->xchg) && nf > 0 &&
                      cd->own[5] - cd->own[2] >= nf * s->dc.ghost;
    if (!cd->faces_first) return 0;
    cudaError_t e;
    if ((e = cudaStreamCreateWithFlags(&cd->sends, cudaStreamNonBlocking)) != cudaSuccess ||
        (e = cudaEventCreateWithFlags(&cd->ev_sent, cudaEventDisableTiming)) != cudaSuccess ||
        (e = cudaMalloc(&cd->face_sig, 4 * sizeof(unsigned))) != cudaSuccess ||
        (e = cudaMemset(cd->face_sig, 0, 4 * sizeof(unsigned))) != cudaSuccess)
        return fail_init(err, errlen, "setting up the faces' exchange", e);
    return 0;
}

int init_split(sim *s, cuda_data *cd, char *err, size_t errlen)
{
    cudaError_t e;
    if ((e = cudaStreamCreateWithPriority(&cd->interior, cudaStreamNonBlocking, stream_priority(false))) !=
            cudaSuccess ||
        (e = cudaEventCreateWithFlags(&cd->ev_step, cudaEventDisableTiming)) != cudaSuccess ||
        (e = cudaEventCreateWithFlags(&cd->ev_inner, cudaEventDisableTiming)) != cudaSuccess)
        return fail_init(err, errlen, "creating the interior stream", e);
    split_boxes(s, cd);
    if (cd->layout == LAYOUT_BLOCK) split_block_ranges(cd);
    // tplane exchanges every state, the other layouts V alone
    const int vi = s->m.def->vindex;
    cd->xchg = cd->layout == LAYOUT_TPLANE
                   ? gpu_exchange_create(s, cd->map, s->m.def->nstate, cd->state, cd->next, err, errlen)
                   : gpu_exchange_create(s, cd->map, 1, &cd->state[vi], &cd->next[vi], err, errlen);
    if (!cd->xchg) return -1;
    return init_faces_first(s, cd, err, errlen);
}

// One launch on stream st updating box b (view axes, lo then hi) of a
// decomposed run's owned cells; none where b is empty (a thin part's interior).
static void launch_box(launch_ctx &c, const std::array<int, 6> &b, cudaStream_t st, void (*launch)(const launch_ctx &))
{
    for (int a = 0; a < 3; a++) {
        c.lo[a] = b[a];
        c.hi[a] = b[3 + a];
        if (c.lo[a] >= c.hi[a]) return;
    }
    c.stream = st;
    launch(c);
}

// One launch of blockDS on stream st over storage indices r = [lo, hi).
static void launch_range(launch_ctx &c, const std::array<size_t, 2> &r, cudaStream_t st)
{
    c.qlo = r[0];
    c.qhi = r[1];
    c.stream = st;
    launch_block(c);
}

// One step of a decomposed run (naive or blockDS): the boundary layers on
// `compute`, the interior on `interior` meanwhile, then V's ghost layers
// exchanged on `compute` while the interior finishes; the next step waits
// for both.
void split_step(sim *s, launch_ctx &c)
{
    cuda_data *cd = data(s);
    const int vi = s->m.def->vindex;
    CU(s, cudaEventRecord(cd->ev_step, cd->compute));
    CU(s, cudaStreamWaitEvent(cd->interior, cd->ev_step, 0));
    if (cd->layout == LAYOUT_BLOCK) {
        for (const auto &r : cd->qedges) launch_range(c, r, cd->compute);
        launch_range(c, cd->qinner, cd->interior);
    } else {
        for (const auto &b : cd->edges) launch_box(c, b, cd->compute, launch_naive);
        launch_box(c, cd->inner, cd->interior, launch_naive);
    }
    c.stream = cd->compute;
    CU(s, cudaEventRecord(cd->ev_inner, cd->interior));
    std::swap(cd->state[vi], cd->next[vi]);   // naive and blockDS: only V is double-buffered
    if (!s->halo_off) gpu_exchange_run(cd->xchg, s, &vi, &cd->state[vi], 1, cd->map, cd->compute);
    CU(s, cudaStreamWaitEvent(cd->compute, cd->ev_inner, 0));
}

// k steps (k <= K) of tplane on z slabs whose faces the copy engines
// exchange: one launch over the owned planes, whose first rows of blocks
// compute the planes next to the shared faces and count them
// (tplane_plan.h, plan_chunks; kernels_tplane.cuh, tplane_signal_face); the `sends`
// stream copies each face to its neighbour once counted, while the launch
// computes the rest. No edge launches (whose pipeline takes 7 iterations for
// a plane at K = 3, before the inner planes could start) and no SM for the
// exchange. The next launch waits for the sends (so that the launch after it
// may overwrite their source) and for the neighbours' faces. Ghost planes are
// read only by the face chunks, which end before the count that lets the
// neighbour's next launch start (cuda/exchange_peer.h).
static void faces_first_step(sim *s, launch_ctx &c)
{
    cuda_data *cd = data(s);
    const int ns = s->m.def->nstate;
    const bool exchange = !s->halo_off;
    int n[3], axis_of[3];
    make_view(&s->lg, n, axis_of);
    const int za = axis_of[2];
    if (exchange) {
        c.face_signal = cd->face_sig;
        c.faces = (s->dc.nbr[za][0] >= 0 ? 1 : 0) | (s->dc.nbr[za][1] >= 0 ? 2 : 0);
        c.face_width = s->dc.ghost;
    }
    launch_box(c, cd->own, cd->compute, launch_tplane);
    c.face_signal = nullptr;
    c.faces = 0;
    c.stream = cd->compute;
    for (int v = 0; v < ns; v++) std::swap(cd->state[v], cd->next[v]);
    if (!exchange) return;
    peer_exchange *px = gpu_exchange_peer(cd->xchg);
    peer_exchange_send(px, s, cd->state, ns, cd->sends, cd->face_sig, ++cd->face_launches);
    CU(s, cudaEventRecord(cd->ev_sent, cd->sends));
    CU(s, cudaStreamWaitEvent(cd->compute, cd->ev_sent, 0));
    peer_exchange_wait(px, s, cd->compute);
}

// k steps (k <= K) of a decomposed run on layout tplane, whose ghost zones
// are K layers of every state: split along z only, the owned planes next to
// each shared face first (split_boxes: K planes deep), then the inner planes
// on `interior` while every state's ghost layers are exchanged on `compute`,
// once per launch instead of once per step; split along x or y, all owned
// cells in one launch, then the exchange. The kernel writes only the owned
// box it is given (c.lo, c.hi) and reads the K planes around it.
void split_tplane_step(sim *s, launch_ctx &c)
{
    cuda_data *cd = data(s);
    const int ns = s->m.def->nstate;
    if (cd->faces_first) { faces_first_step(s, c); return; }
    auto run = [&](const std::array<int, 6> &b, cudaStream_t st) { launch_box(c, b, st, launch_tplane); };
    if (cd->xy_split) {
        run(cd->own, cd->compute);
    } else {
        // the interior after the edges where the copy engines exchange:
        // started together, the interior's blocks (one wave of long ones)
        // took SMs before the edges' and the exchange waited for them. NCCL's
        // kernels need SMs, which the interior then holds to its end: with
        // NCCL both start together (docs/gpu-notebook.md item 25)
        const bool peer = gpu_exchange_peer(cd->xchg) != nullptr;
        if (!peer) CU(s, cudaEventRecord(cd->ev_step, cd->compute));
        for (const auto &b : cd->edges) run(b, cd->compute);
        if (peer) CU(s, cudaEventRecord(cd->ev_step, cd->compute));
        CU(s, cudaStreamWaitEvent(cd->interior, cd->ev_step, 0));
        run(cd->inner, cd->interior);
        CU(s, cudaEventRecord(cd->ev_inner, cd->interior));
    }
    c.stream = cd->compute;
    for (int v = 0; v < ns; v++) std::swap(cd->state[v], cd->next[v]);
    if (!s->halo_off) {
        int vars[MODEL_MAX_STATE];
        for (int v = 0; v < ns; v++) vars[v] = v;
        gpu_exchange_run(cd->xchg, s, vars, cd->state, ns, cd->map, cd->compute);
    }
    if (!cd->xy_split) CU(s, cudaStreamWaitEvent(cd->compute, cd->ev_inner, 0));
}

