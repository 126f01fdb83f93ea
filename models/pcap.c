/* pcap.c - capture files of simulated traffic, written with libpcap's own writer.
 *
 * Each record is built in one buffer allocated at open: Ethernet header, IPv4 header (checksum
 * computed), TCP header with options (checksum computed over the pseudo-header, the header and
 * the all-zero payload, which adds nothing to the one's-complement sum), then zeros up to the
 * captured length. Conventions (addresses, window scale, IP ID) are in pcap.h.
 */
#include "models/pcap.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>

#include "models/wire.h"

#ifdef SKSIM_HAVE_PCAP
#include <pcap/pcap.h>

/* IPv4 total length is a 16-bit field: a larger skb (never produced with gso_max_size 65536)
 * would be recorded with 65535. */
#define PCAP_IP_MAX_LEN 65535u

struct PcapWriter {
    pcap_t *pd;
    pcap_dumper_t *dumper;
    char *path, *tmp_path;
    uint32_t snaplen;
    uint8_t *buf; /* snaplen bytes */
    uint16_t ip_id;
    uint64_t packets;
    GHashTable *wscale; /* (host << 16 | port) -> window scale + 1, per known end */
};

static uint8_t *put16(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
    return p + 2;
}

static uint8_t *put32(uint8_t *p, uint32_t v)
{
    p = put16(p, v >> 16);
    return put16(p, v & 0xffffu);
}

/* One's-complement sum of 16-bit big-endian words (RFC 1071), not yet folded. */
static uint32_t csum_add(uint32_t sum, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i + 1 < n; i += 2)
        sum += (uint32_t)p[i] << 8 | p[i + 1];
    if (n & 1)
        sum += (uint32_t)p[n - 1] << 8;
    return sum;
}

static uint16_t csum_fold(uint32_t sum)
{
    while (sum >> 16)
        sum = (sum & 0xffffu) + (sum >> 16);
    return (uint16_t)~sum;
}

/* 10.0.x.y with x.y = host id + 1. */
static uint32_t host_addr(uint16_t host)
{
    return (10u << 24) | ((uint32_t)host + 1u);
}

static uint8_t *put_eth(uint8_t *p, uint16_t src, uint16_t dst)
{
    static const uint8_t oui[4] = { 0x02, 0, 0, 0 }; /* locally administered */
    memcpy(p, oui, 4);
    p = put16(p + 4, (uint32_t)dst + 1u);
    memcpy(p, oui, 4);
    p = put16(p + 4, (uint32_t)src + 1u);
    return put16(p, 0x0800); /* IPv4 */
}

static uint8_t *put_ip(PcapWriter *w, uint8_t *p, uint16_t src, uint16_t dst, uint32_t tot_len)
{
    uint8_t *ip = p;
    *p++ = 0x45; /* version 4, 5 words */
    *p++ = 0;    /* DSCP/ECN */
    p = put16(p, tot_len);
    p = put16(p, w->ip_id++);
    p = put16(p, 0x4000); /* DF, as Linux TCP sets it (path MTU discovery) */
    *p++ = 64;            /* ttl: sysctl_ip_default_ttl */
    *p++ = 6;             /* TCP */
    p = put16(p, 0);
    p = put32(p, host_addr(src));
    p = put32(p, host_addr(dst));
    put16(ip + 10, csum_fold(csum_add(0, ip, WIRE_IP_HDR)));
    return p;
}

/* NOP NOP TS(tsval, tsecr): the 12 aligned bytes of an established segment's timestamps. */
static uint8_t *put_nop_nop_ts(uint8_t *p, uint32_t tsval, uint32_t tsecr)
{
    static const uint8_t nop_nop_ts[4] = { 1, 1, 8, 10 };
    memcpy(p, nop_nop_ts, 4);
    return put32(put32(p + 4, tsval), tsecr);
}

static uint8_t *put_tcp_options(uint8_t *p, const Skb *skb)
{
    if (!skb->no_ts)
        p = put_nop_nop_ts(p, skb->tsval, skb->tsecr);
    uint32_t n = wire_sack_blocks(skb);
    if (n == 0)
        return p;
    *p++ = 1;
    *p++ = 1;
    *p++ = 5; /* SACK (RFC 2018); a DSACK is simply the first block (RFC 2883) */
    *p++ = (uint8_t)(2 + 8 * n);
    for (uint32_t i = 0; i < n; i++) {
        p = put32(p, (uint32_t)skb->sack[i].start);
        p = put32(p, (uint32_t)skb->sack[i].end);
    }
    return p;
}

/* A TCP header's fixed part; options follow. */
typedef struct {
    uint16_t src, dst;     /* hosts */
    uint16_t sport, dport; /* model ports */
    uint32_t seq, ack;
    uint8_t flags;
    uint16_t win;          /* the field */
} TcpHdr;

/* Header, then options up to p_end; the checksum covers the pseudo-header and the header (the
 * all-zero payload adds nothing). Returns the end of the header. */
