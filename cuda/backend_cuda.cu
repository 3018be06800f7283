// The CUDA backend: the state lives on the GPU for the whole run; stepping,
// stimuli, probes and output staging are queued on one compute stream, and
// output frames go to the host through pinned buffers on a second stream, so
// writing a frame overlaps the next steps. Every CUDA call is checked; a
// failure is recorded with sim_fail and raised by the shell as a Lua error.
#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <vector>
#include "backend_cuda_priv.h"
#include "dyads_cu.h"
#include "halo.h"
#include "par.h"
#include "quiescence.h"
#include "rate_tables.h"
#include "state_view.h"






// Host-to-device copy queued on the compute stream, so that the kernels queued
// after it see the data. A plain cudaMemcpy from pageable memory may return
// before its DMA has finished, and the legacy stream it runs on does not order
// the backend's non-blocking streams: a kernel could read the buffer first.
// (Pageable sources are staged before cudaMemcpyAsync returns, so the caller
// may free them at once.)
static bool upload(sim *s, void *dst, const void *src, size_t bytes)
{
    return CU(s, cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, data(s)->compute));
}

void make_view(const grid *g, int n[3], int axis_of[3])
{
    if (g->dim == 3) { for (int a = 0; a < 3; a++) { n[a] = g->n[a]; axis_of[a] = a; } return; }
    n[0] = g->n[0]; axis_of[0] = 0;
    n[1] = 1; axis_of[1] = -1;
    n[2] = g->dim == 2 ? g->n[1] : 1; axis_of[2] = g->dim == 2 ? 1 : -1;
}

// Neighbour flags of every cell (cuda/device_common.cuh) for a masked grid.
std::vector<uint16_t> neighbour_flags(const grid *g, const int n[3])
{
    std::vector<uint16_t> f(g->ncells);
    const long stride[3] = {1, n[0], (long)n[0] * n[1]};
    for (size_t c = 0; c < g->ncells; c++) {
        long pos[3] = {(long)(c % n[0]), (long)(c / n[0] % n[1]), (long)(c / stride[2])};
        unsigned w = g->mask[c] ? FLAG_SELF : 0;
        for (int a = 0; a < 3; a++) {
            const int off[4] = {-1, 1, -2, 2};
            for (int b = 0; b < 4; b++) {
                long q = pos[a] + off[b];
                if (q >= 0 && q < n[a] && g->mask[c + off[b] * stride[a]]) w |= 1u << (4 * a + b);
            }
        }
        f[c] = (uint16_t)w;
    }
    return f;
}

// One GPU per rank: the rank's place among the ranks of its node picks it.
static int rank_device()
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess || n < 1) return 0;
    return par_local_rank() % n;
}

int fail_init(char *err, size_t errlen, const char *what, cudaError_t e)
{
    snprintf(err, errlen, "CUDA error in %s: %s", what, cudaGetErrorString(e));
    return -1;
}

// cudaMemset runs on the legacy stream, which does not order the backend's
// non-blocking streams: it is waited for here, before anything else can
// write the new buffer.
bool dev_alloc(void **p, size_t bytes, char *err, size_t errlen)
{
    cudaError_t e = cudaMalloc(p, bytes ? bytes : 1);
    if (e == cudaSuccess) { cudaMemset(*p, 0, bytes ? bytes : 1); cudaStreamSynchronize(0); return true; }
    size_t fr = 0, tot = 0;
    cudaGetLastError();
    cudaMemGetInfo(&fr, &tot);
    char a[32], b[32], c[32];
    format_bytes((double)bytes, a, sizeof a); format_bytes((double)fr, b, sizeof b); format_bytes((double)tot, c, sizeof c);
    snprintf(err, errlen, "out of GPU memory: asked for %s, %s free of %s (%s)", a, b, c, cudaGetErrorString(e));
    *p = nullptr;
    return false;
}

long blocks_wanted(int threads_per_block)
{
    static int sms = 0;
    if (!sms) {
        int dev = 0;
        cudaGetDevice(&dev);
        if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess || sms < 1) sms = 100;
    }
    long per_sm = std::max(1, 2048 / std::max(1, threads_per_block));
    return 2L * sms * per_sm;
}

// blockDS: the map is built in view axes (2D grids: blocks of bx x 1 x by
// cells), where the flags and the kernels' coefficients live, and its tables
// are copied to the device.
static int init_blocks(sim *s, cuda_data *cd, const int n[3], const int axis_of[3], char *err, size_t errlen)
{
    grid view = s->lg;   // shares the mask; only sizes change
    view.dim = 3;
    int b[3];
    for (int a = 0; a < 3; a++) {
        view.n[a] = n[a];
        b[a] = axis_of[a] >= 0 ? s->blocks[axis_of[a]] : 1;
    }
    block_map &h = cd->hblocks;
    if (block_map_build(&h, &view, b, err, errlen) != 0) return -1;
    if (!dev_alloc((void **)&cd->dslot, h.nboxblocks * sizeof *h.slot, err, errlen) ||
        !dev_alloc((void **)&cd->dorigin, std::max<size_t>(h.nactive, 1) * sizeof *h.origin, err, errlen) ||
        !dev_alloc((void **)&cd->dnbr, std::max<size_t>(h.nactive, 1) * 6 * sizeof *h.nbr, err, errlen))
        return -1;
    // before the streams exist: cuda_init's cudaDeviceSynchronize waits for these copies
    cudaMemcpy(cd->dslot, h.slot, h.nboxblocks * sizeof *h.slot, cudaMemcpyHostToDevice);
    cudaMemcpy(cd->dorigin, h.origin, h.nactive * sizeof *h.origin, cudaMemcpyHostToDevice);
    cudaMemcpy(cd->dnbr, h.nbr, h.nactive * 6 * sizeof *h.nbr, cudaMemcpyHostToDevice);
    block_map d = h;
    d.slot = cd->dslot;
    d.origin = cd->dorigin;
    d.nbr = cd->dnbr;
    cd->base.blocks = d;
    cd->map.blocks = d;
    cd->nstore = block_map_cells(&h);
    cd->base.qlo = 0;
    cd->base.qhi = cd->nstore;
    return 0;
}

