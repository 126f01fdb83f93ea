/* conf_keys.c - THE key table: every scenario key bound to a field of sim/config.h.
 *
 * Built as one static const array of rows so that parsing, range checks, error messages and the
 * generated reference (scenarios/README.md, `sksim keys`) cannot disagree. Each default is
 * scenario text, parsed by the same code as user input, and its doc line says which kernel
 * behaviour or sysctl it follows (constants from shared notes kernel-host-mechanics.md section 0).
 * The defaults describe a current (6.18-era) kernel; scenarios set "before" values in variants.
 *
 * The costs rows are generated from the SIM_COSTS X-macro in sim/costs.h, so a new cost there
 * becomes a key here with no edit. To add any other key: add the field to config.h and a row here,
 * then regenerate the reference in scenarios/README.md.
 */
#include "sim/conf_keys.h"

#include <string.h>

#include "sim/config.h"

/* Enum fields are stored through an int. */
G_STATIC_ASSERT(sizeof(BacklogLimitPolicy) == sizeof(int));
G_STATIC_ASSERT(sizeof(SoftirqLimit) == sizeof(int));
G_STATIC_ASSERT(sizeof(PrequeueDelackPolicy) == sizeof(int));
G_STATIC_ASSERT(sizeof(PrequeueLimit) == sizeof(int));
G_STATIC_ASSERT(sizeof(TimerOwnedPolicy) == sizeof(int));
G_STATIC_ASSERT(sizeof(SchedPolicy) == sizeof(int));
G_STATIC_ASSERT(sizeof(PreemptModel) == sizeof(int));
G_STATIC_ASSERT(sizeof(CongControl) == sizeof(int));
G_STATIC_ASSERT(sizeof(TcpWinScaling) == sizeof(int));
G_STATIC_ASSERT(sizeof(TcpTsoDefer) == sizeof(int));
G_STATIC_ASSERT(sizeof(TcpLossDetection) == sizeof(int));
G_STATIC_ASSERT(sizeof(TcpCwndCount) == sizeof(int));
G_STATIC_ASSERT(sizeof(TcpCheckSpace) == sizeof(int));
G_STATIC_ASSERT(sizeof(TcpSendmsgFrag) == sizeof(int));
G_STATIC_ASSERT(sizeof(TcpInitRcvWnd) == sizeof(int));
G_STATIC_ASSERT(sizeof(TcpSndbufExpand) == sizeof(int));
G_STATIC_ASSERT(sizeof(TcpGrowWindow) == sizeof(int));
G_STATIC_ASSERT(sizeof(TcpRcvAutotune) == sizeof(int));
G_STATIC_ASSERT(sizeof(TcpRcvqSpaceInit) == sizeof(int));
G_STATIC_ASSERT(sizeof(WorkloadType) == sizeof(int));

/* Choices in enum order (index == enum value). */
static const char *const backlog_limit_choices[] = {"rcvbuf", "rcvbuf+sndbuf", "2016", "2022",
                                                    "2024", NULL};
static const char *const delack_choices[] = {"rto_min_3_4", "min_ato", NULL};
static const char *const prequeue_limit_choices[] = {"4.x", "3.x", NULL};
static const char *const wheel_choices[] = {"4.8", "cascade", NULL};
static const char *const timer_owned_choices[] = {"5.10", "3.6", "2.6", NULL};
static const char *const softirq_limit_choices[] = {"3.9", "restarts", NULL};
static const char *const sched_choices[] = {"cfs", "eevdf", NULL};
static const char *const preempt_choices[] = {"none", "voluntary", "full", NULL};
static const char *const cpuidle_choices[] = {"poll", "nhm", "snb", "skx", "icx", NULL};
static const char *const irq_mode_choices[] = {"delay", "throttle", "ixgbe", NULL};
static const char *const qdisc_choices[] = {"pfifo", "fq_codel", NULL};
static const char *const cc_choices[] = {"cubic", "reno", NULL};
static const char *const tso_defer_choices[] = {"off", "3.x", "4.x", NULL};
static const char *const hystart_choices[] = {"on", "3.x", "off", NULL};
static const char *const loss_detection_choices[] = {"rack", "fack", NULL};
static const char *const timeouts_count_choices[] = {"5.5", "legacy", NULL};
static const char *const win_scaling_choices[] = {"adv_win_scale_2", "adv_win_scale_1",
                                                  "scaling_ratio", "scaling_ratio_6.5",
                                                  "scaling_ratio_6.10", NULL};
static const char *const cwnd_count_choices[] = {"segments", "acks", NULL};
static const char *const cwnd_limited_choices[] = {"tracked", "in_flight", "3.16", "5.10",
                                                     NULL};
static const char *const check_space_choices[] = {"5.18", "5.10", "queue_shrunk", NULL};
static const char *const sendmsg_frag_choices[] = {"32k", "4k", NULL};
static const char *const init_rcv_wnd_choices[] = {"64k", "10mss", "rfc2414", NULL};
static const char *const sndbuf_expand_choices[] = {"3.19", "3.x", NULL};
static const char *const grow_window_choices[] = {"5.1", "legacy", NULL};
static const char *const select_window_choices[] = {"zero16", "3.x", NULL};
static const char *const rcv_rtt_clock_choices[] = {"us", "jiffies", "us-every", NULL};
static const char *const rcvq_admit_choices[] = {"6.6", "4.2", "3.x", NULL};
static const char *const rcv_ingest_choices[] = {"legacy", "6.17", "6.18", NULL};
static const char *const prune_choices[] = {"4.18", "3.x", NULL};
static const char *const init_cwnd_choices[] = {"iw10", "rfc3390", NULL};
static const char *const rcv_autotune_choices[] = {"legacy", "6.16", "6.18", "3.x", NULL};
static const char *const rcvq_space_init_choices[] = {"init_cwnd", "rcv_wnd", NULL};
static const char *const workload_choices[] = {"stream", "rr", NULL};

G_STATIC_ASSERT(TCP_WIN_SCALING_RATIO == 2 && TCP_WIN_SCALING_RATIO_6_10 == 4);
G_STATIC_ASSERT(TCP_LOSS_RACK == 0 && TCP_LOSS_FACK == 1);
G_STATIC_ASSERT(TCP_TIMEOUTS_EVERY == 0 && TCP_TIMEOUTS_FIRST == 1);
G_STATIC_ASSERT(TCP_CWND_COUNT_ACKS == 1);
G_STATIC_ASSERT(TCP_CWND_LIMITED_IN_FLIGHT == 1 && TCP_CWND_LIMITED_3_16 == 2 &&
                TCP_CWND_LIMITED_5_10 == 3);
G_STATIC_ASSERT(TCP_INIT_CWND_RFC3390 == 1);
G_STATIC_ASSERT(TCP_RCV_AUTOTUNE_6_18 == 2);
G_STATIC_ASSERT(TCP_RCV_AUTOTUNE_3X == 3);
G_STATIC_ASSERT(TCP_SELECT_WINDOW_3X == 1);
G_STATIC_ASSERT(TCP_RCV_RTT_CLOCK_JIFFIES == 1 && TCP_RCV_RTT_CLOCK_US_EVERY == 2);
G_STATIC_ASSERT(TCP_RCVQ_ADMIT_4_2 == 1 && TCP_RCVQ_ADMIT_3X == 2);
G_STATIC_ASSERT(TCP_RCV_INGEST_6_17 == 1 && TCP_RCV_INGEST_6_18 == 2);
G_STATIC_ASSERT(TCP_PRUNE_3X == 1);
G_STATIC_ASSERT(TCP_HYSTART_DEFAULT == 0 && TCP_HYSTART_3X == 1 && TCP_HYSTART_OFF == 2);
G_STATIC_ASSERT(KTIMER_WHEEL_4_8 == 0 && KTIMER_WHEEL_CASCADE == 1);
G_STATIC_ASSERT(PREQUEUE_LIMIT_4X == 0 && PREQUEUE_LIMIT_3X == 1);
G_STATIC_ASSERT(NIC_IRQ_DELAY == 0 && NIC_IRQ_THROTTLE == 1 && NIC_IRQ_IXGBE == 2);
G_STATIC_ASSERT(NIC_QDISC_PFIFO == 0 && NIC_QDISC_FQ_CODEL == 1);
G_STATIC_ASSERT(CPUIDLE_POLL == 0 && CPUIDLE_NHM == 1 && CPUIDLE_SNB == 2 && CPUIDLE_SKX == 3 &&
                CPUIDLE_ICX == 4);
G_STATIC_ASSERT(TIMER_OWNED_RELEASE_CB == 0 && TIMER_OWNED_RELEASE_CB_BLOCKED == 1 &&
                TIMER_OWNED_RETRY == 2);
G_STATIC_ASSERT(BACKLOG_LIMIT_2024 == 4 && PREQUEUE_DELACK_MIN_ATO == 1 && SCHED_EEVDF == 1 &&
                PREEMPT_FULL == 2 && CC_RENO == 1 && WORKLOAD_RR == 1);

#define ROW(sec, st, key_, type_, field, def_, min_, max_, sub_, doc_)                          \
    {.section = sec, .key = key_, .type = type_, .offset = offsetof(st, field), .def = def_,      \
     .min = min_, .max = max_, .sub = sub_, .doc = doc_}
#define ENUM_ROW(sec, st, key_, field, def_, choices_, sub_, doc_)                              \
    {.section = sec, .key = key_, .type = CONF_T_ENUM, .offset = offsetof(st, field),            \
     .def = def_, .choices = choices_, .sub = sub_, .doc = doc_}
#define TOP(key, type, field, def, min, max, doc)                                               \
    ROW(CONF_SEC_TOP, ScenarioConf, key, type, field, def, min, max, NULL, doc)
#define STACK(key, type, field, def, min, max, doc)                                             \
    ROW(CONF_SEC_STACK, StackConf, key, type, field, def, min, max, NULL, doc)
#define HOST(sub, key, type, field, def, min, max, doc)                                         \
    ROW(CONF_SEC_HOST, HostConf, key, type, field, def, min, max, sub, doc)
#define LINK(key, type, field, def, min, max, doc)                                              \
    ROW(CONF_SEC_LINK, LinkConf, key, type, field, def, min, max, NULL, doc)
#define WORK(key, type, field, def, min, max, doc)                                              \
    ROW(CONF_SEC_WORKLOAD, WorkloadConf, key, type, field, def, min, max, NULL, doc)
#define COST_ROW(id, key_, def_ns, doc_)                                                        \
    ROW(CONF_SEC_HOST, HostConf, "costs." key_, CONF_T_DURATION, costs.ns[id], #def_ns "ns",     \
        "0", "1s", "costs", "CPU cost: " doc_),

