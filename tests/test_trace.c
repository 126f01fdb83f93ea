/* test_trace.c - looking inside a run: the capture agrees with the sender's counters (segments
 * and sequence numbers, read back with libpcap), the trace is valid JSON with well-formed,
 * non-overlapping slices and the events the scenario must produce (TLP, RTO, DSACK, drain
 * yields, backlog drops), the trace window clips, the event log keeps its line format and its
 * categories, and observing a run changes nothing in it (same events, same counters).
 *
 * Scenarios: tests/data/observe_{loss,story,backlog}.yaml, all without warm-up so that the
 * counters cover the whole run, as the capture, the trace and the log do.
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/skb.h"
#include "sim/evlog.h"
#include "sim/run.h"
#include "sim/scenario.h"

#ifdef SKSIM_HAVE_PCAP
#include <pcap/pcap.h>
#endif

/* ---- running ---- */

typedef struct {
    char *dir;           /* a fresh temporary directory, removed at the end */
    RunResult *r;
    ScenarioConf *conf;
} Run;

static void rm_rf(const char *dir)
{
    g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
    const char *name;
    while (d && (name = g_dir_read_name(d))) {
        g_autofree char *p = g_build_filename(dir, name, NULL);
        g_unlink(p);
    }
    g_rmdir(dir);
}

/* Run tests/data/<name>.yaml with opt (out_dir set here) and return its result. */
static Run run_data(const char *name, RunOptions opt)
{
    Run run = { 0 };
    g_autoptr(GError) err = NULL;
    run.dir = g_dir_make_tmp("sksim-trace-XXXXXX", &err);
    g_assert_no_error(err);
    g_autofree char *path = g_strdup_printf("tests/data/%s.yaml", name);
    g_autoptr(Scenario) s = scenario_load_file(path, &err);
    g_assert_no_error(err);
    run.conf = scenario_resolve(s, NULL, NULL, &err);
    g_assert_no_error(err);
    opt.out_dir = run.dir;
    run.r = run_scenario(run.conf, &opt, &err);
    g_assert_no_error(err);
    g_assert_nonnull(run.r);
    return run;
}

static void run_clear(Run *run)
{
    rm_rf(run->dir);
    g_free(run->dir);
    run_result_free(run->r);
    scenario_conf_free(run->conf);
}

static char *run_file(const Run *run, const char *name)
{
    return g_build_filename(run->dir, name, NULL);
}

static uint64_t counter(const Run *run, const char *host, CounterId id)
{
    for (guint i = 0; i < run->r->hosts->len; i++) {
        const HostResult *h = g_ptr_array_index(run->r->hosts, i);
        if (strcmp(h->name, host) == 0)
            return h->counters.v[id];
    }
    g_assert_not_reached();
}

/* ---- the capture ---- */

#ifdef SKSIM_HAVE_PCAP
static uint32_t get16(const u_char *p)
{
    return (uint32_t)p[0] << 8 | p[1];
}

static uint32_t get32(const u_char *p)
{
    return get16(p) << 16 | get16(p + 2);
}

/* The client's capture of a lossy run: every segment it sent is in it, as TCP counted it.
 * TcpOutSegs counts new data (by TSO segments) and pure ACKs, TcpRetransSegs retransmitted
 * segments; in the capture a TSO skb is one packet of ceil(len / mss) segments, new data starts
 * exactly where the highest sequence sent so far ends, and anything below it is a retransmit. */
