/* cpu.c - the CPU executor: one context at a time (softirq, the current task, or idle), "act,
 * then charge", with context switches, interrupts and the scheduler tick.
 *
 * Why it is built this way (see the execution model in cpu.h): every modelled cost must land on
 * the CPU that pays it in the kernel, and a task that is interrupted or descheduled must lose
 * exactly the time it does not run, because that lost time is what seed 000 is about. So a CPU
 * has ONE pending SimEvent, the end of whatever it is charging now: a task step, a softirq unit,
 * a context switch, or a zero-length "kick" that makes an idle CPU or an interrupted task look
 * at its state again. What runs next is decided in one place, cpu_dispatch():
 *   1. pending softirq that may run inline (an interrupt or local_bh_enable asked for it, and
 *      the current task, if any, has bottom halves enabled) runs first;
 *   2. an interrupted step resumes its remaining time;
 *   3. the current task switches out if it went to sleep, yielded (cond_resched, return to
 *      user), or, under full preemption, has need_resched set outside preempt/BH-off sections;
 *   4. otherwise its next step runs.
 * A hard interrupt (cpu_raise_softirq from outside the CPU's running context) on a task whose
 * step charge is elapsing cuts the charge, keeps the rest in Task.remaining, and kicks the CPU.
 *
 * Time accounting: the CPU's elapsed time is split exactly into task, softirq, context-switch
 * and idle buckets (a kick is zero-length, counted as idle). Which of it a task's runtime (and
 * its vruntime, and so its slice at the tick) includes is hosts.H.sched.irq_time_accounting:
 *   true (default): only its own steps. Softirq time that interrupts it is not charged to it:
 *     CONFIG_IRQ_TIME_ACCOUNTING=y, common in distribution kernels (notes C.6), where
 *     update_curr() times the task on rq->clock_task, which excludes hardirq and softirq time
 *     (b52bfee445d3 "sched: Add IRQ_TIME_ACCOUNTING, finer accounting of irq time" and
 *     305e6835e055 "sched: Do not account irq time to current task", Venkatesh Pallipadi, Oct
 *     2010, merged for 2.6.37).
 *   false: the kernels before it (2.6.23-2.6.36 CFS; any kernel built without the option).
 *     update_curr() timed the task on rq->clock, so everything between its exec_start and now
 *     counted, including the softirq work (and the hard interrupt that raised it, which the
 *     model folds into COST_SOFTIRQ_ENTRY) run while it was current: its sum_exec_runtime,
 *     vruntime and the tick's check_preempt_tick() all see that time. Here the softirq run
 *     continues the current task's running piece (Cpu.irq_owner): it is charged at the run's
 *     end and whenever the scheduler syncs meanwhile (a tick, a wake-up). Softirq taken on an
 *     idle CPU is charged to no task: the kernel's current task is then the idle task, which is
 *     not on the fair run queue, and a task switched in afterwards starts its exec_start then.
 *   Either way ksoftirqd's own runs are its steps, charged to it (the kernel also keeps
 *   ksoftirqd's softirq time on ksoftirqd, PF_KSOFTIRQD), and a context switch is charged to
 *   no task.
 *
 * Idle: a CPU with nothing to run sits in the C-state its governor picked (models/cpuidle.c,
 * hosts.H.sched.cpuidle); an interrupt or a wake-up on it waits for that state's exit latency
 * before anything runs, and the wait is idle time.
 *
 * Context switch: COST_CTX_SWITCH is CPU time spent before the next task runs, charged when the
 * task switched in differs from the last task that ran on this CPU (switching back to the same
 * task after an idle spell keeps its cache and costs nothing here).
 *
 * The tick (EVK_SCHED_TICK) fires at every jiffy boundary while the CPU has a current task and
 * stops when it goes idle (NOHZ idle); it runs the scheduler's tick check (models/sched.c). It
 * is a hard interrupt too: its irq_exit runs pending softirq work inline, so NET_RX work left
 * to ksoftirqd (whose NAPI keeps the device interrupt masked) is also picked up at ticks, as
 * it is at every local_bh_enable (task_bh_enable).
 *
 * Load balancing between the host's CPUs (hosts.H.sched.load_balance: newidle, periodic, nohz)
 * is in models/cpu_balance.c; cpu_schedule(), the wake-up and the tick call into it. struct Cpu
 * and the helpers the two files share are in the private models/cpu_priv.h.
 */
#include "models/cpu.h"
#include "models/cpu_priv.h"

