/* cardiac.model: a cell model with parameter values; single-cell runs. */
#include <lauxlib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "args.h"
#include "bindings.h"
#include "stimulus.h"

model_inst *check_model(lua_State *L, int idx) { return luaL_checkudata(L, idx, MODEL_MT); }

static void set_param(lua_State *L, model_inst *m, const char *name, int vidx, const char *fn)
{
    const model_def *d = m->def;
    int p = model_param_index(d, name);
    if (p < 0)
        cardiac_error(L, "%s: model '%s' has no parameter '%s' (parameters: %s)", fn, d->name, name,
                      args_join(L, &d->params[0].name, sizeof d->params[0], d->nparam));
    const param_info *pi = &d->params[p];
    char names[256];
    model_choice_list(d, p, names, sizeof names);
    double v = 0;
    if (lua_type(L, vidx) == LUA_TSTRING && names[0]) {
        const param_choice *c = model_find_choice(d, p, lua_tostring(L, vidx));
        if (!c) cardiac_error(L, "%s: parameter '%s' = \"%s\" is not one of %s", fn, name, lua_tostring(L, vidx), names);
        v = c->value;
    } else if (lua_type(L, vidx) != LUA_TNUMBER) {
        cardiac_error(L, "%s: parameter '%s' must be a number%s%s, got %s", fn, name, names[0] ? " or one of " : "",
                      names, args_typename(L, vidx));
    } else {
        v = lua_tonumber(L, vidx);
    }
    if (!isfinite(v))
        cardiac_error(L, "%s: parameter '%s' must be a finite number, got %s", fn, name, v != v ? "NaN" : "infinity");
    if (names[0] && !model_choice_name(d, p, v))
        cardiac_error(L, "%s: parameter '%s' = %g is not one of %s", fn, name, v, names);
    if (v < pi->min || v > pi->max) {
        if (pi->max < 1e30)
            cardiac_error(L, "%s: parameter '%s' = %g is out of range (must be in [%g, %g])", fn, name, v, pi->min, pi->max);
        cardiac_error(L, "%s: parameter '%s' = %g is out of range (must be >= %g)", fn, name, v, pi->min);
    }
    m->p[p] = v;
}

/* cell = "name": the model's named parameter set, applied before the other
 * parameters of the table (which then override it). */
static void apply_preset(lua_State *L, int idx, model_inst *m, const char *fn)
{
    const model_def *d = m->def;
    if (lua_getfield(L, idx, "cell") == LUA_TNIL) { lua_pop(L, 1); return; }
    if (lua_type(L, -1) != LUA_TSTRING)
        cardiac_error(L, "%s: 'cell' must be a string naming a cell type, got %s", fn, args_typename(L, -1));
    const char *name = lua_tostring(L, -1);
    if (d->npresets == 0) cardiac_error(L, "%s: model '%s' has no cell types ('cell' = \"%s\")", fn, d->name, name);
    const model_preset *p = model_find_preset(d, name);
    if (!p)
        cardiac_error(L, "%s: model '%s' has no cell type '%s' (cell types: %s)", fn, d->name, name,
                      args_join(L, &d->presets[0].name, sizeof d->presets[0], d->npresets));
    model_apply_preset(m, p);
    lua_pop(L, 1);
}

void apply_params(lua_State *L, int idx, model_inst *m, const char *fn)
{
    idx = lua_absindex(L, idx);
    apply_preset(L, idx, m, fn);
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        if (lua_type(L, -2) != LUA_TSTRING) cardiac_error(L, "%s: parameters must be given as name = value", fn);
        if (strcmp(lua_tostring(L, -2), "cell") != 0) set_param(L, m, lua_tostring(L, -2), lua_gettop(L), fn);
        lua_pop(L, 1);
    }
}

static int model_new(lua_State *L)
{
    const char *fn = "cardiac.model";
    const char *name = luaL_checkstring(L, 1);
    const model_def *d = model_find(name);
    if (!d) {
        luaL_Buffer b;
        luaL_buffinit(L, &b);
        for (size_t i = 0; i < model_count(); i++) {
            if (i) luaL_addstring(&b, ", ");
            luaL_addstring(&b, model_at(i)->name);
        }
        luaL_pushresult(&b);
        return cardiac_error(L, "%s: unknown model '%s' (available: %s)", fn, name, lua_tostring(L, -1));
    }
    int has_params = !lua_isnoneornil(L, 2);
    if (has_params) args_table(L, 2, fn);
    lua_settop(L, 2);
    model_inst *m = lua_newuserdatauv(L, sizeof *m, 0);
    model_init(m, d);
    luaL_setmetatable(L, MODEL_MT);
    if (has_params) apply_params(L, 2, m, fn);
    return 1;
}

