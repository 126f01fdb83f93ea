/* test_softirq.c - __do_softirq limits and ksoftirqd: NAPI weight per poll, netdev_budget per
 * net_rx_action, MAX_SOFTIRQ_RESTART, MAX_SOFTIRQ_TIME in whole jiffies, need_resched, the
 * hand-over to ksoftirqd/N, and TIMER before NET_RX. */
#include <glib.h>
#include <string.h>

#include "models/cpu.h"
#include "models/sock_test_util.h"

#define MAX_LOG 1024

/* A NAPI-like item with `units` packets of unit_ns each; it logs who ran each unit and when. */
typedef struct {
    SoftirqWork w;
    char name;
    int units;
    sim_time_t unit_ns;
    int done;
} Napi;

typedef struct {
    int n;
    char who[MAX_LOG];      /* item name */
    bool in_ksoftirqd[MAX_LOG];
    sim_time_t at[MAX_LOG];
    uint32_t polled[MAX_LOG];
} Log;

typedef struct {
    Napi napi;
    Log *log;
} LoggedNapi;

static bool napi_run(SoftirqWork *w, Cpu *cpu)
{
    LoggedNapi *ln = w->ctx;
    Napi *n = &ln->napi;
    Log *log = ln->log;
    g_assert_true(cpu_in_softirq(cpu));
    if (log->n < MAX_LOG) {
        log->who[log->n] = n->name;
        log->in_ksoftirqd[log->n] = cpu_current(cpu) == cpu_ksoftirqd(cpu);
        log->at[log->n] = sim_now(cpu_host(cpu)->sim);
        log->polled[log->n] = w->polled;
    }
    log->n++;
    n->done++;
    cpu_charge(cpu, n->unit_ns);
    return n->done < n->units;
}

static void napi_setup(LoggedNapi *ln, Log *log, char name, SoftirqKind kind, int units,
                       sim_time_t unit_ns)
{
    *ln = (LoggedNapi){ .napi = { .name = name, .units = units, .unit_ns = unit_ns }, .log = log };
    softirq_work_init(&ln->napi.w, kind, napi_run, ln);
}

typedef struct {
    SimEvent ev;
    Cpu *cpu;
    SoftirqWork *w[8];
    int n;
} Raise;

static void raise_fire(Sim *sim, void *ctx)
{
    Raise *r = ctx;
    for (int i = 0; i < r->n; i++)
        cpu_raise_softirq(r->cpu, r->w[i]);
}

static void raise_at(TestHost *th, Raise *r, sim_time_t at)
{
    r->cpu = th->cpus[0];
    sim_event_init(&r->ev, raise_fire, r, 0, 0);
    sim_schedule_at(th->sim, &r->ev, at);
}

/* A NAPI that counts its own work (own_work, as a NIC poll does: received frames count, TX
 * completions do not): units alternate between counted and not. */
static bool napi_run_half(SoftirqWork *w, Cpu *cpu)
{
    LoggedNapi *ln = w->ctx;
    bool counted = ln->napi.done % 2 == 0;
    bool more = napi_run(w, cpu);
    if (counted)
        w->work++;
    return more;
}

static int count_inline(const Log *log)
{
    int n = 0;
    for (int i = 0; i < log->n && i < MAX_LOG; i++)
        n += !log->in_ksoftirqd[i];
    return n;
}

/* Only counted work uses the NAPI weight: 400 units of 1 us, every other one counted (units
 * 0, 2, 4...). The first poll turn ends when 64 units have counted, at unit 126 (127 units), so
 * unit 127 starts the next turn (polled == 0); that one counts 128, 130 ... 254 and ends at
 * unit 254. With every unit counted (the default) a turn is 64 units. */
