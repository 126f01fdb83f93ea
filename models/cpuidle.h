/* cpuidle.h - the C-state an idle CPU sleeps in, and how long it takes to wake from it.
 *
 * An idle Linux CPU enters an idle state that its cpuidle governor picks; a wake-up (a task
 * made runnable there, an interrupt) then waits for the hardware to leave that state, the
 * state's exit latency, before anything runs. Deeper states save more power and take longer
 * to leave. hosts.H.sched.cpuidle names the table of states (intel_idle's, per CPU model);
 * `poll` is a CPU that never leaves C0 (idle=poll, or every C-state disabled): no latency.
 */
#ifndef SKSIM_CPUIDLE_H
#define SKSIM_CPUIDLE_H

#include "sim/config.h"
#include "sim/simtime.h"

/* The exit latency of the state the governor picks on table t for an idle period predicted
 * to last predicted_ns: the deepest state whose target residency fits in it, and the
 * shallowest one when none does (0 for `poll`). */
sim_time_t cpuidle_exit_latency(CpuidleTable t, sim_time_t predicted_ns);

#endif
