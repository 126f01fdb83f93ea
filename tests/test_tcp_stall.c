/* test_tcp_stall.c - the seed-000 chain of notes E.4, step by step: the receiver's owner holds
 * its socket (descheduled inside __release_sock), arrivals go to the backlog and no ACK leaves;
 * the sender's TLP and RTO fire and retransmit; when the owner drains the backlog, one deferred
 * cumulative ACK (6.7+ TCP_ACK_DEFERRED) leaves; DSACKs and undo follow.
 *
 * Both hosts: HZ 1000, rto_min 5 ms (the seed's lowered route rto_min), SACK, timestamps (TS
 * clock = ms + 1). Warm-up: one MSS at t = 0 ACKed at 100 us -> srtt 100 us, rttvar =
 * max(200 us, rto_min) = 5000 us, RTO = usecs_to_jiffies(100 + 5000) = 6 jiffies.
 * At 1 ms the receiver becomes owned and the sender writes two skbs of 2 MSS, A = [1449, 4345)
 * and B = [4345, 7241) (TSval 2). PTO with 4 packets out = 2 * 100 us + 2 ms = 2200 us -> 3
 * jiffies (< RTO 6): 4 ms. */
#include "tcp_harness.h"

static TcpBench *bench(bool tlp)
{
    TcpBench *tb = th_new();
    for (int i = 0; i < 2; i++) {
        tb->conf[i].tcp.rto_min_ns = 5 * SIM_MS;
        tb->conf[i].tcp.tlp = tlp;
    }
    th_connect(tb, 1500);
    th_write(tb->a, 1448);
    th_deliver(tb, 0);
    th_run_to(tb, 100 * SIM_US);
    th_deliver(tb, 1);
    g_assert_cmpuint(tb->a->srtt_us, ==, 800);
    g_assert_cmpuint(tb->a->rttvar_us, ==, 5000);
    g_assert_cmpuint(tb->a->icsk_rto, ==, 6);
    th_run_to(tb, SIM_MS);
    tcp_sk(tb->b)->owned = true;
    th_write(tb->a, 2 * 1448);
    th_write(tb->a, 2 * 1448);
    g_assert_cmpuint(th_pending(tb, 0), ==, 2);
    return tb;
}

/* With TLP. Both skbs reach the backlog. 4 ms: the probe resends B's last MSS [5793, 7241)
 * (TCPLossProbes 1), the RTO restarts: 4 + 6 = 10 ms. 10 ms: TCPTimeouts 1, Loss (undo_retrans
 * -1 -> the head MSS [1449, 2897) is resent: 1), retrans_stamp = 11. Both copies reach the
 * backlog. 11 ms: the drain - A and B in order (ACK deferred: quick-ACK wants one); the TLP
 * copy, a duplicate above rcv_wup: DelayedACKLost, DSACK; the RTO copy, a duplicate at rcv_wup:
 * ts_recent takes its TSval 11, DelayedACKLost, its DSACK replaces the first (one per ACK).
 * tcp_release_cb sends ONE ACK: ack 7241, TSecr 11, DSACK [1449, 2897).
 * Sender: TSecr 11 is not older than retrans_stamp 11 (no Eifel), but the DSACK covers the only
 * retransmission of the episode (undo_retrans 1 -> 0): tcp_try_undo_loss -> TCPLossUndo 1,
 * TCPSpuriousRTOs 0; TCPDSACKRecv 1, TCPDSACKRecvSegs 1; TcpRetransSegs 2. */
static void test_stall_tlp_rto_dsack_undo(void)
{
    TcpBench *tb = bench(true);
    g_assert_cmpuint(tb->a->icsk_pending, ==, ICSK_TIME_LOSS_PROBE);
    g_assert_cmpuint(tb->a->icsk_timeout, ==, 4);
    th_deliver(tb, 0);
    th_deliver(tb, 0);
    th_run_to(tb, 4 * SIM_MS);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPLossProbes), ==, 1);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_SksimTLPPeerOwnerOffCpu), ==, 1); /* tcp_diag.c */
    Skb *probe = th_take(tb, 0);
    g_assert_cmpuint(probe->seq, ==, 5793);
    th_deliver_skb(tb, 0, probe);
    g_assert_cmpuint(tb->a->icsk_timeout, ==, 10);
    th_run_to(tb, 10 * SIM_MS);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPTimeouts), ==, 1);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_SksimRTOPeerOwnerOffCpu), ==, 1);
    g_assert_cmpuint(tb->a->retrans_stamp, ==, 11);
    Skb *rto = th_take(tb, 0);
    g_assert_cmpuint(rto->seq, ==, 1449);
    g_assert_cmpuint(rto->len, ==, 1448);
    th_deliver_skb(tb, 0, rto);
    g_assert_cmpuint(th_pending(tb, 1), ==, 0); /* nothing left the owned receiver */
    th_run_to(tb, 11 * SIM_MS);
    th_drain(tb->b);
    g_assert_cmpuint(th_pending(tb, 1), ==, 1);
    g_assert_cmpuint(th_ctr(tb, 1, CTR_TcpExtDelayedACKLost), ==, 2);
    g_assert_cmpuint(th_ctr(tb, 1, CTR_TcpExtTCPDSACKOldSent), ==, 2);
    Skb *ack = th_take(tb, 1);
    g_assert_cmpuint(ack->ack_seq, ==, 7241);
    g_assert_cmpuint(ack->tsecr, ==, 11);
    g_assert_true(ack->dsack);
    g_assert_cmpuint(ack->sack[0].start, ==, 1449);
    g_assert_cmpuint(ack->sack[0].end, ==, 2897);
    th_deliver_skb(tb, 1, ack);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPDSACKRecv), ==, 1);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPDSACKRecvSegs), ==, 1);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPLossUndo), ==, 1);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPSpuriousRTOs), ==, 0);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpRetransSegs), ==, 2);
    g_assert_cmpuint(tb->a->ca_state, ==, TCP_CA_Open);
    g_assert_cmpuint(tb->a->snd_cwnd, >=, 10);
    th_free(tb);
}

