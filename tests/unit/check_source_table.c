/*
 * check_source_table.c — a rank's buckets by (context, source) key
 * (sim/transport/source_table.h): what is stored is found, what was removed is not, whatever
 * the order of insertions and removals, the collisions and the runs that wrap around the end
 * of the slots.
 *
 * The reference is GLib's hash table, which the transport used before; the cases compare the
 * two after every edit, for every key that was ever used: seeded random edits (GRand) over keys
 * of a real run's shape (a few contexts, thousands of sources), and over keys crowded into a
 * few slots, where removals must move the rest of a run back.
 */
#include "config.h"

#include <check.h>
#include <stdlib.h>

#include "sim/transport/source_table.h"

/* A distinct, non-NULL value per key. */
static gpointer
value_of(gint64 key)
{
    return (gpointer)(guintptr)(0x10000 + 16 * (guint64)(key & 0xffffff) + ((guint64)key >> 32));
}

static gint64
key_of(guint32 context, int source)
{
    return (gint64)(((guint64)context << 32) | (guint32)source);
}

/* The table holds exactly the reference's keys, each with its value. (Plain comparisons in
 * the loop: each passing ck_assert leaves a mark in a file under check's fork mode, and millions
 * of them took longer than the test's time limit.) */
static void
check_same(const struct source_table *table, GHashTable *reference, const gint64 *keys,
           int nkeys)
{
    ck_assert_uint_eq(table->count, g_hash_table_size(reference));
    for (int i = 0; i < nkeys; i++) {
        gboolean present = g_hash_table_contains(reference, &keys[i]);
        gpointer found = source_table_lookup(table, keys[i]);
        if (found != (present ? value_of(keys[i]) : NULL))
            ck_abort_msg("key %" G_GINT64_MODIFIER "x: found %p, %s", keys[i], found,
                         present ? "stored" : "not stored");
    }
    /* the walk meets every value once */
    guint32 at = 0, walked = 0;
    while (source_table_next(table, &at) != NULL)
        walked++;
    ck_assert_uint_eq(walked, table->count);
    if (table->slots != NULL)
        ck_assert_uint_le(2 * table->count, table->mask + 1); /* at most half full */
}

static void
random_edits(const gint64 *keys, int nkeys, guint32 seed, int steps)
{
    GRand *rand = g_rand_new_with_seed(seed);
    GHashTable *reference = g_hash_table_new(g_int64_hash, g_int64_equal);
    struct source_table table = {NULL, 0, 0};
    for (int step = 0; step < steps; step++) {
        const gint64 *key = &keys[g_rand_int_range(rand, 0, nkeys)];
        /* grow for the first half, then shrink: the table fills, then empties */
        gboolean grow = g_rand_double(rand) < (step < steps / 2 ? 0.7 : 0.3);
        if (grow && !g_hash_table_contains(reference, key)) {
            source_table_insert(&table, *key, value_of(*key));
            g_hash_table_add(reference, (gpointer)key);
        } else if (!grow) {
            gpointer removed = source_table_remove(&table, *key);
            if (g_hash_table_remove(reference, key))
                ck_assert_ptr_eq(removed, value_of(*key));
            else
                ck_assert_ptr_null(removed);
        }
        if (step % 7 == 0 || step == steps - 1)
            check_same(&table, reference, keys, nkeys);
    }
    source_table_clear(&table, NULL);
    ck_assert_ptr_null(table.slots);
    ck_assert_ptr_null(source_table_lookup(&table, keys[0]));
    ck_assert_ptr_null(source_table_remove(&table, keys[0]));
    g_hash_table_destroy(reference);
    g_rand_free(rand);
}

/* Keys of a run's shape: three contexts (a user communicator and collectives' twins), sources
 * 0 to 999. */
START_TEST(test_random_edits_run_keys)
{
    enum { N = 3000 };
    static gint64 keys[N];
    for (int i = 0; i < N; i++)
        keys[i] = key_of((guint32)(2 + i / 1000), i % 1000);
    static const guint32 seeds[] = {1, 17, 4242};
    for (gsize s = 0; s < G_N_ELEMENTS(seeds); s++)
        random_edits(keys, N, seeds[s], 6000);
}
END_TEST

/* Keys that share their home slots in a table of 64 (found by the table's own hashing), so that
 * runs are long, wrap around the end of the slots and lose entries from their middle. */
START_TEST(test_random_edits_colliding_keys)
{
    enum { N = 30 };
    gint64 keys[N];
    struct source_table probe = {NULL, 63, 0};
    int n = 0;
    for (int source = 0; n < N; source++) {
        guint32 home = source_table_home(&probe, key_of(4, source));
        if (home >= 61 || home <= 1) /* the last three slots and the first two */
            keys[n++] = key_of(4, source);
    }
    static const guint32 seeds[] = {3, 5, 8, 13, 21, 34, 55, 89};
    for (gsize s = 0; s < G_N_ELEMENTS(seeds); s++)
        random_edits(keys, N, seeds[s], 400);
}
END_TEST

/* A bucket per source, emptied one after another as a linear Alltoall does; clear frees what
 * is left. */
START_TEST(test_fill_empty_and_clear)
{
    struct source_table table = {NULL, 0, 0};
    for (int source = 0; source < 1000; source++) {
        int *bucket = g_new(int, 1);
        *bucket = source;
        source_table_insert(&table, key_of(2, source), bucket);
    }
    ck_assert_uint_eq(table.count, 1000);
    ck_assert_uint_eq(table.mask + 1, 2048);
    for (int source = 0; source < 1000; source += 2)
        g_free(source_table_remove(&table, key_of(2, source)));
    ck_assert_uint_eq(table.count, 500);
    for (int source = 0; source < 1000; source++) {
        int *bucket = source_table_lookup(&table, key_of(2, source));
        if (source % 2 == 0)
            ck_assert_ptr_null(bucket);
        else
            ck_assert_int_eq(*bucket, source);
    }
    ck_assert_ptr_null(source_table_lookup(&table, key_of(3, 1))); /* another context */
    source_table_clear(&table, g_free);
    ck_assert_uint_eq(table.count, 0);
}
END_TEST

static Suite *
source_table_suite(void)
{
    Suite *s = suite_create("source_table");
    TCase *tc = tcase_create("table");
    tcase_add_test(tc, test_random_edits_run_keys);
    tcase_add_test(tc, test_random_edits_colliding_keys);
    tcase_add_test(tc, test_fill_empty_and_clear);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *runner = srunner_create(source_table_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
