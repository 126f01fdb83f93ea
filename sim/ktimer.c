/* ktimer.c - kernel-style timers (timer_list) in jiffies, on the event queue.
 *
 * Jiffy j begins at simulated time ceil(j * 1e9 / HZ) - phase, the host's tick offset. A timer
 * fires at the start of the jiffy whose tick would run it: with the 4.8+ wheel the one after its
 * expiry (rounded up to its level's granule when it is 63 jiffies or more ahead), with the
 * cascading wheel of 2.6-4.7 its expiry's own (ktimer.h). The seed 000 tcpdump shows the
 * 4.8+ rule: a 3-jiffy loss probe 3.93 ms after the last segment, a 6-jiffy RTO 6.6 ms after it
 * and the backed-off 12-jiffy one 13.0 ms later, each between N and N + 1 jiffies.
 */
#include "sim/ktimer.h"

#include <glib.h>

void ktimer_init(KTimer *t, uint32_t hz, sim_time_t phase, KTimerWheel wheel, SimFireFn fn,
                 void *ctx, uint32_t kind, uint32_t obj)
{
    g_assert(hz > 0 && phase >= 0 && phase < SIM_S / (sim_time_t)hz);
    sim_event_init(&t->ev, fn, ctx, kind, obj);
    t->expires = 0;
    t->hz = hz;
    t->phase = phase;
    t->wheel = wheel;
}

/* These run at every packet and tick, so they avoid 128-bit division (a libgcc call, __udivti3):
 * with t = q * 1e9 + r (r < 1e9) and hz < 2^32, t * hz / 1e9 = q * hz + r * hz / 1e9 exactly,
 * r * hz < 2^62 fits 64 bits, and dividing by the constant 1e9 is a multiplication. The
 * results are the same integers as the 128-bit formulas (modulo 2^64 where those truncate). */
uint64_t ktimer_jiffies(const Sim *sim, uint32_t hz, sim_time_t phase)
{
    uint64_t t = (uint64_t)sim_now(sim) + (uint64_t)phase;
    const uint64_t s = (uint64_t)SIM_S;
    return t / s * hz + t % s * hz / s; /* floor(t * hz / 1e9) */
}

sim_time_t ktimer_jiffies_to_ns(uint64_t jiffies, uint32_t hz, sim_time_t phase)
{
    /* j = q * hz + r (r < hz): ceil(j * 1e9 / hz) = q * 1e9 + ceil(r * 1e9 / hz), r * 1e9 < 2^62;
     * the sum fits 64 bits while q * 1e9 <= SIM_TIME_MAX (far beyond any run). */
    uint64_t q = jiffies / hz, r = jiffies % hz;
    if (G_UNLIKELY(q > (uint64_t)SIM_TIME_MAX / (uint64_t)SIM_S)) {
        unsigned __int128 ns = ((unsigned __int128)jiffies * (uint64_t)SIM_S + hz - 1) / hz;
        ns -= (unsigned __int128)phase; /* ns >= 2^63 > phase */
        return ns > (unsigned __int128)SIM_TIME_MAX ? SIM_TIME_MAX : (sim_time_t)ns;
    }
    uint64_t ns = q * (uint64_t)SIM_S + (r * (uint64_t)SIM_S + hz - 1) / hz;
    if (ns <= (uint64_t)phase)
        return 0;
    ns -= (uint64_t)phase;
    return ns > (uint64_t)SIM_TIME_MAX ? SIM_TIME_MAX : (sim_time_t)ns;
}

uint64_t ktimer_ns_to_jiffies(sim_time_t d_ns, uint32_t hz)
{
    if (d_ns <= 0)
        return 0;
    uint64_t d = (uint64_t)d_ns;
    const uint64_t s = (uint64_t)SIM_S;
    return d / s * hz + (d % s * hz + s - 1) / s; /* ceil(d * hz / 1e9) */
}

/* The 4.8+ wheel's levels: level n holds timers LVL_START(n) = 63 << 3(n - 1) jiffies or more
 * ahead in buckets of 8^n jiffies (LVL_CLK_SHIFT 3, LVL_BITS 6); LVL_DEPTH is 9 for HZ > 100. */
#define WHEEL_LVL_DEPTH 9u

uint64_t ktimer_fire_jiffy(const Sim *sim, const KTimer *t, uint64_t expires)
{
    /* base->clk (4.8+) or base->timer_jiffies (2.6-4.7), the next jiffy the wheel will process:
     * one ahead of jiffies between ticks and while the tick's own timers run */
    uint64_t clk = ktimer_jiffies(sim, t->hz, t->phase) + 1;
    if (expires < clk)
        return clk; /* already due: the next tick (2.6-4.7 internal_add_timer: "idx < 0") */
    if (t->wheel == KTIMER_WHEEL_CASCADE)
        return expires;
    uint64_t delta = expires - clk;
    unsigned lvl = 0;
    while (lvl + 1 < WHEEL_LVL_DEPTH && delta >= (63ull << (3 * lvl)))
        lvl++;
    return ((expires >> (3 * lvl)) + 1) << (3 * lvl); /* calc_index: round up past the expiry */
}

static KTimerResult requeue(Sim *sim, KTimer *t, uint64_t expires)
{
    bool was_pending = ktimer_pending(t);
    sim_time_t at = ktimer_jiffies_to_ns(ktimer_fire_jiffy(sim, t, expires), t->hz, t->phase);
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
