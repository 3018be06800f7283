/* Time-integration rules shared by all cell models (CPU and GPU).
 * Forward Euler for the membrane potential and non-gating states; the
 * Rush-Larsen exponential update (Rush & Larsen 1978, thesis eq. 2.4) for
 * Hodgkin-Huxley gates dy/dt = (y_inf - y)/tau, exact for frozen y_inf, tau. */
#ifndef CARDIAC_INTEGRATORS_H
#define CARDIAC_INTEGRATORS_H
#include <math.h>
#include "qualifiers.h"

CARDIAC_HD float forward_euler(float y, float dydt, float dt) { return y + dt * dydt; }

CARDIAC_HD float rush_larsen(float y, float y_inf, float tau, float dt)
{
    return y_inf + (y - y_inf) * expf(-dt / tau);
}

#endif
