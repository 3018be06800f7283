/* sim:activation{...}: activation, repolarisation and APD maps tracked on
 * the backend while the simulation runs (core/measure/activation.h), and the
 * conduction velocity fitted to them. */
#include <lauxlib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "args.h"
#include "bindings.h"
#include "maps_file.h"
#include "par.h"
#include "sim.h"

typedef struct { tracker *t; } ltracker;   /* uservalue 1: the owning simulation */

/* The tracker at idx and its simulation (raises when that was closed). */
static tracker *check_tracker(lua_State *L, int idx, sim **s)
{
    ltracker *lt = luaL_checkudata(L, idx, TRACKER_MT);
    lua_getiuservalue(L, idx, 1);
    *s = check_sim(L, -1);
    lua_pop(L, 1);
    return lt->t;
}

static int field_index(lua_State *L, int idx, const char *fn)
{
    const char *name = luaL_optstring(L, idx, "first");
    for (int f = 0; f < TRACK_NFIELDS; f++)
        if (!strcmp(name, track_field_names[f])) return f;
    return cardiac_error(L, "%s: no map '%s' (maps: %s)", fn, name,
                         args_join(L, track_field_names, sizeof track_field_names[0], TRACK_NFIELDS));
}

/* A malloc'd whole-grid copy of map f; raises (freeing it) when the backend fails. */
/* Fills m (whole grid) with map f; 0, or -1 with the backend's failure in s. */
static int map_fill(sim *s, tracker *t, int f, float *m)
{
    char err[512];
    if (sim_sync(s, err, sizeof err) == 0) sim_track_field(s, t, f, m);
    return sim_failed(s) ? -1 : 0;
}

static float *map_copy(lua_State *L, sim *s, tracker *t, int f, const char *fn)
{
    float *m = malloc(sim_grid(s)->ncells * sizeof *m);
    if (!m) cardiac_error(L, "%s: out of memory copying a map of %zu cells", fn, sim_grid(s)->ncells);
    if (map_fill(s, t, f, m) != 0) { free(m); cardiac_error(L, "%s: %s", fn, sim_error(s)); }
    return m;
}

/* sim:activation{threshold =, fraction =, var =, every = | interval =} */
int lsim_activation(lua_State *L)
{
    static const char *const keys[] = {"threshold", "fraction", "var", "every", "interval", NULL};
    const char *fn = "simulation:activation";
    sim *s = check_sim(L, 1);
    if (lua_isnoneornil(L, 2)) { lua_settop(L, 1); lua_newtable(L); }
    args_table(L, 2, fn);
    args_known_keys(L, 2, fn, keys);
    const model_def *d = sim_model(s)->def;
    int var = d->vindex;
    if (args_field(L, 2, "var")) {
        var = model_state_index(d, luaL_checkstring(L, -1));
        if (var < 0) cardiac_error(L, "%s: model '%s' has no state variable '%s'", fn, d->name, lua_tostring(L, -1));
        lua_pop(L, 1);
    }
    double thr = args_number(L, 2, fn, "threshold", d->activation, var != d->vindex);
    double frac = args_number(L, 2, fn, "fraction", 0.9, 0);
    if (!(frac > 0 && frac < 1)) cardiac_error(L, "%s: 'fraction' (of repolarisation, 0.9 for APD90) must be in (0, 1), got %g", fn, frac);
    long every = args_integer(L, 2, fn, "every", 1, 0, 1);
    if (args_field(L, 2, "interval")) {
        lua_pop(L, 1);
        every = (long)floor(args_positive(L, 2, fn, "interval", 0, 1) / sim_dt(s) + 0.5);
        if (every < 1) every = 1;
    }
    char err[512];
    if (sim_sync(s, err, sizeof err) != 0) cardiac_error(L, "%s: %s", fn, err);
    tracker *t = sim_add_tracker(s, var, (float)thr, (float)frac, every, err, sizeof err);
    if (!t) cardiac_error(L, "%s: %s", fn, err);
    ltracker *lt = lua_newuserdatauv(L, sizeof *lt, 1);
    lt->t = t;
    luaL_setmetatable(L, TRACKER_MT);
    lua_pushvalue(L, 1);
    lua_setiuservalue(L, -2, 1);
    return 1;
}

