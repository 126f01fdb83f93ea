/* nic_itr.h - ixgbe's adaptive interrupt throttle rate (rx-usecs 1, "dynamic ITR", its default).
 *
 * An Intel 10G NIC (82598/82599/X540, driver ixgbe) throttles each MSI-X vector's interrupts to
 * at most one per ITR interval. In its default dynamic mode the driver picks that interval
 * after every NAPI poll that completes, from the bytes the vector's RX and TX rings moved since
 * the previous choice: a latency class per ring (lowest, low, bulk), the slower of the two
 * classes sets a target (100000, 20000 or 8000 interrupts/s), and the interval moves toward the
 * target by exponential smoothing. nic.c applies the interval (hosts.H.nic.irq_mode: ixgbe).
 *
 * The struct is public so that a NIC queue can embed it; its fields are private to nic_itr.c.
 */
#ifndef SKSIM_NIC_ITR_H
#define SKSIM_NIC_ITR_H

#include <stdint.h>

#include "sim/simtime.h"

typedef struct NicItrRing {
    uint8_t latency;    /* latency class: 0 lowest, 1 low, 2 bulk */
    uint64_t bytes;     /* bytes cleaned since the previous update */
    uint64_t packets;   /* packets (RX frames, TX skbs) cleaned since then */
} NicItrRing;

typedef struct NicItr {
    uint32_t itr;       /* q_vector->itr: the interval in quarter microseconds (us << 2) */
    NicItrRing rx, tx;
} NicItr;

/* A vector with RX rings in dynamic mode: itr = IXGBE_20K_ITR (50 us), both rings lowest. */
void nic_itr_init(NicItr *it);
/* What a poll cleaned: RX frames and their bytes (skb->len before eth_type_trans: the frame
 * without its FCS), TX skbs and their bytes on the wire (every segment's headers). */
void nic_itr_rx(NicItr *it, uint64_t bytes);
void nic_itr_tx(NicItr *it, uint64_t bytes);
/* ixgbe_set_itr, after a poll completes: update both rings' classes and move itr. */
void nic_itr_update(NicItr *it);
/* The interval the hardware throttles to: itr masked to the EITR register's field (IXGBE_MAX_
 * EITR, 2 us steps), in nanoseconds. */
sim_time_t nic_itr_interval(const NicItr *it);

#endif
