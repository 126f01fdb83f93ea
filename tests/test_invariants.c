/* test_invariants.c - every model invariant (models/invariants.h) on purpose: build the world of
 * scenarios/example.yaml, check that it holds, corrupt one piece of state, and assert the exact
 * message. The last tests go through run_scenario (a fault injected mid-run, caught by the
 * continuous check) and the CLI's exit status for it (3), and check that real runs of every
 * scenario hold every invariant when checked continuously.
 */
#include <glib.h>
#include <inttypes.h>

#include "models/inspect.h"
#include "models/invariants.h"
#include "models/tcp_internal.h"
#include "models/truesize.h"
#include "sim/cli.h"
#include "sim/run.h"
#include "sim/scenario.h"

typedef struct {
    ScenarioConf *conf;
    Sim *sim;
    World *w;
    Invariants *inv;
    TcpSock *cl, *sv;
} Fix;

static void fix_setup(Fix *f, gconstpointer data)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(Scenario) s = scenario_load_file("scenarios/example.yaml", &err);
    g_assert_no_error(err);
    f->conf = scenario_resolve(s, "before", data, &err); /* data: --set lines or NULL */
    g_assert_no_error(err);
    f->sim = sim_new(f->conf->seed);
    f->w = world_new(f->sim, f->conf, &err);
    g_assert_no_error(err);
    f->inv = invariants_new(f->w, f->sim);
    g_assert_cmpstr(world_flow(f->w, 0, &f->cl, &f->sv), ==, "bulk/0");
    g_assert_true(invariants_check(f->inv, &err));
    g_assert_no_error(err);
}

static void fix_teardown(Fix *f, gconstpointer data)
{
    invariants_free(f->inv);
    world_free(f->w);
    sim_free(f->sim);
    scenario_conf_free(f->conf);
}

/* The check fails with exactly `want`. */
static void assert_violation(Fix *f, const char *want)
{
    g_autoptr(GError) err = NULL;
    g_assert_false(invariants_check(f->inv, &err));
    g_assert_error(err, SKSIM_INVARIANT_ERROR, 0);
    g_assert_cmpstr(err->message, ==, want);
    g_assert_cmpint(cli_error_status(err), ==, CLI_EXIT_INVARIANT);
}

static void test_flow_bytes(Fix *f, gconstpointer data)
{
    f->cl->write_queue.bytes += 100; /* 100 bytes the sender holds but never wrote */
    assert_violation(f, "invariant violated: flow_bytes: flow bulk/0 (client->server) at "
                        "t=0.000000000s: sender: written and not acked 0 bytes but write + "
                        "retransmit queues hold 100 (written 0 = delivered 0 + queued at "
                        "receiver 0 + in flight or queued at sender 0)");
}

static void test_no_dup_delivery(Fix *f, gconstpointer data)
{
    uint64_t nxt = f->sv->rcv_nxt;
    f->sv->copied_seq = nxt + 5; /* the application read 5 bytes that never arrived */
    g_autofree char *want = g_strdup_printf(
        "invariant violated: no_dup_delivery: flow bulk/0 (client->server) at t=0.000000000s: "
        "receiver copied_seq %" PRIu64 " rcv_nxt %" PRIu64 " outside sender snd_una %" PRIu64
        " .. snd_nxt %" PRIu64, nxt + 5, nxt, f->cl->snd_una, f->cl->snd_nxt);
    assert_violation(f, want);
}

static void test_seq_monotonic(Fix *f, gconstpointer data)
{
    /* a consistent connection, one byte earlier than the checker last saw it */
    uint64_t una = f->cl->snd_una;
    f->cl->snd_una--, f->cl->snd_nxt--, f->cl->write_seq--, f->cl->pushed_seq--;
    f->sv->rcv_nxt--, f->sv->copied_seq--;
    g_autofree char *want = g_strdup_printf(
        "invariant violated: seq_monotonic: flow bulk/0 (client end) at t=0.000000000s: snd_una "
        "went back from %" PRIu64 " to %" PRIu64, una, una - 1);
    assert_violation(f, want);
}

