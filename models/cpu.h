/* cpu.h - CPUs, tasks and softirqs: where every piece of modelled work spends CPU time.
 *
 * Execution model
 * ---------------
 * A CPU runs one context at a time: its softirq context, its current task, or nothing (idle).
 * Work is "act, then charge": model code runs instantaneously in simulated time, says what it
 * cost with cpu_charge(), and the context is then busy for that long before it may act again.
 * What leaves the step is held to the charge: an skb handed to a NIC carries cpu_acted_at(), the
 * end of what its step had charged by then, and does not go on the wire before it (link.c); a
 * task woken onto another CPU joins that run queue at cpu_acted_at() too (task_wake). Decisions
 * inside a step (a cond_resched() after a wake-up on the same CPU) still see its state at the
 * step's start.
 *
 * Tasks (application threads, ksoftirqd) are state machines. task->step(t) is called whenever
 * the task is current on its CPU and its previous charge has elapsed. A step does one piece of
 * work (a few microseconds at most) and then either charges its cost (step is called again
 * afterwards) or calls task_sleep() (step is called again once it is woken and scheduled).
 * Long kernel paths (release_sock draining a backlog, tcp_sendmsg copying 64 KB) are resumable
 * operations over several steps whose state lives in the socket, never on the C stack.
 *
 * Preemption follows the kernel's models (hosts.H.sched.preempt):
 *   none/voluntary - a task switches only at explicit points: task_cond_resched() when
 *                    need_resched is set, task_sleep(), and task_return_to_user();
 *   full           - additionally at the end of any step while need_resched is set, unless the
 *                    task is inside task_preempt_disable()/task_bh_disable() sections.
 * need_resched is set by wake-up preemption and by the scheduler tick (slice used up), per the
 * host's CFS or EEVDF parameters (models/sched.c). A task that yields keeps every socket it owns.
 *
 * Softirq: cpu_raise_softirq() is the hard interrupt. If the CPU is idle, or runs a task with
 * bottom halves enabled, the softirq context starts at once; the interrupted step's remaining
 * time resumes when softirq is done ("softirq steals the task's time"). Softirq work items are
 * run one unit at a time (one packet, one timer) under the kernel's limits: NAPI weight 64 per
 * poll, netdev_budget packets and netdev_budget_usecs per net_rx_action, MAX_SOFTIRQ_TIME (2 ms)
 * and MAX_SOFTIRQ_RESTART (10) per __do_softirq; past them the rest goes to ksoftirqd/N, a task
 * that competes in the scheduler like any other.
 *
 * For unit tests without a host, a NULL Cpu is accepted: cpu_charge(NULL, ...) does nothing and
 * cpu_raise_softirq(NULL, w) runs w at once until it has no more work.
 */
#ifndef SKSIM_CPU_H
#define SKSIM_CPU_H

#include <stdbool.h>
#include <stdint.h>

#include "models/host.h"
#include "sim/sim.h"

typedef struct Task Task;
typedef void (*TaskStepFn)(Task *t);

/* TASK_WAKING: woken and placed, joining that run queue once the waker's work up to the wake-up
 * has run (task_wake). */
typedef enum { TASK_NEW, TASK_RUNNABLE, TASK_RUNNING, TASK_SLEEPING, TASK_WAKING } TaskState;

