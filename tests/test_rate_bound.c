/* The reaction's rate bound of the detailed models (ORd, TP06), which the dt
 * limit uses (core/engine/stencil.h: dt <= 2 / (lambda_diff + bound)), against the
 * quantity it bounds: |d(dV/dt)/dV| with the other states held, measured by
 * central differences of the model's own step along paced beats.
 *
 * Each membrane current is linear in its conductance parameter, so at a given
 * state the slope is the sum of the currents' slopes, each proportional to
 * its parameter. The models' bound (core/models/<model>.c, rate_shares) is
 * twice the sum of the largest share of each current measured here, scaled
 * by the parameter's ratio to its default. This test prints those shares
 * (the source of the models' constants), checks that each constant covers
 * its share, and that the bound covers twice the measured total both at the
 * defaults and on the trajectories of changed parameters, ORd's INa variants
 * (ina_m_shift, ina_h_shift, ina_form) included. */
#include <string.h>
#include "check.h"
#include "model.h"

enum { MAXP = 32 };

/* dV/dt of state y with V replaced, from a step short enough that the gates
 * and concentrations do not move (the step's V update is forward Euler). */
static double dvdt(const model_inst *m, const double *y, double V, double istim)
{
    double z[MODEL_MAX_STATE];
    const double h = 1e-5;
    memcpy(z, y, sizeof z);
    z[m->def->vindex] = V;
    model_step_cell(m, z, 0.0, istim, h, PRECISION_FP64);
    return (z[m->def->vindex] - V) / h;
}

static double slope(const model_inst *m, const double *y, double istim)
{
    const double V = y[m->def->vindex], dv = 1e-3;
    return -(dvdt(m, y, V + dv, istim) - dvdt(m, y, V - dv, istim)) / (2 * dv);
}

typedef struct {
    const char *model;
    double stim, dur;            /* the paper's stimulus, mV/ms for ms */
} case_def;

/* One paced beat of a cell (preset, stimulus amplitude): the largest total
 * slope, and each current's largest share (param q alone of the listed). */
static double beat(const model_inst *m0, const int *qs, int nq, double stim, double dur, double *share)
{
    const double dt = 0.01, T = 600;
    model_inst m = *m0;
    double y[MODEL_MAX_STATE], total = 0;
    for (int v = 0; v < m.def->nstate; v++) y[v] = m.rest[v];
    for (long s = 0; s < (long)(T / dt + 0.5); s++) {
        const double t = s * dt, is = t < dur - 1e-9 ? stim : 0;
        const double g = slope(&m, y, is);
        if (g > total) total = g;
        /* the shares at every step of the upstroke, then every 10th */
        if (share && (t < 20 || s % 10 == 0))
            for (int i = 0; i < nq; i++) {
                model_inst mq = m;
                for (int j = 0; j < nq; j++)
                    if (j != i) mq.p[qs[j]] = 0;
                const double c = slope(&mq, y, is);
                if (c > share[i]) share[i] = c;
            }
        model_step_cell(&m, y, 0.0, is, dt, PRECISION_FP64);
    }
    return total;
}

