/* Checking of Lua option tables: every error names the function and the key. */
#ifndef CARDIAC_ARGS_H
#define CARDIAC_ARGS_H
#include <lua.h>

/* Raises "fn: expected a table of options" unless arg idx is a table. */
void args_table(lua_State *L, int idx, const char *fn);
/* Raises for any string key of table idx not in keys (NULL-terminated). */
void args_known_keys(lua_State *L, int idx, const char *fn, const char *const keys[]);
/* Pushes t[key]; returns 0 (and pops) when nil. */
int args_field(lua_State *L, int idx, const char *key);
/* Number at t[key]: def when absent and !required; raises on wrong type. */
double args_number(lua_State *L, int idx, const char *fn, const char *key, double def, int required);
double args_positive(lua_State *L, int idx, const char *fn, const char *key, double def, int required);
long args_integer(lua_State *L, int idx, const char *fn, const char *key, long def, int required, long min);
int args_boolean(lua_State *L, int idx, const char *fn, const char *key, int def);
const char *args_string(lua_State *L, int idx, const char *fn, const char *key, const char *def, int required);
/* Reads a number or a list of up to n numbers at t[key] into out (a single number fills all).
 * Returns how many were given (0 when absent and !required). */
int args_vector(lua_State *L, int idx, const char *fn, const char *key, double *out, int n, int required);
/* t.precision: "fp32" (default), "fp64" or "mixed" -> PRECISION_* (core/models/model.h);
 * raises on anything else, and args_model_precision on "mixed" for a model
 * without a mixed step. */
int args_precision(lua_State *L, int idx, const char *fn);
struct model_def;
int args_model_precision(lua_State *L, int idx, const char *fn, const struct model_def *d);
/* Type name of the value at idx, with the cardiac type for userdata. */
const char *args_typename(lua_State *L, int idx);

/* Pushes and returns "a, b, c": n strings found every stride bytes from first
 * (a field of an array of structs, or a plain array of strings). */
const char *args_join(lua_State *L, const char *const *first, size_t stride, int n);
/* Raises an error (fn: the message's prefix) unless `what` may write path
 * (and its sidecar, or NULL) by the rule of every writer (core/io/output_paths.h):
 * rank 0 decides and creates the folder, every rank raises alike. */
void args_writable(lua_State *L, const char *path, const char *sidecar, int overwrite, const char *what,
                   const char *fn);

/* luaL_error with full printf formatting (%g, %ld, ...): position, message, raise. */
int cardiac_error(lua_State *L, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#endif
