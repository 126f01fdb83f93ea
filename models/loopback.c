/* loopback.c - the loopback device: transmit on a CPU, receive on that same CPU (notes E.5).
 *
 * loopback_xmit (COST_LOOPBACK_XMIT on the sending CPU) orphans the skb - sk_wmem_alloc is
 * released at once, so TSQ never throttles on lo - and netif_rx queues it on the current CPU's
 * softnet input_pkt_queue (models/softnet.c; RPS does not apply to lo). A full queue
 * (net.core.netdev_max_backlog) drops it, and netif_rx's NET_RX_DROP is not passed on
 * (loopback_xmit returns NETDEV_TX_OK), so unlike a qdisc drop TCP is not told. Skbs are
 * delivered as they were sent - a 64 KB skb stays one segment (lo's MTU is 64 KiB, no GSO) -
 * with the sender's truesize.
 */
#include "models/netdev_priv.h"
#include "models/softnet.h"
#include "models/observe.h"

#include "models/wire.h"

typedef struct Loopback {
    NetDev dev; /* first: a NetDev* of kind NETDEV_LOOPBACK is a Loopback* */
} Loopback;

/* loopback_xmit: NETDEV_TX_OK whatever netif_rx made of the skb, so the sender never learns of
 * a backlog drop (it is a loss, found by TCP's loss detection like one on a wire). */
int loopback_xmit(NetDev *dev, Skb *skb, Cpu *cpu)
{
    cpu_charge_cost(cpu, COST_LOOPBACK_XMIT);
    netdev_tap(dev, skb);
    netdev_skb_orphan(skb, cpu);
    dev->stats.tx_skbs++;
    dev->stats.tx_frames++;
    dev->stats.tx_bytes += wire_ip_len(skb);
    softnet_enqueue(dev->host->softnet, dev, skb, cpu ? cpu_index(cpu) : 0, cpu);
    return NET_XMIT_SUCCESS;
}

NetDev *netdev_new_loopback(Host *h)
{
    Loopback *lo = g_new0(Loopback, 1);
    netdev_init_common(&lo->dev, NETDEV_LOOPBACK, h, 0xffffu);
    return &lo->dev;
}

void loopback_free(NetDev *dev)
{
    Loopback *lo = (Loopback *)dev;
    netdev_destroy_common(dev);
    g_free(lo);
}
