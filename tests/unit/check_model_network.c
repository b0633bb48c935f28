/*
 * check_model_network.c — unit tests of models/model_network.c: the preset table's invariants,
 * lookup, the default, how a preset sets the transport, and the one-way times it documents
 * (derived here from each preset's numbers).
 */
#include <check.h>
#include <math.h>
#include <string.h>

#include "models/model_network.h"
#include "models/model_transport.h"

START_TEST(test_model_network_table_invariants)
{
    gsize n;
    const struct model_network *nets = model_network_list(&n);
    ck_assert_uint_ge(n, 8);
    for (gsize i = 0; i < n; i++) {
        const struct model_network *m = &nets[i];
        for (const char *c = m->name; *c != '\0'; c++)
            ck_assert_msg(!g_ascii_isupper(*c), "%s is not lower case", m->name);
        for (gsize j = 0; j < i; j++)
            ck_assert_str_ne(nets[j].name, m->name);
        ck_assert(m->link_bandwidth > 0 && isfinite(m->link_bandwidth));
        ck_assert(m->link_latency > 0 && isfinite(m->link_latency));
        ck_assert(m->intra_bandwidth > 0 && m->intra_latency > 0);
        ck_assert(m->send_overhead >= 0 && m->recv_overhead >= 0 && m->gap >= 0);
        ck_assert_uint_gt(m->eager_threshold, 0);
        ck_assert(strcmp(m->simgrid_model, "CM02") == 0 || strcmp(m->simgrid_model, "LV08") == 0 ||
                  strcmp(m->simgrid_model, "SMPI") == 0);
        ck_assert_ptr_eq(model_network_find(m->name), m);
        ck_assert_ptr_nonnull(strstr(model_network_names(), m->name));
    }
}
END_TEST

/* The real fabrics have non-zero overheads and gap (issue 17: defaults come from published
 * measurements); the SimGrid-model presets have none, as SMPI runs. */
START_TEST(test_model_network_fabrics_have_overheads)
{
    static const char *const fabrics[] = {"ib-edr", "ib-hdr", "omnipath", "roce-100g",
                                          "ethernet-10g"};
    for (gsize i = 0; i < G_N_ELEMENTS(fabrics); i++) {
        const struct model_network *m = model_network_find(fabrics[i]);
        ck_assert_ptr_nonnull(m);
        ck_assert(m->send_overhead > 0 && m->recv_overhead > 0 && m->gap > 0);
        ck_assert_str_eq(m->simgrid_model, "CM02");
    }
    static const char *const models[] = {"cm02", "lv08", "smpi"};
    for (gsize i = 0; i < G_N_ELEMENTS(models); i++) {
        const struct model_network *m = model_network_find(models[i]);
        ck_assert(m->send_overhead == 0 && m->recv_overhead == 0 && m->gap == 0);
        ck_assert_uint_eq(m->eager_threshold, 65536);
        ck_assert(m->crosstraffic);
    }
    ck_assert_str_eq(model_network_find("lv08")->simgrid_model, "LV08");
    ck_assert_str_eq(model_network_find("smpi")->simgrid_model, "SMPI");
}
END_TEST

START_TEST(test_model_network_lookup)
{
    ck_assert_ptr_eq(model_network_find("IB-EDR"), model_network_find("ib-edr"));
    ck_assert_ptr_null(model_network_find("infiniband"));
    ck_assert_ptr_null(model_network_find(""));
    ck_assert_ptr_null(model_network_find(NULL));
    ck_assert_str_eq(model_network_default()->name, "ib-edr");
}
END_TEST

/* The transport's defaults are the default preset's. */
START_TEST(test_model_network_apply_and_defaults)
{
    struct model_transport t;
    model_transport_defaults(&t);
    const struct model_network *d = model_network_default();
    ck_assert(t.send_overhead == d->send_overhead && t.recv_overhead == d->recv_overhead);
    ck_assert(t.gap == d->gap);
    ck_assert_uint_eq(t.eager_threshold, d->eager_threshold);
    ck_assert(t.poll_overhead > 0);
    model_network_apply(model_network_find("ethernet-10g"), &t);
    ck_assert_double_eq_tol(t.send_overhead, 5e-6, 1e-18);
    ck_assert_double_eq_tol(t.recv_overhead, 5e-6, 1e-18);
    ck_assert_double_eq_tol(t.gap, 500e-9, 1e-18);
    ck_assert_uint_eq(t.eager_threshold, 65536);
}
END_TEST

/*
 * ib-edr, two links: 0.2 + 2 x 0.3 + 8 / 12.5e9 s + 0.2 = 1.00064 us for 8 B (within 5 % of
 * the fabric's published 1.0 us); 1 MiB is a rendezvous: 0.2 + 3 x 0.6 + (2^20 + 2) / 12.5e9
 * + 0.2 us = 86.08624 us; an empty message travels as one byte.
 */
START_TEST(test_model_network_one_way)
{
    const struct model_network *edr = model_network_find("ib-edr");
    ck_assert_double_eq_tol(model_network_one_way(edr, 2, 8), 1.00064e-6, 1e-15);
    ck_assert(fabs(model_network_one_way(edr, 2, 8) - 1.0e-6) <= 0.05 * 1.0e-6);
    ck_assert_double_eq_tol(model_network_one_way(edr, 2, 1048576), 86.08624e-6, 1e-13);
    ck_assert_double_eq_tol(model_network_one_way(edr, 2, 0), 1.00008e-6, 1e-15);
    ck_assert_double_eq_tol(model_network_one_way(edr, 2, 16384), 2.31072e-6, 1e-15);
    ck_assert_double_eq_tol(model_network_one_way(edr, 4, 8), 1.60064e-6, 1e-15);
    ck_assert(isnan(model_network_one_way(model_network_find("lv08"), 2, 8)));
    ck_assert(isnan(model_network_one_way(edr, 0, 8)));
}
END_TEST

static Suite *
model_network_suite(void)
{
    Suite *s = suite_create("model_network");
    TCase *tc = tcase_create("presets");
    tcase_add_test(tc, test_model_network_table_invariants);
    tcase_add_test(tc, test_model_network_fabrics_have_overheads);
    tcase_add_test(tc, test_model_network_lookup);
    tcase_add_test(tc, test_model_network_apply_and_defaults);
    tcase_add_test(tc, test_model_network_one_way);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(model_network_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? 0 : 1;
}
