/*
 * coll_util.h — small helpers that collective algorithms share, written with standard MPI
 * calls and libc only (so they compile against a real MPI too).
 */
#ifndef COLLSIM_COLL_UTIL_H
#define COLLSIM_COLL_UTIL_H

#include "mpi.h"

/*
 * A scratch buffer able to hold `count` items of `dt` laid out as in a user buffer (true
 * lower bound and extent respected). *mem receives what to free(); the return value is the
 * address to pass to MPI calls (it may differ from *mem when the true lower bound is not 0).
 * Returns NULL with *mem NULL when count is 0 or allocation fails (check count first).
 */
void *coll_tmp_alloc(MPI_Aint count, MPI_Datatype dt, void **mem);

/* Copy `count` items of `dt` from `src` to `dst` (both laid out as user buffers). Local: no
 * message, no simulated time. */
int coll_copy(const void *src, void *dst, int count, MPI_Datatype dt);

/*
 * What copying blocks of one datatype needs, read once: an algorithm that copies P blocks at
 * each of its steps (Bruck's) asked for the datatype's extents at every block, and those calls
 * check the handle each time (a billion checks for an Alltoall of ints at P = 4096).
 */
struct coll_layout {
    MPI_Datatype dt;
    MPI_Aint extent;  /* from one item to the next */
    MPI_Aint true_lb; /* where an item's bytes begin */
    int size;         /* its bytes of data */
    int contiguous;   /* size == extent == true extent: count items are one block of bytes */
};
int coll_layout_of(MPI_Datatype dt, struct coll_layout *layout);
/* coll_copy with the datatype's layout at hand. */
int coll_copy_laid(const void *src, void *dst, int count, const struct coll_layout *layout);
/* Address of item `index` in a buffer of the layout's items. */
static inline void *
coll_at(void *buf, MPI_Aint index, const struct coll_layout *layout)
{
    return (char *)buf + index * layout->extent;
}

/*
 * Copy `scount` items of `stype` at `src` into `dst` as items of `rtype` (at most `rcount`),
 * as a message to oneself would: the two types may differ in layout but not in signature.
 * MPI_ERR_TRUNCATE when the data does not fit rcount items or ends inside an item. Local:
 * no message, no simulated time.
 */
int coll_copy_typed(const void *src, int scount, MPI_Datatype stype, void *dst, int rcount,
                    MPI_Datatype rtype);

/*
 * MPI_Sendrecv, leaving out a side whose message is empty (count 0 or a type of size 0): a
 * send of no bytes is not sent and a receive of no bytes is not posted. The standard makes
 * the sender's and the receiver's type signatures equal, so both ends of a message decide
 * alike; the caller must make sure that they also agree on every non-empty message.
 */
int coll_sendrecv_nonempty(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
                           int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                           int source, int recvtag, MPI_Comm comm);

/*
 * For an algorithm that does not take MPI_IN_PLACE: a private copy of the `count` items the
 * caller left in `recvbuf`, to pass as the send buffer (*sendbuf). *mem is what to free
 * (NULL when count is 0: *sendbuf is then recvbuf itself).
 */
int coll_in_place_copy(const void *recvbuf, int count, MPI_Datatype dt, const void **sendbuf,
                       void **mem);

/*
 * The same for the blocks of an Alltoallv/w receive buffer, copied at the same byte offsets:
 * block i is counts[i] items of types[i] (or of `type` when types is NULL) at byte
 * displs[i] * unit. *mem is what to free (also after a failure).
 */
int coll_in_place_copy_blocks(const void *recvbuf, int size, const int counts[],
                              const int displs[], MPI_Aint unit, const MPI_Datatype types[],
                              MPI_Datatype type, const void **sendbuf, void **mem);

/* Address of item `index` in a buffer of `dt` items. */
void *coll_item(void *buf, MPI_Aint index, MPI_Datatype dt);
const void *coll_citem(const void *buf, MPI_Aint index, MPI_Datatype dt);

/* Largest power of two not above n (n >= 1). */
int coll_pof2_floor(int n);
/* ceil(log2(n)) for n >= 1. */
int coll_ceil_log2(int n);

#endif