#include <glib.h>
#include <stdio.h>
#include <string.h>

#include "models/cpuidle.h"
#include "models/observe.h"
#include "models/sched.h"
#include "models/softirq.h"
#include "sim/evkind.h"
#include "sim/ktimer.h"

static void cpu_fire(Sim *sim, void *ctx);
static void tick_fire(Sim *sim, void *ctx);
static void cpu_dispatch(Cpu *cpu);
static void idle_enter(Cpu *cpu);

/* ---- accounting ---------------------------------------------------------------------------- */

static int mode_bucket(CpuMode m)
{
    switch (m) {
    case CPU_TASK:
        return BUCKET_TASK;
    case CPU_SOFTIRQ:
        return BUCKET_SOFTIRQ;
    case CPU_SWITCH:
        return BUCKET_SWITCH;
    default:
        return BUCKET_IDLE;
    }
}

/* Out of line and cold: set_mode runs at every step and must stay small enough to inline. */
static void observe_mode(Cpu *cpu, CpuMode old) G_GNUC_NO_INLINE __attribute__((cold));

static void irq_piece_end(Cpu *cpu);

static inline __attribute__((always_inline)) void set_mode(Cpu *cpu, CpuMode m)
{
    sim_time_t now = sim_now(cpu->sim);
    CpuMode old = cpu->mode;
    if (G_UNLIKELY(cpu->irq_owner)) { /* the softirq run charged to a task ends */
        irq_piece_end(cpu);
        cpu->irq_owner = NULL;
    }
    cpu->bucket[mode_bucket(old)] += now - cpu->mark;
    cpu->mark = now;
    cpu->mode = m;
    if (SIM_OBSERVED(cpu->host, LOG_SOFTIRQ))
        observe_mode(cpu, old);
}

/* --trace and --log softirq: what the CPU shows from now on (a task, softirq, a switch, idle). */
static void observe_mode(Cpu *cpu, CpuMode old)
{
    const Host *h = cpu->host;
    if (old != CPU_SOFTIRQ && cpu->mode == CPU_SOFTIRQ)
        SIM_LOG(h, LOG_SOFTIRQ, cpu, "softirq_entry", "interrupted=%s",
                cpu->curr ? cpu->curr->name : "idle");
    else if (old == CPU_SOFTIRQ && cpu->mode != CPU_SOFTIRQ)
        SIM_LOG(h, LOG_SOFTIRQ, cpu, "softirq_exit", "next=%s", cpu->curr ? cpu->curr->name : "idle");
    if (!h->trace)
        return;
    char name[48];
    switch (cpu->mode) {
    case CPU_TASK:
        obs_cpu_slice(h, cpu->index, cpu->curr == &cpu->ksoftirqd ? "ksoftirqd" : "task",
                      cpu->curr->name);
        break;
    case CPU_SOFTIRQ:
        obs_cpu_slice(h, cpu->index, "softirq", "softirq");
        break;
    case CPU_SWITCH:
        g_snprintf(name, sizeof name, "switch to %s", cpu->curr->name);
        obs_cpu_slice(h, cpu->index, "sched", name);
        break;
    default: /* idle, or a zero-length kick */
        obs_cpu_slice(h, cpu->index, NULL, NULL);
        break;
    }
}

/* The running piece of curr's step ends (charge elapsed, interrupt, or a scheduler sync). */
static void piece_end(Cpu *cpu)
{
    sim_time_t now = sim_now(cpu->sim);
    sim_time_t d = now - cpu->exec_start;
    cpu->curr->runtime_ns += d;
    cpu->sched_pending_ns += d;
    cpu->exec_start = now;
}

/* Without IRQ time accounting: the softirq time since exec_start is irq_owner's run time
 * (rq->clock-based update_curr). irq_owner is curr: curr changes only in cpu_schedule(), which
 * syncs first. */
static void irq_piece_end(Cpu *cpu)
{
    sim_time_t now = sim_now(cpu->sim);
    sim_time_t d = now - cpu->exec_start;
    g_assert(cpu->mode == CPU_SOFTIRQ);
    cpu->irq_owner->runtime_ns += d;
    cpu->sched_pending_ns += d;
    cpu->exec_start = now;
}

/* update_curr(): give curr's run time to the scheduler; it may ask for a reschedule. */
static void sched_sync(Cpu *cpu)
{
    if (cpu->mode == CPU_TASK && cpu->curr)
        piece_end(cpu);
    else if (cpu->irq_owner)
        irq_piece_end(cpu);
    if (rq_update_curr(&cpu->rq, cpu->sched_pending_ns))
        cpu->need_resched = true;
    cpu->sched_pending_ns = 0;
}

