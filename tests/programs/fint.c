/*
 * fint.c — the handle conversions of MPI-3.1 §17.2.4 and the status conversions of §17.2.5
 * as a C program that hands its handles to Fortran code would use them: every kind's null
 * handle is 0 and comes back null; a live object's integer comes back as the same handle,
 * which then works in calls (a communicator, a datatype, an op, a request, a matched message);
 * an integer that names no object, or one whose object was freed, comes back null (collsim's
 * answer to an erroneous use); a status survives the round trip with its count. Rank 0 prints
 * the failures of all ranks. Under Open MPI 4.1 (MPI_F_STATUS_SIZE and the MPI_F_ indices
 * defined as 6, 0, 1, 2) only the checks of erroneous uses differ.
 */
#include <stdio.h>

#include "expect_values.h"

/* Each kind's null handle comes back null (its integer is collsim's choice: 0). */
static void
nulls(int rank)
{
    expect(MPI_Comm_f2c(MPI_Comm_c2f(MPI_COMM_NULL)) == MPI_COMM_NULL, rank, "MPI_COMM_NULL");
    expect(MPI_Type_f2c(MPI_Type_c2f(MPI_DATATYPE_NULL)) == MPI_DATATYPE_NULL, rank,
           "MPI_DATATYPE_NULL");
    expect(MPI_Group_f2c(MPI_Group_c2f(MPI_GROUP_NULL)) == MPI_GROUP_NULL, rank,
           "MPI_GROUP_NULL");
    expect(MPI_Request_f2c(MPI_Request_c2f(MPI_REQUEST_NULL)) == MPI_REQUEST_NULL, rank,
           "MPI_REQUEST_NULL");
    expect(MPI_Op_f2c(MPI_Op_c2f(MPI_OP_NULL)) == MPI_OP_NULL, rank, "MPI_OP_NULL");
    expect(MPI_Errhandler_f2c(MPI_Errhandler_c2f(MPI_ERRHANDLER_NULL)) == MPI_ERRHANDLER_NULL,
           rank, "MPI_ERRHANDLER_NULL");
    expect(MPI_Info_f2c(MPI_Info_c2f(MPI_INFO_NULL)) == MPI_INFO_NULL, rank, "MPI_INFO_NULL");
    expect(MPI_Message_f2c(MPI_Message_c2f(MPI_MESSAGE_NULL)) == MPI_MESSAGE_NULL, rank,
           "MPI_MESSAGE_NULL");
    /* integers that were never given out name no object: collsim answers the null handle
     * (converting them is erroneous; Open MPI 4.1 answers a NULL pointer) */
    expect(MPI_Comm_f2c(123456) == MPI_COMM_NULL && MPI_Comm_f2c(-1) == MPI_COMM_NULL, rank,
           "MPI_Comm_f2c of an unknown integer");
    expect(MPI_Type_f2c(-7) == MPI_DATATYPE_NULL, rank, "MPI_Type_f2c of a negative integer");
}

static void
communicators(int rank, int size)
{
    MPI_Fint world = MPI_Comm_c2f(MPI_COMM_WORLD), self = MPI_Comm_c2f(MPI_COMM_SELF);
    MPI_Fint null = MPI_Comm_c2f(MPI_COMM_NULL);
    expect(world != self && world != null && self != null, rank,
           "MPI_COMM_WORLD and MPI_COMM_SELF");
    expect(MPI_Comm_c2f(MPI_COMM_WORLD) == world, rank, "a second conversion");
    expect(MPI_Comm_f2c(world) == MPI_COMM_WORLD && MPI_Comm_f2c(self) == MPI_COMM_SELF, rank,
           "MPI_Comm_f2c of MPI_COMM_WORLD's integer");

    /* the integer of a new communicator, used through the handle it converts back to */
    MPI_Comm dup, gone;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Fint f = MPI_Comm_c2f(dup);
    expect(f != world && f != self && f != null, rank, "a new communicator's integer");
    int one = 1, n = 0;
    MPI_Allreduce(&one, &n, 1, MPI_INT, MPI_SUM, MPI_Comm_f2c(f));
    expect(n == size, rank, "MPI_Allreduce over MPI_Comm_f2c's communicator");

    /* freed by every member (the ranks share the object; a rank's own use of the integer
     * after its free is erroneous, §17.2.4), its integer names nothing; the handle it was
     * converts to -1 */
    gone = dup;
    MPI_Comm_free(&dup);
    MPI_Barrier(MPI_COMM_WORLD);
    expect(MPI_Comm_f2c(f) == MPI_COMM_NULL, rank, "MPI_Comm_f2c after MPI_Comm_free");
    expect(MPI_Comm_c2f(gone) == -1, rank, "MPI_Comm_c2f of a freed communicator");
}

