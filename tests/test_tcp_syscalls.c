/* test_tcp_syscalls.c - the sendmsg/recvmsg step machines on real CPUs and tasks (notes A.9,
 * A.10, E.5): the backlog-flush counter rule of tcp_sendmsg_locked for every = 0 (<= 4.6),
 * 1 (4.7-5.3) and 16 (5.4+), a loopback transfer between a writer and a reader task, and
 * recvmsg's tcp_cleanup_rbuf before sk_wait_data with a backlog waiting (A.10). */
#include <inttypes.h>

#include "models/softnet.h"
#include "models/netdev.h"
#include "models/sock_test_util.h"
#include "tcp_harness.h"

typedef struct App {
    TcpSock *tp;
    TcpCall call;
    bool in_call, sender, once;
    uint64_t len, calls, bytes, max_calls; /* max_calls: sleep after that many calls (0: none) */
    Task task;
} App;

static void app_step(Task *t)
{
    App *app = t->ctx;
    if (!app->in_call) {
        if ((app->once && app->calls) || (app->max_calls && app->calls >= app->max_calls)) {
            task_sleep(t);
            return;
        }
        tcp_call_init(&app->call, app->len, 0);
        app->in_call = true;
    }
    bool done = app->sender ? tcp_sendmsg_step(app->tp, t, &app->call)
                            : tcp_recvmsg_step(app->tp, t, &app->call);
    if (done) {
        app->in_call = false;
        app->calls++;
        app->bytes += app->call.done;
        task_return_to_user(t);
    }
}

static void app_start(App *app, Host *h, const char *name, uint32_t cpu)
{
    CpuList cpus = { .n = 1, .cpu = { cpu } };
    task_init(&app->task, h, name, app_step, app, &cpus);
    task_start(&app->task);
}

/* The peer of the flush test: every data skb the socket transmits is answered at once by an
 * ACK for all of it, queued to the sender's backlog (its owner is inside sendmsg). */
static int ack_into_backlog(void *ctx, Skb *skb, Cpu *cpu)
{
    TcpSock *tp = ctx;
    Host *h = tcp_sk(tp)->host;
    if (skb->sk) {
        skb->sk->wmem_alloc -= skb->truesize;
        skb->sk = NULL;
    }
    Skb *ack = skb_alloc(h->pool);
    ack->conn = skb->conn;
    ack->seq = ack->end_seq = tp->rcv_nxt;
    ack->ack_seq = skb->end_seq;
    ack->flags = TCPHDR_ACK;
    ack->win = tp->snd_wnd;
    ack->tsval = skb->tsval;
    ack->tsecr = skb->tsval;
    ack->gso_segs = 1;
    ack->truesize = 1280;
    skb_free(h->pool, skb);
    tcp_v4_rcv(tcp_sk(tp), ack, cpu);
    return 0; /* NET_XMIT_SUCCESS */
}

/* One sendmsg of 40 skbs (40 x mss, mss 65483 at MTU 65536, advmss capped at 65535 - 40: one
 * segment per skb). Every sent skb puts an ACK in the backlog, so a backlog is pending at each
 * check. The counter rule (5.4+ code with 16 replaced by `every`): a flush is tried before a new
 * skb once `every` skbs were allocated since the last try, and the skb after a flush is never
 * preceded by one -> floor((40 - 1) / every) flushes: 39 at every = 1, 2 at 16 (before skbs 17
 * and 33), none at 0. The final release_sock drains once more: sk->drains = flushes + 1. */
static uint64_t run_flush(uint32_t every)
{
    TestHost *th = test_host_new(1, 1000);
    th->stack.sendmsg_flush_backlog_every = every;
    th->conf.tcp.sndbuf = 64u << 20; /* never wait for memory */
    test_host_build(th);
    Host *h = &th->host;
    h->socks = g_ptr_array_new();
    TcpSock *a = tcp_sock_new(h, 1, 1), *b = tcp_sock_new(h, 1, 2);
    tcp_connect_pair(a, b, 65536);
    a->snd_wnd = a->max_window = 64u << 20; /* the peer's window never limits */
    tcp_sync_mss(a);
    g_assert_cmpuint(a->mss_cache, ==, 65483);
    tcp_set_xmit_hook(a, ack_into_backlog, a);
    App app = { .tp = a, .sender = true, .once = true, .len = 40ull * 65483 };
    app_start(&app, h, "writer", 0);
    sim_run_until(th->sim, 100 * SIM_MS);
    g_assert_cmpuint(app.calls, ==, 1);
    g_assert_cmpuint(a->snd_una, ==, 1 + app.len);
    uint64_t drains = tcp_sk(a)->drains;
    tcp_sock_free(a);
    tcp_sock_free(b);
    g_ptr_array_free(h->socks, TRUE);
    test_host_free(th);
    return drains;
}

