/* tcp.h - the public face of the TCP model: established connections as Linux runs them.
 *
 * A TcpSock embeds the core Sock (lock, backlog, buffers) and adds the protocol: sender
 * (write/retransmit queues, cwnd, TSO sizing, TSQ, pacing), receiver (in-order and out-of-order
 * queues, delayed ACK, quick-ACK, DSACK), timers on the host's kernel-style timers (one
 * retransmit timer shared by RTO, TLP and RACK's reordering timeout; a delayed-ACK timer),
 * loss recovery (SACK, RACK-TLP, F-RTO, undo) and congestion control behind an ops table.
 * The protocol is split like the kernel's: tcp_input.c, tcp_output.c, tcp_timer.c, tcp_cong.c,
 * tcp_cubic.c, tcp_reno.c, tcp.c (sendmsg/recvmsg).
 *
 * Connections are created established (no handshake): tcp_connect_pair() wires two endpoints
 * with their initial sequence numbers, MSS, windows and options.
 */
#ifndef SKSIM_TCP_H
#define SKSIM_TCP_H

#include <stdbool.h>
#include <stdint.h>

#include "models/cpu.h"
#include "models/host.h"
#include "models/skb.h"
#include "models/sock.h"

typedef struct TcpSock TcpSock;

/* A new endpoint on host h with local port `port`, registered in h->socks. */
TcpSock *tcp_sock_new(Host *h, uint32_t conn, uint16_t port);
void tcp_sock_free(TcpSock *tp);
Sock *tcp_sk(TcpSock *tp);
TcpSock *tcp_from_sk(Sock *sk);
/* Establish a connection between a (client) and b (server): ports, ISNs, MSS from the path MTU
 * (mss = mtu - 40 - 12 for timestamps), windows, SACK/timestamps from the hosts' settings. */
void tcp_connect_pair(TcpSock *a, TcpSock *b, uint32_t mtu);
/* The RTT sample each end of a connected pair took during the handshake it skipped: the client
 * times its SYN against the SYN-ACK (tcp_ack on the SYN-ACK), the server its SYN-ACK against the
 * final ACK (tcp_synack_rtt_meas). Without it (unit tests) srtt stays 0 and the first RTO and
 * loss probe wait TCP_TIMEOUT_INIT, 1 s, as for a connection whose SYN was retransmitted. */
void tcp_handshake_rtt(TcpSock *a, TcpSock *b, uint32_t rtt_us);

/* Where the socket's segments go: ip_output by default. A test harness sets a hook to capture
 * them (packetdrill style); the hook owns the skb and returns the device's verdict as ip_output
 * does (NET_XMIT_SUCCESS = 0, or NET_XMIT_DROP = 1 to play a full qdisc: models/netdev.h). */
typedef int (*TcpXmitHook)(void *ctx, Skb *skb, Cpu *cpu);
void tcp_set_xmit_hook(TcpSock *tp, TcpXmitHook fn, void *ctx);

/* Softirq receive of one skb (tcp_v4_rcv): TcpInSegs, then process now (socket not owned),
 * prequeue (when enabled and a reader is blocked), or tcp_add_backlog. */
void tcp_v4_rcv(Sock *sk, Skb *skb, Cpu *cpu);

/* ---- system calls, resumable from a task's step (see cpu.h) ---- */
typedef struct TcpCall {
    uint64_t len;      /* send: bytes to write; recv: bytes wanted (the call returns once at
                          least `target` bytes were copied, like recv() without MSG_WAITALL) */
    uint64_t target;   /* recv: minimum to return (SO_RCVLOWAT, default 1) */
    uint64_t done;     /* bytes written/copied so far */
    /* private state of the call */
    uint32_t phase;
    uint32_t process_backlog; /* sendmsg: new skbs since the last backlog flush */
} TcpCall;

static inline void tcp_call_init(TcpCall *c, uint64_t len, uint64_t target)
{
    *c = (TcpCall){ .len = len, .target = target ? target : 1 };
}
/* write(): lock_sock, copy into skbs of size_goal, push, flush the backlog every
 * stack.sendmsg.flush_backlog_every new skbs, wait for sndbuf space (releasing the lock),
 * release_sock. Returns true when the call has finished (c->done == c->len). */
bool tcp_sendmsg_step(TcpSock *tp, Task *t, TcpCall *c);
/* read(): lock_sock, copy from the receive queue; when the queue is empty, flush the backlog if
 * `target` bytes were copied and a backlog exists (tcp_cleanup_rbuf first when
 * stack.recvmsg.cleanup_before_flush), else tcp_cleanup_rbuf and sleep (sk_wait_data); at the
 * end tcp_cleanup_rbuf, release_sock. */
bool tcp_recvmsg_step(TcpSock *tp, Task *t, TcpCall *c);

/* ---- results ---- */
typedef struct TcpInfo {
    uint64_t bytes_acked;      /* sender: cumulative bytes acked */
    uint64_t bytes_received;   /* receiver: bytes copied to the application */
    uint64_t retrans_segs;
    sim_time_t srtt_ns;
    uint32_t cwnd;             /* segments */
    uint32_t ssthresh;
    uint64_t packets_out;
    uint64_t bytes_in_flight;  /* snd_nxt - snd_una: sent, not cumulatively acked */
    uint8_t ca_state;          /* TCP_CA_Open .. TCP_CA_Loss */
    uint32_t rcvbuf;           /* receiver: sk_rcvbuf (autotuned) */
    uint32_t rcv_wnd;          /* receiver: window offered by its last ACK, bytes */
    uint32_t rcv_rtt_us;       /* receiver: its RTT estimate for autotuning (0 = none yet) */
    uint64_t rmem_alloc;       /* receiver: truesize bytes in its receive and out-of-order queues */
    uint64_t backlog_len;      /* receiver: truesize bytes in its socket backlog */
    uint8_t rcv_wscale;        /* window scale it applies to its own advertised window */
    uint8_t snd_wscale;        /* the peer's (applied to the windows it receives) */
    uint32_t advmss;           /* tcpi_advmss: the receive MSS, less the timestamp option */
    uint32_t syn_mss;          /* the MSS option its SYN carried (advmss before the option
                                * came off: tcp_advertise_mss / dst_metric_advmss) */
    bool ts_ok, sack_ok;       /* options the handshake agreed */
} TcpInfo;
TcpInfo tcp_get_info(const TcpSock *tp);

#endif
