/*
 * check_core_platform.c — collsim's own flat cluster (sim/core/platform.h) against the same
 * cluster loaded by SimGrid: the engine's default platform and the `flat` generator's, each
 * given to SimGrid as the XML the engine writes and built by collsim without SimGrid. Every
 * host's name, speed and cores, and every route (self routes included) must be the same: the
 * links in order with their bandwidth, latency and sharing, which routes share a link, and the
 * latency sum bit for bit (with latencies such as 0.1 us, whose sums are not exact).
 *
 * Each test runs in its own process (check's fork mode): SimGrid loads one platform a process.
 */
#include <check.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include <simgrid/engine.h>

#include "sim/core/platform.h"
#include "sim/engine/engine.h"
#include "sim/engine/platform_gen.h"

/* What the tests compare of a platform, with link identities numbered in order of first use
 * over the routes taken in the order of host names. */
struct platform_view {
    GPtrArray *names;
    GArray *speeds, *cores;
    GArray *links;     /* struct core_link, every route's in turn, ids renumbered */
    GArray *lengths;   /* guint: each route's number of links */
    GArray *latencies; /* double: each route's latency sum */
};

static gsize
host_by_name(const char *name)
{
    for (gsize i = 0; i < core_host_count(); i++)
        if (strcmp(core_host_name(core_host_at(i)), name) == 0)
            return i;
    ck_abort_msg("no host %s", name);
    return 0;
}

static struct platform_view
view_platform(void)
{
    struct platform_view v = {
        g_ptr_array_new_with_free_func(g_free),
        g_array_new(FALSE, FALSE, sizeof(double)),
        g_array_new(FALSE, FALSE, sizeof(int)),
        g_array_new(FALSE, FALSE, sizeof(struct core_link)),
        g_array_new(FALSE, FALSE, sizeof(guint)),
        g_array_new(FALSE, FALSE, sizeof(double)),
    };
    gsize n = core_host_count();
    gsize *order = g_new(gsize, n);
    for (gsize i = 0; i < n; i++) {
        gchar *name = g_strdup_printf("node-%" G_GSIZE_FORMAT, i);
        order[i] = host_by_name(name);
        core_host *h = core_host_at(order[i]);
        g_ptr_array_add(v.names, g_strdup(core_host_name(h)));
        double speed = core_host_speed(h);
        int cores = core_host_core_count(h);
        g_array_append_val(v.speeds, speed);
        g_array_append_val(v.cores, cores);
        g_free(name);
    }
    GHashTable *ordinal = g_hash_table_new(g_direct_hash, g_direct_equal);
    GArray *route = g_array_new(FALSE, FALSE, sizeof(struct core_link));
    for (gsize i = 0; i < n; i++)
        for (gsize j = 0; j < n; j++) {
            double latency = -1;
            g_array_set_size(route, 0);
            core_route(core_host_at(order[i]), core_host_at(order[j]), route, &latency);
            for (guint k = 0; k < route->len; k++) {
                struct core_link link = g_array_index(route, struct core_link, k);
                gpointer seen = g_hash_table_lookup(ordinal, (gpointer)link.id);
                if (seen == NULL) {
                    seen = GUINT_TO_POINTER(g_hash_table_size(ordinal) + 1);
                    g_hash_table_insert(ordinal, (gpointer)link.id, seen);
                }
                link.id = GPOINTER_TO_UINT(seen);
                g_array_append_val(v.links, link);
            }
            g_array_append_val(v.lengths, route->len);
            g_array_append_val(v.latencies, latency);
        }
    g_array_free(route, TRUE);
    g_hash_table_destroy(ordinal);
    g_free(order);
    return v;
}

static void
view_free(struct platform_view *v)
{
    g_ptr_array_free(v->names, TRUE);
    g_array_free(v->speeds, TRUE);
    g_array_free(v->cores, TRUE);
    g_array_free(v->links, TRUE);
    g_array_free(v->lengths, TRUE);
    g_array_free(v->latencies, TRUE);
}

/* SimGrid's view of `xml`, then the own cluster's, compared. */
static void
check_same_platform(const char *xml, const struct core_flat_cluster *cluster)
{
    int argc = 2;
    char *argv[] = {"check_core_platform", "--log=root.thres:critical", NULL};
    simgrid_init(&argc, argv);
    gchar *path = NULL;
    int fd = g_file_open_tmp("collsim-platform-XXXXXX.xml", &path, NULL);
    ck_assert_int_ge(fd, 0);
    close(fd);
    ck_assert(g_file_set_contents(path, xml, -1, NULL));
    simgrid_load_platform(path);
    g_unlink(path);
    g_free(path);

    core_platform_use_simgrid();
    ck_assert(!core_platform_is_flat());
    ck_assert_uint_eq(core_host_count(), cluster->hosts);
    ck_assert_ptr_nonnull(core_host_simgrid(core_host_at(0)));
    struct platform_view sg = view_platform();

    core_platform_use_flat(cluster);
    ck_assert(core_platform_is_flat());
    ck_assert_ptr_null(core_host_simgrid(core_host_at(0)));
    for (gsize i = 0; i < core_host_count(); i++)
        ck_assert_uint_eq(core_host_index(core_host_at(i)), i);
    struct platform_view own = view_platform();

    for (guint i = 0; i < sg.names->len; i++) {
        ck_assert_str_eq(g_ptr_array_index(own.names, i), g_ptr_array_index(sg.names, i));
        ck_assert(g_array_index(own.speeds, double, i) == g_array_index(sg.speeds, double, i));
        ck_assert_int_eq(g_array_index(own.cores, int, i), g_array_index(sg.cores, int, i));
    }
    ck_assert_uint_eq(own.lengths->len, sg.lengths->len);
    for (guint r = 0; r < sg.lengths->len; r++) {
        ck_assert_uint_eq(g_array_index(own.lengths, guint, r), g_array_index(sg.lengths, guint, r));
        double a = g_array_index(own.latencies, double, r);
        double b = g_array_index(sg.latencies, double, r);
        ck_assert_msg(a == b, "route %u: latency %.17g, SimGrid's %.17g", r, a, b);
    }
    ck_assert_uint_eq(own.links->len, sg.links->len);
    for (guint k = 0; k < sg.links->len; k++) {
        const struct core_link *a = &g_array_index(own.links, struct core_link, k);
        const struct core_link *b = &g_array_index(sg.links, struct core_link, k);
        ck_assert_msg(a->id == b->id, "link %u: identity %lu, SimGrid's %lu", k,
                      (unsigned long)a->id, (unsigned long)b->id);
        ck_assert(a->bandwidth == b->bandwidth);
        ck_assert(a->latency == b->latency);
        ck_assert_int_eq(a->sharing, b->sharing);
    }
    view_free(&sg);
    view_free(&own);
    core_platform_free();
}