static void test_sendmsg_flush_rule(void)
{
    g_assert_cmpuint(run_flush(1), ==, 39 + 1);
    g_assert_cmpuint(run_flush(16), ==, 2 + 1);
    g_assert_cmpuint(run_flush(0), ==, 0 + 1);
}

/* Loopback (E.5): a writer on CPU 0 sends 64 KiB writes, a reader on CPU 1 reads 64 KiB at a
 * time, 20 ms. Everything written and acknowledged was read, in order, without loss or
 * retransmission; each TcpOutSegs segment of the sender is one ~64 KB loopback skb. */
static void test_loopback_transfer(void)
{
    TestHost *th = test_host_new(2, 1000);
    test_host_build(th);
    Host *h = &th->host;
    h->socks = g_ptr_array_new();
    h->softnet = softnet_new(h);
    h->loopback = netdev_new_loopback(h);
    TcpSock *a = tcp_sock_new(h, 1, 1), *b = tcp_sock_new(h, 1, 2);
    tcp_connect_pair(a, b, 65536);
    App w = { .tp = a, .sender = true, .len = 65536 };
    App r = { .tp = b, .sender = false, .len = 65536 };
    app_start(&w, h, "writer", 0);
    app_start(&r, h, "reader", 1);
    sim_run_until(th->sim, 20 * SIM_MS);
    g_assert_cmpuint(r.bytes, >, 10u << 20);
    /* every byte the reader copied, including those of a call still in progress */
    g_assert_cmpuint(b->bytes_received, ==, r.bytes + (r.in_call ? r.call.done : 0));
    /* read <= received <= sent; acked <= received */
    g_assert_cmpuint(r.bytes, <=, b->rcv_nxt - 1);
    g_assert_cmpuint(b->rcv_nxt, <=, a->snd_nxt);
    g_assert_cmpuint(a->bytes_acked, <=, b->rcv_nxt - 1);
    g_assert_cmpuint(a->snd_una + a->rtx_queue.bytes, ==, a->snd_nxt);
    g_assert_cmpuint(h->ctr.v[CTR_TcpRetransSegs], ==, 0);
    g_assert_cmpuint(h->ctr.v[CTR_TcpExtTCPTimeouts], ==, 0);
    /* loopback never segments: one TcpOutSegs per data skb of at most one MSS (65483) */
    g_assert_cmpuint(h->ctr.v[CTR_TcpOutSegs], >=, (a->snd_nxt - 1) / 65483);
    tcp_sock_free(a);
    tcp_sock_free(b);
    softnet_free(h->softnet);
    netdev_free(h->loopback);
    g_ptr_array_free(h->socks, TRUE);
    test_host_free(th);
}

/* The peer of the memory-wait test: it keeps what the socket sends and, every millisecond, one
 * ACK for everything sent so far with a 4 MiB window arrives in softirq (NULL CPU). */
typedef struct Acker {
    TcpSock *tp;
    Sim *sim;
    SimEvent ev;
    uint64_t acks;
} Acker;

static int drop_output(void *ctx, Skb *skb, Cpu *cpu)
{
    TcpSock *tp = ctx;
    (void)cpu;
    if (skb->sk) {
        skb->sk->wmem_alloc -= skb->truesize;
        skb->sk = NULL;
    }
    skb_free(tcp_sk(tp)->host->pool, skb);
    return 0; /* NET_XMIT_SUCCESS: lost beyond the device, the sender is not told */
}