// Per-cell data in the layout's order: row-major, or blockDS storage order
// (cells past the box's end get `pad`).
template <class V>
std::vector<V> in_store_order(const cuda_data *cd, const std::vector<V> &rowmajor, V pad)
{
    if (cd->layout != LAYOUT_BLOCK) return rowmajor;
    const block_map &h = cd->hblocks;
    std::vector<V> out(cd->nstore, pad);
    for (size_t q = 0; q < cd->nstore; q++) {
        int l[3], p[3];
        if (block_position(&h, q, l, p)) out[q] = rowmajor[((size_t)p[2] * h.n[1] + p[1]) * h.n[0] + p[0]];
    }
    return out;
}

// blockDS under mpirun: the kernel steps every stored cell whose flags say
// it is tissue, so the ghost cells (a neighbour's, read by the stencil, their
// V refreshed by the exchange after every step) lose that bit and are only
// read: the owned cells are the ones stepped.
static void step_owned_only(const sim *s, std::vector<uint16_t> &f)
{
    const grid *g = &s->lg;
    for (size_t c = 0; c < g->ncells; c++) {
        size_t rest = c;
        for (int a = 0; a < g->dim; a++) {
            const int p = (int)(rest % g->n[a]);
            rest /= g->n[a];
            if (p < s->own_lo[a] || p >= s->own_hi[a]) f[c] &= (uint16_t)~FLAG_SELF;
        }
    }
}

// Neighbour flags and the phase field on the device, in storage order (copied
// before the first kernel: cuda_init ends with cudaDeviceSynchronize).
static int upload_cell_data(sim *s, cuda_data *cd, const int n[3], char *err, size_t errlen)
{
    const grid *g = &s->lg;
    launch_ctx &b = cd->base;
    if (b.masked) {
        std::vector<uint16_t> rowmajor = neighbour_flags(g, n);
        if (cd->layout == LAYOUT_BLOCK && s->dc.nranks > 1) step_owned_only(s, rowmajor);
        std::vector<uint16_t> f = in_store_order<uint16_t>(cd, rowmajor, 0);
        if (!dev_alloc((void **)&cd->flags, 2 * f.size(), err, errlen)) return -1;
        cudaMemcpy(cd->flags, f.data(), 2 * f.size(), cudaMemcpyHostToDevice);
        b.flags = cd->flags;
    }
    if (g->phi) {
        std::vector<float> p = in_store_order<float>(cd, std::vector<float>(g->phi, g->phi + g->ncells), 1.0f);
        if (!dev_alloc((void **)&cd->phi, sizeof(float) * p.size(), err, errlen)) return -1;
        cudaMemcpy(cd->phi, p.data(), sizeof(float) * p.size(), cudaMemcpyHostToDevice);
        b.phi = cd->phi;
    }
    return 0;
}


// A configuration the simulation asks for (`wanted`) whose kernels the
// model's build lacks (`built`, from launch.h's lists): the error, naming the
// list, and true.
static bool kernels_missing(int wanted, bool built, const char *what, const char *list, const model_def *d, char *err,
                            size_t errlen)
{
    if (!wanted || built) return false;
    snprintf(err, errlen, "%s for model %s: its kernels are not built (%s, cuda/launch.h)", what, d->name, list);
    return true;
}
// The rate tables (core/engine/rate_tables.h) on the device, copied again
// when the parameters changed them; on the compute stream, after the kernels
// that read the old ones.
static bool upload_tables(sim *s, char *err, size_t errlen)
{
    cuda_data *cd = data(s);
    const rate_tables *t = s->tables;
    if (!t) return true;
    const size_t bytes = (size_t)t->ntab * t->stride * sizeof(double);
    if (bytes > cd->dtab_bytes) {
        cudaStreamSynchronize(cd->compute);
        cudaFree(cd->dtab);
        cd->dtab = nullptr;
        cd->dtab_bytes = 0;
        if (!dev_alloc((void **)&cd->dtab, bytes, err, errlen)) return false;
        cd->dtab_bytes = bytes;
    }
    if (!cd->dtab_of_set && !dev_alloc((void **)&cd->dtab_of_set, PARAM_SETS_MAX, err, errlen)) return false;
    upload(s, cd->dtab, t->data, bytes);
    upload(s, cd->dtab_of_set, t->of_set, PARAM_SETS_MAX);
    cd->base.table = cd->dtab;
    cd->base.tab_of_set = cd->dtab_of_set;
    cd->base.tab_stride = t->stride;
    return true;
}

