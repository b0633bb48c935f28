/*
 * check_op.c — unit tests of src/op.c: the whole op × datatype cross product against an
 * independently written expectation (MPI-3.1 §5.9.2, §5.9.4), a hand-checked value for every
 * legal pair, MAXLOC/MINLOC ties, user ops (argument order, commute flag, free), derived and
 * non-contiguous layouts, exact arithmetic, MPI_Reduce_local's argument errors and its
 * compute-time charge.
 *
 * Errors are returned (MPI_ERRORS_RETURN on MPI_COMM_WORLD), never fatal.
 */
#include <check.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "datatype.h"
#include "mpi.h"
#include "op.h"
#include "runtime.h"

static void
setup(void)
{
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
}

/* Every predefined datatype of mpi.h except the MPI_LB/MPI_UB markers, aliases included. */
static const struct {
    MPI_Datatype dt;
    const char *name;
} all_types[] = {
#define T(x) {x, #x}
    T(MPI_CHAR), T(MPI_SIGNED_CHAR), T(MPI_UNSIGNED_CHAR), T(MPI_BYTE), T(MPI_WCHAR),
    T(MPI_SHORT), T(MPI_UNSIGNED_SHORT), T(MPI_INT), T(MPI_UNSIGNED), T(MPI_LONG),
    T(MPI_UNSIGNED_LONG), T(MPI_LONG_LONG_INT), T(MPI_LONG_LONG), T(MPI_UNSIGNED_LONG_LONG),
    T(MPI_FLOAT), T(MPI_DOUBLE), T(MPI_LONG_DOUBLE), T(MPI_C_BOOL), T(MPI_INT8_T),
    T(MPI_INT16_T), T(MPI_INT32_T), T(MPI_INT64_T), T(MPI_UINT8_T), T(MPI_UINT16_T),
    T(MPI_UINT32_T), T(MPI_UINT64_T), T(MPI_C_COMPLEX), T(MPI_C_FLOAT_COMPLEX),
    T(MPI_C_DOUBLE_COMPLEX), T(MPI_C_LONG_DOUBLE_COMPLEX), T(MPI_AINT), T(MPI_OFFSET),
    T(MPI_COUNT), T(MPI_PACKED), T(MPI_FLOAT_INT), T(MPI_DOUBLE_INT), T(MPI_LONG_INT),
    T(MPI_2INT), T(MPI_SHORT_INT), T(MPI_LONG_DOUBLE_INT), T(MPI_INTEGER), T(MPI_REAL),
    T(MPI_DOUBLE_PRECISION), T(MPI_LOGICAL), T(MPI_COMPLEX), T(MPI_DOUBLE_COMPLEX),
    T(MPI_CHARACTER), T(MPI_2INTEGER), T(MPI_2REAL), T(MPI_2DOUBLE_PRECISION),
    T(MPI_INTEGER1), T(MPI_INTEGER2), T(MPI_INTEGER4), T(MPI_INTEGER8), T(MPI_REAL4),
    T(MPI_REAL8), T(MPI_REAL16), T(MPI_COMPLEX8), T(MPI_COMPLEX16), T(MPI_COMPLEX32),
    T(MPI_CXX_BOOL), T(MPI_CXX_FLOAT_COMPLEX), T(MPI_CXX_DOUBLE_COMPLEX),
    T(MPI_CXX_LONG_DOUBLE_COMPLEX),
#undef T
};
#define N_TYPES ((int)(sizeof(all_types) / sizeof(all_types[0])))

static const struct {
    MPI_Op op;
    const char *name;
} all_ops[] = {
    {MPI_MAX, "MPI_MAX"},       {MPI_MIN, "MPI_MIN"},       {MPI_SUM, "MPI_SUM"},
    {MPI_PROD, "MPI_PROD"},     {MPI_LAND, "MPI_LAND"},     {MPI_BAND, "MPI_BAND"},
    {MPI_LOR, "MPI_LOR"},       {MPI_BOR, "MPI_BOR"},       {MPI_LXOR, "MPI_LXOR"},
    {MPI_BXOR, "MPI_BXOR"},     {MPI_MAXLOC, "MPI_MAXLOC"}, {MPI_MINLOC, "MPI_MINLOC"},
    {MPI_REPLACE, "MPI_REPLACE"}, {MPI_NO_OP, "MPI_NO_OP"},
};
#define N_OPS ((int)(sizeof(all_ops) / sizeof(all_ops[0])))

/* ------------------------------------------------------------------------------------------ */
/* The expectation, written as code from the standard's text (not from op.c's table)          */
/* ------------------------------------------------------------------------------------------ */

static int
is_c_integer(MPI_Datatype d)
{
    return d == MPI_INT || d == MPI_LONG || d == MPI_SHORT || d == MPI_UNSIGNED_SHORT ||
           d == MPI_UNSIGNED || d == MPI_UNSIGNED_LONG || d == MPI_LONG_LONG_INT ||
           d == MPI_LONG_LONG || d == MPI_UNSIGNED_LONG_LONG || d == MPI_SIGNED_CHAR ||
           d == MPI_UNSIGNED_CHAR || d == MPI_INT8_T || d == MPI_INT16_T || d == MPI_INT32_T ||
           d == MPI_INT64_T || d == MPI_UINT8_T || d == MPI_UINT16_T || d == MPI_UINT32_T ||
           d == MPI_UINT64_T;
}

static int
is_fortran_integer(MPI_Datatype d)
{
    return d == MPI_INTEGER || d == MPI_INTEGER1 || d == MPI_INTEGER2 || d == MPI_INTEGER4 ||
           d == MPI_INTEGER8;
}

static int
is_floating(MPI_Datatype d)
{
    return d == MPI_FLOAT || d == MPI_DOUBLE || d == MPI_LONG_DOUBLE || d == MPI_REAL ||
           d == MPI_DOUBLE_PRECISION || d == MPI_REAL4 || d == MPI_REAL8 || d == MPI_REAL16;
}

static int
is_logical(MPI_Datatype d)
{
    return d == MPI_LOGICAL || d == MPI_C_BOOL || d == MPI_CXX_BOOL;
}

static int
is_complex(MPI_Datatype d)
{
    return d == MPI_C_COMPLEX || d == MPI_C_FLOAT_COMPLEX || d == MPI_C_DOUBLE_COMPLEX ||
           d == MPI_C_LONG_DOUBLE_COMPLEX || d == MPI_COMPLEX || d == MPI_DOUBLE_COMPLEX ||
           d == MPI_COMPLEX8 || d == MPI_COMPLEX16 || d == MPI_COMPLEX32 ||
           d == MPI_CXX_FLOAT_COMPLEX || d == MPI_CXX_DOUBLE_COMPLEX ||
           d == MPI_CXX_LONG_DOUBLE_COMPLEX;
}

