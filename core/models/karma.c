/* Karma model metadata; equations in karma.h, parameters in karma_consts.h. */
#include "instances.h"
#include "model.h"

static const var_info states[KARMA_NSTATE] = {
    {"U", "1", "membrane potential (dimensionless)"},
    {"v", "1", "recovery (slow ionic gating) variable"},
};
static const double rest[KARMA_NSTATE] = {0.0, 0.0};
static const param_info params[KARMA_NPARAM] = {KARMA_PARAMS(CARDIAC_PARAM_INFO)};

/* Named parameter sets (docs/models.md gives their sources). */
static const param_value karma1994[] = {{KARMA_TAUE, 2.5}};
static const param_value unit_time[] = {{KARMA_TAUE, 1.0}};
#define COUNT(a) (int)(sizeof a / sizeof a[0])
static const model_preset presets[] = {
    {"karma1994", "Karma 1994's time scale tau_E = 2.5 ms, tau_n = 250 ms, M = 10 (the defaults)", karma1994,
     COUNT(karma1994), NULL},
    {"unit_time", "the former default: one model time unit read as 1 ms, as the thesis' eq. 2.19 steps it",
     unit_time, COUNT(unit_time), NULL},
};

/* A bound on |d(dU/dt)/dU| of the reaction: at v = 0 (the steepest case),
 * d/dU of U^2/(1 + e^{2(U - 3)}) lies within [-2.951, 2.808] for U >= 0, so
 * |-1 + gamma g'| <= 1 + 3 gamma, divided by tau_e (uh = 3; docs/models.md). */
static double rate_bound(const double *p)
{
    return (1 + 3 * p[KARMA_GAMMA]) / p[KARMA_TAUE];
}

const model_def model_karma = {
    .id = MODEL_ID_karma,
    .name = "karma",
    .title = "Karma 1993/1994 two-variable model",
    .citation = "A. Karma, Phys. Rev. Lett. 71:1103-1106 (1993) and Chaos 4:461 (1994); thesis Vasconcellos "
                "2019 eqs. 2.11-2.12",
    .nstate = KARMA_NSTATE, .nparam = KARMA_NPARAM,
    .states = states, .rest = rest, .params = params,
    .vindex = KARMA_U,
    .activation = 1.0,
    .max_rate = 2.25f,          /* rate_bound at the defaults: (1 + 3 x 1.5415) / 2.5 = 2.25 */
    .rate_bound = rate_bound,
    .vmin = 0.0, .vmax = 4.0,
    .presets = presets, .npresets = COUNT(presets),
    .nslots = KARMA_NSLOT, .derive = karma_derive_f64,
    .step_f32 = karma_step_f32,
    .step_f64 = karma_step_f64,
};
