/* Watches (core/io/watch.h). Each watch is its own feature object; a stopped
 * one stays attached (features are released only with the simulation) and
 * no longer asks for step boundaries. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "par.h"
#include "picture.h"
#include "sim.h"
#include "watch.h"

typedef struct {
    watch_config cfg;
    char *path;       /* owned copy of cfg.path */
    long from;        /* the step of the first picture */
    long last;        /* the step of the latest picture */
    int active;
} watch;

static const feature_ops watch_feature;

/* Writes path through a temporary file in the same folder and a rename, so a
 * viewer reloading the file never reads half a picture. Rank 0 writes; every
 * rank learns the outcome. */
static int write_picture(sim *s, watch *w, char *err, size_t errlen)
{
    const grid *g = &s->g;
    float *f = malloc(g->ncells * sizeof *f);
    if (!f) { snprintf(err, errlen, "out of memory for the picture of %s", w->path); return -1; }
    sim_get_field(s, w->cfg.var, f);
    int r = 0;
    if (par_rank() == 0) {
        const size_t off = (size_t)(w->cfg.z - 1) * g->n[0] * g->n[1];
        const size_t n = strlen(w->path) + 8;
        char *tmp = malloc(n);
        snprintf(tmp, n, "%s.part", w->path);
        r = picture_write_png(tmp, f + off, g->mask + off, g->n[0], g->dim == 1 ? 1 : g->n[1], (float)w->cfg.lo,
                              (float)w->cfg.hi, (int)w->cfg.scale, err, errlen);
        if (r == 0 && rename(tmp, w->path) != 0) {
            snprintf(err, errlen, "cannot replace %s", w->path);
            r = -1;
        }
        if (r != 0) remove(tmp);
        free(tmp);
    }
    free(f);
    par_bcast(&r, sizeof r);
    par_bcast(err, errlen);
    w->last = s->nstep;
    return r;
}

static long watch_steps_to(const sim *s, void *obj, long limit)
{
    const watch *w = obj;
    return w->active ? feature_steps_to_every(s->nstep, w->from, w->cfg.every, limit) : limit;
}

static void watch_at(sim *s, void *obj)
{
    watch *w = obj;
    char err[512] = "";
    if (w->active && feature_due_every(s->nstep, w->from, w->cfg.every, w->last) &&
        write_picture(s, w, err, sizeof err) != 0)
        sim_fail(s, "watch: %s", err);
}

static void watch_release(sim *s, void *obj)
{
    (void)s;
    watch *w = obj;
    free(w->path);
    free(w);
}

static const feature_ops watch_feature = {FEATURE_MEASUREMENT, watch_steps_to, watch_at, watch_release};

static watch *find(const sim *s, const char *path)
{
    for (size_t q = 0; q < s->nfeatures; q++)
        if (s->features[q].ops == &watch_feature && !strcmp(((watch *)s->features[q].obj)->path, path))
            return s->features[q].obj;
    return NULL;
}

int sim_watch(sim *s, const watch_config *cfg, char *err, size_t errlen)
{
    watch *w = find(s, cfg->path);
    int fresh = w == NULL;
    if (fresh) {
        w = calloc(1, sizeof *w);
        if (!w || !(w->path = strdup(cfg->path)) || sim_attach(s, &watch_feature, w) != 0) {
            if (w) free(w->path);
            free(w);
            snprintf(err, errlen, "out of memory for a watch");
            return -1;
        }
    }
    w->cfg = *cfg;
    w->cfg.path = w->path;
    w->from = s->nstep;
    w->active = 1;
    if (write_picture(s, w, err, errlen) != 0) {
        w->active = 0;   /* attached; released with the simulation */
        return -1;
    }
    return 0;
}

void sim_unwatch_all(sim *s)
{
    for (size_t q = 0; q < s->nfeatures; q++)
        if (s->features[q].ops == &watch_feature) ((watch *)s->features[q].obj)->active = 0;
}

int sim_watch_count(const sim *s)
{
    int n = 0;
    for (size_t q = 0; q < s->nfeatures; q++)
        if (s->features[q].ops == &watch_feature) n += ((watch *)s->features[q].obj)->active;
    return n;
}

int sim_watches(const sim *s, const char *path)
{
    const watch *w = find(s, path);
    return w && w->active;
}
