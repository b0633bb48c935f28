/*
 * coll_registry.h — the one table of collective algorithms: kind, name, function,
 * requirements, capabilities, default parameters and a one-line summary. Algorithms are
 * found by name, never by position.
 */
#ifndef COLLSIM_COLL_REGISTRY_H
#define COLLSIM_COLL_REGISTRY_H

#include <stddef.h>

#include "coll.h"
#include "coll_kinds.h"

union coll_function {
    coll_barrier_fn *barrier;
    coll_bcast_fn *bcast;
    coll_gather_fn *gather;
    coll_gatherv_fn *gatherv;
    coll_scatter_fn *scatter;
    coll_scatterv_fn *scatterv;
    coll_allgather_fn *allgather;
    coll_allgatherv_fn *allgatherv;
    coll_alltoall_fn *alltoall;
    coll_alltoallv_fn *alltoallv;
    coll_alltoallw_fn *alltoallw;
    coll_reduce_fn *reduce;
    coll_allreduce_fn *allreduce;
    coll_reduce_scatter_fn *reduce_scatter;
    coll_reduce_scatter_block_fn *reduce_scatter_block;
    coll_scan_fn *scan;
    coll_exscan_fn *exscan;
};

struct coll_algorithm {
    enum coll_kind kind;
    const char *name;
    union coll_function fn;
    unsigned requires;            /* enum coll_requirement flags */
    unsigned caps;                /* enum coll_capability flags */
    struct coll_params defaults;
    const char *summary;
};

/* All rows, in table order (grouped by kind). */
const struct coll_algorithm *coll_registry_rows(size_t *count);
/* The row of (kind, name), or NULL. */
const struct coll_algorithm *coll_registry_find(enum coll_kind kind, const char *name);
/* Why a COLL_READS_DATA row needs payload data, e.g. "sends the block sizes as data". */
const char *coll_reads_data_why(const struct coll_algorithm *row);
/* Number of rows of a kind, and the i-th of them (table order). */
size_t coll_registry_count(enum coll_kind kind);
const struct coll_algorithm *coll_registry_nth(enum coll_kind kind, size_t index);

/* Text of the requirement flags, e.g. "commutative op, power-of-two ranks" ("" if none). */
void coll_requirements_describe(unsigned requires, char *buf, size_t size);

#endif
