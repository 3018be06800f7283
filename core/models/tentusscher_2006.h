/* ten Tusscher-Panfilov 2006 (TP06) human ventricular action potential
 * model, 19 states; single source for CPU and GPU, float and double
 * (instantiated by core/engine/instances.h; no include guard).
 *
 * K. H. W. J. ten Tusscher, A. V. Panfilov, Alternans and spiral breakup in a
 * human ventricular tissue model, Am. J. Physiol. Heart Circ. Physiol.
 * 291:H1088-H1100 (2006), with the equations it keeps from ten Tusscher,
 * Noble, Noble, Panfilov, Am. J. Physiol. 286:H1573-H1589 (2004); checked
 * against the CellML encoding (models.physiomeproject.org/e/80d) as
 * translated by Myokit (tentusscher-2006.mmt; docs/models.md).
 *
 * Update rules: the currents are computed from the state at t^n; every gate
 * takes the Rush-Larsen step from V^n; the free concentrations (with the
 * rapid-buffering factors of the CellML encoding), R-bar and V take forward
 * Euler. Units: mV, ms, mM, pA/pF. idiff and istim are dV/dt contributions
 * (mV/ms): the stimulus current is I_stim = -istim, carried by K+ as in the
 * authors' code.
 *
 * Every floating constant is held in a variable or argument of type `real`,
 * so that the float instance never computes in double. */
#include "tentusscher_2006_consts.h"

/* 1 / (1 + exp((a - v) / k)): the model's activation curves */
CARDIAC_HD real R(tp_sig)(real v, real a, real k) { return 1 / (1 + exp((a - v) / k)); }

/* x / (e^x - 1), finite at x = 0 (ICaL's removable singularity at V = 15 mV) */
CARDIAC_HD real R(tp_x_expm1)(real x) { return fabs(x) < (real)1e-4 ? 1 - x / 2 : x / expm1(x); }

/* INa's gate kinetics (2004 paper, appendix) at v: the steady states of m
 * (minf) and of h and j (hinf), and the time constants of m, h and j. Written
 * in greal (real in this model's instances) so that ORd's INa variant, which
 * reuses them (core/models/ohara_rudy.h), keeps its gate kinetics in greal. */
struct R(tp_ina_rates) { greal minf, hinf, tm, th, tj; };

/* h's and j's steady state, (1 + exp((v + 71.55)/7.43))^-2 */
CARDIAC_HD greal R(tp_ina_hinf)(greal v)
{
    const greal hs = 1 / (1 + exp((v + (greal)71.55) / (greal)7.43));
    return hs * hs;
}

CARDIAC_HD struct R(tp_ina_rates) R(tp_ina_kinetics)(greal v)
{
    struct R(tp_ina_rates) k;
    const greal ms = 1 / (1 + exp(((greal)-56.86 - v) / (greal)9.03));
    k.minf = ms * ms;
    k.hinf = R(tp_ina_hinf)(v);
    k.tm = 1 / (1 + exp(((greal)-60 - v) / 5)) *
           ((greal)0.1 / (1 + exp((v + 35) / 5)) + (greal)0.1 / (1 + exp((v - 50) / 200)));
    greal ah = 0, bh, aj = 0, bj;
    if (v < -40) {
        ah = (greal)0.057 * exp(-(v + 80) / (greal)6.8);
        bh = (greal)2.7 * exp((greal)0.079 * v) + (greal)3.1e5 * exp((greal)0.3485 * v);
        aj = ((greal)-25428 * exp((greal)0.2444 * v) - (greal)6.948e-6 * exp((greal)-0.04391 * v)) * (v + (greal)37.78) /
             (1 + exp((greal)0.311 * (v + (greal)79.23)));
        bj = (greal)0.02424 * exp((greal)-0.01052 * v) / (1 + exp((greal)-0.1378 * (v + (greal)40.14)));
    } else {
        bh = (greal)0.77 / ((greal)0.13 * (1 + exp(-(v + (greal)10.66) / (greal)11.1)));
        bj = (greal)0.6 * exp((greal)0.057 * v) / (1 + exp((greal)-0.1 * (v + 32)));
    }
    k.th = 1 / (ah + bh);
    k.tj = 1 / (aj + bj);
    return k;
}

/* INa's gates m, h, j advanced. */
CARDIAC_HD void R(tp_ina_gates)(real *y, real v, real dt)
{
    const struct R(tp_ina_rates) k = R(tp_ina_kinetics)(v);
    y[TP_M] = R(rush_larsen)(y[TP_M], k.minf, k.tm, dt);
    y[TP_H] = R(rush_larsen)(y[TP_H], k.hinf, k.th, dt);
    y[TP_J] = R(rush_larsen)(y[TP_J], k.hinf, k.tj, dt);
}

