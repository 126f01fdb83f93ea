/* test_tcp_prequeue.c - the prequeue's delayed-ACK arming (notes A.12-A.13, seed 003) and
 * mod_timer's short cut with and without slack.
 *
 * A request/response exchange in ping-pong mode, HZ 1000, rto_min 200 ms, ato 40 ms. Each
 * transaction k (k = 0..4) at jiffy J = 10 + k: the request reaches b while its reader sleeps
 * in recvmsg, so tcp_prequeue queues it and, no ACK being scheduled, arms the delayed-ACK timer
 * at J + 3*200/4 = J + 150 (policy rto_min_3_4) or J + min(ato 40, 150) = J + 40 (min_ato).
 * In the same jiffy the reader processes it (tcp_rcv_established: a small segment in ping-pong
 * mode -> tcp_send_delayed_ack at J + ato = J + 40, keeping the earlier of the two deadlines)
 * and the response carries the ACK (the pending flags clear; the timer stays queued).
 * Timer modifications per transaction (the delayed-ACK timer of b):
 *   rto_min_3_4: k = 0: arm (not pending) + 150 -> 40 modified; k > 0: (J+150 vs J-1+40) and
 *                (J+40 vs J+150) both modified: 0 short cuts, 10 slow paths;
 *   min_ato:     k = 0: arm + same expiry (short cut); k > 0: J+40 vs J-1+40 modified, then
 *                the delayed ACK's J+40 short cut: 5 short cuts, 5 slow;
 *   min_ato with stack.timer.slack = 1 (mod_timer_unexact): the timer stays at 50 while the
 *                new expiry is within 1 jiffy: k=0 arm+cut, k=1 (51 vs 50) cut+cut, k=2
 *                (52 vs 50) modified+cut, k=3 (53 vs 52) cut+cut, k=4 (54 vs 52)
 *                modified+cut: 7 short cuts, 3 slow. */
#include "tcp_harness.h"

typedef struct PrequeueRun {
    uint64_t shortcut, slow, prequeued;
    uint64_t first_arm_timeout;
} PrequeueRun;

static void warm_up(TcpBench *tb)
{
    th_write(tb->a, 100);
    th_deliver(tb, 0);
    th_deliver(tb, 1);                  /* b's quick ACK */
    th_write(tb->b, 100);               /* the response: b enters ping-pong */
    g_assert_true(inet_csk_in_pingpong_mode(tb->b));
    th_deliver(tb, 1);
    th_deliver(tb, 0);                  /* a's quick ACK of the response */
    g_assert_cmpuint(th_pending(tb, 0), ==, 0);
    g_assert_cmpuint(th_pending(tb, 1), ==, 0);
    g_assert_cmpuint(tb->b->ack.ato, ==, 40);
}

static PrequeueRun run_prequeue(PrequeueDelackPolicy policy, uint32_t slack)
{
    TcpBench *tb = th_new();
    th_connect(tb, 1500);
    warm_up(tb);
    tb->stack.prequeue_enabled = true;
    tb->stack.prequeue_delack = policy;
    tb->stack.timer_slack_jiffies = slack;
    Task reader = { 0 };
    tb->b->ucopy_task = &reader; /* blocked in recvmsg */
    PrequeueRun r = { 0 };
    uint64_t cut0 = tb->b->timer_mod_shortcut[1], slow0 = tb->b->timer_mod_slow[1];
    for (int k = 0; k < 5; k++) {
        th_run_to(tb, (10 + k) * SIM_MS);
        th_write(tb->a, 100);
        g_assert_cmpuint(th_pending(tb, 0), ==, 1);
        th_deliver(tb, 0);
        g_assert_cmpuint(tb->b->prequeue.qlen, ==, 1);
        if (k == 0)
            r.first_arm_timeout = tb->b->ack.timeout;
        tcp_prequeue_process(tb->b, NULL);
        g_assert_cmpuint(th_pending(tb, 1), ==, 0); /* delayed, to be piggybacked */
        g_assert_cmpuint(tb->b->ack.timeout, ==, 10 + k + 40);
        th_read(tb->b);
        th_write(tb->b, 100);
        g_assert_false(inet_csk_ack_scheduled(tb->b));
        th_deliver(tb, 1);
    }
    r.shortcut = tb->b->timer_mod_shortcut[1] - cut0;
    r.slow = tb->b->timer_mod_slow[1] - slow0;
    r.prequeued = th_ctr(tb, 1, CTR_TcpExtTCPPrequeued);
    tb->b->ucopy_task = NULL;
    th_free(tb);
    return r;
}

static void test_prequeue_rto_min_3_4(void)
{
    PrequeueRun r = run_prequeue(PREQUEUE_DELACK_RTO_MIN_3_4, 0);
    g_assert_cmpuint(r.first_arm_timeout, ==, 10 + 150);
    g_assert_cmpuint(r.prequeued, ==, 5);
    g_assert_cmpuint(r.shortcut, ==, 0);
    g_assert_cmpuint(r.slow, ==, 10);
}

