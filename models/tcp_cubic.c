/* tcp_cubic.c - CUBIC congestion control (RFC 9438 as Linux's tcp_cubic.c "v2.3", T.F.2).
 *
 * Window growth follows W(t) = W_max + C (t - K)^3 from the last reduction, t counted from the
 * epoch start plus the minimum RTT, K = cbrt(W_max (1 - beta) / C), in the kernel's fixed point:
 * time in 2^-10 s (BICTCP_HZ = 10), C = bic_scale/1024 with bic_scale = 41 (cube_rtt_scale =
 * 410), beta = 717/1024; fast convergence lowers W_max to cwnd (1 + beta)/2 when a reduction
 * comes below the previous W_max; a Reno-friendly estimate (beta_scale 15) keeps CUBIC at least
 * as fast as Reno; growth is at most 1.5x per RTT (cnt >= 2) and, before any loss, at least
 * 5% per RTT (cnt <= 20). cnt is recomputed at most once per jiffy. HyStart (ACK train within
 * 2 ms spreading beyond half the min RTT, or a round's min RTT above delay_min + clamp(delay_min
 * / 8, 4 ms, 16 ms) after 8 samples) ends slow start from cwnd >= 16. That is the 5.8+ HyStart;
 * hosts.H.tcp.hystart picks 2.6.39-3.x's (1/8-ms delays, the train on a millisecond clock: at
 * a LAN RTT slow start ends in the first round whose ACKs cross a millisecond) or none.
 *
 * With hosts.H.tcp.cwnd_count = acks (CUBIC 2.3 of 3.x kernels, tcp_abc = 0) every ACK is one
 * step whatever it covers, and CUBIC compensates for delayed ACKs instead: pkts_acked keeps
 * delayed_ack, a 1/16 EWMA of packets per ACK (x16, capped at 32 packets, updated in the Open
 * state only), and each recomputed cnt is divided by it (floor 1, not 2); ack_cnt for the
 * Reno-friendly estimate counts ACKs.
 */
#include "models/tcp_internal.h"

#include <glib.h>
#include <string.h>

#define BICTCP_BETA_SCALE 1024u  /* scale of beta */
#define CUBIC_BETA 717u          /* beta = 717/1024 ~ 0.7 */
#define BICTCP_HZ 10u            /* time unit 2^-10 s */
#define CUBIC_BIC_SCALE 41u      /* C = 41 * 10 / 1024 ~ 0.4 */
#define CUBE_RTT_SCALE (CUBIC_BIC_SCALE * 10u)
/* 8 (1024 + 717) / 3 / (1024 - 717) = 15: Reno-friendly ack count per cwnd increment, x8 */
#define CUBIC_BETA_SCALE ((8u * (BICTCP_BETA_SCALE + CUBIC_BETA)) / 3u / (BICTCP_BETA_SCALE - CUBIC_BETA))
#define HYSTART_LOW_WINDOW 16u   /* hystart_low_window */
#define HYSTART_ACK_DELTA_US 2000u
#define HYSTART_MIN_SAMPLES 8u
#define HYSTART_DELAY_MIN_US 4000u
#define HYSTART_DELAY_MAX_US 16000u
/* 3.x CUBIC 2.3: delayed_ack holds packets per ACK << ACK_RATIO_SHIFT, starting at 2 (one ACK
 * per two segments) and capped at ACK_RATIO_LIMIT = 32 packets (3.x net/ipv4/tcp_cubic.c). */
#define ACK_RATIO_SHIFT 4u
#define ACK_RATIO_INIT (2u << ACK_RATIO_SHIFT)
#define ACK_RATIO_LIMIT (32u << ACK_RATIO_SHIFT)

typedef struct CubicState {
    uint32_t cnt;              /* increase cwnd by 1 after cnt ACKed packets */
    uint32_t last_max_cwnd;    /* W_max */
    uint32_t last_cwnd;
    uint64_t last_time;        /* jiffies of the last cnt update */
    uint32_t bic_origin_point; /* W at the inflection point */
    uint32_t bic_K;            /* time to the origin point, 2^-10 s */
    uint32_t delay_min;        /* min RTT, us */
    uint64_t epoch_start;      /* jiffies */
    bool in_epoch;
    uint32_t ack_cnt;
    uint32_t tcp_cwnd;         /* Reno-friendly estimate */
    uint32_t delayed_ack;      /* packets per ACK << ACK_RATIO_SHIFT (cwnd_count = acks) */
    /* HyStart */
    bool found;
    uint8_t sample_cnt;
    uint64_t round_start, last_ack; /* us */
    uint64_t end_seq;
    uint32_t curr_rtt;
} CubicState;

