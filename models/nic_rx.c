/* nic_rx.c - the NIC receive rings: frames of arriving bursts admitted at their exact times.
 *
 * RSS: a NIC has hosts.H.nic.rx_queues RX queues (nic_priv.h NicQueue), each with its own ring,
 * train queue and arrival event; a burst goes to the queue its 4-tuple hashes to
 * (nic_rss_queue, nic.c), so the frames of one flow stay in order on one queue. Everything
 * below is per queue. The link's random-loss draws are taken as each queue admits its frames,
 * so with several queues their order across queues follows the polls (still deterministic).
 *
 * A peer link hands over a whole TSO burst when it starts serialising it (nothing can separate
 * its frames once they are on the wire), as an RxTrain whose frame k arrives at a time computed
 * arithmetically (netdev_priv.h). Frames are admitted lazily: whenever the ring is touched (the
 * NAPI poll takes a frame, or the arrival event fires while NAPI is idle), every frame that has
 * arrived by now is admitted first, in arrival order. Between two touches nothing leaves the
 * ring, so deciding the admissions late gives exactly the drops an event per frame would give:
 * a frame finding rx_ring descriptors in use is dropped (rx_ring_drops), a frame the link's
 * loss process picks is lost. Frames arriving at the same instant as a ring operation count as
 * arrived before it.
 *
 * While NAPI is idle (interrupt enabled) one event waits for the next frame's arrival; the
 * frame raises the interrupt (nic.c). While NAPI is scheduled no event is needed: the poll
 * admits what has arrived each time it takes a frame.
 */
#include "models/softnet.h"
#include "models/nic_priv.h"

#include <inttypes.h>

#include "models/observe.h"

#include "models/wire.h"
#include "sim/evkind.h"

/* ---- the train queue ---- */

static RxTrain *trainq_head(TrainQ *q)
{
    return &q->buf[q->head];
}

static void trainq_push(TrainQ *q, const RxTrain *t)
{
    if (q->len == q->cap) {
        uint32_t cap = q->cap ? q->cap * 2 : 16;
        RxTrain *buf = g_new(RxTrain, cap);
        for (uint32_t i = 0; i < q->len; i++)
            buf[i] = q->buf[(q->head + i) % q->cap];
        g_free(q->buf);
        q->buf = buf;
        q->cap = cap;
        q->head = 0;
    }
    q->buf[(q->head + q->len) % q->cap] = *t;
    q->len++;
}

static void trainq_pop(TrainQ *q)
{
    q->head = (q->head + 1) % q->cap;
    q->len--;
}

/* ---- arrivals ---- */

static sim_time_t train_arrival(const RxTrain *t, uint32_t k)
{
    sim_time_t own = k + 1 < t->frames ? t->frame_ns : t->last_ns;
    return t->start_ns + (sim_time_t)k * t->frame_ns + own;
}

/* Frame k of the burst as the driver builds it: its slice of the sequence space; PSH and FIN
 * only on the last frame (tcp_gso_segment); the whole RX buffer as truesize. */
static Skb *train_frame(Nic *n, const RxTrain *t, uint32_t k)
{
    const Skb *b = t->skb;
    uint32_t mss = wire_frame_payload(b);
    bool last = k + 1 == t->frames;
    Skb *f = skb_clone(n->dev.host->pool, b);
    f->seq = b->seq + (uint64_t)k * mss;
    f->len = last ? wire_last_payload(b) : mss;
    if (!last)
        f->flags &= (uint8_t)~(TCPHDR_PSH | TCPHDR_FIN);
    f->end_seq = f->seq + f->len + ((f->flags & (TCPHDR_SYN | TCPHDR_FIN)) ? 1u : 0u);
    f->gso_segs = 1;
    f->gso_size = 0;
    f->truesize = n->rx_frame_truesize;
    f->tx_time = f->first_tx_time = 0;
    f->sacked = 0;
    f->ever_retrans = false;
    f->pcount_delivered = 0;
    f->cloned = false; /* the driver's own buffer, not the sender's clone */
    return f;
}

/* A frame lost or dropped on its way into queue q: the log line names the queue only when the
 * NIC has several, so single-queue logs stay as they were. */
static void rx_log(const NicQueue *q, const char *event, const RxTrain *t, uint32_t k)
{
    const Nic *n = q->nic;
    if (n->nq > 1)
        SIM_LOG(n->dev.host, LOG_NIC, NULL, event,
                "dev=eth%u queue=%u seq=%" PRIu64 " frame=%u of=%u", n->dev.index, q->index,
                t->skb->seq, k, t->frames);
    else
        SIM_LOG(n->dev.host, LOG_NIC, NULL, event, "dev=eth%u seq=%" PRIu64 " frame=%u of=%u",
                n->dev.index, t->skb->seq, k, t->frames);
}

