/*
 * Allreduce: k-nomial tree, segment by segment: reduce up to rank 0, then broadcast back down
 * (MPICH's tree allreduce with its pipelining in chunks).
 *
 * Origin:   MPICH MPIR_Allreduce_intra_tree (tree type knomial, MPIR_CVAR_ALLREDUCE_TREE_KVAL,
 *           MPIR_CVAR_ALLREDUCE_TREE_PIPELINE_CHUNK_SIZE): each chunk goes up the tree, every
 *           node reducing its children's chunks into its own, then down again; the chunks
 *           pipeline because a node starts the next chunk as soon as it has passed one down.
 *           MPICH folds children in any order (commutative ops); here they are folded in
 *           ascending rank order, so the tree keeps rank order for any op.
 * Requires: nothing. Order-preserving: the k-nomial tree is rooted at rank 0, so a child's
 *           subtree is the contiguous rank range just above its left sibling's, and a node
 *           computes own ∘ child_1 ∘ child_2 ∘ … (children ascending); every rank receives
 *           rank 0's bits, so all results are bitwise identical. Handles MPI_IN_PLACE.
 * Params:   radix (the tree's k, >= 2; default 4 as collsim's other k-nomial rows, where
 *           MPICH's MPIR_CVAR_ALLREDUCE_TREE_KVAL defaults to 2), segment_bytes (> 0).
 * Cost:     with L = ⌈log_k P⌉ levels and S segments of m = n/S bytes, about
 *           (L + S - 1)(k-1)(α + mβ + mγ) up and (L + S - 1)(k-1)(α + mβ) down.
 * Steps (P = 5, k = 2, segments a, b): children of 0: 1, 2, 4; of 2: 3.
 *
 *     a up:    1 -> 0, 3 -> 2, 2 -> 0, 4 -> 0     (0: ((x0 ∘ x1) ∘ (x2 ∘ x3)) ∘ x4)
 *     a down:  0 -> 4, 0 -> 2, 0 -> 1, 2 -> 3      (b goes up below while a comes down)
 */
#include <stdlib.h>

#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_algos.h"
#include "coll/coll_fold.h"
#include "coll/coll_tree.h"
#include "coll/coll_util.h"

enum { TAG_UP = 1, TAG_DOWN = 2 };

int
coll_allreduce_tree(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                    MPI_Op op, MPI_Comm comm, const struct coll_params *params)
{
    int rank, size, nchildren = 0, rc;
    int *children = NULL;
    void *tmp_mem = NULL;
    struct coll_knomial node;
    struct coll_segments sg;
    long long child;

    rc = coll_fold_start(sendbuf, recvbuf, count, datatype, comm, &rank, &size);
    if (rc != MPI_SUCCESS || count == 0 || size == 1)
        return rc;
    long long radix = params != NULL && params->radix >= 2 ? params->radix : 2;

    /* the children, largest subtree first (the broadcast's order) */
    coll_knomial_init(&node, rank, size, radix);
    struct coll_knomial walk = node;
    while (coll_knomial_next_child(&walk, &child, NULL))
        nchildren++;
    children = malloc(sizeof *children * (size_t)(2 * nchildren + 1));
    if (children == NULL)
        return MPI_ERR_NO_MEM;
    int *up = children + nchildren; /* the same children in ascending rank order */
    walk = node;
    for (int c = 0; coll_knomial_next_child(&walk, &child, NULL); c++) {
        int at = c;
        children[c] = (int)child;
        while (at > 0 && up[at - 1] > (int)child) {
            up[at] = up[at - 1];
            at--;
        }
        up[at] = (int)child;
    }

    coll_segments_init(&sg, recvbuf, count, datatype, params);
    void *tmp = coll_tmp_alloc(sg.items, datatype, &tmp_mem);
    if (tmp == NULL) {
        rc = MPI_ERR_NO_MEM;
        goto out_free;
    }
    for (int s = 0; s < sg.nsegs; s++) {
        void *acc = coll_segment_ptr(&sg, s);
        int len = coll_segment_len(&sg, s);
        /* up: children nearest first, each subtree the ranks just above: acc ∘ child */
        for (int c = 0; c < nchildren; c++) {
            rc = MPI_Recv(tmp, len, datatype, up[c], TAG_UP, comm, MPI_STATUS_IGNORE);
            if (rc == MPI_SUCCESS)
                rc = MPI_Reduce_local(acc, tmp, len, datatype, op);
            if (rc == MPI_SUCCESS)
                rc = coll_copy(tmp, acc, len, datatype);
            if (rc != MPI_SUCCESS)
                goto out_free;
        }
        if (node.parent >= 0) {
            rc = MPI_Send(acc, len, datatype, node.parent, TAG_UP, comm);
            if (rc == MPI_SUCCESS)
                rc = MPI_Recv(acc, len, datatype, node.parent, TAG_DOWN, comm, MPI_STATUS_IGNORE);
            if (rc != MPI_SUCCESS)
                goto out_free;
        }
        /* down: largest subtree first */
        for (int c = 0; c < nchildren; c++) {
            rc = MPI_Send(acc, len, datatype, children[c], TAG_DOWN, comm);
            if (rc != MPI_SUCCESS)
                goto out_free;
        }
    }

out_free:
    free(tmp_mem);
    free(children);
    return rc;
}