static void test_pcap_matches_counters(void)
{
    const char *const specs[] = { "client", NULL };
    Run run = run_data("observe_loss", (RunOptions){ .pcap = specs });
    const HostConf *hc = g_ptr_array_index(run.conf->hosts, 0);
    g_assert_cmpstr(hc->name, ==, "client");
    uint32_t mss = hc->nic.mtu - 40u - (hc->tcp.timestamps ? 12u : 0u);

    g_autofree char *lo = run_file(&run, "client-lo.pcap");
    g_autofree char *eth0 = run_file(&run, "client-eth0.pcap");
    g_assert_true(g_file_test(lo, G_FILE_TEST_EXISTS));
    char errbuf[PCAP_ERRBUF_SIZE];
    pcap_t *p = pcap_open_offline_with_tstamp_precision(eth0, PCAP_TSTAMP_PRECISION_NANO, errbuf);
    g_assert_nonnull(p);
    g_assert_cmpint(pcap_snapshot(p), ==, 128);
    uint64_t new_segs = 0, acks = 0, rexmit_segs = 0, rx_pkts = 0, new_bytes = 0;
    uint32_t first = 0, max_end = 0, max_ack = 0;
    bool have_first = false;
    sim_time_t last_t = 0;
    struct pcap_pkthdr *h;
    const u_char *d;
    static const uint8_t handshake[3] = { TCPHDR_SYN, TCPHDR_SYN | TCPHDR_ACK, TCPHDR_ACK };
    uint32_t n = 0;
    while (pcap_next_ex(p, &h, &d) == 1) {
        g_assert_cmpuint(h->caplen, >=, 14 + 20 + 20);
        sim_time_t t = (sim_time_t)h->ts.tv_sec * SIM_S + h->ts.tv_usec;
        g_assert_cmpint(t, >=, last_t); /* in time order */
        last_t = t;
        uint32_t ihl = (d[14] & 0xfu) * 4u, tot = get16(d + 16);
        const u_char *tcp = d + 14 + ihl;
        if (n < 3) { /* the capture opens with the connection's handshake, which TCP did not count */
            g_assert_cmpint(t, ==, 0);
            g_assert_cmpuint(tcp[13], ==, handshake[n++]);
            if (n < 3) { /* SYN and SYN-ACK: MSS first, the route's mtu - 40, timestamps or not
                          * (the option comes off advmss only once the handshake agreed on it) */
                g_assert_cmpuint(tcp[20], ==, 2);
                g_assert_cmpuint(tcp[21], ==, 4);
                g_assert_cmpuint(get16(tcp + 22), ==, hc->nic.mtu - 40u);
            }
            continue;
        }
        uint32_t doff = (tcp[12] >> 4) * 4u, len = tot - ihl - doff;
        uint32_t seq = get32(tcp + 4), ack = get32(tcp + 8);
        if (get32(d + 26) != 0x0a000001u) { /* from the server (10.0.0.2): what the client got */
            rx_pkts++;
            max_ack = MAX(max_ack, ack);
            continue;
        }
        if (len == 0) {
            acks++;
            continue;
        }
        if (!have_first) {
            first = max_end = seq;
            have_first = true;
        }
        uint32_t segs = (len + mss - 1) / mss;
        if (seq + len > max_end) {
            g_assert_cmpuint(seq, ==, max_end); /* new data: no gap, no overlap */
            max_end = seq + len;
            new_segs += segs;
            new_bytes += len;
        } else {
            rexmit_segs += segs;
        }
    }
    pcap_close(p);
    g_assert_cmpuint(new_segs + acks, ==, counter(&run, "client", CTR_TcpOutSegs));
    g_assert_cmpuint(rexmit_segs, ==, counter(&run, "client", CTR_TcpRetransSegs));
    g_assert_cmpuint(rexmit_segs, >, 0); /* 5% loss */
    g_assert_cmpuint(rx_pkts, >, 0);
    const FlowResult *f = g_ptr_array_index(run.r->flows, 0);
    g_assert_cmpuint(new_bytes, ==, max_end - first);
    /* delivered <= sent and acked <= sent. Not delivered <= acked: the server's application may
     * have read bytes whose ACK is still delayed or in flight when the run stops. */
    g_assert_cmpuint(f->bytes_delivered, <=, max_end - first);
    g_assert_cmpuint(max_ack, <=, max_end);
    run_clear(&run);
}
#endif

/* ---- JSON ---- */

/* A minimal JSON checker (RFC 8259 grammar, no semantics): returns the end of the value, or
 * NULL. */
static const char *json_value(const char *p, int depth);

