/* cardiac.mesh: structured grid with spacing in mm and a tissue mask. */
#include <lauxlib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "args.h"
#include "bindings.h"
#include "blocks.h"
#include "mesh_file.h"
#include "par.h"
#include "region.h"

grid *check_mesh(lua_State *L, int idx) { return luaL_checkudata(L, idx, MESH_MT); }

void new_class(lua_State *L, const char *name, const luaL_Reg *methods, const luaL_Reg *meta)
{
    luaL_newmetatable(L, name);
    luaL_setfuncs(L, meta, 0);
    lua_newtable(L);
    luaL_setfuncs(L, methods, 0);
    lua_pushvalue(L, -1);
    lua_setfield(L, -3, "methods");
    if (lua_getfield(L, -2, "__index") == LUA_TNIL) {
        lua_pop(L, 1);
        lua_setfield(L, -2, "__index");
    } else {
        lua_pop(L, 2);
    }
    lua_pop(L, 1);
}

/* Looks up a method for objects whose __index also serves fields. */
static int method(lua_State *L, int obj, const char *key)
{
    if (luaL_getmetafield(L, obj, "methods") == LUA_TNIL) return 0;
    if (lua_getfield(L, -1, key) == LUA_TNIL) { lua_pop(L, 2); return 0; }
    lua_remove(L, -2);
    return 1;
}

static void push_ints(lua_State *L, const int *v, int n)
{
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) { lua_pushinteger(L, v[i]); lua_rawseti(L, -2, i + 1); }
}

static void push_doubles(lua_State *L, const double *v, int n)
{
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) { lua_pushnumber(L, v[i]); lua_rawseti(L, -2, i + 1); }
}

/* Default tissue threshold of a phase field: the thesis' (Algorithm 10). */
#define PHASE_THRESHOLD 0.0005

/* cardiac.mesh{file = "heart.h5", dataset = "/mesh/mask", threshold = 0.5, dx = ...}:
 * the grid and its tissue from an HDF5 array (core/mesh/mesh_file.h); with
 * phase = true the array is a phase field that also weights the diffusion. */
static int mesh_from_file(lua_State *L, const char *fn)
{
    if (args_field(L, 1, "n") || args_field(L, 1, "size"))
        cardiac_error(L, "%s: give 'file' or the mesh's size ('n' or 'size'), not both", fn);
    const char *path = args_string(L, 1, fn, "file", NULL, 1);
    const char *name = args_string(L, 1, fn, "dataset", "/mesh/mask", 0);
    int phase = 0;
    if (args_field(L, 1, "phase")) {
        if (!lua_isboolean(L, -1))
            cardiac_error(L, "%s: with 'file', 'phase' must be true or false (the dataset is the phase field), got %s",
                          fn, args_typename(L, -1));
        phase = lua_toboolean(L, -1);
        lua_pop(L, 1);
    }
    double thr = args_number(L, 1, fn, "threshold", phase ? PHASE_THRESHOLD : 0.5, 0);
    double h[3] = {0};
    int nh = args_vector(L, 1, fn, "dx", h, 3, 1);
    for (int a = 0; a < nh; a++)
        if (!(h[a] > 0)) cardiac_error(L, "%s: 'dx' must be positive, got %g", fn, h[a]);
    if (nh == 1) h[1] = h[2] = h[0];
    grid *g = lua_newuserdatauv(L, sizeof(grid), 0);
    memset(g, 0, sizeof *g);
    luaL_setmetatable(L, MESH_MT);
    char err[512];
    if (grid_from_hdf5(g, path, name, h, thr, phase, err, sizeof err) != 0) cardiac_error(L, "%s: %s", fn, err);
    if (g->ntissue == 0) cardiac_error(L, "%s: no value of '%s' in '%s' exceeds the threshold %g", fn, name, path, thr);
    if (nh != 1 && nh != g->dim)
        cardiac_error(L, "%s: 'dx' lists %d spacings for the %dD mesh in '%s'", fn, nh, g->dim, path);
    return 1;
}

/* Option tissue = region: only the region's cells are tissue. */
static void apply_tissue(lua_State *L, grid *g, const char *fn)
{
    if (!args_field(L, 1, "tissue")) return;
    size_t *cells = NULL;
    size_t n = resolve_region(L, lua_gettop(L), g, 0, &cells, fn);
    lua_pop(L, 1);
    memset(g->mask, 0, g->ncells);
    for (size_t q = 0; q < n; q++) g->mask[cells[q]] = 1;
    free(cells);
    grid_recount(g);
}

