/*
 * order.h — reduction order certificates: run a reduction collective with the witness op
 * (witness_expr.h) and certify in which order it combined the ranks' contributions.
 *
 * A certificate belongs to one (collective, algorithm, P, count[, root], op commutativity).
 * For every rank that holds a defined result — Reduce: the root; Allreduce: every rank;
 * Reduce_scatter(_block): each rank's block; Scan: rank i the fold of 0..i; Exscan: rank
 * i > 0 the fold of 0..i-1 — and every element of it, the certificate knows the expression,
 * whether its leaves are the expected ranks in rank order, and its depth; then it sums this
 * up in one stable line (order_certificate_line) whose sha256 covers the structural hash of
 * every defined element in rank, then element, order.
 *
 * The witness op is non-commutative unless the request says otherwise. An algorithm that
 * cannot serve the call (it needs a commutative op, a power-of-two P, count >= P ...) is not
 * forced — forcing would be refused — so the decision table serves instead, and the
 * certificate records "fallback: <served> (<reason>)", as the selector would.
 *
 * Two ways to use it:
 *  - order_certify(): the whole run in this process (one simulation: SimGrid starts once per
 *    process, so a caller certifying many points forks a child per point);
 *  - inside another simulation: order_witness_begin() before it starts, order_witness_rank()
 *    on every rank, order_witness_finish() after it ends.
 */
#ifndef COLLSIM_SIM_ORDER_H
#define COLLSIM_SIM_ORDER_H

#include <glib.h>

#include "mpi.h"
#include "src/coll/coll.h"

/* The witness table is sized for this many ranks (O(P log P) nodes per element at most). */
#define ORDER_MAX_RANKS 4096

struct order_request {
    enum coll_kind kind;   /* a collective that reduces */
    const char *algorithm; /* registry name of the algorithm asked for */
    int nranks;
    int count;                 /* elements per rank; Reduce_scatter(_block): of each block */
    int capped_from;           /* > 0: `count` stands in for this larger count of the call
                                  being certified (collsim run caps witness counts) */
    int root;                  /* Reduce only */
    gboolean commutative;      /* the commutativity declared to MPI_Op_create */
    struct coll_params params; /* segment size, radix; 0 fields: the registry row's defaults */
    const char *platform;      /* a platform file or generator spec; NULL: single-core hosts */
    const char *placement;     /* block (NULL), cyclic, random:SEED, hostfile:FILE */
    gboolean nonblocking;      /* the nonblocking form: MPI_I<collective>, then MPI_Wait */
};

enum order_verdict {
    ORDER_RANK,     /* every defined element folds exactly the expected ranks in order */
    ORDER_PERMUTED, /* the expected ranks, each once, but not in rank order */
    ORDER_BROKEN,   /* missing, repeated or foreign leaves, or an undefined result */
};

struct order_element {
    int rank;
    int element;     /* index in the rank's result (its block, for reduce_scatter) */
    gint64 handle;   /* witness_expr handle; valid until the next witness reset */
    int first, last; /* the ranks it must fold, in order */
    enum order_verdict verdict;
};

struct order_certificate {
    struct order_request request;
    const char *served;         /* registry name of the algorithm that ran */
    gchar *fallback_reason;     /* why the requested one could not serve, or NULL */
    enum order_verdict verdict; /* the worst over the elements */
    int bad_rank, bad_element;  /* the first element with that verdict (if not ORDER_RANK) */
    guint depth;                /* the deepest element's critical path */
    guint64 applications;       /* element applications of the op, all ranks */
    guint64 op_calls;           /* calls of the user function, all ranks */
    guint64 invalid;            /* applications to an undefined operand */
    int same;                   /* Allreduce: 1 if all ranks hold the same expressions,
                                   0 if not; -1 for the other collectives */
    gchar *digest_hex;          /* SHA-256 over the elements' structural hashes */
    GArray *elements;           /* struct order_element, by rank then element */
};

/* Quark of the errors below; the message says what is wrong with the request. */
#define ORDER_ERROR (order_error_quark())
GQuark order_error_quark(void);
enum { ORDER_ERROR_REQUEST, ORDER_ERROR_RUN };

