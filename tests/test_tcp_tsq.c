/* test_tcp_tsq.c - TCP Small Queues (notes F.4, host notes E.3): bytes below TCP limited to
 * max(2 x truesize, pacing_rate >> 10), at most tcp_limit_output_bytes; a TX completion of a
 * throttled socket runs the TSQ handler that resumes transmission. */
#include "models/cpu.h"
#include "models/netdev.h"
#include "models/sock_test_util.h"
#include "tcp_harness.h"

/* The device holds every skb until the test completes it (no TX completion yet). */
static int hold_output(void *ctx, Skb *skb, Cpu *cpu)
{
    TcpBench *tb = ctx;
    (void)cpu;
    skb_queue_tail(&tb->out[0], skb);
    return 0; /* NET_XMIT_SUCCESS */
}

/* TX completion as the device does it: uncharge, then the socket's destructor hook. */
static void complete(TcpBench *tb, Skb *skb)
{
    Sock *sk = skb->sk;
    sk->wmem_alloc -= skb->truesize;
    skb->sk = NULL;
    sock_wfree(sk, skb, NULL);
    skb_free(tb->host[0].pool, skb);
}

/* limit_output_bytes 20000, cwnd 100 and a 4 MiB peer window (white-box), MSS 1448, no RTT
 * yet: no pacing rate, so the rate term is unlimited and limit = min(.., 20000) = 20000.
 * size_goal = 64 KB / 1448 = 45 MSS (half the window no longer binds), truesize 1280 + 65160
 * = 66440. 100 MSS = skbs of 45, 45, 10 (cwnd quota per skb: min(cwnd/2, cwnd - in flight)):
 *  - skb 1: wmem_alloc 0 <= 20000 -> sent;
 *  - skb 2: 66440 > 20000 but the retransmit queue holds one skb -> sent (never throttle
 *    then); 132880 in the device;
 *  - skb 3: 132880 > 20000, two skbs out -> TSQ_THROTTLED, stop.
 * Completing skb 1 (66440 left > 20000) re-runs tcp_write_xmit, which throttles again;
 * completing skb 2 (0 left) lets skb 3 go. */
static void test_tsq_throttle_and_resume(void)
{
    TcpBench *tb = th_new();
    tb->conf[0].tcp.limit_output_bytes = 20000;
    th_connect(tb, 1500);
    tcp_set_xmit_hook(tb->a, hold_output, tb);
    tb->a->snd_cwnd = 100;
    tb->a->snd_wnd = tb->a->max_window = 4u << 20;
    th_write(tb->a, 100 * 1448);
    g_assert_cmpuint(th_pending(tb, 0), ==, 2);
    g_assert_cmpuint(tcp_sk(tb->a)->wmem_alloc, ==, 132880);
    g_assert_true(tb->a->tsq_flags & TSQF_THROTTLED);
    g_assert_cmpuint(tb->a->write_queue.qlen, ==, 1);
    g_assert_cmpint(tb->a->tsq_work.kind, ==, SOFTIRQ_TASKLET); /* tcp_wfree's tasklet_schedule */
    complete(tb, th_take(tb, 0));
    g_assert_cmpuint(th_pending(tb, 0), ==, 1);
    g_assert_true(tb->a->tsq_flags & TSQF_THROTTLED);
    complete(tb, th_take(tb, 0));
    g_assert_cmpuint(th_pending(tb, 0), ==, 1);
    Skb *third = th_take(tb, 0);
    g_assert_cmpuint(third->seq, ==, 1 + 90 * 1448);
    g_assert_cmpuint(third->len, ==, 10 * 1448);
    complete(tb, third);
    g_assert_cmpuint(tb->a->write_queue.qlen, ==, 0);
    g_assert_false(tb->a->tsq_flags & TSQF_THROTTLED);
    th_free(tb);
}

/* Before 3.6 there was no TSQ (hosts.H.tcp.tsq false): the same write hands the device all
 * three skbs (45, 45 and 10 MSS) at once, 2 x 66440 + (1280 + 10 x 1448) = 148640 bytes below
 * TCP, and nothing is throttled. */
