/* sock.c - the socket lock and backlog (net/core/sock.c, tcp_add_backlog in tcp_ipv4.c).
 *
 * Why: seeds 000, 001 and 004 are all about what happens to segments that arrive while a
 * process owns its socket: they wait in the backlog (or are dropped at its limit), and the
 * owner processes them on its own CPU, yielding between them per the cond_resched policy.
 *
 * Process side (resumable, one skb per task step, notes A.4, A.5, A.8, A.11):
 *   lock_sock: might_sleep() (a preemption point under PREEMPT_VOLUNTARY), then ownership, or
 *     sleep as the lock waiter until the owner releases.
 *   the drain (__release_sock): take the whole backlog as a private batch; process one skb per
 *     step (sk->ops->backlog_rcv + COST_BACKLOG_EXTRA); after an skb that is not the last of its
 *     batch, count it and call cond_resched() when the count reaches a multiple of
 *     stack.release_sock.resched_every (ONE count for the whole drain, across batches; E2025
 *     semantics); resched_every = 1 is the loop before 16c610162d1f, do { sk_backlog_rcv();
 *     cond_resched(); } while (skb), which calls it after every skb, a batch's last included
 *     (notes A.5, 4.7-6.17); take what
 *     arrived meanwhile as the next batch; backlog_len goes back to 0 only when the backlog is
 *     found empty, which ends the drain. The owner keeps the socket while it is descheduled.
 *   release_sock: drain, release_cb (tcp_release_cb), drop ownership, wake the lock waiter.
 *     The final empty check and the release happen in the same instant, as under slock in the
 *     kernel, so no segment is stranded.
 *   sk_flush_backlog: the same drain and release_cb, keeping ownership. The kernel's
 *     __sk_flush_backlog runs release_cb only since 6.7 (4505dc2a5228); the model runs it in
 *     every era, because recvmsg uses this step for the release_sock(); lock_sock() pair of
 *     kernels before 5.17, which did run it. A sendmsg flush before 6.7 therefore handles
 *     deferred timer and TSQ work earlier than its kernel did (README, "Not modelled").
 *   Each of these drops the slock with spin_unlock_bh, where pending softirq work runs (at the
 *   end of the step: lock_sock's with the socket owned, so its segments go to the backlog;
 *   release_sock's after ownership is dropped; the drain's once per batch, after the batch's
 *   first skb).
 * Softirq side (tcp_add_backlog, notes B.1-B.3): coalesce into the backlog tail when allowed
 *   (even above the limit), else drop when backlog_len + rmem_alloc > limit (the incoming skb's
 *   own truesize is not counted, 3.3+), else append.
 *
 * Up to 4.6 (stack.release_sock.bh_disabled) the whole drain runs with bottom halves disabled
 * on the owner's CPU: its softirq waits until the drain ends, or until cond_resched_softirq()
 * finds need_resched set and enables them to yield (local_bh_enable; cond_resched;
 * local_bh_disable), and the backlog grows meanwhile only from other CPUs.
 */
#include "models/sock.h"

#include <glib.h>
#include <inttypes.h>

#include "models/observe.h"
#include "models/truesize.h"

/* 64 KiB added to the TCP backlog limit since c9c3321257e1 (4.9, notes B.2). */
#define BACKLOG_LIMIT_EXTRA 65536u
/* gso_segs is a u16 in skb_shared_info: coalescing caps the sum (notes B.3). */
#define GSO_SEGS_MAX 0xFFFFu

enum { DRAIN_IDLE, DRAIN_RUNNING };

/* COST_LOCK_SOCK is the lock_sock + release_sock pair ("two spinlock round trips", A.2): each
 * side takes and drops the slock once, so each is charged half of it. */
static sim_time_t lock_half_cost(const Sock *sk, bool release)
{
    sim_time_t pair = host_cost(sk->host, COST_LOCK_SOCK);
    return release ? pair - pair / 2 : pair / 2;
}

