/* counters.h - per-host SNMP/MIB counters under their nstat names.
 *
 * The set of counters is one table (SIM_COUNTERS below), so a model increments a counter by index
 * with no string work on the hot path, and outputs list counters in a fixed, documented order.
 * Names are exactly what `nstat` prints: "Tcp" + field for /proc/net/snmp, "TcpExt" + field for
 * /proc/net/netstat. See shared notes section G for where the kernel increments each one.
 * After them come sksim's own diagnosis counters (SIM_DIAG_COUNTERS, prefix "Sksim").
 */
#ifndef SKSIM_COUNTERS_H
#define SKSIM_COUNTERS_H

#include <stddef.h>
#include <stdint.h>

#define SIM_KERNEL_COUNTERS(X)                                                                  \
    X(TcpInSegs)                                                                                \
    X(TcpOutSegs)                                                                               \
    X(TcpRetransSegs)                                                                           \
    X(TcpExtTCPTimeouts)                                                                        \
    X(TcpExtTCPSackRecoveryFail)                                                                \
    X(TcpExtTCPRenoRecoveryFail)                                                                \
    X(TcpExtTCPLossFailures)                                                                    \
    X(TcpExtTCPSackFailures)                                                                    \
    X(TcpExtTCPRenoFailures)                                                                    \
    X(TcpExtTCPLossProbes)                                                                      \
    X(TcpExtTCPLossProbeRecovery)                                                               \
    X(TcpExtTCPDSACKRecv)                                                                       \
    X(TcpExtTCPDSACKRecvSegs)                                                                   \
    X(TcpExtTCPDSACKOldSent)                                                                    \
    X(TcpExtTCPDSACKOfoSent)                                                                    \
    X(TcpExtTCPSpuriousRTOs)                                                                    \
    X(TcpExtTCPFastRetrans)                                                                     \
    X(TcpExtTCPSlowStartRetrans)                                                                \
    X(TcpExtTCPRetransFail)                                                                     \
    X(TcpExtTCPLossUndo)                                                                        \
    X(TcpExtTCPFullUndo)                                                                        \
    X(TcpExtTCPDSACKUndo)                                                                       \
    X(TcpExtTCPSackRecovery)                                                                    \
    X(TcpExtTCPRenoRecovery)                                                                    \
    X(TcpExtDelayedACKs)                                                                        \
    X(TcpExtDelayedACKLocked)                                                                   \
    X(TcpExtDelayedACKLost)                                                                     \
    X(TcpExtTCPAckCompressed)                                                                   \
    X(TcpExtTCPAutoCorking)                                                                     \
    X(TcpExtTCPPureAcks)                                                                        \
    X(TcpExtTCPHPAcks)                                                                          \
    X(TcpExtTCPBacklogDrop)                                                                     \
    X(TcpExtTCPBacklogCoalesce)                                                                 \
    X(TcpExtTCPOFOQueue)                                                                        \
    X(TcpExtTCPZeroWindowDrop)                                                                  \
    X(TcpExtTCPPrequeued)                                                                       \
    X(TcpExtTCPPrequeueDropped)                                                                 \
    X(TcpExtPruneCalled)                                                                        \
    X(TcpExtRcvPruned)                                                                          \
    X(TcpExtOfoPruned)                                                                          \
    X(TcpExtTCPRcvCollapsed)                                                                    \
    X(TcpExtTCPRcvQDrop)                                                                        \
    X(IpExtInOctets)                                                                            \
    X(IpExtOutOctets)

