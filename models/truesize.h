/* truesize.h - the skb truesize model: the memory an skb charges to the socket that holds it.
 *
 * Truesize is what the socket limits compare against (sk_rcvbuf for the receive queue and the
 * backlog, TSQ's sk_wmem_alloc), so it decides when a backlog overflows (seed 004). The kernel's
 * SKB_TRUESIZE(X) is X + the aligned sizes of struct sk_buff and struct skb_shared_info; drivers
 * then charge whole RX buffers whatever the frame carries, which is why a pure ACK received by a
 * page-frag driver weighs nearly as much as a data frame (notes B.4). Values are x86_64 ones.
 */
#ifndef SKSIM_TRUESIZE_H
#define SKSIM_TRUESIZE_H

#include <stdint.h>

/* SKB_DATA_ALIGN(sizeof(struct sk_buff)): 256 B on x86_64 (notes B.4: TCP_SKB_MIN_TRUESIZE =
 * 2048 + 256 = 2304 [V]). */
#define TRUESIZE_SK_BUFF 256u
/* SKB_DATA_ALIGN(sizeof(struct skb_shared_info)) with 17 frags: ~320 B (notes B.4 [R]). */
#define TRUESIZE_SHINFO 320u
/* GRO keeps up to MAX_SKB_FRAGS page frags in the head skb; further segments are chained
 * through frag_list as whole skbs (notes B.4, D.2: MAX_SKB_FRAGS = 17). */
#define TRUESIZE_MAX_SKB_FRAGS 17u

/* SKB_TRUESIZE(x) = x + 256 + 320. */
static inline uint32_t skb_truesize(uint32_t data_bytes)
{
    return data_bytes + TRUESIZE_SK_BUFF + TRUESIZE_SHINFO;
}

/* RX buffer a NIC driver uses per frame: 2048 (half a page) for MTU <= 1500, else whole 4 KB
 * pages for the payload (header-split drivers put a 4096-byte segment in one page). */
uint32_t truesize_rx_buf(uint32_t mtu);
/* One received frame as its own skb (GRO off, or a frame GRO did not merge, pure ACKs
 * included): SKB_TRUESIZE(rx buffer), 2624 B at MTU 1500. */
uint32_t truesize_rx_frame(uint32_t mtu);
/* What merging the (n+1)-th frame adds to a GRO skb already holding n >= 1 frames: the frame's
 * page (rx buffer) while it fits among the 17 frags, a whole frame skb once chained through
 * frag_list. */
uint32_t truesize_gro_add(uint32_t mtu, uint32_t frames_held);
/* A GRO skb of n frames: truesize_rx_frame + the sum of truesize_gro_add. */
uint32_t truesize_gro_skb(uint32_t mtu, uint32_t frames);
/* A pure ACK after skb_condense() (tcp_add_backlog, 4.9+) or from a copybreak driver. */
uint32_t truesize_condensed_ack(void);
/* An skb built by the local stack with a MAX_TCP_HEADER head (tcp_send_ack, the head of every
 * sendmsg skb): 1280 B. */
uint32_t truesize_tx_ack(void);
/* A sendmsg skb carrying len payload bytes in page frags: the head plus len (the kernel adds
 * each copied chunk to truesize). */
uint32_t truesize_tx_skb(uint32_t len);

#endif
