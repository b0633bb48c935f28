/*
 * bench_ops.c — the benchmark's datatypes, ops and input patterns (see bench_ops.h).
 */
#include "config.h"

#include <string.h>

#include <gmodule.h>

#include "sim/bench/bench.h"
#include "sim/bench/bench_ops.h"
#include "src/datatype.h"
#include "src/op.h"

G_DEFINE_QUARK(collsim-bench-error-quark, bench_error)

/* Complex numbers as MPI lays them out: real part, then imaginary part. */
struct bench_cfloat {
    float re, im;
};
struct bench_cdouble {
    double re, im;
};
struct bench_cldouble {
    long double re, im;
};

#define ROW(name, ct, cls, handle, ctype, summary)                                                 \
    {                                                                                              \
        name, ct, cls, handle, 0, sizeof(ctype), summary                                           \
    }

/* sizes are filled from the handles on first use (packed size may be below the extent) */
static struct bench_datatype datatypes[] = {
    ROW("signed_char", BENCH_CT_SCHAR, BENCH_CLASS_SIGNED, MPI_SIGNED_CHAR, signed char,
        "MPI_SIGNED_CHAR (1 byte)"),
    ROW("unsigned_char", BENCH_CT_UCHAR, BENCH_CLASS_UNSIGNED, MPI_UNSIGNED_CHAR, unsigned char,
        "MPI_UNSIGNED_CHAR (1 byte)"),
    ROW("short", BENCH_CT_SHORT, BENCH_CLASS_SIGNED, MPI_SHORT, short, "MPI_SHORT"),
    ROW("unsigned_short", BENCH_CT_USHORT, BENCH_CLASS_UNSIGNED, MPI_UNSIGNED_SHORT, unsigned short,
        "MPI_UNSIGNED_SHORT"),
    ROW("int", BENCH_CT_INT, BENCH_CLASS_SIGNED, MPI_INT, int, "MPI_INT"),
    ROW("unsigned", BENCH_CT_UINT, BENCH_CLASS_UNSIGNED, MPI_UNSIGNED, unsigned, "MPI_UNSIGNED"),
    ROW("long", BENCH_CT_LONG, BENCH_CLASS_SIGNED, MPI_LONG, long, "MPI_LONG"),
    ROW("unsigned_long", BENCH_CT_ULONG, BENCH_CLASS_UNSIGNED, MPI_UNSIGNED_LONG, unsigned long,
        "MPI_UNSIGNED_LONG"),
    ROW("long_long", BENCH_CT_LLONG, BENCH_CLASS_SIGNED, MPI_LONG_LONG, long long, "MPI_LONG_LONG"),
    ROW("unsigned_long_long", BENCH_CT_ULLONG, BENCH_CLASS_UNSIGNED, MPI_UNSIGNED_LONG_LONG,
        unsigned long long, "MPI_UNSIGNED_LONG_LONG"),
    ROW("int8_t", BENCH_CT_INT8, BENCH_CLASS_SIGNED, MPI_INT8_T, gint8, "MPI_INT8_T"),
    ROW("int16_t", BENCH_CT_INT16, BENCH_CLASS_SIGNED, MPI_INT16_T, gint16, "MPI_INT16_T"),
    ROW("int32_t", BENCH_CT_INT32, BENCH_CLASS_SIGNED, MPI_INT32_T, gint32, "MPI_INT32_T"),
    ROW("int64_t", BENCH_CT_INT64, BENCH_CLASS_SIGNED, MPI_INT64_T, gint64, "MPI_INT64_T"),
    ROW("uint8_t", BENCH_CT_UINT8, BENCH_CLASS_UNSIGNED, MPI_UINT8_T, guint8, "MPI_UINT8_T"),
    ROW("uint16_t", BENCH_CT_UINT16, BENCH_CLASS_UNSIGNED, MPI_UINT16_T, guint16, "MPI_UINT16_T"),
    ROW("uint32_t", BENCH_CT_UINT32, BENCH_CLASS_UNSIGNED, MPI_UINT32_T, guint32, "MPI_UINT32_T"),
    ROW("uint64_t", BENCH_CT_UINT64, BENCH_CLASS_UNSIGNED, MPI_UINT64_T, guint64, "MPI_UINT64_T"),
    ROW("c_bool", BENCH_CT_BOOL, BENCH_CLASS_LOGICAL, MPI_C_BOOL, _Bool,
        "MPI_C_BOOL (logical ops)"),
    ROW("byte", BENCH_CT_BYTE, BENCH_CLASS_BYTE, MPI_BYTE, unsigned char,
        "MPI_BYTE (bitwise ops; the default for data movement)"),
    ROW("float", BENCH_CT_FLOAT, BENCH_CLASS_FLOAT, MPI_FLOAT, float, "MPI_FLOAT"),
    ROW("double", BENCH_CT_DOUBLE, BENCH_CLASS_FLOAT, MPI_DOUBLE, double, "MPI_DOUBLE"),
    ROW("long_double", BENCH_CT_LDOUBLE, BENCH_CLASS_FLOAT, MPI_LONG_DOUBLE, long double,
        "MPI_LONG_DOUBLE"),
    ROW("c_float_complex", BENCH_CT_CFLOAT, BENCH_CLASS_COMPLEX, MPI_C_FLOAT_COMPLEX,
        struct bench_cfloat, "MPI_C_FLOAT_COMPLEX"),
    ROW("c_double_complex", BENCH_CT_CDOUBLE, BENCH_CLASS_COMPLEX, MPI_C_DOUBLE_COMPLEX,
        struct bench_cdouble, "MPI_C_DOUBLE_COMPLEX (the type of complex_prod)"),
    ROW("c_long_double_complex", BENCH_CT_CLDOUBLE, BENCH_CLASS_COMPLEX, MPI_C_LONG_DOUBLE_COMPLEX,
        struct bench_cldouble, "MPI_C_LONG_DOUBLE_COMPLEX"),
    ROW("float_int", BENCH_CT_FLOAT_INT, BENCH_CLASS_PAIR, MPI_FLOAT_INT,
        struct collsim_pair_float_int, "MPI_FLOAT_INT (MAXLOC/MINLOC)"),
    ROW("double_int", BENCH_CT_DOUBLE_INT, BENCH_CLASS_PAIR, MPI_DOUBLE_INT,
        struct collsim_pair_double_int, "MPI_DOUBLE_INT (MAXLOC/MINLOC)"),
    ROW("long_int", BENCH_CT_LONG_INT, BENCH_CLASS_PAIR, MPI_LONG_INT, struct collsim_pair_long_int,
        "MPI_LONG_INT (MAXLOC/MINLOC)"),
    ROW("2int", BENCH_CT_2INT, BENCH_CLASS_PAIR, MPI_2INT, struct collsim_pair_2int,
        "MPI_2INT (MAXLOC/MINLOC)"),
    ROW("short_int", BENCH_CT_SHORT_INT, BENCH_CLASS_PAIR, MPI_SHORT_INT,
        struct collsim_pair_short_int, "MPI_SHORT_INT (MAXLOC/MINLOC)"),
    ROW("long_double_int", BENCH_CT_LDOUBLE_INT, BENCH_CLASS_PAIR, MPI_LONG_DOUBLE_INT,
        struct collsim_pair_ldouble_int, "MPI_LONG_DOUBLE_INT (MAXLOC/MINLOC)"),
    ROW("witness_matrix", BENCH_CT_WITNESS_MATRIX, BENCH_CLASS_WITNESS, NULL, struct witness_matrix,
        "2x2 integer matrix mod 1000003 (the witness_matrix op's type)"),
    ROW("witness_affine", BENCH_CT_WITNESS_AFFINE, BENCH_CLASS_WITNESS, NULL, struct witness_affine,
        "affine map mod 1000003 (the witness_affine op's type)"),
};

