/* test_sched.c - the fair-class run queue through the executor: CFS slices and tick
 * preemption, CFS wake-up preemption at the wakeup_granularity boundary, EEVDF base-slice turns
 * and eligibility, RUN_TO_PARITY, DELAY_DEQUEUE (on a bare queue and through the executor's
 * wake-up path), and the CPU-count factor. Context-switch cost is set to 0 where
 * the arithmetic wants turns aligned with ticks. */
#include <glib.h>
#include <string.h>

#include "models/cpu.h"
#include "models/sched.h"
#include "models/sock_test_util.h"

#define MAX_TURNS 64

/* A log of turns: who ran from when (a turn starts when a different task's step runs). */
typedef struct {
    int n;
    char who[MAX_TURNS];
    sim_time_t start[MAX_TURNS];
} Turns;

/* A CPU-bound user task: each step is 100 us of user code, preceded by the return-to-user
 * preemption point (user mode is preemptible in every model). */
typedef struct {
    Task t;
    char name;
    Turns *turns;
} Hog;

static void log_turn(Turns *turns, char who, sim_time_t now)
{
    if (turns->n > 0 && turns->who[turns->n - 1] == who)
        return;
    if (turns->n < MAX_TURNS) {
        turns->who[turns->n] = who;
        turns->start[turns->n] = now;
    }
    turns->n++;
}

static void hog_step(Task *t)
{
    Hog *h = t->ctx;
    if (task_return_to_user(t))
        return;
    log_turn(h->turns, h->name, sim_now(t->host->sim));
    cpu_charge(t->cpu, 100 * SIM_US);
}

static void hog_init(Hog *h, TestHost *th, char name, Turns *turns)
{
    *h = (Hog){ .name = name, .turns = turns };
    char n[2] = { name, 0 };
    task_init(&h->t, &th->host, n, hog_step, h, NULL);
}

static TestHost *quiet_host(SchedPolicy policy)
{
    TestHost *th = test_host_new(1, 1000);
    th->conf.sched.policy = policy;
    th->conf.costs.ns[COST_CTX_SWITCH] = 0;
    th->conf.costs.ns[COST_WAKEUP] = 0;
    test_host_build(th);
    return th;
}

static void test_factor(void)
{
    /* 1 + ilog2(min(n, 8)) */
    g_assert_cmpuint(sched_tunable_factor(1), ==, 1);
    g_assert_cmpuint(sched_tunable_factor(2), ==, 2);
    g_assert_cmpuint(sched_tunable_factor(3), ==, 2);
    g_assert_cmpuint(sched_tunable_factor(4), ==, 3);
    g_assert_cmpuint(sched_tunable_factor(8), ==, 4);
    g_assert_cmpuint(sched_tunable_factor(64), ==, 4);
    SchedConf c = { .policy = SCHED_CFS, .latency_ns = 6 * SIM_MS, .base_slice_ns = 700 * SIM_US };
    RunQueue rq;
    rq_init(&rq, &c, 16, 1000);
    g_assert_cmpint(rq.latency_ns, ==, 24 * SIM_MS);
    g_assert_cmpint(rq.base_slice_ns, ==, 2800 * SIM_US);
}

/* CFS, 1 CPU (factor 1): latency 6 ms, slice = 6 / 2 = 3 ms.
 * START_DEBIT: A (started first, alone) gets 0 + slice(1) = 6 ms, B 0 + slice(2) = 3 ms: B
 * runs first. Tick preemption is "ran more than the slice" (strictly): at the 3 ms tick B has
 * run exactly 3 ms (and leads A by 6 - 6 = 0), so it goes at the 4 ms tick. A (6 ms) then runs
 * 4..8: at 7 ms it ran 3 ms and leads B (7 ms) by 2 ms < 3; at 8 ms 4 ms > 3. Steady state:
 * alternating 4 ms turns (slice rounded up past the next tick at HZ=1000). */