G_STATIC_ASSERT(sizeof(CubicState) <= sizeof(((TcpSock *)0)->ca_priv));

static CubicState *cubic(TcpSock *tp)
{
    return (CubicState *)tp->ca_priv;
}

static uint64_t cubic_now_us(const TcpSock *tp)
{
    return (uint64_t)sim_now(tcp_sim(tp)) / SIM_US;
}

/* floor(cbrt(a)) by bisection below 2^22 (cbrt(2^64) < 2^22: any 64-bit a). */
static uint32_t cubic_root(uint64_t a)
{
    uint64_t lo = 0, hi = 1u << 22;
    while (lo < hi) {
        uint64_t mid = (lo + hi + 1) / 2;
        if ((unsigned __int128)mid * mid * mid <= a)
            lo = mid;
        else
            hi = mid - 1;
    }
    return (uint32_t)lo;
}

static void bictcp_reset(CubicState *ca)
{
    memset(ca, 0, offsetof(CubicState, found));
    ca->delayed_ack = ACK_RATIO_INIT;
    ca->found = false;
}

/* 3.x bictcp_clock(): milliseconds, jiffies_to_msecs(jiffies) at HZ >= 1000 (so on the host's
 * tick) and the wall clock's ms (ktime_get_real) below. */
static uint64_t bictcp_clock_ms(const TcpSock *tp)
{
    if (tp->hz >= 1000)
        return tcp_jiffies(tp) * 1000u / tp->hz;
    return (uint64_t)sim_now(tcp_sim(tp)) / SIM_MS;
}

/* The clock HyStart's ACK train runs on: microseconds, or milliseconds in 2.6.39-3.x. */
static uint64_t hystart_now(const TcpSock *tp)
{
    return tcp_conf(tp)->hystart == TCP_HYSTART_3X ? bictcp_clock_ms(tp) : cubic_now_us(tp);
}

static void bictcp_hystart_reset(TcpSock *tp)
{
    CubicState *ca = cubic(tp);
    ca->round_start = ca->last_ack = hystart_now(tp);
    ca->end_seq = tp->snd_nxt;
    ca->curr_rtt = UINT32_MAX;
    ca->sample_cnt = 0;
}

static void cubictcp_init(TcpSock *tp)
{
    bictcp_reset(cubic(tp));
    bictcp_hystart_reset(tp);
}

/* Start an epoch: the curve restarts at cwnd, with its plateau at W_max. */
static void cubic_epoch_start(TcpSock *tp, CubicState *ca, uint32_t cwnd, uint32_t acked, uint64_t now)
{
    ca->epoch_start = now;
    ca->in_epoch = true;
    ca->ack_cnt = acked;
    ca->tcp_cwnd = cwnd;
    (void)tp;
    if (ca->last_max_cwnd <= cwnd) {
        ca->bic_K = 0;
        ca->bic_origin_point = cwnd;
    } else {
        /* K = cbrt((W_max - cwnd) / C) in 2^-10 s: cube_factor = 2^(10 + 3*10) / cube_rtt_scale */
        uint64_t cube_factor = (1ull << (10 + 3 * BICTCP_HZ)) / CUBE_RTT_SCALE;
        ca->bic_K = cubic_root(cube_factor * (ca->last_max_cwnd - cwnd));
        ca->bic_origin_point = ca->last_max_cwnd;
    }
}

/* cnt from the cubic curve at t = now - epoch + min RTT. */
static void cubic_curve_cnt(TcpSock *tp, CubicState *ca, uint32_t cwnd, uint64_t now)
{
    uint64_t t = now - ca->epoch_start + usecs_to_jiffies_hz(ca->delay_min, tp->hz);
    t = (t << BICTCP_HZ) / tp->hz;
    uint64_t offs = t < ca->bic_K ? ca->bic_K - t : t - ca->bic_K;
    unsigned __int128 d = (unsigned __int128)CUBE_RTT_SCALE * offs * offs * offs;
    uint64_t delta = (uint64_t)(d >> (10 + 3 * BICTCP_HZ));
    uint64_t target = t < ca->bic_K ? ca->bic_origin_point - delta : ca->bic_origin_point + delta;
    if (t < ca->bic_K && delta > ca->bic_origin_point)
        target = 0;
    if (target > cwnd)
        ca->cnt = (uint32_t)(cwnd / (target - cwnd));
    else
        ca->cnt = 100u * cwnd; /* very small increment */
    if (ca->last_max_cwnd == 0 && ca->cnt > 20)
        ca->cnt = 20; /* at least 5% per RTT before the first loss */
}

