/*
 * payload_scratch.c — shared scratch regions for sizes-only runs (see payload_scratch.h).
 *
 * Each role keeps every mapping it ever made (an array of a few entries: a region grows by at
 * least doubling); the newest is the largest and serves each request that fits. Simulated
 * ranks run one at a time in one process, so no lock is needed; `collsim run` simulates each
 * point in a forked child, whose mappings end with it.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sim/engine/payload_scratch.h"

struct scratch_map {
    char *base;
    gsize size;
};

static GArray *maps[SIM_SCRATCH_ROLES];
static gsize mapped;

void *
sim_scratch_get(enum sim_scratch_role role, gsize bytes)
{
    g_return_val_if_fail(role < SIM_SCRATCH_ROLES, NULL);
    if (maps[role] == NULL)
        maps[role] = g_array_new(FALSE, FALSE, sizeof(struct scratch_map));
    GArray *a = maps[role];
    if (a->len > 0) {
        struct scratch_map *last = &g_array_index(a, struct scratch_map, a->len - 1);
        if (last->size >= bytes)
            return last->base;
    }
    gsize page = (gsize)sysconf(_SC_PAGESIZE);
    gsize size = MAX(bytes, 1);
    if (a->len > 0)
        size = MAX(size, 2 * g_array_index(a, struct scratch_map, a->len - 1).size);
    size = (size + page - 1) / page * page;
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) {
        /* virtual address space only: failing here means the machine's limits are far off */
        fprintf(stderr, "collsim: cannot map %" G_GSIZE_FORMAT " bytes of sizes-only scratch\n",
                size);
        exit(1);
    }
    struct scratch_map m = {p, size};
    g_array_append_val(a, m);
    mapped += size;
    return p;
}

gboolean
sim_scratch_contains(const void *p)
{
    const char *c = p;
    for (int r = 0; r < SIM_SCRATCH_ROLES; r++)
        for (guint i = 0; maps[r] != NULL && i < maps[r]->len; i++) {
            const struct scratch_map *m = &g_array_index(maps[r], struct scratch_map, i);
            if (c >= m->base && c < m->base + m->size)
                return TRUE;
        }
    return FALSE;
}

gsize
sim_scratch_mapped(void)
{
    return mapped;
}
