/* tcp_output.c - the TCP sender's transmit side, as net/ipv4/tcp_output.c.
 *
 * What it models: building segments (header, window, timestamps, SACK/DSACK blocks), the
 * pending-frames loop tcp_write_xmit limited by cwnd, the peer's window, Nagle/Minshall, TCP
 * Small Queues and optional internal pacing (hosts.H.tcp.pacing), TSO autosizing, pure and
 * delayed ACKs, zero-window probes, and what a device's refusal of a segment does (a full
 * qdisc's NET_XMIT_DROP, which ip_output returns at once): CWR, the skb kept to be sent later.
 * Why: every ACK-clock effect the seed patches change goes through these few functions, so they
 * carry the kernel's names and its order of operations. The rest of the kernel file lives
 * apart, one job per file: retransmissions (fast, RTO, TLP) and the arming of the shared
 * retransmit timer for RTO or TLP in tcp_retrans.c; TSQ's TX-completion hook (sock_wfree) and
 * handler, the pacing hold and the deferred work of a socket released by its owner
 * (tcp_release_cb) in tcp_tsq.c.
 */
#include "models/netdev.h"
#include "models/observe.h"
#include "models/tcp_internal.h"
#include "models/truesize.h"

#include <glib.h>
#include <inttypes.h>

/* ---- windows and options ---- */

uint32_t tcp_select_window(TcpSock *tp)
{
    /* 6.6+: the ACK of an skb the receive memory could not take offers a zero window, which is
     * not kept as the socket's offer (rcv_wnd, rcv_wup unchanged) */
    if (tp->ack.pending & ICSK_ACK_NOMEM)
        return 0;
    uint32_t cur_win = tcp_receive_window(tp);
    uint32_t new_win = __tcp_select_window(tp);
    uint32_t unit = 1u << tp->rcv_wscale;
    /* Never shrink an offered window (RFC 7323 2.4): keep the old right edge. */
    if (new_win < cur_win)
        new_win = (cur_win + unit - 1) & ~(unit - 1);
    if (new_win > (65535u << tp->rcv_wscale))
        new_win = 65535u << tp->rcv_wscale; /* 16-bit window field */
    tp->rcv_wnd = new_win;
    tp->rcv_wup = tp->rcv_nxt;
    uint32_t field = new_win >> tp->rcv_wscale;
    if (field == 0)
        tp->pred_ok = false;
    return field << tp->rcv_wscale;
}

/* SACK option (tcp_established_options): the DSACK block first (RFC 2883 4), consumed by this
 * one segment, then the receiver's SACK blocks; 3 blocks fit with timestamps, 4 without. */
static void tcp_options_sack(TcpSock *tp, Skb *skb)
{
    unsigned max = tp->ts_ok ? 3u : 4u, n = 0;
    skb->dsack = false;
    if (tp->dsack) {
        skb->sack[n++] = tp->duplicate_sack;
        skb->dsack = true;
        tp->dsack = false;
    }
    for (unsigned i = 0; i < tp->num_sacks && n < max; i++)
        skb->sack[n++] = tp->selective_acks[i];
    skb->nsacks = (uint8_t)n;
}

static void tcp_build_header(TcpSock *tp, Skb *skb)
{
    skb->conn = tp->sk.conn;
    skb->src_host = tcp_host(tp)->id;
    skb->dst_host = tp->peer_host;
    skb->sport = tp->sk.port;
    skb->dport = tp->peer_port;
    skb->ack_seq = tp->rcv_nxt;
    skb->flags |= TCPHDR_ACK;
    skb->win = tcp_select_window(tp);
    skb->no_ts = !tp->ts_ok;
    if (tp->ts_ok) {
        skb->tsval = tcp_time_stamp_ts(tp);
        skb->tsecr = tp->ts_recent;
    }
    if (tp->sack_ok)
        tcp_options_sack(tp, skb);
}

/* icsk_af_ops->queue_xmit (ip_queue_xmit): hand skb to IP and return the device's verdict. */
static int tcp_xmit_out(TcpSock *tp, Skb *skb, Cpu *cpu)
{
    if (tp->xmit)
        return tp->xmit(tp->xmit_ctx, skb, cpu);
    return ip_output(tcp_host(tp), skb, cpu);
}

/* The tail of __tcp_transmit_skb (every era): a positive verdict (NET_XMIT_DROP from a full
 * qdisc, or NET_XMIT_CN) is local congestion - enter CWR - and of those only a drop is an error
 * to the caller (net_xmit_eval). A dropped pure ACK enters CWR too. */
static int tcp_xmit_verdict(TcpSock *tp, int err, Cpu *cpu)
{
    if (err <= 0)
        return err;
    SIM_LOG(tcp_host(tp), LOG_TCP, cpu, "xmit_local_drop",
            "sk=%u verdict=%d snd_nxt=%" PRIu64 " cwnd=%u", tp->sk.port, err, tp->snd_nxt,
            tp->snd_cwnd);
    tcp_enter_cwr(tp);
    return net_xmit_eval(err);
}