static void test_tcp_left_out(Fix *f, gconstpointer data)
{
    /* a NewReno dupACK count kept through an RTO that marked everything lost */
    f->cl->packets_out = 10, f->cl->lost_out = 10, f->cl->sacked_out = 2;
    assert_violation(f, "invariant violated: tcp_left_out: flow bulk/0 (client end) at "
                        "t=0.000000000s: sacked_out 2 + lost_out 10 > packets_out 10");
}

static void tick(Sim *sim, void *ctx)
{
}

static void test_cpu_time(Fix *f, gconstpointer data)
{
    /* a checker whose clock is 1 ms ahead of the world's CPUs: 1 ms unaccounted */
    Sim *other = sim_new(1);
    SimEvent ev;
    sim_event_init(&ev, tick, NULL, 0, 0);
    sim_schedule_at(other, &ev, 1000000);
    sim_run_until(other, 1000000);
    Invariants *inv = invariants_new(f->w, other);
    g_autoptr(GError) err = NULL;
    g_assert_false(invariants_check(inv, &err));
    g_assert_error(err, SKSIM_INVARIANT_ERROR, 0);
    g_assert_cmpstr(err->message, ==,
                    "invariant violated: cpu_time: host client cpu 0 at t=0.001000000s: task 0 + "
                    "softirq 0 + ctx_switch 0 + idle 0 = 0 ns, simulated time 1000000 ns");
    invariants_free(inv);
    sim_free(other);
}

static void test_backlog_limit(Fix *f, gconstpointer data)
{
    Sock *sk = tcp_sk(f->sv);
    uint64_t limit = sk_backlog_limit(sk), one = truesize_tx_skb(TCP_GSO_MAX_SIZE);
    sk->backlog_len = limit + one; /* the most the kernel lets in: fine */
    g_assert_true(invariants_check(f->inv, NULL));
    sk->backlog_len = limit + one + 1;
    g_autofree char *want = g_strdup_printf(
        "invariant violated: backlog_limit: socket server:1 at t=0.000000000s: backlog_len %" PRIu64
        " > limit %" PRIu64 " + one skb %" PRIu64, limit + one + 1, limit, one);
    assert_violation(f, want);
    sk->backlog_len = 0;
    sk->backlog_len--; /* "negative" */
    g_autofree char *neg = g_strdup_printf(
        "invariant violated: backlog_limit: socket server:1 at t=0.000000000s: backlog_len %" PRIu64
        " > limit %" PRIu64 " + one skb %" PRIu64 " (negative)", UINT64_MAX, limit, one);
    assert_violation(f, neg);
    sk->backlog_len = 0;
    /* A drain that already processed a larger skb (a GRO skb of tiny segments: 1.6 MB of
     * truesize at MTU 68) may leave backlog_len that far above the limit until it ends. */
    sk->drained_max_truesize = 1649152;
    sk->backlog_len = limit + 1649152;
    g_assert_true(invariants_check(f->inv, NULL));
    sk->backlog_len++;
    g_autofree char *big = g_strdup_printf(
        "invariant violated: backlog_limit: socket server:1 at t=0.000000000s: backlog_len %" PRIu64
        " > limit %" PRIu64 " + one skb 1649152", limit + 1649152 + 1, limit);
    assert_violation(f, big);
    sk->backlog_len = 0;
    sk->drained_max_truesize = 0;
}

static void test_queue_limit(Fix *f, gconstpointer data)
{
    /* run until the client->server link has frames queued, then lower its limit under them */
    world_start(f->w);
    uint64_t frames = 0, bytes = 0;
    sim_time_t t = 0;
    while (frames == 0 && t < 100000000) {
        t += 100000;
        sim_run_until(f->sim, t);
        link_dir_occupancy(world_link(f->w, 0), 0, &frames, &bytes);
    }
    g_assert_cmpuint(frames, >, 0);
    g_assert_true(invariants_check(f->inv, NULL));
    LinkConf *lc = g_ptr_array_index(f->conf->links, 0);
    lc->queue_pkts = (uint32_t)frames - 1;
    g_autofree char *want = g_strdup_printf(
        "invariant violated: queue_limit: link wire (client->server) at t=%.9fs: queued frames %"
        PRIu64 " > limit %" PRIu64, sim_time_to_sec(t), frames, frames - 1);
    assert_violation(f, want);
    lc->queue_pkts = 1000;
}

