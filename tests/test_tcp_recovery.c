/* test_tcp_recovery.c - loss recovery and undo (notes C.5-C.7, E.2, F.3): fast retransmit from
 * SACKs with RACK and PRR, a spurious RTO undone by timestamps (Eifel) with the DSACK that
 * follows, by DSACK alone (no timestamps), and by F-RTO (TCPSpuriousRTOs). HZ 1000, CUBIC,
 * tcp_frto = 2, TLP off where the RTO is the subject. */
#include "tcp_harness.h"

static TcpBench *bench(bool tlp, bool timestamps)
{
    TcpBench *tb = th_new();
    for (int i = 0; i < 2; i++) {
        tb->conf[i].tcp.tlp = tlp;
        tb->conf[i].tcp.timestamps = timestamps;
    }
    th_connect(tb, 1500);
    return tb;
}

/* 10 MSS at t = 0: cwnd 10 sends two TSO skbs of 5 (at most cwnd/2 per skb). The first is
 * lost, the second arrives at 10 ms; its SACK reaches the sender at 20 ms.
 * RACK: 5 SACKed >= dupthresh 3 and no reordering seen -> reo_wnd 0; the first skb was sent
 * before the SACKed one and 20 ms ago = rack.rtt -> lost now (5 segments). Recovery:
 * TCPSackRecovery 1, ssthresh = max(10 * 717 / 1024, 2) = 7 (CUBIC), PRR: in flight 10 - 5
 * sacked - 5 lost = 0, delta = 7 - 0, sndcnt = max(prr_delivered 5 - prr_out 0, 5) = 5 ->
 * cwnd 0 + 5 = 5; all 5 lost segments are resent: TCPFastRetrans 5 = TcpRetransSegs 5. */
static void test_fast_retransmit_from_sacks(void)
{
    TcpBench *tb = bench(true, true);
    uint32_t mss = tb->a->mss_cache;
    th_write(tb->a, 10 * mss);
    g_assert_cmpuint(th_pending(tb, 0), ==, 2);
    th_drop(tb, 0);
    th_run_to(tb, 10 * SIM_MS);
    th_deliver(tb, 0);
    th_run_to(tb, 20 * SIM_MS);
    Skb *sack = th_take(tb, 1);
    g_assert_cmpuint(sack->ack_seq, ==, 1);
    g_assert_cmpuint(sack->nsacks, ==, 1);
    th_deliver_skb(tb, 1, sack);
    g_assert_cmpuint(tb->a->ca_state, ==, TCP_CA_Recovery);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPSackRecovery), ==, 1);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPRenoRecovery), ==, 0);
    g_assert_cmpuint(tb->a->snd_ssthresh, ==, 7);
    g_assert_cmpuint(tb->a->snd_cwnd, ==, 5);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPFastRetrans), ==, 5);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpRetransSegs), ==, 5);
    g_assert_cmpuint(tb->a->sacked_out, ==, 5);
    g_assert_cmpuint(tb->a->lost_out, ==, 5);
    g_assert_cmpuint(tb->a->retrans_out, ==, 5);
    /* the retransmissions cover exactly the hole [1, 1 + 5 mss) */
    uint64_t next = 1;
    while (th_pending(tb, 0)) {
        Skb *r = th_take(tb, 0);
        g_assert_cmpuint(r->seq, ==, next);
        next = r->end_seq;
        th_deliver_skb(tb, 0, r);
    }
    g_assert_cmpuint(next, ==, 1 + 5 * (uint64_t)mss);
    /* the hole filled: the cumulative ACK ends recovery; no undo (the echoed TSval is the
     * retransmission's), so tcp_end_cwnd_reduction sets cwnd = ssthresh = 7 */
    th_run_to(tb, 30 * SIM_MS);
    while (th_deliver(tb, 1))
        ;
    g_assert_cmpuint(tb->a->snd_una, ==, 1 + 10 * (uint64_t)mss);
    g_assert_cmpuint(tb->a->ca_state, ==, TCP_CA_Open);
    g_assert_cmpuint(tb->a->snd_cwnd, ==, 7);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPFullUndo), ==, 0);
    th_free(tb);
}

/* One MSS at t = 0, its ACK held back; no RTT yet so the RTO is 1 s: at 1000 ms TCPTimeouts 1,
 * Loss: prior_cwnd 10, ssthresh 7, cwnd = 0 in flight + 1 = 1; the retransmission sets
 * retrans_stamp = TS clock then (1000 ms + 1) and undo_retrans = 1. Returns the held ACK. */
static Skb *spurious_rto_one_segment(TcpBench *tb)
{
    th_write(tb->a, tb->a->mss_cache);
    th_deliver(tb, 0);
    Skb *ack = th_take(tb, 1);
    g_assert_nonnull(ack);
    th_run_to(tb, 1000 * SIM_MS);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPTimeouts), ==, 1);
    g_assert_cmpuint(tb->a->ca_state, ==, TCP_CA_Loss);
    g_assert_cmpuint(tb->a->snd_cwnd, ==, 1);
    g_assert_cmpuint(tb->a->snd_ssthresh, ==, 7);
    g_assert_cmpint(tb->a->undo_retrans, ==, 1);
    th_run_to(tb, 1001 * SIM_MS);
    return ack;
}

/* Eifel: the held ACK echoes TSval 1 (sent at 0 ms), older than retrans_stamp 1001 ->
 * tcp_packet_delayed -> undo: TCPLossUndo 1, cwnd = max(1, prior 10) = 10, ssthresh back to
 * infinity, Open; not F-RTO, so TCPSpuriousRTOs 0. The retransmission then reaches the
 * receiver as a duplicate: DelayedACKLost, TCPDSACKOldSent, an immediate DSACK; at the sender
 * TCPDSACKRecv 1, TCPDSACKRecvSegs = ceil(1448 / 1448) = 1. */
static void test_eifel_undo_and_dsack(void)
{
    TcpBench *tb = bench(false, true);
    Skb *ack = spurious_rto_one_segment(tb);
    g_assert_cmpuint(tb->a->retrans_stamp, ==, 1001);
    g_assert_cmpuint(ack->tsecr, ==, 1);
    th_deliver_skb(tb, 1, ack);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPLossUndo), ==, 1);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPSpuriousRTOs), ==, 0);
    g_assert_cmpuint(tb->a->ca_state, ==, TCP_CA_Open);
    g_assert_cmpuint(tb->a->snd_cwnd, ==, 10);
    g_assert_cmpuint(tb->a->snd_ssthresh, ==, TCP_INFINITE_SSTHRESH);
    th_deliver(tb, 0); /* the RTO retransmission */
    g_assert_cmpuint(th_ctr(tb, 1, CTR_TcpExtDelayedACKLost), ==, 1);
    g_assert_cmpuint(th_ctr(tb, 1, CTR_TcpExtTCPDSACKOldSent), ==, 1);
    Skb *dsack = th_take(tb, 1);
    g_assert_true(dsack->dsack);
    g_assert_cmpuint(dsack->sack[0].start, ==, 1);
    g_assert_cmpuint(dsack->sack[0].end, ==, 1449);
    th_deliver_skb(tb, 1, dsack);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPDSACKRecv), ==, 1);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPDSACKRecvSegs), ==, 1);
    th_free(tb);
}

