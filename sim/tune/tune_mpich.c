/*
 * tune_mpich.c — MPICH collective selection JSON files: the writer `collsim tune` uses and
 * collsim's reader of the format (tune_rules.h).
 *
 * The format: doc/mpich/tuning_parameters.md, section 2.1 "JSON file" (the file given by
 * MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE replaces MPICH's built-in
 * maint/tuning/coll/mpir/generic.json), parsed by parse_json_tree and searched by
 * MPIR_Csel_search in src/mpi/coll/src/csel.c. Every value is an object; each key of an object
 * is a condition ("collective=allreduce", "comm_size<=7", "avg_msg_size<=1023", "any",
 * "KEY=any", ...). The search takes the first key of an object whose condition holds and goes
 * down into its value, never back up: if no key of that value holds, the search finds nothing
 * (and MPICH asserts). A key "algorithm=NAME" (or "composition=NAME") ends the search: NAME is
 * the algorithm, its value holds the algorithm's parameters ("k=2": {}).
 *
 * The sizes csel.c compares (get_avg_msgsize, get_total_msgsize), in collsim's terms:
 *   avg_msg_size: allreduce, bcast, reduce: type size x count = bytes; alltoall: type size x
 *     sendcount = bytes (one block). Not defined for the other collectives.
 *   total_msg_size: allgather: recvcount x type size x P = bytes x P; allgatherv, alltoallv,
 *     alltoallw: the sum over ranks = bytes x P; reduce_scatter: type size x sum(recvcounts) =
 *     bytes; reduce_scatter_block: type size x recvcount x P = bytes; gather, scatter (intra-
 *     communicator): sendcount x P / recvcount x P — csel.c overwrites the type size there, so
 *     this is a count of elements x P, not bytes; allreduce, bcast, reduce, alltoall: bytes x P.
 *     Not defined for barrier, gatherv, scatterv, scan, exscan (their rules use comm_size only).
 * collsim writes avg_msg_size where it is defined, total_msg_size elsewhere. csel.c reads the
 * numbers with atoi, so a threshold above 2^31 - 1 cannot be written (an error says so).
 *
 * Beware, as a user: the file replaces MPICH's whole built-in selection, so every collective
 * the application calls (and those MPICH calls internally, e.g. in MPI_Comm_split) must be in
 * the sweep, or MPICH finds no algorithm for it.
 */
#include "config.h"

#include <string.h>

#include "sim/report/json_api.h"
#include "sim/tune/tune_plan.h"
#include "sim/tune/tune_rules.h"
#include "src/coll/coll_kinds.h"

const char *
tune_mpich_collective(enum coll_kind kind)
{
    /* csel.c's names are the MPI names in lower case, which are collsim's */
    return coll_kind_name(kind);
}

const char *
tune_mpich_size_key(enum coll_kind kind)
{
    switch (kind) {
    case COLL_ALLREDUCE:
    case COLL_BCAST:
    case COLL_REDUCE:
    case COLL_ALLTOALL:
        return "avg_msg_size";
    case COLL_BARRIER:
    case COLL_GATHERV:
    case COLL_SCATTERV:
    case COLL_SCAN:
    case COLL_EXSCAN:
        return NULL;
    default:
        return "total_msg_size";
    }
}

static guint64
total_msg_size(enum coll_kind kind, int nranks, guint64 bytes, guint type_size)
{
    guint64 p = (guint64)nranks;
    switch (kind) {
    case COLL_GATHER:
    case COLL_SCATTER:
        return bytes / (type_size > 0 ? type_size : 1) * p;
    case COLL_REDUCE_SCATTER:
    case COLL_REDUCE_SCATTER_BLOCK:
        return bytes;
    default:
        return bytes * p;
    }
}

guint64
tune_mpich_message_size(enum coll_kind kind, int nranks, guint64 bytes, guint type_size)
{
    const char *key = tune_mpich_size_key(kind);
    if (key == NULL)
        return 0;
    if (strcmp(key, "avg_msg_size") == 0)
        return bytes;
    return total_msg_size(kind, nranks, bytes, type_size);
}

/* ---------------------------------------------------------------- writer */

static gboolean
mpich_has(enum coll_kind kind)
{
    (void)kind;
    return TRUE;
}

static void
add_leaf(JsonBuilder *b, const char *id)
{
    json_builder_begin_object(b);
    gchar *key = g_strdup_printf("algorithm=%s", id);
    json_builder_set_member_name(b, key);
    g_free(key);
    json_builder_begin_object(b);
    json_builder_end_object(b);
    json_builder_end_object(b);
}

