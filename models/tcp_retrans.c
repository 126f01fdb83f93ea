/* tcp_retrans.c - the sender's retransmissions and the arming of its retransmit timer, as
 * net/ipv4/tcp_output.c does them (__tcp_retransmit_skb, tcp_retransmit_skb,
 * tcp_xmit_retransmit_queue, tcp_rearm_rto, tcp_schedule_loss_probe, tcp_send_loss_probe).
 *
 * What it models: resending (the first MSSes of) a queued skb within the peer's window and the
 * sndbuf's headroom, with TcpRetransSegs and the EVER_RETRANS mark counted before the attempt as
 * in 6.x; the loop that resends LOST skbs while cwnd, TSQ and pacing allow (fast and slow-start
 * retransmits, PRR's prr_out); the one retransmit timer shared by RTO and TLP - when the RTO of
 * the head skb falls due, the PTO (T.C.3, T.D.1) - and the tail loss probe itself: new data if
 * the window takes it, else the last MSS again (T.D.2). Why apart from tcp_output.c: these are
 * the functions the seed patches' retransmission and timer effects go through (TCPLossProbes,
 * TcpRetransSegs, spurious RTOs), one job with its own counters, while tcp_output.c builds and
 * sends segments. They keep the kernel's names and order of operations; they reach tcp_output.c
 * through tcp_transmit_skb, tcp_fragment, tcp_write_xmit and its two tests tcp_snd_wnd_test and
 * tcp_small_queue_check (tcp_internal.h). Zero-window probes stay in tcp_output.c: they send
 * new data or a bare segment as tcp_write_xmit and tcp_send_ack do.
 */
#include "models/observe.h"
#include "models/tcp_internal.h"

#include <inttypes.h>

/* ---- retransmission ---- */

/* __tcp_retransmit_skb: send (the first segs MSSes of) skb again. As in 6.x, TcpRetransSegs (by
 * pcount) and the EVER_RETRANS mark come before the attempt (early 4.x counted only what left),
 * so a retransmission the qdisc drops still counts there, and also in TcpExtTCPRetransFail; its error goes back, and
 * tcp_retransmit_skb then does not mark it retransmitted (no TCPCB_RETRANS, no retrans_out). */
int __tcp_retransmit_skb(TcpSock *tp, Skb *skb, uint32_t segs, Cpu *cpu)
{
    uint32_t cur_mss = tp->mss_cache;
    uint64_t queued = tp->sk.wmem_queued;
    uint64_t cap = queued + (queued >> 2) < tp->sk.sndbuf ? queued + (queued >> 2) : tp->sk.sndbuf;
    if (tp->sk.wmem_alloc > cap)
        return -1; /* -EAGAIN: do not queue more than we hold */
    int64_t avail_wnd = (int64_t)tcp_wnd_end(tp) - (int64_t)skb->seq;
    if (avail_wnd <= 0) {
        if (skb->seq != tp->snd_una)
            return -1;
        avail_wnd = cur_mss;
    }
    uint64_t len = (uint64_t)cur_mss * segs;
    if (len > (uint64_t)avail_wnd) {
        len = ((uint64_t)avail_wnd / cur_mss) * cur_mss;
        if (!len)
            len = (uint64_t)avail_wnd;
    }
    if (skb->len > len)
        tcp_fragment(tp, &tp->rtx_queue, skb, (uint32_t)len);
    uint32_t pcount = tcp_skb_pcount(skb);
    SIM_LOG(tcp_host(tp), LOG_TCP, cpu, "retransmit",
            "sk=%u seq=%" PRIu64 " end_seq=%" PRIu64 " segs=%u state=%u", tp->sk.port, skb->seq,
            skb->end_seq, pcount, tp->ca_state);
    tcp_count(tp, CTR_TcpRetransSegs, pcount);
    tp->total_retrans += pcount;
    skb->sacked |= TCPCB_EVER_RETRANS;
    skb->ever_retrans = true;
    tp->tcp_mstamp = sim_now(tcp_sim(tp));
    int err = tcp_transmit_skb(tp, skb, cpu);
    if (err)
        tcp_count(tp, CTR_TcpExtTCPRetransFail, pcount);
    return err;
}

