/* conf_check.c - cross-field and cross-reference checks on a bound ScenarioConf.
 *
 * Kept apart from binding because these rules read the final values (after defaults, variant and
 * --set), not one node at a time. Locations are recovered from the tree by dotted path; entry
 * names never contain dots, so the paths are unambiguous.
 */
#include "sim/conf_check.h"

#include <inttypes.h>
#include <string.h>

#include "sim/scenario.h"

/* "1 CPU (only CPU 0)", "4 CPUs (0 to 3)". */
static char *cpus_text(uint32_t cpus)
{
    if (cpus == 1)
        return g_strdup("1 CPU (only CPU 0)");
    return g_strdup_printf("%" PRIu32 " CPUs (0 to %" PRIu32 ")", cpus, cpus - 1);
}

/* The node at `path`, or the deepest mapping on the way to it. */
static const ConfNode *locate(const ConfNode *root, const char *path)
{
    g_auto(GStrv) parts = g_strsplit(path, ".", -1);
    const ConfNode *n = root;
    for (guint i = 0; parts[i]; i++) {
        const ConfNode *next = conf_map_get(n, parts[i]);
        if (!next)
            break;
        n = next;
    }
    return n;
}

/* "1s", "250ms", "1500us", "7ns": the largest unit that divides exactly. */
static char *fmt_duration(sim_time_t ns)
{
    static const struct {
        const char *unit;
        sim_time_t div;
    } units[] = {{"s", SIM_S}, {"ms", SIM_MS}, {"us", SIM_US}};
    for (guint i = 0; i < G_N_ELEMENTS(units); i++)
        if (ns != 0 && ns % units[i].div == 0)
            return g_strdup_printf("%" PRId64 "%s", ns / units[i].div, units[i].unit);
    return g_strdup_printf("%" PRId64 "ns", ns);
}

static gboolean check_hosts_present(const ScenarioConf *c, const ConfNode *root, const char *file,
                                    GError **error)
{
    if (c->hosts->len > 0)
        return TRUE;
    const ConfNode *hosts = conf_map_get(root, "hosts");
    if (!hosts)
        conf_set_error(error, file, root, SKSIM_CONF_ERROR_MISSING, "missing required key 'hosts'");
    else
        conf_set_error(error, file, hosts, SKSIM_CONF_ERROR_MISSING,
                       "at least one host is required under hosts");
    return FALSE;
}

static gboolean check_times(const ScenarioConf *c, const ConfNode *root, const char *file,
                            GError **error)
{
    g_autofree char *dur = fmt_duration(c->duration_ns);
    if (c->warmup_ns >= c->duration_ns) {
        g_autofree char *w = fmt_duration(c->warmup_ns);
        conf_set_error(error, file, locate(root, "warmup"), SKSIM_CONF_ERROR_RANGE,
                       "warmup (%s) must be shorter than duration (%s)", w, dur);
        return FALSE;
    }
    for (guint i = 0; i < c->workloads->len; i++) {
        const WorkloadConf *w = g_ptr_array_index(c->workloads, i);
        if (w->start_ns >= c->duration_ns) {
            g_autofree char *path = g_strdup_printf("workloads.%s.start", w->name);
            g_autofree char *s = fmt_duration(w->start_ns);
            conf_set_error(error, file, locate(root, path), SKSIM_CONF_ERROR_RANGE,
                           "%s (%s) must be before the end of the run (duration %s)", path, s,
                           dur);
            return FALSE;
        }
        if (w->start_ns + w->start_jitter_ns >= c->duration_ns) {
            g_autofree char *path = g_strdup_printf("workloads.%s.start_jitter", w->name);
            g_autofree char *s = fmt_duration(w->start_ns + w->start_jitter_ns);
            conf_set_error(error, file, locate(root, path), SKSIM_CONF_ERROR_RANGE,
                           "%s: start + start_jitter (%s) must be before the end of the run "
                           "(duration %s)", path, s, dur);
            return FALSE;
        }
    }
    return TRUE;
}

/* Every CPU of the list l exists on host h. */
static gboolean check_cpus(const CpuList *l, const HostConf *h, const ConfNode *root,
                           const char *file, const char *path, GError **error)
{
    for (uint32_t i = 0; i < l->n; i++) {
        if (l->cpu[i] < h->cpus)
            continue;
        g_autofree char *have = cpus_text(h->cpus);
        conf_set_error(error, file, locate(root, path), SKSIM_CONF_ERROR_RANGE,
                       "%s names CPU %" PRIu32 " but host '%s' has %s", path, l->cpu[i], h->name,
                       have);
        return FALSE;
    }
    return TRUE;
}

/* hosts.H.nic.irq_cpu and every CPU of hosts.H.nic.irq_cpus and nic.rps_cpus exist on H. */
static gboolean check_irq_cpus(const ScenarioConf *c, const ConfNode *root, const char *file,
                               GError **error)
{
    for (guint i = 0; i < c->hosts->len; i++) {
        const HostConf *h = g_ptr_array_index(c->hosts, i);
        g_autofree char *path = g_strdup_printf("hosts.%s.nic.irq_cpu", h->name);
        g_autofree char *lpath = g_strdup_printf("hosts.%s.nic.irq_cpus", h->name);
        if (h->nic.irq_cpu >= h->cpus) {
            g_autofree char *have = cpus_text(h->cpus);
            conf_set_error(error, file, locate(root, path), SKSIM_CONF_ERROR_RANGE,
                           "%s is %" PRIu32 " but host '%s' has %s", path, h->nic.irq_cpu,
                           h->name, have);
            return FALSE;
        }
        if (!check_cpus(&h->nic.irq_cpus, h, root, file, lpath, error))
            return FALSE;
        g_autofree char *rpath = g_strdup_printf("hosts.%s.nic.rps_cpus", h->name);
        if (!check_cpus(&h->nic.rps_cpus, h, root, file, rpath, error))
            return FALSE;
        if (h->nic.arfs && !h->nic.rfs) { /* the NIC's filters follow RFS's table */
            g_autofree char *apath = g_strdup_printf("hosts.%s.nic.arfs", h->name);
            conf_set_error(error, file, locate(root, apath), SKSIM_CONF_ERROR_RANGE,
                           "%s needs hosts.%s.nic.rfs: true (accelerated RFS steers by RFS's "
                           "flow table)", apath, h->name);
            return FALSE;
        }
    }
    return TRUE;
}

