/* test_tcp_ack.c - the data receiver's ACK policy (notes A.3-A.10): quick-ACK at start, the
 * 40 ms delayed ACK, ACK after two full segments, immediate ACKs for out-of-order data and
 * duplicates (DSACK), the delayed-ACK timer deferred while the socket is owned, the 6.7+
 * one-ACK-per-backlog-drain deferral, a route's quickack attribute and the 6.6 PUSHED mark of a
 * full-sized PSH segment. HZ = 1000, MSS 1448, hand-computed expectations. */
#include "tcp_harness.h"

/* a sends len bytes now; its segment(s) reach b at once. */
static void send_and_deliver(TcpBench *tb, uint32_t len)
{
    th_write(tb->a, len);
    while (th_deliver(tb, 0))
        ;
}

/* b's ACKs reach a at once. */
static void ack_back(TcpBench *tb)
{
    while (th_deliver(tb, 1))
        ;
}

static TcpBench *bench(void)
{
    TcpBench *tb = th_new();
    th_connect(tb, 1500);
    return tb;
}

/* Quick-ACK budget: tcp_incr_quickack = min(rcv_wnd / (2 rcv_mss), 16) with the initial
 * rcv_mss 536 (tcp_initialize_rcv_mss) and rcv_wnd 65160: min(65160 / 1072 = 60, 16) = 16.
 * The first 16 full segments are each ACKed at once (quick > 0, not ping-pong); each ACK uses
 * one credit (tcp_dec_quickack_mode). The 17th is not ACKed at once. */
static void test_quickack_at_start(void)
{
    TcpBench *tb = bench();
    for (int i = 0; i < 16; i++) {
        th_run_to(tb, (sim_time_t)i * SIM_MS);
        send_and_deliver(tb, 1448);
        g_assert_cmpuint(th_pending(tb, 1), ==, 1);
        Skb *ack = th_take(tb, 1);
        g_assert_cmpuint(ack->ack_seq, ==, 1 + (uint64_t)(i + 1) * 1448);
        th_deliver_skb(tb, 1, ack);
        th_read(tb->b);
        g_assert_cmpuint(tb->b->ack.quick, ==, 15 - i);
    }
    th_run_to(tb, 16 * SIM_MS);
    send_and_deliver(tb, 1448);
    g_assert_cmpuint(th_pending(tb, 1), ==, 0); /* 1448 is not > rcv_mss 1448: delayed */
    g_assert_true(tb->b->ack.pending & ICSK_ACK_TIMER);
    th_free(tb);
}

/* Exhaust the quick ACKs as above, reading after each segment. Ends at t = 15 ms. */
/* One full segment per ms for 16 ms, each ACKed back and read at once. */
static void deliver_16_mss(TcpBench *tb)
{
    for (int i = 0; i < 16; i++) {
        th_run_to(tb, (sim_time_t)i * SIM_MS);
        send_and_deliver(tb, 1448);
        ack_back(tb);
        th_read(tb->b);
    }
}

static void use_up_quickacks(TcpBench *tb)
{
    deliver_16_mss(tb);
    g_assert_cmpuint(tb->b->ack.quick, ==, 0);
}

/* A lone segment after the quick ACKs: ato = TCP_ATO_MIN = 40 jiffies (inter-arrivals <= 20 ms
 * keep ato = ato/2 + 20 = 40; leaving quick mode sets 40). Sent at t = 20 ms (jiffy 20), the
 * delayed ACK leaves when the timer fires at jiffy 20 + 40 = 60, i.e. at 60 ms, not before;
 * TcpExtDelayedACKs = 1 and ato inflates to min(2 * 40, rto) = 80. */
static void test_delayed_ack_40ms(void)
{
    TcpBench *tb = bench();
    use_up_quickacks(tb);
    th_run_to(tb, 20 * SIM_MS);
    send_and_deliver(tb, 100);
    g_assert_cmpuint(tb->b->ack.ato, ==, 40);
    g_assert_cmpuint(tb->b->ack.timeout, ==, 60);
    th_run_to(tb, 60 * SIM_MS - 1);
    g_assert_cmpuint(th_pending(tb, 1), ==, 0);
    th_run_to(tb, 60 * SIM_MS);
    g_assert_cmpuint(th_pending(tb, 1), ==, 1);
    Skb *ack = th_take(tb, 1);
    g_assert_cmpuint(ack->ack_seq, ==, 1 + 16 * 1448 + 100);
    skb_free(tb->host[1].pool, ack);
    g_assert_cmpuint(th_ctr(tb, 1, CTR_TcpExtDelayedACKs), ==, 1);
    g_assert_cmpuint(tb->b->ack.ato, ==, 80);
    th_free(tb);
}

/* After the quick ACKs: the first full segment leaves rcv_nxt - rcv_wup = 1448, not more than
 * rcv_mss (1448) -> delayed; the second makes it 2896 > 1448 with the window not shrinking
 * (the reader keeps the buffer empty) -> ACK at once, acknowledging both. Each write ends with
 * PSH, so since 6.6 reading the first would ACK it already (test_full_mss_push_acked_on_read);
 * this runs the rule of the kernels before it, where only the second segment does. */
static void test_ack_after_two_full_segments(void)
{
    TcpBench *tb = th_new();
    tb->conf[1].tcp.push_full_mss = false;
    th_connect(tb, 1500);
    use_up_quickacks(tb);
    th_run_to(tb, 30 * SIM_MS);
    send_and_deliver(tb, 1448);
    th_read(tb->b);
    g_assert_cmpuint(th_pending(tb, 1), ==, 0);
    send_and_deliver(tb, 1448);
    g_assert_cmpuint(th_pending(tb, 1), ==, 1);
    Skb *ack = th_take(tb, 1);
    g_assert_cmpuint(ack->ack_seq, ==, 1 + 18 * 1448);
    skb_free(tb->host[1].pool, ack);
    g_assert_cmpuint(th_ctr(tb, 1, CTR_TcpExtDelayedACKs), ==, 0);
    th_free(tb);
}

