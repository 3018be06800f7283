/* Indices of the Aliev-Panfilov model's state variables and parameters (core/models/aliev_panfilov.h). */
#ifndef CARDIAC_MODEL_AP_CONSTS_H
#define CARDIAC_MODEL_AP_CONSTS_H
enum { AP_V, AP_W, AP_NSTATE };
enum { AP_K, AP_A, AP_B, AP_EPS0, AP_MU1, AP_MU2, AP_TNORM, AP_VNORM, AP_VREST, AP_NPARAM };
#endif
