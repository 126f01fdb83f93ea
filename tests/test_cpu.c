/* test_cpu.c - the CPU executor: act-then-charge steps, interrupts that steal a step's time,
 * BH-disabled sections, wake-ups racing a sleep, context-switch cost, NOHZ tick, and exact
 * accounting (task + softirq + ctx_switch + idle == elapsed). */
#include <glib.h>

#include "models/cpu.h"
#include "models/sock_test_util.h"

/* ---- a task that charges fixed steps, then sleeps ---- */

typedef struct {
    Task t;
    int steps;          /* steps to charge before sleeping */
    sim_time_t step_ns;
    int done;
    sim_time_t step_at[16];
    int bh_off_step;    /* step (1-based) that disables BH; the next one re-enables it */
} StepTask;

static void step_task(Task *t)
{
    StepTask *s = t->ctx;
    if (s->done < 16)
        s->step_at[s->done] = sim_now(t->host->sim);
    if (s->done == s->steps) {
        task_sleep(t);
        return;
    }
    s->done++;
    if (s->bh_off_step && s->done == s->bh_off_step)
        task_bh_disable(t);
    if (s->bh_off_step && s->done == s->bh_off_step + 1)
        task_bh_enable(t);
    cpu_charge(t->cpu, s->step_ns);
}

/* ---- a softirq item with n units of a fixed cost ---- */

typedef struct {
    SoftirqWork w;
    int units;
    sim_time_t unit_ns;
    int done;
    sim_time_t at[8];
} Units;

static bool units_run(SoftirqWork *w, Cpu *cpu)
{
    Units *u = w->ctx;
    g_assert_true(cpu_in_softirq(cpu));
    if (u->done < 8)
        u->at[u->done] = sim_now(cpu_host(cpu)->sim);
    u->done++;
    cpu_charge(cpu, u->unit_ns);
    return u->done < u->units;
}

static bool units_run_null(SoftirqWork *w, Cpu *cpu)
{
    Units *u = w->ctx;
    g_assert_null(cpu);
    u->done++;
    cpu_charge(cpu, u->unit_ns); /* a no-op without a CPU */
    return u->done < u->units;
}

typedef struct {
    SimEvent ev;
    Cpu *cpu;
    SoftirqWork *w;
} Raise;

static void raise_fire(Sim *sim, void *ctx)
{
    Raise *r = ctx;
    cpu_raise_softirq(r->cpu, r->w);
}

static void schedule_raise(TestHost *th, Raise *r, SoftirqWork *w, sim_time_t at)
{
    *r = (Raise){ .cpu = th->cpus[0], .w = w };
    sim_event_init(&r->ev, raise_fire, r, 0, 0);
    sim_schedule_at(th->sim, &r->ev, at);
}

static void assert_accounting(const CpuStats *s, sim_time_t elapsed)
{
    g_assert_cmpint(s->task_ns + s->softirq_ns + s->ctx_switch_ns + s->idle_ns, ==, elapsed);
}

/* One task, 5 steps of 10 us, an interrupt at 25 us with 2 softirq units of 1 us.
 *   0      kick, switch to A: ctx_switch 2 us          -> A's first step at 2 us
 *   2..12, 12..22 steps 1, 2; step 3 starts at 22 us
 *   25     interrupt: step 3 has 7 us left; softirq entry 0.3 us + unit 1 (acts at 25) ends
 *          26.3; unit 2 acts at 26.3, ends 27.3; step 3 resumes and ends at 34.3
 *   34.3..44.3, 44.3..54.3 steps 4, 5; step 6 sleeps at 54.3 -> idle
 * Buckets at 100 us: ctx 2, softirq 2.3, task 50, idle 100 - 54.3 = 45.7 us. */
static void test_interrupt_steals_step_time(void)
{
    TestHost *th = test_host_new(1, 1000);
    test_host_build(th);
    StepTask a = { .steps = 5, .step_ns = 10 * SIM_US };
    task_init(&a.t, &th->host, "a", step_task, &a, NULL);
    task_start(&a.t);
    Units u = { .units = 2, .unit_ns = 1 * SIM_US };
    softirq_work_init(&u.w, SOFTIRQ_NET_RX, units_run, &u);
    Raise r;
    schedule_raise(th, &r, &u.w, 25 * SIM_US);
    sim_run_until(th->sim, 100 * SIM_US);

    g_assert_cmpint(a.done, ==, 5);
    g_assert_cmpint(a.step_at[0], ==, 2000);
    g_assert_cmpint(a.step_at[2], ==, 22000);
    g_assert_cmpint(a.step_at[3], ==, 34300);
    g_assert_cmpint(a.step_at[5], ==, 54300);
    g_assert_cmpint(u.at[0], ==, 25000);
    g_assert_cmpint(u.at[1], ==, 26300);
    g_assert_cmpint(a.t.runtime_ns, ==, 50 * SIM_US);
    g_assert_cmpint(a.t.state, ==, TASK_SLEEPING);
    CpuStats s = cpu_stats(th->cpus[0]);
    g_assert_cmpint(s.ctx_switch_ns, ==, 2000);
    g_assert_cmpint(s.softirq_ns, ==, 2300);
    g_assert_cmpint(s.task_ns, ==, 50000);
    g_assert_cmpint(s.idle_ns, ==, 45700);
    g_assert_cmpuint(s.ctx_switches, ==, 1);
    g_assert_cmpuint(s.softirq_runs, ==, 1);
    assert_accounting(&s, 100 * SIM_US);
    g_assert_null(cpu_current(th->cpus[0]));
    test_host_free(th);
}

/* The same, but step 3 (22..32 us) disables BH and step 4 (32..42 us) re-enables it: the
 * interrupt at 25 us only queues the work; bh_enable makes it run before the next step, i.e.
 * when step 4's charge has elapsed: units act at 42 and 43.3 us, softirq ends at 44.3 us,
 * step 5 runs 44.3..54.3 and step 6 sleeps at 54.3 us. */
