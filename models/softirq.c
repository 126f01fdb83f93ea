/* softirq.c - __do_softirq, net_rx_action and ksoftirqd/N, one unit of work at a time.
 *
 * Why unit by unit: the limits that decide when receive work leaves the interrupted context for
 * ksoftirqd (notes C.6, C.7) are checked between packets and polls, and a task that competes
 * with ksoftirqd sees its CPU time go in exactly those pieces. So the engine is a resumable
 * state machine: the executor (cpu.c) calls softirq_run_next() once per unit, lets the unit's
 * charge elapse, and calls again.
 *
 * One __do_softirq run (kernel/softirq.c):
 *   entry: COST_SOFTIRQ_ENTRY; end = jiffies + msecs_to_jiffies(MAX_SOFTIRQ_TIME = 2 ms, rounded
 *   up to whole jiffies, C.5); restart budget MAX_SOFTIRQ_RESTART = 10.
 *   a round: the kinds pending at its start run in the kernel's bit order (TIMER_SOFTIRQ = 1,
 *   NET_TX_SOFTIRQ = 2, NET_RX_SOFTIRQ = 3, TASKLET_SOFTIRQ = 6: TCP Small Queues'
 *   tsq_tasklet, scheduled by a TX completion, runs after the receive work); each handler
 *   takes its pending list privately, so
 *   work raised meanwhile waits for the next round.
 *   after a round, with work pending: restart if jiffies < end, !need_resched() and --restarts
 *   is non-zero; otherwise wakeup_softirqd() and return.
 * net_rx_action (net/core/dev.c): budget netdev_budget, time limit jiffies +
 *   usecs_to_jiffies(netdev_budget_usecs); each NAPI on the list is polled once, for at most
 *   napi_weight units (the poll is not cut by the remaining budget, as in the kernel); a NAPI
 *   that used its whole weight is told so (SoftirqWork.repoll: __napi_poll's
 *   gro_flush_normal(HZ >= 1000) for a NIC) and goes to the repoll list for the next round; with
 *   a single busy NAPI that ends the action, which re-raises NET_RX (one poll per
 *   net_rx_action, so one per __do_softirq round); NAPIs scheduled while
 *   the list drains are picked up in the same action when no repoll is waiting. After each poll:
 *   budget <= 0 or jiffies >= limit stops the action (time_squeeze). Leftovers go back as
 *   pending: the rest of the list, then newly scheduled NAPIs, then the repoll list.
 * TIMER, NET_TX and TASKLET items run until they report no more work (a re-run goes after the
 * others).
 *
 * ksoftirqd/N is an ordinary SCHED_OTHER task (run_ksoftirqd): while work is pending it runs
 * __do_softirq under the same limits, with bottom halves disabled (so it is not preempted inside
 * a run), then cond_resched(); with nothing pending it sleeps.
 *
 * Era: current kernels. "softirq: Let ksoftirqd do its job" (4cd13c21b207, 4.9), under which an
 * interrupt did not run softirqs inline while ksoftirqd was runnable, was reverted in 2023
 * (d15121be7485, 6.5); so here an interrupt runs pending work inline whenever the interrupted
 * context allows, whether or not ksoftirqd is runnable, unless stack.softirq.defer_to_ksoftirqd
 * asks for the 4.9-6.4 rule (models/cpu.c softirq_left_to_ksoftirqd). An interrupt during
 * ksoftirqd's __do_softirq finds in_interrupt() (the run holds SOFTIRQ_OFFSET) and leaves the
 * work to it.
 * With one NAPI that keeps using its whole weight every round is one poll (the repoll list is
 * all that is left, net_rx_action re-raises), so after MAX_SOFTIRQ_RESTART polls without the
 * ring emptying ksoftirqd takes over; the device interrupt stays masked until a poll completes.
 * Up to 3.18 (stack.softirq.repoll_in_action) such a NAPI went back to the tail of the poll list
 * and the same action polled it again until its budget or time limit: ~5 polls per round.
 */
#include "models/softirq.h"

#include <glib.h>
#include <inttypes.h>

#include "models/observe.h"
#include "sim/ktimer.h"

/* MAX_SOFTIRQ_TIME = msecs_to_jiffies(2) (kernel/softirq.c, notes C.6). */
#define MAX_SOFTIRQ_TIME_NS (2 * SIM_MS)
/* MAX_SOFTIRQ_RESTART = 10 (kernel/softirq.c, notes C.6). */
#define MAX_SOFTIRQ_RESTART 10u

/* Handler order within a round: the softirq bit numbers ascending. */
static const SoftirqKind softirq_order[] = { SOFTIRQ_TIMER, SOFTIRQ_NET_TX, SOFTIRQ_NET_RX,
                                              SOFTIRQ_TASKLET };
