/* test_nic_itr.c - ixgbe's dynamic interrupt throttle rate (models/nic_itr.c), against the
 * rules of ixgbe_update_itr / ixgbe_set_itr / ixgbe_write_eitr worked by hand: itr in quarter
 * microseconds, classes by bytes per microsecond of the current interval (> 10 leaves lowest,
 * > 20 leaves low for bulk, <= 10 / <= 20 come back), target 40 / 200 / 500, smoothing
 * itr = 10 * target * itr / (9 * target + itr), the register taking itr & 0xFF8. */
#include <glib.h>

#include "models/nic_itr.h"

/* One completed poll in which the RX ring moved `bytes` (one frame is enough to count). */
static void poll_rx(NicItr *it, uint64_t bytes)
{
    nic_itr_rx(it, bytes);
    nic_itr_update(it);
}

/* Bulk traffic from the 50 us start: the first update only moves RX from lowest to low, whose
 * target (200) is where itr already is; the second moves it to bulk and itr starts toward 500:
 * 10 * 500 * 200 / 4700 = 212, then 10 * 500 * 212 / 4712 = 224, 237, 250. The register drops
 * the low 3 bits: 212 -> 208 quarter microseconds, 52 us. It settles at 490 (5000 * 490 / 4990 =
 * 490.98), 488 in the register: 122 us. */
static void test_bulk_converges(void)
{
    NicItr it;
    nic_itr_init(&it);
    g_assert_cmpint(nic_itr_interval(&it), ==, 50000);
    static const uint32_t expect[] = {200, 212, 224, 237, 250};
    for (guint i = 0; i < G_N_ELEMENTS(expect); i++) {
        poll_rx(&it, 100000);
        g_assert_cmpuint(it.itr, ==, expect[i]);
    }
    poll_rx(&it, 100000);
    g_assert_cmpuint(it.itr, ==, 263);
    g_assert_cmpint(nic_itr_interval(&it), ==, 256 * 250);
    for (int i = 0; i < 100; i++)
        poll_rx(&it, 100000);
    g_assert_cmpuint(it.itr, ==, 490);
    g_assert_cmpint(nic_itr_interval(&it), ==, 122000);
}

/* The class thresholds, at itr 200 (50 us): 549 bytes are 10 per microsecond (integer division)
 * and leave lowest alone, 550 are 11; in low, 1049 (20) stay and 1050 (21) go bulk; in bulk,
 * 1049 (20) come back to low and 549 (10) from low to lowest. A poll that moved nothing keeps
 * the class. Each step is visible in the target itr moves toward. */
static void test_thresholds(void)
{
    NicItr it;
    nic_itr_init(&it);
    poll_rx(&it, 549);
    g_assert_cmpuint(it.rx.latency, ==, 0);
    g_assert_cmpuint(it.itr, ==, 10 * 40 * 200 / (360 + 200)); /* 142: toward 40 */
    nic_itr_init(&it);
    poll_rx(&it, 550);
    g_assert_cmpuint(it.rx.latency, ==, 1);
    g_assert_cmpuint(it.itr, ==, 200);
    poll_rx(&it, 1049);
    g_assert_cmpuint(it.rx.latency, ==, 1);
    g_assert_cmpuint(it.itr, ==, 200);
    poll_rx(&it, 1050);
    g_assert_cmpuint(it.rx.latency, ==, 2);
    g_assert_cmpuint(it.itr, ==, 212);
    nic_itr_update(&it); /* nothing moved: still bulk, another step toward 500 */
    g_assert_cmpuint(it.rx.latency, ==, 2);
    g_assert_cmpuint(it.itr, ==, 224);
    /* at 224 (56 us): 1176 bytes = 21 per us stay bulk, 1175 = 20 go low */
    poll_rx(&it, 1176);
    g_assert_cmpuint(it.rx.latency, ==, 2);
    g_assert_cmpuint(it.itr, ==, 237);
    /* at 237 (59 us): 1180 = 20 per us */
    poll_rx(&it, 1180);
    g_assert_cmpuint(it.rx.latency, ==, 1);
    g_assert_cmpuint(it.itr, ==, 10 * 200 * 237 / (1800 + 237)); /* 232: toward 200 */
}

/* The slower class of the two rings sets the target: a quiet RX ring (lowest) and a TX ring
 * moving bulk traffic give bulk; when the TX ring falls silent it keeps its class, so the
 * vector stays throttled as for bulk. */
static void test_tx_ring_sets_class(void)
{
    NicItr it;
    nic_itr_init(&it);
    for (int i = 0; i < 2; i++) {
        nic_itr_tx(&it, 100000);
        nic_itr_rx(&it, 52);
        nic_itr_update(&it);
    }
    g_assert_cmpuint(it.rx.latency, ==, 0);
    g_assert_cmpuint(it.tx.latency, ==, 2);
    g_assert_cmpuint(it.itr, ==, 212);
    poll_rx(&it, 52);
    g_assert_cmpuint(it.tx.latency, ==, 2);
    g_assert_cmpuint(it.itr, ==, 224);
}

/* Back down from bulk: at 490 (122 us) a poll of 20 bytes per microsecond (2440) moves the
 * class to low: 10 * 200 * 490 / 2290 = 427; at 427 (106 us) 10 per microsecond (1060 bytes)
 * move it to lowest: 10 * 40 * 427 / 787 = 217, then 150, 117, ... until 40 (10 us). */
static void test_back_to_lowest(void)
{
    NicItr it;
    nic_itr_init(&it);
    for (int i = 0; i < 60; i++)
        poll_rx(&it, 100000);
    g_assert_cmpuint(it.itr, ==, 490);
    poll_rx(&it, 2440);
    g_assert_cmpuint(it.rx.latency, ==, 1);
    g_assert_cmpuint(it.itr, ==, 427);
    poll_rx(&it, 1060);
    g_assert_cmpuint(it.rx.latency, ==, 0);
    g_assert_cmpuint(it.itr, ==, 217);
    poll_rx(&it, 52);
    g_assert_cmpuint(it.itr, ==, 150);
    poll_rx(&it, 52);
    g_assert_cmpuint(it.itr, ==, 117);
    for (int i = 0; i < 30; i++)
        poll_rx(&it, 52);
    g_assert_cmpuint(it.itr, ==, 40);
    g_assert_cmpint(nic_itr_interval(&it), ==, 10000);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/nic_itr/bulk-converges", test_bulk_converges);
    g_test_add_func("/nic_itr/thresholds", test_thresholds);
    g_test_add_func("/nic_itr/tx-ring-sets-class", test_tx_ring_sets_class);
    g_test_add_func("/nic_itr/back-to-lowest", test_back_to_lowest);
    return g_test_run();
}
