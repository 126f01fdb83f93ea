/* tcp_loss.c - the loss-recovery state machine of net/ipv4/tcp_input.c.
 *
 * What it models: the congestion-avoidance states Open/Disorder/CWR/Recovery/Loss, entering
 * fast recovery on RACK-marked losses (or by 3.x FACK's rules, hosts.H.tcp.loss_detection) with
 * PRR (RFC 6937, T.F.3), the RTO's Loss state
 * (tcp_enter_loss, T.C.5) and its ACK processing with F-RTO (tcp_process_loss, tcp_frto = 2,
 * T.C.6), the undo paths - Eifel by timestamps (tcp_packet_delayed), DSACK (undo_retrans
 * reaching 0), F-RTO (TCPSpuriousRTOs) - and the TLP outcome (tcp_process_tlp_ack, T.D.3).
 * Why: seed 000's counters (TCPSpuriousRTOs, TCPLossProbeRecovery, TCPLossUndo) come from
 * exactly these decisions. Reno (non-SACK) peers count duplicate ACKs in sacked_out as Linux's
 * tcp_add_reno_sack does.
 */
#include "models/tcp_internal.h"

#include <inttypes.h>

#include "models/observe.h"

/* icsk_ca_state names, for the event log and the trace */
static const char *const ca_names[] = { "Open", "Disorder", "CWR", "Recovery", "Loss" };

void tcp_set_ca_state(TcpSock *tp, uint8_t state)
{
    if (state != tp->ca_state)
        SIM_EVENT(tcp_host(tp), LOG_TCP, NULL, &tp->sk, "ca_state",
                  "from=%s to=%s cwnd=%u ssthresh=%u snd_una=%" PRIu64, ca_names[tp->ca_state],
                  ca_names[state], tp->snd_cwnd, tp->snd_ssthresh, tp->snd_una);
    if (tp->ca_ops->set_state)
        tp->ca_ops->set_state(tp, state);
    tp->ca_state = state;
}

/* tcp_current_ssthresh: the ssthresh to restore on undo. */
uint32_t tcp_current_ssthresh(const TcpSock *tp)
{
    if (tcp_in_cwnd_reduction(tp))
        return tp->snd_ssthresh;
    uint32_t three_quarters = (tp->snd_cwnd >> 1) + (tp->snd_cwnd >> 2);
    return tp->snd_ssthresh > three_quarters ? tp->snd_ssthresh : three_quarters;
}

static bool tcp_any_retrans_done(const TcpSock *tp)
{
    return tp->retrans_out || (tp->rtx_queue.head && (tp->rtx_queue.head->sacked & TCPCB_EVER_RETRANS));
}

void tcp_try_keep_open(TcpSock *tp)
{
    uint8_t state = tcp_left_out(tp) || tcp_any_retrans_done(tp) ? TCP_CA_Disorder : TCP_CA_Open;
    if (tp->ca_state != state) {
        tcp_set_ca_state(tp, state);
        tp->high_seq = tp->snd_nxt;
    }
}

/* tcp_moderate_cwnd (2.6-4.x, hosts.H.tcp.moderate_cwnd): "preventing bursts due to too big
 * ACKs in dubious situations", cwnd = min(cwnd, in flight + tcp_max_burst), where
 * tcp_max_burst() is tp->reordering. The loss state machine only asks for it
 * (tp->cwnd_moderate); tcp_ack applies it after the ACK's cwnd growth, as 3.x did: its tcp_ack
 * ran tcp_cong_avoid before tcp_fastretrans_alert on a dubious ACK (tcp_may_raise_cwnd). */
static void tcp_ask_moderate_cwnd(TcpSock *tp)
{
    if (tcp_conf(tp)->moderate_cwnd)
        tp->cwnd_moderate = true;
}

