/* config.h - the typed configuration of one run: what a scenario file (plus a variant and any
 * --set overrides) resolves to. Models read these structs; they never see YAML.
 *
 * Every field here is bound to exactly one scenario key by the key table in sim/conf_keys.c,
 * which also holds its default, bounds, unit and one-line documentation. To add a key: add the
 * field here, add the row there, and document it in scenarios/README.md (a test checks that the
 * README and the table agree).
 *
 * Defaults describe a current kernel (6.18-era), so "after all seed patches"; scenarios set the
 * "before" values explicitly in their variants.
 */
#ifndef SKSIM_CONFIG_H
#define SKSIM_CONFIG_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "sim/costs.h"
#include "sim/ktimer.h" /* KTimerWheel */
#include "sim/simtime.h"

/* ---- stack: the policy values that the seed patches change ---------------------------------- */

typedef enum {
    BACKLOG_LIMIT_RCVBUF,              /* 2.6.34-3.4: sk_rcvbuf (before seed 004) */
    BACKLOG_LIMIT_RCVBUF_SNDBUF,       /* 3.5-4.8: sk_rcvbuf + sk_sndbuf (after seed 004) */
    BACKLOG_LIMIT_2016,                /* 4.9+: rcvbuf + sndbuf + 64 KiB (tcp_add_backlog) */
    BACKLOG_LIMIT_2022,                /* rcvbuf + sndbuf/2 + 64 KiB */
    BACKLOG_LIMIT_2024,                /* 2*rcvbuf + sndbuf/2 + 64 KiB */
} BacklogLimitPolicy;

typedef enum {
    PREQUEUE_DELACK_RTO_MIN_3_4, /* before seed 003: 3*rto_min/4 */
    PREQUEUE_DELACK_MIN_ATO,     /* after seed 003: min(ato, 3*rto_min/4) */
} PrequeueDelackPolicy;

typedef enum {
    PREQUEUE_LIMIT_4X, /* 4.x (4.8-4.13 net/ipv4/tcp_ipv4.c tcp_prequeue): >= 32 skbs, or
                        * ucopy.memory + sk_rmem_alloc > sk_rcvbuf */
    PREQUEUE_LIMIT_3X, /* 2.6-3.x (3.4 include/net/tcp.h tcp_prequeue): ucopy.memory > sk_rcvbuf */
} PrequeueLimit;

typedef enum {
    SOFTIRQ_LIMIT_3_9,      /* 3.9+ (c10d73671ad3 "softirq: reduce latencies"): restart while under
                             * 2 ms, no need_resched and restarts left (10) */
    SOFTIRQ_LIMIT_RESTARTS, /* 2.6-3.8: restart while softirqs are pending, up to 10 times */
} SoftirqLimit;

/* What a TCP timer that fires while the owner holds the socket does (notes A.10, B.5). */
typedef enum {
    TIMER_OWNED_RELEASE_CB,         /* 5.10+: defer to tcp_release_cb (6f458dfb4092, 3.6); no
                                     * icsk_ack.blocked ("inet: remove icsk_ack.blocked",
                                     * net-next Sept 2020, 5.10) */
    TIMER_OWNED_RELEASE_CB_BLOCKED, /* 3.6-5.9: defer, and the delayed-ACK timer sets blocked */
    TIMER_OWNED_RETRY,              /* 2.6-3.5 tcp_timer.c: the delayed-ACK timer sets blocked and
                                     * retries TCP_DELACK_MIN later, the write timer HZ/20 later */
} TimerOwnedPolicy;

