/* cli_common.c - what the sksim commands share: option parsing and its errors, the run options
 * of `run` and `compare`, the variant list, resolving, running one variant and writing its
 * outputs, and the SIGINT/SIGTERM stop flag.
 *
 * The stop flag is the program's one piece of global mutable state, and it has to be: a signal
 * handler can reach nothing else. It is a static volatile sig_atomic_t holding the signal number;
 * run.c sees it through RunOptions.stop and stops at the next event, so the results of the
 * interrupted run are still written (with "interrupted": true).
 */
#include "sim/cli.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "models/invariants.h"
#include "sim/evlog.h"
#include "sim/expr.h"
#include "sim/output.h"
#include "sim/run.h"
#include "sim/run_observe.h"
#include "sim/units.h"

static volatile sig_atomic_t stop_signal; /* the one allowed global: see the top of this file */

static void on_stop_signal(int signo)
{
    stop_signal = signo;
}

void cli_install_signal_handlers(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND; /* a second Ctrl-C kills at once */
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

volatile sig_atomic_t *cli_stop_flag(void)
{
    return &stop_signal;
}

int cli_interrupted_status(void)
{
    return stop_signal ? 128 + (int)stop_signal : 0;
}

/* ---- options ----------------------------------------------------------------------------------- */

GOptionContext *cli_context_new(const char *cmd, const char *params, const char *summary,
                                const char *description, const GOptionEntry *entries)
{
    g_autofree char *prgname = g_strdup_printf("sksim %s", cmd);
    g_set_prgname(prgname);
    GOptionContext *ctx = g_option_context_new(params);
    g_option_context_set_summary(ctx, summary);
    g_option_context_set_description(ctx, description);
    if (entries)
        g_option_context_add_main_entries(ctx, entries, NULL);
    return ctx;
}

void cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    g_autofree char *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    fprintf(stderr, "sksim %s: %s\nRun 'sksim %s --help' for usage.\n", cmd, msg, cmd);
}

gboolean cli_parse(GOptionContext *ctx, const char *cmd, int argc, char **argv, GStrv *args)
{
    GStrv v = g_new0(char *, (gsize)argc + 1);
    for (int i = 0; i < argc; i++)
        v[i] = g_strdup(argv[i]);
    g_autoptr(GError) err = NULL;
    if (!g_option_context_parse_strv(ctx, &v, &err)) {
        cli_usage_error(cmd, "%s", err->message);
        g_strfreev(v);
        return FALSE;
    }
    *args = v;
    return TRUE;
}

gboolean cli_parse_plain(const char *cmd, const char *params, const char *summary,
                         const char *description, int argc, char **argv, int min_args,
                         int max_args, GStrv *args)
{
    g_autoptr(GOptionContext) ctx = cli_context_new(cmd, params, summary, description, NULL);
    g_auto(GStrv) v = NULL;
    if (!cli_parse(ctx, cmd, argc, argv, &v))
        return FALSE;
    int n = (int)g_strv_length(v) - 1;
    if (n < min_args || (max_args >= 0 && n > max_args)) {
        cli_usage_error(cmd, "expected %s%s", params[0] ? params : "no argument",
                        n > 0 && max_args >= 0 && n > max_args ? ", got more" : "");
        return FALSE;
    }
    *args = g_steal_pointer(&v);
    return TRUE;
}

Scenario *cli_load_scenario(const char *path)
{
    g_autoptr(GError) err = NULL;
    Scenario *s = scenario_load_file(path, &err);
    if (!s)
        fprintf(stderr, "%s\n", err->message);
    return s;
}

gboolean cli_check_expects(const Scenario *s, const char *const *variants,
                           const char *const *hosts)
{
    gboolean ok = TRUE;
    for (guint i = 0; i < scenario_n_expects(s); i++) {
        const ExpectConf *e = scenario_expect(s, i);
        g_autoptr(GError) err = NULL;
        if (expr_check(e->check, variants, hosts, &err))
            continue;
        fprintf(stderr, "%s:%d:%d: expect '%s': %s\n", scenario_path(s), e->line, e->col,
                e->name ? e->name : e->check, err->message);
        ok = FALSE;
    }
    return ok;
}

void cli_run_args_clear(CliRunArgs *a)
{
    g_strfreev(a->variants);
    g_free(a->seed);
    g_free(a->duration);
    g_strfreev(a->sets);
    g_free(a->out);
    g_free(a->max_memory);
    g_strfreev(a->pcap);
    g_free(a->trace);
    g_free(a->trace_window);
    g_strfreev(a->log);
    memset(a, 0, sizeof *a);
}

