/* Precision template (no include guard; instantiated in core/backend_cpu.c):
 * one fused reaction-diffusion step over the owned cells on the CPU. Reads V from
 * var[vindex], writes the new V to vnext and the other states in place.
 * Returns the first cell whose state became non-finite, or LONG_MAX. */

static long R(cpu_sweep)(const sim *s, real *const *var, real *vnext, const real *istim)
{
    const grid *g = &s->lg;
    const model_def *d = s->m.def;
    const int ns = d->nstate, vi = d->vindex;
    const real dt = (real)s->dt;
    real p[MODEL_MAX_PARAM];
    for (int q = 0; q < d->nparam; q++) p[q] = (real)s->m.p[q];
    const real *V = var[vi];
    long bad = LONG_MAX;

    #pragma omp parallel for collapse(2) schedule(static) reduction(min:bad)
    for (int k = s->own_lo[2]; k < s->own_hi[2]; k++)
        for (int j = s->own_lo[1]; j < s->own_hi[1]; j++)
            for (int i = s->own_lo[0]; i < s->own_hi[0]; i++) {
                size_t c = grid_index(g, i, j, k);
                if (!g->mask[c]) { vnext[c] = V[c]; continue; }
                real y[MODEL_MAX_STATE];
                real diff = R(stencil_point)(&s->st, g, V, i, j, k, c);
                for (int v = 0; v < ns; v++) y[v] = var[v][c];
                R(model_step)(d, y, diff, istim[c], dt, p);
                int finite = 1;
                for (int v = 0; v < ns; v++) {
                    finite &= isfinite(y[v]);
                    if (v != vi) var[v][c] = y[v];
                }
                vnext[c] = y[vi];
                if (!finite && (long)c < bad) bad = (long)c;
            }
    return bad;
}
