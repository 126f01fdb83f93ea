/* evq.c - the pending-event queue, ordered by (time, seq): a sorted array while it holds few
 * events, an exact hierarchical timing wheel (a radix structure on time) when it holds many.
 *
 * Why. A heap costs a dependent chain of ~log4(n) compare-and-move steps per operation, each a
 * likely cache miss and branch miss at n = 10^5, plus an index write into every event it moves.
 * The wheel does O(1) work per push, pop and cancel whatever n is, touches no event but the one
 * pushed or popped, and knows which events fire next (so it prefetches them). Its levels are the
 * digits of the time, so it has no bucket width to tune: unlike a calendar queue it needs no
 * resizing by sampling, and it does not degrade when nanosecond work is mixed with millisecond
 * and one-second timers. But per event it keeps more bookkeeping than a small array, which lives
 * in L1: below WHEEL_ABOVE events the array is as fast or faster, so the queue starts as an
 * array, moves to the wheel above WHEEL_ABOVE events and back below FEW_BELOW (the moves cost
 * O(n log n) or O(n^2) for n <= 64, and are at least 48 operations apart).
 *
 * The sorted array keeps the latest event first and the earliest last: a pop takes the last
 * entry and moves nothing; a push moves up by one each entry earlier than the new event. In the
 * simulator a new event is nearly always among the earliest pending (the next piece of CPU work
 * against ticks, delayed ACKs and retransmission timers): with release-sock-resched's ~15
 * pending events it goes after 1.1 of them on average, backlog-limit's ~9 after 1.2, so a push
 * moves one or two entries where a 4-ary heap sifted through two levels (four comparisons and
 * a move each).
 *
 * The wheel. The cursor is a time <= every event in the wheel. An event at time t sits at the
 * level of the highest bit in which t differs from the cursor:
 *   level 0      t ^ cursor < 2^14: 16384 slots of exactly 1 ns (slot = t mod 2^14)
 *   level k >= 1 that bit is in [14 + 8(k-1), 14 + 8k): 256 slots, slot = that 8-bit digit of t
 * So level 0 covers the cursor's aligned 16.4 us block, level 1 its 4.2 ms block in 16.4 us
 * slots, level 2 its 1.07 s block in 4.2 ms slots, and so on up to 2^63. A level-k slot whose
 * digit is <= the cursor's is always empty (its events would be at a lower level).
 *
 * The earliest event is the head of the first non-empty level-0 slot at or after the cursor
 * (bitmap search from `scan`, a remembered lower bound). When level 0 is empty the first
 * non-empty slot of the lowest non-empty level is cascaded: the cursor moves to that slot's
 * start - or, when it holds few events, straight to the earliest of them - and its events are
 * pushed again relative to the new cursor, which puts each at a lower level. So an event moves
 * at most once per level it started above: a 200 ms timer at most twice, a 2 us delay rarely.
 *
 * Order. Every push carries the largest seq so far and is appended at a slot's tail; a cascade
 * only fills slots that are empty (everything below the cascaded level is), in its own order;
 * the move from the array appends in seq order. So every slot is in seq order; a level-0 slot
 * holds a single time, so its FIFO order is the (time, seq) order: ties fire in schedule order.
 *
 * Events before the cursor. evq_first may move the cursor past the Sim's clock (never past end,
 * never past the earliest event). If the run then returns before that event fires (stop, event
 * limit), a later push can be earlier than the cursor: it goes to the array, whose events are
 * then all earlier than every wheel event. In a run this never happens.
 *
 * Where an event is follows from the mode, its time and the cursor: in the array (at heap_idx)
 * without the wheel or when time < cursor, else in the slot computed from (time, cursor), at
 * cell heap_idx. So cancel is O(1) in the wheel, O(n) in the array (n < WHEEL_ABOVE).
 *
 * Slots are FIFOs of cells in chains of chunks: 8 cells, one cache line, 7 events and a link to
 * the next chunk. Chunks come from a pool that grows by doubling, with a free list: after
 * warm-up nothing is allocated. A popped or cancelled event's cell is cleared (the queue keeps
 * no pointer to an event that is not pending); cancelled cells are skipped when the head reaches
 * them, and once they outnumber the events every slot is rebuilt, so memory stays O(events)
 * however often events are re-armed.
 *
 * Invariants (evq_check): every wheel event has time >= cursor and sits in the slot computed
 * from (time, cursor), at the cell its heap_idx names; slots are in seq order; the head cell of
 * a non-empty slot is live; the dead-cell count and the non-empty bitmaps are exact; no level-0
 * slot between the cursor's and scan is non-empty; with the wheel, every array event is earlier
 * than the cursor; without it, the wheel is empty; the array is strictly decreasing and
 * heap_idx is right; each chunk is in exactly one chain or the free list,
 * and a free chunk's event cells are NULL; len counts every event.
 */
