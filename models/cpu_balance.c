/* cpu_balance.c - load balancing between a host's CPUs (hosts.H.sched.load_balance): the
 * kernel's fair-class balancer (kernel/sched/fair.c) on one flat domain, the host, counted in
 * tasks: newidle (a CPU going idle pulls a waiting task), periodic (the tick pulls one when the
 * busiest CPU has 2+ more runnable) and nohz (a ticking CPU with a waiting task balances the
 * tickless idle CPUs). What it models and leaves out is in the comment at the top of the section
 * below.
 *
 * Why a file of its own: balancing is a policy on top of the CPU executor (cpu.c), which runs
 * one context at a time per CPU; it only reads the run queues and moves queued tasks between
 * them, through a handful of cpu.c's helpers (task_move, check_preempt, cpu_allowed,
 * cpu_idle_for_wakeup). It shares struct Cpu with cpu.c through the private cpu_priv.h, and
 * cpu.c calls it at three points: newidle_balance() from cpu_schedule(), newidle_note_wakeup()
 * at a wake-up, tick_balance() from the tick.
 */
#include "models/cpu_priv.h"

#include <glib.h>

#include "models/observe.h"

/* ---- load balancing (hosts.H.sched.load_balance) ------------------------------------------ */

/* The kernel's fair-class balancer (kernel/sched/fair.c; names as in 5.x-6.9, renamed sched_balance_*
 * in 6.10) reduced to one flat domain, the host, and to task counts:
 *   newidle  - __schedule() finding no task runs newidle_balance() (pick_next_task_fair ->
 *              balance_fair; sched_balance_newidle since 6.10): the CPU going idle pulls one
 *              task from the busiest CPU, then picks again (cpu_schedule);
 *   periodic - the tick (trigger_load_balance -> SCHED_SOFTIRQ -> rebalance_domains ->
 *              load_balance) on a CPU with a task: every balance interval it pulls one task
 *              when the busiest CPU has 2+ more runnable than itself;
 *   nohz     - a ticking CPU with a waiting task kicks the idle load balancer
 *              (nohz_balancer_kick, rq->nr_running >= 2), which balances each tickless idle
 *              CPU whose own interval is due (_nohz_idle_balance -> rebalance_domains(CPU_IDLE)).
 * Load is the run queue's task count plus one while softirq runs on a CPU without a runnable
 * current task (the kernel lowers such a CPU's capacity by its IRQ time, scale_rt_capacity());
 * a task can be pulled only from a CPU of load 2 or more, where it waits. Busiest: the highest
 * load, ties to the lowest CPU index, skipping CPUs with nothing the puller may take (the
 * LBF_ALL_PINNED retry of load_balance()). One task per pull.
 * Cache-hot tasks (can_migrate_task -> task_hot): a waiting task that ran less than
 * sched.migration_cost ago stays where it is, unless the puller's periodic balancing has failed
 * more than cache_nice_tries times in a row (sd->nr_balance_failed: a failed periodic or nohz pass
 * raises it, a failed newidle pass leaves it, a pull or a balanced host resets it). A busiest
 * CPU whose candidates are all hot ends the pass: the kernel tries another CPU only when every
 * task was pinned, not when they were hot.
 * Simplified: no PELT load or utilisation, no imbalance types or migration_type (one task per
 * pull whatever the gap), no CACHE_HOT_BUDDY (a next/last buddy counts as hot), the avg_idle
 * gate of 2.6.33-5.15 only with sched.newidle_avg_idle, no
 * max_newidle_lb_cost gate (5.16+) and no NI_RANDOM (6.19) on newidle, no balance_interval
 * doubling after failures, no active balance of a running task, no IPI
 * delay for the nohz kick, and a newidle pass only when a task leaves the CPU (not after an
 * interrupt on an already idle CPU). A search that finds nothing (the kernel's
 * rd->overload clear) costs nothing; each pull costs COST_LB_PULL on the puller, paid as
 * scheduler time (the ctx_switch bucket) before its next task runs. */

/* sd_init() (kernel/sched/topology.c): balance_interval starts at the domain weight in ms;
 * get_sd_balance_interval() multiplies it by busy_factor on a busy CPU: 16 since 5.10 (32
 * before; "sched/fair: Reduce busy load balance interval", Vincent Guittot, 2020). */