/* Without timestamps Eifel cannot tell: the ACK ends Loss without undo (cwnd stays small).
 * The DSACK for the retransmission then brings undo_retrans to 0 (tcp_check_dsack: the block
 * ends at or below snd_una and above undo_marker 1) -> tcp_try_undo_dsack: TCPDSACKUndo 1,
 * cwnd = max(cwnd, 10) = 10. */
static void test_dsack_undo(void)
{
    TcpBench *tb = bench(false, false);
    g_assert_cmpuint(tb->a->mss_cache, ==, 1460); /* no 12-byte timestamps option */
    Skb *ack = spurious_rto_one_segment(tb);
    th_deliver_skb(tb, 1, ack);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPLossUndo), ==, 0);
    g_assert_cmpuint(tb->a->ca_state, ==, TCP_CA_Open);
    g_assert_cmpuint(tb->a->snd_cwnd, <, 10);
    g_assert_cmpint(tb->a->undo_retrans, ==, 1);
    th_deliver(tb, 0);
    th_deliver(tb, 1);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPDSACKRecv), ==, 1);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPDSACKUndo), ==, 1);
    g_assert_cmpint(tb->a->undo_retrans, ==, 0);
    g_assert_cmpuint(tb->a->snd_cwnd, ==, 10);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPSpuriousRTOs), ==, 0);
    th_free(tb);
}

/* F-RTO: 12 MSS written at 0, cwnd 10 sends 2 skbs of 5; both arrive, both ACKs are held.
 * RTO at 1000 ms: everything is marked lost (RACK has no RTT: nothing is "recent"), cwnd 1,
 * frto = 1, the head MSS is resent (its skb split 1 + 4). The first held ACK (ack = 1 + 5 mss)
 * acknowledges the resent MSS and 4 never-retransmitted MSS sent before the RTO
 * (FLAG_ORIG_SACK_ACKED). Without timestamps tcp_try_undo_loss(false) fails (undo_retrans 1),
 * then F-RTO step 3.b undoes: TCPLossUndo 1 and TCPSpuriousRTOs 1, cwnd back to 10. With
 * timestamps the same ACK echoes TSval 1 < retrans_stamp 1001: Eifel undoes first and
 * TCPSpuriousRTOs stays 0. */
static void run_frto(bool timestamps, uint64_t *spurious, uint64_t *undo)
{
    TcpBench *tb = bench(false, timestamps);
    uint32_t mss = tb->a->mss_cache;
    th_write(tb->a, 12 * mss);
    g_assert_cmpuint(tb->a->packets_out, ==, 10);
    th_deliver(tb, 0);
    th_deliver(tb, 0);
    g_assert_cmpuint(th_pending(tb, 1), ==, 2);
    th_run_to(tb, 1000 * SIM_MS);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPTimeouts), ==, 1);
    g_assert_cmpuint(tb->a->lost_out, ==, 10);
    g_assert_cmpuint(tb->a->frto, ==, 1);
    g_assert_cmpuint(tb->a->rtx_queue.head->len, ==, mss);
    th_run_to(tb, 1001 * SIM_MS);
    th_deliver(tb, 1);
    g_assert_cmpuint(tb->a->snd_una, ==, 1 + 5 * (uint64_t)mss);
    g_assert_cmpuint(tb->a->ca_state, ==, TCP_CA_Open);
    g_assert_cmpuint(tb->a->snd_cwnd, >=, 10);
    g_assert_cmpuint(tb->a->lost_out, ==, 0);
    *spurious = th_ctr(tb, 0, CTR_TcpExtTCPSpuriousRTOs);
    *undo = th_ctr(tb, 0, CTR_TcpExtTCPLossUndo);
    th_free(tb);
}

static void test_frto_spurious_rto(void)
{
    uint64_t spurious, undo;
    run_frto(false, &spurious, &undo);
    g_assert_cmpuint(spurious, ==, 1);
    g_assert_cmpuint(undo, ==, 1);
    run_frto(true, &spurious, &undo);
    g_assert_cmpuint(spurious, ==, 0);
    g_assert_cmpuint(undo, ==, 1);
}

/* The REO-timer set-up both tests share: one skb gives a's RTT sample (rtt ms, so min_rtt =
 * rtt), then at send_at two 1-MSS skbs leave; the first is held back (returned, not yet
 * delivered), the second reaches b at arrive_at and its SACK reaches a at sack_at. */
static Skb *hold_first_of_two(TcpBench *tb, sim_time_t rtt, sim_time_t send_at,
                              sim_time_t arrive_at, sim_time_t sack_at)
{
    th_write(tb->a, 1448);
    th_deliver(tb, 0);
    th_run_to(tb, rtt * SIM_MS);
    th_deliver(tb, 1);
    g_assert_cmpuint(tb->a->min_rtt_us, ==, (uint64_t)rtt * 1000);
    th_run_to(tb, send_at * SIM_MS);
    th_write(tb->a, 1448);
    th_write(tb->a, 1448);
    Skb *first = th_take(tb, 0);
    th_run_to(tb, arrive_at * SIM_MS);
    th_deliver(tb, 0);
    th_run_to(tb, sack_at * SIM_MS);
    th_deliver(tb, 1);
    return first;
}

/* RACK's reordering window: after a 10 ms RTT sample (min_rtt 10 ms), two 1-MSS skbs leave at
 * 20 ms and the second arrives first; its SACK reaches the sender at 30 ms. Only 1 SACKed
 * (< dupthresh 3), no recovery: reo_wnd = min(min_rtt / 4 x 1 step, srtt) = 2500 us. The first
 * skb is not yet lost: RACK RTT 10000 + 2500 - elapsed 10000 = 2500 us remain -> the REO timer
 * is armed for usecs_to_jiffies(2500 + TCP_TIMEOUT_MIN_US) = 5 jiffies: 35 ms.
 *  - no original by then: the timeout marks it lost, Recovery, and it is resent at 35 ms;
 *  - the original arrives at 32 ms (reordering): the cumulative ACK ends it, nothing resent. */
static void run_reo(bool original_arrives, uint64_t *retrans, sim_time_t *retrans_at)
{
    TcpBench *tb = bench(true, true);
    Skb *first = hold_first_of_two(tb, 10, 20, 25, 30);
    g_assert_cmpuint(tb->a->icsk_pending, ==, ICSK_TIME_REO_TIMEOUT);
    g_assert_cmpuint(tb->a->icsk_timeout, ==, 35);
    g_assert_cmpuint(tb->a->lost_out, ==, 0);
    if (original_arrives) {
        th_run_to(tb, 32 * SIM_MS);
        th_deliver_skb(tb, 0, first);
        th_run_to(tb, 33 * SIM_MS);
        th_deliver(tb, 1);
    } else {
        skb_free(tb->host[0].pool, first);
    }
    *retrans_at = -1;
    for (sim_time_t ms = 31; ms <= 40; ms++) {
        th_run_to(tb, ms * SIM_MS);
        if (*retrans_at < 0 && th_ctr(tb, 0, CTR_TcpRetransSegs))
            *retrans_at = ms;
    }
    *retrans = th_ctr(tb, 0, CTR_TcpRetransSegs);
    if (!original_arrives) {
        g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPFastRetrans), ==, 1);
        g_assert_cmpuint(tb->a->ca_state, ==, TCP_CA_Recovery);
    }
    th_free(tb);
}

