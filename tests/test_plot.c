/* test_plot.c - the figures' data and their drawing: the JSON reader that reads sksim's own
 * files back, timeseries.csv parsing, the .dat files (retransmissions summed over hosts,
 * throughput differentiated from delivered bytes, report counters from compare.json), gnuplot
 * variable quoting and colours, and gnuplot itself producing non-empty PNG and SVG files for the
 * hand-made compare directory tests/data/plot_compare (skipped when gnuplot is not installed).
 *
 * The expected .dat texts are computed by hand from tests/data/plot_compare (README there):
 * e.g. 12 500 000 bytes in 10 ms is 12.5e6 * 8 / 0.01 / 1e9 = 10 Gbit/s.
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "sim/json_read.h"
#include "sim/plot.h"

static char *source_path(const char *rel)
{
    const char *src = g_getenv("SKSIM_SOURCE_DIR");
    return g_build_filename(src ? src : ".", rel, NULL);
}

static char *data_path(const char *rel)
{
    g_autofree char *d = g_build_filename("tests", "data", "plot_compare", rel, NULL);
    return source_path(d);
}

/* ---- the JSON reader ------------------------------------------------------------------------- */

static void test_json_read(void)
{
    const char *text = "{\"a\": [1, -2.5e3, true, false, null], "
                       "\"s\": \"x\\\"\\n\\u00e9\\ud83d\\ude00\", \"o\": {}, \"a\": 2}";
    g_autoptr(GError) err = NULL;
    g_autoptr(JsonValue) v = json_parse(text, -1, &err);
    g_assert_no_error(err);
    g_assert_cmpint(json_kind(v), ==, JSON_V_OBJECT);
    g_assert_cmpuint(json_len(v), ==, 4);
    g_assert_cmpstr(json_key_at(v, 3), ==, "a");
    const JsonValue *a = json_get(v, "a"); /* the first of the duplicates */
    g_assert_cmpint(json_kind(a), ==, JSON_V_ARRAY);
    g_assert_cmpuint(json_len(a), ==, 5);
    double x = 0;
    g_assert_true(json_number(json_at(a, 1), &x));
    g_assert_cmpfloat(x, ==, -2500.0);
    g_assert_true(json_is_true(json_at(a, 2)));
    g_assert_false(json_is_true(json_at(a, 3)));
    g_assert_true(json_is_bool(json_at(a, 3)));
    g_assert_true(json_number(json_at(a, 4), &x)); /* null reads as NaN */
    g_assert_true(isnan(x));
    g_assert_false(json_number(json_get(v, "s"), &x));
    g_assert_cmpstr(json_string_value(json_get(v, "s")), ==, "x\"\n\xc3\xa9\xf0\x9f\x98\x80");
    g_assert_cmpuint(json_len(json_get(v, "o")), ==, 0);
    g_assert_null(json_get(v, "missing"));
    g_assert_null(json_at(a, 5));
}

static void expect_json_error(const char *text, const char *message)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(JsonValue) v = json_parse(text, -1, &err);
    g_assert_null(v);
    g_assert_nonnull(err);
    if (!strstr(err->message, message))
        g_error("'%s': got '%s', expected '%s'", text, err->message, message);
}

static void test_json_read_errors(void)
{
    expect_json_error("{\"a\": 1,}", "line 1 col 9: expected a string key");
    expect_json_error("{\n  \"a\": 01}", "line 2 col 9: expected ',' or '}'");
    expect_json_error("[1 2]", "line 1 col 4: expected ',' or ']'");
    expect_json_error("\"abc", "unterminated string");
    expect_json_error("\"\\ud800\"", "unpaired surrogate");
    expect_json_error("\"a\tb\"", "control character");
    expect_json_error("1.", "expected a digit after '.'");
    expect_json_error("1e", "exponent");
    expect_json_error("tru", "unexpected character");
    expect_json_error("{} x", "text after the value");
    expect_json_error("", "unexpected end of input");
    g_autoptr(GString) deep = g_string_new(NULL);
    for (int i = 0; i < JSON_READ_MAX_DEPTH + 1; i++)
        g_string_append_c(deep, '[');
    expect_json_error(deep->str, "nesting too deep");
}

