/* State variables and parameters of the O'Hara-Rudy 2011 human ventricular
 * model (core/models/ohara_rudy.h); values and sources: docs/models.md. */
#ifndef CARDIAC_MODEL_OHARA_RUDY_CONSTS_H
#define CARDIAC_MODEL_OHARA_RUDY_CONSTS_H
#include "param_list.h"
/* The 41 states in the order of the authors' code. */
enum {
    ORD_V, ORD_NAI, ORD_NASS, ORD_KI, ORD_KSS, ORD_CAI, ORD_CASS, ORD_CANSR, ORD_CAJSR,
    ORD_M, ORD_HF, ORD_HS, ORD_J, ORD_HSP, ORD_JP,            /* INa */
    ORD_ML, ORD_HL, ORD_HLP,                                  /* INaL */
    ORD_A, ORD_IF, ORD_IS, ORD_AP, ORD_IFP, ORD_ISP,          /* Ito */
    ORD_D, ORD_FF, ORD_FS, ORD_FCAF, ORD_FCAS, ORD_JCA, ORD_NCA, ORD_FFP, ORD_FCAFP, /* ICaL */
    ORD_XRF, ORD_XRS, ORD_XS1, ORD_XS2, ORD_XK1,              /* IKr, IKs, IK1 */
    ORD_JRELNP, ORD_JRELP, ORD_CAMKT,                         /* SR release, CaMKII */
    ORD_NSTATE
};
/* In precision "mixed" the gates (ORD_M .. ORD_XK1 but nca) hold float values
 * (core/models/ohara_rudy.h), which the GPU stores in float: bit v set for
 * state v. */
#define ORD_MIXED_FLOAT_STATES (((1ull << (ORD_XK1 + 1)) - (1ull << ORD_M)) & ~(1ull << ORD_NCA))
/* In precision "fp32h" these 15 gates are stored in IEEE half (11 significant
 * bits): the ones whose time constants stay short enough that a step's change
 * is not lost in half's rounding, measured over ten beats in every cell type
 * (docs/models.md, precision "fp32h"). j, jp, jca, iS, iSp and the slow gates
 * (hL, hLp, fs, fcas, xrf, xrs, xs1, xs2) stop short of their targets in half. */
#define ORD_HALF_GATES ((1ull << ORD_M) | (1ull << ORD_HF) | (1ull << ORD_HS) | (1ull << ORD_HSP) | \
                        (1ull << ORD_ML) | (1ull << ORD_A) | (1ull << ORD_IF) | (1ull << ORD_AP) | \
                        (1ull << ORD_IFP) | (1ull << ORD_D) | (1ull << ORD_FF) | (1ull << ORD_FCAF) | \
                        (1ull << ORD_FFP) | (1ull << ORD_FCAFP) | (1ull << ORD_XK1))
/* In precision "fp32g" the other 13 gates (j, jp, hL, hLp, iS, iSp, fs, fcas,
 * jca, xrf, xrs, xs1, xs2) are stored too, as 16-bit fractions of [0, 1]
 * (core/engine/fraction16.h), whose step near 1 is 32 times finer than
 * half's; the eight slow ones among them hold there only under multirate of
 * 10 or more (docs/models.md, precision "fp32g"). */
#define ORD_FRAC_GATES (ORD_MIXED_FLOAT_STATES & ~ORD_HALF_GATES)
/* Multirate stepping (core/engine/multirate.h) holds these 14 states between
 * its steps: the eight gates above that stop short of their targets in half
 * (time constants of tens to thousands of ms over most of the cycle; xrs's
 * falls to 9 ms at the upstroke's peak, xrf's to 13 ms, xs2's to 18 ms at
 * -100 mV)
 * and nai, nass, ki, kss, cansr and CaMKt. Chosen by their effect on a paced
 * cable (docs/gpu-notebook.md, item 28): every 10 steps of 0.05 ms they moved
 * activation by under 0.003 ms and APD90 by under 0.2 ms over ten beats, and
 * the error hardly grew from beat to beat; adding j, jp, jca, iS, iSp and
 * cajsr made APD90's error grow beat by beat (3 ms after ten), so they step
 * every step. */
#define ORD_SLOW_STATES ((1ull << ORD_HL) | (1ull << ORD_HLP) | (1ull << ORD_FS) | (1ull << ORD_FCAS) | \
                         (1ull << ORD_XRF) | (1ull << ORD_XRS) | (1ull << ORD_XS1) | (1ull << ORD_XS2) | \
                         (1ull << ORD_NAI) | (1ull << ORD_NASS) | (1ull << ORD_KI) | (1ull << ORD_KSS) | \
                         (1ull << ORD_CANSR) | (1ull << ORD_CAMKT))
/* The rate tables' rows (core/models/ohara_rudy.h, ord_tab_gate): every
 * 0.05 mV from -200 to +200 mV, for the 29 states m .. xk1 (nca, among them,
 * is not a voltage gate and is not read from them). 0.05 mV moved activation
 * and APD90 by under 0.001 ms over two beats of a cable (docs/numerics.md). */
#define ORD_TAB_VLO (-200.0)
#define ORD_TAB_DV 0.05
#define ORD_TAB_ROWS 8001
#define ORD_TAB_NG (ORD_XK1 - ORD_M + 1)
/* The gates (m .. xk1, ORD_M .. ORD_XK1) as an X-macro X(name, units, description),
 * shared by the models built on ORd's membrane (gaur_rudy). */
