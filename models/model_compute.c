/*
 * model_compute.c — flops per element of applying a reduction op.
 *
 * SimGrid hosts have a speed in flop/s; an element operation of any kind (a floating add, an
 * integer compare, a bitwise and) counts as one flop, the host's "operation". The default
 * table, per element ("-" is a pair the MPI standard does not define: never applied, never
 * charged, stored as 0):
 *
 *                   INTEGER FLOATING COMPLEX LOGICAL BYTE PAIR OTHER
 *   MAX, MIN           1       1        -       -      -    -    -    one compare-and-select
 *   SUM                1       1        2       -      -    -    -    complex: two adds
 *   PROD               1       1        6       -      -    -    -    complex: 4 mul + 2 add
 *   LAND, LOR, LXOR    1       -        -       1      -    -    -
 *   BAND, BOR, BXOR    1       -        -       -      1    -    -
 *   MAXLOC, MINLOC     -       -        -       -      -    2    -    value and index compares
 *   REPLACE, NO_OP     0       0        0       0      0    0    0    copies are not flops
 *   user op            1       1        1       1      1    1    1    model_compute_set_user_flops
 *
 * An element is one basic element of the reduced type: a complex number or a value-index pair
 * counts once, a contiguous(2, MPI_DOUBLE) item counts twice.
 */
#include <math.h>
#include <string.h>

#include "model_compute.h"

#define DEFAULT_USER_FLOPS 1.0

G_DEFINE_QUARK(model-compute-error-quark, model_compute_error)

/* The default table, transcribed from the header comment above. */
static const double default_flops[MODEL_COMPUTE_N_OPS][MODEL_COMPUTE_N_ELEMS] = {
    /*                          INT  FLT  CPLX LOG  BYTE PAIR OTHER */
    [MODEL_COMPUTE_OP_MAX] = {1, 1, 0, 0, 0, 0, 0},
    [MODEL_COMPUTE_OP_MIN] = {1, 1, 0, 0, 0, 0, 0},
    [MODEL_COMPUTE_OP_SUM] = {1, 1, 2, 0, 0, 0, 0},
    [MODEL_COMPUTE_OP_PROD] = {1, 1, 6, 0, 0, 0, 0},
    [MODEL_COMPUTE_OP_LAND] = {1, 0, 0, 1, 0, 0, 0},
    [MODEL_COMPUTE_OP_LOR] = {1, 0, 0, 1, 0, 0, 0},
    [MODEL_COMPUTE_OP_LXOR] = {1, 0, 0, 1, 0, 0, 0},
    [MODEL_COMPUTE_OP_BAND] = {1, 0, 0, 0, 1, 0, 0},
    [MODEL_COMPUTE_OP_BOR] = {1, 0, 0, 0, 1, 0, 0},
    [MODEL_COMPUTE_OP_BXOR] = {1, 0, 0, 0, 1, 0, 0},
    [MODEL_COMPUTE_OP_MAXLOC] = {0, 0, 0, 0, 0, 2, 0},
    [MODEL_COMPUTE_OP_MINLOC] = {0, 0, 0, 0, 0, 2, 0},
    [MODEL_COMPUTE_OP_REPLACE] = {0, 0, 0, 0, 0, 0, 0},
    [MODEL_COMPUTE_OP_NO_OP] = {0, 0, 0, 0, 0, 0, 0},
    [MODEL_COMPUTE_OP_USER] = {DEFAULT_USER_FLOPS, DEFAULT_USER_FLOPS, DEFAULT_USER_FLOPS,
                               DEFAULT_USER_FLOPS, DEFAULT_USER_FLOPS, DEFAULT_USER_FLOPS,
                               DEFAULT_USER_FLOPS},
};

static const char *const op_names[MODEL_COMPUTE_N_OPS] = {
    [MODEL_COMPUTE_OP_MAX] = "MPI_MAX",       [MODEL_COMPUTE_OP_MIN] = "MPI_MIN",
    [MODEL_COMPUTE_OP_SUM] = "MPI_SUM",       [MODEL_COMPUTE_OP_PROD] = "MPI_PROD",
    [MODEL_COMPUTE_OP_LAND] = "MPI_LAND",     [MODEL_COMPUTE_OP_BAND] = "MPI_BAND",
    [MODEL_COMPUTE_OP_LOR] = "MPI_LOR",       [MODEL_COMPUTE_OP_BOR] = "MPI_BOR",
    [MODEL_COMPUTE_OP_LXOR] = "MPI_LXOR",     [MODEL_COMPUTE_OP_BXOR] = "MPI_BXOR",
    [MODEL_COMPUTE_OP_MAXLOC] = "MPI_MAXLOC", [MODEL_COMPUTE_OP_MINLOC] = "MPI_MINLOC",
    [MODEL_COMPUTE_OP_REPLACE] = "MPI_REPLACE", [MODEL_COMPUTE_OP_NO_OP] = "MPI_NO_OP",
    [MODEL_COMPUTE_OP_USER] = "user",
};

