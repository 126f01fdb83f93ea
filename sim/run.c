/* run.c - the run driver: one resolved scenario in, one RunResult out.
 *
 * Builds a Sim and the World, arms the end-of-warm-up event (counters reset, as `nstat -n` before
 * the measured interval), the time-series sampler and a hook that watches the stop flag, the
 * wall-clock limit and the progress line, then runs the event loop to the scenario's duration.
 */
#include "sim/run.h"

#include "models/invariants.h"
#include "models/world.h"
#include "sim/evkind.h"
#include "sim/progress.h"
#include "sim/run_observe.h"
#include "sim/sim.h"

/* How often (in events) the hook looks at the stop flag, the wall clock and the progress line:
 * often enough to stop within a millisecond of wall time, rarely enough to cost nothing. */
#define RUN_HOOK_EVERY 4096

typedef struct {
    Sim *sim;
    World *world;
    const ScenarioConf *conf;
    const RunOptions *opt;
    Progress *progress;
    int64_t wall_start_us;
    bool wall_limited;
    SimEvent warmup_ev;
    Invariants *inv;
    uint64_t check_every;      /* 0: only at the end */
    uint64_t events_checked;   /* sim_events_executed at the last check */
    GError *violation;         /* the first invariant violation, if any */
    bool warm;                 /* the warm-up is over and the counters were reset */
} RunCtx;

#ifdef SKSIM_CHECK_INVARIANTS
#define RUN_DEFAULT_CHECK_EVERY RUN_CHECK_EVERY
#else
#define RUN_DEFAULT_CHECK_EVERY 0
#endif

static void warmup_end(Sim *sim, void *ctx)
{
    RunCtx *rc = ctx;
    world_reset_counters(rc->world);
    rc->warm = true;
}

static void run_hook(Sim *sim, void *ctx)
{
    RunCtx *rc = ctx;
    if (rc->check_every && !rc->violation &&
        sim_events_executed(sim) - rc->events_checked >= rc->check_every) {
        rc->events_checked = sim_events_executed(sim);
        if (!invariants_check(rc->inv, &rc->violation))
            sim_request_stop(sim);
    }
    if (rc->opt->stop && *rc->opt->stop)
        sim_request_stop(sim);
    if (rc->opt->max_wall_s > 0 &&
        (double)(g_get_monotonic_time() - rc->wall_start_us) / 1e6 > rc->opt->max_wall_s) {
        rc->wall_limited = true;
        sim_request_stop(sim);
    }
    if (rc->progress)
        progress_update(rc->progress, sim_time_to_sec(sim_now(sim)),
                        sim_time_to_sec(rc->conf->duration_ns), sim_events_executed(sim));
}

static uint64_t counters_fingerprint(const RunResult *r)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (guint i = 0; i < r->hosts->len; i++) {
        const HostResult *hr = g_ptr_array_index(r->hosts, i);
        for (int c = 0; c < CTR_KERNEL_COUNT; c++) /* the nstat ones, not sksim's diagnosis */
            h = (h ^ hr->counters.v[c]) * 0x100000001b3ULL;
    }
    return h;
}

static void fill_result(RunCtx *rc, RunResult *r, Series *series, double wall_s, bool stopped)
{
    const ScenarioConf *c = rc->conf;
    sim_time_t end = sim_now(rc->sim);
    r->scenario = g_strdup(c->name);
    r->title = g_strdup(c->title ? c->title : c->name);
    r->variant = g_strdup(c->variant ? c->variant : "base");
    r->seed = c->seed;
    r->duration_ns = c->duration_ns;
    r->warmup_ns = c->warmup_ns;
    r->reached_ns = end;
    /* the interval the counters cover: from the warm-up's end, or from 0 when the run was
     * stopped before the warm-up was over (its counters were never reset) */
    r->measured_ns = rc->warm ? end - c->warmup_ns : end;
    world_collect(rc->world, r, r->measured_ns);
    r->series = series;
    r->events = sim_events_executed(rc->sim);
    r->wall_s = wall_s;
    r->events_per_s = wall_s > 0 ? (double)r->events / wall_s : 0;
    r->fp_events = sim_event_fingerprint(rc->sim);
    r->fp_counters = counters_fingerprint(r);
    r->interrupted = stopped;
}

RunResult *run_scenario(const ScenarioConf *conf, const RunOptions *opt, GError **error)
{
    RunCtx rc = { .conf = conf, .opt = opt };
    rc.sim = sim_new(conf->seed);
    rc.world = world_new(rc.sim, conf, error);
    if (!rc.world) {
        sim_free(rc.sim);
        return NULL;
    }
    if (opt->max_events)
        sim_set_max_events(rc.sim, opt->max_events);
    sim_event_init(&rc.warmup_ev, warmup_end, &rc, EVK_WARMUP, 0);
    if (conf->warmup_ns > 0)
        sim_schedule_at(rc.sim, &rc.warmup_ev, conf->warmup_ns);
    else
        rc.warm = true;
    Series *series = series_new(conf->sample_interval_ns);
    world_add_series(rc.world, series);
    series_start(series, rc.sim, 0);
    world_start(rc.world);
    RunObservers *obs = run_observers_open(rc.world, rc.sim, series, conf, opt, error);
    if (!obs) {
        series_free(series);
        world_free(rc.world);
        sim_free(rc.sim);
        return NULL;
    }
    if (opt->progress)
        rc.progress = progress_new(conf->variant ? conf->variant : "base");
    rc.inv = invariants_new(rc.world, rc.sim);
    rc.check_every = opt->check_every ? opt->check_every : RUN_DEFAULT_CHECK_EVERY;
    if (opt->setup)
        opt->setup(rc.world, rc.sim, opt->setup_ctx);
    sim_set_hook(rc.sim, run_hook, &rc,
                 rc.check_every ? MIN(RUN_HOOK_EVERY, rc.check_every) : RUN_HOOK_EVERY);

    rc.wall_start_us = g_get_monotonic_time();
    SimRunStatus st = sim_run_until(rc.sim, conf->duration_ns);
    double wall_s = (double)(g_get_monotonic_time() - rc.wall_start_us) / 1e6;
    if (rc.progress)
        progress_free(rc.progress);
    series_sample_final(series, sim_now(rc.sim));
    sim_cancel(rc.sim, &rc.warmup_ev);
    series_stop(series);
    g_autoptr(GError) obs_err = NULL;
    bool observed = run_observers_close(obs, &obs_err);
    if (!rc.violation)
        invariants_check(rc.inv, &rc.violation);
    invariants_free(rc.inv);
    if (rc.violation) {
        g_propagate_error(error, rc.violation);
        series_free(series);
        world_free(rc.world);
        sim_free(rc.sim);
        return NULL;
    }

    if (!observed) {
        g_propagate_error(error, g_steal_pointer(&obs_err));
        series_free(series);
        world_free(rc.world);
        sim_free(rc.sim);
        return NULL;
    }

    RunResult *r = run_result_new();
    fill_result(&rc, r, series, wall_s, st == SIM_RUN_STOPPED || st == SIM_RUN_LIMIT);
    world_free(rc.world);
    sim_free(rc.sim);
    return r;
}
