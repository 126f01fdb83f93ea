/* tcp_internal.h - the TcpSock and the prototypes the tcp_*.c files share (opaque elsewhere).
 *
 * Field names follow the kernel's struct tcp_sock / inet_connection_sock so that a reader can
 * map each line to Linux: snd_una, snd_nxt, rcv_nxt, rcv_wup, srtt_us (8 x SRTT), icsk_pending,
 * icsk_ack.pending, ... Sequence numbers are 64-bit and never wrap, so plain comparisons replace
 * the kernel's before()/after(). Time: sim_time_t ns for skb stamps and tcp_mstamp, microseconds
 * where the kernel keeps microseconds (RTT state), jiffies of the host's HZ for timer_list
 * values (icsk_rto, ato, timeouts), milliseconds for the timestamp option (TCP_TS_HZ = 1000;
 * microseconds with hosts.H.tcp.usec_ts).
 * Constants cite shared/notes/kernel-tcp-timers-acks.md ("T.x") or kernel-host-mechanics.md
 * ("H.x").
 */
#ifndef SKSIM_TCP_INTERNAL_H
#define SKSIM_TCP_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "models/cpu.h"
#include "models/host.h"
#include "models/skb.h"
#include "models/sock.h"
#include "models/tcp.h"
#include "sim/ktimer.h"

/* ---- constants (T.0.1 table; in jiffies they scale with the host's HZ) ---- */
#define TCP_MAX_QUICKACKS 16u          /* T.0.1 */
#define TCP_FASTRETRANS_THRESH 3u      /* T.0.1: dupthresh, initial tp->reordering */
#define TCP_INIT_CWND 10u              /* T.0.1/F.1: IW10 (2.6.39+) */
#define TCP_INFINITE_SSTHRESH 0x7fffffffu /* T.0.1 */
#define TCP_MSS_DEFAULT 536u           /* T.0.1 / A.2 */
#define TCP_MIN_MSS 88u                /* T.0.1 / A.2 */
#define TCP_TIMEOUT_MIN_US 2000u       /* T.0.1: the TLP and RACK timers' 2 ms floor (6.6) */
#define TCP_RTO_MAX_SEC 120u           /* T.0.1: TCP_RTO_MAX = 120 s */
#define TCP_RACK_RECOVERY_THRESH 16u   /* T.D.4 */
#define TCP_TS_HZ 1000u                /* T.0: TSval ticks in ms since 4.13 */
#define TCP_HDR_LEN 20u                /* struct tcphdr */
#define TCPOLEN_TSTAMP_ALIGNED 12u     /* timestamps option as Linux aligns it */
#define TCP_GSO_MAX_SIZE 65536u        /* H.D.2 / E.2: GSO_LEGACY_MAX_SIZE */
#define TCP_TSO_WIN_DIVISOR 3u         /* net.ipv4.tcp_tso_win_divisor */
#define TCP_MIN_TSO_SEGS 2u            /* T.0.1 sysctl tcp_min_tso_segs */
#define TCP_TSO_RTT_LOG 9u             /* T.0.1: tcp_tso_rtt_log = 2^9 us */
#define TCP_PACING_SHIFT 10u           /* H.0: sk_pacing_shift, ~1 ms of data */
#define TCP_PACING_SS_RATIO 200u       /* T.0.1 tcp_pacing_ss_ratio */
#define TCP_PACING_CA_RATIO 120u       /* T.0.1 tcp_pacing_ca_ratio */
#define TCP_WMEM_MAX (4u << 20)        /* H.0: tcp_wmem[2] = 4 MiB, sndbuf autotuning ceiling */
#define TCP_RMEM_MIN 4096u             /* H.0: tcp_rmem[0] */
#define SKB_TRUESIZE_OVERHEAD 576u     /* H.B.4: aligned sk_buff (256) + skb_shared_info (~320) */
#define MAX_TCP_HEADER 320u            /* H.B.4 per_mss formula: L1-aligned header room */
#define TCP_SEND_PAGE 4096u            /* <= 3.6 tcp_sendmsg: one order-0 page per 4 KiB copied */
/* sk->sk_gso_max_size: the payload one TSO skb may carry, the device's 64 KB less MAX_TCP_HEADER
 * + 1 (net/core/sock.c sk_setup_caps(): "sk->sk_gso_max_size -= (MAX_TCP_HEADER + 1)", from
 * "net: Adjust sk_gso_max_size once when set", David Ahern, Jan 2022; before it
 * tcp_xmit_size_goal() and tcp_tso_autosize() each took "sk_gso_max_size - 1 - MAX_TCP_HEADER",
 * and 2.6/3.x tcp_xmit_size_goal() "(sk_gso_max_size - 1) - IP and TCP header lengths").
 * So a TSO skb stays below 65536 B: 15 x 4096 = 61440 at MSS 4096 (not 16 x 4096), 45 x 1448
 * at MSS 1448 and 7 x 8948 at MSS 8948 in every era. */