static uint8_t *put_tcp_hdr(uint8_t *th, const TcpHdr *h, uint32_t hlen, uint32_t tcp_len)
{
    uint8_t *p = put16(th, (uint16_t)(h->sport + PCAP_PORT_BASE));
    p = put16(p, (uint16_t)(h->dport + PCAP_PORT_BASE));
    p = put32(p, h->seq);
    p = put32(p, h->ack);
    *p++ = (uint8_t)((hlen / 4) << 4);
    *p++ = h->flags;
    p = put16(p, h->win);
    p = put16(p, 0); /* checksum, below */
    p = put16(p, 0); /* urgent pointer */
    uint8_t pseudo[12];
    put32(pseudo, host_addr(h->src));
    put32(pseudo + 4, host_addr(h->dst));
    pseudo[8] = 0;
    pseudo[9] = 6;
    put16(pseudo + 10, tcp_len);
    put16(th + 16, csum_fold(csum_add(csum_add(0, pseudo, 12), th, hlen)));
    return th + hlen;
}

static uint32_t end_key(uint16_t host, uint16_t port)
{
    return (uint32_t)host << 16 | port;
}

/* The window scale of the end that sent skb: the one its handshake announced, else 7. */
static uint32_t wscale_of(const PcapWriter *w, const Skb *skb)
{
    gpointer v = g_hash_table_lookup(w->wscale, GUINT_TO_POINTER(end_key(skb->src_host, skb->sport)));
    return v ? GPOINTER_TO_UINT(v) - 1u : PCAP_WSCALE;
}

static uint8_t *put_tcp(const PcapWriter *w, uint8_t *p, const Skb *skb, uint32_t tcp_len)
{
    uint32_t win = skb->win >> wscale_of(w, skb);
    TcpHdr h = { .src = skb->src_host, .dst = skb->dst_host, .sport = skb->sport,
                 .dport = skb->dport, .seq = (uint32_t)skb->seq, .ack = (uint32_t)skb->ack_seq,
                 .flags = skb->flags, .win = (uint16_t)(win > 0xffffu ? 0xffffu : win) };
    uint32_t hlen = wire_tcp_hdr_len(skb);
    put_tcp_options(p + 20, skb);
    return put_tcp_hdr(p, &h, hlen, tcp_len);
}

static void dump(PcapWriter *w, sim_time_t t, uint32_t frame_len, uint8_t *end)
{
    uint32_t caplen = frame_len < w->snaplen ? frame_len : w->snaplen;
    size_t hdr = (size_t)(end - w->buf);
    if (caplen > hdr)
        memset(end, 0, caplen - hdr);
    struct pcap_pkthdr ph = { .caplen = caplen, .len = frame_len };
    ph.ts.tv_sec = (time_t)(t / SIM_S);
    ph.ts.tv_usec = (suseconds_t)(t % SIM_S); /* nanoseconds: the file has nano precision */
    pcap_dump((u_char *)w->dumper, &ph, w->buf);
    w->packets++;
}

PcapWriter *pcap_writer_open(const char *path, uint32_t snaplen, GError **error)
{
    uint32_t min_snap = WIRE_ETH_HDR + WIRE_IP_HDR + 60u; /* the largest TCP header */
    PcapWriter *w = g_new0(PcapWriter, 1);
    w->snaplen = snaplen < min_snap ? min_snap : snaplen;
    w->path = g_strdup(path);
    w->tmp_path = g_strdup_printf("%s.tmp", path);
    w->buf = g_malloc0(w->snaplen);
    w->wscale = g_hash_table_new(g_direct_hash, g_direct_equal);
    w->pd = pcap_open_dead_with_tstamp_precision(DLT_EN10MB, (int)w->snaplen,
                                                 PCAP_TSTAMP_PRECISION_NANO);
    w->dumper = w->pd ? pcap_dump_open(w->pd, w->tmp_path) : NULL;
    if (!w->dumper) {
        g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_FAILED, "cannot open capture %s: %s",
                    w->tmp_path, w->pd ? pcap_geterr(w->pd) : "pcap_open_dead failed");
        if (w->pd)
            pcap_close(w->pd);
        g_hash_table_destroy(w->wscale);
        g_free(w->buf);
        g_free(w->path);
        g_free(w->tmp_path);
        g_free(w);
        return NULL;
    }
    return w;
}

void pcap_writer_write(PcapWriter *w, sim_time_t t, const Skb *skb)
{
    uint64_t ip_len = wire_ip_len(skb);
    uint32_t tot_len = ip_len > PCAP_IP_MAX_LEN ? PCAP_IP_MAX_LEN : (uint32_t)ip_len;
    uint8_t *p = put_eth(w->buf, skb->src_host, skb->dst_host);
    p = put_ip(w, p, skb->src_host, skb->dst_host, tot_len);
    p = put_tcp(w, p, skb, tot_len - WIRE_IP_HDR);
    dump(w, t, WIRE_ETH_HDR + tot_len, p);
}

/* SYN or SYN-ACK options, Linux's order: MSS, SACK_PERM + TS (or NOP NOP TS / NOP NOP
 * SACK_PERM), NOP, WS. Returns the options' length (a multiple of 4). */
