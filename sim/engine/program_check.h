/*
 * program_check.h — may `collsim exec` run this shared object? Decided from its ELF file alone,
 * before it is loaded and before any rank starts.
 *
 * A program loaded by `collsim exec` resolves its MPI names against whatever the process has
 * loaded first; libsimgrid also exports MPI_* and PMPI_* (SMPI), so a name collsim does not
 * define would silently bind to another MPI. The check reads the program's dynamic symbol table
 * and DT_NEEDED entries (ELF64 little endian, this machine's architecture) and refuses:
 *   - a program built for another MPI (Open MPI, MPICH, SimGrid's SMPI): recognised by the
 *     libraries it needs or by the private symbols its mpi.h makes it reference;
 *   - a program needing an MPI_/PMPI_/MPIX_ name that does not resolve into collsim's own
 *     object (asked of the dynamic linker, so no table of names can drift);
 *   - a profiling layer (a program defining MPI_ functions that call PMPI_ ones) whose own
 *     calls to them would bind to collsim's functions, loaded first: it must be linked with
 *     -Bsymbolic-functions, which binds them inside the program.
 *
 * Invariants: reading never crashes on a malformed file (every offset is bounds-checked) and
 * each failure is one GError with one sentence; nothing here loads the program.
 */
#ifndef COLLSIM_SIM_PROGRAM_CHECK_H
#define COLLSIM_SIM_PROGRAM_CHECK_H

#include <glib.h>

#define PROGRAM_CHECK_ERROR (program_check_error_quark())
GQuark program_check_error_quark(void);

enum program_check_error {
    PROGRAM_CHECK_ERROR_UNREADABLE, /* missing, a directory, not ELF, truncated, wrong class */
    PROGRAM_CHECK_ERROR_FOREIGN,    /* built for another MPI implementation */
    PROGRAM_CHECK_ERROR_MISSING,    /* needs MPI functions collsim does not define */
    PROGRAM_CHECK_ERROR_SELF_CALLS, /* calls its own MPI_ functions through the dynamic linker */
};

/* What the ELF file says it needs from the process that loads it. */
struct program_needs {
    GPtrArray *undefined; /* names of undefined dynamic symbols, sorted, each once */
    GPtrArray *needed;    /* DT_NEEDED library names, in file order */
    GPtrArray *self_calls; /* MPI_ functions it defines and calls through the dynamic linker
                              (a profiling layer not linked -Bsymbolic-functions), sorted */
};

/* Reads PATH's dynamic symbols and DT_NEEDED entries into NEEDS (cleared with
 * program_needs_clear). On failure NEEDS is left empty and ERROR says what is wrong with the
 * file (PROGRAM_CHECK_ERROR_UNREADABLE). */
gboolean program_needs_read(const char *path, struct program_needs *needs, GError **error);
void program_needs_clear(struct program_needs *needs);

/* Whether code or data at ADDR lies in the loaded object that holds ANCHOR (the dynamic
 * linker's answer): which object a symbol resolves into, or which made a call. */
gboolean program_same_object(const void *addr, const void *anchor);

/* Whether NAME, looked up as the loaded program would, resolves into collsim's own code. */
typedef gboolean (*program_provides_fn)(const char *name, gpointer data);
gboolean program_collsim_provides(const char *name, gpointer data);

/* The rules on what was read. DISPLAY names the program in messages. PROVIDES decides which
 * MPI names collsim defines (program_collsim_provides in `collsim exec`). When the program
 * passes but references functions collsim refuses at their call (program_refused_at_call),
 * *NOTE (if NOTE is not NULL) is one sentence naming them for the user, else NULL. */
gboolean program_needs_check(const struct program_needs *needs, const char *display,
                             program_provides_fn provides, gpointer data, gchar **note,
                             GError **error);

/* Both steps, as `collsim exec` runs them. */
gboolean program_check(const char *path, const char *display, gchar **note, GError **error);

/* Why collsim leaves NAME (MPI_ or PMPI_) out, e.g. "one-sided communication", or NULL. */
const char *program_out_of_scope(const char *name);

/*
 * The functions mpi.h declares and collsim leaves out (its "declared, not implemented" block)
 * are defined all the same, MPI_ and PMPI_ names, by sim/engine/unprovided.c, which
 * sim/engine/unprovided.awk writes from mpi.h: each stops the run at its call, naming itself
 * and its call site. Real programs and benchmark suites often reference such functions in
 * code they never run (OSU's utility file holds the one-sided helpers of every benchmark):
 * refusing them before any rank starts would refuse the whole suite, binding them to nothing
 * would leave the dynamic linker to kill the process mid-run with its own message, and
 * binding them elsewhere (libsimgrid exports SMPI's) is what collsim never does. The check
 * reports such references in a note instead of refusing (program_needs_check).
 */
extern const char *const sim_unprovided_names[];
extern const unsigned sim_unprovided_count;

/* Whether NAME is one of those: defined by collsim only to refuse its call. */
gboolean program_refused_at_call(const char *name);

/* Print "collsim: rank R: NAME at SITE: ..." and end the run (exit 3, a fatal MPI error),
 * whatever the error handler: the program asked for a function collsim does not have. */
void sim_unprovided_call(const char *name, const void *caller) __attribute__((noreturn));

#endif /* COLLSIM_SIM_PROGRAM_CHECK_H */
