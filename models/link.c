/* link.c - a full-duplex link: per direction a drop-tail queue, serialisation at the line rate,
 * propagation delay and random loss.
 *
 * One direction is the transmitting NIC's port plus whatever sits between the hosts, reduced
 * to one bottleneck: the NIC's driver hands it whole skbs (DMA is taken as instantaneous), their
 * frames wait in a drop-tail queue of links.L.queue frames or bytes and leave one after another
 * at links.L.rate. The queue counts every frame that has reached the link and is not yet fully
 * serialised, the one on the wire included; bytes are wire bytes (models/wire.h). Behind a port
 * faster than the link (hosts.H.nic.rate) frame j of an skb reaches the link when the port has
 * sent its last bit, j + 1 port frame times after the port started the skb (nic_port_send), and
 * drop-tail judges each frame against the queue at that instant, as a switch port's buffer does;
 * a NIC at the link's rate is the link's port, whose frames are never dropped here. An skb whose
 * frames do not all fit keeps its first frames up to the first that finds the buffer full and
 * loses the rest (link_drops; PSH/FIN go with the last frame); an skb none of whose frames fit
 * is finished at once.
 *
 * Timing, exact to the ns: a frame of b wire bytes takes sim_tx_time_ns(b, rate) (rounded up per
 * frame: a frame is not done before its last bit); the frames of an skb go back to back; a frame
 * arrives at the peer `delay` after its last bit left. So frame k of a burst whose serialisation
 * starts at t0 has left at t0 + (k + 1) * ft and arrives at t0 + (k + 1) * ft + delay (full
 * frames of ft each; the last frame takes its own, shorter, time).
 *
 * An skb starts no earlier than its Skb.ready_ns, the end of the CPU work of the step that sent
 * it (cpu.h): a head that is not ready waits, still counted as queued, and the event is its
 * start.
 *
 * Events: one pending event per direction, the departure of the head skb's last frame. When an
 * skb reaches the head of the queue its frames are committed to the wire - nothing can separate
 * them any more - and the whole burst is handed to the peer NIC with its arrival arithmetic
 * (nic_rx.c admits each frame at its own time), so a 64 KB burst costs one event here and none
 * in flight. At the departure the sending NIC gets the skb back for its TX completion.
 *
 * Random loss (links.L.loss) is an independent draw per frame from the SimRng stream
 * "link:<name>:ab" (a to b) or "link:<name>:ba", made when the peer admits the frame, in frame
 * order; with loss 0 nothing is drawn.
 */
#include "models/netdev_priv.h"

#include <inttypes.h>

#include "models/observe.h"
#include "models/wire.h"
#include "sim/evkind.h"
#include "sim/rng.h"

struct LinkDir {
    Link *link;
    NetDev *from, *to;
    SkbPool *pool;            /* the sender's: where queued skbs go back at link_free */
    SimEvent ev;              /* departure of the head skb's last frame, or its start */
    bool head_waiting;        /* ev is the head's start: its sender's step has not ended */
    SkbQueue fifo;            /* head = the skb on the wire */
    sim_time_t head_start;    /* when the head's first frame started */
    SimRng rng;
    uint64_t tx_frames, tx_bytes, link_drops, random_losses;
    uint64_t queued_frames;   /* frames of the skbs in fifo, the head's included */
    uint64_t queued_bytes;
    sim_time_t tail_end;      /* when the last skb in fifo will have been serialised */
    bool copies;              /* skbs are the link's own copies: free them when done */
    uint64_t port_rate;       /* with copies: the rate at which their frames reach the link */
};

struct Link {
    Sim *sim;
    const LinkConf *conf;
    LinkDir dir[2];
};

/* ---- serialisation arithmetic ---- */

static sim_time_t frame_time(const LinkDir *d, const Skb *skb, uint32_t payload)
{
    return sim_tx_time_ns(wire_frame_bytes(skb, payload), d->link->conf->rate_bps);
}

/* ---- arrivals behind a faster port ---- */

static sim_time_t port_frame_time(const LinkDir *d, const Skb *skb, uint32_t payload)
{
    return sim_tx_time_ns(wire_frame_bytes(skb, payload), d->port_rate);
}

