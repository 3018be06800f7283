/* What the rest of the program may read of a simulation, one function per
 * field: the shell sees `sim` as an opaque type (shell/CMakeLists.txt defines
 * CARDIAC_SIM_OPAQUE), so that the core can change its layout freely. */
#include "sim.h"

double sim_time(const sim *s) { return s->t0 + s->nstep * s->dt; }
const grid *sim_grid(const sim *s) { return &s->g; }
const model_inst *sim_model(const sim *s) { return &s->m; }
const double *sim_D(const sim *s) { return s->D; }
double sim_dt(const sim *s) { return s->dt; }
int sim_order(const sim *s) { return s->order; }
int sim_fp64(const sim *s) { return s->fp64; }
const char *sim_layout(const sim *s) { return s->layout; }
int sim_tsteps(const sim *s) { return s->tsteps; }
int sim_multirate(const sim *s) { return s->multirate; }
int sim_tables(const sim *s) { return s->tables != NULL; }
int sim_skip_rest(const sim *s) { return !s->rest_every_cell; }
double sim_stepped_share(sim *s) { return s->be->stepped_share ? s->be->stepped_share(s) : 1.0; }
int sim_quiescent(const sim *s, double *below, double *current)
{
    if (below) *below = s->quiet_below;
    if (current) *current = s->quiet_diffusion;
    return s->quiescent;
}
const int *sim_block(const sim *s) { return s->block; }
const int *sim_blocks(const sim *s) { return s->blocks; }
long sim_steps(const sim *s) { return s->nstep; }
const decomp *sim_decomp(const sim *s) { return &s->dc; }
const stencil *sim_stencil(const sim *s) { return &s->st; }
const char *sim_backend_name(const sim *s) { return s->be->name; }
int sim_failed(const sim *s) { return s->failed; }
const char *sim_error(const sim *s) { return s->error; }
long sim_bad_cell(const sim *s) { return s->bad_cell; }
long sim_bad_step(const sim *s) { return s->bad_step; }
size_t sim_nprobes(const sim *s) { return s->nprobes; }
probe *sim_probe_at(const sim *s, size_t q) { return q < s->nprobes ? s->probes[q] : NULL; }
size_t sim_necgs(const sim *s) { return s->necgs; }
const multiscale *sim_multiscale(const sim *s) { return s->ms; }

void sim_adopt_cell_type(sim *s, const model_inst *m)
{
    s->m.rest = m->rest;
    s->m.preset = m->preset;
}
