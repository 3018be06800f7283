/* A monodomain simulation: grid, model, diffusion, stimuli, probes, output,
 * and the backend that owns the state and steps it. */
#ifndef CARDIAC_SIM_H
#define CARDIAC_SIM_H
#include <stddef.h>
#include "activation.h"
#include "clamp.h"
#include "decomp.h"
#include "ecg.h"
#include "feature.h"
#include "grid.h"
#include "model.h"
#include "multiscale.h"
#include "output.h"
#include "param_sets.h"
#include "stencil.h"
#include "stimulus.h"
#include "gpu.h"
#include "members.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct probe {
    char name[64];
    size_t *cells; size_t ncells;  /* global cell indices */
    long *lcells;               /* local index of each cell this rank owns, -1 for the others */
    int vars[MODEL_MAX_STATE]; int nvars;
    long every;                 /* sample every this many steps */
    long last_step;             /* step of the last sample, -1 before any */
    /* Samples are counted from the first of the run; memory holds those from
     * `first` on (t and data index q - first). While an output file is open
     * it holds the probe's whole series (row q = sample q), and a sample
     * written there leaves memory (first > 0); closing the output reads them
     * back (first = 0), so no file has to outlive its output (core/measure/probe.c). */
    double *t;                  /* nsamples - first */
    float *data;                /* (nsamples - first) x nvars x ncells */
    size_t first, nsamples, cap;
    size_t nready;              /* rows of data filled in (the GPU fills them at sync) */
    size_t nsaved;              /* samples already written to the output file */
    size_t ncombined;           /* rows summed over the ranks (each fills the cells it owns) */
    void *dev;                  /* the GPU half's buffers (core/measure/probe_cu.cu), or NULL */
} probe;

/* Sample q (first <= q < nsamples) in memory: its time and its row. */
static inline double *probe_time(const probe *p, size_t q) { return p->t + (q - p->first); }
static inline float *probe_row(const probe *p, size_t q)
{
    return p->data + (q - p->first) * (size_t)p->nvars * p->ncells;
}

typedef struct sim sim;
struct halo_face;
struct state_view;
struct tips_dev;

/* A backend owns the state arrays of the cells this rank stores (s->lg: the
 * rank's part of the grid and its ghost layers; the whole grid in one
 * process) and advances them; cell indices and fields passed to a backend are
 * local to s->lg. The CPU backend is
 * core/engine/backend_cpu.c, the CUDA backend cuda/backend_cuda.cu. Operations marked
 * "queue" may return before the work is done (the GPU runs it in order on its
 * stream); sync waits for it. A backend reports failures by sim_fail(). */
typedef struct backend_ops {
    const char *name;
    int  (*init)(sim *s, char *err, size_t errlen);
    void (*step)(sim *s, long nsteps);                 /* queue; stimulus pattern fixed meanwhile */
    void (*sync)(sim *s);                              /* wait; sets bad_cell */
    void (*stim_changed)(sim *s);                      /* the set of active stimuli changed */
    void (*params_changed)(sim *s);                    /* m.p, psets or plabel changed (core/interventions/param_sets.h) */
    void (*get_field)(sim *s, int var, float *dst);    /* lg.ncells values */
    void (*set_field)(sim *s, int var, const float *src);
    void (*snapshot)(sim *s, const int *vars, int nvars); /* queue: copy fields for output */
    const float *(*snapshot_field)(sim *s, int q);        /* wait for the snapshot; its q-th field */
    double (*time_steps)(sim *s, long nsteps);         /* ms that nsteps steps take (benchmarks) */
    /* ghost layers (core/parallel/halo.h): copy a face of var to (to_host) or from host memory */
    void (*face_copy)(sim *s, int var, const struct halo_face *f, void *host, int to_host);
    /* native-precision state (checkpoints): lg.ncells values of esize bytes, row-major */
    void (*get_state)(sim *s, int var, void *dst);
    void (*set_state)(sim *s, int var, const void *src);
    /* quiescent cells (core/engine/quiescence.h): the steps each cell sat
     * out before the next step, lg.ncells bytes row-major (0 for cells not
     * stored); set_lags takes them relative to the current step count */
    void (*get_lags)(sim *s, unsigned char *dst);
    void (*set_lags)(sim *s, const unsigned char *src);
    /* where the state lives, for the features that read or write it between
     * steps (core/engine/state_view.h); want: VIEW_* */
    void (*view)(sim *s, unsigned want, struct state_view *v);
    void *(*host_alloc)(size_t bytes);                 /* buffers for face_copy (pinned on the GPU) */
    void (*host_free)(void *p);
    void (*free)(sim *s);
    /* ghost layers per shared face that the backend's layout needs over
     * nranks ranks, given the whole grid g and the configuration already in s
     * (model, order, precision, layout, tsteps); NULL: the stencil's reach */
    int  (*ghost_layers)(const sim *s, const grid *g, int nranks);
    /* the share of the cell-steps since the start that the steps computed
     * (the rest skipped, cuda/rest_region.cu); NULL: all of them */
    double (*stepped_share)(sim *s);
} backend_ops;

