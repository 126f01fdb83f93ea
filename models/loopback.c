/* loopback.c - the loopback device: transmit on a CPU, receive on that same CPU (notes E.5).
 *
 * loopback_xmit (COST_LOOPBACK_XMIT on the sending CPU) orphans the skb - sk_wmem_alloc is
 * released at once, so TSQ never throttles on lo - and netif_rx queues it on the current CPU's
 * softnet input_pkt_queue (RPS off). The kernel accepts an skb while that queue holds at most
 * net.core.netdev_max_backlog skbs (enqueue_to_backlog tests qlen <= max_backlog), so 1001 fit
 * with the default 1000 and the next is dropped (backlog_drops); netif_rx's NET_RX_DROP is not
 * passed on (loopback_xmit returns NETDEV_TX_OK), so unlike a qdisc drop TCP is not told. The
 * first skb into an idle queue schedules the per-CPU backlog NAPI on that CPU (raise NET_RX).
 *
 * process_backlog: each unit delivers ONE skb through ip_rcv. When its process_queue is empty it
 * takes the whole input_pkt_queue over (skb_queue_splice), so new skbs find an empty input
 * queue again while older ones are still being delivered; the poll ends when both are empty.
 * The weight (dev_rx_weight, 64) is applied by cpu.c like any NAPI weight. Skbs are delivered
 * as they were sent - a 64 KB skb stays one segment (lo's MTU is 64 KiB, no GSO) - with the
 * sender's truesize.
 */
#include "models/netdev_priv.h"
#include "models/observe.h"

#include "models/wire.h"

typedef struct Loopback Loopback;

typedef struct LoBacklog { /* softnet_data of one CPU, for lo */
    Loopback *lo;
    SkbQueue input;   /* input_pkt_queue */
    SkbQueue process; /* process_queue */
    SoftirqWork napi; /* sd->backlog */
    bool scheduled;
} LoBacklog;

struct Loopback {
    NetDev dev; /* first: a NetDev* of kind NETDEV_LOOPBACK is a Loopback* */
    uint32_t ncpus;
    LoBacklog *percpu;
};

static bool process_backlog(SoftirqWork *w, Cpu *cpu)
{
    LoBacklog *b = w->ctx;
    if (skb_queue_empty(&b->process)) {
        Skb *skb;
        while ((skb = skb_dequeue(&b->input)) != NULL)
            skb_queue_tail(&b->process, skb);
    }
    Skb *skb = skb_dequeue(&b->process);
    if (skb) {
        b->lo->dev.stats.rx_frames++;
        b->lo->dev.stats.rx_bytes += wire_ip_len(skb);
        netdev_deliver(&b->lo->dev, skb, cpu);
    }
    if (skb_queue_empty(&b->process) && skb_queue_empty(&b->input)) {
        b->scheduled = false;
        return false;
    }
    return true;
}

static void enqueue_to_backlog(Loopback *lo, LoBacklog *b, Skb *skb, Cpu *cpu)
{
    uint32_t max_backlog = lo->dev.host->conf->tcp.max_backlog;
    if (b->input.qlen > max_backlog) {
        lo->dev.stats.backlog_drops++;
        lo->dev.host->drop_tally++;
        lo->dev.host->ctr.v[CTR_SksimNetdevBacklogDrops]++;
        SIM_LOG(lo->dev.host, LOG_NIC, cpu, "lo_backlog_drop", "dev=lo qlen=%u", b->input.qlen);
        skb_free(lo->dev.host->pool, skb);
        return;
    }
    skb_queue_tail(&b->input, skb);
    if (!b->scheduled) {
        b->scheduled = true;
        cpu_raise_softirq(cpu, &b->napi);
    }
}

/* loopback_xmit: NETDEV_TX_OK whatever netif_rx made of the skb, so the sender never learns of
 * a backlog drop (it is a loss, found by TCP's loss detection like one on a wire). */
int loopback_xmit(NetDev *dev, Skb *skb, Cpu *cpu)
{
    Loopback *lo = (Loopback *)dev;
    cpu_charge_cost(cpu, COST_LOOPBACK_XMIT);
    netdev_tap(dev, skb);
    netdev_skb_orphan(skb, cpu);
    dev->stats.tx_skbs++;
    dev->stats.tx_frames++;
    dev->stats.tx_bytes += wire_ip_len(skb);
    uint32_t i = cpu ? cpu_index(cpu) : 0;
    g_assert(i < lo->ncpus);
    enqueue_to_backlog(lo, &lo->percpu[i], skb, cpu);
    return NET_XMIT_SUCCESS;
}

NetDev *netdev_new_loopback(Host *h)
{
    Loopback *lo = g_new0(Loopback, 1);
    netdev_init_common(&lo->dev, NETDEV_LOOPBACK, h, 0xffffu);
    lo->ncpus = h->ncpus ? h->ncpus : 1;
    lo->percpu = g_new0(LoBacklog, lo->ncpus);
    for (uint32_t i = 0; i < lo->ncpus; i++) {
        LoBacklog *b = &lo->percpu[i];
        b->lo = lo;
        skb_queue_init(&b->input);
        skb_queue_init(&b->process);
        softirq_work_init(&b->napi, SOFTIRQ_NET_RX, process_backlog, b);
    }
    return &lo->dev;
}

void loopback_free(NetDev *dev)
{
    Loopback *lo = (Loopback *)dev;
    for (uint32_t i = 0; i < lo->ncpus; i++) {
        skb_queue_purge(&lo->percpu[i].input, dev->host->pool);
        skb_queue_purge(&lo->percpu[i].process, dev->host->pool);
    }
    g_free(lo->percpu);
    netdev_destroy_common(dev);
    g_free(lo);
}

uint32_t loopback_max_input_qlen(const NetDev *dev)
{
    const Loopback *lo = (const Loopback *)dev;
    uint32_t m = 0;
    for (uint32_t i = 0; i < lo->ncpus; i++)
        m = MAX(m, lo->percpu[i].input.qlen);
    return m;
}