void sock_init(Sock *sk, Host *h, uint32_t conn, uint16_t port, const SockOps *ops)
{
    *sk = (Sock){ .host = h, .conn = conn, .port = port, .ops = ops,
                  .rcvbuf = h->conf->tcp.rcvbuf, .sndbuf = h->conf->tcp.sndbuf };
    skb_queue_init(&sk->backlog);
}

void sock_destroy(Sock *sk)
{
    skb_queue_purge(&sk->backlog, sk->host->pool);
    while (sk->drain_batch) {
        Skb *skb = sk->drain_batch;
        sk->drain_batch = skb->next;
        skb->next = skb->prev = NULL;
        skb_free(sk->host->pool, skb);
    }
    sk->backlog_len = 0;
    sk->drained_max_truesize = 0;
}

/* spin_unlock_bh(&sk->sk_lock.slock): local_bh_enable runs pending softirq work, here before
 * the task's next step (lock_sock and release_sock both end with it, and __release_sock drops
 * the slock with BH enabled while it processes each batch). */
static void slock_unlock_bh(Task *t)
{
    task_bh_disable(t);
    task_bh_enable(t);
}

/* ---- limit ----------------------------------------------------------------------------------- */

uint64_t sk_backlog_limit(const Sock *sk)
{
    uint64_t rcv = sk->rcvbuf, snd = sk->sndbuf;
    switch (sk->host->stack->backlog_limit) {
    case BACKLOG_LIMIT_RCVBUF: /* 2.6.34-3.4 */
        return rcv;
    case BACKLOG_LIMIT_RCVBUF_SNDBUF: /* 3.5-4.8, seed 004 (da882c1f2eca) */
        return rcv + snd;
    case BACKLOG_LIMIT_2016: /* 4.9 */
        return rcv + snd + BACKLOG_LIMIT_EXTRA;
    case BACKLOG_LIMIT_2022: /* ec791d8149ff */
        return rcv + snd / 2 + BACKLOG_LIMIT_EXTRA;
    case BACKLOG_LIMIT_2024: { /* ec00ed472bdb: 64-bit, capped at UINT_MAX */
        uint64_t limit = 2 * rcv + snd / 2 + BACKLOG_LIMIT_EXTRA;
        return limit > UINT32_MAX ? UINT32_MAX : limit;
    }
    }
    g_assert_not_reached();
}

/* ---- tcp_add_backlog ------------------------------------------------------------------------- */

static bool same_options(const Skb *a, const Skb *b)
{
    if (a->tsval != b->tsval || a->tsecr != b->tsecr || a->nsacks != b->nsacks ||
        a->dsack != b->dsack)
        return false;
    for (uint8_t i = 0; i < a->nsacks; i++)
        if (a->sack[i].start != b->sack[i].start || a->sack[i].end != b->sack[i].end)
            return false;
    return true;
}

/* Page frags an received skb holds: one per MSS frame of payload (the model cannot see frags;
 * a GRO skb of more than MAX_SKB_FRAGS frames chains the rest through frag_list). */
static uint32_t rx_frags(const Skb *skb)
{
    return skb->len ? (skb->gso_segs ? skb->gso_segs : 1) : 0;
}

/* The B.3 conditions the model can see: contiguous, no SYN/RST, both ACK, byte-identical
 * options (timestamps and SACK blocks), and skb_try_coalesce() able to move the frags (no
 * frag_list on either side, at most MAX_SKB_FRAGS together) into a tail that is not cloned
 * (skb_try_coalesce: "if (skb_cloned(to)) return false", 3.5+): over loopback a data skb is
 * the sender's clone, so data never merges there, while pure ACKs (fresh skbs) do. URG,
 * ECE/CWR and DSCP are not modelled (always equal). */
