/* Phase singularities (core/singularity.h). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "singularity.h"

/* The face of a plaquette: normal axis o and the lower corner cell c. */
typedef struct { uint64_t id; double x[3]; } face;

static double wrap(double d)
{
    while (d > M_PI) d -= 2 * M_PI;
    while (d <= -M_PI) d += 2 * M_PI;
    return d;
}

/* Phase of every tissue cell, NaN elsewhere. */
static float *phases(const grid *g, const float *a, const float *b, double a0, double b0)
{
    float *th = malloc(g->ncells * sizeof *th);
    if (!th) return NULL;
    for (size_t c = 0; c < g->ncells; c++)
        th[c] = g->mask[c] ? (float)atan2(b[c] - b0, a[c] - a0) : NAN;
    return th;
}

/* Corners of the plaquette with normal o and lower corner (i, j, k), in
 * counter-clockwise order seen from the positive side of the normal; 0 when
 * it leaves the grid. */
static int corners(const grid *g, int o, int i, int j, int k, size_t c[4])
{
    const int u = (o + 1) % 3, v = (o + 2) % 3;    /* the plaquette's axes: (x, y) for o = z */
    int p[3] = {i, j, k};
    if (p[u] + 1 >= g->n[u] || p[v] + 1 >= g->n[v]) return 0;
    const int du[4] = {0, 1, 1, 0}, dv[4] = {0, 0, 1, 1};
    for (int q = 0; q < 4; q++) {
        int r[3] = {i, j, k};
        r[u] += du[q];
        r[v] += dv[q];
        c[q] = grid_index(g, r[0], r[1], r[2]);
    }
    return 1;
}

/* Winding number of the phase around a plaquette: +1, -1 or 0 (also 0 when
 * a corner has no tissue). */
static int winding(const float *th, const size_t c[4])
{
    double s = 0;
    for (int q = 0; q < 4; q++) {
        if (isnan(th[c[q]])) return 0;
        s += wrap((double)th[c[(q + 1) % 4]] - th[c[q]]);
    }
    return (int)lround(s / (2 * M_PI));
}

static void centre(const grid *g, const size_t c[4], double x[3])
{
    x[0] = x[1] = x[2] = 0;
    for (int q = 0; q < 4; q++) {
        int i, j, k;
        grid_ijk(g, c[q], &i, &j, &k);
        x[0] += grid_center(g, 0, i) / 4;
        x[1] += grid_center(g, 1, j) / 4;
        x[2] += g->dim == 3 ? grid_center(g, 2, k) / 4 : 0;
    }
}

static long tips_2d(const grid *g, const float *th, singularity **out)
{
    long n = 0, cap = 0;
    *out = NULL;
    for (int j = 0; j + 1 < g->n[1]; j++)
        for (int i = 0; i + 1 < g->n[0]; i++) {
            size_t c[4];
            corners(g, 2, i, j, 0, c);
            int w = winding(th, c);
            if (!w) continue;
            if (n == cap) {
                cap = cap ? 2 * cap : 16;
                singularity *p = realloc(*out, cap * sizeof *p);
                if (!p) { free(*out); *out = NULL; return -1; }
                *out = p;
            }
            singularity *s = &(*out)[n++];
            centre(g, c, s->x);
            s->charge = w;
            s->faces = 1;
        }
    return n;
}

/* ---- 3D: singular faces, joined per elementary cube (union-find) ---- */

static int cmp_face(const void *a, const void *b)
{
    uint64_t x = ((const face *)a)->id, y = ((const face *)b)->id;
    return x < y ? -1 : x > y;
}

static long find_face(const face *f, long n, uint64_t id)
{
    long lo = 0, hi = n - 1;
    while (lo <= hi) {
        long m = (lo + hi) / 2;
        if (f[m].id == id) return m;
        if (f[m].id < id) lo = m + 1; else hi = m - 1;
    }
    return -1;
}

static long root(long *parent, long x)
{
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
}

static uint64_t face_id(const grid *g, int o, int i, int j, int k)
{
    return (uint64_t)o * g->ncells + grid_index(g, i, j, k);
}

/* Joins the singular faces of the cube with lower corner (i, j, k). */
static void join_cube(const grid *g, const face *f, long n, long *parent, int i, int j, int k)
{
    if (i < 0 || j < 0 || k < 0 || i + 1 >= g->n[0] || j + 1 >= g->n[1] || k + 1 >= g->n[2]) return;
    long first = -1;
    for (int o = 0; o < 3; o++)
        for (int side = 0; side < 2; side++) {
            int p[3] = {i, j, k};
            p[o] += side;
            long q = find_face(f, n, face_id(g, o, p[0], p[1], p[2]));
            if (q < 0) continue;
            if (first < 0) first = q;
            else parent[root(parent, q)] = root(parent, first);
        }
}

static long filaments_3d(const grid *g, const float *th, singularity **out)
{
    face *f = NULL;
    long n = 0, cap = 0;
    *out = NULL;
    for (int o = 0; o < 3; o++)
        for (int k = 0; k < g->n[2]; k++)
            for (int j = 0; j < g->n[1]; j++)
                for (int i = 0; i < g->n[0]; i++) {
                    size_t c[4];
                    if (!corners(g, o, i, j, k, c) || !winding(th, c)) continue;
                    if (n == cap) {
                        cap = cap ? 2 * cap : 64;
                        face *p = realloc(f, cap * sizeof *p);
                        if (!p) { free(f); return -1; }
                        f = p;
                    }
                    f[n].id = face_id(g, o, i, j, k);
                    centre(g, c, f[n].x);
                    n++;
                }
    if (!n) return 0;
    qsort(f, n, sizeof *f, cmp_face);
    long *parent = malloc(n * sizeof *parent), *slot = malloc(n * sizeof *slot);
    if (!parent || !slot) { free(f); free(parent); free(slot); return -1; }
    for (long q = 0; q < n; q++) parent[q] = q;
    for (long q = 0; q < n; q++) {
        const int o = (int)(f[q].id / g->ncells);
        int p[3];
        grid_ijk(g, (size_t)(f[q].id % g->ncells), &p[0], &p[1], &p[2]);
        join_cube(g, f, n, parent, p[0], p[1], p[2]);      /* the cube on the face's positive side */
        p[o]--;
        join_cube(g, f, n, parent, p[0], p[1], p[2]);      /* and on its negative side */
    }
    long m = 0;
    for (long q = 0; q < n; q++) slot[q] = -1;
    singularity *s = calloc(n, sizeof *s);
    if (!s) { free(f); free(parent); free(slot); return -1; }
    for (long q = 0; q < n; q++) {
        long r = root(parent, q);
        if (slot[r] < 0) slot[r] = m++;
        singularity *t = &s[slot[r]];
        for (int a = 0; a < 3; a++) t->x[a] += f[q].x[a];
        t->faces++;
    }
    for (long q = 0; q < m; q++)
        for (int a = 0; a < 3; a++) s[q].x[a] /= (double)s[q].faces;
    free(f); free(parent); free(slot);
    *out = s;
    return m;
}

long singularities_find(const grid *g, const float *a, const float *b, double a0, double b0, singularity **out)
{
    *out = NULL;
    if (g->dim == 1) return 0;
    float *th = phases(g, a, b, a0, b0);
    if (!th) return -1;
    long n = g->dim == 2 ? tips_2d(g, th, out) : filaments_3d(g, th, out);
    free(th);
    return n;
}
