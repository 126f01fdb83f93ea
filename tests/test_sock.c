/* test_sock.c - socket lock and backlog: the five backlog limits, coalescing, the drain's
 * cond_resched points (resched_every 1 and 16, one count across batches), the three
 * preemption models, an owner descheduled while segments pile up, lock waiters,
 * sk_flush_backlog and the backlog_len reset. */
#include <glib.h>

#include "models/cpu.h"
#include "models/skb.h"
#include "models/sock.h"
#include "models/sock_test_util.h"

#define MAX_LOG 128

/* ---- a fake protocol that logs what it processes ---- */

typedef struct {
    Sock sk;
    int direct;                 /* rcv (softirq, not owned) */
    int backlogged;             /* backlog_rcv calls */
    int release_cbs;
    sim_time_t rcv_at[MAX_LOG];
    uint32_t rcv_cpu[MAX_LOG];
    uint64_t len_seen[MAX_LOG]; /* backlog_len while processing */
    Task *wake_on_rcv;          /* woken by every backlog skb (sets need_resched) */
    int inject_on_first;        /* skbs to append to the backlog when the first one is processed */
    sim_time_t rcv_cost_ns;
} FakeSock;

static Skb *make_skb(Host *h, uint64_t seq, uint32_t len, uint32_t truesize)
{
    Skb *skb = skb_alloc(h->pool);
    skb->seq = seq;
    skb->end_seq = seq + len;
    skb->len = len;
    skb->truesize = truesize;
    skb->flags = TCPHDR_ACK;
    skb->gso_segs = 1;
    return skb;
}

static void fake_rcv(Sock *sk, Skb *skb, Cpu *cpu)
{
    FakeSock *fs = (FakeSock *)sk;
    fs->direct++;
    skb_free(sk->host->pool, skb);
}

static void fake_backlog_rcv(Sock *sk, Skb *skb, Cpu *cpu)
{
    FakeSock *fs = (FakeSock *)sk;
    int i = fs->backlogged++;
    if (i < MAX_LOG) {
        fs->rcv_at[i] = sim_now(sk->host->sim);
        fs->rcv_cpu[i] = cpu_index(cpu);
        fs->len_seen[i] = sk->backlog_len;
    }
    skb_free(sk->host->pool, skb);
    cpu_charge(cpu, fs->rcv_cost_ns);
    if (fs->wake_on_rcv)
        task_wake(fs->wake_on_rcv, cpu);
    if (i == 0)
        for (int k = 0; k < fs->inject_on_first; k++)
            tcp_add_backlog(sk, make_skb(sk->host, 1000000 + (uint64_t)k * 10, 1, 2304), NULL);
}

static void fake_release_cb(Sock *sk, Cpu *cpu)
{
    ((FakeSock *)sk)->release_cbs++;
}

static const SockOps fake_ops = {
    .rcv = fake_rcv,
    .backlog_rcv = fake_backlog_rcv,
    .release_cb = fake_release_cb,
};

/* Non-contiguous 1-byte segments (seq gaps), so they never coalesce. */
static void fill_backlog(FakeSock *fs, int n, uint32_t truesize)
{
    for (int i = 0; i < n; i++)
        tcp_add_backlog(&fs->sk, make_skb(fs->sk.host, (uint64_t)i * 10, 1, truesize), NULL);
}

/* ---- limits ---- */

/* rcvbuf 87380, sndbuf 16384 (the 2012 defaults, notes B.4):
 *   rcvbuf                      87380
 *   rcvbuf + sndbuf             103764
 *   2016: + 64 KiB              169300
 *   2022: rcvbuf + sndbuf/2 + 64 KiB = 87380 + 8192 + 65536 = 161108
 *   2024: 2 rcvbuf + sndbuf/2 + 64 KiB = 174760 + 8192 + 65536 = 248488
 * With rmem_alloc = limit - 10 * 2304, ten skbs of truesize 2304 bring backlog_len + rmem to
 * exactly the limit; the 11th is still accepted (not above the limit; its own truesize does not
 * count), the 12th is dropped. */
static void limit_case(BacklogLimitPolicy policy, uint64_t expect_limit)
{
    TestHost *th = test_host_new(1, 1000);
    th->stack.backlog_limit = policy;
    test_host_build(th);
    FakeSock fs = { 0 };
    sock_init(&fs.sk, &th->host, 1, 1, &fake_ops);
    fs.sk.rcvbuf = 87380;
    fs.sk.sndbuf = 16384;
    g_assert_cmpuint(sk_backlog_limit(&fs.sk), ==, expect_limit);
    fs.sk.rmem_alloc = expect_limit - 10 * 2304;
    fill_backlog(&fs, 12, 2304);
    g_assert_cmpuint(fs.sk.backlog.qlen, ==, 11);
    g_assert_cmpuint(fs.sk.backlog_len, ==, 11 * 2304);
    g_assert_cmpuint(fs.sk.backlog_drops, ==, 1);
    g_assert_cmpuint(th->host.ctr.v[CTR_TcpExtTCPBacklogDrop], ==, 1);
    sock_destroy(&fs.sk);
    g_assert_cmpuint(skb_pool_in_use(th->host.pool), ==, 0);
    test_host_free(th);
}

