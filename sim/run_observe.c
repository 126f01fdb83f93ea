/* run_observe.c - opens, attaches and closes what --pcap, --trace and --log ask a run to write.
 *
 * Why here and not in the models: file names, option syntax and error messages are the command
 * line's business; the models only see a PcapWriter on a device (netdev_set_pcap) and the
 * observers on their Host (models/observe.h). Device names follow the host's devices: eth<k> is
 * the k-th device towards a link, in the scenario's link order, and lo its loopback.
 *
 * The trace's per-flow counters (cwnd, srtt, bytes in flight of each flow's sender) are taken
 * when the time-series sampler takes its row (series_set_listener), so a traced run executes
 * exactly the events of an untraced one.
 */
#include "sim/run_observe.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>

#include "models/inspect.h"
#include "models/netdev.h"
#include "models/observe.h"
#include "models/pcap.h"
#include "models/tcp.h"
#include "sim/evlog.h"
#include "sim/json.h"
#include "sim/trace.h"

typedef struct FlowTrack {
    TcpSock *sender;
    char *cwnd, *srtt, *inflight; /* counter names */
} FlowTrack;

struct RunObservers {
    World *w;
    Sim *sim;
    Series *series;
    GPtrArray *devs;  /* NetDev* to capture */
    GPtrArray *paths; /* char*, its capture file, parallel to devs */
    GPtrArray *dev_hosts; /* const Host*, its host, parallel to devs */
    GPtrArray *pcaps; /* PcapWriter*, parallel to devs once opened */
    Trace *trace;
    EventLog *log;
    uint32_t flows_pid;
    GArray *flows; /* FlowTrack */
};

/* ---- --pcap ---- */

/* What a --pcap spec is resolved against: the hosts in scenario order and how many link
 * devices each has (eth0 .. eth<ndevs-1>, in link order). */
typedef struct HostDevs {
    const char *name;
    uint32_t ndevs;
} HostDevs;

enum { PCAP_ALL = -1, PCAP_LO = -2 }; /* besides k >= 0: eth<k> */

static char *host_list(const GArray *hosts)
{
    GString *s = g_string_new(NULL);
    for (guint i = 0; i < hosts->len; i++)
        g_string_append_printf(s, "%s%s", i ? ", " : "", g_array_index(hosts, HostDevs, i).name);
    return g_string_free(s, FALSE);
}

static char *dev_list(const HostDevs *h)
{
    GString *s = g_string_new("lo");
    for (uint32_t k = 0; k < h->ndevs; k++)
        g_string_append_printf(s, ", eth%u", k);
    return g_string_free(s, FALSE);
}

/* "eth<k>" with k < ndevs; -1 otherwise. */
static int64_t eth_index(const HostDevs *h, const char *nic)
{
    if (!g_str_has_prefix(nic, "eth") || !g_ascii_isdigit(nic[3]))
        return -1;
    guint64 k;
    if (!g_ascii_string_to_unsigned(nic + 3, 10, 0, G_MAXUINT32, &k, NULL) || k >= h->ndevs)
        return -1;
    return (int64_t)k;
}

/* HOST or HOST:NIC -> host index and PCAP_ALL, PCAP_LO or an eth index. */
static gboolean resolve_spec(const char *spec, const GArray *hosts, guint *host, int64_t *dev,
                             GError **error)
{
    const char *colon = strchr(spec, ':');
    g_autofree char *name = colon ? g_strndup(spec, (gsize)(colon - spec)) : g_strdup(spec);
    const char *nic = colon ? colon + 1 : NULL;
    guint i = 0;
    while (i < hosts->len && strcmp(g_array_index(hosts, HostDevs, i).name, name) != 0)
        i++;
    if (i == hosts->len) {
        g_autofree char *known = host_list(hosts);
        g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                    "--pcap '%s': unknown host '%s' (hosts: %s)", spec, name, known);
        return FALSE;
    }
    const HostDevs *h = &g_array_index(hosts, HostDevs, i);
    *host = i;
    if (!nic)
        *dev = PCAP_ALL;
    else if (strcmp(nic, "lo") == 0)
        *dev = PCAP_LO;
    else
        *dev = eth_index(h, nic);
    if (*dev == -1 && nic) {
        g_autofree char *devs = dev_list(h);
        g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                    "--pcap '%s': host '%s' has no device '%s' (devices: %s)", spec, name, nic, devs);
        return FALSE;
    }
    return TRUE;
}