#define LB_BUSY_FACTOR 16

static bool lb_enabled(const Host *h)
{
    return h->conf && h->conf->sched.load_balance && h->ncpus > 1;
}

static sim_time_t lb_interval(const Host *h, bool busy)
{
    sim_time_t ns = (sim_time_t)h->ncpus * SIM_MS * (busy ? LB_BUSY_FACTOR : 1);
    sim_time_t tick = SIM_S / h->hz;
    return ns > tick ? ns : tick; /* at least one jiffy */
}

static uint32_t lb_load(const Cpu *c)
{
    bool curr_runnable = c->curr && c->curr->on_rq;
    return rq_nr_runnable(&c->rq) + (!curr_runnable && c->mode == CPU_SOFTIRQ ? 1 : 0);
}

/* can_migrate_task(): allowed on dst, not running on src, not in a preempt/BH-off section
 * (is_migration_disabled()). */
static bool lb_can_migrate(const Cpu *src, const Task *t, const Cpu *dst)
{
    return t != src->curr && t->state == TASK_RUNNABLE && t->preempt_count == 0 &&
           t->bh_disable_count == 0 && cpu_allowed(&t->allowed, dst->index);
}

/* detach_tasks() scans rq->cfs_tasks from its least recently run end: here the first movable
 * task in queue order, the one queued the longest. It looks at no more than env->loop_max =
 * min(sysctl_sched_nr_migrate, nr_running) tasks: 32 without PREEMPT_RT (kernel/sched/core.c). */
#define LB_NR_MIGRATE 32u

/* sd_init() (kernel/sched/topology.c): a domain whose CPUs share the last-level cache (MC) or
 * the package (2.6.x SD_CPU_INIT) tolerates one failed periodic pass before moving hot tasks. */
#define LB_CACHE_NICE_TRIES 1u

/* task_hot(): t last stopped running less than sysctl_sched_migration_cost ago (rq_clock_task -
 * se.exec_start); a task that never ran is cold, and a cost of 0 makes every task cold. */
static bool lb_task_hot(const Cpu *dst, const Task *t)
{
    sim_time_t cost = dst->host->conf->sched.migration_cost_ns;
    return cost > 0 && t->exec_start >= 0 && sim_now(dst->sim) - t->exec_start < cost;
}

/* The first task dst may take from src; with take_hot false, the first cache-cold one. NULL
 * when there is none. */
static Task *lb_pick_task(const Cpu *src, const Cpu *dst, bool take_hot)
{
    uint32_t looked = 0;
    for (Task *p = src->rq.head; p && looked < LB_NR_MIGRATE; p = p->rq_next, looked++)
        if (lb_can_migrate(src, p, dst) && (take_hot || !lb_task_hot(dst, p)))
            return p;
    return NULL;
}

/* Debug builds: the host's count of run queues with a waiting task is the true count. */
static void lb_check_waiting_count(const Host *h)
{
#ifdef SKSIM_CHECK_INVARIANTS
    uint32_t n = 0;
    for (uint32_t i = 0; i < h->ncpus; i++) {
        const RunQueue *rq = &h->cpus[i]->rq;
        n += rq_nr_runnable(rq) > (rq->curr && rq->curr->on_rq ? 1u : 0u);
    }
    g_assert_cmpuint(n, ==, h->nr_rqs_waiting);
#endif
}

/* find_busiest_queue(): the CPU of highest load, at least min_load, with a task dst may take,
 * and in *task the one detach_tasks() takes from it (NULL: all cache-hot). Only a waiting task
 * can be taken: with none on the host the scan is skipped, as the kernel's newidle_balance()
 * returns at once while the root domain is not overloaded (rd->overload). */
static Cpu *lb_find_busiest(const Cpu *dst, uint32_t min_load, Task **task)
{
    const Host *h = dst->host;
    Cpu *best = NULL;
    uint32_t best_load = 0;
    lb_check_waiting_count(h);
    if (h->nr_rqs_waiting == 0)
        return NULL;
    for (uint32_t i = 0; i < h->ncpus; i++) {
        Cpu *c = h->cpus[i];
        uint32_t load = lb_load(c);
        if (c == dst || load < 2 || load < min_load || (best && load <= best_load))
            continue;
        if (!lb_pick_task(c, dst, true))
            continue;
        best = c;
        best_load = load;
    }
    if (best) /* detach_tasks(): hot tasks too once dst's failures pass cache_nice_tries */
        *task = lb_pick_task(best, dst, dst->nr_balance_failed > LB_CACHE_NICE_TRIES);
    return best;
}