/* Reno-friendliness: never slower than Reno's cwnd estimate. */
static void cubic_tcp_friendliness(CubicState *ca, uint32_t cwnd)
{
    uint32_t delta = (cwnd * CUBIC_BETA_SCALE) >> 3;
    if (!delta)
        delta = 1;
    while (ca->ack_cnt > delta) {
        ca->ack_cnt -= delta;
        ca->tcp_cwnd++;
    }
    if (ca->tcp_cwnd > cwnd) {
        uint32_t max_cnt = cwnd / (ca->tcp_cwnd - cwnd);
        if (ca->cnt > max_cnt)
            ca->cnt = max_cnt;
    }
}

static void bictcp_update(TcpSock *tp, CubicState *ca, uint32_t cwnd, uint32_t acked)
{
    uint64_t now = tcp_jiffies(tp);
    ca->ack_cnt += acked;
    if (ca->last_cwnd == cwnd && now - ca->last_time <= tp->hz / 32) /* HZ/32: ~31 ms */
        return;
    if (!(ca->in_epoch && now == ca->last_time)) { /* at most once per jiffy */
        ca->last_cwnd = cwnd;
        ca->last_time = now;
        if (!ca->in_epoch)
            cubic_epoch_start(tp, ca, cwnd, acked, now);
        cubic_curve_cnt(tp, ca, cwnd, now);
    }
    cubic_tcp_friendliness(ca, cwnd);
    if (ca->cnt < 2)
        ca->cnt = 2; /* at most 1.5x per RTT */
}

/* 3.x bictcp_update, once per ACK: recompute cnt unless cwnd is unchanged within HZ/32, then
 * divide it by the packets-per-ACK estimate so that growth per RTT does not depend on how many
 * segments each ACK covers. */
static void bictcp_update_per_ack(TcpSock *tp, CubicState *ca, uint32_t cwnd)
{
    uint64_t now = tcp_jiffies(tp);
    ca->ack_cnt++;
    if (ca->last_cwnd == cwnd && now - ca->last_time <= tp->hz / 32)
        return;
    ca->last_cwnd = cwnd;
    ca->last_time = now;
    if (!ca->in_epoch)
        cubic_epoch_start(tp, ca, cwnd, 1, now);
    cubic_curve_cnt(tp, ca, cwnd, now);
    cubic_tcp_friendliness(ca, cwnd);
    ca->cnt = (uint32_t)(((uint64_t)ca->cnt << ACK_RATIO_SHIFT) / ca->delayed_ack);
    if (ca->cnt == 0)
        ca->cnt = 1;
}

static void cubictcp_cong_avoid(TcpSock *tp, uint64_t ack, uint32_t acked)
{
    /* 3.x starts HyStart's next round here, after pkts_acked has judged this ACK against the
     * round it ends (3.4 bictcp_cong_avoid: cwnd-limited, in slow start, ack after end_seq) */
    if (tcp_conf(tp)->hystart == TCP_HYSTART_3X && tcp_is_cwnd_limited(tp) &&
        tp->snd_cwnd <= tp->snd_ssthresh && ack > cubic(tp)->end_seq)
        bictcp_hystart_reset(tp);
    if (!tcp_cong_avoid_start(tp, &acked))
        return;
    if (tcp_conf(tp)->cwnd_count == TCP_CWND_COUNT_ACKS)
        bictcp_update_per_ack(tp, cubic(tp), tp->snd_cwnd);
    else
        bictcp_update(tp, cubic(tp), tp->snd_cwnd, acked);
    tcp_cong_avoid_ai(tp, cubic(tp)->cnt, acked);
}

