/* test_tcp_timers.c - the sender's retransmit timer (notes C.2-C.4, D.1-D.2): the RTO from an
 * RTT sample and its exponential backoff, the tail-loss-probe timeout with several packets
 * and with one packet out, and what the probe sends (new data, or the last MSS again); and the
 * RTO as the clock of cwnd validation (RFC 2861, net.ipv4.tcp_slow_start_after_idle).
 * HZ = 1000 (a jiffy is 1 ms), MSS 1448, rto_min 200 ms. */
#include "tcp_harness.h"

static TcpBench *bench(bool tlp)
{
    TcpBench *tb = th_new();
    tb->conf[0].tcp.tlp = tlp;
    th_connect(tb, 1500);
    return tb;
}

/* One segment at t = 0, its ACK delivered at t = 10 ms: RTT sample m = 10000 us.
 * tcp_rtt_estimator, first sample: srtt_us = 8m = 80000, mdev_us = 2m = 20000,
 * rttvar_us = max(2m, rto_min) = 200000. RTO = usecs_to_jiffies(10000 + 200000) = 210. */
static void exchange_10ms(TcpBench *tb)
{
    th_write(tb->a, 1448);
    th_deliver(tb, 0);
    th_run_to(tb, 10 * SIM_MS);
    th_deliver(tb, 1);
    g_assert_cmpuint(tb->a->srtt_us, ==, 80000);
    g_assert_cmpuint(tb->a->mdev_us, ==, 20000);
    g_assert_cmpuint(tb->a->rttvar_us, ==, 200000);
    g_assert_cmpuint(tb->a->icsk_rto, ==, 210);
}

/* Then a segment sent at 20 ms is lost, and so are its retransmissions: the RTO fires at
 * 20 + 210 = 230 ms (TCPTimeouts 1, one MSS retransmitted, rto doubled to 420), again at
 * 230 + 420 = 650 ms (rto 840), then at 650 + 840 = 1490 ms. */
static void test_rto_and_backoff(void)
{
    TcpBench *tb = bench(false);
    exchange_10ms(tb);
    th_run_to(tb, 20 * SIM_MS);
    th_write(tb->a, 1448);
    th_drop(tb, 0);
    g_assert_cmpuint(tb->a->icsk_pending, ==, ICSK_TIME_RETRANS);
    g_assert_cmpuint(tb->a->icsk_timeout, ==, 230);
    th_run_to(tb, 230 * SIM_MS - 1);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPTimeouts), ==, 0);
    th_run_to(tb, 230 * SIM_MS);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPTimeouts), ==, 1);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpRetransSegs), ==, 1);
    g_assert_cmpuint(tb->a->icsk_rto, ==, 420);
    g_assert_cmpuint(tb->a->icsk_backoff, ==, 1);
    g_assert_cmpuint(tb->a->snd_cwnd, ==, 1); /* tcp_enter_loss: in flight (0) + 1 */
    g_assert_cmpuint(tb->a->ca_state, ==, TCP_CA_Loss);
    Skb *rtx = th_take(tb, 0);
    g_assert_cmpuint(rtx->seq, ==, 1449);
    g_assert_cmpuint(rtx->len, ==, 1448);
    skb_free(tb->host[0].pool, rtx);
    th_run_to(tb, 650 * SIM_MS);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPTimeouts), ==, 2);
    g_assert_cmpuint(tb->a->icsk_rto, ==, 840);
    th_drop(tb, 0);
    th_run_to(tb, 1490 * SIM_MS - 1);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPTimeouts), ==, 2);
    th_run_to(tb, 1490 * SIM_MS);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPTimeouts), ==, 3);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpRetransSegs), ==, 3);
    /* retransmissions are not TcpOutSegs: 2 original segments only */
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpOutSegs), ==, 2);
    th_drop(tb, 0);
    th_free(tb);
}

/* RTT history 1 ms then 400 ms (tcp_rtt_estimator by hand):
 *   sample 1: srtt_us = 8000, mdev_us = 2000, rttvar = max(2000, 200000) = 200000
 *   sample 2: err = 400000 - 1000 = 399000, srtt_us = 407000; mdev += 399000 - 2000/4 = 398500
 *             -> 400500 > mdev_max (200000) -> rttvar = 400500.
 * RTO = usecs_to_jiffies(407000/8 + 400500 = 50875 + 400500) = 452 jiffies.
 * PTO with one packet out: srtt_us/4 + rto_min = 101750 + 200000 = 301750 us -> 302 jiffies
 * (< RTO, so not clipped). With several out: 101750 + 2000 = 103750 us -> 104 jiffies. */
