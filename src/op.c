/*
 * op.c — predefined and user reduction ops, the op × datatype table, and the kernels.
 *
 * Legality is decided by the one table `reduction_groups` below (MPI-3.1 §5.9.2, §5.9.4);
 * the kernels only say how to compute, per C representation (enum collsim_dt_kind).
 * Kernels load and store through memcpy, so that any alignment of a derived type's elements is
 * fine, and compute in the element's own type:
 *   - integer SUM and PROD wrap modulo 2^bits (computed in uintmax_t, never signed overflow);
 *   - floating MAX/MIN keep inout unless in compares greater/less (a NaN in `in` is ignored, a
 *     NaN in inout stays), so they are deterministic but not symmetric under NaN;
 *   - complex PROD is (a+bi)(c+di) = (ac-bd) + (ad+bc)i in the component precision, written
 *     out so that no library routine or rescaling is involved (build with -ffp-contract=off,
 *     which -std=c11 implies for GCC, so that no fused multiply-add changes the rounding);
 *   - MAXLOC/MINLOC keep inout's value on a tie and take the lower index (§5.9.4).
 * Predefined ops apply to derived types homogeneous in one basic type; a layout that is not a
 * plain array of that type is packed, reduced, and unpacked.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "callsite.h"
#include "datatype.h"
#include "errhandler.h"
#include "handles.h"
#include "op.h"
#include "runtime.h"

/* ------------------------------------------------------------------------------------------ */
/* Predefined ops                                                                               */
/* ------------------------------------------------------------------------------------------ */

/* A predefined op is known to the handle registry from the moment the library loads. */
#define COLLSIM_PREDEFINED_OP(var, code_, mpi_name, commute_)                                  \
    extern struct collsim_op var;                                                              \
    static void __attribute__((constructor)) register_##var(void) { collsim_handle_add(&var); } \
    struct collsim_op var = {                                                                  \
        .magic = COLLSIM_OP_MAGIC,                                                             \
        .code = (code_),                                                                       \
        .predefined = 1,                                                                       \
        .commute = (commute_),                                                                 \
        .fn = NULL,                                                                            \
        .name = mpi_name,                                                                      \
    }

COLLSIM_PREDEFINED_OP(collsim_op_max, COLLSIM_OP_MAX, "MPI_MAX", 1);
COLLSIM_PREDEFINED_OP(collsim_op_min, COLLSIM_OP_MIN, "MPI_MIN", 1);
COLLSIM_PREDEFINED_OP(collsim_op_sum, COLLSIM_OP_SUM, "MPI_SUM", 1);
COLLSIM_PREDEFINED_OP(collsim_op_prod, COLLSIM_OP_PROD, "MPI_PROD", 1);
COLLSIM_PREDEFINED_OP(collsim_op_land, COLLSIM_OP_LAND, "MPI_LAND", 1);
COLLSIM_PREDEFINED_OP(collsim_op_band, COLLSIM_OP_BAND, "MPI_BAND", 1);
COLLSIM_PREDEFINED_OP(collsim_op_lor, COLLSIM_OP_LOR, "MPI_LOR", 1);
COLLSIM_PREDEFINED_OP(collsim_op_bor, COLLSIM_OP_BOR, "MPI_BOR", 1);
COLLSIM_PREDEFINED_OP(collsim_op_lxor, COLLSIM_OP_LXOR, "MPI_LXOR", 1);
COLLSIM_PREDEFINED_OP(collsim_op_bxor, COLLSIM_OP_BXOR, "MPI_BXOR", 1);
COLLSIM_PREDEFINED_OP(collsim_op_maxloc, COLLSIM_OP_MAXLOC, "MPI_MAXLOC", 1);
COLLSIM_PREDEFINED_OP(collsim_op_minloc, COLLSIM_OP_MINLOC, "MPI_MINLOC", 1);
/* replace(in, inout) = in is not commutative; no_op(in, inout) = inout is not either. */
COLLSIM_PREDEFINED_OP(collsim_op_replace, COLLSIM_OP_REPLACE, "MPI_REPLACE", 0);
COLLSIM_PREDEFINED_OP(collsim_op_no_op, COLLSIM_OP_NO_OP, "MPI_NO_OP", 0);

/* ------------------------------------------------------------------------------------------ */
/* The op × datatype table                                                                      */
/* ------------------------------------------------------------------------------------------ */