static void test_cfs_two_hogs_alternate(void)
{
    TestHost *th = quiet_host(SCHED_CFS);
    Turns turns = { 0 };
    Hog a, b;
    hog_init(&a, th, 'A', &turns);
    hog_init(&b, th, 'B', &turns);
    task_start(&a.t);
    task_start(&b.t);
    sim_run_until(th->sim, 40 * SIM_MS);
    g_assert_cmpint(turns.n, ==, 11); /* the 11th turn (B) starts at 40 ms */
    for (int i = 0; i < 11; i++) {
        g_assert_cmpint(turns.who[i], ==, i % 2 ? 'A' : 'B');
        g_assert_cmpint(turns.start[i], ==, i * 4 * SIM_MS);
    }
    g_assert_cmpint(a.t.runtime_ns, ==, 20 * SIM_MS);
    g_assert_cmpint(b.t.runtime_ns, ==, 20 * SIM_MS);
    g_assert_cmpint(a.t.nr_preempted, ==, 5);
    test_host_free(th);
}

/* ---- wake-up preemption ---- */

typedef struct {
    Task t;
    int runs;
    sim_time_t charge_ns;
} Nap;

static void nap_step(Task *t)
{
    Nap *n = t->ctx;
    n->runs++;
    cpu_charge(t->cpu, n->charge_ns);
    task_sleep(t);
}

typedef struct {
    SimEvent ev;
    Task *t;
    Cpu *cpu;
    bool resched_after;
    uint64_t curr_v, woken_v;
} WakeProbe;

static void wake_probe_fire(Sim *sim, void *ctx)
{
    WakeProbe *w = ctx;
    task_wake(w->t, NULL);
    w->resched_after = cpu_need_resched(w->cpu);
    w->curr_v = cpu_current(w->cpu)->vruntime;
    w->woken_v = w->t->vruntime;
}

/* CFS, factor 1, no switch cost. S started first (6 ms), then P (3 ms): P runs at 0 for 100 us
 * and sleeps with vruntime 3.1 ms; S runs from 100 us. At 2.15 ms S has run 2.05 ms (vruntime
 * 8.05 ms = min_vruntime); P is placed at max(3.1, 8.05 - 6/2) = 5.05 ms: curr - woken = 3 ms.
 * Preemption iff 3 ms > wakeup_granularity: granularity 3 ms -> no, 2.999 ms -> yes. */
static void run_wakeup(sim_time_t gran, bool expect_preempt)
{
    TestHost *th = test_host_new(1, 1000);
    th->conf.sched.policy = SCHED_CFS;
    th->conf.sched.wakeup_granularity_ns = gran;
    th->conf.costs.ns[COST_CTX_SWITCH] = 0;
    test_host_build(th);
    Turns turns = { 0 };
    Hog s;
    Nap p = { .charge_ns = 100 * SIM_US };
    hog_init(&s, th, 'S', &turns);
    task_init(&p.t, &th->host, "p", nap_step, &p, NULL);
    task_start(&s.t);
    task_start(&p.t);
    WakeProbe w = { .t = &p.t, .cpu = th->cpus[0] };
    sim_event_init(&w.ev, wake_probe_fire, &w, 0, 0);
    sim_schedule_at(th->sim, &w.ev, 2150 * SIM_US);
    sim_run_until(th->sim, 2300 * SIM_US);
    g_assert_cmpuint(w.curr_v, ==, 8050 * SIM_US);
    g_assert_cmpuint(w.woken_v, ==, 5050 * SIM_US);
    g_assert_cmpint(w.resched_after, ==, expect_preempt);
    /* Preempted: S yields at its next step (2.2 ms) and P runs its second time. */
    g_assert_cmpint(p.runs, ==, expect_preempt ? 2 : 1);
    test_host_free(th);
}

static void test_cfs_wakeup_no_preempt_at_granularity(void)
{
    run_wakeup(3 * SIM_MS, false);
}

static void test_cfs_wakeup_preempt_above_granularity(void)
{
    run_wakeup(3 * SIM_MS - 1, true);
}

/* EEVDF, factor 1, base_slice 3 ms, three hogs started at 0: each placed at V = 0 with a first
 * deadline half a slice away (1.5 ms, PLACE_DEADLINE_INITIAL). A runs; at the 2 ms tick its
 * vruntime 2 ms passed 1.5: new deadline 5 ms and resched. B and C (eligible, deadline 1.5) get
 * 2 ms each likewise. At 6 ms all have vruntime 2 ms, deadline 5 ms: A (first in queue order)
 * runs until vruntime 5 ms (the 9 ms tick): a 3 ms turn; then B 9..12, C 12..15, A 15..18...:
 * turns of exactly base_slice. */