static void test_bh_disabled_defers_softirq(void)
{
    TestHost *th = test_host_new(1, 1000);
    test_host_build(th);
    StepTask a = { .steps = 5, .step_ns = 10 * SIM_US, .bh_off_step = 3 };
    task_init(&a.t, &th->host, "a", step_task, &a, NULL);
    task_start(&a.t);
    Units u = { .units = 2, .unit_ns = 1 * SIM_US };
    softirq_work_init(&u.w, SOFTIRQ_NET_RX, units_run, &u);
    Raise r;
    schedule_raise(th, &r, &u.w, 25 * SIM_US);
    sim_run_until(th->sim, 100 * SIM_US);

    g_assert_cmpint(u.at[0], ==, 42000);
    g_assert_cmpint(u.at[1], ==, 43300);
    g_assert_cmpint(a.step_at[3], ==, 32000);
    g_assert_cmpint(a.step_at[4], ==, 44300);
    g_assert_cmpint(a.step_at[5], ==, 54300);
    CpuStats s = cpu_stats(th->cpus[0]);
    g_assert_cmpint(s.softirq_ns, ==, 2300);
    assert_accounting(&s, 100 * SIM_US);
    test_host_free(th);
}

/* ---- wake-up racing a sleep ---- */

typedef struct {
    Task t;
    int calls;
    sim_time_t at[4];
} Sleeper;

static void sleeper_step(Task *t)
{
    Sleeper *s = t->ctx;
    if (s->calls < 4)
        s->at[s->calls] = sim_now(t->host->sim);
    s->calls++;
    task_sleep(t);
    if (s->calls == 1)
        cpu_charge(t->cpu, 10 * SIM_US); /* sleeps only once this 10 us has elapsed */
}

typedef struct {
    SimEvent ev;
    Task *t;
} Waker;

static void waker_fire(Sim *sim, void *ctx)
{
    Waker *w = ctx;
    task_wake(w->t, NULL);
}

/* The task calls task_sleep at 2 us (after the 2 us switch) and charges 10 us; a wake-up at
 * 5 us arrives before the sleep takes effect (12 us): it is not lost, the step runs again at
 * 12 us (and then sleeps for real, with no charge). A wake at 20 us finds it asleep: it runs at
 * 20 us with no new switch cost (it was the last task on this CPU). */
static void test_wake_before_sleep_is_not_lost(void)
{
    TestHost *th = test_host_new(1, 1000);
    test_host_build(th);
    Sleeper s = { 0 };
    task_init(&s.t, &th->host, "s", sleeper_step, &s, NULL);
    task_start(&s.t);
    Waker w1 = { .t = &s.t }, w2 = { .t = &s.t };
    sim_event_init(&w1.ev, waker_fire, &w1, 0, 0);
    sim_event_init(&w2.ev, waker_fire, &w2, 0, 0);
    sim_schedule_at(th->sim, &w1.ev, 5 * SIM_US);
    sim_schedule_at(th->sim, &w2.ev, 20 * SIM_US);
    sim_run_until(th->sim, 50 * SIM_US);

    g_assert_cmpint(s.calls, ==, 3);
    g_assert_cmpint(s.at[0], ==, 2000);
    g_assert_cmpint(s.at[1], ==, 12000);
    g_assert_cmpint(s.at[2], ==, 20000);
    CpuStats st = cpu_stats(th->cpus[0]);
    g_assert_cmpuint(st.ctx_switches, ==, 1);
    g_assert_cmpint(st.task_ns, ==, 10000);
    assert_accounting(&st, 50 * SIM_US);
    test_host_free(th);
}

/* ---- wake-up placement (hosts.H.sched.wake_idle) ---- */

typedef struct {
    SimEvent ev;
    Task *t;
} Starter;

static void starter_fire(Sim *sim, void *ctx)
{
    task_start(((Starter *)ctx)->t);
}

/* Two CPUs. A (pinned to CPU 0) computes 100 steps of 10 us from 20 us; D is pinned to CPU 1
 * and never starts, so B (allowed anywhere) is placed on CPU 0 too. B runs at 2 us, sleeps at
 * 12 us, and is woken at 100 us while A holds CPU 0 and CPU 1 is idle. With wake_idle B moves
 * to CPU 1 and runs after the 2 us switch, at 102 us, without touching A; without it (or when
 * B is pinned to CPU 0) B stays queued on CPU 0 and runs only when A is done. Load balancing is
 * off: it would pull the queued B to the idle CPU 1 at A's next tick (tested further down). */
static uint32_t run_wake_placement(bool wake_idle, bool pin_b, Sleeper *b, StepTask *a)
{
    TestHost *th = test_host_new(2, 1000);
    th->conf.sched.wake_idle = wake_idle;
    th->conf.sched.load_balance = false;
    test_host_build(th);
    CpuList cpu0 = { .n = 1, .cpu = { 0 } }, cpu1 = { .n = 1, .cpu = { 1 } };
    Task d;
    task_init(&a->t, &th->host, "a", step_task, a, &cpu0);
    task_init(&d, &th->host, "d", step_task, NULL, &cpu1);
    task_init(&b->t, &th->host, "b", sleeper_step, b, pin_b ? &cpu0 : NULL);
    g_assert_true(b->t.cpu == th->cpus[0]);
    task_start(&b->t);
    Starter st = { .t = &a->t };
    sim_event_init(&st.ev, starter_fire, &st, 0, 0);
    sim_schedule_at(th->sim, &st.ev, 20 * SIM_US);
    Waker w = { .t = &b->t };
    sim_event_init(&w.ev, waker_fire, &w, 0, 0);
    sim_schedule_at(th->sim, &w.ev, 100 * SIM_US);
    sim_run_until(th->sim, 2 * SIM_MS);
    g_assert_cmpint(a->done, ==, 100);
    g_assert_cmpint(b->calls, ==, 2); /* ran and slept, then ran once more after the wake-up */
    uint32_t where = b->t.cpu == th->cpus[1] ? 1 : 0;
    test_host_free(th);
    return where;
}