static int cuda_init(sim *s, char *err, size_t errlen)
{
    if (layout_refusal(s, err, errlen) != 0) return -1;
    cudaError_t dev = cudaSetDevice(rank_device());
    if (dev != cudaSuccess) return fail_init(err, errlen, "cudaSetDevice", dev);
    cuda_data *cd = new cuda_data();
    s->bd = cd;
    const model_def *d = s->m.def;
    const grid *g = &s->lg;
    int n[3], axis_of[3];
    make_view(g, n, axis_of);
    cd->layout = pick_layout(s);
    cd->esize = s->fp64 ? sizeof(double) : sizeof(float);
    if (layout_temporal(cd->layout) && !s->tsteps)
        s->tsteps = default_tsteps(s, s->dc.nranks > 1 ? &s->g : &s->lg, cd->layout);
    if (!layout_temporal(cd->layout)) s->tsteps = 0;
    snprintf(s->layout, sizeof s->layout, "%s", layout_table[cd->layout].name);

    launch_ctx &b = cd->base;
    memset(&b, 0, sizeof b);
    b.model = d->id;
    b.fp64 = s->fp64;
    b.mixed = s->mixed;
    b.half = s->half;
    b.frac = s->frac;
    b.every = s->multirate;
    if (kernels_missing(s->mixed, model_has_mixed_kernels(d->id), "precision 'mixed'", "CARDIAC_MIXED_MODELS", d, err,
                        errlen) ||
        kernels_missing(s->half, model_has_half_kernels(d->id), "precision 'fp32h'", "CARDIAC_HALF_MODELS", d, err,
                        errlen) ||
        kernels_missing(s->frac, model_has_frac_kernels(d->id), "precision 'fp32g'", "CARDIAC_FRAC_MODELS", d, err,
                        errlen) ||
        kernels_missing(s->multirate, model_has_slow_kernels(d->id), "multirate", "CARDIAC_SLOW_MODELS", d, err, errlen) ||
        kernels_missing(s->tables != nullptr, model_has_table_kernels(d->id), "tables", "CARDIAC_TABLE_MODELS", d, err,
                        errlen))
        return -1;
    if (s->tables && cd->layout != LAYOUT_NAIVE && cd->layout != LAYOUT_BLOCK) {
        snprintf(err, errlen, "tables = true runs on layouts 'naive' and 'block'; not on layout '%s'",
                 layout_table[cd->layout].name);
        return -1;
    }
    if (s->multirate && cd->layout != LAYOUT_NAIVE && cd->layout != LAYOUT_BLOCK) {
        snprintf(err, errlen, "multirate = %d runs on layouts 'naive' and 'block', whose kernels update the state in "
                 "place; not on layout '%s'", s->multirate, layout_table[cd->layout].name);
        return -1;
    }
    if (s->quiescent && cd->layout != LAYOUT_BLOCK) {
        snprintf(err, errlen, "quiescent_below runs on layout 'block' (blocks = b), whose kernel reads a quiescent "
                 "cell's V alone; not on layout '%s'", layout_table[cd->layout].name);
        return -1;
    }
    b.quiet_below = s->quiet_below;
    b.quiet_diffusion = s->quiet_diffusion;
    b.order = s->order;
    // blockDS always keeps flags, and so does a phase field: the kernels take
    // its diffusion on their masked path, also where it leaves no cell out
    // (a phase field positive everywhere ran the plain stencil until 2026-11-24)
    b.masked = g->ntissue != g->ncells || cd->layout == LAYOUT_BLOCK || g->phi;
    for (int a = 0; a < 3; a++) { b.n[a] = n[a]; b.lo[a] = 0; b.hi[a] = n[a]; }
    if ((long long)n[0] * n[1] >= 1LL << 30) {   // the kernels index within a plane with 32 bits
        snprintf(err, errlen, "grid planes of %d x %d cells are too large for the cuda backend (at most 2^30 cells)",
                 n[0], n[1]);
        return -1;
    }
    block_shape(s, cd->layout, n, &b.bx, &b.by);
    s->block[0] = b.bx;
    s->block[1] = b.by;
    const int r = s->order / 2;
    if (b.bx * b.by > 1024 || (b.bx < 2 * r + 1 && !(cd->layout == LAYOUT_BLOCK && b.bx == 0))) {
        snprintf(err, errlen, "thread block %d x %d is not usable: at most 1024 threads, at least %d along x",
                 b.bx, b.by, 2 * r + 1);
        return -1;
    }
    if ((cd->layout == LAYOUT_BLOCK || cd->layout == LAYOUT_NAIVE) &&
        b.bx * b.by > block_kernel_max_threads(s->m.def->nstate, s->fp64 ? 8 : 4)) {
        snprintf(err, errlen, "thread block %d x %d is not usable with layout '%s' and model '%s' in %s: its step "
                 "kernel takes at most %d threads", b.bx, b.by, layout_table[cd->layout].name, s->m.def->name,
                 model_precision_name(sim_precision(s)), block_kernel_max_threads(s->m.def->nstate, s->fp64 ? 8 : 4));
        return -1;
    }
    if (cd->layout == LAYOUT_TPLANE && check_tplane_block(s, n, b.bx, b.by, err, errlen) != 0) return -1;
    if (cd->layout == LAYOUT_TBLOCK) {
        const int K = s->tsteps;
        const int cells_x = b.bx * tblock_cells_per_thread();
        if (cells_x <= 2 * K * r || (n[1] > 1 && b.by <= 2 * K * r)) {
            snprintf(err, errlen,
                     "layout 'tblock' with tsteps = %d needs tiles of more than %d cells each way (block = {%d, %d} "
                     "threads make %d x %d cells)", K, 2 * K * r, b.bx, b.by, cells_x, b.by);
            return -1;
        }
    }
    cd->nstore = g->ncells;
    if (cd->layout == LAYOUT_TOWER) {
        tower_geom &t = b.tower;
        t.tx = b.bx; t.ty = b.by; t.r = r;
        t.ntx = (n[0] + t.tx - 1) / t.tx;
        t.nty = (n[1] + t.ty - 1) / t.ty;
        t.layer_size = (size_t)t.tx * t.ty + 2 * (size_t)r * t.ty;
        t.total = (size_t)t.ntx * t.nty * n[2] * t.layer_size;
        cd->nstore = t.total;
    }
    cd->map.layout = cd->layout;
    for (int a = 0; a < 3; a++) cd->map.n[a] = n[a];
    cd->map.tower = b.tower;
    if (cd->layout == LAYOUT_BLOCK && init_blocks(s, cd, n, axis_of, err, errlen) != 0) return -1;
    const size_t nstim = cd->layout == LAYOUT_BLOCK ? cd->nstore : g->ncells;

    // Check the whole allocation against free device memory before starting.
    const int nnext = layout_temporal(cd->layout) ? d->nstate : 1;
    double state_bytes = 0;
    for (int v = 0; v < d->nstate; v++) state_bytes += var_esize(s, v);
    double need = (state_bytes + (double)cd->esize * nnext) * cd->nstore + (double)cd->esize * nstim +
                  (b.masked ? 2.0 * nstim : 0) + (g->phi ? 4.0 * nstim : 0) + 4.0 * g->ncells +
                  gpu_dyads_bytes(s, g->ntissue);
    size_t fr = 0, tot = 0;
    cudaError_t e = cudaSetDevice(rank_device());
    if (e == cudaSuccess) e = cudaMemGetInfo(&fr, &tot);
    if (e != cudaSuccess) return fail_init(err, errlen, "cudaMemGetInfo", e);
    if (need > (double)fr) {
        char a1[32], a2[32], a3[32];
        format_bytes(need, a1, sizeof a1); format_bytes((double)fr, a2, sizeof a2); format_bytes((double)tot, a3, sizeof a3);
        char dy[64] = "";
        if (d->multiscale) snprintf(dy, sizeof dy, ", %g dyads per cell", s->m.p[GR_DYADS]);
        snprintf(err, errlen, "out of GPU memory: the simulation needs %s on the GPU (%zu cells x %d states%s, %s, "
                 "layout '%s'); %s is free of %s", a1, g->ncells, d->nstate, dy, model_precision_name(sim_precision(s)),
                 layout_table[cd->layout].name, a2, a3);
        return -1;
    }
    if ((e = cudaStreamCreateWithPriority(&cd->compute, cudaStreamNonBlocking, stream_priority(true))) != cudaSuccess ||
        (e = cudaStreamCreateWithFlags(&cd->copy, cudaStreamNonBlocking)) != cudaSuccess ||
        (e = cudaEventCreateWithFlags(&cd->ev_snap, cudaEventDisableTiming)) != cudaSuccess ||
        (e = cudaEventCreateWithFlags(&cd->ev_copy, cudaEventDisableTiming)) != cudaSuccess ||
        (e = cudaEventCreate(&cd->t0)) != cudaSuccess || (e = cudaEventCreate(&cd->t1)) != cudaSuccess)
        return fail_init(err, errlen, "creating streams and events", e);
    b.stream = cd->compute;
    for (int v = 0; v < d->nstate; v++) {
        if (!var_esize(s, v)) {   // the second half state of a pair: 2 bytes into its first's words
            cd->state[v] = (char *)cd->state[var_pair_first(s, v)] + 2;
            continue;
        }
        if (!dev_alloc(&cd->state[v], var_esize(s, v) * cd->nstore, err, errlen)) return -1;
    }
    for (int v = 0; v < d->nstate; v++) {
        if (!layout_temporal(cd->layout) && v != d->vindex) { cd->next[v] = cd->state[v]; continue; }
        if (!dev_alloc(&cd->next[v], var_esize(s, v) * cd->nstore, err, errlen)) return -1;
    }
    if (!dev_alloc(&cd->istim, cd->esize * nstim, err, errlen) ||
        !dev_alloc((void **)&cd->scratch, sizeof(float) * g->ncells, err, errlen) ||
        !dev_alloc((void **)&cd->bad, sizeof(unsigned long long), err, errlen))
        return -1;
    cudaMemset(cd->bad, 0xff, sizeof(unsigned long long));
    if (s->quiescent) {   // no cell behind (core/engine/quiescence.h)
        if (!dev_alloc((void **)&cd->stamp, cd->nstore, err, errlen)) return -1;
        cudaMemset(cd->stamp, quiescent_stamp(s->nstep - 1), cd->nstore);
        b.stamp = cd->stamp;
    }
    if (upload_cell_data(s, cd, n, err, errlen) != 0 || !upload_tables(s, err, errlen)) return -1;
    b.bad = cd->bad;
    // resting state: every stored value, halo copies included, is the rest value
    // (the second buffers too: the kernels write the owned cells only, and an
    // ensemble's ranks exchange no ghost layers across members, core/engine/members.h)
    for (int v = 0; v < d->nstate; v++) {   // a float state gets its rest value rounded, as the model's step would
        fill_field(var_kind(s, v), cd->state[v], cd->nstore, s->m.rest[v], cd->compute);
        if (cd->next[v] != cd->state[v])
            fill_field(var_kind(s, v), cd->next[v], cd->nstore, s->m.rest[v], cd->compute);
    }
    e = cudaDeviceSynchronize();
    if (e != cudaSuccess) return fail_init(err, errlen, "initialising the state", e);
    if (s->failed) { snprintf(err, errlen, "%s", s->error); return -1; }
    return s->dc.nranks > 1 ? init_split(s, cd, err, errlen) : 0;
}