/* F-RTO decides (TLP off). A reaches the backlog; B is late. RTO at 1 + 6 = 7 ms: the head
 * MSS of A is resent (retrans_stamp 8) and reaches the backlog before B. 8 ms: the drain - A in
 * order (deferred ACK); the RTO copy at rcv_wup: ts_recent = 8, DSACK; then B, new in-order
 * data: tcp_data_queue drops the pending DSACK (rx_opt.dsack = 0). The one ACK: ack 7241,
 * TSecr 8, no DSACK. Sender: no Eifel (8 is not older than 8), undo_retrans still 1, but the
 * ACK covers never-retransmitted data sent before the RTO ([2897, 7241): FLAG_ORIG_SACK_ACKED)
 * -> F-RTO: TCPSpuriousRTOs 1, TCPLossUndo 1, no DSACK counted. */
static void test_stall_frto_spurious(void)
{
    TcpBench *tb = bench(false);
    th_deliver(tb, 0);
    Skb *late_b = th_take(tb, 0);
    g_assert_cmpuint(tb->a->icsk_timeout, ==, 7);
    th_run_to(tb, 7 * SIM_MS);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPTimeouts), ==, 1);
    g_assert_cmpuint(tb->a->retrans_stamp, ==, 8);
    g_assert_cmpuint(tb->a->frto, ==, 1);
    th_deliver(tb, 0); /* the RTO copy */
    th_deliver_skb(tb, 0, late_b);
    th_run_to(tb, 8 * SIM_MS);
    th_drain(tb->b);
    g_assert_cmpuint(th_pending(tb, 1), ==, 1);
    g_assert_cmpuint(th_ctr(tb, 1, CTR_TcpExtTCPDSACKOldSent), ==, 1);
    Skb *ack = th_take(tb, 1);
    g_assert_cmpuint(ack->ack_seq, ==, 7241);
    g_assert_cmpuint(ack->tsecr, ==, 8);
    g_assert_false(ack->dsack);
    th_deliver_skb(tb, 1, ack);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPSpuriousRTOs), ==, 1);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPLossUndo), ==, 1);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPDSACKRecv), ==, 0);
    g_assert_cmpuint(tb->a->ca_state, ==, TCP_CA_Open);
    th_free(tb);
}

/* What the receiver was doing when the sender's probe fired (tcp_diag.c), not owned this time.
 * After the same warm-up and with the receiver's quick-ACKs used up, at 1 ms the sender writes
 * two skbs of one MSS each; the first arrives and, one MSS only, waits for the delayed ACK
 * (4 jiffies = rto_min - 1: 5 ms); the second is lost. PTO with 2 packets out: 3 jiffies,
 * 4 ms, while the ACK is still held -> DelayedAck. The probe is lost too; at 5 ms the delayed
 * ACK leaves and is lost. The RTO (re-armed at the probe: 4 + 6 = 10 ms) then finds the
 * receiver owing nothing -> Other. */
static void test_stall_diag_peer_classes(void)
{
    TcpBench *tb = th_new();
    for (int i = 0; i < 2; i++)
        tb->conf[i].tcp.rto_min_ns = 5 * SIM_MS;
    th_connect(tb, 1500);
    th_write(tb->a, 1448);
    th_deliver(tb, 0);
    th_run_to(tb, 100 * SIM_US);
    th_deliver(tb, 1);
    th_run_to(tb, SIM_MS);
    tb->b->ack.quick = 0; /* past the quick-ACKs of a new connection (tcp_incr_quickack) */
    th_write(tb->a, 1448);
    th_write(tb->a, 1448);
    g_assert_cmpuint(th_pending(tb, 0), ==, 2);
    th_deliver(tb, 0);
    th_drop(tb, 0);
    g_assert_cmpuint(th_pending(tb, 1), ==, 0);
    g_assert_true(tb->b->ack.pending & ICSK_ACK_TIMER);
    th_run_to(tb, 4 * SIM_MS);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPLossProbes), ==, 1);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_SksimTLPPeerDelayedAck), ==, 1);
    th_drop(tb, 0);
    th_run_to(tb, 5 * SIM_MS);
    g_assert_cmpuint(th_pending(tb, 1), ==, 1);
    th_drop(tb, 1);
    th_run_to(tb, 10 * SIM_MS);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_TcpExtTCPTimeouts), ==, 1);
    g_assert_cmpuint(th_ctr(tb, 0, CTR_SksimRTOPeerOther), ==, 1);
    for (int c = CTR_SksimTLPPeerOwnerOffCpu; c <= CTR_SksimRTOPeerOther; c++)
        if (c != CTR_SksimTLPPeerDelayedAck && c != CTR_SksimRTOPeerOther)
            g_assert_cmpuint(th_ctr(tb, 0, (CounterId)c), ==, 0);
    th_free(tb);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/tcp/stall/tlp-rto-dsack-undo", test_stall_tlp_rto_dsack_undo);
    g_test_add_func("/tcp/stall/frto-spurious", test_stall_frto_spurious);
    g_test_add_func("/tcp/stall/diag-peer-classes", test_stall_diag_peer_classes);
    return g_test_run();
}
