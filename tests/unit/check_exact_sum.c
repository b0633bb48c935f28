/*
 * check_exact_sum.c — the exact summation of sim/bench/exact_sum.c on the hard cases, each against
 * a value derived by hand (written as an exact binary expression): cancellation that loses
 * everything in naive order, ties settled by partials far below the rounding point, double
 * rounding to float, subnormals, an expansion longer than the inline storage, and the ulp and
 * error measures at their boundaries.
 */
#include "config.h"

#include <check.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "sim/bench/exact_sum.h"

static double
sum_of(const double *values, gsize n)
{
    struct exact_sum sum;
    exact_sum_init(&sum);
    for (gsize i = 0; i < n; i++)
        exact_sum_add(&sum, values[i]);
    double result = exact_sum_double(&sum);
    exact_sum_clear(&sum);
    return result;
}

static float
float_sum_of(const double *values, gsize n)
{
    struct exact_sum sum;
    exact_sum_init(&sum);
    for (gsize i = 0; i < n; i++)
        exact_sum_add(&sum, values[i]);
    float result = exact_sum_float(&sum);
    exact_sum_clear(&sum);
    return result;
}

#define SUM(...)                                                                                   \
    sum_of((const double[]){__VA_ARGS__}, sizeof((const double[]){__VA_ARGS__}) / sizeof(double))
#define FSUM(...)                                                                                  \
    float_sum_of((const double[]){__VA_ARGS__},                                                    \
                 sizeof((const double[]){__VA_ARGS__}) / sizeof(double))

/* ck_assert on doubles compared bit for bit (so -0 and +0, or NaNs, are not confused). */
#define ASSERT_SAME(got, want)                                                                     \
    do {                                                                                           \
        double g_ = (got), w_ = (want);                                                            \
        ck_assert_msg(g_ == w_ && signbit(g_) == signbit(w_), "got %a, want %a", g_, w_);          \
    } while (0)

START_TEST(test_exact_sum_cancellation_that_naive_order_loses)
{
    /* 1e16 + 1 rounds back to 1e16 (ulp 2, tie to even): naively the 1 is gone */
    ck_assert(1e16 + 1.0 - 1e16 == 0.0);
    ASSERT_SAME(SUM(1e16, 1.0, -1e16), 1.0);
    ASSERT_SAME(SUM(1e300, 1.0, -1e300), 1.0);
    ASSERT_SAME(SUM(0x1p1000, 0x1p-1000, -0x1p1000), 0x1p-1000);
    /* 2^53 + 1 + 1: each 1 alone is a tie that rounds away, together they count */
    ASSERT_SAME(SUM(0x1p53, 1.0, 1.0), 0x1p53 + 2.0);
    ASSERT_SAME(SUM(1e16, -1e16), 0.0);
}
END_TEST

START_TEST(test_exact_sum_ties_are_settled_by_every_partial)
{
    /* 1 + 2^-53 is halfway between 1 and 1 + 2^-52: ties to even give 1 */
    ASSERT_SAME(SUM(1.0, 0x1p-53), 1.0);
    /* halfway between 1 + 2^-52 (odd) and 1 + 2^-51 (even): up */
    ASSERT_SAME(SUM(1.0 + 0x1p-52, 0x1p-53), 1.0 + 0x1p-51);
    /* a partial 53 binary places further down breaks the tie */
    ASSERT_SAME(SUM(1.0, 0x1p-53, 0x1p-106), 1.0 + 0x1p-52);
    ASSERT_SAME(SUM(1.0, 0x1p-53, -0x1p-106), 1.0);
    ASSERT_SAME(SUM(1.0 + 0x1p-52, 0x1p-53, -0x1p-106), 1.0 + 0x1p-52);
    ASSERT_SAME(SUM(-1.0, -0x1p-53, -0x1p-106), -1.0 - 0x1p-52);
    /* two halves of an ulp make a whole one, in any order */
    ASSERT_SAME(SUM(0x1p-53, 1.0, 0x1p-53), 1.0 + 0x1p-52);
    /* Python's documented example: fsum([0.1] * 10) == 1.0 */
    ASSERT_SAME(SUM(0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1), 1.0);
}
END_TEST

