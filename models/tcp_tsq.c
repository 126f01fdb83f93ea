/* tcp_tsq.c - transmission deferred and resumed: TCP Small Queues, internal pacing's hold and
 * the work of a socket released by its owner, as net/ipv4/tcp_output.c has them (tcp_tsq_write,
 * tcp_tsq_handler, tcp_wfree, tcp_pacing_check, tcp_release_cb).
 *
 * What it models: a TX completion of a throttled socket queueing the TSQ handler as a tasklet
 * on the completing CPU (H.A.7; not from ksoftirqd while the flow still has skbs below TCP,
 * 4.9+), the handler resending lost skbs and pushing pending frames - or, with the socket owned
 * by its user, leaving TCPF_TSQ_DEFERRED for tcp_release_cb - the hold of the next skb until
 * its departure time with internal pacing (hosts.H.tcp.pacing, 4.20+), and tcp_release_cb's
 * deferred TSQ, write-timer, delayed-ACK and ACK work in the kernel's order. Why apart from
 * tcp_output.c: it is one job - tcp_output.c decides what may go now, this file when a held
 * flow goes again: after a TX completion, at its departure time, or when release_sock hands
 * back the work deferred while the owner held the socket (seed 000's netserver in
 * __release_sock).
 */
#include "models/netdev.h"
#include "models/tcp_internal.h"

/* ---- deferred work and TSQ ---- */

/* tcp_tsq_write / tcp_tsq_handler: resume transmission after TX completions. */
void tcp_tsq_write(TcpSock *tp, Cpu *cpu)
{
    if (tp->lost_out > tp->retrans_out && tp->snd_cwnd > tcp_packets_in_flight(tp)) {
        tp->tcp_mstamp = sim_now(tcp_sim(tp));
        tcp_xmit_retransmit_queue(tp, cpu);
    }
    tcp_write_xmit(tp, tp->mss_cache, 0, 0, cpu);
}

static bool tcp_tsq_run(SoftirqWork *w, Cpu *cpu)
{
    TcpSock *tp = w->ctx;
    if (sock_owned_by_user(&tp->sk))
        tp->tsq_flags |= TCPF_TSQ_DEFERRED;
    else
        tcp_tsq_write(tp, cpu);
    return false;
}

/* tcp_pacing_check (4.20+): with internal pacing, hold the next skb while its departure time is
 * in the future and arm the pacing timer (tcp_timer.c) for it, unless already armed. */
bool tcp_pacing_check(TcpSock *tp, Cpu *cpu)
{
    if (!tcp_conf(tp)->pacing || tp->tcp_wstamp_ns <= tp->tcp_mstamp)
        return false;
    if (!sim_event_pending(&tp->pacing_timer)) {
        tp->pacing_cpu = cpu;
        sim_schedule_at(tcp_sim(tp), &tp->pacing_timer, tp->tcp_wstamp_ns);
    }
    return true;
}

void tcp_tsq_init(TcpSock *tp)
{
    /* tcp_wfree: tasklet_schedule(&tsq->tasklet), TASKLET_SOFTIRQ, after NET_RX */
    softirq_work_init(&tp->tsq_work, SOFTIRQ_TASKLET, tcp_tsq_run, tp);
}

/* tcp_wfree (netdev.h's sock_wfree): a TX completion while throttled queues the TSQ handler
 * (the kernel's per-CPU TSQ tasklet) on the completing CPU - unless the completion runs in
 * ksoftirqd and some of the socket's skbs are still below TCP ("tcp: TCP Small Queues and
 * strange attractors", 9b462d02d6dd, 4.9; 6.6: sk_wmem_alloc >= SKB_TRUESIZE(1) with its base
 * reference of 1, i.e. at least one skb's truesize left): under that stress TSQ waits until the
 * qdisc and the ring hold none of the flow's data, and THROTTLED stays set for that
 * completion. */
void sock_wfree(Sock *sk, const Skb *skb, Cpu *cpu)
{
    TcpSock *tp = tcp_from_sk(sk);
    (void)skb;
    if (sk->wmem_alloc >= SKB_TRUESIZE_OVERHEAD && cpu && cpu_current(cpu) == cpu_ksoftirqd(cpu))
        return;
    if (!(tp->tsq_flags & TSQF_THROTTLED))
        return;
    tp->tsq_flags &= ~(uint32_t)TSQF_THROTTLED;
    cpu_raise_softirq(cpu, &tp->tsq_work);
}

/* tcp_release_cb (H.A.7): the work deferred while the owner held the socket, in kernel order. */
void tcp_release_cb_tp(TcpSock *tp, Cpu *cpu)
{
    uint32_t flags = tp->tsq_flags & TCP_DEFERRED_ALL;
    if (!flags)
        return;
    tp->tsq_flags &= ~(uint32_t)TCP_DEFERRED_ALL;
    tp->tcp_mstamp = sim_now(tcp_sim(tp));
    if (flags & TCPF_TSQ_DEFERRED)
        tcp_tsq_write(tp, cpu);
    if (flags & TCPF_WRITE_TIMER_DEFERRED)
        tcp_write_timer_handler(tp, cpu);
    if (flags & TCPF_DELACK_TIMER_DEFERRED)
        tcp_delack_timer_handler(tp, cpu);
    if ((flags & TCPF_ACK_DEFERRED) && inet_csk_ack_scheduled(tp))
        tcp_send_ack(tp, cpu);
}
