/*
 * bench_ops.h — the datatypes and ops of the built-in benchmark, and its inputs.
 *
 * Every datatype the benchmark offers has a row here: its name as scenarios spell it, its MPI
 * handle, and how one item is read, written, compared and printed. Every op has a row too:
 * the predefined ones, the built-in user ops (complex_prod, smod5, the witnesses) and plugin
 * ops loaded from a shared object.
 *
 * Inputs are a pure function of (pattern, rank, index), so the sequential reference can
 * regenerate any rank's contribution without keeping it. Each pattern keeps every legal
 * evaluation order of its op exact: small integers for sums (also in floating point and
 * complex), ±1 for products (unsigned: ones and a single 3 per index), Gaussian integers of
 * small modulus for the complex product, arbitrary values for max/min and data movement,
 * 0/1 for logical ops, 7-bit patterns for bitwise ops, tied values with the rank as index
 * for MAXLOC/MINLOC, 0..4 for smod5, and the witnesses' own fill. No pattern overflows a
 * signed type at any rank count up to 2^28.
 */
#ifndef COLLSIM_SIM_BENCH_OPS_H
#define COLLSIM_SIM_BENCH_OPS_H

#include <glib.h>

#include "mpi.h"
#include "sim/bench/witness.h"

/* How one item is stored in memory. */
enum bench_ctype {
    BENCH_CT_SCHAR,
    BENCH_CT_UCHAR,
    BENCH_CT_SHORT,
    BENCH_CT_USHORT,
    BENCH_CT_INT,
    BENCH_CT_UINT,
    BENCH_CT_LONG,
    BENCH_CT_ULONG,
    BENCH_CT_LLONG,
    BENCH_CT_ULLONG,
    BENCH_CT_INT8,
    BENCH_CT_INT16,
    BENCH_CT_INT32,
    BENCH_CT_INT64,
    BENCH_CT_UINT8,
    BENCH_CT_UINT16,
    BENCH_CT_UINT32,
    BENCH_CT_UINT64,
    BENCH_CT_BOOL,
    BENCH_CT_BYTE,
    BENCH_CT_FLOAT,
    BENCH_CT_DOUBLE,
    BENCH_CT_LDOUBLE,
    BENCH_CT_CFLOAT,
    BENCH_CT_CDOUBLE,
    BENCH_CT_CLDOUBLE,
    BENCH_CT_FLOAT_INT,
    BENCH_CT_DOUBLE_INT,
    BENCH_CT_LONG_INT,
    BENCH_CT_2INT,
    BENCH_CT_SHORT_INT,
    BENCH_CT_LDOUBLE_INT,
    BENCH_CT_WITNESS_MATRIX,
    BENCH_CT_WITNESS_AFFINE,
};

/* What the values of a type are, for choosing inputs. */
enum bench_class {
    BENCH_CLASS_SIGNED,
    BENCH_CLASS_UNSIGNED,
    BENCH_CLASS_LOGICAL, /* C _Bool */
    BENCH_CLASS_BYTE,
    BENCH_CLASS_FLOAT,
    BENCH_CLASS_COMPLEX,
    BENCH_CLASS_PAIR, /* value-index pairs of MAXLOC/MINLOC */
    BENCH_CLASS_WITNESS,
};

struct bench_datatype {
    const char *name; /* "double", "double_int", "witness_matrix" */
    enum bench_ctype ctype;
    enum bench_class cls;
    MPI_Datatype handle; /* predefined type; NULL for the witness types */
    gsize size;          /* packed bytes of one item (MPI_Type_size) */
    gsize extent;        /* bytes of one item in memory */
    const char *summary;
};

/* The row of a datatype name, or NULL. */
const struct bench_datatype *bench_datatype_find(const char *name);
/* The MPI handle (the witness types: their committed type; witness_setup() first). */
MPI_Datatype bench_datatype_handle(const struct bench_datatype *type);

enum bench_op_kind {
    BENCH_OP_PREDEFINED,
    BENCH_OP_COMPLEX_PROD,
    BENCH_OP_SMOD5,
    BENCH_OP_WITNESS_MATRIX,
    BENCH_OP_WITNESS_AFFINE,
    BENCH_OP_PLUGIN,
};

/* Which inputs a run uses (see the file comment). */
enum bench_pattern {
    BENCH_PATTERN_SUM,
    BENCH_PATTERN_PROD,
    BENCH_PATTERN_ARBITRARY, /* max/min and data movement */
    BENCH_PATTERN_LOGICAL,
    BENCH_PATTERN_BITWISE,
    BENCH_PATTERN_LOC,
    BENCH_PATTERN_SMOD5,
    BENCH_PATTERN_COMPLEX_PROD,
    BENCH_PATTERN_WITNESS,
};

/* An op resolved from its scenario name, ready to create. */
struct bench_op {
    enum bench_op_kind kind;
    MPI_Op predefined;           /* BENCH_OP_PREDEFINED */
    MPI_User_function *function; /* the user ops */
    enum bench_pattern pattern;
};

/*
 * Resolve an op name for a datatype: "sum", "complex_prod", "plugin:FILE.so:symbol" ...
 * NULL op = data movement (pattern ARBITRARY). FALSE with a message when the op is unknown,
 * a plugin does not load or lacks the symbol, or the op is not defined on the datatype. A
 * plugin's module stays loaded for the life of the process (its function may run any time).
 */
gboolean bench_op_resolve(const char *name, const struct bench_datatype *type, struct bench_op *op,
                          GError **error);

/* Write items [first, first + count) of rank's input in `pattern` to buf (items of type). */
void bench_fill(const struct bench_datatype *type, enum bench_pattern pattern, int rank, int nranks,
                guint64 first, gsize count, void *buf);

/* Whether two items are equal as values (floating point: -0 == +0; padding ignored). */
gboolean bench_item_equal(const struct bench_datatype *type, const void *a, const void *b);

/* Whether bench_item_equal is memcmp of the items: integer-like items without padding. */
gboolean bench_type_bitwise_equal(const struct bench_datatype *type);
/* Append an item's value ("5", "(1, -2)", "(3.5, 2)", "(1,2,3,4)"). */
void bench_item_format(const struct bench_datatype *type, const void *item, GString *out);

#define BENCH_ERROR (bench_error_quark())
GQuark bench_error_quark(void);
enum { BENCH_ERROR_OP, BENCH_ERROR_DATATYPE };

#endif