/* The K+ channels' gates advanced: IKr (xr1, xr2), IKs (xs), Ito (r, s). */
CARDIAC_HD void R(tp_k_gates)(real *y, real v, int type, real dt)
{
    const real txr1 = 450 * R(tp_sig)(v, -45, 10) * 6 / (1 + exp((v + 30) / (real)11.5));
    const real txr2 = 3 * R(tp_sig)(v, -60, 20) * (real)1.12 / (1 + exp((v - 60) / 20));
    const real txs = 1400 / sqrt(1 + exp((5 - v) / 6)) / (1 + exp((v - 35) / 15)) + 80;
    y[TP_XR1] = R(rush_larsen)(y[TP_XR1], R(tp_sig)(v, -26, 7), txr1, dt);
    y[TP_XR2] = R(rush_larsen)(y[TP_XR2], 1 / (1 + exp((v + 88) / 24)), txr2, dt);
    y[TP_XS] = R(rush_larsen)(y[TP_XS], R(tp_sig)(v, -5, 14), txs, dt);
    const real tr = (real)9.5 * exp(-(v + 40) * (v + 40) / 1800) + (real)0.8;
    y[TP_R] = R(rush_larsen)(y[TP_R], R(tp_sig)(v, 20, 6), tr, dt);
    real ss, ts;
    if (type == 0) {   /* endocardial: slow recovery of Ito */
        ss = 1 / (1 + exp((v + 28) / 5));
        ts = 1000 * exp(-(v + 67) * (v + 67) / 1000) + 8;
    } else {
        ss = 1 / (1 + exp((v + 20) / 5));
        ts = 85 * exp(-(v + 45) * (v + 45) / 320) + 5 / (1 + exp((v - 20) / 5)) + 3;
    }
    y[TP_S] = R(rush_larsen)(y[TP_S], ss, ts, dt);
}

/* ICaL's gates d, f, f2, fCaSS advanced (2006 paper, appendix). */
CARDIAC_HD void R(tp_cal_gates)(real *y, real v, real cass, real dt)
{
    const real td = ((real)1.4 * R(tp_sig)(v, -35, 13) + (real)0.25) * (real)1.4 / (1 + exp((v + 5) / 5)) +
                    R(tp_sig)(v, 50, 20);
    const real tf = (real)1102.5 * exp(-(v + 27) * (v + 27) / 225) + 200 * R(tp_sig)(v, 13, 10) +
                    180 / (1 + exp((v + 30) / 10)) + 20;
    const real tf2 = 562 * exp(-(v + 27) * (v + 27) / 240) + 31 * R(tp_sig)(v, 25, 10) + 80 / (1 + exp((v + 30) / 10));
    const real c = cass / (real)0.05, c2 = 1 / (1 + c * c);
    y[TP_D] = R(rush_larsen)(y[TP_D], R(tp_sig)(v, -8, 7.5), td, dt);
    y[TP_F] = R(rush_larsen)(y[TP_F], 1 / (1 + exp((v + 20) / 7)), tf, dt);
    y[TP_F2] = R(rush_larsen)(y[TP_F2], (real)0.67 / (1 + exp((v + 35) / 7)) + (real)0.33, tf2, dt);
    y[TP_FCASS] = R(rush_larsen)(y[TP_FCASS], (real)0.6 * c2 + (real)0.4, 80 * c2 + 2, dt);
}

/* Fraction free of a buffered concentration c (total buffer b, constant k). */
CARDIAC_HD real R(tp_free)(real c, real b, real k) { return 1 / (1 + b * k / ((c + k) * (c + k))); }

/* SR calcium handling: R-bar advanced; returns d(free Ca)/dt of the
 * cytoplasm, subspace and SR in dcai, dcass, dcasr, given the sarcolemmal
 * Ca2+ currents entering the cytoplasm (i_cai = ICab + IpCa - 2 INaCa) and
 * the subspace (ICaL), in pA/pF. */
CARDIAC_HD void R(tp_calcium)(real *y, real i_cai, real ical, real dt, const real *p, real *dcai, real *dcass,
                              real *dcasr)
{
    const real F = 96.4853415, cm = 185, vc = 16404, vss = 54.68, vsr = 1094;   /* C/mmol, pF, um^3 */
    const real cai = y[TP_CAI], cass = y[TP_CASS], casr = y[TP_CASR];
    const real ec = 1.5, maxsr = 2.5, minsr = 1, k1p = 0.15, k2p = 0.045, k3 = 0.06, k4 = 0.005;
    const real e = ec / casr, kcasr = maxsr - (maxsr - minsr) / (1 + e * e);
    const real k1 = k1p / kcasr, k2 = k2p * kcasr, rr = y[TP_RR];
    const real open = k1 * cass * cass * rr / (k3 + k1 * cass * cass);
    y[TP_RR] = R(forward_euler)(rr, -k2 * cass * rr + k4 * (1 - rr), dt);
    const real kup = 0.00025, u = kup / cai;
    const real jrel = p[TP_VREL] * open * (casr - cass), jup = p[TP_VMAXUP] / (1 + u * u);
    const real jleak = p[TP_VLEAK] * (casr - cai), jxfer = p[TP_VXFER] * (cass - cai);
    *dcai = R(tp_free)(cai, 0.2, 0.001) * (-i_cai * cm / (2 * vc * F) + (jleak - jup) * vsr / vc + jxfer);
    *dcass = R(tp_free)(cass, 0.4, 0.00025) * (-ical * cm / (2 * vss * F) + jrel * vsr / vss - jxfer * vc / vss);
    *dcasr = R(tp_free)(casr, 10, 0.3) * (jup - jrel - jleak);
}

