/* Diffusion operator: convergence order of the 2nd- and 4th-order stencils on
 * a smooth field satisfying the no-flux condition, exact conservation of the
 * integral of V under pure diffusion (box and mask borders), and the dt limit;
 * the phase-field operator (thesis eq. 4.1): conservation of the integral of
 * phi V, the maximum principle under its dt limit, and equality with the mask
 * operator where phi = 1; the rounding left on a uniform field. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "grid.h"
#include "sim.h"
#include "stencil.h"

static const double PI = 3.14159265358979323846;

/* A box mesh of dim dimensions and its stencil of the given order. */
static void setup_box(grid *g, stencil *st, int dim, int n[3], double h[3], int order, const double D[3])
{
    char err[128];
    grid_init(g, dim, n, h, err, sizeof err);
    stencil_setup(st, g, order, D);
}

/* max error of D-weighted Laplacian of f = prod cos(m_a pi x_a / L_a) against the exact value */
static double laplacian_error(int dim, int n, int order, const double D[3])
{
    int nn[3] = {n, dim > 1 ? n * 3 / 4 : 1, dim > 2 ? n / 2 : 1};
    double L[3] = {1.0, 0.75, 0.5}, h[3];
    for (int a = 0; a < 3; a++) h[a] = L[a] / nn[a];
    grid g;
    stencil st;
    setup_box(&g, &st, dim, nn, h, order, D);
    float *V = malloc(g.ncells * sizeof *V), *out = malloc(g.ncells * sizeof *out);
    double k[3] = {6 * PI / L[0], 3 * PI / L[1], 3 * PI / L[2]};  /* short waves: truncation >> fp32 rounding */
    for (int z = 0; z < g.n[2]; z++)
        for (int y = 0; y < g.n[1]; y++)
            for (int x = 0; x < g.n[0]; x++) {
                double f = cos(k[0] * grid_center(&g, 0, x));
                if (dim > 1) f *= cos(k[1] * grid_center(&g, 1, y));
                if (dim > 2) f *= cos(k[2] * grid_center(&g, 2, z));
                V[grid_index(&g, x, y, z)] = (float)f;
            }
    stencil_apply(&st, &g, V, out);
    double lam = 0, emax = 0;
    for (int a = 0; a < dim; a++) lam += D[a] * k[a] * k[a];
    for (size_t c = 0; c < g.ncells; c++) {
        double e = fabs(out[c] + lam * V[c]);
        if (e > emax) emax = e;
    }
    free(V); free(out); grid_free(&g);
    return emax / lam;
}

static void convergence(int dim, int order, const int *ns, int count, double expect)
{
    double D[3] = {1.0, 0.5, 0.25};
    double prev = 0;
    char what[96];
    for (int q = 0; q < count; q++) {
        double e = laplacian_error(dim, ns[q], order, D);
        if (q) {
            double p = log(prev / e) / log((double)ns[q] / ns[q - 1]);
            snprintf(what, sizeof what, "%dD order-%d stencil: observed order n=%d->%d", dim, order, ns[q - 1], ns[q]);
            CHECK_NEAR(p, expect, 0.3, what);
        }
        prev = e;
    }
}

/* Pure diffusion (D only, no reaction): sum of V over the tissue is constant. */
static void conservation(int order, int masked)
{
    int n[3] = {40, 30, 20};
    double h[3] = {0.1, 0.12, 0.15}, D[3] = {0.1, 0.05, 0.08};
    grid g;
    char err[256];
    grid_init(&g, 3, n, h, err, sizeof err);
    if (masked) /* a hole and a notch: interior and border mask faces */
        for (size_t c = 0; c < g.ncells; c++) {
            int i, j, k;
            grid_ijk(&g, c, &i, &j, &k);
            if ((abs(i - 20) < 5 && abs(j - 15) < 4) || (i > 30 && j < 6) || (i == 7 && k < 10)) g.mask[c] = 0;
        }
    grid_recount(&g);
    stencil st;
    stencil_setup(&st, &g, order, D);
    double dt = 0.9 * stencil_dt_limit(&st, &g, 0);
    float *V = malloc(g.ncells * sizeof *V), *out = malloc(g.ncells * sizeof *out);
    srand(7);
    double s0 = 0;
    for (size_t c = 0; c < g.ncells; c++) {
        V[c] = g.mask[c] ? (float)rand() / RAND_MAX : 0.0f;
        s0 += V[c];
    }
    for (int step = 0; step < 500; step++) {
        stencil_apply(&st, &g, V, out);
        for (size_t c = 0; c < g.ncells; c++) if (g.mask[c]) V[c] += (float)dt * out[c];
    }
    double s1 = 0, vmin = 1e9, vmax = -1e9;
    for (size_t c = 0; c < g.ncells; c++) if (g.mask[c]) {
        s1 += V[c];
        if (V[c] < vmin) vmin = V[c];
        if (V[c] > vmax) vmax = V[c];
    }
    char what[96];
    snprintf(what, sizeof what, "order-%d %s: relative change of sum V", order, masked ? "masked" : "box");
    CHECK_NEAR((s1 - s0) / s0, 0.0, 2e-5, what);
    snprintf(what, sizeof what, "order-%d %s: spread after diffusion < 0.5", order, masked ? "masked" : "box");
    CHECK(vmax - vmin < 0.5, "%s: %g", what, vmax - vmin);
    free(V); free(out); grid_free(&g);
}