static int model_states(lua_State *L)
{
    const model_inst *m = check_model(L, 1);
    const model_def *d = m->def;
    lua_createtable(L, d->nstate, 0);
    for (int i = 0; i < d->nstate; i++) {
        lua_createtable(L, 0, 8);
        lua_pushstring(L, d->states[i].name); lua_setfield(L, -2, "name");
        lua_pushstring(L, d->states[i].units); lua_setfield(L, -2, "units");
        lua_pushstring(L, d->states[i].desc); lua_setfield(L, -2, "description");
        lua_pushnumber(L, m->rest[i]); lua_setfield(L, -2, "rest");
        /* stored in float by the GPU in precision "mixed" (its value is a float there) */
        lua_pushboolean(L, d->step_mix && (d->mixed_float >> i & 1)); lua_setfield(L, -2, "mixed_float");
        /* held in IEEE half in precision "fp32h" and "fp32g" */
        lua_pushboolean(L, d->half_gates >> i & 1); lua_setfield(L, -2, "half");
        /* held as a 16-bit fraction of [0, 1] in precision "fp32g" */
        lua_pushboolean(L, d->frac_gates >> i & 1); lua_setfield(L, -2, "fraction");
        /* stepped every m-th step only with multirate = m (core/engine/multirate.h) */
        lua_pushboolean(L, d->slow_states >> i & 1); lua_setfield(L, -2, "slow");
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

static int model_params(lua_State *L)
{
    model_inst *m = check_model(L, 1);
    const model_def *d = m->def;
    lua_createtable(L, d->nparam, 0);
    for (int i = 0; i < d->nparam; i++) {
        lua_createtable(L, 0, 5);
        lua_pushstring(L, d->params[i].name); lua_setfield(L, -2, "name");
        lua_pushnumber(L, m->p[i]); lua_setfield(L, -2, "value");
        lua_pushnumber(L, d->params[i].value); lua_setfield(L, -2, "default");
        lua_pushstring(L, d->params[i].units); lua_setfield(L, -2, "units");
        lua_pushstring(L, d->params[i].desc); lua_setfield(L, -2, "description");
        const char *choice = model_choice_name(d, i, m->p[i]);
        if (choice) { lua_pushstring(L, choice); lua_setfield(L, -2, "choice"); }
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

static int model_rest(lua_State *L)
{
    const model_inst *m = check_model(L, 1);
    const model_def *d = m->def;
    lua_createtable(L, 0, d->nstate);
    for (int i = 0; i < d->nstate; i++) {
        lua_pushnumber(L, m->rest[i]);
        lua_setfield(L, -2, d->states[i].name);
    }
    return 1;
}

static int model_get(lua_State *L)
{
    model_inst *m = check_model(L, 1);
    const char *name = luaL_checkstring(L, 2);
    int p = model_param_index(m->def, name);
    if (p < 0) return cardiac_error(L, "model:get: model '%s' has no parameter '%s'", m->def->name, name);
    lua_pushnumber(L, m->p[p]);
    return 1;
}

static int model_set(lua_State *L)
{
    model_inst *m = check_model(L, 1);
    if (lua_istable(L, 2)) apply_params(L, 2, m, "model:set");
    else set_param(L, m, luaL_checkstring(L, 2), 3, "model:set");
    lua_settop(L, 1);
    return 1;
}

/* model:trace{t =, dt =, stimulus = {amplitude, start, duration, period, count}, every =}:
 * a single cell without diffusion; returns {t = {...}, <state> = {...}}. */
static int model_trace(lua_State *L)
{
    static const char *const keys[] = {"t", "dt", "stimulus", "every", "state", "precision", NULL};
    static const char *const skeys[] = {"amplitude", "start", "duration", "period", "count", NULL};
    const char *fn = "model:trace";
    model_inst *m = check_model(L, 1);
    const model_def *d = m->def;
    if (d->multiscale)
        return cardiac_error(L, "%s: model %s steps its calcium release units in a simulation; trace one cell "
                             "with cardiac.simulation on a one-cell mesh and a probe", fn, d->name);
    args_table(L, 2, fn);
    args_known_keys(L, 2, fn, keys);
    double T = args_positive(L, 2, fn, "t", 0, 1);
    double dt = args_positive(L, 2, fn, "dt", 0.01, 0);
    long every = args_integer(L, 2, fn, "every", 1, 0, 1);
    stimulus st = {0};
    st.count = 0;
    if (args_field(L, 2, "stimulus")) {
        int s = lua_gettop(L);
        args_table(L, s, "model:trace stimulus");
        args_known_keys(L, s, "model:trace stimulus", skeys);
        st.amplitude = args_number(L, s, fn, "amplitude", 0, 1);
        st.start = args_number(L, s, fn, "start", 0, 0);
        st.duration = args_positive(L, s, fn, "duration", 0, 1);
        st.count = args_integer(L, s, fn, "count", 1, 0, 1);
        st.period = args_positive(L, s, fn, "period", st.count > 1 ? 0 : 1, st.count > 1);
        lua_pop(L, 1);
    }
    const int precision = args_model_precision(L, 2, fn, d);
    if (precision == PRECISION_FP32G && (d->frac_gates & d->slow_states))
        return cardiac_error(L, "%s: 'precision' \"fp32g\" holds model '%s's slow gates in 16 bits only under "
                             "multirate (a simulation's multirate = %d or more), and a single cell steps every state "
                             "every step; use \"fp32h\" or a simulation", fn, d->name, MODEL_FRAC_MIN_MULTIRATE);
    double y[MODEL_MAX_STATE];
    for (int v = 0; v < d->nstate; v++) y[v] = m->rest[v];
    if (args_field(L, 2, "state")) {
        int s = lua_gettop(L);
        args_table(L, s, fn);
        lua_pushnil(L);
        while (lua_next(L, s)) {
            int v = lua_type(L, -2) == LUA_TSTRING ? model_state_index(d, lua_tostring(L, -2)) : -1;
            if (v < 0) cardiac_error(L, "%s: 'state' names an unknown state variable", fn);
            y[v] = luaL_checknumber(L, -1);
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
    }
    long nsteps = (long)floor(T / dt + 0.5);
    if (nsteps / every > 50000000L) return cardiac_error(L, "%s: %ld samples is too many; raise 'every'", fn, nsteps / every);
    lua_createtable(L, 0, d->nstate + 1);
    int res = lua_gettop(L);
    lua_createtable(L, (int)(nsteps / every + 1), 0);
    lua_setfield(L, res, "t");
    for (int v = 0; v < d->nstate; v++) {
        lua_createtable(L, (int)(nsteps / every + 1), 0);
        lua_setfield(L, res, d->states[v].name);
    }
    lua_Integer row = 0;
    for (long n = 0; n <= nsteps; n++) {
        if (n % every == 0) {
            row++;
            lua_getfield(L, res, "t");
            lua_pushnumber(L, n * dt);
            lua_rawseti(L, -2, row);
            lua_pop(L, 1);
            for (int v = 0; v < d->nstate; v++) {
                lua_getfield(L, res, d->states[v].name);
                lua_pushnumber(L, y[v]);
                lua_rawseti(L, -2, row);
                lua_pop(L, 1);
            }
        }
        if (n == nsteps) break;
        double istim = st.count && stimulus_active(&st, n * dt, dt) ? st.amplitude : 0.0;
        model_step_cell(m, y, 0.0, istim, dt, precision);
    }
    return 1;
}

static int model_index(lua_State *L)
{
    model_inst *m = check_model(L, 1);
    const char *k = luaL_checkstring(L, 2);
    luaL_getmetafield(L, 1, "methods");
    if (lua_getfield(L, -1, k) != LUA_TNIL) return 1;
    if (!strcmp(k, "name")) lua_pushstring(L, m->def->name);
    else if (!strcmp(k, "title")) lua_pushstring(L, m->def->title);
    else if (!strcmp(k, "citation")) lua_pushstring(L, m->def->citation);
    else if (!strcmp(k, "nstate")) lua_pushinteger(L, m->def->nstate);
    else if (!strcmp(k, "vmin")) lua_pushnumber(L, m->def->vmin);
    else if (!strcmp(k, "vmax")) lua_pushnumber(L, m->def->vmax);
    else if (!strcmp(k, "activation")) lua_pushnumber(L, m->def->activation);
    else if (!strcmp(k, "potential")) lua_pushstring(L, m->def->states[m->def->vindex].name);
    else if (!strcmp(k, "cell")) m->preset ? (void)lua_pushstring(L, m->preset) : lua_pushnil(L);
    else if (!strcmp(k, "cells")) {
        lua_createtable(L, m->def->npresets, 0);
        for (int i = 0; i < m->def->npresets; i++) {
            lua_pushstring(L, m->def->presets[i].name);
            lua_rawseti(L, -2, i + 1);
        }
    } else lua_pushnil(L);
    return 1;
}

static int model_tostring(lua_State *L)
{
    model_inst *m = check_model(L, 1);
    lua_pushfstring(L, "cardiac.model '%s' (%s, %d state variables)", m->def->name, m->def->title, m->def->nstate);
    return 1;
}

static int models_list(lua_State *L)
{
    lua_createtable(L, (int)model_count(), 0);
    for (size_t i = 0; i < model_count(); i++) {
        lua_pushstring(L, model_at(i)->name);
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    return 1;
}

void open_model(lua_State *L)
{
    static const luaL_Reg methods[] = {
        {"states", model_states}, {"params", model_params}, {"rest", model_rest}, {"get", model_get},
        {"set", model_set}, {"trace", model_trace}, {NULL, NULL}};
    static const luaL_Reg meta[] = {{"__index", model_index}, {"__tostring", model_tostring}, {NULL, NULL}};
    new_class(L, MODEL_MT, methods, meta);
    lua_pushcfunction(L, model_new);
    lua_setfield(L, -2, "model");
    lua_pushcfunction(L, models_list);
    lua_setfield(L, -2, "models");
}
