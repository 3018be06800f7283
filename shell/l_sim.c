/* cardiac.simulation: the monodomain solver object, its probes and output. */
#include <float.h>
#include <lauxlib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "args.h"
#include "bindings.h"
#include "output_paths.h"
#include "output.h"
#include "par.h"
#include "picture.h"
#include "layouts.h"
#include "quiescence.h"
#include "sim.h"
#include "steer.h"

typedef struct { sim *s; } lsim;
typedef struct { probe *p; } lprobe;   /* uservalue 1: the owning simulation */

sim *check_sim(lua_State *L, int idx)
{
    lsim *ls = luaL_checkudata(L, idx, SIM_MT);
    if (!ls->s) cardiac_error(L, "simulation: this simulation was closed");
    return ls->s;
}

/* Raises the backend's failure, if any, after a direct backend call. */
static void backend_check(lua_State *L, sim *s, const char *fn)
{
    if (sim_failed(s)) cardiac_error(L, "%s: %s (the simulation cannot continue)", fn, sim_error(s));
}

int sim_var_arg(lua_State *L, const sim *s, int idx, const char *fn)
{
    const model_def *d = sim_model(s)->def;
    if (lua_isnoneornil(L, idx)) return d->vindex;
    const char *name = luaL_checkstring(L, idx);
    int v = model_state_index(d, name);
    if (v < 0)
        cardiac_error(L, "%s: model '%s' has no state variable '%s' (states: %s)", fn, d->name, name,
                      args_join(L, &d->states[0].name, sizeof d->states[0], d->nstate));
    return v;
}

/* D at idx (or the option key of the table at idx): one number or one per
 * axis. An ensemble's D (members > 0) is a member's: one per axis of the
 * member's mesh, and 0 along the member axis (core/engine/members.h). */
static void read_D(lua_State *L, int idx, const char *key, const grid *g, int members, double D[3], const char *fn)
{
    double v[3] = {0.1, 0.1, 0.1};
    int n;
    if (key) n = args_vector(L, idx, fn, key, v, 3, 0);
    else {
        lua_newtable(L);
        lua_pushvalue(L, idx);
        lua_setfield(L, -2, "D");
        n = args_vector(L, -1, fn, "D", v, 3, 1);
        lua_pop(L, 1);
    }
    const int dim = g->dim - (members > 0);
    if (n > 1 && n != dim)
        cardiac_error(L, "%s: 'D' lists %d values for a%s %dD mesh", fn, n, members ? "n ensemble's members'" : "", dim);
    for (int a = 0; a < 3; a++) {
        D[a] = a < dim ? (n == 1 ? v[0] : v[a]) : members ? 0 : v[0];
        if (D[a] < 0) cardiac_error(L, "%s: 'D' must be non-negative, got %g", fn, D[a]);
    }
}

static void add_stimuli(lua_State *L, int list, sim *s, const char *fn)
{
    if (!lua_istable(L, list)) cardiac_error(L, "%s: 'stimuli' must be a list of cardiac.stimulus", fn);
    size_t n = (size_t)luaL_len(L, list);
    for (size_t q = 1; q <= n; q++) {
        lua_rawgeti(L, list, (lua_Integer)q);
        stimulus st;
        build_stimulus(L, -1, sim_grid(s), &st, fn);
        sim_add_stimulus(s, &st);
        lua_pop(L, 1);
    }
}

/* A warning on stderr (rank 0, once per model, spacing and stencil: a
 * script that varies D, such as scripts/tune_cv.lua, hears it once) when the
 * grid is coarser than what resolves the model's upstroke (sim_resolution):
 * ORd's plane wave then fails or runs slow (docs/models.md). */
static void warn_resolution(const sim *s, const char *fn)
{
    static char last[160];
    double lim[3];
    const int a = sim_resolution(s, lim);
    if (a < 0 || par_rank() != 0) return;
    const int other = sim_order(s) == 2 ? 4 : 2;
    char msg[640];
    snprintf(msg, sizeof msg,
             "%s: warning: %s's upstroke is under-resolved at dx = %g mm along %c with D = %g mm^2/ms: its plane "
             "wave fails or runs more than about 10%% slow above dx = %.3g mm there with stencil = %d (%.3g mm with "
             "stencil = %d); take a finer mesh, or a D tuned to this grid for the resolved tissue's speed "
             "(scripts/tune_cv.lua; docs/models.md, \"Conduction velocity at coarse grids\")",
             fn, sim_model(s)->def->name, sim_grid(s)->h[a], "xyz"[a], sim_D(s)[a], lim[a], sim_order(s),
             model_resolved_dx(sim_model(s)->def, other, sim_D(s)[a]), other);
    char key[160];
    snprintf(key, sizeof key, "%s %g %c %d", sim_model(s)->def->name, sim_grid(s)->h[a], "xyz"[a], sim_order(s));
    if (strcmp(key, last)) {
        fprintf(stderr, "%s\n", msg);
        snprintf(last, sizeof last, "%s", key);
    }
}