static void test_eevdf_base_slice_turns(void)
{
    TestHost *th = test_host_new(1, 1000);
    th->conf.sched.policy = SCHED_EEVDF;
    th->conf.sched.base_slice_ns = 3 * SIM_MS;
    th->conf.costs.ns[COST_CTX_SWITCH] = 0;
    test_host_build(th);
    Turns turns = { 0 };
    Hog h[3];
    for (int i = 0; i < 3; i++) {
        hog_init(&h[i], th, (char)('A' + i), &turns);
        task_start(&h[i].t);
    }
    sim_run_until(th->sim, 30 * SIM_MS);
    static const sim_time_t start_ms[] = { 0, 2, 4, 6, 9, 12, 15, 18, 21, 24, 27, 30 };
    g_assert_cmpint(turns.n, ==, 12); /* the 12th (C) starts at 30 ms */
    for (int i = 0; i < 12; i++) {
        g_assert_cmpint(turns.who[i], ==, 'A' + i % 3);
        g_assert_cmpint(turns.start[i], ==, start_ms[i] * SIM_MS);
    }
    /* By 30 ms: A ran 0..2, 6..9, 15..18, 24..27 = 11 ms; B 2..4, 9..12, 18..21, 27..30 =
     * 11 ms; C 4..6, 12..15, 21..24 = 8 ms. */
    g_assert_cmpint(h[0].t.runtime_ns, ==, 11 * SIM_MS);
    g_assert_cmpint(h[1].t.runtime_ns, ==, 11 * SIM_MS);
    g_assert_cmpint(h[2].t.runtime_ns, ==, 8 * SIM_MS);
    test_host_free(th);
}

/* EEVDF RUN_TO_PARITY and eligibility, on a bare run queue (base_slice 3 ms, factor 1).
 * S is current (picked with deadline 3 ms, vruntime now 1 ms); X waits with vruntime 10 ms.
 * P wakes with a saved lag of 6 ms: V before = (1 + 10) / 2 = 5.5 ms, lag inflated to
 * 6 * 3 / 2 = 9 ms, so P.v = -3.5 ms and P.deadline = -0.5 ms. Then V = (1 + 10 - 3.5) / 3
 * = 2.5 ms: S (1 ms) and P are eligible, X is not. The earliest eligible deadline is P's, so
 * without protection P preempts; with S inside the request it was picked with (RUN_TO_PARITY)
 * S keeps the CPU. */
static void eevdf_parity_case(bool protected_curr, bool expect_preempt)
{
    SchedConf c = { .policy = SCHED_EEVDF, .base_slice_ns = 3 * SIM_MS };
    RunQueue rq;
    rq_init(&rq, &c, 1, 1000);
    Task s = { 0 }, x = { 0 }, p = { 0 };
    rq_enqueue_new(&rq, &s);
    rq_enqueue_new(&rq, &x);
    s.vruntime = 0;
    s.deadline = 3 * SIM_MS;
    x.vruntime = 10 * SIM_MS;
    x.deadline = 13 * SIM_MS;
    rq_resync(&rq);
    rq_set_curr(&rq, &s);
    g_assert_false(rq_update_curr(&rq, 1 * SIM_MS)); /* v 1 ms < deadline 3 ms */
    if (!protected_curr)
        s.vlag = 0; /* as if picked with another deadline */
    p.vlag = 6 * SIM_MS;
    rq_enqueue_wakeup(&rq, &p);
    g_assert_cmpint((int64_t)p.vruntime, ==, -3500 * SIM_US);
    g_assert_cmpint((int64_t)p.deadline, ==, -500 * SIM_US);
    g_assert_cmpuint(rq_avg_vruntime(&rq), ==, 2500 * SIM_US);
    g_assert_cmpint(rq_wakeup_preempt(&rq, &p), ==, expect_preempt);
    /* __schedule() never protects prev: it picks P. */
    g_assert_true(rq_pick_next(&rq) == &p);
}

static void test_eevdf_run_to_parity(void)
{
    eevdf_parity_case(true, false);
    eevdf_parity_case(false, true);
}

/* A reached deadline renews the request (vruntime + slice) and asks for a reschedule only when
 * another task waits. */
