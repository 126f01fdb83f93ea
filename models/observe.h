/* observe.h - the hooks through which models feed the event log (--log) and the trace
 * (--trace) of a run: sim/evlog.h and sim/trace.h seen from the models.
 *
 * Cost when nothing is observed: every hook site is one integer test of Host.log_mask, made
 * before any argument is formatted (the macros below). Host.log_mask holds the --log
 * categories and, while a trace is attached, OBS_TRACE, so one test covers both.
 *
 * Trace layout: process ("pid") = host id + 1, named after the host; in it one thread ("tid")
 * per CPU (tid = CPU index: what runs, softirq, context switches, cond_resched yields) and one
 * per socket (tid = OBS_SOCK_TID_BASE + port: the intervals it is owned and by whom, its timer
 * firings, drops and DSACKs), plus a counter track per socket of its backlog length in bytes.
 * Per-flow counters (cwnd, srtt, packets out) live in one more process, "flows"
 * (sim/run_observe.c).
 */
#ifndef SKSIM_OBSERVE_H
#define SKSIM_OBSERVE_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "models/cpu.h"
#include "models/host.h"
#include "models/sock.h"
#include "sim/evlog.h"
#include "sim/trace.h"

#define OBS_SOCK_TID_BASE 1000u

static inline uint32_t obs_pid(const Host *h)
{
    return (uint32_t)h->id + 1u;
}

/* Is the log category cat, or the trace, on for host h? (one integer test) */
#define SIM_OBSERVED(h, cat) G_UNLIKELY((h)->log_mask & ((cat) | OBS_TRACE))

/* A log line of category cat: "event k=v ...". cpu may be NULL (the CPU acting on h, if any).
 * Nothing is formatted unless the category is on. */
#define SIM_LOG(h, cat, cpu, event, ...)                                                            \
    do {                                                                                           \
        if (G_UNLIKELY((h)->log_mask & (cat)))                                                     \
            obs_log((h), (cpu), (event), __VA_ARGS__);                                             \
    } while (0)

/* A log line of category cat and, when tracing, an instant event of the same name and fields on
 * the socket's track (sk != NULL) or else the CPU's track. */
#define SIM_EVENT(h, cat, cpu, sk, event, ...)                                                      \
    do {                                                                                           \
        if (SIM_OBSERVED((h), (cat)))                                                              \
            obs_event((h), (cat), (cpu), (sk), (event), __VA_ARGS__);                              \
    } while (0)

/* fmt: "key=value key=value" (values without spaces). */
/* Hooks are cold: the compiler keeps them out of the models' hot paths. */
#define OBS_COLD __attribute__((cold))

void obs_log(const Host *h, const Cpu *cpu, const char *event, const char *fmt, ...)
    G_GNUC_PRINTF(4, 5) OBS_COLD;
void obs_event(const Host *h, uint32_t cat, const Cpu *cpu, const Sock *sk, const char *event,
               const char *fmt, ...) G_GNUC_PRINTF(6, 7) OBS_COLD;

/* cpu.c: CPU `index` of h shows `name` (category cat) from now on; NULL: idle. Trace only. */
void obs_cpu_slice(const Host *h, uint32_t index, const char *cat, const char *name) OBS_COLD;

/* sock.c, under SIM_OBSERVED(h, LOG_BACKLOG): t took (owned) or released the socket. */
void obs_sock_owner(const Sock *sk, const Task *t, bool owned) OBS_COLD;
/* sock.c, under SIM_OBSERVED(h, LOG_BACKLOG): backlog_len changed (why: "add", "coalesce",
 * "drained"). */
void obs_sock_backlog(const Sock *sk, const Cpu *cpu, const char *why) OBS_COLD;

/* Attach the observers to h (trace and log may be NULL; mask: LOG_* categories) and name its
 * tracks; detach sets everything back to NULL/0. */
void obs_attach_host(Host *h, Trace *trace, EventLog *log, uint32_t mask);
void obs_detach_host(Host *h);

#endif
