/* test_gro.c - GRO merging rules, size and frag caps, flush points, batching and truesize,
 * on a Gro fed frame by frame (no NIC, NULL Cpu), plus the NIC's interrupt coalescing deciding
 * what one poll can merge.
 *
 * Size cap arithmetic (gro_max_size 65536 on the IP packet, 52 bytes of IP+TCP+TS header):
 * MSS 1448: 52 + 45 * 1448 = 65212 < 65536 but 52 + 46 * 1448 = 66660 -> 45 frames per skb.
 * MSS 4096: 52 + 15 * 4096 = 61492 < 65536 but 52 + 16 * 4096 = 65588 -> 15 frames per skb.
 */
#include "models/gro.h"
#include "tests/net_fixture.h"

typedef struct Rec {
    GArray *out; /* Delivery */
} Rec;

typedef struct GroFix {
    SkbPool *pool;
    Gro gro;
    Rec rec;
    GArray *sizes; /* gso_size of delivered skbs */
} GroFix;

static void gfix_deliver(void *ctx, Skb *skb, Cpu *cpu)
{
    GroFix *g = ctx;
    Delivery d = { .seq = skb->seq, .len = skb->len, .segs = skb->gso_segs,
                   .truesize = skb->truesize, .flags = skb->flags, .src_host = skb->src_host };
    g_array_append_val(g->rec.out, d);
    uint16_t gs = skb->gso_size;
    g_array_append_val(g->sizes, gs);
    skb_free(g->pool, skb);
}

static void gfix_init(GroFix *g, uint32_t mtu, bool enabled, uint32_t max_frags)
{
    g->pool = skb_pool_new();
    g->rec.out = g_array_new(FALSE, TRUE, sizeof(Delivery));
    g->sizes = g_array_new(FALSE, TRUE, sizeof(uint16_t));
    GroParams p;
    gro_params_default(&p, mtu, enabled);
    p.max_frags = max_frags;
    gro_init(&g->gro, &p, g->pool, gfix_deliver, g);
}

static void gfix_free(GroFix *g)
{
    gro_destroy(&g->gro);
    g_assert_cmpuint(skb_pool_in_use(g->pool), ==, 0);
    skb_pool_free(g->pool);
    g_array_free(g->rec.out, TRUE);
    g_array_free(g->sizes, TRUE);
}

/* One received frame of flow `flow` (distinguished by source port) as the NIC builds it. */
static Skb *frame(GroFix *g, uint16_t flow, uint64_t seq, uint32_t len, uint8_t extra_flags,
                  uint32_t mtu)
{
    Skb *skb = skb_alloc(g->pool);
    skb->conn = flow;
    skb->src_host = 0;
    skb->dst_host = 1;
    skb->sport = flow;
    skb->dport = 1;
    skb->seq = seq;
    skb->end_seq = seq + len;
    skb->ack_seq = 77;
    skb->win = 65535u << 7;
    skb->tsval = 1000;
    skb->tsecr = 2000;
    skb->flags = (uint8_t)(TCPHDR_ACK | extra_flags);
    skb->len = len;
    skb->gso_segs = 1;
    skb->truesize = truesize_rx_frame(mtu);
    return skb;
}

static const Delivery *out(const GroFix *g, guint i)
{
    g_assert_cmpuint(i, <, g->rec.out->len);
    return &g_array_index(g->rec.out, Delivery, i);
}

/* 100 in-order frames of MSS 1448, none with PSH: 45 + 45 complete on the size cap, the last
 * 10 are held until the poll ends. Truesize of 45 frames = 2624 + 16 * 2048 + 28 * 2624 =
 * 108864; of 10 frames = 2624 + 9 * 2048 = 21056. */
