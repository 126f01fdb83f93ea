/* netdev_priv.h - private to the device models: netdev.c, ip.c, nic.c, nic_rx.c, link.c,
 * loopback.c. The rest of the simulator sees only models/netdev.h.
 *
 * A NetDev is the common head of a NIC (nic.c) and of the loopback device (loopback.c); each
 * embeds it as its first member. A Link has two LinkDirs, one per direction; a NIC transmits
 * into its LinkDir and receives bursts ("trains") from its peer's.
 */
#ifndef SKSIM_NETDEV_PRIV_H
#define SKSIM_NETDEV_PRIV_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "models/netdev.h"
#include "models/pcap.h"

typedef enum { NETDEV_NIC, NETDEV_LOOPBACK } NetDevKind;

typedef struct LinkDir LinkDir;

struct NetDev {
    NetDevKind kind;
    Host *host;
    uint32_t index;   /* in host->devs (NICs); 0xffff for loopback */
    uint32_t obj;     /* event object id: host id << 16 | index */
    NetDevStats stats;
    PcapWriter *pcap; /* may be NULL */
    GArray *routes;   /* uint16_t destination host ids (ip_route_add) */
};

void netdev_init_common(NetDev *dev, NetDevKind kind, Host *h, uint32_t index);
void netdev_destroy_common(NetDev *dev);
/* The capture tap (tcpdump's view of the device): no-op without a writer. */
void netdev_tap(NetDev *dev, const Skb *skb);
/* True when dev cuts skb into segments in software: a NIC without TSO, an skb of 2+ segments. */
bool netdev_sw_gso(const NetDev *dev, const Skb *skb);
/* The tap for an skb that software GSO cut: one record per segment (dev_queue_xmit_nit runs
 * after the segmentation), each with its own sequence number; PSH and FIN on the last. */
void netdev_tap_segments(NetDev *dev, const Skb *skb);
/* Received skb leaves the device: RX counters, capture, ip_rcv. */
void netdev_deliver(NetDev *dev, Skb *skb, Cpu *cpu);
/* An skb a CPU's backlog (softnet.c) hands on: loopback counts it received there (its "driver"
 * is process_backlog), a NIC already did in its poll; then netdev_deliver. */
void netdev_backlog_deliver(NetDev *dev, Skb *skb, Cpu *cpu);
/* Uncharge sk_wmem_alloc and run the socket's TX completion hook (skb destructor, tcp_wfree). */
void netdev_skb_orphan(Skb *skb, Cpu *cpu);

/* ---- nic.c / nic_rx.c ---- */

/* One TSO burst on its way to a NIC: its frames arrive back to back at known times.
 * Frame k (0-based) of n arrives (last bit in) at start_ns + k * frame_ns + (k < n - 1 ?
 * frame_ns : last_ns): full frames take frame_ns to serialise, the last one last_ns. */
typedef struct RxTrain {
    Skb *skb;            /* headers of the burst (owned by the receiver) */
    sim_time_t start_ns; /* first bit of frame 0 at the receiver */
    sim_time_t frame_ns;
    sim_time_t last_ns;
    uint32_t frames;
    uint32_t next;       /* frames admitted or dropped so far */
    LinkDir *from;       /* its random-loss process */
} RxTrain;

/* dev_queue_xmit on a NIC: NET_XMIT_SUCCESS, or NET_XMIT_DROP when the qdisc is full. */
int nic_xmit(NetDev *dev, Skb *skb, Cpu *cpu);
void nic_attach_link(NetDev *dev, LinkDir *tx);
/* The link is done with skb (its last frame left, or all its frames were dropped). */
void nic_tx_done(NetDev *dev, Skb *skb);
/* A burst starts arriving (called when the peer starts serialising it). */
void nic_rx_train(NetDev *dev, const RxTrain *train);
void nic_free(NetDev *dev);
NetDevStats nic_stats(const NetDev *dev);

/* ---- link.c ---- */

/* Queue skb on the wire: drop-tail trims the frames beyond the queue limit; the link calls
 * nic_tx_done(from, skb) once the skb's last frame has left (or at once when none fit). */
void link_dir_xmit(LinkDir *d, Skb *skb);
/* The sending NIC is faster than the link (hosts.H.nic.rate): it completes its skbs itself when
 * its port has sent them, and hands the link copies, which the link frees when done with them. */
void link_dir_set_copies(LinkDir *d, uint64_t port_rate);
/* The link's rate, bits per second. */
uint64_t link_dir_rate(const LinkDir *d);
/* The random-loss draw for the next frame of this direction (true = lost, counted). */
bool link_dir_lose(LinkDir *d);
/* link_drops and random_losses of this direction, added into *s. */
void link_dir_add_stats(const LinkDir *d, NetDevStats *s);

/* ---- loopback.c ---- */

/* Always NET_XMIT_SUCCESS (NETDEV_TX_OK): a backlog drop is not reported to the sender. */
int loopback_xmit(NetDev *dev, Skb *skb, Cpu *cpu);
void loopback_free(NetDev *dev);

#endif
