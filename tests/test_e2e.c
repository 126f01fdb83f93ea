/* test_e2e.c - whole-stack checks through the run driver: hosts, NICs, link, TCP and workloads
 * together, on scenarios written inline. Each asserts a figure that follows from first
 * principles (line rate and header sizes, fairness between identical flows). */
#include <glib.h>
#include <math.h>

#include "models/wire.h"
#include "sim/run.h"
#include "sim/scenario.h"

static RunResult *run_text(const char *yaml, const char *variant)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(Scenario) s = scenario_load_data(yaml, strlen(yaml), "inline.yaml", &err);
    g_assert_no_error(err);
    g_autoptr(ScenarioConf) c = scenario_resolve(s, variant, NULL, &err);
    g_assert_no_error(err);
    RunOptions opt = { 0 };
    RunResult *r = run_scenario(c, &opt, &err);
    g_assert_no_error(err);
    return r;
}

static const char *two_hosts_10g =
    "name: e2e\n"
    "duration: 1s\n"
    "warmup: 200ms\n"
    "hosts:\n"
    "  a: {cpus: 2}\n"
    "  b: {cpus: 2, nic: {irq_cpu: 1}}\n"
    "links:\n"
    "  wire: {a: a, b: b, rate: 10Gbit, delay: 10us, queue: 10000pkt}\n"
    "workloads:\n"
    "  bulk: {type: stream, from: a, to: b, flows: %u, to_cpus: [0]}\n";

/* One loss-free flow fills the link: goodput = rate * MSS / (MSS + per-frame overhead).
 * MSS = 1500 - 20 (IP) - 20 (TCP) - 12 (timestamps) = 1448; each frame also carries the
 * TCP/IP headers and Ethernet header, FCS, preamble and gap (models/wire.h):
 * 10e9 * 1448 / (1448 + WIRE_FRAME_OVERHEAD) = 9.4148 Gbit/s with an overhead of 90 bytes.
 * The queue is deep enough that CUBIC never overflows it within the run. */
static void test_single_flow_line_rate(void)
{
    g_autofree char *yaml = g_strdup_printf(two_hosts_10g, 1u);
    g_autoptr(RunResult) r = run_text(yaml, NULL);
    g_assert_cmpuint(r->flows->len, ==, 1);
    const FlowResult *f = g_ptr_array_index(r->flows, 0);
    double expect = 10e9 * 1448.0 / (1448.0 + WIRE_FRAME_OVERHEAD);
    g_test_message("goodput %.4f Gbit/s, expected %.4f", f->goodput_bps / 1e9, expect / 1e9);
    g_assert_cmpuint(f->retrans_segs, ==, 0);
    g_assert_cmpfloat(fabs(f->goodput_bps - expect) / expect, <, 0.02);
}

/* Four identical flows through one drop-tail bottleneck (a 1 Gbit/s link beyond the sender's
 * 10 Gbit/s NIC, hosts.a.nic.rate) share it fairly: Jain's index
 * (sum x)^2 / (n * sum x^2) >= 0.95, and together they still fill the link within 2 %.
 * Fairness comes from losses (CUBIC's multiplicative decrease), so the flows get a second of
 * warm-up to leave slow start behind and four seconds to converge. The link is 1 Gbit/s with a
 * 100-packet queue: at 10 Gbit/s with 1000 packets the windows are ten times larger, CUBIC needs
 * longer than a few seconds to even them out (one trajectory measured 0.93 after 3 s, 0.96 after
 * 6 s and 0.98 after 12 s), and the index would depend on where the run happened to stop. */
static const char *four_flows_fair =
    "name: e2e-fair\n"
    "duration: 5s\n"
    "warmup: 1s\n"
    "hosts:\n"
    "  a: {cpus: 2, nic: {rate: 10Gbit}}\n"
    "  b: {cpus: 2, nic: {irq_cpu: 1}}\n"
    "links:\n"
    "  wire: {a: a, b: b, rate: 1Gbit, delay: 10us, queue: 100pkt}\n"
    "workloads:\n"
    "  bulk: {type: stream, from: a, to: b, flows: 4, to_cpus: [0]}\n";

