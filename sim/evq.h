/* evq.h - the pending-event queue, ordered by (time, seq): a sorted array while it holds few
 * events, a hierarchical timing wheel with exact 1 ns resolution when it holds many. See evq.c
 * for the structure, why, and its invariants.
 *
 * Private to the event core (sim.c); tests and benchmarks use it directly. Every event pushed
 * must carry a seq larger than that of every event in the queue (the Sim's schedule counter
 * guarantees it): slots are FIFO lists, and that is what makes them ordered by seq.
 */
#ifndef SKSIM_EVQ_H
#define SKSIM_EVQ_H

#include <stdbool.h>
#include <stddef.h>

#include "sim/sim.h"

#ifndef EVQ_L0_BITS
#define EVQ_L0_BITS 14 /* level 0: 2^14 slots of 1 ns */
#endif
#ifndef EVQ_LN_BITS
#define EVQ_LN_BITS 8 /* levels 1..: 2^8 slots each, every level 256 times coarser */
#endif
#define EVQ_LEVELS (1 + (64 - EVQ_L0_BITS + EVQ_LN_BITS - 1) / EVQ_LN_BITS) /* all 64 bits */
#define EVQ_L0_SLOTS ((size_t)1 << EVQ_L0_BITS)
#define EVQ_LN_SLOTS ((size_t)1 << EVQ_LN_BITS)
#define EVQ_SLOTS (EVQ_L0_SLOTS + (EVQ_LEVELS - 1) * EVQ_LN_SLOTS)

/* The fallback sorted array. Keys are inline so that inserting compares without touching the
 * events. */
typedef struct EvqEntry {
    sim_time_t time;
    uint64_t seq;
    SimEvent *ev;
} EvqEntry;

typedef struct EvqFew {
    EvqEntry *a; /* in decreasing (time, seq) order: the earliest event is a[len - 1] */
    size_t len;
    size_t cap;
} EvqFew;

/* A slot is a FIFO of events kept in a chain of chunks (see evq.c): head is the cell of the
 * first event, tail the cell where the next one goes; head == tail (both 0) when empty. */
typedef struct EvqSlot {
    uint32_t head, tail;
} EvqSlot;

typedef union EvqCell {
    SimEvent *ev;  /* an event, or NULL: popped, cancelled or not written yet */
    uint64_t next; /* the last cell of a chunk: index of the next chunk of the chain */
} EvqCell;

typedef struct Evq { /* the fields used on every operation first */
    sim_time_t cursor; /* <= every wheel event's time; the wheel's levels are relative to it */
    size_t scan;       /* a level-0 slot >= the cursor's, no non-empty level-0 slot before it */
    size_t len;        /* events */
    EvqSlot *slots;    /* EVQ_SLOTS: level 0, then EVQ_LN_SLOTS for each level */
    EvqCell *cells;    /* the chunk pool; chunk 0 is never used */
    EvqFew few;        /* all events while few; with the wheel, those before the cursor (rare) */
    bool wheel;        /* the wheel is in use (else it is empty) */
    uint32_t free_chunk, n_chunks, cap_chunks;
    size_t dead;                           /* cancelled cells still in slots */
    uint64_t bits[EVQ_SLOTS / 64];         /* one bit per slot: non-empty */
    uint64_t summary[EVQ_L0_SLOTS / 4096]; /* one bit per non-zero word of level 0's bits */
} Evq;

void evq_init(Evq *q);
void evq_destroy(Evq *q);
/* ev->time and ev->seq must be set; ev must not be in the queue. */
void evq_push(Evq *q, SimEvent *ev);
void evq_remove(Evq *q, SimEvent *ev);

SimEvent *evq_first_slow(Evq *q, sim_time_t end);
/* The earliest event if its time is <= end, else NULL (also when empty). Not const: it may move
 * events down the wheel, but never moves the cursor past end. */
static inline SimEvent *evq_first(Evq *q, sim_time_t end)
{
    if (q->few.len) { /* few events, or some before the wheel's cursor */
        const EvqEntry *e = &q->few.a[q->few.len - 1];
        return e->time <= end ? e->ev : NULL;
    }
    const EvqSlot *s = &q->slots[q->scan];
    if (s->head != s->tail) { /* the common case with the wheel */
        sim_time_t t = (sim_time_t)(((uint64_t)q->cursor & ~(uint64_t)(EVQ_L0_SLOTS - 1)) | q->scan);
        return t <= end ? q->cells[s->head].ev : NULL;
    }
    return evq_first_slow(q, end);
}
/* Remove ev, which the last evq_first returned (nothing pushed or removed in between). From the
 * sorted array it is the last entry: nothing moves. */
void evq_pop_first_slow(Evq *q, SimEvent *ev);
static inline void evq_pop_first(Evq *q, SimEvent *ev)
{
    if (q->wheel) {
        evq_pop_first_slow(q, ev);
        return;
    }
    q->len--;
    q->few.len--;
    q->cursor = ev->time > q->cursor ? ev->time : q->cursor;
}
/* evq_first + evq_pop_first. The earliest event, or NULL when empty. */
SimEvent *evq_pop(Evq *q);

static inline size_t evq_len(const Evq *q)
{
    return q->len;
}
/* Checks every invariant listed in evq.c; returns false on the first violation. O(n + slots). */
bool evq_check(const Evq *q);

/* A Sim's queue, for tests (defined in sim.c). */
const Evq *sim_queue(const Sim *sim);

#endif
