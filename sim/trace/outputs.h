/*
 * outputs.h — what `collsim exec --trace FILE --timeline FILE` asks of the recorder, in the
 * order the command needs it: check both paths before anything runs, switch the recorder on
 * for the run, write the files after it.
 */
#ifndef COLLSIM_SIM_TRACE_OUTPUTS_H
#define COLLSIM_SIM_TRACE_OUTPUTS_H

#include <glib.h>

/* Either path may be NULL. FALSE and one message naming the option if a path cannot be used. */
gboolean trace_outputs_check(const char *trace, const char *timeline, GError **error);
/* Record the coming run of nranks ranks if a trace or a timeline is asked for. */
void trace_outputs_begin(const char *trace, const char *timeline, int nranks);
/* After the run (ended at simulated time `end`): write what was asked. `program` names the
 * program in the timeline's title. */
gboolean trace_outputs_finish(const char *trace, const char *timeline, const char *program,
                              double end, GError **error);

#endif
