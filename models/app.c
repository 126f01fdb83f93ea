/* app.c - netperf-like application threads (see app.h).
 *
 * Each thread is a small state machine over resumable system calls: its step function calls
 * tcp_sendmsg_step / tcp_recvmsg_step until they finish, then returns to user space (where
 * the scheduler may switch it out) and starts the next call. The stream reader asks for up to
 * recv_size bytes per read: netserver's default receive size is lsr_size, the SO_RCVBUF it
 * read with getsockopt() when it set the socket up (netperf nettest_bsd.c recv_tcp_stream and
 * nettest_omni.c: "if (recv_size == 0) recv_size = lsr_size"), i.e. the initial sk_rcvbuf
 * (tcp_rmem[1], 128 KiB since 4.20); it keeps that size while autotuning grows sk_rcvbuf.
 * workloads.W.read_size sets it instead, as netperf -M does.
 */
#include "models/app.h"

#include <glib.h>

#include "sim/evkind.h"

typedef enum { APP_STREAM_SEND, APP_STREAM_RECV, APP_RR_CLIENT, APP_RR_SERVER } AppRole;
typedef enum { PH_USER, PH_CALL, PH_PAUSE } AppPhase;

typedef struct AppThread {
    Task task;
    App *app;
    TcpSock *tp;
    AppRole role;
    AppPhase phase;
    TcpCall call;
    uint64_t recv_size; /* stream reader: bytes asked per recv() (netserver's lsr_size) */
    bool sending;       /* rr: in the send half of the transaction */
    sim_time_t pause_ns; /* sleep after each call that completes a unit (read_pause, think_time) */
    bool pause_pending;  /* the call just finished completed one: sleep before the next */
    SimEvent pause_ev;   /* the end of that sleep (an hrtimer: nanosleep) */
} AppThread;

/* nanosleep's hrtimer gets the task's timer slack: init_task's timer_slack_ns, 50 us, which every
 * normal task inherits (prctl PR_SET_TIMERSLACK changes it; RT tasks have none). The hard expiry,
 * which programs the clock event, is the requested time plus the slack, so on a CPU with no
 * earlier interrupt the sleeper wakes that much late. */
#define APP_TIMER_SLACK_NS (50 * SIM_US)

struct App {
    const WorkloadConf *wc;
    AppThread client, server;
    uint64_t delivered;
    uint64_t transactions;
    uint64_t delivered_base, transactions_base;
};

static void begin_call(AppThread *th)
{
    const WorkloadConf *wc = th->app->wc;
    switch (th->role) {
    case APP_STREAM_SEND:
        tcp_call_init(&th->call, wc->write_size, 0);
        break;
    case APP_STREAM_RECV:
        tcp_call_init(&th->call, th->recv_size, 1);
        break;
    case APP_RR_CLIENT:
        tcp_call_init(&th->call, th->sending ? wc->request_size : wc->response_size,
                      th->sending ? 0 : wc->response_size);
        break;
    case APP_RR_SERVER:
        tcp_call_init(&th->call, th->sending ? wc->response_size : wc->request_size,
                      th->sending ? 0 : wc->request_size);
        break;
    }
    th->phase = PH_CALL;
}

static bool run_call(AppThread *th)
{
    bool send = th->role == APP_STREAM_SEND || ((th->role == APP_RR_CLIENT || th->role == APP_RR_SERVER) && th->sending);
    return send ? tcp_sendmsg_step(th->tp, &th->task, &th->call)
                : tcp_recvmsg_step(th->tp, &th->task, &th->call);
}

/* A call finished: account for it and decide what the thread does next in user space. */
static void call_done(AppThread *th)
{
    App *a = th->app;
    bool was_send = th->sending;
    switch (th->role) {
    case APP_STREAM_SEND:
        break;
    case APP_STREAM_RECV:
        a->delivered += th->call.done;
        break;
    case APP_RR_CLIENT:
        if (!was_send) {
            a->delivered += th->call.done;
            a->transactions++;
        }
        th->sending = !was_send;
        break;
    case APP_RR_SERVER:
        if (!was_send) {
            a->delivered += th->call.done;
            cpu_charge_cost(th->task.cpu, COST_RR_APP);
        }
        th->sending = !was_send;
        break;
    }
}