static gboolean check_specs(const GArray *hosts, const char *const *specs, GError **error)
{
    for (guint i = 0; specs && specs[i]; i++) {
        guint host;
        int64_t dev;
        if (!resolve_spec(specs[i], hosts, &host, &dev, error))
            return FALSE;
    }
    return TRUE;
}

gboolean run_pcap_check(const ScenarioConf *conf, const char *const *specs, GError **error)
{
    g_autoptr(GArray) hosts = g_array_new(FALSE, TRUE, sizeof(HostDevs));
    for (guint i = 0; i < conf->hosts->len; i++) {
        const HostConf *hc = g_ptr_array_index(conf->hosts, i);
        HostDevs h = { .name = hc->name };
        for (guint k = 0; k < conf->links->len; k++) { /* as world.c builds them */
            const LinkConf *lc = g_ptr_array_index(conf->links, k);
            h.ndevs += (strcmp(lc->a, hc->name) == 0) + (strcmp(lc->b, hc->name) == 0);
        }
        g_array_append_val(hosts, h);
    }
    return check_specs(hosts, specs, error);
}

static void add_capture(RunObservers *o, const Host *h, NetDev *dev, const char *nic,
                        const char *dir)
{
    for (guint i = 0; i < o->devs->len; i++)
        if (g_ptr_array_index(o->devs, i) == dev)
            return; /* asked twice (HOST and HOST:NIC) */
    g_autofree char *file = g_strdup_printf("%s-%s.pcap", h->name, nic);
    g_ptr_array_add(o->devs, dev);
    g_ptr_array_add(o->paths, g_build_filename(dir, file, NULL));
    g_ptr_array_add(o->dev_hosts, (gpointer)h);
}

static void add_eth(RunObservers *o, Host *h, uint32_t k, const char *dir)
{
    char eth[24];
    g_snprintf(eth, sizeof eth, "eth%u", k);
    add_capture(o, h, h->devs[k], eth, dir);
}

/* Every spec is resolved before any file is opened, so a bad name leaves nothing behind. */
static gboolean add_captures(RunObservers *o, const char *const *specs, const char *dir,
                             GError **error)
{
    g_autoptr(GArray) hosts = g_array_new(FALSE, TRUE, sizeof(HostDevs));
    for (guint i = 0; i < world_n_hosts(o->w); i++) {
        const Host *h = world_host(o->w, i);
        HostDevs hd = { .name = h->name, .ndevs = h->ndevs };
        g_array_append_val(hosts, hd);
    }
    for (guint i = 0; specs && specs[i]; i++) {
        guint host;
        int64_t dev;
        if (!resolve_spec(specs[i], hosts, &host, &dev, error))
            return FALSE;
        Host *h = world_host(o->w, host);
        if (dev == PCAP_ALL || dev == PCAP_LO)
            add_capture(o, h, h->loopback, "lo", dir);
        for (uint32_t k = 0; dev == PCAP_ALL && k < h->ndevs; k++)
            add_eth(o, h, k, dir);
        if (dev >= 0)
            add_eth(o, h, (uint32_t)dev, dir);
    }
    return TRUE;
}

static PcapEndpoint pcap_end(TcpSock *tp)
{
    const Sock *sk = tcp_sk(tp);
    TcpInfo ti = tcp_get_info(tp);
    return (PcapEndpoint){ .host = sk->host->id, .port = sk->port, .wscale = ti.rcv_wscale,
                           .mss = (uint16_t)MIN(ti.syn_mss, 65535u) };
}

