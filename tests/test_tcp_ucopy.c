/* test_tcp_ucopy.c - the reader's direct copy (tcp_copy_to_iovec, 2.6-4.13) and what it does to
 * the receiver's 2-MSS ACK rule (notes H.A.3 prequeue, H.D.3, T.A.6; seed 004).
 *
 * Bench: MTU 1500 (advmss 1460, mss 1448 with timestamps), rcvbuf 131072 -> window_clamp =
 * tcp_win_from_space(131072) = 65536, rcv_wscale 7 (rcvbuf_max 6 MiB), 2012 stack (no ACK
 * deferral). A data skb as captured from a is a clone of its write-queue skb: truesize =
 * truesize_tx_skb(1448) = 1280 + 1448 = 2728.
 * Warm-up: one 1448-byte segment reaches b unowned; the first data gives a quick-ACK budget, so
 * b ACKs at once; at that moment rmem = 2728, so the window it advertises is
 * win(131072 - 2728) = 65536 - 1364 = 64172, rounded up to the 128-byte unit: 64256 = rcv_wnd.
 * The reader reads it (rmem 0). Then quick = 0 and rcv_ssthresh = window_clamp = 65536, so no
 * quick ACK and no window growth interferes (tcp_grow_window's room is 0 with rmem 0).
 * Then b is owned by its reader, inside recvmsg (ucopy installed, 64 KiB wanted), and two more
 * 1448-byte segments are processed in the owner's context (as its backlog drain does):
 *   direct copy on: each is copied to the user (c.done 1448, 2896), copied_seq = rcv_nxt, the
 *     receive queue stays empty. Segment 1: rcv_nxt - rcv_wup = 1448, not > rcv_mss 1448 ->
 *     delayed ACK. Segment 2: 2896 > 1448 and nothing unread -> an immediate ACK of both.
 *   direct copy off (prequeue era off, the model before this mechanism): both are queued,
 *     rmem = 5456, free = win(131072 - 5456) = 62808 -> 62848 after rounding < rcv_wnd 64256:
 *     the right edge would move back, so no ACK now (delayed); the reader's tcp_cleanup_rbuf
 *     ACKs once it has read both (2896 > 1448).
 */
#include "tcp_harness.h"

#define SEG 1448u

static TcpBench *bench_after_warm_up(void)
{
    TcpBench *tb = th_new();
    tb->stack.backlog_ack_defer = false; /* 2012 */
    th_connect(tb, 1500);
    th_write(tb->a, SEG);
    th_deliver(tb, 0);
    g_assert_cmpuint(tb->b->ack.rcv_mss, ==, SEG);
    g_assert_cmpuint(tb->b->sk.rmem_alloc, ==, 2728u);
    g_assert_cmpuint(th_pending(tb, 1), ==, 1); /* quick ACK */
    g_assert_cmpuint(tb->b->rcv_wnd, ==, 64256u);
    th_deliver(tb, 1);
    th_read(tb->b);
    g_assert_cmpuint(tb->b->sk.rmem_alloc, ==, 0);
    g_assert_cmpuint(th_pending(tb, 1), ==, 0);
    tb->b->ack.quick = 0;
    tb->b->rcv_ssthresh = tb->b->window_clamp;
    g_assert_cmpuint(tb->b->window_clamp, ==, 65536u);
    return tb;
}

/* b's reader owns the socket inside recvmsg; two segments are processed in its context. */
static void two_segments_in_owner_context(TcpBench *tb, TcpCall *c, Task *reader)
{
    Sock *sk = tcp_sk(tb->b);
    sk->owned = true;
    sk->owner = reader;
    tb->b->ucopy_task = reader;
    tb->b->ucopy_call = c;
    for (int i = 0; i < 2; i++) {
        th_write(tb->a, SEG);
        Skb *skb = th_take(tb, 0);
        g_assert_nonnull(skb);
        g_assert_cmpuint(skb->len, ==, SEG);
        sk->ops->backlog_rcv(sk, skb, NULL); /* what __release_sock does with it */
        if (i == 0)
            g_assert_cmpuint(th_pending(tb, 1), ==, 0); /* 1448 is not > rcv_mss */
    }
}

