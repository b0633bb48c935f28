/*
 * check_core_page_batch.c — the requests about many pages the own core makes for its stacks and
 * records (sim/core/page_batch.c): the pages asked for are present afterwards and no other
 * is, a guard page stops a write (whether the kernel installs guard markers or the fallback
 * protects the page) while its neighbours stay writable, a forked child asks for its own pages
 * and not its parent's, and a block handed out populated has its pages present.
 *
 * Whether this kernel can populate at all is probed directly first: without
 * MADV_POPULATE_WRITE (Linux < 5.14) the populating calls do nothing and only the absence of
 * stray pages is checked.
 */
#include "config.h"

#include <check.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sim/core/page_batch.h"

#define PAGES 64

static gsize page;

static char *
fresh_map(gsize pages)
{
    char *map = mmap(NULL, pages * page, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    ck_assert_ptr_ne(map, MAP_FAILED);
    return map;
}

/* Which of the map's pages are present, as a string of 0 and 1. */
static char *
resident(char *map, gsize pages)
{
    unsigned char vec[PAGES];
    ck_assert_uint_le(pages, PAGES);
    ck_assert_int_eq(mincore(map, pages * page, vec), 0);
    char *out = g_malloc(pages + 1);
    for (gsize i = 0; i < pages; i++)
        out[i] = (vec[i] & 1) ? '1' : '0';
    out[pages] = '\0';
    return out;
}

static gboolean
kernel_populates(void)
{
#ifdef MADV_POPULATE_WRITE
    char *probe = fresh_map(1);
    gboolean ok = madvise(probe, page, MADV_POPULATE_WRITE) == 0;
    munmap(probe, page);
    return ok;
#else
    return FALSE;
#endif
}

START_TEST(test_populate_each_exactly_those_pages)
{
    char *map = fresh_map(PAGES);
    void *every_third[PAGES];
    gsize n = 0;
    char want[PAGES + 1];
    for (gsize i = 0; i < PAGES; i++) {
        want[i] = '0';
        if (i % 3 == 1) {
            every_third[n++] = map + i * page;
            want[i] = '1';
        }
    }
    want[PAGES] = '\0';
    core_pages_populate_each(every_third, n, page);
    char *got = resident(map, PAGES);
    if (kernel_populates())
        ck_assert_str_eq(got, want);
    else
        ck_assert_str_eq(got, "0000000000000000000000000000000000000000000000000000000000000000");
    g_free(got);
    munmap(map, PAGES * page);
}
END_TEST

START_TEST(test_populate_range_whole_pages_inside)
{
    char *map = fresh_map(8);
    /* from the middle of page 1 to the middle of page 6: pages 2 to 5 are whole */
    core_pages_populate(map + page + page / 2, 5 * page);
    char *got = resident(map, 8);
    ck_assert_str_eq(got, kernel_populates() ? "00111100" : "00000000");
    g_free(got);
    /* contents are kept: populating a page already written changes nothing in it */
    map[3 * page + 7] = 42;
    core_pages_populate(map, 8 * page);
    ck_assert_int_eq(map[3 * page + 7], 42);
    munmap(map, 8 * page);
}
END_TEST

static void
exit_on_segv(int sig)
{
    (void)sig;
    _exit(42);
}

/* Write one byte at map + offset in a child: its exit status (42: SIGSEGV). */
static int
child_write(char *map, gsize offset)
{
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = exit_on_segv;
        sigaction(SIGSEGV, &sa, NULL);
        sigaction(SIGBUS, &sa, NULL);
        ((volatile char *)map)[offset] = 1;
        _exit(0);
    }
    int status = 0;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert(WIFEXITED(status));
    return WEXITSTATUS(status);
}

START_TEST(test_guards_stop_writes_and_spare_neighbours)
{
    /* three stacks of three pages, each above its guard page, as the own core lays them out */
    char *map = fresh_map(9);
    void *guards[3] = {map, map + 3 * page, map + 6 * page};
    core_pages_guard_each(guards, 3, page);
    for (gsize i = 0; i < 9; i++) {
        gboolean guard = i % 3 == 0;
        ck_assert_msg(child_write(map, i * page + page / 2) == (guard ? 42 : 0),
                      "page %zu: a write should %s", i, guard ? "fault" : "succeed");
    }
    /* and in this process too, the usable pages take writes */
    map[1 * page] = map[2 * page + page - 1] = map[8 * page] = 7;
    ck_assert_int_eq(map[8 * page], 7);
    munmap(map, 9 * page);
}
END_TEST

START_TEST(test_forked_child_populates_its_own_pages)
{
    /* the parent asks first, so that whatever it keeps for the next call is made here */
    char *warm = fresh_map(1);
    void *one[1] = {warm};
    core_pages_populate_each(one, 1, page);
    char *map = fresh_map(8);
    void *pages[8];
    for (gsize i = 0; i < 8; i++)
        pages[i] = map + i * page;
    gboolean populates = kernel_populates();
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        core_pages_populate_each(pages, 8, page);
        unsigned char vec[8];
        if (mincore(map, 8 * page, vec) != 0)
            _exit(3);
        for (gsize i = 0; i < 8; i++)
            if ((vec[i] & 1) != (populates ? 1 : 0))
                _exit(4);
        _exit(0);
    }
    int status = 0;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert(WIFEXITED(status));
    ck_assert_int_eq(WEXITSTATUS(status), 0);
    char *got = resident(map, 8);
    ck_assert_str_eq(got, "00000000"); /* the child's calls never reached the parent */
    g_free(got);
    munmap(map, 8 * page);
    munmap(warm, page);
}
END_TEST

START_TEST(test_alloc_populated_is_present)
{
    gsize bytes = 64 * page + 123;
    char *block = core_alloc_populated(bytes);
    gboolean populates = kernel_populates();
    /* the whole pages inside the block are present before anything is written to them */
    char *first = (char *)(((guintptr)block + page - 1) / page * page);
    unsigned char vec[PAGES];
    ck_assert_int_eq(mincore(first, 60 * page, vec), 0);
    for (gsize i = 0; i < 60; i++)
        ck_assert_msg((vec[i] & 1) == 1 || !populates, "page %zu of the block is not present", i);
    memset(block, 0xA5, bytes); /* and all of it is the caller's */
    g_free(block);
}
END_TEST

static Suite *
core_page_batch_suite(void)
{
    Suite *s = suite_create("core_page_batch");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_populate_each_exactly_those_pages);
    tcase_add_test(tc, test_populate_range_whole_pages_inside);
    tcase_add_test(tc, test_guards_stop_writes_and_spare_neighbours);
    tcase_add_test(tc, test_forked_child_populates_its_own_pages);
    tcase_add_test(tc, test_alloc_populated_is_present);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    page = (gsize)sysconf(_SC_PAGESIZE);
    SRunner *runner = srunner_create(core_page_batch_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
