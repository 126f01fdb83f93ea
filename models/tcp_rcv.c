/* tcp_rcv.c - the data receiver of net/ipv4/tcp_input.c (and tcp.c's tcp_cleanup_rbuf).
 *
 * What it models: queueing in-order and out-of-order data (tcp_data_queue, tcp_data_queue_ofo,
 * tcp_ofo_queue), SACK blocks and DSACK generation (T.E.1), the receive window
 * (__tcp_select_window; the buffer's advertised share follows hosts.H.tcp.win_scaling), ATO
 * adaptation and quick-ACK (T.A.2-A.4), the ACK-now-or-delay decision __tcp_ack_snd_check with
 * the 6.7+ deferral while the owner processes the backlog (T.A.6), tcp_cleanup_rbuf after a
 * read (T.A.7), and receive-memory pruning (tcp_try_rmem_schedule,
 * tcp_prune_queue, tcp_collapse; 3.4). Why: whether
 * and when the receiver ACKs is what the peer's TLP/RTO timers race against (seed 000), and how
 * many ACKs the sender must absorb (seed 004).
 * SACK compression (4.18+, hosts.H.tcp.comp_sack_nr) is tcp_timer.c's tcp_sack_compress_hold;
 * the receiver's RTT estimate and buffer autotuning are in tcp_rcvbuf.c.
 */
#include "models/tcp_internal.h"
#include "models/truesize.h"

/* tcp_win_from_space: the part of `space` bytes of buffer advertised as window, the rest being
 * left for skb overhead - 3/4 until 3.4 (tcp_adv_win_scale 2), 1/2 in 3.5-6.4 (b49960a05e32,
 * tcp_adv_win_scale 1), space * scaling_ratio / 256 from 6.5 (dfa2f0483360; the three
 * scaling_ratio eras differ only in the first ratio and in what a new one moves). */
uint32_t tcp_win_from_space(const TcpSock *tp, uint64_t space)
{
    uint64_t w;
    switch (tcp_conf(tp)->win_scaling) {
    case TCP_WIN_ADV_WIN_SCALE_2:
        w = space - (space >> 2);
        break;
    case TCP_WIN_ADV_WIN_SCALE_1:
        w = space - (space >> 1);
        break;
    default:
        w = (space * tp->scaling_ratio) >> TCP_RMEM_TO_WIN_SCALE;
        break;
    }
    return w > UINT32_MAX ? UINT32_MAX : (uint32_t)w;
}

/* tcp_space_from_win: the buffer that advertises `win` (autotuning); 6.5+ __tcp_space_from_win
 * is (win << 8) / scaling_ratio. Older kernels sized by SKB_TRUESIZE per MSS; the model uses the
 * inverse of the era's share, as it did for adv_win_scale 1 (2 x win). */
uint64_t tcp_space_from_win(const TcpSock *tp, uint64_t win)
{
    switch (tcp_conf(tp)->win_scaling) {
    case TCP_WIN_ADV_WIN_SCALE_2:
        return (win << 2) / 3;
    case TCP_WIN_ADV_WIN_SCALE_1:
        return win << 1;
    default:
        return (win << TCP_RMEM_TO_WIN_SCALE) / tp->scaling_ratio;
    }
}

/* tcp_space: what the receive buffer can still take. The backlog counts (H.B.1) since "tcp: make
 * tcp_space() aware of socket backlog" (5.0); before it (hosts.H.tcp.window_counts_backlog =
 * false; 3.x include/net/tcp.h: tcp_win_from_space(sk_rcvbuf - sk_rmem_alloc)) only the
 * queued data did, so skbs parked in the backlog of an owned socket left the window open. */
static uint32_t tcp_space(const TcpSock *tp)
{
    uint64_t used = tp->sk.rmem_alloc;
    if (tcp_conf(tp)->window_counts_backlog)
        used += tp->sk.backlog_len;
    return used >= tp->sk.rcvbuf ? 0 : tcp_win_from_space(tp, tp->sk.rcvbuf - used);
}

/* Without window scaling (every era): the largest multiple of the MSS that fits, unless the
 * window offered now is within one MSS of the free space, which is kept; a window of one MSS
 * jumps to all the free space once that passes it by half the buffer. */
static uint32_t tcp_window_unscaled(const TcpSock *tp, uint32_t free_space, uint32_t mss,
                                    uint32_t full_space)
{
    int64_t window = tp->rcv_wnd;
    if (window <= (int64_t)free_space - mss || window > free_space)
        return free_space / mss * mss;
    if (mss == full_space && free_space > window + (full_space >> 1))
        return free_space;
    return (uint32_t)window;
}

/* __tcp_select_window. Below half the buffer free, hosts.H.tcp.select_window decides when the
 * offer drops to zero: zero16 rounds the free space down to the window scale and offers zero
 * below 1/16 of the allowed space (so the window closes before the buffer's memory limit
 * drops data), 3.x only below one MSS (3.4 tcp_output.c). */
uint32_t __tcp_select_window(TcpSock *tp)
{
    uint32_t mss = tp->ack.rcv_mss;
    uint32_t free_space = tcp_space(tp);
    uint32_t allowed_space = tcp_win_from_space(tp, tp->sk.rcvbuf);
    uint32_t full_space = tp->window_clamp < allowed_space ? tp->window_clamp : allowed_space;
    uint32_t unit = 1u << tp->rcv_wscale;
    if (mss > full_space) {
        mss = full_space;
        if (!mss)
            return 0;
    }
    if (free_space < (full_space >> 1)) {
        tp->ack.quick = 0;
        if (tcp_conf(tp)->select_window == TCP_SELECT_WINDOW_3X) {
            if (free_space < mss)
                return 0;
        } else {
            free_space &= ~(unit - 1);
            if (free_space < (allowed_space >> 4) || free_space < mss)
                return 0;
        }
    }
    if (free_space > tp->rcv_ssthresh)
        free_space = tp->rcv_ssthresh;
    if (!tp->rcv_wscale)
        return tcp_window_unscaled(tp, free_space, mss, full_space);
    return (free_space + unit - 1) & ~(unit - 1);
}

