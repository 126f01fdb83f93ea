/* test_tcp_qdisc_drop.c - a local qdisc drop is local congestion, not a loss (__tcp_transmit_skb,
 * every era): the device's NET_XMIT_DROP reaches TCP synchronously, which enters CWR
 * (tcp_enter_cwr: ssthresh from the CC, PRR, only from Open/Disorder) and keeps the skb - new
 * data stays unsent at the head of the write queue, a retransmission is not marked
 * retransmitted; the RTO retries a refused retransmission after TCP_RESOURCE_PROBE_INTERVAL
 * without backing off. HZ 1000, CUBIC, MSS 1448. */
#include "models/netdev.h"
#include "tcp_harness.h"

/* The sender's device: a pfifo that refuses the next `drops` skbs, as nic_xmit does when full
 * (the skb is freed and its socket uncharged, then NET_XMIT_DROP); else th_capture. */
typedef struct Qdisc {
    TcpBench *tb;
    int side;
    uint32_t drops, dropped;
} Qdisc;

static int qdisc_xmit(void *ctx, Skb *skb, Cpu *cpu)
{
    Qdisc *q = ctx;
    if (!q->drops)
        return th_capture(th_ctx[q->side], skb, cpu);
    q->drops--;
    q->dropped++;
    Sock *sk = skb->sk;
    if (sk) {
        sk->wmem_alloc -= skb->truesize;
        skb->sk = NULL;
        sock_wfree(sk, skb, cpu);
    }
    skb_free(q->tb->host[q->side].pool, skb);
    return NET_XMIT_DROP;
}

static TcpBench *bench(Qdisc *q, int side)
{
    TcpBench *tb = th_new();
    th_connect(tb, 1500);
    *q = (Qdisc){ .tb = tb, .side = side };
    tcp_set_xmit_hook(side ? tb->b : tb->a, qdisc_xmit, q);
    return tb;
}

/* cwnd 20, a wide window: 10 MSS make one TSO skb (at most cwnd/2 per skb). The qdisc refuses
 * it: nothing left the host, so snd_nxt, packets_out and the retransmit queue stay as they were
 * and the skb is still the write queue's head; the clone's truesize was given back (TSQ sees
 * nothing below TCP). CWR: ssthresh = 20 * 717 / 1024 = 14 (CUBIC), prior_cwnd 20, high_seq =
 * snd_nxt, no undo. TcpOutSegs counted the attempt (before the verdict, as the kernel does);
 * TcpRetransSegs nothing. Nothing in flight and data waiting: the zero-window probe timer is
 * armed, as tcp_write_xmit's return value asks. The next push sends the same skb (prr_out 10);
 * its ACK, above high_seq, ends CWR with cwnd = ssthresh (tcp_end_cwnd_reduction). */
static void test_new_data_kept_unsent(void)
{
    Qdisc q;
    TcpBench *tb = bench(&q, 0);
    TcpSock *a = tb->a;
    uint32_t mss = a->mss_cache;
    a->snd_cwnd = 20;
    a->snd_wnd = a->max_window = 4u << 20;
    q.drops = 1;
    th_write(a, 10 * mss);
    g_assert_cmpuint(q.dropped, ==, 1);
    g_assert_cmpuint(th_pending(tb, 0), ==, 0);
    g_assert_cmpuint(a->snd_nxt, ==, a->snd_una);
    g_assert_cmpuint(a->packets_out, ==, 0);
    g_assert_null(a->rtx_queue.head);
    g_assert_cmpuint(a->write_queue.qlen, ==, 1);
    g_assert_cmpuint(a->write_queue.head->seq, ==, a->snd_una);
    g_assert_cmpuint(a->write_queue.head->len, ==, 10 * mss);
    g_assert_cmpuint(tcp_sk(a)->wmem_alloc, ==, 0);
    g_assert_cmpuint(a->ca_state, ==, TCP_CA_CWR);
    g_assert_cmpuint(a->prior_cwnd, ==, 20);
    g_assert_cmpuint(a->snd_ssthresh, ==, 14);
    g_assert_cmpuint(a->high_seq, ==, a->snd_nxt);
    g_assert_cmpuint(a->undo_marker, ==, 0);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpOutSegs), ==, 10);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpRetransSegs), ==, 0);
    g_assert_cmpuint(a->icsk_pending, ==, ICSK_TIME_PROBE0);

    tcp_push_pending_frames(a, NULL);
    g_assert_cmpuint(th_pending(tb, 0), ==, 1);
    g_assert_cmpuint(a->snd_nxt, ==, a->snd_una + 10 * (uint64_t)mss);
    g_assert_cmpuint(a->packets_out, ==, 10);
    g_assert_cmpuint(a->prr_out, ==, 10);
    g_assert_null(a->write_queue.head);
    th_write(a, 2 * mss); /* data beyond high_seq, so that an ACK can pass it */
    th_run_to(tb, 10 * SIM_MS);
    th_pump(tb);
    th_run_to(tb, 300 * SIM_MS);
    th_pump(tb);
    g_assert_cmpuint(a->snd_una, ==, a->snd_nxt);
    g_assert_cmpuint(a->ca_state, ==, TCP_CA_Open);
    g_assert_cmpuint(a->snd_ssthresh, ==, 14);
    g_assert_cmpuint(a->snd_cwnd, >=, 14);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpRetransSegs), ==, 0);
    th_free(tb);
}

