/* Structured 1D/2D/3D cell-centred grid with a tissue mask.
 * Cell (i,j,k) (0-based) has its centre at ((i+1/2)dx, (j+1/2)dy, (k+1/2)dz) mm;
 * x varies fastest in memory. Unused axes have n = 1. */
#ifndef CARDIAC_GRID_H
#define CARDIAC_GRID_H
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int dim;          /* 1, 2 or 3 */
    int n[3];         /* cells per axis */
    double h[3];      /* spacing per axis, mm */
    size_t ncells;
    uint8_t *mask;    /* 1 = tissue, 0 = no tissue; ncells bytes */
    float *phi;       /* phase field in (0, 1] on tissue (thesis eq. 4.1), or NULL */
    size_t ntissue;
} grid;

/* Returns 0, or -1 with errno-like reason in err when the grid cannot be allocated. */
int grid_init(grid *g, int dim, const int n[3], const double h[3], char *err, size_t errlen);
void grid_free(grid *g);
int grid_copy(grid *dst, const grid *src);
void grid_recount(grid *g);
/* Makes the grid a phase-field domain: phi (ncells values, copied, clamped to
 * [0, 1]) weights the diffusion (core/engine/stencil_point.h), and the tissue is
 * where phi > threshold. Returns 0, or -1 when out of memory. */
int grid_set_phase(grid *g, const double *phi, double threshold);

static inline size_t grid_index(const grid *g, int i, int j, int k)
{
    return ((size_t)k * g->n[1] + j) * g->n[0] + i;
}
static inline void grid_ijk(const grid *g, size_t c, int *i, int *j, int *k)
{
    *i = (int)(c % g->n[0]);
    *j = (int)((c / g->n[0]) % g->n[1]);
    *k = (int)(c / ((size_t)g->n[0] * g->n[1]));
}
static inline double grid_center(const grid *g, int axis, int i) { return (i + 0.5) * g->h[axis]; }

/* Cell containing physical point x (mm); -1 when outside the box. */
long grid_locate(const grid *g, const double x[3]);

/* Bytes of host memory available now (MemAvailable), 0 when unknown. */
size_t host_memory_available(void);
/* Formats a byte count as "1.5 GiB". */
void format_bytes(double bytes, char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif
