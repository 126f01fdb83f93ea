/* tcp.c - TCP sockets and their system calls, as net/ipv4/tcp.c.
 *
 * What it models: creating an endpoint, wiring two endpoints into an established connection
 * (no handshake: ISNs, MSS, windows, options and buffers as Linux has them right after it), and
 * the two system calls as resumable step machines run by the calling task (cpu.h):
 *   sendmsg (H.A.9): lock_sock; copy user data into skbs of size_goal, COST_SENDMSG_SKB per new
 *     skb and COST_COPY_PER_KB per KiB; flush the backlog before every stack.sendmsg.
 *     flush_backlog_every-th new skb (the 4.7-5.3 rule at 1, 5.4+ at 16, never at 0); push each
 *     full skb; when sk_stream_memory_free fails, push, release (draining the backlog), sleep
 *     until write space, lock again; at the end tcp_push and release_sock.
 *   recvmsg (H.A.10): lock_sock; copy from the receive queue; when it is empty: return if enough
 *     was copied and no backlog waits, flush the backlog if one waits (after a tcp_cleanup_rbuf
 *     before 5.17: stack.recvmsg.cleanup_before_flush), else tcp_cleanup_rbuf and sleep
 *     (releasing ownership) until data_ready; at the end tcp_cleanup_rbuf, release_sock.
 * Why steps: a long syscall must yield its CPU only where the kernel can (cond_resched in the
 * backlog drain, sleeping), and softirqs must be able to run between its pieces.
 * Buffers: hosts.H.tcp.sndbuf is the initial sk_sndbuf; tcp_sndbuf_expand grows it (as at
 * connection establishment and on write space) up to tcp_wmem[2] = 4 MiB; it is never locked.
 */
#include "models/softnet.h"
#include "models/tcp_internal.h"
#include "models/truesize.h"

#include <glib.h>

/* ---- skb lists ---- */

void tcp_skb_append(SkbQueue *q, Skb *skb)
{
    tcp_skb_insert_after(q, q->tail, skb);
}

void tcp_skb_insert_after(SkbQueue *q, Skb *pos, Skb *skb)
{
    Skb *next = pos ? pos->next : q->head;
    skb->prev = pos;
    skb->next = next;
    if (pos)
        pos->next = skb;
    else
        q->head = skb;
    if (next)
        next->prev = skb;
    else
        q->tail = skb;
    q->qlen++;
    q->bytes += skb->len;
}

void tcp_skb_unlink(SkbQueue *q, Skb *skb)
{
    if (skb->prev)
        skb->prev->next = skb->next;
    else
        q->head = skb->next;
    if (skb->next)
        skb->next->prev = skb->prev;
    else
        q->tail = skb->prev;
    skb->next = skb->prev = NULL;
    q->qlen--;
    q->bytes -= skb->len;
}

void tcp_skb_purge(SkbQueue *q, SkbPool *pool)
{
    Skb *skb;
    while ((skb = q->head)) {
        tcp_skb_unlink(q, skb);
        skb_free(pool, skb);
    }
}

/* ---- endpoints ---- */

TcpSock *tcp_sock_new(Host *h, uint32_t conn, uint16_t port)
{
    TcpSock *tp = g_new0(TcpSock, 1);
    sock_init(&tp->sk, h, conn, port, &tcp_sock_ops);
    tp->hz = h->hz;
    tp->tick_phase = h->tick_phase;
    skb_queue_init(&tp->write_queue);
    skb_queue_init(&tp->rtx_queue);
    skb_queue_init(&tp->rcv_queue);
    skb_queue_init(&tp->ofo_queue);
    skb_queue_init(&tp->prequeue);
    tcp_init_xmit_timers(tp);
    tcp_tsq_init(tp);
    if (h->socks) {
        if (h->socks->len < port)
            g_ptr_array_set_size(h->socks, port);
        g_ptr_array_index(h->socks, port - 1) = &tp->sk;
    }
    return tp;
}