static void set_rtt_history(TcpBench *tb)
{
    tcp_rtt_estimator(tb->a, 1000);
    tcp_rtt_estimator(tb->a, 400000);
    tcp_set_rto(tb->a);
    g_assert_cmpuint(tb->a->srtt_us, ==, 407000);
    g_assert_cmpuint(tb->a->rttvar_us, ==, 400500);
    g_assert_cmpuint(tb->a->icsk_rto, ==, 452);
}

/* rto_min counts in whole jiffies (tcp_rto_min() is jiffies, and tcp_rto_min_us() is
 * jiffies_to_usecs() of it; a route's rto_min goes through msecs_to_jiffies(), which rounds up).
 * HZ 250 and rto_min 5 ms: 2 jiffies = 8 ms. One 1 ms sample: srtt_us 8000, mdev_us 2000,
 * rttvar_us = max(2000, 8000) = 8000, RTO = usecs_to_jiffies(1000 + 8000) = 3 jiffies (12 ms);
 * a floor of 5 ms would give usecs_to_jiffies(6000) = 2. */
static void test_rto_min_in_jiffies(void)
{
    TcpBench *tb = th_new();
    for (int i = 0; i < 2; i++) {
        tb->conf[i].hz = 250;
        tb->conf[i].tcp.rto_min_ns = 5 * SIM_MS;
    }
    th_connect(tb, 1500);
    tcp_rtt_estimator(tb->a, 1000);
    tcp_set_rto(tb->a);
    g_assert_cmpuint(tb->a->rttvar_us, ==, 8000);
    g_assert_cmpuint(tb->a->icsk_rto, ==, 3);
    th_free(tb);
}

static void test_pto_one_packet(void)
{
    TcpBench *tb = bench(true);
    set_rtt_history(tb);
    th_run_to(tb, 5 * SIM_MS);
    th_write(tb->a, 1448);
    g_assert_cmpuint(tb->a->packets_out, ==, 1);
    g_assert_cmpuint(tb->a->icsk_pending, ==, ICSK_TIME_LOSS_PROBE);
    g_assert_cmpuint(tb->a->icsk_timeout, ==, 5 + 302);
    th_free(tb);
}

static void test_pto_several_packets(void)
{
    TcpBench *tb = bench(true);
    set_rtt_history(tb);
    th_run_to(tb, 5 * SIM_MS);
    th_write(tb->a, 3 * 1448);
    g_assert_cmpuint(tb->a->packets_out, ==, 3);
    g_assert_cmpuint(tb->a->icsk_pending, ==, ICSK_TIME_LOSS_PROBE);
    g_assert_cmpuint(tb->a->icsk_timeout, ==, 5 + 104);
    th_free(tb);
}

/* An RTO that fires while the sender's owner holds the socket (due at 230 ms, owned from 225 to
 * 250 ms). 2.6-3.5 tcp_write_timer (stack.timer.owned 2.6): "Try again later" - the timer is
 * re-armed HZ/20 = 50 jiffies on, icsk_pending/icsk_timeout untouched, and the release does
 * nothing; at 280 ms the handler finds the RTO due and retransmits. 3.6+ (5.10): the work is
 * deferred and tcp_release_cb runs it at the release, 250 ms. */
static uint64_t rto_while_owned(TimerOwnedPolicy owned)
{
    TcpBench *tb = bench(false);
    tb->stack.timer_owned = owned;
    exchange_10ms(tb);
    th_run_to(tb, 20 * SIM_MS);
    th_write(tb->a, 1448);
    th_drop(tb, 0);
    th_run_to(tb, 225 * SIM_MS);
    Sock *sk = tcp_sk(tb->a);
    sk->owned = true;
    th_run_to(tb, 230 * SIM_MS);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPTimeouts), ==, 0);
    g_assert_cmpuint(tb->a->icsk_pending, ==, ICSK_TIME_RETRANS);
    g_assert_cmpuint(tb->a->icsk_timeout, ==, 230);
    bool deferred = tb->a->tsq_flags & TCPF_WRITE_TIMER_DEFERRED;
    g_assert_true(deferred == (owned != TIMER_OWNED_RETRY));
    if (owned == TIMER_OWNED_RETRY) {
        g_assert_true(ktimer_pending(&tb->a->rtx_timer));
        g_assert_cmpuint(tb->a->rtx_timer.expires, ==, 280);
    }
    th_run_to(tb, 250 * SIM_MS);
    sk->owned = false;
    sk->ops->release_cb(sk, NULL);
    uint64_t at_release = th_ctr(tb, 0, CTR_TcpExtTCPTimeouts);
    th_run_to(tb, 280 * SIM_MS - 1);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPTimeouts), ==, at_release);
    th_run_to(tb, 280 * SIM_MS);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPTimeouts), ==, 1);
    th_free(tb);
    return at_release;
}

