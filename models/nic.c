/* nic.c - a NIC: qdisc and TX ring on transmit, RSS queues with interrupt and NAPI on receive.
 *
 * Transmit (dev_queue_xmit -> qdisc -> ndo_start_xmit): an skb joins the qdisc (qdisc.c: a
 * pfifo of hosts.H.nic.qdisc_limit skbs, txqueuelen, or fq_codel); a full pfifo drops it
 * (qdisc_drops; the skb is freed and its socket uncharged, as kfree_skb runs tcp_wfree) and
 * says so to the caller (NET_XMIT_DROP, which TCP turns into CWR while keeping its own copy
 * unsent); fq_codel's drops at enqueue and dequeue are counted the same way. qdisc_run moves
 * skbs to the TX ring while descriptors are free - one descriptor per skb, a TSO skb included:
 * real drivers use one per page frag plus a context descriptor and stop the queue early, but the
 * ring's role here is only to bound how many skbs sit below the qdisc - and the driver hands each
 * to the link, which cuts and serialises its frames (link.c). With byte queue limits
 * (hosts.H.nic.bql, 3.3+) the driver also stops the queue once the bytes handed to the ring
 * and not yet completed pass the limit dql.c learns (netdev_tx_sent_queue: the skb that
 * crosses it still goes), and each poll's TX cleaning reports its bytes and wakes the queue
 * when the new limit leaves room (netdev_tx_completed_queue). An empty qdisc with a free
 * descriptor is the kernel's qdisc bypass. The cost of the xmit path (COST_DEV_XMIT) is charged once per skb by
 * ip_output, whoever later runs the qdisc. hosts.H.nic.tso and nic.gso are for TCP (it builds
 * large skbs with either); the link cuts whatever skb it gets at gso_size, as the NIC's TSO or
 * software GSO would. Without TSO the segmentation is software's: ip_output charges
 * COST_GSO_SEGMENT per segment, and the capture shows the segments.
 *
 * TX completion: when the link reports an skb's last frame gone, the skb waits on tx_done and
 * the device interrupts like for a received frame; the NAPI poll cleans one completion per
 * unit (COST_TX_COMPLETION): the descriptor is freed, the skb destructor uncharges
 * sk_wmem_alloc and runs sock_wfree (TSQ), and the qdisc is run again. So completions run in
 * softirq on the IRQ CPU, as with combined RX/TX queues, and TSQ sees them that late.
 * A poll cleans TX first and then takes RX frames, once each (ixgbe_poll: ixgbe_clean_tx_irq
 * for the vector's TX rings, then ixgbe_clean_rx_irq; mlx5e_napi_poll likewise polls its TX
 * CQs before the RX CQ): a completion that comes in while the poll takes RX frames waits. If
 * one is waiting when the poll completes, re-enabling the interrupt raises it again at once
 * (its cause is pending), after irq_coalesce like any interrupt, and a new poll cleans it.
 *
 * Receive: frames fill the RX ring (nic_rx.c). A frame arriving while NAPI is idle raises the
 * interrupt - at once, or hosts.H.nic.irq_coalesce after that first frame (rx-usecs) - which
 * masks further interrupts and raises NET_RX on hosts.H.nic.irq_cpu with this NIC's NAPI work
 * item. Each poll unit takes ONE frame (COST_RX_FRAME, plus COST_GRO_FRAME with GRO) and feeds
 * GRO (gro.c); delivered skbs go up through ip_rcv. Each poll call costs COST_NAPI_POLL (driver
 * set-up, and the IRQ re-enable when it completes), charged at its first unit. When the ring is
 * empty the poll completes (napi_complete_done): held GRO skbs are flushed, the interrupt is
 * unmasked.
 * A poll that uses its whole weight does not complete: the interrupt stays masked, and only GRO
 * skbs held since an earlier jiffy and the normal list go up (nic_napi_repoll).
 * The NAPI weight and the softirq budgets are applied by softirq.c around the units. As drivers
 * report to __napi_poll, only received frames count against them (SoftirqWork.work), not the
 * TX completions nor the final unit that finds the ring empty (the ring is checked again after
 * the last frame's cost has elapsed, as a driver's poll loop re-reads its descriptors). TX
 * cleaning is bounded per poll instead: past NIC_TX_WORK_LIMIT completions the poll goes on to
 * its RX frames and then reports its whole weight used, and is polled again (ixgbe:
 * clean_complete false -> return budget after the RX rings).
 *
 * RSS (hosts.H.nic.rx_queues, notes D.1): the receive side above is per RX queue (NicQueue in
 * nic_priv.h): each queue has its own RX ring, interrupt and coalescing timer, NAPI work item
 * and GRO context, and raises NET_RX on its own IRQ CPU (hosts.H.nic.irq_cpus[i mod n], or
 * irq_cpu + i modulo the host's CPUs). A burst goes to queue nic_rss_queue(4-tuple) mod
 * rx_queues: a fixed integer hash, so a flow's frames stay on one queue and in order; RPS/RFS
 * are off (the kernel default), so everything up to tcp_v4_rcv runs on that queue's CPU.
 * TX completions all go to queue 0 (combined channel 0): one TX queue feeds one TX completion
 * path, which keeps TSQ's view unchanged; spreading them by the skb's hash would model XPS,
 * which the single qdisc here does not have. With one queue nothing changes.
 */
