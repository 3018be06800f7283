// Resting tissue in tplane's launches, host side (the kernels' side and the
// scheme: cuda/rest_region.cuh; docs/gpu.md, "Resting tissue"): whether a
// launch may skip the planes where V is quiet (unchanged and tiny) far from
// any where it is not, the ring of boxes and the planes' stamps it uses, and
// the settling of the skipped planes: before a launch that steps every
// plane, every 64 skipping launches, and at the end of each call to step,
// so that between calls the state is what every cell stepped would have
// made it, to the bit. A launch tracks resting tissue only where that is
// shown: a model of CARDIAC_QUIET_V_MODELS (launch.h) whose step of a quiet
// cell passes the check below for the run's parameters, fp32, no mask, one
// parameter set, one GPU. A launch with a stimulus on steps every plane and
// records its box.
#include <cstring>
#include "backend_cuda_priv.h"

static unsigned f32_bits(float x)
{
    unsigned b;
    std::memcpy(&b, &x, sizeof b);
    return b;
}

// Whether the model's fp32 step of a quiet cell (V at most REST_QUIET_V in
// magnitude, no stimulus) gives V from V and the diffusion term alone, and
// the other states as the step with V = +0 and no diffusion does (which is
// how skipped planes are brought forward), with the other states at rest
// and at a few other values, to the bit: a check of the model's place in
// CARDIAC_QUIET_V_MODELS (launch.h) for the run's parameters, on a sample
// of quiet values (the GPU's runs are checked against unskipped runs to the
// bit by tests/gpu_rest.lua).
static bool quiet_v_holds(const model_def *d, const double *rest, const double *p, double dt)
{
    float pf[MODEL_MAX_PARAM], y[MODEL_MAX_STATE], ref[MODEL_MAX_STATE];
    for (int q = 0; q < model_slots(d); q++) pf[q] = (float)p[q];
    const int vi = d->vindex;
    for (double other : {-1.0, 0.0, 0.5, 1.0, 2.0}) {
        for (int v = 0; v < d->nstate; v++) ref[v] = (float)(v == vi ? 0.0 : other < 0 ? rest[v] : other);
        d->step_f32(ref, 0.0f, -0.0f, (float)dt, pf);   // the catch-up's step
        for (float V : {0.0f, -0.0f, REST_QUIET_V, -REST_QUIET_V, 1.2e-38f, -1.2e-38f, 6e-37f, 3e-33f}) {
            for (float idiff : {0.0f, -0.0f, 1e-31f, -2e-36f}) {
                for (int v = 0; v < d->nstate; v++) y[v] = (float)(v == vi ? V : other < 0 ? rest[v] : other);
                d->step_f32(y, idiff, -0.0f, (float)dt, pf);
                for (int v = 0; v < d->nstate; v++)
                    if (v != vi && f32_bits(y[v]) != f32_bits(ref[v])) return false;
                // V's new value, against the same step with the other states at rest
                float z[MODEL_MAX_STATE];
                for (int v = 0; v < d->nstate; v++) z[v] = (float)(v == vi ? V : rest[v]);
                d->step_f32(z, idiff, -0.0f, (float)dt, pf);
                if (f32_bits(y[vi]) != f32_bits(z[vi])) return false;
            }
        }
    }
    return true;
}

// Whether launch c may track resting tissue (see the file's head), but for
// the model's check (rest_checked).
static bool rest_trackable(const sim *s, const cuda_data *cd, const launch_ctx &c)
{
    const model_def *d = s->m.def;
    if (!sim_skip_rest(s) || !model_quiet_v(d->id) || cd->layout != LAYOUT_TPLANE || cd->xchg || s->ms ||
        c.order != 2 || c.fp64 || c.masked || c.plabel || c.half || c.n[2] < 2)
        return false;
    for (int v = 0; v < d->nstate; v++)
        if (c.out[v] == c.in[v]) return false;   // the skipped planes need both buffers of every state
    return true;
}

