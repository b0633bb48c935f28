/*
 * fuzz_driver.c — a deterministic fuzzer for `make check`: every input of the corpus
 * (tests/fuzz/corpus/TARGET/), then ITERATIONS mutants per target drawn from a fixed seed, run
 * through the targets of fuzz_targets.c (a target whose inputs cost more gets ITERATIONS / cost
 * mutants; --target runs one target only). A crash, an abort or a sanitizer report fails the
 * test; the input that caused it is left in fuzz-crash-TARGET.bin to replay
 * (`fuzz_driver --replay TARGET FILE`). Prints, per target, the inputs tried, how many were
 * accepted and refused, and the time taken.
 *
 *   fuzz_driver [--iterations N] [--seed S] [--target NAME] CORPUS_DIR
 *   fuzz_driver --replay TARGET FILE
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>

#include "fuzz_targets.h"

#define FUZZ_MAX_INPUT 4096

static const char *running_target;
static const uint8_t *running_data;
static size_t running_size;

/* Keep the input that brought the process down (write and open are async-signal-safe). */
static void
on_crash(int sig)
{
    char path[128];
    snprintf(path, sizeof path, "fuzz-crash-%s.bin", running_target ? running_target : "none");
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
        if (write(fd, running_data, running_size) < 0)
            _exit(128 + sig);
        close(fd);
    }
    static const char msg[] = "fuzz_driver: crash; the input is in fuzz-crash-TARGET.bin\n";
    if (write(STDERR_FILENO, msg, sizeof msg - 1) < 0)
        _exit(128 + sig);
    signal(sig, SIG_DFL);
    raise(sig);
}

static enum fuzz_outcome
run_one(const struct fuzz_target *t, const uint8_t *data, size_t size)
{
    running_target = t->name;
    running_data = data;
    running_size = size;
    return t->run(data, size);
}

/* Pieces that parsers treat specially, and bytes that are not text. */
static const char *const tokens[] = {
    "..", "*2", "+1", "=", ",", "[", "]", "\n", "#", ";", ":", "1e400", "-1", "nan", "inf",
    "0", "18446744073709551616", "4294967296", "2147483648", "KiB", "GiB", "us", "all",
    "default", "\xc3\xa9", "\xff\xfe", "\x00", "[run]\n", "[platform]\n", "ranks = ",
    "sizes = ", "collectives = ", "file = ", "fattree:", "torus:dims=", "cores=", "hosts=",
    "run.", "platform.", "scenario.", "output.",
};

static void
insert_bytes(GByteArray *in, guint at, const guint8 *bytes, guint n)
{
    guint len = in->len;
    g_byte_array_set_size(in, len + n);
    memmove(in->data + at + n, in->data + at, len - at);
    memcpy(in->data + at, bytes, n);
}

/* A token of the driver's list or, past its end, of the target's own (fuzz_targets.h). */
static const char *
pick_token(GRand *rand, const struct fuzz_target *t)
{
    gint32 own = 0;
    while (t->tokens != NULL && t->tokens[own] != NULL)
        own++;
    gint32 shared = (gint32)G_N_ELEMENTS(tokens);
    gint32 i = g_rand_int_range(rand, 0, shared + own);
    return i < shared ? tokens[i] : t->tokens[i - shared];
}

static void
mutate(GRand *rand, const struct fuzz_target *t, GByteArray *in, GPtrArray *corpus)
{
    int steps = g_rand_int_range(rand, 1, 5);
    for (int s = 0; s < steps; s++) {
        guint len = in->len;
        switch (g_rand_int_range(rand, 0, 6)) {
        case 0: /* flip a bit */
            if (len > 0)
                in->data[g_rand_int_range(rand, 0, (gint32)len)] ^= (guint8)(1u << g_rand_int_range(rand, 0, 8));
            break;
        case 1: { /* insert a token */
            const char *tok = pick_token(rand, t);
            size_t tlen = tok[0] == '\0' ? 1 : strlen(tok);
            guint at = len > 0 ? (guint)g_rand_int_range(rand, 0, (gint32)len + 1) : 0;
            insert_bytes(in, at, (const guint8 *)tok, (guint)tlen);
            break;
        }
        case 2: /* delete a range */
            if (len > 0) {
                guint at = (guint)g_rand_int_range(rand, 0, (gint32)len);
                guint n = (guint)g_rand_int_range(rand, 1, (gint32)MIN(len - at, 32u) + 1);
                g_byte_array_remove_range(in, at, n);
            }
            break;
        case 3: /* duplicate a range */
            if (len > 0) {
                guint at = (guint)g_rand_int_range(rand, 0, (gint32)len);
                guint n = (guint)g_rand_int_range(rand, 1, (gint32)MIN(len - at, 64u) + 1);
                guint8 copy[64];
                memcpy(copy, in->data + at, n);
                insert_bytes(in, (guint)g_rand_int_range(rand, 0, (gint32)len + 1), copy, n);
            }
            break;
        case 4: /* a random byte */
            if (len > 0)
                in->data[g_rand_int_range(rand, 0, (gint32)len)] = (guint8)g_rand_int_range(rand, 0, 256);
            break;
        default: { /* splice: my head, another's tail */
            GBytes *other = g_ptr_array_index(corpus, g_rand_int_range(rand, 0, (gint32)corpus->len));
            gsize olen;
            const guint8 *odata = g_bytes_get_data(other, &olen);
            guint keep = len > 0 ? (guint)g_rand_int_range(rand, 0, (gint32)len + 1) : 0;
            gsize from = olen > 0 ? (gsize)g_rand_int_range(rand, 0, (gint32)olen + 1) : 0;
            g_byte_array_set_size(in, keep);
            g_byte_array_append(in, odata + from, (guint)(olen - from));
            break;
        }
        }
        if (in->len > FUZZ_MAX_INPUT)
            g_byte_array_set_size(in, FUZZ_MAX_INPUT);
    }
}

