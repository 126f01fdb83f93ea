/* tcp_input.c - processing of incoming segments and of ACKs, as net/ipv4/tcp_input.c.
 *
 * What it models: tcp_rcv_established with its header-prediction fast path and slow path,
 * tcp_ack (window update, SACK tagging, cleaning the retransmit queue, RTT sampling, the TLP
 * outcome, loss-state processing, timer re-arming, cwnd control and recovery retransmissions),
 * the RTT estimator and RTO (T.C.1-C.2), pacing rate, send-buffer autotuning and write-space
 * wake-ups. The data-receiver half (queueing, ACK decisions) is tcp_rcv.c; SACK/DSACK parsing is
 * tcp_sack.c; the loss state machine and undo are tcp_loss.c. Why: the sender's reaction to
 * stretched, delayed or duplicate-SACK ACKs is what seeds 000 and 004 measure.
 */
#include "models/tcp_internal.h"

/* ---- RTT and RTO (T.C.2) ---- */

/* tcp_rtt_estimator: srtt (8x), mdev (4x), mdev_max and rttvar; rttvar never below rto_min. */
void tcp_rtt_estimator(TcpSock *tp, uint32_t mrtt_us)
{
    int64_t m = mrtt_us;
    uint64_t srtt = tp->srtt_us;
    if (srtt) {
        m -= (int64_t)(srtt >> 3);
        srtt = (uint64_t)((int64_t)srtt + m);
        if (m < 0) {
            m = -m;
            m -= tp->mdev_us >> 2;
            if (m > 0)
                m >>= 3; /* a large RTT decrease raises mdev with gain 1/32 */
        } else {
            m -= tp->mdev_us >> 2;
        }
        tp->mdev_us = (uint32_t)((int64_t)tp->mdev_us + m);
        if (tp->mdev_us > tp->mdev_max_us) {
            tp->mdev_max_us = tp->mdev_us;
            if (tp->mdev_max_us > tp->rttvar_us)
                tp->rttvar_us = tp->mdev_max_us;
        }
        if (tp->snd_una > tp->rtt_seq) { /* once per RTT */
            if (tp->mdev_max_us < tp->rttvar_us)
                tp->rttvar_us -= (tp->rttvar_us - tp->mdev_max_us) >> 2;
            tp->rtt_seq = tp->snd_nxt;
            tp->mdev_max_us = tcp_rto_min_us(tp);
        }
    } else {
        srtt = (uint64_t)m << 3;
        tp->mdev_us = (uint32_t)m << 1;
        tp->rttvar_us = tp->mdev_us > tcp_rto_min_us(tp) ? tp->mdev_us : tcp_rto_min_us(tp);
        tp->mdev_max_us = tp->rttvar_us;
        tp->rtt_seq = tp->snd_nxt;
    }
    tp->srtt_us = srtt ? (uint32_t)srtt : 1;
}

/* tcp_set_rto: usecs_to_jiffies(srtt + rttvar), at most TCP_RTO_MAX. */
void tcp_set_rto(TcpSock *tp)
{
    uint32_t rto = usecs_to_jiffies_hz((tp->srtt_us >> 3) + (uint64_t)tp->rttvar_us, tp->hz);
    tp->icsk_rto = rto < tcp_rto_max(tp) ? rto : tcp_rto_max(tp);
}

/* tcp_ack_update_rtt (T.C.1): ACK-timing samples first, TSecr as a fallback. Returns the
 * congestion-control RTT of the last (s)acked skb (-1 = none) through ca_rtt. */