static void test_wake_idle_moves_to_idle_cpu(void)
{
    Sleeper b = { 0 };
    StepTask a = { .steps = 100, .step_ns = 10 * SIM_US };
    g_assert_cmpuint(run_wake_placement(true, false, &b, &a), ==, 1);
    g_assert_cmpint(b.at[1], ==, 102 * SIM_US);
    g_assert_cmpuint(b.t.nr_migrations, ==, 1);
    g_assert_cmpint(a.step_at[15], ==, 22 * SIM_US + 15 * 10 * SIM_US); /* A never lost its CPU */
}

static void test_wake_idle_off_or_pinned_stays(void)
{
    for (int pinned = 0; pinned <= 1; pinned++) {
        Sleeper b = { 0 };
        StepTask a = { .steps = 100, .step_ns = 10 * SIM_US };
        g_assert_cmpuint(run_wake_placement(pinned, pinned, &b, &a), ==, 0);
        /* queued behind A until A sleeps at 1022 us: A's 1 ms is below its CFS slice and B's
         * vruntime lead is below the wake-up granularity */
        g_assert_cmpint(b.at[1], >=, 1022 * SIM_US);
        g_assert_cmpuint(b.t.nr_migrations, ==, 0);
    }
}

/* ---- a wake-up takes effect where it ends in the waker's work ---- */

typedef struct {
    Task t;
    int calls;
    Task *wake[2];
} WakerTask;

/* First step: sleep. Second: 5 us of work, then wake both sleepers (COST_WAKEUP each). */
static void waker_task_step(Task *t)
{
    WakerTask *w = t->ctx;
    if (w->calls++ == 0) {
        task_sleep(t);
        return;
    }
    cpu_charge(t->cpu, 5 * SIM_US);
    task_wake(w->wake[0], t->cpu);
    task_wake(w->wake[1], t->cpu);
    task_sleep(t);
}

/* Three CPUs, wake_idle on, no load balancing. W (pinned to CPU 0) is woken at 50 us and, in
 * one step, works 5 us and then wakes B and C, which ran on CPU 1 until 24 us (C last) and
 * sleep. The waker acts, then charges, but a wake-up cannot take effect before the waker has
 * done the work that precedes it: B joins CPU 1 at 50 + 5 + 0.3 (COST_WAKEUP) = 55.3 us and,
 * after the 2 us switch (C ran last there), runs at 57.3 us. C's placement sees B's wake-up
 * pending on CPU 1 (idle_cpu() checks rq->ttwu_pending), so C goes to the idle CPU 2: it joins
 * at 55.6 us and runs at 57.6 us. When wake-ups took effect at the waker's step start, both ran
 * at 52 us. */
static void test_wake_takes_effect_after_waker_work(void)
{
    TestHost *th = test_host_new(3, 1000);
    th->conf.sched.wake_idle = true;
    th->conf.sched.load_balance = false;
    test_host_build(th);
    CpuList cpu0 = { .n = 1, .cpu = { 0 } }, cpu2 = { .n = 1, .cpu = { 2 } };
    CpuList cpu12 = { .n = 2, .cpu = { 1, 2 } };
    WakerTask w = { 0 };
    Sleeper b = { 0 }, c = { 0 };
    Task d;
    task_init(&w.t, &th->host, "w", waker_task_step, &w, &cpu0);
    task_init(&d, &th->host, "d", step_task, NULL, &cpu2); /* never starts: C lands on CPU 1 */
    task_init(&b.t, &th->host, "b", sleeper_step, &b, NULL);
    task_init(&c.t, &th->host, "c", sleeper_step, &c, &cpu12);
    g_assert_true(b.t.cpu == th->cpus[1] && c.t.cpu == th->cpus[1]);
    w.wake[0] = &b.t;
    w.wake[1] = &c.t;
    task_start(&w.t);
    task_start(&b.t);
    task_start(&c.t);
    Waker kick = { .t = &w.t };
    sim_event_init(&kick.ev, waker_fire, &kick, 0, 0);
    sim_schedule_at(th->sim, &kick.ev, 50 * SIM_US);
    sim_run_until(th->sim, 200 * SIM_US);

    g_assert_cmpint(c.at[0], ==, 14 * SIM_US); /* B 2..12 us, then C after its switch */
    g_assert_cmpint(b.calls, ==, 2);
    g_assert_cmpint(c.calls, ==, 2);
    g_assert_true(b.t.cpu == th->cpus[1]);
    g_assert_true(c.t.cpu == th->cpus[2]);
    g_assert_cmpint(b.at[1], ==, 57300);
    g_assert_cmpint(c.at[1], ==, 57600);
    test_host_free(th);
}

/* ---- load balancing (hosts.H.sched.load_balance) ---- */

/* Two CPUs, HZ 1000, wake_idle off. Three tasks that never start are pinned to CPU 1, so the
 * three CPU-bound tasks A, B, C (500 steps of 10 us, 5 ms) all land on CPU 0; pin_ab pins A and B
 * there. With kcpu1_ns > 0, CPU 1 also runs K (pinned to it) for kcpu1_ns then K sleeps: CPU 1
 * goes idle through __schedule(), where newidle balancing runs. Runs to `until`. */