/* ---- ATO, quick-ACK, rcv_mss (T.A.2-A.4) ---- */

static void tcp_incr_quickack(TcpSock *tp, uint32_t max_quickacks)
{
    uint32_t quickacks = tp->rcv_wnd / (2u * tp->ack.rcv_mss);
    if (quickacks == 0)
        quickacks = 2;
    if (quickacks > max_quickacks)
        quickacks = max_quickacks;
    if (quickacks > tp->ack.quick)
        tp->ack.quick = (uint8_t)quickacks;
}

void tcp_enter_quickack_mode(TcpSock *tp, uint32_t max_quickacks)
{
    tcp_incr_quickack(tp, max_quickacks);
    tp->ack.pingpong = 0;
    tp->ack.ato = tcp_ato_min(tp);
}

/* SOCK_MIN_RCVBUF = 2 x TCP_SKB_MIN_TRUESIZE (2048 + 256), the floor of tcp_set_window_clamp. */
#define SOCK_MIN_RCVBUF 4608u

/* tcp_set_window_clamp (6.18, after 8e0e8bef4841): a smaller clamp pulls rcv_ssthresh down, a
 * larger one lets it rise to min(rcv_wnd, clamp). No SO_RESERVE_MEM, so no reserved floor. */
static void tcp_set_window_clamp(TcpSock *tp, uint32_t val)
{
    uint32_t old_clamp = tp->window_clamp;
    uint32_t new_clamp = val > SOCK_MIN_RCVBUF / 2 ? val : SOCK_MIN_RCVBUF / 2;
    if (new_clamp == old_clamp)
        return;
    tp->window_clamp = new_clamp;
    if (new_clamp < old_clamp) {
        if (tp->rcv_ssthresh > new_clamp)
            tp->rcv_ssthresh = new_clamp;
    } else {
        uint32_t r = tp->rcv_wnd < new_clamp ? tp->rcv_wnd : new_clamp;
        if (r > tp->rcv_ssthresh)
            tp->rcv_ssthresh = r;
    }
}

/* tcp_measure_rcv_mss's 6.5+ part: when the MSS estimate changes, scaling_ratio becomes
 * (skb->len << 8) / skb->truesize (at least 1); from 6.11 window_clamp follows (a2cbb1603943,
 * 2024; through tcp_set_window_clamp since 2025), capping rcvq_space.space. Before 6.11 the
 * clamp kept its value until autotuning next grew the buffer, so a socket whose buffer does not
 * grow (SO_RCVBUF) never advertised more than its first ratio allowed. */
static void tcp_update_scaling_ratio(TcpSock *tp, const Skb *skb)
{
    TcpWinScaling era = tcp_conf(tp)->win_scaling;
    bool measured = era == TCP_WIN_SCALING_RATIO || era == TCP_WIN_SCALING_RATIO_6_5 ||
                    era == TCP_WIN_SCALING_RATIO_6_10;
    if (!measured || !skb->truesize)
        return;
    uint64_t val = ((uint64_t)skb->len << TCP_RMEM_TO_WIN_SCALE) / skb->truesize;
    uint8_t old_ratio = tp->scaling_ratio;
    tp->scaling_ratio = (uint8_t)(val == 0 ? 1 : val > UINT8_MAX ? UINT8_MAX : val);
    if (old_ratio == tp->scaling_ratio || era != TCP_WIN_SCALING_RATIO)
        return;
    tcp_set_window_clamp(tp, tcp_win_from_space(tp, tp->sk.rcvbuf));
    if (tp->window_clamp < tp->rcvq_space.space)
        tp->rcvq_space.space = tp->window_clamp;
}

/* tcp_measure_rcv_mss (T.A.2). Like the kernel (every era), it clears last_seg_size on each
 * call: only two CONSECUTIVE small segments of equal length lower rcv_mss, not two small ones
 * with full-sized segments between them (e.g. the tail of each large write). Since 6.6
 * (4720852ed9af "tcp: fix delayed ACKs for MSS boundary condition"; hosts.H.tcp.push_full_mss)
 * a full-sized skb with PSH, the end of a write of whole segments, sets ICSK_ACK_PUSHED too, so
 * that tcp_cleanup_rbuf ACKs it once the reader empties the queue (not in ping-pong mode);
 * before, such a write's last lone segment waited for the delayed-ACK timer. */
static void tcp_measure_rcv_mss(TcpSock *tp, const Skb *skb)
{
    uint32_t lss = tp->ack.last_seg_size;
    tp->ack.last_seg_size = 0;
    uint32_t len = skb->gso_size ? skb->gso_size : skb->len;
    if (len >= tp->ack.rcv_mss) {
        if (len != tp->ack.rcv_mss)
            tcp_update_scaling_ratio(tp, skb);
        tp->ack.rcv_mss = len < tp->advmss ? len : tp->advmss;
        if (tcp_conf(tp)->push_full_mss && (skb->flags & TCPHDR_PSH))
            tp->ack.pending |= ICSK_ACK_PUSHED;
        return;
    }
    uint32_t hdr = TCP_HDR_LEN + (tp->ts_ok ? TCPOLEN_TSTAMP_ALIGNED : 0);
    len += hdr;
    if (len >= TCP_MSS_DEFAULT + TCP_HDR_LEN ||
        (len >= TCP_MIN_MSS + TCP_HDR_LEN && !(skb->flags & (TCPHDR_PSH | TCPHDR_FIN | TCPHDR_SYN)))) {
        len -= hdr;
        tp->ack.last_seg_size = len;
        if (len == lss) {
            tp->ack.rcv_mss = len;
            return;
        }
    }
    if (tp->ack.pending & ICSK_ACK_PUSHED)
        tp->ack.pending |= ICSK_ACK_PUSHED2;
    tp->ack.pending |= ICSK_ACK_PUSHED;
}

