/* sweep.c - the pure parts of `sksim sweep`: parsing --param, walking the grid, naming run
 * directories, the metric columns, and the text of sweep.csv and of the per-metric .dat files
 * (mean and 95 % confidence interval across seeds). Running is in cli_sweep.c, reading
 * metrics.json back in sweep_load.c.
 *
 * Everything here is a function of its arguments and walks arrays in index order, so sweep.csv
 * and the figures are the same whatever order the runs finished in and however many ran at once.
 */
#include "sim/sweep.h"

#include <math.h>
#include <string.h>

#include "sim/counters.h"
#include "sim/plot.h"

void sweep_param_free(gpointer p)
{
    SweepParam *sp = p;
    if (!sp)
        return;
    g_free(sp->key);
    if (sp->values)
        g_ptr_array_unref(sp->values);
    g_free(sp);
}

/* Split on commas outside brackets; FALSE on an empty value or unbalanced brackets. */
static gboolean split_values(const char *list, GPtrArray *values)
{
    int depth = 0;
    const char *start = list;
    for (const char *c = list;; c++) {
        if (*c == '[')
            depth++;
        else if (*c == ']' && --depth < 0)
            return FALSE;
        if ((*c == ',' && depth == 0) || *c == '\0') {
            g_autofree char *v = g_strstrip(g_strndup(start, (gsize)(c - start)));
            if (*v == '\0')
                return FALSE;
            g_ptr_array_add(values, g_steal_pointer(&v));
            start = c + 1;
        }
        if (*c == '\0')
            return depth == 0;
    }
}

SweepParam *sweep_param_parse(const char *arg, GError **error)
{
    const char *eq = strchr(arg, '=');
    if (!eq || eq == arg || eq[1] == '\0') {
        g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                    "--param '%s': expected KEY=V1,V2,...", arg);
        return NULL;
    }
    SweepParam *p = g_new0(SweepParam, 1);
    p->key = g_strstrip(g_strndup(arg, (gsize)(eq - arg)));
    p->values = g_ptr_array_new_with_free_func(g_free);
    if (!split_values(eq + 1, p->values)) {
        g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                    "--param '%s': an empty value or unbalanced brackets", arg);
        sweep_param_free(p);
        return NULL;
    }
    return p;
}

guint sweep_grid_size(const GPtrArray *params)
{
    guint n = 1;
    for (guint i = 0; i < params->len; i++)
        n *= ((const SweepParam *)g_ptr_array_index(params, i))->values->len;
    return n;
}

void sweep_grid_point(const GPtrArray *params, guint g, guint *idx)
{
    for (guint i = params->len; i-- > 0;) { /* the last parameter varies fastest */
        guint n = ((const SweepParam *)g_ptr_array_index(params, i))->values->len;
        idx[i] = g % n;
        g /= n;
    }
}

char *sweep_dir_component(const char *key, const char *value)
{
    char *s = g_strconcat(key, "=", value, NULL);
    for (char *c = s; *c; c++)
        if (!g_ascii_isalnum(*c) && !strchr("._+%=-", *c))
            *c = '_';
    return s;
}

char *sweep_run_subdir(const GPtrArray *params, const guint *idx, uint64_t seed)
{
    g_autoptr(GPtrArray) parts = g_ptr_array_new_with_free_func(g_free);
    for (guint i = 0; i < params->len; i++) {
        const SweepParam *p = g_ptr_array_index(params, i);
        g_ptr_array_add(parts, sweep_dir_component(p->key, g_ptr_array_index(p->values, idx[i])));
    }
    g_ptr_array_add(parts, g_strdup_printf("seed-%" G_GUINT64_FORMAT, (guint64)seed));
    g_ptr_array_add(parts, NULL);
    return g_build_filenamev((char **)parts->pdata);
}

/* ---- metrics --------------------------------------------------------------------------------- */

void sweep_metric_free(gpointer p)
{
    SweepMetric *m = p;
    g_free(m->name);
    g_free(m->counter);
    g_free(m->ylabel);
    g_free(m);
}

static SweepMetric *metric_new(const char *name, const char *counter, const char *ylabel,
                               double scale)
{
    SweepMetric *m = g_new0(SweepMetric, 1);
    m->name = g_strdup(name);
    m->counter = g_strdup(counter);
    m->ylabel = g_strdup(ylabel);
    m->scale = scale;
    return m;
}