static void test_limit_rcvbuf(void)
{
    limit_case(BACKLOG_LIMIT_RCVBUF, 87380);
}
static void test_limit_rcvbuf_sndbuf(void)
{
    limit_case(BACKLOG_LIMIT_RCVBUF_SNDBUF, 103764);
}
static void test_limit_2016(void)
{
    limit_case(BACKLOG_LIMIT_2016, 169300);
}
static void test_limit_2022(void)
{
    limit_case(BACKLOG_LIMIT_2022, 161108);
}
static void test_limit_2024(void)
{
    limit_case(BACKLOG_LIMIT_2024, 248488);
}

/* 2024 limit in 64 bits, capped: rcvbuf 3 GiB -> 2 * 3 GiB + ... > UINT32_MAX. */
static void test_limit_2024_cap(void)
{
    TestHost *th = test_host_new(1, 1000);
    test_host_build(th);
    FakeSock fs = { 0 };
    sock_init(&fs.sk, &th->host, 1, 1, &fake_ops);
    fs.sk.rcvbuf = 3u << 30;
    g_assert_cmpuint(sk_backlog_limit(&fs.sk), ==, UINT32_MAX);
    fs.sk.rcvbuf = 1u << 30; /* 2 GiB + 8 KiB + 64 KiB fits */
    g_assert_cmpuint(sk_backlog_limit(&fs.sk), ==, (2ull << 30) + 8192 + 65536);
    test_host_free(th);
}

/* ---- coalescing ---- */

static Skb *ack(Host *h, uint64_t seq, uint64_t ack_seq, uint32_t tsval)
{
    Skb *skb = make_skb(h, seq, 0, 2304);
    skb->ack_seq = ack_seq;
    skb->win = (uint32_t)ack_seq;
    skb->tsval = tsval;
    skb->gso_segs = 0;
    return skb;
}

static void test_coalesce(void)
{
    TestHost *th = test_host_new(1, 1000);
    th->stack.backlog_limit = BACKLOG_LIMIT_RCVBUF;
    test_host_build(th);
    Host *h = &th->host;
    FakeSock fs = { 0 };
    sock_init(&fs.sk, h, 1, 1, &fake_ops);
    fs.sk.rcvbuf = 3 * 2304; /* the limit: three ACKs fill it */
    Sock *sk = &fs.sk;

    /* Pure ACKs with the same TS values coalesce: no bytes added (delta 0), newest ack wins. */
    tcp_add_backlog(sk, ack(h, 100, 5000, 7), NULL);
    tcp_add_backlog(sk, ack(h, 100, 6000, 7), NULL);
    tcp_add_backlog(sk, ack(h, 100, 5500, 7), NULL); /* older ack: ack_seq and win kept */
    g_assert_cmpuint(sk->backlog.qlen, ==, 1);
    g_assert_cmpuint(sk->backlog_len, ==, 2304);
    g_assert_cmpuint(sk->backlog.tail->ack_seq, ==, 6000);
    g_assert_cmpuint(sk->backlog.tail->win, ==, 6000);
    g_assert_cmpuint(sk->backlog.tail->gso_segs, ==, 3);
    g_assert_cmpuint(h->ctr.v[CTR_TcpExtTCPBacklogCoalesce], ==, 2);

    /* A new TSval (options differ) does not. */
    tcp_add_backlog(sk, ack(h, 100, 7000, 8), NULL);
    g_assert_cmpuint(sk->backlog.qlen, ==, 2);
    /* Identical SACK blocks coalesce; different ones do not. */
    Skb *s1 = ack(h, 100, 7000, 8);
    s1->nsacks = 1;
    s1->sack[0] = (SackBlock){ 9000, 9100 };
    tcp_add_backlog(sk, s1, NULL);
    g_assert_cmpuint(sk->backlog.qlen, ==, 3);
    Skb *s2 = ack(h, 100, 7000, 8);
    s2->nsacks = 1;
    s2->sack[0] = (SackBlock){ 9000, 9100 };
    tcp_add_backlog(sk, s2, NULL); /* coalesced even though 3 * 2304 is at the limit */
    g_assert_cmpuint(sk->backlog.qlen, ==, 3);
    Skb *s3 = ack(h, 100, 7000, 8);
    s3->nsacks = 1;
    s3->sack[0] = (SackBlock){ 9000, 9200 };
    tcp_add_backlog(sk, s3, NULL); /* not coalescable; 6912 is not above 6912: queued */
    g_assert_cmpuint(sk->backlog.qlen, ==, 4);
    Skb *s4 = ack(h, 100, 7000, 9);
    tcp_add_backlog(sk, s4, NULL); /* 4 * 2304 > 6912: dropped */
    g_assert_cmpuint(sk->backlog.qlen, ==, 4);
    g_assert_cmpuint(sk->backlog_drops, ==, 1);
    /* A SYN never coalesces (and here is dropped at the limit). */
    Skb *syn = ack(h, 100, 7000, 9);
    syn->flags |= TCPHDR_SYN;
    g_assert_false(tcp_add_backlog(sk, syn, NULL));
    g_assert_cmpuint(h->ctr.v[CTR_TcpExtTCPBacklogCoalesce], ==, 3);
    sock_destroy(sk);
    g_assert_cmpuint(skb_pool_in_use(h->pool), ==, 0);
    test_host_free(th);
}

/* Data: contiguous segments merge while their frames fit in MAX_SKB_FRAGS (17); the tail grows
 * by the absorbed truesize minus its struct sk_buff (256 B). */
