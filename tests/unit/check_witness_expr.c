/*
 * check_witness_expr.c — the witness expression table (sim/order/witness_expr.c): hash-consing,
 * deterministic handles, text, tree, depth, leaf order and the structural hash.
 *
 * The expected hashes were computed outside collsim, with Python's hashlib, from the
 * definition alone: hash(r<i>) = SHA-256("r<i>"), hash(a · b) = SHA-256(hash(a) || hash(b)).
 */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "sim/order/witness_expr.h"

/* SHA-256("r0"), SHA-256(h(r0) || h(r1)) and the hash of ((r0·r1)·(r2·r3)). */
#define HASH_R0 "dd191696e15e2ee293410d02454c5f9461a2249dee6d57c75f264eaeb83a3782"
#define HASH_R0_R1 "bd979dff437d78221e8fab76e4f3fe3d83fcc9ee3ed0428ce9cf9992a94b2aed"
#define HASH_DOUBLING_4 "0998c38c85ab1dee5df789c6401d8c965f57d2440385ed914220f351b3d42f14"

static void
setup(void)
{
    witness_expr_reset();
}

/* ((r0·r1)·(r2·r3)) built bottom-up. */
static gint64
doubling_of_four(void)
{
    gint64 left = witness_expr_apply(witness_expr_leaf(0), witness_expr_leaf(1));
    gint64 right = witness_expr_apply(witness_expr_leaf(2), witness_expr_leaf(3));
    return witness_expr_apply(left, right);
}

/* (((r0·r1)·r2)·...·r<n-1>) */
static gint64
chain(int n)
{
    gint64 acc = witness_expr_leaf(0);
    for (int r = 1; r < n; r++)
        acc = witness_expr_apply(acc, witness_expr_leaf(r));
    return acc;
}

static void
assert_text(gint64 handle, const char *expected)
{
    gchar *text = witness_expr_text(handle);
    ck_assert_str_eq(text, expected);
    g_free(text);
}

START_TEST(test_witness_expr_handles_follow_creation_order)
{
    ck_assert_int_eq(witness_expr_leaf(3), 1);
    ck_assert_int_eq(witness_expr_leaf(0), 2);
    ck_assert_int_eq(witness_expr_apply(2, 1), 3);
    /* finding is not creating */
    ck_assert_int_eq(witness_expr_leaf(3), 1);
    ck_assert_int_eq(witness_expr_apply(2, 1), 3);
    ck_assert_uint_eq(witness_expr_node_count(), 3);
    ck_assert_uint_eq(witness_expr_applications(), 2);
    /* the operands' order matters: (r3·r0) is another node */
    ck_assert_int_eq(witness_expr_apply(1, 2), 4);
    ck_assert(!witness_expr_valid(WITNESS_EXPR_UNDEFINED));
    ck_assert(witness_expr_valid(4));
    ck_assert(!witness_expr_valid(5));
}
END_TEST

START_TEST(test_witness_expr_reset_forgets_everything)
{
    doubling_of_four();
    ck_assert_uint_eq(witness_expr_node_count(), 7);
    witness_expr_reset();
    ck_assert_uint_eq(witness_expr_node_count(), 0);
    ck_assert_uint_eq(witness_expr_applications(), 0);
    ck_assert(!witness_expr_valid(1));
    ck_assert_int_eq(witness_expr_leaf(5), 1);
}
END_TEST

START_TEST(test_witness_expr_text_of_doubling_and_chain)
{
    assert_text(doubling_of_four(), "((r0\u00b7r1)\u00b7(r2\u00b7r3))");
    assert_text(chain(4), "(((r0\u00b7r1)\u00b7r2)\u00b7r3)");
    assert_text(witness_expr_leaf(12), "r12");
    assert_text(WITNESS_EXPR_UNDEFINED, "?");
}
END_TEST

