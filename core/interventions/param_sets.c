/* Per-cell parameter sets (core/interventions/param_sets.h). The table is the same on every
 * rank because every rank derives it from the same arguments and the same
 * global facts (which sets the changed cells use, which sets any cell still
 * uses: OR-reduced byte maps), never from its own cells alone. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "par.h"
#include "sim.h"

int sim_param_sets(const sim *s) { return s->plabel ? s->npsets : 1; }

const double *sim_param_set(const sim *s, int L) { return L == 0 || !s->plabel ? s->m.p : s->psets[L]; }

int sim_param_label(const sim *s, size_t c)
{
    long l = sim_local_index(s, c);
    if (l < 0) return -1;
    return s->plabel ? s->plabel[l] : 0;
}

static double rate_of(const sim *s, const double *p)
{
    model_inst m = s->m;
    memcpy(m.p, p, sizeof m.p);
    return model_rate_bound(&m);
}

double sim_rate_bound(const sim *s)
{
    double r = model_rate_bound(&s->m);
    for (int L = 1; L < sim_param_sets(s); L++) {
        double q = rate_of(s, s->psets[L]);
        if (q > r) r = q;
    }
    return r;
}

void sim_free_param_sets(sim *s)
{
    free(s->plabel);
    free(s->psets);
    s->plabel = NULL;
    s->psets = NULL;
    s->npsets = 0;
}

static int same_params(const sim *s, const double *a, const double *b)
{
    for (int q = 0; q < s->m.def->nparam; q++)
        if (a[q] != b[q]) return 0;
    return 1;
}

/* Index of p in table t[0..*n), appended when new; -1 when the table is full. */
static int find_or_add(const sim *s, param_vec *t, int *n, const double *p)
{
    for (int L = 0; L < *n; L++)
        if (same_params(s, t[L], p)) return L;
    if (*n >= PARAM_SETS_MAX) return -1;
    memcpy(t[*n], p, sizeof(param_vec));
    return (*n)++;
}

/* Which sets the cells (all stored cells when cells is NULL) use, over all ranks. */
static void sets_used(const sim *s, const size_t *cells, size_t n, unsigned char *used)
{
    memset(used, 0, 256);
    if (!cells) {
        if (!s->plabel) used[0] = 1;
        else
            for (size_t l = 0; l < s->lg.ncells; l++) used[s->plabel[l]] = 1;
    } else {
        for (size_t q = 0; q < n; q++) {
            int L = sim_param_label(s, cells[q]);
            if (L >= 0) used[L] = 1;
        }
    }
    par_or_bytes(used, 256);
}

/* Drops sets no cell uses and merges equal ones. Set 0 stays first unless no
 * cell uses it (a change everywhere, or in regions that cover the tissue):
 * then the first set in use becomes set 0, the simulation's own parameters.
 * Frees the labels when one set is left. */
static void compact(sim *s)
{
    unsigned char used[256];
    sets_used(s, NULL, 0, used);
    unsigned char remap[256];
    int n = 0;
    for (int L = 0; L < s->npsets; L++) {
        if (!used[L]) continue;
        int to = n;
        for (int e = 0; e < n; e++)
            if (same_params(s, s->psets[e], s->psets[L])) { to = e; break; }
        if (to == n) memmove(s->psets[n++], s->psets[L], sizeof(param_vec));
        remap[L] = (unsigned char)to;
    }
    s->npsets = n;
    memcpy(s->m.p, s->psets[0], sizeof(param_vec));
    if (n == 1) {
        sim_free_param_sets(s);
        return;
    }
    for (size_t l = 0; l < s->lg.ncells; l++) s->plabel[l] = remap[s->plabel[l]];
}

