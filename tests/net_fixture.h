/* net_fixture.h - two hosts, by default without CPUs (NULL Cpu: softirq work runs at once), a
 * fake socket on each that records every skb ip_rcv hands it, and helpers to build skbs and
 * links. fix_cpus() gives a host real CPUs (models/cpu.h) for tests of where work is charged.
 * Shared by the device tests (test_nic.c, test_link.c, test_loopback.c, test_pcap.c).
 *
 * Host i has one socket, on port 1; skbs from host s to host d carry sport 1, dport 1.
 */
#ifndef SKSIM_TEST_NET_FIXTURE_H
#define SKSIM_TEST_NET_FIXTURE_H

#include <glib.h>
#include <string.h>

#include "models/netdev.h"
#include "models/sock.h"
#include "models/softnet.h"
#include "models/truesize.h"
#include "models/wire.h"

typedef struct Delivery {
    sim_time_t t;
    uint64_t seq;
    uint32_t len;
    uint16_t segs;
    uint32_t truesize;
    uint8_t flags;
    uint16_t src_host;
    uint16_t sport;
    Cpu *cpu;
} Delivery;

typedef struct FakeSock {
    Sock sk;            /* first: the Sock* handed to rcv is a FakeSock* */
    GArray *rx;         /* Delivery */
    void (*on_rcv)(struct FakeSock *fs, const Skb *skb); /* optional extra action */
    void *ctx;
} FakeSock;

typedef struct NetFix {
    Sim *sim;
    HostConf conf[2];
    Host host[2];
    FakeSock sock[2];
    NetDev *nic[2];
    NetDev *lo[2];
    LinkConf lconf;
    Link *link;
    Cpu *cpus[2][4];
} NetFix;

static inline void fake_rcv(Sock *sk, Skb *skb, Cpu *cpu)
{
    FakeSock *fs = (FakeSock *)sk;
    Delivery d = { .t = sim_now(sk->host->sim), .seq = skb->seq, .len = skb->len,
                   .segs = skb->gso_segs, .truesize = skb->truesize, .flags = skb->flags,
                   .src_host = skb->src_host, .sport = skb->sport, .cpu = cpu };
    g_array_append_val(fs->rx, d);
    if (fs->on_rcv)
        fs->on_rcv(fs, skb);
    skb_free(sk->host->pool, skb);
}

static const SockOps fake_ops = { .rcv = fake_rcv };

/* Defaults of the scenario key table (sim/conf_keys.c): MTU 1500, rings of 1024, qdisc 1000,
 * GRO and TSO on, IRQ on CPU 0 without coalescing; netdev_max_backlog 1000, NAPI weight 64,
 * netdev_budget 300 / 2 ms; EEVDF with voluntary preemption. */
static inline void fix_host_conf(HostConf *c, const char *name)
{
    memset(c, 0, sizeof(*c));
    c->name = (char *)name;
    c->hz = 1000;
    c->sched = (SchedConf){ .policy = SCHED_EEVDF, .latency_ns = 6 * SIM_MS,
                            .min_granularity_ns = 750 * SIM_US,
                            .wakeup_granularity_ns = 1 * SIM_MS, .base_slice_ns = 750 * SIM_US,
                            .preempt = PREEMPT_VOLUNTARY, .irq_time_accounting = true };
    c->tcp.netdev_budget = 300;
    c->tcp.netdev_budget_ns = 0; /* 2 jiffies: 2 * USEC_PER_SEC / HZ */
    c->nic = (NicConf){ .mtu = 1500, .rx_ring = 1024, .tx_ring = 1024, .qdisc_limit = 1000,
                        .gro = true, .tso = true, .gso = true, .irq_cpu = 0, .irq_coalesce_ns = 0,
                        .rx_queues = 1 };
    c->tcp.max_backlog = 1000;
    c->tcp.napi_weight = 64;
    cost_table_defaults(&c->costs);
}

/* Hosts and sockets only; devices are added by fix_link / fix_loopback after any conf edits. */
static inline void fix_init(NetFix *f, uint64_t seed)
{
    memset(f, 0, sizeof(*f));
    f->sim = sim_new(seed);
    static const char *const names[2] = { "a", "b" };
    for (int i = 0; i < 2; i++) {
        fix_host_conf(&f->conf[i], names[i]);
        Host *h = &f->host[i];
        h->id = (uint16_t)i;
        h->name = names[i];
        h->sim = f->sim;
        h->conf = &f->conf[i];
        h->hz = 1000;
        h->pool = skb_pool_new();
        h->socks = g_ptr_array_new();
        FakeSock *fs = &f->sock[i];
        fs->sk.host = h;
        fs->sk.port = 1;
        fs->sk.ops = &fake_ops;
        fs->rx = g_array_new(FALSE, TRUE, sizeof(Delivery));
        g_ptr_array_add(h->socks, &fs->sk);
    }
}