#define TCP_SK_GSO_MAX_SIZE (TCP_GSO_MAX_SIZE - (MAX_TCP_HEADER + 1u))
#define SKB_SHINFO_SIZE 320u           /* H.B.4: aligned skb_shared_info */
#define SKB_HEAD_SIZE 256u             /* H.B.4: aligned sizeof(struct sk_buff) */
#define TCP_ACK_TRUESIZE 1024u         /* H.B.4: a locally built ACK is ~0.8-1.3 KB */
#define TCP_PREQUEUE_MAX_SKBS 32u      /* H.A.3 4.x prequeue limit (>= 32 skbs: process now) */

/* icsk_pending values (T.0.1, include/net/inet_connection_sock.h) */
enum { ICSK_TIME_RETRANS = 1, ICSK_TIME_DACK = 2, ICSK_TIME_PROBE0 = 3, ICSK_TIME_LOSS_PROBE = 5,
       ICSK_TIME_REO_TIMEOUT = 6 };
/* icsk_ack.pending bits (T.A.1) */
enum { ICSK_ACK_SCHED = 1, ICSK_ACK_TIMER = 2, ICSK_ACK_PUSHED = 4, ICSK_ACK_PUSHED2 = 8,
       ICSK_ACK_NOW = 16, ICSK_ACK_NOMEM = 32 };
/* sk_tsq_flags (H.A.7) */
enum { TSQF_THROTTLED = 1, TCPF_TSQ_DEFERRED = 2, TCPF_WRITE_TIMER_DEFERRED = 4,
       TCPF_DELACK_TIMER_DEFERRED = 8, TCPF_ACK_DEFERRED = 16 };
#define TCP_DEFERRED_ALL (TCPF_TSQ_DEFERRED | TCPF_WRITE_TIMER_DEFERRED | \
                          TCPF_DELACK_TIMER_DEFERRED | TCPF_ACK_DEFERRED)
/* TCP_SKB_CB(skb)->sacked bits, kernel values */
enum { TCPCB_SACKED_ACKED = 0x01, TCPCB_SACKED_RETRANS = 0x02, TCPCB_LOST = 0x04,
       TCPCB_EVER_RETRANS = 0x80 };
#define TCPCB_RETRANS (TCPCB_SACKED_RETRANS | TCPCB_EVER_RETRANS)
/* Congestion-avoidance states (icsk_ca_state) */
enum { TCP_CA_Open = 0, TCP_CA_Disorder = 1, TCP_CA_CWR = 2, TCP_CA_Recovery = 3, TCP_CA_Loss = 4 };
/* Nagle modes */
enum { TCP_NAGLE_OFF = 1, TCP_NAGLE_CORK = 2, TCP_NAGLE_PUSH = 4 };
/* Retransmit decision of tcp_fastretrans_alert (kernel: REXMIT_NONE/LOST/NEW) */
enum { REXMIT_NONE = 0, REXMIT_LOST = 1, REXMIT_NEW = 2 };
/* Congestion-control events */
typedef enum { CA_EVENT_TX_START, CA_EVENT_CWND_RESTART, CA_EVENT_COMPLETE_CWR, CA_EVENT_LOSS } TcpCaEvent;

/* tcp_ack() flags (kernel FLAG_* names) */
enum {
    FLAG_DATA = 0x01, FLAG_WIN_UPDATE = 0x02, FLAG_DATA_ACKED = 0x04, FLAG_RETRANS_DATA_ACKED = 0x08,
    FLAG_SYN_ACKED = 0x10, FLAG_DATA_SACKED = 0x20, FLAG_ECE = 0x40, FLAG_LOST_RETRANS = 0x80,
    FLAG_SLOWPATH = 0x100, FLAG_ORIG_SACK_ACKED = 0x200, FLAG_SND_UNA_ADVANCED = 0x400,
    FLAG_DSACKING_ACK = 0x800, FLAG_SET_XMIT_TIMER = 0x1000, FLAG_SACK_RENEGING = 0x2000,
    FLAG_UPDATE_TS_RECENT = 0x4000, FLAG_NO_CHALLENGE_ACK = 0x8000, FLAG_ACK_MAYBE_DELAYED = 0x10000,
    FLAG_DSACK_TLP = 0x20000,
};
#define FLAG_ACKED (FLAG_DATA_ACKED | FLAG_SYN_ACKED)
#define FLAG_NOT_DUP (FLAG_DATA | FLAG_WIN_UPDATE | FLAG_ACKED)
#define FLAG_CA_ALERT (FLAG_DATA_SACKED | FLAG_ECE | FLAG_DSACKING_ACK)
#define FLAG_FORWARD_PROGRESS (FLAG_ACKED | FLAG_DATA_SACKED)

typedef struct TcpCongOps TcpCongOps;

typedef struct IcskAck {
    uint8_t pending;        /* ICSK_ACK_* */
    uint8_t quick;          /* quick-ACK budget (A.4) */
    uint8_t pingpong;       /* interactive-mode counter (A.5; tcp.pingpong_thresh) */
    uint8_t blocked;        /* the delayed-ACK timer found the socket owned (2.6-5.9, A.10) */
    uint32_t ato;           /* jiffies */
    uint64_t timeout;       /* jiffies of the pending delayed ACK */
    uint64_t lrcvtime;      /* jiffies of the last data receipt */
    uint32_t rcv_mss;
    uint32_t last_seg_size;
} IcskAck;

