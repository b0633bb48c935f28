/*
 * check_datatype.c — unit tests of src/datatype.c: predefined sizes and extents, constructor
 * layouts against hand-computed type maps, pack/unpack round trips, bounds and markers,
 * MPI_Get_count/MPI_Get_elements, argument errors, and reference counting.
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

static void
setup(void)
{
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
}

/* Size, lb, extent and true extent of a committed type, checked in one call. */
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

/* ------------------------------------------------------------------------------------------ */

/* The C layouts of the pair types, written here independently of datatype.h. */
struct t_float_int { float v; int i; };
struct t_double_int { double v; int i; };
struct t_long_int { long v; int i; };
struct t_2int { int v; int i; };
struct t_short_int { short v; int i; };
struct t_ldouble_int { long double v; int i; };
struct t_2float { float v; float i; };
struct t_2double { double v; double i; };

#define PRIM(dt, T) {dt, #dt, sizeof(T), sizeof(T), sizeof(T)}
#define PAIR(dt, S, V, I) {dt, #dt, sizeof(V) + sizeof(I), sizeof(S), offsetof(S, i) + sizeof(I)}

static const struct {
    MPI_Datatype dt;
    const char *name;
    size_t size, extent, true_extent;
} predefined[] = {
    PRIM(MPI_CHAR, char),
    PRIM(MPI_SIGNED_CHAR, signed char),
    PRIM(MPI_UNSIGNED_CHAR, unsigned char),
    PRIM(MPI_BYTE, unsigned char),
    PRIM(MPI_WCHAR, wchar_t),
    PRIM(MPI_SHORT, short),
    PRIM(MPI_UNSIGNED_SHORT, unsigned short),
    PRIM(MPI_INT, int),
    PRIM(MPI_UNSIGNED, unsigned),
    PRIM(MPI_LONG, long),
    PRIM(MPI_UNSIGNED_LONG, unsigned long),
    PRIM(MPI_LONG_LONG_INT, long long),
    PRIM(MPI_UNSIGNED_LONG_LONG, unsigned long long),
    PRIM(MPI_FLOAT, float),
    PRIM(MPI_DOUBLE, double),
    PRIM(MPI_LONG_DOUBLE, long double),
    PRIM(MPI_C_BOOL, _Bool),
    PRIM(MPI_INT8_T, int8_t),
    PRIM(MPI_INT16_T, int16_t),
    PRIM(MPI_INT32_T, int32_t),
    PRIM(MPI_INT64_T, int64_t),
    PRIM(MPI_UINT8_T, uint8_t),
    PRIM(MPI_UINT16_T, uint16_t),
    PRIM(MPI_UINT32_T, uint32_t),
    PRIM(MPI_UINT64_T, uint64_t),
    PRIM(MPI_C_FLOAT_COMPLEX, float _Complex),
    PRIM(MPI_C_COMPLEX, float _Complex),
    PRIM(MPI_C_DOUBLE_COMPLEX, double _Complex),
    PRIM(MPI_C_LONG_DOUBLE_COMPLEX, long double _Complex),
    PRIM(MPI_AINT, ptrdiff_t),
    PRIM(MPI_OFFSET, long long),
    PRIM(MPI_COUNT, long long),
    PRIM(MPI_PACKED, unsigned char),
    PAIR(MPI_FLOAT_INT, struct t_float_int, float, int),
    PAIR(MPI_DOUBLE_INT, struct t_double_int, double, int),
    PAIR(MPI_LONG_INT, struct t_long_int, long, int),
    PAIR(MPI_2INT, struct t_2int, int, int),
    PAIR(MPI_SHORT_INT, struct t_short_int, short, int),
    PAIR(MPI_LONG_DOUBLE_INT, struct t_ldouble_int, long double, int),
    PRIM(MPI_INTEGER, int),
    PRIM(MPI_REAL, float),
    PRIM(MPI_DOUBLE_PRECISION, double),
    PRIM(MPI_LOGICAL, int),
    {MPI_COMPLEX, "MPI_COMPLEX", 2 * sizeof(float), 2 * sizeof(float), 2 * sizeof(float)},
    {MPI_DOUBLE_COMPLEX, "MPI_DOUBLE_COMPLEX", 2 * sizeof(double), 2 * sizeof(double),
     2 * sizeof(double)},
    PRIM(MPI_CHARACTER, char),
    PAIR(MPI_2INTEGER, struct t_2int, int, int),
    PAIR(MPI_2REAL, struct t_2float, float, float),
    PAIR(MPI_2DOUBLE_PRECISION, struct t_2double, double, double),
    /* the size-specific Fortran types and the C++ ones (MPI-3.1 §17.1.9, §3.2.2) */
    PRIM(MPI_INTEGER1, int8_t),
    PRIM(MPI_INTEGER2, int16_t),
    PRIM(MPI_INTEGER4, int32_t),
    PRIM(MPI_INTEGER8, int64_t),
    PRIM(MPI_REAL4, float),
    PRIM(MPI_REAL8, double),
    PRIM(MPI_REAL16, long double),
    {MPI_COMPLEX8, "MPI_COMPLEX8", 8, 8, 8},
    {MPI_COMPLEX16, "MPI_COMPLEX16", 16, 16, 16},
    {MPI_COMPLEX32, "MPI_COMPLEX32", 2 * sizeof(long double), 2 * sizeof(long double),
     2 * sizeof(long double)},
    PRIM(MPI_CXX_BOOL, _Bool),
    {MPI_CXX_FLOAT_COMPLEX, "MPI_CXX_FLOAT_COMPLEX", 8, 8, 8},
    {MPI_CXX_DOUBLE_COMPLEX, "MPI_CXX_DOUBLE_COMPLEX", 16, 16, 16},
    {MPI_CXX_LONG_DOUBLE_COMPLEX, "MPI_CXX_LONG_DOUBLE_COMPLEX", 2 * sizeof(long double),
     2 * sizeof(long double), 2 * sizeof(long double)},
};
#define N_PREDEFINED ((int)(sizeof(predefined) / sizeof(predefined[0])))

START_TEST(test_datatype_predefined_sizes_and_extents)
{
    MPI_Datatype dt = predefined[_i].dt;

    assert_bounds(dt, (int)predefined[_i].size, 0, (MPI_Aint)predefined[_i].extent, 0,
                  (MPI_Aint)predefined[_i].true_extent);
    ck_assert_int_eq(collsim_datatype_check(dt), MPI_SUCCESS);
    ck_assert_ptr_eq(collsim_datatype_basic(dt), dt);
    ck_assert_uint_eq(collsim_datatype_packed_size(3, dt), 3 * predefined[_i].size);
    /* MPI_LONG_LONG is an alias of this object, named by the main name. */
    if (dt != MPI_LONG_LONG_INT)
        ck_assert_str_eq(collsim_datatype_name(dt), predefined[_i].name);
}
END_TEST

