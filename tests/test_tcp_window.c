/* test_tcp_window.c - the receive window's share of the buffer by kernel era
 * (hosts.H.tcp.win_scaling: tcp_win_from_space, tcp_space_from_win, 6.5+ scaling_ratio measured
 * in tcp_measure_rcv_mss; notes B.4 host, A.2 timers-acks). All figures hand-computed. */
#include "models/truesize.h"
#include "tcp_harness.h"

static TcpBench *bench(TcpWinScaling w)
{
    TcpBench *tb = th_new();
    tb->conf[1].tcp.win_scaling = w;
    th_connect(tb, 1500);
    return tb;
}

/* tcp_win_from_space(131072): adv_win_scale 2 -> 131072 - 32768 = 98304; adv_win_scale 1 ->
 * 65536; scaling_ratio 128 -> 131072 x 128 / 256 = 65536, at 176 -> 90112. The inverse for
 * autotuning: 65536 -> 65536 x 4 / 3 = 87381, 2 x 65536 = 131072, 65536 x 256 / 128 = 131072,
 * 65536 x 256 / 176 = 16777216 / 176 = 95325. The initial window_clamp is the full space. */
static void test_win_from_space(void)
{
    static const struct {
        TcpWinScaling w;
        uint8_t ratio;
        uint32_t win;
        uint64_t space;
    } cases[] = {
        {TCP_WIN_ADV_WIN_SCALE_2, 128, 98304, 87381},
        {TCP_WIN_ADV_WIN_SCALE_1, 128, 65536, 131072},
        {TCP_WIN_SCALING_RATIO, 128, 65536, 131072},
        {TCP_WIN_SCALING_RATIO, 176, 90112, 95325},
    };
    for (unsigned i = 0; i < G_N_ELEMENTS(cases); i++) {
        TcpBench *tb = bench(cases[i].w);
        TcpSock *b = tb->b;
        g_assert_cmpuint(b->scaling_ratio, ==, TCP_DEFAULT_SCALING_RATIO);
        if (cases[i].ratio == 128)
            g_assert_cmpuint(b->window_clamp, ==, cases[i].win);
        b->scaling_ratio = cases[i].ratio;
        g_assert_cmpuint(tcp_win_from_space(b, 131072), ==, cases[i].win);
        g_assert_cmpuint(tcp_space_from_win(b, 65536), ==, cases[i].space);
        th_free(tb);
    }
}

/* __tcp_select_window with rcvbuf 131072, 32768 bytes unread and rcv_ssthresh out of the way:
 * free = win_from_space(98304) = 73728 (3/4), 49152 (1/2), 49152 (ratio 128), 67584 (ratio
 * 176: 98304 x 176 / 256); each is at least half of full_space (98304, 65536, 65536, 90112), so
 * the window is free rounded up to 128 (wscale 7): all are multiples already. */
static void test_select_window(void)
{
    static const struct {
        TcpWinScaling w;
        uint8_t ratio;
        uint32_t win;
    } cases[] = {
        {TCP_WIN_ADV_WIN_SCALE_2, 128, 73728},
        {TCP_WIN_ADV_WIN_SCALE_1, 128, 49152},
        {TCP_WIN_SCALING_RATIO, 128, 49152},
        {TCP_WIN_SCALING_RATIO, 176, 67584},
    };
    for (unsigned i = 0; i < G_N_ELEMENTS(cases); i++) {
        TcpBench *tb = bench(cases[i].w);
        TcpSock *b = tb->b;
        g_assert_cmpuint(b->rcv_wscale, ==, 7);
        b->scaling_ratio = cases[i].ratio;
        b->window_clamp = tcp_win_from_space(b, b->sk.rcvbuf);
        b->rcv_ssthresh = b->window_clamp;
        b->sk.rmem_alloc = 32768;
        g_assert_cmpuint(__tcp_select_window(b), ==, cases[i].win);
        b->sk.rmem_alloc = 0;
        th_free(tb);
    }
}

/* hosts.H.tcp.select_window with a 4 MiB buffer (adv_win_scale 2: allowed and full space
 * 3145728, half 1572864, 1/16 196608), wscale 7, rcv_ssthresh out of the way. 136536 bytes of
 * buffer free: free space 102402. zero16 rounds it down to 102400 and, below 1/16, offers 0;
 * 3.x offers it rounded up, 102528. 400000 free: 300000, which is above 1/16: zero16 offers
 * 299904 (rounded down, then already aligned), 3.x 300032 (rounded up). */
