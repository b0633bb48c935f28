/*
 * op.h — reduction operations: the predefined ops, user ops, and their application.
 *
 * An op computes inout[i] = in[i] ∘ inout[i] element by element (MPI-3.1 §5.9.5: the user
 * function gets (invec, inoutvec, len, datatype)). Predefined ops apply to predefined types and
 * to derived types that are homogeneous in one predefined type, in that type's own precision
 * (no widening), so results are bitwise reproducible. Which op is defined on which type is
 * decided by one table in op.c, transcribed from MPI-3.1 §5.9.2 and §5.9.4.
 * Invariants: predefined ops are never freed; a live op has magic COLLSIM_OP_MAGIC.
 */
#ifndef COLLSIM_OP_H
#define COLLSIM_OP_H

#include <stddef.h>
#include <stdint.h>

#include "mpi.h"

#define COLLSIM_OP_MAGIC 0x4f705f5fu /* "Op__" */

enum collsim_op_code {
    COLLSIM_OP_MAX,
    COLLSIM_OP_MIN,
    COLLSIM_OP_SUM,
    COLLSIM_OP_PROD,
    COLLSIM_OP_LAND,
    COLLSIM_OP_BAND,
    COLLSIM_OP_LOR,
    COLLSIM_OP_BOR,
    COLLSIM_OP_LXOR,
    COLLSIM_OP_BXOR,
    COLLSIM_OP_MAXLOC,
    COLLSIM_OP_MINLOC,
    COLLSIM_OP_REPLACE, /* one-sided accumulate only: never valid in a reduction */
    COLLSIM_OP_NO_OP,   /* one-sided accumulate only: never valid in a reduction */
    COLLSIM_OP_USER,
    COLLSIM_OP_CODE_COUNT
};

/* What an op's elements are, for the compute-cost model (the groups of MPI-3.1 §5.9.2). */
enum collsim_elem_class {
    COLLSIM_ELEM_INTEGER,  /* C integer, Fortran integer, multi-language types */
    COLLSIM_ELEM_FLOATING,
    COLLSIM_ELEM_COMPLEX,
    COLLSIM_ELEM_LOGICAL,
    COLLSIM_ELEM_BYTE,
    COLLSIM_ELEM_PAIR,     /* value-index pairs of MAXLOC/MINLOC */
    COLLSIM_ELEM_OTHER     /* mixed derived types, characters, MPI_PACKED */
};

struct collsim_op {
    uint32_t magic;
    enum collsim_op_code code;
    int predefined;
    int commute;
    MPI_User_function *fn;   /* user ops only */
    const char *name;        /* "MPI_SUM", or "user-defined op" */
    /* user ops: the program's handle and the operations started with it (a nonblocking or
     * persistent reduction), each a reference; freed once the program has freed its handle */
    int refcount;
    int freed;
};

/* The work of one op application, as the compute-cost model needs it. */
struct collsim_op_work {
    enum collsim_op_code op;
    enum collsim_elem_class elem;
    size_t elements;         /* basic elements (a pair or a complex counts one) */
};

/* MPI_SUCCESS if op is a live op handle, else MPI_ERR_OP. */
int collsim_op_check_handle(MPI_Op op);
/* One more reference to a user op (predefined ops and MPI_OP_NULL are left alone); op. */
MPI_Op collsim_op_ref(MPI_Op op);
/* One reference fewer: the last one destroys the op. */
void collsim_op_unref(MPI_Op op);

/*
 * MPI_SUCCESS if op may reduce data of dt: MPI_ERR_TYPE if dt is not a valid committed type,
 * MPI_ERR_OP if op is null or invalid, MPI_REPLACE/MPI_NO_OP, or a predefined op that the
 * standard does not define on dt (for a derived type: on its basic element type; a derived
 * type mixing element types takes user ops only).
 */
int collsim_op_check(MPI_Op op, MPI_Datatype dt);

/* Why collsim_op_check(op, dt) fails, as one sentence naming op and dt ("" on success). */
void collsim_op_describe_error(MPI_Op op, MPI_Datatype dt, char *buf, size_t size);

/*
 * inout[i] = in[i] ∘ inout[i] for count items of dt, after collsim_op_check succeeded.
 * User functions get (in, inout, &count, &dt). Returns MPI_SUCCESS, MPI_ERR_OP if no kernel
 * exists for the pair, or MPI_ERR_NO_MEM.
 */
int collsim_op_apply(MPI_Op op, const void *in, void *inout, int count, MPI_Datatype dt);

/* The op's name for messages ("MPI_SUM", "user-defined op", "MPI_OP_NULL"). */
const char *collsim_op_name(MPI_Op op);

/* Describe applying op to count items of dt, for the compute-cost model (valid op and dt). */
void collsim_op_work(MPI_Op op, MPI_Datatype dt, int count, struct collsim_op_work *work);

/*
 * Whether data of basic type `sent` may be received as basic type `received` (MPI-3.1 3.3.1
 * type matching), as collsim checks it in point-to-point and collective traffic alike: the
 * same type; MPI_BYTE or MPI_PACKED on either side; or two types of one element class and one
 * size, whose bits mean the same values (MPI_LONG and MPI_INT64_T, MPI_INT and MPI_UNSIGNED,
 * MPI_FLOAT and MPI_REAL, which real programs mix and every MPI delivers intact). Value-index
 * pairs and types of no class match only themselves. NULL (a derived type of mixed basic
 * types) matches anything: collsim compares one basic type per side.
 */
int collsim_basic_types_match(MPI_Datatype sent, MPI_Datatype received);

#endif
