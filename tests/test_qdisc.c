/* test_qdisc.c - the NIC's root qdisc (models/qdisc.c): pfifo's order and limit; fq_codel's
 * deficit round robin, CoDel's drop times and its overflow drop, each worked by hand from
 * sch_fq_codel.c / codel_impl.h (RFC 8289, 8290). MTU 1500: quantum 1514; a 1448-byte segment
 * with timestamps is 1448 + 14 + 20 + 32 = 1514 bytes to the qdisc, a 100-byte one 166. */
#include <glib.h>

#include "models/netdev.h"
#include "models/qdisc.h"

#define MS ((sim_time_t)1000000)

typedef struct Fix {
    SkbPool *pool;
    NicConf conf;
    Qdisc *q;
    GArray *dropped; /* seq of each skb the qdisc dropped */
    uint64_t by_reason[2]; /* drops by QdiscDropReason */
} Fix;

static void on_drop(void *ctx, Skb *skb, QdiscDropReason why)
{
    Fix *f = ctx;
    g_array_append_val(f->dropped, skb->seq);
    f->by_reason[why]++;
    skb_free(f->pool, skb);
}

static void fix_init(Fix *f, NicQdisc kind, uint32_t limit)
{
    f->pool = skb_pool_new();
    f->conf = (NicConf){ .mtu = 1500, .qdisc_limit = limit, .qdisc = kind,
                         .codel_target_ns = 5 * MS, .codel_interval_ns = 100 * MS,
                         .qdisc_memory_limit = 32u << 20 };
    f->dropped = g_array_new(FALSE, FALSE, sizeof(uint64_t));
    f->by_reason[QDISC_DROP_CODEL] = f->by_reason[QDISC_DROP_OVERLIMIT] = 0;
    f->q = qdisc_new(&f->conf, on_drop, f);
}

static void fix_done(Fix *f)
{
    qdisc_free(f->q, f->pool);
    g_array_free(f->dropped, TRUE);
    skb_pool_free(f->pool);
}

/* An skb of connection conn with `len` payload bytes, numbered seq, arrived at `at`. */
static int put(Fix *f, uint32_t conn, uint64_t seq, uint32_t len, sim_time_t at)
{
    Skb *skb = skb_alloc(f->pool);
    skb->conn = conn;
    skb->src_host = 0;
    skb->dst_host = 1;
    skb->seq = seq;
    skb->len = len;
    skb->gso_segs = 1;
    skb->truesize = 2048;
    skb->ready_ns = at;
    return qdisc_enqueue(f->q, skb);
}

/* The seq of the next skb out at `now` (0 when none), freeing it. */
static uint64_t take(Fix *f, sim_time_t now)
{
    Skb *skb = qdisc_dequeue(f->q, now);
    if (!skb)
        return 0;
    uint64_t seq = skb->seq;
    skb_free(f->pool, skb);
    return seq;
}

/* pfifo: arrival order, and the limit refuses (the caller keeps the skb). */
static void test_pfifo(void)
{
    Fix f;
    fix_init(&f, NIC_QDISC_PFIFO, 3);
    g_assert_cmpint(put(&f, 1, 11, 1448, 0), ==, NET_XMIT_SUCCESS);
    g_assert_cmpint(put(&f, 1, 12, 1448, 0), ==, NET_XMIT_SUCCESS);
    g_assert_cmpint(put(&f, 2, 21, 100, 0), ==, NET_XMIT_SUCCESS);
    Skb *extra = skb_alloc(f.pool);
    extra->len = 1;
    g_assert_cmpint(qdisc_enqueue(f.q, extra), ==, NET_XMIT_DROP);
    skb_free(f.pool, extra);
    g_assert_cmpuint(qdisc_qlen(f.q), ==, 3);
    g_assert_cmpuint(take(&f, 0), ==, 11);
    g_assert_cmpuint(take(&f, 0), ==, 12);
    g_assert_cmpuint(take(&f, 0), ==, 21);
    g_assert_cmpuint(take(&f, 0), ==, 0);
    fix_done(&f);
}

/* fq_codel's round robin: flow A queues three 1514-byte skbs, then flow B three 166-byte ones.
 * A (new, deficit 1514) sends A1 and is down to 0, so it goes to old_flows with another 1514;
 * B (new) sends B1-B3 (1514 - 3 x 166 = 1016 left) and, empty with A waiting in old_flows,
 * passes through old_flows behind A; A sends A2 (0 left) and goes round again; B, empty in
 * old_flows, leaves; A sends A3. Two flows came in new (new_flow_count 2). */
static void test_fq_round_robin(void)
{
    Fix f;
    fix_init(&f, NIC_QDISC_FQ_CODEL, 10240);
    for (uint64_t i = 1; i <= 3; i++)
        g_assert_cmpint(put(&f, 1, 10 + i, 1448, 0), ==, NET_XMIT_SUCCESS);
    for (uint64_t i = 1; i <= 3; i++)
        g_assert_cmpint(put(&f, 2, 20 + i, 100, 0), ==, NET_XMIT_SUCCESS);
    static const uint64_t want[] = {11, 21, 22, 23, 12, 13, 0};
    for (unsigned i = 0; i < G_N_ELEMENTS(want); i++)
        g_assert_cmpuint(take(&f, 0), ==, want[i]);
    g_assert_cmpuint(qdisc_stats(f.q).new_flow_count, ==, 2);
    g_assert_cmpuint(f.dropped->len, ==, 0);
    fix_done(&f);
}

