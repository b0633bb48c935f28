/*
 * cairo_api.c — fills cairo_api.h's table from libcairo.so.2, once.
 */
#include "config.h"

#define CAIRO_API_LOADER
#include "sim/picture/cairo_api.h"

#include <gmodule.h>
#include <stdio.h>
#include <stdlib.h>

#define CAIRO_LIBRARY "libcairo.so.2"

static struct cairo_api table;

static void
load(void)
{
    /* local: cairo's names are only reached through the table */
    GModule *module = g_module_open(CAIRO_LIBRARY, G_MODULE_BIND_LOCAL);
    if (module == NULL) {
        fprintf(stderr, "collsim: drawing needs %s, which could not be loaded: %s\n",
                CAIRO_LIBRARY, g_module_error());
        exit(2);
    }
    g_module_make_resident(module);
    gpointer symbol;
#define CAIRO_API_LOAD(name)                                                                   \
    if (!g_module_symbol(module, "cairo_" #name, &symbol) || symbol == NULL) {                 \
        fprintf(stderr, "collsim: drawing needs cairo_%s, which %s lacks\n", #name,            \
                CAIRO_LIBRARY);                                                                \
        exit(2);                                                                               \
    }                                                                                          \
    table.name = (__typeof__(table.name))symbol;
    CAIRO_API_FUNCTIONS(CAIRO_API_LOAD)
#undef CAIRO_API_LOAD
}

const struct cairo_api *
cairo_api(void)
{
    static gsize once = 0;
    if (g_once_init_enter(&once)) {
        load();
        g_once_init_leave(&once, 1);
    }
    return &table;
}
