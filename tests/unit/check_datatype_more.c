/*
 * check_datatype_more.c — unit tests of the datatype functions of MPI 3.1 that
 * check_datatype.c does not cover: subarray and darray layouts against hand-computed type
 * maps, hindexed_block, envelopes and contents of every combiner, names, the large-count
 * queries, address arithmetic, MPI_Type_match_size, and the "external32" representation
 * (big-endian bytes written out by hand from the standard's sizes).
 *
 * Errors are returned (MPI_ERRORS_RETURN on MPI_COMM_WORLD), never fatal.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "mpi.h"

static int iota[64];

static void
setup(void)
{
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    for (int i = 0; i < 64; i++)
        iota[i] = i;
}

/* Size, lb, extent, true lb and true extent of a type. */
static void
assert_bounds(MPI_Datatype dt, int size, MPI_Aint lb, MPI_Aint extent, MPI_Aint true_lb,
              MPI_Aint true_extent)
{
    int s;
    MPI_Aint l, e;

    ck_assert_int_eq(MPI_Type_size(dt, &s), MPI_SUCCESS);
    ck_assert_int_eq(s, size);
    ck_assert_int_eq(MPI_Type_get_extent(dt, &l, &e), MPI_SUCCESS);
    ck_assert_int_eq(l, lb);
    ck_assert_int_eq(e, extent);
    ck_assert_int_eq(MPI_Type_get_true_extent(dt, &l, &e), MPI_SUCCESS);
    ck_assert_int_eq(l, true_lb);
    ck_assert_int_eq(e, true_extent);
}

/* Pack one item of dt (ints) from iota and compare with the n expected values. */
static void
assert_packs(MPI_Datatype dt, const int *expected, int n)
{
    int out[64], pos = 0, size;

    ck_assert_int_eq(MPI_Type_commit(&dt), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Pack_size(1, dt, MPI_COMM_WORLD, &size), MPI_SUCCESS);
    ck_assert_int_eq(size, n * (int)sizeof(int));
    ck_assert_int_eq(MPI_Pack(iota, 1, dt, out, sizeof(out), &pos, MPI_COMM_WORLD),
                     MPI_SUCCESS);
    ck_assert_int_eq(pos, n * (int)sizeof(int));
    for (int i = 0; i < n; i++)
        ck_assert_int_eq(out[i], expected[i]);
}

START_TEST(test_subarray_c_order)
{
    /* int a[4][6], the 2x3 block at (1,2): a[1][2..4], a[2][2..4] */
    int sizes[] = {4, 6}, subsizes[] = {2, 3}, starts[] = {1, 2};
    int expected[] = {8, 9, 10, 14, 15, 16};
    MPI_Datatype t;

    ck_assert_int_eq(MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_C, MPI_INT,
                                              &t),
                     MPI_SUCCESS);
    /* true lb: element 1*6+2 = 8 (32 bytes); true ub: element 2*6+4 = 16, ends at 68 */
    assert_bounds(t, 24, 0, 96, 32, 36);
    assert_packs(t, expected, 6);
    MPI_Type_free(&t);
}
END_TEST

START_TEST(test_subarray_fortran_order)
{
    /* column-major 4x6: element (i,j) at i + 4j; rows 1-2, columns 2-4, first index fastest */
    int sizes[] = {4, 6}, subsizes[] = {2, 3}, starts[] = {1, 2};
    int expected[] = {9, 10, 13, 14, 17, 18};
    MPI_Datatype t;

    ck_assert_int_eq(MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_FORTRAN,
                                              MPI_INT, &t),
                     MPI_SUCCESS);
    assert_bounds(t, 24, 0, 96, 36, 40);
    assert_packs(t, expected, 6);
    MPI_Type_free(&t);
}
END_TEST