static void
datatypes_and_ops(int rank, int size)
{
    MPI_Fint f_int = MPI_Type_c2f(MPI_INT), f_double = MPI_Type_c2f(MPI_DOUBLE);
    expect(f_int != f_double, rank, "predefined datatypes");
    MPI_Datatype pair;
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    MPI_Fint f_pair = MPI_Type_c2f(pair);
    expect(MPI_Type_f2c(f_pair) == pair && MPI_Type_f2c(f_int) == MPI_INT, rank,
           "MPI_Type_f2c");

    MPI_Fint f_sum = MPI_Op_c2f(MPI_SUM);
    expect(MPI_Op_f2c(f_sum) == MPI_SUM && MPI_Op_c2f(MPI_MAX) != f_sum, rank,
           "predefined ops");
    int mine[2] = {rank, 2 * rank}, total[2] = {-1, -1};
    MPI_Allreduce(mine, total, 2, MPI_Type_f2c(f_int), MPI_Op_f2c(f_sum), MPI_COMM_WORLD);
    int expect_sum = size * (size - 1) / 2;
    expect(total[0] == expect_sum && total[1] == 2 * expect_sum, rank,
           "MPI_Allreduce with converted datatype and op");
    /* the derived type through its integer, around a ring */
    int got[2] = {-1, -1}, left = (rank + size - 1) % size;
    MPI_Sendrecv(mine, 1, MPI_Type_f2c(f_pair), (rank + 1) % size, 9, got, 2, MPI_INT, left, 9,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    expect(got[0] == left && got[1] == 2 * left, rank, "MPI_Sendrecv of a converted datatype");
    MPI_Type_free(&pair);
    expect(MPI_Type_f2c(f_pair) == MPI_DATATYPE_NULL, rank, "MPI_Type_f2c after MPI_Type_free");

    /* a freed integer is given to the next object converted, which it then names */
    MPI_Datatype triple;
    MPI_Type_contiguous(3, MPI_INT, &triple);
    MPI_Type_commit(&triple);
    MPI_Fint f_triple = MPI_Type_c2f(triple);
    expect(MPI_Type_f2c(f_triple) == triple, rank, "a datatype converted after a free");
    MPI_Type_free(&triple);
}

static void
groups_errhandlers_infos(int rank)
{
    MPI_Group g;
    MPI_Comm_group(MPI_COMM_WORLD, &g);
    MPI_Fint f = MPI_Group_c2f(g);
    int gsize = -1, wsize;
    MPI_Group_size(MPI_Group_f2c(f), &gsize);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    expect(gsize == wsize, rank, "MPI_Group_f2c");
    MPI_Group_free(&g);

    MPI_Fint fatal = MPI_Errhandler_c2f(MPI_ERRORS_ARE_FATAL);
    MPI_Fint ret = MPI_Errhandler_c2f(MPI_ERRORS_RETURN);
    expect(fatal != ret && MPI_Errhandler_f2c(ret) == MPI_ERRORS_RETURN,
           rank, "MPI_Errhandler conversions");

    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "key", "value");
    MPI_Fint fi = MPI_Info_c2f(info);
    char value[16] = "";
    int flag = 0;
    MPI_Info_get(MPI_Info_f2c(fi), "key", 15, value, &flag);
    expect(flag && value[0] == 'v', rank, "MPI_Info_f2c");
    MPI_Info_free(&info);
    expect(MPI_Info_f2c(fi) == MPI_INFO_NULL, rank, "MPI_Info_f2c after MPI_Info_free");
}

