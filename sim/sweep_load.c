/* sweep_load.c - a run's metrics.json read back into a RunResult, for `sksim sweep`.
 *
 * Every row of sweep.csv is computed from the metrics.json of its run, whether the run happened
 * now or in an earlier, interrupted sweep: one code path, so a resumed sweep writes the same
 * sweep.csv as an uninterrupted one (metrics.json prints doubles with 17 digits, which read back
 * exactly). The same file decides whether a run can be skipped: it must parse, end with its
 * "sim" block (the last one written), say "interrupted": false and name the same scenario,
 * variant and seed.
 */
#include "sim/sweep.h"

#include <math.h>
#include <string.h>

#include "sim/json_read.h"

static uint64_t json_u64(const JsonValue *v)
{
    double d = 0;
    return json_number(v, &d) && d >= 0 && isfinite(d) ? (uint64_t)d : 0;
}

static double json_f64(const JsonValue *v)
{
    double d = NAN;
    return json_number(v, &d) ? d : NAN;
}

static char *json_strdup(const JsonValue *v)
{
    return g_strdup(json_string_value(v) ? json_string_value(v) : "");
}

static sim_time_t seconds_to_ns(double s)
{
    return isfinite(s) && s > 0 ? (sim_time_t)llround(s * 1e9) : 0;
}

static void load_hosts(RunResult *r, const JsonValue *hosts)
{
    for (guint i = 0; i < json_len(hosts); i++) {
        HostResult *h = host_result_new(json_key_at(hosts, i));
        const JsonValue *counters = json_get(json_at(hosts, i), "counters");
        for (guint c = 0; c < json_len(counters); c++) {
            int id = counter_lookup(json_key_at(counters, c));
            if (id >= 0)
                h->counters.v[id] = json_u64(json_at(counters, c));
        }
        const JsonValue *profile = json_get(json_at(hosts, i), "cpu_profile_s");
        for (guint c = 0; c < json_len(profile); c++) {
            int id = cost_lookup(json_key_at(profile, c));
            double sec = NAN;
            if (id >= 0 && json_number(json_at(profile, c), &sec))
                h->cpu_profile_ns[id] = seconds_to_ns(sec);
        }
        g_ptr_array_add(r->hosts, h);
    }
}

static void load_flows(RunResult *r, const JsonValue *flows)
{
    for (guint i = 0; i < json_len(flows); i++) {
        const JsonValue *f = json_at(flows, i);
        FlowResult *fr = flow_result_new(json_string_value(json_get(f, "name")),
                                         json_string_value(json_get(f, "workload")),
                                         json_string_value(json_get(f, "from")),
                                         json_string_value(json_get(f, "to")));
        fr->bytes_delivered = json_u64(json_get(f, "bytes_delivered"));
        fr->goodput_bps = json_f64(json_get(f, "goodput_bps"));
        fr->retrans_segs = json_u64(json_get(f, "retrans_segs"));
        fr->transactions = json_u64(json_get(f, "transactions"));
        fr->transactions_per_s = json_f64(json_get(f, "transactions_per_s"));
        fr->srtt_ns = seconds_to_ns(json_f64(json_get(f, "srtt_us")) / 1e6);
        fr->cwnd = (uint32_t)json_u64(json_get(f, "cwnd"));
        g_ptr_array_add(r->flows, fr);
    }
}

RunResult *sweep_load_metrics(const char *path, GError **error)
{
    g_autoptr(JsonValue) m = json_parse_file(path, error);
    if (!m)
        return NULL;
    const JsonValue *sim = json_get(m, "sim");
    if (json_kind(m) != JSON_V_OBJECT || !json_get(sim, "events") ||
        !json_is_bool(json_get(m, "interrupted"))) {
        g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                    "%s: not a complete metrics.json (no interrupted flag or sim block)", path);
        return NULL;
    }
    g_autoptr(RunResult) r = run_result_new();
    r->scenario = json_strdup(json_get(m, "scenario"));
    r->title = json_strdup(json_get(m, "title"));
    r->variant = json_strdup(json_get(m, "variant"));
    r->seed = json_u64(json_get(m, "seed"));
    r->duration_ns = seconds_to_ns(json_f64(json_get(m, "duration_s")));
    r->warmup_ns = seconds_to_ns(json_f64(json_get(m, "warmup_s")));
    r->measured_ns = seconds_to_ns(json_f64(json_get(m, "measured_s")));
    r->interrupted = json_is_true(json_get(m, "interrupted"));
    load_hosts(r, json_get(m, "hosts"));
    load_flows(r, json_get(m, "flows"));
    r->events = json_u64(json_get(sim, "events"));
    r->wall_s = json_f64(json_get(sim, "wall_s"));
    r->events_per_s = json_f64(json_get(sim, "events_per_s"));
    return g_steal_pointer(&r);
}

gboolean sweep_run_complete(const char *vdir, const char *scenario, const char *variant,
                            uint64_t seed)
{
    g_autofree char *path = g_build_filename(vdir, "metrics.json", NULL);
    if (!g_file_test(path, G_FILE_TEST_IS_REGULAR))
        return FALSE;
    g_autoptr(RunResult) r = sweep_load_metrics(path, NULL);
    return r && !r->interrupted && strcmp(r->scenario, scenario) == 0 &&
           strcmp(r->variant, variant) == 0 && r->seed == seed;
}