#define ORD_GATE_STATES(X) \
    X("m", "1", "INa activation") \
    X("hf", "1", "INa fast inactivation") \
    X("hs", "1", "INa slow inactivation") \
    X("j", "1", "INa recovery from inactivation") \
    X("hsp", "1", "INa slow inactivation, phosphorylated") \
    X("jp", "1", "INa recovery, phosphorylated") \
    X("mL", "1", "INaL activation") \
    X("hL", "1", "INaL inactivation") \
    X("hLp", "1", "INaL inactivation, phosphorylated") \
    X("a", "1", "Ito activation") \
    X("iF", "1", "Ito fast inactivation") \
    X("iS", "1", "Ito slow inactivation") \
    X("ap", "1", "Ito activation, phosphorylated") \
    X("iFp", "1", "Ito fast inactivation, phosphorylated") \
    X("iSp", "1", "Ito slow inactivation, phosphorylated") \
    X("d", "1", "ICaL activation") \
    X("ff", "1", "ICaL fast voltage inactivation") \
    X("fs", "1", "ICaL slow voltage inactivation") \
    X("fcaf", "1", "ICaL fast Ca-dependent inactivation") \
    X("fcas", "1", "ICaL slow Ca-dependent inactivation") \
    X("jca", "1", "ICaL recovery from Ca-dependent inactivation") \
    X("nca", "1", "ICaL fraction in Ca-dependent inactivation mode") \
    X("ffp", "1", "ICaL fast inactivation, phosphorylated") \
    X("fcafp", "1", "ICaL fast Ca-dependent inactivation, phosphorylated") \
    X("xrf", "1", "IKr fast activation") \
    X("xrs", "1", "IKr slow activation") \
    X("xs1", "1", "IKs activation 1") \
    X("xs2", "1", "IKs activation 2") \
    X("xk1", "1", "IK1 activation")
/* Cell type: 0 endocardial, 1 epicardial, 2 mid-myocardial (M); it scales the
 * conductances below by the paper's factors (set it with cell = "epi"). The
 * conductances are the endocardial values of the paper's supplement. */
#define ORD_PARAMS(X)                                                                             \
    X(ORD_CELLTYPE, "celltype", "1", 0.0, 0.0, 2.0, "cell type: 0 endo, 1 epi, 2 M (use cell = ...)") \
    X(ORD_NAO, "nao", "mM", 140.0, 1e-6, 1e30, "extracellular Na+")                               \
    X(ORD_CAO, "cao", "mM", 1.8, 1e-6, 1e30, "extracellular Ca2+")                                \
    X(ORD_KO, "ko", "mM", 5.4, 1e-6, 1e30, "extracellular K+")                                    \
    X(ORD_GNA, "g_na", "mS/uF", 75.0, 0.0, 1e30, "fast Na+ conductance")                          \
    X(ORD_GNAL, "g_nal", "mS/uF", 0.0075, 0.0, 1e30, "late Na+ conductance")                      \
    X(ORD_GTO, "g_to", "mS/uF", 0.02, 0.0, 1e30, "transient outward K+ conductance")              \
    X(ORD_PCA, "p_ca", "cm/s", 0.0001, 0.0, 1e30, "L-type Ca2+ permeability")                     \
    X(ORD_GKR, "g_kr", "mS/uF", 0.046, 0.0, 1e30, "rapid delayed rectifier conductance")          \
    X(ORD_GKS, "g_ks", "mS/uF", 0.0034, 0.0, 1e30, "slow delayed rectifier conductance")          \
    X(ORD_GK1, "g_k1", "mS/uF", 0.1908, 0.0, 1e30, "inward rectifier conductance")                \
    X(ORD_GNCX, "g_ncx", "uA/uF", 0.0008, 0.0, 1e30, "Na+/Ca2+ exchanger scale")                  \
    X(ORD_PNAK, "p_nak", "uA/uF", 30.0, 0.0, 1e30, "Na+/K+ pump scale")                           \
    X(ORD_GKB, "g_kb", "mS/uF", 0.003, 0.0, 1e30, "background K+ conductance")                    \
    X(ORD_PNAB, "p_nab", "cm/s", 3.75e-10, 0.0, 1e30, "background Na+ permeability")              \
    X(ORD_PCAB, "p_cab", "cm/s", 2.5e-8, 0.0, 1e30, "background Ca2+ permeability")               \
    X(ORD_GPCA, "g_pca", "uA/uF", 0.0005, 0.0, 1e30, "sarcolemmal Ca2+ pump maximum")             \
    X(ORD_JREL, "jrel_scale", "1", 1.0, 0.0, 1e30, "scale of SR Ca2+ release (RyR)")              \
    X(ORD_JUP, "jup_scale", "1", 1.0, 0.0, 1e30, "scale of SERCA uptake")                        \
    X(ORD_INA_MSHIFT, "ina_m_shift", "mV", 0.0, -20.0, 20.0, "INa activation curve m_inf moved to lower V by this") \
    X(ORD_INA_HSHIFT, "ina_h_shift", "mV", 0.0, -20.0, 20.0, "INa inactivation curves h_inf, j_inf moved to lower V by this") \
    X(ORD_INA_FORM, "ina_form", "1", 0.0, 0.0, 1.0, "INa formulation: 0 ORd 2011, 1 ToR-ORd's (Tomek 2019; set g_na 11.7802)")
enum { ORD_PARAMS(CARDIAC_PARAM_ENUM) ORD_NPARAM };
#endif
