/* The activation tracker's per-cell rule (core/measure/activation.h) on synthetic
 * action potentials whose crossings are known exactly, and the plane fit of
 * conduction velocity on prescribed activation fields.
 *  - Piecewise-linear beats: rest -85 mV, upstroke to +35 mV in 1 ms, plateau
 *    falling linearly to the 90% level and below. Linear interpolation between
 *    samples is exact on linear segments, so activation, repolarisation, APD
 *    and DI match the formula to float rounding when the sample interval
 *    divides the corner times, and within one interval when it does not.
 *  - A second stimulus before repolarisation is not a new activation.
 *  - A planar activation field t = t0 + (x . n) / c on 2D and 3D grids
 *    (with a region) returns c and n exactly; a point source in 2D (circular
 *    wave) returns a residual that shows the wave is not planar. */
#include <stdlib.h>
#include <string.h>
#include "activation.h"
#include "check.h"

typedef struct {
    float prev[1], vmin[1], peak[1], t[TRACK_COUNT][1];
    int count[1];
    unsigned char in_ap[1];
    track_arrays a;
} one_cell;

static void one_cell_init(one_cell *c, float v)
{
    c->a.prev = c->prev; c->a.vmin = c->vmin; c->a.peak = c->peak;
    for (int f = 0; f < TRACK_COUNT; f++) c->a.time[f] = c->t[f];
    c->a.count = c->count; c->a.in_ap = c->in_ap;
    track_start(c->a, 0, v);
}

/* Beats starting at each of `starts` (ms): rest -85 mV until the start, a
 * 1 ms linear upstroke to +35, a linear fall to -85 at start + 1 + fall. */
static float beat_v(double t, const double *starts, int n, double fall)
{
    float v = -85;
    for (int b = 0; b < n; b++) {
        double s = t - starts[b];
        if (s < 0) continue;
        if (s < 1) v = (float)(-85 + 120 * s);
        else if (s < 1 + fall) v = (float)(35 - 120 * (s - 1) / fall);
        else v = -85;
    }
    return v;
}

/* Sample intervals that divide the beats' corner times keep every pair of
 * samples on one linear segment: exact up to float rounding. Others cut
 * corners; the error is then below one interval. */
static void test_beats(double dt, double tol)
{
    const double starts[2] = {10.25, 330.5}, fall = 250;
    one_cell c;
    one_cell_init(&c, beat_v(0, starts, 2, fall));
    double tp = 0;
    for (double t = dt; t <= 700; t += dt) {
        track_cell(c.a, 0, beat_v(t, starts, 2, fall), (float)tp, (float)t, -70.0f, 0.9f);
        tp = t;
    }
    /* crossings: up at start + 15/120 ms; the 90% level is 35 - 0.9*120 = -73 mV,
     * reached at start + 1 + fall * 108/120 */
    const double up0 = starts[0] + 15.0 / 120, up1 = starts[1] + 15.0 / 120;
    const double rp0 = starts[0] + 1 + fall * 0.9, rp1 = starts[1] + 1 + fall * 0.9;
    char what[96];
    snprintf(what, sizeof what, "dt %.3g: first activation (ms)", dt);
    CHECK_NEAR(c.t[TRACK_FIRST][0], up0, tol, what);
    snprintf(what, sizeof what, "dt %.3g: last activation (ms)", dt);
    CHECK_NEAR(c.t[TRACK_LAST][0], up1, tol, what);
    snprintf(what, sizeof what, "dt %.3g: APD90 of beat 2 (ms)", dt);
    CHECK_NEAR(c.t[TRACK_APD][0], rp1 - up1, tol, what);
    snprintf(what, sizeof what, "dt %.3g: DI before beat 2 (ms)", dt);
    CHECK_NEAR(c.t[TRACK_DI][0], up1 - rp0, tol, what);
    snprintf(what, sizeof what, "dt %.3g: repolarisation (ms)", dt);
    CHECK_NEAR(c.t[TRACK_REPOL][0], rp1, tol, what);
    CHECK(c.count[0] == 2, "dt %g: %d upstrokes counted, expected 2", dt, c.count[0]);
}