static void test_size_cap_1448(void)
{
    GroFix g;
    gfix_init(&g, 1500, true, 0);
    for (uint32_t k = 0; k < 100; k++)
        gro_receive(&g.gro, frame(&g, 1, (uint64_t)k * 1448, 1448, 0, 1500), NULL);
    /* The first aggregate (45 segs >= gro_normal_batch 8) is delivered as soon as the 46th frame
     * closes it; the second when the 91st does; the rest is held. */
    g_assert_cmpuint(g.rec.out->len, ==, 2);
    gro_flush(&g.gro, NULL);
    g_assert_cmpuint(g.rec.out->len, ==, 3);
    static const uint32_t segs[3] = { 45, 45, 10 };
    for (guint i = 0; i < 3; i++) {
        g_assert_cmpuint(out(&g, i)->segs, ==, segs[i]);
        g_assert_cmpuint(out(&g, i)->len, ==, segs[i] * 1448);
        g_assert_cmpuint(out(&g, i)->seq, ==, (uint64_t)i * 45 * 1448);
        g_assert_cmpuint(g_array_index(g.sizes, uint16_t, i), ==, 1448);
    }
    g_assert_cmpuint(out(&g, 0)->truesize, ==, 108864);
    g_assert_cmpuint(out(&g, 0)->truesize, ==, truesize_gro_skb(1500, 45));
    g_assert_cmpuint(out(&g, 2)->truesize, ==, 21056);
    GroStats st = gro_stats(&g.gro);
    g_assert_cmpuint(st.frames, ==, 100);
    g_assert_cmpuint(st.merged, ==, 97);
    gfix_free(&g);
}

/* MSS 4096 (MTU 4148): 16 frames -> 15 + 1; 15 * 4096 = 61440 bytes, truesize 4672 + 14 * 4096 =
 * 62016 (one page per frame). */
static void test_size_cap_4096(void)
{
    GroFix g;
    gfix_init(&g, 4148, true, 0);
    for (uint32_t k = 0; k < 16; k++)
        gro_receive(&g.gro, frame(&g, 1, (uint64_t)k * 4096, 4096, 0, 4148), NULL);
    gro_flush(&g.gro, NULL);
    g_assert_cmpuint(g.rec.out->len, ==, 2);
    g_assert_cmpuint(out(&g, 0)->len, ==, 61440);
    g_assert_cmpuint(out(&g, 0)->truesize, ==, 62016);
    g_assert_cmpuint(out(&g, 1)->segs, ==, 1);
    g_assert_cmpuint(g_array_index(g.sizes, uint16_t, 1), ==, 0); /* a lone frame: no gso_size */
    gfix_free(&g);
}

/* With a 17-frag limit (a driver/kernel that does not chain frag_list), 45 frames -> 17, 17,
 * 11 (the last has PSH and completes the third at once). */
static void test_frag_cap(void)
{
    GroFix g;
    gfix_init(&g, 1500, true, 17);
    for (uint32_t k = 0; k < 45; k++)
        gro_receive(&g.gro, frame(&g, 1, (uint64_t)k * 1448, 1448, k == 44 ? TCPHDR_PSH : 0, 1500),
                    NULL);
    g_assert_cmpuint(g.rec.out->len, ==, 3);
    g_assert_cmpuint(out(&g, 0)->segs, ==, 17);
    g_assert_cmpuint(out(&g, 1)->segs, ==, 17);
    g_assert_cmpuint(out(&g, 2)->segs, ==, 11);
    g_assert_cmpuint(out(&g, 2)->flags & TCPHDR_PSH, ==, TCPHDR_PSH);
    g_assert_cmpuint(out(&g, 0)->flags & TCPHDR_PSH, ==, 0);
    gfix_free(&g);
}

/* PSH ends an aggregate: frames 0..9, PSH on frame 4 -> [0..4] completes with 5 segs and waits
 * on the normal list (5 < 8); [5..9] is held; the flush delivers both, in order. */
static void test_psh_and_batch(void)
{
    GroFix g;
    gfix_init(&g, 1500, true, 0);
    for (uint32_t k = 0; k < 10; k++)
        gro_receive(&g.gro, frame(&g, 1, (uint64_t)k * 1448, 1448, k == 4 ? TCPHDR_PSH : 0, 1500),
                    NULL);
    g_assert_cmpuint(g.rec.out->len, ==, 0);
    gro_flush(&g.gro, NULL);
    g_assert_cmpuint(g.rec.out->len, ==, 2);
    g_assert_cmpuint(out(&g, 0)->segs, ==, 5);
    g_assert_cmpuint(out(&g, 0)->flags & TCPHDR_PSH, ==, TCPHDR_PSH);
    g_assert_cmpuint(out(&g, 1)->seq, ==, 5 * 1448);
    g_assert_cmpuint(out(&g, 1)->segs, ==, 5);
    /* A frame shorter than gso_size is merged and completes the aggregate (700 < 1448). */
    gro_receive(&g.gro, frame(&g, 1, 10 * 1448, 1448, 0, 1500), NULL);
    gro_receive(&g.gro, frame(&g, 1, 11 * 1448, 700, 0, 1500), NULL);
    gro_flush(&g.gro, NULL);
    g_assert_cmpuint(out(&g, 2)->segs, ==, 2);
    g_assert_cmpuint(out(&g, 2)->len, ==, 2148);
    gfix_free(&g);
}

