/*
 * check_model_compute.c — unit tests of models/model_compute.c: the documented default table,
 * the zero-cost switch, user-op cost, overrides and their validation, names.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "models/model_compute.h"

START_TEST(test_model_compute_default_table)
{
    struct model_compute m;

    model_compute_defaults(&m);
    ck_assert(!m.zero_cost);
    /* The entries the header comment of model_compute.c documents. */
    ck_assert(model_compute_flops_per_element(&m, MODEL_COMPUTE_OP_SUM,
                                              MODEL_COMPUTE_ELEM_FLOATING) == 1.0);
    ck_assert(model_compute_flops_per_element(&m, MODEL_COMPUTE_OP_PROD,
                                              MODEL_COMPUTE_ELEM_FLOATING) == 1.0);
    ck_assert(model_compute_flops_per_element(&m, MODEL_COMPUTE_OP_SUM,
                                              MODEL_COMPUTE_ELEM_COMPLEX) == 2.0);
    ck_assert(model_compute_flops_per_element(&m, MODEL_COMPUTE_OP_PROD,
                                              MODEL_COMPUTE_ELEM_COMPLEX) == 6.0);
    ck_assert(model_compute_flops_per_element(&m, MODEL_COMPUTE_OP_MAX,
                                              MODEL_COMPUTE_ELEM_INTEGER) == 1.0);
    ck_assert(model_compute_flops_per_element(&m, MODEL_COMPUTE_OP_MAXLOC,
                                              MODEL_COMPUTE_ELEM_PAIR) == 2.0);
    ck_assert(model_compute_flops_per_element(&m, MODEL_COMPUTE_OP_MINLOC,
                                              MODEL_COMPUTE_ELEM_PAIR) == 2.0);
    ck_assert(model_compute_flops_per_element(&m, MODEL_COMPUTE_OP_BXOR,
                                              MODEL_COMPUTE_ELEM_BYTE) == 1.0);
    ck_assert(model_compute_flops_per_element(&m, MODEL_COMPUTE_OP_LAND,
                                              MODEL_COMPUTE_ELEM_LOGICAL) == 1.0);
    ck_assert(model_compute_flops_per_element(&m, MODEL_COMPUTE_OP_REPLACE,
                                              MODEL_COMPUTE_ELEM_FLOATING) == 0.0);
    ck_assert(model_compute_flops_per_element(&m, MODEL_COMPUTE_OP_NO_OP,
                                              MODEL_COMPUTE_ELEM_INTEGER) == 0.0);
    for (int e = 0; e < MODEL_COMPUTE_N_ELEMS; e++)
        ck_assert(model_compute_flops_per_element(&m, MODEL_COMPUTE_OP_USER,
                                                  (enum model_compute_elem)e) == 1.0);
    /* Every entry is a finite, non-negative number. */
    for (int o = 0; o < MODEL_COMPUTE_N_OPS; o++)
        for (int e = 0; e < MODEL_COMPUTE_N_ELEMS; e++)
            ck_assert(isfinite(m.flops[o][e]) && m.flops[o][e] >= 0.0);
}
END_TEST

START_TEST(test_model_compute_flops_scale_with_elements)
{
    struct model_compute m;

    model_compute_defaults(&m);
    ck_assert(model_compute_flops(&m, MODEL_COMPUTE_OP_PROD, MODEL_COMPUTE_ELEM_COMPLEX, 1000) ==
              6000.0);
    ck_assert(model_compute_flops(&m, MODEL_COMPUTE_OP_SUM, MODEL_COMPUTE_ELEM_FLOATING, 0) ==
              0.0);
    ck_assert(model_compute_flops(&m, MODEL_COMPUTE_OP_MAXLOC, MODEL_COMPUTE_ELEM_PAIR,
                                  G_GUINT64_CONSTANT(1) << 40) == 2.0 * 1099511627776.0);
}
END_TEST

START_TEST(test_model_compute_zero_cost)
{
    struct model_compute m;

    model_compute_zero(&m);
    ck_assert(m.zero_cost);
    for (int o = 0; o < MODEL_COMPUTE_N_OPS; o++)
        for (int e = 0; e < MODEL_COMPUTE_N_ELEMS; e++)
            ck_assert(model_compute_flops(&m, (enum model_compute_op)o,
                                          (enum model_compute_elem)e, 12345) == 0.0);
}
END_TEST

