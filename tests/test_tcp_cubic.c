/* test_tcp_cubic.c - CUBIC (notes F.2): the reduction (beta 717/1024, fast convergence) and
 * the window growth after it following W(t) = W_max + C (t - K)^3 with C = 410/1024 and
 * K = cbrt((W_max - W_0) / C), within one segment; Reno's halving for comparison. */
#include <math.h>

#include "tcp_harness.h"

/* A loss at cwnd 100: ssthresh = 100 * 717 / 1024 = 70 (integer), W_max = 100. A second loss
 * at cwnd 90 < W_max: fast convergence W_max = 90 * (1024 + 717) / 2048 = 76. */
static void test_cubic_reduction(void)
{
    TcpBench *tb = th_new();
    th_connect(tb, 1500);
    TcpSock *tp = tb->a;
    tp->snd_cwnd = 100;
    g_assert_cmpuint(tp->ca_ops->ssthresh(tp), ==, 70);
    tp->snd_cwnd = 90;
    g_assert_cmpuint(tp->ca_ops->ssthresh(tp), ==, 63); /* 90 * 717 / 1024 = 63.02 */
    tp->snd_cwnd = 76;
    /* W_max is now 76: a reduction at 76 is not below it, so W_max = 76, ssthresh 53 */
    g_assert_cmpuint(tp->ca_ops->ssthresh(tp), ==, 53);
    th_free(tb);
}

/* The state both curve tests start from: a loss at cwnd 100 leaves cwnd 70 in congestion
 * avoidance, cwnd-limited, with a 100 ms minimum RTT. */
static TcpSock *cubic_after_loss(TcpBench *tb)
{
    TcpSock *tp = tb->a;
    tp->snd_cwnd = 100;
    tp->snd_ssthresh = tp->ca_ops->ssthresh(tp);
    tp->snd_cwnd = 70;
    tp->is_cwnd_limited = true;
    tp->ca_ops->pkts_acked(tp, 1, 100000); /* delay_min = 100 ms */
    return tp;
}

/* After the loss at 100 the flow sits at cwnd 70 in congestion avoidance with a 100 ms RTT
 * (delay_min 100 ms); every millisecond cwnd/100 packets are ACKed. With
 * W(T) = 100 + C (T - K)^3, C = 410 / 1024, K = cbrt(30 / C) = 4.2155 s and T the time since
 * the epoch began, the kernel sets cnt so that cwnd reaches W(T + RTT) (its t includes
 * delay_min) within the next RTT: so W(T) - 1 <= cwnd(T) <= W(T + 0.1 s) + 1, checked every
 * 250 ms from 0.5 s to 7 s (concave part, plateau at W_max = 100 around K, convex part).
 * E.g. T = 1.5 s: W = 91.97, W(1.6) = 92.84, cwnd 93. */
static void test_cubic_curve(void)
{
    TcpBench *tb = th_new();
    th_connect(tb, 1500);
    TcpSock *tp = cubic_after_loss(tb);
    double C = 410.0 / 1024.0, K = cbrt(30.0 / C);
    uint64_t acc = 0;
    sim_time_t t0 = SIM_MS; /* the epoch starts at the first ACK, jiffy 1 */
    int checked = 0;
    for (sim_time_t ms = 1; ms <= 7000; ms++) {
        th_run_to(tb, ms * SIM_MS);
        acc += tp->snd_cwnd;
        uint32_t acked = (uint32_t)(acc / 100);
        acc %= 100;
        if (acked)
            tp->ca_ops->cong_avoid(tp, 0, acked);
        if (ms >= 500 && ms % 250 == 0) {
            double T = (double)(ms * SIM_MS - t0) / (double)SIM_S;
            double w_now = 100.0 + C * pow(T - K, 3.0);
            double w_ahead = 100.0 + C * pow(T + 0.1 - K, 3.0);
            g_assert_cmpfloat((double)tp->snd_cwnd, >=, w_now - 1.0);
            g_assert_cmpfloat((double)tp->snd_cwnd, <=, w_ahead + 1.0);
            checked++;
        }
    }
    g_assert_cmpint(checked, ==, 27);
    th_free(tb);
}

