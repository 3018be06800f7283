/* O'Hara-Rudy 2011 (ORd, the thesis' "OVVR") human ventricular action
 * potential model, 41 states; single source for CPU and GPU, float and double
 * (instantiated by core/engine/instances.h; no include guard).
 *
 * T. O'Hara, L. Virag, A. Varro, Y. Rudy, Simulation of the undiseased human
 * cardiac ventricular action potential: model formulation and experimental
 * validation, PLoS Comput. Biol. 7(5):e1002061 (2011), and its supplement;
 * equations and constants as in the authors' code (the formulation of 2011,
 * before the later INaK and ICaL revisions), checked against the public
 * Myokit encoding ohara-2011.mmt (docs/models.md).
 *
 * Update rules (the authors' own scheme, thesis eqs. 2.21-2.25): CaMKII is
 * evaluated first from the old state; every gate takes the Rush-Larsen step
 * from V^n; the currents are then computed with the updated gates; nca
 * (thesis eq. 2.22) and the release fluxes Jrelnp, Jrelp (eqs. 2.23-2.24) take
 * the exponential step of their linear equations; concentrations, CaMKt and V
 * take forward Euler. Units: mV, ms, mM, uA/uF. idiff and istim are dV/dt
 * contributions (mV/ms): the stimulus current is I_stim = -istim, carried by
 * K+ as in the paper.
 *
 * Every floating constant is held in a variable or argument of type `real`,
 * so that the float instance never computes in double. exp, expm1, log and
 * pow are called through their cardiac_ forms (core/engine/qualifiers.h), out of
 * line in the GPU's double instance.
 *
 * The gate kinetics (steady states, time constants, Rush-Larsen steps), the
 * other factors that depend on V alone (Boltzmann rectifiers, the
 * exponentials of the GHK fluxes, the exchanger's and the pump's voltage
 * factors) and the decay factors exp(-dt/tau) of nca's and the release
 * fluxes' exponential steps are written in `greal`: `real` in the float and double instances, float in the mixed one
 * (core/engine/instances.h), where currents, fluxes, concentrations and V stay
 * double. Gates are then float values, so the mixed state can store them in
 * float without loss; gv is V as greal. */
#include "ohara_rudy_consts.h"

/* 1 / (1 + exp((v + vh) / k)): the model's steady-state curves. Here and in
 * ord_rates the division by the constant slope is a product with its
 * reciprocal, which the compiler folds (an IEEE division by a constant it does
 * not: in fp64 a long sequence per call, docs/gpu-notebook.md item 30). */
CARDIAC_HD greal R(ord_boltz)(greal v, greal vh, greal k) { return 1 / (1 + cardiac_exp((v + vh) * (1 / k))); }

/* a exp((v + b) / c) + d exp((v + e) / f): the rate sums of its time constants */
CARDIAC_HD greal R(ord_rates)(greal v, greal a, greal b, greal c, greal d, greal e, greal f)
{
    return a * cardiac_exp((v + b) * (1 / c)) + d * cardiac_exp((v + e) * (1 / f));
}

/* x / (e^x - 1), finite at x = 0 (the GHK flux's removable singularity) */
CARDIAC_HD greal R(ord_x_expm1)(greal x) { return fabs(x) < (greal)1e-4 ? 1 - x / 2 : x / cardiac_expm1(x); }

/* Goldman-Hodgkin-Katz driving term z^2 (V F^2/RT) (ci e^{z V F/RT} - co) / (e^{z V F/RT} - 1),
 * in C/L per unit permeability; vfrt = V F/RT. Its factors of V alone are greal. */
CARDIAC_HD real R(ord_ghk)(real z, real vfrt, real ci, real co)
{
    const real F = 96485;
    const greal x = z * vfrt;
    return z * F * R(ord_x_expm1)(x) * (ci * cardiac_exp(x) - co);
}

/* The factor of a cell type: endo, epi or M. */
CARDIAC_HD real R(ord_by_type)(int type, real endo, real epi, real m)
{
    return type == 1 ? epi : (type == 2 ? m : endo);
}

/* The gates' Rush-Larsen steps take rates, 1 / tau (rush_larsen_rate), so that
 * a time constant 1 / r costs no division and k (c + 1 / r) one: the rate
 * r / (k (c r + 1)). In fp64 the divisions tau = 1 / r and dt / tau were long
 * dependent chains on the GPU (docs/gpu-notebook.md, item 36). A rate sum's
 * exponential can overflow in float (fcas's below -266 mV), where tau is k c:
 * r held below 1e30 keeps the quotient finite and within 1e-30 of 1 / (k c). */
CARDIAC_HD greal R(ord_rate_c)(greal r, greal c, greal k)
{
    const greal rc = r < (greal)1e30 ? r : (greal)1e30;
    return rc / (k * (c * rc + 1));
}

/* Rate tables (cardiac.simulation{tables = true}, fp64; docs/numerics.md,
 * "Rate tables"): a gate's Rush-Larsen step y' = A(V) + B(V) y, with A and
 * B interpolated linearly in V from a table the engine builds from this
 * model's own kinetics (ohara_rudy.c, gate_coeffs) every ORD_TAB_DV mV
 * over [ORD_TAB_VLO, ORD_TAB_VLO + (ORD_TAB_ROWS - 1) ORD_TAB_DV]. Row i,
 * gate g (state ORD_M + g) holds A_i, A_{i+1} - A_i, B_i, B_{i+1} - B_i.
 * V beyond the rows takes the nearest end's coefficients: a branch to the
 * kinetics as written there cost the step the registers and the time the
 * tables save (docs/gpu-notebook.md, item 41). */