/* A request and a matched message go through their integers; so does the status. */
static void
requests_messages_statuses(int rank, int size)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int out[3] = {value(rank, 0), value(rank, 1), value(rank, 2)}, in[3] = {0, 0, 0};
    MPI_Request send;
    MPI_Isend(out, 3, MPI_INT, right, 5, MPI_COMM_WORLD, &send);
    MPI_Fint f_send = MPI_Request_c2f(send);
    expect(MPI_Request_f2c(f_send) == send, rank, "MPI_Request_f2c");

    MPI_Message message;
    MPI_Status probed;
    MPI_Mprobe(left, 5, MPI_COMM_WORLD, &message, &probed);
    MPI_Fint f_message = MPI_Message_c2f(message);
    MPI_Message back = MPI_Message_f2c(f_message);
    expect(back == message, rank, "MPI_Message_f2c");
    MPI_Status st;
    MPI_Mrecv(in, 3, MPI_INT, &back, &st);
    expect(holds(in, 3, left) && back == MPI_MESSAGE_NULL, rank,
           "MPI_Mrecv of a converted message");
    expect(MPI_Message_f2c(f_message) == MPI_MESSAGE_NULL, rank, "a received message's integer");

    MPI_Request again = MPI_Request_f2c(f_send);
    MPI_Wait(&again, MPI_STATUS_IGNORE);
    expect(again == MPI_REQUEST_NULL && MPI_Request_f2c(f_send) == MPI_REQUEST_NULL, rank,
           "MPI_Wait on a converted request");

    MPI_Message none;
    MPI_Mprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &none, MPI_STATUS_IGNORE);
    MPI_Fint f_none = MPI_Message_c2f(none);
    expect(MPI_Message_f2c(f_none) == MPI_MESSAGE_NO_PROC, rank,
           "MPI_MESSAGE_NO_PROC");

    MPI_Fint f_status[MPI_F_STATUS_SIZE];
    MPI_Status c_status;
    int count = -1;
    expect(MPI_Status_c2f(&st, f_status) == MPI_SUCCESS && f_status[MPI_F_SOURCE] == left &&
               f_status[MPI_F_TAG] == 5 && f_status[MPI_F_ERROR] == st.MPI_ERROR,
           rank, "MPI_Status_c2f");
    expect(MPI_Status_f2c(f_status, &c_status) == MPI_SUCCESS &&
               c_status.MPI_SOURCE == left && c_status.MPI_TAG == 5,
           rank, "MPI_Status_f2c");
    MPI_Get_count(&c_status, MPI_INT, &count);
    expect(count == 3, rank, "MPI_Get_count of a converted status");
    /* MPI_STATUS_IGNORE and MPI_F_STATUS_IGNORE are no statuses (MPI_ERRORS_RETURN is set) */
    expect(MPI_Status_c2f(MPI_STATUS_IGNORE, f_status) == MPI_ERR_ARG, rank,
           "MPI_Status_c2f(MPI_STATUS_IGNORE)");
    expect(MPI_Status_f2c(MPI_F_STATUS_IGNORE, &c_status) == MPI_ERR_ARG, rank,
           "MPI_Status_f2c(MPI_F_STATUS_IGNORE)");
}

int
main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    nulls(rank);
    communicators(rank, size);
    datatypes_and_ops(rank, size);
    groups_errhandlers_infos(rank);
    requests_messages_statuses(rank, size);
    report_failures("handle conversions", rank, size);
    MPI_Finalize();
    return 0;
}
