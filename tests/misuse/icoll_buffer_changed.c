/*
 * Touching a nonblocking collective's buffers before it completes (MPI-3.1 5.12: "the buffers
 * ... must not be accessed" until the request completes). Every MPI lets this pass silently:
 * the result is then whatever the timing makes of it. collsim reports it when the program
 * completes the request, on the rank that touched its buffer: a send buffer changed after
 * the call (MPI_Iallgather, a persistent MPI_Allreduce_init's start), a receive buffer written
 * while the operation is in progress (MPI_Iallreduce, whose messages land in a buffer of its
 * own; MPI_Ialltoall, the rank's own block), and a receive buffer written after the operation
 * ended inside another call but before the program's MPI_Wait, and one written while another
 * collective with buffers of its own is in flight. Correct uses pass: buffers changed after
 * MPI_Wait, two operations reading one send buffer, MPI_IN_PLACE left alone, a receive buffer
 * read (not written) in between, and four operations in flight writing one receive buffer
 * (MPICH's comm_idup_iallreduce runs ten so: each writes over the others' steps, MPI's doing,
 * not the program's; Open MPI and MPICH run it). That part runs under MPI_ERRORS_RETURN; the
 * last call, an MPI_Iscatter whose root changes its send buffer under the default handler,
 * stops the run.
 *
 * run: -n 4
 * exit: 3
 * expect: rank 0: MPI_Iallgather send buffer MPI_ERR_BUFFER
 * expect: rank 0: MPI_Iallreduce receive buffer MPI_ERR_BUFFER
 * expect: rank 0: MPI_Ialltoall own block MPI_ERR_BUFFER
 * expect: rank 0: after its end MPI_ERR_BUFFER
 * expect: rank 0: beside another in flight MPI_ERR_BUFFER
 * expect: rank 0: persistent MPI_ERR_BUFFER
 * expect: rank 0: correct uses: 5 of 5
 * expect: collsim: rank 0: MPI_Wait: the 32-byte send buffer of the MPI_Iscatter at main+
 * expect: (icoll_buffer_changed.so, icoll_buffer_changed.c:136) changed before that operation completed
 * expect: [MPI_ERR_BUFFER]
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static const char *
class_name(int rc)
{
    return rc == MPI_SUCCESS ? "MPI_SUCCESS" : rc == MPI_ERR_BUFFER ? "MPI_ERR_BUFFER"
                                                                     : "another class";
}

int
main(int argc, char **argv)
{
    int rank, size;
    long mine[2], all[8], sum[2], block[4][2], got[4][2], other[2] = {0, 0};
    MPI_Request r, r2, four[4];
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mine[0] = rank;
    mine[1] = -rank;

    MPI_Iallgather(mine, 2, MPI_LONG, all, 2, MPI_LONG, MPI_COMM_WORLD, &r);
    if (rank == 0)
        mine[1] = 99;
    int rc = MPI_Wait(&r, MPI_STATUS_IGNORE);
    if (rank == 0)
        printf("rank 0: MPI_Iallgather send buffer %s\n", class_name(rc));

    MPI_Iallreduce(mine, sum, 2, MPI_LONG, MPI_SUM, MPI_COMM_WORLD, &r);
    if (rank == 0)
        sum[0] = 7;
    rc = MPI_Wait(&r, MPI_STATUS_IGNORE);
    if (rank == 0)
        printf("rank 0: MPI_Iallreduce receive buffer %s\n", class_name(rc));

    memset(block, 0, sizeof block);
    MPI_Ialltoall(block, 2, MPI_LONG, got, 2, MPI_LONG, MPI_COMM_WORLD, &r);
    if (rank == 0)
        got[0][1] = 5;
    rc = MPI_Wait(&r, MPI_STATUS_IGNORE);
    if (rank == 0)
        printf("rank 0: MPI_Ialltoall own block %s\n", class_name(rc));

    /* the operation ends inside MPI_Barrier (which makes progress); the write comes after */
    MPI_Iallreduce(mine, sum, 2, MPI_LONG, MPI_MAX, MPI_COMM_WORLD, &r);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        sum[1] = 42;
    rc = MPI_Wait(&r, MPI_STATUS_IGNORE);
    if (rank == 0)
        printf("rank 0: after its end %s\n", class_name(rc));

    /* another collective in flight, writing a buffer of its own, leaves this one checked */
    MPI_Iallreduce(mine, sum, 2, MPI_LONG, MPI_SUM, MPI_COMM_WORLD, &r);
    MPI_Ibcast(other, 2, MPI_LONG, 1, MPI_COMM_WORLD, &r2);
    if (rank == 0)
        sum[0] = -77;
    rc = MPI_Wait(&r, MPI_STATUS_IGNORE);
    MPI_Wait(&r2, MPI_STATUS_IGNORE);
    if (rank == 0)
        printf("rank 0: beside another in flight %s\n", class_name(rc));

    MPI_Allreduce_init(mine, sum, 2, MPI_LONG, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &r2);
    MPI_Start(&r2);
    MPI_Wait(&r2, MPI_STATUS_IGNORE);
    MPI_Start(&r2);
    if (rank == 0)
        mine[0] = 11;
    rc = MPI_Wait(&r2, MPI_STATUS_IGNORE);
    if (rank == 0)
        printf("rank 0: persistent %s\n", class_name(rc));
    MPI_Request_free(&r2);

    int correct = 0;
    MPI_Iallreduce(mine, sum, 2, MPI_LONG, MPI_SUM, MPI_COMM_WORLD, &r);
    correct += MPI_Wait(&r, MPI_STATUS_IGNORE) == MPI_SUCCESS;
    sum[0] = mine[0] = 0; /* after MPI_Wait: the program's again */
    MPI_Iallgather(mine, 2, MPI_LONG, all, 2, MPI_LONG, MPI_COMM_WORLD, &r);
    MPI_Iallreduce(mine, sum, 2, MPI_LONG, MPI_SUM, MPI_COMM_WORLD, &r2);
    long seen = all[0] + sum[1]; /* reading is not writing */
    rc = MPI_Wait(&r, MPI_STATUS_IGNORE);
    correct += rc == MPI_SUCCESS && MPI_Wait(&r2, MPI_STATUS_IGNORE) == MPI_SUCCESS;
    MPI_Iallreduce(MPI_IN_PLACE, sum, 2, MPI_LONG, MPI_SUM, MPI_COMM_WORLD, &r);
    correct += MPI_Wait(&r, MPI_STATUS_IGNORE) == MPI_SUCCESS;
    MPI_Ibarrier(MPI_COMM_WORLD, &r);
    mine[0] = seen; /* no buffer at all */
    correct += MPI_Wait(&r, MPI_STATUS_IGNORE) == MPI_SUCCESS;
    for (int i = 0; i < 4; i++)
        MPI_Iallreduce(mine, sum, 2, MPI_LONG, MPI_SUM, MPI_COMM_WORLD, &four[i]);
    rc = MPI_Waitall(4, four, MPI_STATUSES_IGNORE);
    long expected[2];
    MPI_Allreduce(mine, expected, 2, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    correct += rc == MPI_SUCCESS && sum[0] == expected[0] && sum[1] == expected[1];
    if (rank == 0)
        printf("rank 0: correct uses: %d of 5\n", correct);
    fflush(stdout);

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    long parts[4];
    for (int i = 0; i < 4; i++)
        parts[i] = i;
    MPI_Iscatter(parts, 1, MPI_LONG, mine, 1, MPI_LONG, 0, MPI_COMM_WORLD, &r);
    if (rank == 0)
        parts[3] = 8;
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
