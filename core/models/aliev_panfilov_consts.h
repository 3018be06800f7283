/* State variables and parameters of the Aliev-Panfilov model
 * (core/models/aliev_panfilov.h); parameter values: docs/models.md. */
#ifndef CARDIAC_MODEL_AP_CONSTS_H
#define CARDIAC_MODEL_AP_CONSTS_H
#include "param_list.h"
enum { AP_V, AP_W, AP_NSTATE };
#define AP_PARAMS(X)                                                                               \
    X(AP_K, "k", "1", 8.0, 0.0, 1e30, "excitation rate constant")                                        \
    X(AP_A, "a", "1", 0.1, 0.0, 1e30, "excitation threshold")                                            \
    X(AP_B, "b", "1", 0.1, -1e30, 1e30, "recovery nullcline offset")                                     \
    X(AP_EPS0, "eps0", "1", 0.01, 0.0, 1e30, "baseline recovery rate")                                   \
    X(AP_MU1, "mu1", "1", 0.07, 0.0, 1e30, "recovery rate factor")                                       \
    X(AP_MU2, "mu2", "1", 0.3, 1e-6, 1e30, "recovery rate offset")                                       \
    X(AP_TNORM, "t_norm", "ms", 1.0, 1e-6, 1e30,                                                       \
      "milliseconds per model time unit (12.9 with the 1996 constants)")                           \
    X(AP_VNORM, "vm_norm", "mV", 100.0, 1e-6, 1e30, "millivolts per unit of u")                          \
    X(AP_VREST, "vm_rest", "mV", -80.0, -1e30, 1e30, "resting potential")
enum { AP_PARAMS(CARDIAC_PARAM_ENUM) AP_NPARAM };
#endif
