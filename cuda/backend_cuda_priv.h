// The CUDA backend's private state and the functions its files share
// (cuda/backend_cuda.cu: allocation, stepping, fields; cuda/layout_policy.cu:
// which layout, steps per kernel and thread block; cuda/split_step.cu: the
// overlapped stepping of a grid split over ranks). Nothing outside these
// files includes it: features reach the state through the state view
// (core/engine/state_view.h).
#ifndef CARDIAC_BACKEND_CUDA_PRIV_H
#define CARDIAC_BACKEND_CUDA_PRIV_H
#include <array>
#include <vector>
#include "cuda_check.h"
#include "exchange.h"
#include "launch.h"
#include "sim.h"

constexpr int REST_KEY = 5 + MODEL_MAX_PARAM + MODEL_MAX_STATE;   // cuda_data::rest_key's values

struct cuda_data {
    int layout;
    size_t esize, nstore;                 // bytes per value (mixed: of the double states), values per state array
    store_map map;
    launch_ctx base;                      // the fields that do not change between launches
    void *state[MODEL_MAX_STATE], *next[MODEL_MAX_STATE];
    void *istim;
    int stim_any;
    std::vector<size_t *> stim_cells;     // device copies of each stimulus's cells
    uint8_t *plabel;                      // parameter set per stored cell, made on first use (core/interventions/param_sets.h)
    void *ptable;                         // the sets in the state's precision, MODEL_MAX_PARAM apart
    double *dtab;                         // the rate tables (core/engine/rate_tables.h), or null
    uint8_t *dtab_of_set;                 // and the table of each parameter set
    size_t dtab_bytes;                    // dtab's size
    uint16_t *flags;
    double *mcoef;                        // an ensemble whose members' D differ: coef per view z layer (launch.h)
    unsigned mversion;                    // of the stencil's layers (core/engine/stencil.h) copied there
    float *phi;                           // phase field in storage order, or null
    uint8_t *mask8;                       // the row-major tissue mask (state_view VIEW_MASK), made on first use
    uint8_t *stamp;                       // quiescent cells: each stored cell's due step mod 256 (core/engine/quiescence.h), or null
    block_map hblocks;                    // blockDS map with host tables (LAYOUT_BLOCK)
    uint32_t *dslot, *dorigin;            // its tables on the device
    int32_t *dnbr;
    unsigned long long *bad;
    cudaStream_t compute, copy;
    cudaEvent_t ev_snap, ev_copy, t0, t1;
    float *scratch;                       // one float field, for get/set
    float *dstage[MODEL_MAX_STATE], *hstage[MODEL_MAX_STATE];
    int nstage;
    // Split over ranks: the exchange, a second stream on which the interior
    // computes while the boundary layers' exchange runs on `compute`, and the
    // owned cells as view boxes {lo0, lo1, lo2, hi0, hi1, hi2}.
    gpu_exchange *xchg;
    cudaStream_t interior;
    cudaEvent_t ev_step, ev_inner;
    std::vector<std::array<int, 6>> edges;  // the layers next to shared faces
    std::array<int, 6> inner;               // the rest, which needs no ghost
    std::array<int, 6> own;                 // all owned cells (view axes)
    // blockDS: the same as ranges of storage indices [lo, hi): the stored
    // blocks that reach into the edge layers or ghost layers (first), and
    // the rest (block rows along z are contiguous in storage)
    std::vector<std::array<size_t, 2>> qedges;
    std::array<size_t, 2> qinner;
    void *facebuf;                          // blockDS, host-staged exchange: one face, packed
    size_t facecap;
    bool xy_split;                          // split along x or y (tplane: no overlap)
    // tplane on z slabs with the copy engines' exchange: one launch computes
    // the planes next to the shared faces first and counts them in face_sig
    // (launch.h, face_signal); the `sends` stream copies each face once
    // counted, while the launch goes on (split_step.cu)
    bool faces_first;
    unsigned *face_sig;
    unsigned face_launches;                 // launches that counted their faces
    cudaStream_t sends;
    cudaEvent_t ev_sent;
    // resting tissue (cuda/rest_region.cu): the ring of four boxes on the
    // device, the tracked launches since it was cleared (0: clear it), the
    // step each plane of `state` ([0]) and of `next` holds, and whether
    // planes of `state` may be behind
    int *rest_box;
    unsigned long long rest_seq;
    long long *rest_stamp[2];
    bool rest_behind;                       // launches skipped planes since the last settle
    int rest_since_settle;                  // such launches
    long long rest_at, rest_last_step0;     // the step the launches reached; the last one's first step
    long long rest_planes, rest_untracked;  // plane-steps of all launches; of those that tracked nothing
    // what a quiet cell's step depends on, as the last launch that could
    // track had it (the coefficients, dt, the members' D, the parameters, the
    // resting state), and whether the model's check passed for it
    double rest_key[REST_KEY];
    bool rest_quiet_ok;
    // tracking paused where the launches skip next to nothing (rest_paused):
    // launches left in the pause, tracked launches since the last probe; the
    // count of stepped plane-steps copied to the host at the last probe
    // (rest_seen, when rest_ev has passed) and read at the one before, with
    // the tracked plane-steps queued at each
    int rest_pause, rest_probe_n;
    bool rest_probe_sent, rest_prev_valid;
    unsigned long long *rest_seen, rest_prev_count;
    long long rest_sent_planes, rest_prev_planes;
    cudaEvent_t rest_ev;
};


