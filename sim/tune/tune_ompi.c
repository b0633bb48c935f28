/*
 * tune_ompi.c — Open MPI coll_tuned dynamic rules files: the writer `collsim tune` uses and
 * collsim's reader of the format (tune_rules.h).
 *
 * The format (classic, "version 1"), as documented in docs/tuning-apps/coll-tuned.rst ("Dynamic
 * Decisions and the Rules File", https://docs.open-mpi.org/en/v5.0.x/tuning-apps/coll-tuned.html)
 * and read by ompi_coll_tuned_read_rules_config_file (ompi/mca/coll/tuned/
 * coll_tuned_dynamic_file.c, v4.1 and v5.0): whole numbers separated by blanks, `#` starting a
 * comment to the end of the line:
 *
 *   NCOL                              collectives in the file
 *   then NCOL times:  COLID NCOMSIZES   (COLID: COLLTYPE_T of coll_base_functions.h)
 *     then NCOMSIZES times:  COMSIZE NMSGSIZES
 *       then NMSGSIZES times:  MSGSIZE ALG FANINOUT SEGSIZE [MAXREQ]
 *
 * A file may start with "rule-file-version-N"; with N >= 2 a rule may carry a fifth number
 * (max requests) on its line (Open MPI >= 5.0.7). collsim writes version 1, which every release
 * from 1.x to 6.x reads. The first message rule of every comm size must be for size 0.
 *
 * Selection (v5.0.9 coll_tuned_dynamic_rules.c): the comm-size set is the last whose COMSIZE
 * is <= the communicator's size (the first set when none is); in it the rule is the last whose
 * MSGSIZE is <= the call's message size. ALG 0 means "use the fixed decision". (Open MPI's
 * unreleased main branch, 6.0, converts a classic file's comm sizes to ranges ending at the
 * next COMSIZE - 1 instead, commit e973840e2b: there a set serves the sizes below its COMSIZE;
 * collsim follows the released readers, 4.1 to 5.0.9.) Open MPI's own
 * reader skips any character it cannot read as a number; collsim's reader refuses it instead,
 * with its line and column, so that a typo is not silently read as a different table.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sim/tune/tune_plan.h"
#include "sim/tune/tune_rules.h"
#include "src/coll/coll_kinds.h"
#include "src/coll/coll_registry.h"

/* COLLTYPE_T of ompi/mca/coll/base/coll_base_functions.h; -1: coll_tuned has no dynamic
 * decision for it (ompi_coll_tuned_*_intra_dec_dynamic exists for the others). */
int
tune_ompi_collective_id(enum coll_kind kind)
{
    switch (kind) {
    case COLL_ALLGATHER:
        return 0;
    case COLL_ALLGATHERV:
        return 1;
    case COLL_ALLREDUCE:
        return 2;
    case COLL_ALLTOALL:
        return 3;
    case COLL_ALLTOALLV:
        return 4;
    case COLL_BARRIER:
        return 6;
    case COLL_BCAST:
        return 7;
    case COLL_EXSCAN:
        return 8;
    case COLL_GATHER:
        return 9;
    case COLL_REDUCE:
        return 11;
    case COLL_REDUCE_SCATTER:
        return 12;
    case COLL_REDUCE_SCATTER_BLOCK:
        return 13;
    case COLL_SCAN:
        return 14;
    case COLL_SCATTER:
        return 15;
    default:
        return -1;
    }
}

/*
 * What ompi/mca/coll/tuned/coll_tuned_decision_dynamic.c (v5.0.9) passes to
 * ompi_coll_tuned_get_target_method_params, in collsim's terms (bytes = count x type size of
 * the call as model_predict.h defines it):
 *   allreduce, bcast, reduce: dsize * count                       = bytes
 *   reduce_scatter: dsize * sum(rcounts)                           = bytes (the whole vector)
 *   reduce_scatter_block: dsize * rcount * comm size                = bytes (the whole vector)
 *   allgather, alltoall, gather, scatter: dsize * comm size * scount = bytes * P (one block each)
 *   allgatherv: dsize * sum(rcounts) / comm size (per_rank_size)     = bytes (equal blocks)
 *   scan, exscan: dsize * comm size (the count is not used)          = type size * P
 *   alltoallv, barrier: 0 (no size)
 */
