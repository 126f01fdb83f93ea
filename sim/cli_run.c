/* cli_run.c - `sksim run FILE`: resolve a scenario's variants, run each, write its outputs.
 *
 * Every requested variant is resolved before the first one runs, so a typo in the last variant
 * or in a --set costs no simulation time. --seed and --duration are sugar for --set seed=N and
 * --set duration=T, appended after the user's sets (so they win).
 */
#include "sim/cli.h"

#include <stdio.h>

#define RUN_DESCRIPTION                                                                          \
    "Without --variant, every variant of the scenario runs in file order (or the base scenario\n" \
    "when it has none). Outputs go to DIR/<variant>/ (DIR defaults to out/<scenario name>,\n"     \
    "the variant directory is 'base' without variants): metrics.json, <host>.nstat and\n"        \
    "timeseries.csv. One summary line per variant is printed on stdout.\n"                       \
    "--pcap, --trace and --log add packet captures, a Perfetto/chrome://tracing timeline and an\n" \
    "event log (README.md, \"Looking inside a run\").\n"                                          \
    "\n"                                                                                         \
    "Examples:\n"                                                                                \
    "  sksim run scenarios/example.yaml\n"                                                       \
    "  sksim run scenarios/example.yaml --variant before --seed 7 --duration 2s\n"               \
    "  sksim run scenarios/example.yaml --set hosts.server.cpus=2 --out /tmp/x --fingerprint\n"  \
    "\n"                                                                                         \
    "Exit status: 0 ok, 2 bad input, 3 an invariant was violated (the message names it),\n"     \
    "130/143 interrupted by SIGINT/SIGTERM (outputs are still written, with\n"                  \
    "\"interrupted\": true)."

static void add_run_entries(GOptionContext *ctx, CliRunArgs *a, gboolean with_variant)
{
    const GOptionEntry variant_entry[] = {
        { "variant", 'v', 0, G_OPTION_ARG_STRING_ARRAY, &a->variants,
          "Run only this variant (repeatable; 'base' is the scenario without variant)", "NAME" },
        { NULL },
    };
    const GOptionEntry entries[] = {
        { "seed", 's', 0, G_OPTION_ARG_STRING, &a->seed, "Random seed (same as --set seed=N)", "N" },
        { "duration", 'd', 0, G_OPTION_ARG_STRING, &a->duration,
          "Simulated duration, e.g. 10s (same as --set duration=T)", "T" },
        { "set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &a->sets,
          "Override a scenario key (repeatable; see `sksim keys`)", "KEY=VALUE" },
        { "out", 'o', 0, G_OPTION_ARG_FILENAME, &a->out, "Output directory (default out/<scenario>)",
          "DIR" },
        { "fingerprint", 0, 0, G_OPTION_ARG_NONE, &a->fingerprint,
          "Print 'fingerprint events=… counters=…' per variant", NULL },
        { "quiet", 'q', 0, G_OPTION_ARG_NONE, &a->quiet, "No progress line and no summary lines",
          NULL },
        { "max-events", 0, 0, G_OPTION_ARG_INT64, &a->max_events,
          "Stop each run after N events (0: no limit)", "N" },
        { "max-wall", 0, 0, G_OPTION_ARG_DOUBLE, &a->max_wall,
          "Stop each run after SECONDS of wall time (0: no limit)", "SECONDS" },
        { "max-memory", 0, 0, G_OPTION_ARG_STRING, &a->max_memory,
          "Refuse a scenario estimated to need more (default: 75% of RAM), e.g. 8GiB", "SIZE" },
        { "pcap", 0, 0, G_OPTION_ARG_STRING_ARRAY, &a->pcap,
          "Capture HOST's devices, or one (eth0, eth1... in link order, lo), into "
          "DIR/<variant>/<host>-<nic>.pcap (repeatable)", "HOST[:NIC]" },
        { "snaplen", 0, 0, G_OPTION_ARG_INT, &a->snaplen,
          "Bytes captured per packet (default 128, also for 0; 262144 keeps whole packets)", "N" },
        { "trace", 0, 0, G_OPTION_ARG_FILENAME, &a->trace,
          "Write a Chrome trace-event JSON timeline (Perfetto UI, chrome://tracing); with several "
          "variants, FILE gets .<variant> before its extension", "FILE" },
        { "trace-window", 0, 0, G_OPTION_ARG_STRING, &a->trace_window,
          "Only this part of the run in the trace, e.g. 1s:1.2s (either side may be empty)",
          "T0:T1" },
        { "log", 0, 0, G_OPTION_ARG_STRING_ARRAY, &a->log,
          "Write DIR/<variant>/events.log with these categories: tcp, timer, sched, softirq, "
          "backlog, nic, all (repeatable)", "CATEGORY[,CATEGORY]" },
        { "jobs", 'j', 0, G_OPTION_ARG_INT, &a->jobs,
          "Run up to N variants at a time, each in its own thread (default 1); the outputs are "
          "the same whatever N", "N" },
        { NULL },
    };
    const GOptionEntry seeds_entry[] = {
        { "seeds", 0, 0, G_OPTION_ARG_INT, &a->seeds,
          "Run every variant for N consecutive seeds from --seed (default 1) and compare the "
          "means; each check passes when its mean is inside its band", "N" },
        { NULL },
    };
    if (with_variant)
        g_option_context_add_main_entries(ctx, variant_entry, NULL);
    g_option_context_add_main_entries(ctx, entries, NULL);
    if (!with_variant) /* compare */
        g_option_context_add_main_entries(ctx, seeds_entry, NULL);
}

