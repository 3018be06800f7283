/* cardiac.gpu() and cardiac.copy_bandwidth(): what GPU the CUDA backend would
 * use, and the device's measured memory ceiling, for benchmarks. */
#include <lauxlib.h>
#include "args.h"
#include "bindings.h"
#include "gpu.h"
#include "layouts.h"

static void set_number(lua_State *L, const char *k, double v) { lua_pushnumber(L, v); lua_setfield(L, -2, k); }
static void set_string(lua_State *L, const char *k, const char *v) { lua_pushstring(L, v); lua_setfield(L, -2, k); }

/* cardiac.gpu() -> {name, memory, free, l2, sms, compute_capability, driver, runtime} or nil, reason */
static int gpu(lua_State *L)
{
    gpu_info g;
    char err[512];
    if (cuda_gpu_info(&g, err, sizeof err) != 0) {
        lua_pushnil(L);
        lua_pushstring(L, err);
        return 2;
    }
    lua_createtable(L, 0, 8);
    set_string(L, "name", g.name);
    set_number(L, "memory", g.memory_bytes);
    set_number(L, "free", g.free_bytes);
    set_number(L, "l2", g.l2_bytes);
    lua_pushinteger(L, g.sms);
    lua_setfield(L, -2, "sms");
    lua_pushfstring(L, "%d.%d", g.cc_major, g.cc_minor);
    lua_setfield(L, -2, "compute_capability");
    set_string(L, "driver", g.driver);
    set_string(L, "runtime", g.runtime);
    return 1;
}

/* cardiac.copy_bandwidth([bytes = 1 GiB, repeat = 20]) -> GB/s (read + write), median */
static int copy_bandwidth(lua_State *L)
{
    double bytes = luaL_optnumber(L, 1, 1073741824.0);
    lua_Integer reps = luaL_optinteger(L, 2, 20);
    if (bytes < 1024 || bytes > 1e12) return cardiac_error(L, "cardiac.copy_bandwidth: 'bytes' must be 1 KiB to 1 TB, got %g", bytes);
    if (reps < 1) return cardiac_error(L, "cardiac.copy_bandwidth: 'repeat' must be positive, got %d", (int)reps);
    char err[512];
    double gbs = cuda_copy_bandwidth((size_t)bytes, (int)reps, err, sizeof err);
    if (gbs < 0) return cardiac_error(L, "cardiac.copy_bandwidth: %s", err);
    lua_pushnumber(L, gbs);
    return 1;
}

static void set_boolean(lua_State *L, const char *k, int v) { lua_pushboolean(L, v); lua_setfield(L, -2, k); }

/* cardiac.layouts() -> the GPU layouts (core/engine/layouts.h), each
 * {name, summary, tsteps (steps per kernel at most), max_states (nil: any),
 * volumes_only, split, phase_field, blocks, thesis, built} */
static int layouts(lua_State *L)
{
    lua_createtable(L, LAYOUT_COUNT, 0);
    for (int l = 0; l < LAYOUT_COUNT; l++) {
        const layout_def *d = &layout_table[l];
        lua_createtable(L, 0, 10);
        set_string(L, "name", d->name);
        set_string(L, "summary", d->summary);
        set_number(L, "tsteps", d->tsteps_max);
        if (d->max_states) set_number(L, "max_states", d->max_states);
        set_boolean(L, "volumes_only", d->dims == 1u << 3);
        set_boolean(L, "split", d->split);
        set_boolean(L, "phase_field", d->phase_field);
        set_boolean(L, "blocks", d->blocks);
        set_boolean(L, "thesis", d->thesis);
        set_boolean(L, "built", layout_built(l));
        lua_rawseti(L, -2, l + 1);
    }
    return 1;
}

void open_gpu(lua_State *L)
{
    lua_pushcfunction(L, gpu);
    lua_setfield(L, -2, "gpu");
    lua_pushcfunction(L, copy_bandwidth);
    lua_setfield(L, -2, "copy_bandwidth");
    lua_pushcfunction(L, layouts);
    lua_setfield(L, -2, "layouts");
}
