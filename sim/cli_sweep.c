/* cli_sweep.c - `sksim sweep FILE --param KEY=V1,V2,...`: run a scenario over a grid of key
 * values x seeds x variants, in parallel, then write DIR/sweep.csv and one figure per metric
 * (mean and 95 % CI over seeds against the first parameter).
 *
 * Every run is resolved (scenario + --set + parameters + seed + duration) in the main thread
 * before the first one starts, so a bad value fails in milliseconds and the workers share no
 * loader state: each gets its own ScenarioConf and builds its own Sim. Workers report to the main
 * thread through a GAsyncQueue; the main thread alone prints (errors, the progress bar). Rows are
 * read back from each run's metrics.json in grid order, so sweep.csv does not depend on the
 * completion order, and a run whose metrics.json is complete and whose recorded overrides
 * (sweep-overrides.txt, which also records the scenario file's SHA-256 and the sksim version)
 * are the same is skipped: an interrupted sweep, run again, resumes. Running
 * is in sweep_run.c, the pure parts (grid, CSV, statistics) in sweep.c.
 */
#include "sim/cli.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sim/output.h"
#include "sim/plot.h"
#include "sim/sweep.h"

#define SWEEP_DESCRIPTION                                                                        \
    "Runs FILE for every combination of the --param values (the first parameter varies\n"        \
    "slowest), every seed (base seed + 0 .. N-1; the base seed is --seed or the scenario's) and\n" \
    "every variant (or those given with --variant), J runs at a time. Each run writes its\n"     \
    "outputs to DIR/runs/<key=value>/.../seed-<n>/<variant>/; a run whose metrics.json there is\n" \
    "complete and made from the same scenario file, sksim version and overrides is skipped, so\n" \
    "an interrupted sweep resumes when run again. Then DIR/sweep.csv\n"                          \
    "(one row per run, in grid order: parameters, seed, variant, goodput_bps,\n"                 \
    "transactions_per_s, each report counter, events, wall_s) and, per metric,\n"                \
    "DIR/plots/<metric>.{png,svg,dat}: the mean over seeds and its 95 % confidence interval\n"   \
    "(Student t) against the first parameter. DIR defaults to out/<scenario name>-sweep.\n"      \
    "Seeds differ only where a run draws from its seed (workloads.W.start_jitter,\n"             \
    "links.L.loss); without such a draw the seeds of a point are one run, and sweep warns.\n"    \
    "A --param or --set beats a variant: sweeping the key that the variants set makes them\n"   \
    "one run at each point (sweep warns), so sweep a variant's own knob with --variant.\n"      \
    "\n"                                                                                         \
    "Examples:\n"                                                                                \
    "  sksim sweep scenarios/example.yaml --set workloads.bulk.start_jitter=1ms \\\n"           \
    "      --param stack.release_sock.resched_every=1,2,4,8,16,32,64 --seeds 3 --variant after\n" \
    "  sksim sweep scenarios/example.yaml --param hosts.server.cpus=2,4,8 \\\n"                 \
    "      --param links.wire.rate=1Gbit,10Gbit --set workloads.bulk.start_jitter=1ms \\\n"    \
    "      --seeds 5 --jobs 4 --variant after\n"                                                 \
    "\n"                                                                                         \
    "Exit status: 0 done, 2 bad input or a failed run (its error, an invariant's included, is\n" \
    "printed), 130/143 interrupted (run again to resume)."

typedef struct SweepArgs {
    char **params;
    int seeds;
    int jobs;
    char *out;
    char *seed;
    char *duration;
    char **variants;
    char **sets;
    gboolean quiet;
    char *max_memory;
} SweepArgs;

static void sweep_args_clear(SweepArgs *a)
{
    g_strfreev(a->params);
    g_free(a->out);
    g_free(a->seed);
    g_free(a->duration);
    g_strfreev(a->variants);
    g_strfreev(a->sets);
    g_free(a->max_memory);
}
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(SweepArgs, sweep_args_clear)