int sim_change_params(sim *s, const size_t *cells, size_t n, const param_vec *next, char *err, size_t errlen)
{
    const int nsets = sim_param_sets(s);
    unsigned char touched[256];
    sets_used(s, cells, n, touched);
    /* the new table: the current sets, then each changed set's replacement */
    param_vec *t = malloc(PARAM_SETS_MAX * sizeof *t);
    unsigned char remap[256];
    if (!t) {
        snprintf(err, errlen, "out of memory for parameter sets");
        return -1;
    }
    int nt = nsets;
    for (int L = 0; L < nsets; L++) {
        memcpy(t[L], sim_param_set(s, L), sizeof(param_vec));
        remap[L] = (unsigned char)L;
    }
    /* a multiscale model's dyad count and seed shape its storage and its random
     * numbers: fixed when the simulation is created */
    for (int L = 0; L < nsets && s->m.def->multiscale; L++) {
        if (!touched[L]) continue;
        const double *was = sim_param_set(s, L);
        for (int q = GR_DYADS; q <= GR_SEED; q++)
            if (next[L][q] != was[q]) {
                free(t);
                snprintf(err, errlen, "%s is fixed when the simulation is created (%s = %g); set it on the model "
                         "before cardiac.simulation", s->m.def->params[q].name, s->m.def->params[q].name, was[q]);
                return -1;
            }
    }
    double rate = 0;
    for (int L = 0; L < nsets; L++) {
        if (!touched[L]) continue;
        if (!cells) {   /* everywhere: each set changes in place */
            memcpy(t[L], next[L], sizeof(param_vec));
        } else {
            int to = find_or_add(s, t, &nt, next[L]);
            if (to < 0) {
                free(t);
                snprintf(err, errlen, "more than %d distinct parameter sets; change parameters in fewer, larger "
                         "regions", PARAM_SETS_MAX);
                return -1;
            }
            remap[L] = (unsigned char)to;
        }
    }
    for (int L = 0; L < nt; L++) {   /* sets that may go unused count too: conservative */
        double q = rate_of(s, t[L]);
        if (q > rate) rate = q;
    }
    if (sim_check_dt_members(s, rate, err, errlen) != 0) {
        free(t);
        return -1;
    }
    /* commit: the table, set 0 as the model's own parameters, the labels */
    if (nt > 1 && !s->plabel) {
        s->plabel = calloc(s->lg.ncells ? s->lg.ncells : 1, 1);
        s->psets = malloc(PARAM_SETS_MAX * sizeof *s->psets);
        if (!s->plabel || !s->psets) {
            sim_free_param_sets(s);
            free(t);
            snprintf(err, errlen, "out of memory for the parameter labels of %zu cells", s->lg.ncells);
            return -1;
        }
    }
    memcpy(s->m.p, t[0], sizeof(param_vec));
    if (s->plabel) {
        memcpy(s->psets, t, (size_t)nt * sizeof *t);
        s->npsets = nt;
        for (size_t q = 0; cells && q < n; q++) {
            long l = sim_local_index(s, cells[q]);
            if (l >= 0) s->plabel[l] = remap[s->plabel[l]];
        }
        compact(s);
    }
    free(t);
    sim_params_changed(s);
    return 0;
}

int sim_replace_param_sets(sim *s, const param_vec *sets, int n, const unsigned char *glabel, char *err,
                           size_t errlen)
{
    if (n < 1 || n > PARAM_SETS_MAX || (n > 1 && !glabel)) {
        snprintf(err, errlen, "%d parameter sets (1 to %d, with a label per cell when more than 1)", n,
                 PARAM_SETS_MAX);
        return -1;
    }
    for (size_t c = 0; n > 1 && c < s->g.ncells; c++)
        if (glabel[c] >= n) {
            snprintf(err, errlen, "cell %zu uses parameter set %d of %d", c, glabel[c], n);
            return -1;
        }
    double rate = 0;
    for (int L = 0; L < n; L++) {
        double q = rate_of(s, sets[L]);
        if (q > rate) rate = q;
    }
    if (sim_check_dt_members(s, rate, err, errlen) != 0) return -1;
    unsigned char *label = NULL;
    param_vec *table = NULL;
    if (n > 1) {
        label = malloc(s->lg.ncells ? s->lg.ncells : 1);
        table = malloc(PARAM_SETS_MAX * sizeof *table);
        if (!label || !table) {
            free(label);
            free(table);
            snprintf(err, errlen, "out of memory for the parameter labels of %zu cells", s->lg.ncells);
            return -1;
        }
        memcpy(table, sets, (size_t)n * sizeof *table);
        for (size_t l = 0; l < s->lg.ncells; l++) label[l] = glabel[decomp_global_index(&s->dc, l)];
    }
    sim_free_param_sets(s);
    memcpy(s->m.p, sets[0], sizeof(param_vec));
    s->plabel = label;
    s->psets = table;
    s->npsets = n > 1 ? n : 0;
    sim_params_changed(s);
    return 0;
}