static void test_coalesce_data(void)
{
    TestHost *th = test_host_new(1, 1000);
    test_host_build(th);
    Host *h = &th->host;
    FakeSock fs = { 0 };
    sock_init(&fs.sk, h, 1, 1, &fake_ops);
    Sock *sk = &fs.sk;
    Skb *a = make_skb(h, 0, 15 * 4096, 64000);
    a->gso_segs = 15;
    a->gso_size = 4096;
    tcp_add_backlog(sk, a, NULL);
    Skb *b = make_skb(h, 15 * 4096, 2 * 4096, 9000);
    b->gso_segs = 2;
    b->gso_size = 4096;
    b->flags |= TCPHDR_PSH;
    tcp_add_backlog(sk, b, NULL); /* 15 + 2 = 17 frags: fits */
    g_assert_cmpuint(sk->backlog.qlen, ==, 1);
    g_assert_cmpuint(sk->backlog.tail->len, ==, 17 * 4096);
    g_assert_cmpuint(sk->backlog.tail->end_seq, ==, 17 * 4096);
    g_assert_cmpuint(sk->backlog.tail->gso_segs, ==, 17);
    g_assert_true(sk->backlog.tail->flags & TCPHDR_PSH);
    g_assert_cmpuint(sk->backlog.tail->truesize, ==, 64000 + 9000 - 256);
    g_assert_cmpuint(sk->backlog_len, ==, 64000 + 9000 - 256);
    g_assert_cmpuint(sk->backlog.bytes, ==, 17 * 4096);
    Skb *c = make_skb(h, 17 * 4096, 4096, 4800); /* an 18th frag does not fit */
    tcp_add_backlog(sk, c, NULL);
    g_assert_cmpuint(sk->backlog.qlen, ==, 2);
    /* Coalescing off (before 5.0): every skb is appended. */
    th->stack.backlog_coalesce = false;
    tcp_add_backlog(sk, make_skb(h, 18 * 4096, 4096, 4800), NULL);
    g_assert_cmpuint(sk->backlog.qlen, ==, 3);
    sock_destroy(sk);
    test_host_free(th);
}

/* ---- the drain: an owner task and a napping competitor on CPU 0 ---- */

typedef struct {
    Task t;
    FakeSock *fs;
    int phase;
    int fill;               /* skbs appended right after taking the lock */
} Owner;

typedef struct {
    Task t;
    FakeSock *fs;
    int runs;
    int seen[MAX_LOG];      /* fs->backlogged when it ran */
} Napper;

static void napper_step(Task *t)
{
    Napper *n = t->ctx;
    if (n->runs < MAX_LOG)
        n->seen[n->runs] = n->fs->backlogged;
    n->runs++;
    task_sleep(t);
}

static void owner_step(Task *t)
{
    Owner *o = t->ctx;
    Sock *sk = &o->fs->sk;
    switch (o->phase) {
    case 0: /* hand work to the napper: wake-up preemption sets need_resched */
        task_wake(o->fs->wake_on_rcv, t->cpu);
        cpu_charge(t->cpu, 100);
        o->phase = 1;
        return;
    case 1:
        if (!lock_sock_step(sk, t))
            return;
        fill_backlog(o->fs, o->fill, 2304);
        o->phase = 2;
        return;
    case 2:
        if (release_sock_step(sk, t))
            o->phase = 3;
        return;
    default:
        task_sleep(t);
    }
}

typedef struct {
    TestHost *th;
    FakeSock fs;
    Owner owner;
    Napper napper;
} DrainRig;

/* CFS on one CPU (factor 1): the napper sleeps from the start with its vruntime far behind;
 * each wake places it at min_vruntime - 3 ms, 3 ms > wakeup_granularity 1 ms: need_resched is
 * set by every backlog skb (it wakes the napper) until the owner yields. Costs: 1 us per skb
 * (+ COST_BACKLOG_EXTRA). */
static DrainRig *drain_rig(PreemptModel model, uint32_t every, int fill, int inject)
{
    DrainRig *r = g_new0(DrainRig, 1);
    r->th = test_host_new(1, 1000);
    r->th->conf.sched.policy = SCHED_CFS;
    r->th->conf.sched.preempt = model;
    r->th->stack.release_sock_resched_every = every;
    test_host_build(r->th);
    Host *h = &r->th->host;
    sock_init(&r->fs.sk, h, 1, 1, &fake_ops);
    r->fs.rcv_cost_ns = SIM_US;
    r->fs.inject_on_first = inject;
    r->fs.wake_on_rcv = &r->napper.t;
    r->napper.fs = &r->fs;
    r->owner.fs = &r->fs;
    r->owner.fill = fill;
    task_init(&r->owner.t, h, "owner", owner_step, &r->owner, NULL);
    task_init(&r->napper.t, h, "napper", napper_step, &r->napper, NULL);
    /* Owner first (START_DEBIT 6 ms), napper second (3 ms): the napper runs first and sleeps. */
    task_start(&r->owner.t);
    task_start(&r->napper.t);
    sim_run_until(r->th->sim, 10 * SIM_MS);
    g_assert_cmpint(r->owner.phase, ==, 3);
    g_assert_false(r->fs.sk.owned);
    g_assert_cmpuint(r->fs.sk.backlog_len, ==, 0);
    g_assert_cmpint(r->fs.backlogged, ==, fill + inject);
    g_assert_cmpint(r->fs.release_cbs, ==, 1);
    return r;
}

