/*
 * payload_scratch.h — the memory that stands in for payload buffers when a run moves only
 * sizes (payload none).
 *
 * In sizes-only mode no byte of a payload is ever read for a result: messages carry no data,
 * op application is skipped, checks are off. So every rank's payload buffers can be one
 * shared mapping per role, whatever P: memory is O(largest buffer), never O(P x bytes). The
 * mappings are anonymous and MAP_NORESERVE, so only the pages a local copy touches are ever
 * resident, and those are shared by all ranks.
 *
 * Invariants: a region's contents are garbage (several ranks, and several buffers of one rank,
 * alias it); a pointer handed out stays valid until the process ends (a region that grows
 * keeps its older mappings, since another rank may still use them); roles are kept apart so
 * that a rank's send and receive buffers never alias each other (MPI forbids it and
 * collsim checks it).
 */
#ifndef COLLSIM_PAYLOAD_SCRATCH_H
#define COLLSIM_PAYLOAD_SCRATCH_H

#include <glib.h>

enum sim_scratch_role {
    SIM_SCRATCH_SEND,   /* a benchmark point's send buffers */
    SIM_SCRATCH_RECV,   /* its receive buffers */
    SIM_SCRATCH_TEMP,   /* the algorithms' temporaries (MPI_Alloc_mem, COLLSIM_INFO_PAYLOAD) */
    SIM_SCRATCH_ROLES
};

/* At least `bytes` of the role's shared region (never NULL; aborts if the kernel refuses). */
void *sim_scratch_get(enum sim_scratch_role role, gsize bytes);

/* Whether p lies in a region handed out by sim_scratch_get (MPI_Free_mem must not free it). */
gboolean sim_scratch_contains(const void *p);

/* Bytes mapped so far (virtual; the resident part is what local copies touched). */
gsize sim_scratch_mapped(void);

#endif