static void test_napi_weight_counts_work(void)
{
    TestHost *th = test_host_new(1, 1000);
    test_host_build(th);
    Log *log = g_new0(Log, 1);
    LoggedNapi a;
    napi_setup(&a, log, 'a', SOFTIRQ_NET_RX, 400, SIM_US);
    a.napi.w.run = napi_run_half;
    a.napi.w.own_work = true;
    Raise r = { .w = { &a.napi.w }, .n = 1 };
    raise_at(th, &r, 0);
    sim_run_until(th->sim, 2 * SIM_MS);
    g_assert_cmpint(log->n, ==, 400);
    g_assert_cmpuint(log->polled[126], ==, 126);
    g_assert_cmpuint(log->polled[127], ==, 0);
    g_assert_cmpuint(log->polled[254], ==, 127);
    g_assert_cmpuint(log->polled[255], ==, 0);
    g_assert_cmpint(count_inline(log), ==, 400);
    g_free(log);
    test_host_free(th);
}

/* One NAPI 'a' of 1000 packets of unit_ns, raised at 0 on a built host; runs to `until` (by
 * then every packet is done, so the item is no longer queued when it goes out of scope). */
static Log *run_one_napi(TestHost *th, sim_time_t unit_ns, sim_time_t until)
{
    Log *log = g_new0(Log, 1);
    LoggedNapi a;
    napi_setup(&a, log, 'a', SOFTIRQ_NET_RX, 1000, unit_ns);
    Raise r = { .w = { &a.napi.w }, .n = 1 };
    raise_at(th, &r, 0);
    sim_run_until(th->sim, until);
    g_assert_cmpint(log->n, ==, 1000);
    return log;
}

/* 1000 packets of 1 us on one NAPI, idle CPU, HZ=1000, weight 64, budget 300.
 * Each __do_softirq round runs one net_rx_action that polls the only NAPI once: 64 packets,
 * then it goes to the repoll list and NET_RX is raised again. Rounds 1..10 (restart count 10,
 * ~640 us < 2 jiffies, nobody needs the CPU): packets 1..640 inline. Packet 1 acts at 0 (entry
 * 0.3 us charged with it), packet k >= 2 at 300 + (k - 1) * 1000 ns; packet 640 ends at
 * 640.3 us, then wakeup_softirqd costs 0.3 us: softirq context 0 .. 640.6 us.
 * ksoftirqd/0 is switched in (2 us): its first step (entry 0.3 us + packet 641) starts at
 * 642.6 us; packet k >= 642 acts at 642600 + 300 + (k - 641) * 1000; packet 1000 ends at
 * 1002.9 us; ksoftirqd then finds nothing and sleeps.
 * At 2 ms: softirq 640600, ksoftirqd (task) 300 + 360 * 1000 = 360300, ctx 2000, idle rest. */
static void test_defer_to_ksoftirqd_after_restarts(void)
{
    TestHost *th = test_host_new(1, 1000);
    test_host_build(th);
    Log *log = run_one_napi(th, SIM_US, 2 * SIM_MS);

    g_assert_cmpint(log->n, ==, 1000);
    g_assert_cmpint(count_inline(log), ==, 640);
    g_assert_false(log->in_ksoftirqd[639]);
    g_assert_true(log->in_ksoftirqd[640]);
    g_assert_cmpint(log->at[0], ==, 0);
    g_assert_cmpint(log->at[1], ==, 1300);
    g_assert_cmpint(log->at[639], ==, 300 + 639 * 1000);
    g_assert_cmpint(log->at[640], ==, 642600);
    g_assert_cmpint(log->at[641], ==, 642600 + 300 + 1000);
    g_assert_cmpint(log->at[999], ==, 642600 + 300 + 359 * 1000);
    /* NAPI weight: the poll position restarts every 64 packets. */
    g_assert_cmpuint(log->polled[63], ==, 63);
    g_assert_cmpuint(log->polled[64], ==, 0);
    CpuStats s = cpu_stats(th->cpus[0]);
    g_assert_cmpint(s.softirq_ns, ==, 640600);
    g_assert_cmpint(s.task_ns, ==, 360300);
    g_assert_cmpint(s.ctx_switch_ns, ==, 2000);
    g_assert_cmpint(s.task_ns + s.softirq_ns + s.ctx_switch_ns + s.idle_ns, ==, 2 * SIM_MS);
    g_assert_cmpuint(s.softirq_runs, ==, 1);
    g_assert_cmpuint(s.ksoftirqd_wakeups, ==, 1);
    Task *k = cpu_ksoftirqd(th->cpus[0]);
    g_assert_cmpint(k->runtime_ns, ==, 360300);
    g_assert_cmpint(k->state, ==, TASK_SLEEPING);
    g_free(log);
    test_host_free(th);
}