static void release(TcpBench *tb)
{
    tb->b->ucopy_task = NULL;
    tb->b->ucopy_call = NULL;
    tcp_sk(tb->b)->owned = false;
    tcp_sk(tb->b)->owner = NULL;
}

static void test_direct_copy_acks_every_second_segment(void)
{
    TcpBench *tb = bench_after_warm_up();
    tb->stack.prequeue_enabled = true;
    TcpCall c;
    tcp_call_init(&c, 65536, 1);
    Task reader = { 0 };
    uint64_t start = tb->b->rcv_nxt;
    two_segments_in_owner_context(tb, &c, &reader);
    g_assert_cmpuint(c.done, ==, 2u * SEG);
    g_assert_cmpuint(tb->b->copied_seq, ==, start + 2u * SEG);
    g_assert_cmpuint(tb->b->rcv_nxt, ==, start + 2u * SEG);
    g_assert_cmpuint(tb->b->rcv_queue.qlen, ==, 0);
    g_assert_cmpuint(tb->b->sk.rmem_alloc, ==, 0);
    g_assert_cmpuint(th_pending(tb, 1), ==, 1); /* immediate ACK after the second */
    Skb *ack = th_take(tb, 1);
    g_assert_cmpuint(ack->ack_seq, ==, start + 2u * SEG);
    g_assert_cmpuint(ack->len, ==, 0);
    skb_free(tb->host[1].pool, ack);
    release(tb);
    th_free(tb);
}

/* The reader has read everything (direct copy), but the application has just clamped the window
 * (setsockopt TCP_WINDOW_CLAMP 32768: window_clamp and rcv_ssthresh 32768, so tcp_grow_window
 * has no room and gives no quick ACK): __tcp_select_window() = min(win(131072) = 65536,
 * rcv_ssthresh 32768) = 32768 < rcv_wnd 64256, so the window test of
 * __tcp_ack_snd_check fails after the second segment. 4.18+ (tcp.ack_rcvlowat) still ACKs at
 * once: nothing is unread, below SO_RCVLOWAT (1). 2.6-4.17 had only the window test: the ACK is
 * delayed and tcp_cleanup_rbuf sends it at the end of the read (2896 > rcv_mss). Returns the
 * ACKs sent before the read ends. */
static uint32_t acks_with_shrunk_ssthresh(bool ack_rcvlowat)
{
    TcpBench *tb = bench_after_warm_up();
    tb->stack.prequeue_enabled = true;
    tb->conf[1].tcp.ack_rcvlowat = ack_rcvlowat;
    tb->b->window_clamp = 32768;
    tb->b->rcv_ssthresh = 32768;
    TcpCall c;
    tcp_call_init(&c, 65536, 1);
    Task reader = { 0 };
    uint64_t start = tb->b->rcv_nxt;
    two_segments_in_owner_context(tb, &c, &reader);
    g_assert_cmpuint(tb->b->copied_seq, ==, start + 2u * SEG);
    g_assert_cmpuint(__tcp_select_window(tb->b), ==, 32768u);
    uint32_t before_read = th_pending(tb, 1);
    tcp_cleanup_rbuf(tb->b, c.done, NULL); /* the end of tcp_recvmsg */
    g_assert_cmpuint(th_pending(tb, 1), ==, 1); /* one ACK either way */
    Skb *ack = th_take(tb, 1);
    g_assert_cmpuint(ack->ack_seq, ==, start + 2u * SEG);
    skb_free(tb->host[1].pool, ack);
    release(tb);
    th_free(tb);
    return before_read;
}

static void test_ack_rcvlowat_era(void)
{
    g_assert_cmpuint(acks_with_shrunk_ssthresh(true), ==, 1);
    g_assert_cmpuint(acks_with_shrunk_ssthresh(false), ==, 0);
}