static bool tcp_ack_update_rtt(TcpSock *tp, int flag, int64_t seq_rtt_us, int64_t sack_rtt_us,
                               int64_t *ca_rtt_us)
{
    if (seq_rtt_us < 0)
        seq_rtt_us = sack_rtt_us;
    if (seq_rtt_us < 0 && tp->saw_tstamp && tp->rcv_tsecr && (flag & FLAG_ACKED)) {
        uint32_t delta = tcp_time_stamp_ts(tp) - tp->rcv_tsecr; /* tcp_rtt_tsopt_us */
        uint32_t tick = tcp_ts_tick_us(tp);
        if (delta < INT32_MAX / tick) {
            if (!delta && tick > 1)
                delta = 1; /* a ms clock: at least one tick; a us one is taken as it is */
            seq_rtt_us = (int64_t)delta * tick;
            *ca_rtt_us = seq_rtt_us;
        }
    }
    if (seq_rtt_us < 0)
        return false;
    /* windowed min RTT (300 s window: runs are shorter, so a running min) */
    if (*ca_rtt_us >= 0 && !((flag & FLAG_ACK_MAYBE_DELAYED) && tp->min_rtt_us &&
                             *ca_rtt_us > tp->min_rtt_us)) {
        uint32_t s = *ca_rtt_us ? (uint32_t)*ca_rtt_us : 1;
        if (!tp->min_rtt_us || s < tp->min_rtt_us)
            tp->min_rtt_us = s;
    }
    tcp_rtt_estimator(tp, (uint32_t)seq_rtt_us);
    tcp_set_rto(tp);
    tp->icsk_backoff = 0; /* RFC 6298 5.7 */
    return true;
}

/* ---- cleaning the retransmit queue ---- */

/* tcp_tso_acked: trim the acked head of a partially acked TSO skb; returns segments acked. */
static uint32_t tcp_tso_acked(TcpSock *tp, Skb *skb)
{
    uint32_t before = tcp_skb_pcount(skb);
    uint32_t mss = skb->gso_size ? skb->gso_size : tp->mss_cache;
    uint32_t trim = (uint32_t)(tp->snd_una - skb->seq);
    uint32_t head = SKB_HEAD_SIZE + SKB_SHINFO_SIZE;
    uint32_t freed = skb->truesize - trim >= head ? trim : 0;
    skb->seq += trim;
    skb->len -= trim;
    skb->truesize -= freed;
    tp->sk.wmem_queued -= freed;
    if (freed) /* tcp_trim_head marks the queue shrunk (<= 5.9 gates tcp_check_space on it) */
        tp->queue_shrunk = true;
    tp->rtx_queue.bytes -= trim;
    skb->gso_segs = (uint16_t)((skb->len + mss - 1) / mss);
    return before - tcp_skb_pcount(skb);
}

static void tcp_rtx_queue_free_head(TcpSock *tp, Skb *skb, Cpu *cpu)
{
    tcp_skb_unlink(&tp->rtx_queue, skb);
    tp->sk.wmem_queued -= skb->truesize;
    tp->queue_shrunk = true;
    skb_free(tcp_host(tp)->pool, skb);
    tcp_charge(tp, cpu, COST_TCP_CLEAN_RTX_SKB);
}

/* tcp_skb_spurious_retrans: a retransmitted skb whose ACK echoes a TSval from before its
 * last transmission was acked by the original, whatever the undo state (a loss probe in Open
 * sets no undo_marker; the kernel's test has no such term in any version). */
static bool tcp_skb_spurious_retrans(const TcpSock *tp, const Skb *skb)
{
    uint32_t skb_ts = tcp_ts_at(tp, skb->tx_time);
    return (skb->sacked & TCPCB_RETRANS) && tp->saw_tstamp && tp->rcv_tsecr &&
           (int32_t)(tp->rcv_tsecr - skb_ts) < 0;
}

/* Account one acked (part of an) skb; returns its flags. */
static int tcp_clean_account(TcpSock *tp, Skb *skb, uint32_t acked_pcount, TcpAckState *st)
{
    uint8_t sacked = skb->sacked;
    int flag = FLAG_DATA_ACKED;
    if (sacked & TCPCB_RETRANS) {
        if (sacked & TCPCB_SACKED_RETRANS)
            tp->retrans_out -= acked_pcount;
        flag |= FLAG_RETRANS_DATA_ACKED;
    } else if (!(sacked & TCPCB_SACKED_ACKED)) {
        st->last_ackt = skb->tx_time;
        if (!st->have_ackt)
            st->first_ackt = skb->tx_time;
        st->have_ackt = true;
        if (skb->end_seq <= tp->high_seq)
            flag |= FLAG_ORIG_SACK_ACKED;
    }
    if (sacked & TCPCB_SACKED_ACKED) {
        tp->sacked_out -= acked_pcount;
    } else if (tcp_is_sack(tp)) { /* without SACK, tcp_remove_reno_sacks counts delivery */
        tp->delivered += acked_pcount;
        if (!tcp_skb_spurious_retrans(tp, skb))
            tcp_rack_advance(tp, sacked, skb->end_seq, skb->tx_time);
    }
    if (sacked & TCPCB_LOST)
        tp->lost_out -= acked_pcount;
    tp->packets_out -= acked_pcount;
    st->pkts_acked += acked_pcount;
    return flag;
}