static void test_drop_tally(Fix *f, gconstpointer data)
{
    world_host(f->w, 1)->drop_tally++; /* a drop no counter saw */
    assert_violation(f, "invariant violated: drop_tally: host server at t=0.000000000s: drop "
                        "counters add up to 0 (socket backlog 0, devices and links 0) but the "
                        "drop paths dropped 1");
}

static void test_drop_counters(Fix *f, gconstpointer data)
{
    world_host(f->w, 0)->ctr.v[CTR_SksimRxRingDrops]++; /* a drop counted that never happened */
    assert_violation(f, "invariant violated: drop_counters: host client at t=0.000000000s: the "
                        "Sksim*Drops/Losses counters add up to 1 since the reset at 0 drops, but "
                        "the devices and links dropped 0");
}

/* Before 5.5 (tcp.timeouts_count legacy) TCPTimeouts and the failure counters count only
 * first timeouts, a subset of the firings: two RTOs classified, one counted as TCPTimeouts and
 * one as TCPLossFailures, hold; a third count beyond the firings does not. */
static void test_timer_diag_legacy(Fix *f, gconstpointer data)
{
    uint64_t *v = world_host(f->w, 0)->ctr.v;
    v[CTR_SksimRTOPeerOther] += 2;
    v[CTR_TcpExtTCPTimeouts]++;
    v[CTR_TcpExtTCPLossFailures]++;
    g_autoptr(GError) err = NULL;
    g_assert_true(invariants_check(f->inv, &err));
    g_assert_no_error(err);
    v[CTR_TcpExtTCPSackFailures]++;
    assert_violation(f, "invariant violated: timer_diag: host client at t=0.000000000s: the "
                        "peer-state classes add up to 0 loss probes and 2 RTOs, but "
                        "TcpExtTCPLossProbes is 0, TcpExtTCPTimeouts 1 and the first-timeout "
                        "failure counters 2 (timeouts_count legacy)");
}

static void test_timer_diag(Fix *f, gconstpointer data)
{
    world_host(f->w, 0)->ctr.v[CTR_TcpExtTCPTimeouts]++; /* an RTO the diagnosis did not see */
    assert_violation(f, "invariant violated: timer_diag: host client at t=0.000000000s: the "
                        "peer-state classes add up to 0 loss probes and 0 RTOs, but "
                        "TcpExtTCPLossProbes is 0, TcpExtTCPTimeouts 1 and the first-timeout "
                        "failure counters 0 (timeouts_count 5.5)");
}

/* ---- through run_scenario ---- */

typedef struct {
    SimEvent ev;
    World *w;
} Fault;

static void fault_fire(Sim *sim, void *ctx)
{
    Fault *fl = ctx;
    world_host(fl->w, 0)->drop_tally += 3;
}

static void fault_setup(World *w, Sim *sim, void *ctx)
{
    Fault *fl = ctx;
    fl->w = w;
    sim_event_init(&fl->ev, fault_fire, fl, 0, 0);
    sim_schedule_at(sim, &fl->ev, 1500000); /* 1.5 ms */
}

static void test_run_stops(void)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(Scenario) s = scenario_load_file("scenarios/example.yaml", &err);
    g_assert_no_error(err);
    const char *const sets[] = { "duration=50ms", "warmup=0s", NULL };
    g_autoptr(ScenarioConf) c = scenario_resolve(s, "after", sets, &err);
    g_assert_no_error(err);
    Fault fl = { 0 };
    RunOptions opt = { .check_every = 1, .setup = fault_setup, .setup_ctx = &fl };
    RunResult *r = run_scenario(c, &opt, &err);
    g_assert_null(r);
    g_assert_error(err, SKSIM_INVARIANT_ERROR, 0);
    g_assert_cmpstr(err->message, ==,
                    "invariant violated: drop_tally: host client at t=0.001500000s: drop counters "
                    "add up to 0 (socket backlog 0, devices and links 0) but the drop paths "
                    "dropped 3");
    g_assert_cmpint(cli_error_status(err), ==, 3);
}

