/* invariants.c - checks that the models keep their books straight (see invariants.h for the
 * list). Each check reads state only: models expose it through their headers, models/inspect.h
 * and, for TCP, tcp_internal.h. The checker keeps one snapshot of sequence numbers per socket so
 * that it can see them go backwards between two checks.
 *
 * Why: a simulator that silently loses a byte or double-counts a drop still prints plausible
 * counters; these checks turn such bugs into a stopped run with a precise message (exit 3).
 */
#include "models/invariants.h"

#include <inttypes.h>

#include "models/cpu.h"
#include "models/inspect.h"
#include "models/tcp_internal.h"
#include "models/truesize.h"
#include "sim/evkind.h"

G_DEFINE_QUARK(sksim-invariant-error-quark, sksim_invariant_error)

typedef struct SeqSnap {
    uint64_t snd_una, write_seq, rcv_nxt, copied_seq;
    uint64_t base; /* snd_una when the checker was made (before the first byte): byte 0 */
} SeqSnap;

struct Invariants {
    World *w;
    Sim *sim;
    GHashTable *snaps; /* TcpSock* -> SeqSnap* */
};

Invariants *invariants_new(World *w, Sim *sim)
{
    Invariants *inv = g_new0(Invariants, 1);
    inv->w = w;
    inv->sim = sim;
    inv->snaps = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free);
    for (guint i = 0; i < world_n_flows(w); i++) {
        TcpSock *ends[2];
        world_flow(w, i, &ends[0], &ends[1]);
        for (int e = 0; e < 2; e++) {
            const TcpSock *tp = ends[e];
            SeqSnap snap = { tp->snd_una, tp->write_seq, tp->rcv_nxt, tp->copied_seq, tp->snd_una };
            g_hash_table_insert(inv->snaps, (gpointer)tp, g_memdup2(&snap, sizeof snap));
        }
    }
    return inv;
}

void invariants_free(Invariants *inv)
{
    if (!inv)
        return;
    g_hash_table_destroy(inv->snaps);
    g_free(inv);
}

static gboolean violated(Invariants *inv, GError **error, const char *name, const char *object,
                         const char *fmt, ...) G_GNUC_PRINTF(5, 6);

static gboolean violated(Invariants *inv, GError **error, const char *name, const char *object,
                         const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    g_autofree char *details = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    g_set_error(error, SKSIM_INVARIANT_ERROR, 0, "invariant violated: %s: %s at t=%.9fs: %s", name,
                object, sim_time_to_sec(sim_now(inv->sim)), details);
    return FALSE;
}

/* ---- TCP: one direction of a flow, from sender s to receiver r ---------------------------- */

/* Bytes of q beyond `from`, and whether q is contiguous (each skb starts where the last ended). */
static uint64_t queue_bytes_from(const SkbQueue *q, uint64_t from, bool *contiguous,
                                 uint64_t *first_seq, uint64_t *last_end)
{
    uint64_t sum = 0;
    *contiguous = true;
    *first_seq = q->head ? q->head->seq : from;
    *last_end = from;
    for (const Skb *skb = q->head; skb; skb = skb->next) {
        if (skb != q->head && skb->seq != *last_end)
            *contiguous = false;
        if (skb->end_seq > from)
            sum += skb->end_seq - MAX(skb->seq, from);
        *last_end = skb->end_seq;
    }
    return sum;
}

