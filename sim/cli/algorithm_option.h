/*
 * algorithm_option.h — collsim exec --algorithm: `COLLECTIVE=NAME[,segment_bytes=B][,radix=K]`
 * forces an algorithm for one collective, `reproducible` turns the reproducible mode on
 * (src/coll/coll_select.h). The parser lives apart from main.c so that it reports through a
 * GError instead of printing, and can be fuzzed in-process (tests/fuzz/).
 */
#ifndef COLLSIM_SIM_ALGORITHM_OPTION_H
#define COLLSIM_SIM_ALGORITHM_OPTION_H

#include <glib.h>

#define ALGORITHM_OPTION_ERROR (algorithm_option_error_quark())
GQuark algorithm_option_error_quark(void);
enum { ALGORITHM_OPTION_ERROR_INVALID };

/*
 * Parse one --algorithm value and force it through coll_select (a choice lasts until
 * coll_select_reset()). FALSE with one line in `error` ("--algorithm wants COLLECTIVE=NAME
 * (got '')", ...), and nothing forced, when the value is refused.
 */
gboolean algorithm_option_force(const char *spec, GError **error);

#endif