/* __tcp_grow_window, the slow part of check #2: an skb whose overhead is too large for its
 * payload may still grow the window while rcv_ssthresh is small against tcp_rmem[2] - halving
 * both sides until the skb's share fits (2 x rcv_mss), or never (0). */
static uint32_t __tcp_grow_window(const TcpSock *tp, const Skb *skb)
{
    uint64_t truesize = tcp_win_from_space(tp, skb->truesize) >> 1;
    uint64_t window = tcp_win_from_space(tp, tcp_conf(tp)->rcvbuf_max) >> 1;
    while (tp->rcv_ssthresh <= window) {
        if (truesize <= skb->len)
            return 2u * tp->ack.rcv_mss;
        truesize >>= 1;
        window >>= 1;
    }
    return 0;
}

/* tcp_grow_window: raise rcv_ssthresh towards min(window_clamp, free space), by at least
 * 2 x the skb's length, when the skb's truesize would fit the buffer (quick |= 1). Before 5.1
 * (hosts.H.tcp.grow_window legacy) only the clamp bounds the step, once rcv_ssthresh is below
 * the free space. */
static void tcp_grow_window(TcpSock *tp, const Skb *skb)
{
    uint32_t space = tcp_space(tp);
    int64_t room = (int64_t)(tp->window_clamp < space ? tp->window_clamp : space) - tp->rcv_ssthresh;
    if (room <= 0)
        return;
    if (tcp_conf(tp)->grow_window == TCP_GROW_WINDOW_LEGACY)
        room = (int64_t)tp->window_clamp - tp->rcv_ssthresh;
    uint64_t incr = tcp_win_from_space(tp, skb->truesize) <= skb->len ? 2u * tp->advmss
                                                                   : __tcp_grow_window(tp, skb);
    if (!incr)
        return;
    if (incr < 2u * (uint64_t)skb->len)
        incr = 2u * (uint64_t)skb->len;
    tp->rcv_ssthresh += (uint32_t)((int64_t)incr < room ? (int64_t)incr : room);
    tp->ack.quick |= 1;
}

/* tcp_event_data_recv (T.A.3). */
void tcp_event_data_recv(TcpSock *tp, const Skb *skb)
{
    uint64_t now = tcp_jiffies(tp);
    uint32_t ato_min = tcp_ato_min(tp);
    tp->ack.pending |= ICSK_ACK_SCHED;
    tcp_measure_rcv_mss(tp, skb);
    tcp_rcv_rtt_measure(tp);
    if (!tp->ack.ato) {
        tcp_incr_quickack(tp, TCP_MAX_QUICKACKS);
        tp->ack.ato = ato_min;
    } else {
        uint64_t m = now - tp->ack.lrcvtime;
        if (m <= ato_min / 2) {
            tp->ack.ato = (tp->ack.ato >> 1) + ato_min / 2;
        } else if (m < tp->ack.ato) {
            tp->ack.ato = (tp->ack.ato >> 1) + (uint32_t)m;
            if (tp->ack.ato > tp->icsk_rto)
                tp->ack.ato = tp->icsk_rto;
        } else if (m > tp->icsk_rto) {
            tcp_incr_quickack(tp, TCP_MAX_QUICKACKS); /* long idle */
        }
    }
    tp->ack.lrcvtime = now;
    if (skb->len >= 128) /* tcp_event_data_recv: only skbs of 128+ bytes may grow the window */
        tcp_grow_window(tp, skb);
}

/* ---- SACK blocks and DSACK (T.E.1) ---- */

void tcp_dsack_set(TcpSock *tp, uint64_t seq, uint64_t end_seq)
{
    if (!tcp_is_sack(tp))
        return;
    tcp_count(tp, seq < tp->rcv_nxt ? CTR_TcpExtTCPDSACKOldSent : CTR_TcpExtTCPDSACKOfoSent, 1);
    tp->dsack = true;
    tp->duplicate_sack = (SackBlock){ seq, end_seq };
}

static bool tcp_sack_extend(SackBlock *sp, uint64_t seq, uint64_t end_seq)
{
    if (seq > sp->end || sp->start > end_seq)
        return false;
    if (seq < sp->start)
        sp->start = seq;
    if (end_seq > sp->end)
        sp->end = end_seq;
    return true;
}

static void tcp_dsack_extend(TcpSock *tp, uint64_t seq, uint64_t end_seq)
{
    if (!tp->dsack)
        tcp_dsack_set(tp, seq, end_seq);
    else
        tcp_sack_extend(&tp->duplicate_sack, seq, end_seq);
}

/* Merge blocks that now overlap the first one. */
static void tcp_sack_maybe_coalesce(TcpSock *tp)
{
    for (unsigned i = 1; i < tp->num_sacks;) {
        if (tcp_sack_extend(&tp->selective_acks[0], tp->selective_acks[i].start, tp->selective_acks[i].end)) {
            for (unsigned j = i; j + 1 < tp->num_sacks; j++)
                tp->selective_acks[j] = tp->selective_acks[j + 1];
            tp->num_sacks--;
        } else {
            i++;
        }
    }
}

/* TCP_SACK_BLOCKS_EXPECTED: with timestamps only 3 blocks fit in an ACK, so before a range
 * moves to the third place or beyond, a held (compressed) ACK must have reported it in the
 * first two (5.8+, "tcp: tcp_sack_new_ofo_skb() should be more conservative"). */
#define TCP_SACK_BLOCKS_EXPECTED 2u

/* tcp_sack_new_ofo_skb: the block holding the new data moves to the front; with the table full
 * the oldest block is forgotten. A held ACK leaves first when that pushes a block to the third
 * place or beyond. */
