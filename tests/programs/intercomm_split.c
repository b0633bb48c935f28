/*
 * intercomm_split.c — MPI_Comm_split and MPI_Comm_create on an inter-communicator
 * (MPI-3.1 §6.4.2). The world's even ranks are the left group, its odd ranks the right one.
 * Every rank works out from that layout alone what each call must give (group sizes, its own
 * rank, the remote group's world ranks) and checks it, through the new inter-communicator's
 * queries and an MPI_Allreduce over it (each side receives the sum over the other side);
 * rank 0 prints the failures of all ranks, which must be 0.
 *
 * Cases:
 *  - split: color = local rank % 3 on the left, local rank % 2 on the right (color 2 exists on
 *    the left only: MPI_COMM_NULL there), key = minus the local rank (reversed order), and
 *    the last rank of each side passes MPI_UNDEFINED;
 *  - create: the left passes its first two ranks, the right its whole group;
 *  - MPI_Comm_idup and MPI_Comm_idup_with_info of the inter-communicator, both in flight at
 *    once: the same two groups.
 */
#include <mpi.h>
#include <stdio.h>

#include "expect_values.h"

/* World rank of local rank i of a side (left: even world ranks, right: odd ones). */
static int
world_of(int left, int i)
{
    return 2 * i + (left ? 0 : 1);
}

static int
side_size(int left, int size)
{
    return left ? (size + 1) / 2 : size / 2;
}

/* Whether local rank i of a side takes part in the split, and with which color. */
static int
split_color(int left, int i, int n)
{
    if (i == n - 1)
        return MPI_UNDEFINED;
    return left ? i % 3 : i % 2;
}

/* The local ranks of a side with color c, in the new order (key -i: highest rank first). */
static int
members_of_color(int left, int n, int c, int *local_ranks)
{
    int m = 0;
    for (int i = n - 1; i >= 0; i--)
        if (split_color(left, i, n) == c)
            local_ranks[m++] = i;
    return m;
}

/* Check an inter-communicator against the expected local and remote world ranks. */
static void
check_inter(MPI_Comm inter, int rank, int left, const int *mine, int nmine, const int *theirs,
            int ntheirs, const char *what)
{
    int lsize, rsize, me, world;
    MPI_Comm_size(inter, &lsize);
    MPI_Comm_remote_size(inter, &rsize);
    MPI_Comm_rank(inter, &me);
    MPI_Comm_rank(MPI_COMM_WORLD, &world);
    expect(lsize == nmine, rank, what);
    expect(rsize == ntheirs, rank, what);
    expect(me >= 0 && me < nmine && world_of(left, mine[me]) == world, rank, what);
    int remote_sum = 0, got = -1;
    for (int k = 0; k < ntheirs; k++)
        remote_sum += world_of(!left, theirs[k]);
    MPI_Allreduce(&world, &got, 1, MPI_INT, MPI_SUM, inter);
    expect(got == remote_sum, rank, what);
}

int
main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int left = rank % 2 == 0;
    int local_rank = rank / 2;
    int n = side_size(left, size), m = side_size(!left, size);

    MPI_Comm local, inter;
    MPI_Comm_split(MPI_COMM_WORLD, left, rank, &local);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, left ? 1 : 0, 7, &inter);

    /* split */
    int color = split_color(left, local_rank, n);
    MPI_Comm part;
    MPI_Comm_split(inter, color, -local_rank, &part);
    int mine[64], theirs[64];
    int nmine = color == MPI_UNDEFINED ? 0 : members_of_color(left, n, color, mine);
    int ntheirs = color == MPI_UNDEFINED ? 0 : members_of_color(!left, m, color, theirs);
    if (nmine == 0 || ntheirs == 0) {
        expect(part == MPI_COMM_NULL, rank, "split: MPI_COMM_NULL");
    } else {
        expect(part != MPI_COMM_NULL, rank, "split: a communicator");
        int is_inter = 0;
        if (part != MPI_COMM_NULL) {
            MPI_Comm_test_inter(part, &is_inter);
            check_inter(part, rank, left, mine, nmine, theirs, ntheirs, "split");
            MPI_Comm_free(&part);
        }
        expect(is_inter, rank, "split: an inter-communicator");
    }

    /* create: the left's first two ranks against the whole right */
    MPI_Group local_group, chosen;
    MPI_Comm_group(inter, &local_group);
    int first_two[2] = {0, 1};
    int everyone[64];
    for (int i = 0; i < 64; i++)
        everyone[i] = i;
    MPI_Group_incl(local_group, left ? 2 : n, left ? first_two : everyone, &chosen);
    MPI_Comm made;
    MPI_Comm_create(inter, chosen, &made);
    if (left && local_rank >= 2) {
        expect(made == MPI_COMM_NULL, rank, "create: MPI_COMM_NULL");
    } else {
        int left_ranks[2] = {0, 1};
        expect(made != MPI_COMM_NULL, rank, "create: a communicator");
        if (made != MPI_COMM_NULL) {
            if (left)
                check_inter(made, rank, left, left_ranks, 2, everyone, m, "create");
            else
                check_inter(made, rank, left, everyone, n, left_ranks, 2, "create");
            MPI_Comm_free(&made);
        }
    }
    MPI_Group_free(&chosen);
    MPI_Group_free(&local_group);

    /* nonblocking dups */
    MPI_Comm dups[2];
    MPI_Request reqs[2];
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "mpi_assert_no_any_tag", "true");
    MPI_Comm_idup(inter, &dups[0], &reqs[0]);
    MPI_Comm_idup_with_info(inter, info, &dups[1], &reqs[1]);
    MPI_Info_free(&info);
    MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
    for (int k = 0; k < 2; k++) {
        int is_inter = 0;
        MPI_Comm_test_inter(dups[k], &is_inter);
        expect(is_inter, rank, "idup: an inter-communicator");
        check_inter(dups[k], rank, left, everyone, n, everyone, m, k ? "idup_with_info" : "idup");
        MPI_Comm_free(&dups[k]);
    }
    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);

    report_failures("intercomm split", rank, size);
    MPI_Finalize();
    return 0;
}