static const char *const elem_names[MODEL_COMPUTE_N_ELEMS] = {
    [MODEL_COMPUTE_ELEM_INTEGER] = "integer", [MODEL_COMPUTE_ELEM_FLOATING] = "floating",
    [MODEL_COMPUTE_ELEM_COMPLEX] = "complex", [MODEL_COMPUTE_ELEM_LOGICAL] = "logical",
    [MODEL_COMPUTE_ELEM_BYTE] = "byte",       [MODEL_COMPUTE_ELEM_PAIR] = "pair",
    [MODEL_COMPUTE_ELEM_OTHER] = "other",
};

void
model_compute_defaults(struct model_compute *model)
{
    model->zero_cost = FALSE;
    memcpy(model->flops, default_flops, sizeof(model->flops));
}

void
model_compute_zero(struct model_compute *model)
{
    model_compute_defaults(model);
    model->zero_cost = TRUE;
}

/* Whether x can be a cost: finite and not negative. */
static gboolean
valid_flops(double x, GError **error)
{
    if (!isfinite(x) || x < 0.0) {
        g_set_error(error, MODEL_COMPUTE_ERROR, MODEL_COMPUTE_ERROR_INVALID,
                    "flops per element must be a finite number >= 0, not %g", x);
        return FALSE;
    }
    return TRUE;
}

gboolean
model_compute_set_user_flops(struct model_compute *model, double flops_per_element,
                             GError **error)
{
    if (!valid_flops(flops_per_element, error))
        return FALSE;
    for (int e = 0; e < MODEL_COMPUTE_N_ELEMS; e++)
        model->flops[MODEL_COMPUTE_OP_USER][e] = flops_per_element;
    return TRUE;
}

gboolean
model_compute_set_flops(struct model_compute *model, enum model_compute_op op,
                        enum model_compute_elem elem, double flops_per_element, GError **error)
{
    if ((unsigned)op >= MODEL_COMPUTE_N_OPS || (unsigned)elem >= MODEL_COMPUTE_N_ELEMS) {
        g_set_error(error, MODEL_COMPUTE_ERROR, MODEL_COMPUTE_ERROR_INVALID,
                    "no compute-cost entry for op %d and element class %d", (int)op, (int)elem);
        return FALSE;
    }
    if (!valid_flops(flops_per_element, error))
        return FALSE;
    model->flops[op][elem] = flops_per_element;
    return TRUE;
}

double
model_compute_flops_per_element(const struct model_compute *model, enum model_compute_op op,
                                enum model_compute_elem elem)
{
    g_return_val_if_fail((unsigned)op < MODEL_COMPUTE_N_OPS, 0.0);
    g_return_val_if_fail((unsigned)elem < MODEL_COMPUTE_N_ELEMS, 0.0);
    if (model->zero_cost)
        return 0.0;
    return model->flops[op][elem];
}

double
model_compute_flops(const struct model_compute *model, enum model_compute_op op,
                    enum model_compute_elem elem, guint64 elements)
{
    return model_compute_flops_per_element(model, op, elem) * (double)elements;
}

const char *
model_compute_op_name(enum model_compute_op op)
{
    return (unsigned)op < MODEL_COMPUTE_N_OPS ? op_names[op] : NULL;
}

const char *
model_compute_elem_name(enum model_compute_elem elem)
{
    return (unsigned)elem < MODEL_COMPUTE_N_ELEMS ? elem_names[elem] : NULL;
}

/*
 * The index of name in names[0..n), or -1 with `error` set to "unknown WHAT 'NAME' (expected
 * EXPECTED)"; a NULL name is unknown.
 */
static int
index_of_name(const char *const names[], int n, const char *name, const char *what,
              const char *expected, GError **error)
{
    for (int i = 0; i < n; i++)
        if (name != NULL && g_strcmp0(name, names[i]) == 0)
            return i;
    g_set_error(error, MODEL_COMPUTE_ERROR, MODEL_COMPUTE_ERROR_INVALID,
                "unknown %s '%s' (expected %s)", what, name ? name : "(null)", expected);
    return -1;
}

gboolean
model_compute_op_from_name(const char *name, enum model_compute_op *op, GError **error)
{
    int i = index_of_name(op_names, MODEL_COMPUTE_N_OPS, name, "op",
                          "MPI_MAX ... MPI_MINLOC, MPI_REPLACE, MPI_NO_OP or user", error);
    if (i < 0)
        return FALSE;
    *op = (enum model_compute_op)i;
    return TRUE;
}

gboolean
model_compute_elem_from_name(const char *name, enum model_compute_elem *elem, GError **error)
{
    int i = index_of_name(elem_names, MODEL_COMPUTE_N_ELEMS, name, "element class",
                          "integer, floating, complex, logical, byte, pair or other", error);
    if (i < 0)
        return FALSE;
    *elem = (enum model_compute_elem)i;
    return TRUE;
}