static void tcp_sack_new_ofo_skb(TcpSock *tp, uint64_t seq, uint64_t end_seq, Cpu *cpu)
{
    for (unsigned i = 0; i < tp->num_sacks; i++) {
        if (tcp_sack_extend(&tp->selective_acks[i], seq, end_seq)) {
            if (i >= TCP_SACK_BLOCKS_EXPECTED)
                tcp_sack_compress_send_ack(tp, cpu);
            SackBlock b = tp->selective_acks[i];
            for (; i > 0; i--)
                tp->selective_acks[i] = tp->selective_acks[i - 1];
            tp->selective_acks[0] = b;
            tcp_sack_maybe_coalesce(tp);
            return;
        }
    }
    if (tp->num_sacks >= TCP_SACK_BLOCKS_EXPECTED)
        tcp_sack_compress_send_ack(tp, cpu);
    unsigned n = tp->num_sacks < SKB_MAX_SACKS ? tp->num_sacks : SKB_MAX_SACKS - 1;
    for (unsigned i = n; i > 0; i--)
        tp->selective_acks[i] = tp->selective_acks[i - 1];
    tp->selective_acks[0] = (SackBlock){ seq, end_seq };
    tp->num_sacks = (uint8_t)(n + 1);
}

/* tcp_sack_remove: drop blocks rcv_nxt has passed. */
static void tcp_sack_remove(TcpSock *tp)
{
    if (skb_queue_empty(&tp->ofo_queue)) {
        tp->num_sacks = 0;
        return;
    }
    for (unsigned i = 0; i < tp->num_sacks;) {
        if (tp->selective_acks[i].start <= tp->rcv_nxt) {
            for (unsigned j = i; j + 1 < tp->num_sacks; j++)
                tp->selective_acks[j] = tp->selective_acks[j + 1];
            tp->num_sacks--;
        } else {
            i++;
        }
    }
}

/* ---- queueing ---- */

/* Queue in-order data. A partial duplicate (seq < rcv_nxt < end_seq) is trimmed to its new part
 * here; the kernel queues it whole and recvmsg skips the old bytes by offset - the same reads. */
void tcp_queue_rcv(TcpSock *tp, Skb *skb)
{
    if (skb->seq < tp->rcv_nxt) {
        uint64_t trim = tp->rcv_nxt - skb->seq;
        skb->seq += trim;
        skb->len -= (uint32_t)trim;
    }
    tcp_skb_append(&tp->rcv_queue, skb);
    tp->sk.rmem_alloc += skb->truesize;
    if (skb->end_seq > tp->rcv_nxt)
        tp->rcv_nxt = skb->end_seq;
}

void tcp_fast_path_check(TcpSock *tp)
{
    tp->pred_ok = skb_queue_empty(&tp->ofo_queue) && tp->rcv_wnd && tp->sk.rmem_alloc < tp->sk.rcvbuf;
}

/* tcp_ofo_queue: move what rcv_nxt now reaches from the ofo queue; overlaps become DSACKs. */
static void tcp_ofo_queue(TcpSock *tp)
{
    uint64_t dsack_high = tp->rcv_nxt;
    Skb *skb;
    while ((skb = tp->ofo_queue.head) && skb->seq <= tp->rcv_nxt) {
        if (skb->seq < dsack_high) {
            uint64_t dsack = dsack_high;
            if (skb->end_seq < dsack_high)
                dsack_high = skb->end_seq;
            tcp_dsack_extend(tp, skb->seq, dsack);
        }
        tcp_skb_unlink(&tp->ofo_queue, skb);
        tp->sk.rmem_alloc -= skb->truesize;
        if (skb->end_seq <= tp->rcv_nxt) {
            skb_free(tcp_host(tp)->pool, skb);
            continue;
        }
        tcp_queue_rcv(tp, skb);
    }
}

static void tcp_ofo_drop(TcpSock *tp, Skb *skb)
{
    tcp_skb_unlink(&tp->ofo_queue, skb);
    tp->sk.rmem_alloc -= skb->truesize;
    skb_free(tcp_host(tp)->pool, skb);
}

/* Insert skb after pos (NULL: at the head), then drop the queued skbs it covers; every byte it
 * brings again is DSACKed (the merge_right part of tcp_data_queue_ofo). */
static void tcp_ofo_insert(TcpSock *tp, Skb *pos, Skb *skb)
{
    tcp_skb_insert_after(&tp->ofo_queue, pos, skb);
    tp->sk.rmem_alloc += skb->truesize;
    Skb *next;
    while ((next = skb->next) && next->seq < skb->end_seq) {
        if (skb->end_seq < next->end_seq) {
            tcp_dsack_extend(tp, next->seq, skb->end_seq); /* partial: both stay */
            break;
        }
        tcp_dsack_extend(tp, next->seq, next->end_seq);
        tcp_ofo_drop(tp, next);
    }
}

/* ---- receive memory: tcp_try_rmem_schedule, tcp_prune_queue (3.4 net/ipv4/tcp_input.c) ----
 *
 * The window advertises a share of sk_rcvbuf that assumes little skb overhead (3/4 until 3.4),
 * but a driver without GRO charges a 2 KB buffer per 1448-byte frame (truesize 2624), so a full
 * window of such skbs is ~1.35 x sk_rcvbuf. The kernel checks sk_rmem_alloc before it queues
 * data (out of order, or in order when not copied straight to the reader) and, when it is over
 * sk_rcvbuf, prunes: tcp_clamp_window, then tcp_collapse copies bloated skbs into compact ones,
 * and only if that is not enough purges the out-of-order queue; if even that fails the segment
 * is dropped. Global tcp_mem accounting (sk_rmem_schedule) is not modelled: it always
 * succeeds. */

