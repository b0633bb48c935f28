/*
 * coll_check.c — the collective-call checker (coll_check.h).
 *
 * State: one `struct coll_check_state` per communicator that has seen a checked call, holding each
 * member's count of calls so far and the records of positions not every member has reached.
 * A record keeps every arrived member's call (for the report) and whatever the rule compares
 * later arrivals with: the first arrival's values, the root's per-rank array, or for the
 * pairwise rule two size × size matrices. A record is freed when its last member arrives, so
 * the memory is that of the calls in flight. States live in a list in creation order, which
 * the simulation makes deterministic, so end-of-run reports come in a stable order.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "callsite.h"
#include "coll_check.h"
#include "comm.h"
#include "datatype.h"
#include "op.h"
#include "runtime.h"

/* The pairwise rule keeps size² byte counts per call in flight: above this size it compares
 * totals only (each rank's sent bytes against the received bytes announced for it). */
#define PAIRWISE_MAX_RANKS 1024

/* What identifies an op, taken when a member arrives: a member whose call completes at once (a
 * leaf of a tree, a count of 0) may free its op before the others reach the call. */
struct op_seen {
    gboolean given;                /* FALSE: MPI_OP_NULL, not a reduction */
    gboolean predefined;
    MPI_Op handle;                 /* compared for predefined ops only */
    MPI_User_function *fn;         /* user ops: the same function and commutativity... */
    int commute;                   /* ...is the same op, whichever rank created it */
    const char *name;              /* a static string, or "(invalid op)" */
};

struct arrival {
    gboolean here;
    struct coll_check_call call;   /* arrays not kept: see the record */
    long long send_total;          /* sum of per_rank (pairwise rule) */
    MPI_Datatype basic;            /* the predefined type the datatype repeats, or NULL */
    char type_name[64];            /* the type may be freed before a report */
    struct op_seen op;             /* the op may be freed before a later member arrives */
};

struct record {
    guint64 position;              /* 0-based index among the communicator's calls */
    int arrived;
    int first;                     /* local rank that arrived first */
    struct arrival *ranks;
    long long *per_rank;           /* root's (ROOT_V) or first arrival's (SAME_V) array */
    long long *sent, *expected;    /* PAIRWISE: sent[i*size+j] by i to j, expected by j */
};

struct coll_check_state {
    MPI_Comm comm;
    int size;
    guint64 *calls;                /* per local rank: checked calls made so far */
    const char **last_name;        /* per local rank: the latest call's name (static) */
    const void **last_caller;      /* and where the program made it */
    GHashTable *records;           /* position -> struct record *, positions not complete */
};

static int enabled = 1;
static GPtrArray *states;          /* struct coll_check_state *, in creation order */

void
coll_check_set_enabled(int on)
{
    enabled = on;
}

int
coll_check_enabled(void)
{
    return enabled;
}

/* ---------------------------------------------------------------- state */

static void
record_free(gpointer data)
{
    struct record *r = data;
    g_free(r->ranks);
    g_free(r->per_rank);
    g_free(r->sent);
    g_free(r->expected);
    g_free(r);
}

static void
state_free(struct coll_check_state *s)
{
    g_hash_table_destroy(s->records);
    g_free(s->calls);
    g_free(s->last_name);
    g_free(s->last_caller);
    g_free(s);
}

static struct coll_check_state *
state_of(MPI_Comm comm)
{
    if (comm->check != NULL)
        return comm->check;
    struct coll_check_state *s = g_new0(struct coll_check_state, 1);
    s->comm = comm;
    s->size = collsim_comm_size(comm);
    s->calls = g_new0(guint64, s->size);
    s->last_name = g_new0(const char *, s->size);
    s->last_caller = g_new0(const void *, s->size);
    s->records = g_hash_table_new_full(g_int64_hash, g_int64_equal, NULL, record_free);
    if (states == NULL)
        states = g_ptr_array_new();
    g_ptr_array_add(states, s);
    comm->check = s;
    return s;
}

/* ---------------------------------------------------------------- describing calls */