static gboolean check_direction(Invariants *inv, const char *obj, const TcpSock *s,
                                const TcpSock *r, GError **error)
{
    if (!(s->snd_una <= s->snd_nxt && s->snd_nxt <= s->write_seq))
        return violated(inv, error, "no_dup_delivery", obj,
                        "sender snd_una %" PRIu64 " snd_nxt %" PRIu64 " write_seq %" PRIu64
                        " out of order", s->snd_una, s->snd_nxt, s->write_seq);
    if (!(r->copied_seq <= r->rcv_nxt && s->snd_una <= r->rcv_nxt && r->rcv_nxt <= s->snd_nxt))
        return violated(inv, error, "no_dup_delivery", obj,
                        "receiver copied_seq %" PRIu64 " rcv_nxt %" PRIu64
                        " outside sender snd_una %" PRIu64 " .. snd_nxt %" PRIu64,
                        r->copied_seq, r->rcv_nxt, s->snd_una, s->snd_nxt);
    bool contig;
    uint64_t first, end;
    uint64_t unread = queue_bytes_from(&r->rcv_queue, r->copied_seq, &contig, &first, &end);
    if (!contig || (r->rcv_queue.head && (first > r->copied_seq || end != r->rcv_nxt)))
        return violated(inv, error, "no_dup_delivery", obj,
                        "receive queue %" PRIu64 "..%" PRIu64 " (%s) does not run from copied_seq %"
                        PRIu64 " to rcv_nxt %" PRIu64, first, end,
                        contig ? "contiguous" : "overlapping or with holes", r->copied_seq,
                        r->rcv_nxt);
    if (unread != r->rcv_nxt - r->copied_seq)
        return violated(inv, error, "flow_bytes", obj,
                        "receiver: rcv_nxt - copied_seq = %" PRIu64
                        " but the receive queue holds %" PRIu64 " unread bytes",
                        r->rcv_nxt - r->copied_seq, unread);
    const SeqSnap *base = g_hash_table_lookup(inv->snaps, s);
    uint64_t b = base->base;
    uint64_t held = s->write_queue.bytes + s->rtx_queue.bytes;
    if (held != s->write_seq - s->snd_una)
        return violated(inv, error, "flow_bytes", obj,
                        "sender: written and not acked %" PRIu64
                        " bytes but write + retransmit queues hold %" PRIu64
                        " (written %" PRIu64 " = delivered %" PRIu64 " + queued at receiver %"
                        PRIu64 " + in flight or queued at sender %" PRIu64 ")",
                        s->write_seq - s->snd_una, held, s->write_seq - b, r->copied_seq - b,
                        r->rcv_nxt - r->copied_seq, s->write_seq - r->rcv_nxt);
    return TRUE;
}

/* tcp_verify_left_out: no more segments sacked or lost than are out. */
static gboolean check_left_out(Invariants *inv, const char *obj, const TcpSock *tp, GError **error)
{
    if ((uint64_t)tp->sacked_out + tp->lost_out <= tp->packets_out)
        return TRUE;
    return violated(inv, error, "tcp_left_out", obj,
                    "sacked_out %u + lost_out %u > packets_out %u", tp->sacked_out, tp->lost_out,
                    tp->packets_out);
}

static gboolean check_monotonic(Invariants *inv, const char *obj, const TcpSock *tp,
                                GError **error)
{
    SeqSnap *old = g_hash_table_lookup(inv->snaps, tp);
    SeqSnap now = { tp->snd_una, tp->write_seq, tp->rcv_nxt, tp->copied_seq, old->base };
    const struct { const char *name; uint64_t was, is; } f[] = {
        { "snd_una", old->snd_una, now.snd_una },
        { "write_seq", old->write_seq, now.write_seq },
        { "rcv_nxt", old->rcv_nxt, now.rcv_nxt },
        { "copied_seq", old->copied_seq, now.copied_seq },
    };
    for (size_t i = 0; i < G_N_ELEMENTS(f); i++)
        if (f[i].is < f[i].was)
            return violated(inv, error, "seq_monotonic", obj, "%s went back from %" PRIu64
                            " to %" PRIu64, f[i].name, f[i].was, f[i].is);
    *old = now;
    return TRUE;
}

static gboolean check_flows(Invariants *inv, GError **error)
{
    for (guint i = 0; i < world_n_flows(inv->w); i++) {
        TcpSock *cl, *sv;
        const char *name = world_flow(inv->w, i, &cl, &sv);
        const char *a = tcp_sk(cl)->host->name, *b = tcp_sk(sv)->host->name;
        g_autofree char *fwd = g_strdup_printf("flow %s (%s->%s)", name, a, b);
        g_autofree char *rev = g_strdup_printf("flow %s (%s->%s)", name, b, a);
        g_autofree char *ocl = g_strdup_printf("flow %s (%s end)", name, a);
        g_autofree char *osv = g_strdup_printf("flow %s (%s end)", name, b);
        if (!check_direction(inv, fwd, cl, sv, error) || !check_direction(inv, rev, sv, cl, error) ||
            !check_monotonic(inv, ocl, cl, error) || !check_monotonic(inv, osv, sv, error) ||
            !check_left_out(inv, ocl, cl, error) || !check_left_out(inv, osv, sv, error))
            return FALSE;
    }
    return TRUE;
}

/* ---- sockets, CPUs, devices, links, drops ------------------------------------------------- */

static uint32_t max_truesize(const Skb *skb)
{
    uint32_t m = 0;
    for (; skb; skb = skb->next)
        m = MAX(m, skb->truesize);
    return m;
}

