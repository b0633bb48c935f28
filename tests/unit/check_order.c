/*
 * check_order.c — order certificates end to end (sim/order/order.c): real witness simulations of
 * the registry's algorithms, their expressions compared with bracketings derived by hand or
 * by small independent builders below (from each algorithm's textbook description, not from
 * its code), the fallback record, the commutative view and the certificate line.
 *
 * Every case that simulates runs in its own forked child (check's default): SimGrid starts
 * once per process. Loop tests take the number of ranks as their loop index.
 */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "sim/order/order.h"
#include "sim/order/witness_expr.h"

#define DOT "\u00b7"

/* ---------------------------------------------------------------- independent references */

static void
append_chain(GString *out, int first, int last)
{
    if (first == last) {
        g_string_append_printf(out, "r%d", first);
        return;
    }
    g_string_append_c(out, '(');
    append_chain(out, first, last - 1);
    g_string_append_printf(out, DOT "r%d)", last);
}

/* The seed's chain and every linear fold: (((r<first>·...)·...)·r<last>). */
static gchar *
chain_text(int first, int last)
{
    GString *out = g_string_new(NULL);
    append_chain(out, first, last);
    return g_string_free(out, FALSE);
}

/*
 * Binomial tree reduced at rank 0: rank r receives, for mask = 1, 2, 4 ... while bit `mask`
 * of r is clear, the subtree of rank r + mask (ranks r + mask .. r + 2 mask - 1), and
 * combines it on the right of what it holds.
 */
static void
append_binomial(GString *out, int rank, int nranks, int limit)
{
    int children = 0;
    for (int mask = 1; mask < limit && !(rank & mask) && rank + mask < nranks; mask <<= 1)
        children++;
    for (int i = 0; i < children; i++)
        g_string_append_c(out, '(');
    g_string_append_printf(out, "r%d", rank);
    for (int mask = 1, i = 0; i < children; mask <<= 1, i++) {
        g_string_append(out, DOT);
        append_binomial(out, rank + mask, nranks, mask);
        g_string_append_c(out, ')');
    }
}

static gchar *
binomial_text(int nranks)
{
    GString *out = g_string_new(NULL);
    append_binomial(out, 0, nranks, G_MAXINT);
    return g_string_free(out, FALSE);
}

/* Recursive doubling over a power of two: both halves, then the pair. */
static void
append_balanced(GString *out, int first, int last)
{
    if (first == last) {
        g_string_append_printf(out, "r%d", first);
        return;
    }
    int mid = first + (last - first + 1) / 2;
    g_string_append_c(out, '(');
    append_balanced(out, first, mid - 1);
    g_string_append(out, DOT);
    append_balanced(out, mid, last);
    g_string_append_c(out, ')');
}

static gchar *
balanced_text(int nranks)
{
    GString *out = g_string_new(NULL);
    append_balanced(out, 0, nranks - 1);
    return g_string_free(out, FALSE);
}

/* ---------------------------------------------------------------- helpers */

static void
certify(enum coll_kind kind, const char *algorithm, int nranks, int count, int root,
        gboolean commutative, struct order_certificate *cert)
{
    struct order_request request = {.kind = kind,
                                    .algorithm = algorithm,
                                    .nranks = nranks,
                                    .count = count,
                                    .root = root,
                                    .commutative = commutative};
    GError *error = NULL;
    gboolean ok = order_certify(&request, cert, &error);
    ck_assert_msg(ok, "%s", error != NULL ? error->message : "?");
}

static const struct order_element *
element_at(const struct order_certificate *cert, int rank, int element)
{
    for (guint i = 0; i < cert->elements->len; i++) {
        const struct order_element *e = &g_array_index(cert->elements, struct order_element, i);
        if (e->rank == rank && e->element == element)
            return e;
    }
    return NULL;
}

static void
assert_element_text(const struct order_certificate *cert, int rank, int element,
                    const char *expected)
{
    const struct order_element *e = element_at(cert, rank, element);
    ck_assert_msg(e != NULL, "rank %d element %d is not defined", rank, element);
    gchar *text = witness_expr_text(e->handle);
    ck_assert_msg(strcmp(text, expected) == 0, "rank %d element %d: %s, expected %s", rank, element,
                  text, expected);
    g_free(text);
}

/* ---------------------------------------------------------------- cases */