typedef struct StackConf {
    uint32_t release_sock_resched_every; /* stack.release_sock.resched_every */
    bool release_sock_bh_off;             /* stack.release_sock.bh_disabled (<= 4.6) */
    uint32_t sendmsg_flush_backlog_every; /* stack.sendmsg.flush_backlog_every */
    BacklogLimitPolicy backlog_limit;     /* stack.backlog.limit */
    bool backlog_coalesce;                /* stack.backlog.coalesce */
    bool backlog_ack_defer;               /* stack.backlog.ack_defer */
    bool prequeue_enabled;                /* stack.prequeue.enabled */
    PrequeueDelackPolicy prequeue_delack; /* stack.prequeue.delack */
    PrequeueLimit prequeue_limit;         /* stack.prequeue.limit */
    uint32_t timer_slack_jiffies;         /* stack.timer.slack: 0 = exact mod_timer */
    KTimerWheel timer_wheel;              /* stack.timer.wheel */
    TimerOwnedPolicy timer_owned;         /* stack.timer.owned */
    bool recvmsg_cleanup_before_flush;    /* stack.recvmsg.cleanup_before_flush (< 5.17) */
    SoftirqLimit softirq_limit;           /* stack.softirq.limit */
    bool softirq_defer_to_ksoftirqd;      /* stack.softirq.defer_to_ksoftirqd (4.9-6.4) */
    bool softirq_repoll_in_action;        /* stack.softirq.repoll_in_action (<= 3.18) */
} StackConf;

/* ---- hosts ----------------------------------------------------------------------------------- */

