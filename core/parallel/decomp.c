/* Domain decomposition (core/parallel/decomp.h). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "decomp.h"
#include "par.h"

/* Ranks per axis: the user's request, or slabs along the last axis of the
 * grid that is at least minw cells thick per rank (the last axis, but for
 * grids too thin along it); none (all 1s, *whole = 1) when no axis is. */
static int choose_dims(const grid *g, const int want[3], int nranks, int minw, int dims[3], int *whole, char *err,
                       size_t errlen)
{
    int any = want[0] > 0 || want[1] > 0 || want[2] > 0;
    for (int a = 0; a < 3; a++) dims[a] = 1;
    *whole = 0;
    if (!any) {
        int a = g->dim - 1;
        while (a >= 0 && g->n[a] / nranks < minw) a--;
        if (a >= 0) dims[a] = nranks;
        else *whole = nranks > 1;
    } else {
        for (int a = 0; a < 3; a++) dims[a] = want[a] > 0 ? want[a] : 1;
        if (dims[0] * dims[1] * dims[2] != nranks) {
            char list[64];
            int len = snprintf(list, sizeof list, "%d", dims[0]);
            for (int a = 1; a < g->dim; a++) len += snprintf(list + len, sizeof list - len, ", %d", dims[a]);
            snprintf(err, errlen, "'decomp' = {%s} splits the grid into %d parts, but the job has %d rank%s "
                     "(mpirun -np)", list, dims[0] * dims[1] * dims[2], nranks, nranks == 1 ? "" : "s");
            return -1;
        }
    }
    for (int a = 0; a < 3; a++)
        if (a >= g->dim && dims[a] > 1) {
            snprintf(err, errlen, "'decomp' splits axis %c, which a %dD grid does not have", "xyz"[a], g->dim);
            return -1;
        }
    return 0;
}

/* Tissue cells in each plane across axis a (w[0 .. n[a])). */
static void plane_tissue(const grid *g, int a, size_t *w)
{
    memset(w, 0, (size_t)g->n[a] * sizeof *w);
    for (size_t c = 0; c < g->ncells; c++) {
        if (!g->mask[c]) continue;
        const size_t i = a == 0 ? c % g->n[0] : a == 1 ? c / g->n[0] % g->n[1] : c / ((size_t)g->n[0] * g->n[1]);
        w[i]++;
    }
}

/* The p + 1 cuts of axis a. Equal sizes: c n / p. By tissue: each inner cut
 * at the last plane boundary with at most c / p of the tissue below it (on a
 * full box that is c n / p again), keeping every part at least `minw` planes
 * thick (n >= p minw is checked before). A grid without tissue is cut by
 * size. */
static int cut_axis(const grid *g, int a, int p, int minw, int by_tissue, int *cut)
{
    const int n = g->n[a];
    for (int c = 0; c <= p; c++) cut[c] = (int)((long)c * n / p);
    if (!by_tissue || p == 1) return 0;
    size_t *w = malloc((size_t)n * sizeof *w);
    if (!w) return -1;
    plane_tissue(g, a, w);
    double total = 0;
    for (int i = 0; i < n; i++) total += (double)w[i];
    if (total > 0) {
        int i = 0;
        double below = 0;   /* tissue in planes [0, i) */
        for (int c = 1; c < p; c++) {
            const double target = total * c / p;
            const int first = cut[c - 1] + minw, last = n - (p - c) * minw;
            while (i < first) below += (double)w[i++];
            while (i < last && below + (double)w[i] <= target) below += (double)w[i++];
            cut[c] = i;
        }
    }
    free(w);
    return 0;
}

int decomp_plan(decomp *dc, const grid *g, int nranks, const int want[3], int ghost, int by_tissue, char *err,
                size_t errlen)
{
    memset(dc, 0, sizeof *dc);
    dc->nranks = nranks;
    dc->ghost = ghost;
    dc->by_tissue = by_tissue;
    if (choose_dims(g, want, dc->nranks, ghost > 1 ? ghost : 1, dc->dims, &dc->whole_on_0, err, errlen) != 0)
        return -1;
    for (int a = 0; a < 3; a++) {
        dc->gn[a] = g->n[a];
        if (g->n[a] / dc->dims[a] < (dc->dims[a] > 1 ? ghost : 1)) {
            snprintf(err, errlen, "the grid's %d cells along %c cannot be split over %d ranks: each part "
                     "needs at least %d cells, the depth of its ghost layers (the stencil's reach, times the steps "
                     "a kernel advances on layout 'tplane')", g->n[a], "xyz"[a], dc->dims[a], ghost);
            return -1;
        }
    }
    for (int a = 0; a < 3; a++) {
        const int p = dc->dims[a];
        if (!(dc->cut[a] = malloc((size_t)(p + 1) * sizeof *dc->cut[a])) ||
            cut_axis(g, a, p, p > 1 ? (ghost > 1 ? ghost : 1) : 1, by_tissue, dc->cut[a]) != 0) {
            snprintf(err, errlen, "out of memory decomposing the grid");
            decomp_free(dc);
            return -1;
        }
    }
    return 0;
}

