/* test_nic.c - the NIC: qdisc limit and TX ring, TX completion pacing the qdisc, RX ring
 * overflow, pure ACKs, with real CPUs where and when each unit of NAPI work is charged, and
 * RSS (several RX queues): the hash, one IRQ CPU per flow, irq_cpus, TX completions on queue 0,
 * a ring per queue.
 *
 * 10 Gbit/s, 10 us delay: a 1448-byte frame takes 1231 ns (1538 wire bytes, test_link.c), a
 * frame sent at t0 on an idle wire arrives at t0 + 1231 + 10000.
 */
#include "tests/net_fixture.h"

#define RATE_10G 10000000000ull
#define FT 1231
#define DELAY (10 * SIM_US)

/* tx_ring 1, qdisc_limit 3, six one-frame skbs at t = 0: the first takes the descriptor
 * (qdisc bypass), three wait in the qdisc, two are dropped. Each next skb starts when the
 * previous one's TX completion frees the descriptor, i.e. when its frame has left (NULL Cpu: the
 * completion runs at once): skb i starts at i * 1231 and arrives at (i + 1) * 1231 + 10000. */
static void test_qdisc_and_ring(void)
{
    NetFix f;
    fix_init(&f, 1);
    f.conf[0].nic.tx_ring = 1;
    f.conf[0].nic.qdisc_limit = 3;
    fix_link(&f, RATE_10G, DELAY, 1000, 0.0);
    /* the verdict comes back at once: queued (or bypassed) skbs NET_XMIT_SUCCESS, the two the
     * full qdisc refused NET_XMIT_DROP (what TCP turns into CWR) */
    for (uint64_t i = 0; i < 6; i++)
        g_assert_cmpint(ip_output(&f.host[0], fix_data(&f, 0, 1, i * 1448, 1448, 1448, true), NULL),
                        ==, i < 4 ? NET_XMIT_SUCCESS : NET_XMIT_DROP);
    NetDevStats s = netdev_stats(f.nic[0]);
    g_assert_cmpuint(s.qdisc_drops, ==, 2);
    g_assert_cmpuint(s.tx_skbs, ==, 1);
    sim_run_until(f.sim, SIM_S);
    s = netdev_stats(f.nic[0]);
    g_assert_cmpuint(s.tx_skbs, ==, 4);
    g_assert_cmpuint(f.sock[1].rx->len, ==, 4);
    for (guint i = 0; i < 4; i++) {
        g_assert_cmpint(fix_rx(&f, 1, i)->t, ==, (sim_time_t)(i + 1) * FT + DELAY);
        g_assert_cmpuint(fix_rx(&f, 1, i)->seq, ==, (uint64_t)i * 1448);
    }
    /* IpExtOutOctets counts what IP sent, qdisc drops included: 6 x 1500. */
    g_assert_cmpuint(f.host[0].ctr.v[CTR_IpExtOutOctets], ==, 6 * 1500);
    g_assert_cmpuint(f.host[1].ctr.v[CTR_IpExtInOctets], ==, 4 * 1500);
    fix_free(&f);
}

/* The ring holds whole skbs: with tx_ring 2 two 45-frame skbs are on the link at once and a
 * third starts only after the first's completion, at 45 * 1231 = 55395 -- right behind the
 * second, which is still on the wire until 90 * 1231 = 110790. So frame k of the third arrives
 * at (90 + k + 1) * 1231 + 10000: no gap, the ring never starves the wire. */
static void test_ring_keeps_wire_busy(void)
{
    NetFix f;
    fix_init(&f, 1);
    f.conf[0].nic.tx_ring = 2;
    fix_link(&f, RATE_10G, DELAY, 1000, 0.0);
    for (uint64_t i = 0; i < 3; i++)
        ip_output(&f.host[0], fix_data(&f, 0, 1, i * 65160, 65160, 1448, true), NULL);
    g_assert_cmpuint(netdev_stats(f.nic[0]).tx_skbs, ==, 2);
    sim_run_until(f.sim, 55394);
    g_assert_cmpuint(netdev_stats(f.nic[0]).tx_skbs, ==, 2);
    sim_run_until(f.sim, 55395);
    g_assert_cmpuint(netdev_stats(f.nic[0]).tx_skbs, ==, 3);
    sim_run_until(f.sim, SIM_S);
    g_assert_cmpuint(f.sock[1].rx->len, ==, 135);
    g_assert_cmpint(fix_rx(&f, 1, 90)->t, ==, 91 * FT + DELAY);
    g_assert_cmpint(fix_rx(&f, 1, 134)->t, ==, 135 * FT + DELAY);
    fix_free(&f);
}