const struct bench_datatype *
bench_datatype_find(const char *name)
{
    for (gsize i = 0; name != NULL && i < G_N_ELEMENTS(datatypes); i++) {
        struct bench_datatype *t = &datatypes[i];
        if (strcmp(t->name, name) != 0)
            continue;
        if (t->size == 0)
            t->size = t->handle != NULL ? t->handle->size : t->extent;
        return t;
    }
    return NULL;
}

MPI_Datatype
bench_datatype_handle(const struct bench_datatype *type)
{
    if (type->ctype == BENCH_CT_WITNESS_MATRIX)
        return witness_get(WITNESS_MATRIX)->type;
    if (type->ctype == BENCH_CT_WITNESS_AFFINE)
        return witness_get(WITNESS_AFFINE)->type;
    return type->handle;
}

gboolean
bench_datatype_size(const char *name, gsize *size)
{
    const struct bench_datatype *t = bench_datatype_find(name);
    if (t == NULL)
        return FALSE;
    *size = t->size;
    return TRUE;
}

static struct bench_name datatype_names[G_N_ELEMENTS(datatypes)];

const struct bench_name *
bench_datatypes(gsize *count)
{
    for (gsize i = 0; i < G_N_ELEMENTS(datatypes); i++)
        datatype_names[i] = (struct bench_name){datatypes[i].name, datatypes[i].summary};
    *count = G_N_ELEMENTS(datatypes);
    return datatype_names;
}

