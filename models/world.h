/* world.h - everything a scenario instantiates: hosts (CPUs, NICs, stacks), links, workloads.
 *
 * The run driver (sim/run.c) knows only this interface: build the world from a resolved
 * scenario, start it, reset its counters at the end of the warm-up, let it register its time
 * series columns, and collect its results.
 */
#ifndef SKSIM_WORLD_H
#define SKSIM_WORLD_H

#include <glib.h>

#include "sim/config.h"
#include "sim/results.h"
#include "sim/series.h"
#include "sim/sim.h"

typedef struct World World;

World *world_new(Sim *sim, const ScenarioConf *conf, GError **error);
void world_free(World *w);
/* Schedule the first events (workloads starting at their start times). */
void world_start(World *w);
/* The end of the warm-up: every counter back to zero (like `nstat -n`), flow baselines taken. */
void world_reset_counters(World *w);
void world_add_series(World *w, Series *s);
/* Fill r->hosts and r->flows; measured_ns is the time since the end of the warm-up. */
void world_collect(World *w, RunResult *r, sim_time_t measured_ns);

#endif
