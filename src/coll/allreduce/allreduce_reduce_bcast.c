/*
 * Allreduce: reduce to rank 0 by the in-order binary tree, then binomial broadcast.
 *
 * Origin:   the MPI standard's own advice to implementors (an all-reduce "can be implemented
 *           as a reduce, followed by a broadcast"); the Russian textbook's exercise 8.
 * Requires: nothing. Order-preserving: the reduction is coll_reduce_in_order_binary, which
 *           combines in rank order; every rank receives the root's bits, so all results are
 *           bitwise identical.
 * Cost:     the reduce, ≈ 2⌈lg p⌉(α + nβ + nγ) (a node of the binary tree combines two
 *           children one after the other), then the broadcast, ⌈lg p⌉(α + nβ).
 * Steps:    reduce(all -> 0, rank order kept); bcast(0 -> all, binomial tree).
 * MPI_IN_PLACE: the input is copied out of recvbuf first, since the reduce row does not
 * take MPI_IN_PLACE and recvbuf is overwritten by the reduce at rank 0.
 */
#include <stdlib.h>

#include "coll/coll_algos.h"
#include "coll/coll_util.h"

int
coll_allreduce_reduce_bcast(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                            MPI_Op op, MPI_Comm comm, const struct coll_params *params)
{
    int rc, size;
    void *input_mem = NULL;
    const void *input = sendbuf;

    rc = MPI_Comm_size(comm, &size);
    if (rc != MPI_SUCCESS)
        return rc;
    if (count == 0)
        return MPI_SUCCESS;
    if (size == 1)
        return sendbuf == MPI_IN_PLACE ? MPI_SUCCESS : coll_copy(sendbuf, recvbuf, count, datatype);

    if (sendbuf == MPI_IN_PLACE) {
        void *copy = coll_tmp_alloc(count, datatype, &input_mem);
        if (copy == NULL)
            return MPI_ERR_NO_MEM;
        rc = coll_copy(recvbuf, copy, count, datatype);
        if (rc != MPI_SUCCESS)
            goto out_free_input;
        input = copy;
    }

    rc = coll_reduce_in_order_binary(input, recvbuf, count, datatype, op, 0, comm, params);
    if (rc != MPI_SUCCESS)
        goto out_free_input;
    rc = coll_bcast_binomial(recvbuf, count, datatype, 0, comm, params);

out_free_input:
    free(input_mem);
    return rc;
}
