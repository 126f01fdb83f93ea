/* test_scenario.c - scenario loading: the example, defaults, variants, --set, every error class,
 * the tests/bad corpus and the key reference.
 *
 * Error tests assert the whole "FILE:LINE:COL: message" string: the location and the wording are
 * the interface a user sees. Each tests/bad/NAME.yaml has a NAME.expect holding its one line.
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

#include "sim/conf_tree.h"
#include "sim/counters.h"
#include "sim/scenario.h"

#define EXAMPLE "scenarios/example.yaml"

/* Two hosts, a link and a workload; everything else default. */
static const char minimal[] = "name: mini\n"
                              "duration: 2s\n"
                              "hosts:\n"
                              "  client: {}\n"
                              "  server:\n"
                              "    cpus: 4\n"
                              "links:\n"
                              "  wire: {a: client, b: server, rate: 10Gbit}\n"
                              "workloads:\n"
                              "  bulk: {type: stream, from: client, to: server}\n"
                              "variants:\n"
                              "  before:\n"
                              "    stack.release_sock.resched_every: 1\n"
                              "  nogro:\n"
                              "    hosts.server.nic.gro: false\n";

static Scenario *load_str(const char *yaml, GError **error)
{
    return scenario_load_data(yaml, strlen(yaml), "mem.yaml", error);
}

static ScenarioConf *resolve_ok(const Scenario *s, const char *variant, const char *const *sets)
{
    g_autoptr(GError) err = NULL;
    ScenarioConf *c = scenario_resolve(s, variant, sets, &err);
    g_assert_no_error(err);
    g_assert_nonnull(c);
    return c;
}

static void assert_load_error(const char *yaml, int code, const char *message)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(Scenario) s = load_str(yaml, &err);
    g_assert_null(s);
    g_assert_nonnull(err);
    g_assert_cmpstr(err->message, ==, message);
    g_assert_error(err, SKSIM_CONF_ERROR, code);
}

/* ---- the example ------------------------------------------------------------------------------- */

static void test_example_loads(void)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(Scenario) s = scenario_load_file(EXAMPLE, &err);
    g_assert_no_error(err);
    g_assert_cmpstr(scenario_path(s), ==, EXAMPLE);
    g_assert_cmpstr(scenario_name(s), ==, "example");
    g_assert_nonnull(strstr(scenario_title(s), "cond_resched()"));
    g_assert_cmpuint(scenario_n_variants(s), ==, 2);
    g_assert_cmpstr(scenario_variant_name(s, 0), ==, "before");
    g_assert_cmpstr(scenario_variant_name(s, 1), ==, "after");
    g_assert_true(scenario_has_variant(s, "after"));
    g_assert_false(scenario_has_variant(s, "base"));

    g_assert_cmpuint(scenario_n_expects(s), ==, 1);
    const ExpectConf *e = scenario_expect(s, 0);
    g_assert_cmpstr(e->check, ==, "after.goodput / before.goodput");
    g_assert_true(e->has_min);
    g_assert_false(e->has_max);
    g_assert_cmpfloat(e->min, ==, 0.95);
    g_assert_cmpint(e->line, >, 1);

    const ReportConf *r = scenario_report(s);
    g_assert_cmpuint(r->counters->len, ==, 4);
    g_assert_cmpstr(g_ptr_array_index(r->counters, 3), ==, "TcpExtTCPBacklogDrop");
    g_assert_cmpstr(r->host, ==, "server");

    g_autoptr(ScenarioConf) c = resolve_ok(s, NULL, NULL);
    g_assert_null(c->variant);
    g_assert_cmpint(c->duration_ns, ==, SIM_S);
    g_assert_cmpint(c->warmup_ns, ==, 100 * SIM_MS);
    g_assert_cmpuint(c->hosts->len, ==, 2);
    const HostConf *server = scenario_conf_host(c, "server");
    g_assert_nonnull(server);
    g_assert_cmpuint(server->nic.irq_cpu, ==, 1);
    g_assert_null(scenario_conf_host(c, "nobody"));
    const LinkConf *l = g_ptr_array_index(c->links, 0);
    g_assert_cmpuint(l->rate_bps, ==, 10000000000u);
    g_assert_cmpint(l->delay_ns, ==, 10 * SIM_US);
    g_assert_cmpuint(l->queue_pkts, ==, 1000);
    const WorkloadConf *w = g_ptr_array_index(c->workloads, 0);
    g_assert_cmpint(w->type, ==, WORKLOAD_STREAM);
    g_assert_cmpuint(w->to_cpus.n, ==, 1);
    g_assert_cmpuint(w->to_cpus.cpu[0], ==, 0);

    g_autoptr(ScenarioConf) before = resolve_ok(s, "before", NULL);
    g_assert_cmpstr(before->variant, ==, "before");
    g_assert_cmpuint(before->stack.release_sock_resched_every, ==, 1);
}

