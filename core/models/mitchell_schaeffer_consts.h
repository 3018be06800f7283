/* State variables and parameters of the Mitchell-Schaeffer model
 * (core/models/mitchell_schaeffer.h); parameter values: docs/models.md. */
#ifndef CARDIAC_MODEL_MITCHELL_SCHAEFFER_CONSTS_H
#define CARDIAC_MODEL_MITCHELL_SCHAEFFER_CONSTS_H
#include "param_list.h"
enum { MS_V, MS_H, MS_NSTATE };
#define MS_PARAMS(X)                                                                               \
    X(MS_TAU_IN, "tau_in", "ms", 0.3, 1e-6, 1e30, "time constant of the inward current J_in")            \
    X(MS_TAU_OUT, "tau_out", "ms", 6.0, 1e-6, 1e30, "time constant of the outward current J_out")        \
    X(MS_TAU_OPEN, "tau_open", "ms", 120.0, 1e-6, 1e30, "time constant of the gate's recovery (opening)") \
    X(MS_TAU_CLOSE, "tau_close", "ms", 150.0, 1e-6, 1e30, "time constant of the gate's closing")         \
    X(MS_VGATE, "v_gate", "1", 0.13, -1e30, 1e30, "change-over potential of the gate")
enum { MS_PARAMS(CARDIAC_PARAM_ENUM) MS_NPARAM };
#endif
