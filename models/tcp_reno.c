/* tcp_reno.c - Reno/NewReno congestion control (RFC 5681): slow start, then one segment per
 * cwnd of ACKed data; on loss ssthresh = max(cwnd/2, 2); undo restores the prior cwnd. */
#include "models/tcp_internal.h"

static uint32_t tcp_reno_ssthresh(TcpSock *tp)
{
    uint32_t half = tp->snd_cwnd >> 1;
    return half > 2 ? half : 2;
}

static void tcp_reno_cong_avoid(TcpSock *tp, uint64_t ack, uint32_t acked)
{
    (void)ack;
    if (!tcp_cong_avoid_start(tp, &acked))
        return;
    tcp_cong_avoid_ai(tp, tp->snd_cwnd, acked);
}

static const TcpCongOps tcp_reno = {
    .name = "reno",
    .ssthresh = tcp_reno_ssthresh,
    .cong_avoid = tcp_reno_cong_avoid,
    .undo_cwnd = tcp_reno_undo_cwnd,
};

const TcpCongOps *tcp_reno_ops(void)
{
    return &tcp_reno;
}