static void test_four_flows_fair(void)
{
    const char *yaml = four_flows_fair;
    g_autoptr(RunResult) r = run_text(yaml, NULL);
    g_assert_cmpuint(r->flows->len, ==, 4);
    double sum = 0, sum2 = 0;
    for (guint i = 0; i < r->flows->len; i++) {
        double x = ((const FlowResult *)g_ptr_array_index(r->flows, i))->goodput_bps;
        sum += x;
        sum2 += x * x;
        g_test_message("flow %u: %.4f Gbit/s", i, x / 1e9);
    }
    double jain = sum * sum / (4.0 * sum2);
    double expect = 1e9 * 1448.0 / (1448.0 + WIRE_FRAME_OVERHEAD);
    g_test_message("Jain %.4f, total %.4f Gbit/s", jain, sum / 1e9);
    /* a's 10 Gbit/s NIC overruns the 1 Gbit/s bottleneck's 100 frames: the drops that make
     * the flows fair are counted on the sending host, none on b */
    const HostResult *a = g_ptr_array_index(r->hosts, 0), *b = g_ptr_array_index(r->hosts, 1);
    g_assert_cmpstr(a->name, ==, "a");
    g_assert_cmpuint(a->counters.v[CTR_SksimLinkQueueDrops], >, 0);
    g_assert_cmpuint(b->counters.v[CTR_SksimLinkQueueDrops], ==, 0);
    g_assert_cmpfloat(jain, >=, 0.95);
    g_assert_cmpfloat(fabs(sum - expect) / expect, <, 0.02);
}

/* A sender whose NIC is the bottleneck does not lose its own frames. With byte queue limits
 * (3.3+, the default) its driver stops the queue once its ring holds more than the limit BQL
 * learned (~2 TSO skbs at 10 Gbit/s) and the rest wait in the qdisc, so sixteen flows from one
 * host through the default 1000-frame link queue lose nothing and together fill the link, as a
 * Linux sender at its own line rate does. (When the ring took up to tx_ring skbs, their frames
 * overflowed the link queue: 1,596 retransmissions in 0.8 s.) */
static const char *sixteen_flows_one_nic =
    "name: e2e-bql\n"
    "duration: 1s\n"
    "warmup: 200ms\n"
    "hosts:\n"
    "  a: {cpus: 8}\n"
    "  b: {cpus: 8}\n"
    "links:\n"
    "  wire: {a: a, b: b, rate: 10Gbit, delay: 50us}\n"
    "workloads:\n"
    "  bulk: {type: stream, from: a, to: b, flows: 16}\n";

static void test_own_nic_never_overruns_link(void)
{
    g_autoptr(RunResult) r = run_text(sixteen_flows_one_nic, NULL);
    g_assert_cmpuint(r->flows->len, ==, 16);
    double sum = 0;
    uint64_t retrans = 0;
    for (guint i = 0; i < r->flows->len; i++) {
        const FlowResult *f = g_ptr_array_index(r->flows, i);
        sum += f->goodput_bps;
        retrans += f->retrans_segs;
    }
    double expect = 10e9 * 1448.0 / (1448.0 + WIRE_FRAME_OVERHEAD);
    g_test_message("total %.4f Gbit/s, %" G_GUINT64_FORMAT " retransmissions", sum / 1e9, retrans);
    g_assert_cmpuint(retrans, ==, 0);
    g_assert_cmpfloat(fabs(sum - expect) / expect, <, 0.02);
    const HostResult *a = g_ptr_array_index(r->hosts, 0);
    g_assert_cmpuint(a->counters.v[CTR_SksimLinkQueueDrops], ==, 0);
    g_assert_cmpuint(a->counters.v[CTR_SksimQdiscDrops], ==, 0);
}

/* A bottleneck beyond the NIC (hosts.H.nic.rate above the link's rate): the 10 Gbit/s port
 * sends each TSO skb's frames at 10 Gbit/s into a 1 Gbit/s link whose 50-frame buffer slow
 * start overruns, so frames are dropped there and retransmitted. With the NIC at the link's own
 * rate (the default) the link is its port: the frames wait in its ring (BQL) and qdisc, not in
 * a buffer they could overflow, and the same flow never loses one, as a Linux sender on a
 * 1 Gbit/s NIC does not. */
