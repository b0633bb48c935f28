/*
 * simgrid_load.c — finds and loads the SimGrid module (simgrid_glue.h) the first time a run
 * needs SimGrid.
 *
 * Where it looks, in order: $COLLSIM_SIMGRID_MODULE (a file); the directory libcollsim was
 * loaded from (a build tree: libtool puts both in .libs/); that directory's collsim/
 * (installed: $(libdir)/collsim is $(pkglibdir)); the configured $(pkglibdir).
 */
#include "config.h"

#include "sim/core/simgrid_glue.h"

#include <dlfcn.h> /* dladdr, a GNU extension (_GNU_SOURCE from the Makefile) */
#include <gmodule.h>
#include <stdio.h>
#include <stdlib.h>

#define MODULE_FILE "collsim-simgrid.so"

static const struct simgrid_glue *loaded;

/* The places to try, most specific first. */
static GPtrArray *
candidates(void)
{
    GPtrArray *paths = g_ptr_array_new_with_free_func(g_free);
    const char *forced = g_getenv("COLLSIM_SIMGRID_MODULE");
    if (forced != NULL && *forced != '\0') {
        g_ptr_array_add(paths, g_strdup(forced));
        return paths; /* asked for that one: no other may stand in for it */
    }
    Dl_info self;
    if (dladdr((void *)simgrid_glue, &self) != 0 && self.dli_fname != NULL) {
        gchar *dir = g_path_get_dirname(self.dli_fname);
        g_ptr_array_add(paths, g_build_filename(dir, MODULE_FILE, NULL));
        g_ptr_array_add(paths, g_build_filename(dir, PACKAGE, MODULE_FILE, NULL));
        g_free(dir);
    }
    g_ptr_array_add(paths, g_build_filename(COLLSIM_PKGLIBDIR, MODULE_FILE, NULL));
    return paths;
}

static const struct simgrid_glue *
load(void)
{
    GPtrArray *paths = candidates();
    GString *tried = g_string_new(NULL);
    const struct simgrid_glue *glue = NULL;
    for (guint i = 0; i < paths->len && glue == NULL; i++) {
        const char *path = g_ptr_array_index(paths, i);
        if (!g_file_test(path, G_FILE_TEST_EXISTS)) {
            g_string_append_printf(tried, "\n  %s: not there", path);
            continue;
        }
        /* local: libsimgrid defines MPI_ functions of its own (SMPI), which must never stand
         * in for collsim's in a program's lookups */
        GModule *module = g_module_open(path, G_MODULE_BIND_LOCAL);
        gpointer get = NULL;
        if (module == NULL) {
            g_string_append_printf(tried, "\n  %s: %s", path, g_module_error());
        } else if (!g_module_symbol(module, SIMGRID_GLUE_SYMBOL, &get) || get == NULL) {
            g_string_append_printf(tried, "\n  %s: no %s", path, SIMGRID_GLUE_SYMBOL);
            g_module_close(module);
        } else {
            g_module_make_resident(module);
            glue = ((const struct simgrid_glue *(*)(void))get)();
        }
    }
    if (glue == NULL) {
        fprintf(stderr,
                "collsim: this run needs SimGrid, and its SimGrid module %s could not be "
                "loaded:%s\n",
                MODULE_FILE, tried->str);
        exit(2);
    }
    g_string_free(tried, TRUE);
    g_ptr_array_free(paths, TRUE);
    return glue;
}

const struct simgrid_glue *
simgrid_glue(void)
{
    static gsize once = 0;
    if (g_once_init_enter(&once)) {
        loaded = load();
        g_once_init_leave(&once, 1);
    }
    return loaded;
}

gboolean
simgrid_glue_loaded(void)
{
    return loaded != NULL;
}
