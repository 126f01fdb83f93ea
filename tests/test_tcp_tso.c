/* test_tcp_tso.c - how much payload one TSO skb may carry (notes H.E.2).
 *
 * Kernel facts used: sk_setup_caps() sets sk->sk_gso_max_size = dev->gso_max_size (65536,
 * GSO_LEGACY_MAX_SIZE) - (MAX_TCP_HEADER + 1) ("net: Adjust sk_gso_max_size once when set",
 * David Ahern, Jan 2022; before it tcp_xmit_size_goal() and tcp_tso_autosize() subtracted the
 * same 1 + MAX_TCP_HEADER themselves). tcp_xmit_size_goal() then takes sk_gso_max_size / mss_now
 * segments and tcp_tso_autosize() caps its bytes at sk_gso_max_size. With MAX_TCP_HEADER 320
 * that is 65215 bytes: 15 x 4096 = 61440 at MSS 4096, never 16 x 4096 = 65536 (which would
 * not fit an IPv4 total length either), and 45 x 1448 = 65160 at MSS 1448 as before.
 *
 * Bench: cwnd 100 and a 4 MiB peer window (white-box), no RTT yet (no pacing rate: the rate
 * term is unlimited), the device holds what is sent. A 1 MiB write sends its first skb at once
 * (the first skb is never throttled by TSQ). */
#include "tcp_harness.h"

/* The first skb a 1 MiB write sends (th_connect's hook captures it in tb->out[0]). */
static void check_first_tso_skb(uint32_t mtu, uint32_t mss, uint32_t segs)
{
    TcpBench *tb = th_new();
    th_connect(tb, mtu);
    g_assert_cmpuint(tb->a->mss_cache, ==, mss);
    tb->a->snd_cwnd = 100;
    tb->a->snd_wnd = tb->a->max_window = 4u << 20;
    th_write(tb->a, 1u << 20);
    g_assert_cmpuint(th_pending(tb, 0), >=, 1);
    const Skb *skb = tb->out[0].head;
    g_assert_cmpuint(skb->len, ==, segs * mss);
    g_assert_cmpuint(skb->gso_segs, ==, segs);
    th_free(tb);
}

/* MTU 4148 (MSS 4096 with timestamps), the 133c4c0d3717 and seed-000 setup: 15 segments. */
static void test_tso_mss4096_fifteen_segments(void)
{
    check_first_tso_skb(4148, 4096, 15);
}

/* MTU 1500 (MSS 1448): 65215 / 1448 = 45 segments, the same as 65536 / 1448. */
static void test_tso_mss1448_unchanged(void)
{
    check_first_tso_skb(1500, 1448, 45);
}

/* Nagle with Minshall's variant over TSO skbs (tcp_minshall_update: a sent skb shorter than
 * pcount * mss_now ended in a small segment). A 1449-byte write at MSS 1448 leaves as one
 * 2-segment skb whose last segment carries 1 byte: a small segment is now unacknowledged. The
 * next 1449-byte write may send its full MSS but must hold its 1-byte tail
 * (tcp_mss_split_point -> tcp_nagle_check) until that small segment is acknowledged. Testing
 * skb->len < mss_now instead never sees the first skb as small, and every write's tail leaves
 * at once (725 bytes per segment on average with 1449-byte writes). */
static void test_nagle_minshall_tso_tail(void)
{
    TcpBench *tb = th_new();
    th_connect(tb, 1500);
    tb->a->snd_cwnd = 100;
    tb->a->snd_wnd = tb->a->max_window = 4u << 20;
    th_write(tb->a, 1449);
    g_assert_cmpuint(th_pending(tb, 0), ==, 1);
    g_assert_cmpuint(tb->out[0].head->len, ==, 1449);
    th_write(tb->a, 1449);
    g_assert_cmpuint(th_pending(tb, 0), ==, 2);
    g_assert_cmpuint(tb->out[0].tail->len, ==, 1448);
    g_assert_cmpuint(tb->a->write_queue.bytes, ==, 1);
    th_free(tb);
}

/* Nagle holds back only the write queue's last skb (tcp_write_xmit passes TCP_NAGLE_PUSH for
 * the others). With a 100-byte segment unacknowledged, two 100-byte skbs queued one after the
 * other: the first goes, the second (the tail) waits. */