static void acker_fire(Sim *sim, void *ctx)
{
    Acker *k = ctx;
    TcpSock *tp = k->tp;
    Host *h = tcp_sk(tp)->host;
    if (tp->snd_nxt > tp->snd_una) {
        Skb *ack = skb_alloc(h->pool);
        ack->conn = tcp_sk(tp)->conn;
        ack->seq = ack->end_seq = tp->rcv_nxt;
        ack->ack_seq = tp->snd_nxt;
        ack->flags = TCPHDR_ACK;
        ack->win = 4u << 20;
        ack->tsval = ack->tsecr = (uint32_t)(sim_now(sim) / SIM_MS) + 1;
        ack->gso_segs = 1;
        ack->truesize = 1280;
        tcp_v4_rcv(tcp_sk(tp), ack, NULL);
        k->acks++;
    }
    sim_schedule_in(sim, &k->ev, SIM_MS);
}

/* A 1 MiB write into the initial buffers (MSS 1448): size_goal is bounded by half the peer's
 * 65535-byte window: 32767 -> 22 MSS = 31856 B; an skb's truesize is 1280 + payload;
 * sk_sndbuf = tcp_sndbuf_expand at connect = 2 x 10 x (4096 + 256) = 87040; cwnd 10 sends at
 * most 5 MSS per skb (cwnd/2), each split adding a 1280-byte head. Step by step (as
 * tcp_sendmsg_locked, which tops a partly sent tail skb up to size_goal again):
 *   1. skb1 22 MSS (wmem 33136); tcp_push_one sends 5, split (+1280 = 34416)
 *   2. the 17-MSS rest topped up by 5 MSS (41656); write_seq 39097 > pushed_seq 1 + 32767:
 *      forced push sends 5 more, split (42936)
 *   3. rest topped up again (50176); cwnd full (10 out)
 *   4. memory 50176 < 87040: skb2 (83312)
 *   5. 83312 < 87040: skb3 (116448)
 *   6. 116448 >= 87040: wait, having copied 32 + 22 + 22 MSS = 110048 bytes.
 * The writer sleeps in sk_stream_wait_memory having released the socket; ACKs then free space
 * and wake it (write space), until the call completes. */
static void test_sendmsg_waits_for_memory(void)
{
    TestHost *th = test_host_new(1, 1000);
    test_host_build(th);
    Host *h = &th->host;
    h->socks = g_ptr_array_new();
    TcpSock *a = tcp_sock_new(h, 1, 1), *b = tcp_sock_new(h, 1, 2);
    tcp_connect_pair(a, b, 1500);
    g_assert_cmpuint(tcp_sk(a)->sndbuf, ==, 87040);
    tcp_set_xmit_hook(a, drop_output, a);
    App app = { .tp = a, .sender = true, .once = true, .len = 1u << 20 };
    app_start(&app, h, "writer", 0);
    sim_run_until(th->sim, 500 * SIM_US);
    g_assert_cmpint(app.task.state, ==, TASK_SLEEPING);
    g_assert_cmpuint(app.call.done, ==, 110048);
    g_assert_cmpuint(tcp_sk(a)->wmem_queued, ==, 116448);
    g_assert_true(a->sock_nospace);
    g_assert_false(tcp_sk(a)->owned);
    Acker k = { .tp = a, .sim = th->sim };
    sim_event_init(&k.ev, acker_fire, &k, 0, 0);
    sim_schedule_at(th->sim, &k.ev, SIM_MS);
    sim_run_until(th->sim, 2 * SIM_S);
    g_assert_cmpuint(app.calls, ==, 1);
    g_assert_cmpuint(app.bytes, ==, 1u << 20);
    g_assert_cmpuint(a->snd_una, ==, 1 + (1u << 20));
    g_assert_cmpuint(tcp_sk(a)->wmem_queued, ==, 0);
    g_assert_cmpuint(k.acks, >=, 2);
    sim_cancel(th->sim, &k.ev);
    tcp_sock_free(a);
    tcp_sock_free(b);
    g_ptr_array_free(h->socks, TRUE);
    test_host_free(th);
}

/* <= 3.6 (tcp.sendmsg_frag 4k) tcp_sendmsg copies into order-0 pages, a new one each 4 KiB,
 * the page carrying over from one skb and one write to the next: two writes of 6000 bytes take
 * pages for bytes 1-4096, 4097-8192 and 8193-12000, three in all, 2 + 1. 3.7+ charges none
 * (its 32 KiB frags are in sendmsg_skb). The writer's CPU books them under sendmsg_page. */
