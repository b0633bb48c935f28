/*
 * check_kinds.c — the table of collective kinds (src/coll/coll_kinds.c and the homes'
 * <collective>.c files): its invariants, the default decisions of the reductions against a
 * hand-written list of the documented rules, the rules' text, and the sequential references
 * (fold spans of the reductions, block sources of data movement).
 * (The data-movement collectives' decisions are checked beside their algorithms:
 * check_bcast.c, check_allgather.c, check_alltoall.c, check_gather_scatter.c.)
 */
#include <check.h>
#include <glib.h>
#include <stdlib.h>
#include <string.h>

#include "src/coll/coll_registry.h"
#include "src/coll/coll_select.h"

/* Every kind's descriptor sits at its own index, with its own names, and runs rows. */
START_TEST(test_kinds_table_is_consistent)
{
    for (int k = 0; k < COLL_KIND_COUNT; k++) {
        const struct coll_kind_desc *d = coll_kind_info((enum coll_kind)k);
        ck_assert_int_eq(d->kind, k);
        ck_assert_ptr_nonnull(d->invoke);
        ck_assert_ptr_nonnull(d->call);
        ck_assert_msg(strncmp(d->mpi_name, "MPI_", 4) == 0, "%s", d->mpi_name);
        /* "MPI_Reduce_scatter" is "reduce_scatter" with a capital */
        ck_assert_int_eq(strlen(d->mpi_name), strlen(d->name) + 4);
        ck_assert_int_eq(g_ascii_strcasecmp(d->mpi_name + 4, d->name), 0);
        enum coll_kind back;
        ck_assert(coll_kind_from_name(d->name, &back) && back == (enum coll_kind)k);
        /* only a kind that takes MPI_IN_PLACE has a way to resolve it */
        ck_assert_int_eq(d->resolve_in_place != NULL, (d->traits & COLL_TRAIT_IN_PLACE) != 0);
        ck_assert_msg(coll_registry_count((enum coll_kind)k) > 0, "%s has no algorithm", d->name);
    }
    enum coll_kind unused;
    ck_assert(!coll_kind_from_name("allreduces", &unused));
    ck_assert_str_eq(coll_kind_name(COLL_KIND_COUNT), "?");
}
END_TEST

/* Each rule names an algorithm of its kind; the last rule of a kind holds for every call. */
START_TEST(test_kinds_rules_name_registry_algorithms)
{
    for (int k = 0; k < COLL_KIND_COUNT; k++) {
        const struct coll_kind_desc *d = coll_kind_info((enum coll_kind)k);
        ck_assert_uint_gt(d->rule_count, 0);
        for (size_t i = 0; i < d->rule_count; i++)
            ck_assert_msg(coll_registry_find((enum coll_kind)k, d->rules[i].algorithm) != NULL,
                          "%s rule %zu names '%s', not in the registry", d->name, i,
                          d->rules[i].algorithm);
        const struct coll_rule *last = &d->rules[d->rule_count - 1];
        ck_assert_msg(last->when == 0 && last->over_bytes == 0 && last->below_bytes == 0 &&
                          last->upto_bytes == 0 && last->min_ranks == 0 && last->below_ranks == 0,
                      "%s: the last rule must hold for every call", d->name);
        /* the reproducible mode pins an order-preserving algorithm of every reduction */
        if (d->traits & COLL_TRAIT_REDUCES) {
            ck_assert_ptr_nonnull(d->reproducible);
            const struct coll_algorithm *row =
                coll_registry_find((enum coll_kind)k, d->reproducible);
            ck_assert_ptr_nonnull(row);
            ck_assert(!(row->requires & COLL_REQ_COMMUTATIVE));
        } else {
            ck_assert_ptr_null(d->reproducible);
        }
    }
}
END_TEST

/*
 * The reductions' default choices, written from the rules the libraries document (MPICH's
 * MPIR_Reduce_intra_auto / MPIR_Allreduce_intra_auto: Rabenseifner above 2 KiB when count
 * >= P, the short-message algorithm below; MPIR_Reduce_scatter_intra_auto: recursive
 * doubling for a non-commutative op, recursive halving up to 512 KiB, pairwise above).
 */