/* The curve of test_cubic_curve to T = 1.5 s (cwnd 93), then 3 s without sending, then
 * CA_EVENT_TX_START and another 100 ms of ACKs: cwnd at the end. */
static uint32_t cwnd_after_idle(TcpCwndCount count)
{
    TcpBench *tb = th_new();
    tb->conf[0].tcp.cwnd_count = count;
    th_connect(tb, 1500);
    TcpSock *tp = cubic_after_loss(tb);
    uint64_t acc = 0;
    for (sim_time_t ms = 1; ms <= 4600; ms++) {
        if (ms > 1500 && ms <= 4500)
            continue; /* idle: nothing in flight, nothing ACKed */
        th_run_to(tb, ms * SIM_MS);
        if (ms == 1500)
            tp->lsndtime = tcp_jiffies(tp);
        if (ms == 4501)
            tp->ca_ops->cwnd_event(tp, CA_EVENT_TX_START);
        acc += tp->snd_cwnd;
        for (; acc >= 100; acc -= 100)
            tp->ca_ops->cong_avoid(tp, 0, 1);
    }
    uint32_t cwnd = tp->snd_cwnd;
    th_free(tb);
    return cwnd;
}

/* After an idle period 4.3+ shifts the epoch by the idle time (30927520dbae "tcp_cubic: better
 * follow cubic curve after idle period"), so growth resumes where it paused: W(1.6 s) = 92.8,
 * cwnd at most 94. 3.x CUBIC (cwnd_count acks) had no cwnd_event: t counts the idle time, the
 * target is W(4.7 s) = 100.04 and cwnd climbs to ~100 within the 100 ms. */
static void test_cubic_idle_epoch(void)
{
    g_assert_cmpuint(cwnd_after_idle(TCP_CWND_COUNT_SEGMENTS), <=, 94);
    g_assert_cmpuint(cwnd_after_idle(TCP_CWND_COUNT_ACKS), >=, 99);
}

/* Reno: ssthresh = max(cwnd / 2, 2); in congestion avoidance one segment per cwnd ACKed. */
static void test_reno(void)
{
    TcpBench *tb = th_new();
    tb->conf[0].tcp.cc = CC_RENO;
    th_connect(tb, 1500);
    TcpSock *tp = tb->a;
    g_assert_cmpstr(tp->ca_ops->name, ==, "reno");
    tp->snd_cwnd = 100;
    g_assert_cmpuint(tp->ca_ops->ssthresh(tp), ==, 50);
    tp->snd_cwnd = 3;
    g_assert_cmpuint(tp->ca_ops->ssthresh(tp), ==, 2);
    tp->snd_cwnd = 50;
    tp->snd_ssthresh = 50;
    tp->is_cwnd_limited = true;
    tp->ca_ops->cong_avoid(tp, 0, 49);
    g_assert_cmpuint(tp->snd_cwnd, ==, 50);
    tp->ca_ops->cong_avoid(tp, 0, 1); /* the 50th ACKed packet */
    g_assert_cmpuint(tp->snd_cwnd, ==, 51);
    /* slow start below ssthresh: cwnd + acked, capped at ssthresh, rest to avoidance */
    tp->snd_cwnd = 10;
    tp->snd_ssthresh = 12;
    tp->snd_cwnd_cnt = 0;
    tp->ca_ops->cong_avoid(tp, 0, 5);
    g_assert_cmpuint(tp->snd_cwnd, ==, 12);
    g_assert_cmpuint(tp->snd_cwnd_cnt, ==, 3);
    g_assert_null(tcp_ca_find("vegas"));
    th_free(tb);
}

/* HyStart in slow start (cwnd 20 >= hystart_low_window 16, ssthresh infinite), 10 ms base RTT.
 * Delay detector: a round of 9 samples whose minimum exceeds delay_min + clamp(delay_min / 8,
 * 4 ms, 16 ms) = 10 + 4 = 14 ms ends slow start (ssthresh = cwnd); 13 ms does not. The ACK
 * train detector: ACKs at most 2 ms apart spanning more than delay_min / 2 = 5 ms from the
 * round start end slow start on the ACK at +6 ms, not at +5 ms. */
