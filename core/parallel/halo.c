/* Halo exchange (core/parallel/halo.h): host buffers, one MPI_Sendrecv per face. */
#include <mpi.h>
#include <stdlib.h>
#include "halo.h"
#include "sim.h"

/* The `layers` layers starting at local index l0 along axis a of the stored grid. */
static halo_face face_of(const grid *lg, int a, int l0, int layers)
{
    const size_t n0 = lg->n[0], n1 = lg->n[1], n2 = lg->n[2];
    halo_face f;
    if (a == 2) f = (halo_face){l0 * n0 * n1, layers * n0 * n1, 1, 0};
    else if (a == 1) f = (halo_face){l0 * n0, layers * n0, n2, n0 * n1};
    else f = (halo_face){(size_t)l0, (size_t)layers, n1 * n2, n0};
    return f;
}

void halo_faces(const sim *s, int a, int d, halo_face *send, halo_face *recv)
{
    const decomp *dc = &s->dc;
    const int g = dc->ghost, olo = dc->lo[a] - dc->slo[a], ohi = dc->hi[a] - dc->slo[a];
    *send = face_of(&s->lg, a, d == 0 ? olo : ohi - g, g);
    *recv = face_of(&s->lg, a, d == 0 ? ohi : olo - g, g);
}

static int grow(sim *s, size_t bytes)
{
    if (bytes <= s->halo_cap) return 0;
    for (int q = 0; q < 2; q++) {
        s->be->host_free(s->halo_buf[q]);
        s->halo_buf[q] = s->be->host_alloc(bytes);
        if (!s->halo_buf[q]) {
            sim_fail(s, "out of memory allocating %zu bytes of halo buffers", bytes);
            return -1;
        }
    }
    s->halo_cap = bytes;
    return 0;
}

int halo_exchange(sim *s, const int *vars, int nvars)
{
    const decomp *dc = &s->dc;
    /* one rank, or the whole grid on rank 0 (whole_on_0, no communicator): no neighbours */
    if (dc->nranks < 2 || !dc->comm || s->halo_off || s->failed) return s->failed ? -1 : 0;
    const MPI_Comm comm = *(MPI_Comm *)dc->comm;
    const size_t esize = s->fp64 ? sizeof(double) : sizeof(float);
    const MPI_Datatype type = s->fp64 ? MPI_DOUBLE : MPI_FLOAT;
    for (int a = 0; a < 3; a++) {
        if (dc->dims[a] < 2) continue;
        for (int d = 0; d < 2; d++) {
            const int to = dc->nbr[a][d], from = dc->nbr[a][1 - d];
            halo_face send, recv;
            halo_faces(s, a, d, &send, &recv);
            const size_t count = send.blocklen * send.nblocks;
            if (grow(s, count * esize) != 0) return -1;
            for (int q = 0; q < nvars; q++) {
                if (to >= 0) s->be->face_copy(s, vars[q], &send, s->halo_buf[0], 1);
                MPI_Sendrecv(s->halo_buf[0], to >= 0 ? (int)count : 0, type, to >= 0 ? to : MPI_PROC_NULL, 2 * a + d,
                             s->halo_buf[1], from >= 0 ? (int)count : 0, type, from >= 0 ? from : MPI_PROC_NULL,
                             2 * a + d, comm, MPI_STATUS_IGNORE);
                if (from >= 0) s->be->face_copy(s, vars[q], &recv, s->halo_buf[1], 0);
            }
        }
    }
    return s->failed ? -1 : 0;
}

void halo_free(sim *s)
{
    for (int q = 0; q < 2; q++) {
        if (s->be && s->be->host_free) s->be->host_free(s->halo_buf[q]);
        s->halo_buf[q] = NULL;
    }
    s->halo_cap = 0;
}
