/* qdisc.c - the root qdisc of a NIC: pfifo, or fq_codel (models/qdisc.h).
 *
 * pfifo is the FIFO sksim always had: qdisc_limit skbs, a full queue refuses the next.
 *
 * fq_codel follows net/sched/sch_fq_codel.c and include/net/codel_impl.h (RFC 8289, 8290) as
 * far as a simulation of TCP hosts needs it:
 *  - flows: 1024 buckets, an skb's chosen by its connection (the kernel hashes the 5-tuple with
 *    a random perturbation; here a fixed multiplicative hash, so runs repeat). Each bucket is a
 *    FIFO with its byte backlog, a deficit and CoDel's state.
 *  - scheduling: deficit round robin with a quantum of MTU + 14 (psched_mtu), counted in
 *    qdisc_pkt_len, the bytes of all the skb's frames with their Ethernet, IP and TCP headers
 *    (a 64 KB TSO skb costs ~46 quanta). A flow that becomes backlogged joins new_flows with a
 *    full quantum; a flow whose deficit is used up goes to the tail of old_flows with another
 *    quantum; new_flows are served first. An empty new flow passes through old_flows once (so
 *    that new flows cannot starve old ones), an empty old flow leaves.
 *  - CoDel per flow, at dequeue: an skb's sojourn is now - its arrival (skb->ready_ns, when its
 *    sending step's CPU work ended). Once sojourns stay at or above target for a whole interval
 *    - and the qdisc holds more than one MTU - the head is dropped and CoDel enters its
 *    dropping state: the next drop comes interval / sqrt(count) later, count growing by one per
 *    drop, until a sojourn falls below target. Re-entering within 16 intervals of the last
 *    drop resumes from the drops of the previous cycle (count - lastcount). The kernel computes
 *    1/sqrt(count) with one Newton step per drop in 16-bit fixed point and keeps times in
 *    1024 ns units; the model takes the exact square root and nanoseconds.
 *  - overflow: past qdisc_limit skbs or qdisc_memory_limit bytes of truesize, the flow with the
 *    largest backlog loses skbs from its head until half its bytes or 64 skbs are gone, and its
 *    CoDel count grows by as many; NET_XMIT_CN when it was the enqueuing skb's flow.
 * Not modelled: ECN marking (sksim has no ECN), ce_threshold, drop_batch_size and flows as
 * tunables, GSO splitting.
 */
#include "models/qdisc.h"

#include <glib.h>

#include "models/netdev.h"
#include "models/wire.h"

#define FQ_FLOWS 1024u        /* fq_codel's default flows */
#define FQ_DROP_BATCH 64u     /* drop_batch_size */
#define FQ_RESUME_INTERVALS 16 /* CoDel resumes its last drop rate within 16 intervals */

typedef struct CodelVars {
    uint32_t count, lastcount; /* drops in the current / previous dropping state */
    bool dropping;
    sim_time_t first_above_time; /* 0: the sojourn is below target */
    sim_time_t drop_next;
} CodelVars;

typedef struct FqFlow {
    SkbQueue q;
    uint64_t backlog;        /* qdisc_pkt_len of the skbs queued */
    int64_t deficit;
    CodelVars cv;
    struct FqFlow *next;     /* in new_flows or old_flows */
    bool listed;
} FqFlow;

typedef struct FlowList {
    FqFlow *head, *tail;
} FlowList;

struct Qdisc {
    const NicConf *conf;
    QdiscDropFn drop;
    void *ctx;
    SkbQueue fifo;           /* pfifo */
    FqFlow *flows;           /* fq_codel: FQ_FLOWS */
    FlowList new_flows, old_flows;
    uint32_t qlen;
    uint64_t backlog;        /* qdisc_pkt_len of all skbs queued (sch->qstats.backlog) */
    uint64_t memory;         /* their truesize (memory_usage) */
    uint32_t quantum;        /* psched_mtu: MTU + Ethernet header */
    QdiscStats st;
};

/* qdisc_pkt_len: every frame with its Ethernet, IP and TCP headers (qdisc_pkt_len_init). */
static uint64_t pkt_len(const Skb *skb)
{
    return (uint64_t)skb->len +
           (uint64_t)wire_frames(skb) * (WIRE_ETH_HDR + WIRE_IP_HDR + wire_tcp_hdr_len(skb));
}

static FqFlow *flow_of(Qdisc *q, const Skb *skb)
{
    uint64_t h = ((uint64_t)skb->conn * 2u + (skb->src_host < skb->dst_host)) *
                 0x9E3779B97F4A7C15ull;
    return &q->flows[h >> 54]; /* the top 10 bits: FQ_FLOWS buckets */
}

