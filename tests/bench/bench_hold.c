/* bench_hold.c - the classic "hold" benchmark of an event queue: keep N events pending; each
 * operation pops the earliest and pushes one at a random later time. Reports hold operations
 * per second for N = 10^3, 10^5, 10^6 through the full Sim API (schedule + run loop + fire).
 * Measures speed only; never run by ctest. */
#include <glib.h>
#include <stdio.h>
#include <time.h>

#include "sim/rng.h"
#include "sim/sim.h"

typedef struct {
    SimEvent ev;
    SimRng *rng;
} Holder;

static void hold_fire(Sim *sim, void *ctx)
{
    Holder *h = ctx;
    /* exponential-ish increment: uniform over [0, 2 * mean) with mean 1 us */
    sim_schedule_in(sim, &h->ev, (sim_time_t)sim_rng_below(h->rng, 2000));
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void bench(size_t n, uint64_t ops)
{
    Sim *sim = sim_new(1);
    SimRng rng;
    sim_rng_init(&rng, 1, 0);
    Holder *hs = g_new(Holder, n);
    for (size_t i = 0; i < n; i++) {
        hs[i].rng = &rng;
        sim_event_init(&hs[i].ev, hold_fire, &hs[i], 0, (uint32_t)i);
        sim_schedule_at(sim, &hs[i].ev, (sim_time_t)sim_rng_below(&rng, 2000 * (uint64_t)n));
    }
    sim_set_max_events(sim, ops / 10); /* warm-up */
    sim_run_until(sim, SIM_TIME_MAX - 1);
    sim_set_max_events(sim, ops / 10 + ops);
    double t0 = now_s();
    sim_run_until(sim, SIM_TIME_MAX - 1);
    double dt = now_s() - t0;
    printf("hold N=%-8zu %10.1f M ops/s  (%llu ops in %.3f s, %.1f ns/op)\n", n,
           (double)ops / dt / 1e6, (unsigned long long)ops, dt, dt * 1e9 / (double)ops);
    g_free(hs);
    sim_free(sim);
}

int main(void)
{
    bench(1000, 20000000);
    bench(100000, 20000000);
    bench(1000000, 10000000);
    return 0;
}
