/* test_evq.c - the event queue: order, ties, cancel, reclaiming cancelled cells, and randomized
 * comparisons against a reference (a GTree of (time, seq)): the queue alone, and the whole Sim
 * with handlers that re-schedule, cancel and free events. Seeds are in the test paths. */
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

/* ------------------------------------------------------------------ the reference model
 * A GTree of (time, seq) -> id: the order the queue must reproduce, built independently. */
typedef struct {
    sim_time_t time;
    uint64_t seq;
} Key;

static gint key_cmp(gconstpointer a, gconstpointer b, gpointer unused)
{
    const Key *x = a, *y = b;
    if (x->time != y->time)
        return x->time < y->time ? -1 : 1;
    return x->seq < y->seq ? -1 : (x->seq > y->seq);
}

typedef struct {
    GTree *tree;
    Key *keys; /* keys[id]: id's key while it is in the tree */
    bool *in;
} Ref;

static void ref_init(Ref *r, int n)
{
    r->tree = g_tree_new_full(key_cmp, NULL, NULL, NULL);
    r->keys = g_new0(Key, n);
    r->in = g_new0(bool, n);
}

static void ref_free(Ref *r)
{
    g_tree_destroy(r->tree);
    g_free(r->keys);
    g_free(r->in);
}

static void ref_add(Ref *r, int id, sim_time_t time, uint64_t seq)
{
    g_assert_false(r->in[id]);
    r->keys[id] = (Key){ time, seq };
    r->in[id] = true;
    g_tree_insert(r->tree, &r->keys[id], GINT_TO_POINTER(id));
}

static void ref_del(Ref *r, int id)
{
    g_assert_true(r->in[id]);
    g_assert_true(g_tree_remove(r->tree, &r->keys[id]));
    r->in[id] = false;
}

/* The earliest id, or -1. */
static int ref_min(Ref *r)
{
    GTreeNode *n = g_tree_node_first(r->tree);
    return n ? GPOINTER_TO_INT(g_tree_node_value(n)) : -1;
}

/* A delay drawn from a mix of time scales: ties at "now", nanosecond work, microsecond grids
 * (ties again), 1-200 ms and 1 s timers, exact wheel block boundaries, huge and "never" times. */
static sim_time_t mixed_time(SimRng *rng, sim_time_t now)
{
    uint64_t u = sim_rng_below(rng, 100);
    sim_time_t d;
    if (u < 20)
        d = 0;
    else if (u < 50)
        d = (sim_time_t)sim_rng_below(rng, 2000);
    else if (u < 60)
        d = (sim_time_t)sim_rng_below(rng, 100) * SIM_US;
    else if (u < 75)
        d = SIM_MS + (sim_time_t)sim_rng_below(rng, 199 * SIM_MS);
    else if (u < 82)
        d = SIM_S;
    else if (u < 90) { /* the start of one of the next aligned blocks of 2^12, 2^16, ... 2^40 ns:
                          * the wheel's slot boundaries, whatever its geometry */
        unsigned shift = 12 + 4 * (unsigned)sim_rng_below(rng, 8);
        uint64_t block = (((uint64_t)now >> shift) + 1 + sim_rng_below(rng, 3)) << shift;
        return block > (uint64_t)SIM_TIME_MAX ? SIM_TIME_MAX : (sim_time_t)block;
    } else if (u < 94)
        d = (sim_time_t)sim_rng_below(rng, 1ULL << 40);
    else if (u < 97)
        d = (sim_time_t)sim_rng_below(rng, 1ULL << 62);
    else
        return SIM_TIME_MAX;
    return sim_time_add_sat(now, d);
}

/* ------------------------------------------------------------------ the queue alone */

/* Randomized: pushes, pops and removes against the reference. The seed is in the test path so
 * a failure can be replayed. Profile 0: times in [0, 50): many ties, and pushes before the last
 * pop (the queue takes them: they go to its heap). Profile 1: mixed time scales from the last
 * popped time, a few before it, and evq_first with a random end (it must not reorganise past
 * it: whatever is pushed afterwards still comes out in order). Profile 2: as 1, but the number
 * of events swings between none and a few hundred, so the queue keeps switching between its
 * heap and its wheel. */
typedef struct {
    uint64_t seed;
    int profile;
} RandomCase;

