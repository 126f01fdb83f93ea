/* cli_report_md.c - `sksim report FILE... --out out/report.md`: one Markdown document over the
 * compare results of several scenarios, the page a reviewer reads after `./run.sh`.
 *
 * The command takes the scenario files, not the result directories: what a patch changes
 * (`description`) and what its authors published (`published`) live in the scenario, while the
 * numbers live in <results>/<scenario name>/compare.json (the directory `sksim compare` writes
 * by default). Tables and check lines are rendered by the same functions as compare.md
 * (cli_report.c), so the report and compare's own output cannot disagree. Figure links are
 * relative to the report file, so the output directory can be moved or published as a whole.
 */
#include "sim/cli.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sim/json_read.h"
#include "sim/output.h"

#define REPORT_DESCRIPTION                                                                       \
    "For each scenario FILE, reads RESULTS/<scenario name>/compare.json (written by `sksim\n"     \
    "compare FILE`, whose default output directory is out/<scenario name>) and writes one\n"     \
    "section: the title, the description (what the patch changes), the published result (the\n"  \
    "scenario's `published:` key), sksim's table, one PASS/FAIL line per expect check and the\n" \
    "figures of RESULTS/<name>/plots/ (links relative to the report). A scenario without\n"     \
    "results gets a section saying so. RESULTS defaults to out, --out to RESULTS/report.md.\n"   \
    "\n"                                                                                         \
    "Examples:\n"                                                                                \
    "  sksim compare scenarios/example.yaml && sksim report scenarios/example.yaml\n"            \
    "  sksim report scenarios/*.yaml --results /tmp/cmp --out /tmp/cmp/report.md\n"              \
    "\n"                                                                                         \
    "Exit status: 0 written, 2 a scenario file cannot be loaded or the report cannot be written."

/* The figures of sim/plot.h, in report order. */
static const struct {
    const char *file;
    const char *caption;
} figures[] = {
    { "retrans", "Retransmissions over time" },
    { "throughput", "Throughput over time" },
    { "throughput_flows", "Throughput per flow" },
    { "transactions", "Request/response transactions over time" },
    { "cpu", "CPU use" },
    { "counters", "Report counters" },
};

typedef struct Section {
    const Scenario *s;
    const char *file;
    ScenarioConf *base;   /* description, published */
    char *dir;            /* RESULTS/<name> */
    JsonValue *compare;   /* NULL when missing */
    char *missing;        /* why there are no results */
} Section;

static void section_free(gpointer p)
{
    Section *sec = p;
    scenario_conf_free(sec->base);
    g_free(sec->dir);
    json_value_free(sec->compare);
    g_free(sec->missing);
    g_free(sec);
}

/* ---- paths ----------------------------------------------------------------------------------- */

/* to, relative to the directory from (both made absolute first, symlinks left alone). */
static char *relative_path(const char *from, const char *to)
{
    g_autofree char *a = g_canonicalize_filename(from, NULL);
    g_autofree char *b = g_canonicalize_filename(to, NULL);
    g_auto(GStrv) fa = g_strsplit(a, "/", -1);
    g_auto(GStrv) fb = g_strsplit(b, "/", -1);
    guint common = 0;
    while (fa[common] && fb[common] && strcmp(fa[common], fb[common]) == 0)
        common++;
    GString *out = g_string_new(NULL);
    for (guint i = common; fa[i]; i++)
        if (*fa[i])
            g_string_append(out, "../");
    for (guint i = common; fb[i]; i++)
        g_string_append_printf(out, "%s%s", fb[i], fb[i + 1] ? "/" : "");
    if (out->len == 0)
        g_string_append(out, ".");
    return g_string_free(out, FALSE);
}

/* ---- the table and the checks, from compare.json --------------------------------------------- */