static const ConfKey table[] = {
    /* ---- top level ---- */
    TOP("name", CONF_T_NAME, name, NULL, NULL, NULL,
        "Scenario name: lower-case letters, digits, '_', '.', '-'; names output files."),
    TOP("title", CONF_T_STRING, title, "\"\"", NULL, NULL,
        "One-line title for reports (empty: the name)."),
    TOP("description", CONF_T_STRING, description, "\"\"", NULL, NULL,
        "Free text: what the scenario shows and why."),
    TOP("published", CONF_T_STRING, published, "\"\"", NULL, NULL,
        "Short text: the result published with the patch, quoted in `sksim report`."),
    TOP("seed", CONF_T_U64, seed, "1", "0", NULL,
        "Seed of the run's random streams, which draw only each flow's start offset "
        "(workloads.W.start_jitter) and random link losses (links.L.loss): without either, every "
        "seed gives the same run. Same seed and scenario give the same run, event for event."),
    TOP("duration", CONF_T_DURATION, duration_ns, NULL, "1ns", NULL,
        "Simulated time of one run, warm-up included."),
    TOP("warmup", CONF_T_DURATION, warmup_ns, "0", "0", NULL,
        "Time before counters and series start (nstat -n at its end); must be shorter than "
        "duration."),
    TOP("hz", CONF_T_U32, hz, "1000", "1", "10000",
        "CONFIG_HZ: jiffy length for jiffy timers (delayed ACK, RTO, slack); 1000 as in Fedora/RHEL "
        "(Debian: 250; kernels offer 100, 250, 300, 1000)."),
    TOP("sample_interval", CONF_T_DURATION, sample_interval_ns, "10ms", "1us", NULL,
        "Period of the time series (queue lengths, throughput, CPU use)."),

    /* ---- stack: the policies the seed patches change ---- */
    STACK("release_sock.resched_every", CONF_T_U32, release_sock_resched_every, "16", "1",
          "65536",
          "`__release_sock()` calls `cond_resched()` after every Nth backlog skb, never after a "
          "batch's last: 16 since the 2025 patch (6.18+); 1 = the loop before it, after every "
          "skb including a batch's last."),
    STACK("release_sock.bh_disabled", CONF_T_BOOL, release_sock_bh_off, "false", NULL, NULL,
          "The drain runs with bottom halves disabled on the owner's CPU, as up to 4.6: "
          "release_sock() took the slock with spin_lock_bh, __release_sock() dropped it with "
          "bh_unlock_sock() (BH stay off) and yielded through cond_resched_softirq(), which "
          "enables them only to reschedule when need_resched is set. That CPU's receive softirq "
          "then cannot add to the backlog during a drain; what arrived is processed after "
          "release. false = 4.7+ (5413d1babe8f 'net: do not block BH while processing socket "
          "backlog'): BH enabled while each batch is processed."),
    STACK("sendmsg.flush_backlog_every", CONF_T_U32, sendmsg_flush_backlog_every, "16", "0",
          "65536",
          "tcp_sendmsg_locked() runs sk_flush_backlog() once per N new skbs: 16 since 5.4, 1 in "
          "4.7-5.3, 0 = never (4.6 and older)."),
    ENUM_ROW(CONF_SEC_STACK, StackConf, "backlog.limit", backlog_limit, "2024",
             backlog_limit_choices, NULL,
             "`tcp_add_backlog()` byte limit, against the backlog's len + rmem_alloc: rcvbuf "
             "(2.6.34-3.4; 2.6.34-3.2 also counted the incoming skb's truesize, which 0fd7bac6b615 "
             "dropped in 3.3 and the model does not count), rcvbuf+sndbuf (3.5-4.8: seed 004, "
             "da882c1f2eca, net-next of April 2012), 2016 = "
             "that + 64 KiB (4.9+), 2022 = rcvbuf + sndbuf/2 + 64 KiB, 2024 = `2*rcvbuf + sndbuf/2 "
             "+ 64 KiB` (current)."),
    STACK("backlog.coalesce", CONF_T_BOOL, backlog_coalesce, "true", NULL, NULL,
          "tcp_add_backlog() merges a segment into the backlog tail (TCPBacklogCoalesce), 5.0+."),
    STACK("backlog.ack_defer", CONF_T_BOOL, backlog_ack_defer, "true", NULL, NULL,
          "net.ipv4.tcp_backlog_ack_defer=1 (6.7+): ACKs for backlog segments are sent once, from "
          "release_cb."),
    STACK("recvmsg.cleanup_before_flush", CONF_T_BOOL, recvmsg_cleanup_before_flush, "false", NULL,
          NULL,
          "tcp_recvmsg() runs tcp_cleanup_rbuf() (which may ACK) before it processes a waiting "
          "backlog without sleeping, as kernels before 5.17 did; false = 5.17+ (29fbc26e6dfc "
          "\"tcp: do not call tcp_cleanup_rbuf() if we have a backlog\"): only before it sleeps."),
    STACK("prequeue.enabled", CONF_T_BOOL, prequeue_enabled, "false", NULL, NULL,
          "TCP prequeue (tcp_low_latency=0 path); removed in 4.14, so off."),
    ENUM_ROW(CONF_SEC_STACK, StackConf, "prequeue.delack", prequeue_delack, "min_ato",
             delack_choices, NULL,
             "Delayed-ACK timeout armed from the prequeue: rto_min_3_4 = `3*rto_min/4` (before seed "
             "003), min_ato = `min(ato, 3*rto_min/4)` (after)."),
    ENUM_ROW(CONF_SEC_STACK, StackConf, "prequeue.limit", prequeue_limit, "4.x",
             prequeue_limit_choices, NULL,
             "When tcp_prequeue() gives up and processes the whole prequeue in softirq "
             "(TCPPrequeueDropped): 4.x = at 32 skbs, or when its truesize plus sk_rmem_alloc "
             "exceeds sk_rcvbuf (4.8-4.13); 3.x = only when its truesize exceeds sk_rcvbuf "
             "(2.6-3.x include/net/tcp.h)."),
    STACK("timer.slack", CONF_T_U32, timer_slack_jiffies, "0", "0", "1000",
          "TCP timers re-armed with the mod_timer_unexact() proposed in the 2009 thread (never "
          "merged): a pending timer within +-slack jiffies of the new expiry is left alone; "
          "0 = mod_timer (short cut on the exact expiry only)."),
    ENUM_ROW(CONF_SEC_STACK, StackConf, "timer.wheel", timer_wheel, "4.8", wheel_choices, NULL,
             "Which tick runs a jiffy timer (RTO, TLP, delayed ACK) armed for jiffy J: 4.8 = the "
             "non-cascading wheel of 4.8+ (calc_index rounds up past the expiry so that no timer "
             "fires early: the tick of J + 1, i.e. N to N + 1 jiffies after arming N ahead, timers "
             "63+ jiffies ahead rounded up to 8, 64, 512... jiffies); cascade = the wheel of "
             "2.6-4.7 (the tick of J itself, N - 1 to N jiffies)."),
    ENUM_ROW(CONF_SEC_STACK, StackConf, "timer.owned", timer_owned, "5.10", timer_owned_choices,
             NULL,
             "A TCP timer (delayed ACK, RTO/probe) that fires while the owner holds the socket: "
             "5.10 = its work is deferred to tcp_release_cb (6f458dfb4092, 3.6), and a delayed-ACK "
             "timer with no ACK timer pending returns before the lock (6.x); 3.6 = deferred too, "
             "and the delayed-ACK timer sets icsk_ack.blocked, which makes tcp_send_delayed_ack and "
             "tcp_cleanup_rbuf ACK at once until an ACK goes (3.6-5.9; removed by \"inet: remove "
             "icsk_ack.blocked\", 5.10); 2.6 = 2.6-3.5 tcp_timer.c: the delayed-ACK timer sets "
             "blocked, counts DelayedACKLocked and re-arms TCP_DELACK_MIN (HZ/25) later, the write "
             "timer re-arms HZ/20 later."),
    ENUM_ROW(CONF_SEC_STACK, StackConf, "softirq.limit", softirq_limit, "3.9", softirq_limit_choices,
             NULL,
             "When __do_softirq() stops restarting and leaves the rest to ksoftirqd: 3.9 = after "
             "2 ms (MAX_SOFTIRQ_TIME), when need_resched is set, or after 10 rounds (c10d73671ad3 "
             "\"softirq: reduce latencies\", 3.9); restarts = after 10 rounds only "
             "(MAX_SOFTIRQ_RESTART, 2.6-3.8)."),
    STACK("softirq.defer_to_ksoftirqd", CONF_T_BOOL, softirq_defer_to_ksoftirqd, "false", NULL,
          NULL,
          "While ksoftirqd/N is runnable, an interrupt's irq_exit (invoke_softirq) and "
          "local_bh_enable (do_softirq) leave pending softirqs to it instead of running them "
          "(ksoftirqd_running(): 4cd13c21b207 \"softirq: Let ksoftirqd do its job\", 4.9, to its "
          "revert d15121be7485 in 2023 (6.5, notes C.6); HI and TASKLET, not modelled, exempt since "
          "2018). "
          "false = before 4.9 and 6.5+: pending work runs there whenever the context allows."),
    STACK("softirq.repoll_in_action", CONF_T_BOOL, softirq_repoll_in_action, "false", NULL, NULL,
          "A NAPI that used its whole weight goes to the tail of the poll list and is polled "
          "again in the same net_rx_action, behind any NAPI scheduled meanwhile, until "
          "netdev_budget or the time limit ends the action (list_move_tail, up to 3.18): with "
          "one busy NAPI ~5 polls (320 packets) per action instead of one. false = 3.19+ "
          "(d75b1ade567f 'net: less interrupt masking in NAPI'): it waits on a private repoll "
          "list for the next action."),

    /* ---- hosts.<host> ---- */
    HOST(NULL, "cpus", CONF_T_U32, cpus, "1", "1", "1024", "CPUs of the host, one run queue each."),
    HOST(NULL, "hz", CONF_T_U32, hz, "0", "0", "10000", "This host's CONFIG_HZ; 0 = the scenario's hz."),
    HOST(NULL, "tick_phase", CONF_T_DURATION, tick_phase_ns, "0", "0", "1s",
         "Offset of this host's jiffies tick, taken modulo one jiffy: its jiffy boundaries fall at "
         "k/HZ - tick_phase. Two real hosts tick at unrelated instants, which shifts every "
         "jiffy-rounded timer (RTO, TLP, delayed ACK) of one against the other's; 0 = every host "
         "ticks at the same instants."),
    ENUM_ROW(CONF_SEC_HOST, HostConf, "sched.policy", sched.policy, "eevdf", sched_choices, "sched",
             "Fair-class scheduler: cfs (2.6.23-6.5) or eevdf (6.6+)."),
    HOST("sched", "sched.latency", CONF_T_DURATION, sched.latency_ns, "6ms", "100us", "1s",
         "CFS sysctl_sched_latency before the factor 1 + ilog2(min(cpus, 8)); kernel default 6 ms."),
    HOST("sched", "sched.min_granularity", CONF_T_DURATION, sched.min_granularity_ns, "0.75ms",
         "100us", "1s", "CFS sysctl_sched_min_granularity before the CPU factor; kernel default 0.75 ms."),
    HOST("sched", "sched.wakeup_granularity", CONF_T_DURATION, sched.wakeup_granularity_ns, "1ms",
         "0", "1s",
         "CFS sysctl_sched_wakeup_granularity (wake-up preemption threshold) before the CPU "
         "factor; kernel default 1 ms."),
    HOST("sched", "sched.base_slice", CONF_T_DURATION, sched.base_slice_ns, "0.75ms", "100us", "1s",
         "EEVDF sysctl_sched_base_slice before the CPU factor: 0.75 ms in 6.6-6.14 (0.70 ms from "
         "6.15)."),
    ENUM_ROW(CONF_SEC_HOST, HostConf, "sched.preempt", sched.preempt, "voluntary", preempt_choices,
             "sched",
             "Preemption model: none, voluntary (CONFIG_PREEMPT_VOLUNTARY, the usual distro "
             "build) or full."),
    HOST("sched", "sched.wake_idle", CONF_T_BOOL, sched.wake_idle, "true", NULL, NULL,
         "A waking task whose CPU is busy moves to an idle CPU it may run on (the host is one "
         "cache domain): select_idle_sibling() since 2.6.32, wake_idle() before. false = tasks "
         "stay on the CPU they were placed on at start."),
    HOST("sched", "sched.load_balance", CONF_T_BOOL, sched.load_balance, "true", NULL, NULL,
         "Fair-class load balancing inside the host (one domain, every kernel does it): a CPU "
         "about to go idle pulls one waiting task from the busiest CPU (newidle_balance, "
         "sched_balance_newidle since 6.10); at the tick, every cpus ms (x16 while busy: "
         "balance_interval, busy_factor) a CPU pulls one when the busiest has 2+ more runnable, "
         "and a CPU with waiting tasks lets the idle CPUs pull (nohz idle balance). A CPU in "
         "softirq counts as one running task. A pass looks at no more than 32 tasks of the "
         "busiest queue (sysctl_sched_nr_migrate). Each pull costs costs.lb_pull on the puller. "
         "false = tasks move only at wake-up (sched.wake_idle)."),
    HOST("sched", "sched.newidle_avg_idle", CONF_T_BOOL, sched.newidle_avg_idle, "false", NULL,
         NULL,
         "A CPU going idle balances (newidle) only while its average idle time is at least "
         "sysctl_sched_migration_cost, 0.5 ms: rq->avg_idle, a 1/8 running average of the gaps "
         "between going idle and the next wake-up on it, capped at 1 ms and starting there "
         "(idle_balance/newidle_balance and ttwu_do_wakeup, from 'sched: Rate-limit newidle', "
         "2.6.33, to 5.15). So a CPU that sleeps and wakes at packet rate stops pulling. false "
         "= no such gate (before 2.6.33; 5.16+ and EEVDF gate on max_newidle_lb_cost, not "
         "modelled)."),
    HOST("sched", "sched.migration_cost", CONF_T_DURATION, sched.migration_cost_ns, "500us", "0",
         "1s",
         "sysctl_sched_migration_cost (0.5 ms in every CFS and EEVDF kernel; in debugfs since "
         "5.13). Load balancing leaves a waiting task on its CPU while it is cache-hot, that is "
         "while less than this has passed since it last ran (can_migrate_task -> task_hot), "
         "unless that CPU's periodic balancing has failed more than cache_nice_tries = 1 times "
         "in a row (sd->nr_balance_failed, counted by periodic and nohz passes, not newidle "
         "ones; sd_init gives 1 to a domain sharing the last-level cache); newidle_avg_idle "
         "gates on it too. 0 = no task is ever cache-hot (the kernel's meaning of 0)."),
    HOST("sched", "sched.irq_time_accounting", CONF_T_BOOL, sched.irq_time_accounting, "true", NULL,
         NULL,
         "CONFIG_IRQ_TIME_ACCOUNTING=y, as distribution kernels build it: softirq time that "
         "interrupts a task is not charged to it (update_curr on rq->clock_task, 2.6.37+: "
         "b52bfee445d3 \"sched: Add IRQ_TIME_ACCOUNTING, finer accounting of irq time\", "
         "305e6835e055 \"sched: Do not account irq time to current task\"). false = the "
         "kernels before it: update_curr timed the current task on rq->clock, so softirq run "
         "while a task is current counts in its runtime and vruntime and in the tick's slice "
         "check; softirq on an idle CPU is charged to no task."),
    HOST("sched", "sched.delay_dequeue", CONF_T_BOOL, sched.delay_dequeue, "false", NULL, NULL,
         "EEVDF's DELAY_DEQUEUE and DELAY_ZERO (6.12+, on by default there: 152e11f6df29 "
         "\"sched/fair: Implement delayed dequeue\", 54a58a787791 \"sched/fair: Implement "
         "DELAY_ZERO\"): a task that sleeps with negative lag (not eligible) stays on its run "
         "queue, competing, until it is picked; the pick then dequeues it with any positive lag "
         "cut to 0. Woken while still queued, it stays on that CPU and keeps its vruntime and "
         "deadline, or is placed at the average with lag 0 if its lag grew positive. So a "
         "sleeper cannot shed negative lag, nor keep it after a long sleep. Ignored with "
         "sched.policy cfs (so that variants may switch the policy). false = 6.6-6.11: a "
         "sleeper leaves the queue and keeps its lag, whatever its sign, until it wakes."),
    ENUM_ROW(CONF_SEC_HOST, HostConf, "sched.cpuidle", sched.cpuidle, "poll", cpuidle_choices,
             "sched",
             "C-states of an idle CPU (models/cpuidle.c): a wake-up or an interrupt on an idle "
             "CPU waits for the exit latency of the state the menu governor picked - the deepest "
             "whose target residency fits the CPU's previous idle period, at least the shallowest "
             "- before anything runs there. Tables of drivers/idle/intel_idle.c: nhm "
             "(Nehalem/Westmere: C1 3 us, C1E 10, C3 20, C6 200), snb (Sandy Bridge: C1 2, C1E "
             "10, C3 80, C6 104, C7 109), skx (Skylake-SP/Cascade Lake: C1 2, C1E 10, C6 133), "
             "icx (Ice Lake-SP: C1 1, C1E 4, C6 128), each state's target residency as listed "
             "there. poll = no C-state (idle=poll, or all disabled): no wait. Counters "
             "SksimIdleExits and SksimIdleExitNs count the waits."),
    HOST("nic", "nic.mtu", CONF_T_U32, nic.mtu, "1500", "68", "65536",
         "IP MTU in bytes: Ethernet 1500 (9000 jumbo, loopback 65536)."),
    HOST("nic", "nic.rx_ring", CONF_T_U32, nic.rx_ring, "1024", "1", "65536",
         "RX descriptors (ethtool -g); frames arriving at a full ring are dropped."),
    HOST("nic", "nic.tx_ring", CONF_T_U32, nic.tx_ring, "1024", "1", "65536",
         "TX descriptors (ethtool -g); a full ring stops the qdisc."),
    HOST("nic", "nic.qdisc_limit", CONF_T_PKTS, nic.qdisc_limit, "1000", "1", "1000000",
         "Root qdisc limit in packets (skbs; a TSO skb is one): txqueuelen 1000 for pfifo; "
         "fq_codel's default limit is 10240."),
    ENUM_ROW(CONF_SEC_HOST, HostConf, "nic.qdisc", nic.qdisc, "pfifo", qdisc_choices, "nic",
             "Root qdisc of the NIC. pfifo: one FIFO of qdisc_limit skbs that refuses an skb when "
             "full (NET_XMIT_DROP: the sender's TCP enters CWR and keeps its copy), pfifo_fast's "
             "single band. fq_codel (sch_fq_codel, net.core.default_qdisc on most distributions "
             "since 2014): a FIFO per flow (1024 buckets by connection), served by deficit round "
             "robin with a quantum of one MTU plus the Ethernet header, flows that were idle "
             "first; on each flow CoDel drops at dequeue once its skbs have waited over "
             "codel_target for a whole codel_interval, then at interval / sqrt(count); over "
             "qdisc_limit skbs or qdisc_memory_limit bytes of truesize it drops from the head of "
             "the flow with the most bytes, up to half of them and at most 64 skbs "
             "(NET_XMIT_CN when that was the sender's own flow). No ECN marking (the model has no "
             "ECN) and no pacing: TCP paces itself (tcp.pacing) as it does under fq_codel. "
             "Counters: SksimQdiscDrops (refused), SksimQdiscCodelDrops, "
             "SksimQdiscOverlimitDrops."),
    HOST("nic", "nic.codel_target", CONF_T_DURATION, nic.codel_target_ns, "5ms", "1us", "10s",
         "fq_codel: the sojourn time CoDel tolerates (target; 5 ms)."),
    HOST("nic", "nic.codel_interval", CONF_T_DURATION, nic.codel_interval_ns, "100ms", "1us",
         "100s", "fq_codel: how long the sojourn time must stay above target before CoDel drops, "
         "and the base of its drop spacing (interval; 100 ms)."),
    HOST("nic", "nic.qdisc_memory_limit", CONF_T_SIZE, nic.qdisc_memory_limit, "32MiB", "64KiB",
         "1GiB", "fq_codel: the truesize its skbs may hold before it drops (memory_limit; 32 MiB). "
         "64 KB TSO skbs reach it long before qdisc_limit."),
    HOST("nic", "nic.bql", CONF_T_BOOL, nic.bql, "true", NULL, NULL,
         "Byte queue limits on the TX ring (BQL, 3.3+, for drivers that report completions, as "
         "ixgbe, mlx4/mlx5 and bnx2x do): the driver stops the queue once the bytes in its ring "
         "exceed a limit that it learns from TX completions (models/dql.c), so skbs beyond it "
         "wait in the qdisc and a sender's own frames never overrun the link queue. false = "
         "kernels before 3.3: the ring takes up to tx_ring skbs, whose frames can overflow "
         "links.L.queue at the sender."),
    HOST("nic", "nic.rate", CONF_T_RATE, nic.rate_bps, "0", NULL, NULL,
         "Port speed of the host's NIC; 0 (the default) = the rate of the link it sends into, so "
         "the link's queue holds only what BQL lets out of the ring. Faster than the link: the "
         "link is a bottleneck beyond the NIC (a switch port, a shaper) with links.L.queue as "
         "its drop-tail buffer; the NIC sends each skb's frames back to back at this rate and "
         "completes them (TSQ, BQL) when its port is done, so a sender can overrun that buffer. "
         "Must not be below the rate of any link the host sends into."),
    HOST("nic", "nic.gro", CONF_T_BOOL, nic.gro, "true", NULL, NULL,
         "Generic receive offload: NAPI merges a flow's segments up to 64 KiB (ethtool -K gro on)."),
    HOST("nic", "nic.gro_normal_batch", CONF_T_U32, nic.gro_normal_batch, "8", "1", "1024",
         "Segments NAPI gathers before handing what GRO did not hold (and, with gro off, every "
         "frame) to the stack, and at the end of each poll (net.core.gro_normal_batch, "
         "323ebb61e32b 'net: use listified RX for handling GRO_NORMAL skbs', 5.4). 1 = each skb "
         "goes up at once (napi_skb_finish -> netif_receive_skb), as before 5.4."),
    HOST("nic", "nic.tso", CONF_T_BOOL, nic.tso, "true", NULL, NULL,
         "TCP segmentation offload: the stack hands the NIC up to 64 KiB (ethtool -K tso on)."),
    HOST("nic", "nic.gso", CONF_T_BOOL, nic.gso, "true", NULL, NULL,
         "Generic segmentation offload (ethtool -K gso on, the default): with tso off, TCP still "
         "builds skbs of up to 64 KiB and the device cuts them into segments in software "
         "(skb_gso_segment), at costs.gso_segment each; a capture shows the segments. false "
         "with tso false: TCP sends one MSS per skb, as kernels before 4.13 did with both off "
         "(since 0a6b2a1dc2a2, 4.13, TCP always uses GSO, so false describes no newer kernel)."),
    HOST("nic", "nic.irq_cpu", CONF_T_U32, nic.irq_cpu, "0", "0", "1023",
         "CPU that takes the NIC interrupt and runs its NAPI softirq; must be below cpus. A task "
         "not pinned away from it may stay on it and share it with the softirq (the model has "
         "no wake_affine or active balancing: README, 'Not modelled')."),
    HOST("nic", "nic.irq_coalesce", CONF_T_DURATION, nic.irq_coalesce_ns, "0", "0", "1s",
         "Interrupt coalescing (ethtool -C rx-usecs), as nic.irq_mode counts it; 0 = an "
         "interrupt per frame batch, no moderation. Server NIC drivers moderate by default: "
         "bnx2x 24 us for RX, ixgbe its dynamic mode (nic.irq_mode: ixgbe), mlx5 an adaptive "
         "scheme (DIM) the model does not have. With 0 a 10 Gbit/s receiver's GRO merges "
         "~1.3 frames per skb and its NAPI CPU is ~96 % busy; with 20us, 15 frames and ~33 %."),
    HOST("nic", "nic.tx_coalesce", CONF_T_DURATION, nic.tx_coalesce_ns, "0", "0", "1s",
         "Coalescing delay of a TX completion's interrupt (ethtool -C tx-usecs) with irq_mode "
         "delay; 0 = irq_coalesce's. The interrupt fires when the first pending delay runs out: "
         "bnx2x times its RX and TX status-block indices apart (24 and 48 us by default). "
         "Intel's throttle (irq_mode throttle, ixgbe) has one interval per vector and ignores "
         "this."),
    ENUM_ROW(CONF_SEC_HOST, HostConf, "nic.irq_mode", nic.irq_mode, "delay", irq_mode_choices,
             "nic",
             "How irq_coalesce moderates each queue's interrupt. delay: the interrupt fires "
             "irq_coalesce after the first frame or TX completion that finds it enabled, a "
             "coalescing timer as mlx4/mlx5 and bnx2x count rx-usecs. throttle: interrupts at "
             "least irq_coalesce apart, Intel's interrupt throttle (EITR, ixgbe with a static "
             "rx-usecs): after a quiet interval the first event interrupts at once. ixgbe: "
             "throttled to the interval ixgbe picks in its default dynamic mode (rx-usecs 1; "
             "3.2 until 2015, models/nic_itr.c): after each completed poll, from the bytes per "
             "microsecond its RX and TX rings moved, 10 us (lowest latency), 50 us (low) or "
             "122 us (bulk: 8000/s, where the smoothing settles), reached by smoothing from "
             "50 us; irq_coalesce is not used. "
             "Counter SksimNicIrqs counts the interrupts."),
    HOST("nic", "nic.rx_queues", CONF_T_U32, nic.rx_queues, "1", "1", "64",
         "RX queues (ethtool -L combined; RSS): each has its own RX ring of rx_ring descriptors, "
         "MSI-X interrupt with irq_coalesce, NAPI context and GRO state. A flow's frames go to "
         "queue hash(src host, src port, dst host, dst port) mod rx_queues (a fixed integer hash "
         "standing in for the NIC's Toeplitz hash), so one flow never spreads. TX completions "
         "stay on queue 0. RPS/RFS are off, as by default."),
    HOST("nic", "nic.irq_cpus", CONF_T_CPULIST, nic.irq_cpus, "[]", NULL, NULL,
         "IRQ CPU of each RX queue (/proc/irq/N/smp_affinity): queue i uses irq_cpus[i mod n]; "
         "[] = CPU (irq_cpu + i) mod cpus. Every CPU must exist on the host."),
    HOST("nic", "nic.rps_cpus", CONF_T_CPULIST, nic.rps_cpus, "[]", NULL, NULL,
         "Receive packet steering (/sys/class/net/DEV/queues/rx-N/rps_cpus, the same for every "
         "RX queue; off by default): after GRO, the IRQ CPU hands each skb to the backlog of "
         "rps_cpus[reciprocal_scale(flow hash, n)] (enqueue_to_backlog, costs.rps_enqueue; an IPI "
         "raises NET_RX there), whose softirq then runs IP and TCP for it (process_backlog). The "
         "skbs share that CPU's backlog with loopback's, bounded by tcp.netdev_max_backlog. [] = "
         "off. Every CPU must exist on the host."),
    HOST("nic", "nic.rfs", CONF_T_BOOL, nic.rfs, "false", NULL, NULL,
         "Receive flow steering (net.core.rps_sock_flow_entries and the queues' rps_flow_cnt set; "
         "off by default): each flow's skbs go, as with RPS, to the backlog of the CPU on which "
         "its socket's task last called recvmsg or sendmsg (sock_rps_record_flow); a flow moves "
         "to a new CPU only when none of its skbs is left in the old CPU's backlog, so it is not "
         "reordered. A flow whose socket was not used yet follows nic.rps_cpus, or stays on the "
         "IRQ CPU."),
    HOST("nic", "nic.arfs", CONF_T_BOOL, nic.arfs, "false", NULL, NULL,
         "Accelerated RFS (ndo_rx_flow_steer, ethtool -K ntuple on; needs nic.rfs): the NIC puts "
         "each flow's frames on the RX queue whose interrupt CPU (nic.irq_cpus) is the CPU its "
         "socket was last used on, so driver, GRO and TCP work all run there; a flow whose CPU "
         "has no queue, or whose socket was not used yet, keeps its RSS queue. The filter takes "
         "effect with the flow's next burst."),
    HOST("tcp", "tcp.rto_min", CONF_T_DURATION, tcp.rto_min_ns, "200ms", "1ms", "120s",
         "Minimum RTO: TCP_RTO_MIN = HZ/5 = 200 ms (ip route rto_min). Counted in whole "
         "jiffies, rounded up (msecs_to_jiffies): 5ms at hz 250 is 8 ms."),
    HOST("tcp", "tcp.delack_from_rto_min", CONF_T_BOOL, tcp.delack_from_rto_min, "true", NULL, NULL,
         "rto_min also caps the delayed ACK at rto_min - 1 jiffy: with rto_min 5ms a delayed "
         "ACK waits at most 4 ms, with the default 200ms at most 199 jiffies (6.11+, \"tcp: "
         "derive delack_max with tcp_rto_min helper\", whatever sets rto_min; 6.7-6.10, "
         "bbf80d713fe7, only a route's locked rto_min, one jiffy apart at the default). false = "
         "kernels before 6.7, where a delayed ACK could outlast a low rto_min."),
    HOST("tcp", "tcp.quickack_per_ack", CONF_T_BOOL, tcp.quickack_per_ack, "true", NULL, NULL,
         "A quick ACK is used up only by an ACK sent while one was owed (\"tcp: fix quick-ack "
         "counting to count actual ACKs of new data\", 059217c18be6, 6.6). false = kernels "
         "before it: every segment carrying an ACK, data included, used up tcp_skb_pcount of "
         "them, so one TSO skb of 16 segments or more ended quick-ACK mode."),
    HOST("tcp", "tcp.ack_rcvlowat", CONF_T_BOOL, tcp.ack_rcvlowat, "true", NULL, NULL,
         "__tcp_ack_snd_check sends the every-2-MSS ACK at once also when the unread data is "
         "below SO_RCVLOWAT (rcv_nxt - copied_seq < 1: all read), not only when the window's "
         "right edge would not move back (\"tcp: fix delayed acks behavior for SO_RCVLOWAT\", "
         "4.18). false = kernels before it (2.6-4.17; 4.11 tcp_input.c has only the window "
         "test), where a reader that has read everything still waits for tcp_cleanup_rbuf or "
         "the timer when the window would shrink."),
    HOST("tcp", "tcp.gap_fill_ack_now", CONF_T_BOOL, tcp.gap_fill_ack_now, "true", NULL, NULL,
         "When in-order data empties the out-of-order queue (a hole filled), tcp_data_queue sets "
         "ICSK_ACK_NOW and the ACK leaves at once (RFC 5681 4.2; 4.18+ copies). false = 2.6-3.x "
         "(tcp_input.c, \"RFC2581. 4.2\" comment): it only leaves ping-pong mode, so the ACK "
         "is immediate only with quick-ACK credit left or by the 2-MSS rule's window test, else "
         "delayed. (Which release changed it, between 4.9 and 4.18, is not identified.)"),
    HOST("tcp", "tcp.push_full_mss", CONF_T_BOOL, tcp.push_full_mss, "true", NULL, NULL,
         "A data segment of rcv_mss or more with PSH set marks ICSK_ACK_PUSHED in "
         "tcp_measure_rcv_mss, so a reader that empties its receive queue while not in "
         "ping-pong mode ACKs it at once from tcp_cleanup_rbuf (\"tcp: fix delayed ACKs for MSS "
         "boundary condition\", 4720852ed9af, 6.6, read in 6.6.14): a write of an odd "
         "number of full segments is ACKed when read, not after the delayed-ACK timer. false = "
         "kernels before it, where only a segment shorter than rcv_mss set PUSHED."),
    HOST("tcp", "tcp.rcvbuf", CONF_T_SIZE, tcp.rcvbuf, "131072", "4608", "1GiB",
         "Initial sk_rcvbuf = tcp_rmem[1]: 131072 since 4.20 (87380 before)."),
    HOST("tcp", "tcp.sndbuf", CONF_T_SIZE, tcp.sndbuf, "16384", "4608", "1GiB",
         "Initial sk_sndbuf = tcp_wmem[1] = 16384. tcp_sndbuf_expand() raises it when the "
         "connection is set up to 2 x max(10, cwnd, reordering + 1) segments' truesize (87040 "
         "bytes at MTU 1500, so a smaller value changes nothing) and again as cwnd grows, up to "
         "tcp_wmem[2] = 4 MiB, unless tcp.sndbuf_autotune is false (SO_SNDBUF)."),
    HOST("tcp", "tcp.rcvbuf_max", CONF_T_SIZE, tcp.rcvbuf_max, "6MiB", "4608", "1GiB",
         "Receive autotuning ceiling tcp_rmem[2]: 6 MiB (4 MiB before 2012)."),
    HOST("tcp", "tcp.sndbuf_autotune", CONF_T_BOOL, tcp.sndbuf_autotune, "true", NULL, NULL,
         "Send-buffer autotuning: tcp_sndbuf_expand() grows sk_sndbuf with cwnd (and at set-up) "
         "up to tcp_wmem[2] = 4 MiB. false = the application set SO_SNDBUF, which locks the "
         "buffer (SOCK_SNDBUF_LOCK): it stays at tcp.sndbuf, which is then the kernel's "
         "sk_sndbuf, twice the value passed to setsockopt (netperf -s 2M gives 4 MiB)."),
    HOST("tcp", "tcp.rcvbuf_autotune", CONF_T_BOOL, tcp.rcvbuf_autotune, "true", NULL, NULL,
         "net.ipv4.tcp_moderate_rcvbuf=1: tcp_rcv_space_adjust() grows sk_rcvbuf up to rcvbuf_max."),
    ENUM_ROW(CONF_SEC_HOST, HostConf, "tcp.cc", tcp.cc, "cubic", cc_choices, "tcp",
             "Congestion control: cubic (the default since 2.6.19) or reno."),
    HOST("tcp", "tcp.pingpong_thresh", CONF_T_U32, tcp.pingpong_thresh, "1", "1", "255",
         "Replies that put a receiver in ping-pong (interactive) mode, where its delayed ACK "
         "waits for the reply to carry it (net.ipv4.tcp_pingpong_thresh, 6.7+). 1: data sent "
         "within ato of the last data received enters it at once, as every kernel but "
         "5.1-5.19 does; above 1, each first reply to newly received data (the last send in "
         "an earlier jiffy than the last receipt) that leaves within ato counts one, and the "
         "mode starts at the threshold. 3 is 5.1-5.19 (4a41f453bedf, reverted by "
         "4d8f24eeedc5 in 6.0 and in the stable trees in Aug 2022), where a reply in the "
         "jiffy of the previous send never counts."),
    HOST("tcp", "tcp.frto", CONF_T_U32, tcp.frto, "2", "0", "2",
         "net.ipv4.tcp_frto: 2 = SACK-enhanced F-RTO (default), 1 = basic, 0 = off."),
    HOST("tcp", "tcp.undo_without_rtx", CONF_T_BOOL, tcp.undo_without_rtx, "true", NULL, NULL,
         "A loss episode (Recovery or Loss) whose ACKs come before any retransmission was even "
         "attempted (TSQ, pacing or cwnd held it back) is undone as spurious: tcp_packet_delayed "
         "takes retrans_stamp 0 as 'delayed', and Recovery starts by clearing a stale "
         "retrans_stamp. true = 6.12+ and the 5.15/6.1/6.6 stable trees (\"tcp: fix to allow "
         "timestamp undo if no retransmits were sent\", \"tcp: fix tcp_enter_recovery() to zero "
         "retrans_stamp when it's safe\", Oct 2024); 3.x's tcp_packet_delayed also had the "
         "first half (!retrans_stamp || ...). false = the 4.x-6.11 rule: only an echoed TSval "
         "older than the first retransmission counts."),
    HOST("tcp", "tcp.sack", CONF_T_BOOL, tcp.sack, "true", NULL, NULL, "net.ipv4.tcp_sack=1."),
    HOST("tcp", "tcp.timestamps", CONF_T_BOOL, tcp.timestamps, "true", NULL, NULL,
         "net.ipv4.tcp_timestamps=1: a 12-byte option in every segment."),
    HOST("tcp", "tcp.usec_ts", CONF_T_BOOL, tcp.usec_ts, "false", NULL, NULL,
         "The host's TSval counts microseconds instead of milliseconds: the route feature "
         "tcp_usec_ts (ip route ... features tcp_usec_ts, 6.7+). Each side echoes the other's "
         "values, so the hosts of one connection need not agree. TSecr-based RTT samples (the "
         "receiver's autotuning RTT, the sender's fallback) become us-exact."),
    HOST("tcp", "tcp.tlp", CONF_T_BOOL, tcp.tlp, "true", NULL, NULL,
         "Tail loss probe: net.ipv4.tcp_early_retrans=3 (3.10+)."),
    ENUM_ROW(CONF_SEC_HOST, HostConf, "tcp.timeouts_count", tcp.timeouts_count, "5.5",
             timeouts_count_choices, "tcp",
             "What TcpExtTCPTimeouts counts (tcp_retransmit_timer). 5.5 = every RTO firing, "
             "backed-off ones included (e1561fe2dd69, 5.5, and 4.19.89 in the stable tree); "
             "legacy = before it, only the first timeout of a series and only from Open or CWR "
             "without SACKed data. Either way the first timeout of a series in another state "
             "counts TCPSackRecoveryFail or TCPRenoRecoveryFail (from Recovery), TCPLossFailures "
             "(Loss) or TCPSackFailures or TCPRenoFailures (Disorder, or SACKed data). sksim's "
             "diagnosis (SksimRTOPeer*) classifies every firing."),
    ENUM_ROW(CONF_SEC_HOST, HostConf, "tcp.loss_detection", tcp.loss_detection, "rack",
             loss_detection_choices, "tcp",
             "How a SACK sender finds lost segments. rack = RACK (4.4+, the only SACK loss "
             "detection since 4.18): a segment is lost once one sent after it was (s)acked and a "
             "RACK RTT plus a reordering window has passed. fack = 2.6-4.3 with "
             "net.ipv4.tcp_fack = 1, the default (RACK joined it in 4.4, FACK was retired in "
             "4.15; read in 3.4's tcp_input.c): Recovery begins "
             "when something is marked lost, fackets_out (segments up to the highest SACKed one) "
             "exceeds tp->reordering (3) or the head was sent more than an RTO ago "
             "(tcp_time_to_recover); then every un-SACKed segment among the first fackets_out - "
             "reordering is lost (tcp_update_scoreboard, tcp_mark_head_lost), and in Recovery a "
             "retransmission is lost again once data sent after it is SACKed "
             "(tcp_mark_lost_retrans); an RTO marks everything un-SACKed lost. No RACK reordering "
             "timer. Without SACK both are NewReno."),
    HOST("tcp", "tcp.autocorking", CONF_T_BOOL, tcp.autocorking, "true", NULL, NULL,
         "net.ipv4.tcp_autocorking=1 (3.14+, f54b311142a9): at the end of a write, a tail skb "
         "still short of size_goal is held while earlier data of the socket waits below TCP "
         "(sk_wmem_alloc above the tail's truesize); that data's TX completion runs the TSQ "
         "handler, which sends the tail grown by later writes (TcpExtTCPAutoCorking). false = "
         "kernels before 3.14, which sent it at once (Nagle permitting)."),
    HOST("tcp", "tcp.moderate_cwnd", CONF_T_BOOL, tcp.moderate_cwnd, "false", NULL, NULL,
         "Cwnd moderation of 2.6-4.x (tcp_moderate_cwnd, tcp_input.c): cwnd = min(cwnd, in "
         "flight + tcp_max_burst), tcp_max_burst being tp->reordering (3), on every ACK that "
         "leaves the sender in Disorder (tcp_try_to_open), on every ACK in Loss that undoes "
         "nothing, and when a non-SACK sender holds Recovery or Loss at high_seq "
         "(tcp_try_undo_recovery); in the kernel this follows the ACK's cwnd growth, as here. "
         "Read in the 3.2-3.4 tcp_input.c; 6.x has no tcp_moderate_cwnd. false = no moderation, "
         "as now: a SACK that leaves a hole lets the sender send up to its full cwnd."),
    HOST("tcp", "tcp.tso_half_cwnd", CONF_T_BOOL, tcp.tso_half_cwnd, "true", NULL, NULL,
         "tcp_cwnd_test() lets one TSO skb carry at most half the cwnd, so that at least two are "
         "in flight (\"tcp: limit GSO packets to half cwnd\", Eric Dumazet, 2015). false = "
         "2.6-3.x, whose tcp_cwnd_test() returned all of cwnd - in_flight: tcp_write_xmit cut a "
         "TSO skb to the whole cwnd quota (within the peer's window and the 64 KB size goal)."),
    HOST("tcp", "tcp.tso_split_nagle", CONF_T_BOOL, tcp.tso_split_nagle, "true", NULL, NULL,
         "tcp_mss_split_point keeps a TSO skb's last, partial segment on it when Nagle would let "
         "that segment go (TCP_NAGLE_PUSH, nothing small in flight): the skb leaves whole (Eric "
         "Dumazet's \"tcp: refine TSO splits\", late 2014). false = the kernels before it "
         "(2.6-3.x tcp_output.c): the split point is always the last whole MSS, so the partial "
         "tail is cut off by tcp_fragment and sent as an skb of its own, Nagle permitting - one "
         "more split and transmit per pushed write that does not end on an MSS boundary."),
    HOST("tcp", "tcp.slow_start_after_idle", CONF_T_BOOL, tcp.slow_start_after_idle, "true", NULL,
         NULL,
         "net.ipv4.tcp_slow_start_after_idle=1 (the default of every kernel, RFC 2861): a sender "
         "that had nothing in flight for more than an RTO halves its cwnd once per RTO of idle "
         "time, down to the initial window, when a write queues new data or the peer's window "
         "changes (tcp_cwnd_restart); one that was not cwnd-limited and went an RTO without "
         "growing it moves cwnd halfway down to what it used (tcp_cwnd_application_limited). "
         "false = keep the cwnd across idle periods."),
    HOST("tcp", "tcp.ofo_grows_window", CONF_T_BOOL, tcp.ofo_grows_window, "true", NULL, NULL,
         "Out-of-order data grows the offered window as in-order data does (tcp_grow_window from "
         "tcp_data_queue_ofo, since 2013; for SACK flows only since 5.8, 662051215c75, which the "
         "model applies in every era). false = kernels before 2013: during recovery the window "
         "stays where it was."),
    HOST("tcp", "tcp.ofo_measure_rcv_mss", CONF_T_BOOL, tcp.ofo_measure_rcv_mss, "true", NULL,
         NULL,
         "Out-of-order data updates the receiver's MSS estimate (icsk_ack.rcv_mss, tcpi_rcv_mss) "
         "and, with tcp.win_scaling scaling_ratio*, the scaling ratio, as in-order data does: "
         "tcp_data_queue_ofo calls tcp_measure_rcv_mss once the skb passed the memory check "
         "(38d7e4443365 \"tcp: call tcp_measure_rcv_mss() for ooo packets\", July 2025, 6.17). "
         "false = kernels before it: a flow whose first segments arrive out of order keeps the "
         "initial rcv_mss (536 at most) until in-order data comes."),
    HOST("tcp", "tcp.ofo_quickack", CONF_T_BOOL, tcp.ofo_quickack, "false", NULL, NULL,
         "Out-of-order and partly old data put the receiver in quick-ACK mode "
         "(tcp_enter_quickack_mode in tcp_data_queue: up to 16 immediate ACKs, ping-pong off, "
         "ato at its minimum), as before 4.18, so the segments after a filled hole are each ACKed "
         "at once. false = 4.18+ (a3893637e1eb 'tcp: do not force quickack when receiving "
         "out-of-order packets')."),
    HOST("tcp", "tcp.comp_sack_nr", CONF_T_U32, tcp.comp_sack_nr, "44", "0", "255",
         "SACK compression (4.18+), net.ipv4.tcp_comp_sack_nr: with data out of order, the first 3 "
         "ACKs for one rcv_nxt leave at once (TCP_FASTRETRANS_THRESH); later ones are held by an "
         "hrtimer of min(comp_sack_delay, 5 % of the smaller of the receiver RTT and srtt) plus "
         "comp_sack_slack, up to this many, and one ACK then carries the latest SACK blocks "
         "(TcpExtTCPAckCompressed counts the ACKs saved). 0 = off, as every kernel before 4.18."),
    HOST("tcp", "tcp.comp_sack_delay", CONF_T_DURATION, tcp.comp_sack_delay_ns, "1ms", "0", "1s",
         "net.ipv4.tcp_comp_sack_delay_ns: the longest a compressed SACK waits (1 ms)."),
    HOST("tcp", "tcp.comp_sack_slack", CONF_T_DURATION, tcp.comp_sack_slack_ns, "100us", "0", "1s",
         "net.ipv4.tcp_comp_sack_slack_ns: the hrtimer's range (100 us). The model fires the timer "
         "at the end of its range; a kernel runs it earlier when another hrtimer interrupt (the "
         "tick) falls inside the range."),
    HOST("tcp", "tcp.tsq", CONF_T_BOOL, tcp.tsq, "true", NULL, NULL,
         "TCP Small Queues (\"tcp: TCP Small Queues\", 46d3ceabd8d9, 3.6): tcp_write_xmit stops "
         "while the socket's skbs below TCP (qdisc, TX ring) pass max(2 x truesize, ~1 ms of "
         "pacing rate), at most limit_output_bytes, and resumes on their TX completion. false = "
         "kernels before 3.6: no such limit, TCP hands the device everything cwnd and the "
         "peer's window allow."),
    HOST("tcp", "tcp.limit_output_bytes", CONF_T_SIZE, tcp.limit_output_bytes, "1MiB", "1", "1GiB",
         "TSQ cap net.ipv4.tcp_limit_output_bytes: 1 MiB (2018-6.15), 4 MiB since 6.16 "
         "(9ea3bfa61b09), 256 KiB from 2015, 128 KiB from 2012."),
    HOST("tcp", "tcp.tsq_cap_paced", CONF_T_BOOL, tcp.tsq_cap_paced, "false", NULL, NULL,
         "Whether limit_output_bytes also caps the TSQ limit of a paced flow (tcp.pacing: "
         "sk_pacing_status is not SK_PACING_NONE). false = 2018-6.15 (c73e5807e4f6 \"tcp: tsq: no "
         "longer use limit_output_bytes for paced flows\"; read in 6.6's tcp_small_queue_check): "
         "a paced flow may keep max(2 x truesize, pacing_rate >> 10) below TCP, ~1 ms of its rate "
         "however fast. true = kernels before it, and 6.16+ (c4221a8cc3a7 \"tcp: always use "
         "tcp_limit_output_bytes limitation\", which came with limit_output_bytes 4 MiB)."),
    HOST("tcp", "tcp.pacing", CONF_T_BOOL, tcp.pacing, "false", NULL, NULL,
         "TCP internal pacing (EDT, 4.20+): each skb's departure is tcp_wstamp_ns, advanced by "
         "len / pacing_rate (200% of cwnd*mss/srtt in slow start, 120% after), an hrtimer resumes "
         "transmission. Off by default: Linux paces only with the fq qdisc, SO_MAX_PACING_RATE or "
         "BBR; CUBIC over pfifo_fast does not pace."),
    HOST("tcp", "tcp.netdev_budget", CONF_T_PKTS, tcp.netdev_budget, "300", "1", "1000000",
         "net.core.netdev_budget: packets per net_rx_action() round."),
    HOST("tcp", "tcp.netdev_budget_usecs", CONF_T_DURATION, tcp.netdev_budget_ns, "0", "0", "1s",
         "net.core.netdev_budget_usecs: time limit of a net_rx_action() round; 0 (the default) = "
         "the kernel's default 2 * USEC_PER_SEC / HZ, 2 jiffies of the host's HZ (2 ms at HZ=1000, "
         "8 ms at HZ=250); write others with a unit (2000us)."),
    HOST("tcp", "tcp.napi_weight", CONF_T_PKTS, tcp.napi_weight, "64", "1", "65536",
         "NAPI poll weight (NAPI_POLL_WEIGHT, net.core.dev_weight): 64 packets per poll."),
    HOST("tcp", "tcp.netdev_max_backlog", CONF_T_PKTS, tcp.max_backlog, "1000", "1", "1000000",
         "net.core.netdev_max_backlog: per-CPU input queue (loopback, RPS) in packets."),
    ENUM_ROW(CONF_SEC_HOST, HostConf, "tcp.hystart", tcp.hystart, "on", hystart_choices, "tcp",
             "CUBIC's HyStart (slow start ends on an ACK train spanning half the min RTT, or on a "
             "round's RTT rising past a threshold). on = 5.8+ tcp_cubic.c (delays in us, an "
             "ack-delay allowance, threshold clamp(delay_min / 8, 4 ms, 16 ms), the first round "
             "from the first ACK at cwnd 16); 3.x = 2.6.39-3.x (3.4 hystart_update/bictcp_acked/"
             "bictcp_cong_avoid: delays in 1/8 ms and at least 1, the train on a millisecond clock "
             "spanning more than delay_min >> 4, threshold clamp(delay_min / 16, 4 ms, 16 ms), "
             "rounds restarted in cong_avoid), which at a LAN RTT ends slow start in the first "
             "round whose ACKs cross a millisecond; off = no HyStart "
             "(tcp_cubic hystart=0, and 3.4 on hosts whose 32-bit tcp_time_stamp has its high bit "
             "set, 24.8 days of every 49.7 after boot, where bictcp_acked took every sample for "
             "one just after a reduction: 'tcp_cubic: fix bug in bictcp_acked()', 3.11). Reno "
             "ignores it."),
    ENUM_ROW(CONF_SEC_HOST, HostConf, "tcp.tso_defer", tcp.tso_defer, "4.x", tso_defer_choices,
             "tcp",
             "tcp_tso_should_defer() (\"TSO Nagle\", tcp_tso_win_divisor 3): a TSO skb the cwnd or "
             "the peer's window lets out only in part is held, unless a full TSO skb or a third of "
             "the window may go; the next ACK sends it. 3.x = the 2.6-3.x rule (in CA Open only, "
             "held at most 2 jiffies), 4.x = the 4.x-6.x rule (not in Recovery or Loss, and not "
             "when the last write is over 1 ms old or the oldest unacked skb's ACK is due more "
             "than min(srtt/2, 1 ms) from now), off = never defer (no Linux kernel; for "
             "experiments)."),
    ENUM_ROW(CONF_SEC_HOST, HostConf, "tcp.win_scaling", tcp.win_scaling, "scaling_ratio",
             win_scaling_choices, "tcp",
             "Share of sk_rcvbuf advertised as window (tcp_win_from_space): adv_win_scale_2 = 3/4 "
             "(until 3.4), adv_win_scale_1 = 1/2 (3.5-6.4, b49960a05e32); from 6.5 "
             "(dfa2f0483360) `space * len/truesize`, measured per socket from received skbs "
             "whenever the MSS estimate changes: scaling_ratio = 6.11+, starting at 1/2, each "
             "new ratio also moving window_clamp (a2cbb1603943); scaling_ratio_6.10 = 6.10, "
             "starting at 1/2 (697a6c8cec03) with window_clamp left where autotuning or the "
             "handshake put it; scaling_ratio_6.5 = 6.5-6.9, the same but starting at 1200 "
             "bytes per 4 KiB page (65/256, about 1/4: a listener's 131072-byte buffer first "
             "offers 31856, 22 x 1448)."),
    ENUM_ROW(CONF_SEC_HOST, HostConf, "tcp.cwnd_count", tcp.cwnd_count, "segments",
             cwnd_count_choices, "tcp",
             "What makes cwnd grow: segments = each segment an ACK covers (stretch ACKs count in "
             "full: slow start 9f9843a751d0 in 3.14, congestion avoidance and CUBIC in the 2015 "
             "stretch-ACK series); acks = one step per ACK of new data, as <= 3.13 with the "
             "default tcp_abc = 0 (tcp_slow_start +1, tcp_cong_avoid_ai one credit), CUBIC "
             "scaling its cnt by a 1/16 EWMA of packets per ACK (delayed_ack) and, as before "
             "4.3, not shifting its epoch over an idle period."),
    ENUM_ROW(CONF_SEC_HOST, HostConf, "tcp.cwnd_limited", tcp.cwnd_limited, "tracked",
             cwnd_limited_choices, "tcp",
             "When an ACK may grow cwnd (tcp_is_cwnd_limited): tracked = the mark of 3.16+ "
             "(e114a710aa50 \"tcp: fix cwnd limited checking to improve congestion control\"), "
             "recorded by the 2022 rule below: the last sends "
             "found cwnd full, or a TSO skb was deferred for want of cwnd, or in slow start cwnd "
             "is below twice the most that was out; in_flight = <= 3.15: the packets in flight "
             "before the ACK reach cwnd, or (with TSO/GSO) what is left is under cwnd / "
             "tcp_tso_win_divisor (3) and under 64 KB, or at most tcp_max_burst (tp->reordering). "
             "A flow whose TSO deferral keeps it below cwnd grows under in_flight, and with "
             "tracked only through the deferral's own mark. The 2022 rule, since "
             "f4ce91ce12a7 (\"tcp: fix tcp_cwnd_validate() to not forget is_cwnd_limited\", "
             "2022): tcp_cwnd_validate records the mark at a round's end, whenever cwnd is "
             "found full, or when more goes out than before in a round that was not limited. "
             "5.10 = from 299bcb55ecd1 (\"tcp: fix cwnd-limited bug for TSO deferral where we "
             "send nothing\", 5.10) until then: it runs after a push that found cwnd full even "
             "if nothing went, but records only at a round's end or when more goes out than "
             "before, so a send mid-round that does not fill cwnd clears the mark; 3.16 = "
             "3.16-5.9, the same but it runs only when something was sent."),
    ENUM_ROW(CONF_SEC_HOST, HostConf, "tcp.sendmsg_frag", tcp.sendmsg_frag, "32k",
             sendmsg_frag_choices, "tcp",
             "What tcp_sendmsg copies user data into: 32k = 3.7+ (5640f7685831 \"net: use a per "
             "task frag allocator\"), 32 KiB page frags, two or three per 64 KiB skb, their cost "
             "in costs.sendmsg_skb; 4k = <= 3.6, the socket's cached order-0 page (sk_sndmsg_page), "
             "a new one for every 4 KiB copied, each costing costs.sendmsg_page."),
    ENUM_ROW(CONF_SEC_HOST, HostConf, "tcp.check_space", tcp.check_space, "5.18",
             check_space_choices, "tcp",
             "When a sender whose writer waits for send buffer (SOCK_NOSPACE) runs tcp_new_space "
             "(grow sndbuf while cwnd is not full, wake the writer once a third of the queue is "
             "free): 5.18 = after every ACK and every send (4bfe744ff164 \"tcp: fix potential xmit "
             "stalls caused by TCP_NOTSENT_LOWAT\", April 2022; backported then to the 5.4+ "
             "stable trees, so a later 5.4.y checks after sends but still gates ACKs as below: "
             "not modelled); 5.10 = after every ACK (0cbe6a8f089e \"tcp: remove "
             "SOCK_QUEUE_SHRUNK\"); queue_shrunk = <= 5.9: only after an ACK that freed "
             "write memory, a whole acked skb or the acked head of a TSO skb (tcp_trim_head)."),
    ENUM_ROW(CONF_SEC_HOST, HostConf, "tcp.init_cwnd", tcp.init_cwnd, "iw10", init_cwnd_choices,
             "tcp",
             "The initial congestion window, also the floor of the restart after idle and of the "
             "application-limited decay (tcp_init_cwnd, no route initcwnd): iw10 = 10 segments, "
             "2.6.39+ (442b9635c569 \"tcp: Increase the initial congestion window to 10\"); "
             "rfc3390 = <= 2.6.38, RFC 3390 by the MSS: 2 segments above 1460 bytes, 3 above 1095, "
             "else 4 (3 at the usual 1448)."),
    ENUM_ROW(CONF_SEC_HOST, HostConf, "tcp.rcv_autotune", tcp.rcv_autotune, "legacy",
             rcv_autotune_choices, "tcp",
             "Receive-buffer autotuning (tcp_rcv_space_adjust) and receiver RTT: legacy = <= 6.15 "
             "(rcvwin = 2*copied + 16 MSS plus slow-start growth, ms TSecr samples with a 1 ms "
             "floor, smoothed, and window-based samples that only lower the estimate: without "
             "timestamps the only ones); 6.16 = the 'tcp: receive side improvements' series "
             "(copied minus the unread bytes, rcvwin = 2*that, zero TS samples dropped, the "
             "minimum latched for TS samples too, out-of-order span provisioned); 6.18 = 6.16 plus "
             "the slow-start growth again (aa251c84636c, 6.18-rc4); 3.x = 2.6.x-3.12 (3.4's "
             "tcp_rcv_space_adjust, before 3.13's 'tcp: rcvbuf autotuning improvements'): "
             "space = max(space, 2*copied), and when it grows sk_rcvbuf = space/advmss x "
             "SKB_TRUESIZE(advmss + MAX_TCP_HEADER) and window_clamp = space, so the buffer grows "
             "from the first RTT in which the reader takes more than half the first window; RTT as "
             "legacy."),
    ENUM_ROW(CONF_SEC_HOST, HostConf, "tcp.rcvq_space_init", tcp.rcvq_space_init, "init_cwnd",
             rcvq_space_init_choices, "tcp",
             "What a connection's first autotuning measurement must beat (rcvq_space.space, set by "
             "tcp_init_buffer_space): init_cwnd = 4.20+ (041a14d26715 'tcp: start receiver buffer "
             "autotuning sooner'), the smallest of the first window, rcv_ssthresh and 10 x advmss, "
             "so the buffer grows once more than 10 segments are read in an RTT; rcv_wnd = <= 4.19, "
             "the first window (tcp.init_rcv_wnd: ~64 KB, or 10 segments before 4.20)."),
    ENUM_ROW(CONF_SEC_HOST, HostConf, "tcp.grow_window", tcp.grow_window, "5.1",
             grow_window_choices, "tcp",
             "How far one received segment raises rcv_ssthresh, the cap on the window a receiver "
             "offers (tcp_grow_window): 5.1 = 6728c6174a47 \"tcp: tcp_grow_window() needs to "
             "respect tcp_space()\" (5.1, and the 4.4+ stable trees from 2019), at most to the "
             "smaller of window_clamp and the free space; legacy = before it, whenever rcv_ssthresh "
             "is below both, by the whole step (at least 2 x advmss or 2 x the segment), capped by "
             "window_clamp alone."),
    ENUM_ROW(CONF_SEC_HOST, HostConf, "tcp.rcv_rtt_clock", tcp.rcv_rtt_clock, "us",
             rcv_rtt_clock_choices, "tcp",
             "The clock of the receiver's RTT estimate, which paces buffer autotuning "
             "(tcp_rcv_rtt_measure, tcp_rcv_rtt_measure_ts, tcp_rcv_space_adjust): us = 4.19+, "
             "microseconds, one timestamp sample per TSecr value (rcv_rtt_last_tsecr, added "
             "between 4.18 and 5.0); jiffies = 2.6-4.12 (read in 3.4's tcp_input.c; microseconds "
             "came in 4.13), the window sample and every full-sized segment's TSecr sample in "
             "whole jiffies with 0 counted as 1, smoothed in 1/8 jiffies, and autotuning acting "
             "once the jiffies counter has moved by the estimate's whole jiffies; us-every = 4.13-4.18 "
             "(645f4c6f2ebd moved the estimate to microseconds), microseconds with every "
             "full-sized segment's TSecr sample smoothed in, a 0 ms delta counted as 1 ms. With "
             "rcv_autotune 6.16/6.18 the clock is us whatever this says."),
    ENUM_ROW(CONF_SEC_HOST, HostConf, "tcp.select_window", tcp.select_window, "zero16",
             select_window_choices, "tcp",
             "When the window a receiver offers (__tcp_select_window) closes, once less than half "
             "its buffer is free: zero16 = the free space is rounded down to the window scale and "
             "anything below 1/16 of the buffer's allowed space is offered as zero, so the window "
             "shuts before the buffer's memory check drops data (3.15+; both rules are in "
             "torvalds/linux f19c29e3e391 and not in 3.14.65, commit not identified); 3.x = "
             "2.6-3.14 (read in 3.4's tcp_output.c), zero only below one MSS, the free space "
             "rounded up to the scale. Without window scaling every era offers a multiple of the "
             "MSS."),
    ENUM_ROW(CONF_SEC_HOST, HostConf, "tcp.rcvq_admit", tcp.rcvq_admit, "6.6",
             rcvq_admit_choices, "tcp",
             "How in-order data that is not copied straight to the reader passes the "
             "receive-memory check (tcp_try_rmem_schedule, which prunes when sk_rmem_alloc is over "
             "sk_rcvbuf): 6.6 = 6.6+ (\"net: tcp: send zero-window ACK when no memory\", Aug "
             "2023), the check first; when it fails the receiver ACKs at once with a zero window "
             "(ICSK_ACK_NOMEM) and drops the skb (TCPRcvQDrop) unless the receive queue is empty, "
             "where it is charged anyway; 4.2 = 4.2-6.5 (76dfa6082032 \"tcp: allow one skb to be "
             "received per socket under memory pressure\"), an skb that finds the receive queue "
             "empty is charged without the check, any other is checked and dropped on failure; "
             "3.x = before it, every such skb is checked."),
    ENUM_ROW(CONF_SEC_HOST, HostConf, "tcp.rcv_ingest", tcp.rcv_ingest, "legacy",
             rcv_ingest_choices, "tcp",
             "When the receive-memory check (tcp_try_rmem_schedule, tcp_prune_queue) finds room "
             "for an skb: legacy = while sk_rmem_alloc <= sk_rcvbuf, whatever the skb brings "
             "(every kernel before 6.17, and again since 026dfef287c0, Feb 2026, backported to "
             "stable); 6.17 = 1d2fbaad7cd8 \"tcp: stronger sk_rcvbuf checks\" (July 2025), only if "
             "sk_rmem_alloc plus the skb's truesize fits sk_rcvbuf, and the prune's "
             "tcp_clamp_window, now called whenever it does not, may shrink an unlocked buffer "
             "below tcp_rmem[2] to what is allocated; 6.18 = f017c1f768b6 (Sept 2025), the same "
             "with the skb's length in place of its truesize. The model's fast path queues a "
             "predicted in-order segment while sk_rmem_alloc < sk_rcvbuf without this check (the "
             "kernel's sk_forward_alloc test is not modelled), so it applies to the slow path: "
             "out-of-order data, and in-order data once header prediction is off."),
    ENUM_ROW(CONF_SEC_HOST, HostConf, "tcp.prune", tcp.prune, "4.18", prune_choices, "tcp",
             "What tcp_prune_queue does once tcp_clamp_window has grown an unlocked buffer to "
             "what is allocated: 4.18 = stop there when that made room, no collapse "
             "(f4a3313d8e2c \"tcp: avoid collapses in tcp_prune_queue() if possible\", 4.18, one "
             "of the CVE-2018-5390 fixes and backported to the 4.4-4.17 stable trees); 3.x = "
             "before it, collapse the out-of-order and receive queues anyway (copying bloated skbs "
             "into compact ones, TCPRcvCollapsed)."),
    ENUM_ROW(CONF_SEC_HOST, HostConf, "tcp.sndbuf_expand", tcp.sndbuf_expand, "3.19",
             sndbuf_expand_choices, "tcp",
             "How send-buffer autotuning sizes sk_sndbuf (tcp_sndbuf_expand / tcp_new_space), up "
             "to tcp_wmem[2]: 3.19 = 3.19+, 2 x max(10, cwnd, reordering + 1) segments of a "
             "power-of-two per-MSS truesize (4352 B at MSS 1448), 87040 B at establishment; 3.x = "
             "<= 3.18, 10 x SKB_TRUESIZE(MSS + MAX_TCP_HEADER) at establishment "
             "(tcp_fixup_sndbuf: 23680 B at MSS 1460; 2.6 kernels took 3 segments, not modelled) and "
             "2 x max(cwnd, reordering + 1) of it later. A receiver that only ACKs keeps its first value; in 3.5-4.8 its backlog "
             "limit is sk_rcvbuf + sk_sndbuf."),
    ENUM_ROW(CONF_SEC_HOST, HostConf, "tcp.init_rcv_wnd", tcp.init_rcv_wnd, "64k",
             init_rcv_wnd_choices, "tcp",
             "The window a connection starts with, which its rcv_ssthresh (and, with "
             "rcvq_space_init rcv_wnd, autotuning's first threshold) starts from "
             "(tcp_select_initial_window). In every era the buffer's space is first rounded down to "
             "whole segments of the handshake's MSS (the listener's less the timestamp option, "
             "the connecting side's whole: 65160 and 64240 over MTU 1500). 64k = 4.20+ "
             "(a337531b942b), what the receive buffer allows, at most 65535 unscaled; 10mss = "
             "3.0-4.19, at most 10 segments (TCP_DEFAULT_INIT_RCVWND; max(14600 / MSS, 2) "
             "segments above MSS 1460): 14480 B at MSS 1448; rfc2414 = 2.6, at most 4 segments "
             "(3 above MSS 1460, 2 above 4380)."),
    HOST("tcp", "tcp.window_counts_backlog", CONF_T_BOOL, tcp.window_counts_backlog, "true", NULL,
         NULL,
         "tcp_space() takes the socket backlog off the receive buffer (sk_rcvbuf - sk_backlog.len "
         "- sk_rmem_alloc), as since 'tcp: make tcp_space() aware of socket backlog' (Eric "
         "Dumazet, 5.0; in 4.19.89 stable); false = sk_rcvbuf - sk_rmem_alloc as in 2.6-4.20, so "
         "a receiver that owns its socket still advertises and ACKs for the space its backlog "
         "holds."),
    HOST("tcp", "tcp.quickack_route", CONF_T_BOOL, tcp.quickack_route, "false", NULL, NULL,
         "The route to the peer has the quickack attribute (ip route ... quickack 1, "
         "RTAX_QUICKACK, 3.11+): tcp_in_quickack_mode() is always true, so every data segment "
         "queued is ACKed at once (from tcp_release_cb once per backlog drain with "
         "stack.backlog.ack_defer); false = no such route metric, as by default."),
    SIM_COSTS(COST_ROW)

    /* ---- links.<link> ---- */
    LINK("a", CONF_T_HOSTREF, a, NULL, NULL, NULL, "Host at one end."),
    LINK("b", CONF_T_HOSTREF, b, NULL, NULL, NULL, "Host at the other end (not a)."),
    LINK("rate", CONF_T_RATE, rate_bps, NULL, "1bit", NULL, "Line rate of each direction."),
    LINK("delay", CONF_T_DURATION, delay_ns, "0", "0", "10s", "One-way propagation delay."),
    {.section = CONF_SEC_LINK, .key = "queue", .type = CONF_T_QUEUE,
     .offset = offsetof(LinkConf, queue_bytes), .aux_offset = offsetof(LinkConf, queue_pkts),
     .def = "1000pkt", .min = "1", .max = "4294967295",
     .doc = "Drop-tail limit, in packets (pkt) or bytes, of each direction's buffer when the "
            "sending host's NIC is faster than the link (hosts.H.nic.rate): the bottleneck "
            "beyond the NIC, a switch port's buffer. A NIC at the link's rate (the default) is "
            "the link's port, whose frames wait in its TX ring and qdisc and are never dropped "
            "here."},
    LINK("loss", CONF_T_RATIO, loss, "0", "0", "100%", "Random loss probability per packet."),

    /* ---- workloads.<workload> ---- */
    ENUM_ROW(CONF_SEC_WORKLOAD, WorkloadConf, "type", type, NULL, workload_choices, NULL,
             "stream: bulk transfer from -> to (netperf TCP_STREAM); rr: request/response "
             "(netperf TCP_RR)."),
    WORK("from", CONF_T_HOSTREF, from, NULL, NULL, NULL, "Client host (the sender of a stream)."),
    WORK("to", CONF_T_HOSTREF, to, NULL, NULL, NULL, "Server host; the same as from = loopback."),
    WORK("flows", CONF_T_U32, flows, "1", "1", "10000", "Parallel connections."),
    WORK("write_size", CONF_T_SIZE, write_size, "64KiB", "1", "1GiB",
         "Bytes per send() (stream). netperf's default is the socket send buffer size; a fixed "
         "64 KiB (netperf -m 64K) keeps runs comparable across sndbuf settings."),
    WORK("read_size", CONF_T_SIZE, read_size, "0", "0", "1GiB",
         "Bytes asked per recv() (stream; netperf -M). 0 = netserver's default: the SO_RCVBUF it "
         "read when it set the socket up, the receiver's initial tcp.rcvbuf (131072 by default), "
         "kept while autotuning grows the buffer. A recv() returns less when the queue runs dry. "
         "The size decides how often the reader leaves recvmsg() and runs release_sock()."),
    WORK("request_size", CONF_T_SIZE, request_size, "1", "1", "1GiB",
         "Request bytes (rr); netperf TCP_RR default 1."),
    WORK("response_size", CONF_T_SIZE, response_size, "1", "1", "1GiB",
         "Response bytes (rr); netperf TCP_RR default 1."),
    WORK("from_cpus", CONF_T_CPULIST, from_cpus, "[]", NULL, NULL,
         "CPUs the from-side tasks may run on (taskset); [] = any."),
    WORK("to_cpus", CONF_T_CPULIST, to_cpus, "[]", NULL, NULL,
         "CPUs the to-side tasks may run on; [] = any."),
    WORK("start", CONF_T_DURATION, start_ns, "0", "0", NULL,
         "When the flows open; start + start_jitter must be before the end of the run."),
    WORK("start_jitter", CONF_T_DURATION, start_jitter_ns, "0", "0", "10s",
         "Each flow opens at start plus a uniform random delay below this, drawn from the run's "
         "seed: super_netperf forks its netperf processes one after another, so real flows start "
         "a fork+exec (~1 ms) apart, and different seeds then give different interleavings. 0 = "
         "all flows open together. start + start_jitter must be before the end of the run."),
    WORK("read_pause", CONF_T_DURATION, read_pause_ns, "0", "0", "10s",
         "Stream: the reader sleeps this long after each recv() (a slow application, as "
         "netserver with a sleep in its loop): its receive queue fills and the offered window "
         "shrinks. The sleep is a nanosleep: it ends 50 us late, the timer slack every normal "
         "task has (timer_slack_ns), and the timer interrupt is not charged. 0 = read again at "
         "once."),
    WORK("think_time", CONF_T_DURATION, think_time_ns, "0", "0", "10s",
         "rr: the client sleeps this long after each response before it sends the next request "
         "(an interactive client; a nanosleep, 50 us of timer slack added, as read_pause); past "
         "an RTO of idle time the sender's cwnd restarts (tcp.slow_start_after_idle). 0 = back "
         "to back, as netperf TCP_RR."),
};

