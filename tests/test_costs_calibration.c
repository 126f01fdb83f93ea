/* test_costs_calibration.c - the receive user-thread rows of sim/costs.h still fit the measurement
 * they were calibrated against (commit 133c4c0d3717, "tcp: defer regular ACK while processing
 * socket backlog", 6.7; scenarios/ack-defer.yaml and the calibration note in sim/costs.h).
 *
 * The measurement: one TCP_STREAM flow, GRO skbs of 15 x 4096 = 61440 B, the receiving thread
 * saturated, 100 Gbit/s with 240,000 ACK/s before and 120 Gbit/s with 40,000 ACK/s after. A
 * saturated thread spends 1 s per second, so the goodput the cost table predicts is
 *     (1 s - ACKs/s * a) / c
 * with a = tcp_send_ack + dev_xmit per ACK and c the per-byte cost: copy_per_kb per KiB, plus
 * tcp_rcv_data + backlog_extra per 61440-B skb processed from the backlog, plus one syscall and
 * one lock_sock pair per 128 KiB read (netserver's recv size, models/app.c). The test fails when
 * one of these defaults moves so far that either published goodput is missed by more than 10 %,
 * or when the derived per-ACK or per-byte cost leaves the band the two equations give. It checks
 * the arithmetic of the table, not a simulation: scenarios/ack-defer.yaml is the end-to-end view.
 */
#include <glib.h>

#include "sim/costs.h"

#define GRO_SKB_BYTES 61440.0 /* 15 x 4096: "MAX_SKB_FRAGS = 17 (~60KB per GRO packet)" */
#define READ_BYTES 131072.0   /* netserver recv size = initial SO_RCVBUF (tcp_rmem[1]) */

/* Per-byte cost of the receiving thread, in seconds per byte. */
static double user_cost_per_byte(void)
{
    double copy = (double)cost_default(COST_COPY_PER_KB) / 1024.0;
    double per_skb = (double)(cost_default(COST_TCP_RCV_DATA) + cost_default(COST_BACKLOG_EXTRA));
    double per_read = (double)(cost_default(COST_SYSCALL) + cost_default(COST_LOCK_SOCK));
    return (copy + per_skb / GRO_SKB_BYTES + per_read / READ_BYTES) * 1e-9;
}

/* Cost of one ACK sent by the receiving thread, in seconds. */
static double user_cost_per_ack(void)
{
    return (double)(cost_default(COST_TCP_SEND_ACK) + cost_default(COST_DEV_XMIT)) * 1e-9;
}

/* Goodput in bit/s of a saturated thread that also sends acks_per_s ACKs. */
static double predicted_goodput(double acks_per_s)
{
    return (1.0 - acks_per_s * user_cost_per_ack()) / user_cost_per_byte() * 8.0;
}

static void test_two_equation_fit(void)
{
    /* Solve the published pair for (c, a) and check the table against it. */
    double b1 = 100e9 / 8, k1 = 240e3, b2 = 120e9 / 8, k2 = 40e3;
    double a = (b2 / b1 - 1.0) / (k1 * b2 / b1 - k2);
    double c = (1.0 - k2 * a) / b2;
    g_assert_cmpfloat_with_epsilon(a, 0.806e-6, 0.01e-6);
    g_assert_cmpfloat_with_epsilon(c * 1024 * 1e9, 66.1, 0.2);
    g_assert_cmpfloat(user_cost_per_ack(), >=, 0.9 * a);
    g_assert_cmpfloat(user_cost_per_ack(), <=, 1.1 * a);
    g_assert_cmpfloat(user_cost_per_byte(), >=, 0.9 * c);
    g_assert_cmpfloat(user_cost_per_byte(), <=, 1.1 * c);
}

static void test_published_goodput(void)
{
    double before = predicted_goodput(240e3), after = predicted_goodput(40e3);
    g_assert_cmpfloat(before, >=, 0.9 * 100e9);
    g_assert_cmpfloat(before, <=, 1.1 * 100e9);
    g_assert_cmpfloat(after, >=, 0.9 * 120e9);
    g_assert_cmpfloat(after, <=, 1.1 * 120e9);
    g_assert_cmpfloat(after / before, >=, 1.10);
    g_assert_cmpfloat(after / before, <=, 1.30);
}

/* The copy is the larger part of the per-byte cost ("data copy to user is the dominant receiver
 * cost", Cai et al., SIGCOMM 2021, notes D.5) and runs at a plausible rate for one core copying
 * data that DDIO left in the LLC: 15-30 GB/s. */
static void test_copy_share(void)
{
    double copy = (double)cost_default(COST_COPY_PER_KB) / 1024.0 * 1e-9;
    g_assert_cmpfloat(copy, >=, 0.5 * user_cost_per_byte());
    g_assert_cmpfloat(1.0 / copy, >=, 15e9);
    g_assert_cmpfloat(1.0 / copy, <=, 30e9);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/costs/calibration/two-equation-fit", test_two_equation_fit);
    g_test_add_func("/costs/calibration/published-goodput", test_published_goodput);
    g_test_add_func("/costs/calibration/copy-share", test_copy_share);
    return g_test_run();
}
