/* sim:ecg{...}: a pseudo-ECG sampled while the simulation runs (core/measure/ecg.h). */
#include <lauxlib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "args.h"
#include "bindings.h"
#include "output_paths.h"
#include "par.h"
#include "sim.h"

typedef struct { ecg_leads *l; } lecg;   /* uservalue 1: the owning simulation */

static ecg_leads *check_ecg(lua_State *L, int idx, sim **s)
{
    lecg *le = luaL_checkudata(L, idx, ECG_MT);
    lua_getiuservalue(L, idx, 1);
    *s = check_sim(L, -1);
    lua_pop(L, 1);
    return le->l;
}

/* sim:ecg{electrodes = {{x, y, z}, ...}, interval = ms | every = steps, name =} */
int lsim_ecg(lua_State *L)
{
    static const char *const keys[] = {"electrodes", "interval", "every", "name", NULL};
    const char *fn = "simulation:ecg";
    sim *s = check_sim(L, 1);
    args_table(L, 2, fn);
    args_known_keys(L, 2, fn, keys);
    double el[3 * ECG_MAX_ELECTRODES] = {0};
    int ne = 0;
    if (!args_field(L, 2, "electrodes") || !lua_istable(L, -1))
        cardiac_error(L, "%s: 'electrodes' must be a list of points {x, y, z} (mm)", fn);
    ne = (int)luaL_len(L, -1);
    if (ne < 1 || ne > ECG_MAX_ELECTRODES)
        cardiac_error(L, "%s: give 1 to %d electrodes, got %d", fn, ECG_MAX_ELECTRODES, ne);
    for (int e = 0; e < ne; e++) {
        lua_rawgeti(L, -1, e + 1);
        if (!lua_istable(L, -1)) cardiac_error(L, "%s: electrode %d must be a point {x, y, z} (mm)", fn, e + 1);
        for (int a = 0; a < 3; a++) {
            lua_rawgeti(L, -1, a + 1);
            int ok;
            el[3 * e + a] = lua_tonumberx(L, -1, &ok);
            if (!ok && !(lua_isnil(L, -1) && a >= sim_grid(s)->dim))
                cardiac_error(L, "%s: electrode %d needs %d coordinates (mm); z may be left out on a sheet", fn, e + 1,
                              sim_grid(s)->dim);
            if (ok && !isfinite(el[3 * e + a]))
                cardiac_error(L, "%s: electrode %d's coordinate %c must be a finite number of mm", fn, e + 1, "xyz"[a]);
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    long every = args_integer(L, 2, fn, "every", 0, 0, 1);
    if (args_field(L, 2, "interval")) {
        lua_pop(L, 1);
        if (every) cardiac_error(L, "%s: give either 'every' (steps) or 'interval' (ms), not both", fn);
        every = (long)floor(args_positive(L, 2, fn, "interval", 0, 1) / sim_dt(s) + 0.5);
        if (every < 1) every = 1;
    }
    if (!every) every = 1;
    char defname[32];
    snprintf(defname, sizeof defname, "ecg%zu", sim_necgs(s) + 1);
    const char *name = args_string(L, 2, fn, "name", defname, 0);
    char err[512];
    if (sim_sync(s, err, sizeof err) != 0) cardiac_error(L, "%s: %s", fn, err);
    ecg_leads *l = sim_add_ecg(s, name, el, ne, every);
    if (!l) cardiac_error(L, "%s: out of memory", fn);
    if (sim_failed(s)) cardiac_error(L, "%s: %s", fn, sim_error(s));
    lecg *le = lua_newuserdatauv(L, sizeof *le, 1);
    le->l = l;
    luaL_setmetatable(L, ECG_MT);
    lua_pushvalue(L, 1);
    lua_setiuservalue(L, -2, 1);
    return 1;
}

/* ecg:data() -> {t = {...}, {series of electrode 1}, {series of electrode 2}, ...} */
static int ecg_data(lua_State *L)
{
    sim *s;
    ecg_leads *l = check_ecg(L, 1, &s);
    lua_createtable(L, l->ne, 1);
    lua_createtable(L, (int)l->nsamples, 0);
    for (size_t q = 0; q < l->nsamples; q++) { lua_pushnumber(L, l->t[q]); lua_rawseti(L, -2, (lua_Integer)q + 1); }
    lua_setfield(L, -2, "t");
    for (int e = 0; e < l->ne; e++) {
        lua_createtable(L, (int)l->nsamples, 0);
        for (size_t q = 0; q < l->nsamples; q++) {
            lua_pushnumber(L, l->phi[q * l->ne + e]);
            lua_rawseti(L, -2, (lua_Integer)q + 1);
        }
        lua_rawseti(L, -2, e + 1);
    }
    return 1;
}

/* ecg:csv(file): columns t_ms, e1, e2, ... (rank 0 writes) */
static int ecg_csv(lua_State *L)
{
    sim *s;
    ecg_leads *l = check_ecg(L, 1, &s);
    const char *path = luaL_checkstring(L, 2);
    static const char *const keys[] = {"overwrite", NULL};
    if (lua_isnoneornil(L, 3)) { lua_settop(L, 2); lua_newtable(L); }
    args_table(L, 3, "ecg:csv");
    args_known_keys(L, 3, "ecg:csv", keys);
    args_writable(L, path, NULL, args_boolean(L, 3, "ecg:csv", "overwrite", 0), "CSV file", "ecg:csv");
    int ok = 1;
    if (par_rank() == 0) {
        FILE *f = fopen(path, "w");
        ok = f != NULL;
        if (f) {
            fprintf(f, "t_ms");
            for (int e = 0; e < l->ne; e++) fprintf(f, ",e%d", e + 1);
            fputc('\n', f);
            for (size_t q = 0; q < l->nsamples; q++) {
                fprintf(f, "%.6f", l->t[q]);
                for (int e = 0; e < l->ne; e++) fprintf(f, ",%.9g", l->phi[q * l->ne + e]);
                fputc('\n', f);
            }
            ok = fclose(f) == 0;
        }
    }
    par_bcast(&ok, sizeof ok);
    if (!ok) cardiac_error(L, "ecg:csv: cannot write '%s'", path);
    lua_pushstring(L, path);
    return 1;
}

static int ecg_index(lua_State *L)
{
    sim *s;
    ecg_leads *l = check_ecg(L, 1, &s);
    const char *k = luaL_checkstring(L, 2);
    luaL_getmetafield(L, 1, "methods");
    if (lua_getfield(L, -1, k) != LUA_TNIL) return 1;
    if (!strcmp(k, "name")) lua_pushstring(L, l->name);
    else if (!strcmp(k, "every")) lua_pushinteger(L, l->every);
    else if (!strcmp(k, "samples")) lua_pushinteger(L, (lua_Integer)l->nsamples);
    else if (!strcmp(k, "electrodes")) {
        lua_createtable(L, l->ne, 0);
        for (int e = 0; e < l->ne; e++) {
            lua_createtable(L, 3, 0);
            for (int a = 0; a < 3; a++) { lua_pushnumber(L, l->el[3 * e + a]); lua_rawseti(L, -2, a + 1); }
            lua_rawseti(L, -2, e + 1);
        }
    } else lua_pushnil(L);
    return 1;
}

void open_ecg(lua_State *L)
{
    static const luaL_Reg methods[] = {{"data", ecg_data}, {"csv", ecg_csv}, {NULL, NULL}};
    static const luaL_Reg meta[] = {{"__index", ecg_index}, {NULL, NULL}};
    new_class(L, ECG_MT, methods, meta);
}