/* tcp_clean_rtx_queue: free what snd_una covers, take the RTT sample, feed the CC module. */
static int tcp_clean_rtx_queue(TcpSock *tp, TcpAckState *st, Cpu *cpu)
{
    int flag = 0;
    Skb *skb;
    while ((skb = tp->rtx_queue.head)) {
        uint32_t acked_pcount = tcp_skb_pcount(skb);
        bool fully_acked = skb->end_seq <= tp->snd_una;
        if (!fully_acked) {
            if (tcp_skb_pcount(skb) == 1 || tp->snd_una <= skb->seq)
                break;
            acked_pcount = tcp_tso_acked(tp, skb);
            if (!acked_pcount)
                break;
        }
        flag |= tcp_clean_account(tp, skb, acked_pcount, st);
        if (!fully_acked)
            break;
        tcp_rtx_queue_free_head(tp, skb, cpu);
    }
    if (!tcp_is_sack(tp) && st->pkts_acked) {
        tcp_remove_reno_sacks(tp, st->pkts_acked);
        /* without SACK marks, progress past a retransmission cannot be credited to an
         * original transmission (no F-RTO "spurious" verdict from it) */
        if (flag & FLAG_RETRANS_DATA_ACKED)
            flag &= ~FLAG_ORIG_SACK_ACKED;
    }
    int64_t seq_rtt = -1, ca_rtt = -1, sack_rtt = -1;
    if (st->have_ackt && !(flag & FLAG_RETRANS_DATA_ACKED)) {
        seq_rtt = tcp_stamp_us_delta(tp->tcp_mstamp, st->first_ackt);
        ca_rtt = tcp_stamp_us_delta(tp->tcp_mstamp, st->last_ackt);
    }
    if (st->have_sackt) {
        sack_rtt = tcp_stamp_us_delta(tp->tcp_mstamp, st->first_sackt);
        ca_rtt = tcp_stamp_us_delta(tp->tcp_mstamp, st->last_sackt);
    }
    bool rtt_update = tcp_ack_update_rtt(tp, flag, seq_rtt, sack_rtt, &ca_rtt);
    if (flag & FLAG_ACKED)
        flag |= FLAG_SET_XMIT_TIMER;
    else if (tp->rtx_queue.head && rtt_update && sack_rtt >= 0 &&
             sack_rtt > tcp_stamp_us_delta(tp->tcp_mstamp, tp->rtx_queue.head->tx_time))
        flag |= FLAG_SET_XMIT_TIMER; /* SACK RTT from data sent after the head's last send */
    if (tp->ca_ops->pkts_acked && (st->pkts_acked || ca_rtt >= 0))
        tp->ca_ops->pkts_acked(tp, st->pkts_acked, (int32_t)ca_rtt);
    return flag;
}

/* ---- window, cwnd, pacing, buffers ---- */

static void tcp_snd_una_update(TcpSock *tp, uint64_t ack)
{
    tp->bytes_acked += ack - tp->snd_una;
    tp->snd_una = ack;
}