#define SOFTIRQ_ORDER_N (sizeof softirq_order / sizeof softirq_order[0])

/* ---- intrusive lists ---- */

static void list_push(SoftirqList *l, SoftirqWork *w)
{
    w->next = NULL;
    if (l->tail)
        l->tail->next = w;
    else
        l->head = w;
    l->tail = w;
}

static SoftirqWork *list_pop(SoftirqList *l)
{
    SoftirqWork *w = l->head;
    if (!w)
        return NULL;
    l->head = w->next;
    if (!l->head)
        l->tail = NULL;
    w->next = NULL;
    return w;
}

static SoftirqList list_take(SoftirqList *l)
{
    SoftirqList all = *l;
    *l = (SoftirqList){ 0 };
    return all;
}

static void list_splice_tail(SoftirqList *dst, SoftirqList *src)
{
    if (!src->head)
        return;
    if (dst->tail)
        dst->tail->next = src->head;
    else
        dst->head = src->head;
    dst->tail = src->tail;
    *src = (SoftirqList){ 0 };
}

/* ---- engine ---- */

void softirq_engine_init(SoftirqEngine *e, Cpu *cpu, Task *ksoftirqd)
{
    *e = (SoftirqEngine){ .cpu = cpu, .host = cpu_host(cpu), .ksoftirqd = ksoftirqd };
}

bool softirq_enqueue(SoftirqEngine *e, SoftirqWork *w)
{
    if (w->queued)
        return false;
    w->queued = true;
    w->polled = 0;
    w->work = 0;
    list_push(&e->pending[w->kind], w);
    return true;
}

bool softirq_has_work(const SoftirqEngine *e)
{
    for (int k = 0; k < SOFTIRQ_NR; k++)
        if (e->pending[k].head)
            return true;
    return false;
}

static uint64_t jiffies_now(const SoftirqEngine *e)
{
    return ktimer_jiffies(e->host->sim, e->host->hz, e->host->tick_phase);
}

static void start_round(SoftirqEngine *e)
{
    e->round_mask = 0;
    for (int k = 0; k < SOFTIRQ_NR; k++)
        if (e->pending[k].head)
            e->round_mask |= 1u << k;
    e->order_idx = 0;
    e->handler_started = false;
}

void softirq_begin(SoftirqEngine *e, bool in_ksoftirqd)
{
    g_assert(!e->active);
    e->active = true;
    e->in_ksoftirqd = in_ksoftirqd;
    if (in_ksoftirqd)
        e->runs_ksoftirqd++;
    else
        e->runs_inline++;
    cpu_charge_cost(e->cpu, COST_SOFTIRQ_ENTRY);
    e->end_jiffies = jiffies_now(e) + ktimer_ns_to_jiffies(MAX_SOFTIRQ_TIME_NS, e->host->hz);
    e->restarts_left = MAX_SOFTIRQ_RESTART;
    start_round(e);
}

static void handler_start(SoftirqEngine *e, SoftirqKind kind)
{
    e->local = list_take(&e->pending[kind]);
    if (kind != SOFTIRQ_NET_RX)
        return;
    const TcpConf *tc = &e->host->conf->tcp;
    e->rx_done = false;
    e->rx_budget = tc->netdev_budget;
    /* netdev_budget_usecs defaults to 2 * USEC_PER_SEC / HZ, "at least 2 jiffies to guarantee 1
     * jiffy timeout" (net/core/dev.c, net/core/hotdata.c from 6.9): 2 ms at HZ=1000, 8 ms at
     * HZ=250, 20 ms at HZ=100 (notes 0). 0 in the configuration stands for that default. */
    sim_time_t usecs_ns = tc->netdev_budget_ns ? tc->netdev_budget_ns
                                               : 2 * SIM_S / (sim_time_t)e->host->hz;
    e->rx_time_limit = jiffies_now(e) + ktimer_ns_to_jiffies(usecs_ns, e->host->hz);
    e->repoll = (SoftirqList){ 0 };
}

/* TIMER / NET_TX: one unit of the head item; an item with more work goes to the back. */
static bool list_unit(SoftirqEngine *e)
{
    SoftirqWork *w = list_pop(&e->local);
    if (!w)
        return false;
    if (w->run(w, e->cpu))
        list_push(&e->local, w);
    else
        w->queued = false;
    return true;
}

/* End of net_rx_action: leftovers back to the poll list (re-raise). */
static void net_rx_end(SoftirqEngine *e)
{
    SoftirqList rest = list_take(&e->local);
    list_splice_tail(&rest, &e->pending[SOFTIRQ_NET_RX]);
    list_splice_tail(&rest, &e->repoll);
    e->pending[SOFTIRQ_NET_RX] = rest;
    e->rx_done = true;
}

