/* test_link.c - links: serialisation and propagation to the ns, TSO bursts frame by frame,
 * drop-tail in packets and bytes, random loss rate and reproducibility, full duplex.
 *
 * Receivers have no CPU (NULL Cpu: NAPI runs at the interrupt instant) and no interrupt
 * coalescing, so every frame is delivered to the socket at its own arrival time: the arrival
 * times below are the delivery times.
 *
 * Arithmetic used throughout: a full frame of MSS 1448 is 1448 + 90 = 1538 wire bytes
 * (models/wire.h); at 10 Gbit/s that is 1538 * 8 / 10 = 1230.4 ns, rounded up to 1231 ns.
 */
#include "tests/net_fixture.h"

#define RATE_10G 10000000000ull
#define FT_1448 1231 /* ns, see above */
#define DELAY (10 * SIM_US)

static void test_single_frame(void)
{
    NetFix f;
    fix_init(&f, 1);
    fix_link(&f, RATE_10G, DELAY, 1000, 0.0);
    ip_output(&f.host[0], fix_data(&f, 0, 1, 1000, 1448, 1448, true), NULL);
    sim_run_until(f.sim, SIM_S);
    g_assert_cmpuint(f.sock[1].rx->len, ==, 1);
    const Delivery *d = fix_rx(&f, 1, 0);
    g_assert_cmpint(d->t, ==, FT_1448 + DELAY); /* 1231 + 10000 = 11231 ns */
    g_assert_cmpuint(d->seq, ==, 1000);
    g_assert_cmpuint(d->len, ==, 1448);
    g_assert_cmpuint(d->segs, ==, 1);
    g_assert_cmpuint(d->truesize, ==, 2624); /* SKB_TRUESIZE(2048) */
    /* A pure ACK: 0 + 90 = 90 wire bytes = 72 ns at 10G. */
    ip_output(&f.host[1], fix_ack(&f, 1, 0, 2448), NULL);
    sim_run_until(f.sim, 2 * SIM_S);
    g_assert_cmpuint(f.sock[0].rx->len, ==, 1);
    g_assert_cmpint(fix_rx(&f, 0, 0)->t, ==, SIM_S + 72 + DELAY);
    g_assert_cmpuint(fix_rx(&f, 0, 0)->len, ==, 0);
    NetDevStats s = netdev_stats(f.nic[0]);
    g_assert_cmpuint(s.tx_skbs, ==, 1);
    g_assert_cmpuint(s.tx_frames, ==, 1);
    g_assert_cmpuint(s.tx_bytes, ==, 1538);
    g_assert_cmpuint(f.host[0].ctr.v[CTR_IpExtOutOctets], ==, 1448 + 52);
    g_assert_cmpuint(f.host[1].ctr.v[CTR_IpExtInOctets], ==, 1448 + 52);
    fix_free(&f);
}

/* 64 KB TSO skb: 45 x 1448 = 65160 bytes at t = 0. Frame k leaves at (k + 1) * 1231 and arrives
 * at (k + 1) * 1231 + 10000; only the last (k = 44, at 45 * 1231 + 10000 = 65395) has PSH. */
static void test_tso_burst(void)
{
    NetFix f;
    fix_init(&f, 1);
    fix_link(&f, RATE_10G, DELAY, 1000, 0.0);
    ip_output(&f.host[0], fix_data(&f, 0, 1, 0, 45 * 1448, 1448, true), NULL);
    sim_run_until(f.sim, SIM_S);
    g_assert_cmpuint(f.sock[1].rx->len, ==, 45);
    for (guint k = 0; k < 45; k++) {
        const Delivery *d = fix_rx(&f, 1, k);
        g_assert_cmpint(d->t, ==, (sim_time_t)(k + 1) * FT_1448 + DELAY);
        g_assert_cmpuint(d->seq, ==, (uint64_t)k * 1448);
        g_assert_cmpuint(d->len, ==, 1448);
        g_assert_cmpuint(d->flags & TCPHDR_PSH, ==, k == 44 ? TCPHDR_PSH : 0);
    }
    g_assert_cmpint(fix_rx(&f, 1, 44)->t, ==, 65395);
    NetDevStats s = netdev_stats(f.nic[0]);
    g_assert_cmpuint(s.tx_frames, ==, 45);
    g_assert_cmpuint(s.tx_bytes, ==, 45 * 1538);
    /* IP octets: one 65212-byte packet out (65160 + 52), 45 packets of 1500 in. */
    g_assert_cmpuint(f.host[0].ctr.v[CTR_IpExtOutOctets], ==, 65212);
    g_assert_cmpuint(f.host[1].ctr.v[CTR_IpExtInOctets], ==, 45 * 1500);
    fix_free(&f);
}