/* tcp_dec_quickack_mode (T.A.4): one quick ACK used per ACK sent while one was owed (6.6+,
 * tcp.quickack_per_ack); before, each segment the skb carried (tcp_skb_pcount), owed or not. */
static void tcp_dec_quickack_mode(TcpSock *tp, uint32_t pcount)
{
    if (!tp->ack.quick)
        return;
    uint32_t pkts = !tcp_conf(tp)->quickack_per_ack ? pcount
                    : inet_csk_ack_scheduled(tp) ? 1u : 0u;
    if (pkts >= tp->ack.quick) {
        tp->ack.quick = 0;
        tp->ack.ato = tcp_ato_min(tp); /* leaving quick-ACK mode deflates ATO */
    } else {
        tp->ack.quick -= (uint8_t)pkts;
    }
}

/* tcp_event_ack_sent (T.A.9): every segment carrying an ACK clears the delayed ACK, lazily. */
static void tcp_event_ack_sent(TcpSock *tp, uint32_t pcount)
{
    tcp_sack_compress_ack_sent(tp);
    tcp_dec_quickack_mode(tp, pcount);
    inet_csk_clear_xmit_timer(tp, ICSK_TIME_DACK);
}

/* tcp_event_data_sent (T.A.5): a reply within ato of the last received data enters ping-pong
 * (inet_csk_enter_pingpong_mode: the counter jumps to the threshold). With a threshold above 1
 * (5.1-5.19, or tcp_pingpong_thresh since 6.7) only the first data sent after new data came in,
 * judged in jiffies (lsndtime before lrcvtime), counts, one step per exchange. */
static void tcp_event_data_sent(TcpSock *tp)
{
    uint64_t now = tcp_jiffies(tp);
    uint32_t thresh = tcp_conf(tp)->pingpong_thresh;
    bool reply = now - tp->ack.lrcvtime < tp->ack.ato;
    if (tcp_packets_in_flight(tp) == 0)
        tcp_ca_event(tp, CA_EVENT_TX_START);
    if (thresh > 1 && tp->lsndtime < tp->ack.lrcvtime && reply && tp->ack.pingpong < UINT8_MAX)
        tp->ack.pingpong++; /* inet_csk_inc_pingpong_cnt */
    tp->lsndtime = now;
    if (thresh <= 1 && reply)
        tp->ack.pingpong = (uint8_t)thresh;
}

/* What __tcp_transmit_skb does first for every skb, pure ACKs included, whatever the device
 * then says: the departure time tcp_wstamp_ns catches up with the socket's clock (paced or
 * not), so a pure ACK sent while the flow is late uses up the lateness that the next data skb
 * would have got as pacing credit. Returns the departure time before the catch-up. */
static sim_time_t tcp_wstamp_catch_up(TcpSock *tp)
{
    sim_time_t prior_wstamp = tp->tcp_wstamp_ns;
    if (tp->tcp_wstamp_ns < tp->tcp_mstamp)
        tp->tcp_wstamp_ns = tp->tcp_mstamp;
    return prior_wstamp;
}

/* tcp_update_skb_after_send (4.20+ EDT, T.F.4), internal pacing only, once the device took the
 * skb: tcp_wstamp_ns advances by len / pacing_rate, less up to half of that as credit for the
 * time the socket was late (OS jitter); sch_fq's original rule leaves the first 10 segments
 * unpaced. Without a rate yet (no RTT: ~0UL in the kernel) nothing is paced. */
static void tcp_update_skb_after_send(TcpSock *tp, const Skb *skb, sim_time_t prior_wstamp)
{
    if (!tcp_conf(tp)->pacing)
        return;
    uint64_t rate = tp->pacing_rate;
    if (!rate || rate == UINT64_MAX || tp->data_segs_out < 10)
        return;
    uint64_t len_ns = (uint64_t)skb->len * (uint64_t)SIM_S / rate;
    uint64_t credit = (uint64_t)(tp->tcp_wstamp_ns - prior_wstamp);
    len_ns -= len_ns / 2 < credit ? len_ns / 2 : credit;
    tp->tcp_wstamp_ns += (sim_time_t)len_ns;
}

/* __tcp_transmit_skb for a data skb of the write or retransmit queue: a clone goes down the
 * stack, charged to sk_wmem_alloc until TX completion (TSQ). TcpOutSegs counts new data only,
 * before the device has answered, as the kernel does. If the device drops the clone (a full
 * qdisc) the socket enters CWR and the error goes back: the caller keeps skb where it is - in the
 * write queue, unsent, or in the retransmit queue not marked retransmitted - and the pacing
 * clock does not advance. */
