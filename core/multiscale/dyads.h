/* Calcium release units (dyads) of the multiscale model: one step of one
 * dyad's channels and calcium, single source for the CPU and GPU backends in
 * both precisions (precision template, no include guard; core/engine/instances.h).
 *
 * Sources: Gaur & Rudy 2011 (the multiscale model: 10,000 dyads per cell, 5
 * compartments each, 100 RyRs and 15 L-type channels per dyad), Restrepo,
 * Weiss & Karma 2008 (the four-state RyR with a calsequestrin-controlled
 * refractory tier), O'Hara et al. 2011 (the L-type channel's gates, the
 * exchanger, pumps and buffers, evaluated in each dyad with its local Ca2+),
 * and Altanaite 2017, chapter 2 (the equations as the thesis writes them).
 * Constants follow the public C++ encoding of ORd with Gaur-Rudy dyads cited
 * in docs/models.md; where we depart from it, docs/models.md says why.
 *
 * A step of one dyad, from its old state (forward Euler; the dyadic space is
 * quasi-steady, thesis eq. 2.1):
 *   1. CaMKII and the L-type channels' Ca-dependent mode nca from the old
 *      dyadic Ca2+ (cads);
 *   2. open L-type channels drawn: of 15, B(15, q_np) open in the
 *      non-phosphorylated mode, then B(15 - n_np, q_p / (1 - q_np)) in the
 *      phosphorylated one, q from the cell's gates and the dyad's nca;
 *   3. RyR transitions drawn from the old counts, two exclusive directions per
 *      state (thesis eq. 2.24): C1 -> O1 and C2 -> C3 at k_open cads^4 /
 *      (cads^4 + km^4), O1 -> C1 and C3 -> C2 at k_close, the upper tier
 *      (C1, O1) to the refractory one (C2, C3) at the free CSQN fraction
 *      km_csqn^8 / (cajsr^8 + km_csqn^8) per ms and back at the bound one;
 *      a RyR clamp then overrides the counts;
 *   4. release through the open RyRs, J = d_ryr n_O1 (cajsr - cads), and
 *      L-type influx set the new quasi-steady cads; what they bring leaves
 *      to the submembrane space within the step, so calcium is conserved;
 *   5. submembrane, myoplasm, JSR and NSR concentrations by forward Euler,
 *      with the exchanger, pumps and buffers at their local concentrations.
 * Diffusion between neighbouring dyads (thesis eqs. 2.4, 2.8, 2.10) follows
 * as a separate explicit step (core/multiscale/multiscale_stage.h). */
#include "binomial.h"
#include "models/gaur_rudy_consts.h"

/* What every dyad of one cell shares in one step: the cell's gates and
 * concentrations turned into the coefficients the dyads need, so that the
 * exponentials are evaluated once per cell, not once per dyad. */
struct R(dyad_cell) {
    real q_np[2], q_p[2];     /* open probability given the mode: {voltage-, Ca-dependent} */
    real nca_decay;           /* exp(-jca dt) */
    real jca;
    real ghk_ca[2];           /* L-type driving force a cads_mM - b (C/L per cm/s) */
    real ica_na, ica_k;       /* PCaNa PhiCaNa and PCaK PhiCaK per open channel fraction, uA/uF */
    real pca;                 /* L-type Ca2+ permeability, cm/s (by cell type) */
    real ghk_cab[2];          /* background Ca2+: a cai - b */
    struct R(ord_ncx_k) ncx_i, ncx_ss;   /* exchanger rates with myoplasm and subspace Na+ */
    real gncx;                /* exchanger scale by cell type, uA/uF */
    real upf;                 /* SERCA scale by cell type */
    real rtau_ss_myo, rtau_refill;   /* 1 / tau_ss_myo, 1 / tau_refill (1/ms) */
    int type;
};

/* One dyad's state. */
struct R(dyad) {
    real cads;                /* dyadic space, uM */
    real cass, cacyt, cansr, cajsr;   /* submembrane space, myoplasm, NSR, JSR; mM */
    real nca, camkt;
    int ryr[4];               /* RyRs in C1, O1, C2, C3 */
};

/* What one dyad contributes to its cell's currents and fluxes. */
struct R(dyad_out) {
    real ical, icana, icak, inaca_i, inaca_ss, icab, ipca;   /* uA/uF, as if every dyad were this one */
    real camka, jrel, jup;    /* jrel in uM/ms of dyadic space, jup (net of leak) in mM/ms of NSR */
    int lcc_open;
};