void tcp_moderate_cwnd_after_ack(TcpSock *tp)
{
    if (!tp->cwnd_moderate)
        return;
    tp->cwnd_moderate = false;
    uint32_t cap = tcp_packets_in_flight(tp) + tp->reordering;
    if (tp->snd_cwnd > cap)
        tp->snd_cwnd = cap;
    tp->snd_cwnd_stamp = tcp_jiffies(tp);
}

/* tcp_try_to_open: Open or Disorder, unless in CWR; 3.x moderated cwnd when the result was not
 * Open (tcp.moderate_cwnd). */
static void tcp_try_to_open(TcpSock *tp)
{
    if (!tcp_any_retrans_done(tp))
        tp->retrans_stamp = 0;
    if (tp->ca_state != TCP_CA_CWR) {
        tcp_try_keep_open(tp);
        if (tp->ca_state != TCP_CA_Open)
            tcp_ask_moderate_cwnd(tp);
    }
}

void tcp_mark_skb_lost(TcpSock *tp, Skb *skb)
{
    uint8_t sacked = skb->sacked;
    if (sacked & TCPCB_SACKED_ACKED)
        return;
    if (sacked & TCPCB_LOST) {
        if (sacked & TCPCB_SACKED_RETRANS) { /* a retransmission lost again */
            skb->sacked &= (uint8_t)~TCPCB_SACKED_RETRANS;
            tp->retrans_out -= tcp_skb_pcount(skb);
        }
        return;
    }
    tp->lost_out += tcp_skb_pcount(skb);
    skb->sacked |= TCPCB_LOST;
}

static void tcp_init_undo(TcpSock *tp)
{
    tp->undo_marker = tp->snd_una;
    tp->undo_retrans = (int32_t)tp->retrans_out;
    if (tp->tlp_high_seq && tp->tlp_retrans)
        tp->undo_retrans++;
    if (!tp->undo_retrans)
        tp->undo_retrans = -1;
}

/* ---- PRR and CWR (T.F.3) ---- */

void tcp_init_cwnd_reduction(TcpSock *tp)
{
    tp->high_seq = tp->snd_nxt;
    tp->tlp_high_seq = 0;
    tp->snd_cwnd_cnt = 0;
    tp->prior_cwnd = tp->snd_cwnd;
    tp->prr_delivered = 0;
    tp->prr_out = 0;
    tp->snd_ssthresh = tp->ca_ops->ssthresh(tp);
}

/* tcp_cwnd_reduction: proportional rate reduction per ACK. */
void tcp_cwnd_reduction(TcpSock *tp, uint32_t newly_acked_sacked, int flag)
{
    if (!newly_acked_sacked || !tp->prior_cwnd)
        return;
    int64_t delta = (int64_t)tp->snd_ssthresh - tcp_packets_in_flight(tp);
    int64_t sndcnt;
    tp->prr_delivered += newly_acked_sacked;
    if (delta < 0) {
        uint64_t dividend = (uint64_t)tp->snd_ssthresh * tp->prr_delivered + tp->prior_cwnd - 1;
        sndcnt = (int64_t)(dividend / tp->prior_cwnd) - tp->prr_out;
    } else {
        sndcnt = (int64_t)tp->prr_delivered - tp->prr_out;
        if (sndcnt < newly_acked_sacked)
            sndcnt = newly_acked_sacked;
        if ((flag & FLAG_SND_UNA_ADVANCED) && !(flag & FLAG_LOST_RETRANS))
            sndcnt++;
        if (sndcnt > delta)
            sndcnt = delta;
    }
    if (sndcnt < (tp->prr_out ? 0 : 1))
        sndcnt = tp->prr_out ? 0 : 1; /* force a fast retransmit on entering recovery */
    tp->snd_cwnd = tcp_packets_in_flight(tp) + (uint32_t)sndcnt;
}

void tcp_end_cwnd_reduction(TcpSock *tp)
{
    if (tp->snd_ssthresh < TCP_INFINITE_SSTHRESH && (tp->ca_state == TCP_CA_CWR || tp->undo_marker)) {
        tp->snd_cwnd = tp->snd_ssthresh;
        tp->snd_cwnd_stamp = tcp_jiffies(tp);
    }
    tcp_ca_event(tp, CA_EVENT_COMPLETE_CWR);
}

