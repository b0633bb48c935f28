/*
 * check_wait_set.c — the set of transfers a blocking wait listens to (sim/transport/wait_set.h):
 * entries join and leave at their slot's place while the live part slides, and whatever the
 * edits, what the core is handed is the entries in slot order.
 *
 * The reference is a plain sorted array, edited by moving its tail (what the set did before
 * it kept a live part); the cases compare the two entry by entry after every edit: a Waitall
 * whose transfers end in slot order, one that gains entries in front of a part that has slid,
 * and seeded random edits (GRand, so a failure is reproduced by its seed).
 */
#include "config.h"

#include <check.h>
#include <stdlib.h>

#include "sim/transport/wait_set.h"

#define MAX_SLOTS 600

/* The reference: slots present, in order, with the transfer each entry carries. */
struct reference {
    int slots[MAX_SLOTS];
    int n;
};

/* A distinct fake transfer and object per slot (the set never dereferences them). */
static core_comm *
comm_of(int slot)
{
    return (core_comm *)(guintptr)(0x1000 + 16 * slot);
}

static gpointer
what_of(int slot)
{
    return (gpointer)(guintptr)(0x900000 + 8 * slot);
}

static int
reference_position(const struct reference *ref, int slot)
{
    int i = 0;
    while (i < ref->n && ref->slots[i] < slot)
        i++;
    return i;
}

/* The set's live entries are the reference's, in order, each with its slot's transfer. */
/* (Plain comparisons in the loop: each passing ck_assert leaves a mark in a file under check's
 * fork mode, and millions of them took most of the test's time limit.) */
static void
check_same(struct wait_set *set, const struct reference *ref)
{
    ck_assert_uint_eq(wait_set_count(set), (guint)ref->n);
    ck_assert_uint_le(set->start, wait_set_len(set));
    for (int i = 0; i < ref->n; i++) {
        const struct wait_entry *entry = wait_set_entry(set, (guint)i);
        int slot = ref->slots[i];
        if (entry->slot != slot || entry->what != what_of(slot) || entry->kind != slot % 5 ||
            wait_set_comms(set)[i] != comm_of(slot))
            ck_abort_msg("live entry %d: slot %d, expected slot %d with its transfer", i,
                         entry->slot, slot);
    }
    /* the dead part never outgrows the live one by more than what is kept */
    ck_assert_uint_le(set->start, MAX((guint)ref->n, WAIT_SET_DEAD_KEPT));
}

static void
join(struct wait_set *set, struct reference *ref, int slot)
{
    int at = reference_position(ref, slot);
    ck_assert(at == ref->n || ref->slots[at] != slot);
    memmove(&ref->slots[at + 1], &ref->slots[at], sizeof(int) * (size_t)(ref->n - at));
    ref->slots[at] = slot;
    ref->n++;
    guint pos = wait_set_position(set, slot);
    ck_assert_uint_eq(pos - set->start, (guint)at);
    wait_set_insert(set, pos, comm_of(slot), slot % 5, what_of(slot), slot);
    check_same(set, ref);
}

static void
leave(struct wait_set *set, struct reference *ref, int slot)
{
    int at = reference_position(ref, slot);
    ck_assert_int_lt(at, ref->n);
    ck_assert_int_eq(ref->slots[at], slot);
    memmove(&ref->slots[at], &ref->slots[at + 1], sizeof(int) * (size_t)(ref->n - at - 1));
    ref->n--;
    guint pos = wait_set_position(set, slot);
    ck_assert_int_eq(set->entries.v[pos].slot, slot);
    wait_set_remove(set, pos);
    check_same(set, ref);
}

/* A Waitall over 500 transfers that end in slot order: each leaves from the front, the live
 * part slides up and is moved down once the dead part outgrows it, and the last one out
 * empties the set. */
START_TEST(test_transfers_end_in_slot_order)
{
    struct wait_set set;
    struct reference ref = {.n = 0};
    wait_set_init(&set);
    for (int slot = 0; slot < 500; slot++)
        join(&set, &ref, slot);
    ck_assert_uint_eq(set.start, 0);
    for (int slot = 0; slot < 250; slot++)
        leave(&set, &ref, slot);
    ck_assert_uint_gt(set.start, 0); /* leaving from the front moved nothing */
    for (int slot = 250; slot < 500; slot++)
        leave(&set, &ref, slot);
    ck_assert_uint_eq(set.start, 0);
    ck_assert_uint_eq(wait_set_len(&set), 0);
    wait_set_free(&set);
}
END_TEST

