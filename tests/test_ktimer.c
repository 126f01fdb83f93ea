/* test_ktimer.c - kernel-style timers: jiffies conversion, mod_timer short cut, unexact slack,
 * re-arm from inside the callback, del_timer. */
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
    ktimer_init(&o.t, 1000, phase, on_fire, &o, 0, 0);
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
    ktimer_init(&o.t, 1000, 0, on_fire, &o, 0, 0);
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
    ktimer_init(&o.t, 1000, 0, on_fire, &o, 0, 0);
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
    ktimer_init(&o.t, 250, 0, on_fire, &o, 0, 0);
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
    ktimer_init(&o.t, 1000, 0, on_fire, &o, 0, 0);
    g_assert_false(ktimer_del(sim, &o.t));
    ktimer_mod(sim, &o.t, 10);
    g_assert_true(ktimer_del(sim, &o.t));
    g_assert_false(ktimer_pending(&o.t));
    sim_run_until(sim, SIM_S);
    g_assert_cmpint(o.fired, ==, 0);
    sim_free(sim);
}

static void test_past_expiry_fires_now(void)
{
    Sim *sim = sim_new(1);
    Owner o = { 0 };
    ktimer_init(&o.t, 1000, 0, on_fire, &o, 0, 0);
    sim_run_until(sim, 50 * SIM_MS + 7);
    ktimer_mod(sim, &o.t, 3);
    sim_run_until(sim, SIM_S);
    g_assert_cmpint(o.fired, ==, 1);
    g_assert_cmpint(o.at[0], ==, 50 * SIM_MS + 7);
    sim_free(sim);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/ktimer/jiffies", test_jiffies);
    g_test_add_func("/ktimer/tick-phase", test_tick_phase);
    g_test_add_func("/ktimer/mod-shortcut", test_shortcut);
    g_test_add_func("/ktimer/mod-unexact", test_unexact);
    g_test_add_func("/ktimer/rearm-in-callback", test_rearm_in_callback);
    g_test_add_func("/ktimer/del", test_del);
    g_test_add_func("/ktimer/past-expiry-fires-now", test_past_expiry_fires_now);
    return g_test_run();
}