static gint
by_name(gconstpointer a, gconstpointer b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static GPtrArray *
read_corpus(const char *dir, const char *target)
{
    GPtrArray *corpus = g_ptr_array_new_with_free_func((GDestroyNotify)g_bytes_unref);
    gchar *path = g_build_filename(dir, target, NULL);
    GDir *d = g_dir_open(path, 0, NULL);
    GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
    const char *name;
    while (d != NULL && (name = g_dir_read_name(d)) != NULL)
        g_ptr_array_add(names, g_strdup(name));
    if (d != NULL)
        g_dir_close(d);
    /* directory order is not deterministic; names are */
    g_ptr_array_sort(names, by_name);
    for (guint i = 0; i < names->len; i++) {
        gchar *file = g_build_filename(path, g_ptr_array_index(names, i), NULL);
        gchar *text;
        gsize len;
        if (g_file_get_contents(file, &text, &len, NULL))
            g_ptr_array_add(corpus, g_bytes_new_take(text, len));
        g_free(file);
    }
    g_ptr_array_free(names, TRUE);
    g_free(path);
    return corpus;
}

int
main(int argc, char **argv)
{
    int iterations = 2000;
    guint32 seed = 20261125;
    const char *only = NULL;
    int arg = 1;
    signal(SIGSEGV, on_crash);
    signal(SIGABRT, on_crash);
    signal(SIGBUS, on_crash);
    signal(SIGFPE, on_crash);
    /* a target's failed property: g_error() ends the process with SIGTRAP */
    signal(SIGTRAP, on_crash);
    if (argc == 4 && strcmp(argv[1], "--replay") == 0) {
        for (size_t t = 0; t < fuzz_target_count; t++) {
            if (strcmp(fuzz_targets[t].name, argv[2]) != 0)
                continue;
            gchar *text;
            gsize len;
            if (!g_file_get_contents(argv[3], &text, &len, NULL))
                return 2;
            enum fuzz_outcome o = run_one(&fuzz_targets[t], (const uint8_t *)text, len);
            printf("%s: %s\n", argv[2], o == FUZZ_ACCEPTED ? "accepted" : "refused");
            g_free(text);
            return 0;
        }
        return 2;
    }
    for (; arg + 1 < argc && argv[arg][0] == '-'; arg += 2) {
        if (strcmp(argv[arg], "--iterations") == 0)
            iterations = atoi(argv[arg + 1]);
        else if (strcmp(argv[arg], "--seed") == 0)
            seed = (guint32)strtoul(argv[arg + 1], NULL, 10);
        else if (strcmp(argv[arg], "--target") == 0)
            only = argv[arg + 1];
    }
    if (arg >= argc) {
        fprintf(stderr, "usage: fuzz_driver [--iterations N] [--seed S] [--target NAME] "
                        "CORPUS_DIR\n");
        return 2;
    }
    gboolean found = only == NULL;
    for (size_t t = 0; t < fuzz_target_count && !found; t++)
        found = strcmp(fuzz_targets[t].name, only) == 0;
    if (!found) {
        fprintf(stderr, "fuzz_driver: no target named %s\n", only);
        return 2;
    }
    /* the loaders print nothing on success; their refusals go to the GError, not stderr */
    for (size_t t = 0; t < fuzz_target_count; t++) {
        const struct fuzz_target *target = &fuzz_targets[t];
        if (only != NULL && strcmp(target->name, only) != 0)
            continue;
        int mutants = iterations / (int)MAX(target->cost, 1u);
        GPtrArray *corpus = read_corpus(argv[arg], target->name);
        if (corpus->len == 0) {
            fprintf(stderr, "fuzz_driver: no corpus for %s in %s\n", target->name, argv[arg]);
            return 1;
        }
        GRand *rand = g_rand_new_with_seed(seed + (guint32)t);
        guint64 accepted = 0, refused = 0;
        gint64 start = g_get_monotonic_time();
        for (guint i = 0; i < corpus->len; i++) {
            gsize len;
            const uint8_t *data = g_bytes_get_data(g_ptr_array_index(corpus, i), &len);
            run_one(target, data, len) == FUZZ_ACCEPTED ? accepted++ : refused++;
        }
        GByteArray *in = g_byte_array_new();
        for (int i = 0; i < mutants; i++) {
            gsize len;
            const guint8 *data = g_bytes_get_data(
                g_ptr_array_index(corpus, g_rand_int_range(rand, 0, (gint32)corpus->len)), &len);
            g_byte_array_set_size(in, 0);
            g_byte_array_append(in, data, (guint)len);
            mutate(rand, target, in, corpus);
            run_one(target, in->data, in->len) == FUZZ_ACCEPTED ? accepted++ : refused++;
        }
        double seconds = (double)(g_get_monotonic_time() - start) / 1e6;
        printf("%-12s %6" G_GUINT64_FORMAT " inputs (%u corpus, %d mutants, seed %u): %" G_GUINT64_FORMAT
               " accepted, %" G_GUINT64_FORMAT " refused, no crash, %.1f s\n",
               target->name, accepted + refused, corpus->len, mutants, seed + (guint32)t,
               accepted, refused, seconds);
        g_byte_array_free(in, TRUE);
        g_rand_free(rand);
        g_ptr_array_free(corpus, TRUE);
    }
    return 0;
}
