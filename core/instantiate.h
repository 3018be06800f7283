/* Instantiates the precision template named by CARDIAC_TEMPLATE twice: with
 * real = float and names R(x) = x_f32, then real = double and R(x) = x_f64.
 * Usage: #define CARDIAC_TEMPLATE "file.h" then #include "instantiate.h".
 * Template files have no include guard; see core/qualifiers.h. */
#define real float
#define R(name) name##_f32
#include CARDIAC_TEMPLATE
#undef real
#undef R
#define real double
#define R(name) name##_f64
#include CARDIAC_TEMPLATE
#undef real
#undef R
#undef CARDIAC_TEMPLATE