static int lsim_new(lua_State *L)
{
    static const char *const keys[] = {"mesh", "model", "dt", "D", "stencil", "backend", "precision",
                                       "layout", "tsteps", "block", "blocks", "decomp", "balance", "stimuli",
                                       "members", "multirate", "tables", "quiescent_below",
                                       "quiescent_diffusion", "skip_rest", NULL};
    const char *fn = "cardiac.simulation";
    args_table(L, 1, fn);
    args_known_keys(L, 1, fn, keys);
    if (!args_field(L, 1, "mesh")) cardiac_error(L, "%s: missing required option 'mesh'", fn);
    grid *g = luaL_testudata(L, -1, MESH_MT);
    if (!g) cardiac_error(L, "%s: 'mesh' must be a cardiac.mesh, got %s", fn, args_typename(L, -1));
    if (!args_field(L, 1, "model")) cardiac_error(L, "%s: missing required option 'model'", fn);
    model_inst mi, *m = luaL_testudata(L, -1, MODEL_MT);
    if (!m && lua_type(L, -1) == LUA_TSTRING) {
        const model_def *d = model_find(lua_tostring(L, -1));
        if (!d) cardiac_error(L, "%s: unknown model '%s' (see cardiac.models())", fn, lua_tostring(L, -1));
        model_init(&mi, d);
        m = &mi;
    }
    if (!m) cardiac_error(L, "%s: 'model' must be a cardiac.model or a model name, got %s", fn, args_typename(L, -1));
    if (g->ntissue == 0) cardiac_error(L, "%s: the mesh has no tissue cells", fn);
    sim_config cfg;
    cfg.dt = args_positive(L, 1, fn, "dt", 0.05, 0);
    /* an ensemble (core/engine/members.h): the mesh's last axis counts its members */
    cfg.members = (int)args_integer(L, 1, fn, "members", 0, 0, 1);
    if (cfg.members && (g->dim < 2 || g->n[g->dim - 1] != cfg.members))
        cardiac_error(L, "%s: 'members' = %d needs a mesh whose last axis has one layer per member (mesh:stack(%d)), "
                      "got %d x %d x %d cells", fn, cfg.members, cfg.members, g->n[0], g->n[1], g->n[2]);
    read_D(L, 1, "D", g, cfg.members, cfg.D, fn);
    cfg.order = (int)args_integer(L, 1, fn, "stencil", 2, 0, 2);
    if (cfg.order != 2 && cfg.order != 4) cardiac_error(L, "%s: 'stencil' must be 2 or 4 (order of accuracy), got %d", fn, cfg.order);
    cfg.backend = args_string(L, 1, fn, "backend", "cpu", 0);
    /* auto: the GPU where there is one */
    if (!strcmp(cfg.backend, "auto")) cfg.backend = cuda_device_count(NULL, 0) > 0 ? "cuda" : "cpu";
    else if (strcmp(cfg.backend, "cpu") && strcmp(cfg.backend, "cuda"))
        cardiac_error(L, "%s: 'backend' must be \"cpu\", \"cuda\" or \"auto\", got \"%s\"", fn, cfg.backend);
    const int precision = args_model_precision(L, 1, fn, m->def);
    cfg.fp64 = precision == PRECISION_FP64 || precision == PRECISION_MIXED;
    cfg.mixed = precision == PRECISION_MIXED;
    cfg.half = precision == PRECISION_FP32H;
    cfg.frac = precision == PRECISION_FP32G;   /* and half: sim_create */
    /* the model's slow states step every this many steps (core/engine/multirate.h) */
    const long multirate = args_integer(L, 1, fn, "multirate", 1, 0, 1);
    if (multirate > 1000) cardiac_error(L, "%s: 'multirate' must be 1 to 1000 steps, got %ld", fn, multirate);
    cfg.multirate = (int)multirate;
    /* the gates' Rush-Larsen steps from rate tables over V (core/engine/rate_tables.h) */
    cfg.tables = args_boolean(L, 1, fn, "tables", 0);
    /* cells below this V sit multirate's holding steps out (core/engine/quiescence.h) */
    cfg.quiescent = 0;
    cfg.quiescent_below = 0;
    cfg.quiescent_diffusion = QUIESCENT_DIFFUSION_DEFAULT;
    if (args_field(L, 1, "quiescent_below")) {
        lua_pop(L, 1);
        cfg.quiescent = 1;
        cfg.quiescent_below = args_number(L, 1, fn, "quiescent_below", 0, 1);
        /* and the diffusion current below which they stay quiescent, mV/ms */
        cfg.quiescent_diffusion = args_positive(L, 1, fn, "quiescent_diffusion", QUIESCENT_DIFFUSION_DEFAULT, 0);
    } else if (args_field(L, 1, "quiescent_diffusion")) {
        cardiac_error(L, "%s: 'quiescent_diffusion' bounds the current of quiescent cells; give quiescent_below too", fn);
    }
    /* resting tissue skipped where the layout can (cuda/rest_region.cu); false: every cell steps */
    cfg.rest_every_cell = !args_boolean(L, 1, fn, "skip_rest", 1);
    cfg.layout = NULL;
    cfg.tsteps = 0;
    int layout = -1;
    if (args_field(L, 1, "layout")) {
        lua_pop(L, 1);
        cfg.layout = args_string(L, 1, fn, "layout", NULL, 1);
        layout = layout_find(cfg.layout);
        char names[160];
        if (layout < 0)
            cardiac_error(L, "%s: 'layout' must be one of %s, got \"%s\"", fn, layout_list(names, sizeof names, 0),
                          cfg.layout);
        if (strcmp(cfg.backend, "cuda"))
            cardiac_error(L, "%s: 'layout' applies to the cuda backend only (backend is \"%s\")", fn, cfg.backend);
        if (!layout_built(layout))
            cardiac_error(L, "%s: layout \"%s\" is one of the thesis' baselines, which this build leaves out; "
                          "configure with -DCARDIAC_THESIS_LAYOUTS=ON for it (the layouts built: %s)", fn, cfg.layout,
                          layout_list(names, sizeof names, 0));
    }
    cfg.block[0] = cfg.block[1] = 0;
    if (args_field(L, 1, "block")) {
        lua_pop(L, 1);
        double b[2] = {0, 0};
        if (args_vector(L, 1, fn, "block", b, 2, 1) != 2 || b[0] < 1 || b[1] < 1 || b[0] * b[1] > 1024 ||
            b[0] != floor(b[0]) || b[1] != floor(b[1]))
            cardiac_error(L, "%s: 'block' must be {bx, by}: whole numbers with bx * by <= 1024", fn);
        if (strcmp(cfg.backend, "cuda")) cardiac_error(L, "%s: 'block' applies to the cuda backend only", fn);
        cfg.block[0] = (int)b[0];
        cfg.block[1] = (int)b[1];
    }
    memset(cfg.blocks, 0, sizeof cfg.blocks);
    if (args_field(L, 1, "blocks")) {
        read_block_size(L, -1, g, cfg.blocks, "blocks", fn);
        lua_pop(L, 1);
        if (layout >= 0 && !layout_table[layout].blocks)
            cardiac_error(L, "%s: 'blocks' (blockDS storage) goes with layout \"block\", not \"%s\"", fn, cfg.layout);
    } else if (layout >= 0 && layout_table[layout].blocks) {
        cardiac_error(L, "%s: layout \"block\" needs 'blocks', the block size (e.g. blocks = 8)", fn);
    }
    if (args_field(L, 1, "tsteps")) {
        lua_pop(L, 1);
        cfg.tsteps = (int)args_integer(L, 1, fn, "tsteps", 0, 1, 1);
        char names[96];
        if (layout < 0 || !layout_temporal(layout))
            cardiac_error(L, "%s: 'tsteps' applies to layouts %s only", fn, layout_list(names, sizeof names, 1));
        if (cfg.tsteps > layout_table[layout].tsteps_max)
            cardiac_error(L, "%s: 'tsteps' must be 1 to %d with layout \"%s\", got %d", fn,
                          layout_table[layout].tsteps_max, cfg.layout, cfg.tsteps);
    }
    /* the meshes and stencils the layout's kernels run (core/engine/layouts.h) */
    if (layout >= 0 && !(layout_table[layout].dims >> g->dim & 1))
        cardiac_error(L, "%s: layout \"%s\" is for volumes (3D meshes); %dD meshes run layout = \"tblock\" "
                      "or \"naive\"", fn, cfg.layout, g->dim);
    if (layout >= 0 && !(layout_table[layout].orders >> cfg.order & 1))
        cardiac_error(L, "%s: layout \"%s\" runs the second-order stencil only (stencil = 2), got stencil = %d", fn,
                      cfg.layout, cfg.order);
    read_decomp(L, 1, g, cfg.decomp, fn);
    cfg.balance_cells = !read_balance(L, 1, fn);   /* under MPI: parts of equal tissue (default) or size */
    char err[512];
    lsim *ls = lua_newuserdatauv(L, sizeof *ls, 1);
    ls->s = NULL;
    luaL_setmetatable(L, SIM_MT);
    lua_newtable(L);
    lua_setiuservalue(L, -2, 1);
    ls->s = sim_create(g, m, &cfg, err, sizeof err);
    if (!ls->s) cardiac_error(L, "%s: %s", fn, err);
    warn_resolution(ls->s, fn);
    int self = lua_gettop(L);
    if (args_field(L, 1, "stimuli")) {
        add_stimuli(L, lua_gettop(L), ls->s, fn);
        lua_pop(L, 1);
    }
    lua_settop(L, self);
    return 1;
}

