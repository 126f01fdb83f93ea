/* test_tcp_lo_acks.c - which receiver rule ACKs a bulk flow over loopback (seed 001, notes
 * H.E.5 item 3, H.D.3, T.A.2, T.A.6-A.7).
 *
 * Kernel facts used (tcp_input.c / tcp.c, read for this test): tcp_measure_rcv_mss learns
 * rcv_mss = min(len, advmss) with len = gso_size, or skb->len for a one-segment skb; the
 * immediate ACK of __tcp_ack_snd_check needs rcv_nxt - rcv_wup > rcv_mss and a window whose
 * right edge does not move back; tcp_cleanup_rbuf ACKs after a read when more than rcv_mss is
 * unacknowledged or the window could double. On lo (MTU 65535: advmss and mss 65495 - 12 =
 * 65483 with timestamps, tcp_rcv_synsent_state_process / tcp_rcv_state_process) a bulk sender's skbs are ONE segment of 65483 bytes (tcp_xmit_size_goal: 64 KiB
 * / 65483 = 0 segments -> max(0, mss) = mss; this model's tcp_send_mss caps its goal at sk_gso_max_size,
 * = 1 x 65483), so rcv_mss = 65483 = skb->len and the receiver ACKs every SECOND skb,
 * not every skb. (An skb of >= 2 segments, e.g. while mss is still bounded to half the 64 KB
 * SYN window by tcp_sync_mss, would exceed rcv_mss and be ACKed on its own.)
 *
 * Bench: b's rcvbuf 4 MiB -> window_clamp = win(4194304) = 2097152, rcv_wscale 7. A 65483-byte
 * data skb captured from a has truesize 1280 + 65483 = 66763 (truesize_tx_skb).
 * Warm-up: skb 0 gets a quick ACK (first data: quick = 2). Then the state tcp_grow_window
 * converges to within ~15 skbs is set: rcv_ssthresh = min(window_clamp, tcp_space with one skb
 * queued) = win(4194304 - 66763) = 2063771, quick = 0. skb 1 arrives (delayed: 65483 is not >
 * rcv_mss); the read's tcp_cleanup_rbuf finds the window can double (rcv_window_now =
 * 196608 - 65483 = 131125, new window min(2097152, rcv_ssthresh) rounded up to 128 = 2063872
 * >= 2 x 131125) and ACKs: rcv_wnd = 2063872.
 * Steady state, the reader reading each skb before the next arrives: skb 2 -> no ACK (delayed;
 * the read sends none: 65483 is not > rcv_mss and the window cannot double); skb 3 ->
 * rcv_nxt - rcv_wup = 130966 > 65483 and the window with one skb queued is again
 * win(4194304 - 66763) = 2063771 -> 2063872 >= rcv_wnd -> immediate ACK of both.
 */
#include "tcp_harness.h"

#define LO_MTU 65535u
#define LO_MSS 65483u
#define LO_TRUESIZE (1280u + LO_MSS)

static void send_one(TcpBench *tb)
{
    th_write(tb->a, LO_MSS);
    g_assert_cmpuint(th_pending(tb, 0), ==, 1);
    g_assert_cmpuint(tb->out[0].head->len, ==, LO_MSS); /* one segment per skb */
    th_deliver(tb, 0);
}

static void test_lo_acks_every_second_skb(void)
{
    TcpBench *tb = th_new();
    tb->conf[1].tcp.rcvbuf = 4u << 20;
    /* seed 001's kernel (5.3): each th_write ends with PSH, and since 6.6 a full-sized PSH skb
     * is marked PUSHED, so every read below would ACK it (tcp.push_full_mss, test_tcp_ack.c) */
    tb->conf[1].tcp.push_full_mss = false;
    th_connect(tb, LO_MTU);
    /* tcp_sync_mss bounds the MSS to half the SYN-ACK's 65535 window; the receiver's first
     * window update (196608 below) lifts it. Start from there: one-segment skbs. */
    g_assert_cmpuint(tb->a->mss_cache, ==, 65535u / 2);
    g_assert_cmpuint(tb->a->mss_pmtu, ==, LO_MSS);
    tb->a->max_window = tb->a->snd_wnd = 196608u;
    tcp_sync_mss(tb->a);
    g_assert_cmpuint(tb->a->mss_cache, ==, LO_MSS);
    g_assert_cmpuint(tb->b->window_clamp, ==, 2097152u);

    send_one(tb); /* skb 0: the first data, quick ACK */
    g_assert_cmpuint(tb->b->ack.rcv_mss, ==, LO_MSS);
    g_assert_cmpuint(tb->b->sk.rmem_alloc, ==, LO_TRUESIZE);
    g_assert_cmpuint(th_pending(tb, 1), ==, 1);
    g_assert_cmpuint(tb->b->rcv_wnd, ==, 196608u);
    th_deliver(tb, 1);
    th_read(tb->b);
    g_assert_cmpuint(th_pending(tb, 1), ==, 0);

    tb->b->rcv_ssthresh = tcp_win_from_space(tb->b, 4194304u - LO_TRUESIZE);
    g_assert_cmpuint(tb->b->rcv_ssthresh, ==, 2063771u);
    tb->b->ack.quick = 0;

    send_one(tb); /* skb 1: delayed; the read's window update ACKs it */
    g_assert_cmpuint(th_pending(tb, 1), ==, 0);
    th_read(tb->b);
    g_assert_cmpuint(th_pending(tb, 1), ==, 1);
    g_assert_cmpuint(tb->b->rcv_wnd, ==, 2063872u);
    th_deliver(tb, 1);

    for (int pair = 0; pair < 3; pair++) {
        uint64_t start = tb->b->rcv_nxt;
        send_one(tb); /* delayed */
        g_assert_cmpuint(th_pending(tb, 1), ==, 0);
        th_read(tb->b); /* no ACK from tcp_cleanup_rbuf either */
        g_assert_cmpuint(th_pending(tb, 1), ==, 0);
        send_one(tb); /* 2 x 65483 > rcv_mss: immediate */
        g_assert_cmpuint(th_pending(tb, 1), ==, 1);
        g_assert_cmpuint(tb->out[1].head->ack_seq, ==, start + 2u * LO_MSS);
        g_assert_cmpuint(tb->b->rcv_wnd, ==, 2063872u);
        th_deliver(tb, 1);
        th_read(tb->b);
        g_assert_cmpuint(th_pending(tb, 1), ==, 0);
    }
    th_free(tb);
}

