/* app.h - netperf-like workloads: application threads that drive TCP connections.
 *
 * stream (netperf TCP_STREAM): the client thread writes write_size bytes per send() in a loop;
 * the server thread (netserver) reads in a loop. rr (netperf TCP_RR): the client sends a
 * request and blocks reading the response; the server reads a request, spends rr_app CPU time
 * and answers. Each thread is a Task pinned to the workload's CPU list (netperf -T), and every
 * system call ends with a return to user space (a preemption point in every kernel model).
 */
#ifndef SKSIM_APP_H
#define SKSIM_APP_H

#include "models/cpu.h"
#include "models/tcp.h"
#include "sim/config.h"

typedef struct App App;

/* One flow of a workload: a client thread on `client` and a server thread on `server`, each
 * driving its end of the connection (cl, sv). */
App *app_new(const WorkloadConf *wc, uint32_t index, Host *client, TcpSock *cl, Host *server,
             TcpSock *sv);
void app_free(App *a);
void app_start(App *a);
/* The end of the warm-up: results count from now. */
void app_reset(App *a);

typedef struct AppStats {
    uint64_t bytes_delivered;  /* to the receiving application since the reset */
    uint64_t transactions;     /* completed request/response pairs since the reset */
} AppStats;
AppStats app_stats(const App *a);
/* The stream reader's recv() size: its socket's sk_rcvbuf when the App was made (netserver's
 * lsr_size), not the autotuned value. */
uint64_t app_recv_size(const App *a);

#endif