static gboolean
add_comm(JsonBuilder *b, enum coll_kind kind, const struct tune_plan_comm *comm, GError **error)
{
    const char *size_key = tune_mpich_size_key(kind);
    if (comm->rules->len == 1 || size_key == NULL) {
        add_leaf(b, g_array_index(comm->rules, struct tune_plan_rule, 0).id);
        return TRUE;
    }
    json_builder_begin_object(b);
    for (guint r = 0; r < comm->rules->len; r++) {
        gchar *key;
        if (r + 1 < comm->rules->len) {
            guint64 next = g_array_index(comm->rules, struct tune_plan_rule, r + 1).key;
            if (next - 1 > G_MAXINT) {
                g_set_error(error, TUNE_RULES_ERROR, TUNE_RULES_ERROR_READ,
                            "%s at %d ranks: a rule starts at %s %" G_GUINT64_FORMAT
                            ", above what MPICH reads (atoi: 2147483647)",
                            coll_kind_name(kind), comm->nranks, size_key, next);
                json_builder_end_object(b);
                return FALSE;
            }
            key = g_strdup_printf("%s<=%" G_GUINT64_FORMAT, size_key, next - 1);
        } else {
            key = g_strdup_printf("%s=any", size_key);
        }
        json_builder_set_member_name(b, key);
        g_free(key);
        add_leaf(b, g_array_index(comm->rules, struct tune_plan_rule, r).id);
    }
    json_builder_end_object(b);
    return TRUE;
}

gboolean
tune_mpich_write(const struct tune_rules_source *source, const char *path, GError **error)
{
    GArray *plan = tune_plan_build(source->table, TUNE_LIBRARY_MPICH, source->mapping, mpich_has,
                                   tune_mpich_message_size);
    if (plan->len == 0) {
        g_set_error(error, TUNE_RULES_ERROR, TUNE_RULES_ERROR_READ,
                    "%s: not written: no collective of the sweep has an algorithm of MPICH", path);
        tune_plan_free(plan);
        return FALSE;
    }
    JsonBuilder *b = json_builder_new();
    json_builder_begin_object(b);
    gboolean ok = TRUE;
    for (guint c = 0; c < plan->len && ok; c++) {
        const struct tune_plan_collective *coll =
            &g_array_index(plan, struct tune_plan_collective, c);
        gchar *key = g_strdup_printf("collective=%s", tune_mpich_collective(coll->kind));
        json_builder_set_member_name(b, key);
        g_free(key);
        json_builder_begin_object(b);
        for (guint m = 0; m < coll->comms->len && ok; m++) {
            const struct tune_plan_comm *comm =
                &g_array_index(coll->comms, struct tune_plan_comm, m);
            gchar *ckey =
                m + 1 < coll->comms->len
                    ? g_strdup_printf(
                          "comm_size<=%d",
                          g_array_index(coll->comms, struct tune_plan_comm, m + 1).nranks - 1)
                    : g_strdup("comm_size=any");
            json_builder_set_member_name(b, ckey);
            g_free(ckey);
            ok = add_comm(b, coll->kind, comm, error);
        }
        json_builder_end_object(b);
    }
    json_builder_end_object(b);
    if (ok) {
        JsonGenerator *gen = json_generator_new();
        JsonNode *root = json_builder_get_root(b);
        json_generator_set_root(gen, root);
        json_generator_set_pretty(gen, TRUE);
        json_generator_set_indent(gen, 2);
        gsize length = 0;
        gchar *text = json_generator_to_data(gen, &length);
        /* json-glib pads an empty object with the indentation: write it as {} */
        GString *t = g_string_new(NULL);
        for (const char *c = text; *c != '\0'; c++) {
            g_string_append_c(t, *c);
            const char *end = c + 1;
            while (*c == '{' && (*end == ' ' || *end == '\n'))
                end++;
            if (*c == '{' && *end == '}') {
                g_string_append_c(t, '}');
                c = end;
            }
        }
        g_string_append_c(t, '\n');
        ok = g_file_set_contents(path, t->str, (gssize)t->len, error);
        g_string_free(t, TRUE);
        g_free(text);
        json_node_unref(root);
        g_object_unref(gen);
    }
    g_object_unref(b);
    tune_plan_free(plan);
    return ok;
}

/* ---------------------------------------------------------------- reader */

struct tune_mpich_rules {
    JsonNode *root;
};

void
tune_mpich_rules_free(struct tune_mpich_rules *rules)
{
    if (rules == NULL)
        return;
    json_node_unref(rules->root);
    g_free(rules);
}

