/*
 * coll_fold.c — the pieces that several reduction algorithms run exactly alike (see
 * coll_fold.h). Standard MPI calls and libc only. Invariant: a helper makes the same MPI calls
 * in the same order, with the same peers, tags and counts, and applies the op to the same
 * operands in the same order, as the code it replaced in each of its callers.
 */
#include <limits.h>
#include <stdlib.h>

#include "coll_fold.h"
#include "coll_tree.h"
#include "coll_util.h"

int
coll_fold_equal_blocks(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype,
                       MPI_Op op, MPI_Comm comm, const struct coll_params *params,
                       coll_reduce_scatter_fn *reduce_scatter)
{
    int size, rc;
    int *recvcounts;

    rc = MPI_Comm_size(comm, &size);
    if (rc != MPI_SUCCESS)
        return rc;
    if (recvcount > 0 && size > INT_MAX / recvcount)
        return MPI_ERR_COUNT;
    recvcounts = malloc(sizeof *recvcounts * (size_t)size);
    if (recvcounts == NULL)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < size; i++)
        recvcounts[i] = recvcount;
    rc = reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm, params);
    free(recvcounts);
    return rc;
}

int
coll_fold_block_displs(const int recvcounts[], MPI_Comm comm, int *rank, int *size, int **displs,
                       int *total)
{
    long long sum = 0;
    int rc;

    *displs = NULL;
    *total = 0;
    rc = MPI_Comm_rank(comm, rank);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = MPI_Comm_size(comm, size);
    if (rc != MPI_SUCCESS)
        return rc;
    *displs = malloc(sizeof **displs * (size_t)*size);
    if (*displs == NULL)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < *size; i++) {
        (*displs)[i] = (int)sum;
        sum += recvcounts[i];
        if (sum > INT_MAX) {
            free(*displs);
            *displs = NULL;
            return MPI_ERR_COUNT;
        }
    }
    *total = (int)sum;
    return MPI_SUCCESS;
}

int
coll_fold_working_copy(const void *input, int total, int incoming_count, MPI_Datatype datatype,
                       void **work, void **work_mem, void **incoming, void **incoming_mem)
{
    *work = coll_tmp_alloc(total, datatype, work_mem);
    *incoming = coll_tmp_alloc(incoming_count, datatype, incoming_mem);
    if (*work == NULL || *incoming == NULL)
        return MPI_ERR_NO_MEM;
    return coll_copy(input, *work, total, datatype);
}

int
coll_fold_start(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Comm comm,
                int *rank, int *size)
{
    int rc = coll_tree_ranks(comm, 0, rank, size, NULL);
    if (rc != MPI_SUCCESS)
        return rc;
    if (sendbuf != MPI_IN_PLACE)
        return coll_copy(sendbuf, recvbuf, count, datatype);
    return MPI_SUCCESS;
}

int
coll_fold_start_scratch(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                        MPI_Comm comm, int *rank, int *size, void **scratch, void **scratch_mem)
{
    int rc = coll_fold_start(sendbuf, recvbuf, count, datatype, comm, rank, size);

    *scratch = *scratch_mem = NULL;
    if (rc != MPI_SUCCESS || count == 0 || *size == 1)
        return rc;
    *scratch = coll_tmp_alloc(count, datatype, scratch_mem);
    return *scratch == NULL ? MPI_ERR_NO_MEM : MPI_SUCCESS;
}

int
coll_fold_pof2_in(void *buf, void *tmp, int count, MPI_Datatype datatype, MPI_Op op, int rank,
                  int rem, int tag, MPI_Comm comm, int *newrank)
{
    int rc;

    if (rank >= 2 * rem) {
        *newrank = rank - rem;
        return MPI_SUCCESS;
    }
    if (rank % 2 == 0) {
        *newrank = -1;
        return MPI_Send(buf, count, datatype, rank + 1, tag, comm);
    }
    *newrank = rank / 2;
    rc = MPI_Recv(tmp, count, datatype, rank - 1, tag, comm, MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS)
        return rc;
    return MPI_Reduce_local(tmp, buf, count, datatype, op);
}