/* The grid a map method reads: the whole grid, or with a layer number at idx
 * (not nil) that layer of an ensemble (its cells from *off on). */
static grid layer_arg(lua_State *L, int idx, const grid *g, size_t *off, const char *fn)
{
    *off = 0;
    if (lua_isnoneornil(L, idx)) return *g;
    const lua_Integer k = luaL_checkinteger(L, idx);
    if (k < 1) cardiac_error(L, "%s: 'layer' must be 1 or more, got %d", fn, (int)k);
    const grid lg = layer_grid(L, g, (size_t)(k - 1), fn);
    *off = (size_t)(k - 1) * lg.ncells;
    return lg;
}

/* tracker:field([name [, layer]]) -> flat list of the map (x fastest), NaN where none */
static int tr_field(lua_State *L)
{
    const char *fn = "activation:field";
    sim *s;
    tracker *t = check_tracker(L, 1, &s);
    int f = field_index(L, 2, fn);
    size_t off;
    const grid lg = layer_arg(L, 3, sim_grid(s), &off, fn), *g = &lg;
    if (g->ncells > 50000000) cardiac_error(L, "%s: %zu cells is too many for a Lua table; use activation:write", fn, g->ncells);
    float *m = map_copy(L, s, t, f, fn);
    lua_createtable(L, (int)g->ncells, 0);
    for (size_t c = 0; c < g->ncells; c++) {
        lua_pushnumber(L, g->mask[c] ? m[off + c] : NAN);
        lua_rawseti(L, -2, (lua_Integer)c + 1);
    }
    free(m);
    return 1;
}

/* tracker:get(name, i, j[, k]) -> the map at one cell (1-based) */
static int tr_get(lua_State *L)
{
    const char *fn = "activation:get";
    sim *s;
    tracker *t = check_tracker(L, 1, &s);
    int f = field_index(L, 2, fn);
    size_t c = cell_from_args(L, 3, sim_grid(s), fn);
    float *m = map_copy(L, s, t, f, fn);
    lua_pushnumber(L, sim_grid(s)->mask[c] ? m[c] : NAN);
    free(m);
    return 1;
}

/* tracker:stats([name [, layer]]) -> min, max, mean, cells with a value
 * (tissue only; of one layer of an ensemble) */
static int tr_stats(lua_State *L)
{
    const char *fn = "activation:stats";
    sim *s;
    tracker *t = check_tracker(L, 1, &s);
    int f = field_index(L, 2, fn);
    size_t off;
    const grid lg = layer_arg(L, 3, sim_grid(s), &off, fn), *g = &lg;
    float *m = map_copy(L, s, t, f, fn);
    double lo = INFINITY, hi = -INFINITY, sum = 0;
    size_t n = 0;
    for (size_t c = 0; c < g->ncells; c++) {
        if (!g->mask[c] || !isfinite(m[off + c])) continue;
        lo = fmin(lo, m[off + c]);
        hi = fmax(hi, m[off + c]);
        sum += m[off + c];
        n++;
    }
    free(m);
    lua_pushnumber(L, n ? lo : NAN);
    lua_pushnumber(L, n ? hi : NAN);
    lua_pushnumber(L, n ? sum / n : NAN);
    lua_pushinteger(L, (lua_Integer)n);
    return 4;
}

/* tracker:cv{map = "first", region =} -> {speed, direction, rms, cells}:
 * the planar wave fitted to the activation times of the region's cells */