#include "models/nic_priv.h"

#include <inttypes.h>

#include "models/observe.h"
#include "models/softnet.h"
#include "models/truesize.h"
#include "models/wire.h"

#include "sim/evkind.h"

/* The IRQ CPU of queue q: irq_cpus[q mod n] when the list is given, else (irq_cpu + q) mod
 * cpus - the spread a driver's default affinity hints or irqbalance give consecutive vectors. */
Cpu *nic_irq_cpu(const NicQueue *q)
{
    const Nic *n = q->nic;
    const Host *h = n->dev.host;
    if (!h->cpus)
        return NULL;
    g_assert(n->conf->irq_cpu < h->ncpus);
    const CpuList *l = &n->conf->irq_cpus;
    uint32_t c = l->n ? l->cpu[q->index % l->n] : (n->conf->irq_cpu + q->index) % h->ncpus;
    g_assert(c < h->ncpus);
    return h->cpus[c];
}

/* ---- RSS ---- */

/* MurmurHash3's 64-bit finaliser (fmix64): its two multipliers and its shift. Any fixed,
 * well-mixing integer hash serves: what matters is that the queue is a pure function of the
 * 4-tuple, so a flow never changes queue. The NIC's Toeplitz hash with its random key and
 * indirection table is not modelled: which flows share a queue would differ, not how a queue
 * behaves. */
#define RSS_FMIX_MUL1 0xff51afd7ed558ccdull
#define RSS_FMIX_MUL2 0xc4ceb9fe1a85ec53ull
#define RSS_FMIX_SHIFT 33

static uint64_t flow_hash(uint16_t src_host, uint16_t sport, uint16_t dst_host, uint16_t dport)
{
    uint64_t x = (uint64_t)src_host << 48 | (uint64_t)sport << 32 | (uint64_t)dst_host << 16 |
                 dport;
    x ^= x >> RSS_FMIX_SHIFT;
    x *= RSS_FMIX_MUL1;
    x ^= x >> RSS_FMIX_SHIFT;
    x *= RSS_FMIX_MUL2;
    x ^= x >> RSS_FMIX_SHIFT;
    return x;
}

uint32_t nic_rss_queue(uint16_t src_host, uint16_t sport, uint16_t dst_host, uint16_t dport,
                       uint32_t nq)
{
    if (nq <= 1)
        return 0;
    return (uint32_t)(flow_hash(src_host, sport, dst_host, dport) % nq);
}

/* skb->hash as RPS reads it: the high half of the flow hash, so that the CPU it picks does
 * not follow the RX queue the low half picked. */
