/*
 * privatize.c — per-rank globals: the program's writable bytes, swapped at each switch.
 *
 * Invariant: while rank r runs user code, the writable, non-RELRO pages of the program object
 * hold rank r's values. Three ways, by size:
 *  - small segments (at most COPY_MAX bytes, the usual case: a few globals) are swapped by
 *    copying: the leaving rank's bytes are saved to its slot, the arriving rank's loaded.
 *    Only the object's own writable bytes move (.data and .bss, from the end of RELRO, or
 *    of the lazy-binding GOT that follows it, to the end of the segment), not the whole
 *    pages around them: a program with a few globals swaps tens of bytes per switch, not two
 *    pages, and switches happen at every message. The GOT (.got.plt) holds the addresses of
 *    the functions the program calls, the same for every rank, and is most of the writable
 *    bytes of a small program (192 of 208 in tests/bench/fidelity_coll.c): it stays shared;
 *  - middle-sized ones (at most DELTA_MAX bytes, the same bytes) are kept as their difference
 *    from the pristine image, in chunks of DELTA_CHUNK bytes: the leaving rank's chunks that
 *    differ from what the segment was loaded with are saved (a comparison of the segment, in
 *    cache, with that chunk, in cache too, finds them), and the arriving rank's chunks are
 *    loaded where they differ. Programs keep arrays there that most ranks never touch, or
 *    change alike (OSU's benchmarks have 64 KiB of globals, 56 KB of them request and status
 *    arrays): a switch compares the segment and copies a few chunks, where a remap cost 9 us
 *    of kernel time (osu_bcast at 4096 ranks spent 9 of its 12.5 s in mmap), and a rank
 *    keeps only what it changed. Above 4 KiB this beats the whole copy too (IMB-MPI1's
 *    9.7 KB of globals: 16 % less wall time at 64 ranks);
 *  - larger ones are a MAP_SHARED view of slice r of a memfd, remapped on each switch, so
 *    a switch costs one mmap whatever the size (a mapping needs whole pages).
 * A rank's copy starts as the pristine image the first time it runs. Only user code reads
 * those pages, and user code only runs between SimGrid calls, after which the engine calls
 * sim_privatize_switch().
 */
#include "config.h"

#include <errno.h>
#include <link.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sim/engine/engine.h"
#include "sim/engine/privatize.h"
#include "sim/engine/program_bind.h"

static guint8 *segment;         /* start of the privatized pages */
static gsize segment_len;
static guint8 *pristine;        /* the image right after loading */
static int memfd = -1;
static guint8 *slots;           /* copy mode: one segment_len slot per rank */
#define COPY_MAX (4 * 1024)
/* delta mode: a chunk's bytes, shared by the ranks whose chunk holds them (ranks often change
 * their globals alike: every rank of an OSU benchmark parses the same options) */
struct chunk {
    guint refs;
    guint8 bytes[];
};
/* per rank, NULL (all pristine) or one chunk per chunk index, NULL where the rank's is
 * pristine; per chunk index, the chunk the segment holds now (NULL: pristine) and the one
 * saved last, which the next rank to change that chunk alike shares */
static struct chunk ***deltas;
static struct chunk **shown;
static struct chunk **saved_last;
static gsize delta_chunks;
#define DELTA_MAX (256 * 1024)
#define DELTA_CHUNK 1024
static guint8 *initialised;     /* one flag per rank */
static int current = -1;

struct find_segment {
    uintptr_t start, end;       /* writable PT_LOAD of the object holding the anchor */
    uintptr_t relro_end;
    uintptr_t got_plt, got_plt_end; /* its lazy-binding GOT, when it says where (else 0) */
};

/* Where the object's lazy-binding GOT lies: DT_PLTGOT and three reserved entries, then one
 * per PLT relocation. */
