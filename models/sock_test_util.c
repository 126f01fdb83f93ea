/* sock_test_util.c - a bare Host for unit tests of the host-side models (see the header).
 *
 * The defaults mirror the scenario key table (sim/conf_keys.c) so that a test that changes
 * nothing runs the kernel-default machine; tests set every value their arithmetic depends on.
 */
#include "models/sock_test_util.h"

#include <glib.h>

#include "models/skb.h"

static void sched_defaults(SchedConf *s)
{
    *s = (SchedConf){
        .policy = SCHED_EEVDF,
        .latency_ns = 6 * SIM_MS,                    /* sysctl_sched_latency, notes C.3 */
        .min_granularity_ns = 750 * SIM_US,          /* sysctl_sched_min_granularity */
        .wakeup_granularity_ns = 1 * SIM_MS,         /* sysctl_sched_wakeup_granularity */
        .base_slice_ns = 750 * SIM_US,               /* sysctl_sched_base_slice, notes C.4 */
        .preempt = PREEMPT_VOLUNTARY,
        .wake_idle = true,
        .load_balance = true,
        .migration_cost_ns = 500 * SIM_US,           /* sysctl_sched_migration_cost */
        .irq_time_accounting = true,
    };
}

static void tcp_defaults(TcpConf *t)
{
    *t = (TcpConf){
        .rto_min_ns = 200 * SIM_MS,   /* TCP_RTO_MIN */
        .rcvbuf = 131072,             /* tcp_rmem[1] (4.20+) */
        .sndbuf = 16384,              /* tcp_wmem[1] */
        .rcvbuf_max = 6 * 1024 * 1024,
        .rcvbuf_autotune = true,
        .sack = true,
        .timestamps = true,
        .tlp = true,
        .pingpong_thresh = 1,         /* net.ipv4.tcp_pingpong_thresh */
        .limit_output_bytes = 1048576,
        .tsq = true,                  /* 3.6+ */
        .sndbuf_autotune = true,
        .netdev_budget = 300,         /* notes C.7 */
        .netdev_budget_ns = 0,        /* 2 jiffies: 2 * USEC_PER_SEC / HZ */
        .napi_weight = 64,
        .max_backlog = 1000,
        .window_counts_backlog = true,
        .tso_half_cwnd = true,        /* hosts.H.tcp.tso_half_cwnd (2015+) */
        .ack_rcvlowat = true,         /* hosts.H.tcp.ack_rcvlowat (4.18+) */
        .gap_fill_ack_now = true,     /* hosts.H.tcp.gap_fill_ack_now (4.18+ copies) */
    };
}

static void stack_defaults(StackConf *s)
{
    *s = (StackConf){
        .release_sock_resched_every = 16, /* seed 000, 6.18 */
        .sendmsg_flush_backlog_every = 16, /* seed 001, 5.4 */
        .backlog_limit = BACKLOG_LIMIT_2024,
        .backlog_coalesce = true,
        .backlog_ack_defer = true,
    };
}

TestHost *test_host_new(uint32_t ncpus, uint32_t hz)
{
    g_assert(ncpus >= 1 && ncpus <= TEST_HOST_MAX_CPUS);
    TestHost *th = g_new0(TestHost, 1);
    th->conf.name = "test";
    th->conf.cpus = ncpus;
    th->conf.hz = hz;
    sched_defaults(&th->conf.sched);
    tcp_defaults(&th->conf.tcp);
    cost_table_defaults(&th->conf.costs);
    stack_defaults(&th->stack);
    return th;
}

void test_host_build(TestHost *th)
{
    Host *h = &th->host;
    th->sim = sim_new(1);
    h->id = 0;
    h->name = th->conf.name;
    h->sim = th->sim;
    h->conf = &th->conf;
    h->stack = &th->stack;
    h->hz = th->conf.hz;
    h->ncpus = th->conf.cpus;
    h->cpus = th->cpus;
    h->pool = skb_pool_new();
    for (uint32_t i = 0; i < h->ncpus; i++)
        th->cpus[i] = cpu_new(h, i);
}

void test_host_free(TestHost *th)
{
    for (uint32_t i = 0; i < th->host.ncpus; i++)
        cpu_free(th->cpus[i]);
    if (th->host.pool)
        skb_pool_free(th->host.pool);
    if (th->sim)
        sim_free(th->sim);
    g_free(th);
}