struct h5out;

/* The simulation's fields are the core's: the shell compiles with
 * CARDIAC_SIM_OPAQUE and reads them through the functions of
 * core/engine/sim_fields.c (below). */
#ifndef CARDIAC_SIM_OPAQUE
struct sim {
    grid g;                     /* the whole grid, as the script described it */
    decomp dc;                  /* this rank's part of it (core/parallel/decomp.h) */
    grid lg;                    /* the cells this rank stores: its part and ghost layers */
    int own_lo[3], own_hi[3];   /* the owned cells in lg's indices, [lo, hi) per axis */
    void *halo_buf[2];          /* send and receive buffers of the halo exchange */
    size_t halo_cap;
    int halo_off;               /* benchmarks only: skip the exchange to time compute alone */
    model_inst m;
    stencil st;
    double D[3];                /* an ensemble whose members differ: the last D set for all of them */
    int members;                /* an ensemble (core/engine/members.h): the grid's last axis counts members; 0: none */
    double (*mD)[3];            /* an ensemble: each member's D (mm^2/ms per axis; 0 along the member axis) */
    double *mcoef;              /* an ensemble whose members' D differ: st.mcoef's layers (3 per layer of lg) */
    int order;
    int fp64;                   /* state in double precision */
    int mixed;                  /* precision "mixed": fp64, gate kinetics in float (model.h) */
    int half;                   /* precision "fp32h" or "fp32g": fp32, the model's half_gates in IEEE half (model.h) */
    int frac;                   /* precision "fp32g": and its frac_gates as 16-bit fractions (core/engine/fraction16.h) */
    char layout[16];            /* GPU data layout (cuda backend), "" on the CPU */
    int tsteps;                 /* time steps per kernel for the temporal-blocking layout */
    int multirate;              /* the model's slow states step every this many steps
                                   (core/engine/multirate.h); 0: every step */
    int quiescent;              /* cells below quiet_below sit multirate's holding steps out (core/engine/quiescence.h) */
    int rest_every_cell;        /* step resting tissue too; 0: the GPU's tplane steps skip it (cuda/rest_region.cu) */
    double quiet_below;         /* mV */
    double quiet_diffusion;     /* and a diffusion current below this, mV/ms */
    struct rate_tables *tables; /* the gates' rate tables (core/engine/rate_tables.h), or NULL: none */
    int block[2];               /* GPU thread-block shape, {0, 0} = the layout's default */
    int blocks[3];              /* blockDS block size (core/mesh/blocks.h), {0, 0, 0} = row-major state */
    double dt;
    long nstep;                 /* steps taken; t = t0 + nstep dt */
    double t0;
    double run_rest;            /* ms that sim_steps_for left over, |run_rest| <= dt/2 */
    long chunk;                 /* steps between sim_advance's checks, kept from call to call (0: tsteps or 1) */
    stimulus *stims; size_t nstims;
    clamp *clamps; size_t nclamps;   /* core/interventions/clamp.h */
    multiscale *ms;             /* calcium release units of multiscale models (core/multiscale/multiscale.h), or NULL */
    unsigned char *plabel;      /* parameter set of each stored cell (lg), or NULL: m.p everywhere */
    param_vec *psets;           /* npsets parameter sets, set 0 = m.p (core/interventions/param_sets.h) */
    int npsets;
    unsigned char *stim_on;     /* per stimulus: active in the current step */
    probe **probes; size_t nprobes;
    tracker **trackers; size_t ntrackers;
    ecg_leads **ecgs; size_t necgs;
    struct attached { const feature_ops *ops; void *obj; } *features; size_t nfeatures;  /* core/engine/feature.h */
    struct tips_dev *tips_dev;  /* what the GPU half of sim:tips keeps (core/measure/tips_cu.cu), or NULL */
    struct h5out *out;
    const backend_ops *be;
    void *bd;                   /* backend data */
    long bad_cell;              /* set by the backend: first non-finite cell, -1 if none */
    int bad_var;
    long bad_step;              /* step count after which bad_cell was found */
    long bad_gcell;             /* the first bad cell of all ranks, global index (set at sync) */
    int failed;                 /* a backend operation failed: message in error */
    char error[512];
    int frame_pending;          /* an output snapshot is queued, not yet written */
    double frame_t; long frame_step;
};
#endif

