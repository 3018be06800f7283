/* The built-in cell models as an X-macro: X(name, number of states, number of values its step reads (its
 * parameters, and slots derived from them: core/models/model.h, nslots), index of V, parameter list X-macro of
 * models/<name>_consts.h). The
 * registry (core/models/model.c) and the CUDA backend's kernel dispatch
 * (cuda/dispatch.cuh) are generated from this one list. */
#ifndef CARDIAC_MODELS_LIST_H
#define CARDIAC_MODELS_LIST_H
#include "karma_consts.h"
#include "aliev_panfilov_consts.h"
#include "mitchell_schaeffer_consts.h"
#include "bueno_orovio_consts.h"
#include "ohara_rudy_consts.h"
#include "tentusscher_2006_consts.h"
#include "fenton_karma_consts.h"
#include "gaur_rudy_consts.h"

#define CARDIAC_MODELS(X) \
    X(karma, KARMA_NSTATE, KARMA_NSLOT, KARMA_U, KARMA_PARAMS) \
    X(aliev_panfilov, AP_NSTATE, AP_NPARAM, AP_V, AP_PARAMS) \
    X(mitchell_schaeffer, MS_NSTATE, MS_NPARAM, MS_V, MS_PARAMS) \
    X(bueno_orovio, BO_NSTATE, BO_NPARAM, BO_U, BO_PARAMS) \
    X(ohara_rudy, ORD_NSTATE, ORD_NPARAM, ORD_V, ORD_PARAMS) \
    X(tentusscher_2006, TP_NSTATE, TP_NPARAM, TP_V, TP_PARAMS) \
    X(fenton_karma, FK_NSTATE, FK_NPARAM, FK_U, FK_PARAMS) \
    X(gaur_rudy, GR_NSTATE, GR_NPARAM, ORD_V, GR_PARAMS)

/* The models whose steps read slots derived from their parameters
 * (model_def.derive, <name>_derive in the model's header). */
#define CARDIAC_DERIVED_MODELS(X) X(karma)

#endif