typedef enum { SCHED_CFS, SCHED_EEVDF } SchedPolicy;
typedef enum { PREEMPT_NONE, PREEMPT_VOLUNTARY, PREEMPT_FULL } PreemptModel;
typedef enum { CC_CUBIC, CC_RENO } CongControl;
typedef enum {
    TCP_TSO_DEFER_OFF, /* every opening is sent at once (no kernel; for experiments) */
    TCP_TSO_DEFER_3X,  /* 2.6.x-3.x tcp_tso_should_defer: at most 2 jiffies, CA Open only */
    TCP_TSO_DEFER_4X,  /* 4.x-6.x (the default): the last write under 1 ms ago, an ACK due
                        * within min(srtt / 2, 1 ms) */
} TcpTsoDefer;
typedef enum {
    TCP_LOSS_RACK, /* 4.4+ (the default; alone since 4.18): RACK marks losses by time */
    TCP_LOSS_FACK, /* 2.6-4.3, net.ipv4.tcp_fack = 1 (default): dupthresh on fackets_out,
                    * tcp_update_scoreboard / tcp_mark_head_lost (tcp_loss.c) */
} TcpLossDetection;
typedef enum {
    TCP_TIMEOUTS_EVERY, /* 5.5+ (e1561fe2dd69; 4.19.89): TCPTimeouts counts every RTO firing */
    TCP_TIMEOUTS_FIRST, /* before: only the first of a series, in Open/CWR without SACKed data */
} TcpTimeoutsCount;
typedef enum {
    TCP_WIN_ADV_WIN_SCALE_2, /* until 3.4: tcp_adv_win_scale = 2, window = 3/4 of the space */
    TCP_WIN_ADV_WIN_SCALE_1, /* 3.5-6.4 (b49960a05e32): tcp_adv_win_scale = 1, half */
    TCP_WIN_SCALING_RATIO,   /* 6.11+: space * scaling_ratio / 256, measured from 1/2, and a
                              * new ratio moves window_clamp (a2cbb1603943) */
    TCP_WIN_SCALING_RATIO_6_5,  /* 6.5-6.9 (dfa2f0483360): measured from 1200 B per 4 KiB page
                                 * (65/256), window_clamp left alone */
    TCP_WIN_SCALING_RATIO_6_10, /* 6.10 (697a6c8cec03): from 1/2, window_clamp left alone */
} TcpWinScaling;
typedef enum {
    TCP_CWND_COUNT_SEGMENTS, /* 3.14+/4.0+: cwnd grows per segment an ACK covers (stretch ACKs) */
    TCP_CWND_COUNT_ACKS,     /* <= 3.13 with tcp_abc = 0: one growth step per ACK */
} TcpCwndCount;
typedef enum {
    TCP_CWND_LIMITED_TRACKED,   /* 3.16's tp->is_cwnd_limited (e114a710aa50) from the last sends,
                                 * slow start up to 2 x max_packets_out, recorded by the 2022
                                 * rule (f4ce91ce12a7); the older recording rules below */
    TCP_CWND_LIMITED_IN_FLIGHT, /* <= 3.15: tcp_is_cwnd_limited(sk, in_flight) per ACK, with the
                                 * TSO-deferral slack and tcp_max_burst */
    TCP_CWND_LIMITED_3_16,      /* 3.16-5.9: tracked, but tcp_cwnd_validate runs only after a
                                 * send and a later send can clear the mark mid-round */
    TCP_CWND_LIMITED_5_10,      /* 5.10 until f4ce91ce12a7 (2022): also after a push that sent
                                 * nothing while cwnd was full; the mark still clearable */
} TcpCwndLimited;
typedef enum {
    TCP_GROW_WINDOW_5_1,    /* 5.1+ (6728c6174a47, in the 4.4+ stable trees): rcv_ssthresh grows
                             * up to the free space (tcp_space) and window_clamp, no further */
    TCP_GROW_WINDOW_LEGACY, /* before: it grows while below both, by the whole step, up to the
                             * clamp alone, so it can pass the free space by one step */
} TcpGrowWindow;
typedef enum {
    TCP_RCV_RTT_CLOCK_US,      /* 4.19+: us clock, one TSecr sample per TSecr value */
    TCP_RCV_RTT_CLOCK_JIFFIES, /* 2.6-4.12: jiffies, a 0 sample counts as 1 jiffy, and every
                                * full-sized segment's TSecr is smoothed in */
    TCP_RCV_RTT_CLOCK_US_EVERY, /* 4.13-4.18: us, but every full-sized segment's TSecr sample is
                                 * smoothed in, as before */
} TcpRcvRttClock;
typedef enum {
    TCP_SELECT_WINDOW_ZERO16, /* 3.15+: free space below half the buffer is rounded down to the
                               * window scale, and below 1/16 of the allowed space is zero */
    TCP_SELECT_WINDOW_3X,     /* 2.6-3.14: zero only below one MSS, no round-down */
} TcpSelectWindow;
typedef enum {
    TCP_RCVQ_ADMIT_6_6, /* 6.6+ ("net: tcp: send zero-window ACK when no memory"): the check
                         * first; on failure a zero-window ACK at once, and the skb is dropped
                         * unless the receive queue is empty, where it is charged anyway */
    TCP_RCVQ_ADMIT_4_2, /* 4.2-6.5 (76dfa6082032): an in-order skb that finds the receive queue
                         * empty is charged without a check (sk_forced_mem_schedule) */
    TCP_RCVQ_ADMIT_3X,  /* before: tcp_try_rmem_schedule (and its pruning) for every one */
} TcpRcvqAdmit;
typedef enum {
    TCP_RCV_INGEST_LEGACY, /* room while sk_rmem_alloc <= sk_rcvbuf: every kernel before
                            * 1d2fbaad7cd8, and since its revert (026dfef287c0, Feb 2026) */
    TCP_RCV_INGEST_6_17,   /* 1d2fbaad7cd8 (Jul 2025): sk_rmem_alloc + the skb's truesize */
    TCP_RCV_INGEST_6_18,   /* f017c1f768b6 (Sept 2025): sk_rmem_alloc + the skb's length */
} TcpRcvIngest;
typedef enum {
    TCP_PRUNE_4_18, /* 4.18+ (f4a3313d8e2c, CVE-2018-5390, backported to 4.4+ stable):
                     * tcp_prune_queue stops once tcp_clamp_window made room */
    TCP_PRUNE_3X,   /* before: it collapses the queues whatever the clamp did */
} TcpPrune;
typedef enum {
    TCP_SNDBUF_EXPAND_3_19, /* 3.19+ tcp_sndbuf_expand: 2 x max(10, cwnd, reordering + 1) x a
                             * power-of-two per-MSS truesize */
    TCP_SNDBUF_EXPAND_3X,   /* <= 3.18: 10 x SKB_TRUESIZE(MSS + MAX_TCP_HEADER) at establishment
                             * (tcp_fixup_sndbuf), 2 x max(cwnd, reordering + 1) x it later */
} TcpSndbufExpand;
typedef enum {
    TCP_INIT_RCV_WND_64K,     /* 4.20+ (a337531b942b): the SYN's window is the buffer's, <= 64 KB */
    TCP_INIT_RCV_WND_10MSS,   /* 3.0-4.19: capped at 10 segments (14600 B above MSS 1460) */
    TCP_INIT_RCV_WND_RFC2414, /* 2.6: capped at 4 segments, 3 above MSS 1460, 2 above 4380 */
} TcpInitRcvWnd;
typedef enum {
    TCP_SENDMSG_FRAG_32K, /* 3.7+ (5640f7685831): copies go to 32 KiB per-task page frags */
    TCP_SENDMSG_FRAG_4K,  /* <= 3.6: to the socket's order-0 page, a new one every 4 KiB */
} TcpSendmsgFrag;
typedef enum {
    TCP_CHECK_SPACE_5_18,         /* 5.18+ (4bfe744ff164): after every ACK and every send */
    TCP_CHECK_SPACE_5_10,         /* 5.10-5.17 (0cbe6a8f089e): after every ACK */
    TCP_CHECK_SPACE_QUEUE_SHRUNK, /* <= 5.9: only once an ACK freed write memory
                                   * (SOCK_QUEUE_SHRUNK: a whole skb, or a TSO skb's acked head) */
} TcpCheckSpace;
typedef enum {
    TCP_HYSTART_DEFAULT, /* 5.8+ tcp_cubic.c: usec delays, ack-delay allowance, 4-16 ms threshold */
    TCP_HYSTART_3X,      /* 2.6.29-3.x: 1/8-ms delays, the ACK train in jiffies, 2-16 ms */
    TCP_HYSTART_OFF,     /* no HyStart (hystart=0; 3.4 with tcp_time_stamp's high bit set) */
} TcpHystart;
typedef enum {
    TCP_INIT_CWND_IW10,    /* 2.6.39+ (442b9635c569 "tcp: Increase the initial congestion window to
                            * 10"): TCP_INIT_CWND = 10 segments */
    TCP_INIT_CWND_RFC3390, /* <= 2.6.38 tcp_init_cwnd(): RFC 3390 by MSS, 2 above 1460 bytes, 3
                            * above 1095, else 4 */
} TcpInitCwnd;
typedef enum {
    TCP_RCV_AUTOTUNE_LEGACY, /* <= 6.15: rcvwin = 2*copied + 16 MSS, grown; ms TS RTT, 1 ms floor */
    TCP_RCV_AUTOTUNE_6_16,   /* 6.16-6.17 "tcp: receive side improvements": 2*(copied - inq) */
    TCP_RCV_AUTOTUNE_6_18,   /* 6.18 (aa251c84636c, 6.18-rc4): 6.16 plus the slow-start growth */
    TCP_RCV_AUTOTUNE_3X,     /* 2.6.x-3.12: space = max(space, 2*copied), buffer per MSS truesize */
} TcpRcvAutotune;
typedef enum {
    TCP_RCVQ_SPACE_INIT_CWND, /* 4.20+ (041a14d26715; min3 after the clamp since 5.11) */
    TCP_RCVQ_SPACE_RCV_WND,   /* <= 4.19: the first window */
} TcpRcvqSpaceInit;

