/* HDF5 round trip: frames, time, probes and run attributes written by the
 * output module read back equal to the simulation state; XDMF lists every
 * frame; existing files are protected; an unwritable path is refused; an
 * interrupted run leaves a readable file. */
#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check.h"
#include "output.h"
#include "region.h"
#include "sim.h"

static sim *make_sim(void)
{
    int n[3] = {20, 10, 1};
    double h[3] = {0.2, 0.2, 1};
    char err[256];
    grid g;
    grid_init(&g, 2, n, h, err, sizeof err);
    g.mask[grid_index(&g, 19, 9, 0)] = 0;
    grid_recount(&g);
    model_inst m;
    model_init(&m, model_find("karma"));
    sim_config cfg = {.backend = "cpu", .order = 2, .dt = 0.05, .D = {0.1, 0.1, 0.1}};
    sim *s = sim_create(&g, &m, &cfg, err, sizeof err);
    grid_free(&g);
    float *U = calloc(s->g.ncells, sizeof *U);
    for (int i = 0; i < 4; i++) for (int j = 0; j < 10; j++) U[grid_index(&s->g, i, j, 0)] = 3.0f;
    s->be->set_field(s, 0, U);
    free(U);
    return s;
}

static int count_substr(const char *path, const char *needle)
{
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    char line[1024];
    int n = 0;
    while (fgets(line, sizeof line, f)) n += strstr(line, needle) != NULL;
    fclose(f);
    return n;
}

