/*
 * explain.c — `collsim explain`: run one collective algorithm with the witness payload of
 * `collsim order` (sim/order/witness_expr.h: every element is a handle naming which ranks'
 * contributions it folds) and print its rounds: who sends which partial result to whom, and
 * which partial result every rank holds after each round.
 *
 * What is recorded, in simulation order (deterministic): each message as it starts (the
 * transport's observer, sim/transport/p2p_observe.h) with its payload's handles, each receive
 * as it completes, and each application of the op with the rank that applied it
 * (witness_expr_set_observer).
 *
 * Rounds: a message's round is 1 + the highest round of anything its sender did before
 * starting it — its own earlier messages, and the messages whose receive it had completed
 * (a Lamport clock counting messages). So messages that need nothing from each other share a
 * round, a message that forwards what arrived in round k is in round k + 1 or later, and a
 * rank that sends twice in a row (a root feeding its children) uses two rounds, as its port
 * does. An application of the op belongs to the round its rank had reached when applying it.
 *
 * Holds: what a rank holds after round t is the largest partial result (most contributions;
 * the later of equals) it had started with, received or computed by the end of round t. With
 * the witness every element of a contribution is the same symbol, so one partial result per
 * rank tells the story (an algorithm that splits the vector shows its largest piece).
 *
 * Notation (figure 5.1 of the MPI standard calls process i's data A0, B0, ...; letters run
 * out at 26 ranks, so collsim numbers them): r<i> is rank i's contribution; [a..b] is
 * ra+...+rb combined in rank order, however bracketed; X+Y is X combined with Y, X the left
 * operand (written when the parts are not in rank order); - is nothing yet.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/cli/explain.h"
#include "sim/engine/engine.h"
#include "sim/engine/rank.h"
#include "sim/order/order.h"
#include "sim/order/witness_expr.h"
#include "sim/transport/p2p_observe.h"
#include "src/coll/coll_registry.h"
#include "src/coll/coll_select.h"

enum { EXPLAIN_EXIT_OK = 0, EXPLAIN_EXIT_USAGE = 2, EXPLAIN_EXIT_FAILED = 4 };

/* Lines are wrapped to this many columns. */
#define EXPLAIN_COLUMNS 100

/* ---------------------------------------------------------------- what the run did */

struct walk_msg {
    guint64 serial;
    int src, dst, round;
    GArray *content; /* gint64 handles, or NULL when the payload is not witness elements */
    gsize bytes;
};

struct walk_event {
    int rank, clock;
    gint64 expr;
};

static struct {
    int nranks;
    int *clock;            /* [rank] -> the highest round it has sent or received */
    GArray *msgs;          /* struct walk_msg, in the order they started */
    GHashTable *by_serial; /* serial -> index in msgs + 1 */
    GArray *events;        /* struct walk_event: partial results received or computed */
} walk;

static void
note_event(int rank, gint64 expr)
{
    struct walk_event e = {rank, walk.clock[rank], expr};
    g_array_append_val(walk.events, e);
}

/* The largest partial result of a message (the first of equals), or UNDEFINED. */
static gint64
largest(const GArray *content)
{
    gint64 best = WITNESS_EXPR_UNDEFINED;
    for (guint i = 0; content != NULL && i < content->len; i++) {
        gint64 h = g_array_index(content, gint64, i);
        if (witness_expr_size(h) > witness_expr_size(best))
            best = h;
    }
    return best;
}

static void
observe_sent(gpointer data, int src, int dst, guint64 serial, const void *packed, gsize bytes)
{
    (void)data;
    if (src < 0 || src >= walk.nranks || dst < 0 || dst >= walk.nranks)
        return;
    struct walk_msg m = {.serial = serial, .src = src, .dst = dst, .bytes = bytes};
    m.round = walk.clock[src] + 1;
    walk.clock[src] = m.round;
    if (packed != NULL && bytes > 0 && bytes % sizeof(gint64) == 0) {
        m.content = g_array_sized_new(FALSE, FALSE, sizeof(gint64), bytes / sizeof(gint64));
        for (gsize i = 0; i < bytes / sizeof(gint64); i++) {
            gint64 h;
            memcpy(&h, (const char *)packed + i * sizeof h, sizeof h);
            if (h != WITNESS_EXPR_UNDEFINED && !witness_expr_valid(h)) {
                /* not witness elements: collsim's own traffic */
                g_array_free(m.content, TRUE);
                m.content = NULL;
                break;
            }
            g_array_append_val(m.content, h);
        }
    }
    g_array_append_val(walk.msgs, m);
    g_hash_table_insert(walk.by_serial, GSIZE_TO_POINTER((gsize)serial),
                        GUINT_TO_POINTER(walk.msgs->len));
}

