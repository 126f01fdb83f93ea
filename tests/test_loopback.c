/* test_loopback.c - loopback: delivery on the sending CPU's backlog without segmentation, the
 * netdev_max_backlog limit, IP octet counters.
 *
 * With a NULL Cpu the backlog NAPI runs as soon as it is raised, so an skb sent from outside
 * softirq is delivered at once. To fill the input queue the test sends from inside a delivery
 * (from softirq, like a stack answering in tcp_v4_rcv): the backlog NAPI is then already
 * scheduled, so new skbs queue up behind the one being delivered.
 */
#include "tests/net_fixture.h"

/* A 64 KB skb (45 x 1448, gso_size 1448) to the own host: one skb arrives, 65160 bytes, 45 segs,
 * truesize as sent, at the sending instant; IP octets 65160 + 52 both ways. */
static void test_no_segmentation(void)
{
    NetFix f;
    fix_init(&f, 1);
    fix_loopback(&f);
    sim_run_until(f.sim, 5 * SIM_US);
    Skb *skb = fix_data(&f, 0, 0, 0, 65160, 1448, true);
    uint32_t truesize = skb->truesize;
    ip_output(&f.host[0], skb, NULL);
    g_assert_cmpuint(f.sock[0].rx->len, ==, 1);
    const Delivery *d = fix_rx(&f, 0, 0);
    g_assert_cmpint(d->t, ==, 5 * SIM_US);
    g_assert_cmpuint(d->len, ==, 65160);
    g_assert_cmpuint(d->segs, ==, 45);
    g_assert_cmpuint(d->truesize, ==, truesize);
    g_assert_null(d->cpu);
    g_assert_cmpuint(f.host[0].ctr.v[CTR_IpExtOutOctets], ==, 65212);
    g_assert_cmpuint(f.host[0].ctr.v[CTR_IpExtInOctets], ==, 65212);
    NetDevStats s = netdev_stats(f.lo[0]);
    g_assert_cmpuint(s.tx_skbs, ==, 1);
    g_assert_cmpuint(s.rx_skbs, ==, 1);
    g_assert_cmpuint(s.backlog_drops, ==, 0);
    g_assert_cmpuint(f.sock[1].rx->len, ==, 0);
    fix_free(&f);
}

typedef struct Burst {
    NetFix *f;
    uint32_t n;
    bool done;
} Burst;

/* On the first delivery, send n more skbs from inside the softirq. */
static void send_burst(FakeSock *fs, const Skb *trigger)
{
    Burst *b = fs->ctx;
    if (b->done)
        return;
    b->done = true;
    /* NET_XMIT_SUCCESS also for the skbs netif_rx drops: loopback_xmit returns NETDEV_TX_OK,
     * so the sender is not told (unlike a NIC's full qdisc) */
    for (uint32_t i = 0; i < b->n; i++)
        g_assert_cmpint(ip_output(&b->f->host[0], fix_data(b->f, 0, 0, 1448 * (i + 1), 1448, 1448, true),
                                  NULL),
                        ==, NET_XMIT_SUCCESS);
}

/* enqueue_to_backlog accepts while qlen <= netdev_max_backlog (1000): the trigger skb was moved
 * to the process queue before its delivery, so the input queue takes 1001 skbs and the 1002nd
 * is dropped. With max_backlog 10: 11 queued, the 12th dropped. */
static void run_limit(uint32_t max_backlog, uint32_t burst)
{
    NetFix f;
    fix_init(&f, 1);
    f.conf[0].tcp.max_backlog = max_backlog;
    fix_loopback(&f);
    Burst b = { .f = &f, .n = burst };
    f.sock[0].on_rcv = send_burst;
    f.sock[0].ctx = &b;
    ip_output(&f.host[0], fix_data(&f, 0, 0, 0, 1448, 1448, true), NULL);
    NetDevStats s = netdev_stats(f.lo[0]);
    uint32_t accepted = burst < max_backlog + 1 ? burst : max_backlog + 1;
    g_assert_cmpuint(s.backlog_drops, ==, burst - accepted);
    g_assert_cmpuint(f.sock[0].rx->len, ==, 1 + accepted);
    /* delivered in order: the trigger, then the burst's first `accepted` skbs */
    for (guint i = 0; i <= accepted; i++)
        g_assert_cmpuint(fix_rx(&f, 0, i)->seq, ==, 1448 * (uint64_t)i);
    fix_free(&f);
}

static void test_backlog_limit(void)
{
    run_limit(1000, 1002);
    run_limit(1000, 1001);
    run_limit(10, 12);
}

typedef struct Sender {
    Task t;
    NetFix *f;
    int steps;
} Sender;

/* Step 1: send a 64 KB skb to the own host, then work 1000 ns; step 2: sleep. */
static void sender_step(Task *t)
{
    Sender *s = t->ctx;
    if (s->steps++ > 0) {
        task_sleep(t);
        return;
    }
    ip_output(&s->f->host[0], fix_data(s->f, 0, 0, 0, 65160, 1448, true), t->cpu);
    cpu_charge(t->cpu, 1000);
}

/* A task pinned to CPU 1 sends over lo: the skb is delivered by CPU 1's backlog NAPI, in
 * softirq on CPU 1 (entry 300 + ip_rcv 200 = 500 ns), CPU 0 does nothing; the task's step is
 * charged loopback_xmit 300 + its own 1000 = 1300 ns. */
static void test_sending_cpu(void)
{
    NetFix f;
    fix_init(&f, 1);
    fix_cpus(&f, 0, 2);
    fix_loopback(&f);
    Sender s = { .f = &f };
    CpuList on1 = { .n = 1, .cpu = { 1 } };
    task_init(&s.t, &f.host[0], "sender", sender_step, &s, &on1);
    task_start(&s.t);
    sim_run_until(f.sim, SIM_MS);
    g_assert_cmpuint(f.sock[0].rx->len, ==, 1);
    const Delivery *d = fix_rx(&f, 0, 0);
    g_assert_true(d->cpu == f.cpus[0][1]);
    g_assert_cmpuint(d->len, ==, 65160);
    g_assert_cmpuint(d->segs, ==, 45);
    g_assert_cmpint(s.t.runtime_ns, ==, 1300);
    g_assert_cmpint(cpu_stats(f.cpus[0][1]).softirq_ns, ==, 500);
    g_assert_cmpint(cpu_stats(f.cpus[0][0]).softirq_ns, ==, 0);
    fix_free(&f);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/loopback/no-segmentation", test_no_segmentation);
    g_test_add_func("/loopback/backlog-limit", test_backlog_limit);
    g_test_add_func("/loopback/sending-cpu", test_sending_cpu);
    return g_test_run();
}
