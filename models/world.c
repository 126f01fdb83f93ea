/* world.c - builds the model objects of a scenario and gives the run driver one handle on them.
 *
 * For now a world holds each host's counter set; the host, NIC, link, TCP and workload models
 * attach here as they land.
 */
#include "models/world.h"

#include "sim/counters.h"

typedef struct WorldHost {
    const HostConf *conf;
    CounterSet counters;
} WorldHost;

struct World {
    Sim *sim;
    const ScenarioConf *conf;
    GPtrArray *hosts; /* WorldHost*, in scenario order */
};

World *world_new(Sim *sim, const ScenarioConf *conf, GError **error)
{
    World *w = g_new0(World, 1);
    w->sim = sim;
    w->conf = conf;
    w->hosts = g_ptr_array_new_with_free_func(g_free);
    for (guint i = 0; i < conf->hosts->len; i++) {
        WorldHost *h = g_new0(WorldHost, 1);
        h->conf = g_ptr_array_index(conf->hosts, i);
        g_ptr_array_add(w->hosts, h);
    }
    return w;
}

void world_free(World *w)
{
    if (!w)
        return;
    g_ptr_array_free(w->hosts, TRUE);
    g_free(w);
}

void world_start(World *w)
{
}

void world_reset_counters(World *w)
{
    for (guint i = 0; i < w->hosts->len; i++)
        counters_reset(&((WorldHost *)g_ptr_array_index(w->hosts, i))->counters);
}

static double probe_counter(const void *ctx)
{
    return (double)*(const uint64_t *)ctx;
}

void world_add_series(World *w, Series *s)
{
    static const CounterId sampled[] = { CTR_TcpOutSegs, CTR_TcpRetransSegs,
                                         CTR_TcpExtTCPLossProbes, CTR_TcpExtTCPTimeouts };
    for (guint i = 0; i < w->hosts->len; i++) {
        WorldHost *h = g_ptr_array_index(w->hosts, i);
        for (size_t k = 0; k < G_N_ELEMENTS(sampled); k++) {
            g_autofree char *name = g_strdup_printf("%s.%s", h->conf->name, counter_name(sampled[k]));
            series_add_column(s, name, probe_counter, &h->counters.v[sampled[k]]);
        }
    }
}

void world_collect(World *w, RunResult *r, sim_time_t measured_ns)
{
    for (guint i = 0; i < w->hosts->len; i++) {
        WorldHost *h = g_ptr_array_index(w->hosts, i);
        HostResult *hr = g_new0(HostResult, 1);
        hr->name = g_strdup(h->conf->name);
        hr->counters = h->counters;
        g_ptr_array_add(r->hosts, hr);
    }
}