static TcpSock *hystart_sock(TcpBench *tb)
{
    th_connect(tb, 1500);
    TcpSock *tp = tb->a;
    tp->snd_cwnd = 20;
    tp->ca_ops->pkts_acked(tp, 1, 10000); /* round 1: delay_min 10 ms */
    /* snd_una passes the round's end (snd_nxt at its start): the next sample starts round 2,
     * which lasts until snd_una passes the new snd_nxt */
    tp->snd_nxt += 100000;
    tp->snd_una += 50000;
    return tp;
}

static void test_hystart_delay(void)
{
    for (int slow = 0; slow < 2; slow++) {
        TcpBench *tb = th_new();
        TcpSock *tp = hystart_sock(tb);
        for (int i = 0; i < 9; i++)
            tp->ca_ops->pkts_acked(tp, 1, slow ? 15000 : 13000);
        g_assert_cmpuint(tp->snd_ssthresh, ==, (slow ? 20u : TCP_INFINITE_SSTHRESH));
        th_free(tb);
    }
}

/* An ACK train from the start of round 2, one ACK per ms: the ms whose ACK ends slow start. */
static int ack_train_end_ms_in(bool paced, TcpHystart hystart)
{
    TcpBench *tb = th_new();
    tb->conf[0].tcp.pacing = paced;
    tb->conf[0].tcp.hystart = hystart;
    TcpSock *tp = hystart_sock(tb);
    tp->ca_ops->pkts_acked(tp, 1, 10000); /* round 2 starts at t = 0 */
    int end = 0;
    for (int ms = 1; ms <= 20 && !end; ms++) {
        th_run_to(tb, ms * SIM_MS);
        tp->ca_ops->pkts_acked(tp, 1, 10000);
        if (tp->snd_ssthresh == 20)
            end = ms;
    }
    th_free(tb);
    return end;
}

static int ack_train_end_ms(bool paced)
{
    return ack_train_end_ms_in(paced, TCP_HYSTART_DEFAULT);
}

static void test_hystart_ack_train(void)
{
    g_assert_cmpint(ack_train_end_ms(false), ==, 6);
}

/* 5.8+ bictcp_acked calls hystart_update, which starts HyStart's next round, only from cwnd
 * hystart_low_window (16) on. 10 ms RTT: at cwnd 10 an ACK at 1 ms passes the round's end and
 * starts nothing; at cwnd 20 the ACK at 2 ms starts the first round, and one ACK per ms ends
 * slow start at 8 ms (2 + more than 5). A round started at 1 ms would end it at 7 ms. */
static void test_hystart_first_round(void)
{
    TcpBench *tb = th_new();
    th_connect(tb, 1500);
    TcpSock *tp = tb->a;
    tp->snd_cwnd = 10;
    tp->ca_ops->pkts_acked(tp, 1, 10000);
    th_run_to(tb, 1 * SIM_MS);
    tp->snd_nxt += 100000;
    tp->snd_una += 50000;
    tp->ca_ops->pkts_acked(tp, 1, 10000);
    tp->snd_cwnd = 20;
    int end = 0;
    for (int ms = 2; ms <= 20 && !end; ms++) {
        th_run_to(tb, ms * SIM_MS);
        tp->ca_ops->pkts_acked(tp, 1, 10000);
        if (tp->snd_ssthresh == 20)
            end = ms;
    }
    g_assert_cmpint(end, ==, 8);
    th_free(tb);
}

/* hosts.H.tcp.cwnd_count (3.3 net/ipv4/tcp_cong.c with tcp_abc = 0 vs 9f9843a751d0 and later):
 * slow start from cwnd 10 with five stretch ACKs of 4 segments each. Counting segments gives
 * cwnd 10 + 20 = 30; counting ACKs gives 10 + 5 = 15 (a 2012 sender grew one segment per ACK). */