/* One step of one cell: idiff and istim are dV/dt contributions (mV/ms). */
CARDIAC_HD void R(tentusscher_2006_step)(real *y, real idiff, real istim, real dt, const real *p)
{
    const int type = (int)(p[TP_CELLTYPE] + (real)0.5);
    const real Rg = 8314.472, T = 310, F = 96485.3415, rtf = Rg * T / F, frt = 1 / rtf;
    const real cm = 185, vc = 16404, f_mmol = 96.4853415;   /* pF, um^3, C/mmol */
    const real v = y[TP_V], cai = y[TP_CAI], cass = y[TP_CASS], nai = y[TP_NAI], ki = y[TP_KI];
    const real nao = p[TP_NAO], cao = p[TP_CAO], ko = p[TP_KO], pkna = 0.03;
    const real ena = rtf * log(nao / nai), ek = rtf * log(ko / ki), eca = (real)0.5 * rtf * log(cao / cai);
    const real eks = rtf * log((ko + pkna * nao) / (ki + pkna * nai)), kscale = sqrt(ko / (real)5.4);

    /* currents from the state at t^n */
    const real m = y[TP_M];
    const real ina = p[TP_GNA] * m * m * m * y[TP_H] * y[TP_J] * (v - ena);
    const real ak1 = (real)0.1 / (1 + exp((real)0.06 * (v - ek - 200)));
    const real bk1 = (3 * exp((real)0.0002 * (v - ek + 100)) + exp((real)0.1 * (v - ek - 10))) /
                     (1 + exp((real)-0.5 * (v - ek)));
    const real ik1 = p[TP_GK1] * kscale * ak1 / (ak1 + bk1) * (v - ek);
    const real ikr = p[TP_GKR] * kscale * y[TP_XR1] * y[TP_XR2] * (v - ek);
    const real gks = p[TP_GKS] * (type == 2 ? (real)0.25 : (real)1);
    const real iks = gks * y[TP_XS] * y[TP_XS] * (v - eks);
    const real gto = p[TP_GTO] * (type == 0 ? (real)0.073 / (real)0.294 : (real)1);
    const real ito = gto * y[TP_R] * y[TP_S] * (v - ek);
    const real x = 2 * (v - 15) * frt;   /* ICaL's GHK term, 2 F x / (e^x - 1) (0.25 CaSS e^x - Cao) */
    const real ical = p[TP_GCAL] * y[TP_D] * y[TP_F] * y[TP_F2] * y[TP_FCASS] * 2 * F * R(tp_x_expm1)(x) *
                      ((real)0.25 * cass * exp(x) - cao);
    const real inak = p[TP_PNAK] * ko / (ko + 1) * nai / (nai + 40) /
                      (1 + (real)0.1245 * exp((real)-0.1 * v * frt) + (real)0.0353 * exp(-v * frt));
    const real kmnai = 87.5, kmca = 1.38, ksat = 0.1, alpha = 2.5, gamma = 0.35;
    const real eg = exp(gamma * v * frt), eg1 = exp((gamma - 1) * v * frt);
    const real inaca = p[TP_KNACA] * (eg * nai * nai * nai * cao - eg1 * nao * nao * nao * cai * alpha) /
                       ((kmnai * kmnai * kmnai + nao * nao * nao) * (kmca + cao) * (1 + ksat * eg1));
    const real ipca = p[TP_GPCA] * cai / (cai + (real)0.0005);
    const real ipk = p[TP_GPK] * (v - ek) / (1 + exp((25 - v) / (real)5.98));
    const real icab = p[TP_GCAB] * (v - eca), inab = p[TP_GNAB] * (v - ena);
    const real istim_current = -istim;

    /* concentrations (forward Euler; calcium with its buffers) */
    real dcai, dcass, dcasr;
    R(tp_calcium)(y, icab + ipca - 2 * inaca, ical, dt, p, &dcai, &dcass, &dcasr);
    y[TP_CAI] = R(forward_euler)(cai, dcai, dt);
    y[TP_CASS] = R(forward_euler)(cass, dcass, dt);
    y[TP_CASR] = R(forward_euler)(y[TP_CASR], dcasr, dt);
    const real c = cm / (vc * f_mmol);
    y[TP_NAI] = R(forward_euler)(nai, -(ina + inab + 3 * inak + 3 * inaca) * c, dt);
    y[TP_KI] = R(forward_euler)(ki, -(ik1 + ito + ikr + iks + ipk + istim_current - 2 * inak) * c, dt);

    /* gates (Rush-Larsen from V^n), then V */
    R(tp_ina_gates)(y, v, dt);
    R(tp_k_gates)(y, v, type, dt);
    R(tp_cal_gates)(y, v, cass, dt);
    const real iion = ina + ik1 + ikr + iks + ito + ical + inak + inaca + ipca + ipk + icab + inab;
    y[TP_V] = R(forward_euler)(v, -iion + idiff + istim, dt);
}