/* Is the request well formed: a reducing collective, a known algorithm of it,
 * 1 <= nranks <= ORDER_MAX_RANKS, count >= 0, root a rank, parameters valid (>= 0 segment
 * bytes, radix 0 or >= 2)? */
gboolean order_request_check(const struct order_request *request, GError **error);

/* The requirement the requested algorithm lacks for this call ("requires commutative op"),
 * or NULL if it can serve it. */
const char *order_unmet_requirement(const struct order_request *request);

/*
 * Run the request's witness simulation in this process and certify it. FALSE (with `error`)
 * for a bad request or a simulation that ended badly (its messages are on stderr). Forced
 * algorithm choices of this process are forgotten (coll_select_reset) before and after. The
 * elements' handles stay valid until the next witness reset.
 */
gboolean order_certify(const struct order_request *request, struct order_certificate *cert,
                       GError **error);

/* Before a simulation that calls order_witness_rank: reset the witness table and results.
 * That simulation must move data (payload data): the handles travel in the messages. The
 * caller forces the algorithm, or not when order_unmet_requirement() names a reason. */
void order_witness_begin(const struct order_request *request);
/* On every rank of `comm` (its size must be request->nranks): the witness call. Returns the
 * MPI error code of the first failing call. */
int order_witness_rank(MPI_Comm comm);
/* After the simulation: the certificate of what the ranks kept. `served` is the registry
 * name that served, `fallback_reason` the unmet requirement or NULL. */
void order_witness_finish(const char *served, const char *fallback_reason,
                          struct order_certificate *cert);

/* TRUE unless a non-commutative witness saw another order than rank order, or a result is
 * broken (which no op, commutative or not, allows). */
gboolean order_certificate_acceptable(const struct order_certificate *cert);

/* The certificate as one line (no newline), e.g.
 * "allreduce recursive_doubling P=8 count=2 op=noncommutative order=rank depth=3
 *  applications=48 op_calls=24 same=yes sha256=..." (on one line). Reduce adds root=R;
 * segmented and k-ary algorithms add segment_bytes=B and radix=K (the values in force). */
gchar *order_certificate_line(const struct order_certificate *cert);

/* The certificate line, then, for P <= 16 or when `expressions`, one line per defined element
 * ("  rank R element K depth=D EXPR"), each followed by its bracketing drawn as an indented tree
 * when `tree`: what `collsim order` prints for a point, and what --against reads back. */
gchar *order_point_text(const struct order_certificate *cert, gboolean expressions, gboolean tree);

/* The part of a certificate line that names its point: everything up to and including
 * the op= field. NULL if `line` is not a certificate line. */
gchar *order_line_key(const char *line);

void order_certificate_clear(struct order_certificate *cert);

/*
 * Certificates saved as text (points as order_point_text writes them; blank lines and
 * # comments are skipped) and compared with a new run point by point: shared by
 * `collsim order --against` and `collsim run --against`.
 */
struct order_saved;
/* NULL with a message naming `origin` and the line for text that is not certificates. */
struct order_saved *order_saved_parse(const char *text, const char *origin, GError **error);
void order_saved_free(struct order_saved *saved);

enum order_comparison {
    ORDER_COMPARISON_SAME,
    ORDER_COMPARISON_CHANGED,    /* the line or an expression differs */
    ORDER_COMPARISON_NOT_SAVED,  /* no saved point has this point's key */
    ORDER_COMPARISON_UNREADABLE, /* `point_text` is not one point's text */
};
/* Compare one point's text (order_point_text) with the saved point of the same key (the line
 * up to op=). A change is named on stderr as "collsim: COMMAND: KEY differs from FILE" with
 * the old and new lines and the first element whose expression differs, old and new; a point
 * the file lacks as "collsim: COMMAND: KEY is not in FILE". */
enum order_comparison order_saved_compare(const struct order_saved *saved, const char *point_text,
                                          const char *command);

/* `collsim order ...` (argv[0] == "order"). Exit codes: see sim/order/order.c. */
int command_order(int argc, char **argv);

#endif
