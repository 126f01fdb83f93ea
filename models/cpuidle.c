/* cpuidle.c - C-state tables and the governor's choice of state (hosts.H.sched.cpuidle).
 *
 * What it models: an idle CPU woken by an interrupt or a wake-up starts work only once it has
 * left the idle state it was in (the state's exit_latency). The wait is latency, not CPU work:
 * it delays the woken task or softirq and stays idle time in the CPU's accounting (cpu.c).
 *
 * Tables: exit_latency and target_residency in microseconds, as drivers/idle/intel_idle.c lists
 * them per CPU model (nehalem_cstates, snb_cstates, skx_cstates, icx_cstates). They are the
 * driver's figures, upper bounds that the governor plans with; a BIOS may hide states (the
 * driver's use_acpi parts keep only what ACPI _CST lists), which these tables do not.
 *
 * Governor: the menu governor (the default with NOHZ) predicts the idle period from the next
 * timer event and from the typical interval of the last eight idle periods, then takes the
 * deepest enabled state whose target_residency is at most the prediction and whose
 * exit_latency meets the PM QoS limit; when the prediction is shorter than every physical
 * state's residency it still prefers the shallowest physical state to polling unless a timer
 * is due sooner ("Use a physical idle state, not busy polling, unless a timer is going to
 * trigger soon enough", drivers/cpuidle/governors/menu.c). The model's prediction is the
 * CPU's previous idle period (cpu.c): in a steady pattern menu's typical interval is that
 * period; no PM QoS limit and no timer are consulted.
 */
#include "models/cpuidle.h"

#include <stdint.h>

typedef struct {
    uint16_t exit_us, residency_us;
} CState;

/* Terminated by {0, 0}. */
static const CState nhm[] = { { 3, 6 }, { 10, 20 }, { 20, 80 }, { 200, 800 }, { 0, 0 } };
static const CState snb[] = { { 2, 2 }, { 10, 20 }, { 80, 211 }, { 104, 345 }, { 109, 345 },
                              { 0, 0 } };
static const CState skx[] = { { 2, 2 }, { 10, 20 }, { 133, 600 }, { 0, 0 } };
static const CState icx[] = { { 1, 1 }, { 4, 4 }, { 128, 384 }, { 0, 0 } };

static const CState *table(CpuidleTable t)
{
    switch (t) {
    case CPUIDLE_NHM:
        return nhm;
    case CPUIDLE_SNB:
        return snb;
    case CPUIDLE_SKX:
        return skx;
    case CPUIDLE_ICX:
        return icx;
    case CPUIDLE_POLL:
    default:
        return NULL;
    }
}

sim_time_t cpuidle_exit_latency(CpuidleTable t, sim_time_t predicted_ns)
{
    const CState *s = table(t);
    if (!s)
        return 0;
    const CState *pick = &s[0];
    for (const CState *c = s; c->exit_us; c++)
        if ((sim_time_t)c->residency_us * SIM_US <= predicted_ns)
            pick = c;
    return (sim_time_t)pick->exit_us * SIM_US;
}