/* ---- CPUs ---------------------------------------------------------------------------------- */

static void ksoftirqd_init(Cpu *cpu)
{
    Task *t = &cpu->ksoftirqd;
    *t = (Task){ .step = ksoftirqd_step, .ctx = &cpu->softirq, .host = cpu->host, .cpu = cpu,
                 .state = TASK_SLEEPING, .allowed = { .n = 1, .cpu = { cpu->index } } };
    snprintf(t->name, sizeof t->name, "ksoftirqd/%u", cpu->index);
    softirq_engine_init(&cpu->softirq, cpu, t);
}

Cpu *cpu_new(Host *h, uint32_t index)
{
    g_assert(h->conf && h->sim && h->hz > 0 && h->ncpus > 0);
    Cpu *cpu = g_new0(Cpu, 1);
    cpu->host = h;
    cpu->sim = h->sim;
    cpu->index = index;
    uint32_t obj = (uint32_t)h->id << 16 | index;
    sim_event_init(&cpu->ev, cpu_fire, cpu, EVK_CPU, obj);
    sim_event_init(&cpu->tick, tick_fire, cpu, EVK_SCHED_TICK, obj);
    rq_init(&cpu->rq, &h->conf->sched, h->ncpus, h->hz);
    rq_share_waiting_count(&cpu->rq, &h->nr_rqs_waiting);
    cpu->avg_idle_ns = 2 * h->conf->sched.migration_cost_ns; /* sched_init: 2 x migration cost */
    cpu->idle_stamp = -1;
    cpu->mark = sim_now(h->sim);
    idle_enter(cpu);
    ksoftirqd_init(cpu);
    return cpu;
}

void cpu_free(Cpu *cpu)
{
    if (!cpu)
        return;
    sim_cancel(cpu->sim, &cpu->ev);
    sim_cancel(cpu->sim, &cpu->tick);
    task_fini(&cpu->ksoftirqd);
    g_free(cpu);
}

uint32_t cpu_index(const Cpu *cpu)
{
    return cpu->index;
}

Host *cpu_host(const Cpu *cpu)
{
    return cpu->host;
}

void cpu_charge(Cpu *cpu, sim_time_t ns)
{
    if (!cpu)
        return;
    g_assert(cpu->acting != ACT_NONE);
    g_assert(ns >= 0);
    cpu->pending_ns += ns;
}

sim_time_t cpu_acted_at(const Cpu *cpu)
{
    if (!cpu)
        return 0;
    return sim_now(cpu->sim) + (cpu->acting != ACT_NONE ? cpu->pending_ns : 0);
}

void cpu_charge_op(Cpu *cpu, CostId id, sim_time_t ns)
{
    if (!cpu)
        return;
    cpu->profile_ns[id] += ns;
    cpu_charge(cpu, ns);
}

void cpu_charge_cost(Cpu *cpu, CostId id)
{
    if (cpu)
        cpu_charge_op(cpu, id, host_cost(cpu->host, id));
}

bool cpu_in_softirq(const Cpu *cpu)
{
    return cpu->mode == CPU_SOFTIRQ || (cpu->curr == &cpu->ksoftirqd && cpu->softirq.active);
}

Task *cpu_current(const Cpu *cpu)
{
    return cpu->curr;
}

bool cpu_need_resched(const Cpu *cpu)
{
    return cpu->need_resched;
}

Task *cpu_ksoftirqd(Cpu *cpu)
{
    return &cpu->ksoftirqd;
}

Cpu *cpu_acting(const Host *h)
{
    for (uint32_t i = 0; h->cpus && i < h->ncpus; i++)
        if (h->cpus[i] && h->cpus[i]->acting != ACT_NONE)
            return h->cpus[i];
    return NULL;
}

const char *cpu_context_name(const Cpu *cpu)
{
    if (cpu->acting == ACT_SOFTIRQ || (cpu->mode == CPU_SOFTIRQ && softirq_active(&cpu->softirq)))
        return "softirq";
    return cpu->curr ? cpu->curr->name : "idle";
}

