/* The cardiac executable: a Lua 5.4 interpreter with the cardiac module. */
#ifndef CARDIAC_SHELL_H
#define CARDIAC_SHELL_H
#include <lua.h>

int luaopen_cardiac(lua_State *L);

/* Runs the function on top of the stack with a traceback handler and SIGINT
 * handling; returns the Lua status (message left on the stack on error). */
int shell_call(lua_State *L, int nargs, int nresults);
/* Prints the message on top of the stack to stderr with the program name. */
void shell_report(lua_State *L, int status);
/* The interactive loop (readline on a terminal, plain lines otherwise;
 * forced: -i was given, which under mpirun shows prompts without a terminal). */
void shell_repl(lua_State *L, int forced);

#endif