/* Quick-ACK credit and data the receiver sends (hosts.H.tcp.quickack_per_ack). b's first
 * segment from a gives it 16 quick ACKs and is ACKed at once (an owed ACK: 15 left). b then
 * writes 4 x 1448 bytes, one TSO skb of 4 segments that carries an ACK while none is owed.
 * Since 6.6 (059217c18be6) only an ACK sent while one was owed uses a credit: 15 stay. Before,
 * tcp_event_ack_sent used tcp_skb_pcount of them for any segment with an ACK: 15 - 4 = 11. */
static uint32_t quick_left_after_reply(bool per_ack)
{
    TcpBench *tb = th_new();
    tb->conf[1].tcp.quickack_per_ack = per_ack;
    th_connect(tb, 1500);
    send_and_deliver(tb, 1448);
    g_assert_cmpuint(th_pending(tb, 1), ==, 1); /* quick ACK */
    g_assert_cmpuint(tb->b->ack.quick, ==, 15);
    th_write(tb->b, 4 * 1448);
    g_assert_cmpuint(th_pending(tb, 1), ==, 2);
    uint32_t quick = tb->b->ack.quick;
    th_free(tb);
    return quick;
}

static void test_quickack_credit_and_data(void)
{
    g_assert_cmpuint(quick_left_after_reply(true), ==, 15);
    g_assert_cmpuint(quick_left_after_reply(false), ==, 11);
}

/* hosts.H.tcp.push_full_mss (6.6, 4720852ed9af "tcp: fix delayed ACKs for MSS boundary
 * condition"): after the quick ACKs, a lone full-sized segment (a one-MSS write, PSH set) sent at
 * 30 ms leaves rcv_nxt - rcv_wup = 1448, not more than rcv_mss, so __tcp_ack_snd_check delays
 * it. tcp_measure_rcv_mss now marks ICSK_ACK_PUSHED for it, and the read that empties the
 * queue, not in ping-pong mode, ACKs it at once from tcp_cleanup_rbuf. Before 6.6 only a
 * segment shorter than rcv_mss set PUSHED: the ACK waits for the timer, 30 + ato (40) = 70 ms,
 * and counts in TcpExtDelayedACKs. */
static void test_full_mss_push_acked_on_read(void)
{
    for (int push = 1; push >= 0; push--) {
        TcpBench *tb = th_new();
        tb->conf[1].tcp.push_full_mss = push;
        th_connect(tb, 1500);
        use_up_quickacks(tb);
        th_run_to(tb, 30 * SIM_MS);
        send_and_deliver(tb, 1448);
        g_assert_cmpuint(th_pending(tb, 1), ==, 0);
        g_assert_true(tb->b->ack.pending & ICSK_ACK_TIMER);
        th_read(tb->b);
        if (push) {
            g_assert_cmpuint(th_pending(tb, 1), ==, 1);
            g_assert_cmpuint(tb->out[1].tail->ack_seq, ==, 1 + 17 * 1448);
        } else {
            g_assert_cmpuint(th_pending(tb, 1), ==, 0);
            th_run_to(tb, 70 * SIM_MS - 1);
            g_assert_cmpuint(th_pending(tb, 1), ==, 0);
            th_run_to(tb, 70 * SIM_MS);
            g_assert_cmpuint(th_pending(tb, 1), ==, 1);
            g_assert_cmpuint(th_ctr(tb, 1, CTR_TcpExtDelayedACKs), ==, 1);
        }
        th_free(tb);
    }
}

/* One request/response at time t: a's 100 bytes reach b, b reads them and replies with 1 byte
 * (within ato of the receipt), and the reply and b's ACKs reach a. */
static void exchange_at(TcpBench *tb, sim_time_t t)
{
    th_run_to(tb, t);
    send_and_deliver(tb, 100);
    th_read(tb->b);
    th_write(tb->b, 1);
    ack_back(tb);
    while (th_deliver(tb, 0))
        ;
    th_read(tb->a);
}

/* hosts.H.tcp.pingpong_thresh. At 1 (every kernel but 5.1-5.19) b's first reply puts it in
 * ping-pong mode. At 3 (5.1-5.19) each exchange in a later jiffy counts one: modes off, off,
 * on after the exchanges at 20, 30 and 40 ms. And a reply in the jiffy of b's previous send
 * does not count (lsndtime is not before lrcvtime): three exchanges within jiffy 20 leave the
 * counter at 1. */
static void test_pingpong_thresh(void)
{
    for (uint32_t thresh = 1; thresh <= 3; thresh += 2) {
        TcpBench *tb = th_new();
        tb->conf[1].tcp.pingpong_thresh = thresh;
        th_connect(tb, 1500);
        bool want[3] = {thresh == 1, thresh == 1, true};
        for (int i = 0; i < 3; i++) {
            exchange_at(tb, (sim_time_t)(20 + 10 * i) * SIM_MS);
            g_assert_cmpint(inet_csk_in_pingpong_mode(tb->b), ==, want[i]);
            g_assert_cmpuint(tb->b->ack.pingpong, ==, thresh == 1 ? 1 : i + 1);
        }
        th_free(tb);
    }
    TcpBench *tb = th_new();
    tb->conf[1].tcp.pingpong_thresh = 3;
    th_connect(tb, 1500);
    for (int i = 0; i < 3; i++)
        exchange_at(tb, 20 * SIM_MS + (sim_time_t)i * 100 * SIM_US);
    g_assert_cmpuint(tb->b->ack.pingpong, ==, 1);
    g_assert_false(inet_csk_in_pingpong_mode(tb->b));
    th_free(tb);
}

/* The same lone full segment to a receiver in ping-pong mode (it answered the previous data
 * within ato: tcp_event_data_sent) is not ACKed by the read: tcp_cleanup_rbuf wants PUSHED and
 * not ping-pong (or PUSHED2), so the ACK stays on the delayed-ACK timer for the reply to carry. */
static void test_full_mss_push_pingpong_waits(void)
{
    TcpBench *tb = bench();
    use_up_quickacks(tb);
    th_run_to(tb, 20 * SIM_MS);
    send_and_deliver(tb, 100);
    th_read(tb->b);
    th_write(tb->b, 1); /* a reply within ato of the data: ping-pong */
    g_assert_true(inet_csk_in_pingpong_mode(tb->b));
    while (th_deliver(tb, 1))
        ;
    th_run_to(tb, 30 * SIM_MS);
    send_and_deliver(tb, 1448);
    g_assert_true(tb->b->ack.pending & ICSK_ACK_PUSHED);
    th_read(tb->b);
    g_assert_cmpuint(th_pending(tb, 1), ==, 0);
    g_assert_true(tb->b->ack.pending & ICSK_ACK_TIMER);
    th_free(tb);
}