/* ---- CSV and .dat ---------------------------------------------------------------------------- */

static PlotCsv *read_variant_csv(const char *variant)
{
    g_autofree char *rel = g_build_filename(variant, "timeseries.csv", NULL);
    g_autofree char *path = data_path(rel);
    g_autoptr(GError) err = NULL;
    PlotCsv *csv = plot_csv_read(path, &err);
    g_assert_no_error(err);
    return csv;
}

static void test_csv(void)
{
    g_autoptr(PlotCsv) csv = read_variant_csv("before");
    g_assert_cmpuint(csv->names->len, ==, 10);
    g_assert_cmpuint(csv->nrows, ==, 4);
    g_assert_cmpint(plot_csv_column(csv, "server.TcpRetransSegs"), ==, 4);
    g_assert_cmpint(plot_csv_column(csv, "nope"), ==, -1);
    g_assert_cmpfloat(plot_csv_value(csv, 3, 4), ==, 5.0);
    g_assert_cmpfloat(plot_csv_value(csv, 2, 0), ==, 0.02);

    g_autoptr(GError) err = NULL;
    g_autoptr(PlotCsv) empty_cell = plot_csv_parse("time_s,a\n0,\n", "x.csv", &err);
    g_assert_no_error(err);
    g_assert_true(isnan(plot_csv_value(empty_cell, 0, 1)));
    g_autoptr(PlotCsv) bad = plot_csv_parse("time_s,a\n0,1x\n", "x.csv", &err);
    g_assert_null(bad);
    g_assert_cmpstr(err->message, ==, "x.csv:2: not a number: '1x'");
    g_clear_error(&err);
    g_autoptr(PlotCsv) short_row = plot_csv_parse("time_s,a\n0\n", "x.csv", &err);
    g_assert_null(short_row);
    g_assert_cmpstr(err->message, ==, "x.csv:2: 1 cells, expected 2");
    g_clear_error(&err);
    g_autoptr(PlotCsv) no_header = plot_csv_parse("a,b\n", "x.csv", &err);
    g_assert_null(no_header);
}

static void test_retrans_dat(void)
{
    g_autoptr(PlotCsv) csv = read_variant_csv("before");
    /* summed over client and server */
    g_autofree char *all = plot_retrans_dat(csv, NULL);
    g_assert_cmpstr(all, ==,
                    "# time_s TcpRetransSegs TcpExtTCPLossProbes TcpExtTCPTimeouts\n"
                    "0 0 0 0\n"
                    "0.01 3 0 0\n"
                    "0.02 5 2 0\n"
                    "0.03 9 2 1\n");
    g_autofree char *server = plot_retrans_dat(csv, "server");
    g_assert_cmpstr(server, ==,
                    "# time_s TcpRetransSegs TcpExtTCPLossProbes TcpExtTCPTimeouts\n"
                    "0 0 0 0\n"
                    "0.01 2 0 0\n"
                    "0.02 2 1 0\n"
                    "0.03 5 1 0\n");
    g_assert_null(plot_retrans_dat(csv, "nohost"));
    /* a host named like a prefix of another does not pick up the other's columns */
    g_autoptr(PlotCsv) two = plot_csv_parse("time_s,a.TcpRetransSegs,aa.TcpRetransSegs\n0,1,10\n",
                                            "t", NULL);
    g_autofree char *only_a = plot_retrans_dat(two, "a");
    g_assert_cmpstr(only_a, ==, "# time_s TcpRetransSegs TcpExtTCPLossProbes TcpExtTCPTimeouts\n"
                                "0 1 NaN NaN\n");
    /* the warm-up's end resets the counters: a blank line before the reset row, so that the
     * figure breaks its lines there instead of drawing a ramp down to zero */
    g_autoptr(PlotCsv) warm = plot_csv_parse("time_s,a.TcpRetransSegs,a.TcpExtTCPLossProbes\n"
                                             "0.1,4,1\n0.2,0,0\n0.3,2,1\n", "t", NULL);
    g_autofree char *reset = plot_retrans_dat(warm, NULL);
    g_assert_cmpstr(reset, ==, "# time_s TcpRetransSegs TcpExtTCPLossProbes TcpExtTCPTimeouts\n"
                               "0.1 4 1 NaN\n"
                               "\n"
                               "0.2 0 0 NaN\n"
                               "0.3 2 1 NaN\n");
}

