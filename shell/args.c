#include <lauxlib.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "args.h"
#include "nan_text.h"
#include "output_paths.h"
#include "par.h"
#include "model.h"

const char *args_typename(lua_State *L, int idx)
{
    if (luaL_getmetafield(L, idx, "__name") == LUA_TSTRING) {
        const char *n = lua_tostring(L, -1);
        lua_pop(L, 1);
        return n;  /* interned in the metatable, stays alive */
    }
    return luaL_typename(L, idx);
}

void args_table(lua_State *L, int idx, const char *fn)
{
    if (!lua_istable(L, idx))
        cardiac_error(L, "%s: expected a table of options as argument %d, got %s", fn, idx, args_typename(L, idx));
}

void args_known_keys(lua_State *L, int idx, const char *fn, const char *const keys[])
{
    idx = lua_absindex(L, idx);
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        lua_pop(L, 1);
        if (lua_type(L, -1) != LUA_TSTRING) {
            lua_pop(L, 1);
            cardiac_error(L, "%s: options must be named (key = value); found a positional value", fn);
        }
        const char *k = lua_tostring(L, -1);
        int ok = 0;
        for (int i = 0; keys[i]; i++) ok |= strcmp(keys[i], k) == 0;
        if (!ok) {
            int n = 0;
            while (keys[n]) n++;
            cardiac_error(L, "%s: unknown option '%s' (known: %s)", fn, k, args_join(L, keys, sizeof keys[0], n));
        }
    }
}

int args_field(lua_State *L, int idx, const char *key)
{
    if (lua_getfield(L, idx, key) == LUA_TNIL) {
        lua_pop(L, 1);
        return 0;
    }
    return 1;
}

double args_number(lua_State *L, int idx, const char *fn, const char *key, double def, int required)
{
    if (!args_field(L, idx, key)) {
        if (required) cardiac_error(L, "%s: missing required option '%s'", fn, key);
        return def;
    }
    if (lua_type(L, -1) != LUA_TNUMBER)
        cardiac_error(L, "%s: '%s' must be a number, got %s", fn, key, args_typename(L, -1));
    double v = lua_tonumber(L, -1);
    lua_pop(L, 1);
    if (!isfinite(v)) cardiac_error(L, "%s: '%s' must be a finite number, got %s", fn, key, v != v ? "NaN" : "infinity");
    return v;
}

double args_positive(lua_State *L, int idx, const char *fn, const char *key, double def, int required)
{
    double v = args_number(L, idx, fn, key, def, required);
    if (!(v > 0)) cardiac_error(L, "%s: '%s' must be positive, got %g", fn, key, v);
    return v;
}

long args_integer(lua_State *L, int idx, const char *fn, const char *key, long def, int required, long min)
{
    if (!args_field(L, idx, key)) {
        if (required) cardiac_error(L, "%s: missing required option '%s'", fn, key);
        return def;
    }
    if (!lua_isinteger(L, -1) && !(lua_type(L, -1) == LUA_TNUMBER && lua_tonumber(L, -1) == floor(lua_tonumber(L, -1))))
        cardiac_error(L, "%s: '%s' must be an integer, got %s", fn, key,
                   lua_type(L, -1) == LUA_TNUMBER ? lua_tostring(L, -1) : args_typename(L, -1));
    long v = (long)lua_tonumber(L, -1);
    lua_pop(L, 1);
    if (v < min) cardiac_error(L, "%s: '%s' must be at least %ld, got %ld", fn, key, min, v);
    return v;
}

int args_boolean(lua_State *L, int idx, const char *fn, const char *key, int def)
{
    if (!args_field(L, idx, key)) return def;
    if (!lua_isboolean(L, -1)) cardiac_error(L, "%s: '%s' must be true or false, got %s", fn, key, args_typename(L, -1));
    int v = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return v;
}

const char *args_string(lua_State *L, int idx, const char *fn, const char *key, const char *def, int required)
{
    if (!args_field(L, idx, key)) {
        if (required) cardiac_error(L, "%s: missing required option '%s'", fn, key);
        return def;
    }
    if (lua_type(L, -1) != LUA_TSTRING)
        cardiac_error(L, "%s: '%s' must be a string, got %s", fn, key, args_typename(L, -1));
    const char *s = lua_tostring(L, -1);
    lua_pop(L, 1);  /* the string stays referenced by the options table */
    return s;
}

