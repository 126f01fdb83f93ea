/* sim.c - the simulation context: clock, event queue, tie-breaking sequence, run loop.
 *
 * The loop takes the earliest event out of the queue, advances the clock to it, marks it not
 * pending (so its handler may schedule it again at once, or free it) and calls its handler.
 * Everything a run needs lives in the Sim, so runs in different threads share nothing.
 */
#include "sim/sim.h"

#include <glib.h>

#include "sim/evq.h"

struct Sim {
    sim_time_t now;
    uint64_t next_seq;
    uint64_t seed;
    uint64_t executed;
    uint64_t max_events;
    uint64_t fp;
    volatile int stop;
    Evq q;
    SimHookFn hook;
    void *hook_ctx;
    uint64_t hook_every;
};

/* 64-bit FNV-1a style mixing of whole words: cheap enough to run on every event. */
#define FP_PRIME 0x100000001b3ULL
#define FP_BASIS 0xcbf29ce484222325ULL

static inline uint64_t fp_mix(uint64_t h, uint64_t x)
{
    return (h ^ x) * FP_PRIME;
}

Sim *sim_new(uint64_t seed)
{
    Sim *sim = g_new0(Sim, 1);
    sim->seed = seed;
    sim->next_seq = 1;
    sim->fp = FP_BASIS;
    evq_init(&sim->q);
    return sim;
}

void sim_free(Sim *sim)
{
    if (!sim)
        return;
    evq_destroy(&sim->q);
    g_free(sim);
}

uint64_t sim_seed(const Sim *sim)
{
    return sim->seed;
}

sim_time_t sim_now(const Sim *sim)
{
    return sim->now;
}

void sim_event_init(SimEvent *ev, SimFireFn fire, void *ctx, uint32_t kind, uint32_t obj)
{
    *ev = (SimEvent){ .fire = fire, .ctx = ctx, .kind = kind, .obj = obj };
}

/* A pending event is moved: removed and pushed with a new seq, so it goes after every event
 * already queued for its new time. */
void sim_schedule_at(Sim *sim, SimEvent *ev, sim_time_t t)
{
    g_assert(t >= sim->now);
    if (sim_event_pending(ev))
        evq_remove(&sim->q, ev);
    ev->time = t;
    ev->seq = sim->next_seq++;
    evq_push(&sim->q, ev);
}

void sim_schedule_in(Sim *sim, SimEvent *ev, sim_time_t delay_ns)
{
    g_assert(delay_ns >= 0);
    sim_schedule_at(sim, ev, sim_time_add_sat(sim->now, delay_ns));
}

void sim_cancel(Sim *sim, SimEvent *ev)
{
    if (!sim_event_pending(ev))
        return;
    evq_remove(&sim->q, ev);
    ev->seq = 0;
}

void sim_discard_pending(Sim *sim)
{
    SimEvent *ev;
    while ((ev = evq_pop(&sim->q)))
        ev->seq = 0;
}

void sim_request_stop(Sim *sim)
{
    sim->stop = 1;
}

void sim_set_max_events(Sim *sim, uint64_t max_events)
{
    sim->max_events = max_events;
}

void sim_set_hook(Sim *sim, SimHookFn fn, void *ctx, uint64_t every)
{
    sim->hook = fn;
    sim->hook_ctx = ctx;
    sim->hook_every = every ? every : 1;
}

/* The event leaves the queue before its handler runs: the queue holds no pointer to it while
 * the handler re-schedules, cancels (a no-op) or frees it. */
static inline void fire_one(Sim *sim, SimEvent *ev)
{
    evq_pop_first(&sim->q, ev);
    sim->now = ev->time;
    ev->seq = 0;
    sim->executed++;
    sim->fp = fp_mix(fp_mix(fp_mix(sim->fp, (uint64_t)ev->time), ev->kind), ev->obj);
    ev->fire(sim, ev->ctx);
}

SimRunStatus sim_run_until(Sim *sim, sim_time_t end_ns)
{
    uint64_t until_hook = sim->hook_every;
    sim->stop = 0;
    for (;;) {
        /* evq_first never moves the queue's cursor past end_ns, so whatever is scheduled after
         * this run returns (at >= end_ns) still goes straight into the wheel. */
        SimEvent *ev = evq_first(&sim->q, end_ns);
        if (!ev)
            break;
        if (sim->stop)
            return SIM_RUN_STOPPED;
        if (sim->max_events && sim->executed >= sim->max_events)
            return SIM_RUN_LIMIT;
        fire_one(sim, ev);
        if (sim->hook && --until_hook == 0) {
            until_hook = sim->hook_every;
            sim->hook(sim, sim->hook_ctx);
        }
    }
    bool empty = evq_len(&sim->q) == 0;
    if (end_ns > sim->now)
        sim->now = end_ns;
    return empty ? SIM_RUN_EMPTY : SIM_RUN_DONE;
}

uint64_t sim_events_executed(const Sim *sim)
{
    return sim->executed;
}

const Evq *sim_queue(const Sim *sim)
{
    return &sim->q;
}

size_t sim_events_pending(const Sim *sim)
{
    return evq_len(&sim->q);
}

uint64_t sim_event_fingerprint(const Sim *sim)
{
    return sim->fp;
}