static void test_no_tsq_before_3_6(void)
{
    TcpBench *tb = th_new();
    tb->conf[0].tcp.limit_output_bytes = 20000;
    tb->conf[0].tcp.tsq = false;
    th_connect(tb, 1500);
    tcp_set_xmit_hook(tb->a, hold_output, tb);
    tb->a->snd_cwnd = 100;
    tb->a->snd_wnd = tb->a->max_window = 4u << 20;
    th_write(tb->a, 100 * 1448);
    g_assert_cmpuint(th_pending(tb, 0), ==, 3);
    g_assert_cmpuint(tcp_sk(tb->a)->wmem_alloc, ==, 148640);
    g_assert_false(tb->a->tsq_flags & TSQF_THROTTLED);
    g_assert_cmpuint(tb->a->write_queue.qlen, ==, 0);
    while (th_pending(tb, 0))
        complete(tb, th_take(tb, 0));
    th_free(tb);
}

/* A paced flow (hosts.H.tcp.pacing: internal pacing, sk_pacing_status SK_PACING_NEEDED) is not
 * capped by tcp_limit_output_bytes in 2018-6.15 (6.6's tcp_small_queue_check applies the sysctl
 * only "if (sk->sk_pacing_status == SK_PACING_NONE)"): its limit is max(2 x truesize,
 * pacing_rate >> 10). limit_output_bytes 20000, cwnd 100, SRTT 1 ms: slow-start pacing rate
 * 2 x 100 x 1448 B / 1 ms = 289 600 000 B/s, >> 10 = 282 812 bytes. The 100 MSS go as skbs of
 * 45, 45 and 10 MSS, paced 65160 B / 289.6e6 B/s = 225 us apart (the first skb's 45 segments
 * use up sch_fq's 10 unpaced ones); the device completes nothing. Paced and uncapped: the
 * third skb goes at 450 us with 132 880 bytes below TCP (< 282 812). Capped (a flow that is
 * not paced, or tcp.tsq_cap_paced as before 2018 and in 6.16+): limit 20000, the second skb
 * goes only because the retransmit queue holds one skb, and the third is throttled. */
static uint32_t paced_tsq_sent(bool pacing, bool cap_paced)
{
    TcpBench *tb = th_new();
    tb->conf[0].tcp.limit_output_bytes = 20000;
    tb->conf[0].tcp.pacing = pacing;
    tb->conf[0].tcp.tsq_cap_paced = cap_paced;
    th_connect(tb, 1500);
    tcp_set_xmit_hook(tb->a, hold_output, tb);
    tb->a->snd_cwnd = 100;
    tb->a->snd_wnd = tb->a->max_window = 4u << 20;
    tb->a->srtt_us = 8000; /* 8 x 1 ms */
    tcp_update_pacing_rate(tb->a);
    g_assert_cmpuint(tb->a->pacing_rate, ==, 289600000u);
    th_write(tb->a, 100 * 1448);
    th_run_to(tb, 2 * SIM_MS);
    uint32_t sent = th_pending(tb, 0);
    g_assert_cmpuint(tb->a->write_queue.qlen, ==, 3 - sent);
    g_assert_cmpint(!!(tb->a->tsq_flags & TSQF_THROTTLED), ==, sent < 3);
    while (th_pending(tb, 0))
        complete(tb, th_take(tb, 0));
    th_free(tb);
    return sent;
}

static void test_tsq_paced_flow_not_capped(void)
{
    g_assert_cmpuint(paced_tsq_sent(true, false), ==, 3);  /* 2018-6.15, paced */
    g_assert_cmpuint(paced_tsq_sent(true, true), ==, 2);   /* before 2018, 6.16+ */
    g_assert_cmpuint(paced_tsq_sent(false, false), ==, 2); /* not paced: always capped */
}

/* tcp_wfree in ksoftirqd ("tcp: TCP Small Queues and strange attractors", 9b462d02d6dd, 4.9;
 * read in 6.6): a TX completion serviced by ksoftirqd/N, with some of the socket's skbs still
 * below TCP, does not queue the TSQ handler; the flow waits until its queues are drained.
 * One CPU, limit_output_bytes 100000, cwnd 200, 100 MSS: skbs of 45, 45, 10 MSS (truesize 66440
 * each for the first two); skb 1 goes, skb 2 goes (66440 <= 100000), skb 3 is throttled
 * (132880 > 100000). A NET_RX-like work of 1000 units of 1 us runs on the CPU: units 0-639 in
 * softirq context, the rest in ksoftirqd/0 (test_softirq.c: MAX_SOFTIRQ_RESTART). Skb 1's
 * completion is done by unit `at`: 66440 bytes remain below TCP (<= 100000), so the TSQ handler,
 * if queued, sends skb 3. Inline (unit 100) it is queued and skb 3 leaves; in ksoftirqd (unit
 * 700) it is not: skb 3 waits, THROTTLED still set. */