/* A second upstroke during the plateau (V above the APD level) is no activation. */
static void test_refractory(void)
{
    one_cell c;
    one_cell_init(&c, -85);
    const float series[] = {-85, -50, 30, 20, -72, -60, 10, 0, -80, -86, -85, -40};
    float tp = 0;
    for (int q = 0; q < (int)(sizeof series / sizeof *series); q++) {
        track_cell(c.a, 0, series[q], tp, (float)(q + 1), -70.0f, 0.9f);
        tp = (float)(q + 1);
    }
    /* -85 -> -50 up (count 1, peak 30, level 30 - 0.9 * 115 = -73.5); -72 stays above it;
     * -60 and 10 re-rise inside the action potential; -80 ends it; -40 is beat 2 */
    CHECK(c.count[0] == 2, "re-rise inside the action potential: %d upstrokes counted, expected 2", c.count[0]);
    CHECK_NEAR(c.t[TRACK_REPOL][0], 8 + 73.5 / 80, 1e-5, "repolarisation after the re-rise (ms)");
    CHECK_NEAR(c.t[TRACK_LAST][0], 11 + 15.0 / 45, 1e-5, "activation of beat 2 (ms)");
    CHECK_NEAR(c.t[TRACK_APD][0], 8 + 73.5 / 80 - (1 + 15.0 / 35), 1e-5, "APD of beat 1, kept after beat 2 starts (ms)");
}

/* Times t0 + (x . n) / c on every cell of g (n normalised); returns the fit's speed. */
static double planar(const grid *g, const double n_in[3], double speed, const unsigned char *sel, double dir[3],
                     double *rms)
{
    double n[3] = {n_in[0], n_in[1], n_in[2]}, len = 0;
    for (int a = 0; a < 3; a++) len += n[a] * n[a];
    for (int a = 0; a < 3; a++) n[a] /= sqrt(len);
    float *t = malloc(g->ncells * sizeof *t);
    for (size_t c = 0; c < g->ncells; c++) {
        int p[3];
        grid_ijk(g, c, &p[0], &p[1], &p[2]);
        double s = 0;
        for (int a = 0; a < g->dim; a++) s += grid_center(g, a, p[a]) * n[a];
        t[c] = (float)(5 + s / speed);
    }
    double v;
    activation_plane_fit(g, t, sel, &v, dir, rms);
    free(t);
    return v;
}

static void test_fit(void)
{
    char err[256];
    grid g2, g3;
    int n2[3] = {80, 50, 1}, n3[3] = {30, 24, 20};
    double h2[3] = {0.25, 0.25, 1}, h3[3] = {0.2, 0.3, 0.25}, dir[3], rms;
    grid_init(&g2, 2, n2, h2, err, sizeof err);
    grid_init(&g3, 3, n3, h3, err, sizeof err);
    const double n_a[3] = {1, 0.5, 0}, n_b[3] = {0.3, -0.4, 0.8};
    CHECK_NEAR(planar(&g2, n_a, 0.55, NULL, dir, &rms), 0.55, 1e-5, "2D planar wave: fitted speed (mm/ms)");
    CHECK_NEAR(dir[1] / dir[0], 0.5, 1e-5, "2D planar wave: direction y/x");
    CHECK(rms < 1e-4, "2D planar wave: residual %g ms", rms);
    /* 3D, only cells with x < 3 mm: a region */
    unsigned char *sel = calloc(g3.ncells, 1);
    for (size_t c = 0; c < g3.ncells; c++) sel[c] = c % g3.n[0] < 15;
    CHECK_NEAR(planar(&g3, n_b, 0.7, sel, dir, &rms), 0.7, 1e-5, "3D planar wave in a region: fitted speed (mm/ms)");
    CHECK_NEAR(dir[2] / dir[0], 0.8 / 0.3, 1e-4, "3D planar wave in a region: direction z/x");
    /* a circular wave from a corner is not planar: the fit says so by its residual */
    float *t = malloc(g2.ncells * sizeof *t);
    for (size_t c = 0; c < g2.ncells; c++) {
        int i, j, k;
        grid_ijk(&g2, c, &i, &j, &k);
        t[c] = (float)(hypot(grid_center(&g2, 0, i) - 10, grid_center(&g2, 1, j) - 6) / 0.5);
    }
    double v;
    activation_plane_fit(&g2, t, NULL, &v, dir, &rms);
    CHECK(rms > 1, "circular wave: residual %.3g ms shows it is not planar", rms);
    /* no activated cell: no fit */
    for (size_t c = 0; c < g2.ncells; c++) t[c] = NAN;
    CHECK(activation_plane_fit(&g2, t, NULL, &v, dir, &rms) == 0 && isnan(v), "no activation: no fit");
    free(t);
    free(sel);
    grid_free(&g2);
    grid_free(&g3);
}

int main(void)
{
    test_beats(0.01, 2e-4);
    test_beats(0.05, 2e-4);
    test_beats(0.37, 0.37);
    test_refractory();
    test_fit();
    return check_summary();
}
