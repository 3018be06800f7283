/* Regions: slab, box, sphere, cylinder shell, synthetic heart, cell and point lists, and Lua predicates,
 * resolved to grid cells when used (stimuli, initial values, masks). */
#include <lauxlib.h>
#include <stdlib.h>
#include <string.h>
#include "args.h"
#include "bindings.h"
#include "region.h"

typedef enum { LR_GEOMETRY, LR_CELLS, LR_POINTS, LR_FUNCTION, LR_LAYER } lregion_kind;

typedef struct {
    lregion_kind kind;
    region r;          /* LR_GEOMETRY */
    double *list;      /* LR_CELLS: 1-based i,j,k triples; LR_POINTS: x,y,z triples (mm) */
    size_t n;          /* LR_LAYER: the layer, from 0 (the region in its uservalue) */
} lregion;

static lregion *push_region(lua_State *L, lregion_kind kind)
{
    lregion *r = lua_newuserdatauv(L, sizeof *r, 1);
    memset(r, 0, sizeof *r);
    r->kind = kind;
    luaL_setmetatable(L, REGION_MT);
    return r;
}

static int region_gc(lua_State *L)
{
    lregion *r = luaL_checkudata(L, 1, REGION_MT);
    free(r->list);
    r->list = NULL;
    return 0;
}

static int axis_of(lua_State *L, const char *fn, const char *a)
{
    if (!strcmp(a, "x")) return 0;
    if (!strcmp(a, "y")) return 1;
    if (!strcmp(a, "z")) return 2;
    return cardiac_error(L, "%s: 'axis' must be \"x\", \"y\" or \"z\", got \"%s\"", fn, a);
}

static int slab_new(lua_State *L)
{
    static const char *const keys[] = {"axis", "from", "to", NULL};
    const char *fn = "cardiac.slab";
    args_table(L, 1, fn);
    args_known_keys(L, 1, fn, keys);
    int axis = axis_of(L, fn, args_string(L, 1, fn, "axis", "x", 0));
    double lo = args_number(L, 1, fn, "from", 0, 1), hi = args_number(L, 1, fn, "to", 0, 1);
    if (hi < lo) cardiac_error(L, "%s: 'to' (%g) is below 'from' (%g)", fn, hi, lo);
    lregion *r = push_region(L, LR_GEOMETRY);
    r->r.kind = REGION_SLAB;
    r->r.axis = axis;
    r->r.lo[axis] = lo;
    r->r.hi[axis] = hi;
    return 1;
}

static int box_new(lua_State *L)
{
    static const char *const keys[] = {"min", "max", NULL};
    const char *fn = "cardiac.box";
    args_table(L, 1, fn);
    args_known_keys(L, 1, fn, keys);
    double lo[3] = {0}, hi[3] = {0};
    int n1 = args_vector(L, 1, fn, "min", lo, 3, 1), n2 = args_vector(L, 1, fn, "max", hi, 3, 1);
    if (n1 != n2) cardiac_error(L, "%s: 'min' has %d coordinates but 'max' has %d", fn, n1, n2);
    for (int a = 0; a < n1; a++)
        if (hi[a] < lo[a]) cardiac_error(L, "%s: max[%d] = %g is below min[%d] = %g", fn, a + 1, hi[a], a + 1, lo[a]);
    lregion *r = push_region(L, LR_GEOMETRY);
    r->r.kind = REGION_BOX;
    for (int a = 0; a < 3; a++) {
        r->r.lo[a] = a < n1 ? lo[a] : -1e300;
        r->r.hi[a] = a < n1 ? hi[a] : 1e300;
    }
    return 1;
}

static int sphere_new(lua_State *L)
{
    static const char *const keys[] = {"center", "radius", NULL};
    const char *fn = "cardiac.sphere";
    args_table(L, 1, fn);
    args_known_keys(L, 1, fn, keys);
    double c[3] = {0};
    args_vector(L, 1, fn, "center", c, 3, 1);
    double rad = args_positive(L, 1, fn, "radius", 0, 1);
    lregion *r = push_region(L, LR_GEOMETRY);
    r->r.kind = REGION_SPHERE;
    memcpy(r->r.center, c, sizeof c);
    r->r.radius = rad;
    return 1;
}

/* cardiac.cylinder{center = {x, y, z}, axis = "z", radius = R, inner = r}: the
 * cells at distance r..R from the axis line through center (a shell when
 * inner > 0; inner defaults to 0, a solid cylinder). */
