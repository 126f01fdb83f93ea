/* tcp_harness.h - a scripted two-host TCP test bench (packetdrill style), header-only.
 *
 * Two hosts share one Sim and have no CPUs (a NULL Cpu: charges are dropped and softirq work
 * runs at once). Host 0's socket `a` is the client/sender, host 1's `b` the server/receiver.
 * Each socket's transmissions are captured in out[0] (from a) / out[1] (from b) instead of
 * going to IP; TX completion is immediate (wmem_alloc uncharged). Tests move time with
 * th_run_to(), deliver or drop captured skbs, and inspect socket internals through
 * models/tcp_internal.h.
 */
#ifndef SKSIM_TCP_HARNESS_H
#define SKSIM_TCP_HARNESS_H

#include <glib.h>

#include "models/skb.h"
#include "models/tcp.h"
#include "models/tcp_internal.h"
#include "sim/costs.h"

typedef struct TcpBench {
    Sim *sim;
    HostConf conf[2];
    StackConf stack;
    Host host[2];
    GPtrArray *socks[2];
    TcpSock *a, *b;
    SkbQueue out[2];
    uint64_t sent[2];
} TcpBench;

static inline void th_tcp_conf(TcpConf *t)
{
    *t = (TcpConf){ .rto_min_ns = 200 * SIM_MS, .rcvbuf = 131072, .sndbuf = 16384,
                    .rcvbuf_max = 6 * 1024 * 1024, .rcvbuf_autotune = true, .cc = CC_CUBIC,
                    .frto = 2, .pingpong_thresh = 1, .undo_without_rtx = true, .sack = true,
                    .timestamps = true,
                    .tlp = true,
                    .limit_output_bytes = 1048576, .netdev_budget = 300,
                    .netdev_budget_ns = 0, .napi_weight = 64, .max_backlog = 1000,
                    /* the benches' hand computations advertise half the buffer (3.5-6.4);
                     * test_tcp_window.c covers the other eras and the 6.5+ scaling_ratio */
                    .win_scaling = TCP_WIN_ADV_WIN_SCALE_1, .window_counts_backlog = true,
                    .delack_from_rto_min = true, .push_full_mss = true, .ack_rcvlowat = true,
                    .gap_fill_ack_now = true,
                    .quickack_per_ack = true, .tso_half_cwnd = true, .tso_split_nagle = true,
                    .tsq = true,
                    .sndbuf_autotune = true };
}

static inline int th_capture(void *ctx, Skb *skb, Cpu *cpu)
{
    TcpBench *tb = ((void **)ctx)[0];
    int side = (int)(intptr_t)((void **)ctx)[1];
    (void)cpu;
    if (skb->sk) { /* immediate TX completion, without the TSQ callback */
        skb->sk->wmem_alloc -= skb->truesize;
        skb->sk = NULL;
    }
    skb_queue_tail(&tb->out[side], skb);
    tb->sent[side]++;
    return 0; /* NET_XMIT_SUCCESS */
}

/* Allocate a bench; edit tb->conf / tb->stack, then th_connect(). */
static inline TcpBench *th_new(void)
{
    TcpBench *tb = g_new0(TcpBench, 1);
    tb->sim = sim_new(1);
    for (int i = 0; i < 2; i++) {
        tb->conf[i].name = i ? "server" : "client";
        tb->conf[i].cpus = 0;
        tb->conf[i].hz = 1000;
        tb->conf[i].nic.tso = true;
        tb->conf[i].nic.mtu = 1500;
        th_tcp_conf(&tb->conf[i].tcp);
        cost_table_defaults(&tb->conf[i].costs);
    }
    /* Timers on the cascading wheel: each runs at its expiry's own tick, which is what the
     * timing worked out in these tests' comments assumes; the 4.8+ wheel, a tick later, has its
     * own tests (test_ktimer, /tcp/timers/tlp-on-the-4.8-wheel). */
    tb->stack = (StackConf){ .release_sock_resched_every = 16, .sendmsg_flush_backlog_every = 16,
                             .backlog_limit = BACKLOG_LIMIT_2024, .backlog_coalesce = true,
                             .backlog_ack_defer = true, .prequeue_delack = PREQUEUE_DELACK_MIN_ATO,
                             .timer_wheel = KTIMER_WHEEL_CASCADE };
    return tb;
}

static void *th_ctx[2][2];