GPtrArray *sweep_metrics(const GPtrArray *report_counters)
{
    GPtrArray *ms = g_ptr_array_new_with_free_func(sweep_metric_free);
    g_ptr_array_add(ms, metric_new("goodput_bps", NULL, "goodput (Gbit/s)", 1e-9));
    g_ptr_array_add(ms, metric_new("transactions_per_s", NULL, "transactions/s", 1.0));
    for (guint i = 0; report_counters && i < report_counters->len; i++) {
        const char *c = g_ptr_array_index(report_counters, i);
        int id = counter_lookup(c);
        const char *name = id >= 0 ? counter_name((CounterId)id) : c;
        const char *unit = cost_counter_lookup(c) >= 0 ? "us of CPU time" : "count";
        g_autofree char *label = g_strdup_printf("%s (%s, measured interval)", name, unit);
        g_ptr_array_add(ms, metric_new(name, name, label, 1.0));
    }
    return ms;
}

double sweep_metric_value(const SweepMetric *m, const RunResult *r, const char *host)
{
    double v = NAN;
    gboolean ok = m->counter ? run_result_report_counter(r, host, m->counter, &v)
                             : run_result_metric(r, strcmp(m->name, "goodput_bps") == 0
                                                        ? "goodput" : m->name, &v);
    return ok ? v : NAN;
}

void sweep_row_free(gpointer p)
{
    SweepRow *row = p;
    g_free(row->variant);
    g_free(row->dir);
    run_result_free(row->result);
    g_free(row);
}

/* ---- sweep.csv ------------------------------------------------------------------------------- */

static void csv_cell(GString *out, const char *s)
{
    if (!strpbrk(s, ",\"\n\r")) {
        g_string_append(out, s);
        return;
    }
    g_string_append_c(out, '"');
    for (const char *c = s; *c; c++) {
        if (*c == '"')
            g_string_append_c(out, '"');
        g_string_append_c(out, *c);
    }
    g_string_append_c(out, '"');
}

static void csv_double(GString *out, double v)
{
    if (!isfinite(v))
        return; /* an empty cell */
    char buf[G_ASCII_DTOSTR_BUF_SIZE];
    g_string_append(out, g_ascii_formatd(buf, sizeof buf, "%.17g", v));
}

static void csv_row(GString *out, const GPtrArray *params, const SweepRow *row,
                    const GPtrArray *metrics, const char *host)
{
    g_autofree guint *idx = g_new0(guint, params->len + 1);
    sweep_grid_point(params, row->point, idx);
    for (guint i = 0; i < params->len; i++) {
        const SweepParam *p = g_ptr_array_index(params, i);
        csv_cell(out, g_ptr_array_index(p->values, idx[i]));
        g_string_append_c(out, ',');
    }
    g_string_append_printf(out, "%" G_GUINT64_FORMAT ",", (guint64)row->seed);
    csv_cell(out, row->variant);
    for (guint m = 0; m < metrics->len; m++) {
        const SweepMetric *sm = g_ptr_array_index(metrics, m);
        double v = sweep_metric_value(sm, row->result, host);
        g_string_append_c(out, ',');
        if (sm->counter && isfinite(v))
            g_string_append_printf(out, "%.0f", v); /* counters are integers */
        else
            csv_double(out, v);
    }
    g_string_append_printf(out, ",%" G_GUINT64_FORMAT ",", (guint64)row->result->events);
    char buf[G_ASCII_DTOSTR_BUF_SIZE]; /* wall time to 6 digits: 0.321456, not 0.32145600000000002 */
    if (isfinite(row->result->wall_s))
        g_string_append(out, g_ascii_formatd(buf, sizeof buf, "%.6g", row->result->wall_s));
    g_string_append_c(out, '\n');
}

char *sweep_csv(const GPtrArray *params, const GPtrArray *rows, const GPtrArray *metrics,
                const char *host)
{
    GString *out = g_string_new(NULL);
    for (guint i = 0; i < params->len; i++) {
        csv_cell(out, ((const SweepParam *)g_ptr_array_index(params, i))->key);
        g_string_append_c(out, ',');
    }
    g_string_append(out, "seed,variant");
    for (guint m = 0; m < metrics->len; m++) {
        const SweepMetric *sm = g_ptr_array_index(metrics, m);
        g_string_append_printf(out, ",%s", sm->name);
    }
    g_string_append(out, ",events,wall_s\n");
    for (guint r = 0; r < rows->len; r++) {
        const SweepRow *row = g_ptr_array_index(rows, r);
        if (row->result)
            csv_row(out, params, row, metrics, host);
    }
    return g_string_free(out, FALSE);
}