/* Out of order: a hole makes the receiver ACK at once with a SACK block for the data above it,
 * even with no quick ACKs left; filling the hole ACKs at once again (ICSK_ACK_NOW) and the SACK
 * block disappears. */
static void test_ofo_immediate_ack(void)
{
    TcpBench *tb = bench();
    use_up_quickacks(tb);
    th_run_to(tb, 30 * SIM_MS);
    th_write(tb->a, 1448);
    th_write(tb->a, 1448);
    Skb *first = th_take(tb, 0);
    th_deliver(tb, 0); /* the second arrives first */
    g_assert_cmpuint(th_pending(tb, 1), ==, 1);
    Skb *ack = th_take(tb, 1);
    uint64_t base = 1 + 16 * 1448;
    g_assert_cmpuint(ack->ack_seq, ==, base);
    g_assert_cmpuint(ack->nsacks, ==, 1);
    g_assert_false(ack->dsack);
    g_assert_cmpuint(ack->sack[0].start, ==, base + 1448);
    g_assert_cmpuint(ack->sack[0].end, ==, base + 2896);
    skb_free(tb->host[1].pool, ack);
    g_assert_cmpuint(th_ctr(tb, 1, CTR_TcpExtTCPOFOQueue), ==, 1);
    th_deliver_skb(tb, 0, first);
    g_assert_cmpuint(th_pending(tb, 1), ==, 1);
    ack = th_take(tb, 1);
    g_assert_cmpuint(ack->ack_seq, ==, base + 2896);
    g_assert_cmpuint(ack->nsacks, ==, 0);
    skb_free(tb->host[1].pool, ack);
    th_free(tb);
}

/* A hole filled while the reader is not reading. The out-of-order segment is SACKed at once
 * (rcv_wnd then reflects the one skb charged); the segment filling the hole doubles rmem, so
 * __tcp_select_window() falls below rcv_wnd and the 2-MSS rule's window test fails. 4.18+
 * (tcp.gap_fill_ack_now): ICSK_ACK_NOW sends the ACK anyway. 2.6-3.x: the fill only leaves
 * ping-pong mode (b never was in it) and, the quick ACKs used up, the ACK is delayed (timer
 * armed). Returns the ACKs sent for the fill. */
static uint32_t acks_for_gap_fill_in(bool now, bool ofo_quickack)
{
    TcpBench *tb = th_new();
    tb->conf[1].tcp.gap_fill_ack_now = now;
    tb->conf[1].tcp.ofo_quickack = ofo_quickack;
    th_connect(tb, 1500);
    use_up_quickacks(tb);
    th_run_to(tb, 30 * SIM_MS);
    th_write(tb->a, 1448);
    th_write(tb->a, 1448);
    Skb *first = th_take(tb, 0);
    th_deliver(tb, 0); /* the second arrives first: SACKed */
    g_assert_cmpuint(th_pending(tb, 1), ==, 1);
    skb_free(tb->host[1].pool, th_take(tb, 1));
    /* < 4.18 the out-of-order segment refilled the quick ACKs to min(rcv_wnd / 2 rcv_mss, 16),
     * and its SACK used one */
    g_assert_cmpuint(tb->b->ack.quick, ==, ofo_quickack ? 15 : 0);
    th_deliver_skb(tb, 0, first);
    g_assert_cmpuint(tb->b->rcv_queue.qlen, ==, 2);
    uint32_t n = th_pending(tb, 1);
    if (!n) { /* (an ACK sent would have moved rcv_wnd) */
        g_assert_cmpuint(__tcp_select_window(tb->b), <, tb->b->rcv_wnd);
        g_assert_true(tb->b->ack.pending & ICSK_ACK_TIMER);
    }
    th_free(tb);
    return n;
}

static uint32_t acks_for_gap_fill(bool now)
{
    return acks_for_gap_fill_in(now, false);
}

/* With 3.x's quick-ACK on out-of-order data (tcp.ofo_quickack, before a3893637e1eb in 4.18) the
 * fill is ACKed at once after all: the hole's segment refilled the quick ACKs. */
static void test_gap_fill_ack_era(void)
{
    g_assert_cmpuint(acks_for_gap_fill(true), ==, 1);
    g_assert_cmpuint(acks_for_gap_fill(false), ==, 0);
    g_assert_cmpuint(acks_for_gap_fill_in(false, true), ==, 1);
}

/* hosts.H.tcp.ofo_measure_rcv_mss (6.17, 38d7e4443365, its packetdrill tcp_ooo_rcv_mss.pkt):
 * the receiver learns its MSS from out-of-order data too. b starts with rcv_mss 536
 * (tcp_initialize_rcv_mss: min(advmss, mss_cache, rcv_wnd / 2, TCP_MSS_DEFAULT 536)). The
 * second of two 1448-byte segments arrives first: with the rule rcv_mss becomes min(1448,
 * advmss 1448) and, with 6.5+'s measured scaling ratio, the ratio becomes that skb's
 * (len << 8) / truesize; without it both keep their initial values until in-order data
 * comes, which then updates them. */
static void ofo_measure_case(bool measure)
{
    TcpBench *tb = th_new();
    tb->conf[1].tcp.ofo_measure_rcv_mss = measure;
    tb->conf[1].tcp.win_scaling = TCP_WIN_SCALING_RATIO;
    th_connect(tb, 1500);
    g_assert_cmpuint(tb->b->ack.rcv_mss, ==, 536);
    g_assert_cmpuint(tb->b->scaling_ratio, ==, TCP_DEFAULT_SCALING_RATIO);
    th_write(tb->a, 1448);
    th_write(tb->a, 1448);
    Skb *first = th_take(tb, 0);
    Skb *second = tb->out[0].head;
    g_assert_nonnull(second);
    uint32_t ratio = (uint32_t)(((uint64_t)second->len << TCP_RMEM_TO_WIN_SCALE) / second->truesize);
    g_assert_cmpuint(ratio, !=, TCP_DEFAULT_SCALING_RATIO); /* or the check below proves nothing */
    th_deliver(tb, 0); /* out of order */
    g_assert_cmpuint(tb->b->ofo_queue.qlen, ==, 1);
    g_assert_cmpuint(tb->b->ack.rcv_mss, ==, measure ? 1448 : 536);
    g_assert_cmpuint(tb->b->scaling_ratio, ==, measure ? ratio : TCP_DEFAULT_SCALING_RATIO);
    th_deliver_skb(tb, 0, first); /* in order: every era measures it */
    g_assert_cmpuint(tb->b->ack.rcv_mss, ==, 1448);
    th_free(tb);
}