/* Pure ACKs are never merged or held; an ACK of a flow with a held skb completes it first. */
static void test_pure_acks(void)
{
    GroFix g;
    gfix_init(&g, 1500, true, 0);
    for (uint32_t k = 0; k < 5; k++)
        gro_receive(&g.gro, frame(&g, 2, 1, 0, 0, 1500), NULL);
    gro_receive(&g.gro, frame(&g, 1, 0, 1448, 0, 1500), NULL);
    gro_receive(&g.gro, frame(&g, 1, 1448, 1448, 0, 1500), NULL);
    gro_receive(&g.gro, frame(&g, 1, 1, 0, 0, 1500), NULL); /* same flow, no payload */
    /* normal list: 5 ACKs (5 segs), the 2-seg aggregate (7), the ACK (8 >= 8): delivered. */
    g_assert_cmpuint(g.rec.out->len, ==, 7);
    for (guint i = 0; i < 5; i++)
        g_assert_cmpuint(out(&g, i)->len, ==, 0);
    g_assert_cmpuint(out(&g, 5)->segs, ==, 2);
    g_assert_cmpuint(out(&g, 6)->len, ==, 0);
    g_assert_cmpuint(gro_stats(&g.gro).merged, ==, 1);
    gfix_free(&g);
}

/* Frames that cannot merge: a sequence gap, another TSval, another ACK number, another window
 * each complete the held skb and start a new one. */
static void test_no_merge(void)
{
    GroFix g;
    gfix_init(&g, 1500, true, 0);
    gro_receive(&g.gro, frame(&g, 1, 0, 1448, 0, 1500), NULL);
    gro_receive(&g.gro, frame(&g, 1, 2 * 1448, 1448, 0, 1500), NULL); /* gap */
    Skb *ts = frame(&g, 1, 3 * 1448, 1448, 0, 1500);
    ts->tsval++;
    gro_receive(&g.gro, ts, NULL);
    Skb *ack = frame(&g, 1, 4 * 1448, 1448, 0, 1500);
    ack->ack_seq++;
    gro_receive(&g.gro, ack, NULL);
    /* tcp_gro_receive XORs the whole tcp_flag_word(), whose low 16 bits are the window field:
     * the same ACK number with another window does not merge either */
    Skb *win = frame(&g, 1, 5 * 1448, 1448, 0, 1500);
    win->ack_seq = ack->ack_seq;
    win->win += 1u << 7;
    gro_receive(&g.gro, win, NULL);
    gro_flush(&g.gro, NULL);
    g_assert_cmpuint(g.rec.out->len, ==, 5);
    for (guint i = 0; i < 5; i++)
        g_assert_cmpuint(out(&g, i)->segs, ==, 1);
    g_assert_cmpuint(out(&g, 1)->seq, ==, 2 * 1448);
    gfix_free(&g);
}

/* Nine interleaved flows: when the 9th flow's first frame arrives the oldest held skb (flow 1)
 * is completed (MAX_GRO_SKBS = 8). */
static void test_max_held(void)
{
    GroFix g;
    gfix_init(&g, 1500, true, 0);
    for (uint16_t fl = 1; fl <= 9; fl++)
        gro_receive(&g.gro, frame(&g, fl, 0, 1448, 0, 1500), NULL);
    g_assert_cmpuint(gro_stats(&g.gro).aggregates, ==, 1);
    gro_flush(&g.gro, NULL);
    g_assert_cmpuint(g.rec.out->len, ==, 9);
    gfix_free(&g);
}