enum cond {
    COND_BAD,
    COND_CONTAINER,
    COND_ANY,
    COND_THREADED,
    COND_COMM_TYPE,
    COND_COLLECTIVE,
    COND_COMM_POW2,
    COND_COMM_NODE,
    COND_COMM_LE,
    COND_COMM_LT,
    COND_COUNT_LE,
    COND_COUNT_LT_POW2,
    COND_AVG_LE,
    COND_AVG_LT,
    COND_TOTAL_LE,
    COND_TOTAL_LT,
    COND_COMMUTATIVE,
    COND_INPLACE,
    COND_BUILTIN,
    COND_REGULAR,
    COND_CONSECUTIVE,
    COND_PPN_LE,
    COND_PPN_LT,
    COND_HIERARCHY,
};

struct condition {
    enum cond what;
    gint64 value;     /* the number of a comparison; 1/0 for yes/no */
    const char *text; /* what follows '=' (collective, comm_type, hierarchy) */
};

/* A number as csel.c's atoi would read it, but only digits are accepted. */
static gboolean
parse_value(const char *text, gint64 *value)
{
    guint64 v;
    if (!g_ascii_string_to_unsigned(text, 10, 0, G_MAXINT, &v, NULL))
        return FALSE;
    *value = (gint64)v;
    return TRUE;
}

/* The condition of a key (blanks already removed, as MPL_strdup_no_spaces does). */
static struct condition
classify(const char *key)
{
    static const struct {
        const char *prefix;
        enum cond what;
    } numbers[] = {
        /* longest first: "comm_size<=" before "comm_size<" */
        {"comm_size<=", COND_COMM_LE},      {"comm_size<", COND_COMM_LT},
        {"count<=", COND_COUNT_LE},         {"avg_msg_size<=", COND_AVG_LE},
        {"avg_msg_size<", COND_AVG_LT},     {"total_msg_size<=", COND_TOTAL_LE},
        {"total_msg_size<", COND_TOTAL_LT}, {"comm_avg_ppn<=", COND_PPN_LE},
        {"comm_avg_ppn<", COND_PPN_LT},
    };
    static const struct {
        const char *name;
        enum cond what;
    } flags[] = {
        {"is_multi_threaded", COND_THREADED}, {"is_commutative", COND_COMMUTATIVE},
        {"is_sendbuf_inplace", COND_INPLACE}, {"is_op_built_in", COND_BUILTIN},
        {"is_block_regular", COND_REGULAR},   {"is_node_consecutive", COND_CONSECUTIVE},
    };
    struct condition c = {.what = COND_BAD};
    size_t len = strlen(key);
    if (g_str_has_prefix(key, "algorithm=") || g_str_has_prefix(key, "composition=")) {
        c.what = COND_CONTAINER;
        return c;
    }
    if (strcmp(key, "any") == 0 || (len >= 4 && strcmp(key + len - 4, "=any") == 0)) {
        c.what = COND_ANY;
        return c;
    }
    for (gsize i = 0; i < G_N_ELEMENTS(numbers); i++) {
        if (g_str_has_prefix(key, numbers[i].prefix)) {
            if (parse_value(key + strlen(numbers[i].prefix), &c.value))
                c.what = numbers[i].what;
            return c;
        }
    }
    for (gsize i = 0; i < G_N_ELEMENTS(flags); i++) {
        size_t n = strlen(flags[i].name);
        if (strncmp(key, flags[i].name, n) == 0 && key[n] == '=') {
            if (strcmp(key + n + 1, "yes") == 0 || strcmp(key + n + 1, "no") == 0) {
                c.what = flags[i].what;
                c.value = strcmp(key + n + 1, "yes") == 0;
            }
            return c;
        }
    }
    if (g_str_has_prefix(key, "collective=")) {
        c.text = key + strlen("collective=");
        enum coll_kind kind;
        /* the nonblocking and neighbourhood names are valid keys that never match here */
        gboolean known = coll_kind_from_name(c.text, &kind) ||
                         (c.text[0] == 'i' && coll_kind_from_name(c.text + 1, &kind)) ||
                         g_str_has_prefix(c.text, "neighbor_") ||
                         g_str_has_prefix(c.text, "ineighbor_");
        c.what = known ? COND_COLLECTIVE : COND_BAD;
        return c;
    }
    if (strcmp(key, "comm_type=intra") == 0 || strcmp(key, "comm_type=inter") == 0) {
        c.what = COND_COMM_TYPE;
        c.value = strcmp(key, "comm_type=intra") == 0;
        return c;
    }
    if (strcmp(key, "comm_size=pow2") == 0)
        c.what = COND_COMM_POW2;
    else if (strcmp(key, "comm_size=node_comm_size") == 0)
        c.what = COND_COMM_NODE;
    else if (strcmp(key, "count<pow2") == 0)
        c.what = COND_COUNT_LT_POW2;
    else if (g_str_has_prefix(key, "comm_hierarchy=")) {
        c.text = key + strlen("comm_hierarchy=");
        const char *ok[] = {"parent", "node_roots", "node", "flat"};
        for (gsize i = 0; i < G_N_ELEMENTS(ok); i++)
            if (strcmp(c.text, ok[i]) == 0)
                c.what = COND_HIERARCHY;
    }
    return c;
}