static const char *
comm_label(MPI_Comm comm, char *buf, size_t len)
{
    if (comm->name[0] != '\0')
        g_snprintf(buf, len, "%s", comm->name);
    else
        g_snprintf(buf, len, "a communicator of %d ranks (context %u)", collsim_comm_size(comm),
                   (unsigned)comm->context);
    return buf;
}

static void
describe(const struct arrival *a, GString *out)
{
    const struct coll_check_call *c = &a->call;
    g_string_append_printf(out, "%s(", c->name);
    const char *sep = "";
    if (c->count >= 0) {
        g_string_append_printf(out, "count=%d", c->count);
        sep = ", ";
    }
    if (a->type_name[0] != '\0') {
        g_string_append_printf(out, "%sdatatype=%s", sep, a->type_name);
        sep = ", ";
    }
    if (a->op.given) {
        g_string_append_printf(out, "%sop=%s", sep, a->op.name);
        sep = ", ";
    }
    if (c->root >= 0) {
        g_string_append_printf(out, "%sroot=%d", sep, c->root);
        sep = ", ";
    }
    g_string_append(out, ")");
    if (c->bytes >= 0 && c->rule != COLL_CHECK_NONE && c->rule != COLL_CHECK_PAIRWISE)
        g_string_append_printf(out, ", %lld bytes", c->bytes);
    if (c->rule == COLL_CHECK_PAIRWISE)
        g_string_append_printf(out, ", %lld bytes sent in all", a->send_total);
    if (c->recv_bytes >= 0 && (c->rule == COLL_CHECK_BLOCKS || c->rule == COLL_CHECK_TO_ROOT ||
                               c->rule == COLL_CHECK_FROM_ROOT))
        g_string_append_printf(out, " (%lld per block received)", c->recv_bytes);
    collsim_callsite_describe(c->caller, out);
}

/* Every member's call at this position, ranks with the same description grouped. */
static void
describe_position(const struct coll_check_state *s, const struct record *r, gboolean ended,
                  GString *out)
{
    GString *line = g_string_new(NULL), *next = g_string_new(NULL);
    int start = 0;
    for (int i = 0; i <= s->size; i++) {
        g_string_truncate(next, 0);
        if (i < s->size) {
            if (r->ranks[i].here)
                describe(&r->ranks[i], next);
            else
                g_string_append(next, ended ? "never made this call" : "has not made it yet");
        }
        if (i > 0 && (i == s->size || strcmp(next->str, line->str) != 0)) {
            if (i - 1 == start)
                g_string_append_printf(out, "  rank %d: %s\n", start, line->str);
            else
                g_string_append_printf(out, "  ranks %d-%d: %s\n", start, i - 1, line->str);
            start = i;
        }
        GString *swap = line;
        line = next;
        next = swap;
    }
    g_string_free(line, TRUE);
    g_string_free(next, TRUE);
}

/* "collsim: WHAT on COMM, call #N of its members:" and every member's call there. */
static GString *
position_report(const struct coll_check_state *s, const struct record *r, const char *what,
                gboolean ended)
{
    char label[MPI_MAX_OBJECT_NAME + 64];
    GString *out = g_string_new(NULL);
    g_string_append_printf(out, "collsim: %s on %s, call #%" G_GUINT64_FORMAT " of its members:\n",
                           what, comm_label(s->comm, label, sizeof label), r->position + 1);
    describe_position(s, r, ended, out);
    return out;
}

/* Print a report after what the program wrote so far. */
static void
print_report(GString *out)
{
    fflush(stdout);
    fputs(out->str, stderr);
    g_string_free(out, TRUE);
}

G_GNUC_NORETURN G_GNUC_PRINTF(3, 4) static void
mismatch(const struct coll_check_state *s, const struct record *r, const char *rule, ...)
{
    GString *out = position_report(s, r, "collective mismatch", FALSE);
    va_list args;
    va_start(args, rule);
    g_string_append(out, "  ");
    g_string_append_vprintf(out, rule, args);
    va_end(args);
    g_string_append(out, "\n");
    print_report(out);
    collsim_runtime->abort(COLL_CHECK_EXIT);
}

