#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "grid.h"

int grid_init(grid *g, int dim, const int n[3], const double h[3], char *err, size_t errlen)
{
    memset(g, 0, sizeof *g);
    g->dim = dim;
    g->ncells = 1;
    for (int a = 0; a < 3; a++) {
        g->n[a] = a < dim ? n[a] : 1;
        g->h[a] = a < dim ? h[a] : 1.0;
        g->ncells *= (size_t)g->n[a];
    }
    size_t avail = host_memory_available();
    if (avail && g->ncells > avail) {
        char need[32], have[32];
        format_bytes((double)g->ncells, need, sizeof need);
        format_bytes((double)avail, have, sizeof have);
        snprintf(err, errlen, "the mesh mask alone needs %s, only %s of memory is available", need, have);
        return -1;
    }
    g->mask = malloc(g->ncells);
    if (!g->mask) {
        char need[32];
        format_bytes((double)g->ncells, need, sizeof need);
        snprintf(err, errlen, "could not allocate %s for the mesh mask", need);
        return -1;
    }
    memset(g->mask, 1, g->ncells);
    g->ntissue = g->ncells;
    return 0;
}

void grid_free(grid *g)
{
    free(g->mask);
    free(g->phi);
    g->mask = NULL;
    g->phi = NULL;
}

int grid_copy(grid *dst, const grid *src)
{
    *dst = *src;
    dst->phi = NULL;
    dst->mask = malloc(src->ncells);
    if (!dst->mask) return -1;
    memcpy(dst->mask, src->mask, src->ncells);
    if (src->phi) {
        dst->phi = malloc(src->ncells * sizeof *src->phi);
        if (!dst->phi) { grid_free(dst); return -1; }
        memcpy(dst->phi, src->phi, src->ncells * sizeof *src->phi);
    }
    return 0;
}

int grid_set_phase(grid *g, const double *phi, double threshold)
{
    if (!g->phi && !(g->phi = malloc(g->ncells * sizeof *g->phi))) return -1;
    for (size_t c = 0; c < g->ncells; c++) {
        const double p = phi[c] > 1 ? 1 : (phi[c] > 0 ? phi[c] : 0);
        g->mask[c] = p > threshold;
        g->phi[c] = g->mask[c] ? (float)p : 0.0f;
    }
    grid_recount(g);
    return 0;
}

void grid_recount(grid *g)
{
    size_t n = 0;
    for (size_t c = 0; c < g->ncells; c++) n += g->mask[c] != 0;
    g->ntissue = n;
}

long grid_locate(const grid *g, const double x[3])
{
    int idx[3];
    for (int a = 0; a < 3; a++) {
        if (a >= g->dim) { idx[a] = 0; continue; }
        double f = x[a] / g->h[a];
        if (f < 0 || f >= g->n[a]) {
            /* accept the far face itself as the last cell */
            if (f == g->n[a]) f = g->n[a] - 1; else return -1;
        }
        idx[a] = (int)f;
    }
    return (long)grid_index(g, idx[0], idx[1], idx[2]);
}

size_t host_memory_available(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f) return 0;
    char line[256];
    size_t kb = 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %zu kB", &kb) == 1) break;
    fclose(f);
    return kb * 1024;
}

void format_bytes(double b, char *buf, size_t len)
{
    const char *unit[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    int u = 0;
    while (b >= 1024 && u < 5) { b /= 1024; u++; }
    snprintf(buf, len, u ? "%.1f %s" : "%.0f %s", b, unit[u]);
}
