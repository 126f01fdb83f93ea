/* plot_data.c - what the figures show, computed in C: timeseries.csv read back, retransmission
 * counters summed over hosts, throughput differentiated from delivered bytes, compare.json's
 * counter rows, each written as the text of a whitespace-separated .dat file for gnuplot.
 *
 * Keeping every computation here (and none in the gnuplot scripts) means it is unit-tested
 * against hand-computed numbers, and a .dat file next to a figure shows exactly what was drawn.
 */
#include "sim/plot.h"

#include <math.h>
#include <string.h>

const char *const plot_retrans_counters[3] = { "TcpRetransSegs", "TcpExtTCPLossProbes",
                                               "TcpExtTCPTimeouts" };

void plot_csv_free(PlotCsv *csv)
{
    if (!csv)
        return;
    g_ptr_array_unref(csv->names);
    g_array_unref(csv->values);
    g_free(csv);
}

static gboolean parse_cell(const char *cell, double *v)
{
    if (*cell == '\0') {
        *v = NAN;
        return TRUE;
    }
    char *end = NULL;
    *v = g_ascii_strtod(cell, &end);
    return end != cell && *end == '\0';
}

PlotCsv *plot_csv_parse(const char *text, const char *display_name, GError **error)
{
    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
    if (!lines[0] || !g_str_has_prefix(lines[0], "time_s")) {
        g_set_error(error, PLOT_ERROR, PLOT_ERROR_INPUT, "%s: expected a 'time_s,...' header",
                    display_name);
        return NULL;
    }
    g_autoptr(PlotCsv) csv = g_new0(PlotCsv, 1);
    csv->names = g_ptr_array_new_with_free_func(g_free);
    csv->values = g_array_new(FALSE, FALSE, sizeof(double));
    g_auto(GStrv) header = g_strsplit(g_strchomp(lines[0]), ",", -1);
    for (guint c = 0; header[c]; c++)
        g_ptr_array_add(csv->names, g_strdup(header[c]));
    for (guint l = 1; lines[l]; l++) {
        g_strchomp(lines[l]);
        if (lines[l][0] == '\0')
            continue;
        g_auto(GStrv) cells = g_strsplit(lines[l], ",", -1);
        if (g_strv_length(cells) != csv->names->len) {
            g_set_error(error, PLOT_ERROR, PLOT_ERROR_INPUT, "%s:%u: %u cells, expected %u",
                        display_name, l + 1, g_strv_length(cells), csv->names->len);
            return NULL;
        }
        for (guint c = 0; cells[c]; c++) {
            double v;
            if (!parse_cell(cells[c], &v)) {
                g_set_error(error, PLOT_ERROR, PLOT_ERROR_INPUT, "%s:%u: not a number: '%s'",
                            display_name, l + 1, cells[c]);
                return NULL;
            }
            g_array_append_val(csv->values, v);
        }
        csv->nrows++;
    }
    return g_steal_pointer(&csv);
}

PlotCsv *plot_csv_read(const char *path, GError **error)
{
    g_autofree char *text = NULL;
    if (!g_file_get_contents(path, &text, NULL, error))
        return NULL;
    return plot_csv_parse(text, path, error);
}

int plot_csv_column(const PlotCsv *csv, const char *name)
{
    for (guint c = 0; c < csv->names->len; c++)
        if (strcmp(g_ptr_array_index(csv->names, c), name) == 0)
            return (int)c;
    return -1;
}

double plot_csv_value(const PlotCsv *csv, guint row, guint col)
{
    return g_array_index(csv->values, double, row * csv->names->len + col);
}

/* ---- retransmissions ------------------------------------------------------------------------- */

/* Columns "<host>.<counter>" (host NULL: any host), appended to cols. */
static void counter_columns(const PlotCsv *csv, const char *host, const char *counter, GArray *cols)
{
    g_autofree char *suffix = g_strconcat(".", counter, NULL);
    for (guint c = 1; c < csv->names->len; c++) {
        const char *name = g_ptr_array_index(csv->names, c);
        if (g_str_has_prefix(name, "flow.") || !g_str_has_suffix(name, suffix))
            continue;
        size_t host_len = strlen(name) - strlen(suffix);
        if (host && (strlen(host) != host_len || strncmp(name, host, host_len) != 0))
            continue;
        g_array_append_val(cols, c);
    }
}