void tcp_sock_free(TcpSock *tp)
{
    if (!tp)
        return;
    SkbPool *pool = tcp_host(tp)->pool;
    tcp_stop_timers(tp);
    tcp_skb_purge(&tp->write_queue, pool);
    tcp_skb_purge(&tp->rtx_queue, pool);
    tcp_skb_purge(&tp->rcv_queue, pool);
    tcp_skb_purge(&tp->ofo_queue, pool);
    tcp_skb_purge(&tp->prequeue, pool);
    sock_destroy(&tp->sk);
    g_free(tp);
}

Sock *tcp_sk(TcpSock *tp)
{
    return &tp->sk;
}

TcpSock *tcp_from_sk(Sock *sk)
{
    return (TcpSock *)sk; /* the Sock is the first member */
}

void tcp_set_xmit_hook(TcpSock *tp, TcpXmitHook fn, void *ctx)
{
    tp->xmit = fn;
    tp->xmit_ctx = ctx;
}

/* 6.5-6.9: "a conservative default of 1200 bytes of payload per 4K page", (1200 << 8) /
 * SKB_TRUESIZE(4096) = 307200 / 4672 = 65 (dfa2f0483360; 50 % from 697a6c8cec03, 6.10). */
#define TCP_SCALING_RATIO_6_5 \
    ((1200u << TCP_RMEM_TO_WIN_SCALE) / (4096u + TRUESIZE_SK_BUFF + TRUESIZE_SHINFO))

/* Window scale from the largest receive buffer (tcp_select_initial_window). */
static uint8_t tcp_wscale_for(uint64_t space)
{
    uint8_t ws = 0;
    while (space > 65535 && ws < 14) { /* 16-bit window field; RFC 7323 max shift 14 */
        space >>= 1;
        ws++;
    }
    return ws;
}

/* tcp_select_initial_window: the first window offered from `space`, the full space. It is
 * quantized to whole segments of the MSS the handshake passes ("if (space > mss) space =
 * rounddown(space, mss)", every era), then capped at 65535 for the SYN's unscaled field: that
 * is why a Linux SYN offers 64240 (44 x 1460) and its SYN-ACK 65160 (45 x 1448) with a
 * 131072-byte buffer, but 65535 with a larger one. Then the segment cap
 * (hosts.H.tcp.init_rcv_wnd), which applies whenever the MSS exceeds one window-scale unit
 * (1 << rcv_wscale), as it does here. */
static uint32_t tcp_init_rcv_wnd(const TcpSock *tp, uint32_t space, uint32_t mss)
{
    uint32_t segs;
    if (space > mss)
        space -= space % mss;
    if (space > 65535u)
        space = 65535u;
    switch (tcp_conf(tp)->init_rcv_wnd) {
    case TCP_INIT_RCV_WND_10MSS: /* TCP_DEFAULT_INIT_RCVWND */
        segs = mss > 1460u ? (1460u * 10u) / mss : 10u;
        segs = segs < 2u ? 2u : segs;
        break;
    case TCP_INIT_RCV_WND_RFC2414:
        segs = mss > 3u * 1460u ? 2u : mss > 1460u ? 3u : 4u;
        break;
    default:
        return space;
    }
    if (mss <= (1u << tp->rcv_wscale) || (uint64_t)segs * mss >= space)
        return space;
    return segs * mss;
}

