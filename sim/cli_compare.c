/* cli_compare.c - `sksim compare FILE`: run every variant with one seed, tabulate the report
 * counters and metrics side by side, write compare.md and compare.json, then evaluate the
 * scenario's expect checks (exit 1 if any fails).
 *
 * Expect expressions are checked (syntax, variant, host and counter names) before anything
 * runs: a typo in a check is a scenario error (exit 2), found in milliseconds rather than after
 * the last variant has run. All variants share the seed given by --seed or, without it, the
 * base scenario's seed, so that a variant's own seed cannot turn the comparison into a
 * comparison of random streams. The figures (sim/plot_dir.c) are drawn last and never change the
 * exit status.
 */
#include "sim/cli.h"

#include <glib/gstdio.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sim/expr.h" /* expr_eval_results */
#include "sim/output.h"
#include "sim/plot.h"
#include "sim/stats.h"

#define COMPARE_DESCRIPTION                                                                      \
    "Runs every variant with the same seed (--seed, else the base scenario's), writes each\n"    \
    "variant's outputs to DIR/<variant>/, then DIR/compare.md and DIR/compare.json (DIR\n"       \
    "defaults to out/<scenario name>), prints the table and evaluates the scenario's expect\n"   \
    "checks, one 'PASS name: value in [min, max]' or 'FAIL ...' line each. Figures go to\n"    \
    "DIR/plots/ (see `sksim plot`; without gnuplot: a warning, same exit status).\n"            \
    "With --seeds N every variant runs for the seeds S, S+1, ... S+N-1 (S: --seed, else the\n"  \
    "base scenario's); each seed's outputs, report and figures go to DIR/seed-<S+k>/, and\n"   \
    "DIR/compare.md and compare.json give the mean of every figure over the seeds and each\n"  \
    "check's mean with its 95 % confidence interval; a check passes when its mean is in band.\n" \
    "\n"                                                                                         \
    "Examples:\n"                                                                                \
    "  sksim compare scenarios/example.yaml\n"                                                   \
    "  sksim compare scenarios/example.yaml --seed 3 --duration 5s --out /tmp/cmp\n"             \
    "  sksim compare scenarios/example.yaml --jobs 2\n"                                           \
    "  sksim compare scenarios/example.yaml --seeds 5 --jobs 2\n"                                \
    "\n"                                                                                         \
    "Exit status: 0 all checks pass, 1 a check failed, 2 bad input, 3 an invariant was\n"       \
    "violated, 130/143 interrupted."

/* The seed every variant runs with: --seed, else the base scenario's (resolved with the sets). */
static gboolean pick_seed(const Scenario *s, CliRunArgs *a, uint64_t *seed)
{
    if (!a->seed) {
        g_auto(GStrv) sets = cli_run_args_sets(a);
        g_autoptr(GError) err = NULL;
        g_autoptr(ScenarioConf) base = scenario_resolve(s, NULL, (const char *const *)sets, &err);
        if (!base) {
            fprintf(stderr, "%s\n", err->message);
            return FALSE;
        }
        a->seed = g_strdup_printf("%" PRIu64, base->seed);
    }
    *seed = g_ascii_strtoull(a->seed, NULL, 10);
    return TRUE;
}

/* Host names of every resolved variant, each once, in order (NULL-terminated). */
static GStrv host_names(const GPtrArray *confs)
{
    g_autoptr(GStrvBuilder) b = g_strv_builder_new();
    g_autoptr(GHashTable) seen = g_hash_table_new(g_str_hash, g_str_equal); /* lookup only */
    for (guint i = 0; i < confs->len; i++) {
        const ScenarioConf *c = g_ptr_array_index(confs, i);
        for (guint h = 0; h < c->hosts->len; h++) {
            const HostConf *host = g_ptr_array_index(c->hosts, h);
            if (g_hash_table_add(seen, host->name))
                g_strv_builder_add(b, host->name);
        }
    }
    return g_strv_builder_end(b);
}