typedef struct {
    const char *backend;        /* "cpu" or "cuda" */
    const char *layout;         /* cuda: "naive", "window", "tower", "tblock" or NULL (auto) */
    int tsteps;                 /* cuda tblock: steps per kernel, 0 = default */
    int block[2];               /* cuda: thread-block shape, {0, 0} = default */
    int blocks[3];              /* blockDS block size, {0, 0, 0} = none (row-major state) */
    int fp64;                   /* double-precision state */
    int mixed;                  /* and the model's mixed step (PRECISION_MIXED) */
    int half;                   /* fp32 with the model's half_gates in half (PRECISION_FP32H) */
    int frac;                   /* and its frac_gates as 16-bit fractions (PRECISION_FP32G; with half) */
    int order;                  /* 2 or 4 */
    int decomp[3];              /* ranks per axis under MPI, 0 = default (slabs along the last axis) */
    int balance_cells;          /* under MPI: parts of equal size, not of equal tissue (core/parallel/decomp.h) */
    int members;                /* an ensemble of this many members along the grid's last axis (core/engine/members.h), 0: none */
    int multirate;              /* the model's slow states step every this many steps (core/engine/multirate.h); 0 or 1: every step */
    int tables;                 /* the gates' Rush-Larsen steps from rate tables (core/engine/rate_tables.h) */
    int quiescent;              /* quiescent cells (core/engine/quiescence.h): below quiescent_below (mV) */
    double quiescent_below;
    double quiescent_diffusion; /* and their diffusion current below this (mV/ms) */
    int rest_every_cell;        /* step resting tissue too (skip_rest = false); 0: skip it where the layout can */
    double dt, D[3];
} sim_config;

extern const backend_ops backend_cpu;

/* Records a backend failure (printf-style); the first message is kept. */
void sim_fail(sim *s, const char *fmt, ...);

/* The simulation time, ms: t0 + steps x dt. */
double sim_time(const sim *s);

/* Creates the simulation (copies grid and model). Returns NULL with a message in err. */
sim *sim_create(const grid *g, const model_inst *m, const sim_config *cfg, char *err, size_t errlen);
void sim_destroy(sim *s);
/* Bytes the state of a simulation needs on the host. */
double sim_bytes_needed(const grid *g, const model_def *d, int fp64);
/* Waits for queued backend work; 0, or -1 with the failure in err. */
int sim_sync(sim *s, char *err, size_t errlen);

/* The largest stable dt (ms) for D and a reaction-rate bound (1/ms). */
double sim_dt_limit(const sim *s, const double D[3], double rate);
/* Checks dt against the stability limit for D and a reaction-rate bound
 * (1/ms); 0 or -1 with err. */
int sim_check_dt(const sim *s, const double D[3], double rate, char *err, size_t errlen);
/* Checks D and dt against the stability limit; 0 or -1 with err. */
int sim_set_diffusion(sim *s, const double D[3], char *err, size_t errlen);
/* The largest spacing that resolves the model's upstroke along each axis
 * (model_resolved_dx for that axis' D and the stencil; 0 where the axis is
 * flat, has no diffusion or the model has no measured value) in lim; returns
 * the first axis whose spacing exceeds its limit, or -1. */
int sim_resolution(const sim *s, double lim[3]);

/* A whole-grid field on every rank from each rank's stored part, which
 * get(s, obj, arg, local) fills (lg.ncells values of esize bytes); every rank
 * contributes its owned cells (collective under MPI). 0, or -1 after sim_fail. */
typedef void (*sim_local_getter)(sim *s, void *obj, int arg, void *local);
int sim_gather_whole(sim *s, sim_local_getter get, void *obj, int arg, void *dst, size_t esize);
/* Where the state lives (core/engine/state_view.h), for a feature's halves. */
void sim_view(sim *s, unsigned want, struct state_view *v);
/* Whether this rank owns global cell c (stores it, and not as a ghost). */
int sim_owns(const sim *s, size_t c);
/* Local index (in lg) of global cell c, or -1 when this rank does not store it. */
long sim_local_index(const sim *s, size_t c);
/* Keeps the stored cells among global cells[0..n), as local indices, in
 * order; returns how many. */
