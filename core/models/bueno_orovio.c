/* Bueno-Orovio-Cherry-Fenton model metadata; equations in bueno_orovio.h,
 * parameters in bueno_orovio_consts.h. */
#include <math.h>
#include "instances.h"
#include "model.h"

static const var_info states[BO_NSTATE] = {
    {"u", "1", "membrane potential (dimensionless; V = 85.7 u - 84 mV)"},
    {"v", "1", "fast gate (of J_fi)"},
    {"w", "1", "slow gate (of J_si)"},
    {"s", "1", "slow gate (of J_si)"},
};
static const double rest[BO_NSTATE] = {0.0, 1.0, 1.0, 0.0};
static const param_info params[BO_NPARAM] = {BO_PARAMS(CARDIAC_PARAM_INFO)};

/* The paper's table 1: the EPI set is the default; ENDO and M (midwall)
 * differ in these parameters. */
static const param_value epi[] = {{BO_UU, 1.55}};
static const param_value endo[] = {
    {BO_UU, 1.56}, {BO_THVM, 0.2}, {BO_TV1M, 75}, {BO_TV2M, 10}, {BO_TW1M, 6}, {BO_TW2M, 140},
    {BO_KWM, 200}, {BO_UWM, 0.016}, {BO_TWP, 280}, {BO_TFI, 0.1}, {BO_TO1, 470}, {BO_TSO1, 40},
    {BO_TSO2, 1.2}, {BO_KSO, 2}, {BO_TS2, 2}, {BO_TSI, 2.9013}, {BO_TWINF, 0.0273}, {BO_WINFS, 0.78}};
static const param_value mid[] = {
    {BO_UU, 1.61}, {BO_THVM, 0.1}, {BO_THO, 0.005}, {BO_TV1M, 80}, {BO_TV2M, 1.4506}, {BO_TW1M, 70},
    {BO_TW2M, 8}, {BO_KWM, 200}, {BO_UWM, 0.016}, {BO_TWP, 280}, {BO_TFI, 0.078}, {BO_TO1, 410},
    {BO_TO2, 7}, {BO_TSO1, 91}, {BO_TSO2, 0.8}, {BO_KSO, 2.1}, {BO_USO, 0.6}, {BO_TS2, 4},
    {BO_TSI, 3.3849}, {BO_TWINF, 0.01}, {BO_WINFS, 0.5}};
#define COUNT(a) (int)(sizeof a / sizeof a[0])
static const model_preset presets[] = {
    {"epi", "epicardial (the defaults)", epi, COUNT(epi), NULL},
    {"endo", "endocardial", endo, COUNT(endo), NULL},
    {"M", "midwall (M cell)", mid, COUNT(mid), NULL},
};

/* A bound on |d(-(J_fi + J_so))/du|: (u_u - theta_v) / tau_fi from J_fi (v <= 1),
 * 1 / min(tau_o1, tau_o2) below theta_w, and the largest slope of 1/tau_so(u)
 * above it (sampled; the tanh makes it a smooth bump). J_si depends on u only
 * through a step. */
static double rate_bound(const double *p)
{
    double so = 0;
    for (int q = 0; q <= 2000; q++) {
        const double sg = q / 2000.0, b = p[BO_TSO2] - p[BO_TSO1], t = p[BO_TSO1] + b * sg;
        so = fmax(so, fabs(b) * 2 * p[BO_KSO] * sg * (1 - sg) / (t * t));
    }
    return fabs(p[BO_UU] - p[BO_THV]) / p[BO_TFI] + 1 / fmin(p[BO_TO1], p[BO_TO2]) + so;
}

const model_def model_bueno_orovio = {
    .id = MODEL_ID_bueno_orovio,
    .name = "bueno_orovio",
    .title = "Bueno-Orovio-Cherry-Fenton 2008 minimal ventricular model",
    .citation = "A. Bueno-Orovio, E.M. Cherry, F.H. Fenton, J. Theor. Biol. 253:544-560 (2008), table 1",
    .nstate = BO_NSTATE, .nparam = BO_NPARAM,
    .states = states, .rest = rest, .params = params,
    .vindex = BO_U,
    .activation = 0.5,
    .max_rate = 12.5,         /* rate_bound at the defaults: 11.36 + 0.17 + 0.99 */
    .rate_bound = rate_bound,
    .vmin = 0.0, .vmax = 1.6,
    .presets = presets, .npresets = COUNT(presets),
    .step_f32 = bueno_orovio_step_f32,
    .step_f64 = bueno_orovio_step_f64,
};