static void test_cwnd_count_slow_start(void)
{
    for (int acks = 0; acks < 2; acks++) {
        TcpBench *tb = th_new();
        tb->conf[0].tcp.cwnd_count = acks ? TCP_CWND_COUNT_ACKS : TCP_CWND_COUNT_SEGMENTS;
        th_connect(tb, 1500);
        TcpSock *tp = tb->a;
        tp->snd_cwnd = 10;
        tp->snd_ssthresh = TCP_INFINITE_SSTHRESH;
        tp->is_cwnd_limited = true;
        for (int i = 0; i < 5; i++)
            tp->ca_ops->cong_avoid(tp, 0, 4);
        g_assert_cmpuint(tp->snd_cwnd, ==, acks ? 15u : 30u);
        th_free(tb);
    }
}

/* Reno at cwnd 50 with the given ssthresh, cwnd-limited, counting segments or (acks) ACKs: n
 * ACKs of 2 segments; the resulting cwnd and credit (snd_cwnd_cnt). */
static void reno_acks(bool acks, uint32_t ssthresh, int n, uint32_t *cwnd, uint32_t *cnt)
{
    TcpBench *tb = th_new();
    tb->conf[0].tcp.cc = CC_RENO;
    tb->conf[0].tcp.cwnd_count = acks ? TCP_CWND_COUNT_ACKS : TCP_CWND_COUNT_SEGMENTS;
    th_connect(tb, 1500);
    TcpSock *tp = tb->a;
    tp->snd_cwnd = 50;
    tp->snd_ssthresh = ssthresh;
    tp->snd_cwnd_cnt = 0;
    tp->is_cwnd_limited = true;
    for (int i = 0; i < n; i++)
        tp->ca_ops->cong_avoid(tp, 0, 2);
    *cwnd = tp->snd_cwnd;
    *cnt = tp->snd_cwnd_cnt;
    th_free(tb);
}

/* Reno congestion avoidance at cwnd 50 (ssthresh 49), 51 ACKs of 2 segments. Segments: the 25th
 * ACK brings 50 credits (cwnd 51), the next 26 bring 52 >= 51 (cwnd 52, 1 left). ACKs (3.3
 * tcp_cong_avoid_ai): one credit per ACK, the 51st ACK finds 50 credits and adds one segment,
 * so +1 and the credit restarts at 0. */
static void test_cwnd_count_reno_avoidance(void)
{
    for (int acks = 0; acks < 2; acks++) {
        uint32_t cwnd, cnt;
        reno_acks(acks, 49, 51, &cwnd, &cnt);
        g_assert_cmpuint(cwnd, ==, acks ? 51u : 52u);
        g_assert_cmpuint(cnt, ==, acks ? 0u : 1u);
    }
}

/* At cwnd == ssthresh (as a recovery leaves it), <= 3.13 still slow-starts (bictcp_cong_avoid
 * and tcp_reno_cong_avoid test cwnd <= ssthresh) and its tcp_slow_start adds one segment per
 * ACK with no cap at ssthresh: two ACKs of 2 segments from cwnd 50 = ssthresh 50 give 51, then
 * one congestion-avoidance credit. Today's rules (cwnd < ssthresh, capped) go straight to
 * congestion avoidance: 50 with 4 credits. */
static void test_cwnd_count_slow_start_at_ssthresh(void)
{
    for (int acks = 0; acks < 2; acks++) {
        uint32_t cwnd, cnt;
        reno_acks(acks, 50, 2, &cwnd, &cnt);
        g_assert_cmpuint(cwnd, ==, acks ? 51u : 50u);
        g_assert_cmpuint(cnt, ==, acks ? 1u : 4u);
    }
}

/* hosts.H.tcp.cwnd_limited in_flight (<= 3.15 tcp_is_cwnd_limited(sk, in_flight)): Reno at
 * cwnd 58 in slow start, one ACK of 2 segments, the tracked mark cleared. With 45 in flight
 * before the ACK, 13 are left: 13 * 3 < 58 and 13 * 1448 < 64 KB, so a TSO sender may be
 * holding a skb back for want of cwnd and cwnd grows to 60. With 30 in flight, 28 are left,
 * more than a third of cwnd and than tcp_max_burst (reordering 3): no growth. With 56 in
 * flight, 2 left <= tcp_max_burst: growth; without TSO/GSO too. The tracked rule (3.16+) reads
 * only the mark (and, in slow start, 2 x max_packets_out, here 0): no growth in any case. */