static int cylinder_new(lua_State *L)
{
    static const char *const keys[] = {"center", "axis", "radius", "inner", NULL};
    const char *fn = "cardiac.cylinder";
    args_table(L, 1, fn);
    args_known_keys(L, 1, fn, keys);
    double c[3] = {0};
    args_vector(L, 1, fn, "center", c, 3, 1);
    int axis = axis_of(L, fn, args_string(L, 1, fn, "axis", "z", 0));
    double rad = args_positive(L, 1, fn, "radius", 0, 1);
    double inner = args_number(L, 1, fn, "inner", 0, 0);
    if (inner < 0 || inner >= rad)
        cardiac_error(L, "%s: 'inner' must be at least 0 and below 'radius' (%g), got %g", fn, rad, inner);
    lregion *r = push_region(L, LR_GEOMETRY);
    r->r.kind = REGION_CYLINDER;
    memcpy(r->r.center, c, sizeof c);
    r->r.axis = axis;
    r->r.radius = rad;
    r->r.inner = inner;
    return 1;
}

/* cardiac.biventricle(): a synthetic two-ventricle heart scaled to the box of
 * the mesh it is applied to (core/mesh/region.c). */
static int biventricle_new(lua_State *L)
{
    if (!lua_isnoneornil(L, 1)) cardiac_error(L, "cardiac.biventricle: takes no arguments (it fits the mesh's box)");
    lregion *r = push_region(L, LR_GEOMETRY);
    r->r.kind = REGION_BIVENTRICLE;
    return 1;
}

static int list_new(lua_State *L, lregion_kind kind, const char *fn)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    size_t n = (size_t)luaL_len(L, 1);
    if (n == 0) cardiac_error(L, "%s: expected a non-empty list of {%s} triples", fn, kind == LR_CELLS ? "i, j, k" : "x, y, z");
    lregion *r = push_region(L, kind);
    r->list = malloc(n * 3 * sizeof *r->list);
    r->n = n;
    for (size_t q = 0; q < n; q++) {
        lua_rawgeti(L, 1, (lua_Integer)q + 1);
        if (!lua_istable(L, -1)) cardiac_error(L, "%s: entry %d must be a table {%s}", fn, (int)q + 1, kind == LR_CELLS ? "i, j, k" : "x, y, z");
        for (int a = 0; a < 3; a++) {
            int t = lua_rawgeti(L, -1, a + 1);
            if (t == LUA_TNIL) r->list[3 * q + a] = kind == LR_CELLS ? 1 : 0;
            else if (kind == LR_CELLS && !lua_isinteger(L, -1))
                cardiac_error(L, "%s: entry %d, index %d must be an integer", fn, (int)q + 1, a + 1);
            else if (t != LUA_TNUMBER)
                cardiac_error(L, "%s: entry %d, coordinate %d must be a number", fn, (int)q + 1, a + 1);
            else r->list[3 * q + a] = lua_tonumber(L, -1);
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
    }
    return 1;
}

static int cells_new(lua_State *L) { return list_new(L, LR_CELLS, "cardiac.cells"); }
static int points_new(lua_State *L) { return list_new(L, LR_POINTS, "cardiac.points"); }

static int where_new(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TFUNCTION);
    push_region(L, LR_FUNCTION);
    lua_pushvalue(L, 1);
    lua_setiuservalue(L, -2, 1);
    return 1;
}

/* cardiac.layer(k, region): the region, given on one layer's mesh, in layer
 * k of a grid stacked along its last axis (an ensemble's member k). */
static int layer_new(lua_State *L)
{
    const lua_Integer k = luaL_checkinteger(L, 1);
    if (k < 1) cardiac_error(L, "cardiac.layer: k must be 1 or more, got %d", (int)k);
    if (!lua_isfunction(L, 2) && !luaL_testudata(L, 2, REGION_MT))
        cardiac_error(L, "cardiac.layer: expected a region or a function after k, got %s", args_typename(L, 2));
    lregion *r = push_region(L, LR_LAYER);
    r->n = (size_t)(k - 1);
    lua_pushvalue(L, 2);
    lua_setiuservalue(L, -2, 1);
    return 1;
}

static int everywhere_new(lua_State *L)
{
    push_region(L, LR_GEOMETRY)->r.kind = REGION_ALL;
    return 1;
}

static size_t append(size_t **cells, size_t n, size_t *cap, size_t c)
{
    if (n == *cap) *cells = realloc(*cells, (*cap = *cap ? 2 * *cap : 64) * sizeof **cells);
    (*cells)[n] = c;
    return n + 1;
}

static size_t resolve_function(lua_State *L, int fidx, const grid *g, int tissue_only, size_t **cells)
{
    size_t n = 0, cap = 0;
    *cells = NULL;
    for (int k = 0; k < g->n[2]; k++)
        for (int j = 0; j < g->n[1]; j++)
            for (int i = 0; i < g->n[0]; i++) {
                size_t c = grid_index(g, i, j, k);
                if (tissue_only && !g->mask[c]) continue;
                lua_pushvalue(L, fidx);
                lua_pushnumber(L, g->dim > 0 ? grid_center(g, 0, i) : 0);
                lua_pushnumber(L, g->dim > 1 ? grid_center(g, 1, j) : 0);
                lua_pushnumber(L, g->dim > 2 ? grid_center(g, 2, k) : 0);
                lua_call(L, 3, 1);
                if (lua_toboolean(L, -1)) n = append(cells, n, &cap, c);
                lua_pop(L, 1);
            }
    return n;
}

