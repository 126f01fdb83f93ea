/* test_tcp_pacing.c - TCP internal pacing (hosts.H.tcp.pacing, notes T.F.4; EDT model of 4.20+):
 * pacing_rate = mss * cwnd / srtt x 200 % in slow start (cwnd < ssthresh / 2), x 120 % after;
 * every data skb advances the departure time tcp_wstamp_ns by len / rate (the first 10 segments
 * unpaced, as sch_fq did), tcp_write_xmit stops while that time is in the future and the pacing
 * timer resumes transmission at it. Pacing off: the same flow leaves back to back.
 *
 * Bench: no TSO on the sender (one 1448-byte MSS per skb: MTU 1500 - 40 - 12 of timestamps),
 * cwnd 20, a 4 MiB peer window, SRTT 1 ms (srtt_us = 8000), white-box; TX completion at once
 * (no TSQ throttling); the write of 20 MSS happens at T = 1 ms. */
#include "tcp_harness.h"

#define MSS 1448u
#define T0 (1 * SIM_MS)

typedef struct Rec {
    TcpBench *tb;
    uint32_t n;
    sim_time_t t[64];
    uint32_t len[64];
} Rec;

static int record(void *ctx, Skb *skb, Cpu *cpu)
{
    Rec *r = ctx;
    (void)cpu;
    if (skb->sk) {
        skb->sk->wmem_alloc -= skb->truesize;
        skb->sk = NULL;
    }
    g_assert_cmpuint(r->n, <, 64);
    r->t[r->n] = sim_now(r->tb->sim);
    r->len[r->n] = skb->len;
    r->n++;
    skb_queue_tail(&r->tb->out[0], skb);
    return 0; /* NET_XMIT_SUCCESS */
}

static TcpBench *bench(bool pacing, uint32_t ssthresh, Rec *r)
{
    TcpBench *tb = th_new();
    tb->conf[0].tcp.pacing = pacing;
    tb->conf[0].nic.tso = false;
    th_connect(tb, 1500);
    r->tb = tb;
    r->n = 0;
    tcp_set_xmit_hook(tb->a, record, r);
    TcpSock *a = tb->a;
    g_assert_cmpuint(a->mss_cache, ==, MSS);
    a->snd_cwnd = 20;
    a->snd_ssthresh = ssthresh;
    a->snd_wnd = a->max_window = 4u << 20;
    a->srtt_us = 8000; /* 8 x 1 ms */
    tcp_update_pacing_rate(a);
    th_run_to(tb, T0);
    return tb;
}

/* Slow start (ssthresh infinite): rate = 2 x 20 x 1448 B / 1 ms = 57 920 000 B/s (463.36
 * Mbit/s), so one MSS takes 1448 x 8 / 463.36e6 s = 25 000 ns. Skbs 1-10 go at T (the first 10
 * segments are not paced; the 10th already moves the departure time to T + 25 us), skb k > 10
 * at T + (k - 10) x 25 000 ns, each from the pacing timer. */
static void test_pacing_slow_start(void)
{
    Rec r;
    TcpBench *tb = bench(true, TCP_INFINITE_SSTHRESH, &r);
    g_assert_cmpuint(tb->a->pacing_rate, ==, 57920000u);
    th_write(tb->a, 20 * MSS);
    g_assert_cmpuint(r.n, ==, 10);
    g_assert_true(sim_event_pending(&tb->a->pacing_timer));
    g_assert_cmpint(sim_event_time(&tb->a->pacing_timer), ==, T0 + 25000);
    th_run_to(tb, T0 + SIM_MS);
    g_assert_cmpuint(r.n, ==, 20);
    for (uint32_t i = 0; i < r.n; i++) {
        g_assert_cmpuint(r.len[i], ==, MSS);
        sim_time_t want = i < 10 ? T0 : T0 + (sim_time_t)(i - 9) * 25000;
        g_assert_cmpint(r.t[i], ==, want);
    }
    for (uint32_t i = 10; i < r.n; i++)
        g_assert_cmpint(r.t[i] - r.t[i - 1], ==, 25000); /* len x 8 / rate, exact */
    g_assert_cmpuint(tb->a->data_segs_out, ==, 20);
    g_assert_cmpuint(tb->a->write_queue.qlen, ==, 0);
    th_free(tb);
}

/* Congestion avoidance (ssthresh 20, cwnd 20 >= ssthresh / 2): rate = 1.2 x 20 x 1448 B / 1 ms
 * = 34 752 000 B/s; one MSS = 1448e9 / 34 752 000 = 41 666.67 -> 41 666 ns (integer ns). */
static void test_pacing_congestion_avoidance(void)
{
    Rec r;
    TcpBench *tb = bench(true, 20, &r);
    g_assert_cmpuint(tb->a->pacing_rate, ==, 34752000u);
    th_write(tb->a, 20 * MSS);
    g_assert_cmpuint(r.n, ==, 10);
    th_run_to(tb, T0 + SIM_MS);
    g_assert_cmpuint(r.n, ==, 20);
    for (uint32_t i = 0; i < 10; i++)
        g_assert_cmpint(r.t[i], ==, T0);
    for (uint32_t i = 10; i < r.n; i++)
        g_assert_cmpint(r.t[i] - r.t[i - 1], ==, 41666);
    g_assert_cmpint(r.t[19], ==, T0 + 10 * 41666);
    th_free(tb);
}

