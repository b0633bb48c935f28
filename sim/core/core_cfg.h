/*
 * core_cfg.h — SimGrid's configuration items as the cores and the transport read them
 * (network/bandwidth-factor, network/crosstraffic, contexts/guard-size, ...).
 *
 * When SimGrid runs in the process (simgrid_glue.h), the answers are SimGrid's. When it does
 * not (collsim's own core on its own flat cluster), collsim reads the run's --cfg=NAME:VALUE
 * arguments itself, over SimGrid 3.32's defaults, including the ones its network models set
 * when a platform is loaded (CM02: latency and bandwidth factors of 1, weight-S 0; LV08:
 * 13.01, 0.97, 20537; SMPI: LV08's factors and weight-S 8775). tests/unit/check_core_cfg.c
 * holds these answers to SimGrid's for the same arguments.
 */
#ifndef COLLSIM_CORE_CORE_CFG_H
#define COLLSIM_CORE_CORE_CFG_H

#include <glib.h>

G_BEGIN_DECLS

/* Read the items of `argv` (NULL-terminated; "--cfg=NAME:VALUE" ones count, the others are
 * SimGrid's logging and are ignored) without SimGrid. The values were checked by SimGrid
 * before the run (sim_engine_check_cfg). */
void core_cfg_use_own(char **argv);
/* Ask SimGrid, started in this process, from now on. */
void core_cfg_use_simgrid(void);

double core_cfg_double(const char *name);
gboolean core_cfg_boolean(const char *name);
int core_cfg_int(const char *name);
/* newly allocated */
gchar *core_cfg_string(const char *name);

G_END_DECLS

#endif
