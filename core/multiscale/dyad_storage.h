/* Precision template (no include guard): how the dyads' state is stored, one
 * array per real (MS_* of core/multiscale/multiscale.h, ncells x n values, cell-major)
 * and the four RyR counts packed in one word, C1 | O1 << 8 | C2 << 16 |
 * C3 << 24. Shared by the CPU stage (core/multiscale/multiscale_stage.h) and the GPU's
 * (core/multiscale/dyads_cu.cu), which instantiate it after core/engine/instances.h. */

/* A dyad's state is read once a step: on the GPU as a streaming load, which
 * L1 evicts first, so that it does not push out the dyad kernels' spills
 * (docs/gpu-notebook.md, item 35). */
#ifndef CARDIAC_DYAD_LOAD
#ifdef __CUDA_ARCH__
#define CARDIAC_DYAD_LOAD(p) __ldcs(p)
#else
#define CARDIAC_DYAD_LOAD(p) (*(p))
#endif
#endif

/* Dyad q's state from the arrays var[MS_NVAR] and ryr. */
CARDIAC_HD void R(dyad_load)(struct R(dyad) *x, real *const *var, const uint32_t *ryr, size_t q)
{
    x->cads = CARDIAC_DYAD_LOAD(&var[MS_CADS][q]); x->cass = CARDIAC_DYAD_LOAD(&var[MS_CASS][q]);
    x->cacyt = CARDIAC_DYAD_LOAD(&var[MS_CACYT][q]); x->cansr = CARDIAC_DYAD_LOAD(&var[MS_CANSR][q]);
    x->cajsr = CARDIAC_DYAD_LOAD(&var[MS_CAJSR][q]); x->nca = CARDIAC_DYAD_LOAD(&var[MS_NCA][q]);
    x->camkt = CARDIAC_DYAD_LOAD(&var[MS_CAMKT][q]);
    const uint32_t r = CARDIAC_DYAD_LOAD(&ryr[q]);
    for (int t = 0; t < 4; t++) x->ryr[t] = (int)((r >> (8 * t)) & 0xffu);
}

/* The same, but the diffused fields (cass, cacyt, cansr) into diffused[0..2]
 * at index qd: the GPU keeps them in shared memory for the cell's diffusion
 * (core/multiscale/dyads_cu.cu, dyad_cell_step). */
CARDIAC_HD void R(dyad_store_split)(const struct R(dyad) *x, real *const *var, uint32_t *ryr, size_t q,
                                    real *const *diffused, size_t qd)
{
    var[MS_CADS][q] = x->cads; diffused[0][qd] = x->cass; diffused[1][qd] = x->cacyt;
    diffused[2][qd] = x->cansr; var[MS_CAJSR][q] = x->cajsr; var[MS_NCA][q] = x->nca;
    var[MS_CAMKT][q] = x->camkt;
    ryr[q] = (uint32_t)x->ryr[0] | (uint32_t)x->ryr[1] << 8 | (uint32_t)x->ryr[2] << 16 | (uint32_t)x->ryr[3] << 24;
}

CARDIAC_HD void R(dyad_store)(const struct R(dyad) *x, real *const *var, uint32_t *ryr, size_t q)
{
    real *const diffused[3] = {var[MS_CASS], var[MS_CACYT], var[MS_CANSR]};
    R(dyad_store_split)(x, var, ryr, q, diffused, q);
}