typedef struct Plan {
    const Scenario *s;
    GPtrArray *params;   /* SweepParam* */
    GPtrArray *variants; /* char*: labels */
    GPtrArray *rows;     /* SweepRow*, grid order */
    GPtrArray *jobs;     /* SweepJob*: the rows to run, grid order */
    GPtrArray *metrics;  /* SweepMetric* */
    char *dir;
    char *stamp;         /* "# scenario sha256 ... sksim VERSION": what else a result depends on */
    guint skipped;
    gboolean uses_seed;  /* some run draws from its seed (start_jitter, link loss) */
} Plan;

static void plan_clear(Plan *p)
{
    g_clear_pointer(&p->params, g_ptr_array_unref);
    g_clear_pointer(&p->stamp, g_free);
    g_clear_pointer(&p->variants, g_ptr_array_unref);
    g_clear_pointer(&p->rows, g_ptr_array_unref);
    g_clear_pointer(&p->jobs, g_ptr_array_unref);
    g_clear_pointer(&p->metrics, g_ptr_array_unref);
    g_clear_pointer(&p->dir, g_free);
}
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(Plan, plan_clear)

/* ---- options --------------------------------------------------------------------------------- */

static gboolean parse_args(int argc, char **argv, SweepArgs *a, char **file)
{
    const GOptionEntry entries[] = {
        { "param", 'p', 0, G_OPTION_ARG_STRING_ARRAY, &a->params,
          "A key and its values (repeatable; commas inside [...] do not split)", "KEY=V1,V2,..." },
        { "seeds", 'n', 0, G_OPTION_ARG_INT, &a->seeds, "Seeds per grid point (default 1)", "N" },
        { "jobs", 'j', 0, G_OPTION_ARG_INT, &a->jobs,
          "Runs at a time (default: the number of processors)", "J" },
        { "out", 'o', 0, G_OPTION_ARG_FILENAME, &a->out,
          "Output directory (default out/<scenario>-sweep)", "DIR" },
        { "seed", 's', 0, G_OPTION_ARG_STRING, &a->seed, "Base seed (default: the scenario's)",
          "N" },
        { "duration", 'd', 0, G_OPTION_ARG_STRING, &a->duration, "Simulated duration of each run",
          "T" },
        { "variant", 'v', 0, G_OPTION_ARG_STRING_ARRAY, &a->variants,
          "Run only this variant (repeatable; 'base' is the scenario without variant)", "NAME" },
        { "set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &a->sets,
          "Override a scenario key in every run (repeatable)", "KEY=VALUE" },
        { "quiet", 'q', 0, G_OPTION_ARG_NONE, &a->quiet, "No progress bar and no summary lines",
          NULL },
        { "max-memory", 0, 0, G_OPTION_ARG_STRING, &a->max_memory,
          "Refuse a sweep whose J parallel runs are estimated to need more (default: 75% of RAM)",
          "SIZE" },
        { NULL },
    };
    g_autoptr(GOptionContext) ctx = cli_context_new(
        "sweep", "FILE", "Run a scenario over a grid of key values and seeds.", SWEEP_DESCRIPTION,
        entries);
    g_auto(GStrv) args = NULL;
    if (!cli_parse(ctx, "sweep", argc, argv, &args))
        return FALSE;
    if (g_strv_length(args) != 2) {
        cli_usage_error("sweep", "expected exactly one scenario FILE");
        return FALSE;
    }
    if (!a->params || !a->params[0]) {
        cli_usage_error("sweep", "expected at least one --param KEY=V1,V2,...");
        return FALSE;
    }
    if (a->seeds == 0 || a->seeds < -1 || a->jobs == 0 || a->jobs < -1) {
        cli_usage_error("sweep", "--seeds and --jobs must be >= 1");
        return FALSE;
    }
    CliRunArgs check = { .seed = a->seed, .duration = a->duration, .sets = a->sets };
    if (!cli_run_args_check(&check, "sweep"))
        return FALSE;
    *file = g_strdup(args[1]);
    return TRUE;
}