int
coll_fold_survivor(int newrank, int rem)
{
    return newrank < rem ? 2 * newrank + 1 : newrank + rem;
}

int
coll_fold_pof2_out(const void *send, void *recv, int count, MPI_Datatype datatype, int rank,
                   int rem, int tag, MPI_Comm comm)
{
    if (rank >= 2 * rem || count == 0)
        return MPI_SUCCESS;
    if (rank % 2 != 0)
        return MPI_Send(send, count, datatype, rank - 1, tag, comm);
    return MPI_Recv(recv, count, datatype, rank + 1, tag, comm, MPI_STATUS_IGNORE);
}

int
coll_fold_pof2_allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                         MPI_Op op, MPI_Comm comm, int tag_fold, int tag_unfold,
                         coll_fold_survivors_fn *survivors)
{
    struct coll_fold_pof2 f = {
        .recvbuf = recvbuf, .count = count, .datatype = datatype, .op = op, .comm = comm};
    void *scratch_mem;
    int rc = coll_fold_start_scratch(sendbuf, recvbuf, count, datatype, comm, &f.rank, &f.size,
                                     &f.scratch, &scratch_mem);

    if (rc != MPI_SUCCESS || count == 0 || f.size == 1)
        return rc;
    f.pof2 = coll_pof2_floor(f.size);
    f.rem = f.size - f.pof2;
    rc = coll_fold_pof2_in(recvbuf, f.scratch, count, datatype, op, f.rank, f.rem, tag_fold, comm,
                           &f.newrank);
    if (rc == MPI_SUCCESS && f.newrank >= 0)
        rc = survivors(&f);
    if (rc == MPI_SUCCESS)
        rc = coll_fold_pof2_out(recvbuf, recvbuf, count, datatype, f.rank, f.rem, tag_unfold, comm);
    free(scratch_mem);
    return rc;
}

int
coll_fold_block_start(int count, int n, int b)
{
    int q = count / n, r = count % n;
    return b * q + (b < r ? b : r);
}

/* Items of block b of that layout. */
static int
block_len(int count, int n, int b)
{
    return count / n + (b < count % n ? 1 : 0);
}

int
coll_fold_even_blocks(int count, int n, int **counts, int **displs)
{
    *counts = malloc(sizeof **counts * 2 * (size_t)n);
    if (*counts == NULL)
        return MPI_ERR_NO_MEM;
    *displs = *counts + n;
    for (int b = 0; b < n; b++) {
        (*counts)[b] = block_len(count, n, b);
        (*displs)[b] = coll_fold_block_start(count, n, b);
    }
    return MPI_SUCCESS;
}