static uint32_t cubictcp_recalc_ssthresh(TcpSock *tp)
{
    CubicState *ca = cubic(tp);
    uint32_t cwnd = tp->snd_cwnd;
    ca->in_epoch = false; /* end of epoch */
    if (cwnd < ca->last_max_cwnd) /* fast convergence */
        ca->last_max_cwnd = (cwnd * (BICTCP_BETA_SCALE + CUBIC_BETA)) / (2u * BICTCP_BETA_SCALE);
    else
        ca->last_max_cwnd = cwnd;
    uint32_t ss = (cwnd * CUBIC_BETA) / BICTCP_BETA_SCALE;
    return ss > 2 ? ss : 2;
}

static void cubictcp_state(TcpSock *tp, uint8_t new_state)
{
    if (new_state == TCP_CA_Loss) {
        bictcp_reset(cubic(tp));
        bictcp_hystart_reset(tp);
    }
}

static void cubictcp_cwnd_event(TcpSock *tp, TcpCaEvent ev)
{
    CubicState *ca = cubic(tp);
    /* 3.x CUBIC (cwnd_count acks, <= 3.13) had no cwnd_event: the shift is 4.3's */
    if (ev != CA_EVENT_TX_START || !ca->in_epoch ||
        tcp_conf(tp)->cwnd_count == TCP_CWND_COUNT_ACKS)
        return;
    /* idle (application limited): shift the epoch to keep growth on the curve (30927520dbae
     * "tcp_cubic: better follow cubic curve after idle period", 4.3) */
    uint64_t now = tcp_jiffies(tp);
    if (now > tp->lsndtime) {
        ca->epoch_start += now - tp->lsndtime;
        if (ca->epoch_start > now)
            ca->epoch_start = now;
    }
}

static uint32_t hystart_ack_delay(const TcpSock *tp)
{
    if (!tp->pacing_rate)
        return 0;
    /* hystart_ack_delay: 4 GSO packets at the pacing rate (TSO/GRO batching), at most 1 ms */
    uint64_t d = (uint64_t)TCP_GSO_MAX_SIZE * 4u * 1000000u / tp->pacing_rate;
    return d < 1000 ? (uint32_t)d : 1000u;
}

static void hystart_found(TcpSock *tp, CubicState *ca)
{
    ca->found = true;
    tp->snd_ssthresh = tp->snd_cwnd;
}

/* 2.6.39-3.x (3.4/3.6 tcp_cubic.c hystart_update, bictcp_acked): delays in 1/8 ms
 * ((rtt_us << 3) / 1000, at least 1), so a LAN RTT is 1 and delay_min >> 4 is 0; the ACK train
 * runs on bictcp_clock()'s milliseconds (ACKs at most hystart_ack_delta = 2 ms apart) and must
 * span MORE than delay_min >> 4 of them: at a LAN RTT, an ACK a millisecond tick after its
 * round's start. The delay threshold is clamp(delay_min >> 4, 4 ms, 16 ms). Both detectors are
 * checked on every ACK of the round. (2.6.29-2.6.38 had the train in jiffies with >= and a 2 ms
 * floor: every LAN round ended slow start at cwnd 16.) */
#define HYSTART_3X_DELAY_MIN (4u << 3) /* HYSTART_DELAY_MIN: 4 ms in 1/8 ms */
#define HYSTART_3X_DELAY_MAX (16u << 3)
#define HYSTART_3X_ACK_DELTA 2u        /* hystart_ack_delta, ms */

static uint32_t hystart_3x_delay(uint32_t us)
{
    uint32_t d = (uint32_t)(((uint64_t)us << 3) / 1000u);
    return d ? d : 1u;
}

static void hystart_update_3x(TcpSock *tp, CubicState *ca, uint32_t delay_us)
{
    uint32_t delay = hystart_3x_delay(delay_us);
    uint32_t delay_min = hystart_3x_delay(ca->delay_min); /* floor keeps the minimum's order */
    uint64_t now = bictcp_clock_ms(tp);
    if (now - ca->last_ack <= HYSTART_3X_ACK_DELTA) {
        ca->last_ack = now;
        if (now - ca->round_start > (delay_min >> 4)) {
            hystart_found(tp, ca);
            return;
        }
    }
    if (ca->sample_cnt < HYSTART_MIN_SAMPLES) {
        if (ca->curr_rtt > delay)
            ca->curr_rtt = delay;
        ca->sample_cnt++;
        return;
    }
    uint32_t thresh = delay_min >> 4;
    thresh = thresh < HYSTART_3X_DELAY_MIN ? HYSTART_3X_DELAY_MIN
           : thresh > HYSTART_3X_DELAY_MAX ? HYSTART_3X_DELAY_MAX : thresh;
    if (ca->curr_rtt > delay_min + thresh)
        hystart_found(tp, ca);
}

