/*
 * isendrecv.c — MPI-4's MPI_Isendrecv and MPI_Isendrecv_replace, every value worked out from
 * the ring: rank r sends value(r, i) to its right neighbour with tag r and receives from its
 * left one, so it must get value(left, i), with status source = left, tag = left and the count
 * sent. An eager exchange and a rendezvous one (100000 ints), the replace form, two exchanges
 * and an MPI_Iallreduce in one MPI_Waitall, an MPI_Test loop, MPI_PROC_NULL on both sides (at
 * once: source MPI_PROC_NULL, tag MPI_ANY_TAG, count 0), a derived type freed before the wait,
 * MPI_Cancel (the exchange completes, not cancelled) and MPI_Request_free (MPI_Finalize
 * completes it: the buffer is checked after it).
 */
#include <stdlib.h>

#include "expect_values.h"

#define BIG 100000

static int
status_is(const MPI_Status *st, int source, int tag, int count, MPI_Datatype type)
{
    int got = -1;
    MPI_Get_count(st, type, &got);
    return st->MPI_SOURCE == source && st->MPI_TAG == tag && got == count;
}

int
main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int *out = malloc(sizeof(int) * BIG), *in = malloc(sizeof(int) * BIG);
    for (int i = 0; i < BIG; i++)
        out[i] = value(rank, i);
    MPI_Request req[3];
    MPI_Status st[3];

    /* eager, then rendezvous */
    int counts[2] = {5, BIG};
    for (int k = 0; k < 2; k++) {
        MPI_Isendrecv(out, counts[k], MPI_INT, right, rank, in, BIG, MPI_INT, left, MPI_ANY_TAG,
                      MPI_COMM_WORLD, &req[0]);
        MPI_Wait(&req[0], &st[0]);
        expect(req[0] == MPI_REQUEST_NULL && holds(in, counts[k], left) &&
                   status_is(&st[0], left, left, counts[k], MPI_INT),
               rank, k == 0 ? "an eager exchange" : "a rendezvous exchange");
    }

    /* the replace form, both directions and a collective in one Waitall */
    int *buf = malloc(sizeof(int) * BIG), back[3], sum = -1, one = 1;
    for (int i = 0; i < BIG; i++)
        buf[i] = value(rank, i);
    for (int i = 0; i < 3; i++)
        back[i] = value(rank, i);
    MPI_Isendrecv_replace(buf, BIG, MPI_INT, right, 7, left, 7, MPI_COMM_WORLD, &req[0]);
    MPI_Isendrecv_replace(back, 3, MPI_INT, left, 8, right, 8, MPI_COMM_WORLD, &req[1]);
    MPI_Iallreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req[2]);
    MPI_Waitall(3, req, st);
    expect(holds(buf, BIG, left) && status_is(&st[0], left, 7, BIG, MPI_INT), rank,
           "Isendrecv_replace to the right");
    expect(holds(back, 3, right) && status_is(&st[1], right, 8, 3, MPI_INT), rank,
           "Isendrecv_replace to the left");
    expect(sum == size, rank, "the Iallreduce beside them");

    /* a test loop; a freed derived type */
    MPI_Datatype pair;
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    MPI_Isendrecv(out, 3, pair, right, 9, in, 3, pair, left, 9, MPI_COMM_WORLD, &req[0]);
    MPI_Type_free(&pair);
    int flag = 0;
    while (!flag)
        MPI_Test(&req[0], &flag, &st[0]);
    expect(holds(in, 6, left) && st[0].MPI_SOURCE == left && st[0].MPI_TAG == 9, rank,
           "a test loop with a freed type");

    /* no peer at all */
    in[0] = -5;
    MPI_Isendrecv(out, 1, MPI_INT, MPI_PROC_NULL, 1, in, 1, MPI_INT, MPI_PROC_NULL, 1,
                  MPI_COMM_WORLD, &req[0]);
    MPI_Wait(&req[0], &st[0]);
    expect(in[0] == -5 && status_is(&st[0], MPI_PROC_NULL, MPI_ANY_TAG, 0, MPI_INT), rank,
           "MPI_PROC_NULL on both sides");

    /* a cancel that leaves the exchange to complete */
    MPI_Isendrecv(out, 4, MPI_INT, right, 11, in, 4, MPI_INT, left, 11, MPI_COMM_WORLD,
                  &req[0]);
    int cancelled = -1;
    expect(MPI_Cancel(&req[0]) == MPI_SUCCESS, rank, "MPI_Cancel");
    MPI_Wait(&req[0], &st[0]);
    MPI_Test_cancelled(&st[0], &cancelled);
    expect(cancelled == 0 && holds(in, 4, left), rank, "the exchange after MPI_Cancel");

    /* freed while active: MPI_Finalize completes it */
    static int kept[2];
    MPI_Isendrecv(out, 2, MPI_INT, right, 12, kept, 2, MPI_INT, left, 12, MPI_COMM_WORLD,
                  &req[0]);
    MPI_Request_free(&req[0]);
    expect(req[0] == MPI_REQUEST_NULL, rank, "MPI_Request_free");
    int failed = failures, total = 0;
    MPI_Reduce(&failed, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    if (!holds(kept, 2, left))
        total++, printf("rank %d: the freed exchange wrong\n", rank);
    if (rank == 0)
        printf("isendrecv, %d ranks: %d failures before MPI_Finalize\n", size, total);
    free(out);
    free(in);
    free(buf);
    return 0;
}
