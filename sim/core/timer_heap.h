/*
 * timer_heap.h — the timers of collsim's own core (the timeouts of waits), kept in the very
 * structure SimGrid 3.32 keeps its own in: a Boost fibonacci heap of (date, timer) ordered by
 * date alone. Timers due at the same date fire in the order that heap gives them, which
 * depends on the history of pushes, pops and erases; the same history in the same structure
 * gives SimGrid's order, so ranks woken by simultaneous timeouts run in SimGrid's order.
 */
#ifndef COLLSIM_CORE_TIMER_HEAP_H
#define COLLSIM_CORE_TIMER_HEAP_H

#include <glib.h>

G_BEGIN_DECLS

typedef struct timer_heap timer_heap;
typedef struct timer_heap_handle timer_heap_handle;

timer_heap *timer_heap_new(void);
void timer_heap_free(timer_heap *heap);

/* A timer at `date` carrying `data`; the handle erases it, until it fires. */
timer_heap_handle *timer_heap_push(timer_heap *heap, double date, void *data);
void timer_heap_erase(timer_heap *heap, timer_heap_handle *handle);

/* The earliest date, or -1 when empty. */
double timer_heap_next(const timer_heap *heap);

/* Remove the earliest timer: its data (its handle is gone). */
void *timer_heap_pop(timer_heap *heap);

G_END_DECLS

#endif
