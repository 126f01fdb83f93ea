/* world.c - builds the model objects of a scenario and gives the run driver one handle on them.
 *
 * Hosts get their CPUs, a loopback device and an skb pool; every link gets a NIC at each end
 * and a route each way; every flow of a workload gets a connected pair of TCP sockets and a
 * pair of application threads. Objects are kept in arrays in scenario order, so iteration (for
 * outputs and series) is deterministic.
 */
#include "models/world.h"

#include <string.h>

#include "models/app.h"
#include "models/cpu.h"
#include "models/netdev.h"
#include "models/skb.h"
#include "models/softnet.h"
#include "models/tcp.h"
#include "models/wire.h"
#include "sim/counters.h"
#include "sim/evkind.h"
#include "sim/rng.h"

/* Loopback MTU: 64 KiB since 2012 (notes E.5, item 4). */
#define LOOPBACK_MTU 65536

typedef struct WorldFlow {
    char *name;
    const WorkloadConf *wc;
    Host *from, *to;
    TcpSock *cl, *sv;
    App *app;
    uint64_t retrans_base; /* both ends' retransmitted segments at the warm-up's end */
    SimEvent start_ev;
} WorldFlow;

typedef struct WorldWorkload {
    GPtrArray *flows; /* WorldFlow*, borrowed from World.flows */
} WorldWorkload;

struct World {
    Sim *sim;
    const ScenarioConf *conf;
    GPtrArray *hosts;     /* Host* */
    GPtrArray *links;     /* Link* */
    GPtrArray *flows;     /* WorldFlow* */
    GPtrArray *workloads; /* WorldWorkload* */
    uint32_t next_conn;
    CpuStats **cpu_base; /* per host, per CPU: stats at the end of the warm-up */
};

static Host *host_new(World *w, const HostConf *hc, uint16_t id)
{
    Host *h = g_new0(Host, 1);
    h->id = id;
    h->name = hc->name;
    h->sim = w->sim;
    h->conf = hc;
    h->stack = &w->conf->stack;
    h->hz = hc->hz ? hc->hz : w->conf->hz;
    h->tick_phase = hc->tick_phase_ns % (SIM_S / (sim_time_t)h->hz);
    h->pool = skb_pool_new();
    h->socks = g_ptr_array_new();
    h->ncpus = hc->cpus;
    h->cpus = g_new0(Cpu *, hc->cpus);
    for (uint32_t i = 0; i < hc->cpus; i++)
        h->cpus[i] = cpu_new(h, i);
    h->softnet = softnet_new(h);
    h->loopback = netdev_new_loopback(h);
    return h;
}

static Host *find_host(World *w, const char *name)
{
    for (guint i = 0; i < w->hosts->len; i++) {
        Host *h = g_ptr_array_index(w->hosts, i);
        if (g_strcmp0(h->name, name) == 0)
            return h;
    }
    return NULL;
}

static void host_add_dev(Host *h, NetDev *dev)
{
    h->devs = g_renew(NetDev *, h->devs, h->ndevs + 1);
    h->devs[h->ndevs++] = dev;
}

static void build_links(World *w)
{
    for (guint i = 0; i < w->conf->links->len; i++) {
        const LinkConf *lc = g_ptr_array_index(w->conf->links, i);
        Host *a = find_host(w, lc->a), *b = find_host(w, lc->b);
        NetDev *da = netdev_new_nic(a, &a->conf->nic, a->ndevs);
        NetDev *db = netdev_new_nic(b, &b->conf->nic, b->ndevs);
        host_add_dev(a, da);
        host_add_dev(b, db);
        g_ptr_array_add(w->links, link_new(w->sim, lc, da, db, w->conf->seed));
        ip_route_add(a, b->id, da);
        ip_route_add(b, a->id, db);
    }
}

static uint32_t path_mtu(const Host *a, const Host *b)
{
    if (a == b)
        return LOOPBACK_MTU;
    return MIN(a->conf->nic.mtu, b->conf->nic.mtu);
}

