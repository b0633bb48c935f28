/*
 * flow.c — flows: coroutines of a simulated rank (see flow.h), on Boost.Context's fcontext
 * (sim/core/fcontext.h), which switches without the system call a ucontext switch makes.
 *
 * The flow running on a rank is kept in the rank (sim_rank.running_flow), not in a global:
 * a flow that makes a call into the core lets other actors run, and they may resume flows of
 * their own before this one continues.
 *
 * Under AddressSanitizer every switch is announced (__sanitizer_start_switch_fiber and
 * __sanitizer_finish_switch_fiber), so that it knows which stack is in use; under valgrind
 * every flow stack is registered.
 */
#include "config.h"

#include <unistd.h>

#include "sim/core/core.h"
#include "sim/core/page_batch.h"
#include "sim/core/fcontext.h"
#include "sim/engine/flow.h"
#include "sim/engine/rank.h"

struct sim_flow {
    fcontext_t context; /* the flow's own, saved while it does not run */
    fcontext_t resumer; /* where sim_flow_yield() and the flow's end go back to */
    void *stack;
    gsize stack_bytes;
    unsigned valgrind_stack;
    sim_flow_fn fn;
    gpointer data;
    gboolean started;
    gboolean finished;
    int result;
    struct sim_rank *rank; /* the rank whose actor runs it */
#ifdef CORE_ASAN
    const void *resumer_bottom; /* the resumer's stack, as the sanitizer reported it */
    size_t resumer_size;
#endif
};

/*
 * Flow stacks come from mappings of FLOW_STACKS_PER_MAP, each stack page-aligned, paid for by
 * the pages its flow touches (MAP_NORESERVE), and go back to a free list when their flow ends;
 * the top pages of a new mapping's stacks are asked of the kernel in one call, since every flow
 * writes its stack's top page at once (page_batch.h). A flow's frames take 1 to 2 KiB: with
 * g_malloc'd stacks, whose ends are not page-aligned and carry the allocator's headers, a flow
 * cost 12 KiB of memory, and 8 Ibarriers in flight at once at P = 65536 took 7.1 GiB. Like
 * those, flow stacks have no guard page (one a stack would be a mapping of its own each, and
 * the kernel allows 65530).
 */
#define FLOW_STACKS_PER_MAP 256

static GPtrArray *stack_pool;  /* free stacks of pool_stack_bytes (lowest address) */
static gsize pool_stack_bytes;

static void *
stack_take(gsize bytes)
{
    if (stack_pool == NULL)
        stack_pool = g_ptr_array_new();
    if (pool_stack_bytes != bytes) {
        /* another run, another size: stacks of the old size stay mapped, unused */
        g_ptr_array_set_size(stack_pool, 0);
        pool_stack_bytes = bytes;
    }
    if (stack_pool->len == 0) {
        char *map = core_stacks_map(bytes, FLOW_STACKS_PER_MAP, stack_pool, "flow stacks");
        gsize page = (gsize)sysconf(_SC_PAGESIZE);
        void *tops[FLOW_STACKS_PER_MAP];
        for (gsize i = 0; i < FLOW_STACKS_PER_MAP; i++)
            tops[i] = map + (i + 1) * bytes - page;
        core_pages_populate_each(tops, FLOW_STACKS_PER_MAP, page);
    }
    return g_ptr_array_steal_index(stack_pool, stack_pool->len - 1);
}

static void
stack_give_back(void *stack, gsize bytes)
{
    if (bytes == pool_stack_bytes)
        g_ptr_array_add(stack_pool, stack);
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

static void
flow_main(transfer_t t)
{
    struct sim_flow *flow = t.data;
    flow->resumer = t.fctx;
    core_stack_left(flow->resumer); /* the rank's frames on a shared stack end there */
#ifdef CORE_ASAN
    __sanitizer_finish_switch_fiber(NULL, &flow->resumer_bottom, &flow->resumer_size);
#endif
    flow->result = flow->fn(flow->data);
    flow->finished = TRUE;
#ifdef CORE_ASAN
    /* a NULL save slot: this stack is left for good */
    __sanitizer_start_switch_fiber(NULL, flow->resumer_bottom, flow->resumer_size);
#endif
    jump_fcontext(flow->resumer, NULL);
    g_assert_not_reached();
}

gboolean
sim_flow_resume(struct sim_flow *flow)
{
    g_assert(!flow->finished && flow->rank->running_flow == NULL);
    if (!flow->started) {
        flow->started = TRUE;
        flow->valgrind_stack =
            CORE_STACK_REGISTER(flow->stack, (char *)flow->stack + flow->stack_bytes);
        flow->context =
            make_fcontext((char *)flow->stack + flow->stack_bytes, flow->stack_bytes, flow_main);
    }
    flow->rank->running_flow = flow;
    /* with thousands of ranks no flow's stack is in the caches */
    core_prefetch_frames((const char *)flow->context,
                         (const char *)flow->stack + flow->stack_bytes);
#ifdef CORE_ASAN
    void *fake_stack = NULL;
    __sanitizer_start_switch_fiber(&fake_stack, flow->stack, flow->stack_bytes);
#endif
    transfer_t t = jump_fcontext(flow->context, flow);
#ifdef CORE_ASAN
    __sanitizer_finish_switch_fiber(fake_stack, NULL, NULL);
#endif
    if (!flow->finished)
        flow->context = t.fctx;
    flow->rank->running_flow = NULL;
    return flow->finished;
}

void
sim_flow_yield(void)
{
    struct sim_rank *me = sim_rank_self();
    struct sim_flow *flow = me->running_flow;
    g_assert(flow != NULL);
#ifdef CORE_ASAN
    void *fake_stack = NULL;
    __sanitizer_start_switch_fiber(&fake_stack, flow->resumer_bottom, flow->resumer_size);
#endif
    transfer_t t = jump_fcontext(flow->resumer, flow);
#ifdef CORE_ASAN
    __sanitizer_finish_switch_fiber(fake_stack, &flow->resumer_bottom, &flow->resumer_size);
#endif
    flow->resumer = t.fctx;
    core_stack_left(flow->resumer);
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
    if (flow->started)
        CORE_STACK_DEREGISTER(flow->valgrind_stack);
    stack_give_back(flow->stack, flow->stack_bytes);
    g_free(flow);
}
