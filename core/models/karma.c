/* Karma model metadata; equations in karma.h. Parameter values: docs/models.md. */
#include "../instances.h"
#include "../model.h"

static const var_info states[KARMA_NSTATE] = {
    {"U", "1", "membrane potential (dimensionless)"},
    {"v", "1", "recovery (slow ionic gating) variable"},
};
static const double rest[KARMA_NSTATE] = {0.0, 0.0};
static const param_info params[KARMA_NPARAM] = {
    {"gamma", "1", "excitability A* (Karma 1993)", 1.5415, 0.0},
    {"vstar", "1", "recovery scale n_B", 0.525, 1e-6},
    {"xm", "1", "recovery exponent M (restitution steepness)", 10.0, 0.0},
    {"eps", "1/ms", "recovery rate epsilon = tau_E/tau_n", 0.01, 0.0},
    {"uh", "1", "centre of the tanh switch", 3.0, -1e30},
    {"uv", "1", "threshold of the Heaviside step Theta(U - uv)", 1.0, -1e30},
};

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
