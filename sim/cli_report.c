/* cli_report.c - the report of `sksim compare`: the table of counters and metrics per variant
 * (printed, and written as compare.md) and compare.json.
 *
 * Rows are computed once (compare_rows) and rendered twice, so the Markdown and the JSON can
 * never disagree. The "change" column compares the last variant with the first one, which is
 * how scenarios are written: "before" first, "after" last.
 */
#include "sim/cli.h"

#include <math.h>

#include "sim/json.h"

void compare_row_free(gpointer p)
{
    CompareRow *row = p;
    g_free(row->name);
    g_free(row->key);
    g_array_unref(row->values);
    g_free(row);
}

CompareRow *compare_row_new(const char *name, const char *key, double scale, int decimals)
{
    CompareRow *row = g_new0(CompareRow, 1);
    row->name = g_strdup(name);
    row->key = g_strdup(key);
    row->scale = scale;
    row->decimals = decimals;
    row->values = g_array_new(FALSE, FALSE, sizeof(double));
    return row;
}

static CompareRow *counter_row(const char *counter, const char *host, const GPtrArray *results)
{
    CompareRow *row = compare_row_new(counter, counter, 1.0, 0);
    for (guint i = 0; i < results->len; i++) {
        double v = NAN;
        if (!run_result_report_counter(g_ptr_array_index(results, i), host, counter, &v))
            v = NAN;
        g_array_append_val(row->values, v);
    }
    return row;
}

/* One value per variant of a flow metric summed over the flows (run_result_metric). */
static CompareRow *metric_row(const char *name, const char *metric, const char *key, double scale,
                              int decimals, const GPtrArray *results)
{
    CompareRow *row = compare_row_new(name, key, scale, decimals);
    for (guint i = 0; i < results->len; i++) {
        double v = NAN;
        if (!run_result_metric(g_ptr_array_index(results, i), metric, &v))
            v = NAN;
        g_array_append_val(row->values, v);
    }
    return row;
}

static gboolean row_any_positive(const CompareRow *row)
{
    for (guint i = 0; i < row->values->len; i++)
        if (g_array_index(row->values, double, i) > 0.0)
            return TRUE;
    return FALSE;
}

/* The names of the scenario's workloads of type t (as the base scenario sets them). */
static GHashTable *workloads_of_type(const Scenario *s, WorkloadType t)
{
    GHashTable *names = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    g_autoptr(ScenarioConf) c = scenario_resolve(s, NULL, NULL, NULL);
    for (guint i = 0; c && i < c->workloads->len; i++) {
        const WorkloadConf *w = g_ptr_array_index(c->workloads, i);
        if (w->type == t)
            g_hash_table_add(names, g_strdup(w->name));
    }
    return names;
}

/* The slowest of the flows whose workload is in `names`, per variant: a sum can hide a flow
 * that starves in one variant while the others speed up. Only flows of one type take part (a
 * stream flow has no transactions, an rr flow's goodput is its tiny messages). Returns NULL
 * when no variant has two such flows. */
static CompareRow *slowest_row(const char *name, const char *metric, const char *key,
                               double scale, int decimals, GHashTable *names,
                               const GPtrArray *results)
{
    gboolean several = FALSE;
    CompareRow *row = compare_row_new(name, key, scale, decimals);
    for (guint i = 0; i < results->len; i++) {
        double lo = NAN;
        guint n = 0;
        if (!run_result_metric_min_in(g_ptr_array_index(results, i), metric, names, &lo, &n))
            lo = NAN;
        several |= n > 1;
        g_array_append_val(row->values, lo);
    }
    if (several)
        return row;
    compare_row_free(row);
    return NULL;
}

GPtrArray *compare_rows(const Scenario *s, const GPtrArray *results)
{
    GPtrArray *rows = g_ptr_array_new_with_free_func(compare_row_free);
    const ReportConf *rep = scenario_report(s);
    for (guint i = 0; rep && rep->counters && i < rep->counters->len; i++)
        g_ptr_array_add(rows, counter_row(g_ptr_array_index(rep->counters, i), rep->host, results));
    CompareRow *goodput = metric_row("goodput (Mbit/s)", "goodput",
                                     "goodput_bps", 1e-6, 3, results);
    g_ptr_array_add(rows, goodput);
    g_autoptr(GHashTable) rr = workloads_of_type(s, WORKLOAD_RR);
    g_autoptr(GHashTable) stream = workloads_of_type(s, WORKLOAD_STREAM);
    /* transactions only where a workload has them: a stream scenario's row would read 0 */
    if (g_hash_table_size(rr) > 0)
        g_ptr_array_add(rows, metric_row("transactions/s", "transactions_per_s",
                                         "transactions_per_s", 1.0, 1, results));
    /* per-flow spread, for the metric each type of workload has */
    CompareRow *slow_tps = slowest_row("slowest flow, transactions/s", "transactions_per_s",
                                       "transactions_per_s_min_flow", 1.0, 1, rr, results);
    CompareRow *slow_gp = slowest_row("slowest flow, goodput (Mbit/s)", "goodput",
                                      "goodput_bps_min_flow", 1e-6, 3, stream, results);
    if (slow_tps)
        g_ptr_array_add(rows, slow_tps);
    if (slow_gp)
        g_ptr_array_add(rows, slow_gp);
    return rows;
}