static inline void th_connect(TcpBench *tb, uint32_t mtu)
{
    for (int i = 0; i < 2; i++) {
        Host *h = &tb->host[i];
        h->id = (uint16_t)i;
        h->name = tb->conf[i].name;
        h->sim = tb->sim;
        h->conf = &tb->conf[i];
        h->stack = &tb->stack;
        h->hz = tb->conf[i].hz;
        h->pool = i ? tb->host[0].pool : skb_pool_new(); /* one pool: skbs cross hosts */
        tb->socks[i] = g_ptr_array_new();
        h->socks = tb->socks[i];
        skb_queue_init(&tb->out[i]);
    }
    tb->a = tcp_sock_new(&tb->host[0], 1, 1);
    tb->b = tcp_sock_new(&tb->host[1], 1, 1);
    tcp_connect_pair(tb->a, tb->b, mtu);
    /* one bench at a time per test: the hook context lives in a static */
    th_ctx[0][0] = tb, th_ctx[0][1] = (void *)(intptr_t)0;
    th_ctx[1][0] = tb, th_ctx[1][1] = (void *)(intptr_t)1;
    tcp_set_xmit_hook(tb->a, th_capture, th_ctx[0]);
    tcp_set_xmit_hook(tb->b, th_capture, th_ctx[1]);
}

static inline void th_free(TcpBench *tb)
{
    tcp_sock_free(tb->a);
    tcp_sock_free(tb->b);
    for (int i = 0; i < 2; i++) {
        skb_queue_purge(&tb->out[i], tb->host[i].pool);
        g_ptr_array_free(tb->socks[i], TRUE);
    }
    g_assert_cmpuint(skb_pool_in_use(tb->host[0].pool), ==, 0); /* no skb leaked */
    skb_pool_free(tb->host[0].pool);
    sim_free(tb->sim);
    g_free(tb);
}

static inline void th_run_to(TcpBench *tb, sim_time_t t)
{
    sim_run_until(tb->sim, t);
}

/* Queue `bytes` of application data on tp (what sendmsg copies) and push it. */
static inline void th_write(TcpSock *tp, uint64_t bytes)
{
    while (bytes) {
        uint32_t size_goal;
        tcp_send_mss(tp, &size_goal);
        Skb *skb = tp->write_queue.tail;
        if (!skb || skb->len >= size_goal)
            skb = tcp_entail_new_skb(tp, NULL);
        uint64_t n = size_goal - skb->len;
        if (n > bytes)
            n = bytes;
        tcp_skb_fill(tp, skb, n);
        bytes -= n;
    }
    tcp_mark_push(tp, tp->write_queue.tail);
    tcp_push_pending_frames(tp, NULL);
}

static inline uint32_t th_pending(TcpBench *tb, int side)
{
    return tb->out[side].qlen;
}

/* Take the oldest captured skb from side (0 = a's, 1 = b's); NULL if none. */
static inline Skb *th_take(TcpBench *tb, int side)
{
    return skb_dequeue(&tb->out[side]);
}

/* Deliver one captured skb of side to the other socket (softirq receive, NULL CPU). */
static inline void th_deliver_skb(TcpBench *tb, int side, Skb *skb)
{
    TcpSock *dst = side ? tb->a : tb->b;
    tcp_v4_rcv(tcp_sk(dst), skb, NULL);
}

static inline bool th_deliver(TcpBench *tb, int side)
{
    Skb *skb = th_take(tb, side);
    if (!skb)
        return false;
    th_deliver_skb(tb, side, skb);
    return true;
}

static inline void th_drop(TcpBench *tb, int side)
{
    Skb *skb = th_take(tb, side);
    g_assert_nonnull(skb);
    skb_free(tb->host[side].pool, skb);
}

/* Deliver everything in both directions, repeatedly, at the current time. */
static inline void th_pump(TcpBench *tb)
{
    while (th_deliver(tb, 0) || th_deliver(tb, 1))
        ;
}

static inline uint64_t th_ctr(TcpBench *tb, int host, CounterId id)
{
    return tb->host[host].ctr.v[id];
}

/* The application reads everything queued on tp (recvmsg's copy loop + tcp_cleanup_rbuf). */
static inline uint64_t th_read(TcpSock *tp)
{
    uint64_t copied = tp->rcv_nxt - tp->copied_seq;
    Skb *skb;
    tp->copied_seq = tp->rcv_nxt;
    tp->bytes_received += copied;
    while ((skb = tp->rcv_queue.head) && skb->end_seq <= tp->copied_seq) {
        tcp_skb_unlink(&tp->rcv_queue, skb);
        tp->sk.rmem_alloc -= skb->truesize;
        skb_free(tcp_sk(tp)->host->pool, skb);
    }
    tcp_cleanup_rbuf(tp, copied, NULL);
    return copied;
}

/* The owner of tp releases it: the backlog is processed in order (__release_sock, NULL CPU),
 * backlog_len reset, tcp_release_cb run while still owned, then ownership dropped. */
static inline void th_drain(TcpSock *tp)
{
    Sock *sk = tcp_sk(tp);
    Skb *skb;
    while ((skb = skb_dequeue(&sk->backlog)))
        sk->ops->backlog_rcv(sk, skb, NULL);
    sk->backlog_len = 0;
    sk->ops->release_cb(sk, NULL);
    sk->owned = false;
}

#endif