START_TEST(test_darray_block_1d)
{
    /* 10 elements on 3 processes, default block of ceil(10/3) = 4: rank 2 holds 8, 9 */
    int gsizes[] = {10}, distribs[] = {MPI_DISTRIBUTE_BLOCK}, dargs[] = {MPI_DISTRIBUTE_DFLT_DARG};
    int psizes[] = {3};
    int r0[] = {0, 1, 2, 3}, r2[] = {8, 9};
    MPI_Datatype t;

    ck_assert_int_eq(MPI_Type_create_darray(3, 0, 1, gsizes, distribs, dargs, psizes,
                                            MPI_ORDER_C, MPI_INT, &t),
                     MPI_SUCCESS);
    assert_bounds(t, 16, 0, 40, 0, 16);
    assert_packs(t, r0, 4);
    MPI_Type_free(&t);
    ck_assert_int_eq(MPI_Type_create_darray(3, 2, 1, gsizes, distribs, dargs, psizes,
                                            MPI_ORDER_C, MPI_INT, &t),
                     MPI_SUCCESS);
    assert_bounds(t, 8, 0, 40, 32, 8);
    assert_packs(t, r2, 2);
    MPI_Type_free(&t);
}
END_TEST

START_TEST(test_darray_cyclic_1d)
{
    /* cyclic(2) of 10 on 3: rank 1 has blocks 1 and 4: [2,3] and [8,9] */
    int gsizes[] = {10}, distribs[] = {MPI_DISTRIBUTE_CYCLIC}, dargs[] = {2}, psizes[] = {3};
    int r1[] = {2, 3, 8, 9};
    /* cyclic(1) (default) of 10 on 3: rank 0 has 0, 3, 6, 9 */
    int dflt[] = {MPI_DISTRIBUTE_DFLT_DARG}, r0[] = {0, 3, 6, 9};
    MPI_Datatype t;

    ck_assert_int_eq(MPI_Type_create_darray(3, 1, 1, gsizes, distribs, dargs, psizes,
                                            MPI_ORDER_C, MPI_INT, &t),
                     MPI_SUCCESS);
    assert_bounds(t, 16, 0, 40, 8, 32);
    assert_packs(t, r1, 4);
    MPI_Type_free(&t);
    ck_assert_int_eq(MPI_Type_create_darray(3, 0, 1, gsizes, distribs, dflt, psizes,
                                            MPI_ORDER_C, MPI_INT, &t),
                     MPI_SUCCESS);
    assert_packs(t, r0, 4);
    MPI_Type_free(&t);
}
END_TEST

START_TEST(test_darray_block_2d)
{
    /* 4x4 on a 2x2 grid (row-major ranks): rank 1 = (0,1), rank 2 = (1,0) */
    int gsizes[] = {4, 4}, psizes[] = {2, 2};
    int distribs[] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_BLOCK};
    int dargs[] = {MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG};
    int c1[] = {2, 3, 6, 7}, c2[] = {8, 9, 12, 13};
    /* Fortran order, rank 1 = (0,1): (0,2), (1,2), (0,3), (1,3) at i + 4j */
    int f1[] = {8, 9, 12, 13};
    MPI_Datatype t;

    ck_assert_int_eq(MPI_Type_create_darray(4, 1, 2, gsizes, distribs, dargs, psizes,
                                            MPI_ORDER_C, MPI_INT, &t),
                     MPI_SUCCESS);
    assert_bounds(t, 16, 0, 64, 8, 24);
    assert_packs(t, c1, 4);
    MPI_Type_free(&t);
    ck_assert_int_eq(MPI_Type_create_darray(4, 2, 2, gsizes, distribs, dargs, psizes,
                                            MPI_ORDER_C, MPI_INT, &t),
                     MPI_SUCCESS);
    assert_packs(t, c2, 4);
    MPI_Type_free(&t);
    ck_assert_int_eq(MPI_Type_create_darray(4, 1, 2, gsizes, distribs, dargs, psizes,
                                            MPI_ORDER_FORTRAN, MPI_INT, &t),
                     MPI_SUCCESS);
    assert_packs(t, f1, 4);
    MPI_Type_free(&t);
}
END_TEST

START_TEST(test_darray_cyclic_and_none)
{
    /* 3x4, rows cyclic on 2 processes, columns not distributed: rank 1 holds row 1 */
    int gsizes[] = {3, 4}, psizes[] = {2, 1};
    int distribs[] = {MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_NONE};
    int dargs[] = {MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG};
    int r1[] = {4, 5, 6, 7}, r0[] = {0, 1, 2, 3, 8, 9, 10, 11};
    MPI_Datatype t;

    ck_assert_int_eq(MPI_Type_create_darray(2, 1, 2, gsizes, distribs, dargs, psizes,
                                            MPI_ORDER_C, MPI_INT, &t),
                     MPI_SUCCESS);
    assert_packs(t, r1, 4);
    MPI_Type_free(&t);
    ck_assert_int_eq(MPI_Type_create_darray(2, 0, 2, gsizes, distribs, dargs, psizes,
                                            MPI_ORDER_C, MPI_INT, &t),
                     MPI_SUCCESS);
    assert_bounds(t, 32, 0, 48, 0, 48);
    assert_packs(t, r0, 8);
    MPI_Type_free(&t);
}
END_TEST