size_t sim_keep_local(const sim *s, size_t *cells, size_t n);
/* Takes ownership of the stimulus. */
void sim_add_stimulus(sim *s, stimulus *st);
/* Probes (core/measure/probe.c, the CPU half, and probe_cu.cu, the GPU half):
 * a sample is taken at its step (the GPU queues it and fills its row at the
 * next sync: probe_flush). */
struct state_view;
void probe_flush(sim *s, probe *p);
void probe_record_cu(sim *s, const struct state_view *v, probe *p, size_t row);
void probe_flush_cu(sim *s, const struct state_view *v, probe *p);
void probe_free_cu(probe *p);
void sample_cells_cu(sim *s, const struct state_view *v, int var, const size_t *cells, size_t n, float *dst);
/* Drops the samples written to the open output file from memory, and takes
 * them all back into memory before it closes (core/measure/probe.c). */
void probe_release(probe *p);
int probe_reload(const struct h5out *o, const sim *s, probe *p, char *err, size_t errlen);
/* Samples q0 .. q0 + n - 1 of p (times and rows of nvars x ncells), from
 * memory or read back from the open output file; after sim_sync. */
int probe_read(const sim *s, const probe *p, size_t q0, size_t n, double *t, float *rows, char *err, size_t errlen);
probe *sim_add_probe(sim *s, const char *name, const size_t *cells, size_t n,
                     const int *vars, int nvars, long every);

typedef void (*progress_fn)(void *ctx, const sim *s, long done, long total, int final);

/* Starts tracking activation of state variable var (core/measure/activation.h) from
 * the current state; NULL with err when the backend cannot allocate it. */
tracker *sim_add_tracker(sim *s, int var, float threshold, float fraction, long every, char *err, size_t errlen);
/* Forgets what a tracker has seen and starts it again from now. */
int sim_restart_tracker(sim *s, tracker *t, char *err, size_t errlen);
/* Starts one layer along the grid's last axis (an ensemble's member,
 * core/engine/members.h) again from the current state, while the tracker
 * has not sampled since its start: maps made at one step boundary for
 * several members, each member's after its own changes there. */
int sim_restart_tracker_layer(sim *s, tracker *t, int layer, char *err, size_t errlen);
/* One map of a tracker over the whole grid, absolute times in ms (collective). */
void sim_track_field(sim *s, tracker *t, int field, float *dst);

/* Samples the pseudo-ECG at ne electrodes every `every` steps from now on
 * (the first sample now). NULL when out of memory. */
ecg_leads *sim_add_ecg(sim *s, const char *name, const double *el, int ne, long every);

/* Advances nsteps. Returns 0, 1 when *interrupt became set (stopped at a step
 * boundary), -1 on error (message in err; e.g. a non-finite state). */
int sim_advance(sim *s, long nsteps, volatile int *interrupt, progress_fn prog, void *ctx,
                char *err, size_t errlen);

/* Samples probes and writes an output frame when due at the current step. */
int sim_record(sim *s, char *err, size_t errlen);

/* Whole-grid views of the distributed state, identical on every rank
 * (collective under MPI: every rank must call them). */
void sim_get_field(sim *s, int var, float *dst);            /* g.ncells values */
void sim_sample(sim *s, int var, const size_t *cells, size_t n, float *dst);
/* The same in the state's own precision (esize = sim_state_size bytes per
 * value): checkpoints that continue bit for bit, sim:set, sim:field, sim:diff. */
size_t sim_state_size(const sim *s);
/* The state's PRECISION_* (core/models/model.h). */
int sim_precision(const sim *s);
/* Whether a backend may store state v in double: all states in fp64, all
 * but the model's float-valued gates (model_def.mixed_float) in mixed, which
 * the GPU stores in float without loss. Host copies of the state (sim_get_state)
 * are in double for every state of an fp64 or mixed simulation. */
int sim_var_fp64(const sim *s, int v);
/* Whether state v is held in IEEE half (precision "fp32h" or "fp32g",
 * model_def.half_gates): stored in half on the GPU, rounded to half after every
 * step on the CPU. */
int sim_var_half(const sim *s, int v);
/* Whether state v is held as a 16-bit fraction (precision "fp32g",
 * model_def.frac_gates; core/engine/fraction16.h), stored and rounded so. */
