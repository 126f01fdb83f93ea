/* tcp_rcvbuf.c - the receiver's RTT estimate and receive-buffer autotuning (Dynamic Right-Sizing,
 * net/ipv4/tcp_input.c: tcp_rcv_rtt_measure, tcp_rcv_rtt_measure_ts, tcp_rcv_rtt_update,
 * tcp_rcv_space_adjust, tcp_rcvbuf_grow), in the eras hosts.H.tcp.rcv_autotune and
 * hosts.H.tcp.rcv_rtt_clock select: 3.x, <= 6.15, and the 6.16/6.18 rewrite.
 *
 * Why apart from tcp_rcv.c: it is one mechanism with its own eras, and what it decides - how far
 * sk_rcvbuf grows, so how much window a receiver can offer with data unread - is what seed 000's
 * server window and seed 004's receive queue turn on (docs/open-findings.md). tcp_rcv.c calls in
 * from tcp_event_data_recv (the window-based RTT sample) and tcp_data_queue_ofo (provisioning an
 * out-of-order span); tcp_input.c takes the timestamp samples; reads call tcp_rcv_space_adjust.
 */
#include "models/tcp_internal.h"
#include "models/truesize.h"

/* The 2025 rewrite (6.16+): either of its eras. */
bool tcp_drs_2025(const TcpSock *tp)
{
    TcpRcvAutotune m = tcp_conf(tp)->rcv_autotune;
    return m == TCP_RCV_AUTOTUNE_6_16 || m == TCP_RCV_AUTOTUNE_6_18;
}

/* tcp_rcv_rtt_update as of 6.16 (b879dcb1aeec "always seek for minimal rtt", a00f135cd986
 * "skip big rtt sample if receive queue is not empty"): a smaller sample is taken at once; a
 * larger one is dropped when it comes from the window measure or while unread data waits, else
 * smoothed in with gain 1/8. rcv_rtt_us holds 8 x the estimate. */
static void tcp_rcv_rtt_update(TcpSock *tp, uint32_t sample_us, bool win_dep)
{
    uint32_t old = tp->rcv_rtt_us;
    uint64_t m = (uint64_t)sample_us << 3;
    if (!old || m < old) {
        tp->rcv_rtt_us = m > UINT32_MAX ? UINT32_MAX : (uint32_t)m;
        return;
    }
    if (win_dep || tp->rcv_nxt != tp->copied_seq)
        return;
    tp->rcv_rtt_us = old - (old >> 3) + sample_us;
}

/* 2.6-4.12 (hosts.H.tcp.rcv_rtt_clock jiffies): the estimate in 1/8 jiffies, as 3.4's
 * rcv_rtt_est.rtt. rcv_rtt_us keeps 8 x us, converted exactly both ways (a multiple of 1/8
 * jiffy in us, floored, rounds back to itself). */
static bool tcp_rcv_rtt_in_jiffies(const TcpSock *tp)
{
    return tcp_conf(tp)->rcv_rtt_clock == TCP_RCV_RTT_CLOCK_JIFFIES && !tcp_drs_2025(tp);
}

static uint64_t rcv_rtt_j8(const TcpSock *tp)
{
    return ((uint64_t)tp->rcv_rtt_us * tp->hz + 500000u) / 1000000u;
}

/* 3.4 tcp_rcv_rtt_update: a 0 sample counts as 1 jiffy; with an estimate, a window sample
 * (win_dep) can only lower it, a timestamp sample is smoothed in with gain 1/8 (the shift
 * truncating, so runs of 1-jiffy samples settle at 15/8 jiffies). */
