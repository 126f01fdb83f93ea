/* evq.c - the pending-event queue: an exact hierarchical timing wheel (a radix structure on
 * time), with a 4-ary heap as fallback for the rare event scheduled before the wheel's cursor.
 *
 * Why: a heap costs a dependent chain of ~log4(n) compare-and-move steps, each a likely cache
 * miss at n = 10^5, plus an index write into every event it moves. The wheel does O(1) work per
 * push and pop whatever n is, touches no event but the one pushed or popped, and knows which
 * events fire next (so it can prefetch them). Its levels are the digits of the time, so it has
 * no bucket width to tune: unlike a calendar queue it needs no resizing, and a mix of
 * nanosecond work and one-second timers costs at most a few cascades per timer (below).
 *
 * Structure. The cursor is a time <= every event in the wheel. An event at time t sits at the
 * level of the highest bit in which t differs from the cursor:
 *   level 0      t ^ cursor < 2^16: 65536 slots of exactly 1 ns (slot = t mod 2^16)
 *   level k >= 1 that bit is in [16 + 8(k-1), 16 + 8k): 256 slots, slot = that 8-bit digit of t
 * So level 0 covers the cursor's aligned 65.5 us block, level 1 its 16.8 ms block in 65.5 us
 * slots, level 2 its 4.3 s block in 16.8 ms slots, and so on up to 2^63. A level-k slot whose
 * digit is <= the cursor's is always empty (its events would be at a lower level).
 *
 * Finding the earliest event: the first non-empty level-0 slot at or after the cursor (bitmap
 * search). When level 0 has none, the lowest non-empty slot of the lowest non-empty level is
 * cascaded: the cursor moves to that slot's start and its events are pushed again, relative to
 * the new cursor, which puts each one at a lower level. An event thus moves at most once per
 * level it started above: a 200 ms timer twice, a 2 us delay (almost always) never.
 *
 * Order. Every push carries the largest seq so far and is appended at a slot's tail; a cascade
 * only fills slots that are empty (everything below the cascaded level is), in its own order.
 * So every slot is in seq order; a level-0 slot holds a single time, so its FIFO order is the
 * (time, seq) order, and ties fire in schedule order.
 *
 * The early heap. evq_first may move the cursor past the Sim's clock (to the start of the slot
 * it cascades, which is <= end and <= the earliest event). If the run then returns before that
 * event fires, a later push can be earlier than the cursor: it goes to the 4-ary heap, whose
 * events are therefore all earlier than every wheel event. In a run the heap stays empty.
 *
 * Where an event is follows from (time, cursor) alone: time < cursor: the heap, at heap_idx;
 * otherwise the slot computed from time and cursor, at cell heap_idx. So cancel is O(1).
 *
 * Slots are FIFOs of cells in chains of chunks: 8 cells, one cache line, 7 events and a link to
 * the next chunk. Chunks come from a pool that grows by doubling, with a free list: after
 * warm-up nothing is allocated. A cancelled event leaves a NULL cell, skipped when the head
 * reaches it; once dead cells outnumber events every slot is rebuilt, so memory stays O(events)
 * however often events are re-armed.
 *
 * Invariants (evq_check): every wheel event has time >= cursor and sits in the slot computed
 * from (time, cursor), at the cell its heap_idx names; slots are in seq order; the dead count
 * and the non-empty bitmaps are exact; the head cell of a non-empty slot is live; every
 * heap event is earlier than the cursor, the heap is a heap and heap_idx is right; each chunk is
 * in exactly one chain or the free list; len counts everything.
 */
#include "sim/evq.h"

#include <glib.h>
#include <string.h>

#define L0_MASK (EVQ_L0_SLOTS - 1)
#define LN_MASK (EVQ_LN_SLOTS - 1)
#define CHUNK 8u         /* cells per chunk */
#define LINK (CHUNK - 1) /* the cell of a chunk that links to the next */
#ifndef PREFETCH
#define PREFETCH 4u /* how many events ahead pop fetches the next to fire */
#endif

/* ---------------------------------------------------------------- the fallback 4-ary heap */