START_TEST(test_model_compute_user_flops_and_overrides)
{
    struct model_compute m;
    GError *error = NULL;

    model_compute_defaults(&m);
    ck_assert(model_compute_set_user_flops(&m, 3.5, &error));
    ck_assert_ptr_null(error);
    ck_assert(model_compute_flops(&m, MODEL_COMPUTE_OP_USER, MODEL_COMPUTE_ELEM_OTHER, 4) ==
              14.0);
    ck_assert(model_compute_flops(&m, MODEL_COMPUTE_OP_SUM, MODEL_COMPUTE_ELEM_FLOATING, 4) ==
              4.0);

    ck_assert(!model_compute_set_user_flops(&m, -1.0, &error));
    ck_assert_ptr_nonnull(error);
    ck_assert(g_error_matches(error, MODEL_COMPUTE_ERROR, MODEL_COMPUTE_ERROR_INVALID));
    g_clear_error(&error);
    ck_assert(!model_compute_set_user_flops(&m, NAN, &error));
    g_clear_error(&error);
    ck_assert(!model_compute_set_user_flops(&m, INFINITY, NULL));
    ck_assert(model_compute_flops_per_element(&m, MODEL_COMPUTE_OP_USER,
                                              MODEL_COMPUTE_ELEM_INTEGER) == 3.5);

    ck_assert(model_compute_set_flops(&m, MODEL_COMPUTE_OP_SUM, MODEL_COMPUTE_ELEM_FLOATING,
                                      0.25, &error));
    ck_assert(model_compute_flops(&m, MODEL_COMPUTE_OP_SUM, MODEL_COMPUTE_ELEM_FLOATING, 8) ==
              2.0);
    ck_assert(!model_compute_set_flops(&m, MODEL_COMPUTE_N_OPS, MODEL_COMPUTE_ELEM_FLOATING,
                                       1.0, &error));
    ck_assert_ptr_nonnull(error);
    g_clear_error(&error);
    ck_assert(!model_compute_set_flops(&m, MODEL_COMPUTE_OP_SUM, MODEL_COMPUTE_ELEM_FLOATING,
                                       -0.5, &error));
    g_clear_error(&error);
}
END_TEST

START_TEST(test_model_compute_names_round_trip)
{
    GError *error = NULL;

    for (int o = 0; o < MODEL_COMPUTE_N_OPS; o++) {
        enum model_compute_op back;
        const char *name = model_compute_op_name((enum model_compute_op)o);
        ck_assert_ptr_nonnull(name);
        ck_assert(model_compute_op_from_name(name, &back, &error));
        ck_assert_int_eq(back, o);
    }
    for (int e = 0; e < MODEL_COMPUTE_N_ELEMS; e++) {
        enum model_compute_elem back;
        const char *name = model_compute_elem_name((enum model_compute_elem)e);
        ck_assert_ptr_nonnull(name);
        ck_assert(model_compute_elem_from_name(name, &back, &error));
        ck_assert_int_eq(back, e);
    }
    ck_assert_str_eq(model_compute_op_name(MODEL_COMPUTE_OP_SUM), "MPI_SUM");
    ck_assert_str_eq(model_compute_elem_name(MODEL_COMPUTE_ELEM_COMPLEX), "complex");
    ck_assert_ptr_null(model_compute_op_name(MODEL_COMPUTE_N_OPS));
    ck_assert_ptr_null(model_compute_elem_name(MODEL_COMPUTE_N_ELEMS));
    {
        enum model_compute_op op;
        ck_assert(!model_compute_op_from_name("MPI_SUMM", &op, &error));
        ck_assert_ptr_nonnull(strstr(error->message, "MPI_SUMM"));
        g_clear_error(&error);
        ck_assert(!model_compute_op_from_name(NULL, &op, &error));
        g_clear_error(&error);
    }
    {
        enum model_compute_elem elem;
        ck_assert(!model_compute_elem_from_name("float", &elem, &error));
        ck_assert_ptr_nonnull(strstr(error->message, "float"));
        g_clear_error(&error);
    }
}
END_TEST

static Suite *
model_compute_suite(void)
{
    Suite *s = suite_create("model_compute");
    TCase *tc = tcase_create("core");

    tcase_add_test(tc, test_model_compute_default_table);
    tcase_add_test(tc, test_model_compute_flops_scale_with_elements);
    tcase_add_test(tc, test_model_compute_zero_cost);
    tcase_add_test(tc, test_model_compute_user_flops_and_overrides);
    tcase_add_test(tc, test_model_compute_names_round_trip);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(model_compute_suite());
    int failed;

    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
