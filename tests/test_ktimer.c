/* test_ktimer.c - kernel-style timers: jiffies conversion, mod_timer short cut, unexact slack,
 * re-arm from inside the callback, del_timer (on the cascading wheel of 2.6-4.7, where a timer
 * runs at its expiry's own tick), and the 4.8+ wheel's later ticks. */
#include <glib.h>

#include "sim/ktimer.h"

typedef struct {
    KTimer t;
    int fired;
    sim_time_t at[8];
    int rearm_times;
} Owner;

static void on_fire(Sim *sim, void *ctx)
{
    Owner *o = ctx;
    if (o->fired < 8)
        o->at[o->fired] = sim_now(sim);
    o->fired++;
    if (o->rearm_times-- > 0)
        ktimer_mod(sim, &o->t, ktimer_jiffies(sim, o->t.hz, o->t.phase) + 10);
}

static void test_jiffies(void)
{
    g_assert_cmpint(ktimer_jiffies_to_ns(40, 1000, 0), ==, 40 * SIM_MS);
    g_assert_cmpint(ktimer_jiffies_to_ns(1, 250, 0), ==, 4 * SIM_MS);
    /* HZ=300: a jiffy is 3333333.33 ns; jiffy 1 starts at the first whole ns after it. */
    g_assert_cmpint(ktimer_jiffies_to_ns(1, 300, 0), ==, 3333334);
    g_assert_cmpint(ktimer_jiffies_to_ns(3, 300, 0), ==, 10 * SIM_MS);
    g_assert_cmpuint(ktimer_ns_to_jiffies(200 * SIM_MS, 1000), ==, 200);
    g_assert_cmpuint(ktimer_ns_to_jiffies(200 * SIM_MS + 1, 1000), ==, 201);
    g_assert_cmpuint(ktimer_ns_to_jiffies(200 * SIM_MS, 250), ==, 50);
    Sim *sim = sim_new(1);
    SimEvent ev;
    sim_event_init(&ev, NULL, NULL, 0, 0);
    sim_run_until(sim, 3333333);
    g_assert_cmpuint(ktimer_jiffies(sim, 300, 0), ==, 0);
    sim_run_until(sim, 3333334);
    g_assert_cmpuint(ktimer_jiffies(sim, 300, 0), ==, 1);
    sim_free(sim);
}

/* A host whose tick is 0.3 ms ahead (phase 300 us, HZ 1000): jiffy 1 begins at 0.7 ms, every
 * jiffy begins where the counter steps, and a timer armed at 3.5 ms (jiffy 3) for jiffies + 10
 * fires at 12.7 ms, not 13 ms. */
static void test_tick_phase(void)
{
    const sim_time_t phase = 300 * SIM_US;
    g_assert_cmpint(ktimer_jiffies_to_ns(1, 1000, phase), ==, 700 * SIM_US);
    g_assert_cmpint(ktimer_jiffies_to_ns(0, 1000, phase), ==, 0); /* before the run: clamped */
    Sim *sim = sim_new(1);
    for (uint64_t j = 1; j <= 3; j++) {
        sim_run_until(sim, ktimer_jiffies_to_ns(j, 1000, phase) - 1);
        g_assert_cmpuint(ktimer_jiffies(sim, 1000, phase), ==, j - 1);
        sim_run_until(sim, ktimer_jiffies_to_ns(j, 1000, phase));
        g_assert_cmpuint(ktimer_jiffies(sim, 1000, phase), ==, j);
    }
    sim_run_until(sim, 3500 * SIM_US);
    Owner o = { 0 };
    ktimer_init(&o.t, 1000, phase, KTIMER_WHEEL_CASCADE, on_fire, &o, 0, 0);
    g_assert_cmpuint(ktimer_jiffies(sim, 1000, phase), ==, 3);
    ktimer_mod(sim, &o.t, ktimer_jiffies(sim, 1000, phase) + 10);
    sim_run_until(sim, SIM_S);
    g_assert_cmpint(o.fired, ==, 1);
    g_assert_cmpint(o.at[0], ==, 12700 * SIM_US);
    sim_free(sim);
}

static void test_shortcut(void)
{
    Sim *sim = sim_new(1);
    Owner o = { 0 };
    ktimer_init(&o.t, 1000, 0, KTIMER_WHEEL_CASCADE, on_fire, &o, 0, 0);
    g_assert_false(ktimer_pending(&o.t));
    g_assert_cmpint(ktimer_mod(sim, &o.t, 40), ==, KTIMER_ARMED);
    g_assert_true(ktimer_pending(&o.t));
    g_assert_cmpint(ktimer_mod(sim, &o.t, 40), ==, KTIMER_SHORTCUT);
    g_assert_cmpint(ktimer_mod(sim, &o.t, 41), ==, KTIMER_MODIFIED);
    g_assert_cmpuint(o.t.expires, ==, 41);
    sim_run_until(sim, SIM_S);
    g_assert_cmpint(o.fired, ==, 1);
    g_assert_cmpint(o.at[0], ==, 41 * SIM_MS);
    /* After firing it is no longer pending: the same expiry re-arms it (no short cut). */
    g_assert_cmpint(ktimer_mod(sim, &o.t, 41), ==, KTIMER_ARMED);
    sim_free(sim);
}

