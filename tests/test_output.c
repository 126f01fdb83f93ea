/* test_output.c - the output formats and the pieces of the command line that need no scenario:
 * JSON escaping and layout, the nstat text, the metrics.json key order, atomic writes, the
 * expect-expression evaluator and the progress line.
 *
 * Expected texts are spelled out in full where a format is a contract with scripts and users
 * (nstat lines, JSON layout), so that any change to them is a deliberate test change.
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sim/cli.h"
#include "sim/expr.h"
#include "sim/json.h"
#include "sim/output.h"
#include "sim/progress.h"
#include "sim/results.h"

/* ---- JSON ----------------------------------------------------------------------------------- */

static char *escaped(const char *s)
{
    GString *out = g_string_new(NULL);
    json_append_escaped(out, s);
    return g_string_free(out, FALSE);
}

static void test_json_escape(void)
{
    g_autofree char *q = escaped("say \"hi\"");
    g_assert_cmpstr(q, ==, "\"say \\\"hi\\\"\"");
    g_autofree char *b = escaped("C:\\dir\\");
    g_assert_cmpstr(b, ==, "\"C:\\\\dir\\\\\"");
    g_autofree char *c = escaped("a\nb\tc\rd\be\ff\001g\037h\177");
    g_assert_cmpstr(c, ==, "\"a\\nb\\tc\\rd\\be\\ff\\u0001g\\u001fh\177\"");
    g_autofree char *u = escaped("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
    g_assert_cmpstr(u, ==, "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"");
    g_autofree char *bad = escaped("a\xff" "b");
    g_assert_cmpstr(bad, ==, "\"a\\ufffdb\"");
    g_autofree char *empty = escaped("");
    g_assert_cmpstr(empty, ==, "\"\"");
}

static void test_json_layout(void)
{
    g_autoptr(GString) s = g_string_new(NULL);
    g_autoptr(JsonWriter) w = json_writer_new(s, true);
    json_begin_object(w);
    json_member_string(w, "name", "x");
    json_key(w, "list");
    json_begin_array(w);
    json_int(w, -3);
    json_uint(w, G_MAXUINT64);
    json_double(w, 0.1);
    json_double(w, 1.0);
    json_double(w, NAN);
    json_double(w, INFINITY);
    json_double(w, -INFINITY);
    json_bool(w, false);
    json_null(w);
    json_string(w, NULL);
    json_end_array(w);
    json_key(w, "empty_object");
    json_begin_object(w);
    json_end_object(w);
    json_key(w, "empty_array");
    json_begin_array(w);
    json_end_array(w);
    json_key(w, "nested");
    json_begin_object(w);
    json_member_double(w, "small", 2e-5);
    json_end_object(w);
    json_end_object(w);
    g_assert_cmpstr(s->str, ==,
                    "{\n"
                    "  \"name\": \"x\",\n"
                    "  \"list\": [\n"
                    "    -3,\n"
                    "    18446744073709551615,\n"
                    "    0.10000000000000001,\n"
                    "    1,\n"
                    "    null,\n"
                    "    null,\n"
                    "    null,\n"
                    "    false,\n"
                    "    null,\n"
                    "    null\n"
                    "  ],\n"
                    "  \"empty_object\": {},\n"
                    "  \"empty_array\": [],\n"
                    "  \"nested\": {\n"
                    "    \"small\": 2.0000000000000002e-05\n"
                    "  }\n"
                    "}\n");
}

static void test_json_compact(void)
{
    g_autoptr(GString) s = g_string_new(NULL);
    g_autoptr(JsonWriter) w = json_writer_new(s, false);
    json_begin_array(w);
    json_begin_object(w);
    json_member_uint(w, "a", 1);
    json_member_bool(w, "b", true);
    json_end_object(w);
    json_string(w, "z");
    json_end_array(w);
    g_assert_cmpstr(s->str, ==, "[{\"a\":1,\"b\":true},\"z\"]");
}

/* ---- nstat ---------------------------------------------------------------------------------- */

static void test_nstat_text(void)
{
    HostResult h = { .name = "client" };
    h.counters.v[CTR_TcpInSegs] = 1397;
    h.counters.v[CTR_TcpExtTCPTimeouts] = 5;
    h.counters.v[CTR_IpExtOutOctets] = 12345678901234567ull;
    h.counters.v[CTR_SksimRTOPeerOwnerOffCpu] = 5; /* sksim's diagnosis: no kernel prints it */
    g_autofree char *text = output_nstat_text(&h);
    /* iproute2 misc/nstat.c: "%-32s%-16llu%6.1f\n" */
    g_assert_cmpstr(text, ==,
                    "#kernel\n"
                    "TcpInSegs                       1397               0.0\n"
                    "TcpExtTCPTimeouts               5                  0.0\n"
                    "IpExtOutOctets                  12345678901234567   0.0\n");
    HostResult zero = { .name = "idle" };
    g_autofree char *none = output_nstat_text(&zero);
    g_assert_cmpstr(none, ==, "#kernel\n");
}

/* ---- metrics.json --------------------------------------------------------------------------- */

static RunResult *sample_result(void)
{
    RunResult *r = run_result_new();
    r->scenario = g_strdup("demo");
    r->title = g_strdup("A \"demo\"");
    r->variant = g_strdup("after");
    r->seed = 42;
    r->duration_ns = 3 * SIM_S;
    r->warmup_ns = SIM_S / 2;
    r->measured_ns = r->duration_ns - r->warmup_ns;
    HostResult *client = host_result_new("client");
    client->counters.v[CTR_TcpOutSegs] = 10;
    client->counters.v[CTR_TcpRetransSegs] = 2;
    HostResult *server = host_result_new("server");
    server->counters.v[CTR_TcpOutSegs] = 7;
    g_ptr_array_add(r->hosts, client);
    g_ptr_array_add(r->hosts, server);
    FlowResult *f = flow_result_new("bulk/0", "bulk", "client", "server");
    f->bytes_delivered = 1000;
    f->goodput_bps = 3200.0;
    f->retrans_segs = 2;
    f->transactions = 4;
    f->transactions_per_s = 1.6;
    f->srtt_ns = 1500 * SIM_US;
    f->cwnd = 10;
    g_ptr_array_add(r->flows, f);
    FlowResult *g = flow_result_new("bulk/1", "bulk", "client", "server");
    g->goodput_bps = 800.0;
    g->bytes_delivered = 250;
    g_ptr_array_add(r->flows, g);
    r->events = 123;
    r->wall_s = 0.5;
    r->events_per_s = 246.0;
    r->fp_events = 0xdeadbeefull;
    r->fp_counters = 0x0123456789abcdefull;
    return r;
}

/* Each needle occurs, in this order. */
static void assert_in_order(const char *text, const char *const *needles)
{
    const char *at = text;
    for (guint i = 0; needles[i]; i++) {
        const char *hit = strstr(at, needles[i]);
        if (!hit)
            g_error("'%s' missing or out of order in:\n%s", needles[i], text);
        at = hit + 1; /* needles may share their separating newline */
    }
}

static void test_metrics_json(void)
{
    g_autoptr(RunResult) r = sample_result();
    g_autofree char *json = output_metrics_json(r);
    const char *const top[] = {
        "{\n  \"scenario\": \"demo\",\n",
        "\n  \"title\": \"A \\\"demo\\\"\",\n",
        "\n  \"variant\": \"after\",\n",
        "\n  \"seed\": 42,\n",
        "\n  \"duration_s\": 3,\n",
        "\n  \"warmup_s\": 0.5,\n",
        "\n  \"measured_s\": 2.5,\n",
        "\n  \"interrupted\": false,\n",
        "\n  \"hosts\": {\n    \"client\": {\n      \"counters\": {\n        \"TcpInSegs\": 0,\n",
        "\n    \"server\": {\n",
        "\n  \"flows\": [\n    {\n      \"name\": \"bulk/0\",\n",
        "\n      \"workload\": \"bulk\",\n",
        "\n      \"from\": \"client\",\n",
        "\n      \"to\": \"server\",\n",
        "\n      \"bytes_delivered\": 1000,\n",
        "\n      \"goodput_bps\": 3200,\n",
        "\n      \"retrans_segs\": 2,\n",
        "\n      \"transactions\": 4,\n",
        "\n      \"transactions_per_s\": 1.6000000000000001,\n",
        "\n      \"srtt_us\": 1500,\n",
        "\n      \"cwnd\": 10\n    },\n",
        "\n      \"name\": \"bulk/1\",\n",
        "\n  \"fingerprint\": {\n    \"events\": \"00000000deadbeef\",\n"
        "    \"counters\": \"0123456789abcdef\"\n  },\n",
        "\n  \"sim\": {\n    \"events\": 123,\n    \"wall_s\": 0.5,\n"
        "    \"events_per_s\": 246\n  }\n}\n",
        NULL,
    };
    assert_in_order(json, top);
    g_assert_true(g_str_has_suffix(json, "\"events_per_s\": 246\n  }\n}\n"));
    /* every counter of a host, in table order, zeros included */
    const char *client = strstr(json, "\"client\"");
    const char *server = strstr(json, "\"server\"");
    g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
    for (int id = 0; id < CTR_COUNT; id++)
        g_ptr_array_add(names, g_strdup_printf("\"%s\": ", counter_name((CounterId)id)));
    g_ptr_array_add(names, NULL);
    assert_in_order(client, (const char *const *)names->pdata);
    assert_in_order(server, (const char *const *)names->pdata);
    g_assert_nonnull(strstr(client, "\"TcpOutSegs\": 10,"));
    g_assert_nonnull(strstr(server, "\"TcpOutSegs\": 7,"));
}

static void test_metrics_base_variant(void)
{
    g_autoptr(RunResult) r = run_result_new();
    r->scenario = g_strdup("s");
    r->interrupted = true;
    g_autofree char *json = output_metrics_json(r);
    const char *const needles[] = { "\"title\": null,", "\"variant\": \"base\",",
                                    "\"interrupted\": true,", "\"hosts\": {},", "\"flows\": [],",
                                    NULL };
    assert_in_order(json, needles);
}

/* ---- writing files -------------------------------------------------------------------------- */

static guint count_entries(const char *dir)
{
    g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
    g_assert_nonnull(d);
    guint n = 0;
    while (g_dir_read_name(d))
        n++;
    return n;
}

static char *read_text(const char *path)
{
    char *text = NULL;
    g_autoptr(GError) err = NULL;
    g_assert_true(g_file_get_contents(path, &text, NULL, &err));
    return text;
}

static void test_atomic_write(void)
{
    g_autoptr(GError) err = NULL;
    g_autofree char *tmp = g_dir_make_tmp("sksim-out-XXXXXX", &err);
    g_assert_no_error(err);
    g_autofree char *path = g_build_filename(tmp, "sub", "f.txt", NULL);
    g_assert_true(output_write_atomic(path, "one\n", 4, &err));
    g_assert_true(output_write_atomic(path, "two", 3, &err));
    g_assert_no_error(err);
    g_autofree char *text = read_text(path);
    g_assert_cmpstr(text, ==, "two");
    g_autofree char *sub = g_build_filename(tmp, "sub", NULL);
    g_assert_cmpuint(count_entries(sub), ==, 1); /* no temporary file left */
    g_assert_cmpint(g_remove(path), ==, 0);
    g_assert_cmpint(g_rmdir(sub), ==, 0);
    g_assert_cmpint(g_rmdir(tmp), ==, 0);
}

static void test_write_run(void)
{
    g_autoptr(GError) err = NULL;
    g_autofree char *tmp = g_dir_make_tmp("sksim-out-XXXXXX", &err);
    g_autofree char *dir = g_build_filename(tmp, "demo", "after", NULL);
    g_autoptr(RunResult) r = sample_result();
    g_assert_true(output_write_run(r, dir, &err));
    g_assert_no_error(err);
    g_assert_cmpuint(count_entries(dir), ==, 4); /* metrics, 2 nstat, csv: nothing else */
    const char *const files[] = { "metrics.json", "client.nstat", "server.nstat",
                                  "timeseries.csv" };
    for (guint i = 0; i < G_N_ELEMENTS(files); i++) {
        g_autofree char *path = g_build_filename(dir, files[i], NULL);
        g_autofree char *text = read_text(path);
        if (i == 1)
            g_assert_true(g_str_has_prefix(text, "#kernel\nTcpOutSegs "));
        if (i == 3)
            g_assert_cmpstr(text, ==, "time_s\n");
        g_assert_cmpint(g_remove(path), ==, 0);
    }
    g_assert_cmpint(g_rmdir(dir), ==, 0);
    g_autofree char *parent = g_path_get_dirname(dir);
    g_assert_cmpint(g_rmdir(parent), ==, 0);
    g_assert_cmpint(g_rmdir(tmp), ==, 0);
}

static void test_write_run_bad_host(void)
{
    g_autoptr(GError) err = NULL;
    g_autofree char *tmp = g_dir_make_tmp("sksim-out-XXXXXX", &err);
    g_autoptr(RunResult) r = run_result_new();
    g_ptr_array_add(r->hosts, host_result_new("../escape"));
    g_assert_false(output_write_run(r, tmp, &err));
    g_assert_error(err, G_FILE_ERROR, G_FILE_ERROR_INVAL);
    g_autofree char *metrics = g_build_filename(tmp, "metrics.json", NULL);
    g_remove(metrics);
    g_assert_cmpint(g_rmdir(tmp), ==, 0);
}

/* ---- aggregates ----------------------------------------------------------------------------- */

static void test_result_metrics(void)
{
    g_autoptr(RunResult) r = sample_result();
    double v = -1;
    g_assert_true(run_result_metric(r, "goodput", &v));
    g_assert_cmpfloat(v, ==, 4000.0);
    g_assert_true(run_result_metric(r, "bytes", &v));
    g_assert_cmpfloat(v, ==, 1250.0);
    g_assert_true(run_result_metric(r, "retrans", &v));
    g_assert_cmpfloat(v, ==, 2.0);
    g_assert_true(run_result_metric(r, "transactions_per_s", &v));
    g_assert_cmpfloat(v, ==, 1.6);
    g_assert_false(run_result_metric(r, "speed", &v));
    /* the slowest flow: bulk/1 (800 bit/s, 0 transactions) against bulk/0 (3200, 1.6) */
    g_assert_true(run_result_metric_min(r, "goodput", &v));
    g_assert_cmpfloat(v, ==, 800.0);
    g_assert_true(run_result_metric_min(r, "transactions_per_s", &v));
    g_assert_cmpfloat(v, ==, 0.0);
    g_assert_false(run_result_metric_min(r, "speed", &v));
    g_ptr_array_set_size(r->flows, 0);
    g_assert_false(run_result_metric_min(r, "goodput", &v));
    g_assert_true(run_result_counter(r, NULL, "TcpOutSegs", &v));
    g_assert_cmpfloat(v, ==, 17.0);
    g_assert_true(run_result_counter(r, "server", "TcpOutSegs", &v));
    g_assert_cmpfloat(v, ==, 7.0);
    g_assert_true(run_result_counter(r, "client", "RetransSegs", &v));
    g_assert_cmpfloat(v, ==, 2.0);
    g_assert_false(run_result_counter(r, "nobody", "TcpOutSegs", &v));
    g_assert_false(run_result_counter(r, NULL, "NoSuchCounter", &v));
    /* a report counter: HOST.COUNTER names its host whatever the report host is */
    g_assert_true(run_result_report_counter(r, "client", "server.TcpOutSegs", &v));
    g_assert_cmpfloat(v, ==, 7.0);
    g_assert_true(run_result_report_counter(r, NULL, "server.TcpOutSegs", &v));
    g_assert_cmpfloat(v, ==, 7.0);
    g_assert_true(run_result_report_counter(r, "server", "TcpOutSegs", &v));
    g_assert_cmpfloat(v, ==, 7.0);
    g_assert_true(run_result_report_counter(r, NULL, "TcpOutSegs", &v));
    g_assert_cmpfloat(v, ==, 17.0);
    g_assert_false(run_result_report_counter(r, NULL, "nobody.TcpOutSegs", &v));
}

/* ---- expressions ---------------------------------------------------------------------------- */

/* Identifiers for the pure-arithmetic tests: x = 2, y.z = 10, anything else unknown. */
static gboolean resolve_simple(const char *ident, void *ctx, double *out, GError **error)
{
    if (strcmp(ident, "x") == 0) {
        *out = 2.0;
        return TRUE;
    }
    if (strcmp(ident, "y.z") == 0) {
        *out = 10.0;
        return TRUE;
    }
    g_set_error(error, SKSIM_EXPR_ERROR, SKSIM_EXPR_ERROR_UNKNOWN, "unknown '%s'", ident);
    return FALSE;
}

static double eval_ok(const char *text)
{
    double v = NAN;
    g_autoptr(GError) err = NULL;
    if (!expr_eval(text, resolve_simple, NULL, &v, &err))
        g_error("'%s': %s", text, err->message);
    return v;
}

static void assert_eval_error(const char *text, int code, const char *message)
{
    double v = NAN;
    g_autoptr(GError) err = NULL;
    g_assert_false(expr_eval(text, resolve_simple, NULL, &v, &err));
    g_assert_error(err, SKSIM_EXPR_ERROR, code);
    if (!strstr(err->message, message))
        g_error("'%s': message '%s' lacks '%s'", text, err->message, message);
}

static void test_expr_arithmetic(void)
{
    g_assert_cmpfloat(eval_ok("1 + 2 * 3"), ==, 7.0);
    g_assert_cmpfloat(eval_ok("(1 + 2) * 3"), ==, 9.0);
    g_assert_cmpfloat(eval_ok("10 - 4 - 3"), ==, 3.0);
    g_assert_cmpfloat(eval_ok("10 / 4 / 5"), ==, 0.5);
    g_assert_cmpfloat(eval_ok("-2 * -3"), ==, 6.0);
    g_assert_cmpfloat(eval_ok("- (1 - 3)"), ==, 2.0);
    g_assert_cmpfloat(eval_ok("+4"), ==, 4.0);
    g_assert_cmpfloat(eval_ok("2e-5 * 1e5"), ==, 2.0);
    g_assert_cmpfloat(eval_ok("1.5E+2"), ==, 150.0);
    g_assert_cmpfloat(eval_ok(".5 + 1."), ==, 1.5);
    g_assert_cmpfloat(eval_ok("  x*y.z + x  "), ==, 22.0);
    g_assert_cmpfloat(eval_ok("((((x))))"), ==, 2.0);
    g_assert_cmpfloat(eval_ok("y.z / x / x"), ==, 2.5);
}

static void test_expr_errors(void)
{
    assert_eval_error("1 +", SKSIM_EXPR_ERROR_SYNTAX, "column 4: unexpected end");
    assert_eval_error("(1 + 2", SKSIM_EXPR_ERROR_SYNTAX, "column 1: '(' is never closed");
    assert_eval_error("1 2", SKSIM_EXPR_ERROR_SYNTAX, "column 3: unexpected '2'");
    assert_eval_error("2e", SKSIM_EXPR_ERROR_SYNTAX, "malformed number");
    assert_eval_error("2x", SKSIM_EXPR_ERROR_SYNTAX, "unexpected letter");
    assert_eval_error("x.", SKSIM_EXPR_ERROR_SYNTAX, "end with '.'");
    assert_eval_error("", SKSIM_EXPR_ERROR_SYNTAX, "unexpected end");
    assert_eval_error("1 % 2", SKSIM_EXPR_ERROR_SYNTAX, "unexpected '%'");
    assert_eval_error("3 * nope", SKSIM_EXPR_ERROR_UNKNOWN, "column 5: unknown 'nope'");
    assert_eval_error("x / (x - 2)", SKSIM_EXPR_ERROR_DIV_ZERO, "column 3: division by zero");
    g_autofree char *deep = g_strnfill(200, '(');
    assert_eval_error(deep, SKSIM_EXPR_ERROR_SYNTAX, "nested too deeply");
}

static GPtrArray *two_results(void)
{
    GPtrArray *results = g_ptr_array_new_with_free_func((GDestroyNotify)run_result_free);
    RunResult *before = sample_result();
    g_free(before->variant);
    before->variant = g_strdup("before");
    ((FlowResult *)g_ptr_array_index(before->flows, 1))->goodput_bps = 0.0; /* 3200 total */
    g_ptr_array_add(results, before);
    g_ptr_array_add(results, sample_result()); /* "after": 4000 total */
    return results;
}

static void assert_results_error(const GPtrArray *results, const char *text, const char *message)
{
    double v;
    g_autoptr(GError) err = NULL;
    g_assert_false(expr_eval_results(text, results, &v, &err));
    if (!strstr(err->message, message))
        g_error("'%s': message '%s' lacks '%s'", text, err->message, message);
}

static void test_expr_results(void)
{
    g_autoptr(GPtrArray) results = two_results();
    double v = NAN;
    g_autoptr(GError) err = NULL;
    g_assert_true(expr_eval_results("after.goodput / before.goodput", results, &v, &err));
    g_assert_cmpfloat(v, ==, 1.25);
    g_assert_true(expr_eval_results("before.TcpOutSegs", results, &v, &err));
    g_assert_cmpfloat(v, ==, 17.0);
    g_assert_true(expr_eval_results("before.client.TcpRetransSegs / before.client.TcpOutSegs",
                                    results, &v, &err));
    g_assert_cmpfloat(v, ==, 0.2);
    g_assert_no_error(err);
    assert_results_error(results, "aftr.goodput", "column 1: unknown variant 'aftr' (variants: "
                                                  "before, after)");
    assert_results_error(results, "1 + after.speed", "column 5: unknown metric or counter 'speed'");
    assert_results_error(results, "after.nobody.TcpOutSegs", "unknown host 'nobody'");
    assert_results_error(results, "after.client.Nope", "unknown counter 'Nope'");
    assert_results_error(results, "after", "is not VARIANT.METRIC");
    assert_results_error(results, "after.a.b.c", "is not VARIANT.METRIC");
    assert_results_error(results, "after.goodput / after.server.TcpRetransSegs", "division by zero");
}

static void test_expr_check(void)
{
    const char *const variants[] = { "before", "after", NULL };
    const char *const hosts[] = { "client", "server", NULL };
    g_autoptr(GError) err = NULL;
    g_assert_true(expr_check("after.goodput / before.goodput", variants, hosts, &err));
    g_assert_true(expr_check("after.server.TCPTimeouts / (after.retrans - after.retrans)", variants,
                             hosts, &err));
    g_assert_no_error(err);
    g_assert_false(expr_check("after.goodput / befor.goodput", variants, hosts, &err));
    g_assert_error(err, SKSIM_EXPR_ERROR, SKSIM_EXPR_ERROR_UNKNOWN);
    g_clear_error(&err);
    g_assert_false(expr_check("after.router.TcpInSegs", variants, hosts, &err));
    g_assert_error(err, SKSIM_EXPR_ERROR, SKSIM_EXPR_ERROR_UNKNOWN);
    g_clear_error(&err);
    g_assert_false(expr_check("after.goodput *", variants, hosts, &err));
    g_assert_error(err, SKSIM_EXPR_ERROR, SKSIM_EXPR_ERROR_SYNTAX);
}

/* ---- compare report ------------------------------------------------------------------------ */

static CompareRow *make_row(const char *name, double scale, int decimals, double a, double b)
{
    CompareRow *row = compare_row_new(name, name, scale, decimals);
    g_array_append_val(row->values, a);
    g_array_append_val(row->values, b);
    return row;
}

static void test_compare_table(void)
{
    g_autoptr(GPtrArray) results = two_results();
    g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func(compare_row_free);
    g_ptr_array_add(rows, make_row("TcpOutSegs", 1.0, 0, 17, 20));
    g_ptr_array_add(rows, make_row("goodput (Mbit/s)", 1e-6, 3, 3200, 4000));
    g_ptr_array_add(rows, make_row("transactions/s", 1.0, 1, NAN, 1.6));
    g_ptr_array_add(rows, make_row("zeros", 1.0, 0, 0, 0));
    g_ptr_array_add(rows, make_row("from zero", 1.0, 0, 0, 5));
    g_autofree char *table = compare_table(rows, results);
    g_assert_cmpstr(table, ==,
                    "|                  | before | after | change |\n"
                    "|:-----------------|-------:|------:|-------:|\n"
                    "| TcpOutSegs       |     17 |    20 | +17.6% |\n"
                    "| goodput (Mbit/s) |  0.003 | 0.004 | +25.0% |\n"
                    "| transactions/s   |    n/a |   1.6 |    n/a |\n"
                    "| zeros            |      0 |     0 |  +0.0% |\n"
                    "| from zero        |      0 |     5 |    n/a |\n");
    g_assert_cmpfloat(compare_change_pct(g_ptr_array_index(rows, 1)), ==, 25.0);
    g_assert_true(isnan(compare_change_pct(g_ptr_array_index(rows, 4))));
}

static void test_compare_check_line(void)
{
    ExpectConf e = { .name = "ratio", .check = "after.goodput / before.goodput", .has_min = true,
                     .min = 0.95 };
    CheckOutcome c = { .expect = &e, .pass = TRUE, .has_value = TRUE, .value = 1.25 };
    g_autofree char *pass = compare_check_line(&c);
    g_assert_cmpstr(pass, ==, "PASS ratio: 1.25 in [0.95, inf]");
    e.has_max = true;
    e.max = 1.1;
    c.pass = FALSE;
    g_autofree char *fail = compare_check_line(&c);
    g_assert_cmpstr(fail, ==, "FAIL ratio: 1.25 not in [0.95, 1.1]");
    ExpectConf unnamed = { .check = "x / 0", .has_max = true, .max = 2e-5 };
    CheckOutcome err = { .expect = &unnamed, .error = "column 3: division by zero" };
    g_autofree char *line = compare_check_line(&err);
    g_assert_cmpstr(line, ==, "FAIL x / 0: column 3: division by zero");
    unnamed.has_max = false;
    CheckOutcome open = { .expect = &unnamed, .pass = TRUE, .has_value = TRUE, .value = -3 };
    g_autofree char *open_line = compare_check_line(&open);
    g_assert_cmpstr(open_line, ==, "PASS x / 0: -3 in [-inf, inf]");
}

/* ---- progress line -------------------------------------------------------------------------- */

static void test_progress(void)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    Progress *p = progress_new_full("after", mem, 0);
    progress_update_at(p, 500000, 1.0, 10.0, 1000); /* before 1 s: nothing */
    fflush(mem);
    g_assert_cmpuint(len, ==, 0);
    progress_update_at(p, 1000000, 1.234, 10.0, 4500000);
    progress_update_at(p, 1100000, 1.3, 10.0, 5000000); /* within 250 ms: nothing */
    progress_update_at(p, 1250000, 2.0, 10.0, 5000000);
    progress_free(p);
    fclose(mem);
    const char *line1 = "\r[after] t=1.234s/10.000s 12.3% 4.5M ev/s";
    const char *line2 = "\r[after] t=2.000s/10.000s 20.0% 4.0M ev/s";
    g_autofree char *expected =
        g_strdup_printf("%s%s\r%*s\r", line1, line2, (int)strlen(line1) - 1, "");
    g_assert_cmpstr(buf, ==, expected);
    free(buf);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/json/escape", test_json_escape);
    g_test_add_func("/json/layout", test_json_layout);
    g_test_add_func("/json/compact", test_json_compact);
    g_test_add_func("/output/nstat", test_nstat_text);
    g_test_add_func("/output/metrics-json", test_metrics_json);
    g_test_add_func("/output/metrics-json-base", test_metrics_base_variant);
    g_test_add_func("/output/atomic-write", test_atomic_write);
    g_test_add_func("/output/write-run", test_write_run);
    g_test_add_func("/output/write-run-bad-host", test_write_run_bad_host);
    g_test_add_func("/results/metrics", test_result_metrics);
    g_test_add_func("/expr/arithmetic", test_expr_arithmetic);
    g_test_add_func("/expr/errors", test_expr_errors);
    g_test_add_func("/expr/results", test_expr_results);
    g_test_add_func("/expr/check", test_expr_check);
    g_test_add_func("/compare/table", test_compare_table);
    g_test_add_func("/compare/check-line", test_compare_check_line);
    g_test_add_func("/progress/line", test_progress);
    return g_test_run();
}