struct Task {
    /* public: set by task_init */
    char name[32];
    TaskStepFn step;
    void *ctx;
    Host *host;
    /* read-only for models */
    Cpu *cpu;              /* the CPU whose run queue it is on (changes at wake-up, and by
                            * load balancing while it waits on a queue) */
    CpuList allowed;       /* CPUs it may run on (n == 0: any) */
    TaskState state;
    sim_time_t runtime_ns; /* CPU time consumed by its steps (sum_exec_runtime); with
                            * hosts.H.sched.irq_time_accounting false, plus the softirq time
                            * taken while it was current */
    uint64_t nr_switches;  /* times it was switched in */
    uint64_t nr_yields;    /* task_cond_resched() calls that yielded */
    uint64_t nr_preempted; /* involuntary switches (full preemption, return to user) */
    uint64_t nr_migrations; /* moves to another CPU: wake-up placement (hosts.H.sched.wake_idle)
                             * and load-balancing pulls (hosts.H.sched.load_balance) */
    /* private to cpu.c / sched.c */
    uint64_t vruntime;     /* weighted ns, CFS/EEVDF */
    uint64_t deadline;     /* EEVDF virtual deadline */
    int64_t vlag;          /* EEVDF lag saved at sleep; while current, the RUN_TO_PARITY stash */
    sim_time_t slice_start;
    sim_time_t exec_start; /* se.exec_start as load balancing reads it (task_hot): when it last
                            * stopped running; -1 = it never ran (cache-cold) */
    sim_time_t remaining;  /* of the interrupted or pending step */
    struct Task *rq_next, *rq_prev; /* the run queue's list, in enqueue order */
    struct {
        struct Task *left, *right, *min; /* the run queue's tree (models/rqtree.h) */
        uint64_t seq, prio;
    } rqt;
    SimEvent wake_ev;      /* a wake-up that has not taken effect yet (TASK_WAKING) */
    struct Cpu *wake_by;   /* ... and the CPU whose work made it (for the event log) */
    int preempt_count;
    int bh_disable_count;
    bool yield_after_step;
    bool on_rq;
    bool sched_delayed;    /* asleep but still queued (EEVDF DELAY_DEQUEUE, models/sched.c) */
    bool in_step;
};

/* ---- CPUs ---- */
/* h->sim, h->conf, h->hz and h->ncpus must be set; each CPU gets its run queue (the host's
 * sched conf) and its ksoftirqd/N. Free the CPUs before the Sim. */
Cpu *cpu_new(Host *h, uint32_t index);
void cpu_free(Cpu *cpu);
uint32_t cpu_index(const Cpu *cpu);
Host *cpu_host(const Cpu *cpu);
/* Add CPU time to whatever context is executing on cpu right now (a task step or a softirq
 * unit). Outside any context it is an error. cpu may be NULL (no-op). */
void cpu_charge(Cpu *cpu, sim_time_t ns);
/* When the acting context's work so far ends: now plus what it has charged in this step (now
 * for a NULL Cpu). What a step sends cannot leave the host before this. */
sim_time_t cpu_acted_at(const Cpu *cpu);
/* cpu_charge for operation id of the cost table: the CPU's profile (CpuStats.profile_ns) books
 * the time to id. cpu_charge_cost charges the table's price for one operation. */
void cpu_charge_op(Cpu *cpu, CostId id, sim_time_t ns);
void cpu_charge_cost(Cpu *cpu, CostId id);
bool cpu_in_softirq(const Cpu *cpu);
Task *cpu_current(const Cpu *cpu);      /* the task running or interrupted, NULL when idle */
bool cpu_need_resched(const Cpu *cpu);
Task *cpu_ksoftirqd(Cpu *cpu);           /* ksoftirqd/N of this CPU (for stats and tests) */
/* For the event log and the trace (models/observe.c): the CPU of h executing model code right
 * now (a task step or a softirq unit), or NULL; what runs on cpu: "softirq", its current task's
 * name, or "idle". */
Cpu *cpu_acting(const Host *h);
const char *cpu_context_name(const Cpu *cpu);

typedef struct CpuStats {
    sim_time_t task_ns;        /* running task steps */
    sim_time_t softirq_ns;     /* softirq context (not ksoftirqd) */
    sim_time_t ctx_switch_ns;
    sim_time_t idle_ns;        /* task + softirq + ctx_switch + idle == elapsed time */
    uint64_t ctx_switches;
    uint64_t softirq_runs;     /* inline __do_softirq runs (ksoftirqd's not counted) */
    uint64_t ksoftirqd_wakeups;
    sim_time_t profile_ns[COST_COUNT]; /* the busy time booked per cost-table row, when charged
                                          (cpu_charge_op; context switches, load-balancing pulls) */
} CpuStats;
CpuStats cpu_stats(const Cpu *cpu); /* up to now */

/* ---- tasks ---- */
/* allowed: the CPUs it may run on (NULL or empty: any); it is placed on the first allowed CPU
 * with the fewest tasks; it moves only within allowed (wake-up placement, load balancing). */