/* ---------------------------------------------------------------- built-in user ops */

/*
 * The MPI standard's complex product (the seed complex_product.c's myProd) on
 * MPI_C_DOUBLE_COMPLEX: inout[i] = in[i] * inout[i]. It works on the C99 layout of
 * double _Complex, which is that of a pair of doubles, so the type is the predefined complex
 * one rather than a contiguous(2, MPI_DOUBLE) of the seed: the same bytes, and a type the
 * benchmark's scenarios can name.
 */
static void
complex_prod_function(void *invec, void *inoutvec, int *len, MPI_Datatype *dt)
{
    (void)dt;
    const struct bench_cdouble *in = invec;
    struct bench_cdouble *inout = inoutvec;
    for (int i = 0; i < *len; i++) {
        struct bench_cdouble c = {inout[i].re * in[i].re - inout[i].im * in[i].im,
                                  inout[i].re * in[i].im + inout[i].im * in[i].re};
        inout[i] = c;
    }
}

/*
 * Antonov's smod5 (the seed smod5.c): inout[i] = (in[i] + inout[i]) mod 5, on any integer
 * type. Its operands are always in 0..4, which every integer type of a given size stores with
 * the same bits, signed or not: so the element size alone selects the arithmetic.
 */
static void
smod5_function(void *invec, void *inoutvec, int *len, MPI_Datatype *dt)
{
    int size = 0;
    MPI_Type_size(*dt, &size);
#define SMOD5_LOOP(T)                                                                              \
    do {                                                                                           \
        const T *a = invec;                                                                        \
        T *b = inoutvec;                                                                           \
        for (int i = 0; i < *len; i++)                                                             \
            b[i] = (T)((a[i] + b[i]) % 5u);                                                        \
    } while (0)
    switch (size) {
    case 1:
        SMOD5_LOOP(guint8);
        break;
    case 2:
        SMOD5_LOOP(guint16);
        break;
    case 4:
        SMOD5_LOOP(guint32);
        break;
    default:
        SMOD5_LOOP(guint64);
        break;
    }
#undef SMOD5_LOOP
}

/* ---------------------------------------------------------------- ops */

static const struct {
    const char *name;
    MPI_Op op;
    enum bench_pattern pattern;
} predefined_ops[] = {
    {"max", MPI_MAX, BENCH_PATTERN_ARBITRARY}, {"min", MPI_MIN, BENCH_PATTERN_ARBITRARY},
    {"sum", MPI_SUM, BENCH_PATTERN_SUM},       {"prod", MPI_PROD, BENCH_PATTERN_PROD},
    {"land", MPI_LAND, BENCH_PATTERN_LOGICAL}, {"band", MPI_BAND, BENCH_PATTERN_BITWISE},
    {"lor", MPI_LOR, BENCH_PATTERN_LOGICAL},   {"bor", MPI_BOR, BENCH_PATTERN_BITWISE},
    {"lxor", MPI_LXOR, BENCH_PATTERN_LOGICAL}, {"bxor", MPI_BXOR, BENCH_PATTERN_BITWISE},
    {"maxloc", MPI_MAXLOC, BENCH_PATTERN_LOC}, {"minloc", MPI_MINLOC, BENCH_PATTERN_LOC},
};

