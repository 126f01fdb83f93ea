/* dql.h - byte queue limits (BQL, "dynamic queue limits", lib/dynamic_queue_limits.c, 3.3+):
 * how many bytes a NIC driver lets sit in its TX ring.
 *
 * Without BQL a TX ring holds whatever its descriptors can describe - megabytes of TSO skbs -
 * and the qdisc above it stays empty. BQL stops the queue (STACK_XOFF) once the bytes handed to
 * the ring and not yet completed exceed a limit, and learns that limit from the completions: it
 * grows when the ring ran dry while the stack still had data (starvation), and shrinks, at most
 * once per hold time, by the smallest excess seen while the ring stayed busy. The skbs beyond
 * the limit wait in the qdisc, where TSQ and a full qdisc's NET_XMIT_DROP see them.
 *
 * The struct is public so that a NIC can embed it; its fields are private to dql.c. Counters are
 * 32-bit and wrap, compared modulo 2^32 as the kernel's are.
 */
#ifndef SKSIM_DQL_H
#define SKSIM_DQL_H

#include <stdint.h>

#include "sim/simtime.h"

typedef struct Dql {
    uint32_t limit;             /* current limit in bytes (starts at 0) */
    uint32_t adj_limit;         /* limit + bytes completed: queued bytes may reach this */
    uint32_t num_queued;        /* bytes ever handed to the ring */
    uint32_t num_completed;     /* bytes ever completed */
    uint32_t last_obj_cnt;      /* bytes of the last skb queued */
    uint32_t prev_num_queued;   /* num_queued at the previous completion */
    uint32_t prev_last_obj_cnt; /* last_obj_cnt at the previous completion */
    uint32_t prev_ovlimit;      /* how far over the limit the ring was at the previous one */
    uint32_t lowest_slack;      /* smallest excess seen since slack_start */
    sim_time_t slack_start;     /* when the current slack measurement began */
    sim_time_t hold;            /* slack hold time: HZ (1 s) in netdev_queue_init */
} Dql;

/* The largest object and limit (include/linux/dynamic_queue_limits.h: DQL_MAX_OBJECT is
 * UINT_MAX / 16, DQL_MAX_LIMIT is UINT_MAX / 2 - DQL_MAX_OBJECT). */
#define DQL_MAX_OBJECT (UINT32_MAX / 16u)
#define DQL_MAX_LIMIT ((UINT32_MAX / 2u) - DQL_MAX_OBJECT)

/* dql_init: limit 0, nothing queued; slack measured over hold from now. */
void dql_init(Dql *d, sim_time_t hold, sim_time_t now);
/* dql_queued: bytes handed to the ring (netdev_tx_sent_queue). */
void dql_queued(Dql *d, uint32_t bytes);
/* dql_avail: bytes that may still be queued; negative = the queue is to be stopped. */
int64_t dql_avail(const Dql *d);
/* dql_completed: bytes the driver reports done in one completion batch
 * (netdev_tx_completed_queue); recomputes the limit. */
void dql_completed(Dql *d, uint32_t bytes, sim_time_t now);
/* Bytes queued and not yet completed. */
uint32_t dql_inflight(const Dql *d);
uint32_t dql_limit(const Dql *d);

#endif