static void test_ofo_measure_rcv_mss(void)
{
    ofo_measure_case(true);
    ofo_measure_case(false);
}

/* The same hole while the receiver owns its socket, with 6.7's ACK deferral on: the SACK for the
 * out-of-order segment still leaves as the segment is processed from the backlog, because
 * __tcp_ack_snd_check's out-of-order path jumps to send_now past the deferral. The segment that
 * fills the hole warrants an ACK by the first test (two MSS unacked), which is deferred to
 * tcp_release_cb. */
static void test_ofo_sack_not_deferred(void)
{
    TcpBench *tb = bench();
    tb->stack.backlog_ack_defer = true;
    use_up_quickacks(tb);
    th_run_to(tb, 30 * SIM_MS);
    th_write(tb->a, 1448);
    th_write(tb->a, 1448);
    Skb *first = th_take(tb, 0);
    Sock *sk = tcp_sk(tb->b);
    sk->owned = true;
    sk->ops->backlog_rcv(sk, th_take(tb, 0), NULL); /* the second, out of order */
    g_assert_cmpuint(th_pending(tb, 1), ==, 1);
    Skb *ack = th_take(tb, 1);
    g_assert_cmpuint(ack->nsacks, ==, 1);
    skb_free(tb->host[1].pool, ack);
    sk->ops->backlog_rcv(sk, first, NULL); /* fills the hole */
    g_assert_cmpuint(th_pending(tb, 1), ==, 0);
    sk->owned = false;
    sk->ops->release_cb(sk, NULL);
    g_assert_cmpuint(th_pending(tb, 1), ==, 1);
    ack = th_take(tb, 1);
    g_assert_cmpuint(ack->ack_seq, ==, 1 + 18 * 1448);
    g_assert_cmpuint(ack->nsacks, ==, 0);
    skb_free(tb->host[1].pool, ack);
    th_free(tb);
}

/* A duplicate of delivered data (sequence range entirely below rcv_nxt but not below rcv_wup
 * handled by tcp_data_queue; below rcv_wup by tcp_send_dupack): DelayedACKLost, TCPDSACKOldSent,
 * quick-ACK mode and an immediate ACK whose first block is the DSACK [seq, end_seq). */
static void test_dsack_for_duplicate(void)
{
    TcpBench *tb = bench();
    use_up_quickacks(tb);
    th_run_to(tb, 30 * SIM_MS);
    th_write(tb->a, 1448);
    Skb *orig = th_take(tb, 0);
    Skb *copy = skb_clone(tb->host[0].pool, orig);
    th_deliver_skb(tb, 0, orig);
    g_assert_cmpuint(th_pending(tb, 1), ==, 0); /* delayed */
    th_deliver_skb(tb, 0, copy);
    g_assert_cmpuint(th_pending(tb, 1), ==, 1);
    Skb *ack = th_take(tb, 1);
    uint64_t seq = 1 + 16 * 1448;
    g_assert_cmpuint(ack->ack_seq, ==, seq + 1448);
    g_assert_true(ack->dsack);
    g_assert_cmpuint(ack->sack[0].start, ==, seq);
    g_assert_cmpuint(ack->sack[0].end, ==, seq + 1448);
    skb_free(tb->host[1].pool, ack);
    g_assert_cmpuint(th_ctr(tb, 1, CTR_TcpExtDelayedACKLost), ==, 1);
    g_assert_cmpuint(th_ctr(tb, 1, CTR_TcpExtTCPDSACKOldSent), ==, 1);
    /* tcp_enter_quickack_mode(16): quick = min(rcv_wnd / (2 * 1448), 16); one used by the ACK */
    uint32_t q = tb->b->rcv_wnd / (2 * 1448);
    g_assert_cmpuint(tb->b->ack.quick, ==, (q < 16 ? q : 16) - 1);
    /* the DSACK was consumed by that one ACK */
    g_assert_false(tb->b->dsack);
    th_free(tb);
}

/* Delayed-ACK timer firing while the owner holds the socket (3.6+): DelayedACKLocked, no ACK;
 * tcp_release_cb then runs the handler and sends it (DelayedACKs). */
static void test_delack_deferred_while_owned(void)
{
    TcpBench *tb = bench();
    use_up_quickacks(tb);
    th_run_to(tb, 20 * SIM_MS);
    send_and_deliver(tb, 100); /* delayed ACK due at jiffy 60 */
    tcp_sk(tb->b)->owned = true; /* a task holds the socket (lock_sock) */
    th_run_to(tb, 100 * SIM_MS);
    g_assert_cmpuint(th_ctr(tb, 1, CTR_TcpExtDelayedACKLocked), ==, 1);
    g_assert_cmpuint(th_ctr(tb, 1, CTR_TcpExtDelayedACKs), ==, 0);
    g_assert_cmpuint(th_pending(tb, 1), ==, 0);
    g_assert_true(tb->b->tsq_flags & TCPF_DELACK_TIMER_DEFERRED);
    tcp_sk(tb->b)->owned = false;
    tcp_sk(tb->b)->ops->release_cb(tcp_sk(tb->b), NULL); /* release_sock */
    g_assert_cmpuint(th_pending(tb, 1), ==, 1);
    g_assert_cmpuint(th_ctr(tb, 1, CTR_TcpExtDelayedACKs), ==, 1);
    th_free(tb);
}

/* The same firing before 3.6 (stack.timer.owned 2.6, 2.6-3.5 tcp_delack_timer): the socket being
 * owned, the timer sets icsk_ack.blocked, counts DelayedACKLocked and re-arms TCP_DELACK_MIN =
 * 40 jiffies on (jiffy 60 -> 100); nothing is deferred, so the release sends nothing. At jiffy
 * 100 the handler finds the ACK due (ack.timeout 60) and sends it; the ACK clears blocked
 * (inet_csk_clear_xmit_timer). */
