/* tcp_cong.c - pluggable congestion control, as net/ipv4/tcp_cong.c.
 *
 * What it models: the ops table every algorithm fills (ssthresh, cong_avoid and undo_cwnd are
 * required; init, set_state, cwnd_event and pkts_acked may be NULL), a registry looked up by
 * name that rejects incomplete tables, and the helpers algorithms share: slow start
 * (cwnd = min(cwnd + acked, ssthresh)), additive increase with a credit counter, and the
 * cwnd-limited test. Each algorithm lives in its own file and exports only its ops.
 *
 * What an ACK is worth is an era policy (hosts.H.tcp.cwnd_count): today every segment the ACK
 * covers counts, so a stretch ACK grows cwnd as much as the ACKs it replaces; until 3.13 (with
 * the default sysctl tcp_abc = 0) each ACK of new data was one step whatever it covered:
 * tcp_slow_start added one segment per ACK and tcp_cong_avoid_ai one credit per ACK. An ACK
 * that is dropped, or a stretch ACK, then costs the sender growth.
 */
#include "models/tcp_internal.h"

#include <glib.h>
#include <string.h>

typedef const TcpCongOps *(*TcpCaGetter)(void);
static const TcpCaGetter tcp_ca_registry[] = { tcp_cubic_ops, tcp_reno_ops };

static bool tcp_ca_valid(const TcpCongOps *ops)
{
    return ops && ops->name && ops->ssthresh && ops->cong_avoid && ops->undo_cwnd;
}

const TcpCongOps *tcp_ca_find(const char *name)
{
    for (size_t i = 0; i < G_N_ELEMENTS(tcp_ca_registry); i++) {
        const TcpCongOps *ops = tcp_ca_registry[i]();
        g_assert(tcp_ca_valid(ops)); /* tcp_register_congestion_control: -EINVAL */
        if (strcmp(ops->name, name) == 0)
            return ops;
    }
    return NULL;
}

const TcpCongOps *tcp_ca_for_conf(CongControl cc)
{
    return tcp_ca_find(cc == CC_RENO ? "reno" : "cubic");
}

void tcp_init_congestion_control(TcpSock *tp)
{
    tp->ca_ops = tcp_ca_for_conf(tcp_conf(tp)->cc);
    g_assert(tp->ca_ops);
    memset(tp->ca_priv, 0, sizeof(tp->ca_priv));
    if (tp->ca_ops->init)
        tp->ca_ops->init(tp);
}

void tcp_ca_event(TcpSock *tp, TcpCaEvent ev)
{
    if (tp->ca_ops->cwnd_event)
        tp->ca_ops->cwnd_event(tp, ev);
}

/* The growth units of one ACK that newly acked `acked` segments: all of them, or one (tcp_abc = 0
 * era: tcp_cong_avoid() ran once per ACK and neither tcp_slow_start nor tcp_cong_avoid_ai looked
 * at how much it covered; 3.3 net/ipv4/tcp_cong.c, sysctl_tcp_abc defaults to 0 in tcp_input.c). */
uint32_t tcp_ca_acked_units(const TcpSock *tp, uint32_t acked)
{
    if (tcp_conf(tp)->cwnd_count == TCP_CWND_COUNT_ACKS && acked)
        return 1;
    return acked;
}

/* tcp_slow_start: returns the acked packets left over for congestion avoidance. */
uint32_t tcp_slow_start(TcpSock *tp, uint32_t acked)
{
    uint64_t cwnd = (uint64_t)tp->snd_cwnd + acked;
    if (cwnd > tp->snd_ssthresh)
        cwnd = tp->snd_ssthresh;
    acked -= (uint32_t)(cwnd - tp->snd_cwnd);
    tp->snd_cwnd = cwnd < tp->snd_cwnd_clamp ? (uint32_t)cwnd : tp->snd_cwnd_clamp;
    return acked;
}

/* The <= 3.13 step, once per ACK: cwnd + 1 when the credit has reached w, else one more credit
 * (so w = 1 gives one segment per two ACKs, not one per ACK). */
static void tcp_cong_avoid_ai_per_ack(TcpSock *tp, uint32_t w)
{
    if (tp->snd_cwnd_cnt >= w) {
        if (tp->snd_cwnd < tp->snd_cwnd_clamp)
            tp->snd_cwnd++;
        tp->snd_cwnd_cnt = 0;
    } else {
        tp->snd_cwnd_cnt++;
    }
}