/* Does a capture on dev (of host h) see the connection between hosts a and b? */
static bool capture_sees(const NetDev *dev, const Host *h, uint16_t a, uint16_t b)
{
    if (dev == h->loopback)
        return a == h->id && b == h->id;
    return (a == h->id && netdev_routes_to(dev, b)) || (b == h->id && netdev_routes_to(dev, a));
}

/* The handshake of every connection the device carries, at the run's start. */
static void capture_handshakes(RunObservers *o, PcapWriter *pw, const NetDev *dev, const Host *h)
{
    for (guint f = 0; f < world_n_flows(o->w); f++) {
        TcpSock *cl, *sv;
        world_flow(o->w, f, &cl, &sv);
        PcapEndpoint c = pcap_end(cl), s = pcap_end(sv);
        if (!capture_sees(dev, h, c.host, s.host))
            continue;
        TcpInfo ti = tcp_get_info(cl);
        pcap_writer_add_connection(pw, sim_now(o->sim), &c, &s, ti.sack_ok, ti.ts_ok);
    }
}

static gboolean open_captures(RunObservers *o, uint32_t snaplen, GError **error)
{
    for (guint i = 0; i < o->devs->len; i++) {
        PcapWriter *pw = pcap_writer_open(g_ptr_array_index(o->paths, i), snaplen, error);
        if (!pw)
            return FALSE;
        g_ptr_array_add(o->pcaps, pw);
        NetDev *dev = g_ptr_array_index(o->devs, i);
        netdev_set_pcap(dev, pw);
        capture_handshakes(o, pw, dev, g_ptr_array_index(o->dev_hosts, i));
    }
    return TRUE;
}

/* ---- --trace ---- */

static char *trace_other_data(const ScenarioConf *conf)
{
    GString *s = g_string_new(NULL);
    JsonWriter *jw = json_writer_new(s, false);
    json_begin_object(jw);
    json_key(jw, "scenario");
    json_string(jw, conf->name);
    json_key(jw, "variant");
    json_string(jw, conf->variant ? conf->variant : "base");
    json_key(jw, "seed");
    json_uint(jw, conf->seed);
    json_key(jw, "generator");
    json_string(jw, "sksim " SKSIM_VERSION);
    json_end_object(jw);
    json_writer_free(jw);
    return g_string_free(s, FALSE);
}

static void flow_track_clear(gpointer p)
{
    FlowTrack *f = p;
    g_free(f->cwnd);
    g_free(f->srtt);
    g_free(f->inflight);
}

static void sample_flows(void *ctx, sim_time_t now)
{
    RunObservers *o = ctx;
    for (guint i = 0; i < o->flows->len; i++) {
        const FlowTrack *f = &g_array_index(o->flows, FlowTrack, i);
        TcpInfo ti = tcp_get_info(f->sender);
        trace_counter(o->trace, o->flows_pid, now, f->cwnd, "segments", ti.cwnd);
        trace_counter(o->trace, o->flows_pid, now, f->srtt, "us", (double)ti.srtt_ns / 1e3);
        trace_counter(o->trace, o->flows_pid, now, f->inflight, "bytes", (double)ti.bytes_in_flight);
    }
}

static void trace_flows(RunObservers *o)
{
    o->flows_pid = world_n_hosts(o->w) + 1u;
    trace_process_name(o->trace, o->flows_pid, "flows", (int)o->flows_pid);
    for (guint i = 0; i < world_n_flows(o->w); i++) {
        TcpSock *cl, *sv;
        const char *name = world_flow(o->w, i, &cl, &sv);
        FlowTrack f = {
            .sender = cl,
            .cwnd = g_strdup_printf("cwnd %s", name),
            .srtt = g_strdup_printf("srtt %s", name),
            .inflight = g_strdup_printf("in flight %s", name),
        };
        g_array_append_val(o->flows, f);
    }
    series_set_listener(o->series, sample_flows, o);
}

