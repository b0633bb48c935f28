/*
 * dlist.h — doubly linked lists threaded through their nodes, with a head and a tail: appended,
 * prepended and unlinked in O(1), no allocation. A node may sit in several lists at once, one
 * pair of link fields per list, so every macro takes the names of the node's `prev` and `next`
 * fields for the list at hand. Used where lists change at the rate of messages: the own core's
 * activities and waiters, the models' modified and ended actions, a rank's unexpected messages,
 * posted receives and inbox queues.
 *
 * Invariants: head and tail are both NULL or both set; head's prev and tail's next are NULL.
 * DLIST_UNLINK clears the node's two links (a caller walking a list reads `next` before it
 * unlinks the node it stands on). libc only.
 */
#ifndef COLLSIM_SIM_CORE_DLIST_H
#define COLLSIM_SIM_CORE_DLIST_H

#include <stddef.h>

#define DLIST_APPEND(head, tail, node, prev, next)                                                 \
    do {                                                                                           \
        (node)->next = NULL;                                                                       \
        (node)->prev = (tail);                                                                     \
        if ((tail) != NULL)                                                                        \
            (tail)->next = (node);                                                                 \
        else                                                                                       \
            (head) = (node);                                                                       \
        (tail) = (node);                                                                           \
    } while (0)

#define DLIST_PREPEND(head, tail, node, prev, next)                                                \
    do {                                                                                           \
        (node)->prev = NULL;                                                                       \
        (node)->next = (head);                                                                     \
        if ((head) != NULL)                                                                        \
            (head)->prev = (node);                                                                 \
        else                                                                                       \
            (tail) = (node);                                                                       \
        (head) = (node);                                                                           \
    } while (0)

#define DLIST_UNLINK(head, tail, node, prev, next)                                                 \
    do {                                                                                           \
        if ((node)->prev != NULL)                                                                  \
            (node)->prev->next = (node)->next;                                                     \
        else                                                                                       \
            (head) = (node)->next;                                                                 \
        if ((node)->next != NULL)                                                                  \
            (node)->next->prev = (node)->prev;                                                     \
        else                                                                                       \
            (tail) = (node)->prev;                                                                 \
        (node)->prev = (node)->next = NULL;                                                        \
    } while (0)

/* Singly linked first-in-first-out queues threaded through their nodes (one `next` field per
 * queue): pushed at the tail, popped from the head. */
#define FIFO_PUSH(head, tail, node, next)                                                          \
    do {                                                                                           \
        (node)->next = NULL;                                                                       \
        if ((tail) != NULL)                                                                        \
            (tail)->next = (node);                                                                 \
        else                                                                                       \
            (head) = (node);                                                                       \
        (tail) = (node);                                                                           \
    } while (0)

/* out = the head (NULL when empty), taken out of the queue. */
#define FIFO_POP(head, tail, out, next)                                                            \
    do {                                                                                           \
        (out) = (head);                                                                            \
        if ((out) != NULL) {                                                                       \
            (head) = (out)->next;                                                                  \
            if ((head) == NULL)                                                                    \
                (tail) = NULL;                                                                     \
            (out)->next = NULL;                                                                    \
        }                                                                                          \
    } while (0)

#endif