/* MAX_SOFTIRQ_TIME = msecs_to_jiffies(2), rounded up to jiffies, checked after each round.
 * Packets of 10 us: a round (64 packets) lasts 640 us; round k ends at 300 + 640000 k ns.
 * HZ=1000: end = jiffy 2; rounds 1-3 end at jiffies 0, 1, 1 -> restart; round 4 ends at
 *   2.5603 ms, jiffy 2 -> stop: 4 * 64 = 256 packets inline.
 * HZ=250: 2 ms is 1 jiffy (4 ms); rounds 1-6 end before 4 ms (round 6 at 3.8403 ms), round 7
 *   ends at 4.4803 ms, jiffy 1 -> stop: 7 * 64 = 448 packets inline. */
static void run_time_limit_era(uint32_t hz, SoftirqLimit era, int expect_inline)
{
    TestHost *th = test_host_new(1, hz);
    th->stack.softirq_limit = era;
    test_host_build(th);
    Log *log = run_one_napi(th, 10 * SIM_US, 20 * SIM_MS);
    g_assert_cmpint(log->n, ==, 1000);
    g_assert_cmpint(count_inline(log), ==, expect_inline);
    g_assert_false(log->in_ksoftirqd[expect_inline - 1]);
    g_assert_true(log->in_ksoftirqd[expect_inline]);
    g_assert_cmpuint(cpu_stats(th->cpus[0]).ksoftirqd_wakeups, ==, 1);
    g_free(log);
    test_host_free(th);
}

static void test_max_softirq_time_hz1000(void)
{
    run_time_limit_era(1000, SOFTIRQ_LIMIT_3_9, 256);
}

static void test_max_softirq_time_hz250(void)
{
    run_time_limit_era(250, SOFTIRQ_LIMIT_3_9, 448);
}

/* Before 3.9 (stack.softirq.limit restarts) only MAX_SOFTIRQ_RESTART stops the loop: the same
 * 1000 packets run ten rounds inline (640 packets, 6.4 ms), past the 2 ms that 3.9 stops at. */
static void test_restart_count_only_before_3_9(void)
{
    run_time_limit_era(1000, SOFTIRQ_LIMIT_RESTARTS, 640);
}

/* Up to 3.18 (stack.softirq.repoll_in_action) net_rx_action polls a busy NAPI again within the
 * same action: 1000 packets of 1 us, weight 64, netdev_budget 300: each action polls five times
 * (320 >= 300 ends it), so with the restart count alone (2.6-3.8) ten rounds could take 3200 and
 * all 1000 run inline, where the 3.19+ single poll per action stops at 640 (above). */
static void test_repoll_in_action_before_3_19(void)
{
    TestHost *th = test_host_new(1, 1000);
    th->stack.softirq_limit = SOFTIRQ_LIMIT_RESTARTS;
    th->stack.softirq_repoll_in_action = true;
    test_host_build(th);
    Log *log = run_one_napi(th, SIM_US, 5 * SIM_MS);
    g_assert_cmpint(log->n, ==, 1000);
    g_assert_cmpint(count_inline(log), ==, 1000);
    g_assert_cmpuint(log->polled[319], ==, 63); /* the fifth poll of the first action */
    CpuStats st = cpu_stats(th->cpus[0]);
    g_assert_cmpuint(st.ksoftirqd_wakeups, ==, 0);
    g_assert_cmpuint(st.softirq_runs, ==, 1);
    g_free(log);
    test_host_free(th);
}

