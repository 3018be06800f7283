/* cardiac: the command-line entry point.
 *   cardiac                  interactive shell (REPL)
 *   cardiac script.lua a b   runs a script with arg = {[0] = "script.lua", "a", "b"}
 *   cardiac -e CODE          runs CODE;  -i: REPL after the script;  --version, --help */
#include <errno.h>
#include <lauxlib.h>
#include <lualib.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bindings.h"
#include "fpenv.h"
#include "par.h"
#include "shell.h"
#include "steer.h"
#include "terminal.h"
#include "version.h"

volatile int cardiac_interrupted = 0;
static lua_State *globalL;
static char rank_error[2048];   /* the last error of a rank other than 0 */
static const char *progname = "cardiac";

static void stop_hook(lua_State *L, lua_Debug *ar)
{
    (void)ar;
    lua_sethook(L, NULL, 0, 0);
    cardiac_interrupted = 0;
    luaL_error(L, "interrupted!");
}

/* Ctrl-C: a running simulation stops at its next step boundary (it polls the
 * flag); Lua code stops at its next instruction through a hook, as in `lua`. */
static void on_sigint(int sig)
{
    signal(sig, SIG_DFL);  /* a second Ctrl-C kills the process */
    cardiac_interrupted = 1;
    lua_sethook(globalL, stop_hook, LUA_MASKCALL | LUA_MASKRET | LUA_MASKCOUNT, 1);
}

/* os.exit as the standalone `lua` has it, and under mpirun a clean end: a
 * successful exit finalizes MPI (exiting without it made mpirun report the
 * job as failed), a failing one aborts the whole job (the other ranks could
 * otherwise wait for this one forever). */
static int os_exit(lua_State *L)
{
    int status;
    if (lua_isboolean(L, 1)) status = lua_toboolean(L, 1) ? EXIT_SUCCESS : EXIT_FAILURE;
    else status = (int)luaL_optinteger(L, 1, EXIT_SUCCESS);
    if (lua_toboolean(L, 2)) lua_close(L);
    fflush(stdout);
    fflush(stderr);
    if (status != EXIT_SUCCESS && par_size() > 1) par_abort(status);
    par_finalize();
    exit(status);
}

static int traceback(lua_State *L)
{
    const char *msg = lua_tostring(L, 1);
    if (!msg) {
        if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING) return 1;
        msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    }
    luaL_traceback(L, L, msg, 1);
    return 1;
}

int shell_call(lua_State *L, int nargs, int nresults)
{
    int base = lua_gettop(L) - nargs;
    lua_pushcfunction(L, traceback);
    lua_insert(L, base);
    globalL = L;
    cardiac_interrupted = 0;
    signal(SIGINT, on_sigint);
    int status = lua_pcall(L, nargs, nresults, base);
    signal(SIGINT, SIG_DFL);
    lua_sethook(L, NULL, 0, 0);
    cardiac_interrupted = 0;
    lua_remove(L, base);
    return status;
}

void shell_report(lua_State *L, int status)
{
    if (status == LUA_OK) return;
    const char *msg = lua_tostring(L, -1);
    if (par_rank() > 0)   /* rank 0 reports the errors all ranks share; main() prints a rank's own */
        snprintf(rank_error, sizeof rank_error, "%s", msg ? msg : "(error object is not a string)");
    else
        fprintf(stderr, "%s: %s\n", progname, msg ? msg : "(error object is not a string)");
    fflush(stderr);
    lua_pop(L, 1);
}

static void usage(FILE *f)
{
    fprintf(f,
        "usage: cardiac [options] [script [args]]\n"
        "  -e CODE     run CODE (may be repeated)\n"
        "  -i          enter the interactive shell after running the script\n"
        "  -v, --version  print the version and exit\n"
        "  -h, --help     print this help and exit\n"
        "  --          stop handling options\n"
        "  -           run standard input as a script\n"
        "With no script, cardiac starts the interactive shell (or runs standard input\n"
        "as a script when it is not a terminal). In the shell, help() lists the API.\n"
        "Documentation: docs/user-guide.md\n");
}