/* The per-cell coefficients from the cell's state y (ORd's indices) and parameters p. */
CARDIAC_HD void R(dyad_cell_setup)(struct R(dyad_cell) *c, const real *y, const real *p, real dt)
{
    const real F = 96485, Rg = 8314, T = 310;
    const int type = (int)(p[ORD_CELLTYPE] + (real)0.5);
    const real v = y[ORD_V], vfrt = v * F / (Rg * T);
    real f, fpp, fca, fcap;
    R(ord_ical_f)(y, v, &f, &fpp, &fca, &fcap);
    const real d = y[ORD_D], jca = y[ORD_JCA];
    c->q_np[0] = d * f; c->q_np[1] = d * jca * fca;
    c->q_p[0] = d * fpp; c->q_p[1] = d * jca * fcap;
    c->jca = jca;
    c->nca_decay = cardiac_exp(-jca * dt);
    /* GHK flux z^2 VF^2/RT (g_i c_i e^x - g_o c_o) / (e^x - 1), x = z VF/RT, linear in c_i */
    const real x2 = 2 * vfrt, xe2 = R(ord_x_expm1)(x2), ex2 = cardiac_exp(x2);
    const real gamma_ds = 0.01, gamma_o = 0.341;   /* dyadic Ca2+ activity (the encoding's), extracellular */
    c->ghk_ca[0] = 2 * F * xe2 * ex2 * gamma_ds;
    c->ghk_ca[1] = 2 * F * xe2 * gamma_o * p[ORD_CAO];
    c->ghk_cab[0] = 2 * F * xe2 * ex2;
    c->ghk_cab[1] = 2 * F * xe2 * gamma_o * p[ORD_CAO];
    c->pca = p[ORD_PCA] * R(ord_by_type)(type, 1, 1.2, 2.5);
    const real gamma_m = 0.75, rna = 0.00125, rk = 3.574e-4;
    c->ica_na = rna * c->pca * R(ord_ghk)(1, vfrt, gamma_m * y[ORD_NASS], gamma_m * p[ORD_NAO]);
    c->ica_k = rk * c->pca * R(ord_ghk)(1, vfrt, gamma_m * y[ORD_KSS], gamma_m * p[ORD_KO]);
    c->ncx_i = R(ord_ncx_rates)(vfrt, y[ORD_NAI], p);
    c->ncx_ss = R(ord_ncx_rates)(vfrt, y[ORD_NASS], p);
    c->gncx = p[ORD_GNCX] * R(ord_by_type)(type, 1, 1.1, 1.4);
    c->upf = R(ord_by_type)(type, 1, 1.3, 1) * p[ORD_JUP];
    c->rtau_ss_myo = 1 / p[GR_TAU_SS_MYO];
    c->rtau_refill = 1 / p[GR_TAU_REFILL];
    c->type = type;
}


/* One step of one dyad (steps 1-5 above). w: ten uniform words, two for the
 * L-type channels, eight for the RyRs; clamp: DYAD_RYR_*. Divisions by
 * constants are products with their reciprocals, folded at compile time, and
 * the cell's time constants' reciprocals come with its coefficients: on the
 * GPU an IEEE division is some ten instructions (twenty in double), a
 * product one (docs/gpu-notebook.md, item 35). */