#define OP_BIT(code) (1u << COLLSIM_OP_##code)

/*
 * MPI-3.1 §5.9.2 "Predefined Reduction Operations" defines groups of basic datatypes and, for
 * each op, the groups it accepts:
 *     MPI_MAX, MPI_MIN          C integer, Fortran integer, Floating point, Multi-language types
 *     MPI_SUM, MPI_PROD         C integer, Fortran integer, Floating point, Complex,
 *                               Multi-language types
 *     MPI_LAND, MPI_LOR, MPI_LXOR   C integer, Logical
 *     MPI_BAND, MPI_BOR, MPI_BXOR   C integer, Fortran integer, Byte, Multi-language types
 * and §5.9.4 gives MPI_MAXLOC and MPI_MINLOC the value-index pair types. Each row below is one
 * group: its members as the standard lists them (restricted to the types mpi.h provides) and
 * the ops it accepts (the table above, transposed). The standard leaves MPI_CHAR out of every
 * group, but Open MPI and MPICH both reduce it as a C integer of type char with the ten
 * integer ops (measured under Open MPI 4.1: SUM of 7, 57, 107 and -99 gives 72; REPLACE and
 * NO_OP are refused), and programs rely on it (the OSU benchmarks' reductions default to
 * MPI_CHAR): it joins the C integers. Likewise the standard leaves the multi-language types
 * (MPI_AINT, MPI_OFFSET, MPI_COUNT) out of the logical ops, but Open MPI reduces them with
 * the functions of the integer they are (ompi/op/op.c maps MPI_AINT to int64_t, whose row has
 * LAND, LOR and LXOR), MPICH accepts them too, and MPICH's own test suite (coll/allred)
 * reduces them with all three: they take every integer op. A type in no row (MPI_WCHAR,
 * MPI_CHARACTER, MPI_PACKED) takes no predefined op. This is the only place legality lives.
 */
static const struct reduction_group {
    const char *name;
    enum collsim_elem_class elem;
    unsigned ops;
    MPI_Datatype types[24]; /* ends at the first NULL or at the end */
} reduction_groups[] = {
    {"C integer", COLLSIM_ELEM_INTEGER,
     OP_BIT(MAX) | OP_BIT(MIN) | OP_BIT(SUM) | OP_BIT(PROD) | OP_BIT(LAND) | OP_BIT(LOR) |
         OP_BIT(LXOR) | OP_BIT(BAND) | OP_BIT(BOR) | OP_BIT(BXOR),
     {MPI_INT, MPI_LONG, MPI_SHORT, MPI_UNSIGNED_SHORT, MPI_UNSIGNED, MPI_UNSIGNED_LONG,
      MPI_LONG_LONG_INT, MPI_UNSIGNED_LONG_LONG, MPI_SIGNED_CHAR, MPI_UNSIGNED_CHAR, MPI_INT8_T,
      MPI_INT16_T, MPI_INT32_T, MPI_INT64_T, MPI_UINT8_T, MPI_UINT16_T, MPI_UINT32_T,
      MPI_UINT64_T, MPI_CHAR}},
    {"Fortran integer", COLLSIM_ELEM_INTEGER,
     OP_BIT(MAX) | OP_BIT(MIN) | OP_BIT(SUM) | OP_BIT(PROD) | OP_BIT(BAND) | OP_BIT(BOR) |
         OP_BIT(BXOR),
     {MPI_INTEGER, MPI_INTEGER1, MPI_INTEGER2, MPI_INTEGER4, MPI_INTEGER8}},
    {"Floating point", COLLSIM_ELEM_FLOATING,
     OP_BIT(MAX) | OP_BIT(MIN) | OP_BIT(SUM) | OP_BIT(PROD),
     {MPI_FLOAT, MPI_DOUBLE, MPI_REAL, MPI_DOUBLE_PRECISION, MPI_LONG_DOUBLE, MPI_REAL4,
      MPI_REAL8, MPI_REAL16}},
    {"Logical", COLLSIM_ELEM_LOGICAL, OP_BIT(LAND) | OP_BIT(LOR) | OP_BIT(LXOR),
     {MPI_LOGICAL, MPI_C_BOOL, MPI_CXX_BOOL}},
    {"Complex", COLLSIM_ELEM_COMPLEX, OP_BIT(SUM) | OP_BIT(PROD),
     {MPI_COMPLEX, MPI_C_COMPLEX, MPI_C_FLOAT_COMPLEX, MPI_C_DOUBLE_COMPLEX,
      MPI_C_LONG_DOUBLE_COMPLEX,
      MPI_DOUBLE_COMPLEX, MPI_COMPLEX8, MPI_COMPLEX16, MPI_COMPLEX32, MPI_CXX_FLOAT_COMPLEX,
      MPI_CXX_DOUBLE_COMPLEX, MPI_CXX_LONG_DOUBLE_COMPLEX}},
    {"Byte", COLLSIM_ELEM_BYTE, OP_BIT(BAND) | OP_BIT(BOR) | OP_BIT(BXOR), {MPI_BYTE}},
    {"Multi-language types", COLLSIM_ELEM_INTEGER,
     OP_BIT(MAX) | OP_BIT(MIN) | OP_BIT(SUM) | OP_BIT(PROD) | OP_BIT(LAND) | OP_BIT(LOR) |
         OP_BIT(LXOR) | OP_BIT(BAND) | OP_BIT(BOR) | OP_BIT(BXOR),
     {MPI_AINT, MPI_OFFSET, MPI_COUNT}},
    {"MINLOC/MAXLOC pairs", COLLSIM_ELEM_PAIR, OP_BIT(MAXLOC) | OP_BIT(MINLOC),
     {MPI_FLOAT_INT, MPI_DOUBLE_INT, MPI_LONG_INT, MPI_2INT, MPI_SHORT_INT, MPI_LONG_DOUBLE_INT,
      MPI_2REAL, MPI_2DOUBLE_PRECISION, MPI_2INTEGER}},
};

