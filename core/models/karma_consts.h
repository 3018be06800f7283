/* State variables and parameters of the Karma model (core/models/karma.h);
 * parameter values: docs/models.md. */
#ifndef CARDIAC_MODEL_KARMA_CONSTS_H
#define CARDIAC_MODEL_KARMA_CONSTS_H
#include "param_list.h"
enum { KARMA_U, KARMA_V, KARMA_NSTATE };
#define KARMA_PARAMS(X)                                                                            \
    X(KARMA_GAMMA, "gamma", "1", 1.5415, 0.0, 1e30, "excitability A* (Karma 1993)")                      \
    X(KARMA_VSTAR, "vstar", "1", 0.525, 1e-6, 1e30, "recovery scale n_B")                                \
    X(KARMA_XM, "xm", "1", 10.0, 0.0, 1e30, "recovery exponent M (restitution steepness)")               \
    X(KARMA_EPS, "eps", "1", 0.01, 0.0, 1e30, "time-scale ratio epsilon = tau_e/tau_n")                   \
    X(KARMA_UH, "uh", "1", 3.0, -1e30, 1e30, "centre of the tanh switch")                                \
    X(KARMA_UV, "uv", "1", 1.0, -1e30, 1e30, "threshold of the Heaviside step Theta(U - uv)")          \
    X(KARMA_TAUE, "tau_e", "ms", 2.5, 1e-6, 1e30, "time constant tau_E of U (ms per model time unit)")
enum { KARMA_PARAMS(CARDIAC_PARAM_ENUM) KARMA_NPARAM };
/* What the step reads beside the parameters, derived from them once
 * (karma_derive; core/models/model.h, nslots): 1/tau_e and eps/tau_e, 1/ms. */
enum { KARMA_RATE_U = KARMA_NPARAM, KARMA_RATE_V, KARMA_NSLOT };
#endif