static void tcp_rcv_rtt_update_jiffies(TcpSock *tp, uint64_t sample_j, bool win_dep)
{
    int64_t old = tp->rcv_rtt_us ? (int64_t)rcv_rtt_j8(tp) : 0;
    int64_t m = sample_j ? (int64_t)(sample_j < INT32_MAX ? sample_j : INT32_MAX) : 1;
    int64_t n;
    if (!old)
        n = m << 3;
    else if (win_dep)
        n = (m << 3) < old ? m << 3 : old;
    else
        n = old + m - (old >> 3);
    uint64_t us8 = (uint64_t)n * 1000000u / tp->hz;
    tp->rcv_rtt_us = us8 > UINT32_MAX ? UINT32_MAX : (uint32_t)us8;
}

/* tcp_rcv_rtt_measure (tcp_event_data_recv, every kernel since Dynamic Right-Sizing in 2.6.7):
 * the time until rcv_nxt passes the right edge advertised when the measure started - one
 * window's worth of data - is a window-based RTT sample. It can only lower the estimate; with
 * timestamps the TSecr samples (smoothed, >= 1 ms with ms TS before 6.16) pull it back up, and
 * without them it is the only RTT autotuning has. */
void tcp_rcv_rtt_measure(TcpSock *tp)
{
    if (tp->rcv_rtt_est_time) {
        if (tp->rcv_nxt < tp->rcv_rtt_est_seq)
            return;
        if (tcp_rcv_rtt_in_jiffies(tp)) {
            tcp_rcv_rtt_update_jiffies(tp, tcp_jiffies_at(tp, tp->tcp_mstamp) -
                                               tcp_jiffies_at(tp, tp->rcv_rtt_est_time), true);
        } else {
            sim_time_t d_us = (tp->tcp_mstamp - tp->rcv_rtt_est_time) / SIM_US;
            tcp_rcv_rtt_update(tp, d_us > 0 ? (uint32_t)(d_us < UINT32_MAX ? d_us : UINT32_MAX) : 1u,
                               true);
        }
    }
    tp->rcv_rtt_est_seq = tp->rcv_nxt + tp->rcv_wnd;
    tp->rcv_rtt_est_time = tp->tcp_mstamp;
}

/* tcp_rcv_rtt_measure_ts: receiver RTT from TSecr, for autotuning. Legacy: a 0 ms delta counts
 * as 1 ms and every sample is smoothed in. 6.16+ (d59fc95be9d0 "remove zero TCP TS samples for
 * autotuning"): with ms timestamps a sub-ms RTT gives 0, which is no sample at all. */
void tcp_rcv_rtt_measure_ts(TcpSock *tp, const Skb *skb)
{
    bool jiffies = tcp_rcv_rtt_in_jiffies(tp);
    bool every = jiffies || (tcp_conf(tp)->rcv_rtt_clock == TCP_RCV_RTT_CLOCK_US_EVERY &&
                             !tcp_drs_2025(tp)); /* <= 4.18: no one-sample-per-TSecr rule */
    if (!tp->saw_tstamp || !tp->rcv_tsecr || (!every && tp->rcv_tsecr == tp->rcv_rtt_last_tsecr))
        return;
    tp->rcv_rtt_last_tsecr = tp->rcv_tsecr;
    if (skb->len < tp->ack.rcv_mss)
        return;
    uint32_t delta = tcp_time_stamp_ts(tp) - tp->rcv_tsecr;
    uint32_t tick = tcp_ts_tick_us(tp);
    if (delta > INT32_MAX / tick) /* ticks -> us must not overflow */
        return;
    if (jiffies) { /* 3.4's TS clock was jiffies itself: the TS delta in whole jiffies */
        tcp_rcv_rtt_update_jiffies(tp, (uint64_t)delta * tick * tp->hz / 1000000u, false);
        return;
    }
    if (tcp_drs_2025(tp)) {
        if (delta)
            tcp_rcv_rtt_update(tp, delta * tick, false);
        return;
    }
    int64_t m = (int64_t)(delta ? delta : 1) * tick;
    if (tp->rcv_rtt_us) {
        m -= tp->rcv_rtt_us >> 3;
        tp->rcv_rtt_us = (uint32_t)((int64_t)tp->rcv_rtt_us + m);
    } else {
        tp->rcv_rtt_us = (uint32_t)(m << 3);
    }
}

