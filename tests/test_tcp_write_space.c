/* test_tcp_write_space.c - when a sender whose writer waits for send buffer runs tcp_new_space
 * (hosts.H.tcp.check_space): <= 5.9 only after an ACK that freed write memory
 * (SOCK_QUEUE_SHRUNK, set by freeing an acked skb and by tcp_trim_head on a partly acked TSO
 * skb); 5.10+ (0cbe6a8f089e) after every ACK; 5.18+ (4bfe744ff164) also after every send.
 *
 * Each case marks the writer as waiting (SOCK_NOSPACE) with plenty of buffer free, so the only
 * question is whether tcp_new_space runs: it clears SOCK_NOSPACE (and would wake the writer). */
#include "tcp_harness.h"

/* A pure ACK to a from b's side, built by hand: ack_seq as given, window 4 MiB. */
static void ack_to_a(TcpBench *tb, uint64_t ack_seq)
{
    TcpSock *a = tb->a;
    Skb *ack = skb_alloc(tb->host[0].pool);
    ack->conn = tcp_sk(a)->conn;
    ack->seq = ack->end_seq = a->rcv_nxt;
    ack->ack_seq = ack_seq;
    ack->flags = TCPHDR_ACK;
    ack->win = 4u << 20;
    ack->tsval = ack->tsecr = 1;
    ack->gso_segs = 1;
    ack->truesize = 1280;
    tcp_v4_rcv(tcp_sk(a), ack, NULL);
}

/* a sends one 10-MSS TSO skb (MSS 1448) into a 4 MiB window and cwnd 100; the skb stays in the
 * retransmit queue, 10 x 1448 + 1280 = 15760 bytes of wmem_queued against sk_sndbuf 87040. */
static TcpBench *sender(TcpCheckSpace era)
{
    TcpBench *tb = th_new();
    tb->conf[0].tcp.check_space = era;
    th_connect(tb, 1500);
    tb->a->snd_cwnd = 100;
    tb->a->snd_wnd = tb->a->max_window = 4u << 20;
    th_write(tb->a, 10 * 1448);
    g_assert_cmpuint(th_pending(tb, 0), ==, 1);
    th_drop(tb, 0);
    g_assert_cmpuint(tcp_sk(tb->a)->wmem_queued, ==, 15760);
    return tb;
}

/* An ACK that acknowledges nothing new (a window update) frees no memory: only 5.10+ looks. */
static bool nospace_after_window_update(TcpCheckSpace era)
{
    TcpBench *tb = sender(era);
    tb->a->sock_nospace = true;
    ack_to_a(tb, tb->a->snd_una);
    bool left = tb->a->sock_nospace;
    th_free(tb);
    return left;
}

static void test_every_ack(void)
{
    g_assert_true(nospace_after_window_update(TCP_CHECK_SPACE_QUEUE_SHRUNK));
    g_assert_false(nospace_after_window_update(TCP_CHECK_SPACE_5_10));
    g_assert_false(nospace_after_window_update(TCP_CHECK_SPACE_5_18));
}

/* <= 5.9: an ACK of the first 2 MSS of the 10-MSS skb trims its head (tcp_trim_head), which
 * marks the queue shrunk: the waiting writer is looked at without a whole skb freed. */
static void test_partial_tso_ack_shrinks(void)
{
    TcpBench *tb = sender(TCP_CHECK_SPACE_QUEUE_SHRUNK);
    tb->a->sock_nospace = true;
    ack_to_a(tb, tb->a->snd_una + 2 * 1448);
    g_assert_cmpuint(tb->a->rtx_queue.qlen, ==, 1); /* the skb is still there, 8 MSS */
    g_assert_cmpuint(tcp_sk(tb->a)->wmem_queued, ==, 15760 - 2 * 1448);
    g_assert_false(tb->a->sock_nospace);
    th_free(tb);
}

/* 5.18+: a send alone runs the check (here it also grows sk_sndbuf: cwnd 100 is not full, so
 * tcp_sndbuf_expand sizes the buffer for it, 2 x 100 x 4352 = 870400); 5.10 waits for an ACK. */
static void test_check_after_send(void)
{
    for (int i = 0; i < 2; i++) {
        TcpBench *tb = sender(i ? TCP_CHECK_SPACE_5_18 : TCP_CHECK_SPACE_5_10);
        tb->a->sock_nospace = true;
        th_write(tb->a, 1448);
        th_drop(tb, 0);
        g_assert_true(tb->a->sock_nospace == !i);
        g_assert_cmpuint(tcp_sk(tb->a)->sndbuf, ==, i ? 870400 : 87040);
        th_free(tb);
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/tcp/write-space/every-ack", test_every_ack);
    g_test_add_func("/tcp/write-space/partial-tso-ack", test_partial_tso_ack_shrinks);
    g_test_add_func("/tcp/write-space/after-send", test_check_after_send);
    return g_test_run();
}
