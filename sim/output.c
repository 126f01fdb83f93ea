/* output.c - a run's result files: metrics.json, <host>.nstat and timeseries.csv.
 *
 * Formats are fixed and documented in README.md because scripts and tests read them:
 *  - metrics.json: keys in one fixed order (see write_metrics), pretty-printed, 2-space indent;
 *    every counter of every host in counters.h table order, zeros included.
 *  - <host>.nstat: what `nstat -a` prints: "#kernel", then one line per non-zero counter in
 *    iproute2's own format "%-32s%-16llu%6.1f" (misc/nstat.c dump_kern_db). The rate column is
 *    always 0.0, as nstat prints it without its daemon. Lines follow counters.h table order
 *    (nstat's follows /proc; nothing should depend on either).
 *  - timeseries.csv: series_write_csv(); a header-only "time_s" file when the run kept no series,
 *    so every run directory holds the same set of files.
 * Every file goes through output_write_atomic: a reader or a crash sees the old file or the new
 * one, never a prefix.
 */
#include "sim/output.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "sim/json.h"

gboolean output_write_atomic(const char *path, const char *data, gsize len, GError **error)
{
    g_autofree char *dir = g_path_get_dirname(path);
    if (g_mkdir_with_parents(dir, 0777) != 0) {
        int e = errno;
        g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(e), "%s: cannot create directory: %s",
                    dir, g_strerror(e));
        return FALSE;
    }
    /* CONSISTENT: write path.XXXXXX in the same directory, fsync, rename over path. */
    return g_file_set_contents_full(path, data, (gssize)len, G_FILE_SET_CONTENTS_CONSISTENT, 0666,
                                    error);
}

char *output_nstat_text(const HostResult *h)
{
    GString *s = g_string_new("#kernel\n");
    for (int id = 0; id < CTR_KERNEL_COUNT; id++) {
        uint64_t v = h->counters.v[id];
        if (v != 0)
            g_string_append_printf(s, "%-32s%-16llu%6.1f\n", counter_name((CounterId)id),
                                   (unsigned long long)v, 0.0);
    }
    return g_string_free(s, FALSE);
}

/* Per CPU: where its time went, and the share busy (task + softirq + context switches). */
static void write_cpus(JsonWriter *w, const GArray *cpus)
{
    json_key(w, "cpus");
    json_begin_array(w);
    for (guint i = 0; i < cpus->len; i++) {
        const CpuResult *c = &g_array_index(cpus, CpuResult, i);
        double total = c->task_s + c->softirq_s + c->ctx_switch_s + c->idle_s;
        json_begin_object(w);
        json_member_uint(w, "cpu", i);
        json_member_double(w, "busy", total > 0 ? (total - c->idle_s) / total : 0);
        json_member_double(w, "task_s", c->task_s);
        json_member_double(w, "softirq_s", c->softirq_s);
        json_member_double(w, "ctx_switch_s", c->ctx_switch_s);
        json_member_double(w, "idle_s", c->idle_s);
        json_member_uint(w, "ctx_switches", c->ctx_switches);
        json_member_uint(w, "ksoftirqd_wakeups", c->ksoftirqd_wakeups);
        json_key(w, "profile_s"); /* the rows this CPU used, in table order */
        json_begin_object(w);
        for (int id = 0; id < COST_COUNT; id++)
            if (c->profile_ns[id])
                json_member_double(w, cost_key((CostId)id), sim_time_to_sec(c->profile_ns[id]));
        json_end_object(w);
        json_end_object(w);
    }
    json_end_array(w);
}

/* The host's CPU time (all CPUs) per row of the cost table, in table order, zeros included. */
static void write_cpu_profile(JsonWriter *w, const HostResult *h)
{
    json_key(w, "cpu_profile_s");
    json_begin_object(w);
    for (int id = 0; id < COST_COUNT; id++) {
        json_key(w, cost_key((CostId)id));
        json_double(w, sim_time_to_sec(h->cpu_profile_ns[id]));
    }
    json_end_object(w);
}

static void write_hosts(JsonWriter *w, const RunResult *r)
{
    json_begin_object(w);
    for (guint i = 0; i < r->hosts->len; i++) {
        const HostResult *h = g_ptr_array_index(r->hosts, i);
        json_key(w, h->name);
        json_begin_object(w);
        json_key(w, "counters");
        json_begin_object(w);
        for (int id = 0; id < CTR_COUNT; id++) {
            json_key(w, counter_name((CounterId)id));
            json_uint(w, h->counters.v[id]);
        }
        json_end_object(w);
        if (h->cpus) {
            write_cpus(w, h->cpus);
            write_cpu_profile(w, h);
        }
        json_end_object(w);
    }
    json_end_object(w);
}