static const struct bench_name op_names[] = {
    {"max", "MPI_MAX"},
    {"min", "MPI_MIN"},
    {"sum", "MPI_SUM"},
    {"prod", "MPI_PROD"},
    {"land", "MPI_LAND (integers, c_bool)"},
    {"band", "MPI_BAND (integers, byte)"},
    {"lor", "MPI_LOR (integers, c_bool)"},
    {"bor", "MPI_BOR (integers, byte)"},
    {"lxor", "MPI_LXOR (integers, c_bool)"},
    {"bxor", "MPI_BXOR (integers, byte)"},
    {"maxloc", "MPI_MAXLOC (pair types)"},
    {"minloc", "MPI_MINLOC (pair types)"},
    {"complex_prod", "the MPI standard's user-defined complex product (c_double_complex)"},
    {"smod5", "Antonov's user-defined sum modulo 5 (integer types)"},
    {"witness_matrix", "non-commutative 2x2 matrix product (datatype witness_matrix)"},
    {"witness_affine", "non-commutative composition of affine maps (datatype witness_affine)"},
    {"plugin:FILE.so:SYMBOL", "an MPI_User_function from a shared object (any datatype)"},
};

const struct bench_name *
bench_ops(gsize *count)
{
    *count = G_N_ELEMENTS(op_names);
    return op_names;
}

/* A plugin's inputs follow its datatype: it may be any associative op. */
static enum bench_pattern
plugin_pattern(const struct bench_datatype *type)
{
    switch (type->cls) {
    case BENCH_CLASS_PAIR:
        return BENCH_PATTERN_LOC;
    case BENCH_CLASS_WITNESS:
        return BENCH_PATTERN_WITNESS;
    case BENCH_CLASS_LOGICAL:
        return BENCH_PATTERN_LOGICAL;
    case BENCH_CLASS_BYTE:
        return BENCH_PATTERN_BITWISE;
    default:
        return BENCH_PATTERN_SUM;
    }
}

static gboolean
resolve_plugin(const char *name, struct bench_op *op, GError **error)
{
    const char *spec = name + strlen("plugin:");
    const char *colon = strrchr(spec, ':');
    if (colon == NULL || colon == spec || colon[1] == '\0') {
        g_set_error(error, BENCH_ERROR, BENCH_ERROR_OP,
                    "op '%s': a plugin op is plugin:FILE.so:SYMBOL", name);
        return FALSE;
    }
    gchar *file = g_strndup(spec, (gsize)(colon - spec));
    gchar *path = g_canonicalize_filename(file, NULL);
    gboolean ok = FALSE;
    /* never closed: the function may be called until the process ends */
    GModule *module = g_module_open(path, G_MODULE_BIND_LOCAL);
    gpointer symbol = NULL;
    if (module == NULL) {
        g_set_error(error, BENCH_ERROR, BENCH_ERROR_OP, "op '%s': cannot load %s: %s", name, file,
                    g_module_error());
    } else if (!g_module_symbol(module, colon + 1, &symbol) || symbol == NULL) {
        g_set_error(error, BENCH_ERROR, BENCH_ERROR_OP, "op '%s': %s has no symbol '%s'", name,
                    file, colon + 1);
    } else {
        op->function = (MPI_User_function *)symbol;
        ok = TRUE;
    }
    g_free(path);
    g_free(file);
    return ok;
}

