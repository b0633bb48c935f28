/*
 * huge_pages.h — start large runs with glibc's malloc on transparent huge pages.
 *
 * From HUGE_PAGES_FROM_RANKS ranks on, a run touches hundreds of MiB to GiBs of malloc'd
 * memory. On a virtual machine whose every page fault traps to the hypervisor, faulting it
 * in 4 KiB at a time is a large part of the run: on the 2-core VM of tests/bench, a binomial
 * 8-byte broadcast spends 8-11 s of system time at 2^18 ranks with 4 KiB pages and 4-6 s
 * with huge pages, and takes 137 s instead of 101 s at 2^20 (same peak memory). glibc backs
 * its arenas with huge pages under its tunable glibc.malloc.hugetlb=1, which it reads only
 * when a process starts; so collsim starts itself once more with the tunable set, before it
 * has written anything. Below the threshold the second start (loading SimGrid and ns-3
 * again: 60-90 ms there) would cost more than it saves.
 */
#ifndef COLLSIM_HUGE_PAGES_H
#define COLLSIM_HUGE_PAGES_H

#include <glib.h>

#define HUGE_PAGES_FROM_RANKS 16384

/* main() hands its arguments over, untouched, for the second start. */
void sim_huge_pages_remember_argv(char **argv);

/* Whether a run of `nranks` ranks would start again: at least HUGE_PAGES_FROM_RANKS, the
 * kernel's transparent huge pages not off, GLIBC_TUNABLES naming no glibc.malloc.hugetlb of
 * its own (the user's choice, or this process is the second start), not under valgrind
 * (which follows no exec by default), and no argument a pipe or a device (bash's <(...)),
 * which the second start could not read again. */
gboolean sim_huge_pages_wanted(guint64 nranks);

/* Starts the process again with glibc.malloc.hugetlb=1 added to GLIBC_TUNABLES when
 * sim_huge_pages_wanted says so; returns only when it does not, or when the second start
 * failed (no /proc: the run goes on as it is, only slower). Call it before writing. */
void sim_huge_pages_restart(guint64 nranks);

#endif
