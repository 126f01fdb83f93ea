/* test_skb.c - the skb pool (reuse, growth in blocks, no growth once warm), skb_clone, skb
 * queues, the wire framing helpers and the truesize model's numbers. */
#include <glib.h>
#include <string.h>

#include "models/skb.h"
#include "models/truesize.h"
#include "models/wire.h"

/* The pool grows by blocks of 256 skbs: 256 allocations fit in one block, the 257th adds a
 * second; after freeing everything, 512 allocations reuse both blocks without growing. */
static void test_pool_growth(void)
{
    SkbPool *p = skb_pool_new();
    g_assert_cmpuint(skb_pool_capacity(p), ==, 0);
    Skb *s[512];
    for (int i = 0; i < 256; i++)
        s[i] = skb_alloc(p);
    g_assert_cmpuint(skb_pool_capacity(p), ==, 256);
    s[256] = skb_alloc(p);
    g_assert_cmpuint(skb_pool_capacity(p), ==, 512);
    g_assert_cmpuint(skb_pool_in_use(p), ==, 257);
    for (int i = 0; i < 257; i++)
        skb_free(p, s[i]);
    g_assert_cmpuint(skb_pool_in_use(p), ==, 0);
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < 512; i++)
            s[i] = skb_alloc(p);
        g_assert_cmpuint(skb_pool_in_use(p), ==, 512);
        for (int i = 0; i < 512; i++)
            skb_free(p, s[i]);
    }
    g_assert_cmpuint(skb_pool_capacity(p), ==, 512);
    g_assert_cmpuint(skb_pool_in_use(p), ==, 0);
    skb_pool_free(p);
}

/* A freed skb is the next one handed out (LIFO free list), zeroed. */
static void test_reuse_zeroed(void)
{
    SkbPool *p = skb_pool_new();
    Skb *a = skb_alloc(p);
    a->seq = 42;
    a->len = 1448;
    a->flags = TCPHDR_PSH;
    skb_free(p, a);
    Skb *b = skb_alloc(p);
    g_assert_true(b == a);
    g_assert_cmpuint(b->seq, ==, 0);
    g_assert_cmpuint(b->len, ==, 0);
    g_assert_cmpuint(b->flags, ==, 0);
    skb_free(p, b);
    skb_pool_free(p);
}

static void test_clone(void)
{
    SkbPool *p = skb_pool_new();
    Skb *a = skb_alloc(p), *b = skb_alloc(p);
    a->next = b;
    a->prev = b;
    a->sk = (struct Sock *)b; /* any non-NULL pointer */
    a->seq = 7;
    a->end_seq = 1455;
    a->len = 1448;
    a->nsacks = 2;
    a->sack[1].end = 99;
    a->truesize = 2624;
    Skb *c = skb_clone(p, a);
    g_assert_true(c != a);
    g_assert_null(c->next);
    g_assert_null(c->prev);
    g_assert_null(c->sk);
    g_assert_cmpuint(c->seq, ==, 7);
    g_assert_cmpuint(c->end_seq, ==, 1455);
    g_assert_cmpuint(c->len, ==, 1448);
    g_assert_cmpuint(c->nsacks, ==, 2);
    g_assert_cmpuint(c->sack[1].end, ==, 99);
    g_assert_cmpuint(c->truesize, ==, 2624);
    g_assert_cmpuint(skb_pool_in_use(p), ==, 3);
    skb_free(p, a);
    skb_free(p, b);
    skb_free(p, c);
    skb_pool_free(p);
}

/* A clone is taken from the free list without being cleared first: it must still be an exact
 * copy of its source (but the links and owner), also when the skb it reuses was freed full of
 * other values - every field, including the ones the source leaves zero. */