/* Entries joining in front of a part that has slid up take the free places below it; then
 * the inbox's gets, appended after the ordered part, are cut off again, and the ordered part
 * is what it was. */
START_TEST(test_join_in_front_after_sliding)
{
    struct wait_set set;
    struct reference ref = {.n = 0};
    wait_set_init(&set);
    for (int slot = 10; slot < 50; slot += 2)
        join(&set, &ref, slot);
    for (int slot = 10; slot < 30; slot += 2)
        leave(&set, &ref, slot);
    guint slid = set.start;
    ck_assert_uint_eq(slid, 10);
    join(&set, &ref, 31);  /* before 32, the first live one: the front side moves */
    ck_assert_uint_eq(set.start, slid - 1);
    join(&set, &ref, 3);   /* in front of everything */
    ck_assert_uint_eq(set.start, slid - 2);
    join(&set, &ref, 49);  /* last: the tail side is the shorter */
    ck_assert_uint_eq(set.start, slid - 2);
    guint ordered = wait_set_len(&set);
    wait_set_append(&set, comm_of(900), 4, what_of(900));
    wait_set_append(&set, comm_of(901), 4, what_of(901));
    ck_assert_uint_eq(wait_set_count(&set), (guint)ref.n + 2);
    ck_assert_ptr_eq(wait_set_comms(&set)[ref.n + 1], comm_of(901));
    ck_assert_int_eq(wait_set_entry(&set, (guint)ref.n)->slot, -1);
    wait_set_truncate(&set, ordered);
    check_same(&set, &ref);
    wait_set_truncate(&set, 0);
    ck_assert_uint_eq(set.start, 0);
    ck_assert_uint_eq(wait_set_count(&set), 0);
    wait_set_free(&set);
}
END_TEST

/* Seeded random joins and leaves, biased in turn towards the front, the back and anywhere,
 * growing past the inline storage and emptying several times. */
START_TEST(test_random_edits_keep_slot_order)
{
    static const guint32 seeds[] = {1, 7, 42, 2026, 99991};
    for (gsize s = 0; s < G_N_ELEMENTS(seeds); s++) {
        GRand *rand = g_rand_new_with_seed(seeds[s]);
        struct wait_set set;
        struct reference ref = {.n = 0};
        wait_set_init(&set);
        for (int step = 0; step < 6000; step++) {
            int phase = (step / 500) % 3; /* 0: leave at the front, 1: at the back, 2: anywhere */
            gboolean grow = ref.n == 0 || (ref.n < MAX_SLOTS && g_rand_boolean(rand));
            if (grow) {
                int slot;
                do
                    slot = g_rand_int_range(rand, 0, MAX_SLOTS);
                while (reference_position(&ref, slot) < ref.n &&
                       ref.slots[reference_position(&ref, slot)] == slot);
                join(&set, &ref, slot);
            } else {
                int at = phase == 0   ? g_rand_int_range(rand, 0, MIN(ref.n, 3))
                         : phase == 1 ? ref.n - 1 - g_rand_int_range(rand, 0, MIN(ref.n, 3))
                                      : g_rand_int_range(rand, 0, ref.n);
                leave(&set, &ref, ref.slots[at]);
            }
        }
        while (ref.n > 0)
            leave(&set, &ref, ref.slots[0]);
        ck_assert_uint_eq(wait_set_len(&set), 0);
        wait_set_free(&set);
        g_rand_free(rand);
    }
}
END_TEST

static Suite *
wait_set_suite(void)
{
    Suite *s = suite_create("wait_set");
    TCase *tc = tcase_create("order");
    tcase_add_test(tc, test_transfers_end_in_slot_order);
    tcase_add_test(tc, test_join_in_front_after_sliding);
    tcase_add_test(tc, test_random_edits_keep_slot_order);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *runner = srunner_create(wait_set_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
