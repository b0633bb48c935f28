/*
 * coll_fold.h — pieces of the reduction algorithms (allreduce, reduce_scatter,
 * reduce_scatter_block, scan, exscan) that several of them run exactly alike: the fold of a
 * non-power-of-two number of ranks before recursive doubling or halving and the unfold after
 * it, the ring pass over blocks, the block layout of a vector, the prefix exchange by
 * recursive doubling, and Reduce_scatter_block as a Reduce_scatter of equal counts.
 *
 * Standard MPI calls and libc only, so the file compiles against a real MPI too. Each helper
 * makes exactly the MPI calls, in the order, and applies the op with exactly the operands its
 * callers made and applied before they shared it: moving code here never changes a message,
 * a time or the bracketing of a result.
 */
#ifndef COLLSIM_COLL_FOLD_H
#define COLLSIM_COLL_FOLD_H

#include "mpi.h"
#include "coll/coll.h"

/*
 * Reduce_scatter_block by a Reduce_scatter algorithm: MPI-3.1 §5.10.1 defines the block form
 * as the general one with recvcounts[i] = recvcount for every rank. MPI_ERR_COUNT when the
 * whole vector (size·recvcount items) does not fit an int.
 */
int coll_fold_equal_blocks(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype,
                           MPI_Op op, MPI_Comm comm, const struct coll_params *params,
                           coll_reduce_scatter_fn *reduce_scatter);

/*
 * The caller's rank and the communicator's size, and where each block of a Reduce_scatter
 * vector starts: (*displs)[i] = recvcounts[0] + ... + recvcounts[i-1], *total the sum of all.
 * *displs is what to free (NULL after a failure). MPI_ERR_COUNT when the total does not fit
 * an int, MPI_ERR_NO_MEM when the array cannot be allocated.
 */
int coll_fold_block_displs(const int recvcounts[], MPI_Comm comm, int *rank, int *size,
                           int **displs, int *total);

/*
 * Scratch space of a Reduce_scatter algorithm that works on the whole vector: *work, a copy
 * of the `total` items of `input`, and *incoming, room for `incoming_count` items. *work_mem
 * and *incoming_mem are what to free (also after a failure). Local: no message.
 */
int coll_fold_working_copy(const void *input, int total, int incoming_count, MPI_Datatype datatype,
                           void **work, void **work_mem, void **incoming, void **incoming_mem);

/*
 * The start of a reduction (allreduce, scan) that works in recvbuf: the caller's rank and the
 * communicator's size, and the own contribution copied into recvbuf (unless it is there already,
 * MPI_IN_PLACE). Local: no message.
 */
int coll_fold_start(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                    MPI_Comm comm, int *rank, int *size);

/*
 * coll_fold_start, and then, when there is something to do (count > 0, more than one rank),
 * a scratch vector of `count` items at *scratch for the partner's data. *scratch_mem is what
 * to free (NULL when nothing was allocated); MPI_ERR_NO_MEM if it cannot be allocated.
 */
int coll_fold_start_scratch(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                            MPI_Comm comm, int *rank, int *size, void **scratch,
                            void **scratch_mem);

/*
 * The fold before recursive doubling or halving on a number of ranks p that is not a power of
 * two (MPICH's scheme). With rem = p - pof2 (pof2 the largest power of two <= p), each even
 * rank below 2·rem sends the `count` items at `buf` to rank + 1, which receives them into
 * `tmp` and combines them as tmp ∘ buf, so the lower rank stays first and the survivor holds
 * a contiguous range of ranks. *newrank receives the rank's number among the pof2 survivors:
 * -1 for an even rank that folded, rank / 2 for an odd one below 2·rem, rank - rem above.
 */
int coll_fold_pof2_in(void *buf, void *tmp, int count, MPI_Datatype datatype, MPI_Op op, int rank,
                      int rem, int tag, MPI_Comm comm, int *newrank);

/* The real rank of the survivor numbered `newrank` by coll_fold_pof2_in. */
int coll_fold_survivor(int newrank, int rem);

/*
 * The unfold after it: each odd rank below 2·rem sends the `count` items at `send` to rank - 1,
 * which receives them into `recv`. Nothing is sent when count is 0 (both sides pass the same
 * count: the even rank's share of the result).
 */
int coll_fold_pof2_out(const void *send, void *recv, int count, MPI_Datatype datatype, int rank,
                       int rem, int tag, MPI_Comm comm);

/*
 * A survivor of coll_fold_pof2_in inside coll_fold_pof2_allreduce: the allreduce's arguments,
 * a scratch vector of `count` items, the rank and newrank, the communicator's size, pof2 (the
 * largest power of two <= size) and rem = size - pof2.
 */
struct coll_fold_pof2 {
    void *recvbuf, *scratch;
    int count;
    MPI_Datatype datatype;
    MPI_Op op;
    MPI_Comm comm;
    int rank, size, pof2, rem, newrank;
};

