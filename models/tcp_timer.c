/* tcp_timer.c - TCP's kernel timers, as net/ipv4/tcp_timer.c and inet_connection_sock.h.
 *
 * What it models: one retransmit timer shared by RTO, tail loss probe and RACK's reordering
 * timeout (icsk_pending says which is armed; the last one armed wins), and a delayed-ACK timer.
 * Both are KTimers in jiffies embedded in the socket; clearing is lazy (only the pending flags
 * change, the timer stays queued and later fires into a handler that finds nothing to do), as
 * in Linux (T.A.9, T.B.5). A timer fires in the TIMER softirq of the CPU whose timer base holds
 * it - the CPU that last (re)armed it - and costs COST_TCP_TIMER there. A re-arm that misses
 * mod_timer's short cut costs COST_TIMER_MOD_SLOW, plus COST_TIMER_MOD_REMOTE when the timer sat
 * on another CPU's base (it then moves to the arming CPU's). If the owner holds the
 * socket at that moment the work is deferred to tcp_release_cb (3.6+; DelayedACKLocked counts
 * the delayed-ACK case), or, before 3.6 (stack.timer.owned 2.6), the timer is re-armed a
 * little later (delayed ACK: TCP_DELACK_MIN, marking icsk_ack.blocked; write timer: HZ/20). Why: seed 000 is about RTO/TLP firing while the receiver's owner is
 * descheduled, seed 003 about the cost of re-arming the delayed-ACK timer.
 */
#include "models/tcp_internal.h"

#include <inttypes.h>

#include "models/observe.h"

#include "sim/evkind.h"

KTimerResult tcp_sk_reset_timer(TcpSock *tp, KTimer *t, uint64_t expires, Cpu *cpu)
{
    uint32_t slack = tcp_stack(tp)->timer_slack_jiffies;
    KTimerResult r = slack ? ktimer_mod_unexact(tcp_sim(tp), t, expires, slack)
                           : ktimer_mod(tcp_sim(tp), t, expires);
    int which = t == &tp->delack_timer;
    if (r == KTIMER_SHORTCUT) {
        tp->timer_mod_shortcut[which]++;
        tcp_charge(tp, cpu, COST_TIMER_MOD_FAST);
        return r;
    }
    tp->timer_mod_slow[which]++;
    tcp_charge(tp, cpu, COST_TIMER_MOD_SLOW);
    /* __mod_timer first locks the base the timer is queued on (lock_timer_base), then moves it to
     * the current CPU's base (T.B.2): when that base is another CPU's, its lock and the timer's
     * lines are fetched from that CPU and a second base lock is taken. */
    Cpu **base = t == &tp->rtx_timer ? &tp->rtx_timer_cpu : &tp->delack_timer_cpu;
    if (*base && cpu && *base != cpu) {
        tp->timer_mod_remote[which]++;
        tcp_charge(tp, cpu, COST_TIMER_MOD_REMOTE);
    }
    *base = cpu;
    return r;
}

/* inet_csk_reset_xmit_timer (T.B.5). */
void inet_csk_reset_xmit_timer(TcpSock *tp, uint8_t what, uint64_t when, uint64_t max_when, Cpu *cpu)
{
    uint64_t now = tcp_jiffies(tp);
    if (when > max_when)
        when = max_when;
    if (what == ICSK_TIME_DACK) {
        tp->ack.pending |= ICSK_ACK_TIMER;
        tp->ack.timeout = now + when;
        tcp_sk_reset_timer(tp, &tp->delack_timer, tp->ack.timeout, cpu);
        return;
    }
    tp->icsk_pending = what;
    tp->icsk_timeout = now + when;
    tcp_sk_reset_timer(tp, &tp->rtx_timer, tp->icsk_timeout, cpu);
}

/* inet_csk_clear_xmit_timer: flags only, the timer stays queued (INET_CSK_CLEAR_TIMERS unset).
 * Until 5.10 it also cleared icsk_ack.blocked ("icsk_ack.blocked = icsk_ack.pending = 0"). */
void inet_csk_clear_xmit_timer(TcpSock *tp, uint8_t what)
{
    if (what == ICSK_TIME_DACK) {
        tp->ack.pending = 0;
        tp->ack.blocked = 0;
    } else
        tp->icsk_pending = 0;
}

/* tcp_retransmit_timer's counters, before tcp_enter_loss: TCPTimeouts for every firing since
 * e1561fe2dd69 (5.5; hosts.H.tcp.timeouts_count), and for the first timeout of a series the
 * state it ends: a failed Recovery, a failed Loss, Disorder or SACKed data - or, before 5.5,
 * TCPTimeouts itself when none of these holds. */
