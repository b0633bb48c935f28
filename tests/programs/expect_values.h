/*
 * expect_values.h — what the test programs that check received values share: the value a
 * sender puts at index i (value(rank, i)), whether an array holds a sender's values (holds),
 * a check that counts and prints what is wrong (failures), and the last line, where rank 0
 * prints the failures of all ranks (report_failures).
 */
#ifndef COLLSIM_TESTS_EXPECT_VALUES_H
#define COLLSIM_TESTS_EXPECT_VALUES_H

#include <mpi.h>
#include <stdio.h>

static int failures;

static inline int
value(int rank, int i)
{
    return rank * 100003 + i * 7 + 1;
}

static inline int
holds(const int *a, int n, int rank)
{
    for (int i = 0; i < n; i++)
        if (a[i] != value(rank, i))
            return 0;
    return 1;
}

static inline void
expect(int ok, int rank, const char *what)
{
    if (!ok) {
        failures++;
        printf("rank %d: %s wrong\n", rank, what);
    }
}

/* Rank 0 prints "WHAT, P ranks: N failures", N summed over all ranks (collective). */
static inline void
report_failures(const char *what, int rank, int size)
{
    int total = 0;
    MPI_Reduce(&failures, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("%s, %d ranks: %d failures\n", what, size, total);
}

#endif