/* The tail of each large write on lo is a small PSH segment (seed 001: 4 MiB = 64 x 65483 +
 * 3392). tcp_measure_rcv_mss clears icsk_ack.last_seg_size on EVERY call (net/ipv4/tcp_input.c,
 * unchanged from 2.6 to 6.x), so only two CONSECUTIVE small segments of the same length lower
 * rcv_mss; equal tails with full segments between them leave it at the full size (they only
 * set ICSK_ACK_PUSHED). */
#define LO_TAIL 3392u

static void write_and_read(TcpBench *tb, uint64_t bytes)
{
    th_write(tb->a, bytes);
    th_pump(tb);
    th_read(tb->b);
    th_pump(tb);
}

static void test_lo_write_tails_keep_rcv_mss(void)
{
    TcpBench *tb = th_new();
    tb->conf[1].tcp.rcvbuf = 4u << 20;
    th_connect(tb, LO_MTU);
    tb->a->max_window = tb->a->snd_wnd = 196608u; /* past tcp_sync_mss's half-window bound */
    tcp_sync_mss(tb->a);
    for (int w = 0; w < 3; w++) {
        write_and_read(tb, LO_MSS + LO_TAIL); /* one full segment, then the tail */
        g_assert_cmpuint(tb->b->ack.rcv_mss, ==, LO_MSS);
        g_assert_cmpuint(tb->b->ack.last_seg_size, ==, LO_TAIL);
    }
    write_and_read(tb, LO_TAIL); /* a second small segment in a row: now it counts */
    g_assert_cmpuint(tb->b->ack.rcv_mss, ==, LO_TAIL);
    write_and_read(tb, LO_MSS); /* a full segment restores it and forgets the small size */
    g_assert_cmpuint(tb->b->ack.rcv_mss, ==, LO_MSS);
    g_assert_cmpuint(tb->b->ack.last_seg_size, ==, 0);
    th_free(tb);
}

/* lo's MTU is 65536 (models/world.c LOOPBACK_MTU, notes E.5), but an IPv4 packet is at most
 * 65535 bytes: ipv4_default_advmss caps advmss at IPV4_MAX_PMTU - 40 = 65495, less the 12-byte
 * timestamp option once negotiated = 65483, so the segment (65483 + 32 header bytes + 20) still
 * fits the 16-bit total length. */
static void test_lo_mtu_65536_mss(void)
{
    TcpBench *tb = th_new();
    th_connect(tb, 65536);
    g_assert_cmpuint(tb->a->advmss, ==, 65495u - 12u);
    g_assert_cmpuint(tb->a->mss_pmtu, ==, LO_MSS);
    tb->a->max_window = tb->a->snd_wnd = 196608u; /* past tcp_sync_mss's half-window bound */
    tcp_sync_mss(tb->a);
    g_assert_cmpuint(tb->a->mss_cache, ==, LO_MSS);
    th_write(tb->a, 2u * LO_MSS);
    g_assert_cmpuint(tb->out[0].head->len, ==, LO_MSS);
    g_assert_cmpuint(tb->out[0].head->len + 32u + 20u, <=, 65535u);
    th_pump(tb);
    th_free(tb);
}

/* tcp_sync_mss bounds the MSS to half the peer's largest window (tcp_bound_to_half_wnd), and
 * the handshake's window is the SYN-ACK's unscaled 65535: over lo the sender starts with
 * 32767-byte segments. As the receiver's window grows (its 4 MiB buffer), each ACK that raises
 * max_window re-syncs the MSS (tcp_ack_update_window) to min(65483, max_window / 2), until the
 * full 65483.
 * With a receiver whose window stays at 32 KiB, segments stay at 16 KiB, two in its window. */
