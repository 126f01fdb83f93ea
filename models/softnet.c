/* softnet.c - the per-CPU backlog of received skbs (net/core/dev.c: enqueue_to_backlog,
 * process_backlog), shared by loopback's netif_rx and by RPS/RFS (nic.c).
 *
 * enqueue_to_backlog accepts an skb while the CPU's input_pkt_queue holds at most
 * net.core.netdev_max_backlog skbs (qlen <= max_backlog: 1001 fit with the default 1000) and
 * drops the next; the first skb into an idle queue schedules that CPU's backlog NAPI. On the
 * queuing CPU itself that is raising NET_RX; on another CPU it is an IPI (rps_ipi_queued, sent
 * by net_rps_send_ipi when the queuing softirq is done: here when the queuing step's charge
 * ends, cpu_acted_at), which raises NET_RX there. The IPI's interrupt entry is the target's
 * softirq entry cost.
 *
 * process_backlog: each unit delivers ONE skb (netdev_backlog_deliver: ip_rcv, with the device's
 * own receive accounting). When its process_queue is empty it takes the whole input_pkt_queue
 * over (skb_queue_splice), so new skbs find an empty input queue again while older ones are
 * still being delivered; the poll ends when both are empty. The weight (dev_rx_weight, 64) is
 * applied by cpu.c like any NAPI weight. An skb that another CPU queued (RPS/RFS) arrives
 * cache-cold, its head written by the IRQ CPU: COST_BACKLOG_EXTRA, as for a socket backlog skb.
 *
 * Each queued skb remembers its device (skb->rx_dev, the kernel's skb->dev), so a NIC's skb
 * steered by RPS is delivered as the NIC's and loopback's as lo's.
 */
#include "models/softnet.h"

#include <glib.h>

#include "models/cpu.h"
#include "models/netdev_priv.h"
#include "models/observe.h"
#include "models/skb.h"
#include "models/softirq.h"
#include "sim/evkind.h"

typedef struct SoftnetCpu {
    Softnet *sn;
    uint32_t index;
    SkbQueue input;   /* input_pkt_queue */
    SkbQueue process; /* process_queue */
    SoftirqWork napi; /* sd->backlog */
    bool scheduled;   /* the backlog NAPI is scheduled (or its IPI on its way) */
    SimEvent ipi;     /* the IPI that schedules it from another CPU */
} SoftnetCpu;

struct Softnet {
    Host *host;
    uint32_t ncpus;
    SoftnetCpu *cpu;
    /* RFS, indexed by connection id; each entry a CPU + 1, 0 when unset */
    GArray *rfs_desired; /* rps_sock_flow_table: where the socket was last used */
    GArray *rfs_current; /* rps_dev_flow: where the flow's skbs go now */
};

static uint32_t conn_entry(const GArray *a, uint32_t conn)
{
    return conn < a->len ? g_array_index(a, uint32_t, conn) : 0;
}

static void conn_set(GArray *a, uint32_t conn, uint32_t v)
{
    if (conn >= a->len)
        g_array_set_size(a, conn + 1); /* the new entries are zero: the arrays clear */
    g_array_index(a, uint32_t, conn) = v;
}

void softnet_rfs_record(Softnet *sn, uint32_t conn, uint32_t cpu)
{
    if (conn_entry(sn->rfs_desired, conn) != cpu + 1) /* the kernel writes only on a change */
        conn_set(sn->rfs_desired, conn, cpu + 1);
}

int32_t softnet_rfs_cpu(const Softnet *sn, uint32_t conn)
{
    return (int32_t)conn_entry(sn->rfs_desired, conn) - 1;
}

int32_t softnet_rps_cpu(Softnet *sn, const NicConf *conf, const Skb *skb, uint32_t hash)
{
    if (conf->rfs) {
        uint32_t desired = conn_entry(sn->rfs_desired, skb->conn);
        uint32_t current = conn_entry(sn->rfs_current, skb->conn);
        if (desired) {
            if (current != desired &&
                (!current || softnet_flow_pending(sn, current - 1, skb->conn) == 0)) {
                current = desired;
                conn_set(sn->rfs_current, skb->conn, current);
            }
            return (int32_t)current - 1;
        }
    }
    const CpuList *map = &conf->rps_cpus;
    if (map->n == 0)
        return -1;
    return (int32_t)map->cpu[((uint64_t)hash * map->n) >> 32]; /* reciprocal_scale */
}