/* tcp_enter_cwr (tcp_input.c, the same rule since 3.x): local congestion - a qdisc that refused
 * a segment (__tcp_transmit_skb) - reduces cwnd by PRR like a loss would, but only from Open or
 * Disorder; the reduction cannot be undone (no undo_marker, no prior_ssthresh to restore). */
void tcp_enter_cwr(TcpSock *tp)
{
    tp->prior_ssthresh = 0;
    if (tp->ca_state >= TCP_CA_CWR)
        return;
    tp->undo_marker = 0;
    tcp_init_cwnd_reduction(tp);
    tcp_set_ca_state(tp, TCP_CA_CWR);
}

void tcp_enter_recovery(TcpSock *tp)
{
    /* 6.12+ tcp_retrans_stamp_cleanup: the clock starts with this episode's fast retransmit */
    if (tcp_conf(tp)->undo_without_rtx && !tcp_any_retrans_done(tp))
        tp->retrans_stamp = 0;
    tcp_count(tp, tcp_is_sack(tp) ? CTR_TcpExtTCPSackRecovery : CTR_TcpExtTCPRenoRecovery, 1);
    tp->prior_ssthresh = 0;
    tcp_init_undo(tp);
    if (!tcp_in_cwnd_reduction(tp)) {
        tp->prior_ssthresh = tcp_current_ssthresh(tp);
        tcp_init_cwnd_reduction(tp);
    }
    tcp_set_ca_state(tp, TCP_CA_Recovery);
}

/* ---- RTO: the Loss state (T.C.5) ---- */

/* tcp_timeout_mark_lost: all outstanding data is lost, except (RACK, not FACK) skbs sent within
 * the last RACK RTT; sacked marks are dropped if the head itself is sacked (reneging). Without SACK
 * the duplicate-ACK count goes too (tcp_reset_reno_sack): every skb is now lost, and a count
 * kept beside them would take in flight below zero. */
static void tcp_timeout_mark_lost(TcpSock *tp)
{
    Skb *head = tp->rtx_queue.head;
    bool is_reneg = head && (head->sacked & TCPCB_SACKED_ACKED);
    if (is_reneg) {
        for (Skb *skb = head; skb; skb = skb->next)
            skb->sacked &= (uint8_t)~TCPCB_SACKED_ACKED;
        tp->sacked_out = 0;
    } else if (!tcp_is_sack(tp)) {
        tp->sacked_out = 0;
    }
    for (Skb *skb = head; skb; skb = skb->next) {
        if (!is_reneg && skb != head && tcp_is_sack(tp) && !tcp_is_fack(tp) &&
            tcp_rack_skb_timeout(tp, skb, 0) > 0)
            continue; /* not lost yet (RACK; FACK's tcp_enter_loss marks all) */
        tcp_mark_skb_lost(tp, skb);
    }
}

void tcp_enter_loss(TcpSock *tp)
{
    bool new_recovery = tp->ca_state < TCP_CA_Recovery;
    tcp_timeout_mark_lost(tp);
    if (tp->ca_state <= TCP_CA_Disorder || tp->high_seq <= tp->snd_una ||
        (tp->ca_state == TCP_CA_Loss && !tp->icsk_retransmits)) {
        tp->prior_ssthresh = tcp_current_ssthresh(tp);
        tp->prior_cwnd = tp->snd_cwnd;
        tp->snd_ssthresh = tp->ca_ops->ssthresh(tp);
        tcp_ca_event(tp, CA_EVENT_LOSS);
        tcp_init_undo(tp);
    }
    tp->snd_cwnd = tcp_packets_in_flight(tp) + 1;
    tp->snd_cwnd_cnt = 0;
    tp->snd_cwnd_stamp = tcp_jiffies(tp);
    tcp_set_ca_state(tp, TCP_CA_Loss);
    tp->high_seq = tp->snd_nxt;
    tp->tlp_high_seq = 0;
    /* F-RTO (RFC 5682 3.1 step 1 / 3.2 repeated timeouts) */
    tp->frto = tcp_conf(tp)->frto && (new_recovery || tp->icsk_retransmits) ? 1 : 0;
}