static void set_paths(lua_State *L)
{
    /* The Lua library (scripts/): CARDIAC_PATH first, then where it lies
     * relative to the executable (installed: <prefix>/bin/cardiac with
     * <prefix>/share/cardiac/scripts; built: a build folder beside scripts/),
     * then the source tree it was built from (a build folder elsewhere). */
    char exe[4096] = "";
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = 0;
        char *slash = strrchr(exe, '/');
        if (slash) *slash = 0;
    }
    lua_getglobal(L, "package");
    const char *extra = getenv("CARDIAC_PATH");
    lua_getfield(L, -1, "path");
    lua_pushfstring(L, "%s%s%s/../share/cardiac/scripts/?.lua;%s/../scripts/?.lua;%s/scripts/?.lua;%s",
                    extra ? extra : "", extra ? ";" : "", exe, exe, CARDIAC_SOURCE_DIR, lua_tostring(L, -1));
    lua_setfield(L, -3, "path");
    lua_pop(L, 2);
}

static int run_chunk(lua_State *L, int status)
{
    if (status == LUA_OK) status = shell_call(L, 0, 0);
    shell_report(L, status);
    return status;
}

static int run_script(lua_State *L, const char *path, char **argv, int argc, int first_arg)
{
    /* the script text goes into every HDF5 file it writes */
    /* under MPI rank 0 reads the script (a file or standard input, which only
       rank 0 receives) and broadcasts it */
    int ok = 1;
    char why[256] = "";
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    if (par_rank() == 0) {
        FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
        if (!f) snprintf(why, sizeof why, "%s", strerror(errno));
        if (f) {
            char buf[4096];
            size_t n;
            while ((n = fread(buf, 1, sizeof buf, f)) > 0) luaL_addlstring(&b, buf, n);
            /* a folder opens, but reads fail (EISDIR): not a script */
            if (ferror(f)) { snprintf(why, sizeof why, "%s", strerror(errno)); ok = 0; }
            if (f != stdin) fclose(f);
        }
        ok = ok && f != NULL;
    }
    luaL_pushresult(&b);
    par_bcast(&ok, sizeof ok);
    if (!ok) {
        if (par_rank() == 0) fprintf(stderr, "%s: cannot read %s: %s\n", progname, path, why);
        return LUA_ERRFILE;
    }
    if (par_size() > 1) {
        size_t len0 = 0;
        const char *t0 = lua_tolstring(L, -1, &len0);
        long long len = (long long)len0;
        par_bcast(&len, sizeof len);
        char *tb = malloc((size_t)len + 1);
        if (par_rank() == 0) memcpy(tb, t0, (size_t)len);
        par_bcast(tb, (size_t)len);
        lua_pop(L, 1);
        lua_pushlstring(L, tb, (size_t)len);
        free(tb);
    }
    size_t len;
    const char *text = lua_tolstring(L, -1, &len);
    lua_pushvalue(L, -1);
    lua_setfield(L, LUA_REGISTRYINDEX, "cardiac.script");
    lua_pushstring(L, path);
    lua_setfield(L, LUA_REGISTRYINDEX, "cardiac.script_name");
    /* skip a #! line, keeping line numbers */
    const char *src = text;
    if (len > 1 && src[0] == '#') { while (*src && *src != '\n') src++; }
    char chunkname[4200];
    snprintf(chunkname, sizeof chunkname, "@%s", strcmp(path, "-") ? path : "stdin");
    int status = luaL_loadbuffer(L, src, len - (size_t)(src - text), chunkname);
    lua_remove(L, -2);
    if (status != LUA_OK) { shell_report(L, status); return status; }
    for (int i = first_arg; i < argc; i++) lua_pushstring(L, argv[i]);
    status = shell_call(L, argc - first_arg, 0);
    shell_report(L, status);
    return status;
}

static void make_arg_table(lua_State *L, char **argv, int argc, int script)
{
    lua_createtable(L, argc - script, script + 1);
    for (int i = 0; i < argc; i++) {
        lua_pushstring(L, argv[i]);
        lua_rawseti(L, -2, i - script);
    }
    lua_setglobal(L, "arg");
}

