/*
 * datatype.h — MPI datatypes: the predefined ones, derived-type constructors, pack/unpack.
 *
 * A datatype is a flattened type map: an ordered list of segments (displacement, bytes), each a
 * run of primitive elements of one size, in the order the type map lists them (pack order).
 * Adjacent segments of one element size that touch in memory are merged.
 * Beside the segments a type keeps:
 *   - its bounds: lb/ub (extent = ub - lb) with MPI-1 "sticky" markers (MPI_LB, MPI_UB and
 *     MPI_Type_create_resized set them), and true_lb/true_ub of the data alone;
 *   - `basic`: the predefined type every element of the type map is made of (a homogeneous
 *     type, e.g. contiguous(2, MPI_DOUBLE) → MPI_DOUBLE, 2 per item), NULL otherwise; predefined
 *     ops apply to homogeneous types element by element;
 *   - `contiguous`: packing `count` items is one memcpy of count * size bytes from the buffer.
 * Invariants: size == sum of segment lengths; every segment length is a multiple of its element
 * size; predefined types are never freed and are always committed; a derived type's
 * representation is self-contained (its segments never point into the types it was built
 * from), so freeing a type used inside another one is safe; the constructor's arguments are
 * kept beside it for MPI_Type_get_contents, with a reference on each type among them. Derived
 * types are reference counted so that pending transfers keep the type alive after
 * MPI_Type_free.
 */
#ifndef COLLSIM_DATATYPE_H
#define COLLSIM_DATATYPE_H

#include <stddef.h>
#include <stdint.h>

#include "mpi.h"

struct collsim_attr_store;

#define COLLSIM_DATATYPE_MAGIC 0x44547970u /* "DTyp" */

/*
 * C representation of a predefined type's element, for the op kernels (op.c). Several MPI types
 * share one kind (MPI_INTEGER and MPI_INT are both `int`); whether an op is defined on a type is
 * decided per MPI type (op.c), never per kind.
 */
enum collsim_dt_kind {
    COLLSIM_KIND_NONE, /* MPI_LB, MPI_UB, derived types */
    /* integers */
    COLLSIM_KIND_CHAR,
    COLLSIM_KIND_SCHAR,
    COLLSIM_KIND_UCHAR,
    COLLSIM_KIND_WCHAR,
    COLLSIM_KIND_SHORT,
    COLLSIM_KIND_USHORT,
    COLLSIM_KIND_INT,
    COLLSIM_KIND_UINT,
    COLLSIM_KIND_LONG,
    COLLSIM_KIND_ULONG,
    COLLSIM_KIND_LLONG,
    COLLSIM_KIND_ULLONG,
    COLLSIM_KIND_INT8,
    COLLSIM_KIND_INT16,
    COLLSIM_KIND_INT32,
    COLLSIM_KIND_INT64,
    COLLSIM_KIND_UINT8,
    COLLSIM_KIND_UINT16,
    COLLSIM_KIND_UINT32,
    COLLSIM_KIND_UINT64,
    COLLSIM_KIND_AINT,
    /* floating point */
    COLLSIM_KIND_FLOAT,
    COLLSIM_KIND_DOUBLE,
    COLLSIM_KIND_LDOUBLE,
    /* complex: two components of the named precision */
    COLLSIM_KIND_CFLOAT,
    COLLSIM_KIND_CDOUBLE,
    COLLSIM_KIND_CLDOUBLE,
    /* value-index pairs of MAXLOC/MINLOC */
    COLLSIM_KIND_FLOAT_INT,
    COLLSIM_KIND_DOUBLE_INT,
    COLLSIM_KIND_LONG_INT,
    COLLSIM_KIND_2INT,
    COLLSIM_KIND_SHORT_INT,
    COLLSIM_KIND_LDOUBLE_INT,
    COLLSIM_KIND_2FLOAT,
    COLLSIM_KIND_2DOUBLE,
    COLLSIM_KIND_COUNT
};