/* The poll of w is over (weight used, or w reported no more work). */
static void napi_poll_done(SoftirqEngine *e, SoftirqWork *w, bool more)
{
    e->rx_budget -= w->work;
    list_pop(&e->local);
    w->polled = 0;
    w->work = 0;
    if (more) {
        if (w->repoll)
            w->repoll(w, e->cpu); /* __napi_poll: work == weight, no completion */
        if (e->host->stack && e->host->stack->softirq_repoll_in_action) {
            /* <= 3.18: list_move_tail on sd->poll_list, behind NAPIs scheduled meanwhile */
            SoftirqList fresh = list_take(&e->pending[SOFTIRQ_NET_RX]);
            list_splice_tail(&e->local, &fresh);
            list_push(&e->local, w);
        } else {
            list_push(&e->repoll, w);
        }
    } else
        w->queued = false;
    if (e->rx_budget <= 0 || jiffies_now(e) >= e->rx_time_limit) {
        e->time_squeeze++;
        SIM_LOG(e->host, LOG_SOFTIRQ, e->cpu, "net_rx_squeeze", "budget_left=%" PRId64, e->rx_budget);
        net_rx_end(e);
    }
}

/* NET_RX: one packet of the NAPI at the head of the action's list. */
static bool net_rx_unit(SoftirqEngine *e)
{
    if (e->rx_done)
        return false;
    if (!e->local.head && !e->repoll.head && e->pending[SOFTIRQ_NET_RX].head)
        e->local = list_take(&e->pending[SOFTIRQ_NET_RX]); /* newly scheduled NAPIs */
    SoftirqWork *w = e->local.head;
    if (!w) {
        net_rx_end(e);
        return false;
    }
    bool more = w->run(w, e->cpu);
    w->polled++;
    if (!w->own_work)
        w->work++;
    if (!more || w->work >= e->host->conf->tcp.napi_weight)
        napi_poll_done(e, w, more);
    return true;
}

static void wakeup_softirqd(SoftirqEngine *e)
{
    if (e->in_ksoftirqd || e->ksoftirqd->state != TASK_SLEEPING)
        return;
    e->ksoftirqd_wakeups++;
    SIM_EVENT(e->host, LOG_SOFTIRQ, e->cpu, NULL, "ksoftirqd_wakeup", "pending_restarts=%u",
              e->restarts_left);
    task_wake(e->ksoftirqd, e->cpu);
}

/* Before 3.9 only the restart count stopped the loop (stack.softirq.limit; a host built without
 * a stack, in unit tests, has the 3.9 rule). */
static bool may_restart(SoftirqEngine *e)
{
    bool count_only = e->host->stack && e->host->stack->softirq_limit == SOFTIRQ_LIMIT_RESTARTS;
    if (!count_only && (jiffies_now(e) >= e->end_jiffies || cpu_need_resched(e->cpu)))
        return false;
    return --e->restarts_left != 0;
}

/* After a round: restart, or stop (handing what is left to ksoftirqd). False when stopped. */
static bool round_end(SoftirqEngine *e)
{
    if (softirq_has_work(e)) {
        if (may_restart(e)) {
            start_round(e);
            return true;
        }
        wakeup_softirqd(e);
    }
    e->active = false;
    return false;
}

SoftirqStep softirq_run_next(SoftirqEngine *e)
{
    g_assert(e->active);
    for (;;) {
        if (e->order_idx == SOFTIRQ_ORDER_N) {
            if (!round_end(e))
                return SOFTIRQ_DONE;
            continue;
        }
        SoftirqKind kind = softirq_order[e->order_idx];
        if (!(e->round_mask & (1u << kind))) {
            e->order_idx++;
            continue;
        }
        if (!e->handler_started) {
            handler_start(e, kind);
            e->handler_started = true;
        }
        if (kind == SOFTIRQ_NET_RX ? net_rx_unit(e) : list_unit(e))
            return SOFTIRQ_MORE;
        e->handler_started = false;
        e->order_idx++;
    }
}

/* run_ksoftirqd(): one unit per step; between __do_softirq runs, cond_resched(). */
void ksoftirqd_step(Task *t)
{
    SoftirqEngine *e = t->ctx;
    if (!e->active) {
        if (!softirq_has_work(e)) {
            task_sleep(t);
            return;
        }
        task_bh_disable(t);
        softirq_begin(e, true);
    }
    if (softirq_run_next(e) == SOFTIRQ_DONE) {
        task_bh_enable(t);
        task_cond_resched(t);
    }
}