#include "sim/evq.h"

#include <glib.h>
#include <string.h>

#define L0_MASK (EVQ_L0_SLOTS - 1)
#define LN_MASK (EVQ_LN_SLOTS - 1)
#define CHUNK 8u         /* cells per chunk */
#define LINK (CHUNK - 1) /* the cell of a chunk that links to the next */
_Static_assert(EVQ_L0_BITS >= 12 && EVQ_LN_BITS >= 6, "bitmap words and summary assume it");

#ifndef PREFETCH
#define PREFETCH 4u /* how many events ahead pop fetches the next to fire */
#endif
#ifndef WHEEL_ABOVE
#define WHEEL_ABOVE 64 /* more events than this: the wheel */
#endif
#ifndef FEW_BELOW
#define FEW_BELOW 16 /* fewer than this: the sorted array */
#endif
#ifndef BATCH
#define BATCH 32 /* events a cascade collects (and fetches) before it reads their times */
#endif

/* ---------------------------------------------------------------- the fallback sorted array */

/* Branch-free (time, seq) comparison. */
static inline bool entry_less(const EvqEntry *x, const EvqEntry *y)
{
    unsigned __int128 kx = ((unsigned __int128)(uint64_t)x->time << 64) | x->seq;
    unsigned __int128 ky = ((unsigned __int128)(uint64_t)y->time << 64) | y->seq;
    return kx < ky;
}

static inline void few_place(EvqFew *f, size_t i, EvqEntry e)
{
    f->a[i] = e;
    e.ev->heap_idx = (uint32_t)i;
}

/* Insert ev: the entries earlier than it (at the end) move up by one. */
static void few_insert(EvqFew *f, SimEvent *ev)
{
    g_assert(f->len < UINT32_MAX);
    if (G_UNLIKELY(f->len == f->cap)) {
        f->cap = f->cap ? 2 * f->cap : 2 * (WHEEL_ABOVE + 1);
        f->a = g_renew(EvqEntry, f->a, f->cap);
    }
    EvqEntry e = { ev->time, ev->seq, ev };
    size_t i = f->len++;
    for (; i > 0 && entry_less(&f->a[i - 1], &e); i--)
        few_place(f, i, f->a[i - 1]);
    few_place(f, i, e);
}

/* Remove entry i: the entries earlier than it move down by one. */
static void few_remove(EvqFew *f, size_t i)
{
    g_assert(i < f->len);
    for (f->len--; i < f->len; i++)
        few_place(f, i, f->a[i + 1]);
}

/* ---------------------------------------------------------------- chunks */

/* A chunk never used before: grow the pool if needed, clear it. */
static G_GNUC_NO_INLINE uint32_t chunk_new(Evq *q)
{
    if (q->n_chunks == q->cap_chunks) {
        g_assert(q->cap_chunks <= UINT32_MAX / CHUNK / 2);
        q->cap_chunks *= 2;
        q->cells = g_renew(EvqCell, q->cells, (size_t)q->cap_chunks * CHUNK);
    }
    uint32_t c = q->n_chunks++;
    memset(&q->cells[c * CHUNK], 0, CHUNK * sizeof(EvqCell));
    return c;
}

