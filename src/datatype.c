/*
 * datatype.c — predefined datatypes, derived-type constructors, queries, pack and unpack.
 *
 * Every constructor is a list of "instances": n copies of a child type laid at
 * base, base + extent(child), …, base + (n-1)·extent(child). A builder folds the instances into
 * the flattened representation described in datatype.h (segments in type-map order, bounds
 * with MPI-1 sticky markers, homogeneity). The rules, from MPI-3.1 §4.1.6–4.1.7:
 *   - lb is the least lb of the instances that carry an lb marker if any does, else the least
 *     lb of the instances that hold data; ub likewise with ub markers and the greatest ub;
 *   - MPI_Type_create_struct and MPI_Type_struct round the extent up to a multiple of the
 *     largest alignment inside (the standard's ε), unless a bound is marked;
 *   - MPI_Type_create_resized marks both bounds, and so do subarray and darray (lb 0, the
 *     whole array's extent), whose type maps are the selected elements in array order.
 * Every constructor remembers its arguments (MPI_Type_get_contents). "external32" packing
 * writes each element big-endian with the standard's sizes (MPI_LONG in 4 bytes, MPI_WCHAR in
 * 2, long double as IEEE binary128), element kinds coming from each segment's `ext` code.
 * Invariants: see datatype.h. Errors of MPI entry points go through collsim_error() on
 * MPI_COMM_WORLD (MPI_Pack/MPI_Unpack: on their communicator).
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>

#include <glib.h>

#include "attr.h"
#include "callsite.h"
#include "comm.h"
#include "datatype.h"
#include "errhandler.h"
#include "handles.h"
#include "runtime.h"

/* ------------------------------------------------------------------------------------------ */
/* Predefined datatypes                                                                         */
/* ------------------------------------------------------------------------------------------ */

/* A predefined type of one C type: one element, dense. */
/* A predefined object is known to the handle registry from the moment the library loads. */
#define REGISTERED(var)                                                                         \
    extern struct collsim_datatype var;                                                         \
    static void __attribute__((constructor)) register_##var(void) { collsim_handle_add(&var); }

#define COLLSIM_PRIMITIVE(var, mpi_name, ctype, kind_)                                          \
    REGISTERED(var)                                                                             \
    struct collsim_datatype var = {                                                             \
        .magic = COLLSIM_DATATYPE_MAGIC,                                                        \
        .predefined = 1,                                                                        \
        .committed = 1,                                                                         \
        .kind = (kind_),                                                                        \
        .name = mpi_name,                                                                       \
        .size = sizeof(ctype),                                                                  \
        .lb = 0,                                                                                \
        .ub = sizeof(ctype),                                                                    \
        .true_lb = 0,                                                                           \
        .true_ub = sizeof(ctype),                                                               \
        .has_data = 1,                                                                          \
        .align = _Alignof(ctype),                                                               \
        .nsegs = 1,                                                                             \
        .segs = (struct collsim_dt_seg[]){{0, sizeof(ctype), sizeof(ctype), COLLSIM_EXT_KIND}}, \
        .contiguous = 1,                                                                        \
        .basic = &var,                                                                          \
        .basic_per_item = 1,                                                                    \
        .prims_per_item = 1,                                                                    \
    }

/* Value and index of a pair type merge into one segment when they have one size and touch. */
#define PAIR_MERGES(S, V, I) (sizeof(V) == sizeof(I) && offsetof(S, i) == sizeof(V))

/*
 * A value-index pair type with the C struct layout S {V v; I i;}: size excludes the padding,
 * extent is sizeof(S). It counts as one basic element (for ops) and two primitive elements.
 */
#define COLLSIM_PAIR(var, mpi_name, S, V, I, kind_)                                             \
    REGISTERED(var)                                                                             \
    struct collsim_datatype var = {                                                             \
        .magic = COLLSIM_DATATYPE_MAGIC,                                                        \
        .predefined = 1,                                                                        \
        .committed = 1,                                                                         \
        .kind = (kind_),                                                                        \
        .name = mpi_name,                                                                       \
        .size = sizeof(V) + sizeof(I),                                                          \
        .lb = 0,                                                                                \
        .ub = sizeof(S),                                                                        \
        .true_lb = 0,                                                                           \
        .true_ub = offsetof(S, i) + sizeof(I),                                                  \
        .has_data = 1,                                                                          \
        .align = _Alignof(S),                                                                   \
        .nsegs = PAIR_MERGES(S, V, I) ? 1 : 2,                                                  \
        .segs = (struct collsim_dt_seg[]){                                                      \
            {0, PAIR_MERGES(S, V, I) ? sizeof(V) + sizeof(I) : sizeof(V), sizeof(V),  \
             COLLSIM_EXT_KIND},                                                                 \
            {offsetof(S, i), sizeof(I), sizeof(I), COLLSIM_EXT_KIND}},                          \
        .contiguous = PAIR_MERGES(S, V, I) && sizeof(S) == sizeof(V) + sizeof(I),               \
        .basic = &var,                                                                          \
        .basic_per_item = 1,                                                                    \
        .prims_per_item = 2,                                                                    \
    }

/* The MPI-1 bound markers: no data, a marked bound at 0. */
#define COLLSIM_MARKER(var, mpi_name, which)                                                    \
    REGISTERED(var)                                                                             \
    struct collsim_datatype var = {                                                             \
        .magic = COLLSIM_DATATYPE_MAGIC,                                                        \
        .predefined = 1,                                                                        \
        .committed = 1,                                                                         \
        .kind = COLLSIM_KIND_NONE,                                                              \
        .name = mpi_name,                                                                       \
        .which = 1,                                                                             \
        .align = 1,                                                                             \
        .contiguous = 1,                                                                        \
    }

COLLSIM_PRIMITIVE(collsim_dt_char, "MPI_CHAR", char, COLLSIM_KIND_CHAR);
COLLSIM_PRIMITIVE(collsim_dt_signed_char, "MPI_SIGNED_CHAR", signed char, COLLSIM_KIND_SCHAR);
COLLSIM_PRIMITIVE(collsim_dt_unsigned_char, "MPI_UNSIGNED_CHAR", unsigned char,
                  COLLSIM_KIND_UCHAR);
COLLSIM_PRIMITIVE(collsim_dt_byte, "MPI_BYTE", unsigned char, COLLSIM_KIND_UCHAR);
COLLSIM_PRIMITIVE(collsim_dt_wchar, "MPI_WCHAR", wchar_t, COLLSIM_KIND_WCHAR);
COLLSIM_PRIMITIVE(collsim_dt_short, "MPI_SHORT", short, COLLSIM_KIND_SHORT);
COLLSIM_PRIMITIVE(collsim_dt_unsigned_short, "MPI_UNSIGNED_SHORT", unsigned short,
                  COLLSIM_KIND_USHORT);
COLLSIM_PRIMITIVE(collsim_dt_int, "MPI_INT", int, COLLSIM_KIND_INT);
COLLSIM_PRIMITIVE(collsim_dt_unsigned, "MPI_UNSIGNED", unsigned, COLLSIM_KIND_UINT);
COLLSIM_PRIMITIVE(collsim_dt_long, "MPI_LONG", long, COLLSIM_KIND_LONG);
COLLSIM_PRIMITIVE(collsim_dt_unsigned_long, "MPI_UNSIGNED_LONG", unsigned long,
                  COLLSIM_KIND_ULONG);
COLLSIM_PRIMITIVE(collsim_dt_long_long, "MPI_LONG_LONG_INT", long long, COLLSIM_KIND_LLONG);
COLLSIM_PRIMITIVE(collsim_dt_unsigned_long_long, "MPI_UNSIGNED_LONG_LONG", unsigned long long,
                  COLLSIM_KIND_ULLONG);
COLLSIM_PRIMITIVE(collsim_dt_float, "MPI_FLOAT", float, COLLSIM_KIND_FLOAT);
COLLSIM_PRIMITIVE(collsim_dt_double, "MPI_DOUBLE", double, COLLSIM_KIND_DOUBLE);
COLLSIM_PRIMITIVE(collsim_dt_long_double, "MPI_LONG_DOUBLE", long double, COLLSIM_KIND_LDOUBLE);
/* _Bool is one byte; the kernels treat it as unsigned char (no loads of invalid bools). */
COLLSIM_PRIMITIVE(collsim_dt_c_bool, "MPI_C_BOOL", _Bool, COLLSIM_KIND_UCHAR);
COLLSIM_PRIMITIVE(collsim_dt_int8_t, "MPI_INT8_T", int8_t, COLLSIM_KIND_INT8);
COLLSIM_PRIMITIVE(collsim_dt_int16_t, "MPI_INT16_T", int16_t, COLLSIM_KIND_INT16);
COLLSIM_PRIMITIVE(collsim_dt_int32_t, "MPI_INT32_T", int32_t, COLLSIM_KIND_INT32);
COLLSIM_PRIMITIVE(collsim_dt_int64_t, "MPI_INT64_T", int64_t, COLLSIM_KIND_INT64);
COLLSIM_PRIMITIVE(collsim_dt_uint8_t, "MPI_UINT8_T", uint8_t, COLLSIM_KIND_UINT8);
COLLSIM_PRIMITIVE(collsim_dt_uint16_t, "MPI_UINT16_T", uint16_t, COLLSIM_KIND_UINT16);
COLLSIM_PRIMITIVE(collsim_dt_uint32_t, "MPI_UINT32_T", uint32_t, COLLSIM_KIND_UINT32);
COLLSIM_PRIMITIVE(collsim_dt_uint64_t, "MPI_UINT64_T", uint64_t, COLLSIM_KIND_UINT64);
COLLSIM_PRIMITIVE(collsim_dt_c_float_complex, "MPI_C_FLOAT_COMPLEX", float _Complex,
                  COLLSIM_KIND_CFLOAT);
/* the same C type, but a type of its own with its own name, as in Open MPI and MPICH */
COLLSIM_PRIMITIVE(collsim_dt_c_complex, "MPI_C_COMPLEX", float _Complex, COLLSIM_KIND_CFLOAT);
COLLSIM_PRIMITIVE(collsim_dt_c_double_complex, "MPI_C_DOUBLE_COMPLEX", double _Complex,
                  COLLSIM_KIND_CDOUBLE);
COLLSIM_PRIMITIVE(collsim_dt_c_long_double_complex, "MPI_C_LONG_DOUBLE_COMPLEX",
                  long double _Complex, COLLSIM_KIND_CLDOUBLE);
COLLSIM_PRIMITIVE(collsim_dt_aint, "MPI_AINT", MPI_Aint, COLLSIM_KIND_AINT);
COLLSIM_PRIMITIVE(collsim_dt_offset, "MPI_OFFSET", MPI_Offset, COLLSIM_KIND_LLONG);
COLLSIM_PRIMITIVE(collsim_dt_count, "MPI_COUNT", MPI_Count, COLLSIM_KIND_LLONG);
COLLSIM_PRIMITIVE(collsim_dt_packed, "MPI_PACKED", unsigned char, COLLSIM_KIND_UCHAR);

COLLSIM_PAIR(collsim_dt_float_int, "MPI_FLOAT_INT", struct collsim_pair_float_int, float, int,
             COLLSIM_KIND_FLOAT_INT);
COLLSIM_PAIR(collsim_dt_double_int, "MPI_DOUBLE_INT", struct collsim_pair_double_int, double,
             int, COLLSIM_KIND_DOUBLE_INT);
COLLSIM_PAIR(collsim_dt_long_int, "MPI_LONG_INT", struct collsim_pair_long_int, long, int,
             COLLSIM_KIND_LONG_INT);
COLLSIM_PAIR(collsim_dt_2int, "MPI_2INT", struct collsim_pair_2int, int, int, COLLSIM_KIND_2INT);
COLLSIM_PAIR(collsim_dt_short_int, "MPI_SHORT_INT", struct collsim_pair_short_int, short, int,
             COLLSIM_KIND_SHORT_INT);
COLLSIM_PAIR(collsim_dt_long_double_int, "MPI_LONG_DOUBLE_INT", struct collsim_pair_ldouble_int,
             long double, int, COLLSIM_KIND_LDOUBLE_INT);

/* Fortran types with the layout gfortran gives them on the host (INTEGER = int, …). */
COLLSIM_PRIMITIVE(collsim_dt_integer, "MPI_INTEGER", int, COLLSIM_KIND_INT);
COLLSIM_PRIMITIVE(collsim_dt_real, "MPI_REAL", float, COLLSIM_KIND_FLOAT);
COLLSIM_PRIMITIVE(collsim_dt_double_precision, "MPI_DOUBLE_PRECISION", double,
                  COLLSIM_KIND_DOUBLE);
COLLSIM_PRIMITIVE(collsim_dt_logical, "MPI_LOGICAL", int, COLLSIM_KIND_INT);
COLLSIM_PRIMITIVE(collsim_dt_complex, "MPI_COMPLEX", float _Complex, COLLSIM_KIND_CFLOAT);
COLLSIM_PRIMITIVE(collsim_dt_double_complex, "MPI_DOUBLE_COMPLEX", double _Complex,
                  COLLSIM_KIND_CDOUBLE);
