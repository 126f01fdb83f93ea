/* sim.h - the simulation context and its event queue: the whole public face of the event core.
 *
 * A Sim owns the clock, the pending-event queue, the sequence counter that orders ties, the
 * run's fingerprint and the per-host counter sets. There is no global mutable state: any number
 * of Sims may run side by side, one per thread.
 *
 * Events are intrusive: a model embeds a SimEvent in its own struct, initialises it once with its
 * handler, and then schedules, cancels and re-schedules it without any allocation. The core never
 * looks at what an event means; it calls ev->fire(sim, ev->ctx).
 *
 * Order: events fire in (time, seq) order, where seq is taken from a per-Sim counter each time an
 * event is scheduled. So events for the same instant fire in the order they were scheduled, and
 * an event scheduled for "now" from inside a handler fires in this same instant, after every
 * event already queued for it.
 */
#ifndef SKSIM_SIM_H
#define SKSIM_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/simtime.h"

typedef struct Sim Sim;
typedef void (*SimFireFn)(Sim *sim, void *ctx);

/* Event kinds and object ids only feed the run's fingerprint and the event log: they let two
 * runs be compared event by event. Models define their kinds in sim/evkind.h. */
typedef struct SimEvent {
    /* public, set by sim_event_init() */
    SimFireFn fire;
    void *ctx;
    uint32_t kind;
    uint32_t obj;
    /* private to the queue */
    sim_time_t time;
    uint64_t seq;      /* 0 when not pending */
    uint32_t heap_idx; /* position in the queue while pending */
} SimEvent;

Sim *sim_new(uint64_t seed);
void sim_free(Sim *sim);

uint64_t sim_seed(const Sim *sim);
sim_time_t sim_now(const Sim *sim);

void sim_event_init(SimEvent *ev, SimFireFn fire, void *ctx, uint32_t kind, uint32_t obj);
static inline bool sim_event_pending(const SimEvent *ev)
{
    return ev->seq != 0;
}
static inline sim_time_t sim_event_time(const SimEvent *ev)
{
    return ev->time;
}

/* Schedule ev at absolute time t (>= now). If ev is pending it is moved (cancel + schedule). */
void sim_schedule_at(Sim *sim, SimEvent *ev, sim_time_t t);
void sim_schedule_in(Sim *sim, SimEvent *ev, sim_time_t delay_ns);
/* Cancel a pending event; a no-op if it is not pending. O(1). */
void sim_cancel(Sim *sim, SimEvent *ev);
/* Take every pending event out of the queue without firing it; each is left not pending. For
 * tearing a model down, wherever its run stopped: call it before freeing the objects that embed
 * events, so that no queue operation (a later sim_cancel) touches a freed one. */
void sim_discard_pending(Sim *sim);

typedef enum {
    SIM_RUN_DONE,    /* reached the end time; now == end */
    SIM_RUN_EMPTY,   /* no events left before the end time; now == end */
    SIM_RUN_STOPPED, /* sim_request_stop() was called; now is the last event's time */
    SIM_RUN_LIMIT,   /* the event limit was reached */
} SimRunStatus;

/* Fire every event with time <= end_ns, in order. */
SimRunStatus sim_run_until(Sim *sim, sim_time_t end_ns);
/* Ask a running sim_run_until to return before the next event. Safe from a signal handler of
 * the thread that runs the sim (it only stores to a volatile flag). */
void sim_request_stop(Sim *sim);
void sim_set_max_events(Sim *sim, uint64_t max_events); /* 0 = no limit */

uint64_t sim_events_executed(const Sim *sim);
size_t sim_events_pending(const Sim *sim);
/* 64-bit hash over the sequence of executed events (time, kind, obj). */
uint64_t sim_event_fingerprint(const Sim *sim);

/* Hook run after every event (invariant checks in debug builds, progress reporting). May be NULL.
 * It is called at most every `every` events. */
typedef void (*SimHookFn)(Sim *sim, void *ctx);
void sim_set_hook(Sim *sim, SimHookFn fn, void *ctx, uint64_t every);

#endif
