/* Cell-model descriptors: what the solver and the Lua shell need to know about a
 * model besides its equations (which live in core/models/<name>.h). */
#ifndef CARDIAC_MODEL_H
#define CARDIAC_MODEL_H
#include <stddef.h>

#define MODEL_MAX_STATE 64
#define MODEL_MAX_PARAM 64

#include "models/list.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Advance one cell by dt: y is the state, idiff/istim are diffusion and stimulus
 * contributions to dV/dt, p the parameter vector; one per precision. */
typedef void (*cell_step_f32)(float *y, float idiff, float istim, float dt, const float *p);
typedef void (*cell_step_f64)(double *y, double idiff, double istim, double dt, const double *p);

/* Model identifiers, one per entry of CARDIAC_MODELS (core/models/list.h). */
#define MODEL_ID_ENUM(name, nstate, nparam, vindex, params) MODEL_ID_##name,
typedef enum { CARDIAC_MODELS(MODEL_ID_ENUM) MODEL_ID_COUNT } model_id;
#undef MODEL_ID_ENUM

typedef struct {
    const char *name, *units, *desc;
} var_info;

typedef struct {
    const char *name, *units, *desc;
    double value;  /* default */
    double min;    /* smallest accepted value (inclusive) */
    double max;    /* largest accepted value (inclusive) */
} param_info;

/* A named parameter set (e.g. a cell type): the parameters it changes from
 * the defaults, and optionally its own resting state (NULL: the model's). */
typedef struct {
    int param;
    double value;
} param_value;

/* One membrane current's share of the reaction's rate bound: the largest
 * |d(dV/dt)/dV| it contributes (1/ms, other states held) along paced beats at
 * the default value of `param`, which scales it linearly
 * (tests/test_rate_bound.c measures them). */
typedef struct {
    int param;
    double rate;
} rate_share;

/* A parameter whose values are named alternatives (a switch such as
 * gaur_rudy's reading = "sample" | "units"): scripts may give the name, which
 * stands for the value. */
typedef struct {
    int param;
    const char *name, *desc;
    double value;
} param_choice;

typedef struct {
    const char *name, *desc;
    const param_value *values;
    int nvalues;
    const double *rest;
} model_preset;

/* A model's rate tables (cardiac.simulation{tables = true}; docs/numerics.md,
 * "Rate tables"): the Rush-Larsen steps of its count gates as
 * y' = A(V) + B(V) y with A and B interpolated
 * linearly between rows every dv mV from vlo; the step (step_tab_f64) reads
 * row i, gate g at 4 (i count + g): A_i, A_{i+1} - A_i, B_i, B_{i+1} - B_i,
 * and takes the end rows' coefficients beyond them. coeffs gives A(V)
 * and B(V) of every gate for the step's parameters p (model_step_params) and
 * dt; only the parameters of the bits of `params` change them, so that
 * parameter sets alike in those share a table. */
typedef void (*cell_step_tab_f64)(double *y, double idiff, double istim, double dt, const double *p,
                                  const double *tab);
typedef struct model_table {
    int count;
    double vlo, dv;
    int rows;
    unsigned long long params;
    void (*coeffs)(double v, double dt, const double *p, double *a, double *b);
    cell_step_tab_f64 step_tab_f64;
} model_table;

typedef struct model_def {
    model_id id;
    const char *name;       /* key used by cardiac.model(name) */
    const char *title;      /* human-readable name */
    const char *citation;   /* primary source */
    int nstate, nparam;
    const var_info *states;
    const double *rest;     /* resting state */
    const param_info *params;
    int vindex;             /* index of the diffused membrane potential */
    float activation;       /* upstroke threshold for activation times (units of V) */
    float max_rate;         /* bound on |d(dV/dt)/dV| of the reaction, 1/ms, for the dt limit */
    double (*rate_bound)(const double *p);   /* the same bound for parameters p, or NULL: the
                                                shares' bound, or max_rate */
    const rate_share *rate_shares;   /* the currents' shares (rate_shares_bound), or NULL */
    int nrate_shares;
    double resolve_dx[2];   /* the largest grid spacing (mm) at D = 0.2 mm^2/ms at which the
                               model's plane wave runs within about 10% of its converged
                               CV, with the second- and the fourth-order stencil (scaled by
                               sqrt(D / 0.2) for other D: model_resolved_dx); 0: not measured */
    float vmin, vmax;       /* typical range of V, for pictures */
    const model_preset *presets;   /* named parameter sets (cell types), or NULL */
    int npresets;
    const param_choice *choices;   /* named values of switch parameters, or NULL */
    int nchoices;
    /* Values a step reads that follow from the parameters alone (Karma's
     * 1/tau_e): computed once where the parameters are handed to the steps,
     * not in every cell, in nslots - nparam slots after the parameters
     * (model_step_params); derive fills them. 0 and NULL: none. */
    int nslots;
    void (*derive)(double *p);
    cell_step_f32 step_f32;
    cell_step_f64 step_f64;
    cell_step_f64 step_mix; /* precision "mixed" (core/engine/instances.h), or NULL: the model has none */
    unsigned long long mixed_float;   /* states whose values are floats in precision mixed (bit v:
                                         state v), which the GPU stores in float */
    unsigned long long half_gates;    /* states stored in IEEE half in precision fp32h and fp32g (bit
                                         v: state v), or 0: the model has neither */
    unsigned long long frac_gates;    /* states stored as 16-bit fractions of [0, 1] in precision fp32g
                                         (core/engine/fraction16.h), beside half_gates in half, or 0:
                                         the model has no fp32g */
    unsigned long long slow_states;   /* states that multirate stepping (core/engine/multirate.h)
                                         changes every m-th step only (bit v: state v), or 0:
                                         the model has no multirate; none is in half_gates (some
                                         may be in frac_gates) */
    const model_table *table;   /* its rate tables, or NULL: the model has none */
    int multiscale;         /* has calcium release units, which the dyad stage
                               (core/multiscale/multiscale.h) steps before each cell step */
} model_def;

