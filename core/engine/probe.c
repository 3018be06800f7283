/* Probe samples over a long run: while the simulation writes an output file,
 * a sample leaves memory once the file has it (a probe of many cells sampled
 * every step would otherwise grow without bound), and probe:data and
 * probe:csv read it back from the file. Closing the output brings the
 * samples back into memory, so the closed file may be overwritten or moved. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "output.h"
#include "sim.h"

void probe_release(probe *p)
{
    if (p->nsaved <= p->first) return;
    const size_t keep = p->nsamples - p->nsaved, row = (size_t)p->nvars * p->ncells;
    memmove(p->t, probe_time(p, p->nsaved), keep * sizeof *p->t);
    memmove(p->data, probe_row(p, p->nsaved), keep * row * sizeof *p->data);
    p->first = p->nsaved;
    /* give memory back when what is held is a small part of what was */
    if (p->cap > 1024 && keep < p->cap / 4) {
        p->cap = keep > 256 ? 2 * keep : 256;
        p->t = realloc(p->t, p->cap * sizeof *p->t);
        p->data = realloc(p->data, p->cap * row * sizeof *p->data);
    }
}

int probe_reload(const h5out *o, const sim *s, probe *p, char *err, size_t errlen)
{
    if (p->first == 0) return 0;
    const size_t row = (size_t)p->nvars * p->ncells, held = p->nsamples - p->first;
    size_t cap = p->nsamples > 256 ? p->nsamples : 256;
    double *t = malloc(cap * sizeof *t);
    float *data = malloc(cap * row * sizeof *data);
    if (!t || !data) {
        free(t); free(data);
        snprintf(err, errlen, "probe '%s': out of memory taking its %zu samples back from the output file", p->name,
                 p->nsamples);
        return -1;
    }
    if (h5out_read_probe(o, s, p, 0, p->first, t, data, err, errlen) != 0) {
        free(t); free(data);
        return -1;
    }
    memcpy(t + p->first, p->t, held * sizeof *t);
    memcpy(data + p->first * row, p->data, held * row * sizeof *data);
    free(p->t); free(p->data);
    p->t = t; p->data = data; p->cap = cap; p->first = 0;
    return 0;
}

int probe_read(const sim *s, const probe *p, size_t q0, size_t n, double *t, float *rows, char *err, size_t errlen)
{
    const size_t row = (size_t)p->nvars * p->ncells;
    if (q0 < p->first && n > 0) {
        size_t m = p->first - q0 < n ? p->first - q0 : n;
        if (h5out_read_probe(s->out, s, p, q0, m, t, rows, err, errlen) != 0) return -1;
        q0 += m; n -= m; t += m; rows += m * row;
    }
    if (n == 0) return 0;
    if (q0 + n > p->nsamples) {
        snprintf(err, errlen, "probe '%s' has %zu samples, not %zu", p->name, p->nsamples, q0 + n);
        return -1;
    }
    memcpy(t, probe_time(p, q0), n * sizeof *t);
    memcpy(rows, probe_row(p, q0), n * row * sizeof *rows);
    return 0;
}
