/* test_tcp_rcvbuf.c - receive-side RTT from timestamps and receive-buffer autotuning
 * (tcp_rcv_rtt_measure_ts, tcp_rcv_space_adjust; notes B.4 host). */
#include "tcp_harness.h"

/* At 0 a sends one MSS; b's quick ACK (TSval 1) reaches a at once, so a echoes 1. At 5 ms a
 * full segment echoing TSecr 1 gives b its first sample: (5 + 1) - 1 = 5 ms -> rcv_rtt_us =
 * 8 x 5000 = 40000; b's ACKs at 5 ms (TSval 6) make a echo 6, and the next new TSecr gives a
 * sample of 6 - 6 = 0 -> 1 ms (the minimum): 40000 + (1000 - 40000/8) = 36000 (4.5 ms).
 * b's reader then takes 80 MSS = 115840 bytes within that RTT. At 11 ms (>= 4.5 ms after the
 * last measurement at 0) tcp_rcv_space_adjust sees copied 115840 > space 65535 (the initial window):
 *   rcvwin = 2 x 115840 + 16 x advmss 1460 = 255040
 *   grow   = 255040 x (115840 - 65535) / 65535 = 195770 (integer: 12829787200 / 65535)
 *   rcvwin += 2 x grow -> 646580; rcvbuf = 2 x rcvwin (adv_win_scale 1) = 1293160 < 6 MiB
 *   window_clamp = win_from_space(1293160) = 646580; space = 115840. */
static void test_rcvbuf_autotune(void)
{
    TcpBench *tb = th_new();
    th_connect(tb, 1500);
    TcpSock *b = tb->b;
    g_assert_cmpuint(b->rcvq_space.space, ==, 65535);
    th_write(tb->a, 1448);
    th_pump(tb);
    th_read(b);
    g_assert_cmpuint(tb->a->ts_recent, ==, 1);
    th_run_to(tb, 5 * SIM_MS);
    for (int i = 0; i < 8; i++) { /* 8 rounds of 10 MSS = 80 MSS, read as they come */
        th_write(tb->a, 10 * 1448);
        th_pump(tb);
        th_read(b);
    }
    g_assert_cmpuint(b->rcv_rtt_us, ==, 36000);
    g_assert_cmpuint(b->copied_seq - b->rcvq_space.seq, ==, 1448 + 80 * 1448);
    /* the first MSS (at 0) was read before the measurement window starts: exclude it */
    b->rcvq_space.seq += 1448;
    th_run_to(tb, 11 * SIM_MS);
    tcp_rcv_space_adjust(b);
    g_assert_cmpuint(tcp_sk(b)->rcvbuf, ==, 1293160);
    g_assert_cmpuint(b->window_clamp, ==, 646580);
    g_assert_cmpuint(b->rcvq_space.space, ==, 115840);
    /* within the next 4.5 ms nothing changes */
    th_run_to(tb, 15 * SIM_MS);
    tcp_rcv_space_adjust(b);
    g_assert_cmpuint(tcp_sk(b)->rcvbuf, ==, 1293160);
    th_free(tb);
}

/* Autotuning off (hosts.H.tcp.rcvbuf_autotune: false, a locked SO_RCVBUF): nothing grows. */
static void test_rcvbuf_fixed(void)
{
    TcpBench *tb = th_new();
    tb->conf[1].tcp.rcvbuf_autotune = false;
    th_connect(tb, 1500);
    th_write(tb->a, 1448);
    th_pump(tb);
    th_run_to(tb, 5 * SIM_MS);
    for (int i = 0; i < 8; i++) {
        th_write(tb->a, 10 * 1448);
        th_pump(tb);
        th_read(tb->b);
    }
    th_run_to(tb, 11 * SIM_MS);
    tcp_rcv_space_adjust(tb->b);
    g_assert_cmpuint(tcp_sk(tb->b)->rcvbuf, ==, 131072);
    th_free(tb);
}

/* tcp_grow_window's slow path (__tcp_grow_window): a 200-byte segment with truesize 1280 + 200
 * = 1480 has win_from_space(1480) = 740 > 200, so its growth is decided by halving: against
 * window = win_from_space(tcp_rmem[2] 6 MiB) / 2 = 1572864 > rcv_ssthresh 65535, truesize
 * 740 / 2 = 370 > 200, then 185 <= 200 -> 2 x rcv_mss (536, the initial estimate) = 1072 >
 * 2 x 200: rcv_ssthresh 65535 + 1072 = 66607 (room is ample in a 1 MiB buffer). With
 * tcp_rmem[2] = 4608 the window side is 1152 < rcv_ssthresh: no growth. */
static void test_grow_window_slow_path(void)
{
    for (int small_max = 0; small_max < 2; small_max++) {
        TcpBench *tb = th_new();
        tb->conf[1].tcp.rcvbuf = 1 << 20;
        if (small_max)
            tb->conf[1].tcp.rcvbuf_max = 4608;
        th_connect(tb, 1500);
        g_assert_cmpuint(tb->b->rcv_ssthresh, ==, 65535);
        th_write(tb->a, 200);
        th_deliver(tb, 0);
        g_assert_cmpuint(tb->b->rcv_ssthresh, ==, (small_max ? 65535u : 66607u));
        th_free(tb);
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/tcp/rcvbuf/autotune", test_rcvbuf_autotune);
    g_test_add_func("/tcp/rcvbuf/fixed", test_rcvbuf_fixed);
    g_test_add_func("/tcp/rcvbuf/grow-window-slow-path", test_grow_window_slow_path);
    return g_test_run();
}