START_TEST(test_witness_expr_depth_is_the_critical_path)
{
    ck_assert_uint_eq(witness_expr_depth(witness_expr_leaf(0)), 0);
    ck_assert_uint_eq(witness_expr_depth(doubling_of_four()), 2);
    ck_assert_uint_eq(witness_expr_depth(chain(4)), 3);
    ck_assert_uint_eq(witness_expr_size(chain(4)), 4);
    /* unbalanced: (r0·((r1·r2)·r3)) */
    gint64 inner = witness_expr_apply(
        witness_expr_apply(witness_expr_leaf(1), witness_expr_leaf(2)), witness_expr_leaf(3));
    ck_assert_uint_eq(witness_expr_depth(witness_expr_apply(witness_expr_leaf(0), inner)), 3);
}
END_TEST

START_TEST(test_witness_expr_range_means_rank_order)
{
    ck_assert(witness_expr_is_range(doubling_of_four(), 0, 3));
    ck_assert(!witness_expr_is_range(doubling_of_four(), 0, 2));
    ck_assert(!witness_expr_is_range(doubling_of_four(), 1, 3));
    ck_assert(witness_expr_is_range(witness_expr_leaf(2), 2, 2));
    gint64 swapped = witness_expr_apply(witness_expr_leaf(1), witness_expr_leaf(0));
    ck_assert(!witness_expr_is_range(swapped, 0, 1));
    gint64 gap = witness_expr_apply(witness_expr_leaf(0), witness_expr_leaf(2));
    ck_assert(!witness_expr_is_range(gap, 0, 2));
    gint64 twice = witness_expr_apply(witness_expr_leaf(0), witness_expr_leaf(0));
    ck_assert(!witness_expr_is_range(twice, 0, 1));
    /* (r1·r2) after r0 is in order again; r1·(r0·r2)... is not */
    gint64 tail = witness_expr_apply(witness_expr_leaf(1), witness_expr_leaf(2));
    ck_assert(witness_expr_is_range(witness_expr_apply(witness_expr_leaf(0), tail), 0, 2));
    ck_assert(!witness_expr_is_range(witness_expr_apply(tail, witness_expr_leaf(0)), 0, 2));
}
END_TEST

START_TEST(test_witness_expr_leaves_left_to_right)
{
    gint64 e = witness_expr_apply(witness_expr_leaf(2),
                                  witness_expr_apply(witness_expr_leaf(0), witness_expr_leaf(1)));
    GArray *leaves = witness_expr_leaves(e);
    ck_assert_uint_eq(leaves->len, 3);
    ck_assert_int_eq(g_array_index(leaves, gint, 0), 2);
    ck_assert_int_eq(g_array_index(leaves, gint, 1), 0);
    ck_assert_int_eq(g_array_index(leaves, gint, 2), 1);
    g_array_free(leaves, TRUE);
}
END_TEST

START_TEST(test_witness_expr_hash_matches_definition)
{
    gchar *hex = witness_expr_hash_hex(witness_expr_leaf(0));
    ck_assert_str_eq(hex, HASH_R0);
    g_free(hex);
    hex = witness_expr_hash_hex(witness_expr_apply(witness_expr_leaf(0), witness_expr_leaf(1)));
    ck_assert_str_eq(hex, HASH_R0_R1);
    g_free(hex);
    hex = witness_expr_hash_hex(doubling_of_four());
    ck_assert_str_eq(hex, HASH_DOUBLING_4);
    g_free(hex);
    ck_assert_ptr_null(witness_expr_hash(WITNESS_EXPR_UNDEFINED));
}
END_TEST

START_TEST(test_witness_expr_hash_ignores_handles)
{
    /* the same expression built after other nodes gets other handles, the same hash */
    chain(6);
    gint64 late = doubling_of_four();
    gchar *hex = witness_expr_hash_hex(late);
    ck_assert_str_eq(hex, HASH_DOUBLING_4);
    g_free(hex);
    ck_assert_int_gt(late, 7);
    /* and different structures over the same leaves differ */
    ck_assert(
        memcmp(witness_expr_hash(chain(4)), witness_expr_hash(late), WITNESS_EXPR_HASH_BYTES) != 0);
}
END_TEST

START_TEST(test_witness_expr_long_chain)
{
    /* as deep as it is long: the hash must not recurse per level */
    const int n = 200000;
    gint64 e = chain(n);
    ck_assert_uint_eq(witness_expr_depth(e), n - 1);
    ck_assert(witness_expr_is_range(e, 0, n - 1));
    ck_assert_ptr_nonnull(witness_expr_hash(e));
}
END_TEST

