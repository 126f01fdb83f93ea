/* skb.h - the packet: one sk_buff as the stack sees it.
 *
 * One Skb is what one layer handles as a unit: a TSO skb of up to 64 KB on the sender, a single
 * frame on the wire, a GRO aggregate on the receiver, a pure ACK. Sequence numbers are 64-bit
 * and never wrap (the pcap writer prints their low 32 bits). Skbs come from a per-host pool and
 * go back to it, so the packet path allocates nothing after warm-up.
 */
#ifndef SKSIM_SKB_H
#define SKSIM_SKB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/simtime.h"

#define TCPHDR_FIN 0x01
#define TCPHDR_SYN 0x02
#define TCPHDR_RST 0x04
#define TCPHDR_PSH 0x08
#define TCPHDR_ACK 0x10

#define SKB_MAX_SACKS 4 /* SACK blocks carried (with timestamps only 3 fit; the first may be a DSACK) */

typedef struct SackBlock {
    uint64_t start, end;
} SackBlock;

struct Sock;
struct NetDev;

typedef struct Skb {
    struct Skb *next;     /* queue link (backlog, rings, write queue) */
    struct Skb *prev;
    struct Sock *sk;      /* transmit: the socket charged for it until TX completion (TSQ) */
    /* addressing: the connection this segment belongs to, and its direction */
    uint32_t conn;        /* world-wide connection id */
    uint16_t src_host, dst_host;
    uint16_t sport, dport;
    /* TCP header */
    uint64_t seq, end_seq; /* end_seq = seq + len (+1 for SYN/FIN) */
    uint64_t ack_seq;
    uint32_t win;         /* advertised receive window, bytes */
    uint8_t flags;        /* TCPHDR_* */
    uint8_t nsacks;       /* number of valid sack[] blocks */
    bool dsack;           /* sack[0] is a DSACK block */
    bool no_ts;           /* no timestamps option: the connection did not negotiate it */
    SackBlock sack[SKB_MAX_SACKS];
    uint32_t tsval, tsecr; /* TCP timestamps option, in the sender's TS clock units */
    /* sizes */
    uint32_t len;         /* TCP payload bytes */
    uint16_t gso_segs;    /* MSS-sized segments this skb carries (1 for a frame) */
    uint16_t gso_size;    /* MSS used to cut it */
    uint32_t truesize;    /* memory charged to the socket that holds it */
    /* sender-side bookkeeping while in the retransmit queue */
    sim_time_t tx_time;   /* last (re)transmission */
    sim_time_t first_tx_time;
    /* transmit: the earliest time its first bit may go on a wire - the end of the CPU charge
     * its sending step had run up when it reached the device (act, then charge: cpu.h) */
    sim_time_t ready_ns;
    uint32_t bql_bytes;   /* transmit: bytes its NIC's byte queue limit counted (dql.h) */
    /* skb_cloned(): its data is shared with the skb the sender keeps in its write or
     * retransmit queue (tcp_transmit_skb sends a clone). Only loopback hands such an skb to a
     * receiver; a NIC's receive path builds its own (nic_rx.c). */
    bool cloned;
    uint8_t sacked;       /* TCPCB_* sack/retrans/lost marks */
    bool ever_retrans;
    bool rx_steered;      /* receive: queued on a CPU's backlog by another CPU (RPS/RFS), so
                           * cache-cold when it is delivered (softnet.c) */
    uint32_t pcount_delivered;
    struct NetDev *rx_dev; /* receive: its device while it waits in a CPU's backlog */
} Skb;

typedef struct SkbPool SkbPool;

SkbPool *skb_pool_new(void);
void skb_pool_free(SkbPool *p);
/* A zeroed skb. Never fails (the pool grows in blocks). */
Skb *skb_alloc(SkbPool *p);
/* A copy of the headers and sizes of src (next/prev cleared; sk cleared too: a clone belongs
 * to no socket until the caller charges it). */
Skb *skb_clone(SkbPool *p, const Skb *src);
void skb_free(SkbPool *p, Skb *skb);
/* Skbs handed out and not yet freed (for leak checks and invariants). */
uint64_t skb_pool_in_use(const SkbPool *p);
/* Skbs the pool has obtained from the heap so far (it grows in blocks): constant once warm. */
uint64_t skb_pool_capacity(const SkbPool *p);

/* A FIFO of skbs (sk_buff_head). */
typedef struct SkbQueue {
    Skb *head, *tail;
    uint32_t qlen;
    uint64_t bytes;   /* sum of len */
} SkbQueue;

void skb_queue_init(SkbQueue *q);
void skb_queue_tail(SkbQueue *q, Skb *skb);
Skb *skb_dequeue(SkbQueue *q);
void skb_queue_purge(SkbQueue *q, SkbPool *p);
static inline bool skb_queue_empty(const SkbQueue *q)
{
    return q->head == NULL;
}

#endif