int tcp_retransmit_skb(TcpSock *tp, Skb *skb, uint32_t segs, Cpu *cpu)
{
    int err = __tcp_retransmit_skb(tp, skb, segs, cpu);
    if (err == 0) {
        skb->sacked |= TCPCB_RETRANS;
        tp->retrans_out += tcp_skb_pcount(skb);
        /* 2.6-4.3: snd_nxt kept in the queued skb's ack_seq, for tcp_mark_lost_retrans (FACK) */
        skb->ack_seq = tp->snd_nxt;
    }
    /* the TS clock of the first (attempted) retransmission, for Eifel (T.C.6) */
    if (!tp->retrans_stamp)
        tp->retrans_stamp = tcp_time_stamp_ts(tp);
    if (tp->undo_retrans < 0)
        tp->undo_retrans = 0;
    tp->undo_retrans += (int32_t)tcp_skb_pcount(skb);
    return err;
}

/* tcp_xmit_retransmit_queue: resend LOST skbs while cwnd allows (F.3). */
void tcp_xmit_retransmit_queue(TcpSock *tp, Cpu *cpu)
{
    if (!tp->packets_out)
        return;
    Skb *rtx_head = tp->rtx_queue.head;
    bool rearm = false;
    uint32_t max_segs = tcp_tso_autosize(tp, tp->mss_cache);
    for (Skb *skb = rtx_head; skb; skb = skb->next) {
        uint32_t in_flight = tcp_packets_in_flight(tp);
        if (in_flight >= tp->snd_cwnd || tp->retrans_out >= tp->lost_out)
            break;
        if (tcp_pacing_check(tp, cpu))
            break;
        uint32_t segs = tp->snd_cwnd - in_flight;
        if (segs > max_segs)
            segs = max_segs;
        if (!(skb->sacked & TCPCB_LOST) ||
            (skb->sacked & (TCPCB_SACKED_ACKED | TCPCB_SACKED_RETRANS)))
            continue;
        if (tcp_small_queue_check(tp, skb, 1))
            break;
        if (tcp_retransmit_skb(tp, skb, segs, cpu))
            break;
        CounterId mib = tp->ca_state != TCP_CA_Loss ? CTR_TcpExtTCPFastRetrans
                                                    : CTR_TcpExtTCPSlowStartRetrans;
        tcp_count(tp, mib, tcp_skb_pcount(skb));
        if (tcp_in_cwnd_reduction(tp))
            tp->prr_out += tcp_skb_pcount(skb);
        if (skb == rtx_head && tp->icsk_pending != ICSK_TIME_REO_TIMEOUT)
            rearm = true;
    }
    if (rearm)
        inet_csk_reset_xmit_timer(tp, ICSK_TIME_RETRANS, tp->icsk_rto, tcp_rto_max(tp), cpu);
}

/* ---- RTO / TLP arming (T.C.3, T.D.1) ---- */

/* How far in the future the RTO of the head skb is, in us (tcp_rto_delta_us). */
int64_t tcp_rto_delta_us(const TcpSock *tp)
{
    const Skb *skb = tp->rtx_queue.head;
    int64_t rto_us = (int64_t)jiffies_to_usecs_hz(tp->icsk_rto, tp->hz);
    if (!skb)
        return rto_us;
    return (skb->tx_time / SIM_US) + rto_us - (tp->tcp_mstamp / SIM_US);
}

void tcp_rearm_rto(TcpSock *tp, Cpu *cpu)
{
    if (!tp->packets_out) {
        inet_csk_clear_xmit_timer(tp, ICSK_TIME_RETRANS);
        return;
    }
    uint32_t rto = tp->icsk_rto;
    if (tp->icsk_pending == ICSK_TIME_REO_TIMEOUT || tp->icsk_pending == ICSK_TIME_LOSS_PROBE) {
        int64_t delta_us = tcp_rto_delta_us(tp);
        rto = usecs_to_jiffies_hz((uint64_t)(delta_us > 1 ? delta_us : 1), tp->hz);
    }
    inet_csk_reset_xmit_timer(tp, ICSK_TIME_RETRANS, rto, tcp_rto_max(tp), cpu);
}