/* ---- defaults ---------------------------------------------------------------------------------- */

static void test_defaults(void)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(Scenario) s = load_str(minimal, &err);
    g_assert_no_error(err);
    g_assert_cmpstr(scenario_title(s), ==, "");
    g_assert_cmpuint(scenario_n_expects(s), ==, 0);
    g_assert_cmpuint(scenario_report(s)->counters->len, ==, 0);
    g_assert_null(scenario_report(s)->host);
    g_autoptr(ScenarioConf) c = resolve_ok(s, NULL, NULL);

    g_assert_cmpuint(c->seed, ==, 1);
    g_assert_cmpuint(c->hz, ==, 1000);
    g_assert_cmpint(c->warmup_ns, ==, 0);
    g_assert_cmpint(c->sample_interval_ns, ==, 10 * SIM_MS);
    g_assert_cmpstr(c->description, ==, "");

    const StackConf *st = &c->stack;
    g_assert_cmpuint(st->release_sock_resched_every, ==, 16);
    g_assert_cmpuint(st->sendmsg_flush_backlog_every, ==, 16);
    g_assert_cmpint(st->backlog_limit, ==, BACKLOG_LIMIT_2024);
    g_assert_true(st->backlog_coalesce && st->backlog_ack_defer);
    g_assert_false(st->prequeue_enabled);
    g_assert_cmpint(st->prequeue_delack, ==, PREQUEUE_DELACK_MIN_ATO);
    g_assert_cmpuint(st->timer_slack_jiffies, ==, 0);

    const HostConf *h = g_ptr_array_index(c->hosts, 0);
    g_assert_cmpstr(h->name, ==, "client");
    g_assert_cmpuint(h->cpus, ==, 1);
    g_assert_cmpuint(h->hz, ==, 0);
    g_assert_cmpint(h->sched.policy, ==, SCHED_EEVDF);
    g_assert_cmpint(h->sched.latency_ns, ==, 6 * SIM_MS);
    g_assert_cmpint(h->sched.min_granularity_ns, ==, 750 * SIM_US);
    g_assert_cmpint(h->sched.wakeup_granularity_ns, ==, SIM_MS);
    g_assert_cmpint(h->sched.base_slice_ns, ==, 750 * SIM_US);
    g_assert_cmpint(h->sched.preempt, ==, PREEMPT_VOLUNTARY);
    g_assert_cmpuint(h->nic.mtu, ==, 1500);
    g_assert_cmpuint(h->nic.rx_ring, ==, 1024);
    g_assert_cmpuint(h->nic.tx_ring, ==, 1024);
    g_assert_cmpuint(h->nic.qdisc_limit, ==, 1000);
    g_assert_true(h->nic.gro && h->nic.tso);
    g_assert_cmpuint(h->nic.irq_cpu, ==, 0);
    g_assert_cmpint(h->nic.irq_coalesce_ns, ==, 0);
    g_assert_cmpint(h->tcp.rto_min_ns, ==, 200 * SIM_MS);
    g_assert_cmpuint(h->tcp.rcvbuf, ==, 131072);
    g_assert_cmpuint(h->tcp.sndbuf, ==, 16384);
    g_assert_cmpuint(h->tcp.rcvbuf_max, ==, 6 * 1024 * 1024);
    g_assert_true(h->tcp.rcvbuf_autotune);
    g_assert_cmpint(h->tcp.cc, ==, CC_CUBIC);
    g_assert_cmpuint(h->tcp.frto, ==, 2);
    g_assert_true(h->tcp.sack && h->tcp.timestamps && h->tcp.tlp);
    g_assert_cmpuint(h->tcp.limit_output_bytes, ==, 1024 * 1024);
    g_assert_cmpuint(h->tcp.netdev_budget, ==, 300);
    g_assert_cmpint(h->tcp.netdev_budget_ns, ==, 0); /* 2 * USEC_PER_SEC / HZ */
    g_assert_cmpuint(h->tcp.napi_weight, ==, 64);
    g_assert_cmpuint(h->tcp.max_backlog, ==, 1000);
    for (int i = 0; i < COST_COUNT; i++)
        g_assert_cmpint(h->costs.ns[i], ==, cost_default((CostId)i));
    g_assert_cmpuint(((HostConf *)g_ptr_array_index(c->hosts, 1))->cpus, ==, 4);

    const LinkConf *l = g_ptr_array_index(c->links, 0);
    g_assert_cmpstr(l->a, ==, "client");
    g_assert_cmpstr(l->b, ==, "server");
    g_assert_cmpint(l->delay_ns, ==, 0);
    g_assert_cmpuint(l->queue_pkts, ==, 1000);
    g_assert_cmpuint(l->queue_bytes, ==, 0);
    g_assert_cmpfloat(l->loss, ==, 0.0);

    const WorkloadConf *w = g_ptr_array_index(c->workloads, 0);
    g_assert_cmpuint(w->flows, ==, 1);
    g_assert_cmpuint(w->write_size, ==, 65536);
    g_assert_cmpuint(w->request_size, ==, 1);
    g_assert_cmpuint(w->response_size, ==, 1);
    g_assert_cmpuint(w->from_cpus.n, ==, 0);
    g_assert_cmpuint(w->to_cpus.n, ==, 0);
    g_assert_cmpint(w->start_ns, ==, 0);
}