/* One side's state right after the handshake (tcp_init_transfer / tcp_init_buffer_space). */
static void tcp_init_endpoint(TcpSock *tp, uint32_t mtu, bool gso, bool active, uint64_t isn)
{
    const TcpConf *c = tcp_conf(tp);
    /* IPv4 + TCP headers; ipv4_default_advmss caps it at IPV4_MAX_PMTU (65535) - 40, as the
     * IPv4 total length is 16 bits: lo's MTU 65536 gives 65495 (net/ipv4/route.c) */
    uint32_t mss = (mtu < 65535u ? mtu : 65535u) - 40;
    /* With timestamps negotiated every segment carries the 12-byte aligned option, and Linux
     * takes it off the receive-side MSS too (the SYN still advertised mtu - 40): tp->advmss -=
     * TCPOLEN_TSTAMP_ALIGNED in tcp_rcv_synsent_state_process (active side) and in the
     * TCP_SYN_RECV case of tcp_rcv_state_process (passive side), net/ipv4/tcp_input.c, 2.6
     * onwards (the passive side's is in 2.6.12). Both come before tcp_initialize_rcv_mss; the
     * active side's also before tcp_init_transfer -> tcp_init_buffer_space, and the passive
     * side's too since cd171461b90a (6.16; in the 5.10+ stable trees in June 2025), so
     * rcvq_space, rcv_ssthresh growth and autotuning all see 1448 over a 1500 MTU and 65483
     * over lo. Before cd171461b90a the passive side's rcvq_space was 10 x (advmss + 12): not
     * modelled. */
    tp->advmss = mss - (tp->ts_ok ? TCPOLEN_TSTAMP_ALIGNED : 0);
    tp->mss_pmtu = tp->mss_cache = tp->advmss; /* tcp_sync_mss: the PMTU's MSS less the option */
    tp->gso_ok = gso;
    tp->snd_una = tp->snd_nxt = tp->write_seq = tp->pushed_seq = tp->snd_sml = isn + 1;
    tp->snd_cwnd = tcp_era_init_cwnd(tp); /* tcp_init_metrics: tcp_init_cwnd() */
    tp->snd_ssthresh = TCP_INFINITE_SSTHRESH;
    tp->snd_cwnd_clamp = UINT32_MAX;
    tp->reordering = TCP_FASTRETRANS_THRESH;
    tp->icsk_rto = tcp_timeout_init(tp);                      /* 1 s before any RTT sample */
    tp->mdev_us = tp->rttvar_us = tp->mdev_max_us = (uint32_t)jiffies_to_usecs_hz(tp->icsk_rto, tp->hz);
    tp->rack.reo_wnd_steps = 1;
    tp->sk.rcvbuf = c->rcvbuf;
    tp->sk.sndbuf = c->sndbuf;
    tp->rcv_wscale = tcp_wscale_for(c->rcvbuf_max > c->rcvbuf ? c->rcvbuf_max : c->rcvbuf);
    tp->scaling_ratio = c->win_scaling == TCP_WIN_SCALING_RATIO_6_5 /* tcp_scaling_ratio_init */
                            ? TCP_SCALING_RATIO_6_5
                            : TCP_DEFAULT_SCALING_RATIO;
    tp->window_clamp = tcp_win_from_space(tp, tp->sk.rcvbuf);
    /* The MSS tcp_select_initial_window is given: the active side's tcp_connect_init passes
     * advmss before any timestamp was seen (ts_recent_stamp 0), the passive side's
     * tcp_openreq_init_rwin the MSS less the option when the SYN negotiated timestamps. */
    uint32_t wnd_mss = active ? mss : tp->advmss;
    tp->rcv_wnd = tcp_init_rcv_wnd(tp, tp->window_clamp, wnd_mss);
    tp->rcv_ssthresh = tp->rcv_wnd;
    tp->pred_ok = true;
    tcp_init_congestion_control(tp);
    tcp_init_sndbuf(tp);
}

/* The receive side of tp, facing a peer whose first data byte is peer_isn + 1. */
static void tcp_init_receiver(TcpSock *tp, const TcpSock *peer)
{
    tp->rcv_nxt = tp->rcv_wup = tp->copied_seq = peer->snd_una;
    /* tcp_initialize_rcv_mss: min(advmss, mss, rcv_wnd/2, 536), at least 88 */
    uint32_t hint = tp->advmss < peer->mss_cache ? tp->advmss : peer->mss_cache;
    if (hint > tp->rcv_wnd / 2)
        hint = tp->rcv_wnd / 2;
    if (hint > TCP_MSS_DEFAULT)
        hint = TCP_MSS_DEFAULT;
    tp->ack.rcv_mss = hint < TCP_MIN_MSS ? TCP_MIN_MSS : hint;
    /* tcp_init_buffer_space: what the first autotuning measurement must beat */
    tp->rcvq_space.space = tp->rcv_wnd;
    if (tcp_conf(tp)->rcvq_space_init == TCP_RCVQ_SPACE_INIT_CWND) {
        uint32_t init = TCP_INIT_CWND * tp->advmss;
        uint32_t lim = tp->rcv_ssthresh < init ? tp->rcv_ssthresh : init;
        if (lim < tp->rcvq_space.space)
            tp->rcvq_space.space = lim;
    }
    tp->rcvq_space.seq = tp->copied_seq;
}