/* ---- per-metric figure data ------------------------------------------------------------------ */

gboolean sweep_values_numeric(const GPtrArray *values, gboolean *logx)
{
    double lo = INFINITY, hi = -INFINITY;
    for (guint i = 0; i < values->len; i++) {
        const char *s = g_ptr_array_index(values, i);
        char *end = NULL;
        double v = g_ascii_strtod(s, &end);
        if (end == s || *end != '\0' || !isfinite(v))
            return FALSE;
        lo = MIN(lo, v);
        hi = MAX(hi, v);
    }
    *logx = values->len > 0 && lo > 0 && hi / lo >= 16;
    return TRUE;
}

/* "before" alone, or "before k2=v2 k3=v3" with the other parameters' values at point g. */
static char *series_label(const GPtrArray *params, guint g, const char *variant)
{
    g_autofree guint *idx = g_new0(guint, params->len + 1);
    sweep_grid_point(params, g, idx);
    GString *s = g_string_new(variant);
    for (guint i = 1; i < params->len; i++) {
        const SweepParam *p = g_ptr_array_index(params, i);
        const char *value = g_ptr_array_index(p->values, idx[i]);
        g_string_append_printf(s, " %s=%s", p->key, value);
    }
    return g_string_free(s, FALSE);
}

/* The values of metric m over the seeds of grid point g and variant v. */
static GArray *seed_values(const GPtrArray *rows, guint g, const char *variant,
                           const SweepMetric *m, const char *host)
{
    GArray *xs = g_array_new(FALSE, FALSE, sizeof(double));
    for (guint r = 0; r < rows->len; r++) {
        const SweepRow *row = g_ptr_array_index(rows, r);
        if (row->point != g || !row->result || strcmp(row->variant, variant) != 0)
            continue;
        double v = sweep_metric_value(m, row->result, host) * m->scale;
        g_array_append_val(xs, v);
    }
    return xs;
}

static void append_block_line(GString *out, double x, const StatsSummary *st, const char *label)
{
    plot_append_number(out, x);
    double cells[] = { st->mean, st->lo, st->hi };
    for (guint i = 0; i < G_N_ELEMENTS(cells); i++) {
        g_string_append_c(out, ' ');
        plot_append_number(out, cells[i]);
    }
    g_string_append_printf(out, " %u \"", st->n);
    for (const char *c = label; *c; c++)
        g_string_append_c(out, *c == '"' ? '\'' : *c);
    g_string_append(out, "\"\n");
}

char *sweep_metric_dat(const GPtrArray *params, const GPtrArray *rows, const SweepMetric *m,
                       const char *host, const GPtrArray *variants, GPtrArray *labels,
                       GArray *series_variant)
{
    const SweepParam *first = g_ptr_array_index(params, 0);
    guint nx = first->values->len;
    guint rest = sweep_grid_size(params) / nx; /* combinations of the other parameters */
    gboolean logx = FALSE;
    gboolean numeric = sweep_values_numeric(first->values, &logx);
    GString *out = g_string_new(NULL);
    g_string_append_printf(out, "# %s against %s: x mean lo95 hi95 n label (mean and 95 %% CI "
                           "over seeds)\n", m->name, first->key);
    for (guint c = 0; c < rest; c++) {
        for (guint v = 0; v < variants->len; v++) {
            const char *variant = g_ptr_array_index(variants, v);
            if (labels->len > 0)
                g_string_append(out, "\n\n");
            g_ptr_array_add(labels, series_label(params, c, variant));
            g_array_append_val(series_variant, v);
            for (guint j = 0; j < nx; j++) {
                guint g = j * rest + c;
                g_autoptr(GArray) xs = seed_values(rows, g, variant, m, host);
                StatsSummary st = stats_summarize((const double *)xs->data, xs->len);
                const char *xv = g_ptr_array_index(first->values, j);
                double x = numeric ? g_ascii_strtod(xv, NULL) : (double)j;
                append_block_line(out, x, &st, xv);
            }
        }
    }
    return g_string_free(out, FALSE);
}
