/*
 * env.c — the MPI environment of a simulated rank: Init, Finalize, Abort, the simulated clock.
 *
 * MPI_Wtime is the SimGrid clock: it only moves when simulated work, communication or
 * overheads are charged, so a program's timings are reproducible to the bit.
 */
#include "config.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>

#include "mpi.h"
#include "rank.h"
#include "src/comm.h"
#include "src/errhandler.h"

static struct sim_rank *
self_or_die(const char *call)
{
    struct sim_rank *me = sim_rank_self();
    if (me == NULL) {
        fprintf(stderr, "collsim: %s called outside a simulated rank\n", call);
        sim_engine_abort(COLLSIM_EXIT_MPI_ERROR);
    }
    return me;
}

int
MPI_Init(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    struct sim_rank *me = self_or_die("MPI_Init");
    if (me->mpi_state != 0)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_OTHER, "MPI_Init",
                             "MPI_Init called twice");
    me->mpi_state = 1;
    return MPI_SUCCESS;
}

int
MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    (void)required;
    int rc = MPI_Init(argc, argv);
    if (provided != NULL)
        *provided = MPI_THREAD_SINGLE;
    return rc;
}

int
MPI_Finalize(void)
{
    struct sim_rank *me = self_or_die("MPI_Finalize");
    if (me->mpi_state != 1)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_OTHER, "MPI_Finalize",
                             me->mpi_state == 0 ? "called before MPI_Init"
                                                : "MPI_Finalize called twice");
    /* delete callbacks may still communicate (collsim's caches free their communicators) */
    int rc = collsim_comm_finalize_rank();
    sim_p2p_report_unfinished(me);
    me->mpi_state = 2;
    return rc;
}

int
MPI_Initialized(int *flag)
{
    struct sim_rank *me = sim_rank_self();
    *flag = me != NULL && me->mpi_state >= 1;
    return MPI_SUCCESS;
}

int
MPI_Finalized(int *flag)
{
    struct sim_rank *me = sim_rank_self();
    *flag = me != NULL && me->mpi_state == 2;
    return MPI_SUCCESS;
}

int
MPI_Abort(MPI_Comm comm, int errorcode)
{
    (void)comm;
    struct sim_rank *me = self_or_die("MPI_Abort");
    fflush(stdout);
    fprintf(stderr, "collsim: rank %d called MPI_Abort with error code %d at t=%.9f s\n",
            me->world_rank, errorcode, simgrid_get_clock());
    /* an exit code of 0 would read as success: keep the failure visible */
    sim_engine_abort(errorcode != 0 ? errorcode & 0xff ? errorcode & 0xff : 1 : 1);
}

/*
 * exit() called by a rank. Every exit() of the process comes here (libcollsim is searched
 * before the C library), so a call from outside a rank goes on to the C library's. A rank's
 * exit(0) after MPI_Finalize ends that rank as a return from main would; any other exit ends
 * the whole run at once, as mpirun ends a job, with the rank's status (or, for exit(0) before
 * MPI_Finalize, the status of a rank that never finalized). Without this, the C library's
 * exit handlers would tear SimGrid down under the other ranks' feet (it aborted).
 */
void
exit(int status)
{
    struct sim_rank *me = sim_rank_self();
    if (me == NULL) {
        void (*libc_exit)(int) = (void (*)(int))dlsym(RTLD_NEXT, "exit");
        if (libc_exit != NULL)
            libc_exit(status);
        _exit(status);
    }
    if (status == 0 && me->mpi_state == 2) {
        sim_p2p_rank_finish(me);
        me->exit_status = 0;
        me->finished = TRUE;
        sg_actor_exit();
    }
    fflush(stdout);
    fprintf(stderr, "collsim: rank %d called exit(%d)%s at t=%.9f s; the run ends\n",
            me->world_rank, status, me->mpi_state == 2 ? "" : " before MPI_Finalize",
            simgrid_get_clock());
    sim_engine_abort(status != 0 ? status & 0xff ? status & 0xff : 1 : SIM_EXIT_NO_FINALIZE);
}

double
MPI_Wtime(void)
{
    return simgrid_get_clock();
}

double
MPI_Wtick(void)
{
    /* the simulated clock is a double: resolution of one nanosecond is what we promise */
    return 1e-9;
}

int
MPI_Get_processor_name(char *name, int *resultlen)
{
    struct sim_rank *me = self_or_die("MPI_Get_processor_name");
    g_strlcpy(name, sg_host_get_name(me->host), MPI_MAX_PROCESSOR_NAME);
    *resultlen = (int)strlen(name);
    return MPI_SUCCESS;
}

int
MPI_Get_version(int *version, int *subversion)
{
    *version = MPI_VERSION;
    *subversion = MPI_SUBVERSION;
    return MPI_SUCCESS;
}