/* A short last frame: 3000 bytes cut at 1448 = 1448 + 1448 + 104. The last frame is 194 wire
 * bytes = 155.2 -> 156 ns: it arrives at 2 * 1231 + 156 + 10000 = 12618. */
static void test_short_last_frame(void)
{
    NetFix f;
    fix_init(&f, 1);
    fix_link(&f, RATE_10G, DELAY, 1000, 0.0);
    ip_output(&f.host[0], fix_data(&f, 0, 1, 0, 3000, 1448, true), NULL);
    sim_run_until(f.sim, SIM_S);
    g_assert_cmpuint(f.sock[1].rx->len, ==, 3);
    g_assert_cmpint(fix_rx(&f, 1, 1)->t, ==, 2 * FT_1448 + DELAY);
    g_assert_cmpint(fix_rx(&f, 1, 2)->t, ==, 12618);
    g_assert_cmpuint(fix_rx(&f, 1, 2)->len, ==, 104);
    g_assert_cmpuint(fix_rx(&f, 1, 2)->seq, ==, 2896);
    fix_free(&f);
}

/* Back-to-back skbs: the second starts when the first's last frame has left. Two 45-frame
 * bursts: the second's frame k arrives at (45 + k + 1) * 1231 + 10000. */
static void test_back_to_back(void)
{
    NetFix f;
    fix_init(&f, 1);
    fix_link(&f, RATE_10G, DELAY, 1000, 0.0);
    ip_output(&f.host[0], fix_data(&f, 0, 1, 0, 65160, 1448, true), NULL);
    ip_output(&f.host[0], fix_data(&f, 0, 1, 65160, 65160, 1448, true), NULL);
    sim_run_until(f.sim, SIM_S);
    g_assert_cmpuint(f.sock[1].rx->len, ==, 90);
    for (guint k = 0; k < 90; k++)
        g_assert_cmpint(fix_rx(&f, 1, k)->t, ==, (sim_time_t)(k + 1) * FT_1448 + DELAY);
    fix_free(&f);
}

/* Drop-tail is the buffer of a bottleneck beyond a faster NIC (hosts.H.nic.rate): a's port runs
 * at 100 Gbit/s, where a 1538-byte frame takes 123.04 -> 124 ns, so each skb reaches the link
 * 124 ns after the port starts it. */
#define RATE_100G 100000000000ull
#define FT_PORT 124

/* Drop-tail in packets, limit 10 frames (the one on the wire included), each frame judged when
 * its last bit reaches the link: frame j of an skb the port starts at s is in at s + (j + 1) *
 * 124 ns. The first 45-frame skb (s = 0) starts on the link at 124; its frame i leaves at 124 +
 * (i + 1) * 1231. Frame 10, in at 1364, finds frame 0 gone (1355) and 9 queued: it is kept;
 * frame 11, in at 1488, finds 10 and is dropped with the rest (11 kept, 34 dropped; the PSH
 * went with the last frame). The port is busy with the first skb until 45 * 124 = 5580, so the
 * second skb, sent at 124 + 2463, reaches the link from 5580 + 124 = 5704 on; by then 4 frames
 * have left (124 + 4 * 1231 = 5048), 7 are queued, and its frames 0, 1 and 2 (in at 5704, 5828,
 * 5952, before the 5th leaves at 6279) make 8, 9 and 10: frame 3 is dropped with the rest (3
 * kept, 42 dropped). They follow the first skb's 11: arrivals at 124 + (11 + k + 1) * 1231 +
 * 10000. */
static void test_drop_tail_packets(void)
{
    NetFix f;
    fix_init(&f, 1);
    f.conf[0].nic.rate_bps = RATE_100G;
    fix_link(&f, RATE_10G, DELAY, 10, 0.0);
    ip_output(&f.host[0], fix_data(&f, 0, 1, 0, 65160, 1448, true), NULL);
    sim_run_until(f.sim, FT_PORT + 2463);
    ip_output(&f.host[0], fix_data(&f, 0, 1, 65160, 65160, 1448, true), NULL);
    sim_run_until(f.sim, SIM_S);
    NetDevStats s = netdev_stats(f.nic[0]);
    g_assert_cmpuint(s.link_drops, ==, 34 + 42);
    g_assert_cmpuint(s.tx_frames, ==, 14);
    g_assert_cmpuint(f.sock[1].rx->len, ==, 14);
    for (guint k = 0; k < 11; k++) {
        g_assert_cmpuint(fix_rx(&f, 1, k)->seq, ==, (uint64_t)k * 1448);
        g_assert_cmpuint(fix_rx(&f, 1, k)->flags & TCPHDR_PSH, ==, 0);
        g_assert_cmpint(fix_rx(&f, 1, k)->t, ==, FT_PORT + (sim_time_t)(k + 1) * FT_1448 + DELAY);
    }
    for (guint k = 0; k < 3; k++) {
        const Delivery *d = fix_rx(&f, 1, 11 + k);
        g_assert_cmpuint(d->seq, ==, 65160 + (uint64_t)k * 1448);
        g_assert_cmpint(d->t, ==, FT_PORT + (sim_time_t)(11 + k + 1) * FT_1448 + DELAY);
    }
    fix_free(&f);
}