static uint32_t cwnd_after_ack(TcpCwndLimited rule, uint32_t in_flight, bool gso)
{
    TcpBench *tb = th_new();
    tb->conf[0].tcp.cc = CC_RENO;
    tb->conf[0].tcp.cwnd_limited = rule;
    th_connect(tb, 1500);
    TcpSock *tp = tb->a;
    tp->gso_ok = gso;
    tp->snd_cwnd = 58;
    tp->snd_ssthresh = TCP_INFINITE_SSTHRESH;
    tp->is_cwnd_limited = false;
    tp->max_packets_out = 0;
    tp->prior_in_flight = in_flight;
    tp->ca_ops->cong_avoid(tp, 0, 2);
    uint32_t cwnd = tp->snd_cwnd;
    th_free(tb);
    return cwnd;
}

static void test_cwnd_limited_in_flight(void)
{
    g_assert_cmpuint(cwnd_after_ack(TCP_CWND_LIMITED_IN_FLIGHT, 45, true), ==, 60);
    g_assert_cmpuint(cwnd_after_ack(TCP_CWND_LIMITED_IN_FLIGHT, 45, false), ==, 58);
    g_assert_cmpuint(cwnd_after_ack(TCP_CWND_LIMITED_IN_FLIGHT, 30, true), ==, 58);
    g_assert_cmpuint(cwnd_after_ack(TCP_CWND_LIMITED_IN_FLIGHT, 56, false), ==, 60);
    g_assert_cmpuint(cwnd_after_ack(TCP_CWND_LIMITED_IN_FLIGHT, 58, false), ==, 60);
    g_assert_cmpuint(cwnd_after_ack(TCP_CWND_LIMITED_TRACKED, 45, true), ==, 58);
    g_assert_cmpuint(cwnd_after_ack(TCP_CWND_LIMITED_TRACKED, 58, false), ==, 58);
}

/* RFC 2861's usage test after a transmit (tcp_cwnd_validate). 3.4: "packets_out >= snd_cwnd",
 * whatever the growth test (in_flight) says; 3.16+ asks tcp_is_cwnd_limited. cwnd 20, 15 out
 * (the growth test of 3.4 calls that cwnd-limited: 5 left, under a third of cwnd and under
 * 64 KB), validated 2 s after cwnd last moved: 3.4 found the network starving and decayed cwnd to
 * (20 + 15) / 2 = 17; the tracked rule, with the last sends having found cwnd full, keeps 20. */
static uint32_t cwnd_after_validate(TcpCwndLimited rule)
{
    TcpBench *tb = th_new();
    tb->conf[0].tcp.cwnd_limited = rule;
    tb->conf[0].tcp.slow_start_after_idle = true; /* net.ipv4.tcp_slow_start_after_idle = 1 */
    th_connect(tb, 1500);
    TcpSock *tp = tb->a;
    tp->gso_ok = true;
    tp->snd_cwnd = 20;
    tp->prior_in_flight = 15;
    tp->is_cwnd_limited = true;
    tp->snd_cwnd_stamp = tcp_jiffies(tp);
    th_run_to(tb, 2 * SIM_S);
    tp->packets_out = 15;
    tcp_cwnd_validate_usage(tp);
    tp->packets_out = 0;
    uint32_t cwnd = tp->snd_cwnd;
    th_free(tb);
    return cwnd;
}

static void test_cwnd_validate_usage_era(void)
{
    g_assert_cmpuint(cwnd_after_validate(TCP_CWND_LIMITED_IN_FLIGHT), ==, 17);
    g_assert_cmpuint(cwnd_after_validate(TCP_CWND_LIMITED_TRACKED), ==, 20);
}