static int
is_byte(MPI_Datatype d)
{
    return d == MPI_BYTE;
}

static int
is_multi_language(MPI_Datatype d)
{
    return d == MPI_AINT || d == MPI_OFFSET || d == MPI_COUNT;
}

static int
is_pair(MPI_Datatype d)
{
    return d == MPI_FLOAT_INT || d == MPI_DOUBLE_INT || d == MPI_LONG_INT || d == MPI_2INT ||
           d == MPI_SHORT_INT || d == MPI_LONG_DOUBLE_INT || d == MPI_2INTEGER ||
           d == MPI_2REAL || d == MPI_2DOUBLE_PRECISION;
}

/* Outside the standard's groups, but reduced as a C integer by Open MPI 4.1 (measured: all
 * ten integer ops accepted, SUM of 7, 57, 107, -99 as char is 72) and by MPICH. */
static int
is_char_as_open_mpi(MPI_Datatype d)
{
    return d == MPI_CHAR;
}

static int
expect_legal(MPI_Op op, MPI_Datatype d)
{
    if (is_char_as_open_mpi(d))
        return op == MPI_MAX || op == MPI_MIN || op == MPI_SUM || op == MPI_PROD ||
               op == MPI_LAND || op == MPI_LOR || op == MPI_LXOR || op == MPI_BAND ||
               op == MPI_BOR || op == MPI_BXOR;
    if (op == MPI_MAX || op == MPI_MIN)
        return is_c_integer(d) || is_fortran_integer(d) || is_floating(d) ||
               is_multi_language(d);
    if (op == MPI_SUM || op == MPI_PROD)
        return is_c_integer(d) || is_fortran_integer(d) || is_floating(d) || is_complex(d) ||
               is_multi_language(d);
    if (op == MPI_LAND || op == MPI_LOR || op == MPI_LXOR) /* multi-language: as Open MPI */
        return is_c_integer(d) || is_logical(d) || is_multi_language(d);
    if (op == MPI_BAND || op == MPI_BOR || op == MPI_BXOR)
        return is_c_integer(d) || is_fortran_integer(d) || is_byte(d) || is_multi_language(d);
    if (op == MPI_MAXLOC || op == MPI_MINLOC)
        return is_pair(d);
    return 0; /* MPI_REPLACE, MPI_NO_OP: one-sided only */
}

/* ------------------------------------------------------------------------------------------ */
/* Typed access to test buffers                                                                 */
/* ------------------------------------------------------------------------------------------ */

struct p_float_int { float v; int i; };
struct p_double_int { double v; int i; };
struct p_long_int { long v; int i; };
struct p_2int { int v; int i; };
struct p_short_int { short v; int i; };
struct p_ldouble_int { long double v; int i; };
struct p_2float { float v; float i; };
struct p_2double { double v; double i; };

#define SCALAR_TYPES(X)                                                                        \
    X(MPI_CHAR, char) X(MPI_SIGNED_CHAR, signed char) X(MPI_UNSIGNED_CHAR, unsigned char)      \
    X(MPI_BYTE, unsigned char) X(MPI_WCHAR, wchar_t) X(MPI_SHORT, short)                       \
    X(MPI_UNSIGNED_SHORT, unsigned short) X(MPI_INT, int) X(MPI_UNSIGNED, unsigned)            \
    X(MPI_LONG, long) X(MPI_UNSIGNED_LONG, unsigned long) X(MPI_LONG_LONG_INT, long long)      \
    X(MPI_UNSIGNED_LONG_LONG, unsigned long long) X(MPI_FLOAT, float) X(MPI_DOUBLE, double)    \
    X(MPI_LONG_DOUBLE, long double) X(MPI_INT8_T, int8_t) X(MPI_INT16_T, int16_t)              \
    X(MPI_INT32_T, int32_t) X(MPI_INT64_T, int64_t) X(MPI_UINT8_T, uint8_t)                    \
    X(MPI_UINT16_T, uint16_t) X(MPI_UINT32_T, uint32_t) X(MPI_UINT64_T, uint64_t)              \
    X(MPI_AINT, MPI_Aint) X(MPI_OFFSET, MPI_Offset) X(MPI_COUNT, MPI_Count)                    \
    X(MPI_PACKED, unsigned char) X(MPI_INTEGER, int) X(MPI_REAL, float)                        \
    X(MPI_DOUBLE_PRECISION, double) X(MPI_LOGICAL, int) X(MPI_CHARACTER, char)                \
    X(MPI_INTEGER1, int8_t) X(MPI_INTEGER2, int16_t) X(MPI_INTEGER4, int32_t)                  \
    X(MPI_INTEGER8, int64_t) X(MPI_REAL4, float) X(MPI_REAL8, double)                          \
    X(MPI_REAL16, long double)

/* Element k of a scalar array: store v / load as long double. */
static void
put(MPI_Datatype dt, void *buf, int k, long double v)
{
#define PUT(D, T)                                                                              \
    if (dt == D) {                                                                             \
        ((T *)buf)[k] = (T)v;                                                                  \
        return;                                                                                \
    }
    SCALAR_TYPES(PUT)
#undef PUT
    if (dt == MPI_C_BOOL || dt == MPI_CXX_BOOL) {
        ((_Bool *)buf)[k] = v != 0;
        return;
    }
    ck_abort_msg("put: no scalar type %s", collsim_datatype_name(dt));
}

static long double
get(MPI_Datatype dt, const void *buf, int k)
{
#define GET(D, T)                                                                              \
    if (dt == D)                                                                               \
        return (long double)((const T *)buf)[k];
    SCALAR_TYPES(GET)
#undef GET
    if (dt == MPI_C_BOOL || dt == MPI_CXX_BOOL)
        return ((const _Bool *)buf)[k];
    ck_abort_msg("get: no scalar type %s", collsim_datatype_name(dt));
    return 0;
}

/* Complex element k as (re, im), components of the type's own precision. */
static void
put_complex(MPI_Datatype dt, void *buf, int k, long double re, long double im)
{
    if (dt == MPI_C_FLOAT_COMPLEX || dt == MPI_C_COMPLEX || dt == MPI_COMPLEX ||
        dt == MPI_COMPLEX8 || dt == MPI_CXX_FLOAT_COMPLEX) {
        ((float *)buf)[2 * k] = (float)re;
        ((float *)buf)[2 * k + 1] = (float)im;
    } else if (dt == MPI_C_DOUBLE_COMPLEX || dt == MPI_DOUBLE_COMPLEX || dt == MPI_COMPLEX16 ||
               dt == MPI_CXX_DOUBLE_COMPLEX) {
        ((double *)buf)[2 * k] = (double)re;
        ((double *)buf)[2 * k + 1] = (double)im;
    } else {
        ((long double *)buf)[2 * k] = re;
        ((long double *)buf)[2 * k + 1] = im;
    }
}