/* Drop-tail in bytes: 5 * 1538 + 100 = 7790 bytes hold 5 full frames, not 6. */
static void test_drop_tail_bytes(void)
{
    NetFix f;
    fix_init(&f, 1);
    f.conf[0].nic.rate_bps = RATE_100G;
    fix_link(&f, RATE_10G, DELAY, 0, 0.0);
    f.lconf.queue_bytes = 5 * 1538 + 100;
    ip_output(&f.host[0], fix_data(&f, 0, 1, 0, 65160, 1448, true), NULL);
    sim_run_until(f.sim, SIM_S);
    g_assert_cmpuint(netdev_stats(f.nic[0]).link_drops, ==, 40);
    g_assert_cmpuint(f.sock[1].rx->len, ==, 5);
    /* An skb none of whose frames fit is dropped whole: at 1 s the queue is empty, a 5-frame
     * skb fills it (7690 bytes) and the next frame (7690 + 1538 > 7790) finds no room. */
    ip_output(&f.host[0], fix_data(&f, 0, 1, 0, 7240, 1448, true), NULL);
    ip_output(&f.host[0], fix_data(&f, 0, 1, 7240, 1448, 1448, true), NULL);
    sim_run_until(f.sim, 2 * SIM_S);
    g_assert_cmpuint(netdev_stats(f.nic[0]).link_drops, ==, 41);
    g_assert_cmpuint(f.sock[1].rx->len, ==, 10);
    fix_free(&f);
}

/* The bottleneck's buffer holds the frames that have reached it: behind a port only a little
 * faster than the link (10 Gbit/s into 9.9 Gbit/s, 1231 ns a frame in, 1538 * 8 / 9.9 =
 * 1242.8 -> 1243 ns a frame out) two 45-frame skbs sent back to back grow the queue by at most
 * one frame, so a 10-frame buffer loses none of their 90 frames (a switch port's buffer sees a
 * frame when its last bit arrives, not when the sender's driver is handed the skb). The link
 * starts at the first frame's arrival, 1231 ns, and then never idles: the second skb's first
 * frame is in at 45 * 1230.4 + 1231 = 56599 ns, before the first skb's last frame has left
 * (1231 + 45 * 1243 = 57166 ns). */
static void test_drop_tail_counts_arrived_frames(void)
{
    NetFix f;
    fix_init(&f, 1);
    f.conf[0].nic.rate_bps = RATE_10G;
    fix_link(&f, 9900000000ull, DELAY, 10, 0.0);
    ip_output(&f.host[0], fix_data(&f, 0, 1, 0, 65160, 1448, true), NULL);
    ip_output(&f.host[0], fix_data(&f, 0, 1, 65160, 65160, 1448, true), NULL);
    sim_run_until(f.sim, SIM_S);
    g_assert_cmpuint(netdev_stats(f.nic[0]).link_drops, ==, 0);
    g_assert_cmpuint(f.sock[1].rx->len, ==, 90);
    for (guint k = 0; k < 90; k++) {
        const Delivery *d = fix_rx(&f, 1, k);
        g_assert_cmpuint(d->seq, ==, (uint64_t)k * 1448);
        g_assert_cmpint(d->t, ==, FT_1448 + (sim_time_t)(k + 1) * 1243 + DELAY);
    }
    fix_free(&f);
}

/* Random loss p = 1 % over 4445 bursts of 45 frames = 200025 frames. Losses are binomial:
 * mean 2000.25, sd = sqrt(200025 * 0.01 * 0.99) = 44.50; the 99.9 % two-sided bound is
 * 3.29 sd = 146.4. Returns a hash of which frames were lost. */
