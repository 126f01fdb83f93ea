/* softirq.h - the per-CPU softirq engine (__do_softirq, net_rx_action) and ksoftirqd/N.
 *
 * Internal to the CPU module: models/cpu.c embeds one engine per CPU and drives it one unit at a
 * time, in the CPU's softirq context (inline, after a hard interrupt or local_bh_enable) or in
 * its ksoftirqd task. Models never call this header: they use cpu_raise_softirq() (cpu.h).
 */
#ifndef SKSIM_SOFTIRQ_H
#define SKSIM_SOFTIRQ_H

#include <stdbool.h>
#include <stdint.h>

#include "models/cpu.h"

typedef struct SoftirqList {
    SoftirqWork *head, *tail;
} SoftirqList;

typedef enum {
    SOFTIRQ_MORE, /* a unit ran (its cost is charged): call softirq_run_next again afterwards */
    SOFTIRQ_DONE, /* this __do_softirq is over (a final charge, e.g. waking ksoftirqd, may be due) */
} SoftirqStep;

typedef struct SoftirqEngine {
    /* read-only outside softirq.c */
    Cpu *cpu;
    Host *host;
    Task *ksoftirqd;
    uint64_t runs_inline;       /* __do_softirq runs in softirq context */
    uint64_t runs_ksoftirqd;    /* __do_softirq runs inside ksoftirqd */
    uint64_t ksoftirqd_wakeups; /* wakeup_softirqd() that found ksoftirqd sleeping */
    uint64_t time_squeeze;      /* softnet_stat time_squeeze: net_rx_action out of budget/time */
    /* private */
    SoftirqList pending[SOFTIRQ_NR]; /* raised work per kind (local_softirq_pending + poll_list) */
    bool active;                /* a __do_softirq is running */
    bool in_ksoftirqd;
    uint64_t end_jiffies;       /* jiffies + MAX_SOFTIRQ_TIME */
    uint32_t restarts_left;     /* MAX_SOFTIRQ_RESTART countdown */
    uint32_t round_mask;        /* kinds pending when this round started */
    uint32_t order_idx;         /* position in the handler order of this round */
    bool handler_started;
    SoftirqList local;          /* the running handler's private list */
    bool rx_done;               /* net_rx_action has stopped */
    int64_t rx_budget;          /* netdev_budget left */
    uint64_t rx_time_limit;     /* jiffies + usecs_to_jiffies(netdev_budget_usecs) */
    SoftirqList repoll;         /* NAPIs that used their whole weight */
} SoftirqEngine;

void softirq_engine_init(SoftirqEngine *e, Cpu *cpu, Task *ksoftirqd);
/* Queue w as pending (raise). Returns false if it was already queued (NAPI_STATE_SCHED). */
bool softirq_enqueue(SoftirqEngine *e, SoftirqWork *w);
bool softirq_has_work(const SoftirqEngine *e);
static inline bool softirq_active(const SoftirqEngine *e)
{
    return e->active;
}
/* __do_softirq entry (charges COST_SOFTIRQ_ENTRY to the running context). */
void softirq_begin(SoftirqEngine *e, bool in_ksoftirqd);
/* Run the next unit of the current __do_softirq, or end it. */
SoftirqStep softirq_run_next(SoftirqEngine *e);
/* The step function of ksoftirqd/N (run_ksoftirqd): ctx is the engine. */
void ksoftirqd_step(Task *t);

#endif
