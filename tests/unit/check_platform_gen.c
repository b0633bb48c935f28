/*
 * check_platform_gen.c — unit tests of sim/engine/platform_gen.c: host, link and core counts, hop
 * counts, diameter and bisection bandwidth of each generator (derived by hand in the comments),
 * the XML SimGrid receives, and every refusal.
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <string.h>

#include "sim/engine/platform_gen.h"

#define W 12.5e9 /* ib-edr's links */

static struct platform_spec
parse_ok(const char *text, guint nranks)
{
    struct platform_spec s;
    GError *error = NULL;
    ck_assert_msg(platform_gen_parse(text, model_network_default(), nranks, &s, &error),
                  "%s: %s", text, error != NULL ? error->message : "");
    return s;
}

static struct platform_facts
facts_of(const char *text, guint nranks)
{
    struct platform_spec s = parse_ok(text, nranks);
    struct platform_facts f;
    platform_gen_facts(&s, &f);
    return f;
}

static void
parse_fails(const char *text, const char *what)
{
    struct platform_spec s;
    GError *error = NULL;
    ck_assert_msg(!platform_gen_parse(text, model_network_default(), 8, &s, &error), "%s", text);
    ck_assert_msg(strstr(error->message, what) != NULL, "%s: '%s' lacks '%s'", text,
                  error->message, what);
    ck_assert(strchr(error->message, '\n') == NULL);
    g_error_free(error);
}

START_TEST(test_platform_gen_is_spec)
{
    ck_assert(platform_gen_is_spec("flat"));
    ck_assert(platform_gen_is_spec("torus:dims=4x4"));
    ck_assert(!platform_gen_is_spec("platforms/cluster.xml"));
    ck_assert(!platform_gen_is_spec("flatland.xml"));
    ck_assert(!platform_gen_is_spec("generated"));
}
END_TEST

/* flat: one host per `cores` ranks behind one switch; two links between any two hosts;
 * a non-blocking switch: H/2 links across any bisection. */
START_TEST(test_platform_gen_flat)
{
    struct platform_facts f = facts_of("flat", 10);
    ck_assert_uint_eq(f.hosts, 10);
    ck_assert_uint_eq(f.links, 10);
    ck_assert_uint_eq(f.diameter, 2);
    ck_assert_double_eq_tol(f.bisection, 5 * W, 1);
    f = facts_of("flat:cores=4", 10); /* 10 ranks on 4-core hosts: 3 hosts, 12 cores */
    ck_assert_uint_eq(f.hosts, 3);
    ck_assert_uint_eq(f.cores, 12);
    f = facts_of("flat:hosts=7,cores=2", 1);
    ck_assert_uint_eq(f.hosts, 7);
    ck_assert_double_eq_tol(f.bisection, 3 * W, 1);
    struct platform_spec s = parse_ok("flat:hosts=3,bw=100Gbps,lat=2us,speed=1Gf", 1);
    ck_assert_double_eq_tol(s.bandwidth, 12.5e9, 1);
    ck_assert_double_eq_tol(s.latency, 2e-6, 1e-18);
    ck_assert_double_eq_tol(s.speed, 1e9, 1);
    ck_assert_uint_eq(platform_gen_hops(&s, 0, 2), 2);
    ck_assert_uint_eq(platform_gen_hops(&s, 1, 1), 0);
}
END_TEST

/*
 * fattree, 2 levels of 16 (the default): 16 x 16 = 256 hosts; each host one link up, each of
 * the 16 leaf switches 16 links up (full bisection): 256 + 256 links; 4 links between hosts
 * of different leaves; bisection 128 links. With oversubscription=2 the leaves have 8 links
 * up: 384 links, bisection 64 links.
 */