guint64
tune_ompi_message_size(enum coll_kind kind, int nranks, guint64 bytes, guint type_size)
{
    guint64 p = (guint64)nranks;
    switch (kind) {
    case COLL_ALLGATHER:
    case COLL_ALLTOALL:
    case COLL_GATHER:
    case COLL_SCATTER:
        return bytes * p;
    case COLL_SCAN:
    case COLL_EXSCAN:
        return (guint64)type_size * p;
    case COLL_ALLTOALLV:
    case COLL_BARRIER:
        return 0;
    default:
        return bytes;
    }
}

/* ---------------------------------------------------------------- writer */

static gboolean
ompi_has(enum coll_kind kind)
{
    return tune_ompi_collective_id(kind) >= 0;
}

static const char *
size_meaning(enum coll_kind kind)
{
    switch (kind) {
    case COLL_ALLGATHER:
    case COLL_ALLTOALL:
    case COLL_GATHER:
    case COLL_SCATTER:
        return "datatype size x count per rank x comm size";
    case COLL_SCAN:
    case COLL_EXSCAN:
        return "datatype size x comm size (Open MPI ignores the count)";
    case COLL_ALLTOALLV:
    case COLL_BARRIER:
        return "not used: always 0";
    case COLL_ALLGATHERV:
        return "datatype size x sum of recvcounts / comm size";
    case COLL_REDUCE_SCATTER:
        return "datatype size x sum of recvcounts";
    case COLL_REDUCE_SCATTER_BLOCK:
        return "datatype size x recvcount x comm size";
    default:
        return "datatype size x count";
    }
}

static gint
compare_collective_ids(gconstpointer a, gconstpointer b)
{
    int x = tune_ompi_collective_id(((const struct tune_plan_collective *)a)->kind);
    int y = tune_ompi_collective_id(((const struct tune_plan_collective *)b)->kind);
    return (x > y) - (x < y);
}

gboolean
tune_ompi_write(const struct tune_rules_source *source, const char *path, GError **error)
{
    GArray *plan = tune_plan_build(source->table, TUNE_LIBRARY_OMPI, source->mapping, ompi_has,
                                   tune_ompi_message_size);
    if (plan->len == 0) {
        g_set_error(error, TUNE_RULES_ERROR, TUNE_RULES_ERROR_READ,
                    "%s: not written: no collective of the sweep has an algorithm Open MPI's "
                    "coll_tuned can be told to use",
                    path);
        tune_plan_free(plan);
        return FALSE;
    }
    g_array_sort(plan, compare_collective_ids);
    GString *t = g_string_new(NULL);
    g_string_append_printf(
        t,
        "# Open MPI coll_tuned dynamic rules (classic format, version 1), written by %s\n"
        "# Use: mpirun --mca coll_tuned_use_dynamic_rules 1 \\\n"
        "#             --mca coll_tuned_dynamic_rules_filename %s ...\n"
        "# Format: https://docs.open-mpi.org/en/v5.0.x/tuning-apps/coll-tuned.html (Dynamic\n"
        "# Decisions and the Rules File); read by ompi/mca/coll/tuned/coll_tuned_dynamic_file.c.\n"
        "# Open MPI takes the last comm size <= the communicator's, then the last message size\n"
        "# <= the call's. Each rule starts at the size where its algorithm was measured fastest\n"
        "# (among Open MPI's) and runs up to the next rule; the first starts at 0.\n"
        "# Rule columns: message size, algorithm (coll_tuned_<coll>_algorithm), fan-in/out\n"
        "# (collsim's radix, 0 = Open MPI's default), segment size in bytes (0 = its default).\n",
        source->origin != NULL ? source->origin : "collsim tune", path);
    g_string_append_printf(t, "%u # collectives\n", plan->len);
    for (guint c = 0; c < plan->len; c++) {
        const struct tune_plan_collective *coll =
            &g_array_index(plan, struct tune_plan_collective, c);
        g_string_append_printf(t, "#\n%d # collective id: %s; message size = %s\n",
                               tune_ompi_collective_id(coll->kind), coll_kind_name(coll->kind),
                               size_meaning(coll->kind));
        g_string_append_printf(t, "%u # comm sizes\n", coll->comms->len);
        for (guint m = 0; m < coll->comms->len; m++) {
            const struct tune_plan_comm *comm =
                &g_array_index(coll->comms, struct tune_plan_comm, m);
            if (m + 1 < coll->comms->len)
                g_string_append_printf(
                    t, "%d # comm size (serves %d to %d ranks)\n", comm->nranks,
                    m == 0 ? 1 : comm->nranks,
                    g_array_index(coll->comms, struct tune_plan_comm, m + 1).nranks - 1);
            else
                g_string_append_printf(t, "%d # comm size (serves %d ranks and more)\n",
                                       comm->nranks, m == 0 ? 1 : comm->nranks);
            g_string_append_printf(t, "%u # message sizes\n", comm->rules->len);
            for (guint r = 0; r < comm->rules->len; r++) {
                const struct tune_plan_rule *rule =
                    &g_array_index(comm->rules, struct tune_plan_rule, r);
                const struct coll_algorithm *row = coll_registry_find(coll->kind, rule->algorithm);
                int faninout = row != NULL && (row->caps & COLL_RADIX) ? row->defaults.radix : 0;
                int segsize =
                    row != NULL && (row->caps & COLL_SEGMENTED) ? row->defaults.segment_bytes : 0;
                g_string_append_printf(t, "%" G_GUINT64_FORMAT " %s %d %d # %s\n",
                                       r == 0 ? 0 : rule->key, rule->id, faninout, segsize,
                                       rule->note->str);
            }
        }
    }
    tune_plan_free(plan);
    gboolean ok = g_file_set_contents(path, t->str, (gssize)t->len, error);
    g_string_free(t, TRUE);
    return ok;
}