static gboolean check_backlog(Invariants *inv, const Host *h, const Sock *sk, GError **error)
{
    /* the skb that crossed the limit may be queued, in the drain's batch or already processed
     * (backlog_len is reset only when the drain ends): allow the largest of those, at least a
     * 64 KB skb's truesize (a GRO skb of tiny segments can be far larger: 1.6 MB at MTU 68) */
    uint64_t one = MAX(MAX(truesize_tx_skb(TCP_GSO_MAX_SIZE), sk->drained_max_truesize),
                       MAX(max_truesize(sk->backlog.head), max_truesize(sk->drain_batch)));
    uint64_t limit = sk_backlog_limit(sk);
    if (sk->backlog_len <= limit + one)
        return TRUE;
    g_autofree char *obj = g_strdup_printf("socket %s:%u", h->name, sk->port);
    return violated(inv, error, "backlog_limit", obj,
                    "backlog_len %" PRIu64 " > limit %" PRIu64 " + one skb %" PRIu64
                    "%s", sk->backlog_len, limit, one,
                    sk->backlog_len > (UINT64_MAX >> 1) ? " (negative)" : "");
}

static gboolean check_cpu(Invariants *inv, const Host *h, uint32_t i, GError **error)
{
    CpuStats st = cpu_stats(h->cpus[i]);
    sim_time_t sum = st.task_ns + st.softirq_ns + st.ctx_switch_ns + st.idle_ns;
    sim_time_t now = sim_now(inv->sim);
    if (sum == now)
        return TRUE;
    g_autofree char *obj = g_strdup_printf("host %s cpu %u", h->name, i);
    return violated(inv, error, "cpu_time", obj,
                    "task %" PRIu64 " + softirq %" PRIu64 " + ctx_switch %" PRIu64 " + idle %"
                    PRIu64 " = %" PRIu64 " ns, simulated time %" PRIu64 " ns",
                    (uint64_t)st.task_ns, (uint64_t)st.softirq_ns, (uint64_t)st.ctx_switch_ns,
                    (uint64_t)st.idle_ns, (uint64_t)sum, (uint64_t)now);
}

static gboolean check_queue(Invariants *inv, const char *obj, const char *what, uint64_t len,
                            uint64_t limit, GError **error)
{
    if (len <= limit)
        return TRUE;
    return violated(inv, error, "queue_limit", obj, "%s %" PRIu64 " > limit %" PRIu64, what, len,
                    limit);
}

static gboolean check_dev(Invariants *inv, const Host *h, const NetDev *dev, const char *devname,
                          GError **error)
{
    NetDevQueues q = netdev_queues(dev);
    g_autofree char *obj = g_strdup_printf("host %s %s", h->name, devname);
    if (q.loopback)
        return check_queue(inv, obj, "input_pkt_queue", q.lo_input_qlen, q.lo_input_limit, error);
    return check_queue(inv, obj, "qdisc", q.qdisc_qlen, q.qdisc_limit, error) &&
           check_queue(inv, obj, "tx_ring", q.tx_ring_used, q.tx_ring_limit, error) &&
           check_queue(inv, obj, "rx_ring", q.rx_ring_qlen, q.rx_ring_limit, error);
}

static gboolean check_drops(Invariants *inv, const Host *h, GError **error)
{
    uint64_t sock = 0, dev = host_dev_drops(h);
    for (guint i = 0; i < h->socks->len; i++)
        sock += ((const Sock *)g_ptr_array_index(h->socks, i))->backlog_drops;
    const uint64_t *v = h->ctr.v;
    uint64_t diag = v[CTR_SksimQdiscDrops] + v[CTR_SksimQdiscCodelDrops] +
                    v[CTR_SksimQdiscOverlimitDrops] + v[CTR_SksimLinkQueueDrops] +
                    v[CTR_SksimLinkRandomLosses] + v[CTR_SksimRxRingDrops] +
                    v[CTR_SksimNetdevBacklogDrops];
    g_autofree char *obj = g_strdup_printf("host %s", h->name);
    if (h->dev_drops_at_reset + diag != dev)
        return violated(inv, error, "drop_counters", obj,
                        "the Sksim*Drops/Losses counters add up to %" PRIu64 " since the reset at %"
                        PRIu64 " drops, but the devices and links dropped %" PRIu64,
                        diag, h->dev_drops_at_reset, dev);
    if (sock + dev == h->drop_tally)
        return TRUE;
    return violated(inv, error, "drop_tally", obj,
                    "drop counters add up to %" PRIu64 " (socket backlog %" PRIu64
                    ", devices and links %" PRIu64 ") but the drop paths dropped %" PRIu64,
                    sock + dev, sock, dev, h->drop_tally);
}