/* tcp_collapse's new skb: alloc_skb(SKB_MAX_ORDER(header, 0) + header) is one kmalloc-4096
 * object, so its data area is SKB_WITH_OVERHEAD(4096) = 4096 - shinfo and its truesize
 * SKB_TRUESIZE of that: 3776 + 256 + 320 = 4352 bytes (__alloc_skb, 3.4). */
#define COLLAPSE_SKB_DATA (4096u - TRUESIZE_SHINFO)
/* header = skb_headroom() of a received segment once TCP has pulled its header: NET_SKB_PAD
 * (64 on x86_64) + Ethernet 14 + IPv4 20 + TCP with timestamps 32. */
#define COLLAPSE_HEADROOM 130u
/* SKB_MAX_ORDER(header, 0): 3646 payload bytes per collapsed skb. */
#define COLLAPSE_COPY (COLLAPSE_SKB_DATA - COLLAPSE_HEADROOM)

/* tcp_collapse_one: free a collapsed skb; returns the next one. */
static Skb *tcp_collapse_one(TcpSock *tp, SkbQueue *q, Skb *skb)
{
    Skb *next = skb->next;
    tcp_skb_unlink(q, skb);
    tp->sk.rmem_alloc -= skb->truesize;
    skb_free(tcp_host(tp)->pool, skb);
    tcp_count(tp, CTR_TcpExtTCPRcvCollapsed, 1);
    return next;
}

/* Skip the skbs of [head, tail) that are compact, start at or after `start` and touch the next
 * one: nothing to gain from copying them. Returns the first to collapse (tail: none). */
static Skb *tcp_collapse_first(TcpSock *tp, SkbQueue *q, Skb *skb, Skb *tail, uint64_t *start)
{
    while (skb != tail) {
        if (*start >= skb->end_seq) { /* no new bits (possible in the ofo queue) */
            skb = tcp_collapse_one(tp, q, skb);
            continue;
        }
        bool bloated = tcp_win_from_space(tp, skb->truesize) > skb->len;
        bool gap_or_overlap = skb->next != tail && skb->end_seq != skb->next->seq;
        if ((skb->flags & (TCPHDR_SYN | TCPHDR_FIN)) || bloated || skb->seq < *start ||
            gap_or_overlap)
            break;
        *start = skb->end_seq;
        skb = skb->next;
    }
    return skb;
}

/* tcp_collapse: copy the bytes [start, end) held by the skbs from head up to tail (exclusive,
 * NULL = the queue's end) into page-sized skbs, freeing the originals. The range has no holes. */
static void tcp_collapse(TcpSock *tp, SkbQueue *q, Skb *head, Skb *tail, uint64_t start,
                         uint64_t end, Cpu *cpu)
{
    Skb *skb = tcp_collapse_first(tp, q, head, tail, &start);
    if (skb == tail || (skb->flags & (TCPHDR_SYN | TCPHDR_FIN)))
        return;
    while (start < end) {
        uint32_t copy = end - start < COLLAPSE_COPY ? (uint32_t)(end - start) : COLLAPSE_COPY;
        Skb *nskb = skb_clone(tcp_host(tp)->pool, skb);
        nskb->seq = start;
        nskb->end_seq = start + copy;
        nskb->len = copy;
        nskb->gso_segs = 1;
        nskb->truesize = skb_truesize(COLLAPSE_SKB_DATA);
        nskb->cloned = false; /* a new skb the bytes are copied into */
        tcp_skb_insert_after(q, skb->prev, nskb);
        tp->sk.rmem_alloc += nskb->truesize;
        tcp_charge_copy(tp, cpu, copy);
        start += copy;
        while (start >= skb->end_seq) { /* every skb the copy has passed is freed */
            skb = tcp_collapse_one(tp, q, skb);
            if (!skb || skb == tail || (skb->flags & (TCPHDR_SYN | TCPHDR_FIN)))
                return;
        }
    }
}

/* tcp_collapse_ofo_queue: collapse each run of touching or overlapping out-of-order skbs. */
static void tcp_collapse_ofo_queue(TcpSock *tp, Cpu *cpu)
{
    Skb *head = tp->ofo_queue.head;
    if (!head)
        return;
    uint64_t start = head->seq, end = head->end_seq;
    for (Skb *skb = head->next;; skb = skb->next) {
        if (!skb || skb->seq > end || skb->end_seq < start) {
            tcp_collapse(tp, &tp->ofo_queue, head, skb, start, end, cpu); /* skb stays */
            if (!skb)
                return;
            head = skb;
            start = skb->seq;
            end = skb->end_seq;
        } else {
            if (skb->seq < start)
                start = skb->seq;
            if (skb->end_seq > end)
                end = skb->end_seq;
        }
    }
}

/* tcp_prune_ofo_queue (3.4): drop the whole out-of-order queue and the SACK blocks that
 * reported it; the sender retransmits. (4.10+ drops from the tail only what it must.) */
static bool tcp_prune_ofo_queue(TcpSock *tp)
{
    if (skb_queue_empty(&tp->ofo_queue))
        return false;
    tcp_count(tp, CTR_TcpExtOfoPruned, 1);
    while (tp->ofo_queue.head)
        tcp_ofo_drop(tp, tp->ofo_queue.head);
    tp->num_sacks = 0; /* tcp_sack_reset */
    return true;
}

/* tcp_clamp_window (3.4): a buffer the application did not lock grows to what is allocated
 * (within tcp_rmem[2]); if that still is not enough, the window stops growing. */
static void tcp_clamp_window(TcpSock *tp)
{
    tp->ack.quick = 0;
    const TcpConf *conf = tcp_conf(tp);
    if (tp->sk.rcvbuf < conf->rcvbuf_max && conf->rcvbuf_autotune) {
        uint64_t rmem = tp->sk.rmem_alloc;
        tp->sk.rcvbuf = (uint32_t)(rmem < conf->rcvbuf_max ? rmem : conf->rcvbuf_max);
    }
    if (tp->sk.rmem_alloc > tp->sk.rcvbuf) {
        uint32_t two = 2u * tp->advmss;
        tp->rcv_ssthresh = tp->window_clamp < two ? tp->window_clamp : two;
    }
}

