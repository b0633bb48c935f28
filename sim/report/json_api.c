/*
 * json_api.c — fills json_api.h's table from libjson-glib-1.0.so.0, once.
 */
#include "config.h"

#define JSON_API_LOADER
#include "sim/report/json_api.h"

#include <gmodule.h>
#include <stdio.h>
#include <stdlib.h>

#define JSON_LIBRARY "libjson-glib-1.0.so.0"

static struct json_api table;

static void
load(void)
{
    /* local: json-glib's names are only reached through the table; a symbol is looked up in
     * the library and what it loaded with it (g_object_unref is GObject's) */
    GModule *module = g_module_open(JSON_LIBRARY, G_MODULE_BIND_LOCAL);
    if (module == NULL) {
        fprintf(stderr, "collsim: JSON needs %s, which could not be loaded: %s\n", JSON_LIBRARY,
                g_module_error());
        exit(2);
    }
    g_module_make_resident(module);
    gpointer symbol;
#define JSON_API_LOAD(name)                                                                    \
    if (!g_module_symbol(module, #name, &symbol) || symbol == NULL) {                          \
        fprintf(stderr, "collsim: JSON needs %s, which %s lacks\n", #name, JSON_LIBRARY);       \
        exit(2);                                                                               \
    }                                                                                          \
    table.name = (__typeof__(table.name))symbol;
    JSON_API_FUNCTIONS(JSON_API_LOAD)
#undef JSON_API_LOAD
}

const struct json_api *
json_api(void)
{
    static gsize once = 0;
    if (g_once_init_enter(&once)) {
        load();
        g_once_init_leave(&once, 1);
    }
    return &table;
}
