/* Watches: a picture of a state variable (a z-slice in 3D) rewritten every
 * so many steps while the simulation runs, so that an image viewer open on
 * the file shows the wave moving. A watch is a measurement of the step loop
 * (core/engine/feature.h); it needs no GPU half, since it reads the field
 * through the same gather as sim:png. */
#ifndef CARDIAC_WATCH_H
#define CARDIAC_WATCH_H
#include <stddef.h>

struct sim;

typedef struct {
    const char *path;   /* the PNG rewritten in place (through a temporary file and a rename) */
    int var;            /* state variable */
    long every;         /* steps between pictures, >= 1 */
    long z;             /* 1-based slice of a 3D grid */
    double lo, hi;      /* the colour bar's range */
    long scale;         /* pixels per cell */
} watch_config;

/* Starts watching cfg->path (or changes the watch already on that path) and
 * writes the first picture now. 0, or -1 with err (nothing attached). */
int sim_watch(struct sim *s, const watch_config *cfg, char *err, size_t errlen);

/* Stops every watch of s; their files stay with the last picture. */
void sim_unwatch_all(struct sim *s);

/* How many watches of s are active; whether one of them writes path. */
int sim_watch_count(const struct sim *s);
int sim_watches(const struct sim *s, const char *path);

#endif