static void test_eevdf_deadline_renewal(void)
{
    SchedConf c = { .policy = SCHED_EEVDF, .base_slice_ns = 3 * SIM_MS };
    RunQueue rq;
    rq_init(&rq, &c, 1, 1000);
    Task s = { 0 }, x = { 0 };
    rq_enqueue_new(&rq, &s); /* V 0: v 0, deadline 1.5 ms */
    g_assert_cmpuint(s.deadline, ==, 1500 * SIM_US);
    rq_set_curr(&rq, &s);
    g_assert_false(rq_update_curr(&rq, 1499 * SIM_US));
    g_assert_false(rq_update_curr(&rq, 1 * SIM_US)); /* alone: renewed, no resched */
    g_assert_cmpuint(s.deadline, ==, 4500 * SIM_US);
    rq_enqueue_new(&rq, &x);
    g_assert_false(rq_update_curr(&rq, 2999 * SIM_US));
    g_assert_true(rq_update_curr(&rq, 1 * SIM_US));
    g_assert_cmpuint(s.deadline, ==, 7500 * SIM_US);
}

/* DELAY_DEQUEUE on a bare run queue (base_slice 3 ms, factor 1). S is current at vruntime 4 ms
 * (deadline 7 ms), X waits at 0 (deadline 3 ms): V = 2 ms, so S sleeps with lag -2 ms, not
 * eligible, and stays queued. The pick takes X. X runs 5 ms: its deadline renews to 8 ms and
 * the CPU is rescheduled, because the delayed S still counts (nr_queued 2). Now V = 4.5 ms, S
 * is eligible (lag +0.5 ms) with the earlier deadline (7 < 8): the pick takes S, dequeues it
 * with its lag cut to 0 (DELAY_ZERO) and picks X again. Woken later, S is placed at V with no
 * lag: at X's 5 ms. Without the feature S leaves at once and keeps lag -2 ms. */
static void delayed_queue(RunQueue *rq, Task *s, Task *x, bool delay)
{
    SchedConf c = { .policy = SCHED_EEVDF, .base_slice_ns = 3 * SIM_MS, .delay_dequeue = delay };
    rq_init(rq, &c, 1, 1000);
    *s = (Task){ 0 };
    *x = (Task){ 0 };
    rq_enqueue_new(rq, s);
    rq_enqueue_new(rq, x);
    s->vruntime = 4 * SIM_MS;
    s->deadline = 7 * SIM_MS;
    x->vruntime = 0;
    x->deadline = 3 * SIM_MS;
    rq_resync(rq);
    rq_set_curr(rq, s);
    rq_dequeue_sleep(rq, s);
}

static void test_eevdf_delay_dequeue_pick(void)
{
    RunQueue rq;
    Task s = { 0 }, x = { 0 };
    delayed_queue(&rq, &s, &x, true);
    g_assert_true(s.on_rq && s.sched_delayed);
    g_assert_cmpuint(rq.nr_running, ==, 2);
    g_assert_cmpuint(rq_nr_runnable(&rq), ==, 1);
    g_assert_true(rq_pick_next(&rq) == &x);
    rq_set_curr(&rq, &x);
    g_assert_true(s.on_rq); /* put back into the tree, still competing */
    g_assert_false(rq.waiting); /* but not waiting for the CPU: X runs alone */
    g_assert_true(rq_update_curr(&rq, 5 * SIM_MS));
    g_assert_cmpuint(x.deadline, ==, 8 * SIM_MS);
    g_assert_true(rq_pick_next(&rq) == &x);
    g_assert_false(s.on_rq || s.sched_delayed);
    g_assert_cmpint(s.vlag, ==, 0); /* +0.5 ms cut to 0 */
    g_assert_cmpuint(rq.nr_running, ==, 1);
    rq_enqueue_wakeup(&rq, &s);
    g_assert_cmpuint(s.vruntime, ==, 5 * SIM_MS);
    g_assert_cmpuint(s.deadline, ==, 8 * SIM_MS);

    delayed_queue(&rq, &s, &x, false); /* 6.6-6.11: gone at once, with its lag */
    g_assert_false(s.on_rq || s.sched_delayed);
    g_assert_cmpint(s.vlag, ==, -2 * (int64_t)SIM_MS);
    g_assert_cmpuint(rq.nr_running, ==, 1);
}

/* Woken while still delayed: with its lag still negative S keeps its vruntime and deadline and
 * cannot preempt; once X has run 5 ms its lag is +0.5 ms, so it is placed at V computed without
 * it (X's 5 ms) with a fresh request. */