static void test_rto_while_owned_era(void)
{
    g_assert_cmpuint(rto_while_owned(TIMER_OWNED_RELEASE_CB), ==, 1);
    g_assert_cmpuint(rto_while_owned(TIMER_OWNED_RELEASE_CB_BLOCKED), ==, 1);
    g_assert_cmpuint(rto_while_owned(TIMER_OWNED_RETRY), ==, 0);
}

/* With one packet out the PTO is clipped to the RTO when 2 srtt + rto_min is later:
 * srtt 10 ms, rttvar 200 ms: PTO 20 + 200 = 220 ms > RTO 210 ms -> armed for 210. */
static void test_pto_clipped_by_rto(void)
{
    TcpBench *tb = bench(true);
    exchange_10ms(tb);
    th_run_to(tb, 20 * SIM_MS);
    th_write(tb->a, 1448);
    g_assert_cmpuint(tb->a->icsk_pending, ==, ICSK_TIME_LOSS_PROBE);
    g_assert_cmpuint(tb->a->icsk_timeout, ==, 20 + 210);
    th_drop(tb, 0);
    th_free(tb);
}

/* No new data to send: the probe is the last MSS again. Three MSS sent as one TSO skb at
 * t = 20 ms (srtt 10 ms): PTO = 2 * 10 + 2 = 22 ms -> fires at 42 ms. The skb is split and
 * only [1449 + 2896, 1449 + 4344) is resent: TCPLossProbes 1, TcpRetransSegs 1,
 * tlp_high_seq = snd_nxt; the RTO is re-armed from now (42 + 210). */
static void test_tlp_last_segment(void)
{
    TcpBench *tb = bench(true);
    exchange_10ms(tb);
    th_run_to(tb, 20 * SIM_MS);
    th_write(tb->a, 3 * 1448);
    g_assert_cmpuint(tb->a->icsk_timeout, ==, 42);
    th_drop(tb, 0);
    th_run_to(tb, 42 * SIM_MS);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPLossProbes), ==, 1);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpRetransSegs), ==, 1);
    Skb *probe = th_take(tb, 0);
    g_assert_nonnull(probe);
    g_assert_cmpuint(probe->seq, ==, 1449 + 2 * 1448);
    g_assert_cmpuint(probe->len, ==, 1448);
    skb_free(tb->host[0].pool, probe);
    g_assert_cmpuint(tb->a->tlp_high_seq, ==, tb->a->snd_nxt);
    g_assert_true(tb->a->tlp_retrans);
    g_assert_cmpuint(tb->a->icsk_pending, ==, ICSK_TIME_RETRANS);
    g_assert_cmpuint(tb->a->icsk_timeout, ==, 42 + 210);
    g_assert_cmpuint(tb->a->ca_state, ==, TCP_CA_Open); /* a probe is not a loss */
    /* one probe per episode: the RTO comes next */
    th_run_to(tb, 252 * SIM_MS);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPLossProbes), ==, 1);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPTimeouts), ==, 1);
    th_free(tb);
}

/* The same lost tail on the 4.8+ timer wheel (stack.timer.wheel: 4.8): the PTO is still armed
 * for jiffy 42, but the wheel runs it a tick later, at 43 ms (calc_index rounds up past the
 * expiry), so the probe goes 23 ms after the write instead of 22. The RTO it re-arms for
 * 43 + 210 = 253 is 209 jiffies past the wheel's clock (44): level 1, whose buckets are 8
 * jiffies, so it runs at ((253 >> 3) + 1) << 3 = 256. On the cascading wheel of the test
 * above: 42 and 252. */
static void test_tlp_on_the_4_8_wheel(void)
{
    TcpBench *tb = th_new();
    tb->conf[0].tcp.tlp = true;
    tb->stack.timer_wheel = KTIMER_WHEEL_4_8;
    th_connect(tb, 1500);
    exchange_10ms(tb);
    th_run_to(tb, 20 * SIM_MS);
    th_write(tb->a, 3 * 1448);
    g_assert_cmpuint(tb->a->icsk_timeout, ==, 42);
    th_drop(tb, 0);
    th_run_to(tb, 43 * SIM_MS - 1);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPLossProbes), ==, 0);
    th_run_to(tb, 43 * SIM_MS);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPLossProbes), ==, 1);
    th_drop(tb, 0);
    g_assert_cmpuint(tb->a->icsk_timeout, ==, 43 + 210);
    th_run_to(tb, 256 * SIM_MS - 1);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPTimeouts), ==, 0);
    th_run_to(tb, 256 * SIM_MS);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPTimeouts), ==, 1);
    th_drop(tb, 0);
    th_free(tb);
}