static const char *nic_faster_than_link =
    "name: e2e-port\n"
    "duration: 1s\n"
    "warmup: 0s\n"
    "hosts:\n"
    "  a: {cpus: 2, nic: {rate: %s}}\n"
    "  b: {cpus: 2, nic: {irq_cpu: 1}}\n"
    "links:\n"
    "  wire: {a: a, b: b, rate: 1Gbit, delay: 1ms, queue: 50pkt}\n"
    "workloads:\n"
    "  bulk: {type: stream, from: a, to: b, to_cpus: [0]}\n";

static uint64_t port_drops(const char *rate, uint64_t *retrans)
{
    g_autofree char *yaml = g_strdup_printf(nic_faster_than_link, rate);
    g_autoptr(RunResult) r = run_text(yaml, NULL);
    const HostResult *a = g_ptr_array_index(r->hosts, 0);
    *retrans = ((const FlowResult *)g_ptr_array_index(r->flows, 0))->retrans_segs;
    return a->counters.v[CTR_SksimLinkQueueDrops];
}

static void test_nic_faster_than_link(void)
{
    uint64_t retrans;
    g_assert_cmpuint(port_drops("10Gbit", &retrans), >, 0);
    g_assert_cmpuint(retrans, >, 0);
    g_assert_cmpuint(port_drops("0", &retrans), ==, 0);
    g_assert_cmpuint(retrans, ==, 0);
}

/* The same scenario and seed give the same run, event for event. */
/* The CPU profile books every busy nanosecond to a row of the cost table: per host, its rows add
 * up to the task + softirq + context-switch time of its CPUs over the measured interval, up to
 * the work in progress at its two ends (charged at the start of a step, done over the step's
 * length; a step is at most one skb's copy here, 64 KiB at 80 ns/KiB ~ 5 us, per CPU). A charge
 * that bypassed the profile would leave a gap of thousands of steps. */
static void test_cpu_profile_adds_up(void)
{
    g_autofree char *yaml = g_strdup_printf(two_hosts_10g, 1u);
    g_autoptr(RunResult) r = run_text(yaml, NULL);
    for (guint i = 0; i < r->hosts->len; i++) {
        const HostResult *h = g_ptr_array_index(r->hosts, i);
        sim_time_t booked = 0, busy = 0;
        for (int id = 0; id < COST_COUNT; id++)
            booked += h->cpu_profile_ns[id];
        for (guint c = 0; c < h->cpus->len; c++) {
            const CpuResult *cr = &g_array_index(h->cpus, CpuResult, c);
            busy += (sim_time_t)llround((cr->task_s + cr->softirq_s + cr->ctx_switch_s) * 1e9);
        }
        g_test_message("host %s: booked %" G_GINT64_FORMAT " ns, busy %" G_GINT64_FORMAT " ns",
                       h->name, (gint64)booked, (gint64)busy);
        g_assert_cmpint(busy, >, 100 * SIM_MS);
        g_assert_cmpint(llabs(booked - busy), <=, 2 * (sim_time_t)h->cpus->len * 10 * SIM_US);
    }
    /* the copy rows: every byte delivered was copied in at a and out at b, 80 ns per KiB, up
     * to what sat in the buffers at the interval's ends (< 0.5 % of ~1 GB here) */
    const HostResult *a = g_ptr_array_index(r->hosts, 0), *b = g_ptr_array_index(r->hosts, 1);
    const FlowResult *f = g_ptr_array_index(r->flows, 0);
    double copy_ns = (double)f->bytes_delivered * 80.0 / 1024.0;
    g_assert_cmpfloat(fabs((double)a->cpu_profile_ns[COST_COPY_PER_KB] - copy_ns) / copy_ns, <, 0.01);
    g_assert_cmpfloat(fabs((double)b->cpu_profile_ns[COST_COPY_PER_KB] - copy_ns) / copy_ns, <, 0.01);
    g_assert_cmpint(b->cpu_profile_ns[COST_TCP_RCV_DATA], >, 0);
    g_assert_cmpint(a->cpu_profile_ns[COST_TCP_RCV_DATA], ==, 0); /* a receives only ACKs */
}

static void test_same_seed_same_run(void)
{
    g_autofree char *yaml = g_strdup_printf(two_hosts_10g, 2u);
    g_autoptr(RunResult) a = run_text(yaml, NULL);
    g_autoptr(RunResult) b = run_text(yaml, NULL);
    g_assert_cmpuint(a->events, ==, b->events);
    g_assert_cmpuint(a->fp_events, ==, b->fp_events);
    g_assert_cmpuint(a->fp_counters, ==, b->fp_counters);
}