static CompareRow *row_from_json(const JsonValue *row, const JsonValue *variants)
{
    const char *key = json_string_value(json_get(row, "name"));
    CompareRow *r;
    if (g_strcmp0(key, "goodput_bps") == 0)
        r = compare_row_new("goodput (Mbit/s)", key, 1e-6, 3);
    else if (g_strcmp0(key, "transactions_per_s") == 0)
        r = compare_row_new("transactions/s", key, 1.0, 1);
    else if (g_strcmp0(key, "goodput_bps_min_flow") == 0)
        r = compare_row_new("slowest flow, goodput (Mbit/s)", key, 1e-6, 3);
    else if (g_strcmp0(key, "transactions_per_s_min_flow") == 0)
        r = compare_row_new("slowest flow, transactions/s", key, 1.0, 1);
    else
        r = compare_row_new(key ? key : "?", key ? key : "?", 1.0, 0);
    const JsonValue *values = json_get(row, "values");
    for (guint v = 0; v < json_len(variants); v++) {
        double x = NAN;
        const char *name = json_string_value(json_at(variants, v));
        if (!name || !json_number(json_get(values, name), &x))
            x = NAN;
        g_array_append_val(r->values, x);
    }
    return r;
}

/* Results that only label the table's columns with compare.json's variant names. */
static GPtrArray *column_results(const JsonValue *cmp)
{
    const JsonValue *variants = json_get(cmp, "variants");
    GPtrArray *results = g_ptr_array_new_with_free_func((GDestroyNotify)run_result_free);
    for (guint v = 0; v < json_len(variants); v++) {
        RunResult *r = run_result_new();
        r->variant = g_strdup(json_string_value(json_at(variants, v)));
        g_ptr_array_add(results, r);
    }
    return results;
}

static char *table_from_json(const JsonValue *cmp)
{
    const JsonValue *variants = json_get(cmp, "variants");
    g_autoptr(GPtrArray) results = column_results(cmp);
    g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func(compare_row_free);
    const JsonValue *jrows = json_get(cmp, "rows");
    for (guint i = 0; i < json_len(jrows); i++)
        g_ptr_array_add(rows, row_from_json(json_at(jrows, i), variants));
    return compare_table(rows, results);
}

/* |last - first| of a row, NaN last. */
static double row_moved(const CompareRow *row)
{
    guint n = row->values->len;
    double d = n >= 2 ? fabs(g_array_index(row->values, double, n - 1) -
                             g_array_index(row->values, double, 0)) : NAN;
    return isnan(d) ? -1.0 : d;
}

static gint row_moved_more(gconstpointer a, gconstpointer b)
{
    double x = row_moved(*(CompareRow *const *)a), y = row_moved(*(CompareRow *const *)b);
    return x > y ? -1 : x < y ? 1 : 0; /* g_ptr_array_sort is stable: ties keep table order */
}

/* The CPU profile rows of compare.json whose time changed most between the first and the last
 * variant, as a table in ms; "" when no row changed, NULL with fewer than two variants or no
 * profile. */
#define REPORT_PROFILE_ROWS 6u
static char *profile_from_json(const JsonValue *cmp)
{
    const JsonValue *variants = json_get(cmp, "variants");
    const JsonValue *jrows = json_get(cmp, "cpu_profile_s");
    if (json_len(variants) < 2 || json_len(jrows) == 0)
        return NULL;
    g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func(compare_row_free);
    for (guint i = 0; i < json_len(jrows); i++) {
        g_autoptr(CompareRow) r = row_from_json(json_at(jrows, i), variants);
        r->scale = 1e3; /* seconds, shown in ms */
        r->decimals = 1;
        if (row_moved(r) > 0)
            g_ptr_array_add(rows, g_steal_pointer(&r));
    }
    if (rows->len == 0)
        return g_strdup(""); /* profiled, nothing moved */
    g_ptr_array_sort(rows, row_moved_more);
    if (rows->len > REPORT_PROFILE_ROWS)
        g_ptr_array_set_size(rows, REPORT_PROFILE_ROWS);
    g_autoptr(GPtrArray) results = column_results(cmp);
    return compare_table(rows, results);
}