/* The C layouts of the pair types (value first, then index), as MPI defines them. */
struct collsim_pair_float_int { float v; int i; };
struct collsim_pair_double_int { double v; int i; };
struct collsim_pair_long_int { long v; int i; };
struct collsim_pair_2int { int v; int i; };
struct collsim_pair_short_int { short v; int i; };
struct collsim_pair_ldouble_int { long double v; int i; };
struct collsim_pair_2float { float v; float i; };
struct collsim_pair_2double { double v; double i; };

/*
 * How an element of a segment is written in the "external32" representation (MPI-3.1
 * §13.5.2): big-endian, standard sizes. 0 (every predefined type's own segments) means "ask
 * the predefined type's kind"; derived types record the code of each segment.
 */
enum collsim_dt_ext {
    COLLSIM_EXT_KIND = 0, /* predefined segments: derive from the type's kind */
    COLLSIM_EXT_PLAIN,    /* one element of elem_size bytes, byte-reversed */
    COLLSIM_EXT_PARTS4,   /* components of 4 bytes (complex float) */
    COLLSIM_EXT_PARTS8,   /* components of 8 bytes (complex double) */
    COLLSIM_EXT_QUAD,     /* 16-byte long double components, written as IEEE binary128 */
    COLLSIM_EXT_LONG,     /* signed long, written in 4 bytes */
    COLLSIM_EXT_ULONG,    /* unsigned long, written in 4 bytes */
    COLLSIM_EXT_WCHAR     /* wchar_t, written in 2 bytes */
};

/* One contiguous run of the type map: `len` bytes at `disp`, elements of `elem_size` bytes. */
struct collsim_dt_seg {
    MPI_Aint disp;
    size_t len;
    size_t elem_size;
    enum collsim_dt_ext ext;
};

/*
 * The arguments of the constructor call that made a derived type (MPI_Type_get_contents):
 * integers, addresses and the types, each type holding a reference so it outlives
 * MPI_Type_free on the user's handle.
 */
struct collsim_dt_contents {
    int combiner;
    int nints, naints, ntypes;
    int *ints;
    MPI_Aint *aints;
    MPI_Datatype *types;
};

struct collsim_datatype {
    uint32_t magic;          /* COLLSIM_DATATYPE_MAGIC while the object is alive */
    int predefined;
    int committed;
    int freed;               /* MPI_Type_free was called; alive only for pending users */
    int refcount;            /* derived types only */
    enum collsim_dt_kind kind; /* predefined: C representation; derived: NONE */
    char name[MPI_MAX_OBJECT_NAME];

    size_t size;             /* bytes of data in one item (packed size) */
    MPI_Aint lb, ub;         /* bounds; extent = ub - lb */
    MPI_Aint true_lb, true_ub; /* bounds of the data alone */
    int lb_marked, ub_marked; /* bounds come from MPI_LB/MPI_UB markers or create_resized */
    int has_data;            /* the type map has at least one data entry */
    size_t align;            /* largest alignment of the primitive types inside */

    size_t nsegs;
    struct collsim_dt_seg *segs;
    int contiguous;          /* data of count items == count * size bytes at the buffer */

    MPI_Datatype basic;      /* homogeneous: the predefined element type; else NULL */
    int mixed;               /* elements of different predefined types (basic == NULL) */
    size_t basic_per_item;   /* elements of `basic` in one item */
    size_t prims_per_item;   /* primitive elements in one item (MPI_Get_elements) */
    struct collsim_dt_contents contents; /* derived types: how they were made */
    int user_named;          /* MPI_Type_set_name gave the name */
    /* set at commit: entries of one item overlap; an item's entries overlap the next item's
     * (a receive may use neither, MPI-3.1 4.1.1: what it writes twice is undefined) */
    int overlaps_in_item, overlaps_next_item;
    struct collsim_attr_store *attrs; /* cached attributes, per rank (attr.c); NULL if none */
};

