/*
 * tune_plan.h — (private to sim/tune/) the rules both library writers serialise: per
 * collective, per measured P (ascending), the rules keyed by the library's size, ascending,
 * each starting at the size where its algorithm was measured fastest among the library's
 * (the rule of tune_rules.h). Built by tune_table.c.
 *
 * Invariants: no collective without a comm entry, no comm entry without a rule; within a comm
 * entry keys strictly ascend and two neighbouring rules name different library ids.
 */
#ifndef COLLSIM_SIM_TUNE_PLAN_H
#define COLLSIM_SIM_TUNE_PLAN_H

#include <glib.h>

#include "sim/tune/tune_table.h"

struct tune_plan_rule {
    guint64 key;           /* the library's size where the rule starts */
    const char *id;        /* the library's identifier (the mapping's string) */
    const char *algorithm; /* collsim's name (the table's string) */
    guint64 bytes;         /* collsim bytes of the measured point it starts at */
    GString *note;         /* what was measured, for the file's comments */
};

struct tune_plan_comm {
    int nranks;
    GArray *rules; /* struct tune_plan_rule */
};

struct tune_plan_collective {
    enum coll_kind kind;
    GArray *comms; /* struct tune_plan_comm, ascending P */
};

/* Whether the library's file can hold rules for the collective. */
typedef gboolean (*tune_plan_has)(enum coll_kind kind);
/* The library's size of the call. */
typedef guint64 (*tune_plan_key)(enum coll_kind kind, int nranks, guint64 bytes, guint type_size);

/* The plan (GArray of struct tune_plan_collective, registry order of kinds). */
GArray *tune_plan_build(const struct tune_table *table, enum tune_library library,
                        const struct tune_mapping *mapping, tune_plan_has has, tune_plan_key key);
void tune_plan_free(GArray *plan);

#endif
