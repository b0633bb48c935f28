/*
 * coll_select.c — forced choices and the default decision table.
 *
 * The default table (by collective; n = bytes per rank, P = ranks), chosen among algorithms
 * that apply to the call, after MPICH's and Open MPI's defaults:
 *   Barrier             dissemination
 *   Bcast               MPICH's choice: binomial if n < 12 KiB or P < 8; else, for a
 *                       power-of-two P and n < 512 KiB, scatter_recursive_doubling_allgather;
 *                       else scatter_ring_allgather
 *   Gather, Scatter     binomial
 *   Scatterv, Gatherv   linear
 *   Reduce              rabenseifner if n > 2 KiB and count >= P, else binomial (both keep
 *                       rank order for a non-commutative op)
 *   Allreduce           rabenseifner if n > 2 KiB and count >= P, else recursive_doubling
 *                       (both keep rank order for a non-commutative op)
 *   Reduce_scatter(_block)  non-commutative op: recursive_doubling;
 *                       commutative: recursive_halving if n <= 512 KiB, else pairwise
 *   Scan, Exscan        recursive_doubling
 *   Allgather(v)        (MPICH's MPIR_Allgather(v)_intra_auto; T = P·n, the bytes gathered on
 *                       each rank) recursive_doubling if T < 512 KiB and P a power of two,
 *                       else bruck if T < 80 KiB, else ring
 *   Alltoall            (MPICH's MPIR_Alltoall_intra_auto; n = the bytes of one block) bruck
 *                       if n <= 256 B and P >= 8, else linear if n <= 32 KiB, else pairwise
 *   Alltoallv, Alltoallw  linear
 * For Allgatherv, Alltoallv and Alltoallw, n is the mean block (the call's total bytes over P,
 * rounded up), so T = P·n may exceed MPICH's exact total by less than P bytes.
 * If the table's choice cannot serve the call, the first applicable row of the kind serves.
 * The reproducible mode (coll_select.h) replaces the table for the reductions.
 */
#include <stdio.h>
#include <string.h>

#include "coll_select.h"

static const struct coll_algorithm *forced[COLL_KIND_COUNT];
static struct coll_params forced_params[COLL_KIND_COUNT];
static int reproducible;

void
coll_select_reset(void)
{
    memset(forced, 0, sizeof forced);
    memset(forced_params, 0, sizeof forced_params);
    reproducible = 0;
}

void
coll_select_set_reproducible(int on)
{
    reproducible = on != 0;
}

int
coll_select_reproducible(void)
{
    return reproducible;
}

const char *
coll_select_reproducible_choice(enum coll_kind kind)
{
    switch (kind) {
    case COLL_REDUCE:
        return "in_order_binary";
    case COLL_ALLREDUCE:
    case COLL_REDUCE_SCATTER:
    case COLL_REDUCE_SCATTER_BLOCK:
    case COLL_SCAN:
    case COLL_EXSCAN:
        return "recursive_doubling";
    default:
        return NULL;
    }
}

int
coll_select_force(enum coll_kind kind, const char *name, const struct coll_params *params,
                  char *why, size_t why_size)
{
    const struct coll_algorithm *row = coll_registry_find(kind, name);
    if (row == NULL) {
        snprintf(why, why_size, "%s has no algorithm named '%s' (see collsim list algorithms)",
                 coll_kind_mpi_name(kind), name);
        return 0;
    }
    struct coll_params p = params != NULL ? *params : row->defaults;
    if (p.segment_bytes == 0)
        p.segment_bytes = row->defaults.segment_bytes;
    if (p.radix == 0)
        p.radix = row->defaults.radix;
    if ((row->caps & COLL_SEGMENTED) && p.segment_bytes <= 0) {
        snprintf(why, why_size, "segment_bytes must be positive");
        return 0;
    }
    if ((row->caps & COLL_RADIX) && p.radix < 2) {
        snprintf(why, why_size, "radix must be at least 2");
        return 0;
    }
    forced[kind] = row;
    forced_params[kind] = p;
    return 1;
}

const struct coll_algorithm *
coll_select_forced(enum coll_kind kind)
{
    return forced[kind];
}

