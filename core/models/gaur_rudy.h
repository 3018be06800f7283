/* Multiscale O'Hara-Rudy model with stochastic calcium release units
 * (Gaur & Rudy 2011; Altanaite 2017, chapter 2): the cell level. Precision
 * template, single source for CPU and GPU (core/engine/instances.h).
 *
 * The membrane is ORd's (core/models/ohara_rudy.h, whose functions this file
 * calls), except for everything calcium touches: the L-type current, the
 * exchanger, the pump and the background Ca2+ current, CaMKII and the calcium
 * concentrations come from the cell's dyads (core/multiscale/dyads.h), which the dyad
 * stage (core/multiscale/multiscale.c) steps first in every time step and averages into
 * this cell's state (GR_* in gaur_rudy_consts.h). This step then advances
 * the other gates, Na+, K+ and V with those currents, and the L-type gates
 * that the dyads will use in the next step. */
#include "gaur_rudy_consts.h"

CARDIAC_HD void R(gaur_rudy_step)(real *y, real idiff, real istim, real dt, const real *p)
{
    const int type = (int)(p[ORD_CELLTYPE] + (real)0.5);
    const real Rg = 8314, T = 310, F = 96485, kmcamk = 0.15;
    const struct R(ord_geom) geo = R(ord_geometry)();
    const real v = y[ORD_V], vfrt = v * F / (Rg * T);
    const real nai = y[ORD_NAI], ki = y[ORD_KI], nao = p[ORD_NAO];
    const real fp = 1 / (1 + kmcamk / y[GR_CAMKA]);   /* the dyads' mean active CaMKII */

    struct R(ord_nak_currents) c;
    const real ek = R(ord_na_k_channels)(y, v, fp, dt, type, p, &c, 0);   /* IKs sees the mean Ca2+ */
    c.inak = R(ord_inak)(vfrt, nai, ki, type, p);
    c.ikb = p[ORD_GKB] * R(ord_by_type)(type, 1, 0.6, 1) * R(ord_boltz)(v, -14.48, -18.34) * (v - ek);
    c.inab = p[ORD_PNAB] * R(ord_ghk)(1, vfrt, nai, nao);
    c.icana = y[GR_ICANA];
    c.icak = y[GR_ICAK];
    c.inaca_i = y[GR_INACA_I];
    c.inaca_ss = y[GR_INACA_SS];
    c.istim = -istim;
    R(ord_ical_vgates)(y, v, dt, 0);   /* for the dyads' next step */
    R(ord_na_k_step)(y, &geo, &c, dt);

    const real iion = c.ina + c.inal + c.ito + y[GR_ICAL] + c.icana + c.icak + c.ik + c.inaca_i + c.inaca_ss +
                      c.inak + c.inab + c.ikb + y[GR_IPCA] + y[GR_ICAB];
    y[ORD_V] = R(forward_euler)(v, -iion + idiff + istim, dt);
}