START_TEST(test_datatype_predefined_names_and_aliases)
{
    ck_assert_ptr_eq(MPI_LONG_LONG, MPI_LONG_LONG_INT);
    /* MPI_C_COMPLEX is a type of its own (Open MPI's and MPICH's names it so) */
    ck_assert_ptr_ne(MPI_C_COMPLEX, MPI_C_FLOAT_COMPLEX);
    ck_assert_str_eq(collsim_datatype_name(MPI_LONG_LONG), "MPI_LONG_LONG_INT");
    ck_assert_str_eq(collsim_datatype_name(MPI_C_COMPLEX), "MPI_C_COMPLEX");
    ck_assert_str_eq(collsim_datatype_name(MPI_DATATYPE_NULL), "MPI_DATATYPE_NULL");
    ck_assert_str_eq(collsim_datatype_name(MPI_LB), "MPI_LB");
    ck_assert_str_eq(collsim_datatype_name(MPI_UB), "MPI_UB");
}
END_TEST

START_TEST(test_datatype_pair_layout_round_trip)
{
    /* MPI_SHORT_INT has padding between value and index: pack skips it, unpack restores. */
    struct t_short_int in[2] = {{-3, 7}, {12, -1}}, out[2];
    char packed[12];

    ck_assert_uint_eq(collsim_datatype_packed_size(2, MPI_SHORT_INT), 12);
    collsim_datatype_pack(in, 2, MPI_SHORT_INT, packed);
    memset(out, 0, sizeof(out));
    ck_assert_uint_eq(collsim_datatype_unpack(packed, 12, out, 2, MPI_SHORT_INT), 12);
    ck_assert_int_eq(out[0].v, -3);
    ck_assert_int_eq(out[0].i, 7);
    ck_assert_int_eq(out[1].v, 12);
    ck_assert_int_eq(out[1].i, -1);
    ck_assert(!collsim_datatype_is_contiguous(MPI_SHORT_INT));
    ck_assert(collsim_datatype_is_contiguous(MPI_2INT));
    ck_assert(collsim_datatype_is_contiguous(MPI_FLOAT_INT));
    ck_assert(!collsim_datatype_is_contiguous(MPI_DOUBLE_INT));
    ck_assert(collsim_datatype_is_contiguous(MPI_DOUBLE));
}
END_TEST

START_TEST(test_datatype_markers_not_for_data)
{
    ck_assert_int_eq(collsim_datatype_check(MPI_LB), MPI_ERR_TYPE);
    ck_assert_int_eq(collsim_datatype_check(MPI_UB), MPI_ERR_TYPE);
    ck_assert_int_eq(collsim_datatype_check(MPI_DATATYPE_NULL), MPI_ERR_TYPE);
    ck_assert_int_eq(collsim_datatype_check_handle(MPI_DATATYPE_NULL), MPI_ERR_TYPE);
}
END_TEST

/* ------------------------------------------------------------------------------------------ */

/* Pack count items of dt from src and compare with the expected ints. */
static void
assert_pack_ints(const int *src, int count, MPI_Datatype dt, const int *expected, int n)
{
    int packed[64];

    ck_assert_uint_eq(collsim_datatype_packed_size(count, dt), n * sizeof(int));
    collsim_datatype_pack(src, count, dt, packed);
    for (int k = 0; k < n; k++)
        ck_assert_int_eq(packed[k], expected[k]);
}

/* Unpack the expected ints into a -1 filled buffer: exactly the type map's cells change. */
static void
assert_unpack_ints(int count, MPI_Datatype dt, const int *values, int n, const int *cells,
                   int ncells)
{
    int buf[64];

    for (int k = 0; k < 64; k++)
        buf[k] = -1;
    ck_assert_uint_eq(collsim_datatype_unpack(values, n * sizeof(int), buf, count, dt),
                      n * sizeof(int));
    for (int k = 0; k < ncells; k++)
        ck_assert_int_eq(buf[k], cells[k]);
}

static int iota[64];

static void
setup_iota(void)
{
    setup();
    for (int k = 0; k < 64; k++)
        iota[k] = k;
}

START_TEST(test_datatype_contiguous)
{
    MPI_Datatype t;
    const int expected[] = {0, 1, 2, 3, 4, 5};

    ck_assert_int_eq(MPI_Type_contiguous(3, MPI_INT, &t), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_commit(&t), MPI_SUCCESS);
    assert_bounds(t, 12, 0, 12, 0, 12);
    ck_assert(collsim_datatype_is_contiguous(t));
    ck_assert_ptr_eq(collsim_datatype_basic(t), MPI_INT);
    ck_assert_uint_eq(collsim_datatype_basic_count(2, t), 6);
    ck_assert_uint_eq(t->nsegs, 1);
    assert_pack_ints(iota, 2, t, expected, 6);
    ck_assert_str_eq(collsim_datatype_name(t), "contiguous(MPI_INT)");
    ck_assert_int_eq(MPI_Type_free(&t), MPI_SUCCESS);
    ck_assert_ptr_eq(t, MPI_DATATYPE_NULL);
}
END_TEST

START_TEST(test_datatype_vector)
{
    /* vector(3, 2, 4, int): ints at 0 1 . . 4 5 . . 8 9; extent 10 ints. */
    MPI_Datatype t;
    const int expected[] = {0, 1, 4, 5, 8, 9, 10, 11, 14, 15, 18, 19};
    const int cells[] = {0, 1, -1, -1, 4, 5, -1, -1, 8, 9, -1, -1};

    ck_assert_int_eq(MPI_Type_vector(3, 2, 4, MPI_INT, &t), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_commit(&t), MPI_SUCCESS);
    assert_bounds(t, 24, 0, 40, 0, 40);
    ck_assert(!collsim_datatype_is_contiguous(t));
    ck_assert_uint_eq(t->nsegs, 3);
    assert_pack_ints(iota, 2, t, expected, 12);
    assert_unpack_ints(1, t, expected, 6, cells, 12);
    MPI_Type_free(&t);

    /* Stride equal to the block length is contiguous: the blocks merge. */
    ck_assert_int_eq(MPI_Type_vector(4, 2, 2, MPI_INT, &t), MPI_SUCCESS);
    MPI_Type_commit(&t);
    ck_assert(collsim_datatype_is_contiguous(t));
    ck_assert_uint_eq(t->nsegs, 1);
    MPI_Type_free(&t);

    /* Negative stride: blocks go down in memory; lb is the last block. */
    ck_assert_int_eq(MPI_Type_vector(3, 1, -2, MPI_INT, &t), MPI_SUCCESS);
    MPI_Type_commit(&t);
    assert_bounds(t, 12, -16, 20, -16, 20);
    {
        const int expected_neg[] = {20, 18, 16};
        assert_pack_ints(iota + 20, 1, t, expected_neg, 3);
    }
    MPI_Type_free(&t);
}
END_TEST

