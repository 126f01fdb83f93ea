/* test_pcap.c - capture files: every header field read back with libpcap, checksums verified,
 * nanosecond timestamps, snaplen, the rename at close, the per-device tap (a TSO skb as one
 * packet on the sender, or its segments under software GSO; GRO skbs on the receiver), and
 * tshark's dissection when available. */
#include "tests/net_fixture.h"

#include <glib/gstdio.h>

#include "models/pcap.h"

#ifdef SKSIM_HAVE_PCAP
#include <pcap/pcap.h>

static uint32_t get16(const uint8_t *p)
{
    return (uint32_t)p[0] << 8 | p[1];
}

static uint32_t get32(const uint8_t *p)
{
    return get16(p) << 16 | get16(p + 2);
}

/* One's-complement sum folded; a correct header (checksum included) sums to 0xffff. */
static uint32_t csum(uint32_t sum, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i + 1 < n; i += 2)
        sum += get16(p + i);
    while (sum >> 16)
        sum = (sum & 0xffffu) + (sum >> 16);
    return sum;
}

typedef struct Pkt {
    sim_time_t t;
    uint32_t caplen, len;
    uint8_t data[256];
} Pkt;

static GArray *read_all(const char *path)
{
    char err[PCAP_ERRBUF_SIZE];
    pcap_t *p = pcap_open_offline_with_tstamp_precision(path, PCAP_TSTAMP_PRECISION_NANO, err);
    g_assert_nonnull(p);
    g_assert_cmpint(pcap_datalink(p), ==, DLT_EN10MB);
    GArray *a = g_array_new(FALSE, TRUE, sizeof(Pkt));
    struct pcap_pkthdr *h;
    const u_char *data;
    while (pcap_next_ex(p, &h, &data) == 1) {
        Pkt k = { .t = (sim_time_t)h->ts.tv_sec * SIM_S + h->ts.tv_usec, .caplen = h->caplen,
                  .len = h->len };
        memcpy(k.data, data, MIN(h->caplen, sizeof(k.data)));
        g_array_append_val(a, k);
    }
    pcap_close(p);
    return a;
}

/* Captures go to a directory of this process's own (made in main, removed after the tests), so
 * that two runs of the suite at once do not write the same files. The tests unlink theirs. */
static char *tmp_dir;

static char *tmp_path(const char *name)
{
    return g_build_filename(tmp_dir, name, NULL);
}

/* Check Ethernet, IPv4 and the fixed TCP header of a packet; returns the TCP header. */
static const uint8_t *check_headers(const Pkt *k, uint16_t src, uint16_t dst, uint32_t ip_len)
{
    const uint8_t *e = k->data, *ip = e + 14, *th = ip + 20;
    g_assert_cmpuint(k->len, ==, 14 + ip_len);
    g_assert_cmpuint(get16(e + 12), ==, 0x0800);
    g_assert_cmpuint(e[5], ==, dst + 1);
    g_assert_cmpuint(e[11], ==, src + 1);
    g_assert_cmpuint(ip[0], ==, 0x45);
    g_assert_cmpuint(get16(ip + 2), ==, ip_len);
    g_assert_cmpuint(get16(ip + 6), ==, 0x4000);
    g_assert_cmpuint(ip[8], ==, 64);
    g_assert_cmpuint(ip[9], ==, 6);
    g_assert_cmpuint(csum(0, ip, 20), ==, 0xffff);
    g_assert_cmpuint(get32(ip + 12), ==, 0x0a000000u + src + 1);
    g_assert_cmpuint(get32(ip + 16), ==, 0x0a000000u + dst + 1);
    /* TCP checksum: pseudo-header + header (the payload is zeros and adds nothing). */
    uint32_t hlen = (uint32_t)(th[12] >> 4) * 4;
    uint8_t pseudo[12];
    memcpy(pseudo, ip + 12, 8);
    pseudo[8] = 0;
    pseudo[9] = 6;
    pseudo[10] = (uint8_t)((ip_len - 20) >> 8);
    pseudo[11] = (uint8_t)(ip_len - 20);
    g_assert_cmpuint(csum(csum(0, pseudo, 12), th, hlen), ==, 0xffff);
    return th;
}

static void check_ts(const uint8_t *opt, uint32_t tsval, uint32_t tsecr)
{
    g_assert_cmpuint(opt[0], ==, 1);
    g_assert_cmpuint(opt[1], ==, 1);
    g_assert_cmpuint(opt[2], ==, 8);
    g_assert_cmpuint(opt[3], ==, 10);
    g_assert_cmpuint(get32(opt + 4), ==, tsval);
    g_assert_cmpuint(get32(opt + 8), ==, tsecr);
}