typedef struct TcpRack {
    sim_time_t mstamp;      /* xmit time of the latest (s)acked skb */
    uint64_t end_seq;
    uint32_t rtt_us;
    uint8_t advanced;
    uint8_t reo_wnd_steps;
    uint8_t reo_wnd_persist;
    uint8_t dsack_seen;
    uint64_t last_delivered;
} TcpRack;

typedef struct TcpRcvqSpace {
    uint32_t space;
    uint64_t seq;
    sim_time_t time;
} TcpRcvqSpace;

struct TcpSock {
    Sock sk;                       /* FIRST: a Sock* is a TcpSock* (tcp_from_sk) */
    uint32_t hz;
    sim_time_t tick_phase;         /* the host's jiffies tick offset (ktimer.h) */
    uint16_t peer_host, peer_port;
    struct TcpSock *peer;          /* the other end (tcp_connect_pair); read only by tcp_diag.c */
    TcpXmitHook xmit;              /* NULL = ip_output */
    void *xmit_ctx;
    /* negotiated options */
    bool sack_ok, ts_ok, gso_ok;
    uint8_t rcv_wscale, snd_wscale;
    uint32_t mss_cache, advmss;
    uint32_t mss_pmtu;             /* the MSS the path MTU allows; mss_cache is it bounded by the
                                    * peer's window (tcp_sync_mss) */
    /* ---- sender ---- */
    uint64_t snd_una, snd_nxt, write_seq, pushed_seq, snd_sml, snd_wl1;
    uint32_t sndpage_used; /* <= 3.6 (tcp.sendmsg_frag 4k): bytes of the current send page */
    uint32_t snd_wnd, max_window;
    SkbQueue write_queue;          /* not yet sent */
    SkbQueue rtx_queue;            /* sent, not cumulatively acked, in sequence order */
    uint32_t packets_out, sacked_out, lost_out, retrans_out;
    uint32_t snd_cwnd, snd_ssthresh, snd_cwnd_cnt, snd_cwnd_clamp;
    uint32_t prior_cwnd, prior_ssthresh;
    uint32_t max_packets_out;
    uint64_t cwnd_usage_seq;
    bool is_cwnd_limited;
    uint32_t prior_in_flight;      /* packets in flight when the current ACK came (tcp.cwnd_limited
                                    * in_flight: <= 3.15 tcp_ack's prior_in_flight) */
    bool cwnd_moderate;            /* this ACK ends in tcp_moderate_cwnd (tcp.moderate_cwnd) */
    uint32_t snd_cwnd_used;        /* most packets out while not cwnd-limited (RFC 2861) */
    uint64_t snd_cwnd_stamp;       /* jiffies when cwnd was last grown, set or validated */
    uint32_t prr_delivered, prr_out;
    uint32_t reordering;
    bool reord_seen;
    uint64_t high_seq, undo_marker;
    int32_t undo_retrans;
    uint32_t retrans_stamp;        /* TS clock (ms) of the first retransmission, 0 = none */
    uint64_t total_retrans, dsack_dups;
    uint64_t tlp_high_seq;
    bool tlp_retrans;
    uint8_t frto;
    uint8_t ca_state;
    uint64_t delivered;
    uint64_t lsndtime;             /* jiffies of the last data sent */
    uint64_t pacing_rate;          /* bytes/s; 0 = unlimited (no RTT yet) */
    /* internal pacing (hosts.H.tcp.pacing, EDT 4.20+, T.F.4) */
    sim_time_t tcp_wstamp_ns;      /* earliest departure time of the next skb */
    uint64_t tso_deferred;         /* 3.x TSO deferral: 1 + jiffies when it began, 0 = none */
    uint64_t data_segs_out;        /* data segments sent, retransmissions included */
    SimEvent pacing_timer;         /* the pacing hrtimer (ns), pinned to pacing_cpu */
    Cpu *pacing_cpu;
    uint32_t tso_segs_goal;        /* tp->gso_segs of tcp_xmit_size_goal */
    /* RTT (T.C.2) */
    uint32_t srtt_us;              /* 8 x SRTT */
    uint32_t mdev_us, mdev_max_us, rttvar_us;
    uint64_t rtt_seq;
    uint32_t min_rtt_us;           /* 0 = none */
    sim_time_t tcp_mstamp;         /* ns clock refreshed per event (tcp_mstamp_refresh) */
    /* timers (B.5): one retransmit timer shared by RTO/TLP/REO, one delayed-ACK timer */
    KTimer rtx_timer, delack_timer;
    Cpu *rtx_timer_cpu, *delack_timer_cpu;
    SoftirqWork rtx_work, delack_work, tsq_work;
    Cpu *tsq_cpu;
    /* SACK compression (4.18+, hosts.H.tcp.comp_sack_nr): ACKs held, the hrtimer that sends one */
    uint32_t compressed_ack;
    uint8_t dup_ack_counter;       /* ACKs sent at once for compressed_ack_rcv_nxt (up to 3) */
    uint64_t compressed_ack_rcv_nxt;
    SimEvent compressed_ack_timer; /* HRTIMER_MODE_REL_PINNED_SOFT: runs on comp_ack_cpu */
    Cpu *comp_ack_cpu;
    SoftirqWork comp_ack_work;
    uint8_t icsk_pending;
    uint64_t icsk_timeout;         /* jiffies */
    uint32_t icsk_rto;             /* jiffies */
    uint8_t icsk_backoff, icsk_retransmits;
    uint8_t icsk_probes_out;       /* unanswered zero-window probes */
    uint32_t tsq_flags;
    /* RACK */
    TcpRack rack;
    /* congestion control */
    const TcpCongOps *ca_ops;
    uint64_t ca_priv[16];
    /* ---- receiver ---- */
    uint64_t rcv_nxt, rcv_wup, copied_seq;
    uint32_t rcv_wnd, rcv_ssthresh, window_clamp;
    uint8_t scaling_ratio;         /* skb->len / truesize in 1/256ths (6.5+, win_scaling) */
    SkbQueue rcv_queue;
    SkbQueue ofo_queue;            /* sorted by seq */
    IcskAck ack;
    bool pred_ok;                  /* header prediction may be used */
    /* timestamps (rx_opt) */
    bool saw_tstamp;
    uint32_t rcv_tsval, rcv_tsecr, ts_recent;
    /* SACK generation */
    SackBlock selective_acks[SKB_MAX_SACKS];
    uint8_t num_sacks;
    bool dsack;
    SackBlock duplicate_sack;
    /* receive-side RTT (tcp_rcv_rtt_measure_ts) and buffer autotuning */
    uint32_t rcv_rtt_us;           /* 8 x estimate, like tp->rcv_rtt_est.rtt_us */
    TcpRcvqSpace rcvq_space;
    /* prequeue (<= 4.13, A.12) */
    SkbQueue prequeue;
    uint64_t ucopy_memory;
    Task *ucopy_task;
    TcpCall *ucopy_call;           /* its recvmsg call: tp->ucopy.len = len - done (A.12) */
    /* process-side waiters */
    Task *rcv_waiter, *snd_waiter;
    bool sock_nospace, queue_shrunk;
    uint32_t rcv_rtt_last_tsecr;
    uint64_t rcv_rtt_est_seq;      /* tcp_rcv_rtt_measure: rcv_nxt + rcv_wnd when it started */
    sim_time_t rcv_rtt_est_time;   /* ... and its tcp_mstamp (0: none running) */
    /* results and model statistics */
    uint64_t bytes_acked, bytes_received;
    /* tcp_sk_reset_timer outcomes per timer: [0] retransmit, [1] delayed ACK; timer_mod_remote
     * counts the slow paths that found the timer on another CPU's base */
    uint64_t timer_mod_shortcut[2], timer_mod_slow[2], timer_mod_remote[2];
};