/* tcp_cong_avoid_ai: one segment per w acked (credit in snd_cwnd_cnt). */
void tcp_cong_avoid_ai(TcpSock *tp, uint32_t w, uint32_t acked)
{
    if (tcp_conf(tp)->cwnd_count == TCP_CWND_COUNT_ACKS) {
        tcp_cong_avoid_ai_per_ack(tp, w);
        return;
    }
    if (tp->snd_cwnd_cnt >= w) {
        tp->snd_cwnd_cnt = 0;
        tp->snd_cwnd++;
    }
    tp->snd_cwnd_cnt += acked;
    if (tp->snd_cwnd_cnt >= w) {
        uint32_t delta = tp->snd_cwnd_cnt / w;
        tp->snd_cwnd_cnt -= delta * w;
        tp->snd_cwnd += delta;
    }
    if (tp->snd_cwnd > tp->snd_cwnd_clamp)
        tp->snd_cwnd = tp->snd_cwnd_clamp;
}

/* <= 3.13 slow start (tcp_abc = 0): each ACK adds a cwnd's worth of credit to snd_cwnd_cnt and
 * cwnd grows by one per cwnd of credit - one segment per ACK - with no cap at ssthresh; and it
 * runs while cwnd <= ssthresh, so the first ACK after a recovery (cwnd = ssthresh) still grows
 * cwnd. (Counting segments, capped at ssthresh + 1, came with 9f9843a751d0 in 3.14; the strict
 * cwnd < ssthresh test with tcp_in_slow_start() in 4.3.) */
static void tcp_slow_start_per_ack(TcpSock *tp)
{
    uint32_t cwnd = tp->snd_cwnd, delta = 0;
    tp->snd_cwnd_cnt += cwnd;
    while (tp->snd_cwnd_cnt >= cwnd) {
        tp->snd_cwnd_cnt -= cwnd;
        delta++;
    }
    uint64_t grown = (uint64_t)cwnd + delta;
    tp->snd_cwnd = grown < tp->snd_cwnd_clamp ? (uint32_t)grown : tp->snd_cwnd_clamp;
}

bool tcp_cong_avoid_start(TcpSock *tp, uint32_t *acked)
{
    if (!tcp_is_cwnd_limited(tp))
        return false;
    *acked = tcp_ca_acked_units(tp, *acked);
    if (tcp_conf(tp)->cwnd_count == TCP_CWND_COUNT_ACKS) {
        if (tp->snd_cwnd > tp->snd_ssthresh)
            return true;
        tcp_slow_start_per_ack(tp);
        return false;
    }
    if (!tcp_in_slow_start(tp))
        return true;
    *acked = tcp_slow_start(tp, *acked);
    return *acked != 0;
}

/* <= 3.15 tcp_is_cwnd_limited(sk, in_flight) (as in 3.4's tcp_cong.c; "the inverse of the cwnd
 * check in tcp_tso_should_defer"): cwnd was full when the ACK came, or a TSO sender may be
 * holding back a skb because what is left of cwnd is under a third of it (tcp_tso_win_divisor)
 * and under a 64 KB skb, or what is left is at most tcp_max_burst (tp->reordering). */
static bool tcp_is_cwnd_limited_in_flight(const TcpSock *tp)
{
    uint32_t in_flight = tp->prior_in_flight;
    if (in_flight >= tp->snd_cwnd)
        return true;
    uint32_t left = tp->snd_cwnd - in_flight;
    if (tp->gso_ok && (uint64_t)left * TCP_TSO_WIN_DIVISOR < tp->snd_cwnd &&
        (uint64_t)left * tp->mss_cache < TCP_GSO_MAX_SIZE)
        return true;
    return left <= tp->reordering;
}

/* tcp_is_cwnd_limited: grow only a cwnd that is used. 3.16+: the last sends found it full (or a
 * TSO skb waited for it); in slow start, up to 2x what was out. */
bool tcp_is_cwnd_limited(const TcpSock *tp)
{
    if (tcp_conf(tp)->cwnd_limited == TCP_CWND_LIMITED_IN_FLIGHT)
        return tcp_is_cwnd_limited_in_flight(tp);
    if (tp->is_cwnd_limited)
        return true;
    if (tcp_in_slow_start(tp))
        return tp->snd_cwnd < 2u * tp->max_packets_out;
    return false;
}