/* tshark must dissect the file without a "Malformed" packet. */
static void run_tshark(const char *tshark, const char *path)
{
    const char *argv[] = { tshark, "-n", "-V", "-r", path, NULL };
    g_autofree char *out = NULL, *err = NULL;
    int status = 0;
    g_assert_true(g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err,
                               &status, NULL));
    g_assert_true(g_spawn_check_wait_status(status, NULL));
    g_assert_null(strstr(out, "Malformed"));
    g_assert_nonnull(strstr(out, "Transmission Control Protocol"));
}

/* Three records: a data segment (seq 2^32 + 1000 -> 1000 on the wire), a pure ACK with a DSACK
 * and a SACK block, a 64 KB TSO skb (IP length 65160 + 52 = 65212, captured up to snaplen 128). */
static void write_known(const char *path, const char *tmp)
{
    GError *error = NULL;
    PcapWriter *w = pcap_writer_open(path, 128, &error);
    g_assert_no_error(error);
    g_assert_true(g_file_test(tmp, G_FILE_TEST_EXISTS));
    g_assert_false(g_file_test(path, G_FILE_TEST_EXISTS));

    Skb data = { .src_host = 0, .dst_host = 1, .sport = 1, .dport = 2,
                 .seq = (1ull << 32) + 1000, .ack_seq = 5000, .win = 65535u << 7,
                 .flags = TCPHDR_ACK | TCPHDR_PSH, .tsval = 123, .tsecr = 456, .len = 1448 };
    Skb ack = { .src_host = 1, .dst_host = 0, .sport = 2, .dport = 1, .seq = 5000,
                .ack_seq = (1ull << 32) + 2448, .win = 3u << 20, .flags = TCPHDR_ACK,
                .tsval = 457, .tsecr = 123, .nsacks = 2, .dsack = true,
                .sack = { { 100, 200 }, { (1ull << 32) + 5000, (1ull << 32) + 6448 } } };
    Skb tso = data;
    tso.len = 65160;
    tso.gso_size = 1448;
    pcap_writer_write(w, 1 * SIM_S + 123456789, &data);
    pcap_writer_write(w, 2 * SIM_S + 1, &ack);
    pcap_writer_write(w, 3 * SIM_S, &tso);
    g_assert_cmpuint(pcap_writer_packets(w), ==, 3);
    g_assert_true(pcap_writer_close(w, &error));
    g_assert_no_error(error);
    g_assert_false(g_file_test(tmp, G_FILE_TEST_EXISTS));
}

/* Every field of the three known records. */
static void test_fields(void)
{
    g_autofree char *path = tmp_path("sksim-test-fields.pcap");
    g_autofree char *tmp = g_strdup_printf("%s.tmp", path);
    g_unlink(path);
    write_known(path, tmp);
    GArray *a = read_all(path);
    g_assert_cmpuint(a->len, ==, 3);
    const Pkt *k = &g_array_index(a, Pkt, 0);
    g_assert_cmpint(k->t, ==, 1 * SIM_S + 123456789);
    g_assert_cmpuint(k->caplen, ==, 128);
    const uint8_t *th = check_headers(k, 0, 1, 1500); /* 20 + 32 + 1448 */
    g_assert_cmpuint(get16(k->data + 14 + 4), ==, 0); /* IP ID: first record */
    g_assert_cmpuint(get16(th), ==, 32768);     /* port 1, in the ephemeral range */
    g_assert_cmpuint(get16(th + 2), ==, 32769); /* port 2 */
    g_assert_cmpuint(get32(th + 4), ==, 1000);
    g_assert_cmpuint(get32(th + 8), ==, 5000);
    g_assert_cmpuint(th[12] >> 4, ==, 8); /* 32 bytes */
    g_assert_cmpuint(th[13], ==, TCPHDR_ACK | TCPHDR_PSH);
    g_assert_cmpuint(get16(th + 14), ==, 65535); /* (65535 << 7) >> 7 */
    check_ts(th + 20, 123, 456);
    for (uint32_t i = 14 + 20 + 32; i < 128; i++)
        g_assert_cmpuint(k->data[i], ==, 0);

    k = &g_array_index(a, Pkt, 1);
    g_assert_cmpint(k->t, ==, 2 * SIM_S + 1);
    /* 32 + NOP NOP SACK(2 + 16) = 52 bytes of TCP header; IP length 72; frame 86 < snaplen. */
    th = check_headers(k, 1, 0, 72);
    g_assert_cmpuint(k->caplen, ==, 86);
    g_assert_cmpuint(get16(k->data + 14 + 4), ==, 1);
    g_assert_cmpuint(get32(th + 8), ==, 2448);
    g_assert_cmpuint(th[12] >> 4, ==, 13);
    g_assert_cmpuint(th[13], ==, TCPHDR_ACK);
    g_assert_cmpuint(get16(th + 14), ==, 3u << 13); /* (3 << 20) >> 7 = 24576 */
    check_ts(th + 20, 457, 123);
    const uint8_t *sack = th + 32;
    g_assert_cmpuint(sack[0], ==, 1);
    g_assert_cmpuint(sack[1], ==, 1);
    g_assert_cmpuint(sack[2], ==, 5);
    g_assert_cmpuint(sack[3], ==, 18);
    g_assert_cmpuint(get32(sack + 4), ==, 100);
    g_assert_cmpuint(get32(sack + 8), ==, 200);
    g_assert_cmpuint(get32(sack + 12), ==, 5000);
    g_assert_cmpuint(get32(sack + 16), ==, 6448);

    k = &g_array_index(a, Pkt, 2);
    th = check_headers(k, 0, 1, 65212);
    g_assert_cmpuint(k->caplen, ==, 128);
    g_assert_cmpuint(get32(th + 4), ==, 1000);
    g_array_free(a, TRUE);
    g_unlink(path);
}