static int tcp_ack_update_window(TcpSock *tp, const Skb *skb, uint64_t ack)
{
    int flag = 0;
    uint32_t nwin = skb->win;
    if (ack > tp->snd_una || skb->seq > tp->snd_wl1 || (skb->seq == tp->snd_wl1 && nwin > tp->snd_wnd)) {
        flag |= FLAG_WIN_UPDATE;
        tp->snd_wl1 = skb->seq;
        if (tp->snd_wnd != nwin) {
            tp->snd_wnd = nwin;
            if (tp->write_queue.head)
                tcp_slow_start_after_idle_check(tp);
            if (nwin > tp->max_window) {
                tp->max_window = nwin;
                tcp_sync_mss(tp); /* a larger window may lift the half-window bound */
            }
        }
    }
    tcp_snd_una_update(tp, ack);
    return flag;
}

/* tcp_update_pacing_rate (T.F.4): mss * max(cwnd, packets_out) / srtt, x2 in slow start
 * (cwnd < ssthresh/2), x1.2 otherwise. Without RTT the rate stays unlimited. */
void tcp_update_pacing_rate(TcpSock *tp)
{
    if (!tp->srtt_us)
        return;
    unsigned __int128 rate = (unsigned __int128)tp->mss_cache * 8u * 1000000u;
    rate *= tp->snd_cwnd < tp->snd_ssthresh / 2 ? TCP_PACING_SS_RATIO : TCP_PACING_CA_RATIO;
    rate *= tp->snd_cwnd > tp->packets_out ? tp->snd_cwnd : tp->packets_out;
    rate /= 100u * (uint64_t)tp->srtt_us; /* ratios are percent; srtt_us is 8 x SRTT, the 8 above */
    tp->pacing_rate = rate > UINT64_MAX ? UINT64_MAX : (uint64_t)rate;
}

static uint32_t roundup_pow_of_two(uint32_t x)
{
    uint32_t p = 1;
    while (p < x)
        p <<= 1;
    return p;
}

/* <= 3.18 (tcp.sndbuf_expand 3.x): SKB_TRUESIZE(mss_clamp + MAX_TCP_HEADER) per segment, the
 * peer's SYN MSS (the path's MTU less 40: the model's hosts agree on it). */
static uint64_t tcp_sndmem_3x(const TcpSock *tp)
{
    uint32_t mss_clamp = tp->advmss + (tp->ts_ok ? TCPOLEN_TSTAMP_ALIGNED : 0);
    uint32_t data = (mss_clamp + MAX_TCP_HEADER + 63u) & ~63u; /* SKB_DATA_ALIGN */
    return (uint64_t)data + SKB_HEAD_SIZE + SKB_SHINFO_SIZE;
}

static void tcp_sndbuf_raise(TcpSock *tp, uint64_t sndmem)
{
    if (sndmem > TCP_WMEM_MAX)
        sndmem = TCP_WMEM_MAX;
    if (tp->sk.sndbuf < sndmem)
        tp->sk.sndbuf = (uint32_t)sndmem;
}

/* The buffer a connection starts with: 3.x tcp_fixup_sndbuf (10 segments), else the first
 * tcp_sndbuf_expand (tcp_init_buffer_space). */
void tcp_init_sndbuf(TcpSock *tp)
{
    if (tcp_conf(tp)->sndbuf_expand != TCP_SNDBUF_EXPAND_3X) {
        tcp_sndbuf_expand(tp);
        return;
    }
    if (tcp_conf(tp)->sndbuf_autotune)
        tcp_sndbuf_raise(tp, TCP_INIT_CWND * tcp_sndmem_3x(tp));
}

/* tcp_sndbuf_expand (H.B.4): 2 x max(10, cwnd, reordering+1) x per-MSS truesize, <= 4 MiB;
 * <= 3.18 2 x max(cwnd, reordering+1) x SKB_TRUESIZE(mss + MAX_TCP_HEADER). */