typedef enum {
    CPUIDLE_POLL, /* no C-states (idle=poll, or all disabled): a wake-up waits for nothing */
    CPUIDLE_NHM,  /* intel_idle nehalem_cstates (Nehalem, Westmere): C1 3 us ... C6 200 us */
    CPUIDLE_SNB,  /* snb_cstates (Sandy Bridge, -EP): C1 2 us, C1E 10, C3 80, C6 104, C7 109 */
    CPUIDLE_SKX,  /* skx_cstates (Skylake-SP, Cascade Lake): C1 2 us, C1E 10, C6 133 */
    CPUIDLE_ICX,  /* icx_cstates (Ice Lake-SP): C1 1 us, C1E 4, C6 128 */
} CpuidleTable;

typedef struct SchedConf {
    SchedPolicy policy;            /* hosts.H.sched.policy */
    sim_time_t latency_ns;         /* hosts.H.sched.latency (CFS, before the CPU factor) */
    sim_time_t min_granularity_ns; /* hosts.H.sched.min_granularity */
    sim_time_t wakeup_granularity_ns; /* hosts.H.sched.wakeup_granularity */
    sim_time_t base_slice_ns;      /* hosts.H.sched.base_slice (EEVDF) */
    PreemptModel preempt;          /* hosts.H.sched.preempt */
    bool wake_idle;                /* hosts.H.sched.wake_idle */
    bool load_balance;             /* hosts.H.sched.load_balance */
    bool newidle_avg_idle;         /* hosts.H.sched.newidle_avg_idle: CFS 2.6.33-5.15 gate */
    sim_time_t migration_cost_ns;  /* hosts.H.sched.migration_cost (sysctl_sched_migration_cost) */
    bool irq_time_accounting;      /* hosts.H.sched.irq_time_accounting */
    bool delay_dequeue;            /* hosts.H.sched.delay_dequeue: EEVDF 6.12+ DELAY_DEQUEUE */
    CpuidleTable cpuidle;          /* hosts.H.sched.cpuidle */
} SchedConf;

