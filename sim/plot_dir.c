/* plot_dir.c - the figures of one results directory (`sksim plot DIR`, and the end of
 * `sksim compare`): find the variants and their outputs, write the .dat files into DIR/plots/,
 * and draw each figure with its script.
 *
 * A figure with nothing to show (no flow columns yet, no report counters) is skipped with a note
 * rather than drawn empty; a gnuplot failure in one figure does not stop the others. Variants are
 * taken in compare.json's order (the run order); a `run` directory without compare.json lists
 * its variant subdirectories in name order, never in directory order.
 */
#include "sim/plot.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sim/output.h"

typedef struct Input {
    char *title;           /* for figure titles */
    GPtrArray *variants;   /* char* */
    GPtrArray *vdirs;      /* char*: each variant's run directory */
    JsonValue *compare;    /* compare.json, or NULL */
    double warmup_s;       /* of the first variant; NaN when unknown */
} Input;

static void input_clear(Input *in)
{
    g_free(in->title);
    if (in->variants)
        g_ptr_array_unref(in->variants);
    if (in->vdirs)
        g_ptr_array_unref(in->vdirs);
    json_value_free(in->compare);
}

static void add_variant(Input *in, const char *name, const char *vdir)
{
    g_ptr_array_add(in->variants, g_strdup(name));
    g_ptr_array_add(in->vdirs, g_strdup(vdir));
}

static void set_title(Input *in, const JsonValue *doc)
{
    const char *title = json_string_value(json_get(doc, "title"));
    if (!title || !*title)
        title = json_string_value(json_get(doc, "scenario"));
    g_free(in->title);
    in->title = g_strdup(title ? title : "");
}