/* tcp_can_ingest (hosts.H.tcp.rcv_ingest): is there room for skb? legacy: while what is
 * allocated is within sk_rcvbuf, however much skb brings; 6.17 (1d2fbaad7cd8): what is allocated
 * plus skb's truesize must fit; 6.18 (f017c1f768b6): plus skb's length. */
static bool tcp_can_ingest(const TcpSock *tp, const Skb *skb)
{
    uint64_t rmem = tp->sk.rmem_alloc;
    switch (tcp_conf(tp)->rcv_ingest) {
    case TCP_RCV_INGEST_6_17:
        return rmem + skb->truesize <= tp->sk.rcvbuf;
    case TCP_RCV_INGEST_6_18:
        return rmem + skb->len <= tp->sk.rcvbuf;
    case TCP_RCV_INGEST_LEGACY:
        break;
    }
    return rmem <= tp->sk.rcvbuf;
}

/* tcp_prune_queue: 0 when there is room for in_skb again, -1 when it must be dropped
 * (RcvPruned). The clamp runs when the buffer is full (legacy: sk_rmem_alloc >= sk_rcvbuf; 6.17+:
 * whenever in_skb does not fit, so it may shrink the buffer). hosts.H.tcp.prune 4.18 returns as
 * soon as tcp_clamp_window made room, before any collapse (so an unlocked buffer below
 * tcp_rmem[2] grows instead of being copied); 3.x collapses every time. */
static int tcp_prune_queue(TcpSock *tp, const Skb *in_skb, Cpu *cpu)
{
    tcp_count(tp, CTR_TcpExtPruneCalled, 1);
    bool legacy = tcp_conf(tp)->rcv_ingest == TCP_RCV_INGEST_LEGACY;
    if (legacy ? tp->sk.rmem_alloc >= tp->sk.rcvbuf : !tcp_can_ingest(tp, in_skb))
        tcp_clamp_window(tp);
    if (tcp_conf(tp)->prune == TCP_PRUNE_4_18 && tcp_can_ingest(tp, in_skb))
        return 0; /* the clamp grew the buffer enough: no collapse */
    tcp_collapse_ofo_queue(tp, cpu);
    if (tp->rcv_queue.head)
        tcp_collapse(tp, &tp->rcv_queue, tp->rcv_queue.head, NULL, tp->copied_seq, tp->rcv_nxt,
                     cpu);
    if (tcp_can_ingest(tp, in_skb))
        return 0;
    tcp_prune_ofo_queue(tp); /* "Collapsing did not help, destructive actions follow." */
    if (tcp_can_ingest(tp, in_skb))
        return 0;
    tcp_count(tp, CTR_TcpExtRcvPruned, 1);
    tp->pred_ok = false;
    return -1;
}

/* tcp_try_rmem_schedule: may skb be queued? Prunes first when there is no room for it. */
static bool tcp_try_rmem_schedule(TcpSock *tp, const Skb *skb, Cpu *cpu)
{
    return tcp_can_ingest(tp, skb) || tcp_prune_queue(tp, skb, cpu) == 0;
}

/* tcp_data_queue_ofo: insert in sequence order. Data already held is dropped, data overlapping
 * the skb before it is DSACKed (both kept: tcp_ofo_queue trims later), and skbs it covers are
 * replaced. A buffer that pruning cannot bring back within sk_rcvbuf drops the skb (3.4: no
 * counter, no ACK scheduled). An skb kept updates rcv_mss and the scaling ratio since 6.17
 * (hosts.H.tcp.ofo_measure_rcv_mss). */
static void tcp_data_queue_ofo(TcpSock *tp, Skb *skb, Cpu *cpu)
{
    if (!tcp_try_rmem_schedule(tp, skb, cpu)) {
        skb_free(tcp_host(tp)->pool, skb);
        return;
    }
    if (tcp_conf(tp)->ofo_measure_rcv_mss) /* 6.17+ */
        tcp_measure_rcv_mss(tp, skb);
    tp->pred_ok = false;
    tp->ack.pending |= ICSK_ACK_SCHED;
    tcp_count(tp, CTR_TcpExtTCPOFOQueue, 1);
    uint64_t seq = skb->seq, end_seq = skb->end_seq;
    Skb *pos = tp->ofo_queue.tail;
    while (pos && pos->seq > seq)
        pos = pos->prev;
    if (pos && seq < pos->end_seq && end_seq <= pos->end_seq) {
        skb_free(tcp_host(tp)->pool, skb); /* all the bits are present */
        tcp_dsack_set(tp, seq, end_seq);
    } else {
        if (pos && seq < pos->end_seq) {
            if (seq > pos->seq) {
                tcp_dsack_set(tp, seq, pos->end_seq); /* partial overlap */
            } else { /* same start, skb covers pos: replace it */
                Skb *prev = pos->prev;
                tcp_dsack_extend(tp, pos->seq, pos->end_seq);
                tcp_ofo_drop(tp, pos);
                pos = prev;
            }
        }
        /* new data out of order grows the window too (not for non-SACK flows: their dupACKs
         * must not carry window updates, or the sender would not count them) */
        if (tcp_conf(tp)->ofo_grows_window && tcp_is_sack(tp))
            tcp_grow_window(tp, skb);
        tcp_ofo_insert(tp, pos, skb);
    }
    if (tcp_is_sack(tp))
        tcp_sack_new_ofo_skb(tp, seq, end_seq, cpu);
    if (tcp_drs_2025(tp))
        tcp_rcvbuf_grow(tp, tp->rcvq_space.space); /* 63ad7dfedfae: provision the ofo span */
}