/* RX ring of 8 descriptors, interrupt coalesced by 100 us: the 45 frames of a burst arrive
 * between 11231 and 65395, the IRQ fires at 11231 + 100000 = 111231; by then the first 8
 * frames filled the ring and the other 37 were dropped. GRO merges the 8 into one skb (no PSH:
 * completed by the end of the poll), truesize 2624 + 7 * 2048 = 16960. */
static void test_rx_ring_overflow(void)
{
    NetFix f;
    fix_init(&f, 1);
    f.conf[1].nic.rx_ring = 8;
    f.conf[1].nic.irq_coalesce_ns = 100 * SIM_US;
    fix_link(&f, RATE_10G, DELAY, 1000, 0.0);
    ip_output(&f.host[0], fix_data(&f, 0, 1, 0, 65160, 1448, true), NULL);
    sim_run_until(f.sim, SIM_S);
    NetDevStats s = netdev_stats(f.nic[1]);
    g_assert_cmpuint(s.rx_ring_drops, ==, 37);
    g_assert_cmpuint(s.rx_frames, ==, 8);
    g_assert_cmpuint(s.rx_skbs, ==, 1);
    g_assert_cmpuint(s.rx_bytes, ==, 8 * 1538);
    g_assert_cmpuint(f.sock[1].rx->len, ==, 1);
    const Delivery *d = fix_rx(&f, 1, 0);
    g_assert_cmpint(d->t, ==, 111231);
    g_assert_cmpuint(d->segs, ==, 8);
    g_assert_cmpuint(d->len, ==, 8 * 1448);
    g_assert_cmpuint(d->truesize, ==, 16960);
    g_assert_cmpuint(d->flags & TCPHDR_PSH, ==, 0);
    fix_free(&f);
}

/* Exactly the excess is dropped: a ring of 45 takes the whole burst, a ring of 44 drops one
 * (the last frame, which carried PSH). */
static void test_rx_ring_exact(void)
{
    for (uint32_t ring = 44; ring <= 45; ring++) {
        NetFix f;
        fix_init(&f, 1);
        f.conf[1].nic.rx_ring = ring;
        f.conf[1].nic.irq_coalesce_ns = 100 * SIM_US;
        fix_link(&f, RATE_10G, DELAY, 1000, 0.0);
        ip_output(&f.host[0], fix_data(&f, 0, 1, 0, 65160, 1448, true), NULL);
        sim_run_until(f.sim, SIM_S);
        g_assert_cmpuint(netdev_stats(f.nic[1]).rx_ring_drops, ==, 45 - ring);
        g_assert_cmpuint(fix_rx(&f, 1, 0)->segs, ==, ring);
        fix_free(&f);
    }
}

/* Pure ACKs through a NIC with coalescing: 5 back-to-back ACKs (90 wire bytes = 72 ns each)
 * arrive at 10072, 10144, ..., 10360; the IRQ at 10072 + 20000 = 30072 finds all 5; they are
 * delivered as 5 skbs (never merged), each of the RX-frame truesize 2624. */
static void test_acks_not_merged(void)
{
    NetFix f;
    fix_init(&f, 1);
    f.conf[0].nic.irq_coalesce_ns = 20 * SIM_US;
    fix_link(&f, RATE_10G, DELAY, 1000, 0.0);
    for (uint64_t i = 0; i < 5; i++)
        ip_output(&f.host[1], fix_ack(&f, 1, 0, 1000 + i * 2896), NULL);
    sim_run_until(f.sim, SIM_S);
    g_assert_cmpuint(f.sock[0].rx->len, ==, 5);
    for (guint i = 0; i < 5; i++) {
        g_assert_cmpint(fix_rx(&f, 0, i)->t, ==, 30072);
        g_assert_cmpuint(fix_rx(&f, 0, i)->len, ==, 0);
        g_assert_cmpuint(fix_rx(&f, 0, i)->truesize, ==, 2624);
    }
    fix_free(&f);
}

