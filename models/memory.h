/* memory.h - how much memory a scenario could need, estimated before it runs, so that a scenario
 * that would exhaust the machine is refused up front (sksim run/compare --max-memory).
 */
#ifndef SKSIM_MEMORY_H
#define SKSIM_MEMORY_H

#include <stdint.h>

#include "sim/config.h"

/* An upper estimate in bytes: per flow, the skbs its socket buffers can hold at their autotuning
 * ceilings (receive queue and backlog, write and retransmit queues) plus the sockets and tasks;
 * per host its CPUs and device rings; per link its queues; the time series; a fixed base. */
uint64_t memory_estimate(const ScenarioConf *c);
/* The columns the run's time series will have (models/world.c world_add_series), time aside. */
uint64_t memory_series_columns(const ScenarioConf *c);
/* The default limit: 75 % of physical RAM (0 when unknown). */
uint64_t memory_default_limit(void);

#endif