/* Unsent data that cwnd holds back: the probe is one new MSS. 20 MSS written at t = 0 with no
 * RTT yet: cwnd 10 lets 10 go (two TSO skbs of 5 = cwnd/2); PTO = TCP_TIMEOUT_INIT = 1 s
 * (no SRTT), equal to the RTO -> 1000 ms. The probe is segment 11, new data: TcpOutSegs 11,
 * TcpRetransSegs 0. */
static void test_tlp_new_data(void)
{
    TcpBench *tb = bench(true);
    th_write(tb->a, 20 * 1448);
    g_assert_cmpuint(tb->a->packets_out, ==, 10);
    g_assert_cmpuint(th_pending(tb, 0), ==, 2);
    g_assert_cmpuint(tb->a->icsk_timeout, ==, 1000);
    th_drop(tb, 0);
    th_drop(tb, 0);
    th_run_to(tb, 1000 * SIM_MS);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPLossProbes), ==, 1);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpRetransSegs), ==, 0);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpOutSegs), ==, 11);
    Skb *probe = th_take(tb, 0);
    g_assert_cmpuint(probe->seq, ==, 1 + 10 * 1448);
    g_assert_cmpuint(probe->len, ==, 1448);
    skb_free(tb->host[0].pool, probe);
    g_assert_false(tb->a->tlp_retrans);
    g_assert_cmpuint(tb->a->tlp_high_seq, ==, 1 + 11 * 1448);
    th_free(tb);
}

/* What the three firings of test_rto_and_backoff count (hosts.H.tcp.timeouts_count): each is
 * one TCPTimeouts from 5.5 (e1561fe2dd69); before it only the first of the series (from Open,
 * no SACKed data) is, so an RTO backed off twice shows as 1. sksim's diagnosis classifies all
 * three either way. */
/* A connection without TLP whose sender counts TCPTimeouts by the 5.5 rule or the legacy one,
 * after exchange_10ms (RTO 210 ms), at 20 ms. */
static TcpBench *timeouts_bench(bool legacy)
{
    TcpBench *tb = th_new();
    tb->conf[0].tcp.tlp = false;
    tb->conf[0].tcp.timeouts_count = legacy ? TCP_TIMEOUTS_FIRST : TCP_TIMEOUTS_EVERY;
    th_connect(tb, 1500);
    exchange_10ms(tb);
    th_run_to(tb, 20 * SIM_MS);
    return tb;
}

static void test_rto_count_era(void)
{
    for (int legacy = 0; legacy < 2; legacy++) {
        TcpBench *tb = timeouts_bench(legacy);
        th_write(tb->a, 1448);
        th_drop(tb, 0);
        th_run_to(tb, 230 * SIM_MS);
        th_drop(tb, 0);
        th_run_to(tb, 650 * SIM_MS);
        th_drop(tb, 0);
        th_run_to(tb, 1490 * SIM_MS);
        th_drop(tb, 0);
        g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpRetransSegs), ==, 3);
        g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPTimeouts), ==, legacy ? 1 : 3);
        g_assert_cmpuint(th_ctr(tb, 0, CTR_SksimRTOPeerOwnerOffCpu) +
                             th_ctr(tb, 0, CTR_SksimRTOPeerOwnerOnCpu) +
                             th_ctr(tb, 0, CTR_SksimRTOPeerDelayedAck) +
                             th_ctr(tb, 0, CTR_SksimRTOPeerOther),
                         ==, 3);
        g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPLossFailures), ==, 0);
        th_free(tb);
    }
}

/* An RTO that ends a failed SACK recovery: three MSS at 20 ms, the first lost; the other two
 * are SACKed, RACK marks the first lost and Recovery retransmits it, and that is lost too. The
 * RTO then counts TCPSackRecoveryFail in every era, and TCPTimeouts only from 5.5: before it
 * the failure counter took its place. */
