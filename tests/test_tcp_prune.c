/* test_tcp_prune.c - receive memory: tcp_try_rmem_schedule / tcp_prune_queue (3.4
 * net/ipv4/tcp_input.c; the 4.2 and 4.18 rules by era key). A receiver without GRO charges every 1448-byte segment a 2624-byte
 * frame buffer (truesize_rx_frame), so a window of 3/4 of sk_rcvbuf (tcp_adv_win_scale 2) lets
 * the peer send 1.8 x 3/4 = 1.35 x sk_rcvbuf of truesize. The kernel never lets sk_rmem_alloc
 * run past sk_rcvbuf by more than the skb it admits: data queued while it is over (in order on
 * the slow path, or out of order) first prunes - tcp_clamp_window, then tcp_collapse copies the
 * bloated skbs into page-sized ones (3646 payload bytes in 4352 of truesize), then, only if that
 * was not enough, the out-of-order queue is purged. The data itself is kept. */
#include "tcp_harness.h"

#include "models/truesize.h"

#define MSS 1448u
#define RCVBUF 87380u

/* A sender without TSO (one MSS per skb) and a 3.4 receiver with a 87380-byte buffer, whose
 * pruning collapses even after tcp_clamp_window made room (hosts.H.tcp.prune 3.x) and who checks
 * every in-order skb it queues (hosts.H.tcp.rcvq_admit 3.x). */
static TcpBench *prune_bench_era(bool rcvbuf_autotune, TcpPrune prune, TcpRcvqAdmit admit)
{
    TcpBench *tb = th_new();
    tb->conf[0].nic.tso = false;
    tb->conf[1].tcp.prune = prune;
    tb->conf[1].tcp.rcvq_admit = admit;
    tb->conf[1].tcp.win_scaling = TCP_WIN_ADV_WIN_SCALE_2;
    tb->conf[1].tcp.rcvbuf = RCVBUF;
    tb->conf[1].tcp.rcvbuf_autotune = rcvbuf_autotune;
    tb->conf[1].tcp.rcvbuf_max = 4 * 1024 * 1024;
    th_connect(tb, 1500);
    tb->a->snd_cwnd = 100; /* the receive window, not cwnd, bounds what may go */
    return tb;
}

static TcpBench *prune_bench(bool rcvbuf_autotune)
{
    return prune_bench_era(rcvbuf_autotune, TCP_PRUNE_3X, TCP_RCVQ_ADMIT_3X);
}

/* One captured segment of a arrives at b as a frame of a driver without GRO. */
static void deliver_frame(TcpBench *tb, Skb *skb)
{
    skb->truesize = truesize_rx_frame(1500);
    th_deliver_skb(tb, 0, skb);
}

/* a fills b's first window (65535 -> 45 segments); the first is lost, the other 44 arrive. */
static Skb *window_with_a_hole(TcpBench *tb)
{
    th_write(tb->a, 45 * MSS);
    g_assert_cmpuint(th_pending(tb, 0), ==, 45);
    Skb *hole = th_take(tb, 0);
    Skb *skb;
    while ((skb = th_take(tb, 0)))
        deliver_frame(tb, skb);
    return hole;
}

/* A locked buffer (SO_RCVBUF): the out-of-order queue is collapsed as it passes sk_rcvbuf, so
 * sk_rmem_alloc stays within one frame of it (44 x 2624 = 115456 bytes without pruning), and
 * every byte stays queued: the hole's retransmission delivers the whole window in order. */
