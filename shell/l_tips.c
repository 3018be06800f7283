/* sim:tips{...}: spiral-wave tips (2D) and scroll-wave filaments (3D) of the
 * current state, from the phase of two state variables (core/singularity.h). */
#include <lauxlib.h>
#include <math.h>
#include <stdlib.h>
#include "args.h"
#include "bindings.h"
#include "singularity.h"
#include "sim.h"

static int state_of(lua_State *L, const sim *s, const char *name, const char *fn)
{
    int v = model_state_index(s->m.def, name);
    if (v < 0) cardiac_error(L, "%s: model '%s' has no state variable '%s'", fn, s->m.def->name, name);
    return v;
}

/* Mean over the tissue: the default centre of the phase. */
static double tissue_mean(const grid *g, const float *f)
{
    double sum = 0;
    for (size_t c = 0; c < g->ncells; c++)
        if (g->mask[c]) sum += f[c];
    return g->ntissue ? sum / g->ntissue : 0;
}

/* sim:tips{vars = {V, second state}, centre = {tissue means}} -> list of
 * {x, y, charge} (2D) or {x, y, z, faces} filaments (3D) */
int sim_tips(lua_State *L)
{
    static const char *const keys[] = {"vars", "centre", NULL};
    const char *fn = "simulation:tips";
    sim *s = check_sim(L, 1);
    if (lua_isnoneornil(L, 2)) { lua_settop(L, 1); lua_newtable(L); }
    args_table(L, 2, fn);
    args_known_keys(L, 2, fn, keys);
    const model_def *d = s->m.def;
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
    const size_t n = s->g.ncells;
    float *a = lua_newuserdatauv(L, n * sizeof *a, 0), *b = lua_newuserdatauv(L, n * sizeof *b, 0);
    char err[512];
    if (sim_sync(s, err, sizeof err) != 0) cardiac_error(L, "%s: %s", fn, err);
    sim_get_field(s, va, a);
    sim_get_field(s, vb, b);
    if (s->failed) cardiac_error(L, "%s: %s", fn, s->error);
    if (!given) { c0[0] = tissue_mean(&s->g, a); c0[1] = tissue_mean(&s->g, b); }
    singularity *found;
    long m = singularities_find(&s->g, a, b, c0[0], c0[1], &found);
    if (m < 0) cardiac_error(L, "%s: out of memory", fn);
    lua_createtable(L, (int)m, 0);
    static const char *const axis[3] = {"x", "y", "z"};
    for (long q = 0; q < m; q++) {
        lua_createtable(L, 0, 4);
        for (int k = 0; k < s->g.dim; k++) { lua_pushnumber(L, found[q].x[k]); lua_setfield(L, -2, axis[k]); }
        if (s->g.dim == 2) { lua_pushinteger(L, found[q].charge); lua_setfield(L, -2, "charge"); }
        else { lua_pushinteger(L, (lua_Integer)found[q].faces); lua_setfield(L, -2, "faces"); }
        lua_rawseti(L, -2, q + 1);
    }
    free(found);
    return 1;
}
