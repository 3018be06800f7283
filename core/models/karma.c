/* Karma model metadata; equations in karma.h. Parameter values: docs/models.md. */
#include "karma.h"
#include "../model.h"

static const var_info states[KARMA_NSTATE] = {
    {"U", "1", "membrane potential (dimensionless)"},
    {"v", "1", "recovery (slow ionic gating) variable"},
};
static const float rest[KARMA_NSTATE] = {0.0f, 0.0f};
static const param_info params[KARMA_NPARAM] = {
    {"gamma", "1", "excitability A* (Karma 1993)", 1.5415f, 0.0f},
    {"vstar", "1", "recovery scale n_B", 0.525f, 1e-6f},
    {"xm", "1", "recovery exponent M (restitution steepness)", 10.0f, 0.0f},
    {"eps", "1/ms", "recovery rate epsilon = tau_E/tau_n", 0.01f, 0.0f},
    {"uh", "1", "centre of the tanh switch", 3.0f, -1e30f},
    {"uv", "1", "threshold of the Heaviside step Theta(U - uv)", 1.0f, -1e30f},
};

static void step(float *y, float idiff, float istim, float dt, const float *p)
{
    karma_step(y, idiff, istim, dt, p);
}

const model_def model_karma = {
    .name = "karma",
    .title = "Karma 1993 two-variable model",
    .citation = "A. Karma, Phys. Rev. Lett. 71:1103-1106 (1993); thesis Vasconcellos 2019 eqs. 2.11-2.12",
    .nstate = KARMA_NSTATE, .nparam = KARMA_NPARAM,
    .states = states, .rest = rest, .params = params,
    .vindex = KARMA_U,
    .activation = 1.0f,
    /* max |d/dU| of -U + excitation over U in [0, 5] at v = 0 is 5.548 (docs/models.md) */
    .max_rate = 6.0f,
    .vmin = 0.0f, .vmax = 4.0f,
    .step = step,
};
