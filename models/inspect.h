/* inspect.h - read-only views into model state that the models keep private, for the
 * invariant checker (models/invariants.c) and tests. Nothing here changes a model.
 */
#ifndef SKSIM_INSPECT_H
#define SKSIM_INSPECT_H

#include <stdbool.h>
#include <stdint.h>

#include "models/netdev.h"
#include "models/tcp.h"
#include "models/world.h"

/* Queue lengths of a device and their limits (models/inspect.c). */
typedef struct NetDevQueues {
    bool loopback;
    uint32_t qdisc_qlen, qdisc_limit;     /* NIC: pfifo qdisc, skbs */
    uint32_t tx_ring_used, tx_ring_limit; /* NIC: TX descriptors held */
    uint32_t rx_ring_qlen, rx_ring_limit; /* NIC: frames in the fullest RX queue's ring */
    uint32_t lo_input_qlen, lo_input_limit; /* loopback: the longest per-CPU input queue of the
                                               host (models/softnet.c, shared with RPS), and
                                               netdev_max_backlog + 1 (the kernel admits one
                                               skb past the limit: it drops when qlen > max) */
} NetDevQueues;
NetDevQueues netdev_queues(const NetDev *dev);

/* link.c: frames and wire bytes queued in direction dir (0: a->b, 1: b->a) now, the one on the
 * wire included (what drop-tail compares with links.L.queue). */
void link_dir_occupancy(const Link *l, int dir, uint64_t *frames, uint64_t *bytes);
/* The direction's queue is a drop-tail buffer beyond a NIC faster than the link
 * (hosts.H.nic.rate); else it holds only the NIC's own ring, which links.L.queue does not bound. */
bool link_dir_is_bottleneck(const Link *l, int dir);

/* world.c: the objects of a world, in scenario order. */
guint world_n_hosts(const World *w);
Host *world_host(const World *w, guint i);
guint world_n_links(const World *w);
Link *world_link(const World *w, guint i);
const LinkConf *world_link_conf(const World *w, guint i);
guint world_n_flows(const World *w);
/* Flow i: its name ("<workload>/<index>"), client and server endpoints. */
const char *world_flow(const World *w, guint i, TcpSock **cl, TcpSock **sv);

#endif
