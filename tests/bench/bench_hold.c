/* bench_hold.c - the classic "hold" benchmark of an event queue: keep N events pending; each
 * operation pops the earliest and pushes one at a random later time. Reports hold operations
 * per second of CPU time through the full Sim API (schedule + run loop + fire):
 *   hold   N = 10^3, 10^5, 10^6, increments uniform in [0, 2 us)
 *   mixed  N = 10^5, 90 % of increments uniform in [0, 2 us), 10 % exactly 200 ms: dense
 *          nanosecond work mixed with far timers, the shape of a network simulation
 * `bench_hold --more` adds other shapes, to check that no distribution makes the queue slow;
 * `bench_hold SHAPE N` runs one case (for a profiler).
 * Measures speed only; never run by ctest. */
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sim/rng.h"
#include "sim/sim.h"

/* An increment: with probability far_permille / 1000 far_ns (+ uniform [0, far_jitter_ns)),
 * else uniform in [0, near_ns). */
typedef struct {
    const char *name;
    sim_time_t near_ns;
    unsigned far_permille;
    sim_time_t far_ns, far_jitter_ns;
    sim_time_t grid_ns; /* > 1: increments rounded down to a multiple (ties) */
    sim_time_t init_ns; /* initial times uniform in [0, init_ns); 0: [0, near_ns * N) */
} Shape;

typedef struct {
    SimEvent ev;
    SimRng *rng;
    const Shape *shape;
} Holder;

static sim_time_t increment(SimRng *rng, const Shape *sh)
{
    sim_time_t d;
    if (sh->far_permille && sim_rng_below(rng, 1000) < sh->far_permille)
        d = sh->far_ns + (sh->far_jitter_ns ? (sim_time_t)sim_rng_below(rng, (uint64_t)sh->far_jitter_ns) : 0);
    else
        d = (sim_time_t)sim_rng_below(rng, (uint64_t)sh->near_ns);
    return sh->grid_ns > 1 ? d - d % sh->grid_ns : d;
}

static void hold_fire(Sim *sim, void *ctx)
{
    Holder *h = ctx;
    sim_schedule_in(sim, &h->ev, increment(h->rng, h->shape));
}

/* CPU time of this thread: on a shared machine, time spent descheduled is not the queue's. */
static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void bench(const Shape *sh, size_t n, uint64_t ops)
{
    Sim *sim = sim_new(1);
    SimRng rng;
    sim_rng_init(&rng, 1, 0);
    Holder *hs = g_new(Holder, n);
    sim_time_t span = sh->init_ns ? sh->init_ns : sh->near_ns * (sim_time_t)n;
    for (size_t i = 0; i < n; i++) {
        hs[i].rng = &rng;
        hs[i].shape = sh;
        sim_event_init(&hs[i].ev, hold_fire, &hs[i], 0, (uint32_t)i);
        sim_schedule_at(sim, &hs[i].ev, (sim_time_t)sim_rng_below(&rng, (uint64_t)span));
    }
    sim_set_max_events(sim, ops / 10); /* warm-up */
    sim_run_until(sim, SIM_TIME_MAX - 1);
    sim_set_max_events(sim, sim_events_executed(sim) + ops);
    double t0 = cpu_s();
    sim_run_until(sim, SIM_TIME_MAX - 1);
    double dt = cpu_s() - t0;
    printf("%-6s N=%-8zu %10.1f M ops/s  (%llu ops in %.3f s, %.1f ns/op)\n", sh->name, n,
           (double)ops / dt / 1e6, (unsigned long long)ops, dt, dt * 1e9 / (double)ops);
    fflush(stdout);
    g_free(hs);
    sim_free(sim);
}

int main(int argc, char **argv)
{
    static const Shape shapes[] = {
        { "hold", 2000, 0, 0, 0, 0, 0 },
        { "mixed", 2000, 100, 200 * SIM_MS, 0, 0, 200 * SIM_MS },
        /* --more: hold started in its steady state (all N within 2 us, up to 500 per ns) */
        { "dense", 2000, 0, 0, 0, 0, 2000 },
        { "2ms", 2 * SIM_MS, 0, 0, 0, 0, 2 * SIM_MS },               /* dense, timer scale */
        { "1s", SIM_S, 0, 0, 0, 0, SIM_S },                          /* sparse */
        { "ties", 2000, 0, 0, 0, 1000, 2000 },                       /* delays 0 or 1 us */
        { "rto", 2000, 100, SIM_MS, 199 * SIM_MS, 0, 200 * SIM_MS }, /* 10 % 1-200 ms */
        { "sec", 20000, 20, SIM_S, SIM_MS, 0, SIM_S },               /* 2 % 1 s timers */
        { "wide", 2000, 500, 0, 10 * SIM_S, 0, 10 * SIM_S },         /* half 0-10 s */
    };
    if (argc == 3) { /* bench_hold SHAPE N: one case, for profiling */
        for (size_t i = 0; i < G_N_ELEMENTS(shapes); i++)
            if (strcmp(argv[1], shapes[i].name) == 0)
                bench(&shapes[i], strtoul(argv[2], NULL, 10), 20000000);
        return 0;
    }
    bench(&shapes[0], 1000, 20000000);
    bench(&shapes[0], 100000, 20000000);
    bench(&shapes[0], 1000000, 10000000);
    bench(&shapes[1], 100000, 20000000);
    if (argc > 1 && strcmp(argv[1], "--more") == 0) {
        bench(&shapes[0], 10, 20000000);
        for (size_t i = 2; i < G_N_ELEMENTS(shapes); i++)
            for (size_t n = 1000; n <= 1000000; n *= 10)
                if (n != 10000)
                    bench(&shapes[i], n, 10000000);
    }
    return 0;
}
