/* sched.h - one CPU's fair-class run queue: CFS (2.6.23-6.5) or EEVDF (6.6+), equal weights.
 *
 * The executor (models/cpu.c) owns the CPU and its clock; this module only decides: where a task
 * is placed when it starts or wakes, which runnable task runs next, and when the current one
 * should be told to reschedule (need_resched) at a tick, at a wake-up or as time is accounted.
 * Every runnable task, the current one included, is on the queue (Task.on_rq); the queue keeps
 * them in enqueue order, which breaks ties the way the kernel's rbtree does (an entity inserted
 * with a key equal to others goes after them). The waiting ones (all but curr) are also in a
 * search tree (models/rqtree.h) ordered by vruntime and that enqueue order, so the CFS leftmost
 * and the EEVDF pick cost O(log n); EEVDF's average vruntime is kept as a running sum.
 *
 * All tasks are SCHED_OTHER nice 0 (weight 1024), so weighted virtual time equals real time:
 * vruntime advances by the run time the executor gives it: the task's own CPU time
 * (IRQ_TIME_ACCOUNTING=y: softirq time that interrupts a task is not charged to it, notes C.6),
 * or with hosts.H.sched.irq_time_accounting false also the softirq time taken while it was
 * current (pre-2.6.37 rq->clock-based update_curr; see models/cpu.c).
 */
#ifndef SKSIM_SCHED_H
#define SKSIM_SCHED_H

#include <stdbool.h>
#include <stdint.h>

#include "models/cpu.h"
#include "sim/config.h"

typedef struct SchedOps SchedOps;

typedef struct RunQueue {
    /* read-only outside sched.c */
    const SchedOps *ops;
    Task *head, *tail;       /* runnable tasks in queue order, linked by Task.rq_next */
    Task *tree;              /* the queued tasks but curr, for the picks (models/rqtree.h) */
    uint64_t seq;            /* enqueue order: the last Task.rqt.seq given out */
    uint32_t tree_n;         /* tasks in the tree */
    int64_t tree_key_sum;    /* sum of vruntime - min_vruntime over the tree (EEVDF's V) */
    Task *curr;              /* the task the CPU runs (on the queue while runnable) */
    uint32_t nr_running;     /* queued tasks, curr and delayed sleepers included (nr_queued) */
    uint32_t nr_delayed;     /* of those, sleepers whose dequeue is delayed (DELAY_DEQUEUE) */
    bool delay_dequeue;      /* hosts.H.sched.delay_dequeue */
    bool waiting;            /* a task waits here: nr_running counts more than a running curr */
    uint32_t *nr_waiting_rqs; /* shared count of the host's queues with waiting set (the
                              * kernel's rd->overload), or NULL (rq_share_waiting_count) */
    uint64_t min_vruntime;   /* monotonic floor of the queue's vruntimes */
    /* tunables after the CPU factor 1 + ilog2(min(ncpus, 8)) (notes C.3/C.4) */
    sim_time_t latency_ns;         /* CFS sysctl_sched_latency */
    sim_time_t min_granularity_ns; /* CFS sysctl_sched_min_granularity */
    sim_time_t wakeup_granularity_ns; /* CFS sysctl_sched_wakeup_granularity */
    sim_time_t base_slice_ns;      /* EEVDF sysctl_sched_base_slice */
    sim_time_t tick_ns;            /* TICK_NSEC = 1e9 / HZ */
    uint32_t nr_latency;           /* CFS sched_nr_latency = ceil(latency / min_granularity) */
    Task *next_buddy, *last_buddy; /* CFS cfs_rq->next / ->last (<= 6.5), or NULL */
} RunQueue;

/* The kernel's get_update_sysctl_factor() for SCHED_TUNABLESCALING_LOG: 1 + ilog2(min(n, 8)). */
uint32_t sched_tunable_factor(uint32_t ncpus);

void rq_init(RunQueue *rq, const SchedConf *conf, uint32_t ncpus, uint32_t hz);

/* Keep *count equal to the number of queues sharing it whose `waiting` is set (from now: rq
 * must be empty). Load balancing skips its search when none has a task waiting. */
void rq_share_waiting_count(RunQueue *rq, uint32_t *count);

/* Account delta_ns of CPU time to rq->curr (update_curr). Returns true when the policy wants the
 * CPU rescheduled (EEVDF: the current request's deadline was reached with others waiting). */
bool rq_update_curr(RunQueue *rq, sim_time_t delta_ns);
/* A task joins the queue: first start (initial placement) or wake-up after sleeping. */
void rq_enqueue_new(RunQueue *rq, Task *t);
void rq_enqueue_wakeup(RunQueue *rq, Task *t);
/* The task leaves the queue to sleep (the executor has called rq_update_curr first). With
 * DELAY_DEQUEUE a task that is not eligible stays queued instead (Task.sched_delayed, still
 * on_rq): it competes until a pick takes it off, or a wake-up requeues it (rq_enqueue_wakeup,
 * on this queue: the executor must not move it). */
void rq_dequeue_sleep(RunQueue *rq, Task *t);
/* Runnable tasks on the queue: nr_running without the delayed sleepers (h_nr_runnable). */
uint32_t rq_nr_runnable(const RunQueue *rq);
/* A sleeping task moves from one CPU's queue to another's before it is enqueued there: CFS
 * carries its vruntime over relative to each queue's min_vruntime (migrate_task_rq_fair);
 * EEVDF keeps the lag it saved at sleep, which is already relative. */
void rq_migrate(const RunQueue *from, const RunQueue *to, Task *t);
/* Load balancing moves a runnable, queued task that is not from->curr (detach_task() +
 * attach_task()): deactivate/activate without DEQUEUE_SLEEP/ENQUEUE_WAKEUP. CFS carries the
 * vruntime over relative to each queue's min_vruntime (dequeue_entity/enqueue_entity, no sleeper
 * credit); EEVDF saves the lag against from's V and places it with that lag on to (6.6+
 * dequeue_entity -> update_entity_lag, enqueue_entity -> place_entity). */
void rq_migrate_queued(RunQueue *from, RunQueue *to, Task *t);
/* __schedule(): the task to run next (rq->curr, if still runnable, competes too). NULL if the
 * queue is empty. It does not change rq->curr. A delayed sleeper it picks is dequeued for good
 * and the pick is made again (pick_next_entity). */
Task *rq_pick_next(RunQueue *rq);
/* After a queued task's vruntime or deadline was set from outside (white-box tests): rebuild
 * the search tree and its sums from the queue. */
void rq_resync(RunQueue *rq);
/* Make t the current task (set_next_entity) or NULL (idle). A still-runnable previous task goes
 * to the back of the queue order (put_prev_entity). */
void rq_set_curr(RunQueue *rq, Task *t);
/* The scheduler tick for rq->curr (after rq_update_curr): true if it must reschedule. */
bool rq_tick(RunQueue *rq);
/* Wake-up preemption test for a task just enqueued (after rq_update_curr): true if it should
 * preempt rq->curr. */
bool rq_wakeup_preempt(RunQueue *rq, Task *woken);

/* For tests and traces: CFS sched_slice() of the current queue (period / nr_running). */
sim_time_t rq_cfs_slice(const RunQueue *rq);
/* For tests: EEVDF avg_vruntime V (floor of the mean vruntime of the queue). */
uint64_t rq_avg_vruntime(const RunQueue *rq);

#endif