static const char *const top_sections[] = {"stack", "hosts", "links", "workloads", "variants",
                                           "expect", "report", NULL};

static const ConfStructKey struct_table[] = {
    {"variants.<variant>", "mapping: key path -> value",
     "A named set of overrides applied on top of the base, e.g. "
     "`stack.release_sock.resched_every: 1`."},
    {"expect[].name", "string", "Label of the check (default: the expression)."},
    {"expect[].check", "expression",
     "Required. Over variant results, e.g. `after.goodput / before.goodput`; counters as in "
     "report.counters, e.g. `after.server.cpu_tcp_rcv_ack`."},
    {"expect[].min", "number", "Lower bound (inclusive); give min, max or both."},
    {"expect[].max", "number", "Upper bound (inclusive)."},
    {"report.counters", "list of nstat names",
     "Counters shown in compare tables, in this order (`TcpRetransSegs` or `TCPTimeouts`); "
     "`HOST.NAME` (`receiver.TCPBacklogDrop`) is that host's, whatever report.host says. "
     "`cpu_<cost key>` (`cpu_tcp_rcv_ack`) is a row of the CPU profile: microseconds of CPU "
     "time spent on that operation in the measured interval. `Sksim*` names "
     "(`SksimRTOPeerOwnerOffCpu`) are sksim's diagnosis of why each loss probe and RTO fired "
     "(README, \"Looking inside a run\")."},
    {"report.host", "host name",
     "Host whose counters the unqualified report.counters show (default: the sum over hosts)."},
};

const ConfKey *conf_keys_table(guint *n_rows)
{
    *n_rows = G_N_ELEMENTS(table);
    return table;
}

const ConfStructKey *conf_keys_struct_table(guint *n_rows)
{
    *n_rows = G_N_ELEMENTS(struct_table);
    return struct_table;
}

const ConfKey *conf_keys_find(ConfSection section, const char *key)
{
    for (guint i = 0; i < G_N_ELEMENTS(table); i++)
        if (table[i].section == section && strcmp(table[i].key, key) == 0)
            return &table[i];
    return NULL;
}

const char *conf_section_root(ConfSection section)
{
    static const char *const roots[] = {"", "stack", "hosts", "links", "workloads"};
    return roots[section];
}

const char *conf_section_entry(ConfSection section)
{
    static const char *const entries[] = {NULL, NULL, "host", "link", "workload"};
    return entries[section];
}

const char *const *conf_keys_top_sections(void)
{
    return top_sections;
}
