/* Rate tables: see rate_tables.h. */
#include "rate_tables.h"
#include <stdio.h>
#include <stdlib.h>
#include "sim.h"

/* Whether sets a and b (step parameters) agree in every parameter the
 * table's kinetics read. */
static int same_kinetics(const model_table *mt, const double *a, const double *b)
{
    for (int k = 0; k < MODEL_MAX_PARAM; k++)
        if ((mt->params >> k & 1) && a[k] != b[k]) return 0;
    return 1;
}

/* Table t of the model's gates for step parameters p and time step dt. */
static void fill(const model_table *mt, const double *p, double dt, double *t)
{
    double a[2][MODEL_MAX_STATE], b[2][MODEL_MAX_STATE];
    mt->coeffs(mt->vlo, dt, p, a[0], b[0]);
    for (int i = 0; i < mt->rows; i++) {
        const int cur = i & 1, next = !cur;
        if (i + 1 < mt->rows) mt->coeffs(mt->vlo + (i + 1) * mt->dv, dt, p, a[next], b[next]);
        for (int g = 0; g < mt->count; g++) {
            double *e = t + 4 * ((size_t)i * mt->count + g);
            const int last = i + 1 == mt->rows;
            e[0] = a[cur][g];
            e[1] = last ? 0 : a[next][g] - a[cur][g];
            e[2] = b[cur][g];
            e[3] = last ? 0 : b[next][g] - b[cur][g];
        }
    }
}

int rate_tables_build(sim *s, char *err, size_t errlen)
{
    const model_table *mt = s->m.def->table;
    rate_tables *t = s->tables;
    const int nsets = sim_param_sets(s);
    double (*p)[MODEL_MAX_PARAM] = malloc((size_t)nsets * sizeof *p);
    int first_of[PARAM_SETS_MAX], ntab = 0;   /* the first set of each table */
    if (!p) {
        snprintf(err, errlen, "out of memory for the rate tables' parameters");
        return -1;
    }
    for (int L = 0; L < nsets; L++) {
        model_step_params(s->m.def, sim_param_set(s, L), p[L]);
        int k = 0;
        while (k < ntab && !same_kinetics(mt, p[first_of[k]], p[L])) k++;
        if (k == ntab) first_of[ntab++] = L;
        t->of_set[L] = (unsigned char)k;
    }
    const size_t stride = 4 * (size_t)mt->rows * mt->count;
    double *data = realloc(t->data, (size_t)ntab * stride * sizeof(double));
    if (!data) {
        free(p);
        snprintf(err, errlen, "out of memory for %d rate tables of %zu KB", ntab, stride * sizeof(double) / 1024);
        return -1;
    }
    for (int k = 0; k < ntab; k++) fill(mt, p[first_of[k]], s->dt, data + k * stride);
    free(p);
    t->data = data;
    t->ntab = ntab;
    t->stride = stride;
    return 0;
}

const double *rate_tables_of_set(const rate_tables *t, int L)
{
    return t->data + t->of_set[L] * t->stride;
}

void rate_tables_free(rate_tables *t)
{
    if (!t) return;
    free(t->data);
    free(t);
}