/* Option phase = function(x, y, z) -> phi: a phase field evaluated at the
 * cell centres (mm); tissue where phi > threshold (default 0.0005). */
static void apply_phase(lua_State *L, grid *g, const char *fn)
{
    if (!args_field(L, 1, "phase")) {
        if (args_field(L, 1, "threshold")) cardiac_error(L, "%s: 'threshold' goes with 'file' or 'phase'", fn);
        return;
    }
    if (!lua_isfunction(L, -1))
        cardiac_error(L, "%s: 'phase' must be a function(x, y, z) returning the phase field, got %s", fn,
                      args_typename(L, -1));
    if (args_field(L, 1, "tissue")) cardiac_error(L, "%s: give 'tissue' or 'phase', not both", fn);
    const double thr = args_number(L, 1, fn, "threshold", PHASE_THRESHOLD, 0);
    const int f = lua_gettop(L);
    double *phi = malloc(g->ncells * sizeof *phi);
    if (!phi) cardiac_error(L, "%s: out of memory for the phase field", fn);
    for (size_t c = 0; c < g->ncells; c++) {
        int i, j, k;
        grid_ijk(g, c, &i, &j, &k);
        lua_pushvalue(L, f);
        lua_pushnumber(L, grid_center(g, 0, i));
        lua_pushnumber(L, grid_center(g, 1, j));
        lua_pushnumber(L, grid_center(g, 2, k));
        if (lua_pcall(L, 3, 1, 0) != LUA_OK) { free(phi); lua_error(L); }
        int ok;
        phi[c] = lua_tonumberx(L, -1, &ok);
        lua_pop(L, 1);
        if (!ok || !(phi[c] == phi[c])) {
            free(phi);
            cardiac_error(L, "%s: 'phase' returned %s at cell (%d, %d, %d); it must return a number", fn,
                          ok ? "NaN" : "a non-number", i + 1, j + 1, k + 1);
        }
    }
    const int bad = grid_set_phase(g, phi, thr);
    free(phi);
    lua_pop(L, 1);
    if (bad) cardiac_error(L, "%s: out of memory for the phase field", fn);
    if (g->ntissue == 0) cardiac_error(L, "%s: the phase field nowhere exceeds the threshold %g", fn, thr);
}

/* The domain is a whole number of cells: a size between two counts becomes
 * the nearer one, and says so (it changed silently; a sweep over dx keeps
 * working). Once per size, spacing and count, on rank 0. */
static void warn_size(int axis, double size, double h, double n, const char *fn)
{
    static char last[128];
    char key[128];
    snprintf(key, sizeof key, "%d %g %g", axis, size, h);
    if (par_rank() != 0 || !strcmp(key, last)) return;
    snprintf(last, sizeof last, "%s", key);
    fprintf(stderr, "%s: warning: 'size'[%d] = %g mm is not a whole number of cells of dx = %g mm (%.4g cells): "
            "the mesh has %.0f cells, %g mm, along %c\n", fn, axis + 1, size, h, size / h, n, n * h, "xyz"[axis]);
}