static const HostResult *result_host(const RunResult *r, const char *name)
{
    for (guint i = 0; i < r->hosts->len; i++) {
        const HostResult *h = g_ptr_array_index(r->hosts, i);
        if (strcmp(h->name, name) == 0)
            return h;
    }
    return NULL;
}

/* Rows "<host> <key(id)>" for ids first..last-1 of every host, value(host, id) per variant;
 * rows that are zero in every variant are left out. */
typedef double (*HostValueFn)(const HostResult *h, int id);
typedef const char *(*IdKeyFn)(int id);

static GPtrArray *host_rows(const GPtrArray *results, int first, int last, IdKeyFn key,
                            HostValueFn value, double scale, int decimals)
{
    GPtrArray *rows = g_ptr_array_new_with_free_func(compare_row_free);
    if (results->len == 0)
        return rows;
    const RunResult *r0 = g_ptr_array_index(results, 0);
    for (guint h = 0; h < r0->hosts->len; h++) {
        const char *host = ((const HostResult *)g_ptr_array_index(r0->hosts, h))->name;
        for (int id = first; id < last; id++) {
            g_autofree char *name = g_strdup_printf("%s %s", host, key(id));
            CompareRow *row = compare_row_new(name, name, scale, decimals);
            for (guint v = 0; v < results->len; v++) {
                const HostResult *hr = result_host(g_ptr_array_index(results, v), host);
                double x = hr ? value(hr, id) : NAN;
                g_array_append_val(row->values, x);
            }
            if (row_any_positive(row))
                g_ptr_array_add(rows, row);
            else
                compare_row_free(row);
        }
    }
    return rows;
}

static const char *cost_key_of(int id)
{
    return cost_key((CostId)id);
}

static double profile_seconds(const HostResult *h, int id)
{
    return sim_time_to_sec(h->cpu_profile_ns[id]);
}

static const char *counter_name_of(int id)
{
    return counter_name((CounterId)id);
}

static double counter_value(const HostResult *h, int id)
{
    return (double)h->counters.v[id];
}

GPtrArray *compare_profile_rows(const GPtrArray *results)
{
    return host_rows(results, 0, COST_COUNT, cost_key_of, profile_seconds, 1e3, 1);
}

GPtrArray *compare_diag_rows(const GPtrArray *results)
{
    return host_rows(results, CTR_KERNEL_COUNT, CTR_TIMER_DIAG_END, counter_name_of, counter_value,
                     1.0, 0);
}

double compare_change_pct(const CompareRow *row)
{
    guint n = row->values->len;
    if (n < 2)
        return NAN;
    double first = g_array_index(row->values, double, 0);
    double last = g_array_index(row->values, double, n - 1);
    if (first == 0.0)
        return last == 0.0 ? 0.0 : NAN;
    return (last - first) / first * 100.0;
}

/* ---- the Markdown table ------------------------------------------------------------------------ */

static const char *result_label(const GPtrArray *results, guint i)
{
    return cli_variant_label(((const RunResult *)g_ptr_array_index(results, i))->variant);
}

/* The cells of one row: name, a value per variant, and the change when there are 2+ variants. */
static GPtrArray *row_cells(const CompareRow *row)
{
    GPtrArray *cells = g_ptr_array_new_with_free_func(g_free);
    g_ptr_array_add(cells, g_strdup(row->name));
    for (guint i = 0; i < row->values->len; i++) {
        double v = g_array_index(row->values, double, i);
        g_ptr_array_add(cells, isfinite(v) ? g_strdup_printf("%.*f", row->decimals, v * row->scale)
                                           : g_strdup("n/a"));
    }
    if (row->values->len >= 2) {
        double c = compare_change_pct(row);
        g_ptr_array_add(cells, isfinite(c) ? g_strdup_printf("%+.1f%%", c) : g_strdup("n/a"));
    }
    return cells;
}