COLLSIM_PRIMITIVE(collsim_dt_character, "MPI_CHARACTER", char, COLLSIM_KIND_CHAR);
COLLSIM_PAIR(collsim_dt_2integer, "MPI_2INTEGER", struct collsim_pair_2int, int, int,
             COLLSIM_KIND_2INT);
COLLSIM_PAIR(collsim_dt_2real, "MPI_2REAL", struct collsim_pair_2float, float, float,
             COLLSIM_KIND_2FLOAT);
COLLSIM_PAIR(collsim_dt_2double_precision, "MPI_2DOUBLE_PRECISION", struct collsim_pair_2double,
             double, double, COLLSIM_KIND_2DOUBLE);

COLLSIM_PRIMITIVE(collsim_dt_integer1, "MPI_INTEGER1", int8_t, COLLSIM_KIND_INT8);
COLLSIM_PRIMITIVE(collsim_dt_integer2, "MPI_INTEGER2", int16_t, COLLSIM_KIND_INT16);
COLLSIM_PRIMITIVE(collsim_dt_integer4, "MPI_INTEGER4", int32_t, COLLSIM_KIND_INT32);
COLLSIM_PRIMITIVE(collsim_dt_integer8, "MPI_INTEGER8", int64_t, COLLSIM_KIND_INT64);
COLLSIM_PRIMITIVE(collsim_dt_real4, "MPI_REAL4", float, COLLSIM_KIND_FLOAT);
COLLSIM_PRIMITIVE(collsim_dt_real8, "MPI_REAL8", double, COLLSIM_KIND_DOUBLE);
COLLSIM_PRIMITIVE(collsim_dt_real16, "MPI_REAL16", long double, COLLSIM_KIND_LDOUBLE);
COLLSIM_PRIMITIVE(collsim_dt_complex8, "MPI_COMPLEX8", float _Complex, COLLSIM_KIND_CFLOAT);
COLLSIM_PRIMITIVE(collsim_dt_complex16, "MPI_COMPLEX16", double _Complex, COLLSIM_KIND_CDOUBLE);
COLLSIM_PRIMITIVE(collsim_dt_complex32, "MPI_COMPLEX32", long double _Complex,
                  COLLSIM_KIND_CLDOUBLE);
/* C++ types, as a C++ compiler lays them out (bool is one byte, as C's _Bool) */
COLLSIM_PRIMITIVE(collsim_dt_cxx_bool, "MPI_CXX_BOOL", _Bool, COLLSIM_KIND_UCHAR);
COLLSIM_PRIMITIVE(collsim_dt_cxx_float_complex, "MPI_CXX_FLOAT_COMPLEX", float _Complex,
                  COLLSIM_KIND_CFLOAT);
COLLSIM_PRIMITIVE(collsim_dt_cxx_double_complex, "MPI_CXX_DOUBLE_COMPLEX", double _Complex,
                  COLLSIM_KIND_CDOUBLE);
COLLSIM_PRIMITIVE(collsim_dt_cxx_long_double_complex, "MPI_CXX_LONG_DOUBLE_COMPLEX",
                  long double _Complex, COLLSIM_KIND_CLDOUBLE);

COLLSIM_MARKER(collsim_dt_lb, "MPI_LB", lb_marked);
COLLSIM_MARKER(collsim_dt_ub, "MPI_UB", ub_marked);

/* ------------------------------------------------------------------------------------------ */
/* Internal API                                                                                 */
/* ------------------------------------------------------------------------------------------ */

int
collsim_datatype_check_handle(MPI_Datatype dt)
{
    if (!collsim_handle_readable(dt) || dt->magic != COLLSIM_DATATYPE_MAGIC)
        return MPI_ERR_TYPE;
    /* freed by the program, alive while an operation it started holds it */
    if (dt->freed && !collsim_runtime->acts_for_operation())
        return MPI_ERR_TYPE;
    return MPI_SUCCESS;
}

int
collsim_datatype_check(MPI_Datatype dt)
{
    if (collsim_datatype_check_handle(dt) != MPI_SUCCESS)
        return MPI_ERR_TYPE;
    if (!dt->committed || dt == MPI_LB || dt == MPI_UB)
        return MPI_ERR_TYPE;
    return MPI_SUCCESS;
}

const char *
collsim_datatype_problem(MPI_Datatype dt)
{
    if (dt == MPI_DATATYPE_NULL)
        return "MPI_DATATYPE_NULL";
    if (collsim_datatype_check_handle(dt) != MPI_SUCCESS)
        return "not a live datatype (never set, or freed)";
    if (dt == MPI_LB || dt == MPI_UB)
        return "MPI_LB and MPI_UB mark bounds and carry no data";
    if (!dt->committed)
        return "not committed (MPI_Type_commit)";
    return NULL;
}

const char *
collsim_datatype_name(MPI_Datatype dt)
{
    if (dt == MPI_DATATYPE_NULL)
        return "MPI_DATATYPE_NULL";
    if (!collsim_handle_readable(dt) || dt->magic != COLLSIM_DATATYPE_MAGIC)
        return "(invalid datatype)";
    return dt->name;
}

MPI_Aint
collsim_datatype_extent(MPI_Datatype dt)
{
    return dt->ub - dt->lb;
}

int
collsim_datatype_is_contiguous(MPI_Datatype dt)
{
    return dt->contiguous;
}

size_t
collsim_datatype_packed_size(int count, MPI_Datatype dt)
{
    return count > 0 ? (size_t)count * dt->size : 0;
}

MPI_Datatype
collsim_datatype_basic(MPI_Datatype dt)
{
    return dt->basic;
}

size_t
collsim_datatype_basic_count(int count, MPI_Datatype dt)
{
    if (count <= 0 || dt->basic == NULL)
        return 0;
    return (size_t)count * dt->basic_per_item;
}

/* Address `off` bytes from `base`, computed on integers so that MPI_BOTTOM (NULL) works. */
static inline char *
address_at(const void *base, MPI_Aint off)
{
    return (char *)(uintptr_t)((uintptr_t)base + (uintptr_t)off);
}

void
collsim_datatype_pack(const void *buf, int count, MPI_Datatype dt, void *out)
{
    char *o = out;
    MPI_Aint extent = collsim_datatype_extent(dt);

    if (count <= 0 || dt->size == 0)
        return;
    if (dt->contiguous) {
        memcpy(out, buf, (size_t)count * dt->size);
        return;
    }
    for (int k = 0; k < count; k++) {
        MPI_Aint item = (MPI_Aint)k * extent;
        for (size_t s = 0; s < dt->nsegs; s++) {
            const struct collsim_dt_seg *seg = &dt->segs[s];
            memcpy(o, address_at(buf, item + seg->disp), seg->len);
            o += seg->len;
        }
    }
}

size_t
collsim_datatype_unpack(const void *in, size_t bytes, void *buf, int count, MPI_Datatype dt)
{
    const char *i = in;
    MPI_Aint extent = collsim_datatype_extent(dt);
    size_t total = collsim_datatype_packed_size(count, dt);
    size_t full, rem;

    if (bytes > total)
        bytes = total;
    if (bytes == 0)
        return 0;
    if (dt->contiguous && dt->nsegs == 1) {
        size_t whole = bytes - bytes % dt->segs[0].elem_size;
        memcpy(buf, in, whole);
        return whole;
    }
    /* Whole items first, then the whole primitive elements of a last partial item. */
    full = bytes / dt->size;
    rem = bytes % dt->size;
    for (size_t k = 0; k < full; k++) {
        MPI_Aint item = (MPI_Aint)k * extent;
        for (size_t s = 0; s < dt->nsegs; s++) {
            memcpy(address_at(buf, item + dt->segs[s].disp), i, dt->segs[s].len);
            i += dt->segs[s].len;
        }
    }
    for (size_t s = 0; s < dt->nsegs && rem > 0; s++) {
        const struct collsim_dt_seg *seg = &dt->segs[s];
        size_t n = rem < seg->len ? rem : seg->len;
        n -= n % seg->elem_size;
        memcpy(address_at(buf, (MPI_Aint)full * extent + seg->disp), i, n);
        i += n;
        if (n < seg->len)
            break;
        rem -= n;
    }
    return (size_t)(i - (const char *)in);
}

long long
collsim_datatype_elements(MPI_Datatype dt, size_t bytes)
{
    long long elements;
    size_t rem;

    if (dt->size == 0)
        return 0;
    elements = (long long)(bytes / dt->size) * (long long)dt->prims_per_item;
    rem = bytes % dt->size;
    for (size_t s = 0; s < dt->nsegs && rem > 0; s++) {
        const struct collsim_dt_seg *seg = &dt->segs[s];
        size_t n = rem < seg->len ? rem : seg->len;
        if (n % seg->elem_size != 0)
            return -1;
        elements += (long long)(n / seg->elem_size);
        rem -= n;
    }
    return elements;
}

MPI_Datatype
collsim_datatype_ref(MPI_Datatype dt)
{
    if (dt != MPI_DATATYPE_NULL && !dt->predefined)
        g_atomic_int_inc(&dt->refcount);
    return dt;
}

/* Drop the remembered constructor arguments, and the references to the types among them. */
static void
contents_clear(struct collsim_dt_contents *c)
{
    for (int i = 0; i < c->ntypes; i++)
        collsim_datatype_unref(c->types[i]);
    g_free(c->ints);
    g_free(c->aints);
    g_free(c->types);
    memset(c, 0, sizeof(*c));
}

/* Release the memory of a derived type whose last reference is gone. */
static void
datatype_destroy(MPI_Datatype dt)
{
    dt->magic = 0;
    collsim_handle_remove(dt);
    collsim_attr_type_store_free(dt);
    contents_clear(&dt->contents);
    free(dt->segs);
    free(dt);
}

void
collsim_datatype_unref(MPI_Datatype dt)
{
    if (dt == MPI_DATATYPE_NULL || dt->predefined)
        return;
    if (g_atomic_int_dec_and_test(&dt->refcount))
        datatype_destroy(dt);
}

/* ------------------------------------------------------------------------------------------ */
/* The builder of derived types                                                                 */
/* ------------------------------------------------------------------------------------------ */

/* The external32 code of a segment of dt: a predefined type's follows from its kind. */
static enum collsim_dt_ext
seg_ext(MPI_Datatype dt, const struct collsim_dt_seg *seg)
{
    if (seg->ext != COLLSIM_EXT_KIND)
        return seg->ext;
    switch (dt->kind) {
    case COLLSIM_KIND_CFLOAT:
        return COLLSIM_EXT_PARTS4;
    case COLLSIM_KIND_CDOUBLE:
        return COLLSIM_EXT_PARTS8;
    case COLLSIM_KIND_LDOUBLE:
    case COLLSIM_KIND_CLDOUBLE:
        return COLLSIM_EXT_QUAD;
    case COLLSIM_KIND_LDOUBLE_INT:
        return seg->elem_size == sizeof(long double) ? COLLSIM_EXT_QUAD : COLLSIM_EXT_PLAIN;
    case COLLSIM_KIND_LONG:
        return COLLSIM_EXT_LONG;
    case COLLSIM_KIND_ULONG:
        return COLLSIM_EXT_ULONG;
    case COLLSIM_KIND_LONG_INT:
        return seg->elem_size == sizeof(long) ? COLLSIM_EXT_LONG : COLLSIM_EXT_PLAIN;
    case COLLSIM_KIND_WCHAR:
        return COLLSIM_EXT_WCHAR;
    default:
        return COLLSIM_EXT_PLAIN;
    }
}

struct builder {
    struct collsim_dt_seg *segs;
    size_t nsegs, cap;
    size_t size;
    int any_data, any_lb_mark, any_ub_mark;
    MPI_Aint data_lb, data_ub;   /* bounds over instances holding data */
    MPI_Aint mark_lb, mark_ub;   /* bounds over instances with a marked bound */
    MPI_Aint true_lb, true_ub;
    size_t align;
    MPI_Datatype basic;
    int mixed;
    size_t basic_per_item, prims_per_item;
    size_t expected_pieces;      /* builder_expect: pieces the type will keep at least */
    int error;                   /* first failure: MPI_ERR_ARG (too large) or MPI_ERR_NO_MEM */
    const char *error_msg;
};

static void
builder_fail(struct builder *b, int code, const char *msg)
{
    if (b->error == MPI_SUCCESS) {
        b->error = code;
        b->error_msg = msg;
    }
}

/*
 * A derived type is flattened into its contiguous pieces (32 bytes each), so a type of very
 * many pieces takes memory in proportion: a vector of a billion strided blocks would take
 * 32 GB and minutes before the kernel killed the run. One type's map may take at most half
 * of this machine's memory; a larger one is refused with a message, before it is built when
 * its size is certain (builder_add), else as it grows (builder_append).
 */
static size_t
type_map_limit(void)
{
    static size_t limit;
    if (limit == 0) {
        long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
        limit = pages > 0 && page > 0 ? (size_t)pages / 2 * (size_t)page : SIZE_MAX / 2;
    }
    return limit;
}

static void
builder_fail_map_limit(struct builder *b)
{
    static char why[192];
    snprintf(why, sizeof why,
             "the type has too many separate contiguous pieces: their map would take more "
             "than half this machine's memory (%.1f GiB; collsim keeps a derived type as the "
             "list of its pieces, %zu bytes each)",
             (double)type_map_limit() / (1 << 30), sizeof(struct collsim_dt_seg));
    builder_fail(b, MPI_ERR_NO_MEM, why);
}