int tcp_transmit_skb(TcpSock *tp, Skb *skb, Cpu *cpu)
{
    Host *h = tcp_host(tp);
    bool new_data = skb->end_seq > tp->snd_nxt;
    uint32_t pcount = tcp_skb_pcount(skb);
    skb->tx_time = tp->tcp_mstamp;
    if (!skb->first_tx_time)
        skb->first_tx_time = tp->tcp_mstamp;
    Skb *out = skb_clone(h->pool, skb);
    out->flags = (uint8_t)(skb->flags & (TCPHDR_PSH | TCPHDR_FIN));
    tcp_build_header(tp, out);
    out->gso_size = pcount > 1 ? skb->gso_size : 0; /* tcp_set_skb_tso_segs: one segment is not GSO */
    out->cloned = true; /* skb_clone: the original stays queued until ACKed */
    out->sacked = 0;
    out->sk = &tp->sk;
    tp->sk.wmem_alloc += out->truesize;
    tcp_event_ack_sent(tp, pcount);
    tcp_event_data_sent(tp);
    if (new_data)
        tcp_count(tp, CTR_TcpOutSegs, pcount);
    tcp_charge(tp, cpu, COST_TCP_XMIT_SKB);
    tp->data_segs_out += pcount; /* data skbs only (skb->len != tcp_header_size) */
    sim_time_t prior_wstamp = tcp_wstamp_catch_up(tp);
    int err = tcp_xmit_verdict(tp, tcp_xmit_out(tp, out, cpu), cpu);
    if (err)
        return err;
    tcp_update_skb_after_send(tp, skb, prior_wstamp);
    return 0;
}

/* A segment without data at sequence seq, from the pool (not charged to wmem_alloc: TSQ only
 * limits data): the common part of __tcp_send_ack and tcp_xmit_probe_skb. Returns the verdict
 * as tcp_transmit_skb does (__tcp_send_ack ignores it, after CWR was entered). */
static int tcp_xmit_bare(TcpSock *tp, uint64_t seq, Cpu *cpu)
{
    Skb *skb = skb_alloc(tcp_host(tp)->pool);
    skb->seq = skb->end_seq = seq;
    skb->gso_segs = 1;
    skb->truesize = truesize_tx_ack();
    tcp_build_header(tp, skb);
    tcp_event_ack_sent(tp, 1);
    tcp_count(tp, CTR_TcpOutSegs, 1);
    tcp_charge(tp, cpu, COST_TCP_SEND_ACK);
    (void)tcp_wstamp_catch_up(tp);
    return tcp_xmit_verdict(tp, tcp_xmit_out(tp, skb, cpu), cpu);
}

/* tcp_bound_to_half_wnd (every era): a segment, or a TSO skb, larger than half the peer's
 * largest window would leave it unable to hold two, so it is cut to half of it (the whole of it
 * below 536 bytes), never below a 68-byte IP packet (IPv4's minimum MTU) less the TCP header. */
static uint32_t tcp_bound_to_half_wnd(const TcpSock *tp, uint32_t pktsize)
{
    uint32_t cutoff = tp->max_window > TCP_MSS_DEFAULT ? tp->max_window >> 1 : tp->max_window;
    uint32_t floor = 68u - (TCP_HDR_LEN + (tp->ts_ok ? TCPOLEN_TSTAMP_ALIGNED : 0));
    if (cutoff && pktsize > cutoff)
        return cutoff > floor ? cutoff : floor;
    return pktsize;
}

/* tcp_sync_mss: the path MSS within tcp_bound_to_half_wnd. */
void tcp_sync_mss(TcpSock *tp)
{
    tp->mss_cache = tcp_bound_to_half_wnd(tp, tp->mss_pmtu);
}

/* tcp_send_ack / __tcp_send_ack: a pure ACK at snd_nxt. */
void tcp_send_ack(TcpSock *tp, Cpu *cpu)
{
    (void)tcp_xmit_bare(tp, tp->snd_nxt, cpu);
}

/* tcp_delack_max (T.A.8 step 3): TCP_DELACK_MAX, capped at max(rto_min, 2) - 1 jiffies
 * (hosts.H.tcp.delack_from_rto_min): 6.11+ ("tcp: derive delack_max with tcp_rto_min helper")
 * whatever sets rto_min, the default 200 ms included (199 jiffies); 6.7-6.10 (bbf80d713fe7)
 * only for a route that locks rto_min, which differs from this by one jiffy at the default. */
static uint32_t tcp_delack_max(const TcpSock *tp)
{
    uint32_t dmax = tcp_delack_max_j(tp);
    if (tcp_conf(tp)->delack_from_rto_min) {
        uint32_t from_rto_min = tcp_rto_min(tp) > 2 ? tcp_rto_min(tp) - 1 : 1;
        if (from_rto_min < dmax)
            dmax = from_rto_min;
    }
    return dmax;
}