static void
get_complex(MPI_Datatype dt, const void *buf, int k, long double *re, long double *im)
{
    if (dt == MPI_C_FLOAT_COMPLEX || dt == MPI_C_COMPLEX || dt == MPI_COMPLEX ||
        dt == MPI_COMPLEX8 || dt == MPI_CXX_FLOAT_COMPLEX) {
        *re = ((const float *)buf)[2 * k];
        *im = ((const float *)buf)[2 * k + 1];
    } else if (dt == MPI_C_DOUBLE_COMPLEX || dt == MPI_DOUBLE_COMPLEX || dt == MPI_COMPLEX16 ||
               dt == MPI_CXX_DOUBLE_COMPLEX) {
        *re = ((const double *)buf)[2 * k];
        *im = ((const double *)buf)[2 * k + 1];
    } else {
        *re = ((const long double *)buf)[2 * k];
        *im = ((const long double *)buf)[2 * k + 1];
    }
}

#define PAIR_TYPES(X)                                                                          \
    X(MPI_FLOAT_INT, struct p_float_int) X(MPI_DOUBLE_INT, struct p_double_int)                \
    X(MPI_LONG_INT, struct p_long_int) X(MPI_2INT, struct p_2int)                              \
    X(MPI_SHORT_INT, struct p_short_int) X(MPI_LONG_DOUBLE_INT, struct p_ldouble_int)          \
    X(MPI_2INTEGER, struct p_2int) X(MPI_2REAL, struct p_2float)                               \
    X(MPI_2DOUBLE_PRECISION, struct p_2double)

static void
put_pair(MPI_Datatype dt, void *buf, int k, int v, int i)
{
#define PUT(D, S)                                                                              \
    if (dt == D) {                                                                             \
        ((S *)buf)[k].v = v;                                                                   \
        ((S *)buf)[k].i = i;                                                                   \
        return;                                                                                \
    }
    PAIR_TYPES(PUT)
#undef PUT
    ck_abort_msg("put_pair: no pair type %s", collsim_datatype_name(dt));
}

static void
get_pair(MPI_Datatype dt, const void *buf, int k, long double *v, long double *i)
{
#define GET(D, S)                                                                              \
    if (dt == D) {                                                                             \
        *v = ((const S *)buf)[k].v;                                                            \
        *i = ((const S *)buf)[k].i;                                                            \
        return;                                                                                \
    }
    PAIR_TYPES(GET)
#undef GET
    ck_abort_msg("get_pair: no pair type %s", collsim_datatype_name(dt));
}

/* ------------------------------------------------------------------------------------------ */
/* The cross product                                                                            */
/* ------------------------------------------------------------------------------------------ */

/* Every (op, type): collsim_op_check and MPI_Reduce_local agree with expect_legal. */
START_TEST(test_op_cross_product_legality)
{
    MPI_Datatype dt = all_types[_i].dt;
    _Alignas(64) unsigned char in[256], io[256];
    MPI_Datatype contig;

    memset(in, 0, sizeof(in));
    memset(io, 0, sizeof(io));
    ck_assert_int_eq(MPI_Type_contiguous(2, dt, &contig), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_commit(&contig), MPI_SUCCESS);
    for (int o = 0; o < N_OPS; o++) {
        MPI_Op op = all_ops[o].op;
        int want = expect_legal(op, dt) ? MPI_SUCCESS : MPI_ERR_OP;
        ck_assert_msg(collsim_op_check(op, dt) == want, "collsim_op_check(%s, %s) = %d, want %d",
                      all_ops[o].name, all_types[_i].name, collsim_op_check(op, dt), want);
        ck_assert_msg(MPI_Reduce_local(in, io, 2, dt, op) == want,
                      "MPI_Reduce_local(%s, %s) != %d", all_ops[o].name, all_types[_i].name,
                      want);
        /* A derived type homogeneous in dt takes exactly the ops dt takes. */
        ck_assert_msg(collsim_op_check(op, contig) == want, "collsim_op_check(%s, contig(%s))",
                      all_ops[o].name, all_types[_i].name);
        ck_assert_int_eq(MPI_Reduce_local(in, io, 1, contig, op), want);
    }
    MPI_Type_free(&contig);
}
END_TEST

/* Expected results of the scalar ops on in = {6, 0}, inout = {3, 5} (logical: {1, 0}, {1, 1}). */
static long double
scalar_expect(MPI_Op op, int k)
{
    static const struct {
        MPI_Op op;
        long double r[2];
    } table[] = {
        {MPI_MAX, {6, 5}},  {MPI_MIN, {3, 0}},  {MPI_SUM, {9, 5}},  {MPI_PROD, {18, 0}},
        {MPI_LAND, {1, 0}}, {MPI_LOR, {1, 1}},  {MPI_LXOR, {0, 1}}, {MPI_BAND, {2, 0}},
        {MPI_BOR, {7, 5}},  {MPI_BXOR, {5, 5}},
    };
    for (size_t t = 0; t < sizeof(table) / sizeof(table[0]); t++)
        if (table[t].op == op)
            return table[t].r[k];
    ck_abort_msg("no expectation");
    return 0;
}