/* Append one run of bytes, merging it into the last segment when it continues it. */
static void
builder_append(struct builder *b, MPI_Aint disp, size_t len, size_t elem_size,
               enum collsim_dt_ext ext)
{
    struct collsim_dt_seg *last = b->nsegs > 0 ? &b->segs[b->nsegs - 1] : NULL;

    if (len == 0)
        return;
    if (last != NULL && last->elem_size == elem_size && last->ext == ext &&
        last->disp + (MPI_Aint)last->len == disp) {
        last->len += len;
        return;
    }
    if (b->nsegs == b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 8;
        struct collsim_dt_seg *segs;
        if (cap > type_map_limit() / sizeof(*segs)) {
            builder_fail_map_limit(b);
            return;
        }
        if (cap > SIZE_MAX / sizeof(*segs)) {
            builder_fail(b, MPI_ERR_NO_MEM, "out of memory for the type map");
            return;
        }
        segs = realloc(b->segs, cap * sizeof(*segs));
        if (segs == NULL) {
            builder_fail(b, MPI_ERR_NO_MEM, "out of memory for the type map");
            return;
        }
        b->segs = segs;
        b->cap = cap;
    }
    b->segs[b->nsegs++] = (struct collsim_dt_seg){disp, len, elem_size, ext};
}

/* One segment filling its extent: instances side by side merge into one run. */
static int
dense(MPI_Datatype dt)
{
    MPI_Aint extent = collsim_datatype_extent(dt);
    return dt->nsegs == 1 && extent > 0 && (size_t)extent == dt->segs[0].len;
}

/*
 * Count n instances of child into the pieces the type will keep at least, and refuse it at
 * once if those alone pass the limit. A dense child adds nothing (its instances may merge into
 * one run); the instances of a child with holes merge at most with their neighbours, so half
 * of their n x child->nsegs pieces stay. Called before anything is appended.
 */
static void
builder_expect_pieces(struct builder *b, size_t pieces)
{
    if (b->error != MPI_SUCCESS)
        return;
    if (__builtin_add_overflow(b->expected_pieces, pieces, &b->expected_pieces) ||
        b->expected_pieces > type_map_limit() / sizeof(struct collsim_dt_seg))
        builder_fail_map_limit(b);
}

static void
builder_expect(struct builder *b, MPI_Datatype child, size_t n)
{
    size_t pieces;
    if (b->error != MPI_SUCCESS || n == 0 || child->nsegs == 0 || dense(child))
        return;
    if (__builtin_mul_overflow(n, child->nsegs, &pieces))
        builder_fail_map_limit(b);
    else
        builder_expect_pieces(b, pieces / 2);
}

/* Fold the element types of a child into the builder's homogeneity. */
static void
builder_merge_basic(struct builder *b, MPI_Datatype child)
{
    if (child->mixed) {
        b->mixed = 1;
        b->basic = NULL;
    } else if (child->basic != NULL && !b->mixed) {
        if (b->basic == NULL)
            b->basic = child->basic;
        else if (b->basic != child->basic) {
            b->mixed = 1;
            b->basic = NULL;
        }
    }
}

/*
 * Add n copies of child at base + k·extent(child), k = 0 … n-1, in that order. Checks that
 * every address and size stays representable.
 */
static void
builder_add(struct builder *b, MPI_Datatype child, MPI_Aint base, MPI_Aint n)
{
    MPI_Aint extent = collsim_datatype_extent(child);
    MPI_Aint span, first, last, edge;
    size_t bytes, nsegs;

    builder_merge_basic(b, child);
    if (b->error != MPI_SUCCESS || n == 0)
        return;

    /* Instances lie from `first` to `last`; check every bound and size is representable. */
    if (__builtin_mul_overflow(n - 1, extent, &span) ||
        __builtin_add_overflow(base, span < 0 ? span : 0, &first) ||
        __builtin_add_overflow(base, span > 0 ? span : 0, &last) ||
        __builtin_add_overflow(first, MIN(child->lb, child->true_lb), &edge) ||
        __builtin_add_overflow(last, MAX(child->ub, child->true_ub), &edge) ||
        __builtin_mul_overflow((size_t)n, child->size, &bytes) ||
        __builtin_add_overflow(b->size, bytes, &b->size) ||
        __builtin_mul_overflow((size_t)n, child->nsegs, &nsegs)) {
        builder_fail(b, MPI_ERR_ARG, "the type's size or displacements overflow MPI_Aint");
        return;
    }

    /* Bounds, per MPI-3.1 §4.1.7. */
    if (child->lb_marked) {
        MPI_Aint v = first + child->lb;
        b->mark_lb = b->any_lb_mark ? MIN(b->mark_lb, v) : v;
        b->any_lb_mark = 1;
    }
    if (child->ub_marked) {
        MPI_Aint v = last + child->ub;
        b->mark_ub = b->any_ub_mark ? MAX(b->mark_ub, v) : v;
        b->any_ub_mark = 1;
    }
    if (child->has_data) {
        MPI_Aint vlb = first + child->lb, vub = last + child->ub;
        MPI_Aint tlb = first + child->true_lb, tub = last + child->true_ub;
        b->data_lb = b->any_data ? MIN(b->data_lb, vlb) : vlb;
        b->data_ub = b->any_data ? MAX(b->data_ub, vub) : vub;
        b->true_lb = b->any_data ? MIN(b->true_lb, tlb) : tlb;
        b->true_ub = b->any_data ? MAX(b->true_ub, tub) : tub;
        b->any_data = 1;
        b->align = MAX(b->align, child->align);
    }
    b->basic_per_item += (size_t)n * child->basic_per_item;
    b->prims_per_item += (size_t)n * child->prims_per_item;

    /* Segments: a dense child makes one run. */
    if (dense(child)) {
        builder_append(b, base + child->segs[0].disp, bytes, child->segs[0].elem_size,
                       seg_ext(child, &child->segs[0]));
        return;
    }
    for (MPI_Aint k = 0; k < n && b->error == MPI_SUCCESS; k++) {
        MPI_Aint off = base + k * extent;
        for (size_t s = 0; s < child->nsegs; s++)
            builder_append(b, off + child->segs[s].disp, child->segs[s].len,
                           child->segs[s].elem_size, seg_ext(child, &child->segs[s]));
    }
}

/* Whether the segments of dt, in order, are one run from displacement 0 filling the extent. */
static int
compute_contiguous(MPI_Datatype dt)
{
    MPI_Aint next = 0;

    if (dt->size == 0)
        return 1;
    if (collsim_datatype_extent(dt) != (MPI_Aint)dt->size)
        return 0;
    for (size_t s = 0; s < dt->nsegs; s++) {
        if (dt->segs[s].disp != next)
            return 0;
        next += (MPI_Aint)dt->segs[s].len;
    }
    return 1;
}

/* Allocate a fresh, uncommitted derived type with one reference (the user's handle). */
static MPI_Datatype
datatype_alloc(void)
{
    MPI_Datatype dt = calloc(1, sizeof(*dt));

    if (dt == NULL)
        return NULL;
    collsim_handle_add(dt);
    dt->magic = COLLSIM_DATATYPE_MAGIC;
    dt->refcount = 1;
    dt->kind = COLLSIM_KIND_NONE;
    dt->align = 1;
    return dt;
}

/* A new type is the calling rank's to free: remember which call made it, and where, for
 * the end-of-run report of what the rank never freed. */
static int
held_by_caller(int rc, MPI_Datatype *newtype, const char *call, const void *caller)
{
    if (rc == MPI_SUCCESS)
        collsim_handle_hold(*newtype, COLLSIM_HELD_DATATYPE, call, caller);
    return rc;
}

/*
 * Remember how a new type was made (MPI_Type_get_contents): the combiner, the integer and
 * address arguments (taken over; NULL when there are none) and the types (copied, each
 * referenced). Does nothing unless rc is MPI_SUCCESS; returns rc.
 */
static int
remember(int rc, MPI_Datatype *newtype, int combiner, GArray *ints, GArray *aints, int ntypes,
         const MPI_Datatype types[])
{
    struct collsim_dt_contents *c;

    if (rc != MPI_SUCCESS) {
        if (ints != NULL)
            g_array_free(ints, TRUE);
        if (aints != NULL)
            g_array_free(aints, TRUE);
        return rc;
    }
    c = &(*newtype)->contents;
    c->combiner = combiner;
    if (ints != NULL) {
        c->nints = (int)ints->len;
        c->ints = (int *)(void *)g_array_free(ints, FALSE);
    }
    if (aints != NULL) {
        c->naints = (int)aints->len;
        c->aints = (MPI_Aint *)(void *)g_array_free(aints, FALSE);
    }
    c->ntypes = ntypes;
    c->types = ntypes > 0 ? g_new(MPI_Datatype, (guint)ntypes) : NULL;
    for (int i = 0; i < ntypes; i++)
        c->types[i] = collsim_datatype_ref(types[i]);
    return rc;
}

/* An integer argument list: n1 values of a1, then n2 of a2, … (pairs end with a NULL). */
static GArray *
int_args(int first, ...)
{
    GArray *a = g_array_new(FALSE, FALSE, sizeof(int));
    va_list ap;

    g_array_append_val(a, first);
    va_start(ap, first);
    for (;;) {
        int n = va_arg(ap, int);
        const int *v = va_arg(ap, const int *);
        if (v == NULL)
            break;
        if (n > 0)
            g_array_append_vals(a, v, (guint)n);
    }
    va_end(ap);
    return a;
}

/* An address argument list of n values (none when v is NULL: the call is refused anyway). */
static GArray *
aint_args(int n, const MPI_Aint *v)
{
    GArray *a = g_array_new(FALSE, FALSE, sizeof(MPI_Aint));

    if (n > 0 && v != NULL)
        g_array_append_vals(a, v, (guint)n);
    return a;
}

/*
 * Turn the builder into a new derived type named `name`. `is_struct` applies the alignment
 * rounding of the struct constructors. On failure reports through collsim_error and frees.
 */
static int
builder_finish(struct builder *b, int is_struct, const char *call, const char *name,
               MPI_Datatype *newtype)
{
    MPI_Datatype dt;
    int rc;

    if (b->error != MPI_SUCCESS) {
        rc = collsim_error(MPI_COMM_WORLD, b->error, call, "%s", b->error_msg);
        goto out_free_segs;
    }
    dt = datatype_alloc();
    if (dt == NULL) {
        rc = collsim_error(MPI_COMM_WORLD, MPI_ERR_NO_MEM, call, "out of memory");
        goto out_free_segs;
    }
    g_strlcpy(dt->name, name, sizeof(dt->name));
    dt->size = b->size;
    dt->has_data = b->any_data;
    dt->align = b->align ? b->align : 1;
    dt->lb_marked = b->any_lb_mark;
    dt->ub_marked = b->any_ub_mark;
    if (b->any_data) {
        dt->true_lb = b->true_lb;
        dt->true_ub = b->true_ub;
    }
    /* A bound neither marked nor given by data equals the other bound (extent 0). */
    if (b->any_lb_mark)
        dt->lb = b->mark_lb;
    else if (b->any_data)
        dt->lb = b->data_lb;
    else
        dt->lb = b->any_ub_mark ? b->mark_ub : 0;
    if (b->any_ub_mark)
        dt->ub = b->mark_ub;
    else if (b->any_data)
        dt->ub = b->data_ub;
    else
        dt->ub = dt->lb;
    if (is_struct && !b->any_lb_mark && !b->any_ub_mark && b->any_data) {
        MPI_Aint rem = (dt->ub - dt->lb) % (MPI_Aint)dt->align;
        if (rem != 0)
            dt->ub += (MPI_Aint)dt->align - rem;
    }
    /* Give back the spare capacity of the segment array. */
    dt->nsegs = b->nsegs;
    dt->segs = b->segs;
    if (b->nsegs > 0 && b->nsegs < b->cap) {
        struct collsim_dt_seg *segs = realloc(b->segs, b->nsegs * sizeof(*segs));
        if (segs != NULL)
            dt->segs = segs;
    }
    dt->contiguous = compute_contiguous(dt);
    dt->basic = b->basic;
    dt->mixed = b->mixed;
    dt->basic_per_item = b->mixed ? 0 : b->basic_per_item;
    dt->prims_per_item = b->prims_per_item;
    *newtype = dt;
    return MPI_SUCCESS;

out_free_segs:
    free(b->segs);
    return rc;
}

/* Name of a type derived from one other type: "vector(MPI_DOUBLE)", truncated to fit. */
static void
derived_name(char *out, size_t size, const char *combiner, MPI_Datatype old)
{
    g_strlcpy(out, combiner, size);
    g_strlcat(out, "(", size);
    g_strlcat(out, collsim_datatype_name(old), size);
    g_strlcat(out, ")", size);
}

/* ------------------------------------------------------------------------------------------ */
/* Constructors                                                                                 */
/* ------------------------------------------------------------------------------------------ */