/* A chunk from the free list needs no clearing: every event cell of a freed chunk is NULL (each
 * was popped, cancelled or moved, and cleared then; the cells after a tail are NULL), and its
 * link cell, read only once the tail has passed it, is written by slot_append before that (until
 * then it holds a stale chunk index, which is still inside the pool: prefetching through it is
 * harmless). */
static inline uint32_t chunk_alloc(Evq *q)
{
    uint32_t c = q->free_chunk;
    if (G_UNLIKELY(c == 0))
        return chunk_new(q);
    q->free_chunk = (uint32_t)q->cells[c * CHUNK + LINK].next;
    return c;
}

static inline void chunk_free(Evq *q, uint32_t c)
{
    q->cells[c * CHUNK + LINK].next = q->free_chunk;
    q->free_chunk = c;
}

/* ---------------------------------------------------------------- slots and bitmaps */

/* Global slot index (level 0 first, then 256 per level) of time t >= cursor. */
static inline size_t slot_of(sim_time_t cursor, sim_time_t t)
{
    uint64_t x = (uint64_t)(t ^ cursor);
    if (x < EVQ_L0_SLOTS)
        return (size_t)((uint64_t)t & L0_MASK);
    unsigned k = (unsigned)(63 - __builtin_clzll(x) - EVQ_L0_BITS) / EVQ_LN_BITS; /* level - 1 */
    unsigned shift = EVQ_L0_BITS + k * EVQ_LN_BITS;
    return EVQ_L0_SLOTS + k * EVQ_LN_SLOTS + (((uint64_t)t >> shift) & LN_MASK);
}

static inline void bit_set(Evq *q, size_t gi)
{
    q->bits[gi / 64] |= 1ULL << (gi % 64);
    if (gi < EVQ_L0_SLOTS)
        q->summary[gi / 4096] |= 1ULL << (gi / 64 % 64);
}

static inline void bit_clear(Evq *q, size_t gi)
{
    q->bits[gi / 64] &= ~(1ULL << (gi % 64));
    if (gi < EVQ_L0_SLOTS && q->bits[gi / 64] == 0)
        q->summary[gi / 4096] &= ~(1ULL << (gi / 64 % 64));
}

/* First non-empty level-0 slot >= from, or -1. */
static long find_l0(const Evq *q, size_t from)
{
    size_t w = from / 64;
    uint64_t b = q->bits[w] & (~0ULL << (from % 64));
    if (b)
        return (long)(w * 64 + (size_t)__builtin_ctzll(b));
    for (size_t sw = (w + 1) / 64, first = (w + 1) % 64; sw < G_N_ELEMENTS(q->summary);
         sw++, first = 0) {
        uint64_t s = q->summary[sw] & (~0ULL << first);
        if (s) {
            w = sw * 64 + (size_t)__builtin_ctzll(s);
            return (long)(w * 64 + (size_t)__builtin_ctzll(q->bits[w]));
        }
    }
    return -1;
}

/* First non-empty slot >= from (0..256) of level k >= 1, as a digit, or -1. */
static long find_ln(const Evq *q, unsigned k, size_t from)
{
    const uint64_t *bits = &q->bits[(EVQ_L0_SLOTS + (k - 1) * EVQ_LN_SLOTS) / 64];
    for (size_t w = from / 64; w < EVQ_LN_SLOTS / 64; w++) {
        uint64_t b = bits[w] & (w == from / 64 ? ~0ULL << (from % 64) : ~0ULL);
        if (b)
            return (long)(w * 64 + (size_t)__builtin_ctzll(b));
    }
    return -1;
}

