/*
 * tune_glue.c — where `collsim tune` gets the libraries' catalogues (collsim algorithm <->
 * Open MPI coll_tuned number / MPICH JSON name) for its rules files: the `algorithm ID SHORT =
 * COLLSIM` lines of models/decisions/ompi.rules and mpich.rules, read by
 * src/coll_decision.h.
 *
 * Invariants: each file is loaded once, leniently (an entry naming an algorithm this build
 * lacks maps to nothing), and kept for the life of the process; a library whose file cannot be
 * read has no algorithms (its rules file is then refused by its writer, with a message).
 */
#include "config.h"

#include <stdio.h>

#include "sim/tune/tune.h"
#include "src/coll_decision.h"

static struct coll_decision *decisions[TUNE_LIBRARY_COUNT];
static gboolean loaded;

static void
load_decisions(void)
{
    static const char *const specs[TUNE_LIBRARY_COUNT] = {"ompi", "mpich"};
    if (loaded)
        return;
    loaded = TRUE;
    for (int l = 0; l < TUNE_LIBRARY_COUNT; l++) {
        GError *error = NULL;
        decisions[l] = coll_decision_open(specs[l], 0, &error);
        if (decisions[l] == NULL) {
            fprintf(stderr, "collsim: tune: %s\n", error->message);
            g_error_free(error);
        }
    }
}

static const char *
glue_library_id(enum tune_library library, enum coll_kind kind, const char *algorithm,
                gpointer data)
{
    (void)data;
    if (library >= TUNE_LIBRARY_COUNT || decisions[library] == NULL)
        return NULL;
    /* collsim tune runs every algorithm with its registry defaults: no parameters to prefer */
    return coll_decision_library_id(decisions[library], kind, algorithm, NULL);
}

static const char *
glue_collsim_name(enum tune_library library, enum coll_kind kind, const char *id, gpointer data)
{
    (void)data;
    if (library >= TUNE_LIBRARY_COUNT || decisions[library] == NULL)
        return NULL;
    return coll_decision_collsim_name(decisions[library], kind, id);
}

static const struct tune_mapping mapping = {glue_library_id, glue_collsim_name, NULL};

const struct tune_mapping *
tune_library_mapping(void)
{
    load_decisions();
    return &mapping;
}
