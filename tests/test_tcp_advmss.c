/* test_tcp_advmss.c - the MSS a receiver works with loses the timestamp option.
 *
 * Kernel rule (net/ipv4/tcp_input.c, 2.6 to today): once timestamps are negotiated,
 * tcp_rcv_synsent_state_process (active side) and the TCP_SYN_RECV case of
 * tcp_rcv_state_process (passive side) do tp->advmss -= TCPOLEN_TSTAMP_ALIGNED (12), so both
 * ends' advmss is the PMTU's MSS minus the option, the payload a full segment really carries:
 *   MTU 1500: 1500 - 20 (IPv4) - 20 (TCP) = 1460, 1448 with timestamps;
 *   lo (MTU 65536): ipv4_default_advmss caps at 65535 - 40 = 65495, 65483 with timestamps.
 * Everything the receiver sizes from advmss follows; here the initial autotuning target,
 * tcp_init_buffer_space's rcvq_space.space = min(rcv_wnd, rcv_ssthresh, TCP_INIT_CWND x advmss)
 * (4.20+, 041a14d26715). Bench: rcvbuf 131072, adv_win_scale 1 -> window_clamp 65536, first
 * window min(65536, 65535) = 65535 = rcv_ssthresh, so the cap is 10 x advmss: 14480 with
 * timestamps, 14600 without.
 */
#include "tcp_harness.h"

static TcpBench *bench(bool ts_client, bool ts_server, uint32_t mtu)
{
    TcpBench *tb = th_new();
    tb->conf[0].tcp.timestamps = ts_client;
    tb->conf[1].tcp.timestamps = ts_server;
    th_connect(tb, mtu);
    return tb;
}

static void assert_both(const TcpBench *tb, uint32_t advmss)
{
    const TcpSock *s[2] = { tb->a, tb->b };
    for (int i = 0; i < 2; i++) {
        g_assert_cmpuint(s[i]->advmss, ==, advmss);
        g_assert_cmpuint(s[i]->mss_pmtu, ==, advmss); /* sender and receiver agree on a segment */
    }
}

static void test_ethernet_with_timestamps(void)
{
    TcpBench *tb = bench(true, true, 1500);
    assert_both(tb, 1448u);
    g_assert_cmpuint(tb->a->rcvq_space.space, ==, 10u * 1448u);
    g_assert_cmpuint(tb->b->rcvq_space.space, ==, 10u * 1448u);
    th_free(tb);
}

static void test_ethernet_without_timestamps(void)
{
    TcpBench *tb = bench(false, false, 1500);
    assert_both(tb, 1460u);
    g_assert_cmpuint(tb->b->rcvq_space.space, ==, 10u * 1460u);
    th_free(tb);
}

/* One side refusing is enough: the option is only used when both SYNs carried it. */
static void test_one_side_without_timestamps(void)
{
    TcpBench *tb = bench(true, false, 1500);
    assert_both(tb, 1460u);
    th_free(tb);
}

static void test_loopback(void)
{
    TcpBench *tb = bench(true, true, 65536);
    assert_both(tb, 65483u);
    th_free(tb);
    tb = bench(false, false, 65536);
    assert_both(tb, 65495u);
    th_free(tb);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/tcp/advmss/ethernet-timestamps", test_ethernet_with_timestamps);
    g_test_add_func("/tcp/advmss/ethernet-no-timestamps", test_ethernet_without_timestamps);
    g_test_add_func("/tcp/advmss/one-side-no-timestamps", test_one_side_without_timestamps);
    g_test_add_func("/tcp/advmss/loopback", test_loopback);
    return g_test_run();
}