static GPtrArray *parse_params(char **args)
{
    g_autoptr(GPtrArray) params = g_ptr_array_new_with_free_func(sweep_param_free);
    for (guint i = 0; args[i]; i++) {
        g_autoptr(GError) err = NULL;
        SweepParam *p = sweep_param_parse(args[i], &err);
        if (!p) {
            cli_usage_error("sweep", "%s", err->message);
            return NULL;
        }
        for (guint j = 0; j < params->len; j++) {
            const SweepParam *q = g_ptr_array_index(params, j);
            if (strcmp(q->key, p->key) == 0) {
                cli_usage_error("sweep", "--param %s is given twice: list all its values in one "
                                "--param %s=V1,V2,...", p->key, p->key);
                sweep_param_free(p);
                return NULL;
            }
        }
        g_ptr_array_add(params, p);
        if (strcmp(p->key, "seed") == 0) {
            cli_usage_error("sweep", "--param seed: use --seeds N (and --seed for the base seed)");
            return NULL;
        }
    }
    return g_steal_pointer(&params);
}

/* ---- planning -------------------------------------------------------------------------------- */

static uint64_t base_seed(const Scenario *s, const SweepArgs *a, gboolean *ok)
{
    *ok = TRUE;
    if (a->seed)
        return g_ascii_strtoull(a->seed, NULL, 10);
    /* the --set lines, then --duration, as every run takes them (run_sets): a warm-up that only
     * --duration makes valid must not fail here */
    g_autoptr(GStrvBuilder) b = g_strv_builder_new();
    for (guint i = 0; a->sets && a->sets[i]; i++)
        g_strv_builder_add(b, a->sets[i]);
    g_autofree char *duration_set =
        a->duration ? g_strdup_printf("duration=%s", a->duration) : NULL;
    if (duration_set)
        g_strv_builder_add(b, duration_set);
    g_auto(GStrv) sets = g_strv_builder_end(b);
    g_autoptr(GError) err = NULL;
    g_autoptr(ScenarioConf) base = scenario_resolve(s, NULL, (const char *const *)sets, &err);
    if (!base) {
        fprintf(stderr, "%s\n", err->message);
        *ok = FALSE;
        return 0;
    }
    return base->seed;
}

/* --set values, the point's parameters, the seed and the duration, in that order (later wins). */
static GStrv run_sets(const SweepArgs *a, const GPtrArray *params, const guint *idx, uint64_t seed)
{
    g_autoptr(GStrvBuilder) b = g_strv_builder_new();
    for (guint i = 0; a->sets && a->sets[i]; i++)
        g_strv_builder_add(b, a->sets[i]);
    for (guint i = 0; i < params->len; i++) {
        const SweepParam *p = g_ptr_array_index(params, i);
        g_autofree char *set = g_strdup_printf("%s=%s", p->key,
                                               (const char *)g_ptr_array_index(p->values, idx[i]));
        g_strv_builder_add(b, set);
    }
    g_autofree char *seed_set = g_strdup_printf("seed=%" PRIu64, seed);
    g_strv_builder_add(b, seed_set);
    g_autofree char *duration_set =
        a->duration ? g_strdup_printf("duration=%s", a->duration) : NULL;
    if (duration_set)
        g_strv_builder_add(b, duration_set);
    return g_strv_builder_end(b);
}

static gboolean add_run(Plan *plan, const SweepArgs *a, guint g, guint si, uint64_t seed,
                        const char *variant, const guint *idx, GHashTable *dirs)
{
    const char *label = cli_variant_label(variant);
    g_autofree char *sub = sweep_run_subdir(plan->params, idx, seed);
    SweepRow *row = g_new0(SweepRow, 1);
    row->point = g;
    row->seed_index = si;
    row->seed = seed;
    row->variant = g_strdup(label);
    row->dir = g_build_filename(plan->dir, "runs", sub, label, NULL);
    g_ptr_array_add(plan->rows, row);
    if (!g_hash_table_add(dirs, g_strdup(row->dir))) { /* look-up only, never iterated */
        fprintf(stderr, "sksim sweep: two runs would share %s: make the --param values differ "
                        "in letters or digits\n", row->dir);
        return FALSE;
    }
    g_auto(GStrv) sets = run_sets(a, plan->params, idx, seed);
    g_autoptr(GError) err = NULL;
    ScenarioConf *conf = scenario_resolve(plan->s, variant, (const char *const *)sets, &err);
    if (!conf) {
        fprintf(stderr, "sksim sweep: %s: %s\n", sub, err->message);
        return FALSE;
    }
    plan->uses_seed |= scenario_conf_uses_seed(conf);
    g_autofree char *sets_text = sweep_overrides_text((const char *const *)sets);
    g_autofree char *overrides = g_strconcat(plan->stamp, sets_text, NULL);
    if (sweep_run_complete(row->dir, conf->name, label, seed) &&
        sweep_overrides_match(row->dir, overrides)) {
        plan->skipped++;
        scenario_conf_free(conf);
        return TRUE;
    }
    g_ptr_array_add(plan->jobs, sweep_job_new(row, conf, overrides));
    return TRUE;
}