/* The handshake's RTT between two hosts, in us: a SYN (or SYN-ACK, or ACK) of 60 bytes - IP,
 * TCP and 20 bytes of options: MSS, SACK-permitted, timestamps, window scale - crosses the link
 * each way: propagation plus serialisation, without the hosts' processing, so a lower bound.
 * Loopback: 1 us, the least srtt Linux keeps (tcp_rtt_estimator). */
static uint32_t handshake_rtt_us(const World *w, const Host *a, const Host *b)
{
    if (a == b)
        return 1;
    const uint64_t syn_bytes = WIRE_IP_HDR + WIRE_TCP_HDR + 20u + WIRE_ETH_HDR + WIRE_ETH_FCS +
                               WIRE_ETH_PREAMBLE + WIRE_ETH_IFG;
    const LinkConf *lc = scenario_conf_link(w->conf, a->name, b->name);
    if (lc) {
        uint64_t ser_ns = (syn_bytes * 8u * SIM_S + lc->rate_bps - 1) / lc->rate_bps;
        uint64_t rtt_ns = 2u * ((uint64_t)lc->delay_ns + ser_ns);
        uint64_t us = (rtt_ns + SIM_US - 1) / SIM_US;
        return us ? (uint32_t)MIN(us, (uint64_t)UINT32_MAX) : 1;
    }
    return 0; /* no link: conf_check refuses such a workload */
}

static void build_flows(World *w, const WorkloadConf *wc)
{
    WorldWorkload *ww = g_new0(WorldWorkload, 1);
    ww->flows = g_ptr_array_new();
    Host *from = find_host(w, wc->from), *to = find_host(w, wc->to);
    for (uint32_t i = 0; i < wc->flows; i++) {
        WorldFlow *f = g_new0(WorldFlow, 1);
        f->name = g_strdup_printf("%s/%u", wc->name, i);
        f->wc = wc;
        f->from = from;
        f->to = to;
        uint32_t conn = w->next_conn++;
        f->cl = tcp_sock_new(from, conn, (uint16_t)(from->socks->len + 1));
        f->sv = tcp_sock_new(to, conn, (uint16_t)(to->socks->len + 1));
        tcp_connect_pair(f->cl, f->sv, path_mtu(from, to));
        uint32_t rtt_us = handshake_rtt_us(w, from, to);
        if (rtt_us)
            tcp_handshake_rtt(f->cl, f->sv, rtt_us);
        f->app = app_new(wc, i, from, f->cl, to, f->sv);
        g_ptr_array_add(w->flows, f);
        g_ptr_array_add(ww->flows, f);
    }
    g_ptr_array_add(w->workloads, ww);
}

World *world_new(Sim *sim, const ScenarioConf *conf, GError **error)
{
    World *w = g_new0(World, 1);
    w->sim = sim;
    w->conf = conf;
    w->hosts = g_ptr_array_new();
    w->links = g_ptr_array_new();
    w->flows = g_ptr_array_new();
    w->workloads = g_ptr_array_new();
    for (guint i = 0; i < conf->hosts->len; i++)
        g_ptr_array_add(w->hosts, host_new(w, g_ptr_array_index(conf->hosts, i), (uint16_t)i));
    w->cpu_base = g_new0(CpuStats *, conf->hosts->len);
    for (guint i = 0; i < conf->hosts->len; i++)
        w->cpu_base[i] = g_new0(CpuStats, ((Host *)g_ptr_array_index(w->hosts, i))->ncpus);
    build_links(w);
    for (guint i = 0; i < conf->workloads->len; i++)
        build_flows(w, g_ptr_array_index(conf->workloads, i));
    return w;
}

static void host_free(Host *h)
{
    softnet_free(h->softnet); /* its queued skbs first: each names its device */
    netdev_free(h->loopback);
    for (uint32_t i = 0; i < h->ndevs; i++)
        netdev_free(h->devs[i]);
    g_free(h->devs);
    for (uint32_t i = 0; i < h->ncpus; i++)
        cpu_free(h->cpus[i]);
    g_free(h->cpus);
    g_ptr_array_free(h->socks, TRUE);
    skb_pool_free(h->pool);
    g_free(h);
}