/* tcp_send_delayed_ack (T.A.8). */
void tcp_send_delayed_ack(TcpSock *tp, Cpu *cpu)
{
    uint32_t ato = tp->ack.ato;
    uint64_t now = tcp_jiffies(tp);
    if (ato > tcp_ato_min(tp)) {
        uint32_t max_ato = tp->hz / 2; /* HZ/2 = 500 ms */
        if (inet_csk_in_pingpong_mode(tp) || (tp->ack.pending & ICSK_ACK_PUSHED))
            max_ato = tcp_delack_max_j(tp);
        if (tp->srtt_us) {
            uint32_t rtt = usecs_to_jiffies_hz(tp->srtt_us >> 3, tp->hz);
            if (rtt < tcp_ato_min(tp))
                rtt = tcp_ato_min(tp);
            if (rtt < max_ato)
                max_ato = rtt;
        }
        if (ato > max_ato)
            ato = max_ato;
    }
    if (ato > tcp_delack_max(tp))
        ato = tcp_delack_max(tp);
    uint64_t timeout = now + ato;
    if (tp->ack.pending & ICSK_ACK_TIMER) {
        /* Blocked (2.6-5.9: the timer found the socket owned) or about to fire anyway: send
         * now. Else never postpone an armed delayed ACK. */
        if (tp->ack.blocked || tp->ack.timeout <= now + (ato >> 2)) {
            tcp_send_ack(tp, cpu);
            return;
        }
        if (timeout >= tp->ack.timeout)
            timeout = tp->ack.timeout;
    }
    tp->ack.pending |= ICSK_ACK_SCHED | ICSK_ACK_TIMER;
    tp->ack.timeout = timeout;
    tcp_sk_reset_timer(tp, &tp->delack_timer, timeout, cpu);
}

/* ---- sizing: TSO autosizing (H.E.2, T.F.4) and the sendmsg size goal ---- */

uint32_t tcp_tso_autosize(const TcpSock *tp, uint32_t mss_now)
{
    /* pacing_rate >> sk_pacing_shift = ~1 ms of data; no rate yet (~0UL in the kernel) = max. */
    uint64_t bytes = tp->pacing_rate ? tp->pacing_rate >> TCP_PACING_SHIFT : TCP_SK_GSO_MAX_SIZE;
    /* 5.18+: + sk_gso_max_size >> (min_rtt_us >> tcp_tso_rtt_log), full size under 512 us. */
    if (tp->min_rtt_us) {
        uint32_t r = tp->min_rtt_us >> TCP_TSO_RTT_LOG;
        if (r < 32) /* BITS_PER_TYPE(gso_max_size) */
            bytes += TCP_SK_GSO_MAX_SIZE >> r;
    }
    if (bytes > TCP_SK_GSO_MAX_SIZE)
        bytes = TCP_SK_GSO_MAX_SIZE;
    uint32_t segs = (uint32_t)(bytes / mss_now);
    return segs < TCP_MIN_TSO_SEGS ? TCP_MIN_TSO_SEGS : segs;
}

/* tcp_send_mss: mss_now and size_goal (tcp_xmit_size_goal) = sk_gso_max_size bounded by half
 * the peer's max window, in whole MSSes; one MSS without TSO. The pacing rate plays no part
 * here: since "tcp: refine TSO autosizing" (605ad7f184b6, 3.19) sendmsg fills skbs to the full
 * 64 KB and tcp_write_xmit splits them to tcp_tso_autosize() when they leave, when the rate is
 * known (3.12-3.18 sized skbs at sendmsg time, so a flow whose rate had grown since still sent
 * the small skbs queued earlier). */
uint32_t tcp_send_mss(TcpSock *tp, uint32_t *size_goal)
{
    uint32_t mss_now = tp->mss_cache;
    if (!tp->gso_ok) {
        *size_goal = mss_now;
        return mss_now;
    }
    uint64_t goal = tcp_bound_to_half_wnd(tp, TCP_SK_GSO_MAX_SIZE);
    goal = (goal / mss_now) * mss_now;
    tp->tso_segs_goal = (uint32_t)(goal / mss_now);
    *size_goal = goal > mss_now ? (uint32_t)goal : mss_now;
    return mss_now;
}

/* ---- skb surgery ---- */

/* tcp_fragment: split skb (in queue q) after len bytes; the tail becomes a new skb after it.
 * Packet counts of the socket follow the pcount change; truesize moves with the payload. */
void tcp_fragment(TcpSock *tp, SkbQueue *q, Skb *skb, uint32_t len)
{
    g_assert(len > 0 && len < skb->len);
    Host *h = tcp_host(tp);
    uint32_t mss = skb->gso_size ? skb->gso_size : tp->mss_cache;
    uint32_t old_pcount = tcp_skb_pcount(skb);
    Skb *buff = skb_clone(h->pool, skb);
    uint32_t nlen = skb->len - len;
    buff->seq = skb->seq + len;
    buff->len = nlen;
    buff->end_seq = skb->end_seq;
    buff->flags = skb->flags;
    skb->flags &= (uint8_t)~(TCPHDR_PSH | TCPHDR_FIN);
    skb->len = len;
    skb->end_seq = skb->seq + len;
    uint32_t head = truesize_tx_skb(0);
    buff->truesize = head + nlen;
    skb->truesize = skb->truesize > nlen ? skb->truesize - nlen : head;
    tp->sk.wmem_queued += head;
    skb->gso_segs = (uint16_t)((len + mss - 1) / mss);
    buff->gso_segs = (uint16_t)((nlen + mss - 1) / mss);
    q->bytes -= nlen; /* skb shrank in place; the insert below adds buff's nlen back */
    int32_t diff = (int32_t)old_pcount - (int32_t)(skb->gso_segs + buff->gso_segs);
    if (diff && q == &tp->rtx_queue) {
        tp->packets_out -= (uint32_t)diff;
        if (skb->sacked & TCPCB_SACKED_ACKED)
            tp->sacked_out -= (uint32_t)diff;
        if (skb->sacked & TCPCB_LOST)
            tp->lost_out -= (uint32_t)diff;
        if (skb->sacked & TCPCB_SACKED_RETRANS)
            tp->retrans_out -= (uint32_t)diff;
    }
    tcp_skb_insert_after(q, skb, buff);
}