static void test_clone_into_dirty(void)
{
    SkbPool *p = skb_pool_new();
    Skb *src = skb_alloc(p);
    src->seq = 1000;
    src->end_seq = 2448;
    src->len = 1448;
    src->gso_segs = 1;
    src->sack[0].start = 5;
    Skb *dirty = skb_alloc(p);
    memset(dirty, 0xA5, sizeof *dirty); /* every byte, every field non-zero */
    skb_free(p, dirty);
    Skb *c = skb_clone(p, src);
    g_assert_true(c == dirty); /* LIFO: the dirty one is reused */
    g_assert_null(c->next);
    g_assert_null(c->prev);
    g_assert_null(c->sk);
    g_assert_cmpuint(c->conn, ==, 0);
    g_assert_cmpuint(c->src_host, ==, 0);
    g_assert_cmpuint(c->sport, ==, 0);
    g_assert_cmpuint(c->seq, ==, 1000);
    g_assert_cmpuint(c->end_seq, ==, 2448);
    g_assert_cmpuint(c->ack_seq, ==, 0);
    g_assert_cmpuint(c->win, ==, 0);
    g_assert_cmpuint(c->flags, ==, 0);
    g_assert_cmpuint(c->nsacks, ==, 0);
    g_assert_false(c->dsack);
    g_assert_false(c->no_ts);
    g_assert_cmpuint(c->sack[0].start, ==, 5);
    g_assert_cmpuint(c->sack[SKB_MAX_SACKS - 1].end, ==, 0);
    g_assert_cmpuint(c->tsval, ==, 0);
    g_assert_cmpuint(c->len, ==, 1448);
    g_assert_cmpuint(c->gso_segs, ==, 1);
    g_assert_cmpuint(c->gso_size, ==, 0);
    g_assert_cmpuint(c->truesize, ==, 0);
    g_assert_cmpint(c->tx_time, ==, 0);
    g_assert_cmpint(c->first_tx_time, ==, 0);
    g_assert_cmpint(c->ready_ns, ==, 0);
    g_assert_cmpuint(c->sacked, ==, 0);
    g_assert_false(c->ever_retrans);
    g_assert_cmpuint(c->pcount_delivered, ==, 0);
    g_assert_cmpuint(skb_pool_in_use(p), ==, 2);
    skb_free(p, c);
    skb_free(p, src);
    g_assert_cmpuint(skb_pool_in_use(p), ==, 0);
    skb_pool_free(p);
}

/* FIFO order, qlen and the byte sum (lens 100, 200, 300 -> 600, then 500 after one dequeue). */
static void test_queue(void)
{
    SkbPool *p = skb_pool_new();
    SkbQueue q;
    skb_queue_init(&q);
    g_assert_true(skb_queue_empty(&q));
    g_assert_null(skb_dequeue(&q));
    for (uint32_t i = 1; i <= 3; i++) {
        Skb *s = skb_alloc(p);
        s->len = 100 * i;
        s->seq = i;
        skb_queue_tail(&q, s);
    }
    g_assert_cmpuint(q.qlen, ==, 3);
    g_assert_cmpuint(q.bytes, ==, 600);
    g_assert_true(q.head->next->prev == q.head);
    g_assert_true(q.tail->prev->next == q.tail);
    Skb *s = skb_dequeue(&q);
    g_assert_cmpuint(s->seq, ==, 1);
    g_assert_null(s->next);
    g_assert_null(q.head->prev);
    g_assert_cmpuint(q.qlen, ==, 2);
    g_assert_cmpuint(q.bytes, ==, 500);
    skb_free(p, s);
    skb_queue_purge(&q, p);
    g_assert_true(skb_queue_empty(&q));
    g_assert_null(q.tail);
    g_assert_cmpuint(q.qlen, ==, 0);
    g_assert_cmpuint(q.bytes, ==, 0);
    g_assert_cmpuint(skb_pool_in_use(p), ==, 0);
    skb_pool_free(p);
}

/* Framing: 65160 bytes at MSS 1448 = 45 frames of 1538 wire bytes; 3000 bytes = 1448 + 1448 +
 * 104; a pure ACK is one 90-byte frame; an skb without gso_size is one frame. */
