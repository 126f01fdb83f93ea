/* costs.h - the host CPU cost table: what each modelled operation costs in CPU time.
 *
 * Every piece of work a model does is charged from this table, so a scenario can say "this
 * machine is faster" or "acking is cheaper" without touching code. Each row: key name (the
 * scenario key under hosts.<host>.costs), default in nanoseconds, and where the default comes
 * from. Defaults are for a ~3 GHz x86-64 server core; see shared notes D.5 for the magnitudes.
 * Keep rows in this order: append new ones at the end.
 */
#ifndef SKSIM_COSTS_H
#define SKSIM_COSTS_H

#include "sim/simtime.h"

/* X(id, key, default_ns, doc) */
#define SIM_COSTS(X)                                                                            \
    X(COST_CTX_SWITCH, "ctx_switch", 2000,                                                      \
      "context switch between two tasks, including cache refill (lmbench lat_ctx class, ~2 us)") \
    X(COST_SOFTIRQ_ENTRY, "softirq_entry", 300,                                                 \
      "hard interrupt plus __do_softirq entry and exit")                                        \
    X(COST_TIMER_MOD_FAST, "timer_mod_fast", 5,                                                 \
      "mod_timer short cut: pending with the same expiry, no lock taken")                        \
    X(COST_TIMER_MOD_SLOW, "timer_mod_slow", 150,                                               \
      "__mod_timer: lock the timer base, detach, enqueue (cache-line bouncing across CPUs)")

typedef enum {
#define SIM_COST_ENUM(id, key, def, doc) id,
    SIM_COSTS(SIM_COST_ENUM)
#undef SIM_COST_ENUM
    COST_COUNT
} CostId;

typedef struct CostTable {
    sim_time_t ns[COST_COUNT];
} CostTable;

const char *cost_key(CostId id);
const char *cost_doc(CostId id);
sim_time_t cost_default(CostId id);
void cost_table_defaults(CostTable *t);

#endif