// Whether the model's quiet cells pass quiet_v_holds for launch c's step.
// Tissue quiet under one step need not be under another (settled V's decay
// may round away with one D and not with the next), so a change of what the
// step depends on (the coefficients, dt, the members' D, the parameters, the
// resting state; between calls) starts tracking anew; the check, some 300
// host steps of the model, runs only then, not every launch.
static bool rest_checked(sim *s, cuda_data *cd, const launch_ctx &c)
{
    double key[REST_KEY] = {c.coef[0], c.coef[1], c.coef[2], c.dt, (double)s->st.mversion};
    std::memcpy(key + 5, c.p, sizeof c.p);
    std::memcpy(key + 5 + MODEL_MAX_PARAM, s->m.rest, s->m.def->nstate * sizeof(double));
    if (std::memcmp(key, cd->rest_key, sizeof key)) {
        cd->rest_seq = 0;
        std::memcpy(cd->rest_key, key, sizeof key);
        cd->rest_quiet_ok = quiet_v_holds(s->m.def, s->m.rest, c.p, c.dt);
    }
    return cd->rest_quiet_ok;
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

// Fibrillation: where the launches skip next to nothing, tracking costs its
// recording and its kernels' code for nothing. So every REST_PROBE tracked
// launches the count of the plane-steps they stepped is copied to the host,
// asynchronously, and read at the next probe (the copy long done; a probe
// whose copy is not is passed over); where the tracked launches between two
// copies stepped 97% or more of their plane-steps, the next REST_PAUSE
// launches track nothing and run the kernels without its code. Tracking then
// starts anew (two launches that record, then skipping), and the windows
// judged after it start there: the count then is the one copied when the
// pause began (untracked launches count nothing), and the copies queued
// before the pause are not read. A wave in tissue at rest skips far more:
// the thesis' cube never pauses (item 69).
constexpr int REST_PROBE = 64, REST_PAUSE = 512;

// Whether this launch (of `planes` plane-steps) is paused.
static bool rest_paused(sim *s, const launch_ctx &c, long long planes)
{
    cuda_data *cd = data(s);
    if (cd->rest_pause > 0) {
        if (--cd->rest_pause == 0 && CU(s, cudaEventSynchronize(cd->rest_ev))) {
            // the next launch tracks again: the window starts at the count and
            // the tracked plane-steps copied when the pause began
            cd->rest_prev_count = *cd->rest_seen;
            cd->rest_prev_planes = cd->rest_sent_planes;
            cd->rest_prev_valid = true;
            cd->rest_probe_sent = false;
            cd->rest_probe_n = 0;
        }
        return true;
    }
    if (!cd->rest_box || ++cd->rest_probe_n < REST_PROBE) return false;
    cd->rest_probe_n = 0;
    if (!cd->rest_seen && (!CU(s, cudaMallocHost(&cd->rest_seen, sizeof *cd->rest_seen)) ||
                           !CU(s, cudaEventCreateWithFlags(&cd->rest_ev, cudaEventDisableTiming))))
        return false;
    bool pause = false;
    if (cd->rest_probe_sent) {
        if (cudaEventQuery(cd->rest_ev) != cudaSuccess) return false;   // not ready (not an error)
        const unsigned long long now = *cd->rest_seen;
        const long long window = cd->rest_sent_planes - cd->rest_prev_planes;
        pause = cd->rest_prev_valid && window > 0 && (double)(now - cd->rest_prev_count) >= 0.97 * (double)window;
        cd->rest_prev_count = now;
        cd->rest_prev_planes = cd->rest_sent_planes;
        cd->rest_prev_valid = true;
    }
    // the count so far (this launch not yet queued), and the tracked plane-steps it counts
    if (!CU(s, cudaMemcpyAsync(cd->rest_seen, cd->rest_box + 8, sizeof *cd->rest_seen, cudaMemcpyDeviceToHost,
                               c.stream)) ||
        !CU(s, cudaEventRecord(cd->rest_ev, c.stream)))
        return false;
    cd->rest_sent_planes = cd->rest_planes - planes - cd->rest_untracked;
    cd->rest_probe_sent = true;
    if (pause) cd->rest_pause = REST_PAUSE - 1;   // this launch is the pause's first
    return pause;
}

void rest_plan(sim *s, launch_ctx &c)
{
    cuda_data *cd = data(s);
    c.rest = nullptr;
    c.rest_seq = 0;
    c.rest_use = 0;
    c.rest_stamp_in = c.rest_stamp_out = nullptr;
    c.rest_settle = 0;
    const int nz = c.n[2];
    const long long planes = (long long)nz * c.tsteps;
    cd->rest_planes += planes;
    if (!rest_trackable(s, cd, c) || !rest_checked(s, cd, c) || rest_paused(s, c, planes)) {
        if (cd->rest_behind) {   // paused: the skipped planes brought up to date first
            cd->rest_at = c.step0;
            settle_both(s, c);
        }
        cd->rest_seq = 0;
        cd->rest_untracked += planes;
        return;
    }
    // the ring's 8 ints, then the count of plane-steps the launches stepped
    if (!cd->rest_box && (!CU(s, cudaMalloc(&cd->rest_box, 8 * sizeof(int) + sizeof(unsigned long long))) ||
                          !CU(s, cudaMemset(cd->rest_box, 0, 8 * sizeof(int) + sizeof(unsigned long long))) ||
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

double rest_stepped_share(sim *s)
{
    cuda_data *cd = data(s);
    unsigned long long stepped = 0;
    if (cd->rest_box)
        CU(s, cudaMemcpyAsync(&stepped, cd->rest_box + 8, sizeof stepped, cudaMemcpyDeviceToHost, cd->compute)) &&
            CU(s, cudaStreamSynchronize(cd->compute));
    return cd->rest_planes ? (double)(stepped + cd->rest_untracked) / (double)cd->rest_planes : 1.0;
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
    if (cd->rest_seen) cudaFreeHost(cd->rest_seen);
    if (cd->rest_ev) cudaEventDestroy(cd->rest_ev);
}