/* The fast-retransmit setup of test_tcp_recovery.c: 10 MSS as two skbs of 5, the first lost on
 * the wire, the SACK for the second puts the sender in Recovery with 5 segments lost. The qdisc
 * refuses the retransmission (2 MSS: TSO autosizing at the new pacing rate caps it), which
 * counts in TcpRetransSegs (before the attempt, as 6.x does) and
 * TcpExtTCPRetransFail, carries EVER_RETRANS, but is not marked retransmitted (no TCPCB_SACKED_RETRANS,
 * retrans_out 0) and TCPFastRetrans does not count it; CWR is not entered from Recovery. With
 * the qdisc kept full every later attempt fails the same way, and the RTO enters Loss and
 * re-arms HZ/2 later with neither backoff nor a longer RTO; once the qdisc has room that timer
 * sends the retransmission and the RTO backs off as usual. */
static void test_retransmission_refused(void)
{
    Qdisc q;
    TcpBench *tb = bench(&q, 0);
    TcpSock *a = tb->a;
    uint32_t mss = a->mss_cache;
    th_write(a, 10 * mss);
    g_assert_cmpuint(th_pending(tb, 0), ==, 2);
    th_drop(tb, 0);
    th_run_to(tb, 10 * SIM_MS);
    th_deliver(tb, 0);
    th_run_to(tb, 20 * SIM_MS);
    q.drops = 1;
    th_deliver(tb, 1);
    g_assert_cmpuint(q.dropped, ==, 1);
    g_assert_cmpuint(th_pending(tb, 0), ==, 0);
    g_assert_cmpuint(a->ca_state, ==, TCP_CA_Recovery);
    g_assert_cmpuint(a->lost_out, ==, 5);
    g_assert_cmpuint(a->retrans_out, ==, 0);
    Skb *head = a->rtx_queue.head;
    g_assert_false(head->sacked & TCPCB_SACKED_RETRANS);
    g_assert_true(head->sacked & TCPCB_EVER_RETRANS);
    uint32_t tried = tcp_skb_pcount(head);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpRetransSegs), ==, tried);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPRetransFail), ==, tried);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPFastRetrans), ==, 0);

    uint32_t rto = a->icsk_rto;
    q.drops = UINT32_MAX; /* the qdisc stays full */
    sim_time_t t = 20 * SIM_MS;
    while (a->ca_state != TCP_CA_Loss && t < 2 * SIM_S)
        th_run_to(tb, t += SIM_MS);
    g_assert_cmpuint(a->ca_state, ==, TCP_CA_Loss);
    g_assert_cmpuint(a->icsk_backoff, ==, 0);
    g_assert_cmpuint(a->icsk_rto, ==, rto);
    g_assert_cmpuint(a->icsk_pending, ==, ICSK_TIME_RETRANS);
    g_assert_cmpuint(a->icsk_timeout, ==, tcp_jiffies(a) + 500);
    g_assert_cmpuint(a->retrans_out, ==, 0);
    g_assert_cmpuint(th_pending(tb, 0), ==, 0);
    uint64_t failed = th_ctr(tb, 0, CTR_TcpExtTCPRetransFail);
    g_assert_cmpuint(failed, >, tried);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpRetransSegs), ==, failed);

    q.drops = 0;
    th_run_to(tb, (sim_time_t)a->icsk_timeout * SIM_MS);
    g_assert_cmpuint(th_pending(tb, 0), ==, 1);
    g_assert_cmpuint(tb->out[0].head->seq, ==, a->snd_una);
    g_assert_cmpuint(a->retrans_out, ==, 1);
    g_assert_cmpuint(a->icsk_backoff, ==, 1);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPRetransFail), ==, failed);
    th_free(tb);
}

/* A pure ACK the qdisc refuses enters CWR too (__tcp_send_ack ignores the error, but
 * __tcp_transmit_skb has already called tcp_enter_cwr): the receiver b, cwnd 10 -> ssthresh 7. */
static void test_pure_ack_refused(void)
{
    Qdisc q;
    TcpBench *tb = bench(&q, 1);
    q.drops = 1;
    th_write(tb->a, 2 * tb->a->mss_cache);
    th_deliver(tb, 0);
    g_assert_cmpuint(q.dropped, ==, 1);
    g_assert_cmpuint(th_pending(tb, 1), ==, 0);
    g_assert_cmpuint(tb->b->ca_state, ==, TCP_CA_CWR);
    g_assert_cmpuint(tb->b->snd_ssthresh, ==, 7);
    th_free(tb);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/tcp/qdisc-drop/new-data-kept-unsent", test_new_data_kept_unsent);
    g_test_add_func("/tcp/qdisc-drop/retransmission-refused", test_retransmission_refused);
    g_test_add_func("/tcp/qdisc-drop/pure-ack-refused", test_pure_ack_refused);
    return g_test_run();
}
