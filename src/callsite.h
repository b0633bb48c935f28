/*
 * callsite.h — where in the program an MPI call was made, for reports: the return address of
 * the library's entry point, turned into "main+0x4c (prog.so, prog.c:31)".
 */
#ifndef COLLSIM_CALLSITE_H
#define COLLSIM_CALLSITE_H

#include <glib.h>

/* The return address of the calling MPI function: the program's call site. Only meaningful
 * when expanded in the public MPI_ function the program called. */
#define COLLSIM_CALLER() __builtin_return_address(0)

/*
 * Append " at SYMBOL+0xOFF (OBJECT, FILE:LINE)" for a call site: the symbol from the dynamic
 * symbol table, the line from binutils' addr2line when the object has debug information
 * (only the parts that are known; nothing when caller is NULL or unknown). Runs a process:
 * for reports, not for every call.
 */
void collsim_callsite_describe(const void *caller, GString *out);

#endif
