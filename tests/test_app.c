/* test_app.c - the netperf-like application threads (models/app.c).
 *
 * netserver's receive size: with no -M option it reads recv_size = lsr_size bytes per recv(),
 * lsr_size being the SO_RCVBUF it read with getsockopt() when it set the socket up (netperf
 * nettest_bsd.c recv_tcp_stream / nettest_omni.c recv_omni). That is the initial sk_rcvbuf,
 * tcp_rmem[1] = 131072, and it does not follow receive-buffer autotuning afterwards. The size
 * decides how often the reader leaves recvmsg() and runs release_sock() (seed 000).
 */
#include <glib.h>

#include "models/softnet.h"
#include "models/app.h"
#include "models/netdev.h"
#include "models/sock_test_util.h"
#include "models/tcp_internal.h"

/* Loopback stream, writer on CPU 0 (64 KiB writes), netserver on CPU 1, 20 ms. The receiver's
 * sk_rcvbuf autotunes above 131072 (tcp_rcv_space_adjust), the read size stays 131072. */
static void test_stream_recv_size_is_initial_rcvbuf(void)
{
    TestHost *th = test_host_new(2, 1000);
    test_host_build(th);
    Host *h = &th->host;
    h->socks = g_ptr_array_new();
    h->softnet = softnet_new(h);
    h->loopback = netdev_new_loopback(h);
    TcpSock *a = tcp_sock_new(h, 1, 1), *b = tcp_sock_new(h, 1, 2);
    tcp_connect_pair(a, b, 65536);
    g_assert_cmpuint(tcp_sk(b)->rcvbuf, ==, 131072);
    WorkloadConf wc = { .name = (char *)"t", .type = WORKLOAD_STREAM, .flows = 1,
                        .write_size = 65536, .from_cpus = { .n = 1, .cpu = { 0 } },
                        .to_cpus = { .n = 1, .cpu = { 1 } } };
    App *app = app_new(&wc, 0, h, a, h, b);
    g_assert_cmpuint(app_recv_size(app), ==, 131072);
    app_start(app);
    sim_run_until(th->sim, 20 * SIM_MS);
    g_assert_cmpuint(app_stats(app).bytes_delivered, >, 10u << 20);
    g_assert_cmpuint(tcp_sk(b)->rcvbuf, >, 131072);     /* autotuned */
    g_assert_cmpuint(app_recv_size(app), ==, 131072);   /* lsr_size kept */
    app_free(app);
    tcp_sock_free(a);
    tcp_sock_free(b);
    softnet_free(h->softnet);
    netdev_free(h->loopback);
    g_ptr_array_free(h->socks, TRUE);
    test_host_free(th);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/app/stream_recv_size_is_initial_rcvbuf",
                    test_stream_recv_size_is_initial_rcvbuf);
    return g_test_run();
}