static const char *json_ws(const char *p)
{
    while (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')
        p++;
    return p;
}

static const char *json_string(const char *p)
{
    if (*p++ != '"')
        return NULL;
    while (*p && *p != '"') {
        if ((unsigned char)*p < 0x20)
            return NULL;
        if (*p == '\\') {
            p++;
            if (*p == 'u') {
                for (int i = 1; i <= 4; i++)
                    if (!g_ascii_isxdigit(p[i]))
                        return NULL;
                p += 4;
            } else if (!strchr("\"\\/bfnrt", *p) || !*p) {
                return NULL;
            }
        }
        p++;
    }
    return *p == '"' ? p + 1 : NULL;
}

static const char *json_number(const char *p)
{
    const char *s = p;
    if (*p == '-')
        p++;
    if (*p == '0')
        p++;
    else if (g_ascii_isdigit(*p))
        while (g_ascii_isdigit(*p))
            p++;
    else
        return NULL;
    if (*p == '.') {
        if (!g_ascii_isdigit(*++p))
            return NULL;
        while (g_ascii_isdigit(*p))
            p++;
    }
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-')
            p++;
        if (!g_ascii_isdigit(*p))
            return NULL;
        while (g_ascii_isdigit(*p))
            p++;
    }
    return p > s ? p : NULL;
}

static const char *json_container(const char *p, int depth, char close, bool object)
{
    p = json_ws(p + 1);
    if (*p == close)
        return p + 1;
    for (;;) {
        if (object) {
            p = json_string(json_ws(p));
            if (!p)
                return NULL;
            p = json_ws(p);
            if (*p++ != ':')
                return NULL;
        }
        p = json_value(p, depth + 1);
        if (!p)
            return NULL;
        p = json_ws(p);
        if (*p == close)
            return p + 1;
        if (*p++ != ',')
            return NULL;
    }
}

static const char *json_value(const char *p, int depth)
{
    if (depth > 64)
        return NULL;
    p = json_ws(p);
    switch (*p) {
    case '{':
        return json_container(p, depth, '}', true);
    case '[':
        return json_container(p, depth, ']', false);
    case '"':
        return json_string(p);
    case 't':
        return strncmp(p, "true", 4) == 0 ? p + 4 : NULL;
    case 'f':
        return strncmp(p, "false", 5) == 0 ? p + 5 : NULL;
    case 'n':
        return strncmp(p, "null", 4) == 0 ? p + 4 : NULL;
    default:
        return json_number(p);
    }
}

static void assert_json(const char *text)
{
    const char *end = json_value(text, 0);
    g_assert_nonnull(end);
    g_assert_cmpint(*json_ws(end), ==, '\0');
}

static void test_json_checker(void)
{
    assert_json("{\"a\":[1,-2.5e3,\"x\\u00e9\\n\",true,false,null,{}],\"b\":[]}");
    g_assert_null(json_value("{\"a\":1,}", 0));
    g_assert_null(json_value("[1 2]", 0));
    g_assert_null(json_value("{\"a\" 1}", 0));
    g_assert_null(json_value("[01]", 0));
    g_assert_null(json_value("[\"a\nb\"]", 0));
}

/* ---- the trace ---- */

typedef struct {
    char *text;
    char **lines; /* one event per line */
} TraceFile;

static TraceFile trace_read(const char *path)
{
    TraceFile t = { 0 };
    g_autoptr(GError) err = NULL;
    g_file_get_contents(path, &t.text, NULL, &err);
    g_assert_no_error(err);
    assert_json(t.text);
    t.lines = g_strsplit(t.text, "\n", -1);
    return t;
}

static void trace_clear(TraceFile *t)
{
    g_free(t->text);
    g_strfreev(t->lines);
}

/* Events of phase ph (NULL: any) whose line contains needle (NULL: any). */
static guint trace_count(const TraceFile *t, const char *ph, const char *needle)
{
    g_autofree char *want = ph ? g_strdup_printf("{\"ph\":\"%s\"", ph) : NULL;
    guint n = 0;
    for (guint i = 0; t->lines[i]; i++)
        if ((!want || g_str_has_prefix(t->lines[i], want)) && (!needle || strstr(t->lines[i], needle)))
            n++;
    return n;
}

/* The number after "key": on an event line, in ns when it is a time in us (3 decimals). */
static int64_t field_int(const char *line, const char *key)
{
    g_autofree char *k = g_strdup_printf("\"%s\":", key);
    const char *p = strstr(line, k);
    g_assert_nonnull(p);
    return g_ascii_strtoll(p + strlen(k), NULL, 10);
}