static void test_throughput_dat(void)
{
    g_autoptr(PlotCsv) before = read_variant_csv("before");
    g_autoptr(GPtrArray) flows = g_ptr_array_new_with_free_func(g_free);
    g_autofree char *b = plot_throughput_dat(before, flows);
    g_assert_cmpstr(b, ==,
                    "# time_s total bulk/0 bulk/1  (Gbit/s)\n"
                    "0.01 11 10 1\n"
                    "0.02 11 10 1\n"
                    "0.03 10 10 0\n");
    g_assert_cmpuint(flows->len, ==, 2);
    g_assert_cmpstr(g_ptr_array_index(flows, 1), ==, "bulk/1");
    /* after: bulk/1 goes from 1 250 000 down to 500 000 bytes (a counter reset): NaN, and so
     * is the total */
    g_autoptr(PlotCsv) after = read_variant_csv("after");
    g_ptr_array_set_size(flows, 0);
    g_autofree char *a = plot_throughput_dat(after, flows);
    g_assert_cmpstr(a, ==,
                    "# time_s total bulk/0 bulk/1  (Gbit/s)\n"
                    "0.01 11 11 0\n"
                    "0.02 12 11 1\n"
                    "0.03 NaN 0 NaN\n");
    /* no flow columns, or a single row: nothing */
    g_autoptr(PlotCsv) none = plot_csv_parse("time_s,h.TcpRetransSegs\n0,0\n1,0\n", "t", NULL);
    g_assert_null(plot_throughput_dat(none, flows));
    g_autoptr(PlotCsv) one = plot_csv_parse("time_s,flow.x.delivered_bytes\n0,0\n", "t", NULL);
    g_assert_null(plot_throughput_dat(one, flows));
}

/* transactions/s of the RR flows' flow.<name>.transactions columns: delivered_bytes and other
 * flow columns are not transactions; a counter going down (the warm-up's reset) gives NaN */
static void test_transactions_dat(void)
{
    g_autoptr(PlotCsv) csv = plot_csv_parse("time_s,flow.rr/0.transactions,flow.rr/0.cwnd,"
                                            "flow.bulk.delivered_bytes,flow.rr/1.transactions\n"
                                            "0,0,10,0,0\n"
                                            "0.01,90,10,1000,100\n"
                                            "0.02,180,10,2000,150\n"
                                            "0.03,5,10,3000,10\n",
                                            "t", NULL);
    g_autoptr(GPtrArray) flows = g_ptr_array_new_with_free_func(g_free);
    g_autofree char *dat = plot_transactions_dat(csv, flows);
    g_assert_cmpstr(dat, ==,
                    "# time_s total rr/0 rr/1  (transactions/s)\n"
                    "0.01 19000 9000 10000\n"
                    "0.02 14000 9000 5000\n"
                    "0.03 NaN NaN NaN\n");
    g_assert_cmpuint(flows->len, ==, 2);
    /* a stream-only series has no transactions figure */
    g_autoptr(PlotCsv) stream = plot_csv_parse("time_s,flow.x.delivered_bytes\n0,0\n1,5\n", "t", NULL);
    g_ptr_array_set_size(flows, 0);
    g_assert_null(plot_transactions_dat(stream, flows));
}