static uint32_t put_syn_options(uint8_t *o, const PcapEndpoint *e, bool sack, bool ts, uint32_t tsecr)
{
    uint8_t *p = o;
    *p++ = 2; /* MSS */
    *p++ = 4;
    p = put16(p, e->mss);
    if (ts) {
        if (sack) {
            *p++ = 4; /* SACK permitted */
            *p++ = 2;
        } else {
            *p++ = 1;
            *p++ = 1;
        }
        *p++ = 8; /* timestamps: TSval 0 at the run's start, TSecr the peer's */
        *p++ = 10;
        p = put32(p, 0);
        p = put32(p, tsecr);
    } else if (sack) {
        *p++ = 1;
        *p++ = 1;
        *p++ = 4;
        *p++ = 2;
    }
    *p++ = 1; /* NOP, window scale */
    *p++ = 3;
    *p++ = 3;
    *p++ = e->wscale;
    return (uint32_t)(p - o);
}

static void write_handshake_record(PcapWriter *w, sim_time_t t, const PcapEndpoint *from,
                                   const PcapEndpoint *to, const TcpHdr *h, const uint8_t *opts,
                                   uint32_t optlen)
{
    uint32_t hlen = 20 + optlen;
    uint8_t *p = put_eth(w->buf, from->host, to->host);
    p = put_ip(w, p, from->host, to->host, WIRE_IP_HDR + hlen);
    memcpy(p + 20, opts, optlen);
    p = put_tcp_hdr(p, h, hlen, hlen);
    dump(w, t, WIRE_ETH_HDR + WIRE_IP_HDR + hlen, p);
}

void pcap_writer_add_connection(PcapWriter *w, sim_time_t t, const PcapEndpoint *client,
                                const PcapEndpoint *server, bool sack, bool ts)
{
    uint8_t opts[40];
    TcpHdr syn = { .src = client->host, .dst = server->host, .sport = client->port,
                   .dport = server->port, .seq = 0, .ack = 0, .flags = TCPHDR_SYN, .win = 65535 };
    write_handshake_record(w, t, client, server, &syn, opts, put_syn_options(opts, client, sack, ts, 0));
    TcpHdr synack = { .src = server->host, .dst = client->host, .sport = server->port,
                      .dport = client->port, .seq = 0, .ack = 1,
                      .flags = TCPHDR_SYN | TCPHDR_ACK, .win = 65535 };
    write_handshake_record(w, t, server, client, &synack, opts, put_syn_options(opts, server, sack, ts, 0));
    TcpHdr ack = { .src = client->host, .dst = server->host, .sport = client->port,
                   .dport = server->port, .seq = 1, .ack = 1, .flags = TCPHDR_ACK,
                   .win = (uint16_t)(65535u >> client->wscale) };
    uint32_t optlen = ts ? (uint32_t)(put_nop_nop_ts(opts, 0, 0) - opts) : 0;
    write_handshake_record(w, t, client, server, &ack, opts, optlen);
    g_hash_table_insert(w->wscale, GUINT_TO_POINTER(end_key(client->host, client->port)),
                        GUINT_TO_POINTER((guint)client->wscale + 1u));
    g_hash_table_insert(w->wscale, GUINT_TO_POINTER(end_key(server->host, server->port)),
                        GUINT_TO_POINTER((guint)server->wscale + 1u));
}

gboolean pcap_writer_close(PcapWriter *w, GError **error)
{
    gboolean ok = pcap_dump_flush(w->dumper) == 0;
    pcap_dump_close(w->dumper);
    pcap_close(w->pd);
    if (ok && g_rename(w->tmp_path, w->path) != 0)
        ok = FALSE;
    if (!ok) {
        int err = errno;
        g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(err), "cannot write capture %s: %s",
                    w->path, g_strerror(err));
        g_unlink(w->tmp_path);
    }
    g_hash_table_destroy(w->wscale);
    g_free(w->buf);
    g_free(w->path);
    g_free(w->tmp_path);
    g_free(w);
    return ok;
}

uint64_t pcap_writer_packets(const PcapWriter *w)
{
    return w->packets;
}

#else /* !SKSIM_HAVE_PCAP */

struct PcapWriter {
    uint64_t packets;
};

PcapWriter *pcap_writer_open(const char *path, uint32_t snaplen, GError **error)
{
    g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_NOSYS,
                "cannot write capture %s: sksim was built without libpcap", path);
    return NULL;
}

void pcap_writer_write(PcapWriter *w, sim_time_t t, const Skb *skb)
{
}

void pcap_writer_add_connection(PcapWriter *w, sim_time_t t, const PcapEndpoint *client,
                                const PcapEndpoint *server, bool sack, bool ts)
{
}

gboolean pcap_writer_close(PcapWriter *w, GError **error)
{
    g_free(w);
    return TRUE;
}

uint64_t pcap_writer_packets(const PcapWriter *w)
{
    return w->packets;
}

#endif