/* ---- undo (T.C.6, C.7) ---- */

/* tcp_packet_delayed (Eifel, RFC 3522): the ACK echoes a TSval older than our first
 * retransmission, so an original got through - or (tcp.undo_without_rtx: 6.12+, and 3.x) no
 * retransmission was even attempted, so whatever is acked is an original. */
static bool tcp_packet_delayed(const TcpSock *tp)
{
    if (!tp->retrans_stamp)
        return tcp_conf(tp)->undo_without_rtx;
    return tp->saw_tstamp && tp->rcv_tsecr && (int32_t)(tp->rcv_tsecr - tp->retrans_stamp) < 0;
}

static bool tcp_may_undo(const TcpSock *tp)
{
    return tp->undo_marker && (!tp->undo_retrans || tcp_packet_delayed(tp));
}

static void tcp_undo_cwnd_reduction(TcpSock *tp, bool unmark_loss)
{
    if (unmark_loss) {
        for (Skb *skb = tp->rtx_queue.head; skb; skb = skb->next)
            skb->sacked &= (uint8_t)~TCPCB_LOST;
        tp->lost_out = 0;
    }
    if (tp->prior_ssthresh) {
        tp->snd_cwnd = tp->ca_ops->undo_cwnd(tp);
        if (tp->prior_ssthresh > tp->snd_ssthresh)
            tp->snd_ssthresh = tp->prior_ssthresh;
    }
    tp->snd_cwnd_stamp = tcp_jiffies(tp);
    tp->undo_marker = 0;
    tp->rack.advanced = 1; /* re-examine losses */
    SIM_EVENT(tcp_host(tp), LOG_TCP, NULL, &tp->sk, "undo", "state=%s cwnd=%u ssthresh=%u",
              ca_names[tp->ca_state], tp->snd_cwnd, tp->snd_ssthresh);
}

/* tcp_is_non_sack_preventing_reopen: without SACK, Recovery or Loss is held until something
 * above high_seq is ACKed (RFC 2582/6582: no false fast retransmit from the duplicates of the
 * episode's own retransmissions), also after an undo. */
static bool tcp_is_non_sack_preventing_reopen(TcpSock *tp)
{
    if (tp->snd_una != tp->high_seq || tcp_is_sack(tp))
        return false;
    if (!tcp_any_retrans_done(tp))
        tp->retrans_stamp = 0;
    return true;
}

/* tcp_try_undo_loss: TCPLossUndo; TCPSpuriousRTOs only when F-RTO decided; a non-SACK sender
 * at high_seq stays in Loss (tcp_is_non_sack_preventing_reopen). */
static bool tcp_try_undo_loss(TcpSock *tp, bool frto_undo)
{
    if (!frto_undo && !tcp_may_undo(tp))
        return false;
    tcp_undo_cwnd_reduction(tp, true);
    tcp_count(tp, CTR_TcpExtTCPLossUndo, 1);
    if (frto_undo)
        tcp_count(tp, CTR_TcpExtTCPSpuriousRTOs, 1);
    tp->icsk_retransmits = 0;
    if (tcp_is_non_sack_preventing_reopen(tp))
        return true;
    if (frto_undo || tcp_is_sack(tp))
        tcp_set_ca_state(tp, TCP_CA_Open);
    return true;
}

/* tcp_try_undo_recovery: the episode is over; undo if it was needless. */
static bool tcp_try_undo_recovery(TcpSock *tp)
{
    if (tcp_may_undo(tp)) {
        tcp_undo_cwnd_reduction(tp, false);
        tcp_count(tp, tp->ca_state == TCP_CA_Loss ? CTR_TcpExtTCPLossUndo : CTR_TcpExtTCPFullUndo, 1);
    } else if (tp->rack.reo_wnd_persist) {
        tp->rack.reo_wnd_persist--;
    }
    if (tcp_is_non_sack_preventing_reopen(tp)) {
        tcp_ask_moderate_cwnd(tp); /* 3.x: "Hold old state until something *above* high_seq" */
        return true;
    }
    tcp_set_ca_state(tp, TCP_CA_Open);
    return false;
}

