/* State variables and parameters of the Bueno-Orovio-Cherry-Fenton minimal
 * ventricular model (core/models/bueno_orovio.h); epicardial parameter set;
 * values: docs/models.md. */
#ifndef CARDIAC_MODEL_BUENO_OROVIO_CONSTS_H
#define CARDIAC_MODEL_BUENO_OROVIO_CONSTS_H
#include "param_list.h"
enum { BO_U, BO_V, BO_W, BO_S, BO_NSTATE };
#define BO_PARAMS(X)                                                                              \
    X(BO_UO, "u_o", "1", 0.0, -1e30, 1e30, "resting value of u")                                       \
    X(BO_UU, "u_u", "1", 1.55, -1e30, 1e30, "upper value of u in J_fi")                                \
    X(BO_THV, "theta_v", "1", 0.3, -1e30, 1e30, "threshold of the fast gate v")                         \
    X(BO_THW, "theta_w", "1", 0.13, -1e30, 1e30, "threshold of the slow gate w")                        \
    X(BO_THVM, "theta_vm", "1", 0.006, -1e30, 1e30, "threshold of tau_v-")                              \
    X(BO_THO, "theta_o", "1", 0.006, -1e30, 1e30, "threshold of tau_o")                                 \
    X(BO_TV1M, "tau_v1m", "ms", 60.0, 1e-6, 1e30, "tau_v- below theta_vm")                             \
    X(BO_TV2M, "tau_v2m", "ms", 1150.0, 1e-6, 1e30, "tau_v- above theta_vm")                           \
    X(BO_TVP, "tau_vp", "ms", 1.4506, 1e-6, 1e30, "closing time of v")                                 \
    X(BO_TW1M, "tau_w1m", "ms", 60.0, 1e-6, 1e30, "tau_w- for u well below u_wm")                      \
    X(BO_TW2M, "tau_w2m", "ms", 15.0, 1e-6, 1e30, "tau_w- for u well above u_wm")                      \
    X(BO_KWM, "k_wm", "1", 65.0, 0.0, 1e30, "steepness of tau_w-")                                      \
    X(BO_UWM, "u_wm", "1", 0.03, -1e30, 1e30, "midpoint of tau_w-")                                     \
    X(BO_TWP, "tau_wp", "ms", 200.0, 1e-6, 1e30, "closing time of w")                                  \
    X(BO_TFI, "tau_fi", "ms", 0.11, 1e-6, 1e30, "time constant of the fast inward current")            \
    X(BO_TO1, "tau_o1", "ms", 400.0, 1e-6, 1e30, "tau_o below theta_o")                                \
    X(BO_TO2, "tau_o2", "ms", 6.0, 1e-6, 1e30, "tau_o above theta_o")                                  \
    X(BO_TSO1, "tau_so1", "ms", 30.0181, 1e-6, 1e30, "tau_so for u well below u_so")                   \
    X(BO_TSO2, "tau_so2", "ms", 0.9957, 1e-6, 1e30, "tau_so for u well above u_so")                    \
    X(BO_KSO, "k_so", "1", 2.0458, 0.0, 1e30, "steepness of tau_so")                                    \
    X(BO_USO, "u_so", "1", 0.65, -1e30, 1e30, "midpoint of tau_so")                                     \
    X(BO_TS1, "tau_s1", "ms", 2.7342, 1e-6, 1e30, "tau_s below theta_w")                               \
    X(BO_TS2, "tau_s2", "ms", 16.0, 1e-6, 1e30, "tau_s above theta_w")                                 \
    X(BO_KS, "k_s", "1", 2.0994, 0.0, 1e30, "steepness of s_inf")                                       \
    X(BO_US, "u_s", "1", 0.9087, -1e30, 1e30, "midpoint of s_inf")                                      \
    X(BO_TSI, "tau_si", "ms", 1.8875, 1e-6, 1e30, "time constant of the slow inward current")          \
    X(BO_TWINF, "tau_winf", "1", 0.07, 1e-6, 1e30, "slope of w_inf below theta_o")                      \
    X(BO_WINFS, "w_infstar", "1", 0.94, -1e30, 1e30, "w_inf above theta_o")
enum { BO_PARAMS(CARDIAC_PARAM_ENUM) BO_NPARAM };
#endif
