/* tcp_sack.c - the sender's SACK scoreboard, as tcp_sacktag_write_queue in tcp_input.c.
 *
 * What it models: recognising a DSACK (first block below the cumulative ACK, or inside the
 * second block) and counting it (TCPDSACKRecv, TCPDSACKRecvSegs = ceil(len / mss), T.E.2),
 * crediting DSACKed retransmissions back to undo_retrans, and tagging the skbs each SACK block
 * covers (split at MSS boundaries when a block covers part of a TSO skb), with the RACK
 * bookkeeping and the flags the loss state machine reads (FLAG_DATA_SACKED,
 * FLAG_ORIG_SACK_ACKED, FLAG_DSACKING_ACK, FLAG_DSACK_TLP). Why: the DSACKs a delayed receiver
 * sends for TLP/RTO copies (seed 000, E.4) are how the sender learns its retransmits were
 * spurious.
 */
#include "models/tcp_internal.h"

#include <inttypes.h>

#include "models/observe.h"

/* tcp_dsack_seen: segments a DSACK covers; 0 = dubious (longer than any window, or more
 * duplicates than we ever retransmitted). */
static uint32_t tcp_dsack_seen(TcpSock *tp, uint64_t start, uint64_t end, int *flag)
{
    uint64_t len = end - start;
    uint32_t dup_segs = 1;
    if (len > tp->max_window)
        return 0;
    if (len > tp->mss_cache)
        dup_segs = (uint32_t)((len + tp->mss_cache - 1) / tp->mss_cache);
    else if (tp->tlp_high_seq && tp->tlp_high_seq == end)
        *flag |= FLAG_DSACK_TLP;
    tp->dsack_dups += dup_segs;
    if (tp->dsack_dups > tp->total_retrans)
        return 0;
    if (tp->reord_seen && !(*flag & FLAG_DSACK_TLP))
        tp->rack.dsack_seen = 1;
    *flag |= FLAG_DSACKING_ACK;
    tp->delivered += dup_segs;
    return dup_segs;
}

/* tcp_check_dsack: true when the first block is a (valid) DSACK. */
static bool tcp_check_dsack(TcpSock *tp, const Skb *ack_skb, uint64_t prior_snd_una, int *flag)
{
    const SackBlock *b = ack_skb->sack;
    uint32_t dup_segs;
    if (b[0].start < ack_skb->ack_seq) {
        dup_segs = tcp_dsack_seen(tp, b[0].start, b[0].end, flag);
        tcp_count(tp, CTR_TcpExtTCPDSACKRecv, 1);
    } else if (ack_skb->nsacks > 1 && b[0].start >= b[1].start && b[0].end <= b[1].end) {
        dup_segs = tcp_dsack_seen(tp, b[0].start, b[0].end, flag); /* TCPDSACKOfoRecv */
    } else {
        return false;
    }
    if (!dup_segs)
        return false; /* TCPDSACKIgnoredDubious */
    tcp_count(tp, CTR_TcpExtTCPDSACKRecvSegs, dup_segs);
    SIM_EVENT(tcp_host(tp), LOG_TCP, NULL, &tp->sk, "DSACK",
              "start=%" PRIu64 " end=%" PRIu64 " segs=%u snd_una=%" PRIu64, b[0].start, b[0].end,
              dup_segs, prior_snd_una);
    if (tp->undo_marker && tp->undo_retrans > 0 && b[0].end <= prior_snd_una && b[0].end > tp->undo_marker)
        tp->undo_retrans = tp->undo_retrans > (int32_t)dup_segs ? tp->undo_retrans - (int32_t)dup_segs : 0;
    return true;
}

/* tcp_sacktag_one for a newly sacked skb. */
static int tcp_sacktag_new(TcpSock *tp, Skb *skb, TcpAckState *st)
{
    uint32_t pcount = tcp_skb_pcount(skb);
    uint8_t sacked = skb->sacked;
    int flag = FLAG_DATA_SACKED;
    tcp_rack_advance(tp, sacked, skb->end_seq, skb->tx_time);
    if (sacked & TCPCB_SACKED_RETRANS) {
        /* a retransmission not marked lost is believed still in flight */
        if (sacked & TCPCB_LOST) {
            sacked &= (uint8_t)~(TCPCB_LOST | TCPCB_SACKED_RETRANS);
            tp->lost_out -= pcount;
            tp->retrans_out -= pcount;
        }
    } else {
        if (!(sacked & TCPCB_RETRANS)) {
            if (skb->end_seq <= tp->high_seq)
                flag |= FLAG_ORIG_SACK_ACKED;
            if (!st->have_sackt)
                st->first_sackt = skb->tx_time;
            st->last_sackt = skb->tx_time;
            st->have_sackt = true;
        }
        if (sacked & TCPCB_LOST) {
            sacked &= (uint8_t)~TCPCB_LOST;
            tp->lost_out -= pcount;
        }
    }
    skb->sacked = sacked | TCPCB_SACKED_ACKED;
    tp->sacked_out += pcount;
    tp->delivered += pcount;
    return flag;
}