void tcp_mark_push(TcpSock *tp, Skb *skb)
{
    skb->flags |= TCPHDR_PSH;
    tp->pushed_seq = tp->write_seq;
}

/* ---- tcp_write_xmit and its tests ---- */

/* tcp_cwnd_test: how many segments the cwnd lets the next skb carry. Since "tcp: limit GSO
 * packets to half cwnd" (2015) at most half the cwnd per TSO skb (T.F.4); 2.6-3.x returned all
 * of cwnd - in_flight (hosts.H.tcp.tso_half_cwnd = false). */
static uint32_t tcp_cwnd_test(const TcpSock *tp)
{
    uint32_t in_flight = tcp_packets_in_flight(tp), cwnd = tp->snd_cwnd;
    if (in_flight >= cwnd)
        return 0;
    if (!tcp_conf(tp)->tso_half_cwnd)
        return cwnd - in_flight;
    uint32_t halfcwnd = cwnd >> 1 ? cwnd >> 1 : 1;
    return cwnd - in_flight < halfcwnd ? cwnd - in_flight : halfcwnd;
}

bool tcp_snd_wnd_test(const TcpSock *tp, const Skb *skb, uint32_t mss)
{
    uint64_t end = skb->end_seq;
    if (skb->len > mss)
        end = skb->seq + mss;
    return end <= tcp_wnd_end(tp);
}

static bool tcp_minshall_check(const TcpSock *tp)
{
    return tp->snd_sml > tp->snd_una && tp->snd_sml <= tp->snd_nxt;
}

/* Nagle with Minshall's variant: hold a sub-MSS segment while a small one is unacknowledged. */
static bool tcp_nagle_check(bool partial, const TcpSock *tp, int nonagle)
{
    return partial && ((nonagle & TCP_NAGLE_CORK) ||
                       (!nonagle && tp->packets_out && tcp_minshall_check(tp)));
}

static bool tcp_nagle_test(const TcpSock *tp, const Skb *skb, uint32_t mss, int nonagle)
{
    if (nonagle & TCP_NAGLE_PUSH)
        return true;
    if (skb->flags & TCPHDR_FIN)
        return true;
    return !tcp_nagle_check(skb->len < mss, tp, nonagle);
}

/* tcp_mss_split_point: how much of the head skb to send now (whole MSSes within the window).
 * The partial last segment goes with them only when Nagle would not hold it, and only since
 * late 2014 (hosts.H.tcp.tso_split_nagle); before, the split was always at the last whole MSS. */
static uint32_t tcp_mss_split_point(const TcpSock *tp, const Skb *skb, uint32_t mss_now,
                                    uint32_t max_segs, int nonagle)
{
    uint64_t window = tcp_wnd_end(tp) - skb->seq;
    uint32_t max_len = mss_now * max_segs;
    if (max_len <= window && skb != tp->write_queue.tail)
        return max_len;
    uint32_t needed = skb->len < window ? skb->len : (uint32_t)window;
    if (max_len <= needed)
        return max_len;
    uint32_t partial = needed % mss_now;
    if (!tcp_conf(tp)->tso_split_nagle || tcp_nagle_check(partial != 0, tp, nonagle))
        return needed - partial;
    return needed;
}

/* tcp_small_queue_check (H.E.3): limit bytes below TCP to ~1 ms of data, doubled (factor 1) for
 * retransmissions; at most tcp_limit_output_bytes for a flow that is not paced (6.6:
 * "if (sk->sk_pacing_status == SK_PACING_NONE)", since c73e5807e4f6 in 2018), for every flow
 * before that and since 6.16 (hosts.H.tcp.tsq_cap_paced). */
bool tcp_small_queue_check(TcpSock *tp, const Skb *skb, unsigned factor)
{
    if (!tcp_conf(tp)->tsq) /* before 3.6 */
        return false;
    uint64_t limit = 2u * (uint64_t)skb->truesize;
    uint64_t rate_bytes = tp->pacing_rate ? tp->pacing_rate >> TCP_PACING_SHIFT : UINT64_MAX;
    if (rate_bytes > limit)
        limit = rate_bytes;
    bool paced = tcp_conf(tp)->pacing; /* internal pacing: SK_PACING_NEEDED */
    if ((!paced || tcp_conf(tp)->tsq_cap_paced) && limit > tcp_conf(tp)->limit_output_bytes)
        limit = tcp_conf(tp)->limit_output_bytes;
    limit <<= factor;
    if (tp->sk.wmem_alloc <= limit)
        return false;
    /* never throttle while the retransmit queue holds at most one skb */
    if (!tp->rtx_queue.head || tp->rtx_queue.head == tp->rtx_queue.tail)
        return false;
    tp->tsq_flags |= TSQF_THROTTLED;
    return true;
}

