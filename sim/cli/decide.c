/*
 * decide.c — collsim decide (see decide.h): a library's choice for one call, and why.
 *
 * The call is described as the MPI entry points describe it (struct coll_call): `--bytes` is
 * coll_call.bytes (the whole buffer for bcast and the reductions, one block for the
 * gather/scatter and all-to-all kinds), `--count` the elements (default bytes / 8, doubles),
 * a contiguous datatype, every node's ranks consecutive. Output is fixed text, one fact per
 * labelled line, so that scripts and tests can read it (tests/scenarios/test_decide.sh).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/cli/decide.h"
#include "src/coll_decision.h"
#include "src/coll/coll_registry.h"
#include "src/coll/coll_select.h"

#define EXIT_USAGE 2

/* Installed decisions live until the process ends (the entry points hold a pointer). */
static struct coll_decision *installed;

gboolean
decide_option_install(const char *spec, GError **error)
{
    if (strcmp(spec, COLL_DECISION_COLLSIM) == 0) {
        coll_select_set_decision(NULL);
        return TRUE;
    }
    struct coll_decision *d = coll_decision_open(spec, 0, error);
    if (d == NULL)
        return FALSE;
    coll_select_set_decision(d);
    coll_decision_free(installed);
    installed = d;
    return TRUE;
}

static void
params_text(const struct coll_algorithm *row, const struct coll_params *p, char *buf, size_t n)
{
    buf[0] = '\0';
    if (row == NULL)
        return;
    if ((row->caps & COLL_SEGMENTED) && (row->caps & COLL_RADIX))
        snprintf(buf, n, " segment_bytes=%d radix=%d", p->segment_bytes, p->radix);
    else if (row->caps & COLL_SEGMENTED)
        snprintf(buf, n, " segment_bytes=%d", p->segment_bytes);
    else if (row->caps & COLL_RADIX)
        snprintf(buf, n, " radix=%d", p->radix);
}

/* What runs for `choice`, and why when it is not the library's algorithm. */
static const struct coll_algorithm *
served(const struct coll_decision_choice *choice, const struct coll_call *call, gchar **why)
{
    *why = NULL;
    if (choice->row == NULL) {
        const struct coll_algorithm *row = coll_select_fallback(call);
        *why = g_strdup_printf("collsim has no algorithm '%s' in this build; collsim's fallback: "
                               "the first %s algorithm that can serve the call",
                               choice->entry->collsim, coll_kind_name(call->kind));
        return row;
    }
    const char *unmet = coll_select_unmet(choice->row, call);
    if (unmet == NULL)
        return choice->row;
    *why = g_strdup_printf("%s %s; collsim's fallback: the first %s algorithm that can serve "
                           "the call", choice->row->name, unmet, coll_kind_name(call->kind));
    return coll_select_fallback(call);
}

static int
decide_one(const struct coll_decision *d, const struct coll_call *call)
{
    struct coll_decision_choice choice;
    printf("library:   %s %s (%s)\n", d->library, d->version, d->path);
    if (!coll_decision_choose(d, call, &choice)) {
        printf("rule:      none: the file has no [%s] section; collsim's own rules decide\n",
               coll_kind_name(call->kind));
        return 0;
    }
    char params[64];
    gchar *base = g_path_get_basename(d->path); /* the library line gave the whole path */
    printf("rule:      %s:%d: %s\n", base, choice.rule->line, choice.rule->text);
    g_free(base);
    printf("algorithm: %s %s\n", choice.entry->id, choice.entry->short_name);
    params_text(choice.row, &choice.params, params, sizeof params);
    printf("collsim:   %s%s\n", choice.entry->collsim, params);
    gchar *why = NULL;
    const struct coll_algorithm *row = served(&choice, call, &why);
    if (why == NULL) {
        printf("runs:      %s%s\n", row->name, params);
    } else {
        printf("runs:      %s (%s)\n", row != NULL ? row->name : "nothing", why);
        g_free(why);
    }
    return 0;
}