/* Interrupt moderation (nic.irq_mode), 50 us, three one-frame PSH skbs sent at 0, 20 and 200 us:
 * they arrive at 11231, 31231 and 211231 (no CPUs: each poll takes the ring at once). delay
 * counts the 50 us from the first frame that finds the interrupt enabled: the first two go up
 * together at 61231, the third at 261231 - two interrupts (SksimNicIrqs). throttle keeps
 * interrupts 50 us apart and nothing more: the first frame interrupts at once (none before),
 * the second waits for 11231 + 50000 = 61231, the third, 150 us after that, interrupts at once:
 * three. */
static void rx_three_frames(NicIrqMode mode, const sim_time_t want[3], uint64_t irqs)
{
    NetFix f;
    fix_init(&f, 1);
    f.conf[1].nic.irq_coalesce_ns = 50 * SIM_US;
    f.conf[1].nic.irq_mode = mode;
    fix_link(&f, RATE_10G, DELAY, 1000, 0.0);
    static const sim_time_t send_at[3] = {0, 20 * SIM_US, 200 * SIM_US};
    for (uint64_t i = 0; i < 3; i++) {
        sim_run_until(f.sim, send_at[i]);
        ip_output(&f.host[0], fix_data(&f, 0, 1, i * 1448, 1448, 1448, true), NULL);
    }
    sim_run_until(f.sim, SIM_S);
    g_assert_cmpuint(f.sock[1].rx->len, ==, 3);
    for (guint i = 0; i < 3; i++)
        g_assert_cmpint(fix_rx(&f, 1, i)->t, ==, want[i]);
    g_assert_cmpuint(f.host[1].ctr.v[CTR_SksimNicIrqs], ==, irqs);
    fix_free(&f);
}

static void test_irq_mode_delay_vs_throttle(void)
{
    rx_three_frames(NIC_IRQ_DELAY, (const sim_time_t[3]){61231, 61231, 261231}, 2);
    rx_three_frames(NIC_IRQ_THROTTLE, (const sim_time_t[3]){11231, 61231, 211231}, 3);
}

/* Separate RX and TX delays (nic.tx_coalesce, bnx2x's 24 and 48 us). Host a sends a frame at 0;
 * its TX completion comes at 1231 and would interrupt at 1231 + 48000 = 49231. Host b sends an
 * ACK at 2 us, once that interrupt is due: it arrives at 12072 (90 wire bytes, 72 ns, + 10 us)
 * and its own 24 us run out first, at 36072, when the one interrupt takes both. With
 * tx_coalesce 0 (irq_coalesce for both) the completion's interrupt is due at 25231, before the
 * ACK's, and takes it. */
static void tx_rx_coalesce(sim_time_t tx_coalesce, sim_time_t want)
{
    NetFix f;
    fix_init(&f, 1);
    f.conf[0].nic.irq_coalesce_ns = 24 * SIM_US;
    f.conf[0].nic.tx_coalesce_ns = tx_coalesce;
    fix_link(&f, RATE_10G, DELAY, 1000, 0.0);
    ip_output(&f.host[0], fix_data(&f, 0, 1, 0, 1448, 1448, true), NULL);
    sim_run_until(f.sim, 2 * SIM_US);
    ip_output(&f.host[1], fix_ack(&f, 1, 0, 1000), NULL);
    sim_run_until(f.sim, SIM_S);
    g_assert_cmpuint(f.sock[0].rx->len, ==, 1);
    g_assert_cmpint(fix_rx(&f, 0, 0)->t, ==, want);
    g_assert_cmpuint(f.host[0].ctr.v[CTR_SksimNicIrqs], ==, 1);
    fix_free(&f);
}

static void test_irq_tx_coalesce(void)
{
    tx_rx_coalesce(48 * SIM_US, 36072);
    tx_rx_coalesce(0, 25231);
}