static bool process_backlog(SoftirqWork *w, Cpu *cpu)
{
    SoftnetCpu *b = w->ctx;
    if (skb_queue_empty(&b->process)) {
        Skb *skb;
        while ((skb = skb_dequeue(&b->input)) != NULL)
            skb_queue_tail(&b->process, skb);
    }
    Skb *skb = skb_dequeue(&b->process);
    if (skb) {
        NetDev *dev = skb->rx_dev;
        if (skb->rx_steered) /* its lines are in the IRQ CPU's cache (sim/costs.h) */
            cpu_charge_cost(cpu, COST_BACKLOG_EXTRA);
        skb->rx_dev = NULL;
        skb->rx_steered = false;
        netdev_backlog_deliver(dev, skb, cpu);
    }
    if (skb_queue_empty(&b->process) && skb_queue_empty(&b->input)) {
        b->scheduled = false;
        return false;
    }
    return true;
}

/* The IPI arrives: NET_RX on the target CPU. */
static void ipi_fire(Sim *sim, void *ctx)
{
    (void)sim;
    SoftnetCpu *b = ctx;
    cpu_raise_softirq(b->sn->host->cpus[b->index], &b->napi);
}

static void schedule_backlog(SoftnetCpu *b, Cpu *from)
{
    b->scheduled = true;
    Host *h = b->sn->host;
    if (!from || cpu_index(from) == b->index) {
        cpu_raise_softirq(from, &b->napi);
        return;
    }
    sim_schedule_at(h->sim, &b->ipi, cpu_acted_at(from));
}

bool softnet_enqueue(Softnet *sn, NetDev *dev, Skb *skb, uint32_t target, Cpu *from)
{
    g_assert(target < sn->ncpus);
    SoftnetCpu *b = &sn->cpu[target];
    Host *h = sn->host;
    if (b->input.qlen > h->conf->tcp.max_backlog) {
        dev->stats.backlog_drops++;
        h->drop_tally++;
        h->ctr.v[CTR_SksimNetdevBacklogDrops]++;
        SIM_LOG(h, LOG_NIC, from, "backlog_drop", "dev=%s cpu=%u qlen=%u",
                dev->kind == NETDEV_LOOPBACK ? "lo" : "eth", target, b->input.qlen);
        skb_free(h->pool, skb);
        return false;
    }
    skb->rx_dev = dev;
    skb->rx_steered = from && cpu_index(from) != target;
    skb_queue_tail(&b->input, skb);
    if (!b->scheduled)
        schedule_backlog(b, from);
    return true;
}

static uint32_t queue_pending(const SkbQueue *q, uint32_t conn)
{
    uint32_t n = 0;
    for (const Skb *s = q->head; s; s = s->next)
        n += s->conn == conn;
    return n;
}

uint32_t softnet_flow_pending(const Softnet *sn, uint32_t cpu, uint32_t conn)
{
    const SoftnetCpu *b = &sn->cpu[cpu];
    return queue_pending(&b->input, conn) + queue_pending(&b->process, conn);
}

uint32_t softnet_max_input_qlen(const Softnet *sn)
{
    uint32_t m = 0;
    for (uint32_t i = 0; i < sn->ncpus; i++)
        m = MAX(m, sn->cpu[i].input.qlen);
    return m;
}

Softnet *softnet_new(Host *h)
{
    Softnet *sn = g_new0(Softnet, 1);
    sn->host = h;
    sn->ncpus = h->ncpus ? h->ncpus : 1;
    sn->cpu = g_new0(SoftnetCpu, sn->ncpus);
    sn->rfs_desired = g_array_new(FALSE, TRUE, sizeof(uint32_t));
    sn->rfs_current = g_array_new(FALSE, TRUE, sizeof(uint32_t));
    for (uint32_t i = 0; i < sn->ncpus; i++) {
        SoftnetCpu *b = &sn->cpu[i];
        b->sn = sn;
        b->index = i;
        skb_queue_init(&b->input);
        skb_queue_init(&b->process);
        softirq_work_init(&b->napi, SOFTIRQ_NET_RX, process_backlog, b);
        sim_event_init(&b->ipi, ipi_fire, b, EVK_RPS_IPI, (uint32_t)h->id << 16 | 0xfffeu);
    }
    return sn;
}

void softnet_free(Softnet *sn)
{
    if (!sn)
        return;
    for (uint32_t i = 0; i < sn->ncpus; i++) {
        sim_cancel(sn->host->sim, &sn->cpu[i].ipi);
        skb_queue_purge(&sn->cpu[i].input, sn->host->pool);
        skb_queue_purge(&sn->cpu[i].process, sn->host->pool);
    }
    g_free(sn->cpu);
    g_array_free(sn->rfs_desired, TRUE);
    g_array_free(sn->rfs_current, TRUE);
    g_free(sn);
}