/* tcp_sacktag_one: a (D)SACK block covers skb entirely. */
static int tcp_sacktag_one(TcpSock *tp, Skb *skb, bool dup_sack, TcpAckState *st)
{
    uint32_t pcount = tcp_skb_pcount(skb);
    int flag = 0;
    if (dup_sack && (skb->sacked & TCPCB_RETRANS) && tp->undo_marker && tp->undo_retrans > 0 &&
        skb->end_seq > tp->undo_marker)
        tp->undo_retrans = tp->undo_retrans > (int32_t)pcount ? tp->undo_retrans - (int32_t)pcount : 0;
    if (skb->end_seq <= tp->snd_una)
        return 0;
    if (!(skb->sacked & TCPCB_SACKED_ACKED))
        flag = tcp_sacktag_new(tp, skb, st);
    if (dup_sack && (skb->sacked & TCPCB_SACKED_RETRANS)) {
        skb->sacked &= (uint8_t)~TCPCB_SACKED_RETRANS;
        tp->retrans_out -= pcount;
    }
    return flag;
}

/* tcp_match_skb_to_sack: is skb inside [start, end)? A TSO skb partly inside is split at an MSS
 * boundary first so that blocks cover whole MSSes. */
static bool tcp_match_skb_to_sack(TcpSock *tp, Skb *skb, uint64_t start, uint64_t end)
{
    bool in_sack = start <= skb->seq && end >= skb->end_seq;
    if (in_sack || tcp_skb_pcount(skb) <= 1 || skb->end_seq <= start)
        return in_sack;
    uint32_t mss = skb->gso_size ? skb->gso_size : tp->mss_cache;
    uint64_t pkt_len;
    in_sack = start <= skb->seq;
    if (!in_sack) {
        pkt_len = start - skb->seq;
        if (pkt_len < mss)
            pkt_len = mss;
    } else {
        pkt_len = end - skb->seq;
        if (pkt_len < mss)
            return false;
    }
    if (pkt_len > mss) {
        uint64_t new_len = (pkt_len / mss) * mss;
        if (!in_sack && new_len < pkt_len)
            new_len += mss;
        pkt_len = new_len;
    }
    if (pkt_len >= skb->len)
        return false;
    tcp_fragment(tp, &tp->rtx_queue, skb, (uint32_t)pkt_len);
    return in_sack;
}

static int tcp_sacktag_range(TcpSock *tp, uint64_t start, uint64_t end, bool dup_sack, TcpAckState *st)
{
    int flag = 0;
    for (Skb *skb = tp->rtx_queue.head; skb && skb->seq < end; skb = skb->next) {
        if (skb->end_seq <= start)
            continue;
        if (tcp_match_skb_to_sack(tp, skb, start, end))
            flag |= tcp_sacktag_one(tp, skb, dup_sack, st);
    }
    return flag;
}

/* tp->fackets_out of the FACK era: the segments from snd_una up to and including the highest
 * SACKed one, holes counted (3.4 tcp_sacktag_one / tcp_clean_rtx_queue keep it so); 0 with
 * nothing SACKed. */
uint32_t tcp_fackets_out(const TcpSock *tp)
{
    uint32_t count = 0, fackets = 0;
    for (const Skb *skb = tp->rtx_queue.head; skb; skb = skb->next) {
        count += tcp_skb_pcount(skb);
        if (skb->sacked & TCPCB_SACKED_ACKED)
            fackets = count;
    }
    return fackets;
}

/* tcp_mark_lost_retrans (until 4.3, FACK senders in Recovery; read in 3.4's tcp_input.c): a
 * retransmission is lost again when a SACKed skb starts above snd_nxt as it was when the
 * retransmission left (kept in its ack_seq, as the kernel does): data sent after it arrived
 * and it did not. It loses its SACKED_RETRANS mark, stays LOST, and can be resent
 * (TCPLostRetransmit, a counter sksim does not keep). received_upto is tcp_highest_sack_seq(),
 * the highest SACKed skb's start. */
static int tcp_fack_mark_lost_retrans(TcpSock *tp)
{
    if (tp->ca_state != TCP_CA_Recovery || !tp->retrans_out || !tp->sacked_out)
        return 0;
    uint64_t received_upto = tp->snd_una;
    for (const Skb *skb = tp->rtx_queue.head; skb; skb = skb->next)
        if (skb->sacked & TCPCB_SACKED_ACKED)
            received_upto = skb->seq;
    int flag = 0;
    for (Skb *skb = tp->rtx_queue.head; skb; skb = skb->next) {
        if (!(skb->sacked & TCPCB_SACKED_RETRANS) || received_upto <= skb->ack_seq)
            continue;
        skb->sacked &= (uint8_t)~TCPCB_SACKED_RETRANS;
        tp->retrans_out -= tcp_skb_pcount(skb);
        if (!(skb->sacked & TCPCB_LOST))
            tcp_mark_skb_lost(tp, skb);
        flag = FLAG_LOST_RETRANS;
    }
    return flag;
}

int tcp_sacktag_write_queue(TcpSock *tp, const Skb *ack_skb, TcpAckState *st)
{
    int flag = 0;
    bool dsack = tcp_check_dsack(tp, ack_skb, st->prior_snd_una, &flag);
    for (unsigned i = 0; i < ack_skb->nsacks; i++) {
        const SackBlock *b = &ack_skb->sack[i];
        bool dup = dsack && i == 0;
        if (b->end <= b->start || b->end > tp->snd_nxt)
            continue; /* invalid */
        if (!dup && b->end <= tp->snd_una)
            continue; /* old block */
        flag |= tcp_sacktag_range(tp, b->start, b->end, dup, st);
    }
    if (tcp_is_fack(tp))
        flag |= tcp_fack_mark_lost_retrans(tp);
    return flag;
}