static void test_random(gconstpointer data)
{
    const RandomCase *rc = data;
    SimRng rng;
    sim_rng_init(&rng, rc->seed, 0);
    enum { N = 2000 };
    SimEvent *evs = g_new0(SimEvent, N);
    Ref ref;
    ref_init(&ref, N);
    Evq q;
    evq_init(&q);
    uint64_t seq = 1;
    sim_time_t now = 0;
    int steps = rc->profile == 0 ? 50000 : 200000;
    size_t switches = 0;
    bool wheel = q.wheel;
    for (int step = 0; step < steps; step++) {
        int id = (int)sim_rng_below(&rng, N);
        uint64_t op = sim_rng_below(&rng, 10);
        if (rc->profile == 2) { /* waves: 300 steps filling, 300 draining */
            bool fill = (step / 300) % 2 == 0;
            op = op < (fill ? 7u : 2u) ? 0 : op < 9 ? 5 : 8;
        }
        if (op < 5 && !sim_event_pending(&evs[id])) {
            if (rc->profile == 0)
                evs[id].time = (sim_time_t)sim_rng_below(&rng, 50);
            else if (rc->profile == 1 && sim_rng_below(&rng, 50) == 0) {
                sim_time_t back = (sim_time_t)sim_rng_below(&rng, 100000);
                evs[id].time = now - MIN(now, back);
            }
            else
                evs[id].time = mixed_time(&rng, now);
            evs[id].seq = seq++;
            evq_push(&q, &evs[id]);
            ref_add(&ref, id, evs[id].time, evs[id].seq);
        } else if (op < 8) {
            sim_time_t end = SIM_TIME_MAX;
            if (rc->profile >= 1 && sim_rng_below(&rng, 3) == 0)
                end = sim_time_add_sat(now, (sim_time_t)sim_rng_below(&rng, 1ULL << (1 + sim_rng_below(&rng, 40))));
            SimEvent *ev = evq_first(&q, end);
            int want = ref_min(&ref);
            if (want < 0 || ref.keys[want].time > end) {
                g_assert_null(ev);
                continue;
            }
            g_assert_true(ev == &evs[want]);
            evq_pop_first(&q, ev);
            ev->seq = 0;
            ref_del(&ref, want);
            now = MAX(now, ev->time);
        } else if (sim_event_pending(&evs[id])) {
            evq_remove(&q, &evs[id]);
            evs[id].seq = 0;
            ref_del(&ref, id);
        }
        if (step % 997 == 0 || (rc->profile == 2 && step % 97 == 0))
            g_assert_true(evq_check(&q));
        g_assert_cmpuint(evq_len(&q), ==, g_tree_nnodes(ref.tree));
        switches += q.wheel != wheel;
        wheel = q.wheel;
    }
    if (rc->profile == 2)
        g_assert_cmpuint(switches, >, 100);
    g_assert_true(evq_check(&q));
    for (int want; (want = ref_min(&ref)) >= 0;) { /* drain */
        g_assert_true(evq_pop(&q) == &evs[want]);
        evs[want].seq = 0;
        ref_del(&ref, want);
    }
    g_assert_null(evq_pop(&q));
    g_assert_true(evq_check(&q));
    ref_free(&ref);
    evq_destroy(&q);
    g_free(evs);
}

/* Re-arming an event again and again in a slot that stays non-empty leaves cancelled cells
 * behind: they must be reclaimed (memory O(pending events)), in a near and in a far slot. */
static void test_rearm_reclaims(void)
{
    Evq q;
    evq_init(&q);
    SimEvent keep[4] = { { 0 } }, x = { 0 };
    uint64_t seq = 1;
    sim_time_t at[2] = { 100, 300 * SIM_MS }; /* level 0 and level 2 */
    for (int i = 0; i < 4; i++) {
        keep[i].time = at[i % 2];
        keep[i].seq = seq++;
        evq_push(&q, &keep[i]);
    }
    for (int round = 0; round < 200000; round++) {
        if (sim_event_pending(&x))
            evq_remove(&q, &x);
        x.time = at[round % 2] + round % 3;
        x.seq = seq++;
        evq_push(&q, &x);
        if (round % 9973 == 0)
            g_assert_true(evq_check(&q));
    }
    g_assert_cmpuint(q.n_chunks, <, 2000);
    g_assert_true(evq_check(&q));
    g_assert_cmpint(x.time, ==, 300 * SIM_MS + 1); /* the last round: 199999 */
    const SimEvent *want[5] = { &keep[0], &keep[2], &keep[1], &keep[3], &x };
    for (int i = 0; i < 5; i++)
        g_assert_true(evq_pop(&q) == want[i]);
    g_assert_null(evq_pop(&q));
    evq_destroy(&q);
}