/* When tcp_write_xmit records the cwnd-limited mark (tcp_cwnd_validate), by era
 * (hosts.H.tcp.cwnd_limited), worked from the kernels' tcp_write_xmit / tcp_cwnd_validate:
 *   A - a push that sends nothing because cwnd is full (5 out, cwnd 5), with the round's marker
 *       reached (cwnd_usage_seq = snd_una): 3.16-5.9 do not validate without a send (the mark
 *       stays false); 5.10 (299bcb55ecd1) validates and, the round having ended, records true;
 *       so does the 2022 rule.
 *   B - mid-round (the marker far ahead), the mark true and 5 out at most so far, a push that
 *       sends 2 more without filling cwnd 100: 3.16 and 5.10 record (more out than before) and
 *       clear the mark; f4ce91ce12a7's rule keeps it (it records a larger count only when the
 *       round was not limited). */
static bool cwnd_limited_mark(TcpCwndLimited era, bool case_a)
{
    TcpBench *tb = th_new();
    tb->conf[0].tcp.cwnd_limited = era;
    tb->conf[0].tcp.tso_defer = TCP_TSO_DEFER_OFF;
    th_connect(tb, 1500);
    TcpSock *tp = tb->a;
    tp->snd_cwnd = 100;
    tp->snd_wnd = tp->max_window = 4u << 20;
    th_write(tp, 5 * 1448);
    g_assert_cmpuint(tp->packets_out, ==, 5);
    g_assert_false(tp->is_cwnd_limited);
    g_assert_cmpuint(tp->max_packets_out, ==, 5);
    if (case_a) {
        tp->snd_cwnd = 5;
        tp->cwnd_usage_seq = tp->snd_una;
        th_write(tp, 1448);
        g_assert_cmpuint(tp->packets_out, ==, 5); /* nothing went */
    } else {
        tp->is_cwnd_limited = true;
        tp->cwnd_usage_seq = tp->snd_nxt + (1u << 20);
        th_write(tp, 2 * 1448);
        g_assert_cmpuint(tp->packets_out, ==, 7);
    }
    bool mark = tp->is_cwnd_limited;
    th_free(tb);
    return mark;
}

static void test_cwnd_limited_mark_era(void)
{
    g_assert_false(cwnd_limited_mark(TCP_CWND_LIMITED_3_16, true));
    g_assert_true(cwnd_limited_mark(TCP_CWND_LIMITED_5_10, true));
    g_assert_true(cwnd_limited_mark(TCP_CWND_LIMITED_TRACKED, true));
    g_assert_false(cwnd_limited_mark(TCP_CWND_LIMITED_3_16, false));
    g_assert_false(cwnd_limited_mark(TCP_CWND_LIMITED_5_10, false));
    g_assert_true(cwnd_limited_mark(TCP_CWND_LIMITED_TRACKED, false));
}

/* CUBIC after a loss at cwnd 100 (cwnd 70, 100 ms RTT), every ACK covering 4 segments, for
 * 3 s, cwnd sampled every 100 ms. Counting segments, cwnd follows the curve (72, 74, ... 100).
 * Counting ACKs, 3.x CUBIC divides cnt by its packets-per-ACK estimate (converging from 2 to 4),
 * so it stays within one segment of that; without the division it falls behind by 3-4 segments
 * in the concave part (0.6-1 s), since each step then needs four times the data. */
#define CUBIC_SAMPLES 30

static void cubic_growth_with_stretch_acks(TcpCwndCount count, uint32_t *cwnd_at)
{
    TcpBench *tb = th_new();
    tb->conf[0].tcp.cwnd_count = count;
    th_connect(tb, 1500);
    TcpSock *tp = cubic_after_loss(tb);
    uint64_t acc = 0;
    for (sim_time_t ms = 1; ms <= 100 * CUBIC_SAMPLES; ms++) {
        th_run_to(tb, ms * SIM_MS);
        acc += tp->snd_cwnd; /* cwnd / 100 packets per ms, ACKed 4 at a time */
        for (; acc >= 400; acc -= 400) {
            tp->ca_ops->pkts_acked(tp, 4, -1);
            tp->ca_ops->cong_avoid(tp, 0, 4);
        }
        if (ms % 100 == 0)
            cwnd_at[ms / 100 - 1] = tp->snd_cwnd;
    }
    th_free(tb);
}

