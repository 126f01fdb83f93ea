/* softnet.h - each CPU's backlog of received skbs (softnet_data's input_pkt_queue and its
 * backlog NAPI): where netif_rx puts what loopback sends, and where RPS and RFS put the skbs a
 * NIC's interrupt CPU steers to another CPU (hosts.H.nic.rps_cpus, hosts.H.nic.rfs).
 *
 * One Softnet per host, one queue per CPU, shared by every device as in the kernel, so that
 * net.core.netdev_max_backlog bounds them together. An skb queued on another CPU than the one
 * that queues it reaches it by an inter-processor interrupt, sent when the queuing step's charge
 * ends (cpu_acted_at); the IPI raises NET_RX there like a device interrupt.
 */
#ifndef SKSIM_SOFTNET_H
#define SKSIM_SOFTNET_H

#include <stdbool.h>
#include <stdint.h>

#include "models/host.h"

typedef struct Softnet Softnet;

Softnet *softnet_new(Host *h);
void softnet_free(Softnet *sn);

/* enqueue_to_backlog: skb, received on dev, joins CPU target's input queue; from is the CPU
 * that queues it. Returns false when the queue already held more than netdev_max_backlog skbs:
 * the skb was dropped and counted on dev (backlog_drops, SksimNetdevBacklogDrops). */
bool softnet_enqueue(Softnet *sn, NetDev *dev, Skb *skb, uint32_t target, Cpu *from);
/* Skbs of connection conn queued on CPU cpu and not yet delivered (RFS moves a flow to another
 * CPU only when none is left behind: the kernel's last_qtail test). */
uint32_t softnet_flow_pending(const Softnet *sn, uint32_t cpu, uint32_t conn);
/* RFS, sock_rps_record_flow (inet_recvmsg, inet_sendmsg): the socket of connection conn on this
 * host was last used by a task on CPU cpu (the rps_sock_flow_table entry). */
void softnet_rfs_record(Softnet *sn, uint32_t conn, uint32_t cpu);
/* The CPU the socket of connection conn was last used on (softnet_rfs_record), or -1. */
int32_t softnet_rfs_cpu(const Softnet *sn, uint32_t conn);
/* get_rps_cpu for skb, received by a NIC configured with conf on this host, whose flow hash is
 * hash: the CPU whose backlog it joins, or -1 to process it on the receiving CPU. With
 * conf->rfs, a flow goes to the CPU its socket was last used on (softnet_rfs_record), and moves
 * there from the CPU it went to before only once none of its skbs is left in that CPU's backlog
 * (the rps_dev_flow's last_qtail test); a flow whose socket was never used, or without rfs,
 * goes to rps_cpus[reciprocal_scale(hash, n)] when conf->rps_cpus lists any. */
int32_t softnet_rps_cpu(Softnet *sn, const NicConf *conf, const Skb *skb, uint32_t hash);
/* The longest input queue of any CPU (the invariant check of queue limits). */
uint32_t softnet_max_input_qlen(const Softnet *sn);

#endif