static gboolean make_plan(Plan *plan, const SweepArgs *a, const GPtrArray *variants)
{
    gboolean ok;
    uint64_t seed0 = base_seed(plan->s, a, &ok);
    if (!ok)
        return FALSE;
    guint nseeds = a->seeds > 0 ? (guint)a->seeds : 1;
    guint npoints = sweep_grid_size(plan->params);
    g_autofree guint *idx = g_new0(guint, plan->params->len + 1);
    g_autoptr(GHashTable) dirs = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    plan->rows = g_ptr_array_new_with_free_func(sweep_row_free);
    plan->jobs = g_ptr_array_new_with_free_func(sweep_job_free);
    for (guint g = 0; g < npoints; g++) {
        sweep_grid_point(plan->params, g, idx);
        for (guint si = 0; si < nseeds; si++)
            for (guint v = 0; v < variants->len; v++)
                if (!add_run(plan, a, g, si, seed0 + si, g_ptr_array_index(variants, v), idx, dirs))
                    return FALSE;
    }
    return TRUE;
}

/* ---- results --------------------------------------------------------------------------------- */

static gboolean load_rows(Plan *plan)
{
    for (guint i = 0; i < plan->rows->len; i++) {
        SweepRow *row = g_ptr_array_index(plan->rows, i);
        g_autofree char *path = g_build_filename(row->dir, "metrics.json", NULL);
        g_autoptr(GError) err = NULL;
        row->result = sweep_load_metrics(path, &err);
        if (!row->result) {
            fprintf(stderr, "sksim sweep: %s\n", err->message);
            return FALSE;
        }
    }
    return TRUE;
}

static void draw_figures(const Plan *plan, const char *host, gboolean quiet)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(Plotter) p = plotter_new(NULL, NULL, &err);
    g_autoptr(GPtrArray) written = g_ptr_array_new_with_free_func(g_free);
    const char *title = scenario_title(plan->s);
    if (p)
        sweep_plot(p, plan->dir, title && *title ? title : scenario_name(plan->s), plan->params,
                   plan->rows, plan->metrics, host, plan->variants, written, &err);
    if (err)
        fprintf(stderr, "sksim sweep: %s\n", err->message);
    if (!quiet && written->len > 0)
        printf("sweep: %u figures in %s/plots/\n", written->len, plan->dir);
}

static int finish(Plan *plan, gboolean quiet)
{
    if (!load_rows(plan))
        return CLI_EXIT_USAGE;
    const ReportConf *rep = scenario_report(plan->s);
    const char *host = rep ? rep->host : NULL;
    plan->metrics = sweep_metrics(rep ? rep->counters : NULL);
    g_autofree char *csv = sweep_csv(plan->params, plan->rows, plan->metrics, host);
    g_autofree char *path = g_build_filename(plan->dir, "sweep.csv", NULL);
    g_autoptr(GError) err = NULL;
    if (!output_write_atomic(path, csv, strlen(csv), &err)) {
        fprintf(stderr, "sksim sweep: %s\n", err->message);
        return CLI_EXIT_USAGE;
    }
    if (!quiet)
        printf("sweep: wrote %s (%u rows)\n", path, plan->rows->len);
    draw_figures(plan, host, quiet);
    int stopped = cli_interrupted_status(); /* a signal while the figures were drawn */
    if (stopped)
        fprintf(stderr, "sksim sweep: interrupted while drawing the figures; some may be "
                        "missing (run the same command again to redraw them)\n");
    return stopped;
}