START_TEST(test_datatype_hvector)
{
    /* hvector(3, 1, 16 bytes, double): doubles 0, 2, 4 of an array. */
    MPI_Datatype t;
    double src[8] = {0, 1, 2, 3, 4, 5, 6, 7}, packed[3], back[8] = {0};

    ck_assert_int_eq(MPI_Type_create_hvector(3, 1, 16, MPI_DOUBLE, &t), MPI_SUCCESS);
    MPI_Type_commit(&t);
    assert_bounds(t, 24, 0, 40, 0, 40);
    collsim_datatype_pack(src, 1, t, packed);
    ck_assert(packed[0] == 0 && packed[1] == 2 && packed[2] == 4);
    collsim_datatype_unpack(packed, sizeof(packed), back, 1, t);
    ck_assert(back[0] == 0 && back[2] == 2 && back[4] == 4 && back[1] == 0 && back[3] == 0);
    MPI_Type_free(&t);

    ck_assert_int_eq(MPI_Type_hvector(2, 2, 12, MPI_INT, &t), MPI_SUCCESS);
    MPI_Type_commit(&t);
    assert_bounds(t, 16, 0, 20, 0, 20);
    {
        const int expected[] = {0, 1, 3, 4};
        assert_pack_ints(iota, 1, t, expected, 4);
    }
    MPI_Type_free(&t);
}
END_TEST

START_TEST(test_datatype_indexed)
{
    /* Blocks in type-map order, not sorted: pack follows the order given. */
    MPI_Datatype t;
    const int lens[] = {2, 1, 3}, disps[] = {5, 0, 8};
    const int expected[] = {5, 6, 0, 8, 9, 10};
    const int cells[] = {0, -1, -1, -1, -1, 5, 6, -1, 8, 9, 10, -1};

    ck_assert_int_eq(MPI_Type_indexed(3, lens, disps, MPI_INT, &t), MPI_SUCCESS);
    MPI_Type_commit(&t);
    assert_bounds(t, 24, 0, 44, 0, 44);
    assert_pack_ints(iota, 1, t, expected, 6);
    assert_unpack_ints(1, t, expected, 6, cells, 12);
    MPI_Type_free(&t);
}
END_TEST

START_TEST(test_datatype_hindexed_and_indexed_block)
{
    MPI_Datatype t;
    const int lens[] = {1, 2};
    const MPI_Aint hdisps[] = {12, 4};
    const int bdisps[] = {3, 0, 6};

    ck_assert_int_eq(MPI_Type_create_hindexed(2, lens, hdisps, MPI_INT, &t), MPI_SUCCESS);
    MPI_Type_commit(&t);
    assert_bounds(t, 12, 4, 12, 4, 12);
    {
        const int expected[] = {3, 1, 2};
        assert_pack_ints(iota, 1, t, expected, 3);
    }
    MPI_Type_free(&t);

    ck_assert_int_eq(MPI_Type_create_indexed_block(3, 2, bdisps, MPI_INT, &t), MPI_SUCCESS);
    MPI_Type_commit(&t);
    assert_bounds(t, 24, 0, 32, 0, 32);
    {
        const int expected[] = {3, 4, 0, 1, 6, 7};
        assert_pack_ints(iota, 1, t, expected, 6);
    }
    MPI_Type_free(&t);
}
END_TEST

struct particle {
    int id;
    double x;
    char tag;
};

START_TEST(test_datatype_struct_alignment_and_round_trip)
{
    /* The extent of {int, double, char} rounds up to the double's alignment (MPI's ε). */
    MPI_Datatype t;
    const int lens[] = {1, 1, 1};
    const MPI_Aint disps[] = {offsetof(struct particle, id), offsetof(struct particle, x),
                              offsetof(struct particle, tag)};
    const MPI_Datatype types[] = {MPI_INT, MPI_DOUBLE, MPI_CHAR};
    struct particle in[3] = {{1, 0.5, 'a'}, {2, -1.25, 'b'}, {3, 1e300, 'c'}}, out[3];
    char packed[3 * 13];
    MPI_Aint lb, extent;

    ck_assert_int_eq(MPI_Type_create_struct(3, lens, disps, types, &t), MPI_SUCCESS);
    MPI_Type_commit(&t);
    ck_assert_int_eq(MPI_Type_get_extent(t, &lb, &extent), MPI_SUCCESS);
    ck_assert_int_eq(lb, 0);
    ck_assert_int_eq(extent, sizeof(struct particle));
    assert_bounds(t, 13, 0, sizeof(struct particle), 0, offsetof(struct particle, tag) + 1);
    ck_assert_ptr_null(collsim_datatype_basic(t));
    ck_assert(t->mixed);

    collsim_datatype_pack(in, 3, t, packed);
    memset(out, 0, sizeof(out));
    ck_assert_uint_eq(collsim_datatype_unpack(packed, sizeof(packed), out, 3, t), 39);
    for (int k = 0; k < 3; k++) {
        ck_assert_int_eq(out[k].id, in[k].id);
        ck_assert(out[k].x == in[k].x);
        ck_assert_int_eq(out[k].tag, in[k].tag);
    }
    MPI_Type_free(&t);
}
END_TEST

START_TEST(test_datatype_struct_homogeneous_and_mixed)
{
    MPI_Datatype t;
    const int lens[] = {2, 1};
    const MPI_Aint disps[] = {0, 24};
    const MPI_Datatype doubles[] = {MPI_DOUBLE, MPI_DOUBLE};
    const MPI_Datatype int_and_integer[] = {MPI_INT, MPI_INTEGER};

    ck_assert_int_eq(MPI_Type_create_struct(2, lens, disps, doubles, &t), MPI_SUCCESS);
    ck_assert_ptr_eq(collsim_datatype_basic(t), MPI_DOUBLE);
    ck_assert_uint_eq(collsim_datatype_basic_count(1, t), 3);
    MPI_Type_free(&t);

    /* MPI_INT and MPI_INTEGER share a C layout but are different MPI types. */
    ck_assert_int_eq(MPI_Type_create_struct(2, lens, disps, int_and_integer, &t), MPI_SUCCESS);
    ck_assert_ptr_null(collsim_datatype_basic(t));
    ck_assert(t->mixed);
    MPI_Type_free(&t);
}
END_TEST

