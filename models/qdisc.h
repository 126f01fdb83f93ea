/* qdisc.h - a NIC's root queueing discipline: pfifo, or fq_codel.
 *
 * The NIC (nic.c) hands every skb to qdisc_enqueue and takes the next one with qdisc_dequeue
 * whenever its TX ring has room. pfifo is a FIFO of conf->qdisc_limit skbs that refuses an skb
 * when full (txqueuelen, pfifo_fast). fq_codel (sch_fq_codel, the default root qdisc of most
 * distributions since 2014) keeps one FIFO per flow, serves them by deficit round robin, new
 * flows first, and runs CoDel on each; models/qdisc.c says what it takes from each. Skbs that
 * the qdisc drops after taking them go to the drop callback, which frees and counts them.
 */
#ifndef SKSIM_QDISC_H
#define SKSIM_QDISC_H

#include <stdint.h>

#include "models/skb.h"
#include "sim/config.h"
#include "sim/simtime.h"

typedef struct Qdisc Qdisc;

/* Why the qdisc dropped an skb it had queued. */
typedef enum QdiscDropReason {
    QDISC_DROP_CODEL,    /* CoDel at dequeue: the flow's sojourn stayed above target */
    QDISC_DROP_OVERLIMIT /* over qdisc_limit or qdisc_memory_limit: the fattest flow's head */
} QdiscDropReason;

/* Called for each skb the qdisc drops after it had queued it (fq_codel). The callee frees it. */
typedef void (*QdiscDropFn)(void *ctx, Skb *skb, QdiscDropReason why);

Qdisc *qdisc_new(const NicConf *conf, QdiscDropFn drop, void *ctx);
/* Frees the qdisc and the skbs still in it. */
void qdisc_free(Qdisc *q, SkbPool *pool);

/* Queue skb, whose time of arrival is skb->ready_ns. NET_XMIT_SUCCESS (0) when it is queued;
 * NET_XMIT_DROP (1) when pfifo refused it (the caller still owns it); NET_XMIT_CN (2) when
 * fq_codel queued it but had to drop from its own flow to stay within its limits. */
int qdisc_enqueue(Qdisc *q, Skb *skb);
/* The next skb to transmit at time now, or NULL when none is left. */
Skb *qdisc_dequeue(Qdisc *q, sim_time_t now);
/* Skbs queued. */
uint32_t qdisc_qlen(const Qdisc *q);

/* fq_codel's statistics (tc -s qdisc) other than its drops, which the drop callback counts. */
typedef struct QdiscStats {
    uint64_t new_flow_count; /* flows that joined new_flows */
} QdiscStats;
QdiscStats qdisc_stats(const Qdisc *q);

#endif