void world_free(World *w)
{
    if (!w)
        return;
    /* A run that stopped early (--max-events, --max-wall, a signal) leaves events queued in
     * objects freed below, some before the others' sim_cancel() calls rearrange the queue. */
    sim_discard_pending(w->sim);
    for (guint i = 0; i < w->workloads->len; i++) {
        WorldWorkload *ww = g_ptr_array_index(w->workloads, i);
        g_ptr_array_free(ww->flows, TRUE);
        g_free(ww);
    }
    for (guint i = 0; i < w->flows->len; i++) {
        WorldFlow *f = g_ptr_array_index(w->flows, i);
        app_free(f->app);
        tcp_sock_free(f->cl);
        tcp_sock_free(f->sv);
        g_free(f->name);
        g_free(f);
    }
    for (guint i = 0; i < w->links->len; i++)
        link_free(g_ptr_array_index(w->links, i));
    for (guint i = 0; i < w->hosts->len; i++) {
        host_free(g_ptr_array_index(w->hosts, i));
        g_free(w->cpu_base[i]);
    }
    g_free(w->cpu_base);
    g_ptr_array_free(w->workloads, TRUE);
    g_ptr_array_free(w->flows, TRUE);
    g_ptr_array_free(w->links, TRUE);
    g_ptr_array_free(w->hosts, TRUE);
    g_free(w);
}

static void flow_start(Sim *sim, void *ctx)
{
    (void)sim;
    app_start(((WorldFlow *)ctx)->app);
}

/* Each flow opens at the workload's start plus, with start_jitter, a uniform delay drawn from
 * a stream named after the workload, so adding a workload does not move another's draws. The
 * flows are scheduled in scenario order, so equal times keep that order (ties by insertion). */
static void workload_schedule(World *w, uint32_t wi, WorldWorkload *ww, const WorkloadConf *wc)
{
    SimRng rng;
    g_autofree char *stream = g_strdup_printf("workload.%s.start", wc->name);
    sim_rng_init_named(&rng, w->conf->seed, stream);
    for (guint i = 0; i < ww->flows->len; i++) {
        WorldFlow *f = g_ptr_array_index(ww->flows, i);
        sim_time_t at = wc->start_ns;
        if (wc->start_jitter_ns > 0)
            at += (sim_time_t)sim_rng_below(&rng, (uint64_t)wc->start_jitter_ns);
        sim_event_init(&f->start_ev, flow_start, f, EVK_APP, wi << 16 | i);
        sim_schedule_at(w->sim, &f->start_ev, at);
    }
}

void world_start(World *w)
{
    for (guint i = 0; i < w->workloads->len; i++)
        workload_schedule(w, i, g_ptr_array_index(w->workloads, i),
                          g_ptr_array_index(w->conf->workloads, i));
}

/* Segments retransmitted by either end: an rr flow's server sends data too. */
static uint64_t flow_retrans(const WorldFlow *f)
{
    return tcp_get_info(f->cl).retrans_segs + tcp_get_info(f->sv).retrans_segs;
}

void world_reset_counters(World *w)
{
    for (guint i = 0; i < w->hosts->len; i++) {
        Host *h = g_ptr_array_index(w->hosts, i);
        counters_reset(&h->ctr);
        h->dev_drops_at_reset = host_dev_drops(h);
        for (uint32_t c = 0; c < h->ncpus; c++)
            w->cpu_base[i][c] = cpu_stats(h->cpus[c]);
    }
    for (guint i = 0; i < w->flows->len; i++) {
        WorldFlow *f = g_ptr_array_index(w->flows, i);
        app_reset(f->app);
        f->retrans_base = flow_retrans(f);
    }
}

static double probe_counter(const void *ctx)
{
    return (double)*(const uint64_t *)ctx;
}

static double probe_delivered(const void *ctx)
{
    return (double)app_stats(((const WorldFlow *)ctx)->app).bytes_delivered;
}

static double probe_transactions(const void *ctx)
{
    return (double)app_stats(((const WorldFlow *)ctx)->app).transactions;
}

static double probe_cwnd(const void *ctx)
{
    return tcp_get_info(((const WorldFlow *)ctx)->cl).cwnd;
}

static double probe_srtt_us(const void *ctx)
{
    return (double)tcp_get_info(((const WorldFlow *)ctx)->cl).srtt_ns / 1e3;
}