/* ------------------------------------------------------------------ through the Sim API */

/* Actors whose handlers check that they fire in the reference order, then re-schedule
 * themselves (near, far, at "now"), move, cancel and schedule others, and sometimes stop the
 * run; the driver runs in random steps, with event limits, and schedules from outside between
 * runs. One-shot events are heap-allocated and freed by their own handler, or cancelled and freed
 * by another: under ASan that proves the queue never touches an event that is not pending. */
enum { N_ACTORS = 600, N_SHOTS = 64 };

typedef struct SimCase SimCase;

typedef struct {
    SimEvent ev;
    int id;
    SimCase *c;
} Actor;

struct SimCase {
    Sim *sim;
    SimRng rng;
    Ref ref; /* ids: actors 0..N_ACTORS-1, shots N_ACTORS.. */
    uint64_t seq;
    Actor actors[N_ACTORS];
    Actor *shots[N_SHOTS];
    uint64_t fired;
};

static SimEvent *ev_of(SimCase *c, int id)
{
    return id < N_ACTORS ? &c->actors[id].ev : &c->shots[id - N_ACTORS]->ev;
}

static void sched(SimCase *c, int id, sim_time_t t)
{
    if (c->ref.in[id])
        ref_del(&c->ref, id);
    sim_schedule_at(c->sim, ev_of(c, id), t);
    ref_add(&c->ref, id, t, c->seq++);
    g_assert_cmpuint(sim_events_pending(c->sim), ==, g_tree_nnodes(c->ref.tree));
}

static void cancel(SimCase *c, int id)
{
    if (c->ref.in[id])
        ref_del(&c->ref, id);
    sim_cancel(c->sim, ev_of(c, id));
    g_assert_false(sim_event_pending(ev_of(c, id)));
}

static void actor_fire(Sim *sim, void *ctx);

static void shot_new(SimCase *c, int k, sim_time_t t)
{
    Actor *a = g_new(Actor, 1);
    a->id = N_ACTORS + k;
    a->c = c;
    sim_event_init(&a->ev, actor_fire, a, 1, (uint32_t)a->id);
    c->shots[k] = a;
    sched(c, a->id, t);
}

static void shot_free(SimCase *c, int k)
{
    g_free(c->shots[k]);
    c->shots[k] = NULL;
}

/* One random action on the queue, from inside a handler or from outside a run. */
static void act(SimCase *c, int self)
{
    sim_time_t now = sim_now(c->sim);
    int other = (int)sim_rng_below(&c->rng, N_ACTORS);
    int k = (int)sim_rng_below(&c->rng, N_SHOTS);
    switch (sim_rng_below(&c->rng, 12)) {
    case 0:
    case 1:
    case 2: /* re-schedule itself (a handler re-arming its own event) */
        if (self >= 0)
            sched(c, self, mixed_time(&c->rng, now));
        break;
    case 3: /* itself at "now": after everything already queued for now */
        if (self >= 0)
            sched(c, self, now);
        break;
    case 4:
    case 5: /* move (or start) another */
        sched(c, other, mixed_time(&c->rng, now));
        break;
    case 6:
        cancel(c, other);
        break;
    case 7: /* schedule, cancel at once, schedule again */
        sched(c, other, mixed_time(&c->rng, now));
        cancel(c, other);
        sched(c, other, now + (sim_time_t)sim_rng_below(&c->rng, 3));
        break;
    case 8: /* a one-shot */
        if (!c->shots[k])
            shot_new(c, k, mixed_time(&c->rng, now));
        break;
    case 9: /* cancel a one-shot and free it */
        if (c->shots[k] && N_ACTORS + k != self) {
            cancel(c, N_ACTORS + k);
            shot_free(c, k);
        }
        break;
    case 10: /* the same instant, twice: ties */
        sched(c, other, now + 1000);
        sched(c, (other + 1) % N_ACTORS, now + 1000);
        break;
    default:
        if (sim_rng_below(&c->rng, 200) == 0)
            sim_request_stop(c->sim);
        break;
    }
}