static void test_select_window_era(void)
{
    static const struct {
        TcpSelectWindow era;
        uint32_t unread_free, win;
    } cases[] = {
        {TCP_SELECT_WINDOW_ZERO16, 136536, 0},
        {TCP_SELECT_WINDOW_3X, 136536, 102528},
        {TCP_SELECT_WINDOW_ZERO16, 400000, 299904},
        {TCP_SELECT_WINDOW_3X, 400000, 300032},
    };
    for (unsigned i = 0; i < G_N_ELEMENTS(cases); i++) {
        TcpBench *tb = th_new();
        tb->conf[1].tcp.win_scaling = TCP_WIN_ADV_WIN_SCALE_2;
        tb->conf[1].tcp.select_window = cases[i].era;
        th_connect(tb, 1500);
        TcpSock *b = tb->b;
        g_assert_cmpuint(b->rcv_wscale, ==, 7);
        b->sk.rcvbuf = 4194304;
        b->window_clamp = tcp_win_from_space(b, b->sk.rcvbuf);
        g_assert_cmpuint(b->window_clamp, ==, 3145728);
        b->rcv_ssthresh = b->window_clamp;
        b->sk.rmem_alloc = b->sk.rcvbuf - cases[i].unread_free;
        g_assert_cmpuint(__tcp_select_window(b), ==, cases[i].win);
        b->sk.rmem_alloc = 0;
        th_free(tb);
    }
}

/* Without window scaling (every era): rcvbuf 131072 (allowed 98304), nothing unread, an MSS of
 * 1448. An offer of 50000 is more than an MSS below the free space: the window becomes the
 * largest multiple of the MSS, 67 x 1448 = 97016. An offer of 97500 is within one MSS of it and
 * is kept. */
static void test_select_window_unscaled(void)
{
    static const struct {
        uint32_t offered, win;
    } cases[] = { {50000, 97016}, {97500, 97500} };
    for (unsigned i = 0; i < G_N_ELEMENTS(cases); i++) {
        TcpBench *tb = bench(TCP_WIN_ADV_WIN_SCALE_2);
        TcpSock *b = tb->b;
        b->rcv_wscale = 0;
        b->ack.rcv_mss = 1448;
        b->window_clamp = tcp_win_from_space(b, b->sk.rcvbuf);
        g_assert_cmpuint(b->window_clamp, ==, 98304);
        b->rcv_ssthresh = b->window_clamp;
        b->rcv_wnd = cases[i].offered;
        g_assert_cmpuint(__tcp_select_window(b), ==, cases[i].win);
        th_free(tb);
    }
}

/* hosts.H.tcp.window_counts_backlog: rcvbuf 131072, nothing unread, 32768 bytes of truesize in
 * the backlog of the owned socket, adv_win_scale 2 (3.4). 5.0+ ("tcp: make tcp_space() aware of
 * socket backlog"): free = 3/4 x (131072 - 32768) = 73728. Before it (3.x include/net/tcp.h
 * tcp_space = tcp_win_from_space(sk_rcvbuf - sk_rmem_alloc)): free = 3/4 x 131072 = 98304, the
 * full space. Both are >= half of it and multiples of 128 (wscale 7). */
static void test_select_window_backlog(void)
{
    static const struct {
        bool counts;
        uint32_t win;
    } cases[] = { {true, 73728}, {false, 98304} };
    for (unsigned i = 0; i < G_N_ELEMENTS(cases); i++) {
        TcpBench *tb = th_new();
        tb->conf[1].tcp.win_scaling = TCP_WIN_ADV_WIN_SCALE_2;
        tb->conf[1].tcp.window_counts_backlog = cases[i].counts;
        th_connect(tb, 1500);
        TcpSock *b = tb->b;
        g_assert_cmpuint(b->rcv_wscale, ==, 7);
        b->window_clamp = tcp_win_from_space(b, b->sk.rcvbuf);
        b->rcv_ssthresh = b->window_clamp;
        g_assert_cmpuint(b->window_clamp, ==, 98304);
        b->sk.backlog_len = 32768;
        g_assert_cmpuint(__tcp_select_window(b), ==, cases[i].win);
        b->sk.backlog_len = 0;
        th_free(tb);
    }
}

/* Hand a's oldest captured data skb to b as a GRO skb of `frames` MTU-1500 frames (gso_size
 * 1448) charging `truesize`. a's first flight of 14480 bytes leaves as two TSO skbs of 5
 * segments (7240 bytes). */
static void deliver_as_gro(TcpBench *tb, uint32_t frames, uint32_t truesize)
{
    Skb *skb = th_take(tb, 0);
    g_assert_nonnull(skb);
    g_assert_cmpuint(skb->len, ==, frames * 1448);
    skb->gso_size = 1448;
    skb->gso_segs = (uint16_t)frames;
    skb->truesize = truesize;
    th_deliver_skb(tb, 0, skb);
}

