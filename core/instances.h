/* The precision-generic code shared by the CPU and GPU backends (integrators,
 * the stencil's boundary rule, every cell model), instantiated for float
 * (names ending _f32) and double (_f64). See core/qualifiers.h. Include this
 * after any system header: `real` and R() exist only while it instantiates. */
#ifndef CARDIAC_INSTANCES_H
#define CARDIAC_INSTANCES_H
#include "qualifiers.h"
#define CARDIAC_TEMPLATE "shared_code.h"
#include "instantiate.h"
#endif
