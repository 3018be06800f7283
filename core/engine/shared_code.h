/* Precision template (no include guard): everything both backends compute
 * with, in dependency order. Instantiated by core/engine/instances.h. */
#include "integrators.h"
#include "stencil_rule.h"
#include "models/all.h"
#include "dyads.h"