static void tcp_count_timeout(TcpSock *tp)
{
    bool every = tcp_conf(tp)->timeouts_count == TCP_TIMEOUTS_EVERY;
    if (every)
        tcp_count(tp, CTR_TcpExtTCPTimeouts, 1);
    if (tp->icsk_retransmits)
        return;
    CounterId mib;
    if (tp->ca_state == TCP_CA_Recovery)
        mib = tcp_is_sack(tp) ? CTR_TcpExtTCPSackRecoveryFail : CTR_TcpExtTCPRenoRecoveryFail;
    else if (tp->ca_state == TCP_CA_Loss)
        mib = CTR_TcpExtTCPLossFailures;
    else if (tp->ca_state == TCP_CA_Disorder || tp->sacked_out)
        mib = tcp_is_sack(tp) ? CTR_TcpExtTCPSackFailures : CTR_TcpExtTCPRenoFailures;
    else if (!every)
        mib = CTR_TcpExtTCPTimeouts;
    else
        return;
    tcp_count(tp, mib, 1);
}

/* tcp_retransmit_timer (T.C.4): RTO expiry. */
void tcp_retransmit_timer(TcpSock *tp, Cpu *cpu)
{
    if (!tp->packets_out || !tp->rtx_queue.head)
        return;
    tp->tlp_high_seq = 0;
    tcp_count_timeout(tp);
    tcp_diag_timer_fired(tp, true);
    tcp_enter_loss(tp);
    tp->icsk_retransmits++;
    /* A retransmission the qdisc dropped (a positive error) is retried after
     * TCP_RESOURCE_PROBE_INTERVAL with neither backoff nor a longer RTO, as 6.x does (older
     * kernels waited min(rto, that interval)); -EAGAIN (the TX completions behind) backs off
     * like a sent retransmission. */
    if (tcp_retransmit_skb(tp, tp->rtx_queue.head, 1, cpu) > 0) {
        inet_csk_reset_xmit_timer(tp, ICSK_TIME_RETRANS, tcp_resource_probe_interval(tp),
                                  tcp_rto_max(tp), cpu);
        return;
    }
    tp->icsk_backoff++;
    tp->icsk_rto = tp->icsk_rto << 1 < tcp_rto_max(tp) ? tp->icsk_rto << 1 : tcp_rto_max(tp);
    inet_csk_reset_xmit_timer(tp, ICSK_TIME_RETRANS, tp->icsk_rto, tcp_rto_max(tp), cpu);
}

/* tcp_probe_timer: the zero-window probe timer (no give-up after tcp_retries2 modelled). */
static void tcp_probe_timer(TcpSock *tp, Cpu *cpu)
{
    if (tp->packets_out || !tp->write_queue.head) {
        tp->icsk_probes_out = 0;
        return;
    }
    tcp_send_probe0(tp, cpu);
}

/* The loss-probe timer. The "TLP" event marks a probe sent, as TCPLossProbes counts it; a
 * firing that sends none (a probe of this episode is still out, or nothing can go) is logged. */
static void tcp_loss_probe_timer(TcpSock *tp, Cpu *cpu)
{
    uint64_t una = tp->snd_una, nxt = tp->snd_nxt;
    uint32_t packets_out = tp->packets_out, cwnd = tp->snd_cwnd;
    const char *peer = tcp_diag_peer_name(tp);
    if (tcp_send_loss_probe(tp, cpu))
        SIM_EVENT(tcp_host(tp), LOG_TIMER, cpu, &tp->sk, "TLP",
                  "snd_una=%" PRIu64 " snd_nxt=%" PRIu64 " packets_out=%u cwnd=%u srtt_us=%u peer=%s",
                  una, nxt, packets_out, cwnd, tp->srtt_us >> 3, peer);
    else
        SIM_LOG(tcp_host(tp), LOG_TIMER, cpu, "tlp_no_probe", "sk=%u tlp_high_seq=%" PRIu64,
                tp->sk.port, tp->tlp_high_seq);
}

