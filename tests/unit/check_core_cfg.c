/*
 * check_core_cfg.c — the configuration collsim reads without SimGrid (sim/core/core_cfg.h)
 * against SimGrid's own reading of the same arguments: for each case below, SimGrid 3.32 is
 * started with the arguments and loads a platform without hosts (its network model sets its
 * defaults then), and every item collsim's own core and transport read must have the same
 * value both ways, bit for bit.
 *
 * Each case runs in its own process (check's fork mode): SimGrid starts once a process.
 */
#include <check.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include <simgrid/engine.h>
#include <xbt/config.h>

#include "sim/core/core_cfg.h"
#include "sim/core/simgrid_glue.h"

/* The arguments of each case, after "collsim" (as engine.c's simgrid_arguments builds them:
 * the preset's model, then the user's items, later ones replacing earlier ones). */
static const char *const cases[][8] = {
    {NULL}, /* SimGrid's declared defaults: LV08 */
    {"--cfg=network/model:CM02", "--cfg=network/crosstraffic:0", NULL},
    {"--cfg=network/model:LV08", "--cfg=network/crosstraffic:1", NULL},
    {"--cfg=network/model:SMPI", "--cfg=network/crosstraffic:1", NULL},
    /* the user's factors win over the model's defaults, whatever their order */
    {"--cfg=network/latency-factor:2.5", "--cfg=network/model:LV08",
     "--cfg=network/weight-S:0", NULL},
    {"--cfg=network/model:CM02", "--cfg=network/bandwidth-factor:0.5",
     "--cfg=network/TCP-gamma:65536", NULL},
    /* a later item replaces an earlier one; SimGrid's other words for booleans */
    {"--cfg=network/model:SMPI", "--cfg=network/model:CM02", "--cfg=network/crosstraffic:no",
     "--cfg=network/crosstraffic:on", NULL},
    {"--cfg=network/crosstraffic:false", "--cfg=contexts/guard-size:0",
     "--cfg=contexts/stack-size:64", NULL},
    {"--cfg=network/crosstraffic:yes", "--cfg=contexts/guard-size:4096", NULL},
    /* the precisions */
    {"--cfg=maxmin/precision:1e-7", "--cfg=surf/precision:1e-11", NULL},
    /* SMPI's piecewise factors */
    {"--cfg=network/model:SMPI", "--cfg=smpi/bw-factor:0:0.5;1024:0.9",
     "--cfg=smpi/lat-factor:0:3", NULL},
    /* logging items are SimGrid's alone */
    {"--log=xbt_cfg.thres:warning", "--cfg=network/model:CM02", NULL},
};

static const char *const doubles[] = {
    "network/latency-factor", "network/bandwidth-factor", "network/weight-S",
    "network/TCP-gamma",      "maxmin/precision",         "surf/precision",
};
static const char *const strings[] = {"network/model", "smpi/lat-factor", "smpi/bw-factor"};

START_TEST(test_same_as_simgrid)
{
    GPtrArray *args = g_ptr_array_new();
    g_ptr_array_add(args, "collsim");
    g_ptr_array_add(args, "--log=xbt_cfg.thres:critical");
    for (const char *const *a = cases[_i]; *a != NULL; a++)
        g_ptr_array_add(args, (gpointer)*a);
    g_ptr_array_add(args, NULL);

    /* collsim's reading first: SimGrid consumes the arguments it is given */
    char **own_argv = g_memdup2(args->pdata, sizeof(char *) * args->len);
    core_cfg_use_own(own_argv);
    double own_doubles[G_N_ELEMENTS(doubles)];
    for (gsize i = 0; i < G_N_ELEMENTS(doubles); i++)
        own_doubles[i] = core_cfg_double(doubles[i]);
    gchar *own_strings[G_N_ELEMENTS(strings)];
    for (gsize i = 0; i < G_N_ELEMENTS(strings); i++)
        own_strings[i] = core_cfg_string(strings[i]);
    gboolean own_crosstraffic = core_cfg_boolean("network/crosstraffic");
    int own_guard = core_cfg_int("contexts/guard-size");

    gchar *platform = NULL;
    gint fd = g_file_open_tmp("check_core_cfg-XXXXXX.xml", &platform, NULL);
    ck_assert_int_ge(fd, 0);
    const char *xml = "<?xml version='1.0'?>\n"
                      "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                      "<platform version=\"4.1\"><zone id=\"z\" routing=\"None\"/></platform>\n";
    ck_assert(write(fd, xml, strlen(xml)) == (ssize_t)strlen(xml));
    close(fd);
    int argc = (int)args->len - 1;
    char **argv = g_memdup2(args->pdata, sizeof(char *) * args->len);
    simgrid_glue()->start(&argc, argv, platform);
    g_unlink(platform);
    g_free(platform);
    core_cfg_use_simgrid();

    for (gsize i = 0; i < G_N_ELEMENTS(doubles); i++) {
        double sg = sg_cfg_get_double(doubles[i]);
        ck_assert_msg(memcmp(&sg, &own_doubles[i], sizeof sg) == 0,
                      "case %d, %s: SimGrid %.17g, collsim %.17g", _i, doubles[i], sg,
                      own_doubles[i]);
        ck_assert(core_cfg_double(doubles[i]) == sg); /* and through the glue */
    }
    for (gsize i = 0; i < G_N_ELEMENTS(strings); i++) {
        gchar *sg = core_cfg_string(strings[i]);
        ck_assert_msg(strcmp(sg, own_strings[i]) == 0, "case %d, %s: SimGrid %s, collsim %s",
                      _i, strings[i], sg, own_strings[i]);
        g_free(sg);
        g_free(own_strings[i]);
    }
    ck_assert_msg((sg_cfg_get_boolean("network/crosstraffic") != 0) == own_crosstraffic,
                  "case %d, network/crosstraffic", _i);
    ck_assert_int_eq(sg_cfg_get_int("contexts/guard-size"), own_guard);
    g_free(argv);
    g_free(own_argv);
    g_ptr_array_free(args, TRUE);
}
END_TEST

/* The module is not loaded until SimGrid is needed: reading the own configuration does not. */
START_TEST(test_own_reading_needs_no_simgrid)
{
    char *argv[] = {"collsim", "--cfg=network/model:CM02", NULL};
    core_cfg_use_own(argv);
    ck_assert(core_cfg_double("network/latency-factor") == 1.0);
    ck_assert(core_cfg_double("network/weight-S") == 0.0);
    ck_assert(core_cfg_boolean("network/crosstraffic"));
    ck_assert(!simgrid_glue_loaded());
    ck_assert_ptr_nonnull(simgrid_glue());
    ck_assert(simgrid_glue_loaded());
}
END_TEST

static Suite *
core_cfg_suite(void)
{
    Suite *s = suite_create("core_cfg");
    TCase *tc = tcase_create("core_cfg");
    tcase_add_loop_test(tc, test_same_as_simgrid, 0, (int)G_N_ELEMENTS(cases));
    tcase_add_test(tc, test_own_reading_needs_no_simgrid);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *runner = srunner_create(core_cfg_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? 0 : 1;
}