static gboolean json_bound(const JsonValue *v, double *out)
{
    return json_kind(v) == JSON_V_NUMBER && json_number(v, out);
}

/* "PASS name: value in [min, max]", as `compare` prints it. */
static char *check_line(const JsonValue *c)
{
    ExpectConf e = {
        .name = (char *)json_string_value(json_get(c, "name")),
        .check = (char *)json_string_value(json_get(c, "check")),
    };
    e.has_min = json_bound(json_get(c, "min"), &e.min);
    e.has_max = json_bound(json_get(c, "max"), &e.max);
    CheckOutcome o = { .expect = &e, .pass = json_is_true(json_get(c, "pass")) };
    o.has_value = json_bound(json_get(c, "value"), &o.value);
    o.error = (char *)json_string_value(json_get(c, "error"));
    if (!e.name && !e.check)
        e.check = "?";
    /* compare --seeds: the value is a mean, with its interval */
    const JsonValue *seed_values = json_get(c, "seed_values");
    g_autoptr(GArray) values = g_array_new(FALSE, FALSE, sizeof(double));
    if (json_len(seed_values) > 0 && json_bound(json_get(c, "ci_lo"), &o.ci_lo) &&
        json_bound(json_get(c, "ci_hi"), &o.ci_hi)) {
        for (guint k = 0; k < json_len(seed_values); k++) {
            double x = NAN;
            json_number(json_at(seed_values, k), &x);
            g_array_append_val(values, x);
        }
        o.seed_values = values;
    }
    return compare_check_line(&o);
}

/* "PASS 2/2", "FAIL 1/2", "no checks" or "no results". */
static char *verdict(const Section *sec)
{
    if (!sec->compare)
        return g_strdup("no results");
    const JsonValue *checks = json_get(sec->compare, "checks");
    guint n = json_len(checks), pass = 0;
    for (guint i = 0; i < n; i++)
        pass += json_is_true(json_get(json_at(checks, i), "pass"));
    if (n == 0)
        return g_strdup("no checks");
    return g_strdup_printf("%s %u/%u", pass == n ? "PASS" : "FAIL", pass, n);
}

/* ---- sections -------------------------------------------------------------------------------- */

static const char *title_of(const Section *sec)
{
    const char *t = scenario_title(sec->s);
    return t && *t ? t : scenario_name(sec->s);
}

static void append_text(GString *out, const char *label, const char *text, const char *none)
{
    g_autofree char *t = g_strstrip(g_strdup(text ? text : ""));
    g_string_append_printf(out, "**%s** %s\n\n", label, *t ? t : none);
}

static void append_results(GString *out, const Section *sec)
{
    g_autofree char *table = table_from_json(sec->compare);
    double seed = NAN, seeds = 1;
    json_number(json_get(sec->compare, "seed"), &seed);
    json_number(json_get(sec->compare, "seeds"), &seeds);
    if (seeds > 1)
        g_string_append_printf(out,
                               "**sksim's result** (the mean over seeds %.0f to %.0f; change = "
                               "last vs first variant):\n\n%s\n",
                               seed, seed + seeds - 1, table);
    else
        g_string_append_printf(out,
                               "**sksim's result** (seed %.0f; change = last vs first variant):"
                               "\n\n%s\n",
                               seed, table);
    const JsonValue *checks = json_get(sec->compare, "checks");
    if (json_len(checks) == 0)
        g_string_append(out, "No expect checks.\n\n");
    else
        g_string_append(out, "**Checks**\n\n");
    for (guint i = 0; i < json_len(checks); i++) {
        g_autofree char *line = check_line(json_at(checks, i));
        g_string_append_printf(out, "- %s\n", line);
    }
    if (json_len(checks) > 0)
        g_string_append_c(out, '\n');
    g_autofree char *profile = profile_from_json(sec->compare);
    if (profile && !*profile)
        g_string_append(out, "**Where the CPU time moved:** nowhere; no cost-table row differs "
                             "between the first and the last variant.\n\n");
    else if (profile)
        g_string_append_printf(out, "**Where the CPU time moved** (ms, all CPUs of each host; the "
                                    "%u cost-table rows that changed most, first vs last variant; "
                                    "the whole profile is in compare.md):\n\n%s\n",
                               REPORT_PROFILE_ROWS, profile);
}