static void cuda_free(sim *s)
{
    cuda_data *cd = data(s);
    if (!cd) return;
    cudaDeviceSynchronize();
    for (int v = 0; v < MODEL_MAX_STATE; v++) {
        if (cd->next[v] && cd->next[v] != cd->state[v]) cudaFree(cd->next[v]);
        if (v >= s->m.def->nstate || var_esize(s, v)) cudaFree(cd->state[v]);   // not a pair's second half
        cudaFree(cd->dstage[v]);
        if (cd->hstage[v]) cudaFreeHost(cd->hstage[v]);
    }
    for (size_t *p : cd->stim_cells) cudaFree(p);
    cudaFree(cd->plabel); cudaFree(cd->ptable); cudaFree(cd->mcoef); cudaFree(cd->dtab); cudaFree(cd->dtab_of_set);
    cudaFree(cd->istim); cudaFree(cd->scratch); cudaFree(cd->bad); cudaFree(cd->flags); cudaFree(cd->phi); cudaFree(cd->facebuf);
    cudaFree(cd->mask8);
    cudaFree(cd->stamp);
    cudaFree(cd->dslot); cudaFree(cd->dorigin); cudaFree(cd->dnbr);
    block_map_free(&cd->hblocks);
    if (cd->compute) cudaStreamDestroy(cd->compute);
    if (cd->copy) cudaStreamDestroy(cd->copy);
    gpu_exchange_free(cd->xchg);
    if (cd->interior) cudaStreamDestroy(cd->interior);
    if (cd->sends) cudaStreamDestroy(cd->sends);
    cudaFree(cd->face_sig);
    rest_free(cd);
    for (cudaEvent_t ev : {cd->ev_snap, cd->ev_copy, cd->t0, cd->t1, cd->ev_step, cd->ev_inner, cd->ev_sent})
        if (ev) cudaEventDestroy(ev);
    delete cd;
    s->bd = nullptr;
}

