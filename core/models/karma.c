/* Karma model metadata; equations in karma.h, parameters in karma_consts.h. */
#include "../instances.h"
#include "../model.h"

static const var_info states[KARMA_NSTATE] = {
    {"U", "1", "membrane potential (dimensionless)"},
    {"v", "1", "recovery (slow ionic gating) variable"},
};
static const double rest[KARMA_NSTATE] = {0.0, 0.0};
static const param_info params[KARMA_NPARAM] = {KARMA_PARAMS(CARDIAC_PARAM_INFO)};

const model_def model_karma = {
    .id = MODEL_ID_karma,
    .name = "karma",
    .title = "Karma 1993 two-variable model",
    .citation = "A. Karma, Phys. Rev. Lett. 71:1103-1106 (1993); thesis Vasconcellos 2019 eqs. 2.11-2.12",
    .nstate = KARMA_NSTATE, .nparam = KARMA_NPARAM,
    .states = states, .rest = rest, .params = params,
    .vindex = KARMA_U,
    .activation = 1.0,
    /* max |d/dU| of -U + excitation over U in [0, 5] at v = 0 is 5.548 (docs/models.md) */
    .max_rate = 6.0,
    .vmin = 0.0, .vmax = 4.0,
    .step_f32 = karma_step_f32,
    .step_f64 = karma_step_f64,
};
