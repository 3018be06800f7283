/* sim:checkpoint(file) and sim:restore(file): the whole state in HDF5, to
 * continue a run later (or branch several runs from one state) bit for bit
 * (core/io/checkpoint.h); sim:save() and sim:restore(snapshot): the same in
 * memory, for studies that restore one state for every trial. */
#include <lauxlib.h>
#include <stdio.h>
#include <string.h>
#include "args.h"
#include "bindings.h"
#include "checkpoint.h"

#define SNAPSHOT_MT "cardiac.snapshot"

typedef struct { checkpoint_mem *m; } lsnapshot;

static checkpoint_mem *check_snapshot(lua_State *L, int idx)
{
    lsnapshot *ls = luaL_checkudata(L, idx, SNAPSHOT_MT);
    if (!ls->m) cardiac_error(L, "snapshot: this snapshot was freed");
    return ls->m;
}

/* snap:free() (also __gc and __close): its memory goes back at once, not at the next collection */
static int snapshot_free(lua_State *L)
{
    lsnapshot *ls = luaL_checkudata(L, 1, SNAPSHOT_MT);
    checkpoint_mem_free(ls->m);
    ls->m = NULL;
    return 0;
}

/* snap.t (the time it holds, ms), snap.bytes (host memory on this rank) and the methods */
static int snapshot_index(lua_State *L)
{
    const char *key = luaL_checkstring(L, 2);
    if (strcmp(key, "free") == 0) { lua_pushcfunction(L, snapshot_free); return 1; }
    checkpoint_mem *m = check_snapshot(L, 1);
    if (strcmp(key, "t") == 0) lua_pushnumber(L, checkpoint_mem_time(m));
    else if (strcmp(key, "bytes") == 0) lua_pushinteger(L, (lua_Integer)checkpoint_mem_bytes(m));
    else lua_pushnil(L);
    return 1;
}

static int snapshot_tostring(lua_State *L)
{
    lsnapshot *ls = luaL_checkudata(L, 1, SNAPSHOT_MT);
    if (!ls->m) lua_pushstring(L, "snapshot (freed)");
    else
        lua_pushfstring(L, "snapshot at t = %f ms (%f MB)", checkpoint_mem_time(ls->m),
                        (double)checkpoint_mem_bytes(ls->m) / 1e6);
    return 1;
}

/* sim:save() -> snapshot: the state, time, parameters and release units in memory */
int lsim_save(lua_State *L)
{
    const char *fn = "simulation:save";
    sim *s = check_sim(L, 1);
    if (!lua_isnone(L, 2)) cardiac_error(L, "%s: takes no arguments (sim:checkpoint(file) writes a file)", fn);
    char err[512];
    lsnapshot *ls = lua_newuserdatauv(L, sizeof *ls, 0);
    ls->m = NULL;
    if (luaL_newmetatable(L, SNAPSHOT_MT)) {
        static const luaL_Reg meta[] = {{"__gc", snapshot_free}, {"__close", snapshot_free},
                                        {"__index", snapshot_index}, {"__tostring", snapshot_tostring}, {NULL, NULL}};
        luaL_setfuncs(L, meta, 0);
    }
    lua_setmetatable(L, -2);
    if (!(ls->m = checkpoint_mem_save(s, err, sizeof err))) cardiac_error(L, "%s: %s", fn, err);
    return 1;
}

/* sim:checkpoint(file, {overwrite =}) -> file */
int lsim_checkpoint(lua_State *L)
{
    static const char *const keys[] = {"overwrite", NULL};
    const char *fn = "simulation:checkpoint";
    sim *s = check_sim(L, 1);
    const char *path = luaL_checkstring(L, 2);
    if (lua_isnoneornil(L, 3)) { lua_settop(L, 2); lua_newtable(L); }
    args_table(L, 3, fn);
    args_known_keys(L, 3, fn, keys);
    char err[512];
    if (checkpoint_save(s, path, args_boolean(L, 3, fn, "overwrite", 0), err, sizeof err) != 0)
        cardiac_error(L, "%s: %s", fn, err);
    lua_pushstring(L, path);
    return 1;
}

/* sim:restore(file | snapshot, {params = false, convert_dt = false}) -> the restored time, ms */
int lsim_restore(lua_State *L)
{
    static const char *const keys[] = {"params", "convert_dt", NULL};
    const char *fn = "simulation:restore";
    sim *s = check_sim(L, 1);
    const int mem = lua_type(L, 2) == LUA_TUSERDATA;
    checkpoint_mem *m = mem ? check_snapshot(L, 2) : NULL;
    const char *path = mem ? NULL : luaL_checkstring(L, 2);
    if (lua_isnoneornil(L, 3)) { lua_settop(L, 2); lua_newtable(L); }
    args_table(L, 3, fn);
    args_known_keys(L, 3, fn, keys);
    const int params = args_boolean(L, 3, fn, "params", 0), convert_dt = args_boolean(L, 3, fn, "convert_dt", 0);
    if (mem && convert_dt)
        cardiac_error(L, "%s: 'convert_dt' is for checkpoint files; a snapshot restores at its own dt", fn);
    char err[512];
    if ((mem ? checkpoint_mem_load(s, m, params, err, sizeof err)
             : checkpoint_load(s, path, params, convert_dt, err, sizeof err)) != 0)
        cardiac_error(L, "%s: %s", fn, err);
    lua_pushnumber(L, sim_time(s));
    return 1;
}