START_TEST(test_exact_sum_many_ties_in_a_row)
{
    /* 2^53 + 1000 ones: each naive addition is a tie rounded back to 2^53 */
    struct exact_sum sum;
    exact_sum_init(&sum);
    exact_sum_add(&sum, 0x1p53);
    double naive = 0x1p53;
    for (int i = 0; i < 1000; i++) {
        exact_sum_add(&sum, 1.0);
        naive += 1.0;
    }
    ck_assert(naive == 0x1p53);
    ASSERT_SAME(exact_sum_double(&sum), 0x1p53 + 1000.0);
    /* one more 1: 2^53 + 1001 is a tie between ...1000 and ...1002; ...1000 is even */
    exact_sum_add(&sum, 1.0);
    ASSERT_SAME(exact_sum_double(&sum), 0x1p53 + 1000.0);
    exact_sum_add(&sum, 0x1p-60);
    ASSERT_SAME(exact_sum_double(&sum), 0x1p53 + 1002.0);
    exact_sum_clear(&sum);
}
END_TEST

START_TEST(test_exact_sum_subnormals)
{
    ASSERT_SAME(SUM(DBL_TRUE_MIN, DBL_TRUE_MIN, -DBL_TRUE_MIN), DBL_TRUE_MIN);
    /* the largest subnormal is DBL_MIN - 2^-1074 */
    ASSERT_SAME(SUM(DBL_MIN, -DBL_TRUE_MIN), 0x0.fffffffffffffp-1022);
    ASSERT_SAME(SUM(1.0, 0x1p-1060, -1.0, 0x1p-1074), 0x1p-1060 + 0x1p-1074);
    ASSERT_SAME(SUM(1e-310, 1.0, -1.0), 1e-310);
    ASSERT_SAME(SUM(DBL_TRUE_MIN, -DBL_TRUE_MIN), 0.0);
}
END_TEST

START_TEST(test_exact_sum_long_expansion)
{
    /* eleven partials that do not overlap, beyond the inline storage, then their negatives
     * in the other order and a 3: exactly 3 */
    struct exact_sum sum;
    exact_sum_init(&sum);
    for (int k = -5; k <= 5; k++)
        exact_sum_add(&sum, ldexp(1.0, 100 * k));
    ck_assert_uint_ge(sum.length, 11);
    ASSERT_SAME(exact_sum_double(&sum), 0x1p500);
    for (int k = 5; k >= -5; k--)
        exact_sum_add(&sum, -ldexp(1.0, 100 * k));
    exact_sum_add(&sum, 3.0);
    ASSERT_SAME(exact_sum_double(&sum), 3.0);
    exact_sum_clear(&sum);
    ASSERT_SAME(exact_sum_double(&sum), 0.0);
}
END_TEST

START_TEST(test_exact_sum_specials)
{
    ck_assert(isinf(SUM(1.0, INFINITY)) && SUM(1.0, INFINITY) > 0);
    ck_assert(isnan(SUM(INFINITY, -INFINITY)));
    ck_assert(isnan(SUM(1.0, NAN)));
    /* a partial sum beyond the double range */
    ck_assert(isnan(SUM(DBL_MAX, DBL_MAX, -DBL_MAX)));
}
END_TEST

START_TEST(test_exact_sum_float_rounds_once)
{
    /* 1 + 2^-24 + 2^-60: as a double it is 1 + 2^-24, exactly halfway between the floats 1
     * and 1 + 2^-23, which a second rounding sends to 1; the exact value is above: up */
    ck_assert((float)(1.0 + 0x1p-24 + 0x1p-60) == 1.0f);
    ck_assert(FSUM(1.0, 0x1p-24, 0x1p-60) == 1.0f + 0x1p-23f);
    ck_assert(FSUM(1.0, 0x1p-24, -0x1p-60) == 1.0f);
    /* an exact float midpoint: ties to even */
    ck_assert(FSUM(1.0, 0x1p-24) == 1.0f);
    ck_assert(FSUM(1.0 + 0x1p-23, 0x1p-24) == 1.0f + 0x1p-22f);
    ck_assert(FSUM(-1.0, -0x1p-24, -0x1p-60) == -1.0f - 0x1p-23f);
    /* the float cancellation case: 1e8 has ulp 8 as a float */
    ck_assert(FSUM(1e8, 3.0, -1e8) == 3.0f);
    /* float subnormals */
    ck_assert(FSUM(0x1p-149, 0x1p-149, -0x1p-150) == 0x1p-149f * 2);
}
END_TEST