static gboolean check_sets(char **sets, const char *cmd)
{
    for (guint i = 0; sets && sets[i]; i++) {
        const char *eq = strchr(sets[i], '=');
        if (!eq || eq == sets[i]) {
            cli_usage_error(cmd, "--set '%s': expected KEY=VALUE", sets[i]);
            return FALSE;
        }
    }
    return TRUE;
}

/* --trace-window T0:T1: durations, either may be empty (0 / the end); T1 > T0 when both given. */
static gboolean parse_trace_window(const char *text, sim_time_t *t0, sim_time_t *t1, GError **error)
{
    const char *colon = strchr(text, ':');
    if (!colon) {
        g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "expected T0:T1, e.g. 1s:1.5s");
        return FALSE;
    }
    g_autofree char *a = g_strndup(text, (gsize)(colon - text));
    const char *b = colon + 1;
    *t0 = 0;
    *t1 = 0;
    if (*g_strstrip(a) && !units_parse_duration(a, t0, error))
        return FALSE;
    if (*b && !units_parse_duration(b, t1, error))
        return FALSE;
    if (*b && *t1 <= *t0) {
        g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "T1 must be after T0");
        return FALSE;
    }
    return TRUE;
}

/* RunOptions of --pcap, --snaplen, --trace(-window), --log (checked by check_observe_args). */
static void cli_observe_options(const CliRunArgs *a, RunOptions *opt, const char *trace)
{
    opt->pcap = (const char *const *)a->pcap;
    opt->pcap_snaplen = (uint32_t)a->snaplen;
    opt->trace_path = trace;
    if (a->trace_window)
        parse_trace_window(a->trace_window, &opt->trace_t0, &opt->trace_t1, NULL);
    evlog_parse_categories((const char *const *)a->log, &opt->log_mask, NULL);
}

static gboolean check_observe_args(const CliRunArgs *a, const char *cmd)
{
    g_autoptr(GError) err = NULL;
    if (a->snaplen < 0 || a->snaplen > 262144) {
        cli_usage_error(cmd, "--snaplen: must be between 0 (the default, 128) and 262144");
        return FALSE;
    }
    uint32_t mask;
    if (!evlog_parse_categories((const char *const *)a->log, &mask, &err)) {
        cli_usage_error(cmd, "--log: %s", err->message);
        return FALSE;
    }
    if (a->log && !mask) {
        cli_usage_error(cmd, "--log: no category given (categories: %s)", evlog_category_names());
        return FALSE;
    }
    if (a->trace && !a->trace[0]) {
        cli_usage_error(cmd, "--trace: empty file name");
        return FALSE;
    }
    if (a->trace_window && !a->trace) {
        cli_usage_error(cmd, "--trace-window needs --trace FILE");
        return FALSE;
    }
    sim_time_t t0, t1;
    if (a->trace_window && !parse_trace_window(a->trace_window, &t0, &t1, &err)) {
        cli_usage_error(cmd, "--trace-window '%s': %s", a->trace_window, err->message);
        return FALSE;
    }
    return TRUE;
}

gboolean cli_run_args_check(const CliRunArgs *a, const char *cmd)
{
    g_autoptr(GError) err = NULL;
    if (a->seed && !g_ascii_string_to_unsigned(a->seed, 10, 0, G_MAXUINT64, NULL, &err)) {
        cli_usage_error(cmd, "--seed: %s", err->message);
        return FALSE;
    }
    if (a->duration && a->duration[0] == '\0') {
        cli_usage_error(cmd, "--duration: empty value");
        return FALSE;
    }
    sim_time_t duration_ns;
    if (a->duration && !units_parse_duration(a->duration, &duration_ns, &err)) {
        cli_usage_error(cmd, "--duration %s: %s", a->duration, err->message);
        return FALSE;
    }
    if (a->max_events < 0) {
        cli_usage_error(cmd, "--max-events: must be >= 0");
        return FALSE;
    }
    if (!(a->max_wall >= 0.0)) { /* also rejects NaN */
        cli_usage_error(cmd, "--max-wall: must be >= 0");
        return FALSE;
    }
    return check_sets(a->sets, cmd) && check_observe_args(a, cmd);
}

GStrv cli_run_args_sets(const CliRunArgs *a)
{
    g_autoptr(GStrvBuilder) b = g_strv_builder_new();
    for (guint i = 0; a->sets && a->sets[i]; i++)
        g_strv_builder_add(b, a->sets[i]);
    g_autofree char *seed = a->seed ? g_strconcat("seed=", a->seed, NULL) : NULL;
    g_autofree char *duration = a->duration ? g_strconcat("duration=", a->duration, NULL) : NULL;
    if (seed)
        g_strv_builder_add(b, seed);
    if (duration)
        g_strv_builder_add(b, duration);
    return g_strv_builder_end(b);
}