/* Argument checks shared by the one-child constructors, in argument order. */
static int
check_common(const char *call, int count, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    if (count < 0)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_COUNT, call,
                             "count argument is negative (%d)", count);
    if (collsim_datatype_check_handle(oldtype) != MPI_SUCCESS)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_TYPE, call,
                             "oldtype argument is not a valid datatype (%s)",
                             collsim_datatype_name(oldtype));
    if (newtype == NULL)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, call, "newtype argument is NULL");
    return MPI_SUCCESS;
}

/* Strided blocks: count blocks of blocklength copies, block i at i·stride_bytes. */
static int
make_hvector(const char *call, const char *combiner, int count, int blocklength,
             MPI_Aint stride_bytes, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    struct builder b = {0};
    char name[MPI_MAX_OBJECT_NAME];
    int rc = check_common(call, count, oldtype, newtype);

    if (rc != MPI_SUCCESS)
        return rc;
    if (blocklength < 0)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, call,
                             "blocklength argument is negative (%d)", blocklength);
    if (count > 0 && blocklength > 0)
        builder_expect(&b, oldtype, (size_t)count * (size_t)blocklength);
    /* blocks of a dense type that do not follow each other stay one piece each */
    if (count > 1 && blocklength > 0 && dense(oldtype) &&
        stride_bytes != (MPI_Aint)blocklength * collsim_datatype_extent(oldtype))
        builder_expect_pieces(&b, (size_t)count);
    for (int i = 0; i < count && b.error == MPI_SUCCESS; i++) {
        MPI_Aint base;
        if (__builtin_mul_overflow((MPI_Aint)i, stride_bytes, &base)) {
            builder_fail(&b, MPI_ERR_ARG, "stride argument overflows MPI_Aint");
            break;
        }
        builder_add(&b, oldtype, base, blocklength);
    }
    if (count == 0)
        builder_merge_basic(&b, oldtype);
    derived_name(name, sizeof(name), combiner, oldtype);
    return builder_finish(&b, 0, call, name, newtype);
}

int
MPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    struct builder b = {0};
    char name[MPI_MAX_OBJECT_NAME];
    int rc = check_common("MPI_Type_contiguous", count, oldtype, newtype);

    if (rc != MPI_SUCCESS)
        return rc;
    builder_expect(&b, oldtype, (size_t)count);
    builder_add(&b, oldtype, 0, count);
    derived_name(name, sizeof(name), "contiguous", oldtype);
    rc = builder_finish(&b, 0, "MPI_Type_contiguous", name, newtype);
    rc = remember(rc, newtype, MPI_COMBINER_CONTIGUOUS, int_args(count, 0, NULL), NULL, 1,
                  &oldtype);
    return held_by_caller(rc, newtype, "MPI_Type_contiguous", COLLSIM_CALLER());
}

int
MPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype,
                MPI_Datatype *newtype)
{
    const char *call = "MPI_Type_vector";
    MPI_Aint stride_bytes;
    int rc = check_common(call, count, oldtype, newtype);

    if (rc != MPI_SUCCESS)
        return rc;
    if (__builtin_mul_overflow((MPI_Aint)stride, collsim_datatype_extent(oldtype),
                               &stride_bytes))
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, call,
                             "stride argument overflows MPI_Aint (%d)", stride);
    rc = make_hvector(call, "vector", count, blocklength, stride_bytes, oldtype, newtype);
    rc = remember(rc, newtype, MPI_COMBINER_VECTOR,
                  int_args(count, 1, &blocklength, 1, &stride, 0, NULL), NULL, 1, &oldtype);
    return held_by_caller(rc, newtype, call, COLLSIM_CALLER());
}

int
MPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                        MPI_Datatype *newtype)
{
    int rc = make_hvector("MPI_Type_create_hvector", "hvector", count, blocklength, stride,
                          oldtype, newtype);
    rc = remember(rc, newtype, MPI_COMBINER_HVECTOR, int_args(count, 1, &blocklength, 0, NULL),
                  aint_args(1, &stride), 1, &oldtype);
    return held_by_caller(rc, newtype, "MPI_Type_create_hvector", COLLSIM_CALLER());
}

int
MPI_Type_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                 MPI_Datatype *newtype)
{
    int rc = make_hvector("MPI_Type_hvector", "hvector", count, blocklength, stride, oldtype,
                          newtype);
    rc = remember(rc, newtype, MPI_COMBINER_HVECTOR, int_args(count, 1, &blocklength, 0, NULL),
                  aint_args(1, &stride), 1, &oldtype);
    return held_by_caller(rc, newtype, "MPI_Type_hvector", COLLSIM_CALLER());
}

/*
 * Indexed blocks: block i has blocklengths[i] (or the common blocklength when blocklengths is
 * NULL) copies at displacement disps[i] counted in extents of oldtype, or adisps[i] in bytes.
 */
static int
make_indexed(const char *call, const char *combiner, int count, const int blocklengths[],
             int blocklength, const int disps[], const MPI_Aint adisps[],
             MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    struct builder b = {0};
    char name[MPI_MAX_OBJECT_NAME];
    MPI_Aint unit;
    int rc = check_common(call, count, oldtype, newtype);

    if (rc != MPI_SUCCESS)
        return rc;
    if (count > 0 && blocklengths == NULL && blocklength < 0)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, call,
                             "blocklength argument is negative (%d)", blocklength);
    if (count > 0 && disps == NULL && adisps == NULL)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, call,
                             "array_of_displacements argument is NULL");
    for (int i = 0; blocklengths != NULL && i < count; i++) {
        if (blocklengths[i] < 0)
            return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, call,
                                 "array_of_blocklengths[%d] is negative (%d)", i,
                                 blocklengths[i]);
    }
    unit = collsim_datatype_extent(oldtype);
    for (int i = 0; i < count; i++)
        builder_expect(&b, oldtype, (size_t)(blocklengths ? blocklengths[i] : blocklength));
    for (int i = 0; i < count && b.error == MPI_SUCCESS; i++) {
        int len = blocklengths ? blocklengths[i] : blocklength;
        MPI_Aint base = adisps ? adisps[i] : 0;
        if (disps != NULL && __builtin_mul_overflow((MPI_Aint)disps[i], unit, &base)) {
            builder_fail(&b, MPI_ERR_ARG, "a displacement overflows MPI_Aint");
            break;
        }
        builder_add(&b, oldtype, base, len);
    }
    if (count == 0)
        builder_merge_basic(&b, oldtype);
    derived_name(name, sizeof(name), combiner, oldtype);
    return builder_finish(&b, 0, call, name, newtype);
}

int
MPI_Type_indexed(int count, const int blocklengths[], const int displacements[],
                 MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    if (count > 0 && blocklengths == NULL)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Type_indexed",
                             "array_of_blocklengths argument is NULL");
    int rc = make_indexed("MPI_Type_indexed", "indexed", count, blocklengths, 0, displacements,
                          NULL, oldtype, newtype);
    rc = remember(rc, newtype, MPI_COMBINER_INDEXED,
                  int_args(count, count, blocklengths, count, displacements, 0, NULL), NULL, 1,
                  &oldtype);
    return held_by_caller(rc, newtype, "MPI_Type_indexed", COLLSIM_CALLER());
}

int
MPI_Type_create_hindexed(int count, const int blocklengths[], const MPI_Aint displacements[],
                         MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    if (count > 0 && blocklengths == NULL)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Type_create_hindexed",
                             "array_of_blocklengths argument is NULL");
    int rc = make_indexed("MPI_Type_create_hindexed", "hindexed", count, blocklengths, 0, NULL,
                          displacements, oldtype, newtype);
    rc = remember(rc, newtype, MPI_COMBINER_HINDEXED, int_args(count, count, blocklengths, 0, NULL),
                  aint_args(count, displacements), 1, &oldtype);
    return held_by_caller(rc, newtype, "MPI_Type_create_hindexed", COLLSIM_CALLER());
}

int
MPI_Type_create_indexed_block(int count, int blocklength, const int displacements[],
                              MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    int rc = make_indexed("MPI_Type_create_indexed_block", "indexed_block", count, NULL,
                          blocklength, displacements, NULL, oldtype, newtype);
    rc = remember(rc, newtype, MPI_COMBINER_INDEXED_BLOCK,
                  int_args(count, 1, &blocklength, count, displacements, 0, NULL), NULL, 1,
                  &oldtype);
    return held_by_caller(rc, newtype, "MPI_Type_create_indexed_block", COLLSIM_CALLER());
}

int
MPI_Type_create_hindexed_block(int count, int blocklength,
                               const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
                               MPI_Datatype *newtype)
{
    const char *call = "MPI_Type_create_hindexed_block";
    int rc = make_indexed(call, "hindexed_block", count, NULL, blocklength, NULL,
                          array_of_displacements, oldtype, newtype);

    rc = remember(rc, newtype, MPI_COMBINER_HINDEXED_BLOCK,
                  int_args(count, 1, &blocklength, 0, NULL),
                  aint_args(count, array_of_displacements), 1, &oldtype);
    return held_by_caller(rc, newtype, call, COLLSIM_CALLER());
}

/* General struct: block i has blocklengths[i] copies of types[i] at displacements[i] bytes. */
static int
make_struct(const char *call, int count, const int blocklengths[],
            const MPI_Aint displacements[], const MPI_Datatype types[], MPI_Datatype *newtype)
{
    struct builder b = {0};

    if (count < 0)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_COUNT, call,
                             "count argument is negative (%d)", count);
    if (count > 0 && blocklengths == NULL)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, call,
                             "array_of_blocklengths argument is NULL");
    if (count > 0 && displacements == NULL)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, call,
                             "array_of_displacements argument is NULL");
    if (count > 0 && types == NULL)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, call,
                             "array_of_types argument is NULL");
    for (int i = 0; i < count; i++) {
        if (blocklengths[i] < 0)
            return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, call,
                                 "array_of_blocklengths[%d] is negative (%d)", i,
                                 blocklengths[i]);
        if (collsim_datatype_check_handle(types[i]) != MPI_SUCCESS)
            return collsim_error(MPI_COMM_WORLD, MPI_ERR_TYPE, call,
                                 "array_of_types[%d] is not a valid datatype (%s)", i,
                                 collsim_datatype_name(types[i]));
    }
    if (newtype == NULL)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, call, "newtype argument is NULL");
    for (int i = 0; i < count; i++)
        builder_expect(&b, types[i], (size_t)blocklengths[i]);
    for (int i = 0; i < count; i++)
        builder_add(&b, types[i], displacements[i], blocklengths[i]);
    return builder_finish(&b, 1, call, "struct", newtype);
}

int
MPI_Type_create_struct(int count, const int blocklengths[], const MPI_Aint displacements[],
                       const MPI_Datatype types[], MPI_Datatype *newtype)
{
    int rc = make_struct("MPI_Type_create_struct", count, blocklengths, displacements, types,
                         newtype);
    rc = remember(rc, newtype, MPI_COMBINER_STRUCT, int_args(count, count, blocklengths, 0, NULL),
                  aint_args(count, displacements), count, types);
    return held_by_caller(rc, newtype, "MPI_Type_create_struct", COLLSIM_CALLER());
}

int
MPI_Type_struct(int count, int blocklengths[], MPI_Aint displacements[], MPI_Datatype types[],
                MPI_Datatype *newtype)
{
    int rc = make_struct("MPI_Type_struct", count, blocklengths, displacements, types, newtype);
    rc = remember(rc, newtype, MPI_COMBINER_STRUCT, int_args(count, count, blocklengths, 0, NULL),
                  aint_args(count, displacements), count, types);
    return held_by_caller(rc, newtype, "MPI_Type_struct", COLLSIM_CALLER());
}

/* A deep copy of old as a new uncommitted derived type (resized and dup start from it). */
static MPI_Datatype
datatype_copy(MPI_Datatype old)
{
    MPI_Datatype dt = datatype_alloc();

    if (dt == NULL)
        return NULL;
    *dt = *old;
    dt->predefined = 0;
    dt->committed = 0;
    dt->freed = 0;
    dt->refcount = 1;
    dt->kind = COLLSIM_KIND_NONE;
    dt->user_named = 0;
    memset(&dt->contents, 0, sizeof(dt->contents));
    dt->attrs = NULL; /* MPI_Type_dup copies them through their callbacks */
    dt->segs = NULL;
    if (old->nsegs > 0) {
        dt->segs = malloc(old->nsegs * sizeof(*dt->segs));
        if (dt->segs == NULL) {
            datatype_destroy(dt);
            return NULL;
        }
        memcpy(dt->segs, old->segs, old->nsegs * sizeof(*dt->segs));
        for (size_t s = 0; s < old->nsegs; s++)
            dt->segs[s].ext = seg_ext(old, &old->segs[s]);
    }
    return dt;
}