static void test_rto_in_recovery(void)
{
    for (int legacy = 0; legacy < 2; legacy++) {
        TcpBench *tb = timeouts_bench(legacy);
        for (int i = 0; i < 3; i++)
            th_write(tb->a, 1448);
        g_assert_cmpuint(th_pending(tb, 0), ==, 3);
        th_drop(tb, 0);
        th_deliver(tb, 0);
        th_deliver(tb, 0);
        th_run_to(tb, 30 * SIM_MS);
        while (th_deliver(tb, 1))
            ;
        th_run_to(tb, 60 * SIM_MS); /* past RACK's reordering window */
        g_assert_cmpuint(tb->a->ca_state, ==, TCP_CA_Recovery);
        g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpRetransSegs), ==, 1);
        while (th_pending(tb, 0))
            th_drop(tb, 0);
        g_assert_cmpuint(tb->a->icsk_pending, ==, ICSK_TIME_RETRANS);
        th_run_to(tb, tb->a->icsk_timeout * SIM_MS);
        g_assert_cmpuint(tb->a->ca_state, ==, TCP_CA_Loss);
        g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPSackRecoveryFail), ==, 1);
        g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPTimeouts), ==, legacy ? 0 : 1);
        while (th_pending(tb, 0))
            th_drop(tb, 0);
        th_free(tb);
    }
}

/* TLP repairs a real tail loss: three 1-MSS skbs at 20 ms, the last one lost, the first two
 * ACKed at 30 ms. The probe (at most the RTO after the ACK) resends the last MSS; its ACK
 * equals tlp_high_seq, which ends nothing yet; the ACK of new data sent afterwards goes beyond
 * tlp_high_seq: the probe repaired a loss -> CWR entered and left at once, cwnd = ssthresh =
 * 10 * 717 / 1024 = 7 (CUBIC; cwnd was never limited so it stayed 10), TCPLossProbeRecovery 1. */
static void test_tlp_loss_recovery(void)
{
    TcpBench *tb = bench(true);
    exchange_10ms(tb);
    th_run_to(tb, 20 * SIM_MS);
    for (int i = 0; i < 3; i++)
        th_write(tb->a, 1448);
    g_assert_cmpuint(th_pending(tb, 0), ==, 3);
    th_deliver(tb, 0);
    th_deliver(tb, 0);
    th_drop(tb, 0);
    th_run_to(tb, 30 * SIM_MS);
    while (th_deliver(tb, 1))
        ;
    g_assert_cmpuint(tb->a->packets_out, ==, 1);
    g_assert_cmpuint(tb->a->icsk_pending, ==, ICSK_TIME_LOSS_PROBE);
    th_run_to(tb, tb->a->icsk_timeout * SIM_MS);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPLossProbes), ==, 1);
    th_deliver(tb, 0); /* the probe fills the hole */
    th_deliver(tb, 1);
    g_assert_cmpuint(tb->a->snd_una, ==, tb->a->tlp_high_seq);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPLossProbeRecovery), ==, 0);
    g_assert_cmpuint(tb->a->snd_cwnd, ==, 10);
    th_write(tb->a, 1448);
    th_deliver(tb, 0);
    th_deliver(tb, 1);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPLossProbeRecovery), ==, 1);
    g_assert_cmpuint(tb->a->snd_ssthresh, ==, 7);
    g_assert_cmpuint(tb->a->snd_cwnd, ==, 7);
    g_assert_cmpuint(tb->a->ca_state, ==, TCP_CA_Open);
    th_free(tb);
}

/* TLP of an original that was not lost: the receiver DSACKs the probe (one MSS ending at
 * tlp_high_seq: FLAG_DSACK_TLP): the episode ends with no cwnd reduction. (3 MSS leave as
 * skbs of 2 + 1 MSS: the pacing rate after the 10 ms sample, 2 x 10 x 1448 B / 10 ms, gives
 * tcp_tso_autosize ~2.8 KB per ms -> the 2-segment minimum.) */
static void test_tlp_dsack_no_reduction(void)
{
    TcpBench *tb = bench(true);
    exchange_10ms(tb);
    th_run_to(tb, 20 * SIM_MS);
    th_write(tb->a, 3 * 1448);
    g_assert_cmpuint(th_pending(tb, 0), ==, 2);
    th_deliver(tb, 0);
    th_deliver(tb, 0);
    g_assert_cmpuint(th_pending(tb, 1), ==, 2); /* the receiver's ACKs are late */
    th_run_to(tb, 42 * SIM_MS);  /* PTO: 20 + 2 * 10 + 2 */
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPLossProbes), ==, 1);
    th_deliver(tb, 1);
    th_deliver(tb, 1);
    th_deliver(tb, 0); /* the probe: a duplicate */
    th_deliver(tb, 1); /* its DSACK */
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPDSACKRecv), ==, 1);
    g_assert_cmpuint(tb->a->tlp_high_seq, ==, 0);
    th_write(tb->a, 1448);
    th_deliver(tb, 0);
    th_deliver(tb, 1);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPLossProbeRecovery), ==, 0);
    g_assert_cmpuint(tb->a->snd_cwnd, ==, 10);
    th_free(tb);
}

