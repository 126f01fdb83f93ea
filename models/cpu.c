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
 */
#include "models/cpu.h"

#include <glib.h>
#include <stdio.h>
#include <string.h>

#include "models/cpuidle.h"
#include "models/observe.h"
#include "models/sched.h"
#include "models/softirq.h"
#include "sim/evkind.h"
#include "sim/ktimer.h"

typedef enum { CPU_IDLE, CPU_KICK, CPU_TASK, CPU_SOFTIRQ, CPU_SWITCH } CpuMode;
typedef enum { ACT_NONE, ACT_TASK, ACT_SOFTIRQ } CpuActing;
enum { BUCKET_IDLE, BUCKET_TASK, BUCKET_SOFTIRQ, BUCKET_SWITCH, BUCKET_N };

struct Cpu {
    Host *host;
    Sim *sim;
    uint32_t index;
    SimEvent ev;               /* end of the current charge, or a kick */
    SimEvent tick;
    CpuMode mode;
    CpuActing acting;          /* model code of this CPU's context is running right now */
    sim_time_t pending_ns;     /* what the acting context has charged so far */
    sim_time_t profile_ns[COST_COUNT]; /* CpuStats.profile_ns */
    bool softirq_wanted;       /* an interrupt / bh_enable asked for inline softirq */
    bool softirq_ending;       /* the softirq run is over; its last charge is elapsing */
    bool need_resched;
    Task *curr;
    Task *last_ran;
    uint32_t nr_tasks;         /* tasks placed here by task_init (ksoftirqd not counted) */
    sim_time_t exec_start;     /* start of curr's running piece (mode CPU_TASK; CPU_SOFTIRQ
                                * when irq_owner is set) */
    uint32_t ttwu_pending;     /* tasks placed here whose wake-up has not taken effect yet */
    Task *irq_owner;           /* without IRQ time accounting: the task the softirq run in
                                * progress is charged to (curr when it started); else NULL */
    sim_time_t sched_pending_ns; /* curr's run time not yet given to the scheduler */
    sim_time_t next_balance;   /* periodic balancing: earliest next pass (rq->next_balance) */
    sim_time_t avg_idle_ns;    /* rq->avg_idle (sched.newidle_avg_idle) */
    sim_time_t idle_stamp;     /* rq->idle_stamp: when it last went newly idle, or -1 */
    sim_time_t balance_ns;     /* COST_LB_PULL of pulls into this CPU, paid at its next switch */
    RunQueue rq;
    SoftirqEngine softirq;
    Task ksoftirqd;
    sim_time_t mark;           /* time of the last bucket update */
    sim_time_t idle_since;     /* when the CPU last went idle */
    sim_time_t last_idle_ns;   /* length of its last idle period: the governor's prediction */
    sim_time_t idle_exit_ns;   /* exit latency of the C-state it idles in (sched.cpuidle) */
    sim_time_t bucket[BUCKET_N];
    uint64_t ctx_switches;
};

static void cpu_fire(Sim *sim, void *ctx);
static void tick_fire(Sim *sim, void *ctx);
static void cpu_dispatch(Cpu *cpu);
static bool newidle_balance(Cpu *cpu);
static void newidle_note_wakeup(Cpu *cpu);
/* sysctl_sched_migration_cost: 0.5 ms in every kernel since 2.6.2x (kernel/sched/fair.c) */
#define SCHED_MIGRATION_COST_NS (500 * SIM_US)
static void tick_balance(Cpu *cpu);
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
    cpu->avg_idle_ns = 2 * SCHED_MIGRATION_COST_NS; /* sched_init: 2 * migration cost */
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
    if (prev)
        prev->yield_after_step = false;
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

static bool cpu_allowed(const CpuList *allowed, uint32_t i)
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
    *t = (Task){ .step = step, .ctx = ctx, .host = h, .cpu = best, .state = TASK_NEW };
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
static void check_preempt(Cpu *cpu, Task *t)
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
static bool cpu_idle_for_wakeup(const Cpu *cpu)
{
    return !cpu->curr && rq_nr_runnable(&cpu->rq) == 0 && cpu->ttwu_pending == 0;
}

/* set_task_cpu(): t leaves its CPU for to, sleeping (wake-up placement: rq_migrate, then the
 * caller enqueues it) or queued and not running (load balancing: rq_migrate_queued). Both run
 * queues are brought up to date first (update_curr on each). */
static void task_move(Task *t, Cpu *to)
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
 * Runnable tasks move later by load balancing (hosts.H.sched.load_balance, below). */
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
 * Simplified: no PELT load or utilisation, no imbalance types or migration_type (one task per
 * pull whatever the gap), no cache-hot refusal (task_hot(), sysctl_sched_migration_cost 0.5 ms,
 * cache_nice_tries), the avg_idle gate of 2.6.33-5.15 only with sched.newidle_avg_idle, no
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

static Task *lb_pick_task(const Cpu *src, const Cpu *dst)
{
    uint32_t looked = 0;
    for (Task *p = src->rq.head; p && looked < LB_NR_MIGRATE; p = p->rq_next, looked++)
        if (lb_can_migrate(src, p, dst))
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

/* find_busiest_queue(): the CPU of highest load, at least min_load, with a task dst may take.
 * Only a waiting task can be taken: with none on the host the scan is skipped, as the kernel's
 * newidle_balance() returns at once while the root domain is not overloaded (rd->overload). */
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
        Task *t = lb_pick_task(c, dst);
        if (!t)
            continue;
        best = c;
        best_load = load;
        *task = t;
    }
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
static bool newidle_balance(Cpu *cpu)
{
    if (!lb_enabled(cpu->host))
        return false;
    bool gate = cpu->host->conf->sched.newidle_avg_idle;
    if (gate) {
        cpu->idle_stamp = sim_now(cpu->sim);
        if (cpu->avg_idle_ns < SCHED_MIGRATION_COST_NS)
            return false;
    }
    Task *t = NULL;
    Cpu *src = lb_find_busiest(cpu, 2, &t);
    if (!src)
        return false;
    lb_pull(cpu, src, t, "newidle", false);
    cpu->idle_stamp = -1;
    return true;
}

/* ttwu_do_wakeup (2.6.33-5.15): a wake-up ends the idle spell stamped by newidle_balance; its
 * length goes into avg_idle (update_avg: 1/8 of the difference), a spell over 2 x the migration
 * cost setting it to that cap (3.4's form). */
static void newidle_note_wakeup(Cpu *cpu)
{
    if (cpu->idle_stamp < 0)
        return;
    sim_time_t delta = sim_now(cpu->sim) - cpu->idle_stamp, max = 2 * SCHED_MIGRATION_COST_NS;
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
    if (src)
        lb_pull(cpu, src, t, why, true);
}

/* The tick's share (cpu has a current task): its own periodic pass, then, if it has a waiting
 * task, the nohz idle balance on behalf of the idle CPUs, lowest index first. */
static void tick_balance(Cpu *cpu)
{
    if (!lb_enabled(cpu->host))
        return;
    rebalance(cpu, true, "periodic");
    const Host *h = cpu->host;
    for (uint32_t i = 0; i < h->ncpus && lb_load(cpu) >= 2; i++)
        if (h->cpus[i] != cpu && cpu_idle_for_wakeup(h->cpus[i]))
            rebalance(h->cpus[i], false, "nohz");
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