static void test_cpu_dat(void)
{
    g_autoptr(PlotCsv) csv = plot_csv_parse("time_s,a.cpu0.busy,a.cpu0.softirq,a.cpu1.busy,"
                                            "ab.cpu10.busy,flow.x.cpu0.busy\n"
                                            "0,0,0,0,0,0\n"
                                            "0.01,0.5,0.1,0.1,1,1\n"
                                            "0.02,0.3,0.1,0.2,0.9,1\n",
                                            "t", NULL);
    g_assert_nonnull(csv);
    /* means after the first row: a.cpu0 0.4, a.cpu1 0.15, ab.cpu10 0.95; busiest first, and
     * neither the softirq column nor a flow column counts as a CPU */
    g_autoptr(GPtrArray) cpus = g_ptr_array_new_with_free_func(g_free);
    g_autofree char *all = plot_cpu_dat(csv, NULL, 0.25, 6, cpus);
    g_assert_cmpstr(all, ==, "# time_s ab.cpu10 a.cpu0  (% busy)\n0.01 100 50\n0.02 90 30\n");
    g_assert_cmpuint(cpus->len, ==, 2);
    g_assert_cmpstr(g_ptr_array_index(cpus, 1), ==, "a.cpu0");
    /* one host: "a" is not a prefix match for "ab" */
    g_ptr_array_set_size(cpus, 0);
    g_autofree char *a = plot_cpu_dat(csv, "a", 0.1, 6, cpus);
    g_assert_cmpstr(a, ==, "# time_s a.cpu0 a.cpu1  (% busy)\n0.01 50 10\n0.02 30 20\n");
    /* at most one CPU; none busy enough */
    g_ptr_array_set_size(cpus, 0);
    g_autofree char *one = plot_cpu_dat(csv, NULL, 0.0, 1, cpus);
    g_assert_cmpstr(one, ==, "# time_s ab.cpu10  (% busy)\n0.01 100\n0.02 90\n");
    g_ptr_array_set_size(cpus, 0);
    g_assert_null(plot_cpu_dat(csv, NULL, 0.99, 6, cpus));
    g_assert_cmpuint(cpus->len, ==, 0);
}

static void test_counters_dat(void)
{
    g_autofree char *path = data_path("compare.json");
    g_autoptr(GError) err = NULL;
    g_autoptr(JsonValue) cmp = json_parse_file(path, &err);
    g_assert_no_error(err);
    g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
    g_autofree char *dat = plot_counters_dat(cmp, names);
    g_assert_cmpstr(dat, ==,
                    "# counter before after\n"
                    "TcpRetransSegs 9 4\n"
                    "TcpExtTCPTimeouts 1 0\n");
    g_assert_cmpuint(names->len, ==, 2);
    g_autoptr(JsonValue) no_counters = json_parse(
        "{\"variants\": [\"a\"], \"rows\": [{\"name\": \"goodput_bps\", \"values\": {\"a\": 1}}]}",
        -1, NULL);
    g_ptr_array_set_size(names, 0);
    g_assert_null(plot_counters_dat(no_counters, names));
}

/* Each counters panel is labelled with its row's unit: compare's slowest-flow row is in bit/s
 * and a CPU profile row in microseconds (README, `sksim compare`), not event counts. */
static void test_counter_unit(void)
{
    g_assert_cmpstr(plot_counter_unit("TcpRetransSegs"), ==, "count (measured interval)");
    g_assert_cmpstr(plot_counter_unit("receiver.TcpExtTCPBacklogDrop"), ==,
                    "count (measured interval)");
    g_assert_cmpstr(plot_counter_unit("goodput_bps_min_flow"), ==, "slowest flow's goodput (bit/s)");
    g_assert_cmpstr(plot_counter_unit("transactions_per_s_min_flow"), ==,
                    "slowest flow's transactions/s");
    g_assert_cmpstr(plot_counter_unit("cpu_tcp_rcv_ack"), ==, "CPU time (us, measured interval)");
    g_assert_cmpstr(plot_counter_unit("rcv.cpu_backlog_extra"), ==,
                    "CPU time (us, measured interval)");
}