static void test_unexact(void)
{
    Sim *sim = sim_new(1);
    Owner o = { 0 };
    ktimer_init(&o.t, 1000, 0, KTIMER_WHEEL_CASCADE, on_fire, &o, 0, 0);
    g_assert_cmpint(ktimer_mod_unexact(sim, &o.t, 100, 3), ==, KTIMER_ARMED);
    g_assert_cmpint(ktimer_mod_unexact(sim, &o.t, 103, 3), ==, KTIMER_SHORTCUT);
    g_assert_cmpint(ktimer_mod_unexact(sim, &o.t, 97, 3), ==, KTIMER_SHORTCUT);
    g_assert_cmpuint(o.t.expires, ==, 100); /* a short cut leaves the expiry alone */
    g_assert_cmpint(ktimer_mod_unexact(sim, &o.t, 104, 3), ==, KTIMER_MODIFIED);
    g_assert_cmpint(ktimer_mod_unexact(sim, &o.t, 100, 0), ==, KTIMER_MODIFIED);
    g_assert_cmpint(ktimer_mod_unexact(sim, &o.t, 100, 0), ==, KTIMER_SHORTCUT);
    sim_run_until(sim, SIM_S);
    g_assert_cmpint(o.fired, ==, 1);
    g_assert_cmpint(o.at[0], ==, 100 * SIM_MS);
    sim_free(sim);
}

static void test_rearm_in_callback(void)
{
    Sim *sim = sim_new(1);
    Owner o = { .rearm_times = 2 };
    ktimer_init(&o.t, 250, 0, KTIMER_WHEEL_CASCADE, on_fire, &o, 0, 0);
    ktimer_mod(sim, &o.t, 5);
    sim_run_until(sim, SIM_S);
    g_assert_cmpint(o.fired, ==, 3);
    g_assert_cmpint(o.at[0], ==, 20 * SIM_MS);
    g_assert_cmpint(o.at[1], ==, 60 * SIM_MS);
    g_assert_cmpint(o.at[2], ==, 100 * SIM_MS);
    sim_free(sim);
}

static void test_del(void)
{
    Sim *sim = sim_new(1);
    Owner o = { 0 };
    ktimer_init(&o.t, 1000, 0, KTIMER_WHEEL_CASCADE, on_fire, &o, 0, 0);
    g_assert_false(ktimer_del(sim, &o.t));
    ktimer_mod(sim, &o.t, 10);
    g_assert_true(ktimer_del(sim, &o.t));
    g_assert_false(ktimer_pending(&o.t));
    sim_run_until(sim, SIM_S);
    g_assert_cmpint(o.fired, ==, 0);
    sim_free(sim);
}

/* 2.6-4.7 internal_add_timer: a timer whose expiry has come (expires <= jiffies: "idx < 0")
 * goes into the bucket of base->timer_jiffies, the next jiffy to process, so it runs at the next
 * tick, never in the instant it was armed: armed for jiffy 3 or for jiffy 50 at 50 ms + 7 ns,
 * both run at 51 ms. */
static void test_past_expiry_fires_next_tick(void)
{
    const uint64_t expiry[] = { 3, 50 };
    for (size_t i = 0; i < G_N_ELEMENTS(expiry); i++) {
        Sim *sim = sim_new(1);
        Owner o = { 0 };
        ktimer_init(&o.t, 1000, 0, KTIMER_WHEEL_CASCADE, on_fire, &o, 0, 0);
        sim_run_until(sim, 50 * SIM_MS + 7);
        ktimer_mod(sim, &o.t, expiry[i]);
        sim_run_until(sim, SIM_S);
        g_assert_cmpint(o.fired, ==, 1);
        g_assert_cmpint(o.at[0], ==, 51 * SIM_MS);
        sim_free(sim);
    }
}

/* The 4.8+ wheel (kernel/time/timer.c calc_index, calc_wheel_index): at 3.5 ms (jiffy 3, so
 * base->clk = 4) a timer for jiffy 6 sits in bucket 7 and runs at 7 ms - 3.5 ms after it was
 * armed 3 jiffies ahead, as the seed 000 tcpdump's probe came 3.93 ms after the last segment.
 * One for jiffy 2 (already due) runs at the next tick, 4 ms. One for 103 (delta 99 >= 63:
 * level 1, granule 8) runs at ((103 >> 3) + 1) << 3 = 104; one for 603 (delta 599 >= 504:
 * level 2, granule 64) at ((603 >> 6) + 1) << 6 = 640. The cascading wheel runs each at its
 * own jiffy, the one already due at the next tick: 6, 4, 103, 603. */
