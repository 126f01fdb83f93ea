/* counters.h - per-host SNMP/MIB counters under their nstat names.
 *
 * The set of counters is one table (SIM_COUNTERS below), so a model increments a counter by index
 * with no string work on the hot path, and outputs list counters in a fixed, documented order.
 * Names are exactly what `nstat` prints: "Tcp" + field for /proc/net/snmp, "TcpExt" + field for
 * /proc/net/netstat. See shared notes section G for where the kernel increments each one.
 */
#ifndef SKSIM_COUNTERS_H
#define SKSIM_COUNTERS_H

#include <stddef.h>
#include <stdint.h>

#define SIM_COUNTERS(X)                                                                         \
    X(TcpInSegs)                                                                                \
    X(TcpOutSegs)                                                                               \
    X(TcpRetransSegs)                                                                           \
    X(TcpExtTCPTimeouts)                                                                        \
    X(TcpExtTCPLossProbes)                                                                      \
    X(TcpExtTCPLossProbeRecovery)                                                               \
    X(TcpExtTCPDSACKRecv)                                                                       \
    X(TcpExtTCPDSACKRecvSegs)                                                                   \
    X(TcpExtTCPDSACKOldSent)                                                                    \
    X(TcpExtTCPDSACKOfoSent)                                                                    \
    X(TcpExtTCPSpuriousRTOs)                                                                    \
    X(TcpExtTCPFastRetrans)                                                                     \
    X(TcpExtTCPSlowStartRetrans)                                                                \
    X(TcpExtTCPLossUndo)                                                                        \
    X(TcpExtTCPFullUndo)                                                                        \
    X(TcpExtTCPDSACKUndo)                                                                       \
    X(TcpExtTCPSackRecovery)                                                                    \
    X(TcpExtDelayedACKs)                                                                        \
    X(TcpExtDelayedACKLocked)                                                                   \
    X(TcpExtDelayedACKLost)                                                                     \
    X(TcpExtTCPPureAcks)                                                                        \
    X(TcpExtTCPHPAcks)                                                                          \
    X(TcpExtTCPBacklogDrop)                                                                     \
    X(TcpExtTCPBacklogCoalesce)                                                                 \
    X(TcpExtTCPOFOQueue)                                                                        \
    X(TcpExtTCPPrequeued)                                                                       \
    X(IpExtInOctets)                                                                            \
    X(IpExtOutOctets)

typedef enum {
#define SIM_COUNTER_ENUM(name) CTR_##name,
    SIM_COUNTERS(SIM_COUNTER_ENUM)
#undef SIM_COUNTER_ENUM
    CTR_COUNT
} CounterId;

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