static GPtrArray *header_cells(const GPtrArray *results)
{
    GPtrArray *cells = g_ptr_array_new_with_free_func(g_free);
    g_ptr_array_add(cells, g_strdup(""));
    for (guint i = 0; i < results->len; i++)
        g_ptr_array_add(cells, g_strdup(result_label(results, i)));
    if (results->len >= 2)
        g_ptr_array_add(cells, g_strdup("change"));
    return cells;
}

static void append_line(GString *out, const GPtrArray *cells, const guint *width)
{
    for (guint c = 0; c < cells->len; c++) {
        const char *cell = g_ptr_array_index(cells, c);
        /* the first column is left-aligned, numbers right-aligned */
        g_string_append_printf(out, c == 0 ? "| %-*s " : "| %*s ", (int)width[c], cell);
    }
    g_string_append(out, "|\n");
}

/* "|:----|-----:|": as wide as the cells, first column left-aligned, the others right. */
static void append_rule(GString *out, guint ncols, const guint *width)
{
    for (guint c = 0; c < ncols; c++) {
        g_string_append(out, c == 0 ? "|:" : "|");
        for (guint k = 0; k < width[c] + 1; k++)
            g_string_append_c(out, '-');
        if (c > 0)
            g_string_append_c(out, ':');
    }
    g_string_append(out, "|\n");
}

char *compare_table(const GPtrArray *rows, const GPtrArray *results)
{
    g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func((GDestroyNotify)g_ptr_array_unref);
    g_ptr_array_add(lines, header_cells(results));
    for (guint r = 0; r < rows->len; r++)
        g_ptr_array_add(lines, row_cells(g_ptr_array_index(rows, r)));
    guint ncols = ((GPtrArray *)g_ptr_array_index(lines, 0))->len;
    g_autofree guint *width = g_new0(guint, ncols);
    for (guint l = 0; l < lines->len; l++) {
        GPtrArray *cells = g_ptr_array_index(lines, l);
        for (guint c = 0; c < ncols; c++)
            width[c] = MAX(width[c], (guint)g_utf8_strlen(g_ptr_array_index(cells, c), -1));
    }
    for (guint c = 0; c < ncols; c++)
        width[c] = MAX(width[c], 3u);
    GString *out = g_string_new(NULL);
    append_line(out, g_ptr_array_index(lines, 0), width);
    append_rule(out, ncols, width);
    for (guint l = 1; l < lines->len; l++)
        append_line(out, g_ptr_array_index(lines, l), width);
    return g_string_free(out, FALSE);
}

/* ---- checks ------------------------------------------------------------------------------------ */

static char *bound_text(gboolean has, double v, const char *open)
{
    return has ? g_strdup_printf("%g", v) : g_strdup(open);
}

char *compare_check_line(const CheckOutcome *c)
{
    const ExpectConf *e = c->expect;
    const char *name = e->name ? e->name : e->check;
    const char *verdict = c->pass ? "PASS" : "FAIL";
    if (c->error)
        return g_strdup_printf("%s %s: %s", verdict, name, c->error);
    g_autofree char *lo = bound_text(e->has_min, e->min, "-inf");
    g_autofree char *hi = bound_text(e->has_max, e->max, "inf");
    g_autofree char *ci = c->seed_values
        ? g_strdup_printf(" (mean of %u seeds, 95 %% CI %.6g to %.6g)", c->seed_values->len,
                          c->ci_lo, c->ci_hi)
        : g_strdup("");
    return g_strdup_printf("%s %s: %.6g %s [%s, %s]%s", verdict, name, c->value,
                           c->pass ? "in" : "not in", lo, hi, ci);
}