/* ---------------------------------------------------------------- reader */

struct ompi_rule {
    guint64 size;
    struct tune_ompi_choice choice;
};

struct ompi_comm {
    gint64 comm_size;
    GArray *rules; /* struct ompi_rule */
};

struct tune_ompi_rules {
    GArray *comms[32]; /* by collective id; NULL: no rules for it */
};

#define OMPI_MAX_ID 16 /* SCATTERV: the blocking collectives */

void
tune_ompi_rules_free(struct tune_ompi_rules *rules)
{
    if (rules == NULL)
        return;
    for (int i = 0; i <= OMPI_MAX_ID; i++) {
        if (rules->comms[i] == NULL)
            continue;
        for (guint c = 0; c < rules->comms[i]->len; c++)
            g_array_free(g_array_index(rules->comms[i], struct ompi_comm, c).rules, TRUE);
        g_array_free(rules->comms[i], TRUE);
    }
    g_free(rules);
}

struct lexer {
    const char *name;
    const char *text;
    const char *at;
    int line;
    const char *line_start;
    GError **error;
};

static void
skip_blanks(struct lexer *lx, gboolean stop_at_newline)
{
    for (;;) {
        char c = *lx->at;
        if (c == '#') {
            while (*lx->at != '\0' && *lx->at != '\n')
                lx->at++;
            continue;
        }
        if (c == '\n' && stop_at_newline)
            return;
        if (c == '\n') {
            lx->at++;
            lx->line++;
            lx->line_start = lx->at;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\r') {
            lx->at++;
            continue;
        }
        return;
    }
}

static int
column(const struct lexer *lx)
{
    return (int)(lx->at - lx->line_start) + 1;
}

/* The next whole number >= 0, `what` naming it in the error. */
static gboolean
next_number(struct lexer *lx, const char *what, gint64 max, gint64 *value)
{
    skip_blanks(lx, FALSE);
    if (*lx->at == '\0') {
        g_set_error(lx->error, TUNE_RULES_ERROR, TUNE_RULES_ERROR_SYNTAX,
                    "%s:%d:%d: the file ends where %s was expected", lx->name, lx->line, column(lx),
                    what);
        return FALSE;
    }
    const char *start = lx->at;
    while (g_ascii_isdigit(*lx->at))
        lx->at++;
    gboolean delimited = *lx->at == '\0' || *lx->at == '#' || g_ascii_isspace(*lx->at);
    guint64 v = 0;
    gboolean ok = lx->at > start && delimited;
    if (ok) {
        gchar *digits = g_strndup(start, (gsize)(lx->at - start));
        ok = g_ascii_string_to_unsigned(digits, 10, 0, (guint64)max, &v, NULL);
        g_free(digits);
    }
    if (!ok) {
        const char *end = start;
        while (*end != '\0' && !g_ascii_isspace(*end) && *end != '#')
            end++;
        gchar *token = g_strndup(start, (gsize)(end - start));
        g_set_error(
            lx->error, TUNE_RULES_ERROR, TUNE_RULES_ERROR_SYNTAX,
            "%s:%d:%d: '%s' where %s was expected (a whole number from 0 to %" G_GINT64_FORMAT ")",
            lx->name, lx->line, (int)(start - lx->line_start) + 1, token, what, max);
        g_free(token);
        return FALSE;
    }
    *value = (gint64)v;
    return TRUE;
}

