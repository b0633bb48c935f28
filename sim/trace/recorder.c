/*
 * recorder.c — the event record of one run (recorder.h).
 *
 * Storage: per (rank, lane) an array of spans in the order they began, with a stack of the
 * ones still open; one array of messages in sending order, and a table from a message's
 * serial number (p2p.c's, unique in the process) to its place there, kept until it arrives.
 * Only the simulated clock and the simulation's own order enter the record.
 */
#include "config.h"

#include "sim/trace/recorder.h"

#include <string.h>


#include "sim/engine/rank.h"
#include "src/comm.h"

gboolean recorder_enabled;

struct lane {
    GArray *spans; /* struct recorder_span; NULL until the lane's first span (most ranks of a
                      large run never use lane 1) */
    GArray *open;  /* guint: indices into spans, innermost last */
};

static struct {
    int nranks;
    struct lane *lanes; /* nranks * RECORDER_LANES */
    GArray *messages;   /* struct recorder_message */
    GHashTable *in_flight; /* serial -> index + 1 */
    double end;
} rec;

void
recorder_clear(void)
{
    for (int i = 0; rec.lanes != NULL && i < rec.nranks * RECORDER_LANES; i++) {
        if (rec.lanes[i].spans != NULL) {
            g_array_free(rec.lanes[i].spans, TRUE);
            g_array_free(rec.lanes[i].open, TRUE);
        }
    }
    g_free(rec.lanes);
    if (rec.messages != NULL)
        g_array_free(rec.messages, TRUE);
    if (rec.in_flight != NULL)
        g_hash_table_destroy(rec.in_flight);
    memset(&rec, 0, sizeof rec);
    recorder_enabled = FALSE;
}

void
recorder_start(int nranks)
{
    recorder_clear();
    rec.nranks = nranks;
    rec.lanes = g_new0(struct lane, (gsize)nranks * RECORDER_LANES);
    rec.messages = g_array_new(FALSE, FALSE, sizeof(struct recorder_message));
    rec.in_flight = g_hash_table_new(g_int64_hash, g_int64_equal);
    recorder_enabled = TRUE;
}

void
recorder_stop(double end)
{
    recorder_enabled = FALSE;
    rec.end = end;
    for (int i = 0; rec.lanes != NULL && i < rec.nranks * RECORDER_LANES; i++) {
        struct lane *lane = &rec.lanes[i];
        if (lane->spans == NULL)
            continue;
        for (guint k = 0; k < lane->open->len; k++)
            g_array_index(lane->spans, struct recorder_span,
                          g_array_index(lane->open, guint, k))
                .end = end;
        g_array_set_size(lane->open, 0);
    }
    if (rec.in_flight != NULL) {
        GHashTableIter it;
        gpointer key;
        g_hash_table_iter_init(&it, rec.in_flight);
        while (g_hash_table_iter_next(&it, &key, NULL))
            g_free(key);
        g_hash_table_remove_all(rec.in_flight);
    }
}

/* The calling rank's lane: 1 while it runs one of its nonblocking collectives. */
static struct lane *
my_lane(int *rank_out, int *lane_out)
{
    struct sim_rank *me = sim_rank_self();
    if (me == NULL || me->world_rank < 0 || me->world_rank >= rec.nranks)
        return NULL;
    int lane = me->running_flow != NULL ? 1 : 0;
    if (rank_out != NULL)
        *rank_out = me->world_rank;
    if (lane_out != NULL)
        *lane_out = lane;
    return &rec.lanes[me->world_rank * RECORDER_LANES + lane];
}

static const char *
comm_label(MPI_Comm comm)
{
    if (comm == MPI_COMM_NULL)
        return NULL;
    if (comm->name[0] != '\0')
        return g_intern_string(comm->name);
    gchar *name = g_strdup_printf("comm %u", (unsigned)comm->context);
    const char *label = g_intern_string(name);
    g_free(name);
    return label;
}

void
recorder_begin(enum recorder_kind kind, const char *name, int collective, const char *algorithm,
               guint64 bytes, MPI_Comm comm)
{
    struct lane *lane = my_lane(NULL, NULL);
    if (lane == NULL)
        return;
    if (lane->spans == NULL) {
        lane->spans = g_array_new(FALSE, FALSE, sizeof(struct recorder_span));
        lane->open = g_array_new(FALSE, FALSE, sizeof(guint));
    }
    double now = core_clock();
    struct recorder_span span = {
        .kind = kind,
        .depth = (int)lane->open->len,
        .name = g_intern_string(name),
        .collective = collective,
        .algorithm = algorithm != NULL ? g_intern_string(algorithm) : NULL,
        .bytes = bytes,
        .comm = comm_label(comm),
        .start = now,
        .end = now,
    };
    guint index = lane->spans->len;
    g_array_append_val(lane->spans, span);
    g_array_append_val(lane->open, index);
}