START_TEST(test_datatype_struct_lb_ub_markers)
{
    /* MPI-1 Type_struct {LB at -4, INT at 0, UB at 12}: lb -4, extent 16, size 4. */
    MPI_Datatype t, c;
    int lens[] = {1, 1, 1};
    MPI_Aint disps[] = {-4, 0, 12};
    MPI_Datatype types[] = {MPI_LB, MPI_INT, MPI_UB};
    MPI_Aint d;

    ck_assert_int_eq(MPI_Type_struct(3, lens, disps, types, &t), MPI_SUCCESS);
    MPI_Type_commit(&t);
    assert_bounds(t, 4, -4, 16, 0, 4);
    ck_assert_int_eq(MPI_Type_lb(t, &d), MPI_SUCCESS);
    ck_assert_int_eq(d, -4);
    ck_assert_int_eq(MPI_Type_ub(t, &d), MPI_SUCCESS);
    ck_assert_int_eq(d, 12);
    ck_assert_int_eq(MPI_Type_extent(t, &d), MPI_SUCCESS);
    ck_assert_int_eq(d, 16);
    ck_assert_ptr_eq(collsim_datatype_basic(t), MPI_INT);

    /* The markers are sticky: in contiguous(3) items sit 16 bytes apart, lb stays -4. */
    ck_assert_int_eq(MPI_Type_contiguous(3, t, &c), MPI_SUCCESS);
    MPI_Type_commit(&c);
    assert_bounds(c, 12, -4, 48, 0, 36);
    {
        const int expected[] = {0, 4, 8};
        assert_pack_ints(iota, 1, c, expected, 3);
    }
    /* Freeing the inner type first is safe: the outer one is self-contained. */
    MPI_Type_free(&t);
    {
        const int expected[] = {0, 4, 8};
        assert_pack_ints(iota, 1, c, expected, 3);
    }
    MPI_Type_free(&c);

    /* With a marker, no alignment rounding: {INT at 0, DOUBLE at 4, UB at 12} has extent 12. */
    {
        int l2[] = {1, 1, 1};
        MPI_Aint d2[] = {0, 4, 12};
        MPI_Datatype t2[] = {MPI_INT, MPI_DOUBLE, MPI_UB};
        ck_assert_int_eq(MPI_Type_struct(3, l2, d2, t2, &t), MPI_SUCCESS);
        MPI_Type_commit(&t);
        assert_bounds(t, 12, 0, 12, 0, 12);
        MPI_Type_free(&t);
    }
}
END_TEST

START_TEST(test_datatype_resized)
{
    MPI_Datatype r, c;

    /* int resized to extent 8: contiguous(3) picks every other int. */
    ck_assert_int_eq(MPI_Type_create_resized(MPI_INT, 0, 8, &r), MPI_SUCCESS);
    MPI_Type_commit(&r);
    assert_bounds(r, 4, 0, 8, 0, 4);
    ck_assert(!collsim_datatype_is_contiguous(r));
    ck_assert_int_eq(MPI_Type_contiguous(3, r, &c), MPI_SUCCESS);
    MPI_Type_commit(&c);
    assert_bounds(c, 12, 0, 24, 0, 20);
    {
        const int expected[] = {0, 2, 4, 6, 8, 10};
        assert_pack_ints(iota, 2, c, expected, 6);
    }
    MPI_Type_free(&c);
    MPI_Type_free(&r);

    /* Negative lb. */
    ck_assert_int_eq(MPI_Type_create_resized(MPI_DOUBLE, -8, 24, &r), MPI_SUCCESS);
    MPI_Type_commit(&r);
    assert_bounds(r, 8, -8, 24, 0, 8);
    MPI_Type_free(&r);

    /* Resizing to the size keeps a contiguous layout. */
    ck_assert_int_eq(MPI_Type_create_resized(MPI_INT, 0, 4, &r), MPI_SUCCESS);
    ck_assert(collsim_datatype_is_contiguous(r));
    MPI_Type_free(&r);
}
END_TEST

START_TEST(test_datatype_dup)
{
    MPI_Datatype v, d;

    ck_assert_int_eq(MPI_Type_vector(2, 1, 3, MPI_INT, &v), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_dup(v, &d), MPI_SUCCESS);
    ck_assert_int_eq(collsim_datatype_check(d), MPI_ERR_TYPE); /* v was not committed */
    MPI_Type_free(&d);
    MPI_Type_commit(&v);
    ck_assert_int_eq(MPI_Type_dup(v, &d), MPI_SUCCESS);
    ck_assert_int_eq(collsim_datatype_check(d), MPI_SUCCESS);
    MPI_Type_free(&v);
    assert_bounds(d, 8, 0, 16, 0, 16);
    {
        const int expected[] = {0, 3};
        assert_pack_ints(iota, 1, d, expected, 2);
    }
    MPI_Type_free(&d);

    /* A dup of a predefined type is a derived type that can be freed. */
    ck_assert_int_eq(MPI_Type_dup(MPI_DOUBLE_INT, &d), MPI_SUCCESS);
    assert_bounds(d, 12, 0, 16, 0, 12);
    ck_assert_ptr_eq(collsim_datatype_basic(d), MPI_DOUBLE_INT);
    ck_assert_int_eq(MPI_Type_free(&d), MPI_SUCCESS);
}
END_TEST

START_TEST(test_datatype_commit_and_free)
{
    MPI_Datatype t, keep;

    ck_assert_int_eq(MPI_Type_contiguous(2, MPI_INT, &t), MPI_SUCCESS);
    ck_assert_int_eq(collsim_datatype_check(t), MPI_ERR_TYPE);
    ck_assert_int_eq(collsim_datatype_check_handle(t), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_commit(&t), MPI_SUCCESS);
    ck_assert_int_eq(collsim_datatype_check(t), MPI_SUCCESS);

    /* A pending user keeps the type alive after MPI_Type_free; the handle is invalid. */
    keep = collsim_datatype_ref(t);
    ck_assert_int_eq(MPI_Type_free(&t), MPI_SUCCESS);
    ck_assert_ptr_eq(t, MPI_DATATYPE_NULL);
    ck_assert_int_eq(collsim_datatype_check(keep), MPI_ERR_TYPE);
    ck_assert_uint_eq(collsim_datatype_packed_size(2, keep), 16);
    {
        const int expected[] = {0, 1};
        assert_pack_ints(iota, 1, keep, expected, 2);
    }
    collsim_datatype_unref(keep);

    /* Predefined types cannot be freed and stay as they are. */
    t = MPI_INT;
    ck_assert_int_eq(MPI_Type_free(&t), MPI_ERR_TYPE);
    ck_assert_ptr_eq(t, MPI_INT);
    ck_assert_int_eq(MPI_Type_commit(&t), MPI_SUCCESS);
    t = MPI_DATATYPE_NULL;
    ck_assert_int_eq(MPI_Type_free(&t), MPI_ERR_TYPE);
    ck_assert_int_eq(MPI_Type_commit(&t), MPI_ERR_TYPE);
    ck_assert_int_eq(MPI_Type_free(NULL), MPI_ERR_ARG);
    ck_assert_int_eq(MPI_Type_commit(NULL), MPI_ERR_ARG);
    /* ref/unref of predefined types are no-ops. */
    collsim_datatype_unref(collsim_datatype_ref(MPI_INT));
}
END_TEST