static void test_delack_retry_while_owned_2_6(void)
{
    TcpBench *tb = bench();
    tb->stack.timer_owned = TIMER_OWNED_RETRY;
    use_up_quickacks(tb);
    th_run_to(tb, 20 * SIM_MS);
    send_and_deliver(tb, 100); /* delayed ACK due at jiffy 60 */
    Sock *sk = tcp_sk(tb->b);
    sk->owned = true;
    th_run_to(tb, 99 * SIM_MS);
    g_assert_cmpuint(th_ctr(tb, 1, CTR_TcpExtDelayedACKLocked), ==, 1);
    g_assert_false(tb->b->tsq_flags & TCPF_DELACK_TIMER_DEFERRED);
    g_assert_cmpuint(tb->b->ack.blocked, ==, 1);
    g_assert_true(ktimer_pending(&tb->b->delack_timer));
    g_assert_cmpuint(tb->b->delack_timer.expires, ==, 100);
    sk->owned = false;
    sk->ops->release_cb(sk, NULL);
    g_assert_cmpuint(th_pending(tb, 1), ==, 0);
    th_run_to(tb, 100 * SIM_MS);
    g_assert_cmpuint(th_pending(tb, 1), ==, 1);
    g_assert_cmpuint(th_ctr(tb, 1, CTR_TcpExtDelayedACKs), ==, 1);
    g_assert_cmpuint(tb->b->ack.blocked, ==, 0);
    th_free(tb);
}

/* icsk_ack.blocked (2.6-5.9): after a delayed-ACK timer found the socket owned, the owner's
 * tcp_cleanup_rbuf ACKs at once even with nothing copied ("Delayed ACKs frequently hit locked
 * sockets during bulk receive"); 5.10+ has no such flag and waits for tcp_release_cb. Returns
 * the ACKs sent by tcp_cleanup_rbuf(copied = 0) right after the locked firing at jiffy 60. */
static uint32_t acks_on_cleanup_after_locked_delack(TimerOwnedPolicy owned)
{
    TcpBench *tb = bench();
    tb->stack.timer_owned = owned;
    use_up_quickacks(tb);
    th_run_to(tb, 20 * SIM_MS);
    send_and_deliver(tb, 100);
    tcp_sk(tb->b)->owned = true;
    th_run_to(tb, 70 * SIM_MS);
    g_assert_cmpuint(th_ctr(tb, 1, CTR_TcpExtDelayedACKLocked), ==, 1);
    g_assert_cmpuint(th_pending(tb, 1), ==, 0);
    tcp_cleanup_rbuf(tb->b, 0, NULL); /* recvmsg before it sleeps */
    uint32_t n = th_pending(tb, 1);
    tcp_sk(tb->b)->owned = false;
    th_free(tb);
    return n;
}

static void test_delack_blocked_acks_on_cleanup(void)
{
    g_assert_cmpuint(acks_on_cleanup_after_locked_delack(TIMER_OWNED_RELEASE_CB), ==, 0);
    g_assert_cmpuint(acks_on_cleanup_after_locked_delack(TIMER_OWNED_RELEASE_CB_BLOCKED), ==, 1);
    g_assert_cmpuint(acks_on_cleanup_after_locked_delack(TIMER_OWNED_RETRY), ==, 1);
}

/* ... and tcp_send_delayed_ack with a delayed ACK armed sends at once while blocked, though the
 * armed deadline is far (2.6-5.9: "If delack timer was blocked or is about to expire"). */
static void test_delack_blocked_send_delayed_ack(void)
{
    for (int blocked = 0; blocked < 2; blocked++) {
        TcpBench *tb = bench();
        use_up_quickacks(tb);
        th_run_to(tb, 20 * SIM_MS);
        send_and_deliver(tb, 100); /* armed for jiffy 60 */
        g_assert_cmpuint(th_pending(tb, 1), ==, 0);
        tb->b->ack.blocked = (uint8_t)blocked;
        tcp_send_delayed_ack(tb->b, NULL); /* jiffy 20: 60 is not within ato/4 = 10 */
        g_assert_cmpuint(th_pending(tb, 1), ==, (uint32_t)blocked);
        th_free(tb);
    }
}

/* At 30 ms, with b's socket owned, three 2-MSS segments go to its backlog handler (each
 * followed by b's window when sel is given); then the owner releases (tcp_release_cb). Counts the
 * ACKs b sent while owned and at the release. */
static void owned_backlog_of_three(TcpBench *tb, const uint32_t *sel, uint32_t *acks_during,
                                   uint32_t *acks_after)
{
    th_run_to(tb, 30 * SIM_MS);
    Sock *sk = tcp_sk(tb->b);
    sk->owned = true;
    for (int i = 0; i < 3; i++) {
        th_write(tb->a, 2 * 1448);
        sk->ops->backlog_rcv(sk, th_take(tb, 0), NULL);
        if (sel)
            g_assert_cmpuint(__tcp_select_window(tb->b), ==, sel[i]);
    }
    *acks_during = th_pending(tb, 1);
    sk->owned = false;
    sk->ops->release_cb(sk, NULL);
    *acks_after = th_pending(tb, 1) - *acks_during;
}

/* 6.7+ (stack.backlog.ack_defer): data processed from the backlog while owned does not ACK;
 * tcp_release_cb sends exactly one ACK for all of it. Without the deferral each skb that
 * warrants an ACK sends one. Three 2-MSS skbs processed as a drain would (backlog_rcv). The
 * receive buffer is 1 MiB (as after autotuning) so that unread data does not shrink the
 * 64 KB window: free space (1 MiB - queued) / 2 stays above rcv_ssthresh (65535), so
 * __tcp_select_window() >= rcv_wnd and "more than one MSS unacked" sends at once. */
