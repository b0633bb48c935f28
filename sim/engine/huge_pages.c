/*
 * huge_pages.c — start large runs with glibc's malloc on transparent huge pages
 * (huge_pages.h says why).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim/engine/huge_pages.h"

#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#define UNDER_VALGRIND() RUNNING_ON_VALGRIND
#endif
#endif
#ifndef UNDER_VALGRIND
#define UNDER_VALGRIND() 0
#endif

#define HUGETLB_TUNABLE "glibc.malloc.hugetlb"

static char **process_argv;

void
sim_huge_pages_remember_argv(char **argv)
{
    process_argv = argv;
}

static gboolean
kernel_allows_huge_pages(void)
{
    gchar *mode = NULL;
    gboolean allowed = g_file_get_contents("/sys/kernel/mm/transparent_hugepage/enabled",
                                           &mode, NULL, NULL) &&
                       strstr(mode, "[never]") == NULL;
    g_free(mode);
    return allowed;
}

/* FALSE when an argument (or the value of an --option=VALUE) names a pipe or a device, such
 * as bash's <(...): the first start has read it already, the second would find it empty. */
static gboolean
arguments_read_again(void)
{
    for (char **arg = process_argv + 1; *arg != NULL; arg++) {
        const char *eq = (*arg)[0] == '-' ? strchr(*arg, '=') : NULL;
        const char *path = eq != NULL ? eq + 1 : *arg;
        struct stat st;
        if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
            return FALSE;
    }
    return TRUE;
}

gboolean
sim_huge_pages_wanted(guint64 nranks)
{
    const char *tunables = g_getenv("GLIBC_TUNABLES");
    return nranks >= HUGE_PAGES_FROM_RANKS && process_argv != NULL && !UNDER_VALGRIND() &&
           (tunables == NULL || strstr(tunables, HUGETLB_TUNABLE) == NULL) &&
           kernel_allows_huge_pages() && arguments_read_again();
}

void
sim_huge_pages_restart(guint64 nranks)
{
    if (!sim_huge_pages_wanted(nranks))
        return;
    /* the link's target rather than /proc/self/exe itself, which under a tool such as
     * valgrind is the tool */
    gchar *self = g_file_read_link("/proc/self/exe", NULL);
    if (self == NULL)
        return;
    const char *tunables = g_getenv("GLIBC_TUNABLES");
    gchar *before = g_strdup(tunables);
    gchar *value = tunables != NULL && tunables[0] != '\0'
                       ? g_strconcat(tunables, ":" HUGETLB_TUNABLE "=1", NULL)
                       : g_strdup(HUGETLB_TUNABLE "=1");
    g_setenv("GLIBC_TUNABLES", value, TRUE);
    fflush(NULL);
    execv(self, process_argv);
    if (before != NULL)
        g_setenv("GLIBC_TUNABLES", before, TRUE);
    else
        g_unsetenv("GLIBC_TUNABLES");
    g_free(before);
    g_free(value);
    g_free(self);
}
