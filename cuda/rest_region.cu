// Resting tissue in tplane's launches, host side (the kernels' side and the
// scheme: cuda/rest_region.cuh; docs/gpu.md, "Resting tissue"): whether a
// launch may skip the planes where V is +0 far from any where it is not,
// the ring of boxes and the planes' stamps it uses, and the settling of the
// skipped planes: before a launch that steps every plane, every 64 skipping
// launches, and at the end of each call to step, so that between calls the
// state is what every cell stepped would have made it, to the bit. A launch
// tracks resting tissue only where that is shown: a model of
// CARDIAC_ZERO_V_MODELS (launch.h) whose step keeps V = +0 for the run's
// parameters, fp32, no mask, one parameter set, one GPU. A launch with a
// stimulus on steps every plane and records its box.
#include <cstring>
#include "backend_cuda_priv.h"

// Whether the model's fp32 step from V = +0, with no diffusion and no
// stimulus, keeps V at +0 (bits, not value) for the step's values p, with
// the other states at rest and at a few other values: a check of the
// model's place in CARDIAC_ZERO_V_MODELS (launch.h) for the run's
// parameters (the GPU's runs are checked against unskipped runs to the bit
// by tests/gpu_rest.lua).
static bool zero_v_holds(const model_def *d, const double *rest, const double *p, double dt)
{
    float pf[MODEL_MAX_PARAM], y[MODEL_MAX_STATE];
    for (int q = 0; q < model_slots(d); q++) pf[q] = (float)p[q];
    for (double other : {-1.0, 0.0, 0.5, 1.0, 2.0}) {
        for (int v = 0; v < d->nstate; v++) y[v] = (float)(v == d->vindex ? 0.0 : other < 0 ? rest[v] : other);
        d->step_f32(y, 0.0f, -0.0f, (float)dt, pf);
        unsigned b;
        std::memcpy(&b, &y[d->vindex], sizeof b);
        if (b) return false;
    }
    return true;
}

// Whether launch c may track resting tissue (see the file's head).
static bool rest_trackable(const sim *s, const cuda_data *cd, const launch_ctx &c)
{
    const model_def *d = s->m.def;
    if (!sim_skip_rest(s) || !model_zero_v_stays(d->id) || cd->layout != LAYOUT_TPLANE || cd->xchg || s->ms ||
        c.order != 2 || c.fp64 || c.masked || c.plabel || c.half || c.n[2] < 2)
        return false;
    for (int v = 0; v < d->nstate; v++)
        if (c.out[v] == c.in[v]) return false;   // the skipped planes need both buffers of every state
    return zero_v_holds(d, s->m.rest, c.p, c.dt);
}

// Every plane's stamp set to `step`, or (below) those below it (the planes
// a settle brought there).
__global__ void k_rest_stamps(long long *stamp, int nz, long long step, bool below)
{
    const int z = blockIdx.x * blockDim.x + threadIdx.x;
    if (z < nz && (!below || stamp[z] < step)) stamp[z] = step;
}

static void set_stamps(long long *stamp, int nz, long long step, bool below, cudaStream_t st)
{
    k_rest_stamps<<<(nz + 255) / 256, 256, 0, st>>>(stamp, nz, step, below);
}

// The planes of buffer `in` (its stamps: stamp) behind `step` brought to it.
static void settle_buffer(sim *s, const launch_ctx &like, void *const *in, long long *stamp, long long step)
{
    cuda_data *cd = data(s);
    launch_ctx c = like;
    for (int v = 0; v < s->m.def->nstate; v++) c.in[v] = in[v];
    c.rest_settle = 1;
    c.rest_stamp_in = stamp;
    c.step0 = step;
    c.follow = 0;
    launch_layout(cd->layout, c);
    set_stamps(stamp, c.n[2], step, true, c.stream);
}

// Both buffers brought up to date: `state` to the step the launches reached,
// `next` to the step of the last launch's input (its planes that launch
// read hold that step; the others rest and are behind).
static void settle_both(sim *s, const launch_ctx &like)
{
    cuda_data *cd = data(s);
    settle_buffer(s, like, cd->state, cd->rest_stamp[0], cd->rest_at);
    settle_buffer(s, like, cd->next, cd->rest_stamp[1], cd->rest_last_step0);
    cd->rest_behind = 0;
}

void rest_plan(sim *s, launch_ctx &c)
{
    cuda_data *cd = data(s);
    c.rest = nullptr;
    c.rest_seq = 0;
    c.rest_use = 0;
    c.rest_stamp_in = c.rest_stamp_out = nullptr;
    c.rest_settle = 0;
    if (!rest_trackable(s, cd, c)) {
        cd->rest_seq = 0;
        return;
    }
    const int nz = c.n[2];
    if (!cd->rest_box && (!CU(s, cudaMalloc(&cd->rest_box, 8 * sizeof(int))) ||
                          !CU(s, cudaMalloc(&cd->rest_stamp[0], nz * sizeof(long long))) ||
                          !CU(s, cudaMalloc(&cd->rest_stamp[1], nz * sizeof(long long)))))
        return;
    if (cd->rest_seq == 0) {
        // the first tracked launch: every box empty (the launches before may
        // not have cleared them), every plane of the input at this step (a
        // call to step ends with none behind), and the output's planes all
        // written by this launch, which steps them all
        if (!CU(s, cudaMemsetAsync(cd->rest_box, 0, 8 * sizeof(int), c.stream))) return;
        cd->rest_behind = 0;
        cd->rest_since_settle = 0;
        set_stamps(cd->rest_stamp[0], nz, c.step0, false, c.stream);
        set_stamps(cd->rest_stamp[1], nz, c.step0, false, c.stream);
    }
    // the first two only record: a launch reads the boxes of the two before it
    const bool use = cd->rest_seq >= 2 && !c.istim;
    // skipped planes are brought up to date before a launch that steps them
    // all, and every 64 launches, so that a plane the skipping launches
    // take up again is at most 64 launches behind (rest_margin's work)
    if (cd->rest_behind && (!use || cd->rest_since_settle >= 64)) {
        cd->rest_at = c.step0;
        settle_both(s, c);
        cd->rest_since_settle = 0;
    }
    c.rest = cd->rest_box;
    c.rest_seq = (unsigned)cd->rest_seq;
    c.rest_stamp_in = cd->rest_stamp[0];
    c.rest_stamp_out = cd->rest_stamp[1];
    c.rest_use = use;
    cd->rest_behind |= use;
    cd->rest_since_settle += use;
    cd->rest_last_step0 = c.step0;
    cd->rest_seq++;
}

void rest_swap(sim *s)
{
    cuda_data *cd = data(s);
    std::swap(cd->rest_stamp[0], cd->rest_stamp[1]);
}

void rest_settle(sim *s, const launch_ctx &last, long long step)
{
    cuda_data *cd = data(s);
    if (!cd->rest_behind) return;
    cd->rest_at = step;
    settle_both(s, last);
}

void rest_forget(sim *s)
{
    data(s)->rest_seq = 0;
}

void rest_free(cuda_data *cd)
{
    cudaFree(cd->rest_box);
    cudaFree(cd->rest_stamp[0]);
    cudaFree(cd->rest_stamp[1]);
}
