/* tcp_diag.c - why a sender's loss probe or RTO fired: the state of the receiver it waits on.
 *
 * Not a kernel mechanism but an observer with the whole world in view. When a TLP or an RTO
 * fires, the sender has heard nothing for a PTO or an RTO; on a real pair of hosts one can
 * only guess why from a tcpdump. In the simulation the peer socket is at hand, so each firing
 * is put in one of four classes (sim/counters.h, Sksim*Peer*), in this order of precedence:
 * the peer is owned by a thread that is off its CPU (the case of seed 000: a netserver that
 * yielded in __release_sock() while it held its socket, so the segments wait in the backlog,
 * unacked); owned by a thread that is running; not owned but holding an owed ACK on its
 * delayed-ACK timer (a flow stalled on a full window, whose ACK the window test of
 * __tcp_ack_snd_check put off); or none of these. The check reads the peer only and changes
 * nothing, so a run's events and kernel counters are the same with or without it.
 */
#include "models/tcp_internal.h"

typedef enum { PEER_OWNER_OFF_CPU, PEER_OWNER_ON_CPU, PEER_DELAYED_ACK, PEER_OTHER } PeerState;

static PeerState peer_state(const TcpSock *peer)
{
    if (!peer)
        return PEER_OTHER;
    const Sock *sk = &peer->sk;
    if (sock_owned_by_user(sk)) /* (an owner that is no task, as in unit tests, runs nowhere) */
        return sk->owner && cpu_current(sk->owner->cpu) == sk->owner ? PEER_OWNER_ON_CPU
                                                                     : PEER_OWNER_OFF_CPU;
    if (peer->ack.pending & ICSK_ACK_TIMER)
        return PEER_DELAYED_ACK;
    return PEER_OTHER;
}

const char *tcp_diag_peer_name(const TcpSock *tp)
{
    static const char *const names[] = { "owner_off_cpu", "owner_on_cpu", "delayed_ack", "other" };
    return names[peer_state(tp->peer)];
}

void tcp_diag_timer_fired(TcpSock *tp, bool rto)
{
    static const CounterId tlp_class[] = { CTR_SksimTLPPeerOwnerOffCpu, CTR_SksimTLPPeerOwnerOnCpu,
                                           CTR_SksimTLPPeerDelayedAck, CTR_SksimTLPPeerOther };
    static const CounterId rto_class[] = { CTR_SksimRTOPeerOwnerOffCpu, CTR_SksimRTOPeerOwnerOnCpu,
                                           CTR_SksimRTOPeerDelayedAck, CTR_SksimRTOPeerOther };
    PeerState s = peer_state(tp->peer);
    tcp_count(tp, rto ? rto_class[s] : tlp_class[s], 1);
}
