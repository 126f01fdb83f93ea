/* inspect.c - read-only views of private device state (the NIC's queues, the CPUs' backlogs)
 * for the invariant checker; see models/inspect.h. Kept apart from nic.c and loopback.c so that
 * the models stay as they are: this file only reads their structs.
 */
#include "models/inspect.h"

#include "models/nic_priv.h"
#include "models/softnet.h"

NetDevQueues netdev_queues(const NetDev *dev)
{
    NetDevQueues q = { 0 };
    if (dev->kind == NETDEV_LOOPBACK) {
        q.loopback = true;
        q.lo_input_qlen = softnet_max_input_qlen(dev->host->softnet);
        q.lo_input_limit = dev->host->conf->tcp.max_backlog + 1;
        return q;
    }
    const Nic *n = (const Nic *)dev;
    q.qdisc_qlen = qdisc_qlen(n->qdisc);
    q.qdisc_limit = n->conf->qdisc_limit;
    q.tx_ring_used = n->ring_used;
    q.tx_ring_limit = n->conf->tx_ring;
    for (uint32_t i = 0; i < n->nq; i++) /* the fullest RX queue: each has rx_ring descriptors */
        q.rx_ring_qlen = MAX(q.rx_ring_qlen, n->q[i].rx_ring.qlen);
    q.rx_ring_limit = n->conf->rx_ring;
    return q;
}