static void run_backlog_drain(bool defer, uint32_t *acks_during, uint32_t *acks_after)
{
    TcpBench *tb = th_new();
    tb->conf[1].tcp.rcvbuf = 1 << 20;
    th_connect(tb, 1500);
    tb->stack.backlog_ack_defer = defer;
    deliver_16_mss(tb); /* same history as use_up_quickacks */
    owned_backlog_of_three(tb, NULL, acks_during, acks_after);
    Skb *last = tb->out[1].tail;
    g_assert_cmpuint(last->ack_seq, ==, 1 + 22 * 1448);
    th_free(tb);
}

static void test_backlog_ack_defer(void)
{
    uint32_t during, after;
    run_backlog_drain(true, &during, &after);
    g_assert_cmpuint(during, ==, 0);
    g_assert_cmpuint(after, ==, 1);
    /* before 6.7: 2 MSS > rcv_mss -> each of the 3 skbs is ACKed as it is processed */
    run_backlog_drain(false, &during, &after);
    g_assert_cmpuint(during, ==, 3);
    g_assert_cmpuint(after, ==, 0);
}

/* hosts.H.tcp.quickack_route (RTAX_QUICKACK): tcp_in_quickack_mode() is true for every
 * segment, so "ACK now" no longer needs the window test. Bench as run_backlog_drain but with
 * the default 128 KiB receive buffer, where unread data shrinks the window: after the 16
 * quick ACKs (each segment read; rcv_wnd 64256, rcv_ssthresh 65535) three 2-MSS skbs are
 * processed from the backlog and left unread, and the window each would advertise falls to
 * 63488, 61440, 59392 (each < rcv_wnd: the right edge would move back). Without the route
 * attribute none is ACKed at once (a delayed ACK is armed); with it each is ACKed as it is
 * processed (each ACK advertises the smaller window, so rcv_wnd follows it down); with it
 * and the 6.7 deferral the three become one ACK from tcp_release_cb. */
static void run_unread_drain(bool quickack_route, bool defer, uint32_t *acks_during,
                             uint32_t *acks_after)
{
    static const uint32_t sel[3] = { 63488, 61440, 59392 };
    TcpBench *tb = th_new();
    tb->conf[1].tcp.quickack_route = quickack_route;
    th_connect(tb, 1500);
    tb->stack.backlog_ack_defer = defer;
    deliver_16_mss(tb);
    g_assert_cmpuint(th_pending(tb, 1), ==, 0);
    g_assert_cmpuint(tb->b->rcv_wnd, ==, 64256);
    owned_backlog_of_three(tb, sel, acks_during, acks_after);
    if (*acks_during + *acks_after)
        g_assert_cmpuint(tb->out[1].tail->ack_seq, ==, 1 + 22 * 1448);
    else
        g_assert_true(tb->b->ack.pending & ICSK_ACK_TIMER);
    th_free(tb);
}

static void test_quickack_route(void)
{
    uint32_t during, after;
    run_unread_drain(false, false, &during, &after);
    g_assert_cmpuint(during, ==, 0);
    g_assert_cmpuint(after, ==, 0);
    run_unread_drain(true, false, &during, &after);
    g_assert_cmpuint(during, ==, 3);
    g_assert_cmpuint(after, ==, 0);
    run_unread_drain(true, true, &during, &after);
    g_assert_cmpuint(during, ==, 0);
    g_assert_cmpuint(after, ==, 1);
}

/* The SACK-compression benches: b compresses up to nr (delay 1 ms, slack 100 us); after the
 * quick ACKs, a writes eight one-segment skbs at 30 ms, all still captured. */
static TcpBench *comp_sack_bench(uint32_t nr)
{
    TcpBench *tb = th_new();
    tb->conf[1].tcp.comp_sack_nr = nr;
    tb->conf[1].tcp.comp_sack_delay_ns = SIM_MS;
    tb->conf[1].tcp.comp_sack_slack_ns = 100 * SIM_US;
    th_connect(tb, 1500);
    use_up_quickacks(tb);
    th_run_to(tb, 30 * SIM_MS);
    for (int i = 0; i < 8; i++)
        th_write(tb->a, 1448); /* one segment each */
    g_assert_cmpuint(th_pending(tb, 0), ==, 8);
    return tb;
}

/* SACK compression (4.18+, tcp.comp_sack_nr 44, delay 1 ms, slack 100 us). Eight segments at
 * 30 ms, the first lost: the first three out-of-order arrivals are SACKed at once (the sender
 * counts them toward dupthresh), the other four are held. The hrtimer waits min(1 ms, 5 % of
 * the RTT) plus the 100 us slack, then one ACK leaves, carrying the SACK block of all seven; it
 * stands for four, so three count as compressed. */
static void test_sack_compression(void)
{
    TcpBench *tb = comp_sack_bench(44);
    th_drop(tb, 0);
    uint64_t first = 1 + 16 * 1448;
    for (int i = 1; i < 8; i++) {
        th_deliver(tb, 0);
        g_assert_cmpuint(th_pending(tb, 1), ==, i <= 3 ? (uint32_t)i : 3u);
    }
    g_assert_cmpuint(tb->b->compressed_ack, ==, 4);
    /* the kernel's delay: min(1 ms, rtt_us * (1000 >> 3) / 20 ns), rtt the smaller of the
     * receiver RTT and srtt (both 8 x us), armed at the fourth arrival (30 ms) */
    uint64_t rtt8 = tb->b->rcv_rtt_us;
    if (tb->b->srtt_us && tb->b->srtt_us < rtt8)
        rtt8 = tb->b->srtt_us;
    sim_time_t delay = (sim_time_t)(rtt8 * 125 / 20);
    if (delay > SIM_MS)
        delay = SIM_MS;
    sim_time_t fire = 30 * SIM_MS + delay + 100 * SIM_US;
    th_run_to(tb, fire - 1);
    g_assert_cmpuint(th_pending(tb, 1), ==, 3);
    th_run_to(tb, fire);
    g_assert_cmpuint(th_pending(tb, 1), ==, 4);
    for (int i = 0; i < 3; i++)
        skb_free(tb->host[1].pool, th_take(tb, 1));
    Skb *ack = th_take(tb, 1);
    g_assert_cmpuint(ack->ack_seq, ==, first);
    g_assert_cmpuint(ack->nsacks, ==, 1);
    g_assert_cmpuint(ack->sack[0].start, ==, first + 1448);
    g_assert_cmpuint(ack->sack[0].end, ==, first + 8 * 1448);
    skb_free(tb->host[1].pool, ack);
    g_assert_cmpuint(th_ctr(tb, 1, CTR_TcpExtTCPAckCompressed), ==, 3);
    th_free(tb);
}

