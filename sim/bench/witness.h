/*
 * witness.h — non-commutative associative operations that expose any deviation from MPI's
 * rank order, with their sequential reference folds.
 *
 *  - matrix: 2x2 integer matrices modulo the prime 1000003, multiplied (one item = 4 ints,
 *    datatype witness_matrix_type());
 *  - affine: affine maps x -> a x + b modulo 1000003, composed left to right (one item = 2
 *    ints, datatype witness_affine_type()).
 * Rank r's contribution at item i is witness_*_value(r, i, ...): distinct per rank and item,
 * so a swapped pair of ranks or items changes the result.
 *
 * Call witness_setup() after MPI_Init on every rank and witness_teardown() before
 * MPI_Finalize (they count users: the simulated ranks share one process); the ops and types
 * are valid in between. witness_fill/fold/equal/function work without setup.
 *
 * Plain MPI code (no SimGrid, no GLib): the unit tests, the built-in benchmark (sim/bench/bench.c)
 * and the real-MPI cross-check (tests/realmpi/, compiled against Open MPI) share this file.
 */
#ifndef COLLSIM_TEST_WITNESS_H
#define COLLSIM_TEST_WITNESS_H

#include "mpi.h"

#define WITNESS_PRIME 1000003

struct witness_matrix { int m[4]; };   /* row-major 2x2 */
struct witness_affine { int a, b; };   /* x -> a x + b */

enum witness_kind { WITNESS_MATRIX, WITNESS_AFFINE, WITNESS_KIND_COUNT };

struct witness {
    enum witness_kind kind;
    const char *name;
    MPI_Datatype type;   /* one item */
    MPI_Op op;           /* non-commutative */
    int item_ints;       /* ints per item */
};

void witness_setup(void);
void witness_teardown(void);
const struct witness *witness_get(enum witness_kind kind);

/* The witness's user function, for an op created with another commute flag (the benchmark
 * takes the flag from its scenario, to show what a false claim of commutativity does). */
MPI_User_function *witness_function(enum witness_kind kind);

/* Fill count items with rank r's contribution (salt varies the data between calls). */
void witness_fill(const struct witness *w, int rank, int salt, int *items, int count);
/* Reference: fold, in rank order, the contributions of ranks first..last at each item. */
void witness_fold(const struct witness *w, int first, int last, int salt, int *items, int count);
/* 1 if the count items are equal. */
int witness_equal(const struct witness *w, const int *a, const int *b, int count);

#endif