void tcp_connect_pair(TcpSock *a, TcpSock *b, uint32_t mtu)
{
    Host *ha = tcp_host(a), *hb = tcp_host(b);
    bool loopback = ha == hb;
    a->sack_ok = b->sack_ok = tcp_conf(a)->sack && tcp_conf(b)->sack;
    a->ts_ok = b->ts_ok = tcp_conf(a)->timestamps && tcp_conf(b)->timestamps;
    a->peer = b;
    b->peer = a;
    a->peer_host = hb->id;
    a->peer_port = b->sk.port;
    b->peer_host = ha->id;
    b->peer_port = a->sk.port;
    /* ISNs 0: data starts at 1, like tcpdump's relative numbers */
    /* sk_can_gso: lo has GSO; a NIC has TSO, or software GSO does the cutting */
    tcp_init_endpoint(a, mtu, loopback || ha->conf->nic.tso || ha->conf->nic.gso, true, 0);
    tcp_init_endpoint(b, mtu, loopback || hb->conf->nic.tso || hb->conf->nic.gso, false, 0);
    a->snd_wscale = b->rcv_wscale;
    b->snd_wscale = a->rcv_wscale;
    tcp_init_receiver(a, b);
    tcp_init_receiver(b, a);
    a->snd_wnd = a->max_window = b->rcv_wnd;
    b->snd_wnd = b->max_window = a->rcv_wnd;
    tcp_sync_mss(a); /* tcp_finish_connect / tcp_init_transfer: against the handshake's window */
    tcp_sync_mss(b);
    /* tcp_init_metrics (<= 3.x; tcp_init_transfer later) sets the initial window after that
     * sync, so an MSS-dependent one (tcp.init_cwnd rfc3390) sees the synced MSS */
    a->snd_cwnd = tcp_era_init_cwnd(a);
    b->snd_cwnd = tcp_era_init_cwnd(b);
    a->snd_wl1 = a->rcv_nxt;
    b->snd_wl1 = b->rcv_nxt;
}

void tcp_handshake_rtt(TcpSock *a, TcpSock *b, uint32_t rtt_us)
{
    /* A SYN unanswered for TCP_RTO_MAX would have been retransmitted (no sample), and srtt_us,
     * 8 x the smoothed RTT in 32 bits as in the kernel, would overflow past ~536 s: links slow
     * enough for that (bit/s rates) start from a 120 s sample. */
    if (rtt_us > TCP_RTO_MAX_SEC * 1000000u)
        rtt_us = TCP_RTO_MAX_SEC * 1000000u;
    /* Each side's sample goes through tcp_ack_update_rtt (the client's tcp_ack of the SYN-ACK,
     * the server's tcp_synack_rtt_meas), which also feeds the windowed min RTT; then the pacing
     * rate is set before any data: the client's tcp_ack ends in tcp_cong_control ->
     * tcp_update_pacing_rate, and tcp_rcv_state_process calls tcp_update_pacing_rate when the
     * server's SYN_RECV socket becomes ESTABLISHED (6.6). So the first flight is already TSO-
     * autosized and TSQ-limited from mss x 10 / RTT x 200 %, not sent as if the rate were
     * unlimited. */
    TcpSock *socks[2] = { a, b };
    for (int i = 0; i < 2; i++) {
        tcp_rtt_estimator(socks[i], rtt_us);
        tcp_set_rto(socks[i]);
        if (!socks[i]->min_rtt_us || rtt_us < socks[i]->min_rtt_us)
            socks[i]->min_rtt_us = rtt_us ? rtt_us : 1;
        tcp_update_pacing_rate(socks[i]);
    }
}

