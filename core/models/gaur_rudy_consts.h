/* States and parameters of the multiscale ORd model with stochastic calcium
 * release units (core/models/gaur_rudy.h, core/multiscale/dyads.h); sources and values
 * in docs/models.md.
 *
 * The cell-level state is ORd's 41 variables at ORd's indices, so ORd's
 * current functions (core/models/ohara_rudy.h) serve this model unchanged,
 * followed by what the dyad stage computes each step from the cell's dyads
 * (core/multiscale/multiscale.c). ORd's own calcium variables become averages over the
 * dyads: cai, cass, cansr, cajsr, nca and CaMKt are means of the local
 * values, Jrelnp holds the whole-cell release flux and Jrelp the SERCA
 * uptake. */
#ifndef CARDIAC_MODEL_GAUR_RUDY_CONSTS_H
#define CARDIAC_MODEL_GAUR_RUDY_CONSTS_H
#include "ohara_rudy_consts.h"

enum {
    GR_CADS = ORD_NSTATE,    /* mean dyadic-space Ca2+, uM */
    GR_ICAL, GR_ICANA, GR_ICAK,            /* L-type currents, uA/uF (means over dyads) */
    GR_INACA_I, GR_INACA_SS, GR_ICAB, GR_IPCA,   /* Ca2+-dependent currents, uA/uF */
    GR_CAMKA,                /* mean active CaMKII fraction */
    GR_LCC_OPEN, GR_RYR_OPEN,  /* open L-type channels and RyRs per dyad (means) */
    GR_NSTATE
};
#define GR_JREL ORD_JRELNP   /* whole-cell SR release, mM/ms of myoplasm */
#define GR_JUP ORD_JRELP     /* whole-cell SERCA uptake net of leak, mM/ms of NSR */

#define GR_NRYR 100          /* RyRs per dyad */
#define GR_NLCC 15           /* L-type channels per dyad */
#define GR_NREP 10000        /* dyads of a real cell, which the simulated ones represent */
#define GR_MAX_DYADS 10000
#define GR_VDS 1e-13        /* volume of one dyadic space, uL */

/* RyR states (core/multiscale/dyads.h) */
enum { DYAD_C1, DYAD_O1, DYAD_C2, DYAD_C3 };
/* What the simulated dyads are (parameter `reading`): a sample of the cell's
 * GR_NREP, whose means make the cell's currents, or GR_NREP's first units,
 * each carrying 1/GR_NREP of the cell's calcium handling (core/multiscale/dyads.h,
 * dyad_mean). */
enum { GR_READING_SAMPLE, GR_READING_UNITS };
/* RyR clamps (sim:clamp_ryr): none, all open (O1), all closed (C1) */
enum { DYAD_RYR_FREE, DYAD_RYR_OPEN, DYAD_RYR_CLOSED };

/* The calcium release units' parameters; the model's list is ORd's (at
 * ORd's indices) followed by these. */
#define GR_OWN_PARAMS(X)                                                                              \
    X(GR_DYADS, "dyads", "1", 10000.0, 1.0, 10000.0, "calcium release units simulated per cell (fixed at creation)") \
    X(GR_SEED, "seed", "1", 1.0, 0.0, 4294967295.0, "seed of the channels' random numbers (fixed at creation)") \
    X(GR_READING, "reading", "1", 0.0, 0.0, 1.0, "what the simulated dyads are: \"sample\" (0) of the cell's " \
      "10,000, whose means make the cell, or \"units\" (1), each one of the 10,000 with its 1/10,000 share") \
    X(GR_DRYR, "d_ryr", "1/ms", 4.0, 0.0, 1e30, "Ca2+ flux rate through one open RyR, JSR to dyadic space") \
    X(GR_KM_RYR, "km_ryr", "uM", 5.0, 1e-9, 1e30, "dyadic Ca2+ of half-maximal RyR activation")      \
    X(GR_K_OPEN, "k_open", "1/ms", 3.0, 0.0, 1e30, "maximal RyR opening rate (C1->O1, C2->C3)")      \
    X(GR_K_CLOSE, "k_close", "1/ms", 0.5, 0.0, 1e30, "RyR closing rate (O1->C1, C3->C2)")            \
    X(GR_KM_CSQN, "km_csqn", "mM", 0.5, 1e-9, 1e30, "JSR Ca2+ of half CSQN binding (tier switch, buffer)") \
    X(GR_CSQN, "csqn_max", "mM", 10.0, 0.0, 1e30, "total calsequestrin in the JSR")                  \
    X(GR_TAU_EFFLUX, "tau_efflux", "ms", 7e-4, 1e-9, 1e30, "dyadic space to submembrane diffusion")  \
    X(GR_TAU_REFILL, "tau_refill", "ms", 100.0, 1e-9, 1e30, "local NSR to JSR refilling")            \
    X(GR_TAU_SS_MYO, "tau_ss_myo", "ms", 0.1, 1e-9, 1e30, "submembrane space to myoplasm diffusion") \
    X(GR_D_CYT, "d_cyt", "um^2/ms", 0.02, 0.0, 1e30, "Ca2+ diffusion between dyads' myoplasm and submembrane spaces") \
    X(GR_D_SR, "d_sr", "um^2/ms", 0.02, 0.0, 1e30, "Ca2+ diffusion between dyads' NSR")               \
    X(GR_DYAD_DX, "dyad_dx", "um", 0.2, 1e-9, 1e30, "distance between neighbouring dyads")
#define GR_PARAMS(X) ORD_PARAMS(X) GR_OWN_PARAMS(X)
enum { GR_FIRST_PARAM_ = ORD_NPARAM - 1, GR_OWN_PARAMS(CARDIAC_PARAM_ENUM) GR_NPARAM };
#endif