START_TEST(test_hindexed_block)
{
    /* blocks of 2 ints at bytes 0, 16, 40: ints 0,1 / 4,5 / 10,11 */
    MPI_Aint disps[] = {0, 16, 40};
    int expected[] = {0, 1, 4, 5, 10, 11};
    MPI_Datatype t;

    ck_assert_int_eq(MPI_Type_create_hindexed_block(3, 2, disps, MPI_INT, &t), MPI_SUCCESS);
    assert_bounds(t, 24, 0, 48, 0, 48);
    assert_packs(t, expected, 6);
    MPI_Type_free(&t);
}
END_TEST

/* Envelope of dt: the three counts and the combiner. */
static void
assert_envelope(MPI_Datatype dt, int ni, int na, int nd, int combiner)
{
    int i, a, d, c;

    ck_assert_int_eq(MPI_Type_get_envelope(dt, &i, &a, &d, &c), MPI_SUCCESS);
    ck_assert_int_eq(i, ni);
    ck_assert_int_eq(a, na);
    ck_assert_int_eq(d, nd);
    ck_assert_int_eq(c, combiner);
}

START_TEST(test_envelope_and_contents)
{
    int ints[32];
    MPI_Aint aints[8];
    MPI_Datatype types[4], t, v, s, r;

    assert_envelope(MPI_INT, 0, 0, 0, MPI_COMBINER_NAMED);
    ck_assert_int_eq(MPI_Type_get_contents(MPI_INT, 0, 0, 0, ints, aints, types), MPI_ERR_TYPE);

    MPI_Type_contiguous(5, MPI_DOUBLE, &t);
    assert_envelope(t, 1, 0, 1, MPI_COMBINER_CONTIGUOUS);
    MPI_Type_free(&t);

    MPI_Type_vector(3, 2, 5, MPI_INT, &v);
    assert_envelope(v, 3, 0, 1, MPI_COMBINER_VECTOR);
    ck_assert_int_eq(MPI_Type_get_contents(v, 3, 0, 1, ints, aints, types), MPI_SUCCESS);
    ck_assert_int_eq(ints[0], 3);
    ck_assert_int_eq(ints[1], 2);
    ck_assert_int_eq(ints[2], 5);
    ck_assert_ptr_eq(types[0], MPI_INT);
    ck_assert_int_eq(MPI_Type_get_contents(v, 2, 0, 1, ints, aints, types), MPI_ERR_ARG);

    MPI_Type_create_hvector(2, 1, 24, MPI_INT, &t);
    assert_envelope(t, 2, 1, 1, MPI_COMBINER_HVECTOR);
    MPI_Type_get_contents(t, 2, 1, 1, ints, aints, types);
    ck_assert_int_eq(aints[0], 24);
    MPI_Type_free(&t);

    int bl[] = {1, 2}, di[] = {0, 4};
    MPI_Aint ad[] = {0, 16};
    MPI_Type_indexed(2, bl, di, MPI_INT, &t);
    assert_envelope(t, 5, 0, 1, MPI_COMBINER_INDEXED);
    MPI_Type_get_contents(t, 5, 0, 1, ints, aints, types);
    ck_assert_int_eq(ints[0], 2);
    ck_assert_int_eq(ints[2], 2);
    ck_assert_int_eq(ints[4], 4);
    MPI_Type_free(&t);
    MPI_Type_create_hindexed(2, bl, ad, MPI_INT, &t);
    assert_envelope(t, 3, 2, 1, MPI_COMBINER_HINDEXED);
    MPI_Type_free(&t);
    MPI_Type_create_indexed_block(2, 3, di, MPI_INT, &t);
    assert_envelope(t, 4, 0, 1, MPI_COMBINER_INDEXED_BLOCK);
    MPI_Type_free(&t);
    MPI_Type_create_hindexed_block(2, 3, ad, MPI_INT, &t);
    assert_envelope(t, 2, 2, 1, MPI_COMBINER_HINDEXED_BLOCK);
    MPI_Type_get_contents(t, 2, 2, 1, ints, aints, types);
    ck_assert_int_eq(ints[1], 3);
    ck_assert_int_eq(aints[1], 16);
    MPI_Type_free(&t);

    /* a struct holding a derived type: the contents give a new handle, freed by the caller */
    MPI_Datatype st[] = {MPI_CHAR, v};
    MPI_Type_create_struct(2, bl, ad, st, &s);
    assert_envelope(s, 3, 2, 2, MPI_COMBINER_STRUCT);
    MPI_Type_free(&v);
    ck_assert_int_eq(MPI_Type_get_contents(s, 3, 2, 2, ints, aints, types), MPI_SUCCESS);
    ck_assert_ptr_eq(types[0], MPI_CHAR);
    ck_assert_ptr_ne(types[1], MPI_DATATYPE_NULL);
    assert_envelope(types[1], 3, 0, 1, MPI_COMBINER_VECTOR);
    int size;
    MPI_Type_size(types[1], &size);
    ck_assert_int_eq(size, 6 * (int)sizeof(int));
    ck_assert_int_eq(MPI_Type_free(&types[1]), MPI_SUCCESS);
    MPI_Type_free(&s);

    int sizes[] = {4, 6}, subs[] = {2, 3}, starts[] = {1, 2};
    MPI_Type_create_subarray(2, sizes, subs, starts, MPI_ORDER_FORTRAN, MPI_INT, &t);
    assert_envelope(t, 8, 0, 1, MPI_COMBINER_SUBARRAY);
    MPI_Type_get_contents(t, 8, 0, 1, ints, aints, types);
    int sub_ints[] = {2, 4, 6, 2, 3, 1, 2, MPI_ORDER_FORTRAN};
    for (int i = 0; i < 8; i++)
        ck_assert_int_eq(ints[i], sub_ints[i]);
    MPI_Type_free(&t);

    int g[] = {8}, d[] = {MPI_DISTRIBUTE_BLOCK}, a[] = {MPI_DISTRIBUTE_DFLT_DARG}, p[] = {2};
    MPI_Type_create_darray(2, 1, 1, g, d, a, p, MPI_ORDER_C, MPI_INT, &t);
    assert_envelope(t, 8, 0, 1, MPI_COMBINER_DARRAY);
    MPI_Type_get_contents(t, 8, 0, 1, ints, aints, types);
    int dar_ints[] = {2, 1, 1, 8, MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_DFLT_DARG, 2, MPI_ORDER_C};
    for (int i = 0; i < 8; i++)
        ck_assert_int_eq(ints[i], dar_ints[i]);
    MPI_Type_free(&t);

    MPI_Type_create_resized(MPI_INT, -4, 16, &r);
    assert_envelope(r, 0, 2, 1, MPI_COMBINER_RESIZED);
    MPI_Type_get_contents(r, 0, 2, 1, ints, aints, types);
    ck_assert_int_eq(aints[0], -4);
    ck_assert_int_eq(aints[1], 16);
    MPI_Type_dup(r, &t);
    assert_envelope(t, 0, 0, 1, MPI_COMBINER_DUP);
    MPI_Type_get_contents(t, 0, 0, 1, ints, aints, types);
    assert_envelope(types[0], 0, 2, 1, MPI_COMBINER_RESIZED);
    MPI_Type_free(&types[0]);
    MPI_Type_free(&t);
    MPI_Type_free(&r);
}
END_TEST

