/* dql.c - byte queue limits: the limit a NIC's TX ring learns from its completions.
 *
 * Behaviour of lib/dynamic_queue_limits.c (Tom Herbert, "bql: Byte queue limits", 3.3), as
 * drivers use it through netdev_tx_sent_queue / netdev_tx_completed_queue:
 * - The limit starts at 0, so the first skb handed to an idle ring stops the queue; every skb
 *   may overshoot the limit by its own size (the check follows the queueing).
 * - At each completion batch the ring is "starved" if it was over its limit and is now empty,
 *   or was over its limit at the previous batch and everything queued then is now done (it may
 *   have run dry in between). Then the limit grows by what was queued and completed since the
 *   previous batch plus the previous overshoot, and the slack measurement restarts.
 * - If instead the ring stayed busy through the interval, the excess it did not need - the
 *   limit (plus overshoot) beyond twice what this batch completed, or the part of the last skb
 *   that was not overshoot - is noted; once per hold time (HZ, 1 s) the limit drops by the
 *   smallest excess noted since the last change.
 * The model keeps the kernel's 32-bit wrapping counters and its comparisons modulo 2^32; time is
 * the simulation's ns clock where the kernel compares jiffies (the hold ends at most a jiffy
 * earlier here).
 */
#include "models/dql.h"

#include <glib.h>
#include <stdbool.h>
#include <string.h>

/* a - b if a comes after b (modulo 2^32), else 0 */
static uint32_t dql_excess(uint32_t a, uint32_t b)
{
    int32_t d = (int32_t)(a - b);
    return d > 0 ? (uint32_t)d : 0u;
}

/* a has reached b (modulo 2^32) */
static bool dql_reached(uint32_t a, uint32_t b)
{
    return (int32_t)(a - b) >= 0;
}

void dql_init(Dql *d, sim_time_t hold, sim_time_t now)
{
    memset(d, 0, sizeof *d);
    d->hold = hold;
    d->lowest_slack = UINT32_MAX;
    d->slack_start = now;
}

void dql_queued(Dql *d, uint32_t bytes)
{
    d->last_obj_cnt = bytes;
    d->num_queued += bytes;
}

int64_t dql_avail(const Dql *d)
{
    return (int32_t)(d->adj_limit - d->num_queued);
}

uint32_t dql_inflight(const Dql *d)
{
    return d->num_queued - d->num_completed;
}

uint32_t dql_limit(const Dql *d)
{
    return d->limit;
}

/* The ring stayed busy: note the excess, and give it back once per hold time. */
static uint32_t dql_shrink(Dql *d, uint32_t limit, uint32_t batch, sim_time_t now)
{
    uint32_t slack = dql_excess(limit + d->prev_ovlimit, 2u * batch);
    uint32_t last = d->prev_ovlimit ? dql_excess(d->prev_last_obj_cnt, d->prev_ovlimit) : 0u;
    if (last > slack)
        slack = last;
    if (slack < d->lowest_slack)
        d->lowest_slack = slack;
    if (now > d->slack_start + d->hold) {
        limit = dql_excess(limit, d->lowest_slack);
        d->slack_start = now;
        d->lowest_slack = UINT32_MAX;
    }
    return limit;
}

void dql_completed(Dql *d, uint32_t bytes, sim_time_t now)
{
    g_assert(bytes <= dql_inflight(d));
    uint32_t done = d->num_completed + bytes;
    uint32_t limit = d->limit;
    uint32_t over = dql_excess(dql_inflight(d), limit);
    bool busy_now = d->num_queued != done;
    bool busy_before = d->prev_num_queued != d->num_completed;
    bool all_prev_done = dql_reached(done, d->prev_num_queued);

    if ((over && !busy_now) || (d->prev_ovlimit && all_prev_done)) {
        limit += dql_excess(done, d->prev_num_queued) + d->prev_ovlimit; /* starved: grow */
        d->slack_start = now;
        d->lowest_slack = UINT32_MAX;
    } else if (busy_now && busy_before && !all_prev_done) {
        limit = dql_shrink(d, limit, bytes, now);
    }
    if (limit > DQL_MAX_LIMIT)
        limit = DQL_MAX_LIMIT;
    if (limit != d->limit) {
        d->limit = limit;
        over = 0;
    }
    d->adj_limit = limit + done;
    d->prev_ovlimit = over;
    d->prev_last_obj_cnt = d->last_obj_cnt;
    d->num_completed = done;
    d->prev_num_queued = d->num_queued;
}