static sim_time_t send_pages_charged(TcpSendmsgFrag frag, int writes)
{
    TestHost *th = test_host_new(1, 1000);
    th->conf.tcp.sendmsg_frag = frag;
    test_host_build(th);
    Host *h = &th->host;
    h->socks = g_ptr_array_new();
    TcpSock *a = tcp_sock_new(h, 1, 1), *b = tcp_sock_new(h, 1, 2);
    tcp_connect_pair(a, b, 1500);
    tcp_set_xmit_hook(a, drop_output, a);
    App app = { .tp = a, .sender = true, .max_calls = (uint64_t)writes, .len = 6000 };
    app_start(&app, h, "writer", 0);
    sim_run_until(th->sim, SIM_MS);
    g_assert_cmpuint(app.calls, ==, (uint64_t)writes);
    sim_time_t booked = cpu_stats(th->cpus[0]).profile_ns[COST_SENDMSG_PAGE];
    tcp_sock_free(a);
    tcp_sock_free(b);
    g_ptr_array_free(h->socks, TRUE);
    test_host_free(th);
    return booked;
}

static void test_sendmsg_pages_era(void)
{
    sim_time_t page = cost_default(COST_SENDMSG_PAGE);
    g_assert_cmpint(send_pages_charged(TCP_SENDMSG_FRAG_4K, 1), ==, 2 * page);
    g_assert_cmpint(send_pages_charged(TCP_SENDMSG_FRAG_4K, 2), ==, 3 * page);
    g_assert_cmpint(send_pages_charged(TCP_SENDMSG_FRAG_32K, 2), ==, 0);
}

/* recvmsg finding its receive queue empty before it has `target` bytes (here none) while a
 * backlog waits: tcp_recvmsg_locked calls tcp_cleanup_rbuf() and only then sk_wait_data(),
 * whose release_sock() drains the backlog. That order holds in every era: before 5.17 the
 * call came ahead of both branches; 29fbc26e6dfc ("tcp: do not call tcp_cleanup_rbuf() if we
 * have a backlog", 5.17) moved it into this one, dropping it only where copied >= target and
 * the backlog is flushed without sleeping. State: three segments read but not ACKed (ACK
 * scheduled, rcv_nxt - rcv_wup > rcv_mss), one pure ACK from the peer in the backlog. The ACK
 * they are owed leaves from tcp_cleanup_rbuf, before the drain starts. */
typedef struct AckSeen {
    TcpSock *tp;
    uint64_t acks, drains_at_first;
} AckSeen;

static int note_ack(void *ctx, Skb *skb, Cpu *cpu)
{
    AckSeen *seen = ctx;
    (void)cpu;
    if (!seen->acks++)
        seen->drains_at_first = tcp_sk(seen->tp)->drains;
    if (skb->sk) {
        skb->sk->wmem_alloc -= skb->truesize;
        skb->sk = NULL;
    }
    skb_free(tcp_sk(seen->tp)->host->pool, skb);
    return 0; /* NET_XMIT_SUCCESS */
}

/* Two connected sockets on one host; b is the reader under test, its ACKs counted by `seen`
 * (a drops what it sends). b has rcv_mss 1448 and an ACK scheduled; the caller sets its
 * sequence state, then rcv_bench_peer_ack puts one pure ACK from a in b's backlog. */
typedef struct RcvBench {
    TestHost *th;
    Host *h;
    TcpSock *a, *b;
    AckSeen seen;
} RcvBench;

static void rcv_bench_init(RcvBench *rb, bool cleanup_before_flush)
{
    rb->th = test_host_new(1, 1000);
    rb->th->stack.recvmsg_cleanup_before_flush = cleanup_before_flush;
    test_host_build(rb->th);
    rb->h = &rb->th->host;
    rb->h->socks = g_ptr_array_new();
    rb->a = tcp_sock_new(rb->h, 1, 1);
    rb->b = tcp_sock_new(rb->h, 1, 2);
    tcp_connect_pair(rb->a, rb->b, 1500);
    rb->seen = (AckSeen){ .tp = rb->b };
    tcp_set_xmit_hook(rb->b, note_ack, &rb->seen);
    tcp_set_xmit_hook(rb->a, drop_output, rb->a);
    rb->b->ack.rcv_mss = 1448;
    rb->b->ack.pending |= ICSK_ACK_SCHED;
}

