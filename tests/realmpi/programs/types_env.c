/*
 * types_env.c — subarray, darray and hindexed_block types with MPI_Pack, envelopes and
 * contents, names, external32 bytes and user error classes, in one ordinary MPI program.
 * test_realmpi.sh builds it unchanged with Open MPI's mpicc (run by mpirun) and against
 * collsim (run by collsim exec) and requires the same output.
 *
 * Only what MPI defines is printed, by rank 0: the elements each type selects (every rank's
 * part of the distributed arrays, gathered), sizes and extents, the constructors' arguments,
 * the big-endian bytes of external32. The library's version string differs between
 * implementations and is not printed; nor is the number of a user error class.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi.h"

#define N 17   /* elements of the 1-D distributed array */

static int rank, size;
static int global[64];

/* Rank 0 prints, one line per rank, the elements of `global` that each rank's dt selects. */
static void
print_parts(const char *what, MPI_Datatype dt)
{
    int n, counts[16], displs[16], mine[64], all[16 * 64], pos = 0;

    MPI_Type_commit(&dt);
    MPI_Type_size(dt, &n);
    n /= (int)sizeof(int);
    MPI_Pack(global, 1, dt, mine, sizeof(mine), &pos, MPI_COMM_WORLD);
    MPI_Gather(&n, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
    for (int r = 0; rank == 0 && r < size; r++)
        displs[r] = r * 64;
    MPI_Gatherv(mine, n, MPI_INT, all, counts, displs, MPI_INT, 0, MPI_COMM_WORLD);
    for (int r = 0; rank == 0 && r < size; r++) {
        printf("%s rank %d:", what, r);
        for (int i = 0; i < counts[r]; i++)
            printf(" %d", all[r * 64 + i]);
        printf("\n");
    }
    MPI_Type_free(&dt);
}

/* Rank 0 prints size, lb, extent, true lb and true extent of dt. */
static void
print_bounds(const char *what, MPI_Datatype dt)
{
    MPI_Count sz, lb, ext, tlb, text;

    MPI_Type_size_x(dt, &sz);
    MPI_Type_get_extent_x(dt, &lb, &ext);
    MPI_Type_get_true_extent_x(dt, &tlb, &text);
    if (rank == 0)
        printf("%s: size %lld lb %lld extent %lld true_lb %lld true_extent %lld\n", what,
               (long long)sz, (long long)lb, (long long)ext, (long long)tlb, (long long)text);
}

/* Rank 0 prints the envelope and contents of dt; derived types among them are freed. */
static void
print_contents(const char *what, MPI_Datatype dt)
{
    int ni, na, nd, combiner, ints[64];
    MPI_Aint aints[16];
    MPI_Datatype types[16];

    MPI_Type_get_envelope(dt, &ni, &na, &nd, &combiner);
    if (rank == 0)
        printf("%s: combiner %d, %d integers, %d addresses, %d types\n", what, combiner, ni, na,
               nd);
    if (combiner == MPI_COMBINER_NAMED)
        return;
    MPI_Type_get_contents(dt, ni, na, nd, ints, aints, types);
    if (rank == 0) {
        printf("  integers:");
        for (int i = 0; i < ni; i++)
            printf(" %d", ints[i]);
        printf("\n  addresses:");
        for (int i = 0; i < na; i++)
            printf(" %ld", (long)aints[i]);
        printf("\n");
    }
    for (int i = 0; i < nd; i++) {
        int c, x, y, z;
        char name[MPI_MAX_OBJECT_NAME];
        int len;
        MPI_Type_get_envelope(types[i], &x, &y, &z, &c);
        if (c == MPI_COMBINER_NAMED) {
            MPI_Type_get_name(types[i], name, &len);
            if (rank == 0)
                printf("  type %d: %s\n", i, name);
        } else {
            if (rank == 0)
                printf("  type %d: derived, combiner %d\n", i, c);
            MPI_Type_free(&types[i]);
        }
    }
}

static void
subarrays(void)
{
    int sizes[] = {4, 6}, subsizes[] = {2, 3}, starts[] = {1, 2};
    MPI_Datatype c, f;

    MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_C, MPI_INT, &c);
    MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_FORTRAN, MPI_INT, &f);
    print_bounds("subarray C", c);
    print_bounds("subarray Fortran", f);
    print_contents("subarray Fortran", f);
    print_parts("subarray C", c);
    print_parts("subarray Fortran", f);
}

