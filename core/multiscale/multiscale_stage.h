/* Precision template (no include guard; instantiated in core/multiscale/multiscale.c):
 * the CPU's dyad stage, one time step of every dyad of every owned tissue
 * cell, OpenMP over cells. Per cell: the shared coefficients from the cell's
 * state (dyad_cell_setup), the reaction step of each dyad (dyad_step), then
 * explicit diffusion of cass, cacyt and cansr between neighbouring dyads
 * (thesis eqs. 2.4, 2.8, 2.10; mirror boundaries, eq. 2.22), then the means
 * that the cell level reads (dyad_mean). The GPU's stage (core/multiscale/dyads_cu.cu)
 * calls the same functions. */

#include "dyad_storage.h"

/* One explicit diffusion step of field a (the n values of one cell's dyads)
 * into b (core/multiscale/dyads.h, dyad_diffuse_point); the sum of b. */
static double R(ms_diffuse)(const int *shape, const real *a, real *b, const real *coef, real dt, int buffered,
                            int type)
{
    double sum = 0;
    for (int k = 0; k < shape[2]; k++)
        for (int j = 0; j < shape[1]; j++)
            for (int i = 0; i < shape[0]; i++) {
                const int q = i + shape[0] * (j + shape[1] * k), pos[3] = {i, j, k};
                b[q] = R(dyad_diffuse_point)(a, q, pos, shape, coef, dt, buffered, type);
                sum += b[q];
            }
    return sum;
}

static void R(ms_cell)(const sim *s, multiscale *ms, real *const *var, const real *ptab, long step, size_t k)
{
    const size_t c = ms->lcell[k];
    const int n = ms->n;
    const real *p = ptab + (s->plabel ? (size_t)s->plabel[c] * MODEL_MAX_PARAM : 0);
    const real dt = (real)s->dt;
    real y[GR_NSTATE];
    for (int v = 0; v < GR_NSTATE; v++) y[v] = var[v][c];
    struct R(dyad_cell) cell;
    R(dyad_cell_setup)(&cell, y, p, dt);
    double sum[DS_COUNT] = {0};
    const uint64_t key = dyad_key(ms->gcell[k], ms->key_period);
    for (int d = 0; d < n; d++) {
        const size_t q = k * (size_t)n + (size_t)d;
        struct R(dyad) x;
        struct R(dyad_out) o;
        uint32_t w[10];
        R(dyad_load)(&x, (real *const *)ms->var, ms->ryr, q);
        dyad_words(ms->seed, d, key, (uint64_t)step, x.ryr, w);
        R(dyad_step)(&x, &cell, p, dt, w, ms->clamp[k], &o);
        R(dyad_store)(&x, (real *const *)ms->var, ms->ryr, q);
        R(dyad_accumulate)(sum, &x, &o);
    }
    /* diffusion between the cell's dyads, from the reacted values */
    real cyt[3], sr[3];
    R(dyad_diffusion_coefs)(p, cyt, sr);
    real *const *a = (real *const *)ms->var, *const *b = (real *const *)ms->next;
    const size_t off = k * (size_t)n;
    sum[DS_CASS] = R(ms_diffuse)(ms->shape, a[MS_CASS] + off, b[MS_CASS] + off, cyt, dt, 2, cell.type);
    sum[DS_CACYT] = R(ms_diffuse)(ms->shape, a[MS_CACYT] + off, b[MS_CACYT] + off, cyt, dt, 1, cell.type);
    sum[DS_CANSR] = R(ms_diffuse)(ms->shape, a[MS_CANSR] + off, b[MS_CANSR] + off, sr, dt, 0, cell.type);
    const int reading = (int)p[GR_READING];
    for (int m = 0; m < DS_COUNT; m++) var[dyad_sum_state(m)][c] = R(dyad_mean)(m, sum[m], n, reading);
}

static void R(ms_stage)(sim *s, multiscale *ms, real *const *var, const real *ptab, long step)
{
    const long nc = (long)ms->ncells;
    #pragma omp parallel for schedule(dynamic, 1) num_threads(cpu_loop_threads((double)nc * ms->n * MS_NVAR))
    for (long k = 0; k < nc; k++) R(ms_cell)(s, ms, var, ptab, step, (size_t)k);
    const int diffused[3] = {MS_CASS, MS_CACYT, MS_CANSR};
    for (int q = 0; q < 3; q++) {
        void *t = ms->var[diffused[q]];
        ms->var[diffused[q]] = ms->next[diffused[q]];
        ms->next[diffused[q]] = t;
    }
}