static void test_prune_collapses_ofo(void)
{
    TcpBench *tb = prune_bench(false);
    TcpSock *b = tb->b;
    uint64_t start = b->rcv_nxt;
    Skb *hole = window_with_a_hole(tb);
    g_assert_cmpuint(b->ofo_queue.bytes, ==, 44 * MSS);
    g_assert_cmpuint(tcp_sk(b)->rcvbuf, ==, RCVBUF);
    g_assert_cmpuint(tcp_sk(b)->rmem_alloc, <=, RCVBUF + truesize_rx_frame(1500));
    g_assert_cmpuint(th_ctr(tb, 1, CTR_TcpExtPruneCalled), >=, 1);
    g_assert_cmpuint(th_ctr(tb, 1, CTR_TcpExtTCPRcvCollapsed), >=, 1);
    g_assert_cmpuint(th_ctr(tb, 1, CTR_TcpExtOfoPruned), ==, 0);
    g_assert_cmpuint(th_ctr(tb, 1, CTR_TcpExtRcvPruned), ==, 0);
    deliver_frame(tb, hole);
    g_assert_cmpuint(b->rcv_nxt, ==, start + 45 * MSS);
    g_assert_true(skb_queue_empty(&b->ofo_queue));
    g_assert_cmpuint(b->rcv_queue.bytes, ==, 45 * MSS);
    g_assert_cmpuint(th_read(b), ==, 45 * MSS);
    th_pump(tb);
    th_free(tb);
}

/* An unlocked buffer: tcp_clamp_window first raises sk_rcvbuf to what is allocated (the first
 * prune comes with 34 frames queued, 34 x 2624 = 89216 bytes), then the collapse makes room. */
static void test_prune_clamp_window_grows_rcvbuf(void)
{
    TcpBench *tb = prune_bench(true);
    TcpSock *b = tb->b;
    Skb *hole = window_with_a_hole(tb);
    g_assert_cmpuint(tcp_sk(b)->rcvbuf, ==, 34 * truesize_rx_frame(1500));
    g_assert_cmpuint(b->ofo_queue.bytes, ==, 44 * MSS);
    g_assert_cmpuint(tcp_sk(b)->rmem_alloc, <=, tcp_sk(b)->rcvbuf);
    deliver_frame(tb, hole);
    g_assert_cmpuint(th_read(b), ==, 45 * MSS);
    th_pump(tb);
    th_free(tb);
}

/* 4.18+ (hosts.H.tcp.prune 4.18): once tcp_clamp_window has grown the unlocked buffer to what
 * is allocated, tcp_prune_queue stops; nothing is collapsed. Each out-of-order frame past the
 * buffer prunes once: frames 35 to 44 find 34..43 x 2624 bytes allocated, over the buffer
 * (87380, then what the last clamp left), so there are 10 prunes and the buffer ends at
 * 43 x 2624 = 112832, with the 44 frames' 115456 bytes queued. (3.x: one prune at frame 35,
 * which collapses, and the buffer stays at 34 x 2624, as above.) */
static void test_prune_stops_after_clamp(void)
{
    TcpBench *tb = prune_bench_era(true, TCP_PRUNE_4_18, TCP_RCVQ_ADMIT_3X);
    TcpSock *b = tb->b;
    Skb *hole = window_with_a_hole(tb);
    g_assert_cmpuint(th_ctr(tb, 1, CTR_TcpExtPruneCalled), ==, 10);
    g_assert_cmpuint(th_ctr(tb, 1, CTR_TcpExtTCPRcvCollapsed), ==, 0);
    g_assert_cmpuint(tcp_sk(b)->rcvbuf, ==, 43 * truesize_rx_frame(1500));
    g_assert_cmpuint(tcp_sk(b)->rmem_alloc, ==, 44 * truesize_rx_frame(1500));
    deliver_frame(tb, hole);
    g_assert_cmpuint(th_read(b), ==, 45 * MSS);
    th_pump(tb);
    th_free(tb);
}

/* Unread in-order data: a reader that does not read lets its window of 45 frames arrive. The
 * first 44 take the fast path, which queues without a check (the model does not track
 * sk_forward_alloc, whose credit lets 3.4's fast path queue without tcp_try_rmem_schedule): 44
 * x 2624 = 115456 bytes. The 45th misses header prediction (its window field changed: the
 * sender's own buffer grew) and goes through tcp_data_queue, which prunes first: the receive
 * queue is collapsed (118080 bytes without it) and the reader still gets every byte. */
