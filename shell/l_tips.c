/* sim:tips{...}: spiral-wave tips (2D) and scroll-wave filaments (3D) of the
 * current state, from the phase of two state variables (core/measure/tips.h). */
#include <lauxlib.h>
#include <math.h>
#include <stdlib.h>
#include "args.h"
#include "bindings.h"
#include "tips.h"

static int state_of(lua_State *L, const sim *s, const char *name, const char *fn)
{
    int v = model_state_index(sim_model(s)->def, name);
    if (v < 0) cardiac_error(L, "%s: model '%s' has no state variable '%s'", fn, sim_model(s)->def->name, name);
    return v;
}

/* sim:tips{vars = {V, second state}, centre = {tissue means}} -> list of
 * {x, y, charge} (2D) or {x, y, z, faces} filaments (3D) */
int lsim_tips(lua_State *L)
{
    static const char *const keys[] = {"vars", "centre", "layers", NULL};
    const char *fn = "simulation:tips";
    sim *s = check_sim(L, 1);
    if (lua_isnoneornil(L, 2)) { lua_settop(L, 1); lua_newtable(L); }
    args_table(L, 2, fn);
    args_known_keys(L, 2, fn, keys);
    const model_def *d = sim_model(s)->def;
    if (d->nstate < 2 && !args_field(L, 2, "vars"))
        cardiac_error(L, "%s: model '%s' has one state variable; give 'vars' = {a, b}", fn, d->name);
    int va = d->vindex, vb = d->vindex == 0 ? 1 : 0;
    if (args_field(L, 2, "vars")) {
        if (!lua_istable(L, -1) || luaL_len(L, -1) != 2) cardiac_error(L, "%s: 'vars' must be a list of two state names", fn);
        lua_rawgeti(L, -1, 1);
        lua_rawgeti(L, -2, 2);
        va = state_of(L, s, luaL_checkstring(L, -2), fn);
        vb = state_of(L, s, luaL_checkstring(L, -1), fn);
        lua_pop(L, 3);
    }
    double c0[2] = {NAN, NAN};
    int given = args_vector(L, 2, fn, "centre", c0, 2, 0);
    if (given == 1) cardiac_error(L, "%s: 'centre' must be {a0, b0}, one value per variable", fn);
    /* layers = true: the tips of each z layer as a sheet of its own (an
     * ensemble's members), each with its layer */
    const int layers = args_boolean(L, 2, fn, "layers", 0);
    if (layers && sim_grid(s)->dim != 3)
        cardiac_error(L, "%s: 'layers' finds the tips of the z layers of a 3D mesh; this mesh is %dD", fn, sim_grid(s)->dim);
    if (layers && !given) cardiac_error(L, "%s: 'layers' needs 'centre' = {a0, b0}", fn);
    singularity *found;
    long m = layers ? sim_find_layer_tips(s, va, vb, c0, &found) : sim_find_tips(s, va, vb, given ? c0 : NULL, &found);
    if (m < 0) cardiac_error(L, "%s: %s", fn, sim_error(s));
    lua_createtable(L, (int)m, 0);
    static const char *const axis[3] = {"x", "y", "z"};
    for (long q = 0; q < m; q++) {
        lua_createtable(L, 0, 4);
        const int dim = layers ? 2 : sim_grid(s)->dim;
        for (int k = 0; k < dim; k++) { lua_pushnumber(L, found[q].x[k]); lua_setfield(L, -2, axis[k]); }
        if (layers) { lua_pushinteger(L, found[q].layer + 1); lua_setfield(L, -2, "layer"); }
        if (dim == 2) { lua_pushinteger(L, found[q].charge); lua_setfield(L, -2, "charge"); }
        else { lua_pushinteger(L, (lua_Integer)found[q].faces); lua_setfield(L, -2, "faces"); }
        lua_rawseti(L, -2, q + 1);
    }
    free(found);
    return 1;
}