/* tcp_event_new_data_sent: the skb moves to the retransmit queue. */
static void tcp_event_new_data_sent(TcpSock *tp, Skb *skb, Cpu *cpu)
{
    uint32_t prior_packets = tp->packets_out;
    tcp_skb_unlink(&tp->write_queue, skb);
    tcp_skb_append(&tp->rtx_queue, skb);
    tp->snd_nxt = skb->end_seq;
    tp->packets_out += tcp_skb_pcount(skb);
    if (!prior_packets || tp->icsk_pending == ICSK_TIME_LOSS_PROBE)
        tcp_rearm_rto(tp, cpu);
    if (tcp_conf(tp)->check_space == TCP_CHECK_SPACE_5_18)
        tcp_check_space(tp, cpu); /* 4bfe744ff164 */
}

/* tcp_cwnd_validate: remember whether the flow used its cwnd (cwnd growth needs it), and give
 * back what an application-limited flow did not use (RFC 2861). Before f4ce91ce12a7 (2022;
 * hosts.H.tcp.cwnd_limited 3.16 and 5.10) the mark was recorded only at a round's end or when
 * more went out than before in the round, so a send that did not fill cwnd could clear it
 * mid-round, and cwnd found full without a round's end left it as it was. */
static void tcp_cwnd_validate(TcpSock *tp, bool is_cwnd_limited)
{
    TcpCwndLimited era = tcp_conf(tp)->cwnd_limited;
    bool round_end = tp->snd_una >= tp->cwnd_usage_seq;
    bool more_out = tp->packets_out > tp->max_packets_out;
    bool record = era == TCP_CWND_LIMITED_3_16 || era == TCP_CWND_LIMITED_5_10
                      ? round_end || more_out
                      : round_end || is_cwnd_limited || (!tp->is_cwnd_limited && more_out);
    if (record) {
        tp->is_cwnd_limited = is_cwnd_limited;
        tp->max_packets_out = tp->packets_out;
        tp->cwnd_usage_seq = tp->snd_nxt;
    }
    tcp_cwnd_validate_usage(tp);
}

/* tcp_tso_should_defer ("TSO Nagle", hosts.H.tcp.tso_defer): hold a TSO skb that may go only
 * in part, waiting for the ACK that should open more. Both eras share the window tests. */

/* The shared tests: true when the skb should go now. *cong_win, *send_win are what may go. */
static bool tcp_tso_send_now(const TcpSock *tp, const Skb *skb, uint64_t full_bytes,
                             uint64_t *cong_win, uint64_t *send_win)
{
    uint64_t in_flight = tcp_packets_in_flight(tp);
    *send_win = tcp_wnd_end(tp) - skb->seq;
    *cong_win = (tp->snd_cwnd - in_flight) * (uint64_t)tp->mss_cache;
    uint64_t limit = *send_win < *cong_win ? *send_win : *cong_win;
    if (limit >= full_bytes)
        return true; /* a full-sized TSO skb can go */
    if (skb != tp->write_queue.tail && limit >= skb->len)
        return true; /* it will not grow, and all of it can go */
    uint64_t chunk = (uint64_t)tp->snd_cwnd * tp->mss_cache;
    if (tp->snd_wnd < chunk)
        chunk = tp->snd_wnd;
    return limit >= chunk / TCP_TSO_WIN_DIVISOR; /* a fair share of the window is open */
}

/* 2.6.x-3.x: in CA Open only, and for at most two clock ticks (tp->tso_deferred). A skb held
 * back for want of cwnd (cwnd's room below the peer's window and below the skb) marks the flow
 * cwnd-limited, as 3.16's e114a710aa50 added to this rule; before it (tcp.cwnd_limited
 * in_flight) the mark is not read. */
static bool tcp_tso_should_defer_3x(TcpSock *tp, const Skb *skb, bool *cwnd_limited)
{
    uint64_t now = tcp_jiffies(tp), cong_win = 0, send_win = 0;
    bool send = (skb->flags & TCPHDR_FIN) || tp->ca_state != TCP_CA_Open ||
                (tp->tso_deferred && now - (tp->tso_deferred - 1) > 1) ||
                tcp_tso_send_now(tp, skb, TCP_GSO_MAX_SIZE, &cong_win, &send_win);
    if (send) {
        tp->tso_deferred = 0;
        return false;
    }
    if (!tp->tso_deferred)
        tp->tso_deferred = now + 1;
    if (cong_win < send_win && cong_win < skb->len)
        *cwnd_limited = true;
    return true;
}

/* 4.x-6.x: not in Recovery/Loss, nor when the last write is over 1 ms old (no burst to smooth)
 * or when no ACK is due soon: the oldest unacked skb's ACK, expected an srtt after it left, is
 * more than min(srtt/2, 1 ms) away. */
