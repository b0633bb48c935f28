/*
 * privatize.h — one copy of a loaded program's global and static variables per rank.
 *
 * Under a real MPI each rank is its own process with its own globals; here all ranks share
 * one address space. The writable pages of the program's shared object (.data, .bss, and the
 * writable part of the GOT) are backed by a memory file holding one copy per rank; switching
 * ranks maps the running rank's copy over those pages (one mmap call, whatever their size).
 * A rank's copy starts as the pristine image taken right after the object was loaded.
 */
#ifndef COLLSIM_SIM_PRIVATIZE_H
#define COLLSIM_SIM_PRIVATIZE_H

#include <glib.h>

/* Prepare per-rank copies of the writable pages of the object that contains `anchor`. */
gboolean sim_privatize_setup(gconstpointer anchor, int nranks, GError **error);
/* Make `rank`'s copy the visible one (cheap when it already is). */
void sim_privatize_switch(int rank);
/* Whether [p, p + len) overlaps the privatized pages, whose visible copy is one rank's. */
gboolean sim_privatize_overlaps(gconstpointer p, gsize len);
/* Bytes of private globals per rank (0 when privatization is off). */
gsize sim_privatize_bytes_per_rank(void);

#endif