/* The checkerboard (Nyquist) mode decays just below the dt limit and grows just above it. */
static void stability_limit(int order)
{
    int n[3] = {32, 32, 1};
    double h[3] = {0.25, 0.2, 1}, D[3] = {0.1, 0.2, 0};
    grid g;
    stencil st;
    setup_box(&g, &st, 2, n, h, order, D);
    double lim = stencil_dt_limit(&st, &g, 0);
    for (int side = 0; side < 2; side++) {
        double dt = lim * (side ? 1.02 : 0.98);
        float *V = malloc(g.ncells * sizeof *V), *out = malloc(g.ncells * sizeof *out);
        for (size_t c = 0; c < g.ncells; c++) {
            int i, j, k;
            grid_ijk(&g, c, &i, &j, &k);
            V[c] = ((i + j) % 2 ? 1.0f : -1.0f) * (1.0f + 1e-3f * (float)(c % 7));
        }
        for (int s = 0; s < 400; s++) {
            stencil_apply(&st, &g, V, out);
            for (size_t c = 0; c < g.ncells; c++) V[c] += (float)dt * out[c];
        }
        double amp = 0;
        for (size_t c = 0; c < g.ncells; c++) amp = fmax(amp, fabs(V[c]));
        CHECK(side ? amp > 10 : amp < 1, "order %d, dt = %s the limit: amplitude %g", order, side ? "1.02x" : "0.98x", amp);
    }
    grid_free(&g);
}

/* A 3D grid with a phase field: a ball of radius 1.2 mm with a tanh interface
 * of width w (mm) around it, cut at the thesis' threshold 0.0005, plus a hard
 * cut (x > 3.2 mm), so both kinds of border are present. w = 0: phi = 1 on
 * the ball (a plain mask). */
static void phase_grid(grid *g, double w)
{
    int n[3] = {36, 30, 28};
    double h[3] = {0.1, 0.1, 0.1};
    char err[128];
    grid_init(g, 3, n, h, err, sizeof err);
    double *phi = malloc(g->ncells * sizeof *phi);
    for (size_t c = 0; c < g->ncells; c++) {
        int i, j, k;
        grid_ijk(g, c, &i, &j, &k);
        const double x = grid_center(g, 0, i) - 1.8, y = grid_center(g, 1, j) - 1.5, z = grid_center(g, 2, k) - 1.4;
        const double r = sqrt(x * x + y * y + z * z);
        phi[c] = w > 0 ? 0.5 * (1 - tanh((r - 1.2) / w)) : (r < 1.2 ? 1.0 : 0.0);
        if (grid_center(g, 0, i) > 3.2) phi[c] = 0;
    }
    grid_set_phase(g, phi, 0.0005);
    free(phi);
}

static void phase_conservation(void)
{
    grid g;
    phase_grid(&g, 0.15);
    double D[3] = {0.1, 0.05, 0.08};
    stencil st;
    stencil_setup(&st, &g, 2, D);
    const double dt = 0.9 * stencil_dt_limit(&st, &g, 0);
    float *V = malloc(g.ncells * sizeof *V), *out = malloc(g.ncells * sizeof *out);
    srand(11);
    double s0 = 0, lo0 = 1e9, hi0 = -1e9;
    for (size_t c = 0; c < g.ncells; c++) {
        V[c] = g.mask[c] ? (float)rand() / RAND_MAX : 0.0f;
        if (g.mask[c]) { s0 += g.phi[c] * V[c]; lo0 = fmin(lo0, V[c]); hi0 = fmax(hi0, V[c]); }
    }
    for (int step = 0; step < 500; step++) {
        stencil_apply(&st, &g, V, out);
        for (size_t c = 0; c < g.ncells; c++) if (g.mask[c]) V[c] += (float)dt * out[c];
    }
    double s1 = 0, lo = 1e9, hi = -1e9;
    for (size_t c = 0; c < g.ncells; c++) if (g.mask[c]) {
        s1 += g.phi[c] * V[c];
        lo = fmin(lo, V[c]);
        hi = fmax(hi, V[c]);
    }
    printf("  phase field: %zu tissue cells, dt limit %.4g ms (plain mask: %.4g ms)\n", g.ntissue,
           stencil_dt_limit(&st, &g, 0), 2 / (4 * (D[0] + D[1] + D[2]) / 0.01));
    CHECK_NEAR((s1 - s0) / s0, 0.0, 2e-5, "phase field: relative change of sum phi V");
    CHECK(lo >= lo0 - 1e-6 && hi <= hi0 + 1e-6 && hi - lo < 0.5,
          "phase field: maximum principle at 0.9x its dt limit, V in [%g, %g] from [%g, %g]", lo, hi, lo0, hi0);
    free(V); free(out); grid_free(&g);
}