static uint32_t rps_hash(const Skb *skb)
{
    return (uint32_t)(flow_hash(skb->src_host, skb->sport, skb->dst_host, skb->dport) >> 32);
}

/* ---- transmit ---- */

/* Bytes BQL counts for an skb (netdev_tx_sent_queue(txq, skb->len)): the Ethernet, IP and TCP
 * headers once - a TSO skb is one skb to the driver - plus its payload. */
static uint32_t nic_bql_bytes(const Skb *skb)
{
    return WIRE_ETH_HDR + wire_tcpip_hdr(skb) + skb->len;
}

/* netdev_tx_sent_queue: count the skb; stop the queue once the ring is over its limit. */
static void nic_bql_sent(Nic *n, Skb *skb)
{
    if (!n->conf->bql)
        return;
    skb->bql_bytes = nic_bql_bytes(skb);
    dql_queued(&n->dql, skb->bql_bytes);
    if (dql_avail(&n->dql) < 0) {
        n->bql_xoff = true;
        SIM_LOG(n->dev.host, LOG_NIC, NULL, "bql_xoff", "dev=eth%u limit=%u inflight=%u",
                n->dev.index, dql_limit(&n->dql), dql_inflight(&n->dql));
    }
}

/* The port sends skb into the link. At the link's rate (the default) the link is the port: it
 * takes the skb and gives it back for the TX completion when its last frame has left. A port
 * faster than the link (hosts.H.nic.rate) sends the frames back to back at its own rate into the
 * link's queue, a bottleneck beyond the NIC: the link gets a copy whose first frame is there
 * after one frame time of the port, and the driver completes the skb when the port is done. */
static void nic_port_send(Nic *n, Skb *skb)
{
    if (!n->fast_port) {
        link_dir_xmit(n->tx, skb);
        return;
    }
    Sim *sim = n->dev.host->sim;
    sim_time_t start = sim_now(sim);
    if (skb->ready_ns > start)
        start = skb->ready_ns;
    if (n->port_free > start)
        start = n->port_free;
    /* frame by frame, each rounded up as the link's are (link.c): the link's arrival times of
     * the copy's frames end where the port is done */
    uint64_t rate = n->conf->rate_bps;
    uint32_t frames = wire_frames(skb);
    sim_time_t full = sim_tx_time_ns(wire_frame_bytes(skb, wire_frame_payload(skb)), rate);
    sim_time_t last = sim_tx_time_ns(wire_frame_bytes(skb, wire_last_payload(skb)), rate);
    Skb *copy = skb_clone(n->dev.host->pool, skb);
    copy->ready_ns = start + (frames > 1 ? full : last);
    n->port_free = start + (sim_time_t)(frames - 1) * full + last;
    skb->ready_ns = n->port_free; /* from here on: its completion time */
    skb_queue_tail(&n->port, skb);
    if (!sim_event_pending(&n->port_ev))
        sim_schedule_at(sim, &n->port_ev, skb->ready_ns);
    link_dir_xmit(n->tx, copy);
}

/* The port has sent the head skb: TX completion, as the link's departure gives it otherwise. */
static void nic_port_done(Sim *sim, void *ctx)
{
    Nic *n = ctx;
    Skb *skb = skb_dequeue(&n->port);
    nic_tx_done(&n->dev, skb);
    if (!skb_queue_empty(&n->port))
        sim_schedule_at(sim, &n->port_ev, n->port.head->ready_ns);
}

/* Free an skb the qdisc refused or dropped, counted as a device drop and on its own counter
 * (tc -s qdisc splits "dropped" the same way: refusals, CoDel's drop_count, drop_overlimit). */