/* CoDel on one flow whose 40 skbs all arrived at 0. Taken at 10 ms: a sojourn of 10 ms is over
 * target (5 ms) - first_above_time = 110 ms, no drop; at 110 ms, not yet past it; at 111 ms the
 * head (seq 3) is dropped and seq 4 sent: dropping, count 1, next drop at 111 + 100 = 211 ms.
 * At 210 ms nothing is dropped; at 211 ms seq 6 is (count 2), next at 211 + 100 / sqrt(2) =
 * 281.71 ms; at 281.70 nothing, at 281.72 seq 9 (count 3). A sojourn under target ends the
 * dropping state: an skb that arrived at 300 ms, taken at 302 ms after the older ones are
 * gone, is sent, and so is the next. */
static void test_codel_drop_times(void)
{
    Fix f;
    fix_init(&f, NIC_QDISC_FQ_CODEL, 10240);
    for (uint64_t i = 1; i <= 40; i++)
        put(&f, 1, i, 1448, 0);
    g_assert_cmpuint(take(&f, 10 * MS), ==, 1);
    g_assert_cmpuint(take(&f, 110 * MS), ==, 2);
    g_assert_cmpuint(take(&f, 111 * MS), ==, 4);
    g_assert_cmpuint(f.dropped->len, ==, 1);
    g_assert_cmpuint(g_array_index(f.dropped, uint64_t, 0), ==, 3);
    g_assert_cmpuint(take(&f, 210 * MS), ==, 5);
    g_assert_cmpuint(take(&f, 211 * MS), ==, 7);
    g_assert_cmpuint(g_array_index(f.dropped, uint64_t, 1), ==, 6);
    g_assert_cmpuint(take(&f, 281700 * 1000), ==, 8);
    g_assert_cmpuint(take(&f, 281720 * 1000), ==, 10);
    g_assert_cmpuint(g_array_index(f.dropped, uint64_t, 2), ==, 9);
    g_assert_cmpuint(f.by_reason[QDISC_DROP_CODEL], ==, 3);
    g_assert_cmpuint(f.by_reason[QDISC_DROP_OVERLIMIT], ==, 0);
    while (qdisc_qlen(f.q) > 0) /* the rest, taken at once: a drop every few ms would follow */
        skb_free(f.pool, qdisc_dequeue(f.q, 281720 * 1000));
    put(&f, 1, 100, 1448, 300 * MS);
    put(&f, 1, 101, 1448, 300 * MS);
    put(&f, 1, 102, 1448, 300 * MS);
    uint64_t drops = f.dropped->len;
    g_assert_cmpuint(take(&f, 302 * MS), ==, 100);
    g_assert_cmpuint(take(&f, 302 * MS), ==, 101);
    g_assert_cmpuint(f.dropped->len, ==, drops);
    fix_done(&f);
}

/* Over the limit (4 skbs): A holds 3 x 1514, B 1 x 166; A's fourth makes 5, so the fattest
 * flow, A (6056 bytes), loses from its head until half of that (3028) is gone: two skbs. The
 * skb that overflowed was A's: NET_XMIT_CN. B's next skb overflows too and A loses one more
 * (its 3028 bytes' half, 1514); B's enqueue gets NET_XMIT_SUCCESS. */
static void test_fq_overflow(void)
{
    Fix f;
    fix_init(&f, NIC_QDISC_FQ_CODEL, 4);
    for (uint64_t i = 1; i <= 3; i++)
        g_assert_cmpint(put(&f, 1, 10 + i, 1448, 0), ==, NET_XMIT_SUCCESS);
    g_assert_cmpint(put(&f, 2, 21, 100, 0), ==, NET_XMIT_SUCCESS);
    g_assert_cmpint(put(&f, 1, 14, 1448, 0), ==, NET_XMIT_CN);
    g_assert_cmpuint(f.dropped->len, ==, 2);
    g_assert_cmpuint(g_array_index(f.dropped, uint64_t, 0), ==, 11);
    g_assert_cmpuint(g_array_index(f.dropped, uint64_t, 1), ==, 12);
    g_assert_cmpuint(qdisc_qlen(f.q), ==, 3);
    g_assert_cmpint(put(&f, 2, 22, 100, 0), ==, NET_XMIT_SUCCESS);
    g_assert_cmpint(put(&f, 2, 23, 100, 0), ==, NET_XMIT_SUCCESS);
    g_assert_cmpuint(f.dropped->len, ==, 3);
    g_assert_cmpuint(g_array_index(f.dropped, uint64_t, 2), ==, 13);
    g_assert_cmpuint(f.by_reason[QDISC_DROP_OVERLIMIT], ==, 3);
    g_assert_cmpuint(f.by_reason[QDISC_DROP_CODEL], ==, 0);
    fix_done(&f);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/qdisc/pfifo", test_pfifo);
    g_test_add_func("/qdisc/fq-round-robin", test_fq_round_robin);
    g_test_add_func("/qdisc/codel-drop-times", test_codel_drop_times);
    g_test_add_func("/qdisc/fq-overflow", test_fq_overflow);
    return g_test_run();
}
