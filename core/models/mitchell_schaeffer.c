/* Mitchell-Schaeffer model metadata; equations in mitchell_schaeffer.h,
 * parameters in mitchell_schaeffer_consts.h. */
#include "instances.h"
#include "model.h"

static const var_info states[MS_NSTATE] = {
    {"v", "1", "membrane potential (dimensionless, 0 at rest)"},
    {"h", "1", "gate of the inward current (1 = open)"},
};
static const double rest[MS_NSTATE] = {0.0, 1.0};
static const param_info params[MS_NPARAM] = {MS_PARAMS(CARDIAC_PARAM_INFO)};

/* max |d(J_in + J_out)/dv| over v in [0, 1], h <= 1: at v = 1, 1/tau_in + 1/tau_out */
static double rate_bound(const double *p) { return 1 / p[MS_TAU_IN] + 1 / p[MS_TAU_OUT]; }

const model_def model_mitchell_schaeffer = {
    .id = MODEL_ID_mitchell_schaeffer,
    .name = "mitchell_schaeffer",
    .title = "Mitchell-Schaeffer 2003 two-current model",
    .citation = "C.C. Mitchell, D.G. Schaeffer, Bull. Math. Biol. 65:767-793 (2003)",
    .nstate = MS_NSTATE, .nparam = MS_NPARAM,
    .states = states, .rest = rest, .params = params,
    .vindex = MS_V,
    .activation = 0.5,
    .max_rate = 3.5,          /* rate_bound at the defaults */
    .rate_bound = rate_bound,
    .vmin = 0.0, .vmax = 1.0,
    .step_f32 = mitchell_schaeffer_step_f32,
    .step_f64 = mitchell_schaeffer_step_f64,
};