CARDIAC_HD void R(dyad_step)(struct R(dyad) *s, const struct R(dyad_cell) *c, const real *p, real dt,
                             const uint32_t *w, int clamp, struct R(dyad_out) *o)
{
    const struct R(ord_geom) geo = R(ord_geometry)();
    const real nrep = GR_NREP, vds = (real)GR_VDS;   /* dyads represented; dyadic space volume */
    const real vss = geo.vss / nrep, vmyo = geo.vmyo / nrep, vjsr = geo.vjsr / nrep;
    const real cads = s->cads, cass = s->cass, cacyt = s->cacyt, cansr = s->cansr, cajsr = s->cajsr;
    const real cads_mm = (real)1e-3 * cads;

    /* 1. CaMKII (ORd, with the dyad's own Ca2+) and nca */
    const real acamk = 0.05, bcamk = 0.00068, camko = 0.05, kmcam = 0.0015, kmcamk = 0.15;
    /* camko (1 - camkt) / (1 + kmcam / cads) and 1 / (1 + kmcamk / camka), over one division each */
    const real camkb = camko * (1 - s->camkt) * cads_mm / (cads_mm + kmcam), camka = camkb + s->camkt;
    const real fp = camka / (camka + kmcamk);
    s->camkt = R(forward_euler)(s->camkt, acamk * camkb * camka - bcamk * s->camkt, dt);
    s->nca = R(ord_nca_step)(s->nca, c->jca, cads_mm, c->nca_decay);
    o->camka = camka;

    /* 2. L-type channels: open counts by mode (non-phosphorylated, phosphorylated) */
    const real nca = s->nca;
    const double qnp = (double)((1 - fp) * ((1 - nca) * c->q_np[0] + nca * c->q_np[1]));
    const double qp = (double)(fp * ((1 - nca) * c->q_p[0] + nca * c->q_p[1]));
    int nnp, np;
    binomial_split(GR_NLCC, qnp, qp, w[0], w[1], &nnp, &np);
    const real phos = 1.1;
    const real open = ((real)nnp + phos * (real)np) * ((real)1 / GR_NLCC);   /* open fraction, PCa-weighted */
    o->lcc_open = nnp + np;
    o->ical = c->pca * (c->ghk_ca[0] * cads_mm - c->ghk_ca[1]) * open;
    o->icana = c->ica_na * open;
    o->icak = c->ica_k * open;

    /* 3. RyRs: rates from the old cads and cajsr, transitions from the old counts */
    const real c2 = cads * cads, c4 = c2 * c2, km = p[GR_KM_RYR], km2 = km * km;
    const real kopen = p[GR_K_OPEN] * c4 / (c4 + km2 * km2), kclose = p[GR_K_CLOSE];
    const real kc = p[GR_KM_CSQN], j2 = cajsr * cajsr, j4 = j2 * j2, k2 = kc * kc, k4 = k2 * k2;
    const real kdown = k4 * k4 / (j4 * j4 + k4 * k4), kup = 1 - kdown;   /* free, bound CSQN fractions; 1/ms */
    const double pd = (double)(kdown * dt), pu = (double)(kup * dt);
    const double po = (double)(kopen * dt), pc = (double)(kclose * dt);
    int t[8];
    binomial_split(s->ryr[DYAD_C1], po, pd, w[2], w[3], &t[0], &t[1]);   /* C1 -> O1, C2 */
    binomial_split(s->ryr[DYAD_O1], pc, pd, w[4], w[5], &t[2], &t[3]);   /* O1 -> C1, C3 */
    binomial_split(s->ryr[DYAD_C2], pu, po, w[6], w[7], &t[4], &t[5]);   /* C2 -> C1, C3 */
    binomial_split(s->ryr[DYAD_C3], pu, pc, w[8], w[9], &t[6], &t[7]);   /* C3 -> O1, C2 */
    s->ryr[DYAD_C1] += -t[0] - t[1] + t[2] + t[4];
    s->ryr[DYAD_O1] += -t[2] - t[3] + t[0] + t[6];
    s->ryr[DYAD_C2] += -t[4] - t[5] + t[1] + t[7];
    s->ryr[DYAD_C3] += -t[6] - t[7] + t[3] + t[5];
    if (clamp != DYAD_RYR_FREE) {
        s->ryr[DYAD_C1] = clamp == DYAD_RYR_CLOSED ? GR_NRYR : 0;
        s->ryr[DYAD_O1] = clamp == DYAD_RYR_OPEN ? GR_NRYR : 0;
        s->ryr[DYAD_C2] = s->ryr[DYAD_C3] = 0;
    }

    /* 4. release and L-type influx into the quasi-steady dyadic space (uM/ms) */
    const real jrel = p[GR_DRYR] * p[ORD_JREL] * (real)s->ryr[DYAD_O1] * (1000 * cajsr - cads);
    const real jlca = o->ical * (-geo.afc * 1000 / (2 * vds * nrep));
    const real tau = p[GR_TAU_EFFLUX];
    s->cads = (jrel + jlca) * tau + 1000 * cass;
    const real efflux = jrel + jlca;   /* = (cads - cass) / tau, uM/ms of dyadic space */
    o->jrel = jrel;

    /* 5. currents at local Ca2+, then concentrations */
    o->inaca_i = (real)0.8 * c->gncx * R(ord_ncx_flux)(&c->ncx_i, cacyt);
    o->inaca_ss = (real)0.2 * c->gncx * R(ord_ncx_flux)(&c->ncx_ss, cass);
    o->icab = p[ORD_PCAB] * (c->ghk_cab[0] * cacyt - c->ghk_cab[1]);
    const real kmpca = 0.0005;
    o->ipca = p[ORD_GPCA] * cacyt / (kmpca + cacyt);
    const real kup_serca = 0.004375, kmup = 0.00092, dkmplb = 0.00017, nsr_max = 15;
    const real jupnp = c->upf * kup_serca * cacyt / (cacyt + kmup);
    const real jupp = c->upf * (real)2.75 * kup_serca * cacyt / (cacyt + kmup - dkmplb);
    const real jleak = cansr * ((real)0.0039375 / nsr_max);
    const real jup = (1 - fp) * jupnp + fp * jupp - jleak;
    o->jup = jup;
    const real jss_myo = (cass - cacyt) * c->rtau_ss_myo;
    const real jrefill = (cansr - cajsr) * c->rtau_refill;
    const real afc = geo.afc / nrep;   /* a dyad's share of the membrane */
    s->cass = R(forward_euler)(cass, R(ord_buffer_ss)(cass) *
        (o->inaca_ss * (afc / vss) - jss_myo + efflux * ((real)1e-3 * vds / vss)), dt);
    s->cacyt = R(forward_euler)(cacyt, R(ord_buffer_myo)(cacyt, c->type) *
        (-(o->icab + o->ipca - 2 * o->inaca_i) * (afc / (2 * vmyo)) - jup * geo.vnsr_vmyo + jss_myo * geo.vss_vmyo), dt);
    const real csqn = p[GR_CSQN], u = (kc + cajsr) * (kc + cajsr), bjsr = u / (u + csqn * kc);   /* 1 / (1 + csqn kc / u) */
    s->cajsr = R(forward_euler)(cajsr, bjsr * (jrefill - jrel * ((real)1e-3 * vds / vjsr)), dt);
    s->cansr = R(forward_euler)(cansr, jup - jrefill * geo.vjsr_vnsr, dt);
}