static double probe_rcvbuf(const void *ctx)
{
    return tcp_get_info(((const WorldFlow *)ctx)->sv).rcvbuf;
}

static double probe_rcv_wnd(const void *ctx)
{
    return tcp_get_info(((const WorldFlow *)ctx)->sv).rcv_wnd;
}

static double probe_rcv_rtt_us(const void *ctx)
{
    return tcp_get_info(((const WorldFlow *)ctx)->sv).rcv_rtt_us;
}

static double probe_rmem(const void *ctx)
{
    return (double)tcp_get_info(((const WorldFlow *)ctx)->sv).rmem_alloc;
}

static double probe_backlog(const void *ctx)
{
    return (double)tcp_get_info(((const WorldFlow *)ctx)->sv).backlog_len;
}

/* Running totals of CPU time; their rate columns give the share of each interval. */
static double probe_cpu_busy_s(const void *ctx)
{
    CpuStats st = cpu_stats(ctx);
    return sim_time_to_sec(st.task_ns + st.softirq_ns + st.ctx_switch_ns);
}

static double probe_cpu_softirq_s(const void *ctx)
{
    return sim_time_to_sec(cpu_stats(ctx).softirq_ns);
}

static double probe_inflight(const void *ctx)
{
    return (double)tcp_get_info(((const WorldFlow *)ctx)->cl).packets_out;
}

/* The counters the standard plots draw (retransmissions, probes, timeouts, segments). */
static const CounterId sampled_counters[] = {
    CTR_TcpOutSegs,         CTR_TcpRetransSegs,         CTR_TcpExtTCPLossProbes,
    CTR_TcpExtTCPTimeouts,  CTR_TcpExtTCPDSACKRecv,     CTR_TcpExtTCPSpuriousRTOs,
    CTR_TcpExtTCPBacklogDrop,
};

void world_add_series(World *w, Series *s)
{
    for (guint i = 0; i < w->hosts->len; i++) {
        Host *h = g_ptr_array_index(w->hosts, i);
        for (size_t k = 0; k < G_N_ELEMENTS(sampled_counters); k++) {
            g_autofree char *name = g_strdup_printf("%s.%s", h->name, counter_name(sampled_counters[k]));
            series_add_column(s, name, probe_counter, &h->ctr.v[sampled_counters[k]]);
        }
        for (uint32_t c = 0; c < h->ncpus; c++) {
            g_autofree char *busy = g_strdup_printf("%s.cpu%u.busy", h->name, c);
            g_autofree char *sirq = g_strdup_printf("%s.cpu%u.softirq", h->name, c);
            series_add_rate_column(s, busy, probe_cpu_busy_s, h->cpus[c]);
            series_add_rate_column(s, sirq, probe_cpu_softirq_s, h->cpus[c]);
        }
    }
    for (guint i = 0; i < w->flows->len; i++) {
        WorldFlow *f = g_ptr_array_index(w->flows, i);
        g_autofree char *d = g_strdup_printf("flow.%s.delivered_bytes", f->name);
        g_autofree char *c = g_strdup_printf("flow.%s.cwnd", f->name);
        g_autofree char *r = g_strdup_printf("flow.%s.srtt_us", f->name);
        g_autofree char *p = g_strdup_printf("flow.%s.packets_out", f->name);
        series_add_column(s, d, probe_delivered, f);
        if (f->wc->type == WORKLOAD_RR) { /* a stream has none: no column of zeros */
            g_autofree char *t = g_strdup_printf("flow.%s.transactions", f->name);
            series_add_column(s, t, probe_transactions, f);
        }
        series_add_column(s, c, probe_cwnd, f);
        series_add_column(s, r, probe_srtt_us, f);
        series_add_column(s, p, probe_inflight, f);
        g_autofree char *rb = g_strdup_printf("flow.%s.rcvbuf", f->name);
        g_autofree char *rw = g_strdup_printf("flow.%s.rcv_wnd", f->name);
        series_add_column(s, rb, probe_rcvbuf, f);
        series_add_column(s, rw, probe_rcv_wnd, f);
        g_autofree char *rr = g_strdup_printf("flow.%s.rcv_rtt_us", f->name);
        series_add_column(s, rr, probe_rcv_rtt_us, f);
        g_autofree char *rm = g_strdup_printf("flow.%s.rmem", f->name);
        g_autofree char *bl = g_strdup_printf("flow.%s.backlog", f->name);
        series_add_column(s, rm, probe_rmem, f);
        series_add_column(s, bl, probe_backlog, f);
    }
}