static inline void slot_append(Evq *q, size_t gi, SimEvent *ev)
{
    EvqSlot *s = &q->slots[gi];
    if (s->head == s->tail) { /* empty slots own no chunk */
        uint32_t c = chunk_alloc(q);
        s->head = s->tail = c * CHUNK;
        bit_set(q, gi);
    } else if (s->tail % CHUNK == LINK) {
        uint32_t c = chunk_alloc(q);
        q->cells[s->tail].next = c;
        s->tail = c * CHUNK;
    }
    q->cells[s->tail].ev = ev;
    ev->heap_idx = s->tail++;
}

/* The head cell was just emptied: move head past it and past dead cells, freeing the chunks it
 * leaves. When nothing is left the slot is reset (its last chunk freed). */
static inline void advance_head(Evq *q, size_t gi)
{
    EvqSlot *s = &q->slots[gi];
    uint32_t h = s->head + 1;
    for (;;) {
        if (h == s->tail) {
            chunk_free(q, h / CHUNK);
            *s = (EvqSlot){ 0, 0 };
            bit_clear(q, gi);
            return;
        }
        if (h % CHUNK == LINK) {
            uint32_t next = (uint32_t)q->cells[h].next;
            chunk_free(q, h / CHUNK);
            h = next * CHUNK;
        } else if (q->cells[h].ev == NULL) {
            h++;
            q->dead--;
        } else {
            break;
        }
    }
    s->head = h;
}

/* Push a batch of events again, in order. Their times are read only now that the loads
 * issued while collecting them had time to land; the target slots are fetched before use. */
static void append_batch(Evq *q, SimEvent **batch, size_t n)
{
    if (!q->wheel) { /* emptying the wheel into the array */
        for (size_t i = 0; i < n; i++)
            few_insert(&q->few, batch[i]);
        return;
    }
    size_t gi[BATCH];
    for (size_t i = 0; i < n; i++) {
        gi[i] = slot_of(q->cursor, batch[i]->time);
        __builtin_prefetch(&q->slots[gi[i]]);
    }
    for (size_t i = 0; i < n; i++)
        slot_append(q, gi[i], batch[i]);
}

/* Empty slot gi and push its events again, in order. A cascade (start >= 0: the slot's first
 * time, > 0) first moves the cursor to start - or, when the slot holds at most BATCH events,
 * straight to the earliest of them if that is <= end, which lands it in level 0 at once rather
 * than one level at a time. Otherwise (start < 0) the cursor stays: compaction refills the same
 * slot minus its dead cells, or, without the wheel, the events go to the array. */
static void redistribute(Evq *q, size_t gi, sim_time_t start, sim_time_t end)
{
    EvqSlot old = q->slots[gi];
    q->slots[gi] = (EvqSlot){ 0, 0 };
    bit_clear(q, gi);
    SimEvent *batch[BATCH];
    size_t n = 0;
    uint32_t cell = old.head;
    for (;;) {
        bool done = cell == old.tail;
        if (n == BATCH || (done && n > 0)) {
            if (start >= 0) { /* the first batch: place the cursor */
                sim_time_t min = SIM_TIME_MAX;
                for (size_t i = 0; done && i < n; i++)
                    min = MIN(min, batch[i]->time);
                q->cursor = done && min <= end ? min : start;
                q->scan = (uint64_t)q->cursor & L0_MASK;
                start = -1;
            }
            append_batch(q, batch, n);
            n = 0;
        }
        if (done)
            break;
        if (cell % CHUNK == LINK) {
            uint32_t next = (uint32_t)q->cells[cell].next;
            chunk_free(q, cell / CHUNK);
            cell = next * CHUNK;
            __builtin_prefetch(&q->cells[q->cells[cell + LINK].next * CHUNK]);
            continue;
        }
        SimEvent *ev = q->cells[cell].ev;
        q->cells[cell++].ev = NULL;
        if (ev == NULL) {
            q->dead--;
            continue;
        }
        __builtin_prefetch(ev);
        batch[n++] = ev;
    }
    chunk_free(q, cell / CHUNK);
}

