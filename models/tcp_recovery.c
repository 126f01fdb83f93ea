/* tcp_recovery.c - RACK loss detection and its reordering timer, as net/ipv4/tcp_recovery.c.
 *
 * What it models (RFC 8985 as Linux 4.18+ does it, T.D.4): a packet is lost when a packet sent
 * after it has been (s)acked and it is older than the RACK RTT plus a reordering window. The
 * window is 0 before any reordering was seen once recovery started or dupthresh SACKs arrived,
 * else min(min_rtt/4 x steps, srtt); packets not yet expired arm the REO timeout on the shared
 * retransmit timer. Why: it decides when SACKed holes are retransmitted (fast retransmit) and
 * which packets an RTO leaves unmarked. The kernel walks a time-sorted list; this model walks
 * the retransmit queue in sequence order and checks every unsacked skb (same result).
 */
#include "models/tcp_internal.h"

static bool tcp_rack_sent_after(sim_time_t t1, sim_time_t t2, uint64_t seq1, uint64_t seq2)
{
    return t1 > t2 || (t1 == t2 && seq1 > seq2);
}

static uint32_t tcp_rack_reo_wnd(const TcpSock *tp)
{
    if (!tp->reord_seen) {
        if (tp->ca_state >= TCP_CA_Recovery)
            return 0;
        if (tp->sacked_out >= tp->reordering)
            return 0;
    }
    uint64_t wnd = (uint64_t)(tp->min_rtt_us >> 2) * tp->rack.reo_wnd_steps;
    return wnd < (tp->srtt_us >> 3) ? (uint32_t)wnd : tp->srtt_us >> 3;
}

int64_t tcp_rack_skb_timeout(const TcpSock *tp, const Skb *skb, uint32_t reo_wnd)
{
    return (int64_t)tp->rack.rtt_us + reo_wnd - (int64_t)tcp_stamp_us_delta(tp->tcp_mstamp, skb->tx_time);
}

void tcp_rack_advance(TcpSock *tp, uint8_t sacked, uint64_t end_seq, sim_time_t xmit_time)
{
    uint32_t rtt_us = tcp_stamp_us_delta(tp->tcp_mstamp, xmit_time);
    /* a retransmitted skb acked faster than min_rtt (none yet: ~0U) was the original's ACK */
    uint32_t min_rtt = tp->min_rtt_us ? tp->min_rtt_us : UINT32_MAX;
    if ((sacked & TCPCB_RETRANS) && rtt_us < min_rtt)
        return;
    tp->rack.advanced = 1;
    tp->rack.rtt_us = rtt_us;
    if (tcp_rack_sent_after(xmit_time, tp->rack.mstamp, end_seq, tp->rack.end_seq)) {
        tp->rack.mstamp = xmit_time;
        tp->rack.end_seq = end_seq;
    }
}

/* Mark what RACK considers lost; *reo_timeout = the longest time still to wait (us). */
static void tcp_rack_detect_loss(TcpSock *tp, uint32_t *reo_timeout)
{
    uint32_t reo_wnd = tcp_rack_reo_wnd(tp);
    *reo_timeout = 0;
    for (Skb *skb = tp->rtx_queue.head; skb; skb = skb->next) {
        if (skb->sacked & TCPCB_SACKED_ACKED)
            continue;
        if ((skb->sacked & TCPCB_LOST) && !(skb->sacked & TCPCB_SACKED_RETRANS))
            continue; /* already marked, not yet retransmitted */
        if (!tcp_rack_sent_after(tp->rack.mstamp, skb->tx_time, tp->rack.end_seq, skb->end_seq))
            continue;
        int64_t remaining = tcp_rack_skb_timeout(tp, skb, reo_wnd);
        if (remaining <= 0)
            tcp_mark_skb_lost(tp, skb);
        else if ((uint64_t)remaining > *reo_timeout)
            *reo_timeout = (uint32_t)remaining;
    }
}

/* tcp_rack_mark_lost: true when the REO timer was armed (the caller then leaves the timer). */
bool tcp_rack_mark_lost(TcpSock *tp, Cpu *cpu)
{
    uint32_t timeout;
    if (!tp->rack.advanced)
        return false;
    tp->rack.advanced = 0;
    tcp_rack_detect_loss(tp, &timeout);
    if (!timeout)
        return false;
    /* the 2 ms floor before the rounding up to jiffies (1c2709cfff1d, 6.6; before it 2 jiffies
     * were added after it, 8 ms at HZ 250), as tcp_schedule_loss_probe does */
    uint64_t when = usecs_to_jiffies_hz((uint64_t)timeout + TCP_TIMEOUT_MIN_US, tp->hz);
    inet_csk_reset_xmit_timer(tp, ICSK_TIME_REO_TIMEOUT, when, tp->icsk_rto, cpu);
    return true;
}

/* tcp_rack_reo_timeout: the reordering window expired for some packets. */
void tcp_rack_reo_timeout(TcpSock *tp, Cpu *cpu)
{
    uint32_t timeout, prior_inflight = tcp_packets_in_flight(tp);
    tcp_rack_detect_loss(tp, &timeout);
    if (prior_inflight != tcp_packets_in_flight(tp)) {
        if (tp->ca_state != TCP_CA_Recovery) {
            tcp_enter_recovery(tp);
            tcp_cwnd_reduction(tp, 1, 0);
        }
        tcp_xmit_retransmit_queue(tp, cpu);
    }
    if (tp->icsk_pending != ICSK_TIME_RETRANS)
        tcp_rearm_rto(tp, cpu);
}

/* tcp_rack_update_reo_wnd: after an ACK, widen the window by one step when a DSACK (with
 * reordering seen) arrived at least a round after the last widening; the steps persist for 16
 * recoveries (reo_wnd_persist), then fall back to 1. */
void tcp_rack_update_reo_wnd(TcpSock *tp, uint64_t prior_delivered)
{
    if (!prior_delivered)
        return;
    if (prior_delivered < tp->rack.last_delivered)
        tp->rack.dsack_seen = 0; /* within a round of the last adjustment */
    if (tp->rack.dsack_seen) {
        if (tp->rack.reo_wnd_steps < 0xFF)
            tp->rack.reo_wnd_steps++;
        tp->rack.dsack_seen = 0;
        tp->rack.last_delivered = tp->delivered;
        tp->rack.reo_wnd_persist = TCP_RACK_RECOVERY_THRESH;
    } else if (!tp->rack.reo_wnd_persist) {
        tp->rack.reo_wnd_steps = 1;
    }
}