static gchar *
strip_blanks(const char *key)
{
    GString *s = g_string_new(NULL);
    for (const char *p = key; *p != '\0'; p++)
        if (!g_ascii_isspace(*p))
            g_string_append_c(s, *p);
    return g_string_free(s, FALSE);
}

/* Every value an object, every key a condition csel.c knows; `path` names where. */
static gboolean
validate(JsonNode *node, GString *path, const char *name, GError **error)
{
    if (!JSON_NODE_HOLDS_OBJECT(node)) {
        g_set_error(error, TUNE_RULES_ERROR, TUNE_RULES_ERROR_SYNTAX,
                    "%s: at %s: a value that is not an object (csel.c requires objects)", name,
                    path->len > 0 ? path->str : "the top");
        return FALSE;
    }
    JsonObject *obj = json_node_get_object(node);
    GList *members = json_object_get_members(obj);
    gboolean ok = TRUE;
    for (GList *m = members; m != NULL && ok; m = m->next) {
        const char *key = m->data;
        gchar *clean = strip_blanks(key);
        struct condition c = classify(clean);
        gsize mark = path->len;
        g_string_append_printf(path, "%s\"%s\"", mark > 0 ? " > " : "", key);
        if (c.what == COND_BAD) {
            g_set_error(error, TUNE_RULES_ERROR, TUNE_RULES_ERROR_SYNTAX,
                        "%s: at %s: unknown key (csel.c knows collective=, comm_size<=N, "
                        "avg_msg_size<=N, total_msg_size<=N, count<=N, is_commutative=yes|no, "
                        "..., any, algorithm=NAME)",
                        name, path->str);
            ok = FALSE;
        } else if (c.what == COND_CONTAINER) {
            /* a leaf: its object holds the algorithm's parameters, read by MPICH only */
            if (!JSON_NODE_HOLDS_OBJECT(json_object_get_member(obj, key))) {
                g_set_error(error, TUNE_RULES_ERROR, TUNE_RULES_ERROR_SYNTAX,
                            "%s: at %s: the algorithm's parameters must be an object ({})", name,
                            path->str);
                ok = FALSE;
            }
        } else {
            ok = validate(json_object_get_member(obj, key), path, name, error);
        }
        g_string_truncate(path, mark);
        g_free(clean);
    }
    g_list_free(members);
    return ok;
}

struct tune_mpich_rules *
tune_mpich_parse(const char *text, const char *name, GError **error)
{
    JsonParser *parser = json_parser_new();
    GError *parse_error = NULL;
    struct tune_mpich_rules *rules = NULL;
    if (!json_parser_load_from_data(parser, text, -1, &parse_error)) {
        /* json-glib's message starts with "<data>:LINE:COLUMN: " */
        const char *msg = parse_error->message;
        if (g_str_has_prefix(msg, "<data>"))
            msg += strlen("<data>");
        g_set_error(error, TUNE_RULES_ERROR, TUNE_RULES_ERROR_SYNTAX, "%s%s%s", name,
                    msg[0] == ':' ? "" : ": ", msg);
        g_error_free(parse_error);
        goto out;
    }
    JsonNode *root = json_parser_get_root(parser);
    GString *path = g_string_new(NULL);
    gboolean ok = root != NULL;
    if (!ok)
        g_set_error(error, TUNE_RULES_ERROR, TUNE_RULES_ERROR_SYNTAX, "%s: empty file", name);
    else
        ok = validate(root, path, name, error);
    g_string_free(path, TRUE);
    if (ok) {
        rules = g_new0(struct tune_mpich_rules, 1);
        rules->root = json_node_copy(root);
    }
out:
    g_object_unref(parser);
    return rules;
}

struct tune_mpich_rules *
tune_mpich_load(const char *path, GError **error)
{
    gchar *text = NULL;
    GError *read_error = NULL;
    if (!g_file_get_contents(path, &text, NULL, &read_error)) {
        g_set_error(error, TUNE_RULES_ERROR, TUNE_RULES_ERROR_READ, "%s: cannot read it: %s", path,
                    read_error->message);
        g_error_free(read_error);
        return NULL;
    }
    struct tune_mpich_rules *rules = tune_mpich_parse(text, path, error);
    g_free(text);
    return rules;
}