static FlowResult *flow_result(const WorldFlow *f, sim_time_t measured_ns)
{
    FlowResult *fr = g_new0(FlowResult, 1);
    AppStats st = app_stats(f->app);
    TcpInfo ti = tcp_get_info(f->cl);
    double secs = measured_ns > 0 ? sim_time_to_sec(measured_ns) : 0;
    fr->name = g_strdup(f->name);
    fr->workload = g_strdup(f->wc->name);
    fr->from = g_strdup(f->from->name);
    fr->to = g_strdup(f->to->name);
    fr->bytes_delivered = st.bytes_delivered;
    fr->goodput_bps = secs > 0 ? (double)st.bytes_delivered * 8.0 / secs : 0;
    fr->retrans_segs = flow_retrans(f) - f->retrans_base;
    fr->transactions = st.transactions;
    fr->transactions_per_s = secs > 0 ? (double)st.transactions / secs : 0;
    fr->srtt_ns = ti.srtt_ns;
    fr->cwnd = ti.cwnd;
    return fr;
}

static GArray *cpu_results(const Host *h, const CpuStats *base)
{
    GArray *a = g_array_sized_new(FALSE, TRUE, sizeof(CpuResult), h->ncpus);
    for (uint32_t c = 0; c < h->ncpus; c++) {
        CpuStats now = cpu_stats(h->cpus[c]);
        CpuResult cr = {
            .task_s = sim_time_to_sec(now.task_ns - base[c].task_ns),
            .softirq_s = sim_time_to_sec(now.softirq_ns - base[c].softirq_ns),
            .ctx_switch_s = sim_time_to_sec(now.ctx_switch_ns - base[c].ctx_switch_ns),
            .idle_s = sim_time_to_sec(now.idle_ns - base[c].idle_ns),
            .ctx_switches = now.ctx_switches - base[c].ctx_switches,
            .ksoftirqd_wakeups = now.ksoftirqd_wakeups - base[c].ksoftirqd_wakeups,
        };
        for (int id = 0; id < COST_COUNT; id++)
            cr.profile_ns[id] = now.profile_ns[id] - base[c].profile_ns[id];
        g_array_append_val(a, cr);
    }
    return a;
}

void world_collect(World *w, RunResult *r, sim_time_t measured_ns)
{
    for (guint i = 0; i < w->hosts->len; i++) {
        Host *h = g_ptr_array_index(w->hosts, i);
        HostResult *hr = host_result_new(h->name);
        hr->counters = h->ctr;
        hr->cpus = cpu_results(h, w->cpu_base[i]);
        for (guint c = 0; c < hr->cpus->len; c++)
            for (int id = 0; id < COST_COUNT; id++)
                hr->cpu_profile_ns[id] += g_array_index(hr->cpus, CpuResult, c).profile_ns[id];
        g_ptr_array_add(r->hosts, hr);
    }
    for (guint i = 0; i < w->flows->len; i++)
        g_ptr_array_add(r->flows, flow_result(g_ptr_array_index(w->flows, i), measured_ns));
}

/* ---- read-only views for the invariant checker (models/inspect.h) ---- */

guint world_n_hosts(const World *w)
{
    return w->hosts->len;
}

Host *world_host(const World *w, guint i)
{
    return g_ptr_array_index(w->hosts, i);
}

guint world_n_links(const World *w)
{
    return w->links->len;
}

Link *world_link(const World *w, guint i)
{
    return g_ptr_array_index(w->links, i);
}

const LinkConf *world_link_conf(const World *w, guint i)
{
    return g_ptr_array_index(w->conf->links, i);
}

guint world_n_flows(const World *w)
{
    return w->flows->len;
}

const char *world_flow(const World *w, guint i, TcpSock **cl, TcpSock **sv)
{
    const WorldFlow *f = g_ptr_array_index(w->flows, i);
    *cl = f->cl;
    *sv = f->sv;
    return f->name;
}
