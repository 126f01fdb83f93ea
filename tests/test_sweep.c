/* test_sweep.c - the pure parts of `sksim sweep`: the Student t table and the mean / 95 %
 * confidence interval against hand-computed numbers, --param parsing, grid order, run directory
 * names, sweep.csv and the per-metric .dat text, and metrics.json read back (the file that
 * decides whether a run is skipped). The end-to-end sweep (runs, skipping, grid order of rows)
 * is tests/cli/sweep.sh.
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "sim/output.h"
#include "sim/stats.h"
#include "sim/sweep.h"

/* ---- statistics ------------------------------------------------------------------------------ */

static void test_t_table(void)
{
    g_assert_true(isnan(stats_t95(0)));
    g_assert_cmpfloat(stats_t95(1), ==, 12.706205);
    g_assert_cmpfloat(stats_t95(2), ==, 4.302653);
    g_assert_cmpfloat(stats_t95(4), ==, 2.776445);
    g_assert_cmpfloat(stats_t95(9), ==, 2.262157);
    g_assert_cmpfloat(stats_t95(30), ==, 2.042272);
    g_assert_cmpfloat(stats_t95(35), ==, 2.042272); /* between rows: the smaller df's (wider) */
    g_assert_cmpfloat(stats_t95(40), ==, 2.021075);
    g_assert_cmpfloat(stats_t95(59), ==, 2.021075);
    g_assert_cmpfloat(stats_t95(60), ==, 2.000298);
    g_assert_cmpfloat(stats_t95(120), ==, 1.979930);
    g_assert_cmpfloat(stats_t95(121), ==, 1.959964);
    g_assert_cmpfloat(stats_t95(100000), ==, 1.959964);
    for (guint df = 1; df < 200; df++) /* never increasing with df */
        g_assert_cmpfloat(stats_t95(df + 1), <=, stats_t95(df));
}

#define EPS 1e-9

static void test_summary(void)
{
    /* 10, 12, 17: mean 13; deviations -3, -1, 4, sum of squares 26, variance 26/2 = 13,
     * sd = sqrt(13) = 3.605551; standard error sqrt(13/3) = 2.081666; t(0.975, 2) = 4.302653;
     * half-width 4.302653 * 2.081666 = 8.956686 */
    const double a[] = { 10, 12, 17 };
    StatsSummary s = stats_summarize(a, 3);
    g_assert_cmpuint(s.n, ==, 3);
    g_assert_cmpfloat_with_epsilon(s.mean, 13.0, EPS);
    g_assert_cmpfloat_with_epsilon(s.sd, sqrt(13.0), EPS);
    g_assert_cmpfloat_with_epsilon(s.half, 8.956686457600954, EPS);
    g_assert_cmpfloat_with_epsilon(s.lo, 13.0 - 8.956686457600954, EPS);
    g_assert_cmpfloat_with_epsilon(s.hi, 13.0 + 8.956686457600954, EPS);

    /* 1..5: mean 3, sd sqrt(10/4) = 1.581139, half 2.776445 * 1.581139 / sqrt(5) = 1.963243 */
    const double b[] = { 1, 2, 3, 4, 5 };
    s = stats_summarize(b, 5);
    g_assert_cmpfloat_with_epsilon(s.sd, 1.5811388300841898, EPS);
    g_assert_cmpfloat_with_epsilon(s.half, 1.9632430870914839, EPS);

    /* two values 2 and 4: sd sqrt(2), standard error 1, half = t(0.975, 1) = 12.706205;
     * NaN and infinity are left out */
    const double c[] = { NAN, 2, INFINITY, 4 };
    s = stats_summarize(c, 4);
    g_assert_cmpuint(s.n, ==, 2);
    g_assert_cmpfloat_with_epsilon(s.mean, 3.0, EPS);
    g_assert_cmpfloat_with_epsilon(s.half, 12.706205, EPS);

    /* one value: no spread, the interval is the point */
    const double d[] = { 7 };
    s = stats_summarize(d, 1);
    g_assert_cmpfloat(s.mean, ==, 7.0);
    g_assert_true(isnan(s.sd));
    g_assert_cmpfloat(s.half, ==, 0.0);
    g_assert_cmpfloat(s.lo, ==, 7.0);
    g_assert_cmpfloat(s.hi, ==, 7.0);

    /* none */
    s = stats_summarize(c, 1);
    g_assert_cmpuint(s.n, ==, 0);
    g_assert_true(isnan(s.mean) && isnan(s.lo) && isnan(s.hi));

    /* a large offset does not cancel: 1e12 + {1, 2, 3} has sd 1 exactly,
     * half 4.302653 / sqrt(3) = 2.484138 */
    const double e[] = { 1e12 + 1, 1e12 + 2, 1e12 + 3 };
    s = stats_summarize(e, 3);
    g_assert_cmpfloat(s.sd, ==, 1.0);
    g_assert_cmpfloat_with_epsilon(s.half, 2.4841378677795514, EPS);
}

