/* Names of the activation maps and the conduction-velocity fit over them. */
#include <math.h>
#include <string.h>
#include "activation.h"

const char *const track_field_names[TRACK_NFIELDS] = {"first", "last", "repol", "apd", "di", "count"};
const char *const track_field_units[TRACK_NFIELDS] = {"ms", "ms", "ms", "ms", "ms", "1"};

/* Solves the n x n system a x = b (row-major a, n <= 4) by Gaussian
 * elimination with partial pivoting; -1 when it is singular. */
static int solve(double *a, double *b, int n)
{
    for (int c = 0; c < n; c++) {
        int p = c;
        for (int r = c + 1; r < n; r++)
            if (fabs(a[r * n + c]) > fabs(a[p * n + c])) p = r;
        if (fabs(a[p * n + c]) < 1e-300) return -1;
        for (int k = 0; k < n; k++) { double t = a[c * n + k]; a[c * n + k] = a[p * n + k]; a[p * n + k] = t; }
        double t = b[c]; b[c] = b[p]; b[p] = t;
        for (int r = c + 1; r < n; r++) {
            double f = a[r * n + c] / a[c * n + c];
            for (int k = c; k < n; k++) a[r * n + k] -= f * a[c * n + k];
            b[r] -= f * b[c];
        }
    }
    for (int c = n - 1; c >= 0; c--) {
        for (int k = c + 1; k < n; k++) b[c] -= a[c * n + k] * b[k];
        b[c] /= a[c * n + c];
    }
    return 0;
}

static void centre(const grid *g, size_t c, double x[3])
{
    int ijk[3];
    grid_ijk(g, c, &ijk[0], &ijk[1], &ijk[2]);
    for (int a = 0; a < 3; a++) x[a] = grid_center(g, a, ijk[a]);
}

static int selected(const grid *g, const float *t, const unsigned char *sel, size_t c)
{
    return (sel ? sel[c] : g->mask[c]) && isfinite(t[c]);
}

/* Coordinates relative to the first used cell keep the normal equations well
 * conditioned on large meshes. */
size_t activation_plane_fit(const grid *g, const float *t, const unsigned char *sel, double *speed,
                            double dir[3], double *rms)
{
    const int d = g->dim, n = d + 1;
    double A[16] = {0}, b[4] = {0}, x0[3] = {0, 0, 0};
    size_t used = 0, first = (size_t)-1;
    *speed = NAN;
    *rms = NAN;
    dir[0] = dir[1] = dir[2] = NAN;
    for (size_t c = 0; c < g->ncells && first == (size_t)-1; c++)
        if (selected(g, t, sel, c)) first = c;
    if (first == (size_t)-1) return 0;
    centre(g, first, x0);
    for (size_t c = first; c < g->ncells; c++) {
        if (!selected(g, t, sel, c)) continue;
        double x[3], r[4] = {1};
        centre(g, c, x);
        for (int a = 0; a < d; a++) r[a + 1] = x[a] - x0[a];
        for (int i = 0; i < n; i++) {
            for (int k = 0; k < n; k++) A[i * n + k] += r[i] * r[k];
            b[i] += r[i] * t[c];
        }
        used++;
    }
    if (used < (size_t)n || solve(A, b, n) != 0) return 0;
    double s2 = 0, ss = 0;
    for (int a = 0; a < d; a++) s2 += b[a + 1] * b[a + 1];
    for (size_t c = first; c < g->ncells; c++) {
        if (!selected(g, t, sel, c)) continue;
        double x[3], e = b[0] - t[c];
        centre(g, c, x);
        for (int a = 0; a < d; a++) e += b[a + 1] * (x[a] - x0[a]);
        ss += e * e;
    }
    *rms = sqrt(ss / used);
    if (!(s2 > 0)) return 0;
    *speed = 1 / sqrt(s2);
    for (int a = 0; a < 3; a++) dir[a] = a < d ? b[a + 1] * *speed : 0;
    return used;
}