/* ---- variants and --set ------------------------------------------------------------------------ */

/* Everything but the pointers (names) must be equal. */
static void assert_hosts_equal(const HostConf *a, const HostConf *b)
{
    HostConf x = *a, y = *b;
    g_assert_cmpstr(x.name, ==, y.name);
    x.name = y.name = NULL;
    g_assert_cmpmem(&x, sizeof x, &y, sizeof y);
}

static void test_variant_changes_one_field(void)
{
    g_autoptr(Scenario) s = load_str(minimal, NULL);
    g_assert_nonnull(s);
    g_autoptr(ScenarioConf) base = resolve_ok(s, NULL, NULL);
    g_autoptr(ScenarioConf) before = resolve_ok(s, "before", NULL);
    g_assert_cmpuint(base->stack.release_sock_resched_every, ==, 16);
    g_assert_cmpuint(before->stack.release_sock_resched_every, ==, 1);
    StackConf st = before->stack;
    st.release_sock_resched_every = base->stack.release_sock_resched_every;
    g_assert_cmpmem(&st, sizeof st, &base->stack, sizeof base->stack);
    for (guint i = 0; i < base->hosts->len; i++)
        assert_hosts_equal(g_ptr_array_index(base->hosts, i), g_ptr_array_index(before->hosts, i));
    g_assert_cmpint(before->duration_ns, ==, base->duration_ns);

    /* A key the base file does not set at all (hosts.server.nic). */
    g_autoptr(ScenarioConf) nogro = resolve_ok(s, "nogro", NULL);
    HostConf *server = g_ptr_array_index(nogro->hosts, 1);
    g_assert_false(server->nic.gro);
    server->nic.gro = true;
    assert_hosts_equal(server, g_ptr_array_index(base->hosts, 1));
    assert_hosts_equal(g_ptr_array_index(nogro->hosts, 0), g_ptr_array_index(base->hosts, 0));
}

static void test_set_beats_variant(void)
{
    g_autoptr(Scenario) s = load_str(minimal, NULL);
    const char *const sets[] = {"stack.release_sock.resched_every=7",
                                "workloads.bulk.to_cpus=[0-1, 3]",
                                "links.wire.queue=256KiB",
                                "title=\"quoted: yes\"",
                                "hosts.client.cpus=2",
                                "hosts.client.cpus=3",
                                NULL};
    g_autoptr(ScenarioConf) c = resolve_ok(s, "before", sets);
    g_assert_cmpuint(c->stack.release_sock_resched_every, ==, 7);
    const WorkloadConf *w = g_ptr_array_index(c->workloads, 0);
    g_assert_cmpuint(w->to_cpus.n, ==, 3);
    g_assert_cmpuint(w->to_cpus.cpu[2], ==, 3);
    const LinkConf *l = g_ptr_array_index(c->links, 0);
    g_assert_cmpuint(l->queue_bytes, ==, 262144);
    g_assert_cmpuint(l->queue_pkts, ==, 0);
    g_assert_cmpstr(c->title, ==, "quoted: yes");
    g_assert_cmpuint(((HostConf *)g_ptr_array_index(c->hosts, 0))->cpus, ==, 3); /* last wins */

    const char *const cpus[] = {"workloads.bulk.from_cpus=0", NULL};
    g_autoptr(ScenarioConf) c2 = resolve_ok(s, NULL, cpus);
    g_assert_cmpuint(((WorkloadConf *)g_ptr_array_index(c2->workloads, 0))->from_cpus.n, ==, 1);
}

/* Which keys a variant sets: exactly those its overrides name (full dotted paths), not a key
 * that only shares a prefix, not another variant's, never the base's. */