/* Branch-free (time, seq) comparison: sibling order is unpredictable. */
static inline bool entry_less(const EvqEntry *x, const EvqEntry *y)
{
    unsigned __int128 kx = ((unsigned __int128)(uint64_t)x->time << 64) | x->seq;
    unsigned __int128 ky = ((unsigned __int128)(uint64_t)y->time << 64) | y->seq;
    return kx < ky;
}

static inline void hplace(EvqHeap *h, size_t i, EvqEntry e)
{
    h->a[i] = e;
    e.ev->heap_idx = (uint32_t)i;
}

/* Sifting moves a "hole": the entry being placed is held aside, one write per level. */
static void sift_up(EvqHeap *h, size_t i, EvqEntry e)
{
    while (i > 0) {
        size_t parent = (i - 1) / 4;
        if (!entry_less(&e, &h->a[parent]))
            break;
        hplace(h, i, h->a[parent]);
        i = parent;
    }
    hplace(h, i, e);
}

/* Index of the smallest child of i, or 0 when i has none. */
static inline size_t min_child(const EvqHeap *h, size_t i)
{
    size_t first = 4 * i + 1;
    if (first + 4 <= h->len) { /* four children: a branch-free tournament */
        const EvqEntry *a = h->a;
        size_t l = first + (size_t)entry_less(&a[first + 1], &a[first]);
        size_t r = first + 2 + (size_t)entry_less(&a[first + 3], &a[first + 2]);
        return l + (size_t)entry_less(&a[r], &a[l]) * (r - l);
    }
    size_t best = 0;
    for (size_t c = first; c < h->len; c++)
        if (best == 0 || entry_less(&h->a[c], &h->a[best]))
            best = c;
    return best;
}

static void sift_down(EvqHeap *h, size_t i, EvqEntry e)
{
    for (;;) {
        size_t c = min_child(h, i);
        if (c == 0 || !entry_less(&h->a[c], &e))
            break;
        hplace(h, i, h->a[c]);
        i = c;
    }
    hplace(h, i, e);
}

static void heap_push(EvqHeap *h, SimEvent *ev)
{
    g_assert(h->len < UINT32_MAX);
    if (h->len == h->cap) {
        h->cap = h->cap ? 2 * h->cap : 16;
        h->a = g_renew(EvqEntry, h->a, h->cap);
    }
    sift_up(h, h->len++, (EvqEntry){ ev->time, ev->seq, ev });
}

static void heap_remove(EvqHeap *h, size_t i)
{
    g_assert(i < h->len);
    EvqEntry last = h->a[--h->len];
    if (i == h->len)
        return;
    if (i > 0 && entry_less(&last, &h->a[(i - 1) / 4]))
        sift_up(h, i, last);
    else
        sift_down(h, i, last);
}

/* ---------------------------------------------------------------- chunks */