static int mesh_new(lua_State *L)
{
    static const char *const keys[] = {"n", "dx", "size", "tissue", "file", "dataset", "threshold", "phase", NULL};
    const char *fn = "cardiac.mesh";
    args_table(L, 1, fn);
    args_known_keys(L, 1, fn, keys);
    if (args_field(L, 1, "file")) {
        lua_pop(L, 1);
        return mesh_from_file(L, fn);
    }
    if (args_field(L, 1, "dataset")) cardiac_error(L, "%s: 'dataset' goes with 'file'", fn);
    double nd[3] = {0}, h[3] = {0}, size[3] = {0};
    int dim_n = args_vector(L, 1, fn, "n", nd, 3, 0);
    int dim_s = args_vector(L, 1, fn, "size", size, 3, 0);
    if (dim_n && dim_s) cardiac_error(L, "%s: give either 'n' (cells per axis) or 'size' (mm per axis), not both", fn);
    if (!dim_n && !dim_s) cardiac_error(L, "%s: missing required option 'n' (cells per axis, e.g. n = {200, 200})", fn);
    int dim = dim_n ? dim_n : dim_s;
    int nh = args_vector(L, 1, fn, "dx", h, 3, 1);
    if (nh != 1 && nh != dim) cardiac_error(L, "%s: 'dx' lists %d spacings for a %dD mesh", fn, nh, dim);
    if (nh == 1) h[1] = h[2] = h[0];
    int n[3] = {1, 1, 1};
    for (int a = 0; a < dim; a++) {
        if (!(h[a] > 0)) cardiac_error(L, "%s: 'dx' must be positive, got %g", fn, h[a]);
        if (dim_s) {
            if (!(size[a] > 0)) cardiac_error(L, "%s: 'size'[%d] must be positive, got %g", fn, a + 1, size[a]);
            nd[a] = floor(size[a] / h[a] + 0.5);
            if (nd[a] >= 1 && fabs(size[a] / h[a] - nd[a]) > 1e-6 * fmax(1.0, nd[a]))
                warn_size(a, size[a], h[a], nd[a], fn);
        }
        if (nd[a] != floor(nd[a]) || nd[a] < 1)
            cardiac_error(L, "%s: 'n'[%d] must be a positive integer, got %g", fn, a + 1, nd[a]);
        if (nd[a] > 1e9) cardiac_error(L, "%s: 'n'[%d] = %g cells is too large", fn, a + 1, nd[a]);
        n[a] = (int)nd[a];
    }
    grid *g = lua_newuserdatauv(L, sizeof(grid), 0);
    memset(g, 0, sizeof *g);
    luaL_setmetatable(L, MESH_MT);
    char err[256];
    if (grid_init(g, dim, n, h, err, sizeof err) != 0) cardiac_error(L, "%s: %s", fn, err);
    apply_tissue(L, g, fn);
    apply_phase(L, g, fn);
    return 1;
}

static int mesh_gc(lua_State *L)
{
    grid_free(check_mesh(L, 1));
    return 0;
}

/* mesh:stack(m) -> a mesh of one dimension more whose m layers along its new
 * last axis are copies of this one (mask and phase field): the grid of an
 * ensemble of m members (core/engine/members.h, scripts/ensemble.lua). */
static int mesh_stack(lua_State *L)
{
    const char *fn = "mesh:stack";
    const grid *g = check_mesh(L, 1);
    const lua_Integer m = luaL_checkinteger(L, 2);
    if (g->dim == 3) cardiac_error(L, "%s: a 3D mesh has no axis left to stack along (ensembles stack 1D and 2D meshes)", fn);
    if (m < 1 || m > 1 << 20) cardiac_error(L, "%s: the number of layers must be 1 to %d, got %d", fn, 1 << 20, (int)m);
    int n[3] = {g->n[0], g->n[1], g->n[2]};
    double h[3] = {g->h[0], g->h[1], g->h[2]};
    n[g->dim] = (int)m;
    h[g->dim] = g->h[0];   /* the layers' spacing: no diffusion crosses it */
    grid *s = lua_newuserdatauv(L, sizeof(grid), 0);
    memset(s, 0, sizeof *s);
    luaL_setmetatable(L, MESH_MT);
    char err[256];
    if (grid_init(s, g->dim + 1, n, h, err, sizeof err) != 0) cardiac_error(L, "%s: %s", fn, err);
    if (g->phi && !(s->phi = malloc(s->ncells * sizeof *s->phi))) cardiac_error(L, "%s: out of memory", fn);
    for (lua_Integer k = 0; k < m; k++) {
        memcpy(s->mask + (size_t)k * g->ncells, g->mask, g->ncells);
        if (g->phi) memcpy(s->phi + (size_t)k * g->ncells, g->phi, g->ncells * sizeof *g->phi);
    }
    grid_recount(s);
    return 1;
}

/* m1 == m2: the same cells, spacing, tissue and phase field */
static int mesh_eq(lua_State *L)
{
    const grid *a = check_mesh(L, 1), *b = check_mesh(L, 2);
    int same = a->dim == b->dim && a->ncells == b->ncells && a->ntissue == b->ntissue && !a->phi == !b->phi;
    for (int q = 0; q < 3 && same; q++) same = a->n[q] == b->n[q] && a->h[q] == b->h[q];
    if (same) same = !memcmp(a->mask, b->mask, a->ncells);
    if (same && a->phi) same = !memcmp(a->phi, b->phi, a->ncells * sizeof *a->phi);
    lua_pushboolean(L, same);
    return 1;
}

