/*
 * errhandler.h — MPI error classes, strings and error handlers.
 *
 * Every MPI entry point reports a failure through collsim_error(): under
 * MPI_ERRORS_ARE_FATAL (the default) it prints one line naming the rank, the call and the
 * argument, then ends the simulation with a non-zero exit; under MPI_ERRORS_RETURN it returns
 * the code to the caller.
 */
#ifndef COLLSIM_ERRHANDLER_H
#define COLLSIM_ERRHANDLER_H

#include <stdint.h>

#include "mpi.h"

#define COLLSIM_ERRHANDLER_MAGIC 0x45727248u /* "ErrH" */

struct collsim_errhandler {
    uint32_t magic;   /* COLLSIM_ERRHANDLER_MAGIC while it lives (first: see handles.h) */
    int predefined;
    int refcount;
    MPI_Comm_errhandler_function *function; /* NULL for the two predefined handlers */
};

/* Exit code of a simulation ended by a fatal MPI error. */
#define COLLSIM_EXIT_MPI_ERROR 3

/*
 * Report error `code` raised by MPI function `call` on `comm` (MPI_COMM_NULL or an invalid
 * comm → MPI_COMM_WORLD's handler). The message is printf-formatted and names the argument.
 * Returns `code` when the handler returns.
 */
int collsim_error(MPI_Comm comm, int code, const char *call, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/*
 * MPI_SUCCESS if the calling rank may call MPI functions now; else MPI_ERR_OTHER through
 * MPI_COMM_WORLD's handler, "called before MPI_Init" or "called after MPI_Finalize" (MPI-3.1
 * 8.7: only MPI_Initialized, MPI_Finalized, MPI_Get_version and MPI_Get_library_version
 * may; Open MPI stops the job there, where a program that names its rank before MPI_Init
 * otherwise runs as if it were right).
 */
int collsim_check_live(const char *call);

/*
 * MPI_SUCCESS unless the calling rank is inside a user-defined reduction function, where
 * MPI-3.1 5.9.5 allows no MPI communication function (MPI_Abort only): then MPI_ERR_OTHER
 * through comm's handler (MPI_COMM_WORLD's for MPI_COMM_NULL). Called by every function that
 * sends, receives, probes, completes requests or makes a collective call, before anything
 * else: a collective entered from there would run inside its own algorithm's step.
 */
int collsim_check_communication(MPI_Comm comm, const char *call);

/* The last error code the calling rank uses: MPI_ERR_LASTCODE, or the last one it added. */
int collsim_error_last_used_code(void);

/* The standard name of an error class ("MPI_ERR_RANK"), or NULL if unknown. */
const char *collsim_error_class_name(int errorclass);

/*
 * MPI_SUCCESS if errhandler is a handler the calling rank may pass: MPI_ERRORS_ARE_FATAL,
 * MPI_ERRORS_RETURN, or a live user handler that it holds (created by it or given to it by
 * MPI_Comm_get_errhandler, and not freed since). Otherwise MPI_ERR_ARG (MPI-3.1 has no class
 * of its own for error handlers), and *why says what is wrong. A pointer is read only once the
 * registry (handles.h) says it is a live object.
 */
int collsim_errhandler_check(MPI_Errhandler errhandler, const char **why);

/* Reference counting of handlers (no-ops on the predefined ones); unref frees at zero. */
MPI_Errhandler collsim_errhandler_ref(MPI_Errhandler errhandler);
void collsim_errhandler_unref(MPI_Errhandler errhandler);

#endif
