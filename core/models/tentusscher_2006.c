/* ten Tusscher-Panfilov 2006 model metadata; equations in tentusscher_2006.h,
 * parameters in tentusscher_2006_consts.h. */
#include "instances.h"
#include "model.h"

static const var_info states[TP_NSTATE] = {
    {"V", "mV", "membrane potential"},
    {"cai", "mM", "free Ca2+ in the cytoplasm"}, {"casr", "mM", "free Ca2+ in the SR"},
    {"cass", "mM", "free Ca2+ in the subspace"}, {"nai", "mM", "Na+ in the cytoplasm"},
    {"ki", "mM", "K+ in the cytoplasm"},
    {"m", "1", "INa activation"}, {"h", "1", "INa fast inactivation"}, {"j", "1", "INa slow inactivation"},
    {"xr1", "1", "IKr activation"}, {"xr2", "1", "IKr inactivation"}, {"xs", "1", "IKs activation"},
    {"r", "1", "Ito activation"}, {"s", "1", "Ito inactivation"},
    {"d", "1", "ICaL activation"}, {"f", "1", "ICaL slow voltage inactivation"},
    {"f2", "1", "ICaL fast voltage inactivation"}, {"fcass", "1", "ICaL subspace-Ca2+ inactivation"},
    {"RR", "1", "RyR fraction not inactivated (R-bar)"},
};
#include "tentusscher_2006_rest.h"
static const param_info params[TP_NPARAM] = {TP_PARAMS(CARDIAC_PARAM_INFO)};

/* The dt limit's reaction bound (core/models/model.h, rate_shares_bound): each
 * current's largest |d(dV/dt)/dV| along paced beats, 1/ms, from
 * tests/test_rate_bound.c (which prints them and checks these against them),
 * rounded up by 1% to 3 digits; INa's upstroke dominates. Bound at the
 * defaults: 10.9 /ms. The sarcolemmal pump (g_pca) depends on cai only. */
static const rate_share shares[] = {
    {TP_GNA, 4.5}, {TP_GK1, 0.219}, {TP_GKR, 0.0569}, {TP_GKS, 0.0163}, {TP_GTO, 0.151}, {TP_GCAL, 0.435},
    {TP_PNAK, 0.00364}, {TP_KNACA, 0.0127}, {TP_GPK, 0.0767}, {TP_GCAB, 0.000599}, {TP_GNAB, 0.000294},
};

static const param_value endo[] = {{TP_CELLTYPE, 0}}, epi[] = {{TP_CELLTYPE, 1}}, mid[] = {{TP_CELLTYPE, 2}};
static const model_preset presets[] = {
    {"epi", "epicardial (the defaults)", epi, 1, rest_epi},
    {"endo", "endocardial", endo, 1, rest_endo},
    {"M", "mid-myocardial", mid, 1, rest_mid},
};

const model_def model_tentusscher_2006 = {
    .id = MODEL_ID_tentusscher_2006,
    .name = "tentusscher_2006",
    .title = "ten Tusscher-Panfilov 2006 human ventricular model (TP06)",
    .citation = "K.H.W.J. ten Tusscher, A.V. Panfilov, Am. J. Physiol. Heart Circ. Physiol. 291:H1088-H1100 (2006)",
    .nstate = TP_NSTATE, .nparam = TP_NPARAM,
    .states = states, .rest = rest_epi, .params = params,
    .vindex = TP_V,
    .activation = -40.0f,
    .rate_shares = shares, .nrate_shares = sizeof shares / sizeof shares[0],
    .vmin = -90.0f, .vmax = 50.0f,
    .presets = presets, .npresets = 3,
    .step_f32 = tentusscher_2006_step_f32,
    .step_f64 = tentusscher_2006_step_f64,
};