int
MPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent,
                        MPI_Datatype *newtype)
{
    const char *call = "MPI_Type_create_resized";
    MPI_Datatype dt;
    MPI_Aint ub;
    int rc = check_common(call, 0, oldtype, newtype);

    if (rc != MPI_SUCCESS)
        return rc;
    if (__builtin_add_overflow(lb, extent, &ub))
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, call,
                             "lb + extent overflows MPI_Aint");
    dt = datatype_copy(oldtype);
    if (dt == NULL)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_NO_MEM, call, "out of memory");
    dt->lb = lb;
    dt->ub = ub;
    dt->lb_marked = 1;
    dt->ub_marked = 1;
    dt->contiguous = compute_contiguous(dt);
    derived_name(dt->name, sizeof(dt->name), "resized", oldtype);
    *newtype = dt;
    MPI_Aint bounds[2] = {lb, extent};
    rc = remember(MPI_SUCCESS, newtype, MPI_COMBINER_RESIZED, NULL, aint_args(2, bounds), 1,
                  &oldtype);
    return held_by_caller(rc, newtype, call, COLLSIM_CALLER());
}

int
MPI_Type_dup(MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    const char *call = "MPI_Type_dup";
    MPI_Datatype dt;
    int rc = check_common(call, 0, oldtype, newtype);

    if (rc != MPI_SUCCESS)
        return rc;
    dt = datatype_copy(oldtype);
    if (dt == NULL)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_NO_MEM, call, "out of memory");
    dt->committed = oldtype->committed;
    derived_name(dt->name, sizeof(dt->name), "dup", oldtype);
    *newtype = dt;
    rc = remember(MPI_SUCCESS, newtype, MPI_COMBINER_DUP, NULL, NULL, 1, &oldtype);
    if (rc == MPI_SUCCESS) {
        /* the attributes of oldtype whose copy callbacks keep them (§6.7.4) */
        int cb = collsim_attr_type_copy_all(oldtype, dt);
        if (cb != MPI_SUCCESS) {
            collsim_attr_type_delete_all(dt);
            *newtype = MPI_DATATYPE_NULL;
            collsim_datatype_unref(dt);
            return collsim_error(MPI_COMM_WORLD, cb, call, "an attribute copy callback failed");
        }
    }
    return held_by_caller(rc, newtype, call, COLLSIM_CALLER());
}

static int
seg_by_disp(const void *a, const void *b)
{
    MPI_Aint x = ((const struct collsim_dt_seg *)a)->disp;
    MPI_Aint y = ((const struct collsim_dt_seg *)b)->disp;
    return x < y ? -1 : x > y;
}

/* Whether the sorted runs `a` and `a` shifted by `shift` (!= 0) share a byte: one sweep. */
static int
runs_meet(const struct collsim_dt_seg *a, size_t n, MPI_Aint shift)
{
    size_t i = 0, j = 0;
    while (i < n && j < n) {
        MPI_Aint lo1 = a[i].disp, hi1 = lo1 + (MPI_Aint)a[i].len;
        MPI_Aint lo2 = a[j].disp + shift, hi2 = lo2 + (MPI_Aint)a[j].len;
        if (lo1 < hi2 && lo2 < hi1)
            return 1;
        if (hi1 <= hi2)
            i++;
        else
            j++;
    }
    return 0;
}

/* The type map's overlaps, once, at commit (the maps are sorted copies: a type keeps its
 * entries in its own order, which packing follows). */
static void
find_overlaps(MPI_Datatype dt)
{
    dt->overlaps_in_item = dt->overlaps_next_item = 0;
    if (dt->predefined || !dt->has_data || dt->nsegs == 0)
        return;
    struct collsim_dt_seg *sorted = g_memdup2(dt->segs, dt->nsegs * sizeof *sorted);
    qsort(sorted, dt->nsegs, sizeof *sorted, seg_by_disp);
    for (size_t i = 0; i + 1 < dt->nsegs && !dt->overlaps_in_item; i++)
        dt->overlaps_in_item = sorted[i].disp + (MPI_Aint)sorted[i].len > sorted[i + 1].disp;
    MPI_Aint extent = dt->ub - dt->lb;
    if (extent == 0)
        dt->overlaps_next_item = 1;
    else if ((extent > 0 ? extent : -extent) < dt->true_ub - dt->true_lb)
        dt->overlaps_next_item = runs_meet(sorted, dt->nsegs, extent);
    g_free(sorted);
}

int
collsim_datatype_overlaps(MPI_Datatype dt, int count)
{
    return count > 0 && dt->size > 0 &&
           (dt->overlaps_in_item || (count > 1 && dt->overlaps_next_item));
}

int
MPI_Type_commit(MPI_Datatype *datatype)
{
    if (datatype == NULL)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Type_commit",
                             "datatype argument is NULL");
    if (collsim_datatype_check_handle(*datatype) != MPI_SUCCESS)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_TYPE, "MPI_Type_commit",
                             "datatype argument is not a valid datatype (%s)",
                             collsim_datatype_name(*datatype));
    if (!(*datatype)->committed)
        find_overlaps(*datatype);
    (*datatype)->committed = 1;
    return MPI_SUCCESS;
}

int
MPI_Type_free(MPI_Datatype *datatype)
{
    MPI_Datatype dt;

    if (datatype == NULL)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Type_free",
                             "datatype argument is NULL");
    dt = *datatype;
    if (collsim_datatype_check_handle(dt) != MPI_SUCCESS)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_TYPE, "MPI_Type_free",
                             "datatype argument is not a valid datatype (%s)",
                             collsim_datatype_name(dt));
    if (dt->predefined)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_TYPE, "MPI_Type_free",
                             "datatype argument is the predefined datatype %s, which cannot be "
                             "freed",
                             dt->name);
    /* delete callbacks run first and may still use the type (§6.7.4) */
    int rc = collsim_attr_type_delete_all(dt);
    dt->freed = 1;
    collsim_handle_let_go(dt);
    *datatype = MPI_DATATYPE_NULL;
    collsim_datatype_unref(dt);
    if (rc != MPI_SUCCESS)
        return collsim_error(MPI_COMM_WORLD, rc, "MPI_Type_free",
                             "an attribute delete callback failed");
    return MPI_SUCCESS;
}

/* ------------------------------------------------------------------------------------------ */
/* Buffers                                                                                      */
/* ------------------------------------------------------------------------------------------ */

/* No valid buffer starts in the first page: NULL, and small integers passed by mistake. */
#define FIRST_VALID_ADDRESS 4096

int
collsim_buffer_span(const void *buf, MPI_Aint count, MPI_Datatype dt, uintptr_t *lo,
                    uintptr_t *hi)
{
    if (count <= 0 || dt->size == 0)
        return 0;
    MPI_Aint reach = (count - 1) * (dt->ub - dt->lb);
    *lo = (uintptr_t)buf + (uintptr_t)(dt->true_lb + (reach < 0 ? reach : 0));
    *hi = (uintptr_t)buf + (uintptr_t)(dt->true_ub + (reach > 0 ? reach : 0));
    return 1;
}

int
collsim_buffers_overlap(const void *a, MPI_Aint acount, MPI_Datatype atype, const void *b,
                        MPI_Aint bcount, MPI_Datatype btype)
{
    uintptr_t alo, ahi, blo, bhi;
    return collsim_buffer_span(a, acount, atype, &alo, &ahi) &&
           collsim_buffer_span(b, bcount, btype, &blo, &bhi) && alo < bhi && blo < ahi;
}

int
collsim_buffer_check(MPI_Comm comm, const void *buf, MPI_Aint count, MPI_Datatype dt,
                     const char *what, const char *call)
{
    if (buf == MPI_IN_PLACE)
        return collsim_error(comm, MPI_ERR_BUFFER, call,
                             "%s is MPI_IN_PLACE, which %s does not take there", what, call);
    uintptr_t lo, hi;
    if (collsim_buffer_span(buf, count, dt, &lo, &hi) && lo < FIRST_VALID_ADDRESS)
        return collsim_error(comm, MPI_ERR_BUFFER, call,
                             "%s is %p with %lld items of %s to move: not an address of data",
                             what, buf, (long long)count, collsim_datatype_name(dt));
    return MPI_SUCCESS;
}

/* ------------------------------------------------------------------------------------------ */
/* Queries                                                                                      */
/* ------------------------------------------------------------------------------------------ */

/* Common checks of the query functions: a live handle and a non-NULL output. */
static int
check_query(const char *call, MPI_Datatype dt, const void *out, const char *out_name)
{
    if (collsim_datatype_check_handle(dt) != MPI_SUCCESS)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_TYPE, call,
                             "datatype argument is not a valid datatype (%s)",
                             collsim_datatype_name(dt));
    if (out == NULL)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, call, "%s argument is NULL",
                             out_name);
    return MPI_SUCCESS;
}

int
MPI_Type_size(MPI_Datatype datatype, int *size)
{
    int rc = check_query("MPI_Type_size", datatype, size, "size");

    if (rc != MPI_SUCCESS)
        return rc;
    *size = datatype->size > INT_MAX ? MPI_UNDEFINED : (int)datatype->size;
    return MPI_SUCCESS;
}

int
MPI_Type_get_extent(MPI_Datatype datatype, MPI_Aint *lb, MPI_Aint *extent)
{
    int rc = check_query("MPI_Type_get_extent", datatype, lb, "lb");

    if (rc == MPI_SUCCESS)
        rc = check_query("MPI_Type_get_extent", datatype, extent, "extent");
    if (rc != MPI_SUCCESS)
        return rc;
    *lb = datatype->lb;
    *extent = collsim_datatype_extent(datatype);
    return MPI_SUCCESS;
}

int
MPI_Type_get_true_extent(MPI_Datatype datatype, MPI_Aint *true_lb, MPI_Aint *true_extent)
{
    int rc = check_query("MPI_Type_get_true_extent", datatype, true_lb, "true_lb");

    if (rc == MPI_SUCCESS)
        rc = check_query("MPI_Type_get_true_extent", datatype, true_extent, "true_extent");
    if (rc != MPI_SUCCESS)
        return rc;
    *true_lb = datatype->true_lb;
    *true_extent = datatype->true_ub - datatype->true_lb;
    return MPI_SUCCESS;
}

int
MPI_Type_extent(MPI_Datatype datatype, MPI_Aint *extent)
{
    int rc = check_query("MPI_Type_extent", datatype, extent, "extent");

    if (rc != MPI_SUCCESS)
        return rc;
    *extent = collsim_datatype_extent(datatype);
    return MPI_SUCCESS;
}

int
MPI_Type_lb(MPI_Datatype datatype, MPI_Aint *displacement)
{
    int rc = check_query("MPI_Type_lb", datatype, displacement, "displacement");

    if (rc != MPI_SUCCESS)
        return rc;
    *displacement = datatype->lb;
    return MPI_SUCCESS;
}

int
MPI_Type_ub(MPI_Datatype datatype, MPI_Aint *displacement)
{
    int rc = check_query("MPI_Type_ub", datatype, displacement, "displacement");

    if (rc != MPI_SUCCESS)
        return rc;
    *displacement = datatype->ub;
    return MPI_SUCCESS;
}

int
MPI_Get_address(const void *location, MPI_Aint *address)
{
    if (address == NULL)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Get_address",
                             "address argument is NULL");
    *address = (MPI_Aint)(uintptr_t)location;
    return MPI_SUCCESS;
}

int
MPI_Address(void *location, MPI_Aint *address)
{
    if (address == NULL)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Address",
                             "address argument is NULL");
    *address = (MPI_Aint)(uintptr_t)location;
    return MPI_SUCCESS;
}

/* Checks shared by MPI_Get_count and MPI_Get_elements. */
static int
check_status_query(const char *call, const MPI_Status *status, MPI_Datatype dt, int *count)
{
    if (status == NULL)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, call,
                             "status argument is NULL or MPI_STATUS_IGNORE");
    if (collsim_datatype_check_handle(dt) != MPI_SUCCESS)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_TYPE, call,
                             "datatype argument is not a valid datatype (%s)",
                             collsim_datatype_name(dt));
    if (count == NULL)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, call, "count argument is NULL");
    return MPI_SUCCESS;
}

/*
 * Items of datatype received: MPI_UNDEFINED when the bytes are not a whole number of items
 * (or too many for an int); 0 for a datatype of size zero (MPI-3.1 §3.2.5).
 */
int
MPI_Get_count(const MPI_Status *status, MPI_Datatype datatype, int *count)
{
    size_t bytes, items;
    int rc = check_status_query("MPI_Get_count", status, datatype, count);

    if (rc != MPI_SUCCESS)
        return rc;
    bytes = status->collsim_bytes;
    if (datatype->size == 0) {
        *count = 0;
        return MPI_SUCCESS;
    }
    items = bytes / datatype->size;
    *count = (bytes % datatype->size != 0 || items > INT_MAX) ? MPI_UNDEFINED : (int)items;
    return MPI_SUCCESS;
}

/*
 * Primitive elements received (a pair type counts two, a complex one): MPI_UNDEFINED when the
 * bytes end inside a primitive element or the number does not fit an int.
 */
int
MPI_Get_elements(const MPI_Status *status, MPI_Datatype datatype, int *count)
{
    long long elements;
    int rc = check_status_query("MPI_Get_elements", status, datatype, count);

    if (rc != MPI_SUCCESS)
        return rc;
    elements = collsim_datatype_elements(datatype, status->collsim_bytes);
    *count = (elements < 0 || elements > INT_MAX) ? MPI_UNDEFINED : (int)elements;
    return MPI_SUCCESS;
}

/* ------------------------------------------------------------------------------------------ */
/* Pack and unpack                                                                              */
/* ------------------------------------------------------------------------------------------ */