START_TEST(test_names)
{
    char name[MPI_MAX_OBJECT_NAME];
    int len;
    MPI_Datatype t;

    ck_assert_int_eq(MPI_Type_get_name(MPI_INT, name, &len), MPI_SUCCESS);
    ck_assert_str_eq(name, "MPI_INT");
    ck_assert_int_eq(len, 7);
    MPI_Type_get_name(MPI_DOUBLE_INT, name, &len);
    ck_assert_str_eq(name, "MPI_DOUBLE_INT");
    MPI_Type_contiguous(2, MPI_INT, &t);
    MPI_Type_get_name(t, name, &len);
    ck_assert_str_eq(name, "");
    ck_assert_int_eq(len, 0);
    ck_assert_int_eq(MPI_Type_set_name(t, "pair"), MPI_SUCCESS);
    MPI_Type_get_name(t, name, &len);
    ck_assert_str_eq(name, "pair");
    ck_assert_int_eq(len, 4);
    ck_assert_int_eq(MPI_Type_set_name(t, NULL), MPI_ERR_ARG);
    ck_assert_int_eq(MPI_Type_get_name(MPI_DATATYPE_NULL, name, &len), MPI_ERR_TYPE);
    MPI_Type_free(&t);
}
END_TEST

START_TEST(test_large_count_queries_and_addresses)
{
    MPI_Count size, lb, extent;
    MPI_Datatype t;
    int sizes[] = {4, 6}, subs[] = {2, 3}, starts[] = {1, 2};
    char buf[16];
    MPI_Aint a0, a1;

    MPI_Type_create_subarray(2, sizes, subs, starts, MPI_ORDER_C, MPI_INT, &t);
    ck_assert_int_eq(MPI_Type_size_x(t, &size), MPI_SUCCESS);
    ck_assert_int_eq(size, 24);
    ck_assert_int_eq(MPI_Type_get_extent_x(t, &lb, &extent), MPI_SUCCESS);
    ck_assert_int_eq(lb, 0);
    ck_assert_int_eq(extent, 96);
    ck_assert_int_eq(MPI_Type_get_true_extent_x(t, &lb, &extent), MPI_SUCCESS);
    ck_assert_int_eq(lb, 32);
    ck_assert_int_eq(extent, 36);
    ck_assert_int_eq(MPI_Type_size_x(t, NULL), MPI_ERR_ARG);
    MPI_Type_free(&t);

    MPI_Get_address(&buf[0], &a0);
    MPI_Get_address(&buf[10], &a1);
    ck_assert_int_eq(MPI_Aint_diff(a1, a0), 10);
    ck_assert_int_eq(MPI_Aint_add(a0, 10), a1);
    ck_assert_int_eq(MPI_Aint_add(MPI_Aint_diff(a0, a1), 10), 0);
}
END_TEST