/* ixgbe's dynamic ITR under a line-rate stream (150 skbs of 45 frames, back to back, one frame
 * per 1231 ns from 11231 on). The first frame interrupts at once; the vector starts at 50 us,
 * and that first poll (one frame: 1514 bytes / 50 us = 30 per us) only moves RX from lowest to
 * low, whose target is 50 us: the next interrupt is at 61231. That poll took the 40 frames
 * that came in meanwhile (60560 bytes, 1211 per us): bulk, itr 212, 208 in the register, so
 * the third comes 52 us later, 113231, and the fourth after 56 us (224 -> 224), 169231. The
 * interval then grows by the smoothing toward 122 us (itr 490), which the intervals of its 47
 * steps reach 4.8 ms after the start, before the stream's 8.3 ms end; the last gaps between
 * polls are 122 us. */
static void test_irq_mode_ixgbe_stream(void)
{
    NetFix f;
    fix_init(&f, 1);
    f.conf[0].nic.tx_ring = 1024;
    f.conf[0].nic.qdisc_limit = 1000;
    f.conf[1].nic.irq_mode = NIC_IRQ_IXGBE;
    f.conf[1].nic.rx_ring = 4096;
    fix_link(&f, RATE_10G, DELAY, 1000, 0.0);
    for (uint64_t i = 0; i < 150; i++)
        ip_output(&f.host[0], fix_data(&f, 0, 1, i * 65160, 65160, 1448, false), NULL);
    sim_run_until(f.sim, SIM_S);
    /* the distinct delivery times are the polls */
    GArray *polls = g_array_new(FALSE, FALSE, sizeof(sim_time_t));
    for (guint i = 0; i < f.sock[1].rx->len; i++) {
        sim_time_t t = fix_rx(&f, 1, i)->t;
        if (!polls->len || g_array_index(polls, sim_time_t, polls->len - 1) != t)
            g_array_append_val(polls, t);
    }
    g_assert_cmpuint(polls->len, >, 30);
    g_assert_cmpint(g_array_index(polls, sim_time_t, 0), ==, 11231);
    g_assert_cmpint(g_array_index(polls, sim_time_t, 1), ==, 61231);
    g_assert_cmpint(g_array_index(polls, sim_time_t, 2), ==, 113231);
    g_assert_cmpint(g_array_index(polls, sim_time_t, 3), ==, 169231);
    guint n = polls->len;
    /* the last poll takes the stream's tail, whenever it came; the two gaps before it are 122 us */
    for (guint i = n - 3; i < n - 1; i++)
        g_assert_cmpint(g_array_index(polls, sim_time_t, i + 1) -
                            g_array_index(polls, sim_time_t, i), ==, 122000);
    g_assert_cmpuint(f.host[1].ctr.v[CTR_SksimNicIrqs], ==, n);
    g_assert_cmpuint(netdev_stats(f.nic[1]).rx_ring_drops, ==, 0);
    g_array_free(polls, TRUE);
    fix_free(&f);
}

/* A NIC without a link: skbs are counted as link drops and completed. */
static void test_no_link(void)
{
    NetFix f;
    fix_init(&f, 1);
    NetDev *nic = netdev_new_nic(&f.host[0], &f.conf[0].nic, 0);
    f.host[0].devs = &nic;
    f.host[0].ndevs = 1;
    ip_route_add(&f.host[0], 1, nic);
    ip_output(&f.host[0], fix_data(&f, 0, 1, 0, 65160, 1448, true), NULL);
    NetDevStats s = netdev_stats(nic);
    g_assert_cmpuint(s.link_drops, ==, 1);
    g_assert_cmpuint(skb_pool_in_use(f.host[0].pool), ==, 0);
    netdev_free(nic);
    f.host[0].devs = NULL;
    f.host[0].ndevs = 0;
    fix_free(&f);
}

/* The set-up of the two tests below: a (1 CPU) sends one 45-frame TSO skb at t = 0 to b (2 CPUs,
 * its NIC interrupt on CPU 1 with 100 us of coalescing). */
static void burst_to_cpu1(NetFix *f)
{
    fix_init(f, 1);
    f->conf[1].nic.irq_cpu = 1;
    f->conf[1].nic.irq_coalesce_ns = 100 * SIM_US;
    fix_cpus(f, 0, 1);
    fix_cpus(f, 1, 2);
    fix_link(f, RATE_10G, DELAY, 1000, 0.0);
    ip_output(&f->host[0], fix_data(f, 0, 1, 0, 65160, 1448, true), NULL);
}