typedef struct {
    StepTask w[3];
    StepTask k;
    CpuStats cpu1;
    bool on_cpu1[3];          /* where A, B, C ended */
    sim_time_t switch_ns, pull_ns; /* the host's costs.ctx_switch and costs.lb_pull */
} LbRun;

static void run_lb(LbRun *r, bool lb, bool pin_ab, sim_time_t kcpu1_ns, sim_time_t until)
{
    TestHost *th = test_host_new(2, 1000);
    th->conf.sched.wake_idle = false;
    th->conf.sched.load_balance = lb;
    test_host_build(th);
    CpuList cpu0 = { .n = 1, .cpu = { 0 } }, cpu1 = { .n = 1, .cpu = { 1 } };
    Task idle[3];
    for (int i = 0; i < 3; i++)
        task_init(&idle[i], &th->host, "never", step_task, NULL, &cpu1);
    static const char *names[3] = { "a", "b", "c" };
    for (int i = 0; i < 3; i++) {
        r->w[i] = (StepTask){ .steps = 500, .step_ns = 10 * SIM_US };
        task_init(&r->w[i].t, &th->host, names[i], step_task, &r->w[i],
                  pin_ab && i < 2 ? &cpu0 : NULL);
        g_assert_true(r->w[i].t.cpu == th->cpus[0]);
        task_start(&r->w[i].t);
    }
    r->k = (StepTask){ .steps = 1, .step_ns = kcpu1_ns };
    if (kcpu1_ns > 0) {
        task_init(&r->k.t, &th->host, "k", step_task, &r->k, &cpu1);
        task_start(&r->k.t);
    }
    sim_run_until(th->sim, until);
    r->cpu1 = cpu_stats(th->cpus[1]);
    for (int i = 0; i < 3; i++)
        r->on_cpu1[i] = r->w[i].t.cpu == th->cpus[1];
    r->switch_ns = host_cost(&th->host, COST_CTX_SWITCH);
    r->pull_ns = host_cost(&th->host, COST_LB_PULL);
    assert_accounting(&r->cpu1, until);
    test_host_free(th);
}

/* detach_tasks() looks at no more than sysctl_sched_nr_migrate (32) tasks of the busiest queue.
 * CPU 0 holds 40 CPU-bound tasks pinned to it and, queued behind them, U, which may run
 * anywhere; CPU 1 is idle. The nohz balance at CPU 0's first tick (1 ms) finds nothing movable
 * among the first 32 and pulls nothing; U moves only once enough pinned tasks, each put back at
 * the tail when its turn ends, have come to stand behind it. A scan of the whole queue would
 * have pulled U at 1 ms. */
static void test_lb_scans_at_most_32_tasks(void)
{
    TestHost *th = test_host_new(2, 1000);
    th->conf.sched.wake_idle = false;
    th->conf.sched.load_balance = true;
    test_host_build(th);
    CpuList cpu0 = { .n = 1, .cpu = { 0 } }, cpu1 = { .n = 1, .cpu = { 1 } };
    Task idle[3];
    for (int i = 0; i < 3; i++)
        task_init(&idle[i], &th->host, "never", step_task, NULL, &cpu1);
    StepTask u = { .steps = 2000, .step_ns = 10 * SIM_US };
    task_init(&u.t, &th->host, "u", step_task, &u, NULL);
    g_assert_true(u.t.cpu == th->cpus[0]);
    StepTask *pinned = g_new0(StepTask, 40);
    for (int i = 0; i < 40; i++) {
        pinned[i] = (StepTask){ .steps = 2000, .step_ns = 10 * SIM_US };
        task_init(&pinned[i].t, &th->host, "p", step_task, &pinned[i], &cpu0);
        task_start(&pinned[i].t);
    }
    task_start(&u.t);
    sim_run_until(th->sim, 3 * SIM_MS);
    g_assert_true(u.t.cpu == th->cpus[0]);
    g_assert_cmpuint(u.t.nr_migrations, ==, 0);
    sim_run_until(th->sim, 200 * SIM_MS);
    g_assert_true(u.t.cpu == th->cpus[1]);
    g_assert_cmpuint(u.t.nr_migrations, ==, 1);
    test_host_free(th);
    g_free(pinned);
}

/* The idle CPU 1 has no tick; CPU 0's tick at 1 ms sees two tasks waiting and lets CPU 1 pull
 * one (nohz idle balance). Without balancing CPU 1 never runs anything. */
static void test_lb_idle_cpu_pulls_waiting_task(void)
{
    for (int lb = 0; lb <= 1; lb++) {
        LbRun r;
        run_lb(&r, lb, false, 0, 20 * SIM_MS);
        uint64_t moved = 0;
        for (int i = 0; i < 3; i++) {
            g_assert_cmpint(r.w[i].t.runtime_ns, >, 0);
            moved += r.w[i].t.nr_migrations;
        }
        if (lb) {
            g_assert_cmpint(r.cpu1.task_ns, >, 0);
            g_assert_cmpuint(moved, >=, 1);
        } else {
            g_assert_cmpint(r.cpu1.task_ns, ==, 0);
            g_assert_cmpuint(moved, ==, 0);
        }
    }
}

/* K runs 100 us on CPU 1 and sleeps, well before the first tick (1 ms): CPU 1 going idle pulls
 * a waiting task at once (newidle), so by 900 us CPU 1 has run more than K's 100 us and paid
 * the pull (costs.lb_pull) with the switch. */
static void test_lb_newidle_pulls_before_any_tick(void)
{
    LbRun r;
    run_lb(&r, true, false, 100 * SIM_US, 900 * SIM_US);
    g_assert_cmpint(r.cpu1.task_ns, >, 100 * SIM_US);
    g_assert_cmpint(r.cpu1.ctx_switch_ns, >=, 2 * r.switch_ns + r.pull_ns); /* to K, to the pulled */
    int on_cpu1 = 0;
    for (int i = 0; i < 3; i++)
        on_cpu1 += r.on_cpu1[i];
    g_assert_cmpint(on_cpu1, ==, 1);
}