static void test_nagle_holds_only_the_tail(void)
{
    TcpBench *tb = th_new();
    th_connect(tb, 1500);
    tb->a->snd_cwnd = 100;
    tb->a->snd_wnd = tb->a->max_window = 4u << 20;
    th_write(tb->a, 100);
    g_assert_cmpuint(th_pending(tb, 0), ==, 1); /* nothing in flight: Nagle lets it go */
    for (int i = 0; i < 2; i++) {
        Skb *skb = tcp_entail_new_skb(tb->a, NULL);
        tcp_skb_fill(tb->a, skb, 100);
    }
    tcp_push_pending_frames(tb->a, NULL);
    g_assert_cmpuint(th_pending(tb, 0), ==, 2);
    g_assert_cmpuint(tb->out[0].tail->len, ==, 100);
    g_assert_cmpuint(tb->a->write_queue.qlen, ==, 1);
    th_free(tb);
}

/* hosts.H.tcp.tso_split_nagle. A 4444-byte write at MSS 1448 (3 MSS + 100 bytes) with nothing
 * in flight: Nagle would not hold its 100-byte tail (no packets out), so since late 2014
 * tcp_mss_split_point returns the whole skb and one 4-segment TSO skb leaves. Before, the split
 * point is 3 x 1448 = 4344: tcp_fragment cuts the tail off, the 4344 bytes leave, and the
 * 100-byte skb follows as a second transmission (Minshall's check passes: no small segment was
 * sent yet). Returns the skbs transmitted. */
static uint32_t skbs_for_tail_write(bool split_nagle)
{
    TcpBench *tb = th_new();
    tb->conf[0].tcp.tso_split_nagle = split_nagle;
    th_connect(tb, 1500);
    tb->a->snd_cwnd = 100;
    tb->a->snd_wnd = tb->a->max_window = 4u << 20;
    th_write(tb->a, 4444);
    uint32_t n = th_pending(tb, 0);
    g_assert_cmpuint(tb->out[0].head->len, ==, split_nagle ? 4444 : 4344);
    g_assert_cmpuint(tb->out[0].tail->len, ==, split_nagle ? 4444 : 100);
    g_assert_cmpuint(tb->a->write_queue.qlen, ==, 0);
    th_free(tb);
    return n;
}

static void test_split_point_nagle_era(void)
{
    g_assert_cmpuint(skbs_for_tail_write(true), ==, 1);
    g_assert_cmpuint(skbs_for_tail_write(false), ==, 2);
}

/* TSO deferral (hosts.H.tcp.tso_defer). 10 MSS in flight, then the peer's window is cut so that
 * 2 MSS more may go while a 20-MSS skb waits: 2896 bytes is under a third of the window
 * (17376 / 3 = 5792) and under a full TSO skb, and the skb is the queue's tail, so a deferring
 * sender holds it (receive-window limited; no srtt yet, so an ACK counts as due). Without
 * deferral the 2 MSS go at once. Returns the bench at 1 ms with the skb written. */
static TcpBench *defer_bench(TcpTsoDefer mode)
{
    TcpBench *tb = th_new();
    tb->conf[0].tcp.tso_defer = mode;
    th_connect(tb, 1500);
    tb->a->snd_cwnd = 100;
    tb->a->snd_wnd = tb->a->max_window = 4u << 20;
    th_run_to(tb, SIM_MS);
    th_write(tb->a, 10 * 1448);
    g_assert_cmpuint(th_pending(tb, 0), ==, 1); /* nothing was in flight: never deferred */
    tb->a->snd_wnd = 12 * 1448;
    th_write(tb->a, 20 * 1448);
    return tb;
}

static void test_tso_defer_off_sends_the_opening(void)
{
    TcpBench *tb = defer_bench(TCP_TSO_DEFER_OFF);
    g_assert_cmpuint(th_pending(tb, 0), ==, 2);
    g_assert_cmpuint(tb->out[0].tail->len, ==, 2 * 1448);
    th_free(tb);
}