static bool tcp_try_undo_dsack(TcpSock *tp)
{
    if (!tp->undo_marker || tp->undo_retrans)
        return false;
    uint8_t persist = (uint8_t)(tp->rack.reo_wnd_persist + 1);
    tp->rack.reo_wnd_persist = persist < TCP_RACK_RECOVERY_THRESH ? persist : TCP_RACK_RECOVERY_THRESH;
    tcp_undo_cwnd_reduction(tp, false);
    tcp_count(tp, CTR_TcpExtTCPDSACKUndo, 1);
    return true;
}

static void tcp_add_reno_sack(TcpSock *tp, uint32_t num_dupack);

/* tcp_process_loss (RFC 5682, SACK-enhanced F-RTO). Without SACK, a duplicate ACK after F-RTO's
 * new data went out means that data arrived: counting it lowers in flight and clocks out the
 * next retransmission; an ACK that advances snd_una clears the count. */
static void tcp_process_loss(TcpSock *tp, int flag, uint32_t num_dupack, int *rexmit)
{
    bool recovered = tp->snd_una >= tp->high_seq;
    if ((flag & FLAG_SND_UNA_ADVANCED) && tcp_try_undo_loss(tp, false))
        return;
    if (tp->frto) {
        /* 3.b: never-retransmitted data was (s)acked: the RTO was spurious */
        if ((flag & FLAG_ORIG_SACK_ACKED) && tcp_try_undo_loss(tp, true))
            return;
        if (tp->snd_nxt > tp->high_seq) {
            if ((flag & FLAG_DATA_SACKED) || num_dupack)
                tp->frto = 0; /* 3.a: the loss was real */
        } else if ((flag & FLAG_SND_UNA_ADVANCED) && !recovered) {
            tp->high_seq = tp->snd_nxt;
            /* 2.b: send new data (after cwnd grows in tcp_ack), else conventional recovery */
            if (tp->write_queue.head && tcp_wnd_end(tp) > tp->snd_nxt) {
                *rexmit = REXMIT_NEW;
                return;
            }
            tp->frto = 0;
        }
    }
    if (recovered) {
        tcp_try_undo_recovery(tp);
        return;
    }
    if (!tcp_is_sack(tp)) {
        if (tp->snd_nxt > tp->high_seq && num_dupack)
            tcp_add_reno_sack(tp, num_dupack);
        else if (flag & FLAG_SND_UNA_ADVANCED)
            tp->sacked_out = 0;
    }
    *rexmit = REXMIT_LOST;
}

/* ---- Reno duplicate-ACK counting (no SACK) ---- */

/* tcp_limit_reno_sacked: duplicate ACKs can stand for no more than the segments out that are not
 * lost (at least one hole): sacked_out <= packets_out - max(lost_out, 1). */
static void tcp_limit_reno_sacked(TcpSock *tp)
{
    uint32_t holes = tp->lost_out > 1 ? tp->lost_out : 1;
    if (holes > tp->packets_out)
        holes = tp->packets_out;
    if (tp->sacked_out + holes > tp->packets_out)
        tp->sacked_out = tp->packets_out - holes;
}

/* tcp_add_reno_sack: each duplicate ACK stands for one segment delivered above the hole, up to
 * what can be (tcp_limit_reno_sacked); only what the count grew by is delivered. */
static void tcp_add_reno_sack(TcpSock *tp, uint32_t num_dupack)
{
    if (!num_dupack)
        return;
    uint32_t prior = tp->sacked_out;
    tp->sacked_out += num_dupack;
    tcp_limit_reno_sacked(tp);
    if (tp->sacked_out > prior)
        tp->delivered += tp->sacked_out - prior;
}