/* Zero-window probing. After the 10 ms exchange (RTO 210) the peer's window is closed (snd_wnd
 * 0, as an ACK advertising 0 would leave it). A write at 20 ms cannot leave; nothing is in
 * flight -> PROBE0 for max(rto 210, TCP_RTO_MIN 200) = 210 jiffies: 230 ms. The probe carries no
 * data and an old sequence (snd_una - 1 = 1448); unanswered, the next comes after 210 << 1 =
 * 420 (650 ms), then 840. The receiver answers the second at once (out of window) with its open
 * window: tcp_ack_probe ends the probing (backoff 0) and the data leaves. */
static void test_zero_window_probe(void)
{
    TcpBench *tb = bench(true);
    exchange_10ms(tb);
    tb->a->snd_wnd = 0;
    th_run_to(tb, 20 * SIM_MS);
    th_write(tb->a, 1448);
    g_assert_cmpuint(th_pending(tb, 0), ==, 0);
    g_assert_cmpuint(tb->a->icsk_pending, ==, ICSK_TIME_PROBE0);
    g_assert_cmpuint(tb->a->icsk_timeout, ==, 230);
    th_run_to(tb, 230 * SIM_MS);
    Skb *probe = th_take(tb, 0);
    g_assert_nonnull(probe);
    g_assert_cmpuint(probe->len, ==, 0);
    g_assert_cmpuint(probe->seq, ==, 1448);
    skb_free(tb->host[0].pool, probe);
    g_assert_cmpuint(tb->a->icsk_backoff, ==, 1);
    g_assert_cmpuint(tb->a->icsk_timeout, ==, 650);
    th_run_to(tb, 650 * SIM_MS);
    g_assert_cmpuint(tb->a->icsk_backoff, ==, 2);
    g_assert_cmpuint(tb->a->icsk_timeout, ==, 650 + 840);
    th_deliver(tb, 0);
    g_assert_cmpuint(th_pending(tb, 1), ==, 1);
    th_deliver(tb, 1);
    g_assert_cmpuint(tb->a->icsk_backoff, ==, 0);
    g_assert_cmpuint(th_pending(tb, 0), ==, 1);
    Skb *data = th_take(tb, 0);
    g_assert_cmpuint(data->seq, ==, 1449);
    g_assert_cmpuint(data->len, ==, 1448);
    skb_free(tb->host[0].pool, data);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpRetransSegs), ==, 0);
    th_free(tb);
}

/* tcp_ack_probe ends the probing only when the window opens for the whole head skb. The write
 * at 20 ms is one skb of 2 MSS; the answer to the probe at 230 ms (backoff 1) opens 2000 bytes:
 * one MSS fits, the skb does not, so the backoff stays (it clears once the window takes all of
 * it) and tcp_data_snd_check sends what fits: 2000 bytes, as tcp_mss_split_point keeps a
 * partial last segment when Nagle allows it (nothing in flight). */
static void test_ack_probe_needs_whole_head(void)
{
    TcpBench *tb = bench(true);
    exchange_10ms(tb);
    tb->a->snd_wnd = 0;
    th_run_to(tb, 20 * SIM_MS);
    th_write(tb->a, 2 * 1448);
    g_assert_cmpuint(tb->a->write_queue.head->len, ==, 2 * 1448);
    th_run_to(tb, 230 * SIM_MS);
    g_assert_cmpuint(tb->a->icsk_backoff, ==, 1);
    th_deliver(tb, 0); /* the probe; the receiver answers at once */
    Skb *ack = th_take(tb, 1);
    ack->win = 2000;
    th_deliver_skb(tb, 1, ack);
    g_assert_cmpuint(tb->a->icsk_backoff, ==, 1);
    g_assert_cmpuint(th_pending(tb, 0), ==, 1);
    Skb *data = th_take(tb, 0);
    g_assert_cmpuint(data->seq, ==, 1449);
    g_assert_cmpuint(data->len, ==, 2000);
    skb_free(tb->host[0].pool, data);
    th_free(tb);
}

/* RFC 2861 restart (tcp_cwnd_restart via tcp_slow_start_after_idle_check at skb_entail). After
 * the 10 ms exchange (RTO 210, last data sent at jiffy 0) the cwnd is set to 200, ssthresh 100.
 * A write at 700 ms finds nothing in flight and 700 jiffies idle > 210: one halving per RTO of
 * idle time beyond the first (700 - 210 = 490 > 0: 100; 280 > 0: 50; 70 > 0: 25; then -140),
 * ssthresh = max(100, 3/4 x 200 = 150); 25 segments leave (the peer's window allows 47). Idle exactly one RTO (210 jiffies)
 * is not "more than" one: the cwnd stays. With the sysctl off it always stays. */
