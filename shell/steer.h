/* Started runs: simulations that step in the background while the prompt
 * stays live (sim:start), paused (sim:pause, Ctrl-C) and waited for
 * (sim:wait).
 *
 * "Background" is the shell's idle time: while the REPL waits for a key, it
 * steps every started run in slices of about 25 ms of wall time and looks
 * for input between slices. A line typed is therefore evaluated whole at
 * one step boundary, in the order typed, and under mpirun every rank
 * evaluates it at the same boundary, because rank 0 decides each slice and
 * broadcasts it (steer_idle). The state, the kernels and the features are
 * those of sim:run; stepping in slices gives the same values bit for bit. */
#ifndef CARDIAC_STEER_H
#define CARDIAC_STEER_H
#include <lua.h>

struct sim;

/* Starts sim (at stack index idx) for nsteps more steps, or with nsteps < 0
 * resumes its paused run. Raises (naming fn) when it runs already or has
 * nothing to resume. */
void steer_start(lua_State *L, int idx, struct sim *s, long nsteps, const char *fn);
/* Pauses a started run at the current step boundary; 1 if it was running. */
int steer_pause(struct sim *s);
/* Steps every started run until s's run ends (or s is paused); Ctrl-C
 * pauses them all and raises "interrupted". Pushes nothing. */
void steer_wait(lua_State *L, struct sim *s, const char *fn);
/* 1 while s steps in the background; its steps left (0 if none). */
int steer_running(const struct sim *s);
long steer_left(const struct sim *s);
/* s is being closed: it leaves the started runs. */
void steer_forget(lua_State *L, struct sim *s);
/* How many runs are stepping. */
int steer_count(void);
/* Pauses every started run; prints where each stopped when verbose. */
void steer_pause_all(int verbose);

/* The REPL's wait for input, collective under MPI. On rank 0, input_ready()
 * says whether a key or line is there (it may block for up to wait_s
 * seconds when nothing runs); interrupted() whether Ctrl-C came (and clears
 * it). Steps slices while nothing is ready; returns 1 when rank 0 has
 * input to read, 0 on the other ranks when rank 0 sent a line (received into
 * *line, malloc'd; NULL at end of input). Rank 0 sends its line with
 * steer_send_line. */
typedef enum { STEER_ENDED, STEER_PAUSED, STEER_FAILED } steer_event;
typedef struct {
    int (*input_ready)(double wait_s);
    int (*interrupted)(void);
    void (*notify)(const char *msg, steer_event ev);   /* a run ended, paused or failed */
} steer_input;
int steer_idle(lua_State *L, const steer_input *in, char **line);
void steer_send_line(const char *line);

/* At the end of a script or of the REPL: waits for every started run
 * (Ctrl-C pauses them and returns). */
void steer_finish(lua_State *L);

#endif