static gboolean syntax_error_at(struct lexer *lx, int line, int col, const char *fmt, ...)
    G_GNUC_PRINTF(4, 5);

static gboolean
syntax_error_at(struct lexer *lx, int line, int col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    gchar *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    g_set_error(lx->error, TUNE_RULES_ERROR, TUNE_RULES_ERROR_SYNTAX, "%s:%d:%d: %s", lx->name,
                line, col, msg);
    g_free(msg);
    return FALSE;
}

static gboolean
parse_rule(struct lexer *lx, int version, guint index, struct ompi_rule *rule)
{
    gint64 size, alg, fan, seg;
    int line = 0, col = 0;
    skip_blanks(lx, FALSE);
    line = lx->line;
    col = column(lx);
    if (!next_number(lx, "a message size", G_MAXINT64, &size) ||
        !next_number(lx, "an algorithm number", G_MAXINT, &alg) ||
        !next_number(lx, "a fan-in/out", G_MAXINT, &fan) ||
        !next_number(lx, "a segment size", G_MAXINT, &seg))
        return FALSE;
    if (index == 0 && size != 0)
        return syntax_error_at(lx, line, col,
                               "the first message size rule of a comm size must be for size 0 "
                               "(got %" G_GINT64_FORMAT ")",
                               size);
    rule->size = (guint64)size;
    rule->choice = (struct tune_ompi_choice){
        .algorithm = (int)alg, .faninout = (int)fan, .segsize = (int)seg, .max_requests = -1};
    /* version 2: a fifth number on the same line (Open MPI peeks past blanks, not newlines) */
    skip_blanks(lx, TRUE);
    if (version >= 2 && g_ascii_isdigit(*lx->at)) {
        gint64 maxreq;
        if (!next_number(lx, "a max requests", G_MAXINT, &maxreq))
            return FALSE;
        rule->choice.max_requests = (int)maxreq;
    }
    return TRUE;
}

static gboolean
parse_collective(struct lexer *lx, int version, struct tune_ompi_rules *rules)
{
    gint64 id, ncomms;
    skip_blanks(lx, FALSE);
    int line = lx->line, col = column(lx);
    if (!next_number(lx, "a collective id", G_MAXINT, &id))
        return FALSE;
    if (id > OMPI_MAX_ID)
        return syntax_error_at(lx, line, col,
                               "collective id %" G_GINT64_FORMAT
                               " is not a blocking collective (0 allgather ... 16 scatterv)",
                               id);
    if (rules->comms[id] != NULL)
        return syntax_error_at(lx, line, col,
                               "collective id %" G_GINT64_FORMAT " given a second time", id);
    if (!next_number(lx, "a number of comm sizes", G_MAXINT, &ncomms))
        return FALSE;
    GArray *comms = g_array_new(FALSE, FALSE, sizeof(struct ompi_comm));
    rules->comms[id] = comms;
    for (gint64 c = 0; c < ncomms; c++) {
        struct ompi_comm comm = {0};
        gint64 nrules;
        skip_blanks(lx, FALSE);
        line = lx->line;
        col = column(lx);
        if (!next_number(lx, "a comm size", G_MAXINT, &comm.comm_size))
            return FALSE;
        if (comms->len > 0 &&
            comm.comm_size <= g_array_index(comms, struct ompi_comm, comms->len - 1).comm_size)
            return syntax_error_at(lx, line, col,
                                   "comm size %" G_GINT64_FORMAT
                                   " is not above the one before (they must ascend)",
                                   comm.comm_size);
        if (!next_number(lx, "a number of message sizes", G_MAXINT, &nrules))
            return FALSE;
        comm.rules = g_array_new(FALSE, FALSE, sizeof(struct ompi_rule));
        g_array_append_val(comms, comm);
        GArray *list = g_array_index(comms, struct ompi_comm, comms->len - 1).rules;
        for (gint64 r = 0; r < nrules; r++) {
            struct ompi_rule rule;
            skip_blanks(lx, FALSE);
            line = lx->line;
            col = column(lx);
            if (!parse_rule(lx, version, (guint)r, &rule))
                return FALSE;
            if (list->len > 0 &&
                rule.size <= g_array_index(list, struct ompi_rule, list->len - 1).size)
                return syntax_error_at(lx, line, col,
                                       "message size %" G_GUINT64_FORMAT
                                       " is not above the one before (they must ascend)",
                                       rule.size);
            g_array_append_val(list, rule);
        }
    }
    return TRUE;
}

