/* memory.c - the up-front memory estimate of a scenario (see memory.h).
 *
 * The simulator keeps no payload: an skb is a struct Skb of a couple of hundred bytes whatever
 * it carries, so memory is the number of skbs that can be alive at once times sizeof(Skb). The
 * sockets bound that number: the kernel's accounting charges truesize per skb, so a buffer of B
 * bytes holds at most B / truesize skbs; the smallest truesize (an MSS-sized skb) gives the
 * upper estimate. Why up front: a 10000-flow scenario with 1 GiB buffers must fail in a
 * millisecond with a message, not after swapping the machine to death.
 */
#include "models/memory.h"

#include <unistd.h>

#include "models/skb.h"
#include "models/tcp_internal.h"
#include "models/truesize.h"

#define MEM_BASE (16u << 20)        /* the program, GLib, the loader: measured ~6 MiB */
#define MEM_PER_CPU (8u << 10)      /* struct Cpu, run queue, ksoftirqd, softirq engine */
#define MEM_PER_FLOW_FIXED 4096u    /* App, two tasks, names, series probes */
#define MEM_MIN_FRAME 64u           /* the smallest frame a byte-limited link queue holds */

static uint64_t skbs_bytes(uint64_t n)
{
    return n * (uint64_t)sizeof(Skb);
}

/* One endpoint pair carrying data from host `from` to host `to`: sender queues, receiver
 * queues and backlog at their ceilings. */
static uint64_t direction_bytes(const HostConf *from, const HostConf *to)
{
    uint32_t mtu = MIN(from->nic.mtu, to->nic.mtu);
    uint32_t mss = mtu > 52 ? mtu - 52 : 1;
    uint64_t snd = MAX((uint64_t)from->tcp.sndbuf, (uint64_t)TCP_WMEM_MAX);
    uint64_t rcv = MAX((uint64_t)to->tcp.rcvbuf, (uint64_t)to->tcp.rcvbuf_max);
    uint64_t peer_snd = MAX((uint64_t)to->tcp.sndbuf, (uint64_t)TCP_WMEM_MAX);
    /* backlog limit at its largest (2 * rcvbuf + sndbuf / 2 + 64 KiB) plus the receive queue */
    uint64_t rcv_side = 3 * rcv + peer_snd / 2 + 65536;
    return skbs_bytes(snd / truesize_tx_skb(mss) + rcv_side / truesize_rx_frame(mtu));
}

static const HostConf *host(const ScenarioConf *c, const char *name)
{
    return scenario_conf_host(c, name);
}

uint64_t memory_series_columns(const ScenarioConf *c)
{
    uint64_t columns = 0;
    for (guint i = 0; i < c->hosts->len; i++) {
        const HostConf *h = g_ptr_array_index(c->hosts, i);
        columns += 7 + 2ull * h->cpus; /* sampled counters; busy and softirq per CPU */
    }
    for (guint i = 0; i < c->workloads->len; i++) {
        const WorkloadConf *w = g_ptr_array_index(c->workloads, i);
        /* 4 from the sender's socket, 5 from the receiver's; an rr flow also counts its
         * transactions */
        columns += (w->type == WORKLOAD_RR ? 10ull : 9ull) * w->flows;
    }
    return columns;
}

uint64_t memory_estimate(const ScenarioConf *c)
{
    uint64_t total = MEM_BASE;
    for (guint i = 0; i < c->hosts->len; i++) {
        const HostConf *h = g_ptr_array_index(c->hosts, i);
        total += (uint64_t)h->cpus * MEM_PER_CPU;
    }
    for (guint i = 0; i < c->links->len; i++) {
        const LinkConf *l = g_ptr_array_index(c->links, i);
        const HostConf *ends[2] = { host(c, l->a), host(c, l->b) };
        uint64_t queue = l->queue_bytes ? l->queue_bytes / MEM_MIN_FRAME : l->queue_pkts;
        total += 2 * skbs_bytes(queue);
        for (int e = 0; e < 2; e++)
            if (ends[e])
                total += skbs_bytes((uint64_t)ends[e]->nic.rx_ring + ends[e]->nic.tx_ring +
                                    ends[e]->nic.qdisc_limit);
    }
    for (guint i = 0; i < c->workloads->len; i++) {
        const WorkloadConf *w = g_ptr_array_index(c->workloads, i);
        const HostConf *a = host(c, w->from), *b = host(c, w->to);
        if (!a || !b)
            continue;
        uint64_t per_flow = 2 * sizeof(TcpSock) + MEM_PER_FLOW_FIXED + direction_bytes(a, b);
        if (w->type == WORKLOAD_RR)
            per_flow += direction_bytes(b, a);
        total += (uint64_t)w->flows * per_flow;
    }
    /* the time series: one double per column per sample, in arrays that grow by doubling */
    uint64_t rows = c->sample_interval_ns ? (uint64_t)(c->duration_ns / c->sample_interval_ns) + 2 : 2;
    total += 2 * rows * (memory_series_columns(c) + 1) * sizeof(double);
    return total;
}

uint64_t memory_default_limit(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    if (pages <= 0 || page <= 0)
        return 0;
    return (uint64_t)pages * (uint64_t)page / 4 * 3;
}
