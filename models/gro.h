/* gro.h - generic receive offload as NAPI runs it (net/core/gro.c, tcp_gro_receive).
 *
 * A Gro belongs to one NAPI context. gro_receive() takes one received frame and either merges it
 * into the held skb of its flow, holds it as the start of a new aggregate, or passes it on
 * unmerged; completed skbs go to the "normal" list, which is delivered in batches of
 * gro_normal_batch segments (5.4+) and at gro_flush_normal(). gro_flush_normal(g, false) is
 * napi_complete_done(): every held aggregate is completed, oldest first, and the normal list
 * delivered; gro_flush_normal(g, true) is the end of a poll that used its whole weight on a
 * HZ >= 1000 kernel: only aggregates held since an earlier jiffy are completed.
 *
 * With enabled == false every frame goes to the normal list unmerged (a device without
 * NETIF_F_GRO: napi_gro_receive returns GRO_NORMAL).
 */
#ifndef SKSIM_GRO_H
#define SKSIM_GRO_H

#include <stdbool.h>
#include <stdint.h>

#include "models/cpu.h"
#include "models/skb.h"
#include "sim/sim.h"

/* MAX_GRO_SKBS: aggregates held per NAPI context (the kernel's limit is per hash bucket; here it
 * is for the whole context, which matters only with more than 8 concurrent flows per queue). */
#define GRO_MAX_HELD 8u

typedef void (*GroDeliverFn)(void *ctx, Skb *skb, Cpu *cpu);

typedef struct GroParams {
    bool enabled;          /* hosts.H.nic.gro */
    uint32_t max_size;     /* gro_max_size: the IP packet of an aggregate stays below it (65536) */
    uint32_t max_frags;    /* frames per aggregate; 0 = no limit (frag_list chaining, the kernel) */
    uint32_t max_held;     /* <= GRO_MAX_HELD */
    uint32_t normal_batch; /* gro_normal_batch: 8 (5.4+); 1 = deliver each skb at once (older) */
    uint32_t mtu;          /* for the truesize model */
} GroParams;

/* Kernel defaults (notes 0 and D.2): gro_max_size 65536, frag_list chaining, 8 held,
 * gro_normal_batch 8. */
void gro_params_default(GroParams *p, uint32_t mtu, bool enabled);

typedef struct GroStats {
    uint64_t frames;     /* frames received */
    uint64_t merged;     /* frames merged into a held skb */
    uint64_t aggregates; /* skbs completed out of held ones (incl. single frames) */
    uint64_t delivered;  /* skbs handed to deliver() */
} GroStats;

typedef struct Gro {
    /* private */
    GroParams p;
    SkbPool *pool;
    GroDeliverFn deliver;
    void *ctx;
    Skb *held[GRO_MAX_HELD]; /* oldest first */
    uint64_t age[GRO_MAX_HELD]; /* NAPI_GRO_CB(skb)->age: jiffies when held[i] was first held */
    uint32_t nheld;
    const Sim *sim;          /* clock for the ages (gro_set_clock); NULL: every age is 0 */
    uint32_t hz;
    sim_time_t tick_phase;
    SkbQueue normal;         /* napi->rx_list */
    uint32_t normal_segs;    /* napi->rx_count */
    GroStats stats;
} Gro;

void gro_init(Gro *g, const GroParams *p, SkbPool *pool, GroDeliverFn deliver, void *ctx);
/* Free whatever is still held or batched (end of run). */
void gro_destroy(Gro *g);
/* napi_gro_receive: takes ownership of a single-frame skb (gso_segs 1, truesize of one frame). */
void gro_receive(Gro *g, Skb *frame, Cpu *cpu);
/* The jiffies clock that dates held aggregates (the NIC's host clock). */
void gro_set_clock(Gro *g, const Sim *sim, uint32_t hz, sim_time_t tick_phase);
/* gro_flush_normal(): complete the held skbs - with flush_old only those first held in an
 * earlier jiffy than now -, oldest first, then deliver the normal list. */
void gro_flush_normal(Gro *g, bool flush_old, Cpu *cpu);
/* napi_complete_done: complete every held skb, then deliver the normal list. */
void gro_flush(Gro *g, Cpu *cpu);
static inline GroStats gro_stats(const Gro *g)
{
    return g->stats;
}

#endif