static void drain_rig_free(DrainRig *r)
{
    sock_destroy(&r->fs.sk);
    g_assert_cmpuint(skb_pool_in_use(r->th->host.pool), ==, 0);
    test_host_free(r->th);
    g_free(r);
}

/* Voluntary, resched_every 1 (the loop before 16c610162d1f), one batch of 40: cond_resched
 * after every skb, the batch's last included: 40 calls, 40 yields; plus lock_sock's
 * might_sleep() yield (need_resched was set by the wake-up in phase 0): 41 yields in all. The
 * napper ran at the start, then after 0 (lock_sock), 1, 2, ..., 40 processed skbs (skb 40 woke
 * it, and the owner yielded after it with the socket still owned): 42 runs; nothing wakes it
 * when the owner then releases and sleeps. backlog_len stays 40 * 2304 for the whole drain. */
static void test_drain_every_1(void)
{
    DrainRig *r = drain_rig(PREEMPT_VOLUNTARY, 1, 40, 0);
    g_assert_cmpuint(r->fs.sk.drain_resched_calls, ==, 40);
    g_assert_cmpuint(r->fs.sk.drain_yields, ==, 40);
    g_assert_cmpuint(r->owner.t.nr_yields, ==, 41);
    g_assert_cmpint(r->napper.runs, ==, 42);
    g_assert_cmpint(r->napper.seen[41], ==, 40);
    g_assert_cmpint(r->napper.seen[1], ==, 0);
    for (int k = 1; k <= 40; k++)
        g_assert_cmpint(r->napper.seen[1 + k], ==, k);
    for (int i = 0; i < 40; i++)
        g_assert_cmpuint(r->fs.len_seen[i], ==, 40 * 2304);
    g_assert_cmpuint(r->fs.sk.backlog_max_len, ==, 40 * 2304);
    /* The host's diagnosis counters: each yield gave the CPU to the napper, which takes nothing
     * and sleeps, so the owner was away for two context switches each time. */
    const CounterSet *c = &r->th->host.ctr;
    sim_time_t away = 2 * host_cost(&r->th->host, COST_CTX_SWITCH);
    g_assert_cmpuint(away, >, 0);
    g_assert_cmpuint(c->v[CTR_SksimOwnerYields], ==, 40);
    g_assert_cmpuint(c->v[CTR_SksimOwnerYieldUs], ==, 40 * ((away + SIM_US / 2) / SIM_US));
    drain_rig_free(r);
}

/* resched_every 16: calls after skbs 16 and 32 (nb 16, 32; the 40th is batch-final): 2. */
static void test_drain_every_16(void)
{
    DrainRig *r = drain_rig(PREEMPT_VOLUNTARY, 16, 40, 0);
    g_assert_cmpuint(r->fs.sk.drain_resched_calls, ==, 2);
    g_assert_cmpuint(r->fs.sk.drain_yields, ==, 2);
    g_assert_cmpint(r->napper.seen[2], ==, 16);
    g_assert_cmpint(r->napper.seen[3], ==, 32);
    g_assert_cmpuint(r->th->host.ctr.v[CTR_SksimOwnerYields], ==, 2);
    drain_rig_free(r);
}

/* Batches 10 + 10 (the second ten arrive while the first skb is processed): batch 1 counts
 * nb = 1..9 (its 10th is batch-final), batch 2 reaches nb = 16 at its 7th skb: one call,
 * after 17 processed skbs. 16 skbs in one batch never call it. */
static void test_drain_counter_spans_batches(void)
{
    DrainRig *r = drain_rig(PREEMPT_VOLUNTARY, 16, 10, 10);
    g_assert_cmpuint(r->fs.sk.drain_resched_calls, ==, 1);
    g_assert_cmpuint(r->fs.sk.drain_yields, ==, 1);
    g_assert_cmpint(r->napper.seen[2], ==, 17);
    g_assert_cmpuint(r->fs.sk.drains, ==, 1);
    drain_rig_free(r);
    r = drain_rig(PREEMPT_VOLUNTARY, 16, 16, 0);
    g_assert_cmpuint(r->fs.sk.drain_resched_calls, ==, 0);
    drain_rig_free(r);
}

/* A one-skb drain: the loop before 16c610162d1f yields after it with the socket owned (the skb
 * woke the napper: need_resched), the 2025 loop never calls cond_resched() for it. */
static void test_drain_one_skb(void)
{
    DrainRig *r = drain_rig(PREEMPT_VOLUNTARY, 1, 1, 0);
    g_assert_cmpuint(r->fs.sk.drain_resched_calls, ==, 1);
    g_assert_cmpuint(r->fs.sk.drain_yields, ==, 1);
    g_assert_cmpint(r->napper.seen[2], ==, 1);
    drain_rig_free(r);
    r = drain_rig(PREEMPT_VOLUNTARY, 16, 1, 0);
    g_assert_cmpuint(r->fs.sk.drain_resched_calls, ==, 0);
    g_assert_cmpuint(r->fs.sk.drain_yields, ==, 0);
    drain_rig_free(r);
}

/* The same 40-skb drain (resched_every 1) under the three preemption models:
 *   none      - lock_sock's might_sleep() is no preemption point: 40 yields (the drain's);
 *   voluntary - 41 yields (above);
 *   full      - cond_resched is a no-op (40 calls, 0 yields); the owner is preempted at the
 *               end of the phase-0 step and after every skb (each wakes the napper): 41. */
