/* test_tcp_rcvbuf.c - receive-side RTT (from timestamps and, 6.16+, from the window) and
 * receive-buffer autotuning (tcp_rcv_rtt_measure_ts, tcp_rcv_space_adjust; notes B.4 host). */
#include "tcp_harness.h"

/* At 0 a sends one MSS; b's quick ACK (TSval 1) reaches a at once, so a echoes 1. At 5 ms a
 * full segment echoing TSecr 1 gives b its first sample: (5 + 1) - 1 = 5 ms -> rcv_rtt_us =
 * 8 x 5000 = 40000; b's ACKs at 5 ms (TSval 6) make a echo 6, and the next new TSecr gives a
 * sample of 6 - 6 = 0 -> 1 ms (the minimum): 40000 + (1000 - 40000/8) = 36000 (4.5 ms).
 * b's reader then takes 40 MSS = 57920 bytes within that RTT: less than the window the
 * window-based measure started with at 5 ms, so that measure does not end (a burst passing it
 * within one instant would give a 1 us sample). At 11 ms (>= 4.5 ms after the last measurement
 * at 0) tcp_rcv_space_adjust compares copied 57920 with space. Until 4.19 space starts at the
 * first window, 65160 (b is the passive side: 65536 of space rounded down to 45 x 1448, the MSS
 * less the timestamp option, by tcp_select_initial_window): nothing grows. From 4.20 (tcp_init_buffer_space: min3(rcv_ssthresh,
 * rcv_wnd, 10 x advmss)) it starts at 10 x 1448 = 14480 (advmss is 1500 - 40 less the 12-byte
 * timestamp option, taken off when timestamps are negotiated: tcp_rcv_synsent_state_process /
 * tcp_rcv_state_process):
 *   rcvwin = 2 x 57920 + 16 x advmss 1448 = 139008
 *   grow   = 139008 x (57920 - 14480) / 14480 = 417024 (exact: the reader took 4 x space,
 *            the 40 MSS being 4 x the 10 MSS of space)
 *   rcvwin += 2 x grow -> 973056 = 672 segments of 1448, each given rcvmem 2984 bytes of buffer
 *            (SKB_TRUESIZE(1448 + MAX_TCP_HEADER 320) = 2344, raised by 128 until half of it
 *            holds an MSS; 3.13-6.4 count the buffer in whole segments):
 *   rcvbuf = 672 x 2984 = 2005248 < 6 MiB, window_clamp = win_from_space(2005248) = 1002624;
 *   space = 57920. */
static void rcvbuf_autotune_in(TcpWinScaling w, TcpRcvqSpaceInit init, TcpRcvAutotune mode,
                               uint32_t space0, uint32_t rcvbuf, uint32_t clamp, uint32_t space1)
{
    TcpBench *tb = th_new();
    tb->conf[1].tcp.win_scaling = w;
    tb->conf[1].tcp.rcvq_space_init = init;
    tb->conf[1].tcp.rcv_autotune = mode;
    th_connect(tb, 1500);
    TcpSock *b = tb->b;
    g_assert_cmpuint(b->rcvq_space.space, ==, space0);
    th_write(tb->a, 1448);
    th_pump(tb);
    th_read(b);
    g_assert_cmpuint(tb->a->ts_recent, ==, 1);
    th_run_to(tb, 5 * SIM_MS);
    for (int i = 0; i < 4; i++) { /* 4 rounds of 10 MSS = 40 MSS, read as they come */
        th_write(tb->a, 10 * 1448);
        th_pump(tb);
        th_read(b);
    }
    g_assert_cmpuint(b->rcv_rtt_us, ==, 36000);
    g_assert_cmpuint(b->copied_seq - b->rcvq_space.seq, ==, 1448 + 40 * 1448);
    /* the first MSS (at 0) was read before the measurement window starts: exclude it */
    b->rcvq_space.seq += 1448;
    th_run_to(tb, 11 * SIM_MS);
    tcp_rcv_space_adjust(b);
    g_assert_cmpuint(tcp_sk(b)->rcvbuf, ==, rcvbuf);
    g_assert_cmpuint(b->window_clamp, ==, clamp);
    g_assert_cmpuint(b->rcvq_space.space, ==, space1);
    /* within the next 4.5 ms nothing changes */
    th_run_to(tb, 15 * SIM_MS);
    tcp_rcv_space_adjust(b);
    g_assert_cmpuint(tcp_sk(b)->rcvbuf, ==, rcvbuf);
    th_free(tb);
}