START_TEST(test_order_allreduce_recursive_doubling_four_ranks)
{
    struct order_certificate cert;
    certify(COLL_ALLREDUCE, "recursive_doubling", 4, 1, 0, FALSE, &cert);
    for (int r = 0; r < 4; r++)
        assert_element_text(&cert, r, 0, "((r0" DOT "r1)" DOT "(r2" DOT "r3))");
    ck_assert_int_eq(cert.verdict, ORDER_RANK);
    ck_assert_int_eq(cert.same, 1);
    ck_assert_uint_eq(cert.depth, 2);
    ck_assert_uint_eq(cert.applications, 8); /* 4 ranks x 2 steps */
    ck_assert(order_certificate_acceptable(&cert));
    /* the digest is SHA-256 of the four elements' structural hashes, computed outside */
    gchar *line = order_certificate_line(&cert);
    ck_assert_str_eq(line, "allreduce recursive_doubling P=4 count=1 op=noncommutative "
                           "order=rank depth=2 applications=8 op_calls=8 same=yes sha256="
                           "1cbfc719bf55bf4afa531ae72d98a49358933ba97ee57e4e6c854549b9c7dbdf");
    g_free(line);
    order_certificate_clear(&cert);
}
END_TEST

/* loop index: log2 P */
START_TEST(test_order_allreduce_recursive_doubling_balanced)
{
    int nranks = 1 << _i;
    struct order_certificate cert;
    certify(COLL_ALLREDUCE, "recursive_doubling", nranks, 2, 0, FALSE, &cert);
    gchar *expected = balanced_text(nranks);
    for (int r = 0; r < nranks; r++)
        for (int k = 0; k < 2; k++)
            assert_element_text(&cert, r, k, expected);
    g_free(expected);
    ck_assert_uint_eq(cert.depth, (guint)_i);
    ck_assert_uint_eq(cert.applications, (guint64)(nranks * _i * 2));
    order_certificate_clear(&cert);
}
END_TEST

START_TEST(test_order_allreduce_recursive_doubling_folds_extra_ranks_first)
{
    /* P = 5: rank 1 first takes (r0·r1); then (r0·r1), r2, r3, r4 double as four ranks */
    struct order_certificate cert;
    certify(COLL_ALLREDUCE, "recursive_doubling", 5, 1, 0, FALSE, &cert);
    for (int r = 0; r < 5; r++)
        assert_element_text(&cert, r, 0, "(((r0" DOT "r1)" DOT "r2)" DOT "(r3" DOT "r4))");
    ck_assert_int_eq(cert.same, 1);
    order_certificate_clear(&cert);
}
END_TEST

/* loop index: P */
START_TEST(test_order_reduce_chain_is_the_seed_chain)
{
    struct order_certificate cert;
    certify(COLL_REDUCE, "chain", _i, 3, _i - 1, FALSE, &cert);
    gchar *expected = chain_text(0, _i - 1);
    ck_assert_uint_eq(cert.elements->len, 3); /* the root's three elements only */
    for (int k = 0; k < 3; k++)
        assert_element_text(&cert, _i - 1, k, expected);
    g_free(expected);
    ck_assert_uint_eq(cert.depth, (guint)_i - 1);
    order_certificate_clear(&cert);
}
END_TEST

/* loop index: P; the non-commutative binomial reduces at rank 0, then sends to the root */
START_TEST(test_order_reduce_binomial_is_the_binomial_tree)
{
    struct order_certificate cert;
    certify(COLL_REDUCE, "binomial", _i, 1, _i / 2, FALSE, &cert);
    gchar *expected = binomial_text(_i);
    assert_element_text(&cert, _i / 2, 0, expected);
    g_free(expected);
    ck_assert_int_eq(cert.verdict, ORDER_RANK);
    order_certificate_clear(&cert);
}
END_TEST

START_TEST(test_order_scan_linear_is_the_prefix_chain)
{
    struct order_certificate cert;
    certify(COLL_SCAN, "linear", 5, 1, 0, FALSE, &cert);
    ck_assert_uint_eq(cert.elements->len, 5);
    for (int r = 0; r < 5; r++) {
        gchar *expected = chain_text(0, r);
        assert_element_text(&cert, r, 0, expected);
        g_free(expected);
    }
    order_certificate_clear(&cert);
}
END_TEST