static void test_drain_preempt_models(void)
{
    DrainRig *r = drain_rig(PREEMPT_NONE, 1, 40, 0);
    g_assert_cmpuint(r->owner.t.nr_yields, ==, 40);
    g_assert_cmpuint(r->owner.t.nr_preempted, ==, 0);
    drain_rig_free(r);
    r = drain_rig(PREEMPT_VOLUNTARY, 1, 40, 0);
    g_assert_cmpuint(r->owner.t.nr_yields, ==, 41);
    g_assert_cmpuint(r->owner.t.nr_preempted, ==, 0);
    drain_rig_free(r);
    r = drain_rig(PREEMPT_FULL, 1, 40, 0);
    g_assert_cmpuint(r->owner.t.nr_yields, ==, 0);
    g_assert_cmpuint(r->fs.sk.drain_resched_calls, ==, 40);
    g_assert_cmpuint(r->fs.sk.drain_yields, ==, 0);
    g_assert_cmpuint(r->owner.t.nr_preempted, ==, 41);
    drain_rig_free(r);
}

/* ---- an owner descheduled while segments arrive on another CPU ---- */

typedef struct {
    SoftirqWork w;
    FakeSock *fs;
    uint64_t next_seq;
} Wire;

/* NET_RX on CPU 1: one segment per raise, delivered like tcp_v4_rcv would. */
static bool wire_run(SoftirqWork *w, Cpu *cpu)
{
    Wire *wire = w->ctx;
    Sock *sk = &wire->fs->sk;
    Skb *skb = make_skb(sk->host, wire->next_seq, 1, 2304);
    wire->next_seq += 10;
    cpu_charge(cpu, SIM_US);
    if (sock_owned_by_user(sk))
        tcp_add_backlog(sk, skb, cpu);
    else
        sk->ops->rcv(sk, skb, cpu);
    return false;
}

typedef struct {
    SimEvent ev;
    Cpu *cpu;
    SoftirqWork *w;
    Task *wake;
} Kick;

static void kick_fire(Sim *sim, void *ctx)
{
    Kick *k = ctx;
    if (k->w)
        cpu_raise_softirq(k->cpu, k->w);
    if (k->wake)
        task_wake(k->wake, NULL);
}

typedef struct {
    Task t;
    Sock *sk;
    int phase;
    int copies;
    sim_time_t released_at;
} Copier;

/* lock_sock, 30 steps of 100 us of copying with a cond_resched before each, release_sock. */
static void copier_step(Task *t)
{
    Copier *c = t->ctx;
    switch (c->phase) {
    case 0:
        if (lock_sock_step(c->sk, t))
            c->phase = 1;
        return;
    case 1:
        if (task_cond_resched(t))
            return;
        cpu_charge(t->cpu, 100 * SIM_US);
        if (++c->copies == 30)
            c->phase = 2;
        return;
    case 2:
        if (release_sock_step(c->sk, t)) {
            c->phase = 3;
            c->released_at = sim_now(t->host->sim);
        }
        return;
    default:
        task_sleep(t);
    }
}

typedef struct {
    Task t;
    int steps;
    sim_time_t slept_at;
} Burst;

/* Sleeps at once; once woken, 50 steps of 100 us, then sleeps again. */
static void burst_step(Task *t)
{
    Burst *b = t->ctx;
    if (b->steps == 0 || b->steps == 51) {
        if (b->steps == 51)
            b->slept_at = sim_now(t->host->sim);
        b->steps++;
        task_sleep(t);
        return;
    }
    b->steps++;
    cpu_charge(t->cpu, 100 * SIM_US);
}

/* 2 CPUs (factor 2: latency 12 ms, wakeup_granularity 2 ms), CFS, voluntary. The copier owns the
 * socket on CPU 0 from ~4 us; the burst task, woken at 0.5 ms, is placed 6 ms behind and
 * preempts (6 > 2 ms): the copier yields at its next cond_resched still owning the socket. The
 * burst runs 5 ms. Twenty segments arrive on CPU 1 from 1.0 to 2.9 ms: all go to the backlog
 * (none is processed in softirq) and nothing touches them until the copier runs again after the
 * burst sleeps (~5.5 ms); its release_sock then processes all twenty on CPU 0. */
static void test_owner_descheduled(void)
{
    TestHost *th = test_host_new(2, 1000);
    th->conf.sched.policy = SCHED_CFS;
    test_host_build(th);
    Host *h = &th->host;
    FakeSock fs = { 0 };
    sock_init(&fs.sk, h, 1, 1, &fake_ops);
    CpuList cpu0 = { .n = 1, .cpu = { 0 } };
    Copier c = { .sk = &fs.sk };
    Burst b = { 0 };
    task_init(&c.t, h, "copier", copier_step, &c, &cpu0);
    task_init(&b.t, h, "burst", burst_step, &b, &cpu0);
    task_start(&c.t);
    task_start(&b.t);
    Wire wire = { .fs = &fs };
    softirq_work_init(&wire.w, SOFTIRQ_NET_RX, wire_run, &wire);
    Kick wake = { .wake = &b.t };
    sim_event_init(&wake.ev, kick_fire, &wake, 0, 0);
    sim_schedule_at(th->sim, &wake.ev, 500 * SIM_US);
    Kick rx[20];
    for (int i = 0; i < 20; i++) {
        rx[i] = (Kick){ .cpu = th->cpus[1], .w = &wire.w };
        sim_event_init(&rx[i].ev, kick_fire, &rx[i], 0, 0);
        sim_schedule_at(th->sim, &rx[i].ev, SIM_MS + i * 100 * SIM_US);
    }
    sim_run_until(th->sim, 20 * SIM_MS);

    g_assert_cmpint(c.phase, ==, 3);
    g_assert_cmpuint(c.t.nr_yields, ==, 1);
    g_assert_cmpint(fs.direct, ==, 0);
    g_assert_cmpint(fs.backlogged, ==, 20);
    g_assert_cmpuint(fs.sk.backlog_max_len, ==, 20 * 2304);
    g_assert_cmpint(b.slept_at, >, 5 * SIM_MS);
    for (int i = 0; i < 20; i++) {
        g_assert_cmpuint(fs.rcv_cpu[i], ==, 0);
        g_assert_cmpint(fs.rcv_at[i], >, b.slept_at);
    }
    g_assert_cmpint(fs.rcv_at[19], <, c.released_at + 1);
    g_assert_cmpuint(fs.sk.backlog_len, ==, 0);
    /* The burst ran 50 x 100 us while the copier, preempted once, waited. */
    g_assert_cmpint(b.t.runtime_ns, ==, 5 * SIM_MS);
    sock_destroy(&fs.sk);
    test_host_free(th);
}