/* A connection starts with the RTT sample of the handshake it skipped (models/tcp.h): on a
 * 1 Gbit/s link with 20 us of delay, two 98-byte-time SYN frames give 2 * (20 + 0.784) us, 42 us
 * rounded up. With every packet lost the client's first window gets one loss probe after
 * 2 * srtt + 2 ms = 3 jiffies, then one RTO at rto_min + srtt (201 jiffies) after the first
 * send; the next, backed off, is 402 jiffies later, beyond the 300 ms run. Without the sample
 * (srtt 0) the first probe would wait TCP_TIMEOUT_INIT, 1 s: no probe and no RTO at all. */
static const char *lossy_start =
    "name: e2e\n"
    "duration: 300ms\n"
    "warmup: 0\n"
    "hosts:\n"
    "  a: {cpus: 2}\n"
    "  b: {cpus: 2}\n"
    "links:\n"
    "  wire: {a: a, b: b, rate: 1Gbit, delay: 20us, loss: 1.0}\n"
    "workloads:\n"
    "  bulk: {type: stream, from: a, to: b}\n";

static void test_handshake_rtt_sample(void)
{
    g_autoptr(RunResult) r = run_text(lossy_start, NULL);
    const HostResult *a = g_ptr_array_index(r->hosts, 0);
    const FlowResult *f = g_ptr_array_index(r->flows, 0);
    g_assert_cmpuint(f->bytes_delivered, ==, 0);
    g_assert_cmpuint(a->counters.v[CTR_TcpExtTCPLossProbes], ==, 1);
    g_assert_cmpuint(a->counters.v[CTR_TcpExtTCPTimeouts], ==, 1);
}

/* Neither a packet nor a wake-up takes effect before the CPU work that precedes it: a step's
 * transmissions wait for the end of the charge the step has run up (Skb.ready_ns), and a task
 * woken onto another CPU joins its run queue only there (task_wake). So a 1-byte TCP_RR
 * ping-pong over a zero-delay 1 Gbit/s link, each thread on a CPU of its own apart from its
 * NIC's interrupt, takes at least, per transaction, the serial path of both messages:
 * - each message's wire time (1 + WIRE_FRAME_OVERHEAD = 91 byte times, 728 ns);
 * - its send path, which its thread runs before the packet can leave (syscall 100 +
 *   sendmsg_skb 300 + tcp_xmit_skb 800 + dev_xmit 400 ns);
 * - its receive path up to the wake-up of the reader on the other CPU, in the NIC's softirq
 *   (softirq_entry 300 + napi_poll 200 + rx_frame 150 + ip_rcv 200 + tcp_rcv_data 600 +
 *   wakeup 300 ns);
 * - and the server's rr_app (2 us) between request and response: 10.16 us in all.
 * When packets left at their step's start it ran every 5.77 us; when only wake-ups did, every
 * 8.17 us. */
static const char *rr_zero_delay =
    "name: e2e\n"
    "duration: 300ms\n"
    "warmup: 50ms\n"
    "hosts:\n"
    "  a: {cpus: 2, nic: {irq_cpu: 1}}\n"
    "  b: {cpus: 2, nic: {irq_cpu: 1}}\n"
    "links:\n"
    "  wire: {a: a, b: b, rate: 1Gbit, delay: 0}\n"
    "workloads:\n"
    "  rr: {type: rr, from: a, to: b, from_cpus: [0], to_cpus: [0]}\n";

static void test_rr_period_includes_serial_path(void)
{
    g_autoptr(RunResult) r = run_text(rr_zero_delay, NULL);
    const FlowResult *f = g_ptr_array_index(r->flows, 0);
    double period_ns = 1e9 / f->transactions_per_s;
    double wire_ns = 2.0 * (1 + WIRE_FRAME_OVERHEAD) * 8.0;
    double send_ns = 100 + 300 + 800 + 400;
    double recv_ns = 300 + 200 + 150 + 200 + 600 + 300;
    double bound_ns = wire_ns + 2.0 * (send_ns + recv_ns) + 2000;
    g_test_message("period %.0f ns, lower bound %.0f ns", period_ns, bound_ns);
    g_assert_cmpfloat(period_ns, >=, bound_ns);
}