static bool backlog_can_coalesce(const Skb *tail, const Skb *skb)
{
    if (tail->cloned)
        return false;
    if (tail->end_seq != skb->seq)
        return false;
    if ((tail->flags | skb->flags) & (TCPHDR_SYN | TCPHDR_RST))
        return false;
    if (!(tail->flags & skb->flags & TCPHDR_ACK))
        return false;
    if (!same_options(tail, skb))
        return false;
    return rx_frags(tail) + rx_frags(skb) <= TRUESIZE_MAX_SKB_FRAGS;
}

static uint32_t segs_or_one(const Skb *skb)
{
    return skb->gso_segs ? skb->gso_segs : 1;
}

/* Merge skb into tail; returns the truesize delta charged to the backlog. A payload-less skb
 * is copied into the tail's room (delta 0); payload frags move to the tail and only the
 * absorbed skb's struct sk_buff is freed (delta = truesize - 256). */
static uint32_t backlog_coalesce(Skb *tail, const Skb *skb)
{
    tail->end_seq = skb->end_seq;
    if (skb->ack_seq >= tail->ack_seq) { /* !before(): the newer ACK and its window win */
        tail->ack_seq = skb->ack_seq;
        tail->win = skb->win;
    }
    tail->flags |= skb->flags; /* FIN and PSH are ORed */
    uint32_t gso_size = tail->gso_size ? tail->gso_size : tail->len;
    uint32_t skb_size = skb->gso_size ? skb->gso_size : skb->len;
    tail->gso_size = (uint16_t)(gso_size > skb_size ? gso_size : skb_size);
    uint32_t segs = segs_or_one(tail) + segs_or_one(skb);
    tail->gso_segs = (uint16_t)(segs > GSO_SEGS_MAX ? GSO_SEGS_MAX : segs);
    tail->len += skb->len;
    uint32_t delta = 0;
    if (skb->len && skb->truesize > TRUESIZE_SK_BUFF)
        delta = skb->truesize - TRUESIZE_SK_BUFF;
    tail->truesize += delta;
    return delta;
}

static void backlog_note_len(Sock *sk)
{
    if (sk->backlog_len > sk->backlog_max_len)
        sk->backlog_max_len = sk->backlog_len;
}

static bool try_coalesce(Sock *sk, Skb *skb)
{
    Skb *tail = sk->backlog.tail;
    if (!sk->host->stack->backlog_coalesce || !tail || !backlog_can_coalesce(tail, skb))
        return false;
    sk->backlog.bytes += skb->len;
    sk->backlog_len += backlog_coalesce(tail, skb);
    backlog_note_len(sk);
    if (SIM_OBSERVED(sk->host, LOG_BACKLOG))
        obs_sock_backlog(sk, NULL, "coalesce");
    sk->host->ctr.v[CTR_TcpExtTCPBacklogCoalesce]++;
    skb_free(sk->host->pool, skb);
    return true;
}

/* skb_condense, first thing in tcp_add_backlog (the 2016+ limit eras): a segment without
 * payload, whose few bytes fit the head, gives back its page fragment, and its truesize becomes
 * the head's ("pure SACK packets were sometimes dropped"). Data skbs keep theirs. */
static void backlog_condense(const Sock *sk, Skb *skb)
{
    if (sk->host->stack->backlog_limit >= BACKLOG_LIMIT_2016 && skb->len == 0 &&
        skb->truesize > truesize_condensed_ack())
        skb->truesize = truesize_condensed_ack();
}

bool tcp_add_backlog(Sock *sk, Skb *skb, Cpu *cpu)
{
    cpu_charge_cost(cpu, COST_BACKLOG_ADD);
    backlog_condense(sk, skb);
    if (try_coalesce(sk, skb))
        return true;
    if (sk->backlog_len + sk->rmem_alloc > sk_backlog_limit(sk)) {
        sk->host->ctr.v[CTR_TcpExtTCPBacklogDrop]++;
        sk->backlog_drops++;
        sk->host->drop_tally++;
        SIM_EVENT(sk->host, LOG_BACKLOG, cpu, sk, "backlog_drop",
                  "len=%" PRIu64 " rmem=%" PRIu64 " limit=%" PRIu64 " seq=%" PRIu64, sk->backlog_len,
                  sk->rmem_alloc, sk_backlog_limit(sk), skb->seq);
        skb_free(sk->host->pool, skb);
        return false;
    }
    skb_queue_tail(&sk->backlog, skb);
    sk->backlog_len += skb->truesize;
    backlog_note_len(sk);
    if (SIM_OBSERVED(sk->host, LOG_BACKLOG))
        obs_sock_backlog(sk, cpu, "add");
    return true;
}

