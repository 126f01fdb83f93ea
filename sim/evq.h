/* evq.h - the pending-event queue: a 4-ary min-heap ordered by (time, seq).
 *
 * Private to the event core (sim.c); tests and benchmarks use it directly. Keys are stored
 * inline in the heap array so that sifting compares without touching the events; each event
 * keeps its own heap index (updated on every move), which makes cancel O(log n) and means the
 * queue never holds a pointer to an event that is not pending. Children of i are 4i+1..4i+4:
 * half the depth of a binary heap, and the four keys span one and a half cache lines.
 */
#ifndef SKSIM_EVQ_H
#define SKSIM_EVQ_H

#include <stddef.h>

#include "sim/sim.h"

typedef struct EvqEntry {
    sim_time_t time;
    uint64_t seq;
    SimEvent *ev;
} EvqEntry;

typedef struct Evq {
    EvqEntry *a;
    size_t len;
    size_t cap;
} Evq;

void evq_init(Evq *q);
void evq_destroy(Evq *q);
/* ev->time and ev->seq must be set; ev must not be in the queue. */
void evq_push(Evq *q, SimEvent *ev);
/* The earliest event, or NULL when empty. */
static inline SimEvent *evq_peek(const Evq *q)
{
    return q->len ? q->a[0].ev : NULL;
}
SimEvent *evq_pop(Evq *q);
/* ev is the head and its time/seq were just made later: move it down to its place. One sift
 * instead of a pop and a push. */
void evq_replace_top(Evq *q, SimEvent *ev);
void evq_remove(Evq *q, SimEvent *ev);
static inline size_t evq_len(const Evq *q)
{
    return q->len;
}
/* Checks the heap property and every event's index; returns false on the first violation. */
bool evq_check(const Evq *q);

#endif