/* ---- lock waiter ---- */

typedef struct {
    Task t;
    Sock *sk;
    int phase;
    sim_time_t locked_at;
} Waiter;

static void waiter_step(Task *t)
{
    Waiter *w = t->ctx;
    switch (w->phase) {
    case 0: /* wait to be woken at 0.5 ms */
        w->phase = 1;
        task_sleep(t);
        return;
    case 1:
        if (!lock_sock_step(w->sk, t))
            return;
        w->locked_at = sim_now(t->host->sim);
        w->phase = 2;
        return;
    case 2:
        if (release_sock_step(w->sk, t))
            w->phase = 3;
        return;
    default:
        task_sleep(t);
    }
}

/* The copier (CPU 0) holds the socket from 2 us: lock 15 ns (half of COST_LOCK_SOCK), 30 x
 * 100 us, release at 2 us + 15 ns + 3 ms = 3002.015 us. The waiter (CPU 1), woken at 0.5 ms, finds the socket
 * owned and sleeps as the lock waiter; release_sock wakes it, and the wake-up takes effect where
 * it ends in the copier's work: after the release's 15 ns (the other half of COST_LOCK_SOCK) and
 * the 300 ns of COST_WAKEUP. Its CPU (idle, same task as before: no switch cost) takes the lock
 * in that instant, 3002.330 us. */
static void test_lock_waiter(void)
{
    TestHost *th = test_host_new(2, 1000);
    test_host_build(th);
    Host *h = &th->host;
    FakeSock fs = { 0 };
    sock_init(&fs.sk, h, 1, 1, &fake_ops);
    CpuList cpu0 = { .n = 1, .cpu = { 0 } }, cpu1 = { .n = 1, .cpu = { 1 } };
    Copier c = { .sk = &fs.sk };
    Waiter w = { .sk = &fs.sk };
    task_init(&c.t, h, "copier", copier_step, &c, &cpu0);
    task_init(&w.t, h, "waiter", waiter_step, &w, &cpu1);
    task_start(&c.t);
    task_start(&w.t);
    Kick wake = { .wake = &w.t };
    sim_event_init(&wake.ev, kick_fire, &wake, 0, 0);
    sim_schedule_at(th->sim, &wake.ev, 500 * SIM_US);
    sim_run_until(th->sim, 10 * SIM_MS);
    g_assert_cmpint(c.released_at, ==, 3002015);
    g_assert_cmpint(w.locked_at, ==, 3002015 + 15 + 300);
    g_assert_cmpint(w.phase, ==, 3);
    g_assert_false(fs.sk.owned);
    g_assert_cmpint(fs.release_cbs, ==, 2);
    sock_destroy(&fs.sk);
    test_host_free(th);
}

/* ---- sk_flush_backlog ---- */

typedef struct {
    Task t;
    FakeSock *fs;
    int phase;
    int flush_steps;
} Flusher;

static void flusher_step(Task *t)
{
    Flusher *f = t->ctx;
    Sock *sk = &f->fs->sk;
    switch (f->phase) {
    case 0:
        if (lock_sock_step(sk, t)) {
            fill_backlog(f->fs, 3, 2304);
            f->phase = 1;
        }
        return;
    case 1:
        f->flush_steps++;
        if (sk_flush_backlog_step(sk, t)) {
            g_assert_true(sk->owned); /* ownership kept */
            f->phase = 2;
        }
        return;
    case 2:
        g_assert_true(sk_flush_backlog_step(sk, t)); /* empty: true at once */
        f->phase = 3;
        return;
    case 3:
        if (release_sock_step(sk, t))
            f->phase = 4;
        return;
    default:
        task_sleep(t);
    }
}

/* Three skbs: three processing steps and a fourth that finds the backlog empty (backlog_len
 * reset, release_cb run): 4 steps; the flush of an empty backlog does nothing (no release_cb, no
 * lock taken); release_sock's release_cb makes 2. The slock: the lock_sock/release_sock pair
 * (costs.lock_sock, 30 ns) plus the flush's own spin_lock_bh/spin_unlock_bh around
 * __release_sock (30 ns more). Each skb taken from the backlog pays the cold-processing extra
 * (costs.backlog_extra) once, on the owner's CPU, on top of its protocol work. */