/* GRO off: every frame is its own skb, delivered in batches of gro_normal_batch = 8. */
static void test_disabled_batches(void)
{
    GroFix g;
    gfix_init(&g, 1500, false, 0);
    static const guint after[20] = { 0, 0, 0, 0, 0, 0, 0, 8, 8, 8, 8, 8, 8, 8, 8, 16, 16, 16, 16, 16 };
    for (uint32_t k = 0; k < 20; k++) {
        gro_receive(&g.gro, frame(&g, 1, (uint64_t)k * 1448, 1448, 0, 1500), NULL);
        g_assert_cmpuint(g.rec.out->len, ==, after[k]);
    }
    gro_flush(&g.gro, NULL);
    g_assert_cmpuint(g.rec.out->len, ==, 20);
    for (guint i = 0; i < 20; i++) {
        g_assert_cmpuint(out(&g, i)->segs, ==, 1);
        g_assert_cmpuint(out(&g, i)->truesize, ==, 2624);
    }
    gfix_free(&g);
}

/* Before 5.4 (nic.gro_normal_batch 1) nothing waits on the normal list: with GRO off every frame
 * goes up as soon as it is received, and with GRO on so does a frame that cannot be merged (an
 * out-of-window pure ACK here) while an aggregate stays held until the flush. */
static void test_normal_batch_one(void)
{
    GroFix g;
    gfix_init(&g, 1500, false, 0);
    g.gro.p.normal_batch = 1;
    for (uint32_t k = 0; k < 5; k++) {
        gro_receive(&g.gro, frame(&g, 1, (uint64_t)k * 1448, 1448, 0, 1500), NULL);
        g_assert_cmpuint(g.rec.out->len, ==, k + 1);
    }
    gfix_free(&g);
    gfix_init(&g, 1500, true, 0);
    g.gro.p.normal_batch = 1;
    gro_receive(&g.gro, frame(&g, 1, 0, 1448, 0, 1500), NULL);
    gro_receive(&g.gro, frame(&g, 1, 1448, 1448, 0, 1500), NULL);
    g_assert_cmpuint(g.rec.out->len, ==, 0); /* held, merging */
    gro_receive(&g.gro, frame(&g, 2, 0, 0, 0, 1500), NULL);
    g_assert_cmpuint(g.rec.out->len, ==, 1); /* the pure ACK, at once */
    gro_flush(&g.gro, NULL);
    g_assert_cmpuint(g.rec.out->len, ==, 2);
    g_assert_cmpuint(out(&g, 1)->segs, ==, 2);
    gfix_free(&g);
}

/* __napi_poll's gro_flush_normal(gro, HZ >= 1000) after a poll that used its whole weight: the
 * aggregate of flow 1, first held in jiffy 0, goes up in jiffy 1 although its next frame could
 * still merge; flow 2's, held in jiffy 1, stays; the normal list (flow 3's lone PSH frame, 1
 * segment, below the batch of 8) goes up as well. The full flush of napi_complete_done then
 * delivers flow 2. A model without ages keeps both aggregates, one without the normal-list
 * delivery delivers nothing at the first flush. */
static void test_flush_old(void)
{
    GroFix g;
    gfix_init(&g, 1500, true, 0);
    Sim *sim = sim_new(1);
    gro_set_clock(&g.gro, sim, 1000, 0);
    gro_receive(&g.gro, frame(&g, 1, 0, 1448, 0, 1500), NULL);
    gro_receive(&g.gro, frame(&g, 1, 1448, 1448, 0, 1500), NULL);
    sim_run_until(sim, SIM_MS);
    gro_receive(&g.gro, frame(&g, 2, 0, 1448, 0, 1500), NULL);
    gro_receive(&g.gro, frame(&g, 3, 0, 100, TCPHDR_PSH, 1500), NULL);
    g_assert_cmpuint(g.rec.out->len, ==, 0);
    gro_flush_normal(&g.gro, true, NULL);
    g_assert_cmpuint(g.rec.out->len, ==, 2);
    g_assert_cmpuint(out(&g, 0)->len, ==, 100);  /* flow 3, on the normal list first */
    g_assert_cmpuint(out(&g, 1)->len, ==, 2896); /* flow 1: 2 frames */
    g_assert_cmpuint(out(&g, 1)->segs, ==, 2);
    gro_flush_normal(&g.gro, true, NULL); /* same jiffy: flow 2 stays */
    g_assert_cmpuint(g.rec.out->len, ==, 2);
    gro_receive(&g.gro, frame(&g, 1, 2896, 1448, 0, 1500), NULL); /* a new aggregate */
    gro_flush(&g.gro, NULL);
    g_assert_cmpuint(g.rec.out->len, ==, 4);
    g_assert_cmpuint(out(&g, 2)->len, ==, 1448); /* flow 2 (held before flow 1's new one) */
    g_assert_cmpuint(out(&g, 3)->seq, ==, 2896);
    gfix_free(&g);
    sim_free(sim);
}

