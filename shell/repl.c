/* The interactive loop, modelled on the standalone `lua`: expressions are
 * printed, incomplete statements continue on ">>" lines, errors are reported
 * and the session goes on. On a terminal it uses readline with a history file
 * (~/.cardiac_history) and tab completion of globals, fields and methods. */
#include <lauxlib.h>
#include <poll.h>
#include <signal.h>
#include <readline/history.h>
#include <readline/readline.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "par.h"
#include "shell.h"
#include "steer.h"
#include "terminal.h"

#define PROMPT1 "> "
#define PROMPT2 ">> "

static lua_State *replL;
static int tty;       /* rank 0 reads a terminal through readline */
static int prompts;   /* plain lines with prompts (-i under mpirun without a terminal) */

/* ---- completion ---------------------------------------------------------- */

static char **cands;
static size_t ncands, capcands;

static void add_cand(const char *prefix, const char *sep, const char *key)
{
    if (ncands == capcands) cands = realloc(cands, (capcands = capcands ? 2 * capcands : 64) * sizeof *cands);
    size_t n = strlen(prefix) + strlen(sep) + strlen(key) + 1;
    cands[ncands] = malloc(n);
    snprintf(cands[ncands++], n, "%s%s%s", prefix, sep, key);
}

/* Adds the string keys of the table on top of the stack that start with part. */
static void keys_of(lua_State *L, const char *prefix, const char *sep, const char *part, int functions_only)
{
    if (!lua_istable(L, -1)) return;
    lua_pushnil(L);
    while (lua_next(L, -2)) {
        if (lua_type(L, -2) == LUA_TSTRING && (!functions_only || lua_isfunction(L, -1))) {
            const char *k = lua_tostring(L, -2);
            if (!strncmp(k, part, strlen(part))) add_cand(prefix, sep, k);
        }
        lua_pop(L, 1);
    }
}

static void collect(const char *text)
{
    lua_State *L = replL;
    int top = lua_gettop(L);
    for (size_t i = 0; i < ncands; i++) free(cands[i]);
    ncands = 0;
    const char *sep = NULL;
    for (const char *p = text; *p; p++)
        if (*p == '.' || *p == ':') sep = p;
    if (!sep) {
        static const char *const kw[] = {"and", "break", "do", "else", "elseif", "end", "false", "for", "function",
            "goto", "if", "in", "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while", NULL};
        for (int i = 0; kw[i]; i++)
            if (!strncmp(kw[i], text, strlen(text))) add_cand("", "", kw[i]);
        lua_pushglobaltable(L);
        keys_of(L, "", "", text, 0);
        lua_settop(L, top);
        return;
    }
    /* walk the dotted path before the last separator from the globals */
    char path[256];
    size_t plen = (size_t)(sep - text);
    if (plen >= sizeof path) return;
    memcpy(path, text, plen);
    path[plen] = 0;
    lua_pushglobaltable(L);
    for (char *tok = strtok(path, ".:"); tok; tok = strtok(NULL, ".:")) {
        if (!lua_istable(L, -1) && !lua_isuserdata(L, -1)) { lua_settop(L, top); return; }
        if (lua_istable(L, -1)) lua_rawget(L, (lua_pushstring(L, tok), -2));
        else if (luaL_getmetafield(L, -1, "methods") != LUA_TNIL) {
            lua_getfield(L, -1, tok);
            if (lua_isnil(L, -1)) { lua_settop(L, top); return; }
        } else { lua_settop(L, top); return; }
    }
    char prefix[256];
    memcpy(prefix, text, plen);
    prefix[plen] = 0;
    char sepstr[2] = {*sep, 0};
    int fonly = *sep == ':';
    if (lua_istable(L, -1)) keys_of(L, prefix, sepstr, sep + 1, fonly);
    if (luaL_getmetafield(L, -1, "methods") != LUA_TNIL) keys_of(L, prefix, sepstr, sep + 1, 0);
    else if (luaL_getmetafield(L, -1, "__index") == LUA_TTABLE) keys_of(L, prefix, sepstr, sep + 1, fonly);
    lua_settop(L, top);
}

static char *generator(const char *text, int state)
{
    static size_t next;
    if (!state) { collect(text); next = 0; }
    return next < ncands ? strdup(cands[next++]) : NULL;
}

