/* gro.c - generic receive offload: merging a flow's in-order frames into one skb per NAPI poll.
 *
 * Models dev_gro_receive / tcp_gro_receive / skb_gro_receive (net/core/gro.c,
 * net/ipv4/tcp_offload.c) as the shared notes D.2 describe them:
 *  - a frame merges into the held skb of its flow when it is the next in sequence, has the same
 *    ACK number, the same flags (PSH and FIN aside) and window - tcp_gro_receive compares the
 *    whole 32-bit tcp_flag_word(), which holds data offset, flags and the 16-bit window field -,
 *    and byte-identical options (TSval, TSecr, SACK), is no longer than the first frame (the
 *    aggregate's gso_size), and the aggregate's IP packet stays below gro_max_size (65536: 45 x
 *    1448 B at MTU 1500, 15 x 4096 B at MSS 4096);
 *  - after merging, a frame with PSH or FIN, or shorter than gso_size, completes the aggregate
 *    (Linux senders set PSH on the last segment of each TSO burst, notes A.15 timers file);
 *  - a frame of a flow with a held skb that cannot merge completes that skb first;
 *  - a frame that is "final" on its own (no payload - pure ACKs are never merged -, PSH, FIN,
 *    SYN, RST) is passed on unmerged, any other frame is held as a new aggregate; with 8 skbs
 *    held the oldest is completed first (MAX_GRO_SKBS);
 *  - completed skbs are batched on the normal list and delivered once they carry
 *    gro_normal_batch segments, and at the end of the poll (gro_flush).
 * An aggregate keeps its first frame's header (its window is every frame's), ORs in PSH/FIN,
 * and gets gso_segs = frames and gso_size = the first frame's payload; a lone frame keeps
 * gso_size 0.
 * Truesize per models/truesize.h.
 * Flush points (net/core/dev.c, 6.17+ names; the same logic since napi_gro_flush(n, flush_old)):
 *  - napi_complete_done(): gro_flush_normal(gro, !!gro_flush_timeout) - every held skb, then the
 *    normal list (gro_flush_timeout 0, the default, so a full flush) -> gro_flush();
 *  - __napi_poll() after a poll that used its whole weight: gro_flush_normal(gro, HZ >= 1000) -
 *    only held skbs whose age (the jiffies value when they were first held, set in
 *    dev_gro_receive) differs from the current jiffies, oldest first (__gro_flush_chain walks each
 *    list from its oldest entry and stops at the first of this jiffy), then the whole normal
 *    list. So under a NAPI that never completes, an aggregate lives at most into the next jiffy,
 *    and completed skbs wait at most one poll for their batch.
 */
#include "models/gro.h"

#include <string.h>

#include "models/truesize.h"
#include "models/wire.h"
#include "sim/ktimer.h"

/* gro_max_size default = GRO_LEGACY_MAX_SIZE (notes 0). */
#define GRO_DEFAULT_MAX_SIZE 65536u
/* gro_normal_batch default (notes 0, 5.4+). */
#define GRO_DEFAULT_NORMAL_BATCH 8u

void gro_params_default(GroParams *p, uint32_t mtu, bool enabled)
{
    *p = (GroParams){ .enabled = enabled,
                      .max_size = GRO_DEFAULT_MAX_SIZE,
                      .max_frags = 0,
                      .max_held = GRO_MAX_HELD,
                      .normal_batch = GRO_DEFAULT_NORMAL_BATCH,
                      .mtu = mtu };
}

void gro_init(Gro *g, const GroParams *p, SkbPool *pool, GroDeliverFn deliver, void *ctx)
{
    memset(g, 0, sizeof(*g));
    g->p = *p;
    if (g->p.max_held == 0 || g->p.max_held > GRO_MAX_HELD)
        g->p.max_held = GRO_MAX_HELD;
    g->pool = pool;
    g->deliver = deliver;
    g->ctx = ctx;
    skb_queue_init(&g->normal);
}

void gro_destroy(Gro *g)
{
    for (uint32_t i = 0; i < g->nheld; i++)
        skb_free(g->pool, g->held[i]);
    g->nheld = 0;
    skb_queue_purge(&g->normal, g->pool);
    g->normal_segs = 0;
}

/* ---- the normal list (gro_normal_one / gro_normal_list) ---- */

static void normal_list(Gro *g, Cpu *cpu)
{
    Skb *skb;
    g->normal_segs = 0;
    while ((skb = skb_dequeue(&g->normal)) != NULL) {
        g->stats.delivered++;
        g->deliver(g->ctx, skb, cpu);
    }
}

static void normal_one(Gro *g, Skb *skb, Cpu *cpu)
{
    skb_queue_tail(&g->normal, skb);
    g->normal_segs += skb->gso_segs ? skb->gso_segs : 1u;
    if (g->normal_segs >= g->p.normal_batch)
        normal_list(g, cpu);
}

/* ---- held aggregates ---- */

static bool same_flow(const Skb *a, const Skb *b)
{
    return a->conn == b->conn && a->src_host == b->src_host && a->dst_host == b->dst_host &&
           a->sport == b->sport && a->dport == b->dport;
}

