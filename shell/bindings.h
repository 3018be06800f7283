/* Lua bindings of the cardiac API: one file per object type. Each open
 * function adds its constructors to the `cardiac` table on top of the stack. */
#ifndef CARDIAC_BINDINGS_H
#define CARDIAC_BINDINGS_H
#include <lua.h>
#include <lauxlib.h>
#include <stddef.h>
#include "grid.h"
#include "model.h"
#include "stimulus.h"

#define MESH_MT "cardiac.mesh"
#define MODEL_MT "cardiac.model"
#define REGION_MT "cardiac.region"
#define STIMULUS_MT "cardiac.stimulus"
#define SIM_MT "cardiac.simulation"
#define PROBE_MT "cardiac.probe"
#define TRACKER_MT "cardiac.activation"
#define ECG_MT "cardiac.ecg"

void open_mesh(lua_State *L);
void open_model(lua_State *L);
void open_region(lua_State *L);
void open_stimulus(lua_State *L);
void open_simulation(lua_State *L);
void open_gpu(lua_State *L);
void open_help(lua_State *L);

struct sim;
grid *check_mesh(lua_State *L, int idx);
/* The open simulation at idx (raises when it was closed). */
struct sim *check_sim(lua_State *L, int idx);
/* Lua methods of simulation objects are named lsim_* (sim_* names the core's
 * functions). Those kept in their own files: activation maps
 * (l_activation.c; open_activation registers the tracker class) and
 * checkpoints (l_checkpoint.c). */
int lsim_activation(lua_State *L);
int lsim_checkpoint(lua_State *L);
int lsim_restore(lua_State *L);
int lsim_save(lua_State *L);         /* l_checkpoint.c: a snapshot in memory */
int lsim_tips(lua_State *L);        /* l_tips.c */
int lsim_ecg(lua_State *L);         /* l_ecg.c; open_ecg registers its class */
int lsim_set_param(lua_State *L);   /* l_interventions.c */
int lsim_param(lua_State *L);
int lsim_param_sets(lua_State *L);
int lsim_clamp(lua_State *L);
int lsim_clamp_ryr(lua_State *L);
int lsim_start(lua_State *L);       /* l_steer.c: runs in the background */
int lsim_pause(lua_State *L);
int lsim_wait(lua_State *L);
int lsim_watch(lua_State *L);
/* The state variable named at idx (V when nil); errors mention fn. */
int sim_var_arg(lua_State *L, const struct sim *s, int idx, const char *fn);
void open_ecg(lua_State *L);
void open_activation(lua_State *L);
/* Pictures of one z slice (sim:png, maps:png): reads z, scale and overwrite
 * from the options at opts; writes the slice, frees field, pushes path. */
void png_slice_options(lua_State *L, int opts, const grid *g, const char *path, const char *fn, long *z, long *scale);
void png_slice_write(lua_State *L, const char *path, float *field, const uint8_t *mask, const grid *g, long z,
                     double lo, double hi, long scale, const char *fn);
/* The decomposition over MPI ranks (l_decomp.c): cardiac.simulation's
 * options 'decomp' and 'balance' of the table at idx, the table sim.decomp
 * and mesh:decompose show, and that method. */
struct decomp;
void read_decomp(lua_State *L, int idx, const grid *g, int out[3], const char *fn);
int read_balance(lua_State *L, int idx, const char *fn);
void push_decomp(lua_State *L, const struct decomp *dc, const grid *g);
int mesh_decompose(lua_State *L);
model_inst *check_model(lua_State *L, int idx);
/* Cells of the region (or function) at idx on grid g, tissue only when
 * tissue_only (malloc'd); errors mention fn. */
size_t resolve_region(lua_State *L, int idx, const grid *g, int tissue_only, size_t **cells, const char *fn);
/* Layer k (from 0) of g along its last axis as a grid of one dimension less,
 * sharing g's mask (an ensemble's member, core/engine/members.h); raises
 * when it does not exist. */
grid layer_grid(lua_State *L, const grid *g, size_t k, const char *fn);
/* Builds a core stimulus from the stimulus object at idx on grid g. */
void build_stimulus(lua_State *L, int idx, const grid *g, stimulus *out, const char *fn);
/* Pulse timing (duration, and times or start/period/count) from the options at
 * idx; without duration, forever unless duration_required. */
void read_pulses(lua_State *L, int idx, const char *fn, int duration_required, stimulus *s);
/* Reads a 1-based cell index triple {i, j, k} or (i, j, k) arguments. */
size_t cell_from_args(lua_State *L, int first, const grid *g, const char *fn);
/* Reads a blockDS block size at idx for grid g: a number (cubes) or a list
 * of one per axis of the mesh, whole numbers >= 1; axes past g's dimension
 * get 1. Errors name key and fn. */
void read_block_size(lua_State *L, int idx, const grid *g, int out[3], const char *key, const char *fn);
/* Sets model parameters from the table at idx into m; errors mention fn. */
void apply_params(lua_State *L, int idx, model_inst *m, const char *fn);
/* Registers a metatable with methods (and __index = methods). */
void new_class(lua_State *L, const char *name, const luaL_Reg *methods, const luaL_Reg *meta);

/* Set from the SIGINT handler; sim:run stops at the next step boundary. */
extern volatile int cardiac_interrupted;

#endif