static int mesh_index(lua_State *L)
{
    grid *g = check_mesh(L, 1);
    const char *k = luaL_checkstring(L, 2);
    if (method(L, 1, k)) return 1;
    if (!strcmp(k, "dim")) lua_pushinteger(L, g->dim);
    else if (!strcmp(k, "n")) push_ints(L, g->n, g->dim);
    else if (!strcmp(k, "dx")) push_doubles(L, g->h, g->dim);
    else if (!strcmp(k, "size")) {
        double s[3] = {g->n[0] * g->h[0], g->n[1] * g->h[1], g->n[2] * g->h[2]};
        push_doubles(L, s, g->dim);
    } else if (!strcmp(k, "ncells")) lua_pushinteger(L, (lua_Integer)g->ncells);
    else if (!strcmp(k, "tissue")) lua_pushinteger(L, (lua_Integer)g->ntissue);
    else if (!strcmp(k, "phase")) lua_pushboolean(L, g->phi != NULL);
    else lua_pushnil(L);
    return 1;
}

static int mesh_tostring(lua_State *L)
{
    grid *g = check_mesh(L, 1);
    if (g->dim == 1) lua_pushfstring(L, "cardiac.mesh 1D %d cells, dx = %f mm", g->n[0], g->h[0]);
    else if (g->dim == 2) lua_pushfstring(L, "cardiac.mesh 2D %d x %d cells, dx = %f x %f mm", g->n[0], g->n[1], g->h[0], g->h[1]);
    else lua_pushfstring(L, "cardiac.mesh 3D %d x %d x %d cells, dx = %f x %f x %f mm",
                         g->n[0], g->n[1], g->n[2], g->h[0], g->h[1], g->h[2]);
    return 1;
}

size_t cell_from_args(lua_State *L, int first, const grid *g, const char *fn)
{
    lua_Integer ijk[3] = {1, 1, 1};
    if (lua_istable(L, first)) {
        for (int a = 0; a < g->dim; a++) {
            lua_rawgeti(L, first, a + 1);
            if (!lua_isinteger(L, -1)) cardiac_error(L, "%s: cell index %d must be an integer, got %s", fn, a + 1, args_typename(L, -1));
            ijk[a] = lua_tointeger(L, -1);
            lua_pop(L, 1);
        }
    } else {
        for (int a = 0; a < g->dim; a++) ijk[a] = luaL_checkinteger(L, first + a);
    }
    for (int a = 0; a < g->dim; a++)
        if (ijk[a] < 1 || ijk[a] > g->n[a])
            cardiac_error(L, "%s: cell index %d = %d is outside 1..%d", fn, a + 1, (int)ijk[a], g->n[a]);
    return grid_index(g, (int)ijk[0] - 1, (int)ijk[1] - 1, (int)ijk[2] - 1);
}

static int mesh_locate(lua_State *L)
{
    grid *g = check_mesh(L, 1);
    double x[3] = {0, 0, 0};
    for (int a = 0; a < g->dim; a++) x[a] = luaL_checknumber(L, 2 + a);
    long c = grid_locate(g, x);
    if (c < 0) { lua_pushnil(L); return 1; }
    int i, j, k;
    grid_ijk(g, (size_t)c, &i, &j, &k);
    int ijk[3] = {i + 1, j + 1, k + 1};
    for (int a = 0; a < g->dim; a++) lua_pushinteger(L, ijk[a]);
    return g->dim;
}

static int mesh_coord(lua_State *L)
{
    grid *g = check_mesh(L, 1);
    size_t c = cell_from_args(L, 2, g, "mesh:coord");
    int ijk[3];
    grid_ijk(g, c, &ijk[0], &ijk[1], &ijk[2]);
    for (int a = 0; a < g->dim; a++) lua_pushnumber(L, grid_center(g, a, ijk[a]));
    return g->dim;
}

static int mesh_set_tissue(lua_State *L)
{
    grid *g = check_mesh(L, 1);
    int value = lua_isnone(L, 3) ? 1 : (luaL_checktype(L, 3, LUA_TBOOLEAN), lua_toboolean(L, 3));
    size_t *cells;
    size_t n = resolve_region(L, 2, g, 0, &cells, "mesh:set_tissue");
    for (size_t q = 0; q < n; q++) g->mask[cells[q]] = (uint8_t)value;
    /* a phase field follows: removed cells get phi = 0, added ones without a
     * value phi = 1 (bulk tissue) */
    if (g->phi)
        for (size_t q = 0; q < n; q++) {
            float *p = &g->phi[cells[q]];
            *p = value ? (*p > 0 ? *p : 1.0f) : 0.0f;
        }
    free(cells);
    grid_recount(g);
    lua_pushinteger(L, (lua_Integer)n);
    return 1;
}

