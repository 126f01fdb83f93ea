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

#define COMPARE_DESCRIPTION                                                                      \
    "Runs every variant with the same seed (--seed, else the base scenario's), writes each\n"    \
    "variant's outputs to DIR/<variant>/, then DIR/compare.md and DIR/compare.json (DIR\n"       \
    "defaults to out/<scenario name>), prints the table and evaluates the scenario's expect\n"   \
    "checks, one 'PASS name: value in [min, max]' or 'FAIL ...' line each. Figures go to\n"    \
    "DIR/plots/ (see `sksim plot`; without gnuplot: a warning, same exit status).\n"            \
    "\n"                                                                                         \
    "Examples:\n"                                                                                \
    "  sksim compare scenarios/example.yaml\n"                                                   \
    "  sksim compare scenarios/example.yaml --seed 3 --duration 5s --out /tmp/cmp\n"             \
    "  sksim compare scenarios/example.yaml --jobs 2\n"                                           \
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

static void check_outcome_clear(gpointer p)
{
    g_free(((CheckOutcome *)p)->error);
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
            c.pass = (!c.expect->has_min || c.value >= c.expect->min) &&
                     (!c.expect->has_max || c.value <= c.expect->max);
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

/* Tables, files, check lines; returns the exit status. */
static int report(const Scenario *s, uint64_t seed, const GPtrArray *results, const char *dir)
{
    g_autoptr(GPtrArray) rows = compare_rows(s, results);
    g_autoptr(GArray) checks = evaluate_checks(s, results);
    g_autofree char *table = compare_table(rows, results);
    g_autoptr(GPtrArray) diag_rows = compare_diag_rows(results);
    g_autofree char *diag = diag_rows->len ? compare_table(diag_rows, results) : NULL;
    g_autoptr(GPtrArray) profile_rows = compare_profile_rows(results);
    g_autofree char *profile = profile_rows->len ? compare_table(profile_rows, results) : NULL;
    g_autofree char *md = compare_markdown(s, seed, table, checks, diag, profile);
    g_autofree char *json = compare_json(s, seed, rows, diag_rows, profile_rows, results, checks);
    if (!write_report(dir, "compare.md", md) || !write_report(dir, "compare.json", json))
        return CLI_EXIT_USAGE;
    /* figures in DIR/plots/ (sim/plot_dir.c); a missing gnuplot or a failed figure is reported
     * on stderr and never changes the exit status */
    const ReportConf *rep = scenario_report(s);
    plot_directory_report(dir, rep ? rep->host : NULL);
    int stopped = cli_interrupted_status(); /* a signal while the figures were drawn */
    if (stopped) {
        fprintf(stderr, "sksim compare: interrupted while drawing the figures; some may be "
                        "missing\n");
        return stopped;
    }
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

static int compare_scenario(const Scenario *s, CliRunArgs *a)
{
    uint64_t seed;
    if (!pick_seed(s, a, &seed))
        return CLI_EXIT_USAGE;
    g_autoptr(GPtrArray) variants = cli_variant_list(s, NULL);
    g_auto(GStrv) sets = cli_run_args_sets(a);
    g_autoptr(GPtrArray) confs = cli_resolve_all(s, variants, (const char *const *)sets);
    if (!confs || !check_expects(s, variants, confs) ||
        !cli_check_memory_jobs(s, confs, a, "compare"))
        return CLI_EXIT_USAGE;
    g_autofree char *dir = cli_out_dir(a, s);
    g_autoptr(GPtrArray) results =
        g_ptr_array_new_with_free_func((GDestroyNotify)run_result_free);
    cli_install_signal_handlers();
    remove_old_report(dir);
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