static int lsim_gc(lua_State *L)
{
    lsim *ls = luaL_checkudata(L, 1, SIM_MT);
    if (ls->s) steer_forget(L, ls->s);
    sim_destroy(ls->s);
    ls->s = NULL;
    return 0;
}

static int lsim_close(lua_State *L)
{
    luaL_checkudata(L, 1, SIM_MT);
    return lsim_gc(L);
}

/* ---- running ---------------------------------------------------------- */

typedef struct { double t_wall0; int tty; } progress_ctx;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static void progress(void *ctx, const sim *s, long done, long total, int final)
{
    progress_ctx *pc = ctx;
    double el = now_s() - pc->t_wall0;
    if (!pc->tty || (final && el < 0.25)) return;
    double rate = el > 0 ? done / el : 0;
    double eta = rate > 0 ? (total - done) / rate : 0;
    double rtf = el > 0 ? done * sim_dt(s) / (el * 1000.0) : 0;
    fprintf(stderr, "\r[cardiac] t = %.2f ms  %ld/%ld steps  %.0f steps/s  ETA %.1f s  %.3gx real time   ",
            sim_time(s), done, total, rate, eta, rtf);
    if (final) fputc('\n', stderr);
    fflush(stderr);
}

/* Raises when s steps in the background: a blocking run would race it. */
static void not_started(lua_State *L, const sim *s, const char *fn)
{
    if (steer_running(s))
        cardiac_error(L, "%s: the simulation is running in the background (sim:start); sim:wait() or sim:pause() "
                      "first", fn);
}

static int advance(lua_State *L, sim *s, long nsteps)
{
    char err[512];
    progress_ctx pc = {now_s(), isatty(2) && par_rank() == 0};   /* one progress line, from rank 0 */
    lua_getglobal(L, "cardiac");
    if (lua_istable(L, -1) && lua_getfield(L, -1, "quiet") != LUA_TNIL && lua_toboolean(L, -1)) pc.tty = 0;
    lua_settop(L, 2);
    int r = sim_advance(s, nsteps, &cardiac_interrupted, progress, &pc, err, sizeof err);
    sim_output_flush(s, r != 0);
    if (r == 1) {
        cardiac_interrupted = 0;
        lua_sethook(L, NULL, 0, 0);
        return cardiac_error(L, "interrupted at t = %f ms (step %d); the simulation is intact and can be continued",
                          sim_time(s), (int)sim_steps(s));
    }
    if (r < 0) return cardiac_error(L, "simulation: %s", err);
    lua_pushnumber(L, sim_time(s));
    return 1;
}

static int lsim_step(lua_State *L)
{
    sim *s = check_sim(L, 1);
    lua_Integer n = luaL_optinteger(L, 2, 1);
    if (n < 0) return cardiac_error(L, "simulation:step: the number of steps must be non-negative, got %d", (int)n);
    not_started(L, s, "simulation:step");
    return advance(L, s, (long)n);
}

static int lsim_run(lua_State *L)
{
    sim *s = check_sim(L, 1);
    double ms = luaL_checknumber(L, 2);
    if (!(ms >= 0) || !isfinite(ms))
        return cardiac_error(L, "simulation:run: duration must be a non-negative, finite number of ms, got %s",
                             ms != ms ? "NaN" : isinf(ms) ? "infinity" : lua_tostring(L, 2));
    not_started(L, s, "simulation:run");
    return advance(L, s, sim_steps_for(s, ms));
}

/* ---- reading and writing the state ------------------------------------ */

/* A malloc'd copy of field v; raises (freeing it) when the backend fails. */
static float *field_copy(lua_State *L, sim *s, int v)
{
    float *f = malloc(sim_grid(s)->ncells * sizeof *f);
    if (!f) cardiac_error(L, "simulation: out of memory copying a field of %zu cells", sim_grid(s)->ncells);
    sim_get_field(s, v, f);
    if (sim_failed(s)) free(f);
    backend_check(L, s, "simulation");
    return f;
}

/* State variable v of every cell in the state's own precision (sim_state_size
 * bytes a value), so that sim:set and sim:field keep an fp64 state's digits
 * (a float copy would round every cell of the field, not only those set). */
static void *state_copy(lua_State *L, sim *s, int v)
{
    void *f = malloc(sim_grid(s)->ncells * sim_state_size(s));
    if (!f) cardiac_error(L, "simulation: out of memory copying a field of %zu cells", sim_grid(s)->ncells);
    if (sim_get_state(s, v, f) != 0 || sim_failed(s)) free(f);
    backend_check(L, s, "simulation");
    return f;
}

/* Value c of a state copied in its precision (fp64: sim_fp64, read once
 * before a loop over the cells). */
static double state_at(int fp64, const void *f, size_t c)
{
    return fp64 ? ((const double *)f)[c] : ((const float *)f)[c];
}

static void state_put(int fp64, void *f, size_t c, double x)
{
    if (fp64) ((double *)f)[c] = x;
    else ((float *)f)[c] = (float)x;
}

static float sample_cell(lua_State *L, sim *s, int v, size_t c)
{
    float x;
    sim_sample(s, v, &c, 1, &x);
    backend_check(L, s, "simulation");
    return x;
}

static int push_sample(lua_State *L, sim *s, int v, size_t c)
{
    lua_pushnumber(L, sample_cell(L, s, v, c));
    return 1;
}

static int lsim_get(lua_State *L)
{
    sim *s = check_sim(L, 1);
    int v = sim_var_arg(L, s, 2, "simulation:get");
    return push_sample(L, s, v, cell_from_args(L, 3, sim_grid(s), "simulation:get"));
}

static int lsim_at(lua_State *L)
{
    sim *s = check_sim(L, 1);
    int v = sim_var_arg(L, s, 2, "simulation:at");
    double x[3] = {0, 0, 0};
    for (int a = 0; a < sim_grid(s)->dim; a++) x[a] = luaL_checknumber(L, 3 + a);
    long c = grid_locate(sim_grid(s), x);
    if (c < 0) return cardiac_error(L, "simulation:at: point (%f, %f, %f) mm is outside the mesh", x[0], x[1], x[2]);
    return push_sample(L, s, v, (size_t)c);
}

static int lsim_cell(lua_State *L)
{
    sim *s = check_sim(L, 1);
    size_t c = cell_from_args(L, 2, sim_grid(s), "simulation:cell");
    const model_def *d = sim_model(s)->def;
    lua_createtable(L, 0, d->nstate);
    for (int v = 0; v < d->nstate; v++) {
        lua_pushnumber(L, sample_cell(L, s, v, c));
        lua_setfield(L, -2, d->states[v].name);
    }
    return 1;
}

static int lsim_field(lua_State *L)
{
    sim *s = check_sim(L, 1);
    int v = sim_var_arg(L, s, 2, "simulation:field");
    if (sim_grid(s)->ncells > 50000000) return cardiac_error(L, "simulation:field: %d cells is too many for a Lua table; use output", (int)sim_grid(s)->ncells);
    /* with a region: its cells' values (tissue or not) in the grid's order */
    size_t *cells = NULL, ncells = sim_grid(s)->ncells;
    if (!lua_isnoneornil(L, 3)) ncells = resolve_region(L, 3, sim_grid(s), 0, &cells, "simulation:field");
    void *f = state_copy(L, s, v);
    const int fp64 = sim_fp64(s);
    lua_createtable(L, (int)ncells, 0);
    for (size_t q = 0; q < ncells; q++) {
        lua_pushnumber(L, state_at(fp64, f, cells ? cells[q] : q));
        lua_rawseti(L, -2, (lua_Integer)q + 1);
    }
    free(f);
    free(cells);
    return 1;
}

