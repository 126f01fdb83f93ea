/* skb.c - the skb pool and skb queues (sk_buff, sk_buff_head).
 *
 * Every packet of a run lives in a per-host pool: a free list threaded through the skbs
 * themselves, refilled by allocating blocks of SKB_POOL_BLOCK skbs at once. After warm-up the
 * pool stops growing and the packet path does no heap allocation at all. Blocks are kept in a
 * list and released only when the pool is freed.
 *
 * Under AddressSanitizer a free skb is poisoned (all but its free-list link), so a model that
 * touches an skb after freeing it, or frees it twice, is reported at the faulty line.
 */
#include "models/skb.h"

#include <glib.h>
#include <string.h>

#if defined(__SANITIZE_ADDRESS__)
#define SKB_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SKB_ASAN 1
#endif
#endif
#ifdef SKB_ASAN
#include <sanitizer/asan_interface.h>
#define SKB_POISON(skb) ASAN_POISON_MEMORY_REGION(skb_body(skb), sizeof(Skb) - sizeof(Skb *))
#define SKB_UNPOISON(skb) ASAN_UNPOISON_MEMORY_REGION(skb_body(skb), sizeof(Skb) - sizeof(Skb *))
#else
#define SKB_POISON(skb) ((void)(skb))
#define SKB_UNPOISON(skb) ((void)(skb))
#endif

/* 256 skbs (~50 KB) per block: one block covers a 64 KB TSO burst of 45 frames several times
 * over, so a small run grows once or twice and a busy one a few dozen times. */
#define SKB_POOL_BLOCK 256u

struct SkbPool {
    Skb *free_list;      /* linked through Skb.next */
    GPtrArray *blocks;   /* Skb[SKB_POOL_BLOCK] each */
    uint64_t in_use;
    uint64_t capacity;
};

/* The part of an skb after its `next` link (the link stays usable while the skb is free). */
static inline void *skb_body(Skb *skb)
{
    return (char *)skb + sizeof(Skb *);
}

SkbPool *skb_pool_new(void)
{
    SkbPool *p = g_new0(SkbPool, 1);
    p->blocks = g_ptr_array_new();
    return p;
}

void skb_pool_free(SkbPool *p)
{
    if (!p)
        return;
    for (guint i = 0; i < p->blocks->len; i++) {
        Skb *block = g_ptr_array_index(p->blocks, i);
        for (unsigned k = 0; k < SKB_POOL_BLOCK; k++)
            SKB_UNPOISON(&block[k]);
        g_free(block);
    }
    g_ptr_array_free(p->blocks, TRUE);
    g_free(p);
}

static void pool_grow(SkbPool *p)
{
    Skb *block = g_new0(Skb, SKB_POOL_BLOCK);
    g_ptr_array_add(p->blocks, block);
    for (unsigned k = SKB_POOL_BLOCK; k-- > 0;) {
        block[k].next = p->free_list;
        p->free_list = &block[k];
        SKB_POISON(&block[k]);
    }
    p->capacity += SKB_POOL_BLOCK;
}

/* A free skb, its contents undefined: the caller writes all of it. */
static inline Skb *pool_take(SkbPool *p)
{
    if (!p->free_list)
        pool_grow(p);
    Skb *skb = p->free_list;
    p->free_list = skb->next;
    SKB_UNPOISON(skb);
    p->in_use++;
    return skb;
}

Skb *skb_alloc(SkbPool *p)
{
    Skb *skb = pool_take(p);
    memset(skb, 0, sizeof(*skb));
    return skb;
}

Skb *skb_clone(SkbPool *p, const Skb *src)
{
    Skb *skb = pool_take(p); /* a clone is a whole copy: no clearing first (a packet per frame) */
    *skb = *src;
    skb->next = skb->prev = NULL;
    skb->sk = NULL;
    return skb;
}

void skb_free(SkbPool *p, Skb *skb)
{
    g_assert(p->in_use > 0);
#ifdef SKB_ASAN
    /* Reading a poisoned field makes a double free fail here, under ASan. */
    (void)*(volatile uint8_t *)&skb->flags;
#endif
    SKB_POISON(skb);
    skb->next = p->free_list;
    p->free_list = skb;
    p->in_use--;
}

uint64_t skb_pool_in_use(const SkbPool *p)
{
    return p->in_use;
}

uint64_t skb_pool_capacity(const SkbPool *p)
{
    return p->capacity;
}

/* ---- queues ---- */

void skb_queue_init(SkbQueue *q)
{
    *q = (SkbQueue){ 0 };
}

void skb_queue_tail(SkbQueue *q, Skb *skb)
{
    skb->next = NULL;
    skb->prev = q->tail;
    if (q->tail)
        q->tail->next = skb;
    else
        q->head = skb;
    q->tail = skb;
    q->qlen++;
    q->bytes += skb->len;
}

Skb *skb_dequeue(SkbQueue *q)
{
    Skb *skb = q->head;
    if (!skb)
        return NULL;
    q->head = skb->next;
    if (q->head)
        q->head->prev = NULL;
    else
        q->tail = NULL;
    skb->next = skb->prev = NULL;
    q->qlen--;
    q->bytes -= skb->len;
    return skb;
}

void skb_queue_purge(SkbQueue *q, SkbPool *p)
{
    Skb *skb;
    while ((skb = skb_dequeue(q)) != NULL)
        skb_free(p, skb);
}
