/*
 * fcontext.h — Boost.Context's C entry points (libboost_context), which switch between
 * stacks without a system call: collsim's own core runs its actors on them, and every rank's
 * flows (nonblocking collectives) run on them. boost/context/detail/fcontext.hpp declares them
 * for C++ only; their C ABI is stable across Boost releases.
 *
 * jump_fcontext(to, data) saves the current context, resumes `to`, and returns, once some
 * context jumps back, the context that jumped (to be resumed later) and the data it passed.
 */
#ifndef COLLSIM_CORE_FCONTEXT_H
#define COLLSIM_CORE_FCONTEXT_H

#include <stddef.h>

typedef void *fcontext_t;

typedef struct {
    fcontext_t fctx;
    void *data;
} transfer_t;

extern transfer_t jump_fcontext(fcontext_t const to, void *vp);
/* A context that starts fn on the stack whose highest address is `sp` (it grows down). */
extern fcontext_t make_fcontext(void *sp, size_t size, void (*fn)(transfer_t));

/*
 * Ask the memory for the frames of a context about to be resumed, all at once rather than
 * missed one by one as it returns through them: the 512 bytes from where it stopped (its saved
 * registers first) below `top`, the end of its stack, and to be written the 256 bytes below,
 * where what it calls once resumed puts its frames (the spans core_own.c's prefetch_actor
 * measured best). Always inlined: a function of prefetches alone looks pure to GCC, which then
 * deletes its calls.
 */
static inline __attribute__((always_inline)) void
core_prefetch_frames(const char *frames, const char *top)
{
    for (size_t at = 0; at < 512 && frames + at < top; at += 64)
        __builtin_prefetch(frames + at);
    for (size_t below = 64; below <= 256; below += 64)
        __builtin_prefetch(frames - below, 1);
}

/* valgrind follows switched stacks once they are registered (a no-op outside valgrind) */
#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#define CORE_STACK_REGISTER(lo, hi) VALGRIND_STACK_REGISTER(lo, hi)
#define CORE_STACK_DEREGISTER(id) VALGRIND_STACK_DEREGISTER(id)
#endif
#endif
#ifndef CORE_STACK_REGISTER
#define CORE_STACK_REGISTER(lo, hi) 0u
#define CORE_STACK_DEREGISTER(id) ((void)(id))
#endif
/* memcheck takes a stack's bytes below where its stack pointer last was for freed: frames
 * copied back there (a shared stack: core_own.c) are declared writable first */
#if defined(__has_include)
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#define CORE_STACK_WRITABLE(p, n) VALGRIND_MAKE_MEM_UNDEFINED(p, n)
#endif
#endif
#ifndef CORE_STACK_WRITABLE
#define CORE_STACK_WRITABLE(p, n) ((void)(p), (void)(n))
#endif

/* AddressSanitizer must be told of every switch (which stack is in use) */
#if defined(__SANITIZE_ADDRESS__)
#define CORE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CORE_ASAN 1
#endif
#endif
#ifdef CORE_ASAN
void __sanitizer_start_switch_fiber(void **fake_stack_save, const void *bottom, size_t size);
void __sanitizer_finish_switch_fiber(void *fake_stack_save, const void **bottom_old,
                                     size_t *size_old);
#endif

#endif