START_TEST(test_order_exscan_rank_zero_is_undefined)
{
    struct order_certificate cert;
    certify(COLL_EXSCAN, "linear", 5, 1, 0, FALSE, &cert);
    ck_assert_uint_eq(cert.elements->len, 4);
    ck_assert_ptr_null(element_at(&cert, 0, 0));
    for (int r = 1; r < 5; r++) {
        gchar *expected = chain_text(0, r - 1);
        assert_element_text(&cert, r, 0, expected);
        g_free(expected);
    }
    ck_assert_int_eq(cert.verdict, ORDER_RANK);
    order_certificate_clear(&cert);
}
END_TEST

START_TEST(test_order_reduce_scatter_block_every_block)
{
    struct order_certificate cert;
    certify(COLL_REDUCE_SCATTER_BLOCK, "recursive_doubling", 3, 2, 0, FALSE, &cert);
    ck_assert_uint_eq(cert.elements->len, 6);
    for (int r = 0; r < 3; r++)
        for (int k = 0; k < 2; k++)
            assert_element_text(&cert, r, k, "((r0" DOT "r1)" DOT "r2)");
    ck_assert_int_eq(cert.same, -1);
    order_certificate_clear(&cert);
}
END_TEST

START_TEST(test_order_commutative_only_falls_back)
{
    struct order_certificate cert;
    certify(COLL_ALLREDUCE, "ring", 4, 4, 0, FALSE, &cert);
    ck_assert_str_eq(cert.fallback_reason, "requires commutative op");
    ck_assert_str_eq(cert.served, "recursive_doubling");
    ck_assert_int_eq(cert.verdict, ORDER_RANK);
    gchar *line = order_certificate_line(&cert);
    ck_assert_msg(g_str_has_prefix(line, "allreduce ring P=4 count=4 op=noncommutative "
                                         "fallback: recursive_doubling (requires commutative op) "
                                         "order=rank "),
                  "%s", line);
    g_free(line);
    order_certificate_clear(&cert);
}
END_TEST

START_TEST(test_order_commutative_ring_rotates_blocks)
{
    /* block k is reduced starting at rank k: element 1 folds 1, 2, then 0 */
    struct order_certificate cert;
    certify(COLL_ALLREDUCE, "ring", 3, 3, 0, TRUE, &cert);
    ck_assert_ptr_null(cert.fallback_reason);
    ck_assert_str_eq(cert.served, "ring");
    assert_element_text(&cert, 0, 0, "((r0" DOT "r1)" DOT "r2)");
    assert_element_text(&cert, 2, 1, "((r1" DOT "r2)" DOT "r0)");
    assert_element_text(&cert, 1, 2, "((r2" DOT "r0)" DOT "r1)");
    ck_assert_int_eq(cert.verdict, ORDER_PERMUTED);
    ck_assert_int_eq(cert.bad_rank, 0);
    ck_assert_int_eq(cert.bad_element, 1);
    ck_assert(order_certificate_acceptable(&cert));
    /* the same order seen by a non-commutative op would be a bug */
    cert.request.commutative = FALSE;
    ck_assert(!order_certificate_acceptable(&cert));
    gchar *line = order_certificate_line(&cert);
    ck_assert_ptr_nonnull(strstr(line, " order=NOT-RANK(rank=0,element=1) "));
    g_free(line);
    order_certificate_clear(&cert);
}
END_TEST

START_TEST(test_order_missing_results_are_broken)
{
    /* no simulation: no rank left a result, so every element is undefined */
    struct order_request request = {.kind = COLL_ALLREDUCE,
                                    .algorithm = "recursive_doubling",
                                    .nranks = 2,
                                    .count = 1,
                                    .commutative = TRUE};
    struct order_certificate cert;
    order_witness_begin(&request);
    order_witness_finish("recursive_doubling", NULL, &cert);
    ck_assert_uint_eq(cert.elements->len, 2);
    ck_assert_int_eq(cert.verdict, ORDER_BROKEN);
    ck_assert_int_eq(cert.bad_rank, 0);
    ck_assert(!order_certificate_acceptable(&cert));
    gchar *line = order_certificate_line(&cert);
    ck_assert_ptr_nonnull(strstr(line, " order=BROKEN(rank=0,element=0) "));
    g_free(line);
    order_certificate_clear(&cert);
}
END_TEST