static gboolean check_expects(const Scenario *s, const GPtrArray *variants, const GPtrArray *confs)
{
    g_autoptr(GStrvBuilder) b = g_strv_builder_new();
    for (guint i = 0; i < variants->len; i++)
        g_strv_builder_add(b, cli_variant_label(g_ptr_array_index(variants, i)));
    g_auto(GStrv) labels = g_strv_builder_end(b);
    g_auto(GStrv) hosts = host_names(confs);
    return cli_check_expects(s, (const char *const *)labels, (const char *const *)hosts);
}

static gboolean in_band(const ExpectConf *e, double v)
{
    return (!e->has_min || v >= e->min) && (!e->has_max || v <= e->max);
}

static void check_outcome_clear(gpointer p)
{
    CheckOutcome *c = p;
    g_free(c->error);
    if (c->seed_values)
        g_array_unref(c->seed_values);
}

static GArray *evaluate_checks(const Scenario *s, const GPtrArray *results)
{
    GArray *checks = g_array_new(FALSE, TRUE, sizeof(CheckOutcome));
    g_array_set_clear_func(checks, check_outcome_clear);
    for (guint i = 0; i < scenario_n_expects(s); i++) {
        CheckOutcome c = { .expect = scenario_expect(s, i) };
        g_autoptr(GError) err = NULL;
        c.has_value = expr_eval_results(c.expect->check, results, &c.value, &err);
        if (!c.has_value)
            c.error = g_strdup(err->message);
        else if (isnan(c.value))
            c.error = g_strdup("value is not a number");
        else
            c.pass = in_band(c.expect, c.value);
        g_array_append_val(checks, c);
    }
    return checks;
}

static gboolean write_report(const char *dir, const char *name, const char *text)
{
    g_autofree char *path = g_build_filename(dir, name, NULL);
    g_autoptr(GError) err = NULL;
    if (output_write_atomic(path, text, strlen(text), &err))
        return TRUE;
    fprintf(stderr, "%s\n", err->message);
    return FALSE;
}

/* compare.md, compare.json and the figures of one seed's runs in dir; the exit status
 * (CLI_EXIT_OK, CLI_EXIT_USAGE when a file could not be written, or the signal's). */
static int write_seed_report(const Scenario *s, uint64_t seed, const GPtrArray *results,
                             const GPtrArray *rows, const GArray *checks, const char *dir)
{
    g_autofree char *table = compare_table(rows, results);
    g_autoptr(GPtrArray) diag_rows = compare_diag_rows(results);
    g_autofree char *diag = diag_rows->len ? compare_table(diag_rows, results) : NULL;
    g_autoptr(GPtrArray) profile_rows = compare_profile_rows(results);
    g_autofree char *profile = profile_rows->len ? compare_table(profile_rows, results) : NULL;
    g_autofree char *md = compare_markdown(s, seed, 1, table, checks, diag, profile);
    g_autofree char *json =
        compare_json(s, seed, 1, rows, diag_rows, profile_rows, results, checks);
    if (!write_report(dir, "compare.md", md) || !write_report(dir, "compare.json", json))
        return CLI_EXIT_USAGE;
    /* figures in DIR/plots/ (sim/plot_dir.c); a missing gnuplot or a failed figure is reported
     * on stderr and never changes the exit status */
    const ReportConf *rep = scenario_report(s);
    plot_directory_report(dir, rep ? rep->host : NULL);
    int stopped = cli_interrupted_status(); /* a signal while the figures were drawn */
    if (stopped)
        fprintf(stderr, "sksim compare: interrupted while drawing the figures; some may be "
                        "missing\n");
    return stopped;
}

/* Print the table and one line per check; CLI_EXIT_EXPECT when a check failed. */
static int print_verdict(const char *table, const GArray *checks)
{
    printf("\n%s\n", table);
    int status = CLI_EXIT_OK;
    for (guint i = 0; i < checks->len; i++) {
        const CheckOutcome *c = &g_array_index(checks, CheckOutcome, i);
        g_autofree char *line = compare_check_line(c);
        printf("%s\n", line);
        if (!c->pass)
            status = CLI_EXIT_EXPECT;
    }
    return status;
}

