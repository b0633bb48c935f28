/*
 * memory_estimate.c — the memory a run needs against what the machine has (see
 * memory_estimate.h for the measured constants and the margin).
 *
 * Invariant: reading the machine's figures never fails a run; only a malformed
 * COLLSIM_MEMORY_LIMIT does (the user asked for it).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/engine/engine.h"
#include "sim/engine/memory_estimate.h"

#define KIB G_GUINT64_CONSTANT(1024)

/* Measured parts (memory_estimate.h): the low end of what the development machine showed. */
#define STACK_TOUCHED_KIB 12 /* of a guarded stack, which costs only the pages touched */
#define STACK_PAGE_KIB 4     /* of an unguarded one: the own core's touch one page at least */
#define STACK_IMAGE_BYTES 192 /* the frames of a rank stopped on a shared stack, copied aside:
                               * an empty program's (1.2-1.4 KiB in a collective call) */
#define RANK_STATE_BYTES 512 /* actor, mailbox, collsim's struct sim_rank (0.8 KiB measured) */
#define GLOBALS_BYTES 128    /* a small program's .data and .bss, copied per rank (privatize.c) */
#define MARGIN_PERCENT 65    /* real use was up to this much above the estimate */
#define MARGIN_PERCENT_SHARED 470 /* the same on a shared stack, whose floor is smaller */

void
sim_memory_rank_estimate(const struct sim_memory_need *need, struct sim_memory_rank *rank)
{
    struct sim_config config;
    sim_config_defaults(&config);
    config.nranks = need->nranks > G_MAXINT ? G_MAXINT : (int)need->nranks;
    config.stack_kib = need->stack_kib;
    guint64 stack_kib = sim_engine_stack_kib(&config);
    stack_kib = MIN(stack_kib, (guint64)(sim_engine_stack_guarded(&config) ? STACK_TOUCHED_KIB
                                                                          : STACK_PAGE_KIB));
    rank->stack = need->shared_stack ? STACK_IMAGE_BYTES : stack_kib * KIB;
    rank->state = RANK_STATE_BYTES;
    rank->globals = need->privatize ? GLOBALS_BYTES : 0;
    rank->payload = need->payload_bytes;
}

guint64
sim_memory_rank_total(const struct sim_memory_rank *rank)
{
    return rank->stack + rank->state + rank->globals + rank->payload;
}

gboolean
sim_memory_parse(const char *text, guint64 *bytes)
{
    if (text == NULL || *text == '\0')
        return FALSE;
    errno = 0;
    char *end = NULL;
    double v = g_ascii_strtod(text, &end);
    if (errno != 0 || end == text || !(v >= 0))
        return FALSE;
    double unit = 1;
    switch (g_ascii_toupper(*end)) {
    case 'T': unit *= 1024; /* fall through */
    case 'G': unit *= 1024; /* fall through */
    case 'M': unit *= 1024; /* fall through */
    case 'K': unit *= 1024; end++; break;
    default: break;
    }
    if (g_ascii_toupper(*end) == 'I' && unit > 1)
        end++;
    if (g_ascii_toupper(*end) == 'B')
        end++;
    if (*end != '\0' || v * unit >= 1.8e19)
        return FALSE;
    *bytes = (guint64)(v * unit);
    return TRUE;
}

gchar *
sim_memory_format(guint64 bytes)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double v = (double)bytes;
    guint u = 0;
    while (v >= 1024 && u + 1 < G_N_ELEMENTS(units)) {
        v /= 1024;
        u++;
    }
    return u == 0 ? g_strdup_printf("%" G_GUINT64_FORMAT " B", bytes)
                  : g_strdup_printf("%.1f %s", v, units[u]);
}

/* "MemAvailable:   24044368 kB" from /proc/meminfo, in bytes; 0 when unreadable. */
static guint64
meminfo_available(void)
{
    g_autofree gchar *text = NULL;
    if (!g_file_get_contents("/proc/meminfo", &text, NULL, NULL))
        return 0;
    const char *line = strstr(text, "MemAvailable:");
    unsigned long long kib;
    if (line == NULL || sscanf(line, "MemAvailable: %llu kB", &kib) != 1)
        return 0;
    return (guint64)kib * KIB;
}