/* Threads that wait at a step's barrier sleep instead of spinning: on a
 * machine with other work a spinning thread burns the time slice its
 * descheduled partner needs (a 512^2 Karma sheet, 2 threads, beside one busy
 * process on 2 cores: 13.5 s spinning, 10.8 s sleeping, 10.9 s on one thread;
 * alone, 5.23 and 5.39 s). OpenMP runtimes read their wait policy when they
 * load, before main, so the process starts once more with
 * OMP_WAIT_POLICY=passive, unless the user chose a policy. Loops too small
 * to gain from threads run on one (core/engine/threads.h). */
static void passive_openmp(char **argv)
{
    if (getenv("OMP_WAIT_POLICY") || getenv("GOMP_SPINCOUNT")) return;
    if (setenv("OMP_WAIT_POLICY", "passive", 1) != 0) return;
    execv("/proc/self/exe", argv);   /* on failure the runtime's default policy stays */
}

int main(int argc, char **argv)
{
    passive_openmp(argv);
    fpenv_flush_denormals();   /* before any thread starts: they inherit it */
    if (par_init(&argc, &argv) != 0) return 1;
    /* SPMD: every rank runs the script; what it prints comes from rank 0 */
    if (par_rank() > 0 && !freopen("/dev/null", "w", stdout)) return 1;
    int interactive = 0, script = 0, nexec = 0;
    for (int i = 1; i < argc && !script; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-v") || !strcmp(a, "--version")) {
            printf("cardiac %s (%s)\n", CARDIAC_VERSION, LUA_RELEASE);
            par_finalize();
            return 0;
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            par_finalize();
            return 0;
        } else if (!strcmp(a, "-i")) interactive = 1;
        else if (!strcmp(a, "-e")) {
            if (++i >= argc) { fprintf(stderr, "%s: '-e' needs an argument\n", progname); usage(stderr); return 1; }
            nexec++;
        } else if (!strcmp(a, "--")) { if (i + 1 < argc) script = i + 1; break; }
        else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "%s: unrecognized option '%s'\n", progname, a);
            usage(stderr);
            return 1;
        } else script = i;
    }
    lua_State *L = luaL_newstate();
    if (!L) { fprintf(stderr, "%s: cannot create the Lua state\n", progname); return 1; }
    globalL = L;
    luaL_openlibs(L);
    lua_getglobal(L, "os");
    lua_pushcfunction(L, os_exit);
    lua_setfield(L, -2, "exit");
    lua_pop(L, 1);
    luaL_requiref(L, "cardiac", luaopen_cardiac, 1);
    lua_pop(L, 1);
    set_paths(L);
    make_arg_table(L, argv, argc, script ? script : 0);

    int status = LUA_OK;
    int last = script ? script : argc;
    int tty = par_rank() == 0 && terminal_available();
    par_bcast(&tty, sizeof tty);   /* rank 0's terminal decides for all */
    for (int i = 1; i < last && status == LUA_OK; i++) {
        if (strcmp(argv[i], "-e")) continue;
        const char *code = argv[++i];
        status = run_chunk(L, luaL_loadbuffer(L, code, strlen(code), "=(command line)"));
    }
    if (status == LUA_OK && script) status = run_script(L, argv[script], argv, argc, script + 1);
    if (status == LUA_OK && !script && !nexec && !interactive && !tty)
        status = run_script(L, "-", argv, argc, argc);
    if (status == LUA_OK && (interactive || (!script && !nexec && tty))) shell_repl(L, interactive);
    else if (status == LUA_OK) steer_finish(L);   /* a script's started runs end before the shell does */
    /* Under MPI an error that stopped every rank (bad input, Ctrl-C) ends the
       job cleanly: output files are closed together. An error on some ranks
       only ends the job after 5 s (when the others did not arrive), with that
       rank's message: the others would wait for it forever. */
    if (status != LUA_OK && par_size() > 1 && !par_all_arrive(5.0)) {
        if (par_rank() > 0) fprintf(stderr, "%s [rank %d]: %s\n", progname, par_rank(), rank_error);
        par_abort(1);
    }
    lua_close(L);  /* closes simulations and their output files */
    par_finalize();
    return status == LUA_OK ? 0 : 1;
}