/* tcp_remove_reno_sacks: a cumulative ACK without SACK. One acked segment filled the hole, the
 * rest had each drawn a duplicate ACK already counted as delivered (tcp_add_reno_sack): only
 * max(acked - sacked_out, 1) are delivered now. What is left is limited again, as
 * tcp_check_reno_reordering does (the reordering it then records is not modelled). */
void tcp_remove_reno_sacks(TcpSock *tp, uint32_t acked)
{
    if (acked) {
        tp->delivered += acked > tp->sacked_out + 1 ? acked - tp->sacked_out : 1;
        if (acked - 1 >= tp->sacked_out)
            tp->sacked_out = 0;
        else
            tp->sacked_out -= acked - 1;
    }
    tcp_limit_reno_sacked(tp); /* tcp_check_reno_reordering */
}

/* tcp_newreno_mark_lost: without SACK the head is lost after dupthresh duplicate ACKs. */
static void tcp_newreno_mark_lost(TcpSock *tp, bool snd_una_advanced)
{
    Skb *skb = tp->rtx_queue.head;
    if (!skb || (skb->sacked & TCPCB_LOST))
        return;
    if (!((tp->ca_state < TCP_CA_Recovery && tp->sacked_out >= tp->reordering) ||
          (tp->ca_state == TCP_CA_Recovery && snd_una_advanced)))
        return;
    uint32_t mss = skb->gso_size ? skb->gso_size : tp->mss_cache;
    if (tcp_skb_pcount(skb) > 1 && skb->len > mss)
        tcp_fragment(tp, &tp->rtx_queue, skb, mss);
    tcp_mark_skb_lost(tp, skb);
}

/* ---- FACK (hosts.H.tcp.loss_detection: fack; 2.6-4.3 with tcp_fack = 1, read in 3.4) ---- */

/* tcp_skb_timedout: last sent (TCP_SKB_CB(skb)->when, jiffies) more than an RTO ago */
static bool tcp_skb_timedout(const TcpSock *tp, const Skb *skb)
{
    return tcp_jiffies(tp) - tcp_jiffies_at(tp, skb->tx_time) > tp->icsk_rto;
}

static bool tcp_head_timedout(const TcpSock *tp)
{
    return tp->packets_out && tp->rtx_queue.head && tcp_skb_timedout(tp, tp->rtx_queue.head);
}

/* tcp_mark_head_lost with FACK: every segment among the first `packets` counts, SACKed or not,
 * and the un-SACKed ones are marked lost; a TSO skb across the boundary is split at it. Up to
 * snd_nxt ("tcp: detect loss above high_seq in recovery", 974c12360dfe, 3.2; 2.6.30 stopped at
 * high_seq). A retransmission already marked stays as it is (tcp_skb_mark_lost). */
static void tcp_fack_mark_head_lost(TcpSock *tp, uint32_t packets)
{
    uint32_t cnt = 0;
    for (Skb *skb = tp->rtx_queue.head; skb && skb->end_seq <= tp->snd_nxt; skb = skb->next) {
        uint32_t oldcnt = cnt;
        cnt += tcp_skb_pcount(skb);
        if (cnt > packets) {
            if ((skb->sacked & TCPCB_SACKED_ACKED) || oldcnt >= packets)
                break;
            uint32_t mss = skb->gso_size ? skb->gso_size : tp->mss_cache;
            tcp_fragment(tp, &tp->rtx_queue, skb, (packets - oldcnt) * mss);
            cnt = packets;
        }
        if (!(skb->sacked & (TCPCB_LOST | TCPCB_SACKED_ACKED)))
            tcp_mark_skb_lost(tp, skb);
    }
}

/* tcp_update_scoreboard with FACK: the first max(fackets_out - reordering, 1) segments, then
 * (tcp_timeout_skbs) every skb from the head on that was last sent more than an RTO ago. */
