/* truesize.c - the skb truesize model (see truesize.h): receive buffers, GRO aggregates and
 * locally built skbs, with the arithmetic of each default written next to it.
 *
 * Sources: shared notes B.4 (typical sizes, [R]/[D]) and B.3 (skb_condense). The kernel values
 * are driver and slab dependent; these are the usual x86_64 10G-driver ones.
 */
#include "models/truesize.h"

/* Standard Ethernet MTU: drivers (ixgbe, i40e, bnx2x class) use 2 KB half-page buffers up to it
 * (notes B.4: "2012 era ixgbe/bnx2x-style 2 KB buffers"). */
#define RX_HALF_PAGE_MAX_MTU 1500u
#define RX_HALF_PAGE 2048u
#define PAGE_BYTES 4096u
/* IP + TCP + timestamps: the part of an MTU that is header, not page payload (wire.h). */
#define RX_HDR_BYTES 52u

uint32_t truesize_rx_buf(uint32_t mtu)
{
    if (mtu <= RX_HALF_PAGE_MAX_MTU)
        return RX_HALF_PAGE;
    /* Header split: the payload (MTU - 52) in whole pages; MTU 4148 (MSS 4096) -> one page,
     * matching notes B.4 "15 x 4096 = 61440 B payload, truesize ~62-64 KB"; MTU 9000 -> 3. */
    uint32_t payload = mtu > RX_HDR_BYTES ? mtu - RX_HDR_BYTES : 1u;
    return (payload + PAGE_BYTES - 1) / PAGE_BYTES * PAGE_BYTES;
}

uint32_t truesize_rx_frame(uint32_t mtu)
{
    /* MTU 1500: 2048 + 256 + 320 = 2624 (notes B.4: 2.3-2.6 KB for a pure ACK from a page-frag
     * driver without copybreak, 2.3-4.4 KB for a no-GRO data segment). */
    return skb_truesize(truesize_rx_buf(mtu));
}

uint32_t truesize_gro_add(uint32_t mtu, uint32_t frames_held)
{
    /* skb_gro_receive: while the head skb has room among its MAX_SKB_FRAGS frags the new frame's
     * page is moved over and its sk_buff freed (only the buffer is added); past that the frame's
     * skb is chained on frag_list and its whole truesize is added. The first frame occupies
     * frag 0, so frames 2..17 are frags and frames 18.. are chained. */
    if (frames_held < TRUESIZE_MAX_SKB_FRAGS)
        return truesize_rx_buf(mtu);
    return truesize_rx_frame(mtu);
}

uint32_t truesize_gro_skb(uint32_t mtu, uint32_t frames)
{
    /* Closed form of the per-frame sum: 45 frames at MTU 1500 = 2624 + 16 * 2048 + 28 * 2624 =
     * 108864 B (notes B.4: ~90-190 KB); 15 frames at MTU 4148 = 4672 + 14 * 4096 = 62016 B
     * (notes B.4: ~62-64 KB). */
    if (frames == 0)
        return 0;
    uint32_t frags = frames < TRUESIZE_MAX_SKB_FRAGS ? frames : TRUESIZE_MAX_SKB_FRAGS;
    uint32_t chained = frames - frags;
    return truesize_rx_frame(mtu) + (frags - 1) * truesize_rx_buf(mtu) +
           chained * truesize_rx_frame(mtu);
}

uint32_t truesize_condensed_ack(void)
{
    /* skb_condense() resets truesize to SKB_TRUESIZE(head end offset); a copybreak head of a
     * kmalloc-512 object is 512 B: 512 + 256 + 320 = 1088 (notes B.4: ~0.7-1.3 KB). */
    return skb_truesize(512u);
}

uint32_t truesize_tx_ack(void)
{
    /* alloc_skb(MAX_TCP_HEADER ~ 320 B): SKB_DATA_ALIGN(320) + shinfo 320 = 640 -> kmalloc-1024
     * object; the data area is 1024 - 320 = 704, so truesize = 704 + 256 + 320 = 1280 (notes
     * B.4: a locally generated ACK ~0.8-1.3 KB). */
    return skb_truesize(1024u - TRUESIZE_SHINFO);
}

uint32_t truesize_tx_skb(uint32_t len)
{
    /* sk_stream_alloc_skb: a MAX_TCP_HEADER head (as tcp_send_ack) + each copy into page frags
     * added to truesize byte for byte. A 64 KB TSO skb of 45 x 1448 = 65160 B: 66440 B. */
    return truesize_tx_ack() + len;
}