static int mesh_is_tissue(lua_State *L)
{
    grid *g = check_mesh(L, 1);
    lua_pushboolean(L, g->mask[cell_from_args(L, 2, g, "mesh:is_tissue")]);
    return 1;
}

static int mesh_count(lua_State *L)
{
    grid *g = check_mesh(L, 1);
    size_t *cells;
    size_t n = resolve_region(L, 2, g, 1, &cells, "mesh:count");
    free(cells);
    lua_pushinteger(L, (lua_Integer)n);
    return 1;
}

void read_block_size(lua_State *L, int idx, const grid *g, int out[3], const char *key, const char *fn)
{
    idx = lua_absindex(L, idx);
    double b[3] = {0, 0, 0};
    int len = 0;
    if (lua_type(L, idx) == LUA_TNUMBER) {
        b[0] = b[1] = b[2] = lua_tonumber(L, idx);
        len = g->dim;
    } else if (lua_istable(L, idx)) {
        len = (int)luaL_len(L, idx);
        for (int a = 0; a < len && a < 3; a++) {
            lua_rawgeti(L, idx, a + 1);
            b[a] = lua_type(L, -1) == LUA_TNUMBER ? lua_tonumber(L, -1) : -1;
            lua_pop(L, 1);
        }
    } else {
        cardiac_error(L, "%s: '%s' must be a number or a list of %d numbers (cells per block along each axis), got %s",
                      fn, key, g->dim, args_typename(L, idx));
    }
    if (len != g->dim)
        cardiac_error(L, "%s: '%s' must list %d block sizes (one per axis of the mesh), got %d", fn, key, g->dim, len);
    for (int a = 0; a < 3; a++) {
        if (a >= g->dim) { out[a] = 1; continue; }
        if (!(b[a] >= 1 && b[a] <= 1024 && b[a] == floor(b[a])))
            cardiac_error(L, "%s: '%s'[%d] must be a whole number of cells from 1 to 1024", fn, key, a + 1);
        out[a] = (int)b[a];
    }
}

/* mesh:blocks(size): what blockDS storage with blocks of `size` cells would
 * hold (thesis fig. 5.12): blocks in the box and stored, cells stored and
 * their fraction of the box, and the cells a one-thread-per-cell kernel
 * computes (warps with tissue). */
static int mesh_blocks(lua_State *L)
{
    grid *g = check_mesh(L, 1);
    const char *fn = "mesh:blocks";
    int b[3];
    luaL_checkany(L, 2);
    read_block_size(L, 2, g, b, "size", fn);
    block_map bm;
    char err[256];
    if (block_map_build(&bm, g, b, err, sizeof err) != 0) return cardiac_error(L, "%s: %s", fn, err);
    const double box = (double)g->ncells, stored = (double)block_map_cells(&bm);
    const size_t busy = block_map_busy_warps(&bm, g);
    lua_createtable(L, 0, 8);
    push_ints(L, bm.b, g->dim);
    lua_setfield(L, -2, "size");
    lua_pushinteger(L, (lua_Integer)bm.nboxblocks);
    lua_setfield(L, -2, "blocks");
    lua_pushinteger(L, (lua_Integer)bm.nactive);
    lua_setfield(L, -2, "stored");
    lua_pushinteger(L, (lua_Integer)block_map_cells(&bm));
    lua_setfield(L, -2, "cells");
    lua_pushnumber(L, stored / box);
    lua_setfield(L, -2, "fraction");
    lua_pushnumber(L, (double)g->ntissue / stored);
    lua_setfield(L, -2, "fill");
    lua_pushnumber(L, 32.0 * (double)busy / box);
    lua_setfield(L, -2, "computed");
    block_map_free(&bm);
    return 1;
}

void open_mesh(lua_State *L)
{
    static const luaL_Reg methods[] = {
        {"locate", mesh_locate}, {"coord", mesh_coord}, {"set_tissue", mesh_set_tissue},
        {"is_tissue", mesh_is_tissue}, {"count", mesh_count}, {"blocks", mesh_blocks},
        {"decompose", mesh_decompose}, {"stack", mesh_stack}, {NULL, NULL}};
    static const luaL_Reg meta[] = {
        {"__gc", mesh_gc}, {"__index", mesh_index}, {"__tostring", mesh_tostring}, {"__eq", mesh_eq}, {NULL, NULL}};
    new_class(L, MESH_MT, methods, meta);
    lua_pushcfunction(L, mesh_new);
    lua_setfield(L, -2, "mesh");
}