// An ensemble whose members' D differ: the stencil's coefficients per layer
// (core/engine/members.h) in view axes, copied to the device when they
// changed; null otherwise. The member axis is the view's z in 2D and 3D.
static const double *member_coefs(sim *s, const int n[3], const int axis_of[3])
{
    cuda_data *cd = data(s);
    if (!s->st.mcoef) return nullptr;
    if (cd->mcoef && cd->mversion == s->st.mversion) return cd->mcoef;
    std::vector<double> h(3 * (size_t)n[2]);
    for (int l = 0; l < n[2]; l++)
        for (int a = 0; a < 3; a++) h[3 * l + a] = axis_of[a] >= 0 ? s->st.mcoef[3 * l + axis_of[a]] : 0.0;
    // kernels queued before the change may still read the old coefficients
    cudaError_t e = cudaDeviceSynchronize();
    if (e == cudaSuccess && !cd->mcoef) e = cudaMalloc(&cd->mcoef, h.size() * sizeof(double));
    if (e == cudaSuccess) e = cudaMemcpy(cd->mcoef, h.data(), h.size() * sizeof(double), cudaMemcpyHostToDevice);
    if (e != cudaSuccess) {
        sim_fail(s, "copying the members' diffusion coefficients to the GPU: %s", cudaGetErrorString(e));
        return nullptr;
    }
    cd->mversion = s->st.mversion;
    return cd->mcoef;
}

// Cells with parameter sets of their own need the general kernels.
bool params_folded(const sim *s)
{
    if (s->plabel) return false;
    for (int q = 0; q < s->m.def->nparam; q++)
        if (s->m.p[q] != s->m.def->params[q].value) return false;
    return true;
}

// Launch fields that may change between calls: D, dt, parameters, stimulus.
static launch_ctx current_ctx(sim *s)
{
    cuda_data *cd = data(s);
    launch_ctx c = cd->base;
    int n[3], axis_of[3];
    make_view(&s->lg, n, axis_of);
    for (int a = 0; a < 3; a++) c.coef[a] = axis_of[a] >= 0 ? s->st.coef[axis_of[a]] : 0.0;
    c.mcoef = member_coefs(s, n, axis_of);
    c.dt = s->dt;
    c.fold = params_folded(s);
    model_step_params(s->m.def, s->m.p, c.p);   // and the slots derived from them
    c.istim = cd->stim_any ? cd->istim : nullptr;
    return c;
}

static void cuda_view(sim *s, unsigned want, state_view *v);

static void cuda_step(sim *s, long nsteps)
{
    cuda_data *cd = data(s);
    if (s->failed || nsteps <= 0) return;
    const int ns = s->m.def->nstate, vi = s->m.def->vindex;
    launch_ctx c = current_ctx(s);
    // the release units' stage (multiscale models) reads the cell state
    // through a view, taken anew before each step: the steps swap V's buffers
    state_view sv;
    if (s->ms) { cuda_view(s, 0, &sv); multiscale_params_cu(s, &sv); }
    long done = 0;
    while (done < nsteps) {
        int k = 1;
        if (layout_temporal(cd->layout)) k = (int)std::min<long>(s->tsteps, nsteps - done);
        c.tsteps = k;
        c.step0 = s->nstep + done;
        if (s->ms) {
            cuda_view(s, 0, &sv);
            multiscale_stage_cu(s, &sv, cd->base.plabel, cd->base.ptable, c.step0);
        }
        for (int v = 0; v < ns; v++) { c.in[v] = cd->state[v]; c.out[v] = cd->next[v]; }
        if (cd->xchg) {            // split over ranks
            if (cd->layout == LAYOUT_TPLANE) split_tplane_step(s, c);
            else split_step(s, c);
            done += k;
            continue;
        }
        c.follow = 1;
        rest_plan(s, c);
        launch_layout(cd->layout, c);
        for (int v = 0; v < ns; v++)
            if (cd->next[v] != cd->state[v] || v == vi) std::swap(cd->state[v], cd->next[v]);
        rest_swap(s);
        done += k;
    }
    rest_settle(s, c, s->nstep + done);
    CU(s, cudaGetLastError());
}