/* What the dyad stage sums over a cell's dyads (dyad_accumulate after the
 * reaction step, the diffused fields after diffusion) and where each mean goes
 * in the cell's state (dyad_sum_state, dyad_mean). Shared by the CPU and GPU
 * stages so that both write the same cell state from the same sums. */
#ifndef CARDIAC_DYAD_SUMS
#define CARDIAC_DYAD_SUMS
enum {
    DS_ICAL, DS_ICANA, DS_ICAK, DS_INACA_I, DS_INACA_SS, DS_ICAB, DS_IPCA, DS_CAMKA, DS_LCC_OPEN, DS_RYR_OPEN,
    DS_CADS, DS_CAJSR, DS_NCA, DS_CAMKT, DS_JREL, DS_JUP,
    DS_REACT,                                   /* the sums of the reaction step end here */
    DS_CASS = DS_REACT, DS_CACYT, DS_CANSR,     /* the diffused fields */
    DS_COUNT
};

CARDIAC_HD int dyad_sum_state(int m)
{
    switch (m) {
    case DS_ICAL: return GR_ICAL;
    case DS_ICANA: return GR_ICANA;
    case DS_ICAK: return GR_ICAK;
    case DS_INACA_I: return GR_INACA_I;
    case DS_INACA_SS: return GR_INACA_SS;
    case DS_ICAB: return GR_ICAB;
    case DS_IPCA: return GR_IPCA;
    case DS_CAMKA: return GR_CAMKA;
    case DS_LCC_OPEN: return GR_LCC_OPEN;
    case DS_RYR_OPEN: return GR_RYR_OPEN;
    case DS_CADS: return GR_CADS;
    case DS_CAJSR: return ORD_CAJSR;
    case DS_NCA: return ORD_NCA;
    case DS_CAMKT: return ORD_CAMKT;
    case DS_JREL: return GR_JREL;
    case DS_JUP: return GR_JUP;
    case DS_CASS: return ORD_CASS;
    case DS_CACYT: return ORD_CAI;
    default: return ORD_CANSR;
    }
}
#endif

/* Adds one reacted dyad to its cell's sums (DS_ICAL .. DS_JUP). */
CARDIAC_HD void R(dyad_accumulate)(double *sum, const struct R(dyad) *x, const struct R(dyad_out) *o)
{
    sum[DS_ICAL] += o->ical; sum[DS_ICANA] += o->icana; sum[DS_ICAK] += o->icak;
    sum[DS_INACA_I] += o->inaca_i; sum[DS_INACA_SS] += o->inaca_ss;
    sum[DS_ICAB] += o->icab; sum[DS_IPCA] += o->ipca; sum[DS_CAMKA] += o->camka;
    sum[DS_LCC_OPEN] += o->lcc_open; sum[DS_RYR_OPEN] += x->ryr[DYAD_O1];
    sum[DS_CADS] += x->cads; sum[DS_CAJSR] += x->cajsr; sum[DS_NCA] += x->nca; sum[DS_CAMKT] += x->camkt;
    sum[DS_JREL] += o->jrel; sum[DS_JUP] += o->jup;
}

