/*
 * compute.c — the flops of an op application, from src/'s description of the work and the
 * compute model of models/ (which knows nothing of MPI handles).
 */
#include "config.h"

#include "sim/engine/compute.h"
#include "models/model_compute.h"
#include "src/op.h"

static const enum model_compute_op op_of[COLLSIM_OP_CODE_COUNT] = {
    [COLLSIM_OP_MAX] = MODEL_COMPUTE_OP_MAX,       [COLLSIM_OP_MIN] = MODEL_COMPUTE_OP_MIN,
    [COLLSIM_OP_SUM] = MODEL_COMPUTE_OP_SUM,       [COLLSIM_OP_PROD] = MODEL_COMPUTE_OP_PROD,
    [COLLSIM_OP_LAND] = MODEL_COMPUTE_OP_LAND,     [COLLSIM_OP_BAND] = MODEL_COMPUTE_OP_BAND,
    [COLLSIM_OP_LOR] = MODEL_COMPUTE_OP_LOR,       [COLLSIM_OP_BOR] = MODEL_COMPUTE_OP_BOR,
    [COLLSIM_OP_LXOR] = MODEL_COMPUTE_OP_LXOR,     [COLLSIM_OP_BXOR] = MODEL_COMPUTE_OP_BXOR,
    [COLLSIM_OP_MAXLOC] = MODEL_COMPUTE_OP_MAXLOC, [COLLSIM_OP_MINLOC] = MODEL_COMPUTE_OP_MINLOC,
    [COLLSIM_OP_REPLACE] = MODEL_COMPUTE_OP_REPLACE, [COLLSIM_OP_NO_OP] = MODEL_COMPUTE_OP_NO_OP,
    [COLLSIM_OP_USER] = MODEL_COMPUTE_OP_USER,
};

static const enum model_compute_elem elem_of[] = {
    [COLLSIM_ELEM_INTEGER] = MODEL_COMPUTE_ELEM_INTEGER,
    [COLLSIM_ELEM_FLOATING] = MODEL_COMPUTE_ELEM_FLOATING,
    [COLLSIM_ELEM_COMPLEX] = MODEL_COMPUTE_ELEM_COMPLEX,
    [COLLSIM_ELEM_LOGICAL] = MODEL_COMPUTE_ELEM_LOGICAL,
    [COLLSIM_ELEM_BYTE] = MODEL_COMPUTE_ELEM_BYTE,
    [COLLSIM_ELEM_PAIR] = MODEL_COMPUTE_ELEM_PAIR,
    [COLLSIM_ELEM_OTHER] = MODEL_COMPUTE_ELEM_OTHER,
};

double
sim_compute_flops(MPI_Op op, MPI_Datatype dt, int count)
{
    static struct model_compute model;
    static gboolean ready;
    if (!ready) {
        model_compute_defaults(&model);
        ready = TRUE;
    }
    struct collsim_op_work work;
    collsim_op_work(op, dt, count, &work);
    return model_compute_flops(&model, op_of[work.op], elem_of[work.elem], work.elements);
}