/* The group row of a predefined type, or NULL if it belongs to none. */
static const struct reduction_group *
group_of(MPI_Datatype basic)
{
    for (size_t g = 0; g < G_N_ELEMENTS(reduction_groups); g++) {
        const struct reduction_group *row = &reduction_groups[g];
        for (size_t t = 0; t < G_N_ELEMENTS(row->types) && row->types[t] != NULL; t++)
            if (row->types[t] == basic)
                return row;
    }
    return NULL;
}

int
collsim_basic_types_match(MPI_Datatype sent, MPI_Datatype received)
{
    if (sent == NULL || received == NULL || sent == received)
        return TRUE;
    if (sent == MPI_BYTE || sent == MPI_PACKED || received == MPI_BYTE || received == MPI_PACKED)
        return TRUE;
    const struct reduction_group *a = group_of(sent), *b = group_of(received);
    return a != NULL && b != NULL && a->elem == b->elem && a->elem != COLLSIM_ELEM_PAIR &&
           sent->size == received->size;
}

/* ------------------------------------------------------------------------------------------ */
/* Kernels                                                                                      */
/* ------------------------------------------------------------------------------------------ */

/*
 * Apply to n elements: element k of in and of inout starts at k·stride; for pairs the index
 * sits `ioff` bytes after the value.
 */
typedef void kernel_fn(const char *in, char *io, size_t n, size_t stride, size_t ioff);

/*
 * The kernels are vectorized where the elements are packed (GCC vectorizes at -O2 only loops
 * that need no run-time check, and in and inout may overlap as far as it knows): a sum of
 * 64 KiB of doubles was a fifth of a recursive-doubling Allreduce's wall time, though mostly
 * waiting on memory there (3 % less wall time vectorized). Element k still gets
 * EXPR(a_k, b_k) alone, so results are the same bit for bit.
 */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("tree-vectorize", "vect-cost-model=dynamic")
#endif

#define ELEMENTWISE_LOOP(T, EXPR, STRIDE)                                                      \
    for (size_t k = 0; k < n; k++) {                                                           \
        T a, b, r;                                                                             \
        memcpy(&a, in + k * (STRIDE), sizeof(T));                                              \
        memcpy(&b, io + k * (STRIDE), sizeof(T));                                              \
        r = (T)(EXPR);                                                                         \
        memcpy(io + k * (STRIDE), &r, sizeof(T));                                              \
    }

/* r = EXPR(a, b) with a from in and b from inout, stored to inout. */
#define DEFINE_ELEMENTWISE(fname, T, EXPR)                                                     \
    static void fname(const char *in, char *io, size_t n, size_t stride, size_t ioff)         \
    {                                                                                          \
        (void)ioff;                                                                            \
        if (stride == sizeof(T)) { /* a constant stride: the loop the compiler vectorizes */   \
            ELEMENTWISE_LOOP(T, EXPR, sizeof(T))                                               \
        } else {                                                                               \
            ELEMENTWISE_LOOP(T, EXPR, stride)                                                  \
        }                                                                                      \
    }