/*
 * MPI_SUCCESS if dt may describe message data: a live, committed type (predefined types
 * always are) that is not the MPI_LB/MPI_UB marker. Else MPI_ERR_TYPE.
 */
int collsim_datatype_check(MPI_Datatype dt);

/* Why collsim_datatype_check refuses dt, for the error message ("MPI_DATATYPE_NULL", "not
 * committed (MPI_Type_commit)", ...); NULL when it does not. Reads dt only if it is live. */
const char *collsim_datatype_problem(MPI_Datatype dt);

/* Whether `count` items of a committed dt have entries that overlap (a receive's type may not). */
int collsim_datatype_overlaps(MPI_Datatype dt, int count);

/* MPI_SUCCESS if dt is a live handle (committed or not), for queries and constructors. */
int collsim_datatype_check_handle(MPI_Datatype dt);

/* The type's name for messages: "MPI_INT", "vector(MPI_DOUBLE)", "MPI_DATATYPE_NULL". */
const char *collsim_datatype_name(MPI_Datatype dt);

/* Extent (ub - lb) of a valid type. */
MPI_Aint collsim_datatype_extent(MPI_Datatype dt);

/* Whether packing count items of dt is one memcpy of packed_size bytes from the buffer. */
int collsim_datatype_is_contiguous(MPI_Datatype dt);

/* The bytes [*lo, *hi) that `count` items of dt occupy from buf; 0 when they hold no data. */
int collsim_buffer_span(const void *buf, MPI_Aint count, MPI_Datatype dt, uintptr_t *lo,
                        uintptr_t *hi);

/* Whether the bytes of `acount` items of atype at a and of `bcount` items of btype at b
 * intersect (both holding data): the aliasing that MPI forbids between a call's buffers. */
int collsim_buffers_overlap(const void *a, MPI_Aint acount, MPI_Datatype atype, const void *b,
                            MPI_Aint bcount, MPI_Datatype btype);

/*
 * The rule for every buffer argument, point-to-point and collective alike: MPI_IN_PLACE is
 * refused (calls that take it test for it first), and a buffer with data to move must be an
 * address of data. NULL, or any address in the first page (small integers passed by mistake),
 * is refused unless the type's data lies elsewhere (MPI_BOTTOM with absolute displacements).
 * MPI_SUCCESS, or MPI_ERR_BUFFER through comm's error handler, naming `what` in `call`.
 */
int collsim_buffer_check(MPI_Comm comm, const void *buf, MPI_Aint count, MPI_Datatype dt,
                         const char *what, const char *call);

/* Bytes that count items of dt occupy once packed (count * size). */
size_t collsim_datatype_packed_size(int count, MPI_Datatype dt);

/* Copy the data of count items of dt at buf, in type-map order, to out (packed_size bytes). */
void collsim_datatype_pack(const void *buf, int count, MPI_Datatype dt, void *out);

/*
 * Copy `bytes` packed bytes from `in` into count items of dt at buf. Writes only whole
 * primitive elements and never more than count items; returns the bytes consumed.
 */
size_t collsim_datatype_unpack(const void *in, size_t bytes, void *buf, int count,
                               MPI_Datatype dt);

/*
 * Primitive elements contained in `bytes` packed bytes of dt (MPI_Get_elements), or -1 when
 * bytes end inside a primitive element.
 */
long long collsim_datatype_elements(MPI_Datatype dt, size_t bytes);

/* The predefined type all elements of dt are made of, or NULL for a mixed or empty type. */
MPI_Datatype collsim_datatype_basic(MPI_Datatype dt);

/* Elements of collsim_datatype_basic(dt) in count items (0 for mixed types). */
size_t collsim_datatype_basic_count(int count, MPI_Datatype dt);

/* Take and drop a reference (derived types; no-ops on predefined ones). Unref may destroy. */
MPI_Datatype collsim_datatype_ref(MPI_Datatype dt);
void collsim_datatype_unref(MPI_Datatype dt);

#endif
