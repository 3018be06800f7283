/* Multiscale ORd with stochastic calcium release units: metadata; the cell
 * level in gaur_rudy.h, the dyads in core/multiscale/dyads.h, parameters in
 * gaur_rudy_consts.h, the dyad stage in core/multiscale/multiscale.c. */
#include "instances.h"
#include "model.h"

static const var_info states[GR_NSTATE] = {
    {"V", "mV", "membrane potential"},
    {"nai", "mM", "Na+ in the myoplasm"}, {"nass", "mM", "Na+ in the subspace"},
    {"ki", "mM", "K+ in the myoplasm"}, {"kss", "mM", "K+ in the subspace"},
    {"cai", "mM", "Ca2+ in the myoplasm, mean over the dyads"},
    {"cass", "mM", "Ca2+ in the submembrane space, mean over the dyads"},
    {"cansr", "mM", "Ca2+ in the network SR, mean over the dyads"},
    {"cajsr", "mM", "Ca2+ in the junctional SR, mean over the dyads"},
    ORD_GATE_STATES(CARDIAC_VAR_INFO)
    {"jrel", "mM/ms", "SR Ca2+ release through the RyRs, per myoplasm volume"},
    {"jup", "mM/ms", "SERCA uptake net of leak, per NSR volume"},
    {"CaMKt", "1", "trapped CaMKII fraction, mean over the dyads"},
    {"cads", "uM", "Ca2+ in the dyadic space, mean over the dyads"},
    {"ical", "uA/uF", "L-type Ca2+ current"},
    {"icana", "uA/uF", "L-type channel's Na+ current"},
    {"icak", "uA/uF", "L-type channel's K+ current"},
    {"inaca_i", "uA/uF", "Na+/Ca2+ exchanger facing the myoplasm"},
    {"inaca_ss", "uA/uF", "Na+/Ca2+ exchanger facing the submembrane space"},
    {"icab", "uA/uF", "background Ca2+ current"},
    {"ipca", "uA/uF", "sarcolemmal Ca2+ pump"},
    {"CaMKa", "1", "active CaMKII fraction, mean over the dyads"},
    {"lcc_open", "1", "open L-type channels per dyad (of 15), mean"},
    {"ryr_open", "1", "open RyRs per dyad (of 100), mean"},
};
#include "gaur_rudy_rest.h"
static const param_info params[GR_NPARAM] = {GR_PARAMS(CARDIAC_PARAM_INFO)};

static const param_value endo[] = {{ORD_CELLTYPE, 0}}, epi[] = {{ORD_CELLTYPE, 1}}, mid[] = {{ORD_CELLTYPE, 2}};
static const model_preset presets[] = {
    {"endo", "endocardial", endo, 1, NULL},
    {"epi", "epicardial", epi, 1, NULL},
    {"M", "mid-myocardial", mid, 1, NULL},
};

static const param_choice choices[] = {
    {GR_READING, "sample", "the simulated dyads are a sample of the cell's 10,000: its currents and release are "
     "their means, and the count changes only the noise (Gaur & Rudy 2011)", GR_READING_SAMPLE},
    {GR_READING, "units", "each simulated dyad is one of the cell's 10,000 units with its 1/10,000 share of the "
     "calcium handling: the cell's calcium currents and release grow with the count (Altanaite 2017)",
     GR_READING_UNITS},
};

extern const model_def model_ohara_rudy;

/* dt limit: the RyRs' two transitions out of a state must fit in one step,
 * (k_out1 + k_out2) dt <= 1, and the explicit diffusion between dyads must be
 * stable, 2 dt sum_a D_a / dx^2 <= 1 (the myoplasm's D doubled along z, as in
 * the encoding); as rates r with dt <= 2 / r, beside the bound of ORd's
 * membrane currents (its parameters come first here too). */
static double rate_bound(const double *p)
{
    double ryr = 2 * ((p[GR_K_OPEN] > p[GR_K_CLOSE] ? p[GR_K_OPEN] : p[GR_K_CLOSE]) + 1);
    double h2 = p[GR_DYAD_DX] * p[GR_DYAD_DX];
    double cyt = 4 * 4 * p[GR_D_CYT] / h2, sr = 4 * 3 * p[GR_D_SR] / h2;
    double r = model_ohara_rudy.rate_bound(p);   /* ORd's membrane, its INa variants included */
    if (ryr > r) r = ryr;
    if (cyt > r) r = cyt;
    if (sr > r) r = sr;
    return r;
}

const model_def model_gaur_rudy = {
    .id = MODEL_ID_gaur_rudy,
    .name = "gaur_rudy",
    .title = "ORd with stochastic calcium release units (Gaur-Rudy multiscale)",
    .citation = "N. Gaur, Y. Rudy, Biophys. J. 100(12):2904-2912 (2011); ORd membrane: T. O'Hara et al., "
                "PLoS Comput. Biol. 7(5):e1002061 (2011)",
    .nstate = GR_NSTATE, .nparam = GR_NPARAM,
    .states = states, .rest = gr_rest, .params = params,
    .vindex = ORD_V,
    .activation = -40.0f,
    .rate_bound = rate_bound,
    .resolve_dx = {0.25, 0.3},   /* ORd's membrane and INa: ORd's (ohara_rudy.c) */
    .vmin = -90.0f, .vmax = 50.0f,
    .presets = presets, .npresets = 3,
    .choices = choices, .nchoices = 2,
    .step_f32 = gaur_rudy_step_f32,
    .step_f64 = gaur_rudy_step_f64,
    .multiscale = 1,
};