static int
pof2_below(int n)
{
    int p = 1;
    while (p * 2 <= n)
        p *= 2;
    return p;
}

/* get_count of csel.c: elements of the call, -1 where it is not defined */
static gint64
call_count(const struct tune_mpich_call *call)
{
    guint64 elements = call->bytes / (call->type_size > 0 ? call->type_size : 1);
    switch (call->kind) {
    case COLL_BCAST:
    case COLL_ALLREDUCE:
    case COLL_REDUCE:
    case COLL_ALLGATHER:
    case COLL_REDUCE_SCATTER:
        return (gint64)elements;
    case COLL_ALLGATHERV:
        return (gint64)elements * call->comm_size;
    case COLL_REDUCE_SCATTER_BLOCK:
        return (gint64)elements / call->comm_size;
    default:
        return -1;
    }
}

/* Whether the condition holds; -1 when csel.c would assert (a size it does not define). */
static int
holds(const struct condition *c, const struct tune_mpich_call *call)
{
    gint64 p = call->comm_size;
    gint64 v;
    switch (c->what) {
    case COND_ANY:
        return 1;
    case COND_THREADED:
        return c->value == 0;
    case COND_COMM_TYPE:
        return c->value == 1;
    case COND_COLLECTIVE:
        return strcmp(c->text, tune_mpich_collective(call->kind)) == 0;
    case COND_COMM_POW2:
        return (p & (p - 1)) == 0;
    case COND_COMM_NODE:
        return p == 1; /* one process per node */
    case COND_COMM_LE:
        return p <= c->value;
    /* prune_tree (run when the communicator is made) compares with <; the later search
     * compares with <=, but the pruned tree no longer holds the node */
    case COND_COMM_LT:
        return p < c->value;
    case COND_COUNT_LE:
        v = call_count(call);
        return v < 0 ? -1 : v <= c->value;
    case COND_COUNT_LT_POW2:
        v = call_count(call);
        return v < 0 ? -1 : v < pof2_below((int)p);
    case COND_AVG_LE:
    case COND_AVG_LT:
        if (tune_mpich_size_key(call->kind) == NULL ||
            strcmp(tune_mpich_size_key(call->kind), "avg_msg_size") != 0)
            return -1;
        v = (gint64)call->bytes;
        return c->what == COND_AVG_LE ? v <= c->value : v < c->value;
    case COND_TOTAL_LE:
    case COND_TOTAL_LT:
        if (tune_mpich_size_key(call->kind) == NULL)
            return -1;
        v = (gint64)total_msg_size(call->kind, call->comm_size, call->bytes, call->type_size);
        return c->what == COND_TOTAL_LE ? v <= c->value : v < c->value;
    case COND_COMMUTATIVE:
        return c->value == (call->commutative ? 1 : 0);
    case COND_INPLACE:
        return c->value == (call->in_place ? 1 : 0);
    case COND_BUILTIN:
    case COND_REGULAR:
    case COND_CONSECUTIVE:
        return c->value == 1;
    case COND_PPN_LE:
        return 1 <= c->value;
    case COND_PPN_LT:
        return 1 < c->value;
    case COND_HIERARCHY:
        return strcmp(c->text, "flat") == 0;
    default:
        return 0;
    }
}

const char *
tune_mpich_lookup(const struct tune_mpich_rules *rules, const struct tune_mpich_call *call)
{
    JsonNode *node = rules->root;
    for (;;) {
        JsonObject *obj = json_node_get_object(node);
        GList *members = json_object_get_members(obj);
        JsonNode *next = NULL;
        const char *leaf = NULL;
        gboolean stop = FALSE;
        for (GList *m = members; m != NULL && next == NULL && !stop; m = m->next) {
            const char *key = m->data;
            gchar *clean = strip_blanks(key);
            struct condition c = classify(clean);
            if (c.what == COND_CONTAINER) {
                /* the key's text in the file: strings owned by the tree */
                leaf = strchr(key, '=') + 1;
                stop = TRUE;
                g_free(clean);
                continue;
            }
            int h = holds(&c, call); /* c.text points into clean */
            g_free(clean);
            if (h < 0)
                stop = TRUE;
            else if (h > 0)
                next = json_object_get_member(obj, key);
        }
        g_list_free(members);
        if (leaf != NULL)
            return leaf;
        if (next == NULL)
            return NULL;
        node = next;
    }
}