static void rcvbuf_autotune(TcpRcvqSpaceInit init, TcpRcvAutotune mode, uint32_t space0,
                            uint32_t rcvbuf, uint32_t clamp, uint32_t space1)
{
    rcvbuf_autotune_in(TCP_WIN_ADV_WIN_SCALE_1, init, mode, space0, rcvbuf, clamp, space1);
}

/* The same reader under 6.5-6.15's legacy autotuning with a measured ratio (6.10's, whose
 * clamp only autotuning moves): the bench hands b each segment with its sender's truesize, the
 * 1280-byte head plus 1448, so the ratio is 1448 x 256 / 2728 = 135 (135.88), and the buffer for
 * the same rcvwin is tcp_space_from_win, no longer whole segments of rcvmem: 973056 x 256 / 135 =
 * 1845202, window_clamp 1845202 x 135 / 256 = 973055. */
static void test_rcvbuf_autotune_ratio(void)
{
    rcvbuf_autotune_in(TCP_WIN_SCALING_RATIO_6_10, TCP_RCVQ_SPACE_INIT_CWND,
                       TCP_RCV_AUTOTUNE_LEGACY, 14480, 1845202, 973055, 57920);
}

static void test_rcvbuf_autotune(void)
{
    rcvbuf_autotune(TCP_RCVQ_SPACE_RCV_WND, TCP_RCV_AUTOTUNE_LEGACY, 65160, 131072, 65536, 65160);
    rcvbuf_autotune(TCP_RCVQ_SPACE_INIT_CWND, TCP_RCV_AUTOTUNE_LEGACY, 14480, 2005248, 1002624,
                    57920);
}

/* 2.6.x-3.12 (hosts.H.tcp.rcv_autotune 3.x; 3.4 tcp_rcv_space_adjust): the reader's 57920
 * bytes in an RTT are doubled and compared with space (the first window, 65160):
 *   space = max(65160, 2 x 57920) = 115840 -> it grew: window_clamp = 115840 and
 *   rcvbuf = 115840 / advmss 1448 (timestamps on) = 80 segments x rcvmem, where rcvmem =
 *   SKB_TRUESIZE(1448 + MAX_TCP_HEADER 320) = 1768 + 576 = 2344 is raised by 128 until its
 *   advertised share covers an MSS (adv_win_scale 1: 1172, 1236, 1300, 1364, 1428, then 1492
 *   at 2984): 80 x 2984 = 238720.
 * 3.13+ compares the 57920 bytes themselves with 65160 and grows nothing (the legacy row above),
 * so a flow that a 64 KB window holds back never opens it. */
static void test_rcvbuf_autotune_3x(void)
{
    rcvbuf_autotune(TCP_RCVQ_SPACE_RCV_WND, TCP_RCV_AUTOTUNE_3X, 65160, 238720, 115840, 115840);
}

/* The first window (tcp_select_initial_window) and what starts from it, over a 1500-byte MTU
 * with timestamps (advmss 1448) and the default 131072-byte buffer, adv_win_scale 1
 * (window_clamp 65536). The space is first rounded down to whole segments of the MSS each side
 * passes: the passive side (b, tcp_openreq_init_rwin) 1448, the MSS less the timestamp option;
 * the active side (a, tcp_connect_init, no timestamp seen yet) 1460. 4.20+ then takes it whole,
 * capped at 65535 unscaled: 45 x 1448 = 65160 and 44 x 1460 = 64240, the windows of a Linux
 * SYN-ACK and SYN; 3.0-4.19 10 segments, 14480 and 14600; 2.6 (RFC 2414) 4 segments, 5792 and
 * 5840. rcv_ssthresh starts there, and so does autotuning's first threshold where
 * rcvq_space_init is rcv_wnd (<= 4.19). */