/* Rebuild every non-empty slot, in place (dropping the dead cells: done once they outnumber the
 * events and a fixed allowance, so O(1) per cancel) or, once q->wheel is cleared, into the array. */
static void rebuild_all(Evq *q)
{
    for (size_t w = 0; w < G_N_ELEMENTS(q->bits); w++)
        for (uint64_t b = q->bits[w]; b; b &= b - 1)
            redistribute(q, w * 64 + (size_t)__builtin_ctzll(b), -1, 0);
    g_assert(q->dead == 0);
}

/* Few events: a sorted array of that size lives in L1 and is cheaper than the wheel's
 * bookkeeping (a chunk and bitmap bits per lonely event, cascades of far timers). The switches
 * cost O(n log n) or O(n^2) with n <= 64, and are at least WHEEL_ABOVE - FEW_BELOW operations
 * apart. */
static void to_few(Evq *q)
{
    q->wheel = false;
    rebuild_all(q);
}

static int entry_seq_cmp(const void *a, const void *b)
{
    uint64_t x = ((const EvqEntry *)a)->seq, y = ((const EvqEntry *)b)->seq;
    return (x > y) - (x < y);
}

/* Every event from the array goes into the wheel, in seq order (that keeps each slot in seq
 * order), relative to the cursor, the last time popped; any earlier event stays in the array. */
static void to_wheel(Evq *q)
{
    EvqEntry all[WHEEL_ABOVE + 1];
    size_t n = q->few.len;
    g_assert(n <= G_N_ELEMENTS(all));
    memcpy(all, q->few.a, n * sizeof *all);
    qsort(all, n, sizeof *all, entry_seq_cmp);
    q->few.len = 0;
    q->wheel = true;
    q->scan = (uint64_t)q->cursor & L0_MASK;
    for (size_t i = 0; i < n; i++) {
        if (all[i].time < q->cursor)
            few_insert(&q->few, all[i].ev);
        else
            slot_append(q, slot_of(q->cursor, all[i].time), all[i].ev);
    }
}

/* ---------------------------------------------------------------- the queue */

void evq_init(Evq *q)
{
    memset(q, 0, sizeof *q);
    q->slots = g_new0(EvqSlot, EVQ_SLOTS);
    q->cap_chunks = 64;
    q->n_chunks = 1; /* chunk 0 is never used: a link of 0 is "none" */
    q->cells = g_new(EvqCell, (size_t)q->cap_chunks * CHUNK);
    memset(q->cells, 0, CHUNK * sizeof(EvqCell)); /* chunk 0: prefetching through it is harmless */
}

/* Does not touch the events still queued: their owners may already be gone. */
void evq_destroy(Evq *q)
{
    g_free(q->slots);
    g_free(q->cells);
    g_free(q->few.a);
    memset(q, 0, sizeof *q);
}

void evq_push(Evq *q, SimEvent *ev)
{
    q->len++;
    if (!q->wheel || ev->time < q->cursor) {
        few_insert(&q->few, ev);
    } else {
        size_t gi = slot_of(q->cursor, ev->time);
        slot_append(q, gi, ev);
        q->scan = MIN(q->scan, gi);
        return;
    }
    if (!q->wheel && q->len > WHEEL_ABOVE)
        to_wheel(q);
}

void evq_remove(Evq *q, SimEvent *ev)
{
    q->len--;
    if (!q->wheel || ev->time < q->cursor) {
        g_assert(ev->heap_idx < q->few.len && q->few.a[ev->heap_idx].ev == ev);
        few_remove(&q->few, ev->heap_idx);
        return;
    }
    size_t gi = slot_of(q->cursor, ev->time);
    uint32_t cell = ev->heap_idx;
    g_assert(q->slots[gi].head != q->slots[gi].tail && cell / CHUNK < q->n_chunks &&
             q->cells[cell].ev == ev);
    q->cells[cell].ev = NULL;
    if (cell == q->slots[gi].head)
        advance_head(q, gi);
    else if (++q->dead > q->len + 1024)
        rebuild_all(q);
    if (q->len < FEW_BELOW)
        to_few(q);
}