/* sksim's own diagnosis, not kernel counters (never in <host>.nstat, nor in the counters
 * fingerprint): at each loss probe (TLP) and each RTO a sender fires, what its peer socket -
 * the receiver that owes the ACK - was doing at that instant (models/tcp_diag.c):
 *   OwnerOffCpu  owned by a thread that is not on a CPU (it yielded or was preempted while it
 *                held the socket lock): arriving segments wait in the backlog, unacked;
 *   OwnerOnCpu   owned by a thread that is running (copying, or draining the backlog);
 *   DelayedAck   not owned, an ACK owed and held by the delayed-ACK timer;
 *   Other        none of these: an ACK or the data still on its way, or lost.
 * The four of a kind add up to TcpExtTCPLossProbes, and to TcpExtTCPTimeouts (every firing;
 * with hosts.H.tcp.timeouts_count legacy, TCPTimeouts counts only some first timeouts).
 * Then where packets were dropped below TCP, each drop in exactly one of them (Linux shows these
 * in tc -s qdisc, ethtool -S, /proc/net/softnet_stat, or not at all):
 *   QdiscDrops        skbs a full qdisc refused on this host (NET_XMIT_DROP back to TCP);
 *   QdiscCodelDrops   skbs fq_codel had queued and CoDel dropped at dequeue (drop_count);
 *   QdiscOverlimitDrops skbs fq_codel had queued and dropped from its fattest flow when over its
 *                     packet or memory limit (drop_overlimit);
 *   LinkQueueDrops    frames this host sent that the link's drop-tail queue refused (or that had
 *                     no link to go to);
 *   LinkRandomLosses  frames this host sent that the link lost at random (links.L.loss);
 *   RxRingDrops       frames that found this host's RX ring full;
 *   NetdevBacklogDrops packets netif_rx refused on this host (netdev_max_backlog, loopback).
 * Then the owner's yields in __release_sock (seed 000's mechanism), on the host that drains:
 *   OwnerYields       cond_resched() calls in a backlog drain that gave the CPU away while the
 *                     task kept its socket owned (stack.release_sock.resched_every);
 *   OwnerYieldUs      microseconds those owners spent off their CPU until they ran again (each
 *                     wait rounded to the microsecond); OwnerYieldUs / OwnerYields is the mean.
 * Then the C-states of idle CPUs (hosts.H.sched.cpuidle, models/cpuidle.c):
 *   IdleExits         wake-ups of an idle CPU that waited for its C-state's exit latency;
 *   IdleExitNs        nanoseconds of those waits.
 * And the NIC:
 *   NicIrqs           interrupts this host's NIC queues raised (/proc/interrupts): each
 *                     schedules a NAPI poll; hosts.H.nic.irq_mode and irq_coalesce space them. */
#define SIM_DIAG_COUNTERS(X)                                                                    \
    X(SksimTLPPeerOwnerOffCpu)                                                                  \
    X(SksimTLPPeerOwnerOnCpu)                                                                   \
    X(SksimTLPPeerDelayedAck)                                                                   \
    X(SksimTLPPeerOther)                                                                        \
    X(SksimRTOPeerOwnerOffCpu)                                                                  \
    X(SksimRTOPeerOwnerOnCpu)                                                                   \
    X(SksimRTOPeerDelayedAck)                                                                   \
    X(SksimRTOPeerOther)                                                                        \
    X(SksimQdiscDrops)                                                                          \
    X(SksimQdiscCodelDrops)                                                                     \
    X(SksimQdiscOverlimitDrops)                                                                 \
    X(SksimLinkQueueDrops)                                                                      \
    X(SksimLinkRandomLosses)                                                                    \
    X(SksimRxRingDrops)                                                                         \
    X(SksimNetdevBacklogDrops)                                                                  \
    X(SksimOwnerYields)                                                                         \
    X(SksimOwnerYieldUs)                                                                        \
    X(SksimIdleExits)                                                                           \
    X(SksimIdleExitNs)                                                                          \
    X(SksimNicIrqs)

#define SIM_COUNTERS(X) SIM_KERNEL_COUNTERS(X) SIM_DIAG_COUNTERS(X)

typedef enum {
#define SIM_COUNTER_ENUM(name) CTR_##name,
    SIM_COUNTERS(SIM_COUNTER_ENUM)
#undef SIM_COUNTER_ENUM
    CTR_COUNT
} CounterId;

/* The kernel's counters come first: ids below CTR_KERNEL_COUNT; then the TLP/RTO diagnosis
 * classes, ids below CTR_TIMER_DIAG_END; then the drop counters. */
enum { CTR_TIMER_DIAG_END = CTR_SksimRTOPeerOther + 1 };
#define SIM_COUNTER_ONE(name) +1
enum { CTR_KERNEL_COUNT = 0 SIM_KERNEL_COUNTERS(SIM_COUNTER_ONE) };
#undef SIM_COUNTER_ONE

/* Plain data: a host embeds one and models do `c->v[CTR_TcpOutSegs] += n`. */
typedef struct CounterSet {
    uint64_t v[CTR_COUNT];
} CounterSet;

const char *counter_name(CounterId id);
/* The name without its Tcp/TcpExt/IpExt prefix ("TCPTimeouts"), which counter_lookup() takes too. */
const char *counter_field(CounterId id);
/* Look a counter up by nstat name; also accepts the name without its Tcp/TcpExt prefix
 * ("TCPTimeouts"). Returns -1 when unknown. */
int counter_lookup(const char *name);
/* nstat -n: zero everything (used at the end of the warm-up). */
void counters_reset(CounterSet *c);

#endif