static void flow_push(Qdisc *q, FqFlow *f, Skb *skb)
{
    uint64_t len = pkt_len(skb);
    skb_queue_tail(&f->q, skb);
    f->backlog += len;
    q->backlog += len;
    q->memory += skb->truesize;
    q->qlen++;
}

static Skb *flow_pop(Qdisc *q, FqFlow *f)
{
    Skb *skb = skb_dequeue(&f->q);
    if (!skb)
        return NULL;
    uint64_t len = pkt_len(skb);
    f->backlog -= len;
    q->backlog -= len;
    q->memory -= skb->truesize;
    q->qlen--;
    return skb;
}

static void list_add_tail(FlowList *l, FqFlow *f)
{
    f->next = NULL;
    if (l->tail)
        l->tail->next = f;
    else
        l->head = f;
    l->tail = f;
}

static FqFlow *list_pop(FlowList *l)
{
    FqFlow *f = l->head;
    l->head = f->next;
    if (!l->head)
        l->tail = NULL;
    f->next = NULL;
    return f;
}

Qdisc *qdisc_new(const NicConf *conf, QdiscDropFn drop, void *ctx)
{
    Qdisc *q = g_new0(Qdisc, 1);
    q->conf = conf;
    q->drop = drop;
    q->ctx = ctx;
    skb_queue_init(&q->fifo);
    q->quantum = conf->mtu + WIRE_ETH_HDR;
    if (conf->qdisc == NIC_QDISC_FQ_CODEL) {
        q->flows = g_new0(FqFlow, FQ_FLOWS);
        for (uint32_t i = 0; i < FQ_FLOWS; i++)
            skb_queue_init(&q->flows[i].q);
    }
    return q;
}

void qdisc_free(Qdisc *q, SkbPool *pool)
{
    if (!q)
        return;
    skb_queue_purge(&q->fifo, pool);
    if (q->flows)
        for (uint32_t i = 0; i < FQ_FLOWS; i++)
            skb_queue_purge(&q->flows[i].q, pool);
    g_free(q->flows);
    g_free(q);
}

uint32_t qdisc_qlen(const Qdisc *q)
{
    return q->conf->qdisc == NIC_QDISC_FQ_CODEL ? q->qlen : q->fifo.qlen;
}

QdiscStats qdisc_stats(const Qdisc *q)
{
    return q->st;
}

/* ---- CoDel ---- */

/* floor(sqrt(x)) for 64-bit x (Newton's method from above). */
static uint64_t isqrt64(uint64_t x)
{
    if (x < 2)
        return x;
    uint64_t r = x, y = (r + 1) / 2;
    while (y < r) {
        r = y;
        y = (r + x / r) / 2;
    }
    return r;
}

/* codel_control_law: t + interval / sqrt(count), with sqrt(count) in 16.16 fixed point. */
static sim_time_t control_law(sim_time_t t, sim_time_t interval, uint32_t count)
{
    uint64_t root = isqrt64((uint64_t)(count ? count : 1) << 32); /* sqrt(count) x 2^16 */
    return t + (sim_time_t)(((uint64_t)interval << 16) / root);
}

/* codel_should_drop for the skb just taken from the flow (NULL: the flow ran empty). */
static bool should_drop(const Qdisc *q, CodelVars *cv, const Skb *skb, sim_time_t now)
{
    if (!skb) {
        cv->first_above_time = 0;
        return false;
    }
    sim_time_t sojourn = now - skb->ready_ns;
    if (sojourn < q->conf->codel_target_ns || q->backlog <= q->conf->mtu + WIRE_ETH_HDR) {
        cv->first_above_time = 0; /* below target: it must stay above a whole interval again */
        return false;
    }
    if (cv->first_above_time == 0) {
        cv->first_above_time = now + q->conf->codel_interval_ns;
        return false;
    }
    return now > cv->first_above_time;
}

static void codel_drop(Qdisc *q, Skb *skb)
{
    q->drop(q->ctx, skb, QDISC_DROP_CODEL);
}

/* The dropping state: drop the head each time drop_next passes, until the sojourn falls below
 * target or the flow runs empty. Returns the skb to send (or NULL). */
