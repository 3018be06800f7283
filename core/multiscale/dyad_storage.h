/* Precision template (no include guard): how the dyads' state is stored, one
 * array per real (MS_* of core/multiscale/multiscale.h, ncells x n values, cell-major)
 * and the four RyR counts packed in one word, C1 | O1 << 8 | C2 << 16 |
 * C3 << 24. Shared by the CPU stage (core/multiscale/multiscale_stage.h) and the GPU's
 * (core/multiscale/dyads_cu.cu), which instantiate it after core/engine/instances.h. */

/* Dyad q's state from the arrays var[MS_NVAR] and ryr. */
CARDIAC_HD void R(dyad_load)(struct R(dyad) *x, real *const *var, const uint32_t *ryr, size_t q)
{
    x->cads = var[MS_CADS][q]; x->cass = var[MS_CASS][q]; x->cacyt = var[MS_CACYT][q];
    x->cansr = var[MS_CANSR][q]; x->cajsr = var[MS_CAJSR][q]; x->nca = var[MS_NCA][q];
    x->camkt = var[MS_CAMKT][q];
    const uint32_t r = ryr[q];
    for (int t = 0; t < 4; t++) x->ryr[t] = (int)((r >> (8 * t)) & 0xffu);
}

CARDIAC_HD void R(dyad_store)(const struct R(dyad) *x, real *const *var, uint32_t *ryr, size_t q)
{
    var[MS_CADS][q] = x->cads; var[MS_CASS][q] = x->cass; var[MS_CACYT][q] = x->cacyt;
    var[MS_CANSR][q] = x->cansr; var[MS_CAJSR][q] = x->cajsr; var[MS_NCA][q] = x->nca;
    var[MS_CAMKT][q] = x->camkt;
    ryr[q] = (uint32_t)x->ryr[0] | (uint32_t)x->ryr[1] << 8 | (uint32_t)x->ryr[2] << 16 | (uint32_t)x->ryr[3] << 24;
}