static bool tcp_tso_should_defer_4x(const TcpSock *tp, const Skb *skb, uint32_t max_segs,
                                    bool *cwnd_limited)
{
    uint64_t cong_win, send_win;
    if (tp->ca_state >= TCP_CA_Recovery || tp->tcp_mstamp - tp->tcp_wstamp_ns > SIM_MS ||
        tcp_tso_send_now(tp, skb, (uint64_t)max_segs * tp->mss_cache, &cong_win, &send_win))
        return false;
    const Skb *head = tp->rtx_queue.head;
    if (!head)
        return false;
    sim_time_t srtt = (sim_time_t)tp->srtt_us * (SIM_US / 8); /* srtt_us holds 8 x srtt */
    sim_time_t threshold = srtt / 2 < SIM_MS ? srtt / 2 : SIM_MS;
    if ((int64_t)(head->tx_time + srtt - tp->tcp_mstamp) > (int64_t)threshold)
        return false;
    if (cong_win < send_win) {
        if (cong_win <= skb->len) {
            *cwnd_limited = true;
            return true;
        }
    } else if (send_win <= skb->len) {
        return true; /* receive-window limited */
    }
    return !(skb->flags & TCPHDR_FIN); /* else it may still grow */
}

static bool tcp_tso_should_defer(TcpSock *tp, const Skb *skb, uint32_t max_segs, bool *cwnd_limited)
{
    switch (tcp_conf(tp)->tso_defer) {
    case TCP_TSO_DEFER_3X:
        return tcp_tso_should_defer_3x(tp, skb, cwnd_limited);
    case TCP_TSO_DEFER_4X:
        return tcp_tso_should_defer_4x(tp, skb, max_segs, cwnd_limited);
    default:
        return false;
    }
}

/* Can the head skb go now? Splits it to what may go; 0 = stop, else its pcount. */
static uint32_t tcp_write_xmit_prepare(TcpSock *tp, Skb *skb, uint32_t mss_now, int nonagle,
                                       int push_one, bool *cwnd_limited)
{
    uint32_t cwnd_quota = tcp_cwnd_test(tp);
    if (!cwnd_quota) {
        if (push_one != 2) {
            *cwnd_limited = true;
            return 0;
        }
        cwnd_quota = 1; /* force out a loss probe */
    }
    if (!tcp_snd_wnd_test(tp, skb, mss_now))
        return 0;
    uint32_t tso_segs = (skb->len + mss_now - 1) / mss_now;
    skb->gso_size = (uint16_t)(mss_now > 65535 ? 65535 : mss_now);
    skb->gso_segs = (uint16_t)tso_segs;
    uint32_t limit = mss_now;
    if (tso_segs == 1) {
        /* only the queue's last skb may be held back: the others are pushed (TCP_NAGLE_PUSH) */
        if (!tcp_nagle_test(tp, skb, mss_now, skb == tp->write_queue.tail ? nonagle : TCP_NAGLE_PUSH))
            return 0;
    } else {
        uint32_t max_segs = tcp_tso_autosize(tp, mss_now);
        if (!push_one && tcp_tso_should_defer(tp, skb, max_segs, cwnd_limited))
            return 0;
        limit = tcp_mss_split_point(tp, skb, mss_now, cwnd_quota < max_segs ? cwnd_quota : max_segs,
                                    nonagle);
        if (!limit)
            return 0;
    }
    if (skb->len > limit)
        tcp_fragment(tp, &tp->write_queue, skb, limit);
    if (tcp_small_queue_check(tp, skb, 0))
        return 0;
    return tcp_skb_pcount(skb);
}

/* tcp_write_xmit: push pending frames. Returns true when nothing is in flight yet data waits
 * (the kernel would arm the zero-window probe). */
bool tcp_write_xmit(TcpSock *tp, uint32_t mss_now, int nonagle, int push_one, Cpu *cpu)
{
    uint32_t sent_pkts = 0;
    bool cwnd_limited = false;
    Skb *skb;
    tp->tcp_mstamp = sim_now(tcp_sim(tp));
    while ((skb = tp->write_queue.head)) {
        if (tcp_pacing_check(tp, cpu))
            break;
        uint32_t pcount = tcp_write_xmit_prepare(tp, skb, mss_now, nonagle, push_one, &cwnd_limited);
        if (!pcount)
            break;
        /* a local drop: the skb stays at the head of the write queue, snd_nxt and packets_out
         * as they were; it goes again on the next push (an ACK, TSQ, the probe timer) */
        if (tcp_transmit_skb(tp, skb, cpu))
            break;
        tcp_event_new_data_sent(tp, skb, cpu);
        /* tcp_minshall_update: the skb ended in a sub-MSS segment (its last one, for a TSO skb) */
        if (skb->len < pcount * mss_now)
            tp->snd_sml = skb->end_seq;
        sent_pkts += pcount;
        if (push_one)
            break;
    }
    cwnd_limited |= tcp_packets_in_flight(tp) >= tp->snd_cwnd;
    if (sent_pkts) {
        if (tcp_in_cwnd_reduction(tp))
            tp->prr_out += sent_pkts;
        if (push_one != 2)
            tcp_schedule_loss_probe(tp, false, cpu);
    }
    /* 3.16-5.9 (and <= 3.15) validate only after a send; 299bcb55ecd1 (5.10) also after a push
     * that found cwnd full */
    bool validate_unsent = tcp_conf(tp)->cwnd_limited == TCP_CWND_LIMITED_TRACKED ||
                           tcp_conf(tp)->cwnd_limited == TCP_CWND_LIMITED_5_10;
    if (sent_pkts || (cwnd_limited && validate_unsent))
        tcp_cwnd_validate(tp, cwnd_limited);
    return !tp->packets_out && tp->write_queue.head;
}