struct tune_ompi_rules *
tune_ompi_parse(const char *text, const char *name, GError **error)
{
    struct lexer lx = {
        .name = name, .text = text, .at = text, .line = 1, .line_start = text, .error = error};
    struct tune_ompi_rules *rules = g_new0(struct tune_ompi_rules, 1);
    int version = 1;
    static const char tag[] = "rule-file-version-";
    if (strncmp(text, tag, strlen(tag)) == 0) {
        lx.at += strlen(tag);
        gint64 v;
        if (!next_number(&lx, "the file format version", 99, &v))
            goto fail;
        version = (int)v;
    }
    gint64 ncoll;
    skip_blanks(&lx, FALSE);
    int line = lx.line, col = column(&lx);
    if (!next_number(&lx, "the number of collectives", G_MAXINT, &ncoll))
        goto fail;
    if (ncoll > OMPI_MAX_ID + 1) {
        syntax_error_at(&lx, line, col, "%" G_GINT64_FORMAT " collectives: more than exist", ncoll);
        goto fail;
    }
    for (gint64 c = 0; c < ncoll; c++)
        if (!parse_collective(&lx, version, rules))
            goto fail;
    skip_blanks(&lx, FALSE);
    if (*lx.at != '\0') {
        syntax_error_at(&lx, lx.line, column(&lx),
                        "text after the last of the %" G_GINT64_FORMAT
                        " collectives (is the count at the top right?)",
                        ncoll);
        goto fail;
    }
    return rules;
fail:
    tune_ompi_rules_free(rules);
    return NULL;
}

struct tune_ompi_rules *
tune_ompi_load(const char *path, GError **error)
{
    gchar *text = NULL;
    GError *read_error = NULL;
    if (!g_file_get_contents(path, &text, NULL, &read_error)) {
        g_set_error(error, TUNE_RULES_ERROR, TUNE_RULES_ERROR_READ, "%s: cannot read it: %s", path,
                    read_error->message);
        g_error_free(read_error);
        return NULL;
    }
    struct tune_ompi_rules *rules = tune_ompi_parse(text, path, error);
    g_free(text);
    return rules;
}

gboolean
tune_ompi_lookup(const struct tune_ompi_rules *rules, int collective_id, int comm_size,
                 guint64 message_size, struct tune_ompi_choice *choice)
{
    if (collective_id < 0 || collective_id > OMPI_MAX_ID || rules->comms[collective_id] == NULL ||
        rules->comms[collective_id]->len == 0)
        return FALSE;
    const GArray *comms = rules->comms[collective_id];
    /* ompi_coll_tuned_get_com_rule_ptr: the last comm size <= comm_size, else the first */
    const struct ompi_comm *comm = &g_array_index(comms, struct ompi_comm, 0);
    for (guint c = 0; c < comms->len; c++) {
        const struct ompi_comm *x = &g_array_index(comms, struct ompi_comm, c);
        if (x->comm_size > comm_size)
            break;
        comm = x;
    }
    /* ompi_coll_tuned_get_target_method_params: no rule, the fixed decision */
    *choice = (struct tune_ompi_choice){.algorithm = 0, .max_requests = -1};
    for (guint r = 0; r < comm->rules->len; r++) {
        const struct ompi_rule *x = &g_array_index(comm->rules, struct ompi_rule, r);
        if (x->size > message_size)
            break;
        *choice = x->choice;
    }
    return TRUE;
}
