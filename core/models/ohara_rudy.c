/* O'Hara-Rudy 2011 model metadata; equations in ohara_rudy.h, parameters in
 * ohara_rudy_consts.h. */
#include "../instances.h"
#include "../model.h"

static const var_info states[ORD_NSTATE] = {
    {"V", "mV", "membrane potential"},
    {"nai", "mM", "Na+ in the myoplasm"}, {"nass", "mM", "Na+ in the subspace"},
    {"ki", "mM", "K+ in the myoplasm"}, {"kss", "mM", "K+ in the subspace"},
    {"cai", "mM", "Ca2+ in the myoplasm"}, {"cass", "mM", "Ca2+ in the subspace"},
    {"cansr", "mM", "Ca2+ in the network SR"}, {"cajsr", "mM", "Ca2+ in the junctional SR"},
    ORD_GATE_STATES(CARDIAC_VAR_INFO)
    {"Jrelnp", "mM/ms", "SR release flux, non-phosphorylated"},
    {"Jrelp", "mM/ms", "SR release flux, phosphorylated"},
    {"CaMKt", "1", "trapped (autonomously active) CaMKII fraction"},
};
#include "ohara_rudy_rest.h"
static const param_info params[ORD_NPARAM] = {ORD_PARAMS(CARDIAC_PARAM_INFO)};

static const param_value endo[] = {{ORD_CELLTYPE, 0}}, epi[] = {{ORD_CELLTYPE, 1}}, mid[] = {{ORD_CELLTYPE, 2}};
/* The dt limit's reaction bound (core/model.h, rate_shares_bound): each
 * current's largest |d(dV/dt)/dV| along paced beats, 1/ms, from
 * tests/test_rate_bound.c (which prints them and checks these against them),
 * rounded up by 1% to 3 digits; INa's upstroke dominates. Bound at the
 * defaults: 10.9 /ms. The sarcolemmal pump (g_pca) depends on cai only. */
static const rate_share shares[] = {
    {ORD_GNA, 4.69}, {ORD_GNAL, 0.00362}, {ORD_GTO, 0.0391}, {ORD_PCA, 0.441}, {ORD_GKR, 0.0255},
    {ORD_GKS, 0.0016}, {ORD_GK1, 0.227}, {ORD_GNCX, 0.0203}, {ORD_PNAK, 0.00151}, {ORD_GKB, 0.00625},
    {ORD_PNAB, 0.000176}, {ORD_PCAB, 0.000223},
};

static const model_preset presets[] = {
    {"endo", "endocardial", endo, 1, rest_endo},
    {"epi", "epicardial", epi, 1, rest_epi},
    {"M", "mid-myocardial", mid, 1, rest_mid},
};

const model_def model_ohara_rudy = {
    .id = MODEL_ID_ohara_rudy,
    .name = "ohara_rudy",
    .title = "O'Hara-Rudy 2011 human ventricular model (ORd)",
    .citation = "T. O'Hara, L. Virag, A. Varro, Y. Rudy, PLoS Comput. Biol. 7(5):e1002061 (2011)",
    .nstate = ORD_NSTATE, .nparam = ORD_NPARAM,
    .states = states, .rest = rest_endo, .params = params,
    .vindex = ORD_V,
    .activation = -40.0f,
    .rate_shares = shares, .nrate_shares = sizeof shares / sizeof shares[0],
    .vmin = -90.0f, .vmax = 50.0f,
    .presets = presets, .npresets = 3,
    .step_f32 = ohara_rudy_step_f32,
    .step_f64 = ohara_rudy_step_f64,
    .step_mix = ohara_rudy_step_mix,
    .mixed_float = ORD_MIXED_FLOAT_STATES,
};
