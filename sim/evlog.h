/* evlog.h - the ftrace-like event log of a run (`sksim run --log CATEGORY,...`): one event per
 * line, in the order the simulation produced them.
 *
 * Line format (README "Looking inside a run"):
 *
 *   <time> <host>:<cpu> <context> <event> key=value ...
 *
 * time is the simulated time in seconds with 9 decimals; cpu is the CPU index, or '-' for
 * events that happen on no CPU (a frame lost on the wire); context is the task running on that
 * CPU, "softirq" or "idle" ('-' without a CPU); values never contain spaces.
 *
 * The writer streams into <path>.tmp through a large stdio buffer and renames it at close, so a
 * reader never sees half a log under the final name. Models never call it directly: they use
 * SIM_LOG (models/observe.h), which tests the host's category mask before any formatting.
 */
#ifndef SKSIM_EVLOG_H
#define SKSIM_EVLOG_H

#include <glib.h>
#include <stdarg.h>
#include <stdint.h>

#include "sim/simtime.h"

/* Log categories (bits of Host.log_mask), named as --log takes them. */
enum {
    LOG_TCP = 1u << 0,     /* congestion state changes, undo, retransmits, DSACKs received */
    LOG_TIMER = 1u << 1,   /* TLP, RTO and RACK reordering timer firings, deferrals, delayed ACKs */
    LOG_SCHED = 1u << 2,   /* context switches, wake-ups, cond_resched yields */
    LOG_SOFTIRQ = 1u << 3, /* softirq entry/exit, ksoftirqd wake-ups */
    LOG_BACKLOG = 1u << 4, /* socket lock ownership, backlog adds, drains, drops */
    LOG_NIC = 1u << 5,     /* qdisc, RX ring, link and random-loss drops */
    LOG_ALL = (1u << 6) - 1,
    /* Not a category: set in Host.log_mask while a trace is attached, so that one integer
     * test at a hook site covers both the log and the trace (models/observe.h). */
    OBS_TRACE = 1u << 31,
};

/* Parse "tcp,timer" (also "all"); several specs (repeated --log) are ORed. Unknown names are
 * an error that lists the known ones. */
gboolean evlog_parse_categories(const char *const *specs, uint32_t *mask, GError **error);
/* "tcp, timer, sched, softirq, backlog, nic" */
const char *evlog_category_names(void);

typedef struct EventLog EventLog;

EventLog *evlog_open(const char *path, GError **error);
/* One line; fields is "key=value ..." (may be empty). Write errors are remembered for close. */
void evlog_write(EventLog *l, sim_time_t t, const char *host, int cpu, const char *context,
                 const char *event, const char *fields);
/* Flush, close and rename into place; frees l whatever the outcome. */
gboolean evlog_close(EventLog *l, GError **error);
/* Close and delete the temporary file (a run that failed). */
void evlog_abort(EventLog *l);

#endif