/* ---- variables and colours ------------------------------------------------------------------- */

static void test_vars(void)
{
    g_autoptr(GString) v = g_string_new(NULL);
    plot_var_string(v, "fig_title", "it's\na 'test'");
    plot_var_int(v, "n", 3);
    plot_var_double(v, "warmup", 0.1);
    plot_var_double(v, "x", NAN);
    plot_var_string_i(v, "file", 2, "/tmp/a b.dat");
    plot_var_int_i(v, "col", 2, 4);
    g_assert_cmpstr(v->str, ==,
                    "fig_title='it''s a ''test'''; n=3; warmup=0.1; x=NaN; file2='/tmp/a b.dat'; "
                    "col2=4; ");
}

static void test_colors(void)
{
    const char *const a[] = { "after", "before" };
    int ca[2];
    plot_variant_colors(a, 2, ca);
    g_assert_cmpint(ca[0], ==, 2);
    g_assert_cmpint(ca[1], ==, 1);
    const char *const b[] = { "base" };
    int cb[1];
    plot_variant_colors(b, 1, cb);
    g_assert_cmpint(cb[0], ==, 3);
    /* other names take 4, 5, ... in order and wrap round the palette of 8 */
    const char *const c[] = { "before", "x1", "x2", "x3", "x4", "x5", "x6", "after" };
    int cc[8];
    plot_variant_colors(c, 8, cc);
    const int want[] = { 1, 4, 5, 6, 7, 8, 1, 2 };
    for (int i = 0; i < 8; i++)
        g_assert_cmpint(cc[i], ==, want[i]);
}

/* ---- gnuplot --------------------------------------------------------------------------------- */

static gboolean have_gnuplot(void)
{
    g_autofree char *p = g_find_program_in_path("gnuplot");
    if (!p)
        g_test_skip("gnuplot is not installed");
    return p != NULL;
}

/* A copy of tests/data/plot_compare in a temporary directory (plot writes into DIR/plots/). */
static char *copy_compare_dir(void)
{
    g_autoptr(GError) err = NULL;
    char *tmp = g_dir_make_tmp("sksim-plot-XXXXXX", &err);
    g_assert_no_error(err);
    const char *files[] = { "compare.json", "before/metrics.json", "before/timeseries.csv",
                            "after/metrics.json", "after/timeseries.csv" };
    for (guint i = 0; i < G_N_ELEMENTS(files); i++) {
        g_autofree char *src = data_path(files[i]);
        g_autofree char *dst = g_build_filename(tmp, files[i], NULL);
        g_autofree char *dir = g_path_get_dirname(dst);
        g_assert_cmpint(g_mkdir_with_parents(dir, 0777), ==, 0);
        g_autofree char *text = NULL;
        gsize len = 0;
        g_assert_true(g_file_get_contents(src, &text, &len, NULL));
        g_assert_true(g_file_set_contents(dst, text, (gssize)len, NULL));
    }
    return tmp;
}

static void remove_tree(const char *path)
{
    if (g_file_test(path, G_FILE_TEST_IS_DIR)) {
        g_autoptr(GDir) d = g_dir_open(path, 0, NULL);
        const char *name;
        while (d && (name = g_dir_read_name(d)) != NULL) {
            g_autofree char *child = g_build_filename(path, name, NULL);
            remove_tree(child);
        }
        g_rmdir(path);
    } else {
        g_unlink(path);
    }
}

static void assert_image(const char *path, const char *magic)
{
    g_autofree char *data = NULL;
    gsize len = 0;
    if (!g_file_get_contents(path, &data, &len, NULL))
        g_error("%s was not written", path);
    g_assert_cmpuint(len, >, 1000);
    if (!g_strstr_len(data, (gssize)MIN(len, 400), magic))
        g_error("%s does not start like a %s file", path, magic);
}