/* Checks shared by MPI_Pack and MPI_Unpack, in argument order. */
static int
check_pack(const char *call, int count, MPI_Datatype dt, int bufsize, const int *position,
           MPI_Comm comm)
{
    if (collsim_comm_check(comm) != MPI_SUCCESS)
        return collsim_error(comm, MPI_ERR_COMM, call, "comm argument is not a communicator");
    if (count < 0)
        return collsim_error(comm, MPI_ERR_COUNT, call, "count argument is negative (%d)",
                             count);
    if (collsim_datatype_check(dt) != MPI_SUCCESS)
        return collsim_error(comm, MPI_ERR_TYPE, call,
                             "datatype argument is not a valid committed datatype (%s)",
                             collsim_datatype_name(dt));
    if (bufsize < 0)
        return collsim_error(comm, MPI_ERR_ARG, call, "buffer size argument is negative (%d)",
                             bufsize);
    if (position == NULL)
        return collsim_error(comm, MPI_ERR_ARG, call, "position argument is NULL");
    if (*position < 0 || *position > bufsize)
        return collsim_error(comm, MPI_ERR_ARG, call,
                             "position argument (%d) is outside the buffer of %d bytes",
                             *position, bufsize);
    return MPI_SUCCESS;
}

/*
 * The buffers of MPI_Pack and MPI_Unpack when `bytes` are to move: the packed buffer must be
 * there, and so must the typed one unless its data may lie elsewhere (absolute displacements
 * from MPI_BOTTOM, which a contiguous type, whose data starts at the buffer, cannot have).
 */
static int
check_pack_buffers(const char *call, MPI_Comm comm, size_t bytes, const void *typed,
                   const char *typed_name, MPI_Datatype dt, const void *packed,
                   const char *packed_name)
{
    if (bytes == 0)
        return MPI_SUCCESS;
    if (packed == NULL)
        return collsim_error(comm, MPI_ERR_BUFFER, call, "%s argument is NULL with %zu bytes",
                             packed_name, bytes);
    if (typed == NULL && collsim_datatype_is_contiguous(dt))
        return collsim_error(comm, MPI_ERR_BUFFER, call,
                             "%s argument is NULL with %zu bytes of %s", typed_name, bytes,
                             collsim_datatype_name(dt));
    return MPI_SUCCESS;
}

int
MPI_Pack(const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf, int outsize,
         int *position, MPI_Comm comm)
{
    size_t bytes;
    int rc = check_pack("MPI_Pack", incount, datatype, outsize, position, comm);

    if (rc != MPI_SUCCESS)
        return rc;
    bytes = collsim_datatype_packed_size(incount, datatype);
    if (bytes > (size_t)(outsize - *position))
        return collsim_error(comm, MPI_ERR_ARG, "MPI_Pack",
                             "outsize argument (%d) leaves %d bytes at position, %zu needed",
                             outsize, outsize - *position, bytes);
    rc = check_pack_buffers("MPI_Pack", comm, bytes, inbuf, "inbuf", datatype, outbuf, "outbuf");
    if (rc != MPI_SUCCESS)
        return rc;
    collsim_datatype_pack(inbuf, incount, datatype, (char *)outbuf + *position);
    *position += (int)bytes;
    return MPI_SUCCESS;
}

int
MPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf, int outcount,
           MPI_Datatype datatype, MPI_Comm comm)
{
    size_t bytes;
    int rc = check_pack("MPI_Unpack", outcount, datatype, insize, position, comm);

    if (rc != MPI_SUCCESS)
        return rc;
    bytes = collsim_datatype_packed_size(outcount, datatype);
    if (bytes > (size_t)(insize - *position))
        return collsim_error(comm, MPI_ERR_TRUNCATE, "MPI_Unpack",
                             "insize argument (%d) leaves %d bytes at position, %zu needed",
                             insize, insize - *position, bytes);
    rc = check_pack_buffers("MPI_Unpack", comm, bytes, outbuf, "outbuf", datatype, inbuf,
                            "inbuf");
    if (rc != MPI_SUCCESS)
        return rc;
    collsim_datatype_unpack((const char *)inbuf + *position, bytes, outbuf, outcount, datatype);
    *position += (int)bytes;
    return MPI_SUCCESS;
}

int
MPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm, int *size)
{
    size_t bytes;

    if (collsim_comm_check(comm) != MPI_SUCCESS)
        return collsim_error(comm, MPI_ERR_COMM, "MPI_Pack_size",
                             "comm argument is not a communicator");
    if (incount < 0)
        return collsim_error(comm, MPI_ERR_COUNT, "MPI_Pack_size",
                             "incount argument is negative (%d)", incount);
    if (collsim_datatype_check(datatype) != MPI_SUCCESS)
        return collsim_error(comm, MPI_ERR_TYPE, "MPI_Pack_size",
                             "datatype argument is not a valid committed datatype (%s)",
                             collsim_datatype_name(datatype));
    if (size == NULL)
        return collsim_error(comm, MPI_ERR_ARG, "MPI_Pack_size", "size argument is NULL");
    bytes = collsim_datatype_packed_size(incount, datatype);
    if (bytes > INT_MAX)
        return collsim_error(comm, MPI_ERR_ARG, "MPI_Pack_size",
                             "%d items of %s take %zu bytes, more than an int holds", incount,
                             datatype->name, bytes);
    *size = (int)bytes;
    return MPI_SUCCESS;
}

/* ------------------------------------------------------------------------------------------ */
/* Subarrays and distributed arrays                                                            */
/* ------------------------------------------------------------------------------------------ */

/* The indices one process holds along one dimension: runs of consecutive indices. */
struct dim_runs {
    int n;
    int *start, *len;
};

/*
 * Lay the elements of an n-dimensional array of `oldtype` that the runs of every dimension
 * select, in array order (C: the last dimension fastest; Fortran: the first), at their
 * displacement in the whole array of gsizes. `level` counts dimensions from the slowest.
 */
static void
grid_add(struct builder *b, int ndims, const int gsizes[], const struct dim_runs runs[],
         int order, MPI_Datatype oldtype, int level, MPI_Aint base)
{
    int dim = order == MPI_ORDER_C ? level : ndims - 1 - level;
    MPI_Aint stride = collsim_datatype_extent(oldtype);

    /* bytes between consecutive indices of this dimension */
    for (int d = 0; d < ndims; d++)
        if (order == MPI_ORDER_C ? d > dim : d < dim)
            stride *= gsizes[d];
    for (int r = 0; r < runs[dim].n && b->error == MPI_SUCCESS; r++) {
        MPI_Aint at = base + (MPI_Aint)runs[dim].start[r] * stride;
        if (level == ndims - 1) {
            builder_add(b, oldtype, at, runs[dim].len[r]);
            continue;
        }
        for (int k = 0; k < runs[dim].len[r]; k++)
            grid_add(b, ndims, gsizes, runs, order, oldtype, level + 1, at + k * stride);
    }
}

/*
 * Build the type of a selection of an array of gsizes (checked by the caller), resized to the
 * whole array: lb 0 and extent prod(gsizes) · extent(oldtype), as MPI-3.1 §4.1.3–4.1.4 define
 * subarray and darray. Takes over the runs.
 */
static int
make_grid(const char *call, const char *combiner, int ndims, const int gsizes[],
          struct dim_runs runs[], int order, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    struct builder b = {0};
    char name[MPI_MAX_OBJECT_NAME];
    MPI_Aint whole = collsim_datatype_extent(oldtype);
    int rc;

    for (int d = 0; d < ndims; d++)
        if (__builtin_mul_overflow(whole, (MPI_Aint)gsizes[d], &whole))
            builder_fail(&b, MPI_ERR_ARG, "the array's extent overflows MPI_Aint");
    if (b.error == MPI_SUCCESS)
        grid_add(&b, ndims, gsizes, runs, order, oldtype, 0, 0);
    builder_merge_basic(&b, oldtype);
    for (int d = 0; d < ndims; d++) {
        g_free(runs[d].start);
        g_free(runs[d].len);
    }
    g_free(runs);
    derived_name(name, sizeof(name), combiner, oldtype);
    rc = builder_finish(&b, 0, call, name, newtype);
    if (rc != MPI_SUCCESS)
        return rc;
    (*newtype)->lb = 0;
    (*newtype)->ub = whole;
    (*newtype)->lb_marked = 1;
    (*newtype)->ub_marked = 1;
    (*newtype)->contiguous = compute_contiguous(*newtype);
    return MPI_SUCCESS;
}

/* Checks shared by subarray and darray: ndims, order, oldtype, newtype. */
static int
check_grid(const char *call, int ndims, int order, MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    if (ndims <= 0)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, call,
                             "ndims argument is not positive (%d)", ndims);
    if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, call,
                             "order argument is neither MPI_ORDER_C nor MPI_ORDER_FORTRAN (%d)",
                             order);
    return check_common(call, 0, oldtype, newtype);
}

/* Append the run [start, start + len) to r. */
static void
runs_add(struct dim_runs *r, int start, int len)
{
    if (len <= 0)
        return;
    r->start = g_renew(int, r->start, (guint)r->n + 1);
    r->len = g_renew(int, r->len, (guint)r->n + 1);
    r->start[r->n] = start;
    r->len[r->n] = len;
    r->n++;
}

int
MPI_Type_create_subarray(int ndims, const int array_of_sizes[], const int array_of_subsizes[],
                         const int array_of_starts[], int order, MPI_Datatype oldtype,
                         MPI_Datatype *newtype)
{
    const char *call = "MPI_Type_create_subarray";
    struct dim_runs *runs;
    int rc = check_grid(call, ndims, order, oldtype, newtype);

    if (rc != MPI_SUCCESS)
        return rc;
    if (array_of_sizes == NULL || array_of_subsizes == NULL || array_of_starts == NULL)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, call, "array_of_%s argument is NULL",
                             array_of_sizes == NULL      ? "sizes"
                             : array_of_subsizes == NULL ? "subsizes"
                                                         : "starts");
    for (int d = 0; d < ndims; d++) {
        int size = array_of_sizes[d], sub = array_of_subsizes[d], start = array_of_starts[d];
        if (size <= 0)
            return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, call,
                                 "array_of_sizes[%d] is not positive (%d)", d, size);
        if (sub < 0 || sub > size)
            return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, call,
                                 "array_of_subsizes[%d] (%d) is not between 0 and the size %d",
                                 d, sub, size);
        if (start < 0 || start > size - sub)
            return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, call,
                                 "array_of_starts[%d] (%d) puts the subarray of %d outside the "
                                 "size %d",
                                 d, start, sub, size);
    }
    runs = g_new0(struct dim_runs, (guint)ndims);
    for (int d = 0; d < ndims; d++)
        runs_add(&runs[d], array_of_starts[d], array_of_subsizes[d]);
    rc = make_grid(call, "subarray", ndims, array_of_sizes, runs, order, oldtype, newtype);
    rc = remember(rc, newtype, MPI_COMBINER_SUBARRAY,
                  int_args(ndims, ndims, array_of_sizes, ndims, array_of_subsizes, ndims,
                           array_of_starts, 1, &order, 0, NULL),
                  NULL, 1, &oldtype);
    return held_by_caller(rc, newtype, call, COLLSIM_CALLER());
}