gboolean
bench_op_resolve(const char *name, const struct bench_datatype *type, struct bench_op *op,
                 GError **error)
{
    *op = (struct bench_op){.kind = BENCH_OP_PREDEFINED, .pattern = BENCH_PATTERN_ARBITRARY};
    if (name == NULL)
        return TRUE;
    for (gsize i = 0; i < G_N_ELEMENTS(predefined_ops); i++) {
        if (strcmp(name, predefined_ops[i].name) != 0)
            continue;
        op->predefined = predefined_ops[i].op;
        op->pattern = predefined_ops[i].pattern;
        if (type->cls == BENCH_CLASS_WITNESS) {
            g_set_error(error, BENCH_ERROR, BENCH_ERROR_OP,
                        "op %s is not defined for datatype %s (it takes op %s)", name, type->name,
                        type->name);
            return FALSE;
        }
        if (collsim_op_check(op->predefined, type->handle) != MPI_SUCCESS) {
            char why[256];
            collsim_op_describe_error(op->predefined, type->handle, why, sizeof why);
            g_set_error(error, BENCH_ERROR, BENCH_ERROR_OP, "%s", why);
            return FALSE;
        }
        return TRUE;
    }
    if (strcmp(name, "complex_prod") == 0) {
        *op = (struct bench_op){BENCH_OP_COMPLEX_PROD, NULL, complex_prod_function,
                                BENCH_PATTERN_COMPLEX_PROD};
        if (type->ctype != BENCH_CT_CDOUBLE) {
            g_set_error(error, BENCH_ERROR, BENCH_ERROR_OP,
                        "op complex_prod works on datatype c_double_complex, not %s", type->name);
            return FALSE;
        }
        return TRUE;
    }
    if (strcmp(name, "smod5") == 0) {
        *op = (struct bench_op){BENCH_OP_SMOD5, NULL, smod5_function, BENCH_PATTERN_SMOD5};
        if (type->cls != BENCH_CLASS_SIGNED && type->cls != BENCH_CLASS_UNSIGNED) {
            g_set_error(error, BENCH_ERROR, BENCH_ERROR_OP,
                        "op smod5 works on an integer datatype (e.g. int), not %s", type->name);
            return FALSE;
        }
        return TRUE;
    }
    if (strcmp(name, "witness_matrix") == 0 || strcmp(name, "witness_affine") == 0) {
        gboolean matrix = strcmp(name, "witness_matrix") == 0;
        *op = (struct bench_op){matrix ? BENCH_OP_WITNESS_MATRIX : BENCH_OP_WITNESS_AFFINE, NULL,
                                witness_function(matrix ? WITNESS_MATRIX : WITNESS_AFFINE),
                                BENCH_PATTERN_WITNESS};
        if (strcmp(type->name, name) != 0) {
            g_set_error(error, BENCH_ERROR, BENCH_ERROR_OP, "op %s works on datatype %s, not %s",
                        name, name, type->name);
            return FALSE;
        }
        return TRUE;
    }
    if (g_str_has_prefix(name, "plugin:")) {
        op->kind = BENCH_OP_PLUGIN;
        op->pattern = plugin_pattern(type);
        return resolve_plugin(name, op, error);
    }
    g_set_error(error, BENCH_ERROR, BENCH_ERROR_OP,
                "unknown op '%s' (max, min, sum, prod, land, band, lor, bor, lxor, bxor, maxloc, "
                "minloc, complex_prod, smod5, witness_matrix, witness_affine, "
                "plugin:FILE.so:SYMBOL)",
                name);
    return FALSE;
}

/* ---------------------------------------------------------------- inputs */

