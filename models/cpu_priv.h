/* cpu_priv.h - private to the CPU executor: only cpu*.c may include it (cpu.c, cpu_balance.c;
 * cpuidle.c, the C-state governor, needs none of it). The rest of the simulator sees only
 * models/cpu.h, where Cpu is opaque.
 *
 * The CPU's state, and the few functions the two files share: the scheduling helpers of cpu.c
 * that load balancing uses, and the balancing hooks cpu.c calls from __schedule(), the wake-up
 * and the tick (cpu_balance.c).
 */
#ifndef SKSIM_CPU_PRIV_H
#define SKSIM_CPU_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include "models/cpu.h"
#include "models/sched.h"
#include "models/softirq.h"

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
    uint32_t nr_balance_failed; /* its domain's sd->nr_balance_failed: periodic passes in a row
                                 * that found an imbalance and moved nothing */
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

/* cpu.c */

/* True if CPU i is in the affinity list (an empty or NULL list allows every CPU). */
bool cpu_allowed(const CpuList *allowed, uint32_t i);
/* idle_cpu(): no task running, queued or about to be woken onto cpu. */
bool cpu_idle_for_wakeup(const Cpu *cpu);
/* check_preempt_curr(): t just joined cpu's queue; may set need_resched or wake the idle CPU. */
void check_preempt(Cpu *cpu, Task *t);
/* set_task_cpu(): t, sleeping or queued and not running, moves to the CPU to. */
void task_move(Task *t, Cpu *to);

/* cpu_balance.c */

/* newidle balance from cpu_schedule() on an empty queue: true if a task was pulled onto cpu. */
bool newidle_balance(Cpu *cpu);
/* A wake-up onto cpu ends the idle spell newidle_balance stamped (sched.newidle_avg_idle). */
void newidle_note_wakeup(Cpu *cpu);
/* The tick's balancing on cpu: its periodic pass, then the nohz pass for idle CPUs. */
void tick_balance(Cpu *cpu);

#endif