static void rcv_bench_peer_ack(RcvBench *rb)
{
    TcpSock *b = rb->b;
    Skb *ack = skb_alloc(rb->h->pool);
    ack->conn = tcp_sk(b)->conn;
    ack->seq = ack->end_seq = b->rcv_nxt;
    ack->ack_seq = b->snd_una;
    ack->flags = TCPHDR_ACK;
    ack->win = b->snd_wnd;
    ack->gso_segs = 1;
    ack->truesize = 1280;
    skb_queue_tail(&tcp_sk(b)->backlog, ack);
    tcp_sk(b)->backlog_len += ack->truesize;
}

static void rcv_bench_free(RcvBench *rb)
{
    tcp_sock_free(rb->a);
    tcp_sock_free(rb->b);
    g_ptr_array_free(rb->h->socks, TRUE);
    test_host_free(rb->th);
}

static void test_recvmsg_cleanup_before_wait(void)
{
    RcvBench rb;
    rcv_bench_init(&rb, false);
    TcpSock *b = rb.b;
    b->rcv_nxt += 3 * 1448;
    b->copied_seq = b->rcv_nxt;
    rcv_bench_peer_ack(&rb);
    App r = { .tp = b, .sender = false, .len = 65536 };
    app_start(&r, rb.h, "reader", 0);
    sim_run_until(rb.th->sim, SIM_MS);
    g_assert_cmpuint(tcp_sk(b)->drains, ==, 1);  /* sk_wait_data's release_sock drained it */
    g_assert_cmpuint(rb.seen.acks, >=, 1);
    g_assert_cmpuint(rb.seen.drains_at_first, ==, 0); /* the first ACK came before the drain */
    g_assert_cmpuint(b->rcv_wup, ==, b->rcv_nxt);
    rcv_bench_free(&rb);
}

/* recvmsg that has its `target` bytes when the receive queue runs dry while a backlog waits
 * processes the backlog without sleeping. Before 5.17 tcp_recvmsg called tcp_cleanup_rbuf()
 * first, so the ACK its read owes leaves ahead of the drain; 29fbc26e6dfc (5.17) dropped that
 * call ("Avoiding sending ACK right before processing new segments"), and the ACK waits for
 * the end of the read. stack.recvmsg.cleanup_before_flush picks the era. State: one unread
 * segment of 1448 bytes in the receive queue, three segments unacknowledged (ACK scheduled),
 * one pure ACK from the peer in the backlog. */
static uint64_t drains_before_first_ack(bool cleanup_before_flush)
{
    RcvBench rb;
    rcv_bench_init(&rb, cleanup_before_flush);
    TcpSock *b = rb.b;
    Skb *data = skb_alloc(rb.h->pool);
    data->conn = tcp_sk(b)->conn;
    data->seq = b->rcv_nxt + 2 * 1448;
    data->end_seq = data->seq + 1448;
    data->truesize = 2304;
    skb_queue_tail(&b->rcv_queue, data);
    tcp_sk(b)->rmem_alloc += data->truesize;
    b->copied_seq = data->seq;
    b->rcv_nxt = data->end_seq;
    rcv_bench_peer_ack(&rb);
    App r = { .tp = b, .sender = false, .once = true, .len = 65536 };
    app_start(&r, rb.h, "reader", 0);
    sim_run_until(rb.th->sim, SIM_MS);
    g_assert_cmpuint(r.bytes, ==, 1448);            /* the read returned what was queued */
    g_assert_cmpuint(tcp_sk(b)->drains, ==, 1);     /* and drained the backlog on its way */
    g_assert_cmpuint(rb.seen.acks, ==, 1);          /* one ACK either way */
    g_assert_cmpuint(b->rcv_wup, ==, b->rcv_nxt);
    uint64_t drains = rb.seen.drains_at_first;
    rcv_bench_free(&rb);
    return drains;
}

static void test_recvmsg_cleanup_before_flush(void)
{
    g_assert_cmpuint(drains_before_first_ack(true), ==, 0);  /* < 5.17: ACK, then drain */
    g_assert_cmpuint(drains_before_first_ack(false), ==, 1); /* 5.17+: drain, then ACK */
}