void tcp_sndbuf_expand(TcpSock *tp)
{
    if (!tcp_conf(tp)->sndbuf_autotune) /* SO_SNDBUF: SOCK_SNDBUF_LOCK */
        return;
    if (tcp_conf(tp)->sndbuf_expand == TCP_SNDBUF_EXPAND_3X) {
        uint32_t demanded = tp->snd_cwnd > tp->reordering + 1 ? tp->snd_cwnd : tp->reordering + 1;
        tcp_sndbuf_raise(tp, 2u * (uint64_t)demanded * tcp_sndmem_3x(tp));
        return;
    }
    uint32_t mss = tp->advmss > tp->mss_cache ? tp->advmss : tp->mss_cache;
    uint64_t per_mss = roundup_pow_of_two(mss + MAX_TCP_HEADER + SKB_SHINFO_SIZE) + SKB_HEAD_SIZE;
    uint32_t nr_segs = TCP_INIT_CWND;
    if (tp->snd_cwnd > nr_segs)
        nr_segs = tp->snd_cwnd;
    if (tp->reordering + 1 > nr_segs)
        nr_segs = tp->reordering + 1;
    tcp_sndbuf_raise(tp, 2u * nr_segs * per_mss);
}

/* tcp_new_space: expand the buffer unless cwnd is full, then wake a writer once at least a third
 * of the queue's worth is free (sk_stream_write_space: wspace >= queued / 2). */
static void tcp_new_space(TcpSock *tp, Cpu *cpu)
{
    if (tcp_packets_in_flight(tp) < tp->snd_cwnd)
        tcp_sndbuf_expand(tp);
    uint64_t queued = tp->sk.wmem_queued;
    if (tp->sk.sndbuf <= queued || tp->sk.sndbuf - queued < queued / 2)
        return;
    tp->sock_nospace = false;
    if (tp->snd_waiter) {
        Task *t = tp->snd_waiter;
        tp->snd_waiter = NULL;
        task_wake(t, cpu);
    }
}

/* tcp_check_space (hosts.H.tcp.check_space): <= 5.9 only after an ACK that freed write memory;
 * since 5.10 whenever the writer waits. */
void tcp_check_space(TcpSock *tp, Cpu *cpu)
{
    if (tcp_conf(tp)->check_space == TCP_CHECK_SPACE_QUEUE_SHRUNK && !tp->queue_shrunk)
        return;
    tp->queue_shrunk = false;
    if (tp->sock_nospace)
        tcp_new_space(tp, cpu);
}

static void tcp_data_snd_check(TcpSock *tp, Cpu *cpu)
{
    tcp_push_pending_frames(tp, cpu);
    tcp_check_space(tp, cpu);
}

void tcp_wake_reader(TcpSock *tp, Cpu *cpu)
{
    if (!tp->rcv_waiter)
        return;
    Task *t = tp->rcv_waiter;
    tp->rcv_waiter = NULL;
    task_wake(t, cpu);
}

void tcp_data_ready(TcpSock *tp, Cpu *cpu)
{
    if (tp->rcv_nxt > tp->copied_seq)
        tcp_wake_reader(tp, cpu);
}

/* tcp_cong_control: PRR while reducing, else grow if the ACK delivered in-order data. */
static void tcp_cong_control(TcpSock *tp, uint64_t ack, uint32_t acked_sacked, int flag)
{
    if (tcp_in_cwnd_reduction(tp)) {
        tcp_cwnd_reduction(tp, acked_sacked, flag);
    } else if (flag & FLAG_DATA_ACKED) {
        tp->ca_ops->cong_avoid(tp, ack, acked_sacked); /* tcp_cong_avoid */
        tp->snd_cwnd_stamp = tcp_jiffies(tp);
    }
    tcp_update_pacing_rate(tp);
}

static void tcp_xmit_recovery(TcpSock *tp, int rexmit, Cpu *cpu)
{
    if (rexmit == REXMIT_NONE)
        return;
    if (rexmit == REXMIT_NEW) {
        __tcp_push_pending_frames(tp, tp->mss_cache, TCP_NAGLE_OFF, cpu);
        if (tp->snd_nxt > tp->high_seq)
            return;
        tp->frto = 0;
    }
    tcp_xmit_retransmit_queue(tp, cpu);
}

/* ---- tcp_ack ---- */

static bool tcp_ack_is_dubious(const TcpSock *tp, int flag)
{
    return !(flag & FLAG_NOT_DUP) || (flag & FLAG_CA_ALERT) || tp->ca_state != TCP_CA_Open;
}