int args_vector(lua_State *L, int idx, const char *fn, const char *key, double *out, int n, int required)
{
    if (!args_field(L, idx, key)) {
        if (required) cardiac_error(L, "%s: missing required option '%s'", fn, key);
        return 0;
    }
    if (lua_type(L, -1) == LUA_TNUMBER) {
        double v = lua_tonumber(L, -1);
        if (!isfinite(v)) cardiac_error(L, "%s: '%s' must be a finite number, got %s", fn, key, v != v ? "NaN" : "infinity");
        for (int i = 0; i < n; i++) out[i] = v;
        lua_pop(L, 1);
        return 1;
    }
    if (!lua_istable(L, -1))
        cardiac_error(L, "%s: '%s' must be a number or a list of up to %d numbers, got %s", fn, key, n, args_typename(L, -1));
    int len = (int)luaL_len(L, -1);
    if (len < 1 || len > n)
        cardiac_error(L, "%s: '%s' must list 1 to %d numbers, got %d", fn, key, n, len);
    for (int i = 1; i <= len; i++) {
        if (lua_rawgeti(L, -1, i) != LUA_TNUMBER)
            cardiac_error(L, "%s: '%s'[%d] must be a number, got %s", fn, key, i, args_typename(L, -1));
        out[i - 1] = lua_tonumber(L, -1);
        if (!isfinite(out[i - 1]))
            cardiac_error(L, "%s: '%s'[%d] must be a finite number, got %s", fn, key, i, out[i - 1] != out[i - 1] ? "NaN" : "infinity");
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    return len;
}

int cardiac_error(lua_State *L, const char *fmt, ...)
{
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    nan_text(buf);
    luaL_where(L, 1);
    lua_pushstring(L, buf);
    lua_concat(L, 2);
    return lua_error(L);
}

const char *args_join(lua_State *L, const char *const *first, size_t stride, int n)
{
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (int i = 0; i < n; i++) {
        if (i) luaL_addstring(&b, ", ");
        luaL_addstring(&b, *(const char *const *)((const char *)first + i * stride));
    }
    luaL_pushresult(&b);
    return lua_tostring(L, -1);
}

int args_precision(lua_State *L, int idx, const char *fn)
{
    const char *p = args_string(L, idx, fn, "precision", "fp32", 0);
    if (!strcmp(p, "fp32")) return PRECISION_FP32;
    if (!strcmp(p, "fp64")) return PRECISION_FP64;
    if (!strcmp(p, "mixed")) return PRECISION_MIXED;
    if (!strcmp(p, "fp32h")) return PRECISION_FP32H;
    if (!strcmp(p, "fp32g")) return PRECISION_FP32G;
    return cardiac_error(L, "%s: 'precision' must be \"fp32\", \"fp64\", \"mixed\", \"fp32h\" or \"fp32g\", got \"%s\"",
                         fn, p);
}

int args_model_precision(lua_State *L, int idx, const char *fn, const model_def *d)
{
    const int p = args_precision(L, idx, fn);
    if (p == PRECISION_MIXED && !d->step_mix)
        cardiac_error(L, "%s: 'precision' \"mixed\" (gate kinetics in fp32) is not available for model '%s'; "
                      "it has no mixed step (use \"fp64\" or \"fp32\")", fn, d->name);
    if (p == PRECISION_FP32H && !d->half_gates)
        cardiac_error(L, "%s: 'precision' \"fp32h\" (some gates in 16 bits) is not available for model '%s'; "
                      "none of its states was shown to hold in half precision (use \"fp32\")", fn, d->name);
    if (p == PRECISION_FP32G && !d->frac_gates)
        cardiac_error(L, "%s: 'precision' \"fp32g\" (every gate in 16 bits) is not available for model '%s'; "
                      "none of its states was shown to hold as a 16-bit fraction (use \"fp32\")", fn, d->name);
    return p;
}

void args_writable(lua_State *L, const char *path, const char *sidecar, int overwrite, const char *what,
                   const char *fn)
{
    char err[1024] = "";
    int rc = par_rank() == 0 ? output_path_ready(path, sidecar, overwrite, what, err, sizeof err) : 0;
    par_bcast(&rc, sizeof rc);
    if (rc) {
        par_bcast(err, sizeof err);
        cardiac_error(L, "%s: %s", fn, err);
    }
}