static void tcp_fack_update_scoreboard(TcpSock *tp, uint32_t fackets)
{
    tcp_fack_mark_head_lost(tp, fackets > tp->reordering ? fackets - tp->reordering : 1);
    if (!tcp_head_timedout(tp))
        return;
    for (Skb *skb = tp->rtx_queue.head; skb && tcp_skb_timedout(tp, skb); skb = skb->next)
        if (!(skb->sacked & (TCPCB_LOST | TCPCB_SACKED_ACKED)))
            tcp_mark_skb_lost(tp, skb);
}

/* The FACK part of 3.4's tcp_fastretrans_alert. From Open, Disorder or CWR, Recovery begins
 * when tcp_time_to_recover says so: something is marked lost, fackets_out > reordering
 * (dupthresh, 3), or the head timed out (the small-window Trick#4 and thin-stream rules are not
 * modelled; early retransmit came in 3.5). The scoreboard is then updated if the ACK was a
 * duplicate, or SACKed new data with fackets_out > reordering (do_lost), or the head timed out.
 * In Recovery the same do_lost, except that an ACK advancing snd_una marks while fackets_out >
 * reordering (tcp_try_undo_partial's "failed"; the model has no partial undo). In Loss nothing:
 * the RTO marked every un-SACKed skb. True when it is time to recover. */
static bool tcp_fack_mark_lost(TcpSock *tp, int flag)
{
    if (tp->ca_state == TCP_CA_Loss)
        return false;
    uint32_t fackets = tcp_fackets_out(tp);
    bool beyond = fackets > tp->reordering;
    bool timedout = tcp_head_timedout(tp);
    bool do_lost = !(flag & (FLAG_SND_UNA_ADVANCED | FLAG_NOT_DUP)) || ((flag & FLAG_DATA_SACKED) && beyond);
    if (tp->ca_state == TCP_CA_Recovery) {
        if (flag & FLAG_SND_UNA_ADVANCED)
            do_lost = beyond;
    } else if (!tp->lost_out && !beyond && !timedout) {
        return false;
    }
    if (do_lost || timedout)
        tcp_fack_update_scoreboard(tp, fackets);
    return true;
}

/* tcp_identify_packet_loss: RACK or FACK with SACK, NewReno's rule without. True when it is time
 * to recover (tcp_time_to_recover): with RACK and NewReno, when something is marked lost. */
static bool tcp_identify_packet_loss(TcpSock *tp, int *ack_flag, Cpu *cpu)
{
    if (!tp->rtx_queue.head)
        return tp->lost_out != 0;
    if (!tcp_is_sack(tp)) {
        tcp_newreno_mark_lost(tp, *ack_flag & FLAG_SND_UNA_ADVANCED);
        return tp->lost_out != 0;
    }
    if (tcp_is_fack(tp))
        return tcp_fack_mark_lost(tp, *ack_flag);
    uint32_t prior_retrans = tp->retrans_out;
    if (tcp_rack_mark_lost(tp, cpu))
        *ack_flag &= ~FLAG_SET_XMIT_TIMER;
    if (prior_retrans > tp->retrans_out)
        *ack_flag |= FLAG_LOST_RETRANS;
    return tp->lost_out != 0;
}

/* ---- tcp_fastretrans_alert ---- */

/* Leaving CWR or Recovery once snd_una reached high_seq. True: processing ends here. */
static bool tcp_fastretrans_end_episode(TcpSock *tp)
{
    if (tp->ca_state == TCP_CA_CWR && tp->snd_una != tp->high_seq) {
        tcp_end_cwnd_reduction(tp);
        tcp_set_ca_state(tp, TCP_CA_Open);
    } else if (tp->ca_state == TCP_CA_Recovery) {
        if (!tcp_is_sack(tp))
            tp->sacked_out = 0;
        if (tcp_try_undo_recovery(tp))
            return true;
        tcp_end_cwnd_reduction(tp);
    }
    return false;
}

