/* test_memory.c - the up-front memory estimate (models/memory.h): it grows by the same amount
 * per flow, more with larger buffers, twice the per-direction share for request/response flows,
 * and puts 10000 flows with 1 GiB receive buffers in the terabytes (what `--max-memory` refuses).
 */
#include <glib.h>

#include "models/memory.h"
#include "models/world.h"
#include "sim/scenario.h"
#include "sim/series.h"

static uint64_t estimate(const char *const *sets)
{
    g_autoptr(GError) err = NULL;
    g_autoptr(Scenario) s = scenario_load_file("scenarios/example.yaml", &err);
    g_assert_no_error(err);
    g_autoptr(ScenarioConf) c = scenario_resolve(s, "after", sets, &err);
    g_assert_no_error(err);
    return memory_estimate(c);
}

static void test_per_flow(void)
{
    const char *const one[] = { "workloads.bulk.flows=1", NULL };
    const char *const two[] = { "workloads.bulk.flows=2", NULL };
    const char *const ten[] = { "workloads.bulk.flows=10", NULL };
    uint64_t e1 = estimate(one), e2 = estimate(two), e10 = estimate(ten);
    g_assert_cmpuint(e2, >, e1);
    g_assert_cmpuint(e10 - e1, ==, 9 * (e2 - e1));
    g_assert_cmpuint(e1, >, 16u << 20); /* the fixed base */
    g_assert_cmpuint(e1, <, 64u << 20); /* one 10G stream: tens of MiB at most */
}

/* The estimate's column count is the series the world really builds, for the seed scenarios'
 * shapes (several hosts and CPUs, one or many flows, stream and request/response). */
static void test_series_columns(void)
{
    const char *files[] = { "scenarios/example.yaml", "scenarios/release-sock-resched.yaml",
                            "scenarios/delack-prequeue.yaml", "scenarios/sendmsg-flush-backlog.yaml" };
    for (guint i = 0; i < G_N_ELEMENTS(files); i++) {
        g_autoptr(GError) err = NULL;
        g_autoptr(Scenario) s = scenario_load_file(files[i], &err);
        g_assert_no_error(err);
        g_autoptr(ScenarioConf) c = scenario_resolve(s, NULL, NULL, &err);
        g_assert_no_error(err);
        Sim *sim = sim_new(1);
        World *w = world_new(sim, c, &err);
        g_assert_no_error(err);
        Series *series = series_new(c->sample_interval_ns);
        world_add_series(w, series);
        g_assert_cmpuint(series_n_columns(series), ==, memory_series_columns(c));
        series_free(series);
        world_free(w);
        sim_free(sim);
    }
}

static void test_buffers(void)
{
    const char *const small[] = { "hosts.server.tcp.rcvbuf_max=1MiB", NULL };
    const char *const big[] = { "hosts.server.tcp.rcvbuf_max=64MiB", NULL };
    g_assert_cmpuint(estimate(big), >, estimate(small));
    const char *const huge[] = { "workloads.bulk.flows=10000", "hosts.server.tcp.rcvbuf_max=1GiB",
                                 NULL };
    g_assert_cmpuint(estimate(huge), >, 1ull << 40);
}

static void test_rr_both_ways(void)
{
    const char *const stream[] = { "workloads.bulk.flows=100", NULL };
    const char *const rr[] = { "workloads.bulk.flows=100", "workloads.bulk.type=rr", NULL };
    g_assert_cmpuint(estimate(rr), >, estimate(stream));
}

static void test_default_limit(void)
{
    uint64_t limit = memory_default_limit();
    g_assert_cmpuint(limit, >, 0); /* Linux reports physical RAM */
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/memory/per_flow", test_per_flow);
    g_test_add_func("/memory/series_columns", test_series_columns);
    g_test_add_func("/memory/buffers", test_buffers);
    g_test_add_func("/memory/rr_both_ways", test_rr_both_ways);
    g_test_add_func("/memory/default_limit", test_default_limit);
    return g_test_run();
}
