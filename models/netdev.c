/* netdev.c - what every network device shares: identity, counters, the capture tap, the
 * routes that point at it, delivery up to IP, and the skb destructor (sk_wmem_alloc uncharge).
 *
 * Kind-specific work lives in nic.c / nic_rx.c (a NIC and its link) and loopback.c.
 */
#include "models/netdev_priv.h"

#include "models/sock.h"
#include "models/wire.h"

void netdev_init_common(NetDev *dev, NetDevKind kind, Host *h, uint32_t index)
{
    dev->kind = kind;
    dev->host = h;
    dev->index = index;
    dev->obj = ((uint32_t)h->id << 16) | (index & 0xffffu);
    dev->routes = g_array_new(FALSE, FALSE, sizeof(uint16_t));
}

void netdev_destroy_common(NetDev *dev)
{
    g_array_free(dev->routes, TRUE);
}

void netdev_free(NetDev *dev)
{
    if (!dev)
        return;
    if (dev->kind == NETDEV_NIC)
        nic_free(dev);
    else
        loopback_free(dev);
}

NetDevStats netdev_stats(const NetDev *dev)
{
    return dev->kind == NETDEV_NIC ? nic_stats(dev) : dev->stats;
}

static uint64_t netdev_drops(const NetDev *dev)
{
    NetDevStats s = netdev_stats(dev);
    return s.qdisc_drops + s.rx_ring_drops + s.link_drops + s.random_losses + s.backlog_drops;
}

uint64_t host_dev_drops(const Host *h)
{
    uint64_t n = netdev_drops(h->loopback);
    for (uint32_t i = 0; i < h->ndevs; i++)
        n += netdev_drops(h->devs[i]);
    return n;
}

void netdev_set_pcap(NetDev *dev, PcapWriter *w)
{
    dev->pcap = w;
}

bool netdev_routes_to(const NetDev *dev, uint16_t dst_host)
{
    for (guint i = 0; i < dev->routes->len; i++)
        if (g_array_index(dev->routes, uint16_t, i) == dst_host)
            return true;
    return false;
}

void ip_route_add(Host *h, uint16_t dst_host, NetDev *dev)
{
    g_assert(dev->host == h);
    if (!netdev_routes_to(dev, dst_host))
        g_array_append_val(dev->routes, dst_host);
}

void netdev_tap(NetDev *dev, const Skb *skb)
{
    if (dev->pcap)
        pcap_writer_write(dev->pcap, sim_now(dev->host->sim), skb);
}

bool netdev_sw_gso(const NetDev *dev, const Skb *skb)
{
    return dev->kind == NETDEV_NIC && !dev->host->conf->nic.tso && skb->gso_segs > 1;
}

void netdev_tap_segments(NetDev *dev, const Skb *skb)
{
    if (!dev->pcap)
        return;
    Skb seg = *skb;
    uint64_t end = skb->seq + skb->len;
    for (uint64_t seq = skb->seq; seq < end; seq += skb->gso_size) {
        bool last = end - seq <= skb->gso_size;
        seg.seq = seq;
        seg.len = last ? (uint32_t)(end - seq) : skb->gso_size;
        seg.end_seq = last ? skb->end_seq : seq + seg.len;
        seg.flags = last ? skb->flags : (uint8_t)(skb->flags & ~(TCPHDR_PSH | TCPHDR_FIN));
        seg.gso_segs = 1;
        seg.gso_size = 0;
        netdev_tap(dev, &seg);
    }
}

void netdev_deliver(NetDev *dev, Skb *skb, Cpu *cpu)
{
    dev->stats.rx_skbs++;
    if (dev->kind == NETDEV_NIC)
        netdev_tap(dev, skb); /* loopback skbs were captured at transmit */
    ip_rcv(dev->host, skb, cpu);
}

void netdev_backlog_deliver(NetDev *dev, Skb *skb, Cpu *cpu)
{
    if (dev->kind == NETDEV_LOOPBACK) {
        dev->stats.rx_frames++;
        dev->stats.rx_bytes += wire_ip_len(skb);
    }
    netdev_deliver(dev, skb, cpu);
}

void netdev_skb_orphan(Skb *skb, Cpu *cpu)
{
    Sock *sk = skb->sk;
    if (!sk)
        return;
    g_assert(sk->wmem_alloc >= skb->truesize);
    sk->wmem_alloc -= skb->truesize;
    skb->sk = NULL;
    sock_wfree(sk, skb, cpu);
}
