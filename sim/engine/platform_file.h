/*
 * platform_file.h — platform files that collsim's own core can build without SimGrid: one
 * plain SimGrid <cluster> (private split-duplex links to a non-blocking switch, an optional
 * loopback, no backbone, no limiter, one speed), as platforms/cluster.xml and the files users
 * write for a flat cluster are.
 *
 * The reader is narrow on purpose: anything else in the file (another element, attribute,
 * topology or sharing policy, a list of radicals, a value without a unit or that SimGrid
 * would refuse, malformed XML) makes it decline, and SimGrid loads the file as before, with
 * its own messages. Units are SimGrid 3.32's (xbt_parse_units: the number times the unit's
 * scale, each prefix a further factor of 1000 or 1024), so the values are SimGrid's to the
 * bit; tests/unit/check_core_platform.c loads such files both ways and compares.
 */
#ifndef COLLSIM_ENGINE_PLATFORM_FILE_H
#define COLLSIM_ENGINE_PLATFORM_FILE_H

#include <glib.h>

#include "sim/core/platform.h"

G_BEGIN_DECLS

/* Whether `path` is one plain <cluster>; then `cluster` describes it (its prefix and suffix
 * newly allocated: platform_file_cluster_clear). */
gboolean platform_file_plain_cluster(const char *path, struct core_flat_cluster *cluster);
void platform_file_cluster_clear(struct core_flat_cluster *cluster);

/* SimGrid's reading of a value with its unit ("10Gf", "12.5GBps", "0.3us"); FALSE when the
 * unit is missing or unknown, or the number does not parse. */
gboolean platform_file_speed(const char *text, double *value);
gboolean platform_file_bandwidth(const char *text, double *value);
gboolean platform_file_time(const char *text, double *value);

G_END_DECLS

#endif