/* Duplicate or out-of-window data: DelayedACKLost, DSACK, quick-ACK, ACK owed (T.A.7). */
static void tcp_data_queue_old(TcpSock *tp, Skb *skb)
{
    if (skb->end_seq <= tp->rcv_nxt) {
        tcp_count(tp, CTR_TcpExtDelayedACKLost, 1);
        tcp_dsack_set(tp, skb->seq, skb->end_seq);
    }
    tcp_enter_quickack_mode(tp, TCP_MAX_QUICKACKS);
    tp->ack.pending |= ICSK_ACK_SCHED;
    skb_free(tcp_host(tp)->pool, skb);
}

uint64_t tcp_ucopy_room(const TcpSock *tp)
{
    const TcpCall *c = tp->ucopy_call;
    if (!tcp_stack(tp)->prequeue_enabled || !c || !tp->ucopy_task ||
        !sock_owned_by_user(&tp->sk) || tp->sk.owner != tp->ucopy_task ||
        tp->copied_seq != tp->rcv_nxt || c->done >= c->len)
        return 0;
    return c->len - c->done;
}

void tcp_ucopy_copy(TcpSock *tp, uint64_t n, Cpu *cpu)
{
    tp->ucopy_call->done += n;
    tp->bytes_received += n;
    tp->copied_seq += n;
    tcp_charge_copy(tp, cpu, n);
    tcp_rcv_space_adjust(tp); /* 3.4 tcp_copy_to_iovec and tcp_data_queue measure after it */
}

/* tcp_data_queue's copy to the reader (2.6-4.13, removed with the prequeue by e7942d0633c4):
 * a segment starting at rcv_nxt, processed in the reader's own context with everything before
 * it read, gives the reader min(len, ucopy.len) bytes at once. Unlike the fast path's
 * tcp_copy_to_iovec (whole skbs only) it copies a part when that is all the read can take; the
 * skb is eaten only when all of it went. Returns -1 when no copy was tried, else whether the
 * skb was eaten (3.4 "eaten"). */
static int tcp_data_queue_ucopy(TcpSock *tp, const Skb *skb, Cpu *cpu)
{
    uint64_t room = skb->seq == tp->rcv_nxt ? tcp_ucopy_room(tp) : 0;
    if (!room)
        return -1;
    uint64_t chunk = skb->len < room ? skb->len : room;
    tcp_ucopy_copy(tp, chunk, cpu);
    return chunk == skb->len;
}

/* May an in-order skb that was not copied to the reader be queued? 3.x: only if the memory
 * check passes. 4.2-6.5: an skb that finds the receive queue empty always is
 * (sk_forced_mem_schedule: one segment always gets through to the reader). 6.6+: the check
 * first; on failure the receiver owes an ACK now with a zero window (ICSK_ACK_NOMEM, which
 * tcp_select_window offers without storing it; the slow path's tcp_ack_snd_check sends it),
 * wakes the reader, and drops the skb (TCPRcvQDrop) unless the queue is empty. */
static bool tcp_rcvq_admit(TcpSock *tp, const Skb *skb, Cpu *cpu)
{
    switch (tcp_conf(tp)->rcvq_admit) {
    case TCP_RCVQ_ADMIT_3X:
        return tcp_try_rmem_schedule(tp, skb, cpu);
    case TCP_RCVQ_ADMIT_4_2:
        return skb_queue_empty(&tp->rcv_queue) || tcp_try_rmem_schedule(tp, skb, cpu);
    case TCP_RCVQ_ADMIT_6_6:
        break;
    }
    if (tcp_try_rmem_schedule(tp, skb, cpu))
        return true;
    tp->ack.pending |= ICSK_ACK_NOMEM | ICSK_ACK_NOW | ICSK_ACK_SCHED;
    tcp_data_ready(tp, cpu);
    if (!skb_queue_empty(&tp->rcv_queue) && skb->len) {
        tcp_count(tp, CTR_TcpExtTCPRcvQDrop, 1);
        return false;
    }
    return true;
}

/* In-order data: copy to the reader or queue, ATO bookkeeping, drain the ofo queue
 * (ICSK_ACK_NOW when it empties). When no copy was tried the buffer is checked first (3.4
 * tcp_data_queue: eaten < 0), and a segment pruning cannot make room for is dropped; a partly
 * copied one is queued without a check, as in the kernel; hosts.H.tcp.rcvq_admit says how
 * (tcp_rcvq_admit). */
static void tcp_data_queue_in_order(TcpSock *tp, Skb *skb, Cpu *cpu)
{
    int eaten = tcp_data_queue_ucopy(tp, skb, cpu);
    if (eaten < 0 && !tcp_rcvq_admit(tp, skb, cpu)) {
        skb_free(tcp_host(tp)->pool, skb);
        return;
    }
    if (eaten > 0)
        tp->rcv_nxt = skb->end_seq;
    else
        tcp_queue_rcv(tp, skb);
    tcp_event_data_recv(tp, skb);
    if (!skb_queue_empty(&tp->ofo_queue)) {
        tcp_ofo_queue(tp);
        if (skb_queue_empty(&tp->ofo_queue) && tcp_conf(tp)->gap_fill_ack_now)
            tp->ack.pending |= ICSK_ACK_NOW; /* RFC 5681 4.2: a gap was filled */
        else if (skb_queue_empty(&tp->ofo_queue))
            tp->ack.pingpong = 0; /* 2.6-3.x: leave ping-pong, so quick ACKs may apply */
    }
    if (tp->num_sacks)
        tcp_sack_remove(tp);
    tcp_fast_path_check(tp);
    if (eaten > 0)
        skb_free(tcp_host(tp)->pool, skb);
    else
        tcp_data_ready(tp, cpu);
}

