/* test_app.c - the netperf-like application threads (models/app.c).
 *
 * netserver's receive size: with no -M option it reads recv_size = lsr_size bytes per recv(),
 * lsr_size being the SO_RCVBUF it read with getsockopt() when it set the socket up (netperf
 * nettest_bsd.c recv_tcp_stream / nettest_omni.c recv_omni). That is the initial sk_rcvbuf,
 * tcp_rmem[1] = 131072, and it does not follow receive-buffer autotuning afterwards. The size
 * decides how often the reader leaves recvmsg() and runs release_sock() (seed 000); netperf -M
 * (workloads.W.read_size) sets it.
 */
#include <glib.h>

#include "models/softnet.h"
#include "models/app.h"
#include "models/netdev.h"
#include "models/sock_test_util.h"
#include "models/tcp_internal.h"

/* What one loopback stream run shows: writer on CPU 0 (64 KiB writes), netserver on CPU 1. */
typedef struct StreamRun {
    uint64_t rcvbuf_before, rcvbuf_after;       /* the receiver's sk_rcvbuf */
    uint64_t recv_size_before, recv_size_after; /* what netserver asks per recv() */
    uint64_t delivered;
    uint64_t calls; /* recv() calls: CPU 1 runs nothing else, one syscall charge each */
} StreamRun;

/* The stream for 20 ms with workloads.W.read_size = read_size (0: netserver's default). */
static StreamRun stream_run(uint32_t read_size)
{
    StreamRun r = { 0 };
    TestHost *th = test_host_new(2, 1000);
    test_host_build(th);
    Host *h = &th->host;
    h->socks = g_ptr_array_new();
    h->softnet = softnet_new(h);
    h->loopback = netdev_new_loopback(h);
    TcpSock *a = tcp_sock_new(h, 1, 1), *b = tcp_sock_new(h, 1, 2);
    tcp_connect_pair(a, b, 65536);
    WorkloadConf wc = { .name = (char *)"t", .type = WORKLOAD_STREAM, .flows = 1,
                        .write_size = 65536, .read_size = read_size,
                        .from_cpus = { .n = 1, .cpu = { 0 } }, .to_cpus = { .n = 1, .cpu = { 1 } } };
    App *app = app_new(&wc, 0, h, a, h, b);
    r.rcvbuf_before = tcp_sk(b)->rcvbuf;
    r.recv_size_before = app_recv_size(app);
    app_start(app);
    sim_run_until(th->sim, 20 * SIM_MS);
    r.rcvbuf_after = tcp_sk(b)->rcvbuf;
    r.recv_size_after = app_recv_size(app);
    r.delivered = app_stats(app).bytes_delivered;
    CpuStats st = cpu_stats(th->cpus[1]);
    r.calls = (uint64_t)(st.profile_ns[COST_SYSCALL] / th->conf.costs.ns[COST_SYSCALL]);
    app_free(app);
    tcp_sock_free(a);
    tcp_sock_free(b);
    softnet_free(h->softnet);
    netdev_free(h->loopback);
    g_ptr_array_free(h->socks, TRUE);
    test_host_free(th);
    return r;
}

/* The receiver's sk_rcvbuf autotunes above 131072 (tcp_rcv_space_adjust), the read size stays
 * 131072. */
static void test_stream_recv_size_is_initial_rcvbuf(void)
{
    StreamRun r = stream_run(0);
    g_assert_cmpuint(r.rcvbuf_before, ==, 131072);
    g_assert_cmpuint(r.recv_size_before, ==, 131072);
    g_assert_cmpuint(r.delivered, >, 10u << 20);
    g_assert_cmpuint(r.rcvbuf_after, >, 131072);     /* autotuned */
    g_assert_cmpuint(r.recv_size_after, ==, 131072); /* lsr_size kept */
}

/* netperf -M (workloads.W.read_size): no recv() returns more than it asked for, so 16 KiB reads
 * need at least delivered / 16 KiB calls; netserver's default 128 KiB reads take more per call
 * than that, fewer calls for the same bytes. */
static void test_stream_read_size(void)
{
    StreamRun r16 = stream_run(16384), rdef = stream_run(0);
    g_assert_cmpuint(r16.recv_size_after, ==, 16384);
    g_assert_cmpuint(r16.delivered, >, 10u << 20);
    g_assert_cmpuint(rdef.delivered, >, 10u << 20);
    g_assert_cmpuint(r16.calls * 16384, >=, r16.delivered);
    g_assert_cmpuint(rdef.calls * 16384, <, rdef.delivered);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/app/stream_recv_size_is_initial_rcvbuf",
                    test_stream_recv_size_is_initial_rcvbuf);
    g_test_add_func("/app/stream_read_size", test_stream_read_size);
    return g_test_run();
}