/* tcp_write_timer_handler (T.B.5): dispatch on icsk_pending. */
void tcp_write_timer_handler(TcpSock *tp, Cpu *cpu)
{
    if (!tp->icsk_pending)
        return;
    if (tp->icsk_timeout > tcp_jiffies(tp)) {
        tcp_sk_reset_timer(tp, &tp->rtx_timer, tp->icsk_timeout, cpu);
        return;
    }
    tp->tcp_mstamp = sim_now(tcp_sim(tp));
    switch (tp->icsk_pending) {
    case ICSK_TIME_REO_TIMEOUT:
        SIM_LOG(tcp_host(tp), LOG_TIMER, cpu, "tcp_reo_timeout", "sk=%u packets_out=%u", tp->sk.port,
                tp->packets_out);
        tcp_rack_reo_timeout(tp, cpu);
        break;
    case ICSK_TIME_LOSS_PROBE:
        tcp_loss_probe_timer(tp, cpu);
        break;
    case ICSK_TIME_RETRANS:
        tp->icsk_pending = 0;
        SIM_EVENT(tcp_host(tp), LOG_TIMER, cpu, &tp->sk, "RTO",
                  "snd_una=%" PRIu64 " packets_out=%u rto_ms=%" PRIu64 " backoff=%u peer=%s",
                  tp->snd_una, tp->packets_out, jiffies_to_usecs_hz(tp->icsk_rto, tp->hz) / 1000u,
                  tp->icsk_backoff, tcp_diag_peer_name(tp));
        tcp_retransmit_timer(tp, cpu);
        break;
    case ICSK_TIME_PROBE0:
        tp->icsk_pending = 0;
        tcp_probe_timer(tp, cpu);
        break;
    default:
        break;
    }
}

/* Process the prequeue in softirq (2009 delack handler: the reader did not run in time). */
static void tcp_prequeue_flush(TcpSock *tp, Cpu *cpu)
{
    Skb *skb;
    while ((skb = tp->prequeue.head)) {
        tcp_skb_unlink(&tp->prequeue, skb);
        tcp_v4_do_rcv(tp, skb, cpu);
    }
    tp->ucopy_memory = 0;
}

/* tcp_delack_timer_handler (T.A.10, modern). */
void tcp_delack_timer_handler(TcpSock *tp, Cpu *cpu)
{
    if (tp->compressed_ack) { /* the SACK compression case (4.18+) */
        tp->tcp_mstamp = sim_now(tcp_sim(tp));
        tcp_sack_compress_send_ack(tp, cpu);
        return;
    }
    if (!(tp->ack.pending & ICSK_ACK_TIMER))
        return;
    if (tp->ack.timeout > tcp_jiffies(tp)) {
        tcp_sk_reset_timer(tp, &tp->delack_timer, tp->ack.timeout, cpu);
        return;
    }
    tp->ack.pending &= (uint8_t)~ICSK_ACK_TIMER;
    if (tp->prequeue.head) /* <= 4.13: the reader did not run in time (TCPSchedulerFailed) */
        tcp_prequeue_flush(tp, cpu);
    if (!inet_csk_ack_scheduled(tp))
        return;
    if (!inet_csk_in_pingpong_mode(tp)) {
        /* delayed ACK missed: inflate ATO */
        uint32_t ato = tp->ack.ato << 1;
        tp->ack.ato = ato < tp->icsk_rto ? ato : tp->icsk_rto;
    } else {
        /* missed in ping-pong: leave it and deflate ATO */
        tp->ack.pingpong = 0;
        tp->ack.ato = tcp_ato_min(tp);
    }
    tp->tcp_mstamp = sim_now(tcp_sim(tp));
    SIM_LOG(tcp_host(tp), LOG_TIMER, cpu, "delack_timer", "sk=%u ato_ms=%" PRIu64, tp->sk.port,
            jiffies_to_usecs_hz(tp->ack.ato, tp->hz) / 1000u);
    tcp_send_ack(tp, cpu);
    tcp_count(tp, CTR_TcpExtDelayedACKs, 1);
}

/* ---- firing: timer event -> TIMER softirq on the arming CPU -> handler or deferral ---- */

static bool tcp_write_timer_run(SoftirqWork *w, Cpu *cpu)
{
    TcpSock *tp = w->ctx;
    tcp_charge(tp, cpu, COST_TCP_TIMER);
    if (sock_owned_by_user(&tp->sk) && tcp_stack(tp)->timer_owned == TIMER_OWNED_RETRY) {
        /* 2.6-3.5 tcp_write_timer: "Try again later", HZ/20 from now; icsk_pending and
         * icsk_timeout stay as they are */
        tcp_sk_reset_timer(tp, &tp->rtx_timer, tcp_jiffies(tp) + tp->hz / 20u, cpu);
        SIM_EVENT(tcp_host(tp), LOG_TIMER, cpu, &tp->sk, "write_timer_retry", "owner=%s pending=%u",
                  tp->sk.owner->name, tp->icsk_pending);
    } else if (sock_owned_by_user(&tp->sk)) {
        tp->tsq_flags |= TCPF_WRITE_TIMER_DEFERRED; /* run by tcp_release_cb */
        SIM_EVENT(tcp_host(tp), LOG_TIMER, cpu, &tp->sk, "write_timer_deferred", "owner=%s pending=%u",
                  tp->sk.owner->name, tp->icsk_pending);
    } else {
        tcp_write_timer_handler(tp, cpu);
    }
    return false;
}