static void actor_fire(Sim *sim, void *ctx)
{
    Actor *a = ctx;
    SimCase *c = a->c;
    int want = ref_min(&c->ref);
    g_assert_cmpint(a->id, ==, want);
    g_assert_cmpint(sim_now(sim), ==, c->ref.keys[want].time);
    g_assert_false(sim_event_pending(&a->ev));
    ref_del(&c->ref, a->id);
    c->fired++;
    sim_cancel(sim, &a->ev); /* not pending: a no-op */
    int n = (int)sim_rng_below(&c->rng, 4);
    for (int i = 0; i < n; i++)
        act(c, a->id);
    if (a->id >= N_ACTORS && !sim_event_pending(&a->ev))
        shot_free(c, a->id - N_ACTORS); /* a one-shot frees itself */
}

static void test_sim_random(gconstpointer data)
{
    uint64_t seed = GPOINTER_TO_UINT(data);
    SimCase *c = g_new0(SimCase, 1);
    c->sim = sim_new(seed);
    sim_rng_init(&c->rng, seed, 1);
    ref_init(&c->ref, N_ACTORS + N_SHOTS);
    c->seq = 1;
    for (int i = 0; i < N_ACTORS; i++) {
        c->actors[i] = (Actor){ .id = i, .c = c };
        sim_event_init(&c->actors[i].ev, actor_fire, &c->actors[i], 0, (uint32_t)i);
    }
    for (int i = 0; i < N_ACTORS / 2; i++)
        sched(c, i, mixed_time(&c->rng, 0));
    while (c->fired < 300000) {
        sim_time_t now = sim_now(c->sim);
        sim_time_t end = sim_time_add_sat(now, (sim_time_t)sim_rng_below(&c->rng, 1ULL << sim_rng_below(&c->rng, 36)));
        end = MIN(end, SIM_TIME_MAX - 1);
        bool limited = sim_rng_below(&c->rng, 4) == 0;
        sim_set_max_events(c->sim, limited ? sim_events_executed(c->sim) + sim_rng_below(&c->rng, 2000) : 0);
        SimRunStatus st = sim_run_until(c->sim, end);
        int first = ref_min(&c->ref);
        if (st == SIM_RUN_DONE || st == SIM_RUN_EMPTY) {
            g_assert_cmpint(sim_now(c->sim), ==, MAX(end, now));
            g_assert_true(first < 0 || c->ref.keys[first].time > end);
            g_assert_cmpint(st == SIM_RUN_EMPTY, ==, first < 0);
        } else {
            g_assert_true(first >= 0 && c->ref.keys[first].time <= end);
        }
        g_assert_true(evq_check(sim_queue(c->sim)));
        /* from outside a run: now may be behind the queue's cursor after a stop or limit */
        for (int i = (int)sim_rng_below(&c->rng, 4); i > 0; i--)
            act(c, -1);
        if (sim_rng_below(&c->rng, 30) == 0) /* cancel all but a few: back to the heap */
            for (int id = 0; id < N_ACTORS && g_tree_nnodes(c->ref.tree) > 5; id++)
                cancel(c, id);
        if (g_tree_nnodes(c->ref.tree) < 50 || sim_rng_below(&c->rng, 10) == 0)
            sched(c, (int)sim_rng_below(&c->rng, N_ACTORS), sim_now(c->sim) + (sim_time_t)sim_rng_below(&c->rng, 5000));
    }
    g_assert_true(evq_check(sim_queue(c->sim)));
    sim_free(c->sim); /* with events still pending */
    for (int k = 0; k < N_SHOTS; k++)
        g_free(c->shots[k]);
    ref_free(&c->ref);
    g_free(c);
}

/* A run that stops after the queue looked ahead (here: cascaded a far slot) leaves the cursor
 * past the clock; events then scheduled before it still fire first, ties in schedule order. */
typedef struct {
    SimEvent ev;
    char name;
    GString *order;
} Named;

static void named_fire(Sim *sim, void *ctx)
{
    Named *n = ctx;
    g_string_append_printf(n->order, "%c@%" G_GINT64_FORMAT " ", n->name, sim_now(sim));
    if (n->name == 'S')
        sim_request_stop(sim);
}