START_TEST(test_datatype_constructor_argument_errors)
{
    MPI_Datatype t = MPI_DATATYPE_NULL;
    const int lens[] = {1, -1}, disps[] = {0, 1};
    const MPI_Aint adisps[] = {0, 8};
    const MPI_Datatype types[] = {MPI_INT, MPI_DATATYPE_NULL};
    const int ok_lens[] = {1, 1};

    ck_assert_int_eq(MPI_Type_contiguous(-1, MPI_INT, &t), MPI_ERR_COUNT);
    ck_assert_int_eq(MPI_Type_contiguous(1, MPI_DATATYPE_NULL, &t), MPI_ERR_TYPE);
    ck_assert_int_eq(MPI_Type_contiguous(1, MPI_INT, NULL), MPI_ERR_ARG);
    ck_assert_int_eq(MPI_Type_vector(2, -1, 1, MPI_INT, &t), MPI_ERR_ARG);
    ck_assert_int_eq(MPI_Type_vector(-2, 1, 1, MPI_INT, &t), MPI_ERR_COUNT);
    ck_assert_int_eq(MPI_Type_create_hvector(2, 1, 8, MPI_DATATYPE_NULL, &t), MPI_ERR_TYPE);
    ck_assert_int_eq(MPI_Type_indexed(2, lens, disps, MPI_INT, &t), MPI_ERR_ARG);
    ck_assert_int_eq(MPI_Type_indexed(2, NULL, disps, MPI_INT, &t), MPI_ERR_ARG);
    ck_assert_int_eq(MPI_Type_indexed(2, ok_lens, NULL, MPI_INT, &t), MPI_ERR_ARG);
    ck_assert_int_eq(MPI_Type_create_indexed_block(2, -3, disps, MPI_INT, &t), MPI_ERR_ARG);
    ck_assert_int_eq(MPI_Type_create_struct(2, ok_lens, adisps, types, &t), MPI_ERR_TYPE);
    ck_assert_int_eq(MPI_Type_create_struct(-1, ok_lens, adisps, types, &t), MPI_ERR_COUNT);
    ck_assert_int_eq(MPI_Type_create_resized(MPI_DATATYPE_NULL, 0, 4, &t), MPI_ERR_TYPE);
    ck_assert_int_eq(MPI_Type_dup(MPI_DATATYPE_NULL, &t), MPI_ERR_TYPE);
    ck_assert_ptr_eq(t, MPI_DATATYPE_NULL);

    /* A freed handle copy is caught while something still holds the object. */
    {
        MPI_Datatype a, copy;
        MPI_Type_contiguous(2, MPI_INT, &a);
        copy = collsim_datatype_ref(a);
        MPI_Type_free(&a);
        ck_assert_int_eq(MPI_Type_contiguous(2, copy, &t), MPI_ERR_TYPE);
        collsim_datatype_unref(copy);
    }
    /* Overflow of the type's size is an error, not a wrap-around. */
    {
        MPI_Datatype big;
        ck_assert_int_eq(MPI_Type_contiguous(INT_MAX, MPI_DOUBLE, &big), MPI_SUCCESS);
        ck_assert_int_eq(MPI_Type_contiguous(INT_MAX, big, &t), MPI_ERR_ARG);
        ck_assert_int_eq(MPI_Type_vector(2, 1, INT_MAX, big, &t), MPI_ERR_ARG);
        MPI_Type_free(&big);
    }
    /* A type whose map of pieces would take more than half the machine's memory is refused
     * at once (2^40 pieces here), not built until the kernel kills the run; one of 2^20 pieces
     * is built (MPICH's large_count and large_vec). */
    {
        MPI_Datatype strided;
        ck_assert_int_eq(MPI_Type_vector(1 << 20, 1, 2, MPI_CHAR, &strided), MPI_SUCCESS);
        ck_assert_int_eq(MPI_Type_commit(&strided), MPI_SUCCESS);
        ck_assert_uint_eq(collsim_datatype_packed_size(1, strided), (size_t)1 << 20);
        ck_assert_int_eq(MPI_Type_vector(1 << 20, 1, 1, strided, &t), MPI_ERR_NO_MEM);
        ck_assert_ptr_eq(t, MPI_DATATYPE_NULL);
        ck_assert_int_eq(MPI_Type_contiguous(1 << 20, strided, &t), MPI_ERR_NO_MEM);
        MPI_Type_free(&strided);
        /* 2^31 - 1 blocks of one int with gaps: one piece each, 64 GiB of map */
        ck_assert_int_eq(MPI_Type_vector(INT_MAX, 1, 2, MPI_INT, &t), MPI_ERR_NO_MEM);
        /* blocks touching: one run, however many (apart, 2^24 would be 512 MiB of map) */
        ck_assert_int_eq(MPI_Type_vector(1 << 24, 1, 1, MPI_INT, &t), MPI_SUCCESS);
        ck_assert_int_eq(MPI_Type_commit(&t), MPI_SUCCESS);
        ck_assert(collsim_datatype_is_contiguous(t));
        MPI_Type_free(&t);
    }
}
END_TEST

START_TEST(test_datatype_empty_types)
{
    MPI_Datatype t;

    ck_assert_int_eq(MPI_Type_contiguous(0, MPI_DOUBLE, &t), MPI_SUCCESS);
    MPI_Type_commit(&t);
    assert_bounds(t, 0, 0, 0, 0, 0);
    ck_assert(collsim_datatype_is_contiguous(t));
    ck_assert_ptr_eq(collsim_datatype_basic(t), MPI_DOUBLE);
    ck_assert_uint_eq(collsim_datatype_packed_size(5, t), 0);
    MPI_Type_free(&t);

    ck_assert_int_eq(MPI_Type_vector(3, 0, 2, MPI_INT, &t), MPI_SUCCESS);
    assert_bounds(t, 0, 0, 0, 0, 0);
    MPI_Type_free(&t);
}
END_TEST

START_TEST(test_datatype_type_size_undefined_when_huge)
{
    MPI_Datatype big;
    int size;

    ck_assert_int_eq(MPI_Type_contiguous(1 << 29, MPI_DOUBLE, &big), MPI_SUCCESS);
    ck_assert_uint_eq(big->nsegs, 1);
    ck_assert_int_eq(MPI_Type_size(big, &size), MPI_SUCCESS);
    ck_assert_int_eq(size, MPI_UNDEFINED);
    MPI_Type_free(&big);
}
END_TEST