static void
find_got_plt(const struct dl_phdr_info *info, const ElfW(Phdr) *dynamic, struct find_segment *seg)
{
    const ElfW(Dyn) *d = (const ElfW(Dyn) *)(info->dlpi_addr + dynamic->p_vaddr);
    uintptr_t got = 0;
    gsize plt_bytes = 0, rel_size = sizeof(ElfW(Rela));
    for (; d->d_tag != DT_NULL; d++) {
        if (d->d_tag == DT_PLTGOT)
            got = d->d_un.d_ptr;
        else if (d->d_tag == DT_PLTRELSZ)
            plt_bytes = d->d_un.d_val;
        else if (d->d_tag == DT_PLTREL && d->d_un.d_val == DT_REL)
            rel_size = sizeof(ElfW(Rel));
    }
    if (got == 0)
        return;
    got = program_dynamic_address(info->dlpi_addr, got);
    seg->got_plt = got;
    seg->got_plt_end = got + (3 + plt_bytes / rel_size) * sizeof(ElfW(Addr));
}

/* The object's writable PT_LOAD, its RELRO end and its lazy-binding GOT. */
static void
find_segment(const struct dl_phdr_info *info, struct find_segment *seg)
{
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr, hi = lo + ph->p_memsz;
        if (ph->p_type == PT_LOAD && (ph->p_flags & PF_W) && seg->start == 0) {
            seg->start = lo;
            seg->end = hi;
        } else if (ph->p_type == PT_GNU_RELRO) {
            seg->relro_end = hi;
        } else if (ph->p_type == PT_DYNAMIC) {
            find_got_plt(info, ph, seg);
        }
    }
}

gboolean
sim_privatize_setup(gconstpointer anchor, int nranks, GError **error)
{
    struct find_segment seg = {0};
    struct dl_phdr_info object;
    if (!program_object_find(anchor, &object)) {
        g_set_error(error, SIM_ERROR, SIM_ERROR_PROGRAM, "cannot find the program's object");
        return FALSE;
    }
    find_segment(&object, &seg);
    gsize page = (gsize)sysconf(_SC_PAGESIZE);
    /* ld.so write-protects RELRO up to the page boundary below its end (_dl_protect_relro) */
    uintptr_t start = MAX(seg.start, seg.relro_end) / page * page;
    uintptr_t end = (seg.end + page - 1) / page * page;
    if (seg.start == 0 || end <= start) {
        segment_len = 0;   /* nothing writable: nothing to privatize */
        return TRUE;
    }
    initialised = g_new0(guint8, nranks); /* read by the copy and remap modes */
    current = -1;
    if (end - start <= DELTA_MAX) {
        /* the bytes past seg.end up to the page's end belong to no object: nothing to keep */
        uintptr_t first = MAX(seg.start, seg.relro_end);
        /* RELRO ends inside the GOT (its reserved entries are read-only) or where it starts */
        if (seg.got_plt <= first && first < seg.got_plt_end && seg.got_plt_end <= seg.end)
            first = seg.got_plt_end; /* shared (above) */
        segment = (guint8 *)first;
        segment_len = seg.end > (uintptr_t)segment ? seg.end - (uintptr_t)segment : 0;
        if (segment_len == 0)
            return TRUE; /* all of it is RELRO: nothing a rank can write */
        pristine = g_memdup2(segment, segment_len);
        if (segment_len > COPY_MAX) {
            delta_chunks = (segment_len + DELTA_CHUNK - 1) / DELTA_CHUNK;
            deltas = g_new0(struct chunk **, nranks);
            shown = g_new0(struct chunk *, delta_chunks); /* the segment is pristine now */
            saved_last = g_new0(struct chunk *, delta_chunks);
            return TRUE;
        }
        slots = g_try_malloc((gsize)nranks * segment_len);
        if (slots == NULL) {
            g_set_error(error, SIM_ERROR, SIM_ERROR_PROGRAM,
                        "per-rank globals: no memory for %d copies of %zu bytes", nranks,
                        segment_len);
            return FALSE;
        }
        return TRUE;
    }
    segment = (guint8 *)start;
    segment_len = end - start;
    pristine = g_memdup2(segment, segment_len);
    memfd = memfd_create("collsim-globals", MFD_CLOEXEC);
    if (memfd < 0 || ftruncate(memfd, (off_t)segment_len * nranks) != 0) {
        g_set_error(error, SIM_ERROR, SIM_ERROR_PROGRAM, "per-rank globals: %s",
                    g_strerror(errno));
        return FALSE;
    }
    return TRUE;
}