/* A CPU list ("[0-3,8]"), also used by hosts.H.nic.irq_cpus. */
typedef struct CpuList {
    uint32_t n;
    uint32_t cpu[64];        /* "0-3,8" parsed; n == 0 means "any CPU" (or: the default) */
} CpuList;

/* hosts.H.nic.irq_mode: how nic.irq_coalesce moderates a queue's interrupt. */
typedef enum {
    NIC_IRQ_DELAY,    /* the interrupt fires irq_coalesce after the first event (mlx4/mlx5, bnx2x) */
    NIC_IRQ_THROTTLE, /* interrupts at least irq_coalesce apart (Intel EITR, a static rx-usecs) */
    NIC_IRQ_IXGBE,    /* throttled to ixgbe's dynamic ITR (rx-usecs 1, 3.2-2015; nic_itr.c) */
} NicIrqMode;
typedef enum {
    NIC_QDISC_PFIFO,    /* a FIFO of qdisc_limit skbs (pfifo_fast's single band) */
    NIC_QDISC_FQ_CODEL, /* per-flow queues, deficit round robin, CoDel (sch_fq_codel) */
} NicQdisc;

typedef struct NicConf {
    uint32_t mtu;              /* hosts.H.nic.mtu, bytes of IP packet */
    uint32_t rx_ring;          /* hosts.H.nic.rx_ring, descriptors */
    uint32_t tx_ring;          /* hosts.H.nic.tx_ring, descriptors */
    uint32_t qdisc_limit;      /* hosts.H.nic.qdisc_limit, packets */
    NicQdisc qdisc;            /* hosts.H.nic.qdisc */
    sim_time_t codel_target_ns;   /* hosts.H.nic.codel_target (fq_codel target) */
    sim_time_t codel_interval_ns; /* hosts.H.nic.codel_interval (fq_codel interval) */
    uint32_t qdisc_memory_limit;  /* hosts.H.nic.qdisc_memory_limit (fq_codel memory_limit) */
    bool bql;                  /* hosts.H.nic.bql: byte queue limits on the TX ring (3.3+) */
    uint64_t rate_bps;         /* hosts.H.nic.rate: port speed; 0 = the rate of its link */
    bool gro;                  /* hosts.H.nic.gro */
    uint32_t gro_normal_batch; /* hosts.H.nic.gro_normal_batch: 8 (5.4+), 1 = at once */
    bool tso;                  /* hosts.H.nic.tso */
    bool gso;                  /* hosts.H.nic.gso: software segmentation when tso is off */
    uint32_t irq_cpu;          /* hosts.H.nic.irq_cpu */
    sim_time_t irq_coalesce_ns; /* hosts.H.nic.irq_coalesce: 0 = interrupt per frame batch */
    sim_time_t tx_coalesce_ns; /* hosts.H.nic.tx_coalesce: 0 = irq_coalesce (delay mode) */
    NicIrqMode irq_mode;       /* hosts.H.nic.irq_mode */
    uint32_t rx_queues;        /* hosts.H.nic.rx_queues: RSS queues, each its IRQ, NAPI, GRO */
    CpuList irq_cpus;          /* hosts.H.nic.irq_cpus: queue i's IRQ CPU; n == 0 = irq_cpu + i */
    CpuList rps_cpus;          /* hosts.H.nic.rps_cpus: RPS map of every RX queue; n == 0 = off */
    bool rfs;                  /* hosts.H.nic.rfs: receive flow steering */
    bool arfs;                 /* hosts.H.nic.arfs: accelerated RFS (needs rfs) */
} NicConf;

