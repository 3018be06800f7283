/* State variables and parameters of the Fenton-Karma three-variable model
 * (core/models/fenton_karma.h); defaults: the MBR set of the paper's table 1
 * (as in the CellML encoding); values: docs/models.md. */
#ifndef CARDIAC_MODEL_FENTON_KARMA_CONSTS_H
#define CARDIAC_MODEL_FENTON_KARMA_CONSTS_H
#include "param_list.h"
enum { FK_U, FK_V, FK_W, FK_NSTATE };
#define FK_PARAMS(X)                                                                              \
    X(FK_GFI, "g_fi", "1/ms", 4.0, 1e-6, 1e30, "fast inward conductance (tau_d = C_m / g_fi, C_m = 1)") \
    X(FK_TR, "tau_r", "ms", 50.0, 1e-6, 1e30, "time constant of J_so above u_c")                  \
    X(FK_TSI, "tau_si", "ms", 44.84, 1e-6, 1e30, "time constant of the slow inward current")      \
    X(FK_TO, "tau_o", "ms", 8.3, 1e-6, 1e30, "time constant of J_so below u_c")                   \
    X(FK_TVP, "tau_vp", "ms", 3.33, 1e-6, 1e30, "closing time of v")                              \
    X(FK_TV1M, "tau_v1m", "ms", 1000.0, 1e-6, 1e30, "reopening time of v for u_v <= u < u_c")     \
    X(FK_TV2M, "tau_v2m", "ms", 19.2, 1e-6, 1e30, "reopening time of v for u < u_v")              \
    X(FK_TWP, "tau_wp", "ms", 667.0, 1e-6, 1e30, "closing time of w")                             \
    X(FK_TWM, "tau_wm", "ms", 11.0, 1e-6, 1e30, "reopening time of w")                            \
    X(FK_UC, "u_c", "1", 0.13, 0.0, 1.0, "excitation threshold")                                  \
    X(FK_UV, "u_v", "1", 0.055, 0.0, 1.0, "threshold of tau_v-")                                  \
    X(FK_UCSI, "u_csi", "1", 0.85, 0.0, 1e30, "midpoint of J_si's activation")                    \
    X(FK_K, "k", "1", 10.0, 0.0, 1e30, "steepness of J_si's activation")                          \
    X(FK_V0, "V_0", "mV", -85.0, -1e30, 1e30, "resting potential (u = 0), for output in mV")       \
    X(FK_VFI, "V_fi", "mV", 15.0, -1e30, 1e30, "reversal potential of J_fi (u = 1)")
enum { FK_PARAMS(CARDIAC_PARAM_ENUM) FK_NPARAM };
#endif
