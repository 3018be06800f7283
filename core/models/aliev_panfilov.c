/* Aliev-Panfilov model metadata; equations in aliev_panfilov.h, parameters in
 * aliev_panfilov_consts.h. */
#include "instances.h"
#include "model.h"

static const var_info states[AP_NSTATE] = {
    {"V", "mV", "membrane potential, V = vm_rest + vm_norm u"},
    {"v", "1", "recovery variable"},
};
static const double rest[AP_NSTATE] = {-80.0, 0.0};
static const param_info params[AP_NPARAM] = {AP_PARAMS(CARDIAC_PARAM_INFO)};

/* 2 (k (b+1)^2/4 + k) per model time unit (Unat/Cai/Baden's bound), per ms */
static double rate_bound(const double *p)
{
    return 2 * (p[AP_K] * (p[AP_B] + 1) * (p[AP_B] + 1) / 4 + p[AP_K]) / p[AP_TNORM];
}

const model_def model_aliev_panfilov = {
    .id = MODEL_ID_aliev_panfilov,
    .name = "aliev_panfilov",
    .title = "Aliev-Panfilov 1996 two-variable model",
    .citation = "R.R. Aliev, A.V. Panfilov, Chaos Solitons Fractals 7(3):293-301 (1996); "
                "constants of Unat, Cai, Baden (GPU study)",
    .nstate = AP_NSTATE, .nparam = AP_NPARAM,
    .states = states, .rest = rest, .params = params,
    .vindex = AP_V,
    .activation = -70.0,
    .max_rate = 20.84,        /* rate_bound at the defaults */
    .rate_bound = rate_bound,
    .vmin = -80.0, .vmax = 20.0,
    .step_f32 = aliev_panfilov_step_f32,
    .step_f64 = aliev_panfilov_step_f64,
};