typedef struct TcpConf {
    sim_time_t rto_min_ns;     /* hosts.H.tcp.rto_min */
    uint32_t rcvbuf;           /* hosts.H.tcp.rcvbuf: initial sk_rcvbuf (tcp_rmem[1]) */
    uint32_t sndbuf;           /* hosts.H.tcp.sndbuf: sk_sndbuf (tcp_wmem[1] or SO_SNDBUF) */
    bool sndbuf_autotune;      /* hosts.H.tcp.sndbuf_autotune: false = SO_SNDBUF set (locked) */
    uint32_t rcvbuf_max;       /* hosts.H.tcp.rcvbuf_max: tcp_rmem[2] (autotuning ceiling) */
    bool rcvbuf_autotune;      /* hosts.H.tcp.rcvbuf_autotune */
    CongControl cc;            /* hosts.H.tcp.cc */
    uint32_t frto;             /* hosts.H.tcp.frto */
    uint32_t pingpong_thresh;  /* hosts.H.tcp.pingpong_thresh (net.ipv4.tcp_pingpong_thresh) */
    bool undo_without_rtx;     /* hosts.H.tcp.undo_without_rtx: nothing retransmitted counts as
                                * delayed for the undo (<= 3.x, 6.12+) */
    bool sack;                 /* hosts.H.tcp.sack */
    bool timestamps;           /* hosts.H.tcp.timestamps */
    bool usec_ts;              /* hosts.H.tcp.usec_ts: TSval in us (route feature tcp_usec_ts) */
    bool tlp;                  /* hosts.H.tcp.tlp (tcp_early_retrans >= 3) */
    TcpLossDetection loss_detection; /* hosts.H.tcp.loss_detection: rack or 3.x FACK */
    TcpTimeoutsCount timeouts_count; /* hosts.H.tcp.timeouts_count */
    uint32_t limit_output_bytes; /* hosts.H.tcp.limit_output_bytes (TSQ) */
    bool tsq;                  /* hosts.H.tcp.tsq: TCP Small Queues (3.6+) */
    bool tsq_cap_paced;        /* hosts.H.tcp.tsq_cap_paced: limit_output_bytes caps paced
                                * flows too (before 2018's c73e5807e4f6, and 6.16+) */
    bool pacing;               /* hosts.H.tcp.pacing: TCP internal pacing (EDT, 4.20+) */
    TcpTsoDefer tso_defer;     /* hosts.H.tcp.tso_defer: tcp_tso_should_defer() */
    TcpHystart hystart;        /* hosts.H.tcp.hystart: CUBIC's HyStart of the era, or none */
    uint32_t netdev_budget;    /* hosts.H.tcp.netdev_budget (net.core.netdev_budget) */
    sim_time_t netdev_budget_ns; /* hosts.H.tcp.netdev_budget_usecs; 0 = 2 jiffies of the
                                  * host's HZ, the kernel's default */
    uint32_t napi_weight;      /* hosts.H.tcp.napi_weight */
    uint32_t max_backlog;      /* hosts.H.tcp.netdev_max_backlog */
    TcpWinScaling win_scaling; /* hosts.H.tcp.win_scaling */
    TcpCwndCount cwnd_count;   /* hosts.H.tcp.cwnd_count */
    TcpCwndLimited cwnd_limited; /* hosts.H.tcp.cwnd_limited */
    TcpCheckSpace check_space;   /* hosts.H.tcp.check_space */
    TcpSendmsgFrag sendmsg_frag; /* hosts.H.tcp.sendmsg_frag */
    TcpInitRcvWnd init_rcv_wnd;  /* hosts.H.tcp.init_rcv_wnd */
    TcpSndbufExpand sndbuf_expand; /* hosts.H.tcp.sndbuf_expand */
    TcpGrowWindow grow_window;   /* hosts.H.tcp.grow_window */
    TcpSelectWindow select_window; /* hosts.H.tcp.select_window */
    TcpRcvRttClock rcv_rtt_clock; /* hosts.H.tcp.rcv_rtt_clock */
    TcpRcvqAdmit rcvq_admit;     /* hosts.H.tcp.rcvq_admit */
    TcpRcvIngest rcv_ingest;     /* hosts.H.tcp.rcv_ingest */
    TcpPrune prune;              /* hosts.H.tcp.prune */
    TcpInitCwnd init_cwnd;     /* hosts.H.tcp.init_cwnd */
    TcpRcvAutotune rcv_autotune; /* hosts.H.tcp.rcv_autotune */
    TcpRcvqSpaceInit rcvq_space_init; /* hosts.H.tcp.rcvq_space_init */
    bool window_counts_backlog; /* hosts.H.tcp.window_counts_backlog: tcp_space() minus backlog */
    bool quickack_route;       /* hosts.H.tcp.quickack_route: the route's RTAX_QUICKACK metric */
    bool delack_from_rto_min;  /* hosts.H.tcp.delack_from_rto_min: 6.7+ delack_max cap */
    bool quickack_per_ack;     /* hosts.H.tcp.quickack_per_ack: 6.6+ quick-ACK counting */
    bool push_full_mss;        /* hosts.H.tcp.push_full_mss: full-sized PSH data sets PUSHED (6.6+) */
    bool ack_rcvlowat;         /* hosts.H.tcp.ack_rcvlowat: the 2-MSS ACK also below SO_RCVLOWAT (4.18+) */
    bool gap_fill_ack_now;     /* hosts.H.tcp.gap_fill_ack_now: ICSK_ACK_NOW when a hole fills */
    bool autocorking;          /* hosts.H.tcp.autocorking: net.ipv4.tcp_autocorking (3.14+) */
    bool moderate_cwnd;        /* hosts.H.tcp.moderate_cwnd: <= 4.x tcp_moderate_cwnd() */
    bool tso_half_cwnd;        /* hosts.H.tcp.tso_half_cwnd: a TSO skb takes <= cwnd/2 (2015+) */
    bool tso_split_nagle;      /* hosts.H.tcp.tso_split_nagle: tcp_mss_split_point's Nagle term
                                * (late 2014+) */
    bool slow_start_after_idle; /* hosts.H.tcp.slow_start_after_idle: RFC 2861 cwnd validation */
    bool ofo_grows_window;     /* hosts.H.tcp.ofo_grows_window: tcp_data_queue_ofo grows rcv_ssthresh */
    bool ofo_quickack;         /* hosts.H.tcp.ofo_quickack: out-of-order data enters quick-ACK
                                * (< 4.18) */
    bool ofo_measure_rcv_mss;  /* hosts.H.tcp.ofo_measure_rcv_mss: tcp_data_queue_ofo calls
                                * tcp_measure_rcv_mss (6.17+) */
    uint32_t comp_sack_nr;     /* hosts.H.tcp.comp_sack_nr: net.ipv4.tcp_comp_sack_nr (0 = off) */
    sim_time_t comp_sack_delay_ns; /* hosts.H.tcp.comp_sack_delay: tcp_comp_sack_delay_ns */
    sim_time_t comp_sack_slack_ns; /* hosts.H.tcp.comp_sack_slack: tcp_comp_sack_slack_ns */
} TcpConf;