static int find_held(const Gro *g, const Skb *frame)
{
    for (uint32_t i = 0; i < g->nheld; i++)
        if (same_flow(g->held[i], frame))
            return (int)i;
    return -1;
}

/* napi_gro_complete: take held[i] out of the list and put it on the normal list. */
static void complete_held(Gro *g, uint32_t i, Cpu *cpu)
{
    Skb *agg = g->held[i];
    memmove(&g->held[i], &g->held[i + 1], (g->nheld - i - 1) * sizeof(g->held[0]));
    memmove(&g->age[i], &g->age[i + 1], (g->nheld - i - 1) * sizeof(g->age[0]));
    g->nheld--;
    if (agg->gso_segs <= 1)
        agg->gso_size = 0; /* a lone frame is not a GSO skb */
    g->stats.aggregates++;
    normal_one(g, agg, cpu);
}

static bool same_options(const Skb *a, const Skb *b)
{
    if (a->tsval != b->tsval || a->tsecr != b->tsecr || a->nsacks != b->nsacks ||
        a->dsack != b->dsack)
        return false;
    return a->nsacks == 0 || memcmp(a->sack, b->sack, a->nsacks * sizeof(a->sack[0])) == 0;
}

static bool can_merge(const Gro *g, const Skb *agg, const Skb *frame)
{
    const uint8_t ignored = TCPHDR_PSH | TCPHDR_FIN;
    if (frame->len == 0 || ((agg->flags ^ frame->flags) & (uint8_t)~ignored) != 0)
        return false;
    if (frame->flags & (TCPHDR_SYN | TCPHDR_RST))
        return false;
    if (frame->seq != agg->seq + agg->len || frame->ack_seq != agg->ack_seq)
        return false;
    /* the window half of tcp_flag_word(); win is the field shifted by the sender's scale
     * (tcp_select_window), so equal bytes mean equal fields */
    if (frame->win != agg->win)
        return false;
    if (!same_options(agg, frame) || frame->len > agg->gso_size)
        return false;
    if (g->p.max_frags && agg->gso_segs >= g->p.max_frags)
        return false;
    return (uint64_t)wire_tcpip_hdr(agg) + agg->len + frame->len < g->p.max_size;
}

static void merge(Gro *g, Skb *agg, Skb *frame)
{
    agg->truesize += truesize_gro_add(g->p.mtu, agg->gso_segs);
    agg->len += frame->len;
    agg->end_seq = frame->end_seq;
    agg->flags |= frame->flags & (TCPHDR_PSH | TCPHDR_FIN);
    agg->gso_segs++;
    g->stats.merged++;
    skb_free(g->pool, frame);
}

/* A frame that ends its aggregate, or is never held: the out_check_final test. */
static bool is_final(const Skb *frame, uint32_t mss)
{
    const uint8_t fl = TCPHDR_PSH | TCPHDR_FIN | TCPHDR_SYN | TCPHDR_RST;
    return frame->len < mss || (frame->flags & fl) != 0;
}

static uint64_t gro_jiffies(const Gro *g)
{
    return g->sim ? ktimer_jiffies(g->sim, g->hz, g->tick_phase) : 0;
}

static void hold(Gro *g, Skb *frame, Cpu *cpu)
{
    if (g->nheld == g->p.max_held)
        complete_held(g, 0, cpu); /* gro_flush_oldest */
    frame->gso_segs = 1;
    frame->gso_size = (uint16_t)frame->len;
    g->age[g->nheld] = gro_jiffies(g);
    g->held[g->nheld++] = frame;
}

void gro_receive(Gro *g, Skb *frame, Cpu *cpu)
{
    g->stats.frames++;
    if (!g->p.enabled) {
        normal_one(g, frame, cpu);
        return;
    }
    int i = find_held(g, frame);
    if (i >= 0) {
        Skb *agg = g->held[i];
        if (can_merge(g, agg, frame)) {
            bool done = is_final(frame, agg->gso_size);
            merge(g, agg, frame);
            if (done)
                complete_held(g, (uint32_t)i, cpu);
            return;
        }
        complete_held(g, (uint32_t)i, cpu);
    }
    if (is_final(frame, 1u))
        normal_one(g, frame, cpu);
    else
        hold(g, frame, cpu);
}

void gro_set_clock(Gro *g, const Sim *sim, uint32_t hz, sim_time_t tick_phase)
{
    g_assert(!sim || hz > 0);
    g->sim = sim;
    g->hz = hz;
    g->tick_phase = tick_phase;
}

void gro_flush_normal(Gro *g, bool flush_old, Cpu *cpu)
{
    uint64_t now = gro_jiffies(g);
    /* held[] is oldest first and ages never decrease along it: stop at the first of this jiffy */
    while (g->nheld && !(flush_old && g->age[0] == now))
        complete_held(g, 0, cpu);
    normal_list(g, cpu);
}

void gro_flush(Gro *g, Cpu *cpu)
{
    gro_flush_normal(g, false, cpu);
}