static void test_eevdf_delay_dequeue_requeue(void)
{
    RunQueue rq;
    Task s = { 0 }, x = { 0 };
    delayed_queue(&rq, &s, &x, true);
    rq_set_curr(&rq, &x);
    rq_enqueue_wakeup(&rq, &s);
    g_assert_true(s.on_rq && !s.sched_delayed);
    g_assert_cmpuint(s.vruntime, ==, 4 * SIM_MS);
    g_assert_cmpuint(s.deadline, ==, 7 * SIM_MS);
    g_assert_cmpuint(rq_nr_runnable(&rq), ==, 2);
    g_assert_true(rq.waiting);
    g_assert_false(rq_wakeup_preempt(&rq, &s));

    delayed_queue(&rq, &s, &x, true);
    rq_set_curr(&rq, &x);
    rq_update_curr(&rq, 5 * SIM_MS);
    rq_enqueue_wakeup(&rq, &s);
    g_assert_false(s.sched_delayed);
    g_assert_cmpuint(s.vruntime, ==, 5 * SIM_MS);
    g_assert_cmpuint(s.deadline, ==, 8 * SIM_MS);
    g_assert_cmpuint(rq.nr_delayed, ==, 0);
}

/* DELAY_DEQUEUE through the executor: a delayed sleeper woken while still queued stays on its
 * CPU (ttwu_runnable), even with an idle CPU beside it. Two CPUs (factor 2: base_slice 1.5 ms is a
 * 3 ms request), no switch or wake-up cost, no load balancing. S runs alone on CPU 0 from 0
 * (v 0, deadline 1.5 ms: a new task's half request). H, CPU-bound and held on CPU 0, starts at
 * 0.2 ms at V = 0.2 ms (deadline 1.7 ms) and cannot preempt S inside the request S was picked
 * with (RUN_TO_PARITY). S sleeps at 1.4 ms: V = (1.4 + 0.2) / 2 = 0.8 ms, lag -0.6 ms, not
 * eligible. A wake-up at 1.5 ms:
 *   without DELAY_DEQUEUE S has left the queue; CPU 0 is busy and CPU 1 idle, so S moves there
 *   and runs at once, at 1.5 ms;
 *   with it S is still queued on CPU 0, is requeued there with its lag (-0.55 ms: not eligible,
 *   no preemption) and waits for H's request to end: H reaches v 1.7 ms at 2.9 ms, which the
 *   tick at 3 ms sees (a CPU-bound task's update_curr runs at ticks); then V = (1.4 + 1.8) / 2
 *   = 1.6 ms, and S is eligible with the earlier deadline (1.5 < 4.8 ms). */
typedef struct {
    Task t;
    int steps;
    sim_time_t woke_ran_at;
    uint32_t woke_cpu;
} LagSleeper;

static void lag_sleeper_step(Task *t)
{
    LagSleeper *n = t->ctx;
    if (task_return_to_user(t))
        return;
    if (++n->steps == 15) { /* 14 steps of 100 us done: sleep at 1.4 ms */
        task_sleep(t);
        return;
    }
    if (n->steps == 16) { /* the first step after the wake-up */
        n->woke_ran_at = sim_now(t->host->sim);
        n->woke_cpu = cpu_index(t->cpu);
        task_sleep(t);
        return;
    }
    cpu_charge(t->cpu, 100 * SIM_US);
}

typedef struct {
    SimEvent ev;
    Task *t;
    bool start; /* task_start, else task_wake */
} TaskKick;

static void task_kick_fire(Sim *sim, void *ctx)
{
    (void)sim;
    TaskKick *k = ctx;
    if (k->start)
        task_start(k->t);
    else
        task_wake(k->t, NULL);
}

