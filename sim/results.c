/* results.c - ownership of a RunResult and the aggregates that expect checks read.
 *
 * A RunResult is plain data filled by the run driver; this file only says who frees what and
 * how the named metrics of results.h (goodput, transactions_per_s, bytes, retrans) and counter
 * sums are computed, so `compare`, its checks and its table all agree on one definition.
 */
#include "sim/results.h"

#include <string.h>

static void host_result_free(gpointer p)
{
    HostResult *h = p;
    if (h->cpus)
        g_array_free(h->cpus, TRUE);
    g_free(h->name);
    g_free(h);
}

static void flow_result_free(gpointer p)
{
    FlowResult *f = p;
    g_free(f->name);
    g_free(f->workload);
    g_free(f->from);
    g_free(f->to);
    g_free(f);
}

RunResult *run_result_new(void)
{
    RunResult *r = g_new0(RunResult, 1);
    r->hosts = g_ptr_array_new_with_free_func(host_result_free);
    r->flows = g_ptr_array_new_with_free_func(flow_result_free);
    return r;
}

void run_result_free(RunResult *r)
{
    if (!r)
        return;
    g_free(r->scenario);
    g_free(r->title);
    g_free(r->variant);
    g_ptr_array_unref(r->hosts);
    g_ptr_array_unref(r->flows);
    if (r->series)
        series_free(r->series);
    g_free(r);
}

HostResult *host_result_new(const char *name)
{
    HostResult *h = g_new0(HostResult, 1);
    h->name = g_strdup(name);
    return h;
}

FlowResult *flow_result_new(const char *name, const char *workload, const char *from,
                            const char *to)
{
    FlowResult *f = g_new0(FlowResult, 1);
    f->name = g_strdup(name);
    f->workload = g_strdup(workload);
    f->from = g_strdup(from);
    f->to = g_strdup(to);
    return f;
}

typedef enum { METRIC_GOODPUT, METRIC_TPS, METRIC_BYTES, METRIC_RETRANS, METRIC_COUNT } Metric;

static const char *const metric_names[METRIC_COUNT] = {
    [METRIC_GOODPUT] = "goodput",
    [METRIC_TPS] = "transactions_per_s",
    [METRIC_BYTES] = "bytes",
    [METRIC_RETRANS] = "retrans",
};

static double flow_metric(const FlowResult *f, Metric m)
{
    switch (m) {
    case METRIC_GOODPUT: return f->goodput_bps;
    case METRIC_TPS: return f->transactions_per_s;
    case METRIC_BYTES: return (double)f->bytes_delivered;
    case METRIC_RETRANS: return (double)f->retrans_segs;
    default: return 0.0;
    }
}

static gboolean metric_lookup(const char *metric, Metric *m)
{
    for (int i = 0; i < METRIC_COUNT; i++) {
        if (strcmp(metric, metric_names[i]) == 0) {
            *m = (Metric)i;
            return TRUE;
        }
    }
    return FALSE;
}

gboolean run_result_metric(const RunResult *r, const char *metric, double *out)
{
    Metric m;
    if (!metric_lookup(metric, &m))
        return FALSE;
    double sum = 0.0;
    for (guint i = 0; i < r->flows->len; i++)
        sum += flow_metric(g_ptr_array_index(r->flows, i), m);
    *out = sum;
    return TRUE;
}

gboolean run_result_metric_min_in(const RunResult *r, const char *metric, GHashTable *workloads,
                                  double *out, guint *nflows)
{
    Metric m;
    guint n = 0;
    if (nflows)
        *nflows = 0;
    if (!metric_lookup(metric, &m))
        return FALSE;
    double lo = 0.0;
    for (guint i = 0; i < r->flows->len; i++) {
        const FlowResult *f = g_ptr_array_index(r->flows, i);
        if (workloads && !g_hash_table_contains(workloads, f->workload))
            continue;
        double v = flow_metric(f, m);
        lo = n++ == 0 ? v : MIN(lo, v);
    }
    if (nflows)
        *nflows = n;
    if (n == 0)
        return FALSE;
    *out = lo;
    return TRUE;
}

gboolean run_result_metric_min(const RunResult *r, const char *metric, double *out)
{
    return run_result_metric_min_in(r, metric, NULL, out, NULL);
}

gboolean run_result_counter_known(const char *name)
{
    return counter_lookup(name) >= 0 || cost_counter_lookup(name) >= 0;
}

/* One host's value of an nstat counter (id >= 0) or of a CPU profile row in us (cost >= 0). */
static double host_counter(const HostResult *h, int id, int cost)
{
    return id >= 0 ? (double)h->counters.v[id] : (double)h->cpu_profile_ns[cost] / 1e3;
}

gboolean run_result_counter(const RunResult *r, const char *host, const char *counter, double *out)
{
    int id = counter_lookup(counter), cost = id < 0 ? cost_counter_lookup(counter) : -1;
    if (id < 0 && cost < 0)
        return FALSE;
    gboolean found = host == NULL;
    double sum = 0.0;
    for (guint i = 0; i < r->hosts->len; i++) {
        const HostResult *h = g_ptr_array_index(r->hosts, i);
        if (host && strcmp(h->name, host) != 0)
            continue;
        sum += host_counter(h, id, cost);
        found = TRUE;
    }
    if (found)
        *out = sum;
    return found;
}

gboolean run_result_report_counter(const RunResult *r, const char *host, const char *ref,
                                   double *out)
{
    const char *dot = strchr(ref, '.');
    if (!dot)
        return run_result_counter(r, host, ref, out);
    g_autofree char *named = g_strndup(ref, (gsize)(dot - ref));
    return run_result_counter(r, named, dot + 1, out);
}