/* Layer k of g (its last axis) as a grid of one dimension less. */
grid layer_grid(lua_State *L, const grid *g, size_t k, const char *fn)
{
    const int ax = g->dim - 1;
    if (g->dim < 2 || k >= (size_t)g->n[ax])
        cardiac_error(L, "%s: layer %d of a mesh of %d x %d x %d cells does not exist", fn, (int)k + 1, g->n[0],
                      g->n[1], g->n[2]);
    grid s = *g;
    s.dim = g->dim - 1;
    s.n[ax] = 1;
    s.ncells = g->ncells / (size_t)g->n[ax];
    s.mask = g->mask + k * s.ncells;
    s.phi = g->phi ? g->phi + k * s.ncells : NULL;
    return s;
}

size_t resolve_region(lua_State *L, int idx, const grid *g, int tissue_only, size_t **cells, const char *fn)
{
    idx = lua_absindex(L, idx);
    if (lua_isfunction(L, idx)) return resolve_function(L, idx, g, tissue_only, cells);
    lregion *r = luaL_testudata(L, idx, REGION_MT);
    if (!r) cardiac_error(L, "%s: expected a region (cardiac.slab, box, sphere, cylinder, biventricle, cells, points, where) or a function, got %s",
                       fn, args_typename(L, idx));
    size_t n = 0, cap = 0;
    *cells = NULL;
    switch (r->kind) {
    case LR_GEOMETRY:
        return region_resolve(&r->r, g, tissue_only, cells);
    case LR_FUNCTION: {
        lua_getiuservalue(L, idx, 1);
        n = resolve_function(L, lua_gettop(L), g, tissue_only, cells);
        lua_pop(L, 1);
        return n;
    }
    case LR_LAYER: {
        const grid sheet = layer_grid(L, g, r->n, fn);
        lua_getiuservalue(L, idx, 1);
        n = resolve_region(L, lua_gettop(L), &sheet, tissue_only, cells, fn);
        lua_pop(L, 1);
        for (size_t q = 0; q < n; q++) (*cells)[q] += r->n * sheet.ncells;
        return n;
    }
    case LR_CELLS:
    case LR_POINTS:
        for (size_t q = 0; q < r->n; q++) {
            const double *e = r->list + 3 * q;
            long c;
            if (r->kind == LR_CELLS) {
                for (int a = 0; a < 3; a++)
                    if (e[a] < 1 || e[a] > g->n[a]) {
                        free(*cells);
                        cardiac_error(L, "%s: cell {%d, %d, %d} is outside the mesh (%d x %d x %d cells)", fn,
                                   (int)e[0], (int)e[1], (int)e[2], g->n[0], g->n[1], g->n[2]);
                    }
                c = (long)grid_index(g, (int)e[0] - 1, (int)e[1] - 1, (int)e[2] - 1);
            } else {
                c = grid_locate(g, e);
                if (c < 0) {
                    free(*cells);
                    cardiac_error(L, "%s: point (%f, %f, %f) mm is outside the mesh", fn, e[0], e[1], e[2]);
                }
            }
            if (tissue_only && !g->mask[c]) continue;
            n = append(cells, n, &cap, (size_t)c);
        }
        return n;
    }
    return 0;
}

static int region_count(lua_State *L)
{
    luaL_checkudata(L, 1, REGION_MT);
    grid *g = check_mesh(L, 2);
    size_t *cells;
    size_t n = resolve_region(L, 1, g, 1, &cells, "region:count");
    free(cells);
    lua_pushinteger(L, (lua_Integer)n);
    return 1;
}

static int region_tostring(lua_State *L)
{
    static const char *names[] = {"everywhere", "slab", "box", "sphere", "cylinder", "biventricle", "cells"};
    lregion *r = luaL_checkudata(L, 1, REGION_MT);
    const char *k = r->kind == LR_GEOMETRY ? names[r->r.kind]
                  : r->kind == LR_CELLS ? "cells" : r->kind == LR_POINTS ? "points"
                  : r->kind == LR_LAYER ? "layer" : "where";
    lua_pushfstring(L, "cardiac.region (%s)", k);
    return 1;
}

void open_region(lua_State *L)
{
    static const luaL_Reg methods[] = {{"count", region_count}, {NULL, NULL}};
    static const luaL_Reg meta[] = {{"__gc", region_gc}, {"__tostring", region_tostring}, {NULL, NULL}};
    static const luaL_Reg ctors[] = {
        {"slab", slab_new}, {"box", box_new}, {"sphere", sphere_new}, {"cylinder", cylinder_new},
        {"biventricle", biventricle_new}, {"cells", cells_new},
        {"points", points_new}, {"where", where_new}, {"everywhere", everywhere_new},
        {"layer", layer_new}, {NULL, NULL}};
    new_class(L, REGION_MT, methods, meta);
    luaL_setfuncs(L, ctors, 0);
}
