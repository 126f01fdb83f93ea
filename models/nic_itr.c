/* nic_itr.c - ixgbe's dynamic interrupt throttle rate (hosts.H.nic.irq_mode: ixgbe).
 *
 * What it models: the interval an ixgbe vector's interrupts are throttled to in the driver's
 * default mode (ethtool -C rx-usecs 1), as drivers/net/ethernet/intel/ixgbe/ixgbe_main.c chose
 * it from 3.2 ("ixgbe: Cleanup q_vector interrupt throttle rate logic", 2011) until the bulk
 * rate became 12000/s in 2015 (8ac34f10a5ea) and the algorithm was replaced in 2018 - the
 * 2012 kernels of seed 004 included. Its facts:
 *   - q_vector->itr holds the interval in microseconds shifted left by 2 (ixgbe.h: "microsecond
 *     values for various ITR rates shifted by 2"): IXGBE_100K_ITR 40 (10 us), IXGBE_20K_ITR 200
 *     (50 us), IXGBE_8K_ITR 500 (125 us). A vector with RX rings starts at IXGBE_20K_ITR.
 *   - ixgbe_update_itr, per ring, when the ring moved packets since the last update: bytes per
 *     microsecond of the current interval (bytes / (itr >> 2)); lowest -> low above 10, low ->
 *     bulk above 20 and low -> lowest at 10 or less, bulk -> low at 20 or less. The counts are
 *     then cleared; a ring that moved nothing keeps its class.
 *   - ixgbe_set_itr, after a poll completes (ixgbe_poll, before the vector's interrupt is
 *     enabled again): the larger class of the two rings sets the target (lowest 40, low 200,
 *     bulk 500); if itr differs from it, itr = 10 * target * itr / (9 * target + itr), integer
 *     arithmetic, and the register is written.
 *   - ixgbe_write_eitr writes itr & IXGBE_MAX_EITR (0xFF8): the register counts the interval
 *     in 2 us steps, the driver's quarter-microsecond value with its low 3 bits cleared.
 * The smoothing's integer division stops short of a larger target: from 50 us, bulk traffic
 * moves itr 200, 212, 224, ... and it settles at 490 after 47 steps (10 * 500 * 490 / 4990 =
 * 490.98), a 122 us interval (488 quarter microseconds): 8197 interrupts/s. A smaller target is
 * reached (490 to 40 in 22 steps).
 */
#include "models/nic_itr.h"

enum { LOWEST_LATENCY = 0, LOW_LATENCY = 1, BULK_LATENCY = 2 };

#define IXGBE_100K_ITR 40u
#define IXGBE_20K_ITR 200u
#define IXGBE_8K_ITR 500u
#define IXGBE_MAX_EITR 0xFF8u
/* bytes per microsecond of the interval that leave the lowest and the low class */
#define EITR_LOW 10u
#define EITR_HIGH 20u

void nic_itr_init(NicItr *it)
{
    *it = (NicItr){.itr = IXGBE_20K_ITR};
}

void nic_itr_rx(NicItr *it, uint64_t bytes)
{
    it->rx.bytes += bytes;
    it->rx.packets++;
}

void nic_itr_tx(NicItr *it, uint64_t bytes)
{
    it->tx.bytes += bytes;
    it->tx.packets++;
}

static void update_ring(const NicItr *it, NicItrRing *r)
{
    if (r->packets == 0)
        return;
    uint32_t us = it->itr >> 2;
    if (us == 0) /* bdbeefe8ea8c's guard; the dynamic itr never falls below 40 */
        return;
    uint64_t per_us = r->bytes / us;
    switch (r->latency) {
    case LOWEST_LATENCY:
        if (per_us > EITR_LOW)
            r->latency = LOW_LATENCY;
        break;
    case LOW_LATENCY:
        if (per_us > EITR_HIGH)
            r->latency = BULK_LATENCY;
        else if (per_us <= EITR_LOW)
            r->latency = LOWEST_LATENCY;
        break;
    default:
        if (per_us <= EITR_HIGH)
            r->latency = LOW_LATENCY;
        break;
    }
    r->bytes = 0;
    r->packets = 0;
}

void nic_itr_update(NicItr *it)
{
    update_ring(it, &it->tx);
    update_ring(it, &it->rx);
    uint8_t cls = it->rx.latency > it->tx.latency ? it->rx.latency : it->tx.latency;
    uint32_t target = cls == LOWEST_LATENCY ? IXGBE_100K_ITR
                      : cls == LOW_LATENCY  ? IXGBE_20K_ITR
                                            : IXGBE_8K_ITR;
    if (target != it->itr)
        it->itr = (uint32_t)((10ull * target * it->itr) / (9ull * target + it->itr));
}

sim_time_t nic_itr_interval(const NicItr *it)
{
    /* (itr & 0xFF8) quarter microseconds = 250 ns each */
    return (sim_time_t)(it->itr & IXGBE_MAX_EITR) * 250;
}