static void admit(NicQueue *q, RxTrain *t)
{
    Nic *n = q->nic;
    uint32_t k = t->next++;
    if (t->from && link_dir_lose(t->from)) {
        rx_log(q, "random_loss", t, k);
        return;
    }
    if (q->rx_ring.qlen >= n->conf->rx_ring) {
        n->dev.stats.rx_ring_drops++;
        n->dev.host->drop_tally++;
        n->dev.host->ctr.v[CTR_SksimRxRingDrops]++;
        rx_log(q, "rx_ring_drop", t, k);
        return;
    }
    Skb *f = train_frame(n, t, k);
    skb_queue_tail(&q->rx_ring, f);
    n->dev.stats.rx_frames++;
    n->dev.stats.rx_bytes += wire_frame_bytes(f, f->len);
}

static void advance(NicQueue *q, sim_time_t now)
{
    while (q->trains.len) {
        RxTrain *t = trainq_head(&q->trains);
        while (t->next < t->frames && train_arrival(t, t->next) <= now)
            admit(q, t);
        if (t->next < t->frames)
            return;
        skb_free(q->nic->dev.host->pool, t->skb);
        trainq_pop(&q->trains);
    }
}

/* The arrival event (NAPI idle): admit, then interrupt if the ring now holds frames. */
static void nic_rx_event(Sim *sim, void *ctx)
{
    NicQueue *q = ctx;
    advance(q, sim_now(sim));
    if (!skb_queue_empty(&q->rx_ring))
        nic_irq(q, false);
    else
        nic_rx_arm(q);
}

void nic_rx_arm(NicQueue *q)
{
    if (q->napi_scheduled || q->trains.len == 0)
        return;
    RxTrain *t = trainq_head(&q->trains);
    sim_time_t at = train_arrival(t, t->next);
    if (at < sim_now(q->nic->dev.host->sim)) {
        /* it came in while an interrupt was due that it could not bring forward (else this
         * event would have been armed for it), and so could no later frame */
        g_assert(sim_event_pending(&q->irq_ev));
        return;
    }
    if (nic_irq_rx_sooner(q, at))
        sim_schedule_at(q->nic->dev.host->sim, &q->rx_ev, at);
}

/* Accelerated RFS: the queue whose interrupt CPU is where the flow's socket was last used, or
 * NULL (no such queue, or the socket not used yet). */
static NicQueue *arfs_queue(Nic *n, const Skb *h)
{
    int32_t cpu = softnet_rfs_cpu(n->dev.host->softnet, h->conn);
    if (cpu < 0)
        return NULL;
    for (uint32_t i = 0; i < n->nq; i++) {
        const Cpu *c = nic_irq_cpu(&n->q[i]);
        if (c && cpu_index(c) == (uint32_t)cpu)
            return &n->q[i];
    }
    return NULL;
}

/* RSS: the burst joins the queue its 4-tuple hashes to (one hash per burst, not per frame);
 * with accelerated RFS (hosts.H.nic.arfs) the queue of its socket's CPU when there is one. */
void nic_rx_train(NetDev *dev, const RxTrain *train)
{
    Nic *n = nic_of(dev);
    g_assert(train->frames > 0);
    const Skb *h = train->skb;
    NicQueue *q = n->conf->arfs ? arfs_queue(n, h) : NULL;
    if (!q)
        q = &n->q[nic_rss_queue(h->src_host, h->sport, h->dst_host, h->dport, n->nq)];
    trainq_push(&q->trains, train);
    nic_rx_arm(q);
}

Skb *nic_rx_take(NicQueue *q)
{
    advance(q, sim_now(q->nic->dev.host->sim));
    return skb_dequeue(&q->rx_ring);
}

void nic_rx_init(NicQueue *q)
{
    skb_queue_init(&q->rx_ring);
    sim_event_init(&q->rx_ev, nic_rx_event, q, EVK_NIC_RX, q->nic->dev.obj);
}

void nic_rx_destroy(NicQueue *q)
{
    SkbPool *pool = q->nic->dev.host->pool;
    sim_cancel(q->nic->dev.host->sim, &q->rx_ev);
    while (q->trains.len) {
        skb_free(pool, trainq_head(&q->trains)->skb);
        trainq_pop(&q->trains);
    }
    g_free(q->trains.buf);
    skb_queue_purge(&q->rx_ring, pool);
}