/* Every legal (op, type) gives the hand-computed value. */
START_TEST(test_op_every_legal_pair_value)
{
    MPI_Datatype dt = all_types[_i].dt;

    for (int o = 0; o < N_OPS; o++) {
        MPI_Op op = all_ops[o].op;
        _Alignas(64) unsigned char in[256], io[256];

        if (!expect_legal(op, dt))
            continue;
        memset(in, 0, sizeof(in));
        memset(io, 0, sizeof(io));
        if (is_pair(dt)) {
            /* (5,2)∘(5,1): tie → lower index 1; (1,7)∘(2,0); (4,3)∘(4,9): tie → 3. */
            long double v, i;
            const int want_max[3][2] = {{5, 1}, {2, 0}, {4, 3}};
            const int want_min[3][2] = {{5, 1}, {1, 7}, {4, 3}};
            const int(*want)[2] = op == MPI_MAXLOC ? want_max : want_min;
            put_pair(dt, in, 0, 5, 2);
            put_pair(dt, in, 1, 1, 7);
            put_pair(dt, in, 2, 4, 3);
            put_pair(dt, io, 0, 5, 1);
            put_pair(dt, io, 1, 2, 0);
            put_pair(dt, io, 2, 4, 9);
            ck_assert_int_eq(MPI_Reduce_local(in, io, 3, dt, op), MPI_SUCCESS);
            for (int k = 0; k < 3; k++) {
                get_pair(dt, io, k, &v, &i);
                ck_assert_msg(v == want[k][0] && i == want[k][1], "%s %s element %d: (%Lg, %Lg)",
                              all_ops[o].name, all_types[_i].name, k, v, i);
            }
        } else if (is_complex(dt)) {
            /* (1+2i)+(3+4i) = 4+6i, (1+2i)(3+4i) = -5+10i; (0.5-i)+(2+2i), (0.5-i)(2+2i) = 3-i. */
            long double re, im;
            const long double want_sum[2][2] = {{4, 6}, {2.5, 1}};
            const long double want_prod[2][2] = {{-5, 10}, {3, -1}};
            const long double(*want)[2] = op == MPI_SUM ? want_sum : want_prod;
            put_complex(dt, in, 0, 1, 2);
            put_complex(dt, in, 1, 0.5, -1);
            put_complex(dt, io, 0, 3, 4);
            put_complex(dt, io, 1, 2, 2);
            ck_assert_int_eq(MPI_Reduce_local(in, io, 2, dt, op), MPI_SUCCESS);
            for (int k = 0; k < 2; k++) {
                get_complex(dt, io, k, &re, &im);
                ck_assert_msg(re == want[k][0] && im == want[k][1], "%s %s element %d",
                              all_ops[o].name, all_types[_i].name, k);
            }
        } else {
            int logical = is_logical(dt);
            put(dt, in, 0, logical ? 1 : 6);
            put(dt, in, 1, 0);
            put(dt, io, 0, logical ? 1 : 3);
            put(dt, io, 1, logical ? 1 : 5);
            ck_assert_int_eq(MPI_Reduce_local(in, io, 2, dt, op), MPI_SUCCESS);
            for (int k = 0; k < 2; k++)
                ck_assert_msg(get(dt, io, k) == scalar_expect(op, k), "%s %s element %d: %Lg",
                              all_ops[o].name, all_types[_i].name, k, get(dt, io, k));
            /* The input operand is never written. */
            ck_assert(get(dt, in, 0) == (logical ? 1 : 6) && get(dt, in, 1) == 0);
        }
    }
}
END_TEST

