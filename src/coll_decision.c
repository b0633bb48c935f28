/*
 * coll_decision.c — the reader of the libraries' decision files, and the lookups (see
 * coll_decision.h for the format and the invariants a loaded decision keeps).
 *
 * The reader goes line by line and stops at the first fault, which it reports as
 * `FILE:LINE: what is wrong`; a section is checked when the next one starts and at the end of
 * the file (it must end with an unconditional rule). Nothing here depends on the order of a
 * hash table: sections are indexed by kind, entries and rules kept in file order.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "coll_decision.h"

G_DEFINE_QUARK(collsim-decision-error-quark, coll_decision_error)

#ifndef COLLSIM_DECISION_DIR
#define COLLSIM_DECISION_DIR "/nonexistent"
#endif
#ifndef COLLSIM_SOURCE_DECISION_DIR
#define COLLSIM_SOURCE_DECISION_DIR "models/decisions"
#endif

#define DECISION_SUFFIX ".rules"

/* ---------------------------------------------------------------- freeing */

static void
entry_free(gpointer data)
{
    struct coll_decision_entry *e = data;
    g_free(e->id);
    g_free(e->short_name);
    g_free(e->collsim);
    g_free(e);
}

static void
rule_free(gpointer data)
{
    struct coll_decision_rule *r = data;
    g_free(r->text);
    g_array_free(r->conditions, TRUE);
    g_free(r);
}

static void
section_free(struct coll_decision_section *s)
{
    if (s == NULL)
        return;
    g_ptr_array_free(s->rules, TRUE);
    g_ptr_array_free(s->entries, TRUE);
    g_free(s);
}

void
coll_decision_free(struct coll_decision *decision)
{
    if (decision == NULL)
        return;
    for (int k = 0; k < COLL_KIND_COUNT; k++)
        section_free(decision->sections[k]);
    g_ptr_array_free(decision->unresolved, TRUE);
    g_free(decision->path);
    g_free(decision->name);
    g_free(decision->library);
    g_free(decision->version);
    g_free(decision->source);
    g_free(decision);
}

/* ---------------------------------------------------------------- reading */

struct reader {
    struct coll_decision *d;
    unsigned flags;
    int line;
    struct coll_decision_section *section; /* the one being read, or NULL */
    GError **error;
};

