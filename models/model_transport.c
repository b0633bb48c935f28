/*
 * model_transport.c — eager threshold and per-message software overheads.
 */
#include "model_transport.h"

void
model_transport_defaults(struct model_transport *model)
{
    model->eager_threshold = 65536;
    model->send_overhead = 0.0;
    model->recv_overhead = 0.0;
    model->per_byte_overhead = 0.0;
    model->gap = 0.0;
    /* a failed poll must cost something, or a polling loop never lets time advance */
    model->poll_overhead = 1e-7;
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