/* detach_task() + attach_task(): t joins dst's queue; outside __schedule() dst is told as a
 * wake-up would (check_preempt_curr / resched of the idle task). */
static void lb_pull(Cpu *dst, Cpu *src, Task *t, const char *why, bool notify)
{
    SIM_LOG(dst->host, LOG_SCHED, dst, "sched_migrate_task", "task=%s orig_cpu=%u dest_cpu=%u why=%s",
            t->name, src->index, dst->index, why);
    task_move(t, dst);
    sim_time_t cost = host_cost(dst->host, COST_LB_PULL);
    dst->balance_ns += cost;
    dst->profile_ns[COST_LB_PULL] += cost;
    if (notify)
        check_preempt(dst, t);
}

/* From cpu_schedule() when the queue is empty: true if a task was pulled onto cpu's queue.
 * CFS 2.6.33-5.15 (sched.newidle_avg_idle): the idle spell is stamped first, and a CPU whose
 * average idle time is under sysctl_sched_migration_cost does not balance. */
bool newidle_balance(Cpu *cpu)
{
    if (!lb_enabled(cpu->host))
        return false;
    bool gate = cpu->host->conf->sched.newidle_avg_idle;
    if (gate) {
        cpu->idle_stamp = sim_now(cpu->sim);
        if (cpu->avg_idle_ns < cpu->host->conf->sched.migration_cost_ns)
            return false;
    }
    bool searched = cpu->host->nr_rqs_waiting > 0;
    Task *t = NULL;
    Cpu *src = lb_find_busiest(cpu, 2, &t);
    if (!src && searched)
        cpu->nr_balance_failed = 0; /* out_balanced */
    if (!t)
        return false;
    lb_pull(cpu, src, t, "newidle", false);
    cpu->nr_balance_failed = 0;
    cpu->idle_stamp = -1;
    return true;
}

/* ttwu_do_wakeup (2.6.33-5.15): a wake-up ends the idle spell stamped by newidle_balance; its
 * length goes into avg_idle (update_avg: 1/8 of the difference), a spell over 2 x the migration
 * cost setting it to that cap (3.4's form). */
void newidle_note_wakeup(Cpu *cpu)
{
    if (cpu->idle_stamp < 0)
        return;
    sim_time_t delta = sim_now(cpu->sim) - cpu->idle_stamp;
    sim_time_t max = 2 * cpu->host->conf->sched.migration_cost_ns;
    if (delta > max)
        cpu->avg_idle_ns = max;
    else
        cpu->avg_idle_ns += (delta - cpu->avg_idle_ns) / 8;
    cpu->idle_stamp = -1;
}

/* One rebalance_domains() pass for cpu if its interval is due: pull one task when the busiest
 * CPU's load exceeds cpu's by 2 or more. */
static void rebalance(Cpu *cpu, bool busy, const char *why)
{
    sim_time_t now = sim_now(cpu->sim);
    if (now < cpu->next_balance)
        return;
    cpu->next_balance = now + lb_interval(cpu->host, busy);
    Task *t = NULL;
    Cpu *src = lb_find_busiest(cpu, lb_load(cpu) + 2, &t);
    if (!src) {
        cpu->nr_balance_failed = 0; /* out_balanced, or every task pinned */
        return;
    }
    if (!t) {
        cpu->nr_balance_failed++; /* all cache-hot */
        return;
    }
    lb_pull(cpu, src, t, why, true);
    cpu->nr_balance_failed = 0;
}

/* The tick's share (cpu has a current task): its own periodic pass, then, if it has a waiting
 * task, the nohz idle balance on behalf of the idle CPUs, lowest index first. */
void tick_balance(Cpu *cpu)
{
    if (!lb_enabled(cpu->host))
        return;
    rebalance(cpu, true, "periodic");
    const Host *h = cpu->host;
    for (uint32_t i = 0; i < h->ncpus && lb_load(cpu) >= 2; i++)
        if (h->cpus[i] != cpu && cpu_idle_for_wakeup(h->cpus[i]))
            rebalance(h->cpus[i], false, "nohz");
}