CARDIAC_HD real R(ord_tab_gate)(const double *tab, real y, int g, real v)
{
    double x = ((double)v - ORD_TAB_VLO) * (1 / ORD_TAB_DV);
    x = x > 0 ? (x < ORD_TAB_ROWS - 1 ? x : ORD_TAB_ROWS - 1) : 0;
    const int i = x < ORD_TAB_ROWS - 2 ? (int)x : ORD_TAB_ROWS - 2;
    const double w = x - i;
    const double *e = tab + 4 * (unsigned)(i * ORD_TAB_NG + (g - ORD_M));
#if defined(__CUDA_ARCH__)
    const double2 ab = __ldg((const double2 *)e), cd = __ldg((const double2 *)e + 1);
    return (real)((ab.x + w * ab.y) + (cd.x + w * cd.y) * (double)y);
#else
    return (real)((e[0] + w * e[1]) + (e[2] + w * e[3]) * (double)y);
#endif
}

/* Gate g's new value: from the table where there is one, else expr (its
 * Rush-Larsen step as written). */
#define ORD_GATE(g, expr) (tab ? (greal)R(ord_tab_gate)(tab, y[g], (g), v) : (expr))

/* Rate (1 / tau) of the Na+ activation gates m (INa) and mL (INaL), 1/ms. */
CARDIAC_HD greal R(ord_rm)(greal v) { return R(ord_rates)(v, 6.765, 11.64, 34.77, 8.552, 77.42, -5.955); }

/* INa of ToR-ORd (ina_form = 1): J. Tomek et al., eLife 8:e48890 (2019),
 * supplement section 15.3.1, which took the gates of E. Grandi et al., J. Mol.
 * Cell. Cardiol. 48:112-121 (2010): m_inf, h and j are ten Tusscher et al.'s
 * 2004 (the kinetics core/models/tentusscher_2006.h computes), tau_m a sum of
 * two Gaussians; CaMKII-phosphorylated channels have h_inf 6 mV lower and
 * j's time constant 1.46 times. States: m, h in hf, j, hp in hsp, jp (hs is
 * not used). Conductance g_na (ToR-ORd: 11.7802 mS/uF). */
CARDIAC_HD real R(ord_ina_tomek)(real *y, real v, real ena, real fp, real dt, const real *p)
{
    const greal gv = v;
    const struct R(tp_ina_rates) k = R(tp_ina_kinetics)(gv);
    const greal a = (gv + (greal)45.79) * ((greal)1 / (greal)15.54), b = (gv - (greal)4.823) * ((greal)1 / (greal)51.12);
    const greal tm = (greal)0.1292 * cardiac_exp(-a * a) + (greal)0.06487 * cardiac_exp(-b * b);
    y[ORD_M] = R(rush_larsen_gate)(y[ORD_M], k.minf, tm, dt);
    y[ORD_HF] = R(rush_larsen_gate)(y[ORD_HF], k.hinf, k.th, dt);
    y[ORD_J] = R(rush_larsen_gate)(y[ORD_J], k.hinf, k.tj, dt);
    y[ORD_HSP] = R(rush_larsen_gate)(y[ORD_HSP], R(tp_ina_hinf)(gv + 6), k.th, dt);
    y[ORD_JP] = R(rush_larsen_gate)(y[ORD_JP], k.hinf, (greal)1.46 * k.tj, dt);
    const real m = y[ORD_M];
    return p[ORD_GNA] * (v - ena) * m * m * m * ((1 - fp) * y[ORD_HF] * y[ORD_J] + fp * y[ORD_HSP] * y[ORD_JP]);
}

/* INa, with its gates advanced; fp is the CaMKII-phosphorylated fraction,
 * rm = ord_rm(v). ina_m_shift and ina_h_shift (mV, 0 in the paper) move the
 * steady states of m and of h, j to lower V; ina_form = 1 selects ToR-ORd's
 * INa (above) instead. */
CARDIAC_HD real R(ord_ina)(real *y, real v, greal rm, real ena, real fp, real dt, const real *p, const double *tab)
{
    if (p[ORD_INA_FORM] > (real)0.5) return R(ord_ina_tomek)(y, v, ena, fp, dt, p);
    const greal gv = v;
    const greal ms = p[ORD_INA_MSHIFT], hs = p[ORD_INA_HSHIFT];   /* 0 in the paper */
    y[ORD_M] = ORD_GATE(ORD_M, R(rush_larsen_rate)(y[ORD_M], R(ord_boltz)(gv, (greal)39.57 + ms, -9.871), rm, dt));
    const greal hss = R(ord_boltz)(gv, (greal)82.9 + hs, 6.086), hssp = R(ord_boltz)(gv, (greal)89.1 + hs, 6.086);
    /* rates of tau_hf = 1 / r, tau_hs = 1 / r', tau_j = 2.038 + 1 / r''; hsp's tau is 3 tau_hs, jp's 1.46 tau_j */
    const greal rhf = R(ord_rates)(gv, 1.432e-5, 1.196, -6.285, 6.149, 0.5096, 20.27);
    const greal rhs = R(ord_rates)(gv, 0.009794, 17.95, -28.05, 0.3343, 5.730, 56.66);
    const greal rj = R(ord_rate_c)(R(ord_rates)(gv, 0.02136, 100.6, -8.281, 0.3052, 0.9941, 38.45), 2.038, 1);
    y[ORD_HF] = ORD_GATE(ORD_HF, R(rush_larsen_rate)(y[ORD_HF], hss, rhf, dt));
    y[ORD_HS] = ORD_GATE(ORD_HS, R(rush_larsen_rate)(y[ORD_HS], hss, rhs, dt));
    y[ORD_J] = ORD_GATE(ORD_J, R(rush_larsen_rate)(y[ORD_J], hss, rj, dt));
    y[ORD_HSP] = ORD_GATE(ORD_HSP, R(rush_larsen_rate)(y[ORD_HSP], hssp, rhs * ((greal)1 / 3), dt));
    y[ORD_JP] = ORD_GATE(ORD_JP, R(rush_larsen_rate)(y[ORD_JP], hss, rj * ((greal)1 / (greal)1.46), dt));
    const real ahf = 0.99, ahs = 1 - ahf, m = y[ORD_M];
    const real h = ahf * y[ORD_HF] + ahs * y[ORD_HS], hp = ahf * y[ORD_HF] + ahs * y[ORD_HSP];
    return p[ORD_GNA] * (v - ena) * m * m * m * ((1 - fp) * h * y[ORD_J] + fp * hp * y[ORD_JP]);
}