/* The trace file of this run, with the window. */
static gboolean open_trace(RunObservers *o, const ScenarioConf *conf, const RunOptions *opt,
                           GError **error)
{
    g_autofree char *dir = g_path_get_dirname(opt->trace_path);
    if (g_mkdir_with_parents(dir, 0777) != 0) {
        int e = errno;
        g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(e), "%s: cannot create directory: %s",
                    dir, g_strerror(e));
        return FALSE;
    }
    g_autofree char *other = trace_other_data(conf);
    o->trace = trace_open(opt->trace_path, opt->trace_t0, opt->trace_t1, other, error);
    if (!o->trace)
        return FALSE;
    trace_flows(o);
    return TRUE;
}

/* ---- open / close ---- */

static void observers_free(RunObservers *o)
{
    g_ptr_array_free(o->devs, TRUE);
    g_ptr_array_free(o->paths, TRUE);
    g_ptr_array_free(o->dev_hosts, TRUE);
    g_ptr_array_free(o->pcaps, TRUE);
    g_array_free(o->flows, TRUE);
    g_free(o);
}

static void detach(RunObservers *o)
{
    for (guint i = 0; i < o->devs->len; i++)
        netdev_set_pcap(g_ptr_array_index(o->devs, i), NULL);
    for (guint i = 0; i < world_n_hosts(o->w); i++)
        obs_detach_host(world_host(o->w, i));
    if (o->trace)
        series_set_listener(o->series, NULL, NULL);
}

/* A failed open: undo what was attached and delete the temporary files. */
static void abort_all(RunObservers *o)
{
    detach(o);
    for (guint i = 0; i < o->pcaps->len; i++) {
        pcap_writer_close(g_ptr_array_index(o->pcaps, i), NULL);
        g_unlink(g_ptr_array_index(o->paths, i));
    }
    trace_abort(o->trace);
    evlog_abort(o->log);
    observers_free(o);
}

RunObservers *run_observers_open(World *w, Sim *sim, Series *series, const ScenarioConf *conf,
                                 const RunOptions *opt, GError **error)
{
    RunObservers *o = g_new0(RunObservers, 1);
    o->w = w;
    o->sim = sim;
    o->series = series;
    o->devs = g_ptr_array_new();
    o->paths = g_ptr_array_new_with_free_func(g_free);
    o->dev_hosts = g_ptr_array_new();
    o->pcaps = g_ptr_array_new();
    o->flows = g_array_new(FALSE, TRUE, sizeof(FlowTrack));
    g_array_set_clear_func(o->flows, flow_track_clear);
    bool wants_dir = (opt->pcap && opt->pcap[0]) || opt->log_mask;
    if (wants_dir && !opt->out_dir) {
        g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_FAILED,
                    "--pcap and --log need an output directory");
        abort_all(o);
        return NULL;
    }
    if (!add_captures(o, opt->pcap, opt->out_dir, error)) {
        abort_all(o);
        return NULL;
    }
    uint32_t snaplen = opt->pcap_snaplen ? opt->pcap_snaplen : RUN_PCAP_SNAPLEN_DEFAULT;
    if (!open_captures(o, snaplen, error)) {
        abort_all(o);
        return NULL;
    }
    if (opt->log_mask) {
        g_autofree char *path = g_build_filename(opt->out_dir, "events.log", NULL);
        o->log = evlog_open(path, error);
        if (!o->log) {
            abort_all(o);
            return NULL;
        }
    }
    if (opt->trace_path && !open_trace(o, conf, opt, error)) {
        abort_all(o);
        return NULL;
    }
    for (guint i = 0; i < world_n_hosts(w); i++)
        obs_attach_host(world_host(w, i), o->trace, o->log, opt->log_mask);
    return o;
}

gboolean run_observers_close(RunObservers *o, GError **error)
{
    detach(o);
    gboolean ok = TRUE;
    for (guint i = 0; i < o->pcaps->len; i++) {
        GError **e = ok ? error : NULL;
        ok = pcap_writer_close(g_ptr_array_index(o->pcaps, i), e) && ok;
    }
    if (o->log) {
        GError **e = ok ? error : NULL;
        ok = evlog_close(o->log, e) && ok;
    }
    if (o->trace) {
        GError **e = ok ? error : NULL;
        ok = trace_close(o->trace, sim_now(o->sim), e) && ok;
    }
    observers_free(o);
    return ok;
}
