/* sweep.h - `sksim sweep`: one scenario over a grid of key values x seeds x variants.
 *
 * The grid is the cartesian product of the --param value lists, first parameter slowest; each
 * grid point runs every seed (base seed + i) and each seed every variant, and that nesting is
 * the order of sweep.csv's rows whatever order the runs finish in. Runs are independent Sims
 * with their own resolved ScenarioConf, run in parallel by a GThreadPool; nothing mutable is
 * shared between them. A run's outputs go to DIR/runs/<key=value>/.../seed-<n>/<variant>/, and a
 * run whose metrics.json there is complete (same scenario, variant and seed, "interrupted":
 * false) and whose sweep-overrides.txt matches is skipped, so an interrupted sweep resumes where
 * it stopped.
 */
#ifndef SKSIM_SWEEP_H
#define SKSIM_SWEEP_H

#include <glib.h>
#include <signal.h>
#include <stdint.h>

#include "sim/config.h"
#include "sim/results.h"
#include "sim/stats.h"

/* One --param KEY=V1,V2,...: commas inside [...] do not split ("to_cpus=[0,1],[2,3]"). */
typedef struct SweepParam {
    char *key;
    GPtrArray *values; /* char* */
} SweepParam;

SweepParam *sweep_param_parse(const char *arg, GError **error);
void sweep_param_free(gpointer p);

/* Number of grid points (product of the value counts; 1 without parameters). */
guint sweep_grid_size(const GPtrArray *params);
/* The value index of each parameter at grid point g (idx has params->len entries). */
void sweep_grid_point(const GPtrArray *params, guint g, guint *idx);

/* "KEY=VALUE" made safe as a directory name: characters other than letters, digits and
 * ". _ + % = -" become '_'. */
char *sweep_dir_component(const char *key, const char *value);
/* "<key=value>/<key=value>/.../seed-<seed>" relative to DIR/runs. */
char *sweep_run_subdir(const GPtrArray *params, const guint *idx, uint64_t seed);

/* metrics.json of a run, read back into a RunResult (scenario, title, variant, seed, measured
 * and warm-up times, interrupted, hosts' counters, flows' figures, events, wall_s; no series). */
RunResult *sweep_load_metrics(const char *path, GError **error);
/* TRUE when dir/metrics.json is complete: it parses, holds the "sim" block, is not interrupted
 * and is of this scenario, variant and seed. */
gboolean sweep_run_complete(const char *vdir, const char *scenario, const char *variant,
                            uint64_t seed);

/* The metric columns of sweep.csv and of its plots: goodput_bps, transactions_per_s, then each
 * report counter by its nstat name (HOST.NAME for a report counter of a named host). */
typedef struct SweepMetric {
    char *name;      /* column name */
    char *counter;   /* nstat name or HOST.NAME, NULL for the two flow metrics */
    char *ylabel;    /* axis label with unit */
    double scale;    /* plotted value = value * scale */
} SweepMetric;

/* metrics (SweepMetric*) for these report counters (may be NULL). */
GPtrArray *sweep_metrics(const GPtrArray *report_counters);
void sweep_metric_free(gpointer m);
/* The value of metric m in r (counters of host, or summed over hosts when host is NULL; a
 * HOST.NAME counter of HOST); NaN when absent. */
double sweep_metric_value(const SweepMetric *m, const RunResult *r, const char *host);

/* One row of sweep.csv: a run's identity and, once loaded, its result. */
typedef struct SweepRow {
    guint point;        /* grid point */
    guint seed_index;
    uint64_t seed;
    char *variant;      /* label: "base" for the base scenario */
    char *dir;          /* the run's variant directory (with metrics.json) */
    RunResult *result;  /* NULL until loaded */
} SweepRow;

void sweep_row_free(gpointer row);

/* sweep.csv: header (parameter keys, seed, variant, metrics, events, wall_s), then one line per
 * row in the array's (grid) order. Rows without a result are left out. */
char *sweep_csv(const GPtrArray *params, const GPtrArray *rows, const GPtrArray *metrics,
                const char *host);

/* The .dat of one metric's sweep figure: one block per series (variant x combination of the
 * other parameters), blocks separated by two blank lines, each line
 * "x mean lo hi n \"label\"" for one value of the first parameter (x: the value when every value
 * of the first parameter is a number, else its position). Labels of the series go to labels. */
char *sweep_metric_dat(const GPtrArray *params, const GPtrArray *rows, const SweepMetric *m,
                       const char *host, const GPtrArray *variants, GPtrArray *labels,
                       GArray *series_variant);
/* TRUE when every value is a number; *logx when they are all > 0 and span a factor >= 16. */
gboolean sweep_values_numeric(const GPtrArray *values, gboolean *logx);

/* ---- running (sweep_run.c) ------------------------------------------------------------------- */

/* The file, next to a run's metrics.json, holding the overrides it ran with (one "KEY=VALUE" per
 * line): a run is skipped only when they are the ones it would run with now, so a sweep run
 * again with another --duration or --set runs again. */
#define SWEEP_OVERRIDES_FILE "sweep-overrides.txt"

/* One run to do. The worker writes row->dir/SWEEP_OVERRIDES_FILE, runs conf, writes the outputs
 * and sets error on failure; nothing else is touched, and the row is only read. */
typedef struct SweepJob {
    const SweepRow *row;
    ScenarioConf *conf; /* owned */
    char *overrides;    /* the text of SWEEP_OVERRIDES_FILE */
    char *error;
} SweepJob;

SweepJob *sweep_job_new(const SweepRow *row, ScenarioConf *conf, const char *overrides);
void sweep_job_free(gpointer job);
/* The overrides ("KEY=VALUE" strings) as the text of SWEEP_OVERRIDES_FILE. */
char *sweep_overrides_text(const char *const *sets);
/* TRUE when vdir/SWEEP_OVERRIDES_FILE holds exactly text. */
gboolean sweep_overrides_match(const char *vdir, const char *text);
/* Run the jobs on `threads` threads of a GThreadPool (0: one per processor), printing each
 * failure on stderr as it comes and, with progress, a bar on stderr. A job not yet started when
 * *stop is set is not run (and not a failure). Returns the number of jobs that failed. */
guint sweep_run_jobs(GPtrArray *jobs, guint threads, volatile sig_atomic_t *stop,
                     gboolean progress);

/* The figure of every metric against the first parameter (sweep_plot.c): DIR/plots/<metric>.dat
 * and <metric>.{png,svg}, titled "title: metric". variants: labels, in colour order. Paths of the
 * figures go to written. FALSE when a figure failed (the others are still drawn). */
typedef struct Plotter Plotter;
gboolean sweep_plot(const Plotter *p, const char *dir, const char *title, const GPtrArray *params,
                    const GPtrArray *rows, const GPtrArray *metrics, const char *host,
                    const GPtrArray *variants, GPtrArray *written, GError **error);

#endif