START_TEST(test_order_request_check_names_the_problem)
{
    struct {
        struct order_request request;
        const char *says;
    } bad[] = {
        {{.kind = COLL_BCAST, .algorithm = "binomial", .nranks = 4, .count = 1}, "does not reduce"},
        {{.kind = COLL_ALLREDUCE, .algorithm = "nosuch", .nranks = 4, .count = 1},
         "no algorithm named 'nosuch'"},
        {{.kind = COLL_ALLREDUCE, .algorithm = "ring", .nranks = 0, .count = 1}, "between 1 and"},
        {{.kind = COLL_ALLREDUCE, .algorithm = "ring", .nranks = ORDER_MAX_RANKS + 1, .count = 1},
         "between 1 and"},
        {{.kind = COLL_ALLREDUCE, .algorithm = "ring", .nranks = 4, .count = -1},
         "must not be negative"},
        {{.kind = COLL_REDUCE, .algorithm = "binomial", .nranks = 4, .count = 1, .root = 4},
         "root must be a rank"},
        {{.kind = COLL_REDUCE, .algorithm = "knomial", .nranks = 4, .count = 1, .params = {0, 1}},
         "radix at least 2"},
        {{.kind = COLL_REDUCE,
          .algorithm = "pipeline_chain",
          .nranks = 4,
          .count = 1,
          .params = {-8, 0}},
         "segment bytes must be positive"},
    };
    for (gsize i = 0; i < G_N_ELEMENTS(bad); i++) {
        GError *error = NULL;
        ck_assert(!order_request_check(&bad[i].request, &error));
        ck_assert_msg(strstr(error->message, bad[i].says) != NULL, "%s", error->message);
        g_error_free(error);
    }
    struct order_request good = {.kind = COLL_SCAN, .algorithm = "linear", .nranks = 4};
    ck_assert(order_request_check(&good, NULL));
}
END_TEST

START_TEST(test_order_unmet_requirement_as_the_selector_says)
{
    struct order_request ring = {
        .kind = COLL_ALLREDUCE, .algorithm = "ring", .nranks = 4, .count = 4};
    ck_assert_str_eq(order_unmet_requirement(&ring), "requires commutative op");
    ring.commutative = TRUE;
    ck_assert_ptr_null(order_unmet_requirement(&ring));
    ring.count = 3;
    ck_assert_str_eq(order_unmet_requirement(&ring), "requires count >= ranks");
    struct order_request raben = {
        .kind = COLL_REDUCE, .algorithm = "rabenseifner", .nranks = 8, .count = 7};
    ck_assert_str_eq(order_unmet_requirement(&raben), "requires count >= ranks");
}
END_TEST

START_TEST(test_order_line_key)
{
    gchar *key = order_line_key("reduce binomial P=8 count=3 root=0 op=noncommutative "
                                "order=rank depth=3");
    ck_assert_str_eq(key, "reduce binomial P=8 count=3 root=0 op=noncommutative");
    g_free(key);
    ck_assert_ptr_null(order_line_key("  rank 0 element 0 depth=1 (r0" DOT "r1)"));
    ck_assert_ptr_null(order_line_key("# a comment op=x"));
    ck_assert_ptr_null(order_line_key("root:x:0:0:root:/root:/bin/bash"));
    ck_assert_ptr_null(order_line_key(""));
}
END_TEST

static Suite *
order_suite(void)
{
    Suite *s = suite_create("order");
    TCase *tc = tcase_create("witness runs");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_order_allreduce_recursive_doubling_four_ranks);
    tcase_add_loop_test(tc, test_order_allreduce_recursive_doubling_balanced, 0, 7);
    tcase_add_test(tc, test_order_allreduce_recursive_doubling_folds_extra_ranks_first);
    tcase_add_loop_test(tc, test_order_reduce_chain_is_the_seed_chain, 1, 14);
    tcase_add_loop_test(tc, test_order_reduce_binomial_is_the_binomial_tree, 1, 18);
    tcase_add_test(tc, test_order_scan_linear_is_the_prefix_chain);
    tcase_add_test(tc, test_order_exscan_rank_zero_is_undefined);
    tcase_add_test(tc, test_order_reduce_scatter_block_every_block);
    tcase_add_test(tc, test_order_commutative_only_falls_back);
    tcase_add_test(tc, test_order_commutative_ring_rotates_blocks);
    suite_add_tcase(s, tc);
    TCase *plain = tcase_create("no simulation");
    tcase_add_test(plain, test_order_missing_results_are_broken);
    tcase_add_test(plain, test_order_request_check_names_the_problem);
    tcase_add_test(plain, test_order_unmet_requirement_as_the_selector_says);
    tcase_add_test(plain, test_order_line_key);
    suite_add_tcase(s, plain);
    return s;
}

int
main(void)
{
    SRunner *runner = srunner_create(order_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