/* ---------------------------------------------------------------- comparing */

static struct op_seen
op_seen(MPI_Op op)
{
    struct op_seen seen = {.given = op != MPI_OP_NULL, .handle = op,
                           .name = collsim_op_name(op)};
    if (seen.given && collsim_op_check_handle(op) == MPI_SUCCESS) {
        seen.predefined = op->predefined;
        seen.fn = op->predefined ? NULL : op->fn;
        seen.commute = op->commute;
    }
    return seen;
}

static gboolean
same_op(const struct op_seen *a, const struct op_seen *b)
{
    if (a->given != b->given)
        return FALSE;
    if (!a->given)
        return TRUE;
    /* a user op's handle may be freed and its memory reused: only its function counts */
    if (a->predefined || b->predefined || a->fn == NULL || b->fn == NULL)
        return a->handle == b->handle;
    return a->fn == b->fn && a->commute == b->commute;
}

static void
check_against_first(const struct coll_check_state *s, const struct record *r, int me,
                    const struct coll_check_call *c)
{
    const struct coll_check_call *f = &r->ranks[r->first].call;
    if (strcmp(c->name, f->name) != 0)
        mismatch(s, r, "every member of a communicator must make the same collective calls in "
                       "the same order (MPI-3.1 5.12)");
    if (c->root != f->root)
        mismatch(s, r, "every member must pass the same root (MPI-3.1 5.4)");
    if (!same_op(&r->ranks[me].op, &r->ranks[r->first].op))
        mismatch(s, r, "every member must pass the same op (MPI-3.1 5.9.1)");
    switch (c->rule) {
    case COLL_CHECK_EQUAL: {
        if (c->bytes >= 0 && f->bytes >= 0 && c->bytes != f->bytes)
            mismatch(s, r, "the type signatures (count x datatype size) must be the same on "
                           "every member (MPI-3.1 5.4, 5.9.1)");
        /* the point-to-point rule (MPI_BYTE and MPI_PACKED pair with anything, as most MPIs
         * let them; MPI_LONG with MPI_INT64_T), but a reduction's op reads the values, so
         * there signed and unsigned, say, differ */
        MPI_Datatype mine = r->ranks[me].basic;
        MPI_Datatype first = r->ranks[r->first].basic;
        gboolean reduces = r->ranks[me].op.given;
        if (reduces ? mine != NULL && first != NULL && mine != first && mine != MPI_BYTE &&
                          mine != MPI_PACKED && first != MPI_BYTE && first != MPI_PACKED
                    : !collsim_basic_types_match(first, mine))
            mismatch(s, r,
                     "%s elements against %s: the type signatures must be the same on every "
                     "member (MPI-3.1 5.4, 5.9.1)",
                     collsim_datatype_name(mine), collsim_datatype_name(first));
        break;
    }
    case COLL_CHECK_BLOCKS:
        if ((c->bytes >= 0 && f->bytes >= 0 && c->bytes != f->bytes) ||
            c->recv_bytes != f->recv_bytes ||
            (c->bytes >= 0 && c->bytes != c->recv_bytes) ||
            (f->bytes >= 0 && f->bytes != c->recv_bytes))
            mismatch(s, r, "every block sent (sendcount x sendtype size) must match the block "
                           "received (recvcount x recvtype size) on every member (MPI-3.1 5.7, "
                           "5.8)");
        break;
    case COLL_CHECK_SAME_V:
        for (int i = 0; i < s->size; i++)
            if (c->per_rank[i] != r->per_rank[i])
                mismatch(s, r,
                         "rank %d's counts give rank %d %lld bytes, rank %d's %lld: the counts "
                         "array must be the same on every member (MPI-3.1 5.7, 5.10)",
                         me, i, c->per_rank[i], r->first,
                         r->per_rank[i]);
        break;
    default:
        break;
    }
}