static void cuda_sync(sim *s)
{
    cuda_data *cd = data(s);
    if (!CU(s, cudaStreamSynchronize(cd->compute))) return;
    unsigned long long key = ~0ull;
    if (!CU(s, cudaMemcpy(&key, cd->bad, sizeof key, cudaMemcpyDeviceToHost))) return;
    if (key != ~0ull && s->bad_cell < 0) {
        s->bad_cell = (long)(key & ((1ull << 36) - 1));
        s->bad_step = (long)(key >> 36);
        s->bad_var = 0;
        for (int v = 0; v < s->m.def->nstate; v++) {
            // the first state that is not finite at the cell, through the float scratch field
            float x;
            export_field(cd->map, var_kind(s, v), cd->state[v], cd->scratch, (float)s->m.rest[v], cd->compute);
            CU(s, cudaMemcpyAsync(&x, cd->scratch + s->bad_cell, sizeof x, cudaMemcpyDeviceToHost, cd->compute));
            CU(s, cudaStreamSynchronize(cd->compute));
            if (!std::isfinite(x)) { s->bad_var = v; break; }
        }
    }
}

static void cuda_stim_changed(sim *s)
{
    cuda_data *cd = data(s);
    while (cd->stim_cells.size() < s->nstims) {
        const stimulus &st = s->stims[cd->stim_cells.size()];
        size_t *p = nullptr;
        if (!CU(s, cudaMalloc(&p, std::max<size_t>(1, st.ncells) * sizeof(size_t)))) return;
        upload(s, p, st.cells, st.ncells * sizeof(size_t));
        cd->stim_cells.push_back(p);
    }
    cd->stim_any = 0;
    for (size_t q = 0; q < s->nstims; q++)
        stimulus_scatter(cd->map, s->fp64, cd->istim, cd->stim_cells[q], s->stims[q].ncells, 0, 0, cd->compute);
    for (size_t q = 0; q < s->nstims; q++) {
        if (!s->stim_on[q]) continue;
        cd->stim_any = 1;
        stimulus_scatter(cd->map, s->fp64, cd->istim, cd->stim_cells[q], s->stims[q].ncells, s->stims[q].amplitude, 1,
                         cd->compute);
    }
    CU(s, cudaGetLastError());
}

// Regional parameters: the labels in storage order and the table of sets in
// the state's precision, both allocated on first use; no labels (the kernels'
// null test) when every cell uses the simulation's own parameters again.
static void cuda_params_changed(sim *s)
{
    cuda_data *cd = data(s);
    char terr[256];
    if (!upload_tables(s, terr, sizeof terr)) sim_fail(s, "rate tables: %s", terr);
    if (!s->plabel) {
        cd->base.plabel = nullptr;
        return;
    }
    char err[256];
    if ((!cd->plabel && !dev_alloc((void **)&cd->plabel, cd->nstore, err, sizeof err)) ||
        (!cd->ptable && !dev_alloc(&cd->ptable, (size_t)PARAM_SETS_MAX * MODEL_MAX_PARAM * cd->esize, err, sizeof err))) {
        sim_fail(s, "regional parameters: %s", err);
        return;
    }
    std::vector<uint8_t> lab = in_store_order<uint8_t>(cd, std::vector<uint8_t>(s->plabel, s->plabel + s->lg.ncells), 0);
    std::vector<unsigned char> tab((size_t)s->npsets * MODEL_MAX_PARAM * cd->esize, 0);
    double p[MODEL_MAX_PARAM];
    for (int L = 0; L < s->npsets; L++) {
        model_step_params(s->m.def, sim_param_set(s, L), p);
        for (int q = 0; q < model_slots(s->m.def); q++) {
            const size_t at = (size_t)L * MODEL_MAX_PARAM + q;
            if (s->fp64) ((double *)tab.data())[at] = p[q];
            else ((float *)tab.data())[at] = (float)p[q];
        }
    }
    // on the compute stream: after the kernels that read the old tables, before those that read the new
    upload(s, cd->plabel, lab.data(), lab.size());
    upload(s, cd->ptable, tab.data(), tab.size());
    cd->base.plabel = cd->plabel;
    cd->base.ptable = cd->ptable;
}

static void cuda_get_field(sim *s, int var, float *dst)
{
    cuda_data *cd = data(s);
    export_field(cd->map, var_kind(s, var), cd->state[var], cd->scratch, (float)s->m.rest[var], cd->compute);
    CU(s, cudaMemcpyAsync(dst, cd->scratch, s->lg.ncells * sizeof(float), cudaMemcpyDeviceToHost, cd->compute));
    CU(s, cudaStreamSynchronize(cd->compute));
}

static void cuda_set_field(sim *s, int var, const float *src)
{
    cuda_data *cd = data(s);
    rest_forget(s);
    CU(s, cudaMemcpyAsync(cd->scratch, src, s->lg.ncells * sizeof(float), cudaMemcpyHostToDevice, cd->compute));
    import_field(cd->map, var_kind(s, var), cd->scratch, cd->state[var], cd->compute);
    CU(s, cudaStreamSynchronize(cd->compute));
}

