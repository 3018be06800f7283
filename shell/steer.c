/* Started runs (shell/steer.h): the list, the slices, and the REPL's idle
 * protocol under MPI. */
#include <lauxlib.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "args.h"
#include "bindings.h"
#include "par.h"
#include "sim.h"
#include "steer.h"

#define SLICE_S 0.025     /* wall seconds of stepping between looks at the keyboard */
#define STARTED "cardiac.started"   /* registry table: sim -> its userdata, while it runs */

typedef struct {
    sim *s;
    long left;          /* steps still to take */
    int running;        /* 0: paused with steps left */
    double rate;        /* steps per wall second, measured (rank 0) */
    double wall0;       /* when it started or resumed */
    long steps0;        /* its step count then */
} run;

static run *runs;
static size_t nruns, capruns;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static run *find(const sim *s)
{
    for (size_t i = 0; i < nruns; i++)
        if (runs[i].s == s) return &runs[i];
    return NULL;
}

/* A running simulation stays alive while it runs, even with no variable
 * naming it: the registry holds its userdata. */
static void hold(lua_State *L, sim *s, int idx)
{
    idx = idx ? lua_absindex(L, idx) : 0;
    if (lua_getfield(L, LUA_REGISTRYINDEX, STARTED) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_newtable(L);
        lua_pushvalue(L, -1);
        lua_setfield(L, LUA_REGISTRYINDEX, STARTED);
    }
    lua_pushlightuserdata(L, s);
    if (idx) lua_pushvalue(L, idx); else lua_pushnil(L);
    lua_rawset(L, -3);
    lua_pop(L, 1);
}

/* The run leaves the list (at the next compact) and its simulation may be
 * collected again. */
static void drop(lua_State *L, run *r)
{
    r->running = 0;
    r->left = 0;
    hold(L, r->s, 0);
}

static void compact(void)
{
    size_t j = 0;
    for (size_t i = 0; i < nruns; i++)
        if (runs[i].left > 0) runs[j++] = runs[i];
    nruns = j;
}

int steer_running(const sim *s)
{
    const run *r = find(s);
    return r && r->running;
}

long steer_left(const sim *s)
{
    const run *r = find(s);
    return r ? r->left : 0;
}

int steer_count(void)
{
    int n = 0;
    for (size_t i = 0; i < nruns; i++) n += runs[i].running;
    return n;
}

void steer_start(lua_State *L, int idx, sim *s, long nsteps, const char *fn)
{
    run *r = find(s);
    if (r && r->running)
        cardiac_error(L, "%s: the simulation is already running (%ld steps left); sim:wait() or sim:pause() first",
                      fn, r->left);
    if (nsteps < 0 && !r)
        cardiac_error(L, "%s: nothing to resume; give a duration in ms", fn);
    if (nsteps == 0) return;
    if (!r) {
        if (nruns == capruns) {
            capruns = capruns ? 2 * capruns : 8;
            runs = realloc(runs, capruns * sizeof *runs);
        }
        r = &runs[nruns++];
        memset(r, 0, sizeof *r);
        r->s = s;
    }
    if (nsteps > 0) r->left = nsteps;   /* a new duration replaces what a pause left */
    r->running = 1;
    r->wall0 = now_s();
    r->steps0 = sim_steps(s);
    hold(L, s, idx);
}

int steer_pause(sim *s)
{
    run *r = find(s);
    if (!r || !r->running) return 0;
    r->running = 0;
    sim_output_flush(s, 0);
    return 1;
}

void steer_forget(lua_State *L, sim *s)
{
    run *r = find(s);
    if (r) { drop(L, r); compact(); }
}

void steer_pause_all(int verbose)
{
    for (size_t i = 0; i < nruns; i++) {
        if (!runs[i].running) continue;
        steer_pause(runs[i].s);
        if (verbose && par_rank() == 0)
            fprintf(stderr, "[cardiac] paused at t = %g ms, %ld steps left; sim:start() resumes\n",
                    sim_time(runs[i].s), runs[i].left);
    }
}

/* ---- slices ------------------------------------------------------------- */

/* Rank 0 sizes every running run's slice (steps), from its measured rate,
 * so that one round of slices takes about SLICE_S; under MPI the plan is
 * broadcast, so every rank takes the same steps. plan[i] belongs to runs[i]
 * (0: not running). Returns the number of runs planned. */
static size_t plan_slices(long **plan)
{
    const size_t n = nruns;   /* the same on every rank: starts and pauses are collective */
    static long *p;
    static size_t cap;
    if (n > cap) { cap = n; p = realloc(p, cap * sizeof *p); }
    int active = steer_count();
    for (size_t i = 0; par_rank() == 0 && i < n; i++) {
        const run *r = &runs[i];
        long k = 0;
        if (r->running) {
            k = r->rate > 0 ? (long)(r->rate * SLICE_S / (active ? active : 1)) : 1;
            if (k < 1) k = 1;
            if (k > r->left) k = r->left;
        }
        p[i] = k;
    }
    if (n) par_bcast(p, n * sizeof *p);
    *plan = p;
    return n;
}

/* What a round of slices tells: a run ended or failed (which stops it). */
typedef void (*report_fn)(sim *s, const char *msg, steer_event ev);