static inline Host *tcp_host(const TcpSock *tp)
{
    return tp->sk.host;
}
static inline const TcpConf *tcp_conf(const TcpSock *tp)
{
    return &tp->sk.host->conf->tcp;
}
/* The initial window of the kernel's era (hosts.H.tcp.init_cwnd), before the clamp: 10 since
 * 2.6.39 (442b9635c569); before, tcp_init_cwnd() took RFC 3390's by the current MSS. */
static inline uint32_t tcp_era_init_cwnd(const TcpSock *tp)
{
    if (tcp_conf(tp)->init_cwnd == TCP_INIT_CWND_IW10)
        return TCP_INIT_CWND;
    if (tp->mss_cache > 1460)
        return 2;
    return tp->mss_cache > 1095 ? 3 : 4;
}
static inline const StackConf *tcp_stack(const TcpSock *tp)
{
    return tp->sk.host->stack;
}
static inline Sim *tcp_sim(const TcpSock *tp)
{
    return tp->sk.host->sim;
}
static inline void tcp_charge(const TcpSock *tp, Cpu *cpu, CostId id)
{
    (void)tp; /* the CPU's host is the socket's */
    cpu_charge_cost(cpu, id);
}
static inline void tcp_count(TcpSock *tp, CounterId id, uint64_t n)
{
    tp->sk.host->ctr.v[id] += n;
}
static inline uint64_t tcp_jiffies(const TcpSock *tp)
{
    return ktimer_jiffies(tcp_sim(tp), tp->hz, tp->tick_phase);
}
/* The host's jiffies counter at time t, as tcp_jiffies() counts now (ktimer_jiffies). */
static inline uint64_t tcp_jiffies_at(const TcpSock *tp, sim_time_t t)
{
    uint64_t ns = (uint64_t)t + (uint64_t)tp->tick_phase;
    const uint64_t s = (uint64_t)SIM_S;
    return ns / s * tp->hz + ns % s * tp->hz / s;
}
/* Microseconds per tick of this host's TS clock: 1000 (TCP_TS_HZ), or 1 with tcp_usec_ts. */
static inline uint32_t tcp_ts_tick_us(const TcpSock *tp)
{
    return tcp_conf(tp)->usec_ts ? 1u : 1000000u / TCP_TS_HZ;
}
/* A time on the TS clock, starting at 1: Linux's is offset from boot (and per connection), and
 * a zero TSecr / retrans_stamp means "none" to the RTT fallback and to Eifel detection. */