static void test_prequeue_min_ato(void)
{
    PrequeueRun r = run_prequeue(PREQUEUE_DELACK_MIN_ATO, 0);
    g_assert_cmpuint(r.first_arm_timeout, ==, 10 + 40);
    g_assert_cmpuint(r.shortcut, ==, 5);
    g_assert_cmpuint(r.slow, ==, 5);
}

static void test_prequeue_min_ato_slack(void)
{
    PrequeueRun r = run_prequeue(PREQUEUE_DELACK_MIN_ATO, 1);
    g_assert_cmpuint(r.shortcut, ==, 7);
    g_assert_cmpuint(r.slow, ==, 3);
    /* slack cannot help the old policy: 150 and 40 jiffies apart */
    r = run_prequeue(PREQUEUE_DELACK_RTO_MIN_3_4, 1);
    g_assert_cmpuint(r.shortcut, ==, 0);
    g_assert_cmpuint(r.slow, ==, 10);
}

/* The prequeue's safety net: the reader never runs, the delayed-ACK timer fires at J + 40
 * (min_ato), processes the prequeue in softirq and sends the ACK (DelayedACKs 1). */
static void test_prequeue_timer_safety_net(void)
{
    TcpBench *tb = th_new();
    th_connect(tb, 1500);
    warm_up(tb);
    tb->stack.prequeue_enabled = true;
    Task reader = { 0 };
    tb->b->ucopy_task = &reader;
    th_run_to(tb, 10 * SIM_MS);
    th_write(tb->a, 100);
    th_deliver(tb, 0);
    th_run_to(tb, 50 * SIM_MS - 1);
    g_assert_cmpuint(th_pending(tb, 1), ==, 0);
    th_run_to(tb, 50 * SIM_MS);
    g_assert_cmpuint(tb->b->prequeue.qlen, ==, 0);
    g_assert_cmpuint(th_pending(tb, 1), ==, 1);
    Skb *ack = th_take(tb, 1);
    g_assert_cmpuint(ack->ack_seq, ==, 1 + 200);
    skb_free(tb->host[1].pool, ack);
    g_assert_cmpuint(th_ctr(tb, 1, CTR_TcpExtDelayedACKs), ==, 1);
    tb->b->ucopy_task = NULL;
    th_free(tb);
}

/* __mod_timer's slow path on a timer queued on another CPU's base (timers notes B.2): it locks
 * that base, detaches, then moves the timer to the arming CPU's base. Host b gets two CPUs and
 * re-arms its delayed-ACK timer from softirq work at 1 ms on CPU 0 (first arming), at 2 ms on
 * CPU 1 (the timer is on CPU 0's base: remote) and at 3 ms on CPU 1 again (local). Each run costs
 * softirq_entry + timer_mod_slow, and the remote one timer_mod_remote more; the timer then
 * fires on the CPU that armed it last. */
typedef struct ArmWork {
    SoftirqWork w;
    SimEvent ev;
    TcpSock *tp;
    Cpu *cpu;
    uint64_t expires;
} ArmWork;

static bool arm_run(SoftirqWork *w, Cpu *cpu)
{
    ArmWork *a = w->ctx;
    tcp_sk_reset_timer(a->tp, &a->tp->delack_timer, a->expires, cpu);
    return false;
}

static void arm_raise(Sim *sim, void *ctx)
{
    ArmWork *a = ctx;
    (void)sim;
    cpu_raise_softirq(a->cpu, &a->w);
}

static void test_timer_remote_base(void)
{
    TcpBench *tb = th_new();
    th_connect(tb, 1500);
    Host *h = &tb->host[1];
    Cpu *cpus[2];
    h->ncpus = 2;
    h->cpus = cpus;
    for (uint32_t c = 0; c < 2; c++)
        cpus[c] = cpu_new(h, c);
    ArmWork arm[3];
    const uint32_t on[3] = { 0, 1, 1 };
    for (int i = 0; i < 3; i++) {
        arm[i] = (ArmWork){ .tp = tb->b, .cpu = cpus[on[i]], .expires = 100 + (uint64_t)i };
        softirq_work_init(&arm[i].w, SOFTIRQ_TIMER, arm_run, &arm[i]);
        sim_event_init(&arm[i].ev, arm_raise, &arm[i], 0, 0);
        sim_schedule_at(tb->sim, &arm[i].ev, (sim_time_t)(i + 1) * SIM_MS);
    }
    const CostTable *c = &tb->conf[1].costs;
    sim_time_t run = c->ns[COST_SOFTIRQ_ENTRY] + c->ns[COST_TIMER_MOD_SLOW];
    g_assert_cmpint(c->ns[COST_TIMER_MOD_REMOTE], >, 0);

    th_run_to(tb, 1 * SIM_MS + SIM_US);
    g_assert_cmpint(cpu_stats(cpus[0]).softirq_ns, ==, run);
    g_assert_cmpuint(tb->b->timer_mod_remote[1], ==, 0);

    th_run_to(tb, 2 * SIM_MS + SIM_US);
    g_assert_cmpint(cpu_stats(cpus[1]).softirq_ns, ==, run + c->ns[COST_TIMER_MOD_REMOTE]);
    g_assert_cmpuint(tb->b->timer_mod_remote[1], ==, 1);

    th_run_to(tb, 3 * SIM_MS + SIM_US);
    g_assert_cmpint(cpu_stats(cpus[1]).softirq_ns, ==, 2 * run + c->ns[COST_TIMER_MOD_REMOTE]);
    g_assert_cmpuint(tb->b->timer_mod_remote[1], ==, 1);
    g_assert_cmpuint(tb->b->timer_mod_slow[1], ==, 3);
    g_assert_true(tb->b->delack_timer_cpu == cpus[1]);
    g_assert_cmpint(cpu_stats(cpus[0]).softirq_ns, ==, run);

    tcp_stop_timers(tb->b);
    for (uint32_t i = 0; i < 2; i++) /* the CPUs go before the Sim, which th_free frees */
        cpu_free(cpus[i]);
    h->ncpus = 0;
    h->cpus = NULL;
    th_free(tb);
}

