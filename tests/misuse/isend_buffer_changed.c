/*
 * Changing a nonblocking send's buffer before the send completes (MPI-3.1 3.7.2): rank 0 sends
 * to rank 1 and overwrites the buffer before MPI_Wait. Every MPI lets this pass while the
 * message goes eagerly (copied at the call) and sends the new bytes once it does not. collsim
 * refuses it when the program sees the send complete: MPI_ERR_BUFFER from MPI_Wait, from
 * MPI_Test, as MPI_ERR_IN_STATUS from MPI_Waitall with the status's MPI_ERROR, for a 1 MiB
 * buffer rewritten whole, and for a persistent send's start. Correct uses pass: the buffer
 * changed after MPI_Wait, two sends reading one buffer at once, a send of nothing. That part
 * runs under MPI_ERRORS_RETURN; the last send, changed and waited for under the default
 * handler, stops the run.
 *
 * run: -n 2
 * exit: 3
 * expect: rank 0: MPI_Wait MPI_ERR_BUFFER
 * expect: rank 0: MPI_Test MPI_ERR_BUFFER
 * expect: rank 0: MPI_Waitall MPI_ERR_IN_STATUS, statuses MPI_SUCCESS MPI_ERR_BUFFER
 * expect: rank 0: 1 MiB MPI_ERR_BUFFER
 * expect: rank 0: persistent MPI_ERR_BUFFER
 * expect: rank 0: correct uses: 3 of 3
 * expect: collsim: rank 0: MPI_Wait: the 8-byte buffer of the MPI_Isend at main+
 * expect: (isend_buffer_changed.so, isend_buffer_changed.c:104) changed before that send completed
 * expect: [MPI_ERR_BUFFER]
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BIG (1 << 20)

static const char *
class_name(int rc)
{
    return rc == MPI_SUCCESS         ? "MPI_SUCCESS"
           : rc == MPI_ERR_BUFFER    ? "MPI_ERR_BUFFER"
           : rc == MPI_ERR_IN_STATUS ? "MPI_ERR_IN_STATUS"
                                     : "another class";
}

int
main(int argc, char **argv)
{
    int rank;
    long v[2] = {1, 2}, w[2];
    char *big = calloc(BIG, 1), *big_in = malloc(BIG);
    MPI_Request r[2];
    MPI_Status st[2];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 1) {
        for (int tag = 0; tag < 5; tag++)
            MPI_Recv(w, 2, MPI_LONG, 0, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(w, 2, MPI_LONG, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(big_in, BIG, MPI_CHAR, 0, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(w, 2, MPI_LONG, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (int tag = 8; tag < 11; tag++)
            MPI_Recv(w, 2, MPI_LONG, 0, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(w, 1, MPI_LONG, 0, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        MPI_Isend(v, 2, MPI_LONG, 1, 0, MPI_COMM_WORLD, &r[0]);
        v[1] = 3;
        printf("rank 0: MPI_Wait %s\n", class_name(MPI_Wait(&r[0], MPI_STATUS_IGNORE)));

        int flag = 0, rc = MPI_SUCCESS;
        MPI_Isend(v, 2, MPI_LONG, 1, 1, MPI_COMM_WORLD, &r[0]);
        v[0] = 4;
        while (!flag && rc == MPI_SUCCESS)
            rc = MPI_Test(&r[0], &flag, MPI_STATUS_IGNORE);
        printf("rank 0: MPI_Test %s\n", class_name(rc));

        long u[2] = {5, 6};
        MPI_Isend(u, 2, MPI_LONG, 1, 2, MPI_COMM_WORLD, &r[0]);
        MPI_Isend(v, 2, MPI_LONG, 1, 3, MPI_COMM_WORLD, &r[1]);
        v[0] = 7;
        rc = MPI_Waitall(2, r, st);
        printf("rank 0: MPI_Waitall %s, statuses %s %s\n", class_name(rc),
               class_name(st[0].MPI_ERROR), class_name(st[1].MPI_ERROR));

        MPI_Send_init(v, 2, MPI_LONG, 1, 4, MPI_COMM_WORLD, &r[0]);
        MPI_Start(&r[0]);
        v[1] = 8;
        printf("rank 0: persistent %s\n", class_name(MPI_Wait(&r[0], MPI_STATUS_IGNORE)));
        MPI_Request_free(&r[0]);

        int ok = 0; /* correct: changed after the wait; two sends of one buffer; nothing */
        MPI_Isend(v, 2, MPI_LONG, 1, 5, MPI_COMM_WORLD, &r[0]);
        ok += MPI_Wait(&r[0], MPI_STATUS_IGNORE) == MPI_SUCCESS;
        v[0] = 9;
        MPI_Isend(big, BIG, MPI_CHAR, 1, 6, MPI_COMM_WORLD, &r[0]);
        memset(big, 1, BIG);
        printf("rank 0: 1 MiB %s\n", class_name(MPI_Wait(&r[0], MPI_STATUS_IGNORE)));
        MPI_Isend(v, 2, MPI_LONG, 1, 7, MPI_COMM_WORLD, &r[0]);
        MPI_Isend(v, 2, MPI_LONG, 1, 8, MPI_COMM_WORLD, &r[1]);
        ok += MPI_Waitall(2, r, MPI_STATUSES_IGNORE) == MPI_SUCCESS;
        MPI_Isend(v, 0, MPI_LONG, 1, 9, MPI_COMM_WORLD, &r[0]);
        v[0] = 10;
        ok += MPI_Wait(&r[0], MPI_STATUS_IGNORE) == MPI_SUCCESS;
        MPI_Send(v, 2, MPI_LONG, 1, 10, MPI_COMM_WORLD);
        printf("rank 0: correct uses: %d of 3\n", ok);
        fflush(stdout);

        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
        MPI_Isend(v, 1, MPI_LONG, 1, 11, MPI_COMM_WORLD, &r[0]);
        v[0] = 11;
        MPI_Wait(&r[0], MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    free(big);
    free(big_in);
    return 0;
}