/* sched.newidle_avg_idle (CFS 2.6.33-5.15). P, pinned to CPU 1, is woken every 60 us and runs
 * 10 us: CPU 1's idle spells are ~48 us, and from avg_idle's starting 1 ms ten of them bring the
 * 1/8 average to ~0.3 ms, under the 0.5 ms migration cost. A, B and C, CPU-bound, start on CPU 0
 * at 600 us. Without the gate CPU 1 pulls one of them the next time P sleeps; with it, CPU 1
 * does not balance at all before CPU 0's first tick (1 ms), and all three stay on CPU 0. */
typedef struct {
    Task t;
    bool ran;
} Pulser;

static void pulser_step(Task *t)
{
    Pulser *p = t->ctx;
    p->ran = !p->ran;
    if (p->ran)
        cpu_charge(t->cpu, 10 * SIM_US);
    else
        task_sleep(t);
}

typedef struct {
    SimEvent ev;
    Sim *sim;
    Task *t;
    sim_time_t period;
} Pulse;

static void pulse_fire(Sim *sim, void *ctx)
{
    Pulse *p = ctx;
    task_wake(p->t, NULL);
    sim_schedule_at(sim, &p->ev, sim_now(sim) + p->period);
}

typedef struct {
    SimEvent ev;
    StepTask *w;
} Starter3;

static void start_three_fire(Sim *sim, void *ctx)
{
    (void)sim;
    Starter3 *st = ctx;
    for (int i = 0; i < 3; i++)
        task_start(&st->w[i].t);
}

static int pulled_to_cpu1(bool gate)
{
    TestHost *th = test_host_new(2, 1000);
    th->conf.sched.wake_idle = false;
    th->conf.sched.load_balance = true;
    th->conf.sched.policy = SCHED_CFS;
    th->conf.sched.newidle_avg_idle = gate;
    test_host_build(th);
    CpuList cpu1 = { .n = 1, .cpu = { 1 } };
    Task idle[3];
    for (int i = 0; i < 3; i++)
        task_init(&idle[i], &th->host, "never", step_task, NULL, &cpu1);
    Pulser pu = { 0 };
    task_init(&pu.t, &th->host, "p", pulser_step, &pu, &cpu1);
    task_start(&pu.t);
    Pulse pulse = { .sim = th->sim, .t = &pu.t, .period = 60 * SIM_US };
    sim_event_init(&pulse.ev, pulse_fire, &pulse, 0, 0);
    sim_schedule_at(th->sim, &pulse.ev, 60 * SIM_US);
    StepTask w[3];
    for (int i = 0; i < 3; i++) {
        w[i] = (StepTask){ .steps = 500, .step_ns = 10 * SIM_US };
        task_init(&w[i].t, &th->host, "w", step_task, &w[i], NULL);
        g_assert_true(w[i].t.cpu == th->cpus[0]);
    }
    Starter3 st = { .w = w };
    sim_event_init(&st.ev, start_three_fire, &st, 0, 0);
    sim_schedule_at(th->sim, &st.ev, 600 * SIM_US);
    sim_run_until(th->sim, 900 * SIM_US);
    int on_cpu1 = 0;
    for (int i = 0; i < 3; i++)
        on_cpu1 += w[i].t.cpu == th->cpus[1];
    sim_cancel(th->sim, &pulse.ev);
    test_host_free(th);
    return on_cpu1;
}

static void test_lb_newidle_avg_idle_gate(void)
{
    g_assert_cmpint(pulled_to_cpu1(false), ==, 1);
    g_assert_cmpint(pulled_to_cpu1(true), ==, 0);
}

/* A and B are pinned to CPU 0: only C may be pulled, and it is; A and B never move. */
static void test_lb_never_pulls_pinned_task(void)
{
    LbRun r;
    run_lb(&r, true, true, 0, 20 * SIM_MS);
    for (int i = 0; i < 2; i++) {
        g_assert_cmpuint(r.w[i].t.nr_migrations, ==, 0);
        g_assert_false(r.on_cpu1[i]);
    }
    g_assert_cmpuint(r.w[2].t.nr_migrations, >=, 1);
    g_assert_cmpint(r.cpu1.task_ns, ==, r.w[2].t.runtime_ns);
}

/* Cache-hot tasks stay put (can_migrate_task -> task_hot, hosts.H.sched.migration_cost). The set-up
 * of run_wake_placement with load balancing on and wake_idle off: B runs at 2-12 us and sleeps;
 * woken at 100 us it waits on CPU 0 behind A (pinned there, 20 us on, a_steps of 10 us); CPU 1 is
 * idle. CPU 0's tick has two tasks, so it balances the tickless CPU 1 (nohz) whenever CPU 1's
 * interval (2 ms for an idle CPU of a 2-CPU host) is due: at 1, 3, 5 ms. B last ran at 12 us.
 * Returns the time of B's second step and sets *moved to its migrations. */
static sim_time_t run_hot(sim_time_t migration_cost, int a_steps, uint64_t *moved)
{
    TestHost *th = test_host_new(2, 1000);
    th->conf.sched.wake_idle = false;
    th->conf.sched.load_balance = true;
    th->conf.sched.migration_cost_ns = migration_cost;
    test_host_build(th);
    CpuList cpu0 = { .n = 1, .cpu = { 0 } }, cpu1 = { .n = 1, .cpu = { 1 } };
    StepTask a = { .steps = a_steps, .step_ns = 10 * SIM_US };
    Sleeper b = { 0 };
    Task d;
    task_init(&a.t, &th->host, "a", step_task, &a, &cpu0);
    task_init(&d, &th->host, "d", step_task, NULL, &cpu1);
    task_init(&b.t, &th->host, "b", sleeper_step, &b, NULL);
    task_start(&b.t);
    Starter st = { .t = &a.t };
    sim_event_init(&st.ev, starter_fire, &st, 0, 0);
    sim_schedule_at(th->sim, &st.ev, 20 * SIM_US);
    Waker w = { .t = &b.t };
    sim_event_init(&w.ev, waker_fire, &w, 0, 0);
    sim_schedule_at(th->sim, &w.ev, 100 * SIM_US);
    sim_run_until(th->sim, 20 * SIM_MS);
    g_assert_cmpint(b.calls, ==, 2);
    *moved = b.t.nr_migrations;
    sim_time_t at = b.at[1];
    test_host_free(th);
    return at;
}