/* ---- parameters, grid, directories ----------------------------------------------------------- */

static SweepParam *param(const char *arg)
{
    g_autoptr(GError) err = NULL;
    SweepParam *p = sweep_param_parse(arg, &err);
    g_assert_no_error(err);
    return p;
}

static void test_param_parse(void)
{
    SweepParam *p = param("stack.release_sock.resched_every=1,2, 4 ,64");
    g_assert_cmpstr(p->key, ==, "stack.release_sock.resched_every");
    g_assert_cmpuint(p->values->len, ==, 4);
    g_assert_cmpstr(g_ptr_array_index(p->values, 2), ==, "4");
    g_assert_cmpstr(g_ptr_array_index(p->values, 3), ==, "64");
    sweep_param_free(p);
    p = param("workloads.bulk.to_cpus=[0,1],[2-3, 5],[]");
    g_assert_cmpuint(p->values->len, ==, 3);
    g_assert_cmpstr(g_ptr_array_index(p->values, 0), ==, "[0,1]");
    g_assert_cmpstr(g_ptr_array_index(p->values, 1), ==, "[2-3, 5]");
    g_assert_cmpstr(g_ptr_array_index(p->values, 2), ==, "[]");
    sweep_param_free(p);
    const char *bad[] = { "key", "=1,2", "key=", "key=1,,2", "key=1,", "key=[0,1", "key=0]" };
    for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
        g_autoptr(GError) err = NULL;
        g_assert_null(sweep_param_parse(bad[i], &err));
        g_assert_nonnull(err);
        g_assert_true(g_str_has_prefix(err->message, "--param '"));
    }
}

static GPtrArray *params_of(const char *a, const char *b)
{
    GPtrArray *params = g_ptr_array_new_with_free_func(sweep_param_free);
    g_ptr_array_add(params, param(a));
    if (b)
        g_ptr_array_add(params, param(b));
    return params;
}

static void test_grid(void)
{
    g_autoptr(GPtrArray) params = params_of("a=1,2,3", "b=x,y");
    g_assert_cmpuint(sweep_grid_size(params), ==, 6);
    /* the first parameter varies slowest */
    const guint want[6][2] = { { 0, 0 }, { 0, 1 }, { 1, 0 }, { 1, 1 }, { 2, 0 }, { 2, 1 } };
    for (guint g = 0; g < 6; g++) {
        guint idx[2];
        sweep_grid_point(params, g, idx);
        g_assert_cmpuint(idx[0], ==, want[g][0]);
        g_assert_cmpuint(idx[1], ==, want[g][1]);
    }
    g_autoptr(GPtrArray) none = g_ptr_array_new();
    g_assert_cmpuint(sweep_grid_size(none), ==, 1);
}

static void test_dirs(void)
{
    g_autofree char *a = sweep_dir_component("hosts.server.cpus", "2");
    g_assert_cmpstr(a, ==, "hosts.server.cpus=2");
    g_autofree char *b = sweep_dir_component("workloads.bulk.to_cpus", "[0, 1]");
    g_assert_cmpstr(b, ==, "workloads.bulk.to_cpus=_0__1_");
    g_autofree char *c = sweep_dir_component("links.wire.loss", "1.5%");
    g_assert_cmpstr(c, ==, "links.wire.loss=1.5%");
    g_autofree char *d = sweep_dir_component("k", "../x/y");
    g_assert_cmpstr(d, ==, "k=.._x_y");
    g_autoptr(GPtrArray) params = params_of("a=1,2", "b=x,y");
    guint idx[2] = { 1, 0 };
    g_autofree char *sub = sweep_run_subdir(params, idx, 42);
    g_assert_cmpstr(sub, ==, "a=2/b=x/seed-42");
}