static inline uint32_t tcp_ts_at(const TcpSock *tp, sim_time_t t)
{
    return (uint32_t)(t / ((sim_time_t)tcp_ts_tick_us(tp) * SIM_US)) + 1u;
}
/* tcp_time_stamp_ts: now on the TS clock (ms, or us with tcp_usec_ts; wraps like the kernel's). */
static inline uint32_t tcp_time_stamp_ts(const TcpSock *tp)
{
    return tcp_ts_at(tp, sim_now(tcp_sim(tp)));
}
/* tcp_rto_min: jiffies (a route's rto_min goes through msecs_to_jiffies, rounding up), and
 * tcp_rto_min_us is jiffies_to_usecs of that, so HZ 250 makes 5 ms a floor of 8 ms. */
static inline uint32_t tcp_rto_min(const TcpSock *tp)
{
    return (uint32_t)ktimer_ns_to_jiffies(tcp_conf(tp)->rto_min_ns, tp->hz);
}
static inline uint32_t tcp_rto_min_us(const TcpSock *tp)
{
    return (uint32_t)((uint64_t)tcp_rto_min(tp) * 1000000u / tp->hz);
}
static inline uint32_t usecs_to_jiffies_hz(uint64_t us, uint32_t hz)
{
    return (uint32_t)ktimer_ns_to_jiffies((sim_time_t)us * SIM_US, hz);
}
static inline uint64_t jiffies_to_usecs_hz(uint64_t j, uint32_t hz)
{
    return j * 1000000u / hz;
}
/* HZ-derived kernel constants (T.0.1): DELACK_MIN = ATO_MIN = HZ/25 (4 if HZ < 100),
 * DELACK_MAX = HZ/5, TIMEOUT_INIT = HZ, TIMEOUT_MIN = 2 jiffies, RTO_MAX = 120 HZ,
 * RESOURCE_PROBE_INTERVAL = HZ/2. */
static inline uint32_t tcp_ato_min(const TcpSock *tp)
{
    return tp->hz < 100 ? 4u : tp->hz / 25u;
}
static inline uint32_t tcp_delack_max_j(const TcpSock *tp)
{
    return tp->hz / 5u;
}
static inline uint32_t tcp_rto_max(const TcpSock *tp)
{
    return TCP_RTO_MAX_SEC * tp->hz;
}
static inline uint32_t tcp_timeout_init(const TcpSock *tp)
{
    return tp->hz;
}
/* TCP_RESOURCE_PROBE_INTERVAL = HZ/2: how soon a timer retries a send the qdisc refused. */
static inline uint32_t tcp_resource_probe_interval(const TcpSock *tp)
{
    return tp->hz / 2u;
}

static inline uint32_t tcp_packets_in_flight(const TcpSock *tp)
{
    return tp->packets_out - (tp->sacked_out + tp->lost_out) + tp->retrans_out;
}
static inline uint32_t tcp_left_out(const TcpSock *tp)
{
    return tp->sacked_out + tp->lost_out;
}
static inline bool tcp_in_slow_start(const TcpSock *tp)
{
    return tp->snd_cwnd < tp->snd_ssthresh;
}
static inline bool tcp_in_cwnd_reduction(const TcpSock *tp)
{
    return tp->ca_state == TCP_CA_CWR || tp->ca_state == TCP_CA_Recovery;
}
static inline bool tcp_is_sack(const TcpSock *tp)
{
    return tp->sack_ok;
}
/* tcp_is_fack: a SACK sender of the FACK era (hosts.H.tcp.loss_detection: fack) */
static inline bool tcp_is_fack(const TcpSock *tp)
{
    return tp->sack_ok && tcp_conf(tp)->loss_detection == TCP_LOSS_FACK;
}
static inline uint64_t tcp_wnd_end(const TcpSock *tp)
{
    return tp->snd_una + tp->snd_wnd;
}
static inline uint32_t tcp_receive_window(const TcpSock *tp)
{
    int64_t win = (int64_t)(tp->rcv_wup + tp->rcv_wnd) - (int64_t)tp->rcv_nxt;
    return win < 0 ? 0 : (uint32_t)win;
}
static inline bool inet_csk_ack_scheduled(const TcpSock *tp)
{
    return tp->ack.pending & ICSK_ACK_SCHED;
}
static inline bool inet_csk_in_pingpong_mode(const TcpSock *tp)
{
    return tp->ack.pingpong >= tcp_conf(tp)->pingpong_thresh; /* T.A.5 */
}
/* tcp_in_quickack_mode (tcp_input.c, 3.11+): "(dst && dst_metric(dst, RTAX_QUICKACK)) ||
 * (icsk->icsk_ack.quick && !inet_csk_in_pingpong_mode(sk))" - a route with the quickack
 * attribute (hosts.H.tcp.quickack_route) ACKs every data segment at once. */
static inline bool tcp_in_quickack_mode(const TcpSock *tp)
{
    return tcp_conf(tp)->quickack_route || (tp->ack.quick && !inet_csk_in_pingpong_mode(tp));
}
static inline uint32_t tcp_skb_pcount(const Skb *skb)
{
    return skb->gso_segs ? skb->gso_segs : 1;
}
static inline uint32_t tcp_stamp_us_delta(sim_time_t now, sim_time_t then)
{
    return now > then ? (uint32_t)((now - then) / SIM_US) : 0;
}

