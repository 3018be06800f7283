/* Phase singularities of a simulation's state (core/measure/tips.h). */
#include <stdlib.h>
#include "halo.h"
#include "par.h"
#include "state_view.h"
#include "tips.h"

/* The CPU half: the backend's fields in host memory. */
static void tips_sums_host(sim *s, int va, int vb, double sums[2])
{
    const grid *lg = &s->lg;
    float *f = malloc(lg->ncells * sizeof *f);
    sums[0] = sums[1] = 0;
    if (!f) { sim_fail(s, "out of memory for the tissue means"); return; }
    const int var[2] = {va, vb};
    for (int q = 0; q < 2; q++) {
        s->be->get_field(s, var[q], f);
        for (int k = s->own_lo[2]; k < s->own_hi[2]; k++)
            for (int j = s->own_lo[1]; j < s->own_hi[1]; j++)
                for (int i = s->own_lo[0]; i < s->own_hi[0]; i++) {
                    const size_t c = grid_index(lg, i, j, k);
                    if (lg->mask[c]) sums[q] += f[c];
                }
    }
    free(f);
}

static long tips_faces_host(sim *s, int va, int vb, double a0, double b0, sing_face **out)
{
    const grid *lg = &s->lg;
    float *a = malloc(lg->ncells * sizeof *a), *b = malloc(lg->ncells * sizeof *b);
    long n = -1;
    if (a && b) {
        s->be->get_field(s, va, a);
        s->be->get_field(s, vb, b);
        n = singular_faces_local(&s->g, lg, s->dc.slo, s->own_lo, s->own_hi, a, b, a0, b0, out);
    }
    free(a);
    free(b);
    if (n < 0) sim_fail(s, "out of memory finding phase singularities");
    return n;
}

static void tips_sums(sim *s, int va, int vb, double sums[2])
{
    state_view v;
    sim_view(s, VIEW_MASK, &v);
#ifdef CARDIAC_HAVE_CUDA
    if (v.device) { tips_sums_cu(s, &v, va, vb, sums); return; }
#endif
    tips_sums_host(s, va, vb, sums);
}

static long tips_faces(sim *s, int va, int vb, double a0, double b0, sing_face **out)
{
    state_view v;
    sim_view(s, VIEW_MASK, &v);
#ifdef CARDIAC_HAVE_CUDA
    if (v.device) return tips_faces_cu(s, &v, va, vb, a0, b0, out);
#endif
    return tips_faces_host(s, va, vb, a0, b0, out);
}

void tips_release(sim *s)
{
#ifdef CARDIAC_HAVE_CUDA
    if (s->tips_dev) tips_release_cu(s);
#else
    (void)s;
#endif
}

/* Every rank's singular plaquettes, on every rank (a malloc'd array in
 * *all; -1 after sim_fail). */
static long all_faces(sim *s, int va, int vb, const double *centre, sing_face **all)
{
    *all = NULL;
    char err[512];
    if (sim_sync(s, err, sizeof err) != 0) return -1;
    double c0[2];
    if (centre) { c0[0] = centre[0]; c0[1] = centre[1]; }
    else {
        tips_sums(s, va, vb, c0);
        par_sum_doubles(c0, 2);
        for (int q = 0; q < 2; q++) c0[q] = s->g.ntissue ? c0[q] / (double)s->g.ntissue : 0;
    }
    /* plaquettes across a rank border read the neighbour's cells in the ghost layers */
    const int vars[2] = {va, vb};
    if (s->failed || halo_exchange(s, vars, va == vb ? 1 : 2) != 0) return -1;
    sing_face *mine = NULL;
    long n = tips_faces(s, va, vb, c0[0], c0[1], &mine);
    int failed = n < 0;
    par_max_ints(&failed, 1);                      /* no rank waits below for one that failed */
    if (failed) {
        free(mine);
        if (n >= 0) sim_fail(s, "another rank failed to find its phase singularities");
        return -1;
    }
    size_t bytes;
    *all = par_allgather(mine, (size_t)n * sizeof *mine, &bytes);
    free(mine);
    if (!*all) { sim_fail(s, "out of memory gathering phase singularities"); return -1; }
    return (long)(bytes / sizeof **all);
}

long sim_find_tips(sim *s, int va, int vb, const double *centre, singularity **out)
{
    *out = NULL;
    sing_face *all;
    long n = all_faces(s, va, vb, centre, &all);
    if (n < 0) return -1;
    long m = singularities_from_faces(&s->g, all, n, out);
    free(all);
    if (m < 0) sim_fail(s, "out of memory joining phase singularities");
    return m;
}

/* A layer's plaquettes with normal z are its sheet's plaquettes: their ids
 * in the sheet's grid are those in the volume less the layers below. */
long sim_find_layer_tips(sim *s, int va, int vb, const double centre[2], singularity **out)
{
    *out = NULL;
    sing_face *all;
    long n = all_faces(s, va, vb, centre, &all);
    if (n < 0) return -1;
    const grid *g = &s->g;
    grid sheet = *g;
    sheet.dim = 2;
    sheet.n[2] = 1;
    sheet.ncells = (size_t)g->n[0] * g->n[1];
    long kept = 0;
    for (long q = 0; q < n; q++)
        if (all[q].id / g->ncells == 2) all[kept++] = all[q];
    singularity *found = NULL;
    long m = 0;
    if (kept) {
        /* sorted by id, the faces are sorted by layer; each layer's tips alone */
        sing_face *f = all;
        long left = kept;
        found = calloc((size_t)kept, sizeof *found);
        if (!found) { free(all); sim_fail(s, "out of memory joining phase singularities"); return -1; }
        qsort(f, (size_t)kept, sizeof *f, sing_face_cmp);
        while (left > 0) {
            const uint64_t cell = f[0].id % g->ncells, layer = cell / sheet.ncells;
            long cnt = 0;
            while (cnt < left && (f[cnt].id % g->ncells) / sheet.ncells == layer) cnt++;
            for (long q = 0; q < cnt; q++) f[q].id = 2 * sheet.ncells + f[q].id % g->ncells - layer * sheet.ncells;
            singularity *t;
            long got = singularities_from_faces(&sheet, f, cnt, &t);
            if (got < 0) { free(found); free(all); sim_fail(s, "out of memory joining phase singularities"); return -1; }
            for (long q = 0; q < got; q++) { found[m] = t[q]; found[m].layer = (int)layer; m++; }
            free(t);
            f += cnt;
            left -= cnt;
        }
    }
    free(all);
    *out = found;
    return m;
}