static bool tcp_delack_timer_run(SoftirqWork *w, Cpu *cpu)
{
    TcpSock *tp = w->ctx;
    TimerOwnedPolicy owned = tcp_stack(tp)->timer_owned;
    tcp_charge(tp, cpu, COST_TCP_TIMER);
    /* 6.x: no ACK owed (lazily cleared) and none compressed -> return without the socket lock.
     * Before, the owner test came first: a lazily cleared timer firing while the socket was
     * owned still counted DelayedACKLocked (and, before 3.6, re-armed). */
    if (owned == TIMER_OWNED_RELEASE_CB && !(tp->ack.pending & ICSK_ACK_TIMER) && !tp->compressed_ack)
        return false;
    if (sock_owned_by_user(&tp->sk) && owned == TIMER_OWNED_RETRY) {
        /* 2.6-3.5 tcp_delack_timer: "Try again later": blocked, DelayedACKLocked, and the timer
         * re-armed TCP_DELACK_MIN from now (ack.timeout unchanged) */
        tp->ack.blocked = 1;
        tcp_count(tp, CTR_TcpExtDelayedACKLocked, 1);
        tcp_sk_reset_timer(tp, &tp->delack_timer, tcp_jiffies(tp) + tcp_ato_min(tp), cpu);
        SIM_LOG(tcp_host(tp), LOG_TIMER, cpu, "delack_timer_retry", "sk=%u owner=%s", tp->sk.port,
                tp->sk.owner->name);
    } else if (sock_owned_by_user(&tp->sk)) {
        if (owned == TIMER_OWNED_RELEASE_CB_BLOCKED)
            tp->ack.blocked = 1; /* 3.6-5.9 tcp_delack_timer */
        tcp_count(tp, CTR_TcpExtDelayedACKLocked, 1);
        tp->tsq_flags |= TCPF_DELACK_TIMER_DEFERRED;
        SIM_LOG(tcp_host(tp), LOG_TIMER, cpu, "delack_timer_deferred", "sk=%u owner=%s", tp->sk.port,
                tp->sk.owner->name);
    } else {
        tcp_delack_timer_handler(tp, cpu);
    }
    return false;
}

static void tcp_rtx_timer_fire(Sim *sim, void *ctx)
{
    TcpSock *tp = ctx;
    (void)sim;
    cpu_raise_softirq(tp->rtx_timer_cpu, &tp->rtx_work);
}

static void tcp_delack_timer_fire(Sim *sim, void *ctx)
{
    TcpSock *tp = ctx;
    (void)sim;
    cpu_raise_softirq(tp->delack_timer_cpu, &tp->delack_work);
}

/* tcp_pace_kick: the pacing hrtimer (HRTIMER_MODE_ABS_PINNED_SOFT, ns, not jiffies) expires on
 * the CPU that armed it and runs the TSQ handler there in softirq (deferred to tcp_release_cb if
 * the owner holds the socket), which resumes tcp_write_xmit. */
static void tcp_pace_kick(Sim *sim, void *ctx)
{
    TcpSock *tp = ctx;
    (void)sim;
    cpu_raise_softirq(tp->pacing_cpu, &tp->tsq_work);
}

/* ---- SACK compression (4.18+, hosts.H.tcp.comp_sack_nr) ---- */

/* __tcp_ack_snd_check's out-of-order tail: true when this SACK is held for the compressed-ACK
 * hrtimer. The first TCP_FASTRETRANS_THRESH ACKs for one rcv_nxt go at once (the sender needs
 * them to count dupthresh); later ones wait min(comp_sack_delay, 5 % of the smaller of the
 * receiver's RTT and srtt), and the timer's range (comp_sack_slack), up to comp_sack_nr. */
