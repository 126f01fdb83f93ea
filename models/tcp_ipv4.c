/* tcp_ipv4.c - the socket-facing entry points of TCP, as net/ipv4/tcp_ipv4.c.
 *
 * What it models: tcp_v4_rcv, the softirq receive of one skb (TcpInSegs, then process now,
 * prequeue, or backlog when the owner holds the socket, H.A.3), tcp_v4_do_rcv (also the backlog
 * handler run by the owner), the prequeue of <= 4.13 kernels (T.A.12: queue for a reader
 * blocked in recvmsg, wake it, and arm the delayed-ACK timer as a safety net per the seed-003
 * policy), and the SockOps table the core socket code calls.
 */
#include "models/tcp_internal.h"

void tcp_v4_do_rcv(TcpSock *tp, Skb *skb, Cpu *cpu)
{
    tcp_rcv_established(tp, skb, cpu);
}

/* Delay of the prequeue's delayed-ACK arming (A.12/A.13): 3*rto_min/4 before seed 003,
 * min(ato, 3*rto_min/4) after. */
static uint32_t tcp_prequeue_delack(const TcpSock *tp)
{
    uint32_t delay = (3u * tcp_rto_min(tp)) / 4u;
    if (tcp_stack(tp)->prequeue_delack == PREQUEUE_DELACK_MIN_ATO && tp->ack.ato < delay)
        delay = tp->ack.ato;
    return delay;
}

/* tcp_prequeue_process: the reader runs the queued skbs through TCP in process context. */
void tcp_prequeue_process(TcpSock *tp, Cpu *cpu)
{
    Skb *skb;
    while ((skb = tp->prequeue.head)) {
        tcp_skb_unlink(&tp->prequeue, skb);
        tcp_count(tp, CTR_TcpExtTCPPrequeued, 1);
        tcp_v4_do_rcv(tp, skb, cpu);
    }
    tp->ucopy_memory = 0;
}

/* Has the prequeue outgrown what tcp_prequeue lets it hold (stack.prequeue.limit)? 2.6-3.x
 * (3.4 include/net/tcp.h): its truesize above sk_rcvbuf; 4.x (4.8-4.13 net/ipv4/tcp_ipv4.c):
 * also 32 skbs, and the truesize counts with sk_rmem_alloc. */
static bool tcp_prequeue_full(const TcpSock *tp)
{
    if (tcp_stack(tp)->prequeue_limit == PREQUEUE_LIMIT_3X)
        return tp->ucopy_memory > tp->sk.rcvbuf;
    return tp->prequeue.qlen >= TCP_PREQUEUE_MAX_SKBS ||
           tp->ucopy_memory + tp->sk.rmem_alloc > tp->sk.rcvbuf;
}

/* tcp_prequeue. Returns true when the skb was taken. */
static bool tcp_prequeue(TcpSock *tp, Skb *skb, Cpu *cpu)
{
    if (!tcp_stack(tp)->prequeue_enabled || !tp->ucopy_task)
        return false;
    tcp_skb_append(&tp->prequeue, skb);
    tp->ucopy_memory += skb->truesize;
    if (tcp_prequeue_full(tp)) {
        /* too much: process it all here in softirq (TCPPrequeueDropped) */
        Skb *q;
        while ((q = tp->prequeue.head)) {
            tcp_skb_unlink(&tp->prequeue, q);
            tcp_count(tp, CTR_TcpExtTCPPrequeueDropped, 1);
            tcp_v4_do_rcv(tp, q, cpu);
        }
        tp->ucopy_memory = 0;
    } else if (tp->prequeue.qlen == 1) {
        tcp_wake_reader(tp, cpu);
        if (!inet_csk_ack_scheduled(tp))
            inet_csk_reset_xmit_timer(tp, ICSK_TIME_DACK, tcp_prequeue_delack(tp), tcp_rto_max(tp), cpu);
    }
    return true;
}

void tcp_v4_rcv(Sock *sk, Skb *skb, Cpu *cpu)
{
    TcpSock *tp = tcp_from_sk(sk);
    tcp_count(tp, CTR_TcpInSegs, 1); /* every skb, before any check (H.A.3) */
    if (sock_owned_by_user(sk)) {
        tcp_add_backlog(sk, skb, cpu);
        return;
    }
    if (!tcp_prequeue(tp, skb, cpu))
        tcp_v4_do_rcv(tp, skb, cpu);
}

static void tcp_v4_backlog_rcv(Sock *sk, Skb *skb, Cpu *cpu)
{
    tcp_v4_do_rcv(tcp_from_sk(sk), skb, cpu);
}

static void tcp_release_cb(Sock *sk, Cpu *cpu)
{
    tcp_release_cb_tp(tcp_from_sk(sk), cpu);
}

const SockOps tcp_sock_ops = {
    .rcv = tcp_v4_rcv,
    .backlog_rcv = tcp_v4_backlog_rcv,
    .release_cb = tcp_release_cb,
};