/* When the last bit of frame j of a copy reaches the link. The port sends the frames back to
 * back from ready_ns less its first frame's time (nic_port_send sets ready_ns to the first
 * frame's arrival): frame j is in j + 1 full frame times after that start, the last frame its
 * own time after the one before. A trimmed copy keeps full frames only, whose arrivals are
 * unchanged. */
static sim_time_t frame_arrival(const LinkDir *d, const Skb *skb, uint32_t j)
{
    uint32_t n = wire_frames(skb);
    sim_time_t full = port_frame_time(d, skb, wire_frame_payload(skb));
    sim_time_t last = port_frame_time(d, skb, wire_last_payload(skb));
    sim_time_t start = skb->ready_ns - (n > 1 ? full : last);
    return j + 1 < n ? start + (sim_time_t)(j + 1) * full
                     : start + (sim_time_t)(n - 1) * full + last;
}

/* Frames of skb that have reached the link by t (at the link's rate the skb is handed over
 * whole). */
static uint32_t frames_arrived(const LinkDir *d, const Skb *skb, sim_time_t t)
{
    uint32_t n = wire_frames(skb);
    if (!d->copies || t >= frame_arrival(d, skb, n - 1))
        return n;
    if (t < skb->ready_ns)
        return 0;
    sim_time_t full = port_frame_time(d, skb, wire_frame_payload(skb));
    uint64_t k = (uint64_t)(t - (skb->ready_ns - full)) / (uint64_t)full;
    return k < n - 1 ? (uint32_t)k : n - 1;
}

/* Frames of skb fully serialised by t when its first frame started at `start`. */
static uint32_t frames_sent(const LinkDir *d, const Skb *skb, sim_time_t start, sim_time_t t)
{
    if (t < start)
        return 0;
    uint32_t n = wire_frames(skb);
    sim_time_t ft = frame_time(d, skb, wire_frame_payload(skb));
    if (t >= start + (sim_time_t)(n - 1) * ft + frame_time(d, skb, wire_last_payload(skb)))
        return n;
    uint64_t done = (uint64_t)(t - start) / (uint64_t)ft;
    return done < n - 1 ? (uint32_t)done : n - 1;
}

/* Wire bytes of frames [from, to) of skb. */
static uint64_t frames_bytes(const Skb *skb, uint32_t from, uint32_t to)
{
    if (to <= from)
        return 0;
    uint32_t n = wire_frames(skb);
    uint64_t full = wire_frame_bytes(skb, wire_frame_payload(skb));
    uint64_t b = (uint64_t)(to - from) * full;
    if (to == n)
        b = b - full + wire_frame_bytes(skb, wire_last_payload(skb));
    return b;
}

/* When the queued skb after one that ends at prev_end starts: back to back, but not before its
 * first frame is there (its ready_ns). */
static sim_time_t next_start(sim_time_t prev_end, const Skb *skb)
{
    return skb->ready_ns > prev_end ? skb->ready_ns : prev_end;
}

static sim_time_t skb_end(const LinkDir *d, const Skb *skb, sim_time_t start)
{
    uint32_t n = wire_frames(skb);
    return start + (sim_time_t)(n - 1) * frame_time(d, skb, wire_frame_payload(skb)) +
           frame_time(d, skb, wire_last_payload(skb));
}

/* When the head skb's first frame starts (or started): a head still waiting starts at its
 * ready_ns (start_head). */
static sim_time_t head_start(const LinkDir *d)
{
    return d->head_waiting ? d->fifo.head->ready_ns : d->head_start;
}

/* Frames and wire bytes queued at t >= now, the one on the wire included, counting every
 * frame of the queued skbs as there: true at any t from the first frame of the next copy the
 * port sends on, the port being done with the queued ones by then. Walks only the skbs that
 * are serialised by t, and the one being serialised then. */
static void queued_at(const LinkDir *d, sim_time_t t, uint64_t *frames, uint64_t *bytes)
{
    *frames = d->queued_frames;
    *bytes = d->queued_bytes;
    sim_time_t end = 0;
    for (const Skb *s = d->fifo.head; s; s = s->next) {
        sim_time_t start = s == d->fifo.head ? head_start(d) : next_start(end, s);
        uint32_t n = wire_frames(s), sent = frames_sent(d, s, start, t);
        *frames -= sent;
        *bytes -= frames_bytes(s, 0, sent);
        if (sent < n)
            return;
        end = skb_end(d, s, start);
    }
}