/* INaL (late Na+), with its gates advanced; its activation shares INa's rate rm. */
CARDIAC_HD real R(ord_inal)(real *y, real v, greal rm, real ena, real fp, real dt, int type, const real *p,
                             const double *tab)
{
    const greal gv = v, th = 200;
    y[ORD_ML] = ORD_GATE(ORD_ML, R(rush_larsen_rate)(y[ORD_ML], R(ord_boltz)(gv, 42.85, -5.264), rm, dt));
    y[ORD_HL] = ORD_GATE(ORD_HL, R(rush_larsen_rate)(y[ORD_HL], R(ord_boltz)(gv, 87.61, 7.488), 1 / th, dt));
    y[ORD_HLP] = ORD_GATE(ORD_HLP, R(rush_larsen_rate)(y[ORD_HLP], R(ord_boltz)(gv, 93.81, 7.488), 1 / (3 * th), dt));
    const real g = p[ORD_GNAL] * R(ord_by_type)(type, 1, 0.6, 1);
    return g * (v - ena) * y[ORD_ML] * ((1 - fp) * y[ORD_HL] + fp * y[ORD_HLP]);
}

/* Ito (transient outward K+), with its gates advanced. */
CARDIAC_HD real R(ord_ito)(real *y, real v, real ek, real fp, real dt, int type, const real *p, const double *tab)
{
    const greal gv = v, c1 = 1.2089, c2 = 3.5, scale = 1.0515;
    /* tau_a = scale / (1 / (c1 (1 + e1)) + c2 / (1 + e2)): its rate over one division */
    const greal e1 = 1 + cardiac_exp((gv - (greal)18.4099) * ((greal)1 / (greal)-29.3814));
    const greal e2 = 1 + cardiac_exp((gv + 100) * ((greal)1 / (greal)29.3814));
    const greal ra = (e2 + c1 * c2 * e1) / (scale * c1 * e1 * e2);
    y[ORD_A] = ORD_GATE(ORD_A, R(rush_larsen_rate)(y[ORD_A], R(ord_boltz)(gv, -14.34, -14.82), ra, dt));
    y[ORD_AP] = ORD_GATE(ORD_AP, R(rush_larsen_rate)(y[ORD_AP], R(ord_boltz)(gv, -24.34, -14.82), ra, dt));
    const greal iss = R(ord_boltz)(gv, 43.94, 5.711);
    const greal depi = type == 1 ? 1 - (greal)0.95 * R(ord_boltz)(gv, 70, 5) : (greal)1;
    /* tau_if = (4.562 + 1 / r) depi, tau_is = (23.62 + 1 / r') depi; the
     * phosphorylated ones develop recover times those */
    const greal rf = R(ord_rates)(gv, 0.3933, 100, -100, 0.08004, 50, 16.59);
    const greal rs = R(ord_rates)(gv, 0.001416, 96.52, -59.05, 1.780e-8, 114.1, 8.079);
    /* develop's rate sum overflows in float at rest (exp((v - 12.23) / -0.2154)), where 1e-4 / inf is 0 */
    const greal develop = (greal)1.354 + (greal)1e-4 / R(ord_rates)(gv, 1, -167.4, 15.89, 1, -12.23, -0.2154);
    const greal recover = 1 - (greal)0.5 * R(ord_boltz)(gv, 70, 20);
    const greal rif = R(ord_rate_c)(rf, 4.562, depi), ris = R(ord_rate_c)(rs, 23.62, depi);
    const greal slow = 1 / (develop * recover);
    y[ORD_IF] = ORD_GATE(ORD_IF, R(rush_larsen_rate)(y[ORD_IF], iss, rif, dt));
    y[ORD_IS] = ORD_GATE(ORD_IS, R(rush_larsen_rate)(y[ORD_IS], iss, ris, dt));
    y[ORD_IFP] = ORD_GATE(ORD_IFP, R(rush_larsen_rate)(y[ORD_IFP], iss, slow * rif, dt));
    y[ORD_ISP] = ORD_GATE(ORD_ISP, R(rush_larsen_rate)(y[ORD_ISP], iss, slow * ris, dt));
    const real aif = R(ord_boltz)(gv, -213.6, 151.2), ais = 1 - aif;
    const real i = aif * y[ORD_IF] + ais * y[ORD_IS], ip = aif * y[ORD_IFP] + ais * y[ORD_ISP];
    const real g = p[ORD_GTO] * R(ord_by_type)(type, 1, 4, 4);
    return g * (v - ek) * ((1 - fp) * y[ORD_A] * i + fp * y[ORD_AP] * ip);
}

