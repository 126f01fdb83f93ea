/* invariants.h - model invariants, checked at the end of every run and, in Debug builds (or
 * with RunOptions.check_every), every few thousand events while it runs.
 *
 * A violation is a GError in SKSIM_INVARIANT_ERROR whose message reads
 *   invariant violated: <name>: <object> at t=<sim time>: <details>
 * and the CLI exits with status 3. The names:
 *   flow_bytes      per flow direction: the sender holds every byte written and not yet acked
 *                   exactly once (write_seq - snd_una = write queue + retransmit queue), the
 *                   receiver every byte received and not yet read (rcv_nxt - copied_seq =
 *                   unread bytes of the receive queue), so written = delivered + queued at the
 *                   receiver + in flight or queued at the sender
 *   no_dup_delivery the receive queue is contiguous and in order (no byte can be read twice),
 *                   copied_seq <= rcv_nxt, and snd_una <= rcv_nxt <= snd_nxt <= write_seq
 *   seq_monotonic   snd_una, write_seq, rcv_nxt and copied_seq never go backwards
 *   tcp_left_out    per sender: sacked_out + lost_out <= packets_out (tcp_verify_left_out); more
 *                   would take packets in flight below zero
 *   cpu_time        per CPU: task + softirq + context switch + idle time = simulated time
 *   backlog_limit   backlog_len <= sk_backlog_limit + one skb's truesize (the kernel lets the
 *                   skb that crosses the limit in); a negative length shows up as a huge one
 *   queue_limit     qdisc, TX ring, RX ring, loopback input queue and link queues within their
 *                   limits
 *   drop_tally      per host: the drop counters (backlog, qdisc, RX ring, link, random loss,
 *                   loopback backlog) add up to the packets the drop paths freed or lost
 *   timer_diag      per host: sksim's peer-state classes of the loss probes and RTOs
 *                   (Sksim*Peer*, tcp_diag.c) add up to TCPLossProbes and TCPTimeouts
 */
#ifndef SKSIM_INVARIANTS_H
#define SKSIM_INVARIANTS_H

#include <glib.h>

#include "models/world.h"

#define SKSIM_INVARIANT_ERROR (sksim_invariant_error_quark())
GQuark sksim_invariant_error_quark(void);

typedef struct Invariants Invariants;

/* A checker for w (it remembers sequence numbers between checks). */
Invariants *invariants_new(World *w, Sim *sim);
void invariants_free(Invariants *inv);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Invariants, invariants_free)
/* Check everything now; FALSE with the first violation in *error. */
gboolean invariants_check(Invariants *inv, GError **error);

#endif