/* Frames and wire bytes in the queue at `now`, the one on the wire included: the frames that
 * have reached the link and are not serialised yet. */
static void occupancy(const LinkDir *d, sim_time_t now, uint64_t *frames, uint64_t *bytes)
{
    queued_at(d, now, frames, bytes);
    /* the port may still be sending the last skbs' frames */
    for (const Skb *s = d->fifo.tail; s; s = s->prev) {
        uint32_t n = wire_frames(s), in = frames_arrived(d, s, now);
        if (in == n)
            break;
        *frames -= n - in;
        *bytes -= frames_bytes(s, in, n);
    }
}

/* The link is done with skb: back to its NIC for the TX completion, or freed when it is the
 * link's own copy (a NIC faster than the link completed the original already). */
static void dir_done(LinkDir *d, Skb *skb)
{
    if (d->copies)
        skb_free(d->pool, skb);
    else
        nic_tx_done(d->from, skb);
}

/* ---- drop-tail ---- */

/* How many of skb's first frames fit in the queue, each judged when it reaches the link (its
 * last bit; frames_arrived) against what is there then: the frames queued before it, including
 * skb's own earlier frames, less those serialised by then. */
static uint32_t frames_that_fit(const LinkDir *d, const Skb *skb, sim_time_t now)
{
    const LinkConf *c = d->link->conf;
    uint32_t n = wire_frames(skb), k = 0;
    uint64_t full = wire_frame_bytes(skb, wire_frame_payload(skb));
    sim_time_t ft = frame_time(d, skb, wire_frame_payload(skb));
    sim_time_t start = next_start(d->fifo.head ? d->tail_end : now, skb);
    for (; k < n; k++) {
        sim_time_t arrival = frame_arrival(d, skb, k);
        if (arrival < now)
            arrival = now;
        uint64_t frames, bytes;
        queued_at(d, arrival, &frames, &bytes);
        /* skb's own first k frames (full ones) follow the queue ahead */
        uint64_t own_sent = arrival > start ? (uint64_t)(arrival - start) / (uint64_t)ft : 0;
        uint64_t own = k - (own_sent < k ? own_sent : k);
        frames += own;
        bytes += own * full;
        uint64_t b = k + 1 < n ? full : wire_frame_bytes(skb, wire_last_payload(skb));
        if (c->queue_bytes == 0 ? frames + 1 > c->queue_pkts : bytes + b > c->queue_bytes)
            break;
    }
    return k;
}

/* Keep the first k frames of skb (0 < k < frames). */
static void trim_frames(Skb *skb, uint32_t k)
{
    uint32_t mss = wire_frame_payload(skb);
    skb->len = k * mss;
    skb->end_seq = skb->seq + skb->len;
    skb->flags &= (uint8_t)~(TCPHDR_PSH | TCPHDR_FIN);
    skb->gso_segs = (uint16_t)k;
}

/* ---- the wire ---- */

/* The head skb goes on the wire now: hand its burst to the peer, schedule its departure. A
 * head whose sending step is still being charged (Skb.ready_ns) starts when that ends. */
static void start_head(LinkDir *d)
{
    Sim *sim = d->link->sim;
    Skb *h = d->fifo.head;
    uint32_t n = wire_frames(h);
    sim_time_t now = sim_now(sim);
    if (h->ready_ns > now) {
        d->head_waiting = true;
        sim_schedule_at(sim, &d->ev, h->ready_ns);
        return;
    }
    RxTrain t = { .skb = skb_clone(d->to->host->pool, h),
                  .start_ns = now + d->link->conf->delay_ns,
                  .frame_ns = frame_time(d, h, wire_frame_payload(h)),
                  .last_ns = frame_time(d, h, wire_last_payload(h)),
                  .frames = n,
                  .from = d };
    d->head_start = now;
    d->tx_frames += n;
    d->tx_bytes += wire_skb_bytes(h);
    sim_schedule_at(sim, &d->ev, now + (sim_time_t)(n - 1) * t.frame_ns + t.last_ns);
    nic_rx_train(d->to, &t);
}