/* net_rx_action's time limit defaults to 2 * USEC_PER_SEC / HZ (net/core/dev.c): 2 jiffies at
 * any HZ, 8 ms at HZ=250. Three NAPIs of 64 packets of 50 us (3.2 ms a poll) raised at 0 on a
 * HZ=250 host: a ends at 3.2 ms, b at 6.4 ms (jiffy 1 < limit 2, go on), c at 9.6 ms (jiffy 2:
 * time_squeeze, with nothing left), all in the one inline net_rx_action. A limit of 2 ms (1
 * jiffy at HZ=250) would stop after b at jiffy 1 and, the 2 ms __do_softirq budget (1 jiffy)
 * being spent too, leave c to ksoftirqd. */
static void test_net_rx_time_limit_two_jiffies(void)
{
    TestHost *th = test_host_new(1, 250);
    test_host_build(th);
    Log *log = g_new0(Log, 1);
    LoggedNapi n[3];
    Raise r = { .n = 3 };
    for (int i = 0; i < 3; i++) {
        napi_setup(&n[i], log, (char)('a' + i), SOFTIRQ_NET_RX, 64, 50 * SIM_US);
        r.w[i] = &n[i].napi.w;
    }
    raise_at(th, &r, 0);
    sim_run_until(th->sim, 20 * SIM_MS);
    g_assert_cmpint(log->n, ==, 192);
    g_assert_cmpint(log->who[128], ==, 'c');
    g_assert_cmpint(count_inline(log), ==, 192);
    g_assert_cmpuint(cpu_stats(th->cpus[0]).softirq_runs, ==, 1);
    g_assert_cmpuint(cpu_stats(th->cpus[0]).ksoftirqd_wakeups, ==, 0);
    g_free(log);
    test_host_free(th);
}

/* Five NAPIs of 100 packets: net_rx_action polls each once for its weight (64):
 * a, b, c, d, e -> budget 300 - 5 * 64 = -20 <= 0 -> time_squeeze, all five to repoll.
 * Round 2: a..e 36 packets each (done, budget 300 - 180 > 0). Order: a x64, b x64, ..., e x64,
 * then a x36 .. e x36; all inline (2 rounds, ~500 us). */
static void test_budget_round_robin(void)
{
    TestHost *th = test_host_new(1, 1000);
    test_host_build(th);
    Log *log = g_new0(Log, 1);
    LoggedNapi n[5];
    Raise r = { .n = 5 };
    for (int i = 0; i < 5; i++) {
        napi_setup(&n[i], log, (char)('a' + i), SOFTIRQ_NET_RX, 100, SIM_US);
        r.w[i] = &n[i].napi.w;
    }
    raise_at(th, &r, 0);
    sim_run_until(th->sim, 5 * SIM_MS);
    g_assert_cmpint(log->n, ==, 500);
    g_assert_cmpint(count_inline(log), ==, 500);
    for (int i = 0; i < 5; i++) {
        g_assert_cmpint(log->who[i * 64], ==, 'a' + i);
        g_assert_cmpint(log->who[i * 64 + 63], ==, 'a' + i);
        g_assert_cmpint(log->who[320 + i * 36], ==, 'a' + i);
        g_assert_cmpint(log->who[320 + i * 36 + 35], ==, 'a' + i);
    }
    g_assert_cmpuint(cpu_stats(th->cpus[0]).softirq_runs, ==, 1);
    g_assert_cmpuint(cpu_stats(th->cpus[0]).ksoftirqd_wakeups, ==, 0);
    g_free(log);
    test_host_free(th);
}

/* Two items of two units each, raised together (`first` raised first): the order in which one
 * __do_softirq round runs their units, as four names. */
static void round_order(SoftirqKind first, char first_name, SoftirqKind second, char second_name,
                        char out[4])
{
    TestHost *th = test_host_new(1, 1000);
    test_host_build(th);
    Log *log = g_new0(Log, 1);
    LoggedNapi a, b;
    napi_setup(&a, log, first_name, first, 2, SIM_US);
    napi_setup(&b, log, second_name, second, 2, SIM_US);
    Raise r = { .w = { &a.napi.w, &b.napi.w }, .n = 2 };
    raise_at(th, &r, 0);
    sim_run_until(th->sim, SIM_MS);
    g_assert_cmpint(log->n, ==, 4);
    memcpy(out, log->who, 4);
    g_free(log);
    test_host_free(th);
}

