/* cardiac.stimulus: a region, an amplitude and pulse timing (train or list). */
#include <lauxlib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "args.h"
#include "bindings.h"

typedef struct {
    stimulus s;   /* timing and amplitude; cells are resolved per simulation */
} lstim;

static lstim *check_stim(lua_State *L, int idx) { return luaL_checkudata(L, idx, STIMULUS_MT); }

/* Pulse timing from the options at idx into s: `duration` (required, or
 * forever when not given and not duration_required) and either `times` or
 * `start`, `period`, `count`. */
void read_pulses(lua_State *L, int idx, const char *fn, int duration_required, stimulus *s)
{
    idx = lua_absindex(L, idx);
    s->duration = duration_required ? args_positive(L, idx, fn, "duration", 0, 1)
                                   : args_positive(L, idx, fn, "duration", HUGE_VAL, 0);
    int has_times = args_field(L, idx, "times");
    if (has_times) {
        lua_pop(L, 1);
        if (args_field(L, idx, "start") || args_field(L, idx, "period") || args_field(L, idx, "count"))
            cardiac_error(L, "%s: give either 'times' or 'start'/'period'/'count', not both", fn);
        lua_getfield(L, idx, "times");
        if (!lua_istable(L, -1)) cardiac_error(L, "%s: 'times' must be a list of pulse start times (ms)", fn);
        size_t n = (size_t)luaL_len(L, -1);
        if (n == 0) cardiac_error(L, "%s: 'times' is empty", fn);
        s->times = malloc(n * sizeof *s->times);
        s->ntimes = n;
        for (size_t q = 0; q < n; q++) {
            if (lua_rawgeti(L, -1, (lua_Integer)q + 1) != LUA_TNUMBER) {
                free(s->times);
                cardiac_error(L, "%s: 'times'[%d] must be a number", fn, (int)q + 1);
            }
            s->times[q] = lua_tonumber(L, -1);
            lua_pop(L, 1);
            if (!isfinite(s->times[q])) {
                free(s->times);
                cardiac_error(L, "%s: 'times'[%d] must be a finite number of ms", fn, (int)q + 1);
            }
            if (s->times[q] < 0 || (q && s->times[q] < s->times[q - 1] + s->duration)) {
                free(s->times);
                cardiac_error(L, "%s: 'times' must be increasing, non-negative and pulses must not overlap "
                              "(entry %d)", fn, (int)q + 1);
            }
        }
        lua_pop(L, 1);
    } else {
        s->start = args_number(L, idx, fn, "start", 0, 0);
        if (s->start < 0) cardiac_error(L, "%s: 'start' must be non-negative, got %g", fn, s->start);
        s->count = args_integer(L, idx, fn, "count", 1, 0, 1);
        s->period = s->count > 1 ? args_positive(L, idx, fn, "period", 0, 1) : args_number(L, idx, fn, "period", 0, 0);
        if (s->count > 1 && s->period < s->duration)
            cardiac_error(L, "%s: 'period' (%g ms) is shorter than 'duration' (%g ms)", fn, s->period, s->duration);
    }
}

static int stim_new(lua_State *L)
{
    static const char *const keys[] = {"region", "amplitude", "duration", "start", "period", "count", "times", NULL};
    const char *fn = "cardiac.stimulus";
    args_table(L, 1, fn);
    args_known_keys(L, 1, fn, keys);
    if (!args_field(L, 1, "region")) cardiac_error(L, "%s: missing required option 'region'", fn);
    if (!lua_isfunction(L, -1) && !luaL_testudata(L, -1, REGION_MT))
        cardiac_error(L, "%s: 'region' must be a region (cardiac.slab, box, sphere, cylinder, biventricle, cells, points, where) or a function, got %s",
                   fn, args_typename(L, -1));
    int reg = lua_gettop(L);
    stimulus s = {0};
    s.amplitude = args_number(L, 1, fn, "amplitude", 0, 1);
    read_pulses(L, 1, fn, 1, &s);
    lstim *st = lua_newuserdatauv(L, sizeof *st, 1);
    st->s = s;
    luaL_setmetatable(L, STIMULUS_MT);
    lua_pushvalue(L, reg);
    lua_setiuservalue(L, -2, 1);
    return 1;
}