static void expect_first_window(TcpInitRcvWnd era, uint32_t wnd_b, uint32_t wnd_a)
{
    TcpBench *tb = th_new();
    tb->conf[0].tcp.init_rcv_wnd = era;
    tb->conf[1].tcp.init_rcv_wnd = era;
    tb->conf[1].tcp.rcvq_space_init = TCP_RCVQ_SPACE_RCV_WND;
    th_connect(tb, 1500);
    g_assert_cmpuint(tb->b->advmss, ==, 1448);
    g_assert_cmpuint(tb->b->rcv_wnd, ==, wnd_b);
    g_assert_cmpuint(tb->b->rcv_ssthresh, ==, wnd_b);
    g_assert_cmpuint(tb->b->rcvq_space.space, ==, wnd_b);
    g_assert_cmpuint(tb->b->window_clamp, ==, 65536);
    g_assert_cmpuint(tb->a->rcv_wnd, ==, wnd_a);
    g_assert_cmpuint(tb->a->snd_wnd, ==, wnd_b);
    th_free(tb);
}

static void test_first_window_era(void)
{
    expect_first_window(TCP_INIT_RCV_WND_64K, 65160, 64240);
    expect_first_window(TCP_INIT_RCV_WND_10MSS, 14480, 14600);
    expect_first_window(TCP_INIT_RCV_WND_RFC2414, 5792, 5840);
}

/* A buffer larger than 65535 x 2: the space, rounded down to 1448 (b) and 1460 (a), still
 * passes 65535 and the SYN-ACK and SYN offer the unscaled maximum, not a multiple of the MSS
 * (262144 bytes, adv_win_scale 1: 131072 of space, 131032 = 90 x 1448 and 130940 = 89 x 1460). */