int decomp_setup(decomp *dc, const grid *g, const int want[3], int ghost, int by_tissue, char *err, size_t errlen)
{
    if (decomp_plan(dc, g, par_size(), want, ghost, by_tissue, err, errlen) != 0) return -1;
    dc->rank = par_rank();
    if (dc->whole_on_0) {
        /* too small to split: every rank stores the whole grid, rank 0 owns
         * it, the others own nothing and take part in the collective calls */
        for (int a = 0; a < 3; a++) {
            dc->nbr[a][0] = dc->nbr[a][1] = -1;
            dc->slo[a] = dc->lo[a] = 0;
            dc->shi[a] = g->n[a];
            dc->hi[a] = dc->rank == 0 ? g->n[a] : 0;
        }
        return 0;
    }
    if (par_active()) {
        int periods[3] = {0, 0, 0};
        MPI_Comm *cart = malloc(sizeof *cart);
        /* dims are given, reorder off: rank r keeps its node-local GPU choice */
        MPI_Cart_create(MPI_COMM_WORLD, 3, (int[]){dc->dims[2], dc->dims[1], dc->dims[0]}, periods, 0, cart);
        int c[3];
        MPI_Cart_coords(*cart, dc->rank, 3, c);
        dc->coords[0] = c[2]; dc->coords[1] = c[1]; dc->coords[2] = c[0];
        for (int a = 0; a < 3; a++) MPI_Cart_shift(*cart, 2 - a, 1, &dc->nbr[a][0], &dc->nbr[a][1]);
        for (int a = 0; a < 3; a++)
            for (int d = 0; d < 2; d++)
                if (dc->nbr[a][d] == MPI_PROC_NULL) dc->nbr[a][d] = -1;
        dc->comm = cart;
    } else {
        for (int a = 0; a < 3; a++) dc->nbr[a][0] = dc->nbr[a][1] = -1;
    }
    for (int a = 0; a < 3; a++) {
        const int c = dc->coords[a];
        dc->lo[a] = dc->cut[a][c];
        dc->hi[a] = dc->cut[a][c + 1];
        dc->slo[a] = dc->lo[a] - (dc->nbr[a][0] >= 0 ? ghost : 0);
        dc->shi[a] = dc->hi[a] + (dc->nbr[a][1] >= 0 ? ghost : 0);
    }
    return 0;
}

size_t decomp_part_tissue(const decomp *dc, const grid *g, const int c[3])
{
    size_t t = 0;
    for (int k = dc->cut[2][c[2]]; k < dc->cut[2][c[2] + 1]; k++)
        for (int j = dc->cut[1][c[1]]; j < dc->cut[1][c[1] + 1]; j++) {
            const uint8_t *m = g->mask + grid_index(g, 0, j, k);
            for (int i = dc->cut[0][c[0]]; i < dc->cut[0][c[0] + 1]; i++) t += m[i] != 0;
        }
    return t;
}

void decomp_free(decomp *dc)
{
    for (int a = 0; a < 3; a++) {
        free(dc->cut[a]);
        dc->cut[a] = NULL;
    }
    if (dc->comm) {
        MPI_Comm_free((MPI_Comm *)dc->comm);
        free(dc->comm);
    }
    dc->comm = NULL;
}

int decomp_local_grid(const decomp *dc, const grid *g, grid *lg, char *err, size_t errlen)
{
    int n[3];
    for (int a = 0; a < 3; a++) n[a] = dc->shi[a] - dc->slo[a];
    if (grid_init(lg, g->dim, n, g->h, err, errlen) != 0) return -1;
    for (int k = 0; k < n[2]; k++)
        for (int j = 0; j < n[1]; j++)
            memcpy(lg->mask + grid_index(lg, 0, j, k),
                   g->mask + grid_index(g, dc->slo[0], dc->slo[1] + j, dc->slo[2] + k), (size_t)n[0]);
    if (g->phi) {
        if (!(lg->phi = malloc(lg->ncells * sizeof *lg->phi))) {
            snprintf(err, errlen, "could not allocate this rank's phase field");
            grid_free(lg);
            return -1;
        }
        for (int k = 0; k < n[2]; k++)
            for (int j = 0; j < n[1]; j++)
                memcpy(lg->phi + grid_index(lg, 0, j, k),
                       g->phi + grid_index(g, dc->slo[0], dc->slo[1] + j, dc->slo[2] + k), n[0] * sizeof *g->phi);
    }
    grid_recount(lg);
    return 0;
}

long decomp_local_index(const decomp *dc, int i, int j, int k)
{
    const int p[3] = {i, j, k};
    long idx = 0;
    for (int a = 2; a >= 0; a--) {
        if (p[a] < dc->slo[a] || p[a] >= dc->shi[a]) return -1;
        idx = idx * (dc->shi[a] - dc->slo[a]) + (p[a] - dc->slo[a]);
    }
    return idx;
}

int decomp_owns(const decomp *dc, int i, int j, int k)
{
    const int p[3] = {i, j, k};
    for (int a = 0; a < 3; a++)
        if (p[a] < dc->lo[a] || p[a] >= dc->hi[a]) return 0;
    return 1;
}

size_t decomp_global_index(const decomp *dc, size_t local)
{
    const size_t n0 = (size_t)(dc->shi[0] - dc->slo[0]), n1 = (size_t)(dc->shi[1] - dc->slo[1]);
    const size_t i = local % n0 + dc->slo[0], j = local / n0 % n1 + dc->slo[1], k = local / (n0 * n1) + dc->slo[2];
    return (k * dc->gn[1] + j) * dc->gn[0] + i;
}