SimEvent *evq_first_slow(Evq *q, sim_time_t end)
{
    if (q->few.len) {
        SimEvent *ev = q->few.a[q->few.len - 1].ev;
        return ev->time <= end ? ev : NULL;
    }
    for (;;) {
        long s = find_l0(q, q->scan);
        if (s >= 0) { /* its time is the cursor's block + s: no need to read the event yet */
            q->scan = (size_t)s;
            sim_time_t t = (sim_time_t)(((uint64_t)q->cursor & ~(uint64_t)L0_MASK) | (uint64_t)s);
            return t <= end ? q->cells[q->slots[s].head].ev : NULL;
        }
        /* Level 0 is empty: cascade the first non-empty slot of the lowest non-empty level. */
        unsigned k;
        for (k = 1; k < EVQ_LEVELS; k++) {
            unsigned shift = EVQ_L0_BITS + (k - 1) * EVQ_LN_BITS;
            s = find_ln(q, k, (((uint64_t)q->cursor >> shift) & LN_MASK) + 1);
            if (s >= 0)
                break;
        }
        if (k == EVQ_LEVELS)
            return NULL;
        unsigned shift = EVQ_L0_BITS + (k - 1) * EVQ_LN_BITS;
        uint64_t above = shift + EVQ_LN_BITS < 64 ? ~0ULL << (shift + EVQ_LN_BITS) : 0;
        sim_time_t start = (sim_time_t)(((uint64_t)q->cursor & above) | ((uint64_t)s << shift));
        if (start > end) /* every event is at or after start */
            return NULL;
        redistribute(q, EVQ_L0_SLOTS + (k - 1) * EVQ_LN_SLOTS + (size_t)s, start, end);
    }
}

void evq_pop_first_slow(Evq *q, SimEvent *ev)
{
    q->len--;
    if (ev->time < q->cursor) {
        g_assert(q->few.len && q->few.a[q->few.len - 1].ev == ev);
        q->few.len--;
        return;
    }
    if (q->len < FEW_BELOW) {
        q->cursor = ev->time;
        to_few(q);
        g_assert(q->few.a[q->few.len - 1].ev == ev); /* the earliest */
        q->few.len--;
        return;
    }
    q->cursor = ev->time;
    size_t gi = (uint64_t)ev->time & L0_MASK;
    const EvqSlot *s = &q->slots[gi];
    g_assert(s->head != s->tail && q->cells[s->head].ev == ev);
    q->cells[s->head].ev = NULL; /* no pointer to an event that is not pending */
    advance_head(q, gi);
    if (s->head == s->tail) { /* the next non-empty level-0 slot: note it, fetch its head */
        long next = gi + 1 < EVQ_L0_SLOTS ? find_l0(q, gi + 1) : -1;
        if (next >= 0) { /* evq_first's inline path finds it (events are usually > 64 ns apart) */
            q->scan = (size_t)next;
            __builtin_prefetch(q->cells[q->slots[next].head].ev);
        }
        return;
    }
    /* The events that fire next are known: fetch the one PREFETCH cells ahead (skipping the
     * link cell), and the next chunk when entering a chunk. The cells after the tail are NULL. */
    uint32_t h = s->head, ahead = h % CHUNK + PREFETCH;
    uint32_t next = (uint32_t)q->cells[h - h % CHUNK + LINK].next;
    if (ahead < LINK)
        __builtin_prefetch(q->cells[h + PREFETCH].ev);
    else
        __builtin_prefetch(q->cells[next * CHUNK + ahead - LINK].ev);
    if (h % CHUNK == 0)
        __builtin_prefetch(&q->cells[next * CHUNK]);
}