static int sweep(Plan *plan, const SweepArgs *a)
{
    g_autoptr(GPtrArray) variants = cli_variant_list(plan->s, a->variants);
    if (!variants)
        return CLI_EXIT_USAGE;
    cli_warn_variant_keys(plan->s, variants, (const char *const *)a->params, "sweep", "--param");
    cli_warn_variant_keys(plan->s, variants, (const char *const *)a->sets, "sweep", "--set");
    plan->variants = g_ptr_array_new_with_free_func(g_free);
    for (guint v = 0; v < variants->len; v++)
        g_ptr_array_add(plan->variants,
                        g_strdup(cli_variant_label(g_ptr_array_index(variants, v))));
    if (!make_plan(plan, a, variants))
        return CLI_EXIT_USAGE;
    guint nseeds = a->seeds > 0 ? (guint)a->seeds : 1;
    if (nseeds > 1 && !plan->uses_seed)
        fprintf(stderr, "sksim sweep: warning: no run draws from its seed (every "
                        "workloads.W.start_jitter is 0 and every links.L.loss 0), so the %u seeds "
                        "of each point are the same run and their confidence intervals have no "
                        "width; set a start_jitter (e.g. 1ms) to vary the runs\n", nseeds);
    guint threads = a->jobs > 0 ? (guint)a->jobs : g_get_num_processors();
    g_autoptr(GPtrArray) confs = g_ptr_array_new();
    for (guint i = 0; i < plan->jobs->len; i++)
        g_ptr_array_add(confs, ((SweepJob *)g_ptr_array_index(plan->jobs, i))->conf);
    if (!cli_check_memory_parallel(plan->s, confs, threads, a->max_memory, "sweep"))
        return CLI_EXIT_USAGE;
    if (!a->quiet)
        printf("sweep: %u runs (%u points x %u seeds x %u variants), skipped %u (complete "
               "metrics.json), running %u on %u jobs\n",
               plan->rows->len, sweep_grid_size(plan->params), nseeds, variants->len,
               plan->skipped, plan->jobs->len, MIN(threads, MAX(plan->jobs->len, 1u)));
    fflush(stdout);
    cli_install_signal_handlers();
    guint failed = sweep_run_jobs(plan->jobs, threads, cli_stop_flag(),
                                  !a->quiet && isatty(STDERR_FILENO));
    int stopped = cli_interrupted_status();
    if (stopped) {
        fprintf(stderr, "sksim sweep: interrupted; run the same command again to resume\n");
        return stopped;
    }
    if (failed > 0) {
        fprintf(stderr, "sksim sweep: %u run%s failed\n", failed, failed == 1 ? "" : "s");
        return CLI_EXIT_USAGE;
    }
    return finish(plan, a->quiet);
}

/* A run's recorded overrides start with this line, so a run made from another version of the
 * scenario file (or by another sksim version) no longer counts as complete and is run again. The
 * file was just loaded, so reading it again cannot fail in a way the loader did not report. */
static char *scenario_stamp(const char *file)
{
    g_autofree char *text = NULL;
    gsize len = 0;
    if (!g_file_get_contents(file, &text, &len, NULL))
        return g_strdup("# scenario unreadable\n");
    g_autofree char *sum = g_compute_checksum_for_data(G_CHECKSUM_SHA256, (const guchar *)text, len);
    return g_strdup_printf("# scenario sha256 %s, sksim %s\n", sum, SKSIM_VERSION);
}

int cli_sweep(int argc, char **argv)
{
    g_auto(SweepArgs) a = { .seeds = -1, .jobs = -1 }; /* -1: not given */
    g_autofree char *file = NULL;
    if (!parse_args(argc, argv, &a, &file))
        return CLI_EXIT_USAGE;
    g_autoptr(Scenario) s = cli_load_scenario(file);
    if (!s)
        return CLI_EXIT_USAGE;
    g_auto(Plan) plan = { .s = s, .stamp = scenario_stamp(file) };
    plan.params = parse_params(a.params);
    if (!plan.params)
        return CLI_EXIT_USAGE;
    plan.dir = a.out ? g_strdup(a.out) : g_strdup_printf("out/%s-sweep", scenario_name(s));
    return sweep(&plan, &a);
}
