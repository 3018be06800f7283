/* Precision template (no include guard; instantiated in core/multiscale.c):
 * the CPU's dyad stage, one time step of every dyad of every owned tissue
 * cell, OpenMP over cells. Per cell: the shared coefficients from the cell's
 * state (dyad_cell_setup), the reaction step of each dyad (dyad_step), then
 * explicit diffusion of cass, cacyt and cansr between neighbouring dyads
 * (thesis eqs. 2.4, 2.8, 2.10; mirror boundaries, eq. 2.22), then the means
 * that the cell level reads. */

/* One explicit diffusion step of field a (n values on the dyad grid) into b;
 * D[3] per axis in um^2/ms; buffered: scale by the local rapid-buffering
 * factor (0 none, 1 myoplasm, 2 submembrane space). Returns the mean of b. */
static double R(ms_diffuse)(const int *shape, const real *a, real *b, const double *D, double h2, real dt,
                            int buffered, int type)
{
    const int nx = shape[0], ny = shape[1], nz = shape[2];
    const int step[3] = {1, nx, nx * ny}, len[3] = {nx, ny, nz};
    const real coef[3] = {(real)(D[0] / h2), (real)(D[1] / h2), (real)(D[2] / h2)};
    double sum = 0;
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++) {
                const int q = i + nx * (j + ny * k), pos[3] = {i, j, k};
                const real c = a[q];
                real lap = 0;
                for (int ax = 0; ax < 3; ax++) {
                    if (len[ax] == 1) continue;
                    /* mirror boundaries: the missing neighbour equals the other one */
                    const real lo = pos[ax] > 0 ? a[q - step[ax]] : a[q + step[ax]];
                    const real hi = pos[ax] < len[ax] - 1 ? a[q + step[ax]] : a[q - step[ax]];
                    lap += coef[ax] * (lo + hi - 2 * c);
                }
                const real beta = buffered == 1 ? R(ord_buffer_myo)(c, type)
                                : buffered == 2 ? R(ord_buffer_ss)(c) : (real)1;
                b[q] = c + dt * beta * lap;
                sum += b[q];
            }
    return sum / (nx * ny * nz);
}

static void R(ms_load)(const multiscale *ms, size_t q, struct R(dyad) *x)
{
    real *const *v = (real *const *)ms->var;
    x->cads = v[MS_CADS][q]; x->cass = v[MS_CASS][q]; x->cacyt = v[MS_CACYT][q];
    x->cansr = v[MS_CANSR][q]; x->cajsr = v[MS_CAJSR][q]; x->nca = v[MS_NCA][q]; x->camkt = v[MS_CAMKT][q];
    const uint32_t r = ms->ryr[q];
    for (int t = 0; t < 4; t++) x->ryr[t] = (int)((r >> (8 * t)) & 0xffu);
}

static void R(ms_store)(multiscale *ms, size_t q, const struct R(dyad) *x)
{
    real *const *v = (real *const *)ms->var;
    v[MS_CADS][q] = x->cads; v[MS_CASS][q] = x->cass; v[MS_CACYT][q] = x->cacyt;
    v[MS_CANSR][q] = x->cansr; v[MS_CAJSR][q] = x->cajsr; v[MS_NCA][q] = x->nca; v[MS_CAMKT][q] = x->camkt;
    ms->ryr[q] = (uint32_t)x->ryr[0] | (uint32_t)x->ryr[1] << 8 | (uint32_t)x->ryr[2] << 16 | (uint32_t)x->ryr[3] << 24;
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
    double sum[GR_NSTATE] = {0}, jrel = 0, jup = 0;
    for (int d = 0; d < n; d++) {
        const size_t q = k * (size_t)n + (size_t)d;
        struct R(dyad) x;
        struct R(dyad_out) o;
        uint32_t w[10];
        R(ms_load)(ms, q, &x);
        dyad_words(ms->seed, d, ms->gcell[k], (uint64_t)step, w);
        R(dyad_step)(&x, &cell, p, dt, w, ms->clamp[k], &o);
        R(ms_store)(ms, q, &x);
        sum[GR_ICAL] += o.ical; sum[GR_ICANA] += o.icana; sum[GR_ICAK] += o.icak;
        sum[GR_INACA_I] += o.inaca_i; sum[GR_INACA_SS] += o.inaca_ss;
        sum[GR_ICAB] += o.icab; sum[GR_IPCA] += o.ipca; sum[GR_CAMKA] += o.camka;
        sum[GR_LCC_OPEN] += o.lcc_open; sum[GR_RYR_OPEN] += x.ryr[DYAD_O1];
        sum[GR_CADS] += x.cads; sum[ORD_CAJSR] += x.cajsr; sum[ORD_NCA] += x.nca; sum[ORD_CAMKT] += x.camkt;
        jrel += o.jrel; jup += o.jup;
    }
    /* diffusion between the cell's dyads, from the reacted values */
    const double h2 = p[GR_DYAD_DX] * p[GR_DYAD_DX], dc = p[GR_D_CYT], dsr = p[GR_D_SR];
    const double Dcyt[3] = {dc, dc, 2 * dc}, Dsr[3] = {dsr, dsr, dsr};   /* z doubled as in the encoding */
    real *const *a = (real *const *)ms->var, *const *b = (real *const *)ms->next;
    const size_t off = k * (size_t)n;
    y[ORD_CASS] = (real)R(ms_diffuse)(ms->shape, a[MS_CASS] + off, b[MS_CASS] + off, Dcyt, h2, dt, 2, cell.type);
    y[ORD_CAI] = (real)R(ms_diffuse)(ms->shape, a[MS_CACYT] + off, b[MS_CACYT] + off, Dcyt, h2, dt, 1, cell.type);
    y[ORD_CANSR] = (real)R(ms_diffuse)(ms->shape, a[MS_CANSR] + off, b[MS_CANSR] + off, Dsr, h2, dt, 0, cell.type);
    static const int mean_of[] = {GR_ICAL, GR_ICANA, GR_ICAK, GR_INACA_I, GR_INACA_SS, GR_ICAB, GR_IPCA, GR_CAMKA,
                                  GR_LCC_OPEN, GR_RYR_OPEN, GR_CADS, ORD_CAJSR, ORD_NCA, ORD_CAMKT};
    for (size_t m = 0; m < sizeof mean_of / sizeof mean_of[0]; m++) y[mean_of[m]] = (real)(sum[mean_of[m]] / n);
    const double vmyo = R(ord_geometry)().vmyo;
    y[GR_JREL] = (real)(jrel / n * 1e-3 * GR_VDS * GR_NREP / vmyo);   /* mM/ms of myoplasm */
    y[GR_JUP] = (real)(jup / n);
    for (int v = 0; v < GR_NSTATE; v++)
        if (v != ORD_V) var[v][c] = y[v];
}

static void R(ms_stage)(sim *s, multiscale *ms, real *const *var, const real *ptab, long step)
{
    const long nc = (long)ms->ncells;
    #pragma omp parallel for schedule(dynamic, 1)
    for (long k = 0; k < nc; k++) R(ms_cell)(s, ms, var, ptab, step, (size_t)k);
    const int diffused[3] = {MS_CASS, MS_CACYT, MS_CANSR};
    for (int q = 0; q < 3; q++) {
        void *t = ms->var[diffused[q]];
        ms->var[diffused[q]] = ms->next[diffused[q]];
        ms->next[diffused[q]] = t;
    }
}