char *cli_out_dir(const CliRunArgs *a, const Scenario *s)
{
    if (a->out)
        return g_strdup(a->out);
    return g_build_filename("out", scenario_name(s), NULL);
}

/* ---- variants ----------------------------------------------------------------------------------- */

const char *cli_variant_label(const char *variant)
{
    return variant ? variant : "base";
}

static void print_unknown_variant(const Scenario *s, const char *name)
{
    GString *known = g_string_new(NULL);
    for (guint i = 0; i < scenario_n_variants(s); i++)
        g_string_append_printf(known, "%s%s", i ? ", " : "", scenario_variant_name(s, i));
    fprintf(stderr, "%s: unknown variant '%s' (variants: %s)\n", scenario_path(s), name,
            known->len ? known->str : "none; the base scenario is 'base'");
    g_string_free(known, TRUE);
}

GPtrArray *cli_variant_list(const Scenario *s, char **requested)
{
    GPtrArray *list = g_ptr_array_new();
    for (guint i = 0; requested && requested[i]; i++) {
        char *name = requested[i];
        if (scenario_has_variant(s, name)) {
            g_ptr_array_add(list, name);
        } else if (strcmp(name, "base") == 0) {
            g_ptr_array_add(list, NULL);
        } else {
            print_unknown_variant(s, name);
            g_ptr_array_unref(list);
            return NULL;
        }
    }
    if (requested && requested[0])
        return list;
    for (guint i = 0; i < scenario_n_variants(s); i++)
        g_ptr_array_add(list, (char *)scenario_variant_name(s, i));
    if (list->len == 0)
        g_ptr_array_add(list, NULL);
    return list;
}

void cli_warn_variant_keys(const Scenario *s, const GPtrArray *variants, const char *const *keys,
                           const char *cmd, const char *opt)
{
    if (variants->len < 2)
        return;
    for (guint i = 0; keys && keys[i]; i++) {
        g_autofree char *key = g_strndup(keys[i], strcspn(keys[i], "="));
        g_autoptr(GString) setters = g_string_new(NULL);
        guint n = 0;
        for (guint v = 0; v < variants->len; v++) {
            const char *name = g_ptr_array_index(variants, v);
            if (name && scenario_variant_sets(s, name, key))
                g_string_append_printf(setters, "%s%s", n++ ? ", " : "", name);
        }
        if (n)
            fprintf(stderr,
                    "sksim %s: warning: %s %s overrides the value that variant%s %s give%s it, so "
                    "the variants no longer differ in it; to vary a variant's own knob, run that "
                    "variant alone (--variant NAME)\n",
                    cmd, opt, key, n > 1 ? "s" : "", setters->str, n > 1 ? "" : "s");
    }
}

GPtrArray *cli_resolve_all(const Scenario *s, const GPtrArray *variants, const char *const *sets)
{
    GPtrArray *confs = g_ptr_array_new_with_free_func((GDestroyNotify)scenario_conf_free);
    for (guint i = 0; i < variants->len; i++) {
        g_autoptr(GError) err = NULL;
        ScenarioConf *c = scenario_resolve(s, g_ptr_array_index(variants, i), sets, &err);
        if (!c) {
            fprintf(stderr, "%s\n", err->message);
            g_ptr_array_unref(confs);
            return NULL;
        }
        g_ptr_array_add(confs, c);
    }
    return confs;
}

int cli_error_status(const GError *err)
{
    return err && err->domain == SKSIM_INVARIANT_ERROR ? CLI_EXIT_INVARIANT : CLI_EXIT_USAGE;
}

/* ---- running ------------------------------------------------------------------------------------ */

static void print_summary(const RunResult *r, const char *label)
{
    sim_time_t reached = r->interrupted ? r->reached_ns : r->duration_ns;
    printf("%s: simulated %.3f s, %" PRIu64 " events, wall %.3f s, %.2fM events/s%s\n", label,
           sim_time_to_sec(reached), r->events, r->wall_s, r->events_per_s / 1e6,
           r->interrupted ? " (interrupted)" : "");
}