char *plot_retrans_dat(const PlotCsv *csv, const char *host)
{
    GArray *cols[3];
    guint found = 0;
    for (guint k = 0; k < 3; k++) {
        cols[k] = g_array_new(FALSE, FALSE, sizeof(guint));
        counter_columns(csv, host, plot_retrans_counters[k], cols[k]);
        found += cols[k]->len;
    }
    GString *out = NULL;
    if (found > 0) {
        out = g_string_new("# time_s");
        for (guint k = 0; k < 3; k++)
            g_string_append_printf(out, " %s", plot_retrans_counters[k]);
        g_string_append_c(out, '\n');
        double prev[3] = { NAN, NAN, NAN };
        for (guint r = 0; r < csv->nrows; r++) {
            double sums[3];
            gboolean reset = FALSE;
            for (guint k = 0; k < 3; k++) {
                /* a counter with no column is NaN (not drawn) rather than a false zero */
                sums[k] = cols[k]->len ? 0.0 : NAN;
                for (guint i = 0; i < cols[k]->len; i++)
                    sums[k] += plot_csv_value(csv, r, g_array_index(cols[k], guint, i));
                reset |= sums[k] < prev[k]; /* only the warm-up's reset makes a count fall */
                prev[k] = sums[k];
            }
            if (reset) /* a blank line breaks gnuplot's lines: no ramp down to the reset */
                g_string_append_c(out, '\n');
            plot_append_number(out, plot_csv_value(csv, r, 0));
            for (guint k = 0; k < 3; k++) {
                g_string_append_c(out, ' ');
                plot_append_number(out, sums[k]);
            }
            g_string_append_c(out, '\n');
        }
    }
    for (guint k = 0; k < 3; k++)
        g_array_unref(cols[k]);
    return out ? g_string_free(out, FALSE) : NULL;
}

/* ---- throughput and transactions -------------------------------------------------------------- */

#define FLOW_PREFIX "flow."

/* The columns flow.<name><suffix>, in order; their names go to *flows. */
static GArray *flow_columns(const PlotCsv *csv, const char *suffix, GPtrArray *flows)
{
    GArray *cols = g_array_new(FALSE, FALSE, sizeof(guint));
    for (guint c = 1; c < csv->names->len; c++) {
        const char *name = g_ptr_array_index(csv->names, c);
        size_t n = strlen(name);
        if (!g_str_has_prefix(name, FLOW_PREFIX) || !g_str_has_suffix(name, suffix) ||
            n <= strlen(FLOW_PREFIX) + strlen(suffix))
            continue;
        g_array_append_val(cols, c);
        g_ptr_array_add(flows, g_strndup(name + strlen(FLOW_PREFIX),
                                         n - strlen(FLOW_PREFIX) - strlen(suffix)));
    }
    return cols;
}

/* (v1 - v0) * scale / dt, NaN when the count went down (a reset) or dt is not positive. */
static double rate(double v0, double v1, double dt, double scale)
{
    if (!(dt > 0) || !(v1 >= v0))
        return NAN;
    return (v1 - v0) * scale / dt;
}

/* The rate of each flow.<name><suffix> counter and their total, one row per sample after the
 * first (plot_throughput_dat, plot_transactions_dat). */
static char *flow_rates_dat(const PlotCsv *csv, GPtrArray *flows, const char *suffix, double scale,
                            const char *unit)
{
    g_autoptr(GArray) cols = flow_columns(csv, suffix, flows);
    if (cols->len == 0 || csv->nrows < 2)
        return NULL;
    GString *out = g_string_new("# time_s total");
    for (guint f = 0; f < flows->len; f++)
        g_string_append_printf(out, " %s", (const char *)g_ptr_array_index(flows, f));
    g_string_append_printf(out, "  (%s)\n", unit);
    g_autofree double *rates = g_new(double, cols->len);
    for (guint r = 1; r < csv->nrows; r++) {
        double t0 = plot_csv_value(csv, r - 1, 0), t1 = plot_csv_value(csv, r, 0);
        double total = 0.0;
        for (guint f = 0; f < cols->len; f++) {
            guint c = g_array_index(cols, guint, f);
            rates[f] = rate(plot_csv_value(csv, r - 1, c), plot_csv_value(csv, r, c), t1 - t0,
                            scale);
            total += rates[f]; /* NaN if any flow's is */
        }
        plot_append_number(out, t1);
        g_string_append_c(out, ' ');
        plot_append_number(out, total);
        for (guint f = 0; f < cols->len; f++) {
            g_string_append_c(out, ' ');
            plot_append_number(out, rates[f]);
        }
        g_string_append_c(out, '\n');
    }
    return g_string_free(out, FALSE);
}

char *plot_throughput_dat(const PlotCsv *csv, GPtrArray *flows)
{
    return flow_rates_dat(csv, flows, ".delivered_bytes", 8.0 / 1e9, "Gbit/s");
}

char *plot_transactions_dat(const PlotCsv *csv, GPtrArray *flows)
{
    return flow_rates_dat(csv, flows, ".transactions", 1.0, "transactions/s");
}

/* ---- CPU use --------------------------------------------------------------------------------- */

#define CPU_SUFFIX ".busy"

typedef struct {
    guint col;
    double mean;
} CpuCol;

static gint cpu_col_busier(gconstpointer a, gconstpointer b)
{
    const CpuCol *x = a, *y = b;
    if (x->mean != y->mean)
        return x->mean > y->mean ? -1 : 1;
    return x->col < y->col ? -1 : x->col > y->col; /* ties: in column order */
}