/* The L-type channel's voltage- and time-dependent gates advanced (all but nca). */
CARDIAC_HD void R(ord_ical_vgates)(real *y, real v, real dt, const double *tab)
{
    const greal gv = v;
    /* the rates of tau = c + 1 / r (ord_rate_c); ffp's and fcafp's taus are 2.5 times ff's and fcaf's */
    const greal rd = R(ord_rate_c)(R(ord_rates)(gv, 1, 6, -20, 1, 14, (greal)1 / (greal)0.09), 0.6, 1);
    y[ORD_D] = ORD_GATE(ORD_D, R(rush_larsen_rate)(y[ORD_D], R(ord_boltz)(gv, 3.940, -4.230), rd, dt));
    const greal fss = R(ord_boltz)(gv, 19.58, 3.696);
    const greal rff = R(ord_rate_c)(R(ord_rates)(gv, 0.0045, 20, -10, 0.0045, 20, 10), 7, 1);
    const greal rfs = R(ord_rate_c)(R(ord_rates)(gv, 0.000035, 5, -4, 0.000035, 5, 6), 1000, 1);
    const greal rfcaf = R(ord_rate_c)(R(ord_rates)(gv, 0.04, -4, -7, 0.04, -4, 7), 7, 1);
    const greal rfcas = R(ord_rate_c)(R(ord_rates)(gv, 0.00012, 0, -3, 0.00012, 0, 7), 100, 1);
    const greal tjca = 75, fp_slow = 2.5;
    y[ORD_FF] = ORD_GATE(ORD_FF, R(rush_larsen_rate)(y[ORD_FF], fss, rff, dt));
    y[ORD_FS] = ORD_GATE(ORD_FS, R(rush_larsen_rate)(y[ORD_FS], fss, rfs, dt));
    y[ORD_FCAF] = ORD_GATE(ORD_FCAF, R(rush_larsen_rate)(y[ORD_FCAF], fss, rfcaf, dt));
    y[ORD_FCAS] = ORD_GATE(ORD_FCAS, R(rush_larsen_rate)(y[ORD_FCAS], fss, rfcas, dt));
    y[ORD_JCA] = ORD_GATE(ORD_JCA, R(rush_larsen_rate)(y[ORD_JCA], fss, 1 / tjca, dt));
    y[ORD_FFP] = ORD_GATE(ORD_FFP, R(rush_larsen_rate)(y[ORD_FFP], fss, rff * (1 / fp_slow), dt));
    y[ORD_FCAFP] = ORD_GATE(ORD_FCAFP, R(rush_larsen_rate)(y[ORD_FCAFP], fss, rfcaf * (1 / fp_slow), dt));
}

/* nca, the fraction of L-type channels in the Ca-dependent inactivation mode,
 * advanced with subspace Ca2+ ca (mM): dn/dt = anca k2n - km2n n with
 * km2n = jca (1/ms), thesis eq. 2.22; decay = exp(-jca dt). */
CARDIAC_HD real R(ord_nca_step)(real nca, real jca, real ca, real decay)
{
    const real kmn = 0.002, k2n = 1000, km2n = jca;
    /* (k2n/km2n) / (k2n/km2n + (1 + kmn/ca)^4), over one division */
    const real c2 = ca * ca, cn = (ca + kmn) * (ca + kmn), a = k2n * c2 * c2;
    const real target = a / (a + km2n * cn * cn);
    return target - (target - nca) * decay;
}

/* The voltage gates' products: f and fp (non-phosphorylated and
 * phosphorylated voltage inactivation), fca and fcap (Ca-dependent). */
CARDIAC_HD void R(ord_ical_f)(const real *y, real v, real *f, real *fpp, real *fca, real *fcap)
{
    const real aff = 0.6, afs = 1 - aff;
    const real afcaf = (greal)0.3 + (greal)0.6 * R(ord_boltz)(v, -10, 10), afcas = 1 - afcaf;
    *f = aff * y[ORD_FF] + afs * y[ORD_FS];
    *fpp = aff * y[ORD_FFP] + afs * y[ORD_FS];
    *fca = afcaf * y[ORD_FCAF] + afcas * y[ORD_FCAS];
    *fcap = afcaf * y[ORD_FCAFP] + afcas * y[ORD_FCAS];
}

/* The L-type channel's gates advanced and its open fractions g (non-phosphorylated)
 * and gp (phosphorylated): d (f (1 - nca) + jca fca nca). */
CARDIAC_HD void R(ord_ical_gates)(real *y, real v, real dt, real *g, real *gp, const double *tab)
{
    R(ord_ical_vgates)(y, v, dt, tab);
    const greal decay = cardiac_exp(-(greal)y[ORD_JCA] * (greal)dt);   /* exp(-jca dt): a gate's, in greal */
    y[ORD_NCA] = R(ord_nca_step)(y[ORD_NCA], y[ORD_JCA], y[ORD_CASS], decay);
    real f, fpp, fca, fcap;
    R(ord_ical_f)(y, v, &f, &fpp, &fca, &fcap);
    const real nca = y[ORD_NCA], jca = y[ORD_JCA], d = y[ORD_D];
    *g = d * (f * (1 - nca) + jca * fca * nca);
    *gp = d * (fpp * (1 - nca) + jca * fcap * nca);
}

/* ICaL and its Na+ and K+ components (icana, icak), gates advanced. */
CARDIAC_HD real R(ord_ical)(real *y, real v, real vfrt, real fp, real dt, int type, const real *p,
                             real *icana, real *icak, const double *tab)
{
    real g, gp;
    R(ord_ical_gates)(y, v, dt, &g, &gp, tab);
    const real gamma_o = 0.341, gamma_m = 0.75;   /* activity coefficients */
    const real phica = R(ord_ghk)(2, vfrt, y[ORD_CASS], gamma_o * p[ORD_CAO]);
    const real phina = R(ord_ghk)(1, vfrt, gamma_m * y[ORD_NASS], gamma_m * p[ORD_NAO]);
    const real phik = R(ord_ghk)(1, vfrt, gamma_m * y[ORD_KSS], gamma_m * p[ORD_KO]);
    const real pca = p[ORD_PCA] * R(ord_by_type)(type, 1, 1.2, 2.5), phos = 1.1;
    const real rna = 0.00125, rk = 3.574e-4;   /* PCaNa / PCa, PCaK / PCa */
    const real open = (1 - fp) * g + fp * phos * gp;
    *icana = rna * pca * phina * open;
    *icak = rk * pca * phik * open;
    return pca * phica * open;
}