/* An ACK below snd_una: only its SACK/DSACK blocks matter (undo, more sending). */
static int tcp_ack_old(TcpSock *tp, const Skb *skb, int flag, Cpu *cpu)
{
    if (!skb->nsacks)
        return 0;
    TcpAckState st = { .prior_snd_una = tp->snd_una };
    int rexmit = REXMIT_NONE;
    flag |= tcp_sacktag_write_queue(tp, skb, &st);
    tcp_fastretrans_alert(tp, tp->snd_una, 0, &flag, &rexmit, cpu);
    tcp_moderate_cwnd_after_ack(tp);
    tcp_xmit_recovery(tp, rexmit, cpu);
    return 0;
}

/* Header-predicted ACKs update snd_una directly (TCPHPAcks); others go the slow way. */
static int tcp_ack_window_and_sacks(TcpSock *tp, const Skb *skb, int flag, uint64_t ack,
                                    TcpAckState *st)
{
    if (!(flag & FLAG_SLOWPATH) && ack > st->prior_snd_una) {
        tp->snd_wl1 = skb->seq;
        tcp_snd_una_update(tp, ack);
        tcp_count(tp, CTR_TcpExtTCPHPAcks, 1);
        return flag | FLAG_WIN_UPDATE;
    }
    if (skb->len)
        flag |= FLAG_DATA;
    else
        tcp_count(tp, CTR_TcpExtTCPPureAcks, 1);
    flag |= tcp_ack_update_window(tp, skb, ack);
    if (skb->nsacks) {
        flag |= tcp_sacktag_write_queue(tp, skb, st);
    }
    return flag;
}

/* After cleaning: TLP outcome, loss state machine, timers, cwnd, recovery sends. */
static void tcp_ack_finish(TcpSock *tp, const Skb *skb, int flag, uint64_t ack, TcpAckState *st,
                           Cpu *cpu)
{
    int rexmit = REXMIT_NONE;
    if (tp->tlp_high_seq)
        tcp_process_tlp_ack(tp, ack, flag);
    if (tcp_ack_is_dubious(tp, flag)) {
        uint32_t num_dupack = 0;
        if (!(flag & (FLAG_SND_UNA_ADVANCED | FLAG_NOT_DUP | FLAG_DSACKING_ACK)))
            num_dupack = (flag & FLAG_DATA) ? 1u : (skb->gso_segs > 1 ? skb->gso_segs : 1u);
        tcp_fastretrans_alert(tp, st->prior_snd_una, num_dupack, &flag, &rexmit, cpu);
    }
    if (flag & FLAG_SET_XMIT_TIMER)
        tcp_set_xmit_timer(tp, cpu);
    if (tcp_is_sack(tp))
        tcp_rack_update_reo_wnd(tp, st->prior_delivered);
    tcp_cong_control(tp, ack, (uint32_t)(tp->delivered - st->prior_delivered), flag);
    tcp_moderate_cwnd_after_ack(tp);
    tcp_xmit_recovery(tp, rexmit, cpu);
}

/* tcp_ack_probe: with nothing in flight, an ACK that opens the window for the whole head skb
 * ends the zero-window probing (backoff cleared; tcp_data_snd_check then sends); else probe
 * again. */
static void tcp_ack_probe(TcpSock *tp, Cpu *cpu)
{
    const Skb *head = tp->write_queue.head;
    if (!head)
        return;
    if (head->end_seq <= tcp_wnd_end(tp)) {
        tp->icsk_backoff = 0;
        tp->icsk_probes_out = 0;
        if (tp->icsk_pending == ICSK_TIME_PROBE0)
            inet_csk_clear_xmit_timer(tp, ICSK_TIME_PROBE0);
    } else {
        inet_csk_reset_xmit_timer(tp, ICSK_TIME_PROBE0, tcp_probe0_when(tp), tcp_rto_max(tp), cpu);
    }
}