static int compare_strings(gconstpointer a, gconstpointer b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* DIR/<v>/metrics.json for every subdirectory v, in name order. */
static gboolean find_run_variants(const char *dir, Input *in, GError **error)
{
    g_autoptr(GDir) d = g_dir_open(dir, 0, error);
    if (!d)
        return FALSE;
    g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
    const char *name;
    while ((name = g_dir_read_name(d)) != NULL) {
        g_autofree char *m = g_build_filename(dir, name, "metrics.json", NULL);
        if (g_file_test(m, G_FILE_TEST_IS_REGULAR))
            g_ptr_array_add(names, g_strdup(name));
    }
    g_ptr_array_sort(names, compare_strings);
    for (guint i = 0; i < names->len; i++) {
        g_autofree char *vdir = g_build_filename(dir, g_ptr_array_index(names, i), NULL);
        add_variant(in, g_ptr_array_index(names, i), vdir);
    }
    if (names->len > 0)
        return TRUE;
    g_set_error(error, PLOT_ERROR, PLOT_ERROR_INPUT,
                "%s: no results here (neither compare.json, metrics.json nor */metrics.json)", dir);
    return FALSE;
}

static gboolean load_input(const char *dir, Input *in, GError **error)
{
    in->variants = g_ptr_array_new_with_free_func(g_free);
    in->vdirs = g_ptr_array_new_with_free_func(g_free);
    in->title = g_strdup("");
    g_autofree char *cmp = g_build_filename(dir, "compare.json", NULL);
    g_autofree char *metrics = g_build_filename(dir, "metrics.json", NULL);
    if (g_file_test(cmp, G_FILE_TEST_EXISTS)) {
        in->compare = json_parse_file(cmp, error);
        if (!in->compare)
            return FALSE;
        set_title(in, in->compare);
        const JsonValue *variants = json_get(in->compare, "variants");
        for (guint i = 0; i < json_len(variants); i++) {
            const char *v = json_string_value(json_at(variants, i));
            g_autofree char *vdir = v ? g_build_filename(dir, v, NULL) : NULL;
            if (v)
                add_variant(in, v, vdir);
        }
        return TRUE;
    }
    if (g_file_test(metrics, G_FILE_TEST_EXISTS)) {
        g_autoptr(JsonValue) m = json_parse_file(metrics, error);
        if (!m)
            return FALSE;
        const char *v = json_string_value(json_get(m, "variant"));
        add_variant(in, v ? v : "base", dir);
        return TRUE;
    }
    return find_run_variants(dir, in, error);
}

/* Title from the first variant's metrics.json when compare.json gave none; its warm-up. */
static void read_first_metrics(Input *in)
{
    in->warmup_s = NAN;
    if (in->vdirs->len == 0)
        return;
    g_autofree char *path = g_build_filename(g_ptr_array_index(in->vdirs, 0), "metrics.json", NULL);
    g_autoptr(JsonValue) m = json_parse_file(path, NULL);
    if (!m)
        return;
    if (!json_number(json_get(m, "warmup_s"), &in->warmup_s))
        in->warmup_s = NAN;
    if (!*in->title)
        set_title(in, m);
}

/* ---- figures --------------------------------------------------------------------------------- */

typedef struct Figures {
    const Plotter *p;
    const Input *in;
    const int *colors;
    char *pdir; /* DIR/plots */
    GPtrArray *written, *notes;
    GError *first_error;
    guint failed;
} Figures;

static void note(Figures *f, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static void note(Figures *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (f->notes)
        g_ptr_array_add(f->notes, g_strdup_vprintf(fmt, ap));
    va_end(ap);
}

static void failed(Figures *f, GError *err)
{
    f->failed++;
    if (!f->first_error)
        f->first_error = err;
    else
        g_error_free(err);
}

static gboolean write_dat(Figures *f, const char *name, const char *text)
{
    g_autofree char *path = g_build_filename(f->pdir, name, NULL);
    GError *err = NULL;
    if (output_write_atomic(path, text, strlen(text), &err))
        return TRUE;
    failed(f, err);
    return FALSE;
}

static void draw(Figures *f, const char *figure, const char *what, GString *vars)
{
    const char *t = f->in->title;
    g_autofree char *title = g_strdup_printf("%s%s%s", t, *t ? ": " : "", what);
    plot_var_string(vars, "fig_title", title);
    g_autofree char *base = g_build_filename(f->pdir, figure, NULL);
    GError *err = NULL;
    if (!plotter_draw(f->p, figure, vars, base, &err)) {
        failed(f, err);
        return;
    }
    if (f->written) {
        g_ptr_array_add(f->written, g_strconcat(base, ".png", NULL));
        g_ptr_array_add(f->written, g_strconcat(base, ".svg", NULL));
    }
}

/* One line series: column col of file, in the variant's colour. */
static void add_series(GString *vars, guint *n, const char *file, int col, const char *label,
                       int color, int dash)
{
    ++*n;
    plot_var_string_i(vars, "file", *n, file);
    plot_var_int_i(vars, "col", *n, col);
    plot_var_string_i(vars, "label", *n, label);
    plot_var_int_i(vars, "color", *n, color);
    plot_var_int_i(vars, "dash", *n, dash);
}

static PlotCsv *read_csv(Figures *f, guint v)
{
    const char *vdir = g_ptr_array_index(f->in->vdirs, v);
    g_autofree char *path = g_build_filename(vdir, "timeseries.csv", NULL);
    g_autoptr(GError) err = NULL;
    PlotCsv *csv = plot_csv_read(path, &err);
    if (!csv)
        note(f, "variant %s in time figures: %s",
             (const char *)g_ptr_array_index(f->in->variants, v), err->message);
    return csv;
}

/* The CPU figure's CPUs: at least this share of the time busy on average, this many at most. */
#define CPU_FIGURE_MIN_SHARE 0.25
#define CPU_FIGURE_MAX_CPUS 6u

static void cpu_series(Figures *f, const PlotCsv *csv, guint v, GString *vars, guint *n)
{
    const char *name = g_ptr_array_index(f->in->variants, v);
    g_autoptr(GPtrArray) cpus = g_ptr_array_new_with_free_func(g_free);
    g_autofree char *dat = plot_cpu_dat(csv, NULL, CPU_FIGURE_MIN_SHARE, CPU_FIGURE_MAX_CPUS, cpus);
    g_autofree char *file = g_strdup_printf("cpu-%s.dat", name);
    if (!dat || !write_dat(f, file, dat))
        return;
    g_autofree char *path = g_build_filename(f->pdir, file, NULL);
    for (guint k = 0; k < cpus->len; k++) {
        g_autofree char *label = g_strdup_printf("%s %s", name,
                                                 (const char *)g_ptr_array_index(cpus, k));
        add_series(vars, n, path, (int)k + 2, label, f->colors[v], (int)k % 5 + 1);
    }
}

/* The transactions/s of variant v's request/response flows (one line, their total), into vars.
 * Nothing when it has none: a stream-only scenario has no such figure, and no note about it. */
static void transactions_series(Figures *f, const PlotCsv *csv, guint v, GString *vars, guint *n)
{
    const char *name = g_ptr_array_index(f->in->variants, v);
    g_autoptr(GPtrArray) flows = g_ptr_array_new_with_free_func(g_free);
    g_autofree char *dat = plot_transactions_dat(csv, flows);
    g_autofree char *file = g_strdup_printf("transactions-%s.dat", name);
    if (!dat || !write_dat(f, file, dat))
        return;
    g_autofree char *path = g_build_filename(f->pdir, file, NULL);
    g_autofree char *label = g_strdup_printf("%s (%u flows)", name, flows->len);
    add_series(vars, n, path, 2, label, f->colors[v], 1);
}

/* The per-flow throughput figure keys each line of a variant with this many flows or fewer. */
#define PLOT_FLOWS_KEYED 6

/* The key title of flow k of a variant: "<variant> <flow>" while the variant has at most
 * PLOT_FLOWS_KEYED flows; beyond, one title on its first line and "" (no entry) on the others. */
static char *flow_key_label(const char *variant, const GPtrArray *flows, guint k)
{
    if (flows->len <= PLOT_FLOWS_KEYED)
        return g_strdup_printf("%s %s", variant, (const char *)g_ptr_array_index(flows, k));
    return k == 0 ? g_strdup_printf("%s, %u flows (a line each)", variant, flows->len)
                  : g_strdup("");
}

static void time_figures(Figures *f, const char *host)
{
    g_autoptr(GString) rvars = g_string_new(NULL);
    g_autoptr(GString) tvars = g_string_new(NULL);
    g_autoptr(GString) fvars = g_string_new(NULL);
    g_autoptr(GString) cvars = g_string_new(NULL);
    g_autoptr(GString) xvars = g_string_new(NULL);
    guint nr = 0, nt = 0, nf = 0, nc = 0, nx = 0, nkeys = 0;
    for (guint v = 0; v < f->in->variants->len; v++) {
        const char *name = g_ptr_array_index(f->in->variants, v);
        g_autoptr(PlotCsv) csv = read_csv(f, v);
        if (!csv)
            continue;
        g_autofree char *rdat = plot_retrans_dat(csv, host);
        g_autofree char *rfile = g_strdup_printf("retrans-%s.dat", name);
        if (rdat && write_dat(f, rfile, rdat)) {
            g_autofree char *path = g_build_filename(f->pdir, rfile, NULL);
            for (guint k = 0; k < 3; k++) {
                g_autofree char *label = g_strdup_printf("%s %s", name, plot_retrans_counters[k]);
                add_series(rvars, &nr, path, (int)k + 2, label, f->colors[v], (int)k + 1);
            }
        }
        g_autoptr(GPtrArray) flows = g_ptr_array_new_with_free_func(g_free);
        g_autofree char *tdat = plot_throughput_dat(csv, flows);
        g_autofree char *tfile = g_strdup_printf("throughput-%s.dat", name);
        if (tdat && write_dat(f, tfile, tdat)) {
            g_autofree char *path = g_build_filename(f->pdir, tfile, NULL);
            add_series(tvars, &nt, path, 2, name, f->colors[v], 1);
            for (guint k = 0; k < flows->len; k++) {
                g_autofree char *label = flow_key_label(name, flows, k);
                add_series(fvars, &nf, path, (int)k + 3, label, f->colors[v], (int)k % 5 + 1);
            }
            nkeys += flows->len <= PLOT_FLOWS_KEYED ? flows->len : 1;
        }
        cpu_series(f, csv, v, cvars, &nc);
        transactions_series(f, csv, v, xvars, &nx);
    }
    GString *all[] = { rvars, tvars, fvars, cvars, xvars };
    for (guint i = 0; i < G_N_ELEMENTS(all); i++)
        if (isfinite(f->in->warmup_s))
            plot_var_double(all[i], "warmup", f->in->warmup_s);
    if (nr > 0) {
        plot_var_int(rvars, "n", nr);
        g_autofree char *what = g_strdup_printf("retransmissions (cumulative), %s%s",
                                                host ? "host " : "all hosts", host ? host : "");
        draw(f, "retrans", what, rvars);
    } else {
        note(f, "retrans: no TcpRetransSegs/TcpExtTCPLossProbes/TcpExtTCPTimeouts columns%s%s in "
                "timeseries.csv", host ? " of host " : "", host ? host : "");
    }
    if (nt > 0) {
        plot_var_int(tvars, "n", nt);
        draw(f, "throughput", "throughput, all flows", tvars);
        plot_var_int(fvars, "n", nf);
        plot_var_int(fvars, "nkeys", nkeys);
        draw(f, "throughput_flows", "throughput per flow", fvars);
    } else {
        note(f, "throughput: no flow.<name>.delivered_bytes columns (or fewer than 2 samples) in "
                "timeseries.csv");
    }
    if (nx > 0) {
        plot_var_int(xvars, "n", nx);
        draw(f, "transactions", "request/response transactions, all flows", xvars);
    }
    if (nc > 0) {
        plot_var_int(cvars, "n", nc);
        draw(f, "cpu", "CPU use (CPUs busy >= 25 % on average)", cvars);
    } else {
        note(f, "cpu: no <host>.cpu<N>.busy column averaging 25 %% or more in timeseries.csv");
    }
}

static void counters_figure(Figures *f)
{
    if (!f->in->compare)
        return; /* a run directory has no before/after table */
    g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
    g_autofree char *dat = plot_counters_dat(f->in->compare, names);
    if (!dat) {
        note(f, "counters: the scenario's report lists no counters");
        return;
    }
    if (!write_dat(f, "counters.dat", dat))
        return;
    g_autoptr(GString) vars = g_string_new(NULL);
    g_autofree char *path = g_build_filename(f->pdir, "counters.dat", NULL);
    plot_var_string(vars, "file", path);
    plot_var_int(vars, "ncounters", names->len);
    /* Panels of ~250 x 200 px, at most four to a row; the figure grows downwards with them.
     * A panel's unit is printed only when it is not a plain count (the figure's subtitle says
     * that the others are). */
    guint ncols = names->len <= 4 ? names->len : names->len <= 6 ? 3 : 4;
    guint nrows = (names->len + ncols - 1) / ncols;
    plot_var_int(vars, "ncols", ncols);
    plot_var_int(vars, "nrows", nrows);
    plot_var_int(vars, "fig_h", 90 + 210 * nrows);
    for (guint k = 0; k < names->len; k++) {
        const char *name = g_ptr_array_index(names, k);
        const char *unit = plot_counter_unit(name);
        plot_var_string_i(vars, "cname", k + 1, name);
        plot_var_string_i(vars, "unit", k + 1, strcmp(unit, PLOT_UNIT_COUNT) ? unit : "");
    }
    plot_var_int(vars, "nvar", f->in->variants->len);
    for (guint v = 0; v < f->in->variants->len; v++) {
        plot_var_string_i(vars, "label", v + 1, g_ptr_array_index(f->in->variants, v));
        plot_var_int_i(vars, "color", v + 1, f->colors[v]);
    }
    draw(f, "counters", "report counters", vars);
}

/* Whether the first variant's timeseries.csv has a column of `host` ("<host>.<name>"); TRUE
 * when there is no such file to tell (the figures then note what is missing). */
static gboolean host_in_series(const Input *in, const char *host)
{
    if (in->vdirs->len == 0)
        return TRUE;
    g_autofree char *path = g_build_filename(g_ptr_array_index(in->vdirs, 0), "timeseries.csv",
                                             NULL);
    g_autoptr(PlotCsv) csv = plot_csv_read(path, NULL);
    if (!csv)
        return TRUE;
    g_autofree char *prefix = g_strconcat(host, ".", NULL);
    for (guint i = 0; i < csv->names->len; i++)
        if (g_str_has_prefix(g_ptr_array_index(csv->names, i), prefix))
            return TRUE;
    return FALSE;
}

gboolean plot_directory(const Plotter *p, const char *dir, const char *host, GPtrArray *written,
                        GPtrArray *notes, GError **error)
{
    Input in = { 0 };
    if (!load_input(dir, &in, error)) {
        input_clear(&in);
        return FALSE;
    }
    read_first_metrics(&in);
    if (host && !host_in_series(&in, host)) {
        g_set_error(error, PLOT_ERROR, PLOT_ERROR_INPUT,
                    "%s: no host '%s' in its timeseries.csv (--host names a host of the scenario)",
                    dir, host);
        input_clear(&in);
        return FALSE;
    }
    g_autofree int *colors = g_new0(int, in.variants->len + 1);
    plot_variant_colors((const char *const *)in.variants->pdata, in.variants->len, colors);
    Figures f = { .p = p, .in = &in, .colors = colors, .written = written, .notes = notes };
    f.pdir = g_build_filename(dir, "plots", NULL);
    time_figures(&f, host);
    counters_figure(&f);
    g_free(f.pdir);
    input_clear(&in);
    if (f.failed == 0)
        return TRUE;
    g_propagate_prefixed_error(error, f.first_error, "%s: %u figure%s failed: ", dir, f.failed,
                               f.failed == 1 ? "" : "s");
    return FALSE;
}

void plot_directory_report(const char *dir, const char *host)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(Plotter) p = plotter_new(NULL, NULL, &err);
    if (p)
        plot_directory(p, dir, host, NULL, NULL, &err);
    if (err)
        fprintf(stderr, "sksim: %s\n", err->message);
}