/* The cell-state value of sum m over the cell's n simulated dyads. The
 * concentrations, CaMKII, nca and the channel counts are means (thesis eqs.
 * 2.11-2.15). The currents, the release and the uptake are what the dyads
 * give the cell: with reading "sample" the dyads stand for all GR_NREP of
 * the cell and these are their means; with reading "units" each dyad is one
 * of the GR_NREP units with its 1/GR_NREP share, so these are the sums over
 * GR_NREP and grow with n, while the membrane stays the whole cell's. The
 * release flux is converted from uM/ms of dyadic space to mM/ms of myoplasm. */
CARDIAC_HD real R(dyad_mean)(int m, double sum, int n, int reading)
{
    const int extensive = m <= DS_IPCA || m == DS_JREL || m == DS_JUP;
    const double mean = sum / (extensive && reading == GR_READING_UNITS ? (double)GR_NREP : (double)n);
    if (m == DS_JREL) return (real)(mean * 1e-3 * GR_VDS * GR_NREP / R(ord_geometry)().vmyo);
    return (real)mean;
}

/* Diffusion coefficients between neighbouring dyads over the squared
 * spacing, per axis (1/ms): cass and cacyt (z doubled, as in the encoding),
 * cansr. */
CARDIAC_HD void R(dyad_diffusion_coefs)(const real *p, real cyt[3], real sr[3])
{
    const double h2 = (double)p[GR_DYAD_DX] * (double)p[GR_DYAD_DX], dc = p[GR_D_CYT], dsr = p[GR_D_SR];
    cyt[0] = cyt[1] = (real)(dc / h2);
    cyt[2] = (real)(2 * dc / h2);
    sr[0] = sr[1] = sr[2] = (real)(dsr / h2);
}

/* The neighbours of dyad q (grid position pos) on its cell's dyad grid,
 * below and above along each axis (nb[2 ax], nb[2 ax + 1]), with mirror
 * boundaries (thesis eq. 2.22: a missing neighbour equals the other one). */
#ifndef CARDIAC_DYAD_NEIGHBOURS
#define CARDIAC_DYAD_NEIGHBOURS
CARDIAC_HD void dyad_neighbours(int q, const int *pos, const int *shape, int *nb)
{
    const int step[3] = {1, shape[0], shape[0] * shape[1]};
    for (int ax = 0; ax < 3; ax++) {
        const int lo = q - step[ax], hi = q + step[ax];
        nb[2 * ax] = pos[ax] > 0 ? lo : hi;
        nb[2 * ax + 1] = pos[ax] < shape[ax] - 1 ? hi : lo;
    }
}
#endif

/* One explicit diffusion step at dyad q of field a, from its neighbours nb
 * (dyad_neighbours); axes of one dyad have none. coef[3] per axis from
 * dyad_diffusion_coefs; buffered scales by the local rapid-buffering factor
 * (0 none, 1 myoplasm, 2 submembrane space). The new value. The GPU finds
 * the neighbours once for the three diffused fields. */
CARDIAC_HD real R(dyad_diffuse_at)(const real *a, int q, const int *nb, const int *shape, const real *coef,
                                   real dt, int buffered, int type)
{
    const real c = a[q];
    real lap = 0;
    for (int ax = 0; ax < 3; ax++) {
        if (shape[ax] == 1) continue;
        lap += coef[ax] * (a[nb[2 * ax]] + a[nb[2 * ax + 1]] - 2 * c);
    }
    const real beta = buffered == 1 ? R(ord_buffer_myo)(c, type) : buffered == 2 ? R(ord_buffer_ss)(c) : (real)1;
    return c + dt * beta * lap;
}

/* The same at dyad q, grid position pos. */
CARDIAC_HD real R(dyad_diffuse_point)(const real *a, int q, const int *pos, const int *shape, const real *coef,
                                      real dt, int buffered, int type)
{
    int nb[6];
    dyad_neighbours(q, pos, shape, nb);
    return R(dyad_diffuse_at)(a, q, nb, shape, coef, dt, buffered, type);
}