/* tcp_ack: returns <0 for an ACK of unsent data, 0 for an old ACK, 1 otherwise. */
int tcp_ack(TcpSock *tp, const Skb *skb, int flag, Cpu *cpu)
{
    uint64_t ack = skb->ack_seq;
    if (ack < tp->snd_una)
        return tcp_ack_old(tp, skb, flag, cpu);
    if (ack > tp->snd_nxt)
        return -1;
    TcpAckState st = { .prior_snd_una = tp->snd_una, .prior_delivered = tp->delivered };
    tp->prior_in_flight = tcp_packets_in_flight(tp);
    if (ack > st.prior_snd_una) {
        flag |= FLAG_SND_UNA_ADVANCED;
        tp->icsk_retransmits = 0;
    }
    if (flag & FLAG_UPDATE_TS_RECENT)
        tcp_store_ts_recent_if(tp, skb->seq);
    flag = tcp_ack_window_and_sacks(tp, skb, flag, ack, &st);
    if (!tp->packets_out) {
        if (flag & FLAG_DSACKING_ACK) {
            int rexmit = REXMIT_NONE;
            tcp_fastretrans_alert(tp, st.prior_snd_una, 0, &flag, &rexmit, cpu);
            tcp_moderate_cwnd_after_ack(tp);
        }
        tcp_ack_probe(tp, cpu);
        if (tp->tlp_high_seq)
            tcp_process_tlp_ack(tp, ack, flag);
        return 1;
    }
    flag |= tcp_clean_rtx_queue(tp, &st, cpu);
    tcp_ack_finish(tp, skb, flag, ack, &st, cpu);
    return 1;
}

/* ---- tcp_rcv_established ---- */

/* Header prediction (pred_flags): only the timestamp option, ACK (+PSH) flags, an unchanged
 * window, the expected sequence, an ACK within what was sent, no PAWS doubt. */
static bool tcp_header_predicted(const TcpSock *tp, const Skb *skb)
{
    return tp->pred_ok && skb->nsacks == 0 && !(skb->flags & ~(TCPHDR_ACK | TCPHDR_PSH)) &&
           skb->win == tp->snd_wnd && skb->seq == tp->rcv_nxt && skb->ack_seq <= tp->snd_nxt &&
           (!tp->ts_ok || (int32_t)(skb->tsval - tp->ts_recent) >= 0);
}

static void tcp_rcv_fast_ack(TcpSock *tp, Skb *skb, Cpu *cpu)
{
    if (tp->rcv_nxt == tp->rcv_wup)
        tp->ts_recent = tp->rcv_tsval; /* tcp_store_ts_recent */
    tcp_ack(tp, skb, 0, cpu);
    skb_free(tcp_host(tp)->pool, skb);
    tcp_data_snd_check(tp, cpu);
}

/* tcp_copy_to_iovec (2.6.x-4.13, removed with the prequeue by e7942d0633c4): a predicted segment
 * processed by the reader itself - from its prequeue or its backlog, while it owns the socket
 * inside recvmsg with ucopy installed and everything before it already read - is copied
 * straight into the user buffer when it fits (len <= ucopy.len) instead of being queued
 * (TCPHPHitsToUser). copied_seq follows rcv_nxt and the receive queue stays empty, so the
 * window keeps its right edge and the 2-MSS rule of __tcp_ack_snd_check can fire: this is the
 * 2012 receiver's "one ACK every two MSS" (kernel-host-mechanics.md A.3 prequeue, D.3; seed 004).
 * Without it, any unread data shrinks __tcp_select_window() below rcv_wnd and only
 * tcp_cleanup_rbuf() ACKs, once per read. Returns true when the skb was eaten. */
static bool tcp_copy_to_ucopy(TcpSock *tp, const Skb *skb, Cpu *cpu)
{
    uint64_t room = tcp_ucopy_room(tp);
    if (!room || skb->len > room)
        return false;
    tcp_ucopy_copy(tp, skb->len, cpu);
    tp->rcv_nxt = skb->end_seq;
    return true;
}

