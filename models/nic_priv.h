/* nic_priv.h - the NIC's state, shared by nic.c (transmit, interrupt, NAPI) and nic_rx.c (the
 * RX rings fed by arriving bursts); inspect.c reads it. The transmit side is one per NIC, the
 * receive side one per RSS queue (NicQueue, hosts.H.nic.rx_queues of them, allocated with the
 * NIC).
 */
#ifndef SKSIM_NIC_PRIV_H
#define SKSIM_NIC_PRIV_H

#include "models/dql.h"
#include "models/gro.h"
#include "models/netdev_priv.h"
#include "models/nic_itr.h"
#include "models/qdisc.h"

/* Bursts on their way in, in arrival order (a growable ring buffer: it stops growing once the
 * run is warm, so the packet path allocates nothing). */
typedef struct TrainQ {
    RxTrain *buf;
    uint32_t cap, head, len;
} TrainQ;

typedef struct Nic Nic;

/* One RX queue (one "combined channel" of ethtool -L): its RX ring, MSI-X interrupt, NAPI
 * context and GRO state. Queue 0 also cleans the TX completions (nic.c). */
typedef struct NicQueue {
    Nic *nic;
    uint32_t index;       /* 0 .. rx_queues - 1 */
    TrainQ trains;        /* bursts hashed to this queue, in arrival order */
    SkbQueue rx_ring;     /* frames admitted, conf->rx_ring descriptors */
    SimEvent rx_ev;       /* the next arrival, armed only while NAPI is idle */
    SimEvent irq_ev;      /* the moderated interrupt, when it does not fire at once */
    bool irq_fired;       /* the interrupt has fired before (irq_mode throttle, ixgbe) */
    sim_time_t last_irq;  /* when it last fired */
    NicItr itr;           /* ixgbe's dynamic ITR (irq_mode ixgbe) */
    SoftirqWork napi;
    bool napi_scheduled;  /* NAPI_STATE_SCHED: the queue's interrupt is masked */
    uint32_t tx_cleaned;  /* TX completions cleaned in the current poll (queue 0) */
    bool rx_phase;        /* the current poll has done its TX cleaning and takes RX frames */
    bool tx_incomplete;   /* its TX cleaning stopped at NIC_TX_WORK_LIMIT: poll again */
    uint32_t tx_clean_bytes; /* their bytes not yet reported to BQL (queue 0) */
    Gro gro;
} NicQueue;

struct Nic {
    NetDev dev; /* first: a NetDev* of kind NETDEV_NIC is a Nic* */
    const NicConf *conf;
    LinkDir *tx;          /* the link direction this NIC transmits into */
    /* transmit */
    Qdisc *qdisc;         /* the root qdisc (conf->qdisc) */
    Cpu *qdisc_cpu;       /* the CPU running the qdisc now (for the skbs it drops) */
    uint32_t ring_used;   /* TX descriptors held, one per skb, until its TX completion */
    bool qdisc_running;   /* __QDISC_STATE_RUNNING: qdisc_run is not re-entered */
    bool bql_xoff;        /* __QUEUE_STATE_STACK_XOFF: BQL stopped the queue (conf->bql) */
    Dql dql;              /* the TX ring's byte queue limit (conf->bql) */
    /* a port faster than the link (conf->rate_bps above it): skbs whose frames the port is
     * sending, each with its completion time in ready_ns, in order */
    bool fast_port;
    SkbQueue port;
    SimEvent port_ev;     /* the head's completion */
    sim_time_t port_free; /* when the port has sent everything handed to it */
    SkbQueue tx_done;     /* skbs whose last frame left, waiting for the TX clean in queue 0 */
    /* receive */
    uint32_t rx_frame_truesize;
    uint32_t nq;          /* conf->rx_queues */
    NicQueue *q;          /* nq queues, allocated with the NIC */
};

static inline Nic *nic_of(NetDev *dev)
{
    return (Nic *)dev;
}

/* nic.c: a frame (tx false) or, on queue 0, a TX completion (tx true) came in while the
 * queue's NAPI is idle: interrupt, now or when its moderation (nic.irq_mode) lets it. */
void nic_irq(NicQueue *q, bool tx);
/* Whether a frame arriving at `at` would make the interrupt fire sooner than it is due (none
 * is pending, or a TX completion's longer tx_coalesce set it). */
bool nic_irq_rx_sooner(const NicQueue *q, sim_time_t at);
/* The CPU queue q interrupts (nic.irq_cpus, or irq_cpu + its index); NULL in CPU-less tests. */
Cpu *nic_irq_cpu(const NicQueue *q);

/* nic_rx.c */
void nic_rx_init(NicQueue *q);
void nic_rx_destroy(NicQueue *q);
/* Admit every frame of this queue that has arrived by now, then take the oldest of its ring. */
Skb *nic_rx_take(NicQueue *q);
/* NAPI idle: arm the event for the queue's next frame arrival (no-op while NAPI is scheduled,
 * while the pending IRQ comes no later than that frame's would, or with nothing on its way). */
void nic_rx_arm(NicQueue *q);
#endif