/* Grow rcvbuf to `rcvbuf` bytes, within tcp_rmem[2]; window_clamp follows. */
static void tcp_rcvbuf_set_space(TcpSock *tp, uint64_t rcvbuf)
{
    if (rcvbuf > tcp_conf(tp)->rcvbuf_max)
        rcvbuf = tcp_conf(tp)->rcvbuf_max;
    if (rcvbuf > tp->sk.rcvbuf) {
        tp->sk.rcvbuf = (uint32_t)rcvbuf;
        tp->window_clamp = tcp_win_from_space(tp, rcvbuf);
    }
}

/* Size rcvbuf for rcvwin bytes of window (tcp_space_from_win). */
static void tcp_rcvbuf_set(TcpSock *tp, uint64_t rcvwin)
{
    tcp_rcvbuf_set_space(tp, tcp_space_from_win(tp, rcvwin));
}

/* tcp_rcvbuf_grow (6.16+, 65c5287892e9 "fix sk_rcvbuf overshoot"; newval since b1e014a1f327):
 * space becomes newval; the window is 2 x newval ("DRS is always one RTT late"), 6.18 adds the
 * slow-start growth 2 x rcvwin x (newval - old) / old back (aa251c84636c, without the old 16 MSS
 * cushion), and the span held in the out-of-order queue is provisioned on top (63ad7dfedfae). */
void tcp_rcvbuf_grow(TcpSock *tp, uint32_t newval)
{
    uint32_t oldval = tp->rcvq_space.space;
    tp->rcvq_space.space = newval;
    if (!tcp_conf(tp)->rcvbuf_autotune)
        return;
    uint64_t rcvwin = (uint64_t)newval << 1;
    if (tcp_conf(tp)->rcv_autotune == TCP_RCV_AUTOTUNE_6_18 && oldval && newval > oldval)
        rcvwin += (rcvwin * (newval - oldval) / oldval) << 1;
    if (tp->ofo_queue.tail && tp->ofo_queue.tail->end_seq > tp->rcv_nxt)
        rcvwin += tp->ofo_queue.tail->end_seq - tp->rcv_nxt;
    tcp_rcvbuf_set(tp, rcvwin);
}

/* The buffer autotuning gives one MSS of window before 6.5: SKB_TRUESIZE(advmss +
 * MAX_TCP_HEADER), raised by 128 until its advertised share holds an MSS (2.6-6.4
 * tcp_rcv_space_adjust): 2984 B at MSS 1448 under adv_win_scale 1, 131019 B over lo. */
static uint64_t tcp_rcvmem(const TcpSock *tp)
{
    uint64_t rcvmem = skb_truesize(tp->advmss + MAX_TCP_HEADER);
    while (tcp_win_from_space(tp, rcvmem) < tp->advmss)
        rcvmem += 128u;
    return rcvmem;
}

/* Legacy DRS (<= 6.15): twice what the reader took plus 16 MSS of slack, grown by twice the
 * relative increase (slow start). Until 6.4 the buffer for that window is counted in whole
 * segments, rcvwin / advmss x rcvmem (a little over 2 x rcvwin at MSS 1448, and 128 KiB steps
 * over lo); 6.5 (dfa2f0483360) sizes it with tcp_space_from_win. */
static void tcp_rcv_space_adjust_legacy(TcpSock *tp)
{
    uint64_t copied = tp->copied_seq - tp->rcvq_space.seq;
    if (copied <= tp->rcvq_space.space)
        return;
    if (tcp_conf(tp)->rcvbuf_autotune) {
        uint64_t rcvwin = (copied << 1) + 16u * tp->advmss; /* 2 x copied + 16 MSS of slack */
        uint64_t grow = rcvwin * (copied - tp->rcvq_space.space) / tp->rcvq_space.space;
        rcvwin += grow << 1;
        TcpWinScaling era = tcp_conf(tp)->win_scaling;
        if (era == TCP_WIN_ADV_WIN_SCALE_1 || era == TCP_WIN_ADV_WIN_SCALE_2)
            tcp_rcvbuf_set_space(tp, rcvwin / tp->advmss * tcp_rcvmem(tp));
        else
            tcp_rcvbuf_set(tp, rcvwin);
    }
    tp->rcvq_space.space = (uint32_t)copied;
}