START_TEST(test_platform_gen_fattree)
{
    struct platform_spec s = parse_ok("fattree", 1);
    ck_assert_uint_eq(s.up[0], 1);
    ck_assert_uint_eq(s.up[1], 16);
    struct platform_facts f;
    platform_gen_facts(&s, &f);
    ck_assert_uint_eq(f.hosts, 256);
    ck_assert_uint_eq(f.links, 512);
    ck_assert_uint_eq(f.diameter, 4);
    ck_assert_double_eq_tol(f.bisection, 128 * W, 1);
    ck_assert_uint_eq(platform_gen_hops(&s, 0, 15), 2);  /* the same leaf */
    ck_assert_uint_eq(platform_gen_hops(&s, 0, 16), 4);
    f = facts_of("fattree:levels=2,down=16,oversubscription=2", 1);
    ck_assert_uint_eq(f.links, 384);
    ck_assert_double_eq_tol(f.bisection, 64 * W, 1);
    /* 3 levels of 4: 64 hosts; 16 leaf switches, 16 middle, 16 top (4 up each): 64 + 64 + 64
     * links; 6 links across the top */
    s = parse_ok("fattree:levels=3,down=4", 1);
    platform_gen_facts(&s, &f);
    ck_assert_uint_eq(f.hosts, 64);
    ck_assert_uint_eq(f.links, 192);
    ck_assert_uint_eq(f.diameter, 6);
    ck_assert_uint_eq(platform_gen_hops(&s, 0, 3), 2);
    ck_assert_uint_eq(platform_gen_hops(&s, 0, 4), 4);
    ck_assert_uint_eq(platform_gen_hops(&s, 0, 16), 6);
    /* explicit lists */
    s = parse_ok("fattree:levels=2,down=4x8,up=1x2,parallel=1", 1);
    ck_assert_uint_eq(s.hosts, 32);
    ck_assert_uint_eq(s.up[1], 2);
    platform_gen_facts(&s, &f);
    ck_assert_uint_eq(f.links, 32 + 8 * 2); /* 8 leaves of 4, each 2 up */
    ck_assert_double_eq_tol(f.bisection, 16 * W * 0.5, 1);
}
END_TEST

/*
 * torus 4x4: 16 hosts, one link per host and dimension (32); dimension-order routing, at most
 * 2 + 2 hops; cutting a ring of 4 crosses 2 links, 4 rings: 8 links. 3x3x4: 36 hosts, 108
 * links, 1 + 1 + 2 = 4 hops at most, bisection 9 rings of 4 x 2 = 18 links.
 */
START_TEST(test_platform_gen_torus)
{
    struct platform_spec s = parse_ok("torus:dims=4x4", 1);
    struct platform_facts f;
    platform_gen_facts(&s, &f);
    ck_assert_uint_eq(f.hosts, 16);
    ck_assert_uint_eq(f.links, 32);
    ck_assert_uint_eq(f.diameter, 4);
    ck_assert_double_eq_tol(f.bisection, 8 * W, 1);
    ck_assert_uint_eq(platform_gen_hops(&s, 0, 1), 1);
    ck_assert_uint_eq(platform_gen_hops(&s, 0, 3), 1); /* the wrap-around */
    ck_assert_uint_eq(platform_gen_hops(&s, 0, 10), 4);
    s = parse_ok("torus:dims=3x3x4", 1);
    platform_gen_facts(&s, &f);
    ck_assert_uint_eq(f.hosts, 36);
    ck_assert_uint_eq(f.links, 108);
    ck_assert_uint_eq(f.diameter, 4);
    ck_assert_double_eq_tol(f.bisection, 18 * W, 1);
    ck_assert_uint_eq(platform_gen_hops(&s, 0, 2), 1);
}
END_TEST

/*
 * dragonfly groups=3, chassis=2, routers=3, nodes=2: 36 hosts; links: 36 node links,
 * 6 chassis x 3 router pairs = 18, 3 groups x 3 routers x 1 chassis pair = 9, 3 group pairs:
 * 66. Two nodes of one router: 2 links; of two routers of a chassis: 3. The longest route
 * (node, router to the group's gateway, to chassis 0, global, router, chassis, node) is 7.
 */