static int tr_cv(lua_State *L)
{
    static const char *const keys[] = {"map", "region", "layer", NULL};
    const char *fn = "activation:cv";
    sim *s;
    tracker *t = check_tracker(L, 1, &s);
    if (lua_isnoneornil(L, 2)) { lua_settop(L, 1); lua_newtable(L); }
    args_table(L, 2, fn);
    args_known_keys(L, 2, fn, keys);
    /* layer = k: the wave in one layer of an ensemble, on its member's mesh
     * (its region in the member's coordinates) */
    size_t off;
    lua_getfield(L, 2, "layer");
    const grid lg = layer_arg(L, lua_gettop(L), sim_grid(s), &off, fn), *g = &lg;
    lua_pop(L, 1);
    int f = TRACK_FIRST;
    if (args_field(L, 2, "map")) { f = field_index(L, -1, fn); lua_pop(L, 1); }
    if (f != TRACK_FIRST && f != TRACK_LAST && f != TRACK_REPOL)
        cardiac_error(L, "%s: 'map' must be a map of times (first, last or repol), got '%s'", fn, track_field_names[f]);
    unsigned char *sel = NULL;
    if (args_field(L, 2, "region")) {
        size_t *cells = NULL, n = resolve_region(L, -1, g, 1, &cells, fn);
        sel = lua_newuserdatauv(L, g->ncells, 0);   /* freed by Lua, also on errors */
        memset(sel, 0, g->ncells);
        for (size_t q = 0; q < n; q++) sel[cells[q]] = 1;
        free(cells);
        if (!n) cardiac_error(L, "%s: the region holds no tissue cells", fn);
    }
    float *m = map_copy(L, s, t, f, fn);
    double speed, dir[3], rms;
    size_t used = activation_plane_fit(g, m + off, sel, &speed, dir, &rms);
    free(m);
    if (!used) cardiac_error(L, "%s: too few activated cells (or all at one time) to fit a wave: run until the wave has "
                                "crossed the region", fn);
    lua_createtable(L, 0, 4);
    lua_pushnumber(L, speed);
    lua_setfield(L, -2, "speed");
    lua_createtable(L, g->dim, 0);
    for (int a = 0; a < g->dim; a++) { lua_pushnumber(L, dir[a]); lua_rawseti(L, -2, a + 1); }
    lua_setfield(L, -2, "direction");
    lua_pushnumber(L, rms);
    lua_setfield(L, -2, "rms");
    lua_pushinteger(L, (lua_Integer)used);
    lua_setfield(L, -2, "cells");
    return 1;
}

/* tracker:write(file, {overwrite =}): every map in one HDF5 file with XDMF */
static int tr_write(lua_State *L)
{
    const char *fn = "activation:write";
    sim *s;
    tracker *t = check_tracker(L, 1, &s);
    const char *path = luaL_checkstring(L, 2);
    if (lua_isnoneornil(L, 3)) { lua_settop(L, 2); lua_newtable(L); }
    args_table(L, 3, fn);
    static const char *const keys[] = {"overwrite", NULL};
    args_known_keys(L, 3, fn, keys);
    int overwrite = args_boolean(L, 3, fn, "overwrite", 0);
    map_field maps[TRACK_NFIELDS];
    float *data[TRACK_NFIELDS] = {0};
    for (int f = 0; f < TRACK_NFIELDS; f++) {
        data[f] = lua_newuserdatauv(L, sim_grid(s)->ncells * sizeof(float), 0);   /* freed by Lua, also on errors */
        if (map_fill(s, t, f, data[f]) != 0) cardiac_error(L, "%s: %s", fn, sim_error(s));
        maps[f] = (map_field){track_field_names[f], track_field_units[f], data[f]};
    }
    char about[256], err[512] = "";
    snprintf(about, sizeof about, "activation maps of %s (state '%s' crossing %g; APD at %g%% repolarisation)",
             sim_model(s)->def->name, sim_model(s)->def->states[t->var].name, t->threshold, 100.0 * t->fraction);
    int r = par_rank() == 0 ? maps_write(path, sim_grid(s), maps, TRACK_NFIELDS, about, overwrite, err, sizeof err) : 0;
    par_bcast(&r, sizeof r);
    par_bcast(err, sizeof err);
    if (r) cardiac_error(L, "%s: %s", fn, err);
    lua_pushstring(L, path);
    return 1;
}

/* tracker:png(file, {map =, min =, max =, z =, scale =, overwrite =});
 * cells without a value are grey */