static uint64_t run_loss(uint64_t seed, uint64_t *lost_out, uint64_t *fingerprint)
{
    NetFix f;
    fix_init(&f, seed);
    f.conf[0].nic.qdisc_limit = 10000;
    f.conf[0].nic.tx_ring = 10000;
    fix_link(&f, RATE_10G, DELAY, 1000000, 0.01);
    for (uint64_t i = 0; i < 4445; i++)
        ip_output(&f.host[0], fix_data(&f, 0, 1, i * 65160, 65160, 1448, true), NULL);
    sim_run_until(f.sim, SIM_S);
    NetDevStats s = netdev_stats(f.nic[0]);
    uint64_t got = f.sock[1].rx->len;
    g_assert_cmpuint(got + s.random_losses, ==, 200025);
    uint64_t h = 1469598103934665603ull, expect = 0;
    for (guint i = 0; i < got; i++) {
        uint64_t frame = fix_rx(&f, 1, i)->seq / 1448;
        for (; expect < frame; expect++)
            h = (h ^ expect) * 1099511628211ull; /* FNV-1a over lost frame numbers */
        expect = frame + 1;
    }
    *lost_out = s.random_losses;
    *fingerprint = sim_event_fingerprint(f.sim);
    fix_free(&f);
    return h;
}

static void test_random_loss(void)
{
    uint64_t lost1, lost2, lost3, fp1, fp2, fp3;
    uint64_t h1 = run_loss(7, &lost1, &fp1);
    g_test_message("seed 7: %" G_GUINT64_FORMAT " of 200025 frames lost", lost1);
    g_assert_cmpfloat(lost1, >=, 2000.25 - 146.4);
    g_assert_cmpfloat(lost1, <=, 2000.25 + 146.4);
    uint64_t h2 = run_loss(7, &lost2, &fp2);
    g_assert_cmpuint(lost2, ==, lost1);
    g_assert_cmpuint(h2, ==, h1);
    g_assert_cmpuint(fp2, ==, fp1); /* the same events, in the same order, at the same times */
    uint64_t h3 = run_loss(8, &lost3, &fp3);
    g_assert_cmpuint(h3, !=, h1);
}

/* Full duplex: both directions at t = 0 arrive at 11231 each, independently. */
static void test_full_duplex(void)
{
    NetFix f;
    fix_init(&f, 1);
    fix_link(&f, RATE_10G, DELAY, 1000, 0.0);
    ip_output(&f.host[0], fix_data(&f, 0, 1, 0, 1448, 1448, true), NULL);
    ip_output(&f.host[1], fix_data(&f, 1, 0, 0, 1448, 1448, true), NULL);
    sim_run_until(f.sim, SIM_S);
    g_assert_cmpint(fix_rx(&f, 0, 0)->t, ==, 11231);
    g_assert_cmpint(fix_rx(&f, 1, 0)->t, ==, 11231);
    fix_free(&f);
}

/* No allocation once warm: after 10 bursts the pool has all the skbs the path needs (the TSO
 * skb, its train clone, up to 45 frames); 100 more bursts do not grow it. */
static void test_pool_warm(void)
{
    NetFix f;
    fix_init(&f, 1);
    fix_link(&f, RATE_10G, DELAY, 1000, 0.0);
    for (uint64_t i = 0; i < 10; i++) {
        ip_output(&f.host[0], fix_data(&f, 0, 1, i * 65160, 65160, 1448, true), NULL);
        sim_run_until(f.sim, (sim_time_t)(i + 1) * SIM_MS);
    }
    uint64_t cap0 = skb_pool_capacity(f.host[0].pool), cap1 = skb_pool_capacity(f.host[1].pool);
    g_assert_cmpuint(cap1, ==, 256); /* 45 frames + 1 train clone fit in one block */
    for (uint64_t i = 10; i < 110; i++) {
        ip_output(&f.host[0], fix_data(&f, 0, 1, i * 65160, 65160, 1448, true), NULL);
        sim_run_until(f.sim, (sim_time_t)(i + 1) * SIM_MS);
    }
    g_assert_cmpuint(skb_pool_capacity(f.host[0].pool), ==, cap0);
    g_assert_cmpuint(skb_pool_capacity(f.host[1].pool), ==, cap1);
    g_assert_cmpuint(f.sock[1].rx->len, ==, 110 * 45);
    fix_free(&f);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/link/single-frame", test_single_frame);
    g_test_add_func("/link/tso-burst", test_tso_burst);
    g_test_add_func("/link/short-last-frame", test_short_last_frame);
    g_test_add_func("/link/back-to-back", test_back_to_back);
    g_test_add_func("/link/drop-tail-packets", test_drop_tail_packets);
    g_test_add_func("/link/drop-tail-bytes", test_drop_tail_bytes);
    g_test_add_func("/link/drop-tail-counts-arrived-frames", test_drop_tail_counts_arrived_frames);
    g_test_add_func("/link/random-loss", test_random_loss);
    g_test_add_func("/link/full-duplex", test_full_duplex);
    g_test_add_func("/link/pool-warm", test_pool_warm);
    return g_test_run();
}
