/* Helpers for a model's parameter list, written once per model as an X-macro
 *   #define NAME_PARAMS(X) X(ENUM, "name", "units", default, min, max, "description") ...
 * From it come the parameter enum (model_consts headers), the param_info table
 * of the registry (models/<name>.c) and the compile-time defaults that the CUDA
 * kernels fold into their code (cuda/device_common.cuh), so a default value is
 * written in one place. */
#ifndef CARDIAC_MODELS_PARAM_LIST_H
#define CARDIAC_MODELS_PARAM_LIST_H
#define CARDIAC_PARAM_ENUM(e, name, units, value, min, max, desc) e,
#define CARDIAC_PARAM_INFO(e, name, units, value, min, max, desc) {name, units, desc, value, min, max},
#define CARDIAC_VAR_INFO(name, units, desc) {name, units, desc},
#define CARDIAC_PARAM_VALUE(e, name, units, value, min, max, desc) value,
#endif