/* Recovery entered while nothing could be retransmitted yet (TSQ, pacing or cwnd held the fast
 * retransmit back: here Recovery is entered directly), then the ACK of the originals, which
 * were only late. tcp_init_undo left undo_retrans -1 and retrans_stamp is 0. 6.12+ (and the
 * 5.15/6.1/6.6 stable trees; "tcp: fix to allow timestamp undo if no retransmits were sent",
 * Oct 2024) and 3.x's tcp_packet_delayed take "nothing retransmitted" as delayed: the
 * reduction is undone (TCPFullUndo, cwnd back to 10). 4.x-6.11 (tcp.undo_without_rtx false)
 * needed an echoed TSval older than a retransmission, so the reduction stays (cwnd 7). */
static uint32_t cwnd_after_late_originals(bool undo_without_rtx, uint64_t *full_undo)
{
    TcpBench *tb = th_new();
    tb->conf[0].tcp.undo_without_rtx = undo_without_rtx;
    th_connect(tb, 1500);
    th_write(tb->a, 2 * 1448);
    g_assert_cmpuint(tb->a->retrans_stamp, ==, 0);
    tcp_enter_recovery(tb->a);
    g_assert_cmpint(tb->a->undo_retrans, ==, -1);
    g_assert_cmpuint(tb->a->snd_ssthresh, ==, 7);
    tb->a->snd_cwnd = tb->a->snd_ssthresh;
    th_run_to(tb, 5 * SIM_MS);
    while (th_deliver(tb, 0))
        ;
    th_run_to(tb, 10 * SIM_MS);
    while (th_deliver(tb, 1))
        ;
    g_assert_cmpuint(tb->a->packets_out, ==, 0);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpRetransSegs), ==, 0);
    *full_undo = th_ctr(tb, 0, CTR_TcpExtTCPFullUndo);
    uint32_t cwnd = tb->a->snd_cwnd;
    th_free(tb);
    return cwnd;
}

static void test_undo_without_retransmission(void)
{
    uint64_t undo;
    g_assert_cmpuint(cwnd_after_late_originals(true, &undo), ==, 10);
    g_assert_cmpuint(undo, ==, 1);
    g_assert_cmpuint(cwnd_after_late_originals(false, &undo), ==, 7);
    g_assert_cmpuint(undo, ==, 0);
}

/* A spurious loss probe must not move RACK's clock (tcp_skb_spurious_retrans, the same in every
 * kernel since RACK: a RETRANS skb whose ACK echoes a TSval from before its retransmission was
 * acked by its original). A 10 ms RTT sample, then two 1-MSS skbs at 20 ms, both held. With 2
 * packets out the PTO is 2 x srtt + TCP_TIMEOUT_MIN = 22 jiffies: at 42 ms the probe resends the
 * second skb (a probe in Open sets no undo_marker). Both originals reach b at 55 ms, and its
 * ACKs (one per segment while b is in quick-ACK mode; TSecr = the originals' TSval 21) reach a
 * at 60 ms. The probe's copy (TSval 43) is not what was acked, so RACK takes only the first
 * skb, sent at 20 ms - not the probe's 42 ms, which an 18 ms "RTT" >= min_rtt would let in. */
static void test_spurious_probe_keeps_rack(void)
{
    TcpBench *tb = bench(true, true);
    th_write(tb->a, 1448);
    th_deliver(tb, 0);
    th_run_to(tb, 10 * SIM_MS);
    th_deliver(tb, 1);
    g_assert_cmpuint(tb->a->min_rtt_us, ==, 10000);
    th_run_to(tb, 20 * SIM_MS);
    th_write(tb->a, 1448);
    th_write(tb->a, 1448);
    Skb *first = th_take(tb, 0), *second = th_take(tb, 0);
    th_run_to(tb, 50 * SIM_MS);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPLossProbes), ==, 1);
    g_assert_cmpuint(th_pending(tb, 0), ==, 1);
    g_assert_cmpuint(tb->a->undo_marker, ==, 0);
    th_drop(tb, 0); /* the probe's copy */
    th_run_to(tb, 55 * SIM_MS);
    th_deliver_skb(tb, 0, first);
    th_deliver_skb(tb, 0, second);
    th_run_to(tb, 60 * SIM_MS);
    g_assert_cmpuint(th_pending(tb, 1), ==, 2);
    while (th_deliver(tb, 1))
        ;
    g_assert_cmpuint(tb->a->packets_out, ==, 0);
    g_assert_cmpint(tb->a->rack.mstamp, ==, 20 * SIM_MS);
    th_free(tb);
}

static void test_rack_reo_timer(void)
{
    uint64_t retrans;
    sim_time_t at;
    run_reo(false, &retrans, &at);
    g_assert_cmpuint(retrans, ==, 1);
    g_assert_cmpint(at, ==, 35);
    run_reo(true, &retrans, &at);
    g_assert_cmpuint(retrans, ==, 0);
}

/* The REO timer's 2 ms floor is added before the conversion to jiffies, as the TLP's is
 * (tcp_rack_mark_lost: usecs_to_jiffies(timeout + TCP_TIMEOUT_MIN_US), 1c2709cfff1d "tcp: fix
 * excessive TLP and RACK timeouts from HZ rounding", 6.6), not as 2 jiffies after it. At HZ 250
 * (4 ms jiffies): a 20 ms RTT sample (min_rtt 20 ms), two 1-MSS skbs at 40 ms, the second's
 * SACK at 60 ms (RACK RTT 20 ms, one SACKed, no recovery: reo_wnd = min_rtt / 4 = 5000 us), so
 * the first has 20000 + 5000 - 20000 = 5000 us left: usecs_to_jiffies(7000) = 2 jiffies after
 * jiffy 15, i.e. jiffy 17 (68 ms). The pre-6.6 sum, usecs_to_jiffies(5000) + 2 = 4 jiffies,
 * would wait until jiffy 19 (76 ms). */
static void test_rack_reo_timer_hz250(void)
{
    TcpBench *tb = th_new();
    for (int i = 0; i < 2; i++)
        tb->conf[i].hz = 250;
    th_connect(tb, 1500);
    Skb *first = hold_first_of_two(tb, 20, 40, 44, 60);
    g_assert_cmpuint(tb->a->sacked_out, ==, 1);
    g_assert_cmpuint(tb->a->icsk_pending, ==, ICSK_TIME_REO_TIMEOUT);
    g_assert_cmpuint(tb->a->icsk_timeout, ==, 17);
    skb_free(tb->host[0].pool, first);
    th_run_to(tb, 69 * SIM_MS); /* the cascading wheel runs it at jiffy 17's tick */
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPFastRetrans), ==, 1);
    th_free(tb);
}