/* ---- skb lists (write, retransmit, ofo, receive queues) ---- */
void tcp_skb_append(SkbQueue *q, Skb *skb);
void tcp_skb_insert_after(SkbQueue *q, Skb *pos, Skb *skb); /* pos NULL: at the head */
void tcp_skb_unlink(SkbQueue *q, Skb *skb);
void tcp_skb_purge(SkbQueue *q, SkbPool *pool);

/* ---- tcp.c ---- */
/* sk_stream_alloc_skb + skb_entail: an empty skb at the write queue's tail, COST_SENDMSG_SKB. */
Skb *tcp_entail_new_skb(TcpSock *tp, Cpu *cpu);
/* Charge the copy of bytes to or from user space (COST_COPY_PER_KB). */
void tcp_charge_copy(const TcpSock *tp, Cpu *cpu, uint64_t bytes);
/* <= 3.6 (tcp.sendmsg_frag 4k): charge the order-0 pages that bytes more of a write start. */
void tcp_charge_send_pages(TcpSock *tp, Cpu *cpu, uint64_t bytes);
/* Account n more bytes of user data copied into skb, the write queue's tail. */
void tcp_skb_fill(TcpSock *tp, Skb *skb, uint64_t n);

/* ---- tcp_ipv4.c ---- */
extern const SockOps tcp_sock_ops;
void tcp_v4_do_rcv(TcpSock *tp, Skb *skb, Cpu *cpu);
void tcp_prequeue_process(TcpSock *tp, Cpu *cpu);

/* ---- tcp_input.c ---- */
/* What one ACK did, shared by tcp_ack, tcp_clean_rtx_queue and tcp_sacktag_write_queue. */
typedef struct TcpAckState {
    uint64_t prior_snd_una;
    uint64_t prior_delivered;
    sim_time_t first_ackt, last_ackt;   /* xmit times of newly cum-acked, never-rexmitted skbs */
    sim_time_t first_sackt, last_sackt; /* the same for newly sacked skbs */
    bool have_ackt, have_sackt;
    uint32_t pkts_acked;
} TcpAckState;
int tcp_ack(TcpSock *tp, const Skb *skb, int flag, Cpu *cpu);
void tcp_rcv_established(TcpSock *tp, Skb *skb, Cpu *cpu);
/* What tcp_rcv_established charges for skb: a pure ACK one tcp_rcv_ack; a data skb a fixed
 * tcp_rcv_data plus tcp_rcv_data_seg per segment it carries, so GRO and backlog coalescing save
 * the fixed part of every skb they merge away (sim/costs.h). */
sim_time_t tcp_rcv_cost(const TcpSock *tp, const Skb *skb);
void tcp_rtt_estimator(TcpSock *tp, uint32_t mrtt_us);
void tcp_set_rto(TcpSock *tp);
void tcp_enter_loss(TcpSock *tp);
void tcp_init_cwnd_reduction(TcpSock *tp);
void tcp_enter_cwr(TcpSock *tp);
void tcp_end_cwnd_reduction(TcpSock *tp);
void tcp_moderate_cwnd_after_ack(TcpSock *tp);
void tcp_set_ca_state(TcpSock *tp, uint8_t state);
void tcp_try_keep_open(TcpSock *tp);
void tcp_enter_recovery(TcpSock *tp);
void tcp_mark_skb_lost(TcpSock *tp, Skb *skb);
void tcp_check_space(TcpSock *tp, Cpu *cpu);
void tcp_update_pacing_rate(TcpSock *tp);
void tcp_sndbuf_expand(TcpSock *tp);
void tcp_init_sndbuf(TcpSock *tp);
uint32_t tcp_current_ssthresh(const TcpSock *tp);
void tcp_data_ready(TcpSock *tp, Cpu *cpu);
void tcp_wake_reader(TcpSock *tp, Cpu *cpu);

/* ---- tcp_sack.c ---- */
int tcp_sacktag_write_queue(TcpSock *tp, const Skb *ack_skb, TcpAckState *st);
uint32_t tcp_fackets_out(const TcpSock *tp);

/* ---- tcp_loss.c ---- */
void tcp_fastretrans_alert(TcpSock *tp, uint64_t prior_snd_una, uint32_t num_dupack, int *ack_flag,
                           int *rexmit, Cpu *cpu);
void tcp_process_tlp_ack(TcpSock *tp, uint64_t ack, int flag);
void tcp_cwnd_reduction(TcpSock *tp, uint32_t newly_acked_sacked, int flag);
void tcp_remove_reno_sacks(TcpSock *tp, uint32_t acked);

/* ---- tcp_rcv.c: the data receiver ---- */
void tcp_data_queue(TcpSock *tp, Skb *skb, Cpu *cpu);
void tcp_event_data_recv(TcpSock *tp, const Skb *skb);
void tcp_rcv_rtt_measure_ts(TcpSock *tp, const Skb *skb);
void tcp_queue_rcv(TcpSock *tp, Skb *skb);
/* The reader's direct copy (ucopy, 2.6-4.13): the bytes its recvmsg can still take when tp's
 * skbs are being processed in its own context (it owns the socket inside recvmsg with ucopy
 * installed, and everything before rcv_nxt is read), else 0; and the copy of n of them. */