/* IKr, IKs and IK1 (their sum), gates advanced; ek, eks reversal potentials. */
CARDIAC_HD real R(ord_ik)(real *y, real v, real ek, real eks, real dt, int type, const real *p, const double *tab)
{
    const real ko = p[ORD_KO], cai = y[ORD_CAI];
    const greal gv = v, gko = ko;
    /* IKr */
    const greal xrss = R(ord_boltz)(gv, 8.337, -6.789);
    const greal rxf = R(ord_rate_c)(R(ord_rates)(gv, 0.3652, -31.66, 3.869, 4.123e-5, -47.78, -20.38), 12.98, 1);
    const greal rxs = R(ord_rate_c)(R(ord_rates)(gv, 0.06629, -34.70, 7.355, 1.128e-5, -29.74, -25.94), 1.865, 1);
    y[ORD_XRF] = ORD_GATE(ORD_XRF, R(rush_larsen_rate)(y[ORD_XRF], xrss, rxf, dt));
    y[ORD_XRS] = ORD_GATE(ORD_XRS, R(rush_larsen_rate)(y[ORD_XRS], xrss, rxs, dt));
    const real axf = R(ord_boltz)(gv, 54.81, 38.21);
    const real xr = axf * y[ORD_XRF] + (1 - axf) * y[ORD_XRS];
    const real rkr = R(ord_boltz)(gv, 55, 75) * R(ord_boltz)(gv, -10, 30), ko_ref = 5.4;
    const real ikr = p[ORD_GKR] * R(ord_by_type)(type, 1, 1.3, 0.8) * sqrt(ko / ko_ref) * xr * rkr * (v - ek);
    /* IKs */
    const greal xsss = R(ord_boltz)(gv, 11.60, -8.932);
    const greal rxs1 = R(ord_rate_c)(R(ord_rates)(gv, 2.326e-4, 48.28, 17.80, 0.001292, 210.0, -230.0), 817.3, 1);
    const greal rxs2 = R(ord_rates)(gv, 0.01, -50, 20, 0.0193, 66.54, -31);
    y[ORD_XS1] = ORD_GATE(ORD_XS1, R(rush_larsen_rate)(y[ORD_XS1], xsss, rxs1, dt));
    y[ORD_XS2] = ORD_GATE(ORD_XS2, R(rush_larsen_rate)(y[ORD_XS2], xsss, rxs2, dt));
    /* 1 + 0.6 / (1 + (kca/cai)^1.4) = 1 + 0.6 z / (z + 1), z = (cai/kca)^1.4 */
    const real kca = 3.8e-5, z = cardiac_pow(cai * (1 / kca), (real)1.4), ksca = 1 + (real)0.6 * z / (z + 1);
    const real iks = p[ORD_GKS] * R(ord_by_type)(type, 1, 1.4, 1) * ksca * y[ORD_XS1] * y[ORD_XS2] * (v - eks);
    /* IK1 */
    const greal xk1ss = 1 / (1 + cardiac_exp(-(gv + (greal)2.5538 * gko + (greal)144.59) * (1 / ((greal)1.5692 * gko + (greal)3.8115))));
    const greal rxk1 = R(ord_rates)(gv, 1, 127.2, -20.36, 1, 236.8, 69.33) * ((greal)1 / (greal)122.2);
    y[ORD_XK1] = ORD_GATE(ORD_XK1, R(rush_larsen_rate)(y[ORD_XK1], xk1ss, rxk1, dt));
    const real rk1 = 1 / (1 + cardiac_exp((gv + (greal)105.8 - (greal)2.6 * gko) * ((greal)1 / (greal)9.493)));
    const real ik1 = p[ORD_GK1] * R(ord_by_type)(type, 1, 1.2, 1.3) * sqrt(ko) * rk1 * y[ORD_XK1] * (v - ek);
    return ikr + iks + ik1;
}

/* The Na+/Ca2+ exchanger's rate constants that do not depend on the Ca2+ of
 * its compartment (only on V and the compartment's Na+), so that the
 * calcium release units' many compartments of one cell share them
 * (core/multiscale/dyads.h). */
struct R(ord_ncx_k) { real k1, k2, k3, k3pp, k4, k4pp, k5, k7, k8, h6; };

CARDIAC_HD struct R(ord_ncx_k) R(ord_ncx_rates)(real vfrt, real na, const real *p)
{
    const real kna1 = 15, kna2 = 5, kna3 = 88.12, kasymm = 12.5, wna = 6.0e4, wca = 6.0e4;
    const real wnaca = 5.0e3, kcaon = 1.5e6, kcaoff = 5.0e3, qna = 0.5224, qca = 0.1670;
    const real nao = p[ORD_NAO], cao = p[ORD_CAO];
    const real ikna1 = 1 / kna1, ikna2 = 1 / kna2, ikna3 = 1 / kna3;   /* constants: no division at run time */
    const greal ghca = cardiac_exp((greal)(qca * vfrt)), ghna = cardiac_exp((greal)(qna * vfrt));   /* of V alone */
    const greal gihna = 1 / ghna, gnao = (greal)(nao * ikna3);
    const greal gh7 = 1 + gnao * (1 + gihna), gh9 = 1 / gh7, gh8 = gnao * gihna * gh9;   /* h7-h9: of V alone */
    const real hna = ghna, ihca = 1 / ghca, h8 = gh8, h9 = gh9;
    const real h1 = 1 + na * ikna3 * (1 + hna), h3 = 1 / h1, h2 = na * hna * ikna3 * h3;
    const real h4 = 1 + na * ikna1 * (1 + na * ikna2), h6 = 1 / h4, h5 = na * na * ikna1 * ikna2 * h6;
    const real h10 = kasymm + 1 + nao / kna1 * (1 + nao / kna2), h11 = nao * nao / (h10 * kna1 * kna2);
    const real h12 = 1 / h10;
    struct R(ord_ncx_k) k;
    k.k1 = h12 * cao * kcaon; k.k2 = kcaoff; k.k3pp = h8 * wnaca; k.k3 = h9 * wca + k.k3pp;
    k.k4pp = h2 * wnaca; k.k4 = h3 * wca * ihca + k.k4pp; k.k5 = kcaoff;
    k.k7 = h5 * h2 * wna; k.k8 = h8 * h11 * wna; k.h6 = h6;
    return k;
}

/* Na+/Ca2+ exchanger flux (zNa JncxNa + zCa JncxCa, 1/ms-scaled) into a
 * compartment with Ca2+ ca, from its rates k, allosteric factor included; the
 * 15-state model reduced to 4 as in the paper's supplement. */