/* C-states (hosts.H.sched.cpuidle): one TCP_RR flow, each host's application thread on CPU 1
 * and its NIC interrupt on CPU 0, so every CPU idles between messages. A transaction wakes six
 * idle CPUs: on each host the interrupt CPU for the arriving message, the application CPU that
 * interrupt wakes, and the interrupt CPU again for the sent message's TX completion. On Ice
 * Lake-SP's table every idle period here is far beyond C1E's 4 us residency, so each wait is
 * C1E's 4 us exit; four of the six (interrupt, then application, on each side) lie on the
 * serial path, so the period grows by 4 x 4 us = 16 us against a CPU that never leaves C0. */
static const char *rr_cstates =
    "name: e2e\n"
    "duration: 200ms\n"
    "warmup: 50ms\n"
    "hosts:\n"
    "  a: {cpus: 2, nic: {irq_cpu: 0}}\n"
    "  b: {cpus: 2, nic: {irq_cpu: 0}}\n"
    "links:\n"
    "  wire: {a: a, b: b, rate: 10Gbit, delay: 5us}\n"
    "workloads:\n"
    "  rr: {type: rr, from: a, to: b, from_cpus: [1], to_cpus: [1]}\n"
    "variants:\n"
    "  poll: {}\n"
    "  icx: {hosts.a.sched.cpuidle: icx, hosts.b.sched.cpuidle: icx}\n";

static uint64_t host_counter(const RunResult *r, uint32_t host, CounterId id)
{
    const HostResult *h = g_ptr_array_index(r->hosts, host);
    return h->counters.v[id];
}

static void test_rr_cstate_exits(void)
{
    g_autoptr(RunResult) poll = run_text(rr_cstates, "poll");
    g_autoptr(RunResult) icx = run_text(rr_cstates, "icx");
    const FlowResult *fp = g_ptr_array_index(poll->flows, 0);
    const FlowResult *fi = g_ptr_array_index(icx->flows, 0);
    uint64_t exits = host_counter(icx, 0, CTR_SksimIdleExits) +
                     host_counter(icx, 1, CTR_SksimIdleExits);
    uint64_t exit_ns = host_counter(icx, 0, CTR_SksimIdleExitNs) +
                       host_counter(icx, 1, CTR_SksimIdleExitNs);
    g_assert_cmpuint(host_counter(poll, 0, CTR_SksimIdleExits), ==, 0);
    g_assert_cmpuint(exit_ns, ==, exits * 4000);
    g_assert_cmpfloat(fabs((double)exits / (double)fi->transactions - 6.0), <, 0.01);
    double grown_ns = 1e9 / fi->transactions_per_s - 1e9 / fp->transactions_per_s;
    g_test_message("period %.0f -> %.0f ns", 1e9 / fp->transactions_per_s,
                   1e9 / fi->transactions_per_s);
    g_assert_cmpfloat(fabs(grown_ns - 16000.0), <, 500.0);
}

/* A flow's retrans_segs counts both ends: in request/response both send data. 1 % loss each
 * way, 64 KiB requests and responses: both hosts retransmit, and the flows' figures add up to
 * the hosts' TcpRetransSegs (they counted only the client's socket, 0 here for the server's). */
static const char *rr_lossy =
    "name: e2e\n"
    "duration: 300ms\n"
    "warmup: 50ms\n"
    "hosts:\n"
    "  c: {cpus: 2}\n"
    "  s: {cpus: 2}\n"
    "links:\n"
    "  wire: {a: c, b: s, rate: 1Gbit, delay: 20us, loss: 0.01}\n"
    "workloads:\n"
    "  rr: {type: rr, from: c, to: s, flows: 2, request_size: 64KiB, response_size: 64KiB}\n";

static void test_flow_retrans_counts_both_ends(void)
{
    g_autoptr(RunResult) r = run_text(rr_lossy, NULL);
    uint64_t hosts = 0, flows = 0;
    for (guint i = 0; i < r->hosts->len; i++) {
        const HostResult *h = g_ptr_array_index(r->hosts, i);
        g_assert_cmpuint(h->counters.v[CTR_TcpRetransSegs], >, 0);
        hosts += h->counters.v[CTR_TcpRetransSegs];
    }
    for (guint i = 0; i < r->flows->len; i++)
        flows += ((const FlowResult *)g_ptr_array_index(r->flows, i))->retrans_segs;
    g_assert_cmpuint(flows, ==, hosts);
}

