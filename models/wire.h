/* wire.h - header sizes and framing: how many bytes and frames an skb becomes on the wire.
 *
 * The model carries IPv4 with the TCP timestamp option on every segment of a connection that
 * negotiated it (Linux with net.ipv4.tcp_timestamps=1, the default): 20 (IP) + 20 (TCP) + 12
 * (NOP NOP TS) = 52 bytes of headers; 40 without it (skb->no_ts). SACK blocks add 4 + 8n bytes
 * to the TCP header of the segments that carry them; they are written into captures and counted
 * in IP octets, but the wire time uses one per-frame overhead (wire_frame_overhead) for every
 * frame: at most 28 (36 without timestamps) bytes of SACK option on a pure ACK are left out of
 * its serialisation time.
 *
 * A TSO skb of len bytes cut at gso_size leaves as ceil(len / gso_size) frames: full frames of
 * gso_size bytes and a shorter last one; an skb without payload is one frame.
 */
#ifndef SKSIM_WIRE_H
#define SKSIM_WIRE_H

#include <stdint.h>

#include "models/skb.h"

#define WIRE_IP_HDR 20u      /* IPv4 header without options (RFC 791) */
#define WIRE_TCP_HDR 20u     /* TCP header without options (RFC 793) */
#define WIRE_TCP_TS_OPT 12u  /* NOP, NOP, kind 8 len 10 (RFC 7323), Linux's layout */
#define WIRE_ETH_HDR 14u     /* dst MAC, src MAC, EtherType (IEEE 802.3) */
#define WIRE_ETH_FCS 4u      /* frame check sequence */
#define WIRE_ETH_PREAMBLE 8u /* preamble + start-of-frame delimiter */
#define WIRE_ETH_IFG 12u     /* minimum inter-frame gap, in byte times */
#define WIRE_SACK_MAX_WITH_TS 3u /* 40 option bytes - 12 (TS) - 4 (NOP NOP kind len) = 24 = 3 blocks */
#define WIRE_SACK_MAX_NO_TS 4u   /* 40 - 4 = 36: 4 blocks of 8 */

/* IP + TCP + timestamp option: 52 bytes, the header of every modelled segment. */
#define WIRE_TCPIP_HDR (WIRE_IP_HDR + WIRE_TCP_HDR + WIRE_TCP_TS_OPT)
/* Bytes a frame occupies on the wire beyond its TCP payload: 52 headers + 14 Ethernet + 4 FCS +
 * 8 preamble + 12 inter-frame gap = 90. A 1448-byte MSS frame is 1538 byte times (Brouer's
 * "1538 B" wire frame of a 1500-MTU packet, notes D.5). */
#define WIRE_FRAME_OVERHEAD \
    (WIRE_TCPIP_HDR + WIRE_ETH_HDR + WIRE_ETH_FCS + WIRE_ETH_PREAMBLE + WIRE_ETH_IFG)

/* The timestamps option's bytes in skb's TCP header: 12, or 0 without timestamps. */
static inline uint32_t wire_ts_opt(const Skb *skb)
{
    return skb->no_ts ? 0u : WIRE_TCP_TS_OPT;
}

/* SACK blocks written into a header (with timestamps at most 3 fit, else 4). */
static inline uint32_t wire_sack_blocks(const Skb *skb)
{
    uint32_t max = skb->no_ts ? WIRE_SACK_MAX_NO_TS : WIRE_SACK_MAX_WITH_TS;
    return skb->nsacks < max ? skb->nsacks : max;
}

/* TCP header length with options: 32 (20 without timestamps), plus 4 + 8n with n SACK blocks
 * (NOP NOP SACK). */
static inline uint32_t wire_tcp_hdr_len(const Skb *skb)
{
    uint32_t n = wire_sack_blocks(skb);
    return WIRE_TCP_HDR + wire_ts_opt(skb) + (n ? 4u + 8u * n : 0u);
}

/* IP + TCP + timestamp option of skb's segments, SACK blocks aside: 52, or 40 without. */
static inline uint32_t wire_tcpip_hdr(const Skb *skb)
{
    return WIRE_IP_HDR + WIRE_TCP_HDR + wire_ts_opt(skb);
}

/* Bytes a frame of skb occupies on the wire beyond its payload: WIRE_FRAME_OVERHEAD, 12 fewer
 * without timestamps. */
static inline uint32_t wire_frame_overhead(const Skb *skb)
{
    return WIRE_FRAME_OVERHEAD - WIRE_TCPIP_HDR + wire_tcpip_hdr(skb);
}

/* IP packet length of the skb as one packet (a TSO skb before segmentation, a GRO skb after
 * merging): what IpExtInOctets/IpExtOutOctets count. */
static inline uint64_t wire_ip_len(const Skb *skb)
{
    return (uint64_t)WIRE_IP_HDR + wire_tcp_hdr_len(skb) + skb->len;
}

/* Payload bytes per full frame: gso_size when the skb is cut, else the whole skb. */
static inline uint32_t wire_frame_payload(const Skb *skb)
{
    return (skb->gso_size && skb->len > skb->gso_size) ? skb->gso_size : skb->len;
}

/* Frames the skb becomes: ceil(len / gso_size), at least 1. */
static inline uint32_t wire_frames(const Skb *skb)
{
    uint32_t mss = wire_frame_payload(skb);
    return mss ? (skb->len + mss - 1) / mss : 1u;
}

/* Payload of the last frame (equal to the full payload when len is a multiple of it). */
static inline uint32_t wire_last_payload(const Skb *skb)
{
    uint32_t mss = wire_frame_payload(skb);
    return mss ? skb->len - (wire_frames(skb) - 1) * mss : 0u;
}

/* Wire bytes of a frame of skb carrying `payload` bytes. */
static inline uint64_t wire_frame_bytes(const Skb *skb, uint32_t payload)
{
    return (uint64_t)payload + wire_frame_overhead(skb);
}

/* Wire bytes of all frames of the skb. */
static inline uint64_t wire_skb_bytes(const Skb *skb)
{
    return (uint64_t)skb->len + (uint64_t)wire_frames(skb) * wire_frame_overhead(skb);
}

#endif