int
MPI_Type_create_darray(int size, int rank, int ndims, const int array_of_gsizes[],
                       const int array_of_distribs[], const int array_of_dargs[],
                       const int array_of_psizes[], int order, MPI_Datatype oldtype,
                       MPI_Datatype *newtype)
{
    const char *call = "MPI_Type_create_darray";
    struct dim_runs *runs;
    long long procs = 1;
    int rc;

    if (size <= 0)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, call,
                             "size argument is not positive (%d)", size);
    if (rank < 0 || rank >= size)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_RANK, call,
                             "rank argument (%d) is not between 0 and size - 1 (%d)", rank,
                             size - 1);
    rc = check_grid(call, ndims, order, oldtype, newtype);
    if (rc != MPI_SUCCESS)
        return rc;
    if (array_of_gsizes == NULL || array_of_distribs == NULL || array_of_dargs == NULL ||
        array_of_psizes == NULL)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, call, "array_of_%s argument is NULL",
                             array_of_gsizes == NULL     ? "gsizes"
                             : array_of_distribs == NULL ? "distribs"
                             : array_of_dargs == NULL    ? "dargs"
                                                         : "psizes");
    for (int d = 0; d < ndims; d++) {
        int g = array_of_gsizes[d], dist = array_of_distribs[d], darg = array_of_dargs[d];
        int p = array_of_psizes[d];
        if (g <= 0)
            return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, call,
                                 "array_of_gsizes[%d] is not positive (%d)", d, g);
        if (p <= 0)
            return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, call,
                                 "array_of_psizes[%d] is not positive (%d)", d, p);
        if (dist != MPI_DISTRIBUTE_BLOCK && dist != MPI_DISTRIBUTE_CYCLIC &&
            dist != MPI_DISTRIBUTE_NONE)
            return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, call,
                                 "array_of_distribs[%d] is not a distribution (%d)", d, dist);
        if (dist == MPI_DISTRIBUTE_NONE && p != 1)
            return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, call,
                                 "array_of_psizes[%d] is %d for MPI_DISTRIBUTE_NONE, not 1", d,
                                 p);
        if (dist != MPI_DISTRIBUTE_NONE && darg != MPI_DISTRIBUTE_DFLT_DARG && darg <= 0)
            return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, call,
                                 "array_of_dargs[%d] is not positive (%d)", d, darg);
        if (dist == MPI_DISTRIBUTE_BLOCK && darg != MPI_DISTRIBUTE_DFLT_DARG &&
            (long long)darg * p < g)
            return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, call,
                                 "array_of_dargs[%d] (%d) times %d processes leaves part of the "
                                 "%d elements to no process",
                                 d, darg, p, g);
        procs *= p;
        if (procs > size)
            break;
    }
    if (procs != size)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, call,
                             "the product of array_of_psizes is not size (%d)", size);

    /* The process grid is row-major whatever `order` says (MPI-3.1 §4.1.4). */
    runs = g_new0(struct dim_runs, (guint)ndims);
    for (int d = ndims - 1, r = rank; d >= 0; d--) {
        int g = array_of_gsizes[d], p = array_of_psizes[d], darg = array_of_dargs[d];
        int coord = r % p;
        r /= p;
        switch (array_of_distribs[d]) {
        case MPI_DISTRIBUTE_NONE:
            runs_add(&runs[d], 0, g);
            break;
        case MPI_DISTRIBUTE_BLOCK: {
            long long blk = darg == MPI_DISTRIBUTE_DFLT_DARG ? (g + p - 1) / p : darg;
            long long lo = MIN(blk * coord, g), hi = MIN(blk * (coord + 1), g);
            runs_add(&runs[d], (int)lo, (int)(hi - lo));
            break;
        }
        default: { /* cyclic(darg): blocks coord, coord + p, coord + 2p, … */
            long long blk = darg == MPI_DISTRIBUTE_DFLT_DARG ? 1 : darg;
            for (long long lo = blk * coord; lo < g; lo += blk * p)
                runs_add(&runs[d], (int)lo, (int)(MIN(lo + blk, g) - lo));
            break;
        }
        }
    }
    rc = make_grid(call, "darray", ndims, array_of_gsizes, runs, order, oldtype, newtype);
    rc = remember(rc, newtype, MPI_COMBINER_DARRAY,
                  int_args(size, 1, &rank, 1, &ndims, ndims, array_of_gsizes, ndims,
                           array_of_distribs, ndims, array_of_dargs, ndims, array_of_psizes, 1,
                           &order, 0, NULL),
                  NULL, 1, &oldtype);
    return held_by_caller(rc, newtype, call, COLLSIM_CALLER());
}

/* ------------------------------------------------------------------------------------------ */
/* Envelopes, contents, names, large-count queries, address arithmetic                         */
/* ------------------------------------------------------------------------------------------ */

/* A handle of MPI_Type_create_f90_*: predefined (never freed), but with a combiner and the
 * parameters it was asked with (MPI-3.1 §17.1.9). */
static gboolean
is_f90(MPI_Datatype dt)
{
    return dt->contents.combiner == MPI_COMBINER_F90_REAL ||
           dt->contents.combiner == MPI_COMBINER_F90_COMPLEX ||
           dt->contents.combiner == MPI_COMBINER_F90_INTEGER;
}

int
MPI_Type_get_envelope(MPI_Datatype datatype, int *num_integers, int *num_addresses,
                      int *num_datatypes, int *combiner)
{
    const char *call = "MPI_Type_get_envelope";
    int rc = check_query(call, datatype, num_integers, "num_integers");

    if (rc == MPI_SUCCESS)
        rc = check_query(call, datatype, num_addresses, "num_addresses");
    if (rc == MPI_SUCCESS)
        rc = check_query(call, datatype, num_datatypes, "num_datatypes");
    if (rc == MPI_SUCCESS)
        rc = check_query(call, datatype, combiner, "combiner");
    if (rc != MPI_SUCCESS)
        return rc;
    if (datatype->predefined && !is_f90(datatype)) {
        *num_integers = *num_addresses = *num_datatypes = 0;
        *combiner = MPI_COMBINER_NAMED;
        return MPI_SUCCESS;
    }
    *num_integers = datatype->contents.nints;
    *num_addresses = datatype->contents.naints;
    *num_datatypes = datatype->contents.ntypes;
    *combiner = datatype->contents.combiner;
    return MPI_SUCCESS;
}

/*
 * A new handle on a type equivalent to dt, for MPI_Type_get_contents: predefined types are
 * their own handle; a derived one is a new object the caller frees (MPI-3.1 §4.1.13).
 */
static MPI_Datatype
contents_type(MPI_Datatype dt)
{
    MPI_Datatype copy;
    const struct collsim_dt_contents *c = &dt->contents;

    if (dt->predefined)
        return dt;
    copy = datatype_copy(dt);
    if (copy == NULL)
        return MPI_DATATYPE_NULL;
    copy->committed = dt->committed;
    copy->user_named = dt->user_named;
    copy->contents.combiner = c->combiner;
    copy->contents.nints = c->nints;
    copy->contents.naints = c->naints;
    copy->contents.ntypes = c->ntypes;
    copy->contents.ints = c->nints > 0 ? g_memdup2(c->ints, c->nints * sizeof(int)) : NULL;
    copy->contents.aints =
        c->naints > 0 ? g_memdup2(c->aints, c->naints * sizeof(MPI_Aint)) : NULL;
    copy->contents.types = c->ntypes > 0 ? g_new(MPI_Datatype, (guint)c->ntypes) : NULL;
    for (int i = 0; i < c->ntypes; i++)
        copy->contents.types[i] = collsim_datatype_ref(c->types[i]);
    return copy;
}

int
MPI_Type_get_contents(MPI_Datatype datatype, int max_integers, int max_addresses,
                      int max_datatypes, int array_of_integers[], MPI_Aint array_of_addresses[],
                      MPI_Datatype array_of_datatypes[])
{
    const char *call = "MPI_Type_get_contents";
    const struct collsim_dt_contents *c;
    int rc = check_query(call, datatype, "", "");

    if (rc != MPI_SUCCESS)
        return rc;
    if (datatype->predefined && !is_f90(datatype))
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_TYPE, call,
                             "datatype argument is the predefined datatype %s, which has no "
                             "contents",
                             datatype->name);
    c = &datatype->contents;
    if (max_integers < c->nints || max_addresses < c->naints || max_datatypes < c->ntypes)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, call,
                             "max_integers, max_addresses, max_datatypes (%d, %d, %d) are less "
                             "than the envelope's (%d, %d, %d)",
                             max_integers, max_addresses, max_datatypes, c->nints, c->naints,
                             c->ntypes);
    if ((c->nints > 0 && array_of_integers == NULL) ||
        (c->naints > 0 && array_of_addresses == NULL) ||
        (c->ntypes > 0 && array_of_datatypes == NULL))
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, call,
                             "array_of_%s argument is NULL",
                             c->nints > 0 && array_of_integers == NULL     ? "integers"
                             : c->naints > 0 && array_of_addresses == NULL ? "addresses"
                                                                           : "datatypes");
    if (c->nints > 0)
        memcpy(array_of_integers, c->ints, c->nints * sizeof(int));
    if (c->naints > 0)
        memcpy(array_of_addresses, c->aints, c->naints * sizeof(MPI_Aint));
    for (int i = 0; i < c->ntypes; i++) {
        array_of_datatypes[i] = contents_type(c->types[i]);
        if (array_of_datatypes[i] == MPI_DATATYPE_NULL)
            return collsim_error(MPI_COMM_WORLD, MPI_ERR_NO_MEM, call, "out of memory");
        if (!c->types[i]->predefined)
            held_by_caller(MPI_SUCCESS, &array_of_datatypes[i], call, COLLSIM_CALLER());
    }
    return MPI_SUCCESS;
}

int
MPI_Type_set_name(MPI_Datatype datatype, const char *type_name)
{
    int rc = check_query("MPI_Type_set_name", datatype, type_name, "type_name");

    if (rc != MPI_SUCCESS)
        return rc;
    g_strlcpy(datatype->name, type_name, sizeof(datatype->name));
    datatype->user_named = 1;
    return MPI_SUCCESS;
}

/* Predefined types answer their MPI name; a derived type its set name, else "". */
int
MPI_Type_get_name(MPI_Datatype datatype, char *type_name, int *resultlen)
{
    int rc = check_query("MPI_Type_get_name", datatype, type_name, "type_name");

    if (rc == MPI_SUCCESS)
        rc = check_query("MPI_Type_get_name", datatype, resultlen, "resultlen");
    if (rc != MPI_SUCCESS)
        return rc;
    g_strlcpy(type_name, datatype->predefined || datatype->user_named ? datatype->name : "",
              MPI_MAX_OBJECT_NAME);
    *resultlen = (int)strlen(type_name);
    return MPI_SUCCESS;
}

int
MPI_Type_size_x(MPI_Datatype datatype, MPI_Count *size)
{
    int rc = check_query("MPI_Type_size_x", datatype, size, "size");

    if (rc != MPI_SUCCESS)
        return rc;
    *size = (MPI_Count)datatype->size;
    return MPI_SUCCESS;
}

int
MPI_Type_get_extent_x(MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent)
{
    int rc = check_query("MPI_Type_get_extent_x", datatype, lb, "lb");

    if (rc == MPI_SUCCESS)
        rc = check_query("MPI_Type_get_extent_x", datatype, extent, "extent");
    if (rc != MPI_SUCCESS)
        return rc;
    *lb = datatype->lb;
    *extent = collsim_datatype_extent(datatype);
    return MPI_SUCCESS;
}

int
MPI_Type_get_true_extent_x(MPI_Datatype datatype, MPI_Count *true_lb, MPI_Count *true_extent)
{
    int rc = check_query("MPI_Type_get_true_extent_x", datatype, true_lb, "true_lb");

    if (rc == MPI_SUCCESS)
        rc = check_query("MPI_Type_get_true_extent_x", datatype, true_extent, "true_extent");
    if (rc != MPI_SUCCESS)
        return rc;
    *true_lb = datatype->true_lb;
    *true_extent = datatype->true_ub - datatype->true_lb;
    return MPI_SUCCESS;
}

/* Address arithmetic on integers, so that MPI_BOTTOM-relative addresses work (§4.1.12). */
MPI_Aint
MPI_Aint_add(MPI_Aint base, MPI_Aint disp)
{
    return (MPI_Aint)((uintptr_t)base + (uintptr_t)disp);
}

MPI_Aint
MPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2)
{
    return (MPI_Aint)((uintptr_t)addr1 - (uintptr_t)addr2);
}

/* A predefined type of `size` bytes of the Fortran-style class (MPI-3.1 §17.1.9). */
int
MPI_Type_match_size(int typeclass, int size, MPI_Datatype *datatype)
{
    const char *call = "MPI_Type_match_size";
    MPI_Datatype found = MPI_DATATYPE_NULL;

    if (datatype == NULL)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, call, "datatype argument is NULL");
    switch (typeclass) {
    /* the Fortran type of each size, the default kind's own name where it has that size (as
     * Open MPI answers) */
    case MPI_TYPECLASS_INTEGER:
        found = size == (int)sizeof(int) ? MPI_INTEGER
                : size == 1 ? MPI_INTEGER1
                : size == 2 ? MPI_INTEGER2
                : size == 8 ? MPI_INTEGER8
                            : MPI_DATATYPE_NULL;
        break;
    case MPI_TYPECLASS_REAL:
        found = size == (int)sizeof(float) ? MPI_REAL
                : size == (int)sizeof(double) ? MPI_REAL8
                : size == (int)sizeof(long double) ? MPI_REAL16
                                                   : MPI_DATATYPE_NULL;
        break;
    case MPI_TYPECLASS_COMPLEX:
        found = size == (int)sizeof(float _Complex) ? MPI_COMPLEX
                : size == (int)sizeof(double _Complex) ? MPI_COMPLEX16
                : size == (int)sizeof(long double _Complex) ? MPI_COMPLEX32
                                                            : MPI_DATATYPE_NULL;
        break;
    default:
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, call,
                             "typeclass argument is not an MPI_TYPECLASS_ (%d)", typeclass);
    }
    if (found == MPI_DATATYPE_NULL)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, call,
                             "no predefined type of typeclass %d has %d bytes", typeclass, size);
    *datatype = found;
    return MPI_SUCCESS;
}

/*
 * MPI_Type_create_f90_real, _complex and _integer (MPI-3.1 §17.1.9): the type of a Fortran
 * variable of KIND selected_real_kind(p, r) (selected_int_kind(r)) under gfortran on this host:
 * 4-byte reals up to 6 digits and a range of 37, 8-byte ones up to 15 and 307, the x87
 * extended (C's long double) up to 18 and 4931; integers of 1, 2, 4 and 8 bytes up to 2, 4, 9
 * and 18 digits. MPI_UNDEFINED leaves p or r free. Each (combiner, p, r) has one handle, made at
 * the first call and never freed (the program may not free it either); it is a copy of the C
 * type of that layout, whose envelope gives the combiner and contents give p and r, and whose
 * name says which, as Open MPI's does ("COMBINER MPI_DOUBLE").
 */
static GHashTable *f90_types; /* "combiner p r" -> MPI_Datatype */