uint64_t tcp_ucopy_room(const TcpSock *tp);
void tcp_ucopy_copy(TcpSock *tp, uint64_t n, Cpu *cpu);
void __tcp_ack_snd_check(TcpSock *tp, bool ofo_possible, Cpu *cpu);
void tcp_ack_snd_check(TcpSock *tp, Cpu *cpu);
void tcp_send_dupack(TcpSock *tp, const Skb *skb, Cpu *cpu);
void tcp_enter_quickack_mode(TcpSock *tp, uint32_t max_quickacks);
void tcp_dsack_set(TcpSock *tp, uint64_t seq, uint64_t end_seq);
void tcp_fast_path_check(TcpSock *tp);
void tcp_store_ts_recent_if(TcpSock *tp, uint64_t seq);
void tcp_cleanup_rbuf(TcpSock *tp, uint64_t copied, Cpu *cpu);
/* ---- tcp_rcvbuf.c: receiver RTT and receive-buffer autotuning ---- */
void tcp_rcv_space_adjust(TcpSock *tp);
/* The window-based receiver RTT sample (tcp_event_data_recv). */
void tcp_rcv_rtt_measure(TcpSock *tp);
/* tcp_rcvbuf_grow: space becomes newval and the buffer grows for 2 x newval of window (6.16+). */
void tcp_rcvbuf_grow(TcpSock *tp, uint32_t newval);
/* The 2025 rewrite of autotuning (hosts.H.tcp.rcv_autotune 6.16 or 6.18). */
bool tcp_drs_2025(const TcpSock *tp);
/* Assume a 50% default for skb->len/skb->truesize (include/net/tcp.h, TCP_RMEM_TO_WIN_SCALE 8). */
#define TCP_RMEM_TO_WIN_SCALE 8
#define TCP_DEFAULT_SCALING_RATIO (1u << (TCP_RMEM_TO_WIN_SCALE - 1))
uint32_t tcp_win_from_space(const TcpSock *tp, uint64_t space);
uint64_t tcp_space_from_win(const TcpSock *tp, uint64_t win);
uint32_t __tcp_select_window(TcpSock *tp);

/* ---- tcp_output.c ---- */
uint32_t tcp_select_window(TcpSock *tp);
/* __tcp_transmit_skb: 0 when the clone was queued below TCP, else the error (a local drop:
 * the caller keeps the skb where it is; CWR has been entered). */
int tcp_transmit_skb(TcpSock *tp, Skb *skb, Cpu *cpu);
/* tcp_push at the end of a write (or before waiting for memory): PSH on the tail, which
 * autocorking may hold (hosts.H.tcp.autocorking). */
void tcp_push(TcpSock *tp, int nonagle, uint32_t size_goal, Cpu *cpu);
/* tcp_sync_mss: mss_cache = the path MSS bounded by half the peer's largest window. */
void tcp_sync_mss(TcpSock *tp);
void tcp_send_ack(TcpSock *tp, Cpu *cpu);
void tcp_send_delayed_ack(TcpSock *tp, Cpu *cpu);
bool tcp_write_xmit(TcpSock *tp, uint32_t mss_now, int nonagle, int push_one, Cpu *cpu);
void tcp_push_pending_frames(TcpSock *tp, Cpu *cpu);
void __tcp_push_pending_frames(TcpSock *tp, uint32_t mss_now, int nonagle, Cpu *cpu);
void tcp_push_one(TcpSock *tp, uint32_t mss_now, Cpu *cpu);
uint32_t tcp_send_mss(TcpSock *tp, uint32_t *size_goal);
uint32_t tcp_tso_autosize(const TcpSock *tp, uint32_t mss_now);
void tcp_mark_push(TcpSock *tp, Skb *skb);
void tcp_check_probe_timer(TcpSock *tp, Cpu *cpu);
void tcp_send_probe0(TcpSock *tp, Cpu *cpu);
uint64_t tcp_probe0_when(const TcpSock *tp);
void tcp_fragment(TcpSock *tp, SkbQueue *q, Skb *skb, uint32_t len);
/* tcp_snd_wnd_test: the skb's first MSS fits in the peer's window (tcp_write_xmit, TLP). */
bool tcp_snd_wnd_test(const TcpSock *tp, const Skb *skb, uint32_t mss);
/* tcp_small_queue_check: true (THROTTLED set) when TSQ holds skb back; factor 1 for rtx. */
bool tcp_small_queue_check(TcpSock *tp, const Skb *skb, unsigned factor);

/* ---- tcp_retrans.c: retransmissions, RTO and TLP arming, the loss probe ---- */
int tcp_retransmit_skb(TcpSock *tp, Skb *skb, uint32_t segs, Cpu *cpu);
int __tcp_retransmit_skb(TcpSock *tp, Skb *skb, uint32_t segs, Cpu *cpu);
void tcp_xmit_retransmit_queue(TcpSock *tp, Cpu *cpu);
bool tcp_schedule_loss_probe(TcpSock *tp, bool advancing_rto, Cpu *cpu);
/* true when a probe went out (and TCPLossProbes counted it); else only the RTO is re-armed. */
bool tcp_send_loss_probe(TcpSock *tp, Cpu *cpu);
void tcp_rearm_rto(TcpSock *tp, Cpu *cpu);
void tcp_set_xmit_timer(TcpSock *tp, Cpu *cpu);
int64_t tcp_rto_delta_us(const TcpSock *tp);