static sim_time_t field_us(const char *line, const char *key)
{
    g_autofree char *k = g_strdup_printf("\"%s\":", key);
    const char *p = strstr(line, k);
    g_assert_nonnull(p);
    char *end;
    int64_t us = g_ascii_strtoll(p + strlen(k), &end, 10);
    g_assert_cmpint(*end, ==, '.');
    int64_t frac = g_ascii_strtoll(end + 1, NULL, 10);
    g_assert_cmpint(strspn(end + 1, "0123456789"), ==, 3);
    return us * 1000 + frac;
}

/* Complete slices: positive durations inside [t0, t1], never overlapping on one track. */
static void assert_slices(const TraceFile *t, sim_time_t t0, sim_time_t t1)
{
    g_autoptr(GHashTable) ends = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, g_free);
    for (guint i = 0; t->lines[i]; i++) {
        const char *l = t->lines[i];
        if (!g_str_has_prefix(l, "{\"ph\":\"X\""))
            continue;
        int64_t key = field_int(l, "pid") << 32 | field_int(l, "tid");
        sim_time_t ts = field_us(l, "ts"), dur = field_us(l, "dur");
        g_assert_cmpint(dur, >, 0);
        g_assert_cmpint(ts, >=, t0);
        g_assert_cmpint(ts + dur, <=, t1);
        sim_time_t *end = g_hash_table_lookup(ends, &key);
        if (end) {
            g_assert_cmpint(ts, >=, *end);
            *end = ts + dur;
        } else {
            g_hash_table_insert(ends, g_memdup2(&key, sizeof key), g_memdup2(&(sim_time_t){ ts + dur }, sizeof(sim_time_t)));
        }
    }
}

/* Seed 000 in 40 ms: every kind of slice, counter and instant the story is told with. */
static void test_trace_story(void)
{
    g_autofree char *dir = g_dir_make_tmp("sksim-trace-XXXXXX", NULL);
    g_autofree char *path = g_build_filename(dir, "story.json", NULL);
    Run run = run_data("observe_story", (RunOptions){ .trace_path = path });
    g_autofree char *tmp = g_strdup_printf("%s.tmp", path);
    g_assert_false(g_file_test(tmp, G_FILE_TEST_EXISTS)); /* renamed into place */
    TraceFile t = trace_read(path);
    g_assert_true(g_str_has_prefix(t.text, "{\"displayTimeUnit\":\"ns\",\"otherData\":{"));
    g_assert_nonnull(strstr(t.lines[0], "\"scenario\":\"observe_story\""));
    /* tracks are named */
    g_assert_cmpuint(trace_count(&t, "M", "\"process_name\",\"args\":{\"name\":\"clnt\"}"), ==, 1);
    g_assert_cmpuint(trace_count(&t, "M", "\"thread_name\",\"args\":{\"name\":\"cpu10\"}"), ==, 2);
    g_assert_cmpuint(trace_count(&t, "M", "\"args\":{\"name\":\"sk:1 (conn 0)\"}"), ==, 2);
    /* CPU slices: tasks, softirq, context switches; socket ownership */
    g_assert_cmpuint(trace_count(&t, "X", "\"cat\":\"task\",\"name\":\"netserver:netperf/0\""), >, 0);
    g_assert_cmpuint(trace_count(&t, "X", "\"cat\":\"softirq\""), >, 0);
    g_assert_cmpuint(trace_count(&t, "X", "\"name\":\"switch to "), >, 0);
    g_assert_cmpuint(trace_count(&t, "X", "\"cat\":\"lock\",\"name\":\"owned by netserver:"), >, 0);
    /* counters: backlog per socket, cwnd/srtt/in flight per flow (every 1 ms + the end) */
    g_assert_cmpuint(trace_count(&t, "C", "\"name\":\"backlog sk:"), >, 0);
    g_assert_cmpuint(trace_count(&t, "C", "\"name\":\"cwnd netperf/3\""), ==, 41);
    g_assert_cmpuint(trace_count(&t, "C", "\"name\":\"srtt netperf/0\""), ==, 41);
    g_assert_cmpuint(trace_count(&t, "C", "\"name\":\"in flight netperf/0\""), ==, 41);
    /* instants: one per firing, as the counters count them */
    g_assert_cmpuint(trace_count(&t, "i", "\"name\":\"TLP\""), ==,
                     counter(&run, "clnt", CTR_TcpExtTCPLossProbes));
    g_assert_cmpuint(trace_count(&t, "i", "\"name\":\"RTO\""), ==,
                     counter(&run, "clnt", CTR_TcpExtTCPTimeouts));
    g_assert_cmpuint(trace_count(&t, "i", "\"name\":\"DSACK\""), ==,
                     counter(&run, "clnt", CTR_TcpExtTCPDSACKRecv));
    g_assert_cmpuint(trace_count(&t, "i", "\"name\":\"RTO\""), >, 0);
    g_assert_cmpuint(trace_count(&t, "i", "\"name\":\"DSACK\""), >, 0);
    g_assert_cmpuint(trace_count(&t, "i", "\"name\":\"drain_yield\""), >, 0);
    g_assert_cmpuint(trace_count(&t, "i", "\"name\":\"cond_resched\""), >, 0);
    assert_slices(&t, 0, run.conf->duration_ns);
    trace_clear(&t);
    run_clear(&run);
    rm_rf(dir);
}

