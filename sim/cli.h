/* cli.h - the sksim command line: one entry point per command (sim/cli_<command>.c) and the
 * helpers they share (sim/cli_common.c). sim/main.c only dispatches argv[1] to a command.
 *
 * Each command gets argv with argv[0] = its own name and returns the process exit status.
 */
#ifndef SKSIM_CLI_H
#define SKSIM_CLI_H

#include <glib.h>
#include <signal.h>
#include <stdbool.h>

#include "sim/results.h"
#include "sim/run.h"
#include "sim/scenario.h"

/* Exit statuses; README.md documents them. */
enum {
    CLI_EXIT_OK = 0,
    CLI_EXIT_EXPECT = 1,    /* an expect check failed */
    CLI_EXIT_USAGE = 2,     /* bad command line, missing file, scenario error, run error */
    CLI_EXIT_INVARIANT = 3, /* a model invariant was violated (models/invariants.h) */
    /* interrupted: 128 + signal number (130 SIGINT, 143 SIGTERM) */
};

int cli_run(int argc, char **argv);
int cli_compare(int argc, char **argv);
int cli_validate(int argc, char **argv);
int cli_list(int argc, char **argv);
int cli_keys(int argc, char **argv);
int cli_plot(int argc, char **argv);      /* sim/cli_plot.c */
int cli_sweep(int argc, char **argv);     /* sim/cli_sweep.c */
int cli_report_md(int argc, char **argv); /* sim/cli_report_md.c: `sksim report` */

/* ---- shared by the commands (cli_common.c) --------------------------------------------------- */

/* A GOptionContext for "sksim CMD": usage line, summary and description (examples). */
GOptionContext *cli_context_new(const char *cmd, const char *params, const char *summary,
                                const char *description, const GOptionEntry *entries);
/* Parse; on error print "sksim CMD: message" and a hint to stderr, return FALSE.
 * On success *args holds the remaining arguments (argv[0] first). */
