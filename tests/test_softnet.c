/* test_softnet.c - the per-CPU backlogs (models/softnet.c): RPS's choice of CPU, delivery on
 * another CPU after an IPI with the cold-skb cost, and RFS's rule that a flow moves to its
 * reader's new CPU only once none of its skbs is left behind on the old one.
 *
 * Host a has 4 CPUs and the default costs: softirq_entry 300 ns, backlog_extra 400 ns.
 */
#include "tests/net_fixture.h"

#include "models/cpu.h"
#include "models/softnet.h"

static void fix_softnet(NetFix *f)
{
    fix_init(f, 1);
    fix_cpus(f, 0, 4);
    fix_cpus(f, 1, 1);
    fix_loopback(f);
}

static Skb *data_to_self(NetFix *f, uint32_t conn)
{
    Skb *skb = fix_data(f, 0, 0, 0, 1448, 1448, false);
    skb->conn = conn;
    return skb;
}

/* reciprocal_scale(hash, 2) = (hash * 2) >> 32: the lower half of the hash space picks the
 * first CPU of the map, the upper half the second; no map, no RFS entry: -1 (stay). */
static void test_rps_map(void)
{
    NetFix f;
    fix_softnet(&f);
    NicConf conf = f.conf[0].nic;
    Skb *skb = data_to_self(&f, 7);
    g_assert_cmpint(softnet_rps_cpu(f.host[0].softnet, &conf, skb, 0x12345678u), ==, -1);
    conf.rps_cpus = (CpuList){ .n = 2, .cpu = { 1, 3 } };
    g_assert_cmpint(softnet_rps_cpu(f.host[0].softnet, &conf, skb, 0u), ==, 1);
    g_assert_cmpint(softnet_rps_cpu(f.host[0].softnet, &conf, skb, 0x7fffffffu), ==, 1);
    g_assert_cmpint(softnet_rps_cpu(f.host[0].softnet, &conf, skb, 0x80000000u), ==, 3);
    g_assert_cmpint(softnet_rps_cpu(f.host[0].softnet, &conf, skb, 0xffffffffu), ==, 3);
    skb_free(f.host[0].pool, skb);
    fix_free(&f);
}

static sim_time_t booked(NetFix *f, int cpu, CostId id)
{
    return cpu_stats(f->cpus[0][cpu]).profile_ns[id];
}

/* Queued by CPU 0 onto CPU 2 at 10 us: the IPI raises NET_RX on CPU 2 (an idle CPU takes it
 * at once), which delivers the skb and books its softirq entry (300 ns) and, the skb being
 * cold there, backlog_extra (400 ns); CPU 0 books neither. An skb CPU 0 queues on itself goes
 * up on CPU 0, warm: softirq entry only. */
static void test_ipi_delivery(void)
{
    NetFix f;
    fix_softnet(&f);
    Softnet *sn = f.host[0].softnet;
    sim_run_until(f.sim, 10 * SIM_US);
    g_assert_true(softnet_enqueue(sn, f.lo[0], data_to_self(&f, 1), 2, f.cpus[0][0]));
    g_assert_cmpuint(f.sock[0].rx->len, ==, 0); /* the IPI is an event: nothing ran yet */
    sim_run_until(f.sim, 50 * SIM_US);
    g_assert_cmpuint(f.sock[0].rx->len, ==, 1);
    const Delivery *d = fix_rx(&f, 0, 0);
    g_assert_true(d->cpu == f.cpus[0][2]);
    g_assert_cmpint(d->t, ==, 10 * SIM_US);
    g_assert_cmpint(booked(&f, 2, COST_SOFTIRQ_ENTRY), ==, 300);
    g_assert_cmpint(booked(&f, 2, COST_BACKLOG_EXTRA), ==, 400);
    g_assert_cmpint(booked(&f, 0, COST_SOFTIRQ_ENTRY), ==, 0);
    g_assert_true(softnet_enqueue(sn, f.lo[0], data_to_self(&f, 1), 0, f.cpus[0][0]));
    sim_run_until(f.sim, 100 * SIM_US);
    g_assert_cmpuint(f.sock[0].rx->len, ==, 2);
    d = fix_rx(&f, 0, 1);
    g_assert_true(d->cpu == f.cpus[0][0]);
    g_assert_cmpint(booked(&f, 0, COST_SOFTIRQ_ENTRY), ==, 300);
    g_assert_cmpint(booked(&f, 0, COST_BACKLOG_EXTRA), ==, 0);
    fix_free(&f);
}

/* RFS: the flow follows its socket's last CPU (1), but when the reader moves to CPU 2 while
 * one of the flow's skbs still waits in CPU 1's backlog, the flow stays on CPU 1 until that
 * skb is delivered, then moves: no reordering. */
static void test_rfs_no_reorder(void)
{
    NetFix f;
    fix_softnet(&f);
    Softnet *sn = f.host[0].softnet;
    NicConf conf = f.conf[0].nic;
    conf.rfs = true;
    conf.rps_cpus = (CpuList){ .n = 1, .cpu = { 3 } };
    Skb *skb = data_to_self(&f, 5);
    g_assert_cmpint(softnet_rps_cpu(sn, &conf, skb, 0), ==, 3); /* no reader yet: RPS */
    softnet_rfs_record(sn, 5, 1);
    g_assert_cmpint(softnet_rps_cpu(sn, &conf, skb, 0), ==, 1);
    sim_run_until(f.sim, 10 * SIM_US);
    g_assert_true(softnet_enqueue(sn, f.lo[0], skb, 1, f.cpus[0][0]));
    g_assert_cmpuint(softnet_flow_pending(sn, 1, 5), ==, 1);
    softnet_rfs_record(sn, 5, 2);
    Skb *next = data_to_self(&f, 5);
    g_assert_cmpint(softnet_rps_cpu(sn, &conf, next, 0), ==, 1);
    sim_run_until(f.sim, 50 * SIM_US);
    g_assert_cmpuint(softnet_flow_pending(sn, 1, 5), ==, 0);
    g_assert_cmpint(softnet_rps_cpu(sn, &conf, next, 0), ==, 2);
    skb_free(f.host[0].pool, next);
    fix_free(&f);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/softnet/rps-map", test_rps_map);
    g_test_add_func("/softnet/ipi-delivery", test_ipi_delivery);
    g_test_add_func("/softnet/rfs-no-reorder", test_rfs_no_reorder);
    return g_test_run();
}