static void test_tshark(void)
{
    g_autofree char *tshark = g_find_program_in_path("tshark");
    if (!tshark) {
        g_test_skip("tshark is not on PATH");
        return;
    }
    g_autofree char *path = tmp_path("sksim-test-tshark.pcap");
    g_autofree char *tmp = g_strdup_printf("%s.tmp", path);
    write_known(path, tmp);
    run_tshark(tshark, path);
    g_unlink(path);
}

/* A connection's handshake, then each end's windows with its own scale: the client announces
 * WS 10 and MSS 1460, the server WS 3 and MSS 8960 (SYN options in Linux's order: MSS,
 * SACK_PERM, TS, NOP, WS: 20 bytes; the third ACK has NOP NOP TS). A client window of
 * 65535 << 10 is written 65535, a server window of 4096 is written 512; an end the writer was
 * not told about keeps >> 7. tshark reads the scales from the handshake: the window it
 * computes for the server's ACK is 4096. */
static void write_handshake(const char *path)
{
    GError *error = NULL;
    PcapWriter *w = pcap_writer_open(path, 128, &error);
    g_assert_no_error(error);
    PcapEndpoint c = { .host = 0, .port = 1, .wscale = 10, .mss = 1460 };
    PcapEndpoint s = { .host = 1, .port = 2, .wscale = 3, .mss = 8960 };
    pcap_writer_add_connection(w, 0, &c, &s, true, true);
    Skb data = { .src_host = 0, .dst_host = 1, .sport = 1, .dport = 2, .seq = 1, .ack_seq = 1,
                 .win = 65535u << 10, .flags = TCPHDR_ACK, .tsval = 1, .tsecr = 0, .len = 100 };
    Skb ack = { .src_host = 1, .dst_host = 0, .sport = 2, .dport = 1, .seq = 1, .ack_seq = 101,
                .win = 4096, .flags = TCPHDR_ACK, .tsval = 1, .tsecr = 1 };
    Skb other = ack;
    other.sport = 9;
    pcap_writer_write(w, SIM_US, &data);
    pcap_writer_write(w, 2 * SIM_US, &ack);
    pcap_writer_write(w, 3 * SIM_US, &other);
    g_assert_true(pcap_writer_close(w, &error));
    g_assert_no_error(error);
}

static void check_syn_options(const uint8_t *o, uint16_t mss, uint8_t ws)
{
    g_assert_cmpuint(o[0], ==, 2);
    g_assert_cmpuint(o[1], ==, 4);
    g_assert_cmpuint(get16(o + 2), ==, mss);
    g_assert_cmpuint(o[4], ==, 4); /* SACK permitted */
    g_assert_cmpuint(o[5], ==, 2);
    g_assert_cmpuint(o[6], ==, 8); /* timestamps */
    g_assert_cmpuint(o[7], ==, 10);
    g_assert_cmpuint(o[16], ==, 1); /* NOP, window scale */
    g_assert_cmpuint(o[17], ==, 3);
    g_assert_cmpuint(o[18], ==, 3);
    g_assert_cmpuint(o[19], ==, ws);
}

