/*
 * status_error.c — who writes a status's MPI_ERROR field (MPI-3.1 §3.2.5): only the calls
 * that can return MPI_ERR_IN_STATUS (MPI_Waitall, MPI_Testall, MPI_Waitsome, MPI_Testsome),
 * which set it in every status they fill; every call that completes or probes one request or
 * message leaves the program's value where it was, as Open MPI and MPICH do, except that an
 * empty status (of MPI_REQUEST_NULL) is empty in every field (3.7.3). Each check puts
 * MPI_ERR_DIMS there first. Rank 0 prints the failures of all ranks.
 */
#include <stdio.h>

#include "expect_values.h"

#define MARK MPI_ERR_DIMS

static MPI_Status
marked(void)
{
    MPI_Status st;
    st.MPI_SOURCE = -7;
    st.MPI_TAG = -7;
    st.MPI_ERROR = MARK;
    return st;
}

/* the peer sends `n` ints with tag `tag` */
static void
send_to(int peer, int tag, int n)
{
    int out[4] = {value(0, 0), value(0, 1), value(0, 2), value(0, 3)};
    MPI_Send(out, n, MPI_INT, peer, tag, MPI_COMM_WORLD);
}

static void
receiver(int rank, int peer)
{
    int in[4];
    MPI_Status st = marked();
    MPI_Recv(in, 4, MPI_INT, peer, 1, MPI_COMM_WORLD, &st);
    expect(st.MPI_ERROR == MARK && st.MPI_SOURCE == peer && st.MPI_TAG == 1, rank, "MPI_Recv");

    MPI_Request r;
    st = marked();
    MPI_Irecv(in, 4, MPI_INT, peer, 2, MPI_COMM_WORLD, &r);
    MPI_Wait(&r, &st);
    expect(st.MPI_ERROR == MARK && st.MPI_TAG == 2, rank, "MPI_Wait");

    int flag = 0;
    st = marked();
    MPI_Irecv(in, 4, MPI_INT, peer, 3, MPI_COMM_WORLD, &r);
    while (!flag)
        MPI_Test(&r, &flag, &st);
    expect(st.MPI_ERROR == MARK && st.MPI_TAG == 3, rank, "MPI_Test");

    int index = -1;
    MPI_Request two[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    st = marked();
    MPI_Irecv(in, 4, MPI_INT, peer, 4, MPI_COMM_WORLD, &two[1]);
    MPI_Waitany(2, two, &index, &st);
    expect(st.MPI_ERROR == MARK && index == 1 && st.MPI_TAG == 4, rank, "MPI_Waitany");

    st = marked();
    MPI_Probe(peer, 5, MPI_COMM_WORLD, &st);
    expect(st.MPI_ERROR == MARK && st.MPI_TAG == 5, rank, "MPI_Probe");
    flag = 0;
    st = marked();
    while (!flag)
        MPI_Iprobe(peer, 5, MPI_COMM_WORLD, &flag, &st);
    expect(st.MPI_ERROR == MARK && st.MPI_TAG == 5, rank, "MPI_Iprobe");
    MPI_Message m;
    st = marked();
    MPI_Probe(MPI_PROC_NULL, 5, MPI_COMM_WORLD, &st);
    expect(st.MPI_ERROR == MARK && st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG,
           rank, "MPI_Probe of MPI_PROC_NULL");
    st = marked();
    MPI_Mprobe(MPI_PROC_NULL, 5, MPI_COMM_WORLD, &m, &st);
    expect(st.MPI_ERROR == MARK && st.MPI_SOURCE == MPI_PROC_NULL, rank,
           "MPI_Mprobe of MPI_PROC_NULL");
    st = marked();
    MPI_Mrecv(in, 0, MPI_INT, &m, &st);
    expect(st.MPI_ERROR == MARK && st.MPI_SOURCE == MPI_PROC_NULL, rank,
           "MPI_Mrecv of MPI_MESSAGE_NO_PROC");
    st = marked();
    MPI_Recv(in, 4, MPI_INT, MPI_PROC_NULL, 5, MPI_COMM_WORLD, &st);
    expect(st.MPI_ERROR == MARK && st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG,
           rank, "MPI_Recv from MPI_PROC_NULL");
    st = marked();
    MPI_Mprobe(peer, 5, MPI_COMM_WORLD, &m, &st);
    expect(st.MPI_ERROR == MARK && st.MPI_TAG == 5, rank, "MPI_Mprobe");
    st = marked();
    MPI_Mrecv(in, 4, MPI_INT, &m, &st);
    expect(st.MPI_ERROR == MARK && st.MPI_TAG == 5, rank, "MPI_Mrecv");

    /* MPI_REQUEST_NULL: the empty status, whose every field MPI-3.1 3.7.3 defines, MPI_ERROR
     * MPI_SUCCESS (as MPICH gives it; Open MPI 4.1 leaves MPI_ERROR as it was) */
    st = marked();
    MPI_Wait(&two[0], &st);
    expect(st.MPI_ERROR == MPI_SUCCESS && st.MPI_SOURCE == MPI_ANY_SOURCE &&
               st.MPI_TAG == MPI_ANY_TAG,
           rank, "MPI_Wait of MPI_REQUEST_NULL");
    int null_flag = 0;
    st = marked();
    MPI_Request_get_status(MPI_REQUEST_NULL, &null_flag, &st);
    expect(null_flag && st.MPI_ERROR == MPI_SUCCESS && st.MPI_SOURCE == MPI_ANY_SOURCE, rank,
           "MPI_Request_get_status of MPI_REQUEST_NULL");

    int one = 6;
    st = marked();
    MPI_Sendrecv(&one, 1, MPI_INT, peer, 6, in, 4, MPI_INT, peer, 6, MPI_COMM_WORLD, &st);
    expect(st.MPI_ERROR == MARK && st.MPI_TAG == 6, rank, "MPI_Sendrecv");

    /* the calls of MPI_ERR_IN_STATUS set it, MPI_SUCCESS here, for null requests too */
    MPI_Status sts[2] = {marked(), marked()};
    MPI_Request reqs[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    MPI_Irecv(in, 4, MPI_INT, peer, 7, MPI_COMM_WORLD, &reqs[0]);
    MPI_Waitall(2, reqs, sts);
    expect(sts[0].MPI_ERROR == MPI_SUCCESS && sts[1].MPI_ERROR == MPI_SUCCESS, rank,
           "MPI_Waitall");
    sts[0] = marked();
    sts[1] = marked();
    int outcount = 0, indices[2];
    MPI_Irecv(in, 4, MPI_INT, peer, 8, MPI_COMM_WORLD, &reqs[0]);
    MPI_Waitsome(2, reqs, &outcount, indices, sts);
    expect(outcount == 1 && sts[0].MPI_ERROR == MPI_SUCCESS && sts[1].MPI_ERROR == MARK, rank,
           "MPI_Waitsome");
}

int
main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size >= 2 && rank == 1) {
        for (int tag = 1; tag <= 5; tag++)
            send_to(0, tag, tag == 5 ? 2 : 4);
        int in[4], one = 6;
        MPI_Sendrecv(&one, 1, MPI_INT, 0, 6, in, 4, MPI_INT, 0, 6, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        send_to(0, 7, 4);
        send_to(0, 8, 4);
    } else if (size >= 2 && rank == 0) {
        receiver(rank, 1);
    }
    report_failures("status error field", rank, size);
    MPI_Finalize();
    return 0;
}