/*
 * The work of the pof2 survivors between the fold and the unfold: on entry f->recvbuf holds
 * the survivor's partial result (a contiguous range of ranks); on return it must hold the
 * whole result.
 */
typedef int coll_fold_survivors_fn(const struct coll_fold_pof2 *f);

/*
 * An allreduce around a power-of-two core (recursive doubling, Rabenseifner's algorithm):
 * coll_fold_start_scratch, nothing more when count is 0 or there is a single rank; otherwise
 * coll_fold_pof2_in of recvbuf with `tag_fold`, `survivors` on the ranks that did not fold,
 * then coll_fold_pof2_out of the whole result from recvbuf to recvbuf with `tag_unfold`. The
 * scratch vector is freed on every path; the first failure is returned.
 */
int coll_fold_pof2_allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                             MPI_Op op, MPI_Comm comm, int tag_fold, int tag_unfold,
                             coll_fold_survivors_fn *survivors);

/*
 * A vector of `count` items cut into n blocks as the ring and Rabenseifner's algorithm cut it:
 * ⌊count/n⌋ items each, the first count mod n blocks one item longer. Block b starts at item
 * coll_fold_block_start(count, n, b) (b = n gives count).
 */
int coll_fold_block_start(int count, int n, int b);

/*
 * The same layout as arrays, for coll_fold_ring_pass: (*counts)[b] and (*displs)[b].
 * *counts is what to free (both arrays live in it); MPI_ERR_NO_MEM if it cannot be allocated.
 */
int coll_fold_even_blocks(int count, int n, int **counts, int **displs);

/*
 * p-1 steps of a ring over the blocks of `buf` (block b: counts[b] items at item displs[b]):
 * at step k the rank sends block (first - k) mod p to rank + 1 and receives block
 * (first - k - 1) mod p from rank - 1, in one MPI_Sendrecv. With `tmp` (room for the largest
 * block) the block received lands there and is combined into the own one as received ∘ own —
 * the reduce-scatter pass, whose order is the ring's (commutative ops only); with tmp NULL it
 * is received in place — the allgather pass.
 */
int coll_fold_ring_pass(void *buf, const int counts[], const int displs[], int first, void *tmp,
                        MPI_Datatype datatype, MPI_Op op, int rank, int size, int tag,
                        MPI_Comm comm);

/*
 * The prefix exchange of Scan and Exscan by recursive doubling, rank order kept for any op and
 * any p (MPICH's non-commutative path). `partial`, a copy of the own contribution at `input`,
 * is the fold of the rank's aligned subtree of `mask` ranks; with mask = 1, 2, 4, ... it is
 * exchanged with rank ^ mask when that rank exists, and then
 *   partner lower:  partial = theirs ∘ partial, and recvbuf = theirs ∘ recvbuf, or
 *                   recvbuf = theirs for the first lower partner when !inclusive;
 *   partner higher: partial = partial ∘ theirs.
 * Scan passes inclusive with its contribution already in recvbuf (input = recvbuf); Exscan
 * passes !inclusive, so that recvbuf collects the lower ranks only and rank 0's is never
 * written. Nothing at all happens when count is 0 or there is a single rank.
 */
int coll_fold_prefix_doubling(const void *input, void *recvbuf, int count, MPI_Datatype datatype,
                              MPI_Op op, int inclusive, int tag, MPI_Comm comm);

/*
 * Recursive vector halving with distance doubling (Open MPI's butterfly, MPICH's
 * non-commutative reduce_scatter): among n = 2^k ranks `vrank` 0 … n-1 (real rank
 * real[vrank]) a vector cut into n positions, position i being poscounts[i] items at item
 * posdispls[i]. With mask = 1, 2, … n/2 the rank exchanges with vrank ^ mask: of its current
 * window of positions the lower rank keeps the lower half and sends the upper, the higher rank
 * the converse (empty halves are not sent), and the received half is combined into the kept
 * one: in_order puts the lower rank's data first (its data covers the aligned group of ranks
 * just below the partner's, so rank order is kept for any op); !in_order puts the received data
 * first (commutative ops). The rank ends with position mirror(vrank) (coll_fold_mirror, k bits)
 * fully reduced. *work holds the rank's data on entry and the result on return; *spare is
 * scratch of the same size; the two may be swapped (no local copy).
 */
int coll_fold_mirror_halving(void **work, void **spare, const int poscounts[],
                             const int posdispls[], int n, int vrank, const int real[],
                             MPI_Datatype datatype, MPI_Op op, int in_order, int tag,
                             MPI_Comm comm);

/* The k-bit reversal of i (0 <= i < 2^k): position i of coll_fold_mirror_halving's layout. */
int coll_fold_mirror(int i, int k);

#endif
