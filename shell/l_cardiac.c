/* The `cardiac` module: assembles the bindings and module-level functions. */
#include <H5public.h>
#include <lauxlib.h>
#include <stdlib.h>
#include <time.h>
#include "args.h"
#include "bindings.h"
#include "output_paths.h"
#include "output.h"
#include "par.h"
#include "shell.h"
#include "version.h"

static int h5read(lua_State *L)
{
    const char *path = luaL_checkstring(L, 1), *name = luaL_checkstring(L, 2);
    double *data;
    long dims[8];
    int rank;
    char err[512];
    long n = h5_read_dataset(path, name, &data, dims, &rank, err, sizeof err);
    if (n < 0) return cardiac_error(L, "cardiac.h5read: %s", err);
    lua_createtable(L, (int)n, 0);
    for (long q = 0; q < n; q++) { lua_pushnumber(L, data[q]); lua_rawseti(L, -2, q + 1); }
    free(data);
    lua_createtable(L, rank, 0);
    for (int r = 0; r < rank; r++) { lua_pushinteger(L, dims[r]); lua_rawseti(L, -2, r + 1); }
    return 2;
}

/* cardiac.clock() -> seconds of a monotonic wall clock, for timing runs
 * (os.clock counts CPU time, which a process waiting for the GPU does not use). */
static int wall_clock(lua_State *L)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    lua_pushnumber(L, ts.tv_sec + 1e-9 * ts.tv_nsec);
    return 1;
}

/* cardiac.writable(path, {overwrite = false, what = "file"}) -> path: the
 * rule of every writer (core/io/output_paths.h) for the Lua library's writers
 * (scripts/tables.lua): raises an error naming the path unless it may be
 * written, after creating its folder. */
static int writable(lua_State *L)
{
    static const char *const keys[] = {"overwrite", "what", NULL};
    const char *fn = "cardiac.writable";
    const char *path = luaL_checkstring(L, 1);
    if (lua_isnoneornil(L, 2)) { lua_settop(L, 1); lua_newtable(L); }
    args_table(L, 2, fn);
    args_known_keys(L, 2, fn, keys);
    const char *what = args_string(L, 2, fn, "what", "file", 0);
    args_writable(L, path, NULL, args_boolean(L, 2, fn, "overwrite", 0), what, fn);
    lua_settop(L, 1);
    return 1;
}

int luaopen_cardiac(lua_State *L)
{
    lua_newtable(L);
    open_mesh(L);
    open_model(L);
    open_region(L);
    open_stimulus(L);
    open_simulation(L);
    open_gpu(L);
    lua_pushcfunction(L, h5read);
    lua_setfield(L, -2, "h5read");
    lua_pushcfunction(L, wall_clock);
    lua_setfield(L, -2, "clock");
    lua_pushcfunction(L, writable);
    lua_setfield(L, -2, "writable");
    lua_pushfstring(L, "cardiac %s (%s, HDF5 %d.%d.%d)", CARDIAC_VERSION, LUA_RELEASE,
                    H5_VERS_MAJOR, H5_VERS_MINOR, H5_VERS_RELEASE);
    lua_setfield(L, -2, "version");
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "quiet");
    /* the job: this process's rank (0-based) and the number of ranks (1 without mpirun) */
    lua_pushinteger(L, par_rank());
    lua_setfield(L, -2, "rank");
    lua_pushinteger(L, par_size());
    lua_setfield(L, -2, "ranks");
    open_help(L);
    return 1;
}