START_TEST(test_kinds_reduction_decisions_follow_mpich)
{
    static const struct {
        enum coll_kind kind;
        int ranks;
        size_t bytes;
        int count;
        int commutative;
        const char *want;
    } cases[] = {
        {COLL_REDUCE, 8, 2048, 256, 1, "binomial"},
        {COLL_REDUCE, 8, 2056, 257, 1, "rabenseifner"},
        {COLL_REDUCE, 8, 2056, 257, 0, "rabenseifner"},
        {COLL_REDUCE, 512, 4000, 500, 1, "binomial"}, /* count < P */
        {COLL_ALLREDUCE, 16, 8, 1, 1, "recursive_doubling"},
        {COLL_ALLREDUCE, 16, 1 << 20, 131072, 0, "rabenseifner"},
        {COLL_ALLREDUCE, 3, 2049, 2049, 1, "rabenseifner"},
        {COLL_REDUCE_SCATTER, 8, 1 << 20, 131072, 0, "recursive_doubling"},
        {COLL_REDUCE_SCATTER, 8, 524288, 65536, 1, "recursive_halving"},
        {COLL_REDUCE_SCATTER, 8, 524296, 65537, 1, "pairwise"},
        {COLL_REDUCE_SCATTER_BLOCK, 5, 40, 5, 1, "recursive_halving"},
        {COLL_REDUCE_SCATTER_BLOCK, 5, 40, 5, 0, "recursive_doubling"},
        {COLL_SCAN, 7, 1 << 20, 131072, 0, "recursive_doubling"},
        {COLL_EXSCAN, 7, 8, 1, 1, "recursive_doubling"},
        {COLL_BARRIER, 100, 0, 0, 1, "dissemination"},
        {COLL_GATHERV, 100, 8, 1, 1, "linear"},
        {COLL_ALLTOALLW, 100, 8, 1, 1, "linear"},
    };
    coll_select_reset();
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct coll_call call = {.kind = cases[i].kind,
                                 .comm_size = cases[i].ranks,
                                 .bytes = cases[i].bytes,
                                 .count = cases[i].count,
                                 .commutative = cases[i].commutative,
                                 .contiguous = 1,
                                 .node_blocks = 1};
        struct coll_params params;
        const char *refusal;
        const struct coll_algorithm *row = coll_select(&call, &params, &refusal);
        ck_assert_ptr_nonnull(row);
        ck_assert_msg(strcmp(row->name, cases[i].want) == 0,
                      "case %zu (%s, P=%d, %zu B): %s, want %s", i, coll_kind_name(cases[i].kind),
                      cases[i].ranks, cases[i].bytes, row->name, cases[i].want);
    }
}
END_TEST

/* The first rule that holds decides, with COLL_RULE_TOTAL bounding bytes x ranks. */
START_TEST(test_kinds_first_matching_rule_decides)
{
    struct coll_call call = {.kind = COLL_ALLGATHER,
                             .comm_size = 6,
                             .bytes = 8,
                             .count = 1,
                             .commutative = 1,
                             .contiguous = 1,
                             .node_blocks = 1};
    ck_assert_str_eq(coll_rules_choice(&call), "bruck"); /* 6 ranks: not a power of two */
    call.comm_size = 8;
    ck_assert_str_eq(coll_rules_choice(&call), "recursive_doubling");
    call.bytes = 65536; /* 512 KiB gathered: no longer below the first rule's bound */
    ck_assert_str_eq(coll_rules_choice(&call), "ring");
    call.bytes = 65535;
    ck_assert_str_eq(coll_rules_choice(&call), "recursive_doubling");
}
END_TEST

START_TEST(test_kinds_rule_text)
{
    char text[256];
    const struct coll_kind_desc *bcast = coll_kind_info(COLL_BCAST);
    coll_rule_describe(&bcast->rules[0], text, sizeof text);
    ck_assert_str_eq(text, "bytes < 12 KiB");
    coll_rule_describe(&bcast->rules[2], text, sizeof text);
    ck_assert_str_eq(text, "power-of-two ranks, bytes < 512 KiB");
    coll_rule_describe(&bcast->rules[bcast->rule_count - 1], text, sizeof text);
    ck_assert_str_eq(text, "otherwise");
    const struct coll_rule odd = {.when = COLL_RULE_TOTAL | COLL_RULE_NONCOMMUTATIVE,
                                  .over_bytes = 100,
                                  .upto_bytes = 3072,
                                  .min_ranks = 4,
                                  .algorithm = "x"};
    coll_rule_describe(&odd, text, sizeof text);
    ck_assert_str_eq(text, "non-commutative op, ranks >= 4, bytes x ranks > 100 B, "
                           "bytes x ranks <= 3 KiB");
    /* a short buffer is cut, never overrun */
    char small[8];
    coll_rule_describe(&odd, small, sizeof small);
    ck_assert_uint_lt(strlen(small), sizeof small);
}
END_TEST