bool tcp_sack_compress_hold(TcpSock *tp, Cpu *cpu)
{
    const TcpConf *c = tcp_conf(tp);
    if (!tcp_is_sack(tp) || tp->compressed_ack >= c->comp_sack_nr)
        return false;
    if (tp->compressed_ack_rcv_nxt != tp->rcv_nxt) {
        tp->compressed_ack_rcv_nxt = tp->rcv_nxt;
        tp->dup_ack_counter = 0;
    }
    if (tp->dup_ack_counter < TCP_FASTRETRANS_THRESH) {
        tp->dup_ack_counter++;
        return false;
    }
    tp->compressed_ack++;
    if (sim_event_pending(&tp->compressed_ack_timer))
        return true;
    uint64_t rtt8 = tp->rcv_rtt_us; /* both hold 8 x us */
    if (tp->srtt_us && tp->srtt_us < rtt8)
        rtt8 = tp->srtt_us;
    sim_time_t delay = (sim_time_t)(rtt8 * (SIM_US / 8) / 20);
    if (delay > c->comp_sack_delay_ns)
        delay = c->comp_sack_delay_ns;
    tp->comp_ack_cpu = cpu;
    sim_schedule_at(tcp_sim(tp), &tp->compressed_ack_timer,
                    sim_now(tcp_sim(tp)) + delay + c->comp_sack_slack_ns);
    return true;
}

/* tcp_sack_compress_send_ack: send the held ACK now (the delayed-ACK handler, a full SACK
 * table); the ACKs it stands for, less itself, count as compressed. */
void tcp_sack_compress_send_ack(TcpSock *tp, Cpu *cpu)
{
    if (!tp->compressed_ack)
        return;
    sim_cancel(tcp_sim(tp), &tp->compressed_ack_timer);
    tp->compressed_ack--;
    tcp_send_ack(tp, cpu);
}

/* From tcp_event_ack_sent: any ACK leaving carries the latest SACK blocks, so the held ones
 * are saved (TcpExtTCPAckCompressed) and the timer is no longer needed. */
void tcp_sack_compress_ack_sent(TcpSock *tp)
{
    if (!tp->compressed_ack)
        return;
    tcp_count(tp, CTR_TcpExtTCPAckCompressed, tp->compressed_ack);
    tp->compressed_ack = 0;
    sim_cancel(tcp_sim(tp), &tp->compressed_ack_timer);
}

static void tcp_comp_ack_fire(Sim *sim, void *ctx)
{
    TcpSock *tp = ctx;
    (void)sim;
    cpu_raise_softirq(tp->comp_ack_cpu, &tp->comp_ack_work);
}

/* tcp_compressed_ack_kick, in the hrtimer softirq of the CPU that armed it; while the socket is
 * owned, tcp_release_cb runs the delayed-ACK handler, which sends the held ACK first. */
static bool tcp_comp_ack_run(SoftirqWork *w, Cpu *cpu)
{
    TcpSock *tp = w->ctx;
    tcp_charge(tp, cpu, COST_TCP_TIMER);
    if (sock_owned_by_user(&tp->sk)) {
        tp->tsq_flags |= TCPF_DELACK_TIMER_DEFERRED;
        return false;
    }
    if (tp->compressed_ack) {
        tp->tcp_mstamp = sim_now(tcp_sim(tp));
        tp->compressed_ack--; /* the ACK that goes is not one saved */
        tcp_send_ack(tp, cpu);
    }
    return false;
}

void tcp_init_xmit_timers(TcpSock *tp)
{
    KTimerWheel wheel = tcp_stack(tp)->timer_wheel;
    ktimer_init(&tp->rtx_timer, tp->hz, tp->tick_phase, wheel, tcp_rtx_timer_fire, tp, EVK_TIMER,
                tp->sk.conn);
    ktimer_init(&tp->delack_timer, tp->hz, tp->tick_phase, wheel, tcp_delack_timer_fire, tp,
                EVK_TIMER, tp->sk.conn);
    softirq_work_init(&tp->rtx_work, SOFTIRQ_TIMER, tcp_write_timer_run, tp);
    softirq_work_init(&tp->delack_work, SOFTIRQ_TIMER, tcp_delack_timer_run, tp);
    sim_event_init(&tp->pacing_timer, tcp_pace_kick, tp, EVK_PACING, tp->sk.conn);
    sim_event_init(&tp->compressed_ack_timer, tcp_comp_ack_fire, tp, EVK_COMP_SACK, tp->sk.conn);
    softirq_work_init(&tp->comp_ack_work, SOFTIRQ_TIMER, tcp_comp_ack_run, tp);
}

void tcp_stop_timers(TcpSock *tp)
{
    ktimer_del(tcp_sim(tp), &tp->rtx_timer);
    ktimer_del(tcp_sim(tp), &tp->delack_timer);
    sim_cancel(tcp_sim(tp), &tp->pacing_timer);
    sim_cancel(tcp_sim(tp), &tp->compressed_ack_timer);
}
