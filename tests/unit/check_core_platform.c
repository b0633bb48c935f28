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
#include "sim/engine/platform_file.h"
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

/* The routes between every pair of hosts, the hosts taken in the order of `names`. */
static struct platform_view
view_platform(GPtrArray *names)
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
    ck_assert_uint_eq(names->len, n);
    for (gsize i = 0; i < n; i++) {
        const char *name = g_ptr_array_index(names, i);
        order[i] = host_by_name(name);
        core_host *h = core_host_at(order[i]);
        g_ptr_array_add(v.names, g_strdup(core_host_name(h)));
        double speed = core_host_speed(h);
        int cores = core_host_core_count(h);
        g_array_append_val(v.speeds, speed);
        g_array_append_val(v.cores, cores);
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

/* The cluster's host names, in the order of their numbers. */
static GPtrArray *
cluster_names(const struct core_flat_cluster *cluster)
{
    GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
    for (guint64 i = 0; i < cluster->hosts; i++)
        g_ptr_array_add(names, g_strdup_printf("%s%" G_GUINT64_FORMAT "%s",
                                               cluster->prefix ? cluster->prefix : "node-",
                                               cluster->first + i,
                                               cluster->suffix ? cluster->suffix : ""));
    return names;
}

/* SimGrid's view of the platform file `path`, then the own cluster's, compared. */
static void
check_same_file(const char *path, const struct core_flat_cluster *cluster)
{
    int argc = 2;
    char *argv[] = {"check_core_platform", "--log=root.thres:critical", NULL};
    simgrid_init(&argc, argv);
    simgrid_load_platform(path);
    GPtrArray *names = cluster_names(cluster);

    core_platform_use_simgrid();
    ck_assert(!core_platform_is_flat());
    ck_assert_uint_eq(core_host_count(), cluster->hosts);
    ck_assert_ptr_nonnull(core_host_simgrid(core_host_at(0)));
    struct platform_view sg = view_platform(names);

    core_platform_use_flat(cluster);
    ck_assert(core_platform_is_flat());
    ck_assert_ptr_null(core_host_simgrid(core_host_at(0)));
    for (gsize i = 0; i < core_host_count(); i++)
        ck_assert_uint_eq(core_host_index(core_host_at(i)), i);
    struct platform_view own = view_platform(names);

    for (guint i = 0; i < sg.names->len; i++) {
        ck_assert_str_eq(g_ptr_array_index(own.names, i), g_ptr_array_index(sg.names, i));
        ck_assert_msg(g_array_index(own.speeds, double, i) == g_array_index(sg.speeds, double, i),
                      "host %u: speed %.17g, SimGrid's %.17g", i,
                      g_array_index(own.speeds, double, i), g_array_index(sg.speeds, double, i));
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
        ck_assert_msg(a->bandwidth == b->bandwidth, "link %u: bandwidth %.17g, SimGrid's %.17g",
                      k, a->bandwidth, b->bandwidth);
        ck_assert_msg(a->latency == b->latency, "link %u: latency %.17g, SimGrid's %.17g", k,
                      a->latency, b->latency);
        ck_assert_int_eq(a->sharing, b->sharing);
    }
    view_free(&sg);
    view_free(&own);
    g_ptr_array_free(names, TRUE);
    core_platform_free();
}

static gchar *
write_temporary(const char *xml)
{
    gchar *path = NULL;
    int fd = g_file_open_tmp("collsim-platform-XXXXXX.xml", &path, NULL);
    ck_assert_int_ge(fd, 0);
    close(fd);
    ck_assert(g_file_set_contents(path, xml, -1, NULL));
    return path;
}

/* SimGrid's view of `xml`, then the own cluster's, compared. */
static void
check_same_platform(const char *xml, const struct core_flat_cluster *cluster)
{
    gchar *path = write_temporary(xml);
    check_same_file(path, cluster);
    g_unlink(path);
    g_free(path);
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

#define HEAD                                                                                       \
    "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"

/* Plain clusters that collsim reads itself: every unit family of SimGrid's, prefixes and
 * suffixes, a first number other than 0, multi-core hosts, with and without a loopback. */
static const char *const plain_files[] = {
    HEAD "<!-- a comment -->\n<platform version=\"4.1\">\n  <cluster id=\"c\" prefix=\"node-\" "
         "suffix=\"\" radical=\"0-3\" speed=\"10Gf\" bw=\"12.5GBps\" lat=\"0.3us\" "
         "loopback_bw=\"20GBps\" loopback_lat=\"0.05us\"/>\n</platform>\n",
    HEAD "<platform version=\"4.1\"><cluster id=\"c\" prefix=\"n\" suffix=\".example.org\" "
         "radical=\"3-7\" speed=\"1e9f\" core=\"4\" bw=\"100Gbps\" lat=\"1.5us\"/></platform>",
    HEAD "<platform version=\"4.1\"><cluster id=\"c\" prefix=\"h\" suffix=\"\" radical=\"0-2\" "
         "speed=\"2.5gigaflops\" bw=\"1.5GiBps\" lat=\"300ns\" loopback_bw=\"10000MBps\" "
         "loopback_lat=\"0\" sharing_policy=\"SPLITDUPLEX\"/></platform>",
    HEAD "<platform version=\"4.1\"><cluster id=\"c\" prefix=\"x-\" suffix=\"-y\" radical=\"10-12\" "
         "speed=\"7.3Mf\" core=\"2\" bw=\"800Mbps\" lat=\"0.000001s\" loopback_bw=\"1TBps\" "
         "loopback_lat=\"1ps\"/></platform>",
    /* a comment in Latin-1 (not UTF-8) changes nothing */
    HEAD "<platform version=\"4.1\"><!-- caf\xe9 --><cluster id=\"c\" prefix=\"n\" suffix=\"\" "
         "radical=\"0-1\" speed=\"1Gf\" bw=\"1GBps\" lat=\"1us\"/></platform>",
    HEAD "<platform version=\"4.1\"><cluster id=\"c\" prefix=\"solo\" suffix=\"\" radical=\"5\" "
         "speed=\"100kf\" bw=\"3.3kBps\" lat=\"2ms\" loopback_bw=\"7.7Kibps\" "
         "loopback_lat=\"0.1us\"/></platform>",
};

START_TEST(test_plain_file_is_simgrids)
{
    gchar *path = write_temporary(plain_files[_i]);
    struct core_flat_cluster cluster;
    ck_assert_msg(platform_file_plain_cluster(path, &cluster), "file %d declined", _i);
    check_same_file(path, &cluster);
    platform_file_cluster_clear(&cluster);
    g_unlink(path);
    g_free(path);
}
END_TEST

START_TEST(test_shipped_cluster_is_plain)
{
    gchar *path = g_build_filename(g_getenv("top_srcdir") ? g_getenv("top_srcdir") : ".",
                                   "platforms", "cluster.xml", NULL);
    struct core_flat_cluster cluster;
    ck_assert_msg(platform_file_plain_cluster(path, &cluster), "%s declined", path);
    ck_assert_uint_eq(cluster.hosts, 1024);
    ck_assert(cluster.speed == 1e10 && cluster.bandwidth == 12.5e9);
    ck_assert(!cluster.no_loopback && cluster.loopback_bandwidth == 20e9);
    platform_file_cluster_clear(&cluster);
    g_free(path);
}
END_TEST

#define CLUSTER_ATTRS "id=\"c\" prefix=\"n\" suffix=\"\" radical=\"0-3\" speed=\"1Gf\" "
/* What collsim leaves to SimGrid: anything but one plain cluster. */
static const char *const other_files[] = {
    HEAD "<platform version=\"4.1\"><cluster " CLUSTER_ATTRS "bw=\"1GBps\" lat=\"1us\" "
         "bb_bw=\"2GBps\" bb_lat=\"1us\"/></platform>",
    HEAD "<platform version=\"4.1\"><cluster " CLUSTER_ATTRS "bw=\"1GBps\" lat=\"1us\" "
         "topology=\"TORUS\" topo_parameters=\"2,2\"/></platform>",
    HEAD "<platform version=\"4.1\"><cluster " CLUSTER_ATTRS "bw=\"1GBps\" lat=\"1us\" "
         "sharing_policy=\"SHARED\"/></platform>",
    HEAD "<platform version=\"4.1\"><cluster id=\"c\" prefix=\"n\" suffix=\"\" radical=\"0-3,5\" "
         "speed=\"1Gf\" bw=\"1GBps\" lat=\"1us\"/></platform>",
    HEAD "<platform version=\"4\"><cluster " CLUSTER_ATTRS "bw=\"1GBps\" lat=\"1us\"/></platform>",
    HEAD "<platform version=\"4.1\"><cluster " CLUSTER_ATTRS "bw=\"1GBps\" lat=\"1us\"/>"
         "<cluster id=\"d\" prefix=\"m\" suffix=\"\" radical=\"0-3\" speed=\"1Gf\" bw=\"1GBps\" "
         "lat=\"1us\"/></platform>",
    HEAD "<platform version=\"4.1\"><cluster " CLUSTER_ATTRS "bw=\"1GBps\" lat=\"1us\">"
         "<prop id=\"x\" value=\"y\"/></cluster></platform>",
    HEAD "<platform version=\"4.1\"><cluster id=\"c\" prefix=\"n\" suffix=\"\" radical=\"0-3\" "
         "speed=\"1Gf,2Gf\" bw=\"1GBps\" lat=\"1us\"/></platform>",
    HEAD "<platform version=\"4.1\"><cluster " CLUSTER_ATTRS "bw=\"1GBps\" lat=\"1\"/></platform>",
    HEAD "<platform version=\"4.1\"><cluster " CLUSTER_ATTRS "bw=\"1GBs\" lat=\"1us\"/></platform>",
    HEAD "<platform version=\"4.1\"><zone id=\"z\" routing=\"Full\"><cluster " CLUSTER_ATTRS
         "bw=\"1GBps\" lat=\"1us\"/></zone></platform>",
    HEAD "<platform version=\"4.1\"><config><prop id=\"network/model\" value=\"CM02\"/></config>"
         "<cluster " CLUSTER_ATTRS "bw=\"1GBps\" lat=\"1us\"/></platform>",
    HEAD "<platform version=\"4.1\"><cluster " CLUSTER_ATTRS "bw=\"1GBps\" lat=\"1us\" "
         "loopback_bw=\"1GBps\"/></platform>",
    HEAD "<platform version=\"4.1\"><cluster " CLUSTER_ATTRS "bw=\"0GBps\" lat=\"1us\"/></platform>",
    HEAD "<platform version=\"4.1\"><cluster " CLUSTER_ATTRS "bw=\"1GBps\" lat=\"1us\"/>",
    HEAD "<platform version=\"4.1\"><cluster " CLUSTER_ATTRS "bw=\"1GBps\" lat=\"1us\"/>x</platform>",
    "not XML at all",
};

START_TEST(test_other_files_are_left_to_simgrid)
{
    gchar *path = write_temporary(other_files[_i]);
    struct core_flat_cluster cluster;
    ck_assert_msg(!platform_file_plain_cluster(path, &cluster), "file %d read as plain", _i);
    g_unlink(path);
    g_free(path);
}
END_TEST

/* SimGrid's units, by hand: the number times the unit's scale, a prefix a factor of 1000 or
 * 1024 on the one before. */
START_TEST(test_units)
{
    double v = 0;
    ck_assert(platform_file_bandwidth("12.5GBps", &v) && v == 12.5 * (1000.0 * 1000.0 * 1000.0));
    ck_assert(platform_file_bandwidth("100Gbps", &v) && v == 100 * (0.125 * 1000 * 1000 * 1000));
    ck_assert(platform_file_bandwidth("2KiBps", &v) && v == 2048);
    ck_assert(platform_file_bandwidth("1Mibps", &v) && v == 0.125 * 1024 * 1024);
    ck_assert(platform_file_bandwidth("0", &v) && v == 0);
    ck_assert(!platform_file_bandwidth("3", &v));
    ck_assert(!platform_file_bandwidth("1GBs", &v));
    ck_assert(!platform_file_bandwidth("1KBps", &v)); /* SimGrid's decimal kilo is a "k" */
    ck_assert(platform_file_time("0.3us", &v) && v == 0.3 * 1e-6);
    ck_assert(platform_file_time("2m", &v) && v == 120);
    ck_assert(platform_file_time("1w", &v) && v == 604800);
    ck_assert(!platform_file_time("1 us", &v));
    ck_assert(platform_file_speed("10Gf", &v) && v == 1e10);
    ck_assert(platform_file_speed("3megaflops", &v) && v == 3e6);
    ck_assert(!platform_file_speed("3Mflops", &v));
    ck_assert(!platform_file_speed("inff", &v));
}
END_TEST

START_TEST(test_flat_routes)
{
    /* the rule itself, by hand: up of the source then down of the destination, a loopback
     * inside a host; a link keeps its identity across routes */
    struct core_flat_cluster cluster = {.hosts = 3, .speed = 1e9, .cores = 2, .bandwidth = 1e9,
                                        .latency = 1e-6, .loopback_bandwidth = 4e9,
                                        .loopback_latency = 1e-7};
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

START_TEST(test_flat_link_ids_are_dense)
{
    /* the own core indexes its links by id on the flat cluster: every link of every route is
     * a nonzero id below the bound, each (host, direction) its own */
    struct core_flat_cluster cluster = {.hosts = 4, .speed = 1e9, .cores = 1, .bandwidth = 1e9,
                                        .latency = 1e-6, .loopback_bandwidth = 4e9,
                                        .loopback_latency = 1e-7};
    core_platform_use_flat(&cluster);
    gsize bound = core_flat_link_id_bound();
    ck_assert_uint_le(bound, 3 * cluster.hosts + 1);
    GHashTable *seen = g_hash_table_new(g_direct_hash, g_direct_equal);
    for (gsize s = 0; s < cluster.hosts; s++)
        for (gsize d = 0; d < cluster.hosts; d++) {
            struct core_link links[2];
            double latency;
            gsize n = core_route_flat(core_host_at(s), core_host_at(d), links, &latency);
            for (gsize i = 0; i < n; i++) {
                ck_assert_uint_gt(links[i].id, 0);
                ck_assert_uint_lt(links[i].id, bound);
                g_hash_table_add(seen, (gpointer)links[i].id);
            }
        }
    /* up and down of each host, and its loopback */
    ck_assert_uint_eq(g_hash_table_size(seen), 3 * cluster.hosts);
    g_hash_table_unref(seen);
    core_platform_free();
}
END_TEST

static Suite *
core_platform_suite(void)
{
    Suite *s = suite_create("core_platform");
    TCase *tc = tcase_create("flat");
    tcase_add_test(tc, test_flat_routes);
    tcase_add_test(tc, test_flat_link_ids_are_dense);
    tcase_add_test(tc, test_default_cluster_is_simgrids);
    tcase_add_test(tc, test_default_cluster_of_the_preset_is_simgrids);
    tcase_add_test(tc, test_flat_generator_is_simgrids);
    tcase_add_loop_test(tc, test_plain_file_is_simgrids, 0, (int)G_N_ELEMENTS(plain_files));
    tcase_add_test(tc, test_shipped_cluster_is_plain);
    tcase_add_loop_test(tc, test_other_files_are_left_to_simgrid, 0,
                        (int)G_N_ELEMENTS(other_files));
    tcase_add_test(tc, test_units);
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