/* Through a NIC: what one poll can merge depends on how many frames the ring holds when the
 * (coalesced) interrupt fires. 10 Gbit/s, 10 us delay: frame k of a 45-frame burst arrives at
 * 10000 + 1231 (k + 1). irq_coalesce = 20 us:
 *  - frame 0 arrives at 11231 -> IRQ at 31231; frames with 10000 + 1231 (k + 1) <= 31231 are
 *    k = 0..16 (17 frames): one 17-seg skb at 31231;
 *  - frame 17 arrives at 32158 -> IRQ at 52158; k = 17..33 (17 frames) at 52158;
 *  - frame 34 arrives at 53085 -> IRQ at 73085; k = 34..44 (11 frames, the last with PSH). */
static void test_nic_coalesce(gconstpointer gro_on)
{
    NetFix f;
    fix_init(&f, 1);
    f.conf[1].nic.irq_coalesce_ns = 20 * SIM_US;
    f.conf[1].nic.gro = GPOINTER_TO_INT(gro_on);
    fix_link(&f, 10000000000ull, 10 * SIM_US, 1000, 0.0);
    ip_output(&f.host[0], fix_data(&f, 0, 1, 0, 65160, 1448, true), NULL);
    sim_run_until(f.sim, SIM_S);
    static const sim_time_t at[3] = { 31231, 52158, 73085 };
    static const uint32_t n[3] = { 17, 17, 11 };
    if (gro_on) {
        g_assert_cmpuint(f.sock[1].rx->len, ==, 3);
        for (guint i = 0; i < 3; i++) {
            g_assert_cmpint(fix_rx(&f, 1, i)->t, ==, at[i]);
            g_assert_cmpuint(fix_rx(&f, 1, i)->segs, ==, n[i]);
            g_assert_cmpuint(fix_rx(&f, 1, i)->truesize, ==, truesize_gro_skb(1500, n[i]));
        }
        g_assert_cmpuint(fix_rx(&f, 1, 2)->flags & TCPHDR_PSH, ==, TCPHDR_PSH);
    } else {
        g_assert_cmpuint(f.sock[1].rx->len, ==, 45);
        for (guint k = 0; k < 45; k++)
            g_assert_cmpint(fix_rx(&f, 1, k)->t, ==, at[k < 17 ? 0 : k < 34 ? 1 : 2]);
    }
    g_assert_cmpuint(netdev_stats(f.nic[1]).rx_skbs, ==, gro_on ? 3 : 45);
    g_assert_cmpuint(netdev_stats(f.nic[1]).rx_frames, ==, 45);
    fix_free(&f);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/gro/size-cap-1448", test_size_cap_1448);
    g_test_add_func("/gro/size-cap-4096", test_size_cap_4096);
    g_test_add_func("/gro/frag-cap-17", test_frag_cap);
    g_test_add_func("/gro/psh-and-batch", test_psh_and_batch);
    g_test_add_func("/gro/normal-batch-one", test_normal_batch_one);
    g_test_add_func("/gro/pure-acks", test_pure_acks);
    g_test_add_func("/gro/no-merge", test_no_merge);
    g_test_add_func("/gro/max-held", test_max_held);
    g_test_add_func("/gro/disabled-batches", test_disabled_batches);
    g_test_add_func("/gro/flush-old", test_flush_old);
    g_test_add_data_func("/gro/nic-coalesce/on", GINT_TO_POINTER(1), test_nic_coalesce);
    g_test_add_data_func("/gro/nic-coalesce/off", GINT_TO_POINTER(0), test_nic_coalesce);
    return g_test_run();
}