/* A 1 bit/s link (the key's lowest rate): the handshake's RTT sample would be ~1568 s, which
 * 8 x srtt in 32 bits cannot hold (it wrapped to 494 s). The sample is capped at TCP_RTO_MAX. */
static const char *slowest_link =
    "name: e2e\n"
    "duration: 100ms\n"
    "hosts:\n"
    "  a: {cpus: 2}\n"
    "  b: {cpus: 2}\n"
    "links:\n"
    "  wire: {a: a, b: b, rate: 1bit}\n"
    "workloads:\n"
    "  bulk: {type: stream, from: a, to: b}\n";

static void test_handshake_rtt_capped(void)
{
    g_autoptr(RunResult) r = run_text(slowest_link, NULL);
    const FlowResult *f = g_ptr_array_index(r->flows, 0);
    g_assert_cmpint(f->srtt_ns, ==, 120 * SIM_S);
}

/* A sender NIC without TSO (nic.tso false). With software GSO (nic.gso, the default) TCP still
 * builds multi-segment skbs: each transmitted segment is charged costs.gso_segment (200 ns) and
 * the TCP transmit path (tcp_xmit_skb, 800 ns) runs far fewer times than there are segments;
 * the link still runs at line rate. With GSO off too, TCP sends one segment per skb:
 * tcp_xmit_skb once per segment and no segmentation cost. (a sends only data segments; a
 * retransmission would count in both rows alike.) */
static const char *no_tso =
    "name: e2e\n"
    "duration: 400ms\n"
    "warmup: 100ms\n"
    "hosts:\n"
    "  a: {cpus: 2, nic: {tso: false, gso: %s}}\n"
    "  b: {cpus: 2, nic: {irq_cpu: 1}}\n"
    "links:\n"
    "  wire: {a: a, b: b, rate: 10Gbit, delay: 10us, queue: 10000pkt}\n"
    "workloads:\n"
    "  bulk: {type: stream, from: a, to: b, flows: 1, to_cpus: [0]}\n";

static void test_software_gso(void)
{
    for (int gso = 0; gso < 2; gso++) {
        g_autofree char *yaml = g_strdup_printf(no_tso, gso ? "true" : "false");
        g_autoptr(RunResult) r = run_text(yaml, NULL);
        const HostResult *a = g_ptr_array_index(r->hosts, 0);
        double segs = (double)a->counters.v[CTR_TcpOutSegs];
        double gso_segs = (double)a->cpu_profile_ns[COST_GSO_SEGMENT] / 200.0;
        double xmits = (double)a->cpu_profile_ns[COST_TCP_XMIT_SKB] / 800.0;
        g_test_message("gso %d: %.0f segments, %.0f segmented, %.0f TCP transmits", gso, segs,
                       gso_segs, xmits);
        g_assert_cmpfloat(segs, >, 50000);
        if (gso) {
            g_assert_cmpfloat(fabs(gso_segs - segs) / segs, <, 0.01);
            g_assert_cmpfloat(xmits, <, segs / 4);
            const FlowResult *f = g_ptr_array_index(r->flows, 0);
            double expect = 10e9 * 1448.0 / (1448.0 + WIRE_FRAME_OVERHEAD);
            g_assert_cmpfloat(fabs(f->goodput_bps - expect) / expect, <, 0.02);
        } else {
            g_assert_cmpfloat(gso_segs, ==, 0);
            g_assert_cmpfloat(fabs(xmits - segs) / segs, <, 0.01);
        }
    }
}

/* Without timestamps (tcp.timestamps false at both ends) the MSS is 1460 and every frame 12
 * bytes shorter: 10e9 * 1460 / (1460 + 78) = 9.4928 Gbit/s, against 9.4148 with them. */