static void
observe_received(gpointer data, int src, int dst, guint64 serial)
{
    (void)data;
    (void)src;
    guint index = GPOINTER_TO_UINT(g_hash_table_lookup(walk.by_serial, GSIZE_TO_POINTER(serial)));
    if (index == 0 || dst < 0 || dst >= walk.nranks)
        return;
    const struct walk_msg *m = &g_array_index(walk.msgs, struct walk_msg, index - 1);
    walk.clock[dst] = MAX(walk.clock[dst], m->round);
    gint64 best = largest(m->content);
    if (best != WITNESS_EXPR_UNDEFINED)
        note_event(dst, best);
}

static void
observe_applied(gint64 result, gpointer data)
{
    (void)data;
    struct sim_rank *self = sim_rank_self();
    if (self != NULL && self->world_rank < walk.nranks)
        note_event(self->world_rank, result);
}

static const struct sim_p2p_observer message_observer = {observe_sent, observe_received};

static void
walk_begin(int nranks)
{
    walk.nranks = nranks;
    walk.clock = g_new0(int, nranks);
    walk.msgs = g_array_new(FALSE, FALSE, sizeof(struct walk_msg));
    walk.by_serial = g_hash_table_new(g_direct_hash, g_direct_equal);
    walk.events = g_array_new(FALSE, FALSE, sizeof(struct walk_event));
}

static void
walk_end(void)
{
    for (guint i = 0; walk.msgs != NULL && i < walk.msgs->len; i++) {
        struct walk_msg *m = &g_array_index(walk.msgs, struct walk_msg, i);
        if (m->content != NULL)
            g_array_free(m->content, TRUE);
    }
    if (walk.msgs != NULL)
        g_array_free(walk.msgs, TRUE);
    if (walk.by_serial != NULL)
        g_hash_table_destroy(walk.by_serial);
    if (walk.events != NULL)
        g_array_free(walk.events, TRUE);
    g_free(walk.clock);
    memset(&walk, 0, sizeof walk);
}

/* ---------------------------------------------------------------- the run */

static struct order_request run_request; /* the walk's request, read by the ranks */
static gint64 **bcast_results;           /* Bcast: [rank] -> its buffer after the call */

static int
explain_rank_main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rc;
    if (coll_kind_reduces(run_request.kind)) {
        rc = order_witness_rank(MPI_COMM_WORLD);
    } else {
        int rank;
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        gint64 *buffer = g_new0(gint64, run_request.count); /* 0: nothing yet */
        if (rank == run_request.root)
            for (int k = 0; k < run_request.count; k++)
                buffer[k] = witness_expr_leaf(rank);
        struct coll_args args = {.buffer = buffer,
                                 .count = run_request.count,
                                 .datatype = MPI_INT64_T,
                                 .root = run_request.root};
        rc = coll_kind_call(COLL_BCAST, &args, MPI_COMM_WORLD);
        bcast_results[rank] = buffer;
    }
    MPI_Finalize();
    return rc == MPI_SUCCESS ? 0 : 1;
}

/* Run the walk's simulation with the observers on; the served algorithm's name, or NULL
 * after a message. */