/* The Fortran type of each size, the default kinds' own names where they have it: what Open
 * MPI 4.1.4 answers (measured: INTEGER1, INTEGER2, INTEGER, INTEGER8; REAL, REAL8, REAL16;
 * COMPLEX, COMPLEX16, COMPLEX32). */
START_TEST(test_match_size)
{
    MPI_Datatype t;

    ck_assert_int_eq(MPI_Type_match_size(MPI_TYPECLASS_REAL, 8, &t), MPI_SUCCESS);
    ck_assert_ptr_eq(t, MPI_REAL8);
    ck_assert_int_eq(MPI_Type_match_size(MPI_TYPECLASS_REAL, 4, &t), MPI_SUCCESS);
    ck_assert_ptr_eq(t, MPI_REAL);
    ck_assert_int_eq(MPI_Type_match_size(MPI_TYPECLASS_REAL, 16, &t), MPI_SUCCESS);
    ck_assert_ptr_eq(t, MPI_REAL16);
    ck_assert_int_eq(MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 4, &t), MPI_SUCCESS);
    ck_assert_ptr_eq(t, MPI_INTEGER);
    ck_assert_int_eq(MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 1, &t), MPI_SUCCESS);
    ck_assert_ptr_eq(t, MPI_INTEGER1);
    ck_assert_int_eq(MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 8, &t), MPI_SUCCESS);
    ck_assert_ptr_eq(t, MPI_INTEGER8);
    ck_assert_int_eq(MPI_Type_match_size(MPI_TYPECLASS_COMPLEX, 8, &t), MPI_SUCCESS);
    ck_assert_ptr_eq(t, MPI_COMPLEX);
    ck_assert_int_eq(MPI_Type_match_size(MPI_TYPECLASS_COMPLEX, 16, &t), MPI_SUCCESS);
    ck_assert_ptr_eq(t, MPI_COMPLEX16);
    ck_assert_int_eq(MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 3, &t), MPI_ERR_ARG);
    ck_assert_int_eq(MPI_Type_match_size(99, 4, &t), MPI_ERR_ARG);
}
END_TEST

