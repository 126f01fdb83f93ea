/* wire.h - header sizes and framing: how many bytes and frames an skb becomes on the wire.
 *
 * The model carries IPv4 with the TCP timestamp option on every segment (Linux with
 * net.ipv4.tcp_timestamps=1, the default): 20 (IP) + 20 (TCP) + 12 (NOP NOP TS) = 52 bytes of
 * headers. SACK blocks add 4 + 8n bytes to the TCP header of the segments that carry them; they
 * are written into captures and counted in IP octets, but the wire time uses one per-frame
 * overhead (WIRE_FRAME_OVERHEAD) for every frame: at most 28 bytes of SACK option on a pure ACK
 * are left out of its serialisation time.
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

/* IP + TCP + timestamp option: 52 bytes, the header of every modelled segment. */
#define WIRE_TCPIP_HDR (WIRE_IP_HDR + WIRE_TCP_HDR + WIRE_TCP_TS_OPT)
/* Bytes a frame occupies on the wire beyond its TCP payload: 52 headers + 14 Ethernet + 4 FCS +
 * 8 preamble + 12 inter-frame gap = 90. A 1448-byte MSS frame is 1538 byte times (Brouer's
 * "1538 B" wire frame of a 1500-MTU packet, notes D.5). */
#define WIRE_FRAME_OVERHEAD \
    (WIRE_TCPIP_HDR + WIRE_ETH_HDR + WIRE_ETH_FCS + WIRE_ETH_PREAMBLE + WIRE_ETH_IFG)

/* SACK blocks written into a header (with timestamps at most 3 fit). */
static inline uint32_t wire_sack_blocks(const Skb *skb)
{
    return skb->nsacks < WIRE_SACK_MAX_WITH_TS ? skb->nsacks : WIRE_SACK_MAX_WITH_TS;
}

/* TCP header length with options: 32, or 36 + 8n with n SACK blocks (NOP NOP SACK). */
static inline uint32_t wire_tcp_hdr_len(const Skb *skb)
{
    uint32_t n = wire_sack_blocks(skb);
    return WIRE_TCP_HDR + WIRE_TCP_TS_OPT + (n ? 4u + 8u * n : 0u);
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

/* Wire bytes of a frame carrying `payload` bytes. */
static inline uint64_t wire_frame_bytes(uint32_t payload)
{
    return (uint64_t)payload + WIRE_FRAME_OVERHEAD;
}

/* Wire bytes of all frames of the skb. */
static inline uint64_t wire_skb_bytes(const Skb *skb)
{
    return (uint64_t)skb->len + (uint64_t)wire_frames(skb) * WIRE_FRAME_OVERHEAD;
}

#endif