// Native-precision copies (checkpoints) through a temporary device buffer.
// The host side is in the simulation's precision (cd->esize); a state the
// GPU stores in float under "mixed" is widened on the way out (exactly) and
// rounded on the way in (a value the mixed step itself would produce stays);
// a half state of "fp32h" is widened to float, and rounded back, on the device.
static void cuda_get_state(sim *s, int var, void *dst)
{
    cuda_data *cd = data(s);
    const size_t n = s->lg.ncells, bytes = n * (var_kind(s, var) == STORE_F64 ? sizeof(double) : sizeof(float));
    void *tmp = nullptr;
    if (!CU(s, cudaMalloc(&tmp, bytes))) return;
    export_state(cd->map, var_kind(s, var), cd->state[var], tmp, s->m.rest[var], cd->compute);
    std::vector<float> narrow(var_kind(s, var) == STORE_F32 && cd->esize == sizeof(double) ? n : 0);
    CU(s, cudaMemcpyAsync(narrow.empty() ? dst : narrow.data(), tmp, bytes, cudaMemcpyDeviceToHost, cd->compute));
    CU(s, cudaStreamSynchronize(cd->compute));
    for (size_t c = 0; c < narrow.size(); c++) ((double *)dst)[c] = narrow[c];
    cudaFree(tmp);
}

// Quiescent cells' lags (core/engine/quiescence.h; blockDS only) from and
// to their stamps, through a host copy of the stamps in storage order.
static void cuda_get_lags(sim *s, unsigned char *dst)
{
    cuda_data *cd = data(s);
    std::vector<uint8_t> st(cd->nstore);
    if (cd->stamp && !CU(s, cudaMemcpy(st.data(), cd->stamp, cd->nstore, cudaMemcpyDeviceToHost))) return;
    for (size_t c = 0; c < s->lg.ncells; c++) {
        const size_t q = cd->stamp ? block_store_index(&cd->hblocks, c) : (size_t)-1;
        dst[c] = q == (size_t)-1 ? 0 : (unsigned char)quiescent_lag(s->nstep, st[q]);
    }
}

static void cuda_set_lags(sim *s, const unsigned char *src)
{
    cuda_data *cd = data(s);
    if (!cd->stamp) return;
    std::vector<uint8_t> st(cd->nstore, quiescent_stamp(s->nstep - 1));
    for (size_t c = 0; c < s->lg.ncells; c++) {
        const size_t q = block_store_index(&cd->hblocks, c);
        if (q != (size_t)-1) st[q] = (uint8_t)(s->nstep - src[c]);
    }
    CU(s, cudaStreamSynchronize(cd->compute));
    CU(s, cudaMemcpy(cd->stamp, st.data(), cd->nstore, cudaMemcpyHostToDevice));
}

static void cuda_set_state(sim *s, int var, const void *src)
{
    cuda_data *cd = data(s);
    const size_t n = s->lg.ncells, bytes = n * (var_kind(s, var) == STORE_F64 ? sizeof(double) : sizeof(float));
    void *tmp = nullptr;
    if (!CU(s, cudaMalloc(&tmp, bytes))) return;
    rest_forget(s);
    std::vector<float> narrow(var_kind(s, var) == STORE_F32 && cd->esize == sizeof(double) ? n : 0);
    for (size_t c = 0; c < narrow.size(); c++) narrow[c] = (float)((const double *)src)[c];
    CU(s, cudaMemcpyAsync(tmp, narrow.empty() ? src : narrow.data(), bytes, cudaMemcpyHostToDevice, cd->compute));
    import_state(cd->map, var_kind(s, var), tmp, cd->state[var], cd->compute);
    CU(s, cudaStreamSynchronize(cd->compute));
    cudaFree(tmp);
}

// The row-major tissue mask of the stored part on the device, made on first use.
static bool ensure_mask8(sim *s)
{
    cuda_data *cd = data(s);
    if (cd->mask8) return true;
    const grid *g = &s->lg;
    if (CU(s, cudaMalloc(&cd->mask8, g->ncells)) &&
        upload(s, cd->mask8, g->mask, g->ncells))
        return true;
    cudaFree(cd->mask8);
    cd->mask8 = nullptr;
    return false;
}

// Where the state lives (core/engine/state_view.h): the device arrays in the
// layout's storage, its map, the compute stream, and the tissue mask when asked.
static void cuda_view(sim *s, unsigned want, state_view *v)
{
    cuda_data *cd = data(s);
    if (want & VIEW_WRITE) rest_forget(s);   // a feature changes the state: resting tissue is known no more
    memset(v, 0, sizeof *v);
    v->device = 1;
    v->nstate = s->m.def->nstate;
    for (int k = 0; k < v->nstate; k++) {
        v->var[k] = cd->state[k];
        v->fp64[k] = (unsigned char)var_kind(s, k);
    }
    v->rest = s->m.rest;
    v->ncells = s->lg.ncells;
    v->nstored = cd->nstore;
    v->store = &cd->map;
    v->stream = cd->compute;
    if ((want & VIEW_MASK) && ensure_mask8(s)) v->mask = cd->mask8;
}