static void test_variant_sets(void)
{
    g_autoptr(Scenario) s = load_str(minimal, NULL);
    g_assert_true(scenario_variant_sets(s, "before", "stack.release_sock.resched_every"));
    g_assert_false(scenario_variant_sets(s, "before", "stack.release_sock.resched_every_x"));
    g_assert_false(scenario_variant_sets(s, "before", "stack.release_sock.bh_disabled"));
    g_assert_false(scenario_variant_sets(s, "before", "hosts.server.nic.gro"));
    g_assert_true(scenario_variant_sets(s, "nogro", "hosts.server.nic.gro"));
    g_assert_false(scenario_variant_sets(s, "nogro", "hosts.client.nic.gro"));
    g_assert_false(scenario_variant_sets(s, NULL, "stack.release_sock.resched_every"));
    g_assert_false(scenario_variant_sets(s, "nosuch", "hosts.server.nic.gro"));
}

static void assert_set_error(const char *const *sets, int code, const char *message)
{
    g_autoptr(Scenario) s = load_str(minimal, NULL);
    g_autoptr(GError) err = NULL;
    g_autoptr(ScenarioConf) c = scenario_resolve(s, NULL, sets, &err);
    g_assert_null(c);
    g_assert_nonnull(err);
    g_assert_cmpstr(err->message, ==, message);
    g_assert_error(err, SKSIM_CONF_ERROR, code);
}

static void test_set_errors(void)
{
    assert_set_error((const char *const[]){"stack.backlog.limt=rcvbuf", NULL},
                     SKSIM_CONF_ERROR_UNKNOWN_KEY,
                     "--set:1:1: unknown key 'stack.backlog.limt' (did you mean "
                     "'stack.backlog.limit'?)");
    /* a known key under a host the scenario lacks: the host is what is wrong */
    assert_set_error((const char *const[]){"hz=250", "hosts.clinet.cpus=2", NULL},
                     SKSIM_CONF_ERROR_REFERENCE,
                     "--set:2:1: 'hosts.clinet.cpus' names host 'clinet', which the scenario does "
                     "not have (did you mean 'client'?)");
    assert_set_error((const char *const[]){"links.backbone.rate=1Gbit", NULL},
                     SKSIM_CONF_ERROR_REFERENCE,
                     "--set:1:1: 'links.backbone.rate' names link 'backbone', which the scenario "
                     "does not have (links: 'wire')");
    assert_set_error((const char *const[]){"hosts.client.cpus=zero", NULL}, SKSIM_CONF_ERROR_TYPE,
                     "--set:1:19: expected a whole number, got 'zero'");
    assert_set_error((const char *const[]){"links.wire.delay=10", NULL}, SKSIM_CONF_ERROR_UNIT,
                     "--set:1:18: missing unit: expected a duration like 50us or 1.5ms");
    assert_set_error((const char *const[]){"hosts.client.nic.gro=", NULL}, SKSIM_CONF_ERROR_TYPE,
                     "--set:1:22: expected a boolean (true/false), got an empty value");
    assert_set_error((const char *const[]){"workloads.bulk.to_cpus=[0, 1", NULL},
                     SKSIM_CONF_ERROR_SYNTAX,
                     "--set:1:29: syntax error: did not find expected ',' or ']' (while parsing a "
                     "flow sequence at line 1, column 24)");
    assert_set_error((const char *const[]){"gro", NULL}, SKSIM_CONF_ERROR_SYNTAX,
                     "--set:1:1: expected KEY=VALUE, got 'gro'");
    assert_set_error((const char *const[]){"stack=1", NULL}, SKSIM_CONF_ERROR_UNKNOWN_KEY,
                     "--set:1:1: 'stack' is a section, not a key: set one key by its full dotted "
                     "path, such as 'stack.release_sock.resched_every'");
    assert_set_error((const char *const[]){"duration=2s", "warmup=3s", NULL},
                     SKSIM_CONF_ERROR_RANGE,
                     "--set:2:8: warmup (3s) must be shorter than duration (2s)");
}

static void test_unknown_variant(void)
{
    g_autoptr(Scenario) s = load_str(minimal, NULL);
    g_autoptr(GError) err = NULL;
    g_assert_null(scenario_resolve(s, "befor", NULL, &err));
    g_assert_error(err, SKSIM_CONF_ERROR, SKSIM_CONF_ERROR_VARIANT);
    g_assert_cmpstr(err->message, ==, "mem.yaml:12:3: unknown variant 'befor' (did you mean 'before'?)");
    g_clear_error(&err);
    g_assert_null(scenario_resolve(s, "zzz", NULL, &err));
    g_assert_cmpstr(err->message, ==, "mem.yaml:12:3: unknown variant 'zzz' (variants: before, nogro)");
    g_clear_error(&err);

    g_autoptr(Scenario) plain = load_str("name: p\nduration: 1s\nhosts: {h: {}}\n", NULL);
    g_assert_cmpuint(scenario_n_variants(plain), ==, 0);
    g_assert_null(scenario_resolve(plain, "after", NULL, &err));
    g_assert_cmpstr(err->message, ==,
                    "mem.yaml:1:1: unknown variant 'after' (the scenario has no variants)");
}