static void test_queued_data_delays_the_ack_to_the_read(void)
{
    TcpBench *tb = bench_after_warm_up();
    tb->stack.prequeue_enabled = false; /* 4.14+: no ucopy */
    TcpCall c;
    tcp_call_init(&c, 65536, 1);
    Task reader = { 0 };
    uint64_t start = tb->b->rcv_nxt;
    two_segments_in_owner_context(tb, &c, &reader);
    g_assert_cmpuint(c.done, ==, 0);
    g_assert_cmpuint(tb->b->copied_seq, ==, start);
    g_assert_cmpuint(tb->b->sk.rmem_alloc, ==, 2u * 2728u);
    g_assert_cmpuint(__tcp_select_window(tb->b), ==, 62848u);
    g_assert_cmpuint(tb->b->rcv_wnd, ==, 64256u);
    g_assert_cmpuint(th_pending(tb, 1), ==, 0); /* delayed: the edge would move back */
    g_assert_true(tb->b->ack.pending & ICSK_ACK_TIMER);
    release(tb);
    g_assert_cmpuint(th_read(tb->b), ==, 2u * SEG); /* tcp_cleanup_rbuf: 2896 > rcv_mss */
    g_assert_cmpuint(th_pending(tb, 1), ==, 1);
    Skb *ack = th_take(tb, 1);
    g_assert_cmpuint(ack->ack_seq, ==, start + 2u * SEG);
    skb_free(tb->host[1].pool, ack);
    th_free(tb);
}

/* A segment that does not fit the reader's remaining buffer is queued (len <= ucopy.len). */
static void test_direct_copy_needs_room(void)
{
    TcpBench *tb = bench_after_warm_up();
    tb->stack.prequeue_enabled = true;
    TcpCall c;
    tcp_call_init(&c, SEG - 1, 1);
    Task reader = { 0 };
    Sock *sk = tcp_sk(tb->b);
    sk->owned = true;
    sk->owner = &reader;
    tb->b->ucopy_task = &reader;
    tb->b->ucopy_call = &c;
    th_write(tb->a, SEG);
    sk->ops->backlog_rcv(sk, th_take(tb, 0), NULL);
    g_assert_cmpuint(c.done, ==, 0);
    g_assert_cmpuint(tb->b->rcv_queue.qlen, ==, 1);
    g_assert_cmpuint(tb->b->sk.rmem_alloc, ==, 2728u);
    release(tb);
    th_read(tb->b);
    th_pump(tb);
    th_free(tb);
}

/* A direct copy measures for autotuning too: 3.4's tcp_copy_to_iovec calls
 * tcp_rcv_space_adjust after copying. With a 1 us receiver RTT and the last measurement at 0,
 * the first segment processed at 1 ms starts a new measurement there (copied 1448 is below
 * the initial space 65535: no growth); the second, at the same instant, is inside the RTT. */
static void test_direct_copy_measures(void)
{
    TcpBench *tb = bench_after_warm_up();
    tb->stack.prequeue_enabled = true;
    tb->b->rcv_rtt_us = 8;
    tb->b->rcvq_space.seq = tb->b->copied_seq;
    tb->b->rcvq_space.time = 0;
    uint32_t space = tb->b->rcvq_space.space;
    th_run_to(tb, SIM_MS);
    TcpCall c;
    tcp_call_init(&c, 65536, 1);
    Task reader = { 0 };
    uint64_t start = tb->b->rcv_nxt;
    two_segments_in_owner_context(tb, &c, &reader);
    g_assert_cmpuint(c.done, ==, 2u * SEG);
    g_assert_cmpuint(tb->b->rcvq_space.seq, ==, start + SEG);
    g_assert_cmpint(tb->b->rcvq_space.time, ==, SIM_MS);
    g_assert_cmpuint(tb->b->rcvq_space.space, ==, space);
    release(tb);
    th_pump(tb);
    th_free(tb);
}