START_TEST(test_exact_sum_ulp_definition)
{
    ASSERT_SAME(exact_sum_ulp_double(1.0), 0x1p-52);
    ASSERT_SAME(exact_sum_ulp_double(-1.0), 0x1p-52);
    ASSERT_SAME(exact_sum_ulp_double(0.75), 0x1p-53);
    ASSERT_SAME(exact_sum_ulp_double(1e16), 2.0);
    ASSERT_SAME(exact_sum_ulp_double(0.0), 0x1p-1074);
    ASSERT_SAME(exact_sum_ulp_double(DBL_MIN), 0x1p-1074);
    ASSERT_SAME(exact_sum_ulp_double(DBL_MAX), 0x1p971);
    ASSERT_SAME(exact_sum_ulp_float(1.0f), 0x1p-23);
    ASSERT_SAME(exact_sum_ulp_float(1e8f), 8.0);
    ASSERT_SAME(exact_sum_ulp_float(0.0f), 0x1p-149);
    ASSERT_SAME(exact_sum_ulp_float(FLT_MAX), 0x1p104);
}
END_TEST

START_TEST(test_exact_sum_error_measures)
{
    double ulps, relative;
    exact_sum_error_double(1.0 + 0x1p-52, 1.0, &ulps, &relative);
    ASSERT_SAME(ulps, 1.0);
    ASSERT_SAME(relative, 0x1p-52);
    /* below a power of two the gap is half as wide, but the reference's ulp counts */
    exact_sum_error_double(1.0 - 0x1p-53, 1.0, &ulps, &relative);
    ASSERT_SAME(ulps, 0.5);
    exact_sum_error_double(6.0, 6.5, &ulps, &relative);
    ASSERT_SAME(ulps, 0.5 / 0x1p-50);
    ASSERT_SAME(relative, 0.5 / 6.5);
    exact_sum_error_double(0.0, 0.0, &ulps, &relative);
    ASSERT_SAME(ulps, 0.0);
    ASSERT_SAME(relative, 0.0);
    exact_sum_error_double(DBL_TRUE_MIN, 0.0, &ulps, &relative);
    ASSERT_SAME(ulps, 1.0);
    ck_assert(isinf(relative));
    exact_sum_error_double(INFINITY, 1.0, &ulps, &relative);
    ck_assert(isinf(ulps) && isinf(relative));
    exact_sum_error_double(NAN, 1.0, &ulps, &relative);
    ck_assert(isnan(ulps) && isnan(relative));
    exact_sum_error_float(1.0f + 0x1p-22f, 1.0f, &ulps, &relative);
    ASSERT_SAME(ulps, 2.0);
    ASSERT_SAME(relative, 0x1p-22);
}
END_TEST

static Suite *
exact_sum_suite(void)
{
    Suite *s = suite_create("exact_sum");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_exact_sum_cancellation_that_naive_order_loses);
    tcase_add_test(tc, test_exact_sum_ties_are_settled_by_every_partial);
    tcase_add_test(tc, test_exact_sum_many_ties_in_a_row);
    tcase_add_test(tc, test_exact_sum_subnormals);
    tcase_add_test(tc, test_exact_sum_long_expansion);
    tcase_add_test(tc, test_exact_sum_specials);
    tcase_add_test(tc, test_exact_sum_float_rounds_once);
    tcase_add_test(tc, test_exact_sum_ulp_definition);
    tcase_add_test(tc, test_exact_sum_error_measures);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *runner = srunner_create(exact_sum_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