static const char *
run_walk(const struct order_request *q)
{
    static char *argv[] = {"collsim-explain", NULL};
    run_request = *q;
    if (coll_kind_reduces(q->kind)) {
        order_witness_begin(q);
    } else {
        witness_expr_reset();
        for (int r = 0; r < q->nranks; r++)
            witness_expr_leaf(r);
        bcast_results = g_new0(gint64 *, q->nranks);
    }
    walk_begin(q->nranks);
    witness_expr_set_observer(observe_applied, NULL);
    sim_p2p_set_observer(&message_observer, NULL);

    struct sim_config config;
    sim_config_defaults(&config);
    config.nranks = q->nranks;
    config.program = explain_rank_main;
    config.argc = 1;
    config.argv = argv;
    config.privatize = FALSE; /* the rank program is collsim's own code */
    config.compute_scale = 0; /* only who sends what matters, not the time */
    struct sim_outcome outcome;
    GError *error = NULL;
    gboolean ran = sim_engine_run(&config, &outcome, &error);
    sim_p2p_set_observer(NULL, NULL);
    witness_expr_set_observer(NULL, NULL);
    if (!ran) {
        fprintf(stderr, "collsim: explain: %s\n", error->message);
        g_error_free(error);
        return NULL;
    }
    const char *served = NULL;
    for (guint i = 0; outcome.served != NULL && i < outcome.served->len; i++) {
        const struct sim_served *s = &g_array_index(outcome.served, struct sim_served, i);
        if (s->kind == (int)q->kind)
            served = s->algorithm;
    }
    if (outcome.served != NULL)
        g_array_free(outcome.served, TRUE);
    if (outcome.exit_code != 0) {
        fprintf(stderr, "collsim: explain: the simulation ended with exit code %d\n",
                outcome.exit_code);
        return NULL;
    }
    if (served == NULL)
        fprintf(stderr, "collsim: explain: no algorithm reported serving the call\n");
    return served;
}

/* ---------------------------------------------------------------- the text */

/* A partial result in the notation of the header. */
static gchar *
notation(gint64 handle)
{
    if (handle == WITNESS_EXPR_UNDEFINED)
        return g_strdup("-");
    if (!witness_expr_valid(handle))
        return g_strdup("?");
    GArray *leaves = witness_expr_leaves(handle);
    GString *out = g_string_new(NULL);
    for (guint i = 0; i < leaves->len;) {
        int first = g_array_index(leaves, gint, i);
        guint j = i + 1;
        while (j < leaves->len && g_array_index(leaves, gint, j) == first + (int)(j - i))
            j++;
        int last = first + (int)(j - i) - 1;
        if (out->len > 0)
            g_string_append_c(out, '+');
        if (last == first)
            g_string_append_printf(out, "r%d", first);
        else
            g_string_append_printf(out, "[%d..%d]", first, last);
        i = j;
    }
    g_array_free(leaves, TRUE);
    return g_string_free(out, FALSE);
}

/* Elements as runs of equal partial results: "[0..1]", "[0..1] ×4", "r0 ×2, [0..1] ×2". */
static GPtrArray *
content_items(const gint64 *handles, guint n)
{
    GPtrArray *items = g_ptr_array_new_with_free_func(g_free);
    for (guint i = 0; i < n;) {
        guint j = i + 1;
        while (j < n && handles[j] == handles[i])
            j++;
        gchar *text = notation(handles[i]);
        gboolean last = j == n;
        if (j - i > 1)
            g_ptr_array_add(items, g_strdup_printf("%s \u00d7%u%s", text, j - i, last ? "" : ","));
        else
            g_ptr_array_add(items, g_strdup_printf("%s%s", text, last ? "" : ","));
        g_free(text);
        i = j;
    }
    return items;
}

/* `lead`, then the items separated by `sep`, wrapped under the first item. */
static void
print_wrapped(const char *lead, GPtrArray *items, const char *sep)
{
    glong indent = g_utf8_strlen(lead, -1);
    glong column = indent;
    fputs(lead, stdout);
    for (guint i = 0; i < items->len; i++) {
        const char *item = g_ptr_array_index(items, i);
        glong width = g_utf8_strlen(item, -1);
        glong sep_width = i == 0 ? 0 : (glong)strlen(sep);
        if (i > 0 && column + sep_width + width > EXPLAIN_COLUMNS) {
            printf("\n%*s", (int)indent, "");
            column = indent;
            sep_width = 0;
        } else if (i > 0) {
            fputs(sep, stdout);
        }
        fputs(item, stdout);
        column += sep_width + width;
    }
    fputc('\n', stdout);
}

/* What every rank holds after round `round` (INT_MAX: at the end), into held[]. */
static void
holdings(int round, const gint64 *start, gint64 *held)
{
    memcpy(held, start, sizeof *held * walk.nranks);
    for (guint i = 0; i < walk.events->len; i++) {
        const struct walk_event *e = &g_array_index(walk.events, struct walk_event, i);
        if (e->clock <= round && witness_expr_size(e->expr) >= witness_expr_size(held[e->rank]))
            held[e->rank] = e->expr;
    }
}