/* Without SACK (NewReno): five 1-MSS skbs at 0, the first lost, the other four reach the
 * receiver at 10 ms and each draws an immediate duplicate ACK (out-of-order data). The first
 * also carries the receiver's first scaled window (65536 > the 65535 of the handshake): a
 * window update (tcp_may_update_window), not a duplicate. The other three count as "sacked"
 * (tcp_add_reno_sack): after two, Disorder; the third makes sacked_out 3 = reordering -> the
 * head is marked lost, Recovery: ssthresh 10 * 717 / 1024 = 7; PRR: in flight 5 - (3 + 1) = 1,
 * sndcnt = max(1 - 0, 1) = 1 -> cwnd 2, and the head is resent (TCPFastRetrans 1). The resent
 * head fills the hole, and the cumulative ACK reaches high_seq exactly: Reno holds Recovery
 * until something above high_seq is ACKed (tcp_try_undo_recovery, RFC 2582). One more
 * segment's ACK ends it without undo (it echoes the retransmission's TSval) -> cwnd =
 * ssthresh 7. That is the 4.x-6.11 rule (tcp.undo_without_rtx false): the ACK that reached
 * high_seq also cleared retrans_stamp (tcp_is_non_sack_preventing_reopen: no retransmission
 * left), which 6.12+'s tcp_packet_delayed reads as "nothing retransmitted" and undoes. */
static void test_newreno_fast_retransmit(void)
{
    TcpBench *tb = th_new();
    for (int i = 0; i < 2; i++) {
        tb->conf[i].tcp.sack = false;
        tb->conf[i].tcp.undo_without_rtx = false;
    }
    th_connect(tb, 1500);
    for (int i = 0; i < 5; i++)
        th_write(tb->a, 1448);
    g_assert_cmpuint(th_pending(tb, 0), ==, 5);
    th_drop(tb, 0);
    th_run_to(tb, 10 * SIM_MS);
    while (th_deliver(tb, 0))
        ;
    g_assert_cmpuint(th_pending(tb, 1), ==, 4);
    th_run_to(tb, 20 * SIM_MS);
    for (int i = 0; i < 3; i++)
        th_deliver(tb, 1);
    g_assert_cmpuint(tb->a->sacked_out, ==, 2);
    g_assert_cmpuint(tb->a->ca_state, ==, TCP_CA_Disorder);
    th_deliver(tb, 1);
    g_assert_cmpuint(tb->a->ca_state, ==, TCP_CA_Recovery);
    g_assert_cmpuint(tb->a->snd_ssthresh, ==, 7);
    g_assert_cmpuint(tb->a->snd_cwnd, ==, 2);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPFastRetrans), ==, 1);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPSackRecovery), ==, 0);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPRenoRecovery), ==, 1);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpRetransSegs), ==, 1);
    g_assert_cmpuint(th_pending(tb, 0), ==, 1);
    Skb *rtx = th_take(tb, 0);
    g_assert_cmpuint(rtx->seq, ==, 1);
    th_deliver_skb(tb, 0, rtx);
    th_deliver(tb, 1);
    g_assert_cmpuint(tb->a->snd_una, ==, 1 + 5 * 1448);
    g_assert_cmpuint(tb->a->ca_state, ==, TCP_CA_Recovery);
    g_assert_cmpuint(tb->a->sacked_out, ==, 0);
    th_write(tb->a, 1448);
    g_assert_cmpuint(th_pending(tb, 0), ==, 1);
    th_deliver(tb, 0);
    th_run_to(tb, 100 * SIM_MS); /* the lone segment's delayed ACK */
    th_deliver(tb, 1);
    g_assert_cmpuint(tb->a->snd_una, ==, 1 + 6 * 1448);
    g_assert_cmpuint(tb->a->ca_state, ==, TCP_CA_Open);
    g_assert_cmpuint(tb->a->snd_cwnd, ==, 7);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPFullUndo), ==, 0);
    th_free(tb);
}

/* NewReno bench without TLP (the RTO is the subject): n 1-MSS writes at 0. */
static TcpBench *newreno_bench(int n)
{
    TcpBench *tb = th_new();
    for (int i = 0; i < 2; i++) {
        tb->conf[i].tcp.sack = false;
        tb->conf[i].tcp.tlp = false;
    }
    th_connect(tb, 1500);
    for (int i = 0; i < n; i++)
        th_write(tb->a, 1448);
    return tb;
}

/* Run until the first RTO has fired. */
static void run_to_rto(TcpBench *tb)
{
    sim_time_t t = 20 * SIM_MS;
    while (!th_ctr(tb, 0, CTR_TcpExtTCPTimeouts) && t < 2000 * SIM_MS)
        th_run_to(tb, t += SIM_MS);
    g_assert_cmpuint(tb->a->ca_state, ==, TCP_CA_Loss);
}

/* F-RTO without SACK (and without timestamps, so only F-RTO can tell): 12 MSS written, cwnd 10
 * sends two skbs of 5, both arrive, both ACKs are held; RTO, the head MSS is resent. The first
 * held ACK (1 + 5 mss) covers the retransmission (no F-RTO verdict without SACK marks) and
 * F-RTO sends the last 2 MSS as new data with high_seq = 1 + 10 mss. The second held ACK
 * covers exactly up to high_seq with never-retransmitted data: the RTO was spurious
 * (TCPSpuriousRTOs 1, cwnd back to 10), but a non-SACK sender stays in Loss while snd_una ==
 * high_seq (tcp_try_undo_loss -> tcp_is_non_sack_preventing_reopen, RFC 6582 3.2: duplicate
 * ACKs of the episode must not start another), and opens at the next ACK above it. */
static void test_newreno_frto_undo_holds_loss(void)
{
    TcpBench *tb = th_new();
    for (int i = 0; i < 2; i++) {
        tb->conf[i].tcp.sack = false;
        tb->conf[i].tcp.timestamps = false;
        tb->conf[i].tcp.tlp = false;
    }
    th_connect(tb, 1500);
    uint32_t mss = tb->a->mss_cache;
    th_write(tb->a, 12 * mss);
    g_assert_cmpuint(tb->a->packets_out, ==, 10);
    th_deliver(tb, 0);
    th_deliver(tb, 0);
    g_assert_cmpuint(th_pending(tb, 1), ==, 2);
    th_run_to(tb, 1000 * SIM_MS);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPTimeouts), ==, 1);
    g_assert_cmpuint(tb->a->frto, ==, 1);
    th_run_to(tb, 1001 * SIM_MS);
    th_deliver(tb, 1);
    g_assert_cmpuint(tb->a->snd_una, ==, 1 + 5 * (uint64_t)mss);
    g_assert_cmpuint(tb->a->ca_state, ==, TCP_CA_Loss);
    g_assert_cmpuint(tb->a->high_seq, ==, 1 + 10 * (uint64_t)mss);
    g_assert_cmpuint(tb->a->snd_nxt, ==, 1 + 12 * (uint64_t)mss);
    th_deliver(tb, 1);
    g_assert_cmpuint(tb->a->snd_una, ==, tb->a->high_seq);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPSpuriousRTOs), ==, 1);
    g_assert_cmpuint(tb->a->snd_cwnd, >=, 10);
    g_assert_cmpuint(tb->a->ca_state, ==, TCP_CA_Loss);
    /* the F-RTO data and the head's duplicate reach the receiver; the ACK above high_seq opens */
    th_pump(tb);
    g_assert_cmpuint(tb->a->snd_una, ==, 1 + 12 * (uint64_t)mss);
    g_assert_cmpuint(tb->a->ca_state, ==, TCP_CA_Open);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPSpuriousRTOs), ==, 1);
    th_free(tb);
}