/* 2.6.x-3.12 (hosts.H.tcp.rcv_autotune 3.x; 3.4 tcp_rcv_space_adjust, replaced in 3.13 by
 * "tcp: rcvbuf autotuning improvements"): space becomes max(space, 2 x what the reader took in
 * the last RTT); when it grew, the buffer is sized for space/advmss segments of
 * SKB_TRUESIZE(advmss + MAX_TCP_HEADER) each, raised by 128 until its advertised share holds an
 * MSS, and window_clamp follows space. 3.13+ grows only once the reader takes more than space
 * itself in an RTT, so a flow held to the first window (~64 KB) by it never opens it. */
static void tcp_rcv_space_adjust_3x(TcpSock *tp)
{
    uint64_t space = 2u * (tp->copied_seq - tp->rcvq_space.seq);
    if (space <= tp->rcvq_space.space)
        return;
    tp->rcvq_space.space = space > UINT32_MAX ? UINT32_MAX : (uint32_t)space;
    if (!tcp_conf(tp)->rcvbuf_autotune)
        return;
    uint64_t segs = space / tp->advmss ? space / tp->advmss : 1u;
    uint64_t rcvbuf = segs * tcp_rcvmem(tp);
    if (rcvbuf > tcp_conf(tp)->rcvbuf_max)
        rcvbuf = tcp_conf(tp)->rcvbuf_max;
    if (rcvbuf > tp->sk.rcvbuf) {
        tp->sk.rcvbuf = (uint32_t)rcvbuf;
        tp->window_clamp = tp->rcvq_space.space;
    }
}

/* tcp_rcv_space_adjust: after every skb a read copies (and every direct copy), acting once per
 * receiver RTT. 6.16+ (ea33537d8292 "add receive queue awareness"): bytes still unread are
 * taken off what was copied, so a reader that falls behind never grows its buffer. The clock is
 * read now (tcp_mstamp_refresh), as every kernel up to 6.18 does; "tcp: remove one ktime_get()
 * from recvmsg() fast path" (net-next, Oct 2025) makes it the socket's last packet instead. */
void tcp_rcv_space_adjust(TcpSock *tp)
{
    sim_time_t now = sim_now(tcp_sim(tp));
    if (!tp->rcv_rtt_us)
        return;
    if (tcp_rcv_rtt_in_jiffies(tp)) { /* 3.4: jiffies elapsed against the estimate's whole jiffies */
        if (tcp_jiffies_at(tp, now) - tcp_jiffies_at(tp, tp->rcvq_space.time) < rcv_rtt_j8(tp) >> 3)
            return;
    } else if (now - tp->rcvq_space.time < (sim_time_t)(tp->rcv_rtt_us >> 3) * SIM_US) {
        return;
    }
    if (tcp_drs_2025(tp)) {
        int64_t copied = (int64_t)(tp->copied_seq - tp->rcvq_space.seq) -
                         (int64_t)(tp->rcv_nxt - tp->copied_seq);
        if (copied > (int64_t)tp->rcvq_space.space)
            tcp_rcvbuf_grow(tp, (uint32_t)copied);
    } else if (tcp_conf(tp)->rcv_autotune == TCP_RCV_AUTOTUNE_3X) {
        tcp_rcv_space_adjust_3x(tp);
    } else {
        tcp_rcv_space_adjust_legacy(tp);
    }
    tp->rcvq_space.seq = tp->copied_seq;
    tp->rcvq_space.time = now;
}
