/* run.h - run one resolved scenario: build the models, run the event loop, collect results. */
#ifndef SKSIM_RUN_H
#define SKSIM_RUN_H

#include <glib.h>
#include <signal.h>

#include "sim/config.h"
#include "sim/results.h"

typedef struct RunOptions {
    uint64_t max_events;             /* 0 = no limit */
    double max_wall_s;               /* 0 = no limit */
    bool progress;                   /* progress line on stderr */
    volatile sig_atomic_t *stop;     /* set by a signal handler: stop at the next event */
    const char *out_dir;             /* for captures and traces written during the run; may be NULL */
} RunOptions;

RunResult *run_scenario(const ScenarioConf *conf, const RunOptions *opt, GError **error);

#endif