void task_init(Task *t, Host *h, const char *name, TaskStepFn step, void *ctx,
               const CpuList *allowed);
void task_start(Task *t);              /* make runnable now */
void task_sleep(Task *t);              /* from inside its step: block when the step ends */
/* From any context (softirq, another task's step, an event): make t runnable; the waker's CPU
 * (may be NULL) is charged COST_WAKEUP; wake-up preemption may set need_resched on t's CPU.
 * Placed on another CPU than the waker's, t joins that run queue at cpu_acted_at(waker), the end
 * of the waker's work up to and including the wake-up (TASK_WAKING until then). Waking a task
 * that is not sleeping does nothing. */
void task_wake(Task *t, Cpu *waker);
/* Before t's memory is freed: cancel a wake-up still pending in the event queue. */
void task_fini(Task *t);
/* Voluntary preemption point (cond_resched): true if the task will yield at the end of this
 * step (need_resched set and preempt model none/voluntary). The caller then returns from its
 * step; it keeps its state and continues where it was when it runs again. */
bool task_cond_resched(Task *t);
/* should_resched() as seen from t's step: need_resched is set on t's CPU. */
bool task_need_resched(const Task *t);
/* might_sleep() point (lock_sock and other sleeping primitives): under CONFIG_PREEMPT_VOLUNTARY
 * it is a cond_resched() (might_resched), under none and full it does nothing. Same contract as
 * task_cond_resched. */
bool task_might_resched(Task *t);
/* Return to user space at the end of a syscall: yields if need_resched, in every model. */
bool task_return_to_user(Task *t);
void task_preempt_disable(Task *t);
void task_preempt_enable(Task *t);
void task_bh_disable(Task *t);
void task_bh_enable(Task *t);          /* pending softirq runs before the task's next step */

/* ---- softirq ---- */
/* SOFTIRQ_TASKLET: TASKLET_SOFTIRQ (bit 6, after NET_RX), where the TSQ handler runs. */
typedef enum {
    SOFTIRQ_TIMER,
    SOFTIRQ_NET_RX,
    SOFTIRQ_NET_TX,
    SOFTIRQ_TASKLET,
    SOFTIRQ_NR
} SoftirqKind;

typedef struct SoftirqWork SoftirqWork;
/* Do ONE unit of work (one packet, one timer handler), charge it with cpu_charge(), and return
 * true if more work remains (the item is then polled again, after any other pending item).
 * For NET_RX items w->polled is the number of units already done in this napi_poll turn
 * (0 = the first unit of a poll, where COST_NAPI_POLL belongs); a turn ends when its work
 * (SoftirqWork.work) reaches napi_weight or when run returns false. cpu_in_softirq() is true inside run, also in ksoftirqd. */
typedef bool (*SoftirqRunFn)(SoftirqWork *w, Cpu *cpu);
/* NET_RX only, optional: the poll turn that just ended used its whole weight and the NAPI stays
 * scheduled (the tail of __napi_poll(), before the repoll); called in the same softirq context
 * as run, which may charge. */
typedef void (*SoftirqRepollFn)(SoftirqWork *w, Cpu *cpu);

struct SoftirqWork {
    SoftirqRunFn run;
    void *ctx;
    SoftirqKind kind;
    SoftirqRepollFn repoll; /* NULL unless set after softirq_work_init */
    /* NET_RX: what counts against the NAPI weight and netdev_budget. By default every unit;
     * with own_work set, run adds to `work` itself (a NIC poll: received frames, not TX
     * completions, as drivers report to __napi_poll), and may set it to the weight to end the
     * turn (a driver returning its whole budget). */
    bool own_work;
    uint32_t work;   /* in the current poll turn */
    /* private */
    SoftirqWork *next;
    bool queued;
    uint32_t polled; /* units done in the current poll turn */
};

void softirq_work_init(SoftirqWork *w, SoftirqKind kind, SoftirqRunFn run, void *ctx);
/* Queue w on cpu (no-op if already queued) and interrupt the CPU if it can take it now. */
void cpu_raise_softirq(Cpu *cpu, SoftirqWork *w);

#endif