/* 4.x-6.x: held while the last write is under 1 ms old; a push 1.5 ms later sends it. */
static void test_tso_defer_4x(void)
{
    TcpBench *tb = defer_bench(TCP_TSO_DEFER_4X);
    g_assert_cmpuint(th_pending(tb, 0), ==, 1);
    th_run_to(tb, SIM_MS + 900 * SIM_US);
    tcp_push_pending_frames(tb->a, NULL);
    g_assert_cmpuint(th_pending(tb, 0), ==, 1);
    th_run_to(tb, SIM_MS + 1500 * SIM_US);
    tcp_push_pending_frames(tb->a, NULL);
    g_assert_cmpuint(th_pending(tb, 0), ==, 2);
    g_assert_cmpuint(tb->out[0].tail->len, ==, 2 * 1448);
    th_free(tb);
}

/* 4.x-6.x: the ACK counts as due when it is expected within min(srtt/2, 1 ms), not srtt/2 alone.
 * srtt 10 ms; the rtx head left 6 ms ago and a segment 0.5 ms ago (so the last write is recent):
 * the head's ACK is expected in 4 ms, more than 1 ms away, so the 2 MSS go at once (an srtt/2
 * threshold of 5 ms would hold them). */
static void test_tso_defer_4x_ack_due_within_a_ms(void)
{
    TcpBench *tb = th_new();
    tb->conf[0].tcp.tso_defer = TCP_TSO_DEFER_4X;
    th_connect(tb, 1500);
    tb->a->snd_cwnd = 100;
    tb->a->snd_wnd = tb->a->max_window = 4u << 20;
    tb->a->srtt_us = 10000u << 3;
    th_run_to(tb, SIM_MS);
    th_write(tb->a, 10 * 1448);
    th_run_to(tb, SIM_MS + 5500 * SIM_US);
    th_write(tb->a, 1448);
    g_assert_cmpuint(th_pending(tb, 0), ==, 2);
    th_run_to(tb, SIM_MS + 6 * SIM_MS);
    tb->a->snd_wnd = 13 * 1448;
    th_write(tb->a, 20 * 1448);
    g_assert_cmpuint(th_pending(tb, 0), ==, 3);
    g_assert_cmpuint(tb->out[0].tail->len, ==, 2 * 1448);
    th_free(tb);
}

/* 2.6-3.x: held for at most two jiffies from the first deferral (jiffy 1): still held at
 * jiffy 2, sent at jiffy 3. */
static void test_tso_defer_3x(void)
{
    TcpBench *tb = defer_bench(TCP_TSO_DEFER_3X);
    g_assert_cmpuint(th_pending(tb, 0), ==, 1);
    th_run_to(tb, 2 * SIM_MS);
    tcp_push_pending_frames(tb->a, NULL);
    g_assert_cmpuint(th_pending(tb, 0), ==, 1);
    th_run_to(tb, 3 * SIM_MS);
    tcp_push_pending_frames(tb->a, NULL);
    g_assert_cmpuint(th_pending(tb, 0), ==, 2);
    th_free(tb);
}

/* A 3.x deferral for want of cwnd marks the flow cwnd-limited (e114a710aa50, 3.16), so that the
 * tracked test (tcp.cwnd_limited: tracked) lets the ACKs grow a cwnd the deferral keeps from
 * filling. cwnd 12 with 10 MSS in flight and a large peer window: 2 MSS of cwnd left, under a
 * third of cwnd (12 * 1448 / 3 = 5792) and under the 20-MSS tail skb, so it waits, and the flow
 * is marked. Held by the peer's window instead (defer_bench: cwnd 100), it is not. */
static void test_tso_defer_3x_marks_cwnd_limited(void)
{
    TcpBench *tb = th_new();
    tb->conf[0].tcp.tso_defer = TCP_TSO_DEFER_3X;
    tb->conf[0].tcp.tso_half_cwnd = false; /* the 3.x cwnd test: the 10 MSS go as one skb */
    th_connect(tb, 1500);
    tb->a->snd_cwnd = 12;
    tb->a->snd_wnd = tb->a->max_window = 4u << 20;
    th_run_to(tb, SIM_MS);
    th_write(tb->a, 10 * 1448);
    g_assert_cmpuint(th_pending(tb, 0), ==, 1);
    tb->a->is_cwnd_limited = false;
    th_write(tb->a, 20 * 1448);
    g_assert_cmpuint(th_pending(tb, 0), ==, 1); /* deferred */
    g_assert_true(tb->a->is_cwnd_limited);
    th_free(tb);

    tb = defer_bench(TCP_TSO_DEFER_3X);
    g_assert_cmpuint(th_pending(tb, 0), ==, 1); /* deferred by the peer's window */
    g_assert_false(tb->a->is_cwnd_limited);
    th_free(tb);
}