/* ---- every error class ------------------------------------------------------------------------- */

typedef struct ErrCase {
    const char *yaml;
    int code;
    const char *message;
} ErrCase;

#define HOSTS "name: e\nduration: 1s\nhosts:\n  client: {}\n  server: {}\n"

static void test_error_classes(void)
{
    static const ErrCase cases[] = {
        {"name: e\nduration: [1s\n", SKSIM_CONF_ERROR_SYNTAX,
         "mem.yaml:3:1: syntax error: did not find expected ',' or ']' (while parsing a flow "
         "sequence at line 2, column 11)"},
        {HOSTS "  server2:\n    nic: {gor: true}\n", SKSIM_CONF_ERROR_UNKNOWN_KEY,
         "mem.yaml:7:11: unknown key 'gor' in hosts.server2.nic (did you mean 'gro'?)"},
        {HOSTS "seed: true\n", SKSIM_CONF_ERROR_TYPE,
         "mem.yaml:6:7: expected a whole number, got 'true'"},
        {HOSTS "  x: {nic: {gro: 1}}\n", SKSIM_CONF_ERROR_TYPE,
         "mem.yaml:6:18: expected a boolean (true/false), got '1'"},
        {HOSTS "  x: {nic: {mtu: 20}}\n", SKSIM_CONF_ERROR_RANGE,
         "mem.yaml:6:18: hosts.x.nic.mtu must be between 68 and 65536, got '20'"},
        {HOSTS "sample_interval: 10xs\n", SKSIM_CONF_ERROR_UNIT,
         "mem.yaml:6:18: unknown unit 'xs' for a duration (use ns, us, ms, s)"},
        {HOSTS "warmup: 10\n", SKSIM_CONF_ERROR_UNIT,
         "mem.yaml:6:9: missing unit: expected a duration like 50us or 1.5ms"},
        {HOSTS "links:\n  l: {a: client, b: server}\n", SKSIM_CONF_ERROR_MISSING,
         "mem.yaml:7:6: missing required key 'rate' in links.l"},
        {HOSTS "hz: 250\nhz: 300\n", SKSIM_CONF_ERROR_DUPLICATE_KEY,
         "mem.yaml:7:1: duplicate key 'hz' (first given at line 6)"},
        {HOSTS "variants:\n  v:\n    stack.backlog.limt: rcvbuf\n", SKSIM_CONF_ERROR_UNKNOWN_KEY,
         "mem.yaml:8:5: unknown key 'stack.backlog.limt' (did you mean 'stack.backlog.limit'?)"},
        {"", SKSIM_CONF_ERROR_EMPTY, "mem.yaml:1:1: empty scenario file"},
        {"# nothing\n\n# here\n", SKSIM_CONF_ERROR_EMPTY, "mem.yaml:1:1: empty scenario file"},
        {"---\n...\n", SKSIM_CONF_ERROR_EMPTY, "mem.yaml:1:1: empty scenario file"},
        {HOSTS "seed: *s\n", SKSIM_CONF_ERROR_SYNTAX,
         "mem.yaml:6:7: YAML aliases are not supported"},
        {HOSTS "seed: &s 5\n", SKSIM_CONF_ERROR_SYNTAX,
         "mem.yaml:6:7: YAML anchors and aliases are not supported"},
        {HOSTS "links:\n  l: {a: client, b: nobody, rate: 1Gbit}\n", SKSIM_CONF_ERROR_REFERENCE,
         "mem.yaml:7:21: unknown host 'nobody' in links.l.b"},
        {HOSTS "workloads:\n  w: {type: rr, from: client, to: sevrer}\n",
         SKSIM_CONF_ERROR_REFERENCE,
         "mem.yaml:7:35: unknown host 'sevrer' in workloads.w.to (did you mean 'server'?)"},
        {"name: e\n\x01\n", SKSIM_CONF_ERROR_SYNTAX,
         "mem.yaml:2:1: control character 0x01 is not allowed (scenario files are UTF-8 text)"},
        {"name: caf\xc3\n", SKSIM_CONF_ERROR_SYNTAX,
         "mem.yaml:1:10: invalid UTF-8 byte 0xC3 (scenario files are UTF-8 text)"},
        {"\xff\xfe\x00\x01garbage", SKSIM_CONF_ERROR_SYNTAX,
         "mem.yaml:1:1: invalid UTF-8 byte 0xFF (scenario files are UTF-8 text)"},
        {"just a string\n", SKSIM_CONF_ERROR_TYPE,
         "mem.yaml:1:1: expected a mapping of scenario keys (name, duration, hosts, ...), got "
         "'just a string'"},
    };
    for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_test_message("case %u", i);
        assert_load_error(cases[i].yaml, cases[i].code, cases[i].message);
    }
}