/* TIMER work raised after NET_RX still runs first within a round (bit order). */
static void test_timer_before_net_rx(void)
{
    char who[4];
    round_order(SOFTIRQ_NET_RX, 'r', SOFTIRQ_TIMER, 't', who);
    g_assert_cmpmem(who, 4, "ttrr", 4);
}

/* TASKLET work (the TSQ handler, tsq_tasklet) raised before NET_RX runs after it within a round
 * (TASKLET_SOFTIRQ is bit 6, NET_RX_SOFTIRQ bit 3); a TCP socket's TSQ work is of that kind. */
static void test_tasklet_after_net_rx(void)
{
    char who[4];
    round_order(SOFTIRQ_TASKLET, 'k', SOFTIRQ_NET_RX, 'r', who);
    g_assert_cmpmem(who, 4, "rrkk", 4);
}

/* ---- need_resched stops the restart ---- */

typedef struct {
    Task t;
    int steps;
} Spinner;

static void spinner_step(Task *t)
{
    Spinner *s = t->ctx;
    s->steps++;
    task_return_to_user(t);
    cpu_charge(t->cpu, 10 * SIM_US);
}

typedef struct {
    Task t;
    int runs;
} Napping;

static void napping_step(Task *t)
{
    Napping *n = t->ctx;
    n->runs++;
    task_sleep(t);
}

typedef struct {
    LoggedNapi ln;
    Task *wake;
} WakingNapi;

static bool waking_run(SoftirqWork *w, Cpu *cpu)
{
    WakingNapi *wn = w->ctx;
    bool more = napi_run(w, cpu);
    if (wn->ln.napi.done == 1)
        task_wake(wn->wake, cpu);
    return more;
}

/* 1000 packets of 1 us raised at 101 us; the first one wakes `wake`. Run for 5 ms. */
static void run_waking_softirq(TestHost *th, WakingNapi *wn, Raise *r, Log *log, Task *wake)
{
    *wn = (WakingNapi){ .wake = wake };
    napi_setup(&wn->ln, log, 'a', SOFTIRQ_NET_RX, 1000, SIM_US);
    wn->ln.napi.w.run = waking_run;
    wn->ln.napi.w.ctx = wn;
    *r = (Raise){ .w = { &wn->ln.napi.w }, .n = 1 };
    raise_at(th, r, 101 * SIM_US);
    sim_run_until(th->sim, 5 * SIM_MS);
}

/* CFS, 1 CPU, factor 1: S is started first (START_DEBIT: vruntime 0 + slice(1) = 6 ms), then
 * P (0 + slice(2) = 3 ms), so P runs first and sleeps at once; S spins from 4 us. The first
 * packet of a 1000-packet softirq at 101 us wakes P: placed at max(3 ms, min_vruntime - 3 ms)
 * = S.vruntime - 3 ms, and 3 ms > wakeup_granularity 1 ms sets need_resched. So the first
 * round (64 packets) is the only inline one: no restart, ksoftirqd is woken; P runs again. */
static void test_need_resched_stops_restart(void)
{
    TestHost *th = test_host_new(1, 1000);
    th->conf.sched.policy = SCHED_CFS;
    test_host_build(th);
    Spinner s = { 0 };
    Napping p = { 0 };
    task_init(&p.t, &th->host, "p", napping_step, &p, NULL);
    task_init(&s.t, &th->host, "s", spinner_step, &s, NULL);
    task_start(&s.t);
    task_start(&p.t);
    Log *log = g_new0(Log, 1);
    WakingNapi wn;
    Raise r;
    run_waking_softirq(th, &wn, &r, log, &p.t);
    g_assert_cmpint(log->n, ==, 1000);
    g_assert_cmpint(count_inline(log), ==, 64);
    g_assert_cmpuint(cpu_stats(th->cpus[0]).ksoftirqd_wakeups, ==, 1);
    g_assert_cmpint(p.runs, ==, 2);
    g_free(log);
    test_host_free(th);
}