static void test_handshake(void)
{
    g_autofree char *path = tmp_path("sksim-test-handshake.pcap");
    write_handshake(path);
    GArray *a = read_all(path);
    g_assert_cmpuint(a->len, ==, 6);
    const Pkt *k = &g_array_index(a, Pkt, 0);
    const uint8_t *th = check_headers(k, 0, 1, 60); /* IP 20 + TCP 40 */
    g_assert_cmpuint(th[13], ==, TCPHDR_SYN);
    g_assert_cmpuint(get32(th + 4), ==, 0);
    g_assert_cmpuint(th[12] >> 4, ==, 10);
    check_syn_options(th + 20, 1460, 10);
    k = &g_array_index(a, Pkt, 1);
    th = check_headers(k, 1, 0, 60);
    g_assert_cmpuint(th[13], ==, TCPHDR_SYN | TCPHDR_ACK);
    g_assert_cmpuint(get32(th + 8), ==, 1);
    check_syn_options(th + 20, 8960, 3);
    k = &g_array_index(a, Pkt, 2);
    th = check_headers(k, 0, 1, 52);
    g_assert_cmpuint(th[13], ==, TCPHDR_ACK);
    g_assert_cmpuint(get32(th + 4), ==, 1);
    g_assert_cmpuint(get16(th + 14), ==, 65535u >> 10);
    th = check_headers(&g_array_index(a, Pkt, 3), 0, 1, 152);
    g_assert_cmpuint(get16(th + 14), ==, 65535);
    th = check_headers(&g_array_index(a, Pkt, 4), 1, 0, 52);
    g_assert_cmpuint(get16(th + 14), ==, 512);
    th = check_headers(&g_array_index(a, Pkt, 5), 1, 0, 52);
    g_assert_cmpuint(get16(th + 14), ==, 32); /* 4096 >> 7 */
    g_array_free(a, TRUE);

    g_autofree char *tshark = g_find_program_in_path("tshark");
    if (tshark) {
        run_tshark(tshark, path);
        const char *argv[] = { tshark, "-n", "-r", path, "-Y", "frame.number == 5", "-T",
                               "fields", "-e", "tcp.window_size", NULL };
        g_autofree char *out = NULL;
        int status = 0;
        g_assert_true(g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL,
                                   NULL, &out, NULL, &status, NULL));
        g_assert_true(g_spawn_check_wait_status(status, NULL));
        g_assert_cmpstr(g_strstrip(out), ==, "4096");
    }
    g_unlink(path);
}

static void test_open_error(void)
{
    GError *error = NULL;
    PcapWriter *w = pcap_writer_open("/nonexistent-dir/x.pcap", 128, &error);
    g_assert_null(w);
    g_assert_nonnull(error);
    g_assert_nonnull(strstr(error->message, "/nonexistent-dir/x.pcap.tmp"));
    g_error_free(error);
}

/* Over a 10 Gbit/s, 10 us link: a 64 KB data skb from a at t = 0, b's ACK at 1 ms; the
 * captures on a's NIC (wtx) and, unless NULL, b's (wrx); the fixture is freed. */
static void tap_exchange(NetFix *f, PcapWriter *wtx, PcapWriter *wrx)
{
    fix_link(f, 10000000000ull, 10 * SIM_US, 1000, 0.0);
    netdev_set_pcap(f->nic[0], wtx);
    if (wrx)
        netdev_set_pcap(f->nic[1], wrx);
    ip_output(&f->host[0], fix_data(f, 0, 1, 0, 65160, 1448, true), NULL);
    sim_run_until(f->sim, SIM_MS);
    ip_output(&f->host[1], fix_ack(f, 1, 0, 65160), NULL);
    sim_run_until(f->sim, SIM_S);
    fix_free(f);
}

/* The device taps: the sender's NIC records the 64 KB TSO skb once, at t = 0 when the qdisc
 * hands it to the driver; the receiver's NIC records what NAPI hands to ip_rcv: with a 20 us
 * interrupt delay, 3 GRO skbs of 17, 17 and 11 segments at 31231, 52158 and 73085 (test_gro.c),
 * IP lengths 52 + 17 * 1448 = 24668 and 52 + 11 * 1448 = 15980. The ACK back is one packet on
 * each side. */