/* A model with concrete parameter values. */
typedef struct {
    const model_def *def;
    double p[MODEL_MAX_PARAM];
    const double *rest;     /* resting state: the model's or its preset's */
    const char *preset;     /* name of the applied preset, or NULL */
} model_inst;

const model_def *model_find(const char *name);
size_t model_count(void);
const model_def *model_at(size_t i);
int model_param_index(const model_def *d, const char *name);
int model_state_index(const model_def *d, const char *name);
void model_init(model_inst *m, const model_def *d);
const model_preset *model_find_preset(const model_def *d, const char *name);
/* The named value `name` of parameter `param` (NULL: none), and the name of a
 * value (NULL: the parameter has no names, or none for this value). */
const param_choice *model_find_choice(const model_def *d, int param, const char *name);
const char *model_choice_name(const model_def *d, int param, double value);
/* The names parameter `param` accepts, joined by ", " into buf ("" if none). */
const char *model_choice_list(const model_def *d, int param, char *buf, size_t len);
/* Resets m to its defaults, then applies preset p. */
void model_apply_preset(model_inst *m, const model_preset *p);
/* The values a step of model d reads (model_slots(d) of them, at most
 * MODEL_MAX_PARAM): the nparam parameters p and the slots derived from them. */
int model_slots(const model_def *d);
void model_step_params(const model_def *d, const double *p, double *out);
/* Bound on the reaction's rate (1/ms) for the parameters of m: the dt limit's share. */
double model_rate_bound(const model_inst *m);
/* Twice the sum of the shares, each scaled by its parameter's ratio to its
 * default (params): the factor 2 covers what the measured beats do not, such
 * as stronger stimuli and the trajectories of changed parameters. */
double rate_shares_bound(const rate_share *s, int n, const param_info *params, const double *p);
/* The largest grid spacing (mm) that resolves the model's upstroke for
 * diffusion D (mm^2/ms) along an axis and a stencil of order 2 or 4: its
 * resolve_dx scaled by sqrt(D / 0.2), since CV grows as sqrt(D) and the
 * front's foot is D / CV long (docs/numerics.md); 0 when not measured. */
double model_resolved_dx(const model_def *d, int order, double D);
/* Precisions of the state and its arithmetic (precision = "fp32" | "fp64" |
 * "mixed" | "fp32h" | "fp32g"). Mixed stores and computes in double except the gate kinetics,
 * which are float (core/engine/instances.h); only models with a step_mix have it.
 * fp32h is fp32 with the gates of model_def.half_gates rounded to IEEE half
 * after every step (core/engine/half_round.h), as the GPU stores them; only
 * models with half_gates have it. fp32g is fp32h with the gates of
 * model_def.frac_gates also in 16 bits, as fractions of [0, 1]
 * (core/engine/fraction16.h); only models with frac_gates have it, and where
 * some are slow states it needs multirate (sim_config.multirate) of at least
 * MODEL_FRAC_MIN_MULTIRATE. */
enum { PRECISION_FP32, PRECISION_FP64, PRECISION_MIXED, PRECISION_FP32H, PRECISION_FP32G };
/* A slow gate (time constants of hundreds of ms) changes by about 1e-4 of its
 * distance to its target in a step of 0.05 ms, under a fraction's resolution
 * near its target: stored in 16 bits it stops short of it. Updated every m-th
 * step by m times the change (multirate), it comes m times closer; m = 10
 * held ORd's slow gates over ten beats (docs/gpu-notebook.md, item 38). */
#define MODEL_FRAC_MIN_MULTIRATE 10
const char *model_precision_name(int precision);
/* One step of one cell (no diffusion) in a PRECISION_*; y is held in double
 * in every precision. */
void model_step_cell(const model_inst *m, double *y, double idiff, double istim, double dt, int precision);

#ifdef __cplusplus
}
#endif

#endif