/* An RTO forgets the NewReno duplicate-ACK count (tcp_timeout_mark_lost -> tcp_reset_reno_sack).
 * cwnd 10 sends ten of twelve writes; the first is lost and of the rest only the 2nd, 3rd and
 * 4th arrive: a window update, then two duplicate ACKs (sacked_out 2, Disorder, under
 * dupthresh), which let the last two writes out (in flight 10 - 2 = 8); those are lost too. The
 * RTO marks all twelve lost: in flight 12 - 0 - 12 + 0 = 0, cwnd = 1, and only the head is
 * resent. (A count kept beside twelve lost would take in flight below zero.) */
static void test_newreno_rto_forgets_dupacks(void)
{
    TcpBench *tb = newreno_bench(12);
    g_assert_cmpuint(th_pending(tb, 0), ==, 10);
    th_drop(tb, 0);
    th_run_to(tb, 10 * SIM_MS);
    for (int i = 0; i < 3; i++)
        th_deliver(tb, 0);
    while (th_pending(tb, 0))
        th_drop(tb, 0);
    th_run_to(tb, 20 * SIM_MS);
    while (th_deliver(tb, 1))
        ;
    g_assert_cmpuint(tb->a->sacked_out, ==, 2);
    g_assert_cmpuint(tb->a->ca_state, ==, TCP_CA_Disorder);
    g_assert_cmpuint(th_pending(tb, 0), ==, 2); /* the last two writes */
    while (th_pending(tb, 0))
        th_drop(tb, 0);
    run_to_rto(tb);
    g_assert_cmpuint(tb->a->sacked_out, ==, 0);
    g_assert_cmpuint(tb->a->lost_out, ==, 12);
    g_assert_cmpuint(tb->a->snd_cwnd, ==, 1);
    g_assert_cmpuint(th_pending(tb, 0), ==, 1);
    g_assert_cmpuint(tb->out[0].head->seq, ==, 1);
    /* The resent head fills the hole; the ACK covers it and the 2nd-4th, never resent. Without
     * SACK marks that cannot show the RTO was spurious (a retransmission was among the acked:
     * FLAG_ORIG_SACK_ACKED is cleared), so no F-RTO undo: still in Loss. */
    th_deliver(tb, 0);
    th_deliver(tb, 1);
    g_assert_cmpuint(tb->a->snd_una, ==, 1 + 4 * 1448);
    g_assert_cmpuint(tb->a->ca_state, ==, TCP_CA_Loss);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPLossUndo), ==, 0);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPSpuriousRTOs), ==, 0);
    th_free(tb);
}

/* In Loss, a NewReno duplicate ACK after F-RTO's new data counts as delivered (tcp_process_loss's
 * Reno block). Ten of twelve writes go and all ten are lost; the RTO resends the head (cwnd 1).
 * Its ACK advances snd_una by one segment and acknowledges nothing never resent, so F-RTO step
 * 2.b sends the two waiting writes (cwnd 2, the nine others lost). They arrive above the hole,
 * two duplicate ACKs, which lower in flight (sacked_out 2 = 11 out - 9 lost) and so clock out
 * the 2nd segment's retransmission at once; without the count in flight would stay at cwnd
 * until another RTO. */
static void test_newreno_loss_counts_dupacks(void)
{
    TcpBench *tb = newreno_bench(12);
    while (th_pending(tb, 0))
        th_drop(tb, 0);
    run_to_rto(tb);
    g_assert_cmpuint(tb->a->lost_out, ==, 10);
    th_deliver(tb, 0); /* the resent head */
    th_deliver(tb, 1);
    g_assert_cmpuint(tb->a->snd_una, ==, 1 + 1448);
    g_assert_cmpuint(tb->a->ca_state, ==, TCP_CA_Loss);
    g_assert_cmpuint(th_pending(tb, 0), ==, 2); /* F-RTO: the new data */
    g_assert_cmpuint(tb->out[0].head->seq, ==, 1 + 10 * 1448);
    uint64_t retrans = th_ctr(tb, 0, CTR_TcpRetransSegs);
    th_deliver(tb, 0);
    th_deliver(tb, 0);
    g_assert_cmpuint(th_pending(tb, 1), ==, 2);
    th_deliver(tb, 1);
    th_deliver(tb, 1);
    g_assert_cmpuint(tb->a->sacked_out, ==, 2);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpRetransSegs), >, retrans);
    g_assert_cmpuint(th_pending(tb, 0), >=, 1);
    g_assert_cmpuint(tb->out[0].head->seq, ==, 1 + 1448);
    th_free(tb);
}

/* NewReno counts each segment delivered once (tcp_remove_reno_sacks). As in
 * test_newreno_fast_retransmit: five segments, the first lost, three duplicate ACKs (each
 * delivered: 3), Recovery, the head resent. The ACK of all five delivers max(5 - 3, 1) = 2 more,
 * 5 in all. PRR on it: prr_delivered 1 + 2 = 3, prr_out 1, in flight 0, ssthresh 7:
 * sndcnt = min(7, max(3 - 1, 2) + 1) = 3 -> cwnd 3 (counting all five again would give 6). */
static void test_newreno_delivered_once(void)
{
    TcpBench *tb = th_new();
    for (int i = 0; i < 2; i++)
        tb->conf[i].tcp.sack = false;
    th_connect(tb, 1500);
    uint64_t d0 = tb->a->delivered;
    for (int i = 0; i < 5; i++)
        th_write(tb->a, 1448);
    th_drop(tb, 0);
    th_run_to(tb, 10 * SIM_MS);
    while (th_deliver(tb, 0))
        ;
    th_run_to(tb, 20 * SIM_MS);
    while (th_deliver(tb, 1))
        ;
    g_assert_cmpuint(tb->a->ca_state, ==, TCP_CA_Recovery);
    g_assert_cmpuint(tb->a->delivered - d0, ==, 3);
    th_deliver(tb, 0);
    th_deliver(tb, 1);
    g_assert_cmpuint(tb->a->snd_una, ==, 1 + 5 * 1448);
    g_assert_cmpuint(tb->a->delivered - d0, ==, 5);
    g_assert_cmpuint(tb->a->snd_cwnd, ==, 3);
    th_free(tb);
}