static void link_departure(Sim *sim, void *ctx)
{
    LinkDir *d = ctx;
    if (d->head_waiting) {
        d->head_waiting = false;
        start_head(d);
        return;
    }
    Skb *done = skb_dequeue(&d->fifo);
    d->queued_frames -= wire_frames(done);
    d->queued_bytes -= wire_skb_bytes(done);
    if (!skb_queue_empty(&d->fifo))
        start_head(d);
    dir_done(d, done);
}

void link_dir_xmit(LinkDir *d, Skb *skb)
{
    uint32_t n = wire_frames(skb);
    /* a NIC at the link's rate is the link's port: its frames wait in its ring, never in a
     * buffer they could overflow; drop-tail is for a bottleneck beyond a faster NIC */
    uint32_t k = d->copies ? frames_that_fit(d, skb, sim_now(d->link->sim)) : n;
    d->link_drops += n - k;
    d->from->host->drop_tally += n - k;
    d->from->host->ctr.v[CTR_SksimLinkQueueDrops] += n - k;
    if (k < n)
        SIM_LOG(d->from->host, LOG_NIC, NULL, "link_drop", "dev=eth%u seq=%" PRIu64 " frames=%u of=%u",
                d->from->index, skb->seq, n - k, n);
    if (k == 0) {
        dir_done(d, skb);
        return;
    }
    if (k < n)
        trim_frames(skb, k);
    sim_time_t now = sim_now(d->link->sim);
    d->tail_end = skb_end(d, skb, next_start(d->fifo.head ? d->tail_end : now, skb));
    d->queued_frames += k;
    d->queued_bytes += wire_skb_bytes(skb);
    skb_queue_tail(&d->fifo, skb);
    if (d->fifo.head == skb)
        start_head(d);
}

bool link_dir_lose(LinkDir *d)
{
    double p = d->link->conf->loss;
    if (p <= 0.0 || !sim_rng_chance(&d->rng, p))
        return false;
    d->random_losses++;
    d->from->host->drop_tally++;
    d->from->host->ctr.v[CTR_SksimLinkRandomLosses]++;
    return true;
}

void link_dir_set_copies(LinkDir *d, uint64_t port_rate)
{
    g_assert(port_rate > d->link->conf->rate_bps);
    d->copies = true;
    d->port_rate = port_rate;
}

uint64_t link_dir_rate(const LinkDir *d)
{
    return d->link->conf->rate_bps;
}

void link_dir_add_stats(const LinkDir *d, NetDevStats *s)
{
    s->tx_frames += d->tx_frames;
    s->tx_bytes += d->tx_bytes;
    s->link_drops += d->link_drops;
    s->random_losses += d->random_losses;
}

/* ---- life cycle ---- */

static void dir_init(Link *l, int i, NetDev *from, NetDev *to, uint64_t seed)
{
    LinkDir *d = &l->dir[i];
    d->link = l;
    d->from = from;
    d->to = to;
    d->pool = from->host->pool;
    skb_queue_init(&d->fifo);
    sim_event_init(&d->ev, link_departure, d, EVK_LINK, from->obj);
    g_autofree char *name = g_strdup_printf("link:%s:%s", l->conf->name ? l->conf->name : "",
                                            i == 0 ? "ab" : "ba");
    sim_rng_init_named(&d->rng, seed, name);
    nic_attach_link(from, d);
}

Link *link_new(Sim *sim, const LinkConf *conf, NetDev *a, NetDev *b, uint64_t seed)
{
    g_assert(a->kind == NETDEV_NIC && b->kind == NETDEV_NIC && conf->rate_bps > 0);
    Link *l = g_new0(Link, 1);
    l->sim = sim;
    l->conf = conf;
    dir_init(l, 0, a, b, seed);
    dir_init(l, 1, b, a, seed);
    return l;
}

void link_free(Link *l)
{
    if (!l)
        return;
    for (int i = 0; i < 2; i++) {
        sim_cancel(l->sim, &l->dir[i].ev);
        skb_queue_purge(&l->dir[i].fifo, l->dir[i].pool);
    }
    g_free(l);
}

bool link_dir_is_bottleneck(const Link *l, int dir)
{
    return l->dir[dir].copies;
}

void link_dir_occupancy(const Link *l, int dir, uint64_t *frames, uint64_t *bytes)
{
    occupancy(&l->dir[dir], sim_now(l->sim), frames, bytes);
}
