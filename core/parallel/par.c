/* The process group of a run (core/parallel/par.h), over MPI_COMM_WORLD. */
#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "par.h"

static int active, rank, size = 1, local_rank;

static int launched_by_mpi(void)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE",
                                       "MPI_LOCALNRANKS", "SLURM_STEP_NUM_TASKS", NULL};
    for (int q = 0; vars[q]; q++)
        if (getenv(vars[q])) return 1;
    return 0;
}

int par_init(int *argc, char ***argv)
{
    if (!launched_by_mpi()) return 0;
    int provided;
    if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
        fprintf(stderr, "cardiac: MPI_Init failed\n");
        return -1;
    }
    active = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &local_rank);
    MPI_Comm_free(&node);
    return 0;
}

void par_finalize(void)
{
    if (active) MPI_Finalize();
    active = 0;
}

int par_active(void) { return active; }
int par_rank(void) { return rank; }
int par_size(void) { return size; }
int par_local_rank(void) { return local_rank; }

void par_abort(int code)
{
    fflush(stdout);
    fflush(stderr);
    if (active && size > 1) MPI_Abort(MPI_COMM_WORLD, code);
    par_finalize();
    exit(code);
}

void par_max_doubles(double *v, int n)
{
    if (active) MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
}

void par_sum_floats(float *v, size_t n)
{
    for (size_t done = 0; active && done < n; done += INT_MAX / 2) {
        size_t part = n - done < INT_MAX / 2 ? n - done : INT_MAX / 2;
        MPI_Allreduce(MPI_IN_PLACE, v + done, (int)part, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    }
}

void par_sum_doubles(double *v, int n)
{
    if (active) MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

void par_or_bytes(void *v, size_t n)
{
    for (size_t done = 0; active && done < n; done += INT_MAX / 2) {
        size_t part = n - done < INT_MAX / 2 ? n - done : INT_MAX / 2;
        MPI_Allreduce(MPI_IN_PLACE, (unsigned char *)v + done, (int)part, MPI_BYTE, MPI_BOR, MPI_COMM_WORLD);
    }
}

void par_min_longs(long *v, int n)
{
    if (active) MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_LONG, MPI_MIN, MPI_COMM_WORLD);
}

void par_max_ints(int *v, int n)
{
    if (active) MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
}

void par_bcast(void *buf, size_t bytes)
{
    if (active) MPI_Bcast(buf, (int)bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
}

void par_bcast_from(int root, void *buf, size_t bytes)
{
    if (active) MPI_Bcast(buf, (int)bytes, MPI_BYTE, root, MPI_COMM_WORLD);
}

int par_all_arrive(double seconds)
{
    if (!active || size == 1) return 1;
    MPI_Request req;
    MPI_Ibarrier(MPI_COMM_WORLD, &req);
    const double end = MPI_Wtime() + seconds;
    int done = 0;
    while (!done && MPI_Wtime() < end) {
        MPI_Test(&req, &done, MPI_STATUS_IGNORE);
        if (!done) nanosleep(&(struct timespec){0, 1000000}, NULL);
    }
    return done;
}

void *par_allgather(const void *mine, size_t bytes, size_t *total)
{
    if (!active || size == 1) {
        void *all = malloc(bytes ? bytes : 1);
        if (all) memcpy(all, mine, bytes);
        *total = bytes;
        return all;
    }
    int n = (int)bytes, *counts = malloc(size * sizeof *counts), *displs = malloc(size * sizeof *displs);
    if (!counts || !displs || bytes > INT_MAX) { free(counts); free(displs); return NULL; }
    MPI_Allgather(&n, 1, MPI_INT, counts, 1, MPI_INT, MPI_COMM_WORLD);
    size_t sum = 0;
    for (int r = 0; r < size; r++) { displs[r] = (int)sum; sum += (size_t)counts[r]; }
    char *all = sum <= INT_MAX ? malloc(sum ? sum : 1) : NULL;
    int ok = all != NULL, every = 0;
    MPI_Allreduce(&ok, &every, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (every) MPI_Allgatherv(mine, n, MPI_BYTE, all, counts, displs, MPI_BYTE, MPI_COMM_WORLD);
    free(counts);
    free(displs);
    if (!every) { free(all); return NULL; }
    *total = sum;
    return all;
}