static TcpBench *idle_bench(bool on)
{
    TcpBench *tb = th_new();
    tb->conf[0].tcp.slow_start_after_idle = on;
    th_connect(tb, 1500);
    exchange_10ms(tb);
    tb->a->snd_cwnd = 200;
    tb->a->snd_ssthresh = 100;
    return tb;
}

static uint32_t cwnd_after_idle(bool on, sim_time_t write_at)
{
    TcpBench *tb = idle_bench(on);
    th_run_to(tb, write_at);
    /* sendmsg sends its first full skb before entailing the next (tcp_push_one); this bench's
     * th_write entails them all first, and each entail with nothing in flight would restart */
    th_write(tb->a, 1448);
    th_write(tb->a, 1448u * 299u);
    uint32_t cwnd = tb->a->snd_cwnd;
    if (cwnd == 25) { /* restarted; unrestarted, the receiver's first window (47 MSS) limits */
        g_assert_cmpuint(tb->a->packets_out, ==, 25);
        g_assert_cmpuint(tb->a->snd_ssthresh, ==, 150);
    }
    th_free(tb);
    return cwnd;
}

static void test_cwnd_restart_after_idle(void)
{
    g_assert_cmpuint(cwnd_after_idle(true, 700 * SIM_MS), ==, 25);
    g_assert_cmpuint(cwnd_after_idle(true, 210 * SIM_MS), ==, 200);
    g_assert_cmpuint(cwnd_after_idle(false, 700 * SIM_MS), ==, 200);
}

/* hosts.H.tcp.init_cwnd: the first flight of a 64 KiB write, before any ACK, is the initial
 * window: 10 segments since 2.6.39 (442b9635c569); before, tcp_init_cwnd()'s RFC 3390 rule by
 * the MSS: 3 at MSS 1448 (1095 < 1448 <= 1460), 2 at 8948 (MTU 9000), 4 at 948 (MTU 1000). The
 * peer's first window (65535) lets all of these out. */
static uint32_t first_flight(TcpInitCwnd iw, uint32_t mtu)
{
    TcpBench *tb = th_new();
    tb->conf[0].tcp.init_cwnd = iw;
    th_connect(tb, mtu);
    th_write(tb->a, 65536);
    uint32_t out = (uint32_t)tb->a->packets_out;
    th_free(tb);
    return out;
}

static void test_init_cwnd_era(void)
{
    g_assert_cmpuint(first_flight(TCP_INIT_CWND_IW10, 1500), ==, 10);
    g_assert_cmpuint(first_flight(TCP_INIT_CWND_RFC3390, 1500), ==, 3);
    g_assert_cmpuint(first_flight(TCP_INIT_CWND_RFC3390, 9000), ==, 2);
    g_assert_cmpuint(first_flight(TCP_INIT_CWND_RFC3390, 1000), ==, 4);
}

/* The restart after idle falls back to the same era's initial window: from cwnd 200 after
 * 2000 jiffies idle (RTO 210) the halvings reach 6 (200, 100, 50, 25, 12, 6: each while more
 * idle time is left and cwnd is above the floor), then the floor applies: 10 with IW10, and 3
 * (the 2.6.30 tcp_cwnd_restart's tcp_init_cwnd at MSS 1448) with RFC 3390. */
static uint32_t cwnd_after_long_idle(TcpInitCwnd iw)
{
    TcpBench *tb = th_new();
    tb->conf[0].tcp.slow_start_after_idle = true;
    tb->conf[0].tcp.init_cwnd = iw;
    th_connect(tb, 1500);
    exchange_10ms(tb);
    tb->a->snd_cwnd = 200;
    tb->a->snd_ssthresh = 100;
    th_run_to(tb, 2000 * SIM_MS);
    th_write(tb->a, 1448);
    uint32_t cwnd = tb->a->snd_cwnd;
    th_free(tb);
    return cwnd;
}

static void test_init_cwnd_restart_floor(void)
{
    g_assert_cmpuint(cwnd_after_long_idle(TCP_INIT_CWND_IW10), ==, 10);
    g_assert_cmpuint(cwnd_after_long_idle(TCP_INIT_CWND_RFC3390), ==, 3);
}

