/* Rate tables (cardiac.simulation{tables = true}; docs/numerics.md, "Rate
 * tables"): for a model that has them (model_def.table), the Rush-Larsen
 * coefficients of its gates over V, one table for each distinct setting of
 * the parameters its gates' kinetics read among the simulation's parameter
 * sets (core/interventions/param_sets.h). Built on the host in double from
 * the model's own kinetics, before the first step and again whenever the
 * parameters change; the backends read them (the CUDA backend copies them to
 * the device). */
#ifndef CARDIAC_RATE_TABLES_H
#define CARDIAC_RATE_TABLES_H
#include <stddef.h>
#include "param_sets.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rate_tables {
    int ntab;                               /* distinct tables */
    unsigned char of_set[PARAM_SETS_MAX];   /* the table of each parameter set */
    size_t stride;                          /* doubles per table: 4 rows count */
    double *data;                           /* ntab tables */
} rate_tables;

struct sim;

/* (Re)builds s->tables for the simulation's parameter sets and dt: 0, or -1
 * with err (out of memory). */
int rate_tables_build(struct sim *s, char *err, size_t errlen);
/* The table of parameter set L. */
const double *rate_tables_of_set(const rate_tables *t, int L);
void rate_tables_free(rate_tables *t);

#ifdef __cplusplus
}
#endif

#endif
