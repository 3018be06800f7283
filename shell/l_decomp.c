/* Lua side of the domain decomposition (core/parallel/decomp.h): the options
 * `decomp` and `balance` of cardiac.simulation, the table sim.decomp, and
 * mesh:decompose, which plans a split for any number of ranks without MPI
 * (how a heart would share 8 GPUs, from a laptop). */
#include <lauxlib.h>
#include <math.h>
#include <string.h>
#include "args.h"
#include "bindings.h"
#include "decomp.h"

/* Option 'decomp' = {px, py, pz} of the table at idx: ranks along each axis
 * (default 0s: slabs along the last axis); checked against the job later. */
void read_decomp(lua_State *L, int idx, const grid *g, int out[3], const char *fn)
{
    out[0] = out[1] = out[2] = 0;
    if (!args_field(L, idx, "decomp")) return;
    lua_pop(L, 1);
    double d[3] = {1, 1, 1};
    int n = args_vector(L, idx, fn, "decomp", d, 3, 1);
    if (n != g->dim) cardiac_error(L, "%s: 'decomp' must list %d numbers of ranks (one per axis of the mesh), got %d",
                                   fn, g->dim, n);
    for (int a = 0; a < n; a++) {
        if (d[a] < 1 || d[a] != floor(d[a]) || d[a] > 1 << 20)
            cardiac_error(L, "%s: 'decomp' must hold whole numbers of ranks >= 1, got %g", fn, d[a]);
        out[a] = (int)d[a];
    }
}

/* Option 'balance' of the table at idx: 1 for "tissue" (the default), 0 for "cells". */
int read_balance(lua_State *L, int idx, const char *fn)
{
    static const char *const ways[] = {"tissue", "cells", NULL};
    const char *b = args_string(L, idx, fn, "balance", ways[0], 0);
    if (strcmp(b, ways[0]) && strcmp(b, ways[1]))
        cardiac_error(L, "%s: 'balance' must be one of %s, got \"%s\"", fn, args_join(L, ways, sizeof ways[0], 2), b);
    return !strcmp(b, ways[0]);
}

/* {dims, cuts, balance, tissue, whole_on_rank0}: ranks per axis; each axis'
 * cuts (0-based cells: part c owns cells [cuts[c + 1], cuts[c + 2]) of Lua's
 * 1-based list); "tissue" or "cells"; the tissue cells of each rank's part,
 * in rank order (MPI_Cart_create's row-major order over z, y, x,
 * core/parallel/decomp.c); true when the grid is too small to split and rank 0 owns it. */
void push_decomp(lua_State *L, const decomp *dc, const grid *g)
{
    lua_createtable(L, 0, 5);
    lua_createtable(L, g->dim, 0);
    for (int a = 0; a < g->dim; a++) { lua_pushinteger(L, dc->dims[a]); lua_rawseti(L, -2, a + 1); }
    lua_setfield(L, -2, "dims");
    lua_createtable(L, g->dim, 0);
    for (int a = 0; a < g->dim; a++) {
        lua_createtable(L, dc->dims[a] + 1, 0);
        for (int c = 0; c <= dc->dims[a]; c++) { lua_pushinteger(L, dc->cut[a][c]); lua_rawseti(L, -2, c + 1); }
        lua_rawseti(L, -2, a + 1);
    }
    lua_setfield(L, -2, "cuts");
    lua_pushstring(L, dc->by_tissue ? "tissue" : "cells");
    lua_setfield(L, -2, "balance");
    lua_createtable(L, dc->nranks, 0);
    for (int r = 0; r < dc->nranks; r++) {
        const int c[3] = {r % dc->dims[0], r / dc->dims[0] % dc->dims[1], r / (dc->dims[0] * dc->dims[1])};
        lua_pushinteger(L, dc->whole_on_0 && r > 0 ? 0 : (lua_Integer)decomp_part_tissue(dc, g, c));
        lua_rawseti(L, -2, r + 1);
    }
    lua_setfield(L, -2, "tissue");
    lua_pushboolean(L, dc->whole_on_0);
    lua_setfield(L, -2, "whole_on_rank0");
}

/* mesh:decompose(ranks [, {decomp = {px, py, pz}, balance = "tissue" | "cells",
 * ghost = 1}]) -> the table sim.decomp would hold in a job of that many ranks
 * (ghost: the least thickness of a part, the stencil's reach; 2 for stencil
 * 4, K for layout "tplane"). */
int mesh_decompose(lua_State *L)
{
    static const char *const keys[] = {"decomp", "balance", "ghost", NULL};
    const char *fn = "mesh:decompose";
    grid *g = check_mesh(L, 1);
    const lua_Integer ranks = luaL_checkinteger(L, 2);
    if (ranks < 1 || ranks > 1 << 20) return cardiac_error(L, "%s: 'ranks' must be 1 to 2^20, got %lld", fn, (long long)ranks);
    int want[3] = {0, 0, 0}, by_tissue = 1, ghost = 1;
    if (!lua_isnoneornil(L, 3)) {
        args_table(L, 3, fn);
        args_known_keys(L, 3, fn, keys);
        read_decomp(L, 3, g, want, fn);
        by_tissue = read_balance(L, 3, fn);
        ghost = (int)args_integer(L, 3, fn, "ghost", 1, 0, 1);
    }
    decomp dc;
    char err[512];
    if (decomp_plan(&dc, g, (int)ranks, want, ghost, by_tissue, err, sizeof err) != 0)
        return cardiac_error(L, "%s: %s", fn, err);
    push_decomp(L, &dc, g);
    decomp_free(&dc);
    return 1;
}
