/*
 * coll_entry.h — what collsim's MPI collective entry points (src/coll/<collective>/
 * mpi_<collective>.c) share: the argument checks of the standard, the collective-call
 * checker's signatures, the description of a call for selection, and coll_dispatch, the one
 * path from checked arguments to an algorithm.
 *
 * Unlike the algorithms and the kind files, this is collsim's runtime (communicators, error
 * handlers, the call checker): it does not compile against another MPI library.
 *
 * Every coll_arg_* check returns MPI_SUCCESS or the error code that the communicator's error
 * handler returned after reporting (rank, call, argument); callers stop at the first failure.
 */
#ifndef COLLSIM_COLL_ENTRY_H
#define COLLSIM_COLL_ENTRY_H

#include "callsite.h"
#include "coll/coll_kinds.h"
#include "coll/coll_select.h"
#include "coll_check.h"
#include "mpi.h"

/* ---------------------------------------------------------------- argument checks */

/* A reduction's buffers: the input of `total` items (or MPI_IN_PLACE as sendbuf), this rank's
 * `mine` items of result (never MPI_IN_PLACE), not overlapping. */
int coll_arg_reduction_buffers(MPI_Comm comm, const void *sendbuf, MPI_Aint total,
                               const void *recvbuf, MPI_Aint mine, MPI_Datatype dt,
                               const char *call);
/* MPI_INFO_NULL or a valid info object (the persistent forms' info; no hints are defined). */
int coll_arg_info(MPI_Info info, const char *call);
/* A valid user communicator of which the caller is a member. */
int coll_arg_comm(MPI_Comm comm, const char *call);
/* count >= 0 (`what` names the argument). */
int coll_arg_count(MPI_Comm comm, int count, const char *what, const char *call);
/* A valid datatype. */
int coll_arg_type(MPI_Comm comm, MPI_Datatype dt, const char *what, const char *call);
/* Every types[i] valid; *contiguous is cleared unless all of them are contiguous. */
int coll_arg_types(MPI_Comm comm, const MPI_Datatype types[], const char *what, const char *call,
                   int *contiguous);
/* 0 <= root < size. */
int coll_arg_root(MPI_Comm comm, int root, const char *call);
/* The communicator, count, datatype and op of a reduction (op defined on the datatype). */
int coll_arg_reduction(MPI_Comm comm, int count, MPI_Datatype dt, MPI_Op op, const char *call);
/* A buffer with data to move: never MPI_IN_PLACE, an address of data (collsim_buffer_check). */
int coll_arg_buffer(MPI_Comm comm, const void *buf, MPI_Aint count, MPI_Datatype dt,
                    const char *what, const char *call);
/* The same, where the call takes MPI_IN_PLACE instead. */
int coll_arg_buffer_or_in_place(MPI_Comm comm, const void *buf, MPI_Aint count, MPI_Datatype dt,
                                const char *what, const char *call);
/* The v-collectives' buffers: not NULL with items to move; recvbuf never MPI_IN_PLACE. */
int coll_arg_v_buffers(MPI_Comm comm, const void *sendbuf, int send_items, const void *recvbuf,
                       int recv_items, const char *call);
/* The send and receive buffers of one call do not overlap (MPI-3.1 2.3). */
int coll_arg_no_alias(MPI_Comm comm, const void *sendbuf, MPI_Aint scount, MPI_Datatype stype,
                      const void *recvbuf, MPI_Aint rcount, MPI_Datatype rtype, const char *call);
/* A v-variant's counts and displacements: not NULL, no negative count. */
int coll_arg_vector(MPI_Comm comm, const int counts[], const int displs[], const char *what,
                    const char *call);
/* counts[i] >= 0 for every rank; *total their sum, which must fit an int. */
int coll_arg_counts(MPI_Comm comm, const int counts[], const char *what, const char *call,
                    int *total);
/* count x ranks, the items of a whole Allgather or Alltoall buffer, fits an int. */
int coll_arg_all_blocks(MPI_Comm comm, int count, const char *what, const char *call);
/*
 * The receive side of Allgather and Alltoall, significant on every rank: a valid communicator,
 * a recvbuf that is not MPI_IN_PLACE, recvcount items of a valid recvtype per rank, the whole
 * buffer's items fitting an int.
 */
