/*
 * page_batch.h — what a run asks of the kernel about many pages, asked in as few calls as
 * the kernel allows.
 *
 * A run of P ranks needs, before its first simulated event, a stack for each rank with its top
 * page written and a guard page below it, and records of its own. On virtual machines every
 * system call and page fault is dear. On the 2-core development VM (a PVM guest, Linux 6.18;
 * tests/bench/page_cost.sh measures them) a first write to a fresh page costs 12-20 µs when
 * it faults, 6-12 µs when the page was asked for beforehand (0.7-1 µs a page in one
 * madvise(MADV_POPULATE_WRITE) call: the hypervisor still sees the first write); an mprotect
 * of one guard page 2.7-4.3 µs; a guard page installed by madvise(MADV_GUARD_INSTALL) 1.4 µs
 * alone and 0.2-0.5 µs in a call for 1024 (process_madvise). Everything here is best effort
 * and falls back, call by call, on what older kernels know: MADV_POPULATE_WRITE since Linux
 * 5.14, MADV_GUARD_INSTALL and process_madvise of any advice to oneself since 6.13; without
 * them, the faults and mprotect.
 * Under valgrind, which knows none of these, the fallbacks are used from the start.
 */
#ifndef COLLSIM_CORE_PAGE_BATCH_H
#define COLLSIM_CORE_PAGE_BATCH_H

#include <glib.h>

G_BEGIN_DECLS

/* Have the whole pages inside [addr, addr + bytes) present and writable, in one call. */
void core_pages_populate(void *addr, gsize bytes);

/* The same for `n` scattered pages of `page_bytes` each (page-aligned). */
void core_pages_populate_each(void *const *pages, gsize n, gsize page_bytes);

/* Make `n` scattered pages of `page_bytes` each inaccessible (a touch is SIGSEGV): stacks'
 * guard pages. */
void core_pages_guard_each(void *const *pages, gsize n, gsize page_bytes);

/*
 * A mapping for `n` stacks of `slot_bytes` each, paid for by the pages touched (MAP_NORESERVE),
 * whose lowest addresses are added to `free_list` highest first (so that the first stacks taken
 * are the lowest); `what` names them in the message if the kernel refuses, and the run ends.
 * Returns the mapping.
 */
char *core_stacks_map(gsize slot_bytes, gsize n, GPtrArray *free_list, const char *what);

/* g_malloc(bytes) with its fresh pages asked for at once, not cleared: for memory about to be
 * written, each part as it is used (clearing it all first would write every page at once; a
 * page asked for and never written costs its share of the call, and its memory). */
void *core_alloc_populated(gsize bytes);

G_END_DECLS

#endif