/* ---- sweep.csv and figure data --------------------------------------------------------------- */

static RunResult *result(double goodput_bps, guint64 retrans, guint64 events, double wall_s)
{
    RunResult *r = run_result_new();
    r->variant = g_strdup("after");
    HostResult *h = host_result_new("server");
    h->counters.v[CTR_TcpRetransSegs] = retrans;
    h->counters.v[CTR_TcpOutSegs] = 1000;
    g_ptr_array_add(r->hosts, h);
    HostResult *c = host_result_new("client");
    c->counters.v[CTR_TcpRetransSegs] = 1;
    g_ptr_array_add(r->hosts, c);
    FlowResult *f = flow_result_new("bulk/0", "bulk", "client", "server");
    f->goodput_bps = goodput_bps;
    f->transactions_per_s = 0.5;
    g_ptr_array_add(r->flows, f);
    r->events = events;
    r->wall_s = wall_s;
    return r;
}

static SweepRow *row(guint point, uint64_t seed, const char *variant, RunResult *r)
{
    SweepRow *w = g_new0(SweepRow, 1);
    w->point = point;
    w->seed = seed;
    w->variant = g_strdup(variant);
    w->result = r;
    return w;
}

static void test_csv(void)
{
    g_autoptr(GPtrArray) params = params_of("stack.release_sock.resched_every=1,16",
                                            "workloads.bulk.to_cpus=[0,1]");
    g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func(sweep_row_free);
    g_ptr_array_add(rows, row(0, 1, "after", result(1e9, 3, 100, 0.25)));
    g_ptr_array_add(rows, row(0, 2, "after", result(2e9, 4, 101, 0.5)));
    g_ptr_array_add(rows, row(1, 1, "after", NULL)); /* not loaded: left out */
    g_ptr_array_add(rows, row(1, 2, "after", result(NAN, 5, 102, 1)));
    g_autoptr(GPtrArray) report = g_ptr_array_new();
    g_ptr_array_add(report, "TCPTimeouts");
    g_ptr_array_add(report, "TcpRetransSegs");
    g_autoptr(GPtrArray) metrics = sweep_metrics(report);
    g_assert_cmpuint(metrics->len, ==, 4);
    g_autofree char *csv = sweep_csv(params, rows, metrics, "server");
    g_assert_cmpstr(csv, ==,
                    "stack.release_sock.resched_every,workloads.bulk.to_cpus,seed,variant,"
                    "goodput_bps,transactions_per_s,TcpExtTCPTimeouts,TcpRetransSegs,events,"
                    "wall_s\n"
                    "1,\"[0,1]\",1,after,1000000000,0.5,0,3,100,0.25\n"
                    "1,\"[0,1]\",2,after,2000000000,0.5,0,4,101,0.5\n"
                    "16,\"[0,1]\",2,after,,0.5,0,5,102,1\n");
    /* without a report host, counters are summed over hosts */
    g_autofree char *all = sweep_csv(params, rows, metrics, NULL);
    g_assert_nonnull(strstr(all, "\n1,\"[0,1]\",1,after,1000000000,0.5,0,4,100,0.25\n"));
}

static void test_metric_dat(void)
{
    g_autoptr(GPtrArray) params = params_of("k=1,4", NULL);
    g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func(sweep_row_free);
    /* k=1: 10, 12, 17 Gbit/s (the hand-computed case of test_summary); k=4: 2 and 4 Gbit/s and
     * a seed without result */
    g_ptr_array_add(rows, row(0, 1, "after", result(10e9, 0, 1, 0)));
    g_ptr_array_add(rows, row(0, 2, "after", result(12e9, 0, 1, 0)));
    g_ptr_array_add(rows, row(0, 3, "after", result(17e9, 0, 1, 0)));
    g_ptr_array_add(rows, row(1, 1, "after", result(2e9, 0, 1, 0)));
    g_ptr_array_add(rows, row(1, 2, "after", result(4e9, 0, 1, 0)));
    g_ptr_array_add(rows, row(1, 3, "after", NULL));
    g_autoptr(GPtrArray) metrics = sweep_metrics(NULL);
    g_autoptr(GPtrArray) variants = g_ptr_array_new();
    g_ptr_array_add(variants, "after");
    g_autoptr(GPtrArray) labels = g_ptr_array_new_with_free_func(g_free);
    g_autoptr(GArray) sv = g_array_new(FALSE, FALSE, sizeof(guint));
    g_autofree char *dat = sweep_metric_dat(params, rows, g_ptr_array_index(metrics, 0), NULL,
                                            variants, labels, sv);
    /* 13 -+ 8.956686, 3 -+ 12.706205 */
    g_assert_cmpstr(dat, ==,
                    "# goodput_bps against k: x mean lo95 hi95 n label (mean and 95 % CI over "
                    "seeds)\n"
                    "1 13 4.043313542 21.95668646 3 \"1\"\n"
                    "4 3 -9.706205 15.706205 2 \"4\"\n");
    g_assert_cmpuint(labels->len, ==, 1);
    g_assert_cmpstr(g_ptr_array_index(labels, 0), ==, "after");
}

