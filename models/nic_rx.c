/* nic_rx.c - the NIC receive ring: frames of arriving bursts admitted at their exact times.
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
#include "models/nic_priv.h"

#include <inttypes.h>

#include "models/observe.h"

#include "models/truesize.h"
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
    return f;
}

static void admit(Nic *n, RxTrain *t)
{
    uint32_t k = t->next++;
    if (t->from && link_dir_lose(t->from)) {
        SIM_LOG(n->dev.host, LOG_NIC, NULL, "random_loss", "dev=eth%u seq=%" PRIu64 " frame=%u of=%u",
                n->dev.index, t->skb->seq, k, t->frames);
        return;
    }
    if (n->rx_ring.qlen >= n->conf->rx_ring) {
        n->dev.stats.rx_ring_drops++;
        n->dev.host->drop_tally++;
        SIM_LOG(n->dev.host, LOG_NIC, NULL, "rx_ring_drop", "dev=eth%u seq=%" PRIu64 " frame=%u of=%u",
                n->dev.index, t->skb->seq, k, t->frames);
        return;
    }
    Skb *f = train_frame(n, t, k);
    skb_queue_tail(&n->rx_ring, f);
    n->dev.stats.rx_frames++;
    n->dev.stats.rx_bytes += wire_frame_bytes(f->len);
}

static void advance(Nic *n, sim_time_t now)
{
    while (n->trains.len) {
        RxTrain *t = trainq_head(&n->trains);
        while (t->next < t->frames && train_arrival(t, t->next) <= now)
            admit(n, t);
        if (t->next < t->frames)
            return;
        skb_free(n->dev.host->pool, t->skb);
        trainq_pop(&n->trains);
    }
}

/* The arrival event (NAPI idle): admit, then interrupt if the ring now holds frames. */
static void nic_rx_event(Sim *sim, void *ctx)
{
    Nic *n = ctx;
    advance(n, sim_now(sim));
    if (!skb_queue_empty(&n->rx_ring))
        nic_irq(n);
    else
        nic_rx_arm(n);
}

void nic_rx_arm(Nic *n)
{
    if (n->napi_scheduled || sim_event_pending(&n->irq_ev) || n->trains.len == 0)
        return;
    RxTrain *t = trainq_head(&n->trains);
    sim_schedule_at(n->dev.host->sim, &n->rx_ev, train_arrival(t, t->next));
}

void nic_rx_train(NetDev *dev, const RxTrain *train)
{
    Nic *n = nic_of(dev);
    g_assert(train->frames > 0);
    trainq_push(&n->trains, train);
    nic_rx_arm(n);
}

Skb *nic_rx_take(Nic *n)
{
    advance(n, sim_now(n->dev.host->sim));
    return skb_dequeue(&n->rx_ring);
}

void nic_rx_init(Nic *n)
{
    skb_queue_init(&n->rx_ring);
    n->rx_frame_truesize = truesize_rx_frame(n->conf->mtu);
    sim_event_init(&n->rx_ev, nic_rx_event, n, EVK_NIC_RX, n->dev.obj);
}

void nic_rx_destroy(Nic *n)
{
    Sim *sim = n->dev.host->sim;
    sim_cancel(sim, &n->rx_ev);
    while (n->trains.len) {
        skb_free(n->dev.host->pool, trainq_head(&n->trains)->skb);
        trainq_pop(&n->trains);
    }
    g_free(n->trains.buf);
    skb_queue_purge(&n->rx_ring, n->dev.host->pool);
}