/* tcp_recvmsg measures for autotuning after EVERY skb it copies (tcp_rcv_space_adjust follows
 * `len -= used` in the copy loop), not once per call. Three 64 KiB skbs wait unread; the
 * receiver RTT is 4 us and the last measurement was at 0; one read takes all three, each copy
 * 64 x 80 ns = 5.12 us, so an RTT has passed before each measurement:
 *   skb 1 (t = 1 ms): copied 65536 - unread 131072 < 0: no growth (6.16 rule; the legacy one
 *     grows to 65536 here), new measurement;
 *   skb 2: copied 65536 - unread 65536 = 0: none;
 *   skb 3: copied 65536 - 0 > space 10000: space = 65536.
 * One measurement at the end of the call would have seen all 196608 bytes and nothing unread. */
static void test_recvmsg_measures_after_each_skb(void)
{
    RcvBench rb;
    rcv_bench_init(&rb, false);
    TcpSock *b = rb.b;
    uint64_t start = b->copied_seq;
    for (int i = 0; i < 3; i++) {
        Skb *data = skb_alloc(rb.h->pool);
        data->conn = tcp_sk(b)->conn;
        data->seq = b->rcv_nxt;
        data->end_seq = data->seq + 65536;
        data->truesize = 65536 + 1280;
        skb_queue_tail(&b->rcv_queue, data);
        tcp_sk(b)->rmem_alloc += data->truesize;
        b->rcv_nxt = data->end_seq;
    }
    b->rcv_rtt_us = 8 * 4;
    b->rcvq_space = (TcpRcvqSpace){ .space = 10000, .seq = start, .time = 0 };
    App r = { .tp = b, .sender = false, .once = true, .len = 3 * 65536 };
    sim_run_until(rb.th->sim, SIM_MS);
    app_start(&r, rb.h, "reader", 0);
    sim_run_until(rb.th->sim, 2 * SIM_MS);
    g_assert_cmpuint(r.bytes, ==, 3 * 65536);
    g_assert_cmpuint(b->rcvq_space.space, ==, 65536);
    g_assert_cmpuint(b->rcvq_space.seq, ==, start + 3 * 65536);
    g_assert_cmpint(b->rcvq_space.time, >, SIM_MS + 10 * SIM_US); /* the third skb's copy */
    rcv_bench_free(&rb);
}

/* A 1448-byte data segment from a, next in sequence at b (seq), as b's softirq would see it. */
static Skb *rcv_bench_data(RcvBench *rb, uint64_t seq)
{
    TcpSock *b = rb->b;
    Skb *data = skb_alloc(rb->h->pool);
    data->conn = tcp_sk(b)->conn;
    data->seq = seq;
    data->end_seq = seq + 1448;
    data->len = 1448;
    data->ack_seq = b->snd_una;
    data->flags = TCPHDR_ACK;
    data->win = b->snd_wnd;
    data->tsval = b->ts_recent;
    data->gso_segs = 1;
    data->truesize = 2624;
    return data;
}

/* The queues a 2.6-4.13 reader must empty in order (3.4 tcp_recvmsg's comment: packets in
 * flight, backlog, prequeue, receive queue - each only once the later ones are empty): a read
 * that ends with segments in its prequeue processes them before its final release_sock()
 * drains the backlog, which holds segments that came after them. State: S1 unread in the
 * receive queue, S2 in the prequeue (it came while the reader slept in recvmsg), S3 in the
 * backlog (it came once the reader owned the socket again). A read of 1448 bytes takes S1;
 * then S2 and S3 reach the receive queue in order. Draining S3 first made it out of order:
 * b SACKed it, and a sender that counts such SACKs (FACK) retransmitted S2, which had not been
 * lost (a DSACK followed). */