static void test_cwnd_count_cubic_ack_ratio(void)
{
    uint32_t seg[CUBIC_SAMPLES], ack[CUBIC_SAMPLES];
    cubic_growth_with_stretch_acks(TCP_CWND_COUNT_SEGMENTS, seg);
    cubic_growth_with_stretch_acks(TCP_CWND_COUNT_ACKS, ack);
    g_assert_cmpuint(seg[4], ==, 80);  /* W(0.5 s + RTT) = 81.3 */
    g_assert_cmpuint(seg[CUBIC_SAMPLES - 1], ==, 100);
    for (int i = 0; i < CUBIC_SAMPLES; i++) {
        g_assert_cmpuint(ack[i] + 1, >=, seg[i]);
        g_assert_cmpuint(ack[i], <=, seg[i] + 1);
    }
}

/* With TCP pacing (sk_pacing_status not SK_PACING_NONE) the ACK-train threshold is the whole
 * delay_min, not half: the same train ends slow start only past 10 ms, at +11 ms (no pacing
 * rate yet, so no ack-delay allowance). */
static void test_hystart_ack_train_paced(void)
{
    g_assert_cmpint(ack_train_end_ms(true), ==, 11);
}

/* 2.6.39-3.x HyStart (hosts.H.tcp.hystart 3.x; 3.4/3.6 tcp_cubic.c bictcp_acked, hystart_update,
 * bictcp_cong_avoid): delays in 1/8 ms, (rtt_us << 3) / 1000 and at least 1; the ACK train on
 * bictcp_clock()'s milliseconds (jiffies_to_msecs at HZ 1000), ACKs at most 2 ms apart spanning
 * MORE than delay_min >> 4; the delay threshold clamp(delay_min >> 4, 4 ms, 16 ms); and a round
 * starts in cong_avoid once an ACK passes the last round's end, after pkts_acked has judged that
 * ACK against the old round. */
static TcpSock *hystart3x_sock(TcpBench *tb)
{
    tb->conf[0].tcp.hystart = TCP_HYSTART_3X;
    th_connect(tb, 1500);
    TcpSock *tp = tb->a;
    tp->snd_cwnd = 20;
    tp->is_cwnd_limited = true; /* cong_avoid grows (and restarts rounds) only when cwnd-limited */
    return tp;
}

/* One ACK of one packet with an RTT sample, in tcp_ack's order: pkts_acked, then cong_avoid. */
static void ack3x(TcpSock *tp, uint32_t rtt_us)
{
    tp->ca_ops->pkts_acked(tp, 1, (int32_t)rtt_us);
    tp->ca_ops->cong_avoid(tp, tp->snd_una, 1);
}

/* The next ACK passes the round's end (snd_nxt when the round started). */
static void pass_round_end(TcpSock *tp)
{
    uint64_t end = tp->snd_nxt;
    tp->snd_nxt += 100000;
    tp->snd_una = end + 1000;
}

/* 10 ms base RTT (delay_min 80): a round starting at 0 ends slow start on the ACK at +6 ms
 * (6 > 80 >> 4 = 5; 2.6.29-2.6.38's jiffies and >= took +5); a round of 13 ms samples (104)
 * stays below 80 + clamp(5, 32, 128) = 112, one of 15 ms (120) ends it (the 2 ms floor of
 * 2.6.29-2.6.38 ended it at 13 ms too). */
static void test_hystart_3x(void)
{
    TcpBench *tb = th_new();
    TcpSock *tp = hystart3x_sock(tb);
    ack3x(tp, 10000);
    pass_round_end(tp);
    ack3x(tp, 10000); /* round 2 starts at t = 0 */
    int end = 0;
    for (int ms = 1; ms <= 20 && !end; ms++) {
        th_run_to(tb, ms * SIM_MS);
        ack3x(tp, 10000);
        if (tp->snd_ssthresh != TCP_INFINITE_SSTHRESH)
            end = ms;
    }
    g_assert_cmpint(end, ==, 6);
    th_free(tb);
    for (int slow = 0; slow < 2; slow++) {
        tb = th_new();
        tp = hystart3x_sock(tb);
        ack3x(tp, 10000);
        pass_round_end(tp);
        for (int i = 0; i < 10; i++)
            ack3x(tp, slow ? 15000 : 13000);
        g_assert_cmpuint(tp->snd_ssthresh != TCP_INFINITE_SSTHRESH, ==, slow);
        th_free(tb);
    }
}