/* Errors of runs nobody waits for go to stderr, from rank 0. */
static void report_errors(sim *s, const char *msg, steer_event ev)
{
    (void)s;
    if (ev == STEER_FAILED && par_rank() == 0) fprintf(stderr, "cardiac: %s\n", msg);
}

/* One round of slices. */
static void round_of_slices(lua_State *L, report_fn report)
{
    long *plan;
    size_t n = plan_slices(&plan);
    for (size_t i = 0; i < n; i++) {
        run *r = &runs[i];
        if (!plan[i]) continue;
        char err[512], msg[768];
        const long before = sim_steps(r->s);
        const double t0 = now_s();
        int rc = sim_advance(r->s, plan[i], NULL, NULL, NULL, err, sizeof err);
        const long done = sim_steps(r->s) - before;
        const double el = now_s() - t0;
        if (done > 0 && el > 0) r->rate = done / el;
        r->left -= done;
        const double now = now_s();
        if (rc < 0) {
            snprintf(msg, sizeof msg, "simulation stopped at t = %g ms: %s", sim_time(r->s), err);
            sim_output_flush(r->s, 1);
            drop(L, r);
            report(r->s, msg, STEER_FAILED);
        } else if (r->left <= 0) {
            sim_output_flush(r->s, 0);
            snprintf(msg, sizeof msg, "simulation reached t = %g ms (%ld steps in %.2f s)", sim_time(r->s),
                     sim_steps(r->s) - r->steps0, now - r->wall0);
            drop(L, r);
            report(r->s, msg, STEER_ENDED);
        }   /* while it runs, each output frame flushes the file as it is written (h5out_frame) */
    }
    compact();
}

/* Ctrl-C on any rank (collective). */
static int any_interrupt(void)
{
    int f = cardiac_interrupted;
    par_max_ints(&f, 1);
    cardiac_interrupted = 0;
    return f;
}

/* sim:wait raises its own run's error; other runs' errors go to stderr. */
static sim *waited;
static char waited_error[768];
static void keep_error(sim *s, const char *msg, steer_event ev)
{
    if (ev == STEER_FAILED && s == waited) snprintf(waited_error, sizeof waited_error, "%s", msg);
    else report_errors(s, msg, ev);
}

void steer_wait(lua_State *L, sim *s, const char *fn)
{
    for (;;) {
        run *r = find(s);
        if (!r || !r->running) return;
        if (any_interrupt()) {
            steer_pause_all(0);
            lua_sethook(L, NULL, 0, 0);   /* this error, not the Ctrl-C hook's bare one */
            cardiac_error(L, "%s: interrupted at t = %g ms; the run is paused and sim:start() resumes it", fn,
                          sim_time(s));
        }
        waited = s;
        waited_error[0] = 0;
        round_of_slices(L, keep_error);
        waited = NULL;
        r = find(s);
        if (!r && waited_error[0]) cardiac_error(L, "%s: %s", fn, waited_error);
        if (!r || !r->running) return;   /* ended or paused */
    }
}

static void on_sigint(int sig)
{
    (void)sig;
    cardiac_interrupted = 1;
}

void steer_finish(lua_State *L)
{
    if (!steer_count()) return;
    void (*old)(int) = signal(SIGINT, on_sigint);
    while (steer_count()) {
        if (any_interrupt()) {
            steer_pause_all(1);
            break;
        }
        round_of_slices(L, report_errors);
    }
    signal(SIGINT, old);
}

/* ---- the REPL's idle time ----------------------------------------------- */

enum { H_SLICE, H_PAUSE, H_LINE, H_EOF };

typedef struct { int kind; int pad; long long len; } header;

void steer_send_line(const char *line)
{
    if (par_size() == 1) return;
    header h = {line ? H_LINE : H_EOF, 0, line ? (long long)strlen(line) : 0};
    par_bcast(&h, sizeof h);
    if (line) par_bcast((void *)line, (size_t)h.len + 1);
}

static const steer_input *current;
static void notify_rank0(sim *s, const char *msg, steer_event ev)
{
    (void)s;
    if (par_rank() == 0 && current && current->notify) current->notify(msg, ev);
}

int steer_idle(lua_State *L, const steer_input *in, char **line)
{
    current = in;
    for (;;) {
        header h = {H_SLICE, 0, 0};
        if (par_rank() == 0) {
            const int busy = steer_count() > 0;
            if (in->interrupted()) {
                if (!busy) return 2;
                h.kind = H_PAUSE;
            } else if (in->input_ready(busy ? 0.0 : -1.0)) {
                return 1;
            } else if (!busy) {
                continue;   /* a signal woke the wait */
            }
        }
        if (par_size() > 1) par_bcast(&h, sizeof h);
        if (h.kind == H_LINE || h.kind == H_EOF) {
            *line = NULL;
            if (h.kind == H_LINE) {
                *line = malloc((size_t)h.len + 1);
                par_bcast(*line, (size_t)h.len + 1);
            }
            return 0;
        }
        if (h.kind == H_PAUSE) {
            for (size_t i = 0; i < nruns; i++) {
                if (!steer_pause(runs[i].s)) continue;
                char msg[256];
                snprintf(msg, sizeof msg, "paused at t = %g ms, %ld steps left; sim:start() resumes",
                         sim_time(runs[i].s), runs[i].left);
                notify_rank0(runs[i].s, msg, STEER_PAUSED);
            }
        }
        else round_of_slices(L, notify_rank0);
    }
}
