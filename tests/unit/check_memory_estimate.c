/*
 * check_memory_estimate.c — the memory estimator of sim/engine/memory_estimate.c: its parts
 * follow the stack rules of sim_engine_stack_kib (guarded stacks cost the pages touched,
 * unguarded ones one page at least), privatization and payload add their share, the
 * COLLSIM_MEMORY_LIMIT override is read (and refused when malformed), byte counts parse and
 * print, and a check refuses only what exceeds the memory available, naming the parts.
 */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "sim/engine/memory_estimate.h"

#define KIB G_GUINT64_CONSTANT(1024)

START_TEST(test_memory_estimate_parts_follow_the_stack_rules)
{
    struct sim_memory_rank r;
    /* guarded (up to 16384 ranks): the touched pages, at most the stack itself */
    struct sim_memory_need small = {.nranks = 1024};
    sim_memory_rank_estimate(&small, &r);
    ck_assert_uint_eq(r.stack, 12 * KIB);
    ck_assert_uint_eq(r.state, 512);
    ck_assert_uint_eq(r.globals, 0);
    ck_assert_uint_eq(r.payload, 0);
    struct sim_memory_need tiny_stack = {.nranks = 1024, .stack_kib = 8};
    sim_memory_rank_estimate(&tiny_stack, &r);
    ck_assert_uint_eq(r.stack, 8 * KIB);
    /* unguarded (16 KiB up to 262144 ranks, 8 KiB beyond): the one page a rank touches at
     * least, or the whole stack if smaller */
    struct sim_memory_need mid = {.nranks = 65536, .privatize = TRUE};
    sim_memory_rank_estimate(&mid, &r);
    ck_assert_uint_eq(r.stack, 4 * KIB);
    ck_assert_uint_eq(r.globals, 128);
    struct sim_memory_need huge = {.nranks = 1000000000, .payload_bytes = 1000};
    sim_memory_rank_estimate(&huge, &r);
    ck_assert_uint_eq(r.stack, 4 * KIB);
    ck_assert_uint_eq(r.payload, 1000);
    ck_assert_uint_eq(sim_memory_rank_total(&r), 4 * KIB + 512 + 1000);
    struct sim_memory_need tiny_unguarded = {.nranks = 65536, .stack_kib = 2};
    sim_memory_rank_estimate(&tiny_unguarded, &r);
    ck_assert_uint_eq(r.stack, 2 * KIB);
    /* on a shared stack: the copy of a stopped rank's frames, whatever the stack's size */
    struct sim_memory_need shared_small = {.nranks = 1024, .shared_stack = TRUE};
    sim_memory_rank_estimate(&shared_small, &r);
    ck_assert_uint_eq(r.stack, 192);
    struct sim_memory_need shared_huge = {.nranks = 1 << 22, .stack_kib = 2048,
                                          .shared_stack = TRUE};
    sim_memory_rank_estimate(&shared_huge, &r);
    ck_assert_uint_eq(r.stack, 192);
}
END_TEST

START_TEST(test_memory_estimate_parse_and_format)
{
    guint64 b = 0;
    ck_assert(sim_memory_parse("123", &b) && b == 123);
    ck_assert(sim_memory_parse("64K", &b) && b == 64 * KIB);
    ck_assert(sim_memory_parse("1.5G", &b) && b == 3 * 512 * KIB * KIB);
    ck_assert(sim_memory_parse("2GiB", &b) && b == 2 * KIB * KIB * KIB);
    ck_assert(sim_memory_parse("1T", &b) && b == KIB * KIB * KIB * KIB);
    ck_assert(!sim_memory_parse("", &b));
    ck_assert(!sim_memory_parse("lots", &b));
    ck_assert(!sim_memory_parse("-1G", &b));
    ck_assert(!sim_memory_parse("12X", &b));
    g_autofree gchar *a = sim_memory_format(800);
    g_autofree gchar *k = sim_memory_format(12 * KIB);
    g_autofree gchar *g = sim_memory_format(3 * 512 * KIB * KIB);
    ck_assert_str_eq(a, "800 B");
    ck_assert_str_eq(k, "12.0 KiB");
    ck_assert_str_eq(g, "1.5 GiB");
}
END_TEST

START_TEST(test_memory_estimate_override_is_read)
{
    const char *source = NULL;
    GError *error = NULL;
    g_setenv("COLLSIM_MEMORY_LIMIT", "512M", TRUE);
    ck_assert_uint_eq(sim_memory_available(&source, &error), 512 * KIB * KIB);
    ck_assert_str_eq(source, "COLLSIM_MEMORY_LIMIT");
    g_setenv("COLLSIM_MEMORY_LIMIT", "much", TRUE);
    ck_assert_uint_eq(sim_memory_available(&source, &error), 0);
    ck_assert_ptr_nonnull(error);
    ck_assert_ptr_nonnull(strstr(error->message, "COLLSIM_MEMORY_LIMIT='much'"));
    g_clear_error(&error);
    /* without it: the machine's figure (MemAvailable or the cgroup's room) */
    g_unsetenv("COLLSIM_MEMORY_LIMIT");
    guint64 have = sim_memory_available(&source, &error);
    ck_assert_ptr_null(error);
    if (source != NULL)
        ck_assert(have > 0);
}
END_TEST

START_TEST(test_memory_estimate_refuses_only_what_does_not_fit)
{
    GError *error = NULL;
    /* 1000 ranks x 12.5 KiB (12 stack + 0.5 state) = 12500 KiB = 12.2 MiB */
    struct sim_memory_need need = {.nranks = 1000};
    g_setenv("COLLSIM_MEMORY_LIMIT", "13M", TRUE);
    ck_assert(sim_memory_check(&need, &error));
    g_setenv("COLLSIM_MEMORY_LIMIT", "12M", TRUE);
    ck_assert(!sim_memory_check(&need, &error));
    ck_assert_ptr_nonnull(strstr(error->message, "1000 ranks need at least 12.2 MiB"));
    ck_assert_ptr_nonnull(strstr(error->message, "stack 12.0 KiB"));
    ck_assert_ptr_nonnull(strstr(error->message, "12.0 MiB is available (COLLSIM_MEMORY_LIMIT)"));
    ck_assert_ptr_nonnull(strstr(error->message, "--stack-kib 8"));
    ck_assert_ptr_null(strstr(error->message, "--payload none"));
    g_clear_error(&error);
    /* payload and privatization name their own way out */
    struct sim_memory_need data = {.nranks = 1000, .privatize = TRUE, .payload_bytes = KIB * KIB};
    ck_assert(!sim_memory_check(&data, &error));
    ck_assert_ptr_nonnull(strstr(error->message, "--payload none, --no-privatize"));
    g_clear_error(&error);
    /* a billion ranks: far beyond any machine, without overflow */
    g_unsetenv("COLLSIM_MEMORY_LIMIT");
    struct sim_memory_need billion = {.nranks = 1000000000, .payload_bytes = G_MAXUINT64 / 2};
    ck_assert(!sim_memory_check(&billion, &error));
    ck_assert_ptr_nonnull(strstr(error->message, "1000000000 ranks need at least"));
    g_clear_error(&error);
}
END_TEST

static Suite *
memory_estimate_suite(void)
{
    Suite *s = suite_create("memory_estimate");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_memory_estimate_parts_follow_the_stack_rules);
    tcase_add_test(tc, test_memory_estimate_parse_and_format);
    tcase_add_test(tc, test_memory_estimate_override_is_read);
    tcase_add_test(tc, test_memory_estimate_refuses_only_what_does_not_fit);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *runner = srunner_create(memory_estimate_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