/* A LAN RTT (40 us: 320 / 1000 = 0 -> 1, delay_min >> 4 = 0): only an ACK in a later
 * millisecond than its round's start ends slow start. Rounds of 400 us within the first
 * millisecond leave it on, whatever cwnd reaches; the round started at 0.9 ms ends it with its
 * ACK at 1.05 ms. */
static void test_hystart_3x_lan(void)
{
    TcpBench *tb = th_new();
    TcpSock *tp = hystart3x_sock(tb);
    static const sim_time_t round_us[] = { 100, 500, 900 };
    for (size_t r = 0; r < G_N_ELEMENTS(round_us); r++) {
        th_run_to(tb, round_us[r] * SIM_US);
        pass_round_end(tp);
        for (sim_time_t us = round_us[r]; us < round_us[r] + 100; us += 20) {
            th_run_to(tb, us * SIM_US);
            ack3x(tp, 40);
        }
    }
    g_assert_cmpuint(tp->snd_ssthresh, ==, TCP_INFINITE_SSTHRESH);
    g_assert_cmpuint(tp->snd_cwnd, >, 30);
    th_run_to(tb, 1050 * SIM_US);
    ack3x(tp, 40);
    g_assert_cmpuint(tp->snd_ssthresh, !=, TCP_INFINITE_SSTHRESH);
    th_free(tb);
}

/* hystart off (the tcp_cubic module's hystart=0; also 3.4 whenever the 32-bit tcp_time_stamp
 * has its high bit set, 24.8 days of every 49.7 after boot, which bictcp_acked's
 * "(s32)(tcp_time_stamp - ca->epoch_start) < HZ" with epoch_start 0 read as "just after a
 * reduction": fixed in 3.11 by "tcp_cubic: fix bug in bictcp_acked()"): slow start ends only
 * with a loss. */
static void test_hystart_off(void)
{
    g_assert_cmpint(ack_train_end_ms_in(false, TCP_HYSTART_OFF), ==, 0);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/tcp/cubic/reduction", test_cubic_reduction);
    g_test_add_func("/tcp/cubic/curve", test_cubic_curve);
    g_test_add_func("/tcp/cubic/idle-epoch", test_cubic_idle_epoch);
    g_test_add_func("/tcp/cubic/hystart-delay", test_hystart_delay);
    g_test_add_func("/tcp/cubic/hystart-ack-train", test_hystart_ack_train);
    g_test_add_func("/tcp/cubic/hystart-ack-train-paced", test_hystart_ack_train_paced);
    g_test_add_func("/tcp/cubic/hystart-first-round", test_hystart_first_round);
    g_test_add_func("/tcp/cubic/hystart-3.x", test_hystart_3x);
    g_test_add_func("/tcp/cubic/hystart-3.x-lan", test_hystart_3x_lan);
    g_test_add_func("/tcp/cubic/hystart-off", test_hystart_off);
    g_test_add_func("/tcp/reno/basics", test_reno);
    g_test_add_func("/tcp/cwnd-count/slow-start", test_cwnd_count_slow_start);
    g_test_add_func("/tcp/cwnd-count/reno-avoidance", test_cwnd_count_reno_avoidance);
    g_test_add_func("/tcp/cwnd-count/slow-start-at-ssthresh", test_cwnd_count_slow_start_at_ssthresh);
    g_test_add_func("/tcp/cwnd-count/cubic-ack-ratio", test_cwnd_count_cubic_ack_ratio);
    g_test_add_func("/tcp/cwnd-limited/in-flight", test_cwnd_limited_in_flight);
    g_test_add_func("/tcp/cwnd-limited/validate-usage-era", test_cwnd_validate_usage_era);
    g_test_add_func("/tcp/cwnd-limited/mark-era", test_cwnd_limited_mark_era);
    return g_test_run();
}
