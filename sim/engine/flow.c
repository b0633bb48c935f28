/*
 * flow.c — flows: coroutines of a simulated rank (see flow.h), on ucontext.
 *
 * The flow running on a rank is kept in the rank (sim_rank.running_flow), not in a global:
 * a flow that makes a SimGrid call lets other actors run, and they may resume flows of their
 * own before this one continues.
 *
 * Under AddressSanitizer every switch is announced (__sanitizer_start_switch_fiber and
 * __sanitizer_finish_switch_fiber), so that it knows which stack is in use.
 */
#include "config.h"

#include <ucontext.h>

#include "sim/engine/flow.h"
#include "sim/engine/rank.h"

#if defined(__SANITIZE_ADDRESS__)
#define FLOW_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FLOW_ASAN 1
#endif
#endif

#ifdef FLOW_ASAN
void __sanitizer_start_switch_fiber(void **fake_stack_save, const void *bottom, size_t size);
void __sanitizer_finish_switch_fiber(void *fake_stack_save, const void **bottom_old,
                                     size_t *size_old);
#endif

struct sim_flow {
    ucontext_t context;      /* the flow's own, saved while it does not run */
    ucontext_t resumer;      /* where sim_flow_yield() and the flow's end go back to */
    void *stack;
    gsize stack_bytes;
    sim_flow_fn fn;
    gpointer data;
    gboolean started;
    gboolean finished;
    int result;
    struct sim_rank *rank;   /* the rank whose actor runs it */
#ifdef FLOW_ASAN
    const void *resumer_bottom; /* the resumer's stack, as the sanitizer reported it */
    size_t resumer_size;
#endif
};

/* Free stacks, all of one size (the run's stack size does not change during a run). */
static GPtrArray *stack_pool;
static gsize pool_stack_bytes;

static void *
stack_take(gsize bytes)
{
    if (stack_pool != NULL && stack_pool->len > 0 && pool_stack_bytes == bytes)
        return g_ptr_array_steal_index(stack_pool, stack_pool->len - 1);
    return g_malloc(bytes);
}

static void
stack_give_back(void *stack, gsize bytes)
{
    if (stack_pool == NULL)
        stack_pool = g_ptr_array_new_with_free_func(g_free);
    if (pool_stack_bytes != bytes) {
        g_ptr_array_set_size(stack_pool, 0);
        pool_stack_bytes = bytes;
    }
    g_ptr_array_add(stack_pool, stack);
}

void
sim_flow_pool_clear(void)
{
    if (stack_pool != NULL)
        g_ptr_array_free(stack_pool, TRUE);
    stack_pool = NULL;
}

struct sim_flow *
sim_flow_new(sim_flow_fn fn, gpointer data, gsize stack_bytes)
{
    struct sim_flow *flow = g_new0(struct sim_flow, 1);
    flow->fn = fn;
    flow->data = data;
    flow->stack_bytes = stack_bytes;
    flow->stack = stack_take(stack_bytes);
    flow->rank = sim_rank_self();
    return flow;
}

/* The switch into the flow has ended on the flow's stack. */
static void
arrived_in_flow(struct sim_flow *flow)
{
#ifdef FLOW_ASAN
    __sanitizer_finish_switch_fiber(NULL, &flow->resumer_bottom, &flow->resumer_size);
#else
    (void)flow;
#endif
}

/* makecontext passes ints only: the flow's address travels in two halves. */
static void
flow_main(unsigned int high, unsigned int low)
{
    struct sim_flow *flow = (struct sim_flow *)(((guintptr)high << 32) | (guintptr)low);
    arrived_in_flow(flow);
    flow->result = flow->fn(flow->data);
    flow->finished = TRUE;
#ifdef FLOW_ASAN
    /* a NULL save slot: this stack is left for good */
    __sanitizer_start_switch_fiber(NULL, flow->resumer_bottom, flow->resumer_size);
#endif
    setcontext(&flow->resumer);
}

gboolean
sim_flow_resume(struct sim_flow *flow)
{
    g_assert(!flow->finished && flow->rank->running_flow == NULL);
    if (!flow->started) {
        flow->started = TRUE;
        getcontext(&flow->context);
        flow->context.uc_stack.ss_sp = flow->stack;
        flow->context.uc_stack.ss_size = flow->stack_bytes;
        flow->context.uc_link = NULL;
        guintptr self = (guintptr)flow;
        makecontext(&flow->context, (void (*)(void))flow_main, 2, (unsigned int)(self >> 32),
                    (unsigned int)(self & 0xffffffffu));
    }
    flow->rank->running_flow = flow;
#ifdef FLOW_ASAN
    void *fake_stack = NULL;
    __sanitizer_start_switch_fiber(&fake_stack, flow->stack, flow->stack_bytes);
#endif
    swapcontext(&flow->resumer, &flow->context);
#ifdef FLOW_ASAN
    __sanitizer_finish_switch_fiber(fake_stack, NULL, NULL);
#endif
    flow->rank->running_flow = NULL;
    return flow->finished;
}

void
sim_flow_yield(void)
{
    struct sim_rank *me = sim_rank_self();
    struct sim_flow *flow = me->running_flow;
    g_assert(flow != NULL);
#ifdef FLOW_ASAN
    void *fake_stack = NULL;
    __sanitizer_start_switch_fiber(&fake_stack, flow->resumer_bottom, flow->resumer_size);
#endif
    swapcontext(&flow->context, &flow->resumer);
#ifdef FLOW_ASAN
    __sanitizer_finish_switch_fiber(fake_stack, &flow->resumer_bottom, &flow->resumer_size);
#endif
}

struct sim_flow *
sim_flow_current(void)
{
    struct sim_rank *me = sim_rank_self();
    return me != NULL ? me->running_flow : NULL;
}

gboolean
sim_flow_finished(const struct sim_flow *flow)
{
    return flow->finished;
}

int
sim_flow_result(const struct sim_flow *flow)
{
    return flow->result;
}

void
sim_flow_free(struct sim_flow *flow)
{
    if (flow == NULL)
        return;
    stack_give_back(flow->stack, flow->stack_bytes);
    g_free(flow);
}
