/*
 * tune_glue.c — where `collsim tune` gets the libraries' catalogues (collsim algorithm <->
 * Open MPI coll_tuned number / MPICH JSON name) for its rules files.
 *
 * The catalogues belong to the decision files read by src/coll/coll_decision.{c,h}; until that
 * module is in the build this returns NULL, and collsim tune refuses the rules files with a
 * message (tune.c). The glue to write then: a struct tune_mapping whose library_id looks up
 * (kind, registry name) in models/decisions/ompi.rules (the number of the `algorithm N SHORT =
 * NAME` line, as text) and mpich.rules (its JSON name), and collsim_name the reverse.
 */
#include "config.h"

#include "sim/tune/tune.h"

const struct tune_mapping *
tune_library_mapping(void)
{
    return NULL;
}