static char **complete(const char *text, int start, int end)
{
    (void)start; (void)end;
    rl_completion_append_character = '\0';
    rl_attempted_completion_over = 1;
    return rl_completion_matches(text, generator);
}

/* ---- reading and evaluating ---------------------------------------------- */

/* Reading a line while started runs step (shell/steer.h): steer_idle
 * steps them until a key or a line is there. On a terminal, readline's
 * callback interface takes the keys one at a time, so the line being typed
 * stays editable while the runs step; otherwise lines come from a buffer
 * over standard input. */

static volatile sig_atomic_t sigint_seen;
static void on_sigint_flag(int sig) { (void)sig; sigint_seen = 1; }
static int interrupted(void) { int s = sigint_seen; sigint_seen = 0; return s; }

static int fd_ready(int fd, double wait_s)
{
    struct pollfd p = {fd, POLLIN, 0};
    return poll(&p, 1, wait_s < 0 ? -1 : (int)(wait_s * 1000)) > 0;
}

/* ---- a terminal, through readline ---- */

static char *line_read;
static int line_done;
static void on_line(char *line)
{
    line_read = line;
    line_done = 1;
    rl_callback_handler_remove();
}

static int tty_ready(double wait_s) { return fd_ready(fileno(rl_instream), wait_s); }

/* A run ended or failed: its line goes above the prompt and the line being
 * typed is drawn again below it. */
static void tty_notify(const char *msg, steer_event ev)
{
    rl_clear_visible_line();
    fflush(rl_outstream);   /* the cleared line before the message, which goes to stderr */
    fprintf(stderr, "[cardiac] %s%s\n", ev == STEER_FAILED ? "error: " : "", msg);
    fflush(stderr);
    rl_forced_update_display();
}

static const steer_input tty_input = {tty_ready, interrupted, tty_notify};

static char *read_tty_line(const char *prompt)
{
    line_done = 0;
    line_read = NULL;
    rl_callback_handler_install(prompt, on_line);
    while (!line_done) {
        char *unused;
        int r = steer_idle(replL, &tty_input, &unused);
        if (r == 1) rl_callback_read_char();
        else if (r == 2) {
            /* Ctrl-C with nothing running clears the line, as a shell does
             * (the session and its simulations stay) */
            rl_free_line_state();
            rl_callback_sigcleanup();
            rl_crlf();
            rl_on_new_line();
            rl_replace_line("", 0);
            rl_redisplay();
        }
    }
    return line_read;
}

/* ---- plain lines (a pipe, a file) ---- */

/* Standard input is unbuffered here (shell_repl), so that poll sees every
 * byte not yet read and Lua's io.read, on the same FILE, reads on where the
 * REPL's line ended, as with the standalone lua. */
static int plain_ready(double wait_s) { return fd_ready(0, wait_s); }

/* Without a terminal nobody waits for "reached": pauses and errors only. */
static void plain_notify(const char *msg, steer_event ev)
{
    if (ev == STEER_FAILED) fprintf(stderr, "cardiac: %s\n", msg);
    else if (ev == STEER_PAUSED) fprintf(stderr, "[cardiac] %s\n", msg);
}

static const steer_input plain_input = {plain_ready, interrupted, plain_notify};

static char *read_plain_line(const char *prompt)
{
    if (prompts) { fputs(prompt, stdout); fflush(stdout); }
    for (;;) {
        char *unused;
        int r = steer_idle(replL, &plain_input, &unused);
        if (r == 2) {   /* Ctrl-C with nothing running: as before steering, it ends the process */
            signal(SIGINT, SIG_DFL);
            raise(SIGINT);
        }
        if (r != 1) continue;
        char *line = NULL;
        size_t cap = 0;
        ssize_t n = getline(&line, &cap, stdin);
        if (n < 0) { free(line); return NULL; }
        if (n > 0 && line[n - 1] == '\n') line[n - 1] = 0;
        return line;
    }
}

/* Under MPI rank 0 reads each line and every rank evaluates it, at the same
 * step boundary of every started run (steer_idle). */
static char *read_line(const char *prompt)
{
    signal(SIGINT, on_sigint_flag);
    char *line;
    if (par_rank() == 0) {
        line = tty ? read_tty_line(prompt) : read_plain_line(prompt);
        steer_send_line(line);
    } else {
        while (steer_idle(replL, &plain_input, &line) != 0) {}
    }
    signal(SIGINT, SIG_DFL);
    return line;
}

