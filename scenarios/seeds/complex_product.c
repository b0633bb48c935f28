/*
 * complex_product.c — the MPI standard's example of a user-defined reduction, "compute the
 * product of an array of complex numbers, in C" (seed 003, MPI_OP_CREATE; the same example is
 * 4.20 in seed 004): each rank has an array of 100 Complexes, MPI learns the type from
 * MPI_Type_contiguous(2, MPI_DOUBLE), the product from MPI_Op_create(myProd, ...), and
 * MPI_Reduce leaves the 100 element-wise products on the root (rank 0).
 *
 *   collsim exec scenarios/seeds/complex_product.so -n 8 [-- commute|noncommute]
 *
 * argv[1] chooses the commute flag given to MPI_Op_create: "commute" (the default, as in the
 * text) lets MPI evaluate in any order; "noncommute" obliges it to keep ascending rank order
 * (associativity only), so a different algorithm may serve the same call. Complex
 * multiplication does commute, so the answer is the same either way; the time may not be.
 *
 * The data are chosen so that the answer does not depend on the order or the bracketing that
 * the algorithm uses: element k of rank r is the unit i^((r + k) mod 4), times (1+i) when
 * (3r + k) mod 5 = 0 or (1-i) when it is 1, on ranks below 32 only. Every partial product is
 * then a Gaussian integer of modulus at most 2^16, so every multiplication in myProd is exact
 * in double (a zero may come out as -0.0 in one order and +0.0 in another; adding +0.0 before
 * printing shows both as 0).
 *
 * Output on the root: the commute flag as MPI_Op_commutative reports it, answer[0],
 * answer[1], answer[99], a checksum sum_k (k+1) * (re_k + 2 im_k), and the simulated time of
 * the MPI_Reduce (%.9f).
 */
#include <stdio.h>
#include <string.h>

#include "mpi.h"

#define N 100

typedef struct {
    double real, imag;
} Complex;

/* the user-defined function: inout[i] = in[i] * inout[i] */
static void
myProd(void *invec, void *inoutvec, int *len, MPI_Datatype *dptr)
{
    (void)dptr;
    Complex *in = invec, *inout = inoutvec;
    Complex c;
    for (int i = 0; i < *len; ++i) {
        c.real = inout->real * in->real - inout->imag * in->imag;
        c.imag = inout->real * in->imag + inout->imag * in->real;
        *inout = c;
        in++;
        inout++;
    }
}

static Complex
mul(Complex x, Complex y)
{
    Complex z = {x.real * y.real - x.imag * y.imag, x.real * y.imag + x.imag * y.real};
    return z;
}

/* element k of rank r (see the header comment) */
static Complex
element(int r, int k)
{
    static const Complex units[4] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}};
    Complex z = units[(r + k) % 4];
    if (r < 32 && (3 * r + k) % 5 == 0)
        z = mul(z, (Complex){1, 1});
    else if (r < 32 && (3 * r + k) % 5 == 1)
        z = mul(z, (Complex){1, -1});
    return z;
}

int
main(int argc, char **argv)
{
    int myrank, root = 0, commute = 1;
    MPI_Init(&argc, &argv);
    MPI_Comm comm = MPI_COMM_WORLD;
    MPI_Comm_rank(comm, &myrank);
    if (argc > 1 && strcmp(argv[1], "noncommute") == 0) {
        commute = 0;
    } else if (argc > 1 && strcmp(argv[1], "commute") != 0) {
        if (myrank == 0)
            fprintf(stderr, "complex_product: argument must be 'commute' or 'noncommute', not '%s'\n",
                    argv[1]);
        MPI_Abort(comm, 1);
    }

    /* each process has an array of 100 Complexes */
    Complex a[N], answer[N];
    MPI_Op myOp;
    MPI_Datatype ctype;
    for (int k = 0; k < N; k++)
        a[k] = element(myrank, k);

    /* explain to MPI how type Complex is defined */
    MPI_Type_contiguous(2, MPI_DOUBLE, &ctype);
    MPI_Type_commit(&ctype);
    /* create the complex-product user-op */
    MPI_Op_create(myProd, commute, &myOp);

    MPI_Barrier(comm);
    double t0 = MPI_Wtime();
    MPI_Reduce(a, answer, N, ctype, myOp, root, comm);
    double t = MPI_Wtime() - t0;
    /* At this point, the answer, which consists of 100 Complexes, resides on process root */

    if (myrank == root) {
        int flag;
        MPI_Op_commutative(myOp, &flag);
        printf("myOp commutative = %d\n", flag);
        double checksum = 0.0;
        for (int k = 0; k < N; k++) {
            answer[k].real += 0.0;
            answer[k].imag += 0.0;
            checksum += (k + 1) * (answer[k].real + 2 * answer[k].imag);
        }
        const int show[] = {0, 1, N - 1};
        for (int s = 0; s < 3; s++)
            printf("answer[%d] = (%.0f, %.0f)\n", show[s], answer[show[s]].real,
                   answer[show[s]].imag);
        printf("checksum = %.0f\n", checksum + 0.0);
        printf("root reduce time = %.9f\n", t);
    }

    MPI_Op_free(&myOp);
    MPI_Type_free(&ctype);
    MPI_Finalize();
    return 0;
}