static void test_wheel_4_8(void)
{
    const uint64_t expiry[] = { 6, 2, 103, 603 };
    const sim_time_t at48[] = { 7 * SIM_MS, 4 * SIM_MS, 104 * SIM_MS, 640 * SIM_MS };
    const sim_time_t at_cascade[] = { 6 * SIM_MS, 4 * SIM_MS, 103 * SIM_MS, 603 * SIM_MS };
    for (int w = 0; w < 2; w++) {
        for (int i = 0; i < 4; i++) {
            Sim *sim = sim_new(1);
            Owner o = { 0 };
            ktimer_init(&o.t, 1000, 0, w ? KTIMER_WHEEL_CASCADE : KTIMER_WHEEL_4_8, on_fire, &o, 0,
                        0);
            sim_run_until(sim, 3500 * SIM_US);
            g_assert_cmpint(ktimer_mod(sim, &o.t, expiry[i]), ==, KTIMER_ARMED);
            g_assert_cmpuint(o.t.expires, ==, expiry[i]); /* the short cut compares this */
            sim_run_until(sim, SIM_S);
            g_assert_cmpint(o.fired, ==, 1);
            g_assert_cmpint(o.at[0], ==, w ? at_cascade[i] : at48[i]);
            sim_free(sim);
        }
    }
}

/* The conversions are the exact integer formulas floor((now + phase) * hz / 1e9),
 * ceil(j * 1e9 / hz) - phase and ceil(d * hz / 1e9), computed here in 128 bits, also at the
 * edges the 64-bit arithmetic splits on: a remainder just below 1e9, HZ up to 2^32 - 1, and
 * jiffies whose time is past SIM_TIME_MAX. */
static void test_jiffies_exact(void)
{
    const uint32_t hzs[] = { 1, 100, 250, 300, 1000, 1024, 999983, 4000000000u, UINT32_MAX };
    const uint64_t vals[] = { 0, 1, 2, 999999999, 1000000000, 1000000001, 3333333, 3333334,
                              9223372036ull, 9223372037ull, 9223372037ull * 250, 9223372037000ull,
                              123456789012345ull, 9223372035999999999ull, 9223372036000000000ull,
                              9223372036854775807ull, 9223372037000000000ull, UINT64_MAX / 3,
                              UINT64_MAX - 1, UINT64_MAX };
    const uint64_t s = (uint64_t)SIM_S;
    Sim *sim = sim_new(1);
    SimEvent ev;
    sim_event_init(&ev, NULL, NULL, 0, 0);
    for (size_t v = 0; v < G_N_ELEMENTS(vals); v++) {
        uint64_t x = vals[v];
        for (size_t k = 0; k < G_N_ELEMENTS(hzs); k++) {
            uint32_t hz = hzs[k];
            sim_time_t phases[] = { 0, (sim_time_t)(s / hz / 2), (sim_time_t)(s / hz) - 1 };
            for (size_t p = 0; p < G_N_ELEMENTS(phases); p++) {
                unsigned __int128 ns = ((unsigned __int128)x * s + hz - 1) / hz;
                sim_time_t want = ns <= (unsigned __int128)phases[p] ? 0
                                  : ns - (unsigned __int128)phases[p] > (unsigned __int128)SIM_TIME_MAX
                                      ? SIM_TIME_MAX
                                      : (sim_time_t)(ns - (unsigned __int128)phases[p]);
                g_assert_cmpint(ktimer_jiffies_to_ns(x, hz, phases[p]), ==, want);
            }
            if (x <= (uint64_t)SIM_TIME_MAX) {
                uint64_t j = (uint64_t)(((unsigned __int128)x * hz + s - 1) / s);
                g_assert_cmpuint(ktimer_ns_to_jiffies((sim_time_t)x, hz), ==, j);
            }
        }
    }
    /* the clock (only moves forward): now + phase up to just below 2^63 + 1e9 */
    const sim_time_t nows[] = { 3333333, 999999999, 1000000000, 123456789012345, SIM_TIME_MAX - 1 };
    for (size_t v = 0; v < G_N_ELEMENTS(nows); v++) {
        sim_run_until(sim, nows[v]);
        for (size_t k = 0; k < G_N_ELEMENTS(hzs); k++) {
            uint32_t hz = hzs[k];
            sim_time_t phase = (sim_time_t)(s / hz) - 1;
            uint64_t t = (uint64_t)nows[v] + (uint64_t)phase;
            uint64_t want = (uint64_t)((unsigned __int128)t * hz / s);
            g_assert_cmpuint(ktimer_jiffies(sim, hz, phase), ==, want);
        }
    }
    sim_free(sim);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/ktimer/jiffies", test_jiffies);
    g_test_add_func("/ktimer/jiffies-exact", test_jiffies_exact);
    g_test_add_func("/ktimer/tick-phase", test_tick_phase);
    g_test_add_func("/ktimer/mod-shortcut", test_shortcut);
    g_test_add_func("/ktimer/mod-unexact", test_unexact);
    g_test_add_func("/ktimer/rearm-in-callback", test_rearm_in_callback);
    g_test_add_func("/ktimer/del", test_del);
    g_test_add_func("/ktimer/past-expiry-fires-next-tick", test_past_expiry_fires_next_tick);
    g_test_add_func("/ktimer/wheel-4.8", test_wheel_4_8);
    return g_test_run();
}
