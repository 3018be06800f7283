/* The GPU's data layouts (core/engine/layouts.h). */
#include <stdio.h>
#include <string.h>
#include "layouts.h"

#define D123 (1u << 1 | 1u << 2 | 1u << 3)
#define O24 (1u << 2 | 1u << 4)

const layout_def layout_table[LAYOUT_COUNT] = {
    [LAYOUT_NAIVE] = {"naive", "one thread per cell", 1, 0, D123, O24, 1, 1, 0, 1, 0, 1},
    [LAYOUT_WINDOW] = {"window", "the thesis' sliding window along z (section 4.2)", 1, MARCHING_MAX_STATES, D123, O24,
                       0, 0, 0, 0, 1},
    [LAYOUT_TOWER] = {"tower", "the thesis' towerDS (section 4.3)", 1, MARCHING_MAX_STATES, D123, O24, 0, 0, 0, 0, 1},
    [LAYOUT_TBLOCK] = {"tblock", "temporal blocking over tiles in shared memory", 4, MARCHING_MAX_STATES, D123, O24, 0,
                       0, 0, 1, 0},
    [LAYOUT_BLOCK] = {"block", "blockDS: only the blocks that hold tissue (thesis 4.4)", 1, 0, D123, O24, 1, 1, 1, 1, 0},
    [LAYOUT_TPLANE] = {"tplane", "temporal blocking over wide tiles, plane by plane", 3, MARCHING_MAX_STATES, 1u << 3,
                       1u << 2, 1, 0, 0, 1, 0, 1},
};

int layout_find(const char *name)
{
    for (int l = 0; l < LAYOUT_COUNT; l++)
        if (!strcmp(name, layout_table[l].name)) return l;
    return -1;
}

int layout_built(int id)
{
#ifdef CARDIAC_THESIS_LAYOUTS
    (void)id;
    return 1;
#else
    return !layout_table[id].thesis;
#endif
}

int layout_temporal(int id) { return layout_table[id].tsteps_max > 1; }

const char *layout_list(char *buf, size_t len, int temporal_only)
{
    int names[LAYOUT_COUNT], n = 0;
    for (int l = 0; l < LAYOUT_COUNT; l++)
        if (layout_built(l) && (!temporal_only || layout_temporal(l))) names[n++] = l;
    size_t at = 0;
    buf[0] = 0;
    for (int q = 0; q < n && at < len; q++)
        at += (size_t)snprintf(buf + at, len - at, "%s\"%s\"", q == 0 ? "" : q == n - 1 ? (n > 2 ? ", or " : " or ") : ", ",
                               layout_table[names[q]].name);
    return buf;
}
