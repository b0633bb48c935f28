/*
 * model_transport.c — eager threshold, per-message software overheads and the NIC's gap.
 */
#include "model_transport.h"

#include "model_network.h"

void
model_transport_defaults(struct model_transport *model)
{
    model->per_byte_overhead = 0.0;
    /* overheads, gap and eager threshold: the default network preset's */
    model_network_apply(model_network_default(), model);
    /* a failed poll must cost something, or a polling loop never lets time advance */
    model->poll_overhead = 1e-7;
    /* what MPI libraries do unless a progress thread is asked for (Open MPI, MPICH) */
    model->progress = MODEL_PROGRESS_CALLS;
}

gboolean
model_progress_parse(const char *text, enum model_progress *progress)
{
    if (g_strcmp0(text, "calls") == 0)
        *progress = MODEL_PROGRESS_CALLS;
    else if (g_strcmp0(text, "async") == 0)
        *progress = MODEL_PROGRESS_ASYNC;
    else
        return FALSE;
    return TRUE;
}

const char *
model_progress_name(enum model_progress progress)
{
    return progress == MODEL_PROGRESS_ASYNC ? "async" : "calls";
}

double
model_transport_send_cost(const struct model_transport *model, gsize bytes)
{
    return model->send_overhead + model->per_byte_overhead * (double)bytes;
}

double
model_transport_recv_cost(const struct model_transport *model, gsize bytes)
{
    return model->recv_overhead + model->per_byte_overhead * (double)bytes;
}