/* Backlog drops: one instant per TCPBacklogDrop (of either host), on the socket's track. */
static void test_trace_backlog_drops(void)
{
    g_autofree char *dir = g_dir_make_tmp("sksim-trace-XXXXXX", NULL);
    g_autofree char *path = g_build_filename(dir, "t.json", NULL);
    Run run = run_data("observe_backlog", (RunOptions){ .trace_path = path });
    TraceFile t = trace_read(path);
    uint64_t drops = counter(&run, "sender", CTR_TcpExtTCPBacklogDrop) +
                     counter(&run, "receiver", CTR_TcpExtTCPBacklogDrop);
    g_assert_cmpuint(counter(&run, "sender", CTR_TcpExtTCPBacklogDrop), >, 0);
    g_assert_cmpuint(trace_count(&t, "i", "\"tid\":1001,\"s\":\"t\""), >=, drops);
    g_assert_cmpuint(trace_count(&t, "i", "\"name\":\"backlog_drop\""), ==, drops);
    assert_slices(&t, 0, run.conf->duration_ns);
    trace_clear(&t);
    run_clear(&run);
    rm_rf(dir);
}

/* --trace-window 10ms:20ms: slices are clipped to it, nothing else lies outside. */
static void test_trace_window(void)
{
    g_autofree char *dir = g_dir_make_tmp("sksim-trace-XXXXXX", NULL);
    g_autofree char *path = g_build_filename(dir, "w.json", NULL);
    sim_time_t t0 = 10 * SIM_MS, t1 = 20 * SIM_MS;
    Run run = run_data("observe_story",
                       (RunOptions){ .trace_path = path, .trace_t0 = t0, .trace_t1 = t1 });
    TraceFile t = trace_read(path);
    assert_slices(&t, t0, t1);
    guint timed = 0;
    for (guint i = 0; t.lines[i]; i++) {
        if (!strstr(t.lines[i], "\"ts\":"))
            continue;
        sim_time_t ts = field_us(t.lines[i], "ts");
        g_assert_cmpint(ts, >=, t0);
        g_assert_cmpint(ts, <=, t1);
        timed++;
    }
    g_assert_cmpuint(timed, >, 0);
    g_assert_cmpuint(trace_count(&t, "C", "\"name\":\"cwnd netperf/0\""), ==, 11);
    trace_clear(&t);
    run_clear(&run);
    rm_rf(dir);
}

/* ---- the event log ---- */

static void test_log_tcp(void)
{
    Run run = run_data("observe_loss", (RunOptions){ .log_mask = LOG_TCP });
    g_autofree char *path = run_file(&run, "events.log");
    g_autofree char *text = NULL;
    g_assert_true(g_file_get_contents(path, &text, NULL, NULL));
    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
    g_autoptr(GRegex) re = g_regex_new(
        "^([0-9]+)\\.([0-9]{9}) ([a-z]+):([0-9]+|-) (\\S+) (ca_state|undo|retransmit|DSACK)"
        "( [a-z_]+=\\S+)+$", 0, 0, NULL);
    uint64_t retrans = 0;
    sim_time_t last = 0;
    guint n = g_strv_length(lines);
    g_assert_cmpuint(n, >, 1);
    g_assert_cmpstr(lines[n - 1], ==, ""); /* ends with a newline */
    for (guint i = 0; i + 1 < n; i++) {
        g_autoptr(GMatchInfo) m = NULL;
        if (!g_regex_match(re, lines[i], 0, &m))
            g_error("bad log line: '%s'", lines[i]);
        g_autofree char *s = g_match_info_fetch(m, 1), *ns = g_match_info_fetch(m, 2);
        sim_time_t t = g_ascii_strtoll(s, NULL, 10) * SIM_S + g_ascii_strtoll(ns, NULL, 10);
        g_assert_cmpint(t, >=, last); /* in time order */
        last = t;
        g_autofree char *ev = g_match_info_fetch(m, 6);
        const char *segs = strstr(lines[i], " segs=");
        if (strcmp(ev, "retransmit") == 0) {
            g_assert_nonnull(segs);
            retrans += g_ascii_strtoull(segs + 6, NULL, 10);
        }
    }
    g_assert_cmpuint(retrans, ==, counter(&run, "client", CTR_TcpRetransSegs));
    g_assert_cmpuint(retrans, >, 0);
    run_clear(&run);
}