int coll_arg_all_recv(MPI_Comm comm, const void *recvbuf, int recvcount, MPI_Datatype recvtype,
                      const char *call);
/* The same for Allgatherv and Alltoallv: per-rank counts and displacements; *total the sum. */
int coll_arg_all_recv_v(MPI_Comm comm, const void *recvbuf, const int recvcounts[],
                        const int rdispls[], MPI_Datatype recvtype, const char *call, int *total);
/* The block a rank sends itself has as many bytes as the one it receives from itself. */
int coll_arg_own_block(MPI_Comm comm, int scount, MPI_Datatype stype, int rcount,
                       MPI_Datatype rtype, const char *call);

/* ---------------------------------------------------------------- the call checker */

/* Allgatherv, Reduce_scatter: the SAME_V rule, every member passing the same per-rank counts
 * (of counts_type); count, dt and bytes describe this rank's own part (-1 / NULL: none). */
void coll_entry_check_same_v(MPI_Comm comm, const char *name, MPI_Op op, int count,
                             MPI_Datatype dt, long long bytes, const int counts[],
                             MPI_Datatype counts_type, const void *caller);
/* count items of dt, in bytes: the type signature's length. */
long long coll_entry_sig_bytes(int count, MPI_Datatype dt);
/* counts[i] items of types[i] (of dt when types is NULL) for every rank, in bytes; free(). */
long long *coll_entry_sig_array(MPI_Comm comm, const int counts[], MPI_Datatype dt,
                                const MPI_Datatype types[]);
/* A call whose every member passes the same count, datatype (and op, root where given). */
void coll_entry_check_same(MPI_Comm comm, const char *name, int root, MPI_Op op, int count,
                           MPI_Datatype dt, const void *caller);
/* Gatherv, Scatterv: every rank's own block against the root's per-rank counts. */
void coll_entry_check_rooted_v(MPI_Comm comm, const char *name, int root, int in_place_root,
                               int count, MPI_Datatype dt, const int root_counts[],
                               MPI_Datatype root_type, const void *caller);
/* Alltoallv, Alltoallw: what this rank sends to and receives from each rank. */
void coll_entry_check_pairwise(MPI_Comm comm, const char *name, const void *sendbuf,
                               const int sendcounts[], MPI_Datatype sendtype,
                               const MPI_Datatype sendtypes[], const int recvcounts[],
                               MPI_Datatype recvtype, const MPI_Datatype recvtypes[],
                               const void *caller);

/* ---------------------------------------------------------------- selection and dispatch */

/* The call as selection sees it: `count` items of `dt` per rank (coll_select.h). */
void coll_entry_describe(struct coll_call *call, enum coll_kind kind, MPI_Comm comm, int count,
                         MPI_Datatype dt, int commutative);
/* The mean of `total` bytes over the ranks, rounded up: what `bytes` means for v-variants. */
size_t coll_entry_mean_block(size_t total, MPI_Comm comm);
/* Whether op commutes (the predefined ops do). */
int coll_entry_commutes(MPI_Op op);

/*
 * Run a checked call: choose the algorithm for `call` (a forced one that cannot serve is
 * refused with MPI_ERR_OTHER naming the unmet requirement, never replaced), turn
 * MPI_IN_PLACE into an ordinary call for an algorithm that does not take it, run the
 * algorithm on the communicator's collective twin, and report a failure through comm's
 * error handler. `args` may be rewritten by the in-place step.
 */
int coll_dispatch(const struct coll_call *call, struct coll_args *args, MPI_Comm comm);

/*
 * The nonblocking forms (MPI_Ibcast ...): an MPI_I<collective> entry brackets its blocking
 * form's checks with these two; the blocking form's coll_dispatch then starts the operation
 * into *request instead of running it. begin refuses a NULL request (MPI_ERR_REQUEST); end
 * takes the entry's return code and, if the entry stopped before starting anything, sets
 * *request to MPI_REQUEST_NULL.
 */