/* Any ACK that leaves ends the compression: the lost segment arrives while four SACKs are held,
 * fills the hole and is ACKed at once (ICSK_ACK_NOW); the four count as compressed and the
 * timer sends nothing more. With tcp.comp_sack_nr 0 (kernels before 4.18) all seven
 * out-of-order arrivals are SACKed at once. */
static void test_sack_compression_ended_by_an_ack(void)
{
    for (uint32_t nr = 0; nr <= 44; nr += 44) {
        TcpBench *tb = comp_sack_bench(nr);
        Skb *lost = th_take(tb, 0);
        for (int i = 1; i < 8; i++)
            th_deliver(tb, 0);
        g_assert_cmpuint(th_pending(tb, 1), ==, nr ? 3 : 7);
        th_deliver_skb(tb, 0, lost);
        g_assert_cmpuint(th_pending(tb, 1), ==, nr ? 4 : 8);
        th_run_to(tb, 35 * SIM_MS);
        g_assert_cmpuint(th_pending(tb, 1), ==, nr ? 4 : 8);
        g_assert_cmpuint(tb->out[1].tail->ack_seq, ==, 1 + 24 * 1448);
        g_assert_cmpuint(th_ctr(tb, 1, CTR_TcpExtTCPAckCompressed), ==, nr ? 4 : 0);
        th_free(tb);
    }
}

/* The compressed-ACK timer fires while the socket is owned: like the delayed-ACK timer it is
 * deferred (TCP_DELACK_TIMER_DEFERRED), and tcp_release_cb's delayed-ACK handler sends the
 * held ACK first (tcp_sack_compress_send_ack): one ACK, three counted as compressed. */
static void test_sack_compression_deferred_while_owned(void)
{
    TcpBench *tb = comp_sack_bench(44);
    th_drop(tb, 0);
    for (int i = 1; i < 8; i++)
        th_deliver(tb, 0);
    g_assert_cmpuint(th_pending(tb, 1), ==, 3);
    Sock *sk = tcp_sk(tb->b);
    sk->owned = true;
    th_run_to(tb, 32 * SIM_MS);
    g_assert_cmpuint(th_pending(tb, 1), ==, 3);
    g_assert_cmpuint(tb->b->compressed_ack, ==, 4);
    sk->owned = false;
    sk->ops->release_cb(sk, NULL);
    g_assert_cmpuint(th_pending(tb, 1), ==, 4);
    g_assert_cmpuint(tb->out[1].tail->nsacks, ==, 1);
    g_assert_cmpuint(th_ctr(tb, 1, CTR_TcpExtTCPAckCompressed), ==, 3);
    th_free(tb);
}

/* A route rto_min of 5 ms caps the delayed ACK at rto_min - 1 = 4 jiffies (6.7+, "tcp: derive
 * delack_max from rto_min"): the lone segment of test_delayed_ack_40ms, sent at 20 ms, is ACKed
 * at 24 ms instead of 60. Before 6.7 (delack_from_rto_min false) it still waits until 60 ms. */
static void test_delack_capped_by_rto_min(void)
{
    for (int cap = 1; cap >= 0; cap--) {
        TcpBench *tb = th_new();
        tb->conf[1].tcp.rto_min_ns = 5 * SIM_MS;
        tb->conf[1].tcp.delack_from_rto_min = cap;
        th_connect(tb, 1500);
        use_up_quickacks(tb);
        th_run_to(tb, 20 * SIM_MS);
        send_and_deliver(tb, 100);
        sim_time_t due = (cap ? 24 : 60) * SIM_MS;
        th_run_to(tb, due - 1);
        g_assert_cmpuint(th_pending(tb, 1), ==, 0);
        th_run_to(tb, due);
        g_assert_cmpuint(th_pending(tb, 1), ==, 1);
        th_free(tb);
    }
}

/* Since 6.11 ("tcp: derive delack_max with tcp_rto_min helper") the cap is min(TCP_DELACK_MAX,
 * max(tcp_rto_min(sk), 2) - 1) whatever sets rto_min, so with the default 200 ms a delayed ACK
 * waits at most 199 jiffies: an ato of 300 jiffies on a pushed segment (max_ato TCP_DELACK_MAX,
 * a 1 s srtt lowering nothing) is armed 199 jiffies ahead, 200 before 6.7. */
static void test_delack_cap_with_default_rto_min(void)
{
    for (int cap = 1; cap >= 0; cap--) {
        TcpBench *tb = th_new();
        tb->conf[1].tcp.delack_from_rto_min = cap;
        th_connect(tb, 1500);
        TcpSock *tp = tb->b;
        tp->ack.ato = 300;
        tp->ack.pending = ICSK_ACK_PUSHED;
        tp->srtt_us = 1000000u << 3;
        uint64_t now = tcp_jiffies(tp);
        tcp_send_delayed_ack(tp, NULL);
        g_assert_cmpuint(tp->ack.timeout - now, ==, cap ? 199u : 200u);
        th_free(tb);
    }
}

/* A held ACK leaves before a SACK range is pushed to the third place (5.8+,
 * TCP_SACK_BLOCKS_EXPECTED: with timestamps only three blocks fit, and the fourth one back would
 * otherwise never be reported). Of eight segments 0, 4 and 6 are lost: 1-3 are SACKed at once,
 * 5 opens a second block and is held; 7 would open a third, so the held ACK goes first with
 * blocks [5] and [1-3] in the first two places. It stood for one arrival: none saved. */
