/* ip.c - the thin IPv4 layer between TCP and the devices: ip_output routes, ip_rcv demuxes.
 *
 * ip_output (ip_queue_xmit -> ip_finish_output2 -> dev_queue_xmit): an skb for this host goes
 * to the loopback device, any other to the device whose routes list its destination (one
 * device per link; ip_route_add fills the table when the world is built). IpExtOutOctets counts
 * the IP packet once per skb, a TSO skb included, as the kernel does before segmentation. The
 * device's verdict (NET_XMIT_*) goes back to the caller, as dev_queue_xmit's return value goes
 * back through ip_finish_output2 and ip_local_out to __tcp_transmit_skb.
 *
 * ip_rcv (ip_rcv -> ip_local_deliver -> tcp_v4_rcv): IpExtInOctets counts the IP packet of each
 * skb (a GRO skb once, with its merged length), then the socket is found by destination port in
 * host->socks and its protocol receive handler runs. Neither layer does any checksum, option,
 * fragment or netfilter work; their CPU cost is charged from the host's cost table. A NIC
 * without TSO gets its TCP skbs cut in software (GSO): costs.gso_segment per segment.
 */
#include "models/netdev_priv.h"

#include "models/sock.h"
#include "models/wire.h"

static NetDev *ip_route(Host *h, uint16_t dst_host)
{
    if (dst_host == h->id)
        return h->loopback;
    for (uint32_t i = 0; i < h->ndevs; i++)
        if (h->devs[i] && netdev_routes_to(h->devs[i], dst_host))
            return h->devs[i];
    return NULL;
}

int ip_output(Host *h, Skb *skb, Cpu *cpu)
{
    NetDev *dev = ip_route(h, skb->dst_host);
    if (!dev) {
        g_critical("ip_output: host %s has no route to host %u", h->name, skb->dst_host);
        netdev_skb_orphan(skb, cpu);
        skb_free(h->pool, skb);
        return NET_XMIT_NOROUTE;
    }
    h->ctr.v[CTR_IpExtOutOctets] += wire_ip_len(skb);
    if (dev->kind == NETDEV_LOOPBACK)
        return loopback_xmit(dev, skb, cpu);
    cpu_charge_cost(cpu, COST_DEV_XMIT);
    /* validate_xmit_skb -> skb_gso_segment; charged before the skb reaches the qdisc, so that
     * its frames leave after the work (the kernel cuts at dequeue: a skb the full qdisc drops
     * would not pay it, a case this ignores) */
    if (netdev_sw_gso(dev, skb))
        cpu_charge_op(cpu, COST_GSO_SEGMENT,
                      (sim_time_t)skb->gso_segs * host_cost(h, COST_GSO_SEGMENT));
    return nic_xmit(dev, skb, cpu);
}

static Sock *ip_lookup(const Host *h, uint16_t dport)
{
    if (!h->socks || dport == 0 || dport > h->socks->len)
        return NULL;
    return g_ptr_array_index(h->socks, dport - 1u);
}

void ip_rcv(Host *h, Skb *skb, Cpu *cpu)
{
    cpu_charge_cost(cpu, COST_IP_RCV);
    h->ctr.v[CTR_IpExtInOctets] += wire_ip_len(skb);
    Sock *sk = ip_lookup(h, skb->dport);
    if (!sk) {
        g_critical("ip_rcv: host %s has no socket on port %u", h->name, skb->dport);
        skb_free(h->pool, skb);
        return;
    }
    sk->ops->rcv(sk, skb, cpu);
}