static int incomplete(lua_State *L, int status)
{
    if (status != LUA_ERRSYNTAX) return 0;
    size_t len;
    const char *msg = lua_tolstring(L, -1, &len);
    if (len >= 5 && !strcmp(msg + len - 5, "<eof>")) { lua_pop(L, 1); return 1; }
    return 0;
}

/* Compiles one input unit, reading continuation lines while it is incomplete. */
static int load_input(lua_State *L, char *line, char **chunk_out)
{
    size_t n = strlen(line);
    char *ret = malloc(n + 8);
    snprintf(ret, n + 8, "return %s", line);
    int status = luaL_loadbuffer(L, ret, strlen(ret), "=stdin");
    free(ret);
    if (status == LUA_OK) { *chunk_out = line; return status; }
    lua_pop(L, 1);
    char *chunk = line;
    for (;;) {
        status = luaL_loadbuffer(L, chunk, strlen(chunk), "=stdin");
        if (!incomplete(L, status)) break;
        char *more = read_line(PROMPT2);
        if (!more) break;
        size_t a = strlen(chunk), b = strlen(more);
        chunk = realloc(chunk, a + b + 2);
        chunk[a] = '\n';
        memcpy(chunk + a + 1, more, b + 1);
        free(more);
    }
    *chunk_out = chunk;
    return status;
}

static void print_results(lua_State *L, int base)
{
    int n = lua_gettop(L) - base;
    if (n <= 0) return;
    luaL_checkstack(L, LUA_MINSTACK, "too many results to print");
    lua_getglobal(L, "print");
    lua_insert(L, base + 1);
    if (lua_pcall(L, n, 0, 0) != LUA_OK) shell_report(L, LUA_ERRRUN);
}

static char *history_path(void)
{
    const char *home = getenv("HOME");
    if (!home) return NULL;
    size_t n = strlen(home) + 32;
    char *p = malloc(n);
    snprintf(p, n, "%s/.cardiac_history", home);
    return p;
}

void shell_repl(lua_State *L, int forced)
{
    replL = L;
    FILE *term = par_rank() == 0 ? terminal_take() : NULL;
    tty = term != NULL;
    par_bcast(&tty, sizeof tty);        /* rank 0 holds the terminal */
    prompts = !tty && forced && par_size() > 1;
    if (!tty && par_rank() == 0) setvbuf(stdin, NULL, _IONBF, 0);   /* read_plain_line */
    char *hist = tty && par_rank() == 0 ? history_path() : NULL;
    if (tty && par_rank() == 0) {
        rl_instream = term;
        rl_outstream = term == stdin ? stdout : term;
        rl_catch_signals = 0;   /* Ctrl-C pauses started runs (read_line's handler) */
        rl_readline_name = "cardiac";
        rl_basic_word_break_characters = " \t\n\"\\'><=;+-*/%^~#{}()[],";
        rl_attempted_completion_function = complete;
        using_history();
        stifle_history(2000);
        if (hist) {
            read_history(hist);
            if (access(hist, F_OK) != 0) write_history(hist);   /* append_history needs the file */
        }
        printf("%s  --  help() for the API, Ctrl-D to leave\n", LUA_COPYRIGHT);
        lua_getglobal(L, "cardiac");
        lua_getfield(L, -1, "version");
        printf("%s\n", lua_tostring(L, -1));
        lua_pop(L, 2);
    }
    char *line;
    while ((line = read_line(PROMPT1)) != NULL) {
        int base = lua_gettop(L);
        char *chunk;
        int status = load_input(L, line, &chunk);
        if (tty && *chunk) {
            add_history(chunk);
            if (hist) append_history(1, hist);   /* kept even if the session is killed */
        }
        free(chunk);
        if (status == LUA_OK) status = shell_call(L, 0, LUA_MULTRET);
        if (status == LUA_OK) print_results(L, base);
        else shell_report(L, status);
        lua_settop(L, base);
        fflush(stdout);
    }
    if (tty && par_rank() == 0) {
        putchar('\n');
        if (hist) write_history(hist);   /* the last 2,000 lines (stifle_history) */
    }
    free(hist);
    if (tty && par_rank() == 0 && steer_count())
        fprintf(stderr, "[cardiac] waiting for %d started run(s) to end; Ctrl-C pauses them\n", steer_count());
    steer_finish(L);
    if (par_rank() == 0) terminal_release();
}
