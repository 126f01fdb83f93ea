/* sock.h - the socket as the core networking code sees it: the two-level socket lock, the
 * backlog, buffer accounting and the deferred work run at release (net/core/sock.c).
 *
 * The lock is a spinlock plus an "owned by user" flag. Softirq never takes ownership: when a
 * segment arrives for an owned socket it goes to the backlog (tcp_add_backlog), or is dropped
 * when the backlog is over its limit (TcpExtTCPBacklogDrop). The owner processes the backlog on
 * its own CPU when it releases the socket (release_sock) or flushes it while keeping ownership
 * (sk_flush_backlog), calling cond_resched() between skbs per stack.release_sock.resched_every.
 *
 * The protocol plugs in through SockOps (TCP: tcp_v4_do_rcv and tcp_release_cb). Process-side
 * operations are resumable: call them from a task's step until they return true (see cpu.h).
 */
#ifndef SKSIM_SOCK_H
#define SKSIM_SOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "models/cpu.h"
#include "models/host.h"
#include "models/skb.h"

typedef struct SockOps {
    /* Softirq receive of one skb addressed to this socket (tcp_v4_rcv); called by ip_rcv.
     * Takes ownership of skb. */
    void (*rcv)(Sock *sk, Skb *skb, Cpu *cpu);
    /* Process one skb taken from the backlog, in the owner's context (sk_backlog_rcv). It charges
     * its own protocol cost; the caller adds COST_BACKLOG_EXTRA. Takes ownership of skb. */
    void (*backlog_rcv)(Sock *sk, Skb *skb, Cpu *cpu);
    /* Deferred work after a drain (tcp_release_cb); may be NULL. */
    void (*release_cb)(Sock *sk, Cpu *cpu);
} SockOps;

struct Sock {
    /* public, set by sock_init */
    Host *host;
    uint32_t conn;           /* world-wide connection id of this endpoint's connection */
    uint16_t port;           /* local port (index in host->socks + 1) */
    const SockOps *ops;
    /* sk_lock */
    bool owned;
    Task *owner;
    Task *lock_waiter;       /* one process-context waiter for ownership (enough for netperf) */
    /* sk_backlog */
    SkbQueue backlog;
    uint64_t backlog_len;    /* truesize bytes; reset only when a drain ends */
    /* buffers */
    uint32_t rcvbuf, sndbuf;
    uint64_t rmem_alloc;     /* truesize of skbs in the receive (and ofo) queue */
    uint64_t wmem_queued;    /* bytes in the write + retransmit queue */
    uint64_t wmem_alloc;     /* truesize of skbs below TCP (qdisc, NIC ring), TSQ */
    /* statistics for invariants and traces */
    uint64_t backlog_drops;
    uint64_t backlog_max_len;
    uint64_t drains;
    uint64_t drain_yields;   /* cond_resched calls in a drain that yielded */
    uint64_t drain_resched_calls; /* cond_resched calls made in drains */
    sim_time_t drain_yielded_at;  /* when the owner last yielded in this drain; 0: it runs */
    bool drain_bh_off;       /* <= 4.6: this drain holds BH off on the owner's CPU */
    /* private: the drain in progress (release_sock / sk_flush_backlog) */
    Skb *drain_batch;
    uint32_t drain_nb;       /* skbs counted for the resched policy, across batches */
    uint32_t drained_max_truesize; /* largest skb this drain processed: backlog_len may hold it
                                    * past the limit until the drain ends (invariants.c) */
    uint8_t drain_phase;
};

void sock_init(Sock *sk, Host *h, uint32_t conn, uint16_t port, const SockOps *ops);
/* Free every queued skb (end of run). */
void sock_destroy(Sock *sk);

static inline bool sock_owned_by_user(const Sock *sk)
{
    return sk->owned;
}

/* The backlog byte limit that tcp_add_backlog applies under stack.backlog.limit. */
uint64_t sk_backlog_limit(const Sock *sk);
/* Softirq side (tcp_add_backlog): coalesce into the tail (if stack.backlog.coalesce), append,
 * or drop when backlog_len + rmem_alloc > limit. Returns false when dropped (counted, freed). */
bool tcp_add_backlog(Sock *sk, Skb *skb, Cpu *cpu);

/* Process side, resumable: call from t's step until true. */
bool lock_sock_step(Sock *sk, Task *t);
/* Drain the backlog (one skb per call), run release_cb, drop ownership, wake a lock waiter. */
bool release_sock_step(Sock *sk, Task *t);
/* The same drain and release_cb, keeping ownership (__sk_flush_backlog). Returns true at once
 * when the backlog is empty (sk_flush_backlog's cheap lockless test). */
bool sk_flush_backlog_step(Sock *sk, Task *t);
static inline bool sk_backlog_pending(const Sock *sk)
{
    return sk->backlog.head != NULL;
}

#endif