SimEvent *evq_pop(Evq *q)
{
    SimEvent *ev = evq_first(q, SIM_TIME_MAX);
    if (ev)
        evq_pop_first(q, ev);
    return ev;
}

/* ---------------------------------------------------------------- invariant check */

static bool check_few(const Evq *q)
{
    const EvqFew *f = &q->few;
    for (size_t i = 0; i < f->len; i++) {
        const EvqEntry *e = &f->a[i];
        if (e->ev->heap_idx != i || e->ev->seq != e->seq || e->ev->time != e->time)
            return false;
        if (e->seq == 0 || (q->wheel && e->time >= q->cursor))
            return false;
        if (i > 0 && !entry_less(e, &f->a[i - 1])) /* the latest first */
            return false;
    }
    return true;
}

/* Walk slot gi's chain, marking its chunks in `seen`; adds its events and dead cells. */
static bool check_slot(const Evq *q, size_t gi, guint8 *seen, size_t *live, size_t *dead)
{
    const EvqSlot *s = &q->slots[gi];
    bool bit = (q->bits[gi / 64] >> (gi % 64)) & 1;
    if (bit != (s->head != s->tail))
        return false;
    if (s->head == s->tail)
        return s->head == 0;
    if (s->head / CHUNK == 0 || s->head % CHUNK == LINK || q->cells[s->head].ev == NULL)
        return false;
    uint32_t cell = s->head;
    uint64_t last_seq = 0;
    if (seen[cell / CHUNK]++)
        return false;
    while (cell != s->tail) {
        if (cell % CHUNK == LINK) {
            uint32_t next = (uint32_t)q->cells[cell].next;
            if (next == 0 || next >= q->n_chunks || seen[next]++)
                return false;
            cell = next * CHUNK;
            continue;
        }
        const SimEvent *ev = q->cells[cell].ev;
        if (ev == NULL) {
            (*dead)++;
        } else {
            (*live)++;
            if (ev->heap_idx != cell || ev->seq <= last_seq || ev->time < q->cursor ||
                slot_of(q->cursor, ev->time) != gi)
                return false;
            last_seq = ev->seq;
        }
        cell++;
    }
    /* the cells after the tail in its chunk are NULL (prefetching relies on it) */
    for (; cell % CHUNK != LINK; cell++)
        if (q->cells[cell].ev != NULL)
            return false;
    return true;
}

bool evq_check(const Evq *q)
{
    if (!check_few(q))
        return false;
    g_autofree guint8 *seen = g_new0(guint8, q->n_chunks);
    seen[0] = 1;
    size_t c0 = (uint64_t)q->cursor & L0_MASK;
    if (q->wheel && (q->scan < c0 || q->scan >= EVQ_L0_SLOTS))
        return false;
    for (size_t gi = c0; q->wheel && gi < q->scan; gi++)
        if (q->slots[gi].head != q->slots[gi].tail)
            return false;
    size_t live = 0, dead = 0;
    for (size_t gi = 0; gi < EVQ_SLOTS; gi++)
        if (!check_slot(q, gi, seen, &live, &dead))
            return false;
    if (live + q->few.len != q->len || dead != q->dead || (!q->wheel && live + dead > 0))
        return false;
    for (size_t w = 0; w < EVQ_L0_SLOTS / 64; w++)
        if (((q->summary[w / 64] >> (w % 64)) & 1) != (q->bits[w] != 0))
            return false;
    for (uint32_t c = q->free_chunk; c; c = (uint32_t)q->cells[c * CHUNK + LINK].next) {
        if (c >= q->n_chunks || seen[c]++)
            return false;
        for (uint32_t k = 0; k < LINK; k++) /* chunk_alloc hands it out without clearing it */
            if (q->cells[c * CHUNK + k].ev != NULL)
                return false;
    }
    for (uint32_t c = 0; c < q->n_chunks; c++)
        if (!seen[c])
            return false;
    return true;
}
