/*
 * page_cost.c — what a page costs this machine, the figures sim/core/page_batch.h rests on.
 *
 *   page_cost [PAGES]
 *
 * For PAGES fresh pages (default 32768, 128 MiB) of an anonymous private mapping, prints the
 * microseconds a page of:
 *   fault         the first write, the kernel faulting the page in;
 *   populate      one madvise(MADV_POPULATE_WRITE) over them all, then the first write
 *                 (both columns);
 *   scattered     one page every 16 KiB (an actor's stack top), asked for one madvise each,
 *                 then 1024 at a time with process_madvise, then the first write of each;
 *   guard         a guard page every 16 KiB made by mprotect (splitting the mapping), by
 *                 madvise(MADV_GUARD_INSTALL) one at a time, and 1024 at a time.
 * A refused call prints "refused" (kernels before 5.14, 6.13). Each measure uses a mapping of
 * its own, so that every page is fresh.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#ifndef MADV_GUARD_INSTALL
#define MADV_GUARD_INSTALL 102
#endif
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

static long page;

static double
now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static char *
fresh(size_t bytes)
{
    char *map = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (map == MAP_FAILED) {
        perror("mmap");
        exit(1);
    }
    madvise(map, bytes, MADV_NOHUGEPAGE); /* 4 KiB pages, as stacks and small records get */
    return map;
}

static void
touch(char *map, size_t n, size_t stride)
{
    for (size_t i = 0; i < n; i++)
        map[i * stride + stride - 8] = 1;
}

/* process_madvise(advice) over n pages, one every `stride` bytes from the top: 0 or -1 */
static int
batch(char *map, size_t n, size_t stride, size_t offset, int advice)
{
    int fd = (int)syscall(SYS_pidfd_open, getpid(), 0);
    if (fd < 0)
        return -1;
    struct iovec *iov = calloc(1024, sizeof *iov);
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i += 1024) {
        size_t k = 0;
        for (size_t j = i; j < n && j < i + 1024; j++, k++)
            iov[k] = (struct iovec){map + j * stride + offset, (size_t)page};
        if (syscall(SYS_process_madvise, fd, iov, k, advice, 0) < 0)
            rc = -1;
    }
    free(iov);
    close(fd);
    return rc;
}

static void
show(const char *what, double seconds, size_t n, int refused)
{
    if (refused)
        printf("  %-44s refused\n", what);
    else
        printf("  %-44s %8.3f us a page\n", what, seconds * 1e6 / (double)n);
}

int
main(int argc, char **argv)
{
    page = sysconf(_SC_PAGESIZE);
    size_t n = argc > 1 ? (size_t)atol(argv[1]) : 32768;
    size_t stride = 16384;
    printf("%zu pages of %ld bytes\n", n, page);

    char *map = fresh(n * page);
    double t0 = now();
    touch(map, n, (size_t)page);
    show("fault: first write", now() - t0, n, 0);
    munmap(map, n * page);

    map = fresh(n * page);
    t0 = now();
    int bad = madvise(map, n * page, MADV_POPULATE_WRITE) != 0;
    double t1 = now();
    touch(map, n, (size_t)page);
    show("populate: one madvise for all", t1 - t0, n, bad);
    show("populate: then the first write", now() - t1, n, bad);
    munmap(map, n * page);

    map = fresh(n * stride);
    t0 = now();
    bad = 0;
    for (size_t i = 0; i < n && !bad; i++)
        bad = madvise(map + i * stride + stride - page, page, MADV_POPULATE_WRITE) != 0;
    show("scattered: one madvise each", now() - t0, n, bad);
    munmap(map, n * stride);

    map = fresh(n * stride);
    t0 = now();
    bad = batch(map, n, stride, stride - page, MADV_POPULATE_WRITE) != 0;
    t1 = now();
    touch(map, n, stride);
    show("scattered: process_madvise, 1024 a call", t1 - t0, n, bad);
    show("scattered: then the first write", now() - t1, n, bad);
    munmap(map, n * stride);

    map = fresh(n * stride);
    t0 = now();
    for (size_t i = 0; i < n; i++)
        mprotect(map + i * stride, page, PROT_NONE);
    show("guard: mprotect each", now() - t0, n, 0);
    munmap(map, n * stride);

    map = fresh(n * stride);
    t0 = now();
    bad = 0;
    for (size_t i = 0; i < n && !bad; i++)
        bad = madvise(map + i * stride, page, MADV_GUARD_INSTALL) != 0;
    show("guard: MADV_GUARD_INSTALL each", now() - t0, n, bad);
    munmap(map, n * stride);

    map = fresh(n * stride);
    t0 = now();
    bad = batch(map, n, stride, 0, MADV_GUARD_INSTALL) != 0;
    show("guard: process_madvise, 1024 a call", now() - t0, n, bad);
    munmap(map, n * stride);
    return 0;
}
