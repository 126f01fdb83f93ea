/* host.h - one simulated machine: its CPUs, network devices, sockets, counters and skb pool.
 *
 * Plain data shared by the models of a host; each model keeps its own state behind its own
 * header and reaches its neighbours through this struct.
 */
#ifndef SKSIM_HOST_H
#define SKSIM_HOST_H

#include <stdint.h>

#include "sim/config.h"
#include "sim/counters.h"
#include "sim/rng.h"
#include "sim/sim.h"

typedef struct Cpu Cpu;
typedef struct NetDev NetDev;
typedef struct SkbPool SkbPool;
typedef struct Sock Sock;
typedef struct Skb Skb;
typedef struct Softnet Softnet;
typedef struct Trace Trace;
typedef struct EventLog EventLog;

typedef struct Host {
    uint16_t id;               /* index in the world, 0-based */
    const char *name;
    Sim *sim;
    const HostConf *conf;
    const StackConf *stack;
    uint32_t hz;               /* effective HZ (host's or scenario's) */
    sim_time_t tick_phase;     /* hosts.H.tick_phase modulo one jiffy */
    CounterSet ctr;
    uint32_t ncpus;
    Cpu **cpus;
    uint32_t nr_rqs_waiting;   /* CPUs with a task waiting on their run queue (models/sched.h
                                  rq_share_waiting_count; the kernel's rd->overload) */
    Softnet *softnet;          /* each CPU's backlog of received skbs (models/softnet.h) */
    NetDev *loopback;          /* always present */
    NetDev **devs;             /* devices towards links, in link order */
    uint32_t ndevs;
    SkbPool *pool;
    GPtrArray *socks;          /* Sock*, by local port - 1 (ports are 1..n, assigned in order) */
    uint64_t drop_tally;       /* packets freed or lost by every drop path, whichever counter
                                  counts them (models/invariants.c checks the two agree) */
    uint64_t dev_drops_at_reset; /* host_dev_drops() when the counters were last reset: the
                                  Sksim*Drops counters count from there */
    /* observers (models/observe.h), attached by sim/run_observe.c for --trace and --log */
    Trace *trace;              /* NULL: no trace */
    EventLog *log;             /* NULL: no event log */
    uint32_t log_mask;         /* LOG_* categories (sim/evlog.h), | OBS_TRACE while trace is set */
} Host;

static inline sim_time_t host_cost(const Host *h, CostId id)
{
    return h->conf->costs.ns[id];
}

#endif