/* Rooted rules: compare member `who` with the root, once both have arrived. */
static void
check_with_root(const struct coll_check_state *s, const struct record *r, int who)
{
    const struct coll_check_call *c = &r->ranks[who].call;
    const struct coll_check_call *root = &r->ranks[c->root].call;
    if (who == c->root || !r->ranks[c->root].here)
        return;
    long long mine, roots;
    switch (c->rule) {
    case COLL_CHECK_TO_ROOT:   /* gather: what `who` sends, what the root receives per rank */
        mine = c->bytes;
        roots = root->recv_bytes;
        break;
    case COLL_CHECK_FROM_ROOT: /* scatter */
        mine = c->recv_bytes;
        roots = root->bytes;
        break;
    case COLL_CHECK_ROOT_V:
        mine = c->bytes;
        roots = r->per_rank[who];
        break;
    default:
        return;
    }
    if (mine >= 0 && roots >= 0 && mine != roots)
        mismatch(s, r,
                 "rank %d %s %lld bytes, the root %s %lld for it: each member's type signature "
                 "must match the root's for that member (MPI-3.1 5.5, 5.6)",
                 who, c->rule == COLL_CHECK_FROM_ROOT ? "receives" : "sends", mine,
                 c->rule == COLL_CHECK_FROM_ROOT ? "sends" : "expects", roots);
}

static void
check_pairwise(const struct coll_check_state *s, struct record *r, int me,
               const struct coll_check_call *c)
{
    int n = s->size;
    if (n > PAIRWISE_MAX_RANKS)
        return;
    if (r->sent == NULL) {
        r->sent = g_new(long long, (gsize)n * n);
        r->expected = g_new(long long, (gsize)n * n);
    }
    for (int j = 0; j < n; j++) {
        r->sent[(gsize)me * n + j] = c->per_rank[j];
        r->expected[(gsize)j * n + me] = c->recv_per_rank[j];
    }
    for (int j = 0; j < n; j++) {
        if (!r->ranks[j].here)
            continue;
        for (int k = 0; k < 2; k++) {
            int from = k == 0 ? me : j, to = k == 0 ? j : me;
            long long sent = r->sent[(gsize)from * n + to];
            long long expected = r->expected[(gsize)from * n + to];
            if (sent != expected)
                mismatch(s, r,
                         "rank %d sends %lld bytes to rank %d, which expects %lld: what each "
                         "member sends to another (sendcounts[j] x sendtype size) must match "
                         "what that one receives from it (recvcounts[i] x recvtype size) "
                         "(MPI-3.1 5.8)",
                         from, sent, to, expected);
        }
    }
}

void
coll_check_enter(MPI_Comm comm, const struct coll_check_call *call)
{
    if (!enabled || collsim_comm_is_internal(comm))
        return;
    int size = collsim_comm_size(comm);
    if (size < 2)
        return;
    int me = collsim_comm_my_rank(comm);
    struct coll_check_state *s = state_of(comm);
    guint64 position = s->calls[me]++;
    s->last_name[me] = call->name;
    s->last_caller[me] = call->caller;
    struct record *r = g_hash_table_lookup(s->records, &position);
    if (r == NULL) {
        r = g_new0(struct record, 1);
        r->position = position;
        r->first = me;
        r->ranks = g_new0(struct arrival, size);
        g_hash_table_insert(s->records, &r->position, r);
    }
    struct arrival *a = &r->ranks[me];
    a->here = TRUE;
    a->call = *call;
    a->call.per_rank = a->call.recv_per_rank = NULL;
    a->op = op_seen(call->op);
    if (call->type != MPI_DATATYPE_NULL) {
        g_strlcpy(a->type_name, collsim_datatype_name(call->type), sizeof a->type_name);
        a->basic = collsim_datatype_basic(call->type);
    }
    if (call->rule == COLL_CHECK_PAIRWISE)
        for (int j = 0; j < size; j++)
            a->send_total += call->per_rank[j];
    r->arrived++;

    if (r->first != me)
        check_against_first(s, r, me, call);
    if ((call->rule == COLL_CHECK_ROOT_V && me == call->root) ||
        (call->rule == COLL_CHECK_SAME_V && r->first == me))
        r->per_rank = g_memdup2(call->per_rank, sizeof(long long) * (gsize)size);
    switch (call->rule) {
    case COLL_CHECK_TO_ROOT:
    case COLL_CHECK_FROM_ROOT:
    case COLL_CHECK_ROOT_V:
        if (me == call->root) {
            for (int i = 0; i < size; i++)
                if (r->ranks[i].here)
                    check_with_root(s, r, i);
        } else {
            check_with_root(s, r, me);
        }
        break;
    case COLL_CHECK_SAME_V:
        if (call->bytes >= 0 && call->bytes != call->per_rank[me])
            mismatch(s, r,
                     "rank %d sends %lld bytes, recvcounts[%d] says %lld: each member's "
                     "sendcount x sendtype size must equal recvcounts[rank] x recvtype size "
                     "(MPI-3.1 5.7)",
                     me, call->bytes, me, call->per_rank[me]);
        break;
    case COLL_CHECK_PAIRWISE:
        check_pairwise(s, r, me, call);
        break;
    default:
        break;
    }

    if (r->arrived == size)
        g_hash_table_remove(s->records, &position);
}

