/*
 * program_bind.h — a loaded program's references to its own globals bound to its own
 * definitions, as they are in an executable.
 *
 * Why: `collsim exec` loads the program as a shared object, after collsim and the C library.
 * The dynamic linker resolves the program's references to its own exported globals (through
 * its GOT: a global variable `err`, `index`, `y1` or `time`, a function `error`) against the
 * objects loaded first, so they bind to the C library's or the maths library's functions of
 * those names: reading such a variable read machine code, writing it died of SIGSEGV, and a
 * call to the program's own `error()` ran glibc's. Built as an executable (mpicc), the same
 * program binds them to itself, since an executable comes first. MPI-CorrBench's correct
 * redscat2 counts its errors in a global `int err`.
 *
 * Invariant: after program_bind_own(), every GOT slot and absolute address relocation of the
 * program object that names a symbol the object defines holds the object's own definition,
 * except the MPI_ and PMPI_ names (a profiling layer's, bound as program_check.h says).
 */
#ifndef COLLSIM_SIM_PROGRAM_BIND_H
#define COLLSIM_SIM_PROGRAM_BIND_H

#include <glib.h>
#include <link.h>

/* The loaded object holding `anchor` (a PT_LOAD segment contains it): its base address and
 * program headers, valid while it stays loaded. FALSE if none does. */
gboolean program_object_find(gconstpointer anchor, struct dl_phdr_info *object);

/* An address read from the dynamic section of the object loaded at `base`: ld.so relocates
 * them in place where the section is writable, so one below the base is an offset still. */
uintptr_t program_dynamic_address(uintptr_t base, uintptr_t value);

/* Rebind the references of the loaded object holding `anchor` (its main) that another
 * object's definition took; returns how many slots it changed (0 for an object that names
 * nobody else's). Call it once, after loading, before any rank runs. */
guint program_bind_own(gconstpointer anchor);

#endif