/* ---- tcp_tsq.c: TSQ, the pacing hold, tcp_release_cb's deferred work ---- */
void tcp_release_cb_tp(TcpSock *tp, Cpu *cpu);
void tcp_tsq_write(TcpSock *tp, Cpu *cpu);
void tcp_tsq_init(TcpSock *tp);
/* tcp_pacing_check: with internal pacing, true (and the pacing timer armed on cpu) while the
 * next skb's departure time tcp_wstamp_ns is in the future. */
bool tcp_pacing_check(TcpSock *tp, Cpu *cpu);

/* ---- tcp_timer.c ---- */
void tcp_init_xmit_timers(TcpSock *tp);
/* sk_reset_timer through mod_timer (or mod_timer_unexact with stack.timer.slack): charges
 * COST_TIMER_MOD_FAST for the short cut, COST_TIMER_MOD_SLOW otherwise, and records the CPU
 * whose timer base now holds the timer (where it will fire). */
KTimerResult tcp_sk_reset_timer(TcpSock *tp, KTimer *t, uint64_t expires, Cpu *cpu);
void tcp_stop_timers(TcpSock *tp);
void inet_csk_reset_xmit_timer(TcpSock *tp, uint8_t what, uint64_t when, uint64_t max_when, Cpu *cpu);
void inet_csk_clear_xmit_timer(TcpSock *tp, uint8_t what);
void tcp_write_timer_handler(TcpSock *tp, Cpu *cpu);
void tcp_delack_timer_handler(TcpSock *tp, Cpu *cpu);
bool tcp_sack_compress_hold(TcpSock *tp, Cpu *cpu);
void tcp_sack_compress_send_ack(TcpSock *tp, Cpu *cpu);
void tcp_sack_compress_ack_sent(TcpSock *tp);
void tcp_retransmit_timer(TcpSock *tp, Cpu *cpu);

/* ---- tcp_diag.c ---- */
/* A loss probe (rto false) or an RTO (rto true) of tp has just fired: count, in tp's host's
 * Sksim*Peer* counters (sim/counters.h), what the peer socket was doing at that instant. */
void tcp_diag_timer_fired(TcpSock *tp, bool rto);
/* The same class for the event log: "owner_off_cpu", "owner_on_cpu", "delayed_ack", "other". */
const char *tcp_diag_peer_name(const TcpSock *tp);

/* ---- tcp_recovery.c (RACK) ---- */
void tcp_rack_advance(TcpSock *tp, uint8_t sacked, uint64_t end_seq, sim_time_t xmit_time);
bool tcp_rack_mark_lost(TcpSock *tp, Cpu *cpu);
void tcp_rack_reo_timeout(TcpSock *tp, Cpu *cpu);
int64_t tcp_rack_skb_timeout(const TcpSock *tp, const Skb *skb, uint32_t reo_wnd);
void tcp_rack_update_reo_wnd(TcpSock *tp, uint64_t prior_delivered);

/* ---- tcp_cong.c ---- */
struct TcpCongOps {
    const char *name;
    /* required */
    uint32_t (*ssthresh)(TcpSock *tp);
    void (*cong_avoid)(TcpSock *tp, uint64_t ack, uint32_t acked);
    uint32_t (*undo_cwnd)(TcpSock *tp);
    /* optional, may be NULL */
    void (*init)(TcpSock *tp);
    void (*set_state)(TcpSock *tp, uint8_t new_state);
    void (*cwnd_event)(TcpSock *tp, TcpCaEvent ev);
    void (*pkts_acked)(TcpSock *tp, uint32_t pkts_acked, int32_t rtt_us);
};
/* Registry by name ("cubic", "reno"); NULL when unknown. Tables are validated on lookup. */
const TcpCongOps *tcp_ca_find(const char *name);
const TcpCongOps *tcp_ca_for_conf(CongControl cc);
void tcp_init_congestion_control(TcpSock *tp);
void tcp_ca_event(TcpSock *tp, TcpCaEvent ev);
uint32_t tcp_slow_start(TcpSock *tp, uint32_t acked);
void tcp_cong_avoid_ai(TcpSock *tp, uint32_t w, uint32_t acked);
uint32_t tcp_ca_acked_units(const TcpSock *tp, uint32_t acked);
/* The start every cong_avoid shares: nothing unless cwnd-limited; the ACK's growth units
 * (hosts.H.tcp.cwnd_count); slow start. False when nothing is left for congestion avoidance;
 * else *acked is what is. */
bool tcp_cong_avoid_start(TcpSock *tp, uint32_t *acked);
bool tcp_is_cwnd_limited(const TcpSock *tp);
/* RFC 2861 (hosts.H.tcp.slow_start_after_idle): the restart after idle, checked at skb_entail and
 * on a window change; and the usage half of tcp_cwnd_validate, after each transmit. */
void tcp_slow_start_after_idle_check(TcpSock *tp);
void tcp_cwnd_validate_usage(TcpSock *tp);
uint32_t tcp_reno_undo_cwnd(TcpSock *tp);
const TcpCongOps *tcp_cubic_ops(void);
const TcpCongOps *tcp_reno_ops(void);

#endif