/* 6.5+: the first GRO skb (5 frames: truesize_gro_skb(1500, 5) = 2624 + 4 x 2048 = 10816)
 * changes rcv_mss (536 -> 1448), so scaling_ratio = 7240 x 256 / 10816 = 1853440 / 10816 = 171
 * (171.36). From 6.11 window_clamp follows: tcp_set_window_clamp(131072 x 171 / 256 = 87552) >
 * 65536 (rcvq_space.space, 10 x advmss = 10 x (1460 - 12: the timestamp option comes off
 * advmss when negotiated) = 14480 since 4.20, stays). 6.10 measures the same ratio but leaves
 * the clamp at the handshake's 65536; 6.5-6.9 too, from its first ratio of 65 (1200 B per 4 KiB
 * page: 307200 / 4672), a clamp of 131072 x 65 / 256 = 33280 that stays. The second skb has the
 * same gso_size (len == rcv_mss), so its truesize of 40000 (ratio 46) is not sampled: the
 * kernel only divides when the MSS estimate changes. Under adv_win_scale 1 the ratio is never
 * measured and the clamp stays at half. */
static void test_scaling_ratio_converges(void)
{
    static const struct {
        TcpWinScaling w;
        uint8_t ratio0, ratio1;
        uint32_t clamp0, clamp1;
    } cases[] = {
        {TCP_WIN_ADV_WIN_SCALE_1, 128, 128, 65536, 65536},
        {TCP_WIN_SCALING_RATIO, 128, 171, 65536, 87552},
        {TCP_WIN_SCALING_RATIO_6_10, 128, 171, 65536, 65536},
        {TCP_WIN_SCALING_RATIO_6_5, 65, 171, 33280, 33280},
    };
    for (unsigned i = 0; i < G_N_ELEMENTS(cases); i++) {
        TcpBench *tb = bench(cases[i].w);
        TcpSock *b = tb->b;
        g_assert_cmpuint(truesize_gro_skb(1500, 5), ==, 10816);
        g_assert_cmpuint(b->scaling_ratio, ==, cases[i].ratio0);
        g_assert_cmpuint(b->window_clamp, ==, cases[i].clamp0);
        th_write(tb->a, 14480);
        g_assert_cmpuint(th_pending(tb, 0), ==, 2);
        deliver_as_gro(tb, 5, truesize_gro_skb(1500, 5));
        g_assert_cmpuint(b->ack.rcv_mss, ==, 1448);
        g_assert_cmpuint(b->scaling_ratio, ==, cases[i].ratio1);
        g_assert_cmpuint(b->window_clamp, ==, cases[i].clamp1);
        g_assert_cmpuint(b->rcvq_space.space, ==, 14480);
        deliver_as_gro(tb, 5, 40000);
        g_assert_cmpuint(b->scaling_ratio, ==, cases[i].ratio1);
        g_assert_cmpuint(b->window_clamp, ==, cases[i].clamp1);
        th_pump(tb);
        th_read(b);
        th_free(tb);
    }
}

/* The first window of each scaling-ratio era with the default 131072-byte buffer: 6.5-6.9's
 * first ratio of 65 gives a full space of 33280, which the listener (b) rounds down to its MSS
 * less the timestamp option, 22 x 1448 = 31856, and the connecting side (a) to its whole MSS,
 * 22 x 1460 = 32120: half the 65160 and 64240 of 6.10+, whose ratio 128 gives 65536. */
static void test_scaling_ratio_first_window(void)
{
    static const struct {
        TcpWinScaling w;
        uint32_t wnd_b, wnd_a;
    } cases[] = {
        {TCP_WIN_SCALING_RATIO_6_5, 31856, 32120},
        {TCP_WIN_SCALING_RATIO_6_10, 65160, 64240},
        {TCP_WIN_SCALING_RATIO, 65160, 64240},
    };
    for (unsigned i = 0; i < G_N_ELEMENTS(cases); i++) {
        TcpBench *tb = th_new();
        tb->conf[0].tcp.win_scaling = cases[i].w;
        tb->conf[1].tcp.win_scaling = cases[i].w;
        th_connect(tb, 1500);
        g_assert_cmpuint(tb->b->rcv_wnd, ==, cases[i].wnd_b);
        g_assert_cmpuint(tb->a->rcv_wnd, ==, cases[i].wnd_a);
        g_assert_cmpuint(tb->a->snd_wnd, ==, cases[i].wnd_b);
        th_free(tb);
    }
}