static void test_recvmsg_prequeue_before_release(void)
{
    RcvBench rb;
    rcv_bench_init(&rb, true);
    rb.th->stack.prequeue_enabled = true;
    TcpSock *b = rb.b;
    Sock *sk = tcp_sk(b);
    uint64_t s1 = b->rcv_nxt;
    Skb *data = rcv_bench_data(&rb, s1);
    skb_queue_tail(&b->rcv_queue, data);
    sk->rmem_alloc += data->truesize;
    b->rcv_nxt = data->end_seq;
    data = rcv_bench_data(&rb, s1 + 1448);
    skb_queue_tail(&b->prequeue, data);
    b->ucopy_memory += data->truesize;
    data = rcv_bench_data(&rb, s1 + 2 * 1448);
    skb_queue_tail(&sk->backlog, data);
    sk->backlog_len += data->truesize;
    App r = { .tp = b, .sender = false, .once = true, .len = 1448 };
    app_start(&r, rb.h, "reader", 0);
    sim_run_until(rb.th->sim, SIM_MS);
    g_assert_cmpuint(r.bytes, ==, 1448);
    g_assert_cmpuint(b->prequeue.qlen, ==, 0);
    g_assert_cmpuint(rb.h->ctr.v[CTR_TcpExtTCPOFOQueue], ==, 0);
    g_assert_cmpuint(b->rcv_nxt, ==, s1 + 3 * 1448);
    g_assert_cmpuint(b->rcv_queue.bytes, ==, 2 * 1448);
    rcv_bench_free(&rb);
}

/* The device of the PSH test: it records each skb TCP hands it and holds it (charged to the
 * socket, as in a TX ring) until the test completes it. */
typedef struct Held {
    TcpSock *tp;
    SkbQueue q;
    uint32_t n;
    uint64_t end[64];
    uint8_t flags[64];
} Held;

static int hold_and_record(void *ctx, Skb *skb, Cpu *cpu)
{
    Held *d = ctx;
    (void)cpu;
    g_assert_cmpuint(d->n, <, G_N_ELEMENTS(d->end));
    d->end[d->n] = skb->end_seq;
    d->flags[d->n++] = skb->flags;
    skb_queue_tail(&d->q, skb);
    return 0; /* NET_XMIT_SUCCESS */
}

/* TX completion of everything held: uncharge, then the destructor (TSQ handler). */
static void complete_all(Held *d)
{
    Skb *skb;
    while ((skb = skb_dequeue(&d->q))) {
        Sock *sk = skb->sk;
        sk->wmem_alloc -= skb->truesize;
        skb->sk = NULL;
        sock_wfree(sk, skb, NULL);
        skb_free(tcp_sk(d->tp)->host->pool, skb);
    }
}

/* A writer making `calls` writes of `wr` bytes at MSS 4096 (size_goal 15 MSS = 61440) with
 * autocorking, cwnd 1000 and a 4 MiB peer window, into a device that holds every skb (d) until
 * the rig completes them all at 5 and 10 ms. */
typedef struct {
    TestHost *th;
    TcpSock *a, *b;
    Held d;
    App app;
} WriterRig;

static void writer_rig_run(WriterRig *r, uint64_t wr, uint32_t calls)
{
    r->th = test_host_new(1, 1000);
    r->th->conf.tcp.sndbuf = 4u << 20; /* never wait for memory */
    r->th->conf.tcp.autocorking = true;
    test_host_build(r->th);
    Host *h = &r->th->host;
    h->socks = g_ptr_array_new();
    r->a = tcp_sock_new(h, 1, 1);
    r->b = tcp_sock_new(h, 1, 2);
    tcp_connect_pair(r->a, r->b, 4096 + 40 + (r->th->conf.tcp.timestamps ? 12 : 0));
    g_assert_cmpuint(r->a->mss_cache, ==, 4096);
    r->a->snd_cwnd = 1000;
    r->a->snd_wnd = r->a->max_window = 4u << 20;
    r->d = (Held){ .tp = r->a };
    skb_queue_init(&r->d.q);
    tcp_set_xmit_hook(r->a, hold_and_record, &r->d);
    r->app = (App){ .tp = r->a, .sender = true, .len = wr, .max_calls = calls };
    app_start(&r->app, h, "writer", 0);
    sim_run_until(r->th->sim, 5 * SIM_MS);
    g_assert_cmpuint(r->app.calls, ==, calls);
    complete_all(&r->d);
    sim_run_until(r->th->sim, 10 * SIM_MS);
    complete_all(&r->d);
    g_assert_cmpuint(r->a->snd_nxt, ==, 1 + calls * wr);
}

static void writer_rig_free(WriterRig *r)
{
    GPtrArray *socks = r->th->host.socks;
    tcp_sock_free(r->a);
    tcp_sock_free(r->b);
    g_ptr_array_free(socks, TRUE);
    test_host_free(r->th);
}