static void delayed_wake_case(bool delay, sim_time_t expect_at, uint32_t expect_cpu)
{
    TestHost *th = test_host_new(2, 1000);
    th->conf.sched.policy = SCHED_EEVDF;
    th->conf.sched.base_slice_ns = 1500 * SIM_US;
    th->conf.sched.delay_dequeue = delay;
    th->conf.sched.load_balance = false;
    th->conf.costs.ns[COST_CTX_SWITCH] = 0;
    th->conf.costs.ns[COST_WAKEUP] = 0;
    test_host_build(th);
    const CpuList cpu0 = { .n = 1, .cpu = { 0 } };
    Turns turns = { 0 };
    Hog h;
    LagSleeper s = { 0 };
    task_init(&s.t, &th->host, "S", lag_sleeper_step, &s, &cpu0);
    s.t.allowed.n = 0; /* placed on CPU 0, may run anywhere */
    h = (Hog){ .name = 'H', .turns = &turns };
    task_init(&h.t, &th->host, "H", hog_step, &h, &cpu0);
    TaskKick start_h = { .t = &h.t, .start = true }, wake_s = { .t = &s.t };
    sim_event_init(&start_h.ev, task_kick_fire, &start_h, 0, 0);
    sim_event_init(&wake_s.ev, task_kick_fire, &wake_s, 0, 0);
    task_start(&s.t);
    sim_schedule_at(th->sim, &start_h.ev, 200 * SIM_US);
    sim_schedule_at(th->sim, &wake_s.ev, 1500 * SIM_US);
    sim_run_until(th->sim, 5 * SIM_MS);
    g_assert_cmpint(s.steps, ==, 16);
    g_assert_cmpint(s.woke_ran_at, ==, expect_at);
    g_assert_cmpuint(s.woke_cpu, ==, expect_cpu);
    test_host_free(th);
}

static void test_eevdf_delay_dequeue_wake_stays(void)
{
    delayed_wake_case(false, 1500 * SIM_US, 1);
    delayed_wake_case(true, 3 * SIM_MS, 0);
}

/* rq_share_waiting_count(): the host-wide count of queues with a task waiting (queued, not
 * running) follows enqueue, pick, sleep and a balancing move, so that load balancing may skip its
 * search exactly when no CPU has anything to give. */
static void test_waiting_count(void)
{
    SchedConf c = { .policy = SCHED_CFS, .latency_ns = 6 * SIM_MS,
                    .min_granularity_ns = 750 * SIM_US, .base_slice_ns = 750 * SIM_US };
    RunQueue rq0, rq1;
    uint32_t waiting = 0;
    rq_init(&rq0, &c, 2, 1000);
    rq_init(&rq1, &c, 2, 1000);
    rq_share_waiting_count(&rq0, &waiting);
    rq_share_waiting_count(&rq1, &waiting);
    Task a = { 0 }, b = { 0 }, d = { 0 };
    rq_enqueue_new(&rq0, &a);
    g_assert_cmpuint(waiting, ==, 1); /* queued, the CPU not yet running it */
    rq_set_curr(&rq0, &a);
    g_assert_cmpuint(waiting, ==, 0);
    rq_enqueue_wakeup(&rq0, &b);
    g_assert_cmpuint(waiting, ==, 1);
    rq_migrate_queued(&rq0, &rq1, &b); /* rq0 runs a alone, b waits on rq1 */
    g_assert_cmpuint(waiting, ==, 1);
    g_assert_true(!rq0.waiting && rq1.waiting);
    rq_set_curr(&rq1, &b);
    g_assert_cmpuint(waiting, ==, 0);
    rq_enqueue_wakeup(&rq1, &d);
    g_assert_cmpuint(waiting, ==, 1);
    rq_dequeue_sleep(&rq1, &b); /* curr sleeps: d still waits until picked */
    g_assert_cmpuint(waiting, ==, 1);
    rq_set_curr(&rq1, &d);
    g_assert_cmpuint(waiting, ==, 0);
}

/* ---- CFS buddies and sched_nr_latency, on a bare run queue (1 CPU, factor 1) ---- */

/* A queue with curr at vruntime c_v and the given waiting tasks at their vruntimes. */
static void cfs_queue(RunQueue *rq, const SchedConf *c, Task *curr, uint64_t c_v, Task **wait,
                      const uint64_t *wait_v, int n)
{
    rq_init(rq, c, 1, 1000);
    for (int i = 0; i < n; i++)
        rq_enqueue_new(rq, wait[i]);
    rq_enqueue_new(rq, curr);
    for (int i = 0; i < n; i++)
        wait[i]->vruntime = wait_v[i];
    curr->vruntime = c_v;
    rq->min_vruntime = wait_v[0];
    rq_resync(rq);
    rq_set_curr(rq, curr);
}

/* A wake-up that preempts makes the woken task the next buddy (check_preempt_wakeup, <= 6.5):
 * latency 6 ms, wakeup granularity 1 ms; curr C at 10 ms, A waits at 8.5 ms, W wakes at its
 * own 8.9 ms (above the sleeper floor 8.5 - 3). C - W = 1.1 ms > 1: preempt. The pick takes W,
 * 0.4 ms behind the leftmost A, within the granularity (wakeup_preempt_entity(W, A) < 1); with
 * W 1.2 ms behind A it would be unfair, and A runs. */