static Plotter *test_plotter(void)
{
    g_autofree char *scripts = source_path("plots");
    g_autoptr(GError) err = NULL;
    Plotter *p = plotter_new(NULL, scripts, &err);
    g_assert_no_error(err);
    return p;
}

static void test_draw_compare(void)
{
    if (!have_gnuplot())
        return;
    g_autofree char *dir = copy_compare_dir();
    g_autoptr(Plotter) p = test_plotter();
    g_autoptr(GPtrArray) written = g_ptr_array_new_with_free_func(g_free);
    g_autoptr(GPtrArray) notes = g_ptr_array_new_with_free_func(g_free);
    g_autoptr(GError) err = NULL;
    g_assert_true(plot_directory(p, dir, "server", written, notes, &err));
    g_assert_no_error(err);
    g_assert_cmpuint(notes->len, ==, 0);
    const char *figures[] = { "retrans", "throughput", "throughput_flows", "cpu", "counters" };
    g_assert_cmpuint(written->len, ==, 2 * G_N_ELEMENTS(figures));
    for (guint i = 0; i < G_N_ELEMENTS(figures); i++) {
        g_autofree char *png = g_strdup_printf("%s/plots/%s.png", dir, figures[i]);
        g_autofree char *svg = g_strdup_printf("%s/plots/%s.svg", dir, figures[i]);
        g_assert_cmpstr(g_ptr_array_index(written, 2 * i), ==, png);
        g_assert_cmpstr(g_ptr_array_index(written, 2 * i + 1), ==, svg);
        assert_image(png, "PNG");
        assert_image(svg, "<svg");
    }
    /* the .dat files the figures were drawn from are next to them; the report host's only */
    g_autofree char *rdat = g_build_filename(dir, "plots", "retrans-before.dat", NULL);
    g_autofree char *rtext = NULL;
    g_assert_true(g_file_get_contents(rdat, &rtext, NULL, NULL));
    g_assert_true(g_str_has_suffix(rtext, "0.03 5 1 0\n"));
    g_autofree char *cdat = g_build_filename(dir, "plots", "cpu-after.dat", NULL);
    g_autofree char *ctext = NULL;
    g_assert_true(g_file_get_contents(cdat, &ctext, NULL, NULL));
    g_assert_cmpstr(ctext, ==, "# time_s server.cpu0  (% busy)\n0.01 25\n0.02 50\n0.03 75\n");
    /* nothing else: no temporary files left behind */
    g_autofree char *pdir = g_build_filename(dir, "plots", NULL);
    g_autoptr(GDir) pd = g_dir_open(pdir, 0, NULL);
    guint n = 0;
    const char *name;
    while ((name = g_dir_read_name(pd)) != NULL) {
        g_assert_true(g_str_has_suffix(name, ".png") || g_str_has_suffix(name, ".svg") ||
                      g_str_has_suffix(name, ".dat"));
        n++;
    }
    g_assert_cmpuint(n, ==, 10 + 7); /* 5 figures x 2, retrans, throughput and cpu x 2, counters */
    remove_tree(dir);
}

static void test_draw_single_run(void)
{
    if (!have_gnuplot())
        return;
    g_autofree char *dir = copy_compare_dir();
    g_autofree char *run = g_build_filename(dir, "after", NULL);
    g_autoptr(Plotter) p = test_plotter();
    g_autoptr(GPtrArray) written = g_ptr_array_new_with_free_func(g_free);
    g_autoptr(GError) err = NULL;
    g_assert_true(plot_directory(p, run, NULL, written, NULL, &err));
    g_assert_no_error(err);
    g_assert_cmpuint(written->len, ==, 8); /* no counters figure without compare.json */
    g_autofree char *png = g_build_filename(run, "plots", "throughput.png", NULL);
    assert_image(png, "PNG");
    remove_tree(dir);
}