static int tr_png(lua_State *L)
{
    static const char *const keys[] = {"map", "min", "max", "z", "scale", "overwrite", NULL};
    const char *fn = "activation:png";
    sim *s;
    tracker *t = check_tracker(L, 1, &s);
    const grid *g = sim_grid(s);
    const char *path = luaL_checkstring(L, 2);
    if (lua_isnoneornil(L, 3)) { lua_settop(L, 2); lua_newtable(L); }
    args_table(L, 3, fn);
    args_known_keys(L, 3, fn, keys);
    int f = TRACK_FIRST;
    if (args_field(L, 3, "map")) { f = field_index(L, -1, fn); lua_pop(L, 1); }
    long z, scale;
    png_slice_options(L, 3, g, path, fn, &z, &scale);
    const double lo_opt = args_number(L, 3, fn, "min", NAN, 0), hi_opt = args_number(L, 3, fn, "max", NAN, 0);
    const size_t plane = (size_t)g->n[0] * g->n[1], off = (size_t)(z - 1) * plane;
    unsigned char *mask = lua_newuserdatauv(L, plane, 0);
    float *m = map_copy(L, s, t, f, fn);
    double lo = INFINITY, hi = -INFINITY;
    for (size_t c = 0; c < plane; c++) {
        mask[c] = g->mask[off + c] && isfinite(m[off + c]);
        if (mask[c]) { lo = fmin(lo, m[off + c]); hi = fmax(hi, m[off + c]); }
    }
    if (!isfinite(lo)) { lo = 0; hi = 1; }
    if (hi == lo) hi = lo + 1;
    if (!isnan(lo_opt)) lo = lo_opt;   /* the map's range unless given */
    if (!isnan(hi_opt)) hi = hi_opt;
    png_slice_write(L, path, m, mask, g, z, lo, hi, scale, fn);
    return 1;
}

/* tracker:restart([layer]): forget everything, track again from now; with a
 * layer (an ensemble's member), start that layer again from its current
 * state, while the maps have not sampled since their start */
static int tr_restart(lua_State *L)
{
    sim *s;
    tracker *t = check_tracker(L, 1, &s);
    char err[512];
    const int layer = lua_isnoneornil(L, 2) ? 0 : (int)luaL_checkinteger(L, 2);
    if (sim_sync(s, err, sizeof err) != 0 ||
        (layer ? sim_restart_tracker_layer(s, t, layer - 1, err, sizeof err) : sim_restart_tracker(s, t, err, sizeof err)) != 0)
        cardiac_error(L, "activation:restart: %s", err);
    return 0;
}

static int tr_index(lua_State *L)
{
    sim *s;
    tracker *t = check_tracker(L, 1, &s);
    const char *k = luaL_checkstring(L, 2);
    luaL_getmetafield(L, 1, "methods");
    if (lua_getfield(L, -1, k) != LUA_TNIL) return 1;
    if (!strcmp(k, "threshold")) lua_pushnumber(L, t->threshold);
    else if (!strcmp(k, "fraction")) lua_pushnumber(L, t->fraction);
    else if (!strcmp(k, "every")) lua_pushinteger(L, t->every);
    else if (!strcmp(k, "origin")) lua_pushnumber(L, t->origin);
    else if (!strcmp(k, "var")) lua_pushstring(L, sim_model(s)->def->states[t->var].name);
    else if (!strcmp(k, "maps")) {
        lua_createtable(L, TRACK_NFIELDS, 0);
        for (int f = 0; f < TRACK_NFIELDS; f++) { lua_pushstring(L, track_field_names[f]); lua_rawseti(L, -2, f + 1); }
    } else lua_pushnil(L);
    return 1;
}

static int tr_tostring(lua_State *L)
{
    sim *s;
    tracker *t = check_tracker(L, 1, &s);
    lua_pushfstring(L, "cardiac.activation (%s crossing %f, since t = %f ms)", sim_model(s)->def->states[t->var].name,
                    (double)t->threshold, t->origin);
    return 1;
}

void open_activation(lua_State *L)
{
    static const luaL_Reg methods[] = {{"field", tr_field}, {"get", tr_get}, {"stats", tr_stats}, {"cv", tr_cv},
                                       {"write", tr_write}, {"png", tr_png}, {"restart", tr_restart}, {NULL, NULL}};
    static const luaL_Reg meta[] = {{"__index", tr_index}, {"__tostring", tr_tostring}, {NULL, NULL}};
    new_class(L, TRACKER_MT, methods, meta);
}