/* Pacing off (the default): the same 20 skbs leave at T, back to back, and no timer is armed;
 * tcp_wstamp_ns only catches up with the clock (__tcp_transmit_skb), it does not advance. */
static void test_pacing_off_back_to_back(void)
{
    Rec r;
    TcpBench *tb = bench(false, TCP_INFINITE_SSTHRESH, &r);
    g_assert_cmpuint(tb->a->pacing_rate, ==, 57920000u); /* computed, not enforced */
    th_write(tb->a, 20 * MSS);
    g_assert_cmpuint(r.n, ==, 20);
    for (uint32_t i = 0; i < r.n; i++)
        g_assert_cmpint(r.t[i], ==, T0);
    g_assert_false(sim_event_pending(&tb->a->pacing_timer));
    g_assert_cmpint(tb->a->tcp_wstamp_ns, ==, T0);
    th_free(tb);
}

/* The set-up of the two tests below: a paced flow sends its first 10 of 20 MSS at T0, its owner
 * takes the socket, and the pacing timer (due at T + 25 us) fires meanwhile; at T + 30 us
 * nothing more has left. */
static TcpBench *owned_when_the_timer_fires(Rec *r)
{
    TcpBench *tb = bench(true, TCP_INFINITE_SSTHRESH, r);
    th_write(tb->a, 20 * MSS);
    g_assert_cmpuint(r->n, ==, 10);
    tcp_sk(tb->a)->owned = true;
    th_run_to(tb, T0 + 30000);
    g_assert_cmpuint(r->n, ==, 10);
    return tb;
}

/* The pacing timer firing while the owner holds the socket only sets TCP_TSQ_DEFERRED (the TSQ
 * handler, as tcp_pace_kick -> tcp_tsq_handler); tcp_release_cb then sends the next skb. */
static void test_pacing_deferred_while_owned(void)
{
    Rec r;
    TcpBench *tb = owned_when_the_timer_fires(&r);
    g_assert_true(tb->a->tsq_flags & TCPF_TSQ_DEFERRED);
    tcp_sk(tb->a)->ops->release_cb(tcp_sk(tb->a), NULL);
    tcp_sk(tb->a)->owned = false;
    g_assert_cmpuint(r.n, ==, 11);
    g_assert_cmpint(r.t[10], ==, T0 + 30000);
    /* 5 us late: credit min(25 000 / 2, 5 000) -> the next one 20 000 ns later */
    g_assert_cmpint(sim_event_time(&tb->a->pacing_timer), ==, T0 + 50000);
    th_free(tb);
}

/* A pure ACK also catches tcp_wstamp_ns up with the clock (6.6 __tcp_transmit_skb does it for
 * every skb, then __tcp_send_ack's skb leaves with that departure time): as above, the pacing
 * timer fires at T + 25 us while the owner holds the socket, but at T + 30 us the socket sends
 * a pure ACK (its clock refreshed by the segment it answers, as tcp_rcv_established does)
 * before tcp_release_cb sends skb 11. That skb then finds no lateness left to credit: the next
 * departure is a full 25 000 ns later, T + 55 us, not T + 50 us. */
static void test_pacing_pure_ack_uses_up_the_credit(void)
{
    Rec r;
    TcpBench *tb = owned_when_the_timer_fires(&r);
    tb->a->tcp_mstamp = sim_now(tb->sim);
    tcp_send_ack(tb->a, NULL);
    g_assert_cmpuint(r.n, ==, 11);
    g_assert_cmpuint(r.len[10], ==, 0); /* the pure ACK */
    g_assert_cmpint(tb->a->tcp_wstamp_ns, ==, T0 + 30000);
    tcp_sk(tb->a)->ops->release_cb(tcp_sk(tb->a), NULL);
    tcp_sk(tb->a)->owned = false;
    g_assert_cmpuint(r.n, ==, 12);
    g_assert_cmpuint(r.len[11], ==, MSS);
    g_assert_cmpint(r.t[11], ==, T0 + 30000);
    g_assert_cmpint(sim_event_time(&tb->a->pacing_timer), ==, T0 + 55000);
    g_assert_cmpuint(tb->a->data_segs_out, ==, 11); /* the ACK is not a data segment */
    th_free(tb);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/tcp/pacing/slow-start", test_pacing_slow_start);
    g_test_add_func("/tcp/pacing/congestion-avoidance", test_pacing_congestion_avoidance);
    g_test_add_func("/tcp/pacing/off", test_pacing_off_back_to_back);
    g_test_add_func("/tcp/pacing/deferred-owned", test_pacing_deferred_while_owned);
    g_test_add_func("/tcp/pacing/pure-ack-uses-up-the-credit", test_pacing_pure_ack_uses_up_the_credit);
    return g_test_run();
}