int main(void)
{
    const char *path = "roundtrip_test.h5";
    unlink(path);
    unlink("roundtrip_test.xmf");   /* a sidecar left by an earlier run would be refused too */
    char err[512];
    sim *s = make_sim();
    size_t cells[2] = {grid_index(&s->g, 0, 0, 0), grid_index(&s->g, 10, 5, 0)};
    int pv[2] = {0, 1};
    sim_add_probe(s, "p", cells, 2, pv, 2, 1);
    int vars[2] = {0, 1};
    h5out_config cfg = {path, vars, 2, 5, 0, "-- test script", "test_output.c"};
    s->out = h5out_open(&cfg, s, err, sizeof err);
    CHECK(s->out != NULL, "open: %s", err);
    CHECK(sim_advance(s, 20, NULL, NULL, NULL, err, sizeof err) == 0, "advance: %s", err);
    float *at20 = malloc(s->g.ncells * sizeof *at20);
    s->be->get_field(s, 0, at20);
    CHECK(sim_advance(s, 3, NULL, NULL, NULL, err, sizeof err) == 0, "advance: %s", err);
    volatile int stop = 1;
    CHECK(sim_advance(s, 100, &stop, NULL, NULL, err, sizeof err) == 1 && s->nstep == 23,
          "an interrupt stops at a step boundary (step %ld)", s->nstep);
    sim_destroy(s);   /* closes the file */

    double *d;
    long dims[8];
    int rank;
    long n = h5_read_dataset(path, "/fields/U", &d, dims, &rank, err, sizeof err);
    CHECK(n == 5 * 10 * 20 && rank == 4 && dims[0] == 5 && dims[2] == 10 && dims[3] == 20,
          "fields/U has 5 frames of 1 x 10 x 20 (n = %ld)", n);
    int same = 1;
    for (size_t c = 0; c < 200 && n == 1000; c++) same &= (float)d[4 * 200 + c] == at20[c];
    CHECK(same, "frame 4 equals the state at step 20");
    free(d);
    n = h5_read_dataset(path, "/time", &d, dims, &rank, err, sizeof err);
    CHECK(n == 5 && d[1] == 0.25 && d[4] == 1.0, "time = 0, 0.25, ..., 1.0 ms");
    free(d);
    n = h5_read_dataset(path, "/probes/p/time", &d, dims, &rank, err, sizeof err);
    CHECK(n == 24, "probe sampled 24 times (steps 0..23), got %ld", n);
    free(d);
    n = h5_read_dataset(path, "/probes/p/U", &d, dims, &rank, err, sizeof err);
    CHECK(n == 48 && (float)d[40] == at20[cells[0]] && (float)d[41] == at20[cells[1]], "probe U at step 20 equals the field");
    free(d);
    n = h5_read_dataset(path, "/mesh/mask", &d, dims, &rank, err, sizeof err);
    CHECK(n == 200 && d[199] == 0 && d[0] == 1, "mask stored");
    free(d);

    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    char buf[256] = "";
    hid_t a = H5Aopen(f, "model", H5P_DEFAULT);
    hid_t t = H5Aget_type(a);
    H5Aread(a, t, buf);
    CHECK(!strcmp(buf, "karma"), "attribute model = '%s'", buf);
    H5Tclose(t); H5Aclose(a);
    double dt = 0;
    a = H5Aopen(f, "dt_ms", H5P_DEFAULT);
    H5Aread(a, H5T_NATIVE_DOUBLE, &dt);
    H5Aclose(a);
    CHECK(dt == 0.05, "attribute dt_ms = %g", dt);
    CHECK(H5Aexists(f, "script") > 0 && H5Aexists(f, "program") > 0 && H5Aexists(f, "dx_mm") > 0,
          "script, program and dx attributes present");
    hid_t g = H5Gopen2(f, "model", H5P_DEFAULT);
    double eps = 0;
    a = H5Aopen(g, "eps", H5P_DEFAULT);
    H5Aread(a, H5T_NATIVE_DOUBLE, &eps);
    H5Aclose(a); H5Gclose(g); H5Fclose(f);
    CHECK(fabs(eps - 0.01) < 1e-9, "model parameter eps = %g", eps);
    CHECK(count_substr("roundtrip_test.xmf", "<Grid Name=\"frame") == 5, "XDMF lists 5 frames");

    s = make_sim();
    CHECK(h5out_open(&cfg, s, err, sizeof err) == NULL && strstr(err, "exists"), "existing file refused: %s", err);
    h5out_config bad = cfg;
    bad.path = "/proc/cardiac-no-such-dir/x.h5";
    CHECK(h5out_open(&bad, s, err, sizeof err) == NULL && strstr(err, "/proc/cardiac-no-such-dir"), "unwritable path refused: %s", err);
    sim_destroy(s);
    free(at20);

    /* a script over HDF5's 64 KB attribute limit: kept whole in the dataset
     * /script, the attribute saying so (it was lost silently) */
    const char *big_path = "big_script_test.h5";
    unlink(big_path);
    unlink("big_script_test.xmf");
    size_t big_len = 100000;
    char *big = malloc(big_len + 1);
    for (size_t q = 0; q < big_len; q++) big[q] = q % 80 == 79 ? '\n' : "-- padding "[q % 11];
    big[big_len] = 0;
    s = make_sim();
    h5out_config bcfg = {big_path, vars, 2, 5, 0, big, "big.lua"};
    s->out = h5out_open(&bcfg, s, err, sizeof err);
    CHECK(s->out != NULL, "open with a 100 KB script: %s", err);
    sim_destroy(s);
    f = H5Fopen(big_path, H5F_ACC_RDONLY, H5P_DEFAULT);
    char note[128] = "";
    a = H5Aopen(f, "script", H5P_DEFAULT);
    t = H5Aget_type(a);
    if (H5Tget_size(t) < sizeof note) H5Aread(a, t, note);
    H5Tclose(t); H5Aclose(a);
    CHECK(strstr(note, "100000 bytes") && strstr(note, "/script"), "the attribute points to the dataset: '%s'", note);
    hid_t ds = H5Dopen2(f, "script", H5P_DEFAULT);
    t = ds < 0 ? -1 : H5Dget_type(ds);
    char *back = calloc(big_len + 2, 1);
    if (ds >= 0 && H5Tget_size(t) == big_len + 1) H5Dread(ds, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, back);
    CHECK(ds >= 0 && !strcmp(back, big), "the dataset /script holds the whole script");
    if (ds >= 0) { H5Tclose(t); H5Dclose(ds); }
    H5Fclose(f);
    free(back); free(big);
    unlink(big_path);
    unlink("big_script_test.xmf");
    return check_summary();
}