START_TEST(test_witness_expr_undefined_operands_are_counted)
{
    gint64 r0 = witness_expr_leaf(0);
    ck_assert_int_eq(witness_expr_apply(WITNESS_EXPR_UNDEFINED, r0), WITNESS_EXPR_UNDEFINED);
    ck_assert_int_eq(witness_expr_apply(r0, 99), WITNESS_EXPR_UNDEFINED);
    ck_assert_int_eq(witness_expr_apply(-3, r0), WITNESS_EXPR_UNDEFINED);
    ck_assert_uint_eq(witness_expr_invalid(), 3);
    ck_assert_uint_eq(witness_expr_applications(), 3);
    ck_assert_uint_eq(witness_expr_depth(99), 0);
    ck_assert(!witness_expr_is_range(99, 0, 0));
}
END_TEST

START_TEST(test_witness_expr_op_follows_mpi_operand_order)
{
    /* MPI: inout[k] = in[k] ∘ inout[k], `in` holding the lower ranks */
    gint64 in[2] = {witness_expr_leaf(0), witness_expr_leaf(2)};
    gint64 inout[2] = {witness_expr_leaf(1), witness_expr_leaf(3)};
    int len = 2;
    MPI_Datatype type = MPI_INT64_T;
    witness_expr_op(in, inout, &len, &type);
    assert_text(inout[0], "(r0\u00b7r1)");
    assert_text(inout[1], "(r2\u00b7r3)");
    witness_expr_op(inout, inout + 1, (int[]){1}, &type);
    assert_text(inout[1], "((r0\u00b7r1)\u00b7(r2\u00b7r3))");
    ck_assert_uint_eq(witness_expr_op_calls(), 2);
    ck_assert_uint_eq(witness_expr_applications(), 3);
    ck_assert_int_eq(inout[1], doubling_of_four());
}
END_TEST

START_TEST(test_witness_expr_tree_drawing)
{
    gchar *tree = witness_expr_tree(chain(3), "  ");
    ck_assert_str_eq(tree, "  \u00b7\n"
                           "  \u251c\u2500\u2500 \u00b7\n"
                           "  \u2502   \u251c\u2500\u2500 r0\n"
                           "  \u2502   \u2514\u2500\u2500 r1\n"
                           "  \u2514\u2500\u2500 r2\n");
    g_free(tree);
    tree = witness_expr_tree(
        witness_expr_apply(witness_expr_leaf(0),
                           witness_expr_apply(witness_expr_leaf(1), witness_expr_leaf(2))),
        "");
    ck_assert_str_eq(tree, "\u00b7\n"
                           "\u251c\u2500\u2500 r0\n"
                           "\u2514\u2500\u2500 \u00b7\n"
                           "    \u251c\u2500\u2500 r1\n"
                           "    \u2514\u2500\u2500 r2\n");
    g_free(tree);
    tree = witness_expr_tree(WITNESS_EXPR_UNDEFINED, "");
    ck_assert_str_eq(tree, "?\n");
    g_free(tree);
}
END_TEST

static Suite *
witness_expr_suite(void)
{
    Suite *s = suite_create("witness_expr");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, NULL);
    tcase_add_test(tc, test_witness_expr_handles_follow_creation_order);
    tcase_add_test(tc, test_witness_expr_reset_forgets_everything);
    tcase_add_test(tc, test_witness_expr_text_of_doubling_and_chain);
    tcase_add_test(tc, test_witness_expr_depth_is_the_critical_path);
    tcase_add_test(tc, test_witness_expr_range_means_rank_order);
    tcase_add_test(tc, test_witness_expr_leaves_left_to_right);
    tcase_add_test(tc, test_witness_expr_hash_matches_definition);
    tcase_add_test(tc, test_witness_expr_hash_ignores_handles);
    tcase_add_test(tc, test_witness_expr_long_chain);
    tcase_add_test(tc, test_witness_expr_undefined_operands_are_counted);
    tcase_add_test(tc, test_witness_expr_op_follows_mpi_operand_order);
    tcase_add_test(tc, test_witness_expr_tree_drawing);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *runner = srunner_create(witness_expr_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