CpuStats cpu_stats(const Cpu *cpu)
{
    sim_time_t b[BUCKET_N];
    for (int i = 0; i < BUCKET_N; i++)
        b[i] = cpu->bucket[i];
    b[mode_bucket(cpu->mode)] += sim_now(cpu->sim) - cpu->mark;
    CpuStats st = {
        .task_ns = b[BUCKET_TASK],
        .softirq_ns = b[BUCKET_SOFTIRQ],
        .ctx_switch_ns = b[BUCKET_SWITCH],
        .idle_ns = b[BUCKET_IDLE],
        .ctx_switches = cpu->ctx_switches,
        .softirq_runs = cpu->softirq.runs_inline,
        .ksoftirqd_wakeups = cpu->softirq.ksoftirqd_wakeups,
    };
    memcpy(st.profile_ns, cpu->profile_ns, sizeof st.profile_ns);
    return st;
}

/* ---- the tick ------------------------------------------------------------------------------ */

static void tick_arm(Cpu *cpu)
{
    if (sim_event_pending(&cpu->tick))
        return;
    const Host *h = cpu->host;
    uint64_t next = ktimer_jiffies(cpu->sim, h->hz, h->tick_phase) + 1;
    sim_schedule_at(cpu->sim, &cpu->tick, ktimer_jiffies_to_ns(next, h->hz, h->tick_phase));
}

static void irq_exit_softirq(Cpu *cpu);

/* The timer interrupt: scheduler tick, then irq_exit, which runs pending softirq work inline
 * (work left for ksoftirqd, or raised while BH was off) when the interrupted context allows. */
static void tick_fire(Sim *sim, void *ctx)
{
    Cpu *cpu = ctx;
    if (!cpu->curr)
        return; /* NOHZ idle: the tick stops */
    sched_sync(cpu);
    if (rq_tick(&cpu->rq))
        cpu->need_resched = true;
    tick_arm(cpu);
    tick_balance(cpu);
    irq_exit_softirq(cpu);
}

/* ---- running contexts ---------------------------------------------------------------------- */

static void kick(Cpu *cpu)
{
    set_mode(cpu, CPU_KICK);
    sim_schedule_at(cpu->sim, &cpu->ev, sim_now(cpu->sim));
}

/* The CPU goes idle: the governor picks a C-state for an idle period as long as its last one
 * (models/cpuidle.c). */
static void idle_enter(Cpu *cpu)
{
    cpu->idle_since = sim_now(cpu->sim);
    cpu->idle_exit_ns = cpuidle_exit_latency(cpu->host->conf->sched.cpuidle, cpu->last_idle_ns);
}

/* An idle CPU is woken (an interrupt, or a task joining its queue): it starts work once it
 * has left its C-state; the wait stays idle time. */
static void kick_idle(Cpu *cpu)
{
    sim_time_t now = sim_now(cpu->sim);
    cpu->last_idle_ns = now - cpu->idle_since;
    if (cpu->idle_exit_ns) {
        cpu->host->ctr.v[CTR_SksimIdleExits]++;
        cpu->host->ctr.v[CTR_SksimIdleExitNs] += (uint64_t)cpu->idle_exit_ns;
    }
    set_mode(cpu, CPU_KICK);
    sim_schedule_at(cpu->sim, &cpu->ev, now + cpu->idle_exit_ns);
}

static void run_step(Cpu *cpu)
{
    Task *t = cpu->curr;
    set_mode(cpu, CPU_TASK);
    cpu->exec_start = sim_now(cpu->sim);
    cpu->acting = ACT_TASK;
    cpu->pending_ns = 0;
    t->yield_after_step = false;
    t->step(t);
    cpu->acting = ACT_NONE;
    t->in_step = true;
    sim_schedule_in(cpu->sim, &cpu->ev, cpu->pending_ns);
}

static void resume_step(Cpu *cpu)
{
    Task *t = cpu->curr;
    set_mode(cpu, CPU_TASK);
    cpu->exec_start = sim_now(cpu->sim);
    sim_schedule_in(cpu->sim, &cpu->ev, t->remaining);
    t->remaining = 0;
}

/* Interrupt the step charge of curr (hard IRQ): keep the rest for later. */
static void interrupt_step(Cpu *cpu)
{
    Task *t = cpu->curr;
    g_assert(t && t->in_step && sim_event_pending(&cpu->ev));
    t->remaining = sim_event_time(&cpu->ev) - sim_now(cpu->sim);
    sim_cancel(cpu->sim, &cpu->ev);
    piece_end(cpu);
    kick(cpu);
}

static void softirq_after_unit(Cpu *cpu, SoftirqStep step);

