/* test_evq.c - the event queue: order, ties, cancel, and a randomized comparison against a
 * sorted reference list. */
#include <glib.h>

#include "sim/evq.h"
#include "sim/rng.h"
#include "sim/sim.h"

typedef struct {
    GArray *fired; /* int ids in firing order */
} Log;

typedef struct {
    SimEvent ev;
    int id;
    Log *log;
} TEv;

static void log_fire(Sim *sim, void *ctx)
{
    TEv *t = ctx;
    g_array_append_val(t->log->fired, t->id);
}

static void tev_init(TEv *t, int id, Log *log)
{
    t->id = id;
    t->log = log;
    sim_event_init(&t->ev, log_fire, t, 0, (uint32_t)id);
}

static void test_order(void)
{
    Sim *sim = sim_new(1);
    Log log = { g_array_new(FALSE, FALSE, sizeof(int)) };
    TEv e[5];
    sim_time_t times[5] = { 50, 10, 40, 20, 30 };
    for (int i = 0; i < 5; i++) {
        tev_init(&e[i], i, &log);
        sim_schedule_at(sim, &e[i].ev, times[i]);
    }
    g_assert_cmpint(sim_run_until(sim, 100), ==, SIM_RUN_EMPTY);
    int want[5] = { 1, 3, 4, 2, 0 };
    g_assert_cmpuint(log.fired->len, ==, 5);
    for (int i = 0; i < 5; i++)
        g_assert_cmpint(g_array_index(log.fired, int, i), ==, want[i]);
    g_assert_cmpint(sim_now(sim), ==, 100);
    g_array_free(log.fired, TRUE);
    sim_free(sim);
}

/* Same time: schedule order decides, whatever the insertion pattern (libuv's timer_order). */
static void test_ties_fifo(void)
{
    Sim *sim = sim_new(1);
    Log log = { g_array_new(FALSE, FALSE, sizeof(int)) };
    TEv e[100];
    for (int i = 0; i < 100; i++) {
        tev_init(&e[i], i, &log);
        sim_schedule_at(sim, &e[i].ev, i % 2 ? 7 : 5);
    }
    sim_run_until(sim, 10);
    for (int i = 0; i < 50; i++)
        g_assert_cmpint(g_array_index(log.fired, int, i), ==, 2 * i);
    for (int i = 0; i < 50; i++)
        g_assert_cmpint(g_array_index(log.fired, int, 50 + i), ==, 2 * i + 1);
    g_array_free(log.fired, TRUE);
    sim_free(sim);
}

/* Rescheduling moves an event to the back of its new instant's tie order. */
static void test_reschedule_takes_new_seq(void)
{
    Sim *sim = sim_new(1);
    Log log = { g_array_new(FALSE, FALSE, sizeof(int)) };
    TEv a, b;
    tev_init(&a, 1, &log);
    tev_init(&b, 2, &log);
    sim_schedule_at(sim, &a.ev, 10);
    sim_schedule_at(sim, &b.ev, 10);
    sim_schedule_at(sim, &a.ev, 10);
    sim_run_until(sim, 10);
    g_assert_cmpint(g_array_index(log.fired, int, 0), ==, 2);
    g_assert_cmpint(g_array_index(log.fired, int, 1), ==, 1);
    g_array_free(log.fired, TRUE);
    sim_free(sim);
}

static void test_cancel(void)
{
    Sim *sim = sim_new(1);
    Log log = { g_array_new(FALSE, FALSE, sizeof(int)) };
    TEv e[10];
    for (int i = 0; i < 10; i++) {
        tev_init(&e[i], i, &log);
        sim_schedule_at(sim, &e[i].ev, 100 - i);
    }
    sim_cancel(sim, &e[3].ev);
    sim_cancel(sim, &e[9].ev); /* the earliest */
    sim_cancel(sim, &e[9].ev); /* cancelling twice is a no-op */
    g_assert_false(sim_event_pending(&e[3].ev));
    g_assert_cmpuint(sim_events_pending(sim), ==, 8);
    sim_run_until(sim, 1000);
    g_assert_cmpuint(log.fired->len, ==, 8);
    for (guint i = 0; i < log.fired->len; i++) {
        int id = g_array_index(log.fired, int, i);
        g_assert_cmpint(id, !=, 3);
        g_assert_cmpint(id, !=, 9);
    }
    g_assert_cmpint(g_array_index(log.fired, int, 0), ==, 8);
    g_array_free(log.fired, TRUE);
    sim_free(sim);
}

/* Randomized: pushes, pops and removes against a reference kept as a sorted list of
 * (time, seq). The seed is in the test path so a failure can be replayed. */
typedef struct {
    sim_time_t time;
    uint64_t seq;
    int id;
} Ref;

static gint ref_cmp(gconstpointer a, gconstpointer b)
{
    const Ref *x = a, *y = b;
    if (x->time != y->time)
        return x->time < y->time ? -1 : 1;
    return x->seq < y->seq ? -1 : (x->seq > y->seq);
}

static void test_random(gconstpointer data)
{
    uint64_t seed = GPOINTER_TO_UINT(data);
    SimRng rng;
    sim_rng_init(&rng, seed, 0);
    enum { N = 2000 };
    static SimEvent evs[N];
    Evq q;
    evq_init(&q);
    GArray *ref = g_array_new(FALSE, FALSE, sizeof(Ref));
    uint64_t seq = 1;
    for (int i = 0; i < N; i++)
        evs[i] = (SimEvent){ 0 };
    for (int step = 0; step < 50000; step++) {
        int id = (int)sim_rng_below(&rng, N);
        uint64_t op = sim_rng_below(&rng, 10);
        if (op < 5 && !sim_event_pending(&evs[id])) {
            evs[id].time = (sim_time_t)sim_rng_below(&rng, 50); /* many ties */
            evs[id].seq = seq++;
            evq_push(&q, &evs[id]);
            Ref r = { evs[id].time, evs[id].seq, id };
            g_array_append_val(ref, r);
        } else if (op < 8 && evq_len(&q) > 0) {
            g_array_sort(ref, ref_cmp);
            SimEvent *ev = evq_pop(&q);
            Ref head = g_array_index(ref, Ref, 0);
            g_assert_true(ev == &evs[head.id]);
            ev->seq = 0;
            g_array_remove_index(ref, 0);
        } else if (sim_event_pending(&evs[id])) {
            evq_remove(&q, &evs[id]);
            for (guint k = 0; k < ref->len; k++)
                if (g_array_index(ref, Ref, k).id == id) {
                    g_array_remove_index_fast(ref, k);
                    break;
                }
            evs[id].seq = 0;
        }
        if (step % 97 == 0)
            g_assert_true(evq_check(&q));
        g_assert_cmpuint(evq_len(&q), ==, ref->len);
    }
    g_array_free(ref, TRUE);
    evq_destroy(&q);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/evq/order", test_order);
    g_test_add_func("/evq/ties-fifo", test_ties_fifo);
    g_test_add_func("/evq/reschedule-takes-new-seq", test_reschedule_takes_new_seq);
    g_test_add_func("/evq/cancel", test_cancel);
    static const unsigned seeds[] = { 1, 42, 20261129 };
    for (size_t i = 0; i < G_N_ELEMENTS(seeds); i++) {
        g_autofree char *path = g_strdup_printf("/evq/random/seed:%u", seeds[i]);
        g_test_add_data_func(path, GUINT_TO_POINTER(seeds[i]), test_random);
    }
    return g_test_run();
}