/* ---- sendmsg ---- */

enum { SND_LOCK, SND_COPY, SND_FLUSH, SND_WAIT_RELEASE, SND_WAIT_LOCK, SND_RELEASE, SND_DONE };

static bool sk_stream_memory_free(const TcpSock *tp)
{
    return tp->sk.wmem_queued < tp->sk.sndbuf;
}

void tcp_charge_copy(const TcpSock *tp, Cpu *cpu, uint64_t bytes)
{
    cpu_charge_op(cpu, COST_COPY_PER_KB,
                  (sim_time_t)((bytes * (uint64_t)host_cost(tcp_host(tp), COST_COPY_PER_KB)) / 1024u));
}

/* <= 3.6 (tcp.sendmsg_frag 4k): tcp_sendmsg copies into the socket's cached order-0 page and
 * takes a new one whenever it is full, whichever skb the bytes go to; each page costs
 * costs.sendmsg_page. Returns how many pages n more bytes start. */
static uint32_t tcp_send_pages(TcpSock *tp, uint64_t n)
{
    uint32_t pages = 0;
    while (n) {
        if (tp->sndpage_used == 0 || tp->sndpage_used == TCP_SEND_PAGE) {
            pages++;
            tp->sndpage_used = 0;
        }
        uint64_t take = TCP_SEND_PAGE - tp->sndpage_used;
        if (take > n)
            take = n;
        tp->sndpage_used += (uint32_t)take;
        n -= take;
    }
    return pages;
}

void tcp_charge_send_pages(TcpSock *tp, Cpu *cpu, uint64_t bytes)
{
    if (tcp_conf(tp)->sendmsg_frag != TCP_SENDMSG_FRAG_4K)
        return;
    uint32_t pages = tcp_send_pages(tp, bytes);
    cpu_charge_op(cpu, COST_SENDMSG_PAGE,
                  (sim_time_t)pages * host_cost(tcp_host(tp), COST_SENDMSG_PAGE));
}

/* sk_stream_alloc_skb + skb_entail: a new empty skb at the tail of the write queue. */
Skb *tcp_entail_new_skb(TcpSock *tp, Cpu *cpu)
{
    Skb *skb = skb_alloc(tcp_host(tp)->pool);
    skb->seq = skb->end_seq = tp->write_seq;
    skb->truesize = truesize_tx_skb(0);
    skb->gso_size = (uint16_t)(tp->mss_cache > 65535 ? 65535 : tp->mss_cache);
    tp->sk.wmem_queued += skb->truesize;
    tcp_skb_append(&tp->write_queue, skb);
    tcp_charge(tp, cpu, COST_SENDMSG_SKB);
    tcp_slow_start_after_idle_check(tp);
    return skb;
}

/* skb_copy_to_page_nocache's bookkeeping: n more bytes of the write in the tail skb. */
void tcp_skb_fill(TcpSock *tp, Skb *skb, uint64_t n)
{
    skb->len += (uint32_t)n;
    skb->end_seq += n;
    skb->truesize += (uint32_t)n;
    tp->write_queue.bytes += n;
    tp->sk.wmem_queued += n;
    tp->write_seq += n;
}

/* tcp_should_autocork (3.14+): a tail short of size_goal waits while earlier data of the socket
 * is still below TCP; that data's TX completion (sock_wfree with TSQ_THROTTLED set) runs the TSQ
 * handler, which sends the tail grown by whatever was written meanwhile. */
static bool tcp_should_autocork(const TcpSock *tp, const Skb *skb, uint32_t size_goal)
{
    return tcp_conf(tp)->autocorking && skb->len < size_goal && tp->rtx_queue.head &&
           tp->sk.wmem_alloc > skb->truesize;
}

