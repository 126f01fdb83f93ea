/* evq.c - 4-ary min-heap of pending events keyed by (time, seq). See evq.h for the layout.
 *
 * Sifting uses a moving "hole": the entry being placed is held aside and the others slide into
 * the hole, so each level costs one write instead of a swap. The array grows by doubling and
 * never shrinks during a run, so after warm-up a push or pop allocates nothing.
 */
#include "sim/evq.h"

#include <glib.h>
#include <stdlib.h>

/* Branch-free (time, seq) comparison: the order of sibling keys is unpredictable, so a
 * compare that compiles to flag arithmetic instead of jumps matters for speed. */
static inline bool entry_less(const EvqEntry *x, const EvqEntry *y)
{
    unsigned __int128 kx = ((unsigned __int128)(uint64_t)x->time << 64) | x->seq;
    unsigned __int128 ky = ((unsigned __int128)(uint64_t)y->time << 64) | y->seq;
    return kx < ky;
}

static inline void place(Evq *q, size_t i, EvqEntry e)
{
    q->a[i] = e;
    e.ev->heap_idx = (uint32_t)i;
}

void evq_init(Evq *q)
{
    q->len = 0;
    q->cap = 64;
    q->a = g_new(EvqEntry, q->cap);
}

/* Does not touch the events still queued: their owners may already be gone. */
void evq_destroy(Evq *q)
{
    g_free(q->a);
    q->a = NULL;
    q->len = q->cap = 0;
}

static void sift_up(Evq *q, size_t i, EvqEntry e)
{
    while (i > 0) {
        size_t parent = (i - 1) / 4;
        if (!entry_less(&e, &q->a[parent]))
            break;
        place(q, i, q->a[parent]);
        i = parent;
    }
    place(q, i, e);
}

/* Index of the smallest child of i, or 0 when i has no children. */
static inline size_t min_child(const Evq *q, size_t i)
{
    size_t first = 4 * i + 1;
    if (first + 4 <= q->len) { /* the common case: four children, no bounds checks */
        const EvqEntry *a = q->a;
        /* The next level's four blocks of children: fetch them in parallel now rather than one
         * miss at a time once the comparison below has chosen among them. */
        size_t gc = 4 * first + 1;
        if (gc + 16 <= q->len)
            for (size_t k = 0; k < 16; k += 4) {
                __builtin_prefetch(&a[gc + k]);
                __builtin_prefetch((const char *)&a[gc + k] + 64);
            }
        size_t l = first + (size_t)entry_less(&a[first + 1], &a[first]);
        size_t r = first + 2 + (size_t)entry_less(&a[first + 3], &a[first + 2]);
        size_t rl = (size_t)entry_less(&a[r], &a[l]);
        return l + rl * (r - l);
    }
    if (first >= q->len)
        return 0;
    size_t best = first;
    for (size_t c = first + 1; c < q->len; c++)
        if (entry_less(&q->a[c], &q->a[best]))
            best = c;
    return best;
}

static void sift_down(Evq *q, size_t i, EvqEntry e)
{
    for (;;) {
        size_t c = min_child(q, i);
        if (c == 0 || !entry_less(&q->a[c], &e))
            break;
        place(q, i, q->a[c]);
        i = c;
    }
    place(q, i, e);
}

void evq_push(Evq *q, SimEvent *ev)
{
    g_assert(q->len < UINT32_MAX);
    if (q->len == q->cap) {
        q->cap *= 2;
        q->a = g_renew(EvqEntry, q->a, q->cap);
    }
    EvqEntry e = { ev->time, ev->seq, ev };
    sift_up(q, q->len++, e);
}

/* Take entry i out and refill the hole with the last entry. */
static void remove_at(Evq *q, size_t i)
{
    EvqEntry last = q->a[--q->len];
    if (i == q->len)
        return;
    if (i > 0 && entry_less(&last, &q->a[(i - 1) / 4]))
        sift_up(q, i, last);
    else
        sift_down(q, i, last);
}

SimEvent *evq_pop(Evq *q)
{
    if (q->len == 0)
        return NULL;
    SimEvent *ev = q->a[0].ev;
    remove_at(q, 0);
    return ev;
}

void evq_replace_top(Evq *q, SimEvent *ev)
{
    g_assert(q->len > 0 && q->a[0].ev == ev);
    EvqEntry e = { ev->time, ev->seq, ev };
    sift_down(q, 0, e);
}

void evq_remove(Evq *q, SimEvent *ev)
{
    size_t i = ev->heap_idx;
    g_assert(i < q->len && q->a[i].ev == ev);
    remove_at(q, i);
}

bool evq_check(const Evq *q)
{
    for (size_t i = 0; i < q->len; i++) {
        const EvqEntry *e = &q->a[i];
        if (e->ev->heap_idx != i || e->ev->seq != e->seq || e->ev->time != e->time)
            return false;
        if (i > 0 && entry_less(e, &q->a[(i - 1) / 4]))
            return false;
    }
    return true;
}