static void test_no_results(void)
{
    if (!have_gnuplot())
        return;
    g_autoptr(GError) err = NULL;
    g_autofree char *dir = g_dir_make_tmp("sksim-plot-XXXXXX", &err);
    g_autoptr(Plotter) p = test_plotter();
    g_assert_false(plot_directory(p, dir, NULL, NULL, NULL, &err));
    g_assert_error(err, PLOT_ERROR, PLOT_ERROR_INPUT);
    g_assert_nonnull(strstr(err->message, "no results here"));
    remove_tree(dir);
}

static void test_missing_gnuplot(void)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(Plotter) p = plotter_new("sksim-test-no-such-gnuplot", NULL, &err);
    g_assert_null(p);
    g_assert_error(err, PLOT_ERROR, PLOT_ERROR_NO_GNUPLOT);
}

/* A script error is reported with gnuplot's message, the other figures are still drawn and no
 * temporary file stays behind. */
static void test_gnuplot_failure(void)
{
    if (!have_gnuplot())
        return;
    g_autofree char *dir = copy_compare_dir();
    g_autofree char *scripts = g_build_filename(dir, "scripts", NULL);
    g_assert_cmpint(g_mkdir(scripts, 0777), ==, 0);
    const char *names[] = { "common.gp", "retrans.gp", "throughput.gp", "throughput_flows.gp",
                            "cpu.gp", "counters.gp" };
    for (guint i = 0; i < G_N_ELEMENTS(names); i++) {
        g_autofree char *src_rel = g_build_filename("plots", names[i], NULL);
        g_autofree char *src = source_path(src_rel);
        g_autofree char *dst = g_build_filename(scripts, names[i], NULL);
        g_autofree char *text = NULL;
        g_assert_true(g_file_get_contents(src, &text, NULL, NULL));
        if (strcmp(names[i], "counters.gp") == 0)
            g_assert_true(g_file_set_contents(dst, "plot no_such_variable\n", -1, NULL));
        else
            g_assert_true(g_file_set_contents(dst, text, -1, NULL));
    }
    g_autoptr(GError) err = NULL;
    g_autoptr(Plotter) p = plotter_new(NULL, scripts, &err);
    g_assert_no_error(err);
    g_autoptr(GPtrArray) written = g_ptr_array_new_with_free_func(g_free);
    g_assert_false(plot_directory(p, dir, NULL, written, NULL, &err));
    g_assert_error(err, PLOT_ERROR, PLOT_ERROR_GNUPLOT);
    g_assert_nonnull(strstr(err->message, "1 figure failed: gnuplot counters.gp (png) failed: "));
    g_assert_nonnull(strstr(err->message, "no_such_variable"));
    g_assert_cmpuint(written->len, ==, 8);
    g_autofree char *pdir = g_build_filename(dir, "plots", NULL);
    g_autoptr(GDir) pd = g_dir_open(pdir, 0, NULL);
    const char *name;
    while ((name = g_dir_read_name(pd)) != NULL)
        g_assert_false(g_str_has_prefix(name, "counters.png"));
    remove_tree(dir);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/json-read/values", test_json_read);
    g_test_add_func("/json-read/errors", test_json_read_errors);
    g_test_add_func("/plot/csv", test_csv);
    g_test_add_func("/plot/retrans-dat", test_retrans_dat);
    g_test_add_func("/plot/throughput-dat", test_throughput_dat);
    g_test_add_func("/plot/counters-dat", test_counters_dat);
    g_test_add_func("/plot/transactions-dat", test_transactions_dat);
    g_test_add_func("/plot/counter-unit", test_counter_unit);
    g_test_add_func("/plot/cpu-dat", test_cpu_dat);
    g_test_add_func("/plot/vars", test_vars);
    g_test_add_func("/plot/colors", test_colors);
    g_test_add_func("/plot/draw-compare", test_draw_compare);
    g_test_add_func("/plot/draw-single-run", test_draw_single_run);
    g_test_add_func("/plot/no-results", test_no_results);
    g_test_add_func("/plot/missing-gnuplot", test_missing_gnuplot);
    g_test_add_func("/plot/gnuplot-failure", test_gnuplot_failure);
    return g_test_run();
}