void tcp_push(TcpSock *tp, int nonagle, uint32_t size_goal, Cpu *cpu)
{
    Skb *tail = tp->write_queue.tail;
    if (!tail)
        return;
    tcp_mark_push(tp, tail);
    if (tcp_should_autocork(tp, tail, size_goal)) {
        if (!(tp->tsq_flags & TSQF_THROTTLED)) {
            tcp_count(tp, CTR_TcpExtTCPAutoCorking, 1);
            tp->tsq_flags |= TSQF_THROTTLED;
        }
        return; /* (the kernel re-reads sk_wmem_alloc here for a completion racing the flag) */
    }
    __tcp_push_pending_frames(tp, tp->mss_cache, nonagle, cpu);
}

/* A new skb is needed: memory check, periodic backlog flush (A.9), allocation.
 * Returns the skb, or NULL after changing phase. */
static Skb *tcp_sendmsg_new_segment(TcpSock *tp, Task *t, TcpCall *c)
{
    uint32_t every = tcp_stack(tp)->sendmsg_flush_backlog_every;
    if (!sk_stream_memory_free(tp)) {
        tp->sock_nospace = true;
        if (c->done) {
            uint32_t size_goal;
            tcp_send_mss(tp, &size_goal);
            tcp_push(tp, TCP_NAGLE_PUSH, size_goal, t->cpu);
        }
        c->phase = SND_WAIT_RELEASE;
        return NULL;
    }
    if (every && c->process_backlog >= every) {
        c->process_backlog = 0;
        if (sk_backlog_pending(&tp->sk)) {
            c->phase = SND_FLUSH; /* then "goto restart" */
            return NULL;
        }
    }
    c->process_backlog++;
    return tcp_entail_new_skb(tp, t->cpu);
}

/* One step of the copy loop: fill (part of) one skb. */
static void tcp_sendmsg_copy(TcpSock *tp, Task *t, TcpCall *c)
{
    uint32_t size_goal;
    uint32_t mss_now = tcp_send_mss(tp, &size_goal);
    if (c->done >= c->len) {
        tcp_push(tp, 0, size_goal, t->cpu);
        c->phase = SND_RELEASE;
        return;
    }
    Skb *skb = tp->write_queue.tail;
    if (!skb || skb->len >= size_goal) {
        skb = tcp_sendmsg_new_segment(tp, t, c);
        if (!skb)
            return;
    }
    uint64_t n = size_goal - skb->len;
    if (n > c->len - c->done)
        n = c->len - c->done;
    /* The call's first copy takes PSH off the skb it lands in (tcp_sendmsg_locked, "if
     * (!copied)", 2.6 to 6.17): a tail that the previous write's tcp_push marked and that
     * autocorking, Nagle or the cwnd kept back is no longer the end of a write. */
    if (!c->done)
        skb->flags &= (uint8_t)~TCPHDR_PSH;
    tcp_skb_fill(tp, skb, n);
    c->done += n;
    tcp_charge_copy(tp, t->cpu, n);
    tcp_charge_send_pages(tp, t->cpu, n);
    /* "if (!msg_data_left(msg)) goto out": the write's end leaves the loop before the
     * size_goal test, so a skb that it fills exactly goes by the end-of-call tcp_push (PSH) */
    if (c->done >= c->len || skb->len < size_goal)
        return;
    if (tp->write_seq > tp->pushed_seq + (tp->max_window >> 1)) { /* forced_push */
        tcp_mark_push(tp, skb);
        __tcp_push_pending_frames(tp, mss_now, TCP_NAGLE_PUSH, t->cpu);
    } else if (skb == tp->write_queue.head) {
        tcp_push_one(tp, mss_now, t->cpu);
    }
}

/* sk_stream_wait_memory: release (draining the backlog), sleep unless space came back. */
static void tcp_sendmsg_wait(TcpSock *tp, Task *t, TcpCall *c)
{
    if (!release_sock_step(&tp->sk, t))
        return;
    c->phase = SND_WAIT_LOCK;
    if (!sk_stream_memory_free(tp)) {
        tp->sock_nospace = true;
        tp->snd_waiter = t;
        task_sleep(t);
    }
}