static void cuda_snapshot(sim *s, const int *vars, int nvars)
{
    cuda_data *cd = data(s);
    const size_t bytes = s->lg.ncells * sizeof(float);
    for (int q = cd->nstage; q < nvars; q++) {
        if (cudaMalloc(&cd->dstage[q], bytes) != cudaSuccess || cudaMallocHost(&cd->hstage[q], bytes) != cudaSuccess) {
            char b[32];
            format_bytes((double)bytes, b, sizeof b);
            cudaGetLastError();
            sim_fail(s, "out of memory for output staging buffers (%s per field, on the GPU and pinned on the host)", b);
            return;
        }
        cd->nstage = q + 1;
    }
    for (int q = 0; q < nvars; q++)
        export_field(cd->map, var_kind(s, vars[q]), cd->state[vars[q]], cd->dstage[q], (float)s->m.rest[vars[q]], cd->compute);
    CU(s, cudaEventRecord(cd->ev_snap, cd->compute));
    CU(s, cudaStreamWaitEvent(cd->copy, cd->ev_snap, 0));
    for (int q = 0; q < nvars; q++)
        CU(s, cudaMemcpyAsync(cd->hstage[q], cd->dstage[q], bytes, cudaMemcpyDeviceToHost, cd->copy));
    CU(s, cudaEventRecord(cd->ev_copy, cd->copy));
}

static const float *cuda_snapshot_field(sim *s, int q)
{
    cuda_data *cd = data(s);
    if (!CU(s, cudaEventSynchronize(cd->ev_copy))) return nullptr;
    return cd->hstage[q];
}

static double cuda_time_steps(sim *s, long nsteps)
{
    cuda_data *cd = data(s);
    float ms = -1;
    CU(s, cudaEventRecord(cd->t0, cd->compute));
    cuda_step(s, nsteps);
    CU(s, cudaEventRecord(cd->t1, cd->compute));
    if (CU(s, cudaEventSynchronize(cd->t1))) CU(s, cudaEventElapsedTime(&ms, cd->t0, cd->t1));
    return ms;
}

// blockDS's ghost layers through a packed device buffer (host-staged exchange).
static void face_copy_blocks(sim *s, int var, const halo_face *f, void *host, int to_host)
{
    cuda_data *cd = data(s);
    const size_t bytes = f->blocklen * f->nblocks * cd->esize;
    if (bytes > cd->facecap) {
        cudaFree(cd->facebuf);
        cd->facebuf = nullptr;
        cd->facecap = 0;
        if (!CU(s, cudaMalloc(&cd->facebuf, bytes))) return;
        cd->facecap = bytes;
    }
    if (to_host) {
        face_pack(cd->map, s->fp64, cd->state[var], *f, cd->facebuf, s->m.rest[var], cd->compute);
        CU(s, cudaMemcpyAsync(host, cd->facebuf, bytes, cudaMemcpyDeviceToHost, cd->compute));
    } else {
        CU(s, cudaMemcpyAsync(cd->facebuf, host, bytes, cudaMemcpyHostToDevice, cd->compute));
        face_unpack(cd->map, s->fp64, cd->facebuf, *f, cd->state[var], cd->compute);
    }
    CU(s, cudaStreamSynchronize(cd->compute));
}

// Ghost layers (core/parallel/halo.h): one strided copy between the row-major state
// and a pinned host buffer, synchronous (host-staged exchange).
static void cuda_face_copy(sim *s, int var, const halo_face *f, void *host, int to_host)
{
    cuda_data *cd = data(s);
    if (!sim_states_alike(s, var, s->m.def->vindex, 1, "the host-staged exchange of ghost layers")) return;
    if (!to_host) rest_forget(s);
    if (cd->layout == LAYOUT_BLOCK) { face_copy_blocks(s, var, f, host, to_host); return; }
    char *dev = (char *)cd->state[var] + f->offset * cd->esize;
    const size_t w = f->blocklen * cd->esize, pitch = (f->nblocks > 1 ? f->pitch : f->blocklen) * cd->esize;
    if (to_host) CU(s, cudaMemcpy2DAsync(host, w, dev, pitch, w, f->nblocks, cudaMemcpyDeviceToHost, cd->compute));
    else CU(s, cudaMemcpy2DAsync(dev, pitch, host, w, w, f->nblocks, cudaMemcpyHostToDevice, cd->compute));
    CU(s, cudaStreamSynchronize(cd->compute));
}

static void *cuda_host_alloc(size_t bytes)
{
    void *p = nullptr;
    if (cudaMallocHost(&p, bytes) != cudaSuccess) { cudaGetLastError(); return nullptr; }
    return p;
}

static void cuda_host_free(void *p)
{
    if (p) cudaFreeHost(p);
}

extern "C" const backend_ops *backend_cuda_ops(void)
{
    static backend_ops ops;
    if (!ops.name) {
        ops.name = "cuda";
        ops.init = cuda_init;
        ops.step = cuda_step;
        ops.sync = cuda_sync;
        ops.stim_changed = cuda_stim_changed;
        ops.params_changed = cuda_params_changed;
        ops.get_field = cuda_get_field;
        ops.set_field = cuda_set_field;
        ops.snapshot = cuda_snapshot;
        ops.snapshot_field = cuda_snapshot_field;
        ops.time_steps = cuda_time_steps;
        ops.face_copy = cuda_face_copy;
        ops.get_state = cuda_get_state;
        ops.set_state = cuda_set_state;
        ops.get_lags = cuda_get_lags;
        ops.set_lags = cuda_set_lags;
        ops.view = cuda_view;
        ops.host_alloc = cuda_host_alloc;
        ops.host_free = cuda_host_free;
        ops.free = cuda_free;
        ops.ghost_layers = cuda_ghost_layers;
        ops.stepped_share = rest_stepped_share;
    }
    return &ops;
}