/* The figures' directory: <dir>/plots, or with compare --seeds the first seed's (its runs are
 * drawn; means over seeds are not). */
static char *plots_dir(const Section *sec, double *seed)
{
    double seeds = 1;
    *seed = NAN;
    json_number(json_get(sec->compare, "seeds"), &seeds);
    if (seeds <= 1 || !json_number(json_get(sec->compare, "seed"), seed))
        return g_build_filename(sec->dir, "plots", NULL);
    g_autofree char *name = g_strdup_printf("seed-%.0f", *seed);
    return g_build_filename(sec->dir, name, "plots", NULL);
}

static void append_figures(GString *out, const Section *sec, const char *report_dir)
{
    guint n = 0;
    double seed;
    g_autofree char *dir = plots_dir(sec, &seed);
    for (guint i = 0; i < G_N_ELEMENTS(figures); i++) {
        g_autofree char *png_name = g_strconcat(figures[i].file, ".png", NULL);
        g_autofree char *svg_name = g_strconcat(figures[i].file, ".svg", NULL);
        g_autofree char *png = g_build_filename(dir, png_name, NULL);
        g_autofree char *svg = g_build_filename(dir, svg_name, NULL);
        if (!g_file_test(png, G_FILE_TEST_IS_REGULAR))
            continue;
        if (n++ == 0) {
            if (isnan(seed))
                g_string_append(out, "**Figures**\n\n");
            else
                g_string_append_printf(out, "**Figures** (the runs of seed %.0f)\n\n", seed);
        }
        g_autofree char *rpng = relative_path(report_dir, png);
        g_autofree char *rsvg = relative_path(report_dir, svg);
        g_string_append_printf(out, "![%s](%s)  \n*%s* ([SVG](%s))\n\n", figures[i].caption, rpng,
                               figures[i].caption, rsvg);
    }
    if (n == 0)
        g_string_append(out, "No figures (gnuplot missing, or nothing to plot yet).\n\n");
}

static void append_section(GString *out, const Section *sec, const char *report_dir)
{
    const char *name = scenario_name(sec->s);
    g_string_append_printf(out, "<a id=\"%s\"></a>\n\n## %s: %s\n\n", name, name, title_of(sec));
    g_autofree char *rdir = relative_path(report_dir, sec->dir);
    if (g_file_test(sec->dir, G_FILE_TEST_IS_DIR))
        g_string_append_printf(out, "Scenario `%s`; results in [`%s/`](%s/).\n\n", sec->file,
                               rdir, rdir);
    else /* no link to a directory that is not there */
        g_string_append_printf(out, "Scenario `%s`; results would be in `%s/`.\n\n", sec->file,
                               rdir);
    append_text(out, "What the patch changes:", sec->base ? sec->base->description : NULL,
                "*(no description in the scenario)*");
    append_text(out, "Published result:", sec->base ? sec->base->published : NULL,
                "*(none given: add `published:` to the scenario)*");
    if (sec->compare) {
        append_results(out, sec);
        append_figures(out, sec, report_dir);
    } else {
        g_string_append_printf(out, "**No results:** %s\n\n", sec->missing);
    }
}

/* A table cell: '|' would end it. */
static char *md_cell(const char *text)
{
    g_auto(GStrv) parts = g_strsplit(text, "|", -1);
    return g_strjoinv("\\|", parts);
}