/* inet_sendmsg and inet_recvmsg: sock_rps_record_flow, for RFS (models/softnet.h). Unit tests
 * may run a task without a CPU, or a host without softnet. */
static void sock_rps_record_flow(TcpSock *tp, const Task *t)
{
    if (tp->sk.host->softnet && t->cpu)
        softnet_rfs_record(tp->sk.host->softnet, tp->sk.conn, cpu_index(t->cpu));
}

bool tcp_sendmsg_step(TcpSock *tp, Task *t, TcpCall *c)
{
    if (c->phase == SND_LOCK)
        sock_rps_record_flow(tp, t);
    switch (c->phase) {
    case SND_LOCK:
    case SND_WAIT_LOCK:
        if (lock_sock_step(&tp->sk, t))
            c->phase = SND_COPY;
        return false;
    case SND_COPY:
        tcp_sendmsg_copy(tp, t, c);
        return false;
    case SND_FLUSH:
        if (sk_flush_backlog_step(&tp->sk, t))
            c->phase = SND_COPY;
        return false;
    case SND_WAIT_RELEASE:
        tcp_sendmsg_wait(tp, t, c);
        return false;
    case SND_RELEASE:
        if (!release_sock_step(&tp->sk, t))
            return false;
        c->phase = SND_DONE;
        return true;
    default:
        return true;
    }
}

/* ---- recvmsg ---- */

enum { RCV_LOCK, RCV_COPY, RCV_FLUSH, RCV_WAIT_RELEASE, RCV_WAIT_LOCK, RCV_RELEASE, RCV_DONE };

/* Copy from the head of the receive queue; frees fully read skbs. Returns bytes copied. */
static uint64_t tcp_recv_copy(TcpSock *tp, TcpCall *c)
{
    Skb *skb = tp->rcv_queue.head;
    uint64_t copied = 0;
    while (skb && skb->end_seq <= tp->copied_seq) { /* fully read or duplicate */
        tcp_skb_unlink(&tp->rcv_queue, skb);
        tp->sk.rmem_alloc -= skb->truesize;
        skb_free(tcp_host(tp)->pool, skb);
        skb = tp->rcv_queue.head;
    }
    if (!skb)
        return 0;
    uint64_t avail = skb->end_seq - tp->copied_seq;
    copied = avail < c->len - c->done ? avail : c->len - c->done;
    tp->copied_seq += copied;
    c->done += copied;
    tp->bytes_received += copied;
    if (skb->end_seq <= tp->copied_seq) {
        tcp_skb_unlink(&tp->rcv_queue, skb);
        tp->sk.rmem_alloc -= skb->truesize;
        skb_free(tcp_host(tp)->pool, skb);
    }
    return copied;
}

static void tcp_recvmsg_copy(TcpSock *tp, Task *t, TcpCall *c)
{
    if (tp->prequeue.head && tp->copied_seq == tp->rcv_nxt) {
        tcp_prequeue_process(tp, t->cpu);
        return;
    }
    uint64_t n = tcp_recv_copy(tp, c);
    if (n) {
        tcp_charge_copy(tp, t->cpu, n);
        tcp_rcv_space_adjust(tp); /* after every skb copied, as tcp_recvmsg's loop does */
        if (c->done >= c->len)
            c->phase = RCV_RELEASE;
        return;
    }
    if (c->done >= c->target && !sk_backlog_pending(&tp->sk)) {
        c->phase = RCV_RELEASE;
    } else if (c->done >= c->target) {
        if (tcp_stack(tp)->recvmsg_cleanup_before_flush) /* < 5.17: ACK, then the backlog */
            tcp_cleanup_rbuf(tp, c->done, t->cpu);
        c->phase = RCV_FLUSH; /* process the backlog without sleeping */
    } else {
        /* Before sk_wait_data in every era, backlog or not: 29fbc26e6dfc (5.17) dropped the
         * call only on the branch above, where the backlog is flushed without sleeping. */
        tcp_cleanup_rbuf(tp, c->done, t->cpu);
        c->phase = RCV_WAIT_RELEASE;
    }
}