static void nic_qdisc_drop(Nic *n, Skb *skb, CounterId ctr, const char *why)
{
    n->dev.stats.qdisc_drops++;
    n->dev.host->drop_tally++;
    n->dev.host->ctr.v[ctr]++;
    SIM_LOG(n->dev.host, LOG_NIC, n->qdisc_cpu, "qdisc_drop",
            "dev=eth%u why=%s qlen=%u seq=%" PRIu64 " len=%u", n->dev.index, why,
            qdisc_qlen(n->qdisc), skb->seq, skb->len);
    netdev_skb_orphan(skb, n->qdisc_cpu);
    skb_free(n->dev.host->pool, skb);
}

/* An skb fq_codel dropped after queuing it. */
static void nic_qdisc_dropped(void *ctx, Skb *skb, QdiscDropReason why)
{
    if (why == QDISC_DROP_CODEL)
        nic_qdisc_drop(ctx, skb, CTR_SksimQdiscCodelDrops, "codel");
    else
        nic_qdisc_drop(ctx, skb, CTR_SksimQdiscOverlimitDrops, "overlimit");
}

static void nic_qdisc_run(Nic *n, Cpu *cpu)
{
    if (n->qdisc_running)
        return;
    n->qdisc_running = true;
    n->qdisc_cpu = cpu;
    sim_time_t now = sim_now(n->dev.host->sim);
    while (n->ring_used < n->conf->tx_ring && !n->bql_xoff) {
        Skb *skb = qdisc_dequeue(n->qdisc, now);
        if (!skb)
            break;
        n->ring_used++;
        nic_bql_sent(n, skb);
        n->dev.stats.tx_skbs++;
        if (netdev_sw_gso(&n->dev, skb))
            netdev_tap_segments(&n->dev, skb);
        else
            netdev_tap(&n->dev, skb);
        if (n->tx) {
            nic_port_send(n, skb);
        } else {
            n->dev.stats.link_drops++; /* no cable: the frames go nowhere */
            n->dev.host->drop_tally++;
            n->dev.host->ctr.v[CTR_SksimLinkQueueDrops]++;
            nic_tx_done(&n->dev, skb);
        }
    }
    n->qdisc_running = false;
}

/* __dev_xmit_skb: a pfifo that is full refuses the skb (qdisc_drop) and the verdict
 * NET_XMIT_DROP goes back to the caller at once; fq_codel queues it and, over its limits,
 * drops from its fattest flow (NET_XMIT_CN if that is the skb's own). Then the qdisc runs
 * (NET_XMIT_SUCCESS also when the bypass sends the skb straight to the ring). */
int nic_xmit(NetDev *dev, Skb *skb, Cpu *cpu)
{
    Nic *n = nic_of(dev);
    skb->ready_ns = cpu_acted_at(cpu);
    n->qdisc_cpu = cpu;
    int verdict = qdisc_enqueue(n->qdisc, skb);
    if (verdict == NET_XMIT_DROP) {
        nic_qdisc_drop(n, skb, CTR_SksimQdiscDrops, "full");
        return NET_XMIT_DROP;
    }
    nic_qdisc_run(n, cpu);
    return verdict;
}

void nic_attach_link(NetDev *dev, LinkDir *tx)
{
    Nic *n = nic_of(dev);
    n->tx = tx;
    n->fast_port = n->conf->rate_bps > link_dir_rate(tx);
    if (n->fast_port)
        link_dir_set_copies(tx, n->conf->rate_bps);
}

void nic_tx_done(NetDev *dev, Skb *skb)
{
    Nic *n = nic_of(dev);
    skb_queue_tail(&n->tx_done, skb);
    nic_irq(&n->q[0], true);
}

/* netdev_tx_completed_queue at the end of a poll's TX cleaning: report the batch's bytes to
 * BQL, and wake the queue if the new limit leaves room. */
static void nic_bql_completed(NicQueue *q, Cpu *cpu)
{
    Nic *n = q->nic;
    if (!q->tx_clean_bytes)
        return;
    dql_completed(&n->dql, q->tx_clean_bytes, sim_now(n->dev.host->sim));
    q->tx_clean_bytes = 0;
    if (n->bql_xoff && dql_avail(&n->dql) >= 0) {
        n->bql_xoff = false;
        nic_qdisc_run(n, cpu);
    }
}

