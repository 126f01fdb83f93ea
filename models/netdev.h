/* netdev.h - network devices, links, loopback and the thin IP layer between them and TCP.
 *
 * Transmit: ip_output() routes an skb to the device towards its destination host. A NIC queues
 * it in its qdisc (limit), moves it to the TX ring, segments TSO skbs into MSS frames and
 * serialises them at the link rate; frames then propagate for the link's delay and may be lost
 * (drop-tail bottleneck queue, random loss). TX completion uncharges the sending socket (TSQ).
 * Receive: frames fill the RX ring of their RSS queue (full: dropped and counted), the queue's
 * interrupt raises NET_RX on its IRQ CPU, and NAPI polls the ring in softirq, merging frames with GRO (up to
 * 64 KB / 17 frags per aggregate, flushed at the end of each poll) and handing skbs to ip_rcv().
 * Loopback: transmission enqueues on the sending CPU's input queue (netdev_max_backlog) and that
 * CPU's softirq delivers it (E.5): each skb is one ~64 KB segment, never segmented.
 *
 * Frames of one TSO burst travel as one event where nothing can separate them.
 */
#ifndef SKSIM_NETDEV_H
#define SKSIM_NETDEV_H

#include "models/cpu.h"
#include "models/host.h"
#include "models/skb.h"
#include "sim/config.h"

typedef struct Link Link;

NetDev *netdev_new_nic(Host *h, const NicConf *conf, uint32_t index);
NetDev *netdev_new_loopback(Host *h);
void netdev_free(NetDev *dev);
/* Connect two NICs with a link (both directions, same parameters). Devices and links hold
 * pending events: free them (in any order) before the Sim. */
Link *link_new(Sim *sim, const LinkConf *conf, NetDev *a, NetDev *b, uint64_t seed);
void link_free(Link *l);

/* RSS: the RX queue (0 .. nq - 1) a NIC with nq queues steers a frame from (src_host, sport) to
 * (dst_host, dport) to (nic.c). Fixed and stateless: one flow always gets one queue. */
uint32_t nic_rss_queue(uint16_t src_host, uint16_t sport, uint16_t dst_host, uint16_t dport,
                       uint32_t nq);

/* Routing: skbs for dst_host leave through dev. */
void ip_route_add(Host *h, uint16_t dst_host, NetDev *dev);
/* The verdict dev_queue_xmit hands back up the stack (include/linux/netdevice.h's NET_XMIT_*):
 * SUCCESS, DROP when the skb was not queued (a full qdisc), CN when it was queued but the qdisc
 * signals congestion (not produced by the model's pfifo). A negative value is a local error
 * (no route). */
enum { NET_XMIT_SUCCESS = 0, NET_XMIT_DROP = 1, NET_XMIT_CN = 2 };
#define NET_XMIT_NOROUTE (-1) /* ip_queue_xmit's -EHOSTUNREACH */

/* net_xmit_eval: what a sender makes of the verdict - CN is not a failure (the skb was queued),
 * DROP and negative errors are. */
static inline int net_xmit_eval(int err)
{
    return err == NET_XMIT_CN ? 0 : err;
}

/* Send an skb from the stack; charges COST_DEV_XMIT (or COST_LOOPBACK_XMIT) to cpu. The skb is
 * owned by the device from here on, also when it is dropped (it is freed, its socket uncharged).
 * Returns the device's verdict synchronously, as dev_queue_xmit does to ip_queue_xmit and so to
 * __tcp_transmit_skb: NET_XMIT_DROP when a NIC's qdisc was full. Loopback always answers
 * NET_XMIT_SUCCESS: loopback_xmit returns NETDEV_TX_OK even when netif_rx drops the skb at
 * netdev_max_backlog, so that drop stays a loss on the path. */
int ip_output(Host *h, Skb *skb, Cpu *cpu);
/* Deliver a received skb to its socket: host->socks[dport - 1]->ops->rcv (tcp_v4_rcv); called
 * by NAPI in softirq. IpExtInOctets counted here, IpExtOutOctets in ip_output. */
void ip_rcv(Host *h, Skb *skb, Cpu *cpu);

/* TX completion hook (the skb destructor, tcp_wfree): called when the device is done with an
 * skb that still belongs to a socket - its last frame left the NIC (in the NIC's NAPI poll),
 * loopback_xmit orphaned it, or a queue dropped it - right after sk->wmem_alloc was reduced by
 * skb->truesize. It must not transmit synchronously (the kernel defers to the TSQ tasklet).
 * Implemented by tcp_tsq.c (TSQ). */
void sock_wfree(Sock *sk, const Skb *skb, Cpu *cpu);

/* Capture what tcpdump on dev would see (models/pcap.h): transmitted skbs when the qdisc hands
 * them to the driver (a TSO skb as one packet), received skbs when NAPI hands them to ip_rcv
 * (frames, or GRO skbs); loopback skbs once, at transmit. w == NULL stops capturing. The writer
 * stays the caller's. */
typedef struct PcapWriter PcapWriter;
void netdev_set_pcap(NetDev *dev, PcapWriter *w);
/* Does the host send to dst_host through dev (a NIC's route; never true for loopback)? */
bool netdev_routes_to(const NetDev *dev, uint16_t dst_host);

/* Counters of one device. tx_* count what the NIC put on its link (bytes: wire bytes incl. the
 * per-frame overhead of models/wire.h, so tx_bytes * 8 / rate is the link's busy time); rx_*
 * count frames admitted to the RX ring and skbs delivered to IP; link_drops and random_losses
 * are the losses of the link direction this device transmits into. Loopback: skbs and IP
 * bytes, backlog_drops = netdev_max_backlog overflows. */
typedef struct NetDevStats {
    uint64_t tx_skbs, tx_frames, tx_bytes;
    uint64_t rx_frames, rx_skbs, rx_bytes;
    uint64_t qdisc_drops, rx_ring_drops, link_drops, random_losses, backlog_drops;
} NetDevStats;
NetDevStats netdev_stats(const NetDev *dev);
/* Packets dropped or lost by the host's devices and the links they send into, by every counter
 * of NetDevStats (the socket backlog's drops are the sockets'). */
uint64_t host_dev_drops(const Host *h);

#endif