/* Open/Disorder (or Loss just undone): enter Recovery when RACK found losses (FACK: when
 * tcp_time_to_recover says so). */
static void tcp_fastretrans_open(TcpSock *tp, uint32_t num_dupack, int *ack_flag, int *rexmit, Cpu *cpu)
{
    if (!tcp_is_sack(tp)) {
        if (*ack_flag & FLAG_SND_UNA_ADVANCED)
            tp->sacked_out = 0;
        tcp_add_reno_sack(tp, num_dupack);
    }
    if (tp->ca_state <= TCP_CA_Disorder)
        tcp_try_undo_dsack(tp);
    if (!tcp_identify_packet_loss(tp, ack_flag, cpu)) {
        tcp_try_to_open(tp);
        return;
    }
    tcp_enter_recovery(tp);
    *rexmit = REXMIT_LOST;
}

void tcp_fastretrans_alert(TcpSock *tp, uint64_t prior_snd_una, uint32_t num_dupack, int *ack_flag,
                           int *rexmit, Cpu *cpu)
{
    int flag = *ack_flag;
    (void)prior_snd_una;
    if (!tp->packets_out && tp->sacked_out)
        tp->sacked_out = 0;
    if (tp->ca_state == TCP_CA_Open)
        tp->retrans_stamp = 0;
    else if (tp->snd_una >= tp->high_seq && tcp_fastretrans_end_episode(tp))
        return;
    switch (tp->ca_state) {
    case TCP_CA_Recovery:
        if (!(flag & FLAG_SND_UNA_ADVANCED) && !tcp_is_sack(tp))
            tcp_add_reno_sack(tp, num_dupack);
        if (tcp_try_undo_dsack(tp))
            tcp_try_to_open(tp);
        bool recover = tcp_identify_packet_loss(tp, ack_flag, cpu);
        if (tp->ca_state != TCP_CA_Recovery) {
            /* undone (reordering), but a loss is evident on this ACK too: a new episode */
            if (!recover)
                return;
            tcp_enter_recovery(tp);
        }
        *rexmit = REXMIT_LOST;
        return;
    case TCP_CA_Loss:
        tcp_process_loss(tp, flag, num_dupack, rexmit);
        /* 3.x: every ACK in Loss that undid nothing moderated cwnd before retransmitting */
        if (tp->ca_state == TCP_CA_Loss && *rexmit == REXMIT_LOST)
            tcp_ask_moderate_cwnd(tp);
        tcp_identify_packet_loss(tp, ack_flag, cpu);
        if (!(tp->ca_state == TCP_CA_Open || (*ack_flag & FLAG_LOST_RETRANS)))
            return;
        tcp_fastretrans_open(tp, num_dupack, ack_flag, rexmit, cpu);
        return;
    default:
        tcp_fastretrans_open(tp, num_dupack, ack_flag, rexmit, cpu);
        return;
    }
}

/* ---- TLP outcome (T.D.3) ---- */

void tcp_process_tlp_ack(TcpSock *tp, uint64_t ack, int flag)
{
    if (ack < tp->tlp_high_seq)
        return;
    if (!tp->tlp_retrans) {
        tp->tlp_high_seq = 0; /* a new-data probe was acknowledged */
    } else if (flag & FLAG_DSACK_TLP) {
        tp->tlp_high_seq = 0; /* original and probe both arrived: no loss */
    } else if (ack > tp->tlp_high_seq) {
        /* the probe repaired a loss: reduce cwnd at once (CWR entered and left) */
        tcp_init_cwnd_reduction(tp);
        tcp_set_ca_state(tp, TCP_CA_CWR);
        tcp_end_cwnd_reduction(tp);
        tcp_try_keep_open(tp);
        tcp_count(tp, CTR_TcpExtTCPLossProbeRecovery, 1);
    } else if (!(flag & (FLAG_SND_UNA_ADVANCED | FLAG_NOT_DUP | FLAG_DATA_SACKED))) {
        tp->tlp_high_seq = 0; /* pure dupACK: no loss */
    }
}
