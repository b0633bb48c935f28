/*
 * model_compute.h — how many flops applying a reduction op costs, per element.
 *
 * The simulator charges sg_actor_execute(flops) on the rank's host each time an op is applied
 * (MPI_Reduce_local and the collectives built on it). The cost is flops per element × elements,
 * from a table indexed by the op and by the class of its elements. The defaults are documented
 * in model_compute.c; a zero-cost model charges nothing (pure network studies).
 * This module knows nothing of src/: the simulator maps an op application (src/op.h,
 * collsim_op_work) onto these enums.
 */
#ifndef COLLSIM_MODEL_COMPUTE_H
#define COLLSIM_MODEL_COMPUTE_H

#include <glib.h>

/* The ops whose cost is modelled (the predefined ops, the one-sided ones, user ops). */
enum model_compute_op {
    MODEL_COMPUTE_OP_MAX,
    MODEL_COMPUTE_OP_MIN,
    MODEL_COMPUTE_OP_SUM,
    MODEL_COMPUTE_OP_PROD,
    MODEL_COMPUTE_OP_LAND,
    MODEL_COMPUTE_OP_BAND,
    MODEL_COMPUTE_OP_LOR,
    MODEL_COMPUTE_OP_BOR,
    MODEL_COMPUTE_OP_LXOR,
    MODEL_COMPUTE_OP_BXOR,
    MODEL_COMPUTE_OP_MAXLOC,
    MODEL_COMPUTE_OP_MINLOC,
    MODEL_COMPUTE_OP_REPLACE,
    MODEL_COMPUTE_OP_NO_OP,
    MODEL_COMPUTE_OP_USER,
    MODEL_COMPUTE_N_OPS
};

/* Classes of elements (the datatype groups of MPI-3.1 §5.9.2). */
enum model_compute_elem {
    MODEL_COMPUTE_ELEM_INTEGER,  /* C and Fortran integers, MPI_AINT/OFFSET/COUNT */
    MODEL_COMPUTE_ELEM_FLOATING,
    MODEL_COMPUTE_ELEM_COMPLEX,  /* one complex number is one element */
    MODEL_COMPUTE_ELEM_LOGICAL,
    MODEL_COMPUTE_ELEM_BYTE,
    MODEL_COMPUTE_ELEM_PAIR,     /* one value-index pair is one element */
    MODEL_COMPUTE_ELEM_OTHER,    /* mixed derived types and the rest (user ops only) */
    MODEL_COMPUTE_N_ELEMS
};

struct model_compute {
    gboolean zero_cost;  /* charge nothing at all */
    double flops[MODEL_COMPUTE_N_OPS][MODEL_COMPUTE_N_ELEMS]; /* flops per element */
};

/* The documented default table (model_compute.c), user ops at 1 flop per element. */
void model_compute_defaults(struct model_compute *model);

/* A model that charges nothing for any op. */
void model_compute_zero(struct model_compute *model);

/* Set the cost of user-defined ops, for every element class. Rejects negative or non-finite. */
gboolean model_compute_set_user_flops(struct model_compute *model, double flops_per_element,
                                      GError **error);

/* Set one entry of the table. Rejects negative or non-finite values and bad indices. */
gboolean model_compute_set_flops(struct model_compute *model, enum model_compute_op op,
                                 enum model_compute_elem elem, double flops_per_element,
                                 GError **error);

/* Flops per element of op on elem (0 in a zero-cost model). */
double model_compute_flops_per_element(const struct model_compute *model,
                                       enum model_compute_op op, enum model_compute_elem elem);

/* Flops of applying op to `elements` elements of class elem. */
double model_compute_flops(const struct model_compute *model, enum model_compute_op op,
                           enum model_compute_elem elem, guint64 elements);

/* Names for reports and scenario keys: "MPI_SUM"/"user", "floating"; NULL if out of range. */
const char *model_compute_op_name(enum model_compute_op op);
const char *model_compute_elem_name(enum model_compute_elem elem);

/* Inverse of the name functions; FALSE with an error naming the bad name. */
gboolean model_compute_op_from_name(const char *name, enum model_compute_op *op, GError **error);
gboolean model_compute_elem_from_name(const char *name, enum model_compute_elem *elem,
                                      GError **error);

#define MODEL_COMPUTE_ERROR (model_compute_error_quark())
GQuark model_compute_error_quark(void);

enum model_compute_error {
    MODEL_COMPUTE_ERROR_INVALID /* a bad value or name */
};

#endif