gboolean cli_parse(GOptionContext *ctx, const char *cmd, int argc, char **argv, GStrv *args);
void cli_usage_error(const char *cmd, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
/* The whole parse of a command without options of its own: context, parse, arity check
 * (min_args..max_args arguments after the command name; max_args < 0 = no limit). */
gboolean cli_parse_plain(const char *cmd, const char *params, const char *summary,
                         const char *description, int argc, char **argv, int min_args,
                         int max_args, GStrv *args);

/* Load a scenario file; print the error ("FILE:LINE:COL: ...") and return NULL on failure. */
Scenario *cli_load_scenario(const char *path);
/* Check every expect expression of s against these variant labels and hosts (NULL-terminated);
 * print "FILE:LINE:COL: expect 'name': ..." for each bad one. */
gboolean cli_check_expects(const Scenario *s, const char *const *variants,
                           const char *const *hosts);

/* SIGINT/SIGTERM set the stop flag (the signal number); a second signal kills as usual. */
void cli_install_signal_handlers(void);
volatile sig_atomic_t *cli_stop_flag(void);
/* 128 + the signal that stopped the run, or 0. */
int cli_interrupted_status(void);

/* The options `run` and `compare` share. */
typedef struct CliRunArgs {
    char **variants;   /* --variant, NULL-terminated or NULL */
    char *seed;        /* --seed */
    char *duration;    /* --duration */
    char **sets;       /* --set */
    char *out;         /* --out */
    gboolean fingerprint;
    gboolean quiet;
    gint64 max_events;
    double max_wall;
    char *max_memory;  /* --max-memory SIZE */
    /* looking inside a run (README "Looking inside a run") */
    char **pcap;        /* --pcap HOST[:NIC] */
    gint snaplen;       /* --snaplen; 0 = default */
    char *trace;        /* --trace FILE */
    char *trace_window; /* --trace-window T0:T1 */
    char **log;         /* --log CATEGORY[,CATEGORY] */
    gint jobs;          /* --jobs: variants run at a time (>= 1) */
    gint seeds;         /* compare --seeds: consecutive seeds from --seed (>= 1) */
} CliRunArgs;

void cli_run_args_clear(CliRunArgs *a);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(CliRunArgs, cli_run_args_clear)
/* Parse `run` (with_variant) or `compare` arguments into a and the one FILE (cli_run.c). */
gboolean cli_parse_run_args(const char *cmd, const char *summary, const char *description,
                            gboolean with_variant, int argc, char **argv, CliRunArgs *a,
                            char **file);
/* Check --seed, --set, --max-events, --max-wall; print the problem and return FALSE. */
gboolean cli_run_args_check(const CliRunArgs *a, const char *cmd);
/* The user's sets, then seed=N and duration=T when given (a new NULL-terminated vector). */
GStrv cli_run_args_sets(const CliRunArgs *a);
/* Refuse (print why, return FALSE) when the memory estimates of `parallel` resolved runs at a
 * time exceed --max-memory (max_memory, may be NULL: 75 % of physical RAM): the largest
 * `parallel` estimates add up (sweep; run and compare through cli_check_memory_jobs);
 * cli_memory.c. */
gboolean cli_check_memory_parallel(const Scenario *s, const GPtrArray *confs, guint parallel,
                                   const char *max_memory, const char *cmd);
/* DIR of --out, or out/<scenario name>. */
char *cli_out_dir(const CliRunArgs *a, const Scenario *s);

/* The variant names to run: the requested ones, else every variant in file order, else a
 * single NULL (the base scenario). */
GPtrArray *cli_variant_list(const Scenario *s, char **requested);
/* "base" for NULL. */
const char *cli_variant_label(const char *variant);

/* Warn on stderr, once per key, when a key given with `opt` (--set, --param; keys are KEY or
 * KEY=VALUE) is one that variants among those to run set: it replaces their values, so they no
 * longer differ in it. Silent when fewer than two variants run (overriding one is a choice). */
void cli_warn_variant_keys(const Scenario *s, const GPtrArray *variants, const char *const *keys,
                           const char *cmd, const char *opt);

/* Resolve every variant first (so that a bad one fails before anything runs), print errors.
 * Returns the ScenarioConf* array in the order of variants, or NULL. */
GPtrArray *cli_resolve_all(const Scenario *s, const GPtrArray *variants, const char *const *sets);

/* The exit status for a failed run: CLI_EXIT_INVARIANT for an invariant violation
 * (SKSIM_INVARIANT_ERROR), else CLI_EXIT_USAGE. */
int cli_error_status(const GError *err);

/* Run one resolved variant and write its outputs into dir/<variant>/. Prints the summary line
 * (unless quiet) and the fingerprint line (if asked). Returns an exit status; *out (may be NULL)
 * receives the result on success. */
int cli_run_one(const ScenarioConf *conf, const CliRunArgs *a, const char *dir, RunResult **out);

/* One variant's run in three steps, so that the middle one can go to another thread:
 * prepare (checks, directory, options; main thread), execute (the run and its outputs; touches
 * only the struct and its directory), finish (error or summary lines; main thread). */
typedef struct CliVariantRun {
    const ScenarioConf *conf;
    char *vdir;        /* dir/<variant> */
    char *trace;       /* this variant's --trace file, or NULL */
    RunOptions opt;
    RunResult *result; /* set by execute on success */
    GError *error;     /* set by execute on failure */
} CliVariantRun;

int cli_variant_prepare(CliVariantRun *v, const ScenarioConf *conf, const CliRunArgs *a,
                        const char *dir, gboolean progress);
void cli_variant_execute(CliVariantRun *v);
int cli_variant_finish(CliVariantRun *v, const CliRunArgs *a, RunResult **out);
void cli_variant_run_clear(CliVariantRun *v);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(CliVariantRun, cli_variant_run_clear)

/* Run every resolved variant into dir/<variant>/ (cli_jobs.c): one after another with --jobs 1,
 * else up to --jobs at a time, each in its own thread; the summary and
 * fingerprint lines still come in variant order. Stops at the first failure when sequential;
 * in parallel every variant runs and each failure is printed. results (may be NULL) receives
 * the RunResult of each variant that succeeded, in order. Returns the first failing variant's
 * exit status, else CLI_EXIT_OK. */
int cli_run_variants(const GPtrArray *confs, const CliRunArgs *a, const char *dir,
                     GPtrArray *results);
/* cli_check_memory_parallel for as many runs at a time as --jobs gives (cli_jobs.c). */
gboolean cli_check_memory_jobs(const Scenario *s, const GPtrArray *confs, const CliRunArgs *a,
                               const char *cmd);

/* ---- compare's report (cli_report.c) ---------------------------------------------------------- */

/* One row of the compare table: a report counter, goodput or transactions/s. */
typedef struct CompareRow {
    char *name;     /* as shown: "TcpRetransSegs", "goodput (Mbit/s)" */
    char *key;      /* in compare.json: the counter name, "goodput_bps", "transactions_per_s" */
    double scale;   /* shown value = value * scale */
    int decimals;   /* shown with this many decimals */
    GArray *values; /* double per variant, in run order; NaN when not available */
} CompareRow;

/* The outcome of one expect check: of one run of each variant, or (compare --seeds) the mean
 * of the check's values over several seeds, with the 95 % confidence interval of that mean. */
typedef struct CheckOutcome {
    const ExpectConf *expect;
    gboolean pass;
    gboolean has_value;
    double value;
    char *error;         /* evaluation error, or NULL */
    GArray *seed_values; /* double per seed when value is their mean; NULL for one run */
    double ci_lo, ci_hi; /* with seed_values: the mean's 95 % interval (sim/stats.h) */
} CheckOutcome;

CompareRow *compare_row_new(const char *name, const char *key, double scale, int decimals);
void compare_row_free(gpointer row);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(CompareRow, compare_row_free)
/* Rows for results (RunResult*, one per variant): the report counters (of the report host, or
 * summed over hosts; a HOST.COUNTER row of HOST, labelled so), then goodput and transactions/s. */
GPtrArray *compare_rows(const Scenario *s, const GPtrArray *results);
/* The CPU profile (RunResult hosts' cpu_profile_ns) as rows "<host> <cost key>" (name and key)
 * in seconds, shown in ms, host by
 * host in result order, cost rows in table order; rows that are zero in every variant are left
 * out. */
GPtrArray *compare_profile_rows(const GPtrArray *results);
/* sksim's TLP/RTO diagnosis counters (SksimTLPPeer*, SksimRTOPeer*) the same way: rows
 * "<host> <counter>", counts, left out when zero in every variant. */
GPtrArray *compare_diag_rows(const GPtrArray *results);
/* (last - first) / first in percent; NaN when undefined. */
double compare_change_pct(const CompareRow *row);
/* The Markdown table alone (what `compare` prints). */
char *compare_table(const GPtrArray *rows, const GPtrArray *results);
/* "PASS name: value in [min, max]" or "FAIL name: ..." (no newline). */
char *compare_check_line(const CheckOutcome *c);
/* compare.md: title, seed (nseeds > 1: the seeds seed..seed+nseeds-1, whose means the table
 * and checks give), table, checks, then the diagnosis table and the CPU profile table (diag and
 * profile may be NULL). */
char *compare_markdown(const Scenario *s, uint64_t seed, guint nseeds, const char *table,
                       const GArray *checks, const char *diag, const char *profile);
/* compare.json: the seed(s), the rows, the checks, the diagnosis rows ("timer_diag", counts),
 * the CPU profile rows (in seconds), the verdict. */
char *compare_json(const Scenario *s, uint64_t seed, guint nseeds, const GPtrArray *rows,
                   const GPtrArray *diag_rows, const GPtrArray *profile_rows,
                   const GPtrArray *results, const GArray *checks);

#endif