static void test_sim_schedule_behind_cursor(void)
{
    Sim *sim = sim_new(1);
    GString *order = g_string_new(NULL);
    Named n[6];
    const char *names = "SACDEF";
    for (int i = 0; i < 6; i++) {
        n[i] = (Named){ .name = names[i], .order = order };
        sim_event_init(&n[i].ev, named_fire, &n[i], 0, (uint32_t)i);
    }
    sim_schedule_at(sim, &n[0].ev, 100);    /* S: stops the run */
    sim_schedule_at(sim, &n[1].ev, 5 * SIM_MS); /* A: far, in level 1 */
    g_assert_cmpint(sim_run_until(sim, SIM_S), ==, SIM_RUN_STOPPED);
    g_assert_cmpint(sim_now(sim), ==, 100);
    g_assert_true(evq_check(sim_queue(sim)));
    sim_schedule_at(sim, &n[2].ev, 200); /* C, D: before A, tied */
    sim_schedule_at(sim, &n[3].ev, 200);
    sim_schedule_at(sim, &n[4].ev, 5 * SIM_MS); /* E: tied with A, after it */
    sim_schedule_at(sim, &n[5].ev, 100);        /* F: at now */
    g_assert_true(evq_check(sim_queue(sim)));
    g_assert_cmpint(sim_run_until(sim, SIM_S), ==, SIM_RUN_EMPTY);
    g_assert_cmpstr(order->str, ==, "S@100 F@100 C@200 D@200 A@5000000 E@5000000 ");
    g_string_free(order, TRUE);
    sim_free(sim);
}

/* Chunks come back from the free list without being cleared: each freed chunk's event cells
 * must already be NULL (evq_check verifies it, and that the cells after every tail are NULL),
 * whether it was left by pops, by cancels at the head or behind it, or by a cascade. The check
 * itself must see a dirty free chunk. */
static void test_recycled_chunks_clean(void)
{
    Evq q;
    evq_init(&q);
    enum { N = 200 };
    static SimEvent ev[N];
    uint64_t seq = 1;
    for (int round = 0; round < 50; round++) {
        for (int i = 0; i < N; i++) { /* 20 per ns slot (3 chunks), some 5 ms ahead (level 1) */
            if (sim_event_pending(&ev[i]))
                continue;
            ev[i].time = q.cursor + 1 + i / 20 + (i % 7 == 0 ? 5 * SIM_MS : 0);
            ev[i].seq = seq++;
            evq_push(&q, &ev[i]);
        }
        for (int i = round % 3; i < N; i += 3) /* cancels: heads, middles, tails */
            if (sim_event_pending(&ev[i])) {
                evq_remove(&q, &ev[i]);
                ev[i].seq = 0;
            }
        g_assert_true(evq_check(&q));
        for (int k = 0; k < N / 3; k++) { /* pops, some through cascades */
            SimEvent *e = evq_pop(&q);
            if (!e)
                break;
            e->seq = 0;
        }
        g_assert_true(evq_check(&q));
    }
    g_assert_true(q.wheel && q.free_chunk != 0);
    q.cells[q.free_chunk * 8 + 3].ev = &ev[0]; /* 8 cells per chunk (evq.c CHUNK) */
    g_assert_false(evq_check(&q));
    q.cells[q.free_chunk * 8 + 3].ev = NULL;
    g_assert_true(evq_check(&q));
    evq_destroy(&q);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/evq/order", test_order);
    g_test_add_func("/evq/ties-fifo", test_ties_fifo);
    g_test_add_func("/evq/reschedule-takes-new-seq", test_reschedule_takes_new_seq);
    g_test_add_func("/evq/cancel", test_cancel);
    g_test_add_func("/evq/rearm-reclaims", test_rearm_reclaims);
    g_test_add_func("/evq/recycled-chunks-clean", test_recycled_chunks_clean);
    g_test_add_func("/evq/sim/schedule-behind-cursor", test_sim_schedule_behind_cursor);
    static const unsigned seeds[] = { 1, 42, 20261129 };
    static RandomCase cases[3 * G_N_ELEMENTS(seeds)];
    for (size_t i = 0; i < G_N_ELEMENTS(seeds); i++) {
        static const char *const profiles[] = { "ties", "mixed", "waves" };
        for (int p = 0; p < 3; p++) {
            RandomCase *rc = &cases[3 * i + (size_t)p];
            *rc = (RandomCase){ seeds[i], p };
            g_autofree char *path = g_strdup_printf("/evq/random/%s/seed:%u", profiles[p], seeds[i]);
            g_test_add_data_func(path, rc, test_random);
        }
        g_autofree char *path = g_strdup_printf("/evq/sim/random/seed:%u", seeds[i]);
        g_test_add_data_func(path, GUINT_TO_POINTER(seeds[i]), test_sim_random);
    }
    return g_test_run();
}