static void test_lb_cache_hot_task_stays(void)
{
    uint64_t moved;
    /* At the 1 ms pass B last ran 988 us ago: cold for a cost of 0 or 500 us, so CPU 1 pulls it
     * and runs it after the pull (0.6 us) and the switch (2 us) */
    g_assert_cmpint(run_hot(0, 100, &moved), ==, 1002600);
    g_assert_cmpuint(moved, ==, 1);
    g_assert_cmpint(run_hot(500 * SIM_US, 100, &moved), ==, 1002600);
    g_assert_cmpuint(moved, ==, 1);
    /* hot for 1 ms: the pass fails and B waits for A to sleep at 1022 us */
    g_assert_cmpint(run_hot(1 * SIM_MS, 100, &moved), >=, 1022 * SIM_US);
    g_assert_cmpuint(moved, ==, 0);
    /* A runs 10 ms. With 2 ms B is still hot at 1 ms and cold at the 3 ms pass; with 6 ms it is
     * hot at 1, 3 and 5 ms, but by 5 ms two passes in a row have failed (> cache_nice_tries) */
    g_assert_cmpint(run_hot(2 * SIM_MS, 1000, &moved), ==, 3002600);
    g_assert_cmpuint(moved, ==, 1);
    g_assert_cmpint(run_hot(6 * SIM_MS, 1000, &moved), ==, 5002600);
    g_assert_cmpuint(moved, ==, 1);
}

/* ---- NOHZ: no ticks while idle ---- */

/* One task runs 35 steps of 100 us (3.5 ms) and sleeps; the run goes on to 1 s. Events:
 * kick at 0 (1), end of the 2 us switch (1), 35 step completions + 1 completion of the
 * sleeping step (36) at 3.502 ms, ticks at 1, 2, 3 ms (3); going idle cancels the 4 ms tick:
 * 41. A tick every jiffy would add ~996 more. */
static void test_tick_stops_when_idle(void)
{
    TestHost *th = test_host_new(1, 1000);
    test_host_build(th);
    StepTask a = { .steps = 35, .step_ns = 100 * SIM_US };
    task_init(&a.t, &th->host, "a", step_task, &a, NULL);
    task_start(&a.t);
    sim_run_until(th->sim, SIM_S);
    g_assert_cmpint(a.done, ==, 35);
    g_assert_cmpuint(sim_events_executed(th->sim), ==, 41);
    CpuStats s = cpu_stats(th->cpus[0]);
    g_assert_cmpint(s.task_ns, ==, 3500 * SIM_US);
    assert_accounting(&s, SIM_S);
    test_host_free(th);
}

/* ---- NULL CPU ---- */

/* Without a CPU (unit tests of other models) a raise runs the item to completion at once. */
static void test_null_cpu_runs_at_once(void)
{
    Units u = { .units = 5, .unit_ns = SIM_US };
    softirq_work_init(&u.w, SOFTIRQ_TIMER, units_run_null, &u);
    cpu_raise_softirq(NULL, &u.w);
    g_assert_cmpint(u.done, ==, 5);
}

/* ---- full preemption at step ends, and preempt_disable ---- */

typedef struct {
    Task t;
    int steps;
    int off_from, off_to; /* steps (1-based) that disable / re-enable preemption */
} Spinner;

static void spinner_step(Task *t)
{
    Spinner *s = t->ctx;
    if (s->steps == 10) {
        task_sleep(t);
        return;
    }
    s->steps++;
    if (s->steps == s->off_from)
        task_preempt_disable(t);
    if (s->steps == s->off_to)
        task_preempt_enable(t);
    cpu_charge(t->cpu, 100 * SIM_US);
}

typedef struct {
    Task t;
    int runs;
    sim_time_t at[4];
} Nap;

static void nap_step(Task *t)
{
    Nap *n = t->ctx;
    if (n->runs < 4)
        n->at[n->runs] = sim_now(t->host->sim);
    n->runs++;
    task_sleep(t);
}

/* CFS, 1 CPU. S started first (START_DEBIT 6 ms), P second (3 ms): P runs at 2 us and sleeps;
 * S is switched in at 4 us and runs 10 steps of 100 us (4, 104, ..., 904 us), never calling
 * cond_resched. P is woken at 150 us, 3 ms behind S: need_resched.
 *   full:             S is preempted when its step ends (204 us): P runs at 206 us;
 *   full, preemption off in steps 1..4 (enabled again at step 5, 404 us): P at 506 us;
 *   voluntary:        S keeps the CPU until it sleeps at 1004 us: P at 1006 us. */