/* Is name "<host>.cpu<N>.busy" (of host, when host is not NULL)? */
static gboolean is_cpu_busy_column(const char *name, const char *host)
{
    if (g_str_has_prefix(name, FLOW_PREFIX) || !g_str_has_suffix(name, CPU_SUFFIX))
        return FALSE;
    const char *cpu = g_strrstr_len(name, (gssize)(strlen(name) - strlen(CPU_SUFFIX)), ".cpu");
    if (!cpu || cpu == name)
        return FALSE;
    return !host || (strlen(host) == (size_t)(cpu - name) && strncmp(name, host, strlen(host)) == 0);
}

static double column_mean(const PlotCsv *csv, guint col, guint first_row)
{
    double sum = 0.0;
    for (guint r = first_row; r < csv->nrows; r++)
        sum += plot_csv_value(csv, r, col);
    return csv->nrows > first_row ? sum / (csv->nrows - first_row) : 0.0;
}

char *plot_cpu_dat(const PlotCsv *csv, const char *host, double min_share, guint max_cpus,
                   GPtrArray *cpus)
{
    g_autoptr(GArray) sel = g_array_new(FALSE, FALSE, sizeof(CpuCol));
    for (guint c = 1; c < csv->names->len; c++) {
        if (!is_cpu_busy_column(g_ptr_array_index(csv->names, c), host))
            continue;
        CpuCol cc = { c, column_mean(csv, c, 1) }; /* the first row covers no interval */
        if (cc.mean >= min_share)
            g_array_append_val(sel, cc);
    }
    if (sel->len == 0)
        return NULL;
    g_array_sort(sel, cpu_col_busier);
    if (sel->len > max_cpus)
        g_array_set_size(sel, max_cpus);
    GString *out = g_string_new("# time_s");
    for (guint i = 0; i < sel->len; i++) {
        const char *name = g_ptr_array_index(csv->names, g_array_index(sel, CpuCol, i).col);
        g_ptr_array_add(cpus, g_strndup(name, strlen(name) - strlen(CPU_SUFFIX)));
        g_string_append_printf(out, " %s", (const char *)g_ptr_array_index(cpus, cpus->len - 1));
    }
    g_string_append(out, "  (% busy)\n");
    for (guint r = 1; r < csv->nrows; r++) {
        plot_append_number(out, plot_csv_value(csv, r, 0));
        for (guint i = 0; i < sel->len; i++) {
            g_string_append_c(out, ' ');
            plot_append_number(out, 100.0 * plot_csv_value(csv, r, g_array_index(sel, CpuCol, i).col));
        }
        g_string_append_c(out, '\n');
    }
    return g_string_free(out, FALSE);
}

/* ---- report counters ------------------------------------------------------------------------- */

static gboolean is_metric_row(const char *name)
{
    return strcmp(name, "goodput_bps") == 0 || strcmp(name, "transactions_per_s") == 0;
}

const char *plot_counter_unit(const char *name)
{
    const char *dot = strchr(name, '.');
    const char *counter = dot ? dot + 1 : name; /* HOST.COUNTER: host names have no '.' */
    if (g_str_has_prefix(counter, "cpu_"))
        return "CPU time (us, measured interval)";
    if (strcmp(name, "goodput_bps_min_flow") == 0)
        return "slowest flow's goodput (bit/s)";
    if (strcmp(name, "transactions_per_s_min_flow") == 0)
        return "slowest flow's transactions/s";
    return PLOT_UNIT_COUNT;
}

char *plot_counters_dat(const JsonValue *compare, GPtrArray *names)
{
    const JsonValue *variants = json_get(compare, "variants");
    const JsonValue *rows = json_get(compare, "rows");
    GString *out = g_string_new("# counter");
    for (guint v = 0; v < json_len(variants); v++)
        g_string_append_printf(out, " %s", json_string_value(json_at(variants, v)));
    g_string_append_c(out, '\n');
    for (guint r = 0; r < json_len(rows); r++) {
        const JsonValue *row = json_at(rows, r);
        const char *name = json_string_value(json_get(row, "name"));
        if (!name || is_metric_row(name))
            continue;
        g_ptr_array_add(names, g_strdup(name));
        g_string_append(out, name);
        const JsonValue *values = json_get(row, "values");
        for (guint v = 0; v < json_len(variants); v++) {
            const char *variant = json_string_value(json_at(variants, v));
            double x = NAN;
            if (!variant || !json_number(json_get(values, variant), &x))
                x = NAN;
            g_string_append_c(out, ' ');
            plot_append_number(out, x);
        }
        g_string_append_c(out, '\n');
    }
    if (names->len == 0) {
        g_string_free(out, TRUE);
        return NULL;
    }
    return g_string_free(out, FALSE);
}