static void test_prune_collapses_receive_queue(void)
{
    TcpBench *tb = prune_bench(false);
    TcpSock *b = tb->b;
    th_write(tb->a, 45 * MSS);
    g_assert_cmpuint(th_pending(tb, 0), ==, 45);
    for (int i = 0; i < 44; i++)
        deliver_frame(tb, th_take(tb, 0));
    g_assert_cmpuint(tcp_sk(b)->rmem_alloc, ==, 44 * truesize_rx_frame(1500));
    Skb *last = th_take(tb, 0);
    last->win += 1u << tb->a->rcv_wscale;
    deliver_frame(tb, last);
    g_assert_cmpuint(b->rcv_queue.bytes, ==, 45 * MSS);
    g_assert_cmpuint(tcp_sk(b)->rmem_alloc, <=, RCVBUF + truesize_rx_frame(1500));
    g_assert_cmpuint(th_ctr(tb, 1, CTR_TcpExtTCPRcvCollapsed), >=, 1);
    g_assert_cmpuint(th_read(b), ==, 45 * MSS);
    th_pump(tb);
    th_free(tb);
}

/* When collapsing cannot bring sk_rmem_alloc under sk_rcvbuf (here the application shrank a
 * locked buffer to SOCK_MIN_RCVBUF under 10 queued segments), 3.4's tcp_prune_ofo_queue drops
 * the whole out-of-order queue and forgets its SACK blocks (OfoPruned); the segment that came
 * then is queued, the one block the receiver reports. */
static void test_prune_purges_ofo(void)
{
    TcpBench *tb = prune_bench(false);
    TcpSock *b = tb->b;
    th_write(tb->a, 12 * MSS);
    g_assert_cmpuint(th_pending(tb, 0), ==, 12);
    th_drop(tb, 0);
    for (int i = 0; i < 10; i++)
        deliver_frame(tb, th_take(tb, 0));
    g_assert_cmpuint(b->ofo_queue.qlen, ==, 10);
    tcp_sk(b)->rcvbuf = 4608;
    Skb *last = th_take(tb, 0);
    uint64_t seq = last->seq, end_seq = last->end_seq;
    deliver_frame(tb, last);
    g_assert_cmpuint(th_ctr(tb, 1, CTR_TcpExtOfoPruned), ==, 1);
    g_assert_cmpuint(b->ofo_queue.qlen, ==, 1);
    g_assert_cmpuint(b->ofo_queue.head->seq, ==, seq);
    g_assert_cmpuint(tcp_sk(b)->rmem_alloc, ==, truesize_rx_frame(1500));
    g_assert_cmpuint(b->num_sacks, ==, 1);
    g_assert_cmpuint(b->selective_acks[0].start, ==, seq);
    g_assert_cmpuint(b->selective_acks[0].end, ==, end_seq);
    th_pump(tb);
    th_free(tb);
}

/* An in-order skb that finds the receive queue empty while the out-of-order queue holds more
 * than a locked buffer of SOCK_MIN_RCVBUF (10 frames, 26240 bytes, over 4608). 4.2-6.5
 * (hosts.H.tcp.rcvq_admit 4.2, sk_forced_mem_schedule) queues it unchecked, and the 10 segments
 * behind it follow in order: rcv_nxt moves 11 MSS, nothing is pruned. 3.x checks it: the
 * collapse leaves 4 compact skbs (17408 bytes, still over), so the out-of-order queue is purged
 * (OfoPruned) and only the hole's own segment is received. 6.6+ checks first too, and the purge
 * makes room, so it is queued as in 3.x. */
