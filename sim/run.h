/* run.h - run one resolved scenario: build the models, run the event loop, collect results. */
#ifndef SKSIM_RUN_H
#define SKSIM_RUN_H

#include <glib.h>
#include <signal.h>

#include "sim/config.h"
#include "sim/results.h"
#include "sim/sim.h"

typedef struct World World;

typedef struct RunOptions {
    uint64_t max_events;             /* 0 = no limit */
    double max_wall_s;               /* 0 = no limit */
    bool progress;                   /* progress line on stderr */
    volatile sig_atomic_t *stop;     /* set by a signal handler: stop at the next event */
    const char *out_dir;             /* for captures and traces written during the run; may be NULL */
    /* Invariants (models/invariants.h) are checked at the end of every run, and every
     * check_every events while it runs: 0 = the default, every RUN_CHECK_EVERY events in Debug
     * builds (SKSIM_CHECK_INVARIANTS) and never in others. A violation makes run_scenario fail
     * with an error in SKSIM_INVARIANT_ERROR. */
    uint64_t check_every;
    /* Called once the world is built, before the first event (tests: inject faults). */
    void (*setup)(World *w, Sim *sim, void *ctx);
    void *setup_ctx;
    /* Looking inside a run (sim/run_observe.c); each off when zero/NULL. */
    const char *const *pcap;       /* --pcap HOST[:NIC], NULL-terminated: out_dir/<host>-<nic>.pcap */
    uint32_t pcap_snaplen;         /* bytes captured per packet; 0 = 128 */
    const char *trace_path;        /* --trace: Chrome trace-event JSON */
    sim_time_t trace_t0, trace_t1; /* --trace-window; t1 = 0: to the end */
    uint32_t log_mask;             /* --log: LOG_* categories (sim/evlog.h): out_dir/events.log */
} RunOptions;

/* Debug builds check the invariants this often (in events) while a run goes on. */
#define RUN_CHECK_EVERY 4096

RunResult *run_scenario(const ScenarioConf *conf, const RunOptions *opt, GError **error);

#endif