int coll_nonblocking_begin(enum coll_kind kind, MPI_Request *request);
/*
 * The general bracket: COLL_FORM_NONBLOCKING is coll_nonblocking_begin's; COLL_FORM_PERSISTENT
 * (MPI_<Collective>_init) makes coll_dispatch keep the call in a persistent request instead
 * of running it; COLL_FORM_STARTED is an MPI_Start of such a request (named, like the init
 * call, MPI_<Collective>_init), started like a nonblocking call. coll_nonblocking_end closes
 * each of them.
 */
enum coll_form { COLL_FORM_NONBLOCKING, COLL_FORM_PERSISTENT, COLL_FORM_STARTED };
int coll_form_begin(enum coll_kind kind, enum coll_form form, MPI_Request *request);
int coll_nonblocking_end(int rc);
/* The nonblocking form of `kind` with these arguments, then MPI_Wait: what MPI_I<collective>
 * followed by MPI_Wait does (tools that run every kind through one path use it). */
int coll_entry_call_nonblocking(enum coll_kind kind, const struct coll_args *args, MPI_Comm comm);
/* The MPI name of the call being entered: "MPI_Iallreduce" inside a nonblocking form's
 * bracket, else the kind's ("MPI_Allreduce"). */
const char *coll_entry_name(enum coll_kind kind);

/*
 * Gather, Scatter, Gatherv, Scatterv: the argument rules of a rooted block mover (the root's
 * side of all blocks is significant at the root only; MPI_IN_PLACE at the root only, on the
 * side of its own block), the checker, then coll_dispatch. `caller` is the user's return
 * address.
 */
int coll_entry_rooted(enum coll_kind kind, struct coll_args *args, MPI_Comm comm,
                      const void *caller);

/*
 * Allgather, Alltoall: the argument rules of a block mover whose every rank receives one block
 * from every rank (MPI_IN_PLACE as sendbuf; Alltoall's send buffer holds a block per rank and
 * may not overlap the receive buffer), the checker, then coll_dispatch.
 */
int coll_entry_every_block(enum coll_kind kind, struct coll_args *args, MPI_Comm comm,
                           const void *caller);

/*
 * Allreduce, Scan and Exscan: the argument rules they share (MPI_IN_PLACE as sendbuf on every
 * rank), the checker, then coll_dispatch. `caller` is the user's return address.
 */
int coll_entry_everyone_reduces(enum coll_kind kind, const void *sendbuf, void *recvbuf, int count,
                                MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                const void *caller);

/*
 * Inter-communicators (src/coll/inter/): an entry whose communicator is one (is_inter: a valid
 * handle of an inter-communicator) hands its arguments to coll_entry_inter before its own
 * checks, which are the intra-communicator's. coll_entry_inter checks the inter-communicator
 * rules (root: MPI_ROOT, MPI_PROC_NULL or a remote rank; no MPI_IN_PLACE; buffers
 * significant where the standard says) and runs the blocking algorithm; it refuses Scan and
 * Exscan, and the nonblocking and persistent forms, with MPI_ERR_COMM naming the call.
 */
/*
 * The datatypes and op an operation started by a call (nonblocking or persistent) goes on
 * using, held until its end: the program may free them as soon as the call returns, as
 * MPI_Type_free and MPI_Op_free let the operations that use an object complete normally.
 * Only live handles are held, so an argument the call ignores (a non-root's recvtype, the
 * send side of an MPI_IN_PLACE Alltoallw) may be anything; predefined ones need no hold.
 */
struct coll_hold {
    MPI_Op op;
    size_t ntypes, cap;
    MPI_Datatype *types;
};
/* Room for max_types datatypes (more are not held). */
void coll_hold_init(struct coll_hold *hold, size_t max_types);
void coll_hold_type(struct coll_hold *hold, MPI_Datatype dt);
/* n datatypes of an array (NULL: none). */
void coll_hold_types(struct coll_hold *hold, const MPI_Datatype *types, int n);
void coll_hold_op(struct coll_hold *hold, MPI_Op op);
/* Let go of everything held (the operation's end, or its persistent request's free). */
void coll_hold_release(struct coll_hold *hold);

int coll_entry_is_inter(MPI_Comm comm);
int coll_entry_inter(enum coll_kind kind, const struct coll_args *args, MPI_Comm comm);

#endif
