/*
 * check_bcast.c — every MPI_Bcast algorithm of the registry, at every rank count of `sizes`,
 * one simulation per (algorithm, rank count), every root, counts 0, 1 and 1000, with MPI_INT
 * and with a non-contiguous vector type whose holes must stay untouched.
 *
 * The ranks only record their first failure; the assertions run after the simulation. The
 * simulation's message count is checked too: a broadcast of a non-empty buffer sends exactly
 * p-1 messages with both the linear and the tree algorithms (every rank but the root
 * receives the data once).
 */
#include "config.h"

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll/coll_registry.h"
#include "mpi.h"
#include "sim_harness.h"

static const int sizes[] = {1, 2, 3, 5, 7, 8, 13, 16, 31, 64};
#define N_SIZES ((int)(sizeof sizes / sizeof sizes[0]))
#define MAX_RANKS 64
static const int counts[] = {0, 1, 1000};
#define N_COUNTS ((int)(sizeof counts / sizeof counts[0]))
#define SENTINEL (-7777)

/* The vector type: 2 ints 3 ints apart, so an item spans 4 ints with holes at 1 and 2. */
#define VEC_SPAN 4

struct bcast_run {
    const struct coll_algorithm *row;
    int size;
};

static char failures[MAX_RANKS][256];

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

static void
bcast_rank(int rank, void *arg)
{
    const struct bcast_run *run = arg;
    struct coll_params params = run->row->defaults;
    MPI_Datatype vec;
    MPI_Type_vector(2, 1, 3, MPI_INT, &vec);
    MPI_Type_commit(&vec);

    for (int root = 0; root < run->size; root++) {
        for (int k = 0; k < N_COUNTS; k++) {
            int n = counts[k];
            for (int t = 0; t < 2; t++) {
                int vector = t == 1;
                size_t ints = (size_t)n * (vector ? VEC_SPAN : 1);
                int *buf = malloc(sizeof(int) * (ints + 1));
                const char *type = vector ? "vector" : "int";
                for (size_t i = 0; i < ints + 1; i++)
                    buf[i] = rank == root ? value(root, n, (int)i) : SENTINEL;
                int rc = run->row->fn.bcast(buf, n, vector ? vec : MPI_INT, root, MPI_COMM_WORLD,
                                            &params);
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
    sim_config_defaults(&config);
    config.nranks = p;
    ck_assert_msg(collsim_test_run_config(&config, bcast_rank, &run, &outcome) == 0,
                  "bcast %s, p = %d: the simulation failed", row->name, p);
    for (int r = 0; r < p; r++)
        ck_assert_msg(failures[r][0] == '\0', "bcast %s, p = %d: %s", row->name, p, failures[r]);

    /* per root: two non-empty counts, two datatypes, p-1 messages each */
    guint64 nonempty = 0;
    for (int k = 0; k < N_COUNTS; k++)
        nonempty += counts[k] > 0;
    ck_assert_msg(outcome.messages == (guint64)p * nonempty * 2 * (guint64)(p - 1),
                  "bcast %s, p = %d: %llu messages, expected %llu", row->name, p,
                  (unsigned long long)outcome.messages,
                  (unsigned long long)((guint64)p * nonempty * 2 * (guint64)(p - 1)));
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