static void test_lo_mss_bounded_by_half_the_window(void)
{
    TcpBench *tb = th_new();
    tb->conf[1].tcp.rcvbuf = 4u << 20;
    th_connect(tb, LO_MTU);
    g_assert_cmpuint(tb->a->max_window, ==, 65535u);
    g_assert_cmpuint(tb->a->mss_cache, ==, 32767u);
    for (int i = 0; i < 4 && tb->a->mss_cache < LO_MSS; i++) {
        th_write(tb->a, 2u * 32767u);
        th_pump(tb);
        th_read(tb->b);
        th_pump(tb);
        uint32_t half = tb->a->max_window / 2;
        g_assert_cmpuint(tb->a->mss_cache, ==, half < LO_MSS ? half : LO_MSS);
    }
    g_assert_cmpuint(tb->a->max_window, >=, 2u * LO_MSS);
    g_assert_cmpuint(tb->a->mss_cache, ==, LO_MSS);
    th_free(tb);

    tb = th_new();
    th_connect(tb, LO_MTU);
    tb->a->max_window = tb->a->snd_wnd = 32768u;
    tcp_sync_mss(tb->a);
    g_assert_cmpuint(tb->a->mss_cache, ==, 16384u);
    th_write(tb->a, 32768u);
    g_assert_cmpuint(th_pending(tb, 0), >=, 1);
    g_assert_cmpuint(tb->out[0].head->len, <=, 32768u);
    g_assert_cmpuint(tb->a->snd_nxt - tb->a->snd_una, ==, 32768u); /* the whole window went */
    th_free(tb);
}

/* Over lo the receiver gets the very skb tcp_transmit_skb cloned: its data is shared with the
 * original, which stays in the sender's retransmit queue until ACKed - i.e. until after the
 * receiver has processed the clone - so skb_cloned() holds for every data skb in the
 * receiver's backlog, and skb_try_coalesce() refuses to grow a cloned skb (net/core/skbuff.c:
 * "if (skb_cloned(to)) return false", every kernel since 3.5). tcp_add_backlog's coalescing
 * (5.0+) therefore never merges loopback data: each 64 KB skb is its own backlog entry. A pure
 * ACK is a fresh skb (tcp_send_ack: alloc_skb, transmitted without a clone), so two ACKs into
 * the sender's owned socket do coalesce - the "single ACK, thanks to coalescing" of seed 001. */
static void test_lo_data_clones_do_not_coalesce(void)
{
    TcpBench *tb = th_new();
    tb->conf[1].tcp.rcvbuf = 4u << 20;
    th_connect(tb, LO_MTU);
    tb->a->max_window = tb->a->snd_wnd = 196608u;
    tcp_sync_mss(tb->a);
    tcp_sk(tb->b)->owned = true; /* the reader is inside recvmsg, copying */
    th_write(tb->a, 2u * LO_MSS);
    g_assert_cmpuint(th_pending(tb, 0), ==, 2);
    th_deliver(tb, 0);
    th_deliver(tb, 0);
    g_assert_cmpuint(tcp_sk(tb->b)->backlog.qlen, ==, 2);
    g_assert_cmpuint(th_ctr(tb, 1, CTR_TcpExtTCPBacklogCoalesce), ==, 0);
    g_assert_cmpuint(tb->a->packets_out, ==, 2); /* the originals the clones share data with */
    th_drain(tb->b);
    g_assert_cmpuint(tb->b->rcv_nxt - tb->b->copied_seq, ==, 2u * LO_MSS);

    /* ACKs: b's to the owned a coalesce into one */
    while (th_pending(tb, 1)) /* the drain's quick ACK(s), to a not yet owned */
        th_deliver(tb, 1);
    tcp_sk(tb->a)->owned = true; /* the sender is inside sendmsg */
    tcp_send_ack(tb->b, NULL);
    tcp_send_ack(tb->b, NULL);
    uint32_t acks = th_pending(tb, 1);
    g_assert_cmpuint(acks, ==, 2);
    while (th_pending(tb, 1))
        th_deliver(tb, 1);
    g_assert_cmpuint(tcp_sk(tb->a)->backlog.qlen, ==, 1);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPBacklogCoalesce), ==, acks - 1u);
    th_drain(tb->a);
    g_assert_cmpuint(tb->a->packets_out, ==, 0);
    th_free(tb);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/tcp/lo/acks-every-second-skb", test_lo_acks_every_second_skb);
    g_test_add_func("/tcp/lo/write-tails-keep-rcv-mss", test_lo_write_tails_keep_rcv_mss);
    g_test_add_func("/tcp/lo/mtu-65536-mss", test_lo_mtu_65536_mss);
    g_test_add_func("/tcp/lo/mss-bounded-by-half-the-window", test_lo_mss_bounded_by_half_the_window);
    g_test_add_func("/tcp/lo/data-clones-do-not-coalesce", test_lo_data_clones_do_not_coalesce);
    return g_test_run();
}