#define DEFINE_INTEGER_KERNELS(K, T)                                                           \
    DEFINE_ELEMENTWISE(max_##K, T, a > b ? a : b)                                              \
    DEFINE_ELEMENTWISE(min_##K, T, a < b ? a : b)                                              \
    DEFINE_ELEMENTWISE(sum_##K, T, (uintmax_t)a + (uintmax_t)b)                                \
    DEFINE_ELEMENTWISE(prod_##K, T, (uintmax_t)a * (uintmax_t)b)                               \
    DEFINE_ELEMENTWISE(land_##K, T, (a != 0) && (b != 0))                                      \
    DEFINE_ELEMENTWISE(lor_##K, T, (a != 0) || (b != 0))                                       \
    DEFINE_ELEMENTWISE(lxor_##K, T, (a != 0) != (b != 0))                                      \
    DEFINE_ELEMENTWISE(band_##K, T, a & b)                                                     \
    DEFINE_ELEMENTWISE(bor_##K, T, a | b)                                                      \
    DEFINE_ELEMENTWISE(bxor_##K, T, a ^ b)

#define DEFINE_FLOATING_KERNELS(K, T)                                                          \
    DEFINE_ELEMENTWISE(max_##K, T, a > b ? a : b)                                              \
    DEFINE_ELEMENTWISE(min_##K, T, a < b ? a : b)                                              \
    DEFINE_ELEMENTWISE(sum_##K, T, a + b)                                                      \
    DEFINE_ELEMENTWISE(prod_##K, T, a * b)

/* Complex numbers as two components of T (C11 §6.2.5: same layout as T _Complex). */
#define DEFINE_COMPLEX_KERNELS(K, T)                                                           \
    static void sum_##K(const char *in, char *io, size_t n, size_t stride, size_t ioff)       \
    {                                                                                          \
        (void)ioff;                                                                            \
        for (size_t k = 0; k < n; k++) {                                                       \
            T a[2], b[2];                                                                      \
            memcpy(a, in + k * stride, sizeof(a));                                             \
            memcpy(b, io + k * stride, sizeof(b));                                             \
            b[0] = a[0] + b[0];                                                                \
            b[1] = a[1] + b[1];                                                                \
            memcpy(io + k * stride, b, sizeof(b));                                             \
        }                                                                                      \
    }                                                                                          \
    static void prod_##K(const char *in, char *io, size_t n, size_t stride, size_t ioff)      \
    {                                                                                          \
        (void)ioff;                                                                            \
        for (size_t k = 0; k < n; k++) {                                                       \
            T a[2], b[2], re, im;                                                              \
            memcpy(a, in + k * stride, sizeof(a));                                             \
            memcpy(b, io + k * stride, sizeof(b));                                             \
            re = a[0] * b[0] - a[1] * b[1];                                                    \
            im = a[0] * b[1] + a[1] * b[0];                                                    \
            b[0] = re;                                                                         \
            b[1] = im;                                                                         \
            memcpy(io + k * stride, b, sizeof(b));                                             \
        }                                                                                      \
    }

/* MAXLOC (CMP is >) and MINLOC (CMP is <) on (value V, index I) pairs. */
#define DEFINE_LOC_KERNEL(fname, V, I, CMP)                                                    \
    static void fname(const char *in, char *io, size_t n, size_t stride, size_t ioff)         \
    {                                                                                          \
        for (size_t k = 0; k < n; k++) {                                                       \
            V av, bv;                                                                          \
            I ai, bi;                                                                          \
            memcpy(&av, in + k * stride, sizeof(V));                                           \
            memcpy(&ai, in + k * stride + ioff, sizeof(I));                                    \
            memcpy(&bv, io + k * stride, sizeof(V));                                           \
            memcpy(&bi, io + k * stride + ioff, sizeof(I));                                    \
            if (av CMP bv) {                                                                   \
                memcpy(io + k * stride, &av, sizeof(V));                                       \
                memcpy(io + k * stride + ioff, &ai, sizeof(I));                                \
            } else if (av == bv && ai < bi) {                                                  \
                memcpy(io + k * stride + ioff, &ai, sizeof(I));                                \
            }                                                                                  \
        }                                                                                      \
    }

#define DEFINE_PAIR_KERNELS(K, V, I)                                                           \
    DEFINE_LOC_KERNEL(maxloc_##K, V, I, >)                                                     \
    DEFINE_LOC_KERNEL(minloc_##K, V, I, <)

/* Kinds that have kernels, with their C types. MPI_WCHAR and MPI_CHARACTER take no op. */
#define INTEGER_KINDS(X)                                                                       \
    X(CHAR, char)                                                                              \
    X(SCHAR, signed char)                                                                      \
    X(UCHAR, unsigned char)                                                                    \
    X(SHORT, short)                                                                            \
    X(USHORT, unsigned short)                                                                  \
    X(INT, int)                                                                                \
    X(UINT, unsigned)                                                                          \
    X(LONG, long)                                                                              \
    X(ULONG, unsigned long)                                                                    \
    X(LLONG, long long)                                                                        \
    X(ULLONG, unsigned long long)                                                              \
    X(INT8, int8_t)                                                                            \
    X(INT16, int16_t)                                                                          \
    X(INT32, int32_t)                                                                          \
    X(INT64, int64_t)                                                                          \
    X(UINT8, uint8_t)                                                                          \
    X(UINT16, uint16_t)                                                                        \
    X(UINT32, uint32_t)                                                                        \
    X(UINT64, uint64_t)                                                                        \
    X(AINT, MPI_Aint)
#define FLOATING_KINDS(X)                                                                      \
    X(FLOAT, float)                                                                            \
    X(DOUBLE, double)                                                                          \
    X(LDOUBLE, long double)
#define COMPLEX_KINDS(X)                                                                       \
    X(CFLOAT, float)                                                                           \
    X(CDOUBLE, double)                                                                         \
    X(CLDOUBLE, long double)
#define PAIR_KINDS(X)                                                                          \
    X(FLOAT_INT, float, int)                                                                   \
    X(DOUBLE_INT, double, int)                                                                 \
    X(LONG_INT, long, int)                                                                     \
    X(2INT, int, int)                                                                          \
    X(SHORT_INT, short, int)                                                                   \
    X(LDOUBLE_INT, long double, int)                                                           \
    X(2FLOAT, float, float)                                                                    \
    X(2DOUBLE, double, double)

INTEGER_KINDS(DEFINE_INTEGER_KERNELS)
FLOATING_KINDS(DEFINE_FLOATING_KERNELS)
COMPLEX_KINDS(DEFINE_COMPLEX_KERNELS)
PAIR_KINDS(DEFINE_PAIR_KERNELS)

#define INTEGER_ROW(K, T)                                                                      \
    [COLLSIM_KIND_##K] = {                                                                     \
        [COLLSIM_OP_MAX] = max_##K,                                                            \
        [COLLSIM_OP_MIN] = min_##K,                                                            \
        [COLLSIM_OP_SUM] = sum_##K,                                                            \
        [COLLSIM_OP_PROD] = prod_##K,                                                          \
        [COLLSIM_OP_LAND] = land_##K,                                                          \
        [COLLSIM_OP_LOR] = lor_##K,                                                            \
        [COLLSIM_OP_LXOR] = lxor_##K,                                                          \
        [COLLSIM_OP_BAND] = band_##K,                                                          \
        [COLLSIM_OP_BOR] = bor_##K,                                                            \
        [COLLSIM_OP_BXOR] = bxor_##K,                                                          \
    },
#define FLOATING_ROW(K, T)                                                                     \
    [COLLSIM_KIND_##K] = {                                                                     \
        [COLLSIM_OP_MAX] = max_##K,                                                            \
        [COLLSIM_OP_MIN] = min_##K,                                                            \
        [COLLSIM_OP_SUM] = sum_##K,                                                            \
        [COLLSIM_OP_PROD] = prod_##K,                                                          \
    },
#define COMPLEX_ROW(K, T)                                                                      \
    [COLLSIM_KIND_##K] = {                                                                     \
        [COLLSIM_OP_SUM] = sum_##K,                                                            \
        [COLLSIM_OP_PROD] = prod_##K,                                                          \
    },
#define PAIR_ROW(K, V, I)                                                                      \
    [COLLSIM_KIND_##K] = {                                                                     \
        [COLLSIM_OP_MAXLOC] = maxloc_##K,                                                      \
        [COLLSIM_OP_MINLOC] = minloc_##K,                                                      \
    },

/* How to compute each (kind, op); NULL where nothing is defined. Not a legality table. */
static kernel_fn *const kernels[COLLSIM_KIND_COUNT][COLLSIM_OP_REPLACE] = {
    INTEGER_KINDS(INTEGER_ROW) FLOATING_KINDS(FLOATING_ROW) COMPLEX_KINDS(COMPLEX_ROW)
        PAIR_KINDS(PAIR_ROW)};

/* ------------------------------------------------------------------------------------------ */
/* Internal API                                                                                 */
/* ------------------------------------------------------------------------------------------ */

int
collsim_op_check_handle(MPI_Op op)
{
    if (!collsim_handle_readable(op) || op->magic != COLLSIM_OP_MAGIC)
        return MPI_ERR_OP;
    /* freed by the program, alive while an operation it started holds it */
    if (op->freed && !collsim_runtime->acts_for_operation())
        return MPI_ERR_OP;
    return MPI_SUCCESS;
}

MPI_Op
collsim_op_ref(MPI_Op op)
{
    if (op != MPI_OP_NULL && !op->predefined)
        op->refcount++;
    return op;
}

void
collsim_op_unref(MPI_Op op)
{
    if (op == MPI_OP_NULL || op->predefined || --op->refcount > 0)
        return;
    op->magic = 0;
    collsim_handle_remove(op);
    free(op);
}

const char *
collsim_op_name(MPI_Op op)
{
    if (op == MPI_OP_NULL)
        return "MPI_OP_NULL";
    if (!collsim_handle_readable(op) || op->magic != COLLSIM_OP_MAGIC)
        return "(invalid op)";
    return op->name;
}

int
collsim_op_check(MPI_Op op, MPI_Datatype dt)
{
    const struct reduction_group *group;

    if (collsim_datatype_check(dt) != MPI_SUCCESS)
        return MPI_ERR_TYPE;
    if (collsim_op_check_handle(op) != MPI_SUCCESS)
        return MPI_ERR_OP;
    if (op->code == COLLSIM_OP_USER)
        return MPI_SUCCESS;
    if (op->code == COLLSIM_OP_REPLACE || op->code == COLLSIM_OP_NO_OP)
        return MPI_ERR_OP;
    if (dt->mixed)
        return MPI_ERR_OP;
    if (dt->basic == NULL) /* no elements at all: nothing to compute */
        return MPI_SUCCESS;
    group = group_of(dt->basic);
    if (group == NULL || !(group->ops & (1u << op->code)))
        return MPI_ERR_OP;
    return MPI_SUCCESS;
}

void
collsim_op_describe_error(MPI_Op op, MPI_Datatype dt, char *buf, size_t size)
{
    const char *op_name = collsim_op_name(op);
    const char *dt_name = collsim_datatype_name(dt);

    switch (collsim_op_check(op, dt)) {
    case MPI_SUCCESS:
        snprintf(buf, size, "%s", "");
        break;
    case MPI_ERR_TYPE:
        snprintf(buf, size, "datatype %s is not a valid committed datatype", dt_name);
        break;
    default:
        if (collsim_op_check_handle(op) != MPI_SUCCESS)
            snprintf(buf, size, "op %s is not a valid operation", op_name);
        else if (op->code == COLLSIM_OP_REPLACE || op->code == COLLSIM_OP_NO_OP)
            snprintf(buf, size, "op %s is for one-sided accumulate only, not for reductions",
                     op_name);
        else if (dt->mixed)
            snprintf(buf, size,
                     "op %s is not defined for datatype %s, whose elements are of different "
                     "predefined types (use a user-defined op)",
                     op_name, dt_name);
        else if (dt->basic != dt)
            snprintf(buf, size,
                     "op %s is not defined for datatype %s, made of %s (MPI-3.1 section 5.9.2)",
                     op_name, dt_name, collsim_datatype_name(dt->basic));
        else
            snprintf(buf, size, "op %s is not defined for datatype %s (MPI-3.1 section 5.9.2)",
                     op_name, dt_name);
        break;
    }
}

/* inout = in for count items of dt, whatever the layout. */
static int
apply_replace(const void *in, void *inout, int count, MPI_Datatype dt)
{
    size_t bytes = collsim_datatype_packed_size(count, dt);
    char *tmp;

    if (dt->contiguous) {
        memmove(inout, in, bytes);
        return MPI_SUCCESS;
    }
    tmp = malloc(bytes);
    if (tmp == NULL)
        return MPI_ERR_NO_MEM;
    collsim_datatype_pack(in, count, dt, tmp);
    collsim_datatype_unpack(tmp, bytes, inout, count, dt);
    free(tmp);
    return MPI_SUCCESS;
}

int
collsim_op_apply(MPI_Op op, const void *in, void *inout, int count, MPI_Datatype dt)
{
    MPI_Datatype basic = dt->basic;
    kernel_fn *kernel;
    size_t n, bytes;
    char *tin, *tio;
    int rc = MPI_SUCCESS;

    if (count <= 0)
        return MPI_SUCCESS;
    switch (op->code) {
    case COLLSIM_OP_USER: {
        int len = count;
        MPI_Datatype type = dt;
        if (collsim_runtime->user_function != NULL)
            collsim_runtime->user_function(1);
        op->fn((void *)(uintptr_t)in, inout, &len, &type);
        if (collsim_runtime->user_function != NULL)
            collsim_runtime->user_function(0);
        return MPI_SUCCESS;
    }
    case COLLSIM_OP_NO_OP:
        return MPI_SUCCESS;
    case COLLSIM_OP_REPLACE:
        return apply_replace(in, inout, count, dt);
    default:
        break;
    }
    if (dt->mixed)
        return MPI_ERR_OP;
    if (basic == NULL)
        return MPI_SUCCESS;
    kernel = kernels[basic->kind][op->code];
    if (kernel == NULL)
        return MPI_ERR_OP;
    n = collsim_datatype_basic_count(count, dt);

    /* The buffers are plain arrays of the basic type: reduce in place. */
    if (dt == basic || (dt->contiguous && basic->contiguous)) {
        size_t ioff = basic->nsegs == 2 ? (size_t)basic->segs[1].disp : basic->segs[0].elem_size;
        kernel(in, inout, n, (size_t)collsim_datatype_extent(basic), ioff);
        return MPI_SUCCESS;
    }

    /* Any other layout: pack both operands, reduce the packed elements, unpack the result. */
    bytes = collsim_datatype_packed_size(count, dt);
    tin = malloc(bytes);
    tio = malloc(bytes);
    if (tin == NULL || tio == NULL) {
        rc = MPI_ERR_NO_MEM;
        goto out_free;
    }
    collsim_datatype_pack(in, count, dt, tin);
    collsim_datatype_pack(inout, count, dt, tio);
    kernel(tin, tio, n, basic->size, basic->segs[0].elem_size);
    collsim_datatype_unpack(tio, bytes, inout, count, dt);
out_free:
    free(tin);
    free(tio);
    return rc;
}

void
collsim_op_work(MPI_Op op, MPI_Datatype dt, int count, struct collsim_op_work *work)
{
    const struct reduction_group *group = dt->basic ? group_of(dt->basic) : NULL;

    work->op = op->code;
    work->elem = group ? group->elem : COLLSIM_ELEM_OTHER;
    if (dt->basic != NULL)
        work->elements = collsim_datatype_basic_count(count, dt);
    else
        work->elements = count > 0 ? (size_t)count * dt->prims_per_item : 0;
}

/* ------------------------------------------------------------------------------------------ */
/* MPI entry points                                                                             */
/* ------------------------------------------------------------------------------------------ */

int
MPI_Op_create(MPI_User_function *function, int commute, MPI_Op *op)
{
    MPI_Op newop;

    if (function == NULL)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Op_create",
                             "function argument is NULL");
    if (op == NULL)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Op_create", "op argument is NULL");
    newop = calloc(1, sizeof(*newop));
    if (newop == NULL)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_NO_MEM, "MPI_Op_create", "out of memory");
    collsim_handle_add(newop);
    newop->magic = COLLSIM_OP_MAGIC;
    newop->code = COLLSIM_OP_USER;
    newop->predefined = 0;
    newop->commute = commute != 0;
    newop->fn = function;
    newop->name = "user-defined op";
    newop->refcount = 1;
    collsim_handle_hold(newop, COLLSIM_HELD_OP, "MPI_Op_create", COLLSIM_CALLER());
    *op = newop;
    return MPI_SUCCESS;
}

int
MPI_Op_free(MPI_Op *op)
{
    if (op == NULL)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Op_free", "op argument is NULL");
    if (collsim_op_check_handle(*op) != MPI_SUCCESS)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_OP, "MPI_Op_free",
                             "op argument is not a valid operation (%s)", collsim_op_name(*op));
    if ((*op)->predefined)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_OP, "MPI_Op_free",
                             "op argument is the predefined operation %s, which cannot be freed",
                             (*op)->name);
    MPI_Op freed = *op;
    freed->freed = 1;
    collsim_handle_let_go(freed);
    *op = MPI_OP_NULL;
    collsim_op_unref(freed);
    return MPI_SUCCESS;
}

int
MPI_Op_commutative(MPI_Op op, int *commute)
{
    if (collsim_op_check_handle(op) != MPI_SUCCESS)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_OP, "MPI_Op_commutative",
                             "op argument is not a valid operation (%s)", collsim_op_name(op));
    if (commute == NULL)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Op_commutative",
                             "commute argument is NULL");
    *commute = op->commute;
    return MPI_SUCCESS;
}

/*
 * inoutbuf[i] = inbuf[i] op inoutbuf[i]. Arguments are checked in order, then the compute
 * time is charged through the runtime hook, then the op is applied.
 */
int
MPI_Reduce_local(const void *inbuf, void *inoutbuf, int count, MPI_Datatype datatype, MPI_Op op)
{
    const char *call = "MPI_Reduce_local";
    char why[256];
    int rc;

    if (inbuf == MPI_IN_PLACE)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_BUFFER, call,
                             "inbuf argument is MPI_IN_PLACE, which MPI_Reduce_local forbids");
    if (inoutbuf == MPI_IN_PLACE)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_BUFFER, call,
                             "inoutbuf argument is MPI_IN_PLACE, which MPI_Reduce_local forbids");
    if (count < 0)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_COUNT, call,
                             "count argument is negative (%d)", count);
    if (collsim_datatype_check(datatype) != MPI_SUCCESS)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_TYPE, call,
                             "datatype argument is not a valid committed datatype (%s)",
                             collsim_datatype_name(datatype));
    if (collsim_op_check_handle(op) != MPI_SUCCESS)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_OP, call,
                             "op argument is not a valid operation (%s)", collsim_op_name(op));
    rc = collsim_op_check(op, datatype);
    if (rc != MPI_SUCCESS) {
        collsim_op_describe_error(op, datatype, why, sizeof(why));
        return collsim_error(MPI_COMM_WORLD, rc, call, "op argument: %s", why);
    }
    /* A predefined or contiguous type has its data at the buffer, so MPI_BOTTOM (NULL) is
     * wrong there; other derived types may use absolute displacements. */
    if (count > 0 && datatype->size > 0 &&
        (datatype->predefined || collsim_datatype_is_contiguous(datatype)) &&
        (inbuf == NULL || inoutbuf == NULL))
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_BUFFER, call, "%s argument is NULL",
                             inbuf == NULL ? "inbuf" : "inoutbuf");

    /* sizes-only runs (payload none): the buffers hold no data (often shared scratch, which
     * the algorithms pass as both), so only the charge below happens; simulated time is the
     * same as with data */
    gboolean moves = collsim_runtime->moves_payload == NULL || collsim_runtime->moves_payload();
    /* inbuf is IN, inoutbuf INOUT: they may not be aliased (MPI-3.1 2.3); an overlap reads
     * items the op has already overwritten */
    if (moves && collsim_buffers_overlap(inbuf, count, datatype, inoutbuf, count, datatype))
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_BUFFER, call,
                             "inbuf and inoutbuf overlap (inoutbuf starts %lld bytes from "
                             "inbuf)",
                             (long long)((intptr_t)inoutbuf - (intptr_t)inbuf));

    collsim_runtime->charge_op(op, datatype, count);
    if (!moves)
        return MPI_SUCCESS;
    rc = collsim_op_apply(op, inbuf, inoutbuf, count, datatype);
    if (rc != MPI_SUCCESS)
        return collsim_error(MPI_COMM_WORLD, rc, call, "applying %s to %s failed (%s)",
                             collsim_op_name(op), collsim_datatype_name(datatype),
                             rc == MPI_ERR_NO_MEM ? "out of memory" : "no kernel");
    return MPI_SUCCESS;
}