START_TEST(test_op_markers_and_null_type)
{
    int a = 0, b = 0;

    ck_assert_int_eq(collsim_op_check(MPI_SUM, MPI_LB), MPI_ERR_TYPE);
    ck_assert_int_eq(collsim_op_check(MPI_SUM, MPI_UB), MPI_ERR_TYPE);
    ck_assert_int_eq(collsim_op_check(MPI_SUM, MPI_DATATYPE_NULL), MPI_ERR_TYPE);
    ck_assert_int_eq(collsim_op_check(MPI_OP_NULL, MPI_INT), MPI_ERR_OP);
    ck_assert_int_eq(MPI_Reduce_local(&a, &b, 1, MPI_LB, MPI_SUM), MPI_ERR_TYPE);
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* MAXLOC / MINLOC                                                                              */
/* ------------------------------------------------------------------------------------------ */

START_TEST(test_op_maxloc_minloc_ties_take_lower_index)
{
    /* Four ranks' (value, rank); folding in any order gives the first maximum's rank. */
    const struct p_double_int ranks[4] = {{3, 0}, {7, 1}, {7, 2}, {1, 3}};
    struct p_double_int acc;

    acc = ranks[3];
    for (int r = 2; r >= 0; r--)
        ck_assert_int_eq(MPI_Reduce_local(&ranks[r], &acc, 1, MPI_DOUBLE_INT, MPI_MAXLOC),
                         MPI_SUCCESS);
    ck_assert(acc.v == 7 && acc.i == 1);
    acc = ranks[0];
    for (int r = 1; r < 4; r++)
        MPI_Reduce_local(&ranks[r], &acc, 1, MPI_DOUBLE_INT, MPI_MAXLOC);
    ck_assert(acc.v == 7 && acc.i == 1);

    /* MINLOC with a tie at the minimum. */
    {
        const struct p_2int m[3] = {{4, 2}, {-1, 5}, {-1, 1}};
        struct p_2int x = m[0];
        MPI_Reduce_local(&m[1], &x, 1, MPI_2INT, MPI_MINLOC);
        MPI_Reduce_local(&m[2], &x, 1, MPI_2INT, MPI_MINLOC);
        ck_assert(x.v == -1 && x.i == 1);
    }
}
END_TEST

START_TEST(test_op_maxloc_on_derived_pairs)
{
    /* contiguous(2, MPI_DOUBLE_INT) has padding inside: reduced through packing. */
    MPI_Datatype c, r;
    struct p_double_int in[4] = {{1, 4}, {9, 4}, {2, 0}, {2, 1}};
    struct p_double_int io[4] = {{2, 5}, {9, 3}, {2, 8}, {0, 9}};

    MPI_Type_contiguous(2, MPI_DOUBLE_INT, &c);
    MPI_Type_commit(&c);
    ck_assert_int_eq(MPI_Reduce_local(in, io, 2, c, MPI_MAXLOC), MPI_SUCCESS);
    ck_assert(io[0].v == 2 && io[0].i == 5);
    ck_assert(io[1].v == 9 && io[1].i == 3);
    ck_assert(io[2].v == 2 && io[2].i == 0);
    ck_assert(io[3].v == 2 && io[3].i == 1);
    MPI_Type_free(&c);

    /* Every other MPI_SHORT_INT: resized to two pair extents, gaps untouched. */
    {
        struct p_short_int a[4] = {{5, 1}, {0, 0}, {6, 2}, {0, 0}};
        struct p_short_int b[4] = {{5, 0}, {-7, -7}, {7, 3}, {-7, -7}};
        MPI_Type_create_resized(MPI_SHORT_INT, 0, 2 * sizeof(struct p_short_int), &r);
        MPI_Type_commit(&r);
        ck_assert_int_eq(MPI_Reduce_local(a, b, 2, r, MPI_MINLOC), MPI_SUCCESS);
        ck_assert(b[0].v == 5 && b[0].i == 0);
        ck_assert(b[2].v == 6 && b[2].i == 2);
        ck_assert(b[1].v == -7 && b[1].i == -7 && b[3].v == -7 && b[3].i == -7);
        MPI_Type_free(&r);
    }
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* User ops                                                                                     */
/* ------------------------------------------------------------------------------------------ */

static int user_calls;
static int user_len;
static MPI_Datatype user_type;

/* inout = 10·in + inout: not commutative, so the argument order is visible. */
static void
shift_add(void *invec, void *inoutvec, int *len, MPI_Datatype *datatype)
{
    const int *in = invec;
    int *io = inoutvec;

    user_calls++;
    user_len = *len;
    user_type = *datatype;
    for (int k = 0; k < *len; k++)
        io[k] = 10 * in[k] + io[k];
}

/* 2×2 matrix product inout = in × inout on 4 doubles per item (row-major). */
static void
matmul2(void *invec, void *inoutvec, int *len, MPI_Datatype *datatype)
{
    const double *a = invec;
    double *b = inoutvec;

    (void)datatype;
    for (int k = 0; k < *len; k++, a += 4, b += 4) {
        double r[4] = {a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
                       a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3]};
        memcpy(b, r, sizeof(r));
    }
}

START_TEST(test_op_user_noncommutative_argument_order)
{
    MPI_Op op;
    int in[2] = {1, 2}, io[2] = {3, 4};

    ck_assert_int_eq(MPI_Op_create(shift_add, 0, &op), MPI_SUCCESS);
    user_calls = 0;
    ck_assert_int_eq(MPI_Reduce_local(in, io, 2, MPI_INT, op), MPI_SUCCESS);
    ck_assert_int_eq(user_calls, 1);
    ck_assert_int_eq(user_len, 2);
    ck_assert_ptr_eq(user_type, MPI_INT);
    ck_assert_int_eq(io[0], 13); /* in ∘ inout, not inout ∘ in (which would give 31) */
    ck_assert_int_eq(io[1], 24);
    ck_assert_int_eq(in[0], 1);
    ck_assert_int_eq(MPI_Op_free(&op), MPI_SUCCESS);

    /* Matrices: A·B ≠ B·A; the user function sees the derived type and the item count. */
    {
        MPI_Datatype mat;
        double a[4] = {1, 2, 0, 1}, b[4] = {1, 0, 3, 1};
        MPI_Type_contiguous(4, MPI_DOUBLE, &mat);
        MPI_Type_commit(&mat);
        MPI_Op_create(matmul2, 0, &op);
        ck_assert_int_eq(MPI_Reduce_local(a, b, 1, mat, op), MPI_SUCCESS);
        ck_assert(b[0] == 7 && b[1] == 2 && b[2] == 3 && b[3] == 1);
        MPI_Op_free(&op);
        MPI_Type_free(&mat);
    }
}
END_TEST

START_TEST(test_op_user_on_mixed_struct)
{
    /* A struct of different types takes user ops only. */
    MPI_Datatype s;
    MPI_Op op;
    const int lens[] = {1, 1};
    const MPI_Aint disps[] = {0, 8};
    const MPI_Datatype types[] = {MPI_INT, MPI_DOUBLE};
    int a[4] = {1, 0, 0, 0}, b[4] = {2, 0, 0, 0};
    char why[256];

    MPI_Type_create_struct(2, lens, disps, types, &s);
    MPI_Type_commit(&s);
    ck_assert_int_eq(collsim_op_check(MPI_SUM, s), MPI_ERR_OP);
    ck_assert_int_eq(MPI_Reduce_local(a, b, 1, s, MPI_SUM), MPI_ERR_OP);
    collsim_op_describe_error(MPI_SUM, s, why, sizeof(why));
    ck_assert_ptr_nonnull(strstr(why, "different"));
    MPI_Op_create(shift_add, 1, &op);
    user_calls = 0;
    ck_assert_int_eq(MPI_Reduce_local(a, b, 1, s, op), MPI_SUCCESS);
    ck_assert_int_eq(user_calls, 1);
    ck_assert_ptr_eq(user_type, s);
    ck_assert_int_eq(b[0], 12);
    MPI_Op_free(&op);
    MPI_Type_free(&s);
}
END_TEST

START_TEST(test_op_commutative_flag)
{
    MPI_Op op;
    int c = -1;

    for (int o = 0; o < 12; o++) {
        ck_assert_int_eq(MPI_Op_commutative(all_ops[o].op, &c), MPI_SUCCESS);
        ck_assert_int_eq(c, 1);
    }
    ck_assert_int_eq(MPI_Op_create(shift_add, 0, &op), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Op_commutative(op, &c), MPI_SUCCESS);
    ck_assert_int_eq(c, 0);
    MPI_Op_free(&op);
    ck_assert_int_eq(MPI_Op_create(shift_add, 5, &op), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Op_commutative(op, &c), MPI_SUCCESS);
    ck_assert_int_eq(c, 1);
    ck_assert_int_eq(MPI_Op_commutative(op, NULL), MPI_ERR_ARG);
    MPI_Op_free(&op);
    ck_assert_int_eq(MPI_Op_commutative(MPI_OP_NULL, &c), MPI_ERR_OP);
}
END_TEST

START_TEST(test_op_free)
{
    MPI_Op op, p;

    ck_assert_int_eq(MPI_Op_create(shift_add, 1, &op), MPI_SUCCESS);
    ck_assert_int_eq(collsim_op_check_handle(op), MPI_SUCCESS);
    ck_assert_str_eq(collsim_op_name(op), "user-defined op");
    ck_assert_int_eq(MPI_Op_free(&op), MPI_SUCCESS);
    ck_assert_ptr_eq(op, MPI_OP_NULL);
    ck_assert_int_eq(MPI_Op_free(&op), MPI_ERR_OP);

    for (int o = 0; o < N_OPS; o++) {
        p = all_ops[o].op;
        ck_assert_int_eq(MPI_Op_free(&p), MPI_ERR_OP);
        ck_assert_ptr_eq(p, all_ops[o].op);
        ck_assert_str_eq(collsim_op_name(p), all_ops[o].name);
    }
    ck_assert_int_eq(MPI_Op_free(NULL), MPI_ERR_ARG);
    ck_assert_int_eq(MPI_Op_create(NULL, 1, &op), MPI_ERR_ARG);
    ck_assert_int_eq(MPI_Op_create(shift_add, 1, NULL), MPI_ERR_ARG);
    ck_assert_str_eq(collsim_op_name(MPI_OP_NULL), "MPI_OP_NULL");
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* Layouts and arithmetic                                                                       */
/* ------------------------------------------------------------------------------------------ */

START_TEST(test_op_noncontiguous_homogeneous)
{
    /* vector(2, 1, 2, double): elements 0 and 2 of each item; the gaps stay as they are. */
    MPI_Datatype v;
    double in[6] = {1, 100, 2, 3, 100, 4}, io[6] = {10, -1, 20, 30, -1, 40};

    MPI_Type_vector(2, 1, 2, MPI_DOUBLE, &v);
    MPI_Type_commit(&v);
    ck_assert_ptr_eq(collsim_datatype_basic(v), MPI_DOUBLE);
    ck_assert_int_eq(MPI_Reduce_local(in, io, 2, v, MPI_SUM), MPI_SUCCESS);
    ck_assert(io[0] == 11 && io[1] == -1 && io[2] == 22);
    ck_assert(io[3] == 33 && io[4] == -1 && io[5] == 44);
    MPI_Type_free(&v);

    /* contiguous(2, MPI_DOUBLE) is two doubles per item, reduced in place. */
    MPI_Type_contiguous(2, MPI_DOUBLE, &v);
    MPI_Type_commit(&v);
    {
        double a[4] = {1, 2, 3, 4}, b[4] = {4, 3, 2, 1};
        ck_assert_int_eq(MPI_Reduce_local(a, b, 2, v, MPI_MAX), MPI_SUCCESS);
        ck_assert(b[0] == 4 && b[1] == 3 && b[2] == 3 && b[3] == 4);
    }
    MPI_Type_free(&v);
}
END_TEST

START_TEST(test_op_unaligned_elements)
{
    /* Doubles at odd addresses, through a predefined type and a packed struct. */
    _Alignas(16) unsigned char a[40], b[40];
    double x = 1.5, y = 2.25, r;
    MPI_Datatype s;
    const int lens[] = {1};
    const MPI_Aint disps[] = {1};
    const MPI_Datatype types[] = {MPI_DOUBLE};

    memset(a, 0, sizeof(a));
    memset(b, 0, sizeof(b));
    memcpy(a + 1, &x, 8);
    memcpy(b + 1, &y, 8);
    ck_assert_int_eq(MPI_Reduce_local(a + 1, b + 1, 1, MPI_DOUBLE, MPI_SUM), MPI_SUCCESS);
    memcpy(&r, b + 1, 8);
    ck_assert(r == 3.75);

    MPI_Type_create_struct(1, lens, disps, types, &s);
    MPI_Type_commit(&s);
    ck_assert_int_eq(MPI_Reduce_local(a, b, 1, s, MPI_PROD), MPI_SUCCESS);
    memcpy(&r, b + 1, 8);
    ck_assert(r == 1.5 * 3.75);
    ck_assert_int_eq(b[0], 0);
    MPI_Type_free(&s);
}
END_TEST

/* Long runs of packed elements (the vectorized kernels): every length up to a few vectors and
 * its remainder, at odd addresses, each element computed on its own, nothing written past n. */
START_TEST(test_op_packed_runs_every_length)
{
    enum { MAX_N = 37 };
    for (int n = 0; n <= MAX_N; n++)
        for (int shift = 0; shift < 2; shift++) {
            unsigned char in[(MAX_N + 1) * 8 + 1], io[(MAX_N + 1) * 8 + 1];
            memset(io, 0xa5, sizeof io);
            for (int k = 0; k <= n; k++) {
                double a = 1.0 / (k + 3), b = k * 0.1 - 1e-17;
                memcpy(in + shift + 8 * k, &a, 8);
                if (k < n)
                    memcpy(io + shift + 8 * k, &b, 8);
            }
            ck_assert_int_eq(MPI_Reduce_local(in + shift, io + shift, n, MPI_DOUBLE, MPI_SUM),
                             MPI_SUCCESS);
            for (int k = 0; k < n; k++) {
                volatile double a = 1.0 / (k + 3), b = k * 0.1 - 1e-17;
                double want = a + b, got;
                memcpy(&got, io + shift + 8 * k, 8);
                ck_assert_msg(got == want, "n=%d shift=%d element %d: %.17g != %.17g", n, shift,
                              k, got, want);
            }
            for (size_t k = (size_t)shift + 8 * (size_t)n; k < sizeof io; k++)
                ck_assert_msg(io[k] == 0xa5, "n=%d: byte %zu past the end written", n, k);

            int ia[MAX_N + 1], ib[MAX_N + 1];
            for (int k = 0; k <= n; k++) {
                ia[k] = (k * 7919) % 101 - 50;
                ib[k] = k < n ? (k * 104729) % 97 - 48 : 12345;
            }
            ck_assert_int_eq(MPI_Reduce_local(ia, ib, n, MPI_INT, MPI_MAX), MPI_SUCCESS);
            for (int k = 0; k < n; k++) {
                int a = (k * 7919) % 101 - 50, b = (k * 104729) % 97 - 48;
                ck_assert_int_eq(ib[k], a > b ? a : b);
            }
            ck_assert_int_eq(ib[n], 12345);
        }
}
END_TEST

START_TEST(test_op_integer_wraparound)
{
    int i_in = 1, i_io = INT_MAX;
    unsigned short us_in = 65535, us_io = 65535;
    long long ll_in = -1, ll_io = LLONG_MIN;
    signed char sc_in = 100, sc_io = 100;

    ck_assert_int_eq(MPI_Reduce_local(&i_in, &i_io, 1, MPI_INT, MPI_SUM), MPI_SUCCESS);
    ck_assert_int_eq(i_io, INT_MIN);
    ck_assert_int_eq(MPI_Reduce_local(&us_in, &us_io, 1, MPI_UNSIGNED_SHORT, MPI_PROD),
                     MPI_SUCCESS);
    ck_assert_uint_eq(us_io, 1); /* 65535² mod 65536 */
    ck_assert_int_eq(MPI_Reduce_local(&ll_in, &ll_io, 1, MPI_LONG_LONG, MPI_PROD), MPI_SUCCESS);
    ck_assert(ll_io == LLONG_MIN);
    ck_assert_int_eq(MPI_Reduce_local(&sc_in, &sc_io, 1, MPI_SIGNED_CHAR, MPI_SUM), MPI_SUCCESS);
    ck_assert_int_eq(sc_io, -56);
}
END_TEST

START_TEST(test_op_float_precision_not_widened)
{
    volatile float fa = 0.1f, fb = 0.2f;
    float a = 0.1f, b = 0.2f;
    volatile double da = 1e16, db = 1.0;
    double c = 1e16, d = 1.0;
    long double la = 1e16L, lb = 1.0L;

    ck_assert_int_eq(MPI_Reduce_local(&a, &b, 1, MPI_FLOAT, MPI_SUM), MPI_SUCCESS);
    ck_assert(b == (float)(fa + fb));
    ck_assert_int_eq(MPI_Reduce_local(&c, &d, 1, MPI_DOUBLE, MPI_SUM), MPI_SUCCESS);
    ck_assert(d == da + db); /* 1e16 + 1 rounds to 1e16 in double */
    ck_assert_int_eq(MPI_Reduce_local(&la, &lb, 1, MPI_LONG_DOUBLE, MPI_SUM), MPI_SUCCESS);
    ck_assert(lb == 1e16L + 1.0L);
}
END_TEST

START_TEST(test_op_bool_and_logical_values)
{
    /* Any non-zero LOGICAL is true; results are 0 or 1. */
    int in[3] = {7, 0, -2}, io[3] = {3, 3, 0};
    _Bool bin[2] = {1, 0}, bio[2] = {0, 0};

    ck_assert_int_eq(MPI_Reduce_local(in, io, 3, MPI_LOGICAL, MPI_LAND), MPI_SUCCESS);
    ck_assert(io[0] == 1 && io[1] == 0 && io[2] == 0);
    ck_assert_int_eq(MPI_Reduce_local(bin, bio, 2, MPI_C_BOOL, MPI_LXOR), MPI_SUCCESS);
    ck_assert(bio[0] == 1 && bio[1] == 0);
}
END_TEST

START_TEST(test_op_internal_apply_replace_and_no_op)
{
    int in[2] = {1, 2}, io[2] = {3, 4};
    MPI_Datatype v;
    int vin[3] = {7, 8, 9}, vio[3] = {0, 0, 0};

    ck_assert_int_eq(collsim_op_check(MPI_REPLACE, MPI_INT), MPI_ERR_OP);
    ck_assert_int_eq(collsim_op_apply(MPI_NO_OP, in, io, 2, MPI_INT), MPI_SUCCESS);
    ck_assert(io[0] == 3 && io[1] == 4);
    ck_assert_int_eq(collsim_op_apply(MPI_REPLACE, in, io, 2, MPI_INT), MPI_SUCCESS);
    ck_assert(io[0] == 1 && io[1] == 2);
    MPI_Type_vector(2, 1, 2, MPI_INT, &v);
    MPI_Type_commit(&v);
    ck_assert_int_eq(collsim_op_apply(MPI_REPLACE, vin, vio, 1, v), MPI_SUCCESS);
    ck_assert(vio[0] == 7 && vio[1] == 0 && vio[2] == 9);
    MPI_Type_free(&v);
}
END_TEST

START_TEST(test_op_describe_error)
{
    char why[256];

    collsim_op_describe_error(MPI_LAND, MPI_DOUBLE, why, sizeof(why));
    ck_assert_ptr_nonnull(strstr(why, "MPI_LAND"));
    ck_assert_ptr_nonnull(strstr(why, "MPI_DOUBLE"));
    collsim_op_describe_error(MPI_SUM, MPI_INT, why, sizeof(why));
    ck_assert_str_eq(why, "");
    collsim_op_describe_error(MPI_REPLACE, MPI_INT, why, sizeof(why));
    ck_assert_ptr_nonnull(strstr(why, "one-sided"));
    collsim_op_describe_error(MPI_OP_NULL, MPI_INT, why, sizeof(why));
    ck_assert_ptr_nonnull(strstr(why, "MPI_OP_NULL"));
    collsim_op_describe_error(MPI_SUM, MPI_DATATYPE_NULL, why, sizeof(why));
    ck_assert_ptr_nonnull(strstr(why, "MPI_DATATYPE_NULL"));
}
END_TEST

START_TEST(test_op_work_for_cost_model)
{
    struct collsim_op_work w;
    MPI_Datatype c, s;
    MPI_Op op;
    const int lens[] = {1, 1};
    const MPI_Aint disps[] = {0, 8};
    const MPI_Datatype types[] = {MPI_INT, MPI_DOUBLE};

    MPI_Type_contiguous(2, MPI_DOUBLE, &c);
    collsim_op_work(MPI_SUM, c, 3, &w);
    ck_assert_int_eq(w.op, COLLSIM_OP_SUM);
    ck_assert_int_eq(w.elem, COLLSIM_ELEM_FLOATING);
    ck_assert_uint_eq(w.elements, 6);
    collsim_op_work(MPI_MAXLOC, MPI_DOUBLE_INT, 4, &w);
    ck_assert_int_eq(w.elem, COLLSIM_ELEM_PAIR);
    ck_assert_uint_eq(w.elements, 4);
    collsim_op_work(MPI_PROD, MPI_C_DOUBLE_COMPLEX, 5, &w);
    ck_assert_int_eq(w.elem, COLLSIM_ELEM_COMPLEX);
    ck_assert_uint_eq(w.elements, 5);
    collsim_op_work(MPI_BXOR, MPI_BYTE, 7, &w);
    ck_assert_int_eq(w.elem, COLLSIM_ELEM_BYTE);
    collsim_op_work(MPI_LOR, MPI_C_BOOL, 7, &w);
    ck_assert_int_eq(w.elem, COLLSIM_ELEM_LOGICAL);
    collsim_op_work(MPI_MAX, MPI_AINT, 7, &w);
    ck_assert_int_eq(w.elem, COLLSIM_ELEM_INTEGER);
    MPI_Type_create_struct(2, lens, disps, types, &s);
    MPI_Op_create(shift_add, 0, &op);
    collsim_op_work(op, s, 3, &w);
    ck_assert_int_eq(w.op, COLLSIM_OP_USER);
    ck_assert_int_eq(w.elem, COLLSIM_ELEM_OTHER);
    ck_assert_uint_eq(w.elements, 6);
    MPI_Op_free(&op);
    MPI_Type_free(&s);
    MPI_Type_free(&c);
}
END_TEST

/* ------------------------------------------------------------------------------------------ */
/* MPI_Reduce_local: argument errors and the compute charge                                     */
/* ------------------------------------------------------------------------------------------ */

static int charges;
static MPI_Op charged_op;
static MPI_Datatype charged_dt;
static int charged_count;

static int
hook_rank(void)
{
    return 0;
}

static int
hook_size(void)
{
    return 1;
}

static void
hook_charge(MPI_Op op, MPI_Datatype dt, int count)
{
    charges++;
    charged_op = op;
    charged_dt = dt;
    charged_count = count;
}

static void __attribute__((noreturn))
hook_abort(int code)
{
    exit(code);
}

/* The default runtime hooks with this test's replacements. */
static const struct collsim_runtime_hooks *
counting_hooks(void)
{
    static struct collsim_runtime_hooks hooks;
    hooks = *collsim_runtime_defaults();
    hooks.world_rank = hook_rank;
    hooks.world_size = hook_size;
    hooks.charge_op = hook_charge;
    hooks.abort = hook_abort;
    return &hooks;
}

static int acting_for_operation;

static int
hook_acts_for_operation(void)
{
    return acting_for_operation;
}

/* An op the program frees while an operation it started holds it (MPI_Ireduce, then
 * MPI_Op_free, then MPI_Wait): the program's stale handle is refused, the operation's code
 * goes on using the op until the last reference goes. */
START_TEST(test_op_freed_while_held)
{
    static struct collsim_runtime_hooks hooks;
    hooks = *counting_hooks();
    hooks.acts_for_operation = hook_acts_for_operation;
    collsim_runtime_install(&hooks);
    MPI_Op op, stale;
    int in[2] = {1, 2}, inout[2] = {10, 20};

    ck_assert_int_eq(MPI_Op_create(shift_add, 0, &op), MPI_SUCCESS);
    MPI_Op held = collsim_op_ref(op);
    stale = op;
    ck_assert_int_eq(MPI_Op_free(&op), MPI_SUCCESS);
    ck_assert_ptr_eq(op, MPI_OP_NULL);
    acting_for_operation = 0; /* the program */
    ck_assert_int_eq(collsim_op_check_handle(stale), MPI_ERR_OP);
    ck_assert_int_eq(MPI_Reduce_local(in, inout, 2, MPI_INT, stale), MPI_ERR_OP);
    ck_assert_int_eq(MPI_Op_free(&stale), MPI_ERR_OP);
    acting_for_operation = 1; /* the operation that holds it */
    ck_assert_int_eq(collsim_op_check_handle(held), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Reduce_local(in, inout, 2, MPI_INT, held), MPI_SUCCESS);
    ck_assert_int_eq(inout[0], 10 * 1 + 10);
    ck_assert_int_eq(inout[1], 10 * 2 + 20);
    collsim_op_unref(held); /* the operation's end: the op is gone for everyone */
    ck_assert_int_eq(collsim_op_check_handle(held), MPI_ERR_OP);
    acting_for_operation = 0;
    collsim_runtime_install(NULL);
}
END_TEST

START_TEST(test_op_reduce_local_charges_after_validation)
{
    double a[3] = {1, 2, 3}, b[3] = {1, 1, 1};
    MPI_Datatype u;

    collsim_runtime_install(counting_hooks());
    charges = 0;
    ck_assert_int_eq(MPI_Reduce_local(a, b, 3, MPI_DOUBLE, MPI_SUM), MPI_SUCCESS);
    ck_assert_int_eq(charges, 1);
    ck_assert_ptr_eq(charged_op, MPI_SUM);
    ck_assert_ptr_eq(charged_dt, MPI_DOUBLE);
    ck_assert_int_eq(charged_count, 3);
    ck_assert(b[2] == 4);

    /* No charge when the call is refused. */
    MPI_Type_contiguous(2, MPI_DOUBLE, &u); /* not committed */
    ck_assert_int_eq(MPI_Reduce_local(MPI_IN_PLACE, b, 3, MPI_DOUBLE, MPI_SUM), MPI_ERR_BUFFER);
    ck_assert_int_eq(MPI_Reduce_local(a, MPI_IN_PLACE, 3, MPI_DOUBLE, MPI_SUM), MPI_ERR_BUFFER);
    ck_assert_int_eq(MPI_Reduce_local(a, b, -1, MPI_DOUBLE, MPI_SUM), MPI_ERR_COUNT);
    ck_assert_int_eq(MPI_Reduce_local(a, b, 3, MPI_DATATYPE_NULL, MPI_SUM), MPI_ERR_TYPE);
    ck_assert_int_eq(MPI_Reduce_local(a, b, 1, u, MPI_SUM), MPI_ERR_TYPE);
    ck_assert_int_eq(MPI_Reduce_local(a, b, 3, MPI_DOUBLE, MPI_OP_NULL), MPI_ERR_OP);
    ck_assert_int_eq(MPI_Reduce_local(a, b, 3, MPI_DOUBLE, MPI_BAND), MPI_ERR_OP);
    ck_assert_int_eq(MPI_Reduce_local(a, b, 3, MPI_DOUBLE, MPI_REPLACE), MPI_ERR_OP);
    ck_assert_int_eq(MPI_Reduce_local(NULL, b, 3, MPI_DOUBLE, MPI_SUM), MPI_ERR_BUFFER);
    ck_assert_int_eq(MPI_Reduce_local(a, NULL, 3, MPI_DOUBLE, MPI_SUM), MPI_ERR_BUFFER);
    ck_assert_int_eq(charges, 1);
    MPI_Type_free(&u);

    /* count 0 is a valid, empty reduction. */
    ck_assert_int_eq(MPI_Reduce_local(NULL, NULL, 0, MPI_DOUBLE, MPI_SUM), MPI_SUCCESS);
    ck_assert_int_eq(charges, 2);
    ck_assert_int_eq(charged_count, 0);
    collsim_runtime_install(NULL);
}
END_TEST

static Suite *
op_suite(void)
{
    Suite *s = suite_create("op");
    TCase *cross = tcase_create("cross_product");
    TCase *tc = tcase_create("core");

    tcase_add_checked_fixture(cross, setup, NULL);
    tcase_add_loop_test(cross, test_op_cross_product_legality, 0, N_TYPES);
    tcase_add_loop_test(cross, test_op_every_legal_pair_value, 0, N_TYPES);
    suite_add_tcase(s, cross);

    tcase_add_checked_fixture(tc, setup, NULL);
    tcase_add_test(tc, test_op_markers_and_null_type);
    tcase_add_test(tc, test_op_maxloc_minloc_ties_take_lower_index);
    tcase_add_test(tc, test_op_maxloc_on_derived_pairs);
    tcase_add_test(tc, test_op_user_noncommutative_argument_order);
    tcase_add_test(tc, test_op_user_on_mixed_struct);
    tcase_add_test(tc, test_op_commutative_flag);
    tcase_add_test(tc, test_op_free);
    tcase_add_test(tc, test_op_noncontiguous_homogeneous);
    tcase_add_test(tc, test_op_unaligned_elements);
    tcase_add_test(tc, test_op_packed_runs_every_length);
    tcase_add_test(tc, test_op_integer_wraparound);
    tcase_add_test(tc, test_op_float_precision_not_widened);
    tcase_add_test(tc, test_op_bool_and_logical_values);
    tcase_add_test(tc, test_op_internal_apply_replace_and_no_op);
    tcase_add_test(tc, test_op_describe_error);
    tcase_add_test(tc, test_op_work_for_cost_model);
    tcase_add_test(tc, test_op_reduce_local_charges_after_validation);
    tcase_add_test(tc, test_op_freed_while_held);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(op_suite());
    int failed;

    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