static int stim_gc(lua_State *L)
{
    lstim *st = check_stim(L, 1);
    free(st->s.times);
    st->s.times = NULL;
    return 0;
}

void build_stimulus(lua_State *L, int idx, const grid *g, stimulus *out, const char *fn)
{
    idx = lua_absindex(L, idx);
    lstim *st = luaL_testudata(L, idx, STIMULUS_MT);
    if (!st) cardiac_error(L, "%s: expected a cardiac.stimulus, got %s", fn, args_typename(L, idx));
    lua_getiuservalue(L, idx, 1);
    size_t *cells;
    size_t n = resolve_region(L, -1, g, 1, &cells, fn);
    lua_pop(L, 1);
    if (n == 0) cardiac_error(L, "%s: the stimulus region contains no tissue cells of this mesh", fn);
    *out = st->s;
    out->cells = cells;
    out->ncells = n;
    if (st->s.ntimes) {
        out->times = malloc(st->s.ntimes * sizeof *out->times);
        memcpy(out->times, st->s.times, st->s.ntimes * sizeof *out->times);
    }
}

/* stim:layer(k) -> the same stimulus on layer k of a stacked mesh (an
 * ensemble's member k): its region becomes cardiac.layer(k, region) */
static int stim_layer(lua_State *L)
{
    lstim *st = check_stim(L, 1);
    luaL_checkinteger(L, 2);
    lua_getglobal(L, "cardiac");
    lua_getfield(L, -1, "layer");
    lua_pushvalue(L, 2);
    lua_getiuservalue(L, 1, 1);
    lua_call(L, 2, 1);
    const int reg = lua_gettop(L);
    lstim *cp = lua_newuserdatauv(L, sizeof *cp, 1);
    cp->s = st->s;
    cp->s.times = NULL;
    luaL_setmetatable(L, STIMULUS_MT);
    if (st->s.ntimes) {
        cp->s.times = malloc(st->s.ntimes * sizeof *cp->s.times);
        if (!cp->s.times) cardiac_error(L, "stimulus:layer: out of memory");
        memcpy(cp->s.times, st->s.times, st->s.ntimes * sizeof *cp->s.times);
    }
    lua_pushvalue(L, reg);
    lua_setiuservalue(L, -2, 1);
    return 1;
}

static int stim_pulses(lua_State *L)
{
    lstim *st = check_stim(L, 1);
    long n = st->s.ntimes ? (long)st->s.ntimes : st->s.count;
    lua_createtable(L, (int)n, 0);
    for (long q = 0; q < n; q++) {
        lua_pushnumber(L, st->s.ntimes ? st->s.times[q] : st->s.start + q * st->s.period);
        lua_rawseti(L, -2, q + 1);
    }
    return 1;
}

static int stim_active(lua_State *L)
{
    lstim *st = check_stim(L, 1);
    lua_pushboolean(L, stimulus_active(&st->s, luaL_checknumber(L, 2), luaL_optnumber(L, 3, 1e-3)));
    return 1;
}

static int stim_tostring(lua_State *L)
{
    lstim *st = check_stim(L, 1);
    long n = st->s.ntimes ? (long)st->s.ntimes : st->s.count;
    lua_pushfstring(L, "cardiac.stimulus (%d pulse(s) of %f ms, amplitude %f, ending at %f ms)",
                    (int)n, st->s.duration, st->s.amplitude, stimulus_end(&st->s));
    return 1;
}

void open_stimulus(lua_State *L)
{
    static const luaL_Reg methods[] = {{"pulses", stim_pulses}, {"active", stim_active}, {"layer", stim_layer},
                                       {NULL, NULL}};
    static const luaL_Reg meta[] = {{"__gc", stim_gc}, {"__tostring", stim_tostring}, {NULL, NULL}};
    new_class(L, STIMULUS_MT, methods, meta);
    lua_pushcfunction(L, stim_new);
    lua_setfield(L, -2, "stimulus");
}