typedef struct HostConf {
    char *name;        /* the key under hosts: */
    uint32_t cpus;     /* hosts.H.cpus */
    uint32_t hz;       /* hosts.H.hz; 0 = the scenario's hz */
    sim_time_t tick_phase_ns; /* hosts.H.tick_phase */
    SchedConf sched;
    NicConf nic;
    TcpConf tcp;
    CostTable costs;   /* hosts.H.costs.<key> */
} HostConf;

/* ---- links ----------------------------------------------------------------------------------- */

typedef struct LinkConf {
    char *name;
    char *a, *b;             /* links.L.a / .b: host names */
    uint64_t rate_bps;       /* links.L.rate */
    sim_time_t delay_ns;     /* links.L.delay: one-way propagation */
    uint64_t queue_bytes;    /* links.L.queue: drop-tail limit in bytes (0 = use queue_pkts) */
    uint32_t queue_pkts;     /* links.L.queue given in pkt */
    double loss;             /* links.L.loss: random loss probability, 0..1 */
} LinkConf;

/* ---- workloads ------------------------------------------------------------------------------- */

typedef enum { WORKLOAD_STREAM, WORKLOAD_RR } WorkloadType;

typedef struct WorkloadConf {
    char *name;
    WorkloadType type;       /* workloads.W.type */
    char *from, *to;         /* workloads.W.from / .to: host names (equal = loopback) */
    uint32_t flows;          /* workloads.W.flows */
    uint32_t write_size;     /* workloads.W.write_size (stream) */
    uint32_t read_size;      /* workloads.W.read_size (stream): 0 = the initial SO_RCVBUF */
    uint32_t request_size;   /* workloads.W.request_size (rr) */
    uint32_t response_size;  /* workloads.W.response_size (rr) */
    CpuList from_cpus;       /* workloads.W.from_cpus */
    CpuList to_cpus;         /* workloads.W.to_cpus */
    sim_time_t start_ns;     /* workloads.W.start */
    sim_time_t start_jitter_ns; /* workloads.W.start_jitter: each flow opens U[0, jitter) later */
    sim_time_t read_pause_ns;   /* workloads.W.read_pause: stream reader's sleep between reads */
    sim_time_t think_time_ns;   /* workloads.W.think_time: rr client's sleep between transactions */
} WorkloadConf;