static gboolean
fail(struct reader *rd, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

static gboolean
fail(struct reader *rd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    gchar *what = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    g_set_error(rd->error, COLL_DECISION_ERROR, COLL_DECISION_ERROR_SYNTAX, "%s:%d: %s",
                rd->d->path, rd->line, what);
    g_free(what);
    return FALSE;
}

/* A plain decimal integer (no sign, no unit) into *value. */
static gboolean
parse_number(const char *text, guint64 *value)
{
    if (*text == '\0')
        return FALSE;
    for (const char *c = text; *c != '\0'; c++)
        if (!g_ascii_isdigit(*c))
            return FALSE;
    gchar *end = NULL;
    errno = 0;
    *value = g_ascii_strtoull(text, &end, 10);
    return errno == 0 && end != NULL && *end == '\0';
}

/* `segment_bytes=B` and `radix=K` tokens into *params. */
static gboolean
parse_params(struct reader *rd, gchar **tokens, struct coll_params *params)
{
    for (gchar **t = tokens; *t != NULL; t++) {
        if (**t == '\0')
            continue;
        const char *eq = strchr(*t, '=');
        g_autofree gchar *key = eq != NULL ? g_strndup(*t, (gsize)(eq - *t)) : g_strdup(*t);
        guint64 v = 0;
        if (strcmp(key, "segment_bytes") != 0 && strcmp(key, "radix") != 0)
            return fail(rd, "unknown parameter '%s' (segment_bytes=B, radix=K)", *t);
        if (eq == NULL || !parse_number(eq + 1, &v) || v > G_MAXINT)
            return fail(rd, "bad number in '%s' (a plain integer)", *t);
        if (strcmp(key, "segment_bytes") == 0) {
            if (v == 0)
                return fail(rd, "segment_bytes must be positive (got '%s')", *t);
            params->segment_bytes = (int)v;
        } else {
            if (v < 2)
                return fail(rd, "radix must be at least 2 (got '%s')", *t);
            params->radix = (int)v;
        }
    }
    return TRUE;
}

/* Parameters given to a row that does not use them: an error when the row is known. */
static gboolean
check_params(struct reader *rd, const struct coll_algorithm *row, const struct coll_params *p)
{
    if (row == NULL)
        return TRUE;
    if (p->segment_bytes != 0 && !(row->caps & COLL_SEGMENTED))
        return fail(rd, "%s %s takes no segment_bytes", coll_kind_name(row->kind), row->name);
    if (p->radix != 0 && !(row->caps & COLL_RADIX))
        return fail(rd, "%s %s takes no radix", coll_kind_name(row->kind), row->name);
    return TRUE;
}

/* Split on runs of blanks. */
static gchar **
split_words(const char *text)
{
    GPtrArray *words = g_ptr_array_new();
    const char *c = text;
    while (*c != '\0') {
        while (g_ascii_isspace(*c))
            c++;
        const char *start = c;
        while (*c != '\0' && !g_ascii_isspace(*c))
            c++;
        if (c > start)
            g_ptr_array_add(words, g_strndup(start, (gsize)(c - start)));
    }
    g_ptr_array_add(words, NULL);
    return (gchar **)g_ptr_array_free(words, FALSE);
}

static const struct coll_decision_entry *
section_entry(const struct coll_decision_section *s, const char *name)
{
    for (guint i = 0; i < s->entries->len; i++) {
        const struct coll_decision_entry *e = g_ptr_array_index(s->entries, i);
        if (strcmp(e->short_name, name) == 0 || strcmp(e->id, name) == 0)
            return e;
    }
    return NULL;
}

/* algorithm ID SHORT = COLLSIM [params] */
static gboolean
read_entry(struct reader *rd, const char *rest)
{
    struct coll_decision_section *s = rd->section;
    g_auto(GStrv) words = split_words(rest);
    guint n = g_strv_length(words);
    if (n < 4 || strcmp(words[2], "=") != 0)
        return fail(rd, "an algorithm line is 'algorithm ID SHORT_NAME = COLLSIM_NAME "
                        "[segment_bytes=B] [radix=K]'");
    if (s->rules->len > 0)
        return fail(rd, "algorithm '%s' after the section's first rule (catalogue first)",
                    words[1]);
    for (guint i = 0; i < s->entries->len; i++) {
        const struct coll_decision_entry *e = g_ptr_array_index(s->entries, i);
        if (strcmp(e->id, words[0]) == 0)
            return fail(rd, "duplicate algorithm id '%s' (line %d)", words[0], e->line);
        if (strcmp(e->short_name, words[1]) == 0)
            return fail(rd, "duplicate algorithm name '%s' (line %d)", words[1], e->line);
    }
    struct coll_params params = {0, 0};
    if (!parse_params(rd, words + 4, &params))
        return FALSE;
    const struct coll_algorithm *row = coll_registry_find(s->kind, words[3]);
    if (row == NULL) {
        if (rd->flags & COLL_DECISION_STRICT)
            return fail(rd, "unknown collsim algorithm '%s' for %s (see collsim list "
                            "algorithms)", words[3], coll_kind_name(s->kind));
        g_ptr_array_add(rd->d->unresolved,
                        g_strdup_printf("%s:%d: %s %s: no collsim algorithm '%s' in this build",
                                        rd->d->path, rd->line, coll_kind_name(s->kind), words[1],
                                        words[3]));
    }
    if (!check_params(rd, row, &params))
        return FALSE;
    struct coll_decision_entry *e = g_new0(struct coll_decision_entry, 1);
    e->id = g_strdup(words[0]);
    e->short_name = g_strdup(words[1]);
    e->collsim = g_strdup(words[3]);
    e->params = params;
    e->line = rd->line;
    e->row = row;
    g_ptr_array_add(s->entries, e);
    return TRUE;
}

static gboolean
parse_condition(struct reader *rd, const char *text, struct coll_decision_rule *rule)
{
    static const struct {
        const char *word;
        unsigned flag;
    } flags[] = {
        {"commutative", COLL_DECISION_IF_COMMUTATIVE},
        {"noncommutative", COLL_DECISION_IF_NONCOMMUTATIVE},
        {"pof2", COLL_DECISION_IF_POF2},
        {"not_pof2", COLL_DECISION_IF_NOT_POF2},
        {"count_below_pof2", COLL_DECISION_IF_COUNT_BELOW_POF2},
        {"count_below_ranks", COLL_DECISION_IF_COUNT_BELOW_RANKS},
    };
    static const char *const variables[] = {"ranks", "bytes", "total_bytes", "count",
                                            "block_bytes"};
    static const char *const relations[] = {"<", "<=", ">", ">=", "=="};
    for (gsize i = 0; i < G_N_ELEMENTS(flags); i++) {
        if (strcmp(text, flags[i].word) == 0) {
            rule->flags |= flags[i].flag;
            return TRUE;
        }
    }
    g_auto(GStrv) words = split_words(text);
    if (words[0] == NULL)
        return fail(rd, "empty condition (conditions are joined by ',')");
    gsize v = 0;
    while (v < G_N_ELEMENTS(variables) && strcmp(words[0], variables[v]) != 0)
        v++;
    if (v == G_N_ELEMENTS(variables))
        return fail(rd, "unknown condition '%s' (ranks, bytes, total_bytes, block_bytes or "
                        "count OP N; commutative, noncommutative, pof2, not_pof2, "
                        "count_below_pof2, count_below_ranks)", text);
    if (g_strv_length(words) != 3)
        return fail(rd, "condition '%s' is not '%s OP N'", text, variables[v]);
    gsize r = 0;
    while (r < G_N_ELEMENTS(relations) && strcmp(words[1], relations[r]) != 0)
        r++;
    if (r == G_N_ELEMENTS(relations))
        return fail(rd, "unknown comparison '%s' in '%s' (<, <=, >, >=, ==)", words[1], text);
    struct coll_decision_condition c = {(enum coll_decision_variable)v,
                                        (enum coll_decision_relation)r, 0};
    if (!parse_number(words[2], &c.value))
        return fail(rd, "bad number '%s' in '%s' (a plain integer)", words[2], text);
    g_array_append_val(rule->conditions, c);
    return TRUE;
}

/* rule CONDITIONS => NAME [params] */
static gboolean
read_rule(struct reader *rd, const char *rest, const char *whole)
{
    struct coll_decision_section *s = rd->section;
    const char *arrow = strstr(rest, "=>");
    if (arrow == NULL)
        return fail(rd, "a rule is 'rule [CONDITIONS] => ALGORITHM [params]'");
    if (s->rules->len > 0) {
        const struct coll_decision_rule *last = g_ptr_array_index(s->rules, s->rules->len - 1);
        if (last->flags == 0 && last->conditions->len == 0)
            return fail(rd, "rule after the unconditional rule of line %d is never used",
                        last->line);
    }
    struct coll_decision_rule *rule = g_new0(struct coll_decision_rule, 1);
    rule->line = rd->line;
    rule->text = g_strdup(whole);
    rule->conditions = g_array_new(FALSE, FALSE, sizeof(struct coll_decision_condition));
    g_ptr_array_add(s->rules, rule);

    g_autofree gchar *conditions = g_strstrip(g_strndup(rest, (gsize)(arrow - rest)));
    if (*conditions != '\0') {
        g_auto(GStrv) parts = g_strsplit(conditions, ",", -1);
        for (gchar **p = parts; *p != NULL; p++)
            if (!parse_condition(rd, g_strstrip(*p), rule))
                return FALSE;
    }
    if ((rule->flags & COLL_DECISION_IF_COMMUTATIVE) &&
        (rule->flags & COLL_DECISION_IF_NONCOMMUTATIVE))
        return fail(rd, "a rule cannot be both commutative and noncommutative");
    if ((rule->flags & COLL_DECISION_IF_POF2) && (rule->flags & COLL_DECISION_IF_NOT_POF2))
        return fail(rd, "a rule cannot be both pof2 and not_pof2");
    g_auto(GStrv) words = split_words(arrow + 2);
    if (words[0] == NULL)
        return fail(rd, "rule without an algorithm after '=>'");
    rule->entry = section_entry(s, words[0]);
    if (rule->entry == NULL)
        return fail(rd, "'%s' is not in the %s catalogue (an 'algorithm' line of this section)",
                    words[0], coll_kind_name(s->kind));
    if (!parse_params(rd, words + 1, &rule->params))
        return FALSE;
    return check_params(rd, rule->entry->row, &rule->params);
}

/* The checks of a finished section. */
static gboolean
close_section(struct reader *rd)
{
    struct coll_decision_section *s = rd->section;
    if (s == NULL)
        return TRUE;
    rd->section = NULL;
    if (s->rules->len == 0) {
        rd->line = s->line;
        return fail(rd, "section [%s] has no rule", coll_kind_name(s->kind));
    }
    const struct coll_decision_rule *last = g_ptr_array_index(s->rules, s->rules->len - 1);
    if (last->flags != 0 || last->conditions->len != 0) {
        rd->line = last->line;
        return fail(rd, "the last rule of [%s] has conditions (it must be 'rule => NAME', "
                        "what the library does otherwise)", coll_kind_name(s->kind));
    }
    return TRUE;
}

static gboolean
open_section(struct reader *rd, const char *text)
{
    if (!close_section(rd))
        return FALSE;
    gsize len = strlen(text);
    if (len < 3 || text[len - 1] != ']')
        return fail(rd, "a section header is '[COLLECTIVE]'");
    g_autofree gchar *name = g_strstrip(g_strndup(text + 1, len - 2));
    enum coll_kind kind;
    if (!coll_kind_from_name(name, &kind))
        return fail(rd, "unknown collective '%s' (e.g. bcast, allreduce; collsim list "
                        "collectives)", name);
    if (rd->d->sections[kind] != NULL)
        return fail(rd, "duplicate section [%s] (first at line %d)", name,
                    rd->d->sections[kind]->line);
    if (rd->d->library == NULL || rd->d->version == NULL)
        return fail(rd, "'library = ...' and 'version = ...' must come before the first "
                        "section");
    struct coll_decision_section *s = g_new0(struct coll_decision_section, 1);
    s->kind = kind;
    s->line = rd->line;
    s->entries = g_ptr_array_new_with_free_func(entry_free);
    s->rules = g_ptr_array_new_with_free_func(rule_free);
    rd->d->sections[kind] = s;
    rd->section = s;
    return TRUE;
}

/* library = / version = / source = before the first section. */
static gboolean
read_header(struct reader *rd, const char *text)
{
    const char *eq = strchr(text, '=');
    if (eq == NULL)
        return fail(rd, "unknown line '%s' (before the first section: library = NAME, "
                        "version = TEXT, source = TEXT)", text);
    g_autofree gchar *key = g_strstrip(g_strndup(text, (gsize)(eq - text)));
    gchar *value = g_strstrip(g_strdup(eq + 1));
    gchar **slot = strcmp(key, "library") == 0   ? &rd->d->library
                   : strcmp(key, "version") == 0 ? &rd->d->version
                   : strcmp(key, "source") == 0  ? &rd->d->source
                                                 : NULL;
    if (slot == NULL || *value == '\0' || *slot != NULL) {
        g_free(value);
        if (slot == NULL)
            return fail(rd, "unknown key '%s' (library, version, source)", key);
        return fail(rd, *slot != NULL ? "'%s' given twice" : "'%s' needs a value", key);
    }
    *slot = value;
    return TRUE;
}

static gboolean
read_line(struct reader *rd, char *line)
{
    char *hash = strchr(line, '#');
    if (hash != NULL)
        *hash = '\0';
    g_strstrip(line);
    if (*line == '\0')
        return TRUE;
    if (*line == '[')
        return open_section(rd, line);
    if (rd->section == NULL)
        return read_header(rd, line);
    if (g_str_has_prefix(line, "algorithm") && g_ascii_isspace(line[strlen("algorithm")]))
        return read_entry(rd, line + strlen("algorithm"));
    if (g_str_has_prefix(line, "rule") &&
        (g_ascii_isspace(line[strlen("rule")]) || line[strlen("rule")] == '='))
        return read_rule(rd, line + strlen("rule"), line);
    g_auto(GStrv) words = split_words(line);
    return fail(rd, "unknown word '%s' (a section has 'algorithm ...' and 'rule ...' lines)",
                words[0]);
}

struct coll_decision *
coll_decision_load(const char *path, unsigned flags, GError **error)
{
    g_return_val_if_fail(path != NULL, NULL);
    gchar *text = NULL;
    GError *read_error = NULL;
    if (!g_file_get_contents(path, &text, NULL, &read_error)) {
        g_set_error(error, COLL_DECISION_ERROR, COLL_DECISION_ERROR_READ, "%s",
                    read_error->message);
        g_error_free(read_error);
        return NULL;
    }
    struct coll_decision *d = g_new0(struct coll_decision, 1);
    d->path = g_strdup(path);
    g_autofree gchar *base = g_path_get_basename(path);
    d->name = g_str_has_suffix(base, DECISION_SUFFIX)
                  ? g_strndup(base, strlen(base) - strlen(DECISION_SUFFIX))
                  : g_strdup(base);
    d->unresolved = g_ptr_array_new_with_free_func(g_free);
    struct reader rd = {d, flags, 0, NULL, error};
    gchar **lines = g_strsplit(text, "\n", -1);
    g_free(text);
    gboolean ok = TRUE;
    for (gchar **l = lines; ok && *l != NULL; l++) {
        if (l[1] == NULL && **l == '\0')
            break; /* the piece after the last newline: not a line of the file */
        rd.line++;
        ok = read_line(&rd, *l);
    }
    g_strfreev(lines);
    if (ok)
        ok = close_section(&rd);
    if (ok && (d->library == NULL || d->version == NULL)) {
        rd.line = 1;
        ok = fail(&rd, "no 'library = NAME' and 'version = TEXT' lines");
    }
    if (ok) {
        int sections = 0;
        for (int k = 0; k < COLL_KIND_COUNT; k++)
            sections += d->sections[k] != NULL;
        if (sections == 0)
            ok = fail(&rd, "no section ([COLLECTIVE] with algorithm and rule lines)");
    }
    if (!ok) {
        coll_decision_free(d);
        return NULL;
    }
    return d;
}

/* ---------------------------------------------------------------- finding a library's file */

const char *
coll_decision_dir(void)
{
    return g_file_test(COLLSIM_DECISION_DIR, G_FILE_TEST_IS_DIR) ? COLLSIM_DECISION_DIR
                                                                  : COLLSIM_SOURCE_DECISION_DIR;
}

static gint
compare_names(gconstpointer a, gconstpointer b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

gchar **
coll_decision_libraries(void)
{
    GPtrArray *names = g_ptr_array_new();
    GDir *dir = g_dir_open(coll_decision_dir(), 0, NULL);
    const char *file;
    while (dir != NULL && (file = g_dir_read_name(dir)) != NULL)
        if (g_str_has_suffix(file, DECISION_SUFFIX) && strlen(file) > strlen(DECISION_SUFFIX))
            g_ptr_array_add(names, g_strndup(file, strlen(file) - strlen(DECISION_SUFFIX)));
    if (dir != NULL)
        g_dir_close(dir);
    /* the directory's order is the file system's: sort for a stable output */
    g_ptr_array_sort(names, compare_names);
    g_ptr_array_add(names, NULL);
    return (gchar **)g_ptr_array_free(names, FALSE);
}

gboolean
coll_decision_is_library(const char *name)
{
    g_auto(GStrv) known = coll_decision_libraries();
    return name != NULL && g_strv_contains((const gchar *const *)known, name);
}

gchar *
coll_decision_find(const char *spec, GError **error)
{
    if (g_str_has_suffix(spec, DECISION_SUFFIX) || strchr(spec, '/') != NULL)
        return g_strdup(spec);
    gchar *path = g_strdup_printf("%s/%s%s", coll_decision_dir(), spec, DECISION_SUFFIX);
    if (g_file_test(path, G_FILE_TEST_IS_REGULAR))
        return path;
    g_free(path);
    g_auto(GStrv) known = coll_decision_libraries();
    g_autofree gchar *list = g_strjoinv(", ", known);
    g_set_error(error, COLL_DECISION_ERROR, COLL_DECISION_ERROR_READ,
                "unknown library '%s' (%s%s" COLL_DECISION_COLLSIM ", or a FILE.rules)", spec,
                list, *list != '\0' ? ", " : "");
    return NULL;
}

struct coll_decision *
coll_decision_open(const char *spec, unsigned flags, GError **error)
{
    g_autofree gchar *path = coll_decision_find(spec, error);
    return path != NULL ? coll_decision_load(path, flags, error) : NULL;
}

/* ---------------------------------------------------------------- answering */

static gboolean
compare(guint64 left, enum coll_decision_relation relation, guint64 right)
{
    switch (relation) {
    case COLL_DECISION_LT:
        return left < right;
    case COLL_DECISION_LE:
        return left <= right;
    case COLL_DECISION_GT:
        return left > right;
    case COLL_DECISION_GE:
        return left >= right;
    case COLL_DECISION_EQ:
        return left == right;
    }
    return FALSE;
}

gboolean
coll_decision_rule_matches(const struct coll_decision_rule *rule, const struct coll_call *call)
{
    gboolean pof2 = call->comm_size > 0 && (call->comm_size & (call->comm_size - 1)) == 0;
    if (((rule->flags & COLL_DECISION_IF_COMMUTATIVE) && !call->commutative) ||
        ((rule->flags & COLL_DECISION_IF_NONCOMMUTATIVE) && call->commutative) ||
        ((rule->flags & COLL_DECISION_IF_POF2) && !pof2) ||
        ((rule->flags & COLL_DECISION_IF_NOT_POF2) && pof2))
        return FALSE;
    if ((rule->flags & COLL_DECISION_IF_COUNT_BELOW_RANKS) && call->count >= call->comm_size)
        return FALSE;
    if (rule->flags & COLL_DECISION_IF_COUNT_BELOW_POF2) {
        int below = 1; /* the largest power of two <= ranks */
        while (below <= call->comm_size / 2)
            below *= 2;
        if (call->count >= below)
            return FALSE;
    }
    for (guint i = 0; i < rule->conditions->len; i++) {
        const struct coll_decision_condition *c =
            &g_array_index(rule->conditions, struct coll_decision_condition, i);
        guint64 value = c->variable == COLL_DECISION_RANKS   ? (guint64)call->comm_size
                        : c->variable == COLL_DECISION_BYTES ? (guint64)call->bytes
                        : c->variable == COLL_DECISION_COUNT
                            ? (guint64)(call->count > 0 ? call->count : 0)
                        : c->variable == COLL_DECISION_BLOCK
                            ? (guint64)call->bytes / (guint64)MAX(call->comm_size, 1)
                            : (guint64)call->bytes * (guint64)call->comm_size;
        if (!compare(value, c->relation, c->value))
            return FALSE;
    }
    return TRUE;
}

gboolean
coll_decision_choose(const struct coll_decision *decision, const struct coll_call *call,
                     struct coll_decision_choice *choice)
{
    memset(choice, 0, sizeof *choice);
    const struct coll_decision_section *s = decision->sections[call->kind];
    if (s == NULL)
        return FALSE;
    for (guint i = 0; i < s->rules->len; i++) {
        const struct coll_decision_rule *rule = g_ptr_array_index(s->rules, i);
        if (!coll_decision_rule_matches(rule, call))
            continue;
        choice->rule = rule;
        choice->entry = rule->entry;
        choice->row = rule->entry->row;
        struct coll_params p = choice->row != NULL ? choice->row->defaults
                                                   : (struct coll_params){0, 0};
        if (rule->entry->params.segment_bytes > 0)
            p.segment_bytes = rule->entry->params.segment_bytes;
        if (rule->entry->params.radix > 0)
            p.radix = rule->entry->params.radix;
        if (rule->params.segment_bytes > 0)
            p.segment_bytes = rule->params.segment_bytes;
        if (rule->params.radix > 0)
            p.radix = rule->params.radix;
        choice->params = p;
        return TRUE;
    }
    return FALSE; /* not reached: a section ends with an unconditional rule */
}

const struct coll_decision_entry *
coll_decision_entry_find(const struct coll_decision *decision, enum coll_kind kind,
                         const char *id_or_short_name)
{
    const struct coll_decision_section *s = decision->sections[kind];
    return s != NULL ? section_entry(s, id_or_short_name) : NULL;
}

const char *
coll_decision_library_id(const struct coll_decision *decision, enum coll_kind kind,
                         const char *collsim_name, const struct coll_params *params)
{
    const struct coll_decision_section *s = decision->sections[kind];
    const struct coll_decision_entry *first = NULL;
    for (guint i = 0; s != NULL && i < s->entries->len; i++) {
        const struct coll_decision_entry *e = g_ptr_array_index(s->entries, i);
        if (strcmp(e->collsim, collsim_name) != 0)
            continue;
        if (params == NULL)
            return e->id;
        if ((params->segment_bytes == 0 || params->segment_bytes == e->params.segment_bytes) &&
            (params->radix == 0 || params->radix == e->params.radix))
            return e->id;
        if (first == NULL)
            first = e;
    }
    return first != NULL ? first->id : NULL;
}

const char *
coll_decision_collsim_name(const struct coll_decision *decision, enum coll_kind kind,
                           const char *library_id)
{
    const struct coll_decision_section *s = decision->sections[kind];
    for (guint i = 0; s != NULL && i < s->entries->len; i++) {
        const struct coll_decision_entry *e = g_ptr_array_index(s->entries, i);
        if (strcmp(e->id, library_id) == 0)
            return e->collsim;
    }
    return NULL;
}

gchar *
coll_decision_rule_conditions(const struct coll_decision_rule *rule)
{
    static const char *const variables[] = {"ranks", "bytes", "total_bytes", "count",
                                            "block_bytes"};
    static const char *const relations[] = {"<", "<=", ">", ">=", "=="};
    static const struct {
        unsigned flag;
        const char *word;
    } flags[] = {
        {COLL_DECISION_IF_COMMUTATIVE, "commutative"},
        {COLL_DECISION_IF_NONCOMMUTATIVE, "noncommutative"},
        {COLL_DECISION_IF_POF2, "pof2"},
        {COLL_DECISION_IF_NOT_POF2, "not_pof2"},
        {COLL_DECISION_IF_COUNT_BELOW_POF2, "count_below_pof2"},
        {COLL_DECISION_IF_COUNT_BELOW_RANKS, "count_below_ranks"},
    };
    GString *text = g_string_new(NULL);
    for (gsize i = 0; i < G_N_ELEMENTS(flags); i++)
        if (rule->flags & flags[i].flag)
            g_string_append_printf(text, "%s%s", text->len ? ", " : "", flags[i].word);
    for (guint i = 0; i < rule->conditions->len; i++) {
        const struct coll_decision_condition *c =
            &g_array_index(rule->conditions, struct coll_decision_condition, i);
        g_string_append_printf(text, "%s%s %s %" G_GUINT64_FORMAT, text->len ? ", " : "",
                               variables[c->variable], relations[c->relation], c->value);
    }
    if (text->len == 0)
        g_string_append(text, "otherwise");
    return g_string_free(text, FALSE);
}