static void test_wire(void)
{
    Skb s = { .len = 65160, .gso_size = 1448 };
    g_assert_cmpuint(wire_frames(&s), ==, 45);
    g_assert_cmpuint(wire_last_payload(&s), ==, 1448);
    g_assert_cmpuint(wire_skb_bytes(&s), ==, 45 * 1538);
    g_assert_cmpuint(wire_ip_len(&s), ==, 65212);
    s.len = 3000;
    g_assert_cmpuint(wire_frames(&s), ==, 3);
    g_assert_cmpuint(wire_last_payload(&s), ==, 104);
    g_assert_cmpuint(wire_skb_bytes(&s), ==, 3000 + 3 * 90);
    Skb ack = { .len = 0 };
    g_assert_cmpuint(wire_frames(&ack), ==, 1);
    g_assert_cmpuint(wire_skb_bytes(&ack), ==, 90);
    g_assert_cmpuint(wire_tcp_hdr_len(&ack), ==, 32);
    ack.nsacks = 4; /* only 3 fit with timestamps: 32 + 4 + 24 = 60 */
    g_assert_cmpuint(wire_tcp_hdr_len(&ack), ==, 60);
    /* without timestamps: a 20-byte header, room for 4 SACK blocks (20 + 4 + 32 = 56), frames
     * 12 bytes shorter (78 beyond the payload: a 1460-byte MSS is again 1538 on the wire) */
    ack.no_ts = true;
    g_assert_cmpuint(wire_tcp_hdr_len(&ack), ==, 56);
    ack.nsacks = 0;
    g_assert_cmpuint(wire_tcp_hdr_len(&ack), ==, 20);
    g_assert_cmpuint(wire_skb_bytes(&ack), ==, 78);
    Skb no_ts = { .len = 2920, .gso_size = 1460, .no_ts = true };
    g_assert_cmpuint(wire_skb_bytes(&no_ts), ==, 2 * 1538);
    g_assert_cmpuint(wire_ip_len(&no_ts), ==, 40 + 2920);
    Skb one = { .len = 9000 };
    g_assert_cmpuint(wire_frames(&one), ==, 1);
    g_assert_cmpuint(wire_last_payload(&one), ==, 9000);
}

/* The truesize model's defaults, each from its arithmetic in truesize.c. */
static void test_truesize(void)
{
    g_assert_cmpuint(skb_truesize(2048), ==, 2624);
    g_assert_cmpuint(truesize_rx_buf(1500), ==, 2048);
    g_assert_cmpuint(truesize_rx_buf(4148), ==, 4096);
    g_assert_cmpuint(truesize_rx_buf(9000), ==, 12288);
    g_assert_cmpuint(truesize_rx_frame(1500), ==, 2624);
    g_assert_cmpuint(truesize_rx_frame(4148), ==, 4672);
    g_assert_cmpuint(truesize_gro_skb(1500, 1), ==, 2624);
    g_assert_cmpuint(truesize_gro_skb(1500, 17), ==, 2624 + 16 * 2048);
    g_assert_cmpuint(truesize_gro_skb(1500, 18), ==, 2624 + 16 * 2048 + 2624);
    g_assert_cmpuint(truesize_gro_skb(1500, 45), ==, 108864);
    g_assert_cmpuint(truesize_gro_skb(4148, 15), ==, 62016);
    /* the closed form equals the per-frame sum GRO uses */
    uint32_t sum = truesize_rx_frame(1500);
    for (uint32_t n = 1; n < 45; n++)
        sum += truesize_gro_add(1500, n);
    g_assert_cmpuint(sum, ==, truesize_gro_skb(1500, 45));
    g_assert_cmpuint(truesize_condensed_ack(), ==, 1088);
    g_assert_cmpuint(truesize_tx_ack(), ==, 1280);
    g_assert_cmpuint(truesize_tx_skb(65160), ==, 66440);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/skb/pool-growth", test_pool_growth);
    g_test_add_func("/skb/reuse-zeroed", test_reuse_zeroed);
    g_test_add_func("/skb/clone", test_clone);
    g_test_add_func("/skb/clone-into-dirty", test_clone_into_dirty);
    g_test_add_func("/skb/queue", test_queue);
    g_test_add_func("/skb/wire", test_wire);
    g_test_add_func("/skb/truesize", test_truesize);
    return g_test_run();
}