/* PSH marks the end of a write (seed 000's tcpdump: one PSH per 180,224 bytes, the end of 11
 * 16 KiB netperf writes autocorked into 61440 + 61440 + 57344 bytes). tcp_push marks the
 * queue's tail at the end of each sendmsg, and tcp_sendmsg_locked's first copy of the next
 * sendmsg clears PSH of the skb it lands in ("if (!copied) tcp_flags &= ~TCPHDR_PSH", in every
 * era from 2.6 to 6.17), so a tail that grows by a later write loses the mark. Eleven 16 KiB
 * writes into the rig: the first two go at once, the third is autocorked and later writes grow
 * it; skbs that fill up go by tcp_push_one. A forced push never happens (a 4 MiB peer window).
 * So every skb sent with PSH ends where a write ended (a multiple of 16 KiB after ISN + 1), and
 * the last one does. */
static void test_sendmsg_psh_marks_write_end(void)
{
    const uint64_t wr = 16384;
    WriterRig r;
    writer_rig_run(&r, wr, 11);
    g_assert_cmpuint(r.th->host.ctr.v[CTR_TcpExtTCPAutoCorking], >=, 1);
    const Held *d = &r.d;
    uint32_t grown = 0; /* skbs that carry bytes of more than one write */
    for (uint32_t i = 0; i < d->n; i++) {
        if (g_test_verbose())
            g_print("skb %u: end %" PRIu64 " flags %#x\n", i, d->end[i], d->flags[i]);
        bool write_end = (d->end[i] - 1) % wr == 0;
        if (d->flags[i] & TCPHDR_PSH)
            g_assert_true(write_end);
        uint64_t start = i ? d->end[i - 1] : 1;
        grown += (d->end[i] - 1) / wr - (start - 1) / wr > (write_end ? 1u : 0u);
    }
    g_assert_cmpuint(grown, >=, 1);
    g_assert_true(d->flags[d->n - 1] & TCPHDR_PSH);
    writer_rig_free(&r);
}

/* A write that ends exactly where its skb is full leaves the copy loop before the size_goal test
 * ("if (!msg_data_left(msg)) goto out", tcp_sendmsg_locked, 2.6 to 6.x), so the skb goes out
 * by the end-of-call tcp_push, marked PSH, not by tcp_push_one without it. Three writes of
 * 61440 bytes (size_goal 15 x 4096): three skbs, each with PSH. */
static void test_sendmsg_full_skb_write_end_psh(void)
{
    const uint64_t wr = 61440;
    WriterRig r;
    writer_rig_run(&r, wr, 3);
    g_assert_cmpuint(r.d.n, ==, 3);
    for (uint32_t i = 0; i < r.d.n; i++) {
        g_assert_cmpuint(r.d.end[i], ==, 1 + (i + 1) * wr);
        g_assert_cmpuint(r.d.flags[i] & TCPHDR_PSH, ==, TCPHDR_PSH);
    }
    writer_rig_free(&r);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/tcp/syscalls/sendmsg-flush-rule", test_sendmsg_flush_rule);
    g_test_add_func("/tcp/syscalls/loopback-transfer", test_loopback_transfer);
    g_test_add_func("/tcp/syscalls/sendmsg-psh-marks-write-end", test_sendmsg_psh_marks_write_end);
    g_test_add_func("/tcp/syscalls/sendmsg-full-skb-write-end-psh",
                    test_sendmsg_full_skb_write_end_psh);
    g_test_add_func("/tcp/syscalls/sendmsg-memory-wait", test_sendmsg_waits_for_memory);
    g_test_add_func("/tcp/syscalls/sendmsg-pages-era", test_sendmsg_pages_era);
    g_test_add_func("/tcp/syscalls/recvmsg-cleanup-before-wait", test_recvmsg_cleanup_before_wait);
    g_test_add_func("/tcp/syscalls/recvmsg-cleanup-before-flush", test_recvmsg_cleanup_before_flush);
    g_test_add_func("/tcp/syscalls/recvmsg-measures-after-each-skb",
                    test_recvmsg_measures_after_each_skb);
    g_test_add_func("/tcp/syscalls/recvmsg-prequeue-before-release",
                    test_recvmsg_prequeue_before_release);
    return g_test_run();
}