static void
print_holdings(const char *lead, const gint64 *held)
{
    GPtrArray *items = g_ptr_array_new_with_free_func(g_free);
    for (int r = 0; r < walk.nranks; r++) {
        gchar *text = notation(held[r]);
        g_ptr_array_add(items, g_strdup_printf("%d: %s", r, text));
        g_free(text);
    }
    print_wrapped(lead, items, "   ");
    g_ptr_array_free(items, TRUE);
}

static void
print_message(const struct walk_msg *m)
{
    gchar *lead = g_strdup_printf("  %d -> %d: ", m->src, m->dst);
    GPtrArray *items;
    if (m->content != NULL) {
        items = content_items((const gint64 *)(gpointer)m->content->data, m->content->len);
    } else {
        items = g_ptr_array_new_with_free_func(g_free);
        g_ptr_array_add(items, g_strdup_printf("(%zu bytes of control data)", m->bytes));
    }
    print_wrapped(lead, items, " ");
    g_ptr_array_free(items, TRUE);
    g_free(lead);
}

static int
compare_in_round(gconstpointer a, gconstpointer b)
{
    const struct walk_msg *x = *(const struct walk_msg *const *)a;
    const struct walk_msg *y = *(const struct walk_msg *const *)b;
    if (x->src != y->src)
        return x->src < y->src ? -1 : 1;
    if (x->dst != y->dst)
        return x->dst < y->dst ? -1 : 1;
    return x->serial < y->serial ? -1 : x->serial > y->serial;
}

/* The results as the call defines them, and whether they are right. */
static void
print_results(const struct order_request *q, const char *served, const char *unmet)
{
    GPtrArray *items = g_ptr_array_new_with_free_func(g_free);
    const char *verdict;
    if (coll_kind_reduces(q->kind)) {
        struct order_certificate cert;
        order_witness_finish(served, unmet, &cert);
        for (guint i = 0; i < cert.elements->len;) {
            const struct order_element *e = &g_array_index(cert.elements, struct order_element, i);
            GArray *handles = g_array_new(FALSE, FALSE, sizeof(gint64));
            guint j = i;
            for (; j < cert.elements->len &&
                   g_array_index(cert.elements, struct order_element, j).rank == e->rank;
                 j++)
                g_array_append_val(handles,
                                   g_array_index(cert.elements, struct order_element, j).handle);
            GPtrArray *parts = content_items((const gint64 *)(gpointer)handles->data, handles->len);
            g_ptr_array_add(parts, NULL);
            gchar *joined = g_strjoinv(" ", (gchar **)parts->pdata);
            g_ptr_array_add(items, g_strdup_printf("%d: %s", e->rank, joined));
            g_free(joined);
            g_ptr_array_free(parts, TRUE);
            g_array_free(handles, TRUE);
            i = j;
        }
        verdict = cert.verdict == ORDER_RANK       ? "rank order kept: yes"
                  : cert.verdict == ORDER_PERMUTED ? "rank order kept: no (another order)"
                                                   : "rank order kept: no (a broken result)";
        print_wrapped("result: ", items, "   ");
        printf("%s\n", verdict);
        order_certificate_clear(&cert);
    } else {
        gboolean all = TRUE;
        gint64 expected = witness_expr_leaf(q->root);
        for (int r = 0; r < q->nranks; r++) {
            const gint64 *buffer = bcast_results[r];
            gint64 none = WITNESS_EXPR_UNDEFINED;
            GPtrArray *parts = content_items(buffer != NULL ? buffer : &none,
                                             buffer != NULL ? (guint)q->count : 1);
            g_ptr_array_add(parts, NULL);
            gchar *joined = g_strjoinv(" ", (gchar **)parts->pdata);
            g_ptr_array_add(items, g_strdup_printf("%d: %s", r, joined));
            g_free(joined);
            g_ptr_array_free(parts, TRUE);
            for (int k = 0; k < q->count; k++)
                all = all && buffer != NULL && buffer[k] == expected;
        }
        print_wrapped("result: ", items, "   ");
        printf("every rank holds r%d: %s\n", q->root, all ? "yes" : "no");
    }
    g_ptr_array_free(items, TRUE);
}