START_TEST(test_datatype_bottom_and_addresses)
{
    /* A struct with absolute addresses, used from MPI_BOTTOM. */
    int a = 11;
    double b = 2.5;
    MPI_Aint addr[2];
    const int lens[] = {1, 1};
    const MPI_Datatype types[] = {MPI_INT, MPI_DOUBLE};
    MPI_Datatype t;
    char packed[12];
    int a2;
    double b2;

    ck_assert_int_eq(MPI_Get_address(&a, &addr[0]), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Address(&b, &addr[1]), MPI_SUCCESS);
    ck_assert_int_eq(addr[0], (MPI_Aint)(uintptr_t)&a);
    ck_assert_int_eq(MPI_Get_address(&a, NULL), MPI_ERR_ARG);
    ck_assert_int_eq(MPI_Type_create_struct(2, lens, addr, types, &t), MPI_SUCCESS);
    MPI_Type_commit(&t);
    collsim_datatype_pack(MPI_BOTTOM, 1, t, packed);
    memcpy(&a2, packed, sizeof(int));
    memcpy(&b2, packed + sizeof(int), sizeof(double));
    ck_assert_int_eq(a2, 11);
    ck_assert(b2 == 2.5);
    MPI_Type_free(&t);
}
END_TEST

/* ------------------------------------------------------------------------------------------ */

static MPI_Status
status_of(size_t bytes)
{
    MPI_Status st;

    memset(&st, 0, sizeof(st));
    st.collsim_bytes = bytes;
    return st;
}

START_TEST(test_datatype_get_count_and_elements)
{
    MPI_Status st;
    MPI_Datatype s, e;
    const int lens[] = {1, 1};
    const MPI_Aint disps[] = {0, 8};
    const MPI_Datatype types[] = {MPI_INT, MPI_DOUBLE};
    int n;

    st = status_of(12);
    ck_assert_int_eq(MPI_Get_count(&st, MPI_INT, &n), MPI_SUCCESS);
    ck_assert_int_eq(n, 3);
    ck_assert_int_eq(MPI_Get_elements(&st, MPI_INT, &n), MPI_SUCCESS);
    ck_assert_int_eq(n, 3);

    /* 10 bytes of ints: not a whole number of items, nor of elements. */
    st = status_of(10);
    ck_assert_int_eq(MPI_Get_count(&st, MPI_INT, &n), MPI_SUCCESS);
    ck_assert_int_eq(n, MPI_UNDEFINED);
    ck_assert_int_eq(MPI_Get_elements(&st, MPI_INT, &n), MPI_SUCCESS);
    ck_assert_int_eq(n, MPI_UNDEFINED);

    /* A pair type has two primitive elements per item. */
    st = status_of(3 * sizeof(int) * 2);
    ck_assert_int_eq(MPI_Get_count(&st, MPI_2INT, &n), MPI_SUCCESS);
    ck_assert_int_eq(n, 3);
    ck_assert_int_eq(MPI_Get_elements(&st, MPI_2INT, &n), MPI_SUCCESS);
    ck_assert_int_eq(n, 6);

    /* struct {int; double} has size 12: 16 bytes are one item and one more int. */
    ck_assert_int_eq(MPI_Type_create_struct(2, lens, disps, types, &s), MPI_SUCCESS);
    MPI_Type_commit(&s);
    st = status_of(16);
    ck_assert_int_eq(MPI_Get_count(&st, s, &n), MPI_SUCCESS);
    ck_assert_int_eq(n, MPI_UNDEFINED);
    ck_assert_int_eq(MPI_Get_elements(&st, s, &n), MPI_SUCCESS);
    ck_assert_int_eq(n, 3);
    st = status_of(18); /* ends inside the second item's double */
    ck_assert_int_eq(MPI_Get_elements(&st, s, &n), MPI_SUCCESS);
    ck_assert_int_eq(n, MPI_UNDEFINED);
    st = status_of(24);
    ck_assert_int_eq(MPI_Get_count(&st, s, &n), MPI_SUCCESS);
    ck_assert_int_eq(n, 2);
    ck_assert_int_eq(MPI_Get_elements(&st, s, &n), MPI_SUCCESS);
    ck_assert_int_eq(n, 4);
    MPI_Type_free(&s);

    /* A type of size zero counts zero. */
    MPI_Type_contiguous(0, MPI_INT, &e);
    MPI_Type_commit(&e);
    st = status_of(0);
    ck_assert_int_eq(MPI_Get_count(&st, e, &n), MPI_SUCCESS);
    ck_assert_int_eq(n, 0);
    ck_assert_int_eq(MPI_Get_elements(&st, e, &n), MPI_SUCCESS);
    ck_assert_int_eq(n, 0);
    MPI_Type_free(&e);

    /* Too many items for an int. */
    st = status_of((size_t)INT_MAX + 1);
    ck_assert_int_eq(MPI_Get_count(&st, MPI_BYTE, &n), MPI_SUCCESS);
    ck_assert_int_eq(n, MPI_UNDEFINED);

    /* Argument errors. */
    st = status_of(4);
    ck_assert_int_eq(MPI_Get_count(MPI_STATUS_IGNORE, MPI_INT, &n), MPI_ERR_ARG);
    ck_assert_int_eq(MPI_Get_count(&st, MPI_DATATYPE_NULL, &n), MPI_ERR_TYPE);
    ck_assert_int_eq(MPI_Get_count(&st, MPI_INT, NULL), MPI_ERR_ARG);
    ck_assert_int_eq(MPI_Get_elements(&st, MPI_DATATYPE_NULL, &n), MPI_ERR_TYPE);
}
END_TEST

START_TEST(test_datatype_unpack_whole_elements_only)
{
    int buf[3] = {-1, -1, -1};
    const int src[3] = {7, 8, 9};
    MPI_Datatype s;
    const int lens[] = {1, 1};
    const MPI_Aint disps[] = {0, 8};
    const MPI_Datatype types[] = {MPI_INT, MPI_DOUBLE};
    struct {
        int i;
        double d;
    } items[2] = {{-1, -1.0}, {-1, -1.0}};
    char packed[24];
    const double one = 1.0;

    /* 10 bytes into 3 ints: two ints written, the third untouched. */
    ck_assert_uint_eq(collsim_datatype_unpack(src, 10, buf, 3, MPI_INT), 8);
    ck_assert_int_eq(buf[0], 7);
    ck_assert_int_eq(buf[1], 8);
    ck_assert_int_eq(buf[2], -1);
    /* More bytes than the receive holds: only count items. */
    buf[0] = buf[1] = buf[2] = -1;
    ck_assert_uint_eq(collsim_datatype_unpack(src, 12, buf, 2, MPI_INT), 8);
    ck_assert_int_eq(buf[2], -1);

    /* A struct's partial item: the int of the second item, not its half double. */
    MPI_Type_create_struct(2, lens, disps, types, &s);
    MPI_Type_commit(&s);
    memset(packed, 0, sizeof(packed));
    memcpy(packed, &src[0], 4);
    memcpy(packed + 4, &one, 8);
    memcpy(packed + 12, &src[1], 4);
    ck_assert_uint_eq(collsim_datatype_unpack(packed, 20, items, 2, s), 16);
    ck_assert_int_eq(items[0].i, 7);
    ck_assert(items[0].d == 1.0);
    ck_assert_int_eq(items[1].i, 8);
    ck_assert(items[1].d == -1.0);
    MPI_Type_free(&s);
}
END_TEST