static uint32_t chunk_alloc(Evq *q)
{
    uint32_t c = q->free_chunk;
    if (c) {
        q->free_chunk = (uint32_t)q->cells[c * CHUNK + LINK].next;
    } else {
        if (q->n_chunks == q->cap_chunks) {
            g_assert(q->cap_chunks <= UINT32_MAX / CHUNK / 2);
            q->cap_chunks *= 2;
            q->cells = g_renew(EvqCell, q->cells, (size_t)q->cap_chunks * CHUNK);
        }
        c = q->n_chunks++;
    }
    memset(&q->cells[c * CHUNK], 0, CHUNK * sizeof(EvqCell));
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

/* Empty slot gi and push its events again, in order: to lower levels after the cursor moved to
 * the slot's start (a cascade), or back into the same slot (compaction: drops the dead cells). */
static void redistribute(Evq *q, size_t gi)
{
    EvqSlot old = q->slots[gi];
    q->slots[gi] = (EvqSlot){ 0, 0 };
    bit_clear(q, gi);
    uint32_t cell = old.head;
    while (cell != old.tail) {
        if (cell % CHUNK == LINK) {
            uint32_t next = (uint32_t)q->cells[cell].next;
            chunk_free(q, cell / CHUNK);
            cell = next * CHUNK;
            continue;
        }
        if (cell % CHUNK + 3 < LINK) /* the cells of a chunk are written or NULL */
            __builtin_prefetch(q->cells[cell + 3].ev);
        SimEvent *ev = q->cells[cell].ev;
        q->cells[cell++].ev = NULL;
        if (ev)
            slot_append(q, slot_of(q->cursor, ev->time), ev);
        else
            q->dead--;
    }
    chunk_free(q, cell / CHUNK);
}

/* Drop every dead cell: rebuild every non-empty slot. O(n + slots / 64), done once the dead cells
 * outnumber the events (and a fixed allowance), so it costs O(1) per cancel. */
static void compact(Evq *q)
{
    for (size_t w = 0; w < G_N_ELEMENTS(q->bits); w++)
        for (uint64_t b = q->bits[w]; b; b &= b - 1)
            redistribute(q, w * 64 + (size_t)__builtin_ctzll(b));
    g_assert(q->dead == 0);
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
    g_free(q->early.a);
    memset(q, 0, sizeof *q);
}

void evq_push(Evq *q, SimEvent *ev)
{
    q->len++;
    if (ev->time < q->cursor)
        heap_push(&q->early, ev);
    else
        slot_append(q, slot_of(q->cursor, ev->time), ev);
}

void evq_remove(Evq *q, SimEvent *ev)
{
    q->len--;
    if (ev->time < q->cursor) {
        g_assert(ev->heap_idx < q->early.len && q->early.a[ev->heap_idx].ev == ev);
        heap_remove(&q->early, ev->heap_idx);
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
        compact(q);
}

SimEvent *evq_first_slow(Evq *q, sim_time_t end)
{
    if (q->early.len) {
        SimEvent *ev = q->early.a[0].ev;
        return ev->time <= end ? ev : NULL;
    }
    for (;;) {
        long s = find_l0(q, (uint64_t)q->cursor & L0_MASK);
        if (s >= 0) {
            SimEvent *ev = q->cells[q->slots[s].head].ev;
            return ev->time <= end ? ev : NULL;
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
        q->cursor = start;
        redistribute(q, EVQ_L0_SLOTS + (k - 1) * EVQ_LN_SLOTS + (size_t)s);
    }
}

void evq_pop_first(Evq *q, SimEvent *ev)
{
    q->len--;
    if (ev->time < q->cursor) {
        g_assert(q->early.len && q->early.a[0].ev == ev);
        heap_remove(&q->early, 0);
        return;
    }
    q->cursor = ev->time;
    size_t gi = (uint64_t)ev->time & L0_MASK;
    const EvqSlot *s = &q->slots[gi];
    g_assert(s->head != s->tail && q->cells[s->head].ev == ev);
    q->cells[s->head].ev = NULL; /* no pointer to an event that is not pending */
    advance_head(q, gi);
    if (s->head == s->tail)
        return;
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

static bool check_heap(const Evq *q)
{
    const EvqHeap *h = &q->early;
    for (size_t i = 0; i < h->len; i++) {
        const EvqEntry *e = &h->a[i];
        if (e->ev->heap_idx != i || e->ev->seq != e->seq || e->ev->time != e->time)
            return false;
        if (e->seq == 0 || e->time >= q->cursor)
            return false;
        if (i > 0 && entry_less(e, &h->a[(i - 1) / 4]))
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
    if (!check_heap(q))
        return false;
    g_autofree guint8 *seen = g_new0(guint8, q->n_chunks);
    seen[0] = 1;
    size_t live = 0, dead = 0;
    for (size_t gi = 0; gi < EVQ_SLOTS; gi++)
        if (!check_slot(q, gi, seen, &live, &dead))
            return false;
    if (live + q->early.len != q->len || dead != q->dead)
        return false;
    for (size_t w = 0; w < EVQ_L0_SLOTS / 64; w++)
        if (((q->summary[w / 64] >> (w % 64)) & 1) != (q->bits[w] != 0))
            return false;
    for (uint32_t c = q->free_chunk; c; c = (uint32_t)q->cells[c * CHUNK + LINK].next)
        if (c >= q->n_chunks || seen[c]++)
            return false;
    for (uint32_t c = 0; c < q->n_chunks; c++)
        if (!seen[c])
            return false;
    return true;
}