/* ---- the drain (__release_sock) -------------------------------------------------------------- */

/* The whole backlog becomes the drain's private batch; the socket's backlog starts empty and
 * the slock is dropped (BH enabled) while the batch is processed. */
static void take_batch(Sock *sk, Task *t)
{
    slock_unlock_bh(t);
    sk->drain_batch = sk->backlog.head;
    sk->backlog.head = sk->backlog.tail = NULL;
    sk->backlog.qlen = 0;
    sk->backlog.bytes = 0;
}

/* <= 4.6: cond_resched_softirq() - with need_resched set, enable BH (the pending softirq runs
 * before the switch) and yield; drain_step disables them again when the owner runs on. */
static bool drain_cond_resched_softirq(Sock *sk, Task *t)
{
    if (!task_need_resched(t))
        return false;
    task_bh_enable(t);
    if (task_cond_resched(t)) {
        sk->drain_bh_off = false;
        return true;
    }
    task_bh_disable(t);
    return false;
}

static void drain_resched_point(Sock *sk, Task *t)
{
    uint32_t every = sk->host->stack->release_sock_resched_every;
    sk->drain_nb++;
    if (every == 0 || sk->drain_nb % every != 0)
        return;
    sk->drain_resched_calls++;
    bool yielded = sk->drain_bh_off ? drain_cond_resched_softirq(sk, t) : task_cond_resched(t);
    if (yielded) {
        sk->drain_yields++;
        sk->host->ctr.v[CTR_SksimOwnerYields]++;
        sk->drain_yielded_at = cpu_acted_at(t->cpu);
        SIM_EVENT(sk->host, LOG_BACKLOG, t->cpu, sk, "drain_yield",
                  "task=%s n=%u backlog=%" PRIu64, t->name, sk->drain_nb, sk->backlog_len);
    }
}

static void drain_one(Sock *sk, Task *t)
{
    Skb *skb = sk->drain_batch;
    sk->drain_batch = skb->next;
    skb->next = skb->prev = NULL;
    bool last_of_batch = sk->drain_batch == NULL;
    if (skb->truesize > sk->drained_max_truesize)
        sk->drained_max_truesize = skb->truesize;
    sk->ops->backlog_rcv(sk, skb, t->cpu);
    cpu_charge_cost(t->cpu, COST_BACKLOG_EXTRA);
    /* 2025 loop: no cond_resched() after a batch's last skb; the loop before it (every = 1)
     * had one after every skb, so a one-skb drain yielded too (net/core/sock.c, notes A.5). */
    if (!last_of_batch || sk->host->stack->release_sock_resched_every == 1)
        drain_resched_point(sk, t);
}

/* The owner runs again after a yield: count how long it was away (SksimOwnerYieldUs). */
static void drain_resumed(Sock *sk, Task *t)
{
    sim_time_t away = cpu_acted_at(t->cpu) - sk->drain_yielded_at;
    sk->host->ctr.v[CTR_SksimOwnerYieldUs] += (uint64_t)((away + SIM_US / 2) / SIM_US);
    sk->drain_yielded_at = 0;
}

