/* Registry of the built-in cell models. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "fraction16.h"
#include "half_round.h"
#include "model.h"

#define DECLARE(name, nstate, nparam, vindex, params) extern const model_def model_##name;
CARDIAC_MODELS(DECLARE)
#define ENTRY(name, nstate, nparam, vindex, params) &model_##name,
static const model_def *const registry[] = {CARDIAC_MODELS(ENTRY)};

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
    m->rest = d->rest;
}

const model_preset *model_find_preset(const model_def *d, const char *name)
{
    for (int i = 0; i < d->npresets; i++)
        if (strcmp(d->presets[i].name, name) == 0) return &d->presets[i];
    return NULL;
}

const param_choice *model_find_choice(const model_def *d, int param, const char *name)
{
    for (int i = 0; i < d->nchoices; i++)
        if (d->choices[i].param == param && strcmp(d->choices[i].name, name) == 0) return &d->choices[i];
    return NULL;
}

const char *model_choice_name(const model_def *d, int param, double value)
{
    for (int i = 0; i < d->nchoices; i++)
        if (d->choices[i].param == param && d->choices[i].value == value) return d->choices[i].name;
    return NULL;
}

const char *model_choice_list(const model_def *d, int param, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = 0;
    for (int i = 0; i < d->nchoices && used < len; i++) {
        if (d->choices[i].param != param) continue;
        used += (size_t)snprintf(buf + used, len - used, "%s\"%s\" (%g)", used ? ", " : "", d->choices[i].name,
                                 d->choices[i].value);
    }
    return buf;
}

void model_apply_preset(model_inst *m, const model_preset *p)
{
    model_init(m, m->def);
    for (int i = 0; i < p->nvalues; i++) m->p[p->values[i].param] = p->values[i].value;
    if (p->rest) m->rest = p->rest;
    m->preset = p->name;
}

int model_slots(const model_def *d) { return d->nslots > d->nparam ? d->nslots : d->nparam; }

void model_step_params(const model_def *d, const double *p, double *out)
{
    memcpy(out, p, (size_t)d->nparam * sizeof *out);
    if (d->derive) d->derive(out);
}

const char *model_precision_name(int precision)
{
    return precision == PRECISION_MIXED ? "mixed" : precision == PRECISION_FP64 ? "fp64"
         : precision == PRECISION_FP32H ? "fp32h" : precision == PRECISION_FP32G ? "fp32g" : "fp32";
}

void model_step_cell(const model_inst *m, double *y, double idiff, double istim, double dt, int precision)
{
    const model_def *d = m->def;
    double p[MODEL_MAX_PARAM];
    model_step_params(d, m->p, p);
    if (precision == PRECISION_MIXED) { d->step_mix(y, idiff, istim, dt, p); return; }
    if (precision == PRECISION_FP64) { d->step_f64(y, idiff, istim, dt, p); return; }
    float yf[MODEL_MAX_STATE], pf[MODEL_MAX_PARAM];
    for (int v = 0; v < d->nstate; v++) yf[v] = (float)y[v];
    for (int q = 0; q < model_slots(d); q++) pf[q] = (float)p[q];
    d->step_f32(yf, (float)idiff, (float)istim, (float)dt, pf);
    if (precision == PRECISION_FP32H || precision == PRECISION_FP32G) round_states_to_half(yf, d->nstate, d->half_gates);
    if (precision == PRECISION_FP32G) round_states_to_fraction(yf, d->nstate, d->frac_gates);
    for (int v = 0; v < d->nstate; v++) y[v] = yf[v];
}

double rate_shares_bound(const rate_share *s, int n, const param_info *params, const double *p)
{
    double r = 0;
    for (int i = 0; i < n; i++) r += s[i].rate * p[s[i].param] / params[s[i].param].value;
    return 2 * r;
}

double model_rate_bound(const model_inst *m)
{
    const model_def *d = m->def;
    if (d->rate_bound) return d->rate_bound(m->p);
    return d->rate_shares ? rate_shares_bound(d->rate_shares, d->nrate_shares, d->params, m->p) : d->max_rate;
}

double model_resolved_dx(const model_def *d, int order, double D)
{
    const double c = d->resolve_dx[order == 4];
    return c > 0 && D > 0 ? c * sqrt(D / 0.2) : 0;
}
