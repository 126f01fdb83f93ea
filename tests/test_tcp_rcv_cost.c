/* test_tcp_rcv_cost.c - what tcp_rcv_established charges per received skb (sim/costs.h
 * tcp_rcv_ack, tcp_rcv_data, tcp_rcv_data_seg). The receive path's per-skb work does not grow
 * with the skb: a 15-segment GRO skb and a one-segment frame pay the same fixed part, and each
 * segment adds only its page fragment's handling. That is what makes GRO (and backlog
 * coalescing) pay off; a flat per-skb cost would make a 1448-byte frame as dear as a 61 KB
 * aggregate, and a per-byte one would make GRO worthless. */
#include "tcp_harness.h"

static void test_cost_per_skb_and_segment(void)
{
    TcpBench *tb = th_new();
    th_connect(tb, 1500);
    const CostTable *c = &tb->conf[1].costs;
    sim_time_t base = c->ns[COST_TCP_RCV_DATA], seg = c->ns[COST_TCP_RCV_DATA_SEG];
    g_assert_cmpint(base, >, 0);
    g_assert_cmpint(seg, >, 0);

    /* a frame as the driver built it (gso_segs 1), and as a lone frame GRO left alone (0) */
    Skb one = { .len = 1448, .gso_segs = 1 }, lone = { .len = 1448, .gso_segs = 0 };
    g_assert_cmpint(tcp_rcv_cost(tb->b, &one), ==, base + seg);
    g_assert_cmpint(tcp_rcv_cost(tb->b, &lone), ==, base + seg);

    Skb gro = { .len = 15 * 1448, .gso_segs = 15 };
    g_assert_cmpint(tcp_rcv_cost(tb->b, &gro), ==, base + 15 * seg);
    /* merging 15 frames into one skb saves 14 fixed parts, nothing per segment */
    g_assert_cmpint(15 * tcp_rcv_cost(tb->b, &one) - tcp_rcv_cost(tb->b, &gro), ==, 14 * base);
    /* the defaults keep the 15-segment GRO skb at the 1.5 us calibration point of notes D.5 */
    g_assert_cmpint(tcp_rcv_cost(tb->b, &gro), ==, 1500);

    Skb ack = { .len = 0, .gso_segs = 1 };
    g_assert_cmpint(tcp_rcv_cost(tb->b, &ack), ==, c->ns[COST_TCP_RCV_ACK]);
    th_free(tb);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/tcp/rcv-cost/per-skb-and-segment", test_cost_per_skb_and_segment);
    return g_test_run();
}