typedef struct {
    SoftirqWork w;
    TcpSock *tp;
    SkbQueue *held;
    int done, at;
    bool in_ksoftirqd;
} Completer;

static bool completer_run(SoftirqWork *w, Cpu *cpu)
{
    Completer *c = w->ctx;
    if (c->done == c->at) {
        c->in_ksoftirqd = cpu_current(cpu) == cpu_ksoftirqd(cpu);
        Skb *skb = skb_dequeue(c->held);
        Sock *sk = skb->sk; /* the device's TX completion: uncharge, then the destructor */
        sk->wmem_alloc -= skb->truesize;
        skb->sk = NULL;
        sock_wfree(sk, skb, cpu);
        skb_free(cpu_host(cpu)->pool, skb);
    }
    c->done++;
    cpu_charge(cpu, SIM_US);
    return c->done < 1000;
}

static int hold_in(void *ctx, Skb *skb, Cpu *cpu)
{
    (void)cpu;
    skb_queue_tail(ctx, skb);
    return 0;
}

typedef struct {
    SimEvent ev;
    Cpu *cpu;
    SoftirqWork *w;
} RaiseOne;

static void raise_one(Sim *sim, void *ctx)
{
    RaiseOne *r = ctx;
    (void)sim;
    cpu_raise_softirq(r->cpu, r->w);
}

static uint32_t sent_after_completion_at(int at, bool *in_ksoftirqd, bool *throttled)
{
    TestHost *th = test_host_new(1, 1000);
    th->conf.tcp.limit_output_bytes = 100000;
    test_host_build(th);
    Host *h = &th->host;
    h->socks = g_ptr_array_new();
    TcpSock *a = tcp_sock_new(h, 1, 1), *b = tcp_sock_new(h, 1, 2);
    tcp_connect_pair(a, b, 1500);
    SkbQueue held = { 0 };
    tcp_set_xmit_hook(a, hold_in, &held);
    a->snd_cwnd = 200;
    a->snd_wnd = a->max_window = 4u << 20;
    th_write(a, 100 * 1448);
    g_assert_cmpuint(held.qlen, ==, 2);
    g_assert_cmpuint(tcp_sk(a)->wmem_alloc, ==, 2 * 66440);
    g_assert_true(a->tsq_flags & TSQF_THROTTLED);
    Completer c = { .tp = a, .held = &held, .at = at };
    softirq_work_init(&c.w, SOFTIRQ_NET_RX, completer_run, &c);
    RaiseOne r = { .cpu = th->cpus[0], .w = &c.w };
    sim_event_init(&r.ev, raise_one, &r, 0, 0);
    sim_schedule_at(th->sim, &r.ev, 0);
    sim_run_until(th->sim, 2 * SIM_MS);
    g_assert_cmpint(c.done, ==, 1000);
    *in_ksoftirqd = c.in_ksoftirqd;
    *throttled = a->tsq_flags & TSQF_THROTTLED;
    uint32_t sent = 2 + (a->write_queue.qlen == 0);
    g_assert_cmpuint(held.qlen, ==, sent - 1);
    while (held.qlen) {
        Skb *skb = skb_dequeue(&held);
        tcp_sk(a)->wmem_alloc -= skb->truesize;
        skb_free(h->pool, skb);
    }
    tcp_sock_free(a);
    tcp_sock_free(b);
    g_ptr_array_free(h->socks, TRUE);
    test_host_free(th);
    return sent;
}

static void test_tsq_wfree_in_ksoftirqd_waits(void)
{
    bool in_ksoftirqd, throttled;
    g_assert_cmpuint(sent_after_completion_at(100, &in_ksoftirqd, &throttled), ==, 3);
    g_assert_false(in_ksoftirqd);
    g_assert_false(throttled);
    g_assert_cmpuint(sent_after_completion_at(700, &in_ksoftirqd, &throttled), ==, 2);
    g_assert_true(in_ksoftirqd);
    g_assert_true(throttled);
}