static void test_flush_backlog(void)
{
    TestHost *th = test_host_new(1, 1000);
    test_host_build(th);
    FakeSock fs = { 0 };
    sock_init(&fs.sk, &th->host, 1, 1, &fake_ops);
    Flusher f = { .fs = &fs };
    task_init(&f.t, &th->host, "flusher", flusher_step, &f, NULL);
    task_start(&f.t);
    sim_run_until(th->sim, SIM_MS);
    g_assert_cmpint(f.phase, ==, 4);
    g_assert_cmpint(f.flush_steps, ==, 4);
    g_assert_cmpint(fs.backlogged, ==, 3);
    g_assert_cmpint(fs.release_cbs, ==, 2);
    g_assert_cmpuint(fs.sk.drains, ==, 1);
    g_assert_cmpuint(fs.len_seen[2], ==, 3 * 2304);
    g_assert_cmpuint(fs.sk.backlog_len, ==, 0);
    g_assert_cmpint(cpu_stats(th->cpus[0]).profile_ns[COST_LOCK_SOCK], ==, 2 * 30);
    g_assert_cmpint(host_cost(&th->host, COST_BACKLOG_EXTRA), >, 0);
    g_assert_cmpint(cpu_stats(th->cpus[0]).profile_ns[COST_BACKLOG_EXTRA], ==,
                    3 * host_cost(&th->host, COST_BACKLOG_EXTRA));
    sock_destroy(&fs.sk);
    test_host_free(th);
}

/* ---- lock_sock's spin_unlock_bh runs pending softirq work ---- */

typedef struct {
    SoftirqWork w;
    FakeSock *fs;
    int left;
    uint64_t next_seq;
} SegBurst;

static bool burst_run(SoftirqWork *w, Cpu *cpu)
{
    SegBurst *b = w->ctx;
    Sock *sk = &b->fs->sk;
    Skb *skb = make_skb(sk->host, b->next_seq, 1, 256);
    b->next_seq += 10;
    cpu_charge(cpu, SIM_US);
    if (sock_owned_by_user(sk))
        tcp_add_backlog(sk, skb, cpu);
    else
        sk->ops->rcv(sk, skb, cpu);
    return --b->left > 0;
}

typedef struct {
    Task t;
    Sock *sk;
    int phase;
    sim_time_t locked_at;
} Locker;

/* 200 us of other work, lock_sock, release_sock, sleep. */
static void locker_step(Task *t)
{
    Locker *l = t->ctx;
    switch (l->phase) {
    case 0:
        cpu_charge(t->cpu, 200 * SIM_US);
        l->phase = 1;
        return;
    case 1:
        if (lock_sock_step(l->sk, t)) {
            l->locked_at = sim_now(t->host->sim);
            l->phase = 2;
        }
        return;
    case 2:
        if (release_sock_step(l->sk, t))
            l->phase = 3;
        return;
    default:
        task_sleep(t);
    }
}

/* EEVDF (base_slice 3 ms), 1 CPU. The locker L runs from 2 us. 700 segments (1 us each) are
 * raised at 100 us: the inline run delivers 640 directly (socket not owned) and hands 60 to
 * ksoftirqd, which does not preempt L (RUN_TO_PARITY). L takes the lock at 842.6 us (its 200 us
 * step lost 640.6 us to softirq); lock_sock's spin_unlock_bh then runs the 60 pending segments
 * inline with the socket owned: all 60 go to the backlog (none would without the bh point: the
 * next interrupt is the 1 ms tick, after release_sock) and release_sock processes them on L's
 * CPU. */
static void test_lock_sock_runs_pending_softirq(void)
{
    TestHost *th = test_host_new(1, 1000);
    th->conf.sched.base_slice_ns = 3 * SIM_MS;
    test_host_build(th);
    FakeSock fs = { 0 };
    sock_init(&fs.sk, &th->host, 1, 1, &fake_ops);
    Locker l = { .sk = &fs.sk };
    task_init(&l.t, &th->host, "locker", locker_step, &l, NULL);
    task_start(&l.t);
    SegBurst b = { .fs = &fs, .left = 700 };
    softirq_work_init(&b.w, SOFTIRQ_NET_RX, burst_run, &b);
    Kick k = { .cpu = th->cpus[0], .w = &b.w };
    sim_event_init(&k.ev, kick_fire, &k, 0, 0);
    sim_schedule_at(th->sim, &k.ev, 100 * SIM_US);
    sim_run_until(th->sim, 2 * SIM_MS);
    g_assert_cmpint(l.phase, ==, 3);
    g_assert_cmpint(l.locked_at, ==, 842600);
    g_assert_cmpint(fs.direct, ==, 640);
    g_assert_cmpint(fs.backlogged, ==, 60);
    g_assert_cmpuint(fs.sk.backlog_max_len, ==, 60 * 256);
    g_assert_cmpint(fs.rcv_at[59], <, SIM_MS);
    g_assert_cmpuint(cpu_stats(th->cpus[0]).softirq_runs, ==, 2);
    sock_destroy(&fs.sk);
    test_host_free(th);
}

/* stack.release_sock.bh_disabled (<= 4.6): a segment whose interrupt comes in on the owner's CPU
 * during a drain of 20 skbs (1 us + costs.backlog_extra each, from ~2 us) waits for the drain's
 * end with BH off; release_sock's spin_unlock_bh runs it with the socket no longer owned, so it
 * is processed directly (fake rcv) and the drain saw 20 skbs. With BH on (4.7+) the softirq
 * runs at once, the segment joins the backlog and the same drain processes 21. */