START_TEST(test_datatype_mpi_pack_unpack)
{
    MPI_Datatype v;
    char buf[64];
    int pos = 0, out[8], size;
    const int src[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    double d = 3.5, d2 = 0;

    MPI_Type_vector(2, 1, 2, MPI_INT, &v);
    MPI_Type_commit(&v);
    ck_assert_int_eq(MPI_Pack_size(2, v, MPI_COMM_WORLD, &size), MPI_SUCCESS);
    ck_assert_int_eq(size, 16);
    ck_assert_int_eq(MPI_Pack(src, 2, v, buf, sizeof(buf), &pos, MPI_COMM_WORLD), MPI_SUCCESS);
    ck_assert_int_eq(pos, 16);
    ck_assert_int_eq(MPI_Pack(&d, 1, MPI_DOUBLE, buf, sizeof(buf), &pos, MPI_COMM_WORLD),
                     MPI_SUCCESS);
    ck_assert_int_eq(pos, 24);

    for (int k = 0; k < 8; k++)
        out[k] = -1;
    pos = 0;
    ck_assert_int_eq(MPI_Unpack(buf, 24, &pos, out, 2, v, MPI_COMM_WORLD), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Unpack(buf, 24, &pos, &d2, 1, MPI_DOUBLE, MPI_COMM_WORLD),
                     MPI_SUCCESS);
    ck_assert_int_eq(pos, 24);
    ck_assert(d2 == 3.5);
    /* vector(2, 1, 2) has extent 3 ints: items start at ints 0 and 3. */
    ck_assert(out[0] == 0 && out[1] == -1 && out[2] == 2 && out[3] == 3 && out[4] == -1 &&
              out[5] == 5 && out[6] == -1 && out[7] == -1);

    /* Errors: too small an output, too short an input, bad arguments. */
    pos = 0;
    ck_assert_int_eq(MPI_Pack(src, 2, v, buf, 15, &pos, MPI_COMM_WORLD), MPI_ERR_ARG);
    ck_assert_int_eq(pos, 0);
    ck_assert_int_eq(MPI_Unpack(buf, 12, &pos, out, 2, v, MPI_COMM_WORLD), MPI_ERR_TRUNCATE);
    ck_assert_int_eq(MPI_Pack(src, -1, v, buf, 64, &pos, MPI_COMM_WORLD), MPI_ERR_COUNT);
    ck_assert_int_eq(MPI_Pack(src, 1, MPI_DATATYPE_NULL, buf, 64, &pos, MPI_COMM_WORLD),
                     MPI_ERR_TYPE);
    ck_assert_int_eq(MPI_Pack(src, 1, v, buf, 64, NULL, MPI_COMM_WORLD), MPI_ERR_ARG);
    ck_assert_int_eq(MPI_Pack(src, 1, v, buf, 64, &pos, MPI_COMM_NULL), MPI_ERR_COMM);
    pos = 65;
    ck_assert_int_eq(MPI_Pack(src, 1, v, buf, 64, &pos, MPI_COMM_WORLD), MPI_ERR_ARG);
    ck_assert_int_eq(MPI_Pack_size(1, v, MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
    ck_assert_int_eq(MPI_Pack_size(-1, v, MPI_COMM_WORLD, &size), MPI_ERR_COUNT);
    MPI_Type_free(&v);

    /* An uncommitted type cannot describe data. */
    MPI_Type_contiguous(2, MPI_INT, &v);
    pos = 0;
    ck_assert_int_eq(MPI_Pack(src, 1, v, buf, 64, &pos, MPI_COMM_WORLD), MPI_ERR_TYPE);
    MPI_Type_free(&v);
}
END_TEST

START_TEST(test_datatype_query_argument_errors)
{
    int n;
    MPI_Aint a;

    ck_assert_int_eq(MPI_Type_size(MPI_DATATYPE_NULL, &n), MPI_ERR_TYPE);
    ck_assert_int_eq(MPI_Type_size(MPI_INT, NULL), MPI_ERR_ARG);
    ck_assert_int_eq(MPI_Type_get_extent(MPI_INT, NULL, &a), MPI_ERR_ARG);
    ck_assert_int_eq(MPI_Type_get_extent(MPI_INT, &a, NULL), MPI_ERR_ARG);
    ck_assert_int_eq(MPI_Type_get_true_extent(MPI_DATATYPE_NULL, &a, &a), MPI_ERR_TYPE);
    ck_assert_int_eq(MPI_Type_extent(MPI_DATATYPE_NULL, &a), MPI_ERR_TYPE);
    ck_assert_int_eq(MPI_Type_lb(MPI_INT, NULL), MPI_ERR_ARG);
    ck_assert_int_eq(MPI_Type_ub(MPI_DATATYPE_NULL, &a), MPI_ERR_TYPE);
    ck_assert_int_eq(MPI_Address(&n, NULL), MPI_ERR_ARG);
}
END_TEST

/* MPI_Type_create_f90_*: gfortran's kinds (MPI-3.1 §17.1.9), one handle per parameters, the
 * F90 combiner and the parameters as given, a type that sums as its C layout and may not be
 * freed; kinds that do not exist are MPI_ERR_ARG. (Open MPI 4.1 answers the same sizes.) */
START_TEST(test_datatype_f90_parameterized)
{
    MPI_Datatype r4, r8, r8_again, ld, c8, i4, i8, none = MPI_DATATYPE_NULL;
    int size, ni, na, nd, combiner, ints[2] = {-1, -1};

    ck_assert_int_eq(MPI_Type_create_f90_real(3, MPI_UNDEFINED, &r4), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_create_f90_real(7, 30, &r8), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_create_f90_real(7, 30, &r8_again), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_create_f90_real(18, MPI_UNDEFINED, &ld), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_create_f90_complex(MPI_UNDEFINED, 30, &c8), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_create_f90_integer(9, &i4), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_create_f90_integer(10, &i8), MPI_SUCCESS);
    ck_assert_ptr_eq(r8, r8_again);
    ck_assert_ptr_ne(r4, MPI_FLOAT); /* a handle of its own, with its own envelope */
    MPI_Type_size(r4, &size);
    ck_assert_int_eq(size, 4);
    MPI_Type_size(r8, &size);
    ck_assert_int_eq(size, 8);
    MPI_Type_size(ld, &size);
    ck_assert_int_eq(size, (int)sizeof(long double));
    MPI_Type_size(c8, &size);
    ck_assert_int_eq(size, 8);
    MPI_Type_size(i4, &size);
    ck_assert_int_eq(size, 4);
    MPI_Type_size(i8, &size);
    ck_assert_int_eq(size, 8);

    ck_assert_int_eq(MPI_Type_get_envelope(r8, &ni, &na, &nd, &combiner), MPI_SUCCESS);
    ck_assert_int_eq(combiner, MPI_COMBINER_F90_REAL);
    ck_assert(ni == 2 && na == 0 && nd == 0);
    ck_assert_int_eq(MPI_Type_get_contents(r8, 2, 0, 0, ints, NULL, NULL), MPI_SUCCESS);
    ck_assert(ints[0] == 7 && ints[1] == 30);
    MPI_Type_get_contents(r4, 2, 0, 0, ints, NULL, NULL);
    ck_assert(ints[0] == 3 && ints[1] == MPI_UNDEFINED);
    MPI_Type_get_envelope(c8, &ni, &na, &nd, &combiner);
    ck_assert_int_eq(combiner, MPI_COMBINER_F90_COMPLEX);
    MPI_Type_get_envelope(i8, &ni, &na, &nd, &combiner);
    ck_assert(combiner == MPI_COMBINER_F90_INTEGER && ni == 1);
    MPI_Type_get_contents(i8, 1, 0, 0, ints, NULL, NULL);
    ck_assert_int_eq(ints[0], 10);

    /* it reduces as the C type of its layout */
    double in[2] = {1.5, 2.0}, inout[2] = {0.25, 4.0};
    ck_assert_int_eq(MPI_Reduce_local(in, inout, 2, r8, MPI_SUM), MPI_SUCCESS);
    ck_assert(inout[0] == 1.75 && inout[1] == 6.0);
    long long a = 3, b = 4;
    ck_assert_int_eq(MPI_Reduce_local(&a, &b, 1, i8, MPI_PROD), MPI_SUCCESS);
    ck_assert(b == 12);

    /* predefined: never freed by the program */
    ck_assert_int_eq(MPI_Type_free(&r8), MPI_ERR_TYPE);
    ck_assert_ptr_eq(r8, r8_again);
    /* kinds gfortran does not have here */
    ck_assert_int_eq(MPI_Type_create_f90_real(40, MPI_UNDEFINED, &none), MPI_ERR_ARG);
    ck_assert_int_eq(MPI_Type_create_f90_real(6, 5000, &none), MPI_ERR_ARG);
    ck_assert_int_eq(MPI_Type_create_f90_integer(30, &none), MPI_ERR_ARG);
    ck_assert_int_eq(MPI_Type_create_f90_integer(-1, &none), MPI_ERR_ARG);
    ck_assert_ptr_eq(none, MPI_DATATYPE_NULL);
    ck_assert_int_eq(MPI_Type_create_f90_complex(3, 10, NULL), MPI_ERR_ARG);
}
END_TEST

/* Random-ish nested layouts: pack then unpack restores exactly the type map's bytes. */
START_TEST(test_datatype_nested_round_trip)
{
    MPI_Datatype inner, outer;
    const int lens[] = {2, 1, 1};
    const MPI_Aint disps[] = {0, 12, 40};
    const MPI_Datatype types[] = {MPI_SHORT, MPI_INT, MPI_DOUBLE};
    unsigned char src[4096], dst[4096], mask[4096], packed[4096];
    size_t bytes;
    MPI_Aint lb, extent;

    ck_assert_int_eq(MPI_Type_create_struct(3, lens, disps, types, &inner), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_vector(3, 2, 3, inner, &outer), MPI_SUCCESS);
    MPI_Type_commit(&outer);
    MPI_Type_get_extent(outer, &lb, &extent);
    ck_assert_int_eq(lb, 0);
    ck_assert_int_eq(extent, (2 * 3 + 2) * 48);
    bytes = collsim_datatype_packed_size(2, outer);
    ck_assert_uint_eq(bytes, 2 * 6 * (4 + 4 + 8));
    for (int k = 0; k < 4096; k++)
        src[k] = (unsigned char)(k * 7 + 3);
    collsim_datatype_pack(src, 2, outer, packed);
    memset(dst, 0, sizeof(dst));
    ck_assert_uint_eq(collsim_datatype_unpack(packed, bytes, dst, 2, outer), bytes);
    /* The mask: unpack 0xff everywhere the type map has data. */
    memset(packed, 0xff, bytes);
    memset(mask, 0, sizeof(mask));
    collsim_datatype_unpack(packed, bytes, mask, 2, outer);
    for (int k = 0; k < 4096; k++)
        ck_assert_uint_eq(dst[k], mask[k] ? src[k] : 0);
    MPI_Type_free(&outer);
    MPI_Type_free(&inner);
}
END_TEST

static Suite *
datatype_suite(void)
{
    Suite *s = suite_create("datatype");
    TCase *tc = tcase_create("core");

    tcase_add_checked_fixture(tc, setup_iota, NULL);
    tcase_add_loop_test(tc, test_datatype_predefined_sizes_and_extents, 0, N_PREDEFINED);
    tcase_add_test(tc, test_datatype_predefined_names_and_aliases);
    tcase_add_test(tc, test_datatype_pair_layout_round_trip);
    tcase_add_test(tc, test_datatype_markers_not_for_data);
    tcase_add_test(tc, test_datatype_contiguous);
    tcase_add_test(tc, test_datatype_vector);
    tcase_add_test(tc, test_datatype_hvector);
    tcase_add_test(tc, test_datatype_indexed);
    tcase_add_test(tc, test_datatype_hindexed_and_indexed_block);
    tcase_add_test(tc, test_datatype_struct_alignment_and_round_trip);
    tcase_add_test(tc, test_datatype_struct_homogeneous_and_mixed);
    tcase_add_test(tc, test_datatype_struct_lb_ub_markers);
    tcase_add_test(tc, test_datatype_resized);
    tcase_add_test(tc, test_datatype_dup);
    tcase_add_test(tc, test_datatype_commit_and_free);
    tcase_add_test(tc, test_datatype_constructor_argument_errors);
    tcase_add_test(tc, test_datatype_empty_types);
    tcase_add_test(tc, test_datatype_type_size_undefined_when_huge);
    tcase_add_test(tc, test_datatype_bottom_and_addresses);
    tcase_add_test(tc, test_datatype_get_count_and_elements);
    tcase_add_test(tc, test_datatype_unpack_whole_elements_only);
    tcase_add_test(tc, test_datatype_mpi_pack_unpack);
    tcase_add_test(tc, test_datatype_query_argument_errors);
    tcase_add_test(tc, test_datatype_nested_round_trip);
    tcase_add_test(tc, test_datatype_f90_parameterized);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(datatype_suite());
    int failed;

    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