static void softirq_start(Cpu *cpu)
{
    g_assert(!softirq_active(&cpu->softirq));
    cpu->softirq_wanted = false;
    set_mode(cpu, CPU_SOFTIRQ);
    if (cpu->curr && !cpu->host->conf->sched.irq_time_accounting) {
        cpu->irq_owner = cpu->curr; /* charged like curr's own run time, from now */
        cpu->exec_start = sim_now(cpu->sim);
    }
    cpu->acting = ACT_SOFTIRQ;
    cpu->pending_ns = 0;
    softirq_begin(&cpu->softirq, false);
    SoftirqStep step = softirq_run_next(&cpu->softirq);
    cpu->acting = ACT_NONE;
    softirq_after_unit(cpu, step);
}

static void softirq_after_unit(Cpu *cpu, SoftirqStep step)
{
    cpu->softirq_ending = step == SOFTIRQ_DONE;
    if (step == SOFTIRQ_MORE || cpu->pending_ns > 0) {
        sim_schedule_in(cpu->sim, &cpu->ev, cpu->pending_ns);
        return;
    }
    cpu->softirq_ending = false;
    cpu_dispatch(cpu);
}

/* A softirq unit's charge has elapsed: next unit, or leave softirq context. */
static void softirq_continue(Cpu *cpu)
{
    if (cpu->softirq_ending) {
        cpu->softirq_ending = false;
        cpu_dispatch(cpu);
        return;
    }
    cpu->acting = ACT_SOFTIRQ;
    cpu->pending_ns = 0;
    SoftirqStep step = softirq_run_next(&cpu->softirq);
    cpu->acting = ACT_NONE;
    softirq_after_unit(cpu, step);
}

/* ---- scheduling ---------------------------------------------------------------------------- */

static bool full_preempt_due(const Cpu *cpu, const Task *t)
{
    return cpu->need_resched && cpu->host->conf->sched.preempt == PREEMPT_FULL &&
           t->preempt_count == 0 && t->bh_disable_count == 0;
}

static bool must_switch(Cpu *cpu, Task *t)
{
    if (t->state == TASK_SLEEPING || t->yield_after_step)
        return true;
    if (!full_preempt_due(cpu, t))
        return false;
    t->nr_preempted++;
    return true;
}

static void tick_stop(Cpu *cpu)
{
    sim_cancel(cpu->sim, &cpu->tick);
}

/* __schedule(): put prev away (to sleep, or back on the queue), pick and switch to next. */
static void cpu_schedule(Cpu *cpu)
{
    Task *prev = cpu->curr;
    sched_sync(cpu);
    if (prev && prev->state == TASK_SLEEPING)
        rq_dequeue_sleep(&cpu->rq, prev);
    else if (prev)
        prev->state = TASK_RUNNABLE;
    if (prev) {
        prev->yield_after_step = false;
        prev->exec_start = sim_now(cpu->sim); /* put_prev_entity -> update_curr */
    }
    cpu->need_resched = false;
    Task *next = rq_pick_next(&cpu->rq);
    if (!next && prev && newidle_balance(cpu))
        next = rq_pick_next(&cpu->rq);
    if (next != prev)
        SIM_LOG(cpu->host, LOG_SCHED, cpu, "sched_switch", "prev=%s prev_state=%s next=%s",
                prev ? prev->name : "idle",
                !prev ? "-" : prev->state == TASK_SLEEPING ? "S" : "R", next ? next->name : "idle");
    rq_set_curr(&cpu->rq, next);
    cpu->curr = next;
    if (!next) {
        set_mode(cpu, CPU_IDLE);
        idle_enter(cpu);
        tick_stop(cpu);
        if (cpu->softirq_wanted && softirq_has_work(&cpu->softirq))
            kick(cpu); /* raised while the last task had BH disabled */
        return;
    }
    next->state = TASK_RUNNING;
    if (next != prev)
        next->nr_switches++;
    tick_arm(cpu);
    sim_time_t switch_ns = cpu->balance_ns; /* load-balancing pulls into this CPU */
    cpu->balance_ns = 0;
    if (next == cpu->last_ran && switch_ns == 0) {
        run_step(cpu);
        return;
    }
    if (next != cpu->last_ran) {
        cpu->last_ran = next;
        cpu->ctx_switches++;
        sim_time_t cost = host_cost(cpu->host, COST_CTX_SWITCH);
        switch_ns += cost;
        cpu->profile_ns[COST_CTX_SWITCH] += cost;
    }
    set_mode(cpu, CPU_SWITCH);
    sim_schedule_in(cpu->sim, &cpu->ev, switch_ns);
}