/* Pack count items of dt as external32 and compare with the bytes written out by hand. */
static void
assert_external(const void *in, int count, MPI_Datatype dt, const unsigned char *bytes,
                int n)
{
    unsigned char out[64];
    char back[64];
    MPI_Aint size, pos = 0;

    ck_assert_int_eq(MPI_Pack_external_size("external32", count, dt, &size), MPI_SUCCESS);
    ck_assert_int_eq(size, n);
    ck_assert_int_eq(MPI_Pack_external("external32", in, count, dt, out, sizeof(out), &pos),
                     MPI_SUCCESS);
    ck_assert_int_eq(pos, n);
    for (int i = 0; i < n; i++)
        ck_assert_msg(out[i] == bytes[i], "byte %d is %02x, expected %02x", i, out[i],
                      bytes[i]);
    pos = 0;
    memset(back, 0, sizeof(back));
    ck_assert_int_eq(MPI_Unpack_external("external32", out, n, &pos, back, count, dt),
                     MPI_SUCCESS);
    ck_assert_int_eq(pos, n);
}

START_TEST(test_external32)
{
    int ints[] = {0x01020304, -2};
    const unsigned char ints_b[] = {1, 2, 3, 4, 0xff, 0xff, 0xff, 0xfe};
    double d = 1.0;
    const unsigned char d_b[] = {0x3f, 0xf0, 0, 0, 0, 0, 0, 0};
    short sh = 0x0102;
    const unsigned char sh_b[] = {1, 2};
    long l = -2;
    const unsigned char l_b[] = {0xff, 0xff, 0xff, 0xfe};
    float _Complex c = 1.0f + 2.0fi;
    const unsigned char c_b[] = {0x3f, 0x80, 0, 0, 0x40, 0, 0, 0};
    long double ld = 1.0L;
    const unsigned char ld_b[16] = {0x3f, 0xff};
    wchar_t w = L'A';
    const unsigned char w_b[] = {0, 0x41};

    assert_external(ints, 2, MPI_INT, ints_b, 8);
    assert_external(&d, 1, MPI_DOUBLE, d_b, 8);
    assert_external(&sh, 1, MPI_SHORT, sh_b, 2);
    assert_external(&l, 1, MPI_LONG, l_b, 4);
    assert_external(&c, 1, MPI_C_FLOAT_COMPLEX, c_b, 8);
    assert_external(&ld, 1, MPI_LONG_DOUBLE, ld_b, 16);
    assert_external(&w, 1, MPI_WCHAR, w_b, 2);

    /* a struct {char; long} in a derived type: 1 + 4 bytes */
    struct { char ch; long v; } s = {'x', 258};
    int bl[] = {1, 1};
    MPI_Aint disp[] = {0, offsetof(__typeof__(s), v)};
    MPI_Datatype types[] = {MPI_CHAR, MPI_LONG}, t;
    const unsigned char s_b[] = {'x', 0, 0, 1, 2};
    MPI_Type_create_struct(2, bl, disp, types, &t);
    MPI_Type_commit(&t);
    assert_external(&s, 1, t, s_b, 5);

    /* round trip through a vector: every other int, the gaps untouched */
    MPI_Datatype v;
    int src[6] = {10, 11, 12, 13, 14, 15}, dst[6] = {0};
    unsigned char buf[12];
    MPI_Aint pos = 0;
    MPI_Type_vector(3, 1, 2, MPI_INT, &v);
    MPI_Type_commit(&v);
    MPI_Pack_external("external32", src, 1, v, buf, sizeof(buf), &pos);
    ck_assert_int_eq(pos, 12);
    ck_assert_int_eq(buf[3], 10);
    ck_assert_int_eq(buf[7], 12);
    ck_assert_int_eq(buf[11], 14);
    pos = 0;
    MPI_Unpack_external("external32", buf, sizeof(buf), &pos, dst, 1, v);
    ck_assert_int_eq(dst[0], 10);
    ck_assert_int_eq(dst[1], 0);
    ck_assert_int_eq(dst[2], 12);
    ck_assert_int_eq(dst[4], 14);

    /* errors */
    pos = 0;
    ck_assert_int_eq(MPI_Pack_external("native", src, 1, v, buf, sizeof(buf), &pos),
                     MPI_ERR_ARG);
    ck_assert_int_eq(MPI_Pack_external("external32", src, 1, v, buf, 8, &pos), MPI_ERR_ARG);
    ck_assert_int_eq(MPI_Unpack_external("external32", buf, 8, &pos, dst, 1, v),
                     MPI_ERR_TRUNCATE);
    ck_assert_int_eq(MPI_Pack_external("external32", src, -1, v, buf, 12, &pos),
                     MPI_ERR_COUNT);
    MPI_Type_free(&v);
    MPI_Type_free(&t);
}
END_TEST

