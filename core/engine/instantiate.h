/* Instantiates the precision template named by CARDIAC_TEMPLATE twice: with
 * real = float and names R(x) = x_f32, then real = double and R(x) = x_f64.
 * `greal`, the type of a model's gate kinetics (core/engine/qualifiers.h), is `real`
 * in both; core/engine/instances.h adds the mixed instance where it is float.
 * Usage: #define CARDIAC_TEMPLATE "file.h" then #include "instantiate.h".
 * Template files have no include guard; see core/engine/qualifiers.h. */
#define real float
#define greal float
#define R(name) name##_f32
#include CARDIAC_TEMPLATE
#undef real
#undef greal
#undef R
#define real double
#define greal double
#define R(name) name##_f64
#include CARDIAC_TEMPLATE
#undef real
#undef greal
#undef R
#undef CARDIAC_TEMPLATE