/* The sequential reference: whose contributions each rank's result folds. */
START_TEST(test_kinds_fold_spans)
{
    int first, last;
    ck_assert(!coll_kind_fold_span(COLL_REDUCE, 1, 2, 5, &first, &last));
    ck_assert(coll_kind_fold_span(COLL_REDUCE, 2, 2, 5, &first, &last));
    ck_assert_int_eq(first, 0);
    ck_assert_int_eq(last, 4);
    ck_assert(coll_kind_fold_span(COLL_ALLREDUCE, 3, 0, 5, &first, &last));
    ck_assert_int_eq(last, 4);
    ck_assert(coll_kind_fold_span(COLL_SCAN, 3, 0, 5, &first, &last));
    ck_assert_int_eq(last, 3);
    ck_assert(!coll_kind_fold_span(COLL_EXSCAN, 0, 0, 5, &first, &last));
    ck_assert(coll_kind_fold_span(COLL_EXSCAN, 3, 0, 5, &first, &last));
    ck_assert_int_eq(first, 0);
    ck_assert_int_eq(last, 2);
    ck_assert(coll_kind_fold_span(COLL_REDUCE_SCATTER, 4, 0, 5, &first, &last));
    ck_assert_int_eq(last, 4);
}
END_TEST

/* The data-movement reference: which block of whose data each received block is. */
START_TEST(test_kinds_block_sources)
{
    int from, block;
    ck_assert_int_eq(coll_kind_blocks_received(COLL_BARRIER, 0, 0, 4), 0);
    ck_assert_int_eq(coll_kind_blocks_received(COLL_BCAST, 3, 1, 4), 1);
    coll_kind_block_source(COLL_BCAST, 3, 0, 1, &from, &block);
    ck_assert_int_eq(from, 1);
    ck_assert_int_eq(block, 0);
    ck_assert_int_eq(coll_kind_blocks_received(COLL_GATHER, 3, 1, 4), 0);
    ck_assert_int_eq(coll_kind_blocks_received(COLL_GATHERV, 1, 1, 4), 4);
    coll_kind_block_source(COLL_GATHER, 1, 2, 1, &from, &block);
    ck_assert_int_eq(from, 2);
    ck_assert_int_eq(block, 0);
    ck_assert_int_eq(coll_kind_blocks_received(COLL_SCATTERV, 3, 1, 4), 1);
    coll_kind_block_source(COLL_SCATTER, 3, 0, 1, &from, &block);
    ck_assert_int_eq(from, 1);
    ck_assert_int_eq(block, 3);
    ck_assert_int_eq(coll_kind_blocks_received(COLL_ALLGATHER, 3, 0, 4), 4);
    coll_kind_block_source(COLL_ALLGATHERV, 3, 2, 0, &from, &block);
    ck_assert_int_eq(from, 2);
    ck_assert_int_eq(block, 0);
    ck_assert_int_eq(coll_kind_blocks_received(COLL_ALLTOALLW, 0, 0, 4), 4);
    coll_kind_block_source(COLL_ALLTOALL, 3, 2, 0, &from, &block);
    ck_assert_int_eq(from, 2);
    ck_assert_int_eq(block, 3);
}
END_TEST

static Suite *
kinds_suite(void)
{
    Suite *s = suite_create("kinds");
    TCase *tc = tcase_create("table");
    tcase_add_test(tc, test_kinds_table_is_consistent);
    tcase_add_test(tc, test_kinds_rules_name_registry_algorithms);
    tcase_add_test(tc, test_kinds_reduction_decisions_follow_mpich);
    tcase_add_test(tc, test_kinds_first_matching_rule_decides);
    tcase_add_test(tc, test_kinds_rule_text);
    tcase_add_test(tc, test_kinds_fold_spans);
    tcase_add_test(tc, test_kinds_block_sources);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *runner = srunner_create(kinds_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
