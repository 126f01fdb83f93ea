/* run_observe.h - what a run writes about itself besides its results, when asked: packet
 * captures (--pcap), the Chrome trace (--trace) and the event log (--log). README "Looking
 * inside a run" documents the files.
 *
 * The run driver opens the observers once the world is built and before the first event, and
 * closes them after the last (also when the run was interrupted), before the world is freed.
 * With nothing requested nothing is attached and the models pay one integer test per hook site.
 */
#ifndef SKSIM_RUN_OBSERVE_H
#define SKSIM_RUN_OBSERVE_H

#include <glib.h>

#include "models/world.h"
#include "sim/config.h"
#include "sim/run.h"
#include "sim/series.h"
#include "sim/sim.h"

#define RUN_PCAP_SNAPLEN_DEFAULT 128u

typedef struct RunObservers RunObservers;

/* Check --pcap specs (HOST, HOST:lo, HOST:eth<k>) against a resolved scenario, before anything
 * is created: "--pcap 'x': unknown host 'x' (hosts: a, b)". */
gboolean run_pcap_check(const ScenarioConf *conf, const char *const *specs, GError **error);

/* Open what opt asks for and attach it to w's hosts and devices; series carries the per-flow
 * counters of the trace. Bad --pcap names fail here, before the run: "--pcap 'x:eth9': ...". */
RunObservers *run_observers_open(World *w, Sim *sim, Series *series, const ScenarioConf *conf,
                                 const RunOptions *opt, GError **error);
/* Detach and close everything (the trace's open slices end now); frees o. */
gboolean run_observers_close(RunObservers *o, GError **error);

#endif