void __tcp_push_pending_frames(TcpSock *tp, uint32_t mss_now, int nonagle, Cpu *cpu)
{
    if (!tp->write_queue.head)
        return;
    if (tcp_write_xmit(tp, mss_now, nonagle, 0, cpu))
        tcp_check_probe_timer(tp, cpu);
}

void tcp_push_pending_frames(TcpSock *tp, Cpu *cpu)
{
    __tcp_push_pending_frames(tp, tp->mss_cache, 0, cpu);
}

void tcp_push_one(TcpSock *tp, uint32_t mss_now, Cpu *cpu)
{
    tcp_write_xmit(tp, mss_now, TCP_NAGLE_PUSH, 1, cpu);
}

/* ---- zero-window probes (tcp_send_probe0, tcp_write_wakeup) ---- */

/* tcp_probe0_base: the probe interval starts at the RTO, at least TCP_RTO_MIN (HZ/5, the
 * constant, not the route's rto_min). */
static uint32_t tcp_probe0_base(const TcpSock *tp)
{
    uint32_t rto_min = tp->hz / 5u;
    return tp->icsk_rto > rto_min ? tp->icsk_rto : rto_min;
}

/* tcp_probe0_when: the base doubled per unanswered probe, at most TCP_RTO_MAX. */
uint64_t tcp_probe0_when(const TcpSock *tp)
{
    uint64_t when = (uint64_t)tcp_probe0_base(tp) << (tp->icsk_backoff < 31 ? tp->icsk_backoff : 31);
    return when < tcp_rto_max(tp) ? when : tcp_rto_max(tp);
}

/* tcp_check_probe_timer: data waits on a closed window with nothing in flight. */
void tcp_check_probe_timer(TcpSock *tp, Cpu *cpu)
{
    if (!tp->packets_out && !tp->icsk_pending)
        inet_csk_reset_xmit_timer(tp, ICSK_TIME_PROBE0, tcp_probe0_base(tp), tcp_rto_max(tp), cpu);
}

/* tcp_xmit_probe_skb: no data, an already acknowledged sequence (snd_una - 1): out of window at
 * the receiver, which answers at once with its current window. */
static int tcp_xmit_probe_skb(TcpSock *tp, Cpu *cpu)
{
    return tcp_xmit_bare(tp, tp->snd_una - 1, cpu);
}

/* tcp_write_wakeup: if the window has room, up to one MSS of new data; else the probe skb.
 * Returns the transmission's error (positive: a local drop, the data stays unsent). */
static int tcp_write_wakeup(TcpSock *tp, Cpu *cpu)
{
    Skb *skb = tp->write_queue.head;
    uint32_t mss = tp->mss_cache;
    if (!skb || skb->seq >= tcp_wnd_end(tp))
        return tcp_xmit_probe_skb(tp, cpu);
    uint64_t seg_size = tcp_wnd_end(tp) - skb->seq;
    if (seg_size > mss)
        seg_size = mss;
    if (seg_size < skb->len)
        tcp_fragment(tp, &tp->write_queue, skb, (uint32_t)seg_size);
    skb->gso_segs = (uint16_t)((skb->len + mss - 1) / mss);
    skb->flags |= TCPHDR_PSH;
    int err = tcp_transmit_skb(tp, skb, cpu);
    if (!err)
        tcp_event_new_data_sent(tp, skb, cpu);
    return err;
}

/* tcp_send_probe0: probe, then back off (icsk_backoff, at most tcp_retries2 = 15) unless the
 * window opened and data is now in flight. A probe the qdisc dropped is retried after
 * TCP_RESOURCE_PROBE_INTERVAL without backing off. */
void tcp_send_probe0(TcpSock *tp, Cpu *cpu)
{
    int err = tcp_write_wakeup(tp, cpu);
    if (tp->packets_out || !tp->write_queue.head) {
        tp->icsk_probes_out = 0;
        tp->icsk_backoff = 0;
        return;
    }
    tp->icsk_probes_out++;
    uint64_t when = tcp_resource_probe_interval(tp);
    if (err <= 0) {
        if (tp->icsk_backoff < 15)
            tp->icsk_backoff++;
        when = tcp_probe0_when(tp);
    }
    inet_csk_reset_xmit_timer(tp, ICSK_TIME_PROBE0, when, tcp_rto_max(tp), cpu);
}