static int lsim_stats(lua_State *L)
{
    sim *s = check_sim(L, 1);
    int v = sim_var_arg(L, s, 2, "simulation:stats");
    const grid *g = sim_grid(s);
    /* with a region: over its tissue cells */
    size_t *cells = NULL, n = g->ntissue;
    if (!lua_isnoneornil(L, 3)) n = resolve_region(L, 3, g, 1, &cells, "simulation:stats");
    float *f = field_copy(L, s, v);
    double lo = INFINITY, hi = -INFINITY, sum = 0;
    for (size_t q = 0, c; q < (cells ? n : g->ncells); q++) {
        c = cells ? cells[q] : q;
        if (!g->mask[c]) continue;
        if (f[c] < lo) lo = f[c];
        if (f[c] > hi) hi = f[c];
        sum += f[c];
    }
    free(f);
    free(cells);
    lua_pushnumber(L, n ? lo : NAN);
    lua_pushnumber(L, n ? hi : NAN);
    lua_pushnumber(L, n ? sum / (double)n : NAN);
    lua_pushnumber(L, sum);
    return 4;
}

/* sim:set(var, value | function(x, y, z) -> value [, region]) */
static int lsim_set(lua_State *L)
{
    const char *fn = "simulation:set";
    sim *s = check_sim(L, 1);
    int v = sim_var_arg(L, s, 2, fn);
    luaL_checkany(L, 3);
    if (multiscale_dyad_var(s, v) == -2)
        return cardiac_error(L, "%s: '%s' is computed from the calcium release units in every step and cannot be "
                             "set; set their concentrations (cai, cass, cansr, cajsr, cads, nca, CaMKt) instead", fn,
                             sim_model(s)->def->states[v].name);
    int is_fn = lua_isfunction(L, 3);
    if (!is_fn && lua_type(L, 3) != LUA_TNUMBER)
        return cardiac_error(L, "%s: value must be a number or a function(x, y, z), got %s", fn, args_typename(L, 3));
    size_t *cells;
    size_t n;
    if (lua_isnoneornil(L, 4)) {
        lua_getglobal(L, "cardiac");
        lua_getfield(L, -1, "everywhere");
        lua_call(L, 0, 1);
        n = resolve_region(L, -1, sim_grid(s), 1, &cells, fn);
        lua_pop(L, 2);
    } else {
        n = resolve_region(L, 4, sim_grid(s), 1, &cells, fn);
    }
    double val = lua_tonumber(L, 3);
    if (!is_fn && !isfinite(val))
        return cardiac_error(L, "%s: the value of '%s' must be a finite number, got %s", fn, sim_model(s)->def->states[v].name,
                             val != val ? "NaN" : "infinity");
    const int fp64 = sim_fp64(s);
    /* an fp32 state would hold infinity */
    if (!is_fn && !fp64 && fabs(val) > FLT_MAX)
        return cardiac_error(L, "%s: the value of '%s', %g, is beyond fp32's range (%g); the simulation's precision "
                             "is fp32", fn, sim_model(s)->def->states[v].name, val, (double)FLT_MAX);
    void *f = state_copy(L, s, v);
    const grid *g = sim_grid(s);
    for (size_t q = 0; q < n; q++) {
        if (is_fn) {
            int i, j, k;
            grid_ijk(g, cells[q], &i, &j, &k);
            lua_pushvalue(L, 3);
            lua_pushnumber(L, grid_center(g, 0, i));
            lua_pushnumber(L, g->dim > 1 ? grid_center(g, 1, j) : 0);
            lua_pushnumber(L, g->dim > 2 ? grid_center(g, 2, k) : 0);
            if (lua_pcall(L, 3, 1, 0) != LUA_OK || lua_type(L, -1) != LUA_TNUMBER) {
                free(f); free(cells);
                return cardiac_error(L, "%s: the value function must return a number (%s)", fn,
                                  lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : args_typename(L, -1));
            }
            val = lua_tonumber(L, -1);
            lua_pop(L, 1);
            if (!isfinite(val) || (!fp64 && fabs(val) > FLT_MAX)) {
                free(f); free(cells);
                return cardiac_error(L, "%s: the value function returned %s for '%s' at (%g, %g, %g) mm; values must be "
                                     "finite%s", fn, val != val ? "NaN" : isfinite(val) ? "a value beyond fp32's range"
                                     : "infinity", sim_model(s)->def->states[v].name,
                                     grid_center(g, 0, i), g->dim > 1 ? grid_center(g, 1, j) : 0,
                                     g->dim > 2 ? grid_center(g, 2, k) : 0, fp64 ? "" : " and within fp32's range");
            }
        }
        state_put(fp64, f, cells[q], val);
    }
    sim_set_state(s, v, f);
    if (multiscale_set_cells(s, v, cells, n, f) != 0) sim_fail(s, "out of memory setting the calcium release units");
    backend_check(L, s, fn);
    sim_forget_bad_cell(s);
    free(f);
    free(cells);
    lua_pushinteger(L, (lua_Integer)n);
    return 1;
}

/* ---- changing the problem between runs -------------------------------- */

/* sim:set_D(D [, member]): every member's (the whole simulation's), or an
 * ensemble member's own */
static int lsim_set_D(lua_State *L)
{
    const char *fn = "simulation:set_D";
    sim *s = check_sim(L, 1);
    double D[3];
    read_D(L, 2, NULL, sim_grid(s), sim_members(s), D, fn);
    char err[512];
    if (!lua_isnoneornil(L, 3)) {
        const lua_Integer k = luaL_checkinteger(L, 3);
        if (!sim_members(s)) return cardiac_error(L, "%s: 'member' = %d: the simulation is not an ensemble", fn, (int)k);
        if (k < 1 || k > sim_members(s))
            return cardiac_error(L, "%s: 'member' must be 1 to %d, got %d", fn, sim_members(s), (int)k);
        if (sim_set_member_D(s, (int)k - 1, D, err, sizeof err) != 0) return cardiac_error(L, "%s: %s", fn, err);
        return 0;
    }
    if (sim_set_diffusion(s, D, err, sizeof err) != 0) return cardiac_error(L, "%s: %s", fn, err);
    warn_resolution(s, fn);
    return 0;
}

/* sim:member_D(k) -> {Dx, Dy}: an ensemble member's D */
static int lsim_member_D(lua_State *L)
{
    sim *s = check_sim(L, 1);
    const lua_Integer k = luaL_checkinteger(L, 2);
    if (!sim_members(s) || k < 1 || k > sim_members(s))
        return cardiac_error(L, "simulation:member_D: member %d does not exist (%d members)", (int)k, sim_members(s));
    const int dim = sim_grid(s)->dim - 1;
    lua_createtable(L, dim, 0);
    for (int a = 0; a < dim; a++) { lua_pushnumber(L, sim_member_D(s, (int)k - 1)[a]); lua_rawseti(L, -2, a + 1); }
    return 1;
}