static void write_flow(JsonWriter *w, const FlowResult *f)
{
    json_begin_object(w);
    json_member_string(w, "name", f->name);
    json_member_string(w, "workload", f->workload);
    json_member_string(w, "from", f->from);
    json_member_string(w, "to", f->to);
    json_member_uint(w, "bytes_delivered", f->bytes_delivered);
    json_member_double(w, "goodput_bps", f->goodput_bps);
    json_member_uint(w, "retrans_segs", f->retrans_segs);
    json_member_uint(w, "transactions", f->transactions);
    json_member_double(w, "transactions_per_s", f->transactions_per_s);
    json_member_double(w, "srtt_us", (double)f->srtt_ns / 1000.0);
    json_member_uint(w, "cwnd", f->cwnd);
    json_end_object(w);
}

static void write_hex(JsonWriter *w, const char *key, uint64_t v)
{
    char buf[17];
    g_snprintf(buf, sizeof buf, "%016llx", (unsigned long long)v);
    json_key(w, key);
    json_string(w, buf);
}

/* The fixed key order of metrics.json; README.md documents it. */
static void write_metrics(JsonWriter *w, const RunResult *r)
{
    json_begin_object(w);
    json_member_string(w, "scenario", r->scenario);
    json_member_string(w, "title", r->title);
    json_member_string(w, "variant", r->variant ? r->variant : "base");
    json_member_uint(w, "seed", r->seed);
    json_member_double(w, "duration_s", sim_time_to_sec(r->duration_ns));
    json_member_double(w, "warmup_s", sim_time_to_sec(r->warmup_ns));
    json_member_double(w, "measured_s", sim_time_to_sec(r->measured_ns));
    json_member_bool(w, "interrupted", r->interrupted);
    json_key(w, "hosts");
    write_hosts(w, r);
    json_key(w, "flows");
    json_begin_array(w);
    for (guint i = 0; i < r->flows->len; i++)
        write_flow(w, g_ptr_array_index(r->flows, i));
    json_end_array(w);
    json_key(w, "fingerprint");
    json_begin_object(w);
    write_hex(w, "events", r->fp_events);
    write_hex(w, "counters", r->fp_counters);
    json_end_object(w);
    json_key(w, "sim");
    json_begin_object(w);
    json_member_uint(w, "events", r->events);
    json_member_double(w, "wall_s", r->wall_s);
    json_member_double(w, "events_per_s", r->events_per_s);
    json_end_object(w);
    json_end_object(w);
}

char *output_metrics_json(const RunResult *r)
{
    GString *s = g_string_new(NULL);
    g_autoptr(JsonWriter) w = json_writer_new(s, true);
    write_metrics(w, r);
    return g_string_free(s, FALSE);
}

static gboolean write_string(const char *dir, const char *name, const char *text, GError **error)
{
    g_autofree char *path = g_build_filename(dir, name, NULL);
    return output_write_atomic(path, text, strlen(text), error);
}

static gboolean write_series(const Series *series, const char *dir, GError **error)
{
    if (!series)
        return write_string(dir, "timeseries.csv", "time_s\n", error);
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    if (!mem) {
        g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(errno), "open_memstream: %s",
                    g_strerror(errno));
        return FALSE;
    }
    int rc = series_write_csv(series, mem);
    fclose(mem);
    g_autofree char *path = g_build_filename(dir, "timeseries.csv", NULL);
    gboolean ok = rc == 0;
    if (!ok)
        g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(-rc), "%s: %s", path,
                    g_strerror(-rc));
    else
        ok = output_write_atomic(path, buf, len, error);
    free(buf);
    return ok;
}

/* A host name becomes a file name: refuse anything that would leave the directory. */
static gboolean check_host_file_name(const char *name, GError **error)
{
    if (name[0] != '\0' && name[0] != '.' && !strchr(name, '/'))
        return TRUE;
    g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                "host name '%s' cannot be used as a file name", name);
    return FALSE;
}

gboolean output_write_run(const RunResult *r, const char *dir, GError **error)
{
    if (g_mkdir_with_parents(dir, 0777) != 0) {
        int e = errno;
        g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(e), "%s: cannot create directory: %s",
                    dir, g_strerror(e));
        return FALSE;
    }
    g_autofree char *json = output_metrics_json(r);
    if (!write_string(dir, "metrics.json", json, error))
        return FALSE;
    for (guint i = 0; i < r->hosts->len; i++) {
        const HostResult *h = g_ptr_array_index(r->hosts, i);
        if (!check_host_file_name(h->name, error))
            return FALSE;
        g_autofree char *name = g_strconcat(h->name, ".nstat", NULL);
        g_autofree char *text = output_nstat_text(h);
        if (!write_string(dir, name, text, error))
            return FALSE;
    }
    return write_series(r->series, dir, error);
}