/* Parse `run` or `compare` arguments into a (must be cleared by the caller) and the one FILE. */
gboolean cli_parse_run_args(const char *cmd, const char *summary, const char *description,
                            gboolean with_variant, int argc, char **argv, CliRunArgs *a,
                            char **file)
{
    g_autoptr(GOptionContext) ctx = cli_context_new(cmd, "FILE", summary, description, NULL);
    add_run_entries(ctx, a, with_variant);
    a->jobs = 1;
    a->seeds = 1;
    g_auto(GStrv) args = NULL;
    if (!cli_parse(ctx, cmd, argc, argv, &args) || !cli_run_args_check(a, cmd))
        return FALSE;
    if (a->jobs < 1) {
        cli_usage_error(cmd, "--jobs must be >= 1");
        return FALSE;
    }
    if (a->seeds < 1 || a->seeds > 1000) {
        cli_usage_error(cmd, "--seeds must be between 1 and 1000");
        return FALSE;
    }
    if (a->seeds > 1 && a->trace) { /* every seed would write the same FILE.<variant> */
        cli_usage_error(cmd, "--trace takes one run per variant: trace one seed with --seed N");
        return FALSE;
    }
    if (g_strv_length(args) != 2) {
        cli_usage_error(cmd, "expected exactly one scenario FILE");
        return FALSE;
    }
    *file = g_strdup(args[1]);
    return TRUE;
}

static int run_all(const Scenario *s, const GPtrArray *confs, const CliRunArgs *a)
{
    g_autofree char *dir = cli_out_dir(a, s);
    return cli_run_variants(confs, a, dir, NULL);
}

int cli_run(int argc, char **argv)
{
    g_auto(CliRunArgs) a = { 0 };
    g_autofree char *file = NULL;
    if (!cli_parse_run_args("run", "Run a scenario and write its outputs.", RUN_DESCRIPTION, TRUE,
                            argc, argv, &a, &file))
        return CLI_EXIT_USAGE;
    g_autoptr(Scenario) s = cli_load_scenario(file);
    if (!s)
        return CLI_EXIT_USAGE;
    g_autoptr(GPtrArray) variants = cli_variant_list(s, a.variants);
    if (variants)
        cli_warn_variant_keys(s, variants, (const char *const *)a.sets, "run", "--set");
    g_auto(GStrv) sets = cli_run_args_sets(&a);
    g_autoptr(GPtrArray) confs =
        variants ? cli_resolve_all(s, variants, (const char *const *)sets) : NULL;
    if (!confs || !cli_check_memory_jobs(s, confs, &a, "run"))
        return CLI_EXIT_USAGE;
    cli_install_signal_handlers();
    return run_all(s, confs, &a);
}