/* While the owner holds the socket the TSQ handler only sets TCP_TSQ_DEFERRED; tcp_release_cb
 * then transmits. */
static void test_tsq_deferred_while_owned(void)
{
    TcpBench *tb = th_new();
    tb->conf[0].tcp.limit_output_bytes = 20000;
    th_connect(tb, 1500);
    tcp_set_xmit_hook(tb->a, hold_output, tb);
    tb->a->snd_cwnd = 100;
    tb->a->snd_wnd = tb->a->max_window = 4u << 20;
    th_write(tb->a, 100 * 1448);
    tcp_sk(tb->a)->owned = true;
    complete(tb, th_take(tb, 0));
    complete(tb, th_take(tb, 0));
    g_assert_cmpuint(th_pending(tb, 0), ==, 0);
    g_assert_true(tb->a->tsq_flags & TCPF_TSQ_DEFERRED);
    tcp_sk(tb->a)->ops->release_cb(tcp_sk(tb->a), NULL);
    tcp_sk(tb->a)->owned = false;
    g_assert_cmpuint(th_pending(tb, 0), ==, 1);
    complete(tb, th_take(tb, 0));
    th_free(tb);
}

/* Fill the write queue with `bytes` as sendmsg's copy loop does, then its final tcp_push. */
static void write_and_push(TcpBench *tb, uint64_t bytes)
{
    uint32_t size_goal;
    while (bytes) {
        tcp_send_mss(tb->a, &size_goal);
        Skb *skb = tb->a->write_queue.tail;
        if (!skb || skb->len >= size_goal)
            skb = tcp_entail_new_skb(tb->a, NULL);
        uint64_t n = size_goal - skb->len < bytes ? size_goal - skb->len : bytes;
        tcp_skb_fill(tb->a, skb, n);
        bytes -= n;
    }
    tcp_send_mss(tb->a, &size_goal);
    tcp_push(tb->a, 0, size_goal, NULL);
}

/* Autocorking (3.14+): two full MSS go (nothing was below TCP yet); a 1000-byte write then
 * leaves a tail short of size_goal while those two still sit in the device (sk_wmem_alloc
 * 1280 + 2896 > the tail's 1280 + 1000): it is held (TCPAutoCorking, TSQ_THROTTLED), and a
 * second write grows it to 2000. The device's completion of the first skb runs the TSQ handler,
 * which sends the grown tail. Without autocorking the 1000 bytes leave at once (Nagle lets them:
 * no small segment is out). */
static void test_autocork(void)
{
    for (int cork = 0; cork <= 1; cork++) {
        TcpBench *tb = th_new();
        tb->conf[0].tcp.autocorking = cork;
        th_connect(tb, 1500);
        tcp_set_xmit_hook(tb->a, hold_output, tb);
        tb->a->snd_cwnd = 100;
        tb->a->snd_wnd = tb->a->max_window = 4u << 20;
        write_and_push(tb, 2 * 1448);
        g_assert_cmpuint(th_pending(tb, 0), ==, 1);
        write_and_push(tb, 1000);
        g_assert_cmpuint(th_pending(tb, 0), ==, cork ? 1 : 2);
        g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPAutoCorking), ==, cork ? 1 : 0);
        if (cork) {
            write_and_push(tb, 1000);
            g_assert_cmpuint(th_pending(tb, 0), ==, 1);
            g_assert_cmpuint(tb->a->write_queue.tail->len, ==, 2000);
            complete(tb, th_take(tb, 0));
            g_assert_cmpuint(th_pending(tb, 0), ==, 1);
            g_assert_cmpuint(tb->out[0].head->len, ==, 2000);
        }
        while (th_pending(tb, 0))
            complete(tb, th_take(tb, 0));
        th_free(tb);
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/tcp/tsq/throttle-resume", test_tsq_throttle_and_resume);
    g_test_add_func("/tcp/tsq/none-before-3.6", test_no_tsq_before_3_6);
    g_test_add_func("/tcp/tsq/autocork", test_autocork);
    g_test_add_func("/tcp/tsq/deferred-owned", test_tsq_deferred_while_owned);
    g_test_add_func("/tcp/tsq/paced-not-capped", test_tsq_paced_flow_not_capped);
    g_test_add_func("/tcp/tsq/wfree-in-ksoftirqd-waits", test_tsq_wfree_in_ksoftirqd_waits);
    return g_test_run();
}