/* stack.softirq.defer_to_ksoftirqd, 4.9-6.4: ksoftirqd_running() - while ksoftirqd/N is
 * runnable (task_is_running), invoke_softirq() at irq_exit and do_softirq() at local_bh_enable
 * return without running the pending softirqs: ksoftirqd runs them when it is scheduled
 * (4cd13c21b207 "softirq: Let ksoftirqd do its job", reverted by d15121be7485). */
static bool softirq_left_to_ksoftirqd(const Cpu *cpu)
{
    const StackConf *st = cpu->host->stack;
    return st && st->softirq_defer_to_ksoftirqd && cpu->ksoftirqd.state != TASK_SLEEPING;
}

static bool softirq_may_run(const Cpu *cpu)
{
    return cpu->softirq_wanted && softirq_has_work(&cpu->softirq) &&
           (!cpu->curr || cpu->curr->bh_disable_count == 0) && !softirq_left_to_ksoftirqd(cpu);
}

static void cpu_dispatch(Cpu *cpu)
{
    Task *t = cpu->curr;
    if (softirq_may_run(cpu)) {
        softirq_start(cpu);
        return;
    }
    cpu->softirq_wanted = cpu->softirq_wanted && softirq_has_work(&cpu->softirq);
    if (t && t->in_step) {
        resume_step(cpu);
        return;
    }
    if (!t || must_switch(cpu, t)) {
        cpu_schedule(cpu);
        return;
    }
    run_step(cpu);
}

static void cpu_fire(Sim *sim, void *ctx)
{
    Cpu *cpu = ctx;
    switch (cpu->mode) {
    case CPU_TASK:
        piece_end(cpu);
        cpu->curr->in_step = false;
        break;
    case CPU_SOFTIRQ:
        softirq_continue(cpu);
        return;
    default: /* end of a context switch, or a kick */
        break;
    }
    cpu_dispatch(cpu);
}

/* ---- tasks --------------------------------------------------------------------------------- */

bool cpu_allowed(const CpuList *allowed, uint32_t i)
{
    if (!allowed || allowed->n == 0)
        return true;
    for (uint32_t k = 0; k < allowed->n; k++)
        if (allowed->cpu[k] == i)
            return true;
    return false;
}

void task_init(Task *t, Host *h, const char *name, TaskStepFn step, void *ctx,
               const CpuList *allowed)
{
    Cpu *best = NULL;
    for (uint32_t i = 0; i < h->ncpus; i++)
        if (cpu_allowed(allowed, i) && (!best || h->cpus[i]->nr_tasks < best->nr_tasks))
            best = h->cpus[i];
    g_assert(best);
    *t = (Task){ .step = step, .ctx = ctx, .host = h, .cpu = best, .state = TASK_NEW,
                 .exec_start = -1 };
    if (allowed)
        t->allowed = *allowed;
    g_strlcpy(t->name, name, sizeof t->name);
    best->nr_tasks++;
}

/* check_preempt_curr(): a task just joined cpu's queue. With no current task the CPU runs the
 * idle task, which is always rescheduled (kernel/sched/idle.c check_preempt_curr_idle ->
 * resched_curr(rq), 2.6.23+; wakeup_preempt_idle since 6.7): need_resched is set even while an
 * interrupt's softirq runs on the idle CPU, so that __do_softirq does not restart its loop
 * (`time_before(jiffies, end) && !need_resched() && --max_restart`, kernel/softirq.c) and the
 * idle loop calls schedule_idle() once the interrupt returns (kernel/sched/idle.c do_idle). */
void check_preempt(Cpu *cpu, Task *t)
{
    if (!cpu->curr) {
        cpu->need_resched = true;
        if (cpu->mode == CPU_IDLE)
            kick_idle(cpu);
        return;
    }
    /* check_preempt_wakeup() returns before its test when curr already has TIF_NEED_RESCHED
     * ("We can come here with TIF_NEED_RESCHED already set", kernel/sched/fair.c since 2008,
     * aec0a5142cb5): a second wake-up before the switch marks no buddy, so under CFS the first
     * preempting wakee stays the next buddy and curr's last-buddy mark is not renewed. */
    if (cpu->need_resched)
        return;
    if (rq_wakeup_preempt(&cpu->rq, t))
        cpu->need_resched = true;
}

void task_start(Task *t)
{
    g_assert(t->state == TASK_NEW);
    Cpu *cpu = t->cpu;
    sched_sync(cpu);
    rq_enqueue_new(&cpu->rq, t);
    t->state = TASK_RUNNABLE;
    check_preempt(cpu, t);
}

