/*
 * callsite.c — program call sites for reports (callsite.h).
 */
#include <dlfcn.h>
#include <string.h>

#include "callsite.h"

/*
 * The source line of a call site when the program has debug information: addr2line on the
 * object's file. The return address points after the call instruction, hence - 1.
 */
static void
source_line(const Dl_info *info, const void *caller, GString *out)
{
    if (info->dli_fname == NULL || info->dli_fname[0] != '/')
        return;
    char address[32];
    g_snprintf(address, sizeof address, "0x%lx",
               (unsigned long)((const char *)caller - (const char *)info->dli_fbase - 1));
    const char *argv[] = {"addr2line", "-e", info->dli_fname, address, NULL};
    gchar *text = NULL;
    gint status = 0;
    if (g_spawn_sync(NULL, (gchar **)argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL,
                     NULL, NULL, &text, NULL, &status, NULL) &&
        g_spawn_check_wait_status(status, NULL) && text != NULL && text[0] != '?') {
        g_strchomp(text);
        char *base = strrchr(text, '/');
        char *discriminator = strstr(text, " (discriminator");
        if (discriminator != NULL)
            *discriminator = '\0';
        g_string_append_printf(out, ", %s", base != NULL ? base + 1 : text);
    }
    g_free(text);
}

void
collsim_callsite_describe(const void *caller, GString *out)
{
    Dl_info info;
    if (caller == NULL || dladdr(caller, &info) == 0 || info.dli_sname == NULL)
        return;
    g_string_append_printf(out, " at %s+0x%lx", info.dli_sname,
                           (unsigned long)((const char *)caller - (const char *)info.dli_saddr));
    if (info.dli_fname == NULL)
        return;
    const char *file = strrchr(info.dli_fname, '/');
    g_string_append_printf(out, " (%s", file != NULL ? file + 1 : info.dli_fname);
    source_line(&info, caller, out);
    g_string_append(out, ")");
}