/* A well-mixed 64-bit value of (rank, index) (splitmix64 of the pair). */
static guint64
mix(int rank, guint64 index)
{
    guint64 z = ((guint64)(guint32)rank << 40) ^ index;
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* The scalar types, by how an item is written and read. */
#define INTEGER_TYPES(X)                                                                           \
    X(BENCH_CT_SCHAR, signed char, 1)                                                              \
    X(BENCH_CT_SHORT, short, 1)                                                                    \
    X(BENCH_CT_INT, int, 1)                                                                        \
    X(BENCH_CT_LONG, long, 1)                                                                      \
    X(BENCH_CT_LLONG, long long, 1)                                                                \
    X(BENCH_CT_INT8, gint8, 1)                                                                     \
    X(BENCH_CT_INT16, gint16, 1)                                                                   \
    X(BENCH_CT_INT32, gint32, 1)                                                                   \
    X(BENCH_CT_INT64, gint64, 1)                                                                   \
    X(BENCH_CT_UCHAR, unsigned char, 0)                                                            \
    X(BENCH_CT_USHORT, unsigned short, 0)                                                          \
    X(BENCH_CT_UINT, unsigned, 0)                                                                  \
    X(BENCH_CT_ULONG, unsigned long, 0)                                                            \
    X(BENCH_CT_ULLONG, unsigned long long, 0)                                                      \
    X(BENCH_CT_UINT8, guint8, 0)                                                                   \
    X(BENCH_CT_UINT16, guint16, 0)                                                                 \
    X(BENCH_CT_UINT32, guint32, 0)                                                                 \
    X(BENCH_CT_UINT64, guint64, 0)                                                                 \
    X(BENCH_CT_BOOL, _Bool, 0)                                                                     \
    X(BENCH_CT_BYTE, unsigned char, 0)

#define FLOAT_TYPES(X)                                                                             \
    X(BENCH_CT_FLOAT, float, ".9g")                                                                \
    X(BENCH_CT_DOUBLE, double, ".17g")                                                             \
    X(BENCH_CT_LDOUBLE, long double, ".21Lg")

#define COMPLEX_TYPES(X)                                                                           \
    X(BENCH_CT_CFLOAT, struct bench_cfloat, float, ".9g")                                          \
    X(BENCH_CT_CDOUBLE, struct bench_cdouble, double, ".17g")                                      \
    X(BENCH_CT_CLDOUBLE, struct bench_cldouble, long double, ".21Lg")

#define PAIR_TYPES(X)                                                                              \
    X(BENCH_CT_FLOAT_INT, struct collsim_pair_float_int, float, ".9g")                             \
    X(BENCH_CT_DOUBLE_INT, struct collsim_pair_double_int, double, ".17g")                         \
    X(BENCH_CT_LONG_INT, struct collsim_pair_long_int, long, "ld")                                 \
    X(BENCH_CT_2INT, struct collsim_pair_2int, int, "d")                                           \
    X(BENCH_CT_SHORT_INT, struct collsim_pair_short_int, short, "d")                               \
    X(BENCH_CT_LDOUBLE_INT, struct collsim_pair_ldouble_int, long double, ".21Lg")

/* Store the value (a, b) in item `item`: scalars take a; complex (a + bi); pairs (a, index b). */
static void
store(const struct bench_datatype *type, void *item, gint64 a, gint64 b)
{
    switch (type->ctype) {
#define STORE_INTEGER(ct, T, is_signed)                                                            \
    case ct:                                                                                       \
        *(T *)item = (T)a;                                                                         \
        break;
        INTEGER_TYPES(STORE_INTEGER)
#define STORE_FLOAT(ct, T, fmt)                                                                    \
    case ct:                                                                                       \
        *(T *)item = (T)a;                                                                         \
        break;
        FLOAT_TYPES(STORE_FLOAT)
#define STORE_COMPLEX(ct, S, T, fmt)                                                               \
    case ct:                                                                                       \
        ((S *)item)->re = (T)a;                                                                    \
        ((S *)item)->im = (T)b;                                                                    \
        break;
        COMPLEX_TYPES(STORE_COMPLEX)
#define STORE_PAIR(ct, S, T, fmt)                                                                  \
    case ct:                                                                                       \
        ((S *)item)->v = (T)a;                                                                     \
        ((S *)item)->i = (int)b;                                                                   \
        break;
        PAIR_TYPES(STORE_PAIR)
    default:
        break;
    }
}

/* Gaussian integer product (a + bi)(c + di), small operands only. */
static void
gaussian_mul(gint64 *re, gint64 *im, gint64 c, gint64 d)
{
    gint64 r = *re * c - *im * d;
    gint64 i = *re * d + *im * c;
    *re = r;
    *im = i;
}

/* Item `index` of rank's input in `pattern`, as the (a, b) of store(). Inlined into each of
 * bench_fill's loops, where the pattern's and the type's tests become loop-invariant. */
G_ALWAYS_INLINE static inline void
pattern_value(const struct bench_datatype *type, enum bench_pattern pattern, int rank, int nranks,
              guint64 index, gint64 *a, gint64 *b)
{
    static const gint64 unit[4][2] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}};
    guint64 h = mix(rank, index);
    gboolean no_sign = type->cls == BENCH_CLASS_UNSIGNED || type->cls == BENCH_CLASS_BYTE ||
                       type->cls == BENCH_CLASS_LOGICAL;
    guint64 r = (guint64)rank;
    *a = 0;
    *b = 0;
    switch (pattern) {
    case BENCH_PATTERN_SUM:
        *a = (gint64)((r + 3 * index) % 5) - (no_sign ? 0 : 2);
        *b = (gint64)((2 * r + index) % 5) - 2;
        break;
    case BENCH_PATTERN_PROD:
        if (type->cls == BENCH_CLASS_COMPLEX) {
            *a = unit[(r + index) % 4][0];
            *b = unit[(r + index) % 4][1];
        } else if (no_sign) {
            *a = index % (guint64)nranks == r ? 3 : 1;
        } else {
            *a = h % 7 == 0 ? -1 : 1;
        }
        break;
    case BENCH_PATTERN_ARBITRARY:
        if (type->cls == BENCH_CLASS_LOGICAL)
            *a = (gint64)(h & 1);
        else if (type->cls == BENCH_CLASS_FLOAT)
            *a = (gint64)(h % 2001) - 1000;
        else
            *a = (gint64)(h % 201) - (no_sign ? 0 : 100);
        *b = type->cls == BENCH_CLASS_PAIR ? (gint64)((h >> 24) % 1000)
                                           : (gint64)((h >> 24) % 201) - 100;
        break;
    case BENCH_PATTERN_LOGICAL:
        *a = h % 3 != 0;
        break;
    case BENCH_PATTERN_BITWISE:
        *a = (gint64)(h & 0x7f);
        break;
    case BENCH_PATTERN_LOC:
        *a = (gint64)(h % 4); /* few values: ties, which the lowest index must win */
        *b = rank;
        break;
    case BENCH_PATTERN_SMOD5:
        *a = (gint64)((r + index) % 5);
        break;
    case BENCH_PATTERN_COMPLEX_PROD:
        /* the seed's data: a unit, times (1+i) or (1-i) on ranks below 32 */
        *a = unit[(r + index) % 4][0];
        *b = unit[(r + index) % 4][1];
        if (rank < 32 && (3 * r + index) % 5 == 0)
            gaussian_mul(a, b, 1, 1);
        else if (rank < 32 && (3 * r + index) % 5 == 1)
            gaussian_mul(a, b, 1, -1);
        break;
    case BENCH_PATTERN_WITNESS:
        break;
    }
}

