#include <math.h>
#include <stdlib.h>
#include "stimulus.h"

static int in_pulse(double t, double s, double dur, double tol)
{
    return t >= s - tol && t < s + dur - tol;
}

int stimulus_active(const stimulus *s, double t, double dt)
{
    double tol = 1e-6 * dt;
    if (s->ntimes) {
        for (size_t q = 0; q < s->ntimes; q++)
            if (in_pulse(t, s->times[q], s->duration, tol)) return 1;
        return 0;
    }
    if (t < s->start - tol) return 0;
    long k = s->period > 0 ? (long)floor((t - s->start + tol) / s->period) : 0;
    if (k >= s->count) k = s->count - 1;
    return k >= 0 && in_pulse(t, s->start + k * s->period, s->duration, tol);
}

double stimulus_end(const stimulus *s)
{
    if (s->ntimes) {
        double e = 0;
        for (size_t q = 0; q < s->ntimes; q++)
            if (s->times[q] + s->duration > e) e = s->times[q] + s->duration;
        return e;
    }
    return s->start + (s->count - 1) * s->period + s->duration;
}

void stimulus_free(stimulus *s)
{
    free(s->cells);
    free(s->times);
    s->cells = NULL;
    s->times = NULL;
}