/* Real runs keep every invariant, checked every 512 events: each scenario, each variant. */
/* The drain keeps the bound of the skb it processed: two flows into a host with MTU 68 make GRO
 * skbs of 16-byte segments with ~1.6 MB of truesize, one of which takes the backlog that far
 * past its limit while the owner drains it (a randomized QA pass saw exit 3 here before the
 * drain tracked it). Checked every 64 events. */
static void test_tiny_mtu_gro_backlog(void)
{
    static const char yaml[] = "name: tiny\nduration: 20ms\nhosts:\n  h0:\n    nic: {mtu: 68}\n"
                               "  h2: {}\nlinks:\n  l0: {a: h0, b: h2, rate: 100Gbit}\n"
                               "workloads:\n  w: {type: stream, from: h2, to: h0, flows: 2}\n";
    g_autoptr(GError) err = NULL;
    g_autoptr(Scenario) s = scenario_load_data(yaml, sizeof yaml - 1, "tiny.yaml", &err);
    g_assert_no_error(err);
    g_autoptr(ScenarioConf) c = scenario_resolve(s, NULL, NULL, &err);
    g_assert_no_error(err);
    RunOptions opt = { .check_every = 64 };
    g_autoptr(RunResult) r = run_scenario(c, &opt, &err);
    g_assert_no_error(err);
    g_assert_nonnull(r);
}

static void test_scenarios_hold(void)
{
    g_autoptr(GDir) dir = g_dir_open("scenarios", 0, NULL);
    g_assert_nonnull(dir);
    int n = 0;
    for (const char *name; (name = g_dir_read_name(dir));) {
        if (!g_str_has_suffix(name, ".yaml"))
            continue;
        g_autofree char *path = g_build_filename("scenarios", name, NULL);
        g_autoptr(GError) err = NULL;
        g_autoptr(Scenario) s = scenario_load_file(path, &err);
        g_assert_no_error(err);
        const char *const sets[] = { "duration=60ms", "warmup=10ms", NULL };
        for (guint v = 0; v < MAX(1u, scenario_n_variants(s)); v++) {
            const char *var = scenario_n_variants(s) ? scenario_variant_name(s, v) : NULL;
            g_autoptr(ScenarioConf) c = scenario_resolve(s, var, sets, &err);
            g_assert_no_error(err);
            RunOptions opt = { .check_every = 512 };
            g_autoptr(RunResult) r = run_scenario(c, &opt, &err);
            if (err)
                g_printerr("%s %s: %s\n", path, var ? var : "base", err->message);
            g_assert_no_error(err);
            g_assert_nonnull(r);
            n++;
        }
    }
    g_assert_cmpint(n, >=, 5);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
#define FIX_TEST(path, fn) g_test_add("/invariants/" path, Fix, NULL, fix_setup, fn, fix_teardown)
    FIX_TEST("flow_bytes", test_flow_bytes);
    FIX_TEST("no_dup_delivery", test_no_dup_delivery);
    FIX_TEST("seq_monotonic", test_seq_monotonic);
    FIX_TEST("tcp_left_out", test_tcp_left_out);
    FIX_TEST("cpu_time", test_cpu_time);
    FIX_TEST("backlog_limit", test_backlog_limit);
    /* the link queue is a bounded buffer only beyond a NIC faster than the link */
    static const char *const fast_port[] = { "hosts.client.nic.rate=40Gbit", NULL };
    g_test_add("/invariants/queue_limit", Fix, fast_port, fix_setup, test_queue_limit,
               fix_teardown);
    FIX_TEST("drop_tally", test_drop_tally);
    FIX_TEST("drop_counters", test_drop_counters);
    FIX_TEST("timer_diag", test_timer_diag);
    static const char *const legacy_count[] = { "hosts.client.tcp.timeouts_count=legacy", NULL };
    g_test_add("/invariants/timer_diag_legacy", Fix, legacy_count, fix_setup,
               test_timer_diag_legacy, fix_teardown);
    g_test_add_func("/invariants/run_stops", test_run_stops);
    g_test_add_func("/invariants/scenarios_hold", test_scenarios_hold);
    g_test_add_func("/invariants/tiny-mtu-gro-backlog", test_tiny_mtu_gro_backlog);
    return g_test_run();
}