CARDIAC_HD real R(ord_ncx_flux)(const struct R(ord_ncx_k) *k, real ca)
{
    const real kcaon = 1.5e6, kmcaact = 150.0e-6;
    const real k6 = k->h6 * ca * kcaon;
    const real x1 = k->k2 * k->k4 * (k->k7 + k6) + k->k5 * k->k7 * (k->k2 + k->k3);
    const real x2 = k->k1 * k->k7 * (k->k4 + k->k5) + k->k4 * k6 * (k->k1 + k->k8);
    const real x3 = k->k1 * k->k3 * (k->k7 + k6) + k->k8 * k6 * (k->k2 + k->k3);
    const real x4 = k->k2 * k->k8 * (k->k4 + k->k5) + k->k3 * k->k5 * (k->k1 + k->k8);
    /* the state fractions e_i = x_i / sum x, times the allosteric factor
     * 1 / (1 + (kmcaact/ca)^2) = ca^2 / (ca^2 + kmcaact^2), over one division */
    const real ca2 = ca * ca, s = ca2 / ((x1 + x2 + x3 + x4) * (ca2 + kmcaact * kmcaact));
    const real e1 = x1 * s, e2 = x2 * s, e3 = x3 * s, e4 = x4 * s;
    const real jna = 3 * (e4 * k->k7 - e1 * k->k8) + e3 * k->k4pp - e2 * k->k3pp, jca = e2 * k->k2 - e1 * k->k1;
    return jna + 2 * jca;
}

/* The exchanger flux into a compartment with Na+ na and Ca2+ ca. */
CARDIAC_HD real R(ord_ncx)(real vfrt, real na, real ca, const real *p)
{
    const struct R(ord_ncx_k) k = R(ord_ncx_rates)(vfrt, na, p);
    return R(ord_ncx_flux)(&k, ca);
}

/* INaK (Na+/K+ pump, Smith & Crampin 2004 as reduced in the paper). */
CARDIAC_HD real R(ord_inak)(real vfrt, real nai, real ki, int type, const real *p)
{
    const real k1p = 949.5, k1m = 182.4, k2p = 687.2, k2m = 39.4, k3p = 1899.0, k3m = 79300.0;
    const real k4p = 639.0, k4m = 40.0, knai0 = 9.073, knao0 = 27.78, delta = -0.1550;
    const real kki = 0.5, kko = 0.3582, mgadp = 0.05, mgatp = 9.8, kmgatp = 1.698e-7;
    const real hh = 1.0e-7, ep = 4.2, khp = 1.698e-7, knap = 224.0, kxkur = 292.0;
    const real nao = p[ORD_NAO], ko = p[ORD_KO];
    /* divisions by constants written as products with their (folded) reciprocals */
    const real P = ep / (1 + hh / khp + nai * (1 / knap) + ki * (1 / kxkur));
    /* nai / knai and nao / knao, knai = knai0 e^{delta V F/3RT}: factors of V alone */
    const real ni = nai * (1 / knai0) * (real)cardiac_exp((greal)(vfrt * (-delta / 3)));
    const real no = nao * (1 / knao0) * (real)cardiac_exp((greal)(vfrt * (-(1 - delta) / 3)));
    const real ki_ = ki * (1 / kki), ko_ = ko * (1 / kko);
    const real di = (1 + ni) * (1 + ni) * (1 + ni) + (1 + ki_) * (1 + ki_) - 1;
    const real dout = (1 + no) * (1 + no) * (1 + no) + (1 + ko_) * (1 + ko_) - 1;
    const real r = 1 / (di * dout), idi = dout * r, idout = di * r;   /* 1/di, 1/dout */
    const real a1 = k1p * ni * ni * ni * idi, b1 = k1m * mgadp, a2 = k2p;
    const real b2 = k2m * no * no * no * idout, a3 = k3p * ko_ * ko_ * idout;
    const real b3 = P * (k3m * hh / (1 + mgatp / kmgatp)), a4 = k4p * mgatp / kmgatp / (1 + mgatp / kmgatp);
    const real b4 = k4m * ki_ * ki_ * idi;
    const real x1 = a4 * a1 * a2 + b2 * b4 * b3 + a2 * b4 * b3 + b3 * a1 * a2;
    const real x2 = b2 * b1 * b4 + a1 * a2 * a3 + a3 * b1 * b4 + a2 * a3 * b4;
    const real x3 = a2 * a3 * a4 + b3 * b2 * b1 + b2 * b1 * a4 + a3 * a4 * b1;
    const real x4 = b4 * b3 * b2 + a3 * a4 * a1 + b2 * a4 * a1 + b3 * b2 * a1;
    const real s = 1 / (x1 + x2 + x3 + x4);
    const real jnak_na = 3 * (x1 * s * a3 - x2 * s * b3), jnak_k = 2 * (x4 * s * b1 - x3 * s * a1);
    return p[ORD_PNAK] * R(ord_by_type)(type, 1, 0.9, 0.7) * (jnak_na + jnak_k);
}

/* SR release fluxes Jrelnp and Jrelp advanced (thesis eqs. 2.23-2.24) from
 * ICaL; returns the total release Jrel (mM/ms). */
CARDIAC_HD real R(ord_jrel)(real *y, real ical, real fp, real dt, int type, const real *p)
{
    const real bt = 4.75, cajsr = y[ORD_CAJSR], half = 1.5, kt = 0.0123, tmin = 0.001;
    const real c2 = cajsr * cajsr, c4 = c2 * c2, c8 = c4 * c4, h2 = half * half, h4 = h2 * h2;
    const real m = R(ord_by_type)(type, 1, 1, 1.7) * p[ORD_JREL];
    /* -ical m / (1 + (half/cajsr)^8) and 1 / (1 + kt/cajsr), from one reciprocal */
    const real u = c8 + h4 * h4, w = cajsr + kt, r = 1 / (u * w);
    const real base = -ical * m * c8 * w * r, q = cajsr * u * r;
    const real tnp = fmax(bt * q, tmin), tp = fmax((real)1.25 * bt * q, tmin);
    y[ORD_JRELNP] = R(relax_step)(y[ORD_JRELNP], (real)0.5 * bt * base, (greal)tnp, (greal)dt);
    y[ORD_JRELP] = R(relax_step)(y[ORD_JRELP], (real)0.5 * (real)1.25 * bt * base, (greal)tp, (greal)dt);
    return (1 - fp) * y[ORD_JRELNP] + fp * y[ORD_JRELP];
}

