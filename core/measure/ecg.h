/* Pseudo-ECG: the extracellular potential at electrodes outside (or inside)
 * the tissue, from the current dipole density of the membrane potential's
 * gradient (Plonsey and Barr; Gima and Rudy, Circ. Res. 90:889, 2002):
 *     phi(x_e) = sum over tissue cells of  (D grad V) . (x - x_e) / |x - x_e|^3  dV
 * (the constant a^2 sigma_i / (4 sigma_e) omitted: units of V mm^2/ms/mm).
 * A wave travelling towards an electrode gives a positive deflection. The
 * gradient is the central difference between tissue neighbours, one-sided
 * where one neighbour is not tissue, zero where neither is: no current
 * leaves the tissue. The per-cell term is shared by the CPU and the CUDA
 * half (core/measure/ecg_cu.cu). */
#ifndef CARDIAC_ECG_H
#define CARDIAC_ECG_H
#include <stddef.h>
#include "qualifiers.h"

#define ECG_MAX_ELECTRODES 16

#ifdef __cplusplus
extern "C" {
#endif

/* dV/dx along one axis at a cell with value vc, neighbours vm (below) and
 * vp (above), tm / tp saying whether they are tissue; spacing h. */
CARDIAC_HD double ecg_gradient(double vm, double vc, double vp, int tm, int tp, double h)
{
    if (tm && tp) return (vp - vm) / (2 * h);
    if (tp) return (vp - vc) / h;
    if (tm) return (vc - vm) / h;
    return 0;
}

/* Adds one cell's contribution (flux f = D grad V, centre x, volume vol) to
 * acc[e] for the ne electrodes at el[3e .. 3e + 2]. A cell at an electrode
 * adds nothing (the integrand is singular there). */
CARDIAC_HD void ecg_add_cell(const double f[3], const double x[3], double vol, const double *el, int ne, double *acc)
{
    for (int e = 0; e < ne; e++) {
        const double d0 = x[0] - el[3 * e], d1 = x[1] - el[3 * e + 1], d2 = x[2] - el[3 * e + 2];
        const double r2 = d0 * d0 + d1 * d1 + d2 * d2;
        if (r2 <= 0) continue;
        acc[e] += vol * (f[0] * d0 + f[1] * d1 + f[2] * d2) / (r2 * sqrt(r2));
    }
}

struct sim;

/* A lead set: electrodes sampled every `every` steps. */
typedef struct ecg_leads {
    char name[64];
    int ne;
    double el[3 * ECG_MAX_ELECTRODES];   /* electrode positions, mm */
    long every, last_step;
    double *t, *phi;                      /* nsamples, nsamples x ne */
    size_t nsamples, cap;
    double *dev_acc;                      /* the GPU half's sums (ecg_cu.cu), or NULL */
} ecg_leads;

struct state_view;

/* The GPU half of a sample of every electrode (ecg.c sums on the host
 * where the state is there): the sum over this rank's owned tissue cells
 * where the state lives; and freeing its buffer. */
void ecg_sum_cu(struct sim *s, const struct state_view *v, ecg_leads *l, double *acc);
void ecg_release_cu(ecg_leads *l);

#ifdef __cplusplus
}
#endif

#endif