/* phi = 1 on the tissue: the phase-field operator is the mask operator. */
static void phase_uniform(void)
{
    grid gp, gm;
    phase_grid(&gp, 0);
    grid_copy(&gm, &gp);
    free(gm.phi);
    gm.phi = NULL;
    double D[3] = {0.1, 0.05, 0.08};
    stencil sp, sm;
    stencil_setup(&sp, &gp, 2, D);
    stencil_setup(&sm, &gm, 2, D);
    float *V = malloc(gp.ncells * sizeof *V), *a = malloc(gp.ncells * sizeof *a), *b = malloc(gp.ncells * sizeof *b);
    srand(5);
    for (size_t c = 0; c < gp.ncells; c++) V[c] = (float)rand() / RAND_MAX;
    stencil_apply(&sp, &gp, V, a);
    stencil_apply(&sm, &gm, V, b);
    double worst = 0, scale = 0;
    for (size_t c = 0; c < gp.ncells; c++) { worst = fmax(worst, fabs(a[c] - b[c])); scale = fmax(scale, fabs(b[c])); }
    CHECK_NEAR(worst / scale, 0.0, 1e-6, "phi = 1: phase-field operator = mask operator (relative)");
    CHECK_NEAR(stencil_dt_limit(&sp, &gp, 0), stencil_dt_limit(&sm, &gm, 0), 1e-12, "phi = 1: the same dt limit");
    free(V); free(a); free(b); grid_free(&gp); grid_free(&gm);
}

/* A uniform field: second order sums the neighbours before the centre
 * (docs/numerics.md, "Rounding of the diffusion term"), which leaves on a
 * uniform V the roundings of its products, a few units in the last place of
 * w V (w = 2 sum_a D_a / h_a^2), where the sum of second differences gave 0;
 * at V = 0 nothing is left. */
static void uniform_field(void)
{
    int nn[3] = {12, 10, 8};
    double h[3] = {0.1, 0.12, 0.25}, D[3] = {0.1234, 0.0711, 0.1097};
    grid g;
    stencil st;
    setup_box(&g, &st, 3, nn, h, 2, D);
    float *V = malloc(g.ncells * sizeof *V), *out = malloc(g.ncells * sizeof *out);
    const float levels[] = {-87.3f, 1.7f, 0.0f};
    double w = 0;
    for (int a = 0; a < 3; a++) w += 2 * D[a] / (h[a] * h[a]);
    for (int q = 0; q < 3; q++) {
        for (size_t c = 0; c < g.ncells; c++) V[c] = levels[q];
        stencil_apply(&st, &g, V, out);
        double worst = 0;
        for (size_t c = 0; c < g.ncells; c++) worst = fmax(worst, fabs(out[c]));
        const double ulp = w * fabs(levels[q]) * 0x1p-23;
        printf("  uniform V = %g: max abs diffusion term %.3g (w V ulp %.3g)\n", levels[q], worst, ulp);
        CHECK(worst <= 4 * ulp, "uniform V = %g: max |diffusion term| %.3g, at most 4 units in the last place of w V (%.3g)",
              levels[q], worst, 4 * ulp);
    }
    free(V); free(out); grid_free(&g);
}

int main(void)
{
    /* sizes where truncation error stays well above fp32 rounding (~1e-7 n^2) */
    const int n[] = {16, 32, 64};
    for (int dim = 1; dim <= 3; dim++) {
        convergence(dim, 2, n, 3, 2.0);
        convergence(dim, 4, n, 3, 4.0);
    }
    conservation(2, 0);
    conservation(4, 0);
    conservation(2, 1);
    conservation(4, 1);
    stability_limit(2);
    stability_limit(4);
    phase_conservation();
    phase_uniform();
    uniform_field();
    return check_summary();
}