void task_sleep(Task *t)
{
    g_assert(t->cpu->curr == t && t->cpu->acting == ACT_TASK);
    t->state = TASK_SLEEPING;
}

/* idle_cpu(): no task running or queued. A CPU busy with an interrupt or softirq taken while
 * idle still counts as idle, as in the kernel (its current task is the idle task). */
bool cpu_idle_for_wakeup(const Cpu *cpu)
{
    return !cpu->curr && rq_nr_runnable(&cpu->rq) == 0 && cpu->ttwu_pending == 0;
}

/* set_task_cpu(): t leaves its CPU for to, sleeping (wake-up placement: rq_migrate, then the
 * caller enqueues it) or queued and not running (load balancing: rq_migrate_queued). Both run
 * queues are brought up to date first (update_curr on each). */
void task_move(Task *t, Cpu *to)
{
    Cpu *from = t->cpu;
    sched_sync(from);
    sched_sync(to);
    if (t->on_rq)
        rq_migrate_queued(&from->rq, &to->rq, t);
    else
        rq_migrate(&from->rq, &to->rq, t);
    from->nr_tasks--;
    to->nr_tasks++;
    t->cpu = to;
    t->nr_migrations++;
}

/* select_task_rq_fair() reduced to select_idle_sibling() over one cache domain (the host): the
 * previous CPU if idle, else the first idle CPU the task may run on, scanning upwards from the
 * previous one (so the choice is deterministic), else the previous CPU. Not modelled: wake_affine
 * (pulling the wakee to the waker's CPU), 2.6.2x wake_idle()'s rule of staying put when the
 * previous CPU already has two tasks, and the cache-cold start on the new CPU (the move is free).
 * Runnable tasks move later by load balancing (hosts.H.sched.load_balance, cpu_balance.c). */
static Cpu *select_wake_cpu(Task *t)
{
    Cpu *prev = t->cpu;
    Host *h = t->host;
    if (!h->conf || !h->conf->sched.wake_idle || cpu_idle_for_wakeup(prev))
        return prev;
    for (uint32_t k = 1; k < h->ncpus; k++) {
        Cpu *c = h->cpus[(prev->index + k) % h->ncpus];
        if (!cpu_allowed(&t->allowed, c->index) || !cpu_idle_for_wakeup(c))
            continue;
        task_move(t, c);
        return c;
    }
    return prev;
}

/* The enqueue half of try_to_wake_up, on the CPU placement chose: the run queue, wake-up
 * preemption. */
static void task_wake_enqueue(Task *t, Cpu *cpu, Cpu *waker)
{
    SIM_LOG(t->host, LOG_SCHED, waker, "sched_wakeup", "task=%s target_cpu=%u", t->name, cpu->index);
    newidle_note_wakeup(cpu);
    sched_sync(cpu);
    rq_enqueue_wakeup(&cpu->rq, t);
    t->state = TASK_RUNNABLE;
    check_preempt(cpu, t);
}

static void task_wake_fire(Sim *sim, void *ctx)
{
    (void)sim;
    Task *t = ctx;
    g_assert(t->state == TASK_WAKING && t->cpu->ttwu_pending > 0);
    t->cpu->ttwu_pending--;
    task_wake_enqueue(t, t->cpu, t->wake_by);
}

/* Placement happens at the wake-up, as in try_to_wake_up. The waker acts, then charges: a task
 * placed on another CPU joins that run queue where the wake-up ends in the waker's work (after
 * COST_WAKEUP), not at the start of the waker's step, and can start no earlier. Placed on the
 * waker's own CPU it joins at once: that CPU is busy with the waker's step until then anyway, and
 * need_resched must be set before the step's later decisions (a cond_resched() after the
 * sk_data_ready that woke it, as in __release_sock). */
void task_wake(Task *t, Cpu *waker)
{
    if (t->state != TASK_SLEEPING)
        return;
    if (waker)
        cpu_charge_cost(waker, COST_WAKEUP);
    if (t->on_rq && !t->sched_delayed) {
        t->state = TASK_RUNNING; /* woken before its sleep took effect: it keeps running */
        return;
    }
    /* ttwu_runnable(): a delayed sleeper is still queued, and is requeued where it is */
    Cpu *cpu = t->sched_delayed ? t->cpu : select_wake_cpu(t);
    Sim *sim = t->host->sim;
    sim_time_t at = cpu_acted_at(waker);
    if (cpu == waker || at <= sim_now(sim)) {
        task_wake_enqueue(t, cpu, waker);
        return;
    }
    if (!t->wake_ev.fire)
        sim_event_init(&t->wake_ev, task_wake_fire, t, EVK_TASK_WAKE, (uint32_t)t->host->id << 16);
    t->state = TASK_WAKING;
    t->wake_by = waker;
    cpu->ttwu_pending++; /* idle_cpu() counts rq->ttwu_pending: the CPU is no longer idle */
    sim_schedule_at(sim, &t->wake_ev, at);
}

