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
 *   - MPI_Type_create_resized marks both bounds.
 * Invariants: see datatype.h. Errors of MPI entry points go through collsim_error() on
 * MPI_COMM_WORLD (MPI_Pack/MPI_Unpack: on their communicator).
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include <glib.h>

#include "callsite.h"
#include "comm.h"
#include "datatype.h"
#include "errhandler.h"
#include "handles.h"

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
        .segs = (struct collsim_dt_seg[]){{0, sizeof(ctype), sizeof(ctype)}},                   \
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
            {0, PAIR_MERGES(S, V, I) ? sizeof(V) + sizeof(I) : sizeof(V), sizeof(V)},           \
            {offsetof(S, i), sizeof(I), sizeof(I)}},                                            \
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

COLLSIM_MARKER(collsim_dt_lb, "MPI_LB", lb_marked);
COLLSIM_MARKER(collsim_dt_ub, "MPI_UB", ub_marked);

/* ------------------------------------------------------------------------------------------ */
/* Internal API                                                                                 */
/* ------------------------------------------------------------------------------------------ */

int
collsim_datatype_check_handle(MPI_Datatype dt)
{
    if (!collsim_handle_readable(dt) || dt->magic != COLLSIM_DATATYPE_MAGIC || dt->freed)
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

/* Release the memory of a derived type whose last reference is gone. */
static void
datatype_destroy(MPI_Datatype dt)
{
    dt->magic = 0;
    collsim_handle_remove(dt);
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

/* Append one run of bytes, merging it into the last segment when it continues it. */
static void
builder_append(struct builder *b, MPI_Aint disp, size_t len, size_t elem_size)
{
    struct collsim_dt_seg *last = b->nsegs > 0 ? &b->segs[b->nsegs - 1] : NULL;

    if (len == 0)
        return;
    if (last != NULL && last->elem_size == elem_size &&
        last->disp + (MPI_Aint)last->len == disp) {
        last->len += len;
        return;
    }
    if (b->nsegs == b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 8;
        struct collsim_dt_seg *segs;
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
    b->segs[b->nsegs++] = (struct collsim_dt_seg){disp, len, elem_size};
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

    /* Segments: a dense child (one segment filling its extent) makes one run. */
    if (child->nsegs == 1 && extent > 0 && (size_t)extent == child->segs[0].len) {
        builder_append(b, base + child->segs[0].disp, bytes, child->segs[0].elem_size);
        return;
    }
    for (MPI_Aint k = 0; k < n && b->error == MPI_SUCCESS; k++) {
        MPI_Aint off = base + k * extent;
        for (size_t s = 0; s < child->nsegs; s++)
            builder_append(b, off + child->segs[s].disp, child->segs[s].len,
                           child->segs[s].elem_size);
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
    builder_add(&b, oldtype, 0, count);
    derived_name(name, sizeof(name), "contiguous", oldtype);
    return held_by_caller(builder_finish(&b, 0, "MPI_Type_contiguous", name, newtype), newtype,
                          "MPI_Type_contiguous", COLLSIM_CALLER());
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
    return held_by_caller(
        make_hvector(call, "vector", count, blocklength, stride_bytes, oldtype, newtype), newtype,
        call, COLLSIM_CALLER());
}

int
MPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                        MPI_Datatype *newtype)
{
    return held_by_caller(make_hvector("MPI_Type_create_hvector", "hvector", count, blocklength,
                                       stride, oldtype, newtype),
                          newtype, "MPI_Type_create_hvector", COLLSIM_CALLER());
}

int
MPI_Type_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                 MPI_Datatype *newtype)
{
    return held_by_caller(make_hvector("MPI_Type_hvector", "hvector", count, blocklength, stride,
                                       oldtype, newtype),
                          newtype, "MPI_Type_hvector", COLLSIM_CALLER());
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
    return held_by_caller(make_indexed("MPI_Type_indexed", "indexed", count, blocklengths, 0,
                                       displacements, NULL, oldtype, newtype),
                          newtype, "MPI_Type_indexed", COLLSIM_CALLER());
}

int
MPI_Type_create_hindexed(int count, const int blocklengths[], const MPI_Aint displacements[],
                         MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    if (count > 0 && blocklengths == NULL)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Type_create_hindexed",
                             "array_of_blocklengths argument is NULL");
    return held_by_caller(make_indexed("MPI_Type_create_hindexed", "hindexed", count,
                                       blocklengths, 0, NULL, displacements, oldtype, newtype),
                          newtype, "MPI_Type_create_hindexed", COLLSIM_CALLER());
}

int
MPI_Type_create_indexed_block(int count, int blocklength, const int displacements[],
                              MPI_Datatype oldtype, MPI_Datatype *newtype)
{
    return held_by_caller(make_indexed("MPI_Type_create_indexed_block", "indexed_block", count,
                                       NULL, blocklength, displacements, NULL, oldtype, newtype),
                          newtype, "MPI_Type_create_indexed_block", COLLSIM_CALLER());
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
        builder_add(&b, types[i], displacements[i], blocklengths[i]);
    return builder_finish(&b, 1, call, "struct", newtype);
}

int
MPI_Type_create_struct(int count, const int blocklengths[], const MPI_Aint displacements[],
                       const MPI_Datatype types[], MPI_Datatype *newtype)
{
    return held_by_caller(make_struct("MPI_Type_create_struct", count, blocklengths,
                                      displacements, types, newtype),
                          newtype, "MPI_Type_create_struct", COLLSIM_CALLER());
}

int
MPI_Type_struct(int count, int blocklengths[], MPI_Aint displacements[], MPI_Datatype types[],
                MPI_Datatype *newtype)
{
    return held_by_caller(
        make_struct("MPI_Type_struct", count, blocklengths, displacements, types, newtype),
        newtype, "MPI_Type_struct", COLLSIM_CALLER());
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
    dt->segs = NULL;
    if (old->nsegs > 0) {
        dt->segs = malloc(old->nsegs * sizeof(*dt->segs));
        if (dt->segs == NULL) {
            datatype_destroy(dt);
            return NULL;
        }
        memcpy(dt->segs, old->segs, old->nsegs * sizeof(*dt->segs));
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
    return held_by_caller(MPI_SUCCESS, newtype, call, COLLSIM_CALLER());
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
    return held_by_caller(MPI_SUCCESS, newtype, call, COLLSIM_CALLER());
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
    dt->freed = 1;
    collsim_handle_let_go(dt);
    *datatype = MPI_DATATYPE_NULL;
    collsim_datatype_unref(dt);
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