/* One line per library: its choice and what runs. */
static int
decide_all(const struct coll_call *call)
{
    int rc = 0;
    const char *own = coll_rules_choice(call);
    const struct coll_algorithm *row = own != NULL ? coll_registry_find(call->kind, own) : NULL;
    const struct coll_algorithm *runs =
        row != NULL && coll_select_unmet(row, call) == NULL ? row : coll_select_fallback(call);
    printf("  %-9s %-48s runs %s  (collsim list decisions)\n", COLL_DECISION_COLLSIM,
           own != NULL ? own : "-", runs != NULL ? runs->name : "nothing");
    gchar **libraries = coll_decision_libraries();
    for (gchar **lib = libraries; *lib != NULL; lib++) {
        GError *error = NULL;
        struct coll_decision *d = coll_decision_open(*lib, 0, &error);
        if (d == NULL) {
            printf("  %-9s error: %s\n", *lib, error->message);
            g_error_free(error);
            rc = 1;
            continue;
        }
        struct coll_decision_choice choice;
        if (!coll_decision_choose(d, call, &choice)) {
            printf("  %-9s (no [%s] section: collsim's own rules)\n", *lib,
                   coll_kind_name(call->kind));
        } else {
            gchar *why = NULL;
            /* a long id (MPICH's MPIR_..._intra_NAME) already holds the short name */
            gchar *what = strlen(choice.entry->id) > 8
                              ? g_strdup(choice.entry->id)
                              : g_strdup_printf("%s %s", choice.entry->id,
                                                choice.entry->short_name);
            runs = served(&choice, call, &why);
            printf("  %-9s %-48s runs %s%s  (%s:%d)\n", *lib, what,
                   runs != NULL ? runs->name : "nothing", why != NULL ? " (fallback)" : "",
                   d->name, choice.rule->line);
            g_free(what);
            g_free(why);
        }
        coll_decision_free(d);
    }
    g_strfreev(libraries);
    return rc;
}

static int
usage(const char *fmt, ...) G_GNUC_PRINTF(1, 2);

static int
usage(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    gchar *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    fprintf(stderr, "collsim: decide: %s\n", msg);
    g_free(msg);
    return EXIT_USAGE;
}

/* Check every library's file: readable, and every collsim name in this build (all of the
 * missing names are listed, not only the first the strict reader would stop at). */
static int
check_files(const char *only)
{
    int rc = 0;
    gchar **libraries = only != NULL ? g_strsplit(only, ",", -1) : coll_decision_libraries();
    for (gchar **lib = libraries; *lib != NULL; lib++) {
        GError *error = NULL;
        struct coll_decision *d = coll_decision_open(*lib, 0, &error);
        if (d == NULL) {
            fprintf(stderr, "collsim: decide --check: %s\n", error->message);
            g_error_free(error);
            rc = 1;
            continue;
        }
        if (d->unresolved->len > 0) {
            for (guint i = 0; i < d->unresolved->len; i++)
                fprintf(stderr, "collsim: decide --check: %s\n",
                        (const char *)g_ptr_array_index(d->unresolved, i));
            coll_decision_free(d);
            rc = 1;
            continue;
        }
        int sections = 0, rules = 0, entries = 0;
        for (int k = 0; k < COLL_KIND_COUNT; k++) {
            if (d->sections[k] == NULL)
                continue;
            sections++;
            rules += (int)d->sections[k]->rules->len;
            entries += (int)d->sections[k]->entries->len;
        }
        printf("%s: %s %s: %d sections, %d algorithms, %d rules, every name resolves\n", *lib,
               d->library, d->version, sections, entries, rules);
        coll_decision_free(d);
    }
    g_strfreev(libraries);
    return rc;
}