char *compare_markdown(const Scenario *s, uint64_t seed, guint nseeds, const char *table,
                       const GArray *checks, const char *diag, const char *profile)
{
    GString *out = g_string_new(NULL);
    const char *title = scenario_title(s);
    gboolean has_title = title && *title;
    g_string_append_printf(out, "# %s%s%s\n\n", scenario_name(s), has_title ? ": " : "",
                           has_title ? title : "");
    if (nseeds > 1)
        g_string_append_printf(out, "Seeds %" G_GUINT64_FORMAT " to %" G_GUINT64_FORMAT ": every "
                               "figure is the mean over the %u seeds, each check's value the "
                               "mean of its values, with the 95 %% confidence interval of that "
                               "mean. Each seed's outputs and its own compare.md are in "
                               "`seed-<N>/` beside this file; change = last vs first variant.\n\n",
                               (guint64)seed, (guint64)seed + nseeds - 1, nseeds);
    else
        g_string_append_printf(out, "Seed %" G_GUINT64_FORMAT ". Each variant's outputs are in "
                               "`<variant>/` beside this file; change = last vs first variant.\n\n",
                               (guint64)seed);
    g_string_append(out, table);
    if (checks->len > 0)
        g_string_append(out, "\n## Checks\n\n");
    for (guint i = 0; i < checks->len; i++) {
        g_autofree char *line = compare_check_line(&g_array_index(checks, CheckOutcome, i));
        g_string_append_printf(out, "- %s\n", line);
    }
    if (diag) {
        g_string_append(out, "\n## Why the loss probes and RTOs fired\n\n"
                             "sksim's diagnosis (README, \"Why each loss probe and RTO fired\"): "
                             "per sender host, what the peer socket was doing when each TLP and "
                             "RTO fired (`Sksim*` counters in each variant's metrics.json); rows "
                             "that are zero everywhere are left out.\n\n");
        g_string_append(out, diag);
    }
    if (profile) {
        g_string_append(out, "\n## CPU time per operation\n\n"
                             "Milliseconds of CPU time in the measured interval, summed over each "
                             "host's CPUs, per row of the cost table (`cpu_profile_s` in each "
                             "variant's metrics.json); rows that are zero everywhere are left "
                             "out.\n\n");
        g_string_append(out, profile);
    }
    return g_string_free(out, FALSE);
}

/* ---- compare.json ------------------------------------------------------------------------------ */

static void json_rows(JsonWriter *w, const GPtrArray *rows, const GPtrArray *results)
{
    json_begin_array(w);
    for (guint r = 0; r < rows->len; r++) {
        const CompareRow *row = g_ptr_array_index(rows, r);
        json_begin_object(w);
        json_member_string(w, "name", row->key);
        json_key(w, "values");
        json_begin_object(w);
        for (guint i = 0; i < row->values->len; i++)
            json_member_double(w, result_label(results, i), g_array_index(row->values, double, i));
        json_end_object(w);
        json_member_double(w, "change_pct", compare_change_pct(row));
        json_end_object(w);
    }
    json_end_array(w);
}

static void json_bound(JsonWriter *w, const char *key, gboolean has, double v)
{
    json_key(w, key);
    if (has)
        json_double(w, v);
    else
        json_null(w);
}

static void json_checks(JsonWriter *w, const GArray *checks)
{
    json_begin_array(w);
    for (guint i = 0; i < checks->len; i++) {
        const CheckOutcome *c = &g_array_index(checks, CheckOutcome, i);
        const ExpectConf *e = c->expect;
        json_begin_object(w);
        json_member_string(w, "name", e->name ? e->name : e->check);
        json_member_string(w, "check", e->check);
        json_bound(w, "min", e->has_min, e->min);
        json_bound(w, "max", e->has_max, e->max);
        json_bound(w, "value", c->has_value, c->value);
        if (c->seed_values) {
            json_member_double(w, "ci_lo", c->ci_lo);
            json_member_double(w, "ci_hi", c->ci_hi);
            json_key(w, "seed_values");
            json_begin_array(w);
            for (guint k = 0; k < c->seed_values->len; k++)
                json_double(w, g_array_index(c->seed_values, double, k));
            json_end_array(w);
        }
        json_member_bool(w, "pass", c->pass);
        json_member_string(w, "error", c->error);
        json_end_object(w);
    }
    json_end_array(w);
}

static gboolean all_pass(const GArray *checks)
{
    for (guint i = 0; i < checks->len; i++)
        if (!g_array_index(checks, CheckOutcome, i).pass)
            return FALSE;
    return TRUE;
}

char *compare_json(const Scenario *s, uint64_t seed, guint nseeds, const GPtrArray *rows,
                   const GPtrArray *diag_rows, const GPtrArray *profile_rows,
                   const GPtrArray *results, const GArray *checks)
{
    GString *out = g_string_new(NULL);
    g_autoptr(JsonWriter) w = json_writer_new(out, true);
    json_begin_object(w);
    json_member_string(w, "scenario", scenario_name(s));
    json_member_string(w, "title", scenario_title(s));
    json_member_uint(w, "seed", seed);
    if (nseeds > 1)
        json_member_uint(w, "seeds", nseeds);
    json_key(w, "variants");
    json_begin_array(w);
    for (guint i = 0; i < results->len; i++)
        json_string(w, result_label(results, i));
    json_end_array(w);
    json_key(w, "rows");
    json_rows(w, rows, results);
    json_key(w, "checks");
    json_checks(w, checks);
    json_key(w, "timer_diag");
    json_rows(w, diag_rows, results);
    json_key(w, "cpu_profile_s");
    json_rows(w, profile_rows, results);
    json_member_bool(w, "pass", all_pass(checks));
    json_end_object(w);
    return g_string_free(out, FALSE);
}
