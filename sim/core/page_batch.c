/*
 * page_batch.c — requests about many pages, in as few calls as the kernel allows (see
 * page_batch.h).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#endif
#endif
#ifndef RUNNING_ON_VALGRIND
#define RUNNING_ON_VALGRIND 0
#endif

#include "sim/core/page_batch.h"

/* Linux's number for the advice (6.13), which older headers lack; older kernels refuse it. */
#ifndef MADV_GUARD_INSTALL
#define MADV_GUARD_INSTALL 102
#endif

#define BATCH_MAX 1024 /* UIO_MAXIOV: the most iovecs one call takes */

/* What this kernel refused, not to be asked again. */
static gboolean populate_refused;     /* MADV_POPULATE_WRITE */
static gboolean guard_refused;        /* MADV_GUARD_INSTALL */
static gboolean batch_refused[2];     /* process_madvise of each, to oneself */

static gboolean
advise(void *addr, gsize bytes, int advice)
{
    return madvise(addr, bytes, advice) == 0;
}

#if defined(SYS_process_madvise) && defined(SYS_pidfd_open)
/* A pidfd of this process, opened again after a fork: a sweep's points are forked children,
 * and the parent's descriptor would advise the parent's memory. */
static int
self_pidfd(void)
{
    static int fd = -1;
    static pid_t fd_pid;
    pid_t pid = getpid();
    if (fd >= 0 && fd_pid != pid) {
        close(fd);
        fd = -1;
    }
    if (fd < 0) {
        fd = (int)syscall(SYS_pidfd_open, pid, 0); /* close-on-exec, always */
        fd_pid = pid;
    }
    return fd;
}
#endif

/*
 * Give `advice` to pages[0..n) in calls of up to BATCH_MAX pages; the number of pages from
 * the first that were advised (n unless the kernel refused, or stopped at a page it could
 * not serve: that page and the rest are the caller's to do one by one).
 */
static gsize
advise_batch(void *const *pages, gsize n, gsize page_bytes, int advice, gboolean *refused)
{
    gsize done = 0;
#if defined(SYS_process_madvise) && defined(SYS_pidfd_open)
    if (n == 0 || *refused || RUNNING_ON_VALGRIND)
        return 0;
    int fd = self_pidfd();
    if (fd < 0) {
        *refused = TRUE;
        return 0;
    }
    /* on the heap: the caller may be on an actor's stack of 16 KiB */
    struct iovec *iov = g_new(struct iovec, MIN(n, (gsize)BATCH_MAX));
    while (done < n) {
        gsize count = MIN(n - done, (gsize)BATCH_MAX);
        for (gsize i = 0; i < count; i++)
            iov[i] = (struct iovec){.iov_base = pages[done + i], .iov_len = page_bytes};
        long bytes = syscall(SYS_process_madvise, fd, iov, count, advice, 0);
        if (bytes < 0) {
            if (errno == EINVAL || errno == ENOSYS || errno == EPERM || errno == EBADF)
                *refused = TRUE; /* before Linux 6.13: no such advice to oneself */
            break;
        }
        done += (gsize)bytes / page_bytes;
        if ((gsize)bytes < count * page_bytes)
            break;
    }
    g_free(iov);
#else
    (void)pages;
    (void)n;
    (void)page_bytes;
    (void)advice;
    (void)refused;
#endif
    return done;
}

void
core_pages_populate(void *addr, gsize bytes)
{
#ifdef MADV_POPULATE_WRITE
    if (populate_refused || RUNNING_ON_VALGRIND || bytes == 0)
        return;
    gsize page = (gsize)sysconf(_SC_PAGESIZE);
    guintptr first = ((guintptr)addr + page - 1) / page * page;
    guintptr end = ((guintptr)addr + bytes) / page * page;
    /* short of memory and the like: the pages are left to their faults, which report it as
     * they would have; only a refusal of the advice itself stops asking */
    if (end > first && !advise((void *)first, end - first, MADV_POPULATE_WRITE) &&
        errno == EINVAL)
        populate_refused = TRUE;
#else
    (void)addr;
    (void)bytes;
#endif
}

void
core_pages_populate_each(void *const *pages, gsize n, gsize page_bytes)
{
#ifdef MADV_POPULATE_WRITE
    gsize i = advise_batch(pages, n, page_bytes, MADV_POPULATE_WRITE, &batch_refused[0]);
    for (; i < n && !populate_refused; i++)
        core_pages_populate(pages[i], page_bytes);
#else
    (void)pages;
    (void)n;
    (void)page_bytes;
#endif
}

void
core_pages_guard_each(void *const *pages, gsize n, gsize page_bytes)
{
    gsize i = guard_refused ? 0
                            : advise_batch(pages, n, page_bytes, MADV_GUARD_INSTALL,
                                           &batch_refused[1]);
    for (; i < n; i++) {
        if (!guard_refused && !RUNNING_ON_VALGRIND) {
            if (advise(pages[i], page_bytes, MADV_GUARD_INSTALL))
                continue;
            if (errno == EINVAL)
                guard_refused = TRUE; /* before Linux 6.13 */
        }
        mprotect(pages[i], page_bytes, PROT_NONE); /* splits the mapping: dearer */
    }
}

void *
core_alloc_populated(gsize bytes)
{
    void *block = g_malloc(bytes);
    core_pages_populate(block, bytes);
    return block;
}

char *
core_stacks_map(gsize slot_bytes, gsize n, GPtrArray *free_list, const char *what)
{
    gsize bytes = slot_bytes * n;
    char *map = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (map == MAP_FAILED) {
        fprintf(stderr, "collsim: cannot map %" G_GSIZE_FORMAT " bytes of %s\n", bytes, what);
        _exit(1);
    }
    for (gsize i = n; i-- > 0;)
        g_ptr_array_add(free_list, map + i * slot_bytes);
    return map;
}
