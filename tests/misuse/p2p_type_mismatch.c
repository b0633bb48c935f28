/*
 * Send and receive types must match (MPI-3.1 §3.3.1): rank 0 sends ints that rank 1 receives as
 * doubles, the bug that prints garbage under every MPI (4.24e-314 for 1 and 2). collsim gives
 * the receive MPI_ERR_TYPE, fatal under the default handler. Under MPI_ERRORS_RETURN the
 * program gets the code from MPI_Recv, from MPI_Wait, and as MPI_ERR_IN_STATUS from
 * MPI_Waitall with the status's MPI_ERROR; the pairs MPI lets match (or that every MPI
 * delivers intact: one kind and one size) go through: MPI_BYTE on one side, MPI_LONG with
 * MPI_INT64_T, MPI_INT with MPI_UNSIGNED, a struct of three chars with MPI_CHAR, an empty
 * message of any type. That part runs first.
 *
 * run: -n 2
 * exit: 3
 * expect: rank 1: MPI_Recv MPI_ERR_TYPE
 * expect: rank 1: MPI_Wait MPI_ERR_TYPE
 * expect: rank 1: MPI_Waitall MPI_ERR_IN_STATUS, statuses MPI_SUCCESS MPI_ERR_TYPE
 * expect: rank 1: matching pairs: 5 of 5 received, values 7 -8 9 abc
 * expect: collsim: rank 1: MPI_Recv: a message of 12 bytes of MPI_FLOAT arrived for a receive of MPI_DOUBLE
 * expect: [MPI_ERR_TYPE]
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const char *
class_name(int rc)
{
    int cls;
    MPI_Error_class(rc, &cls);
    return cls == MPI_SUCCESS          ? "MPI_SUCCESS"
           : cls == MPI_ERR_TYPE       ? "MPI_ERR_TYPE"
           : cls == MPI_ERR_IN_STATUS  ? "MPI_ERR_IN_STATUS"
                                       : "another class";
}

int
main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Datatype three_chars;
    MPI_Type_create_struct(3, (int[]){1, 1, 1}, (MPI_Aint[]){0, 1, 2},
                           (MPI_Datatype[]){MPI_CHAR, MPI_CHAR, MPI_CHAR}, &three_chars);
    MPI_Type_commit(&three_chars);
    if (rank == 0) {
        int ints[2] = {1, 2};
        long l = 7;
        int neg = -8, nine = 9;
        float floats[3] = {1, 2, 3};
        MPI_Send(ints, 2, MPI_INT, 1, 0, MPI_COMM_WORLD);  /* as 1 double: wrong */
        MPI_Send(ints, 2, MPI_INT, 1, 1, MPI_COMM_WORLD);  /* Irecv as double: wrong */
        MPI_Send(ints, 1, MPI_INT, 1, 2, MPI_COMM_WORLD);  /* Waitall: right */
        MPI_Send(ints, 2, MPI_INT, 1, 3, MPI_COMM_WORLD);  /* Waitall: as double, wrong */
        MPI_Send(&l, 1, MPI_LONG, 1, 4, MPI_COMM_WORLD);
        MPI_Send(&neg, 1, MPI_INT, 1, 5, MPI_COMM_WORLD);
        MPI_Send(&nine, 1, MPI_INT, 1, 6, MPI_COMM_WORLD);
        MPI_Send("abc", 1, three_chars, 1, 7, MPI_COMM_WORLD);
        MPI_Send(ints, 0, MPI_INT, 1, 8, MPI_COMM_WORLD);
        MPI_Send(floats, 3, MPI_FLOAT, 1, 9, MPI_COMM_WORLD); /* as doubles, fatal */
    } else {
        double d[2];
        int one;
        MPI_Status st[2];
        MPI_Request reqs[2];
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        int rc = MPI_Recv(d, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("rank 1: MPI_Recv %s\n", class_name(rc));
        MPI_Irecv(d, 1, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD, &reqs[0]);
        rc = MPI_Wait(&reqs[0], MPI_STATUS_IGNORE);
        printf("rank 1: MPI_Wait %s\n", class_name(rc));
        MPI_Irecv(&one, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, &reqs[0]);
        MPI_Irecv(d, 1, MPI_DOUBLE, 0, 3, MPI_COMM_WORLD, &reqs[1]);
        rc = MPI_Waitall(2, reqs, st);
        printf("rank 1: MPI_Waitall %s, statuses %s %s\n", class_name(rc),
               class_name(st[0].MPI_ERROR), class_name(st[1].MPI_ERROR));

        int64_t l = 0;
        unsigned u = 0;
        unsigned char bytes[sizeof(int)];
        char abc[4] = "";
        double none;
        int ok = 0;
        ok += MPI_Recv(&l, 1, MPI_INT64_T, 0, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE) == MPI_SUCCESS;
        ok += MPI_Recv(&u, 1, MPI_UNSIGNED, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE) ==
              MPI_SUCCESS;
        ok += MPI_Recv(bytes, sizeof(int), MPI_BYTE, 0, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE) ==
              MPI_SUCCESS;
        ok += MPI_Recv(abc, 3, MPI_CHAR, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE) == MPI_SUCCESS;
        ok += MPI_Recv(&none, 1, MPI_DOUBLE, 0, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE) ==
              MPI_SUCCESS;
        int nine;
        memcpy(&nine, bytes, sizeof nine);
        printf("rank 1: matching pairs: %d of 5 received, values %lld %d %d %s\n", ok,
               (long long)l, (int)u, nine, abc);
        fflush(stdout);
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
        MPI_Recv(d, 2, MPI_DOUBLE, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Type_free(&three_chars);
    MPI_Finalize();
    return 0;
}