static void test_rcvq_admit_first_skb(void)
{
    static const struct {
        TcpRcvqAdmit admit;
        uint32_t segs;
        uint64_t prunes, ofo_pruned;
    } cases[] = { {TCP_RCVQ_ADMIT_4_2, 11, 0, 0}, {TCP_RCVQ_ADMIT_3X, 1, 1, 1},
                  {TCP_RCVQ_ADMIT_6_6, 1, 1, 1} };
    for (unsigned i = 0; i < G_N_ELEMENTS(cases); i++) {
        TcpBench *tb = prune_bench_era(false, TCP_PRUNE_3X, cases[i].admit);
        TcpSock *b = tb->b;
        uint64_t start = b->rcv_nxt;
        th_write(tb->a, 12 * MSS);
        g_assert_cmpuint(th_pending(tb, 0), ==, 12);
        Skb *hole = th_take(tb, 0);
        for (int k = 0; k < 10; k++)
            deliver_frame(tb, th_take(tb, 0));
        g_assert_cmpuint(b->ofo_queue.qlen, ==, 10);
        g_assert_true(skb_queue_empty(&b->rcv_queue));
        tcp_sk(b)->rcvbuf = 4608;
        deliver_frame(tb, hole);
        g_assert_cmpuint(b->rcv_nxt, ==, start + cases[i].segs * MSS);
        g_assert_cmpuint(th_ctr(tb, 1, CTR_TcpExtPruneCalled), ==, cases[i].prunes);
        g_assert_cmpuint(th_ctr(tb, 1, CTR_TcpExtOfoPruned), ==, cases[i].ofo_pruned);
        th_drop(tb, 0);
        th_pump(tb);
        th_free(tb);
    }
}

/* An in-order skb on the slow path (its window field changed) that the memory check refuses
 * while the receive queue holds data: 44 frames queued by the fast path, then the buffer locked
 * at SOCK_MIN_RCVBUF (4608), which no collapse of 63712 bytes can meet. Every era drops it. 6.6+
 * (hosts.H.tcp.rcvq_admit 6.6) also counts TCPRcvQDrop and ACKs at once with a zero window
 * (ICSK_ACK_NOMEM), which the socket does not keep as its offer; 4.2-6.5 sends nothing then
 * (the window test of __tcp_ack_snd_check fails with the buffer full). */
static void test_rcvq_admit_nomem_ack(void)
{
    static const TcpRcvqAdmit eras[] = { TCP_RCVQ_ADMIT_6_6, TCP_RCVQ_ADMIT_4_2 };
    for (unsigned i = 0; i < G_N_ELEMENTS(eras); i++) {
        TcpBench *tb = prune_bench_era(false, TCP_PRUNE_3X, eras[i]);
        TcpSock *b = tb->b;
        uint64_t start = b->rcv_nxt;
        th_write(tb->a, 45 * MSS);
        g_assert_cmpuint(th_pending(tb, 0), ==, 45);
        for (int k = 0; k < 44; k++)
            deliver_frame(tb, th_take(tb, 0));
        g_assert_cmpuint(b->rcv_queue.bytes, ==, 44 * MSS);
        while (th_pending(tb, 1))
            th_drop(tb, 1);
        uint32_t offered = b->rcv_wnd;
        tcp_sk(b)->rcvbuf = 4608;
        Skb *last = th_take(tb, 0);
        last->win += 1u << tb->a->rcv_wscale;
        deliver_frame(tb, last);
        g_assert_cmpuint(b->rcv_nxt, ==, start + 44 * MSS);
        g_assert_cmpuint(th_ctr(tb, 1, CTR_TcpExtRcvPruned), ==, 1);
        bool nomem = eras[i] == TCP_RCVQ_ADMIT_6_6;
        g_assert_cmpuint(th_ctr(tb, 1, CTR_TcpExtTCPRcvQDrop), ==, nomem ? 1 : 0);
        g_assert_cmpuint(th_pending(tb, 1), ==, nomem ? 1 : 0);
        if (nomem) {
            g_assert_cmpuint(tb->out[1].head->win, ==, 0);
            g_assert_cmpuint(b->rcv_wnd, ==, offered);
        }
        th_free(tb);
    }
}