typedef struct {
    Task t;
    FakeSock *fs;
    int phase;
} Drainer;

static void drainer_step(Task *t)
{
    Drainer *d = t->ctx;
    switch (d->phase) {
    case 0:
        if (!lock_sock_step(&d->fs->sk, t))
            return;
        fill_backlog(d->fs, 20, 2304);
        d->phase = 1;
        return;
    case 1:
        if (release_sock_step(&d->fs->sk, t))
            d->phase = 2;
        return;
    default:
        task_sleep(t);
    }
}

static void drain_with_interrupt(bool bh_off, int *direct, int *backlogged)
{
    TestHost *th = test_host_new(1, 1000);
    th->stack.release_sock_bh_off = bh_off;
    test_host_build(th);
    FakeSock fs = { .rcv_cost_ns = SIM_US };
    sock_init(&fs.sk, &th->host, 1, 1, &fake_ops);
    Drainer d = { .fs = &fs };
    task_init(&d.t, &th->host, "owner", drainer_step, &d, NULL);
    task_start(&d.t);
    Wire wire = { .fs = &fs, .next_seq = 5000000 };
    softirq_work_init(&wire.w, SOFTIRQ_NET_RX, wire_run, &wire);
    Kick k = { .cpu = th->cpus[0], .w = &wire.w };
    sim_event_init(&k.ev, kick_fire, &k, 0, 0);
    sim_schedule_at(th->sim, &k.ev, 10 * SIM_US);
    sim_run_until(th->sim, SIM_MS);
    g_assert_cmpint(d.phase, ==, 2);
    g_assert_false(fs.sk.owned);
    g_assert_cmpuint(fs.sk.drains, ==, 1);
    *direct = fs.direct;
    *backlogged = fs.backlogged;
    sock_destroy(&fs.sk);
    test_host_free(th);
}

static void test_drain_bh_disabled(void)
{
    int direct, backlogged;
    drain_with_interrupt(true, &direct, &backlogged);
    g_assert_cmpint(direct, ==, 1);
    g_assert_cmpint(backlogged, ==, 20);
    drain_with_interrupt(false, &direct, &backlogged);
    g_assert_cmpint(direct, ==, 0);
    g_assert_cmpint(backlogged, ==, 21);
}

/* tcp_add_backlog condenses a segment without payload first (skb_condense, with the 2016+
 * limits): a received pure ACK of truesize 2304 (a 2 KiB receive buffer) counts 1088 B in the
 * backlog (a 512 B head). Before (the 3.5-4.8 rcvbuf + sndbuf limit) it counts whole, and a data
 * skb never shrinks. */
static void test_backlog_condenses_acks(void)
{
    for (int era = 0; era <= 1; era++) {
        TestHost *th = test_host_new(1, 1000);
        th->stack.backlog_limit = era ? BACKLOG_LIMIT_2016 : BACKLOG_LIMIT_RCVBUF_SNDBUF;
        th->stack.backlog_coalesce = false;
        test_host_build(th);
        Host *h = &th->host;
        FakeSock fs = { 0 };
        sock_init(&fs.sk, h, 1, 1, &fake_ops);
        fs.sk.rcvbuf = 1 << 20;
        Sock *sk = &fs.sk;
        tcp_add_backlog(sk, make_skb(h, 100, 0, 2304), NULL);
        g_assert_cmpuint(sk->backlog_len, ==, era ? 1088 : 2304);
        tcp_add_backlog(sk, make_skb(h, 100, 1448, 2304), NULL);
        g_assert_cmpuint(sk->backlog_len, ==, (era ? 1088 : 2304) + 2304);
        sock_destroy(sk);
        test_host_free(th);
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/sock/limit/rcvbuf", test_limit_rcvbuf);
    g_test_add_func("/sock/limit/rcvbuf-sndbuf", test_limit_rcvbuf_sndbuf);
    g_test_add_func("/sock/limit/2016", test_limit_2016);
    g_test_add_func("/sock/limit/2022", test_limit_2022);
    g_test_add_func("/sock/limit/2024", test_limit_2024);
    g_test_add_func("/sock/limit/2024-cap", test_limit_2024_cap);
    g_test_add_func("/sock/coalesce/acks", test_coalesce);
    g_test_add_func("/sock/backlog-condenses-acks", test_backlog_condenses_acks);
    g_test_add_func("/sock/coalesce/data", test_coalesce_data);
    g_test_add_func("/sock/drain/every-1", test_drain_every_1);
    g_test_add_func("/sock/drain/one-skb", test_drain_one_skb);
    g_test_add_func("/sock/drain/every-16", test_drain_every_16);
    g_test_add_func("/sock/drain/counter-spans-batches", test_drain_counter_spans_batches);
    g_test_add_func("/sock/drain/preempt-models", test_drain_preempt_models);
    g_test_add_func("/sock/drain/bh-disabled", test_drain_bh_disabled);
    g_test_add_func("/sock/owner-descheduled", test_owner_descheduled);
    g_test_add_func("/sock/lock-waiter", test_lock_waiter);
    g_test_add_func("/sock/flush-backlog", test_flush_backlog);
    g_test_add_func("/sock/lock-sock-runs-pending-softirq", test_lock_sock_runs_pending_softirq);
    return g_test_run();
}