/* A task woken onto an idle CPU while an interrupt's softirq runs there: the idle task is
 * rescheduled at once (check_preempt_curr_idle -> resched_curr), so __do_softirq sees
 * need_resched after its first round and hands the rest to ksoftirqd instead of restarting.
 * 1 CPU, CFS: P starts, sleeps at once, the CPU goes idle. 1000 packets of 1 us are raised at
 * 101 us; the first wakes P. Only the first round (64 packets) runs inline, not ten (640). */
static void test_wake_on_idle_stops_restart(void)
{
    TestHost *th = test_host_new(1, 1000);
    th->conf.sched.policy = SCHED_CFS;
    test_host_build(th);
    Napping p = { 0 };
    task_init(&p.t, &th->host, "p", napping_step, &p, NULL);
    task_start(&p.t);
    Log *log = g_new0(Log, 1);
    WakingNapi wn;
    Raise r;
    run_waking_softirq(th, &wn, &r, log, &p.t);
    g_assert_cmpint(p.runs, ==, 2);
    g_assert_cmpint(log->n, ==, 1000);
    g_assert_cmpint(count_inline(log), ==, 64);
    g_assert_cmpuint(cpu_stats(th->cpus[0]).softirq_runs, ==, 1);
    g_assert_cmpuint(cpu_stats(th->cpus[0]).ksoftirqd_wakeups, ==, 1);
    g_free(log);
    test_host_free(th);
}

/* The run both tests below share: one CPU, EEVDF with a 3 ms base slice, a spinning task S, and
 * 1000 NET_RX packets of 1 us raised at 100 us, run to 5 ms; defer sets
 * stack.softirq.defer_to_ksoftirqd. Everything the run refers to lives in the struct. */
typedef struct BurstRun {
    TestHost *th;
    Spinner s;
    Log *log;
    LoggedNapi a;
    Raise r;
} BurstRun;

static void burst_run(BurstRun *b, bool defer)
{
    memset(b, 0, sizeof *b);
    b->th = test_host_new(1, 1000);
    b->th->conf.sched.policy = SCHED_EEVDF;
    b->th->conf.sched.base_slice_ns = 3 * SIM_MS;
    b->th->stack.softirq_defer_to_ksoftirqd = defer;
    test_host_build(b->th);
    task_init(&b->s.t, &b->th->host, "s", spinner_step, &b->s, NULL);
    task_start(&b->s.t);
    b->log = g_new0(Log, 1);
    napi_setup(&b->a, b->log, 'a', SOFTIRQ_NET_RX, 1000, SIM_US);
    b->r = (Raise){ .w = { &b->a.napi.w }, .n = 1 };
    raise_at(b->th, &b->r, 100 * SIM_US);
    sim_run_until(b->th->sim, 5 * SIM_MS);
}

/* The timer tick is a hard interrupt: its irq_exit runs work left for ksoftirqd inline.
 * EEVDF (base_slice 3 ms, factor 1), 1 CPU: the spinner S starts alone (v 0, first deadline
 * 1.5 ms) and runs from 2 us. 1000 packets of 1 us are raised at 100 us: the inline run does
 * 640 (to 740.3 us) and wakes ksoftirqd (to 740.6 us), placed at V = S.v = 98 us: S is eligible
 * and inside the request it was picked with (RUN_TO_PARITY), so no preemption and ksoftirqd
 * waits. At the 1 ms tick S.v = 98 + (1000 - 740.6) = 357.4 us < 1.5 ms: no reschedule, but the
 * tick's irq_exit runs the 360 pending packets inline (6 rounds, none over a limit): packet 641
 * acts at 1 ms, packet 1000 at 1000.3 + 359 us. ksoftirqd, when it finally runs (S's deadline at
 * the 3 ms tick), finds nothing and sleeps: it never processes a packet. */
