/* O'Hara-Rudy 2011 model metadata; equations in ohara_rudy.h, parameters in
 * ohara_rudy_consts.h. */
#include "instances.h"
#include "model.h"

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
/* The dt limit's reaction bound (core/models/model.h, rate_shares_bound): each
 * current's largest |d(dV/dt)/dV| along paced beats, 1/ms, from
 * tests/test_rate_bound.c (which prints them and checks these against them),
 * rounded up by 1% to 3 digits; INa's upstroke dominates. Bound at the
 * defaults: 10.9 /ms. The sarcolemmal pump (g_pca) depends on cai only. */
static const rate_share shares[] = {
    {ORD_GNA, 4.69}, {ORD_GNAL, 0.00362}, {ORD_GTO, 0.0391}, {ORD_PCA, 0.441}, {ORD_GKR, 0.0255},
    {ORD_GKS, 0.0016}, {ORD_GK1, 0.227}, {ORD_GNCX, 0.0203}, {ORD_PNAK, 0.00151}, {ORD_GKB, 0.00625},
    {ORD_PNAB, 0.000176}, {ORD_PCAB, 0.000223},
};

/* INa's share is g_na times the largest m^3 h j (the gates' open fraction)
 * along the beats: 4.69 / 75 = 0.0625 for the paper's INa. Its variants open
 * more (scripts/ina_open.lua, along beats of every cell type at the paper's
 * stimulus and 2.5 times it; tests/test_rate_bound.c checks the bound on their
 * trajectories): ToR-ORd's INa (ina_form 1) up to 0.263, taken as 0.29; m_inf
 * moved to lower V by ms and h_inf by -hs (ina_m_shift, ina_h_shift, within
 * 20 mV) up to 0.0696 (ms 10), 0.0775 (ms 20), 0.0771 (hs -15), 0.107 (ms 15,
 * hs -15) and 0.117 (ms 20, hs -20), covered by the envelope below. */
static double rate_bound(const double *p)
{
    const double paper = 4.69 / 75, g = p[ORD_GNA];
    double open = paper;
    if (p[ORD_INA_FORM] > 0.5) {
        open = 0.29;
    } else {
        const double ms = p[ORD_INA_MSHIFT] > 0 ? p[ORD_INA_MSHIFT] : 0, hs = p[ORD_INA_HSHIFT] < 0 ? -p[ORD_INA_HSHIFT] : 0;
        open = paper + 0.0008 * ms + 0.0011 * hs + 0.00008 * ms * hs;
    }
    return rate_shares_bound(shares, sizeof shares / sizeof shares[0], params, p) + 2 * g * (open - paper);
}

/* The gates' Rush-Larsen coefficients at V for the rate tables
 * (model_table): each gate's step y' = A + B y is linear in y, so A is its
 * value from 0 and A + B its value from 1, taken by the model's own gate
 * functions in double without a table. */
static void gate_coeffs(double v, double dt, const double *p, double *a, double *b)
{
    const int type = (int)(p[ORD_CELLTYPE] + 0.5);
    const double rm = ord_rm_f64(v);
    double y[2][ORD_NSTATE];
    for (int k = 0; k < 2; k++) {
        for (int s = 0; s < ORD_NSTATE; s++) y[k][s] = rest_endo[s];
        for (int g = ORD_M; g <= ORD_XK1; g++) y[k][g] = k;
        ord_ina_f64(y[k], v, rm, 0, 0, dt, p, NULL);
        ord_inal_f64(y[k], v, rm, 0, 0, dt, type, p, NULL);
        ord_ito_f64(y[k], v, 0, 0, dt, type, p, NULL);
        ord_ical_vgates_f64(y[k], v, dt, NULL);
        ord_ik_f64(y[k], v, 0, 0, dt, type, p, NULL);
    }
    for (int g = 0; g < ORD_TAB_NG; g++) {
        a[g] = y[0][ORD_M + g];
        b[g] = y[1][ORD_M + g] - y[0][ORD_M + g];
    }
}

/* The parameters the gates' kinetics read: the cell type (Ito's
 * inactivation in epi), ko (IK1's steady state) and INa's shifts and form. */
static const model_table table = {
    .count = ORD_TAB_NG, .vlo = ORD_TAB_VLO, .dv = ORD_TAB_DV, .rows = ORD_TAB_ROWS,
    .params = (1ull << ORD_CELLTYPE) | (1ull << ORD_KO) | (1ull << ORD_INA_MSHIFT) | (1ull << ORD_INA_HSHIFT) |
              (1ull << ORD_INA_FORM),
    .coeffs = gate_coeffs,
    .step_tab_f64 = ohara_rudy_step_tab_f64,
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
    .rate_bound = rate_bound,
    .rate_shares = shares, .nrate_shares = sizeof shares / sizeof shares[0],
    /* protocols/ord_conduction.lua (docs/models.md): at D = 0.2 the CV is 9.7% low at dx = 0.25 mm with
     * the second-order stencil and the wave fails at 0.5; with the fourth-order one 6.5% low at 0.3 */
    .resolve_dx = {0.25, 0.3},
    .vmin = -90.0f, .vmax = 50.0f,
    .presets = presets, .npresets = 3,
    .step_f32 = ohara_rudy_step_f32,
    .step_f64 = ohara_rudy_step_f64,
    .step_mix = ohara_rudy_step_mix,
    .mixed_float = ORD_MIXED_FLOAT_STATES,
    .half_gates = ORD_HALF_GATES,
    .frac_gates = ORD_FRAC_GATES,
    .slow_states = ORD_SLOW_STATES,
    .table = &table,
};