/* The paper's cell geometry: capacitive area over F (acap/F, cm^2 mol/C) and
 * compartment volumes (uL). */
struct R(ord_geom) {
    real afc, vmyo, vnsr, vjsr, vss;
    /* their ratios, folded at compile time: the steps multiply by them */
    real afc_vmyo, afc_vss, vss_vmyo, vnsr_vmyo, vjsr_vss, vjsr_vnsr;
};

CARDIAC_HD struct R(ord_geom) R(ord_geometry)(void)
{
    const real F = 96485, pi = 3.14;             /* the authors' value of pi */
    const real L = 0.01, rad = 0.0011;           /* cell length and radius, cm */
    const real vcell = 1000 * pi * rad * rad * L, acap = 2 * (2 * pi * rad * rad + 2 * pi * rad * L);
    struct R(ord_geom) g;
    g.vmyo = (real)0.68 * vcell; g.vnsr = (real)0.0552 * vcell; g.vjsr = (real)0.0048 * vcell;
    g.vss = (real)0.02 * vcell; g.afc = acap / F;
    g.afc_vmyo = g.afc / g.vmyo; g.afc_vss = g.afc / g.vss; g.vss_vmyo = g.vss / g.vmyo;
    g.vnsr_vmyo = g.vnsr / g.vmyo; g.vjsr_vss = g.vjsr / g.vss; g.vjsr_vnsr = g.vjsr / g.vnsr;
    return g;
}

/* The membrane currents that carry Na+ and K+ (uA/uF), for their concentrations. */
struct R(ord_nak_currents) { real ina, inal, inaca_i, inaca_ss, inak, inab, icana, icak, ito, ik, ikb, istim; };

/* Na+ and K+ in the myoplasm and the subspace, forward Euler from the old state. */
CARDIAC_HD void R(ord_na_k_step)(real *y, const struct R(ord_geom) *g, const struct R(ord_nak_currents) *c, real dt)
{
    const real nai = y[ORD_NAI], nass = y[ORD_NASS], ki = y[ORD_KI], kss = y[ORD_KSS];
    const real tdiffna = 2, tdiffk = 2;
    const real jdiffna = (nass - nai) * (1 / tdiffna), jdiffk = (kss - ki) * (1 / tdiffk);
    const real afc_vmyo = g->afc_vmyo, afc_vss = g->afc_vss, vss_vmyo = g->vss_vmyo;
    y[ORD_NAI] = R(forward_euler)(nai, -(c->ina + c->inal + 3 * c->inaca_i + 3 * c->inak + c->inab) * afc_vmyo + jdiffna * vss_vmyo, dt);
    y[ORD_NASS] = R(forward_euler)(nass, -(c->icana + 3 * c->inaca_ss) * afc_vss - jdiffna, dt);
    y[ORD_KI] = R(forward_euler)(ki, -(c->ito + c->ik + c->ikb + c->istim - 2 * c->inak) * afc_vmyo + jdiffk * vss_vmyo, dt);
    y[ORD_KSS] = R(forward_euler)(kss, -c->icak * afc_vss - jdiffk, dt);
}

/* INa, INaL, Ito and IKr + IKs + IK1 into c, gates advanced, with the
 * reversal potentials from the old Na+ and K+; returns EK. */
CARDIAC_HD real R(ord_na_k_channels)(real *y, real v, real fp, real dt, int type, const real *p,
                                     struct R(ord_nak_currents) *c, const double *tab)
{
    const real rtf = (real)8314 * 310 / 96485, pkna = 0.01833;
    const real nai = y[ORD_NAI], ki = y[ORD_KI], nao = p[ORD_NAO], ko = p[ORD_KO];
    /* log(a/b) as -log(b (1/a)): 1/a folds when the parameters are the defaults */
    const real ena = -rtf * cardiac_log(nai * (1 / nao)), ek = -rtf * cardiac_log(ki * (1 / ko));
    const real eks = -rtf * cardiac_log((ki + pkna * nai) * (1 / (ko + pkna * nao)));
    const greal rm = R(ord_rm)(v);
    c->ina = R(ord_ina)(y, v, rm, ena, fp, dt, p, tab);
    c->inal = R(ord_inal)(y, v, rm, ena, fp, dt, type, p, tab);
    c->ito = R(ord_ito)(y, v, ek, fp, dt, type, p, tab);
    c->ik = R(ord_ik)(y, v, ek, eks, dt, type, p, tab);
    return ek;
}

/* Rapid buffering factors (Wagner & Keizer 1995): myoplasm (calmodulin, troponin) */
CARDIAC_HD real R(ord_buffer_myo)(real cai, int type)
{
    const real cmdnmax = R(ord_by_type)(type, 0.05, 0.065, 0.05), kmcmdn = 0.00238;
    const real trpnmax = 0.07, kmtrpn = 0.0005;
    const real u = (kmcmdn + cai) * (kmcmdn + cai), w = (kmtrpn + cai) * (kmtrpn + cai);
    return u * w / (u * w + cmdnmax * kmcmdn * w + trpnmax * kmtrpn * u);   /* 1 / (1 + a/u + b/w) */
}

/* ... and subspace (SR and sarcolemmal binding sites) */
CARDIAC_HD real R(ord_buffer_ss)(real cass)
{
    const real bsrmax = 0.047, kmbsr = 0.00087, bslmax = 1.124, kmbsl = 0.0087;
    const real u = (kmbsr + cass) * (kmbsr + cass), w = (kmbsl + cass) * (kmbsl + cass);
    return u * w / (u * w + bsrmax * kmbsr * w + bslmax * kmbsl * u);
}