static void tcp_rcv_fast_data(TcpSock *tp, Skb *skb, Cpu *cpu)
{
    if (tp->rcv_nxt == tp->rcv_wup)
        tp->ts_recent = tp->rcv_tsval;
    tcp_rcv_rtt_measure_ts(tp, skb);
    bool eaten = tcp_copy_to_ucopy(tp, skb, cpu);
    if (!eaten)
        tcp_queue_rcv(tp, skb);
    tcp_event_data_recv(tp, skb);
    if (skb->ack_seq != tp->snd_una) {
        tcp_ack(tp, skb, FLAG_DATA, cpu);
        tcp_data_snd_check(tp, cpu);
        if (!inet_csk_ack_scheduled(tp)) {
            tcp_data_ready(tp, cpu);
            if (eaten)
                skb_free(tcp_host(tp)->pool, skb);
            return;
        }
    } else {
        tp->snd_wl1 = skb->seq; /* tcp_update_wl */
    }
    __tcp_ack_snd_check(tp, false, cpu);
    tcp_data_ready(tp, cpu);
    if (eaten)
        skb_free(tcp_host(tp)->pool, skb);
}

/* tcp_sequence: the segment overlaps the receive window. */
static bool tcp_sequence(const TcpSock *tp, const Skb *skb)
{
    return skb->end_seq >= tp->rcv_wup && skb->seq <= tp->rcv_nxt + tcp_receive_window(tp);
}

static void tcp_rcv_slow_path(TcpSock *tp, Skb *skb, Cpu *cpu)
{
    if (!tcp_sequence(tp, skb)) { /* tcp_validate_incoming */
        tcp_send_dupack(tp, skb, cpu);
        skb_free(tcp_host(tp)->pool, skb);
        return;
    }
    if ((skb->flags & TCPHDR_ACK) && tcp_ack(tp, skb, FLAG_SLOWPATH | FLAG_UPDATE_TS_RECENT, cpu) < 0) {
        skb_free(tcp_host(tp)->pool, skb);
        return;
    }
    tcp_rcv_rtt_measure_ts(tp, skb);
    tcp_data_queue(tp, skb, cpu);
    tcp_data_snd_check(tp, cpu);
    tcp_ack_snd_check(tp, cpu);
}

/* What tcp_rcv_established charges for skb, by row: COST_TCP_RCV_ACK for a pure ACK, else
 * COST_TCP_RCV_DATA once (*id) and COST_TCP_RCV_DATA_SEG per segment (*seg_ns). */
static void tcp_rcv_cost_rows(const TcpSock *tp, const Skb *skb, CostId *id, sim_time_t *seg_ns)
{
    uint32_t segs = skb->gso_segs ? skb->gso_segs : 1u;
    *id = skb->len ? COST_TCP_RCV_DATA : COST_TCP_RCV_ACK;
    *seg_ns = skb->len ? (sim_time_t)segs * host_cost(tcp_host(tp), COST_TCP_RCV_DATA_SEG) : 0;
}

sim_time_t tcp_rcv_cost(const TcpSock *tp, const Skb *skb)
{
    CostId id;
    sim_time_t seg_ns;
    tcp_rcv_cost_rows(tp, skb, &id, &seg_ns);
    return host_cost(tcp_host(tp), id) + seg_ns;
}

/* tcp_rcv_cost, booked to its rows in the CPU profile. */
static void tcp_charge_rcv(const TcpSock *tp, const Skb *skb, Cpu *cpu)
{
    CostId id;
    sim_time_t seg_ns;
    tcp_rcv_cost_rows(tp, skb, &id, &seg_ns);
    tcp_charge(tp, cpu, id);
    if (seg_ns)
        cpu_charge_op(cpu, COST_TCP_RCV_DATA_SEG, seg_ns);
}

void tcp_rcv_established(TcpSock *tp, Skb *skb, Cpu *cpu)
{
    tp->tcp_mstamp = sim_now(tcp_sim(tp));
    tcp_charge_rcv(tp, skb, cpu);
    tp->saw_tstamp = tp->ts_ok;
    if (tp->saw_tstamp) {
        tp->rcv_tsval = skb->tsval;
        tp->rcv_tsecr = skb->tsecr;
    }
    if (!tcp_header_predicted(tp, skb))
        tcp_rcv_slow_path(tp, skb, cpu);
    else if (skb->len == 0)
        tcp_rcv_fast_ack(tp, skb, cpu);
    else
        tcp_rcv_fast_data(tp, skb, cpu);
}