static void test_nul_byte(void)
{
    static const char data[] = "name: e\nduration: 1s\0\n";
    g_autoptr(GError) err = NULL;
    g_assert_null(scenario_load_data(data, sizeof data - 1, "mem.yaml", &err));
    g_assert_cmpstr(err->message, ==,
                    "mem.yaml:2:13: control character 0x00 is not allowed (scenario files are UTF-8 "
                    "text)");
}

static void test_deep_nesting(void)
{
    g_autoptr(GString) ok = g_string_new(HOSTS "deep: ");
    g_autoptr(GString) bad = g_string_new(HOSTS "deep: ");
    /* The root mapping is level 1: 63 sequences reach the limit, 64 pass it. */
    for (int i = 0; i < 63; i++)
        g_string_append_c(ok, '[');
    for (int i = 0; i < 63; i++)
        g_string_append_c(ok, ']');
    for (int i = 0; i < 1000; i++)
        g_string_append_c(bad, '[');
    g_autoptr(GError) err = NULL;
    g_autoptr(Scenario) s = load_str(ok->str, &err);
    /* Nesting is fine; the key is not. */
    g_assert_error(err, SKSIM_CONF_ERROR, SKSIM_CONF_ERROR_UNKNOWN_KEY);
    assert_load_error(bad->str, SKSIM_CONF_ERROR_LIMIT, "mem.yaml:6:70: nesting deeper than 64 levels");
}

static void test_too_large(void)
{
    /* Exactly the limit loads (a valid scenario padded with a comment) ... */
    g_autoptr(GString) big = g_string_new("name: big\nduration: 1s\nhosts: {h: {}}\n#");
    while (big->len < CONF_MAX_BYTES - 1)
        g_string_append_c(big, 'x');
    g_string_append_c(big, '\n');
    g_assert_cmpuint(big->len, ==, CONF_MAX_BYTES);
    g_autoptr(GError) err = NULL;
    g_autoptr(Scenario) s = scenario_load_data(big->str, big->len, "big.yaml", &err);
    g_assert_no_error(err);
    g_assert_cmpstr(scenario_name(s), ==, "big");

    /* ... one byte more does not, nor does 10 MB. */
    g_string_append_c(big, '\n');
    g_assert_null(scenario_load_data(big->str, big->len, "big.yaml", &err));
    g_assert_error(err, SKSIM_CONF_ERROR, SKSIM_CONF_ERROR_LIMIT);
    g_assert_cmpstr(err->message, ==, "big.yaml:1:1: file too large (the limit is 4 MiB)");
    g_clear_error(&err);
    g_autofree char *huge = g_malloc0(10 * 1000 * 1000);
    g_assert_null(scenario_load_data(huge, 10 * 1000 * 1000, "huge.yaml", &err));
    g_assert_cmpstr(err->message, ==, "huge.yaml:1:1: file too large (the limit is 4 MiB)");
}

static void test_missing_file(void)
{
    g_autoptr(GError) err = NULL;
    g_assert_null(scenario_load_file("tests/bad/no-such-file.yaml", &err));
    g_assert_error(err, SKSIM_CONF_ERROR, SKSIM_CONF_ERROR_IO);
    g_assert_cmpstr(err->message, ==,
                    "tests/bad/no-such-file.yaml:1:1: cannot open: No such file or directory");
}

static void test_expect_and_report(void)
{
    static const char yaml[] = HOSTS "expect:\n"
                                     "  - check: a.x\n"
                                     "    max: -1.5e3\n"
                                     "  - {name: both, check: b.y, min: 0, max: 1}\n"
                                     "report:\n"
                                     "  counters: [TCPTimeouts, TcpOutSegs, client.TCPBacklogDrop,\n"
                                     "             server.TcpOutSegs]\n";
    g_autoptr(GError) err = NULL;
    g_autoptr(Scenario) s = load_str(yaml, &err);
    g_assert_no_error(err);
    g_assert_cmpuint(scenario_n_expects(s), ==, 2);
    const ExpectConf *a = scenario_expect(s, 0), *b = scenario_expect(s, 1);
    g_assert_cmpstr(a->name, ==, "a.x"); /* the name defaults to the expression */
    g_assert_false(a->has_min);
    g_assert_true(a->has_max);
    g_assert_cmpfloat(a->max, ==, -1500.0);
    g_assert_cmpint(a->line, ==, 7);
    g_assert_cmpint(a->col, ==, 5);
    g_assert_cmpstr(b->name, ==, "both");
    g_assert_true(b->has_min && b->has_max);
    const ReportConf *r = scenario_report(s);
    g_assert_cmpstr(g_ptr_array_index(r->counters, 0), ==, "TcpExtTCPTimeouts");
    g_assert_cmpstr(g_ptr_array_index(r->counters, 1), ==, "TcpOutSegs");
    /* HOST.COUNTER: in file order, the counter under its full nstat name */
    g_assert_cmpuint(r->counters->len, ==, 4);
    g_assert_cmpstr(g_ptr_array_index(r->counters, 2), ==, "client.TcpExtTCPBacklogDrop");
    g_assert_cmpstr(g_ptr_array_index(r->counters, 3), ==, "server.TcpOutSegs");
}

