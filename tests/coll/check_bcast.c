/*
 * check_bcast.c — every MPI_Bcast algorithm of the registry, at every rank count of `sizes`,
 * one simulation per (algorithm, rank count), every root, counts 0, 1, 7 (fewer items than
 * ranks: empty blocks for the scatter-based algorithms) and 1000, with MPI_INT and with a
 * non-contiguous vector type whose holes must stay untouched.
 *
 * Parameters: a row that uses segment_bytes runs with segments of less than one item (one
 * item each; short counts only), with about five segments the last of them shorter, and with
 * the row's default; a row that uses radix runs with radix 2, 3, 4 and 7.
 *
 * The ranks only record their first failure; the assertions run after the simulation. The
 * simulation's message count is checked too: a broadcast of a non-empty buffer sends exactly
 * p-1 messages with the linear and the tree algorithms (every rank but the root receives the
 * data once), (p-1)·S with the pipelined ones (every rank receives each of the S segments
 * once), the split binary tree's count below, and at least p-1 with any other algorithm.
 */
#include "config.h"

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll/coll_registry.h"
#include "coll/coll_select.h"
#include "mpi.h"
#include "sim_harness.h"

static const int sizes[] = {1, 2, 3, 5, 7, 8, 13, 16, 31, 64};
#define N_SIZES ((int)(sizeof sizes / sizeof sizes[0]))
#define MAX_RANKS 64
static const int counts[] = {0, 1, 7, 1000};
#define N_COUNTS ((int)(sizeof counts / sizeof counts[0]))
#define SENTINEL (-7777)
static const int radices[] = {2, 3, 4, 7};
#define N_RADICES ((int)(sizeof radices / sizeof radices[0]))
enum { SEG_ONE_ITEM, SEG_FIVE, SEG_DEFAULT_ROW, N_SEGMENTINGS };

/* The vector type: 2 ints 3 ints apart, so an item spans 4 ints with holes at 1 and 2. */
#define VEC_SPAN 4

struct bcast_run {
    const struct coll_algorithm *row;
    int size;
};

static char failures[MAX_RANKS][256];
/* Messages the simulation must send (rank 0 adds them up as it goes); exact or a minimum. */
static guint64 expected_messages;
static int expected_exact;

static void
record_failure(int rank, int root, int count, const char *type, const char *what, int number)
{
    if (failures[rank][0] != '\0')
        return;
    snprintf(failures[rank], sizeof failures[rank], "rank %d, root %d, count %d, %s: %s %d", rank,
             root, count, type, what, number);
}

static int
value(int root, int count, int index)
{
    return (int)(((uint32_t)root * 2654435761u) ^ ((uint32_t)count * 40503u) ^
                 ((uint32_t)index * 2246822519u)) &
           0x3fffffff;
}

/*
 * Messages of one broadcast of n items of type_size bytes on p ranks: exact for the
 * algorithms this test knows, else -1 (then at least p-1 are expected).
 */
static long long
messages_of(const struct coll_algorithm *row, int p, int n, int type_size,
            const struct coll_params *params)
{
    if (n == 0 || p == 1)
        return 0;
    const char *name = row->name;
    if (strcmp(name, "linear") == 0 || strcmp(name, "binomial") == 0 ||
        strcmp(name, "knomial") == 0)
        return p - 1;
    long long seg = params->segment_bytes / type_size;
    if (seg < 1)
        seg = 1;
    if (strcmp(name, "pipeline_chain") == 0 || strcmp(name, "pipeline_binary") == 0)
        return (long long)(p - 1) * ((n + seg - 1) / seg);
    if (strcmp(name, "split_binary") == 0) {
        /* halves of ⌈n/2⌉ and ⌊n/2⌋ down the odd and the even relative ranks, then a swap
         * per pair (an empty half is not sent); p even: the root sends p-1 the second half */
        if (p == 2)
            return 1;
        long long half[2] = {n - n / 2, n / 2}, total = 0;
        long long odd = p / 2, even = (p - 1) / 2, pairs = (p - 1) / 2;
        for (int h = 0; h < 2; h++) {
            long long s = (half[h] + seg - 1) / seg;
            total += s * (h == 0 ? odd : even) + pairs * (half[h] > 0);
        }
        return total + (p % 2 == 0 && half[1] > 0);
    }
    return -1;
}

static void
bcast_one(const struct bcast_run *run, int rank, int root, int n, int vector, MPI_Datatype vec,
          const struct coll_params *params, const char *what)
{
    size_t ints = (size_t)n * (vector ? VEC_SPAN : 1);
    int *buf = malloc(sizeof(int) * (ints + 1));
    char type[64];
    snprintf(type, sizeof type, "%s%s", vector ? "vector" : "int", what);
    for (size_t i = 0; i < ints + 1; i++)
        buf[i] = rank == root ? value(root, n, (int)i) : SENTINEL;
    int rc = run->row->fn.bcast(buf, n, vector ? vec : MPI_INT, root, MPI_COMM_WORLD, params);
    if (rc != MPI_SUCCESS)
        record_failure(rank, root, n, type, "returned error", rc);
    for (size_t i = 0; i < ints + 1; i++) {
        int hole = i == ints || (vector && (i % VEC_SPAN == 1 || i % VEC_SPAN == 2));
        int expected = rank == root || !hole ? value(root, n, (int)i) : SENTINEL;
        if (buf[i] != expected) {
            record_failure(rank, root, n, type,
                           hole ? "wrote into the hole or past the end at int"
                                : "wrong data at int",
                           (int)i);
            break;
        }
    }
    free(buf);
    if (rank == 0) {
        long long m = messages_of(run->row, run->size, n, vector ? 2 * (int)sizeof(int)
                                                                  : (int)sizeof(int), params);
        if (m < 0) {
            expected_exact = 0;
            m = n > 0 ? run->size - 1 : 0;
        }
        expected_messages += (guint64)m;
    }
}