void
bench_fill(const struct bench_datatype *type, enum bench_pattern pattern, int rank, int nranks,
           guint64 first, gsize count, void *buf)
{
    char *items = buf;
    if (type->cls == BENCH_CLASS_WITNESS) {
        const struct witness *w =
            witness_get(type->ctype == BENCH_CT_WITNESS_MATRIX ? WITNESS_MATRIX : WITNESS_AFFINE);
        if (pattern == BENCH_PATTERN_WITNESS) {
            /* reductions fill whole vectors, which start at item 0 */
            g_return_if_fail(first == 0);
            witness_fill(w, rank, 0, buf, (int)count);
            return;
        }
        /* data movement: arbitrary ints */
        int *ints = buf;
        for (gsize k = 0; k < count * (gsize)w->item_ints; k++)
            ints[k] = (int)(mix(rank, first * (guint64)w->item_ints + k) % 201) - 100;
        return;
    }
    /* One loop per C type: a fill is the largest part of a point with real data (every rank's
     * input, then every expected block of the check), and the type's switch in store() costs
     * more per item than the pattern's arithmetic. The values are store()'s. */
    switch (type->ctype) {
#define FILL_SCALAR(ct, T, unused)                                                                 \
    case ct:                                                                                       \
        for (gsize k = 0; k < count; k++) {                                                        \
            gint64 a, b;                                                                           \
            pattern_value(type, pattern, rank, nranks, first + k, &a, &b);                         \
            ((T *)buf)[k] = (T)a;                                                                  \
        }                                                                                          \
        return;
        INTEGER_TYPES(FILL_SCALAR)
        FLOAT_TYPES(FILL_SCALAR)
    default:
        break;
    }
    for (gsize k = 0; k < count; k++) {
        gint64 a, b;
        pattern_value(type, pattern, rank, nranks, first + k, &a, &b);
        store(type, items + k * type->extent, a, b);
    }
}