static Skb *codel_keep_dropping(Qdisc *q, FqFlow *f, Skb *skb, sim_time_t now)
{
    CodelVars *cv = &f->cv;
    sim_time_t interval = q->conf->codel_interval_ns;
    while (cv->dropping && now >= cv->drop_next) {
        cv->count++;
        codel_drop(q, skb);
        skb = flow_pop(q, f);
        if (!should_drop(q, cv, skb, now))
            cv->dropping = false;
        else
            cv->drop_next = control_law(cv->drop_next, interval, cv->count);
    }
    return skb;
}

/* codel_dequeue: the flow's next skb after CoDel's drops. */
static Skb *codel_dequeue(Qdisc *q, FqFlow *f, sim_time_t now)
{
    CodelVars *cv = &f->cv;
    Skb *skb = flow_pop(q, f);
    if (!skb) {
        cv->dropping = false;
        return NULL;
    }
    bool drop = should_drop(q, cv, skb, now);
    if (cv->dropping) {
        if (!drop)
            cv->dropping = false; /* the sojourn fell below target */
        else if (now >= cv->drop_next)
            skb = codel_keep_dropping(q, f, skb, now);
        return skb;
    }
    if (!drop)
        return skb;
    sim_time_t interval = q->conf->codel_interval_ns;
    codel_drop(q, skb);
    skb = flow_pop(q, f);
    (void)should_drop(q, cv, skb, now); /* updates first_above_time as the kernel does */
    cv->dropping = true;
    uint32_t delta = cv->count - cv->lastcount;
    if (delta > 1 && now - cv->drop_next < FQ_RESUME_INTERVALS * interval)
        cv->count = delta; /* close to the last cycle: resume its drop rate */
    else
        cv->count = 1;
    cv->lastcount = cv->count;
    cv->drop_next = control_law(now, interval, cv->count);
    return skb;
}

/* ---- fq_codel ---- */

/* fq_codel_drop: the fattest flow loses up to half its bytes from its head, at most 64 skbs. */
static FqFlow *fq_drop_fattest(Qdisc *q)
{
    FqFlow *fat = &q->flows[0];
    for (uint32_t i = 1; i < FQ_FLOWS; i++)
        if (q->flows[i].backlog > fat->backlog)
            fat = &q->flows[i];
    uint64_t threshold = fat->backlog / 2, len = 0;
    uint32_t n = 0;
    do {
        Skb *skb = flow_pop(q, fat);
        len += pkt_len(skb);
        q->drop(q->ctx, skb, QDISC_DROP_OVERLIMIT);
    } while (++n < FQ_DROP_BATCH && len < threshold);
    fat->cv.count += n; /* "tell codel to increase its signal strength also" */
    return fat;
}

static int fq_enqueue(Qdisc *q, Skb *skb)
{
    FqFlow *f = flow_of(q, skb);
    flow_push(q, f, skb);
    if (!f->listed) {
        list_add_tail(&q->new_flows, f);
        f->listed = true;
        f->deficit = q->quantum;
        q->st.new_flow_count++;
    }
    if (q->qlen <= q->conf->qdisc_limit && q->memory <= q->conf->qdisc_memory_limit)
        return NET_XMIT_SUCCESS;
    return fq_drop_fattest(q) == f ? NET_XMIT_CN : NET_XMIT_SUCCESS;
}

static Skb *fq_dequeue(Qdisc *q, sim_time_t now)
{
    for (;;) {
        FlowList *l = q->new_flows.head ? &q->new_flows : &q->old_flows;
        FqFlow *f = l->head;
        if (!f)
            return NULL;
        if (f->deficit <= 0) {
            f->deficit += q->quantum;
            list_add_tail(&q->old_flows, list_pop(l));
            continue;
        }
        Skb *skb = codel_dequeue(q, f, now);
        if (!skb) {
            list_pop(l);
            if (l == &q->new_flows && q->old_flows.head)
                list_add_tail(&q->old_flows, f); /* once through old_flows: no starvation */
            else
                f->listed = false;
            continue;
        }
        f->deficit -= (int64_t)pkt_len(skb);
        return skb;
    }
}

/* ---- the API ---- */

int qdisc_enqueue(Qdisc *q, Skb *skb)
{
    if (q->conf->qdisc == NIC_QDISC_FQ_CODEL)
        return fq_enqueue(q, skb);
    if (q->fifo.qlen >= q->conf->qdisc_limit)
        return NET_XMIT_DROP;
    skb_queue_tail(&q->fifo, skb);
    return NET_XMIT_SUCCESS;
}

Skb *qdisc_dequeue(Qdisc *q, sim_time_t now)
{
    if (q->conf->qdisc == NIC_QDISC_FQ_CODEL)
        return fq_dequeue(q, now);
    return skb_dequeue(&q->fifo);
}
