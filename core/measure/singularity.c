/* Phase singularities (core/measure/singularity.h). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "phase_winding.h"
#include "singularity.h"

/* A singular face with its centre (3D assembly). */
typedef struct { uint64_t id; double x[3]; } face;

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

/* The corners of the plaquette with normal o whose lower corner is face id's cell. */
static void face_corners(const grid *g, uint64_t id, size_t c[4], int *o)
{
    int p[3];
    *o = (int)(id / g->ncells);
    grid_ijk(g, (size_t)(id % g->ncells), &p[0], &p[1], &p[2]);
    corners(g, *o, p[0], p[1], p[2], c);
}

long singular_faces_local(const grid *g, const grid *lg, const int off[3], const int lo[3], const int hi[3],
                          const float *a, const float *b, double a0, double b0, sing_face **out)
{
    long n = 0, cap = 0;
    *out = NULL;
    if (g->dim == 1) return 0;
    float *th = malloc(lg->ncells * sizeof *th);    /* each cell's phase, NaN outside the tissue */
    if (!th) return -1;
    for (size_t c = 0; c < lg->ncells; c++) th[c] = lg->mask[c] ? cell_phase(a[c], b[c], a0, b0) : NAN;
    for (int o = plaquette_first_axis(g); o < 3; o++) {
        const int u = (o + 1) % 3, v = (o + 2) % 3;
        for (int k = lo[2]; k < hi[2]; k++)
            for (int j = lo[1]; j < hi[1]; j++)
                for (int i = lo[0]; i < hi[0]; i++) {
                    const int p[3] = {i + off[0], j + off[1], k + off[2]};   /* in g */
                    size_t c[4];
                    if (p[u] + 1 >= g->n[u] || p[v] + 1 >= g->n[v] || !corners(lg, o, i, j, k, c)) continue;
                    const float corner[4] = {th[c[0]], th[c[1]], th[c[2]], th[c[3]]};
                    const int w = phase_winding(corner);
                    if (!w) continue;
                    if (n == cap) {
                        cap = cap ? 2 * cap : 64;
                        sing_face *f = realloc(*out, cap * sizeof *f);
                        if (!f) { free(*out); free(th); *out = NULL; return -1; }
                        *out = f;
                    }
                    (*out)[n].id = (uint64_t)o * g->ncells + grid_index(g, p[0], p[1], p[2]);
                    (*out)[n].charge = w;
                    n++;
                }
    }
    free(th);
    return n;
}

int sing_face_cmp(const void *a, const void *b)
{
    uint64_t x = ((const sing_face *)a)->id, y = ((const sing_face *)b)->id;
    return x < y ? -1 : x > y;
}

static long tips_2d(const grid *g, const sing_face *f, long n, singularity **out)
{
    *out = n ? calloc(n, sizeof **out) : NULL;
    if (n && !*out) return -1;
    for (long q = 0; q < n; q++) {
        size_t c[4];
        int o;
        face_corners(g, f[q].id, c, &o);
        centre(g, c, (*out)[q].x);
        (*out)[q].charge = f[q].charge;
        (*out)[q].faces = 1;
    }
    return n;
}

/* ---- 3D: singular faces, joined per elementary cube (union-find) ---- */

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

static long filaments_3d(const grid *g, const sing_face *sf, long n, singularity **out)
{
    *out = NULL;
    face *f = n ? malloc(n * sizeof *f) : NULL;
    if (n && !f) return -1;
    for (long q = 0; q < n; q++) {                 /* sf is sorted by id, and so is f */
        size_t c[4];
        int o;
        face_corners(g, sf[q].id, c, &o);
        f[q].id = sf[q].id;
        centre(g, c, f[q].x);
    }
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

long singularities_from_faces(const grid *g, sing_face *f, long n, singularity **out)
{
    *out = NULL;
    if (g->dim == 1 || n == 0) return 0;
    qsort(f, n, sizeof *f, sing_face_cmp);
    return g->dim == 2 ? tips_2d(g, f, n, out) : filaments_3d(g, f, n, out);
}
