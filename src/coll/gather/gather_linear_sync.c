/*
 * Gather: linear with synchronisation (the root invites each rank in turn with an empty
 * message; the rank sends a small first segment, then the rest of its block).
 *
 * Origin:   Open MPI's ompi_coll_base_gather_intra_linear_sync (coll_tuned gather algorithm 3,
 *           "linear_sync"; first segments of 1024 or 32768 bytes in the fixed decision).
 *           Keeping one rank's first segment in flight at a time spares the root a burst of
 *           unexpected messages; the rest of every block arrives into posted receives.
 * Requires: nothing (no op, any root). Handles MPI_IN_PLACE: sendbuf == MPI_IN_PLACE at the
 *           root means its block is already in place in recvbuf (sendcount and sendtype are
 *           then ignored).
 * Params:   segment_bytes: the first segment is segment_bytes / type size whole items of
 *           each side's own type (at least one, at most the block; the row's default is the
 *           registry's 65536, Open MPI's fixed decision takes 1024 or 32768). As in Open
 *           MPI, the first segment must end on an item of both the sender's and the root's
 *           type (true whenever both types have the same size, or segment_bytes is a
 *           multiple of both sizes).
 * Cost:     b the bytes of one block, f those of its first segment: per rank, the invitation
 *           and the first segment one after the other, the rests overlapping:
 *           (p-1)(2α + fβ) + (p-1)(b - f)β at the root, roughly.
 * Steps:    for i = 0 … p-1 but the root, in order, the root posts the receive of i's first
 *           segment, sends i an empty message, posts the receive of the rest of i's block,
 *           and waits for the first segment; then it copies its own block and waits for all
 *           the rests. Rank i waits for the invitation, sends its first segment, then its
 *           rest. A block of zero bytes moves nothing at all (every block has the same bytes,
 *           so all ranks agree), and an empty rest is not sent.
 *
 * recvbuf, recvcount and recvtype are read at the root only.
 */
#include <stdlib.h>

#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_blocks.h"
#include "coll/coll_util.h"

enum { TAG_GATHER_SYNC = 0, TAG_GATHER_FIRST = 1, TAG_GATHER_REST = 2 };

#define FIRST_SEGMENT_DEFAULT 65536 /* the registry row's */

/* Items of the first segment of a block of `count` items of `type`. */
static int
first_items(int count, MPI_Datatype type, const struct coll_params *params)
{
    int tsize = 0, bytes = params != NULL && params->segment_bytes > 0 ? params->segment_bytes
                                                                        : FIRST_SEGMENT_DEFAULT;
    MPI_Type_size(type, &tsize);
    int items = tsize > 0 ? bytes / tsize : count;
    if (items < 1)
        items = 1;
    return items < count ? items : count;
}

int
coll_gather_linear_sync(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                        int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                        const struct coll_params *params)
{
    struct coll_blocks own = coll_blocks_uniform(sendbuf, sendcount, sendtype);
    struct coll_blocks blocks = coll_blocks_uniform(recvbuf, recvcount, recvtype);
    int rc, rank, size, empty, first, nreq = 0, wrc;
    MPI_Request *reqs;

    rc = coll_rank_size(comm, &rank, &size);
    if (rc != MPI_SUCCESS)
        return rc;

    if (rank != root) {
        rc = coll_block_is_empty(&own, 0, &empty);
        if (rc != MPI_SUCCESS || empty)
            return rc;
        first = first_items(sendcount, sendtype, params);
        rc = MPI_Recv(NULL, 0, MPI_BYTE, root, TAG_GATHER_SYNC, comm, MPI_STATUS_IGNORE);
        if (rc == MPI_SUCCESS)
            rc = MPI_Send(sendbuf, first, sendtype, root, TAG_GATHER_FIRST, comm);
        if (rc == MPI_SUCCESS && sendcount > first)
            rc = MPI_Send(coll_citem(sendbuf, first, sendtype), sendcount - first, sendtype, root,
                          TAG_GATHER_REST, comm);
        return rc;
    }

    rc = coll_block_is_empty(&blocks, 0, &empty);
    if (rc != MPI_SUCCESS || empty)
        return rc;
    first = first_items(recvcount, recvtype, params);
    reqs = malloc(sizeof *reqs * (size_t)size);
    if (reqs == NULL)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < size && rc == MPI_SUCCESS; i++) {
        MPI_Request first_req;
        char *block;
        if (i == root)
            continue;
        block = coll_block_at(&blocks, i);
        rc = MPI_Irecv(block, first, recvtype, i, TAG_GATHER_FIRST, comm, &first_req);
        if (rc != MPI_SUCCESS)
            break;
        rc = MPI_Send(NULL, 0, MPI_BYTE, i, TAG_GATHER_SYNC, comm);
        if (rc == MPI_SUCCESS && recvcount > first)
            rc = MPI_Irecv(coll_item(block, first, recvtype), recvcount - first, recvtype, i,
                           TAG_GATHER_REST, comm, &reqs[nreq++]);
        /* the first segment's receive is waited for even after a failure: no request leaks */
        wrc = MPI_Wait(&first_req, MPI_STATUS_IGNORE);
        if (rc == MPI_SUCCESS)
            rc = wrc;
    }
    if (rc == MPI_SUCCESS)
        rc = coll_block_copy(&own, 0, &blocks, root);
    wrc = MPI_Waitall(nreq, reqs, MPI_STATUSES_IGNORE);
    free(reqs);
    return rc != MPI_SUCCESS ? rc : wrc;
}