/* How many 1448-byte segments stay on the prequeue after n reach b while its reader is blocked
 * in recvmsg. Each skb's truesize is 2728 (test_tcp_ucopy.c) and b's sk_rcvbuf 131072, so the
 * 2.6-3.x limit (ucopy.memory > sk_rcvbuf, 3.4 include/net/tcp.h) would only act at the 49th;
 * the 4.x one (4.8-4.13 tcp_ipv4.c) processes the whole prequeue in softirq at the 32nd. */
static uint32_t prequeue_len_after(PrequeueLimit limit, int n, uint64_t unread, uint64_t *dropped)
{
    TcpBench *tb = th_new();
    tb->stack.prequeue_enabled = true;
    tb->stack.prequeue_limit = limit;
    th_connect(tb, 1500);
    tb->a->snd_cwnd = 64; /* 40 segments in one flight, within b's 64 KB window */
    Task reader = { 0 };
    tb->b->ucopy_task = &reader;
    tb->b->sk.rmem_alloc += unread; /* as if that much truesize waited on the receive queue */
    for (int i = 0; i < n; i++) {
        th_write(tb->a, 1448);
        g_assert_cmpuint(th_pending(tb, 0), ==, 1);
        th_deliver(tb, 0);
    }
    tb->b->sk.rmem_alloc -= unread;
    uint32_t qlen = tb->b->prequeue.qlen;
    *dropped = th_ctr(tb, 1, CTR_TcpExtTCPPrequeueDropped);
    tcp_prequeue_process(tb->b, NULL);
    tb->b->ucopy_task = NULL;
    th_pump(tb);
    th_free(tb);
    return qlen;
}

/* With 100000 bytes of truesize unread on the receive queue, 4.x gives up at the 12th skb
 * (12 x 2728 + 100000 > 131072, 11 x 2728 + 100000 is not); 3.x does not count them. Each skb
 * the overflow sends through TCP in softirq counts TCPPrequeueDropped (3.4 and 4.x alike). */
static void expect_prequeue(PrequeueLimit limit, int n, uint64_t unread, uint32_t left,
                            uint64_t dropped)
{
    uint64_t got;
    g_assert_cmpuint(prequeue_len_after(limit, n, unread, &got), ==, left);
    g_assert_cmpuint(got, ==, dropped);
}

static void test_prequeue_limit_3x(void)
{
    expect_prequeue(PREQUEUE_LIMIT_3X, 40, 0, 40, 0);
    expect_prequeue(PREQUEUE_LIMIT_3X, 12, 100000, 12, 0);
}

static void test_prequeue_limit_4x(void)
{
    expect_prequeue(PREQUEUE_LIMIT_4X, 31, 0, 31, 0);
    expect_prequeue(PREQUEUE_LIMIT_4X, 40, 0, 8, 32);
    expect_prequeue(PREQUEUE_LIMIT_4X, 11, 100000, 11, 0);
    expect_prequeue(PREQUEUE_LIMIT_4X, 12, 100000, 0, 12);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/tcp/prequeue/limit-3.x", test_prequeue_limit_3x);
    g_test_add_func("/tcp/prequeue/limit-4.x", test_prequeue_limit_4x);
    g_test_add_func("/tcp/prequeue/rto-min-3-4", test_prequeue_rto_min_3_4);
    g_test_add_func("/tcp/prequeue/min-ato", test_prequeue_min_ato);
    g_test_add_func("/tcp/prequeue/min-ato-slack", test_prequeue_min_ato_slack);
    g_test_add_func("/tcp/prequeue/safety-net", test_prequeue_timer_safety_net);
    g_test_add_func("/tcp/prequeue/timer-remote-base", test_timer_remote_base);
    return g_test_run();
}