/* A cumulative ACK leaves at most packets_out - max(lost_out, 1) duplicate ACKs counted
 * (tcp_remove_reno_sacks ends in tcp_check_reno_reordering -> tcp_limit_reno_sacked): 15 counted
 * with 16 out, an ACK of 8 leaves 8 out and 15 - 7 = 8 counted, cut to 7 (one hole remains).
 * Without the cut sacked_out + lost_out passed packets_out (the left_out invariant, found by
 * feature-stress with SACK off and 5 % loss). */
static void test_newreno_remove_limits_dupacks(void)
{
    TcpBench *tb = th_new();
    for (int i = 0; i < 2; i++)
        tb->conf[i].tcp.sack = false;
    th_connect(tb, 1500);
    TcpSock *tp = tb->a;
    tp->packets_out = 8; /* after the ACK cleaned 8 of 16 */
    tp->sacked_out = 15;
    tp->lost_out = 0;
    tcp_remove_reno_sacks(tp, 8);
    g_assert_cmpuint(tp->sacked_out, ==, 7);
    tp->sacked_out = 15;
    tp->lost_out = 3;
    tcp_remove_reno_sacks(tp, 8);
    g_assert_cmpuint(tp->sacked_out, ==, 5);
    tp->packets_out = 0;
    tcp_remove_reno_sacks(tp, 8);
    g_assert_cmpuint(tp->sacked_out, ==, 0);
    tp->lost_out = 0;
    th_free(tb);
}

/* Reordering, then a loss, found on one ACK in Recovery (tcp_fastretrans_alert: after a DSACK
 * undo, a loss that is evident starts a new episode). No timestamps (no Eifel), no TLP. Ten
 * segments: 0 is delayed, 5 lost. 1-4 arrive; their SACKs make RACK mark 0 lost: Recovery, 0
 * resent. The original 0 then arrives (ACK up to 5), 6-9 arrive but their SACKs are lost, and the
 * resent 0 draws a DSACK with the SACK of 6-9. At the sender, the ACK of 5 and then the DSACK:
 * the only retransmission was needless, so the reduction is undone (TCPDSACKUndo), and the SACK
 * of 6-9 makes RACK mark 5 lost on the same ACK: a second Recovery, ssthresh cut again from the
 * restored cwnd, and 5 resent. */
static void test_dsack_undo_then_loss(void)
{
    TcpBench *tb = bench(false, false);
    uint32_t mss = tb->a->mss_cache;
    for (int i = 0; i < 10; i++)
        th_write(tb->a, mss);
    Skb *seg[10];
    for (int i = 0; i < 10; i++)
        seg[i] = th_take(tb, 0);
    skb_free(tb->host[0].pool, seg[5]);
    th_run_to(tb, 10 * SIM_MS);
    for (int i = 1; i <= 4; i++)
        th_deliver_skb(tb, 0, seg[i]);
    th_run_to(tb, 20 * SIM_MS);
    while (th_deliver(tb, 1))
        ;
    g_assert_cmpuint(tb->a->ca_state, ==, TCP_CA_Recovery);
    Skb *rtx0 = th_take(tb, 0);
    g_assert_cmpuint(rtx0->seq, ==, seg[0]->seq);
    th_run_to(tb, 25 * SIM_MS);
    th_deliver_skb(tb, 0, seg[0]);
    Skb *ack5 = th_take(tb, 1);
    for (int i = 6; i <= 9; i++)
        th_deliver_skb(tb, 0, seg[i]);
    while (th_pending(tb, 1))
        th_drop(tb, 1);
    th_deliver_skb(tb, 0, rtx0);
    Skb *dsack = th_take(tb, 1);
    g_assert_true(dsack->dsack);
    th_run_to(tb, 35 * SIM_MS);
    th_deliver_skb(tb, 1, ack5);
    uint64_t retrans = th_ctr(tb, 0, CTR_TcpRetransSegs);
    th_deliver_skb(tb, 1, dsack);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPDSACKUndo), ==, 1);
    g_assert_cmpuint(tb->a->ca_state, ==, TCP_CA_Recovery);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPSackRecovery), ==, 2);
    g_assert_cmpuint(tb->a->lost_out, ==, 1);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpRetransSegs), ==, retrans + 1);
    g_assert_cmpuint(tb->out[0].tail->seq, ==, 1 + 5 * (uint64_t)mss);
    th_free(tb);
}

/* An RTO whose retransmission cannot be queued (-EAGAIN: sk_wmem_alloc above min(1.25 x
 * wmem_queued, sndbuf), the TX completions behind) is not local congestion to
 * tcp_retransmit_timer, which acts only on a positive error: the RTO backs off as usual
 * (icsk_backoff 1, the timer at twice the RTO) instead of retrying in 500 ms. */
static void test_rto_eagain_backs_off(void)
{
    TcpBench *tb = bench(false, true);
    th_write(tb->a, 1448);
    th_drop(tb, 0);
    uint32_t rto = tb->a->icsk_rto;
    tcp_sk(tb->a)->wmem_alloc = 1u << 30;
    sim_time_t t = 0;
    while (!th_ctr(tb, 0, CTR_TcpExtTCPTimeouts) && t < 2000 * SIM_MS)
        th_run_to(tb, t += SIM_MS);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpRetransSegs), ==, 0);
    g_assert_cmpuint(tb->a->icsk_backoff, ==, 1);
    g_assert_cmpuint(tb->a->icsk_rto, ==, 2 * rto);
    g_assert_cmpuint(tb->a->icsk_timeout, ==, (uint64_t)(t / SIM_MS) + 2 * rto);
    th_free(tb);
}

/* Cwnd moderation (hosts.H.tcp.moderate_cwnd; tcp_moderate_cwnd and tcp_try_to_open of the
 * 3.2-3.4 tcp_input.c). 8 one-MSS skbs leave at t = 0 and cwnd is then raised to 30 (white box,
 * as after an undo restored a large cwnd). The first skb is lost, the second arrives at 10 ms and
 * its SACK reaches the sender at 20 ms: one segment SACKed is under dupthresh and RACK's
 * reordering window (min_rtt / 4) keeps the hole from being marked lost, so the sender goes to
 * Disorder. 3.x then cuts cwnd to in flight (8 - 1 sacked = 7) + tcp_max_burst (reordering 3) =
 * 10; today cwnd stays 30, and the SACK alone would let 23 more segments out at once. */
static void run_disorder_sack(bool moderate, uint32_t *cwnd, uint8_t *state)
{
    TcpBench *tb = th_new();
    for (int i = 0; i < 2; i++)
        tb->conf[i].tcp.moderate_cwnd = moderate;
    th_connect(tb, 1500);
    uint32_t mss = tb->a->mss_cache;
    for (int i = 0; i < 8; i++)
        th_write(tb->a, mss);
    g_assert_cmpuint(th_pending(tb, 0), ==, 8);
    tb->a->snd_cwnd = 30;
    th_drop(tb, 0);
    th_run_to(tb, 10 * SIM_MS);
    th_deliver(tb, 0);
    th_run_to(tb, 20 * SIM_MS);
    Skb *sack = th_take(tb, 1);
    g_assert_cmpuint(sack->nsacks, ==, 1);
    th_deliver_skb(tb, 1, sack);
    g_assert_cmpuint(tb->a->sacked_out, ==, 1);
    g_assert_cmpuint(tb->a->lost_out, ==, 0);
    g_assert_cmpuint(tcp_packets_in_flight(tb->a), ==, 7);
    *cwnd = tb->a->snd_cwnd;
    *state = tb->a->ca_state;
    th_free(tb);
}