static void full_preempt_case(PreemptModel model, int off_from, int off_to, sim_time_t expect)
{
    TestHost *th = test_host_new(1, 1000);
    th->conf.sched.policy = SCHED_CFS;
    th->conf.sched.preempt = model;
    test_host_build(th);
    Spinner s = { .off_from = off_from, .off_to = off_to };
    Nap p = { 0 };
    task_init(&s.t, &th->host, "s", spinner_step, &s, NULL);
    task_init(&p.t, &th->host, "p", nap_step, &p, NULL);
    task_start(&s.t);
    task_start(&p.t);
    Waker w = { .t = &p.t };
    sim_event_init(&w.ev, waker_fire, &w, 0, 0);
    sim_schedule_at(th->sim, &w.ev, 150 * SIM_US);
    sim_run_until(th->sim, 2 * SIM_MS);
    g_assert_cmpint(p.runs, ==, 2);
    g_assert_cmpint(p.at[0], ==, 2 * SIM_US);
    g_assert_cmpint(p.at[1], ==, expect);
    g_assert_cmpuint(s.t.nr_preempted, ==, model == PREEMPT_FULL ? 1 : 0);
    g_assert_cmpint(s.t.runtime_ns, ==, SIM_MS);
    test_host_free(th);
}

static void test_full_preemption(void)
{
    full_preempt_case(PREEMPT_FULL, 0, 0, 206 * SIM_US);
    full_preempt_case(PREEMPT_FULL, 1, 5, 506 * SIM_US);
    full_preempt_case(PREEMPT_VOLUNTARY, 0, 0, 1006 * SIM_US);
}

/* ---- softirq time and the slice (hosts.H.sched.irq_time_accounting) ---- */

/* A hard interrupt every period whose softirq work costs unit (one unit, then done). */
typedef struct {
    SimEvent ev;
    Cpu *cpu;
    SoftirqWork w;
    sim_time_t period, unit;
} Flood;

static bool flood_run(SoftirqWork *w, Cpu *cpu)
{
    cpu_charge(cpu, ((Flood *)w->ctx)->unit);
    return false;
}

static void flood_fire(Sim *sim, void *ctx)
{
    Flood *f = ctx;
    cpu_raise_softirq(f->cpu, &f->w);
    sim_schedule_in(sim, &f->ev, f->period);
}

/* Runs 10 us steps for ever, calling cond_resched() before each. */
typedef struct {
    Task t;
    sim_time_t first_yield;
} Grinder;

static void grinder_step(Task *t)
{
    Grinder *g = t->ctx;
    if (task_cond_resched(t)) {
        if (!g->first_yield)
            g->first_yield = sim_now(t->host->sim);
        return;
    }
    cpu_charge(t->cpu, 10 * SIM_US);
}

/* CFS, 1 CPU, HZ=1000, voluntary preemption: slice P(2)/2 = 3 ms. A runs from 2 us; B starts at
 * 100 us behind it (START_DEBIT, no wake-up preemption). From 50 us an interrupt every 100 us
 * brings 88 us of softirq work (+ 0.3 us entry), so A's own steps get ~12 % of the CPU.
 *   irq_time_accounting true (rq->clock_task): A's runtime grows ~12 us per 100 us, stays
 *     below the 3 ms slice for the whole 15 ms; no tick asks for a reschedule, B never runs.
 *   false (pre-2.6.37 rq->clock): the softirq time is A's too; at the 4 ms tick its stint
 *     (~4 ms) exceeds the slice, A yields at its next cond_resched and B runs just after.
 * Either way the tasks' runtimes add up exactly to the task time, plus (false) the softirq
 * time, which all ran while a task was current. */
static void irq_time_case(bool irq_time_accounting)
{
    TestHost *th = test_host_new(1, 1000);
    th->conf.sched.policy = SCHED_CFS;
    th->conf.sched.irq_time_accounting = irq_time_accounting;
    test_host_build(th);
    Grinder a = { 0 };
    Nap b = { 0 };
    task_init(&a.t, &th->host, "a", grinder_step, &a, NULL);
    task_init(&b.t, &th->host, "b", nap_step, &b, NULL);
    task_start(&a.t);
    Starter st = { .t = &b.t };
    sim_event_init(&st.ev, starter_fire, &st, 0, 0);
    sim_schedule_at(th->sim, &st.ev, 100 * SIM_US);
    Flood f = { .cpu = th->cpus[0], .period = 100 * SIM_US, .unit = 88 * SIM_US };
    softirq_work_init(&f.w, SOFTIRQ_NET_RX, flood_run, &f);
    sim_event_init(&f.ev, flood_fire, &f, 0, 0);
    sim_schedule_at(th->sim, &f.ev, 50 * SIM_US);
    sim_run_until(th->sim, 15 * SIM_MS);

    CpuStats s = cpu_stats(th->cpus[0]);
    assert_accounting(&s, 15 * SIM_MS);
    g_assert_cmpint(s.idle_ns, ==, 0);
    g_assert_cmpint(s.softirq_ns, >, 13 * SIM_MS);
    sim_time_t charged = a.t.runtime_ns + b.t.runtime_ns;
    if (irq_time_accounting) {
        g_assert_cmpint(b.runs, ==, 0);
        g_assert_cmpuint(a.t.nr_yields, ==, 0);
        g_assert_cmpint(a.t.runtime_ns, <, 3 * SIM_MS);
        g_assert_cmpint(charged, ==, s.task_ns);
    } else {
        g_assert_cmpint(a.first_yield, >, 4 * SIM_MS);
        g_assert_cmpint(a.first_yield, <, 4 * SIM_MS + 100 * SIM_US);
        g_assert_cmpint(b.runs, >=, 1);
        g_assert_cmpint(b.at[0], >, a.first_yield);
        g_assert_cmpint(b.at[0], <, a.first_yield + 100 * SIM_US);
        g_assert_cmpint(charged, ==, s.task_ns + s.softirq_ns);
    }
    test_host_free(th);
}

static void test_irq_time_accounting_hides_softirq_from_slice(void)
{
    irq_time_case(true);
}

static void test_no_irq_time_accounting_charges_softirq_to_curr(void)
{
    irq_time_case(false);
}

/* ---- C-states (hosts.H.sched.cpuidle, models/cpuidle.c) ---- */