/* Where the work is charged, with real CPUs. Receiver b: 2 CPUs, IRQ on CPU 1, coalescing
 * 100 us, so the poll finds the whole 45-frame burst (last arrival 65395) at the IRQ, 111231.
 * Default costs: softirq entry 300, per frame rx_frame 150 + gro_frame 60 = 210, completion
 * ip_rcv 200 for the one GRO skb, napi_poll 200 for the one poll call (46 units: 45 frames and
 * the empty ring, below the weight). Act-then-charge: the entry, the poll set-up and frame 0 act
 * at 111231, frame k at 111231 + 300 + 200 + 210 k; the last frame (k = 44) carries PSH,
 * completes the 45-segment aggregate and, 45 >= gro_normal_batch, delivers it in its own unit
 * at 111231 + 500 + 44 * 210 = 120971. CPU 1 spends 300 + 45 * 210 + 200 + 200 = 10150 ns
 * in softirq, CPU 0 none.
 * Sender a: 1 CPU; the TX completion of its skb (last frame gone at 45 * 1231 = 55395)
 * interrupts CPU 0: entry 300 + tx_completion 100 + napi_poll 200 = 600 ns of softirq. */
static void test_cpu_charges(void)
{
    NetFix f;
    burst_to_cpu1(&f);
    sim_run_until(f.sim, SIM_S);
    g_assert_cmpuint(f.sock[1].rx->len, ==, 1);
    const Delivery *d = fix_rx(&f, 1, 0);
    g_assert_true(d->cpu == f.cpus[1][1]);
    g_assert_cmpint(d->t, ==, 120971);
    g_assert_cmpuint(d->segs, ==, 45);
    g_assert_cmpint(cpu_stats(f.cpus[1][1]).softirq_ns, ==, 10150);
    g_assert_cmpint(cpu_stats(f.cpus[1][0]).softirq_ns, ==, 0);
    g_assert_cmpint(cpu_stats(f.cpus[0][0]).softirq_ns, ==, 600);
    fix_free(&f);
}

/* A poll cleans TX before it takes RX frames, once each (ixgbe_poll, mlx5e_napi_poll). The
 * receiver of test_cpu_charges (IRQ on CPU 1, coalescing 100 us, the poll from 111231 takes the
 * 45-frame burst) sends a pure ACK at 115 us, in the middle of that poll; its last frame has left
 * 70 ns later. That TX completion waits for the RX frames: the aggregate goes up at 120971 as
 * without it (cleaned at once it would have come first and made that 121071), and when the poll
 * completes at 121181 (the unit finding the ring empty) the pending cause raises the
 * interrupt again after irq_coalesce: at 221181 a new softirq (entry 300 + napi_poll 200)
 * cleans it (tx_completion 100). CPU 1: 10150 + 600 ns of softirq. */
static void test_tx_cleaned_before_rx(void)
{
    NetFix f;
    burst_to_cpu1(&f);
    sim_run_until(f.sim, 115 * SIM_US);
    ip_output(&f.host[1], fix_ack(&f, 1, 0, 1), NULL);
    sim_run_until(f.sim, 221 * SIM_US);
    g_assert_cmpuint(f.sock[1].rx->len, ==, 1);
    g_assert_cmpint(fix_rx(&f, 1, 0)->t, ==, 120971);
    g_assert_cmpint(cpu_stats(f.cpus[1][1]).softirq_ns, ==, 10150);
    g_assert_cmpuint(netdev_stats(f.nic[1]).tx_skbs, ==, 1);
    sim_run_until(f.sim, SIM_S);
    g_assert_cmpint(cpu_stats(f.cpus[1][1]).softirq_ns, ==, 10150 + 600);
    fix_free(&f);
}

/* A poll that uses its whole weight ends in __napi_poll's gro_flush_normal(gro, HZ >= 1000).
 * Weight 4; a 20-frame burst (PSH on the last) at 100 Gbit/s arrives every 123 ns, faster than
 * the poll takes frames (COST_RX_FRAME + COST_GRO_FRAME = 210 ns), so every poll but the last
 * uses its weight and the interrupt stays masked. At HZ=1000 the burst is all within jiffy 0:
 * nothing held is old, the aggregate grows to 20 segments and ends at PSH. At HZ=250 every
 * held skb is flushed at each full poll: five skbs of 4 segments. Six poll calls (five full,
 * then one finding the ring empty) all inline (6 rounds < MAX_SOFTIRQ_RESTART): softirq time
 * = entry 300 + 20 x 210 + 6 x napi_poll 200 + ip_rcv 200 per skb. */