static void test_moderate_cwnd_in_disorder(void)
{
    uint32_t cwnd;
    uint8_t state;
    run_disorder_sack(true, &cwnd, &state);
    g_assert_cmpuint(state, ==, TCP_CA_Disorder);
    g_assert_cmpuint(cwnd, ==, 7 + 3);
    run_disorder_sack(false, &cwnd, &state);
    g_assert_cmpuint(state, ==, TCP_CA_Disorder);
    g_assert_cmpuint(cwnd, ==, 30);
}

/* Loss detection by era (hosts.H.tcp.loss_detection), a bench without TLP or timestamps: n
 * one-MSS writes at t = 0, all of them taken from the wire into seg[] (cwnd 10 sends ten). */
static TcpBench *era_bench(TcpLossDetection mode, int n, Skb **seg)
{
    TcpBench *tb = th_new();
    for (int i = 0; i < 2; i++) {
        tb->conf[i].tcp.tlp = false;
        tb->conf[i].tcp.timestamps = false;
        tb->conf[i].tcp.loss_detection = mode;
    }
    th_connect(tb, 1500);
    for (int i = 0; i < n; i++)
        th_write(tb->a, tb->a->mss_cache);
    for (int i = 0; i < n && th_pending(tb, 0); i++)
        seg[i] = th_take(tb, 0);
    return tb;
}

/* FACK (3.4 tcp_time_to_recover, tcp_update_scoreboard). Ten segments, 0 and 2 lost; 1, 3, 4
 * and then 5 arrive at 10 ms and each draws an immediate SACK, delivered at 20 ms one by one.
 *  - SACK of 1: fackets_out 2 (the hole 0 and 1) <= reordering 3: Disorder. No RACK timer:
 *    only the RTO is pending.
 *  - SACK of 3: fackets_out 4 (0..3) > 3: Recovery (TCPSackRecovery 1); the first 4 - 3 = 1
 *    segment is lost: 0 alone (lost_out 1), resent (TCPFastRetrans 1). 2 is not marked.
 *  - SACK of 4: fackets_out 5, the first 2 segments: 0 (already) and 1 (SACKed): still 1 lost.
 *  - SACK of 5: fackets_out 6, the first 3: 2 is now lost and resent (TCPFastRetrans 2; PRR
 *    allows it: in flight 10 - 4 SACKed - 2 lost + 1 resent = 5 < ssthresh 7).
 * RACK (the default) on the same ACKs: 2 SACKed are under dupthresh, so 0 and 2 wait for the
 * reordering window (the REO timer is armed) and Recovery begins only with the third SACK, which
 * marks both 0 and 2 (reo_wnd 0: everything sent before the SACKed 4 has had its RACK RTT). */
static void run_fack_marking(TcpLossDetection mode, uint32_t state_after[4], uint32_t lost_after[4],
                             uint8_t *pending_after_first)
{
    Skb *seg[10];
    TcpBench *tb = era_bench(mode, 10, seg);
    skb_free(tb->host[0].pool, seg[0]);
    skb_free(tb->host[0].pool, seg[2]);
    th_run_to(tb, 10 * SIM_MS);
    const int arrive[4] = { 1, 3, 4, 5 };
    for (int i = 0; i < 4; i++)
        th_deliver_skb(tb, 0, seg[arrive[i]]);
    g_assert_cmpuint(th_pending(tb, 1), ==, 4);
    th_run_to(tb, 20 * SIM_MS);
    for (int i = 0; i < 4; i++) {
        th_deliver(tb, 1);
        state_after[i] = tb->a->ca_state;
        lost_after[i] = tb->a->lost_out;
        if (i == 0)
            *pending_after_first = tb->a->icsk_pending;
    }
    if (mode == TCP_LOSS_FACK) {
        g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPSackRecovery), ==, 1);
        g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPFastRetrans), ==, 2);
        g_assert_cmpuint(th_pending(tb, 0), ==, 2); /* the resent 0 and 2 */
        g_assert_cmpuint(tb->out[0].head->seq, ==, 1);
        g_assert_cmpuint(tb->out[0].tail->seq, ==, 1 + 2 * (uint64_t)tb->a->mss_cache);
    }
    for (int i = 6; i < 10; i++)
        skb_free(tb->host[0].pool, seg[i]);
    th_free(tb);
}

static void test_fack_marking(void)
{
    uint32_t state[4], lost[4];
    uint8_t pending;
    run_fack_marking(TCP_LOSS_FACK, state, lost, &pending);
    g_assert_cmpuint(state[0], ==, TCP_CA_Disorder);
    g_assert_cmpuint(pending, ==, ICSK_TIME_RETRANS);
    g_assert_cmpuint(state[1], ==, TCP_CA_Recovery);
    g_assert_cmpuint(lost[1], ==, 1);
    g_assert_cmpuint(lost[2], ==, 1);
    g_assert_cmpuint(lost[3], ==, 2);
    run_fack_marking(TCP_LOSS_RACK, state, lost, &pending);
    g_assert_cmpuint(pending, ==, ICSK_TIME_REO_TIMEOUT);
    g_assert_cmpuint(state[1], ==, TCP_CA_Disorder);
    g_assert_cmpuint(lost[1], ==, 0);
    g_assert_cmpuint(state[2], ==, TCP_CA_Recovery);
    g_assert_cmpuint(lost[2], ==, 2);
}

/* A retransmission lost again (3.4 tcp_mark_lost_retrans, FACK in Recovery). Ten segments;
 * 0 is lost, 1..9 arrive and their SACKs reach the sender at 20 ms. The SACK of 3 starts
 * Recovery and 0 is resent at once, while snd_nxt is 1 + 10 mss (kept in the skb's ack_seq).
 * Two more writes then go out as 10 and 11 (PRR: in flight 1, cwnd 7). The resent 0 is lost
 * too. 10 arrives: its SACKed skb starts at 1 + 10 mss, not above that snd_nxt, so FACK still
 * counts the retransmission in flight (retrans_out 1); 11 arrives, starting above it: the
 * retransmission is lost again and 0 goes a third time (TCPFastRetrans 2, retrans_out 1 again,
 * ack_seq now 1 + 12 mss). RACK marks it on the SACK of 10 already: 10 was sent after the
 * retransmission and has been delivered, and in Recovery the reordering window is 0. */