/* ---- the tree -------------------------------------------------------------------------------- */

static void test_tree_positions(void)
{
    static const char yaml[] = "b: 1\na:\n  x: [1, \"two\"]\n  w: ~\n";
    g_autoptr(GError) err = NULL;
    g_autoptr(ConfNode) root = conf_tree_parse(yaml, strlen(yaml), "t.yaml", &err);
    g_assert_no_error(err);
    g_assert_cmpuint(conf_map_len(root), ==, 2);
    g_assert_cmpstr(conf_map_key(root, 0), ==, "b"); /* insertion order, not sorted */
    g_assert_cmpstr(conf_map_key(root, 1), ==, "a");
    const ConfNode *x = conf_node_lookup(root, "a.x");
    g_assert_cmpint(x->kind, ==, CONF_NODE_SEQ);
    g_assert_cmpint(x->line, ==, 3);
    g_assert_cmpint(x->col, ==, 6);
    const ConfNode *two = g_ptr_array_index(x->items, 1);
    g_assert_cmpstr(two->text, ==, "two");
    g_assert_false(two->plain);
    g_assert_cmpint(two->col, ==, 10);
    g_assert_true(conf_node_is_null(conf_node_lookup(root, "a.w")));
    g_assert_null(conf_node_lookup(root, "a.y"));

    /* A UTF-8 byte-order mark is skipped and does not count as a column. */
    static const char bom[] = "\xEF\xBB\xBF" "a: 1\nb: [x\n";
    g_assert_null(conf_tree_parse(bom, strlen(bom), "bom.yaml", &err));
    g_assert_cmpstr(err->message, ==,
                    "bom.yaml:3:1: syntax error: did not find expected ',' or ']' (while parsing a "
                    "flow sequence at line 2, column 4)");
    g_clear_error(&err);

    g_autoptr(ConfNode) v = conf_tree_parse_value("[0-3, 8]", "--set", 2, 10, &err);
    g_assert_no_error(err);
    g_assert_cmpint(v->kind, ==, CONF_NODE_SEQ);
    g_assert_cmpint(v->line, ==, 2);
    g_assert_cmpint(v->col, ==, 11);
    g_assert_cmpstr(v->origin, ==, "--set");
}

/* ---- the corpus of bad files ------------------------------------------------------------------ */

static void test_bad_files(void)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(GDir) dir = g_dir_open("tests/bad", 0, &err);
    g_assert_no_error(err);
    g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
    for (const char *n; (n = g_dir_read_name(dir));)
        if (g_str_has_suffix(n, ".yaml"))
            g_ptr_array_add(names, g_strdup(n));
    g_ptr_array_sort(names, (GCompareFunc)g_strcmp0);
    g_assert_cmpuint(names->len, >=, 40);
    for (guint i = 0; i < names->len; i++) {
        const char *n = g_ptr_array_index(names, i);
        g_autofree char *path = g_build_filename("tests/bad", n, NULL);
        g_autofree char *stem = g_strndup(path, strlen(path) - strlen(".yaml"));
        g_autofree char *expect_path = g_strconcat(stem, ".expect", NULL);
        g_autofree char *expected = NULL;
        g_file_get_contents(expect_path, &expected, NULL, &err);
        g_assert_no_error(err);
        g_strchomp(expected);
        g_assert_null(strchr(expected, '\n')); /* one line */
        g_autoptr(GError) load_err = NULL;
        g_autoptr(Scenario) s = scenario_load_file(path, &load_err);
        if (s)
            g_error("%s loaded, expected: %s", path, expected);
        g_assert_cmpstr(load_err->message, ==, expected);
    }
}

/* ---- the key reference ------------------------------------------------------------------------ */