int sim_var_frac(const sim *s, int v);
/* Whether the GPU stores states a and b alike (both double, both float, or,
 * where half_ok, both half or both fractions), as what reads two states as one type needs (the
 * GPU's phase singularities, the host-staged exchange of ghost layers);
 * otherwise records the failure (sim_fail), naming `what` and the state that
 * differs, and returns 0. */
int sim_states_alike(sim *s, int a, int b, int half_ok, const char *what);
int sim_get_state(sim *s, int var, void *dst);              /* 0, or -1 out of memory */
int sim_set_state(sim *s, int var, const void *src);
/* Quiescent cells: the steps each cell of the whole grid sat out before the
 * next step (core/engine/quiescence.h), for checkpoints; collective under MPI.
 * 0, or -1 out of memory. */
int sim_get_lags(sim *s, unsigned char *dst);
int sim_set_lags(sim *s, const unsigned char *src);
/* Milliseconds nsteps steps take on the slowest rank (they count as steps);
 * exchange = 0 skips the halo exchange under MPI, to time compute alone
 * (the state is then unfit to go on with). */
double sim_time_steps(sim *s, long nsteps, int exchange);
/* After the state was set anew: the non-finite cell seen before is gone. */
void sim_forget_bad_cell(sim *s);
/* The simulation's HDF5 output (core/io/output.h): one at a time. */
int sim_output_open(sim *s, const h5out_config *cfg, char *err, size_t errlen);
void sim_output_close(sim *s);
int sim_output_flush(sim *s, int complete);
const char *sim_output_path(const sim *s);   /* NULL without an output */
/* Its fields, read (core/engine/sim_fields.c). */
const grid *sim_grid(const sim *s);              /* the whole grid, as the script described it */
const model_inst *sim_model(const sim *s);
const double *sim_D(const sim *s);               /* mm^2/ms per axis */
double sim_dt(const sim *s);
int sim_order(const sim *s);                     /* stencil order, 2 or 4 */
int sim_fp64(const sim *s);                      /* state in double precision */
const char *sim_layout(const sim *s);            /* GPU layout, "" on the CPU */
int sim_tsteps(const sim *s);
int sim_tables(const sim *s);                    /* the gates' steps from rate tables (core/engine/rate_tables.h) */
/* The parameters (m.p, psets or plabel) changed: rebuilds what follows them
 * (the rate tables) and tells the backend. */
void sim_params_changed(sim *s);
int sim_multirate(const sim *s);                 /* steps between the slow states' changes; 0: every step */
/* Whether cells below *below (mV), whose diffusion current is under *current
 * (mV/ms), sit multirate's holding steps out (core/engine/quiescence.h);
 * either pointer may be NULL. */
int sim_quiescent(const sim *s, double *below, double *current);
/* Whether resting tissue may be skipped (cardiac.simulation{skip_rest}; cuda/rest_region.cu). */
int sim_skip_rest(const sim *s);
/* The share of the cell-steps since the start that the backend computed
 * (1 but where resting tissue was skipped; waits for the queued steps). */
double sim_stepped_share(sim *s);
const int *sim_block(const sim *s);              /* [2], {0, 0}: the layout's default */
const int *sim_blocks(const sim *s);             /* [3], {0, 0, 0}: no blockDS */
long sim_steps(const sim *s);
const decomp *sim_decomp(const sim *s);
const stencil *sim_stencil(const sim *s);
const char *sim_backend_name(const sim *s);
int sim_failed(const sim *s);
const char *sim_error(const sim *s);
long sim_bad_cell(const sim *s);                 /* first non-finite cell, -1 if none */
long sim_bad_step(const sim *s);
size_t sim_nprobes(const sim *s);
probe *sim_probe_at(const sim *s, size_t q);
size_t sim_necgs(const sim *s);
const multiscale *sim_multiscale(const sim *s);  /* NULL without release units */
/* A parameter preset applied everywhere becomes the simulation's cell type:
 * m's resting state and preset name. */
void sim_adopt_cell_type(sim *s, const model_inst *m);
/* The steps that advance s by ms (the nearest whole number of steps to what
 * the calls so far asked for): the remainder is carried to the next call, so
 * many short runs add up to their sum, and a run shorter than half a step
 * waits for the next instead of never advancing. */
long sim_steps_for(sim *s, double ms);

#ifdef __cplusplus
}
#endif

#endif