static char *report_text(const GPtrArray *sections, const char *report_dir)
{
    GString *out = g_string_new("# sksim report\n\n");
    g_string_append(out, "Each section is one scenario compared with `sksim compare` (every "
                         "variant, one seed, or the means over several with `--seeds`): what the "
                         "patch changes, the result published with it, sksim's counters and the "
                         "expect checks.\n\n");
    g_string_append(out, "| scenario | title | checks |\n|:---|:---|:---|\n");
    for (guint i = 0; i < sections->len; i++) {
        const Section *sec = g_ptr_array_index(sections, i);
        g_autofree char *v = verdict(sec);
        g_autofree char *title = md_cell(title_of(sec));
        g_string_append_printf(out, "| [%s](#%s) | %s | %s |\n", scenario_name(sec->s),
                               scenario_name(sec->s), title, v);
    }
    g_string_append_c(out, '\n');
    for (guint i = 0; i < sections->len; i++)
        append_section(out, g_ptr_array_index(sections, i), report_dir);
    return g_string_free(out, FALSE);
}

static Section *load_section(const Scenario *s, const char *file, const char *results)
{
    Section *sec = g_new0(Section, 1);
    sec->s = s;
    sec->file = file;
    g_autoptr(GError) err = NULL;
    sec->base = scenario_resolve(s, NULL, NULL, &err);
    if (!sec->base)
        fprintf(stderr, "%s\n", err->message);
    g_clear_error(&err);
    sec->dir = g_build_filename(results, scenario_name(s), NULL);
    g_autofree char *path = g_build_filename(sec->dir, "compare.json", NULL);
    sec->compare = json_parse_file(path, &err);
    if (!sec->compare) {
        sec->missing = g_strdup_printf("%s (run `sksim compare %s`)", err->message, file);
        fprintf(stderr, "sksim report: no results for %s, its section says so (run `sksim compare "
                        "%s` first): %s\n", scenario_name(s), file, err->message);
    }
    return sec;
}

int cli_report_md(int argc, char **argv)
{
    g_autofree char *results = NULL;
    g_autofree char *out = NULL;
    const GOptionEntry entries[] = {
        { "results", 'r', 0, G_OPTION_ARG_FILENAME, &results,
          "Where the compare outputs are: RESULTS/<scenario name>/ (default out)", "RESULTS" },
        { "out", 'o', 0, G_OPTION_ARG_FILENAME, &out, "The report (default RESULTS/report.md)",
          "FILE" },
        { NULL },
    };
    g_autoptr(GOptionContext) ctx = cli_context_new(
        "report", "FILE...", "Write a Markdown report of compared scenarios.", REPORT_DESCRIPTION,
        entries);
    g_auto(GStrv) args = NULL;
    if (!cli_parse(ctx, "report", argc, argv, &args))
        return CLI_EXIT_USAGE;
    if (g_strv_length(args) < 2) {
        cli_usage_error("report", "expected at least one scenario FILE");
        return CLI_EXIT_USAGE;
    }
    if (!results)
        results = g_strdup("out");
    if (!out)
        out = g_build_filename(results, "report.md", NULL);
    g_autoptr(GPtrArray) scenarios = g_ptr_array_new_with_free_func((GDestroyNotify)scenario_free);
    g_autoptr(GPtrArray) sections = g_ptr_array_new_with_free_func(section_free);
    for (guint i = 1; args[i]; i++) {
        Scenario *s = cli_load_scenario(args[i]);
        if (!s)
            return CLI_EXIT_USAGE;
        g_ptr_array_add(scenarios, s);
        g_ptr_array_add(sections, load_section(s, args[i], results));
    }
    g_autofree char *report_dir = g_path_get_dirname(out);
    g_autofree char *text = report_text(sections, report_dir);
    g_autoptr(GError) err = NULL;
    if (!output_write_atomic(out, text, strlen(text), &err)) {
        fprintf(stderr, "sksim report: %s\n", err->message);
        return CLI_EXIT_USAGE;
    }
    printf("wrote %s (%u scenario%s)\n", out, sections->len, sections->len == 1 ? "" : "s");
    return CLI_EXIT_OK;
}