static void nic_tx_clean(Nic *n, Skb *skb, Cpu *cpu)
{
    cpu_charge_cost(cpu, COST_TX_COMPLETION);
    if (n->conf->irq_mode == NIC_IRQ_IXGBE) /* tx_buffer->bytecount: every frame's headers */
        nic_itr_tx(&n->q[0].itr, (uint64_t)skb->len + (uint64_t)wire_frames(skb) *
                                                          (WIRE_ETH_HDR + wire_ip_len(skb) -
                                                           skb->len));
    g_assert(n->ring_used > 0);
    n->ring_used--;
    if (n->conf->bql)
        n->q[0].tx_clean_bytes += skb->bql_bytes;
    netdev_skb_orphan(skb, cpu);
    skb_free(n->dev.host->pool, skb);
    nic_qdisc_run(n, cpu);
}

/* ---- interrupt and NAPI ---- */

/* The interrupt fires: NAPI is scheduled on the queue's IRQ CPU and the interrupt stays masked
 * until the poll completes. */
static void nic_napi_schedule(NicQueue *q)
{
    Host *h = q->nic->dev.host;
    q->irq_fired = true;
    q->last_irq = sim_now(h->sim);
    h->ctr.v[CTR_SksimNicIrqs]++;
    q->napi_scheduled = true;
    sim_cancel(q->nic->dev.host->sim, &q->rx_ev);
    cpu_raise_softirq(nic_irq_cpu(q), &q->napi);
}

static void nic_irq_event(Sim *sim, void *ctx)
{
    nic_napi_schedule(ctx);
}

/* How long an event that finds the interrupt enabled waits for it (hosts.H.nic.irq_mode): the
 * coalescing delay of its kind (a TX completion's is tx_coalesce when set), or what is left of
 * the throttle interval since the last interrupt. */
static sim_time_t nic_irq_wait(const NicQueue *q, bool tx)
{
    const NicConf *c = q->nic->conf;
    sim_time_t interval = c->irq_coalesce_ns;
    switch (c->irq_mode) {
    case NIC_IRQ_DELAY:
        return tx && c->tx_coalesce_ns ? c->tx_coalesce_ns : interval;
    case NIC_IRQ_IXGBE:
        interval = nic_itr_interval(&q->itr);
        break;
    case NIC_IRQ_THROTTLE:
        break;
    }
    if (!q->irq_fired)
        return 0;
    sim_time_t due = q->last_irq + interval, now = sim_now(q->nic->dev.host->sim);
    return due > now ? due - now : 0;
}

bool nic_irq_rx_sooner(const NicQueue *q, sim_time_t at)
{
    return !sim_event_pending(&q->irq_ev) ||
           sim_event_time(&q->irq_ev) > at + nic_irq_wait(q, false);
}

/* With separate RX and TX delays (bnx2x's status block: one timer per index) the interrupt
 * fires when the first of them runs out, so a pending one can be brought forward. */
void nic_irq(NicQueue *q, bool tx)
{
    if (q->napi_scheduled)
        return;
    Sim *sim = q->nic->dev.host->sim;
    sim_time_t wait = nic_irq_wait(q, tx);
    if (sim_event_pending(&q->irq_ev)) {
        if (sim_event_time(&q->irq_ev) > sim_now(sim) + wait)
            sim_schedule_in(sim, &q->irq_ev, wait);
        return;
    }
    if (wait > 0)
        sim_schedule_in(sim, &q->irq_ev, wait);
    else
        nic_napi_schedule(q);
}

/* napi_complete_done: flush GRO, unmask the interrupt (its cost is in COST_NAPI_POLL); ixgbe
 * first picks its next throttle interval (ixgbe_set_itr). A TX completion that came in after
 * this poll's TX cleaning is a pending cause: the unmasked interrupt fires again as its
 * moderation lets it (an event, so that it finds this poll over). */