void task_fini(Task *t)
{
    if (sim_event_pending(&t->wake_ev)) {
        sim_cancel(t->host->sim, &t->wake_ev);
        t->cpu->ttwu_pending--;
        t->state = TASK_SLEEPING;
    }
}

static bool may_resched_now(const Task *t)
{
    g_assert(t->cpu->curr == t && t->cpu->acting == ACT_TASK);
    return t->cpu->need_resched && t->preempt_count == 0 && t->bh_disable_count == 0;
}

static bool yield_now(Task *t)
{
    t->yield_after_step = true;
    t->nr_yields++;
    SIM_EVENT(t->host, LOG_SCHED, t->cpu, NULL, "cond_resched", "task=%s", t->name);
    return true;
}

bool task_need_resched(const Task *t)
{
    return t->cpu->need_resched;
}

bool task_cond_resched(Task *t)
{
    if (t->host->conf->sched.preempt == PREEMPT_FULL || !may_resched_now(t))
        return false;
    return yield_now(t);
}

bool task_might_resched(Task *t)
{
    if (t->host->conf->sched.preempt != PREEMPT_VOLUNTARY || !may_resched_now(t))
        return false;
    return yield_now(t);
}

bool task_return_to_user(Task *t)
{
    g_assert(t->cpu->curr == t && t->cpu->acting == ACT_TASK);
    if (!t->cpu->need_resched)
        return false;
    t->yield_after_step = true;
    t->nr_preempted++;
    return true;
}

void task_preempt_disable(Task *t)
{
    t->preempt_count++;
}

void task_preempt_enable(Task *t)
{
    g_assert(t->preempt_count > 0);
    t->preempt_count--;
}

void task_bh_disable(Task *t)
{
    t->bh_disable_count++;
}

void task_bh_enable(Task *t)
{
    g_assert(t->bh_disable_count > 0);
    Cpu *cpu = t->cpu;
    if (--t->bh_disable_count > 0 || t == &cpu->ksoftirqd)
        return;
    if (softirq_has_work(&cpu->softirq) && !softirq_active(&cpu->softirq))
        cpu->softirq_wanted = true; /* runs before the task's next step */
}

/* ---- softirq ------------------------------------------------------------------------------- */

void softirq_work_init(SoftirqWork *w, SoftirqKind kind, SoftirqRunFn run, void *ctx)
{
    *w = (SoftirqWork){ .run = run, .ctx = ctx, .kind = kind };
}

/* A hard interrupt on cpu: take it now if the running context allows. */
static void cpu_interrupt(Cpu *cpu)
{
    switch (cpu->mode) {
    case CPU_IDLE:
        kick_idle(cpu);
        break;
    case CPU_TASK:
        if (cpu->acting == ACT_NONE && cpu->curr->bh_disable_count == 0)
            interrupt_step(cpu);
        break;
    default: /* kick pending, context switch, or a finishing softirq: dispatch will see it */
        break;
    }
}

/* irq_exit(): pending softirq work runs now unless a __do_softirq is already running here (an
 * interrupt inside softirq or inside ksoftirqd's run leaves it to that run). Since the 2023
 * revert of 4cd13c21b207 this does not depend on ksoftirqd being runnable; 4.9-6.4 kernels
 * (stack.softirq.defer_to_ksoftirqd) leave it to a runnable ksoftirqd. */
static void irq_exit_softirq(Cpu *cpu)
{
    if (!softirq_has_work(&cpu->softirq) || softirq_active(&cpu->softirq) ||
        softirq_left_to_ksoftirqd(cpu))
        return;
    cpu->softirq_wanted = true;
    cpu_interrupt(cpu);
}

void cpu_raise_softirq(Cpu *cpu, SoftirqWork *w)
{
    if (!cpu) {
        while (w->run(w, NULL))
            ;
        return;
    }
    if (softirq_enqueue(&cpu->softirq, w))
        irq_exit_softirq(cpu);
}
