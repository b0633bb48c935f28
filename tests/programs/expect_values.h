/*
 * expect_values.h — what the test programs that check received values share: the value a
 * sender puts at index i (value(rank, i)), whether an array holds a sender's values (holds),
 * and a check that counts and prints what is wrong, for rank 0 to sum over all ranks at the
 * end (failures).
 */
#ifndef COLLSIM_TESTS_EXPECT_VALUES_H
#define COLLSIM_TESTS_EXPECT_VALUES_H

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

#endif