void
recorder_end(enum recorder_kind kind)
{
    struct lane *lane = my_lane(NULL, NULL);
    if (lane == NULL || lane->open == NULL || lane->open->len == 0)
        return;
    guint index = g_array_index(lane->open, guint, lane->open->len - 1);
    g_array_set_size(lane->open, lane->open->len - 1);
    struct recorder_span *span = &g_array_index(lane->spans, struct recorder_span, index);
    span->end = core_clock();
    /* the rest is about a wait with nothing nested in it (it is then the last span) */
    if (kind != RECORDER_WAIT || index != lane->spans->len - 1)
        return;
    /* a wait that did not wait says nothing */
    if (span->end == span->start) {
        g_array_set_size(lane->spans, index);
        return;
    }
    /* A blocking call is one slice, as a reader of the trace thinks of it: the wait inside a
     * call of its own name (MPI_Sendrecv) adds nothing to it, and the wait that directly
     * follows the posting of the same call (MPI_Send, MPI_Recv) extends it. Names are
     * interned, so equal names are equal pointers. */
    if (lane->open->len > 0) {
        guint top = g_array_index(lane->open, guint, lane->open->len - 1);
        const struct recorder_span *parent =
            &g_array_index(lane->spans, struct recorder_span, top);
        if (parent->kind == RECORDER_CALL && parent->name == span->name) {
            g_array_set_size(lane->spans, index);
            return;
        }
    }
    if (index > 0) {
        struct recorder_span *post = &g_array_index(lane->spans, struct recorder_span, index - 1);
        if (post->kind == RECORDER_CALL && post->depth == span->depth &&
            post->name == span->name && post->end == span->start) {
            post->end = span->end;
            g_array_set_size(lane->spans, index);
        }
    }
}

void
recorder_message_sent(guint64 serial, int src, int dst, guint64 bytes, gboolean eager)
{
    int lane = 0;
    if (my_lane(NULL, &lane) == NULL)
        return;
    struct recorder_message m = {
        .src = src,
        .dst = dst,
        .src_lane = lane,
        .bytes = bytes,
        .eager = eager,
        .sent = core_clock(),
        .arrived = -1.0,
    };
    g_array_append_val(rec.messages, m);
    gint64 *key = g_new(gint64, 1);
    *key = (gint64)serial;
    g_hash_table_insert(rec.in_flight, key, GUINT_TO_POINTER(rec.messages->len));
}

void
recorder_message_arrived(guint64 serial)
{
    gint64 key = (gint64)serial;
    gpointer stored_key, value;
    if (rec.in_flight == NULL ||
        !g_hash_table_lookup_extended(rec.in_flight, &key, &stored_key, &value))
        return;
    g_hash_table_remove(rec.in_flight, &key);
    g_free(stored_key);
    struct recorder_message *m =
        &g_array_index(rec.messages, struct recorder_message, GPOINTER_TO_UINT(value) - 1);
    m->arrived = core_clock();
    /* the receiver may learn it on one of its flows; the sender (rendezvous) never counts */
    struct sim_rank *me = sim_rank_self();
    m->dst_lane = me != NULL && me->world_rank == m->dst && me->running_flow != NULL ? 1 : 0;
}

void
recorder_coll_hook(int begin, const char *call, int kind, const char *algorithm, size_t bytes,
                   MPI_Comm comm)
{
    if (!RECORDER_ON())
        return;
    if (begin)
        recorder_begin(RECORDER_COLLECTIVE, call, kind, algorithm, bytes, comm);
    else
        recorder_end(RECORDER_COLLECTIVE);
}

int
recorder_nranks(void)
{
    return rec.nranks;
}

const struct recorder_span *
recorder_spans(int rank, int lane, guint *count)
{
    g_return_val_if_fail(rank >= 0 && rank < rec.nranks && lane >= 0 && lane < RECORDER_LANES,
                         NULL);
    GArray *spans = rec.lanes[rank * RECORDER_LANES + lane].spans;
    *count = spans != NULL ? spans->len : 0;
    return spans != NULL ? (const struct recorder_span *)(void *)spans->data : NULL;
}

const struct recorder_message *
recorder_messages(guint *count)
{
    *count = rec.messages != NULL ? rec.messages->len : 0;
    return rec.messages != NULL ? (const struct recorder_message *)(void *)rec.messages->data
                                : NULL;
}

double
recorder_end_time(void)
{
    return rec.end;
}

guint64
recorder_message_count(void)
{
    return rec.messages != NULL ? rec.messages->len : 0;
}