static void test_tick_runs_pending_inline(void)
{
    BurstRun b;
    burst_run(&b, false);
    TestHost *th = b.th;
    Log *log = b.log;
    g_assert_cmpint(log->n, ==, 1000);
    g_assert_cmpint(count_inline(log), ==, 1000);
    g_assert_cmpint(log->at[639], ==, 100300 + 639 * 1000);
    g_assert_cmpint(log->at[640], ==, SIM_MS);
    g_assert_cmpint(log->at[999], ==, 1000300 + 359 * 1000);
    CpuStats st = cpu_stats(th->cpus[0]);
    g_assert_cmpuint(st.softirq_runs, ==, 2);
    g_assert_cmpuint(st.ksoftirqd_wakeups, ==, 1);
    g_assert_cmpint(st.softirq_ns, ==, 640600 + 360300);
    Task *k = cpu_ksoftirqd(th->cpus[0]);
    g_assert_cmpint(k->runtime_ns, ==, 0);
    g_assert_cmpuint(k->nr_switches, ==, 1);
    g_free(log);
    test_host_free(th);
}

/* The same run with stack.softirq.defer_to_ksoftirqd (4.9-6.4, ksoftirqd_running()): ksoftirqd
 * is runnable from 740.6 us, so the 1 ms and 2 ms ticks' irq_exit leave the 360 pending packets
 * to it. It runs when S's request ends: at the 2 ms tick S.v = 98 + (2000 - 740.6) = 1357.4 us
 * < 1.5 ms, at the 3 ms tick 2357.4 us has passed the deadline (resched, ksoftirqd eligible at
 * V with the earlier deadline). S's 10 us steps, pushed back by the 640.6 us of the inline run,
 * start at 642.6 + 10k us: the one from 3002.6 us sees need_resched at its return to user and
 * yields at its end, 3012.6 us; after the 2 us switch ksoftirqd does packets 641-1000 itself,
 * the first acting at 3014.6 us (its __do_softirq entry is charged with it). */
static void test_defer_to_runnable_ksoftirqd(void)
{
    BurstRun b;
    burst_run(&b, true);
    TestHost *th = b.th;
    Log *log = b.log;
    g_assert_cmpint(log->n, ==, 1000);
    g_assert_cmpint(count_inline(log), ==, 640);
    g_assert_false(log->in_ksoftirqd[639]);
    g_assert_true(log->in_ksoftirqd[640]);
    g_assert_cmpint(log->at[640], ==, 3014600);
    CpuStats st = cpu_stats(th->cpus[0]);
    g_assert_cmpuint(st.softirq_runs, ==, 1);
    g_assert_cmpuint(st.ksoftirqd_wakeups, ==, 1);
    g_assert_cmpint(st.softirq_ns, ==, 640600);
    g_assert_cmpint(cpu_ksoftirqd(th->cpus[0])->runtime_ns, ==, 300 + 360 * 1000);
    g_free(log);
    test_host_free(th);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/softirq/defer-to-ksoftirqd-after-restarts",
                    test_defer_to_ksoftirqd_after_restarts);
    g_test_add_func("/softirq/max-softirq-time/hz1000", test_max_softirq_time_hz1000);
    g_test_add_func("/softirq/max-softirq-time/hz250", test_max_softirq_time_hz250);
    g_test_add_func("/softirq/budget-round-robin", test_budget_round_robin);
    g_test_add_func("/softirq/net-rx-time-limit-two-jiffies", test_net_rx_time_limit_two_jiffies);
    g_test_add_func("/softirq/napi-weight-counts-work", test_napi_weight_counts_work);
    g_test_add_func("/softirq/timer-before-net-rx", test_timer_before_net_rx);
    g_test_add_func("/softirq/tasklet-after-net-rx", test_tasklet_after_net_rx);
    g_test_add_func("/softirq/need-resched-stops-restart", test_need_resched_stops_restart);
    g_test_add_func("/softirq/restart-count-only-before-3.9", test_restart_count_only_before_3_9);
    g_test_add_func("/softirq/repoll-in-action-before-3.19", test_repoll_in_action_before_3_19);
    g_test_add_func("/softirq/wake-on-idle-stops-restart", test_wake_on_idle_stops_restart);
    g_test_add_func("/softirq/tick-runs-pending-inline", test_tick_runs_pending_inline);
    g_test_add_func("/softirq/defer-to-runnable-ksoftirqd", test_defer_to_runnable_ksoftirqd);
    return g_test_run();
}