/* hosts.H.tcp.rcv_ingest: when is there room for an skb? An unlocked buffer set to 86000 bytes,
 * out-of-order frames of 2624 bytes of truesize (1448 of payload) arriving behind a hole (the
 * slow path, which checks every one), 4.18 pruning. legacy: the k-th frame finds (k-1) x 2624
 * allocated and fits while that is within 86000, so the 34th (86592) prunes first, and the clamp
 * grows the buffer to 86592, which is room: no collapse. 6.17 (1d2fbaad7cd8): it must fit with
 * its truesize, so the 33rd (83968 + 2624 > 86000) prunes first; the clamp, called because it
 * does not fit, shrinks the buffer to what is allocated (83968), which never has room for more,
 * so the receive queues are collapsed. 6.18 (f017c1f768b6): with its length, the 34th (86592 +
 * 1448), clamp to 86592, collapse. Every byte stays queued in all three. */
static void test_rcv_ingest(void)
{
    static const struct {
        TcpRcvIngest rule;
        unsigned first_prune;
        uint32_t rcvbuf;
        bool collapsed;
    } cases[] = { {TCP_RCV_INGEST_LEGACY, 34, 33 * 2624, false},
                  {TCP_RCV_INGEST_6_17, 33, 32 * 2624, true},
                  {TCP_RCV_INGEST_6_18, 34, 33 * 2624, true} };
    g_assert_cmpuint(truesize_rx_frame(1500), ==, 2624);
    for (unsigned i = 0; i < G_N_ELEMENTS(cases); i++) {
        TcpBench *tb = prune_bench_era(true, TCP_PRUNE_4_18, TCP_RCVQ_ADMIT_3X);
        tb->conf[1].tcp.rcv_ingest = cases[i].rule;
        TcpSock *b = tb->b;
        tcp_sk(b)->rcvbuf = 86000;
        th_write(tb->a, 45 * MSS);
        g_assert_cmpuint(th_pending(tb, 0), ==, 45);
        Skb *hole = th_take(tb, 0);
        unsigned first = 0;
        for (unsigned k = 1; k <= 44; k++) {
            deliver_frame(tb, th_take(tb, 0));
            if (!first && th_ctr(tb, 1, CTR_TcpExtPruneCalled)) {
                first = k;
                g_assert_cmpuint(tcp_sk(b)->rcvbuf, ==, cases[i].rcvbuf);
            }
        }
        g_assert_cmpuint(first, ==, cases[i].first_prune);
        g_assert_cmpuint(th_ctr(tb, 1, CTR_TcpExtTCPRcvCollapsed) > 0, ==, cases[i].collapsed);
        g_assert_cmpuint(th_ctr(tb, 1, CTR_TcpExtRcvPruned), ==, 0);
        g_assert_cmpuint(b->ofo_queue.bytes, ==, 44 * MSS);
        deliver_frame(tb, hole);
        g_assert_cmpuint(th_read(b), ==, 45 * MSS);
        th_pump(tb);
        th_free(tb);
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/tcp/prune/collapses-ofo", test_prune_collapses_ofo);
    g_test_add_func("/tcp/prune/clamp-window-grows-rcvbuf", test_prune_clamp_window_grows_rcvbuf);
    g_test_add_func("/tcp/prune/stops-after-clamp", test_prune_stops_after_clamp);
    g_test_add_func("/tcp/prune/collapses-receive-queue", test_prune_collapses_receive_queue);
    g_test_add_func("/tcp/prune/rcvq-admit-first-skb", test_rcvq_admit_first_skb);
    g_test_add_func("/tcp/prune/rcvq-admit-nomem-ack", test_rcvq_admit_nomem_ack);
    g_test_add_func("/tcp/prune/purges-ofo", test_prune_purges_ofo);
    g_test_add_func("/tcp/prune/rcv-ingest", test_rcv_ingest);
    return g_test_run();
}