static bool nic_napi_complete(NicQueue *q, Cpu *cpu)
{
    gro_flush(&q->gro, cpu);
    q->napi_scheduled = false;
    if (q->nic->conf->irq_mode == NIC_IRQ_IXGBE) {
        sim_time_t was = nic_itr_interval(&q->itr);
        nic_itr_update(&q->itr);
        if (nic_itr_interval(&q->itr) != was)
            SIM_LOG(q->nic->dev.host, LOG_NIC, cpu, "itr", "dev=eth%u queue=%u interval_ns=%" PRId64,
                    q->nic->dev.index, q->index, (int64_t)nic_itr_interval(&q->itr));
    }
    if (q->index == 0 && !skb_queue_empty(&q->nic->tx_done)) {
        g_assert(!sim_event_pending(&q->irq_ev)); /* masked while NAPI was scheduled */
        sim_schedule_in(q->nic->dev.host->sim, &q->irq_ev, nic_irq_wait(q, true));
    }
    nic_rx_arm(q); /* the next frame; with tx_coalesce it may bring a TX interrupt forward */
    return false;
}

/* TX completions one poll cleans at most: ixgbe's default tx work limit (IXGBE_DEFAULT_TX_WORK,
 * the ring's 256 descriptors); mlx5 polls 128 CQEs (MLX5E_TX_CQ_POLL_BUDGET). */
#define NIC_TX_WORK_LIMIT 256u

static bool nic_napi_poll(SoftirqWork *w, Cpu *cpu)
{
    NicQueue *q = w->ctx;
    Nic *n = q->nic;
    /* COST_NAPI_POLL is per call of the driver's poll (the cost row: "one napi_poll call"): a
     * poll that uses its whole weight pays its set-up too, not only the one that completes. */
    if (w->polled == 0) {
        cpu_charge_cost(cpu, COST_NAPI_POLL);
        q->tx_cleaned = 0;
        q->rx_phase = q->index != 0; /* TX completions are cleaned on queue 0 */
        q->tx_incomplete = false;
    }
    if (!q->rx_phase) {
        Skb *skb = skb_dequeue(&n->tx_done);
        if (skb) {
            nic_tx_clean(n, skb, cpu);
            if (++q->tx_cleaned >= NIC_TX_WORK_LIMIT) {
                q->tx_incomplete = true; /* clean_complete = false; RX still gets its turn */
                q->rx_phase = true;
                nic_bql_completed(q, cpu);
            }
            return true;
        }
        q->rx_phase = true;
        nic_bql_completed(q, cpu); /* the TX cleaning of this poll is over */
    }
    Skb *skb = nic_rx_take(q);
    if (!skb) {
        if (!q->tx_incomplete)
            return nic_napi_complete(q, cpu);
        w->work = n->dev.host->conf->tcp.napi_weight; /* return budget: repoll */
        return true;
    }
    w->work++;
    cpu_charge_cost(cpu, COST_RX_FRAME);
    if (n->conf->irq_mode == NIC_IRQ_IXGBE) /* the frame without its FCS */
        nic_itr_rx(&q->itr, WIRE_ETH_HDR + wire_ip_len(skb));
    if (n->conf->gro)
        cpu_charge_cost(cpu, COST_GRO_FRAME);
    gro_receive(&q->gro, skb, cpu);
    return true;
}

/* __napi_poll() after a poll that used its whole weight (the NAPI stays scheduled, the interrupt
 * masked): gro_flush_normal(&q->gro, HZ >= 1000) - held skbs older than this jiffy (all of them
 * when HZ < 1000) and the normal list go up (net/core/dev.c; notes D.2). Checked at the start of
 * the poll's last unit, which is when the model knows the weight is used. */
static void nic_napi_repoll(SoftirqWork *w, Cpu *cpu)
{
    NicQueue *q = w->ctx;
    gro_flush_normal(&q->gro, q->nic->dev.host->hz >= 1000, cpu);
}

