/* test_tcp_bulk.c - the bulk-transfer path: sender, receiver, ACK clock, cwnd growth. */
#include "tcp_harness.h"

/* 1 MB over an instantaneous path, the receiver reading after every delivery round. */
static void test_bulk_transfer(void)
{
    TcpBench *tb = th_new();
    th_connect(tb, 1500);
    /* MSS = 1500 - 40 - 12 (timestamps) = 1448 */
    g_assert_cmpuint(tb->a->mss_cache, ==, 1448);
    g_assert_cmpuint(tb->a->snd_cwnd, ==, 10);
    /* 15 writes of 45 MSS: no sub-MSS tail, so segments = bytes / MSS exactly */
    uint64_t total = 15 * 45 * 1448;
    uint64_t written = 0;
    for (int round = 0; round < 10000 && tb->b->bytes_received < total; round++) {
        if (written < total && tb->a->sk.wmem_queued < tb->a->sk.sndbuf) {
            uint64_t n = 45 * 1448;
            th_write(tb->a, n);
            written += n;
        }
        th_run_to(tb, sim_now(tb->sim) + 100 * SIM_US);
        th_pump(tb);
        th_read(tb->b);
        th_pump(tb);
    }
    g_assert_cmpuint(tb->b->bytes_received, ==, total);
    g_assert_cmpuint(tb->a->snd_una, ==, 1 + total);
    g_assert_cmpuint(tb->a->packets_out, ==, 0);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpRetransSegs), ==, 0);
    /* every byte was new data: 15 * 45 = 675 segments, counted by pcount; the receiver's
     * TcpInSegs counts skbs (TSO skbs of several MSS), so fewer than 675 */
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpOutSegs), ==, 675);
    g_assert_cmpuint(th_ctr(tb, 1, CTR_TcpInSegs), <, 675);
    g_assert_cmpuint(th_ctr(tb, 1, CTR_TcpInSegs), ==, tb->sent[0]);
    g_assert_cmpuint(tb->a->snd_cwnd, >, 10);
    th_free(tb);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/tcp/bulk/transfer", test_bulk_transfer);
    return g_test_run();
}
