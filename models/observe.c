/* observe.c - turns model objects (hosts, CPUs, tasks, sockets) into the lines of the event log
 * and the tracks and events of the trace; the hook sites in the models call only this.
 *
 * Why a separate layer: sim/trace.c and sim/evlog.c are plain writers that know nothing of the
 * models, and the models should not know the trace's pid/tid layout or the log's line format.
 * Everything here runs only when the host's log_mask says someone is watching, so it may
 * allocate and format freely.
 */
#include "models/observe.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Fields longer than this are cut (a hook's fields are a few short key=value pairs). */
#define OBS_FIELDS_MAX 512
#define OBS_MAX_ARGS 16

static const Cpu *acting_or(const Host *h, const Cpu *cpu)
{
    return cpu ? cpu : cpu_acting(h);
}

static void log_line(const Host *h, const Cpu *cpu, const char *event, const char *fields)
{
    const Cpu *c = acting_or(h, cpu);
    evlog_write(h->log, sim_now(h->sim), h->name, c ? (int)cpu_index(c) : -1,
                c ? cpu_context_name(c) : "-", event, fields);
}

void obs_log(const Host *h, const Cpu *cpu, const char *event, const char *fmt, ...)
{
    if (!h->log)
        return;
    char fields[OBS_FIELDS_MAX];
    va_list ap;
    va_start(ap, fmt);
    g_vsnprintf(fields, sizeof fields, fmt, ap);
    va_end(ap);
    log_line(h, cpu, event, fields);
}

/* "k=v k=v" -> trace args (numbers where the whole value is an integer). Cuts fields in place. */
static size_t parse_args(char *fields, TraceArg *args, size_t max)
{
    size_t n = 0;
    char *save = NULL;
    for (char *tok = strtok_r(fields, " ", &save); tok && n < max; tok = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(tok, '=');
        if (!eq)
            continue;
        *eq = '\0';
        char *end = NULL;
        long long v = strtoll(eq + 1, &end, 10);
        args[n++] = (eq[1] && end && *end == '\0') ? (TraceArg){ .key = tok, .num = v }
                                                  : (TraceArg){ .key = tok, .str = eq + 1 };
    }
    return n;
}

static void trace_event(const Host *h, const Cpu *cpu, const Sock *sk, const char *event,
                        char *fields)
{
    const Cpu *c = acting_or(h, cpu);
    TraceArg args[OBS_MAX_ARGS];
    size_t n = 0;
    uint32_t tid;
    if (sk) {
        tid = OBS_SOCK_TID_BASE + sk->port;
        if (c) {
            args[n++] = (TraceArg){ .key = "cpu", .num = cpu_index(c) };
            args[n++] = (TraceArg){ .key = "context", .str = cpu_context_name(c) };
        }
    } else if (c) {
        tid = cpu_index(c);
    } else {
        return; /* on no CPU and no socket: the log has it */
    }
    n += parse_args(fields, args + n, OBS_MAX_ARGS - n);
    const char *cat = sk ? "sock" : "cpu";
    trace_instant(h->trace, obs_pid(h), tid, sim_now(h->sim), cat, event, args, n);
}

void obs_event(const Host *h, uint32_t cat, const Cpu *cpu, const Sock *sk, const char *event,
               const char *fmt, ...)
{
    char fields[OBS_FIELDS_MAX];
    va_list ap;
    va_start(ap, fmt);
    g_vsnprintf(fields, sizeof fields, fmt, ap);
    va_end(ap);
    if ((h->log_mask & cat) && h->log) {
        if (sk) {
            char line[OBS_FIELDS_MAX + 16];
            g_snprintf(line, sizeof line, "sk=%u%s%s", sk->port, fields[0] ? " " : "", fields);
            log_line(h, cpu, event, line);
        } else {
            log_line(h, cpu, event, fields);
        }
    }
    if (h->trace)
        trace_event(h, cpu, sk, event, fields);
}

void obs_cpu_slice(const Host *h, uint32_t index, const char *cat, const char *name)
{
    if (h->trace)
        trace_slice_set(h->trace, obs_pid(h), index, sim_now(h->sim), cat, name);
}

void obs_sock_owner(const Sock *sk, const Task *t, bool owned)
{
    const Host *h = sk->host;
    if (h->trace) {
        char name[64] = "owned by ";
        if (owned)
            g_strlcat(name, t->name, sizeof name);
        trace_slice_set(h->trace, obs_pid(h), OBS_SOCK_TID_BASE + sk->port, sim_now(h->sim),
                        "lock", owned ? name : NULL);
    }
    SIM_LOG(h, LOG_BACKLOG, t->cpu, owned ? "sock_lock" : "sock_release",
            "sk=%u owner=%s backlog=%" PRIu64, sk->port, t->name, sk->backlog_len);
}

void obs_sock_backlog(const Sock *sk, const Cpu *cpu, const char *why)
{
    const Host *h = sk->host;
    if (h->trace) {
        char name[32];
        g_snprintf(name, sizeof name, "backlog sk:%u", sk->port);
        trace_counter(h->trace, obs_pid(h), sim_now(h->sim), name, "bytes", (double)sk->backlog_len);
    }
    SIM_LOG(h, LOG_BACKLOG, cpu, "backlog", "sk=%u op=%s len=%" PRIu64 " skbs=%u", sk->port, why,
            sk->backlog_len, sk->backlog.qlen);
}

void obs_attach_host(Host *h, Trace *trace, EventLog *log, uint32_t mask)
{
    h->trace = trace;
    h->log = log;
    h->log_mask = (log ? mask & LOG_ALL : 0) | (trace ? OBS_TRACE : 0);
    if (!trace)
        return;
    uint32_t pid = obs_pid(h);
    trace_process_name(trace, pid, h->name, (int)h->id);
    for (uint32_t i = 0; i < h->ncpus; i++) {
        char name[32];
        g_snprintf(name, sizeof name, "cpu%u", i);
        trace_thread_name(trace, pid, i, name, (int)i);
    }
    for (guint i = 0; i < h->socks->len; i++) {
        const Sock *sk = g_ptr_array_index(h->socks, i);
        char name[64];
        g_snprintf(name, sizeof name, "sk:%u (conn %u)", sk->port, sk->conn);
        trace_thread_name(trace, pid, OBS_SOCK_TID_BASE + sk->port, name,
                          (int)(OBS_SOCK_TID_BASE + sk->port));
    }
}

void obs_detach_host(Host *h)
{
    h->trace = NULL;
    h->log = NULL;
    h->log_mask = 0;
}
