/*
 * check_core_lists.c — the containers the transport threads through its records at the rate of
 * messages (sim/core/dlist.h, sim/core/small_vec.h): a node in two lists at once, queues
 * emptied and refilled, and small vectors that outgrow their inline storage in the middle of
 * an insertion, each checked element by element against the order worked out by hand.
 */
#include "config.h"

#include <check.h>
#include <stdlib.h>

#include "sim/core/dlist.h"
#include "sim/core/small_vec.h"

struct node {
    int id;
    struct node *prev, *next;   /* list A */
    struct node *a_next;        /* queue A */
    struct node *b_next;        /* queue B */
};

/* The ids of queue (head, next field) as a string, e.g. "1 2 3". */
#define QUEUE_IDS(head, next, out)                                                           \
    do {                                                                                     \
        GString *s_ = g_string_new(NULL);                                                    \
        for (struct node *n_ = (head); n_ != NULL; n_ = n_->next)                            \
            g_string_append_printf(s_, s_->len ? " %d" : "%d", n_->id);                      \
        (out) = g_string_free(s_, FALSE);                                                    \
    } while (0)

START_TEST(test_fifo_order_and_refill)
{
    struct node nodes[5] = {{.id = 1}, {.id = 2}, {.id = 3}, {.id = 4}, {.id = 5}};
    struct node *head = NULL, *tail = NULL, *out = NULL;
    FIFO_POP(head, tail, out, a_next);
    ck_assert_ptr_null(out); /* empty: nothing, and the queue stays empty */
    ck_assert_ptr_null(head);
    ck_assert_ptr_null(tail);
    for (int i = 0; i < 3; i++)
        FIFO_PUSH(head, tail, &nodes[i], a_next);
    FIFO_POP(head, tail, out, a_next);
    ck_assert_int_eq(out->id, 1);
    ck_assert_ptr_null(out->a_next); /* a popped node carries no stale link */
    FIFO_POP(head, tail, out, a_next);
    FIFO_POP(head, tail, out, a_next);
    ck_assert_int_eq(out->id, 3);
    ck_assert_ptr_null(head);
    ck_assert_ptr_null(tail); /* emptied: the tail is cleared with the head */
    FIFO_PUSH(head, tail, &nodes[3], a_next);
    FIFO_PUSH(head, tail, &nodes[4], a_next);
    gchar *ids;
    QUEUE_IDS(head, a_next, ids);
    ck_assert_str_eq(ids, "4 5");
    g_free(ids);
    ck_assert_ptr_eq(tail, &nodes[4]);
}
END_TEST

START_TEST(test_node_in_two_queues_and_a_list)
{
    /* like a message in its sender's unreaped queue and its receiver's unfetched one */
    struct node nodes[4] = {{.id = 1}, {.id = 2}, {.id = 3}, {.id = 4}};
    struct node *ah = NULL, *at = NULL, *bh = NULL, *bt = NULL, *lh = NULL, *lt = NULL, *out;
    for (int i = 0; i < 4; i++) {
        FIFO_PUSH(ah, at, &nodes[i], a_next);
        FIFO_PUSH(bh, bt, &nodes[3 - i], b_next);
        DLIST_APPEND(lh, lt, &nodes[i], prev, next);
    }
    FIFO_POP(ah, at, out, a_next);
    ck_assert_int_eq(out->id, 1);
    DLIST_UNLINK(lh, lt, &nodes[2], prev, next);
    gchar *a, *b, *l;
    QUEUE_IDS(ah, a_next, a);
    QUEUE_IDS(bh, b_next, b);
    QUEUE_IDS(lh, next, l);
    ck_assert_str_eq(a, "2 3 4");
    ck_assert_str_eq(b, "4 3 2 1"); /* untouched by the other queue's pop and the unlink */
    ck_assert_str_eq(l, "1 2 4");
    g_free(a);
    g_free(b);
    g_free(l);
}
END_TEST

struct holder {
    int before;
    SMALL_VEC(int, 3) slots;
    int after;
};

static gchar *
vec_ids(const struct holder *h)
{
    GString *s = g_string_new(NULL);
    for (guint i = 0; i < h->slots.len; i++)
        g_string_append_printf(s, i ? " %d" : "%d", h->slots.v[i]);
    return g_string_free(s, FALSE);
}

START_TEST(test_small_vec_inline_then_heap)
{
    struct holder h = {.before = -1, .after = -2};
    small_vec_init(&h.slots);
    ck_assert_uint_eq(h.slots.cap, 3);
    for (int i = 1; i <= 3; i++)
        small_vec_push(&h.slots, i * 10);
    ck_assert_ptr_eq(h.slots.v, h.slots.local); /* three fit inline */
    small_vec_insert(&h.slots, 1, 15);          /* the fourth moves them to the heap */
    ck_assert_ptr_ne(h.slots.v, h.slots.local);
    ck_assert_uint_ge(h.slots.cap, 4);
    gchar *ids = vec_ids(&h);
    ck_assert_str_eq(ids, "10 15 20 30");
    g_free(ids);
    small_vec_insert(&h.slots, 0, 5);
    small_vec_insert(&h.slots, h.slots.len, 35); /* at the end */
    small_vec_remove(&h.slots, 2);               /* the 15 */
    small_vec_remove(&h.slots, h.slots.len - 1); /* the 35 */
    ids = vec_ids(&h);
    ck_assert_str_eq(ids, "5 10 20 30");
    g_free(ids);
    small_vec_set_len(&h.slots, 1);
    small_vec_push(&h.slots, 7);
    ids = vec_ids(&h);
    ck_assert_str_eq(ids, "5 7");
    g_free(ids);
    small_vec_set_len(&h.slots, 100); /* grows; the first two are kept */
    ck_assert_uint_ge(h.slots.cap, 100);
    ck_assert_int_eq(h.slots.v[0], 5);
    ck_assert_int_eq(h.slots.v[1], 7);
    ck_assert_int_eq(h.before, -1); /* the neighbours of the inline storage are untouched */
    ck_assert_int_eq(h.after, -2);
    small_vec_free(&h.slots);
}
END_TEST

START_TEST(test_small_vec_stays_inline)
{
    struct holder h;
    small_vec_init(&h.slots);
    for (int round = 0; round < 1000; round++) {
        small_vec_set_len(&h.slots, 0);
        small_vec_push(&h.slots, round);
        small_vec_insert(&h.slots, 0, -round);
        small_vec_remove(&h.slots, 1);
    }
    ck_assert_ptr_eq(h.slots.v, h.slots.local); /* never more than three: no allocation */
    ck_assert_uint_eq(h.slots.len, 1);
    ck_assert_int_eq(h.slots.v[0], -999);
    small_vec_free(&h.slots); /* inline: nothing to free (valgrind would see a bad free) */
}
END_TEST

static Suite *
core_lists_suite(void)
{
    Suite *s = suite_create("core_lists");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_fifo_order_and_refill);
    tcase_add_test(tc, test_node_in_two_queues_and_a_list);
    tcase_add_test(tc, test_small_vec_inline_then_heap);
    tcase_add_test(tc, test_small_vec_stays_inline);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *runner = srunner_create(core_lists_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