int
coll_fold_ring_pass(void *buf, const int counts[], const int displs[], int first, void *tmp,
                    MPI_Datatype datatype, MPI_Op op, int rank, int size, int tag, MPI_Comm comm)
{
    int left = (rank - 1 + size) % size, right = (rank + 1) % size;

    for (int k = 0; k < size - 1; k++) {
        int sb = ((first - k) % size + size) % size;
        int rb = ((first - k - 1) % size + size) % size;
        void *own = coll_item(buf, displs[rb], datatype);
        int rc = MPI_Sendrecv(coll_item(buf, displs[sb], datatype), counts[sb], datatype, right,
                              tag, tmp != NULL ? tmp : own, counts[rb], datatype, left, tag, comm,
                              MPI_STATUS_IGNORE);
        if (rc == MPI_SUCCESS && tmp != NULL)
            rc = MPI_Reduce_local(tmp, own, counts[rb], datatype, op);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

int
coll_fold_prefix_doubling(const void *input, void *recvbuf, int count, MPI_Datatype datatype,
                          MPI_Op op, int inclusive, int tag, MPI_Comm comm)
{
    int rank, size, rc, have_result = inclusive;
    void *partial, *partial_mem = NULL, *incoming, *incoming_mem = NULL;

    rc = MPI_Comm_rank(comm, &rank);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = MPI_Comm_size(comm, &size);
    if (rc != MPI_SUCCESS || count == 0 || size == 1)
        return rc;

    partial = coll_tmp_alloc(count, datatype, &partial_mem);
    incoming = coll_tmp_alloc(count, datatype, &incoming_mem);
    if (partial == NULL || incoming == NULL) {
        rc = MPI_ERR_NO_MEM;
        goto out_free;
    }
    /* In place, the contribution is read before recvbuf receives its first result. */
    rc = coll_copy(input, partial, count, datatype);
    if (rc != MPI_SUCCESS)
        goto out_free;

    for (int mask = 1; mask < size; mask <<= 1) {
        int dst = rank ^ mask;
        if (dst >= size)
            continue;
        rc = MPI_Sendrecv(partial, count, datatype, dst, tag, incoming, count, datatype, dst, tag,
                          comm, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS)
            goto out_free;
        if (dst < rank) {
            rc = MPI_Reduce_local(incoming, partial, count, datatype, op);
            if (rc == MPI_SUCCESS && have_result)
                rc = MPI_Reduce_local(incoming, recvbuf, count, datatype, op);
            else if (rc == MPI_SUCCESS)
                rc = coll_copy(incoming, recvbuf, count, datatype);
            have_result = 1;
        } else {
            /* partial ∘ incoming lands in incoming, which then becomes the partial */
            rc = MPI_Reduce_local(partial, incoming, count, datatype, op);
            void *swap = partial;
            partial = incoming;
            incoming = swap;
        }
        if (rc != MPI_SUCCESS)
            goto out_free;
    }
out_free:
    free(incoming_mem);
    free(partial_mem);
    return rc;
}

int
coll_fold_mirror(int i, int k)
{
    int m = 0;
    for (int b = 0; b < k; b++)
        m |= ((i >> b) & 1) << (k - 1 - b);
    return m;
}

int
coll_fold_mirror_halving(void **work, void **spare, const int poscounts[],
                         const int posdispls[], int n, int vrank, const int real[],
                         MPI_Datatype datatype, MPI_Op op, int in_order, int tag, MPI_Comm comm)
{
    int lo = 0, width = n, rc = MPI_SUCCESS;

    for (int mask = 1; mask < n; mask <<= 1) {
        int peer = vrank ^ mask, half = width / 2;
        int keep = vrank < peer ? lo : lo + half, give = vrank < peer ? lo + half : lo;
        int keep_cnt = 0, give_cnt = 0;
        for (int i = 0; i < half; i++) {
            keep_cnt += poscounts[keep + i];
            give_cnt += poscounts[give + i];
        }
        void *send_at = coll_item(*work, posdispls[give], datatype);
        void *recv_at = coll_item(*spare, posdispls[keep], datatype);
        void *own_at = coll_item(*work, posdispls[keep], datatype);
        /* Both partners know both counts, so they skip the same empty halves. */
        rc = coll_sendrecv_nonempty(send_at, give_cnt, datatype, real[peer], tag, recv_at,
                                    keep_cnt, datatype, real[peer], tag, comm);
        if (rc != MPI_SUCCESS)
            return rc;
        if (keep_cnt > 0) {
            if (!in_order || vrank > peer) {
                /* received ∘ own: the partner is the lower group (or the op commutes) */
                rc = MPI_Reduce_local(recv_at, own_at, keep_cnt, datatype, op);
            } else {
                /* own ∘ received lands in the spare buffer, which becomes the working one */
                rc = MPI_Reduce_local(own_at, recv_at, keep_cnt, datatype, op);
                void *t = *work;
                *work = *spare;
                *spare = t;
            }
            if (rc != MPI_SUCCESS)
                return rc;
        }
        lo = keep;
        width = half;
    }
    return rc;
}
