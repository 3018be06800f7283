/* Aliev-Panfilov model metadata; equations in aliev_panfilov.h. */
#include "aliev_panfilov.h"
#include "../model.h"

static const var_info states[AP_NSTATE] = {
    {"V", "mV", "membrane potential, V = vm_rest + vm_norm u"},
    {"v", "1", "recovery variable"},
};
static const float rest[AP_NSTATE] = {-80.0f, 0.0f};
static const param_info params[AP_NPARAM] = {
    {"k", "1", "excitation rate constant", 8.0f, 0.0f},
    {"a", "1", "excitation threshold", 0.1f, 0.0f},
    {"b", "1", "recovery nullcline offset", 0.1f, -1e30f},
    {"eps0", "1", "baseline recovery rate", 0.01f, 0.0f},
    {"mu1", "1", "recovery rate factor", 0.07f, 0.0f},
    {"mu2", "1", "recovery rate offset", 0.3f, 1e-6f},
    {"t_norm", "ms", "milliseconds per model time unit (12.9 with the 1996 constants)", 1.0f, 1e-6f},
    {"vm_norm", "mV", "millivolts per unit of u", 100.0f, 1e-6f},
    {"vm_rest", "mV", "resting potential", -80.0f, -1e30f},
};

static void step(float *y, float idiff, float istim, float dt, const float *p)
{
    aliev_panfilov_step(y, idiff, istim, dt, p);
}

const model_def model_aliev_panfilov = {
    .name = "aliev_panfilov",
    .title = "Aliev-Panfilov 1996 two-variable model",
    .citation = "R.R. Aliev, A.V. Panfilov, Chaos Solitons Fractals 7(3):293-301 (1996); "
                "constants of Unat, Cai, Baden (GPU study)",
    .nstate = AP_NSTATE, .nparam = AP_NPARAM,
    .states = states, .rest = rest, .params = params,
    .vindex = AP_V,
    .activation = -70.0f,
    /* 2 (k (b+1)^2/4 + k) per model time unit (Unat/Cai/Baden's bound), for t_norm >= 1 ms */
    .max_rate = 20.84f,
    .vmin = -80.0f, .vmax = 20.0f,
    .step = step,
};