/* One step of the drain; true when it has ended (the backlog was found empty). */
static bool drain_step(Sock *sk, Task *t)
{
    if (sk->drain_yielded_at)
        drain_resumed(sk, t);
    bool bh_off = sk->host->stack->release_sock_bh_off;
    if (bh_off && sk->drain_phase == DRAIN_RUNNING && !sk->drain_bh_off) {
        task_bh_disable(t); /* back from cond_resched_softirq() */
        sk->drain_bh_off = true;
    }
    if (!sk->drain_batch) {
        if (skb_queue_empty(&sk->backlog)) {
            if (sk->drain_phase == DRAIN_RUNNING) {
                sk->backlog_len = 0;
                sk->drained_max_truesize = 0;
                if (SIM_OBSERVED(sk->host, LOG_BACKLOG))
                    obs_sock_backlog(sk, t->cpu, "drained");
            }
            if (sk->drain_bh_off) { /* release_sock's spin_unlock_bh: the softirq runs now */
                sk->drain_bh_off = false;
                task_bh_enable(t);
            }
            sk->drain_phase = DRAIN_IDLE;
            return true;
        }
        if (sk->drain_phase == DRAIN_IDLE) {
            sk->drain_phase = DRAIN_RUNNING;
            sk->drain_nb = 0;
            sk->drains++;
            if (bh_off) {
                task_bh_disable(t);
                sk->drain_bh_off = true;
            }
            SIM_LOG(sk->host, LOG_BACKLOG, t->cpu, "drain_start", "sk=%u len=%" PRIu64 " skbs=%u",
                    sk->port, sk->backlog_len, sk->backlog.qlen);
        }
        take_batch(sk, t);
    }
    drain_one(sk, t);
    return false;
}

static void release_cb(Sock *sk, Task *t)
{
    if (sk->ops->release_cb)
        sk->ops->release_cb(sk, t->cpu);
}

/* ---- process side ---------------------------------------------------------------------------- */

bool lock_sock_step(Sock *sk, Task *t)
{
    g_assert(sk->owner != t);
    if (task_might_resched(t))
        return false;
    if (sk->owned) {
        g_assert(!sk->lock_waiter || sk->lock_waiter == t);
        sk->lock_waiter = t;
        SIM_LOG(sk->host, LOG_BACKLOG, t->cpu, "sock_lock_wait", "sk=%u owner=%s", sk->port,
                sk->owner->name);
        task_sleep(t);
        return false;
    }
    sk->owned = true;
    sk->owner = t;
    if (SIM_OBSERVED(sk->host, LOG_BACKLOG))
        obs_sock_owner(sk, t, true);
    cpu_charge_op(t->cpu, COST_LOCK_SOCK, lock_half_cost(sk, false));
    slock_unlock_bh(t);
    return true;
}

bool release_sock_step(Sock *sk, Task *t)
{
    g_assert(sk->owned && sk->owner == t);
    if (!drain_step(sk, t))
        return false;
    release_cb(sk, t);
    sk->owned = false;
    sk->owner = NULL;
    if (SIM_OBSERVED(sk->host, LOG_BACKLOG))
        obs_sock_owner(sk, t, false);
    cpu_charge_op(t->cpu, COST_LOCK_SOCK, lock_half_cost(sk, true));
    Task *waiter = sk->lock_waiter;
    sk->lock_waiter = NULL;
    if (waiter)
        task_wake(waiter, t->cpu);
    slock_unlock_bh(t);
    return true;
}

bool sk_flush_backlog_step(Sock *sk, Task *t)
{
    g_assert(sk->owned && sk->owner == t);
    if (sk->drain_phase == DRAIN_IDLE) {
        if (!sk_backlog_pending(sk))
            return true; /* lockless peek at sk_backlog.tail */
        /* __sk_flush_backlog: spin_lock_bh and spin_unlock_bh around __release_sock, which drops
         * and retakes the slock around its batch: two round trips, the lock_sock row */
        cpu_charge_op(t->cpu, COST_LOCK_SOCK, host_cost(sk->host, COST_LOCK_SOCK));
    }
    if (!drain_step(sk, t))
        return false;
    release_cb(sk, t);
    slock_unlock_bh(t);
    return true;
}
