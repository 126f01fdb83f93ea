/* evkind.h - the stable numbers of event kinds, for fingerprints and logs.
 *
 * A kind's number must never change once outputs have been pinned in tests/golden: append new
 * kinds at the end. The name is what the event log prints.
 */
#ifndef SKSIM_EVKIND_H
#define SKSIM_EVKIND_H

#define SIM_EVKINDS(X)                                                                          \
    X(EVK_TEST, "test")                                                                         \
    X(EVK_SAMPLE, "sample")                                                                     \
    X(EVK_TIMER, "timer")                                                                       \
    X(EVK_CPU, "cpu")                                                                           \
    X(EVK_SCHED_TICK, "sched_tick")                                                             \
    X(EVK_NIC_TX, "nic_tx")                                                                     \
    X(EVK_LINK, "link")                                                                         \
    X(EVK_NIC_RX, "nic_rx")                                                                     \
    X(EVK_APP, "app")                                                                           \
    X(EVK_WARMUP, "warmup")                                                                     \
    X(EVK_NIC_IRQ, "nic_irq")                                                                   \
    X(EVK_PACING, "pacing")                                                                     \
    X(EVK_TASK_WAKE, "task_wake")                                                               \
    X(EVK_COMP_SACK, "comp_sack")                                                               \
    X(EVK_RPS_IPI, "rps_ipi")

enum {
#define SIM_EVKIND_ENUM(id, name) id,
    SIM_EVKINDS(SIM_EVKIND_ENUM)
#undef SIM_EVKIND_ENUM
    EVK_COUNT
};

const char *sim_evkind_name(unsigned kind);

#endif
