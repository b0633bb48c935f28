/*
 * memory_estimate.h — how much memory a run of P ranks needs, against what the machine has,
 * so that an impossible run is refused at once (before any host or rank exists) instead of
 * being killed by the kernel after minutes.
 *
 * The estimate is bytes per rank x P. The per-rank figure is a sum of parts measured on the
 * 2-core, 24 GiB development machine (collsim exec of an 8-byte broadcast, peak RSS at
 * P = 1024, 16384 and 65536, the difference divided by the ranks added; see README.md,
 * "Memory: what a rank costs"):
 *   - stack: on a shared stack the copy of a stopped rank's frames, 192 B (an empty
 *     program's; 1.2-1.4 KiB in an 8-byte broadcast); else the pages a rank touches, 12 KiB
 *     of a guarded stack (up to 16384 ranks), one page (4 KiB) of an unguarded one in the own
 *     core's mappings (SimGrid's core zeroes the whole stack: more), or the whole stack if
 *     smaller;
 *   - actor, mailbox, collsim's rank state: 512 B (0.8 KiB measured at 2^16 and 2^18 ranks
 *     of an empty program, tests/bench/memory_per_rank.sh; the default and flat clusters
 *     add 60 B a host under the own core, a platform that SimGrid loads about 3.7 KB);
 *   - private globals (privatize on): 128 B, the .data and .bss of a small program (each
 *     rank keeps a copy of those bytes only: 96-120 B for the benchmark programs);
 *   - payload: the buffers a benchmark point gives each rank in payload data (0 for a
 *     program, whose buffers are its own; 0 in payload none, which shares scratch).
 * Each part is the low end of what was measured, so the estimate is a floor: real use was
 * 0-65 % above it with a stack each (an empty program at 2^18 ranks: 6 %; an 8-byte
 * broadcast: 61 %, for its messages and requests), 0-470 % on a shared stack (an empty
 * program: 55 %; an 8-byte broadcast: 4.7 KB a rank against 0.83 KB). A run is refused only
 * when that floor exceeds the memory available, so nothing that fits is refused.
 *
 * Available memory: MemAvailable from /proc/meminfo, or the cgroup's limit less its usage
 * when lower (v2 memory.max, v1 memory.limit_in_bytes); COLLSIM_MEMORY_LIMIT (bytes, or with a
 * K/M/G/T suffix in powers of 1024) replaces both, for tests and for shared machines.
 */
#ifndef COLLSIM_MEMORY_ESTIMATE_H
#define COLLSIM_MEMORY_ESTIMATE_H

#include <glib.h>

/* The parts of one rank's memory, in bytes (see above). */
struct sim_memory_rank {
    guint64 stack;
    guint64 state;
    guint64 globals;
    guint64 payload;
};

/* What the run will have. */
struct sim_memory_need {
    guint64 nranks;
    guint stack_kib;        /* 0: the automatic size (sim_engine_stack_kib) */
    gboolean shared_stack;  /* the ranks take turns on one stack (sim_engine_stacks_shared) */
    gboolean privatize;
    guint64 payload_bytes;  /* payload buffers per rank (data mode), 0 otherwise */
};

/* One rank's parts. */
void sim_memory_rank_estimate(const struct sim_memory_need *need, struct sim_memory_rank *rank);

/* Their sum. */
guint64 sim_memory_rank_total(const struct sim_memory_rank *rank);

/*
 * Bytes available to this process, and where the figure comes from ("COLLSIM_MEMORY_LIMIT",
 * "MemAvailable", "cgroup limit"). 0 with *source NULL when nothing can be read (then no run
 * is refused). A malformed COLLSIM_MEMORY_LIMIT is an error.
 */
guint64 sim_memory_available(const char **source, GError **error);

/* "1000 ranks need at least ..." with the parts, the margin and a hint; FALSE when more than
 * what is available is needed (or COLLSIM_MEMORY_LIMIT is malformed). */
gboolean sim_memory_check(const struct sim_memory_need *need, GError **error);

/* A byte count as "1.5 GiB", "12 KiB", "800 B". */
gchar *sim_memory_format(guint64 bytes);

/* "123", "64K", "1.5G": bytes (suffixes in powers of 1024); FALSE when malformed. */
gboolean sim_memory_parse(const char *text, guint64 *bytes);

#endif