/* tcp_schedule_loss_probe (4.14+): PTO = 2*SRTT + (packets_out == 1 ? rto_min : 2 ms), or 1 s
 * without an RTT sample, never later than the RTO would fire. */
bool tcp_schedule_loss_probe(TcpSock *tp, bool advancing_rto, Cpu *cpu)
{
    if (!tcp_conf(tp)->tlp || !tp->packets_out || !tcp_is_sack(tp) ||
        (tp->ca_state != TCP_CA_Open && tp->ca_state != TCP_CA_CWR))
        return false;
    uint32_t timeout;
    if (tp->srtt_us) {
        uint64_t timeout_us = tp->srtt_us >> 2;
        timeout_us += tp->packets_out == 1 ? tcp_rto_min_us(tp) : TCP_TIMEOUT_MIN_US;
        timeout = usecs_to_jiffies_hz(timeout_us, tp->hz);
    } else {
        timeout = tcp_timeout_init(tp);
    }
    int64_t rto_delta_us = advancing_rto ? (int64_t)jiffies_to_usecs_hz(tp->icsk_rto, tp->hz)
                                         : tcp_rto_delta_us(tp);
    if (rto_delta_us > 0) {
        uint32_t rto_j = usecs_to_jiffies_hz((uint64_t)rto_delta_us, tp->hz);
        if (rto_j < timeout)
            timeout = rto_j;
    }
    inet_csk_reset_xmit_timer(tp, ICSK_TIME_LOSS_PROBE, timeout, tcp_rto_max(tp), cpu);
    return true;
}

void tcp_set_xmit_timer(TcpSock *tp, Cpu *cpu)
{
    if (!tcp_schedule_loss_probe(tp, true, cpu))
        tcp_rearm_rto(tp, cpu);
}

/* The probe of tcp_send_loss_probe when no new data can go: the last MSS of the last skb. */
static bool tcp_loss_probe_retransmit(TcpSock *tp, uint32_t mss, Cpu *cpu)
{
    Skb *skb = tp->rtx_queue.tail;
    if (!skb)
        return false;
    uint32_t pcount = tcp_skb_pcount(skb);
    if (pcount > 1 && skb->len > (pcount - 1) * mss) {
        tcp_fragment(tp, &tp->rtx_queue, skb, (pcount - 1) * mss);
        skb = skb->next;
    }
    if (__tcp_retransmit_skb(tp, skb, 1, cpu))
        return false;
    tp->tlp_retrans = true;
    return true;
}

/* The probe itself: new data if some fits the peer's window (ignoring cwnd), else the last MSS
 * again. True when a probe left. */
static bool tcp_loss_probe_send(TcpSock *tp, Cpu *cpu)
{
    uint32_t mss = tp->mss_cache;
    Skb *skb = tp->write_queue.head;
    tp->tlp_retrans = false;
    if (skb && tcp_snd_wnd_test(tp, skb, mss)) {
        uint32_t pcount = tp->packets_out;
        tcp_write_xmit(tp, mss, TCP_NAGLE_OFF, 2, cpu);
        return tp->packets_out > pcount;
    }
    return tcp_loss_probe_retransmit(tp, mss, cpu);
}

/* tcp_send_loss_probe (T.D.2): at most one probe per episode (tlp_high_seq); then the RTO is
 * re-armed, from now when a probe left. */
bool tcp_send_loss_probe(TcpSock *tp, Cpu *cpu)
{
    bool sent = !tp->tlp_high_seq && tcp_loss_probe_send(tp, cpu);
    if (sent) {
        tp->tlp_high_seq = tp->snd_nxt;
        tcp_count(tp, CTR_TcpExtTCPLossProbes, 1);
        tcp_diag_timer_fired(tp, false);
        tp->icsk_pending = 0;
    }
    tcp_rearm_rto(tp, cpu);
    return sent;
}
