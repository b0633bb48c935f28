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

/* Whether NAME, looked up as the loaded program would, resolves into collsim's own code. */
typedef gboolean (*program_provides_fn)(const char *name, gpointer data);
gboolean program_collsim_provides(const char *name, gpointer data);

/* The rules on what was read. DISPLAY names the program in messages. PROVIDES decides which
 * MPI names collsim defines (program_collsim_provides in `collsim exec`). */
gboolean program_needs_check(const struct program_needs *needs, const char *display,
                             program_provides_fn provides, gpointer data, GError **error);

/* Both steps, as `collsim exec` runs them. */
gboolean program_check(const char *path, const char *display, GError **error);

/* Why collsim leaves NAME (MPI_ or PMPI_) out, e.g. "one-sided communication", or NULL. */
const char *program_out_of_scope(const char *name);

#endif /* COLLSIM_SIM_PROGRAM_CHECK_H */