/* The host named by the value at `path`, or a REFERENCE error there. */
static const HostConf *host_ref(const ScenarioConf *c, const ConfNode *root, const char *file,
                                const char *path, const char *name, GError **error)
{
    const HostConf *h = scenario_conf_host(c, name);
    if (h)
        return h;
    g_autofree char *hint = scenario_conf_host_hint(c, name);
    conf_set_error(error, file, locate(root, path), SKSIM_CONF_ERROR_REFERENCE,
                   "unknown host '%s' in %s%s", name, path, hint);
    return NULL;
}

static gboolean check_links(const ScenarioConf *c, const ConfNode *root, const char *file,
                            GError **error)
{
    for (guint i = 0; i < c->links->len; i++) {
        const LinkConf *l = g_ptr_array_index(c->links, i);
        g_autofree char *pa = g_strdup_printf("links.%s.a", l->name);
        g_autofree char *pb = g_strdup_printf("links.%s.b", l->name);
        if (!host_ref(c, root, file, pa, l->a, error) || !host_ref(c, root, file, pb, l->b, error))
            return FALSE;
        if (strcmp(l->a, l->b) == 0) {
            conf_set_error(error, file, locate(root, pb), SKSIM_CONF_ERROR_REFERENCE,
                           "%s names the same host as %s ('%s'): a link joins two hosts", pb, pa,
                           l->b);
            return FALSE;
        }
        const LinkConf *twin = scenario_conf_link(c, l->a, l->b);
        if (twin != l) {
            g_autofree char *pl = g_strdup_printf("links.%s", l->name);
            conf_set_error(error, file, locate(root, pl), SKSIM_CONF_ERROR_REFERENCE,
                           "links '%s' and '%s' both join '%s' and '%s': a host routes to a peer "
                           "over one link, so the second would carry nothing",
                           twin->name, l->name, l->a, l->b);
            return FALSE;
        }
    }
    return TRUE;
}

/* hosts.H.nic.rate, when set, is at least the rate of every link H sends into. */
static gboolean check_nic_rates(const ScenarioConf *c, const ConfNode *root, const char *file,
                                GError **error)
{
    for (guint i = 0; i < c->links->len; i++) {
        const LinkConf *l = g_ptr_array_index(c->links, i);
        const char *ends[2] = { l->a, l->b };
        for (int e = 0; e < 2; e++) {
            const HostConf *h = scenario_conf_host(c, ends[e]);
            if (!h || !h->nic.rate_bps || h->nic.rate_bps >= l->rate_bps)
                continue;
            g_autofree char *path = g_strdup_printf("hosts.%s.nic.rate", h->name);
            conf_set_error(error, file, locate(root, path), SKSIM_CONF_ERROR_RANGE,
                           "%s is %" PRIu64 " bit/s, below the %" PRIu64 " bit/s of link '%s' it "
                           "sends into: a NIC slower than its link would be the bottleneck "
                           "itself; leave it unset for a NIC at the link's rate",
                           path, h->nic.rate_bps, l->rate_bps, l->name);
            return FALSE;
        }
    }
    return TRUE;
}

static gboolean check_workloads(const ScenarioConf *c, const ConfNode *root, const char *file,
                                GError **error)
{
    for (guint i = 0; i < c->workloads->len; i++) {
        const WorkloadConf *w = g_ptr_array_index(c->workloads, i);
        g_autofree char *pf = g_strdup_printf("workloads.%s.from", w->name);
        g_autofree char *pt = g_strdup_printf("workloads.%s.to", w->name);
        g_autofree char *pfc = g_strdup_printf("workloads.%s.from_cpus", w->name);
        g_autofree char *ptc = g_strdup_printf("workloads.%s.to_cpus", w->name);
        const HostConf *from = host_ref(c, root, file, pf, w->from, error);
        const HostConf *to = from ? host_ref(c, root, file, pt, w->to, error) : NULL;
        if (!to || !check_cpus(&w->from_cpus, from, root, file, pfc, error) ||
            !check_cpus(&w->to_cpus, to, root, file, ptc, error))
            return FALSE;
        if (from != to && !scenario_conf_link(c, from->name, to->name)) {
            conf_set_error(error, file, locate(root, pt), SKSIM_CONF_ERROR_REFERENCE,
                           "no link joins '%s' and '%s' (%s, %s): add one under links "
                           "(packets take one link, there is no routing through other hosts)",
                           from->name, to->name, pf, pt);
            return FALSE;
        }
    }
    return TRUE;
}

gboolean conf_check(const ScenarioConf *c, const ConfNode *root, const char *file, GError **error)
{
    return check_hosts_present(c, root, file, error) && check_times(c, root, file, error) &&
           check_irq_cpus(c, root, file, error) && check_links(c, root, file, error) &&
           check_nic_rates(c, root, file, error) && check_workloads(c, root, file, error);
}