static void test_line_rate_without_timestamps(void)
{
    g_autofree char *base = g_strdup_printf(two_hosts_10g, 1u);
    g_autoptr(GString) yaml = g_string_new(base); /* each host gains tcp: {timestamps: false} */
    g_string_replace(yaml, "  a: {cpus: 2}\n", "  a: {cpus: 2, tcp: {timestamps: false}}\n", 1);
    g_string_replace(yaml, "  b: {cpus: 2, nic: {irq_cpu: 1}}\n",
                     "  b: {cpus: 2, nic: {irq_cpu: 1}, tcp: {timestamps: false}}\n", 1);
    g_autoptr(RunResult) r = run_text(yaml->str, NULL);
    const FlowResult *f = g_ptr_array_index(r->flows, 0);
    double expect = 10e9 * 1460.0 / (1460.0 + WIRE_FRAME_OVERHEAD - WIRE_TCP_TS_OPT);
    g_test_message("goodput %.4f Gbit/s, expected %.4f", f->goodput_bps / 1e9, expect / 1e9);
    g_assert_cmpuint(f->retrans_segs, ==, 0);
    g_assert_cmpfloat(fabs(f->goodput_bps - expect) / expect, <, 0.005);
}

/* A slow reader (workloads.W.read_pause 1 ms): netserver reads its recv size, 128 KiB (the
 * initial rcvbuf), sleeps 1 ms plus the 50 us timer slack, reads again. Its copy (131072 B at
 * 80 ns/KiB = 10.24 us) and two system calls (0.2 us) come on top, so it drains 131072 B per
 * ~1.0604 ms: 0.9888 Gbit/s, whatever the 10 Gbit/s link could carry. */
static void test_read_pause(void)
{
    g_autofree char *base = g_strdup_printf(two_hosts_10g, 1u);
    g_autoptr(GString) yaml = g_string_new(base);
    g_string_replace(yaml, "to_cpus: [0]}", "to_cpus: [0], read_pause: 1ms}", 1);
    g_autoptr(RunResult) r = run_text(yaml->str, NULL);
    const FlowResult *f = g_ptr_array_index(r->flows, 0);
    double expect = 131072.0 * 8 / (1e-3 + 50e-6 + 131072.0 / 1024 * 80e-9 + 2 * 100e-9);
    g_test_message("goodput %.4f Gbit/s, expected %.4f", f->goodput_bps / 1e9, expect / 1e9);
    g_assert_cmpfloat(fabs(f->goodput_bps - expect) / expect, <, 0.01);
}

/* An interactive client (workloads.W.think_time 20 ms) fetching 256 KiB responses over a 200 us
 * RTT with rto_min 5 ms: each transaction is 20 ms of think time plus the response. The
 * server's connection idles ~20 ms > RTO between responses, so with slow start after idle
 * (RFC 2861, the default) each response starts again from the initial window (10, 20, 40, 80
 * segments: 4+ round trips for 181 segments); without it the whole cwnd is there at once. So
 * both stay under 1 / 20.05 ms = 49.9 transactions/s (think time and timer slack), and the
 * restart costs a few per cent. */
static const char *rr_think =
    "name: e2e\n"
    "duration: 2s\n"
    "warmup: 200ms\n"
    "hosts:\n"
    "  a: {cpus: 2, tcp: {rto_min: 5ms}}\n"
    "  b: {cpus: 2, nic: {irq_cpu: 1}, tcp: {rto_min: 5ms, slow_start_after_idle: %s}}\n"
    "links:\n"
    "  wire: {a: a, b: b, rate: 10Gbit, delay: 100us}\n"
    "workloads:\n"
    "  rr: {type: rr, from: a, to: b, to_cpus: [0], request_size: 100, response_size: 256KiB,\n"
    "       think_time: 20ms}\n";

static double think_tps(bool ssai)
{
    g_autofree char *yaml = g_strdup_printf(rr_think, ssai ? "true" : "false");
    g_autoptr(RunResult) r = run_text(yaml, NULL);
    const FlowResult *f = g_ptr_array_index(r->flows, 0);
    return f->transactions_per_s;
}

/* The client thinks after each response, not before its first request: with a think time
 * longer than the run, exactly one transaction completes. */
static void test_think_time_after_the_response(void)
{
    g_autofree char *yaml = g_strdup_printf(rr_think, "true");
    g_autoptr(GString) y = g_string_new(yaml);
    g_string_replace(y, "warmup: 200ms", "warmup: 0ms", 1);
    g_string_replace(y, "think_time: 20ms", "think_time: 10s", 1);
    g_autoptr(RunResult) r = run_text(y->str, NULL);
    const FlowResult *f = g_ptr_array_index(r->flows, 0);
    g_assert_cmpuint(f->transactions, ==, 1);
}