/* Latencies that binary floating point does not hold exactly. */
static const struct model_network odd_network = {
    .name = "odd",
    .link_bandwidth = 12.5e9,
    .link_latency = 0.1e-6,
    .intra_bandwidth = 20e9,
    .intra_latency = 0.07e-6,
};

START_TEST(test_default_cluster_is_simgrids)
{
    gchar *xml = sim_engine_default_platform_xml(5, &odd_network);
    struct core_flat_cluster cluster;
    sim_engine_default_cluster(5, &odd_network, &cluster);
    check_same_platform(xml, &cluster);
    g_free(xml);
}
END_TEST

START_TEST(test_default_cluster_of_the_preset_is_simgrids)
{
    gchar *xml = sim_engine_default_platform_xml(3, model_network_default());
    struct core_flat_cluster cluster;
    sim_engine_default_cluster(3, model_network_default(), &cluster);
    check_same_platform(xml, &cluster);
    g_free(xml);
}
END_TEST

START_TEST(test_flat_generator_is_simgrids)
{
    struct platform_spec spec;
    GError *error = NULL;
    ck_assert(platform_gen_parse("flat:hosts=4,cores=3,speed=2.5Gf,lat=0.2us,intra_lat=0.7us", &odd_network, 12,
                                 &spec, &error));
    gchar *xml = platform_gen_xml(&spec);
    struct core_flat_cluster cluster;
    platform_gen_flat_cluster(&spec, &cluster);
    ck_assert_uint_eq(cluster.hosts, 4);
    ck_assert_int_eq(cluster.cores, 3);
    check_same_platform(xml, &cluster);
    g_free(xml);
}
END_TEST

START_TEST(test_flat_routes)
{
    /* the rule itself, by hand: up of the source then down of the destination, a loopback
     * inside a host; a link keeps its identity across routes */
    struct core_flat_cluster cluster = {3, 1e9, 2, 1e9, 1e-6, 4e9, 1e-7};
    core_platform_use_flat(&cluster);
    GArray *r01 = g_array_new(FALSE, FALSE, sizeof(struct core_link));
    GArray *r21 = g_array_new(FALSE, FALSE, sizeof(struct core_link));
    GArray *r00 = g_array_new(FALSE, FALSE, sizeof(struct core_link));
    double l01, l21, l00;
    core_route(core_host_at(0), core_host_at(1), r01, &l01);
    core_route(core_host_at(2), core_host_at(1), r21, &l21);
    core_route(core_host_at(0), core_host_at(0), r00, &l00);
    ck_assert_uint_eq(r01->len, 2);
    ck_assert_uint_eq(r00->len, 1);
    ck_assert(l01 == 2e-6 && l00 == 1e-7);
    struct core_link up0 = g_array_index(r01, struct core_link, 0);
    struct core_link down1 = g_array_index(r01, struct core_link, 1);
    struct core_link loop0 = g_array_index(r00, struct core_link, 0);
    ck_assert(down1.id == g_array_index(r21, struct core_link, 1).id);
    ck_assert(up0.id != g_array_index(r21, struct core_link, 0).id);
    ck_assert(up0.id != down1.id && loop0.id != up0.id && loop0.id != down1.id);
    ck_assert_int_eq(up0.sharing, PLATFORM_SHARED);
    ck_assert_int_eq(loop0.sharing, PLATFORM_FATPIPE);
    ck_assert(loop0.bandwidth == 4e9 && up0.bandwidth == 1e9);
    ck_assert(core_route_bandwidth(r01) == 1e9);
    g_array_set_size(r01, 0);
    ck_assert(core_route_bandwidth(r01) == -1.0);
    ck_assert_str_eq(core_host_name(core_host_at(2)), "node-2");
    ck_assert_int_eq(core_host_core_count(core_host_at(2)), 2);
    g_array_free(r01, TRUE);
    g_array_free(r21, TRUE);
    g_array_free(r00, TRUE);
    core_platform_free();
}
END_TEST

static Suite *
core_platform_suite(void)
{
    Suite *s = suite_create("core_platform");
    TCase *tc = tcase_create("flat");
    tcase_add_test(tc, test_flat_routes);
    tcase_add_test(tc, test_default_cluster_is_simgrids);
    tcase_add_test(tc, test_default_cluster_of_the_preset_is_simgrids);
    tcase_add_test(tc, test_flat_generator_is_simgrids);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *runner = srunner_create(core_platform_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? 0 : 1;
}
