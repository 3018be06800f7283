/* Aliev-Panfilov model metadata; equations in aliev_panfilov.h. */
#include "../instances.h"
#include "../model.h"

static const var_info states[AP_NSTATE] = {
    {"V", "mV", "membrane potential, V = vm_rest + vm_norm u"},
    {"v", "1", "recovery variable"},
};
static const double rest[AP_NSTATE] = {-80.0, 0.0};
static const param_info params[AP_NPARAM] = {
    {"k", "1", "excitation rate constant", 8.0, 0.0},
    {"a", "1", "excitation threshold", 0.1, 0.0},
    {"b", "1", "recovery nullcline offset", 0.1, -1e30},
    {"eps0", "1", "baseline recovery rate", 0.01, 0.0},
    {"mu1", "1", "recovery rate factor", 0.07, 0.0},
    {"mu2", "1", "recovery rate offset", 0.3, 1e-6},
    {"t_norm", "ms", "milliseconds per model time unit (12.9 with the 1996 constants)", 1.0, 1e-6},
    {"vm_norm", "mV", "millivolts per unit of u", 100.0, 1e-6},
    {"vm_rest", "mV", "resting potential", -80.0, -1e30},
};

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
    /* 2 (k (b+1)^2/4 + k) per model time unit (Unat/Cai/Baden's bound), for t_norm >= 1 ms */
    .max_rate = 20.84,
    .vmin = -80.0, .vmax = 20.0,
    .step_f32 = aliev_panfilov_step_f32,
    .step_f64 = aliev_panfilov_step_f64,
};