static void test_full_poll_gro_flush(gconstpointer hz)
{
    NetFix f;
    fix_init(&f, 1);
    f.conf[1].hz = (uint32_t)GPOINTER_TO_UINT(hz);
    f.host[1].hz = f.conf[1].hz;
    f.conf[1].tcp.napi_weight = 4;
    fix_cpus(&f, 1, 1);
    fix_link(&f, 100 * 1000000000ull, DELAY, 1000, 0.0);
    ip_output(&f.host[0], fix_data(&f, 0, 1, 0, 20 * 1448, 1448, true), NULL);
    sim_run_until(f.sim, SIM_MS / 2);
    bool old_only = f.conf[1].hz >= 1000;
    g_assert_cmpuint(f.sock[1].rx->len, ==, old_only ? 1 : 5);
    for (guint i = 0; i < f.sock[1].rx->len; i++) {
        g_assert_cmpuint(fix_rx(&f, 1, i)->seq, ==, i * 4 * 1448);
        g_assert_cmpuint(fix_rx(&f, 1, i)->segs, ==, old_only ? 20 : 4);
    }
    g_assert_cmpuint(netdev_stats(f.nic[1]).rx_frames, ==, 20);
    g_assert_cmpint(cpu_stats(f.cpus[1][0]).softirq_ns, ==,
                    300 + 20 * 210 + 6 * 200 + (old_only ? 1 : 5) * 200);
    fix_free(&f);
}

/* ---- RSS: several RX queues ---- */

/* Source ports whose flows (a:sport -> b:1) the fixed RSS hash puts on queues 0, 1, 2, 3 of a
 * 4-queue NIC. Pinned: the hash is part of the model (a changed hash moves flows between
 * queues and so changes multi-queue runs). */
static const uint16_t rss_sport[4] = { 4, 2, 1, 9 };

/* The hash: one queue with one queue; fixed values; and spread evenly - 4096 source ports over
 * 4 queues give each 1024 +- 10%, and every queue of 64 is used. */
static void test_rss_hash(void)
{
    for (uint32_t q = 0; q < 4; q++)
        g_assert_cmpuint(nic_rss_queue(0, rss_sport[q], 1, 1, 4), ==, q);
    g_assert_cmpuint(nic_rss_queue(0, 9, 1, 1, 1), ==, 0);
    g_assert_cmpuint(nic_rss_queue(7, 9, 1, 1, 1), ==, 0);
    uint32_t per4[4] = { 0 }, per64[64] = { 0 };
    for (uint16_t port = 1; port <= 4096; port++) {
        per4[nic_rss_queue(0, port, 1, 80, 4)]++;
        per64[nic_rss_queue(0, port, 1, 80, 64)]++;
    }
    for (uint32_t q = 0; q < 4; q++) {
        g_assert_cmpuint(per4[q], >, 1024 - 103);
        g_assert_cmpuint(per4[q], <, 1024 + 103);
    }
    for (uint32_t q = 0; q < 64; q++)
        g_assert_cmpuint(per64[q], >, 0);
    /* the destination side counts too: the same source port to other ports moves */
    uint32_t seen = 0;
    for (uint16_t dport = 1; dport <= 64; dport++)
        seen |= 1u << nic_rss_queue(0, 1, 1, dport, 4);
    g_assert_cmpuint(seen, ==, 0xf);
}

/* Receiver b with 4 CPUs and 4 RX queues, IRQ CPUs by default irq_cpu 0 + i: four flows (one
 * per queue, rss_sport), three 45-frame bursts each, sent round-robin so their frames interleave
 * on the wire. Every skb of flow i is handled by CPU i (its queue's IRQ CPU), in order and
 * complete (GRO per queue: 135 segments each), and each of the four CPUs spends softirq time. A
 * model with one NAPI would put everything on CPU 0; one that spread bursts rather than flows
 * would move a flow between CPUs. */