static void test_sack_compression_third_block(void)
{
    TcpBench *tb = comp_sack_bench(44);
    uint64_t first = 1 + 16 * 1448;
    Skb *seg[8];
    for (int i = 0; i < 8; i++)
        seg[i] = th_take(tb, 0);
    for (int i = 0; i < 8; i++) {
        if (i == 0 || i == 4 || i == 6)
            skb_free(tb->host[0].pool, seg[i]);
        else
            th_deliver_skb(tb, 0, seg[i]);
        if (i == 5) {
            g_assert_cmpuint(th_pending(tb, 1), ==, 3);
            g_assert_cmpuint(tb->b->compressed_ack, ==, 1);
        }
    }
    g_assert_cmpuint(th_pending(tb, 1), ==, 4);
    Skb *ack = tb->out[1].tail;
    g_assert_cmpuint(ack->nsacks, ==, 2);
    g_assert_cmpuint(ack->sack[0].start, ==, first + 5 * 1448);
    g_assert_cmpuint(ack->sack[1].start, ==, first + 1448);
    g_assert_cmpuint(ack->sack[1].end, ==, first + 4 * 1448);
    g_assert_cmpuint(th_ctr(tb, 1, CTR_TcpExtTCPAckCompressed), ==, 0);
    th_free(tb);
}

/* A copy of captured skb with its range moved to [seq, seq + segs MSS): a retransmission cut
 * differently from the original. */
static Skb *recut(TcpBench *tb, const Skb *like, uint64_t seq, uint32_t segs)
{
    uint32_t mss = tb->a->mss_cache;
    Skb *c = skb_clone(tb->host[0].pool, like);
    c->seq = seq;
    c->end_seq = seq + (uint64_t)segs * mss;
    c->len = segs * mss;
    c->gso_segs = (uint16_t)segs;
    return c;
}

/* Out-of-order data that overlaps what the queue holds (tcp_data_queue_ofo). The first segment
 * is lost. (a) Two segments [1, 3) queued, then [2, 4): the overlap [2, 3) is DSACKed at once
 * (TCPDSACKOfoSent) and both skbs stay (tcp_ofo_queue trims later). (b) [2, 3) queued, then
 * [1, 4) covers it: it replaces it, and [2, 3) is DSACKed. Ranges in MSS from the lost one. */
static void test_ofo_overlaps_dsacked(void)
{
    for (int covers = 0; covers <= 1; covers++) {
        TcpBench *tb = bench();
        use_up_quickacks(tb);
        th_run_to(tb, 30 * SIM_MS);
        uint32_t mss = tb->a->mss_cache;
        for (int i = 0; i < 4; i++)
            th_write(tb->a, mss);
        g_assert_cmpuint(th_pending(tb, 0), ==, 4);
        th_drop(tb, 0);
        Skb *one = th_take(tb, 0);
        uint64_t s = one->seq - mss; /* the lost segment's */
        Skb *first = covers ? recut(tb, one, s + 2 * mss, 1) : recut(tb, one, s + mss, 2);
        Skb *second = covers ? recut(tb, one, s + mss, 3) : recut(tb, one, s + 2 * mss, 2);
        uint32_t truesize = second->truesize;
        skb_free(tb->host[0].pool, one);
        th_deliver_skb(tb, 0, first);
        g_assert_cmpuint(th_ctr(tb, 1, CTR_TcpExtTCPDSACKOfoSent), ==, 0);
        th_deliver_skb(tb, 0, second);
        Skb *ack = tb->out[1].tail;
        g_assert_true(ack->dsack);
        g_assert_cmpuint(ack->sack[0].start, ==, s + 2 * mss);
        g_assert_cmpuint(ack->sack[0].end, ==, s + 3 * mss);
        g_assert_cmpuint(th_ctr(tb, 1, CTR_TcpExtTCPDSACKOfoSent), ==, 1);
        g_assert_cmpuint(tb->b->ofo_queue.qlen, ==, covers ? 1 : 2);
        if (covers)
            g_assert_cmpuint(tcp_sk(tb->b)->rmem_alloc, ==, truesize);
        th_free(tb);
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/tcp/ack/quickack-at-start", test_quickack_at_start);
    g_test_add_func("/tcp/ack/delayed-40ms", test_delayed_ack_40ms);
    g_test_add_func("/tcp/ack/two-full-segments", test_ack_after_two_full_segments);
    g_test_add_func("/tcp/ack/quickack-credit-and-data", test_quickack_credit_and_data);
    g_test_add_func("/tcp/ack/full-mss-push-acked-on-read", test_full_mss_push_acked_on_read);
    g_test_add_func("/tcp/ack/full-mss-push-pingpong-waits", test_full_mss_push_pingpong_waits);
    g_test_add_func("/tcp/ack/pingpong-thresh", test_pingpong_thresh);
    g_test_add_func("/tcp/ack/ofo-immediate", test_ofo_immediate_ack);
    g_test_add_func("/tcp/ack/gap-fill-era", test_gap_fill_ack_era);
    g_test_add_func("/tcp/ack/ofo-sack-not-deferred", test_ofo_sack_not_deferred);
    g_test_add_func("/tcp/ack/ofo-measure-rcv-mss", test_ofo_measure_rcv_mss);
    g_test_add_func("/tcp/ack/ofo-overlaps-dsacked", test_ofo_overlaps_dsacked);
    g_test_add_func("/tcp/ack/delack-capped-by-rto-min", test_delack_capped_by_rto_min);
    g_test_add_func("/tcp/ack/delack-cap-with-default-rto-min", test_delack_cap_with_default_rto_min);
    g_test_add_func("/tcp/ack/sack-compression", test_sack_compression);
    g_test_add_func("/tcp/ack/sack-compression-ended-by-an-ack", test_sack_compression_ended_by_an_ack);
    g_test_add_func("/tcp/ack/sack-compression-third-block", test_sack_compression_third_block);
    g_test_add_func("/tcp/ack/sack-compression-deferred-while-owned",
                    test_sack_compression_deferred_while_owned);
    g_test_add_func("/tcp/ack/dsack-duplicate", test_dsack_for_duplicate);
    g_test_add_func("/tcp/ack/delack-deferred-owned", test_delack_deferred_while_owned);
    g_test_add_func("/tcp/ack/delack-retry-owned-2.6", test_delack_retry_while_owned_2_6);
    g_test_add_func("/tcp/ack/delack-blocked-cleanup", test_delack_blocked_acks_on_cleanup);
    g_test_add_func("/tcp/ack/delack-blocked-send-delayed", test_delack_blocked_send_delayed_ack);
    g_test_add_func("/tcp/ack/backlog-ack-defer", test_backlog_ack_defer);
    g_test_add_func("/tcp/ack/quickack-route", test_quickack_route);
    return g_test_run();
}
