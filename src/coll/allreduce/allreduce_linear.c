/*
 * Allreduce: linear reduce to rank 0, then linear broadcast from rank 0 (Open MPI's
 * "basic_linear").
 *
 * Origin:   Open MPI coll/base ompi_coll_base_allreduce_intra_basic_linear (its basic linear
 *           reduce to rank 0, then its basic linear bcast).
 * Requires: nothing. Order-preserving: the reduce is coll_reduce_linear, whose root folds
 *           x_0 ∘ (x_1 ∘ (… ∘ x_{P-1})); every rank then receives rank 0's bits, so all results
 *           are bitwise identical. Handles MPI_IN_PLACE (rank 0 passes it to the reduce, the
 *           others send what recvbuf holds).
 * Cost:     (P-1)(α + nβ + nγ) into rank 0, then (P-1)(α + nβ) out of it: 2(P-1)α +
 *           2(P-1)nβ + (P-1)nγ, all of it on rank 0's link.
 * Steps (P = 4):
 *
 *     reduce:  1 -> 0, 2 -> 0, 3 -> 0;  0 folds x0 ∘ (x1 ∘ (x2 ∘ x3))
 *     bcast:   0 -> 1, 0 -> 2, 0 -> 3
 */
#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_algos.h"
#include "coll/coll_util.h"

int
coll_allreduce_linear(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                      MPI_Op op, MPI_Comm comm, const struct coll_params *params)
{
    int rank, size, rc = MPI_Comm_size(comm, &size);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = MPI_Comm_rank(comm, &rank);
    if (rc != MPI_SUCCESS || count == 0)
        return rc;
    if (size == 1)
        return sendbuf == MPI_IN_PLACE ? MPI_SUCCESS : coll_copy(sendbuf, recvbuf, count, datatype);

    /* In place: rank 0's reduce takes MPI_IN_PLACE; the others' contribution is in recvbuf,
     * which the reduce does not touch outside its root. */
    const void *input = sendbuf == MPI_IN_PLACE && rank != 0 ? recvbuf : sendbuf;
    rc = coll_reduce_linear(input, recvbuf, count, datatype, op, 0, comm, params);
    if (rc != MPI_SUCCESS)
        return rc;
    return coll_bcast_linear(recvbuf, count, datatype, 0, comm, params);
}