static void test_rss_flows_to_queues(void)
{
    NetFix f;
    fix_init(&f, 1);
    f.conf[1].nic.rx_queues = 4;
    f.conf[1].nic.irq_coalesce_ns = 20 * SIM_US;
    fix_cpus(&f, 1, 4);
    fix_link(&f, RATE_10G, DELAY, 1000, 0.0);
    for (uint64_t r = 0; r < 3; r++)
        for (int i = 0; i < 4; i++) {
            Skb *skb = fix_data(&f, 0, 1, r * 65160, 65160, 1448, true);
            skb->sport = rss_sport[i];
            ip_output(&f.host[0], skb, NULL);
        }
    sim_run_until(f.sim, SIM_S);
    uint64_t next[4] = { 0 };
    uint32_t segs[4] = { 0 };
    for (guint k = 0; k < f.sock[1].rx->len; k++) {
        const Delivery *d = fix_rx(&f, 1, k);
        int i = 0;
        while (i < 4 && rss_sport[i] != d->sport)
            i++;
        g_assert_cmpint(i, <, 4);
        g_assert_true(d->cpu == f.cpus[1][i]);
        g_assert_cmpuint(d->seq, ==, next[i]);
        next[i] += d->len;
        segs[i] += d->segs;
    }
    for (int i = 0; i < 4; i++) {
        g_assert_cmpuint(segs[i], ==, 135);
        g_assert_cmpint(cpu_stats(f.cpus[1][i]).softirq_ns, >, 0);
    }
    g_assert_cmpuint(netdev_stats(f.nic[1]).rx_frames, ==, 4 * 135);
    fix_free(&f);
}

/* irq_cpus [3, 2] with 4 queues: queues 0 and 2 interrupt CPU 3, queues 1 and 3 CPU 2 (i mod
 * n); CPUs 0 and 1, irq_cpu included, see no softirq at all. */
static void test_rss_irq_cpus_list(void)
{
    NetFix f;
    fix_init(&f, 1);
    f.conf[1].nic.rx_queues = 4;
    f.conf[1].nic.irq_cpus = (CpuList){ .n = 2, .cpu = { 3, 2 } };
    fix_cpus(&f, 1, 4);
    fix_link(&f, RATE_10G, DELAY, 1000, 0.0);
    for (int i = 0; i < 4; i++) {
        Skb *skb = fix_data(&f, 0, 1, 0, 65160, 1448, true);
        skb->sport = rss_sport[i];
        ip_output(&f.host[0], skb, NULL);
    }
    sim_run_until(f.sim, SIM_S);
    g_assert_cmpuint(f.sock[1].rx->len, >=, 4);
    for (guint k = 0; k < f.sock[1].rx->len; k++) {
        const Delivery *d = fix_rx(&f, 1, k);
        uint32_t q = nic_rss_queue(0, d->sport, 1, 1, 4);
        g_assert_true(d->cpu == f.cpus[1][q % 2 == 0 ? 3 : 2]);
    }
    g_assert_cmpint(cpu_stats(f.cpus[1][0]).softirq_ns, ==, 0);
    g_assert_cmpint(cpu_stats(f.cpus[1][1]).softirq_ns, ==, 0);
    g_assert_cmpint(cpu_stats(f.cpus[1][2]).softirq_ns, >, 0);
    g_assert_cmpint(cpu_stats(f.cpus[1][3]).softirq_ns, >, 0);
    fix_free(&f);
}

/* TX completions stay on queue 0: sender a with 4 queues whose IRQs go to CPUs 3, 2, 1, 0 sends
 * one skb; its completion costs entry 300 + tx_completion 100 + napi_poll 200 = 600 ns, all on
 * CPU 3 (queue 0's IRQ CPU), whatever queue the flow's own RX would hash to. */
static void test_rss_tx_completion_queue0(void)
{
    NetFix f;
    fix_init(&f, 1);
    f.conf[0].nic.rx_queues = 4;
    f.conf[0].nic.irq_cpus = (CpuList){ .n = 4, .cpu = { 3, 2, 1, 0 } };
    fix_cpus(&f, 0, 4);
    fix_link(&f, RATE_10G, DELAY, 1000, 0.0);
    Skb *skb = fix_data(&f, 0, 1, 0, 65160, 1448, true);
    skb->sport = rss_sport[2];
    ip_output(&f.host[0], skb, NULL);
    sim_run_until(f.sim, SIM_S);
    g_assert_cmpint(cpu_stats(f.cpus[0][3]).softirq_ns, ==, 600);
    for (int c = 0; c < 3; c++)
        g_assert_cmpint(cpu_stats(f.cpus[0][c]).softirq_ns, ==, 0);
    fix_free(&f);
}