typedef struct {
    Task t;
    int calls;
    sim_time_t at[8];
} Napper; /* runs a step of no cost and sleeps again */

static void napper_step(Task *t)
{
    Napper *n = t->ctx;
    if (n->calls < 8)
        n->at[n->calls] = sim_now(t->host->sim);
    n->calls++;
    task_sleep(t);
}

/* One CPU with Skylake-SP's states (C1 2 us / residency 2, C1E 10 / 20, C6 133 / 600), a task
 * woken at 14, 66, 1068 and 2078 us, and an interrupt at 3211 us. The governor predicts each
 * idle period from the one before it:
 *   0     start: no idle period yet, C1: runs after 2 us exit + 2 us switch = 4 us, sleeps
 *   14    idle 10 us before (4..14) but the prediction was the first period (0): C1, runs at 16
 *   66    predicted 10 us: C1 again, runs at 68
 *   1068  predicted 50 us: C1E (20 <= 50 < 600), runs at 1078
 *   2078  predicted 1000 us: C6, runs at 2211
 *   3211  the interrupt, predicted 1000 us: C6, the softirq unit acts at 3344
 * With poll every wait is 0: the task runs at 2 (the switch), 14, 66, 1068, 2078, the unit at
 * 3211. The waits are idle time: task + softirq + switch + idle is still the elapsed time. */
static void cpuidle_case(CpuidleTable table, const sim_time_t want_us[5], sim_time_t unit_us,
                         uint64_t exits, uint64_t exit_us)
{
    TestHost *th = test_host_new(1, 1000);
    th->conf.sched.cpuidle = table;
    test_host_build(th);
    Napper n = { 0 };
    task_init(&n.t, &th->host, "n", napper_step, &n, NULL);
    task_start(&n.t);
    const sim_time_t wake_us[] = { 14, 66, 1068, 2078 };
    Waker w[4];
    for (int i = 0; i < 4; i++) {
        w[i] = (Waker){ .t = &n.t };
        sim_event_init(&w[i].ev, waker_fire, &w[i], 0, 0);
        sim_schedule_at(th->sim, &w[i].ev, wake_us[i] * SIM_US);
    }
    Units u = { .units = 1, .unit_ns = 1 * SIM_US };
    softirq_work_init(&u.w, SOFTIRQ_NET_RX, units_run, &u);
    Raise r;
    schedule_raise(th, &r, &u.w, 3211 * SIM_US);
    sim_run_until(th->sim, 4 * SIM_MS);

    g_assert_cmpint(n.calls, ==, 5);
    for (int i = 0; i < 5; i++)
        g_assert_cmpint(n.at[i], ==, want_us[i] * SIM_US);
    g_assert_cmpint(u.done, ==, 1);
    g_assert_cmpint(u.at[0], ==, unit_us * SIM_US);
    g_assert_cmpuint(th->host.ctr.v[CTR_SksimIdleExits], ==, exits);
    g_assert_cmpuint(th->host.ctr.v[CTR_SksimIdleExitNs], ==, exit_us * SIM_US);
    CpuStats st = cpu_stats(th->cpus[0]);
    assert_accounting(&st, 4 * SIM_MS);
    test_host_free(th);
}

static void test_cpuidle_exit_latency(void)
{
    const sim_time_t skx[] = { 4, 16, 68, 1078, 2211 };
    cpuidle_case(CPUIDLE_SKX, skx, 3344, 6, 2 + 2 + 2 + 10 + 133 + 133);
    const sim_time_t poll[] = { 2, 14, 66, 1068, 2078 };
    cpuidle_case(CPUIDLE_POLL, poll, 3211, 0, 0);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/cpu/interrupt-steals-step-time", test_interrupt_steals_step_time);
    g_test_add_func("/cpu/bh-disabled-defers-softirq", test_bh_disabled_defers_softirq);
    g_test_add_func("/cpu/wake-before-sleep-not-lost", test_wake_before_sleep_is_not_lost);
    g_test_add_func("/cpu/tick-stops-when-idle", test_tick_stops_when_idle);
    g_test_add_func("/cpu/null-cpu", test_null_cpu_runs_at_once);
    g_test_add_func("/cpu/cpuidle-exit-latency", test_cpuidle_exit_latency);
    g_test_add_func("/cpu/full-preemption", test_full_preemption);
    g_test_add_func("/cpu/wake-idle-moves-to-idle-cpu", test_wake_idle_moves_to_idle_cpu);
    g_test_add_func("/cpu/wake-idle-off-or-pinned-stays", test_wake_idle_off_or_pinned_stays);
    g_test_add_func("/cpu/wake-takes-effect-after-waker-work",
                    test_wake_takes_effect_after_waker_work);
    g_test_add_func("/cpu/lb-idle-cpu-pulls-waiting-task", test_lb_idle_cpu_pulls_waiting_task);
    g_test_add_func("/cpu/lb-scans-at-most-32-tasks", test_lb_scans_at_most_32_tasks);
    g_test_add_func("/cpu/lb-newidle-pulls-before-any-tick", test_lb_newidle_pulls_before_any_tick);
    g_test_add_func("/cpu/lb-newidle-avg-idle-gate", test_lb_newidle_avg_idle_gate);
    g_test_add_func("/cpu/lb-never-pulls-pinned-task", test_lb_never_pulls_pinned_task);
    g_test_add_func("/cpu/lb-cache-hot-task-stays", test_lb_cache_hot_task_stays);
    g_test_add_func("/cpu/irq-time-accounting-hides-softirq",
                    test_irq_time_accounting_hides_softirq_from_slice);
    g_test_add_func("/cpu/no-irq-time-accounting-charges-curr",
                    test_no_irq_time_accounting_charges_softirq_to_curr);
    return g_test_run();
}
