/* results.h - what one run produced: the data that outputs (metrics.json, .nstat, CSV) and
 * `compare` read. Plain structs, filled by the run driver (sim/run.c) from the models. */
#ifndef SKSIM_RESULTS_H
#define SKSIM_RESULTS_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "sim/costs.h"
#include "sim/counters.h"
#include "sim/series.h"
#include "sim/simtime.h"

/* Where one CPU's time went since the end of the warm-up (seconds of simulated time). */
typedef struct CpuResult {
    double task_s, softirq_s, ctx_switch_s, idle_s;
    uint64_t ctx_switches;
    uint64_t ksoftirqd_wakeups;
    sim_time_t profile_ns[COST_COUNT]; /* busy time per cost-table row */
} CpuResult;

typedef struct HostResult {
    char *name;
    CounterSet counters; /* since the end of the warm-up */
    GArray *cpus;        /* CpuResult per CPU; NULL when the run had no CPU model */
    sim_time_t cpu_profile_ns[COST_COUNT]; /* the sum of its CPUs' profile_ns */
} HostResult;

typedef struct FlowResult {
    char *name;          /* "<workload>/<index>" */
    char *workload;
    char *from, *to;
    uint64_t bytes_delivered;   /* to the receiving application, after the warm-up */
    double goodput_bps;         /* bytes_delivered * 8 / measured time */
    uint64_t retrans_segs;
    uint64_t transactions;      /* rr workloads */
    double transactions_per_s;
    sim_time_t srtt_ns;         /* at the end */
    uint32_t cwnd;              /* segments, at the end */
} FlowResult;

typedef struct RunResult {
    char *scenario;
    char *title;
    char *variant;              /* "base" when none */
    uint64_t seed;
    sim_time_t duration_ns;     /* simulated, including warm-up */
    sim_time_t warmup_ns;
    sim_time_t measured_ns;     /* what the counters cover: duration - warmup; when interrupted,
                                 * to the stop, from 0 if it came inside the warm-up */
    sim_time_t reached_ns;      /* simulated time at the end (the stop when interrupted) */
    GPtrArray *hosts;           /* HostResult* */
    GPtrArray *flows;           /* FlowResult* */
    Series *series;             /* owned; may be NULL */
    uint64_t events;
    double wall_s;
    double events_per_s;
    uint64_t fp_events;         /* fingerprint of the executed event sequence */
    uint64_t fp_counters;       /* fingerprint of the final kernel counters (not Sksim*) */
    bool interrupted;
} RunResult;

/* run_result_new() returns empty hosts and flows arrays that own their elements: add elements
 * made by host_result_new() / flow_result_new() (or g_new0 with g_strdup'd strings), and
 * run_result_free() frees them, the strings and the series. */
RunResult *run_result_new(void);
void run_result_free(RunResult *r);
HostResult *host_result_new(const char *name);
FlowResult *flow_result_new(const char *name, const char *workload, const char *from,
                            const char *to);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RunResult, run_result_free)

/* Aggregates used by expect expressions: goodput (sum over flows, bit/s), transactions_per_s
 * (sum), bytes, retrans (sum over flows). Returns FALSE for an unknown metric. */
gboolean run_result_metric(const RunResult *r, const char *metric, double *out);
/* The same per-flow metric's smallest value over the flows (the slowest flow); FALSE for an
 * unknown metric or a run without flows. */
gboolean run_result_metric_min(const RunResult *r, const char *metric, double *out);
/* The same over the flows of the workloads named in `workloads` (a set of names; NULL = every
 * flow); *nflows (may be NULL) says how many took part. FALSE for an unknown metric or none. */
gboolean run_result_metric_min_in(const RunResult *r, const char *metric, GHashTable *workloads,
                                  double *out, guint *nflows);
/* A counter of one host, or summed over all hosts when host is NULL: an nstat counter, or a CPU
 * profile row "cpu_<cost key>" in microseconds of CPU time (cost_counter_lookup). */
gboolean run_result_counter(const RunResult *r, const char *host, const char *counter, double *out);
/* Is name a counter run_result_counter knows (an nstat name, short or long, or cpu_<cost key>)? */
gboolean run_result_counter_known(const char *name);
/* A report counter (ReportConf.counters): "COUNTER" is run_result_counter(r, host, COUNTER);
 * "HOST.COUNTER" is HOST's, whatever host says (host names have no '.'). */
gboolean run_result_report_counter(const RunResult *r, const char *host, const char *ref,
                                   double *out);

#endif