static void test_cfs_next_buddy(void)
{
    SchedConf c = { .policy = SCHED_CFS, .latency_ns = 6 * SIM_MS,
                    .min_granularity_ns = 750 * SIM_US, .wakeup_granularity_ns = SIM_MS };
    for (int unfair = 0; unfair <= 1; unfair++) {
        RunQueue rq;
        Task cur = { 0 }, a = { 0 }, w = { 0 };
        Task *wait[] = { &a };
        uint64_t wait_v[] = { 8500 * SIM_US };
        cfs_queue(&rq, &c, &cur, (unfair ? 12 : 10) * SIM_MS, wait, wait_v, 1);
        w.vruntime = (unfair ? 9700 : 8900) * SIM_US;
        rq_enqueue_wakeup(&rq, &w);
        g_assert_true(rq_wakeup_preempt(&rq, &w));
        g_assert_true(rq.next_buddy == &w);
        Task *next = rq_pick_next(&rq);
        g_assert_true(next == (unfair ? &a : &w));
        rq_set_curr(&rq, next);
        if (!unfair)
            g_assert_null(rq.next_buddy); /* forgotten once it runs */
    }
}

/* With sched_nr_latency (8) or more queued, the preempted task also becomes the last buddy
 * (LAST_BUDDY): once the woken one has run and slept, the pick returns to the preempted C (within
 * the granularity of the leftmost) rather than to the leftmost. Seven waiting tasks, C and W:
 * nine queued. */
static void test_cfs_last_buddy(void)
{
    SchedConf c = { .policy = SCHED_CFS, .latency_ns = 6 * SIM_MS,
                    .min_granularity_ns = 750 * SIM_US, .wakeup_granularity_ns = SIM_MS };
    RunQueue rq;
    Task cur = { 0 }, w = { 0 }, t[7];
    memset(t, 0, sizeof t);
    Task *wait[7];
    uint64_t wait_v[7];
    for (int i = 0; i < 7; i++) {
        wait[i] = &t[i];
        wait_v[i] = (uint64_t)(9000 + 100 * i) * SIM_US;
    }
    cfs_queue(&rq, &c, &cur, 9500 * SIM_US, wait, wait_v, 7);
    w.vruntime = 8000 * SIM_US;
    rq_enqueue_wakeup(&rq, &w);
    g_assert_cmpuint(rq.nr_running, ==, 9);
    g_assert_true(rq_wakeup_preempt(&rq, &w)); /* 9.5 - 8.0 = 1.5 ms > 1 */
    g_assert_true(rq.last_buddy == &cur);
    g_assert_true(rq_pick_next(&rq) == &w);
    rq_set_curr(&rq, &w);
    rq_dequeue_sleep(&rq, &w);
    g_assert_true(rq_pick_next(&rq) == &cur); /* 9.5 ms, 0.5 ms behind the leftmost 9.0 */
}

/* Two wake-ups before the switch (CFS): check_preempt_wakeup() returns at once when curr
 * already has TIF_NEED_RESCHED, so the second wakee is not made the next buddy over the first.
 * S hogs the CPU; P1 and P2 ran 100 us each at the start and slept. At 20 ms both are woken in
 * that order, each placed at min_vruntime - latency/2 (equal vruntimes, P1 queued first). The
 * first wake-up preempts and marks P1; the second finds need_resched set and marks nothing, so
 * the switch runs P1 (the next buddy, and the leftmost) before P2. Marking P2 over it would run
 * P2 first, as the buddy is within wakeup_granularity of the leftmost. */
typedef struct {
    Task t;
    int runs;
    char name;
    Turns *turns;
} Napper;

static void napper_step(Task *t)
{
    Napper *n = t->ctx;
    n->runs++;
    log_turn(n->turns, n->name, sim_now(t->host->sim));
    cpu_charge(t->cpu, 100 * SIM_US);
    task_sleep(t);
}

typedef struct {
    SimEvent ev;
    Task *a, *b;
} WakeTwo;

static void wake_two_fire(Sim *sim, void *ctx)
{
    (void)sim;
    WakeTwo *w = ctx;
    task_wake(w->a, NULL);
    task_wake(w->b, NULL);
}