static int finish_run(RunResult *r, const CliRunArgs *a, const char *label)
{
    if (!a->quiet)
        print_summary(r, label);
    if (a->fingerprint)
        printf("fingerprint events=%016llx counters=%016llx\n", (unsigned long long)r->fp_events,
               (unsigned long long)r->fp_counters);
    fflush(stdout);
    if (r->interrupted && cli_interrupted_status() == 0)
        fprintf(stderr, "%s: stopped early by --max-events or --max-wall\n", label);
    return cli_interrupted_status();
}

/* The --trace file of this variant: FILE when one variant runs (a single --variant, or a
 * scenario without variants), else FILE with ".<variant>" before its extension. */
static char *trace_path(const CliRunArgs *a, const ScenarioConf *conf)
{
    if (!a->trace)
        return NULL;
    bool single = a->variants ? g_strv_length(a->variants) == 1 : conf->variant == NULL;
    if (single)
        return g_strdup(a->trace);
    const char *label = cli_variant_label(conf->variant);
    const char *slash = strrchr(a->trace, '/');
    const char *dot = strrchr(slash ? slash + 1 : a->trace, '.');
    if (!dot || dot == (slash ? slash + 1 : a->trace))
        return g_strdup_printf("%s.%s", a->trace, label);
    return g_strdup_printf("%.*s.%s%s", (int)(dot - a->trace), a->trace, label, dot);
}

/* Checks and set-up of one variant's run, in the calling thread: its directory, --pcap hosts and
 * --trace-window against this variant. Returns an exit status; on CLI_EXIT_OK v is ready for
 * cli_variant_execute(). */
int cli_variant_prepare(CliVariantRun *v, const ScenarioConf *conf, const CliRunArgs *a,
                        const char *dir, gboolean progress)
{
    *v = (CliVariantRun){ .conf = conf };
    v->vdir = g_build_filename(dir, cli_variant_label(conf->variant), NULL);
    g_autoptr(GError) perr = NULL;
    if (!run_pcap_check(conf, (const char *const *)a->pcap, &perr)) {
        fprintf(stderr, "%s\n", perr->message);
        return CLI_EXIT_USAGE;
    }
    sim_time_t t0 = 0, t1 = 0;
    if (a->trace_window && parse_trace_window(a->trace_window, &t0, &t1, NULL) &&
        t0 >= conf->duration_ns) {
        fprintf(stderr, "--trace-window %s starts at or after the end of the run (%.6g s): the "
                        "trace would hold no events\n",
                a->trace_window, sim_time_to_sec(conf->duration_ns));
        return CLI_EXIT_USAGE;
    }
    if (g_mkdir_with_parents(v->vdir, 0777) != 0) {
        fprintf(stderr, "%s: cannot create directory: %s\n", v->vdir, g_strerror(errno));
        return CLI_EXIT_USAGE;
    }
    v->trace = trace_path(a, conf);
    v->opt = (RunOptions){
        .max_events = (uint64_t)a->max_events,
        .max_wall_s = a->max_wall,
        .progress = progress,
        .stop = cli_stop_flag(),
        .out_dir = v->vdir,
    };
    cli_observe_options(a, &v->opt, v->trace);
    return CLI_EXIT_OK;
}

/* The run itself and its outputs. Touches only v (and the files under v->vdir), so that
 * several variants can run in several threads (cli_jobs.c). */
void cli_variant_execute(CliVariantRun *v)
{
    v->result = run_scenario(v->conf, &v->opt, &v->error);
    if (v->result && !output_write_run(v->result, v->vdir, &v->error))
        g_clear_pointer(&v->result, run_result_free);
}

/* Back in the main thread: the error, or the summary and fingerprint lines. *out (may be NULL)
 * takes the result on success. */
int cli_variant_finish(CliVariantRun *v, const CliRunArgs *a, RunResult **out)
{
    if (!v->result) {
        fprintf(stderr, "%s\n", v->error->message);
        return cli_error_status(v->error);
    }
    int status = finish_run(v->result, a, cli_variant_label(v->conf->variant));
    if (out)
        *out = g_steal_pointer(&v->result);
    return status;
}

void cli_variant_run_clear(CliVariantRun *v)
{
    g_clear_pointer(&v->vdir, g_free);
    g_clear_pointer(&v->trace, g_free);
    g_clear_pointer(&v->result, run_result_free);
    g_clear_error(&v->error);
}

int cli_run_one(const ScenarioConf *conf, const CliRunArgs *a, const char *dir, RunResult **out)
{
    g_auto(CliVariantRun) v = { 0 };
    int status = cli_variant_prepare(&v, conf, a, dir, !a->quiet && isatty(STDERR_FILENO));
    if (status != CLI_EXIT_OK)
        return status;
    cli_variant_execute(&v);
    return cli_variant_finish(&v, a, out);
}
