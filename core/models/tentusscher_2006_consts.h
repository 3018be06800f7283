/* State variables and parameters of the ten Tusscher-Panfilov 2006 human
 * ventricular model (core/models/tentusscher_2006.h); values and sources:
 * docs/models.md. */
#ifndef CARDIAC_MODEL_TENTUSSCHER_2006_CONSTS_H
#define CARDIAC_MODEL_TENTUSSCHER_2006_CONSTS_H
#include "param_list.h"
/* The 19 states in the order of the authors' code. */
enum {
    TP_V, TP_CAI, TP_CASR, TP_CASS, TP_NAI, TP_KI,
    TP_M, TP_H, TP_J,              /* INa */
    TP_XR1, TP_XR2, TP_XS,         /* IKr, IKs */
    TP_R, TP_S,                    /* Ito */
    TP_D, TP_F, TP_F2, TP_FCASS,   /* ICaL */
    TP_RR,                         /* RyR: fraction not inactivated (R-bar) */
    TP_NSTATE
};
/* Cell type: 0 endocardial, 1 epicardial, 2 mid-myocardial (M). The
 * conductances are the epicardial values; the type sets Ito's s gate
 * kinetics and scales g_to (endo: 0.073/0.294) and g_ks (M: 0.098/0.392), as
 * in the paper. Set it with cell = "endo" etc. */
#define TP_PARAMS(X)                                                                              \
    X(TP_CELLTYPE, "celltype", "1", 1.0, 0.0, 2.0, "cell type: 0 endo, 1 epi, 2 M (use cell = ...)") \
    X(TP_NAO, "nao", "mM", 140.0, 1e-6, 1e30, "extracellular Na+")                                \
    X(TP_CAO, "cao", "mM", 2.0, 1e-6, 1e30, "extracellular Ca2+")                                 \
    X(TP_KO, "ko", "mM", 5.4, 1e-6, 1e30, "extracellular K+")                                     \
    X(TP_GNA, "g_na", "nS/pF", 14.838, 0.0, 1e30, "fast Na+ conductance")                         \
    X(TP_GK1, "g_k1", "nS/pF", 5.405, 0.0, 1e30, "inward rectifier conductance (at ko = 5.4)")    \
    X(TP_GKR, "g_kr", "nS/pF", 0.153, 0.0, 1e30, "rapid delayed rectifier conductance (at ko = 5.4)") \
    X(TP_GKS, "g_ks", "nS/pF", 0.392, 0.0, 1e30, "slow delayed rectifier conductance (epi)")      \
    X(TP_GTO, "g_to", "nS/pF", 0.294, 0.0, 1e30, "transient outward conductance (epi)")           \
    X(TP_GCAL, "g_cal", "cm/ms/uF", 3.98e-5, 0.0, 1e30, "L-type Ca2+ conductance")                \
    X(TP_PNAK, "p_nak", "pA/pF", 2.724, 0.0, 1e30, "Na+/K+ pump maximum")                         \
    X(TP_KNACA, "k_naca", "pA/pF", 1000.0, 0.0, 1e30, "Na+/Ca2+ exchanger maximum")               \
    X(TP_GPCA, "g_pca", "pA/pF", 0.1238, 0.0, 1e30, "sarcolemmal Ca2+ pump maximum")              \
    X(TP_GPK, "g_pk", "nS/pF", 0.0146, 0.0, 1e30, "plateau K+ conductance")                       \
    X(TP_GCAB, "g_cab", "nS/pF", 5.92e-4, 0.0, 1e30, "background Ca2+ conductance")               \
    X(TP_GNAB, "g_nab", "nS/pF", 2.9e-4, 0.0, 1e30, "background Na+ conductance")                 \
    X(TP_VREL, "v_rel", "1/ms", 0.102, 0.0, 1e30, "maximal SR release rate (RyR)")                \
    X(TP_VMAXUP, "v_maxup", "mM/ms", 0.006375, 0.0, 1e30, "maximal SERCA uptake")                 \
    X(TP_VLEAK, "v_leak", "1/ms", 3.6e-4, 0.0, 1e30, "SR leak rate")                              \
    X(TP_VXFER, "v_xfer", "1/ms", 0.0038, 0.0, 1e30, "subspace to cytoplasm transfer rate")
enum { TP_PARAMS(CARDIAC_PARAM_ENUM) TP_NPARAM };
#endif