/* ---- the whole run --------------------------------------------------------------------------- */

typedef struct ScenarioConf {
    char *name;
    char *title;
    char *description;
    char *published;            /* the published result the scenario reproduces (reports) */
    char *variant;              /* NULL for the base scenario */
    uint64_t seed;
    sim_time_t duration_ns;
    sim_time_t warmup_ns;
    uint32_t hz;
    sim_time_t sample_interval_ns;
    StackConf stack;
    GPtrArray *hosts;           /* HostConf*, in file order */
    GPtrArray *links;           /* LinkConf* */
    GPtrArray *workloads;       /* WorkloadConf* */
} ScenarioConf;

const HostConf *scenario_conf_host(const ScenarioConf *c, const char *name);
/* The first link (in file order) joining hosts a and b, either way round, or NULL. */
const LinkConf *scenario_conf_link(const ScenarioConf *c, const char *a, const char *b);
/* Whether the run draws from its seed at all: the only random draws are each flow's start offset
 * (workloads.W.start_jitter) and each frame's loss (links.L.loss). Without either, every seed
 * gives the same run, event for event. */
gboolean scenario_conf_uses_seed(const ScenarioConf *c);
/* For an unknown host name: " (did you mean 'x'?)" from c's host names, or "" (g_free it). */
char *scenario_conf_host_hint(const ScenarioConf *c, const char *name);

#endif