START_TEST(test_argument_errors)
{
    int sizes[] = {4, 6}, subs[] = {2, 3}, bad_starts[] = {3, 0}, starts[] = {1, 2};
    int g[] = {10}, d[] = {MPI_DISTRIBUTE_BLOCK}, a[] = {2}, p[] = {3};
    int dflt[] = {MPI_DISTRIBUTE_DFLT_DARG}, p2[] = {2}, bad_d[] = {7};
    MPI_Datatype t;
    MPI_Aint disps[] = {0};

    ck_assert_int_eq(MPI_Type_create_subarray(2, sizes, subs, bad_starts, MPI_ORDER_C, MPI_INT,
                                              &t),
                     MPI_ERR_ARG);
    ck_assert_int_eq(MPI_Type_create_subarray(0, sizes, subs, starts, MPI_ORDER_C, MPI_INT, &t),
                     MPI_ERR_ARG);
    ck_assert_int_eq(MPI_Type_create_subarray(2, sizes, subs, starts, 5, MPI_INT, &t),
                     MPI_ERR_ARG);
    ck_assert_int_eq(MPI_Type_create_subarray(2, sizes, subs, starts, MPI_ORDER_C,
                                              MPI_DATATYPE_NULL, &t),
                     MPI_ERR_TYPE);
    /* block of 2 on 3 processes cannot hold 10 elements */
    ck_assert_int_eq(MPI_Type_create_darray(3, 0, 1, g, d, a, p, MPI_ORDER_C, MPI_INT, &t),
                     MPI_ERR_ARG);
    /* 2 processes in the grid, 3 in the group */
    ck_assert_int_eq(MPI_Type_create_darray(3, 0, 1, g, d, dflt, p2, MPI_ORDER_C, MPI_INT, &t),
                     MPI_ERR_ARG);
    ck_assert_int_eq(MPI_Type_create_darray(3, 3, 1, g, d, dflt, p, MPI_ORDER_C, MPI_INT, &t),
                     MPI_ERR_RANK);
    ck_assert_int_eq(MPI_Type_create_darray(3, 0, 1, g, bad_d, dflt, p, MPI_ORDER_C, MPI_INT,
                                            &t),
                     MPI_ERR_ARG);
    ck_assert_int_eq(MPI_Type_create_hindexed_block(-1, 1, disps, MPI_INT, &t), MPI_ERR_COUNT);
    ck_assert_int_eq(MPI_Type_create_hindexed_block(1, -1, disps, MPI_INT, &t), MPI_ERR_ARG);
    ck_assert_int_eq(MPI_Type_create_hindexed_block(1, 1, NULL, MPI_INT, &t), MPI_ERR_ARG);
}
END_TEST

static Suite *
datatype_more_suite(void)
{
    Suite *s = suite_create("datatype_more");
    TCase *tc = tcase_create("core");

    tcase_add_checked_fixture(tc, setup, NULL);
    tcase_add_test(tc, test_subarray_c_order);
    tcase_add_test(tc, test_subarray_fortran_order);
    tcase_add_test(tc, test_darray_block_1d);
    tcase_add_test(tc, test_darray_cyclic_1d);
    tcase_add_test(tc, test_darray_block_2d);
    tcase_add_test(tc, test_darray_cyclic_and_none);
    tcase_add_test(tc, test_hindexed_block);
    tcase_add_test(tc, test_envelope_and_contents);
    tcase_add_test(tc, test_names);
    tcase_add_test(tc, test_large_count_queries_and_addresses);
    tcase_add_test(tc, test_match_size);
    tcase_add_test(tc, test_external32);
    tcase_add_test(tc, test_argument_errors);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(datatype_more_suite());
    int failed;

    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