static void test_metric_dat_series(void)
{
    /* a categorical first parameter (positions 0, 1) and a second parameter: one series per
     * value of the second parameter and variant, in grid order */
    g_autoptr(GPtrArray) params = params_of("cc=cubic,reno", "n=1,2");
    g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func(sweep_row_free);
    const char *vs[] = { "before", "after" };
    for (guint g = 0; g < 4; g++)
        for (guint v = 0; v < 2; v++) {
            RunResult *r = result(1e9 * (g * 2 + v + 1), 0, 1, 0);
            g_ptr_array_add(rows, row(g, 1, vs[v], r));
        }
    g_autoptr(GPtrArray) metrics = sweep_metrics(NULL);
    g_autoptr(GPtrArray) variants = g_ptr_array_new();
    g_ptr_array_add(variants, "before");
    g_ptr_array_add(variants, "after");
    g_autoptr(GPtrArray) labels = g_ptr_array_new_with_free_func(g_free);
    g_autoptr(GArray) sv = g_array_new(FALSE, FALSE, sizeof(guint));
    g_autofree char *dat = sweep_metric_dat(params, rows, g_ptr_array_index(metrics, 0), NULL,
                                            variants, labels, sv);
    /* point g = cc * 2 + n; goodput of (g, variant v) = 2g + v + 1 Gbit/s */
    g_assert_cmpstr(strchr(dat, '\n') + 1, ==,
                    "0 1 1 1 1 \"cubic\"\n1 5 5 5 1 \"reno\"\n\n\n"
                    "0 2 2 2 1 \"cubic\"\n1 6 6 6 1 \"reno\"\n\n\n"
                    "0 3 3 3 1 \"cubic\"\n1 7 7 7 1 \"reno\"\n\n\n"
                    "0 4 4 4 1 \"cubic\"\n1 8 8 8 1 \"reno\"\n");
    g_assert_cmpuint(labels->len, ==, 4);
    g_assert_cmpstr(g_ptr_array_index(labels, 0), ==, "before n=1");
    g_assert_cmpstr(g_ptr_array_index(labels, 3), ==, "after n=2");
    g_assert_cmpuint(g_array_index(sv, guint, 3), ==, 1);
}

static void test_values_numeric(void)
{
    g_autoptr(GPtrArray) p = params_of("a=1,2,4,8,16,32,64", NULL);
    gboolean logx = FALSE;
    g_assert_true(sweep_values_numeric(((SweepParam *)g_ptr_array_index(p, 0))->values, &logx));
    g_assert_true(logx);
    g_autoptr(GPtrArray) q = params_of("a=0,1,2", NULL);
    g_assert_true(sweep_values_numeric(((SweepParam *)g_ptr_array_index(q, 0))->values, &logx));
    g_assert_false(logx);
    g_autoptr(GPtrArray) r = params_of("a=10ms,20ms", NULL);
    g_assert_false(sweep_values_numeric(((SweepParam *)g_ptr_array_index(r, 0))->values, &logx));
}

/* ---- metrics.json read back ------------------------------------------------------------------ */

static void write_metrics(const char *dir, const RunResult *r)
{
    g_autofree char *json = output_metrics_json(r);
    g_autofree char *path = g_build_filename(dir, "metrics.json", NULL);
    g_assert_true(g_file_set_contents(path, json, -1, NULL));
}

