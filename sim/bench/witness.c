/*
 * witness.c — the matrix and affine witnesses (see witness.h).
 */
#include <string.h>

/* Beside this file, not "sim/bench/witness.h": tests/realmpi/test_realmpi.sh compiles it with
 * Open MPI and without collsim's include path. */
#include "witness.h"

/* Shared by all ranks of the test process: kind, name and size are fixed; the MPI type and
 * op are created by the first witness_setup() and freed by the last witness_teardown(). */
static struct witness witnesses[WITNESS_KIND_COUNT] = {
    [WITNESS_MATRIX] = {WITNESS_MATRIX, "matrix", MPI_DATATYPE_NULL, MPI_OP_NULL, 4},
    [WITNESS_AFFINE] = {WITNESS_AFFINE, "affine", MPI_DATATYPE_NULL, MPI_OP_NULL, 2},
};
static int users;

static int
mulmod(int a, int b)
{
    return (int)(((long long)a * b) % WITNESS_PRIME);
}

static int
addmod(int a, int b)
{
    return (int)(((long long)a + b) % WITNESS_PRIME);
}

/* out = l x r (2x2, row-major). */
static void
matrix_mul(const int *l, const int *r, int *out)
{
    int t[4];
    t[0] = addmod(mulmod(l[0], r[0]), mulmod(l[1], r[2]));
    t[1] = addmod(mulmod(l[0], r[1]), mulmod(l[1], r[3]));
    t[2] = addmod(mulmod(l[2], r[0]), mulmod(l[3], r[2]));
    t[3] = addmod(mulmod(l[2], r[1]), mulmod(l[3], r[3]));
    memcpy(out, t, sizeof t);
}

/* Apply l first, then r: x -> r.a (l.a x + l.b) + r.b. */
static void
affine_then(const int *l, const int *r, int *out)
{
    int a = mulmod(r[0], l[0]);
    int b = addmod(mulmod(r[0], l[1]), r[1]);
    out[0] = a;
    out[1] = b;
}

/*
 * The body of both MPI ops. MPI's contract: inout[i] = in[i] ∘ inout[i], `in` being the lower
 * ranks' part; an element is `ints` ints wide and `combine(l, r, out)` sets out = l ∘ r.
 */
static void
combine_elements(void *in, void *inout, const int *len, int ints,
                 void (*combine)(const int *l, const int *r, int *out))
{
    int *l = in, *r = inout;
    for (int i = 0; i < *len; i++)
        combine(l + ints * i, r + ints * i, r + ints * i);
}

static void
matrix_op(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    combine_elements(in, inout, len, 4, matrix_mul);
}

static void
affine_op(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    combine_elements(in, inout, len, 2, affine_then);
}

void
witness_setup(void)
{
    if (users++ > 0)
        return;
    struct witness *m = &witnesses[WITNESS_MATRIX], *a = &witnesses[WITNESS_AFFINE];
    MPI_Type_contiguous(4, MPI_INT, &m->type);
    MPI_Type_commit(&m->type);
    MPI_Op_create(matrix_op, 0, &m->op);
    MPI_Type_contiguous(2, MPI_INT, &a->type);
    MPI_Type_commit(&a->type);
    MPI_Op_create(affine_op, 0, &a->op);
}

void
witness_teardown(void)
{
    if (--users > 0)
        return;
    for (int k = 0; k < WITNESS_KIND_COUNT; k++) {
        MPI_Type_free(&witnesses[k].type);
        MPI_Op_free(&witnesses[k].op);
    }
}

MPI_User_function *
witness_function(enum witness_kind kind)
{
    return kind == WITNESS_MATRIX ? matrix_op : affine_op;
}

const struct witness *
witness_get(enum witness_kind kind)
{
    return &witnesses[kind];
}

/* A small, rank- and item-dependent value in [1, 97]. */
static int
mix(int rank, int item, int salt, int which)
{
    unsigned h = (unsigned)rank * 2654435761u ^ (unsigned)item * 40503u ^
                 (unsigned)salt * 2246822519u ^ (unsigned)which * 3266489917u;
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    return (int)(h % 97u) + 1;
}

void
witness_fill(const struct witness *w, int rank, int salt, int *items, int count)
{
    for (int i = 0; i < count; i++)
        for (int k = 0; k < w->item_ints; k++)
            items[i * w->item_ints + k] = mix(rank, i, salt, k);
}

void
witness_fold(const struct witness *w, int first, int last, int salt, int *items, int count)
{
    int n = w->item_ints;
    int next[4];
    witness_fill(w, first, salt, items, count);
    for (int r = first + 1; r <= last; r++) {
        for (int i = 0; i < count; i++) {
            witness_fill(w, r, salt, next, 0);
            for (int k = 0; k < n; k++)
                next[k] = mix(r, i, salt, k);
            if (w->kind == WITNESS_MATRIX)
                matrix_mul(items + n * i, next, items + n * i);
            else
                affine_then(items + n * i, next, items + n * i);
        }
    }
}

int
witness_equal(const struct witness *w, const int *a, const int *b, int count)
{
    return memcmp(a, b, sizeof(int) * (size_t)(w->item_ints * count)) == 0;
}
