/*
 * timer_heap.cpp — timer_heap.h on boost::heap::fibonacci_heap with SimGrid's comparator
 * (xbt::HeapComparator: by date only), as simgrid/kernel/Timer.hpp declares its own heap.
 */
#include "config.h"

#include "sim/core/timer_heap.h"

#include <utility>

#include <boost/heap/fibonacci_heap.hpp>
#include <xbt/utility.hpp>

struct timer_heap_handle;
using timer_entry = std::pair<double, timer_heap_handle *>;
using heap_type =
    boost::heap::fibonacci_heap<timer_entry,
                                boost::heap::compare<simgrid::xbt::HeapComparator<timer_entry>>>;

struct timer_heap {
    heap_type heap;
};

struct timer_heap_handle {
    heap_type::handle_type handle;
    void *data;
};

timer_heap *
timer_heap_new(void)
{
    return new timer_heap();
}

void
timer_heap_free(timer_heap *heap)
{
    for (const timer_entry &entry : heap->heap)
        delete entry.second;
    delete heap;
}

timer_heap_handle *
timer_heap_push(timer_heap *heap, double date, void *data)
{
    auto *h = new timer_heap_handle();
    h->data = data;
    h->handle = heap->heap.emplace(std::make_pair(date, h));
    return h;
}

void
timer_heap_erase(timer_heap *heap, timer_heap_handle *handle)
{
    heap->heap.erase(handle->handle);
    delete handle;
}

double
timer_heap_next(const timer_heap *heap)
{
    return heap->heap.empty() ? -1.0 : heap->heap.top().first;
}

void *
timer_heap_pop(timer_heap *heap)
{
    timer_heap_handle *h = heap->heap.top().second;
    heap->heap.pop();
    void *data = h->data;
    delete h;
    return data;
}
