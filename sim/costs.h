/* costs.h - the host CPU cost table: what each modelled operation costs in CPU time.
 *
 * Every piece of work a model does is charged from this table, so a scenario can say "this
 * machine is faster" or "acking is cheaper" without touching code. Each row: key name (the
 * scenario key under hosts.<host>.costs), default in nanoseconds, and where the default comes
 * from. Defaults are for a ~3 GHz x86-64 server core; see shared notes D.5 for the magnitudes.
 * Keep rows in this order: append new ones at the end.
 */
#ifndef SKSIM_COSTS_H
#define SKSIM_COSTS_H

#include "sim/simtime.h"

/* X(id, key, default_ns, doc). "D.5" etc. refer to shared/notes/kernel-host-mechanics.md. */
#define SIM_COSTS(X)                                                                            \
    X(COST_CTX_SWITCH, "ctx_switch", 2000,                                                      \
      "switch between two tasks incl. cache refill (lmbench lat_ctx class, ~1-3 us)")           \
    X(COST_WAKEUP, "wakeup", 300,                                                               \
      "try_to_wake_up of a sleeping task, charged to the waker (run-queue lock + enqueue)")     \
    X(COST_SOFTIRQ_ENTRY, "softirq_entry", 300,                                                 \
      "hard interrupt + __do_softirq entry/exit (Brouer: irq ~100s of ns)")                     \
    X(COST_NAPI_POLL, "napi_poll", 200,                                                         \
      "one napi_poll call: driver poll set-up, IRQ re-enable on completion")                    \
    X(COST_RX_FRAME, "rx_frame", 150,                                                           \
      "driver RX per frame: descriptor, skb build, DMA sync (10G budget 1230 ns/1538 B, D.5)")   \
    X(COST_GRO_FRAME, "gro_frame", 60,                                                          \
      "GRO: match and merge one frame into a held skb")                                         \
    X(COST_IP_RCV, "ip_rcv", 200,                                                               \
      "ip_rcv + socket lookup per skb (cache misses ~32 ns each, D.5)")                         \
    X(COST_TCP_RCV_DATA, "tcp_rcv_data", 600,                                                   \
      "tcp_rcv_established for one data skb, whatever it carries: ACK/seq checks, event and "   \
      "ACK scheduling, queueing, skb head free; plus tcp_rcv_data_seg per segment. The split "   \
      "keeps a 15-segment GRO skb at the 1.5 us this row had alone (D.5: 2-3 us per 61 KB GRO " \
      "skb incl. driver)")                                                                      \
    X(COST_TCP_RCV_ACK, "tcp_rcv_ack", 400,                                                     \
      "tcp_ack for one pure ACK skb, before cleaning the retransmit queue")                     \
    X(COST_TCP_CLEAN_RTX_SKB, "tcp_clean_rtx_skb", 150,                                         \
      "free one acked skb from the rtx rb-tree (SLUB free ~20-45 ns + rb-erase + uncharge)")    \
    X(COST_BACKLOG_EXTRA, "backlog_extra", 400,                                                 \
      "extra cost of processing an skb from the backlog, cache-cold (D.5: 0.3-0.6 us)")         \
    X(COST_BACKLOG_ADD, "backlog_add", 100,                                                     \
      "tcp_add_backlog: append or coalesce under the socket spinlock")                          \
    X(COST_LOCK_SOCK, "lock_sock", 30,                                                          \
      "lock_sock/release_sock fast path: two spinlock round trips (~15 ns each, A.2)")          \
    X(COST_COPY_PER_KB, "copy_per_kb", 80,                                                      \
      "copy 1 KiB to or from user space (~12 GB/s per core: 64 KB in ~5 us, D.5)")              \
    X(COST_SENDMSG_SKB, "sendmsg_skb", 300,                                                     \
      "tcp_sendmsg: allocate and entail one new skb (SLUB ~45 ns + page frag refill)")          \
    X(COST_TCP_XMIT_SKB, "tcp_xmit_skb", 800,                                                   \
      "tcp_transmit_skb + IP output for one (TSO) skb, headers and checksum offload")           \
    X(COST_TCP_SEND_ACK, "tcp_send_ack", 1000,                                                  \
      "build and send one pure ACK (D.5: ~1-2 us)")                                             \
    X(COST_TCP_TIMER, "tcp_timer", 500,                                                         \
      "run one TCP timer handler (RTO, TLP, delayed ACK) in the timer softirq")                 \
    X(COST_DEV_XMIT, "dev_xmit", 400,                                                           \
      "dev_queue_xmit + driver ndo_start_xmit per skb (qdisc, descriptor, doorbell)")           \
    X(COST_LOOPBACK_XMIT, "loopback_xmit", 300,                                                 \
      "loopback_xmit + enqueue_to_backlog on the current CPU (E.5)")                            \
    X(COST_TX_COMPLETION, "tx_completion", 100,                                                 \
      "TX completion per skb: free and uncharge sk_wmem_alloc (tcp_wfree)")                     \
    X(COST_TIMER_MOD_FAST, "timer_mod_fast", 5,                                                 \
      "mod_timer short cut: pending with the same expiry, no lock taken (B.2 timers notes)")     \
    X(COST_TIMER_MOD_SLOW, "timer_mod_slow", 150,                                               \
      "__mod_timer: lock the timer base, detach, enqueue (cache-line bouncing across CPUs)")    \
    X(COST_RR_APP, "rr_app", 2000,                                                              \
      "user-space work of a request/response server per transaction, between reading the "   \
      "request and writing the response (netserver's TCP_RR turnaround; the client's loop has "  \
      "only its system calls)")                                                                 \
    X(COST_SYSCALL, "syscall", 100,                                                             \
      "system call entry and exit (send/recv), without the work inside (~100 ns with mitigations)") \
    X(COST_TIMER_MOD_REMOTE, "timer_mod_remote", 140,                                           \
      "extra for __mod_timer on a timer queued on another CPU's base: lock that base, detach, "  \
      "relock the local one (timers B.2); ~4 lines written by the other CPU (base lock, timer, " \
      "2 list neighbours) at ~32 ns (D.5) + one more lock round trip (~15 ns)")              \
    X(COST_LB_PULL, "lb_pull", 600,                                                             \
      "load balancing pulls one task (newidle, periodic or nohz): scan the host's run queues "   \
      "(one remote rq line per CPU at ~32 ns, D.5: ~250 ns for 8 CPUs), double_lock_balance "   \
      "(2 lock round trips, ~30 ns, A.2), detach_task + attach_task (dequeue, set_task_cpu, "   \
      "enqueue, ~4 lines of the task written on the other CPU: ~300 ns)")                 \
    X(COST_TCP_RCV_DATA_SEG, "tcp_rcv_data_seg", 60,                                            \
      "per MSS segment of a received data skb (a GRO skb's merged frames, a coalesced backlog "  \
      "skb's parts): each brought its own page fragment, walked by the copy and released by "    \
      "put_page on a cache-cold struct page (~32 ns miss + ~8 ns atomic, D.5) plus frag "        \
      "bookkeeping (~20 ns); 'a typical ~64KB GRO packet has to release ~45 page references' "   \
      "(Eric Dumazet, 'tcp: defer skb freeing after socket lock is released', 5.17)")          \
    X(COST_GSO_SEGMENT, "gso_segment", 200,                                                     \
      "software GSO (nic.tso off), per segment cut from a TCP skb: skb_segment's new skb head "  \
      "(SLUB ~45 ns, D.5), headers copied and fixed up (~30 ns), a page-frag reference (~8 ns "   \
      "atomic + a cold struct page ~32 ns), and the driver's ndo_start_xmit for it (descriptor, " \
      "DMA mapping: ~80 ns); a TSO skb pays dev_xmit once instead")                          \
    X(COST_SENDMSG_PAGE, "sendmsg_page", 200,                                                   \
      "tcp_sendmsg <= 3.6 (tcp.sendmsg_frag: 4k), per 4 KiB page it copies into: an order-0 "    \
      "page allocation (~94 ns for the Linux buddy allocator on one core: LLFree, USENIX ATC "  \
      "2023), skb_fill_page_desc and the get_page/put_page atomics (~8 ns each, D.5), the "     \
      "copy loop's per-chunk checks (~30 ns) and the page's free when the skb is acked "        \
      "(~60 ns, the allocation's other half); 3.7+ fill 32 KiB frags, in sendmsg_skb")         \
    X(COST_RPS_ENQUEUE, "rps_enqueue", 200,                                                     \
      "RPS/RFS on the IRQ CPU, per skb steered (nic.rps_cpus, nic.rfs): get_rps_cpu's two "      \
      "flow-table lines, one written by the socket's CPU (~32 ns each, D.5), the target "        \
      "backlog's lock taken across CPUs (~60 ns) and the queue and NAPI-list updates (~50 "      \
      "ns), with the IPI's APIC write (~100 ns) shared by the skbs of one softirq run; the "     \
      "target pays softirq_entry for the IPI and backlog_extra for each skb, cold there")

typedef enum {
#define SIM_COST_ENUM(id, key, def, doc) id,
    SIM_COSTS(SIM_COST_ENUM)
#undef SIM_COST_ENUM
    COST_COUNT
} CostId;

typedef struct CostTable {
    sim_time_t ns[COST_COUNT];
} CostTable;

const char *cost_key(CostId id);
/* The row whose key is key, or -1. */
int cost_lookup(const char *key);
/* "cpu_<key>": a CPU profile row used as a report counter (microseconds of CPU time in the
 * measured interval); the row, or -1 for any other name. */
#define COST_COUNTER_PREFIX "cpu_"
int cost_counter_lookup(const char *name);
const char *cost_doc(CostId id);
sim_time_t cost_default(CostId id);
void cost_table_defaults(CostTable *t);

#endif