/* A shrinking ratio pulls the clamp and rcv_ssthresh down: a first skb of 1448 bytes in a
 * 2624-byte frame (no GRO) gives 1448 x 256 / 2624 = 141 (141.27); window_clamp = 131072 x 141
 * / 256 = 72192; then a 7240-byte skb whose gso_size 1460 differs re-measures: 7240 x 256 /
 * 40000 = 46 (46.34) -> window_clamp 131072 x 46 / 256 = 23552 < 72192, so rcv_ssthresh <=
 * 23552, and rcvq_space.space is cut to 23552 (started here at the first window, 65160 - 45 x
 * 1448, the <= 4.19 rule, so that the cut shows; from 4.20 it starts at 10 x advmss = 14480,
 * below). */
static void test_scaling_ratio_shrinks(void)
{
    TcpBench *tb = th_new();
    tb->conf[1].tcp.win_scaling = TCP_WIN_SCALING_RATIO;
    tb->conf[1].tcp.rcvq_space_init = TCP_RCVQ_SPACE_RCV_WND;
    th_connect(tb, 1500);
    TcpSock *b = tb->b;
    g_assert_cmpuint(b->rcvq_space.space, ==, 65160);
    th_write(tb->a, 1448);
    Skb *skb = th_take(tb, 0);
    g_assert_cmpuint(skb->len, ==, 1448);
    skb->gso_size = 0;
    skb->truesize = truesize_rx_frame(1500);
    g_assert_cmpuint(skb->truesize, ==, 2624);
    th_deliver_skb(tb, 0, skb);
    g_assert_cmpuint(b->scaling_ratio, ==, 141);
    g_assert_cmpuint(b->window_clamp, ==, 72192);
    th_pump(tb);
    th_read(b);
    th_run_to(tb, 1 * SIM_MS);
    th_write(tb->a, 7240);
    skb = th_take(tb, 0);
    g_assert_cmpuint(skb->len, ==, 7240);
    skb->gso_size = 1460;
    skb->truesize = 40000;
    th_deliver_skb(tb, 0, skb);
    g_assert_cmpuint(b->scaling_ratio, ==, 46);
    g_assert_cmpuint(b->window_clamp, ==, 23552);
    g_assert_cmpuint(b->rcv_ssthresh, <=, 23552);
    g_assert_cmpuint(b->rcvq_space.space, ==, 23552);
    th_pump(tb);
    th_read(b);
    th_free(tb);
}

/* __tcp_ack_snd_check (notes A.2): with more than one rcv_mss unACKed and unread, the ACK goes
 * at once only if __tcp_select_window() >= rcv_wnd. rcv_wnd 65536 advertised, 32768 bytes
 * unread in rcvbuf 131072: 73728 (3/4) and 67584 (ratio 176) reach it -> ACK now; 49152
 * (1/2, ratio 128) does not -> delayed ACK. */
static void test_ack_rule_follows_window(void)
{
    static const struct {
        TcpWinScaling w;
        uint8_t ratio;
        bool ack_now;
    } cases[] = {
        {TCP_WIN_ADV_WIN_SCALE_2, 128, true},
        {TCP_WIN_ADV_WIN_SCALE_1, 128, false},
        {TCP_WIN_SCALING_RATIO, 128, false},
        {TCP_WIN_SCALING_RATIO, 176, true},
    };
    for (unsigned i = 0; i < G_N_ELEMENTS(cases); i++) {
        TcpBench *tb = bench(cases[i].w);
        TcpSock *b = tb->b;
        b->scaling_ratio = cases[i].ratio;
        b->window_clamp = tcp_win_from_space(b, b->sk.rcvbuf);
        b->rcv_ssthresh = b->window_clamp;
        b->rcv_wnd = 65536;
        b->ack.rcv_mss = 1448;
        b->ack.quick = 0;
        b->ack.pingpong = 0;
        b->rcv_nxt += 2 * 1448; /* two segments received, not yet read or ACKed */
        b->sk.rmem_alloc = 32768;
        uint32_t before = th_pending(tb, 1);
        __tcp_ack_snd_check(b, false, NULL);
        g_assert_cmpuint(th_pending(tb, 1) - before, ==, cases[i].ack_now ? 1 : 0);
        b->sk.rmem_alloc = 0;
        th_free(tb);
    }
}

/* tcp_data_queue with the receive window closed (rcv_wup + rcv_wnd == rcv_nxt): a segment at
 * rcv_nxt, and one that overlaps it (100 old bytes + 1448 new), are both dropped
 * (TCPZeroWindowDrop, quick-ACK mode: an ACK at once); the overlap still DSACKs its old part
 * first ("after remembering D-SACK for its head"). Neither moves rcv_nxt. */