static int lsim_add_stimulus(lua_State *L)
{
    sim *s = check_sim(L, 1);
    stimulus st;
    build_stimulus(L, 2, sim_grid(s), &st, "simulation:add_stimulus");
    sim_add_stimulus(s, &st);
    return 0;
}

/* ---- probes -------------------------------------------------------------- */

/* Reads opts.vars (a list of state names; default: V) into vars; returns the count. */
static int read_vars(lua_State *L, sim *s, int opts, int *vars, const char *fn)
{
    int nv = 0;
    if (!args_field(L, opts, "vars")) {
        vars[0] = sim_model(s)->def->vindex;
        return 1;
    }
    if (!lua_istable(L, -1)) cardiac_error(L, "%s: 'vars' must be a list of state names", fn);
    int t = lua_gettop(L);
    for (int q = 1; q <= (int)luaL_len(L, t) && nv < MODEL_MAX_STATE; q++) {
        lua_rawgeti(L, t, q);
        vars[nv++] = sim_var_arg(L, s, lua_gettop(L), fn);
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    if (!nv) cardiac_error(L, "%s: 'vars' is empty", fn);
    return nv;
}

static int lsim_probe(lua_State *L)
{
    static const char *const keys[] = {"name", "cells", "points", "region", "vars", "every", "interval", NULL};
    const char *fn = "simulation:probe";
    sim *s = check_sim(L, 1);
    args_table(L, 2, fn);
    args_known_keys(L, 2, fn, keys);
    char defname[32];
    snprintf(defname, sizeof defname, "probe%zu", sim_nprobes(s) + 1);
    const char *name = args_string(L, 2, fn, "name", defname, 0);
    if (!*name || strchr(name, '/') || strlen(name) > 60) cardiac_error(L, "%s: 'name' must be 1-60 characters without '/'", fn);
    for (size_t q = 0; q < sim_nprobes(s); q++)
        if (!strcmp(sim_probe_at(s, q)->name, name)) cardiac_error(L, "%s: a probe named '%s' exists already", fn, name);
    int nsel = 0;
    size_t *cells = NULL, n = 0;
    const char *sel[] = {"cells", "points", "region"};
    for (int q = 0; q < 3; q++) {
        if (!args_field(L, 2, sel[q])) continue;
        nsel++;
        if (q < 2) {
            lua_getglobal(L, "cardiac");
            lua_getfield(L, -1, sel[q]);
            lua_pushvalue(L, -3);
            lua_call(L, 1, 1);
            n = resolve_region(L, -1, sim_grid(s), 0, &cells, fn);
            lua_pop(L, 3);
        } else {
            n = resolve_region(L, -1, sim_grid(s), 1, &cells, fn);
            lua_pop(L, 1);
        }
    }
    if (nsel != 1) { free(cells); cardiac_error(L, "%s: give exactly one of 'cells', 'points' or 'region'", fn); }
    if (n == 0) { free(cells); cardiac_error(L, "%s: the probe selects no cells", fn); }
    int vars[MODEL_MAX_STATE];
    /* cells is malloc'd: keep it reachable from Lua so an error in 'vars' frees it */
    size_t *held = lua_newuserdatauv(L, n * sizeof *cells, 0);
    memcpy(held, cells, n * sizeof *cells);
    free(cells);
    cells = held;
    int nv = read_vars(L, s, 2, vars, fn);
    long every = args_integer(L, 2, fn, "every", 1, 0, 1);
    if (args_field(L, 2, "interval")) {
        lua_pop(L, 1);
        every = (long)floor(args_positive(L, 2, fn, "interval", 0, 1) / sim_dt(s) + 0.5);
        if (every < 1) every = 1;
    }
    probe *p = sim_add_probe(s, name, cells, n, vars, nv, every);
    if (!p) return cardiac_error(L, "%s: out of memory adding probe '%s'", fn, name);
    lprobe *lp = lua_newuserdatauv(L, sizeof *lp, 1);
    lp->p = p;
    luaL_setmetatable(L, PROBE_MT);
    lua_pushvalue(L, 1);
    lua_setiuservalue(L, -2, 1);
    char err[256];
    if (sim_record(s, err, sizeof err) != 0) cardiac_error(L, "%s: %s", fn, err);
    return 1;
}

static probe *check_probe(lua_State *L, int idx)
{
    lprobe *lp = luaL_checkudata(L, idx, PROBE_MT);
    lua_getiuservalue(L, idx, 1);
    check_sim(L, -1);
    lua_pop(L, 1);
    return lp->p;
}

/* Probe samples are read in chunks: from memory, or back from the output
 * file for those already written there (core/measure/probe.c). */
enum { PROBE_CHUNK = 4096 };

typedef struct {
    double *t;
    float *rows;
} probe_chunk;

static void chunk_free(probe_chunk *ch)
{
    free(ch->t);
    free(ch->rows);
}

static void chunk_alloc(lua_State *L, probe_chunk *ch, const probe *p)
{
    ch->t = malloc(PROBE_CHUNK * sizeof *ch->t);
    ch->rows = malloc((size_t)PROBE_CHUNK * p->nvars * p->ncells * sizeof *ch->rows);
    if (!ch->t || !ch->rows) {
        chunk_free(ch);
        cardiac_error(L, "probe '%s': out of memory reading its samples", p->name);
    }
}

/* Reads samples q0.. (at most a chunk) into ch: how many, or 0 with err. */
static size_t chunk_read(const sim *s, const probe *p, probe_chunk *ch, size_t q0, char *err, size_t errlen)
{
    size_t n = p->nsamples - q0 < PROBE_CHUNK ? p->nsamples - q0 : PROBE_CHUNK;
    return probe_read(s, p, q0, n, ch->t, ch->rows, err, errlen) == 0 ? n : 0;
}

/* probe:data() -> {t = {...}, <var> = {{cell 1 series}, {cell 2 series}, ...}} */
static int probe_data(lua_State *L)
{
    probe *p = check_probe(L, 1);
    lua_getiuservalue(L, 1, 1);
    sim *s = check_sim(L, -1);
    char err[512];
    if (sim_sync(s, err, sizeof err) != 0) return cardiac_error(L, "probe:data: %s", err);
    luaL_checkstack(L, p->nvars + 8, "probe:data");
    lua_createtable(L, 0, p->nvars + 1);
    const int res = lua_gettop(L);
    lua_createtable(L, (int)p->nsamples, 0);
    lua_pushvalue(L, -1);
    lua_setfield(L, res, "t");
    for (int v = 0; v < p->nvars; v++) {   /* stack: res, t, then one table of cells per variable */
        lua_createtable(L, (int)p->ncells, 0);
        for (size_t c = 0; c < p->ncells; c++) {
            lua_createtable(L, (int)p->nsamples, 0);
            lua_rawseti(L, -2, (lua_Integer)c + 1);
        }
        lua_pushvalue(L, -1);
        lua_setfield(L, res, sim_model(s)->def->states[p->vars[v]].name);
    }
    probe_chunk ch;
    chunk_alloc(L, &ch, p);
    for (size_t q0 = 0; q0 < p->nsamples;) {
        size_t n = chunk_read(s, p, &ch, q0, err, sizeof err);
        if (!n) { chunk_free(&ch); return cardiac_error(L, "probe:data: %s", err); }
        for (size_t q = 0; q < n; q++) { lua_pushnumber(L, ch.t[q]); lua_rawseti(L, res + 1, (lua_Integer)(q0 + q) + 1); }
        for (int v = 0; v < p->nvars; v++)
            for (size_t c = 0; c < p->ncells; c++) {
                lua_rawgeti(L, res + 2 + v, (lua_Integer)c + 1);
                for (size_t q = 0; q < n; q++) {
                    lua_pushnumber(L, ch.rows[(q * p->nvars + v) * p->ncells + c]);
                    lua_rawseti(L, -2, (lua_Integer)(q0 + q) + 1);
                }
                lua_pop(L, 1);
            }
        q0 += n;
    }
    chunk_free(&ch);
    lua_settop(L, res);
    return 1;
}

static int probe_csv(lua_State *L)
{
    probe *p = check_probe(L, 1);
    const char *path = luaL_checkstring(L, 2);
    static const char *const keys[] = {"overwrite", NULL};
    if (lua_isnoneornil(L, 3)) { lua_settop(L, 2); lua_newtable(L); }
    args_table(L, 3, "probe:csv");
    args_known_keys(L, 3, "probe:csv", keys);
    args_writable(L, path, NULL, args_boolean(L, 3, "probe:csv", "overwrite", 0), "CSV file", "probe:csv");
    lua_settop(L, 2);
    lua_getiuservalue(L, 1, 1);
    sim *s = check_sim(L, -1);
    char err[1024];
    if (sim_sync(s, err, sizeof err) != 0) return cardiac_error(L, "probe:csv: %s", err);
    probe_chunk ch;
    chunk_alloc(L, &ch, p);
    /* under MPI rank 0 writes the file (every rank reads the samples: a read
     * from the live output file is collective) */
    FILE *f = par_rank() == 0 ? fopen(path, "w") : fopen("/dev/null", "w");
    int ok = f != NULL;
    par_bcast(&ok, sizeof ok);
    if (!ok) {
        if (f) fclose(f);
        chunk_free(&ch);
        return cardiac_error(L, "probe:csv: cannot write '%s'", path);
    }
    fprintf(f, "t_ms");
    for (int v = 0; v < p->nvars; v++)
        for (size_t c = 0; c < p->ncells; c++) {
            int i, j, k;
            grid_ijk(sim_grid(s), p->cells[c], &i, &j, &k);
            fprintf(f, ",%s_%d_%d_%d", sim_model(s)->def->states[p->vars[v]].name, i + 1, j + 1, k + 1);
        }
    fputc('\n', f);
    for (size_t q0 = 0; q0 < p->nsamples;) {
        size_t n = chunk_read(s, p, &ch, q0, err, sizeof err);
        if (!n) {
            fclose(f);
            if (par_rank() == 0) remove(path);
            chunk_free(&ch);
            return cardiac_error(L, "probe:csv: %s", err);
        }
        for (size_t q = 0; q < n; q++) {
            fprintf(f, "%.9g", ch.t[q]);
            for (int v = 0; v < p->nvars; v++)
                for (size_t c = 0; c < p->ncells; c++) fprintf(f, ",%.7g", ch.rows[(q * p->nvars + v) * p->ncells + c]);
            fputc('\n', f);
        }
        q0 += n;
    }
    chunk_free(&ch);
    fclose(f);
    return 0;
}

static int probe_index(lua_State *L)
{
    probe *p = check_probe(L, 1);
    const char *k = luaL_checkstring(L, 2);
    luaL_getmetafield(L, 1, "methods");
    if (lua_getfield(L, -1, k) != LUA_TNIL) return 1;
    if (!strcmp(k, "name")) lua_pushstring(L, p->name);
    else if (!strcmp(k, "nsamples")) lua_pushinteger(L, (lua_Integer)p->nsamples);
    else if (!strcmp(k, "ncells")) lua_pushinteger(L, (lua_Integer)p->ncells);
    else if (!strcmp(k, "held")) lua_pushinteger(L, (lua_Integer)(p->nsamples - p->first));
    else lua_pushnil(L);
    return 1;
}

/* ---- output ----------------------------------------------------------------- */

static int lsim_output(lua_State *L)
{
    static const char *const keys[] = {"file", "every", "interval", "vars", "overwrite", NULL};
    const char *fn = "simulation:output";
    sim *s = check_sim(L, 1);
    args_table(L, 2, fn);
    args_known_keys(L, 2, fn, keys);
    h5out_config cfg = {0};
    cfg.path = args_string(L, 2, fn, "file", NULL, 1);
    cfg.every = args_integer(L, 2, fn, "every", 0, 0, 1);
    if (args_field(L, 2, "interval")) {
        lua_pop(L, 1);
        if (cfg.every) cardiac_error(L, "%s: give either 'every' (steps) or 'interval' (ms), not both", fn);
        cfg.every = (long)floor(args_positive(L, 2, fn, "interval", 0, 1) / sim_dt(s) + 0.5);
        if (cfg.every < 1) cfg.every = 1;
    }
    if (!cfg.every) cardiac_error(L, "%s: missing 'every' (steps between frames) or 'interval' (ms between frames)", fn);
    int vars[MODEL_MAX_STATE], nv = read_vars(L, s, 2, vars, fn);
    cfg.vars = vars;
    cfg.nvars = nv;
    cfg.overwrite = args_boolean(L, 2, fn, "overwrite", 0);
    lua_getfield(L, LUA_REGISTRYINDEX, "cardiac.script");
    cfg.script = lua_tostring(L, -1);
    lua_getfield(L, LUA_REGISTRYINDEX, "cardiac.script_name");
    cfg.script_name = lua_tostring(L, -1);
    char err[512];
    if (sim_output_open(s, &cfg, err, sizeof err) != 0) return cardiac_error(L, "%s: %s", fn, err);
    if (sim_record(s, err, sizeof err) != 0) return cardiac_error(L, "%s: %s", fn, err);
    lua_pushstring(L, cfg.path);
    return 1;
}

static int lsim_close_output(lua_State *L)
{
    sim *s = check_sim(L, 1);
    sim_output_close(s);
    return 0;
}

/* The slice options of a picture (z, scale, overwrite) from the table at opts. */
void png_slice_options(lua_State *L, int opts, const grid *g, const char *path, const char *fn, long *z, long *scale)
{
    *z = args_integer(L, opts, fn, "z", (g->n[2] + 1) / 2, 0, 1);
    if (*z > g->n[2]) cardiac_error(L, "%s: 'z' = %d is outside 1..%d", fn, (int)*z, g->n[2]);
    *scale = args_integer(L, opts, fn, "scale", g->n[0] < 256 ? 512 / g->n[0] : 1, 0, 1);
    /* a side of more than PICTURE_MAX_SIDE pixels takes minutes and
     * gigabytes to write, and most viewers refuse it */
    const long side = g->n[0] > g->n[1] ? g->n[0] : g->n[1];
    if (*scale > 1 && side * *scale > PICTURE_MAX_SIDE)
        cardiac_error(L, "%s: 'scale' = %ld would make a picture %ld pixels wide; at most %d (scale <= %ld for "
                      "this mesh)", fn, *scale, side * *scale, PICTURE_MAX_SIDE,
                      side < PICTURE_MAX_SIDE ? PICTURE_MAX_SIDE / side : 1L);
    args_writable(L, path, NULL, args_boolean(L, opts, fn, "overwrite", 0), "picture", fn);
}

/* Writes slice z (1-based) of a whole-grid field; frees field; raises on failure.
 * Under MPI rank 0 writes the picture and shares the outcome. */
void png_slice_write(lua_State *L, const char *path, float *field, const uint8_t *mask, const grid *g, long z,
                     double lo, double hi, long scale, const char *fn)
{
    const size_t off = (size_t)(z - 1) * g->n[0] * g->n[1];
    char err[512] = "";
    int r = 0;
    if (par_rank() == 0)
        r = picture_write_png(path, field + off, mask, g->n[0], g->dim == 1 ? 1 : g->n[1], (float)lo, (float)hi,
                              (int)scale, err, sizeof err);
    par_bcast(&r, sizeof r);
    par_bcast(err, sizeof err);
    free(field);
    if (r != 0) cardiac_error(L, "%s: %s", fn, err);
    lua_pushstring(L, path);
}

/* sim:png(file, {var =, min =, max =, z =, scale =, overwrite =}) */
static int lsim_png(lua_State *L)
{
    static const char *const keys[] = {"var", "min", "max", "z", "scale", "overwrite", NULL};
    const char *fn = "simulation:png";
    sim *s = check_sim(L, 1);
    const char *path = luaL_checkstring(L, 2);
    if (lua_isnoneornil(L, 3)) { lua_settop(L, 2); lua_newtable(L); }
    args_table(L, 3, fn);
    args_known_keys(L, 3, fn, keys);
    int v = sim_model(s)->def->vindex;
    if (args_field(L, 3, "var")) { v = sim_var_arg(L, s, lua_gettop(L), fn); lua_pop(L, 1); }
    int is_v = v == sim_model(s)->def->vindex;
    double lo = args_number(L, 3, fn, "min", is_v ? sim_model(s)->def->vmin : 0, !is_v);
    double hi = args_number(L, 3, fn, "max", is_v ? sim_model(s)->def->vmax : 1, !is_v);
    long z, scale;
    png_slice_options(L, 3, sim_grid(s), path, fn, &z, &scale);
    float *f = field_copy(L, s, v);
    png_slice_write(L, path, f, sim_grid(s)->mask + (size_t)(z - 1) * sim_grid(s)->n[0] * sim_grid(s)->n[1], sim_grid(s), z, lo, hi, scale, fn);
    return 1;
}

/* sim:diff(other [, var]) -> max |a - b| over tissue cells, RMS difference, and
 * the 1-based cell of the maximum: to compare backends, layouts or precisions
 * of the same problem without moving whole fields into Lua. */
static int lsim_diff(lua_State *L)
{
    const char *fn = "simulation:diff";
    sim *a = check_sim(L, 1), *b = check_sim(L, 2);
    if (sim_grid(a)->ncells != sim_grid(b)->ncells || sim_grid(a)->n[0] != sim_grid(b)->n[0] || sim_grid(a)->n[1] != sim_grid(b)->n[1])
        return cardiac_error(L, "%s: the two simulations have different meshes", fn);
    if (sim_model(a)->def != sim_model(b)->def) return cardiac_error(L, "%s: the two simulations run different models", fn);
    int v = sim_var_arg(L, a, 3, fn);
    /* in each state's own precision: fp64 differences below a float's ulp count */
    void *fa = state_copy(L, a, v), *fb = malloc(sim_grid(b)->ncells * sim_state_size(b));
    if (!fb) { free(fa); return cardiac_error(L, "%s: out of memory", fn); }
    if (sim_get_state(b, v, fb) != 0 || sim_failed(b)) { free(fa); free(fb); backend_check(L, b, fn); }
    double mx = 0, ss = 0;
    size_t at = 0, n = 0;
    const grid *g = sim_grid(a);
    const int fpa = sim_fp64(a), fpb = sim_fp64(b);
    for (size_t c = 0; c < g->ncells; c++) {
        if (!g->mask[c]) continue;
        double d = fabs(state_at(fpa, fa, c) - state_at(fpb, fb, c));
        if (!(d <= mx)) { mx = d; at = c; }   /* NaN counts as the largest */
        ss += d * d;
        n++;
    }
    free(fa); free(fb);
    lua_pushnumber(L, mx);
    lua_pushnumber(L, n ? sqrt(ss / n) : 0);
    lua_pushinteger(L, (lua_Integer)at + 1);
    return 3;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* sim:benchmark{steps = 1000, ["repeat"] = 5, warmup = 200}: times the stepping
 * alone (the stimulus pattern of the current step, no probes or output), with
 * CUDA events on the GPU and the wall clock on the CPU. The steps count: the
 * simulation advances by warmup + repeat x steps. Returns {times = {ms...},
 * median = ms, per_step = ms, steps = n}. */
static int lsim_benchmark(lua_State *L)
{
    static const char *const keys[] = {"steps", "repeat", "warmup", NULL};
    const char *fn = "simulation:benchmark";
    sim *s = check_sim(L, 1);
    if (lua_isnoneornil(L, 2)) lua_newtable(L);
    args_table(L, 2, fn);
    args_known_keys(L, 2, fn, keys);
    long steps = args_integer(L, 2, fn, "steps", 1000, 0, 1);
    long reps = args_integer(L, 2, fn, "repeat", 5, 0, 1);
    long warm = args_integer(L, 2, fn, "warmup", 200, 0, 0);
    if (reps > 1000) return cardiac_error(L, "%s: 'repeat' must be at most 1000, got %ld", fn, reps);
    not_started(L, s, fn);
    char err[512];
    double ms[1000];
    if (sim_advance(s, 0, NULL, NULL, NULL, err, sizeof err) != 0) return cardiac_error(L, "%s: %s", fn, err);
    if (warm) sim_time_steps(s, warm, 1);
    for (long r = 0; r < reps && !sim_failed(s); r++) ms[r] = sim_time_steps(s, steps, 1);
    if (sim_sync(s, err, sizeof err) != 0) return cardiac_error(L, "%s: %s", fn, err);
    if (sim_bad_cell(s) >= 0) return cardiac_error(L, "%s: the state became NaN or Inf during the benchmark (step %ld)", fn, sim_bad_step(s));
    lua_createtable(L, 0, 4);
    lua_createtable(L, (int)reps, 0);
    for (long r = 0; r < reps; r++) { lua_pushnumber(L, ms[r]); lua_rawseti(L, -2, r + 1); }
    lua_setfield(L, -2, "times");
    qsort(ms, (size_t)reps, sizeof ms[0], cmp_double);
    double med = reps % 2 ? ms[reps / 2] : 0.5 * (ms[reps / 2 - 1] + ms[reps / 2]);
    lua_pushnumber(L, med);
    lua_setfield(L, -2, "median");
    lua_pushnumber(L, med / steps);
    lua_setfield(L, -2, "per_step");
    lua_pushinteger(L, steps);
    lua_setfield(L, -2, "steps");
    /* split over ranks: the same steps without the halo exchange; the
       difference is the communication that compute did not hide */
    if (sim_decomp(s)->nranks > 1 && reps) {
        double off[1000];
        for (long r = 0; r < reps; r++) off[r] = sim_time_steps(s, steps, 0);
        qsort(off, (size_t)reps, sizeof off[0], cmp_double);
        double moff = reps % 2 ? off[reps / 2] : 0.5 * (off[reps / 2 - 1] + off[reps / 2]);
        lua_pushnumber(L, fmax(0.0, med - moff) / steps);
    } else {
        lua_pushnumber(L, 0.0);
    }
    lua_setfield(L, -2, "exchange_per_step");
    lua_pushinteger(L, sim_decomp(s)->nranks);
    lua_setfield(L, -2, "ranks");
    return 1;
}

static int lsim_index(lua_State *L)
{
    lsim *ls = luaL_checkudata(L, 1, SIM_MT);
    const char *k = luaL_checkstring(L, 2);
    luaL_getmetafield(L, 1, "methods");
    if (lua_getfield(L, -1, k) != LUA_TNIL) return 1;
    sim *s = ls->s;
    if (!s) { lua_pushnil(L); return 1; }
    if (!strcmp(k, "t")) lua_pushnumber(L, sim_time(s));
    else if (!strcmp(k, "steps")) lua_pushinteger(L, sim_steps(s));
    else if (!strcmp(k, "dt")) lua_pushnumber(L, sim_dt(s));
    else if (!strcmp(k, "model")) lua_pushstring(L, sim_model(s)->def->name);
    else if (!strcmp(k, "backend")) lua_pushstring(L, sim_backend_name(s));
    else if (!strcmp(k, "precision")) lua_pushstring(L, model_precision_name(sim_precision(s)));
    else if (!strcmp(k, "layout")) { if (sim_layout(s)[0]) lua_pushstring(L, sim_layout(s)); else lua_pushnil(L); }
    else if (!strcmp(k, "tsteps")) { if (sim_tsteps(s)) lua_pushinteger(L, sim_tsteps(s)); else lua_pushnil(L); }
    else if (!strcmp(k, "multirate")) lua_pushinteger(L, sim_multirate(s) ? sim_multirate(s) : 1);
    else if (!strcmp(k, "tables")) lua_pushboolean(L, sim_tables(s));
    else if (!strcmp(k, "skip_rest")) lua_pushboolean(L, sim_skip_rest(s));
    else if (!strcmp(k, "stepped_share")) lua_pushnumber(L, sim_stepped_share(s));
    else if (!strcmp(k, "quiescent_below") || !strcmp(k, "quiescent_diffusion")) {
        double below, current;
        if (sim_quiescent(s, &below, &current)) lua_pushnumber(L, !strcmp(k, "quiescent_below") ? below : current);
        else lua_pushnil(L);
    }
    else if (!strcmp(k, "blocks")) {
        if (sim_blocks(s)[0]) lua_pushfstring(L, "%dx%dx%d", sim_blocks(s)[0], sim_blocks(s)[1], sim_blocks(s)[2]);
        else lua_pushnil(L);
    } else if (!strcmp(k, "block")) { if (sim_block(s)[0]) lua_pushfstring(L, "%dx%d", sim_block(s)[0], sim_block(s)[1]); else lua_pushnil(L); }
    else if (!strcmp(k, "stencil")) lua_pushinteger(L, sim_order(s));
    else if (!strcmp(k, "decomp")) push_decomp(L, sim_decomp(s), sim_grid(s));
    else if (!strcmp(k, "dt_max")) lua_pushnumber(L, sim_dt_max(s));
    else if (!strcmp(k, "dx_resolved") || !strcmp(k, "resolved")) {
        /* the smallest of the axes' limits (sim_resolution), and whether every axis is within its own */
        double lim[3], m = 0;
        const int bad = sim_resolution(s, lim);
        for (int a = 0; a < 3; a++) if (lim[a] > 0 && (m == 0 || lim[a] < m)) m = lim[a];
        if (m == 0) lua_pushnil(L);
        else if (k[0] == 'd') lua_pushnumber(L, m);
        else lua_pushboolean(L, bad < 0);
    }
    else if (!strcmp(k, "output_file")) lua_pushstring(L, sim_output_path(s));
    else if (!strcmp(k, "running")) lua_pushboolean(L, steer_running(s));
    else if (!strcmp(k, "members")) { if (sim_members(s)) lua_pushinteger(L, sim_members(s)); else lua_pushnil(L); }
    else if (!strcmp(k, "D")) {
        lua_createtable(L, sim_grid(s)->dim, 0);
        for (int a = 0; a < sim_grid(s)->dim; a++) { lua_pushnumber(L, sim_D(s)[a]); lua_rawseti(L, -2, a + 1); }
    } else lua_pushnil(L);
    return 1;
}

static int lsim_tostring(lua_State *L)
{
    lsim *ls = luaL_checkudata(L, 1, SIM_MT);
    if (!ls->s) { lua_pushliteral(L, "cardiac.simulation (closed)"); return 1; }
    const long left = steer_left(ls->s);
    lua_pushfstring(L, "cardiac.simulation (%s on %d cells, %s backend, t = %f ms%s%s)", sim_model(ls->s)->def->name,
                    (int)sim_grid(ls->s)->ntissue, sim_backend_name(ls->s), sim_time(ls->s),
                    left ? (steer_running(ls->s) ? ", running, " : ", paused, ") : "",
                    left ? lua_pushfstring(L, "%d steps left", (int)left) : "");
    return 1;
}

void open_simulation(lua_State *L)
{
    static const luaL_Reg methods[] = {
        {"step", lsim_step}, {"run", lsim_run}, {"get", lsim_get}, {"at", lsim_at}, {"cell", lsim_cell},
        {"field", lsim_field}, {"stats", lsim_stats}, {"set", lsim_set}, {"set_D", lsim_set_D},
        {"set_param", lsim_set_param}, {"member_D", lsim_member_D}, {"param", lsim_param}, {"param_sets", lsim_param_sets},
        {"clamp", lsim_clamp}, {"clamp_ryr", lsim_clamp_ryr}, {"add_stimulus", lsim_add_stimulus},
        {"probe", lsim_probe}, {"output", lsim_output}, {"close_output", lsim_close_output},
        {"png", lsim_png}, {"benchmark", lsim_benchmark}, {"diff", lsim_diff}, {"close", lsim_close},
        {"activation", lsim_activation}, {"checkpoint", lsim_checkpoint}, {"restore", lsim_restore},
        {"save", lsim_save}, {"start", lsim_start}, {"pause", lsim_pause}, {"wait", lsim_wait},
        {"watch", lsim_watch},
        {"tips", lsim_tips}, {"ecg", lsim_ecg}, {NULL, NULL}};
    static const luaL_Reg meta[] = {
        {"__gc", lsim_gc}, {"__close", lsim_gc}, {"__index", lsim_index}, {"__tostring", lsim_tostring}, {NULL, NULL}};
    static const luaL_Reg pmethods[] = {{"data", probe_data}, {"csv", probe_csv}, {NULL, NULL}};
    static const luaL_Reg pmeta[] = {{"__index", probe_index}, {NULL, NULL}};
    new_class(L, SIM_MT, methods, meta);
    new_class(L, PROBE_MT, pmethods, pmeta);
    open_activation(L);
    open_ecg(L);
    lua_pushcfunction(L, lsim_new);
    lua_setfield(L, -2, "simulation");
}