/* Tables, files, check lines; returns the exit status. */
static int report(const Scenario *s, uint64_t seed, const GPtrArray *results, const char *dir)
{
    g_autoptr(GPtrArray) rows = compare_rows(s, results);
    g_autoptr(GArray) checks = evaluate_checks(s, results);
    int status = write_seed_report(s, seed, results, rows, checks, dir);
    if (status != CLI_EXIT_OK)
        return status;
    g_autofree char *table = compare_table(rows, results);
    return print_verdict(table, checks);
}

/* A report in DIR belongs to the last compare that finished: remove an earlier one before the
 * runs, so that one interrupted now does not leave it beside outputs it does not describe. */
static void remove_old_report(const char *dir)
{
    const char *const names[] = { "compare.md", "compare.json" };
    for (size_t i = 0; i < G_N_ELEMENTS(names); i++) {
        g_autofree char *path = g_build_filename(dir, names[i], NULL);
        g_unlink(path);
    }
}

/* ---- several seeds ---------------------------------------------------------------------------- */

/* One seed's runs of every variant, and what they gave. */
typedef struct SeedRuns {
    GPtrArray *results; /* RunResult*, one per variant */
    GPtrArray *rows;    /* CompareRow* */
    GArray *checks;     /* CheckOutcome */
} SeedRuns;

static void seed_runs_free(gpointer p)
{
    SeedRuns *r = p; /* rows and checks are NULL when the seed's runs did not finish */
    g_ptr_array_unref(r->results);
    g_clear_pointer(&r->rows, g_ptr_array_unref);
    g_clear_pointer(&r->checks, g_array_unref);
    g_free(r);
}

/* The rows of every seed, averaged cell by cell (the rows are the same for every seed: the
 * report counters, goodput and transactions/s). */
static GPtrArray *mean_rows(const GPtrArray *runs)
{
    const SeedRuns *first = g_ptr_array_index(runs, 0);
    GPtrArray *rows = g_ptr_array_new_with_free_func(compare_row_free);
    for (guint r = 0; r < first->rows->len; r++) {
        const CompareRow *proto = g_ptr_array_index(first->rows, r);
        CompareRow *row = compare_row_new(proto->name, proto->key, proto->scale, proto->decimals);
        for (guint v = 0; v < proto->values->len; v++) {
            g_autofree double *x = g_new(double, runs->len);
            for (guint k = 0; k < runs->len; k++) {
                const SeedRuns *sr = g_ptr_array_index(runs, k);
                const CompareRow *seed_row = g_ptr_array_index(sr->rows, r);
                x[k] = g_array_index(seed_row->values, double, v);
            }
            double mean = stats_summarize(x, runs->len).mean;
            g_array_append_val(row->values, mean);
        }
        g_ptr_array_add(rows, row);
    }
    return rows;
}

/* Each check over the seeds: its value is the mean of the seeds' values, and it passes when the
 * mean is inside its band (a seed whose check had no value makes it an error). */
static GArray *mean_checks(const Scenario *s, const GPtrArray *runs)
{
    GArray *checks = g_array_new(FALSE, TRUE, sizeof(CheckOutcome));
    g_array_set_clear_func(checks, check_outcome_clear);
    for (guint i = 0; i < scenario_n_expects(s); i++) {
        CheckOutcome c = { .expect = scenario_expect(s, i) };
        c.seed_values = g_array_new(FALSE, FALSE, sizeof(double));
        for (guint k = 0; k < runs->len && !c.error; k++) {
            const SeedRuns *sr = g_ptr_array_index(runs, k);
            const CheckOutcome *one = &g_array_index(sr->checks, CheckOutcome, i);
            const RunResult *r0 = g_ptr_array_index(sr->results, 0);
            if (one->error)
                c.error = g_strdup_printf("seed %" G_GUINT64_FORMAT ": %s", (guint64)r0->seed,
                                          one->error);
            else
                g_array_append_val(c.seed_values, one->value);
        }
        if (!c.error) {
            StatsSummary st = stats_summarize((const double *)c.seed_values->data,
                                              c.seed_values->len);
            c.has_value = TRUE;
            c.value = st.mean;
            c.ci_lo = st.lo;
            c.ci_hi = st.hi;
            c.pass = in_band(c.expect, c.value);
        }
        g_array_append_val(checks, c);
    }
    return checks;
}