static void
bcast_rank(int rank, void *arg)
{
    const struct bcast_run *run = arg;
    MPI_Datatype vec;
    MPI_Type_vector(2, 1, 3, MPI_INT, &vec);
    MPI_Type_commit(&vec);

    for (int root = 0; root < run->size; root++) {
        for (int k = 0; k < N_COUNTS; k++) {
            int n = counts[k];
            for (int t = 0; t < 2; t++) {
                int vector = t == 1, type_size = (vector ? 2 : 1) * (int)sizeof(int);
                struct coll_params params = run->row->defaults;
                char what[64];
                if (run->row->caps & COLL_RADIX) {
                    for (int r = 0; r < N_RADICES; r++) {
                        params.radix = radices[r];
                        snprintf(what, sizeof what, ", radix %d", radices[r]);
                        bcast_one(run, rank, root, n, vector, vec, &params, what);
                    }
                    continue;
                }
                if (run->row->caps & COLL_SEGMENTED) {
                    for (int g = 0; g < N_SEGMENTINGS; g++) {
                        if (g == SEG_ONE_ITEM && n > 7)
                            continue;   /* one message per item: short counts only */
                        if (g == SEG_ONE_ITEM)
                            params.segment_bytes = type_size - 1;   /* less than one item */
                        else if (g == SEG_FIVE)
                            params.segment_bytes = n * type_size / 5 + type_size;
                        else
                            params.segment_bytes = run->row->defaults.segment_bytes;
                        snprintf(what, sizeof what, ", segment %d bytes", params.segment_bytes);
                        bcast_one(run, rank, root, n, vector, vec, &params, what);
                    }
                    continue;
                }
                bcast_one(run, rank, root, n, vector, vec, &params, "");
            }
        }
    }
    MPI_Type_free(&vec);
}

START_TEST(test_bcast_delivers_root_data_everywhere)
{
    const struct coll_algorithm *row = coll_registry_nth(COLL_BCAST, (size_t)_i / N_SIZES);
    int p = sizes[_i % N_SIZES];
    struct bcast_run run = {row, p};
    struct sim_config config;
    struct sim_outcome outcome;
    ck_assert_ptr_nonnull(row);

    memset(failures, 0, sizeof failures);
    expected_messages = 0;
    expected_exact = 1;
    sim_config_defaults(&config);
    config.nranks = p;
    ck_assert_msg(collsim_test_run_config(&config, bcast_rank, &run, &outcome) == 0,
                  "bcast %s, p = %d: the simulation failed", row->name, p);
    for (int r = 0; r < p; r++)
        ck_assert_msg(failures[r][0] == '\0', "bcast %s, p = %d: %s", row->name, p, failures[r]);

    if (expected_exact)
        ck_assert_msg(outcome.messages == expected_messages,
                      "bcast %s, p = %d: %llu messages, expected %llu", row->name, p,
                      (unsigned long long)outcome.messages,
                      (unsigned long long)expected_messages);
    else
        ck_assert_msg(outcome.messages >= expected_messages,
                      "bcast %s, p = %d: %llu messages, expected at least %llu", row->name, p,
                      (unsigned long long)outcome.messages,
                      (unsigned long long)expected_messages);
}
END_TEST

/* The default table: MPICH's choice by bytes and ranks (coll_select.c). */
START_TEST(test_bcast_default_choice_follows_mpich)
{
    static const struct {
        size_t bytes;
        int ranks;
        const char *name;
    } cases[] = {
        {0, 64, "binomial"},
        {12287, 64, "binomial"},
        {12288, 64, "scatter_recursive_doubling_allgather"},
        {12288, 7, "binomial"},
        {1 << 20, 7, "binomial"},
        {12288, 8, "scatter_recursive_doubling_allgather"},
        {524287, 16, "scatter_recursive_doubling_allgather"},
        {524288, 16, "scatter_ring_allgather"},
        {12288, 12, "scatter_ring_allgather"},
    };
    coll_select_reset();
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct coll_call call = {COLL_BCAST, cases[i].ranks, cases[i].bytes,
                                 (int)cases[i].bytes, 1, 1, 1, 0};
        struct coll_params params;
        const char *refusal;
        const struct coll_algorithm *row = coll_select(&call, &params, &refusal);
        ck_assert_ptr_nonnull(row);
        ck_assert_msg(strcmp(row->name, cases[i].name) == 0, "%zu bytes on %d ranks: %s, want %s",
                      cases[i].bytes, cases[i].ranks, row->name, cases[i].name);
    }
}
END_TEST

static Suite *
bcast_suite(void)
{
    Suite *s = suite_create("bcast");
    TCase *tc = tcase_create("registry");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_bcast_delivers_root_data_everywhere, 0,
                        (int)coll_registry_count(COLL_BCAST) * N_SIZES);
    suite_add_tcase(s, tc);
    TCase *choice = tcase_create("selection");
    tcase_add_test(choice, test_bcast_default_choice_follows_mpich);
    suite_add_tcase(s, choice);
    return s;
}

int
main(void)
{
    SRunner *runner = srunner_create(bcast_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
