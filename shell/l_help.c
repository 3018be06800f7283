/* help(obj | "name"): documentation lookup by name, object type or function. */
#include <lauxlib.h>
#include <stdio.h>
#include <string.h>
#include "bindings.h"
#include "help_text.h"
#include "layouts.h"
#include "model.h"

static const char *lookup(const char *name)
{
    for (const help_entry *e = help_entries; e->name; e++)
        if (!strcmp(e->name, name)) return e->text;
    return NULL;
}

/* One line per GPU layout of the table (core/engine/layouts.h): what it is
 * and what it runs. */
static void print_layouts(void)
{
    for (int l = 0; l < LAYOUT_COUNT; l++) {
        const layout_def *d = &layout_table[l];
        printf("\n    \"%s\": %s\n      ", d->name, d->summary);
        printf(d->tsteps_max > 1 ? "tsteps = 1..%d" : "one step per kernel", d->tsteps_max);
        if (d->dims == 1u << 3) printf("; volumes");
        if (d->orders == 1u << 2) printf(", stencil 2");
        if (d->max_states) printf("; models of up to %d states", d->max_states);
        if (d->split) printf("; runs under mpirun");
        if (d->phase_field) printf("; phase fields");
        if (d->thesis) printf(layout_built(l) ? "; thesis baseline" : "; not in this build (CARDIAC_THESIS_LAYOUTS=ON)");
    }
}

/* Prints a help text; "@models@" in it becomes the registry's model names
 * (core/models/list.h) and "@layouts@" the table of GPU layouts, so the help
 * cannot fall behind what is built. */
static void print_text(const char *text)
{
    static const char *const marks[] = {"@models@", "@layouts@"};
    for (;;) {
        const char *at = NULL;
        int which = -1;
        for (int m = 0; m < 2; m++) {
            const char *p = strstr(text, marks[m]);
            if (p && (!at || p < at)) { at = p; which = m; }
        }
        if (!at) break;
        printf("%.*s", (int)(at - text), text);
        if (which == 0)
            for (size_t i = 0; i < model_count(); i++) printf("%s%s", i ? ", " : "", model_at(i)->name);
        else
            print_layouts();
        text = at + strlen(marks[which]);
    }
    printf("%s\n", text);
}

/* Prints the entries "<short>:<method>" after the type's own entry. */
static void print_methods(const char *type)
{
    const char *dot = strrchr(type, '.');
    const char *shortname = dot ? dot + 1 : type;
    size_t n = strlen(shortname);
    int first = 1;
    for (const help_entry *e = help_entries; e->name; e++) {
        if (strncmp(e->name, shortname, n) || e->name[n] != ':') continue;
        if (first) { printf("\nMethods:\n"); first = 0; }
        const char *nl = strchr(e->text, '\n');
        printf("  %.*s\n", nl ? (int)(nl - e->text) : (int)strlen(e->text), e->text);
    }
}

static int help(lua_State *L)
{
    const char *name = NULL;
    if (lua_isnoneornil(L, 1)) name = "cardiac";
    else if (lua_type(L, 1) == LUA_TSTRING) {
        name = lua_tostring(L, 1);
        if (!lookup(name)) {
            /* accept "sim:run" style and bare names like "mesh" */
            lua_pushfstring(L, "cardiac.%s", name);
            if (lookup(lua_tostring(L, -1))) name = lua_tostring(L, -1);
        }
    } else if (luaL_getmetafield(L, 1, "__name") == LUA_TSTRING) {
        name = lua_tostring(L, -1);
    } else {
        lua_getfield(L, LUA_REGISTRYINDEX, "cardiac.helpnames");
        lua_pushvalue(L, 1);
        if (lua_rawget(L, -2) == LUA_TSTRING) name = lua_tostring(L, -1);
    }
    const char *text = name ? lookup(name) : NULL;
    if (!text) {
        printf("no help for %s; try help() for the overview\n", name ? name : luaL_typename(L, 1));
        return 0;
    }
    print_text(text);
    if (!strncmp(name, "cardiac.", 8)) print_methods(name);
    fflush(stdout);
    return 0;
}

/* Maps every API function value to its help name, so help(sim.run) works. */
static void index_functions(lua_State *L, int cardiac)
{
    static const struct { const char *mt, *prefix; } classes[] = {
        {MESH_MT, "mesh"}, {MODEL_MT, "model"}, {REGION_MT, "region"}, {STIMULUS_MT, "stimulus"},
        {SIM_MT, "simulation"}, {PROBE_MT, "probe"}, {TRACKER_MT, "activation"}, {ECG_MT, "ecg"}};
    lua_newtable(L);
    int names = lua_gettop(L);
    lua_pushnil(L);
    while (lua_next(L, cardiac)) {
        if (lua_isfunction(L, -1) && lua_type(L, -2) == LUA_TSTRING) {
            lua_pushvalue(L, -1);
            lua_pushfstring(L, "cardiac.%s", lua_tostring(L, -3));
            lua_rawset(L, names);
        }
        lua_pop(L, 1);
    }
    for (size_t c = 0; c < sizeof classes / sizeof classes[0]; c++) {
        luaL_getmetatable(L, classes[c].mt);
        lua_getfield(L, -1, "methods");
        lua_pushnil(L);
        while (lua_next(L, -2)) {
            lua_pushvalue(L, -1);
            lua_pushfstring(L, "%s:%s", classes[c].prefix, lua_tostring(L, -3));
            lua_rawset(L, names);
            lua_pop(L, 1);
        }
        lua_pop(L, 2);
    }
    lua_setfield(L, LUA_REGISTRYINDEX, "cardiac.helpnames");
}

void open_help(lua_State *L)
{
    index_functions(L, lua_gettop(L));
    lua_pushcfunction(L, help);
    lua_setglobal(L, "help");
}
