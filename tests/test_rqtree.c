/* test_rqtree.c - the run queue's search tree against a plain scan.
 *
 * The tree must give exactly what a scan of the waiting tasks in queue order gives, ties
 * included (the golden outputs were made by such scans): the leftmost task (smallest vruntime,
 * the earliest queued among equals) and the EEVDF pick (among tasks with
 * (vruntime - base) * n <= key_sum, the earliest deadline, the earliest queued among equals).
 * Random inserts and removals over a small range of values, so that ties are frequent, and a
 * deterministic generator, so that a failure can be replayed. */
#include <glib.h>
#include <stdlib.h>

#include "models/rqtree.h"
#include "sim/rng.h"

#define N_TASKS 300

typedef struct {
    Task t[N_TASKS];
    bool in[N_TASKS];
    Task *root;
    uint64_t seq;
} Bench;

static int64_t vd(uint64_t a, uint64_t b)
{
    return (int64_t)(a - b);
}

static int by_seq(const void *a, const void *b)
{
    const Task *x = *(Task *const *)a, *y = *(Task *const *)b;
    return x->rqt.seq < y->rqt.seq ? -1 : x->rqt.seq > y->rqt.seq;
}

/* The tasks in the tree in queue (seq) order; returns how many. */
static int queue_order(Bench *b, Task **q)
{
    int n = 0;
    for (int i = 0; i < N_TASKS; i++)
        if (b->in[i])
            q[n++] = &b->t[i];
    qsort(q, (size_t)n, sizeof *q, by_seq);
    return n;
}

/* The scans: in queue order, the first strictly better wins. */
static Task *scan_first(Task **q, int nq)
{
    Task *best = NULL;
    for (int i = 0; i < nq; i++)
        if (!best || vd(q[i]->vruntime, best->vruntime) < 0)
            best = q[i];
    return best;
}

static Task *scan_pick(Task **q, int nq, uint64_t base, int64_t key_sum, int64_t n)
{
    Task *best = NULL;
    for (int i = 0; i < nq; i++) {
        if (key_sum < vd(q[i]->vruntime, base) * n)
            continue;
        if (!best || vd(q[i]->deadline, best->deadline) < 0)
            best = q[i];
    }
    return best;
}

static void test_rqtree_matches_scan(void)
{
    Bench *b = g_new0(Bench, 1);
    SimRng r;
    sim_rng_init(&r, 42, 0);
    /* vruntimes around a base near the top of u64: comparisons must go through differences */
    const uint64_t base = UINT64_MAX - 500;
    for (int step = 0; step < 20000; step++) {
        int i = (int)sim_rng_below(&r, N_TASKS);
        if (b->in[i]) {
            rqtree_remove(&b->root, &b->t[i]);
            b->in[i] = false;
        } else {
            b->t[i].vruntime = base + sim_rng_below(&r, 1000);
            b->t[i].deadline = base + sim_rng_below(&r, 1500);
            b->t[i].rqt.seq = ++b->seq;
            rqtree_insert(&b->root, &b->t[i]);
            b->in[i] = true;
        }
        Task *q[N_TASKS];
        int nq = queue_order(b, q);
        g_assert_true(rqtree_first(b->root) == scan_first(q, nq));
        int64_t key_sum = (int64_t)sim_rng_below(&r, 600) - 100;
        int64_t n = 1 + (int64_t)sim_rng_below(&r, 5);
        g_assert_true(rqtree_pick_eligible(b->root, base, key_sum, n) ==
                      scan_pick(q, nq, base, key_sum, n));
    }
    g_free(b);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/rqtree/matches-scan", test_rqtree_matches_scan);
    return g_test_run();
}
