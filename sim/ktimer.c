/* ktimer.c - kernel-style timers (timer_list) in jiffies, on the event queue.
 *
 * Jiffy j begins at simulated time ceil(j * 1e9 / HZ) - phase, the host's tick offset; a timer
 * armed for expiry j fires at the start of jiffy j, which is when the kernel's tick would find it
 * due. (The kernel's 4.8+ wheel
 * may fire a far timer up to one bucket granule late; that rounding is not modelled: timers fire
 * exactly on their jiffy.) A timer armed for a jiffy already past fires at once.
 */
#include "sim/ktimer.h"

#include <glib.h>

void ktimer_init(KTimer *t, uint32_t hz, sim_time_t phase, SimFireFn fn, void *ctx,
                 uint32_t kind, uint32_t obj)
{
    g_assert(hz > 0 && phase >= 0 && phase < SIM_S / (sim_time_t)hz);
    sim_event_init(&t->ev, fn, ctx, kind, obj);
    t->expires = 0;
    t->hz = hz;
    t->phase = phase;
}

uint64_t ktimer_jiffies(const Sim *sim, uint32_t hz, sim_time_t phase)
{
    uint64_t t = (uint64_t)sim_now(sim) + (uint64_t)phase;
    return (uint64_t)((unsigned __int128)t * hz / (uint64_t)SIM_S);
}

sim_time_t ktimer_jiffies_to_ns(uint64_t jiffies, uint32_t hz, sim_time_t phase)
{
    unsigned __int128 ns = ((unsigned __int128)jiffies * (uint64_t)SIM_S + hz - 1) / hz;
    if (ns <= (unsigned __int128)phase)
        return 0;
    ns -= (unsigned __int128)phase;
    return ns > (unsigned __int128)SIM_TIME_MAX ? SIM_TIME_MAX : (sim_time_t)ns;
}

uint64_t ktimer_ns_to_jiffies(sim_time_t d_ns, uint32_t hz)
{
    if (d_ns <= 0)
        return 0;
    return (uint64_t)(((unsigned __int128)(uint64_t)d_ns * hz + (uint64_t)SIM_S - 1) / (uint64_t)SIM_S);
}

static KTimerResult requeue(Sim *sim, KTimer *t, uint64_t expires)
{
    bool was_pending = ktimer_pending(t);
    sim_time_t at = ktimer_jiffies_to_ns(expires, t->hz, t->phase);
    t->expires = expires;
    sim_schedule_at(sim, &t->ev, at > sim_now(sim) ? at : sim_now(sim));
    return was_pending ? KTIMER_MODIFIED : KTIMER_ARMED;
}

KTimerResult ktimer_mod(Sim *sim, KTimer *t, uint64_t expires)
{
    if (ktimer_pending(t) && t->expires == expires)
        return KTIMER_SHORTCUT;
    return requeue(sim, t, expires);
}

KTimerResult ktimer_mod_unexact(Sim *sim, KTimer *t, uint64_t expires, uint64_t maxerror)
{
    if (ktimer_pending(t)) {
        uint64_t delta = expires > t->expires ? expires - t->expires : t->expires - expires;
        if (delta <= maxerror)
            return KTIMER_SHORTCUT;
    }
    return requeue(sim, t, expires);
}

bool ktimer_del(Sim *sim, KTimer *t)
{
    bool was_pending = ktimer_pending(t);
    sim_cancel(sim, &t->ev);
    return was_pending;
}