const char *
coll_select_unmet(const struct coll_algorithm *row, const struct coll_call *call)
{
    if ((row->requires & COLL_REQ_COMMUTATIVE) && !call->commutative)
        return "requires commutative op";
    if ((row->requires & COLL_REQ_POWER_OF_TWO) && (call->comm_size & (call->comm_size - 1)))
        return "requires power-of-two ranks";
    if ((row->requires & COLL_REQ_COUNT_GE_SIZE) && call->count < call->comm_size)
        return "requires count >= ranks";
    if ((row->requires & COLL_REQ_CONTIGUOUS) && !call->contiguous)
        return "requires contiguous datatype";
    if ((row->requires & COLL_REQ_EVEN_RANKS) && call->comm_size % 2 != 0)
        return "requires an even number of ranks";
    if ((row->requires & COLL_REQ_NODE_BLOCKS) && !call->commutative && !call->node_blocks)
        return "requires commutative op, or each node's ranks consecutive (block placement) "
               "to keep rank order";
    return NULL;
}

/* The decision table's preferred algorithm name. */
static const char *
table_choice(const struct coll_call *call)
{
    int big = call->bytes > 2048 && call->count >= call->comm_size;
    switch (call->kind) {
    case COLL_REDUCE:
        return big ? "rabenseifner" : "binomial";
    case COLL_ALLREDUCE:
        return big ? "rabenseifner" : "recursive_doubling";
    case COLL_REDUCE_SCATTER:
    case COLL_REDUCE_SCATTER_BLOCK:
        if (!call->commutative)
            return "recursive_doubling";
        return call->bytes <= 512 * 1024 ? "recursive_halving" : "pairwise";
    case COLL_SCAN:
    case COLL_EXSCAN:
        return "recursive_doubling";
    case COLL_ALLGATHER:
    case COLL_ALLGATHERV: {
        size_t total = call->bytes * (size_t)call->comm_size;
        int pof2 = (call->comm_size & (call->comm_size - 1)) == 0;
        if (total < 512 * 1024 && pof2)
            return "recursive_doubling";
        return total < 80 * 1024 ? "bruck" : "ring";
    }
    case COLL_ALLTOALL:
        if (call->bytes <= 256 && call->comm_size >= 8)
            return "bruck";
        return call->bytes <= 32 * 1024 ? "linear" : "pairwise";
    case COLL_BCAST:
        /* MPICH's MPIR_CVAR_BCAST_SHORT_MSG_SIZE, _LONG_MSG_SIZE and _MIN_PROCS */
        if (call->bytes < 12 * 1024 || call->comm_size < 8)
            return "binomial";
        if (call->bytes < 512 * 1024 && (call->comm_size & (call->comm_size - 1)) == 0)
            return "scatter_recursive_doubling_allgather";
        return "scatter_ring_allgather";
    case COLL_GATHER:
    case COLL_SCATTER:
        return "binomial";
    case COLL_BARRIER:
        return "dissemination";
    default:
        return "linear";
    }
}

const struct coll_algorithm *
coll_select(const struct coll_call *call, struct coll_params *params, const char **refusal)
{
    *refusal = NULL;
    const struct coll_algorithm *row = forced[call->kind];
    if (row != NULL) {
        *refusal = coll_select_unmet(row, call);
        *params = forced_params[call->kind];
        return *refusal == NULL ? row : NULL;
    }
    const char *pinned = reproducible ? coll_select_reproducible_choice(call->kind) : NULL;
    if (pinned != NULL) {
        /* no fallback: another algorithm would silently change the bits */
        row = coll_registry_find(call->kind, pinned);
        *refusal = coll_select_unmet(row, call);
        *params = row->defaults;
        return *refusal == NULL ? row : NULL;
    }
    row = coll_registry_find(call->kind, table_choice(call));
    if (row == NULL || coll_select_unmet(row, call) != NULL) {
        row = NULL;
        for (size_t i = 0; i < coll_registry_count(call->kind); i++) {
            const struct coll_algorithm *candidate = coll_registry_nth(call->kind, i);
            if (coll_select_unmet(candidate, call) == NULL) {
                row = candidate;
                break;
            }
        }
    }
    if (row != NULL)
        *params = row->defaults;
    return row;
}