gboolean
coll_check_describe_rank(MPI_Comm comm, int world_rank, GString *out)
{
    struct coll_check_state *s = comm->check;
    int me = collsim_comm_local_rank(comm, world_rank);
    if (s == NULL || me < 0 || me >= s->size || s->calls[me] == 0)
        return FALSE;
    guint64 position = s->calls[me] - 1;
    const struct record *r = g_hash_table_lookup(s->records, &position);
    char label[MPI_MAX_OBJECT_NAME + 64];
    if (r != NULL && r->ranks[me].here) {
        describe(&r->ranks[me], out);
        g_string_append_printf(out, ", its call #%" G_GUINT64_FORMAT " on %s", position + 1,
                               comm_label(comm, label, sizeof label));
    } else {
        /* the position is complete (its record is gone): its name and place are left */
        g_string_append(out, s->last_name[me]);
        collsim_callsite_describe(s->last_caller[me], out);
        g_string_append_printf(out, ", its collective call #%" G_GUINT64_FORMAT " on %s",
                               position + 1, comm_label(comm, label, sizeof label));
    }
    return TRUE;
}

/* ---------------------------------------------------------------- end of a communicator */

static gint
position_cmp(gconstpointer a, gconstpointer b)
{
    guint64 x = *(const guint64 *)a, y = *(const guint64 *)b;
    return x < y ? -1 : x > y;
}

/* Report the positions some members never reached, in call order; returns how many. */
static int
report_unfinished(struct coll_check_state *s)
{
    GList *positions = g_list_sort(g_hash_table_get_keys(s->records), position_cmp);
    int reported = 0;
    for (GList *l = positions; l != NULL; l = l->next, reported++) {
        struct record *r = g_hash_table_lookup(s->records, l->data);
        GString *out = position_report(s, r, "unmatched collective call", TRUE);
        g_string_append(out, "  every member of a communicator must make the same collective "
                             "calls (MPI-3.1 5.12)\n");
        print_report(out);
    }
    g_list_free(positions);
    return reported;
}

static int unfinished_reported;

void
coll_check_forget(MPI_Comm comm)
{
    struct coll_check_state *s = comm->check;
    if (s == NULL)
        return;
    unfinished_reported += report_unfinished(s);
    g_ptr_array_remove(states, s);
    comm->check = NULL;
    state_free(s);
}

void
coll_check_reset(void)
{
    unfinished_reported = 0;
    if (states == NULL)
        return;
    for (guint i = 0; i < states->len; i++) {
        struct coll_check_state *s = g_ptr_array_index(states, i);
        s->comm->check = NULL;
        state_free(s);
    }
    g_ptr_array_free(states, TRUE);
    states = NULL;
}

int
coll_check_finish(void)
{
    int reported = unfinished_reported;
    unfinished_reported = 0;
    if (states == NULL)
        return reported;
    for (guint i = 0; i < states->len; i++)
        reported += report_unfinished(g_ptr_array_index(states, i));
    coll_check_reset();
    return reported;
}
