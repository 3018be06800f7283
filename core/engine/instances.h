/* The precision-generic code shared by the CPU and GPU backends (integrators,
 * the stencil's boundary rule, every cell model), instantiated for float
 * (names ending _f32) and double (_f64). See core/engine/qualifiers.h. Include this
 * after any system header: `real` and R() exist only while it instantiates.
 *
 * A third instance, _mix (precision "mixed"), computes in double except a
 * model's gate kinetics, which it writes with the type `greal`: their steady
 * states, time constants and Rush-Larsen steps are float there. Models that
 * use greal (ORd) register their _mix step; in the others it equals _f64 and
 * is not used. docs/models.md has the accuracy study. */
#ifndef CARDIAC_INSTANCES_H
#define CARDIAC_INSTANCES_H
#include "qualifiers.h"
#define CARDIAC_TEMPLATE "shared_code.h"
#include "instantiate.h"
#define real double
#define greal float
#define R(name) name##_mix
#include "shared_code.h"
#undef real
#undef greal
#undef R
#endif