static void test_device_tap(void)
{
    g_autofree char *ptx = tmp_path("sksim-test-tx.pcap");
    g_autofree char *prx = tmp_path("sksim-test-rx.pcap");
    GError *error = NULL;
    PcapWriter *wtx = pcap_writer_open(ptx, 96, &error);
    PcapWriter *wrx = pcap_writer_open(prx, 96, &error);
    g_assert_no_error(error);
    NetFix f;
    fix_init(&f, 1);
    f.conf[1].nic.irq_coalesce_ns = 20 * SIM_US;
    tap_exchange(&f, wtx, wrx);
    g_assert_true(pcap_writer_close(wtx, &error));
    g_assert_true(pcap_writer_close(wrx, &error));
    g_assert_no_error(error);

    GArray *tx = read_all(ptx), *rx = read_all(prx);
    g_assert_cmpuint(tx->len, ==, 2);
    g_assert_cmpint(g_array_index(tx, Pkt, 0).t, ==, 0);
    check_headers(&g_array_index(tx, Pkt, 0), 0, 1, 65212);
    check_headers(&g_array_index(tx, Pkt, 1), 1, 0, 52); /* the ACK, received by a */
    g_assert_cmpuint(rx->len, ==, 4);
    static const sim_time_t at[3] = { 31231, 52158, 73085 };
    static const uint32_t len[3] = { 24668, 24668, 15980 };
    for (guint i = 0; i < 3; i++) {
        const Pkt *k = &g_array_index(rx, Pkt, i);
        g_assert_cmpint(k->t, ==, at[i]);
        const uint8_t *th = check_headers(k, 0, 1, len[i]);
        g_assert_cmpuint(get32(th + 4), ==, i * 17 * 1448);
    }
    check_headers(&g_array_index(rx, Pkt, 3), 1, 0, 52); /* the ACK, sent by b */
    g_assert_cmpint(g_array_index(rx, Pkt, 3).t, ==, SIM_MS);
    g_array_free(tx, TRUE);
    g_array_free(rx, TRUE);
    g_unlink(ptx);
    g_unlink(prx);
}

/* Without TSO (nic.tso false, software GSO) the sender's tap sees what dev_queue_xmit_nit sees
 * after skb_gso_segment: the 45 segments of the 64 KB skb, each 52 + 1448 bytes of IP, seq
 * advancing by 1448, PSH on the last only; then the ACK. */
static void test_device_tap_sw_gso(void)
{
    g_autofree char *ptx = tmp_path("sksim-test-gso.pcap");
    GError *error = NULL;
    PcapWriter *wtx = pcap_writer_open(ptx, 96, &error);
    g_assert_no_error(error);
    NetFix f;
    fix_init(&f, 1);
    f.conf[0].nic.tso = false;
    tap_exchange(&f, wtx, NULL);
    g_assert_true(pcap_writer_close(wtx, &error));
    g_assert_no_error(error);
    GArray *tx = read_all(ptx);
    g_assert_cmpuint(tx->len, ==, 46);
    for (guint i = 0; i < 45; i++) {
        const uint8_t *th = check_headers(&g_array_index(tx, Pkt, i), 0, 1, 1500);
        g_assert_cmpuint(get32(th + 4), ==, i * 1448);
        g_assert_cmpuint(th[13] & 0x08, ==, i == 44 ? 0x08 : 0); /* PSH */
    }
    check_headers(&g_array_index(tx, Pkt, 45), 1, 0, 52);
    g_array_free(tx, TRUE);
    g_unlink(ptx);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/pcap/fields", test_fields);
    g_test_add_func("/pcap/tshark", test_tshark);
    g_test_add_func("/pcap/handshake", test_handshake);
    g_test_add_func("/pcap/open-error", test_open_error);
    g_test_add_func("/pcap/device-tap", test_device_tap);
    g_test_add_func("/pcap/device-tap-sw-gso", test_device_tap_sw_gso);
    g_autoptr(GError) err = NULL;
    tmp_dir = g_dir_make_tmp("sksim-test-pcap-XXXXXX", &err);
    g_assert_no_error(err);
    int status = g_test_run();
    g_rmdir(tmp_dir); /* empty unless a test failed before its g_unlink */
    g_free(tmp_dir);
    return status;
}

#else

static void test_no_pcap(void)
{
    GError *error = NULL;
    g_assert_null(pcap_writer_open("x.pcap", 128, &error));
    g_assert_error(error, G_FILE_ERROR, G_FILE_ERROR_NOSYS);
    g_error_free(error);
    g_test_skip("built without libpcap");
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/pcap/unavailable", test_no_pcap);
    return g_test_run();
}

#endif