/* A link a <-> b with the given rate, delay and queue (packets); NICs from the host confs. */
static inline void fix_link(NetFix *f, uint64_t rate_bps, sim_time_t delay_ns, uint32_t queue_pkts,
                     double loss)
{
    f->lconf = (LinkConf){ .name = "wire", .a = "a", .b = "b", .rate_bps = rate_bps,
                           .delay_ns = delay_ns, .queue_pkts = queue_pkts, .loss = loss };
    for (int i = 0; i < 2; i++) {
        f->nic[i] = netdev_new_nic(&f->host[i], &f->conf[i].nic, 0);
        f->host[i].devs = &f->nic[i];
        f->host[i].ndevs = 1;
        ip_route_add(&f->host[i], (uint16_t)(1 - i), f->nic[i]);
    }
    f->link = link_new(f->sim, &f->lconf, f->nic[0], f->nic[1], sim_seed(f->sim));
}

/* Give host i n real CPUs (before fix_loopback, which sizes its per-CPU queues by them). */
static inline void fix_cpus(NetFix *f, int i, uint32_t n)
{
    g_assert(n <= 4);
    Host *h = &f->host[i];
    f->conf[i].cpus = n;
    h->ncpus = n;
    h->cpus = f->cpus[i];
    for (uint32_t c = 0; c < n; c++)
        f->cpus[i][c] = cpu_new(h, c);
}

static inline void fix_loopback(NetFix *f)
{
    for (int i = 0; i < 2; i++) {
        f->host[i].softnet = softnet_new(&f->host[i]);
        f->lo[i] = netdev_new_loopback(&f->host[i]);
        f->host[i].loopback = f->lo[i];
    }
}

static inline void fix_free(NetFix *f)
{
    link_free(f->link);
    for (int i = 0; i < 2; i++) {
        softnet_free(f->host[i].softnet);
        netdev_free(f->nic[i]);
        netdev_free(f->lo[i]);
        for (uint32_t c = 0; c < f->host[i].ncpus; c++)
            cpu_free(f->cpus[i][c]);
        g_assert_cmpuint(skb_pool_in_use(f->host[i].pool), ==, 0);
        skb_pool_free(f->host[i].pool);
        g_ptr_array_free(f->host[i].socks, TRUE);
        g_array_free(f->sock[i].rx, TRUE);
    }
    sim_free(f->sim);
}

/* A data skb from host s to host d: len bytes at seq, cut at mss (TSO when len > mss). Linux
 * senders set PSH on the last segment of every TSO burst; psh says whether this one has it. */
static inline Skb *fix_data(NetFix *f, int s, int d, uint64_t seq, uint32_t len, uint32_t mss, bool psh)
{
    Skb *skb = skb_alloc(f->host[s].pool);
    skb->conn = 1;
    skb->src_host = (uint16_t)s;
    skb->dst_host = (uint16_t)d;
    skb->sport = 1;
    skb->dport = 1;
    skb->seq = seq;
    skb->end_seq = seq + len;
    skb->ack_seq = 1;
    skb->win = 65535;
    skb->flags = (uint8_t)(TCPHDR_ACK | (psh ? TCPHDR_PSH : 0));
    skb->len = len;
    skb->gso_size = (uint16_t)mss;
    skb->gso_segs = (uint16_t)((len + mss - 1) / mss);
    skb->truesize = truesize_tx_skb(len);
    return skb;
}

/* A pure ACK from host s to host d. */
static inline Skb *fix_ack(NetFix *f, int s, int d, uint64_t ack)
{
    Skb *skb = fix_data(f, s, d, 1, 0, 1, false);
    skb->ack_seq = ack;
    skb->gso_size = 0;
    skb->gso_segs = 1;
    skb->truesize = truesize_tx_ack();
    return skb;
}

static inline const Delivery *fix_rx(const NetFix *f, int host, guint i)
{
    g_assert_cmpuint(i, <, f->sock[host].rx->len);
    return &g_array_index(f->sock[host].rx, Delivery, i);
}

#endif