static void test_keys_list(void)
{
    g_auto(GStrv) keys = conf_keys_list();
    g_assert_true(g_strv_contains((const char *const *)keys, "name"));
    g_assert_true(g_strv_contains((const char *const *)keys, "stack.backlog.limit"));
    g_assert_true(g_strv_contains((const char *const *)keys, "hosts.<host>.nic.gro"));
    g_assert_true(g_strv_contains((const char *const *)keys, "links.<link>.rate"));
    g_assert_true(g_strv_contains((const char *const *)keys, "workloads.<workload>.to_cpus"));
    g_assert_true(g_strv_contains((const char *const *)keys, "report.counters"));
    for (int i = 0; i < COST_COUNT; i++) {
        g_autofree char *k = g_strconcat("hosts.<host>.costs.", cost_key((CostId)i), NULL);
        g_assert_true(g_strv_contains((const char *const *)keys, k));
    }
    for (guint i = 0; keys[i]; i++)
        for (guint j = i + 1; keys[j]; j++)
            g_assert_cmpstr(keys[i], !=, keys[j]);
}

static void test_keys_markdown(void)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    conf_keys_write_markdown(f);
    fclose(f);
    g_auto(GStrv) keys = conf_keys_list();
    for (guint i = 0; keys[i]; i++) {
        g_autofree char *cell = g_strdup_printf("| `%s` |", keys[i]);
        if (!strstr(buf, cell))
            g_error("markdown lacks %s", cell);
    }
    g_assert_nonnull(strstr(buf, "| `hosts.<host>.tcp.rto_min` | duration (ns, us, ms, s) | `200ms` |"));
    free(buf);
}

static void test_keys_in_readme(void)
{
    const char *src = g_getenv("SKSIM_SOURCE_DIR");
    g_autofree char *path = g_build_filename(src ? src : ".", "scenarios", "README.md", NULL);
    g_autofree char *text = NULL;
    g_autoptr(GError) err = NULL;
    g_file_get_contents(path, &text, NULL, &err);
    g_assert_no_error(err);
    g_auto(GStrv) keys = conf_keys_list();
    for (guint i = 0; keys[i]; i++) {
        g_autofree char *quoted = g_strdup_printf("`%s`", keys[i]);
        if (!strstr(text, quoted))
            g_error("scenarios/README.md does not document %s: regenerate it with `sksim keys`",
                    keys[i]);
    }
}

/* The structure example at the top of the README is a valid scenario. */
static void test_readme_example_loads(void)
{
    const char *src = g_getenv("SKSIM_SOURCE_DIR");
    g_autofree char *path = g_build_filename(src ? src : ".", "scenarios", "README.md", NULL);
    g_autofree char *text = NULL;
    g_assert_true(g_file_get_contents(path, &text, NULL, NULL));
    const char *start = strstr(text, "```yaml\n");
    g_assert_nonnull(start);
    start += strlen("```yaml\n");
    const char *end = strstr(start, "```");
    g_assert_nonnull(end);
    g_autoptr(GError) err = NULL;
    g_autoptr(Scenario) s = scenario_load_data(start, (gsize)(end - start), "README.md", &err);
    g_assert_no_error(err);
    g_assert_cmpuint(scenario_n_variants(s), ==, 2);
    g_assert_cmpstr(g_ptr_array_index(scenario_report(s)->counters, 1), ==, "TcpExtTCPBacklogDrop");
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/scenario/example", test_example_loads);
    g_test_add_func("/scenario/defaults", test_defaults);
    g_test_add_func("/scenario/variant/changes-one-field", test_variant_changes_one_field);
    g_test_add_func("/scenario/variant/unknown-name", test_unknown_variant);
    g_test_add_func("/scenario/set/beats-variant", test_set_beats_variant);
    g_test_add_func("/scenario/variant/sets", test_variant_sets);
    g_test_add_func("/scenario/set/errors", test_set_errors);
    g_test_add_func("/scenario/errors/classes", test_error_classes);
    g_test_add_func("/scenario/errors/nul-byte", test_nul_byte);
    g_test_add_func("/scenario/errors/deep-nesting", test_deep_nesting);
    g_test_add_func("/scenario/errors/too-large", test_too_large);
    g_test_add_func("/scenario/errors/missing-file", test_missing_file);
    g_test_add_func("/scenario/errors/bad-files", test_bad_files);
    g_test_add_func("/scenario/expect-and-report", test_expect_and_report);
    g_test_add_func("/scenario/tree/positions", test_tree_positions);
    g_test_add_func("/scenario/keys/list", test_keys_list);
    g_test_add_func("/scenario/keys/markdown", test_keys_markdown);
    g_test_add_func("/scenario/keys/readme", test_keys_in_readme);
    g_test_add_func("/scenario/readme-example", test_readme_example_loads);
    return g_test_run();
}