gboolean
bench_type_bitwise_equal(const struct bench_datatype *type)
{
    switch (type->cls) {
    case BENCH_CLASS_SIGNED:
    case BENCH_CLASS_UNSIGNED:
    case BENCH_CLASS_LOGICAL:
    case BENCH_CLASS_BYTE:
    case BENCH_CLASS_WITNESS:
        return type->size == type->extent;
    default:
        return FALSE;
    }
}

gboolean
bench_item_equal(const struct bench_datatype *type, const void *x, const void *y)
{
    switch (type->ctype) {
#define EQUAL_SCALAR(ct, T, unused)                                                                \
    case ct:                                                                                       \
        return *(const T *)x == *(const T *)y;
        INTEGER_TYPES(EQUAL_SCALAR)
        FLOAT_TYPES(EQUAL_SCALAR)
#define EQUAL_COMPLEX(ct, S, T, fmt)                                                               \
    case ct:                                                                                       \
        return ((const S *)x)->re == ((const S *)y)->re && ((const S *)x)->im == ((const S *)y)->im;
        COMPLEX_TYPES(EQUAL_COMPLEX)
#define EQUAL_PAIR(ct, S, T, fmt)                                                                  \
    case ct:                                                                                       \
        return ((const S *)x)->v == ((const S *)y)->v && ((const S *)x)->i == ((const S *)y)->i;
        PAIR_TYPES(EQUAL_PAIR)
    case BENCH_CT_WITNESS_MATRIX:
    case BENCH_CT_WITNESS_AFFINE:
        return memcmp(x, y, type->extent) == 0;
    }
    return FALSE;
}

void
bench_item_format(const struct bench_datatype *type, const void *item, GString *out)
{
    switch (type->ctype) {
#define FORMAT_INTEGER(ct, T, is_signed)                                                           \
    case ct:                                                                                       \
        if (is_signed)                                                                             \
            g_string_append_printf(out, "%lld", (long long)*(const T *)item);                      \
        else                                                                                       \
            g_string_append_printf(out, "%llu", (unsigned long long)*(const T *)item);             \
        break;
        INTEGER_TYPES(FORMAT_INTEGER)
#define FORMAT_FLOAT(ct, T, fmt)                                                                   \
    case ct:                                                                                       \
        g_string_append_printf(out, "%" fmt, *(const T *)item);                                    \
        break;
        FLOAT_TYPES(FORMAT_FLOAT)
#define FORMAT_COMPLEX(ct, S, T, fmt)                                                              \
    case ct:                                                                                       \
        g_string_append_printf(out, "(%" fmt ", %" fmt ")", ((const S *)item)->re,                 \
                               ((const S *)item)->im);                                             \
        break;
        COMPLEX_TYPES(FORMAT_COMPLEX)
#define FORMAT_PAIR(ct, S, T, fmt)                                                                 \
    case ct:                                                                                       \
        g_string_append_printf(out, "(%" fmt ", %d)", ((const S *)item)->v, ((const S *)item)->i); \
        break;
        PAIR_TYPES(FORMAT_PAIR)
    case BENCH_CT_WITNESS_MATRIX:
    case BENCH_CT_WITNESS_AFFINE: {
        const int *ints = item;
        g_string_append_c(out, '(');
        for (gsize k = 0; k < type->extent / sizeof(int); k++)
            g_string_append_printf(out, k == 0 ? "%d" : ",%d", ints[k]);
        g_string_append_c(out, ')');
        break;
    }
    }
}
