/* test_dql.c - byte queue limits (models/dql.c): the limit a TX ring learns from completions,
 * checked against the rules of lib/dynamic_queue_limits.c worked by hand. */
#include <glib.h>

#include "models/dql.h"

#define MS ((sim_time_t)1000000)

/* The limit starts at 0: the first skb handed to an idle ring already stops the queue, and the
 * overshoot is that skb's size. */
static void test_first_skb_stops(void)
{
    Dql d;
    dql_init(&d, 1000 * MS, 0);
    g_assert_cmpint(dql_avail(&d), ==, 0);
    dql_queued(&d, 1514);
    g_assert_cmpint(dql_avail(&d), ==, -1514);
    g_assert_cmpuint(dql_inflight(&d), ==, 1514);
}

/* Starvation: over the limit (0) and now empty -> the limit grows by what was queued and
 * completed since the previous completion (prev_num_queued = 0: all 3000 bytes), plus the
 * previous overshoot (none yet). Then, over the limit again at a completion with everything
 * queued at the previous one done, it grows by the bytes beyond the previous batch's queue
 * mark plus the overshoot remembered then. */
static void test_starved_ring_grows(void)
{
    Dql d;
    dql_init(&d, 1000 * MS, 0);
    dql_queued(&d, 3000);
    dql_completed(&d, 3000, 1 * MS);
    g_assert_cmpuint(dql_limit(&d), ==, 3000);
    g_assert_cmpint(dql_avail(&d), ==, 3000);

    /* queue 4000 (over the 3000 limit by 1000), complete 1000: still busy, not starved */
    dql_queued(&d, 4000);
    dql_completed(&d, 1000, 2 * MS);
    g_assert_cmpuint(dql_limit(&d), ==, 3000); /* busy, and no hold time elapsed: unchanged */
    /* the rest completes: everything queued at the previous completion is done and the ring
     * was over its limit then (prev_ovlimit = 4000 - 3000 = 1000) -> grow by
     * (done - prev_num_queued = 0) + 1000 */
    dql_completed(&d, 3000, 3 * MS);
    g_assert_cmpuint(dql_limit(&d), ==, 4000);
}

/* A ring that stays busy with more limit than it needs gives the excess back, but only after
 * the hold time, and by the smallest excess seen meanwhile. Limit L, batches of b bytes with
 * the ring never empty and never over the limit: slack = L - 2b each time. */
static void test_busy_ring_shrinks_after_hold(void)
{
    Dql d;
    dql_init(&d, 1000 * MS, 0);
    dql_queued(&d, 100000);
    dql_completed(&d, 100000, 1 * MS); /* starved: limit 100000, hold starts at 1 ms */
    g_assert_cmpuint(dql_limit(&d), ==, 100000);
    sim_time_t t = 1 * MS;
    /* keep 60000 in flight, complete 10000 per batch: slack = 100000 - 20000 = 80000 */
    dql_queued(&d, 60000);
    for (int i = 0; i < 50; i++) {
        t += 10 * MS;
        dql_completed(&d, 10000, t);
        dql_queued(&d, 10000);
    }
    g_assert_cmpuint(dql_limit(&d), ==, 100000); /* 501 ms: within the hold time */
    /* one batch of 20000 lowers the smallest slack to 100000 - 40000 = 60000 */
    t += 10 * MS;
    dql_completed(&d, 20000, t);
    dql_queued(&d, 20000);
    while (t <= 1001 * MS) {
        t += 10 * MS;
        dql_completed(&d, 10000, t);
        dql_queued(&d, 10000);
    }
    /* the first completion after the hold time takes the smallest slack (60000) off */
    g_assert_cmpuint(dql_limit(&d), ==, 40000);
}

/* The counters are 32-bit and wrap, as the kernel's: a ring that has moved 4 GiB still
 * computes its limit. */
static void test_counters_wrap(void)
{
    Dql d;
    dql_init(&d, 1000 * MS, 0);
    for (int i = 0; i < 70000; i++) { /* 70000 x 65000 B = 4.55 GB > 2^32 */
        dql_queued(&d, 65000);
        dql_completed(&d, 65000, (sim_time_t)i * MS);
    }
    /* each completion empties the ring, which was over its limit the first time only */
    g_assert_cmpuint(dql_limit(&d), ==, 65000);
    g_assert_cmpuint(dql_inflight(&d), ==, 0);
    g_assert_cmpint(dql_avail(&d), ==, 65000);
}

/* The limit grows on starvation up to DQL_MAX_LIMIT, which include/linux/dynamic_queue_limits.h
 * sets to UINT_MAX / 2 - DQL_MAX_OBJECT (UINT_MAX / 16) = 2147483647 - 268435455 = 1879048192
 * bytes. A ring that is over its limit and then drained at once, again and again, grows its
 * limit by all it had queued each time (objects of 200 MB, below DQL_MAX_OBJECT). */
static void test_limit_clamped_at_max(void)
{
    Dql d;
    dql_init(&d, 1000 * MS, 0);
    uint32_t prev = 0;
    for (int round = 0; round < 12; round++) {
        while (dql_avail(&d) >= 0)
            dql_queued(&d, 200000000u);
        dql_completed(&d, dql_inflight(&d), (sim_time_t)(round + 1) * MS);
        g_assert_cmpuint(dql_limit(&d), >=, prev);
        prev = dql_limit(&d);
    }
    g_assert_cmpuint(dql_limit(&d), ==, 1879048192u);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/dql/first-skb-stops", test_first_skb_stops);
    g_test_add_func("/dql/starved-ring-grows", test_starved_ring_grows);
    g_test_add_func("/dql/busy-ring-shrinks-after-hold", test_busy_ring_shrinks_after_hold);
    g_test_add_func("/dql/counters-wrap", test_counters_wrap);
    g_test_add_func("/dql/limit-clamped-at-max", test_limit_clamped_at_max);
    return g_test_run();
}