inline cuda_data *data(sim *s) { return (cuda_data *)s->bd; }
// How state v is stored (STORE_F32, STORE_F64, STORE_F16, STORE_U16;
// launch.h): double in fp64 but for the float-valued gates of precision
// "mixed" (sim_var_fp64), half for the half gates of precisions "fp32h" and
// "fp32g" (sim_var_half), a 16-bit fraction for the other gates of "fp32g"
// (sim_var_frac), else float.
inline int var_kind(const sim *s, int v)
{
    return sim_var_fp64(s, v) ? STORE_F64 : sim_var_half(s, v) ? STORE_F16 : sim_var_frac(s, v) ? STORE_U16 : STORE_F32;
}
// The first state of v's pair of 16-bit states, as the kernels pair them
// (pair_first, device_common.cuh): fp32h's half gates in one group, fp32g's
// in four (half or fraction, slow or not).
inline int var_pair_first(const sim *s, int v)
{
    const model_def *d = s->m.def;
    if (!s->frac) return half_pair_first(d->half_gates, v);
    return pair16_first(d->half_gates | d->frac_gates, d->frac_gates, d->slow_states, v);
}
// Bytes per stored cell that state v's own array takes: a 16-bit state that
// is the second of its pair lives in its first's words (var_pair_first).
inline size_t var_esize(const sim *s, int v)
{
    const int k = var_kind(s, v);
    if (k == STORE_F16 || k == STORE_U16) return var_pair_first(s, v) == v ? 4 : 0;
    return k == STORE_F64 ? sizeof(double) : sizeof(float);
}
// Grid to kernel view: 2D grids run as nx x 1 x ny so that the kernels that
// march along z march along y (the view's linear index equals the grid's).
void make_view(const grid *g, int n[3], int axis_of[3]);
int fail_init(char *err, size_t errlen, const char *what, cudaError_t e);

// Layout policy (cuda/layout_policy.cu).
// Why s's configuration cannot run its layout (into err, -1), or 0.
int layout_refusal(const sim *s, char *err, size_t errlen);
// The layout s runs: asked for, else the fastest measured for its grid.
int pick_layout(const sim *s);
// Steps per kernel by default for a temporal layout on grid g.
int default_tsteps(const sim *s, const grid *g, int layout);
// Whether every parameter of s's model is at its default and no cell has a
// parameter set of its own: the launches then run the kernels with the
// defaults folded in at compile time (current_ctx), else the general ones.
bool params_folded(const sim *s);
// Ghost layers per shared face the layout needs over nranks ranks (backend_ops.ghost_layers).
int cuda_ghost_layers(const sim *s, const grid *g, int nranks);
// The thread block of a layout on view n, in threads.
void block_shape(const sim *s, int layout, const int n[3], int *bx, int *by);
// tplane's block {bx, by} checked against its tiles and shared memory (into err, -1), or 0.
int check_tplane_block(const sim *s, const int n[3], int bx, int by, char *err, size_t errlen);
// Queues one launch of the layout's kernel (c.stream).
void launch_layout(int layout, const launch_ctx &c);

// Resting tissue (cuda/rest_region.cu). rest_plan: the resting-tissue
// fields of launch c, which follows every launch planned before it;
// rest_swap: state and next swapped after it; rest_settle: at the end of a
// call to step (`last` its last launch, `step` the step it reached), the
// planes of `state` that launches skipped brought to that step;
// rest_forget: the state changed outside the steps (the next launches step
// every plane until they know again where V is quiet); rest_free.
void rest_plan(sim *s, launch_ctx &c);
void rest_swap(sim *s);
void rest_settle(sim *s, const launch_ctx &last, long long step);
void rest_forget(sim *s);
void rest_free(cuda_data *cd);
// The share of the launches' plane-steps stepped (1 where none skipped).
double rest_stepped_share(sim *s);

// Split over ranks (cuda/split_step.cu).
// Stream priorities: the highest for `compute`, the lowest for `interior`.
int stream_priority(bool high);
// The interior stream, the boxes or storage ranges and the exchange.
int init_split(sim *s, cuda_data *cd, char *err, size_t errlen);
// One step (naive, blockDS) or k <= K steps (tplane) of a split run.
void split_step(sim *s, launch_ctx &c);
void split_tplane_step(sim *s, launch_ctx &c);

#endif
