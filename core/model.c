/* Registry of the built-in cell models. */
#include <string.h>
#include "model.h"

extern const model_def model_karma;
extern const model_def model_aliev_panfilov;

static const model_def *const registry[] = {&model_karma, &model_aliev_panfilov};

size_t model_count(void) { return sizeof registry / sizeof registry[0]; }
const model_def *model_at(size_t i) { return i < model_count() ? registry[i] : NULL; }

const model_def *model_find(const char *name)
{
    for (size_t i = 0; i < model_count(); i++)
        if (strcmp(registry[i]->name, name) == 0) return registry[i];
    return NULL;
}

int model_param_index(const model_def *d, const char *name)
{
    for (int i = 0; i < d->nparam; i++)
        if (strcmp(d->params[i].name, name) == 0) return i;
    return -1;
}

int model_state_index(const model_def *d, const char *name)
{
    for (int i = 0; i < d->nstate; i++)
        if (strcmp(d->states[i].name, name) == 0) return i;
    return -1;
}

void model_init(model_inst *m, const model_def *d)
{
    memset(m, 0, sizeof *m);
    m->def = d;
    for (int i = 0; i < d->nparam; i++) m->p[i] = d->params[i].value;
}