/* One step of one cell: idiff and istim are dV/dt contributions (mV/ms);
 * tab: the gates' rate table for the cell's parameters (see ord_tab_gate),
 * or NULL. */
CARDIAC_HD void R(ord_step)(real *y, real idiff, real istim, real dt, const real *p, const double *tab)
{
    const int type = (int)(p[ORD_CELLTYPE] + (real)0.5);
    const real Rg = 8314, T = 310, F = 96485;
    const struct R(ord_geom) geo = R(ord_geometry)();
    const real v = y[ORD_V], vfrt = v * (F / (Rg * T));
    const real nai = y[ORD_NAI], nass = y[ORD_NASS], ki = y[ORD_KI];
    const real cai = y[ORD_CAI], cass = y[ORD_CASS], cansr = y[ORD_CANSR], cajsr = y[ORD_CAJSR];
    const real nao = p[ORD_NAO];

    /* CaMKII: active fraction from the old state, then CaMKt by forward Euler */
    const real acamk = 0.05, bcamk = 0.00068, camko = 0.05, kmcam = 0.0015, kmcamk = 0.15;
    const real camkb = camko * (1 - y[ORD_CAMKT]) * cass / (cass + kmcam), camka = camkb + y[ORD_CAMKT];
    const real fp = camka / (camka + kmcamk);   /* 1 / (1 + kmcamk/camka) */
    y[ORD_CAMKT] = R(forward_euler)(y[ORD_CAMKT], acamk * camkb * camka - bcamk * y[ORD_CAMKT], dt);

    /* reversal potentials and currents (gates advanced inside) */
    struct R(ord_nak_currents) c;
    const real ek = R(ord_na_k_channels)(y, v, fp, dt, type, p, &c, tab);
    const real ical = R(ord_ical)(y, v, vfrt, fp, dt, type, p, &c.icana, &c.icak, tab);
    const real gncx = p[ORD_GNCX] * R(ord_by_type)(type, 1, 1.1, 1.4);
    c.inaca_i = (real)0.8 * gncx * R(ord_ncx)(vfrt, nai, cai, p);
    c.inaca_ss = (real)0.2 * gncx * R(ord_ncx)(vfrt, nass, cass, p);
    c.inak = R(ord_inak)(vfrt, nai, ki, type, p);
    const real xkb = R(ord_boltz)(v, -14.48, -18.34);
    c.ikb = p[ORD_GKB] * R(ord_by_type)(type, 1, 0.6, 1) * xkb * (v - ek);
    c.inab = p[ORD_PNAB] * R(ord_ghk)(1, vfrt, nai, nao);
    const real gamma_o = 0.341, kmpca = 0.0005;
    const real icab = p[ORD_PCAB] * R(ord_ghk)(2, vfrt, cai, gamma_o * p[ORD_CAO]);
    const real ipca = p[ORD_GPCA] * cai / (kmpca + cai);
    c.istim = -istim;

    /* fluxes */
    const real jrel = R(ord_jrel)(y, ical, fp, dt, type, p);
    const real kup = 0.004375, kmup = 0.00092, dkmplb = 0.00017, nsr_max = 15;
    const real upf = R(ord_by_type)(type, 1, 1.3, 1) * p[ORD_JUP];
    /* (1 - fp) Jupnp + fp Jupp, Jupnp = upf kup cai / (cai + kmup) and
     * Jupp = 2.75 upf kup cai / (cai + kmup - dkmplb), over one division */
    const real ua = cai + kmup, ub = ua - dkmplb;
    const real jleak = cansr * ((real)0.0039375 / nsr_max);
    const real jup = upf * kup * cai * ((1 - fp) * ub + fp * (real)2.75 * ua) / (ua * ub) - jleak;
    const real tdiffca = 0.2, ttr = 100;
    const real jdiff = (cass - cai) * (1 / tdiffca), jtr = (cansr - cajsr) * (1 / ttr);

    /* concentrations, forward Euler */
    R(ord_na_k_step)(y, &geo, &c, dt);
    const real bcai = R(ord_buffer_myo)(cai, type);
    y[ORD_CAI] = R(forward_euler)(cai, bcai * (-(ipca + icab - 2 * c.inaca_i) * (geo.afc_vmyo / 2) - jup * geo.vnsr_vmyo + jdiff * geo.vss_vmyo), dt);
    const real bcass = R(ord_buffer_ss)(cass);
    y[ORD_CASS] = R(forward_euler)(cass, bcass * (-(ical - 2 * c.inaca_ss) * (geo.afc_vss / 2) + jrel * geo.vjsr_vss - jdiff), dt);
    y[ORD_CANSR] = R(forward_euler)(cansr, jup - jtr * geo.vjsr_vnsr, dt);
    const real csqnmax = 10.0, kmcsqn = 0.8, u = (kmcsqn + cajsr) * (kmcsqn + cajsr);
    const real bcajsr = u / (u + csqnmax * kmcsqn);   /* 1 / (1 + csqnmax kmcsqn / u) */
    y[ORD_CAJSR] = R(forward_euler)(cajsr, bcajsr * (jtr - jrel), dt);

    /* membrane potential */
    const real iion = c.ina + c.inal + c.ito + ical + c.icana + c.icak + c.ik + c.inaca_i + c.inaca_ss + c.inak + c.inab + c.ikb + ipca + icab;
    y[ORD_V] = R(forward_euler)(v, -iion + idiff + istim, dt);
}

/* One step of one cell with the gates' kinetics as written. */
CARDIAC_HD void R(ohara_rudy_step)(real *y, real idiff, real istim, real dt, const real *p)
{
    R(ord_step)(y, idiff, istim, dt, p, 0);
}

/* One step of one cell with its gates stepped from rate table tab (not
 * NULL). */
CARDIAC_HD void R(ohara_rudy_step_tab)(real *y, real idiff, real istim, real dt, const real *p, const double *tab)
{
    R(ord_step)(y, idiff, istim, dt, p, tab);
}