/* hosts.H.tcp.tso_half_cwnd. cwnd 20, a 20-MSS write, nothing in flight, a large peer window:
 * since "tcp: limit GSO packets to half cwnd" (2015) tcp_cwnd_test() gives one skb at most
 * cwnd / 2 = 10 segments, so two skbs of 10 leave; 2.6-3.x tcp_cwnd_test() returned
 * cwnd - in_flight = 20 and one 20-segment skb left (under the 45-segment size goal).
 * No RTT yet: TSO autosizing's rate term is unlimited, so only the cwnd splits the write. */
static void first_skbs(bool half, uint32_t *n, uint32_t *first_segs)
{
    TcpBench *tb = th_new();
    tb->conf[0].tcp.tso_half_cwnd = half;
    tb->conf[0].tcp.tso_defer = TCP_TSO_DEFER_OFF;
    th_connect(tb, 1500);
    tb->a->snd_cwnd = 20;
    tb->a->snd_wnd = tb->a->max_window = 4u << 20;
    th_write(tb->a, 20 * tb->a->mss_cache);
    *n = th_pending(tb, 0);
    *first_segs = tb->out[0].head->gso_segs;
    g_assert_cmpuint(tb->a->packets_out, ==, 20);
    th_free(tb);
}

static void test_tso_half_cwnd(void)
{
    uint32_t n, segs;
    first_skbs(true, &n, &segs);
    g_assert_cmpuint(n, ==, 2);
    g_assert_cmpuint(segs, ==, 10);
    first_skbs(false, &n, &segs);
    g_assert_cmpuint(n, ==, 1);
    g_assert_cmpuint(segs, ==, 20);
}

/* The handshake's RTT sample sets the min RTT and the pacing rate before any data (6.6: the
 * client's tcp_ack of the SYN-ACK runs tcp_ack_update_rtt and ends in tcp_update_pacing_rate;
 * the server calls tcp_update_pacing_rate on entering ESTABLISHED), so the initial window is
 * autosized. RTT 10 ms, cwnd 10, MSS 1448: rate = 2 x 10 x 1448 B / 10 ms = 2 896 000 B/s,
 * >> 10 = 2828 bytes = 1 MSS; the min-RTT bonus 65215 >> (10000 >> 9 = 19) = 0; so
 * tcp_min_tso_segs = 2 MSS per skb: 5 skbs of 2896 bytes. With the rate unset (unlimited) the
 * same 10 MSS would leave as 2 skbs of 5 MSS (half the cwnd each). At RTT 100 us the rate is
 * 289.6 MB/s (282 812 bytes per ms): 5-MSS skbs again, half the cwnd binding. */
static void check_initial_window(uint32_t rtt_us, uint32_t want_segs)
{
    TcpBench *tb = th_new();
    th_connect(tb, 1500);
    tcp_handshake_rtt(tb->a, tb->b, rtt_us);
    g_assert_cmpuint(tb->a->min_rtt_us, ==, rtt_us);
    g_assert_cmpuint(tb->b->min_rtt_us, ==, rtt_us);
    g_assert_cmpuint(tb->a->snd_cwnd, ==, 10);
    g_assert_cmpuint(tb->a->pacing_rate, ==, 2ull * 10 * 1448 * 1000000 / rtt_us);
    g_assert_cmpuint(tb->b->pacing_rate, ==, tb->a->pacing_rate);
    th_write(tb->a, 10 * 1448);
    g_assert_cmpuint(th_pending(tb, 0), ==, 10 / want_segs);
    for (const Skb *skb = tb->out[0].head; skb; skb = skb->next) {
        g_assert_cmpuint(skb->len, ==, want_segs * 1448);
        g_assert_cmpuint(skb->gso_segs, ==, want_segs);
    }
    th_free(tb);
}

static void test_tso_initial_window_autosized(void)
{
    check_initial_window(10000, 2);
    check_initial_window(100, 5);
}