static void run_lost_retransmit(TcpLossDetection mode, uint32_t *retrans_after_10,
                                uint64_t *fast_retrans_after_10)
{
    Skb *seg[10];
    TcpBench *tb = era_bench(mode, 10, seg);
    uint64_t mss = tb->a->mss_cache;
    skb_free(tb->host[0].pool, seg[0]);
    th_run_to(tb, 10 * SIM_MS);
    for (int i = 1; i <= 9; i++)
        th_deliver_skb(tb, 0, seg[i]);
    th_run_to(tb, 20 * SIM_MS);
    while (th_deliver(tb, 1))
        ;
    g_assert_cmpuint(tb->a->ca_state, ==, TCP_CA_Recovery);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPFastRetrans), ==, 1);
    g_assert_cmpuint(tb->a->snd_cwnd, ==, 7);
    th_write(tb->a, mss);
    th_write(tb->a, mss);
    g_assert_cmpuint(th_pending(tb, 0), ==, 3); /* the resent 0, then the new 10 and 11 */
    Skb *rtx = th_take(tb, 0);
    g_assert_cmpuint(rtx->seq, ==, 1);
    skb_free(tb->host[0].pool, rtx);
    th_run_to(tb, 25 * SIM_MS);
    th_deliver(tb, 0); /* 10 */
    th_run_to(tb, 30 * SIM_MS);
    th_deliver(tb, 1);
    *retrans_after_10 = tb->a->retrans_out;
    *fast_retrans_after_10 = th_ctr(tb, 0, CTR_TcpExtTCPFastRetrans);
    if (mode == TCP_LOSS_FACK) {
        g_assert_cmpuint(tb->a->rtx_queue.head->ack_seq, ==, 1 + 10 * mss);
        th_run_to(tb, 31 * SIM_MS);
        th_deliver(tb, 0); /* 11 */
        th_run_to(tb, 36 * SIM_MS);
        th_deliver(tb, 1);
        g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPFastRetrans), ==, 2);
        g_assert_cmpuint(tb->a->retrans_out, ==, 1);
        g_assert_cmpuint(th_pending(tb, 0), ==, 1);
        g_assert_cmpuint(tb->out[0].head->seq, ==, 1);
        g_assert_cmpuint(tb->a->rtx_queue.head->ack_seq, ==, 1 + 12 * mss);
    }
    th_free(tb);
}

static void test_fack_lost_retransmit(void)
{
    uint32_t retrans;
    uint64_t fast;
    run_lost_retransmit(TCP_LOSS_FACK, &retrans, &fast);
    g_assert_cmpuint(retrans, ==, 1);
    g_assert_cmpuint(fast, ==, 1);
    run_lost_retransmit(TCP_LOSS_RACK, &retrans, &fast);
    g_assert_cmpuint(fast, ==, 2);
}

/* The RTO's marking by era. A 10 ms RTT sample first; at 20 ms one segment A is sent and lost,
 * arming the RTO; 5 ms before it fires a second segment B is sent and lost too. At the RTO,
 * FACK's tcp_enter_loss marks every un-SACKed segment lost: lost_out 2, cwnd = in flight 0 + 1.
 * RACK leaves B, sent 5 ms ago, within its 10 ms RACK RTT (tcp_timeout_mark_lost): lost_out 1,
 * cwnd = in flight 1 + 1 = 2. Both resend only A. */
static void run_rto_marking(TcpLossDetection mode, uint32_t *lost, uint32_t *cwnd)
{
    Skb *seg[1];
    TcpBench *tb = era_bench(mode, 1, seg);
    th_deliver_skb(tb, 0, seg[0]);
    th_run_to(tb, 10 * SIM_MS);
    th_deliver(tb, 1);
    g_assert_cmpuint(tb->a->rack.rtt_us, ==, 10000);
    th_run_to(tb, 20 * SIM_MS);
    th_write(tb->a, tb->a->mss_cache);
    th_drop(tb, 0);
    g_assert_cmpuint(tb->a->icsk_pending, ==, ICSK_TIME_RETRANS);
    uint64_t rto_at = tb->a->icsk_timeout; /* jiffies = ms at HZ 1000 */
    th_run_to(tb, (sim_time_t)(rto_at - 5) * SIM_MS);
    th_write(tb->a, tb->a->mss_cache);
    th_drop(tb, 0);
    th_run_to(tb, (sim_time_t)(rto_at + 1) * SIM_MS);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPTimeouts), ==, 1);
    g_assert_cmpuint(tb->a->packets_out, ==, 2);
    g_assert_cmpuint(th_pending(tb, 0), ==, 1);
    g_assert_cmpuint(tb->out[0].head->seq, ==, 1 + (uint64_t)tb->a->mss_cache);
    *lost = tb->a->lost_out;
    *cwnd = tb->a->snd_cwnd;
    th_free(tb);
}

static void test_fack_rto_marks_all(void)
{
    uint32_t lost, cwnd;
    run_rto_marking(TCP_LOSS_FACK, &lost, &cwnd);
    g_assert_cmpuint(lost, ==, 2);
    g_assert_cmpuint(cwnd, ==, 1);
    run_rto_marking(TCP_LOSS_RACK, &lost, &cwnd);
    g_assert_cmpuint(lost, ==, 1);
    g_assert_cmpuint(cwnd, ==, 2);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/tcp/recovery/fast-retransmit-sack", test_fast_retransmit_from_sacks);
    g_test_add_func("/tcp/recovery/eifel-undo-dsack", test_eifel_undo_and_dsack);
    g_test_add_func("/tcp/recovery/dsack-undo", test_dsack_undo);
    g_test_add_func("/tcp/recovery/dsack-undo-then-loss", test_dsack_undo_then_loss);
    g_test_add_func("/tcp/recovery/frto-spurious-rto", test_frto_spurious_rto);
    g_test_add_func("/tcp/recovery/spurious-probe-keeps-rack", test_spurious_probe_keeps_rack);
    g_test_add_func("/tcp/recovery/undo-without-retransmission", test_undo_without_retransmission);
    g_test_add_func("/tcp/recovery/rack-reo-timer", test_rack_reo_timer);
    g_test_add_func("/tcp/recovery/rack-reo-timer-hz250", test_rack_reo_timer_hz250);
    g_test_add_func("/tcp/recovery/newreno-fast-retransmit", test_newreno_fast_retransmit);
    g_test_add_func("/tcp/recovery/newreno-rto-forgets-dupacks", test_newreno_rto_forgets_dupacks);
    g_test_add_func("/tcp/recovery/newreno-frto-undo-holds-loss", test_newreno_frto_undo_holds_loss);
    g_test_add_func("/tcp/recovery/newreno-loss-counts-dupacks", test_newreno_loss_counts_dupacks);
    g_test_add_func("/tcp/recovery/newreno-delivered-once", test_newreno_delivered_once);
    g_test_add_func("/tcp/recovery/newreno-remove-limits-dupacks", test_newreno_remove_limits_dupacks);
    g_test_add_func("/tcp/recovery/rto-eagain-backs-off", test_rto_eagain_backs_off);
    g_test_add_func("/tcp/recovery/moderate-cwnd-in-disorder", test_moderate_cwnd_in_disorder);
    g_test_add_func("/tcp/recovery/fack-marking", test_fack_marking);
    g_test_add_func("/tcp/recovery/fack-lost-retransmit", test_fack_lost_retransmit);
    g_test_add_func("/tcp/recovery/fack-rto-marks-all", test_fack_rto_marks_all);
    return g_test_run();
}