static void test_first_window_large_buffer(void)
{
    TcpBench *tb = th_new();
    tb->conf[0].tcp.rcvbuf = 262144;
    tb->conf[1].tcp.rcvbuf = 262144;
    th_connect(tb, 1500);
    g_assert_cmpuint(tb->b->window_clamp, ==, 131072);
    g_assert_cmpuint(tb->b->rcv_wnd, ==, 65535);
    g_assert_cmpuint(tb->a->rcv_wnd, ==, 65535);
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

/* The send buffer: tcp_sndbuf_expand() at set-up makes it 2 x max(10, cwnd, reordering + 1)
 * x per-MSS truesize = 2 x 10 x (4096 + 256) = 87040 bytes at MTU 1500, and cwnd growth raises
 * it (cwnd 100: 870400). <= 3.18 (tcp.sndbuf_expand 3.x) counts SKB_TRUESIZE(1460 + 320) =
 * 1792 + 256 + 320 = 2368 per segment: 10 x 2368 = 23680 at set-up (tcp_fixup_sndbuf, no
 * doubling), 2 x 100 x 2368 = 473600 at cwnd 100. With SO_SNDBUF (hosts.H.tcp.sndbuf_autotune
 * false, SOCK_SNDBUF_LOCK) it stays at the 20000 bytes set. */
static void expect_sndbuf(bool autotune, TcpSndbufExpand era, uint32_t at_setup, uint32_t grown)
{
    TcpBench *tb = th_new();
    tb->conf[0].tcp.sndbuf = 20000;
    tb->conf[0].tcp.sndbuf_autotune = autotune;
    tb->conf[0].tcp.sndbuf_expand = era;
    th_connect(tb, 1500);
    g_assert_cmpuint(tcp_sk(tb->a)->sndbuf, ==, at_setup);
    tb->a->snd_cwnd = 100;
    tcp_sndbuf_expand(tb->a);
    g_assert_cmpuint(tcp_sk(tb->a)->sndbuf, ==, grown);
    th_free(tb);
}

static void test_sndbuf_lock(void)
{
    expect_sndbuf(true, TCP_SNDBUF_EXPAND_3_19, 87040, 870400);
    expect_sndbuf(false, TCP_SNDBUF_EXPAND_3_19, 20000, 20000);
    expect_sndbuf(true, TCP_SNDBUF_EXPAND_3X, 23680, 473600);
    expect_sndbuf(false, TCP_SNDBUF_EXPAND_3X, 20000, 20000);
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

/* tcp_grow_window's bound (hosts.H.tcp.grow_window). b's buffer is 1 MiB (window_clamp 524288
 * at adv_win_scale 1) and rcv_ssthresh 65535; unread data of truesize 912778 sits queued, so
 * once a 1448-byte segment (truesize 2728) joins it the free space is (1048576 - 915506) / 2 =
 * 66535. Its step is 2 x advmss = 2896 (its truesize, 1364 in window terms, fits its length).
 * 5.1+ stops at the free space: 66535. Before (legacy) rcv_ssthresh was below both the clamp
 * and the free space, so the whole step applies: 68431, past the free space. */
static uint32_t ssthresh_after_segment(TcpGrowWindow era)
{
    TcpBench *tb = th_new();
    tb->conf[1].tcp.rcvbuf = 1 << 20;
    tb->conf[1].tcp.grow_window = era;
    th_connect(tb, 1500);
    g_assert_cmpuint(tb->b->window_clamp, ==, 524288);
    g_assert_cmpuint(tb->b->rcv_ssthresh, ==, 65535);
    tcp_sk(tb->b)->rmem_alloc = 912778;
    th_write(tb->a, 1448);
    th_deliver(tb, 0);
    g_assert_cmpuint(tcp_sk(tb->b)->rmem_alloc, ==, 915506);
    uint32_t ssthresh = tb->b->rcv_ssthresh;
    tcp_sk(tb->b)->rmem_alloc -= 912778;
    th_free(tb);
    return ssthresh;
}

static void test_grow_window_bound(void)
{
    g_assert_cmpuint(ssthresh_after_segment(TCP_GROW_WINDOW_5_1), ==, 66535);
    g_assert_cmpuint(ssthresh_after_segment(TCP_GROW_WINDOW_LEGACY), ==, 68431);
}

/* hosts.H.tcp.rcv_autotune = 6.16/6.18 ("tcp: receive side improvements", 6.16; aa251c84636c,
 * 6.18-rc4). Bench clock at 1 ms: a sends one MSS; b starts a window measure (right edge
 * rcv_nxt + rcv_wnd 65535, time 1 ms) and ACKs with TSval 2, which a echoes from then on. At
 * 1.2 ms a sends 80 MSS, read as they come: rcv_nxt passes the right edge, a window sample of
 * 200 us (8 x 200 = 1600). The TSecr samples are 2 - 2 = 0 ms: no sample since d59fc95be9d0.
 * Legacy counts that as 1 ms (8000, the floor), but its window sample, taken after it on the
 * same skb (tcp_event_data_recv), can only lower the estimate: 1600 too. */
static TcpBench *drs_bench_clock(TcpRcvAutotune policy, bool timestamps, TcpRcvRttClock clock)
{
    TcpBench *tb = th_new();
    tb->conf[1].tcp.rcv_autotune = policy;
    tb->conf[1].tcp.rcv_rtt_clock = clock;
    tb->conf[0].tcp.timestamps = tb->conf[1].tcp.timestamps = timestamps;
    th_connect(tb, 1500);
    th_run_to(tb, SIM_MS);
    th_write(tb->a, 1448);
    th_pump(tb);
    th_read(tb->b);
    g_assert_cmpuint(tb->a->ts_recent, ==, timestamps ? 2 : 0);
    th_run_to(tb, 1200 * SIM_US);
    for (int i = 0; i < 8; i++) {
        th_write(tb->a, 10 * 1448);
        th_pump(tb);
        th_read(tb->b);
    }
    return tb;
}

static TcpBench *drs_bench_ts(TcpRcvAutotune policy, bool timestamps)
{
    return drs_bench_clock(policy, timestamps, TCP_RCV_RTT_CLOCK_US);
}

static TcpBench *drs_bench(TcpRcvAutotune policy)
{
    return drs_bench_ts(policy, true);
}

/* hosts.H.tcp.rcv_rtt_clock jiffies (2.6-4.12, 3.4's tcp_input.c), HZ 1000, the bench above:
 * the window measure began at 1 ms and ends at 1.2 ms, in the same jiffy: 0 jiffies, counted as
 * 1, so the estimate is 1 jiffy (8 x 1000 us), where the us clock of 4.13+ measures 200 us. The
 * TSecr samples (2 - 2 = 0 -> 1 jiffy) agree; without timestamps the window sample alone gives
 * the same. */
static void test_rcv_rtt_jiffies_floor(void)
{
    for (int ts = 0; ts < 2; ts++) {
        TcpBench *tb = drs_bench_clock(TCP_RCV_AUTOTUNE_3X, ts, TCP_RCV_RTT_CLOCK_JIFFIES);
        g_assert_cmpuint(tb->b->rcv_rtt_us, ==, 8 * 1000);
        th_free(tb);
        tb = drs_bench_clock(TCP_RCV_AUTOTUNE_3X, ts, TCP_RCV_RTT_CLOCK_US);
        g_assert_cmpuint(tb->b->rcv_rtt_us, ==, 8 * 200);
        th_free(tb);
    }
}

/* Every full-sized segment's TSecr sample (jiffies clock, no one-per-TSecr rule), HZ 1000: the
 * first 10 segments at 5 ms echo TSecr 1, 5 jiffies (40 in 1/8 jiffies, then m - 40/8 = 0 nine
 * times); b's ACKs make a echo 6, and the next 30 segments each bring 6 - 6 = 0 -> 1 jiffy,
 * smoothed with the truncating shift: 36, 33, 30, 28, 26, 24, 22, 21, 20, ..., 16, 15, where
 * 15 + 1 - 15/8 = 15 holds: 15/8 jiffies, 15000 in rcv_rtt_us. The us clock (4.19+) takes one
 * sample per TSecr value: 40000, then 36000 (the rcvbuf_autotune bench at the top). 4.13-4.18
 * (us-every) smooths all 30 in microseconds, x - x/8 + 1000 from 40000 (x/8 truncated): 8587. */
static void test_rcv_rtt_jiffies_every_segment(void)
{
    static const struct {
        TcpRcvRttClock clock;
        uint32_t rtt8;
    } cases[] = { {TCP_RCV_RTT_CLOCK_JIFFIES, 15000}, {TCP_RCV_RTT_CLOCK_US, 36000},
                  {TCP_RCV_RTT_CLOCK_US_EVERY, 8587} };
    for (unsigned i = 0; i < G_N_ELEMENTS(cases); i++) {
        TcpBench *tb = th_new();
        tb->conf[1].tcp.rcv_autotune = TCP_RCV_AUTOTUNE_3X;
        tb->conf[1].tcp.rcv_rtt_clock = cases[i].clock;
        tb->conf[0].nic.tso = false; /* one segment per skb, each a sample */
        th_connect(tb, 1500);
        TcpSock *b = tb->b;
        th_write(tb->a, 1448);
        th_pump(tb);
        th_read(b);
        th_run_to(tb, 5 * SIM_MS);
        for (int k = 0; k < 4; k++) {
            th_write(tb->a, 10 * 1448);
            th_pump(tb);
            th_read(b);
        }
        g_assert_cmpuint(b->rcv_rtt_us, ==, cases[i].rtt8);
        th_free(tb);
    }
}

static void test_drs_rtt(void)
{
    TcpBench *tb = drs_bench(TCP_RCV_AUTOTUNE_6_16);
    g_assert_cmpuint(tb->b->rcv_rtt_us, ==, 8 * 200);
    th_free(tb);
    tb = drs_bench(TCP_RCV_AUTOTUNE_LEGACY);
    g_assert_cmpuint(tb->b->rcv_rtt_us, ==, 8 * 200);
    th_free(tb);
}

/* Without timestamps the window sample is the receiver's only RTT, in every era: the same 200 us,
 * and at 1.5 ms (>= 200 us after the measure began at 1 ms) autotuning grows the buffer from
 * tcp_rmem[1] (copied 81 x 1448 = 117288 bytes > space 10 x advmss 1460 = 14600). */
static void test_drs_rtt_without_timestamps(void)
{
    TcpBench *tb = drs_bench_ts(TCP_RCV_AUTOTUNE_LEGACY, false);
    TcpSock *b = tb->b;
    g_assert_cmpuint(b->rcv_rtt_us, ==, 8 * 200);
    g_assert_cmpuint(tcp_sk(b)->rcvbuf, ==, 131072);
    th_run_to(tb, 1500 * SIM_US);
    tcp_rcv_space_adjust(b);
    g_assert_cmpuint(tcp_sk(b)->rcvbuf, >, 131072);
    g_assert_cmpuint(b->rcvq_space.space, ==, 81 * 1448);
    th_free(tb);
}

/* tcp_usec_ts (6.7+) on both hosts: TSvals count microseconds (b's ACK at 1 ms carries
 * 1000 + 1), and the legacy TSecr sample that the ms clock rounds up to 1 ms above is the exact
 * 1201 - 1001 = 200 us. */
static void test_usec_ts(void)
{
    TcpBench *tb = th_new();
    tb->conf[0].tcp.usec_ts = tb->conf[1].tcp.usec_ts = true;
    tb->conf[1].tcp.rcv_autotune = TCP_RCV_AUTOTUNE_LEGACY;
    th_connect(tb, 1500);
    th_run_to(tb, SIM_MS);
    th_write(tb->a, 1448);
    th_pump(tb);
    th_read(tb->b);
    g_assert_cmpuint(tb->a->ts_recent, ==, 1001);
    th_run_to(tb, 1200 * SIM_US);
    th_write(tb->a, 10 * 1448);
    th_pump(tb);
    g_assert_cmpuint(tb->b->rcv_rtt_us, ==, 8 * 200);
    th_free(tb);
}

/* The sender's TSecr fallback (tcp_ack_update_rtt -> tcp_rtt_tsopt_us): the first segment is
 * lost, the RTO (1 s: no RTT yet) resends it, and the retransmission's ACK comes back 300 us
 * after it left. Karn's rule leaves no timing sample for retransmitted data, so the RTT comes
 * from the echoed TSval: exactly 300 us with tcp_usec_ts, the whole 1 ms the ms clock rounds
 * a sub-tick delta up to otherwise (srtt_us holds 8 x the first sample). */
static void test_usec_ts_rtt_fallback(void)
{
    for (int usec = 0; usec < 2; usec++) {
        TcpBench *tb = th_new();
        tb->conf[0].tcp.usec_ts = tb->conf[1].tcp.usec_ts = usec;
        tb->conf[0].tcp.tlp = false;
        th_connect(tb, 1500);
        th_write(tb->a, 1448);
        th_drop(tb, 0);
        g_assert_cmpuint(tb->a->srtt_us, ==, 0);
        th_run_to(tb, SIM_S); /* the RTO: 1000 jiffies after the write at 0 */
        Skb *rtx = th_take(tb, 0);
        g_assert_nonnull(rtx);
        g_assert_cmpint(rtx->tx_time, ==, SIM_S);
        th_run_to(tb, rtx->tx_time + 300 * SIM_US);
        th_deliver_skb(tb, 0, rtx);
        th_pump(tb);
        g_assert_cmpuint(tb->a->packets_out, ==, 0);
        g_assert_cmpuint(tb->a->srtt_us, ==, usec ? 8 * 300 : 8 * 1000);
        th_free(tb);
    }
}

/* The first adjustment at 1.2 ms (>= 200 us after the start of the measure at 0): copied = 81
 * MSS = 117288 > space 14480 (10 x advmss 1448 - timestamps on - 4.20+), nothing unread
 * (adv_win_scale 1: rcvbuf = 2 x window).
 *   6.16: rcvwin = 2 x 117288 = 234576 -> rcvbuf 469152, window_clamp 234576;
 *   6.18: + 2 x (234576 x (117288 - 14480) / 14480 = 1665489) -> rcvwin 3565554, rcvbuf
 *   7131108, capped at tcp_rmem[2] 6 MiB = 6291456.
 * Then at 1.5 ms a sends 120 MSS that b reads and 100 more that stay unread: copied 173760 but
 * 144800 unread, 28960 <= space 117288 - no growth (ea33537d8292), where legacy grows. */
static void test_drs_grow(void)
{
    static const struct { TcpRcvAutotune policy; uint32_t rcvbuf; } cases[] = {
        { TCP_RCV_AUTOTUNE_6_16, 469152 },
        { TCP_RCV_AUTOTUNE_6_18, 6291456 },
    };
    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        TcpBench *tb = drs_bench(cases[i].policy);
        TcpSock *b = tb->b;
        tcp_rcv_space_adjust(b);
        g_assert_cmpuint(b->rcvq_space.space, ==, 81 * 1448);
        g_assert_cmpuint(tcp_sk(b)->rcvbuf, ==, cases[i].rcvbuf);
        g_assert_cmpuint(b->window_clamp, ==, cases[i].rcvbuf / 2);
        th_run_to(tb, 1500 * SIM_US);
        th_write(tb->a, 120 * 1448);
        th_pump(tb);
        th_read(b);
        th_write(tb->a, 100 * 1448);
        th_pump(tb);
        g_assert_cmpuint(b->rcv_nxt - b->copied_seq, ==, 100 * 1448);
        tcp_rcv_space_adjust(b);
        g_assert_cmpuint(tcp_sk(b)->rcvbuf, ==, cases[i].rcvbuf);
        g_assert_cmpuint(b->rcvq_space.space, ==, 81 * 1448);
        th_free(tb);
    }
    /* legacy, same reads: 173760 copied > 117288 -> a new measure although the reader fell
     * behind (its first one already took rcvbuf to the 6 MiB cap) */
    TcpBench *tb = drs_bench(TCP_RCV_AUTOTUNE_LEGACY);
    tcp_rcv_space_adjust(tb->b);
    g_assert_cmpuint(tb->b->rcvq_space.space, ==, 81 * 1448);
    th_run_to(tb, 2500 * SIM_US); /* over an RTT (200 us) after the last measure */
    th_write(tb->a, 120 * 1448);
    th_pump(tb);
    th_read(tb->b);
    th_write(tb->a, 100 * 1448);
    th_pump(tb);
    tcp_rcv_space_adjust(tb->b);
    g_assert_cmpuint(tb->b->rcvq_space.space, ==, 120 * 1448);
    th_free(tb);
}

/* tcp_rcv_space_adjust reads the clock (tcp_mstamp_refresh) in every kernel up to 6.18: data
 * that arrived with the last measurement and is read 10 ms later, with no packet in between,
 * ends the measurement at the read. (From net-next of Oct 2025, "tcp: remove one ktime_get()
 * from recvmsg() fast path", the clock is the last packet's, and this read would not.) */
static void test_drs_clock_read_at_each_measure(void)
{
    TcpBench *tb = drs_bench(TCP_RCV_AUTOTUNE_6_16);
    TcpSock *b = tb->b;
    th_write(tb->a, 10 * 1448);
    th_pump(tb);
    tcp_rcv_space_adjust(b); /* a measurement at 1.2 ms */
    uint64_t seq = b->rcvq_space.seq;
    sim_time_t time = b->rcvq_space.time;
    th_run_to(tb, 11200 * SIM_US);
    th_read(b);
    tcp_rcv_space_adjust(b);
    g_assert_cmpint(time, <, 11200 * SIM_US);
    g_assert_cmpint(b->rcvq_space.time, ==, 11200 * SIM_US);
    g_assert_cmpuint(b->rcvq_space.seq, >, seq);
    g_assert_cmpuint(b->rcvq_space.seq, ==, b->copied_seq);
    th_free(tb);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/tcp/rcvbuf/autotune", test_rcvbuf_autotune);
    g_test_add_func("/tcp/rcvbuf/autotune-ratio", test_rcvbuf_autotune_ratio);
    g_test_add_func("/tcp/rcvbuf/autotune-3.x", test_rcvbuf_autotune_3x);
    g_test_add_func("/tcp/rcvbuf/fixed", test_rcvbuf_fixed);
    g_test_add_func("/tcp/rcvbuf/first-window-era", test_first_window_era);
    g_test_add_func("/tcp/rcvbuf/first-window-large-buffer", test_first_window_large_buffer);
    g_test_add_func("/tcp/rcvbuf/sndbuf-lock", test_sndbuf_lock);
    g_test_add_func("/tcp/rcvbuf/grow-window-slow-path", test_grow_window_slow_path);
    g_test_add_func("/tcp/rcvbuf/grow-window-bound", test_grow_window_bound);
    g_test_add_func("/tcp/rcvbuf/drs-2025-rtt", test_drs_rtt);
    g_test_add_func("/tcp/rcvbuf/drs-rtt-without-timestamps", test_drs_rtt_without_timestamps);
    g_test_add_func("/tcp/rcvbuf/rcv-rtt-jiffies-floor", test_rcv_rtt_jiffies_floor);
    g_test_add_func("/tcp/rcvbuf/rcv-rtt-jiffies-every-segment", test_rcv_rtt_jiffies_every_segment);
    g_test_add_func("/tcp/rcvbuf/usec-ts", test_usec_ts);
    g_test_add_func("/tcp/rcvbuf/usec-ts-rtt-fallback", test_usec_ts_rtt_fallback);
    g_test_add_func("/tcp/rcvbuf/drs-2025-grow", test_drs_grow);
    g_test_add_func("/tcp/rcvbuf/drs-clock-read-at-each-measure", test_drs_clock_read_at_each_measure);
    return g_test_run();
}