/* The slow path copies to the reader too (3.4 tcp_data_queue, 2.6-4.13: "if (tp->ucopy.task ==
 * current && tp->copied_seq == tp->rcv_nxt && tp->ucopy.len && sock_owned_by_user(sk)")): an
 * in-order segment that header prediction turned away (pred_ok off, as while the out-of-order
 * queue held data) is copied to the user whole when it fits, and not queued. */
/* One segment reaches a reader that owns the socket with `len` bytes of its read left, through
 * the slow path (pred_ok off). Returns the bench; *start is rcv_nxt before it. */
static TcpBench *slow_path_to_reader(TcpCall *c, Task *reader, uint64_t len, uint64_t *start)
{
    TcpBench *tb = bench_after_warm_up();
    tb->stack.prequeue_enabled = true;
    tcp_call_init(c, len, 1);
    Sock *sk = tcp_sk(tb->b);
    sk->owned = true;
    sk->owner = reader;
    tb->b->ucopy_task = reader;
    tb->b->ucopy_call = c;
    *start = tb->b->rcv_nxt;
    tb->b->pred_ok = false;
    th_write(tb->a, SEG);
    sk->ops->backlog_rcv(sk, th_take(tb, 0), NULL);
    return tb;
}

static void test_slow_path_copies_to_the_reader(void)
{
    TcpCall c;
    Task reader = { 0 };
    uint64_t start;
    TcpBench *tb = slow_path_to_reader(&c, &reader, 65536, &start);
    g_assert_cmpuint(c.done, ==, SEG);
    g_assert_cmpuint(tb->b->copied_seq, ==, start + SEG);
    g_assert_cmpuint(tb->b->rcv_nxt, ==, start + SEG);
    g_assert_cmpuint(tb->b->rcv_queue.qlen, ==, 0);
    g_assert_cmpuint(tb->b->sk.rmem_alloc, ==, 0);
    release(tb);
    th_pump(tb);
    th_free(tb);
}

/* Unlike the fast path (len <= ucopy.len), the slow path copies what fits, min(skb->len,
 * ucopy.len), and queues the skb with the rest (eaten only when all of it was copied); the
 * next read takes the remaining bytes from the receive queue. */
static void test_slow_path_copies_a_partial_chunk(void)
{
    TcpCall c;
    Task reader = { 0 };
    uint64_t start;
    TcpBench *tb = slow_path_to_reader(&c, &reader, 1000, &start);
    g_assert_cmpuint(c.done, ==, 1000);
    g_assert_cmpuint(tb->b->copied_seq, ==, start + 1000);
    g_assert_cmpuint(tb->b->rcv_nxt, ==, start + SEG);
    g_assert_cmpuint(tb->b->rcv_queue.qlen, ==, 1);
    g_assert_cmpuint(tb->b->sk.rmem_alloc, ==, 2728u);
    release(tb);
    g_assert_cmpuint(th_read(tb->b), ==, SEG - 1000);
    th_pump(tb);
    th_free(tb);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/tcp/ucopy/direct-copy-acks-every-second-segment",
                    test_direct_copy_acks_every_second_segment);
    g_test_add_func("/tcp/ucopy/queued-data-delays-the-ack-to-the-read",
                    test_queued_data_delays_the_ack_to_the_read);
    g_test_add_func("/tcp/ucopy/direct-copy-needs-room", test_direct_copy_needs_room);
    g_test_add_func("/tcp/ucopy/ack-rcvlowat-era", test_ack_rcvlowat_era);
    g_test_add_func("/tcp/ucopy/direct-copy-measures", test_direct_copy_measures);
    g_test_add_func("/tcp/ucopy/slow-path-copies-to-the-reader", test_slow_path_copies_to_the_reader);
    g_test_add_func("/tcp/ucopy/slow-path-copies-a-partial-chunk", test_slow_path_copies_a_partial_chunk);
    return g_test_run();
}