int
command_decide(int argc, char **argv)
{
    (void)argc;
    gint nranks = 0;
    gchar *bytes_text = NULL, *count_text = NULL, *decision = NULL;
    gboolean noncommutative = FALSE, check = FALSE;
    GOptionEntry entries[] = {
        {"np", 'n', 0, G_OPTION_ARG_INT, &nranks, "Number of ranks", "P"},
        {"bytes", 0, 0, G_OPTION_ARG_STRING, &bytes_text,
         "The call's bytes: the whole buffer (bcast, reductions) or one block (gather, scatter, "
         "allgather, alltoall)",
         "B"},
        {"count", 0, 0, G_OPTION_ARG_STRING, &count_text,
         "Elements per rank (default bytes / 8: doubles)", "N"},
        {"decision", 0, 0, G_OPTION_ARG_STRING, &decision,
         "ompi, mpich, mvapich2, impi or FILE.rules (default: every library, one line each)",
         "LIB"},
        {"noncommutative", 0, 0, G_OPTION_ARG_NONE, &noncommutative,
         "The op does not commute (reductions)", NULL},
        {"check", 0, 0, G_OPTION_ARG_NONE, &check,
         "Only read the libraries' files (or --decision's) and check that every collsim "
         "algorithm they name is in this build",
         NULL},
        {NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    GOptionContext *context =
        g_option_context_new("COLLECTIVE -n P --bytes B - what a library's default decision "
                             "picks, and why");
    g_option_context_add_main_entries(context, entries, NULL);
    GError *error = NULL;
    int rc = 0;
    gchar **args = g_strdupv(argv);
    enum coll_kind kind;
    guint64 bytes = 0, count = 0;
    if (!g_option_context_parse_strv(context, &args, &error)) {
        rc = usage("%s", error->message);
        goto out;
    }
    if (check) {
        rc = g_strv_length(args) == 1 ? check_files(decision)
                                      : usage("--check takes no collective");
        goto out;
    }
    if (g_strv_length(args) != 2) {
        rc = usage("usage: collsim decide COLLECTIVE -n P --bytes B [--decision LIB] "
                   "[--noncommutative] [--count N]");
        goto out;
    }
    if (!coll_kind_from_name(args[1], &kind)) {
        rc = usage("unknown collective '%s' (collsim list collectives)", args[1]);
        goto out;
    }
    if (nranks < 1) {
        rc = usage("-n must be at least 1 (got %d)", nranks);
        goto out;
    }
    if (bytes_text == NULL && kind != COLL_BARRIER) {
        rc = usage("--bytes B is needed for %s", coll_kind_name(kind));
        goto out;
    }
    if (bytes_text != NULL && (!g_ascii_string_to_unsigned(bytes_text, 10, 0, G_MAXINT64,
                                                           &bytes, NULL))) {
        rc = usage("--bytes: '%s' is not a number of bytes >= 0", bytes_text);
        goto out;
    }
    count = bytes / 8;
    if (count_text != NULL &&
        !g_ascii_string_to_unsigned(count_text, 10, 0, G_MAXINT, &count, NULL)) {
        rc = usage("--count: '%s' is not a count >= 0", count_text);
        goto out;
    }
    if (count > G_MAXINT) {
        rc = usage("--count: %" G_GUINT64_FORMAT " elements do not fit an int", count);
        goto out;
    }
    struct coll_call call = {
        .kind = kind,
        .comm_size = nranks,
        .bytes = (size_t)bytes,
        .count = (int)count,
        .commutative = !noncommutative,
        .contiguous = 1,
        .node_blocks = 1,
    };
    if (decision == NULL) {
        printf("%s, %d ranks, %" G_GUINT64_FORMAT " bytes, count %" G_GUINT64_FORMAT ", %s op:\n",
               coll_kind_name(kind), nranks, bytes, count,
               noncommutative ? "non-commutative" : "commutative");
        rc = decide_all(&call);
        goto out;
    }
    if (strcmp(decision, COLL_DECISION_COLLSIM) == 0) {
        const char *own = coll_rules_choice(&call);
        printf("library:   collsim (its own default rules: collsim list decisions)\n");
        printf("algorithm: %s\n", own != NULL ? own : "-");
        goto out;
    }
    struct coll_decision *d = coll_decision_open(decision, 0, &error);
    if (d == NULL) {
        rc = usage("%s", error->message);
        goto out;
    }
    printf("call:      %s, %d ranks, %" G_GUINT64_FORMAT " bytes, count %" G_GUINT64_FORMAT
           ", %s op\n",
           coll_kind_name(kind), nranks, bytes, count,
           noncommutative ? "non-commutative" : "commutative");
    rc = decide_one(d, &call);
    coll_decision_free(d);
out:
    g_clear_error(&error);
    g_strfreev(args);
    g_free(bytes_text);
    g_free(count_text);
    g_free(decision);
    g_option_context_free(context);
    return rc;
}