static void test_zero_window_drops(void)
{
    for (int overlap = 0; overlap < 2; overlap++) {
        TcpBench *tb = bench(TCP_WIN_ADV_WIN_SCALE_1);
        TcpSock *b = tb->b;
        th_write(tb->a, 1448);
        th_deliver(tb, 0);
        g_assert_cmpuint(b->rcv_nxt, ==, 1449);
        th_deliver(tb, 1); /* its quick ACK */
        th_write(tb->a, 1448);
        Skb *skb = th_take(tb, 0);
        if (overlap) {
            skb->seq -= 100;
            skb->len += 100;
        }
        b->rcv_wup = b->rcv_nxt; /* as tcp_select_window leaves it after advertising 0 */
        b->rcv_wnd = 0;
        b->pred_ok = false;
        b->ack.quick = 0;
        th_deliver_skb(tb, 0, skb);
        g_assert_cmpuint(b->rcv_nxt, ==, 1449);
        g_assert_cmpuint(th_ctr(tb, 1, CTR_TcpExtTCPZeroWindowDrop), ==, 1);
        /* quick-ACK mode: the ACK leaves at once, with the DSACK block for the overlap */
        g_assert_cmpuint(th_pending(tb, 1), ==, 1);
        Skb *ack = th_take(tb, 1);
        g_assert_cmpuint(ack->ack_seq, ==, 1449);
        g_assert_true(ack->dsack == (overlap != 0));
        if (overlap) {
            g_assert_cmpuint(ack->sack[0].start, ==, 1349);
            g_assert_cmpuint(ack->sack[0].end, ==, 1449);
        }
        skb_free(tb->host[1].pool, ack);
        th_free(tb);
    }
}

/* tcp_data_queue_ofo grows rcv_ssthresh like in-order data (tcp_grow_window: a 1448-byte
 * segment whose truesize fits the window it would buy gets max(2 x advmss, 2 x len) = 2896:
 * with timestamps advmss is 1460 - 12 = 1448, the segment's own payload), for SACK flows
 * only (5.8+) and not at all before 2013 (tcp.ofo_grows_window false). One-MSS skbs (no TSO)
 * into a 1 MiB buffer, so the window has room to grow; the second is lost and the next eight
 * arrive out of order: rcv_ssthresh + 8 x 2896, or unchanged. */
static uint32_t ofo_growth(bool sack, bool grows)
{
    TcpBench *tb = th_new();
    tb->conf[0].nic.tso = false;
    tb->conf[1].tcp.rcvbuf = 1u << 20;
    tb->conf[0].tcp.sack = tb->conf[1].tcp.sack = sack;
    tb->conf[1].tcp.ofo_grows_window = grows;
    th_connect(tb, 1500);
    th_write(tb->a, 10 * 1448);
    g_assert_cmpuint(th_pending(tb, 0), ==, 10);
    th_deliver(tb, 0);
    th_drop(tb, 0);
    uint32_t before = tb->b->rcv_ssthresh;
    for (int i = 0; i < 8; i++)
        th_deliver(tb, 0);
    g_assert_cmpuint(tb->b->ofo_queue.qlen, ==, 8);
    uint32_t growth = tb->b->rcv_ssthresh - before;
    th_pump(tb);
    th_free(tb);
    return growth;
}

static void test_ofo_grows_window(void)
{
    g_assert_cmpuint(ofo_growth(true, true), ==, 8 * 2896);
    g_assert_cmpuint(ofo_growth(false, true), ==, 0);
    g_assert_cmpuint(ofo_growth(true, false), ==, 0);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/tcp_window/win_from_space", test_win_from_space);
    g_test_add_func("/tcp_window/select_window", test_select_window);
    g_test_add_func("/tcp_window/select_window_backlog", test_select_window_backlog);
    g_test_add_func("/tcp_window/select_window_era", test_select_window_era);
    g_test_add_func("/tcp_window/select_window_unscaled", test_select_window_unscaled);
    g_test_add_func("/tcp_window/scaling_ratio_converges", test_scaling_ratio_converges);
    g_test_add_func("/tcp_window/scaling_ratio_first_window", test_scaling_ratio_first_window);
    g_test_add_func("/tcp_window/scaling_ratio_shrinks", test_scaling_ratio_shrinks);
    g_test_add_func("/tcp_window/ack_rule_follows_window", test_ack_rule_follows_window);
    g_test_add_func("/tcp_window/zero_window_drops", test_zero_window_drops);
    g_test_add_func("/tcp_window/ofo_grows_window", test_ofo_grows_window);
    return g_test_run();
}
