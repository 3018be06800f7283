/* Interventions on a running simulation: parameter changes, everywhere or in
 * a region (ischaemia-like zones, transmural cell types; core/interventions/param_sets.h),
 * and clamps of a state variable in a region (core/interventions/clamp.h). */
#include <lauxlib.h>
#include <stdlib.h>
#include <string.h>
#include "args.h"
#include "bindings.h"
#include "par.h"
#include "sim.h"

/* sim:set_param(name, value [, region]) or sim:set_param({name = value, cell = preset} [, region]).
 * Every set of parameters the changed cells use gets the change, so regions
 * may overlap: a cell in two changed regions has both changes. */
int lsim_set_param(lua_State *L)
{
    const char *fn = "simulation:set_param";
    sim *s = check_sim(L, 1);
    int reg;
    if (lua_istable(L, 2)) {
        reg = 3;
    } else {
        const char *name = luaL_checkstring(L, 2);
        luaL_checkany(L, 3);
        lua_createtable(L, 0, 1);
        lua_pushvalue(L, 3);
        lua_setfield(L, -2, name);
        lua_replace(L, 2);
        reg = 4;
    }
    lua_settop(L, reg);
    /* the new parameters of each current set (errors in names or values raise here, before any change) */
    const int nsets = sim_param_sets(s);
    param_vec *next = lua_newuserdatauv(L, (size_t)nsets * sizeof *next, 0);
    model_inst m0 = *sim_model(s);
    for (int S = 0; S < nsets; S++) {
        model_inst m = *sim_model(s);
        memcpy(m.p, sim_param_set(s, S), sizeof m.p);
        apply_params(L, 2, &m, fn);
        memcpy(next[S], m.p, sizeof next[S]);
        if (S == 0) m0 = m;
    }
    size_t *cells = NULL, n = 0;
    int everywhere = lua_isnoneornil(L, reg);
    if (!everywhere) {
        n = resolve_region(L, reg, sim_grid(s), 1, &cells, fn);
        if (n == 0) return cardiac_error(L, "%s: the region contains no tissue cells of this mesh", fn);
    }
    char err[512];
    int rc = sim_change_params(s, cells, n, next, err, sizeof err);
    free(cells);
    if (rc != 0) return cardiac_error(L, "%s: %s", fn, err);
    if (everywhere) {   /* a preset applied everywhere is the simulation's cell type */
        sim_adopt_cell_type(s, &m0);
    }
    return 0;
}

/* sim:param(name [, x, y, z]): the parameter's value, where the simulation's
 * own parameters apply or at the cell holding point (x, y, z) mm. */
int lsim_param(lua_State *L)
{
    const char *fn = "simulation:param";
    sim *s = check_sim(L, 1);
    const char *name = luaL_checkstring(L, 2);
    int p = model_param_index(sim_model(s)->def, name);
    if (p < 0) return cardiac_error(L, "%s: model '%s' has no parameter '%s'", fn, sim_model(s)->def->name, name);
    if (lua_isnoneornil(L, 3)) {
        lua_pushnumber(L, sim_model(s)->p[p]);
        return 1;
    }
    double x[3] = {0, 0, 0};
    for (int a = 0; a < sim_grid(s)->dim; a++) x[a] = luaL_checknumber(L, 3 + a);
    long c = grid_locate(sim_grid(s), x);
    if (c < 0) return cardiac_error(L, "%s: point (%f, %f, %f) mm is outside the mesh", fn, x[0], x[1], x[2]);
    double label = sim_param_label(s, (size_t)c);   /* -1 on ranks that do not store the cell */
    par_max_doubles(&label, 1);
    lua_pushnumber(L, sim_param_set(s, (int)label)[p]);
    return 1;
}

/* sim:param_sets(): how many distinct parameter sets the tissue uses. */
int lsim_param_sets(lua_State *L)
{
    lua_pushinteger(L, sim_param_sets(check_sim(L, 1)));
    return 1;
}

/* The region (option `region`, at stack index reg) and pulse timing of a
 * clamp into when; raises an error when the region has no tissue. */
static void clamp_region(lua_State *L, sim *s, int reg, const char *fn, stimulus *when)
{
    read_pulses(L, 2, fn, 0, when);
    size_t n = resolve_region(L, reg, sim_grid(s), 1, &when->cells, fn);
    if (n == 0) {
        stimulus_free(when);
        cardiac_error(L, "%s: the region contains no tissue cells of this mesh", fn);
    }
    when->ncells = n;
}

/* sim:clamp{region = R, var = "V", value = x, duration = ms, start = ms | times = {...}, period, count}:
 * holds var at value in the region's tissue during each pulse (without
 * duration: from start on, for good). Returns the number of cells clamped. */
int lsim_clamp(lua_State *L)
{
    static const char *const keys[] = {"region", "var", "value", "duration", "start", "period", "count", "times", NULL};
    const char *fn = "simulation:clamp";
    sim *s = check_sim(L, 1);
    args_table(L, 2, fn);
    args_known_keys(L, 2, fn, keys);
    if (!args_field(L, 2, "region")) return cardiac_error(L, "%s: missing required option 'region'", fn);
    int reg = lua_gettop(L);
    int var = sim_model(s)->def->vindex;
    if (args_field(L, 2, "var")) var = sim_var_arg(L, s, lua_gettop(L), fn);
    double value = args_number(L, 2, fn, "value", 0, 1);
    stimulus when = {0};
    clamp_region(L, s, reg, fn, &when);
    size_t n = when.ncells;
    sim_add_clamp(s, &when, var, value);
    lua_pushinteger(L, (lua_Integer)n);
    return 1;
}

/* sim:clamp_ryr{region = R, state = "open" | "closed", duration = ms, start = ms | times = {...},
 * period, count}: holds every RyR of the region's cells open (state O1, the
 * default) or closed (C1) during each pulse (without duration: from start
 * on), for models with calcium release units. Returns the number of cells. */
int lsim_clamp_ryr(lua_State *L)
{
    static const char *const keys[] = {"region", "state", "duration", "start", "period", "count", "times", NULL};
    static const char *const states[] = {"open", "closed", NULL};
    const char *fn = "simulation:clamp_ryr";
    sim *s = check_sim(L, 1);
    args_table(L, 2, fn);
    args_known_keys(L, 2, fn, keys);
    if (!sim_multiscale(s))
        return cardiac_error(L, "%s: model %s has no calcium release units (RyRs); use a multiscale model such as "
                             "gaur_rudy", fn, sim_model(s)->def->name);
    if (!args_field(L, 2, "region")) return cardiac_error(L, "%s: missing required option 'region'", fn);
    int reg = lua_gettop(L);
    int state = DYAD_RYR_OPEN;
    if (args_field(L, 2, "state")) {
        if (lua_type(L, -1) != LUA_TSTRING) return cardiac_error(L, "%s: 'state' must be \"open\" or \"closed\"", fn);
        int q = 0;
        while (states[q] && strcmp(states[q], lua_tostring(L, -1)) != 0) q++;
        if (!states[q])
            return cardiac_error(L, "%s: 'state' must be \"open\" or \"closed\", got \"%s\"", fn, lua_tostring(L, -1));
        state = q == 0 ? DYAD_RYR_OPEN : DYAD_RYR_CLOSED;
        lua_pop(L, 1);
    }
    stimulus when = {0};
    clamp_region(L, s, reg, fn, &when);
    size_t n = when.ncells;
    sim_add_ryr_clamp(s, &when, state);
    lua_pushinteger(L, (lua_Integer)n);
    return 1;
}