/* What GRO hands up: with RPS or RFS (hosts.H.nic.rps_cpus, nic.rfs) the skb joins the
 * backlog of the CPU get_rps_cpu picks, this one included (netif_receive_skb_internal), and
 * that CPU's softirq delivers it; without them it goes up here. */
static void nic_gro_deliver(void *ctx, Skb *skb, Cpu *cpu)
{
    NicQueue *q = ctx;
    Nic *n = q->nic;
    Host *h = n->dev.host;
    bool steer = cpu && (n->conf->rfs || n->conf->rps_cpus.n); /* rps_needed */
    int32_t target = steer ? softnet_rps_cpu(h->softnet, n->conf, skb, rps_hash(skb)) : -1;
    if (target < 0) {
        netdev_deliver(&n->dev, skb, cpu);
        return;
    }
    cpu_charge_cost(cpu, COST_RPS_ENQUEUE);
    softnet_enqueue(h->softnet, &n->dev, skb, (uint32_t)target, cpu);
}

/* ---- life cycle ---- */

static void nic_queue_init(Nic *n, NicQueue *q, uint32_t index)
{
    Host *h = n->dev.host;
    q->nic = n;
    q->index = index;
    sim_event_init(&q->irq_ev, nic_irq_event, q, EVK_NIC_IRQ, n->dev.obj);
    nic_itr_init(&q->itr);
    softirq_work_init(&q->napi, SOFTIRQ_NET_RX, nic_napi_poll, q);
    q->napi.repoll = nic_napi_repoll;
    q->napi.own_work = true;
    GroParams gp;
    gro_params_default(&gp, n->conf->mtu, n->conf->gro);
    if (n->conf->gro_normal_batch)
        gp.normal_batch = n->conf->gro_normal_batch;
    gro_init(&q->gro, &gp, h->pool, nic_gro_deliver, q);
    gro_set_clock(&q->gro, h->sim, h->hz, h->tick_phase);
    nic_rx_init(q);
}

static void nic_queue_destroy(NicQueue *q)
{
    sim_cancel(q->nic->dev.host->sim, &q->irq_ev);
    nic_rx_destroy(q);
    gro_destroy(&q->gro);
}

NetDev *netdev_new_nic(Host *h, const NicConf *conf, uint32_t index)
{
    g_assert(conf->rx_queues >= 1);
    Nic *n = g_new0(Nic, 1);
    netdev_init_common(&n->dev, NETDEV_NIC, h, index);
    n->conf = conf;
    n->qdisc = qdisc_new(conf, nic_qdisc_dropped, n);
    skb_queue_init(&n->tx_done);
    skb_queue_init(&n->port);
    sim_event_init(&n->port_ev, nic_port_done, n, EVK_NIC_TX, n->dev.obj);
    n->rx_frame_truesize = truesize_rx_frame(conf->mtu);
    dql_init(&n->dql, SIM_S, sim_now(h->sim)); /* netdev_queue_init: slack hold time HZ = 1 s */
    n->nq = conf->rx_queues;
    n->q = g_new0(NicQueue, n->nq);
    for (uint32_t i = 0; i < n->nq; i++)
        nic_queue_init(n, &n->q[i], i);
    return &n->dev;
}

void nic_free(NetDev *dev)
{
    Nic *n = nic_of(dev);
    SkbPool *pool = dev->host->pool;
    for (uint32_t i = 0; i < n->nq; i++)
        nic_queue_destroy(&n->q[i]);
    g_free(n->q);
    qdisc_free(n->qdisc, pool);
    skb_queue_purge(&n->tx_done, pool);
    sim_cancel(dev->host->sim, &n->port_ev);
    skb_queue_purge(&n->port, pool);
    netdev_destroy_common(dev);
    g_free(n);
}

NetDevStats nic_stats(const NetDev *dev)
{
    const Nic *n = (const Nic *)dev;
    NetDevStats s = dev->stats;
    if (n->tx)
        link_dir_add_stats(n->tx, &s);
    return s;
}
