/*
 * userops.c — user-defined reduction functions for the benchmark's plugin ops
 * (op = plugin:userops.so:SYMBOL), built as a user builds a plugin.
 *
 *   int_sum        inout[i] = in[i] + inout[i] on int: associative and commutative
 *   int_subtract   inout[i] = in[i] - inout[i] on int: NOT associative, so any algorithm that
 *                  brackets the ranks differently from the sequential fold gives another
 *                  answer (the benchmark's check must notice)
 */
#include "mpi.h"

void int_sum(void *in, void *inout, int *len, MPI_Datatype *dt);
void int_subtract(void *in, void *inout, int *len, MPI_Datatype *dt);

void
int_sum(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    const int *a = in;
    int *b = inout;
    for (int i = 0; i < *len; i++)
        b[i] = a[i] + b[i];
}

void
int_subtract(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    const int *a = in;
    int *b = inout;
    for (int i = 0; i < *len; i++)
        b[i] = a[i] - b[i];
}