/* sendmsg fills skbs to the full size goal whatever the pacing rate (tcp_xmit_size_goal since
 * "tcp: refine TSO autosizing", 605ad7f184b6, 3.19: "tcp_tso_autosize() will eventually split
 * this later"); tcp_write_xmit cuts them to tcp_tso_autosize() when they leave. MSS 1448, a 4
 * MiB peer window, cwnd 10 and SRTT 10 ms: rate 2 x 10 x 1448 B / 10 ms -> 2 MSS per TSO skb.
 * A write of 100 MSS queues skbs of 45, 45 and 10 MSS (65215 / 1448 = 45); the first 10 MSS
 * leave as five 2-MSS pieces of the first one. Then the flow speeds up (cwnd 100, SRTT 100 us:
 * 289.6 MB/s, full-sized TSO skbs): the rest leaves as 35 MSS (the first skb's remainder), 45
 * (min(cwnd quota 50 = half the cwnd, 45 autosized)) and 10. Had sendmsg sized its skbs with
 * the rate it saw then (3.12-3.18), all 90 would be stuck in 2-MSS skbs. */
static void test_tso_size_goal_ignores_the_rate(void)
{
    TcpBench *tb = th_new();
    th_connect(tb, 1500);
    TcpSock *a = tb->a;
    a->snd_wnd = a->max_window = 4u << 20;
    a->snd_cwnd = 10;
    a->srtt_us = 8 * 10000;
    tcp_update_pacing_rate(a);
    uint32_t size_goal;
    tcp_send_mss(a, &size_goal);
    g_assert_cmpuint(size_goal, ==, 45 * 1448);
    g_assert_cmpuint(tcp_tso_autosize(a, 1448), ==, 2);
    th_write(a, 100 * 1448);
    g_assert_cmpuint(th_pending(tb, 0), ==, 5);
    while (th_pending(tb, 0)) {
        Skb *skb = th_take(tb, 0);
        g_assert_cmpuint(skb->len, ==, 2 * 1448);
        skb_free(tb->host[0].pool, skb);
    }
    g_assert_cmpuint(a->write_queue.qlen, ==, 3);
    a->snd_cwnd = 100;
    a->srtt_us = 8 * 100;
    tcp_update_pacing_rate(a);
    g_assert_cmpuint(tcp_tso_autosize(a, 1448), ==, 45);
    tcp_push_pending_frames(a, NULL);
    static const uint32_t want[] = { 35, 45, 10 };
    g_assert_cmpuint(th_pending(tb, 0), ==, 3);
    for (unsigned i = 0; i < 3; i++) {
        Skb *skb = th_take(tb, 0);
        g_assert_cmpuint(skb->len, ==, want[i] * 1448);
        g_assert_cmpuint(skb->gso_segs, ==, want[i]);
        skb_free(tb->host[0].pool, skb);
    }
    g_assert_cmpuint(a->write_queue.qlen, ==, 0);
    th_free(tb);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/tcp/tso/mss4096-fifteen-segments", test_tso_mss4096_fifteen_segments);
    g_test_add_func("/tcp/tso/mss1448-unchanged", test_tso_mss1448_unchanged);
    g_test_add_func("/tcp/tso/nagle-minshall-tso-tail", test_nagle_minshall_tso_tail);
    g_test_add_func("/tcp/tso/nagle-holds-only-the-tail", test_nagle_holds_only_the_tail);
    g_test_add_func("/tcp/tso/split-point-nagle-era", test_split_point_nagle_era);
    g_test_add_func("/tcp/tso/defer-off-sends-the-opening", test_tso_defer_off_sends_the_opening);
    g_test_add_func("/tcp/tso/defer-4x", test_tso_defer_4x);
    g_test_add_func("/tcp/tso/defer-4x-ack-due-within-a-ms", test_tso_defer_4x_ack_due_within_a_ms);
    g_test_add_func("/tcp/tso/defer-3x", test_tso_defer_3x);
    g_test_add_func("/tcp/tso/defer-3x-marks-cwnd-limited", test_tso_defer_3x_marks_cwnd_limited);
    g_test_add_func("/tcp/tso/half-cwnd", test_tso_half_cwnd);
    g_test_add_func("/tcp/tso/initial-window-autosized", test_tso_initial_window_autosized);
    g_test_add_func("/tcp/tso/size-goal-ignores-the-rate", test_tso_size_goal_ignores_the_rate);
    return g_test_run();
}