/* Run every variant for seeds seed0 .. seed0 + a->seeds - 1, each into DIR/seed-<N>/ with its
 * own report, then report the means in DIR. */
static int compare_seeds(const Scenario *s, CliRunArgs *a, uint64_t seed0,
                         const GPtrArray *variants, const char *dir)
{
    g_autoptr(GPtrArray) runs = g_ptr_array_new_with_free_func(seed_runs_free);
    for (gint k = 0; k < a->seeds; k++) {
        uint64_t seed = seed0 + (uint64_t)k;
        g_free(a->seed);
        a->seed = g_strdup_printf("%" G_GUINT64_FORMAT, (guint64)seed);
        g_auto(GStrv) sets = cli_run_args_sets(a);
        g_autoptr(GPtrArray) confs = cli_resolve_all(s, variants, (const char *const *)sets);
        if (!confs)
            return CLI_EXIT_USAGE;
        g_autofree char *name = g_strdup_printf("seed-%" G_GUINT64_FORMAT, (guint64)seed);
        g_autofree char *sdir = g_build_filename(dir, name, NULL);
        remove_old_report(sdir);
        SeedRuns *sr = g_new0(SeedRuns, 1);
        sr->results = g_ptr_array_new_with_free_func((GDestroyNotify)run_result_free);
        g_ptr_array_add(runs, sr);
        int status = cli_run_variants(confs, a, sdir, sr->results);
        if (status != CLI_EXIT_OK)
            return status;
        sr->rows = compare_rows(s, sr->results);
        sr->checks = evaluate_checks(s, sr->results);
        status = write_seed_report(s, seed, sr->results, sr->rows, sr->checks, sdir);
        if (status != CLI_EXIT_OK)
            return status;
    }
    const SeedRuns *first = g_ptr_array_index(runs, 0);
    g_autoptr(GPtrArray) rows = mean_rows(runs);
    g_autoptr(GArray) checks = mean_checks(s, runs);
    g_autofree char *table = compare_table(rows, first->results);
    g_autoptr(GPtrArray) none = g_ptr_array_new();
    g_autofree char *md = compare_markdown(s, seed0, (guint)a->seeds, table, checks, NULL, NULL);
    g_autofree char *json =
        compare_json(s, seed0, (guint)a->seeds, rows, none, none, first->results, checks);
    if (!write_report(dir, "compare.md", md) || !write_report(dir, "compare.json", json))
        return CLI_EXIT_USAGE;
    return print_verdict(table, checks);
}

static int compare_scenario(const Scenario *s, CliRunArgs *a)
{
    uint64_t seed;
    if (!pick_seed(s, a, &seed))
        return CLI_EXIT_USAGE;
    g_autoptr(GPtrArray) variants = cli_variant_list(s, NULL);
    cli_warn_variant_keys(s, variants, (const char *const *)a->sets, "compare", "--set");
    g_auto(GStrv) sets = cli_run_args_sets(a);
    g_autoptr(GPtrArray) confs = cli_resolve_all(s, variants, (const char *const *)sets);
    if (!confs || !check_expects(s, variants, confs) ||
        !cli_check_memory_jobs(s, confs, a, "compare"))
        return CLI_EXIT_USAGE;
    g_autofree char *dir = cli_out_dir(a, s);
    cli_install_signal_handlers();
    remove_old_report(dir);
    if (a->seeds > 1)
        return compare_seeds(s, a, seed, variants, dir);
    g_autoptr(GPtrArray) results =
        g_ptr_array_new_with_free_func((GDestroyNotify)run_result_free);
    int status = cli_run_variants(confs, a, dir, results);
    if (status != CLI_EXIT_OK)
        return status;
    return report(s, seed, results, dir);
}

int cli_compare(int argc, char **argv)
{
    g_auto(CliRunArgs) a = { 0 };
    g_autofree char *file = NULL;
    if (!cli_parse_run_args("compare", "Run every variant of a scenario and compare them.",
                            COMPARE_DESCRIPTION, FALSE, argc, argv, &a, &file))
        return CLI_EXIT_USAGE;
    g_autoptr(Scenario) s = cli_load_scenario(file);
    return s ? compare_scenario(s, &a) : CLI_EXIT_USAGE;
}