/* ---- cwnd validation (RFC 2861, hosts.H.tcp.slow_start_after_idle) ---- */

/* tcp_init_cwnd: the initial window of the era (no route initcwnd metric), within the clamp. */
static uint32_t tcp_init_cwnd(const TcpSock *tp)
{
    uint32_t iw = tcp_era_init_cwnd(tp);
    return iw < tp->snd_cwnd_clamp ? iw : tp->snd_cwnd_clamp;
}

/* tcp_cwnd_restart: after `idle` jiffies with nothing in flight, one halving per RTO of idle
 * time beyond the first, never below the initial window (nor raising a smaller cwnd to it). */
static void tcp_cwnd_restart(TcpSock *tp, int64_t idle)
{
    uint32_t restart = tcp_init_cwnd(tp);
    uint32_t cwnd = tp->snd_cwnd;
    tcp_ca_event(tp, CA_EVENT_CWND_RESTART);
    tp->snd_ssthresh = tcp_current_ssthresh(tp);
    if (restart > cwnd)
        restart = cwnd;
    while ((idle -= (int64_t)tp->icsk_rto) > 0 && cwnd > restart)
        cwnd >>= 1;
    tp->snd_cwnd = cwnd > restart ? cwnd : restart;
    tp->snd_cwnd_stamp = tcp_jiffies(tp);
    tp->snd_cwnd_used = 0;
}

/* tcp_slow_start_after_idle_check: run when a write queues a new skb (skb_entail) and when an
 * ACK changes the window while data waits. (Before 4.x's move to skb_entail the check ran when
 * the first skb after the idle period was sent, so that one skb still saw the old cwnd.) */
void tcp_slow_start_after_idle_check(TcpSock *tp)
{
    if (!tcp_conf(tp)->slow_start_after_idle || tp->packets_out)
        return;
    int64_t idle = (int64_t)(tcp_jiffies(tp) - tp->lsndtime);
    if (idle > (int64_t)tp->icsk_rto)
        tcp_cwnd_restart(tp, idle);
}

/* tcp_cwnd_application_limited: after an RTO without the cwnd being used or grown, in Open and
 * with the writer not blocked on its send buffer, cwnd moves halfway down to what was used
 * (at least the initial window). */
static void tcp_cwnd_application_limited(TcpSock *tp)
{
    if (tp->ca_state == TCP_CA_Open && !tp->sock_nospace) {
        uint32_t init = tcp_init_cwnd(tp);
        uint32_t used = tp->snd_cwnd_used > init ? tp->snd_cwnd_used : init;
        if (used < tp->snd_cwnd) {
            tp->snd_ssthresh = tcp_current_ssthresh(tp);
            tp->snd_cwnd = (tp->snd_cwnd + used) >> 1;
        }
        tp->snd_cwnd_used = 0;
    }
    tp->snd_cwnd_stamp = tcp_jiffies(tp);
}

/* The second half of tcp_cwnd_validate, after a transmit: a flow that fills its cwnd keeps it;
 * one that does not records how much it used and, an RTO after the cwnd last changed, gives
 * back half of what it did not use. "Fills" is tcp_is_cwnd_limited since 3.16 (e114a710aa50);
 * before, and so with cwnd_limited in_flight, packets_out >= snd_cwnd. */
void tcp_cwnd_validate_usage(TcpSock *tp)
{
    bool full = tcp_conf(tp)->cwnd_limited == TCP_CWND_LIMITED_IN_FLIGHT
                    ? tp->packets_out >= tp->snd_cwnd
                    : tcp_is_cwnd_limited(tp);
    if (full) {
        tp->snd_cwnd_used = 0;
        tp->snd_cwnd_stamp = tcp_jiffies(tp);
        return;
    }
    if (tp->packets_out > tp->snd_cwnd_used)
        tp->snd_cwnd_used = tp->packets_out;
    if (tcp_conf(tp)->slow_start_after_idle &&
        (int64_t)(tcp_jiffies(tp) - tp->snd_cwnd_stamp) >= (int64_t)tp->icsk_rto)
        tcp_cwnd_application_limited(tp);
}

/* tcp_reno_undo_cwnd: undo restores the cwnd from before the reduction. */
uint32_t tcp_reno_undo_cwnd(TcpSock *tp)
{
    return tp->snd_cwnd > tp->prior_cwnd ? tp->snd_cwnd : tp->prior_cwnd;
}
