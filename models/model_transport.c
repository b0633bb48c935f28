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