static gsize
chunk_len(gsize c)
{
    return MIN((gsize)DELTA_CHUNK, segment_len - c * DELTA_CHUNK);
}

static struct chunk *
chunk_ref(struct chunk *k)
{
    if (k != NULL)
        k->refs++;
    return k;
}

static void
chunk_unref(struct chunk *k)
{
    if (k != NULL && --k->refs == 0)
        g_free(k);
}

/* What chunk c of the segment holds now, for the leaving rank: unchanged since it was shown
 * (the common case, one comparison with a chunk in cache), pristine again, the same bytes as
 * the chunk saved last (shared), or bytes of its own. */
static struct chunk *
delta_keep(gsize c, struct chunk *had)
{
    gsize off = c * DELTA_CHUNK, len = chunk_len(c);
    const guint8 *now = segment + off;
    if (had != NULL ? memcmp(now, had->bytes, len) == 0
                    : memcmp(now, pristine + off, len) == 0)
        return had;
    if (had != NULL && memcmp(now, pristine + off, len) == 0) {
        chunk_unref(had);
        return NULL;
    }
    struct chunk *last = saved_last[c];
    if (last != NULL && last != had && memcmp(now, last->bytes, len) == 0) {
        chunk_unref(had);
        return chunk_ref(last);
    }
    struct chunk *mine = had;
    if (mine == NULL || mine->refs > 1) {
        chunk_unref(had);
        mine = g_malloc(sizeof *mine + DELTA_CHUNK);
        mine->refs = 1;
    }
    memcpy(mine->bytes, now, len);
    chunk_unref(saved_last[c]);
    saved_last[c] = chunk_ref(mine);
    return mine;
}

/* Keep what the leaving rank changed: the chunks of its own that differ from pristine. */
static void
delta_save(int rank)
{
    struct chunk **mine = deltas[rank];
    for (gsize c = 0; c < delta_chunks; c++) {
        struct chunk *k = delta_keep(c, mine != NULL ? mine[c] : NULL);
        shown[c] = k;
        if (mine == NULL && k != NULL)
            mine = deltas[rank] = g_new0(struct chunk *, delta_chunks);
        if (mine != NULL)
            mine[c] = k;
    }
}

/* Show the arriving rank's values: each of its chunks that the segment does not hold. */
static void
delta_load(int rank)
{
    struct chunk **mine = deltas[rank];
    for (gsize c = 0; c < delta_chunks; c++) {
        struct chunk *want = mine != NULL ? mine[c] : NULL;
        if (want == shown[c])
            continue;
        gsize off = c * DELTA_CHUNK;
        memcpy(segment + off, want != NULL ? want->bytes : pristine + off, chunk_len(c));
        shown[c] = want;
    }
}

void
sim_privatize_switch(int rank)
{
    if (rank == current || segment_len == 0)
        return;
    if (deltas != NULL) {
        if (current >= 0)
            delta_save(current);
        delta_load(rank);
        current = rank;
        return;
    }
    if (slots != NULL) {
        if (current >= 0)
            memcpy(slots + (gsize)current * segment_len, segment, segment_len);
        memcpy(segment, initialised[rank] ? slots + (gsize)rank * segment_len : pristine,
               segment_len);
        initialised[rank] = 1;
        current = rank;
        return;
    }
    void *p = mmap(segment, segment_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, memfd,
                   (off_t)segment_len * rank);
    if (p == MAP_FAILED)
        g_error("collsim: cannot map the globals of rank %d: %s", rank, g_strerror(errno));
    if (!initialised[rank]) {
        memcpy(segment, pristine, segment_len);
        initialised[rank] = 1;
    }
    current = rank;
}

gboolean
sim_privatize_overlaps(gconstpointer p, gsize len)
{
    const guint8 *start = p;
    return segment_len > 0 && len > 0 && start < segment + segment_len && start + len > segment;
}

gsize
sim_privatize_bytes_per_rank(void)
{
    return segment_len;
}
