/* Steering a simulation while it runs (shell/steer.h): sim:start, sim:pause,
 * sim:wait, and sim:watch, the picture rewritten as the wave moves. */
#include <lauxlib.h>
#include <math.h>
#include "args.h"
#include "bindings.h"
#include "sim.h"
#include "steer.h"
#include "watch.h"

/* sim:start([ms]): runs ms more in the background; with no duration resumes
 * a paused run. Returns at once. */
int lsim_start(lua_State *L)
{
    const char *fn = "simulation:start";
    sim *s = check_sim(L, 1);
    if (lua_isnoneornil(L, 2)) {
        steer_start(L, 1, s, -1, fn);
        return 0;
    }
    double ms = luaL_checknumber(L, 2);
    if (!(ms >= 0) || !isfinite(ms))
        return cardiac_error(L, "%s: duration must be a non-negative, finite number of ms, got %s", fn,
                             ms != ms ? "NaN" : isinf(ms) ? "infinity" : lua_tostring(L, 2));
    if (steer_running(s))   /* before sim_steps_for, which carries the remainder */
        return cardiac_error(L, "%s: the simulation is already running (%ld steps left); sim:wait() or "
                             "sim:pause() first", fn, steer_left(s));
    steer_start(L, 1, s, sim_steps_for(s, ms), fn);
    return 0;
}

/* sim:pause() -> t: the started run stops at the current step boundary. */
int lsim_pause(lua_State *L)
{
    sim *s = check_sim(L, 1);
    steer_pause(s);
    lua_pushnumber(L, sim_time(s));
    return 1;
}

/* sim:wait() -> t: steps the started runs until this one ends. */
int lsim_wait(lua_State *L)
{
    sim *s = check_sim(L, 1);
    steer_wait(L, s, "simulation:wait");
    lua_pushnumber(L, sim_time(s));
    return 1;
}

/* sim:watch{file =, var = V, every = ms, z =, min =, max =, scale =, overwrite = false}
 * or sim:watch(false): stops every watch. */
int lsim_watch(lua_State *L)
{
    static const char *const keys[] = {"file", "var", "every", "z", "min", "max", "scale", "overwrite", NULL};
    const char *fn = "simulation:watch";
    sim *s = check_sim(L, 1);
    if (lua_isboolean(L, 2) && !lua_toboolean(L, 2)) {
        sim_unwatch_all(s);
        return 0;
    }
    args_table(L, 2, fn);
    args_known_keys(L, 2, fn, keys);
    watch_config cfg;
    cfg.path = args_string(L, 2, fn, "file", NULL, 1);
    cfg.var = sim_model(s)->def->vindex;
    if (args_field(L, 2, "var")) { cfg.var = sim_var_arg(L, s, lua_gettop(L), fn); lua_pop(L, 1); }
    const double every = args_number(L, 2, fn, "every", 0, 1);
    if (!(every > 0) || !isfinite(every))
        return cardiac_error(L, "%s: 'every' must be a positive number of ms, got %g", fn, every);
    cfg.every = (long)floor(every / sim_dt(s) + 0.5);
    if (cfg.every < 1) cfg.every = 1;
    const model_def *d = sim_model(s)->def;
    const int is_v = cfg.var == d->vindex;
    cfg.lo = args_number(L, 2, fn, "min", is_v ? d->vmin : 0, !is_v);
    cfg.hi = args_number(L, 2, fn, "max", is_v ? d->vmax : 1, !is_v);
    if (!(cfg.hi > cfg.lo)) return cardiac_error(L, "%s: 'max' (%g) must exceed 'min' (%g)", fn, cfg.hi, cfg.lo);
    /* the picture's options as sim:png reads them; a file this simulation
     * already watches is its own to rewrite */
    lua_createtable(L, 0, 3);
    lua_getfield(L, 2, "z");
    lua_setfield(L, -2, "z");
    lua_getfield(L, 2, "scale");
    lua_setfield(L, -2, "scale");
    lua_pushboolean(L, args_boolean(L, 2, fn, "overwrite", 0) || sim_watches(s, cfg.path));
    lua_setfield(L, -2, "overwrite");
    png_slice_options(L, lua_gettop(L), sim_grid(s), cfg.path, fn, &cfg.z, &cfg.scale);
    char err[512];
    if (sim_watch(s, &cfg, err, sizeof err) != 0) return cardiac_error(L, "%s: %s", fn, err);
    return 0;
}