static void test_cfs_second_wakeup_no_buddy(void)
{
    TestHost *th = quiet_host(SCHED_CFS);
    Turns turns = { 0 };
    Hog s;
    Napper p1 = { .name = '1', .turns = &turns }, p2 = { .name = '2', .turns = &turns };
    hog_init(&s, th, 'S', &turns);
    task_init(&p1.t, &th->host, "p1", napper_step, &p1, NULL);
    task_init(&p2.t, &th->host, "p2", napper_step, &p2, NULL);
    task_start(&s.t);
    task_start(&p1.t);
    task_start(&p2.t);
    WakeTwo w = { .a = &p1.t, .b = &p2.t };
    sim_event_init(&w.ev, wake_two_fire, &w, 0, 0);
    sim_schedule_at(th->sim, &w.ev, 20 * SIM_MS);
    sim_run_until(th->sim, 21 * SIM_MS);
    g_assert_cmpint(p1.runs, ==, 2);
    g_assert_cmpint(p2.runs, ==, 2);
    g_assert_cmpuint(p1.t.vruntime - 100 * SIM_US, ==, p2.t.vruntime - 100 * SIM_US);
    /* the first turns from 20 ms on: 1, then 2, then S again */
    int k = 0;
    while (k < turns.n && turns.start[k] < 20 * SIM_MS)
        k++;
    g_assert_cmpint(k + 3, <=, turns.n);
    g_assert_cmpint(turns.who[k - 1], ==, 'S');
    g_assert_cmpint(turns.who[k], ==, '1');
    g_assert_cmpint(turns.who[k + 1], ==, '2');
    g_assert_cmpint(turns.who[k + 2], ==, 'S');
    test_host_free(th);
}

/* sched_nr_latency follows the tunables (sched_update_scaling): latency 6 ms, min_granularity
 * 2 ms -> 3, so four runnable tasks stretch the period to 4 x 2 ms: a 2 ms slice. */
static void test_cfs_nr_latency(void)
{
    SchedConf c = { .policy = SCHED_CFS, .latency_ns = 6 * SIM_MS,
                    .min_granularity_ns = 2 * SIM_MS, .wakeup_granularity_ns = SIM_MS };
    RunQueue rq;
    rq_init(&rq, &c, 1, 1000);
    g_assert_cmpuint(rq.nr_latency, ==, 3);
    Task t[4];
    memset(t, 0, sizeof t);
    for (int i = 0; i < 3; i++)
        rq_enqueue_new(&rq, &t[i]);
    g_assert_cmpint(rq_cfs_slice(&rq), ==, 2 * SIM_MS); /* 6 / 3 */
    rq_enqueue_new(&rq, &t[3]);
    g_assert_cmpint(rq_cfs_slice(&rq), ==, 2 * SIM_MS); /* 4 x 2 / 4, not 6 / 4 */
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/sched/factor", test_factor);
    g_test_add_func("/sched/waiting-count", test_waiting_count);
    g_test_add_func("/sched/cfs/two-hogs-alternate", test_cfs_two_hogs_alternate);
    g_test_add_func("/sched/cfs/wakeup-no-preempt-at-granularity",
                    test_cfs_wakeup_no_preempt_at_granularity);
    g_test_add_func("/sched/cfs/wakeup-preempt-above-granularity",
                    test_cfs_wakeup_preempt_above_granularity);
    g_test_add_func("/sched/cfs/next-buddy", test_cfs_next_buddy);
    g_test_add_func("/sched/cfs/last-buddy", test_cfs_last_buddy);
    g_test_add_func("/sched/cfs/nr-latency", test_cfs_nr_latency);
    g_test_add_func("/sched/cfs/second-wakeup-no-buddy", test_cfs_second_wakeup_no_buddy);
    g_test_add_func("/sched/eevdf/base-slice-turns", test_eevdf_base_slice_turns);
    g_test_add_func("/sched/eevdf/run-to-parity", test_eevdf_run_to_parity);
    g_test_add_func("/sched/eevdf/deadline-renewal", test_eevdf_deadline_renewal);
    g_test_add_func("/sched/eevdf/delay-dequeue-pick", test_eevdf_delay_dequeue_pick);
    g_test_add_func("/sched/eevdf/delay-dequeue-requeue", test_eevdf_delay_dequeue_requeue);
    g_test_add_func("/sched/eevdf/delay-dequeue-wake-stays", test_eevdf_delay_dequeue_wake_stays);
    return g_test_run();
}