/* Each queue has its own ring of rx_ring descriptors: rings of 8, coalescing 100 us, two
 * 45-frame bursts of flows on queues 2 and 1, back to back. Queue 2's IRQ (at 11231 + 100000)
 * finds 8 frames of the first burst, 37 dropped; queue 1's ring is still empty when the second
 * burst arrives (66626 .. 120790), so it takes 8 of it too: 16 frames, 74 drops, one 8-segment
 * skb per flow. (One shared ring of 8 would still be full when the second burst starts.) */
static void test_rss_ring_per_queue(void)
{
    NetFix f;
    fix_init(&f, 1);
    f.conf[1].nic.rx_queues = 4;
    f.conf[1].nic.rx_ring = 8;
    f.conf[1].nic.irq_coalesce_ns = 100 * SIM_US;
    fix_link(&f, RATE_10G, DELAY, 1000, 0.0);
    for (int i = 2; i >= 1; i--) {
        Skb *skb = fix_data(&f, 0, 1, 0, 65160, 1448, true);
        skb->sport = rss_sport[i];
        ip_output(&f.host[0], skb, NULL);
    }
    sim_run_until(f.sim, SIM_S);
    NetDevStats s = netdev_stats(f.nic[1]);
    g_assert_cmpuint(s.rx_frames, ==, 16);
    g_assert_cmpuint(s.rx_ring_drops, ==, 74);
    g_assert_cmpuint(f.sock[1].rx->len, ==, 2);
    g_assert_cmpuint(fix_rx(&f, 1, 0)->sport, ==, rss_sport[2]);
    g_assert_cmpint(fix_rx(&f, 1, 0)->t, ==, 111231);
    g_assert_cmpuint(fix_rx(&f, 1, 1)->sport, ==, rss_sport[1]);
    g_assert_cmpint(fix_rx(&f, 1, 1)->t, ==, 45 * FT + FT + DELAY + 100 * SIM_US);
    for (guint k = 0; k < 2; k++)
        g_assert_cmpuint(fix_rx(&f, 1, k)->segs, ==, 8);
    fix_free(&f);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/nic/qdisc-and-ring", test_qdisc_and_ring);
    g_test_add_func("/nic/ring-keeps-wire-busy", test_ring_keeps_wire_busy);
    g_test_add_func("/nic/rx-ring-overflow", test_rx_ring_overflow);
    g_test_add_func("/nic/rx-ring-exact", test_rx_ring_exact);
    g_test_add_func("/nic/acks-not-merged", test_acks_not_merged);
    g_test_add_func("/nic/no-link", test_no_link);
    g_test_add_func("/nic/irq-mode/delay-vs-throttle", test_irq_mode_delay_vs_throttle);
    g_test_add_func("/nic/irq-mode/ixgbe-stream", test_irq_mode_ixgbe_stream);
    g_test_add_func("/nic/irq-mode/tx-coalesce", test_irq_tx_coalesce);
    g_test_add_func("/nic/cpu-charges", test_cpu_charges);
    g_test_add_func("/nic/tx-cleaned-before-rx", test_tx_cleaned_before_rx);
    g_test_add_data_func("/nic/full-poll-gro-flush/hz1000", GUINT_TO_POINTER(1000),
                         test_full_poll_gro_flush);
    g_test_add_data_func("/nic/full-poll-gro-flush/hz250", GUINT_TO_POINTER(250),
                         test_full_poll_gro_flush);
    g_test_add_func("/nic/rss/hash", test_rss_hash);
    g_test_add_func("/nic/rss/flows-to-queues", test_rss_flows_to_queues);
    g_test_add_func("/nic/rss/irq-cpus-list", test_rss_irq_cpus_list);
    g_test_add_func("/nic/rss/tx-completion-queue0", test_rss_tx_completion_queue0);
    g_test_add_func("/nic/rss/ring-per-queue", test_rss_ring_per_queue);
    return g_test_run();
}