void tcp_data_queue(TcpSock *tp, Skb *skb, Cpu *cpu)
{
    if (skb->seq == skb->end_seq) {
        skb_free(tcp_host(tp)->pool, skb);
        return;
    }
    tp->dsack = false;
    if (skb->seq == tp->rcv_nxt) {
        if (tcp_receive_window(tp) == 0) {
            tcp_count(tp, CTR_TcpExtTCPZeroWindowDrop, 1);
            tcp_data_queue_old(tp, skb); /* zero window: out of window */
            return;
        }
        tcp_data_queue_in_order(tp, skb, cpu);
        return;
    }
    if (skb->end_seq <= tp->rcv_nxt || skb->seq >= tp->rcv_nxt + tcp_receive_window(tp)) {
        tcp_data_queue_old(tp, skb);
        return;
    }
    /* < 4.18: in window but not at rcv_nxt - out of order or partly old - forces quick ACKs */
    if (tcp_conf(tp)->ofo_quickack)
        tcp_enter_quickack_mode(tp, TCP_MAX_QUICKACKS);
    if (skb->seq < tp->rcv_nxt) { /* partial overlap: DSACK the old part, keep the rest */
        tcp_dsack_set(tp, skb->seq, tp->rcv_nxt);
        if (tcp_receive_window(tp) == 0) { /* a closed window drops the new part */
            tcp_count(tp, CTR_TcpExtTCPZeroWindowDrop, 1);
            tcp_data_queue_old(tp, skb);
            return;
        }
        tcp_data_queue_in_order(tp, skb, cpu);
        return;
    }
    tcp_data_queue_ofo(tp, skb, cpu);
}

/* tcp_send_dupack: out-of-window segment, ACK at once (not deferred). */
void tcp_send_dupack(TcpSock *tp, const Skb *skb, Cpu *cpu)
{
    if (skb->end_seq != skb->seq && skb->seq < tp->rcv_nxt) {
        tcp_count(tp, CTR_TcpExtDelayedACKLost, 1);
        tcp_enter_quickack_mode(tp, TCP_MAX_QUICKACKS);
        uint64_t end_seq = skb->end_seq > tp->rcv_nxt ? tp->rcv_nxt : skb->end_seq;
        tcp_dsack_set(tp, skb->seq, end_seq);
    }
    tcp_send_ack(tp, cpu);
}

/* tcp_replace_ts_recent: echo the TSval of a segment at or before the last ACKed point. */
void tcp_store_ts_recent_if(TcpSock *tp, uint64_t seq)
{
    if (tp->saw_tstamp && seq <= tp->rcv_wup && (int32_t)(tp->rcv_tsval - tp->ts_recent) >= 0)
        tp->ts_recent = tp->rcv_tsval;
}

/* ---- ACK decisions ---- */

/* __tcp_ack_snd_check (T.A.6, 4.18+; the SO_RCVLOWAT test is tcp.ack_rcvlowat). Only the ACK the first test asks for is deferred while the
 * socket is owned (6.7+); with data out of order the kernel's path jumps to send_now past that
 * check, so a SACK leaves at once unless SACK compression holds it (tcp_sack_compress_hold). */
void __tcp_ack_snd_check(TcpSock *tp, bool ofo_possible, Cpu *cpu)
{
    bool below_lowat = tcp_conf(tp)->ack_rcvlowat && tp->rcv_nxt == tp->copied_seq; /* 4.18+ */
    bool now = (tp->rcv_nxt - tp->rcv_wup > tp->ack.rcv_mss &&
                (below_lowat /* SO_RCVLOWAT 1 */ || __tcp_select_window(tp) >= tp->rcv_wnd)) ||
               tcp_in_quickack_mode(tp) || (tp->ack.pending & ICSK_ACK_NOW);
    if (now && sock_owned_by_user(&tp->sk) && tcp_stack(tp)->backlog_ack_defer) {
        tp->tsq_flags |= TCPF_ACK_DEFERRED; /* 6.7+: one ACK from tcp_release_cb */
        return;
    }
    if (!now && (!ofo_possible || skb_queue_empty(&tp->ofo_queue))) {
        tcp_send_delayed_ack(tp, cpu);
        return;
    }
    if (!now && tcp_sack_compress_hold(tp, cpu))
        return;
    tcp_send_ack(tp, cpu); /* owed now, or a SACK for out-of-order data */
}

void tcp_ack_snd_check(TcpSock *tp, Cpu *cpu)
{
    if (!inet_csk_ack_scheduled(tp))
        return;
    __tcp_ack_snd_check(tp, true, cpu);
}

/* tcp_cleanup_rbuf (T.A.7): after a read, ACK if owed and warranted, or if the window doubled. */
void tcp_cleanup_rbuf(TcpSock *tp, uint64_t copied, Cpu *cpu)
{
    bool time_to_ack = false;
    if (inet_csk_ack_scheduled(tp)) {
        uint8_t p = tp->ack.pending;
        /* "Delayed ACKs frequently hit locked sockets during bulk receive" (blocked, 2.6-5.9) */
        if (tp->ack.blocked || tp->rcv_nxt - tp->rcv_wup > tp->ack.rcv_mss ||
            (copied > 0 && ((p & ICSK_ACK_PUSHED2) || ((p & ICSK_ACK_PUSHED) && !inet_csk_in_pingpong_mode(tp))) &&
             !tp->sk.rmem_alloc))
            time_to_ack = true;
    }
    if (copied > 0 && !time_to_ack) {
        uint32_t rcv_window_now = tcp_receive_window(tp);
        if (2u * (uint64_t)rcv_window_now <= tp->window_clamp) {
            uint32_t new_window = __tcp_select_window(tp);
            if (new_window && new_window >= 2u * (uint64_t)rcv_window_now)
                time_to_ack = true;
        }
    }
    if (time_to_ack)
        tcp_send_ack(tp, cpu);
}