/* Does the thread sleep after the call that just finished (call_done has run)? The stream reader
 * after every read, the rr client once a response is complete (its next call is a request). */
static bool pause_due(const AppThread *th)
{
    if (!th->pause_ns)
        return false;
    return th->role == APP_STREAM_RECV || (th->role == APP_RR_CLIENT && th->sending);
}

static void pause_end(Sim *sim, void *ctx)
{
    (void)sim;
    AppThread *th = ctx;
    task_wake(&th->task, NULL); /* hrtimer_wakeup: the timer interrupt's cost is not charged */
}

/* One step: continue the call in progress; when it finishes, return to user space (where the
 * thread may be switched out), sleep if the workload pauses there, and enter the next system
 * call, which charges COST_SYSCALL. */
static void thread_step(Task *t)
{
    AppThread *th = t->ctx;
    if (th->phase == PH_CALL) {
        if (!run_call(th))
            return;
        call_done(th);
        th->pause_pending = pause_due(th);
        th->phase = PH_USER;
        if (task_return_to_user(t))
            return;
    }
    if (th->pause_pending) {
        th->pause_pending = false;
        th->phase = PH_PAUSE; /* nanosleep: a system call that blocks until the timer */
        cpu_charge_cost(t->cpu, COST_SYSCALL);
        sim_schedule_at(t->host->sim, &th->pause_ev,
                        cpu_acted_at(t->cpu) + th->pause_ns + APP_TIMER_SLACK_NS);
        task_sleep(t);
        return;
    }
    begin_call(th);
    cpu_charge_cost(t->cpu, COST_SYSCALL);
}

static void thread_init(AppThread *th, App *a, AppRole role, Host *h, TcpSock *tp,
                        const CpuList *cpus, const char *name)
{
    th->app = a;
    th->role = role;
    th->tp = tp;
    th->sending = role == APP_RR_CLIENT;
    /* netperf -M, else getsockopt(SO_RCVBUF) at set-up: lsr_size */
    th->recv_size = a->wc->read_size ? a->wc->read_size : tcp_sk(tp)->rcvbuf;
    th->pause_ns = role == APP_STREAM_RECV ? a->wc->read_pause_ns
                 : role == APP_RR_CLIENT   ? a->wc->think_time_ns
                                           : 0;
    task_init(&th->task, h, name, thread_step, th, cpus);
    sim_event_init(&th->pause_ev, pause_end, th, EVK_APP, (uint32_t)h->id << 16 | role);
    th->phase = PH_USER;
}

App *app_new(const WorkloadConf *wc, uint32_t index, Host *client, TcpSock *cl, Host *server,
             TcpSock *sv)
{
    App *a = g_new0(App, 1);
    a->wc = wc;
    g_autofree char *cn = g_strdup_printf("%s%s/%u", wc->type == WORKLOAD_RR ? "rr-cl:" : "netperf:", wc->name, index);
    g_autofree char *sn = g_strdup_printf("%s%s/%u", wc->type == WORKLOAD_RR ? "rr-sv:" : "netserver:", wc->name, index);
    bool rr = wc->type == WORKLOAD_RR;
    thread_init(&a->client, a, rr ? APP_RR_CLIENT : APP_STREAM_SEND, client, cl, &wc->from_cpus, cn);
    thread_init(&a->server, a, rr ? APP_RR_SERVER : APP_STREAM_RECV, server, sv, &wc->to_cpus, sn);
    return a;
}

void app_free(App *a)
{
    if (!a)
        return;
    AppThread *ths[2] = { &a->client, &a->server };
    for (int i = 0; i < 2; i++)
        if (sim_event_pending(&ths[i]->pause_ev))
            sim_cancel(ths[i]->task.host->sim, &ths[i]->pause_ev);
    task_fini(&a->client.task);
    task_fini(&a->server.task);
    g_free(a);
}

void app_start(App *a)
{
    task_start(&a->server.task);
    task_start(&a->client.task);
}

void app_reset(App *a)
{
    a->delivered_base = a->delivered;
    a->transactions_base = a->transactions;
}

uint64_t app_recv_size(const App *a)
{
    return a->server.recv_size;
}

AppStats app_stats(const App *a)
{
    return (AppStats){ a->delivered - a->delivered_base, a->transactions - a->transactions_base };
}