static void
print_walk(const struct order_request *q, const char *served, const char *unmet)
{
    printf("collsim explain: %s %s P=%d count=%d", coll_kind_name(q->kind), q->algorithm, q->nranks,
           q->count);
    if (coll_kind_has(q->kind, COLL_TRAIT_ROOTED))
        printf(" root=%d", q->root);
    if (coll_kind_reduces(q->kind))
        printf(" op=%s", q->commutative ? "commutative" : "noncommutative");
    printf("\n");
    if (unmet != NULL || strcmp(served, q->algorithm) != 0)
        printf("served by %s (%s cannot: %s)\n", served, q->algorithm,
               unmet != NULL ? unmet : "the selector chose another");
    printf("notation: rI is rank I's contribution; [a..b] is ra+...+rb combined in rank order;\n"
           "  X+Y is X combined with Y, X the left operand; - nothing yet; \u00d7k: k equal "
           "elements.\n"
           "a round holds the messages whose sender had reached the round before (see README).\n");
    gint64 *start = g_new0(gint64, q->nranks);
    gint64 *held = g_new0(gint64, q->nranks);
    for (int r = 0; r < q->nranks; r++)
        if (coll_kind_reduces(q->kind) || r == q->root)
            start[r] = witness_expr_leaf(r);
    printf("\nstart\n");
    print_holdings("  holds: ", start);
    int rounds = 0;
    for (guint i = 0; i < walk.msgs->len; i++)
        rounds = MAX(rounds, g_array_index(walk.msgs, struct walk_msg, i).round);
    GPtrArray *in_round = g_ptr_array_new();
    for (int t = 1; t <= rounds; t++) {
        g_ptr_array_set_size(in_round, 0);
        for (guint i = 0; i < walk.msgs->len; i++)
            if (g_array_index(walk.msgs, struct walk_msg, i).round == t)
                g_ptr_array_add(in_round, &g_array_index(walk.msgs, struct walk_msg, i));
        g_ptr_array_sort(in_round, compare_in_round);
        printf("round %d: %u message%s\n", t, in_round->len, in_round->len == 1 ? "" : "s");
        for (guint i = 0; i < in_round->len; i++)
            print_message(g_ptr_array_index(in_round, i));
        holdings(t, start, held);
        print_holdings("  holds: ", held);
    }
    g_ptr_array_free(in_round, TRUE);
    if (rounds == 0)
        printf("no messages\n");
    printf("\n");
    print_results(q, served, unmet);
    g_free(start);
    g_free(held);
}

/* ---------------------------------------------------------------- the command */

static int explain_usage(const char *fmt, ...) G_GNUC_PRINTF(1, 2);

static int
explain_usage(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    gchar *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    fprintf(stderr, "collsim: explain: %s\n", msg);
    g_free(msg);
    return EXPLAIN_EXIT_USAGE;
}

static const enum coll_kind explained_kinds[] = {
    COLL_BCAST, COLL_REDUCE, COLL_ALLREDUCE, COLL_REDUCE_SCATTER, COLL_REDUCE_SCATTER_BLOCK,
    COLL_SCAN,  COLL_EXSCAN,
};

static gboolean
explained(enum coll_kind kind)
{
    for (gsize i = 0; i < G_N_ELEMENTS(explained_kinds); i++)
        if (explained_kinds[i] == kind)
            return TRUE;
    return FALSE;
}

static gchar *
algorithm_names(enum coll_kind kind)
{
    GString *out = g_string_new(NULL);
    for (size_t a = 0; a < coll_registry_count(kind); a++)
        g_string_append_printf(out, "%s%s", a > 0 ? ", " : "", coll_registry_nth(kind, a)->name);
    return g_string_free(out, FALSE);
}