/* sk_wait_data: release (draining the backlog) and sleep unless data arrived meanwhile. */
static void tcp_recvmsg_wait(TcpSock *tp, Task *t, TcpCall *c)
{
    if (!release_sock_step(&tp->sk, t))
        return;
    c->phase = RCV_WAIT_LOCK;
    /* A drain that copied straight to the reader (tcp_copy_to_iovec, <= 4.13) set it
     * TASK_RUNNING: sk_wait_data's schedule_timeout returns at once (c->done moved). */
    if (tp->rcv_nxt == tp->copied_seq && !tp->prequeue.head && c->done < c->target) {
        tp->rcv_waiter = t;
        task_sleep(t);
    }
}

/* The end of the call. A reader leaving with segments in its prequeue (<= 4.13) runs them
 * through TCP first, still owning the socket: its release_sock() is about to drain a backlog
 * that holds segments which came after them (3.4 tcp_recvmsg: "if (user_recv) { if
 * (!skb_queue_empty(&tp->ucopy.prequeue)) ... tcp_prequeue_process(sk)" before
 * tcp_cleanup_rbuf and release_sock). Draining first put them out of order. */
static bool tcp_recvmsg_end(TcpSock *tp, Task *t, TcpCall *c)
{
    if (c->phase == RCV_RELEASE && tp->prequeue.head) {
        tcp_prequeue_process(tp, t->cpu);
        return false;
    }
    if (c->phase == RCV_RELEASE) {
        tcp_cleanup_rbuf(tp, c->done, t->cpu);
        tp->ucopy_task = NULL;
        tp->ucopy_call = NULL;
        c->phase = RCV_DONE;
    }
    return release_sock_step(&tp->sk, t);
}

bool tcp_recvmsg_step(TcpSock *tp, Task *t, TcpCall *c)
{
    if (c->phase == RCV_LOCK)
        sock_rps_record_flow(tp, t);
    switch (c->phase) {
    case RCV_LOCK:
    case RCV_WAIT_LOCK:
        if (lock_sock_step(&tp->sk, t)) {
            c->phase = RCV_COPY;
            tp->ucopy_task = t; /* a reader is in recvmsg: prequeue may be used while it sleeps */
            tp->ucopy_call = c;
        }
        return false;
    case RCV_COPY:
        tcp_recvmsg_copy(tp, t, c);
        return false;
    case RCV_FLUSH:
        if (sk_flush_backlog_step(&tp->sk, t))
            c->phase = RCV_COPY;
        return false;
    case RCV_WAIT_RELEASE:
        tcp_recvmsg_wait(tp, t, c);
        return false;
    default:
        return tcp_recvmsg_end(tp, t, c);
    }
}

/* ---- results ---- */

TcpInfo tcp_get_info(const TcpSock *tp)
{
    return (TcpInfo){
        .bytes_acked = tp->bytes_acked,
        .bytes_received = tp->bytes_received,
        .retrans_segs = tp->total_retrans,
        .srtt_ns = (sim_time_t)(tp->srtt_us >> 3) * SIM_US,
        .cwnd = tp->snd_cwnd,
        .ssthresh = tp->snd_ssthresh,
        .packets_out = tp->packets_out,
        .bytes_in_flight = tp->snd_nxt - tp->snd_una,
        .ca_state = tp->ca_state,
        .rcvbuf = tp->sk.rcvbuf,
        .rcv_wnd = tp->rcv_wnd,
        .rcv_rtt_us = tp->rcv_rtt_us >> 3,
        .rmem_alloc = tp->sk.rmem_alloc,
        .backlog_len = tp->sk.backlog_len,
        .rcv_wscale = tp->rcv_wscale,
        .snd_wscale = tp->snd_wscale,
        .advmss = tp->advmss,
        .syn_mss = tp->advmss + (tp->ts_ok ? TCPOLEN_TSTAMP_ALIGNED : 0),
        .ts_ok = tp->ts_ok,
        .sack_ok = tp->sack_ok,
    };
}