/* A number from a cgroup file; 0 when absent or "max" (no limit). */
static guint64
cgroup_number(const char *path)
{
    g_autofree gchar *text = NULL;
    if (!g_file_get_contents(path, &text, NULL, NULL))
        return 0;
    guint64 v = g_ascii_strtoull(text, NULL, 10);
    /* v1 writes "no limit" as a page-rounded 2^63 */
    return v >= (G_GUINT64_CONSTANT(1) << 62) ? 0 : v;
}

/* The cgroup's room: its limit less its usage (v2, then v1, as seen from inside it); 0 when
 * there is no limit. */
static guint64
cgroup_available(void)
{
    static const char *const files[][2] = {
        {"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"},
        {"/sys/fs/cgroup/memory/memory.limit_in_bytes",
         "/sys/fs/cgroup/memory/memory.usage_in_bytes"},
    };
    for (gsize i = 0; i < G_N_ELEMENTS(files); i++) {
        guint64 limit = cgroup_number(files[i][0]);
        if (limit == 0)
            continue;
        guint64 used = cgroup_number(files[i][1]);
        return limit > used ? limit - used : 1;
    }
    return 0;
}

guint64
sim_memory_available(const char **source, GError **error)
{
    const char *override = g_getenv("COLLSIM_MEMORY_LIMIT");
    *source = NULL;
    if (override != NULL) {
        guint64 bytes;
        if (!sim_memory_parse(override, &bytes)) {
            g_set_error(error, SIM_ERROR, SIM_ERROR_PLACEMENT,
                        "COLLSIM_MEMORY_LIMIT='%s' is not a byte count (e.g. 512M, 16G)",
                        override);
            return 0;
        }
        *source = "COLLSIM_MEMORY_LIMIT";
        return bytes;
    }
    guint64 avail = meminfo_available(), cgroup = cgroup_available();
    if (cgroup != 0 && (avail == 0 || cgroup < avail)) {
        *source = "cgroup limit";
        return cgroup;
    }
    if (avail != 0)
        *source = "MemAvailable";
    return avail;
}

gboolean
sim_memory_check(const struct sim_memory_need *need, GError **error)
{
    const char *source;
    GError *bad = NULL;
    guint64 have = sim_memory_available(&source, &bad);
    if (bad != NULL) {
        g_propagate_error(error, bad);
        return FALSE;
    }
    if (source == NULL)
        return TRUE;
    struct sim_memory_rank rank;
    sim_memory_rank_estimate(need, &rank);
    guint64 per_rank = sim_memory_rank_total(&rank);
    /* in doubles: P x bytes may pass 2^64 */
    double total = (double)need->nranks * (double)per_rank;
    if (total <= (double)have)
        return TRUE;
    g_autofree gchar *t = sim_memory_format(total >= 1.8e19 ? G_MAXUINT64 : (guint64)total);
    g_autofree gchar *h = sim_memory_format(have);
    g_autofree gchar *r = sim_memory_format(per_rank);
    g_autofree gchar *st = sim_memory_format(rank.stack);
    g_autofree gchar *sa = sim_memory_format(rank.state);
    g_autofree gchar *gl = sim_memory_format(rank.globals);
    g_autofree gchar *pl = sim_memory_format(rank.payload);
    GString *hint = g_string_new(NULL);
    if (rank.stack > 8 * KIB)
        g_string_append(hint, ", --stack-kib 8");
    if (rank.payload > 0)
        g_string_append(hint, ", --payload none");
    if (rank.globals > 0)
        g_string_append(hint, ", --no-privatize");
    g_set_error(error, SIM_ERROR, SIM_ERROR_PLACEMENT,
                "%" G_GUINT64_FORMAT " ranks need at least %s (%s per rank: stack %s, "
                "actor and rank state %s, private globals %s, "
                "payload %s; real use is up to %d%% more) and %s is available (%s); try "
                "fewer ranks%s",
                need->nranks, t, r, st, sa, gl, pl,
                need->shared_stack ? MARGIN_PERCENT_SHARED : MARGIN_PERCENT, h, source,
                hint->str);
    g_string_free(hint, TRUE);
    return FALSE;
}