static void test_think_time_restarts_cwnd(void)
{
    double with = think_tps(true), without = think_tps(false);
    g_test_message("transactions/s: %.2f with slow start after idle, %.2f without", with, without);
    g_assert_cmpfloat(without, <, 50.0);
    g_assert_cmpfloat(without, >, 45.0);
    g_assert_cmpfloat(with, <, without * 0.98);
}

/* A 2012-era sender (3.x TSO deferral, one cwnd step per ACK, a TSO skb may take the whole cwnd)
 * into a GRO receiver whose NIC moderates interrupts (50 us at both ends) fills a 10 Gbit/s
 * link, as single 10G flows did then: loss-free, cwnd grows until the link is the limit. With
 * GRO and moderation the receiver sends a few stretch ACKs per RTT and the deferral keeps
 * 2-13 segments of cwnd unused between them; cwnd grows only if that counts as cwnd-limited:
 * <= 3.15 by the TSO slack of tcp_is_cwnd_limited (tcp.cwnd_limited in_flight), 3.16+ by the
 * mark the deferral sets (tracked). Without either, cwnd froze at ~100 and the flow ran at
 * 4.6 Gbit/s. */
static const char *era_3x_gro =
    "name: e2e-3x-gro\n"
    "duration: 1s\n"
    "warmup: 200ms\n"
    "hosts:\n"
    "  a: {cpus: 2, nic: {irq_coalesce: 50us}, tcp: {tso_defer: \"3.x\", cwnd_count: acks,\n"
    "      tso_half_cwnd: false, cwnd_limited: %s}}\n"
    "  b: {cpus: 2, nic: {irq_cpu: 1, irq_coalesce: 50us}}\n"
    "links:\n"
    "  wire: {a: a, b: b, rate: 10Gbit, delay: 50us, queue: 10000pkt}\n"
    "workloads:\n"
    "  bulk: {type: stream, from: a, to: b, flows: 1, to_cpus: [0]}\n";

static void test_era_3x_gro_line_rate(void)
{
    const char *rules[] = { "tracked", "in_flight" };
    double expect = 10e9 * 1448.0 / (1448.0 + WIRE_FRAME_OVERHEAD);
    for (size_t i = 0; i < G_N_ELEMENTS(rules); i++) {
        g_autofree char *yaml = g_strdup_printf(era_3x_gro, rules[i]);
        g_autoptr(RunResult) r = run_text(yaml, NULL);
        const FlowResult *f = g_ptr_array_index(r->flows, 0);
        g_test_message("%s: goodput %.4f Gbit/s, cwnd %u", rules[i], f->goodput_bps / 1e9, f->cwnd);
        g_assert_cmpuint(f->retrans_segs, ==, 0);
        g_assert_cmpfloat(fabs(f->goodput_bps - expect) / expect, <, 0.02);
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/e2e/single-flow-line-rate", test_single_flow_line_rate);
    g_test_add_func("/e2e/era-3x-gro-line-rate", test_era_3x_gro_line_rate);
    g_test_add_func("/e2e/line-rate-without-timestamps", test_line_rate_without_timestamps);
    g_test_add_func("/e2e/four-flows-fair", test_four_flows_fair);
    g_test_add_func("/e2e/own-nic-never-overruns-link", test_own_nic_never_overruns_link);
    g_test_add_func("/e2e/nic-faster-than-link", test_nic_faster_than_link);
    g_test_add_func("/e2e/cpu-profile-adds-up", test_cpu_profile_adds_up);
    g_test_add_func("/e2e/software-gso", test_software_gso);
    g_test_add_func("/e2e/read-pause", test_read_pause);
    g_test_add_func("/e2e/think-time-restarts-cwnd", test_think_time_restarts_cwnd);
    g_test_add_func("/e2e/think-time-after-the-response", test_think_time_after_the_response);
    g_test_add_func("/e2e/same-seed-same-run", test_same_seed_same_run);
    g_test_add_func("/e2e/handshake-rtt-sample", test_handshake_rtt_sample);
    g_test_add_func("/e2e/rr-period-includes-serial-path", test_rr_period_includes_serial_path);
    g_test_add_func("/e2e/rr-cstate-exits", test_rr_cstate_exits);
    g_test_add_func("/e2e/flow-retrans-counts-both-ends", test_flow_retrans_counts_both_ends);
    g_test_add_func("/e2e/handshake-rtt-capped", test_handshake_rtt_capped);
    return g_test_run();
}