/* Without --log nothing is written; with every observer on, the run is the same run. */
static void test_observers_change_nothing(void)
{
    Run plain = run_data("observe_loss", (RunOptions){ 0 });
    g_autofree char *log = run_file(&plain, "events.log");
    g_assert_false(g_file_test(log, G_FILE_TEST_EXISTS));
    g_autoptr(GDir) d = g_dir_open(plain.dir, 0, NULL);
    g_assert_null(g_dir_read_name(d)); /* run_scenario itself writes nothing */

    g_autofree char *dir = g_dir_make_tmp("sksim-trace-XXXXXX", NULL);
    g_autofree char *trace = g_build_filename(dir, "t.json", NULL);
    const char *const specs[] = { "client", "server:eth0", NULL };
#ifdef SKSIM_HAVE_PCAP
    const char *const *pcap = specs;
#else
    const char *const *pcap = NULL;
    (void)specs;
#endif
    Run seen = run_data("observe_loss",
                        (RunOptions){ .pcap = pcap, .trace_path = trace, .log_mask = LOG_ALL });
    g_assert_cmphex(seen.r->fp_events, ==, plain.r->fp_events);
    g_assert_cmphex(seen.r->fp_counters, ==, plain.r->fp_counters);
    g_assert_cmpuint(seen.r->events, ==, plain.r->events);
    run_clear(&seen);
    run_clear(&plain);
    rm_rf(dir);
}

static void test_bad_pcap_names(void)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(Scenario) s = scenario_load_file("tests/data/observe_loss.yaml", &err);
    g_assert_no_error(err);
    g_autoptr(ScenarioConf) c = scenario_resolve(s, NULL, NULL, &err);
    g_assert_no_error(err);
    g_autofree char *dir = g_dir_make_tmp("sksim-trace-XXXXXX", NULL);
    const char *const bad_host[] = { "client", "nosuch", NULL };
    RunOptions opt = { .pcap = bad_host, .out_dir = dir };
    g_assert_null(run_scenario(c, &opt, &err));
    g_assert_cmpstr(err->message, ==,
                    "--pcap 'nosuch': unknown host 'nosuch' (hosts: client, server)");
    g_clear_error(&err);
    const char *const bad_nic[] = { "server:eth1", NULL };
    opt.pcap = bad_nic;
    g_assert_null(run_scenario(c, &opt, &err));
    g_assert_cmpstr(err->message, ==,
                    "--pcap 'server:eth1': host 'server' has no device 'eth1' (devices: lo, eth0)");
    g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
    g_assert_null(g_dir_read_name(d)); /* no capture was left behind */
    rm_rf(dir);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
#ifdef SKSIM_HAVE_PCAP
    g_test_add_func("/trace/pcap-matches-counters", test_pcap_matches_counters);
#endif
    g_test_add_func("/trace/json-checker", test_json_checker);
    g_test_add_func("/trace/story", test_trace_story);
    g_test_add_func("/trace/backlog-drops", test_trace_backlog_drops);
    g_test_add_func("/trace/window", test_trace_window);
    g_test_add_func("/trace/log-tcp", test_log_tcp);
    g_test_add_func("/trace/observers-change-nothing", test_observers_change_nothing);
    g_test_add_func("/trace/bad-pcap-names", test_bad_pcap_names);
    return g_test_run();
}
