/* ktimer.h - kernel-style timers (struct timer_list) on the event queue.
 *
 * A KTimer is embedded in the model struct that owns it (a TCP socket's retransmit and
 * delayed-ACK timers). Expiry is in jiffies of the owning host's HZ, as in the kernel. Jiffy J
 * begins at simulated time J * 1e9 / HZ - phase, where phase (0 <= phase < 1e9 / HZ) is the
 * host's tick offset: two hosts need not tick at the same instants. Which tick runs a timer
 * armed for J depends on the kernel's timer wheel (KTimerWheel):
 *   4.8+ (the non-cascading wheel, kernel/time/timer.c calc_index): the timer goes into the
 *     bucket after J - "the timer wheel has to guarantee that a timer does not fire early" - so
 *     it runs at the tick of jiffy J + 1, and a timer armed N jiffies ahead waits between N and
 *     N + 1 jiffies. Timers 63 jiffies or more ahead sit in coarser levels, rounded up to their
 *     granule (8, 64, 512... jiffies). A timer already due runs at the next tick.
 *   2.6-4.7 (the cascading wheel): the timer runs at the tick of jiffy J itself, N - 1 to N
 *     jiffies after it was armed N ahead; one already due (N <= 0) runs at the next tick, as
 *     internal_add_timer puts it in the bucket of base->timer_jiffies.
 *
 * mod_timer keeps the kernel's short cut: re-arming a pending timer to the expiry it already has
 * does nothing (no dequeue/enqueue, no lock). ktimer_mod_unexact is the mod_timer_unexact()
 * proposed in the 2009 thread (seed 003): a pending timer whose expiry is within +-maxerror
 * jiffies of the new one is left alone. Every call reports which path it took so that the model
 * can charge the CPU cost of either path from the host's cost table.
 */
#ifndef SKSIM_KTIMER_H
#define SKSIM_KTIMER_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/sim.h"

typedef enum {
    KTIMER_WHEEL_4_8,     /* 4.8+: the bucket after the expiry (see above) */
    KTIMER_WHEEL_CASCADE, /* 2.6-4.7: the expiry's own tick */
} KTimerWheel;

typedef struct KTimer {
    SimEvent ev;       /* private */
    uint64_t expires;  /* read-only: jiffies of the last arming */
    uint32_t hz;       /* read-only */
    sim_time_t phase;  /* read-only: the host's tick offset */
    KTimerWheel wheel; /* read-only */
} KTimer;

typedef enum {
    KTIMER_ARMED,    /* was not pending; now queued (kernel: returns 0) */
    KTIMER_MODIFIED, /* was pending with another expiry; re-queued (slow path, returns 1) */
    KTIMER_SHORTCUT, /* was pending, left as it was (fast path, returns 1) */
} KTimerResult;

void ktimer_init(KTimer *t, uint32_t hz, sim_time_t phase, KTimerWheel wheel, SimFireFn fn,
                 void *ctx, uint32_t kind, uint32_t obj);
/* The jiffy whose tick runs a timer armed now for expiry `expires`. */
uint64_t ktimer_fire_jiffy(const Sim *sim, const KTimer *t, uint64_t expires);

/* The host's jiffies counter at simulated time now: floor((now + phase) * hz / 1e9). */
uint64_t ktimer_jiffies(const Sim *sim, uint32_t hz, sim_time_t phase);
/* When jiffy j begins: ceil(j * 1e9 / hz) - phase (0 for the jiffies before the run). */
sim_time_t ktimer_jiffies_to_ns(uint64_t jiffies, uint32_t hz, sim_time_t phase);
/* Jiffies covering d_ns, rounded up (like usecs_to_jiffies / msecs_to_jiffies). */
uint64_t ktimer_ns_to_jiffies(sim_time_t d_ns, uint32_t hz);

KTimerResult ktimer_mod(Sim *sim, KTimer *t, uint64_t expires);
KTimerResult ktimer_mod_unexact(Sim *sim, KTimer *t, uint64_t expires, uint64_t maxerror);
/* Returns true if the timer was pending. */
bool ktimer_del(Sim *sim, KTimer *t);
static inline bool ktimer_pending(const KTimer *t)
{
    return sim_event_pending(&t->ev);
}

#endif