static void
darrays(void)
{
    int g1[] = {N}, p1[] = {size}, dflt[] = {MPI_DISTRIBUTE_DFLT_DARG}, two[] = {2};
    int block[] = {MPI_DISTRIBUTE_BLOCK}, cyclic[] = {MPI_DISTRIBUTE_CYCLIC};
    int g2[] = {4, 6}, p2[] = {size, 1};
    int d2[] = {MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_NONE};
    int a2[] = {MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG};
    MPI_Datatype t;

    MPI_Type_create_darray(size, rank, 1, g1, block, dflt, p1, MPI_ORDER_C, MPI_INT, &t);
    print_bounds("darray block (rank 0)", t);
    print_parts("darray block", t);
    MPI_Type_create_darray(size, rank, 1, g1, cyclic, two, p1, MPI_ORDER_C, MPI_INT, &t);
    print_contents("darray cyclic(2)", t);
    print_parts("darray cyclic(2)", t);
    MPI_Type_create_darray(size, rank, 2, g2, d2, a2, p2, MPI_ORDER_C, MPI_INT, &t);
    print_parts("darray rows cyclic", t);
    MPI_Type_create_darray(size, rank, 2, g2, d2, a2, p2, MPI_ORDER_FORTRAN, MPI_INT, &t);
    print_parts("darray rows cyclic, Fortran order", t);
}

static void
other_constructors(void)
{
    MPI_Aint disps[] = {4, 20, 44};
    MPI_Datatype hb, v, r, d, s;
    char name[MPI_MAX_OBJECT_NAME];
    int len;

    MPI_Type_create_hindexed_block(3, 2, disps, MPI_INT, &hb);
    print_bounds("hindexed_block", hb);
    print_contents("hindexed_block", hb);
    MPI_Type_vector(3, 2, 5, MPI_DOUBLE, &v);
    print_contents("vector", v);
    MPI_Type_create_resized(v, 0, 16, &r);
    print_contents("resized", r);
    MPI_Type_dup(r, &d);
    print_contents("dup", d);
    int bl[] = {1, 1};
    MPI_Aint sd[] = {0, 8};
    MPI_Datatype st[] = {MPI_CHAR, v};
    MPI_Type_create_struct(2, bl, sd, st, &s);
    print_contents("struct", s);
    print_contents("named", MPI_FLOAT);
    MPI_Type_get_name(MPI_DOUBLE, name, &len);
    if (rank == 0)
        printf("name of MPI_DOUBLE: %s (%d)\n", name, len);
    MPI_Type_set_name(v, "three pairs");
    MPI_Type_get_name(v, name, &len);
    if (rank == 0)
        printf("name of the vector: %s (%d)\n", name, len);
    MPI_Type_free(&s);
    MPI_Type_free(&d);
    MPI_Type_free(&r);
    MPI_Type_free(&v);
    print_parts("hindexed_block", hb);
}

static void
external32(void)
{
    int ints[2] = {0x01020304, -2};
    double d = -1.5;
    unsigned char buf[64];
    MPI_Aint pos = 0, sz;
    int back[2];
    double dback;

    MPI_Pack_external_size("external32", 2, MPI_INT, &sz);
    MPI_Pack_external("external32", ints, 2, MPI_INT, buf, sizeof(buf), &pos);
    MPI_Pack_external("external32", &d, 1, MPI_DOUBLE, buf, sizeof(buf), &pos);
    if (rank == 0) {
        printf("external32 size of 2 ints %ld; %ld bytes:", (long)sz, (long)pos);
        for (int i = 0; i < pos; i++)
            printf(" %02x", buf[i]);
        printf("\n");
    }
    pos = 0;
    MPI_Unpack_external("external32", buf, sizeof(buf), &pos, back, 2, MPI_INT);
    MPI_Unpack_external("external32", buf, sizeof(buf), &pos, &dback, 1, MPI_DOUBLE);
    if (rank == 0)
        printf("back: %d %d %g\n", back[0], back[1], dback);
}

static void
error_classes(void)
{
    int cls, code, back, len;
    char text[MPI_MAX_ERROR_STRING];

    MPI_Add_error_class(&cls);
    MPI_Add_error_code(cls, &code);
    MPI_Add_error_string(code, "the solver diverged");
    MPI_Error_class(code, &back);
    MPI_Error_string(code, text, &len);
    if (rank == 0)
        printf("user class above MPI_ERR_LASTCODE: %s; class of its code: %s; string: %s (%d)\n",
               cls > MPI_ERR_LASTCODE ? "yes" : "no", back == cls ? "the class" : "other", text,
               len);
}

int
main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int i = 0; i < 64; i++)
        global[i] = i;
    subarrays();
    darrays();
    other_constructors();
    external32();
    error_classes();
    MPI_Finalize();
    return 0;
}