START_TEST(test_platform_gen_dragonfly)
{
    struct platform_spec s = parse_ok("dragonfly:groups=3,chassis=2,routers=3,nodes=2", 1);
    struct platform_facts f;
    platform_gen_facts(&s, &f);
    ck_assert_uint_eq(f.hosts, 36);
    ck_assert_uint_eq(f.links, 66);
    ck_assert_uint_eq(f.diameter, 7);
    ck_assert_uint_eq(platform_gen_hops(&s, 0, 1), 2);
    ck_assert_uint_eq(platform_gen_hops(&s, 0, 2), 3);
    ck_assert_double_eq_tol(f.bisection, 2 * W, 1); /* 1 x 2 groups, one link each pair */
    f = facts_of("dragonfly", 1); /* defaults 4 groups, 2 chassis, 4 routers, 2 nodes */
    ck_assert_uint_eq(f.hosts, 64);
}
END_TEST

START_TEST(test_platform_gen_xml)
{
    struct platform_spec s = parse_ok("fattree:levels=2,down=16,oversubscription=2,cores=8", 1);
    gchar *xml = platform_gen_xml(&s);
    ck_assert_ptr_nonnull(strstr(xml, "topology=\"FAT_TREE\" topo_parameters=\"2;16,16;1,8;1,1\""));
    ck_assert_ptr_nonnull(strstr(xml, "radical=\"0-255\""));
    ck_assert_ptr_nonnull(strstr(xml, "core=\"8\""));
    ck_assert_ptr_nonnull(strstr(xml, "bw=\"12500000000Bps\""));
    g_free(xml);
    s = parse_ok("torus:dims=4x4x2", 1);
    xml = platform_gen_xml(&s);
    ck_assert_ptr_nonnull(strstr(xml, "topo_parameters=\"4,4,2\""));
    g_free(xml);
    s = parse_ok("dragonfly:groups=3,chassis=2,routers=3,nodes=2", 1);
    xml = platform_gen_xml(&s);
    ck_assert_ptr_nonnull(strstr(xml, "topo_parameters=\"3,1;2,1;3,1;2\""));
    g_free(xml);
    s = parse_ok("flat:hosts=4", 1);
    xml = platform_gen_xml(&s);
    ck_assert_ptr_null(strstr(xml, "topology"));
    g_free(xml);
}
END_TEST

START_TEST(test_platform_gen_refusals)
{
    parse_fails("mesh", "unknown generator 'mesh'");
    parse_fails("torus", "dims= is required");
    parse_fails("torus:dims=4", "2 or 3 sizes");
    parse_fails("torus:dims=4x1", "2 or 3 sizes");
    parse_fails("torus:dims=4x4x4x4", "2 or 3 sizes");
    parse_fails("fattree:arity=4", "unknown key 'arity'");
    parse_fails("fattree:levels=5", "an integer from 1 to 4");
    parse_fails("fattree:levels=2,down=4x4x4", "3 values for 2 levels");
    parse_fails("fattree:down=6,oversubscription=4", "does not divide");
    parse_fails("fattree:oversubscription=0.5", "a ratio >= 1");
    parse_fails("fattree:levels=4,down=4096", "more than");
    parse_fails("flat:bw=-1", "a positive bandwidth");
    parse_fails("flat:bw=fast", "a positive bandwidth");
    parse_fails("flat:lat=nan", "a positive duration");
    parse_fails("flat:speed=0", "a positive flop rate");
    parse_fails("flat:cores=0", "an integer from 1 to 4096");
    parse_fails("flat:hosts", "is not key=value");
    parse_fails("dragonfly:groups=5,routers=4", "must be at least groups=5");
}
END_TEST

int
main(void)
{
    Suite *s = suite_create("platform_gen");
    TCase *tc = tcase_create("generators");
    tcase_add_test(tc, test_platform_gen_is_spec);
    tcase_add_test(tc, test_platform_gen_flat);
    tcase_add_test(tc, test_platform_gen_fattree);
    tcase_add_test(tc, test_platform_gen_torus);
    tcase_add_test(tc, test_platform_gen_dragonfly);
    tcase_add_test(tc, test_platform_gen_xml);
    tcase_add_test(tc, test_platform_gen_refusals);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? 0 : 1;
}