/* The restart also runs when an ACK changes the window while data waits (tcp_ack_update_window):
 * the zero-window bench of the previous test, with cwnd 200. The data written at 20 ms waits
 * for the window; the ACK that opens it at 650 ms finds 650 jiffies of idle since the last
 * data (jiffy 0): 440 > 0: 100; 230 > 0: 50; 20 > 0: 25. */
static void test_cwnd_restart_on_window_open(void)
{
    TcpBench *tb = idle_bench(true);
    tb->a->snd_wnd = 0;
    th_run_to(tb, 20 * SIM_MS);
    th_write(tb->a, 1448u * 100u);
    g_assert_cmpuint(tb->a->snd_cwnd, ==, 200); /* 20 jiffies idle */
    th_run_to(tb, 650 * SIM_MS);                /* zero-window probes at 230 and 650 ms */
    while (th_pending(tb, 0) > 1)
        skb_free(tb->host[0].pool, th_take(tb, 0));
    th_deliver(tb, 0); /* the second probe: answered at once with the open window */
    th_deliver(tb, 1);
    g_assert_cmpuint(tb->a->snd_cwnd, ==, 25);
    g_assert_cmpuint(tb->a->packets_out, ==, 25);
    th_free(tb);
}

/* RFC 2861's slow part (tcp_cwnd_application_limited from tcp_cwnd_validate). cwnd 200, last
 * validated by the ACK at 10 ms. One segment at 150 ms (idle 150 <= 210: no restart) stays
 * unacknowledged (its RTO, at 360 ms, has not fired: the state is Open); a segment written at 225 ms, with
 * one in flight (no restart), is sent by a flow that is not cwnd-limited 215 >= 210 jiffies
 * after the cwnd last moved: cwnd = (200 + max(used 2, initial window 10)) / 2 = 105, ssthresh
 * = max(100, 150). */
static uint32_t cwnd_app_limited(bool on)
{
    TcpBench *tb = idle_bench(on);
    th_run_to(tb, 150 * SIM_MS);
    th_write(tb->a, 1448);
    th_run_to(tb, 225 * SIM_MS);
    g_assert_cmpuint(tb->a->ca_state, ==, TCP_CA_Open);
    th_write(tb->a, 1448);
    uint32_t cwnd = tb->a->snd_cwnd;
    g_assert_cmpuint(tb->a->snd_ssthresh, ==, on ? 150 : 100);
    th_free(tb);
    return cwnd;
}

static void test_cwnd_application_limited(void)
{
    g_assert_cmpuint(cwnd_app_limited(true), ==, 105);
    g_assert_cmpuint(cwnd_app_limited(false), ==, 200);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/tcp/timers/rto-backoff", test_rto_and_backoff);
    g_test_add_func("/tcp/timers/rto-count-era", test_rto_count_era);
    g_test_add_func("/tcp/timers/rto-in-recovery", test_rto_in_recovery);
    g_test_add_func("/tcp/timers/rto-while-owned-era", test_rto_while_owned_era);
    g_test_add_func("/tcp/timers/rto-min-in-jiffies", test_rto_min_in_jiffies);
    g_test_add_func("/tcp/timers/pto-one-packet", test_pto_one_packet);
    g_test_add_func("/tcp/timers/pto-several-packets", test_pto_several_packets);
    g_test_add_func("/tcp/timers/pto-clipped-by-rto", test_pto_clipped_by_rto);
    g_test_add_func("/tcp/timers/tlp-last-segment", test_tlp_last_segment);
    g_test_add_func("/tcp/timers/tlp-on-the-4.8-wheel", test_tlp_on_the_4_8_wheel);
    g_test_add_func("/tcp/timers/tlp-new-data", test_tlp_new_data);
    g_test_add_func("/tcp/timers/tlp-loss-recovery", test_tlp_loss_recovery);
    g_test_add_func("/tcp/timers/tlp-dsack", test_tlp_dsack_no_reduction);
    g_test_add_func("/tcp/timers/zero-window-probe", test_zero_window_probe);
    g_test_add_func("/tcp/timers/ack-probe-needs-whole-head", test_ack_probe_needs_whole_head);
    g_test_add_func("/tcp/timers/cwnd-restart-after-idle", test_cwnd_restart_after_idle);
    g_test_add_func("/tcp/timers/cwnd-restart-on-window-open", test_cwnd_restart_on_window_open);
    g_test_add_func("/tcp/timers/init-cwnd-era", test_init_cwnd_era);
    g_test_add_func("/tcp/timers/init-cwnd-restart-floor", test_init_cwnd_restart_floor);
    g_test_add_func("/tcp/timers/cwnd-application-limited", test_cwnd_application_limited);
    return g_test_run();
}
