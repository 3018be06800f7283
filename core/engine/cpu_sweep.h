/* Precision template (no include guard; instantiated in core/engine/backend_cpu.c):
 * one fused reaction-diffusion step over the owned cells on the CPU. Reads V from
 * var[vindex], writes the new V to vnext and the other states in place.
 * The state is stored row-major, or in blockDS blocks (bm not NULL,
 * core/mesh/blocks.h), where the sweep visits the stored blocks only.
 * Returns the first (row-major) cell whose state became non-finite, or LONG_MAX. */

/* Multirate stepping (core/engine/multirate.h; mr 1: a holding step, 2: an
 * updating one): the model's slow states keep their stored values, or take
 * s->multirate times the step's change. In precision "mixed" the GPU stores
 * the float-valued ones in float, and in "fp32g" the slow gates as 16-bit
 * fractions, so the combined value is rounded so here. */
static inline void R(cpu_multirate)(const sim *s, real *y, real *const *var, size_t q, int mr, unsigned k)
{
    const model_def *d = s->m.def;
    for (int v = 0; v < d->nstate; v++) {
        if (!(d->slow_states >> v & 1)) continue;
        const real old = var[v][q];
        if (mr == 1) { y[v] = old; continue; }
        y[v] = R(multirate_by)(old, y[v], multirate_factor(s->multirate, k));
        if (s->mixed && (d->mixed_float >> v & 1)) y[v] = (real)(float)y[v];
        if (s->frac && (d->frac_gates >> v & 1)) y[v] = (real)fraction16_round((float)y[v]);
    }
}

/* Steps the tissue cell x; returns 0 when its new state is not finite.
 * mr: multirate's kind of step (cpu_multirate), 0 without multirate.
 * stamp: the cells' stamps with quiescent cells (core/engine/quiescence.h),
 * else NULL; n: the steps taken before this one. */
static inline int R(cpu_cell)(const sim *s, real *const *var, real *vnext, const real *istim, const real *p,
                              const st_cell *x, int mr, unsigned char *stamp, long long n)
{
    const int L = s->plabel ? s->plabel[x->c] : 0;   /* the cell's parameter set */
    p += (size_t)L * MODEL_MAX_PARAM;
    const model_def *d = s->m.def;
    const int ns = d->nstate, vi = d->vindex;
    const size_t q = x->q;
    real y[MODEL_MAX_STATE];
    real diff = R(stencil_point_at)(&s->st, &s->lg, var[vi], x);
    unsigned k = 1;   /* steps of dt the ionic state advances */
    if (stamp) {
        if (mr == 1 && R(quiescent)(var[vi][q], istim[q], diff, (real)s->quiet_below, (real)s->quiet_diffusion)) {
            vnext[q] = R(forward_euler)(var[vi][q], diff, (real)s->dt);
            return 1;
        }
        k = quiescent_lag(n, stamp[q]) + 1;
        stamp[q] = quiescent_stamp(n);
    }
    for (int v = 0; v < ns; v++) y[v] = var[v][q];
    R(model_step)(s, y, R(quiescent_share)(diff, k), istim[q], (real)k * (real)s->dt, p, L);
    if (mr) R(cpu_multirate)(s, y, var, q, mr, k);
    int finite = 1;
    for (int v = 0; v < ns; v++) {
        finite &= isfinite(y[v]);
        if (v != vi) var[v][q] = y[v];
    }
    vnext[q] = y[vi];
    return finite;
}

/* p: the parameter sets (core/interventions/param_sets.h) in precision real, MODEL_MAX_PARAM apart;
 * mr, stamp, n: as cpu_cell's. */
static long R(cpu_sweep)(const sim *s, const block_map *bm, real *const *var, real *vnext, const real *istim,
                         const real *p, int mr, unsigned char *stamp, long long n)
{
    const grid *g = &s->lg;
    const model_def *d = s->m.def;
    const real *V = var[d->vindex];
    long bad = LONG_MAX;
    const int nt = cpu_loop_threads((double)(s->own_hi[0] - s->own_lo[0]) * (s->own_hi[1] - s->own_lo[1]) *
                                    (s->own_hi[2] - s->own_lo[2]) * d->nstate);

    if (bm) {
        const long nstore = (long)block_map_cells(bm);
        #pragma omp parallel for schedule(static) reduction(min:bad) num_threads(nt)
        for (long q = 0; q < nstore; q++) {
            st_cell x = {bm, 0, (size_t)q, {0, 0, 0}, {0, 0, 0}};
            int in_box = block_position(bm, x.q, x.lpos, x.pos);
            x.c = in_box ? grid_index(g, x.pos[0], x.pos[1], x.pos[2]) : 0;
            if (!in_box || !g->mask[x.c]) { vnext[q] = V[q]; continue; }
            /* ghost cells (split over ranks) are the exchange's to set, as in the row-major sweep */
            int owned = 1;
            for (int a = 0; a < 3; a++) owned &= x.pos[a] >= s->own_lo[a] && x.pos[a] < s->own_hi[a];
            if (!owned) { vnext[q] = V[q]; continue; }
            if (!R(cpu_cell)(s, var, vnext, istim, p, &x, mr, stamp, n) && (long)x.c < bad) bad = (long)x.c;
        }
        return bad;
    }
    #pragma omp parallel for collapse(2) schedule(static) reduction(min:bad) num_threads(nt)
    for (int k = s->own_lo[2]; k < s->own_hi[2]; k++)
        for (int j = s->own_lo[1]; j < s->own_hi[1]; j++)
            for (int i = s->own_lo[0]; i < s->own_hi[0]; i++) {
                const size_t c = grid_index(g, i, j, k);
                if (!g->mask[c]) { vnext[c] = V[c]; continue; }
                const st_cell x = {NULL, c, c, {i, j, k}, {0, 0, 0}};
                if (!R(cpu_cell)(s, var, vnext, istim, p, &x, mr, stamp, n) && (long)c < bad) bad = (long)c;
            }
    return bad;
}