int
command_explain(int argc, char **argv)
{
    gchar *ranks = NULL;
    gint count = 1, root = -1;
    gboolean commutative = FALSE;
    GOptionEntry entries[] = {
        {"np", 'n', 0, G_OPTION_ARG_STRING, &ranks, "Number of simulated ranks", "P"},
        {"count", 0, 0, G_OPTION_ARG_INT, &count,
         "Elements per rank (reduce_scatter: per block; default 1)", "N"},
        {"root", 0, 0, G_OPTION_ARG_INT, &root, "Root of reduce and bcast (default 0)", "R"},
        {"commutative", 0, 0, G_OPTION_ARG_NONE, &commutative,
         "Declare the op commutative (the algorithms that need it run instead of falling back)",
         NULL},
        {NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    GOptionContext *context =
        g_option_context_new("COLLECTIVE ALGORITHM - walk through an algorithm's rounds");
    g_option_context_set_summary(
        context,
        "Runs the algorithm with the witness payload of `collsim order` and prints, round\n"
        "by round, who sends which partial result to whom and what each rank holds.\n"
        "COLLECTIVE: bcast, reduce, allreduce, reduce_scatter, reduce_scatter_block,\n"
        "scan or exscan.");
    g_option_context_set_description(context,
                                     "Exit status: 0 walked, 2 bad arguments, 4 a failed run.");
    g_option_context_add_main_entries(context, entries, NULL);
    GError *error = NULL;
    int rc = EXPLAIN_EXIT_OK;
    (void)argc; /* argv ends with NULL, as main's does */
    gchar **args = g_strdupv(argv);
    gchar *names = NULL;
    enum coll_kind kind = COLL_REDUCE;
    if (!g_option_context_parse_strv(context, &args, &error)) {
        rc = explain_usage("%s", error->message);
        goto out;
    }
    guint nargs = g_strv_length(args);
    if (nargs < 3) {
        rc = explain_usage("which collective and algorithm? (collsim explain reduce binomial "
                           "-n 4)");
        goto out;
    }
    if (nargs > 3) {
        rc = explain_usage("unexpected argument '%s'", args[3]);
        goto out;
    }
    if (!coll_kind_from_name(args[1], &kind) || !explained(kind)) {
        rc = explain_usage("unknown collective '%s' (bcast, reduce, allreduce, reduce_scatter, "
                           "reduce_scatter_block, scan or exscan)",
                           args[1]);
        goto out;
    }
    const struct coll_algorithm *row = coll_registry_find(kind, args[2]);
    if (row == NULL) {
        names = algorithm_names(kind);
        rc = explain_usage("%s has no algorithm named '%s' (%s)", coll_kind_name(kind), args[2],
                           names);
        goto out;
    }
    gchar *end = NULL;
    gint64 nranks = ranks != NULL ? g_ascii_strtoll(ranks, &end, 10) : 0;
    if (ranks == NULL) {
        rc = explain_usage("how many ranks? (-n P)");
        goto out;
    }
    if (*ranks == '\0' || *end != '\0' || nranks < 1 || nranks > EXPLAIN_MAX_RANKS) {
        rc = explain_usage("-n wants a number of ranks from 1 to %d: a longer walk is no longer "
                           "readable (got '%s'; collsim order --picture draws up to 256)",
                           EXPLAIN_MAX_RANKS, ranks);
        goto out;
    }
    if (count < 1 || count > EXPLAIN_MAX_COUNT) {
        rc = explain_usage("--count wants 1 to %d elements per rank (got %d)", EXPLAIN_MAX_COUNT,
                           count);
        goto out;
    }
    if (root >= 0 && !coll_kind_has(kind, COLL_TRAIT_ROOTED)) {
        rc = explain_usage("--root applies to reduce and bcast only");
        goto out;
    }
    if (root >= nranks || root < -1) {
        rc = explain_usage("the root must be a rank, 0 to %d (got %d)", (int)nranks - 1, root);
        goto out;
    }
    struct order_request q = {
        .kind = kind,
        .algorithm = row->name,
        .nranks = (int)nranks,
        .count = count,
        .root = root >= 0 ? root : 0,
        .commutative = commutative,
    };
    const char *unmet = coll_kind_reduces(kind) ? order_unmet_requirement(&q) : NULL;
    char why[256];
    coll_select_reset();
    /* forcing an algorithm that cannot serve a reduction is refused: the decision table
     * serves instead, and the walk says so (as collsim order does) */
    if (unmet == NULL && !coll_select_force(kind, row->name, &q.params, why, sizeof why)) {
        rc = explain_usage("%s", why);
        goto out;
    }
    const char *served = run_walk(&q);
    if (served == NULL) {
        rc = EXPLAIN_EXIT_FAILED;
    } else {
        print_walk(&q, served, unmet);
        fflush(stdout);
    }
    coll_select_reset();
    walk_end();
    if (bcast_results != NULL) {
        for (int r = 0; r < q.nranks; r++)
            g_free(bcast_results[r]);
        g_clear_pointer(&bcast_results, g_free);
    }
out:
    g_clear_error(&error);
    g_free(names);
    g_strfreev(args);
    g_free(ranks);
    g_option_context_free(context);
    return rc;
}