static void test_load_metrics(void)
{
    g_autofree char *dir = g_dir_make_tmp("sksim-sweep-XXXXXX", NULL);
    g_autoptr(RunResult) r = result(1.2345678901234567e9, 7, 123456789, 0.125);
    r->scenario = g_strdup("demo");
    r->title = g_strdup("Demo");
    r->seed = 5;
    r->duration_ns = 1000000000;
    r->warmup_ns = 100000000;
    r->measured_ns = 900000000;
    write_metrics(dir, r);
    g_autofree char *path = g_build_filename(dir, "metrics.json", NULL);
    g_autoptr(GError) err = NULL;
    g_autoptr(RunResult) back = sweep_load_metrics(path, &err);
    g_assert_no_error(err);
    g_assert_cmpstr(back->scenario, ==, "demo");
    g_assert_cmpstr(back->variant, ==, "after");
    g_assert_cmpuint(back->seed, ==, 5);
    g_assert_cmpint(back->measured_ns, ==, 900000000);
    g_assert_cmpuint(back->events, ==, 123456789);
    g_assert_cmpfloat(back->wall_s, ==, 0.125);
    g_assert_false(back->interrupted);
    g_assert_cmpuint(back->hosts->len, ==, 2);
    const HostResult *h = g_ptr_array_index(back->hosts, 0);
    g_assert_cmpstr(h->name, ==, "server");
    g_assert_cmpuint(h->counters.v[CTR_TcpRetransSegs], ==, 7);
    g_assert_cmpuint(h->counters.v[CTR_TcpOutSegs], ==, 1000);
    const FlowResult *f = g_ptr_array_index(back->flows, 0);
    g_assert_cmpstr(f->name, ==, "bulk/0");
    g_assert_cmpfloat(f->goodput_bps, ==, 1.2345678901234567e9); /* 17 digits: exact */

    g_assert_true(sweep_run_complete(dir, "demo", "after", 5));
    g_assert_false(sweep_run_complete(dir, "demo", "after", 6));
    g_assert_false(sweep_run_complete(dir, "demo", "before", 5));
    g_assert_false(sweep_run_complete(dir, "other", "after", 5));
    r->interrupted = true;
    write_metrics(dir, r);
    g_assert_false(sweep_run_complete(dir, "demo", "after", 5));
    /* a truncated file (no sim block) is not complete */
    g_autofree char *json = NULL;
    r->interrupted = false;
    json = output_metrics_json(r);
    char *sim = strstr(json, "  \"sim\"");
    g_assert_nonnull(sim);
    strcpy(sim, "  \"x\": 1\n}\n");
    g_assert_true(g_file_set_contents(path, json, -1, NULL));
    g_assert_false(sweep_run_complete(dir, "demo", "after", 5));
    g_assert_true(g_file_set_contents(path, "{\"scenario\": ", -1, NULL));
    g_assert_false(sweep_run_complete(dir, "demo", "after", 5));
    g_unlink(path);
    g_assert_false(sweep_run_complete(dir, "demo", "after", 5));
    g_rmdir(dir);
}

static void test_overrides(void)
{
    const char *sets[] = { "k=1", "seed=3", "duration=1s", NULL };
    g_autofree char *text = sweep_overrides_text(sets);
    g_assert_cmpstr(text, ==, "k=1\nseed=3\nduration=1s\n");
    g_autofree char *dir = g_dir_make_tmp("sksim-sweep-XXXXXX", NULL);
    g_assert_false(sweep_overrides_match(dir, text)); /* no file */
    g_autofree char *path = g_build_filename(dir, SWEEP_OVERRIDES_FILE, NULL);
    g_assert_true(g_file_set_contents(path, text, -1, NULL));
    g_assert_true(sweep_overrides_match(dir, text));
    g_assert_false(sweep_overrides_match(dir, "k=1\nseed=3\n"));
    g_unlink(path);
    g_rmdir(dir);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/stats/t-table", test_t_table);
    g_test_add_func("/stats/summary", test_summary);
    g_test_add_func("/sweep/param-parse", test_param_parse);
    g_test_add_func("/sweep/grid", test_grid);
    g_test_add_func("/sweep/dirs", test_dirs);
    g_test_add_func("/sweep/csv", test_csv);
    g_test_add_func("/sweep/metric-dat", test_metric_dat);
    g_test_add_func("/sweep/metric-dat-series", test_metric_dat_series);
    g_test_add_func("/sweep/values-numeric", test_values_numeric);
    g_test_add_func("/sweep/load-metrics", test_load_metrics);
    g_test_add_func("/sweep/overrides", test_overrides);
    return g_test_run();
}