static MPI_Datatype
f90_real_layout(int p, int r, gboolean complex)
{
    int digits = p == MPI_UNDEFINED ? 0 : p, range = r == MPI_UNDEFINED ? 0 : r;
    if (digits < 0 || range < 0)
        return MPI_DATATYPE_NULL;
    if (digits <= 6 && range <= 37)
        return complex ? MPI_COMPLEX : MPI_FLOAT;
    if (digits <= 15 && range <= 307)
        return complex ? MPI_DOUBLE_COMPLEX : MPI_DOUBLE;
    if (digits <= 18 && range <= 4931)
        return complex ? MPI_C_LONG_DOUBLE_COMPLEX : MPI_LONG_DOUBLE;
    return MPI_DATATYPE_NULL;
}

static MPI_Datatype
f90_integer_layout(int r)
{
    return r < 0 ? MPI_DATATYPE_NULL
           : r <= 2 ? MPI_SIGNED_CHAR
           : r <= 4 ? MPI_SHORT
           : r <= 9 ? MPI_INT
           : r <= 18 ? (sizeof(long) == 8 ? MPI_LONG : MPI_LONG_LONG_INT)
                     : MPI_DATATYPE_NULL;
}

static int
f90_type(const char *call, int combiner, int p, int r, MPI_Datatype layout, MPI_Datatype *newtype)
{
    int rc = collsim_check_live(call);
    if (rc != MPI_SUCCESS)
        return rc;
    if (newtype == NULL)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, call, "newtype argument is NULL");
    if (layout == MPI_DATATYPE_NULL) {
        if (combiner == MPI_COMBINER_F90_INTEGER)
            return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, call,
                                 "no integer kind has a range of %d decimal digits (at most 18)",
                                 r);
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, call,
                             "no real kind has a precision of %d and a range of %d (at most 18 "
                             "and 4931; MPI_UNDEFINED for either leaves it free)",
                             p, r);
    }
    if (f90_types == NULL)
        f90_types = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    gchar *key = g_strdup_printf("%d %d %d", combiner, p, r);
    MPI_Datatype dt = g_hash_table_lookup(f90_types, key);
    if (dt != NULL) {
        g_free(key);
        *newtype = dt;
        return MPI_SUCCESS;
    }
    dt = g_new(struct collsim_datatype, 1);
    *dt = *layout; /* its layout, segments included (the predefined type's, never freed) */
    dt->attrs = NULL;
    dt->user_named = 0;
    g_snprintf(dt->name, sizeof dt->name, "COMBINER %s", layout->name);
    dt->contents = (struct collsim_dt_contents){.combiner = combiner,
                                                .nints = combiner == MPI_COMBINER_F90_INTEGER ? 1
                                                                                              : 2,
                                                .ints = g_new(int, 2)};
    dt->contents.ints[0] = combiner == MPI_COMBINER_F90_INTEGER ? r : p;
    dt->contents.ints[1] = r;
    collsim_handle_add(dt);
    g_hash_table_insert(f90_types, key, dt);
    *newtype = dt;
    return MPI_SUCCESS;
}

int
MPI_Type_create_f90_real(int p, int r, MPI_Datatype *newtype)
{
    return f90_type("MPI_Type_create_f90_real", MPI_COMBINER_F90_REAL, p, r,
                    f90_real_layout(p, r, FALSE), newtype);
}

int
MPI_Type_create_f90_complex(int p, int r, MPI_Datatype *newtype)
{
    return f90_type("MPI_Type_create_f90_complex", MPI_COMBINER_F90_COMPLEX, p, r,
                    f90_real_layout(p, r, TRUE), newtype);
}

int
MPI_Type_create_f90_integer(int r, MPI_Datatype *newtype)
{
    return f90_type("MPI_Type_create_f90_integer", MPI_COMBINER_F90_INTEGER, r, r,
                    f90_integer_layout(r), newtype);
}

/* ------------------------------------------------------------------------------------------ */
/* The "external32" representation (MPI-3.1 §13.5.2)                                           */
/* ------------------------------------------------------------------------------------------ */

/* Bytes one element of a segment takes in external32. */
static size_t
ext_elem_size(enum collsim_dt_ext ext, size_t elem_size)
{
    switch (ext) {
    case COLLSIM_EXT_LONG:
    case COLLSIM_EXT_ULONG:
        return 4;
    case COLLSIM_EXT_WCHAR:
        return 2;
    default:
        return elem_size;
    }
}

/* Bytes one item of dt takes in external32. */
static size_t
ext_item_size(MPI_Datatype dt)
{
    size_t bytes = 0;

    for (size_t s = 0; s < dt->nsegs; s++) {
        const struct collsim_dt_seg *seg = &dt->segs[s];
        bytes += seg->len / seg->elem_size * ext_elem_size(seg_ext(dt, seg), seg->elem_size);
    }
    return bytes;
}

/* Copy n bytes reversed: the host is little-endian, external32 big-endian. */
static void
copy_reversed(unsigned char *to, const unsigned char *from, size_t n)
{
    for (size_t i = 0; i < n; i++)
        to[i] = from[n - 1 - i];
}

/* Write one native element at `native` as external32 at `ext`; returns the bytes written. */
static size_t
ext_write(enum collsim_dt_ext code, size_t elem_size, const char *native, unsigned char *ext)
{
    switch (code) {
    case COLLSIM_EXT_PARTS4:
    case COLLSIM_EXT_PARTS8: {
        size_t part = code == COLLSIM_EXT_PARTS4 ? 4 : 8;
        for (size_t o = 0; o < elem_size; o += part)
            copy_reversed(ext + o, (const unsigned char *)native + o, part);
        return elem_size;
    }
    case COLLSIM_EXT_QUAD:
        for (size_t o = 0; o < elem_size; o += sizeof(long double)) {
            long double v;
            __float128 q;
            memcpy(&v, native + o, sizeof(v));
            q = (__float128)v;
            copy_reversed(ext + o, (const unsigned char *)&q, 16);
        }
        return elem_size;
    case COLLSIM_EXT_LONG:
    case COLLSIM_EXT_ULONG: {
        unsigned long v;
        uint32_t low;
        memcpy(&v, native, sizeof(v));
        low = (uint32_t)v;
        copy_reversed(ext, (const unsigned char *)&low, 4);
        return 4;
    }
    case COLLSIM_EXT_WCHAR: {
        wchar_t v;
        uint16_t low;
        memcpy(&v, native, sizeof(v));
        low = (uint16_t)v;
        copy_reversed(ext, (const unsigned char *)&low, 2);
        return 2;
    }
    default:
        copy_reversed(ext, (const unsigned char *)native, elem_size);
        return elem_size;
    }
}

/* Read one external32 element at `ext` into native form at `native`; returns bytes read. */
static size_t
ext_read(enum collsim_dt_ext code, size_t elem_size, const unsigned char *ext, char *native)
{
    switch (code) {
    case COLLSIM_EXT_PARTS4:
    case COLLSIM_EXT_PARTS8: {
        size_t part = code == COLLSIM_EXT_PARTS4 ? 4 : 8;
        for (size_t o = 0; o < elem_size; o += part)
            copy_reversed((unsigned char *)native + o, ext + o, part);
        return elem_size;
    }
    case COLLSIM_EXT_QUAD:
        for (size_t o = 0; o < elem_size; o += sizeof(long double)) {
            __float128 q;
            long double v;
            copy_reversed((unsigned char *)&q, ext + o, 16);
            v = (long double)q;
            memcpy(native + o, &v, sizeof(v));
        }
        return elem_size;
    case COLLSIM_EXT_LONG:
    case COLLSIM_EXT_ULONG: {
        uint32_t low;
        copy_reversed((unsigned char *)&low, ext, 4);
        if (code == COLLSIM_EXT_LONG) {
            long v = (int32_t)low;
            memcpy(native, &v, sizeof(v));
        } else {
            unsigned long v = low;
            memcpy(native, &v, sizeof(v));
        }
        return 4;
    }
    case COLLSIM_EXT_WCHAR: {
        uint16_t low;
        wchar_t v;
        copy_reversed((unsigned char *)&low, ext, 2);
        v = (wchar_t)low;
        memcpy(native, &v, sizeof(v));
        return 2;
    }
    default:
        copy_reversed((unsigned char *)native, ext, elem_size);
        return elem_size;
    }
}

/* Convert count items between their buffer and external32 bytes, in type-map order. */
static void
ext_convert(int to_ext, const void *buf, int count, MPI_Datatype dt, unsigned char *ext)
{
    MPI_Aint extent = collsim_datatype_extent(dt);

    for (int k = 0; k < count; k++) {
        for (size_t s = 0; s < dt->nsegs; s++) {
            const struct collsim_dt_seg *seg = &dt->segs[s];
            enum collsim_dt_ext code = seg_ext(dt, seg);
            char *at = address_at(buf, (MPI_Aint)k * extent + seg->disp);
            for (size_t o = 0; o < seg->len; o += seg->elem_size)
                ext += to_ext ? ext_write(code, seg->elem_size, at + o, ext)
                              : ext_read(code, seg->elem_size, ext, at + o);
        }
    }
}

/* Checks shared by the external32 calls, in argument order. */
static int
check_external(const char *call, const char datarep[], int count, MPI_Datatype dt)
{
    if (datarep == NULL || strcmp(datarep, "external32") != 0)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, call,
                             "datarep argument is \"%s\", not \"external32\"",
                             datarep ? datarep : "(null)");
    if (count < 0)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_COUNT, call,
                             "count argument is negative (%d)", count);
    if (collsim_datatype_check(dt) != MPI_SUCCESS)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_TYPE, call,
                             "datatype argument is not a valid committed datatype (%s)",
                             collsim_datatype_name(dt));
    return MPI_SUCCESS;
}

/* Checks of the packed buffer: size, position inside it, room for `bytes` more. */
static int
check_external_room(const char *call, int truncate_class, const void *packed, MPI_Aint size,
                    const MPI_Aint *position, size_t bytes)
{
    if (size < 0)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, call,
                             "buffer size argument is negative (%lld)", (long long)size);
    if (position == NULL)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, call, "position argument is NULL");
    if (*position < 0 || *position > size)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, call,
                             "position argument (%lld) is outside the buffer of %lld bytes",
                             (long long)*position, (long long)size);
    if (bytes > (size_t)(size - *position))
        return collsim_error(MPI_COMM_WORLD, truncate_class, call,
                             "the buffer of %lld bytes leaves %lld at position, %zu needed",
                             (long long)size, (long long)(size - *position), bytes);
    if (bytes > 0 && packed == NULL)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_BUFFER, call,
                             "packed buffer argument is NULL with %zu bytes", bytes);
    return MPI_SUCCESS;
}

int
MPI_Pack_external_size(const char datarep[], int incount, MPI_Datatype datatype,
                       MPI_Aint *size)
{
    int rc = check_external("MPI_Pack_external_size", datarep, incount, datatype);

    if (rc != MPI_SUCCESS)
        return rc;
    if (size == NULL)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Pack_external_size",
                             "size argument is NULL");
    *size = (MPI_Aint)((size_t)incount * ext_item_size(datatype));
    return MPI_SUCCESS;
}

int
MPI_Pack_external(const char datarep[], const void *inbuf, int incount, MPI_Datatype datatype,
                  void *outbuf, MPI_Aint outsize, MPI_Aint *position)
{
    const char *call = "MPI_Pack_external";
    size_t bytes;
    int rc = check_external(call, datarep, incount, datatype);

    if (rc != MPI_SUCCESS)
        return rc;
    bytes = (size_t)incount * ext_item_size(datatype);
    rc = check_external_room(call, MPI_ERR_ARG, outbuf, outsize, position, bytes);
    if (rc != MPI_SUCCESS)
        return rc;
    if (bytes > 0 && inbuf == NULL && collsim_datatype_is_contiguous(datatype))
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_BUFFER, call,
                             "inbuf argument is NULL with %zu bytes of %s", bytes,
                             collsim_datatype_name(datatype));
    ext_convert(1, inbuf, incount, datatype, (unsigned char *)outbuf + *position);
    *position += (MPI_Aint)bytes;
    return MPI_SUCCESS;
}

int
MPI_Unpack_external(const char datarep[], const void *inbuf, MPI_Aint insize,
                    MPI_Aint *position, void *outbuf, int outcount, MPI_Datatype datatype)
{
    const char *call = "MPI_Unpack_external";
    size_t bytes;
    int rc = check_external(call, datarep, outcount, datatype);

    if (rc != MPI_SUCCESS)
        return rc;
    bytes = (size_t)outcount * ext_item_size(datatype);
    rc = check_external_room(call, MPI_ERR_TRUNCATE, inbuf, insize, position, bytes);
    if (rc != MPI_SUCCESS)
        return rc;
    if (bytes > 0 && outbuf == NULL && collsim_datatype_is_contiguous(datatype))
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_BUFFER, call,
                             "outbuf argument is NULL with %zu bytes of %s", bytes,
                             collsim_datatype_name(datatype));
    ext_convert(0, outbuf, outcount, datatype, (unsigned char *)inbuf + *position);
    *position += (MPI_Aint)bytes;
    return MPI_SUCCESS;
}