/* Each loss probe and each RTO is put in exactly one class of sksim's diagnosis (tcp_diag.c). */
static gboolean check_timer_diag(Invariants *inv, const Host *h, GError **error)
{
    const uint64_t *v = h->ctr.v;
    uint64_t tlp = v[CTR_SksimTLPPeerOwnerOffCpu] + v[CTR_SksimTLPPeerOwnerOnCpu] +
                   v[CTR_SksimTLPPeerDelayedAck] + v[CTR_SksimTLPPeerOther];
    uint64_t rto = v[CTR_SksimRTOPeerOwnerOffCpu] + v[CTR_SksimRTOPeerOwnerOnCpu] +
                   v[CTR_SksimRTOPeerDelayedAck] + v[CTR_SksimRTOPeerOther];
    /* Before 5.5 TCPTimeouts counted only some first timeouts (hosts.H.tcp.timeouts_count), a
     * subset of the firings the classes count; the first timeouts it skipped went to one of
     * the failure counters. */
    uint64_t first_fail = v[CTR_TcpExtTCPSackRecoveryFail] + v[CTR_TcpExtTCPRenoRecoveryFail] +
                          v[CTR_TcpExtTCPLossFailures] + v[CTR_TcpExtTCPSackFailures] +
                          v[CTR_TcpExtTCPRenoFailures];
    bool rto_ok = h->conf->tcp.timeouts_count == TCP_TIMEOUTS_EVERY
                      ? rto == v[CTR_TcpExtTCPTimeouts] && first_fail <= rto
                      : v[CTR_TcpExtTCPTimeouts] + first_fail <= rto;
    if (tlp == v[CTR_TcpExtTCPLossProbes] && rto_ok)
        return TRUE;
    g_autofree char *obj = g_strdup_printf("host %s", h->name);
    return violated(inv, error, "timer_diag", obj,
                    "the peer-state classes add up to %" PRIu64 " loss probes and %" PRIu64
                    " RTOs, but TcpExtTCPLossProbes is %" PRIu64 ", TcpExtTCPTimeouts %" PRIu64
                    " and the first-timeout failure counters %" PRIu64 " (timeouts_count %s)",
                    tlp, rto, v[CTR_TcpExtTCPLossProbes], v[CTR_TcpExtTCPTimeouts], first_fail,
                    h->conf->tcp.timeouts_count == TCP_TIMEOUTS_EVERY ? "5.5" : "legacy");
}

static gboolean check_host(Invariants *inv, const Host *h, GError **error)
{
    for (uint32_t i = 0; i < h->ncpus; i++)
        if (!check_cpu(inv, h, i, error))
            return FALSE;
    for (guint i = 0; i < h->socks->len; i++)
        if (!check_backlog(inv, h, g_ptr_array_index(h->socks, i), error))
            return FALSE;
    if (!check_dev(inv, h, h->loopback, "lo", error))
        return FALSE;
    for (uint32_t i = 0; i < h->ndevs; i++) {
        g_autofree char *name = g_strdup_printf("eth%u", i);
        if (!check_dev(inv, h, h->devs[i], name, error))
            return FALSE;
    }
    return check_drops(inv, h, error) && check_timer_diag(inv, h, error);
}

static gboolean check_links(Invariants *inv, GError **error)
{
    for (guint i = 0; i < world_n_links(inv->w); i++) {
        const LinkConf *lc = world_link_conf(inv->w, i);
        for (int d = 0; d < 2; d++) {
            uint64_t frames, bytes;
            if (!link_dir_is_bottleneck(world_link(inv->w, i), d))
                continue;
            link_dir_occupancy(world_link(inv->w, i), d, &frames, &bytes);
            g_autofree char *obj = g_strdup_printf("link %s (%s->%s)", lc->name, d ? lc->b : lc->a,
                                                   d ? lc->a : lc->b);
            gboolean ok = lc->queue_bytes
                              ? check_queue(inv, obj, "queued bytes", bytes, lc->queue_bytes, error)
                              : check_queue(inv, obj, "queued frames", frames, lc->queue_pkts, error);
            if (!ok)
                return FALSE;
        }
    }
    return TRUE;
}

gboolean invariants_check(Invariants *inv, GError **error)
{
    if (!check_flows(inv, error))
        return FALSE;
    for (guint i = 0; i < world_n_hosts(inv->w); i++)
        if (!check_host(inv, world_host(inv->w, i), error))
            return FALSE;
    return check_links(inv, error);
}
