/* Fenton-Karma three-variable model metadata; equations in fenton_karma.h,
 * parameters in fenton_karma_consts.h. */
#include <math.h>
#include "instances.h"
#include "model.h"

static const var_info states[FK_NSTATE] = {
    {"u", "1", "membrane potential (dimensionless; V = V_0 + u (V_fi - V_0))"},
    {"v", "1", "fast gate (of J_fi)"},
    {"w", "1", "slow gate (of J_si)"},
};
static const double rest[FK_NSTATE] = {0.0, 1.0, 1.0};
static const param_info params[FK_NPARAM] = {FK_PARAMS(CARDIAC_PARAM_INFO)};

/* The paper's table 1: fits to the Beeler-Reuter model (BR), to a modified
 * BR (MBR, the defaults) and to a modified Luo-Rudy I model (MLR-I). */
static const param_value mbr[] = {{FK_GFI, 4}};
static const param_value br[] = {{FK_TR, 33.33}, {FK_TSI, 29}, {FK_TO, 12.5}, {FK_TV1M, 1250}, {FK_TV2M, 19.6},
                                 {FK_TWP, 870}, {FK_TWM, 41}, {FK_UV, 0.04}};
static const param_value mlr[] = {{FK_GFI, 5.8}, {FK_TR, 130}, {FK_TSI, 127}, {FK_TO, 12.5}, {FK_TVP, 10},
                                  {FK_TV1M, 18.2}, {FK_TV2M, 18.2}, {FK_TWP, 1020}, {FK_TWM, 80}, {FK_UV, 0}};
#define COUNT(a) (int)(sizeof a / sizeof a[0])
static const model_preset presets[] = {
    {"MBR", "modified Beeler-Reuter fit (the defaults)", mbr, COUNT(mbr), NULL},
    {"BR", "Beeler-Reuter fit", br, COUNT(br), NULL},
    {"MLR-I", "modified Luo-Rudy I fit", mlr, COUNT(mlr), NULL},
};

/* A bound on |d(-(J_fi + J_so + J_si))/du|: J_fi's slope is largest at u = u_c
 * and u = 1, (1 - u_c) g_fi (v <= 1); J_so adds 1 / tau_o below u_c; J_si's
 * sigmoid has slope at most k / (2 tau_si) (w <= 1). */
static double rate_bound(const double *p)
{
    return (1 - p[FK_UC]) * p[FK_GFI] + 1 / p[FK_TO] + p[FK_K] / (2 * p[FK_TSI]);
}

const model_def model_fenton_karma = {
    .id = MODEL_ID_fenton_karma,
    .name = "fenton_karma",
    .title = "Fenton-Karma 1998 three-variable model",
    .citation = "F. Fenton, A. Karma, Chaos 8:20-47 (1998), table 1",
    .nstate = FK_NSTATE, .nparam = FK_NPARAM,
    .states = states, .rest = rest, .params = params,
    .vindex = FK_U,
    .activation = 0.5,
    .max_rate = 3.8f,          /* rate_bound at the defaults: 3.48 + 0.12 + 0.11 */
    .rate_bound = rate_bound,
    .vmin = 0.0, .vmax = 1.0,
    .presets = presets, .npresets = COUNT(presets),
    .step_f32 = fenton_karma_step_f32,
    .step_f64 = fenton_karma_step_f64,
};