static void hystart_update(TcpSock *tp, CubicState *ca, uint32_t delay)
{
    if (tcp_conf(tp)->hystart == TCP_HYSTART_3X) { /* its round starts in cong_avoid */
        if (tp->snd_cwnd >= HYSTART_LOW_WINDOW)
            hystart_update_3x(tp, ca, delay);
        return;
    }
    /* 5.8+ bictcp_acked calls hystart_update, which starts the next round, only from cwnd
     * hystart_low_window on: the first round starts mid-flight at the first such ACK */
    if (tp->snd_cwnd < HYSTART_LOW_WINDOW || tcp_conf(tp)->hystart == TCP_HYSTART_OFF)
        return;
    if (tp->snd_una > ca->end_seq)
        bictcp_hystart_reset(tp);
    uint64_t now = cubic_now_us(tp);
    if (now - ca->last_ack <= HYSTART_ACK_DELTA_US) { /* ACK train */
        ca->last_ack = now;
        /* half delay_min unless paced (sk_pacing_status SK_PACING_NONE): pacing may delay
         * packets up to RTT/2 in slow start */
        uint32_t threshold = ca->delay_min + hystart_ack_delay(tp);
        if (!tcp_conf(tp)->pacing)
            threshold >>= 1;
        if (now - ca->round_start > threshold) {
            hystart_found(tp, ca);
            return;
        }
    }
    if (ca->curr_rtt > delay)
        ca->curr_rtt = delay;
    if (ca->sample_cnt < HYSTART_MIN_SAMPLES) {
        ca->sample_cnt++;
        return;
    }
    uint32_t thresh = ca->delay_min >> 3;
    thresh = thresh < HYSTART_DELAY_MIN_US ? HYSTART_DELAY_MIN_US
           : thresh > HYSTART_DELAY_MAX_US ? HYSTART_DELAY_MAX_US : thresh;
    if (ca->curr_rtt > ca->delay_min + thresh)
        hystart_found(tp, ca);
}

/* 3.x bictcp_acked: ratio = 15/16 ratio + packets this ACK acked, in the Open state only. */
static void cubic_track_ack_ratio(TcpSock *tp, CubicState *ca, uint32_t pkts_acked)
{
    if (tcp_conf(tp)->cwnd_count != TCP_CWND_COUNT_ACKS || !pkts_acked ||
        tp->ca_state != TCP_CA_Open)
        return;
    uint64_t ratio = ca->delayed_ack - (ca->delayed_ack >> ACK_RATIO_SHIFT) + (uint64_t)pkts_acked;
    ca->delayed_ack = ratio < ACK_RATIO_LIMIT ? (uint32_t)ratio : ACK_RATIO_LIMIT;
}

static void cubictcp_acked(TcpSock *tp, uint32_t pkts_acked, int32_t rtt_us)
{
    CubicState *ca = cubic(tp);
    cubic_track_ack_ratio(tp, ca, pkts_acked);
    if (rtt_us < 0)
        return;
    /* discard delay samples right after a reduction */
    if (ca->in_epoch && tcp_jiffies(tp) - ca->epoch_start < tp->hz)
        return;
    uint32_t delay = rtt_us ? (uint32_t)rtt_us : 1;
    if (!ca->delay_min || ca->delay_min > delay)
        ca->delay_min = delay;
    bool slow_start = tcp_conf(tp)->hystart == TCP_HYSTART_3X
                          ? tp->snd_cwnd <= tp->snd_ssthresh /* 3.x: cwnd <= ssthresh */
                          : tcp_in_slow_start(tp);
    if (!ca->found && slow_start)
        hystart_update(tp, ca, delay);
}

static const TcpCongOps tcp_cubic = {
    .name = "cubic",
    .ssthresh = cubictcp_recalc_ssthresh,
    .cong_avoid = cubictcp_cong_avoid,
    .undo_cwnd = tcp_reno_undo_cwnd,
    .init = cubictcp_init,
    .set_state = cubictcp_state,
    .cwnd_event = cubictcp_cwnd_event,
    .pkts_acked = cubictcp_acked,
};

const TcpCongOps *tcp_cubic_ops(void)
{
    return &tcp_cubic;
}
