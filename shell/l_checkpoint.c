/* sim:checkpoint(file) and sim:restore(file): the whole state in HDF5, to
 * continue a run later (or branch several runs from one state) bit for bit
 * (core/io/checkpoint.h). */
#include <lauxlib.h>
#include "args.h"
#include "bindings.h"
#include "checkpoint.h"

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

/* sim:restore(file, {params = false, convert_dt = false}) -> the restored time, ms */
int lsim_restore(lua_State *L)
{
    static const char *const keys[] = {"params", "convert_dt", NULL};
    const char *fn = "simulation:restore";
    sim *s = check_sim(L, 1);
    const char *path = luaL_checkstring(L, 2);
    if (lua_isnoneornil(L, 3)) { lua_settop(L, 2); lua_newtable(L); }
    args_table(L, 3, fn);
    args_known_keys(L, 3, fn, keys);
    char err[512];
    if (checkpoint_load(s, path, args_boolean(L, 3, fn, "params", 0), args_boolean(L, 3, fn, "convert_dt", 0), err,
                        sizeof err) != 0)
        cardiac_error(L, "%s: %s", fn, err);
    lua_pushnumber(L, sim_time(s));
    return 1;
}