static void check_model(const case_def *c)
{
    const model_def *d = model_find(c->model);
    int qs[MAXP], nq = 0;
    double share[MAXP] = {0}, total = 0;
    const rate_share *rs = d->rate_shares;
    for (int i = 0; i < d->nrate_shares; i++) qs[nq++] = rs[i].param;
    printf("%s: largest share of |d(dV/dt)/dV| per current (1/ms), over the cell types, at the paper's "
           "stimulus and 2.5 times it\n", d->name);
    for (int k = 0; k < d->npresets; k++)
        for (int a = 0; a < 2; a++) {
            model_inst m;
            model_init(&m, d);
            model_apply_preset(&m, &d->presets[k]);
            const double t = beat(&m, qs, nq, c->stim * (a ? 2.5 : 1), c->dur, share);
            printf("  %-5s stimulus x%.1f: total %.3f\n", d->presets[k].name, a ? 2.5 : 1.0, t);
            if (t > total) total = t;
        }
    for (int i = 0; i < nq; i++) {
        printf("  %-8s measured %.4f, constant %.4f\n", d->params[qs[i]].name, share[i], rs[i].rate);
        CHECK(rs[i].rate >= share[i], "%s: %s's constant %g below its measured share %g", d->name,
              d->params[qs[i]].name, rs[i].rate, share[i]);
        CHECK(rs[i].rate <= 1.25 * share[i] + 1e-3, "%s: %s's constant %g far above its measured share %g",
              d->name, d->params[qs[i]].name, rs[i].rate, share[i]);
    }
    model_inst m;
    model_init(&m, d);
    const double bound = model_rate_bound(&m);
    printf("  bound at the defaults %.3f /ms, largest total measured %.3f\n", bound, total);
    CHECK(bound >= 2 * total, "%s: bound %g below twice the measured %g", d->name, bound, total);
    /* changed parameters change the trajectory too: the bound still covers it */
    const struct { const char *name; double factor; } changes[] = {{"g_na", 3}, {"g_k1", 5}, {"g_na", 0.3}};
    for (size_t i = 0; i < sizeof changes / sizeof changes[0]; i++) {
        model_init(&m, d);
        const int q = model_param_index(d, changes[i].name);
        m.p[q] *= changes[i].factor;
        const double t = beat(&m, qs, nq, c->stim * 2.5, c->dur, NULL), b = model_rate_bound(&m);
        printf("  %s x%g: bound %.3f, measured %.3f\n", changes[i].name, changes[i].factor, b, t);
        CHECK(b >= t, "%s with %s x%g: bound %g below the measured %g", d->name, changes[i].name,
              changes[i].factor, b, t);
    }
    if (strcmp(d->name, "ohara_rudy")) return;
    /* ORd's INa variants (docs/models.md) and the ends of the shifts' range:
     * twice their measured slope stays under the bound, as at the defaults */
    const struct { const char *what; double ms, hs, form, gna; } variants[] = {
        {"the encoding's INa (ms 10, hs 5, g_na 202.5)", 10, 5, 0, 202.5}, {"ms 10", 10, 0, 0, 75},
        {"ToR-ORd's INa (g_na 11.7802)", 0, 0, 1, 11.7802}, {"ms 15, hs -15", 15, -15, 0, 75},
        {"ms 20, hs -20", 20, -20, 0, 75}, {"ms 20, g_na 20", 20, 0, 0, 20}, {"ms -20", -20, 0, 0, 75},
        {"hs 20", 0, 20, 0, 75},
    };
    const int qms = model_param_index(d, "ina_m_shift"), qhs = model_param_index(d, "ina_h_shift");
    const int qform = model_param_index(d, "ina_form"), qgna = model_param_index(d, "g_na");
    for (size_t i = 0; i < sizeof variants / sizeof variants[0]; i++) {
        double t = 0;
        for (int k = 0; k < d->npresets; k++)
            for (int a = 0; a < 2; a++) {
                model_init(&m, d);
                model_apply_preset(&m, &d->presets[k]);
                m.p[qms] = variants[i].ms;
                m.p[qhs] = variants[i].hs;
                m.p[qform] = variants[i].form;
                m.p[qgna] = variants[i].gna;
                const double tk = beat(&m, qs, nq, c->stim * (a ? 2.5 : 1), c->dur, NULL);
                if (tk > t) t = tk;
            }
        const double b = model_rate_bound(&m);
        printf("  %s: bound %.3f, measured %.3f\n", variants[i].what, b, t);
        CHECK(b >= 2 * t, "%s with %s: bound %g below twice the measured %g", d->name, variants[i].what, b, t);
    }
}

int main(void)
{
    /* the papers' stimuli: ORd -80 uA/uF for 0.5 ms, TP06 -52 pA/pF for 1 ms */
    const case_def cases[] = {{"ohara_rudy", 80, 0.5}, {"tentusscher_2006", 52, 1}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) check_model(&cases[i]);
    return check_summary();
}
